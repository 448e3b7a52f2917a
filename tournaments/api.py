"""REST API of tournaments: one view per operation, calling :mod:`tournaments.services` for writes
and :mod:`tournaments.selectors` for reads.

Reads are public (``IsAuthenticatedOrReadOnly``): the public sees published and closed rounds only
and standings only once published; organisers and referees see every round, organisers always see
standings. Writes need a login; who may do what is decided by the services (``tournaments.access``).
Every refusal is an :class:`federation.errors.ApplicationError`, rendered as
``{"error": {"code", "message", "field"}}``.
"""
from __future__ import annotations

import django_filters
from django import forms
from django.db.models import Max
from django.urls import reverse
from django.utils import translation
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiExample, OpenApiParameter, extend_schema, extend_schema_field
from rest_framework import exceptions as drf_exceptions
from rest_framework import generics, status
from rest_framework.parsers import FormParser, MultiPartParser
from rest_framework.response import Response
from rest_framework.views import APIView

from federation import roles
from federation.api_views import error_responses, validated_input
from federation.errors import NotFound, ValidationFailed
from federation.models import Player
from federation.prepared import PreparedRead
from tournaments import access, caching, publication, selectors
from tournaments import services
from tournaments.entries import services as entry_services
from tournaments.results import services as result_services
from tournaments.rounds import services as round_services
from tournaments.history import selectors as history
from tournaments.trf import exchange as trf_io
from tournaments import serializers as s
from tournaments.models import Entry, ForbiddenPair, Match, Round, Tournament

TAG = ["tournaments"]
_errors = error_responses


# --------------------------------------------------------------------------------------------
# Lookups (NotFound when missing or hidden)
# --------------------------------------------------------------------------------------------


def _tournament(slug: str, user=None) -> Tournament:
    """The tournament as ``user`` may see it (the publish gate: archived ones for staff only)."""
    return publication.get_tournament(slug, user)


def _round(t: Tournament, number: int) -> Round:
    r = t.rounds.filter(number=number).select_related("tournament").first()
    if r is None:
        raise NotFound(_("Round %(n)d does not exist.") % {"n": number})
    return r


def _visible_round(t: Tournament, number: int, user) -> Round:
    r = next((r for r in selectors.visible_rounds(tournament=t, user=user) if r.number == number), None)
    if r is None:
        raise NotFound(_("Round %(n)d is not published.") % {"n": number})
    return r


def _entry(t: Tournament, start_no: int) -> Entry:
    e = t.entries.filter(start_no=start_no).select_related("player__club", "tournament").first()
    if e is None:
        raise NotFound(_("No entry with starting number %(n)d.") % {"n": start_no})
    return e


def _board(r: Round, board: int) -> Match:
    m = r.matches.filter(board=board).select_related("round__tournament").first()
    if m is None:
        raise NotFound(_("Round %(r)d has no board %(b)d.") % {"r": r.number, "b": board})
    return m


_BOARD_READ = PreparedRead(  # built once: the result POST's first read (issue 22)
    lambda slug, number, board: Match.objects.filter(round__tournament__slug=slug, round__number=number, board=board)
    .select_related("round__tournament").order_by()[:1],
    slug="\x00slug", number=32_761, board=32_759,  # placeholders: in the columns' range, found in no query
)


def _tournament_board(slug: str, number: int, board: int, user) -> Match:
    """Board ``board`` of round ``number`` of tournament ``slug`` as ``user`` may see it, with its round and
    tournament, in one query; when it is not there, the lookups one by one say what is missing
    (:func:`_tournament`, :func:`_round`, :func:`_board`: NotFound)."""
    m = _BOARD_READ.first(slug=slug, number=number, board=board)
    if m is None or not publication.tournament_visible(m.round.tournament, user):
        t = _tournament(slug, user)
        _may_enter_results(t, user)  # 403 before "no such round/board" (permission before validation)
        return _board(_round(t, number), board)
    return m


def _may_enter_results(t: Tournament, user) -> None:
    """401 for an anonymous user, 403 unless ``user`` may enter results in ``t`` (referee or organiser)."""
    if not getattr(user, "is_authenticated", False):
        raise drf_exceptions.NotAuthenticated()
    access.require(access.can_enter_results(user, t), _("Only referees and organisers can enter results."))


