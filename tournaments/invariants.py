"""Invariants of the stored data: what must hold whatever wrote the rows (a service, an import, the
admin, a shell, a bug). ``manage.py check_invariants`` and the nightly Celery task
``tournaments.check_invariants`` run :func:`check_invariants`; the archive import
(:mod:`tournaments.archive.services`) runs :func:`check_tournament` on what it is about to commit.

Two layers:

* **Rules over plain values** (no Django, no query): :func:`set_findings`, :func:`match_findings` and
  :func:`round_findings` take numbers and strings and return
  :class:`Finding` values (a ``kind``, the parameters of its sentence, expected and found). They are
  the rules of RULES.md applied through the rules engine (:mod:`games.engine`).
* **Loaders over querysets**: :func:`check_tournament` and :func:`check_invariants` read the rows with a fixed number of queries per tournament and turn the
  findings into :class:`Violation` values (``kind``, ``model``, ``pk``, ``message``; plus ``expected``,
  ``found`` and the tournament's slug). Messages are in the active language.

What is checked (``kind`` of each violation):

* sets — ``set.stones_range``/``set.stones_total`` (every store 0..48, the recorded stones total 48,
  Kural 1), ``set.starter`` (white starts odd sets, black even ones), ``set.stores`` (a completed set
  keeps no withdrawal stores, a withdrawal keeps them), ``set.result`` (the engine accepts the result:
  no level "draw" with stones left, no withdrawal before 25 — Kural 14.5/14.6), ``set.withdrawal``
  (the recorded stones follow from the stores at the withdrawal: 25–23 or the pits credited to the
  winner), ``set.moves`` (a stored move record replays to the stored result);
* matches — ``match.bye_sets``/``match.bye_points`` (a bye has no sets and is worth its kind:
  ``pab`` = the event's ``bye_points``, half ½, full 1, zero 0), ``match.forfeit_sets``/
  ``match.forfeit_points`` (a forfeit has no sets; 0–1, 1–0 or 0–0), ``match.set_count``/
  ``match.set_numbers`` (at most ``sets_per_match`` sets, numbered 1..k), ``match.sets_after_decision``
  (no set after the match was decided), ``match.points`` (1 / ½ / 0 as the sets give them, none while
  undecided), ``match.points_sum`` and ``match.no_sets`` (a result without sets only from a TRF file,
  and then 1 point in all), ``match.version`` (≥ 1), ``match.foreign_entry`` (both players are
  entries of the round's tournament);
* rounds — ``round.player_twice``/``round.bye_twice`` (nobody on two boards of a round, a bye at most
  once per player and round), ``round.without_result`` (a closed round has every result);
* entries — ``entry.withdrawal`` (``withdrawn`` and ``withdrawn_after_round`` agree),
  ``entry.paired_after_withdrawal`` (no game after the round a player withdrew after, but a knockout's
  match for third place the player forfeits: a walkover, issue 25);
* tournaments — ``tournament.version`` (≥ 1), ``tournament.standings_version`` (1 ≤ it ≤ ``version``), ``tournament.round_numbers`` (rounds 1..k),
  ``tournament.rounds_total`` (no more rounds than the event has), ``tournament.round_not_closed``
  (only the last round may be open), ``tournament.status`` (a draft has no round, a finished event has
  every round closed), ``tournament.standings_round`` (published standings count a closed round);
* standings — ``standings.points``/``standings.entries``/``standings.error``: the standings the
  project's selector computes (:func:`tournaments.selectors.tournament_standings`) give every entry the
  sum of its match points in the counted rounds and list every entry; ``standings.cache``: the
  standings cached under the tournament's current versions (:mod:`tournaments.caching`, the API's
  table, public and organisers', each language) equal the standings computed now (no standings value is
  stored in the database; a cached one that differs means a write that did not bump the version);
* apps above tournaments add their own checks (:func:`register_check`): ``ratings.invariants`` checks
  the stored national rating against the results (``rating.*`` kinds); tournaments never imports them.
"""
from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Callable, Iterable, Sequence

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

import games.engine as engine

