"""Celery task of the official rating lists: build a list's PDF (on the ``pdf`` queue)."""
from __future__ import annotations

from celery import shared_task

from federation.jobs import JOB_OPTIONS, pause
from ratings.lists.pdf import rating_list_pdf_build
from ratings.models import RatingList


@shared_task(name="ratings.rating_list_pdf", **JOB_OPTIONS)
def rating_list_pdf_task(rating_list_id: int, lang: str = "tr") -> str:
    """Build the PDF of official list ``rating_list_id`` in ``lang``; returns the file path. A list
    never changes, so its file is written once (to a temporary name, then renamed) and reused."""
    pause("TEST_TASK_DELAY")  # test-only (federation/jobs.py)
    return str(rating_list_pdf_build(rating_list=RatingList.objects.get(pk=rating_list_id), lang=lang))