def _round_data(r: Round) -> dict:
    return s.RoundOutputSerializer(r, context={"boards": selectors.round_boards(round=r)}).data


def _tournament_data(t: Tournament, user) -> dict:
    from federation.privacy import sees_event_personal_data

    rounds = selectors.visible_rounds(tournament=t, user=user)
    return s.TournamentDetailOutputSerializer(
        t, context={"rounds": rounds, "personal": sees_event_personal_data(user, t)}
    ).data


def _entry_data(entry: Entry, user) -> dict:
    from federation.privacy import sees_event_personal_data

    return s.EntryOutputSerializer(entry, context={"personal": sees_event_personal_data(user, entry.tournament)}).data


# --------------------------------------------------------------------------------------------
# Tournaments
# --------------------------------------------------------------------------------------------


@extend_schema_field({"type": "integer", "minimum": 1900, "maximum": 2100})
class YearFilter(django_filters.NumberFilter):
    """A whole year 1900..2100 (a decimal or out-of-range value is a 400, not an overflow)."""

    field_class = forms.IntegerField


class TournamentFilter(django_filters.FilterSet):
    status = django_filters.ChoiceFilter(choices=Tournament.Status.choices)
    system = django_filters.ChoiceFilter(choices=Tournament.System.choices)
    year = YearFilter(field_name="start_date", lookup_expr="year", min_value=1900, max_value=2100,
                      help_text="Year of the start date (1900..2100).")

    class Meta:
        model = Tournament
        fields = ["status", "system", "year"]


class TournamentListApi(generics.ListAPIView):
    """Tournaments, newest first; filters ``status``, ``system``, ``year``."""

    serializer_class = s.TournamentListOutputSerializer
    filterset_class = TournamentFilter

    def get_queryset(self):
        return selectors.tournament_list(user=self.request.user)

    @extend_schema(operation_id="tournaments_list", tags=TAG)
    def get(self, request, *args, **kwargs):
        return super().get(request, *args, **kwargs)

    @extend_schema(
        operation_id="tournaments_create", tags=TAG, request=s.TournamentCreateInputSerializer,
        responses={201: s.TournamentDetailOutputSerializer, **_errors(400, 403)},
        description="Create a draft tournament (organisers and staff; services.tournament_create).\n\n"
        "Rules between fields (each broken one is a 400 naming the field): `end_date` not before "
        "`start_date`; the knockout settings (`knockout_sets`, `third_place_match`, `level_match_rule`, "
        "`max_deciders`, `qualified_from`, `qualifiers`) only with `system` knockout; `max_deciders` 1..9 "
        "with `level_match_rule` deciders_then_seed; `qualifiers` only with `qualified_from`, which names "
        "an existing, not archived Swiss or round robin with at least `qualifiers` entries.",
    )
    def post(self, request, *args, **kwargs):
        access.require(access.can_create_tournament(request.user), _("Only organisers can create tournaments."))
        data = validated_input(s.TournamentCreateInputSerializer, request.data)
        t = services.tournament_create(created_by=request.user, **data)
        return Response(_tournament_data(t, request.user), status=status.HTTP_201_CREATED)


