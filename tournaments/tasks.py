"""Celery tasks of tournaments: they take ids and call services."""
from __future__ import annotations

import logging

from celery import shared_task
from django.utils import translation

from federation.jobs import JOB_OPTIONS, pause
from tournaments.models import Tournament
from tournaments.paper.crosstable import crosstable_pdf_build
from tournaments.trf.jobs import trf_import_run
from tournaments.trf.lease import lease_seconds, trf_import_sweep

logger = logging.getLogger(__name__)


@shared_task(name="tournaments.paper.crosstable", **JOB_OPTIONS)
def crosstable_pdf_task(tournament_id: int, lang: str = "tr") -> str:
    """Build the crosstable PDF of tournament ``tournament_id``; returns the file path.

    Idempotent: the file of the tournament's current version is written once (to a temporary name,
    then renamed), so a run cut short leaves no half file and a second run reuses the first's."""
    pause("TEST_TASK_DELAY")  # test-only (federation/jobs.py)
    tournament = Tournament.objects.get(pk=tournament_id)
    return str(crosstable_pdf_build(tournament=tournament, lang=lang))


@shared_task(name="tournaments.standings_pdf", **JOB_OPTIONS)
def standings_pdf_task(tournament_id: int, lang: str = "tr", public_only: bool = True) -> str:
    """Build the standings PDF of tournament ``tournament_id`` (the public's or the organisers'
    table); returns the file path. Idempotent like :func:`crosstable_pdf_task`."""
    from tournaments.paper.hall import standings_pdf_build

    pause("TEST_TASK_DELAY")  # test-only (federation/jobs.py)
    tournament = Tournament.objects.get(pk=tournament_id)
    return str(standings_pdf_build(tournament=tournament, lang=lang, public_only=public_only))


@shared_task(name="tournaments.prizes_pdf", **JOB_OPTIONS)
def prizes_pdf_task(tournament_id: int, lang: str = "tr", public_only: bool = True) -> str:
    """Build the prize list PDF (prizes, winners, category tables) of tournament ``tournament_id`` (the
    public's or the organisers'); returns the file path. Idempotent like :func:`crosstable_pdf_task`."""
    from tournaments.paper.prizes import prizes_pdf_build

    pause("TEST_TASK_DELAY")  # test-only (federation/jobs.py)
    tournament = Tournament.objects.get(pk=tournament_id)
    return str(prizes_pdf_build(tournament=tournament, lang=lang, public_only=public_only))


@shared_task(name="tournaments.paper.bracket", **JOB_OPTIONS)
def bracket_pdf_task(tournament_id: int, lang: str = "tr", public_only: bool = True) -> str:
    """Build the bracket PDF of the knockout ``tournament_id`` (the public's or the organisers' and referees');
    returns the file path. Idempotent like :func:`crosstable_pdf_task`."""
    from tournaments.paper.bracket import bracket_pdf_build

    pause("TEST_TASK_DELAY")  # test-only (federation/jobs.py)
    tournament = Tournament.objects.get(pk=tournament_id)
    return str(bracket_pdf_build(tournament=tournament, lang=lang, public_only=public_only))


@shared_task(name="tournaments.paper.teams", **JOB_OPTIONS)
def team_pdf_task(tournament_id: int, lang: str = "tr", public_only: bool = True) -> str:
    """Build the team championship PDF (team standings, crosstable, board prizes) of tournament
    ``tournament_id`` (the public's or the organisers'); returns the file path. Idempotent like
    :func:`crosstable_pdf_task`."""
    from tournaments.paper.teams import team_pdf_build

    pause("TEST_TASK_DELAY")  # test-only (federation/jobs.py)
    tournament = Tournament.objects.get(pk=tournament_id)
    return str(team_pdf_build(tournament=tournament, lang=lang, public_only=public_only))


@shared_task(name="tournaments.paper.event_report", **JOB_OPTIONS)
def event_report_pdf_task(event_id: int, lang: str = "tr", user_id: int | None = None) -> str:
    """Build the report PDF of event ``event_id`` as user ``user_id`` (None: the public) sees it;
    returns the file path. Idempotent like :func:`crosstable_pdf_task` (the file is named by the
    report's fingerprint: :mod:`tournaments.paper.event_report`)."""
    from django.contrib.auth import get_user_model
    from django.contrib.auth.models import AnonymousUser

    from tournaments.paper.event_report import event_report_pdf_build
    from tournaments.models import Event

    pause("TEST_TASK_DELAY")  # test-only (federation/jobs.py)
    event = Event.objects.get(pk=event_id)
    user = (get_user_model().objects.filter(pk=user_id).first() if user_id is not None else None) or AnonymousUser()
    return str(event_report_pdf_build(event=event, user=user, lang=lang))


