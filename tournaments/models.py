"""Tournaments, entries, rounds, matches and set results.

Thin models: what must never be stored wrong is a database constraint; everything else is checked by
``tournaments.services`` with the rules engine (``games.engine``).

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
from federation.models import Player
from federation.validators import no_control_characters

DEFAULT_TIEBREAKS = ["buchholz_cut1", "buchholz", "sonneborn_berger", "direct_encounter", "wins"]


def default_tiebreaks() -> list[str]:
    return list(DEFAULT_TIEBREAKS)


class Event(models.Model):
    """A multi-section event (issue 14): e.g. a school championship with İlkokul Kız, İlkokul Erkek,
    Ortaokul and Açık sections. Each section is a :class:`Tournament` (``Tournament.event``), paired and
    ranked on its own; the event has one public page, one registration list
    (:class:`EventRegistration`, which assigns players to sections) and one report.

    ``reference_date``: ages for the section rules are counted in its year (birth year only is known;
    default: the year of ``start_date``).
    """

    slug = models.SlugField(_("slug"), max_length=80, unique=True)
    name = models.CharField(_("name"), max_length=160, validators=[no_control_characters])
    start_date = models.DateField(_("start date"), null=True, blank=True)
    end_date = models.DateField(_("end date"), null=True, blank=True)
    venue = models.CharField(_("venue"), max_length=160, validators=[no_control_characters], blank=True)
    city = models.CharField(_("city"), max_length=60, validators=[no_control_characters], blank=True)
    reference_date = models.DateField(_("reference date for ages"), null=True, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    history = history()

    class Meta:
        ordering = ["-start_date", "name"]
        verbose_name = _("event")
        verbose_name_plural = _("events")
        constraints = [
            models.CheckConstraint(
                condition=Q(start_date__isnull=True) | Q(end_date__isnull=True) | Q(end_date__gte=F("start_date")),
                name="event_dates_ordered",
                violation_error_message=_("The end date is before the start date."),
            ),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def age_year(self) -> int | None:
        """The year ages are counted in: of ``reference_date``, else of ``start_date``, else None."""
        d = self.reference_date or self.start_date
        return d.year if d else None


class Tournament(models.Model):
    """An event. ``sets_per_match`` is odd (3 by default; RULES.md); ``tiebreaks`` is an ordered list
    of keys of ``tournaments.standings.TIEBREAKS``."""

    class System(models.TextChoices):
        SWISS = "swiss", _("Swiss (FIDE Dutch)")
        ROUND_ROBIN = "round_robin", _("Round robin (Berger)")
        KNOCKOUT = "knockout", _("Knockout")

    class Format(models.TextChoices):
        INDIVIDUAL = "individual", _("individual")
        TEAM = "team", _("team")

    class LevelMatchRule(models.TextChoices):
        DECIDERS = "deciders", _("decider sets until one is won")
        HIGHER_SEED = "higher_seed", _("the higher seed advances")
        DECIDERS_THEN_SEED = "deciders_then_seed", _("a number of decider sets, then the higher seed")

    class Status(models.TextChoices):
        DRAFT = "draft", _("draft")
        RUNNING = "running", _("running")
        FINISHED = "finished", _("finished")

    class Variant(models.TextChoices):
        FEDERATION = "federation", _("federation rules")
        KALE = "kale", _("kale (castle) variant")

    class Acceleration(models.TextChoices):
        NONE = "none", _("none")
        BAKU = "baku", _("Baku acceleration (FIDE C.04.5.1)")
        MANUAL = "manual", _("virtual points per player (from a file)")

    class TiebreakRules(models.TextChoices):
        AUTO = "auto", _("by the event's dates")
        C07_2023 = "2023", _("FIDE C.07 as in force from 2023")
        C07_2026 = "2026", _("FIDE C.07 with the amendment in force from 1 March 2026")

    slug = models.SlugField(_("slug"), max_length=80, unique=True)
    name = models.CharField(_("name"), max_length=160, validators=[no_control_characters])
    start_date = models.DateField(_("start date"), null=True, blank=True)
    end_date = models.DateField(_("end date"), null=True, blank=True)
    venue = models.CharField(_("venue"), max_length=160, validators=[no_control_characters], blank=True)
    city = models.CharField(_("city"), max_length=60, validators=[no_control_characters], blank=True)
    system = models.CharField(_("system"), max_length=16, choices=System.choices, default=System.SWISS)
    rounds_total = models.PositiveSmallIntegerField(_("number of rounds"))
    double_round_robin = models.BooleanField(_("double round robin"), default=False)
    second_cycle_swap = models.BooleanField(
        _("swap the last two rounds of the first cycle"), default=True,
        help_text=_("Double round robin: FIDE C.05 Annex 1 — the second cycle repeats the first with colours "
                    "reversed, its last two rounds swapped so that nobody plays three games in a row with "
                    "one colour. Off: the plain order."),
    )
    acceleration = models.CharField(
        _("accelerated pairing"), max_length=8, choices=Acceleration.choices, default=Acceleration.NONE
    )
    tiebreak_rules = models.CharField(
        _("tie-break rules text"), max_length=4, choices=TiebreakRules.choices, default=TiebreakRules.AUTO
    )
    federation = models.CharField(_("federation"), max_length=60, validators=[no_control_characters], blank=True)
    round_dates = models.JSONField(
        _("round dates"), default=list, blank=True,
        help_text=_("One entry per round: an ISO date (YYYY-MM-DD), or the text a file gave, or blank."),
    )
    sets_per_match = models.PositiveSmallIntegerField(_("sets per match"), default=3)
    variant = models.CharField(_("variant"), max_length=16, choices=Variant.choices, default=Variant.FEDERATION)
    tiebreaks = models.JSONField(_("tie-break order"), default=default_tiebreaks, blank=True)
    bye_points = models.DecimalField(_("points for a pairing bye"), max_digits=2, decimal_places=1, default=Decimal("1.0"))
    status = models.CharField(_("status"), max_length=12, choices=Status.choices, default=Status.DRAFT)
    standings_published_at = models.DateTimeField(_("standings published at"), null=True, blank=True)
    standings_round = models.PositiveSmallIntegerField(
        _("standings published after round"), null=True, blank=True,
        help_text=_("The public standings and crosstable count the closed rounds up to this one."),
    )
    chief_arbiter = models.CharField(_("chief arbiter"), max_length=120, validators=[no_control_characters], blank=True)
    time_control = models.CharField(_("time control"), max_length=120, validators=[no_control_characters], blank=True)
    imported_from_trf = models.BooleanField(default=False)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    version = models.PositiveIntegerField(default=1)
    #: bumped with ``version`` by every write except a result of a round not closed yet, which the public
    #: standings and crosstable do not count: their cached copies are keyed on it (tournaments/caching.py)
    standings_version = models.PositiveIntegerField(default=1)
    archived_at = models.DateTimeField(
        _("archived at"), null=True, blank=True,
        help_text=_("An archived tournament is hidden from everyone but staff and no longer rated."),
    )
    #: the event this tournament is a section of (issue 14), with the section's rule for registration:
    #: players born in ``section_birth_year_min``..``section_birth_year_max`` (either end open) and of
    #: ``section_sex`` ("" = any)
    event = models.ForeignKey(
        Event, null=True, blank=True, on_delete=models.PROTECT, related_name="sections", verbose_name=_("event")
    )
    section_birth_year_min = models.PositiveSmallIntegerField(_("born in or after"), null=True, blank=True)
    section_birth_year_max = models.PositiveSmallIntegerField(_("born in or before"), null=True, blank=True)
    section_sex = models.CharField(
        _("sex of the section"), max_length=1, blank=True, default="",
        choices=[("", _("any")), ("f", _("girls / women")), ("m", _("boys / men"))],
    )
    section_order = models.PositiveSmallIntegerField(_("order in the event"), default=0)
    #: team championships (issue 14): teams of ``boards_per_team`` boards meet in team matches (``TeamMatch``),
    #: each board a normal match; team match points 2/1/0 and board points
    format = models.CharField(_("format"), max_length=10, choices=Format.choices, default=Format.INDIVIDUAL)
    boards_per_team = models.PositiveSmallIntegerField(_("boards per team match"), default=4)
    #: knockout (issue 14; RULES.md "Knockout matches"): sets of each round's matches (odd numbers, one per
    #: round; empty = ``sets_per_match`` for every round), a match for third place, what settles a level
    #: match, and the stage the players qualified from (top ``qualifiers`` of its final standings)
    knockout_sets = models.JSONField(_("sets per knockout round"), default=list, blank=True)
    third_place_match = models.BooleanField(_("match for third place"), default=False)
    level_match_rule = models.CharField(
        _("a level knockout match"), max_length=20, choices=LevelMatchRule.choices, default=LevelMatchRule.DECIDERS
    )
    max_deciders = models.PositiveSmallIntegerField(_("decider sets before the higher seed advances"), default=0)
    qualified_from = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.PROTECT, related_name="final_stages",
        verbose_name=_("qualified from"),
    )
    qualifiers = models.PositiveSmallIntegerField(_("qualifiers"), null=True, blank=True)

    history = history(excluded_fields=["version", "standings_version"])

    class Meta:
        ordering = ["-start_date", "name"]
        verbose_name = _("tournament")
        verbose_name_plural = _("tournaments")
        constraints = [
            models.CheckConstraint(
                condition=Q(rounds_total__gte=1, rounds_total__lte=99), name="tournament_rounds_range",
                violation_error_message=_("The number of rounds must be between 1 and 99."),
            ),
            models.CheckConstraint(
                condition=Q(sets_per_match__in=[1, 3, 5, 7]), name="tournament_sets_per_match_odd",
                violation_error_message=_("Sets per match must be odd (1, 3, 5 or 7)."),
            ),
            models.CheckConstraint(
                condition=Q(bye_points__in=[Decimal("0"), Decimal("0.5"), Decimal("1")]), name="tournament_bye_points",
                violation_error_message=_("A bye is worth 0, ½ or 1 point."),
            ),
            models.CheckConstraint(
                condition=Q(start_date__isnull=True) | Q(end_date__isnull=True) | Q(end_date__gte=F("start_date")),
                name="tournament_dates_ordered",
                violation_error_message=_("The end date is before the start date."),
            ),
            models.CheckConstraint(
                condition=Q(section_birth_year_min__isnull=True) | Q(section_birth_year_max__isnull=True)
                | Q(section_birth_year_max__gte=F("section_birth_year_min")),
                name="tournament_section_years_ordered",
                violation_error_message=_("The section's birth years are in the wrong order."),
            ),
        ]

    def save(self, *args, **kwargs):
        """Save, but never write ``version`` or ``standings_version`` of an existing row: only
        :func:`tournaments.services.tournament_touch` changes them (``version = version + 1`` in the
        database), so a form or admin page loaded before a concurrent write cannot set one back and
        re-use a version number that cached outputs are keyed on (``tournaments/caching.py``)."""
        if not self._state.adding and self.pk is not None and kwargs.get("update_fields") is None:
            kwargs["update_fields"] = [
                f.name for f in self._meta.concrete_fields
                if not f.primary_key and f.name not in ("version", "standings_version")
            ]
        super().save(*args, **kwargs)

    def __str__(self) -> str:
        return self.name

    @property
    def standings_published(self) -> bool:
        return self.standings_published_at is not None

    @property
    def archived(self) -> bool:
        return self.archived_at is not None


class TournamentRole(models.Model):
    """A person's role in one tournament (organiser or referee)."""

    class Role(models.TextChoices):
        ORGANISER = "organiser", _("organiser")
        REFEREE = "referee", _("referee")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="roles")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="tournament_roles")
    role = models.CharField(max_length=12, choices=Role.choices)

    history = history()

    class Meta:
        constraints = [models.UniqueConstraint(fields=["tournament", "user", "role"], name="tournament_role_unique")]