class TournamentDetailApi(APIView):
    """A tournament with its entries and the rounds this user may see."""

    @extend_schema(operation_id="tournaments_retrieve", tags=TAG,
                   responses={200: s.TournamentDetailOutputSerializer, **_errors(404)})
    def get(self, request, slug: str):
        return Response(_tournament_data(_tournament(slug, request.user), request.user))

    @extend_schema(
        operation_id="tournaments_update", tags=TAG, request=s.TournamentUpdateInputSerializer,
        responses={200: s.TournamentDetailOutputSerializer, **_errors(400, 401, 403, 404, 409)},
        description="Edit settings (organisers): name, dates, venue, city, chief arbiter, time control, "
        "tie-breaks (until round 1 is paired; staff later too), number of rounds, accelerated pairing (until "
        "round 1 is paired, FIDE C.04.5.1), tie-break rules text (any time), second-cycle swap of a double "
        "round robin (until a round it decides is paired). Recorded in the history.",
    )
    def patch(self, request, slug: str):
        t = _organised(slug, request, _("Only the organiser can edit the tournament."))
        data = dict(validated_input(s.TournamentUpdateInputSerializer, request.data))
        reason = data.pop("reason", "")
        t = services.tournament_update(tournament=t, user=request.user, reason=reason, **data)
        return Response(_tournament_data(t, request.user))

    @extend_schema(
        operation_id="tournaments_destroy", tags=TAG, request=s.TournamentDeleteInputSerializer,
        responses={204: None, 200: s.TournamentDetailOutputSerializer, **_errors(400, 401, 403, 404)},
        description="Staff only, with the slug typed again (`confirm`) and a reason. A tournament with rated "
        "results is archived (200, hidden, no longer rated; POST .../restore/ brings it back); any other is "
        "deleted (204).",
    )
    def delete(self, request, slug: str):
        t = _staff_only(slug, request, _("Only federation staff can delete tournaments."))
        data = validated_input(s.TournamentDeleteInputSerializer, request.data)
        kept = services.tournament_delete(tournament=t, user=request.user, reason=data["reason"], confirm=data["confirm"])
        if kept is None:
            return Response(status=status.HTTP_204_NO_CONTENT)
        return Response(_tournament_data(kept, request.user))


class TournamentRestoreApi(APIView):
    """Bring an archived tournament back (staff)."""

    @extend_schema(operation_id="tournaments_restore", tags=TAG, request=s.ReasonInputSerializer,
                   responses={200: s.TournamentDetailOutputSerializer, **_errors(401, 403, 404, 409)})
    def post(self, request, slug: str):
        t = _staff_only(slug, request, _("Only federation staff can restore tournaments."))
        data = validated_input(s.ReasonInputSerializer, request.data)
        t = services.tournament_restore(tournament=t, user=request.user, reason=data["reason"])
        return Response(_tournament_data(t, request.user))


class TournamentHistoryApi(APIView):
    """Every change of the tournament, newest first (organisers and staff)."""

    @extend_schema(
        operation_id="tournaments_history", tags=TAG,
        parameters=[
            OpenApiParameter("round", int, description="Only actions touching this round."),
            OpenApiParameter("board", int, description="Only actions touching this board (with round)."),
            OpenApiParameter("limit", int, description="At most this many items (1..1000, default 200)."),
            OpenApiParameter("offset", int, description="Skip this many items."),
        ],
        responses={200: s.HistoryItemSerializer(many=True), **_errors(400, 401, 403, 404)},
    )
    def get(self, request, slug: str):
        if not request.user.is_authenticated:
            raise drf_exceptions.NotAuthenticated()
        gone = history.deleted_tournament(slug) if roles.is_staff(request.user) else None
        t = gone or _tournament(slug, request.user)  # staff also read the history of a deleted tournament
        if gone is None:
            access.require(publication.sees_everything(t, request.user), _("Only the organiser can see the history."))
        params = {}
        for name, lo, hi in (("round", 1, 99), ("board", 1, 9999), ("limit", 1, 1000), ("offset", 0, 10**6)):
            raw = request.query_params.get(name)
            if raw in (None, ""):
                continue
            if not (raw.isascii() and raw.isdigit()) or not lo <= int(raw) <= hi:
                raise ValidationFailed(_("Must be a whole number from %(lo)d to %(hi)d.") % {"lo": lo, "hi": hi},
                                       field=name)
            params[name] = int(raw)
        with translation.override("en"):  # object labels are keys of before/after: the same in every language
            items = history.tournament_history(
                tournament=t, round_number=params.get("round"), board=params.get("board"),
                limit=params.get("limit", 200), offset=params.get("offset", 0),
            )
            return Response([i.as_dict() for i in items])


