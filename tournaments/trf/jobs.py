"""TRF uploads and import jobs: a file over ``settings.TRF_MAX_UPLOAD_BYTES`` is refused at upload
(:func:`read_upload`); a file of more than 250 players or 2,500 round cells is imported by a job
(:func:`trf_import_queue`, run by the Celery task ``tournaments.import_trf``:
:func:`tournaments.tasks.import_trf_task`, which the caller passes in; :func:`trf_import_run` does the work,
the lease of :mod:`tournaments.trf.lease` restarts a run whose worker died).
"""
from __future__ import annotations

import logging
import time

from django.conf import settings
from django.db import DEFAULT_DB_ALIAS, DatabaseError, connections, transaction
from django.template.defaultfilters import filesizeformat
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from federation.errors import ApplicationError, ValidationFailed
from federation.jobs import pause
from federation.validators import first_control_character as no_control_characters_in
from federation.validators import without_control_characters
from tournaments import access
from tournaments.models import Tournament, TrfImport
from tournaments.trf.lease import Heartbeat, trf_import_claim
from tournaments.trf.mapping import declared_system_quick
from tournaments.trf.model import _FIRST_ROUND_COL, _LINE_SPLIT, _ROUND_WIDTH
from tournaments.trf.reader import _decode
from tournaments.trf.services import tournament_import_trf

#: A file with more player lines than this, or more round cells than :data:`JOB_MIN_CELLS`, is imported
#: by a job with a progress page (202) instead of within the web request (201). Settings
#: ``TRF_JOB_MIN_PLAYERS`` / ``TRF_JOB_MIN_CELLS`` override them (0 and 0: every import is a job).
#: Measured (issue 23): an import costs about 0.45 ms a round cell on SQLite here (400 players x 11
#: rounds, 4,400 cells: 2.0 s; 200 x 9: 0.8 s; a 1,998-player, 180,000-cell file ran 366 s in
#: production), so a file imported in the request stays around a second; what is smaller keeps its
#: synchronous 400 naming the line, its preview and its player choices.
JOB_MIN_PLAYERS = 250
JOB_MIN_CELLS = 2_500

logger = logging.getLogger(__name__)


class QueueUnavailable(ApplicationError):
    """The job queue (the Celery broker) cannot be reached: try again later. HTTP 503."""

    status = 503
    default_code = "unavailable"


def max_upload_bytes() -> int:
    """The largest TRF file accepted from the page and the API: ``settings.TRF_MAX_UPLOAD_BYTES`` (2 MB)."""
    return int(getattr(settings, "TRF_MAX_UPLOAD_BYTES", 2 * 1024 * 1024))


def check_upload_size(size: int | None) -> None:
    """ValidationFailed (``field="file"``) when ``size`` bytes are more than :func:`max_upload_bytes`."""
    limit = max_upload_bytes()
    if size is not None and size > limit:
        raise ValidationFailed(
            _("The file is larger than %(limit)s (%(size)s); split it or ask the federation to import it.")
            % {"limit": filesizeformat(limit), "size": filesizeformat(size)},
            field="file",
        )


def read_upload(upload) -> bytes:
    """The bytes of an uploaded file; refused (``field="file"``) when larger than :func:`max_upload_bytes`
    (never reads more than that plus one byte)."""
    check_upload_size(getattr(upload, "size", None))
    data = upload.read(max_upload_bytes() + 1)
    check_upload_size(len(data))
    return data


def trf_size(data: bytes | str) -> tuple[int, int]:
    """``(player lines, round cells)`` of a TRF file, counted on the raw lines without parsing it: what
    decides whether it is imported by a job."""
    text = _decode(data)[0] if isinstance(data, bytes) else data
    players = cells = 0
    first = _FIRST_ROUND_COL - 1
    for line in _LINE_SPLIT.split(text):
        if line.startswith("001"):
            players += 1
            rest = len(line.rstrip()) - first
            if rest > 0:
                cells += (rest + _ROUND_WIDTH - 1) // _ROUND_WIDTH
    return players, cells


def needs_job(data: bytes | str) -> bool:
    """True when the file has more players than ``TRF_JOB_MIN_PLAYERS`` (250) or more round cells than
    ``TRF_JOB_MIN_CELLS`` (2,500): it is imported by :func:`trf_import_queue`."""
    players, cells = trf_size(data)
    return (players > getattr(settings, "TRF_JOB_MIN_PLAYERS", JOB_MIN_PLAYERS)
            or cells > getattr(settings, "TRF_JOB_MIN_CELLS", JOB_MIN_CELLS))


