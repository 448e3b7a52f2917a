"""REST API of team championships (issue 14):

* ``GET /api/tournaments/{slug}/teams/`` — the teams by starting number, each with its players in board
  order (reserves flagged); ``POST`` (organisers) adds a team, with players by federation id;
* ``GET /api/tournaments/{slug}/rounds/{number}/team-matches/`` — a round's team matches, their boards and
  the team result so far (published rounds for the public);
* ``GET /api/tournaments/{slug}/standings/`` of a team event answers :func:`team_standings_data` (team rows
  with ``match_points`` and ``board_points``, the tie-breaks, the board prizes) — the standings API
  (:class:`tournaments.api.StandingsApi`) hands a team event to it.

Reads follow the publish gate (:mod:`tournaments.publication`); writes go through :mod:`tournaments.teams.services`.
"""
from __future__ import annotations

from django.db import transaction
from django.utils import translation
from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework import exceptions as drf_exceptions
from rest_framework import serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from federation.api_views import error_responses, validated_input
from federation.errors import NotFound, ValidationFailed
from federation.models import Player
from tournaments import access, publication, selectors
from tournaments.teams import selectors as team_selectors
from tournaments.teams import services as teams
from tournaments.models import Tournament

TAG = ["teams"]


def _team_event(slug: str, user, *, tournament: Tournament | None = None) -> Tournament:
    """The team event ``slug`` (or ``tournament``, already looked up); NotFound when it is not one."""
    t = tournament or publication.get_tournament(slug, user)
    if t.format != Tournament.Format.TEAM:
        raise NotFound(_("%(t)s is not a team event.") % {"t": t.name})
    return t


# --------------------------------------------------------------------------------------------
# Serializers
# --------------------------------------------------------------------------------------------


class TeamPlayerSerializer(serializers.Serializer):
    board = serializers.IntegerField(help_text="Place in the team's board order (1 = top board).")
    reserve = serializers.BooleanField()
    start_no = serializers.IntegerField(help_text="The player's starting number in the event.")
    federation_id = serializers.CharField()
    name = serializers.CharField()
    rating = serializers.IntegerField(help_text="Rating at entry (0 = unrated).")
    withdrawn = serializers.BooleanField()


class TeamSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    seed_no = serializers.IntegerField(help_text="The team's starting number (1 = top seed).")
    name = serializers.CharField()
    short_name = serializers.CharField(allow_blank=True)
    club = serializers.CharField(allow_null=True, help_text="The club's name, or null.")
    withdrawn = serializers.BooleanField()
    players = TeamPlayerSerializer(many=True)


class TeamListOutputSerializer(serializers.Serializer):
    boards_per_team = serializers.IntegerField()
    teams = TeamSerializer(many=True)


class TeamCreateInputSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=120)
    short_name = serializers.CharField(max_length=20, required=False, allow_blank=True, default="")
    players = serializers.ListField(
        child=serializers.CharField(max_length=40), required=False, default=list, max_length=40,
        help_text="Federation ids in board order: the first boards_per_team are the regulars, the rest reserves.",
    )


class BoardSerializer(serializers.Serializer):
    board = serializers.IntegerField(help_text="Board of the team match (1 = top board).")
    round_board = serializers.IntegerField(help_text="The board's number in the round (for the result API).")
    first_player = serializers.CharField(allow_null=True, help_text="Name of the first-named team's player.")
    second_player = serializers.CharField(allow_null=True)
    first_white = serializers.BooleanField(help_text="The first-named team's player has white (odd boards).")
    first_points = serializers.FloatField(allow_null=True)
    second_points = serializers.FloatField(allow_null=True)
    forfeit = serializers.BooleanField(help_text="Not played over the board (a forfeit, or a player missing).")


class TeamMatchSerializer(serializers.Serializer):
    number = serializers.IntegerField(help_text="Table number in the round.")
    first_team = serializers.CharField(help_text="The first-named team (white on the odd boards).")
    second_team = serializers.CharField(allow_null=True, help_text="Null: a bye.")
    first_board_points = serializers.FloatField()
    second_board_points = serializers.FloatField()
    first_match_points = serializers.IntegerField(allow_null=True, help_text="2/1/0 once every board has a result.")
    second_match_points = serializers.IntegerField(allow_null=True)
    complete = serializers.BooleanField()
    decided = serializers.BooleanField(help_text="The winner is known (the boards still open cannot change it).")
    boards = BoardSerializer(many=True)


