"""Input and output serializers of the tournaments API (:mod:`tournaments.api`).

Input serializers only check shapes and types; the rules (odd sets per match, Kural 14.5
withdrawals, who may do what) are checked by :mod:`tournaments.services`. Output serializers read
model rows and the selectors' dataclasses. Points are match points 1 / 0.5 / 0 as JSON numbers.
"""
from __future__ import annotations

from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from tournaments.models import CoinToss, Entry, ForbiddenPair, Match, Round, SetResult, Tournament

# --------------------------------------------------------------------------------------------
# Inputs
# --------------------------------------------------------------------------------------------


class TournamentFilterSerializer(serializers.Serializer):
    """Query parameters of the tournament list (all optional)."""

    status = serializers.ChoiceField(choices=Tournament.Status.choices, required=False)
    system = serializers.ChoiceField(choices=Tournament.System.choices, required=False)
    year = serializers.IntegerField(min_value=1900, max_value=2100, required=False, help_text="Year of the start date.")


@extend_schema_field({"type": "integer", "minimum": 1, "maximum": 99})
class _RoundsTotalField(serializers.IntegerField):
    """An integer whose schema states the 1..99 that ``tournament_create`` checks (400 with field
    ``rounds_total`` and its own message)."""


def _tiebreak_keys() -> list[str]:
    from tournaments.standings.tiebreaks import TIEBREAKS

    return sorted(TIEBREAKS)


@extend_schema_field({"type": "array", "items": {"type": "string", "enum": _tiebreak_keys()}, "uniqueItems": True,
                      "maxItems": 12})
class _TiebreaksField(serializers.ListField):
    """Ordered tie-break keys: the schema states what ``tournaments.services._check_tiebreaks`` checks (a
    key of ``tournaments.standings.TIEBREAKS``, none twice; else 400 with field ``tiebreaks``)."""


@extend_schema_field({"type": "array", "items": {"$ref": "#/components/schemas/SetsPerMatchEnum"}, "maxItems": 12})
class _KnockoutSetsField(serializers.ListField):
    """Planned sets of each knockout round: the schema states what ``tournaments.knockout.settings.clean_knockout_sets``
    checks (1, 3, 5 or 7 each, at most 12 rounds). The item is the ``SetsPerMatchEnum`` component
    (``sets_per_match``'s enum, hoisted by ``postprocess_schema_enums``)."""


@extend_schema_field({"type": "integer", "enum": [1, 3, 5, 7]})
class _SetsPerMatchField(serializers.IntegerField):
    """An integer whose schema states the odd 1, 3, 5 or 7 that ``tournament_create`` checks."""


#: What a new tournament may choose (``manual``: virtual points per player, only from an imported TRF file;
#: ``tournament_create`` refuses it with 400, field ``acceleration``).
CREATE_ACCELERATION_CHOICES = [c for c in Tournament.Acceleration.choices if c[0] != Tournament.Acceleration.MANUAL]


class TournamentCreateInputSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=160)
    rounds_total = _RoundsTotalField(
        help_text="Number of rounds, 1..99; a knockout's follow from its bracket (the number given is replaced: "
                  "the answer's rounds_total).",
    )
    system = serializers.ChoiceField(choices=Tournament.System.choices, default=Tournament.System.SWISS)
    start_date = serializers.DateField(required=False, allow_null=True, default=None)
    end_date = serializers.DateField(required=False, allow_null=True, default=None)
    city = serializers.CharField(max_length=60, required=False, allow_blank=True, default="")
    venue = serializers.CharField(max_length=160, required=False, allow_blank=True, default="")
    sets_per_match = _SetsPerMatchField(default=3, help_text="Odd: 1, 3 (default), 5 or 7.")
    variant = serializers.ChoiceField(choices=Tournament.Variant.choices, default=Tournament.Variant.FEDERATION)
    tiebreaks = _TiebreaksField(
        child=serializers.CharField(), required=False, allow_null=True, default=None, max_length=12,
        help_text="Ordered tie-break keys (tournaments.standings.TIEBREAKS); default: the federation's order.",
    )
    double_round_robin = serializers.BooleanField(default=False)
    acceleration = serializers.ChoiceField(
        choices=CREATE_ACCELERATION_CHOICES,
        default=Tournament.Acceleration.NONE,
        help_text="Accelerated pairing of a Swiss: none (default) or baku (FIDE C.04.5.1); "
        "manual comes only from an imported TRF file.",
    )
    tiebreak_rules = serializers.ChoiceField(
        choices=Tournament.TiebreakRules.choices, default=Tournament.TiebreakRules.AUTO,
        help_text="FIDE C.07 text of the tie-breaks: auto (default: 2026 for events starting on or after "
        "1 March 2026, else 2023), 2023 or 2026.",
    )
    second_cycle_swap = serializers.BooleanField(
        default=True, help_text="Double round robin: swap the last two rounds of the first cycle (C.05 Annex 1).",
    )
    # knockout sections (issue 14; tournaments.knockout.settings.clean_settings)
    knockout_sets = _KnockoutSetsField(
        child=serializers.IntegerField(), required=False, default=list, max_length=12,
        help_text="Knockout: planned sets of each round's matches (1, 3, 5 or 7), round 1 first; empty: "
        "sets_per_match for every round.",
    )
    third_place_match = serializers.BooleanField(default=False, help_text="Knockout: a match for third place.")
    level_match_rule = serializers.ChoiceField(
        choices=Tournament.LevelMatchRule.choices, default=Tournament.LevelMatchRule.DECIDERS,
        help_text="Knockout, a level match (RULES.md): deciders (decider sets until one is won), higher_seed, or "
        "deciders_then_seed (max_deciders decider sets, then the higher seed).",
    )
    max_deciders = serializers.IntegerField(default=0, min_value=0, max_value=9)
    qualified_from = serializers.SlugRelatedField(
        slug_field="slug", queryset=Tournament.objects.all(), required=False, allow_null=True, default=None,
        help_text="Knockout final stage: the slug of the Swiss (or round robin) its players qualify from.",
    )
    qualifiers = serializers.IntegerField(
        required=False, allow_null=True, default=None, min_value=2, max_value=4096,
        help_text="Knockout final stage: how many of the earlier stage's top players qualify (seeded by its final "
        "standings).",
    )


class _FormBooleanField(serializers.BooleanField):
    """A boolean whose default also applies when a multipart form leaves it out (DRF's BooleanField reads
    a missing form field as false)."""

    default_empty_html = serializers.empty


class TrfImportInputSerializer(serializers.Serializer):
    file = serializers.FileField(help_text="A TRF-16 file (UTF-8 or Latin-1).")
    name = serializers.CharField(max_length=160, required=False, allow_blank=True, default="",
                                 help_text="Tournament name; default: the file's 012 line.")
    system = serializers.ChoiceField(
        choices=Tournament.System.choices, required=False, allow_blank=True, default="",
        help_text="swiss or round_robin; default: what the file's 092 line says. Required when the file has no "
        "092 line or one that is neither (400 with field \"system\" otherwise).",
    )
    publish = _FormBooleanField(
        default=True, help_text="Publish the standings of a finished event after its last round (default true).",
    )
    match_players = _FormBooleanField(
        default=True, help_text="Reuse a known player with the same name, birth year and federation/club code for "
        "a line without FIDE id (default true); false registers every such line as a new player.",
    )
    player_matches = serializers.JSONField(
        required=False, default=None,
        help_text='Per line: {"<start no>": "<federation id>" or null}: the known player to use, or null for a '
        "new player (JSON text in a multipart form). For a line with a FIDE id that belongs to a stored player "
        "with another name or birth year (how \"conflict\" in a dry run; otherwise 400 with field "
        '"player_matches"), give that FIDE id to confirm that they are the same person.',
    )
    player_values = serializers.JSONField(
        required=False, default=None,
        help_text='Per line: {"<start no>": "stored" | "file" | "new"}: for a stored player whose sex or birth year '
        'differs from the file ("differs" in a dry run; otherwise 400 with field "player_values"), keep the stored '
        "values, take the file's, or register a new player (JSON text in a multipart form).",
    )
    dry_run = _FormBooleanField(
        default=False, help_text="Preview: run the import and roll it back; 200 with the report (slug null).",
    )

    def validate_player_values(self, value):
        if value in (None, ""):
            return None
        if not isinstance(value, dict):
            raise serializers.ValidationError(_("An object of starting numbers and stored, file or new."))
        out = {}
        for key, choice in value.items():
            if not str(key).isdecimal() or not 1 <= int(key) <= 9999:
                raise serializers.ValidationError(_("%(key)s is not a starting number.") % {"key": repr(str(key)[:20])})
            if choice not in ("stored", "file", "new"):
                raise serializers.ValidationError(_("Starting number %(no)d: the choice is stored, file or new.")
                                                  % {"no": int(key)})
            out[int(key)] = choice
        return out

    def validate_player_matches(self, value):
        if value in (None, ""):
            return None
        if not isinstance(value, dict):
            raise serializers.ValidationError(_("An object of starting numbers and federation ids (or null)."))
        out = {}
        for key, fed_id in value.items():
            if not str(key).isdecimal() or not 1 <= int(key) <= 9999:
                raise serializers.ValidationError(_("%(key)s is not a starting number.") % {"key": repr(str(key)[:20])})
            if fed_id is not None and (not isinstance(fed_id, str) or len(fed_id) > 20):
                raise serializers.ValidationError(_("%(key)s: a federation id (text) or null.") % {"key": key})
            out[int(key)] = fed_id or None
        return out


