"""The tournament, who runs it and who plays in it: :class:`Tournament`, :class:`TournamentRole` and
:class:`Entry`, with the default tie-break order.

A tournament may be a section of an :class:`~tournaments.models.events.Event` (``Tournament.event``,
a lazy reference so that this module imports no other model module).
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

    class PrizeSharing(models.TextChoices):
        TIEBREAKS = "tiebreaks", _("only players level on points and every tie-break share")
        POINTS = "points", _("players level on points share equally")
        HORT = "hort", _("players level on points share by the Hort system")

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
        "Event", null=True, blank=True, on_delete=models.PROTECT, related_name="sections", verbose_name=_("event")
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
    #: a play-off of 3 or more (issue 25): the seed of the lot that drew its starting numbers
    #: (:func:`tournaments.knockout.playoffs.playoff_draw`); blank when no lot was drawn
    playoff_lot = models.CharField(_("play-off lot seed"), max_length=64, blank=True, default="")
    #: the prize list (issue 25; ``tournaments.standings.prizes``): how money is shared among players level on
    #: points (fixed once round 1 is paired), whether a player who withdrew before the last round can take a
    #: prize, and the seed of the lot for indivisible prizes among players level on everything (drawn once)
    prize_sharing = models.CharField(
        _("sharing prize money"), max_length=10, choices=PrizeSharing.choices, default=PrizeSharing.TIEBREAKS
    )
    prizes_to_withdrawn = models.BooleanField(_("players who withdrew early can take prizes"), default=False)
    prize_lot_seed = models.CharField(_("seed of the prize lot"), max_length=64, blank=True, default="")

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