ONE, HALF, ZERO = Decimal("1"), Decimal("0.5"), Decimal("0")
TOTAL_STONES = 48

# --------------------------------------------------------------------------------------------
# Rules over plain values (no Django, no query)
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Finding:
    """One broken rule found in plain values: ``kind`` (a key of :data:`MESSAGES`), ``params`` (the
    values its sentence names), ``expected`` and ``found`` (JSON-ready, or None)."""

    kind: str
    params: dict = field(default_factory=dict)
    expected: object = None
    found: object = None


def points_text(value) -> str | None:
    """Match points as text: ``"1"``, ``"0.5"``, ``"0"`` (None stays None)."""
    if value is None:
        return None
    d = Decimal(str(value))
    return "0.5" if d == HALF else str(int(d)) if d == d.to_integral_value() else str(d)


def _pair(w, b) -> str:
    return f"{points_text(w)}–{points_text(b)}"


def set_findings(
    *, number: int, starter: str, white_stones: int, black_stones: int, termination: str = "completed",
    white_store: int | None = None, black_store: int | None = None, moves: str = "", variant: str = "federation",
    expected_starter: str | None = None,
) -> list[Finding]:
    """The rules one stored set breaks (RULES.md "End of a set", "Withdrawal", Kural 1 and 14).

    ``white_stones``/``black_stones`` are the recorded stones (after Kural 14.5),
    ``white_store``/``black_store`` the stores at a withdrawal; ``moves`` the stored record ("4 1 …",
    from the starter's first move), replayed with the engine in ``variant``."""
    out: list[Finding] = []
    w, b = white_stones, black_stones
    params = {"number": number, "white": w, "black": b}
    if not (0 <= w <= TOTAL_STONES and 0 <= b <= TOTAL_STONES):
        return [Finding("set.stones_range", params, "0..48", f"{w}–{b}")]
    if w + b != TOTAL_STONES:
        out.append(Finding("set.stones_total", {**params, "total": w + b}, TOTAL_STONES, w + b))
    # a knockout's decider sets follow the lot (RULES.md "Knockout matches"): the caller says who starts them
    expected_starter = expected_starter or ("white" if number % 2 else "black")
    if starter != expected_starter:
        out.append(Finding("set.starter", {"number": number, "found": starter, "expected": expected_starter},
                           expected_starter, starter))
    withdrawn = {"completed": None, "white_withdrew": "first", "black_withdrew": "second"}.get(termination, "?")
    if withdrawn == "?":
        out.append(Finding("set.termination", {"number": number, "found": termination}, None, termination))
        return out
    stores = (white_store, black_store)
    if withdrawn is None and stores != (None, None):
        out.append(Finding("set.stores", {"number": number}, None, f"{white_store}–{black_store}"))
    if withdrawn is not None and None in stores:
        out.append(Finding("set.stores", {"number": number}, "stores", None))
        return out
    if out:
        return out
    try:
        if withdrawn is None:
            engine.set_result(w, b)
            recorded = (w, b)
        else:
            res = engine.set_result(int(white_store), int(black_store), withdrawn_by=withdrawn)
            recorded = (res.first, res.second)
    except ValueError as exc:
        return [Finding("set.result", {"number": number, "exc": exc, "stores": stores if withdrawn else (w, b)},
                        None, f"{w}–{b}")]
    if recorded != (w, b):
        want, got = f"{recorded[0]}–{recorded[1]}", f"{w}–{b}"
        out.append(Finding("set.withdrawal", {**params, "white_store": white_store, "black_store": black_store,
                                              "expected": want, "found": got}, want, got))
        return out
    if moves and moves.strip():
        first_is_white = starter == "white"
        first, second = (w, b) if first_is_white else (b, w)
        by = withdrawn
        if by is not None and not first_is_white:
            by = "second" if by == "first" else "first"
        try:
            engine.validate_record(
                [int(x) if x.isdecimal() else x for x in moves.split()], variant=variant,
                first_stones=first, second_stones=second, withdrawn_by=by,
            )
        except ValueError as exc:
            played = getattr(exc, "played", None)
            if played is not None and not first_is_white:
                played = played[::-1]
            out.append(Finding("set.moves", {"number": number, "exc": exc}, f"{w}–{b}",
                               f"{played[0]}–{played[1]}" if played else None))
    return out


