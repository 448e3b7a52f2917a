"""Forms of per-tournament roles on the staff's account pages (Django forms; the rules stay in
:mod:`tournaments.people.services`)."""
from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from tournaments.models import Tournament


def _active_tournaments():
    return Tournament.objects.filter(archived_at__isnull=True).order_by("-start_date", "name")


class TournamentChoiceField(forms.ModelChoiceField):
    def label_from_instance(self, obj):
        year = obj.start_date.year if obj.start_date else ""
        return f"{obj.name} ({year})" if year else obj.name


def add_first_tournament_field(form) -> None:
    """Add the field ``tournament`` (a referee's or organiser's first tournament, optional) to the staff's
    account form (:class:`federation.forms.UserCreateForm`), after ``federation_wide``."""
    field = TournamentChoiceField(
        label=_("Tournament"), required=False, queryset=_active_tournaments(), empty_label=_("— none for now —"),
        help_text=_("Referee or organiser: the first tournament they work in. More can be added later."),
    )
    fields = list(form.fields.items())
    at = next((i + 1 for i, (name, _f) in enumerate(fields) if name == "federation_wide"), len(fields))
    fields.insert(at, ("tournament", field))
    form.fields = dict(fields)


class TournamentRoleForm(forms.Form):
    """Assign a per-tournament role (:func:`tournaments.people.services.tournament_role_assign`)."""

    tournament = TournamentChoiceField(label=_("Tournament"), queryset=None, empty_label=_("— choose —"))
    role = forms.ChoiceField(label=_("Role"), choices=[("referee", _("Referee")), ("organiser", _("Organiser"))])

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["tournament"].queryset = _active_tournaments()
