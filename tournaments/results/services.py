"""Match results: the sets a referee enters, corrections of a stored result (optimistic versions), forfeits
and a knockout's decider sets. Writes as in :mod:`tournaments.services`: ``<entity>_<action>``, keyword-only,
atomic, audited."""
from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from collections.abc import Sequence

from django.db import IntegrityError, OperationalError, connection, models, router, transaction
from django.db.models.deletion import Collector
from django.utils import timezone
from django.utils.translation import gettext as _

import games.engine as engine
from federation.audit import audit_context, history_bulk_create
from federation.errors import Conflict, PreconditionRequired, ValidationFailed
from federation.prepared import PreparedRead, delete_in, insert_rows, update_columns
from tournaments import access, races, signals
from tournaments.knockout import matches as knockout_matches
from tournaments.knockout import settings as knockout_settings
from tournaments.models import Match, Round, SetResult, Tournament
from tournaments.services import HALF, ONE, ZERO, _reason, tournament_touch


# --------------------------------------------------------------------------------------------
# Results
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class SetInput:
    """One set as the referee enters it.

    ``white_store``/``black_store``: stones in each store at the end of the set (sum 48) or at the
    moment of a withdrawal (sum ≤ 48). ``termination``: ``completed``, ``white_withdrew`` or
    ``black_withdrew`` (Kural 14.5). ``moves``: optional move record ("4 1 3 …").
    """

    white_store: int
    black_store: int
    termination: str = SetResult.Termination.COMPLETED
    moves: str = ""


def rules_error_message(exc: ValueError, stores: tuple[int, int] | None = None) -> str:
    """The user's-language reason for a refusal of the rules engine (``games.engine`` errors).

    Result errors get a translated sentence naming the rule; move-record errors keep the engine's
    detail (it names the ply) behind a translated prefix.
    """
    from games.record_messages import engine_error_message

    e = engine
    if isinstance(exc, e.WithdrawalTooEarlyError):
        return _("a withdrawal is allowed only once a player has at least 25 stones in the store (Kural 14.5)")
    if stores is not None and min(stores) >= 25 and isinstance(exc, e.StonesNotConservedError):
        # e.g. a withdrawal entered at 25-25: only one player can reach 25 — the stones say so, not the rule
        return _("both stores cannot hold 25 or more: %(w)d and %(b)d make %(n)d stones, and a set has 48; "
                 "only one player can reach 25 (Kural 1, 14.5)") % {"w": stores[0], "b": stores[1], "n": sum(stores)}
    if isinstance(exc, e.AgreedDrawError) and stores is not None:
        # 20-20 "completed": a sum error (the stones of a finished set total 48), not an agreed draw
        return _("the two stores hold %(n)d stones, not 48: at the end of a set every stone is in a store "
                 "(Kural 1); a drawn set is 24–24. A withdrawal is possible only once a player has 25 stones "
                 "(Kural 14.5)") % {"n": sum(stores)}
    if isinstance(exc, e.AgreedDrawError):
        return _("there are no agreed draws: a set ends only when a side is empty (Kural 14.6)")
    if isinstance(exc, e.StonesNotConservedError) and stores is not None and sum(stores) > 48:
        return _("the two stores hold %(n)d stones, more than the 48 of a set (Kural 1)") % {"n": sum(stores)}
    if isinstance(exc, e.StonesNotConservedError) and stores is not None:
        return _("the two stores hold %(n)d stones; at the end of a set they hold all 48 "
                 "(at a withdrawal, choose who withdrew) (Kural 1, 14.5)") % {"n": sum(stores)}
    if isinstance(exc, e.StonesNotConservedError):
        return _("the two stores must hold 48 stones together at the end of a set; at a withdrawal, "
                 "choose who withdrew (Kural 1, 14.5)")
    if isinstance(exc, e.InvalidStonesError):
        return _("a store holds 0 to 48 stones")
    if isinstance(exc, e.MatchSetsError):
        return _("these sets cannot form a match: the match is decided as soon as the lead cannot be caught "
                 "(2–0 ends a three-set match), and no set is played after that")
    if isinstance(exc, (e.IllegalMoveError, e.IncompleteRecordError, e.RecordMismatchError)):
        return _("the move record does not fit: %(detail)s") % {"detail": engine_error_message(exc)}
    return str(exc)


def _points(x: float) -> Decimal:
    return {1.0: ONE, 0.5: HALF, 0.0: ZERO}[float(x)]


