"""Settings shared by every mode, read from environment variables (django-environ).

Embedded default: SQLite at ``var/db.sqlite3`` and Celery in eager mode. Set ``DATABASE_URL`` for
PostgreSQL and ``CELERY_BROKER_URL`` or ``REDIS_URL`` for a real broker.
"""
from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import environ
from celery.schedules import crontab
from csp.constants import NONE, SELF

from federation.queues import task_routes

BASE_DIR = Path(__file__).resolve().parent.parent.parent
VAR_DIR = BASE_DIR / "var"

env = environ.Env()
environ.Env.read_env(BASE_DIR / ".env", overwrite=False) if (BASE_DIR / ".env").exists() else None

SECRET_KEY = env("DJANGO_SECRET_KEY", default="embedded-insecure-key-change-me-in-production")
DEBUG = env.bool("DJANGO_DEBUG", default=False)
ALLOWED_HOSTS = env.list("DJANGO_ALLOWED_HOSTS", default=["127.0.0.1", "localhost", "testserver"])
#: The site's public address (``https://turnuva.example.org``), the base of absolute links made outside a
#: page the phone is already on (the QR codes of the result slips). Empty: the address of the request.
SITE_URL = env("SITE_URL", default="").strip().rstrip("/")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django.contrib.humanize",
    "rest_framework",
    "rest_framework.authtoken",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "django_filters",
    "simple_history",
    "axes",
    "csp",
    "federation",
    "tournaments",
    "games",
    "ratings",
]

MIDDLEWARE = [
    # first: /healthz answers before the host check and the HTTPS redirect (federation/health.py)
    "federation.health.HealthCheckMiddleware",
    # forwarded headers (X-Forwarded-Proto ...) only from our proxy's address (federation/security.py)
    "federation.security.UntrustedForwardedHeadersMiddleware",
    "django.middleware.security.SecurityMiddleware",
    # anonymous readers of public pages get finished answers before anything else costs (federation/pagecache.py)
    "federation.pagecache.PublicPageMiddleware",
    "csp.middleware.CSPMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "federation.middleware.BadInputMiddleware",
    # a query cut by the web's statement timeout: 503 + Retry-After, not a 500 (federation/dbtimeout.py)
    "federation.dbtimeout.StatementTimeoutMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # answers to logged-in users (session or token) say Cache-Control: private: no shared cache keeps them
    "federation.middleware.PrivateForUsersMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "simple_history.middleware.HistoryRequestMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    # last: turns a login refused by the lockout (axes) into the lockout page / API error
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "federation.urls"
WSGI_APPLICATION = "federation.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "django.template.context_processors.i18n",
            ],
        },
    },
]

DATABASES = {
    "default": env.db("DATABASE_URL", default=f"sqlite:///{VAR_DIR / 'db.sqlite3'}"),
}
DATABASES["default"]["ATOMIC_REQUESTS"] = False
if DATABASES["default"]["ENGINE"].endswith("sqlite3"):
    # A hall of referees on the embedded database: write transactions take the lock when they begin
    # (BEGIN IMMEDIATE, so no deadlock on upgrading a read lock), wait up to 20 s for it, and WAL lets
    # readers go on while one writer writes (Django >= 5.1 "init_command"/"transaction_mode").
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        {
            "timeout": 20,
            "transaction_mode": "IMMEDIATE",
            "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; PRAGMA busy_timeout=20000;",
        }
    )

# PostgreSQL statement timeouts (milliseconds; 0: none; federation/dbtimeout.py): every connection of the
# web process (gunicorn, runserver) may run one statement this long; Celery workers (long jobs: TRF
# imports, re-ratings) their own, none by default. Management commands keep the server's default.
DATABASE_STATEMENT_TIMEOUT_MS = env.int("DATABASE_STATEMENT_TIMEOUT_MS", default=30_000)
WORKER_DATABASE_STATEMENT_TIMEOUT_MS = env.int("WORKER_DATABASE_STATEMENT_TIMEOUT_MS", default=0)

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
# axes first: a locked-out user name + address is refused before the password is even checked
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

