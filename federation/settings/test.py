"""Test settings: same as the embedded default, fast password hashing, no external calls."""
from .base import *  # noqa: F401,F403
from .base import VAR_DIR

VAR_DIR.mkdir(exist_ok=True)
(VAR_DIR / "static").mkdir(exist_ok=True)
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}
