"""Forms of the tournament pages (Django forms; business rules stay in services)."""
from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from federation.errors import ApplicationError
from federation.models import Player
from tournaments.models import SetResult, Tournament
from tournaments.standings import TIEBREAKS, tiebreak_label


class TournamentForm(forms.ModelForm):
    """Create a tournament: name, dates, place, system, rounds, sets per match, and the tie-break
    order as up to six choices (first decides first); ``cleaned_data["tiebreak_order"]`` is the list."""

    TIEBREAK_SLOTS = 6

    class Meta:
        model = Tournament
        fields = [
            "name", "start_date", "end_date", "city", "venue", "system", "rounds_total",
            "double_round_robin", "second_cycle_swap", "sets_per_match", "variant", "acceleration", "tiebreak_rules",
            # knockout sections (issue 14; tournaments.knockout.services)
            "knockout_sets", "third_place_match", "level_match_rule", "max_deciders", "qualified_from", "qualifiers",
        ]
        widgets = {
            "start_date": forms.DateInput(attrs={"type": "date"}),
            "end_date": forms.DateInput(attrs={"type": "date"}),
        }

    def __init__(self, *args, lang: str = "tr", **kwargs):
        super().__init__(*args, **kwargs)
        self.lang = lang
        choices = [("", "—")] + [(k, tiebreak_label(k, lang)) for k in sorted(TIEBREAKS)]
        default = Tournament._meta.get_field("tiebreaks").default()
        for i in range(self.TIEBREAK_SLOTS):
            self.fields[f"tiebreak_{i + 1}"] = forms.ChoiceField(
                label=_("Tie-break %(n)d") % {"n": i + 1}, choices=choices, required=False,
                initial=default[i] if i < len(default) else "",
            )
        self.fields["tiebreak_1"].help_text = TIEBREAK_ARO_HELP
        self.fields["rounds_total"].widget.attrs.update({"min": 1, "max": 99, "inputmode": "numeric"})
        self.fields["rounds_total"].help_text = ROUNDS_TOTAL_HELP
        self.fields["rounds_total"].required = False  # a knockout's follows from its bracket
        self.fields["acceleration"].choices = ACCELERATION_CHOICES
        self.fields["acceleration"].help_text = ACCELERATION_HELP
        self.fields["tiebreak_rules"].help_text = TIEBREAK_RULES_HELP
        for name in ("acceleration", "tiebreak_rules"):  # blank: the model's default
            self.fields[name].required = False
        add_knockout_fields(self)

    def clean(self):
        data = super().clean()
        keys = [data.get(f"tiebreak_{i + 1}") for i in range(self.TIEBREAK_SLOTS)]
        keys = [k for k in keys if k]
        repeated = [k for i, k in enumerate(keys) if k in keys[:i]]
        if repeated:
            self.add_error(None, _("Tie-break %(key)s is listed twice.") % {"key": tiebreak_label(repeated[0], self.lang)})
        data["tiebreak_order"] = keys
        data["acceleration"] = data.get("acceleration") or Tournament.Acceleration.NONE
        data["tiebreak_rules"] = data.get("tiebreak_rules") or Tournament.TiebreakRules.AUTO
        clean_knockout_form_fields(self, data)
        if data.get("system") == Tournament.System.KNOCKOUT:
            data["rounds_total"] = None  # follows from the bracket (tournaments.knockout.settings.derived_rounds)
        elif not data.get("rounds_total") and "rounds_total" not in self.errors:
            self.add_error("rounds_total", _("Say how many rounds the tournament has."))
        return data


ROUNDS_TOTAL_HELP = _("For a round robin the pairing sets it from the number of players. A knockout needs none: its "
                      "rounds follow from the bracket (2 players: 1 round, 3–4: 2, 5–8: 3, 9–16: 4, …), set when "
                      "round 1 is paired.")
KNOCKOUT_ROUNDS_HELP = _("Follows from the bracket (2 players: 1 round, 3–4: 2, 5–8: 3, 9–16: 4, …); set when "
                         "round 1 is paired.")
ACCELERATION_CHOICES = [
    (Tournament.Acceleration.NONE, _("none")),
    (Tournament.Acceleration.BAKU, _("Baku acceleration (FIDE C.04.5.1)")),
]
ACCELERATION_HELP = _("Swiss only. Decided before round 1 is paired: the top half of the field gets virtual points "
                      "for pairing in the first rounds (they never count in the standings).")