def bye_value(bye_kind: str, bye_points) -> Decimal | None:
    """What a bye of ``bye_kind`` is worth (``pab``: the event's ``bye_points``); None for an unknown kind."""
    return {"pab": Decimal(str(bye_points)), "half": HALF, "full": ONE, "zero": ZERO}.get(bye_kind)


def match_findings(
    *, kind: str, bye_kind: str = "", forfeit: str = "", white_points=None, black_points=None,
    sets: Sequence[tuple[int, int, int]] = (), sets_per_match: int = 3, bye_points=ONE,
    sets_required: bool = True, knockout=None,
) -> list[Finding]:
    """The rules one stored match breaks (RULES.md "Match and tournament scoring").

    ``knockout``: for a game of a knockout, its plan (:class:`tournaments.knockout.matches.MatchPlan`: ``planned``
    sets, ``rule``, ``max_deciders``, ``higher_seed``, ``max_sets``): decider sets may follow a level match
    and the winner gets 1–0 (RULES.md "Knockout matches", :func:`games.engine.knockout_match_result`).

    ``sets``: ``(number, white stones, black stones)`` in number order. ``sets_required``: a result
    without sets is refused (False for an event imported from a TRF file, whose results have no sets)."""
    out: list[Finding] = []
    wp = None if white_points is None else Decimal(str(white_points))
    bp = None if black_points is None else Decimal(str(black_points))
    if kind == "bye":
        if sets:
            out.append(Finding("match.bye_sets", {"found": len(sets)}, 0, len(sets)))
        value = bye_value(bye_kind, bye_points)
        if value is not None and wp != value:
            out.append(Finding("match.bye_points", {"bye_kind": bye_kind, "expected": points_text(value), "found": points_text(wp)},
                               points_text(value), points_text(wp)))
        return out
    if forfeit:
        if sets:
            out.append(Finding("match.forfeit_sets", {"found": len(sets)}, 0, len(sets)))
        want = {"white": (ZERO, ONE), "black": (ONE, ZERO), "both": (ZERO, ZERO)}.get(forfeit)
        if want is not None and (wp, bp) != want:
            out.append(Finding("match.forfeit_points", {"who": forfeit, "expected": _pair(*want), "found": _pair(wp, bp)},
                               _pair(*want), _pair(wp, bp)))
        return out
    if not sets:
        if wp is not None and bp is not None:
            if sets_required:
                out.append(Finding("match.no_sets", {"found": _pair(wp, bp)}, None, _pair(wp, bp)))
            elif wp + bp != ONE:
                out.append(Finding("match.points_sum", {"found": _pair(wp, bp)}, "1", points_text(wp + bp)))
        return out
    numbers = [n for n, _w, _b in sets]
    limit = knockout.max_sets if knockout is not None else sets_per_match
    if len(sets) > limit:
        out.append(Finding("match.set_count", {"expected": limit, "found": len(sets)}, limit, len(sets)))
    if numbers != list(range(1, len(sets) + 1)):
        out.append(Finding("match.set_numbers", {"expected": list(range(1, len(sets) + 1)), "found": numbers},
                           list(range(1, len(sets) + 1)), numbers))
    if out:
        return out
    recorded = [(w, b) for _n, w, b in sets]
    try:
        if knockout is not None:
            mr = engine.knockout_match_result(recorded, knockout.planned, rule=knockout.rule,
                                              max_deciders=knockout.max_deciders, higher_seed=knockout.higher_seed)
        else:
            mr = engine.match_result(recorded, sets_per_match=sets_per_match, allow_incomplete=True)
    except ValueError as exc:
        return [Finding("match.sets_after_decision", {"exc": exc}, None, len(sets))]
    if mr.complete:
        want = tuple(Decimal(str(x)) for x in mr.match_points)
        if (wp, bp) != want:
            out.append(Finding("match.points", {"expected": _pair(*want), "found": _pair(wp, bp)},
                               _pair(*want), _pair(wp, bp)))
    elif wp is not None or bp is not None:
        out.append(Finding("match.points", {"expected": "—", "found": _pair(wp, bp)}, None, _pair(wp, bp)))
    return out


