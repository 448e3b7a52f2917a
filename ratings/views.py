"""Pages of the national rating: the rating list (filters: club, city, sex, age group; Turkish name
order) and one rated event's changes. The player page (``federation.views.player_detail``) shows a
player's history with :func:`player_rating_context`."""
from __future__ import annotations

from django.core.paginator import Paginator
from django.http import Http404
from django.shortcuts import get_object_or_404, render
from django.utils import timezone
from django.utils.translation import gettext as _

from federation.collation import turkish_sort_key
from federation.models import Club, Player
from ratings import charts, selectors, services
from ratings.models import RatingEvent
from tournaments.models import Tournament

PAGE_SIZE = 100


def rating_filters(params, *, personal: bool = True) -> tuple[selectors.RatingFilters, dict]:
    """:class:`selectors.RatingFilters` from query ``params``; unknown values are ignored (a page never
    fails on a bad filter). Also returns the cleaned values for the form. Without ``personal`` (the
    public, KVKK) ``sex`` and ``year`` are ignored: filtering by sex would reveal it, and age groups
    counted in chosen years would reveal the birth year."""
    club = (params.get("club") or "").strip()[:20]
    city = (params.get("city") or "").strip()[:60]
    sex = params.get("sex") if personal and params.get("sex") in ("m", "f") else ""
    age = params.get("age") if params.get("age") in selectors.AGE_GROUPS else ""
    q = (params.get("q") or "").strip()[:100]
    year = (params.get("year") or "") if personal else ""
    year = int(year) if year.isdigit() and len(year) == 4 and 1900 <= int(year) <= 2100 else timezone.localdate().year
    order = "name" if params.get("order") == "name" else "rating"
    cleaned = {"club": club, "city": city, "sex": sex, "age": age, "q": q, "year": year, "order": order}
    return selectors.RatingFilters(club=club, city=city, sex=sex, age=age, search=q, year=year), cleaned


def rating_list(request):
    """The rating list: rated players by rating (then Turkish name order), or by name; 100 per page."""
    from federation import privacy

    sees_personal = privacy.sees_personal_data(request.user)
    filters, cleaned = rating_filters(request.GET, personal=sees_personal)
    lines = selectors.rating_list(filters, order=cleaned["order"])
    page = Paginator(lines, PAGE_SIZE).get_page(request.GET.get("page"))
    query = request.GET.copy()
    query.pop("page", None)
    return render(
        request, "ratings/list.html",
        {
            "page": page, "lines": page.object_list, "total": len(lines), "f": cleaned, "query": query.urlencode(),
            "clubs": sorted(Club.objects.all(), key=lambda c: turkish_sort_key(c.name)),
            "cities": selectors.rating_cities(),
            "age_groups": [(k, v[0]) for k, v in selectors.AGE_GROUPS.items()],
            "events": selectors.rating_events()[:5],
            "provisional_sets": services.rating_system().params.provisional_sets,
            "sees_personal": sees_personal,
        },
    )


def rating_event(request, slug: str):
    """One rated tournament: each player's rating before and after, and what was not rated."""
    tournament = get_object_or_404(Tournament, slug=slug)
    event = RatingEvent.objects.filter(tournament=tournament).first()
    if event is None:
        raise Http404(_("This tournament is not rated."))
    return render(
        request, "ratings/event.html",
        {"t": tournament, "event": event, "changes": selectors.rating_event_changes(tournament)},
    )


def player_rating_context(player: Player) -> dict:
    """Context of the player page's rating section: ``history`` (oldest first), ``history_newest_first``,
    ``chart`` (:class:`ratings.charts.HistoryChart` or None), ``rated_sets``, ``rating_status``."""
    history = selectors.player_history(player)
    return {
        "history": history,
        "history_newest_first": list(reversed(history)),
        "chart": charts.history_chart(history, start_label=_("start")),
        "rated_sets": sum(h.sets for h in history),
        "rating_status": history[-1].status_after if history else ("established" if player.rating else "unrated"),
    }
