"""REST API of members: players and clubs, and the input helper every API view uses.

HackSoft style: one view per operation, a small input and output serializer each, filters as
django-filter ``FilterSet`` classes; writes call :mod:`federation.services`; errors are
:class:`federation.errors.ApplicationError` rendered by ``federation.api.exception_handler`` as
``{"error": {"code", "message", "field"}}``.

Reads are public. Writes (create, ``PATCH``, deactivate/activate, merge) are for federation staff:
anonymous → 401 (the project's DRF settings), anyone else → 403. A merged player's federation id
answers ``GET`` with 301 to the surviving player.
"""
from __future__ import annotations

import django_filters
from django import forms
from django.core.validators import RegexValidator
from django.db.models import Q, QuerySet
from django.urls import reverse
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiExample, OpenApiResponse, extend_schema
from rest_framework import generics, serializers, status
from rest_framework.filters import OrderingFilter
from rest_framework.response import Response
from rest_framework.views import APIView

from federation import privacy, roles, services
from federation.errors import NotFound, PermissionDenied, ValidationFailed
from federation.models import Club, Player
from federation.selectors import player_resolve

# --------------------------------------------------------------------------------------------
# Error body and input helper
# --------------------------------------------------------------------------------------------


class ErrorDetailSerializer(serializers.Serializer):
    code = serializers.CharField(help_text='Stable machine-readable code: "invalid", "permission_denied", '
                                           '"not_authenticated", "not_found", "conflict", …')
    message = serializers.CharField(help_text="Human-readable reason (names the set, line or ply where there is one).")
    field = serializers.CharField(allow_null=True, help_text='The input field at fault ("sets[2]", "file"), or null.')


class ErrorSerializer(serializers.Serializer):
    """Every API error: ``{"error": {"code", "message", "field"}}`` (``federation.api.exception_handler``)."""

    error = ErrorDetailSerializer()


def error_responses(*statuses: int) -> dict:
    """``extend_schema(responses=...)`` entries documenting the error body for ``statuses``."""
    return {status: ErrorSerializer for status in statuses}



def _first_error(node, path: tuple = ()) -> tuple[tuple, str]:
    """Walk DRF ``serializer.errors`` to its first reason: ``(path, reason)``; list indices are ints."""
    if isinstance(node, dict):
        for key, value in node.items():
            if value:
                sub = path if key == "non_field_errors" else path + (key,)
                return _first_error(value, sub)
        return path, ""
    if isinstance(node, (list, tuple)):
        for index, value in enumerate(node):
            if isinstance(value, (dict, list, tuple)):
                if value:
                    return _first_error(value, path + (index,))
            else:
                return path, str(value)
        return path, ""
    return path, str(node)


def _error_path(errors) -> tuple[str | None, str, str]:
    """The first error of DRF ``serializer.errors``: ``(field, sub_path, reason)``.

    List items are numbered from 1 like sets are (``sets[2]``); keys below the item go to
    ``sub_path`` (``white_store``); ``non_field_errors`` names no field.
    """
    path, reason = _first_error(errors)
    if not path:
        return None, "", reason
    field = str(path[0])
    rest = list(path[1:])
    if rest and isinstance(rest[0], int):
        field += f"[{rest.pop(0) + 1}]"
    sub = ""
    for part in rest:
        sub += f"[{part + 1}]" if isinstance(part, int) else (f".{part}" if sub else str(part))
    return field, sub, reason


def validated_input(serializer_class, data, **kwargs) -> dict:
    """Validate ``data`` with ``serializer_class`` and return ``validated_data``.

    Invalid input raises :class:`ValidationFailed` naming one field, e.g. field ``sets[2]`` and
    message ``"white_store: A valid integer is required."`` (items numbered from 1).
    """
    serializer = serializer_class(data=data, **kwargs)
    if serializer.is_valid():
        return serializer.validated_data
    field, sub, reason = _error_path(serializer.errors)
    message = f"{sub}: {reason}" if sub else reason
    raise ValidationFailed(message or "Invalid input.", field=field)