class TournamentImportTrfApi(APIView):
    """Import a TRF-16 file as a tournament with closed rounds (services: trf_io.tournament_import_trf)."""

    parser_classes = [MultiPartParser, FormParser]

    @extend_schema(
        operation_id="tournaments_import_trf", tags=TAG,
        request={"multipart/form-data": s.TrfImportInputSerializer},
        responses={201: s.ImportOutputSerializer, 200: s.ImportOutputSerializer, 202: s.TrfImportJobSerializer,
                   **_errors(400, 403, 503)},
        description=(
            'A file that cannot be read → 400 with field "file" and the line number in the message; a file '
            'larger than TRF_MAX_UPLOAD_BYTES (2 MB) → 400 with field "file"; a file without a 092 line (or one '
            'saying neither Swiss nor round robin) and no "system" → 400 with field "system". A file of more '
            "than TRF_JOB_MIN_PLAYERS (250) players or TRF_JOB_MIN_CELLS (2,500) result cells is imported by a job: 202 with the job's id and "
            "status_url (GET /api/tournaments/import-trf/<job>/); 503 when the job queue cannot be reached. "
            '"dry_run": 200 with the report of what would be imported (proposed player matches, notes), '
            "nothing saved; a file that needs a job cannot be previewed (400). Lines without a FIDE id are "
            'matched to known players (same name, birth year and code) unless "match_players" is false; '
            '"player_matches" decides per line. A line whose FIDE id belongs to a stored player with another name '
            'or birth year is refused (400 with field "player_matches"; in a dry run how "conflict") unless '
            '"player_matches" confirms it with that FIDE id. A finished event\'s standings are published unless '
            '"publish" is false.'
        ),
    )
    def post(self, request):
        access.require(access.can_create_tournament(request.user), _("Only organisers can import tournaments."))
        upload = request.data.get("file") if hasattr(request.data, "get") else None
        if upload is not None and hasattr(upload, "size"):
            trf_io.check_upload_size(upload.size)  # before anything reads it
        data = validated_input(s.TrfImportInputSerializer, request.data)
        upload = data["file"]
        content = trf_io.read_upload(upload)
        options = {"system": data["system"] or None, "publish": data["publish"],
                   "match_players": data["match_players"], "player_matches": data["player_matches"]}
        if trf_io.needs_job(content):
            if data["dry_run"]:
                raise ValidationFailed(_("A file this big is imported by a job and cannot be previewed; import it "
                                         "and delete the tournament if it is wrong."), field="dry_run")
            row = trf_io.trf_import_queue(
                data=content, source=upload.name or "upload.trf", user=request.user, name=data["name"] or None,
                **options,
            )
            out = {"job": row.id, "status": row.status,
                   "status_url": reverse("api-tournament-import-trf-status", args=[row.id])}
            return Response(s.TrfImportJobSerializer(out).data, status=status.HTTP_202_ACCEPTED)
        report = trf_io.tournament_import_trf(
            data=content, source=upload.name or "upload.trf", user=request.user, name=data["name"] or None,
            dry_run=data["dry_run"], **options,
        )
        t = report.tournament
        out = {
            "slug": None if report.dry_run else t.slug, "name": t.name, "system": t.system, "status": t.status,
            "published": t.standings_published_at is not None, "dry_run": report.dry_run,
            "rounds": report.rounds, "entries": report.entries, "notes": report.notes,
            "players": [p.as_dict() for p in report.players],
        }
        return Response(s.ImportOutputSerializer(out).data,
                        status=status.HTTP_200_OK if report.dry_run else status.HTTP_201_CREATED)


class TournamentImportTrfStatusApi(APIView):
    """A TRF import job (trf_io.trf_import_get): for its creator and federation staff."""

    @extend_schema(
        operation_id="tournaments_import_trf_status", tags=TAG,
        responses={200: s.TrfImportStatusSerializer, **_errors(401, 404)},
        description="Status and progress of a TRF file imported by a job; once done the new tournament's slug.",
    )
    def get(self, request, import_id: int):
        row = trf_io.trf_import_get(import_id=import_id, user=request.user)
        error = ({"code": "invalid", "message": row.error, "field": row.error_field or None}
                 if row.status == row.Status.FAILED else None)
        out = {
            "job": row.id, "status": row.status, "progress": 100 if not row.is_active else row.progress,
            "players": row.players, "cells": row.cells, "source": row.source, "created_at": row.created_at,
            "finished_at": row.finished_at, "slug": row.tournament.slug if row.tournament else None,
            "notes": row.notes or [], "error": error,
        }
        return Response(s.TrfImportStatusSerializer(out).data)


# --------------------------------------------------------------------------------------------
# Entries
# --------------------------------------------------------------------------------------------


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