def _knockout_plan(t, m, entries: dict):
    """The plan of a game of a knockout (:class:`tournaments.knockout.matches.MatchPlan`), None otherwise (no query:
    the players' starting numbers come from ``entries``)."""
    if t.system != "knockout" or m.kind != "game" or m.black_id is None:
        return None
    from tournaments.knockout.matches import MatchPlan
    from tournaments.knockout.settings import sets_for_round

    w, b = entries.get(m.white_id), entries.get(m.black_id)
    higher = "A" if w is None or b is None or w.start_no < b.start_no else "B"
    return MatchPlan(sets_for_round(t, m.round.number), t.level_match_rule, t.max_deciders, higher,
                     m.decider_starter or "")


def _knockout_starter(plan, number: int) -> str | None:
    """Who starts set ``number`` of a knockout game (its decider sets by the lot); None: the usual rule."""
    if plan is None or number <= plan.planned:
        return None
    from tournaments.knockout.matches import plan_starter

    return plan_starter(plan, number)


def round_findings(boards: Iterable[tuple[int, str, int, int | None]]) -> list[Finding]:
    """Players on two boards of one round: ``boards`` are ``(board, kind, white start no, black start no
    or None)``. One finding per player, naming the boards (``round.bye_twice`` when they are all byes)."""
    where: dict[int, list[tuple[int, str]]] = defaultdict(list)
    for board, kind, white, black in boards:
        where[white].append((board, kind))
        if black is not None:
            where[black].append((board, kind))
    out = []
    for no, seen in sorted(where.items()):
        if len(seen) > 1:
            kind = "round.bye_twice" if all(k == "bye" for _b, k in seen) else "round.player_twice"
            found = sorted(b for b, _k in seen)
            out.append(Finding(kind, {"no": no, "boards": ", ".join(map(str, found))}, 1, found))
    return out


# --------------------------------------------------------------------------------------------
# Sentences
# --------------------------------------------------------------------------------------------