class Entry(models.Model):
    """A player's entry in a tournament. ``start_no`` is the starting (pairing) number, 1 = top seed."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entries")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="entries")
    start_no = models.PositiveSmallIntegerField(_("starting number"))
    rating = models.PositiveSmallIntegerField(_("rating"), default=0)
    withdrawn = models.BooleanField(_("withdrawn"), default=False)
    withdrawn_after_round = models.PositiveSmallIntegerField(null=True, blank=True)
    federation = models.CharField(
        _("federation / team code"), max_length=3, blank=True, validators=[no_control_characters],
        help_text=_("TRF columns 54-56 as the file gave them (a federation such as TUR, or a club or city code)."),
    )
    official_rank = models.PositiveIntegerField(
        _("rank in the file"), null=True, blank=True,
        help_text=_("The final rank an imported file published (its own tie-break rules)."),
    )
    accelerations = models.JSONField(
        _("virtual points per round"), default=list, blank=True,
        help_text=_("Accelerated pairing: points added for pairing only, one number per round (round 1 first)."),
    )

    history = history()

    class Meta:
        ordering = ["tournament", "start_no"]
        verbose_name = _("entry")
        verbose_name_plural = _("entries")
        constraints = [
            models.UniqueConstraint(fields=["tournament", "start_no"], name="entry_unique_start_no"),
            models.UniqueConstraint(fields=["tournament", "player"], name="entry_unique_player"),
            models.CheckConstraint(condition=Q(start_no__gte=1), name="entry_start_no_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.start_no}. {self.player.full_name}"


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


def _empty_list() -> list:
    return []


class TrfImport(models.Model):
    """A TRF file too big to import within a web request, imported by the Celery task
    ``tournaments.import_trf`` (``tournaments.trf.jobs.trf_import_run``); the row is the progress report
    the import page and ``GET /api/tournaments/import-trf/<id>/`` show.

    ``status``: queued → running → done (``tournament`` is the new tournament, ``notes`` the import's
    notes) or failed (``error`` says why, ``error_field`` which input: ``"file"`` with the line number in
    ``error`` for a file that cannot be read). Like every import it is all or nothing: a failed import
    leaves no tournament. ``progress`` is 0..100; ``players`` and ``cells`` (round cells) the size found.
    ``data`` is the uploaded file's bytes (at most ``settings.TRF_MAX_UPLOAD_BYTES``), ``source`` its
    name, ``name`` the tournament name asked for (blank: the file's 012 line).
    """

    class Status(models.TextChoices):
        QUEUED = "queued", _("queued")
        RUNNING = "running", _("running")
        DONE = "done", _("done")
        FAILED = "failed", _("failed")

    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    status = models.CharField(_("status"), max_length=8, choices=Status.choices, default=Status.QUEUED)
    progress = models.PositiveSmallIntegerField(_("progress (%)"), default=0)
    players = models.PositiveIntegerField(_("players"), default=0)
    cells = models.PositiveIntegerField(_("result cells"), default=0)
    source = models.CharField(_("file name"), max_length=200, blank=True)
    name = models.CharField(_("tournament name"), max_length=160, blank=True, validators=[no_control_characters])
    data = models.BinaryField(_("file"))
    lang = models.CharField(max_length=10, blank=True, default="")
    error = models.TextField(_("error"), blank=True, default="")
    error_field = models.CharField(max_length=40, blank=True, default="")
    notes = models.JSONField(_("notes"), default=_empty_list, blank=True)
    tournament = models.ForeignKey(
        Tournament, verbose_name=_("tournament"), null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    #: Touched every few seconds by the run that holds the import; older than
    #: ``settings.TRF_IMPORT_LEASE_SECONDS``: the worker is gone and the import is restarted.
    heartbeat_at = models.DateTimeField(_("last sign of life"), null=True, blank=True)
    #: Runs started (the first and each restart after a lost worker); also the token of the current run.
    attempts = models.PositiveSmallIntegerField(default=0)
    #: The import options chosen at upload (``tournaments.trf.jobs._job_options``), for a restart by the sweep.
    options = models.JSONField(default=dict, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name = _("TRF import")
        verbose_name_plural = _("TRF imports")
        constraints = [
            models.CheckConstraint(condition=Q(progress__lte=100), name="trf_import_progress_percent"),
            models.CheckConstraint(
                condition=Q(status__in=["queued", "running", "done", "failed"]), name="trf_import_status_values"
            ),
        ]

    def __str__(self) -> str:
        return f"TRF import {self.pk} ({self.status}, {self.progress}%)"

    @property
    def is_active(self) -> bool:
        """Still queued or running: the progress page keeps reloading."""
        return self.status in (self.Status.QUEUED, self.Status.RUNNING)


class EventRegistration(models.Model):
    """A player on an :class:`Event`'s registration list and the section they play in.

    ``section`` is chosen by the sections' rules (birth year at the event's reference year and sex,
    ``tournaments.events.sections``) unless ``override`` is set: then the organiser chose it (``note`` says
    why). ``section`` null = not placed yet (no rule fits, or several do).
    """

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="registrations")
    player = models.ForeignKey("federation.Player", on_delete=models.PROTECT, related_name="event_registrations")
    section = models.ForeignKey(
        Tournament, null=True, blank=True, on_delete=models.SET_NULL, related_name="registrations",
        verbose_name=_("section"),
    )
    override = models.BooleanField(_("section chosen by the organiser"), default=False)
    note = models.CharField(_("note"), max_length=200, blank=True, default="", validators=[no_control_characters])
    created_at = models.DateTimeField(auto_now_add=True)

    history = history()

    class Meta:
        ordering = ["event", "section", "player"]
        verbose_name = _("event registration")
        verbose_name_plural = _("event registrations")
        constraints = [
            models.UniqueConstraint(fields=["event", "player"], name="event_registration_unique_player"),
        ]

    def __str__(self) -> str:
        return f"{self.event}: {self.player}"


class Category(models.Model):
    """A category ranking inside a tournament (issue 14): U8/U10/U12/U14 by birth year, girls, unrated
    players, a rating band, a club, a city. Membership is decided by ``tournaments.standings.categories``;
    ``code`` (unique in the tournament, e.g. ``U12``, ``KIZ``) is what the API's ``?category=`` takes.

    ``kind`` and its fields: ``age`` - ``max_age`` (born in or after year - max_age, the year of the
    tournament's start, else its event's reference year, else the current year) and optional ``min_age``; ``girls`` / ``boys``;
    ``unrated`` (rating 0 at entry); ``rating`` - ``rating_min`` <= entry rating <= ``rating_max``
    (either end open); ``club``; ``city``.
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


