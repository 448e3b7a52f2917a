"""The Celery queues of the project: which job runs where (no Django or Celery import: settings use it).

Every job goes to the queue of its kind, so a slow PDF never delays a rating and a large import never
delays a PDF. Production runs one worker per queue (``docker/compose.yml``); one worker may also serve
several (``celery -A federation worker -Q default,pdf,ratings,imports``). ``CELERY_QUEUE_PREFIX``
(empty by default) is put before every queue name: the test suite gives its worker queues of its own
on a shared Redis.
"""
from __future__ import annotations

#: Every queue a deployment must serve: sweeps and e-mails, PDFs, ratings, file imports.
QUEUES: tuple[str, ...] = ("default", "pdf", "ratings", "imports")

#: Task name -> queue; a task not listed goes to ``default``.
TASK_QUEUES: dict[str, str] = {
    "tournaments.paper.crosstable": "pdf",
    "tournaments.standings_pdf": "pdf",
    "tournaments.pairings_pdf": "pdf",
    "tournaments.prizes_pdf": "pdf",
    "tournaments.paper.bracket": "pdf",
    "tournaments.paper.teams": "pdf",
    "tournaments.paper.event_report": "pdf",
    "ratings.rate_tournament": "ratings",
    "ratings.rerate_all": "ratings",
    "ratings.publish_monthly_list": "ratings",
    "ratings.rating_list_pdf": "pdf",
    "tournaments.import_trf": "imports",
    "games.import_records": "imports",
}


def task_routes(prefix: str = "") -> dict[str, dict[str, str]]:
    """Celery ``task_routes``: ``{task name: {"queue": prefix + queue}}`` for :data:`TASK_QUEUES`."""
    return {name: {"queue": f"{prefix}{queue}"} for name, queue in TASK_QUEUES.items()}


def queue_names(prefix: str = "") -> list[str]:
    """``[prefix + queue for queue in QUEUES]``: what a worker serving every queue gives to ``-Q``."""
    return [f"{prefix}{queue}" for queue in QUEUES]