KNOCKOUT_SETS_HELP = _("Knockout only: planned sets of each round's matches, round 1 first, e.g. 3, 3, 5 (the match "
                       "for third place plays its round's). Blank: the sets per match above for every round.")
LEVEL_MATCH_HELP = _("Knockout only (RULES.md): a level match goes on with decider sets until one is won (the "
                     "federation's rule); or the higher seed advances; or a number of deciders, then the higher seed.")

THIRD_PLACE_HELP = _("Knockout only: the semi-final losers play for 3rd and 4th place; without it they share 3rd. "
                     "A semi-final loser who withdraws loses it by walkover: the other takes 3rd, never shared. "
                     "In every round a player who withdraws forfeits the match still waiting, and the opponent "
                     "advances by walkover.")


def add_knockout_fields(form, *, tournament: Tournament | None = None) -> None:
    """The knockout settings (issue 14) of a tournament form: sets per round as a text ("3, 3, 5"), the match
    for third place, the rule for a level match, the number of deciders, and (creating) the stage the
    players qualify from with how many qualify. Checked by :func:`tournaments.knockout.settings.clean_settings`."""
    form.fields["knockout_sets"] = forms.CharField(
        label=_("Sets per knockout round"), required=False, max_length=60, help_text=KNOCKOUT_SETS_HELP,
        widget=forms.TextInput(attrs={"placeholder": "3, 3, 5", "autocomplete": "off"}),
    )
    if tournament is not None:
        form.initial.setdefault("knockout_sets", ", ".join(str(n) for n in tournament.knockout_sets or []))
    if "third_place_match" in form.fields:
        form.fields["third_place_match"].help_text = THIRD_PLACE_HELP
    if "level_match_rule" in form.fields:
        form.fields["level_match_rule"].help_text = LEVEL_MATCH_HELP
        form.fields["level_match_rule"].required = False
    if "max_deciders" in form.fields:
        form.fields["max_deciders"].required = False
        form.fields["max_deciders"].help_text = _("Only with “a number of decider sets, then the higher seed”.")
        form.fields["max_deciders"].widget.attrs.update({"min": 0, "max": 9, "inputmode": "numeric"})
    if "qualified_from" in form.fields:
        field = form.fields["qualified_from"]
        field.queryset = Tournament.objects.filter(archived_at__isnull=True).exclude(
            system=Tournament.System.KNOCKOUT).order_by("-start_date", "-id")
        field.help_text = _("A final stage: the players qualify from this Swiss (or round robin), seeded by its final "
                            "standings.")
        form.fields["qualifiers"].help_text = _("How many of its top players qualify (e.g. 8).")
        form.fields["qualifiers"].widget.attrs.update({"min": 2, "inputmode": "numeric"})


def clean_knockout_form_fields(form, data: dict) -> None:
    """Blank knockout fields take the model's defaults; the sets per round become a list (an error on the
    field otherwise)."""
    from tournaments.knockout.settings import clean_knockout_sets

    data["level_match_rule"] = data.get("level_match_rule") or Tournament.LevelMatchRule.DECIDERS
    data["max_deciders"] = data.get("max_deciders") or 0
    try:
        data["knockout_sets"] = clean_knockout_sets(data.get("knockout_sets") or "")
    except ApplicationError as exc:
        form.add_error("knockout_sets", exc.message)


TIEBREAK_ARO_HELP = _("Average rating of opponents (ARO, ARO-Cut1; FIDE C.07 Art. 10): unrated opponents are left "
                      "out of the average, as the FIDE tie-break server does; Cut-1 leaves out the lowest-rated one.")

TIEBREAK_RULES_HELP = _("Which FIDE C.07 text the tie-breaks follow. By the event's dates: the 1 March 2026 "
                        "amendment for events starting on or after that day, the 2023 text before.")


class EntriesForm(forms.Form):
    """Add players to a tournament (before round 1 is paired)."""

    players = forms.ModelMultipleChoiceField(
        label=_("Players"), queryset=Player.objects.select_related("club").order_by("last_name", "first_name"),
        widget=forms.SelectMultiple(attrs={"size": 14}),
    )


class PlayerRegisterForm(forms.ModelForm):
    """A new player, registered from the entries page and entered at once."""

    class Meta:
        model = Player
        fields = ["federation_id", "last_name", "first_name", "sex", "birth_year", "club", "rating"]


