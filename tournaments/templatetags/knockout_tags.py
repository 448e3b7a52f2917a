"""Template tags of knockout sections and play-offs (issue 14): the tied places of an event's final standings
a play-off can break, and the play-offs of an event. Used in the organiser's part of the tournament page
only (they query)."""
from __future__ import annotations

from django import template

register = template.Library()


@register.simple_tag
def playoff_ties(tournament):
    """``[(rank, [names])]``: the shared places of ``tournament``'s final standings (empty while a round is
    open, and for a knockout)."""
    from tournaments.models import Tournament
    from tournaments.knockout.playoffs import tied_places

    if tournament.system == Tournament.System.KNOCKOUT:
        return []
    return tied_places(tournament)


@register.simple_tag
def playoffs(tournament):
    """The play-offs of ``tournament`` (knockout sections of tied players), oldest first."""
    from tournaments.knockout.selectors import playoffs_of

    return list(playoffs_of(tournament))
