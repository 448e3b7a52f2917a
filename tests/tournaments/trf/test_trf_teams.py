"""The team section of a team championship's TRF carries the team byes and the team scoring system
(FIDE TRF-2026 records 362, 310, 320), so another program scores a team's bye as the points it gave."""
from __future__ import annotations

import pytest

from tests.factories import organiser, referee
from tests.tournaments.teams.test_teams import _enter, make_event
from tournaments.models import Tournament
from tournaments.rounds import services as round_services
from tournaments.teams import services as teams
from tournaments.trf.selectors import tournament_export_trf

pytestmark = pytest.mark.django_db


def _swiss_round_one_with_a_bye():
    org, ref = organiser(username="trf-team-org"), referee(username="trf-team-ref")
    t = make_event(org, n_teams=5, system=Tournament.System.SWISS, rounds=3, reserves=0, boards=2)
    rnd = teams.team_round_pair(tournament=t, user=org, coin_seed="w")
    round_services.round_publish(round=rnd, user=org)
    for tm in rnd.team_matches.select_related("white_team", "black_team"):
        if tm.black_team is not None:
            for b in (1, 2):
                _enter(rnd, tm.number, b, "=", ref)
    round_services.round_close(round=rnd, user=org)
    return t


def test_team_bye_in_the_trf_carries_the_points_it_gave_not_a_drawn_match():
    t = _swiss_round_one_with_a_bye()
    lines = tournament_export_trf(tournament=t).splitlines()
    e = t.teams.get(short_name="E")
    # 320: PAB match points (cols 5-8) and game points (10-13) of a team bye, then the bye team per round
    (pab,) = [x for x in lines if x.startswith("320 ")]
    assert float(pab[4:8]) == 2.0 and float(pab[9:13]) == 2.0
    assert int(pab[14:17]) == e.seed_no and len(pab) == 17
    # 310: the team's match points (55-60), game points (62-67) and rank (69-71): the bye counted as a win
    team_lines = {int(x[4:7]): x for x in lines if x.startswith("310 ")}
    assert len(team_lines) == 5
    row = team_lines[e.seed_no]
    assert row[8:40].rstrip() == "Takım E" and row[41:46].rstrip() == "E"
    assert (float(row[54:60]), float(row[61:67]), int(row[68:71])) == (2.0, 2.0, 1)
    members = sorted(e.members.select_related("entry"), key=lambda m: m.board)
    assert [int(row[73 + 5 * i:77 + 5 * i]) for i in range(2)] == [m.entry.start_no for m in members]
    drawn = team_lines[t.teams.get(short_name="A").seed_no]
    assert (float(drawn[54:60]), float(drawn[61:67]), int(drawn[68:71])) == (1.0, 1.0, 2)


def test_team_scoring_system_in_the_trf_is_the_362_record():
    t = _swiss_round_one_with_a_bye()
    lines = tournament_export_trf(tournament=t).splitlines()
    (scoring,) = [x for x in lines if x.startswith("362 ")]
    # every 9 columns from column 5: the code (TW/TD/TL) and the match points (columns 7-10)
    assert {scoring[4 + 9 * i:6 + 9 * i]: float(scoring[6 + 9 * i:10 + 9 * i]) for i in range(3)} == {
        "TW": 2.0, "TD": 1.0, "TL": 0.0}
    # the TRF-16 lines stay for older readers
    assert "082 5" in lines and len([x for x in lines if x.startswith("013 ")]) == 5


def test_team_free_round_of_a_round_robin_in_the_trf_gives_no_points():
    org = organiser(username="trf-rr-org")
    t = make_event(org, n_teams=3, reserves=0, boards=2)
    teams.team_round_pair(tournament=t, user=org, coin_seed="w")
    lines = tournament_export_trf(tournament=t).splitlines()
    (pab,) = [x for x in lines if x.startswith("320 ")]
    assert pab == "320  0.0  0.0"  # no round closed yet: the points only
