"""Knockout sections (issue 14): settings, the bracket's pairing, results with decider sets, the bracket
and the final ranking, and final stages seeded from a Swiss.

The thinking is done by the pure cores: :func:`games.engine.knockout_match_result` (who advances from a
match: the planned sets, then decider sets or the higher seed — RULES.md "Knockout matches") and
:mod:`tournaments.pairing.knockout` (seeding, later rounds from the winners, the match for third place,
the final ranking). This module loads rows into them and writes what they decide, reusing the
Round / Match / SetResult machinery of every tournament:

* Round r's boards are the bracket's slots in bracket order (board k = slot k; a bye is a bye board;
  a slot nobody holds has no board), the match for third place is the board after the final
  (``Match.third_place``). The pairing is done by :func:`tournaments.services.round_pair`, which hands a
  knockout to :func:`round_pair_knockout`.
* Colours: a coin toss per match (Kural 5). One seed is recorded per round (:class:`CoinToss`); board k's
  toss is ``coin_toss_outcome("<seed>:<k>")`` — white: the higher seed of the match takes white. Anyone
  can re-check a published seed.
* Results go through :func:`tournaments.services.match_result_enter` like every result: the round's
  planned sets (:func:`sets_for_round`), decider sets only while the match is level, the first decider's
  starter drawn by lot (``Match.decider_starter``) and later ones alternating, ``Match.decided_by``
  (``sets``, ``deciders``, ``seed`` or ``forfeit``). Match points are 1–0 for the winner; they are not
  used for standings (:func:`final_ranking` is).
* Seeds are the starting numbers: by rating (the usual order), or for a final stage
  (``qualified_from``) the ranks of the top ``qualifiers`` of the earlier stage's final standings
  (:func:`knockout_qualifiers_take`).
"""
from __future__ import annotations

import re
import secrets
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from django.db import transaction
from django.db.models import Prefetch
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

import games.engine as engine
from federation.errors import Conflict, ValidationFailed
from tournaments import access
from tournaments.models import CoinToss, Entry, Match, Round, SetResult, Tournament
from tournaments.pairing import PairingError
from tournaments.pairing import knockout as core
from tournaments.services import audited, tournament_touch

#: A match holds at most 40 sets (``SetResult.number`` 1..40): up to 7 planned, then decider sets.
MAX_SETS = 40
#: The most decider sets an organiser may agree on (rule ``deciders_then_seed``).
MAX_AGREED_DECIDERS = 9
SET_CHOICES = (1, 3, 5, 7)
#: ``Match.decided_by`` values: the planned sets, a won decider, the higher seed on a level match, a forfeit.
DECIDED_BY = ("sets", "deciders", "seed", "forfeit")

STAGE_LABELS = {
    "final": gettext_lazy("Final"),
    "semi_final": gettext_lazy("Semi-finals"),
    "quarter_final": gettext_lazy("Quarter-finals"),
}
DECIDED_BY_LABELS = {
    "sets": gettext_lazy("in the sets"),
    "deciders": gettext_lazy("in a decider set"),
    "seed": gettext_lazy("higher seed on a level match"),
    "forfeit": gettext_lazy("forfeit"),
}


def is_knockout(tournament: Tournament) -> bool:
    return tournament.system == Tournament.System.KNOCKOUT


def stage_label(round_no: int, total_rounds: int) -> str:
    """"Final", "Semi-finals", "Quarter-finals", "Round of 16", … of round ``round_no``."""
    try:
        key = core.round_key(round_no, total_rounds)
    except PairingError:
        return _("Round %(n)d") % {"n": round_no}
    if key in STAGE_LABELS:
        return str(STAGE_LABELS[key])
    return _("Round of %(n)s") % {"n": key.rsplit("_", 1)[1]}


# --------------------------------------------------------------------------------------------
# Settings
# --------------------------------------------------------------------------------------------


def sets_for_round(tournament: Tournament, number: int) -> int:
    """The planned sets of round ``number``'s matches (the match for third place: its round's):
    ``knockout_sets[number - 1]``, else ``sets_per_match`` (RULES.md: 3 or 5, a per-round setting)."""
    values = list(tournament.knockout_sets or [])
    if 1 <= number <= len(values):
        return int(values[number - 1])
    return tournament.sets_per_match


def clean_knockout_sets(value) -> list[int]:
    """Sets per round as stored: a list of odd numbers (1, 3, 5, 7), round 1 first, from a list or a text
    such as ``"3, 3, 5"``; blank: ``[]`` (every round plays ``sets_per_match``). ValidationFailed
    (field ``knockout_sets``) otherwise."""
    if value is None or value == "" or value == []:
        return []
    message = _("Sets per round are odd numbers (1, 3, 5 or 7), one per round from round 1, e.g. 3, 3, 5.")
    parts = [p for p in re.split(r"[\s,;]+", value.strip()) if p] if isinstance(value, str) else list(value)
    out = []
    for p in parts:
        if isinstance(p, bool) or not (isinstance(p, int) or (isinstance(p, str) and p.isascii() and p.isdigit())):
            raise ValidationFailed(message, field="knockout_sets")
        n = int(p)
        if n not in SET_CHOICES:
            raise ValidationFailed(message, field="knockout_sets")
        out.append(n)
    if len(out) > 12:
        raise ValidationFailed(_("At most 12 rounds (4096 players)."), field="knockout_sets")
    return out


