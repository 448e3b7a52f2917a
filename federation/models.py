"""Members of the federation: clubs and players. Roles are Django groups (see ``federation.roles``)."""
from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models.functions import Lower, Upper
from django.utils.translation import gettext_lazy as _

from federation.audit import history
from federation.collation import player_sort_text, search_fold
from federation.validators import no_control_characters


def _search_key_field() -> models.TextField:
    """A stored search key: :func:`federation.collation.search_fold` of a name, kept in step by ``save``."""
    return models.TextField(editable=False, blank=True, default="")


class SortKeyField(models.TextField):
    """Text compared by code point: collation "C" on PostgreSQL (whatever the database's locale), SQLite's
    default BINARY elsewhere. For keys such as :func:`federation.collation.player_sort_text` whose plain
    character order is the order wanted."""

    def db_parameters(self, connection):
        params = super().db_parameters(connection)
        if connection.vendor == "postgresql":
            params["collation"] = "C"
        return params


class SearchKeysMixin:
    """Keeps the model's folded search keys (:data:`SEARCH_KEYS`: key field → function of the row) in
    step on every ``save``; a save limited to ``update_fields`` that names a source field writes the keys
    too. ``QuerySet.update`` and ``bulk_create`` bypass ``save``: call :meth:`refresh_search_keys` first."""

    SEARCH_KEYS: dict = {}
    #: key field → function of the row giving the stored text as is (not folded), e.g. a sort key
    SORT_KEYS: dict = {}
    SEARCH_KEY_SOURCES: frozenset = frozenset()

    def refresh_search_keys(self) -> None:
        for key, of in self.SEARCH_KEYS.items():
            setattr(self, key, search_fold(of(self)))
        for key, of in self.SORT_KEYS.items():
            setattr(self, key, of(self))

    def save(self, *args, **kwargs):
        self.refresh_search_keys()
        update_fields = kwargs.get("update_fields")
        if update_fields is not None and self.SEARCH_KEY_SOURCES & set(update_fields):
            keys = [*self.SEARCH_KEYS, *self.SORT_KEYS]
            kwargs["update_fields"] = [*update_fields, *(k for k in keys if k not in update_fields)]
        super().save(*args, **kwargs)


class Club(SearchKeysMixin, models.Model):
    """A member club, e.g. "Ankara Mangala Kulübü" in city "Ankara". ``search_key``, ``short_key`` and
    ``city_key`` are the folded name, short name and city (:func:`federation.collation.search_fold`)."""

    name = models.CharField(_("name"), max_length=120, validators=[no_control_characters], unique=True)
    short_name = models.CharField(_("short name"), max_length=12, validators=[no_control_characters], blank=True)
    city = models.CharField(_("city"), max_length=60, validators=[no_control_characters], blank=True)
    active = models.BooleanField(
        _("active"), default=True, help_text=_("A deactivated club is kept for history but offered no more."),
    )
    search_key = _search_key_field()
    short_key = _search_key_field()
    city_key = _search_key_field()

    SEARCH_KEYS = {
        "search_key": lambda c: c.name, "short_key": lambda c: c.short_name, "city_key": lambda c: c.city,
    }
    SEARCH_KEY_SOURCES = frozenset({"name", "short_name", "city"})

    history = history(excluded_fields=["search_key", "short_key", "city_key"])

    class Meta:
        ordering = ["name"]
        verbose_name = _("club")
        verbose_name_plural = _("clubs")

    def __str__(self) -> str:
        return self.name


