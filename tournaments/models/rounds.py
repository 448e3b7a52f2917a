"""Rounds, pairings and results: :class:`Round`, :class:`CoinToss`, :class:`Match`, :class:`SetResult`,
and the pairing's inputs and record: :class:`Absence` (byes asked ahead), :class:`ForbiddenPair` and
:class:`PairingChange`.

Conventions: a match has a *white* entry (starts sets 1, 3, 5 — RULES.md "Match and tournament
scoring") and a *black* entry; a bye has no black. Points are match points 1 / ½ / 0 stored as
decimals with one place.
"""
from __future__ import annotations

from decimal import Decimal

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.utils.translation import gettext_lazy as _

from federation.audit import history
from federation.validators import no_control_characters

from .tournament import Entry, Tournament


class Round(models.Model):
    """A round: draft → paired → published → closed."""

    class Status(models.TextChoices):
        DRAFT = "draft", _("draft")
        PAIRED = "paired", _("paired")
        PUBLISHED = "published", _("published")
        CLOSED = "closed", _("closed")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveSmallIntegerField(_("round"))
    status = models.CharField(_("status"), max_length=10, choices=Status.choices, default=Status.DRAFT)
    paired_at = models.DateTimeField(null=True, blank=True)
    published_at = models.DateTimeField(null=True, blank=True)
    closed_at = models.DateTimeField(null=True, blank=True)
    modified_by_hand = models.BooleanField(_("modified by hand"), default=False)

    history = history()

    class Meta:
        ordering = ["tournament", "number"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="round_unique_number"),
            models.CheckConstraint(condition=Q(number__gte=1), name="round_number_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.tournament} – {self.number}. tur"

    @property
    def is_public(self) -> bool:
        return self.status in (self.Status.PUBLISHED, self.Status.CLOSED)


class CoinToss(models.Model):
    """The recorded coin toss (kura, Kural 5) that gives white on board 1 in round 1.

    ``outcome`` is the colour of the top seed: ``"w"`` or ``"b"``; the other boards alternate
    (FIDE C.04.3 initial colour). ``seed`` reproduces the toss.
    """

    round = models.OneToOneField(Round, on_delete=models.CASCADE, related_name="coin_toss")
    seed = models.CharField(max_length=64)
    outcome = models.CharField(max_length=1, choices=[("w", _("white")), ("b", _("black"))])
    tossed_at = models.DateTimeField()
    tossed_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL)

    class Meta:
        constraints = [models.CheckConstraint(condition=Q(outcome__in=["w", "b"]), name="coin_toss_outcome")]