def clean_settings(
    *, system: str, knockout_sets=None, third_place_match: bool = False,
    level_match_rule: str = Tournament.LevelMatchRule.DECIDERS, max_deciders: int | None = 0,
    qualified_from: Tournament | None = None, qualifiers: int | None = None,
) -> dict:
    """The knockout settings of a new tournament, checked: a dict of model fields.

    A tournament of another system takes the defaults (a knockout setting given to it is refused, naming
    the field). ``level_match_rule`` is one of :class:`Tournament.LevelMatchRule`; ``max_deciders``
    (1..9) only with ``deciders_then_seed``. A final stage names the earlier stage (``qualified_from``:
    a Swiss or round robin, not archived) and how many of its players qualify (``qualifiers``, 2 or
    more, no more than its players)."""
    sets = clean_knockout_sets(knockout_sets)
    rule = str(level_match_rule or Tournament.LevelMatchRule.DECIDERS)
    if rule not in Tournament.LevelMatchRule.values:
        raise ValidationFailed(_("Unknown rule for a level match %(v)s.") % {"v": rule}, field="level_match_rule")
    try:
        deciders = int(max_deciders or 0)
    except (TypeError, ValueError):
        raise ValidationFailed(_("A whole number of decider sets."), field="max_deciders") from None
    if system != Tournament.System.KNOCKOUT:
        for name, given in (("knockout_sets", bool(sets)), ("third_place_match", bool(third_place_match)),
                            ("level_match_rule", rule != Tournament.LevelMatchRule.DECIDERS),
                            ("max_deciders", deciders != 0), ("qualified_from", qualified_from is not None),
                            ("qualifiers", qualifiers not in (None, ""))):
            if given:
                raise ValidationFailed(_("This setting is for knockout sections only."), field=name)
        return {}
    if rule == Tournament.LevelMatchRule.DECIDERS_THEN_SEED:
        if not 1 <= deciders <= MAX_AGREED_DECIDERS:
            raise ValidationFailed(
                _("Say how many decider sets are played before the higher seed advances (1 to %(n)d).")
                % {"n": MAX_AGREED_DECIDERS}, field="max_deciders",
            )
    else:
        deciders = 0
    out = {"knockout_sets": sets, "third_place_match": bool(third_place_match), "level_match_rule": rule,
           "max_deciders": deciders, "qualified_from": None, "qualifiers": None}
    if qualified_from is None and qualifiers not in (None, ""):
        raise ValidationFailed(_("Choose the stage the players qualify from."), field="qualified_from")
    if qualified_from is not None:
        if qualified_from.system == Tournament.System.KNOCKOUT:
            raise ValidationFailed(_("A final stage qualifies players from a Swiss or a round robin."),
                                   field="qualified_from")
        if qualified_from.archived_at is not None:
            raise ValidationFailed(_("That tournament is archived."), field="qualified_from")
        try:
            n = int(qualifiers)
        except (TypeError, ValueError):
            raise ValidationFailed(_("Say how many players qualify (2 or more)."), field="qualifiers") from None
        available = qualified_from.entries.count()
        if n < 2 or n > available:
            raise ValidationFailed(
                _("Between 2 and %(n)d players can qualify from %(t)s.") % {"n": max(available, 2), "t": qualified_from.name},
                field="qualifiers",
            )
        out.update(qualified_from=qualified_from, qualifiers=n)
    return out


#: Knockout settings an organiser may edit (:func:`tournaments.services.tournament_update`).
EDITABLE = ("knockout_sets", "third_place_match", "level_match_rule", "max_deciders")