class RoundTeamMatchesOutputSerializer(serializers.Serializer):
    round = serializers.IntegerField()
    status = serializers.CharField()
    team_matches = TeamMatchSerializer(many=True)


class TeamStandingTeamSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    seed_no = serializers.IntegerField()
    name = serializers.CharField()
    short_name = serializers.CharField(allow_blank=True)


class TeamStandingRowSerializer(serializers.Serializer):
    rank = serializers.IntegerField()
    shared = serializers.BooleanField()
    team = TeamStandingTeamSerializer()
    match_points = serializers.IntegerField(help_text="2 a won team match, 1 a drawn one, 0 a lost one.")
    board_points = serializers.FloatField(help_text="Sum of the board match points (FIDE C.07 game points).")
    tiebreaks = serializers.DictField(child=serializers.FloatField(), help_text="Value per tie-break key.")
    won = serializers.IntegerField()
    drawn = serializers.IntegerField()
    lost = serializers.IntegerField()
    played = serializers.IntegerField()
    withdrawn = serializers.BooleanField()


class BoardPrizeRowSerializer(serializers.Serializer):
    rank = serializers.IntegerField(allow_null=True, help_text="Null: fewer games than the minimum.")
    shared = serializers.BooleanField()
    name = serializers.CharField()
    federation_id = serializers.CharField()
    team = serializers.CharField()
    points = serializers.FloatField()
    games = serializers.IntegerField(help_text="Games played over the board on this board (forfeits not counted).")
    percentage = serializers.FloatField()
    eligible = serializers.BooleanField()


class BoardPrizeSerializer(serializers.Serializer):
    board = serializers.IntegerField()
    min_games = serializers.IntegerField()
    rows = BoardPrizeRowSerializer(many=True)


class TeamTiebreakSerializer(serializers.Serializer):
    key = serializers.CharField()
    label = serializers.CharField()


class TeamStandingsOutputSerializer(serializers.Serializer):
    format = serializers.CharField(help_text='"team": the rows are teams (an individual event\'s standings have no '
                                   '"format").')
    rounds = serializers.IntegerField(help_text="Standings after this round.")
    provisional = serializers.BooleanField()
    published_at = serializers.DateTimeField(allow_null=True)
    tiebreaks = TeamTiebreakSerializer(many=True, help_text="After match points, in order (FIDE C.07).")
    rows = TeamStandingRowSerializer(many=True)
    board_prizes = BoardPrizeSerializer(many=True, help_text="Best percentage on each board with a minimum of games.")


# --------------------------------------------------------------------------------------------
# Data
# --------------------------------------------------------------------------------------------


def team_standings_data(*, tournament: Tournament, public_only: bool, lang: str) -> dict:
    """The body of ``GET /api/tournaments/{slug}/standings/`` for a team event."""
    table = team_selectors.team_standings_table(tournament=tournament, public_only=public_only, lang=lang)
    prizes = team_selectors.board_prize_tables(tournament=tournament, public_only=public_only)
    return {
        "format": "team", "rounds": table.rounds, "provisional": table.provisional,
        "published_at": tournament.standings_published_at,
        "tiebreaks": [{"key": k, "label": label} for k, label in zip(table.tiebreak_keys, table.tiebreak_labels)],
        "rows": team_selectors.team_standings_as_dicts(table),
        "board_prizes": [
            {"board": pt.board, "min_games": pt.min_games, "rows": [
                {"rank": x.rank, "shared": x.shared, "name": x.name, "federation_id": x.federation_id, "team": x.team,
                 "points": x.points, "games": x.games, "percentage": x.percentage, "eligible": x.eligible}
                for x in lines
            ]}
            for pt, lines in prizes
        ],
    }


def _teams_data(t: Tournament) -> dict:
    out = []
    for team in team_selectors.teams_with_members(tournament=t):
        out.append({
            "id": team.id, "seed_no": team.seed_no, "name": team.name, "short_name": team.short_name,
            "club": team.club.name if team.club_id else None, "withdrawn": team.withdrawn,
            "players": [
                {"board": m.board, "reserve": m.reserve, "start_no": m.entry.start_no,
                 "federation_id": m.entry.player.federation_id, "name": m.entry.player.full_name,
                 "rating": m.entry.rating, "withdrawn": m.entry.withdrawn}
                for m in team.members.all()
            ],
        })
    return {"boards_per_team": t.boards_per_team, "teams": out}