class Team(models.Model):
    """A team of a team championship (issue 14): a school or club side with a board order.

    ``seed_no`` is the team's pairing number (1 = top seed). Members (:class:`TeamMember`) are entries of
    the tournament with a board number; reserves have ``reserve`` set and a board after the regulars.
    """

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="teams")
    name = models.CharField(_("name"), max_length=120, validators=[no_control_characters])
    short_name = models.CharField(_("short name"), max_length=20, blank=True, default="", validators=[no_control_characters])
    club = models.ForeignKey(
        "federation.Club", null=True, blank=True, on_delete=models.SET_NULL, related_name="+", verbose_name=_("club")
    )
    seed_no = models.PositiveSmallIntegerField(_("starting number"))
    withdrawn = models.BooleanField(_("withdrawn"), default=False)

    history = history()

    class Meta:
        ordering = ["tournament", "seed_no"]
        verbose_name = _("team")
        verbose_name_plural = _("teams")
        constraints = [
            models.UniqueConstraint(fields=["tournament", "name"], name="team_unique_name"),
            models.UniqueConstraint(fields=["tournament", "seed_no"], name="team_unique_seed_no"),
            models.CheckConstraint(condition=Q(seed_no__gte=1), name="team_seed_no_positive"),
        ]

    def __str__(self) -> str:
        return self.name


