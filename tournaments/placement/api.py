"""JSON twin of the "why am I placed here" page (issue 25):
``GET /api/tournaments/<slug>/standings/<start_no>/why/``, behind the standings API's publish gate (the
public once the standings are published; organisers always). Labels in the request's language."""
from __future__ import annotations

from django.utils.translation import get_language
from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from federation.api_views import error_responses
from federation.errors import NotFound
from tournaments import access, publication
from tournaments.models import Tournament
from tournaments.placement import selectors

TAG = ["tournaments"]


class PlacementLineSerializer(serializers.Serializer):
    start_no = serializers.IntegerField()
    name = serializers.CharField()
    rank = serializers.IntegerField()
    shared = serializers.BooleanField(help_text="Shares the rank: level on points and every tie-break.")
    points = serializers.FloatField()
    tiebreaks = serializers.ListField(child=serializers.FloatField(), help_text="In the order of tiebreak_keys.")


class PlacementStepSerializer(serializers.Serializer):
    label = serializers.CharField(help_text="\"Points\" or a tie-break's label.")
    own = serializers.FloatField(help_text="The player's value.")
    other = serializers.FloatField(help_text="The neighbour's value.")
    decisive = serializers.BooleanField(help_text="This step separated them.")


class PlacementComparisonSerializer(serializers.Serializer):
    neighbour = PlacementLineSerializer()
    steps = PlacementStepSerializer(many=True, help_text="Compared in order, up to the one that separated them.")
    decided_by = serializers.CharField(allow_null=True, help_text="The separating step's label; null: level.")
    playoff = serializers.BooleanField(help_text="Level on everything; a play-off decided the place.")


class PlacementOutputSerializer(serializers.Serializer):
    rounds = serializers.IntegerField(help_text="Standings after this round.")
    provisional = serializers.BooleanField()
    tiebreak_keys = serializers.ListField(child=serializers.CharField())
    tiebreak_labels = serializers.ListField(child=serializers.CharField())
    player = PlacementLineSerializer()
    above = PlacementComparisonSerializer(allow_null=True, help_text="The line just above; null at the top.")
    below = PlacementComparisonSerializer(allow_null=True, help_text="The line just below; null at the bottom.")


def _line(line) -> dict:
    return {"start_no": line.start_no, "name": line.name, "rank": line.rank, "shared": line.shared,
            "points": line.points, "tiebreaks": list(line.tiebreaks)}


def _comparison(cmp) -> dict | None:
    if cmp is None:
        return None
    return {"neighbour": _line(cmp.line), "decided_by": cmp.decided_by, "playoff": cmp.playoff,
            "steps": [{"label": s.label, "own": s.own, "other": s.other, "decisive": s.decisive} for s in cmp.steps]}


class PlacementApi(APIView):
    """Why a player is placed where they are: the values compared with the player just above and just
    below, in the tie-break order, and the one that separated them (``decided_by``; null = level)."""

    @extend_schema(operation_id="standings_placement", tags=TAG,
                   responses={200: PlacementOutputSerializer, **error_responses(404)})
    def get(self, request, slug: str, start_no: int):
        t = publication.get_tournament(slug, request.user)
        if t.system == Tournament.System.KNOCKOUT or t.format == Tournament.Format.TEAM:
            raise NotFound(_("No tie-break standings in this tournament."))
        can_org = access.can_organise(request.user, t)
        if not t.standings_published and not can_org:
            raise NotFound(_("The standings are not published yet."))
        lang = "en" if (get_language() or "tr").startswith("en") else "tr"
        place = selectors.player_placement(tournament=t, start_no=start_no, public_only=not can_org, lang=lang)
        st = place.standings
        data = {"rounds": st.rounds, "provisional": st.provisional, "tiebreak_keys": list(st.tiebreak_keys),
                "tiebreak_labels": list(st.tiebreak_labels), "player": _line(place.line),
                "above": _comparison(place.above), "below": _comparison(place.below)}
        return Response(PlacementOutputSerializer(data).data)