# --------------------------------------------------------------------------------------------
# Selectors used here
# --------------------------------------------------------------------------------------------


def player_list() -> QuerySet[Player]:
    """Players with their clubs, by name."""
    return Player.objects.select_related("club", "merged_into").order_by("last_name", "first_name", "federation_id")


def player_get(*, federation_id: str) -> Player:
    """The player with ``federation_id``; :class:`NotFound` otherwise."""
    qs = Player.objects.select_related("club", "merged_into")
    player = qs.filter(federation_id=federation_id).first() or qs.filter(federation_id__iexact=federation_id).first()
    if player is None:
        raise NotFound(_("No player with federation id %(id)s.") % {"id": federation_id}, field="federation_id")
    return player


def club_list() -> QuerySet[Club]:
    return Club.objects.order_by("name")


def club_get(*, club_id: int) -> Club:
    """The club with id ``club_id``; :class:`NotFound` otherwise."""
    club = Club.objects.filter(pk=club_id).first()
    if club is None:
        raise NotFound(_("No club with id %(id)s.") % {"id": club_id}, field="id")
    return club


# --------------------------------------------------------------------------------------------
# Filters
# --------------------------------------------------------------------------------------------


class StrictBooleanField(forms.NullBooleanField):
    """A query-string boolean that refuses what is not one: ``true``/``false`` (also ``1``/``0``,
    any case); absent or empty means "no filter"; anything else is a 400 with the parameter's name
    (Django's own field would quietly read ``AAA`` as "no filter")."""

    TRUE, FALSE = {"true", "1"}, {"false", "0"}
    widget = forms.TextInput  # the raw text: the boolean widgets read any unknown value as None

    def to_python(self, value):
        if value in (None, ""):
            return None
        if isinstance(value, bool):
            return value
        text = str(value).strip().lower()
        if text in self.TRUE:
            return True
        if text in self.FALSE:
            return False
        raise forms.ValidationError(_("Enter true or false."), code="invalid")

    def validate(self, value):
        """Nothing more to check: :meth:`to_python` refused every other value."""


class StrictBooleanFilter(django_filters.BooleanFilter):
    """``BooleanFilter`` with :class:`StrictBooleanField`: a non-boolean value is a 400, as the schema
    (``type: boolean``) says."""

    field_class = StrictBooleanField

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("widget", forms.TextInput)
        super().__init__(*args, **kwargs)


class PlayerFilter(django_filters.FilterSet):
    """``club`` (id or short name), ``city`` (case-insensitive), ``sex`` (m/f), ``search`` (every word
    must occur in the first or last name, or equal the federation id), ``active`` (true/false; default
    every player, merged records included)."""

    club = django_filters.CharFilter(method="filter_club", max_length=20, help_text="Club id or short name.")
    city = django_filters.CharFilter(method="filter_city", max_length=60,
                                     help_text="City, any case, Turkish letters optional (ISTANBUL = İstanbul).")
    sex = django_filters.ChoiceFilter(choices=Player.Sex.choices, method="filter_sex",
                                      help_text="Federation staff only (personal data): others get 403.")
    search = django_filters.CharFilter(
        method="filter_search", max_length=100, help_text="Words of the name, or a federation id (at most 6 words).",
    )
    active = StrictBooleanFilter(
        field_name="active", help_text="true: active players only; false: deactivated and merged records only.",
    )

    class Meta:
        model = Player
        fields = ["club", "city", "sex", "search", "active"]

    def filter_club(self, queryset, name, value):
        from federation.selectors import club_q

        return queryset.filter(club_q(value))

    def filter_city(self, queryset, name, value):
        from federation.selectors import city_q

        return queryset.filter(city_q(value))

    def filter_sex(self, queryset, name, value):
        if not roles.is_staff(getattr(self.request, "user", None)):
            raise PermissionDenied(_("Only federation staff can filter players by sex."), field="sex")
        return queryset.filter(sex=value)

    def filter_search(self, queryset, name, value):
        from federation.selectors import name_search_q

        return queryset.filter(name_search_q(value))


