"""Forms of the event pages (Django forms; the rules stay in :mod:`tournaments.events.services`)."""
from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from tournaments.models import Event, Tournament

SEX_CHOICES = [("", _("anyone")), ("f", _("girls / women")), ("m", _("boys / men"))]


class EventForm(forms.ModelForm):
    """Create or edit an event: name, dates, place and the reference date for ages."""

    class Meta:
        model = Event
        fields = ["name", "start_date", "end_date", "venue", "city", "reference_date"]
        widgets = {
            "start_date": forms.DateInput(attrs={"type": "date"}),
            "end_date": forms.DateInput(attrs={"type": "date"}),
            "reference_date": forms.DateInput(attrs={"type": "date"}),
        }
        help_texts = {
            "reference_date": _("Ages for the sections are counted in this date's year (empty: the start date's)."),
        }


class SectionForm(forms.Form):
    """A section: its name, pairing system, rounds and its rule (birth years, sex)."""

    name = forms.CharField(label=_("Section name"), max_length=120,
                           help_text=_("For example İlkokul Kız, Ortaokul, Açık."))
    system = forms.ChoiceField(label=_("System"), choices=Tournament.System.choices, initial=Tournament.System.SWISS)
    rounds_total = forms.IntegerField(label=_("Number of rounds"), min_value=1, max_value=99, initial=5)
    sets_per_match = forms.TypedChoiceField(label=_("Sets per match"), choices=[(n, n) for n in (1, 3, 5, 7)],
                                            coerce=int, initial=3)
    birth_year_min = forms.IntegerField(label=_("Born in or after"), min_value=1900, max_value=2100, required=False)
    birth_year_max = forms.IntegerField(label=_("Born in or before"), min_value=1900, max_value=2100, required=False)
    sex = forms.ChoiceField(label=_("Sex"), choices=SEX_CHOICES, required=False)
    order = forms.IntegerField(label=_("Order in the event"), min_value=0, max_value=999, required=False,
                               help_text=_("Empty: after the other sections."))
    chief_arbiter = forms.CharField(label=_("Chief arbiter"), max_length=120, required=False)

    def __init__(self, *args, age_year: int | None = None, **kwargs):
        super().__init__(*args, **kwargs)
        if age_year:
            self.fields["birth_year_min"].help_text = _(
                "Ages are counted in %(y)d: born %(a)d is %(n)d years old.") % {"y": age_year, "a": age_year - 10,
                                                                               "n": 10}


class RegisterForm(forms.Form):
    """Register a player found by the search; ``section`` empty: the rules place them."""

    player = forms.IntegerField(widget=forms.HiddenInput)
    section = forms.IntegerField(required=False)
    note = forms.CharField(max_length=200, required=False)


class MoveForm(forms.Form):
    """Move a registered player to another section (empty: unplaced), with a reason."""

    section = forms.IntegerField(required=False)
    reason = forms.CharField(max_length=200)
