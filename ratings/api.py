"""REST API of the national rating (read-only), included at ``/api/ratings/`` by ``ratings.urls_api``.

HackSoft style: one APIView per operation, small input/output serializers, reads from
:mod:`ratings.selectors`; errors are :class:`federation.errors.ApplicationError` rendered as
``{"error": {"code", "message", "field"}}``. Ratings are rating points, unrounded (the list's
``rating`` is the published whole number, ``Player.rating``).
"""
from __future__ import annotations

from django.utils import timezone
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiExample, OpenApiParameter, extend_schema
from rest_framework import serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from federation.api_views import StrictInputSerializer, error_responses, player_get, validated_input
from federation.drf import Pagination
from federation.privacy import AGE_GROUPS
from ratings import selectors
from ratings.lists import selectors as list_selectors

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
        choices=list(AGE_GROUPS), required=False, allow_blank=True,
        help_text="Age group: age = year - birth year; u12 = 12 or younger, 50plus = 50 or older.",
    )
    year = serializers.IntegerField(required=False, min_value=1900, max_value=2100,
                                    help_text="Year the ages are counted in (default: this year); another year "
                                              "than this one is for federation staff only (403 for others).")
    search = serializers.CharField(required=False, allow_blank=True, max_length=100,
                                   help_text="Words of the name, or a federation id (at most 6 words).")
    order = serializers.ChoiceField(choices=["rating", "name"], required=False, default="rating", allow_blank=True,
                                    help_text="rating (desc, then Turkish name order; also when empty) or name "
                                              "(Turkish order).")


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

    pagination_class = Pagination  # limit 1..1000, offset 0..10⁹; anything else a 400

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
    result_score = serializers.FloatField(help_text="Score the federation's rating used: the set result blended with the margin, never below the expected score for a won set nor above it for a lost one.")
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


# --------------------------------------------------------------------------------------------
# Official rating lists
# --------------------------------------------------------------------------------------------

_DATE_PARAM = OpenApiParameter("on", OpenApiTypes.DATE, OpenApiParameter.PATH,
                               description="The list's date, YYYY-MM-DD.")


class OfficialListSerializer(serializers.Serializer):
    published_on = serializers.DateField(help_text="The list's date: ratings as of this day.")
    title = serializers.CharField()
    note = serializers.CharField()
    players = serializers.IntegerField(help_text="Players on the list (active and inactive).")
    system = serializers.CharField(help_text='Rating system ("margin_glicko2": margin Glicko-2, the federation\'s rating; "margin": margin Elo, before December 2026).')
    parameter_set = serializers.CharField(source="parameter_set.label", allow_null=True, default=None,
                                          help_text="Label of the parameter set in force at publication; null: "
                                                    "the engine's defaults.")
    published_at = serializers.DateTimeField()
    in_force = serializers.BooleanField(help_text="False: withdrawn (see withdrawn_at and withdrawn_reason).")
    withdrawn_at = serializers.DateTimeField(allow_null=True)
    withdrawn_reason = serializers.CharField(help_text="Why it was withdrawn (empty while in force).")
    published_by = serializers.SerializerMethodField(help_text="Federation staff only (omitted for others).")
    withdrawn_by = serializers.SerializerMethodField(help_text="Federation staff only (omitted for others).")
    url = serializers.SerializerMethodField(help_text="The list's page.")
    csv = serializers.SerializerMethodField(help_text="CSV download (lists in force only; else null).")
    pdf = serializers.SerializerMethodField(help_text="PDF download (lists in force only; else null).")

    def get_published_by(self, rl) -> str | None:
        from federation.templatetags.people import actor_name as display_name  # staff only: as their history tables

        return display_name(rl.published_by) if rl.published_by_id else None

    def get_withdrawn_by(self, rl) -> str | None:
        from federation.templatetags.people import actor_name as display_name  # staff only: as their history tables

        return display_name(rl.withdrawn_by) if rl.withdrawn_by_id else None

    def get_url(self, rl) -> str:
        return rl.get_absolute_url()

    def get_csv(self, rl) -> str | None:
        from django.urls import reverse

        return reverse("rating-list-official-csv", args=[rl.published_on]) if rl.in_force else None

    def get_pdf(self, rl) -> str | None:
        from django.urls import reverse

        return reverse("rating-list-official-pdf", args=[rl.published_on]) if rl.in_force else None

    def to_representation(self, instance):
        data = super().to_representation(instance)
        if not self.context.get("staff"):  # who published or withdrew: staff only
            data.pop("published_by", None)
            data.pop("withdrawn_by", None)
        return data