def clean_changes(tournament: Tournament, changes: dict) -> dict:
    """Check edits of :data:`EDITABLE` (inside ``tournament_update``'s transaction) and return them cleaned.

    Knockout sections only. The sets of a round cannot change once it is paired; the rule for a level
    match and the number of deciders are fixed once round 1 is paired (announced before the event); the
    match for third place can be added or dropped until the final round is paired."""
    wanted = {k: changes[k] for k in EDITABLE if k in changes}
    if not wanted:
        return changes
    if not is_knockout(tournament):
        raise ValidationFailed(_("This setting is for knockout sections only."), field=next(iter(wanted)))
    paired = tournament.rounds.count()
    if "knockout_sets" in wanted:
        new = clean_knockout_sets(wanted["knockout_sets"])
        for r in range(1, paired + 1):
            before = sets_for_round(tournament, r)
            after = new[r - 1] if r <= len(new) else tournament.sets_per_match
            if before != after:
                raise Conflict(
                    _("Round %(n)d is already paired with %(s)d-set matches; its sets cannot change.")
                    % {"n": r, "s": before}, field="knockout_sets",
                )
        changes["knockout_sets"] = new
    rule = wanted.get("level_match_rule", tournament.level_match_rule)
    if "level_match_rule" in wanted or "max_deciders" in wanted:
        cleaned = clean_settings(system=Tournament.System.KNOCKOUT, level_match_rule=rule,
                                 max_deciders=wanted.get("max_deciders", tournament.max_deciders))
        if (cleaned["level_match_rule"], cleaned["max_deciders"]) != (tournament.level_match_rule,
                                                                      tournament.max_deciders) and paired:
            raise Conflict(_("The rule for a level match is fixed once round 1 is paired."),
                           field="level_match_rule")
        changes["level_match_rule"] = cleaned["level_match_rule"]
        changes["max_deciders"] = cleaned["max_deciders"]
    if "third_place_match" in wanted:
        value = bool(wanted["third_place_match"])
        if value != tournament.third_place_match and paired and paired >= tournament.rounds_total:
            raise Conflict(_("The final round is already paired."), field="third_place_match")
        changes["third_place_match"] = value
    return changes


# --------------------------------------------------------------------------------------------
# A final stage: the qualifiers of an earlier stage
# --------------------------------------------------------------------------------------------


def qualifiers_of(tournament: Tournament) -> list:
    """The players who qualify for the final stage ``tournament``: the top ``qualifiers`` lines of the
    final standings of ``qualified_from`` (withdrawn players skipped), as
    :class:`tournaments.selectors.StandingLine` values in rank order.

    Conflict when the earlier stage is not over (a round not closed or not paired), or when the players
    either side of the cut share a rank (equal on every tie-break: a play-off decides; see
    :mod:`tournaments.knockout.playoffs`)."""
    from tournaments.selectors import tournament_standings

    source = tournament.qualified_from
    closed = source.rounds.filter(status=Round.Status.CLOSED).count()
    if closed == 0 or closed < source.rounds_total:
        raise Conflict(
            _("%(t)s is not over yet: its players qualify from its final standings.") % {"t": source.name},
            field="qualified_from",
        )
    # the final standings with the play-offs that broke ties applied (tournaments.knockout.playoffs)
    lines = [line for line in tournament_standings(tournament=source).lines if not line.withdrawn]
    n = tournament.qualifiers or 0
    if n > len(lines):
        raise Conflict(_("%(t)s has only %(n)d players.") % {"t": source.name, "n": len(lines)}, field="qualifiers")
    if n < len(lines) and lines[n - 1].rank == lines[n].rank and lines[n - 1].shared:
        raise Conflict(
            _("%(a)s and %(b)s share rank %(r)d of %(t)s, at the cut for the %(n)d qualifiers: break the tie "
              "(a play-off) first.")
            % {"a": lines[n - 1].name, "b": lines[n].name, "r": lines[n - 1].rank, "t": source.name, "n": n},
            field="qualifiers", code="tie_at_cut",
        )
    return lines[:n]


def take_qualifiers(tournament: Tournament) -> list[Entry]:
    """Enter the qualifiers of a final stage (:func:`qualifiers_of`) with starting number = seed = their
    place in the earlier stage (1 = its winner), replacing the stage's entries — before round 1 only.
    Writes with history (the caller holds the tournament's lock and its audit context)."""
    from federation.models import Player

    if tournament.rounds.exists():
        raise Conflict(_("Round 1 is already paired: the field of the final stage is fixed."))
    lines = qualifiers_of(tournament)
    wanted = [line.entry_id for line in lines]
    source_entries = {e.id: e for e in Entry.objects.filter(id__in=wanted).select_related("player")}
    players = [source_entries[i].player for i in wanted]
    current = {e.player_id: e for e in tournament.entries.all()}
    keep = {p.id for p in players}
    for pid, e in current.items():
        if pid not in keep:
            e.delete()
    ratings = dict(Player.objects.filter(id__in=keep).values_list("id", "rating"))
    # two passes so the unique (tournament, start_no) constraint holds at every step
    for e in tournament.entries.all():
        e.start_no = 10000 + e.start_no
        e.save(update_fields=["start_no"])
    out = []
    for seed, player in enumerate(players, start=1):
        e = Entry.objects.filter(tournament=tournament, player=player).first()
        if e is None:
            e = Entry.objects.create(tournament=tournament, player=player, start_no=seed, rating=ratings[player.id])
        else:
            e.start_no, e.rating, e.withdrawn, e.withdrawn_after_round = seed, ratings[player.id], False, None
            e.save(update_fields=["start_no", "rating", "withdrawn", "withdrawn_after_round"])
        out.append(e)
    return out


# --------------------------------------------------------------------------------------------
# Pairing the bracket
# --------------------------------------------------------------------------------------------