def _job_options(*, system: str | None, publish: bool, match_players: bool,
                 player_matches: dict | None, player_values: dict | None = None) -> dict:
    """The import options a job carries in its message (JSON: start numbers as text); only those that
    differ from the defaults."""
    out: dict = {}
    if system:
        out["system"] = system
    if not publish:
        out["publish"] = False
    if not match_players:
        out["match_players"] = False
    if player_matches:
        out["player_matches"] = {str(k): v for k, v in player_matches.items()}
    if player_values:
        out["player_values"] = {str(k): v for k, v in player_values.items()}
    return out


def trf_import_queue(*, data: bytes, task, source: str = "upload.trf", user=None, name: str | None = None,
                     system: str | None = None, publish: bool = True, match_players: bool = True,
                     player_matches: dict | None = None, player_values: dict | None = None) -> TrfImport:
    """Store ``data`` as a queued :class:`TrfImport` and send ``tournaments.import_trf`` for it, with the
    options of :func:`tournament_import_trf` (in the task's message).

    ``task`` is that Celery task, :func:`tournaments.tasks.import_trf_task`, given by the caller (a view, the
    API, a command): the task module imports this one, so this one does not import it back.

    Refuses like :func:`tournament_import_trf` what can be refused at once (no organiser; a name with a
    control character; a file over the size limit; a file that does not say its system, 092, when
    ``system`` is not given). With Celery eager (the embedded mode) the job runs at once and the returned
    row is finished; with a broker it is queued when the row is committed. Raises
    :class:`QueueUnavailable` (503) when the broker cannot be reached; the row is then failed.
    """
    if user is not None:
        access.require(access.can_create_tournament(user), _("Only organisers can import tournaments."))
    if name and no_control_characters_in(name) is not None:
        raise ValidationFailed(_("Control characters are not allowed in a name."), field="name")
    if system and system not in Tournament.System.values:
        raise ValidationFailed(_("The system is %(choices)s.") % {"choices": " or ".join(Tournament.System.values)},
                               field="system")
    check_upload_size(len(data))
    if not system and declared_system_quick(data) is None:
        raise ValidationFailed(_("%(source)s: the file does not say (092 line) whether the event is a Swiss or a "
                                 "round robin; choose the system.") % {"source": source}, field="system")
    players, cells = trf_size(data)
    lang = translation.get_language() or ""
    options = _job_options(system=system, publish=publish, match_players=match_players,
                           player_matches=player_matches, player_values=player_values)
    args = (lang, options) if options else (lang,)
    row = TrfImport.objects.create(
        created_by=user if getattr(user, "is_authenticated", False) else None, data=bytes(data),
        source=without_control_characters(source or "")[:200], name=(name or "")[:160], players=players,
        cells=cells, lang=lang[:10], options=options,
    )
    if settings.CELERY_TASK_ALWAYS_EAGER:
        task.delay(row.id, *args)
        row.refresh_from_db()
        return row

    def send():
        try:
            task.delay(row.id, *args)
        except Exception as exc:  # broker unreachable: say so now, do not leave the row queued for ever
            logger.warning("TRF import %s: could not queue the job: %s", row.id, exc)
            TrfImport.objects.filter(pk=row.pk).update(
                status=TrfImport.Status.FAILED, finished_at=timezone.now(),
                error=_("The job queue cannot be reached; try again in a few minutes."),
            )
            raise QueueUnavailable(_("The job queue cannot be reached; try again in a few minutes.")) from exc

    transaction.on_commit(send)
    return row