class Match(models.Model):
    """One board of a round, or a bye.

    ``kind``: ``game`` (white v black) or ``bye`` (white only; ``bye_kind`` says which).
    ``forfeit``: who did not appear (``white``, ``black``, ``both``) — a forfeit is not a played game.
    ``white_points``/``black_points``: match points (1, 0.5, 0); null until the result is entered.
    """

    class Kind(models.TextChoices):
        GAME = "game", _("game")
        BYE = "bye", _("bye")

    class ByeKind(models.TextChoices):
        PAIRING = "pab", _("pairing-allocated bye")
        HALF = "half", _("half-point bye")
        FULL = "full", _("full-point bye")
        ZERO = "zero", _("zero-point bye / absent")

    class Forfeit(models.TextChoices):
        NONE = "", _("none")
        WHITE = "white", _("white forfeited")
        BLACK = "black", _("black forfeited")
        BOTH = "both", _("both forfeited")

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="matches")
    board = models.PositiveSmallIntegerField(_("board"))
    kind = models.CharField(max_length=4, choices=Kind.choices, default=Kind.GAME)
    bye_kind = models.CharField(max_length=4, choices=ByeKind.choices, blank=True)
    white = models.ForeignKey(Entry, on_delete=models.RESTRICT, related_name="matches_as_white")
    black = models.ForeignKey(Entry, null=True, blank=True, on_delete=models.RESTRICT, related_name="matches_as_black")
    forfeit = models.CharField(max_length=5, choices=Forfeit.choices, blank=True, default="")
    white_points = models.DecimalField(max_digits=2, decimal_places=1, null=True, blank=True)
    black_points = models.DecimalField(max_digits=2, decimal_places=1, null=True, blank=True)
    rated = models.BooleanField(default=True)
    #: knockout: the match for third place; who starts the first decider set (drawn by lot, RULES.md);
    #: how the match was settled ("sets", "deciders", "seed"; "" until decided or outside a knockout)
    third_place = models.BooleanField(default=False)
    #: team events: the team match this board belongs to and its board number there (1 = top board)
    team_match = models.ForeignKey(
        "TeamMatch", null=True, blank=True, on_delete=models.CASCADE, related_name="boards"
    )
    team_board = models.PositiveSmallIntegerField(null=True, blank=True)
    decider_starter = models.CharField(
        max_length=5, blank=True, default="", choices=[("", "—"), ("white", _("white")), ("black", _("black"))]
    )
    decided_by = models.CharField(max_length=8, blank=True, default="")
    result_entered_at = models.DateTimeField(null=True, blank=True)
    result_entered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    version = models.PositiveIntegerField(default=1)

    history = history()

    class Meta:
        ordering = ["round", "board"]
        verbose_name_plural = "matches"
        constraints = [
            models.UniqueConstraint(fields=["round", "board"], name="match_unique_board"),
            models.CheckConstraint(condition=Q(board__gte=1), name="match_board_positive"),
            models.CheckConstraint(
                condition=Q(kind="game", black__isnull=False, bye_kind="")
                | Q(kind="bye", black__isnull=True, forfeit="", bye_kind__in=["pab", "half", "full", "zero"]),
                name="match_kind_shape",
            ),
            models.CheckConstraint(condition=~Q(white=F("black")), name="match_not_self"),
            models.CheckConstraint(
                condition=Q(white_points__isnull=True) | Q(white_points__in=[Decimal("0"), Decimal("0.5"), Decimal("1")]),
                name="match_white_points_values",
            ),
            models.CheckConstraint(
                condition=Q(black_points__isnull=True) | Q(black_points__in=[Decimal("0"), Decimal("0.5"), Decimal("1")]),
                name="match_black_points_values",
            ),
            models.CheckConstraint(
                condition=Q(kind="bye", black_points__isnull=True)
                | Q(white_points__isnull=True, black_points__isnull=True)
                | Q(white_points__isnull=False, black_points__isnull=False),
                name="match_points_both_or_none",
            ),
        ]

    def __str__(self) -> str:
        if self.kind == self.Kind.BYE:
            return f"{self.board}: {self.white} – bye"
        return f"{self.board}: {self.white} – {self.black}"

    @property
    def has_result(self) -> bool:
        return self.white_points is not None


class SetResult(models.Model):
    """One set of a match (RULES.md: sets 1..n; white starts odd sets, black even ones).

    ``white_stones``/``black_stones`` are the *recorded* stones (sum 48) after Kural 14.5 is applied;
    ``white_store``/``black_store`` keep what the stores held at a withdrawal.
    """

    class Termination(models.TextChoices):
        COMPLETED = "completed", _("completed")
        WHITE_WITHDREW = "white_withdrew", _("white withdrew")
        BLACK_WITHDREW = "black_withdrew", _("black withdrew")

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="sets")
    number = models.PositiveSmallIntegerField()
    starter = models.CharField(max_length=5, choices=[("white", _("white")), ("black", _("black"))])
    white_stones = models.PositiveSmallIntegerField()
    black_stones = models.PositiveSmallIntegerField()
    termination = models.CharField(max_length=16, choices=Termination.choices, default=Termination.COMPLETED)
    white_store = models.PositiveSmallIntegerField(null=True, blank=True)
    black_store = models.PositiveSmallIntegerField(null=True, blank=True)
    moves = models.TextField(blank=True)

    history = history()

    class Meta:
        ordering = ["match", "number"]
        constraints = [
            models.UniqueConstraint(fields=["match", "number"], name="set_unique_number"),
            # up to 7 planned sets, then decider sets of a level knockout match (RULES.md)
            models.CheckConstraint(condition=Q(number__gte=1, number__lte=40), name="set_number_range"),
            models.CheckConstraint(condition=Q(white_stones__lte=48, black_stones__lte=48), name="set_stones_range"),
            models.CheckConstraint(
                condition=Q(white_stones=48 - F("black_stones")), name="set_stones_sum_48"
            ),
            models.CheckConstraint(condition=Q(starter__in=["white", "black"]), name="set_starter_values"),
        ]

    @property
    def white_margin(self) -> int:
        """White's stone margin in this set: own stones − 24 (Kural 14.4)."""
        return self.white_stones - 24