LANGUAGE_CODE = "tr"
LANGUAGES = [("tr", "Türkçe"), ("en", "English")]
LOCALE_PATHS = [BASE_DIR / "locale"]
# One date format per language (1 Aralık 2026 / 1 Dec 2026): federation/formats/<lang>/formats.py
FORMAT_MODULE_PATH = ["federation.formats"]
# A form sent after its CSRF token expired (a page open too long): a translated page that says to
# reload, not Django's English one (federation.error_views.csrf_failure)
CSRF_FAILURE_VIEW = "federation.error_views.csrf_failure"
TIME_ZONE = "Europe/Istanbul"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = VAR_DIR / "static"
STATICFILES_DIRS = [BASE_DIR / "static"]
MEDIA_ROOT = VAR_DIR / "media"
MEDIA_URL = "media/"

# --- Celery -----------------------------------------------------------------------------------
REDIS_URL = env("REDIS_URL", default="")
CELERY_BROKER_URL = env("CELERY_BROKER_URL", default=REDIS_URL)
CELERY_RESULT_BACKEND = env("CELERY_RESULT_BACKEND", default=REDIS_URL or None)
CELERY_TASK_ALWAYS_EAGER = not CELERY_BROKER_URL
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_TASK_SERIALIZER = "json"
CELERY_RESULT_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_TASK_TRACK_STARTED = True
# One queue per kind of job (federation/queues.py); CELERY_QUEUE_PREFIX keeps the
# queues of a test run apart from any other worker on the same Redis.
CELERY_QUEUE_PREFIX = env("CELERY_QUEUE_PREFIX", default="")
CELERY_TASK_DEFAULT_QUEUE = f"{CELERY_QUEUE_PREFIX}default"
CELERY_TASK_ROUTES = task_routes(CELERY_QUEUE_PREFIX)
CELERY_TIMEZONE = TIME_ZONE
# a web request that queues a job never hangs on an unreachable broker (about 2 s at most)
CELERY_BROKER_CONNECTION_TIMEOUT = 2
CELERY_TASK_PUBLISH_RETRY_POLICY = {"max_retries": 2, "interval_start": 0, "interval_step": 0.5, "interval_max": 1}
# ... nor on the result store (the same Redis): Celery's default is 20 reconnection attempts a second
# apart, which held a PDF request 20 s while Redis was down; now one quick retry, then a 503 at once
CELERY_RESULT_BACKEND_TRANSPORT_OPTIONS = {
    "retry_policy": {"max_retries": 1, "interval_start": 0, "interval_step": 0.5, "interval_max": 0.5},
}
CELERY_REDIS_SOCKET_CONNECT_TIMEOUT = 2
CELERY_REDIS_SOCKET_TIMEOUT = 10
# A job survives the worker that runs it: its message is acknowledged only once the task has run
# (acks late), a worker process killed mid-job gives it back to the queue (reject on worker lost), and
# each worker process holds one message at a time (prefetch 1), so a crash strands nothing that was
# only waiting. Every task is idempotent (a PDF per tournament version, a rating run in one
# transaction, a record import resuming from its progress counter): a job run twice, or resumed after
# a crash, leaves what one clean run leaves. Transient errors are retried (federation/jobs.py).
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
# the broker connection lost: running jobs stop, their messages are delivered again anyway
CELERY_WORKER_CANCEL_LONG_RUNNING_TASKS_ON_CONNECTION_LOSS = True
# Redis: a message taken by a worker that died without acknowledging it (the whole worker killed)
# goes back to the queue after ``visibility_timeout`` seconds. It must exceed the longest job, or a
# job still running is delivered to a second worker: a full re-rating of 1,000,000 sets takes about a
# minute, the largest record import (5,000,000 characters) a few minutes, a PDF seconds. It is also
# how long such a job waits before it runs again (record imports are re-queued sooner by the sweep).
CELERY_BROKER_TRANSPORT_OPTIONS = {"visibility_timeout": env.int("CELERY_VISIBILITY_TIMEOUT", default=1800)}
CELERY_RESULT_EXPIRES = 24 * 3600  # seconds a task's result is kept (Redis key expiry)
# Periodic jobs, sent by `celery -A federation beat` (one beat process per deployment).
# TRF_IMPORT_SWEEP_SECONDS (60): how often the TRF sweep runs; a killed import ends within
# TRF_IMPORT_LEASE_SECONDS + this + its own run time (docs/operations.md).
TRF_IMPORT_SWEEP_SECONDS = env.float("TRF_IMPORT_SWEEP_SECONDS", default=60.0)
CELERY_BEAT_SCHEDULE = {
    "sweep-stuck-record-imports": {"task": "games.sweep_stuck_imports", "schedule": 60.0},
    "sweep-stuck-trf-imports": {"task": "tournaments.sweep_stuck_trf_imports", "schedule": TRF_IMPORT_SWEEP_SECONDS},
    # every night at 03:30 (TIME_ZONE): the database's invariants (stones, match shapes, standings and
    # their cached copies, ratings); each violation is logged at ERROR level (tournaments/invariants.py)
    "check-invariants": {"task": "tournaments.check_invariants", "schedule": crontab(hour=3, minute=30)},
    # the 1st of every month at 04:00 (TIME_ZONE): the official rating list of that day, when
    # RATING_LIST_AUTO_PUBLISH is on (else the job does nothing); ratings/tasks.py
    "publish-rating-list": {"task": "ratings.publish_monthly_list", "schedule": crontab(day_of_month=1, hour=4, minute=0)},
}
# Publish the official rating list by itself every month (the beat entry above); off: staff publish
# each list on /ratings/lists/publish/ (or POST /api/ratings/lists/).
RATING_LIST_AUTO_PUBLISH = env.bool("RATING_LIST_AUTO_PUBLISH", default=False)
# A TRF file with more player lines or round cells than these is imported by a job on the imports
# queue (202 and a progress page); smaller ones (about a second's work) within the request. 0 and 0:
# every import is a job (tournaments/trf/jobs.py: needs_job).
TRF_JOB_MIN_PLAYERS = env.int("TRF_JOB_MIN_PLAYERS", default=250)
TRF_JOB_MIN_CELLS = env.int("TRF_JOB_MIN_CELLS", default=2_500)
# A TRF import still queued after this long lost its message: the sweep marks it failed with that
# reason (the organiser uploads it again).
TRF_IMPORT_STUCK_MINUTES = env.int("TRF_IMPORT_STUCK_MINUTES", default=30)
# A running TRF import writes a heartbeat every LEASE/4 seconds; one without a heartbeat for this long
# lost its worker. It is one transaction, so nothing was imported: the next delivery of its task (the
# broker's redelivery, or the sweep's re-queue, every minute) restarts it from the stored file, at most
# TRF_IMPORT_MAX_ATTEMPTS runs in all; then it is marked failed with the reason.
TRF_IMPORT_LEASE_SECONDS = env.int("TRF_IMPORT_LEASE_SECONDS", default=60)
TRF_IMPORT_MAX_ATTEMPTS = env.int("TRF_IMPORT_MAX_ATTEMPTS", default=3)
# A record import pending or running without a heartbeat for this long has lost its worker (or its
# message): the sweep re-queues it once (it resumes where it stopped), then marks it failed.
RECORD_IMPORT_STUCK_MINUTES = env.int("RECORD_IMPORT_STUCK_MINUTES", default=10)