def result_snapshot(match: Match, *, stored: Sequence[SetResult] | None = None) -> dict:
    """A match result as JSON-ready data: ``version``, ``white_points``/``black_points`` (floats or
    None), ``forfeit`` and ``sets`` as ``[{"number", "white_stones", "black_stones", "termination"}]``
    (``stored``: the match's sets in order, when the caller has read them; else they are read)."""
    return {
        "version": match.version,
        "white_points": None if match.white_points is None else float(match.white_points),
        "black_points": None if match.black_points is None else float(match.black_points),
        "forfeit": match.forfeit,
        "sets": [
            {"number": s.number, "white_stones": s.white_stones, "black_stones": s.black_stones,
             "termination": s.termination}
            for s in (match.sets.order_by("number") if stored is None else stored)
        ],
    }


# the match locked with its round and tournament: the SQL built once (federation.prepared; issue 22)
_MATCH_LOCKED = PreparedRead(
    lambda pk: Match.objects.select_for_update(of=("self",)).select_related("round__tournament").filter(pk=pk),
    pk=-987_654_321,  # a placeholder
)


# a match's sets in order (the result write reads them once): the SQL built once
_MATCH_SETS = PreparedRead(lambda match_id: SetResult.objects.filter(match_id=match_id).order_by("number"),
                           match_id=-987_654_322)


def match_result_enter(
    *,
    match: Match,
    sets: Sequence[SetInput] = (),
    forfeit: str = "",
    user=None,
    expected_version: int | None = None,
    reason: str = "",
    decider_starter: str = "",
) -> Match:
    """Record or correct a match result from its sets (RULES.md "Match and tournament scoring").

    ``sets`` in play order; set k is started by white when k is odd (003 "Turnuva maçı"). Each set's
    recorded stones come from ``games.engine.set_result`` (Kural 14.5 withdrawals), the match points
    from ``games.engine.match_result``: 2–0 ends a 3-set match, equal set points draw, 1 / ½ / 0.
    Entering fewer sets than needed saves them and leaves the match open.
    ``forfeit`` (``white``/``black``/``both``) records a game not played: no sets, 0–1 / 1–0 / 0–0.

    Stale writes never win: once a result was entered, a change must carry ``expected_version`` (the
    version the writer saw): missing → PreconditionRequired (428), old → Conflict (409) with the
    current result in ``extra["current"]``.

    A result of a **closed** round is corrected by the organiser (or staff) only, with a ``reason``;
    referees get Conflict. Later pairings are not changed (C.04.1); the event's version is bumped (so
    standings, crosstables and PDFs are recomputed) and a rated event is re-rated with every later one.

    A **knockout** match (issue 14; RULES.md "Knockout matches") plays its round's planned sets
    (:func:`tournaments.knockout.settings.sets_for_round`); a level match goes on with decider sets (accepted only
    while it is level, as the event's rule allows: :func:`games.engine.knockout_match_result`). The first
    decider's starter is the lot recorded at the table (``decider_starter``: ``white``/``black``) or drawn
    here when the planned sets end level; later deciders alternate. The winner gets 1–0 and
    ``Match.decided_by`` says how (``sets``, ``deciders``, ``seed``, ``forfeit``). Once the next round is
    paired, a correction may not change who advances (Conflict).

    Raises ValidationFailed naming the set and the reason; PermissionDenied; Conflict when the round
    is closed (for a referee) or not published yet.
    """
    tournament = match.round.tournament
    if user is not None:
        if not access.can_enter_results(user, tournament):
            access.require(False, access.results_refused_message(user, tournament))
    number = match.round.number
    try:
        with transaction.atomic():
            # lock order tournament, round, board (issue 23): the tournament first, in KEY SHARE — result writers
            # do not wait for each other, but a round close or an undone pairing (FOR UPDATE of the tournament)
            # waits for this result, or this result for it. Then the match row only (of="self"), with its round's
            # status and the tournament's versions read in the same statement: a fresh snapshot taken once the
            # tournament is held, which nobody may close, reopen or undo until this transaction ends.
            races.result_write_lock(tournament.pk)
            locked = _MATCH_LOCKED.first(pk=match.pk)
            if locked is None:  # the pairing was undone meanwhile (round_delete)
                raise Conflict(_("The pairing of round %(n)d was undone meanwhile; this board no longer exists. "
                                 "Reload the round.") % {"n": number}, code="pairing_undone")
            closed = locked.round.status == Round.Status.CLOSED
            with audit_context(action="result.correct" if closed else "result.enter", user=user, reason=reason,
                               tournament_id=tournament.pk):
                return _match_result_write(
                    match=locked, sets=sets, forfeit=forfeit, user=user, expected_version=expected_version,
                    reason=reason, decider_starter=decider_starter,
                )
    except (OperationalError, IntegrityError) as exc:  # a race the lock order should prevent: a 409, not a 500
        if not races.race_lost(exc):
            raise
        raise Conflict(_("Round %(n)d was changed at the same moment (closed, reopened or its pairing undone); "
                         "reload it and check the result.") % {"n": number}, code="race_lost") from exc


