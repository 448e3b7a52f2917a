"""REST API of rounds: pair, read, reopen or delete, publish, close, and the forbidden pairs (see
:mod:`tournaments.api`)."""
from __future__ import annotations

from django.db.models import Max
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiExample, extend_schema
from rest_framework import status
from rest_framework.response import Response
from rest_framework.views import APIView

from federation.api_views import validated_input
from federation.errors import NotFound, ValidationFailed
from tournaments import selectors
from tournaments import serializers as s
from tournaments.api import TAG, _errors, _organised, _round, _tournament
from tournaments.models import ForbiddenPair, Round, Tournament
from tournaments.rounds import services as round_services


def _visible_round(t: Tournament, number: int, user) -> Round:
    r = next((r for r in selectors.visible_rounds(tournament=t, user=user) if r.number == number), None)
    if r is None:
        raise NotFound(_("Round %(n)d is not published.") % {"n": number})
    return r


def _round_data(r: Round) -> dict:
    return s.RoundOutputSerializer(r, context={"boards": selectors.round_boards(round=r)}).data


class RoundPairApi(APIView):
    """Pair the next round (status ``paired``, not public yet). Round 1 records a coin toss."""

    @extend_schema(
        operation_id="rounds_pair", tags=TAG, request=s.RoundPairInputSerializer,
        responses={201: s.RoundOutputSerializer, **_errors(400, 403, 404, 409)},
        examples=[OpenApiExample("Round 1 with a given coin seed", value={"coin_seed": "abc"}, request_only=True)],
    )
    def post(self, request, slug: str):
        t = _organised(slug, request, _("Only the organiser can pair rounds."))
        data = validated_input(s.RoundPairInputSerializer, request.data)
        if t.format == Tournament.Format.TEAM:  # team events: the teams are paired (tournaments/teams/services.py)
            from tournaments.teams.services import team_round_pair

            r = team_round_pair(tournament=t, user=request.user, coin_seed=data["coin_seed"] or None)
        else:
            r = round_services.round_pair(tournament=t, user=request.user, coin_seed=data["coin_seed"] or None)
        return Response(_round_data(r), status=status.HTTP_201_CREATED)


class RoundDetailApi(APIView):
    """A round's pairing list with results and sets; hidden (404) from the public until published."""

    @extend_schema(operation_id="rounds_retrieve", tags=TAG, responses={200: s.RoundOutputSerializer, **_errors(404)})
    def get(self, request, slug: str, number: int):
        return Response(_round_data(_visible_round(_tournament(slug, request.user), number, request.user)))

    @extend_schema(
        operation_id="rounds_destroy", tags=TAG, request=s.ReasonInputSerializer,
        responses={204: None, **_errors(401, 403, 404, 409)},
        description="Undo the pairing of the last round while no result is entered in it; it can then be "
        "paired again (services.round_delete).",
    )
    def delete(self, request, slug: str, number: int):
        r = _round(_organised(slug, request, _("Only the organiser can delete a pairing.")), number)
        data = validated_input(s.ReasonInputSerializer, request.data)
        round_services.round_delete(round=r, user=request.user, reason=data["reason"])
        return Response(status=status.HTTP_204_NO_CONTENT)


class RoundReopenApi(APIView):
    """Reopen the last closed round (closed → published), with a reason."""

    @extend_schema(operation_id="rounds_reopen", tags=TAG, request=s.RequiredReasonInputSerializer,
                   responses={200: s.RoundOutputSerializer, **_errors(400, 401, 403, 404, 409)})
    def post(self, request, slug: str, number: int):
        r = _round(_organised(slug, request, _("Only the organiser can reopen a round.")), number)
        data = validated_input(s.RequiredReasonInputSerializer, request.data)
        r = round_services.round_reopen(round=r, user=request.user, reason=data["reason"])
        return Response(_round_data(r))


class RoundPublishApi(APIView):
    """Publish a paired round's pairing list (paired → published)."""

    @extend_schema(operation_id="rounds_publish", tags=TAG, request=None,
                   responses={200: s.RoundOutputSerializer, **_errors(403, 404, 409)})
    def post(self, request, slug: str, number: int):
        t = _organised(slug, request, _("Only the organiser can publish pairings."))
        r = round_services.round_publish(round=_round(t, number), user=request.user)
        return Response(_round_data(r))