# --- Cache -----------------------------------------------------------------------------------------
# Standings, crosstables, live rounds and rating lists are cached under keys that carry the version
# their data had (tournaments/caching.py), so a cache never serves a stale table. Embedded default:
# each process's memory. With Redis (CACHE_URL, else REDIS_URL): one cache for every gunicorn worker;
# federation.cache.ResilientRedisCache fails open (a Redis restart slows pages down, never breaks them).
CACHE_URL = env("CACHE_URL", default=REDIS_URL)
if CACHE_URL:
    CACHES = {
        "default": {
            "BACKEND": "federation.cache.ResilientRedisCache",
            "LOCATION": CACHE_URL,
            "KEY_PREFIX": env("CACHE_KEY_PREFIX", default="mangala"),
            "TIMEOUT": 6 * 3600,
            "OPTIONS": {
                "socket_connect_timeout": env.float("CACHE_CONNECT_TIMEOUT", default=0.5),
                "socket_timeout": env.float("CACHE_TIMEOUT", default=1.0),
            },
        }
    }
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "TIMEOUT": 6 * 3600,
                          "OPTIONS": {"MAX_ENTRIES": 2000}}}

# Finished public answers (federation/pagecache.py): on unless PUBLIC_PAGE_CACHE=false; how long the front
# proxy (docker/nginx) may keep one (X-Accel-Expires); how often the pages of the round being played are
# rebuilt at most, however many results arrive (tournaments/caching.py).
PUBLIC_PAGE_CACHE = env.bool("PUBLIC_PAGE_CACHE", default=True)
PUBLIC_PAGE_PROXY_SECONDS = env.int("PUBLIC_PAGE_PROXY_SECONDS", default=3)
LIVE_RECOMPUTE_SECONDS = env.float("LIVE_RECOMPUTE_SECONDS", default=3.0)

