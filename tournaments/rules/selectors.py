"""The rules page of a tournament (issue 25): every setting an organiser can change, its current value in
words and one sentence of what it means for the players. Settings that do not apply to the tournament's
system are left out."""
from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import get_language
from django.utils.translation import gettext as _

from tournaments.models import Tournament
from tournaments.standings import tiebreak_label

#: every editable field of Tournament that is not a rule for the players, with the reason (the test walks them)
NOT_RULES = {
    "slug": "the address of the pages",
    "name": "the tournament's name, shown as the page title",
    "start_date": "a date, shown on the tournament page",
    "end_date": "a date, shown on the tournament page",
    "venue": "a place, shown on the tournament page",
    "city": "a place, shown on the tournament page",
    "federation": "the host federation in the TRF file",
    "round_dates": "the schedule, shown on the round pages",
    "status": "set by pairing and closing, not chosen as a setting",
    "standings_published_at": "set by publishing the standings",
    "standings_round": "set by publishing the standings",
    "chief_arbiter": "a person, shown on the tournament page",
    "time_control": "shown on the tournament page as written by the organiser",
    "imported_from_trf": "set by the TRF import",
    "created_by": "set on creation",
    "version": "internal edit counter",
    "standings_version": "internal cache counter",
    "archived_at": "set by archiving",
    "event": "the event the section belongs to, shown on the event page",
    "section_birth_year_min": "who may enter the section, shown on the event page",
    "section_birth_year_max": "who may enter the section, shown on the event page",
    "section_sex": "who may enter the section, shown on the event page",
    "section_order": "the order of the sections on the event page",
    "playoff_lot": "a drawn lot shown on the tournament and lots pages, not chosen",
}


@dataclass(frozen=True)
class Rule:
    """One setting: the model field it shows, its name, its value in words and what it means."""

    field: str
    name: str
    value: str
    meaning: str


def _yes(flag: bool) -> str:
    return _("yes") if flag else _("no")


def tournament_rules(*, tournament: Tournament) -> list[Rule]:
    """The rules of ``tournament`` in the active language, in the order an organiser sets them."""
    t = tournament
    lang = "en" if (get_language() or "").startswith("en") else "tr"
    ko = t.system == Tournament.System.KNOCKOUT
    rr = t.system == Tournament.System.ROUND_ROBIN
    out = [
        Rule("system", _("Pairing system"), t.get_system_display(),
             _("How the players are paired each round.")),
        Rule("variant", _("Variant"), t.get_variant_display(),
             _("The rules of play used on every board.")),
        Rule("rounds_total", _("Number of rounds"), str(t.rounds_total or "—"),
             _("How many rounds every player can play.")),
        Rule("sets_per_match", _("Sets per match"), str(t.sets_per_match),
             _("A match is won by winning more than half of these sets.")),
    ]
    if ko:
        sets = ", ".join(str(n) for n in t.knockout_sets or []) or _("the sets per match in every round")
        out += [
            Rule("knockout_sets", _("Sets per knockout round"), sets,
                 _("How many sets each knockout round's matches have, from the first round to the final.")),
            Rule("third_place_match", _("Match for third place"), _yes(t.third_place_match),
                 _("Whether the two losers of the semi-finals play for third place.")),
            Rule("level_match_rule", _("A level knockout match"), t.get_level_match_rule_display(),
                 _("What decides a match that is level after its sets.")),
        ]
        if t.level_match_rule == Tournament.LevelMatchRule.DECIDERS_THEN_SEED:
            out.append(Rule("max_deciders", _("Decider sets before the higher seed advances"), str(t.max_deciders),
                            _("How many decider sets are played before the higher seed goes through.")))
        if t.qualified_from_id:
            out.append(Rule("qualified_from", _("Qualified from"), t.qualified_from.name,
                            _("The stage whose final standings give the players of this one.")))
            if t.qualifiers:
                out.append(Rule("qualifiers", _("Qualifiers"), str(t.qualifiers),
                                _("How many players of that stage's top places go through.")))
    else:
        out.append(Rule("bye_points", _("Points for a pairing bye"), str(t.bye_points),
                        _("What a player left without an opponent in a round scores.")))
        order = ", ".join(tiebreak_label(k, lang) for k in t.tiebreaks or []) or "—"
        out += [
            Rule("tiebreaks", _("Tie-break order"), order,
                 _("Players level on points are ranked by these, the first deciding first.")),
            Rule("tiebreak_rules", _("Tie-break rules text"), t.get_tiebreak_rules_display(),
                 _("Which edition of the FIDE tie-break rules computes the tie-breaks.")),
        ]
    if t.system == Tournament.System.SWISS:
        out.append(Rule("acceleration", _("Accelerated pairing"), t.get_acceleration_display(),
                        _("Whether the top players get virtual points in the first rounds so that they meet "
                          "each other later.")))
    if rr:
        out.append(Rule("double_round_robin", _("Double round robin"), _yes(t.double_round_robin),
                        _("Whether every player meets every other twice, once with each colour.")))
        if t.double_round_robin:
            out.append(Rule("second_cycle_swap", _("Swap the last two rounds of the first cycle"),
                            _yes(t.second_cycle_swap),
                            _("Whether the second cycle swaps its last two rounds so that nobody plays three "
                              "games in a row with one colour.")))
    out.append(Rule("format", _("Format"), t.get_format_display(),
                    _("Whether players play for themselves or in teams.")))
    if t.format == Tournament.Format.TEAM:
        out.append(Rule("boards_per_team", _("Boards per team match"), str(t.boards_per_team),
                        _("How many players of each team play in a team match.")))
    out += [
        Rule("prize_sharing", _("Sharing prize money"), t.get_prize_sharing_display(),
             _("How prize money is shared among players level on points.")),
        Rule("prizes_to_withdrawn", _("Players who withdrew early can take prizes"), _yes(t.prizes_to_withdrawn),
             _("Whether a player who withdrew before the last round can still win a prize.")),
        Rule("prize_lot_seed", _("Seed of the prize lot"), t.prize_lot_seed or _("drawn when needed"),
             _("An indivisible prize among players level on everything goes by a lot anyone can check.")),
    ]
    for c in t.categories.all():
        out.append(Rule("includes_unrated", _("Category %(name)s includes unrated players") % {"name": c.name},
                        _yes(c.includes_unrated),
                        _("Whether players without a rating can be ranked in this category.")))
    out.append(Rule("coin_toss", _("Coin toss and drawing of lots"), _("on the Drawing of lots page"),
                    _("The colours of round 1 and every lot are drawn from a secret committed in advance, so "
                      "anyone can check them.")))
    return out