class ClubFilter(django_filters.FilterSet):
    """``city`` (any case, Turkish letters optional), ``search`` (every word in the name, short name or
    city, compared the same way), ``active`` (true/false; default every club)."""

    city = django_filters.CharFilter(method="filter_city", max_length=60,
                                     help_text="City, any case, Turkish letters optional (ISTANBUL = İstanbul).")
    search = django_filters.CharFilter(method="filter_search", max_length=100,
                                       help_text="Words of the name, short name or city (at most 6 words).")
    active = StrictBooleanFilter(field_name="active", help_text="true: active clubs only.")

    class Meta:
        model = Club
        fields = ["city", "search", "active"]

    def filter_city(self, queryset, name, value):
        from federation.selectors import city_q

        return queryset.filter(city_q(value))

    def filter_search(self, queryset, name, value):
        from federation.selectors import club_search_q

        return queryset.filter(club_search_q(value))


# --------------------------------------------------------------------------------------------
# Input serializers of the writes
# --------------------------------------------------------------------------------------------


class StrictInputSerializer(serializers.Serializer):
    """An input serializer that refuses keys it does not declare (a misspelt field is an error, not
    silently ignored); ``rating`` gets its own reason: the rating run owns it."""

    def validate(self, attrs):
        initial = getattr(self, "initial_data", {})
        unknown = [k for k in initial if k not in self.fields]
        if unknown:
            key = unknown[0]
            if key == "rating":
                raise serializers.ValidationError({key: _("The rating is set by the rating run, not by hand.")})
            raise serializers.ValidationError({key: _("Unknown field.")})
        for name, field in self.fields.items():  # JSON 0 is not the text "0" (DRF would convert it)
            value = initial.get(name) if hasattr(initial, "get") else None
            if isinstance(field, serializers.CharField) and value is not None and not isinstance(value, str):
                raise serializers.ValidationError({name: field.error_messages["invalid"]})
        return attrs


_REASON_HELP = "Why (stored on the history rows), up to 500 characters."


def _club_field(**kwargs):
    return serializers.PrimaryKeyRelatedField(
        queryset=Club.objects.all(), allow_null=True, help_text="Club id, or null for none.", **kwargs
    )


#: Control characters the services refuse in a name (:data:`federation.validators.CONTROL_CHARACTERS`), as the
#: schema's other text fields state them (``federation.schema``): a field with a pattern of its own keeps them out.
_CONTROLS = r"\u0000-\u001f\u007f-\u009f\u2028\u2029"


def _federation_id_pattern() -> RegexValidator:
    """No spaces inside, no slash, no control character (as the service checks; stated in the schema as a
    pattern); spaces around it are stripped by the service, and count towards the 20 characters (the
    field does not trim them first, as the schema's maxLength says)."""
    return RegexValidator(rf"^ *[^\s/{_CONTROLS}]+ *$", message=_("A federation id has no spaces and no slash."))


class PlayerCreateInputSerializer(StrictInputSerializer):
    federation_id = serializers.CharField(max_length=20, help_text="New, unique; no spaces or slash.",
                                          trim_whitespace=False, validators=[_federation_id_pattern()])
    first_name = serializers.CharField(max_length=60, required=False, allow_blank=True, default="")
    last_name = serializers.CharField(max_length=60)
    sex = serializers.ChoiceField(choices=Player.Sex.choices, allow_blank=True, required=False, default="")
    birth_year = serializers.IntegerField(min_value=1900, max_value=2100, required=False, allow_null=True, default=None)
    club = _club_field(required=False, default=None)
    city = serializers.CharField(max_length=60, required=False, allow_blank=True, default="",
                                 help_text="Empty: the club's city.")
    rating = serializers.IntegerField(min_value=0, max_value=4000, required=False, default=0,
                                      help_text="Starting rating in rating points (0 = unrated); the rating run owns it after that.")


