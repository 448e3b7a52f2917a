"""Writes of tournament set records: bulk import of set records (game-record notation) onto stored sets.

A record is attached to the :class:`tournaments.models.SetResult` its tags name (RULES.md "Board and
notation"; :mod:`games.engine.notation` for the format):

- ``Event``: the tournament's name or slug (an ``EventSlug`` tag, as written by ``export_records``,
  wins over ``Event``);
- ``Round``: the round number (``"3"``, or PGN style ``"3.1"`` = round 3, board 1); a ``Board`` tag
  may name the board too;
- ``White`` / ``Black``: the match's players — full name ``"Last, First"`` (as on pairing lists),
  ``"First Last"``, or federation id; White is the player who starts sets 1, 3, 5 (003 "Turnuva maçı");
- ``Set``: the set number.

The moves are replayed against the set's **stored** result (:func:`games.engine.validate_record`):
the record's ``Result`` must equal the stored white/black stones, its ``Termination`` the stored
termination (Kural 14.5), its ``Variant`` the tournament's, and the moves must end the set with those
stones. A bad record is reported with its line; the others go on. One transaction per record.
"""
from __future__ import annotations

import dataclasses
import datetime as dt
import logging
import re
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass

from django.conf import settings
from django.db import transaction
from django.db.models import F, Q
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from federation import roles
from federation.celery import app as celery_app
from federation.collation import search_fold
from federation.errors import ApplicationError, ValidationFailed
from games.engine import NotationError, RecordMismatchError, RulesError, Variant
from games.engine.notation import GameRecord, parse
from games.record_messages import engine_error_message
from games.models import RecordImport
from tournaments import access
from tournaments.models import Match, Round, SetResult, Tournament, TournamentRole

logger = logging.getLogger(__name__)

#: Seconds between two saves of an import's progress (the page reloads every 2 s).
PROGRESS_SAVE_SECONDS = 0.5
#: Largest text accepted by one import (characters).
MAX_IMPORT_CHARS = 5_000_000

_ROUND_RE = re.compile(r"^\s*(\d{1,2})(?:\.(\d{1,3}))?\s*$")


class RecordRefused(Exception):
    """A record that cannot be attached: ``message`` and the 1-based ``line`` in the import text."""

    def __init__(self, message: str, line: int) -> None:
        super().__init__(message)
        self.message = message
        self.line = line


@dataclass(frozen=True, slots=True)
class RecordChunk:
    """One record's lines of an import text: ``line`` is the 1-based line of its first line."""

    line: int
    text: str


# --------------------------------------------------------------------------------------------
# Who may import
# --------------------------------------------------------------------------------------------


def can_import_records(user) -> bool:
    """Staff, organisers and referees (global groups or a role in some tournament) may import
    records; each record is then checked against :func:`tournaments.access.can_enter_results`."""
    if not getattr(user, "is_authenticated", False):
        return False
    if roles.is_staff(user):
        return True
    if roles.in_group(user, roles.ORGANISER) or roles.in_group(user, roles.REFEREE):
        return True
    if Tournament.objects.filter(created_by=user).exists():
        return True
    return TournamentRole.objects.filter(user=user).exists()


def can_view_import(user, record_import: RecordImport) -> bool:
    """The import's creator and federation staff see its progress page."""
    if not getattr(user, "is_authenticated", False):
        return False
    if roles.is_staff(user):
        return True
    return record_import.created_by_id == user.id


# --------------------------------------------------------------------------------------------
# Splitting and matching
# --------------------------------------------------------------------------------------------