class TrfUploadForm(forms.Form):
    """Upload a TRF file (FIDE TRF-16, UTF-8 or Latin-1) with the import's options.

    ``upload`` is the token of a file uploaded before (a preview, or a refusal that only asks for the
    system): the file is then taken from the session and need not be chosen again."""

    SYSTEM_CHOICES = [("", _("As the file says (092 line)")), *Tournament.System.choices]

    file = forms.FileField(label=_("TRF file"), required=False)
    name = forms.CharField(label=_("Tournament name (optional)"), required=False, max_length=160)
    system = forms.ChoiceField(
        label=_("System"), choices=SYSTEM_CHOICES, required=False,
        help_text=_("Needed when the file does not say (no 092 line, or one saying neither Swiss nor round robin)."),
    )
    publish = forms.BooleanField(
        label=_("Publish the standings of a finished event"), required=False, initial=True,
        help_text=_("The public sees the final standings and crosstable at once."),
    )
    match_players = forms.BooleanField(
        label=_("Use known players"), required=False, initial=True,
        help_text=_("A line without FIDE id is matched to a known player with the same name, birth year and "
                    "federation/club code; the preview shows every match."),
    )
    upload = forms.CharField(widget=forms.HiddenInput, required=False)

    def clean_file(self):
        """The same limit as the API: ``settings.TRF_MAX_UPLOAD_BYTES`` (``tournaments.trf.jobs.check_upload_size``)."""
        from tournaments.trf.jobs import check_upload_size

        f = self.cleaned_data.get("file")
        if f is None:
            return None
        try:
            check_upload_size(f.size)
        except ApplicationError as exc:
            raise forms.ValidationError(exc.message) from exc
        return f


TERMINATION_CHOICES = [("", "—"), *SetResult.Termination.choices]
FORFEIT_CHOICES = [
    ("", _("Played")),
    ("white", _("White did not appear (black wins by forfeit)")),
    ("black", _("Black did not appear (white wins by forfeit)")),
    ("both", _("Neither appeared")),
]


class MatchResultForm(forms.Form):
    """A match result as up to ``sets_per_match`` sets of stores; blank sets are ignored."""

    forfeit = forms.ChoiceField(label=_("Match"), choices=FORFEIT_CHOICES, required=False)
    version = forms.IntegerField(widget=forms.HiddenInput, required=False)

    def __init__(self, *args, sets_per_match: int = 3, with_reason: bool = False, **kwargs):
        super().__init__(*args, **kwargs)
        self.sets_per_match = sets_per_match
        if with_reason:  # correcting a closed round: the organiser says why (recorded in the history)
            self.fields["reason"] = forms.CharField(
                label=_("Reason for the correction"), max_length=500, required=True,
                widget=forms.TextInput(attrs={"autocomplete": "off"}),
            )
        for i in range(1, sets_per_match + 1):
            num = {"min": 0, "max": 48, "inputmode": "numeric", "pattern": "[0-9]*", "class": "stones"}
            self.fields[f"set{i}_white"] = forms.IntegerField(
                label=_("Set %(i)d white") % {"i": i}, min_value=0, max_value=48, required=False,
                widget=forms.NumberInput(attrs=num),
            )
            self.fields[f"set{i}_black"] = forms.IntegerField(
                label=_("Set %(i)d black") % {"i": i}, min_value=0, max_value=48, required=False,
                widget=forms.NumberInput(attrs=num),
            )
            self.fields[f"set{i}_termination"] = forms.ChoiceField(
                label=_("Set %(i)d end") % {"i": i}, choices=SetResult.Termination.choices, required=False,
                initial=SetResult.Termination.COMPLETED,
            )
            self.fields[f"set{i}_moves"] = forms.CharField(
                label=_("Set %(i)d moves (optional)") % {"i": i}, required=False,
                widget=forms.TextInput(attrs={"placeholder": "4 1 3 …", "autocomplete": "off"}),
            )

    def set_rows(self):
        """``[(number, white_field, black_field, termination_field, moves_field), …]`` for templates."""
        return [
            (i, self[f"set{i}_white"], self[f"set{i}_black"], self[f"set{i}_termination"], self[f"set{i}_moves"])
            for i in range(1, self.sets_per_match + 1)
        ]

    def clean(self):
        data = super().clean()
        sets = []
        for i in range(1, self.sets_per_match + 1):
            w, b = data.get(f"set{i}_white"), data.get(f"set{i}_black")
            if w is None and b is None:
                continue
            if w is None or b is None:
                self.add_error(f"set{i}_white" if w is None else f"set{i}_black", _("Enter both stores."))
                continue
            if len(sets) != i - 1:
                self.add_error(f"set{i}_white", _("Fill in the sets in order."))
            sets.append(
                {
                    "white_store": w, "black_store": b,
                    "termination": data.get(f"set{i}_termination") or SetResult.Termination.COMPLETED,
                    "moves": data.get(f"set{i}_moves") or "",
                }
            )
        data["sets"] = sets
        if not sets and not data.get("forfeit") and not self.errors:
            raise forms.ValidationError(_("Enter at least one set, or choose a forfeit."))
        return data


