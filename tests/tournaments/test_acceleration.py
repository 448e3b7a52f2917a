"""Pairing settings in real rounds: Baku acceleration (FIDE C.04.5.1) and virtual points from a file,
byes assigned ahead (full point, pairing-allocated), the second-cycle swap of a double round robin,
and editing these settings (when, with the history; page and API)."""
from __future__ import annotations

from decimal import Decimal

import pytest
from django.test import Client
from django.utils import translation
from rest_framework.test import APIClient

from federation.errors import Conflict, ValidationFailed
from tests.factories import PASSWORD, PlayerFactory, organiser
from tournaments import services
from tournaments.entries import services as entry_services
from tournaments.results import services as result_services
from tournaments.rounds import services as round_services
from tournaments.history import selectors as history
from tournaments.models import Entry, Round, Tournament
from tournaments.pairing import berger_round
from tournaments.pairing_adapter import entry_accelerations, round_one_field
from tournaments.services import coin_toss_outcome
from tournaments.results.services import SetInput

pytestmark = pytest.mark.django_db

WHITE_WINS = [SetInput(30, 18), SetInput(26, 22)]


@pytest.fixture(autouse=True)
def english():
    with translation.override("en"):
        yield


def _seed_for(outcome: str) -> str:
    return next(s for s in (f"seed-{i}" for i in range(100)) if coin_toss_outcome(s) == outcome)


def make_event(n: int, *, rounds=9, system="swiss", **kwargs) -> tuple[Tournament, object]:
    org = organiser(username="orhan")
    t = services.tournament_create(name=f"Hızlandırma {n}", rounds_total=rounds, system=system, created_by=org,
                                   **kwargs)
    for i in range(n):
        entry_services.entry_add(tournament=t, player=PlayerFactory(rating=2400 - 10 * i, last_name=f"Oyuncu{i + 1:02d}"))
    return t, org


def pairs_of(rnd: Round) -> list[tuple[int, int | None]]:
    return sorted(
        tuple(sorted((m.white.start_no, m.black.start_no))) if m.black_id else (m.white.start_no, None)
        for m in rnd.matches.select_related("white", "black")
    )


def play(rnd: Round, org) -> None:
    round_services.round_publish(round=rnd, user=org)
    for m in rnd.matches.filter(kind="game"):
        result_services.match_result_enter(match=m, sets=WHITE_WINS, user=org)
    round_services.round_close(round=rnd, user=org)


# --------------------------------------------------------------------------------------------
# Accelerated pairings
# --------------------------------------------------------------------------------------------


def test_baku_round_one_pairs_the_top_half_among_themselves():
    """20 players, 9 rounds: GA = 2 × ⌈20 / 4⌉ = 10 players with 1 virtual point in round 1 (C.04.5.1),
    so the top half is one score group (1–6 … 5–10) and the bottom half another (11–16 … 15–20)."""
    t, org = make_event(20, acceleration="baku")
    rnd = round_services.round_pair(tournament=t, user=org, coin_seed=_seed_for("w"))
    assert pairs_of(rnd) == [(1, 6), (2, 7), (3, 8), (4, 9), (5, 10),
                             (11, 16), (12, 17), (13, 18), (14, 19), (15, 20)]
    for m in rnd.matches.all():  # virtual points are for pairing only: nothing is scored
        assert m.white_points is None


def test_without_acceleration_round_one_pairs_top_half_against_bottom_half():
    t, org = make_event(20)
    rnd = round_services.round_pair(tournament=t, user=org, coin_seed=_seed_for("w"))
    assert pairs_of(rnd) == [(i, i + 10) for i in range(1, 11)]