def board_toss(seed: str, board: int) -> str:
    """The coin toss of board ``board`` of a knockout round whose recorded seed is ``seed``: ``"w"`` —
    the higher seed of the match takes white —, or ``"b"`` (:func:`tournaments.services.coin_toss_outcome`
    of ``"<seed>:<board>"``)."""
    from tournaments.services import coin_toss_outcome

    return coin_toss_outcome(f"{seed}:{board}")


def _winner_entry_id(m: Match) -> int | None:
    """The entry that advances from a decided match or bye (``None``: undecided, or nobody: both forfeited)."""
    if m.kind == Match.Kind.BYE:
        return m.white_id
    if m.white_points is None:
        return None
    if m.white_points > m.black_points:
        return m.white_id
    if m.black_points > m.white_points:
        return m.black_id
    return None


def _loser_entry_id(m: Match) -> int | None:
    if m.kind == Match.Kind.BYE or m.white_points is None or m.white_points == m.black_points:
        return None
    return m.black_id if m.white_points > m.black_points else m.white_id


def _slots(matches: Sequence[Match], count: int) -> list[Match | None]:
    """The bracket matches of a round by slot (board k = slot k), the match for third place left out."""
    by_board = {m.board: m for m in matches if not m.third_place}
    return [by_board.get(k) for k in range(1, count + 1)]


def round_pair_knockout(*, tournament: Tournament, user=None, coin_seed: str | None = None) -> Round:
    """Pair the next round of a knockout (called by :func:`tournaments.services.round_pair` inside its
    transaction, with the tournament's row locked and the permission checked).

    Round 1: the seeds are the entries not withdrawn in starting-number order (a final stage first takes
    its qualifiers, :func:`take_qualifiers`); the bracket is 1 v N, 2 v N-1, … in standard order with
    byes to the top seeds (:func:`tournaments.pairing.knockout_bracket`); ``rounds_total`` becomes the
    bracket's number of rounds. Later rounds: the winners of the previous round, in bracket order
    (:func:`tournaments.pairing.next_round_pairs`); a winner who withdrew leaves the slot empty (the
    opponent has a bye). The final round adds the match for third place between the semi-final losers
    when the event has one. Colours: a coin toss per match (:func:`board_toss`).

    Conflict (a clear sentence) when a match of the previous round is undecided, the previous round is
    not closed, every round is paired, or fewer than two players are left.
    """
    last = tournament.rounds.order_by("-number").first()
    if last is not None:
        open_boards = [m.board for m in last.matches.filter(kind=Match.Kind.GAME, white_points__isnull=True)]
        if open_boards:
            raise Conflict(
                _("Round %(n)d is not decided yet: boards %(b)s have no winner. A knockout match is played until "
                  "someone wins it (decider sets on a level match) before the next round is paired.")
                % {"n": last.number, "b": ", ".join(map(str, open_boards))},
                code="knockout_undecided",
            )
        if last.status != Round.Status.CLOSED:
            raise Conflict(_("Round %(n)d is not closed yet.") % {"n": last.number})
        if last.number >= tournament.rounds_total:
            raise Conflict(_("The final has been played: every round of the bracket is paired."))
    number = (last.number if last else 0) + 1
    entries = {e.id: e for e in tournament.entries.select_related("player")}
    if number == 1:
        if tournament.qualified_from_id and tournament.qualifiers:  # a final stage (a play-off has its players)
            take_qualifiers(tournament)
            entries = {e.id: e for e in tournament.entries.select_related("player")}
        seeds = [e for e in sorted(entries.values(), key=lambda e: e.start_no) if not e.withdrawn]
        if len(seeds) < 2:
            raise Conflict(_("At least two players are needed to pair a round."))
        by_no = {e.start_no: e for e in seeds}
        bracket = core.knockout_bracket([e.start_no for e in seeds])
        pairs = [(by_no[a], by_no[b] if b is not None else None) for a, b in bracket]
        total = core.knockout_rounds(len(seeds))
        if tournament.rounds_total != total:
            tournament.rounds_total = total
            tournament.save(update_fields=["rounds_total"])
        third = None
    else:
        prev = list(last.matches.all())
        slots = _slots(prev, 2 ** (tournament.rounds_total - last.number))
        winners = []
        for m in slots:
            w = _winner_entry_id(m) if m is not None else None
            winners.append(w if w is not None and not entries[w].withdrawn else None)
        try:
            raw = core.next_round_pairs(winners)
        except PairingError as exc:
            raise Conflict(_("No pairing possible: %(r)s") % {"r": exc}) from exc
        pairs = []
        for a, b in raw:
            if a is None and b is not None:
                a, b = b, None
            if a is not None and b is not None and entries[b].start_no < entries[a].start_no:
                a, b = b, a  # the higher seed first
            pairs.append((entries[a] if a is not None else None, entries[b] if b is not None else None))
        third = None
        if number == tournament.rounds_total and tournament.third_place_match:
            losers = []
            for m in slots:
                lid = _loser_entry_id(m) if m is not None else None
                losers.append(entries[lid] if lid is not None and not entries[lid].withdrawn else None)
            pair = core.third_place_pair(losers) if len(losers) == 2 else None
            if pair is not None:
                third = tuple(sorted(pair, key=lambda e: e.start_no))
    seed = coin_seed or secrets.token_hex(16)
    rnd = Round.objects.create(tournament=tournament, number=number, status=Round.Status.PAIRED, paired_at=timezone.now())
    CoinToss.objects.create(
        round=rnd, seed=seed, outcome=board_toss(seed, 1), tossed_at=timezone.now(),
        tossed_by=user if getattr(user, "is_authenticated", False) else None,
    )
    boards: list[tuple[int, Entry, Entry | None, bool]] = []
    for k, (a, b) in enumerate(pairs, start=1):
        if a is not None:
            boards.append((k, a, b, False))
    if third is not None:
        boards.append((len(pairs) + 1, third[0], third[1], True))
    if not any(b is not None for _k, _a, b, _t in boards) and number == 1:
        raise Conflict(_("At least two players are needed to pair a round."))
    for k, a, b, is_third in boards:
        if b is None:
            Match.objects.create(round=rnd, board=k, kind=Match.Kind.BYE, bye_kind=Match.ByeKind.PAIRING, white=a,
                                 white_points=tournament.bye_points)
            continue
        white, black = (a, b) if board_toss(seed, k) == "w" else (b, a)
        Match.objects.create(round=rnd, board=k, white=white, black=black, third_place=is_third)
    if tournament.status == Tournament.Status.DRAFT:
        tournament.status = Tournament.Status.RUNNING
        tournament.save(update_fields=["status"])
    return rnd