class _ProgressWriter:
    """``progress(done, total)`` of a running import, written where other connections can read it.

    The import is one transaction, which hides its writes until it ends; so the percentage is written
    through a connection of its own (autocommit), at most every half second. Not on SQLite, where that
    connection would wait for the import's write lock, and not inside an outer transaction (tests, an
    eager job within one): there the progress moves at the start and at the end only.
    """

    def __init__(self, import_id: int) -> None:
        self.import_id = import_id
        self.percent = 1
        self.last = 0.0
        self.conn = None
        default = connections[DEFAULT_DB_ALIAS]
        if default.vendor != "sqlite" and not default.in_atomic_block:
            self.conn = connections.create_connection(DEFAULT_DB_ALIAS)
            if self.conn.vendor == "postgresql":
                with self.conn.cursor() as cursor:  # never wait long on a lock: progress is a courtesy
                    cursor.execute("SET lock_timeout = '2s'")

    def __call__(self, done: int, total: int) -> None:
        percent = min(99, 1 + 98 * done // max(total, 1))
        now = time.monotonic()
        if self.conn is None or percent <= self.percent or now - self.last < 0.5:
            return
        self.percent, self.last = percent, now
        table = self.conn.ops.quote_name(TrfImport._meta.db_table)
        try:
            with self.conn.cursor() as cursor:
                cursor.execute(f"UPDATE {table} SET progress = %s WHERE id = %s AND status = %s",  # noqa: S608
                               [percent, self.import_id, TrfImport.Status.RUNNING])
        except DatabaseError:  # progress is a courtesy: the import goes on without it
            logger.warning("TRF import %s: could not write the progress", self.import_id, exc_info=True)
            self.close()

    def close(self) -> None:
        if self.conn is not None:
            self.conn.close()
            self.conn = None


@transaction.atomic
def trf_import_record(*, tournament: Tournament, notes: list[str], data: bytes = b"", source: str = "",
                      user=None) -> TrfImport:
    """Keep the notes of a file imported at once (not by a job) as a finished :class:`TrfImport`, so that
    its page lists them; the import page's success message links that page."""
    return TrfImport.objects.create(
        created_by=user if getattr(user, "is_authenticated", False) else None, data=bytes(data),
        source=without_control_characters(source or "")[:200], name=tournament.name[:160],
        lang=(translation.get_language() or "")[:10], status=TrfImport.Status.DONE, progress=100,
        tournament=tournament, notes=list(notes), finished_at=timezone.now(),
    )


def trf_import_run(*, import_id: int, options: dict | None = None) -> TrfImport:
    """Run a queued :class:`TrfImport`: :func:`tournament_import_trf` on its bytes, as its creator, with
    ``options`` (``system``, ``publish``, ``match_players``, ``player_matches``: :func:`_job_options`;
    None: the options stored on the row).

    Ends ``done`` with the tournament and the notes, or ``failed`` with the refusal (its message names
    the line; nothing is imported) or, for an internal error, a short message (logged in full). The row
    is claimed by :func:`tournaments.trf.lease.trf_import_claim`: a queued row, or a running one whose
    worker died (no heartbeat for ``TRF_IMPORT_LEASE_SECONDS``), which is restarted from the stored file.
    A row finished or held by a live run is returned unchanged (a task delivered twice runs once).
    """
    row, token = trf_import_claim(import_id=import_id)
    if token is None:
        return row
    beat = Heartbeat(row.pk, token)
    writer = _ProgressWriter(row.pk)
    result: dict = {"status": TrfImport.Status.FAILED, "finished_at": None}
    try:
        pause("TEST_TASK_DELAY")  # test-only (federation/jobs.py): time to kill the worker mid-import
        opts = dict(row.options if options is None else options)
        if opts.get("player_matches"):
            opts["player_matches"] = {int(k): v for k, v in opts["player_matches"].items()}
        if opts.get("player_values"):
            opts["player_values"] = {int(k): v for k, v in opts["player_values"].items()}
        report = tournament_import_trf(
            data=bytes(row.data), source=row.source or "upload.trf", user=row.created_by, name=row.name or None,
            progress=writer, **{k: v for k, v in opts.items()
                                if k in ("system", "publish", "match_players", "player_matches", "player_values")},
        )
    except ApplicationError as exc:
        result.update(error=exc.message, error_field=exc.field or "")
    except Exception:  # a bug: the transaction is rolled back; say so on the row, keep the details in the log
        logger.exception("TRF import %s failed", import_id)
        result.update(error=_("The import failed because of an internal error; nothing was imported."))
    else:
        result.update(status=TrfImport.Status.DONE, tournament=report.tournament, notes=report.notes, progress=100)
    finally:
        writer.close()
        beat.stop()
    result["finished_at"] = timezone.now()
    # only while this run still holds the row (a run taken over after a lost lease writes nothing)
    TrfImport.objects.filter(pk=row.pk, status=TrfImport.Status.RUNNING, attempts=token).update(**result)
    row.refresh_from_db()
    return row
