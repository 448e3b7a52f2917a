"""Issue 25, a fresh user's trial: the README's sentence about the publish gate must say what the public
sees — the live results of the round in play, the standings only up to the published round
(``tournaments/publication.py``). This checks the sentence and the behaviour it describes."""
from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client
from rest_framework.test import APIClient

from tests.factories import PlayerFactory, organiser
from tournaments import publication, services
from tournaments.models import Match
from tournaments.entries import services as entry_services
from tournaments.results import services as result_services
from tournaments.rounds import services as round_services

pytestmark = pytest.mark.django_db

WIN = [result_services.SetInput(30, 18), result_services.SetInput(26, 22)]


def _readme_gate() -> str:
    text = (Path(settings.BASE_DIR) / "README.md").read_text(encoding="utf-8")
    m = re.search(r"\*\*One publish gate\*\*(.*?)\n\n", text, re.S)
    assert m, "README has no publish gate paragraph"
    return " ".join(m.group(1).split())


def test_readme_publish_gate_says_live_results_and_standings_up_to_the_published_round():
    gate = _readme_gate()
    assert "tournaments/publication.py" in gate
    assert "live results of the round in play" in gate
    assert "only up to the published round" in gate
    assert "the prize list once the final standings are published" in gate
    assert "archived tournaments for staff only" in gate

    # the behaviour the sentence describes: round 1 closed and its standings published, round 2 in play
    org = organiser()
    t = services.tournament_create(name="Kapı Açık", rounds_total=3, created_by=org)
    for i in range(4):
        entry_services.entry_add(tournament=t, player=PlayerFactory(last_name=f"Oyuncu{i + 1}", first_name="Ç",
                                                              rating=2000 - 10 * i))
    r1 = round_services.round_pair(tournament=t, user=org, coin_seed="gate")
    round_services.round_publish(round=r1, user=org)
    for m in Match.objects.filter(round=r1, kind=Match.Kind.GAME):
        result_services.match_result_enter(match=m, sets=WIN, user=org)
    round_services.round_close(round=r1, user=org)
    services.standings_publish(tournament=t, user=org)
    r2 = round_services.round_pair(tournament=t, user=org, coin_seed="gate")
    round_services.round_publish(round=r2, user=org)
    m2 = Match.objects.filter(round=r2, kind=Match.Kind.GAME).order_by("board").first()
    result_services.match_result_enter(match=m2, sets=WIN, user=org)
    t.refresh_from_db()
    assert publication.published_round(t) == 1

    anon = Client(HTTP_ACCEPT_LANGUAGE="en")
    # live results of the round in play: on the live JSON and the round page, as entered
    live = anon.get(f"/t/{t.slug}/live.json").json()
    assert live["round"]["number"] == 2
    assert live["boards"][0]["sets_text"] == "30–18, 26–22"
    assert "30–18" in anon.get(f"/t/{t.slug}/round/2/").content.decode()
    # standings only up to the published round: round 2's result does not count yet
    table = APIClient(HTTP_ACCEPT_LANGUAGE="en").get(f"/api/tournaments/{t.slug}/standings/").json()
    assert table["rounds"] == 1
    assert sorted(r["points"] for r in table["rows"]) == [0.0, 0.0, 1.0, 1.0]
    # the prize list waits for the final standings
    assert not publication.prizes_visible(t, None)