class RoundCloseApi(APIView):
    """Close a published round once every board has a result (published → closed)."""

    @extend_schema(operation_id="rounds_close", tags=TAG, request=None,
                   responses={200: s.RoundOutputSerializer, **_errors(403, 404, 409)})
    def post(self, request, slug: str, number: int):
        t = _organised(slug, request, _("Only the organiser can close rounds."))
        r = round_services.round_close(round=_round(t, number), user=request.user)
        return Response(_round_data(r))


def _forbidden_pairs(t: Tournament):
    return t.forbidden_pairs.select_related("first__player", "second__player", "created_by").order_by(
        "first_round", "first__start_no", "second__start_no"
    )


class ForbiddenPairListApi(APIView):
    """Players who must not be paired with each other in a range of rounds (Swiss; organisers only)."""

    @extend_schema(
        operation_id="forbidden_pairs_list", tags=TAG,
        responses={200: s.ForbiddenPairOutputSerializer(many=True), **_errors(401, 403, 404)},
        description="The tournament's forbidden pairs, by first round (organisers of the event and staff).",
    )
    def get(self, request, slug: str):
        t = _organised(slug, request)
        return Response(s.ForbiddenPairOutputSerializer(_forbidden_pairs(t), many=True).data)

    @extend_schema(
        operation_id="forbidden_pairs_create", tags=TAG, request=s.ForbiddenPairInputSerializer,
        responses={201: s.ForbiddenPairOutputSerializer, **_errors(400, 401, 403, 404, 409)},
        description=(
            "Forbid pairing two players (starting numbers) in rounds first_round..last_round (null: to the "
            "end). A paired round never changes: first_round defaults to the next round to pair, and a range "
            'over a paired round is a 400 with field "first_round" or "last_round". The same player twice or an '
            'unknown starting number: 400 with field "second" / "first". A round robin, a finished event or an '
            "overlapping pair of the same players: 409. Recorded in the history."
        ),
        examples=[OpenApiExample("Siblings in rounds 1-3", request_only=True,
                                 value={"first": 3, "second": 8, "first_round": 1, "last_round": 3,
                                        "reason": "kardeşler"})],
    )
    def post(self, request, slug: str):
        t = _organised(slug, request)
        data = validated_input(s.ForbiddenPairInputSerializer, request.data)
        found = {}
        for key in ("first", "second"):
            found[key] = t.entries.filter(start_no=data[key]).select_related("player").first()
            if found[key] is None:
                raise ValidationFailed(_("No entry with starting number %(n)d.") % {"n": data[key]}, field=key)
        first, second = found["first"], found["second"]
        first_round = data["first_round"]
        if first_round is None:
            first_round = min((t.rounds.aggregate(m=Max("number"))["m"] or 0) + 1, t.rounds_total)
        pair = round_services.forbidden_pair_add(
            tournament=t, first=first, second=second, first_round=first_round, last_round=data["last_round"],
            reason=data["reason"], user=request.user,
        )
        pair = _forbidden_pairs(t).get(pk=pair.pk)
        return Response(s.ForbiddenPairOutputSerializer(pair).data, status=status.HTTP_201_CREATED)


class ForbiddenPairDetailApi(APIView):
    """One forbidden pair (organisers only)."""

    @extend_schema(
        operation_id="forbidden_pairs_destroy", tags=TAG, request=s.ReasonInputSerializer,
        responses={204: None, **_errors(400, 401, 403, 404)},
        description="Remove a forbidden pair: the next rounds may pair the two players again (paired rounds stay). "
        "Recorded in the history with the optional reason.",
    )
    def delete(self, request, slug: str, pair_id: int):
        t = _organised(slug, request)
        pair = ForbiddenPair.objects.filter(tournament=t, pk=pair_id).first()
        if pair is None:
            raise NotFound(_("No forbidden pair %(id)d in this tournament.") % {"id": pair_id})
        data = validated_input(s.ReasonInputSerializer, request.data)
        round_services.forbidden_pair_remove(pair=pair, user=request.user, reason=data["reason"])
        return Response(status=status.HTTP_204_NO_CONTENT)