class EntryAddInputSerializer(serializers.Serializer):
    federation_id = serializers.CharField(max_length=20)
    missed_rounds = serializers.ChoiceField(
        choices=["half", "zero"], default="zero",
        help_text="A late entrant's bye for each round already played: zero (default) or half a point.",
    )


class ReasonInputSerializer(serializers.Serializer):
    reason = serializers.CharField(max_length=500, required=False, allow_blank=True, default="",
                                   help_text="Why (recorded in the history).")


class RequiredReasonInputSerializer(serializers.Serializer):
    reason = serializers.CharField(max_length=500, help_text="Why (mandatory; recorded in the history).")


class ByeRequestInputSerializer(serializers.Serializer):
    start_no = serializers.IntegerField(min_value=1, max_value=9999)
    round_number = serializers.IntegerField(min_value=1, max_value=99)
    kind = serializers.ChoiceField(choices=["half", "zero"], default="half")


class TournamentUpdateInputSerializer(serializers.Serializer):
    """Any subset of the editable settings (services.EDITABLE_SETTINGS) and an optional reason."""

    name = serializers.CharField(max_length=160, required=False)
    start_date = serializers.DateField(required=False, allow_null=True)
    end_date = serializers.DateField(required=False, allow_null=True)
    venue = serializers.CharField(max_length=160, required=False, allow_blank=True)
    city = serializers.CharField(max_length=60, required=False, allow_blank=True)
    chief_arbiter = serializers.CharField(max_length=120, required=False, allow_blank=True)
    time_control = serializers.CharField(max_length=120, required=False, allow_blank=True)
    tiebreaks = _TiebreaksField(child=serializers.CharField(max_length=40), required=False, max_length=12)
    rounds_total = serializers.IntegerField(min_value=1, max_value=99, required=False)
    acceleration = serializers.ChoiceField(
        choices=Tournament.Acceleration.choices, required=False,
        help_text="none or baku, until round 1 is paired (FIDE C.04.5.1); manual only stays as a file set it.",
    )
    tiebreak_rules = serializers.ChoiceField(
        choices=Tournament.TiebreakRules.choices, required=False,
        help_text="FIDE C.07 text of the tie-breaks (any time): auto, 2023 or 2026.",
    )
    second_cycle_swap = serializers.BooleanField(
        required=False, help_text="Double round robin: until a round it decides is paired.",
    )
    reason = serializers.CharField(max_length=500, required=False, allow_blank=True, default="")

    def validate(self, attrs):
        unknown = sorted(set(getattr(self, "initial_data", {}) or {}) - set(self.fields))
        if unknown:
            raise serializers.ValidationError({unknown[0]: "This setting cannot be changed here."})
        return attrs


class TournamentDeleteInputSerializer(serializers.Serializer):
    confirm = serializers.CharField(max_length=80, help_text="The tournament's slug, typed again.")
    reason = serializers.CharField(max_length=500, help_text="Why (mandatory; recorded in the history).")