class Absence(models.Model):
    """A bye requested ahead for one round (C.04.1 / C.04.2: half-point bye or excused zero-point absence).

    The player is left out of that round's pairing and gets a bye of ``kind`` on the pairing list.
    """

    class Kind(models.TextChoices):
        HALF = "half", _("half-point bye")
        ZERO = "zero", _("zero-point bye / absent")
        FULL = "full", _("full-point bye")
        PAIRING = "pab", _("pairing-allocated bye assigned ahead")

    entry = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="absences")
    round_number = models.PositiveSmallIntegerField(_("round"))
    kind = models.CharField(max_length=4, choices=Kind.choices, default=Kind.HALF)
    created_at = models.DateTimeField(auto_now_add=True)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL)

    history = history()

    class Meta:
        ordering = ["round_number", "entry"]
        constraints = [
            models.UniqueConstraint(fields=["entry", "round_number"], name="absence_unique_round"),
            models.CheckConstraint(condition=Q(kind__in=["half", "zero", "full", "pab"]), name="absence_kind_values"),
            models.CheckConstraint(condition=Q(round_number__gte=1), name="absence_round_positive"),
        ]


class ForbiddenPair(models.Model):
    """Two entries who must not be paired with each other in rounds ``first_round`` ..
    ``last_round`` (``None`` = to the end): siblings, club mates in the first rounds (TRF ``XXP`` /
    ``260``; C.04.1 allows such restrictions when announced). ``first`` has the lower id."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="forbidden_pairs")
    first = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="+")
    second = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="+")
    first_round = models.PositiveSmallIntegerField(_("from round"), default=1)
    last_round = models.PositiveSmallIntegerField(_("to round"), null=True, blank=True)
    reason = models.CharField(_("reason"), max_length=200, blank=True, validators=[no_control_characters])
    created_at = models.DateTimeField(auto_now_add=True)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                   related_name="+")

    history = history()

    class Meta:
        ordering = ["tournament", "first_round", "id"]
        verbose_name = _("forbidden pair")
        verbose_name_plural = _("forbidden pairs")
        constraints = [
            models.CheckConstraint(condition=Q(first__lt=F("second")), name="forbidden_pair_ordered"),
            models.CheckConstraint(condition=Q(first_round__gte=1), name="forbidden_pair_first_round"),
            models.CheckConstraint(
                condition=Q(last_round__isnull=True) | Q(last_round__gte=F("first_round")),
                name="forbidden_pair_round_range",
            ),
            models.UniqueConstraint(fields=["tournament", "first", "second", "first_round"],
                                    name="forbidden_pair_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.first} ≠ {self.second}"


class PairingChange(models.Model):
    """A hand change of a pairing before publication: who, when, why, before and after."""

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="changes")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL)
    at = models.DateTimeField(auto_now_add=True)
    reason = models.TextField()
    before = models.JSONField()
    after = models.JSONField()

    class Meta:
        ordering = ["round", "at"]