HEALTH_TIMEOUT = env.float("HEALTH_TIMEOUT", default=1.0)  # seconds each /healthz check may take
# /healthz says "degraded" when no Celery worker's heartbeat (written to the cache) is younger than this
WORKER_HEARTBEAT_MAX_AGE = env.int("WORKER_HEARTBEAT_MAX_AGE", default=60)
WORKER_HEARTBEAT_WRITE_SECONDS = env.int("WORKER_HEARTBEAT_WRITE_SECONDS", default=10)

# --- REST framework ---------------------------------------------------------------------------
REST_FRAMEWORK = {
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    # Basic first: an anonymous or wrongly authenticated request gets 401 with WWW-Authenticate
    # (embedded/dev mode; production uses Token + Session only: federation.settings.production)
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "federation.drf.BasicAuthentication",
        "rest_framework.authentication.SessionAuthentication",
        "federation.drf.TokenAuthentication",
    ],
    # rates from API_THROTTLE_RATES below, read at request time; off when API_THROTTLE_ENABLED is false
    "DEFAULT_THROTTLE_CLASSES": ["federation.drf.AnonRateThrottle", "federation.drf.UserRateThrottle"],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticatedOrReadOnly"],
    "DEFAULT_FILTER_BACKENDS": ["django_filters.rest_framework.DjangoFilterBackend"],
    "EXCEPTION_HANDLER": "federation.api.exception_handler",
    "DEFAULT_PAGINATION_CLASS": "federation.drf.Pagination",
    "PAGE_SIZE": 100,
}
# History pages stay in the admin; "revert" does not: it would write old rows past the rules the
# services check (un-merging a player, re-opening a round) — every way back goes through the product.
SIMPLE_HISTORY_REVERT_DISABLED = True

SPECTACULAR_SETTINGS = {
    "TITLE": "Mangala Federation API",
    "DESCRIPTION": "Tournaments, pairings, three-set match results, standings and crosstables.",
    "VERSION": "0.1.0",
    "SERVE_INCLUDE_SCHEMA": False,
    # request bodies get their own components (XxxRequest): a CharField that refuses "" says so there
    # (minLength: 1) and not in answers; read-only fields are left out of requests; uploads are binary
    "COMPONENT_SPLIT_REQUEST": True,
    # Swagger UI served from our own static files (no CDN: works offline and in closed halls)
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "federation.schema.document_errors",
    ],
    "ENUM_NAME_OVERRIDES": {
        "TournamentStatusEnum": "tournaments.models.Tournament.Status",
        "RoundStatusEnum": "tournaments.models.Round.Status",
        "VariantEnum": "tournaments.models.Tournament.Variant",
        "FormatEnum": "tournaments.models.Tournament.Format",
        "SideEnum": ["first", "second"],
        "HalfOrZeroByeEnum": ["half", "zero"],
        "JobStatusEnum": ["queued", "running", "done", "failed"],
        # a new tournament's acceleration: none or baku (manual only from an imported TRF file)
        "AccelerationEnum": "tournaments.models.Tournament.Acceleration",
        "NewTournamentAccelerationEnum": "tournaments.serializers.CREATE_ACCELERATION_CHOICES",
    },
}

# --- Security: login lockout, API throttles, Content-Security-Policy ---------------------------
# Behind a reverse proxy (DJANGO_BEHIND_PROXY=true) the client address is the last X-Forwarded-For
# entry, the one our proxy added (federation.security.client_ip); otherwise REMOTE_ADDR.
BEHIND_PROXY = env.bool("DJANGO_BEHIND_PROXY", default=False)
# ... and only from a request that came from that proxy: its address(es) or network(s), the list gunicorn
# also trusts (FORWARDED_ALLOW_IPS, e.g. "127.0.0.1" or "172.16.0.0/12" for a proxy container)
TRUSTED_PROXIES = env.list("FORWARDED_ALLOW_IPS", default=["127.0.0.1"])