def split_records(text: str) -> list[RecordChunk]:
    """Cut an import text into records the way :func:`games.engine.notation.parse` reads them: a
    record is its tag lines and move lines; a tag line after move text starts the next record.
    Comments (``;``) and blank lines belong to the record they are in. Move text before any tag is a
    chunk of its own (its parse then names the line)."""
    lines = text.lstrip("\ufeff").splitlines()
    chunks: list[RecordChunk] = []
    start: int | None = None
    has_moves = False
    for n, raw in enumerate(lines, start=1):
        content = raw.split(";", 1)[0].strip()
        if not content:
            continue
        is_tag = content.startswith("[")
        if start is None or (is_tag and has_moves):
            if start is not None:
                chunks.append(RecordChunk(start, "\n".join(lines[start - 1 : n - 1])))
            start, has_moves = n, False
        if not is_tag:
            has_moves = True
    if start is not None:
        chunks.append(RecordChunk(start, "\n".join(lines[start - 1 :])))
    return chunks


def _shift(exc: NotationError, offset: int) -> RecordRefused:
    """A chunk-relative NotationError as a refusal naming the line of the whole text; the message (in
    the active language, a move error naming its ply) without the chunk's "line N:"."""
    message = engine_error_message(exc, line=False)
    if exc.line:
        return RecordRefused(message, exc.line + offset)
    return RecordRefused(message, offset + 1)


def _norm(name: str) -> str:
    """A name for matching, folded like every search (:func:`federation.collation.search_fold`): spaces
    collapsed, Turkish case rules, letters without their marks — ``"YILMAZ"``, ``"Yılmaz"``, ``"ŞAHİN"``,
    ``"Şahin"`` and a record typed without Turkish letters (``"Sahin, Ayse"``) all match."""
    return search_fold(name)


def _player_keys(entry) -> set[str]:
    p = entry.player
    keys = {_norm(p.full_name), _norm(p.federation_id)}
    if p.first_name:
        keys.add(_norm(f"{p.first_name} {p.last_name}"))
    return keys