class TeamListApi(APIView):
    """The teams of a team event with their players in board order."""

    @extend_schema(operation_id="teams_list", tags=TAG, responses={200: TeamListOutputSerializer, **error_responses(404)})
    def get(self, request, slug: str):
        return Response(TeamListOutputSerializer(_teams_data(_team_event(slug, request.user))).data)

    @extend_schema(
        operation_id="teams_create", tags=TAG, request=TeamCreateInputSerializer,
        responses={201: TeamListOutputSerializer, **error_responses(400, 403, 404, 409)},
        description="Add a team (organisers, before round 1 is paired; tournaments.teams.services.team_create) with its "
        "players by federation id in board order.",
    )
    def post(self, request, slug: str):
        if not request.user.is_authenticated:
            raise drf_exceptions.NotAuthenticated()
        # permission before "not a team event" and before the body (issue 23)
        t = publication.get_tournament(slug, request.user)
        access.require(access.can_organise(request.user, t), _("Only the organiser can change the teams."))
        t = _team_event(slug, request.user, tournament=t)
        data = validated_input(TeamCreateInputSerializer, request.data)
        players = []
        for i, fid in enumerate(data["players"], start=1):
            p = Player.objects.filter(federation_id__iexact=fid.strip()).first()
            if p is None:
                raise ValidationFailed(_("No player with federation id %(id)s.") % {"id": fid[:40]},
                                       field=f"players[{i}]")
            players.append(p)
        with transaction.atomic():
            team = teams.team_create(tournament=t, name=data["name"], short_name=data["short_name"], user=request.user)
            for i, p in enumerate(players):
                teams.team_member_add(team=team, player=p, reserve=i >= t.boards_per_team, user=request.user)
        return Response(TeamListOutputSerializer(_teams_data(t)).data, status=status.HTTP_201_CREATED)


class RoundTeamMatchesApi(APIView):
    """A round's team matches with their boards and the team result so far."""

    @extend_schema(operation_id="round_team_matches", tags=TAG,
                   responses={200: RoundTeamMatchesOutputSerializer, **error_responses(404)})
    def get(self, request, slug: str, number: int):
        t = _team_event(slug, request.user)
        rnd = next((r for r in selectors.visible_rounds(tournament=t, user=request.user) if r.number == number), None)
        if rnd is None:
            raise NotFound(_("Round %(n)d is not published.") % {"n": number})
        rows = []
        entry_team = team_selectors.entry_teams(tournament=t)
        for tm in team_selectors.round_team_matches(round=rnd):
            boards = []
            for m in tm.boards:
                white_first = entry_team.get(m.white_id) == tm.first.id
                w = m.white.player.full_name
                b = m.black.player.full_name if m.black_id else None
                wp = None if m.white_points is None else float(m.white_points)
                bp = None if m.black_points is None else float(m.black_points)
                if m.black_id is None:  # a bye board: one side only
                    fp, sp, fpts, spts = (w, None, wp, None) if white_first else (None, w, None, wp)
                elif white_first:
                    fp, sp, fpts, spts = w, b, wp, bp
                else:
                    fp, sp, fpts, spts = b, w, bp, wp
                boards.append({"board": m.team_board, "round_board": m.board, "first_player": fp, "second_player": sp,
                               "first_white": white_first and m.black_id is not None, "first_points": fpts,
                               "second_points": spts, "forfeit": m.black_id is None or bool(m.forfeit)})
            s = tm.score
            rows.append({
                "number": tm.number, "first_team": tm.first.name, "second_team": tm.second.name if tm.second else None,
                "first_board_points": s.first_bp, "second_board_points": s.second_bp,
                "first_match_points": s.first_mp, "second_match_points": s.second_mp, "complete": s.complete,
                "decided": s.decided, "boards": boards,
            })
        return Response(RoundTeamMatchesOutputSerializer(
            {"round": rnd.number, "status": rnd.status, "team_matches": rows}).data)


def standings_response(*, tournament: Tournament, public_only: bool, lang: str) -> dict:
    """``team_standings_data`` in ``lang`` (the labels of the tie-breaks), serialised."""
    with translation.override(lang):
        return dict(TeamStandingsOutputSerializer(
            team_standings_data(tournament=tournament, public_only=public_only, lang=lang)).data)
