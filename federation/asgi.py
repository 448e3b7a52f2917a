"""ASGI entry point."""
import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "federation.settings.production")
application = get_asgi_application()

from federation.dbtimeout import install_for_web  # noqa: E402 (after setup)

install_for_web()  # a statement timeout on the web's database connections