class OfficialListArchivePageSerializer(serializers.Serializer):
    count = serializers.IntegerField()
    next = serializers.URLField(allow_null=True)
    previous = serializers.URLField(allow_null=True)
    results = OfficialListSerializer(many=True)


class OfficialListEntrySerializer(serializers.Serializer):
    rank = serializers.IntegerField(allow_null=True, help_text="Rank among the active players (equal ratings share "
                                                                "a rank: 1, 2, 2, 4); null for inactive players.")
    federation_id = serializers.CharField()
    name = serializers.CharField(help_text='"Last, First" as published.')
    club = serializers.CharField()
    city = serializers.CharField()
    rating = serializers.IntegerField(help_text="Rating as of the list date (rounded).")
    change = serializers.IntegerField(allow_null=True, help_text="Since the previous list in force; null: not on it.")
    sets = serializers.IntegerField(help_text="Rated sets up to the list date.")
    status = serializers.CharField(help_text='"provisional" or "established".')
    active = serializers.BooleanField(help_text="A rated set in the 12 months before the list date.")
    category = serializers.CharField(help_text='Age group in the list\'s year ("u12", "open", "50plus"…; "open" '
                                               "when the birth year is unknown).")


class OfficialListPageSerializer(serializers.Serializer):
    list = OfficialListSerializer()
    count = serializers.IntegerField()
    next = serializers.URLField(allow_null=True)
    previous = serializers.URLField(allow_null=True)
    results = OfficialListEntrySerializer(many=True)


class OfficialListEntriesInputSerializer(serializers.Serializer):
    category = serializers.ChoiceField(
        choices=list(AGE_GROUPS), required=False, allow_blank=True,
        help_text="Age group as on the rating list: u12 = U12 and younger, 50plus = 50+ and older; open = all.",
    )
    active = serializers.BooleanField(required=False, allow_null=True, default=None,
                                      help_text="true: active (ranked) players only; false: inactive only.")


class OfficialListPublishInputSerializer(StrictInputSerializer):
    """Unknown keys and a JSON number for the title or note are refused (400 naming the field)."""

    published_on = serializers.DateField(required=False, help_text="Default: the first day of this month. Not in "
                                                                   "the future.")
    title = serializers.CharField(required=False, allow_blank=True, max_length=120, default="")
    note = serializers.CharField(required=False, allow_blank=True, max_length=500, default="")


class OfficialListWithdrawInputSerializer(serializers.Serializer):
    reason = serializers.CharField(allow_blank=True, max_length=500, help_text="Required: why the list is withdrawn.")


def _official_page(view, request, rating_list, staff: bool) -> Response:
    data = validated_input(OfficialListEntriesInputSerializer, request.query_params)
    filters = list_selectors.ListEntryFilters(category=data.get("category") or "", active=data.get("active"))
    paginator = view.pagination_class()
    page = paginator.paginate_queryset(list_selectors.rating_list_entries(rating_list, filters), request, view=view)
    return Response({
        "list": OfficialListSerializer(rating_list, context={"staff": staff}).data,
        "count": paginator.count, "next": paginator.get_next_link(), "previous": paginator.get_previous_link(),
        "results": OfficialListEntrySerializer(page, many=True).data,
    })


def _list_on(on):
    from federation.errors import NotFound

    rating_list = list_selectors.rating_list_for_date(on)
    if rating_list is None:
        raise NotFound(_("No official rating list of %(d)s.") % {"d": on.isoformat()}, field="date")
    return rating_list


