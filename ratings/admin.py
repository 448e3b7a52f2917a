"""The Django admin of the national rating, view only.

Every row here is written by the rating run (``ratings.services``: a full or partial re-rating
rewrites the events, changes and card lines and ``Player.rating``), so nothing is added, changed or
deleted by hand: change a result or a tournament in the product and the rating runs again.
"""
from __future__ import annotations

from django.contrib import admin
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from federation.admin import ReadOnlyAdminMixin, TurkishSearchAdmin
from ratings.models import InitialRating, RatingChange, RatingEvent, RatingGameLine


class RatingReadOnlyAdmin(ReadOnlyAdminMixin, TurkishSearchAdmin):
    """View only (list and detail)."""


@admin.register(RatingEvent)
class RatingEventAdmin(RatingReadOnlyAdmin):
    list_display = ("tournament", "period", "rated_at", "system", "players", "rated_sets", "forfeits", "byes",
                    "unrated_matches", "matches_without_sets")
    list_filter = ("period", "system")
    list_select_related = ("tournament",)
    search_fields = ("tournament__name", "tournament__slug")
    date_hierarchy = "period"


@admin.register(RatingChange)
class RatingChangeAdmin(RatingReadOnlyAdmin):
    list_display = ("player", "event", "period", "rating_before_display", "rating_after_display", "change_display",
                    "status_before", "status_after", "sets")
    list_filter = ("status_after", "period")
    list_select_related = ("player", "event__tournament")
    search_fields = ("player__last_name", "player__first_name", "player__federation_id", "event__tournament__name")
    date_hierarchy = "period"

    @admin.display(description=_("rating before"), ordering="rating_before")
    def rating_before_display(self, obj):
        return f"{obj.rating_before:.1f}"

    @admin.display(description=_("rating after"), ordering="rating_after")
    def rating_after_display(self, obj):
        return f"{obj.rating_after:.1f}"

    @admin.display(description=pgettext_lazy("rating change", "Change"))
    def change_display(self, obj):
        return f"{obj.change:+.1f}"


@admin.register(RatingGameLine)
class RatingGameLineAdmin(RatingReadOnlyAdmin):
    list_display = ("player", "tournament", "opponent", "opponent_rating_display", "score", "margin",
                    "result_score_display", "expected_display", "delta_display")
    list_select_related = ("change__player", "change__event__tournament", "opponent")
    list_filter = ("score",)
    search_fields = ("change__player__last_name", "change__player__first_name", "change__player__federation_id",
                     "opponent__last_name", "opponent__first_name", "change__event__tournament__name")

    @admin.display(description=_("player"), ordering="change__player")
    def player(self, obj):
        return obj.change.player

    @admin.display(description=_("tournament"), ordering="change__event__tournament__name")
    def tournament(self, obj):
        return obj.change.event.tournament

    @admin.display(description=_("Rating"), ordering="opponent_rating")
    def opponent_rating_display(self, obj):
        return f"{obj.opponent_rating:.1f}"

    @admin.display(description="result score", ordering="result_score")
    def result_score_display(self, obj):
        return f"{obj.result_score:.3f}"

    @admin.display(description=_("Expected"), ordering="expected")
    def expected_display(self, obj):
        return f"{obj.expected:.3f}"

    @admin.display(description="Δ", ordering="delta")
    def delta_display(self, obj):
        return f"{obj.delta:+.2f}"


@admin.register(InitialRating)
class InitialRatingAdmin(RatingReadOnlyAdmin):
    list_display = ("player", "rating", "captured_at")
    list_select_related = ("player",)
    search_fields = ("player__last_name", "player__first_name", "player__federation_id")
