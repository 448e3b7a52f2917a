"""REST API of members: players and clubs (read-only), and the input helper every API view uses.

HackSoft style: one view per operation, a small output serializer each, filters as django-filter
``FilterSet`` classes; errors are :class:`federation.errors.ApplicationError` rendered by
``federation.api.exception_handler`` as ``{"error": {"code", "message", "field"}}``.
"""
from __future__ import annotations

import django_filters
from django.db.models import Q, QuerySet
from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework import generics, serializers
from rest_framework.filters import OrderingFilter
from rest_framework.response import Response
from rest_framework.views import APIView

from federation.errors import NotFound, ValidationFailed
from federation.models import Club, Player

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
# Selectors used here (members have no writes through the API)
# --------------------------------------------------------------------------------------------


def player_list() -> QuerySet[Player]:
    """Players with their clubs, by name."""
    return Player.objects.select_related("club").order_by("last_name", "first_name", "federation_id")


def player_get(*, federation_id: str) -> Player:
    """The player with ``federation_id``; :class:`NotFound` otherwise."""
    player = Player.objects.select_related("club").filter(federation_id=federation_id).first()
    if player is None:
        raise NotFound(_("No player with federation id %(id)s.") % {"id": federation_id}, field="federation_id")
    return player


def club_list() -> QuerySet[Club]:
    return Club.objects.order_by("name")


# --------------------------------------------------------------------------------------------
# Filters
# --------------------------------------------------------------------------------------------


class PlayerFilter(django_filters.FilterSet):
    """``club`` (id or short name), ``city`` (case-insensitive), ``sex`` (m/f), ``search`` (every word
    must occur in the first or last name, or equal the federation id)."""

    club = django_filters.CharFilter(method="filter_club", help_text="Club id or short name.")
    city = django_filters.CharFilter(field_name="city", lookup_expr="iexact")
    sex = django_filters.ChoiceFilter(choices=Player.Sex.choices)
    search = django_filters.CharFilter(method="filter_search", help_text="Words of the name, or a federation id.")

    class Meta:
        model = Player
        fields = ["club", "city", "sex", "search"]

    def filter_club(self, queryset, name, value):
        if value.isdigit():
            return queryset.filter(club_id=int(value))
        return queryset.filter(club__short_name__iexact=value)

    def filter_search(self, queryset, name, value):
        words = value.replace(",", " ").split()
        q = Q()
        for w in words:
            q &= Q(first_name__icontains=w) | Q(last_name__icontains=w) | Q(federation_id__iexact=w)
        return queryset.filter(q)


class ClubFilter(django_filters.FilterSet):
    """``city`` (case-insensitive for ASCII letters)."""

    city = django_filters.CharFilter(field_name="city", lookup_expr="iexact")

    class Meta:
        model = Club
        fields = ["city"]


# --------------------------------------------------------------------------------------------
# Views
# --------------------------------------------------------------------------------------------


class ClubOutputSerializer(serializers.ModelSerializer):
    class Meta:
        model = Club
        fields = ["id", "name", "short_name", "city"]


class PlayerOutputSerializer(serializers.ModelSerializer):
    club = ClubOutputSerializer(allow_null=True)
    full_name = serializers.CharField(help_text='"Last, First" as on pairing lists.')

    class Meta:
        model = Player
        fields = [
            "federation_id", "first_name", "last_name", "full_name", "sex", "birth_year", "club", "city", "rating",
        ]


class PlayerListApi(generics.ListAPIView):
    """Registered players; filters ``club``, ``city``, ``sex``, ``search``; ``ordering`` by name,
    rating or federation id (``-rating`` for the strongest first)."""

    serializer_class = PlayerOutputSerializer
    filterset_class = PlayerFilter
    filter_backends = [django_filters.rest_framework.DjangoFilterBackend, OrderingFilter]
    ordering_fields = ["last_name", "first_name", "rating", "federation_id", "birth_year"]
    ordering = ["last_name", "first_name", "federation_id"]

    def get_queryset(self):
        return player_list()

    @extend_schema(operation_id="players_list", tags=["players"])
    def get(self, request, *args, **kwargs):
        return super().get(request, *args, **kwargs)


class PlayerDetailApi(APIView):
    """One player by federation id."""

    @extend_schema(operation_id="players_retrieve", tags=["players"],
                   responses={200: PlayerOutputSerializer, **error_responses(404)})
    def get(self, request, federation_id: str):
        player = player_get(federation_id=federation_id)
        return Response(PlayerOutputSerializer(player).data)


class ClubListApi(generics.ListAPIView):
    """Member clubs by name; filter ``city``."""

    serializer_class = ClubOutputSerializer
    filterset_class = ClubFilter

    def get_queryset(self):
        return club_list()

    @extend_schema(operation_id="clubs_list", tags=["clubs"])
    def get(self, request, *args, **kwargs):
        return super().get(request, *args, **kwargs)
