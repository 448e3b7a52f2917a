"""The Django admin of tournaments: events, roles, entries, rounds, byes requested ahead, and — view
only — the coin tosses, matches, sets and pairing changes.

Results, pairings and coin tosses are written by ``tournaments.services`` (which check the rules and
record who and why); the admin shows them and their history but does not edit them. What the system
records (creation, publication and closing times, who entered a result, versions) is read-only.

An edit or deletion made here bumps the tournament's ``version`` (as ``services.tournament_touch``
does), so cached outputs keyed on it — the crosstable PDFs — are built again.
"""
from __future__ import annotations

from django import forms
from django.contrib import admin
from django.db.models import Count
from django.utils.translation import gettext_lazy as _

from federation.admin import ReadOnlyAdminMixin, TurkishSearchAdmin, TurkishSearchHistoryAdmin
from tournaments.models import (
    Absence, CoinToss, Entry, Lot, ForbiddenPair, Match, PairingChange, Round, SetResult, Tournament, TournamentRole,
    TrfImport,
)
from tournaments.models import Category, Event, EventRegistration, Prize, Team, TeamMatch, TeamMember


def touch_tournaments(ids) -> None:
    """Bump the versions of the tournaments ``ids`` (:func:`tournaments.services.tournaments_touch`)."""
    from tournaments.services import tournaments_touch

    tournaments_touch(ids)


class TouchesTournamentMixin:
    """Every save or delete through this admin bumps the version of the tournament the row is part of.

    ``tournament_id_path`` is the ``values_list`` path from the model to the tournament id.
    """

    tournament_id_path = "tournament_id"

    def _tournament_ids(self, queryset) -> set:
        return set(queryset.values_list(self.tournament_id_path, flat=True))

    def save_model(self, request, obj, form, change):
        super().save_model(request, obj, form, change)
        touch_tournaments(self._tournament_ids(type(obj)._default_manager.filter(pk=obj.pk)))

    def delete_model(self, request, obj):
        ids = self._tournament_ids(type(obj)._default_manager.filter(pk=obj.pk))
        super().delete_model(request, obj)
        touch_tournaments(ids)

    def delete_queryset(self, request, queryset):
        ids = self._tournament_ids(queryset)
        super().delete_queryset(request, queryset)
        touch_tournaments(ids)


def _points(value) -> str:
    if value is None:
        return "–"
    return {"0.5": "½", "1.0": "1", "0.0": "0", "1": "1", "0": "0"}.get(str(value), str(value))


# --------------------------------------------------------------------------------------------
# Tournaments, roles, entries
# --------------------------------------------------------------------------------------------


@admin.register(Tournament)
class TournamentAdmin(TurkishSearchHistoryAdmin):
    list_display = (
        "name", "start_date", "end_date", "city", "system", "status", "rounds_total", "entry_count",
        "standings_published_at", "archived_at",
    )
    list_filter = (
        "status", "system", "variant", ("archived_at", admin.EmptyFieldListFilter),
        ("standings_published_at", admin.EmptyFieldListFilter), "imported_from_trf",
    )
    list_select_related = ("created_by",)
    search_fields = ("name", "slug", "city", "venue")
    date_hierarchy = "start_date"
    readonly_fields = (
        "status", "created_at", "created_by", "version", "imported_from_trf", "standings_published_at",
        "standings_round", "archived_at",
    )
    #: fixed once round 1 is paired: they decide pairings and scores (change them through the product)
    STRUCTURAL = ("system", "rounds_total", "double_round_robin", "second_cycle_swap", "sets_per_match", "variant",
                  "tiebreaks", "bye_points", "acceleration")

    fieldsets = (
        (None, {"fields": ("name", "slug", "status", "start_date", "end_date", "venue", "city", "chief_arbiter",
                           "time_control")}),
        (None, {"fields": ("system", "rounds_total", "double_round_robin", "second_cycle_swap", "sets_per_match",
                           "variant", "acceleration", "tiebreaks", "tiebreak_rules", "bye_points")}),
        (None, {"fields": ("standings_published_at", "standings_round", "archived_at", "imported_from_trf",
                           "created_at", "created_by", "version")}),
        (_("Section of an event"), {"fields": ("event", "section_birth_year_min", "section_birth_year_max",
                                               "section_sex")}),
    )

    def get_queryset(self, request):
        return super().get_queryset(request).annotate(_entry_count=Count("entries"))

    @admin.display(description=_("entries"), ordering="_entry_count")
    def entry_count(self, obj):
        return obj._entry_count

    def get_prepopulated_fields(self, request, obj=None):
        return {"slug": ("name",)} if obj is None else {}

    def get_readonly_fields(self, request, obj=None):
        fields = tuple(super().get_readonly_fields(request, obj))
        if obj is None:
            return fields
        fields += ("slug",)  # pages and files link to the slug
        if obj.rounds.exists():
            fields += self.STRUCTURAL
        return fields

    def save_model(self, request, obj, form, change):
        if not change and obj.created_by_id is None:
            obj.created_by = request.user
        super().save_model(request, obj, form, change)
        if change:
            touch_tournaments([obj.pk])

    def has_delete_permission(self, request, obj=None):
        # a rated tournament is archived, not deleted (tournaments.services.tournament_delete re-rates)
        if obj is not None and hasattr(obj, "rating_event"):
            return False
        return super().has_delete_permission(request, obj)

    def get_actions(self, request):
        actions = super().get_actions(request)
        actions.pop("delete_selected", None)  # would delete rated tournaments too
        return actions