class ForbiddenPairInputSerializer(serializers.Serializer):
    """A forbidden pair: two starting numbers and the rounds it applies to."""

    first = serializers.IntegerField(min_value=1, max_value=9999, help_text="Starting number of one player.")
    second = serializers.IntegerField(min_value=1, max_value=9999, help_text="Starting number of the other player.")
    first_round = serializers.IntegerField(
        min_value=1, max_value=99, required=False, allow_null=True, default=None,
        help_text="First round it applies to; default: the next round to pair (a paired round never changes).",
    )
    last_round = serializers.IntegerField(
        min_value=1, max_value=99, required=False, allow_null=True, default=None,
        help_text="Last round it applies to; null (default): to the end.",
    )
    reason = serializers.CharField(max_length=200, required=False, allow_blank=True, default="",
                                   help_text="Why (e.g. siblings); recorded in the history.")


class HistoryItemSerializer(serializers.Serializer):
    at = serializers.DateTimeField()
    user = serializers.CharField(allow_null=True, help_text="Display name of who did it (null: the system).")
    action = serializers.CharField(help_text='e.g. "result.enter", "result.correct", "round.pair", "round.delete".')
    object = serializers.CharField(help_text='What changed, e.g. "Round 3, board 1".')
    reason = serializers.CharField(allow_blank=True)
    before = serializers.JSONField(allow_null=True, help_text="Changed fields before (null: created).")
    after = serializers.JSONField(allow_null=True, help_text="Changed fields after (null: deleted).")
    round = serializers.IntegerField(allow_null=True)
    board = serializers.IntegerField(allow_null=True)


class RoundPairInputSerializer(serializers.Serializer):
    coin_seed = serializers.CharField(
        max_length=64, required=False, allow_blank=True, default="",
        help_text="Round 1 only: seed of the recorded coin toss (Kural 5); random when empty. "
        "SHA-256(seed), first byte even → the top seed is white on board 1.",
    )


class SetInputSerializer(serializers.Serializer):
    """One set as the referee enters it (services.SetInput)."""

    white_store = serializers.IntegerField(min_value=0, max_value=48,
                                           help_text="Stones in the match's white player's store.")
    black_store = serializers.IntegerField(min_value=0, max_value=48)
    termination = serializers.CharField(
        default=SetResult.Termination.COMPLETED, allow_blank=True,
        help_text="completed, white_withdrew or black_withdrew (Kural 14.5).",
    )
    moves = serializers.CharField(default="", allow_blank=True, help_text='Optional record: "4 1 3 …".')


class MatchResultInputSerializer(serializers.Serializer):
    sets = SetInputSerializer(many=True, required=False, default=list)
    forfeit = serializers.CharField(default="", allow_blank=True, help_text="white, black or both: who did not appear.")
    version = serializers.IntegerField(
        required=False, allow_null=True, default=None, min_value=1,
        help_text="The match version you saw (or send If-Match). Required once the board has a result "
        "(missing → 428); an old one → 409 with the current result.",
    )
    reason = serializers.CharField(
        max_length=500, required=False, allow_blank=True, default="",
        help_text="Mandatory to correct a result of a closed round (organisers only); recorded in the history.",
    )
    decider_starter = serializers.ChoiceField(
        choices=["white", "black"], required=False, allow_blank=True, default="",
        help_text="Knockout: who starts the first decider set, as drawn by lot at the table (blank: drawn by the "
        "system when the match is level); later deciders alternate (RULES.md \"Knockout matches\").",
    )


# --------------------------------------------------------------------------------------------
# Outputs
# --------------------------------------------------------------------------------------------


class PointsField(serializers.FloatField):
    """Match points as a JSON number (1, 0.5, 0) or null."""

    def __init__(self, **kwargs):
        kwargs.setdefault("allow_null", True)
        kwargs.setdefault("read_only", True)
        super().__init__(**kwargs)