@shared_task(name="tournaments.pairings_pdf", **JOB_OPTIONS)
def round_pairings_pdf_task(round_id: int, lang: str = "tr", large: bool = False) -> str:
    """Build the pairing list PDF of round ``round_id`` as it stands; returns the file path."""
    from tournaments.paper.hall import pairings_pdf_build
    from tournaments.models import Round

    pause("TEST_TASK_DELAY")  # test-only (federation/jobs.py)
    rnd = Round.objects.select_related("tournament").get(pk=round_id)
    return str(pairings_pdf_build(round=rnd, lang=lang, large=large))


@shared_task(name="tournaments.import_trf", bind=True, **JOB_OPTIONS)
def import_trf_task(self, import_id: int, lang: str | None = None, options: dict | None = None) -> dict:
    """Run the queued :class:`tournaments.models.TrfImport` ``import_id``
    (``tournaments.trf.jobs.trf_import_run``: ``tournaments.trf.services.tournament_import_trf`` in one
    transaction), its messages in ``lang`` (the importer's), with the import ``options`` chosen at upload
    (system, publish, player matches; None: those stored on the row).

    A delivery that finds the import running with a live heartbeat — a second send, or the broker's
    redelivery right after the worker running it died — tries again after ``TRF_IMPORT_LEASE_SECONDS``
    (at most twice): by then a dead run's lease has run out and this delivery restarts the import
    (``tournaments.trf.lease``). Returns ``{"status", "tournament", "error"}`` (``tournament`` is the
    new slug or None).
    """
    from django.conf import settings

    with translation.override(lang or translation.get_language()):
        row = trf_import_run(import_id=import_id, options=options)
    if row.status == row.Status.RUNNING and not settings.CELERY_TASK_ALWAYS_EAGER and self.request.retries < 2:
        raise self.retry(countdown=lease_seconds() + 1, max_retries=2)
    return {"status": row.status, "tournament": row.tournament.slug if row.tournament else None, "error": row.error}


@shared_task(name="tournaments.sweep_stuck_trf_imports", **JOB_OPTIONS)
def sweep_stuck_trf_imports_task() -> dict:
    """Re-queue the running TRF imports whose worker died (no heartbeat for ``TRF_IMPORT_LEASE_SECONDS``:
    their task restarts them, the import being one transaction) and fail those still queued after
    ``TRF_IMPORT_STUCK_MINUTES`` (``tournaments.trf.lease.trf_import_sweep``); sent every minute by Celery
    beat. Returns ``{"requeued": [ids], "failed": [ids]}``."""
    return trf_import_sweep(task=import_trf_task)


@shared_task(name="tournaments.check_invariants", **JOB_OPTIONS)
def check_invariants_task(tournament_id: int | None = None) -> int:
    """Check the database's invariants (:func:`tournaments.invariants.check_invariants`; one tournament
    when ``tournament_id`` is given) and log each violation at ERROR level as ``"invariant violated"``
    with its ``invariant`` (kind), ``model``, ``pk``, ``detail`` (the sentence, in English),
    ``expected``, ``found`` and ``tournament`` (slug) as extra fields. Returns the number of violations.
    Read-only, so running it twice is harmless; meant for the nightly beat schedule."""
    from tournaments.invariants import check_invariants

    scope = None if tournament_id is None else Tournament.objects.filter(pk=tournament_id)
    with translation.override("en"):
        violations = check_invariants(tournaments=scope)
    for v in violations:
        # the details in the text too: a plain-text log (celery's own format) keeps no extra fields
        logger.error("invariant violated: %s %s #%s (%s): %s; expected %s, found %s", v.kind, v.model, v.pk,
                     v.tournament, v.message, v.expected, v.found, extra={
            "invariant": v.kind, "model": v.model, "pk": v.pk, "detail": v.message, "expected": v.expected,
            "found": v.found, "tournament": v.tournament,
        })
    return len(violations)
