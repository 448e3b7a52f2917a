"""The Django admin of the national rating, view only.

Every row here is written by the rating run (``ratings.services``: a full or partial re-rating
rewrites the events, changes and card lines and ``Player.rating``), so nothing is added, changed or
deleted by hand: change a result or a tournament in the product and the rating runs again.
"""
from __future__ import annotations

from django.contrib import admin
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from federation.admin import ReadOnlyAdminMixin, TurkishSearchAdmin, TurkishSearchHistoryAdmin
from ratings.models import (
    InitialRating,
    RatingChange,
    RatingEvent,
    RatingGameLine,
    RatingList,
    RatingListEntry,
    RatingParameterSet,
)


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


class RatingListEntryInline(admin.TabularInline):
    """A list's lines in list order (view only)."""

    model = RatingListEntry
    fields = ("rank", "name", "federation_id", "club", "city", "rating", "change", "sets", "status", "active",
              "category")
    readonly_fields = fields
    ordering = ("rank", "-rating", "id")
    extra = 0
    can_delete = False
    show_change_link = False

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False


@admin.register(RatingList)
class RatingListAdmin(ReadOnlyAdminMixin, TurkishSearchHistoryAdmin):
    """Official rating lists, view only: published and withdrawn on the product's pages
    (``/ratings/lists/``) or the API, never edited; the history page shows who published and withdrew."""

    list_display = ("published_on", "title", "players", "published_at", "published_by", "withdrawn_at",
                    "withdrawn_reason")
    list_filter = ("published_on",)
    list_select_related = ("published_by", "withdrawn_by")
    search_fields = ("title", "note", "withdrawn_reason")
    date_hierarchy = "published_on"
    inlines = [RatingListEntryInline]


@admin.register(RatingListEntry)
class RatingListEntryAdmin(RatingReadOnlyAdmin):
    list_display = ("rating_list", "rank", "name", "federation_id", "club", "rating", "change", "sets", "status",
                    "active", "category")
    list_filter = ("active", "status", "category")
    list_select_related = ("rating_list",)
    search_fields = ("name", "federation_id", "club", "rating_list__title")


@admin.register(RatingParameterSet)
class RatingParameterSetAdmin(ReadOnlyAdminMixin, TurkishSearchHistoryAdmin):
    """Parameter sets of the federation's rating: created by ``rating_tune --save`` or on the staff page
    ``/ratings/parameters/``, adopted there (a full re-rating follows); view only here."""

    list_display = ("label", "system", "created_at", "created_by", "adopted_at", "adopted_by", "retired_at")
    list_filter = ("system",)
    list_select_related = ("created_by", "adopted_by")
    search_fields = ("label", "adoption_reason")
    date_hierarchy = "created_at"