class EntryOutputSerializer(serializers.ModelSerializer):
    """An entry. ``birth_year`` and ``sex`` only for the event's organisers and staff (``context``
    ``{"personal": True}``); everyone sees ``age_category`` (KVKK: :mod:`federation.privacy`)."""

    federation_id = serializers.CharField(source="player.federation_id")
    name = serializers.CharField(source="player.full_name")
    club = serializers.SerializerMethodField()
    age_category = serializers.SerializerMethodField(
        help_text='Age group this year ("u12", "open", "50plus"…); null: birth year unknown.'
    )
    birth_year = serializers.IntegerField(source="player.birth_year", allow_null=True, required=False,
                                          help_text="Organisers of the event and staff only (omitted for others).")
    sex = serializers.CharField(source="player.sex", required=False,
                                help_text="Organisers of the event and staff only (omitted for others).")

    class Meta:
        model = Entry
        fields = ["start_no", "federation_id", "name", "club", "rating", "age_category", "birth_year", "sex",
                  "withdrawn", "withdrawn_after_round"]

    def get_club(self, entry: Entry) -> str:
        player = entry.player
        return player.club.name if player.club_id else player.city

    def get_age_category(self, entry: Entry) -> str | None:
        from federation.privacy import age_category

        return age_category(entry.player.birth_year)

    def to_representation(self, instance):
        from federation.privacy import public_player_fields

        return public_player_fields(super().to_representation(instance), personal=bool(self.context.get("personal")))


class RoundSummarySerializer(serializers.ModelSerializer):
    class Meta:
        model = Round
        fields = ["number", "status", "paired_at", "published_at", "closed_at", "modified_by_hand"]


#: ``format`` of a tournament in the API: individual players, or teams (team championships, issue 14).
TOURNAMENT_FORMATS = Tournament.Format.choices


class TournamentListOutputSerializer(serializers.ModelSerializer):
    n_entries = serializers.IntegerField(read_only=True)
    format = serializers.SerializerMethodField(
        help_text='"individual" (players); "team": a team championship (GET .../teams/; its standings rows are teams '
        'with match_points and board_points).'
    )
    event = serializers.SlugRelatedField(
        slug_field="slug", read_only=True, allow_null=True,
        help_text="The slug of the multi-section event this tournament is a section of (GET /api/events/{slug}/), "
        "or null.",
    )

    class Meta:
        model = Tournament
        fields = ["slug", "name", "start_date", "end_date", "city", "system", "format", "event", "rounds_total",
                  "status", "n_entries"]

    @extend_schema_field(serializers.ChoiceField(choices=TOURNAMENT_FORMATS))
    def get_format(self, t: Tournament) -> str:
        return t.format or "individual"


class CategoryOutputSerializer(serializers.Serializer):
    """A category ranking of the tournament (issue 14): ``code`` is what ``?category=`` takes."""

    code = serializers.CharField(help_text="E.g. U12, KIZ; GET .../standings/?category=CODE ranks its members.")
    name = serializers.CharField()
    kind = serializers.ChoiceField(
        choices=["age", "girls", "boys", "unrated", "rating", "club", "city"],
        help_text="age (born in or after the year − max age: U12 = under 12 on 1 January), girls, boys, unrated "
        "(rating 0 at entry), rating (a band of the rating at entry), club, city.",
    )


