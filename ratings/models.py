"""Stored national-rating runs: one :class:`RatingEvent` per rated tournament, one :class:`RatingChange` per
player and event, one :class:`RatingGameLine` per rated set (the lines of a player's rating card).

Thin models; the numbers come from the pure engine (:mod:`ratings.engine`, docs/ratings.md) through
:mod:`ratings.services`, which rewrites these rows and ``Player.rating`` (the current rating, rounded).
Ratings are stored unrounded (rating points, floats) so that a page, the API and a re-run agree to 0.01.
"""
from __future__ import annotations

from decimal import Decimal

from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from federation.models import Player
from tournaments.models import SetResult, Tournament

STATUS_CHOICES = [
    ("unrated", _("unrated")),
    ("provisional", _("provisional")),
    ("established", _("established")),
]


class InitialRating(models.Model):
    """The rating a player had when the national rating first saw them (``Player.rating`` at that
    moment; 0 = unrated). Every full re-rating starts from it, so re-running never feeds a computed
    rating back in as a starting value. A non-zero value is treated as an established rating."""

    player = models.OneToOneField(
        Player, on_delete=models.CASCADE, primary_key=True, related_name="initial_rating", verbose_name=_("player")
    )
    rating = models.PositiveSmallIntegerField(_("initial rating"), default=0)
    captured_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("initial rating")
        verbose_name_plural = _("initial ratings")
        constraints = [models.CheckConstraint(condition=Q(rating__lte=4000), name="initial_rating_range")]

    def __str__(self) -> str:
        return f"{self.player}: {self.rating}"


class RatingEvent(models.Model):
    """One rated tournament = one rating period (FIDE B.02 §7): every set is rated against the ratings
    at the start of the event. ``period`` is the date the event is rated on (the tournament's end date,
    else its start date, else the day it was created); events are rated in (``period``, tournament id)
    order.

    The counts say what was *not* rated: forfeits and byes are never rated; ``unrated_matches`` were
    marked unrated (``Match.rated`` false); ``matches_without_sets`` have a result but no set detail
    (e.g. imported from TRF), so they give no rated set.
    """

    tournament = models.OneToOneField(
        Tournament, on_delete=models.CASCADE, related_name="rating_event", verbose_name=_("tournament")
    )
    period = models.DateField(_("rating period"))
    rated_at = models.DateTimeField(_("rated at"))
    system = models.CharField(max_length=16, default="margin")
    rated_sets = models.PositiveIntegerField(_("rated sets"), default=0)
    players = models.PositiveIntegerField(_("rated players"), default=0)
    forfeits = models.PositiveIntegerField(_("forfeits"), default=0)
    byes = models.PositiveIntegerField(_("byes"), default=0)
    unrated_matches = models.PositiveIntegerField(_("unrated matches"), default=0)
    matches_without_sets = models.PositiveIntegerField(_("matches without set detail"), default=0)

    class Meta:
        ordering = ["period", "tournament_id"]
        verbose_name = _("rating event")
        verbose_name_plural = _("rating events")
        indexes = [models.Index(fields=["period", "tournament"], name="rating_event_order")]

    def __str__(self) -> str:
        return f"{self.tournament} ({self.period})"


class RatingChange(models.Model):
    """A player's rating record for one event: rating before and after (rating points, unrounded),
    rated ``sets`` played in the event, status before and after. ``period`` repeats the event's period
    so a player's history is read from one index."""

    event = models.ForeignKey(RatingEvent, on_delete=models.CASCADE, related_name="changes")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="rating_changes")
    period = models.DateField(_("rating period"))
    rating_before = models.FloatField(_("rating before"))
    rating_after = models.FloatField(_("rating after"))
    status_before = models.CharField(max_length=12, choices=STATUS_CHOICES)
    status_after = models.CharField(max_length=12, choices=STATUS_CHOICES)
    sets = models.PositiveSmallIntegerField(_("rated sets"), default=0)

    class Meta:
        ordering = ["period", "event_id"]
        verbose_name = _("rating change")
        verbose_name_plural = _("rating changes")
        constraints = [
            models.UniqueConstraint(fields=["event", "player"], name="rating_change_unique_player"),
            models.CheckConstraint(
                condition=Q(rating_before__gte=-1000, rating_before__lte=5000, rating_after__gte=-1000, rating_after__lte=5000),
                name="rating_change_range",
            ),
            models.CheckConstraint(
                condition=Q(status_before__in=["unrated", "provisional", "established"])
                & Q(status_after__in=["unrated", "provisional", "established"]),
                name="rating_change_status_values",
            ),
        ]
        indexes = [models.Index(fields=["player", "period", "event"], name="rating_change_history")]

    def __str__(self) -> str:
        return f"{self.player}: {self.rating_before:.1f} → {self.rating_after:.1f}"

    @property
    def change(self) -> float:
        return self.rating_after - self.rating_before

    @property
    def provisional(self) -> bool:
        return self.status_after != "established"


class RatingGameLine(models.Model):
    """One rated set seen from the player of ``change`` (a line of the rating card).

    ``score`` is the set result 1 / 0.5 / 0; ``result_score`` the margin-blended score the system uses
    (docs/ratings.md); ``margin`` the player's own stone margin (Kural 14.4, -24..24; +-1 for a winner's
    withdrawal); ``expected`` the expected score from the ratings at the start of the event; ``delta`` this
    set's share of the change in rating points (0 while the player is unrated).
    """

    change = models.ForeignKey(RatingChange, on_delete=models.CASCADE, related_name="lines")
    set_result = models.ForeignKey(SetResult, on_delete=models.CASCADE, related_name="rating_lines")
    opponent = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    opponent_rating = models.FloatField()
    score = models.DecimalField(max_digits=2, decimal_places=1)
    result_score = models.FloatField()
    margin = models.SmallIntegerField()
    expected = models.FloatField()
    delta = models.FloatField()

    class Meta:
        ordering = ["change", "id"]
        constraints = [
            models.UniqueConstraint(fields=["change", "set_result"], name="rating_line_unique_set"),
            models.CheckConstraint(condition=Q(margin__gte=-24, margin__lte=24), name="rating_line_margin_range"),
            models.CheckConstraint(condition=Q(score__in=[Decimal("0"), Decimal("0.5"), Decimal("1")]), name="rating_line_score_values"),
            models.CheckConstraint(condition=Q(expected__gte=0, expected__lte=1), name="rating_line_expected_range"),
        ]

    def __str__(self) -> str:
        return f"{self.change.player} v {self.opponent}: {self.score} ({self.margin:+d})"