@admin.register(TournamentRole)
class TournamentRoleAdmin(TurkishSearchHistoryAdmin):
    list_display = ("tournament", "user", "role")
    list_filter = ("role",)
    list_select_related = ("tournament", "user")
    search_fields = ("tournament__name", "user__username", "user__first_name", "user__last_name")
    autocomplete_fields = ("tournament", "user")


@admin.register(Entry)
class EntryAdmin(TouchesTournamentMixin, TurkishSearchHistoryAdmin):
    list_display = ("tournament", "start_no", "player", "rating", "withdrawn", "withdrawn_after_round")
    list_display_links = ("start_no", "player")
    list_filter = ("withdrawn", "tournament")
    list_select_related = ("tournament", "player")
    search_fields = (
        "player__last_name", "player__first_name", "player__federation_id", "tournament__name", "tournament__slug",
    )
    autocomplete_fields = ("tournament", "player")
    # starting numbers and withdrawals decide pairings: the product's entries page and withdraw/undo do them
    readonly_fields = ("withdrawn", "withdrawn_after_round")

    def get_queryset(self, request):
        # the entry's name is its player's: also for the autocomplete of Absence.entry
        return super().get_queryset(request).select_related("tournament", "player")

    def get_readonly_fields(self, request, obj=None):
        fields = tuple(super().get_readonly_fields(request, obj))
        return fields + ("tournament",) if obj is not None else fields


# --------------------------------------------------------------------------------------------
# Rounds and what the services record in them
# --------------------------------------------------------------------------------------------


@admin.register(Round)
class RoundAdmin(ReadOnlyAdminMixin, TouchesTournamentMixin, TurkishSearchHistoryAdmin):
    """View only: pairing, publishing, closing, reopening and deleting a round go through the product,
    which checks the rules (a round closed here without results was once published as final)."""

    list_display = (
        "tournament", "number", "status", "match_count", "modified_by_hand", "paired_at", "published_at", "closed_at",
    )
    list_display_links = ("tournament", "number")
    list_filter = ("status", "modified_by_hand")
    list_select_related = ("tournament",)
    search_fields = ("tournament__name", "tournament__slug")
    autocomplete_fields = ("tournament",)
    readonly_fields = ("paired_at", "published_at", "closed_at", "modified_by_hand")

    def get_queryset(self, request):
        return super().get_queryset(request).annotate(_match_count=Count("matches"))

    @admin.display(description=_("Board"), ordering="_match_count")
    def match_count(self, obj):
        return obj._match_count

    def get_readonly_fields(self, request, obj=None):
        fields = tuple(super().get_readonly_fields(request, obj))
        return ("tournament", "number") + fields if obj is not None else fields

    def has_delete_permission(self, request, obj=None):
        # a round with results is undone through the product (round reopen), never deleted here
        if obj is not None and obj.matches.filter(white_points__isnull=False, kind=Match.Kind.GAME).exists():
            return False
        return super().has_delete_permission(request, obj)

    def get_actions(self, request):
        actions = super().get_actions(request)
        actions.pop("delete_selected", None)
        return actions


