"""Celery application. Eager (in-process) unless ``CELERY_BROKER_URL`` or ``REDIS_URL`` is set.

Queues and routes: :mod:`federation.queues` (settings ``CELERY_TASK_ROUTES``, ``CELERY_TASK_DEFAULT_QUEUE``).
"""
import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "federation.settings.dev")

app = Celery("federation")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
