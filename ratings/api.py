"""REST API of the national rating (read-only), included at ``/api/ratings/`` by ``ratings.urls_api``.

HackSoft style: one APIView per operation, small input/output serializers, reads from
:mod:`ratings.selectors`; errors are :class:`federation.errors.ApplicationError` rendered as
``{"error": {"code", "message", "field"}}``. Ratings are rating points, unrounded (the list's
``rating`` is the published whole number, ``Player.rating``).
"""
from __future__ import annotations

from django.utils import timezone
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers
from rest_framework.pagination import LimitOffsetPagination
from rest_framework.response import Response
from rest_framework.views import APIView

from federation.api_views import error_responses, player_get, validated_input
from ratings import selectors

STATUS_HELP = '"unrated", "provisional" (fewer than 30 rated sets) or "established".'


# --------------------------------------------------------------------------------------------
# Rating list
# --------------------------------------------------------------------------------------------


class RatingListInputSerializer(serializers.Serializer):
    club = serializers.CharField(required=False, allow_blank=True, max_length=20, help_text="Club id or short name.")
    city = serializers.CharField(required=False, allow_blank=True, max_length=60,
                                 help_text="Player's city (else the club's), exact.")
    sex = serializers.ChoiceField(choices=["m", "f"], required=False, allow_blank=True,
                                  help_text="Federation staff only (personal data): others get 403.")
    age = serializers.ChoiceField(
        choices=list(selectors.AGE_GROUPS), required=False, allow_blank=True,
        help_text="Age group: age = year - birth year; u12 = 12 or younger, 50plus = 50 or older.",
    )
    year = serializers.IntegerField(required=False, min_value=1900, max_value=2100,
                                    help_text="Year the ages are counted in (default: this year); another year "
                                              "than this one is for federation staff only (403 for others).")
    search = serializers.CharField(required=False, allow_blank=True, max_length=100,
                                   help_text="Words of the name, or a federation id (at most 6 words).")
    order = serializers.ChoiceField(choices=["rating", "name"], required=False, default="rating",
                                    help_text="rating (desc, then Turkish name order) or name (Turkish order).")


class RatingClubSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    short_name = serializers.CharField()


class RatingListItemSerializer(serializers.Serializer):
    rank = serializers.IntegerField(help_text="Rank by rating; equal ratings share a rank.")
    federation_id = serializers.CharField(source="player.federation_id")
    full_name = serializers.CharField(source="player.full_name")
    first_name = serializers.CharField(source="player.first_name")
    last_name = serializers.CharField(source="player.last_name")
    club = RatingClubSerializer(source="player.club", allow_null=True)
    city = serializers.CharField(source="player.city")
    sex = serializers.CharField(source="player.sex", required=False,
                                help_text="Federation staff only (omitted for others).")
    birth_year = serializers.IntegerField(source="player.birth_year", allow_null=True, required=False,
                                          help_text="Federation staff only (omitted for others).")
    age_category = serializers.SerializerMethodField(
        help_text='Age group this year ("u12", "open", "50plus"…: the keys of `age`); null: birth year unknown.'
    )
    rating = serializers.IntegerField()
    sets = serializers.IntegerField(help_text="Rated sets counted by the national rating.")
    status = serializers.CharField(help_text=STATUS_HELP)
    last_rated = serializers.DateField(source="last_period", allow_null=True,
                                       help_text="Rating period of the player's last rated event.")

    def get_age_category(self, line) -> str | None:
        from federation.privacy import age_category

        return age_category(line.player.birth_year)

    def to_representation(self, instance):
        from federation.privacy import public_player_fields

        return public_player_fields(super().to_representation(instance), personal=bool(self.context.get("personal")))


class RatingListPageSerializer(serializers.Serializer):
    count = serializers.IntegerField()
    next = serializers.URLField(allow_null=True)
    previous = serializers.URLField(allow_null=True)
    results = RatingListItemSerializer(many=True)