# --------------------------------------------------------------------------------------------
# Rounds
# --------------------------------------------------------------------------------------------


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


class MatchResultApi(APIView):
    """Enter or correct a board's result from its sets (or a forfeit); result_services.match_result_enter."""

    @extend_schema(
        operation_id="rounds_board_result", tags=TAG, request=s.MatchResultInputSerializer,
        responses={200: s.MatchResultOutputSerializer, **_errors(400, 401, 403, 404, 409, 428)},
        description=(
            "Sets in play order; the match's white starts sets 1, 3, 5. A match is decided as soon as "
            "one player's lead cannot be caught (2–0 in 3 sets). Bad input → 400 with field "
            '"sets[i]" (1-based) or "sets" and the reason. Once the board has a result, a change must carry '
            'the version seen ("version" or If-Match: "3"): none → 428, an old one → 409 with "current". '
            "A closed round's result is corrected by organisers with a \"reason\" (referees → 409). "
            "The response carries the new version as ETag."
        ),
        parameters=[OpenApiParameter("If-Match", str, location=OpenApiParameter.HEADER, required=False,
                                     description='The match version you saw, e.g. "3".')],
        examples=[OpenApiExample(
            "White wins 2–0",
            value={"sets": [{"white_store": 30, "black_store": 18, "termination": "completed", "moves": ""},
                            {"white_store": 26, "black_store": 22, "termination": "completed", "moves": ""}],
                   "forfeit": "", "version": 1},
            request_only=True,
        )],
    )
    def post(self, request, slug: str, number: int, board: int):
        match = _tournament_board(slug, number, board, request.user)
        _may_enter_results(match.round.tournament, request.user)  # 403 before the body is looked at
        data = validated_input(s.MatchResultInputSerializer, request.data)
        sets = [
            result_services.SetInput(
                white_store=x["white_store"], black_store=x["black_store"],
                termination=x["termination"] or "completed", moves=x["moves"],
            )
            for x in data["sets"]
        ]
        version = data["version"]
        if version is None:
            version = _if_match_version(request.headers.get("If-Match"))
        match = result_services.match_result_enter(
            match=match, sets=sets, forfeit=data["forfeit"], user=request.user, expected_version=version,
            reason=data["reason"], decider_starter=data.get("decider_starter") or "",
        )
        # the match as written, its sets from memory (result_services._remember_sets): nothing is read back
        response = Response(s.match_result_data(match))  # = MatchResultOutputSerializer(match).data
        response["ETag"] = f'"{match.version}"'
        return response


def _if_match_version(header: str | None) -> int | None:
    """The version in an ``If-Match`` header (``"3"``, ``W/"3"`` or ``3``); None when absent.
    Raises ValidationFailed (field ``If-Match``) for anything else."""
    if header is None or not header.strip():
        return None
    text = header.strip()
    if text.startswith("W/"):
        text = text[2:]
    text = text.strip('"')
    if not (text.isascii() and text.isdigit()) or not 1 <= int(text) <= 2_000_000_000:
        raise ValidationFailed(_('If-Match must be the version you saw, e.g. "3".'), field="If-Match")
    return int(text)


# --------------------------------------------------------------------------------------------
# Standings
# --------------------------------------------------------------------------------------------


def _standings_responses():
    """The standings of an individual event, or of a team event (``format`` = ``team``: team rows)."""
    from drf_spectacular.utils import PolymorphicProxySerializer

    from tournaments.teams.api import TeamStandingsOutputSerializer

    return PolymorphicProxySerializer(
        component_name="StandingsOrTeamStandings", resource_type_field_name=None,
        serializers=[s.StandingsOutputSerializer, TeamStandingsOutputSerializer],
    )