class TournamentEditForm(forms.Form):
    """Edit a tournament's settings (services.tournament_update); the tie-break order as up to six
    choices, offered until round 1 is paired (staff: always)."""

    TEXT = ("name", "venue", "city", "chief_arbiter", "time_control")

    name = forms.CharField(label=_("Name"), max_length=160)
    start_date = forms.DateField(label=_("Start date"), required=False, widget=forms.DateInput(attrs={"type": "date"}))
    end_date = forms.DateField(label=_("End date"), required=False, widget=forms.DateInput(attrs={"type": "date"}))
    venue = forms.CharField(label=_("Venue"), max_length=160, required=False)
    city = forms.CharField(label=_("City"), max_length=60, required=False)
    chief_arbiter = forms.CharField(label=_("Chief arbiter"), max_length=120, required=False)
    time_control = forms.CharField(label=_("Time control"), max_length=120, required=False)
    rounds_total = forms.IntegerField(label=_("Number of rounds"), min_value=1, max_value=99)
    acceleration = forms.ChoiceField(label=_("Accelerated pairing"), choices=ACCELERATION_CHOICES,
                                     help_text=ACCELERATION_HELP)
    tiebreak_rules = forms.ChoiceField(label=_("Tie-break rules text"), choices=Tournament.TiebreakRules.choices,
                                       help_text=TIEBREAK_RULES_HELP)
    second_cycle_swap = forms.BooleanField(
        label=_("Swap the last two rounds of the first cycle"), required=False,
        help_text=Tournament._meta.get_field("second_cycle_swap").help_text,
    )
    reason = forms.CharField(label=_("Reason (optional, recorded in the history)"), max_length=500, required=False)

    SETTINGS = ("acceleration", "tiebreak_rules", "second_cycle_swap")

    def __init__(self, *args, tournament: Tournament, lang: str = "tr", tiebreaks_editable: bool | None = None, **kwargs):
        self.tournament = tournament
        initial = {f: getattr(tournament, f) for f in (*self.TEXT, "start_date", "end_date", "rounds_total",
                                                        *self.SETTINGS)}
        current = list(tournament.tiebreaks or [])
        for i in range(TournamentForm.TIEBREAK_SLOTS):
            initial[f"tiebreak_{i + 1}"] = current[i] if i < len(current) else ""
        kwargs.setdefault("initial", initial)
        super().__init__(*args, **kwargs)
        self.lang = lang
        if tiebreaks_editable is None:
            tiebreaks_editable = not tournament.rounds.exists()
        self.tiebreaks_editable = tiebreaks_editable
        choices = [("", "—")] + [(k, tiebreak_label(k, lang)) for k in sorted(TIEBREAKS)]
        for i in range(TournamentForm.TIEBREAK_SLOTS):
            self.fields[f"tiebreak_{i + 1}"] = forms.ChoiceField(
                label=_("Tie-break %(n)d") % {"n": i + 1}, choices=choices, required=False,
                disabled=not tiebreaks_editable,
            )
        if tournament.system == Tournament.System.ROUND_ROBIN:
            self.fields["rounds_total"].disabled = True
        paired = tournament.rounds.exists()
        acc = self.fields["acceleration"]
        if tournament.acceleration == Tournament.Acceleration.MANUAL:
            # virtual points per player from an imported file: shown, not chosen here
            acc.choices = [(Tournament.Acceleration.MANUAL, Tournament.Acceleration.MANUAL.label), *acc.choices]
            acc.disabled = True
        if tournament.system == Tournament.System.ROUND_ROBIN:
            del self.fields["acceleration"]  # a round robin's pairings are the Berger tables
        elif paired:
            acc.disabled = True
            acc.help_text = _("Fixed once round 1 is paired (FIDE C.04.5.1).")
        if not (tournament.system == Tournament.System.ROUND_ROBIN and tournament.double_round_robin):
            del self.fields["second_cycle_swap"]
        if tournament.system == Tournament.System.KNOCKOUT:  # issue 14
            del self.fields["acceleration"]
            self.fields["rounds_total"].disabled = True  # follows from the bracket
            self.fields["rounds_total"].help_text = KNOCKOUT_ROUNDS_HELP
            self.fields["third_place_match"] = forms.BooleanField(
                label=_("Match for third place"), required=False, initial=tournament.third_place_match,
                help_text=THIRD_PLACE_HELP)
            self.fields["level_match_rule"] = forms.ChoiceField(
                label=_("A level knockout match"), choices=Tournament.LevelMatchRule.choices,
                initial=tournament.level_match_rule)
            self.fields["max_deciders"] = forms.IntegerField(
                label=_("Decider sets before the higher seed advances"), min_value=0, max_value=9, required=False,
                initial=tournament.max_deciders)
            add_knockout_fields(self, tournament=tournament)
        self.order_fields([f for f in self.fields if f != "reason"] + ["reason"])

    def changes(self, data: dict) -> dict:
        """The settings that differ from the tournament's, as services.tournament_update keywords."""
        out = {}
        for f in self.SETTINGS:
            if f in self.fields and not self.fields[f].disabled and f in data \
                    and data[f] != getattr(self.tournament, f):
                out[f] = data[f]
        for f in (*self.TEXT, "start_date", "end_date", "rounds_total"):
            if f in data and data[f] != getattr(self.tournament, f):
                out[f] = data[f]
        if "knockout_sets" in self.fields:  # a knockout's settings (tournaments.knockout.settings.clean_changes)
            text = ", ".join(str(n) for n in self.tournament.knockout_sets or [])
            if (data.get("knockout_sets") or "").strip() != text:
                out["knockout_sets"] = data.get("knockout_sets") or ""
            for f in ("third_place_match", "level_match_rule", "max_deciders"):
                value = data.get(f) if f != "max_deciders" else (data.get(f) or 0)
                if f in data and value != getattr(self.tournament, f):
                    out[f] = value
        if self.tiebreaks_editable:
            keys = [data.get(f"tiebreak_{i + 1}") for i in range(TournamentForm.TIEBREAK_SLOTS)]
            keys = [k for k in keys if k]
            if keys != list(self.tournament.tiebreaks or []):
                out["tiebreaks"] = keys
        return out


