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
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiExample, OpenApiParameter, extend_schema
from rest_framework import generics, status
from rest_framework.parsers import FormParser, MultiPartParser
from rest_framework.response import Response
from rest_framework.views import APIView

from federation.api_views import error_responses, validated_input
from federation.errors import NotFound
from federation.models import Player
from tournaments import access, selectors, services, trf_io
from tournaments import serializers as s
from tournaments.models import Entry, Match, Round, Tournament

TAG = ["tournaments"]
_errors = error_responses


# --------------------------------------------------------------------------------------------
# Lookups (NotFound when missing or hidden)
# --------------------------------------------------------------------------------------------


def _tournament(slug: str) -> Tournament:
    t = Tournament.objects.filter(slug=slug).first()
    if t is None:
        raise NotFound(_("No tournament %(slug)s.") % {"slug": slug})
    return t


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


def _round_data(r: Round) -> dict:
    return s.RoundOutputSerializer(r, context={"boards": selectors.round_boards(round=r)}).data


def _tournament_data(t: Tournament, user) -> dict:
    rounds = selectors.visible_rounds(tournament=t, user=user)
    return s.TournamentDetailOutputSerializer(t, context={"rounds": rounds}).data


# --------------------------------------------------------------------------------------------
# Tournaments
# --------------------------------------------------------------------------------------------


class TournamentFilter(django_filters.FilterSet):
    status = django_filters.ChoiceFilter(choices=Tournament.Status.choices)
    system = django_filters.ChoiceFilter(choices=Tournament.System.choices)
    year = django_filters.NumberFilter(field_name="start_date", lookup_expr="year", help_text="Year of the start date.")

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
        description="Create a draft tournament (organisers and staff; services.tournament_create).",
    )
    def post(self, request, *args, **kwargs):
        data = validated_input(s.TournamentCreateInputSerializer, request.data)
        t = services.tournament_create(created_by=request.user, **data)
        return Response(_tournament_data(t, request.user), status=status.HTTP_201_CREATED)


class TournamentDetailApi(APIView):
    """A tournament with its entries and the rounds this user may see."""

    @extend_schema(operation_id="tournaments_retrieve", tags=TAG,
                   responses={200: s.TournamentDetailOutputSerializer, **_errors(404)})
    def get(self, request, slug: str):
        return Response(_tournament_data(_tournament(slug), request.user))


class TournamentImportTrfApi(APIView):
    """Import a TRF-16 file as a tournament with closed rounds (services: trf_io.tournament_import_trf)."""

    parser_classes = [MultiPartParser, FormParser]

    @extend_schema(
        operation_id="tournaments_import_trf", tags=TAG,
        request={"multipart/form-data": s.TrfImportInputSerializer},
        responses={201: s.ImportOutputSerializer, **_errors(400, 403)},
        description='A file that cannot be read → 400 with field "file" and the line number in the message.',
    )
    def post(self, request):
        data = validated_input(s.TrfImportInputSerializer, request.data)
        access.require(access.can_create_tournament(request.user), _("Only organisers can import tournaments."))
        upload = data["file"]
        report = trf_io.tournament_import_trf(
            data=upload.read(), source=upload.name or "upload.trf", user=request.user, name=data["name"] or None
        )
        t = report.tournament
        out = {
            "slug": t.slug, "name": t.name, "rounds": t.rounds.count(), "entries": t.entries.count(),
            "notes": report.notes,
        }
        return Response(s.ImportOutputSerializer(out).data, status=status.HTTP_201_CREATED)


# --------------------------------------------------------------------------------------------
# Entries
# --------------------------------------------------------------------------------------------


class EntryAddApi(APIView):
    """Enter a player by federation id; starting numbers are re-sorted by rating (C.04.2 A.2)."""

    @extend_schema(operation_id="entries_create", tags=TAG, request=s.EntryAddInputSerializer,
                   responses={201: s.EntryOutputSerializer, **_errors(400, 403, 404, 409)})
    def post(self, request, slug: str):
        t = _tournament(slug)
        data = validated_input(s.EntryAddInputSerializer, request.data)
        player = Player.objects.filter(federation_id=data["federation_id"]).first()
        if player is None:
            raise NotFound(_("No player with federation id %(id)s.") % {"id": data["federation_id"]},
                           field="federation_id")
        entry = services.entry_add(tournament=t, player=player, user=request.user)
        return Response(s.EntryOutputSerializer(entry).data, status=status.HTTP_201_CREATED)


class EntryWithdrawApi(APIView):
    """Withdraw an entry from the following rounds."""

    @extend_schema(operation_id="entries_withdraw", tags=TAG, request=None,
                   responses={200: s.EntryOutputSerializer, **_errors(403, 404)})
    def post(self, request, slug: str, start_no: int):
        entry = services.entry_withdraw(entry=_entry(_tournament(slug), start_no), user=request.user)
        return Response(s.EntryOutputSerializer(entry).data)


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
        t = _tournament(slug)
        data = validated_input(s.RoundPairInputSerializer, request.data)
        r = services.round_pair(tournament=t, user=request.user, coin_seed=data["coin_seed"] or None)
        return Response(_round_data(r), status=status.HTTP_201_CREATED)