def test_baku_group_a_is_fixed_at_round_one_and_late_entries_join_group_b():
    t, org = make_event(20, acceleration="baku")
    play(round_services.round_pair(tournament=t, user=org, coin_seed=_seed_for("w")), org)
    late = entry_services.entry_add(tournament=t, player=PlayerFactory(rating=2800, last_name="Geç"), user=org)
    entries = list(t.entries.all())
    assert len(round_one_field(t, entries)) == 20  # the late entrant's round-1 bye does not make it a starter
    acc = entry_accelerations(t, entries)
    by_no = {e.start_no: acc[e.id] for e in entries}
    assert by_no[1] == (1.0, 1.0, 1.0, 0.5, 0.5, 0.0, 0.0, 0.0, 0.0)  # 9 rounds (C.04.5.1)
    assert all(by_no[n][0] == 1.0 for n in range(1, 11)) and all(by_no[n] == (0.0,) * 9 for n in range(11, 21))
    assert acc[late.id] == (0.0,) * 9  # GA stays the ten players of round 1 (21 players would make 12)
    round_services.round_pair(tournament=t, user=org)  # round 2 pairs with the late entrant


def test_manual_virtual_points_from_a_file_are_used_for_pairing_only():
    t, org = make_event(8, rounds=5)
    Tournament.objects.filter(pk=t.pk).update(acceleration=Tournament.Acceleration.MANUAL)  # as an import sets it
    t.refresh_from_db()
    for no in (1, 2, 7, 8):
        Entry.objects.filter(tournament=t, start_no=no).update(accelerations=[1, 1, 0, 0, 0])
    rnd = round_services.round_pair(tournament=t, user=org, coin_seed=_seed_for("w"))
    # {1, 2, 7, 8} have 1 virtual point, {3, 4, 5, 6} none: each group is paired top half v bottom half
    assert pairs_of(rnd) == [(1, 7), (2, 8), (3, 5), (4, 6)]
    play(rnd, org)
    from tournaments.selectors import tournament_standings

    assert sum(line.points for line in tournament_standings(tournament=t).lines) == 4.0


# --------------------------------------------------------------------------------------------
# Byes assigned ahead
# --------------------------------------------------------------------------------------------


def test_a_pairing_allocated_bye_assigned_ahead_is_honoured_and_counts_as_the_players_bye():
    t, org = make_event(5, rounds=3)
    Tournament.objects.filter(pk=t.pk).update(bye_points=Decimal("0.5"))
    t.refresh_from_db()
    r1 = round_services.round_pair(tournament=t, user=org, coin_seed=_seed_for("w"))
    assert (5, None) in pairs_of(r1)  # C.04.3: the lowest gets round 1's bye
    play(r1, org)
    entry_services.entry_request_bye(entry=t.entries.get(start_no=1), round_number=2, kind="pab", user=org)
    r2 = round_services.round_pair(tournament=t, user=org)
    bye = r2.matches.get(kind="bye")
    assert (bye.white.start_no, bye.bye_kind, bye.white_points) == (1, "pab", Decimal("0.5"))
    assert r2.matches.filter(kind="game").count() == 2  # the four others are all paired
    play(r2, org)
    r3 = round_services.round_pair(tournament=t, user=org)
    third = r3.matches.get(kind="bye")
    assert third.white.start_no not in (1, 5)  # neither gets a second pairing-allocated bye (C.04.1 f)


def test_a_full_point_bye_assigned_ahead_is_worth_one():
    t, org = make_event(5, rounds=3)
    entry_services.entry_request_bye(entry=t.entries.get(start_no=2), round_number=1, kind="full", user=org)
    r1 = round_services.round_pair(tournament=t, user=org, coin_seed=_seed_for("w"))
    byes = {m.white.start_no: (m.bye_kind, m.white_points) for m in r1.matches.filter(kind="bye")}
    assert byes == {2: ("full", Decimal("1"))}  # four left: no pairing-allocated bye


# --------------------------------------------------------------------------------------------
# Double round robin: the second-cycle swap
# --------------------------------------------------------------------------------------------