class SetFinder:
    """Finds the stored set a record names (module docstring), caching tournaments and each round's
    games and set ids for the length of one import (the set row itself is read fresh by the caller).
    """

    def __init__(self) -> None:
        self._tournaments: dict[tuple[str, str], Tournament | RecordRefused] = {}
        self._rounds: dict[tuple[int, int], list[Match] | None] = {}
        self._set_ids: dict[int, dict[int, int]] = {}

    def tournament(self, record: GameRecord, line: int) -> Tournament:
        slug = dict(record.extra_tags).get("EventSlug", "").strip()
        key = ("slug", slug) if slug else ("event", record.event.strip())
        if key not in self._tournaments:
            try:
                self._tournaments[key] = self._lookup_tournament(*key)
            except RecordRefused as exc:
                self._tournaments[key] = exc
        found = self._tournaments[key]
        if isinstance(found, RecordRefused):
            raise RecordRefused(found.message, line)
        return found

    @staticmethod
    def _lookup_tournament(kind: str, value: str) -> Tournament:
        if kind == "slug":
            t = Tournament.objects.filter(slug=value).first()
            if t is None:
                raise RecordRefused(_("no tournament with slug %(s)r (EventSlug tag)") % {"s": value}, 0)
            return t
        if not value:
            raise RecordRefused(_("the record has no Event tag (the tournament's name or slug)"), 0)
        found = list(Tournament.objects.filter(Q(slug=value) | Q(name=value))[:3])
        if not found:
            found = list(Tournament.objects.filter(name__iexact=value)[:3])
        if not found:  # SQLite's iexact folds ASCII only: compare Turkish names in Python
            found = [t for t in Tournament.objects.only("id", "name", "slug") if _norm(t.name) == _norm(value)][:3]
        if not found:
            raise RecordRefused(
                _("no tournament named %(e)r (Event tag: a tournament name or slug)") % {"e": value}, 0
            )
        if len(found) > 1:
            raise RecordRefused(
                _("Event %(e)r names more than one tournament; write its slug (%(s)s)")
                % {"e": value, "s": ", ".join(t.slug for t in found)},
                0,
            )
        return Tournament.objects.get(pk=found[0].pk)

    def games(self, t: Tournament, number: int) -> list[Match] | None:
        """The games of round ``number`` with players, or ``None`` when there is no such round."""
        key = (t.pk, number)
        if key not in self._rounds:
            rnd = Round.objects.filter(tournament=t, number=number).first()
            if rnd is None:
                self._rounds[key] = None
            else:
                rnd.tournament = t
                games = list(
                    rnd.matches.filter(kind=Match.Kind.GAME)
                    .select_related("white__player", "black__player")
                    .order_by("board")
                )
                for g in games:
                    g.round = rnd
                    self._set_ids[g.pk] = {}
                for sid, mid, k in SetResult.objects.filter(match__in=games).values_list("id", "match_id", "number"):
                    self._set_ids[mid][k] = sid
                self._rounds[key] = games
        return self._rounds[key]

    def find(self, record: GameRecord, *, line: int) -> tuple[int, Match]:
        """``(set id, match)`` of the set ``record`` names; :class:`RecordRefused` otherwise."""
        t = self.tournament(record, line)
        m = _ROUND_RE.match(record.round or "")
        if not m:
            raise RecordRefused(
                _("Round must be the round number (e.g. \"3\" or \"3.1\" for board 1), not %(r)r")
                % {"r": record.round},
                line,
            )
        round_no = int(m.group(1))
        board_text = m.group(2) or dict(record.extra_tags).get("Board", "").strip()
        if board_text and not board_text.isdigit():
            raise RecordRefused(_("Board must be a number, not %(b)r") % {"b": board_text}, line)
        board = int(board_text) if board_text else None
        games = self.games(t, round_no)
        if games is None:
            raise RecordRefused(_("%(t)s has no round %(n)d") % {"t": t.name, "n": round_no}, line)
        if record.set_number is None:
            raise RecordRefused(_("the record has no Set tag (the set number in the match)"), line)
        white, black = _norm(record.white), _norm(record.black)
        match = swapped = None
        for g in games:
            if board is not None and g.board != board:
                continue
            wk, bk = _player_keys(g.white), _player_keys(g.black)
            if white in wk and black in bk:
                match = g
                break
            if white in bk and black in wk:
                swapped = g
        if match is None:
            if swapped is not None:
                raise RecordRefused(
                    _("in round %(n)d %(w)s had white and %(b)s black: White and Black are swapped")
                    % {"n": round_no, "w": swapped.white.player.full_name, "b": swapped.black.player.full_name},
                    line,
                )
            where = (
                _("board %(b)d of round %(n)d") % {"b": board, "n": round_no}
                if board else _("round %(n)d") % {"n": round_no}
            )
            raise RecordRefused(
                _("no game %(w)s – %(b)s in %(where)s of %(t)s")
                % {"w": record.white, "b": record.black, "where": where, "t": t.name},
                line,
            )
        set_id = self._set_ids[match.pk].get(record.set_number)
        if set_id is None:
            raise RecordRefused(
                _("set %(k)d of %(w)s – %(b)s (round %(n)d) has no result entered")
                % {"k": record.set_number, "w": match.white.player.full_name,
                   "b": match.black.player.full_name, "n": round_no},
                line,
            )
        return set_id, match


def find_set(record: GameRecord, *, line: int) -> SetResult:
    """The stored set a record's tags name (module docstring), with its match, round and tournament;
    :class:`RecordRefused` (naming ``line``) otherwise."""
    set_id, match = SetFinder().find(record, line=line)
    s = SetResult.objects.get(pk=set_id)
    s.match = match
    return s


def _stored_withdrawn_by(s: SetResult) -> str | None:
    """The stored termination as the set's first/second mover who withdrew (Kural 14.5)."""
    if s.termination == SetResult.Termination.COMPLETED:
        return None
    colour = "white" if s.termination == SetResult.Termination.WHITE_WITHDREW else "black"
    return "first" if colour == s.starter else "second"


