"""Production: PostgreSQL, Redis/Celery, HTTPS. Every secret comes from the environment.

``DJANGO_SECRET_KEY``, ``DATABASE_URL``, ``REDIS_URL`` and ``DJANGO_ALLOWED_HOSTS`` are required.
``python manage.py check --deploy --settings=federation.settings.production`` is clean.

E-mail (password reset links): set ``EMAIL_URL`` (``smtp+tls://user:password@host:587``) or ``EMAIL_HOST``,
``EMAIL_PORT``, ``EMAIL_HOST_USER``, ``EMAIL_HOST_PASSWORD``, ``EMAIL_USE_TLS``, and ``DEFAULT_FROM_EMAIL``
(see ``base.py``). Without them e-mails are written to the log (console backend), as in the embedded mode.
"""
from .base import *  # noqa: F401,F403
from .base import DATABASES, MIDDLEWARE, REST_FRAMEWORK, env

DEBUG = False
SECRET_KEY = env("DJANGO_SECRET_KEY")
# Required here (ImproperlyConfigured when missing), never the embedded fallbacks of base.py: a production
# site without them would quietly run on a SQLite file, with jobs in the web process and a cache per
# process — and /healthz would still say "ok".
DATABASES["default"] = {**env.db("DATABASE_URL"), "ATOMIC_REQUESTS": False}
# Connections kept open between requests (checked before reuse): a new PostgreSQL connection per request
# cost more database CPU than the queries of a cached page (benchmarks/load_test.py: 7.3 -> 0.5 ms).
DATABASES["default"]["CONN_MAX_AGE"] = env.int("DATABASE_CONN_MAX_AGE", default=60)
DATABASES["default"]["CONN_HEALTH_CHECKS"] = True
# Behind PgBouncer in transaction pooling mode (docs/operations.md "Past one machine"): a server-side
# cursor (QuerySet.iterator()) outlives the transaction PgBouncer lends a server connection for, so set
# DATABASE_DISABLE_SERVER_SIDE_CURSORS=true. Prepared statements are already off (Django's psycopg 3
# default, prepare_threshold=None) and CONN_MAX_AGE then keeps the cheap connections to PgBouncer open.
DATABASES["default"]["DISABLE_SERVER_SIDE_CURSORS"] = env.bool("DATABASE_DISABLE_SERVER_SIDE_CURSORS", default=False)
# A read replica (PostgreSQL streaming replication) for public reads: DATABASE_REPLICA_URL. Anonymous
# GET/HEAD requests read from it; writes, transactions, logged-in users, API tokens and Celery jobs use
# the primary (federation/db_router.py). Unset: one database, neither router nor middleware installed.
if env("DATABASE_REPLICA_URL", default=""):
    DATABASES["replica"] = {
        **env.db("DATABASE_REPLICA_URL"),
        "ATOMIC_REQUESTS": False,
        "CONN_MAX_AGE": DATABASES["default"]["CONN_MAX_AGE"],
        "CONN_HEALTH_CHECKS": True,
        "DISABLE_SERVER_SIDE_CURSORS": DATABASES["default"]["DISABLE_SERVER_SIDE_CURSORS"],
        # in tests the replica is the test database itself, never one of its own
        "TEST": {"MIRROR": "default"},
    }
    DATABASE_ROUTERS = ["federation.db_router.ReplicaRouter"]
    # right after the health check (which asks the primary), before anything reads
    _after = MIDDLEWARE.index("federation.health.HealthCheckMiddleware") + 1
    MIDDLEWARE = [*MIDDLEWARE[:_after], "federation.db_router.ReplicaReadsMiddleware", *MIDDLEWARE[_after:]]
if not (env("REDIS_URL", default="") or env("CELERY_BROKER_URL", default="")):
    from django.core.exceptions import ImproperlyConfigured

    raise ImproperlyConfigured("Set REDIS_URL (the Celery broker and the cache) for the production settings.")
# Celery's own worker and beat log lines go through LOGGING below (JSON), not Celery's plain-text handler
CELERY_WORKER_HIJACK_ROOT_LOGGER = False
# A static file missing from the manifest (``collectstatic`` not run after an update) is served under its
# plain name instead of failing every page with a 500.
WHITENOISE_MANIFEST_STRICT = False
ALLOWED_HOSTS = env.list("DJANGO_ALLOWED_HOSTS")
CSRF_TRUSTED_ORIGINS = env.list("DJANGO_CSRF_TRUSTED_ORIGINS", default=[])
# X-Forwarded-Proto is believed only behind our own TLS proxy (DJANGO_BEHIND_PROXY=true); gunicorn in
# docker/ accepts forwarded headers only from FORWARDED_ALLOW_IPS (default 127.0.0.1).
if env.bool("DJANGO_BEHIND_PROXY", default=False):
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SECURE_SSL_REDIRECT = env.bool("DJANGO_SECURE_SSL_REDIRECT", default=True)
SECURE_HSTS_SECONDS = env.int("DJANGO_SECURE_HSTS_SECONDS", default=31536000)
SECURE_HSTS_INCLUDE_SUBDOMAINS = True
SECURE_HSTS_PRELOAD = True
# Cookies only over HTTPS; DJANGO_SECURE_COOKIES=false is for a plain-http trial (docker/compose.yml).
SESSION_COOKIE_SECURE = env.bool("DJANGO_SECURE_COOKIES", default=True)
CSRF_COOKIE_SECURE = SESSION_COOKIE_SECURE
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"},
}
# No HTTP Basic in production: a browser would keep sending stored Basic credentials. Scripts use a
# token (`manage.py drf_create_token USER`, header `Authorization: Token <key>`), pages the session.
REST_FRAMEWORK = {
    **REST_FRAMEWORK,
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "federation.drf.TokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
}
# The cache (base.py: Redis when CACHE_URL or REDIS_URL is set) holds the API throttle counters shared
# by every gunicorn worker and the cached standings, crosstables and rating lists.

# Logs: one JSON object per line on stdout (python-json-logger), for a log collector: time, level,
# logger, message and the record's extra fields (a failing request's status code and path, an invariant
# violation's details); a traceback as one "exc_info" string. DJANGO_LOG_FORMAT=text for plain lines.
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {
        "json": {
            "()": "federation.logs.JsonFormatter",
            "fmt": "%(asctime)s %(levelname)s %(name)s %(message)s",
            "datefmt": "%Y-%m-%dT%H:%M:%S%z",
            "rename_fields": {"asctime": "time", "levelname": "level", "name": "logger"},
        },
        "text": {"format": "%(asctime)s %(levelname)s %(name)s %(message)s"},
    },
    "handlers": {
        "console": {"class": "logging.StreamHandler", "formatter": env("DJANGO_LOG_FORMAT", default="json")},
    },
    "root": {"handlers": ["console"], "level": env("DJANGO_LOG_LEVEL", default="WARNING")},
}
