"""REST API of results: a board's result from its sets, with the version seen (see :mod:`tournaments.api`)."""
from __future__ import annotations

from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiExample, OpenApiParameter, extend_schema
from rest_framework import exceptions as drf_exceptions
from rest_framework.response import Response
from rest_framework.views import APIView

from federation.api_views import validated_input
from federation.errors import NotFound, ValidationFailed
from federation.prepared import PreparedRead
from tournaments import access, publication
from tournaments import serializers as s
from tournaments.api import TAG, _errors, _round, _tournament
from tournaments.models import Match, Round, Tournament
from tournaments.results import services as result_services


def _board(r: Round, board: int) -> Match:
    m = r.matches.filter(board=board).select_related("round__tournament").first()
    if m is None:
        raise NotFound(_("Round %(r)d has no board %(b)d.") % {"r": r.number, "b": board})
    return m


def _may_enter_results(t: Tournament, user) -> None:
    """401 for an anonymous user, 403 unless ``user`` may enter results in ``t`` (referee or organiser)."""
    if not getattr(user, "is_authenticated", False):
        raise drf_exceptions.NotAuthenticated()
    if not access.can_enter_results(user, t):
        access.require(False, access.results_refused_message(user, t))


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