class StandingsApi(APIView):
    """Standings with the tournament's tie-breaks in order (FIDE C.07). The public sees them once
    published (counting published rounds only); organisers always."""

    @extend_schema(
        operation_id="standings_retrieve", tags=TAG, responses={200: _standings_responses(), **_errors(400, 404)},
        parameters=[
            OpenApiParameter(
                "lang", str, enum=["tr", "en"], description="Language of the tie-break labels; default: the request's.",
            ),
            OpenApiParameter(
                "category", str,
                description="A category's code (the tournament's `categories`, e.g. U12, KIZ; case does not matter): "
                "only its members, ranked within the category, each row with its `overall_rank`. An unknown code → "
                '400 with field "category".',
            ),
        ],
    )
    def get(self, request, slug: str):
        from tournaments.prizes import selectors as category_selectors

        t = _tournament(slug, request.user)
        lang = (request.query_params.get("lang") or get_language() or "tr")[:2]
        lang = lang if lang in ("tr", "en") else "tr"
        if access.can_organise(request.user, t):
            public_only = False
        elif t.standings_published:
            public_only = True
        else:
            raise NotFound(_("The standings are not published yet."))
        if t.format == Tournament.Format.TEAM:  # team rows with match and board points (tournaments/teams/api.py)
            from tournaments.teams import api as team_api

            return Response(caching.tournament_cached(
                "team-standings-api", tournament=t, parts=(lang,), public=public_only,
                build=lambda: team_api.standings_response(tournament=t, public_only=public_only, lang=lang),
            ))
        code = ""
        if request.query_params.get("category") not in (None, ""):
            categories = caching.tournament_cached(
                "categories", tournament=t, public=public_only,
                build=lambda: category_selectors.category_infos(tournament=t),
            )
            code = category_selectors.find_category(categories, request.query_params["category"]).code

        def build() -> dict:
            category = None
            if code:
                category, table = category_selectors.category_standings(
                    tournament=t, code=code, public_only=public_only, lang=lang
                )
            else:
                table = selectors.tournament_standings(tournament=t, public_only=public_only, lang=lang)
            with translation.override(lang):
                rules_text = selectors.tiebreak_rules_text(table.tiebreak_rules)
            out = {
                "category": None if category is None else {"code": category.code, "name": category.name,
                                                           "kind": category.kind},
                "rounds": table.rounds,
                "published_at": t.standings_published_at,
                "tiebreak_rules": table.tiebreak_rules,
                "tiebreak_rules_text": rules_text,
                "official_ranks_differ": table.official_ranks_differ,
                "tiebreaks": [
                    {"key": k, "label": label} for k, label in zip(table.tiebreak_keys, table.tiebreak_labels)
                ],
                "rows": selectors.standings_as_dicts(table),
            }
            data = dict(s.StandingsOutputSerializer(out).data)
            data["rows"] = out["rows"]  # keep the tie-break keys the row serializer does not name
            return data

        # cached per tournament version, language, audience and category (tournaments/caching.py)
        return Response(caching.tournament_cached(
            "standings-api", tournament=t, parts=(lang, code) if code else (lang,), public=public_only, build=build
        ))


class StandingsPublishApi(APIView):
    """Publish the standings; once every round is closed the tournament is ``finished``."""

    @extend_schema(operation_id="standings_publish", tags=TAG, request=None,
                   responses={200: s.StandingsPublishOutputSerializer, **_errors(403, 404, 409)})
    def post(self, request, slug: str):
        t = _organised(slug, request, _("Only the organiser can publish standings."))
        t = services.standings_publish(tournament=t, user=request.user)
        return Response(s.StandingsPublishOutputSerializer(t).data)


# --------------------------------------------------------------------------------------------
# Forbidden pairs (organisers only)
# --------------------------------------------------------------------------------------------


def _organised(slug: str, request, message: str | None = None) -> Tournament:
    """The tournament for its organisers: 401 for anonymous users, 404 when unknown or hidden, 403 for
    others — before the body, a round, a board or an entry is looked at (permission before validation)."""
    if not request.user.is_authenticated:
        raise drf_exceptions.NotAuthenticated()
    t = _tournament(slug, request.user)
    access.require(access.can_organise(request.user, t),
                   message or _("Only the organiser can change forbidden pairs."))
    return t


def _staff_only(slug: str, request, message: str) -> Tournament:
    """The tournament for federation staff: 401 anonymous, 404 unknown or hidden, 403 for anyone else."""
    if not request.user.is_authenticated:
        raise drf_exceptions.NotAuthenticated()
    t = _tournament(slug, request.user)
    access.require(roles.is_staff(request.user), message)
    return t


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