#: ``kind`` → the sentence of a violation (``%(name)s`` parameters from the finding).
MESSAGES = {
    "set.stones_range": gettext_lazy("set %(number)d: a store holds 0 to 48 stones, found %(white)d–%(black)d"),
    "set.stones_total": gettext_lazy("set %(number)d: the recorded stones %(white)d–%(black)d total %(total)d, "
                                     "not 48 (Kural 1)"),
    "set.starter": gettext_lazy("set %(number)d is started by %(found)s, but %(expected)s starts it (white starts "
                                "odd sets, black even ones)"),
    "set.termination": gettext_lazy("set %(number)d: unknown termination %(found)s"),
    "set.stores": gettext_lazy("set %(number)d: a completed set keeps no stores of a withdrawal, and a withdrawal "
                               "keeps both stores"),
    "set.result": gettext_lazy("set %(number)d: %(reason)s"),
    "set.withdrawal": gettext_lazy("set %(number)d: a withdrawal at stores %(white_store)d–%(black_store)d is "
                                   "recorded as %(expected)s (Kural 14.5), not %(found)s"),
    "set.moves": gettext_lazy("set %(number)d: %(reason)s"),
    "match.bye_sets": gettext_lazy("a bye has no sets, found %(found)d"),
    "match.bye_points": gettext_lazy("a bye of kind %(bye_kind)s is worth %(expected)s, found %(found)s"),
    "match.forfeit_sets": gettext_lazy("a forfeited game has no sets, found %(found)d"),
    "match.forfeit_points": gettext_lazy("a forfeit (%(who)s) gives %(expected)s, found %(found)s"),
    "match.set_count": gettext_lazy("a match has at most %(expected)d sets, found %(found)d"),
    "match.set_numbers": gettext_lazy("the sets are numbered %(found)s, not %(expected)s"),
    "match.sets_after_decision": gettext_lazy("the sets cannot form a match: %(reason)s"),
    "match.points": gettext_lazy("the sets give %(expected)s, the match records %(found)s"),
    "match.points_sum": gettext_lazy("the match points %(found)s do not add up to 1"),
    "match.no_sets": gettext_lazy("the result %(found)s has neither sets nor a forfeit (only a TRF import gives "
                                  "results without sets)"),
    "match.version": gettext_lazy("version %(found)s; versions start at 1"),
    "match.foreign_entry": gettext_lazy("%(colour)s is an entry of another tournament (entry %(found)s)"),
    "round.player_twice": gettext_lazy("starting number %(no)d is on boards %(boards)s"),
    "round.bye_twice": gettext_lazy("starting number %(no)d has byes on boards %(boards)s"),
    "round.without_result": gettext_lazy("the round is closed but boards %(boards)s have no result"),
    "entry.withdrawal": gettext_lazy("withdrawn is %(withdrawn)s but withdrawn after round is %(after)s"),
    "entry.paired_after_withdrawal": gettext_lazy("withdrawn after round %(after)d but paired on board %(board)d "
                                                  "of round %(round)d"),
    "tournament.version": gettext_lazy("version %(found)s; versions start at 1"),
    "tournament.standings_version": gettext_lazy("standings version %(found)s; it starts at 1 and never passes the "
                                                 "version (%(version)s)"),
    "tournament.round_numbers": gettext_lazy("the rounds are numbered %(found)s, not 1 to %(count)d"),
    "tournament.rounds_total": gettext_lazy("%(found)d rounds exist, more than the %(expected)d of the event"),
    "tournament.round_not_closed": gettext_lazy("round %(round)d is %(status)s but a later round exists; only the "
                                                "last round may be open"),
    "tournament.status": gettext_lazy("the tournament is %(status)s but %(closed)d of %(total)d rounds are closed "
                                      "and %(paired)d are paired"),
    "tournament.standings_round": gettext_lazy("the standings are published after round %(found)s, but the last "
                                               "closed round is %(expected)s"),
    "standings.points": gettext_lazy("the standings give %(name)s %(found)s points; the results give %(expected)s"),
    "standings.entries": gettext_lazy("the standings list %(found)d players; the tournament has %(expected)d"),
    "standings.error": gettext_lazy("the standings cannot be computed: %(reason)s"),
    "standings.cache": gettext_lazy("the cached standings (%(audience)s, %(lang)s, version %(version)d) differ from "
                                    "the results: the data changed without a new version"),
}


def _sentence(f: Finding) -> str:
    params = dict(f.params)
    if "exc" in params:
        from tournaments.results.services import rules_error_message

        exc = params.pop("exc")
        stores = params.pop("stores", None)
        params["reason"] = rules_error_message(exc, tuple(stores) if stores and None not in stores else None)
    for key in ("found", "expected"):
        if key in params and params[key] in ("white", "black"):
            params[key] = _(params[key])
    if "boards" in params and isinstance(params["boards"], list):
        params["boards"] = ", ".join(map(str, params["boards"]))
    return str(MESSAGES[f.kind]) % params


# --------------------------------------------------------------------------------------------
# Violations of stored rows
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Violation:
    """One stored row that breaks an invariant: ``kind`` (e.g. ``"set.starter"``), ``model``
    (``"tournaments.SetResult"``), ``pk`` of the row, ``message`` (where and what, in the active
    language), ``expected`` and ``found`` (JSON-ready, or None) and ``tournament`` (its slug, or "")."""

    kind: str
    model: str
    pk: int | None
    message: str
    expected: object = None
    found: object = None
    tournament: str = ""

    def as_dict(self) -> dict:
        return {"kind": self.kind, "model": self.model, "pk": self.pk, "message": self.message,
                "expected": _json(self.expected), "found": _json(self.found), "tournament": self.tournament}


def _json(value):
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if isinstance(value, (list, tuple)):
        return [_json(v) for v in value]
    return str(value)


