"""Forms of the member pages (Django forms; the rules stay in :mod:`federation.services`)."""
from __future__ import annotations

from django import forms
from django.contrib.auth import get_user_model
from django.contrib.auth.forms import PasswordResetForm
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from federation import signals
from federation.collation import turkish_sort_key
from federation.models import Club, Player
from federation.input_checks import REASON_MAX_LENGTH


class TurkishNameOrder(forms.models.ModelChoiceIterator):
    """The choices of a model choice field in Turkish alphabetical order of their labels ("Gaziantep …"
    before "İstanbul …" before "Trabzon …"); databases sort by code point, which puts "İ" after "Z"."""

    def __iter__(self):
        if self.field.empty_label is not None:
            yield ("", self.field.empty_label)
        for obj in sorted(self.queryset, key=lambda o: turkish_sort_key(self.field.label_from_instance(o))):
            yield self.choice(obj)


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
        self.fields["club"].iterator = TurkishNameOrder
        self.fields["club"].queryset = Club.objects.filter(Q(active=True) | Q(pk=current))  # resets the widget's choices
        self.fields["birth_year"].widget.attrs.update({"inputmode": "numeric"})

    def validate_unique(self):
        """Uniqueness is the service's (it names the field in the same words as the API)."""


class PlayerCreateForm(PlayerForm):
    """Register a player (staff): the fields of :class:`PlayerForm` and a starting rating. The federation
    id is filled in with the next free one (:func:`federation.selectors.player_next_federation_id`)."""

    rating = forms.IntegerField(
        label=_("Starting rating"), required=False, min_value=0, max_value=4000, initial=0,
        help_text=_("0 = unrated. After this the rating run sets the rating."),
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        from federation.selectors import player_next_federation_id

        if not self.is_bound:
            suggestion = player_next_federation_id()
            self.initial.setdefault("federation_id", suggestion)
            self.fields["federation_id"].help_text = _(
                "The next free federation id is suggested; change it if the player already has one."
            )
        self.fields["rating"].help_text = _(
            "0 = unrated: a new player without a rating yet. Unrated players are seeded below rated ones and "
            "get a first, provisional rating after their first rated tournament. Enter a rating only if the "
            "federation gave one."
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


# --------------------------------------------------------------------------------------------
# Accounts: password reset, staff user pages
# --------------------------------------------------------------------------------------------


class PasswordResetRequestForm(PasswordResetForm):
    """Django's password reset form: the same answer whether or not an account has the address.

    The e-mail goes out through the Celery job (:func:`federation.accounts.send_templated_email`); at
    most ``PASSWORD_RESET_MAX_PER_HOUR`` requests per address (and four times as many per client
    address) an hour send one — further requests get the same page and no e-mail.
    """

    def save(self, *args, request=None, **kwargs):
        if not _reset_allowed(self.cleaned_data["email"], request):
            return
        super().save(*args, request=request, **kwargs)

    def send_mail(self, subject_template_name, email_template_name, context, from_email, to_email,
                  html_email_template_name=None):
        from federation.accounts import send_templated_email

        send_templated_email(subject_template=subject_template_name, body_template=email_template_name,
                             context=context, to=to_email)


def _reset_allowed(email: str, request) -> bool:
    """Count a reset request against its address and its client (one hour); False beyond the limit."""
    import hashlib

    from django.conf import settings
    from django.core.cache import cache

    from federation.security import client_ip

    limit = getattr(settings, "PASSWORD_RESET_MAX_PER_HOUR", 5)
    keys = [("pwreset:mail:" + hashlib.sha256(email.strip().lower().encode()).hexdigest(), limit)]
    if request is not None:
        keys.append(("pwreset:ip:" + hashlib.sha256(client_ip(request).encode()).hexdigest(), 4 * limit))
    allowed = True
    for key, most in keys:
        cache.add(key, 0, 3600)
        try:
            count = cache.incr(key)
        except ValueError:  # expired between add and incr
            cache.set(key, 1, 3600)
            count = 1
        allowed = allowed and count <= most
    return allowed


def _player_by_federation_id(value: str | None) -> Player | None:
    """The player whose federation id is ``value`` (any case); ``None`` for a blank value. Raises a
    form ``ValidationError`` naming the id when there is no such player."""
    fid = (value or "").strip()
    if not fid:
        return None
    player = Player.objects.filter(federation_id__iexact=fid).first()
    if player is None:
        raise forms.ValidationError(_("No player with federation id %(id)s.") % {"id": fid})
    return player

class UserCreateForm(forms.ModelForm):
    """Staff create an account for a referee, an organiser or a player (:func:`federation.accounts.user_create`).
    The field ``tournament`` (a referee's or organiser's first tournament) is added by the tournaments
    (:data:`federation.signals.account_form_built`); the rules below read it when it is there."""

    KIND_CHOICES = [("referee", _("Referee")), ("organiser", _("Organiser")), ("player", _("Player"))]
    PASSWORD_CHOICES = [("link", _("E-mail a link")), ("password", _("Temporary password"))]

    kind = forms.ChoiceField(label=_("Account for"), choices=KIND_CHOICES, initial="referee",
                             help_text=_("A player's account shows them their next board and results."))
    federation_wide = forms.BooleanField(
        label=_("For every tournament"), required=False,
        help_text=_("A referee of every tournament, or an organiser who can also create tournaments. "
                    "Leave it unticked to give them only the tournaments you assign."),
    )
    player = forms.CharField(
        label=_("Player's federation id"), required=False, max_length=20,
        help_text=_("For a player's account: the player this login belongs to."),
    )
    password_mode = forms.ChoiceField(
        label=_("Password"), choices=PASSWORD_CHOICES, initial="link",
        help_text=_("A link by e-mail lets them choose their own password; a temporary password you tell them."),
    )
    password = forms.CharField(
        label=_("Temporary password"), required=False, strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}),
        help_text=_("Only with a temporary password: at least 8 characters, not only digits, not a common word. "
                    "They can change it on their page."),
    )

    class Meta:
        model = get_user_model()
        fields = ["username", "first_name", "last_name", "email"]

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        # the apps above add their fields (tournaments: ``tournament``, the first tournament of the account)
        signals.account_form_built.send(sender=type(self), form=self)
        for name in ("first_name", "last_name"):
            self.fields[name].required = True
        self.fields["username"].widget.attrs.update({"autocapitalize": "none", "autocomplete": "off"})
        self.fields["email"].help_text = _("Needed for the link to choose a password, and to reset it later.")

    def clean_player(self):
        return _player_by_federation_id(self.cleaned_data.get("player"))

    def clean(self):
        data = super().clean()
        kind = data.get("kind")
        if kind == "player" and not data.get("player") and "player" not in self.errors:
            self.add_error("player", _("Give the federation id of the player."))
        if kind == "player" and data.get("tournament"):
            self.add_error("tournament", _("A player's account has no tournament role."))
        if data.get("password_mode") == "link" and not data.get("email") and "email" not in self.errors:
            self.add_error("email", _("An e-mail address is needed to send the link."))
        if data.get("password_mode") == "password" and not data.get("password"):
            self.add_error("password", _("Give a temporary password."))
        return data

    def validate_unique(self):
        """Uniqueness is the service's (user names in any case)."""


class PlayerLinkForm(forms.Form):
    """The player whose login an account is (empty: none)."""

    player = forms.CharField(label=_("Player's federation id"), required=False, max_length=20,
                             help_text=_("Leave empty to remove the link."))

    def clean_player(self):
        return _player_by_federation_id(self.cleaned_data.get("player"))
