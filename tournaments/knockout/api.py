"""API of knockout sections (issue 14): ``GET /api/tournaments/<slug>/bracket/`` — the bracket (every round,
each match with its players, sets, winner and how it was decided; the match for third place) and the final
ranking. The publish gate: the public sees the published and closed rounds, the event's organisers and
referees every paired round; an archived tournament is staff only. Items of ``/api/tournaments/`` carry
``system`` = ``knockout`` for these sections."""
from __future__ import annotations

from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from federation.api_views import error_responses
from federation.errors import NotFound
from tournaments import access, publication
from tournaments.knockout import selectors as knockout_selectors
from tournaments.knockout import settings as knockout_settings
from tournaments.models import Tournament


class BracketSideSerializer(serializers.Serializer):
    seed = serializers.IntegerField(help_text="Seed = starting number (1 = top seed).")
    name = serializers.CharField()
    club = serializers.CharField()
    rating = serializers.IntegerField()
    federation_id = serializers.CharField()


class BracketSetSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    starter = serializers.CharField(help_text='"white" or "black": who moved first in the set.')
    white_stones = serializers.IntegerField()
    black_stones = serializers.IntegerField()
    decider = serializers.BooleanField(help_text="A decider set, played after a level match (RULES.md).")
    termination = serializers.CharField()


class BracketGameSerializer(serializers.Serializer):
    slot = serializers.IntegerField(help_text="Place in the round's bracket order (= board).")
    kind = serializers.ChoiceField(choices=["game", "bye", "empty"])
    white = BracketSideSerializer(allow_null=True)
    black = BracketSideSerializer(allow_null=True)
    sets = BracketSetSerializer(many=True)
    winner = serializers.CharField(allow_null=True, help_text='"white" or "black"; null while undecided (or '
                                                              'nobody advances: both forfeited).')
    decided = serializers.BooleanField()
    decided_by = serializers.CharField(help_text='"sets", "deciders", "seed" (the higher seed on a level match), '
                                                 '"forfeit"; "" while undecided.')
    forfeit = serializers.CharField()
    third_place = serializers.BooleanField()
    decider_starter = serializers.CharField(help_text='Who starts the first decider set (drawn by lot): "white", '
                                                      '"black" or "".')


class BracketRoundSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    label = serializers.CharField(help_text="Final, Semi-finals, Quarter-finals, Round of 16, … (in the language "
                                            "asked).")
    planned = serializers.IntegerField(help_text="Planned sets of the round's matches.")
    status = serializers.CharField(help_text='The round\'s status; "" for a round not paired yet.')
    games = BracketGameSerializer(many=True)
    third_place = BracketGameSerializer(allow_null=True)


class RankingLineSerializer(serializers.Serializer):
    rank = serializers.IntegerField(allow_null=True, help_text="null while not known (still in).")
    shared = serializers.BooleanField()
    side = BracketSideSerializer()
    out_in = serializers.IntegerField(allow_null=True, help_text="The round the player was knocked out in.")


class BracketOutputSerializer(serializers.Serializer):
    total_rounds = serializers.IntegerField()
    final = serializers.BooleanField(help_text="The final (and the match for third place) are decided.")
    champion = BracketSideSerializer(allow_null=True)
    third_place_planned = serializers.BooleanField()
    level_match_rule = serializers.ChoiceField(
        source="rule", choices=Tournament.LevelMatchRule.choices, help_text="What settles a level match.")
    rounds = BracketRoundSerializer(many=True)
    ranking = RankingLineSerializer(many=True)


class BracketApi(APIView):
    """The bracket of a knockout section and its final ranking (as far as the rounds shown go)."""

    @extend_schema(operation_id="tournaments_bracket", tags=["tournaments"],
                   responses={200: BracketOutputSerializer, **error_responses(404)})
    def get(self, request, slug: str):
        t = publication.get_tournament(slug, request.user)
        if not knockout_settings.is_knockout(t):
            raise NotFound(_("%(t)s is not a knockout.") % {"t": t.name})
        b = knockout_selectors.knockout_bracket(tournament=t, public_only=not access.can_enter_results(request.user, t))
        return Response(BracketOutputSerializer(b).data)
