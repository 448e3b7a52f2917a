"""``load_sample_data``: the demo that ``make run`` serves — accounts, members, tournaments, ratings."""
from __future__ import annotations

import io
import time

import pytest
from django.contrib.auth import authenticate
from django.core.management import call_command

from federation.models import Club, Player
from federation.sample_data import DEMO_PASSWORDS, DEMO_TOURNAMENT, SPRING_TOURNAMENT
from tournaments.models import Match, Round, SetResult, Tournament

pytestmark = pytest.mark.django_db(transaction=True)  # the rating run is queued on commit


def test_sample_data_loads_the_demo_once():
    out = io.StringIO()
    call_command("load_sample_data", stdout=out)
    assert "demo tournament: /t/ankara-kis-mangala-acik-turnuvasi-2026/" in out.getvalue()
    for user, password in DEMO_PASSWORDS.items():
        assert authenticate(username=user, password=password) is not None, user
    assert Player.objects.filter(federation_id__startswith="TMF-").count() == 40
    assert Club.objects.count() == 8
    demo = Tournament.objects.get(name=DEMO_TOURNAMENT)
    assert [(r.number, r.status) for r in demo.rounds.order_by("number")] == [(1, "closed"), (2, "closed")]
    assert demo.entries.count() == 16
    games = Match.objects.filter(round__tournament=demo, kind="game")
    assert games.count() == 16 and not games.filter(white_points__isnull=True).exists()
    sets = SetResult.objects.filter(match__round__tournament=demo)
    assert all(len(s.moves.split()) > 10 for s in sets)  # every set has its move record
    assert all(s.white_stones + s.black_stones == 48 for s in sets)
    spring = Tournament.objects.get(name=SPRING_TOURNAMENT)
    assert spring.status == "finished" and spring.standings_published
    from ratings.models import RatingEvent

    deadline = time.monotonic() + 60  # with a broker the rating run is done by the worker
    while not RatingEvent.objects.filter(tournament=spring).exists() and time.monotonic() < deadline:
        time.sleep(0.5)
    event = RatingEvent.objects.get(tournament=spring)
    assert event.rated_sets == SetResult.objects.filter(match__round__tournament=spring).count()
    imported = Tournament.objects.filter(imported_from_trf=True)
    assert sorted(imported.values_list("name", flat=True)) == [
        "Autumn Congress 2018 - Major", "National Juniors Championship 2011", "Spring Open 2011 - Masters",
    ]
    assert all(t.standings_published for t in imported)
    counts = (Tournament.objects.count(), Round.objects.count(), SetResult.objects.count(), Player.objects.count())
    call_command("load_sample_data", stdout=io.StringIO())  # idempotent
    assert (Tournament.objects.count(), Round.objects.count(), SetResult.objects.count(),
            Player.objects.count()) == counts
