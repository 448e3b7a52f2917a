"""REST API of entries: add a player, withdraw and reinstate, requested byes (see :mod:`tournaments.api`)."""
from __future__ import annotations

from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.response import Response
from rest_framework.views import APIView

from federation.api_views import validated_input
from federation.errors import NotFound
from federation.models import Player
from tournaments import serializers as s
from tournaments.api import TAG, _errors, _organised
from tournaments.entries import services as entry_services
from tournaments.models import Entry, Tournament


def _entry(t: Tournament, start_no: int) -> Entry:
    e = t.entries.filter(start_no=start_no).select_related("player__club", "tournament").first()
    if e is None:
        raise NotFound(_("No entry with starting number %(n)d.") % {"n": start_no})
    return e


def _entry_data(entry: Entry, user) -> dict:
    from tournaments.access import sees_event_personal_data

    return s.EntryOutputSerializer(entry, context={"personal": sees_event_personal_data(user, entry.tournament)}).data


class EntryAddApi(APIView):
    """Enter a player by federation id; starting numbers are re-sorted by rating (C.04.2 A.2)."""

    @extend_schema(operation_id="entries_create", tags=TAG, request=s.EntryAddInputSerializer,
                   responses={201: s.EntryOutputSerializer, **_errors(400, 403, 404, 409)})
    def post(self, request, slug: str):
        t = _organised(slug, request, _("Only the organiser can change entries."))
        data = validated_input(s.EntryAddInputSerializer, request.data)
        player = Player.objects.filter(federation_id=data["federation_id"]).first()
        if player is None:
            raise NotFound(_("No player with federation id %(id)s.") % {"id": data["federation_id"]},
                           field="federation_id")
        entry = entry_services.entry_add(tournament=t, player=player, user=request.user, missed_rounds=data["missed_rounds"])
        return Response(_entry_data(entry, request.user), status=status.HTTP_201_CREATED)


class EntryWithdrawApi(APIView):
    """Withdraw an entry from the following rounds."""

    @extend_schema(operation_id="entries_withdraw", tags=TAG, request=s.ReasonInputSerializer,
                   responses={200: s.EntryOutputSerializer, **_errors(403, 404, 409)})
    def post(self, request, slug: str, start_no: int):
        t = _organised(slug, request, _("Only the organiser can change entries."))
        data = validated_input(s.ReasonInputSerializer, request.data)
        entry = entry_services.entry_withdraw(entry=_entry(t, start_no), user=request.user,
                                              reason=data["reason"])
        return Response(_entry_data(entry, request.user))


class EntryReinstateApi(APIView):
    """Undo a withdrawal: the player is paired again from the next round."""

    @extend_schema(operation_id="entries_reinstate", tags=TAG, request=s.ReasonInputSerializer,
                   responses={200: s.EntryOutputSerializer, **_errors(403, 404, 409)})
    def post(self, request, slug: str, start_no: int):
        t = _organised(slug, request, _("Only the organiser can change entries."))
        data = validated_input(s.ReasonInputSerializer, request.data)
        entry = entry_services.entry_reinstate(entry=_entry(t, start_no), user=request.user,
                                               reason=data["reason"])
        return Response(_entry_data(entry, request.user))


class ByeRequestApi(APIView):
    """Request a half- or zero-point bye for a round not paired yet (C.04.2 pre-assigned byes)."""

    @extend_schema(operation_id="byes_create", tags=TAG, request=s.ByeRequestInputSerializer,
                   responses={201: s.ByeRequestInputSerializer, **_errors(400, 403, 404, 409)})
    def post(self, request, slug: str):
        t = _organised(slug, request, _("Only the organiser can change entries."))
        data = validated_input(s.ByeRequestInputSerializer, request.data)
        absence = entry_services.entry_request_bye(
            entry=_entry(t, data["start_no"]), round_number=data["round_number"], kind=data["kind"], user=request.user,
        )
        out = {"start_no": data["start_no"], "round_number": absence.round_number, "kind": absence.kind}
        return Response(out, status=status.HTTP_201_CREATED)


class ByeWithdrawApi(APIView):
    """Withdraw a requested bye before its round is paired."""

    @extend_schema(operation_id="byes_destroy", tags=TAG, request=s.ReasonInputSerializer,
                   responses={204: None, **_errors(403, 404, 409)})
    def delete(self, request, slug: str, start_no: int, number: int):
        t = _organised(slug, request, _("Only the organiser can change entries."))
        data = validated_input(s.ReasonInputSerializer, request.data)
        entry_services.entry_bye_withdraw(entry=_entry(t, start_no), round_number=number, user=request.user,
                                          reason=data["reason"])
        return Response(status=status.HTTP_204_NO_CONTENT)