# --------------------------------------------------------------------------------------------
# Results: planned sets, decider sets, who advances
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class MatchPlan:
    """How a knockout match is played: ``planned`` sets, the event's ``rule`` for a level match and
    ``max_deciders``, ``higher_seed`` (``"A"`` = white, ``"B"`` = black: the lower starting number) and the
    lot for the first decider (``decider_starter``: ``"white"``, ``"black"`` or ``""`` not drawn yet)."""

    planned: int
    rule: str
    max_deciders: int
    higher_seed: str
    decider_starter: str = ""

    @property
    def lot(self) -> str | None:
        return {"white": "A", "black": "B"}.get(self.decider_starter)

    @property
    def max_sets(self) -> int:
        """The most set rows a result may have."""
        if self.rule == Tournament.LevelMatchRule.HIGHER_SEED:
            return self.planned
        if self.rule == Tournament.LevelMatchRule.DECIDERS_THEN_SEED:
            return self.planned + self.max_deciders
        return MAX_SETS


def match_plan(match: Match) -> MatchPlan | None:
    """The :class:`MatchPlan` of a game of a knockout, ``None`` for any other match."""
    t = match.round.tournament
    if not is_knockout(t) or match.kind != Match.Kind.GAME:
        return None
    higher = "A" if match.white.start_no < match.black.start_no else "B"
    return MatchPlan(sets_for_round(t, match.round.number), t.level_match_rule, t.max_deciders, higher,
                     match.decider_starter or "")


def draw_decider_starter() -> str:
    """The lot for the first decider set: ``"white"`` or ``"black"`` (RULES.md "Knockout matches")."""
    return secrets.choice(("white", "black"))


def plan_with_lot(plan: MatchPlan, *, sets_count: int, decider_starter: str = "") -> MatchPlan:
    """The plan with the first decider's starter: ``decider_starter`` when the referee recorded the lot made
    at the table (``white``/``black``), else the one stored, else — when decider sets are entered — drawn
    now. ValidationFailed for another value."""
    if decider_starter:
        if decider_starter not in ("white", "black"):
            raise ValidationFailed(_("The first decider is started by white or black."), field="decider_starter")
        return replace(plan, decider_starter=decider_starter)
    if not plan.decider_starter and sets_count > plan.planned:
        return replace(plan, decider_starter=draw_decider_starter())
    return plan


def plan_starter(plan: MatchPlan, number: int) -> str | None:
    """Who starts set ``number``: ``"white"``/``"black"``; ``None`` for a decider before the lot is drawn."""
    try:
        first = engine.knockout_set_starter(number, plan.planned, plan.lot)
    except engine.KnockoutSettingsError:
        return None
    return "white" if first == 0 else "black"


def plan_result(plan: MatchPlan, recorded: Sequence[tuple[int, int]]) -> engine.KnockoutResult:
    """:func:`games.engine.knockout_match_result` of the recorded ``(white, black)`` stones."""
    return engine.knockout_match_result(
        recorded, plan.planned, rule=plan.rule, max_deciders=plan.max_deciders, higher_seed=plan.higher_seed,
    )


