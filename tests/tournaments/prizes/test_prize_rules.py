"""Issue 25, prizes and categories through the services, the prize list and the organiser's page: the
prize rules (sharing, withdrawn players; sharing fixed once round 1 is paired), the recorded prize lot,
the reasons a player is passed over, and unrated players in rating bands."""
from __future__ import annotations

import datetime as dt
import hashlib
from decimal import Decimal as D

import pytest

from federation.errors import Conflict, ValidationFailed
from tournaments import services
from tournaments.history import selectors as history
from tournaments.models import Entry, Tournament
from tournaments.prizes import selectors as category_selectors
from tournaments.prizes import services as category_services
from tests.tournaments.prizes.test_categories import _client, build_open, english, org  # noqa: F401


def _prizes(t, org, *values, money=False):
    for place, value in enumerate(values, start=1):
        category_services.prize_create(tournament=t, place=place, label=f"{value} TL", value=value, money=money,
                                       user=org)


def test_sharing_prize_money_is_fixed_once_round_1_is_paired(org):
    fresh = services.tournament_create(name="Hort Açık", rounds_total=3, created_by=org, slug="hort-acik",
                                       start_date=dt.date(2026, 3, 1))
    t = category_services.tournament_prize_rules_update(tournament=fresh, prize_sharing="hort", user=org)
    assert t.prize_sharing == Tournament.PrizeSharing.HORT
    with pytest.raises(ValidationFailed) as bad:
        category_services.tournament_prize_rules_update(tournament=t, prize_sharing="half", user=org)
    assert bad.value.field == "prize_sharing"
    played, _ordered = build_open(org, rounds_played=1)
    with pytest.raises(Conflict) as exc:
        category_services.tournament_prize_rules_update(tournament=played, prize_sharing="points", user=org)
    assert exc.value.field == "prize_sharing"
    # the withdrawal rule can still change, and the same sharing is no change
    t = category_services.tournament_prize_rules_update(tournament=played, prize_sharing="tiebreaks",
                                                        prizes_to_withdrawn=True, user=org)
    assert (t.prize_sharing, t.prizes_to_withdrawn) == ("tiebreaks", True)


def test_players_level_on_points_share_by_the_hort_system_on_the_prize_list(org, english):
    # places 2 and 3 are level on everything; the sharing was chosen before round 1 (set here directly: the
    # service refuses it once round 1 is paired)
    t, ordered = build_open(org)
    Tournament.objects.filter(pk=t.pk).update(prize_sharing="hort")
    t.refresh_from_db()
    _prizes(t, org, 1000, 700, 500, money=True)
    pl = category_selectors.prize_list(tournament=t, public_only=True)
    points = [ln.points for ln in pl.standings.lines[:4]]
    assert points[1] == points[2]
    group = [ln for ln in pl.standings.lines if ln.points == points[1]]
    # 2nd and 3rd level on everything, and any player further down on their points, share by Hort:
    # halves 350 + 250 (+ 0 for each player beyond the prizes); pot = 600 / n; 2nd and 3rd average their halves
    n = len(group)
    pot = D("600") / n
    shares = dict((ln.entry_id, amount) for ln, amount in pl.prizes[1].shares)
    expected_top = (D("300") + pot).quantize(D("0.01"), rounding="ROUND_DOWN")
    assert shares[ordered[1].id] == shares[ordered[2].id] == expected_top


def test_an_indivisible_prize_among_players_level_on_everything_goes_by_the_recorded_lot(org, english):
    t, ordered = build_open(org)
    _prizes(t, org, 30, 20, 10)  # trophies
    pl = category_selectors.prize_list(tournament=t, public_only=True)
    assert pl.lot_pending and pl.prizes[1].lot_pending and pl.prizes[2].lot_pending
    html = _client().get(f"/t/{t.slug}/prizes/").content.decode()
    assert 'data-testid="prizes-lot-pending"' in html
    t = category_services.tournament_prize_lot_draw(tournament=t, user=org)
    assert len(t.prize_lot_seed) == 32
    with pytest.raises(Conflict):
        category_services.tournament_prize_lot_draw(tournament=t, user=org)
    pl = category_selectors.prize_list(tournament=t, public_only=True)
    tied = [ordered[1], ordered[2]]
    digest = {e.start_no: hashlib.sha256(f"{t.prize_lot_seed}:{e.start_no}".encode()).hexdigest() for e in tied}
    first = min(tied, key=lambda e: digest[e.start_no])
    second = tied[1] if first is tied[0] else tied[0]
    assert (pl.prizes[1].winner.entry_id, pl.prizes[2].winner.entry_id) == (first.id, second.id)
    assert pl.prizes[1].by_lot and not pl.lot_pending
    html = _client().get(f"/t/{t.slug}/prizes/").content.decode()
    assert t.prize_lot_seed in html and "SHA-256" in html
    drawn = next(i for i in history.tournament_history(tournament=t) if i.action == "tournament.prize_lot")
    assert drawn.action_label == "prize lot drawn"
    assert drawn.after == {"prize_lot_seed": t.prize_lot_seed}