class TournamentDeleteForm(forms.Form):
    """Confirm deleting a tournament: its short name typed again and a reason."""

    confirm = forms.CharField(label=_("Type the short name of the tournament to confirm"), max_length=80)
    reason = forms.CharField(label=_("Reason"), max_length=500)


class ForbiddenPairForm(forms.Form):
    """Add a forbidden pair: two players of the tournament (by starting number), an optional round range
    and the reason (tournaments.rounds.services.forbidden_pair_add)."""

    first = forms.TypedChoiceField(label=_("Player"), coerce=int)
    second = forms.TypedChoiceField(label=_("Other player"), coerce=int)
    first_round = forms.IntegerField(label=_("From round"), min_value=1, max_value=99)
    last_round = forms.IntegerField(
        label=_("To round (optional)"), min_value=1, max_value=99, required=False,
        help_text=_("Blank: to the end of the tournament."),
    )
    reason = forms.CharField(
        label=_("Reason"), max_length=200, required=False,
        help_text=_("E.g. siblings, or club mates in the first rounds (recorded in the history)."),
    )

    def __init__(self, *args, tournament: Tournament, next_round: int = 1, **kwargs):
        kwargs.setdefault("initial", {"first_round": next_round})
        super().__init__(*args, **kwargs)
        entries = tournament.entries.select_related("player").order_by("start_no")
        choices = [("", "—")] + [(e.start_no, f"{e.start_no}. {e.player.full_name}") for e in entries]
        self.fields["first"].choices = choices
        self.fields["second"].choices = choices
        for name in ("first_round", "last_round"):
            self.fields[name].widget.attrs.update({"min": 1, "max": tournament.rounds_total, "inputmode": "numeric"})
