"""Member pages: player list and player page."""
from __future__ import annotations

from django.core.paginator import Paginator
from django.db.models import Q
from django.shortcuts import get_object_or_404, render

from federation.collation import player_sort_key
from federation.models import Club, Player
from ratings.views import player_rating_context


def player_list(request):
    """Players in Turkish alphabetical order, filterable by name, club and sex; 50 per page."""
    qs = Player.objects.select_related("club")
    q = (request.GET.get("q") or "").strip()
    if q:
        qs = qs.filter(Q(last_name__icontains=q) | Q(first_name__icontains=q) | Q(federation_id__iexact=q))
    club = request.GET.get("club")
    if club:
        qs = qs.filter(club_id=club)
    sex = request.GET.get("sex")
    if sex in ("m", "f"):
        qs = qs.filter(sex=sex)
    ordered = sorted(qs, key=player_sort_key)  # Turkish alphabet: Akın before Aktaş, Kılıç before Koç
    page = Paginator(ordered, 50).get_page(request.GET.get("page"))
    return render(
        request, "federation/player_list.html",
        {"page": page, "q": q, "clubs": Club.objects.all(), "club": club, "sex": sex},
    )


def player_detail(request, federation_id: str):
    """A player's page: club, rating, rating history (chart and each event's calculation), tournaments."""
    player = get_object_or_404(Player.objects.select_related("club"), federation_id=federation_id)
    entries = player.entries.select_related("tournament").order_by("-tournament__start_date")
    return render(
        request, "federation/player_detail.html",
        {"player": player, "entries": entries, **player_rating_context(player)},
    )