def test_a_withdrawn_player_is_passed_over_and_the_prize_list_says_why(org, english):
    t, ordered = build_open(org)
    _prizes(t, org, 1000, money=True)
    Entry.objects.filter(pk=ordered[0].pk).update(withdrawn=True, withdrawn_after_round=2)
    pl = category_selectors.prize_list(tournament=t, public_only=True)
    # the leader withdrew after round 2 of 3: passed over; 2nd and 3rd (level on everything) share 1000
    assert [po.line.entry_id for po in pl.passed_over] == [ordered[0].id]
    assert [(ln.entry_id, amount) for ln, amount in pl.prizes[0].shares] == [
        (ordered[1].id, D("500.00")), (ordered[2].id, D("500.00"))]
    html = _client().get(f"/t/{t.slug}/prizes/").content.decode()
    assert f"{ordered[0].player.full_name} would have had Overall: 1000 TL, but withdrew before the last round." in html
    # the event allows it: the leader takes the prize
    category_services.tournament_prize_rules_update(tournament=t, prizes_to_withdrawn=True, user=org)
    t.refresh_from_db()
    pl = category_selectors.prize_list(tournament=t, public_only=True)
    assert pl.prizes[0].winner.entry_id == ordered[0].id and pl.passed_over == ()


def test_a_player_who_withdrew_after_the_last_round_keeps_the_prize(org, english):
    t, ordered = build_open(org)
    _prizes(t, org, 1000, money=True)
    Entry.objects.filter(pk=ordered[0].pk).update(withdrawn=True, withdrawn_after_round=3)
    pl = category_selectors.prize_list(tournament=t, public_only=True)
    assert pl.prizes[0].winner.entry_id == ordered[0].id and pl.passed_over == ()


def test_unrated_players_are_in_a_rating_band_category_only_when_it_says_so(org, english):
    t, ordered = build_open(org)
    band = category_services.category_create(tournament=t, code="U1600", name="U1600", kind="rating",
                                             rating_max=1599, user=org)
    places = {e.id: i for i, e in enumerate(ordered, start=1)}

    def members():
        ids = category_selectors.category_members(tournament=t, categories=[band])["U1600"]
        return sorted(places[i] for i in ids)

    assert members() == [2, 3, 5, 7, 8]  # the unrated players (places 4, 6, 9, 10) are not in the band
    band = category_services.category_update(category=band, includes_unrated=True, user=org)
    assert members() == [2, 3, 4, 5, 6, 7, 8, 9, 10]
    with pytest.raises(ValidationFailed):
        category_services.category_update(category=band, includes_unrated="yes", user=org)


def test_the_organiser_page_names_every_prize_setting(org, english):
    t, _ordered = build_open(org)
    c = _client(org)
    html = c.get(f"/t/{t.slug}/categories/").content.decode()
    for text in ("Sharing prize money", "Players who withdrew before the last round can take prizes",
                 "Includes unrated players", "Money prize", "Hort system", "Draw the prize lot"):
        assert text in html, text
    r = c.post(f"/t/{t.slug}/categories/", {"form": "rules", "prize_sharing": "tiebreaks",
                                             "prizes_to_withdrawn": "on"})
    assert r.status_code == 302
    t.refresh_from_db()
    assert t.prizes_to_withdrawn
    r = c.post(f"/t/{t.slug}/prizes/lot/")
    assert r.status_code == 302
    t.refresh_from_db()
    assert t.prize_lot_seed