class PlayerUpdateInputSerializer(StrictInputSerializer):
    """Only the fields sent are changed. ``rating`` is refused: the rating run owns it."""

    federation_id = serializers.CharField(max_length=20, required=False, help_text="Unique; no spaces or slash.",
                                          trim_whitespace=False, validators=[_federation_id_pattern()])
    first_name = serializers.CharField(max_length=60, required=False, allow_blank=True)
    last_name = serializers.CharField(max_length=60, required=False)
    sex = serializers.ChoiceField(choices=Player.Sex.choices, allow_blank=True, required=False)
    birth_year = serializers.IntegerField(min_value=1900, max_value=2100, required=False, allow_null=True)
    club = _club_field(required=False)
    city = serializers.CharField(max_length=60, required=False, allow_blank=True)
    reason = serializers.CharField(max_length=500, required=False, allow_blank=True, help_text=_REASON_HELP)


class MemberReasonInputSerializer(StrictInputSerializer):
    reason = serializers.CharField(max_length=500, required=False, allow_blank=True, help_text=_REASON_HELP)


class PlayerMergeInputSerializer(StrictInputSerializer):
    into = serializers.CharField(max_length=20, help_text="Federation id of the record to keep.")
    reason = serializers.CharField(max_length=500, help_text="Required: why these are the same person.")


class ClubCreateInputSerializer(StrictInputSerializer):
    name = serializers.CharField(max_length=120, help_text="Unique (case-insensitive).")
    short_name = serializers.CharField(max_length=12, required=False, allow_blank=True, default="")
    city = serializers.CharField(max_length=60, required=False, allow_blank=True, default="")
    reason = serializers.CharField(max_length=500, required=False, allow_blank=True, default="", help_text=_REASON_HELP)


class ClubUpdateInputSerializer(StrictInputSerializer):
    """Only the fields sent are changed."""

    name = serializers.CharField(max_length=120, required=False, help_text="Unique (case-insensitive).")
    short_name = serializers.CharField(max_length=12, required=False, allow_blank=True)
    city = serializers.CharField(max_length=60, required=False, allow_blank=True)
    reason = serializers.CharField(max_length=500, required=False, allow_blank=True, help_text=_REASON_HELP)


def _require_staff(user, message: str) -> None:
    """Refuse non-staff before their input is read (a 403 never depends on the body)."""
    if not roles.is_staff(user):
        raise PermissionDenied(message)


# --------------------------------------------------------------------------------------------
# Views
# --------------------------------------------------------------------------------------------


class ClubOutputSerializer(serializers.ModelSerializer):
    class Meta:
        model = Club
        fields = ["id", "name", "short_name", "city", "active"]


class PlayerOutputSerializer(serializers.ModelSerializer):
    """A player. ``birth_year`` and ``sex`` only for federation staff (and the player's own account):
    pass ``context={"personal": True}``; everyone else gets ``age_category`` alone (KVKK)."""

    club = ClubOutputSerializer(allow_null=True)
    full_name = serializers.CharField(help_text='"Last, First" as on pairing lists.')
    sex = serializers.CharField(required=False, help_text="Federation staff only (omitted for others).")
    birth_year = serializers.IntegerField(required=False, allow_null=True,
                                          help_text="Federation staff only (omitted for others).")
    age_category = serializers.SerializerMethodField(
        help_text='Age group this year (a key of the rating list\'s `age` filter: "u12", "open", "50plus"…; '
                  "null: birth year unknown).",
    )
    merged_into = serializers.SlugRelatedField(
        slug_field="federation_id", read_only=True, allow_null=True,
        help_text="Federation id of the record this one was merged into (null: a record of its own).",
    )

    class Meta:
        model = Player
        fields = [
            "federation_id", "first_name", "last_name", "full_name", "sex", "birth_year", "age_category", "club",
            "city", "rating", "active", "merged_into",
        ]

    def get_age_category(self, player: Player) -> str | None:
        return privacy.age_category(player.birth_year)

    def to_representation(self, instance):
        return privacy.public_player_fields(super().to_representation(instance),
                                            personal=bool(self.context.get("personal")))


