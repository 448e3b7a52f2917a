"""Celery application. Eager (in-process) unless ``CELERY_BROKER_URL`` or ``REDIS_URL`` is set.

Queues and routes: :mod:`federation.queues` (settings ``CELERY_TASK_ROUTES``, ``CELERY_TASK_DEFAULT_QUEUE``).
"""
import os

from celery import Celery
from celery.signals import worker_init

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "federation.settings.dev")

app = Celery("federation")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@worker_init.connect
def _worker_statement_timeout(**kwargs) -> None:
    """A worker's connections get ``WORKER_DATABASE_STATEMENT_TIMEOUT_MS`` (none by default), not the web's."""
    from federation.dbtimeout import install_for_worker

    install_for_worker()


from celery.signals import heartbeat_sent, worker_ready  # noqa: E402


@worker_ready.connect
def _heartbeat_on_ready(sender=None, **kwargs):
    """The worker is up: tell /healthz at once (federation/health.py)."""
    from federation.heartbeat import record_worker_heartbeat

    record_worker_heartbeat(hostname=getattr(sender, "hostname", "") or "", force=True)


@heartbeat_sent.connect
def _heartbeat(sender=None, **kwargs):
    """Each Celery worker heartbeat (every ~2 s): the time in the cache, written at most every 10 s."""
    from federation.heartbeat import record_worker_heartbeat

    record_worker_heartbeat(hostname=getattr(getattr(sender, "eventer", None), "hostname", "") or "")