def check_record(record: GameRecord, s: SetResult, *, tournament: Tournament, offset: int) -> list[int]:
    """Check ``record`` against the stored set ``s``; return its moves. :class:`RecordRefused` names
    the line: the record's first line for a tag that disagrees, the offending move's line for a move
    (``offset`` converts the record's own line numbers to the import text's)."""
    line = record.line + offset
    label = _("set %(k)d") % {"k": s.number}
    if Variant.parse(tournament.variant) is not record.variant:
        raise RecordRefused(
            _("the record is for the %(r)s variant but %(t)s plays %(v)s") % {
                "r": record.variant.value, "t": tournament.name, "v": tournament.variant},
            line,
        )
    if record.starter != s.starter:
        raise RecordRefused(_("%(set)s was started by %(c)s") % {"set": label, "c": s.starter}, line)
    if record.result is None:
        raise RecordRefused(_("the record has no result (Result \"*\"); the stored result is %(w)d-%(b)d") % {
            "w": s.white_stones, "b": s.black_stones}, line)
    if record.result != (s.white_stones, s.black_stones):
        raise RecordRefused(
            _("Result %(r)s differs from the stored stones %(w)d-%(b)d of %(set)s (White-Black)") % {
                "r": f"{record.result[0]}-{record.result[1]}", "w": s.white_stones, "b": s.black_stones, "set": label},
            line,
        )
    stored_wb = _stored_withdrawn_by(s)
    if record.withdrawn_by != stored_wb:
        raise RecordRefused(
            _("Termination %(r)s differs from the stored termination (%(s)s) of %(set)s") % {
                "r": record.termination, "s": s.get_termination_display(), "set": label},
            line,
        )
    if not record.moves:
        raise RecordRefused(_("the record has no moves"), line)
    # the set's stored stones, in first/second-mover order, with the stored termination
    checked = dataclasses.replace(
        record,
        result=(s.white_stones, s.black_stones),
        termination={None: "completed", "first": "first_withdrew", "second": "second_withdrew"}[stored_wb],
    )
    try:
        checked.validate()
    except NotationError as exc:
        cause = exc.__cause__
        if isinstance(cause, RecordMismatchError) and hasattr(cause, "played"):
            # the engine speaks in set order (first mover first: black first in sets 2, 4, …); say it
            # White-Black, like the Result tag and the stored stones
            pw, pb = cause.played if s.starter == "white" else cause.played[::-1]
            raise RecordRefused(
                _("the moves give %(pw)d-%(pb)d (White-Black), not the stored %(w)d-%(b)d of %(set)s")
                % {"pw": pw, "pb": pb, "w": s.white_stones, "b": s.black_stones, "set": label},
                exc.line + offset if exc.line else offset + 1,
            ) from exc
        raise _shift(exc, offset) from exc
    return list(record.moves)


# --------------------------------------------------------------------------------------------
# Import
# --------------------------------------------------------------------------------------------


def _clean_text(text: str) -> str:
    if not isinstance(text, str) or not text.strip():
        raise ValidationFailed(_("Paste the records or choose a file."), field="text")
    if len(text) > MAX_IMPORT_CHARS:
        raise ValidationFailed(
            _("The text is too long (%(n)d characters; at most %(m)d).") % {"n": len(text), "m": MAX_IMPORT_CHARS},
            field="text",
        )
    return text


def record_import_create(*, text: str, user=None, replace: bool = False, source: str = "") -> RecordImport:
    """Store a pending import of ``text`` (not run yet). ``user=None`` is the command line (trusted).

    Raises PermissionDenied when ``user`` may not import records; ValidationFailed for an empty or
    too long text.
    """
    if user is not None:
        access.require(can_import_records(user), _("Only referees and organisers can import game records."))
    text = _clean_text(text)
    return RecordImport.objects.create(
        text=text, replace=bool(replace), source=(source or "")[:200],
        created_by=user if getattr(user, "is_authenticated", False) else None,
    )