def violation(model: str, pk, where: str, f: Finding, slug: str) -> Violation:
    what = _sentence(f)
    return Violation(f.kind, model, pk, f"{where}: {what}" if where else what, _json(f.expected), _json(f.found), slug)


def _where(slug: str, round_no: int | None = None, board: int | None = None) -> str:
    if board is not None:
        return _("%(t)s, round %(r)d, board %(b)d") % {"t": slug, "r": round_no, "b": board}
    if round_no is not None:
        return _("%(t)s, round %(r)d") % {"t": slug, "r": round_no}
    return slug


def check_tournament(tournament, *, standings: bool = True) -> list[Violation]:
    """Every invariant of one tournament but the ratings: its sets, matches, rounds, entries, settings
    and (``standings``) its standings. A fixed number of queries (plus the standings selector's)."""
    from tournaments.models import Entry, Match, Round, SetResult

    t = tournament
    slug = t.slug
    out: list[Violation] = []

    def add(model: str, pk, where: str, findings: Iterable[Finding]) -> None:
        out.extend(violation(model, pk, where, f, slug) for f in findings)

    if t.version is None or t.version < 1:
        add("tournaments.Tournament", t.pk, slug, [Finding("tournament.version", {"found": t.version}, 1, t.version)])
    elif not 1 <= t.standings_version <= t.version:  # bumped with ``version`` (not always): never ahead of it
        add("tournaments.Tournament", t.pk, slug, [Finding("tournament.standings_version", {
            "found": t.standings_version, "version": t.version}, f"1..{t.version}", t.standings_version)])
    entries = {e.pk: e for e in Entry.objects.filter(tournament=t).select_related("player")}
    rounds = list(Round.objects.filter(tournament=t).order_by("number"))
    matches = list(Match.objects.filter(round__tournament=t).select_related("round").order_by("round__number", "board"))
    sets_of: dict[int, list] = defaultdict(list)
    for s in SetResult.objects.filter(match__round__tournament=t).order_by("match_id", "number"):
        sets_of[s.match_id].append(s)
    foreign_ids = {m.white_id for m in matches} | {m.black_id for m in matches if m.black_id}
    foreign = {e.pk: e for e in Entry.objects.filter(pk__in=foreign_ids - set(entries))} if foreign_ids - set(entries) else {}

    # tournament: rounds and status
    numbers = [r.number for r in rounds]
    if numbers != list(range(1, len(rounds) + 1)):
        add("tournaments.Tournament", t.pk, slug, [Finding("tournament.round_numbers", {"found": numbers,
            "count": len(rounds)}, list(range(1, len(rounds) + 1)), numbers)])
    if len(rounds) > t.rounds_total:
        add("tournaments.Tournament", t.pk, slug, [Finding("tournament.rounds_total", {"found": len(rounds),
            "expected": t.rounds_total}, t.rounds_total, len(rounds))])
    for r in rounds[:-1]:
        if r.status != Round.Status.CLOSED:
            add("tournaments.Round", r.pk, _where(slug, r.number), [Finding("tournament.round_not_closed", {
                "round": r.number, "status": r.get_status_display()}, Round.Status.CLOSED, r.status)])
    closed = [r.number for r in rounds if r.status == Round.Status.CLOSED]
    paired = [r for r in rounds if r.status != Round.Status.DRAFT]
    bad_status = (
        (t.status == t.Status.DRAFT and paired)
        or (t.status == t.Status.FINISHED and len(closed) < t.rounds_total)
    )
    if bad_status:
        add("tournaments.Tournament", t.pk, slug, [Finding("tournament.status", {
            "status": t.get_status_display(), "closed": len(closed), "total": t.rounds_total, "paired": len(paired)},
            None, t.status)])
    if t.standings_round is not None:
        last_closed = max(closed, default=None)
        if t.standings_published_at is None or t.standings_round not in closed:
            add("tournaments.Tournament", t.pk, slug, [Finding("tournament.standings_round", {
                "found": t.standings_round, "expected": last_closed}, last_closed, t.standings_round)])

    # entries
    for e in entries.values():
        if e.withdrawn != (e.withdrawn_after_round is not None):
            add("tournaments.Entry", e.pk, _("%(t)s, starting number %(n)d") % {"t": slug, "n": e.start_no},
                [Finding("entry.withdrawal", {"withdrawn": e.withdrawn, "after": e.withdrawn_after_round},
                         None, [e.withdrawn, e.withdrawn_after_round])])

    # matches and sets
    by_round: dict[int, list] = defaultdict(list)
    required = not t.imported_from_trf
    for m in matches:
        by_round[m.round_id].append(m)
        where = _where(slug, m.round.number, m.board)
        sets = sets_of.get(m.pk, [])
        plan = _knockout_plan(t, m, entries)
        for s in sets:
            add("tournaments.SetResult", s.pk, where, set_findings(
                number=s.number, starter=s.starter, white_stones=s.white_stones, black_stones=s.black_stones,
                termination=s.termination, white_store=s.white_store, black_store=s.black_store, moves=s.moves,
                variant=t.variant, expected_starter=_knockout_starter(plan, s.number),
            ))
        add("tournaments.Match", m.pk, where, match_findings(
            kind=m.kind, bye_kind=m.bye_kind, forfeit=m.forfeit, white_points=m.white_points,
            black_points=m.black_points, sets=[(s.number, s.white_stones, s.black_stones) for s in sets],
            sets_per_match=t.sets_per_match, bye_points=t.bye_points, sets_required=required, knockout=plan,
        ))
        if m.version is None or m.version < 1:
            add("tournaments.Match", m.pk, where, [Finding("match.version", {"found": m.version}, 1, m.version)])
        for colour, eid in (("white", m.white_id), ("black", m.black_id)):
            if eid is not None and eid not in entries:
                other = foreign.get(eid)
                add("tournaments.Match", m.pk, where, [Finding("match.foreign_entry", {
                    "colour": _(colour), "found": eid}, None, other.tournament_id if other else None)])
        for eid in (m.white_id, m.black_id):
            e = entries.get(eid)
            walkover = m.third_place and m.forfeit in ("both", "white" if eid == m.white_id else "black")
            if (e is not None and e.withdrawn and e.withdrawn_after_round is not None and m.kind == m.Kind.GAME
                    and m.round.number > e.withdrawn_after_round and not walkover):
                add("tournaments.Entry", e.pk, where, [Finding("entry.paired_after_withdrawal", {
                    "after": e.withdrawn_after_round, "board": m.board, "round": m.round.number},
                    e.withdrawn_after_round, m.round.number)])

    # rounds
    def no(eid):
        e = entries.get(eid) or foreign.get(eid)
        return e.start_no if e is not None else -eid

    for r in rounds:
        ms = by_round.get(r.pk, [])
        add("tournaments.Round", r.pk, _where(slug, r.number), round_findings(
            (m.board, m.kind, no(m.white_id), no(m.black_id) if m.black_id else None) for m in ms))
        if r.status == Round.Status.CLOSED:
            missing = [m.board for m in ms if m.white_points is None]
            if missing:
                add("tournaments.Round", r.pk, _where(slug, r.number), [Finding("round.without_result", {
                    "boards": ", ".join(map(str, missing))}, [], missing)])

    if standings:
        out.extend(_standings_violations(t, entries, matches))
    return out