class TournamentDetailOutputSerializer(serializers.ModelSerializer):
    """A tournament with its entries and the rounds the user may see (passed in ``context``)."""

    bye_points = PointsField()
    standings_published = serializers.BooleanField(read_only=True)
    entries = serializers.SerializerMethodField()
    rounds = serializers.SerializerMethodField()
    tiebreak_rules_applied = serializers.SerializerMethodField(
        help_text='The FIDE C.07 text the standings follow: "2023" or "2026" (tiebreak_rules, or by the dates).'
    )
    categories = serializers.SerializerMethodField(
        help_text="The category rankings (age groups, girls, unrated, …) in order; GET .../standings/?category=CODE."
    )

    class Meta:
        model = Tournament
        fields = [
            "slug", "name", "start_date", "end_date", "venue", "city", "system", "format", "boards_per_team",
            "rounds_total", "double_round_robin", "second_cycle_swap", "sets_per_match", "variant", "tiebreaks", "tiebreak_rules",
            "tiebreak_rules_applied", "acceleration", "bye_points", "status",
            "standings_published", "standings_published_at", "chief_arbiter", "time_control",
            "imported_from_trf", "version", "archived_at", "entries", "rounds", "categories",
        ]

    @extend_schema_field(EntryOutputSerializer(many=True))
    def get_entries(self, t: Tournament) -> list[dict]:
        entries = t.entries.select_related("player__club").order_by("start_no")
        return EntryOutputSerializer(entries, many=True, context=self.context).data

    @extend_schema_field(RoundSummarySerializer(many=True))
    def get_rounds(self, t: Tournament) -> list[dict]:
        return RoundSummarySerializer(self.context.get("rounds", []), many=True).data

    def get_tiebreak_rules_applied(self, t: Tournament) -> str:
        from tournaments.selectors import tiebreak_rules_for

        return tiebreak_rules_for(t)

    @extend_schema_field(CategoryOutputSerializer(many=True))
    def get_categories(self, t: Tournament) -> list[dict]:
        from tournaments.prizes.selectors import category_infos

        return [{"code": c.code, "name": c.name, "kind": c.kind} for c in category_infos(tournament=t)]


class ImportPlayerSerializer(serializers.Serializer):
    """How one player line got its player (``tournaments.trf.players.PlayerChoice``)."""

    line = serializers.IntegerField()
    start_no = serializers.IntegerField()
    name = serializers.CharField()
    federation_id = serializers.CharField(help_text="The player used (after a dry run: proposed; a new player's id "
                                          "changes).")
    how = serializers.ChoiceField(
        choices=["fide_id", "matched", "chosen", "new", "conflict"],
        help_text="fide_id: the player with the line's FIDE id; matched: a known player with the same name, birth "
        "year and code; chosen: as player_matches said; new: registered by the import; conflict (dry run only): "
        "the line's FIDE id belongs to a stored player with another name or birth year — the import is refused "
        'unless player_matches confirms it ({"<start no>": "<that FIDE id>"}).',
    )
    candidates = serializers.IntegerField(help_text="Known players with the line's name, birth year and code.")
    candidate_ids = serializers.ListField(
        child=serializers.CharField(), required=False,
        help_text="Their federation ids (to choose one with player_matches).",
    )
    conflict = serializers.CharField(
        allow_null=True, required=False,
        help_text="Why the line's FIDE id looks like another person's (also when confirmed); null when it does not.",
    )
    differs = serializers.CharField(
        allow_null=True, required=False,
        help_text="The stored player's sex or birth year that differs from the file (naming the line and field); "
        "null when none differs. Choose with player_values.",
    )
    value = serializers.CharField(
        allow_null=True, required=False,
        help_text="The player_values choice applied for this line: stored, file or new; null when none.",
    )


class ImportOutputSerializer(serializers.Serializer):
    slug = serializers.CharField(allow_null=True, help_text="The new tournament; null after a dry run.")
    name = serializers.CharField()
    system = serializers.CharField()
    status = serializers.CharField()
    published = serializers.BooleanField(help_text="The standings are public.")
    dry_run = serializers.BooleanField(help_text="Nothing was imported: the report says what would be.")
    rounds = serializers.IntegerField(help_text="Rounds imported (all closed).")
    entries = serializers.IntegerField()
    notes = serializers.ListField(child=serializers.CharField(),
                                  help_text="One line per inference, match or value not kept.")
    players = ImportPlayerSerializer(many=True)


class TrfImportErrorSerializer(serializers.Serializer):
    code = serializers.CharField()
    message = serializers.CharField(help_text="Why; for a file that cannot be read, with the line number.")
    field = serializers.CharField(allow_null=True)


class TrfImportJobSerializer(serializers.Serializer):
    """The answer to a TRF file imported by a job (202): where to follow it."""

    job = serializers.IntegerField(help_text="Id of the import job.")
    status = serializers.ChoiceField(choices=["queued", "running", "done", "failed"])
    status_url = serializers.CharField(help_text="GET it for the progress: /api/tournaments/import-trf/<job>/.")