def _import_records_task():
    """The Celery task ``games.import_records`` (:func:`tournaments.records.tasks.import_records_task`), found
    by its name: the task runs the services of this module, which therefore do not import it.
    :class:`tournaments.apps.TournamentsConfig` registers the tasks in every process."""
    return celery_app.tasks["games.import_records"]


def record_import_start(*, text: str, user, replace: bool = False, source: str = "") -> RecordImport:
    """Create the import (:func:`record_import_create`) and queue
    ``tournaments.records.tasks.import_records_task``.

    In the embedded mode (Celery eager) the task runs at once, so the returned row is finished; with
    a broker the task is sent when the row is committed and the row is ``pending`` until the worker
    picks it up.
    """
    import_records_task = _import_records_task()
    row = record_import_create(text=text, user=user, replace=replace, source=source)
    lang = translation.get_language()  # the worker writes the messages in the importer's language
    if settings.CELERY_TASK_ALWAYS_EAGER:
        import_records_task.delay(row.id, lang)
        row.refresh_from_db()
    else:
        transaction.on_commit(lambda: import_records_task.delay(row.id, lang))
    return row


ProgressCallback = Callable[[int, int, RecordChunk, "SetResult | None", "dict | None"], None]


def _attach(record: GameRecord, chunk: RecordChunk, *, user, replace: bool, finder: SetFinder,
            allowed: dict[int, bool]) -> SetResult:
    """Validate one parsed record against its stored set and store its moves (one transaction);
    :class:`RecordRefused` otherwise. ``allowed`` caches ``can_enter_results`` per tournament."""
    offset = chunk.line - 1
    line = chunk.line
    match = finder.find(record, line=line)[1]
    tournament = match.round.tournament
    if match.round.status == "closed":  # a closed round changes only by the organiser's correction
        raise RecordRefused(
            _("round %(n)d is closed; reopen it (or correct the board with a reason) to add move records")
            % {"n": match.round.number},
            line,
        )
    if user is not None:
        if tournament.pk not in allowed:
            allowed[tournament.pk] = access.can_enter_results(user, tournament)
        if not allowed[tournament.pk]:
            raise RecordRefused(_("you may not enter results of %(t)s") % {"t": tournament.name}, line)
    with transaction.atomic():
        # read by match and number: a corrected result (match_result_enter) re-creates its sets
        s = SetResult.objects.select_for_update().filter(match_id=match.pk, number=record.set_number).first()
        if s is None:
            raise RecordRefused(
                _("set %(k)d of this match has no result any more") % {"k": record.set_number}, line
            )
        s.match = match
        moves = check_record(record, s, tournament=tournament, offset=offset)
        text = " ".join(str(m) for m in moves)
        if s.moves.strip() and s.moves.split() != text.split() and not replace:
            raise RecordRefused(
                _("set %(k)d already has a different move record; import with \"replace\" to overwrite it")
                % {"k": s.number},
                line,
            )
        if s.moves != text:
            s.moves = text
            s.save(update_fields=["moves"])
            # a result form opened before the import must not silently drop the record
            Match.objects.filter(pk=s.match_id).update(version=F("version") + 1)
        return s


#: A running import whose heartbeat (saved with its progress, at least every ``PROGRESS_SAVE_SECONDS``
#: while records go) is older than this has lost its worker: any new delivery of its task takes it over.
STALE_SECONDS = 60
#: Runs an import may start (the first, and each resume after a lost worker or a retried error) before
#: it is marked failed instead: a record that kills its worker every time cannot loop for ever. More
#: than the task's own retries (``federation.jobs.MAX_RETRIES`` + 1), whose failure says why itself.
MAX_ATTEMPTS = 10


def _fail_message(row: RecordImport, message: str) -> dict:
    """An error entry for an import that stops at its next record (``line`` 0: not a record's fault)."""
    return {"record": min(row.done + 1, row.total) if row.total else 0, "line": 0, "message": message}