@admin.register(CoinToss)
class CoinTossAdmin(ReadOnlyAdminMixin, TurkishSearchAdmin):
    """The recorded coin toss of round 1: a record, never edited."""

    list_display = ("round", "outcome", "seed", "tossed_at", "tossed_by")
    list_filter = ("outcome",)
    list_select_related = ("round__tournament", "tossed_by")
    search_fields = ("round__tournament__name", "seed")


@admin.register(Lot)
class LotAdmin(ReadOnlyAdminMixin, TurkishSearchAdmin):
    """A drawing of lots: a record, never edited; its secret stays hidden until the lot is drawn (the
    lots page shows it then)."""

    list_display = ("tournament", "purpose", "context", "commitment", "committed_at", "revealed_at")
    list_filter = ("purpose",)
    list_select_related = ("tournament",)
    search_fields = ("tournament__name", "context", "commitment")
    exclude = ("secret",)


class SetResultInline(ReadOnlyAdminMixin, admin.TabularInline):
    model = SetResult
    fields = ("number", "starter", "white_stones", "black_stones", "termination", "white_store", "black_store")
    readonly_fields = fields
    extra = 0
    can_delete = False
    show_change_link = True


@admin.register(Match)
class MatchAdmin(ReadOnlyAdminMixin, TurkishSearchHistoryAdmin):
    """Boards and results, view only: results are entered and corrected in the product (rules checked,
    reason recorded)."""

    list_display = (
        "tournament", "round_number", "board", "white", "result", "black", "kind", "forfeit", "rated",
        "result_entered_at", "result_entered_by",
    )
    list_display_links = ("tournament", "round_number", "board")
    list_filter = ("kind", "forfeit", "bye_kind", "rated", "round__status", "round__tournament")
    list_select_related = ("round__tournament", "white__player", "black__player", "result_entered_by")
    search_fields = (
        "round__tournament__name", "white__player__last_name", "white__player__first_name",
        "white__player__federation_id", "black__player__last_name", "black__player__first_name",
        "black__player__federation_id",
    )
    inlines = (SetResultInline,)

    @admin.display(description=_("Tournament"), ordering="round__tournament__name")
    def tournament(self, obj):
        return obj.round.tournament

    @admin.display(description=_("Round"), ordering="round__number")
    def round_number(self, obj):
        return obj.round.number

    @admin.display(description=_("Result"))
    def result(self, obj):
        if obj.kind == Match.Kind.BYE:
            return f"{_points(obj.white_points)} ({obj.get_bye_kind_display()})"
        return f"{_points(obj.white_points)} – {_points(obj.black_points)}"


@admin.register(SetResult)
class SetResultAdmin(ReadOnlyAdminMixin, TurkishSearchHistoryAdmin):
    """The sets of a match, view only (with their move records)."""

    list_display = (
        "match", "tournament", "round_number", "number", "starter", "white_stones", "black_stones", "termination",
        "has_record",
    )
    list_filter = ("termination", "starter", "match__round__status")
    list_select_related = ("match__round__tournament", "match__white__player", "match__black__player")
    search_fields = (
        "match__round__tournament__name", "match__white__player__last_name", "match__white__player__first_name",
        "match__black__player__last_name", "match__black__player__first_name",
    )

    @admin.display(description=_("Tournament"), ordering="match__round__tournament__name")
    def tournament(self, obj):
        return obj.match.round.tournament

    @admin.display(description=_("Round"), ordering="match__round__number")
    def round_number(self, obj):
        return obj.match.round.number

    @admin.display(description=_("Record"), boolean=True)
    def has_record(self, obj):
        return bool(obj.moves)


@admin.register(Absence)
class AbsenceAdmin(TouchesTournamentMixin, TurkishSearchHistoryAdmin):
    tournament_id_path = "entry__tournament_id"
    list_display = ("entry", "tournament", "round_number", "kind", "created_at", "created_by")
    list_filter = ("kind",)
    list_select_related = ("entry__player", "entry__tournament", "created_by")
    search_fields = ("entry__player__last_name", "entry__player__first_name", "entry__tournament__name")
    autocomplete_fields = ("entry",)
    readonly_fields = ("created_at", "created_by")

    @admin.display(description=_("Tournament"), ordering="entry__tournament__name")
    def tournament(self, obj):
        return obj.entry.tournament

    def save_model(self, request, obj, form, change):
        if not change and obj.created_by_id is None:
            obj.created_by = request.user
        super().save_model(request, obj, form, change)


