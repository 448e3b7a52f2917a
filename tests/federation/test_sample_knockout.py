"""The demo's knockout final (issue 14; ``federation.sample_data.KNOCKOUT_FINAL``): the top 8 of the finished
spring Swiss — its tie at the cut broken by a play-off —, 5-set matches and a match for third place, played
through with real engine sets, rated, and listed by the API as ``system`` ``knockout``."""
from __future__ import annotations

import io

import pytest
from django.core.management import call_command

from federation.sample_data import KNOCKOUT_FINAL, SPRING_TOURNAMENT
from tournaments.knockout import selectors as knockout
from tournaments.invariants import check_tournament
from tournaments.models import Match, SetResult, Tournament
from tournaments.selectors import tournament_standings

pytestmark = pytest.mark.django_db(transaction=True)  # the rating run is queued on commit


def test_the_demo_has_a_knockout_final_of_eight_played_through(client):
    call_command("load_sample_data", stdout=io.StringIO())
    final = Tournament.objects.get(name=KNOCKOUT_FINAL)
    spring = Tournament.objects.get(name=SPRING_TOURNAMENT)
    assert (final.system, final.status, final.rounds_total, final.knockout_sets, final.third_place_match) == (
        "knockout", "finished", 3, [5, 5, 5], True)
    assert final.standings_published and final.qualified_from_id == spring.pk and final.qualifiers == 8
    # seeded by the Swiss's final standings (its place 8 decided by a play-off)
    top = [line.name for line in tournament_standings(tournament=spring).lines[:8]]
    assert [e.player.full_name for e in final.entries.select_related("player").order_by("start_no")] == top
    games = list(Match.objects.filter(round__tournament=final).order_by("round__number", "board"))
    assert [(m.round.number, m.third_place) for m in games] == [(1, False)] * 4 + [(2, False)] * 2 + [
        (3, False), (3, True)]
    assert all(m.white_points is not None and m.decided_by in ("sets", "deciders") for m in games)
    sets = SetResult.objects.filter(match__round__tournament=final)
    assert all(len(s.moves.split()) > 10 and s.white_stones + s.black_stones == 48 for s in sets)
    for m in games:  # a 5-set match: 3 to 5 sets, more only with decider sets after a level match
        n = m.sets.count()
        assert 3 <= n <= 5 or (m.decided_by == "deciders" and n > 5), (m, n)
    b = knockout.final_ranking(tournament=final, public_only=True)
    assert b.final and [x.rank for x in b.ranking] == [1, 2, 3, 4, 5, 5, 5, 5]
    assert check_tournament(final) == []
    items = client.get("/api/tournaments/?system=knockout").json()
    items = items.get("results", items) if isinstance(items, dict) else items
    assert {x["slug"]: x["system"] for x in items}[final.slug] == "knockout"
    page = client.get(f"/t/{final.slug}/bracket/").content.decode()
    assert b.champion.name in page.split('data-testid="champion"')[1][:300]
