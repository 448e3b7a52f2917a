"""Stored national-rating runs: one :class:`RatingEvent` per rated tournament, one :class:`RatingChange` per
player and event, one :class:`RatingGameLine` per rated set (the lines of a player's rating card).

Thin models; the numbers come from the pure engine (:mod:`ratings.engine`, docs/ratings.md) through
:mod:`ratings.services`, which rewrites these rows and ``Player.rating`` (the current rating, rounded).
Ratings are stored unrounded (rating points, floats) so that a page, the API and a re-run agree to 0.01.
"""
from __future__ import annotations

from decimal import Decimal

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from federation.audit import history
from federation.models import Player
from federation.validators import no_control_characters
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

    The three foreign keys have no database constraint (``db_constraint=False``, issue 22): the lines
    are derived rows, written only by :mod:`ratings.services` under its lock from the rows it read in
    the same transaction, and a full re-rating writes two million of them at national scale, where
    PostgreSQL's deferred per-row checks (a ``SELECT … FOR KEY SHARE`` of the set, the player and the
    change for every line, at commit) cost more than the rest of the run. Django's ``on_delete=CASCADE``
    still removes the lines of a deleted set, player or change; ``set_result`` and ``opponent`` keep
    their indexes, and ``change`` is served by the unique ``(change, set_result)`` index.
    """

    change = models.ForeignKey(RatingChange, on_delete=models.CASCADE, related_name="lines", db_constraint=False,
                               db_index=False)
    set_result = models.ForeignKey(SetResult, on_delete=models.CASCADE, related_name="rating_lines",
                                   db_constraint=False)
    opponent = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+", db_constraint=False)
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


class RatingParameterSet(models.Model):
    """A parameter set of the federation's rating system (docs/ratings.md, "Tuning and adoption").

    ``system`` names the engine system (``"margin"`` = the federation's rating, see
    :func:`ratings.parameters.selectors.rating_system`); ``params`` the keyword arguments of its params dataclass
    (JSON object; the engine validates them). ``report`` is what produced the set (``rating_tune``'s
    JSON: held-out log loss, sets, split) or ``{}`` for a set entered by hand. Every value lies in its
    admitted range (``ratings.engine.parameters``). ``rerating_failed_at`` / ``rerating_error``: when and
    why the full re-rating with this set failed (the adoption was then undone, issue 23).

    At most one set is *adopted* at a time (``adopted_at`` not null and ``retired_at`` null); with none,
    the engine's shipped defaults are used. Rows are never deleted: adopting another set retires the
    previous one, so the list of rows with ``adopted_at`` is the history of the federation's parameters
    (who adopted, when, why).
    """

    label = models.CharField(_("label"), max_length=120, validators=[no_control_characters])
    system = models.CharField(_("rating system"), max_length=16, default="margin")
    params = models.JSONField(_("parameters"), default=dict)
    report = models.JSONField(_("tuning report"), default=dict, blank=True)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+",
        verbose_name=_("created by"),
    )
    adopted_at = models.DateTimeField(_("adopted at"), null=True, blank=True)
    adopted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+",
        verbose_name=_("adopted by"),
    )
    adoption_reason = models.TextField(_("reason"), blank=True, default="")
    retired_at = models.DateTimeField(_("retired at"), null=True, blank=True)
    retired_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+",
        verbose_name=_("retired by"),
    )
    rerating_failed_at = models.DateTimeField(_("re-rating failed at"), null=True, blank=True)
    rerating_error = models.TextField(_("why the re-rating failed"), blank=True, default="")
    history = history()  # adoptions and retirements with who, when, why (federation.audit)

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name = _("rating parameter set")
        verbose_name_plural = _("rating parameter sets")
        constraints = [
            models.UniqueConstraint(
                fields=["system"], condition=Q(adopted_at__isnull=False, retired_at__isnull=True),
                name="rating_parameters_one_adopted",
            ),
            models.CheckConstraint(
                condition=Q(retired_at__isnull=True) | Q(adopted_at__isnull=False),
                name="rating_parameters_retired_after_adopted",
            ),
        ]

    def __str__(self) -> str:
        return self.label

    @property
    def in_force(self) -> bool:
        return self.adopted_at is not None and self.retired_at is None

    def clean(self) -> None:
        """Refuse parameters outside their admitted range (:data:`ratings.engine.parameters.PARAMETER_RANGES`)
        wherever a form saves the row (issue 23); the services check them too (``ratings.parameter_checks``)."""
        from django.core.exceptions import ValidationError

        from ratings.parameter_checks import range_refusal

        super().clean()
        refusal = range_refusal(self.params) if isinstance(self.params, dict) else None
        if refusal:
            raise ValidationError({"params": refusal})


class RatingList(models.Model):
    """An official rating list: a frozen snapshot of the national rating at ``published_on``
    (monthly by default), one :class:`RatingListEntry` per listed player.

    A list is never edited; a wrong list is *withdrawn* (with who, when and why) and a new one
    published for the same date. At most one list per date is in force (not withdrawn). The public
    rating page shows the newest list in force.
    """

    published_on = models.DateField(_("list date"))
    title = models.CharField(_("title"), max_length=120, blank=True, default="", validators=[no_control_characters])
    system = models.CharField(_("rating system"), max_length=16, default="margin")
    parameter_set = models.ForeignKey(
        RatingParameterSet, null=True, blank=True, on_delete=models.PROTECT, related_name="lists",
        verbose_name=_("parameter set"),
    )
    published_at = models.DateTimeField(_("published at"), auto_now_add=True)
    published_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+",
        verbose_name=_("published by"),
    )
    note = models.TextField(_("note"), blank=True, default="")
    players = models.PositiveIntegerField(_("players"), default=0)
    withdrawn_at = models.DateTimeField(_("withdrawn at"), null=True, blank=True)
    withdrawn_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+",
        verbose_name=_("withdrawn by"),
    )
    withdrawn_reason = models.TextField(_("reason for withdrawal"), blank=True, default="")

    # the audit trail of publication and withdrawal (federation.audit: action, user, reason); the
    # entries are written once with the list and never change, so they have no history of their own
    history = history()

    class Meta:
        ordering = ["-published_on", "-id"]
        verbose_name = _("official rating list")
        verbose_name_plural = _("official rating lists")
        constraints = [
            models.UniqueConstraint(
                fields=["published_on"], condition=Q(withdrawn_at__isnull=True), name="rating_list_one_per_date"
            ),
        ]

    def __str__(self) -> str:
        return self.title or f"{self.published_on:%Y-%m-%d}"

    @property
    def in_force(self) -> bool:
        return self.withdrawn_at is None

    def get_absolute_url(self) -> str:
        """The list's page (``/ratings/lists/<date>/``; a withdrawn list by its id, as its date may
        have another list in force)."""
        from django.urls import reverse

        url = reverse("rating-list-official", args=[self.published_on])
        return url if self.in_force else f"{url}?id={self.pk}"

    @property
    def file_stem(self) -> str:
        """Base name of the list's downloads: ``derecelendirme-listesi-2026-05-01``."""
        return f"derecelendirme-listesi-{self.published_on:%Y-%m-%d}"