class TrfImportStatusSerializer(serializers.Serializer):
    """A TRF import job: status, progress and, when done, the tournament; when failed, the error."""

    job = serializers.IntegerField()
    status = serializers.ChoiceField(choices=["queued", "running", "done", "failed"])
    progress = serializers.IntegerField(help_text="0..100 (100 once finished).")
    players = serializers.IntegerField(help_text="Player lines in the file.")
    cells = serializers.IntegerField(help_text="Round cells in the file.")
    source = serializers.CharField()
    created_at = serializers.DateTimeField()
    finished_at = serializers.DateTimeField(allow_null=True)
    slug = serializers.CharField(allow_null=True, help_text="The new tournament, once done.")
    notes = serializers.ListField(child=serializers.CharField())
    error = TrfImportErrorSerializer(allow_null=True, help_text="Why it failed (nothing was imported).")


class PlayerRefSerializer(serializers.Serializer):
    start_no = serializers.IntegerField()
    name = serializers.CharField(source="player.full_name")
    federation_id = serializers.CharField(source="player.federation_id")


class ForbiddenPairOutputSerializer(serializers.ModelSerializer):
    """A forbidden pair; ``last_round`` null: to the end of the tournament."""

    first = PlayerRefSerializer()
    second = PlayerRefSerializer()
    created_by = serializers.SerializerMethodField(help_text="Who added it (display name); null: not recorded.")

    class Meta:
        model = ForbiddenPair
        fields = ["id", "first", "second", "first_round", "last_round", "reason", "created_at", "created_by"]

    def get_created_by(self, pair: ForbiddenPair) -> str | None:
        from federation.privacy import display_name

        return display_name(pair.created_by) if pair.created_by_id else None


class SetOutputSerializer(serializers.ModelSerializer):
    """A recorded set: ``white_stones``/``black_stones`` after Kural 14.5 (sum 48); the stores at a
    withdrawal in ``white_store``/``black_store``."""

    class Meta:
        model = SetResult
        fields = [
            "number", "starter", "white_stones", "black_stones", "termination", "white_store", "black_store", "moves",
        ]


def result_text(m: Match) -> str:
    """``1-0``, ``½-½``, ``0-1``; forfeits ``+/-``, ``-/+``, ``-/-``; a bye ``1``/``½``/``0``; empty before a result."""
    if m.kind == Match.Kind.BYE:
        return {1.0: "1", 0.5: "½", 0.0: "0"}[float(m.white_points or 0)]
    if m.forfeit:
        return {"white": "-/+", "black": "+/-", "both": "-/-"}[m.forfeit]
    if m.white_points is None:
        return ""
    return {1.0: "1-0", 0.5: "½-½", 0.0: "0-1"}[float(m.white_points)]


class BoardOutputSerializer(serializers.ModelSerializer):
    white = PlayerRefSerializer()
    black = PlayerRefSerializer(allow_null=True)
    white_points = PointsField()
    black_points = PointsField()
    result = serializers.SerializerMethodField()
    sets = SetOutputSerializer(many=True)

    class Meta:
        model = Match
        fields = ["board", "kind", "bye_kind", "white", "black", "forfeit", "white_points", "black_points",
                  "result", "rated", "sets", "version"]

    def get_result(self, m: Match) -> str:
        return result_text(m)


class CoinTossOutputSerializer(serializers.ModelSerializer):
    tossed_by = serializers.SerializerMethodField(
        help_text='Who pressed: first and last name, "—" for an account without a name (never the user name); '
                  "null: not recorded."
    )

    def get_tossed_by(self, toss: CoinToss) -> str | None:
        from federation.privacy import display_name

        return display_name(toss.tossed_by) if toss.tossed_by_id else None

    class Meta:
        model = CoinToss
        fields = ["seed", "outcome", "tossed_at", "tossed_by"]


class RoundOutputSerializer(serializers.ModelSerializer):
    """A round's pairing list; ``coin_toss`` only in round 1 (``boards`` passed in ``context``)."""

    coin_toss = serializers.SerializerMethodField()
    boards = serializers.SerializerMethodField()

    class Meta:
        model = Round
        fields = [
            "number", "status", "paired_at", "published_at", "closed_at", "modified_by_hand", "coin_toss", "boards",
        ]

    @extend_schema_field(CoinTossOutputSerializer(allow_null=True))
    def get_coin_toss(self, r: Round) -> dict | None:
        toss = getattr(r, "coin_toss", None)
        return CoinTossOutputSerializer(toss).data if toss is not None else None

    @extend_schema_field(BoardOutputSerializer(many=True))
    def get_boards(self, r: Round) -> list[dict]:
        return BoardOutputSerializer(self.context.get("boards", []), many=True).data