def _standings_violations(t, entries: dict, matches: list) -> list[Violation]:
    """The selector's standings against the sum of each entry's match points in the counted rounds."""
    from tournaments.selectors import tournament_standings

    slug = t.slug
    if not entries:
        return []
    try:
        st = tournament_standings(tournament=t)
    except Exception as exc:  # noqa: BLE001 - any failure of the selector is the finding
        f = Finding("standings.error", {"reason": f"{type(exc).__name__}: {exc}"}, None, type(exc).__name__)
        return [violation("tournaments.Tournament", t.pk, slug, f, slug)]
    out = []
    if len(st.lines) != len(entries):
        f = Finding("standings.entries", {"found": len(st.lines), "expected": len(entries)}, len(entries), len(st.lines))
        out.append(violation("tournaments.Tournament", t.pk, slug, f, slug))
    points: Counter = Counter()
    for m in matches:
        if m.round.number > st.rounds:
            continue
        points[m.white_id] += m.white_points or ZERO
        if m.black_id:
            points[m.black_id] += m.black_points or ZERO
    for line in st.lines:
        want = points.get(line.entry_id, ZERO)
        if Decimal(str(line.points)) != want:
            f = Finding("standings.points", {"name": f"{line.start_no}. {line.name}", "found": points_text(line.points),
                                             "expected": points_text(want)}, points_text(want), points_text(line.points))
            out.append(violation("tournaments.Entry", line.entry_id,
                                  _("%(t)s, after round %(r)d") % {"t": slug, "r": st.rounds}, f, slug))
    out.extend(_cached_standings_violations(t))
    return out