# django-axes: 10 failed logins for one user name from one address lock that pair for 15 minutes
# (UI login, admin login and API HTTP Basic alike); a successful login resets the count.
AXES_ENABLED = env.bool("AXES_ENABLED", default=True)
AXES_FAILURE_LIMIT = env.int("AXES_FAILURE_LIMIT", default=10)
AXES_COOLOFF_TIME = timedelta(minutes=env.int("AXES_COOLOFF_MINUTES", default=15))
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_RESET_COOL_OFF_ON_FAILURE_DURING_LOCKOUT = False  # the lock ends 15 minutes after it began
AXES_CLIENT_IP_CALLABLE = "federation.security.client_ip"
AXES_LOCKOUT_CALLABLE = "federation.security.lockout_response"
AXES_DISABLE_ACCESS_LOG = True  # keep failed attempts only, not a log of every successful login
AXES_HTTP_RESPONSE_CODE = 429
# failed attempts are rows in the database (axes.models.AccessAttempt), never in the cache: the lockout
# holds while Redis is down (API throttles, which count in the cache, fail open then: docs/operations.md)
AXES_HANDLER = "axes.handlers.database.AxesDatabaseHandler"

# API throttles (federation.drf): requests per client address (anonymous) or per user
API_THROTTLE_ENABLED = env.bool("API_THROTTLE_ENABLED", default=True)
API_THROTTLE_RATES = {
    "anon": env("API_THROTTLE_ANON", default="120/min"),
    "user": env("API_THROTTLE_USER", default="600/min"),
}

# django-csp: scripts, styles, images and fonts from this site only; no inline script or style
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF],
        "style-src": [SELF],
        "img-src": [SELF, "data:"],
        "font-src": [SELF],
        "connect-src": [SELF],
        "object-src": [NONE],
        "base-uri": [SELF],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
    },
}

TRF_MAX_UPLOAD_BYTES = env.int("TRF_MAX_UPLOAD_BYTES", default=2 * 1024 * 1024)  # TRF import, page and API

# --- E-mail (password reset links, new accounts) ----------------------------------------------------
# Embedded default: the console backend — e-mails are printed where `make run` runs. SMTP comes from the
# environment: ``EMAIL_URL`` (django-environ, e.g. ``smtp+tls://user:password@mail.example.org:587``,
# ``smtp+ssl://…:465``; percent-encode "@" in the user name as %40), or ``EMAIL_HOST`` with
# ``EMAIL_PORT``, ``EMAIL_HOST_USER``, ``EMAIL_HOST_PASSWORD``, ``EMAIL_USE_TLS``/``EMAIL_USE_SSL``.
# Messages are sent by a Celery job (federation.tasks.send_email_task): with a broker, a password reset
# request answers at once whether or not the address is known (no timing difference to probe).
EMAIL_BACKEND = "django.core.mail.backends.console.EmailBackend"
if env("EMAIL_URL", default=""):
    _email = env.email_url("EMAIL_URL")  # lower case: not a setting of its own
    EMAIL_BACKEND = _email["EMAIL_BACKEND"]
    globals().update({k: v for k, v in _email.items() if v not in (None, "") and k != "EMAIL_BACKEND"})
elif env("EMAIL_HOST", default=""):
    EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    EMAIL_HOST = env("EMAIL_HOST")
    EMAIL_PORT = env.int("EMAIL_PORT", default=587)
    EMAIL_HOST_USER = env("EMAIL_HOST_USER", default="")
    EMAIL_HOST_PASSWORD = env("EMAIL_HOST_PASSWORD", default="")
    EMAIL_USE_TLS = env.bool("EMAIL_USE_TLS", default=True)
    EMAIL_USE_SSL = env.bool("EMAIL_USE_SSL", default=False)
EMAIL_BACKEND = env("EMAIL_BACKEND", default=EMAIL_BACKEND)
EMAIL_TIMEOUT = env.int("EMAIL_TIMEOUT", default=20)  # seconds: a stuck mail server never hangs a job for long
DEFAULT_FROM_EMAIL = env("DEFAULT_FROM_EMAIL", default="Mangala Federasyonu <noreply@localhost>")
SERVER_EMAIL = env("SERVER_EMAIL", default=DEFAULT_FROM_EMAIL)
# A password reset link works for 3 days (Django's default), and once.
PASSWORD_RESET_TIMEOUT = env.int("PASSWORD_RESET_TIMEOUT", default=3 * 24 * 3600)
# At most this many reset e-mails per address and per client address an hour (more requests get the
# same answer, without an e-mail): nobody can flood a mailbox through the form.
PASSWORD_RESET_MAX_PER_HOUR = env.int("PASSWORD_RESET_MAX_PER_HOUR", default=5)

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env("DJANGO_LOG_LEVEL", default="WARNING")},
}