def knockout_error(exc: engine.KnockoutSetsError, plan: MatchPlan) -> ValidationFailed:
    """A refused decider set in words, naming the set (``field="sets[k]"``)."""
    k = exc.set_number
    if isinstance(exc, engine.DeciderNotAllowedError):
        if plan.rule == Tournament.LevelMatchRule.HIGHER_SEED or plan.max_deciders == 0:
            text = _("Set %(k)d: this event plays no decider set; on a level match the higher seed advances.")
        else:
            text = _("Set %(k)d: this event plays at most %(n)d decider sets, then the higher seed advances.")
    else:
        text = _("Set %(k)d: the match was already won, so no further set is played (decider sets are played only "
                 "while a knockout match is level).")
    return ValidationFailed(text % {"k": k, "n": plan.max_deciders}, field=f"sets[{k}]")


def check_correction(match: Match, *, old_winner: int | None, old_decided: bool) -> None:
    """Refuse a change of who advances from ``match`` once the next round is paired (its pairing used the
    old winner): delete that pairing first."""
    new_decided = match.white_points is not None
    new_winner = _winner_entry_id(match) if new_decided else None
    if (old_decided, old_winner) == (new_decided, new_winner):
        return
    later = Round.objects.filter(tournament_id=match.round.tournament_id, number__gt=match.round.number).first()
    if later is not None:
        raise Conflict(
            _("Round %(n)d is already paired with the winner of this match; this correction changes who advances. "
              "Delete the pairing of round %(n)d first.") % {"n": later.number},
            code="knockout_next_round_paired",
        )


def match_winner(match: Match) -> tuple[bool, int | None]:
    """(decided, the entry id that advances) of a stored match."""
    return match.white_points is not None, (_winner_entry_id(match) if match.white_points is not None else None)


# --------------------------------------------------------------------------------------------
# The result form's rows
# --------------------------------------------------------------------------------------------


def form_sets(match: Match) -> int:
    """How many set rows the result form of a knockout game shows: the planned sets, then decider rows —
    none under the higher-seed rule, the agreed number under ``deciders_then_seed``, else one more than
    the deciders entered (at least two)."""
    plan = match_plan(match)
    if plan is None:
        return match.round.tournament.sets_per_match
    if plan.rule != Tournament.LevelMatchRule.DECIDERS:
        return plan.max_sets
    entered = match.sets.count()
    return min(MAX_SETS, max(plan.planned + 2, entered + 1))


def row_info(match: Match, number: int) -> tuple[str, str | None]:
    """(label, starter) of set row ``number`` of a knockout game's form: "Set 2" or "Decider 1 (set 4)",
    and ``"white"``/``"black"`` (``None``: a decider whose lot is not drawn yet)."""
    plan = match_plan(match)
    if plan is None:
        return _("Set %(n)s") % {"n": number}, "white" if engine.set_starter(number) == 0 else "black"
    starter = plan_starter(plan, number)
    if number <= plan.planned:
        return _("Set %(n)s") % {"n": number}, starter
    return _("Decider %(j)d (set %(n)d)") % {"j": number - plan.planned, "n": number}, starter


# --------------------------------------------------------------------------------------------
# Reads: the bracket and the final ranking
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Side:
    """A player in a bracket match: seed (= starting number), name, club, rating, federation id."""

    entry_id: int
    seed: int
    name: str
    club: str
    rating: int
    federation_id: str


@dataclass(frozen=True, slots=True)
class BracketSet:
    number: int
    starter: str
    white_stones: int
    black_stones: int
    decider: bool
    termination: str


@dataclass(frozen=True, slots=True)
class BracketGame:
    """One slot of a round: ``kind`` ``game``, ``bye`` or ``empty`` (nobody holds it); ``white``/``black``
    (a bye: ``white`` only); the sets; ``winner`` (``"white"``/``"black"``, ``None`` undecided or nobody),
    ``decided``, ``decided_by`` (:data:`DECIDED_BY`), set points (white, black) of every set played."""

    round_no: int
    slot: int
    kind: str
    white: Side | None = None
    black: Side | None = None
    sets: tuple[BracketSet, ...] = ()
    winner: str | None = None
    decided: bool = False
    decided_by: str = ""
    forfeit: str = ""
    third_place: bool = False
    set_points: tuple[float, float] = (0.0, 0.0)
    decider_starter: str = ""
    planned: int = 3

    @property
    def winner_side(self) -> Side | None:
        return self.white if self.winner == "white" else self.black if self.winner == "black" else None

    @property
    def decided_by_label(self) -> str:
        return str(DECIDED_BY_LABELS.get(self.decided_by, ""))

    @property
    def flipped(self) -> bool:
        """True when black is the higher seed (listed first in the bracket)."""
        return self.white is not None and self.black is not None and self.black.seed < self.white.seed

    @property
    def lines(self) -> list[dict]:
        """The bracket's two lines in seed order (the higher seed first): ``colour``, ``side``, ``points``
        (set points), ``winner``."""
        out = [
            {"colour": "white", "side": self.white, "points": self.set_points[0], "winner": self.winner == "white"},
            {"colour": "black", "side": self.black, "points": self.set_points[1], "winner": self.winner == "black"},
        ]
        return out[::-1] if self.flipped else out

    @property
    def scores(self) -> list[dict]:
        """Every set as the lines read it (the first line's stones first): ``number``, ``first``, ``second``,
        ``decider`` and ``starter`` (``"first"``/``"second"``: whose line started the set)."""
        out = []
        for s in self.sets:
            first, second = (s.black_stones, s.white_stones) if self.flipped else (s.white_stones, s.black_stones)
            starts_first = (s.starter == "black") == self.flipped
            out.append({"number": s.number, "first": first, "second": second, "decider": s.decider,
                        "starter": "first" if starts_first else "second"})
        return out