#: The cache kind of the standings compared with a recomputation: the API's table
#: (:class:`tournaments.api.StandingsApi`), a dict with ``"rounds"`` and ``"rows"``, keyed by audience and language.
CACHED_STANDINGS = "standings-api"


def _cached_standings_violations(t) -> list[Violation]:
    """The standings the cache holds under the tournament's current versions (:mod:`tournaments.caching`:
    the API's table, public and organisers', each language) against the standings computed now. A
    difference means that the data changed without a new version — a write that did not call
    :func:`tournaments.services.tournament_touch` — and the site shows a stale table."""
    from django.conf import settings
    from django.core.cache import cache

    from tournaments import caching
    from tournaments.selectors import standings_as_dicts, tournament_standings

    out = []
    for public in (True, False):
        version = t.standings_version if public else t.version
        for lang, _name in settings.LANGUAGES:
            key = caching.cache_key(CACHED_STANDINGS, t.pk, version, ("p" if public else "o", lang))
            value = cache.get(key)
            if not isinstance(value, dict) or "rows" not in value:
                continue
            st = tournament_standings(tournament=t, public_only=public, lang=lang)
            fresh = {"rounds": st.rounds, "rows": standings_as_dicts(st)}
            if {"rounds": value.get("rounds"), "rows": value["rows"]} != fresh:
                f = Finding("standings.cache", {"audience": "public" if public else "organisers", "lang": lang,
                                                "version": version}, fresh["rows"], value["rows"])
                out.append(violation("tournaments.Tournament", t.pk, t.slug, f, t.slug))
    return out


#: Checks of the apps above tournaments, by name: ``check(tournaments=qs_or_None) -> list[Violation]``
#: (:func:`register_check`; ``ratings`` registers its own in ``RatingsConfig.ready``).
_CHECKS: dict[str, Callable[..., list[Violation]]] = {}


def register_check(name: str, check: Callable[..., list[Violation]], *, messages: dict | None = None) -> None:
    """Make :func:`check_invariants` run ``check(tournaments=...)`` after the tournaments' own checks;
    ``messages`` (``kind`` → sentence) join :data:`MESSAGES`. Registering a name again replaces it. An app
    above tournaments (ratings) registers from its ``AppConfig.ready``: tournaments never imports it."""
    _CHECKS[name] = check
    MESSAGES.update(messages or {})


def check_invariants(*, tournaments=None, ratings: bool = True, standings: bool = True) -> list[Violation]:
    """Every invariant of ``tournaments`` (a queryset; None: the whole database): :func:`check_tournament`
    for each (in id order), then (``ratings``) the checks of the apps above (:func:`register_check`: the
    national rating's, ``ratings.invariants.check_ratings``). Returns the violations, none when the data
    is sound."""
    from tournaments.models import Tournament

    qs = Tournament.objects.all() if tournaments is None else tournaments
    out: list[Violation] = []
    for pk in list(qs.order_by("pk").values_list("pk", flat=True)):  # one tournament in memory at a time
        t = Tournament.objects.filter(pk=pk).first()
        if t is not None:  # deleted meanwhile
            out.extend(check_tournament(t, standings=standings))
    if ratings:
        for check in _CHECKS.values():
            out.extend(check(tournaments=tournaments))
    return out