def player_output(player: Player, request) -> dict:
    """:class:`PlayerOutputSerializer` data of ``player`` as ``request.user`` may see it."""
    personal = privacy.sees_personal_data(request.user, player)
    return PlayerOutputSerializer(player, context={"personal": personal}).data


class PlayerListApi(generics.ListAPIView):
    """Registered players; filters ``club``, ``city``, ``sex``, ``search``, ``active``; ``ordering``
    by name, rating or federation id (``-rating`` for the strongest first). ``POST`` registers a
    player (staff)."""

    serializer_class = PlayerOutputSerializer
    filterset_class = PlayerFilter
    filter_backends = [django_filters.rest_framework.DjangoFilterBackend, OrderingFilter]
    ordering_fields = ["last_name", "first_name", "rating", "federation_id", "birth_year"]
    ordering = ["last_name", "first_name", "federation_id"]

    def get_queryset(self):
        return player_list()

    def get_serializer_context(self):
        return {**super().get_serializer_context(), "personal": roles.is_staff(self.request.user)}

    def filter_queryset(self, queryset):
        ordering = self.request.query_params.get("ordering", "")
        if "birth_year" in ordering and not roles.is_staff(self.request.user):
            raise PermissionDenied(_("Only federation staff can order players by birth year."), field="ordering")
        return super().filter_queryset(queryset)

    @extend_schema(operation_id="players_list", tags=["players"])
    def get(self, request, *args, **kwargs):
        return super().get(request, *args, **kwargs)

    @extend_schema(
        operation_id="players_create", tags=["players"], request=PlayerCreateInputSerializer,
        responses={201: PlayerOutputSerializer, **error_responses(400, 401, 403, 409)},
        description="Register a player (federation staff; services.player_register). A federation id "
                    "already in use → 409 with field federation_id.",
    )
    def post(self, request, *args, **kwargs):
        _require_staff(request.user, _("Only federation staff can register players here."))
        data = validated_input(PlayerCreateInputSerializer, request.data)
        player = services.player_register(user=request.user, **data)
        return Response(player_output(player_get(federation_id=player.federation_id), request),
                        status=status.HTTP_201_CREATED)


_MOVED = OpenApiResponse(description="The federation id was merged into another record: `Location` is "
                                     "that player's URL.")


class PlayerDetailApi(APIView):
    """One player by federation id; a merged record's id answers 301 to the surviving player.
    ``PATCH`` changes the fields sent (staff)."""

    @extend_schema(operation_id="players_retrieve", tags=["players"],
                   responses={200: PlayerOutputSerializer, 301: _MOVED, **error_responses(404)})
    def get(self, request, federation_id: str):
        player = player_get(federation_id=federation_id)
        if player.merged_into_id is not None:
            survivor = player_resolve(federation_id)
            url = request.build_absolute_uri(reverse("api-player", args=[survivor.federation_id]))
            return Response(status=status.HTTP_301_MOVED_PERMANENTLY, headers={"Location": url})
        return Response(player_output(player, request))

    @extend_schema(
        operation_id="players_update", tags=["players"], request=PlayerUpdateInputSerializer,
        responses={200: PlayerOutputSerializer, **error_responses(400, 401, 403, 404, 409)},
        description="Change the fields sent (federation staff; services.player_update); `reason` is kept on the "
                    "history row. `rating` is refused (400): the rating run owns it. A merged record → 409.",
        examples=[OpenApiExample("Move to another club", value={"club": 3, "reason": "Transfer 2026"},
                                 request_only=True)],
    )
    def patch(self, request, federation_id: str):
        _require_staff(request.user, _("Only federation staff can edit players."))
        player = player_get(federation_id=federation_id)
        data = dict(validated_input(PlayerUpdateInputSerializer, request.data))
        reason = data.pop("reason", "")
        player = services.player_update(player=player, user=request.user, reason=reason, **data)
        return Response(player_output(player_get(federation_id=player.federation_id), request))


