"""Celery tasks of tournaments: they take ids and call services."""
from __future__ import annotations

from celery import shared_task

from tournaments.crosstable_pdf import crosstable_pdf_build
from tournaments.models import Tournament


@shared_task(name="tournaments.crosstable_pdf")
def crosstable_pdf_task(tournament_id: int, lang: str = "tr") -> str:
    """Build the crosstable PDF of tournament ``tournament_id``; returns the file path."""
    tournament = Tournament.objects.get(pk=tournament_id)
    return str(crosstable_pdf_build(tournament=tournament, lang=lang))