class Player(SearchKeysMixin, models.Model):
    """A registered player. ``federation_id`` is unique across the federation.

    ``rating`` is the current national rating in rating points (0 = unrated). ``search_key`` is
    "first last" and ``city_key`` the city, folded for search (:func:`federation.collation.search_fold`).
    ``sort_key`` is the Turkish name order (last name, first name, federation id) as text
    (:func:`federation.collation.player_sort_text`): ``order_by("sort_key")`` sorts in the database
    exactly as ``sorted(players, key=player_sort_key)``.

    On PostgreSQL, migration ``federation.0006`` adds trigram indexes (``pg_trgm``, GIN) on
    ``search_key`` and ``city_key`` for the ``contains`` searches; they are not in ``Meta.indexes``
    (SQLite has no GIN), so the model state does not list them.
    """

    class Sex(models.TextChoices):
        MALE = "m", _("male")
        FEMALE = "f", _("female")

    federation_id = models.CharField(_("federation id"), max_length=20, unique=True)
    first_name = models.CharField(_("first name"), max_length=60, validators=[no_control_characters])
    last_name = models.CharField(_("last name"), max_length=60, validators=[no_control_characters])
    sex = models.CharField(_("sex"), max_length=1, choices=Sex.choices, blank=True)
    birth_year = models.PositiveSmallIntegerField(_("birth year"), null=True, blank=True)
    club = models.ForeignKey(
        Club, verbose_name=_("club"), null=True, blank=True, on_delete=models.SET_NULL, related_name="players"
    )
    city = models.CharField(_("city"), max_length=60, validators=[no_control_characters], blank=True)
    rating = models.PositiveSmallIntegerField(_("rating"), default=0)
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="player"
    )
    active = models.BooleanField(
        _("active"), default=True, help_text=_("A deactivated player is kept with their results but offered no more."),
    )
    merged_into = models.ForeignKey(
        "self", verbose_name=_("merged into"), null=True, blank=True, on_delete=models.PROTECT,
        related_name="merged_records",
        help_text=_("This record was the same person as that player; its id redirects there."),
    )

    search_key = _search_key_field()
    city_key = _search_key_field()
    sort_key = SortKeyField(editable=False, blank=True, default="")

    SEARCH_KEYS = {"search_key": lambda p: f"{p.first_name} {p.last_name}", "city_key": lambda p: p.city}
    SORT_KEYS = {"sort_key": lambda p: player_sort_text(p.last_name, p.first_name, p.federation_id)}
    SEARCH_KEY_SOURCES = frozenset({"first_name", "last_name", "city", "federation_id"})

    history = history(excluded_fields=["rating", "search_key", "city_key", "sort_key"])

    class Meta:
        ordering = ["last_name", "first_name"]
        verbose_name = _("player")
        verbose_name_plural = _("players")
        indexes = [
            models.Index(Lower("last_name"), name="player_last_name_ci"),
            models.Index(fields=["sort_key"], name="player_sort_key"),  # the player list, by name
            models.Index(fields=["-rating", "sort_key"], name="player_rating_order"),  # the rating list
            models.Index(Upper("federation_id"), name="player_federation_id_ci"),  # search: federation_id__iexact
        ]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(birth_year__isnull=True) | models.Q(birth_year__gte=1900, birth_year__lte=2100),
                name="player_birth_year_range",
            ),
            models.CheckConstraint(condition=models.Q(rating__lte=4000), name="player_rating_range"),
            models.CheckConstraint(
                condition=models.Q(merged_into__isnull=True) | ~models.Q(merged_into=models.F("pk")),
                name="player_not_merged_into_self",
            ),
        ]

    def __str__(self) -> str:
        return self.full_name

    @property
    def full_name(self) -> str:
        """"Last, First" as on pairing lists and in TRF files."""
        if self.first_name:
            return f"{self.last_name}, {self.first_name}"
        return self.last_name


class DataVersion(models.Model):
    """A counter per kind of data that cached pages show across tournaments (``members``: players and
    clubs; ``ratings``: rating runs), bumped (``value = value + 1``) after every transaction that
    changes that data (:mod:`federation.versions`). The rating list's cached copies are keyed on them."""

    name = models.CharField(max_length=40, primary_key=True)
    value = models.PositiveBigIntegerField(default=0)

    class Meta:
        verbose_name = _("data version")
        verbose_name_plural = _("data versions")

    def __str__(self) -> str:
        return f"{self.name} v{self.value}"