def _claim(import_id: int, task_id: str | None, lang: str | None) -> tuple[RecordImport, str | None]:
    """Take import ``import_id`` for a new run: ``(row, runner token)``, or ``(row, None)`` when this
    run must leave it alone (finished, or running with a live runner) or it has been marked failed now.

    A pending import is taken. A running one is taken over — resumed from its progress counter — when
    its heartbeat is older than :data:`STALE_SECONDS` or missing (the worker running it is gone), or
    when ``task_id`` is the task that runs it (the broker delivers a message again only when the worker
    that had it died, or the task is retrying after a transient error). Another task with a fresh
    heartbeat is a second send of a live import: it does nothing. After :data:`MAX_ATTEMPTS` runs the
    import is marked failed with the reason instead.
    """
    now = timezone.now()
    with transaction.atomic():
        row = RecordImport.objects.select_for_update().get(pk=import_id)
        if row.status == RecordImport.Status.RUNNING:
            orphaned = row.heartbeat_at is None or row.heartbeat_at < now - dt.timedelta(seconds=STALE_SECONDS)
            if not (orphaned or (task_id and row.task_id == task_id)):
                return row, None
            if row.attempts >= MAX_ATTEMPTS:
                with translation.override(lang or row.lang or translation.get_language()):
                    message = _(
                        "the import was started %(n)d times without finishing (its worker stopped or the "
                        "database was out of reach) and is not resumed again; %(done)d of %(total)d records "
                        "were processed: import the remaining records again"
                    ) % {"n": row.attempts, "done": row.done, "total": row.total}
                row.errors = [*row.errors, _fail_message(row, message)]
                row.status, row.finished_at, row.runner = RecordImport.Status.FAILED, now, ""
                row.save(update_fields=["errors", "status", "finished_at", "runner"])
                return row, None
        elif row.status != RecordImport.Status.PENDING:
            return row, None
        row.status = RecordImport.Status.RUNNING
        row.runner = uuid.uuid4().hex
        row.heartbeat_at = now
        row.attempts += 1
        row.task_id = task_id or row.task_id
        row.lang = lang or row.lang
        row.save(update_fields=["status", "runner", "heartbeat_at", "attempts", "task_id", "lang"])
    return row, row.runner