def _same_result(match: Match, sets, forfeit: str, stored: list[SetResult]) -> bool:
    """True when ``sets``/``forfeit`` are exactly the stored result (``stored``: the match's sets in
    order; stores, terminations, and move records where given)."""
    if match.result_entered_at is None:
        return False
    if forfeit or match.forfeit:
        return forfeit == match.forfeit and not sets
    if len(stored) != len(sets):
        return False
    for given, have in zip(sets, stored):
        term = given.termination or SetResult.Termination.COMPLETED
        stores = (
            (have.white_stones, have.black_stones) if have.termination == "completed"
            else (have.white_store, have.black_store)
        )
        if term != have.termination or (int(given.white_store), int(given.black_store)) != stores:
            return False
        if given.moves.strip() and " ".join(given.moves.split()) != have.moves:
            return False
    return True


def _remember_sets(match: Match, sets: list[SetResult]) -> None:
    """Let ``match.sets.all()`` answer ``sets`` from memory (as ``prefetch_related("sets")`` would), so the
    answer to a result entry does not read back what was just written."""
    qs = SetResult.objects.filter(match_id=match.pk).order_by("number")
    qs._result_cache = list(sets)
    qs._prefetch_done = True
    match._prefetched_objects_cache = {**getattr(match, "_prefetched_objects_cache", {}), "sets": qs}


def _sets_delete(stored: list[SetResult]) -> bool:
    """Delete the sets ``stored`` and what cascades from them (the rating lines of a rated event) without
    the delete collector's reads and per-row signals: one ``DELETE`` per cascading relation, then one of the
    sets. True when their history rows are left to the caller (:func:`federation.audit.history_bulk_create`);
    False when a relation that is not a plain cascade made it the ordinary delete (history by its signals)."""
    ids = [x.pk for x in stored]
    related = [rel for rel in SetResult._meta.related_objects if rel.on_delete is not models.DO_NOTHING]
    if any(rel.on_delete is not models.CASCADE for rel in related):  # SET_NULL, PROTECT, …: Django's own delete
        SetResult.objects.filter(pk__in=ids).delete()
        return False
    db = router.db_for_write(SetResult)
    for rel in related:
        if Collector(using=db, origin=None).can_fast_delete(rel.related_model):  # no signals, nothing cascading
            delete_in(rel.related_model, rel.field.name, ids, using=db)  # one DELETE, its SQL built once
        else:
            rel.related_model._base_manager.using(db).filter(**{f"{rel.field.name}__in": ids}).delete()
    delete_in(SetResult, "id", ids, using=db)
    return True


# what _match_result_write changes in a match: its result, who entered it and when, its version
_RESULT_COLUMNS = ("forfeit", "white_points", "black_points", "rated", "decider_starter", "decided_by",
                   "result_entered_at", "result_entered_by", "version")


