"""Federation app (members, clubs, roles) and the Django project package (settings, urls, Celery)."""
from .celery import app as celery_app

__all__ = ("celery_app",)