def _colours(t: Tournament) -> dict[int, str]:
    seq = {e.start_no: "" for e in t.entries.all()}
    for rnd in t.rounds.order_by("number"):
        for m in rnd.matches.filter(kind="game").select_related("white", "black"):
            seq[m.white.start_no] += "w"
            seq[m.black.start_no] += "b"
    return seq


def test_double_round_robin_swaps_the_last_two_rounds_of_the_first_cycle():
    t, org = make_event(4, system="round_robin", rounds=6, double_round_robin=True)
    assert t.second_cycle_swap  # the default (C.05 Annex 1 recommendation)
    for n in range(1, 7):
        rnd = round_services.round_pair(tournament=t, user=org, coin_seed=_seed_for("w") if n == 1 else None)
        assert sorted((m.white.start_no, m.black.start_no) for m in rnd.matches.select_related("white", "black")) \
            == sorted(berger_round(4, n, double=True, second_cycle_swap=True))
        play(rnd, org)
    assert all("www" not in c and "bbb" not in c for c in _colours(t).values()), _colours(t)


def test_plain_double_round_robin_order_when_the_swap_is_off():
    t, org = make_event(4, system="round_robin", rounds=6, double_round_robin=True, second_cycle_swap=False)
    for n in range(1, 7):
        rnd = round_services.round_pair(tournament=t, user=org, coin_seed=_seed_for("w") if n == 1 else None)
        assert sorted((m.white.start_no, m.black.start_no) for m in rnd.matches.select_related("white", "black")) \
            == sorted(berger_round(4, n, double=True, second_cycle_swap=False))
        play(rnd, org)
    assert any("bbb" in c or "www" in c for c in _colours(t).values())  # why the swap is recommended


# --------------------------------------------------------------------------------------------
# Editing the settings
# --------------------------------------------------------------------------------------------


def test_acceleration_is_chosen_before_round_one_and_recorded_in_the_history():
    t, org = make_event(6, rounds=5)
    services.tournament_update(tournament=t, user=org, acceleration="baku", reason="büyük alan")
    t.refresh_from_db()
    assert t.acceleration == "baku"
    item = history.tournament_history(tournament=t, limit=1)[0]
    assert (item.action, item.reason) == ("tournament.edit", "büyük alan")
    assert (item.before, item.after) == ({"acceleration": "none"}, {"acceleration": "baku"})
    with translation.override("en"):  # the page shows the choice's label, the API the code (item.after)
        assert {"field": "accelerated pairing", "before": "none", "after": "Baku acceleration (FIDE C.04.5.1)",
                "object": "Tournament"} in item.changes()

    with pytest.raises(ValidationFailed) as err:  # virtual points per player come only from a file
        services.tournament_update(tournament=t, user=org, acceleration="manual")
    assert err.value.field == "acceleration"
    with pytest.raises(ValidationFailed) as err:
        services.tournament_update(tournament=t, user=org, acceleration="swiss-gambit")
    assert err.value.field == "acceleration"

    round_services.round_pair(tournament=t, user=org, coin_seed="x")
    with pytest.raises(Conflict) as err:
        services.tournament_update(tournament=t, user=org, acceleration="none")
    assert err.value.field == "acceleration" and "C.04.5.1" in err.value.message
    services.tournament_update(tournament=t, user=org, acceleration="baku")  # unchanged: fine


def test_second_cycle_swap_can_change_until_a_round_it_decides_is_paired():
    t, org = make_event(4, system="round_robin", rounds=6, double_round_robin=True)
    play(round_services.round_pair(tournament=t, user=org, coin_seed=_seed_for("w")), org)
    services.tournament_update(tournament=t, user=org, second_cycle_swap=False)  # round 1 is the same either way
    services.tournament_update(tournament=t, user=org, second_cycle_swap=True)
    round_services.round_pair(tournament=t, user=org)  # round 2: table round 3 with the swap, 2 without
    with pytest.raises(Conflict) as err:
        services.tournament_update(tournament=t, user=org, second_cycle_swap=False)
    assert err.value.field == "second_cycle_swap" and "Round 2" in err.value.message
    assert Tournament.objects.get(pk=t.pk).second_cycle_swap is True


