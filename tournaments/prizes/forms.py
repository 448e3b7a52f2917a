"""Forms of the category and prize pages (business rules stay in ``tournaments.prizes.services``)."""
from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from federation.models import Club
from tournaments.models import Category, Tournament


class CategoryForm(forms.Form):
    """A category: code, name, kind and the fields of its kind (the page shows them all; the service
    uses those of the chosen kind)."""

    code = forms.CharField(label=_("Code"), max_length=20,
                           help_text=_("Short, for links and the API: U12, KIZ, 1500-1799 (Latin letters, digits, -, _, +)."))
    name = forms.CharField(label=_("Name"), max_length=120, help_text=_("As printed, e.g. 12 Yaş Altı."))
    kind = forms.ChoiceField(label=_("Kind"), choices=Category.Kind.choices)
    max_age = forms.IntegerField(
        label=_("Highest age"), min_value=1, max_value=120, required=False,
        help_text=_("Age category: age = the year − the birth year; U12 = 12 (born in or after the year − 12)."),
    )
    min_age = forms.IntegerField(label=_("Lowest age"), min_value=1, max_value=120, required=False,
                                 help_text=_("Optional, e.g. 50 for a 50+ table."))
    rating_min = forms.IntegerField(label=_("Lowest rating"), min_value=0, max_value=4000, required=False)
    rating_max = forms.IntegerField(label=_("Highest rating"), min_value=0, max_value=4000, required=False,
                                    help_text=_("Rating band: the rating at entry; either end may stay blank."))
    club = forms.ModelChoiceField(label=_("Club"), queryset=Club.objects.none(), required=False)
    city = forms.CharField(label=_("City"), max_length=60, required=False,
                           help_text=_("City category: the player's city (else their club's)."))
    includes_unrated = forms.BooleanField(
        label=_("Includes unrated players"), required=False,
        help_text=_("Rating band: unrated players (no rating at entry) are in it only when this is ticked "
                    "(e.g. “U1600 and unrated”)."),
    )
    reason = forms.CharField(label=_("Reason (optional)"), max_length=500, required=False)

    def __init__(self, *args, tournament: Tournament, category: Category | None = None, **kwargs):
        if category is not None:
            kwargs.setdefault("initial", {
                "code": category.code, "name": category.name, "kind": category.kind, "max_age": category.max_age,
                "min_age": category.min_age, "rating_min": category.rating_min, "rating_max": category.rating_max,
                "club": category.club_id, "city": category.city, "includes_unrated": category.includes_unrated,
            })
        super().__init__(*args, **kwargs)
        if category is None:
            del self.fields["reason"]
        # the clubs of the tournament's players, and the one chosen
        clubs = Club.objects.filter(players__entries__tournament=tournament)
        if category is not None and category.club_id:
            clubs = clubs | Club.objects.filter(pk=category.club_id)
        self.fields["club"].queryset = clubs.distinct().order_by("name")

    def values(self) -> dict:
        """The service's keyword arguments."""
        d = dict(self.cleaned_data)
        d.pop("reason", None)
        return d


class PrizeForm(forms.Form):
    """A prize: its list (overall or a category), place, label and value."""

    category = forms.TypedChoiceField(label=_("List"), coerce=int, empty_value=None, required=False)
    place = forms.IntegerField(label=_("Place"), min_value=1, max_value=999)
    label = forms.CharField(label=_("Prize"), max_length=120, help_text=_("E.g. 1.000 TL, a trophy, a gold medal."))
    # text, not a DecimalField: the service reads "1.000,50" and "1000.50" alike (Turkish decimal comma) and
    # refuses anything else with the field (category_services._check_value)
    value = forms.CharField(
        label=_("Value"), max_length=20, required=False, widget=forms.TextInput(attrs={"inputmode": "decimal"}),
        help_text=_("Orders the prizes: a player takes only the most valuable prize they qualify for. Money, or "
                    "points you give trophies (equal values: overall before category)."),
    )
    money = forms.BooleanField(
        label=_("Money prize"), required=False,
        help_text=_("Money is shared: players level on points and every tie-break pool the money prizes they "
                    "jointly occupy and split it equally. A trophy or a medal is indivisible: a recorded lot "
                    "decides between them."),
    )
    reason = forms.CharField(label=_("Reason (optional)"), max_length=500, required=False)

    def __init__(self, *args, categories, prize=None, **kwargs):
        if prize is not None:
            kwargs.setdefault("initial", {"category": prize.category_id or "", "place": prize.place,
                                          "label": prize.label, "value": prize.value, "money": prize.money})
        super().__init__(*args, **kwargs)
        if prize is None:
            del self.fields["reason"]
        self.fields["category"].choices = [("", _("Overall"))] + [(c.pk, f"{c.code} – {c.name}") for c in categories]

    def values(self) -> dict:
        d = dict(self.cleaned_data)
        d.pop("reason", None)
        if d.get("value") in (None, ""):
            d["value"] = 0
        return d


class PrizeRulesForm(forms.Form):
    """The event's prize rules (``tournaments.prizes.services.tournament_prize_rules_update``)."""

    prize_sharing = forms.ChoiceField(
        label=_("Sharing prize money"), choices=Tournament.PrizeSharing.choices,
        help_text=_("Announced before the event; fixed once round 1 is paired. Only players level on points and "
                    "every tie-break share (default); or all players level on points share the money prizes "
                    "they jointly occupy: in equal shares, or by the Hort system (each keeps half of the prize "
                    "of their place on the tie-breaks; the other halves are pooled and split equally), as "
                    "Swiss-Manager and Vega offer."),
    )
    prizes_to_withdrawn = forms.BooleanField(
        label=_("Players who withdrew before the last round can take prizes"), required=False,
        help_text=_("Default: no — the prize goes to the next eligible player and the prize list says why the "
                    "withdrawn player was passed over."),
    )
    reason = forms.CharField(label=_("Reason (optional)"), max_length=500, required=False)

    def __init__(self, *args, tournament: Tournament, paired: bool, **kwargs):
        kwargs.setdefault("initial", {"prize_sharing": tournament.prize_sharing,
                                      "prizes_to_withdrawn": tournament.prizes_to_withdrawn})
        super().__init__(*args, **kwargs)
        if paired:
            self.fields["prize_sharing"].disabled = True