def record_import_run(
    *, import_id: int, progress: ProgressCallback | None = None, save_every: float = PROGRESS_SAVE_SECONDS,
    task_id: str | None = None, lang: str | None = None, reraise: tuple[type[BaseException], ...] = (),
) -> RecordImport:
    """Run a pending import — or resume a running one whose worker was lost — parsing each record,
    attaching the valid ones and reporting the others.

    Progress (``done``, ``stored``, ``errors``, ``set_ids``, ``heartbeat_at``) is saved on the row as it
    goes — at most every ``save_every`` seconds (0: after every record) and at the end;
    ``progress(done, total, chunk, set_or_None, error_or_None)`` is called after every record (the
    command prints it). Who runs it: :func:`_claim` (``task_id`` is the Celery task, ``lang`` the
    language of the messages, both kept on the row). A finished import, or one running with a live
    runner, is returned unchanged (a task delivered twice runs once).

    Resuming: records are handled in order, one transaction each, and a resumed run starts at record
    ``done + 1`` with the saved errors and set ids. Records handled after the last progress save are
    handled again, which leaves the same moves and the same report (storing a set's record twice
    changes nothing). Every write of a run names its ``runner`` token: a run whose import was taken
    over (or marked failed by the sweep) stops at its next progress save.

    Ends ``done`` (errors or not) or ``failed`` (no record in the text, an internal error, or an import
    that cannot be resumed). An exception of a ``reraise`` type (the task passes the transient errors
    it retries) leaves the import running and propagates: the retried task resumes it.
    """
    row, runner = _claim(import_id, task_id, lang)
    if runner is None:
        return row
    row = RecordImport.objects.select_related("created_by").get(pk=import_id)
    mine = RecordImport.objects.filter(pk=import_id, runner=runner)  # nothing once another run owns it
    if row.attempts > 1:
        logger.warning("record import %s: resumed at record %d of %d (run %d; the previous one stopped)",
                       import_id, row.done + 1, row.total, row.attempts)
    user = row.created_by
    finder = SetFinder()
    allowed: dict[int, bool] = {}
    last_save = time.monotonic()
    errors: list[dict] = list(row.errors)
    set_ids: list[int] = list(row.set_ids)
    done, stored = row.done, row.stored
    try:
        chunks = split_records(row.text)
        total = len(chunks)
        if done and total != row.total:  # the text is read differently now (a new version of the reader)
            errors.append(_fail_message(row, _(
                "the import cannot be resumed: its text now splits into %(n)d records, not %(m)d; import it again"
            ) % {"n": total, "m": row.total}))
            mine.update(status=RecordImport.Status.FAILED, errors=errors, finished_at=timezone.now(), runner="")
            row.refresh_from_db()
            return row
        mine.update(total=total, heartbeat_at=timezone.now())
        if not chunks:
            errors.append({"record": 0, "line": 0, "message": _("no records found in the text")})
            mine.update(status=RecordImport.Status.FAILED, errors=errors, finished_at=timezone.now(), runner="")
            row.refresh_from_db()
            return row
        for k, chunk in enumerate(chunks[done:], start=done + 1):
            error = None
            s = None
            try:
                try:
                    records = parse(chunk.text)
                except NotationError as exc:
                    raise _shift(exc, chunk.line - 1) from exc
                if len(records) != 1:  # the splitter follows the parser, so this is one record
                    raise RecordRefused(_("expected one record here, found %(n)d") % {"n": len(records)}, chunk.line)
                s = _attach(records[0], chunk, user=user, replace=row.replace, finder=finder, allowed=allowed)
            except RecordRefused as exc:
                error = {"record": k, "line": exc.line, "message": exc.message}
            except RulesError as exc:
                error = {"record": k, "line": chunk.line, "message": engine_error_message(exc)}
            except ApplicationError as exc:
                error = {"record": k, "line": chunk.line, "message": getattr(exc, "message", str(exc))}
            done += 1
            if error is None:
                stored += 1
                set_ids.append(s.pk)
            else:
                errors.append(error)
            if k == total or time.monotonic() - last_save >= save_every:
                if not mine.update(done=done, stored=stored, errors=errors, set_ids=set_ids,
                                   heartbeat_at=timezone.now()):
                    logger.warning("record import %s: taken over by another run at record %d; this run stops",
                                   import_id, k)
                    row.refresh_from_db()
                    return row
                last_save = time.monotonic()
            if progress is not None:
                progress(done, total, chunk, s, error)
        mine.update(status=RecordImport.Status.DONE, finished_at=timezone.now(), heartbeat_at=timezone.now(),
                    runner="")
    except Exception as exc:  # a bug or a lost database: the import is marked failed, the error logged
        if reraise and isinstance(exc, reraise):  # transient: the task retries and resumes the import
            logger.warning("record import %s: %s at record %d; left running for the retry", import_id,
                           exc.__class__.__name__, done + 1)
            raise
        logger.exception("record import %s failed", import_id)
        errors.append({"record": done + 1, "line": 0, "message": _("internal error: %(e)s") % {"e": exc}})
        mine.update(
            status=RecordImport.Status.FAILED, errors=errors, finished_at=timezone.now(),
            done=done, stored=stored, set_ids=set_ids, runner="",
        )
    row.refresh_from_db()
    return row


def record_import_abandon(*, import_id: int, task_id: str, message: str) -> bool:
    """Mark import ``import_id`` failed with ``message`` if it is still running under task ``task_id``
    (the task gave up: its retries are spent). True when it was marked."""
    with transaction.atomic():
        row = (
            RecordImport.objects.select_for_update()
            .filter(pk=import_id, status=RecordImport.Status.RUNNING, task_id=task_id)
            .first()
        )
        if row is None:
            return False
        row.errors = [*row.errors, _fail_message(row, message)]
        row.status, row.finished_at, row.runner = RecordImport.Status.FAILED, timezone.now(), ""
        row.save(update_fields=["errors", "status", "finished_at", "runner"])
    return True