class ForbiddenPairAdminForm(forms.ModelForm):
    """The two entries in either order (stored with the lower id first), of the chosen tournament."""

    class Meta:
        model = ForbiddenPair
        fields = ("tournament", "first", "second", "first_round", "last_round", "reason")

    def clean(self):
        data = super().clean()
        t, a, b = data.get("tournament"), data.get("first"), data.get("second")
        if a is not None and b is not None:
            if a.pk == b.pk:
                self.add_error("second", _("Choose two different players."))
            elif t is not None and (a.tournament_id != t.pk or b.tournament_id != t.pk):
                self.add_error("second", _("Choose a player of this tournament."))
            elif a.pk > b.pk:
                data["first"], data["second"] = b, a  # before the model's constraints are checked
        return data


@admin.register(ForbiddenPair)
class ForbiddenPairAdmin(TouchesTournamentMixin, TurkishSearchHistoryAdmin):
    """Players who must not be paired with each other (the organiser's page checks the rounds already
    paired; here staff may correct any row)."""

    form = ForbiddenPairAdminForm
    list_display = ("tournament", "first", "second", "first_round", "last_round", "reason", "created_by")
    list_select_related = ("tournament", "first__player", "second__player", "created_by")
    search_fields = ("tournament__name", "first__player__last_name", "first__player__first_name",
                     "second__player__last_name", "second__player__first_name", "reason")
    autocomplete_fields = ("tournament", "first", "second")
    readonly_fields = ("created_at", "created_by")

    def save_model(self, request, obj, form, change):
        if not change and obj.created_by_id is None:
            obj.created_by = request.user
        super().save_model(request, obj, form, change)


@admin.register(PairingChange)
class PairingChangeAdmin(ReadOnlyAdminMixin, TurkishSearchAdmin):
    """A hand change of a pairing: a record, never edited."""

    list_display = ("round", "at", "user", "short_reason")
    list_select_related = ("round__tournament", "user")
    search_fields = ("reason", "round__tournament__name")
    date_hierarchy = "at"

    @admin.display(description=_("Reason"))
    def short_reason(self, obj):
        return obj.reason if len(obj.reason) <= 80 else obj.reason[:79] + "…"


@admin.register(TrfImport)
class TrfImportAdmin(TurkishSearchAdmin):
    """TRF files imported by a job (``tournaments.import_trf``): view only; a finished one may be deleted
    (its tournament stays)."""

    list_display = ("id", "created_at", "created_by", "source", "status", "progress", "players", "cells",
                    "tournament", "finished_at")
    list_display_links = ("id", "created_at")
    list_filter = ("status",)
    list_select_related = ("created_by", "tournament")
    search_fields = ("source", "name", "created_by__username", "error")
    date_hierarchy = "created_at"
    exclude = ("data",)

    def has_add_permission(self, request):
        return False  # started from the import page or the API, which queue its task

    def has_change_permission(self, request, obj=None):
        return False  # the task records the progress

    def has_delete_permission(self, request, obj=None):
        if obj is not None and obj.is_active:
            return False  # still running
        return super().has_delete_permission(request, obj)


# --------------------------------------------------------------------------------------------
# Multi-section events (issue 14)
# --------------------------------------------------------------------------------------------


@admin.register(Event)
class EventAdmin(TurkishSearchHistoryAdmin):
    """Events and their sections (each a tournament: ``Tournament.event``); the product's event pages
    add sections and keep the registration list (``tournaments.events.services``)."""

    list_display = ("name", "start_date", "end_date", "city", "reference_date", "section_count")
    list_select_related = ("created_by",)
    search_fields = ("name", "slug", "city", "venue")
    date_hierarchy = "start_date"
    readonly_fields = ("created_at", "created_by")

    def get_queryset(self, request):
        return super().get_queryset(request).annotate(_section_count=Count("sections"))

    @admin.display(description=_("sections"), ordering="_section_count")
    def section_count(self, obj):
        return obj._section_count

    def get_prepopulated_fields(self, request, obj=None):
        return {"slug": ("name",)} if obj is None else {}

    def save_model(self, request, obj, form, change):
        if not change and obj.created_by_id is None:
            obj.created_by = request.user
        super().save_model(request, obj, form, change)


