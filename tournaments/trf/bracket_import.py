"""The import of a knockout from its own TRF export (issue 25): the settings of its ``XXK`` line and the boards of
its ``XXM`` lines (:mod:`tournaments.trf.bracket`) — the place of each match in the bracket, the match for third
place, how it was decided and its sets — checked against the player lines' cells. Called by
:func:`tournaments.trf.services.tournament_import_trf` inside its transaction; no commit of its own."""
from __future__ import annotations

from django.utils.translation import gettext as _

from federation.errors import ApplicationError
from tournaments.knockout import settings as knockout_settings
from tournaments.models import Match, Round, SetResult, Tournament
from tournaments.trf.checks import _refuse
from tournaments.trf.mapping import _POINTS
from tournaments.trf.scoring import code_points


def knockout_fields(t, source: str) -> dict:
    """The tournament fields of the file's ``XXK`` line: sets per round, the match for third place, the rule for
    a level match, the decider sets and the sets per match, checked as a new knockout's
    (:func:`tournaments.knockout.settings.clean_settings`); a refusal names the line."""
    ko = t.knockout or {}
    line = t.line_of.get("XXK", 0)
    if ko.get("spm") not in (1, 3, 5, 7):
        raise _refuse(source, line, _("Sets per match must be odd (1, 3, 5 or 7)."))
    try:
        fields = knockout_settings.clean_settings(
            system=Tournament.System.KNOCKOUT, knockout_sets=ko.get("sets") or [], third_place_match=ko.get("third"),
            level_match_rule=ko.get("level"), max_deciders=ko.get("deciders"),
        )
    except ApplicationError as exc:
        raise _refuse(source, line, str(exc.message)) from exc
    fields.pop("qualified_from", None), fields.pop("qualifiers", None)
    return {**fields, "sets_per_match": ko["spm"]}


def knockout_round_create(t, source: str, rnd: Round, entries: dict, by_no: dict, pab: float) -> None:
    """The boards of round ``rnd`` from the file's ``XXM`` lines, each checked against both players' cells (the
    opponent, the colour, the result); a player's cell with a game or a bye no ``XXM`` line names is refused.
    The cells of players out of the bracket (``Z`` or blank) make no board."""
    r = rnd.number
    covered: set[int] = set()
    for km in sorted((m for m in t.knockout_matches if m.round == r), key=lambda m: m.board):
        wp = by_no[km.white]
        wc = wp.result(r)
        if km.black is None:
            if wc is None or wc.opponent is not None:
                raise _refuse(source, km.line, _("XXM: round %(round)d: player %(no)d has no bye in their line %(line)d")
                              % {"round": r, "no": km.white, "line": wp.line})
            value = code_points(wc.code, pab_points=pab) or 0.0
            Match.objects.create(round=rnd, board=km.board, white=entries[km.white], kind=Match.Kind.BYE,
                                 bye_kind=km.bye_kind or Match.ByeKind.PAIRING,
                                 white_points=_POINTS[value if wc.code != "U" else pab])
            covered.add(km.white)
            continue
        bp = by_no[km.black]
        bc = bp.result(r)
        if wc is None or bc is None or wc.opponent != km.black or bc.opponent != km.white or wc.colour != "w":
            raise _refuse(source, km.line, _("XXM: round %(round)d: players %(white)d and %(black)d do not meet with "
                                             "these colours in their lines") % {"round": r, "white": km.white,
                                                                                "black": km.black})
        m = Match(round=rnd, board=km.board, white=entries[km.white], black=entries[km.black],
                  third_place=km.third_place, decided_by=km.decided_by, decider_starter=km.decider_starter)
        if wc.code in ("+", "-") or bc.code in ("+", "-"):
            m.forfeit = "both" if (wc.code == "-" and bc.code == "-") else ("black" if wc.code == "+" else "white")
            m.white_points, m.black_points = {"both": (0, 0), "black": (1, 0), "white": (0, 1)}[m.forfeit]
            m.rated = False
        elif wc.code:
            wv = code_points(wc.code, pab_points=pab)
            if wv is None:
                raise _refuse(source, wp.line, _("round %(round)d has no result") % {"round": r})
            m.white_points, m.black_points = _POINTS[wv], _POINTS[1.0 - wv]
            m.rated = wc.code in ("1", "=", "0")
        m.save()
        SetResult.objects.bulk_create([
            SetResult(match=m, number=i, starter=s.starter, white_stones=s.white, black_stones=s.black,
                      termination=s.termination, white_store=s.white_store, black_store=s.black_store)
            for i, s in enumerate(km.sets, start=1)
        ])
        covered.update({km.white, km.black})
    for p in t.players:
        cell = p.result(r)
        if p.start_no in covered or cell is None or (cell.opponent is None and cell.code in ("", "Z", "-")):
            continue
        raise _refuse(source, p.line, _("round %(round)d: player %(no)d has a result but no XXM line names the "
                                        "board") % {"round": r, "no": p.start_no})
