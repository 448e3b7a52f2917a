"""Rating list (first version: current ratings; the margin-based rating runs are issue 5)."""
from __future__ import annotations

from django.shortcuts import render

from federation.models import Player


def rating_list(request):
    """Rated players by rating (desc), then name."""
    players = Player.objects.select_related("club").filter(rating__gt=0).order_by("-rating", "last_name", "first_name")
    return render(request, "ratings/list.html", {"players": players})