@dataclass(frozen=True, slots=True)
class SweepResult:
    """What :func:`record_import_sweep` did: ids of the imports re-queued and of those marked failed."""

    requeued: tuple[int, ...]
    failed: tuple[int, ...]

    def as_dict(self) -> dict:
        return {"requeued": list(self.requeued), "failed": list(self.failed)}


def record_import_sweep(*, minutes: int | None = None, now: dt.datetime | None = None) -> SweepResult:
    """Imports pending or running without a heartbeat (a pending one: since it was created) for more
    than ``minutes`` (``settings.RECORD_IMPORT_STUCK_MINUTES``) have lost their worker or their message.

    Each is re-queued once — a new task that takes it over and resumes it at its progress counter —
    and, when it is stuck again ``minutes`` later, marked failed with the reason (a run that still
    holds it then stops at its next progress save). Run every minute by Celery beat
    (``games.sweep_stuck_imports``, ``CELERY_BEAT_SCHEDULE``).
    """
    import_records_task = _import_records_task()
    minutes = settings.RECORD_IMPORT_STUCK_MINUTES if minutes is None else minutes
    now = now or timezone.now()
    cutoff = now - dt.timedelta(minutes=minutes)
    stuck = Q(status__in=[RecordImport.Status.PENDING, RecordImport.Status.RUNNING]) & (
        Q(heartbeat_at__lt=cutoff) | Q(heartbeat_at__isnull=True, created_at__lt=cutoff)
    )
    requeue: list[tuple[int, str, str]] = []
    failed: list[int] = []
    for pk in RecordImport.objects.filter(stuck).order_by("pk").values_list("pk", flat=True):
        with transaction.atomic():
            row = RecordImport.objects.select_for_update().filter(stuck, pk=pk).first()  # still stuck?
            if row is None:
                continue
            if row.requeues < 1:
                # the new task's id is the row's: its delivery takes the import over (_claim)
                row.task_id, row.heartbeat_at, row.requeues = str(uuid.uuid4()), now, row.requeues + 1
                row.save(update_fields=["task_id", "heartbeat_at", "requeues"])
                requeue.append((row.pk, row.task_id, row.lang))
                continue
            with translation.override(row.lang or translation.get_language()):
                message = _(
                    "the import stopped: no progress for %(m)d minutes, even after it was re-queued (its worker "
                    "was lost); %(done)d of %(total)d records were processed: import the remaining records again"
                ) % {"m": minutes, "done": row.done, "total": row.total}
            row.errors = [*row.errors, _fail_message(row, message)]
            row.status, row.finished_at, row.runner = RecordImport.Status.FAILED, now, ""
            row.save(update_fields=["errors", "status", "finished_at", "runner"])
            failed.append(row.pk)
    for pk, task_id, lang in requeue:  # after the commit of each row above
        logger.warning("record import %s: no heartbeat for %d minutes, re-queued as task %s", pk, minutes, task_id)
        import_records_task.apply_async((pk, lang or None), task_id=task_id)
    for pk in failed:
        logger.warning("record import %s: still no heartbeat after its re-queue, marked failed", pk)
    return SweepResult(tuple(pk for pk, _t, _l in requeue), tuple(failed))


__all__ = [
    "MAX_ATTEMPTS",
    "MAX_IMPORT_CHARS",
    "RecordChunk",
    "RecordRefused",
    "STALE_SECONDS",
    "SetFinder",
    "SweepResult",
    "can_import_records",
    "can_view_import",
    "check_record",
    "find_set",
    "record_import_abandon",
    "record_import_create",
    "record_import_run",
    "record_import_start",
    "record_import_sweep",
    "split_records",
]
