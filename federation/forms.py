"""Forms of the member pages (Django forms; the rules stay in :mod:`federation.services`)."""
from __future__ import annotations

from django import forms
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from federation.models import Club, Player
from federation.services import REASON_MAX_LENGTH


def reason_field(*, required: bool = False, help_text=None) -> forms.CharField:
    return forms.CharField(
        label=_("Reason"), required=required, max_length=REASON_MAX_LENGTH,
        widget=forms.Textarea(attrs={"rows": 2}),
        help_text=help_text or _("Kept in the change history with your name."),
    )


class PlayerForm(forms.ModelForm):
    """Edit a player (staff): everything but the rating, which the rating run owns; a reason for the
    history. The club list offers active clubs (and the player's current club)."""

    birth_year = forms.IntegerField(label=_("Birth year"), required=False, min_value=1900, max_value=2100)
    reason = reason_field()

    class Meta:
        model = Player
        fields = ["federation_id", "last_name", "first_name", "sex", "birth_year", "club", "city"]

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        current = self.instance.club_id if self.instance.pk else None
        self.fields["club"].queryset = Club.objects.filter(Q(active=True) | Q(pk=current)).order_by("name")
        self.fields["birth_year"].widget.attrs.update({"inputmode": "numeric"})

    def validate_unique(self):
        """Uniqueness is the service's (it names the field in the same words as the API)."""


class PlayerCreateForm(PlayerForm):
    """Register a player (staff): the fields of :class:`PlayerForm` and a starting rating."""

    rating = forms.IntegerField(
        label=_("Starting rating"), required=False, min_value=0, max_value=4000, initial=0,
        help_text=_("0 = unrated. After this the rating run sets the rating."),
    )


class PlayerMergeForm(forms.Form):
    """Merge the page's player into another record (the one to keep)."""

    into = forms.CharField(
        label=_("Federation id of the record to keep"), max_length=20,
        help_text=_("This record's tournaments and rating history move there; its id then leads there."),
    )
    reason = reason_field(required=True, help_text=_("Why these two records are the same person."))
    confirm = forms.BooleanField(
        label=_("I have checked that both records are the same person."), required=True,
    )


class ReasonForm(forms.Form):
    """An optional reason, e.g. for deactivating a player or a club."""

    reason = forms.CharField(label=_("Reason"), required=False, max_length=REASON_MAX_LENGTH)


class ClubForm(forms.ModelForm):
    """Create or edit a club (staff), with a reason for the history."""

    reason = reason_field()

    class Meta:
        model = Club
        fields = ["name", "short_name", "city"]

    def validate_unique(self):
        """Uniqueness is the service's (case-insensitive, in the same words as the API)."""
