"""The Django admin of the federation: clubs and players, and the pieces every app's admin shares.

Shared here (imported by ``tournaments.admin``, ``games.admin`` and ``ratings.admin``):

- :class:`TurkishSearchMixin`: the changelist search (and the autocomplete of foreign keys) also
  matches with Turkish case folding, so "ışık" finds "IŞIK" and "inci" finds "İnci" on SQLite and on
  PostgreSQL, whose ``icontains`` fold case without Turkish rules.
- :class:`ReadOnlyAdminMixin`: view only — for the records the product's services write (results,
  coin tosses, pairing changes, rating runs).

Tracked models (``history = history(...)``, :mod:`federation.audit`) use ``SimpleHistoryAdmin``: a
history page per object, with revert for the models staff may edit. The ``Historical*`` models are
not registered on their own.
"""
from __future__ import annotations

from django.contrib import admin
from django.contrib.admin.utils import lookup_spawns_duplicates
from django.core.exceptions import FieldDoesNotExist
from django.db.models import Count, Q
from django.utils.text import smart_split, unescape_string_literal
from django.utils.translation import gettext_lazy as _
from simple_history.admin import SimpleHistoryAdmin

from federation.collation import search_fold, turkish_case_variants
from federation.models import Club, DataVersion, Player

admin.site.site_header = _("Mangala Federation")
admin.site.site_title = _("Mangala Federation")


def _search_lookup(model, field_name: str) -> str:
    """The ORM lookup of one ``search_fields`` entry, as Django's admin builds it: ``^name`` →
    ``name__istartswith``, ``=name`` → ``name__iexact``, ``@name`` → ``name__search``, a name that
    already ends in a lookup is kept, anything else → ``name__icontains``."""
    if field_name.startswith("^"):
        return f"{field_name[1:]}__istartswith"
    if field_name.startswith("="):
        return f"{field_name[1:]}__iexact"
    if field_name.startswith("@"):
        return f"{field_name[1:]}__search"
    opts = model._meta
    prev_field = None
    for part in field_name.split("__"):
        if part == "pk":
            part = opts.pk.name
        try:
            field = opts.get_field(part)
        except FieldDoesNotExist:
            if prev_field is not None and prev_field.get_lookup(part):
                return field_name
            break
        prev_field = field
        if hasattr(field, "path_infos"):
            opts = field.path_infos[-1].to_opts
    return f"{field_name}__icontains"


class TurkishSearchMixin:
    """Admin search with Turkish case folding.

    Like Django's search (every word of the term must match one of ``search_fields``; a quoted
    phrase is one word), but each word matches as typed *or* in its Turkish lower case, upper case
    or title case (:func:`federation.collation.turkish_case_variants`): ``I``/``ı`` and ``İ``/``i``
    are case pairs, which neither SQLite (ASCII-only ``LIKE``) nor PostgreSQL's ``UPPER`` knows.
    Also used by the autocomplete widgets that point at the model. ``search_key_fields`` names stored
    folded keys (``Player.search_key`` …, :func:`federation.collation.search_fold`) a word may also be
    contained in, folded the same way: "gunes" finds "Güneş", "ISTANBUL" finds "İstanbul".
    """

    search_key_fields: tuple[str, ...] = ()

    def get_search_results(self, request, queryset, search_term):
        search_fields = self.get_search_fields(request)
        if not (search_fields and search_term):
            return super().get_search_results(request, queryset, search_term)
        lookups = [_search_lookup(queryset.model, str(field)) for field in search_fields]
        term_queries = []
        for bit in smart_split(search_term):
            if bit.startswith(('"', "'")) and bit[0] == bit[-1]:
                bit = unescape_string_literal(bit)
            folded = search_fold(bit)
            term_queries.append(
                Q.create(
                    [(lookup, variant) for variant in turkish_case_variants(bit) for lookup in lookups]
                    + [(f"{key}__contains", folded) for key in self.search_key_fields if folded],
                    connector=Q.OR,
                )
            )
        if not term_queries:
            return queryset, False
        queryset = queryset.filter(Q.create(term_queries))
        may_have_duplicates = any(lookup_spawns_duplicates(self.opts, lookup) for lookup in lookups)
        return queryset, may_have_duplicates


class ReadOnlyAdminMixin:
    """View only: no add, no change, no delete (the list and the detail page stay readable)."""

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


class TurkishSearchAdmin(TurkishSearchMixin, admin.ModelAdmin):
    """A plain ``ModelAdmin`` with the Turkish-aware search."""


class TurkishSearchHistoryAdmin(TurkishSearchMixin, SimpleHistoryAdmin):
    """A ``SimpleHistoryAdmin`` (history page with revert) with the Turkish-aware search."""


@admin.register(Club)
class ClubAdmin(TurkishSearchHistoryAdmin):
    list_display = ("name", "short_name", "city", "player_count", "active")
    list_filter = ("active", "city")
    search_fields = ("name", "short_name", "city")
    search_key_fields = ("search_key", "short_key", "city_key")
    ordering = ("name",)

    def get_queryset(self, request):
        return super().get_queryset(request).annotate(_player_count=Count("players"))

    @admin.display(description=_("players"), ordering="_player_count")
    def player_count(self, obj):
        return obj._player_count


@admin.register(Player)
class PlayerAdmin(TurkishSearchHistoryAdmin):
    list_display = (
        "federation_id", "last_name", "first_name", "club", "city", "sex", "birth_year", "rating", "active",
        "merged_into",
    )
    list_display_links = ("federation_id", "last_name")
    list_filter = ("active", "sex", "club", ("merged_into", admin.EmptyFieldListFilter))
    list_select_related = ("club", "merged_into")
    search_fields = ("federation_id", "last_name", "first_name", "city", "club__name")
    search_key_fields = ("search_key", "city_key", "club__search_key")
    autocomplete_fields = ("club", "user")
    # the rating run (ratings.services) owns the rating; a merge records merged_into
    readonly_fields = ("rating", "merged_into")
    fieldsets = (
        (None, {"fields": ("federation_id", "last_name", "first_name", "sex", "birth_year")}),
        (_("club"), {"fields": ("club", "city")}),
        (None, {"fields": ("rating", "user", "active", "merged_into")}),
    )


@admin.register(DataVersion)
class DataVersionAdmin(ReadOnlyAdminMixin, admin.ModelAdmin):
    """The counters the rating list's cache is keyed on (federation.versions): to read, never to set."""

    list_display = ("name", "value")
    search_fields = ("name",)
