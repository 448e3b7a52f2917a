"""The "why am I placed here" page (issue 25): one player's line of the standings walked against the
neighbours. Thin view: reads through :mod:`tournaments.placement.selectors`, behind the standings
page's publish gate (the public sees it once the standings are published; organisers always)."""
from __future__ import annotations

from django.http import Http404
from django.shortcuts import render

from federation.errors import NotFound
from tournaments import access, view_helpers
from tournaments import selectors as tournament_selectors
from tournaments.models import Tournament
from tournaments.placement import selectors


def placement(request, slug: str, start_no: int):
    """Why the player with starting number ``start_no`` is placed where they are: the values compared
    with the player just above and just below, in the tie-break order, and the one that separated them
    (or "level on everything"). Individual Swiss and round-robin events; 404 for a knockout, a team
    event, an unknown starting number, and for the public before the standings are published."""
    t = view_helpers.visible_tournament(request, slug)
    if t.system == Tournament.System.KNOCKOUT or t.format == Tournament.Format.TEAM:
        raise Http404("no tie-break standings")
    can_org = access.can_organise(request.user, t)
    if not t.standings_published and not can_org:
        return render(request, "tournaments/not_published.html", {"t": t}, status=404)
    try:
        place = selectors.player_placement(tournament=t, start_no=start_no, public_only=not can_org,
                                           lang=view_helpers.page_lang())
    except NotFound as exc:
        raise Http404(str(exc)) from None
    return render(request, "tournaments/placement.html", {
        "t": t, "place": place, "st": place.standings,
        "tiebreak_rules_text": tournament_selectors.tiebreak_rules_text(place.standings.tiebreak_rules),
    })