@admin.register(EventRegistration)
class EventRegistrationAdmin(TurkishSearchHistoryAdmin):
    """The registration lists: who is in which section, placed by the rule or by the organiser
    (``override``, ``note``). The product's registration page moves players with a reason and makes
    the sections' entries."""

    list_display = ("event", "player", "section", "override", "note", "created_at")
    list_filter = ("override", "event")
    list_select_related = ("event", "player", "section")
    search_fields = ("player__last_name", "player__first_name", "player__federation_id", "event__name",
                     "section__name")
    autocomplete_fields = ("event", "player", "section")
    readonly_fields = ("created_at",)


# --------------------------------------------------------------------------------------------
# Category rankings and prize lists (issue 14)
# --------------------------------------------------------------------------------------------


@admin.register(Category)
class CategoryAdmin(TouchesTournamentMixin, TurkishSearchHistoryAdmin):
    """A tournament's category rankings (age groups, girls, unrated, rating band, club, city); organisers
    keep them on the tournament's "Categories and prizes" page (``tournaments.prizes.services``, which
    checks the fields of each kind). An edit here bumps the tournament's version like every admin edit."""

    list_display = ("tournament", "code", "name", "kind", "max_age", "min_age", "rating_min", "rating_max", "club",
                    "city", "order")
    list_filter = ("kind",)
    list_select_related = ("tournament", "club")
    search_fields = ("code", "name", "tournament__name", "city")
    autocomplete_fields = ("tournament", "club")


@admin.register(Prize)
class PrizeAdmin(TouchesTournamentMixin, TurkishSearchHistoryAdmin):
    """A tournament's prize list (overall or of a category); who wins which is computed, not stored
    (``tournaments.standings.prizes``)."""

    list_display = ("tournament", "category", "place", "label", "value")
    list_select_related = ("tournament", "category")
    search_fields = ("label", "tournament__name", "category__code", "category__name")
    autocomplete_fields = ("tournament", "category")


# --------------------------------------------------------------------------------------------
# Team championships (issue 14)
# --------------------------------------------------------------------------------------------


class TeamMemberInline(admin.TabularInline):
    model = TeamMember
    extra = 0
    autocomplete_fields = ("entry",)


@admin.register(Team)
class TeamAdmin(TouchesTournamentMixin, TurkishSearchHistoryAdmin):
    """Teams of a team championship with their board order (members inline); organisers keep them on the
    team pages (``tournaments.teams.services``), which check the board order and reserves."""

    list_display = ("tournament", "seed_no", "name", "short_name", "club", "withdrawn")
    list_display_links = ("seed_no", "name")
    list_filter = ("withdrawn",)
    list_select_related = ("tournament", "club")
    search_fields = ("name", "short_name", "tournament__name", "club__name")
    autocomplete_fields = ("tournament", "club")
    inlines = [TeamMemberInline]


@admin.register(TeamMember)
class TeamMemberAdmin(TouchesTournamentMixin, TurkishSearchHistoryAdmin):
    """A team's players with their board numbers and reserves."""

    tournament_id_path = "team__tournament_id"
    list_display = ("team", "board", "entry", "reserve")
    list_filter = ("reserve",)
    list_select_related = ("team", "entry__player")
    search_fields = ("team__name", "entry__player__last_name", "entry__player__first_name")
    autocomplete_fields = ("team", "entry")


@admin.register(TeamMatch)
class TeamMatchAdmin(ReadOnlyAdminMixin, TurkishSearchHistoryAdmin):
    """View only: team matches are made by pairing a round (``tournaments.teams.services``); their boards are the
    round's matches and their result follows from the board results."""

    list_display = ("round", "number", "white_team", "black_team")
    list_select_related = ("round__tournament", "white_team", "black_team")
    search_fields = ("white_team__name", "black_team__name", "round__tournament__name")