class RoundDetailApi(APIView):
    """A round's pairing list with results and sets; hidden (404) from the public until published."""

    @extend_schema(operation_id="rounds_retrieve", tags=TAG, responses={200: s.RoundOutputSerializer, **_errors(404)})
    def get(self, request, slug: str, number: int):
        return Response(_round_data(_visible_round(_tournament(slug), number, request.user)))


class RoundPublishApi(APIView):
    """Publish a paired round's pairing list (paired → published)."""

    @extend_schema(operation_id="rounds_publish", tags=TAG, request=None,
                   responses={200: s.RoundOutputSerializer, **_errors(403, 404, 409)})
    def post(self, request, slug: str, number: int):
        r = services.round_publish(round=_round(_tournament(slug), number), user=request.user)
        return Response(_round_data(r))


class RoundCloseApi(APIView):
    """Close a published round once every board has a result (published → closed)."""

    @extend_schema(operation_id="rounds_close", tags=TAG, request=None,
                   responses={200: s.RoundOutputSerializer, **_errors(403, 404, 409)})
    def post(self, request, slug: str, number: int):
        r = services.round_close(round=_round(_tournament(slug), number), user=request.user)
        return Response(_round_data(r))


class MatchResultApi(APIView):
    """Enter or correct a board's result from its sets (or a forfeit); services.match_result_enter."""

    @extend_schema(
        operation_id="rounds_board_result", tags=TAG, request=s.MatchResultInputSerializer,
        responses={200: s.MatchResultOutputSerializer, **_errors(400, 403, 404, 409)},
        description=(
            "Sets in play order; the match's white starts sets 1, 3, 5. A match is decided as soon as "
            "one player's lead cannot be caught (2–0 in 3 sets). Bad input → 400 with field "
            '"sets[i]" (1-based) or "sets" and the reason; a stale "version" → 409.'
        ),
        examples=[OpenApiExample(
            "White wins 2–0",
            value={"sets": [{"white_store": 30, "black_store": 18, "termination": "completed", "moves": ""},
                            {"white_store": 26, "black_store": 22, "termination": "completed", "moves": ""}],
                   "forfeit": "", "version": 1},
            request_only=True,
        )],
    )
    def post(self, request, slug: str, number: int, board: int):
        match = _board(_round(_tournament(slug), number), board)
        data = validated_input(s.MatchResultInputSerializer, request.data)
        sets = [
            services.SetInput(
                white_store=x["white_store"], black_store=x["black_store"],
                termination=x["termination"] or "completed", moves=x["moves"],
            )
            for x in data["sets"]
        ]
        match = services.match_result_enter(
            match=match, sets=sets, forfeit=data["forfeit"], user=request.user, expected_version=data["version"]
        )
        match = Match.objects.prefetch_related("sets").get(pk=match.pk)
        return Response(s.MatchResultOutputSerializer(match).data)


# --------------------------------------------------------------------------------------------
# Standings
# --------------------------------------------------------------------------------------------


class StandingsApi(APIView):
    """Standings with the tournament's tie-breaks in order (FIDE C.07). The public sees them once
    published (counting published rounds only); organisers always."""

    @extend_schema(
        operation_id="standings_retrieve", tags=TAG, responses={200: s.StandingsOutputSerializer, **_errors(404)},
        parameters=[OpenApiParameter(
            "lang", str, enum=["tr", "en"], description="Language of the tie-break labels; default: the request's.",
        )],
    )
    def get(self, request, slug: str):
        t = _tournament(slug)
        lang = (request.query_params.get("lang") or get_language() or "tr")[:2]
        lang = lang if lang in ("tr", "en") else "tr"
        if access.can_organise(request.user, t):
            table = selectors.tournament_standings(tournament=t, public_only=False, lang=lang)
        elif t.standings_published:
            table = selectors.tournament_standings(tournament=t, public_only=True, lang=lang)
        else:
            raise NotFound(_("The standings are not published yet."))
        out = {
            "rounds": table.rounds,
            "published_at": t.standings_published_at,
            "tiebreaks": [{"key": k, "label": label} for k, label in zip(table.tiebreak_keys, table.tiebreak_labels)],
            "rows": selectors.standings_as_dicts(table),
        }
        data = s.StandingsOutputSerializer(out).data
        data["rows"] = out["rows"]  # keep the tie-break keys the row serializer does not name
        return Response(data)


class StandingsPublishApi(APIView):
    """Publish the standings; once every round is closed the tournament is ``finished``."""

    @extend_schema(operation_id="standings_publish", tags=TAG, request=None,
                   responses={200: s.StandingsPublishOutputSerializer, **_errors(403, 404, 409)})
    def post(self, request, slug: str):
        t = services.standings_publish(tournament=_tournament(slug), user=request.user)
        return Response(s.StandingsPublishOutputSerializer(t).data)