class OfficialListArchiveApi(APIView):
    """Official rating lists, newest first (withdrawn ones too, marked); ``POST`` publishes one (staff)."""

    @extend_schema(
        operation_id="rating_lists_list", tags=["ratings"],
        parameters=[OpenApiParameter("limit", int, description="Page size (default 100)."),
                    OpenApiParameter("offset", int, description="Rows to skip.")],
        responses={200: OfficialListArchivePageSerializer, **error_responses(400)},
    )
    def get(self, request):
        from federation import roles
        from federation.drf import Pagination

        paginator = Pagination()
        page = paginator.paginate_queryset(list_selectors.rating_list_archive(), request, view=self)
        return paginator.get_paginated_response(
            OfficialListSerializer(page, many=True, context={"staff": roles.is_staff(request.user)}).data
        )

    @extend_schema(
        operation_id="rating_lists_publish", tags=["ratings"], request=OfficialListPublishInputSerializer,
        responses={201: OfficialListSerializer, **error_responses(400, 401, 403, 409)},
        description="Publish the official list of `published_on` (federation staff): the national rating as of that "
                    "date, frozen. 400 with field `published_on` for a date in the future; 409 with field "
                    "`published_on` when a list of that date is in force (withdraw it first).",
        examples=[OpenApiExample("May list", value={"published_on": "2026-05-01", "title": "Mayıs 2026"},
                                 request_only=True)],
    )
    def post(self, request):
        from rest_framework import status

        from federation.api_views import _require_staff
        from ratings.lists import services as list_services

        _require_staff(request.user, _("Only federation staff can publish rating lists."))
        data = validated_input(OfficialListPublishInputSerializer, request.data)
        rating_list = list_services.rating_list_publish(
            published_on=data.get("published_on") or list_services.rating_list_default_date(), user=request.user,
            title=data.get("title", ""), note=data.get("note", ""),
        )
        rating_list = list_selectors.rating_list_for_date(rating_list.published_on, list_id=rating_list.pk)
        return Response(OfficialListSerializer(rating_list, context={"staff": True}).data, status=status.HTTP_201_CREATED)


class OfficialListCurrentApi(APIView):
    """The current official list (the newest in force) with its lines, filtered and paginated."""

    pagination_class = Pagination  # limit 1..1000, offset 0..10⁹; anything else a 400

    @extend_schema(
        operation_id="rating_lists_current", tags=["ratings"],
        parameters=[OfficialListEntriesInputSerializer,
                    OpenApiParameter("limit", int, description="Page size (default 100)."),
                    OpenApiParameter("offset", int, description="Rows to skip.")],
        responses={200: OfficialListPageSerializer, **error_responses(400, 404)},
    )
    def get(self, request):
        from federation import roles
        from federation.errors import NotFound

        rating_list = list_selectors.rating_list_current()
        if rating_list is None:
            raise NotFound(_("No official rating list has been published yet."))
        return _official_page(self, request, rating_list, roles.is_staff(request.user))


class OfficialListDetailApi(APIView):
    """The official list of a date (the one in force; else the one withdrawn last, marked) with its
    lines in list order, filters ``category`` and ``active``, ``limit``/``offset`` pages."""

    pagination_class = Pagination  # limit 1..1000, offset 0..10⁹; anything else a 400

    @extend_schema(
        operation_id="rating_lists_retrieve", tags=["ratings"],
        parameters=[_DATE_PARAM, OfficialListEntriesInputSerializer,
                    OpenApiParameter("limit", int, description="Page size (default 100)."),
                    OpenApiParameter("offset", int, description="Rows to skip.")],
        responses={200: OfficialListPageSerializer, **error_responses(400, 404)},
    )
    def get(self, request, on):
        from federation import roles

        return _official_page(self, request, _list_on(on), roles.is_staff(request.user))


class OfficialListWithdrawApi(APIView):
    """Withdraw the official list in force of a date (federation staff), with a reason."""

    @extend_schema(
        operation_id="rating_lists_withdraw", tags=["ratings"], parameters=[_DATE_PARAM],
        request=OfficialListWithdrawInputSerializer,
        responses={200: OfficialListSerializer, **error_responses(400, 401, 403, 404, 409)},
        description="The list stays in the archive, marked withdrawn with who, when and `reason`; a corrected list "
                    "may then be published for the date. 400 with field `reason` when it is empty; 404 when no "
                    "list of that date is in force.",
        examples=[OpenApiExample("Wrong results", value={"reason": "A tournament's results were corrected."},
                                 request_only=True)],
    )
    def post(self, request, on):
        from federation.api_views import _require_staff
        from federation.errors import NotFound
        from ratings.lists import services as list_services

        _require_staff(request.user, _("Only federation staff can withdraw rating lists."))
        rating_list = _list_on(on)
        if not rating_list.in_force:
            raise NotFound(_("No official rating list of %(d)s is in force.") % {"d": on.isoformat()}, field="date")
        data = validated_input(OfficialListWithdrawInputSerializer, request.data)
        list_services.rating_list_withdraw(rating_list=rating_list, user=request.user, reason=data["reason"])
        rating_list = list_selectors.rating_list_for_date(on, list_id=rating_list.pk)
        return Response(OfficialListSerializer(rating_list, context={"staff": True}).data)
