"""Category rankings and the prize list of a tournament (issue 14): :class:`Category` and :class:`Prize`."""
from __future__ import annotations

from decimal import Decimal

from django.db import models
from django.db.models import F, Q
from django.utils.translation import gettext_lazy as _

from federation.audit import history
from federation.validators import no_control_characters

from .tournament import Tournament


class Category(models.Model):
    """A category ranking inside a tournament (issue 14): U8/U10/U12/U14 by birth year, girls, unrated
    players, a rating band, a club, a city. Membership is decided by ``tournaments.standings.categories``;
    ``code`` (unique in the tournament, e.g. ``U12``, ``KIZ``) is what the API's ``?category=`` takes.

    ``kind`` and its fields: ``age`` - ``max_age`` (born in or after year - max_age, the year of the
    tournament's start, else its event's reference year, else the current year) and optional ``min_age``; ``girls`` / ``boys``;
    ``unrated`` (rating 0 at entry); ``rating`` - ``rating_min`` <= entry rating <= ``rating_max``
    (either end open; unrated players only when ``includes_unrated``); ``club``; ``city``.
    """

    class Kind(models.TextChoices):
        AGE = "age", _("age")
        GIRLS = "girls", _("girls / women")
        BOYS = "boys", _("boys / men")
        UNRATED = "unrated", _("unrated")
        RATING = "rating", _("rating band")
        CLUB = "club", _("club")
        CITY = "city", _("city")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="categories")
    code = models.CharField(_("code"), max_length=20, validators=[no_control_characters])
    name = models.CharField(_("name"), max_length=120, validators=[no_control_characters])
    kind = models.CharField(_("kind"), max_length=8, choices=Kind.choices)
    max_age = models.PositiveSmallIntegerField(_("maximum age"), null=True, blank=True)
    min_age = models.PositiveSmallIntegerField(_("minimum age"), null=True, blank=True)
    rating_min = models.PositiveSmallIntegerField(_("lowest rating"), null=True, blank=True)
    rating_max = models.PositiveSmallIntegerField(_("highest rating"), null=True, blank=True)
    club = models.ForeignKey(
        "federation.Club", null=True, blank=True, on_delete=models.PROTECT, related_name="+", verbose_name=_("club")
    )
    city = models.CharField(_("city"), max_length=60, blank=True, default="", validators=[no_control_characters])
    order = models.PositiveSmallIntegerField(_("order"), default=0)
    includes_unrated = models.BooleanField(_("includes unrated players"), default=False)

    history = history()

    class Meta:
        ordering = ["tournament", "order", "code"]
        verbose_name = _("category")
        verbose_name_plural = _("categories")
        constraints = [
            models.UniqueConstraint(fields=["tournament", "code"], name="category_unique_code"),
            models.CheckConstraint(
                condition=Q(rating_min__isnull=True) | Q(rating_max__isnull=True) | Q(rating_max__gte=F("rating_min")),
                name="category_rating_band_ordered",
                violation_error_message=_("The rating band's ends are in the wrong order."),
            ),
        ]

    def __str__(self) -> str:
        return f"{self.code}: {self.name}"


class Prize(models.Model):
    """A prize of a tournament's prize list (issue 14): overall (``category`` null) or of a category,
    for ``place`` (1 = first), described by ``label`` (an amount, a trophy, a medal). ``value`` orders
    the prizes for the rule "a player takes only the most valuable prize they qualify for"
    (``tournaments.standings.prizes``): money amounts, or any points the organiser gives trophies (equal values:
    overall before category, then by place)."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="prizes")
    category = models.ForeignKey(
        Category, null=True, blank=True, on_delete=models.CASCADE, related_name="prizes", verbose_name=_("category")
    )
    place = models.PositiveSmallIntegerField(_("place"))
    label = models.CharField(_("prize"), max_length=120, validators=[no_control_characters])
    value = models.DecimalField(_("value"), max_digits=10, decimal_places=2, default=Decimal("0"))
    #: a cash prize: shared among tied players (``tournaments.standings.prizes``); else indivisible (by lot)
    money = models.BooleanField(_("money prize"), default=False)

    history = history()

    class Meta:
        ordering = ["tournament", "category", "place"]
        verbose_name = _("prize")
        verbose_name_plural = _("prizes")
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "place"], condition=Q(category__isnull=True), name="prize_unique_overall_place"
            ),
            models.UniqueConstraint(
                fields=["tournament", "category", "place"], condition=Q(category__isnull=False),
                name="prize_unique_category_place",
            ),
            models.CheckConstraint(condition=Q(place__gte=1), name="prize_place_positive"),
            models.CheckConstraint(condition=Q(value__gte=0), name="prize_value_not_negative"),
        ]

    def __str__(self) -> str:
        return f"{self.place}. {self.label}"