def test_settings_page_and_api_edit_the_new_settings():
    t, org = make_event(6, rounds=5)
    c = Client(HTTP_ACCEPT_LANGUAGE="en")
    assert c.login(username=org.username, password=PASSWORD)
    page = c.get(f"/t/{t.slug}/edit/").content.decode()
    assert 'name="acceleration"' in page and 'name="tiebreak_rules"' in page
    assert 'value="manual"' not in page  # only an imported file sets virtual points per player
    assert 'name="second_cycle_swap"' not in page  # a Swiss has no second cycle
    r = c.post(f"/t/{t.slug}/edit/", {
        "name": t.name, "rounds_total": "5", "acceleration": "baku", "tiebreak_rules": "2023", "reason": "duyuru",
    })
    assert r.status_code == 302, r.content.decode()
    t.refresh_from_db()
    assert (t.acceleration, t.tiebreak_rules) == ("baku", "2023")

    api = APIClient(HTTP_ACCEPT_LANGUAGE="en")
    api.force_authenticate(org)
    r = api.patch(f"/api/tournaments/{t.slug}/", {"acceleration": "none", "tiebreak_rules": "2026"}, format="json")
    assert r.status_code == 200, r.content
    body = r.json()
    assert (body["acceleration"], body["tiebreak_rules"], body["tiebreak_rules_applied"]) == ("none", "2026", "2026")
    r = api.patch(f"/api/tournaments/{t.slug}/", {"acceleration": "manual"}, format="json")
    assert r.status_code == 400 and r.json()["error"]["field"] == "acceleration"

    round_services.round_pair(tournament=t, user=org, coin_seed="x")
    page = c.get(f"/t/{t.slug}/edit/").content.decode()
    assert "Fixed once round 1 is paired" in page
    r = api.patch(f"/api/tournaments/{t.slug}/", {"acceleration": "baku"}, format="json")
    assert r.status_code == 409 and r.json()["error"]["field"] == "acceleration"


def test_an_imported_events_manual_acceleration_is_shown_read_only():
    t, org = make_event(4, rounds=3)
    Tournament.objects.filter(pk=t.pk).update(acceleration=Tournament.Acceleration.MANUAL)
    c = Client(HTTP_ACCEPT_LANGUAGE="en")
    assert c.login(username=org.username, password=PASSWORD)
    page = c.get(f"/t/{t.slug}/edit/").content.decode()
    assert 'value="manual" selected' in page and "disabled" in page
    r = c.post(f"/t/{t.slug}/edit/", {"name": t.name, "rounds_total": "3", "tiebreak_rules": "auto",
                                       "acceleration": "none"})
    assert r.status_code == 302
    assert Tournament.objects.get(pk=t.pk).acceleration == "manual"  # a disabled field is not taken from the post


def test_create_takes_the_settings():
    org = organiser(username="orhan")
    t = services.tournament_create(name="Yeni", rounds_total=7, created_by=org, acceleration="baku",
                                   tiebreak_rules="2023")
    assert (t.acceleration, t.tiebreak_rules, t.second_cycle_swap) == ("baku", "2023", True)
    with pytest.raises(ValidationFailed) as err:
        services.tournament_create(name="Yeni 2", rounds_total=7, created_by=org, acceleration="manual")
    assert err.value.field == "acceleration"
    api = APIClient(HTTP_ACCEPT_LANGUAGE="en")
    api.force_authenticate(org)
    r = api.post("/api/tournaments/", {"name": "API Açık", "rounds_total": 5, "acceleration": "baku",
                                       "tiebreak_rules": "2026"}, format="json")
    assert r.status_code == 201, r.content
    assert (r.json()["acceleration"], r.json()["tiebreak_rules"]) == ("baku", "2026")