@dataclass(frozen=True, slots=True)
class BracketRound:
    number: int
    label: str
    planned: int
    status: str  # a Round.Status, or "" for a round not paired yet
    games: tuple[BracketGame, ...]
    third_place: BracketGame | None = None


@dataclass(frozen=True, slots=True)
class RankingLine:
    rank: int | None
    shared: bool
    side: Side
    out_in: int | None
    out_label: str
    withdrawn: bool


@dataclass(frozen=True, slots=True)
class Bracket:
    """A knockout's bracket as the public (``public_only``) or the organisers see it: every round (those
    not paired yet with empty slots), the match for third place, the champion and the final ranking."""

    tournament_id: int
    total_rounds: int
    rounds: tuple[BracketRound, ...]
    champion: Side | None
    ranking: tuple[RankingLine, ...]
    third_place_planned: bool
    final: bool  # the final (and the match for third place) are decided
    players: int = 0
    rule: str = ""
    extra: dict = field(default_factory=dict)


def _side(e: Entry) -> Side:
    p = e.player
    club = p.club.name if p.club_id else (p.city or e.federation)
    return Side(entry_id=e.id, seed=e.start_no, name=p.full_name, club=club or "", rating=e.rating,
                federation_id=p.federation_id)


def _game(m: Match, sides: dict[int, Side], planned: int) -> BracketGame:
    if m.kind == Match.Kind.BYE:
        return BracketGame(round_no=m.round.number, slot=m.board, kind="bye", white=sides[m.white_id], winner="white",
                           decided=True, planned=planned)
    sets = tuple(
        BracketSet(s.number, s.starter, s.white_stones, s.black_stones, s.number > planned, s.termination)
        for s in m.sets.all()
    )
    wsp = sum(1.0 if s.white_stones > 24 else 0.5 if s.white_stones == 24 else 0.0 for s in sets)
    decided = m.white_points is not None
    winner = None
    if decided and m.white_points != m.black_points:
        winner = "white" if m.white_points > m.black_points else "black"
    return BracketGame(
        round_no=m.round.number, slot=m.board, kind="game", white=sides[m.white_id], black=sides[m.black_id],
        sets=sets, winner=winner, decided=decided, decided_by=m.decided_by, forfeit=m.forfeit,
        third_place=m.third_place, set_points=(wsp, len(sets) - wsp), decider_starter=m.decider_starter,
        planned=planned,
    )


def knockout_bracket(*, tournament: Tournament, public_only: bool = True) -> Bracket:
    """The bracket of ``tournament`` (a fixed number of queries). ``public_only``: the rounds the public
    sees (published and closed: the publish gate of :mod:`tournaments.publication`); otherwise every
    paired round. The final ranking counts the rounds shown (:func:`final_ranking` for the standings)."""
    from tournaments.selectors import read_snapshot

    with read_snapshot():
        entries = list(tournament.entries.select_related("player__club"))
        rounds_qs = tournament.rounds.order_by("number")
        if public_only:
            rounds_qs = rounds_qs.filter(status__in=[Round.Status.PUBLISHED, Round.Status.CLOSED])
        rounds = list(rounds_qs)
        matches = list(
            Match.objects.filter(round__in=rounds).select_related("round")
            .prefetch_related(Prefetch("sets", queryset=SetResult.objects.order_by("number")))
            .order_by("round__number", "board")
        )
    return _bracket(tournament, entries, rounds, matches)