def _match_result_write(*, match: Match, sets, forfeit: str, user, expected_version: int | None, reason: str,
                        decider_starter: str = "") -> Match:
    """The write of :func:`match_result_enter`, on ``match`` as just locked (``select_for_update``, with its
    round and tournament), inside its transaction and audit context."""
    tournament = match.round.tournament
    if match.kind == Match.Kind.BYE:
        raise Conflict(_("A bye has no result to enter."))
    if match.round.status not in (Round.Status.PUBLISHED, Round.Status.CLOSED):
        raise Conflict(_("Results are entered once the pairing is published."))
    closed = match.round.status == Round.Status.CLOSED
    if closed:
        if user is not None and not access.can_organise(user, tournament):
            raise Conflict(
                _("The round is closed; only the organiser can correct a result, with a reason."), code="round_closed"
            )
        reason = _reason(reason, message=_("Say why the result of a closed round is corrected (recorded in the history)."))
    stored = _MATCH_SETS.all(match_id=match.pk)  # read once, used below
    if _same_result(match, sets, forfeit, stored) and (not decider_starter or decider_starter == match.decider_starter):
        _remember_sets(match, stored)
        return match  # a double submit or a re-sent correction: nothing changes, nothing is recorded
    if match.result_entered_at is not None:
        if expected_version is None:
            raise PreconditionRequired(
                _("This board already has a result: send the version you saw (\"version\" or If-Match) to change it."),
                field="version", extra={"current": result_snapshot(match, stored=stored)},
            )
    if expected_version is not None and expected_version != match.version:
        raise Conflict(
            _("Someone else changed this result meanwhile; reload and check it."), field="version",
            extra={"current": result_snapshot(match, stored=stored)},
        )
    was_final = match.white_points is not None
    ko = knockout_matches.match_plan(match)  # a knockout game (issue 14): planned sets of its round, decider sets
    old_decided, old_winner = knockout_matches.match_winner(match) if ko else (False, None)
    n = ko.planned if ko else tournament.sets_per_match
    old_moves = {
        (x.number, x.termination, x.white_store if x.white_store is not None else x.white_stones,
         x.black_store if x.black_store is not None else x.black_stones): x.moves
        for x in stored if x.moves
    }
    gone = stored if stored and _sets_delete(stored) else []  # deleted sets whose history is written below
    new_sets: list[SetResult] = []  # the sets written, in order
    new_history: list[SetResult] = []  # those whose history row is written below (not by their signal)
    if forfeit:
        if forfeit not in ("white", "black", "both"):
            raise ValidationFailed(_("Forfeit must be white, black or both."), field="forfeit")
        if sets:
            raise ValidationFailed(_("A forfeited match has no sets."), field="sets")
        match.forfeit = forfeit
        match.white_points, match.black_points = {"white": (ZERO, ONE), "black": (ONE, ZERO), "both": (ZERO, ZERO)}[forfeit]
        match.rated = False
        if ko:
            match.decided_by = "forfeit"
    else:
        if not sets:
            raise ValidationFailed(_("Enter at least one set."), field="sets")
        if len(sets) > (knockout_settings.MAX_SETS if ko else n):  # a knockout's deciders: the rule says how many
            raise ValidationFailed(
                _("A match has at most %(n)d sets.") % {"n": knockout_settings.MAX_SETS if ko else n}, field=f"sets[{len(sets)}]"
            )
        if ko:
            ko = knockout_matches.plan_with_lot(ko, sets_count=len(sets), decider_starter=decider_starter)
            match.decider_starter = ko.decider_starter

        def starts(i: int) -> str:
            """Who starts set ``i``: white in odd sets, black in even ones; a knockout's deciders by the lot."""
            if ko:
                return knockout_matches.plan_starter(ko, i) or "white"
            return "white" if engine.set_starter(i) == 0 else "black"

        recorded = []
        rows = []
        for i, s in enumerate(sets, start=1):
            fld = f"sets[{i}]"
            term = s.termination or SetResult.Termination.COMPLETED
            if term == "agreed_draw":
                raise ValidationFailed(_("Set %(i)d: there are no agreed draws (Kural 14.6).") % {"i": i}, field=fld)
            if term not in SetResult.Termination.values:
                raise ValidationFailed(_("Set %(i)d: unknown termination %(t)s.") % {"i": i, "t": term}, field=fld)
            withdrawn_by = {"completed": None, "white_withdrew": "first", "black_withdrew": "second"}[term]
            try:
                res = engine.set_result(int(s.white_store), int(s.black_store), withdrawn_by=withdrawn_by)
                if s.moves.strip():
                    starter_first = starts(i) == "white"
                    moves = [int(x) if x.isdecimal() else x for x in s.moves.split()]
                    # the record is from the starter's point of view: first = starter
                    a, b = (res.first, res.second) if starter_first else (res.second, res.first)
                    wb = withdrawn_by
                    if wb and not starter_first:
                        wb = "second" if wb == "first" else "first"
                    engine.validate_record(
                        moves, variant=tournament.variant, first_stones=a, second_stones=b, withdrawn_by=wb
                    )
            except ValueError as exc:
                if isinstance(exc, engine.RecordMismatchError) and hasattr(exc, "played"):
                    starter_white = starts(i) == "white"
                    pw, pb = exc.played if starter_white else exc.played[::-1]
                    raise ValidationFailed(
                        _("Set %(i)d: the move record gives %(pw)d-%(pb)d (white-black), not the %(w)s-%(b)s "
                          "entered; check the stones or the record.")
                        % {"i": i, "pw": pw, "pb": pb, "w": s.white_store, "b": s.black_store},
                        field=fld,
                    ) from exc
                raise ValidationFailed(
                    _("Set %(i)d (%(w)s-%(b)s): %(reason)s")
                    % {"i": i, "w": s.white_store, "b": s.black_store, "reason": rules_error_message(exc, (int(s.white_store), int(s.black_store)))},
                    field=fld,
                ) from exc
            recorded.append((res.first, res.second))
            moves_text = " ".join(s.moves.split()) or old_moves.get(
                (i, term, int(s.white_store), int(s.black_store)), ""
            )  # a correction that leaves a set as it was keeps its move record
            rows.append(
                SetResult(
                    match=match, number=i, starter=starts(i),
                    white_stones=res.first, black_stones=res.second, termination=term,
                    white_store=None if term == "completed" else int(s.white_store),
                    black_store=None if term == "completed" else int(s.black_store),
                    moves=moves_text,
                )
            )
        try:
            mr = knockout_matches.plan_result(ko, recorded) if ko else engine.match_result(
                recorded, sets_per_match=n, allow_incomplete=True
            )
        except engine.KnockoutSetsError as exc:
            raise knockout_matches.knockout_error(exc, ko) from exc
        except ValueError as exc:
            decided = next(
                (k for k in range(1, min(len(recorded), n + 1))
                 if engine.match_result(recorded[:k], sets_per_match=n, allow_incomplete=True).complete),
                None,
            )
            if decided is not None:
                raise ValidationFailed(
                    _("The match was decided after set %(k)d; set %(m)d is not played (tournament match: the match "
                      "ends as soon as the lead cannot be caught). Leave set %(m)d empty.")
                    % {"k": decided, "m": decided + 1},
                    field="sets",
                ) from exc
            raise ValidationFailed(rules_error_message(exc), field="sets") from exc
        if connection.features.can_return_rows_from_bulk_insert:  # the new ids come back: one INSERT
            insert_rows(rows)  # as bulk_create, its statement built once (federation.prepared)
            new_history = rows
        else:
            for row in rows:  # one by one (each gets its history row from its signal)
                row.save()
        new_sets = rows
        match.forfeit = ""
        match.rated = True
        if mr.complete:
            match.white_points, match.black_points = _points(mr.match_points[0]), _points(mr.match_points[1])
        else:
            match.white_points = match.black_points = None
        if ko:
            match.decided_by = mr.decided_by or ""
            if mr.needs_decider and not match.decider_starter:
                match.decider_starter = knockout_matches.draw_decider_starter()  # the lot, shown before the decider
    # the history of the sets in one INSERT: each deleted set ("-") and each new one ("+"), as their signals would
    if gone or new_history:
        history_bulk_create(SetResult, [(x, "-") for x in gone] + [(x, "+") for x in new_history])
    if ko:
        knockout_matches.check_correction(match, old_winner=old_winner, old_decided=old_decided)
    match.result_entered_at = timezone.now()
    match.result_entered_by = user if getattr(user, "is_authenticated", False) else None
    match.version += 1
    if closed and match.white_points is None and was_final:
        raise ValidationFailed(
            _("A result of a closed round must stay complete: enter every set up to the deciding one."), field="sets"
        )
    try:  # no savepoint: a failure here rolls back the whole result (match_result_enter's transaction)
        # the columns a result writes, in one UPDATE (not save()'s every column), and the match's history row
        # ("~"), as its post_save signal would write it (federation.audit.history_bulk_create)
        update_columns(match, _RESULT_COLUMNS)
    except IntegrityError as exc:  # a constraint the checks above should have caught: said in words
        from federation.errors import integrity_error_message

        raise ValidationFailed(integrity_error_message(exc), field="sets") from exc
    history_bulk_create(Match, [(match, "~")])
    _remember_sets(match, new_sets)
    # a result of a round not closed is not in the public standings: their cached copies stay valid. The
    # round's status and `tournament`'s standings_version were read with the lock of the match (one statement):
    # a round close committed since has bumped standings_version, which tournament_touch then bumps again.
    tournament_touch(tournament, standings=closed)
    if closed and tournament.status == Tournament.Status.FINISHED and tournament.standings_published_at is not None:
        signals.rerate_on_commit(tournament)
    return match