class TeamMember(models.Model):
    """A player of a :class:`Team`: their tournament entry, board number (1 = top board) and whether
    they are a reserve."""

    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="members")
    entry = models.OneToOneField(Entry, on_delete=models.CASCADE, related_name="team_member")
    board = models.PositiveSmallIntegerField(_("board"))
    reserve = models.BooleanField(_("reserve"), default=False)

    history = history()

    class Meta:
        ordering = ["team", "board"]
        verbose_name = _("team member")
        verbose_name_plural = _("team members")
        constraints = [
            models.UniqueConstraint(fields=["team", "board"], name="team_member_unique_board"),
            models.CheckConstraint(condition=Q(board__gte=1), name="team_member_board_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.team}: {self.board}. {self.entry}"


class TeamMatch(models.Model):
    """Two teams meeting in a round (``black_team`` null: a bye). The first-named team (``white_team``)
    has white on the odd boards. Its boards are the round's :class:`Match` rows with ``team_match`` set;
    the team result (match points 2/1/0, board points) follows from them."""

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="team_matches")
    number = models.PositiveSmallIntegerField(_("table"))
    white_team = models.ForeignKey(Team, on_delete=models.RESTRICT, related_name="team_matches_first")
    black_team = models.ForeignKey(
        Team, null=True, blank=True, on_delete=models.RESTRICT, related_name="team_matches_second"
    )

    history = history()

    class Meta:
        ordering = ["round", "number"]
        verbose_name = _("team match")
        verbose_name_plural = _("team matches")
        constraints = [
            models.UniqueConstraint(fields=["round", "number"], name="team_match_unique_number"),
            models.CheckConstraint(condition=~Q(white_team=F("black_team")), name="team_match_not_self"),
            models.CheckConstraint(condition=Q(number__gte=1), name="team_match_number_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.white_team} – {self.black_team or 'bye'}"