class PlayerDeactivateApi(APIView):
    """Deactivate a player: kept with results and rating history, no longer listed or offered."""

    @extend_schema(operation_id="players_deactivate", tags=["players"], request=MemberReasonInputSerializer,
                   responses={200: PlayerOutputSerializer, **error_responses(400, 401, 403, 404, 409)})
    def post(self, request, federation_id: str):
        _require_staff(request.user, _("Only federation staff can deactivate or activate players."))
        player = player_get(federation_id=federation_id)
        data = validated_input(MemberReasonInputSerializer, request.data)
        player = services.player_deactivate(player=player, user=request.user, reason=data.get("reason", ""))
        return Response(player_output(player_get(federation_id=player.federation_id), request))


class PlayerActivateApi(APIView):
    """Activate a deactivated player again (a merged record stays inactive: 409)."""

    @extend_schema(operation_id="players_activate", tags=["players"], request=MemberReasonInputSerializer,
                   responses={200: PlayerOutputSerializer, **error_responses(400, 401, 403, 404, 409)})
    def post(self, request, federation_id: str):
        _require_staff(request.user, _("Only federation staff can deactivate or activate players."))
        player = player_get(federation_id=federation_id)
        data = validated_input(MemberReasonInputSerializer, request.data)
        player = services.player_activate(player=player, user=request.user, reason=data.get("reason", ""))
        return Response(player_output(player_get(federation_id=player.federation_id), request))


class PlayerMergeApi(APIView):
    """Merge the player of the URL into the player ``into``: the same person (services.player_merge)."""

    @extend_schema(
        operation_id="players_merge", tags=["players"], request=PlayerMergeInputSerializer,
        responses={200: PlayerOutputSerializer, **error_responses(400, 401, 403, 404, 409)},
        description="The URL's record is merged into `into` (the record kept): its entries, login and initial "
                    "rating move there, its id then answers 301, and a full re-rating is queued. 409 when both "
                    "played in one tournament, when `into` is the same record or when either was merged already; "
                    "400 with field `into` when no player has that id, field `reason` when the reason is missing. "
                    "Returns the kept player.",
        examples=[OpenApiExample("Duplicate registration", value={"into": "TMF-0001", "reason": "Registered twice"},
                                 request_only=True)],
    )
    def post(self, request, federation_id: str):
        _require_staff(request.user, _("Only federation staff can merge players."))
        merge = player_get(federation_id=federation_id)
        data = validated_input(PlayerMergeInputSerializer, request.data)
        keep = Player.objects.filter(federation_id=data["into"]).first()
        if keep is None:
            raise ValidationFailed(_("No player with federation id %(id)s.") % {"id": data["into"]}, field="into")
        keep = services.player_merge(keep=keep, merge=merge, user=request.user, reason=data["reason"])
        return Response(player_output(player_get(federation_id=keep.federation_id), request))


class PlayerAnonymiseInputSerializer(StrictInputSerializer):
    reason = serializers.CharField(max_length=500, help_text="Required: why (e.g. the player left and asked for it).")


class PlayerAnonymiseApi(APIView):
    """Anonymise a player who left (federation staff; services.player_anonymise, KVKK)."""

    @extend_schema(
        operation_id="players_anonymise", tags=["players"], request=PlayerAnonymiseInputSerializer,
        responses={200: PlayerOutputSerializer, **error_responses(400, 401, 403, 404, 409)},
        description="The name becomes `Anonim <id>`; birth year, sex, city and the login link are cleared, also in "
                    "every history row of the record; the player is deactivated. Results, entries and ratings stay. "
                    "`reason` is required (400 with field `reason`); a merged record → 409.",
        examples=[OpenApiExample("Player left", value={"reason": "Left the federation, asked for erasure"},
                                 request_only=True)],
    )
    def post(self, request, federation_id: str):
        _require_staff(request.user, _("Only federation staff can anonymise players."))
        player = player_get(federation_id=federation_id)
        data = validated_input(PlayerAnonymiseInputSerializer, request.data)
        player = services.player_anonymise(player=player, user=request.user, reason=data["reason"])
        return Response(player_output(player_get(federation_id=player.federation_id), request))