class RatingListEntry(models.Model):
    """One player's line of an official :class:`RatingList`, frozen at publication.

    ``rating`` is the rounded national rating at the list date; ``sets`` rated sets up to that date;
    ``status`` provisional / established; ``active`` whether the player played a rated set in the
    activity window before the list date; ``change`` the difference to the player's rating on the
    previous list in force (None when the player was not on it); ``rank`` the place among the
    listed players in order of rating (None for inactive players, who are listed but not ranked);
    ``category`` the age category code of :data:`federation.privacy.AGE_GROUPS` at the list's year
    (``"open"`` when unknown). Name, club and city are copied so the list reads as published.
    """

    rating_list = models.ForeignKey(RatingList, on_delete=models.CASCADE, related_name="entries")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="rating_list_entries")
    federation_id = models.CharField(_("federation id"), max_length=20)
    name = models.CharField(_("name"), max_length=130)
    club = models.CharField(_("club"), max_length=120, blank=True, default="")
    city = models.CharField(_("city"), max_length=60, blank=True, default="")
    rating = models.PositiveSmallIntegerField(_("rating"))
    sets = models.PositiveIntegerField(_("rated sets"), default=0)
    status = models.CharField(max_length=12, choices=STATUS_CHOICES)
    active = models.BooleanField(_("active"), default=True)
    change = models.SmallIntegerField(_("change"), null=True, blank=True)
    rank = models.PositiveIntegerField(_("rank"), null=True, blank=True)
    category = models.CharField(_("category"), max_length=12, blank=True, default="")

    class Meta:
        ordering = ["rating_list", "rank", "-rating", "name"]
        verbose_name = _("rating list entry")
        verbose_name_plural = _("rating list entries")
        constraints = [
            models.UniqueConstraint(fields=["rating_list", "player"], name="rating_list_entry_unique_player"),
            models.CheckConstraint(condition=Q(rating__lte=4000), name="rating_list_entry_range"),
            models.CheckConstraint(
                condition=Q(status__in=["provisional", "established"]), name="rating_list_entry_status_values"
            ),
        ]
        indexes = [models.Index(fields=["player", "rating_list"], name="rating_list_entry_player")]

    def __str__(self) -> str:
        return f"{self.rating_list}: {self.name} {self.rating}"
