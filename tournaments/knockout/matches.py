"""A knockout match (issue 14; RULES.md "Knockout matches"): its planned sets, decider sets while it is level
(the first one's starter drawn by lot), who advances, and the rows of its result form. Used by
:func:`tournaments.results.services.match_result_enter` like every result."""
from __future__ import annotations

import secrets
from collections.abc import Sequence
from dataclasses import dataclass, replace

from django.utils.translation import gettext as _

import games.engine as engine
from federation.errors import Conflict, ValidationFailed
from tournaments.knockout.settings import MAX_SETS, is_knockout, sets_for_round
from tournaments.models import Match, Round, Tournament


# --------------------------------------------------------------------------------------------
# Results: planned sets, decider sets, who advances
# --------------------------------------------------------------------------------------------


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


