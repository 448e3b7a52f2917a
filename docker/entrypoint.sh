#!/bin/sh
# Container entry point: one image, four roles (docker/compose.yml runs each as a service).
#   web          migrate (unless DJANGO_MIGRATE=0), copy the static files to STATIC_EXPORT_DIR when set
#                (nginx serves them: docker/nginx/), then gunicorn federation.wsgi on 0.0.0.0:$PORT (8000);
#                gunicorn believes X-Forwarded-* headers only from FORWARDED_ALLOW_IPS (default 127.0.0.1:
#                set it to the address of your TLS proxy, never to "*"). Tuning (docker/env.example):
#                WEB_CONCURRENCY processes (3), GUNICORN_THREADS per process (2), GUNICORN_TIMEOUT (150 s),
#                GUNICORN_GRACEFUL_TIMEOUT (30 s), GUNICORN_KEEPALIVE (5 s), GUNICORN_MAX_REQUESTS (1000)
#                with GUNICORN_MAX_REQUESTS_JITTER (100); access and error log lines as JSON on stdout
#                (federation/gunicorn_logger.py; GUNICORN_LOGGER_CLASS=gunicorn.glogging.Logger for plain lines).
#   worker       Celery worker serving the queues in WORKER_QUEUES (comma-separated, default every queue:
#                default,pdf,ratings,imports — federation/queues.py), WORKER_CONCURRENCY processes (2),
#                each replaced after WORKER_MAX_TASKS_PER_CHILD jobs (100); CELERY_LOG_LEVEL (info).
#                Node name celery@<container host name> (the compose health check pings it).
#   beat         Celery beat: the periodic jobs (CELERY_BEAT_SCHEDULE); exactly one per deployment.
#   manage ARGS  python manage.py ARGS (e.g. `manage createsuperuser`, `manage load_sample_data`)
#   anything else is executed as given.
set -eu
# run from the project folder (/app in the image; the checkout's root elsewhere) whatever the caller's
cd "$(dirname "$0")/.."

wait_for_db() {
  python - <<'PY'
import sys, time
import django
django.setup()
from django.db import connection
for i in range(60):
    try:
        connection.ensure_connection()
        sys.exit(0)
    except Exception as exc:  # the database container may still be starting
        last = exc
        time.sleep(1)
print(f"database not reachable after 60 s: {last}", file=sys.stderr)
sys.exit(1)
PY
}

# WORKER_QUEUES checked against federation/queues.py (a misspelt queue would leave its jobs waiting
# forever) and given CELERY_QUEUE_PREFIX, as the settings give it to the task routes.
worker_queues() {
  python - <<'PY'
import os, sys
from federation.queues import QUEUES
wanted = [q.strip() for q in os.environ.get("WORKER_QUEUES", ",".join(QUEUES)).split(",") if q.strip()]
unknown = [q for q in wanted if q not in QUEUES]
if unknown or not wanted:
    print(f"WORKER_QUEUES: unknown queue(s) {unknown or '(none given)'}; known: {','.join(QUEUES)}", file=sys.stderr)
    sys.exit(2)
prefix = os.environ.get("CELERY_QUEUE_PREFIX", "")
print(",".join(prefix + q for q in wanted))
PY
}

cmd=${1:-web}
case "$cmd" in
  web)
    shift || true
    wait_for_db
    if [ "${DJANGO_MIGRATE:-1}" = 1 ]; then python manage.py migrate --noinput; fi
    # the image's collected static files for nginx (docker/compose.yml's `static` volume); files of the
    # previous version stay, so pages still open in a browser keep their hashed CSS and JS
    if [ -n "${STATIC_EXPORT_DIR:-}" ]; then cp -R var/static/. "$STATIC_EXPORT_DIR"/; fi
    exec gunicorn federation.wsgi:application \
      --bind "0.0.0.0:${PORT:-8000}" \
      --workers "${WEB_CONCURRENCY:-3}" \
      --threads "${GUNICORN_THREADS:-2}" \
      --timeout "${GUNICORN_TIMEOUT:-150}" \
      --graceful-timeout "${GUNICORN_GRACEFUL_TIMEOUT:-30}" \
      --keep-alive "${GUNICORN_KEEPALIVE:-5}" \
      --max-requests "${GUNICORN_MAX_REQUESTS:-1000}" \
      --max-requests-jitter "${GUNICORN_MAX_REQUESTS_JITTER:-100}" \
      --worker-tmp-dir /dev/shm \
      --forwarded-allow-ips "${FORWARDED_ALLOW_IPS:-127.0.0.1}" \
      --access-logfile - \
      --error-logfile - \
      --logger-class "${GUNICORN_LOGGER_CLASS:-federation.gunicorn_logger.JsonLogger}" "$@"
    ;;
  worker)
    shift || true
    queues=$(worker_queues)
    wait_for_db
    exec celery -A federation worker -l "${CELERY_LOG_LEVEL:-info}" \
      -Q "$queues" \
      --concurrency "${WORKER_CONCURRENCY:-2}" \
      --max-tasks-per-child "${WORKER_MAX_TASKS_PER_CHILD:-100}" "$@"
    ;;
  beat)
    shift || true
    # the schedule file only remembers when each job last ran: a fresh one after a restart is harmless
    exec celery -A federation beat -l "${CELERY_LOG_LEVEL:-info}" -s /tmp/celerybeat-schedule "$@"
    ;;
  manage)
    shift
    exec python manage.py "$@"
    ;;
  *)
    exec "$@"
    ;;
esac