def _bracket(tournament: Tournament, entries: list[Entry], rounds: list[Round], matches: list[Match]) -> Bracket:
    sides = {e.id: _side(e) for e in entries}
    players_in_field = sum(1 for e in entries if not e.withdrawn) if not rounds else None
    total = tournament.rounds_total
    if not rounds and players_in_field and players_in_field >= 2:
        total = core.knockout_rounds(players_in_field)
    by_round: dict[int, list[Match]] = defaultdict(list)
    for m in matches:
        by_round[m.round.number].append(m)
    status = {r.number: r.status for r in rounds}
    out_rounds = []
    for number in range(1, total + 1):
        planned = sets_for_round(tournament, number)
        count = 2 ** (total - number)
        ms = by_round.get(number, [])
        slots = _slots(ms, count)
        games = tuple(
            _game(m, sides, planned) if m is not None else BracketGame(round_no=number, slot=k, kind="empty", planned=planned)
            for k, m in enumerate(slots, start=1)
        )
        third = next((m for m in ms if m.third_place), None)
        out_rounds.append(BracketRound(
            number=number, label=stage_label(number, total), planned=planned, status=status.get(number, ""),
            games=games, third_place=_game(third, sides, planned) if third is not None else None,
        ))
    ranking, champion, final = _ranking(tournament, entries, out_rounds, [r.number for r in rounds], total)
    return Bracket(
        tournament_id=tournament.id, total_rounds=total, rounds=tuple(out_rounds), champion=champion,
        ranking=tuple(ranking), third_place_planned=tournament.third_place_match, final=final,
        players=len(sides), rule=tournament.level_match_rule,
    )


def _core_match(g: BracketGame) -> core.BracketMatch | None:
    if g.kind == "empty":
        return None
    if g.kind == "bye":
        return core.BracketMatch(g.white.seed, None, g.white.seed, True)
    winner = g.winner_side.seed if g.winner_side is not None else None
    return core.BracketMatch(g.white.seed, g.black.seed, winner, g.decided)


def _ranking(tournament, entries, rounds: list[BracketRound], paired: list[int], total: int):
    by_seed = {e.start_no: e for e in entries}
    core_rounds = []
    for r in rounds:
        if r.number not in paired:
            break
        core_rounds.append([cm for cm in (_core_match(g) for g in r.games) if cm is not None])
    third = None
    if core_rounds and len(core_rounds) == total and rounds[total - 1].third_place is not None:
        third = _core_match(rounds[total - 1].third_place)
    lines = core.knockout_ranking(core_rounds, total, third, third_place_planned=tournament.third_place_match) \
        if core_rounds else []
    out = []
    champion = None
    for line in lines:
        e = by_seed[line.player]
        side = _side(e)
        if line.rank == 1 and not line.shared:
            champion = side
        out.append(RankingLine(
            rank=line.rank, shared=line.shared, side=side, out_in=line.out_in,
            out_label=stage_label(line.out_in, total) if line.out_in else "", withdrawn=e.withdrawn,
        ))
    final = bool(lines) and all(line.rank is not None for line in lines)
    return out, champion, final


def final_ranking(*, tournament: Tournament, public_only: bool = True) -> Bracket:
    """The bracket with its final ranking as the standings page shows it: for the public, the closed rounds
    up to the round the standings were published after (:func:`tournaments.publication.published_round`);
    for organisers every round paired."""
    from tournaments.publication import published_round
    from tournaments.selectors import read_snapshot

    with read_snapshot():
        entries = list(tournament.entries.select_related("player__club"))
        rounds_qs = tournament.rounds.order_by("number")
        if public_only:
            rounds_qs = rounds_qs.filter(status=Round.Status.CLOSED, number__lte=published_round(tournament))
        rounds = list(rounds_qs)
        matches = list(
            Match.objects.filter(round__in=rounds).select_related("round")
            .prefetch_related(Prefetch("sets", queryset=SetResult.objects.order_by("number")))
            .order_by("round__number", "board")
        )
    return _bracket(tournament, entries, rounds, matches)


def ranking_as_dicts(bracket: Bracket) -> list[dict]:
    """JSON-ready lines of the final ranking: ``rank`` (None while not known), ``shared``, ``seed``,
    ``name``, ``club``, ``rating``, ``out_in`` (the round the player was knocked out in, None for the winner
    and players still in)."""
    return [
        {"rank": line.rank, "shared": line.shared, "seed": line.side.seed, "name": line.side.name,
         "club": line.side.club, "rating": line.side.rating, "out_in": line.out_in, "withdrawn": line.withdrawn}
        for line in bracket.ranking
    ]



# --------------------------------------------------------------------------------------------
# Writes
# --------------------------------------------------------------------------------------------


@audited("knockout.qualifiers")
@transaction.atomic
def knockout_qualifiers_take(*, tournament: Tournament, user=None) -> list[Entry]:
    """Enter the qualifiers of a final stage now (:func:`take_qualifiers`), so the organiser sees the seeded
    field before pairing round 1 (which takes them again: the earlier stage's results may still be
    corrected meanwhile). Organisers only; Conflict for a tournament that is not a final stage, a paired
    round 1, an earlier stage not over, or a tie at the cut."""
    if user is not None:
        access.require(access.can_organise(user, tournament), _("Only the organiser can change entries."))
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    if not (tournament.qualified_from_id and tournament.qualifiers):
        raise Conflict(_("This tournament is not a final stage: its players are entered one by one."))
    entries = take_qualifiers(tournament)
    tournament_touch(tournament)
    return entries