class ClubListApi(generics.ListAPIView):
    """Member clubs by name; filters ``city``, ``active``. ``POST`` creates a club (staff)."""

    serializer_class = ClubOutputSerializer
    filterset_class = ClubFilter

    def get_queryset(self):
        return club_list()

    @extend_schema(operation_id="clubs_list", tags=["clubs"])
    def get(self, request, *args, **kwargs):
        return super().get(request, *args, **kwargs)

    @extend_schema(
        operation_id="clubs_create", tags=["clubs"], request=ClubCreateInputSerializer,
        responses={201: ClubOutputSerializer, **error_responses(400, 401, 403, 409)},
        description="Create a club (federation staff; services.club_create). A name in use (Turkish case rules) "
                    "→ 409 with field name.",
    )
    def post(self, request, *args, **kwargs):
        _require_staff(request.user, _("Only federation staff can create clubs."))
        data = validated_input(ClubCreateInputSerializer, request.data)
        club = services.club_create(user=request.user, **data)
        return Response(ClubOutputSerializer(club).data, status=status.HTTP_201_CREATED)


class ClubDetailApi(APIView):
    """One club by id; ``PATCH`` changes the fields sent (staff)."""

    @extend_schema(operation_id="clubs_retrieve", tags=["clubs"],
                   responses={200: ClubOutputSerializer, **error_responses(404)})
    def get(self, request, club_id: int):
        return Response(ClubOutputSerializer(club_get(club_id=club_id)).data)

    @extend_schema(
        operation_id="clubs_update", tags=["clubs"], request=ClubUpdateInputSerializer,
        responses={200: ClubOutputSerializer, **error_responses(400, 401, 403, 404, 409)},
        description="Change the fields sent (federation staff; services.club_update); `reason` is kept on the "
                    "history row. A name in use → 409 with field name.",
    )
    def patch(self, request, club_id: int):
        _require_staff(request.user, _("Only federation staff can edit clubs."))
        club = club_get(club_id=club_id)
        data = dict(validated_input(ClubUpdateInputSerializer, request.data))
        reason = data.pop("reason", "")
        club = services.club_update(club=club, user=request.user, reason=reason, **data)
        return Response(ClubOutputSerializer(club).data)


class ClubDeactivateApi(APIView):
    """Deactivate a club: kept for history, offered no more."""

    @extend_schema(operation_id="clubs_deactivate", tags=["clubs"], request=MemberReasonInputSerializer,
                   responses={200: ClubOutputSerializer, **error_responses(400, 401, 403, 404)})
    def post(self, request, club_id: int):
        _require_staff(request.user, _("Only federation staff can deactivate or activate clubs."))
        club = club_get(club_id=club_id)
        data = validated_input(MemberReasonInputSerializer, request.data)
        club = services.club_deactivate(club=club, user=request.user, reason=data.get("reason", ""))
        return Response(ClubOutputSerializer(club).data)


class ClubActivateApi(APIView):
    """Activate a deactivated club again."""

    @extend_schema(operation_id="clubs_activate", tags=["clubs"], request=MemberReasonInputSerializer,
                   responses={200: ClubOutputSerializer, **error_responses(400, 401, 403, 404)})
    def post(self, request, club_id: int):
        _require_staff(request.user, _("Only federation staff can deactivate or activate clubs."))
        club = club_get(club_id=club_id)
        data = validated_input(MemberReasonInputSerializer, request.data)
        club = services.club_activate(club=club, user=request.user, reason=data.get("reason", ""))
        return Response(ClubOutputSerializer(club).data)
