#!/bin/sh
# Container entry point.
#   web          migrate (unless DJANGO_MIGRATE=0), then gunicorn federation.wsgi on 0.0.0.0:$PORT (8000);
#                gunicorn believes X-Forwarded-* headers only from FORWARDED_ALLOW_IPS (default 127.0.0.1:
#                set it to the address of your TLS proxy, never to "*")
#   worker       Celery worker (crosstable PDFs); WORKER_CONCURRENCY processes (2)
#   manage ARGS  python manage.py ARGS (e.g. `manage createsuperuser`, `manage load_sample_data`)
#   anything else is executed as given.
set -eu

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

cmd=${1:-web}
case "$cmd" in
  web)
    shift || true
    wait_for_db
    if [ "${DJANGO_MIGRATE:-1}" = 1 ]; then python manage.py migrate --noinput; fi
    exec gunicorn federation.wsgi:application \
      --bind "0.0.0.0:${PORT:-8000}" \
      --workers "${WEB_CONCURRENCY:-3}" \
      --timeout "${GUNICORN_TIMEOUT:-150}" \
      --forwarded-allow-ips "${FORWARDED_ALLOW_IPS:-127.0.0.1}" \
      --access-logfile - "$@"
    ;;
  worker)
    shift || true
    wait_for_db
    exec celery -A federation worker -l "${CELERY_LOG_LEVEL:-info}" --concurrency "${WORKER_CONCURRENCY:-2}" "$@"
    ;;
  manage)
    shift
    exec python manage.py "$@"
    ;;
  *)
    exec "$@"
    ;;
esac
