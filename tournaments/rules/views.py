"""The public rules page of a tournament (issue 25). Thin view: reads through
:mod:`tournaments.rules.selectors`."""
from __future__ import annotations

from django.shortcuts import render

from tournaments import view_helpers
from tournaments.rules import selectors


def rules(request, slug: str):
    """``/t/<slug>/rules/``: every setting of the tournament, its value and what it means for the players
    (anyone who may see the tournament)."""
    t = view_helpers.visible_tournament(request, slug)
    return render(request, "tournaments/rules.html", {"t": t, "rules": selectors.tournament_rules(tournament=t)})
