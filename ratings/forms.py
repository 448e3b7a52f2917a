"""Forms of the staff's official rating list pages (the rules stay in :mod:`ratings.services`)."""
from __future__ import annotations

from django import forms
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from ratings.lists.services import LIST_REASON_MAX_LENGTH, rating_list_default_date


class RatingListPublishForm(forms.Form):
    """Publish an official list: its date (proposed: the first day of this month), a title and a note."""

    published_on = forms.DateField(
        label=_("List date"), widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
        help_text=_("The ratings as of this day are listed. Lists are monthly: the first day of the month."),
    )
    title = forms.CharField(label=_("Title"), max_length=120, required=False)
    note = forms.CharField(
        label=_("Note"), max_length=LIST_REASON_MAX_LENGTH, required=False, widget=forms.Textarea(attrs={"rows": 2}),
        help_text=_("Shown with the list (optional)."),
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["published_on"].initial = rating_list_default_date()
        self.fields["published_on"].widget.attrs["max"] = timezone.localdate().isoformat()


class RatingListWithdrawForm(forms.Form):
    """Withdraw an official list: the reason is required and shown in the archive."""

    reason = forms.CharField(
        label=_("Reason"), max_length=LIST_REASON_MAX_LENGTH, widget=forms.Textarea(attrs={"rows": 2}),
        help_text=_("Shown in the archive with the withdrawn list."),
    )