class RatingListApi(APIView):
    """The national rating list: rated players with filters ``club``, ``city``, ``sex``, ``age``,
    ``year``, ``search``; ``order`` rating (default) or name; ``limit``/``offset`` pages."""

    pagination_class = LimitOffsetPagination

    @extend_schema(
        operation_id="ratings_list", tags=["ratings"],
        parameters=[RatingListInputSerializer,
                    OpenApiParameter("limit", int, description="Page size (default 100)."),
                    OpenApiParameter("offset", int, description="Rows to skip.")],
        responses={200: RatingListPageSerializer, **error_responses(400, 403)},
    )
    def get(self, request):
        from federation import privacy
        from federation.errors import PermissionDenied

        data = validated_input(RatingListInputSerializer, request.query_params)
        personal = privacy.sees_personal_data(request.user)
        if not personal and data.get("sex"):  # KVKK: a filter by sex would reveal it
            raise PermissionDenied(_("Only federation staff can filter the rating list by sex."), field="sex")
        if not personal and data.get("year") not in (None, timezone.localdate().year):
            # age groups counted in chosen years would reveal each birth year
            raise PermissionDenied(_("Only federation staff can count age groups in another year."), field="year")
        filters = selectors.RatingFilters(
            club=data.get("club", ""), city=data.get("city", ""), sex=data.get("sex", ""), age=data.get("age", ""),
            search=data.get("search", ""), year=data.get("year") or timezone.localdate().year,
        )
        lines = selectors.rating_list(filters, order=data.get("order") or "rating")
        paginator = self.pagination_class()
        page = paginator.paginate_queryset(lines, request, view=self)
        return paginator.get_paginated_response(
            RatingListItemSerializer(page, many=True, context={"personal": personal}).data
        )


# --------------------------------------------------------------------------------------------
# A player's history
# --------------------------------------------------------------------------------------------


class RatingOpponentSerializer(serializers.Serializer):
    federation_id = serializers.CharField()
    full_name = serializers.CharField()


class RatingHistoryLineSerializer(serializers.Serializer):
    round = serializers.IntegerField()
    set_number = serializers.IntegerField()
    opponent = RatingOpponentSerializer()
    opponent_rating = serializers.FloatField(help_text="Opponent's rating at the start of the event.")
    own_stones = serializers.IntegerField()
    opponent_stones = serializers.IntegerField()
    score = serializers.FloatField(help_text="Set result: 1, 0.5 or 0.")
    result_score = serializers.FloatField(help_text="Score used by margin Elo (set result blended with the margin).")
    margin = serializers.IntegerField(help_text="Own stones - 24 (Kural 14.4); +-1 for a winner's withdrawal.")
    expected = serializers.FloatField()
    delta = serializers.FloatField(help_text="This set's share of the rating change (rating points).")


class RatingHistoryTournamentSerializer(serializers.Serializer):
    slug = serializers.CharField()
    name = serializers.CharField()


class RatingHistoryEventSerializer(serializers.Serializer):
    tournament = RatingHistoryTournamentSerializer()
    period = serializers.DateField()
    rating_before = serializers.FloatField()
    rating_after = serializers.FloatField()
    change = serializers.FloatField()
    status_before = serializers.CharField(help_text=STATUS_HELP)
    status_after = serializers.CharField(help_text=STATUS_HELP)
    sets = serializers.IntegerField()
    matches_without_sets = serializers.IntegerField(
        help_text="Matches of the event without set detail (not rated)."
    )
    lines = RatingHistoryLineSerializer(many=True)


class RatingHistoryPlayerSerializer(serializers.Serializer):
    federation_id = serializers.CharField()
    full_name = serializers.CharField()
    rating = serializers.IntegerField(help_text="Current rating (0 = unrated).")


class RatingPlayerHistorySerializer(serializers.Serializer):
    player = RatingHistoryPlayerSerializer()
    rated_sets = serializers.IntegerField()
    events = RatingHistoryEventSerializer(many=True, help_text="Rated events, oldest first.")


class PlayerRatingHistoryApi(APIView):
    """A player's rating history: every rated event (oldest first) with each rated set's calculation."""

    @extend_schema(
        operation_id="ratings_player_history", tags=["ratings"],
        responses={200: RatingPlayerHistorySerializer, **error_responses(404)},
    )
    def get(self, request, federation_id: str):
        from django.http import HttpResponsePermanentRedirect
        from django.urls import reverse

        from federation.selectors import player_resolve

        player = player_get(federation_id=federation_id)
        if player.merged_into_id is not None:  # a merged record: its history lives on the surviving one
            survivor = player_resolve(federation_id)
            return HttpResponsePermanentRedirect(
                reverse("api-rating-history", kwargs={"federation_id": survivor.federation_id})
            )
        history = selectors.player_history(player)
        body = {"player": player, "rated_sets": sum(h.sets for h in history), "events": history}
        return Response(RatingPlayerHistorySerializer(body).data)