class MatchResultOutputSerializer(serializers.ModelSerializer):
    white_points = PointsField()
    black_points = PointsField()
    decided = serializers.SerializerMethodField()
    result = serializers.SerializerMethodField()
    sets = SetOutputSerializer(many=True)

    class Meta:
        model = Match
        fields = ["board", "white_points", "black_points", "decided", "result", "forfeit", "rated", "sets", "version"]

    def get_decided(self, m: Match) -> bool:
        return m.white_points is not None

    def get_result(self, m: Match) -> str:
        return result_text(m)


def _int_or_none(value):
    return None if value is None else int(value)


def match_result_data(m: Match) -> dict:
    """``MatchResultOutputSerializer(m).data`` as a plain dict, field for field, without building the
    serializer's fields from the models on every call (the answer to every result POST; issue 22). The
    sets are ``m.sets.all()`` (prefetched or remembered by the service: no query then).
    tests/tournaments/results/test_result_write_queries.py holds the two equal."""
    return {
        "board": int(m.board),
        "white_points": None if m.white_points is None else float(m.white_points),
        "black_points": None if m.black_points is None else float(m.black_points),
        "decided": m.white_points is not None,
        "result": result_text(m),
        "forfeit": str(m.forfeit),
        "rated": bool(m.rated),
        "sets": [
            {"number": int(x.number), "starter": str(x.starter), "white_stones": int(x.white_stones),
             "black_stones": int(x.black_stones), "termination": str(x.termination),
             "white_store": _int_or_none(x.white_store), "black_store": _int_or_none(x.black_store),
             "moves": str(x.moves)}
            for x in m.sets.all()
        ],
        "version": int(m.version),
    }


class TiebreakColumnSerializer(serializers.Serializer):
    key = serializers.CharField()
    label = serializers.CharField()


class StandingRowSerializer(serializers.Serializer):
    """One row (``selectors.standings_as_dicts``); plus one number per tie-break, keyed by its key."""

    rank = serializers.IntegerField()
    shared = serializers.BooleanField()
    start_no = serializers.IntegerField()
    name = serializers.CharField()
    club = serializers.CharField()
    rating = serializers.IntegerField()
    points = serializers.FloatField()
    withdrawn = serializers.BooleanField()
    official_rank = serializers.IntegerField(
        allow_null=True, help_text="The rank an imported TRF file published (its own tie-break rules, not known); "
        "null when the entry was not imported.",
    )
    overall_rank = serializers.IntegerField(
        required=False, help_text="With ?category=: the rank in the whole field (rank is then the rank within the "
        "category); absent otherwise.",
    )


class StandingsOutputSerializer(serializers.Serializer):
    category = CategoryOutputSerializer(
        allow_null=True, required=False,
        help_text="The category asked for with ?category= (rows are its members, ranked within it); null: every "
        "player.",
    )
    rounds = serializers.IntegerField(help_text="Standings after this round.")
    published_at = serializers.DateTimeField(allow_null=True)
    tiebreak_rules = serializers.CharField(
        help_text='The FIDE C.07 text applied: "2023" or "2026" (with the amendment of 1 March 2026, capped '
        "dummy opponents); chosen by the organiser or by the event's dates.",
    )
    tiebreak_rules_text = serializers.CharField(help_text="The same as a sentence in the request's language.")
    official_ranks_differ = serializers.BooleanField(
        help_text="The entries' ranks in the imported file (official_rank) differ from these final standings' "
        "ranks: the file's tie-break rules are not known, ours are the tournament's tie-break order.",
    )
    tiebreaks = TiebreakColumnSerializer(many=True)
    rows = StandingRowSerializer(many=True)


class StandingsPublishOutputSerializer(serializers.ModelSerializer):
    class Meta:
        model = Tournament
        fields = ["slug", "status", "standings_published_at", "version"]
