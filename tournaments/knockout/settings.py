"""A knockout section's settings (issue 14) and what follows from them: the planned sets of each round,
the rule for a level match, the stages' names. Checked here for :func:`tournaments.services.tournament_create`
and :func:`tournaments.services.tournament_update`; no writes."""
from __future__ import annotations

import re

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from federation.errors import Conflict, ValidationFailed
from tournaments.models import Tournament
from tournaments.pairing import PairingError
from tournaments.pairing import knockout as core


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


def derived_rounds(*, qualifiers: int | None = None, knockout_sets=None, players: int | None = None) -> int:
    """A knockout's number of rounds as far as it is known: from its ``players`` (or a final stage's
    ``qualifiers``) — the next power of 2: 5..8 players, 3 rounds — else the rounds its sets per round name,
    else 1 until round 1 is paired (:func:`tournaments.knockout.services.round_pair_knockout` sets it then)."""
    n = players or qualifiers
    if n and n >= 2:
        return core.knockout_rounds(n)
    return max(1, len(knockout_sets or []))


def rounds_note(tournament: Tournament) -> str:
    """What the organiser is told after creating a knockout: its number of rounds follows from the bracket."""
    if tournament.qualifiers:
        return _("The number of rounds follows from the bracket: %(n)d qualifiers play %(r)d rounds.") % {
            "n": tournament.qualifiers, "r": tournament.rounds_total}
    return _("The number of rounds follows from the bracket: it is set from the players when round 1 is paired "
             "(2 players: 1 round, 3–4: 2, 5–8: 3, 9–16: 4, …).")


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


