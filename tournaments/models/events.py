"""Multi-section events (issue 14): :class:`Event` and its registration list, :class:`EventRegistration`."""
from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.utils.translation import gettext_lazy as _

from federation.audit import history
from federation.validators import no_control_characters

from .tournament import Tournament


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
