"""The public lots page of a tournament (issue 25): every lot's commitment, and once drawn its secret,
outcome and how to check them. Thin view: reads through :mod:`tournaments.lots.selectors`."""
from __future__ import annotations

from django.shortcuts import render

from tournaments import view_helpers
from tournaments.lots import selectors


def lots(request, slug: str):
    """``/t/<slug>/lots/``: the lots of the tournament (anyone who may see the tournament). A lot not drawn
    yet shows its commitment only; a drawn one its secret, candidates, outcome and the Python lines that
    check them."""
    t = view_helpers.visible_tournament(request, slug)
    return render(request, "tournaments/lots.html", {"t": t, "lots": selectors.tournament_lots(tournament=t)})
