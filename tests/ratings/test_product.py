"""The national rating in the product: tournaments built through ``tournaments.services`` are rated
by ``ratings.services`` exactly as the pure engine rates the same sets (to 0.01), forfeits and byes
are not rated, a correction re-rates later events, ``rerate_all`` equals the incremental ratings,
the pages render with their filters, names sort in Turkish order, ``rating_eval --quick`` prints its
JSON line."""
from __future__ import annotations

import datetime as dt
import json
import math
from io import StringIO

import pytest
from django.core.management import call_command
from django.urls import reverse
from django.utils import translation

from federation.errors import ValidationFailed
from federation.models import Player
from ratings import inputs, selectors, services
from ratings.engine import GLICKO2_SCALE, Event, RatedSet, federation_params, federation_system, glicko2_update, rate_events
from ratings.models import InitialRating, RatingChange, RatingEvent, RatingGameLine
from ratings.selectors import turkish_sort_key
from ratings.tasks import rate_tournament_task
from tests.factories import ClubFactory, PlayerFactory, organiser
from tournaments import services as ts
from tournaments.entries import services as entry_services
from tournaments.results import services as result_services
from tournaments.rounds import services as round_services
from tournaments.models import Match, SetResult, Tournament
from tournaments.results.services import SetInput

# --------------------------------------------------------------------------------------------
# helpers: a tournament played through the services
# --------------------------------------------------------------------------------------------


def _tournament(name, players, *, rounds, end, system="swiss"):
    org = organiser()
    t = ts.tournament_create(
        name=name, rounds_total=rounds, created_by=org, start_date=end - dt.timedelta(days=1), end_date=end,
        system=system,
    )
    for p in players:
        entry_services.entry_add(tournament=t, player=p)
    return t, org


def _play_round(t, org, results, *, seed="rating"):
    """Pair, publish, enter ``results`` (board -> list of (white, black) stores, or "white"/"black"
    for a forfeit by that colour, or a function of the match giving either) and close the round;
    returns the round's matches."""
    rnd = round_services.round_pair(tournament=t, user=org, coin_seed=seed)
    round_services.round_publish(round=rnd, user=org)
    for m in rnd.matches.order_by("board"):
        if m.kind == Match.Kind.BYE:
            continue
        res = results[m.board]
        if callable(res):
            res = res(m)
        if isinstance(res, str):
            result_services.match_result_enter(match=m, forfeit=res, user=org)
        else:
            result_services.match_result_enter(match=m, sets=[SetInput(w, b) for w, b in res], user=org)
    round_services.round_close(round=rnd, user=org)
    return list(rnd.matches.select_related("white__player", "black__player").order_by("board"))


def _publish(t, org):
    ts.standings_publish(tournament=t, user=org)
    return rate_tournament_task(t.pk)


def _rated_sets_by_hand(t, matches):
    """The RatedSets of ``matches`` written by hand from what was entered: one per set, the set's
    starter as player A (white starts odd sets), forfeits and byes left out."""
    out = []
    for m in matches:
        if m.kind == Match.Kind.BYE or m.forfeit:
            continue
        w, b = m.white.player_id, m.black.player_id
        for s in SetResult.objects.filter(match=m).order_by("number"):
            if s.number % 2:
                out.append(RatedSet(t.pk, w, b, s.white_stones, s.black_stones))
            else:
                out.append(RatedSet(t.pk, b, w, s.black_stones, s.white_stones))
    return out


P = federation_params()  # the federation's rating: margin Glicko-2 with the shipped parameters


def _g(rd):
    return 1 / math.sqrt(1 + 3 * (rd / GLICKO2_SCALE) ** 2 / math.pi ** 2)


def _expected(r, r_opp, rd_opp):
    """Glicko-2 expected score (Glickman 2013 step 3) of a player rated ``r`` against (r_opp, rd_opp)."""
    return 1 / (1 + math.exp(-_g(rd_opp) * (r - r_opp) / GLICKO2_SCALE))


def _score(s, m, e):
    """The federation's result score: the blend of result and margin, never below the expected score
    for a won set nor above it for a lost one (docs/ratings.md)."""
    b = (1 - P.margin_weight) * s + P.margin_weight / (1 + math.exp(-m / P.margin_scale))
    return max(b, e) if m > 0 else (min(b, e) if m < 0 else b)


def _after(r, rd, games, vol=None):
    """(rating, deviation) after one rating period by Glickman's steps (:func:`glicko2_update`, which is
    tested against Glickman's worked example): ``games`` = [(opponent rating, opponent rd, set score, margin)]."""
    results = [(ro, rdo, _score(s, m, _expected(r, ro, rdo))) for ro, rdo, s, m in games]
    r2, rd2, _vol = glicko2_update(r, rd, P.initial_volatility if vol is None else vol, results, tau=P.tau)
    return r2, rd2


def _snapshot():
    """Every stored rating row as plain values (for idempotence and equality checks)."""
    events = sorted(RatingEvent.objects.values_list("tournament_id", "period", "rated_sets", "forfeits", "byes"))
    changes = sorted(
        (c.event.tournament_id, c.player_id, round(c.rating_before, 6), round(c.rating_after, 6), c.status_after, c.sets)
        for c in RatingChange.objects.select_related("event")
    )
    lines = sorted(
        (ln.change.player_id, ln.set_result_id, ln.opponent_id, round(ln.opponent_rating, 6), str(ln.score), ln.margin,
         round(ln.expected, 6), round(ln.delta, 6))
        for ln in RatingGameLine.objects.select_related("change")
    )
    ratings = sorted(Player.objects.values_list("pk", "rating"))
    return events, changes, lines, ratings


# --------------------------------------------------------------------------------------------
# Turkish collation (no database)
# --------------------------------------------------------------------------------------------


def test_turkish_collation_orders_the_turkish_alphabet():
    names = ["Çelik", "Cengiz", "Ceylan", "Işık", "İnce", "Ilgaz"]
    assert sorted(names, key=turkish_sort_key) == ["Cengiz", "Ceylan", "Çelik", "Ilgaz", "Işık", "İnce"]


def test_turkish_collation_every_special_letter_after_its_base():
    names = ["Üstün", "Uysal", "Şahin", "Sarı", "Öztürk", "Oral", "Ğ", "Gül", "zeki", "Dağ", "ıtır", "iz"]
    assert sorted(names, key=turkish_sort_key) == [
        "Dağ", "Gül", "Ğ", "ıtır", "iz", "Oral", "Öztürk", "Sarı", "Şahin", "Uysal", "Üstün", "zeki",
    ]


def test_turkish_collation_ignores_case_and_dotted_capitals():
    assert turkish_sort_key("IŞIK") == turkish_sort_key("ışık")
    assert turkish_sort_key("İNCE") == turkish_sort_key("ince")
    assert turkish_sort_key("Işık") != turkish_sort_key("İşik")
    # circumflexed vowels go with their plain letter, just after it on a tie
    assert sorted(["Alim", "Âlim", "Ali"], key=turkish_sort_key) == ["Ali", "Alim", "Âlim"]


def test_age_group_bounds():
    assert selectors.age_bounds("u12", 2026) == (2014, None)
    assert selectors.age_bounds("50plus", 2026) == (None, 1976)
    with pytest.raises(ValueError):
        selectors.age_bounds("u13", 2026)


# --------------------------------------------------------------------------------------------
# Rating a tournament
# --------------------------------------------------------------------------------------------


@pytest.mark.django_db
def test_two_players_one_match_by_the_formula():
    """1800 v 1600 (published ratings: deviation 100), sets 36-12 and 26-22 won by the 1800 player
    (margins +12, +2): Glicko-2 with the blended score; the +2 win scores its expected score, not less."""
    a, b = PlayerFactory(rating=1800, last_name="Aksoy"), PlayerFactory(rating=1600, last_name="Bulut")
    t, org = _tournament("İki Kişilik", [a, b], rounds=1, end=dt.date(2026, 3, 1))
    won = [(36, 12), (26, 22)]
    matches = _play_round(t, org, {1: lambda m: won if m.white.player_id == a.pk else [(y, x) for x, y in won]})
    _publish(t, org)
    rd = P.known_rd
    e = _expected(1800, 1600, rd)
    assert e == pytest.approx(0.7498, abs=1e-4)  # g(100) = 0.9531, 200 points = 1.1513 Glicko-2 units
    s1, s2 = _score(1, 12, e), _score(1, 2, e)
    assert s1 > e and s2 == e  # the narrow win of the favourite: no loss of rating (issue 16)
    ra, rda = _after(1800, rd, [(1600, rd, 1, 12), (1600, rd, 1, 2)])
    rb, _rdb = _after(1600, rd, [(1800, rd, 0, -12), (1800, rd, 0, -2)])
    ca = RatingChange.objects.get(player=a)
    cb = RatingChange.objects.get(player=b)
    assert ca.rating_after == pytest.approx(ra, abs=0.01) and ra > 1800
    assert cb.rating_after == pytest.approx(rb, abs=0.01) and rb < 1600
    a.refresh_from_db(); b.refresh_from_db()
    assert (a.rating, b.rating) == (int(ra + 0.5), int(rb + 0.5))
    lines = list(ca.lines.order_by("set_result__number"))
    assert [(str(ln.score), ln.margin) for ln in lines] == [("1.0", 12), ("1.0", 2)]
    assert [ln.result_score for ln in lines] == pytest.approx([s1, s2], abs=1e-9)
    assert lines[0].expected == pytest.approx(e, abs=1e-9)
    # a line's change: the new deviation squared (Glicko-2 scale) times g times (score - expected)
    assert lines[0].opponent_rating == 1600
    assert lines[0].delta == pytest.approx(rda ** 2 / GLICKO2_SCALE * _g(rd) * (s1 - e), abs=1e-6)
    assert lines[1].delta == 0.0
    assert sum(ln.delta for ln in lines) == pytest.approx(ra - 1800, abs=1e-6)
    assert matches[0].sets.count() == 2


@pytest.mark.django_db
def test_winner_withdrawal_counts_as_plus_one():
    """Kural 14.5: a set the winner left at 31-9 is recorded 25-23 and rated with margin +1."""
    a, b = PlayerFactory(rating=1700), PlayerFactory(rating=1700)
    t, org = _tournament("Çekilme", [a, b], rounds=1, end=dt.date(2026, 3, 2))
    rnd = round_services.round_pair(tournament=t, user=org, coin_seed="w")
    round_services.round_publish(round=rnd, user=org)
    m = rnd.matches.get()
    result_services.match_result_enter(
        match=m, sets=[SetInput(31, 9, termination="white_withdrew"), SetInput(30, 18)], user=org
    )
    round_services.round_close(round=rnd, user=org)
    _publish(t, org)
    w = RatingChange.objects.get(player_id=m.white.player_id)
    lines = list(w.lines.order_by("set_result__number"))
    assert [ln.margin for ln in lines] == [1, 6]
    rd = P.known_rd
    assert w.rating_after == pytest.approx(_after(1700, rd, [(1700, rd, 1, 1), (1700, rd, 1, 6)])[0], abs=0.01)


@pytest.fixture
def four():
    club = ClubFactory(name="Ankara Mangala", short_name="AMK", city="Ankara")
    return [
        PlayerFactory(rating=1900, last_name="Çelik", first_name="Ali", club=club, birth_year=1970, sex="m"),
        PlayerFactory(rating=1800, last_name="Cengiz", first_name="Ayşe", sex="f", birth_year=2015, city="İzmir"),
        PlayerFactory(rating=1700, last_name="Işık", first_name="Can", club=club, birth_year=2008),
        PlayerFactory(rating=1600, last_name="İnce", first_name="Deniz", sex="f", birth_year=1990, city="İzmir"),
    ]


def _two_round_event(players, name, end, r1, r2, seed="rating"):
    t, org = _tournament(name, players, rounds=2, end=end)
    m1 = _play_round(t, org, r1, seed=seed)
    m2 = _play_round(t, org, r2, seed=seed)
    return t, org, m1 + m2


@pytest.mark.django_db
def test_tournament_rating_equals_the_pure_engine(four):
    t, org, matches = _two_round_event(
        four, "Bahar Açık", dt.date(2026, 4, 5),
        {1: [(30, 18), (20, 28), (36, 12)], 2: [(24, 24), (31, 17), (22, 26)]},
        {1: [(26, 22), (25, 23)], 2: [(10, 38), (40, 8), (25, 23)]},
    )
    summary = _publish(t, org)
    assert summary["events"] == [t.pk] and summary["rated_sets"] == 11
    sets = _rated_sets_by_hand(t, matches)
    assert len(sets) == 11
    run = rate_events([Event(t.pk, dt.date(2026, 4, 5), tuple(sets))], federation_system(),
                      initial={p.pk: float(p.rating) for p in four})
    changes = {c.player_id: c for c in RatingChange.objects.filter(event__tournament=t)}
    assert set(changes) == {p.pk for p in four}
    for p in four:
        assert changes[p.pk].rating_after == pytest.approx(run.rating(p.pk), abs=0.01)
        assert changes[p.pk].rating_before == p.rating
        p.refresh_from_db()
        assert p.rating == int(run.rating(p.pk) + 0.5)
    # everybody's deviation was the same (published ratings): the changes nearly cancel out
    assert abs(sum(c.rating_after - c.rating_before for c in changes.values())) < 5.0
    # each line's delta adds up to the player's change; each set appears once per player
    for c in changes.values():
        assert sum(ln.delta for ln in c.lines.all()) == pytest.approx(c.rating_after - c.rating_before, abs=1e-9)
    assert RatingGameLine.objects.count() == 22
    ev = RatingEvent.objects.get(tournament=t)
    assert (ev.period, ev.rated_sets, ev.players, ev.forfeits, ev.byes) == (dt.date(2026, 4, 5), 11, 4, 0, 0)


@pytest.mark.django_db
def test_publishing_final_standings_queues_the_rating(four, django_capture_on_commit_callbacks, monkeypatch):
    """standings_publish → transaction.on_commit → rate_tournament_task.delay(id). The task is run here
    in-process (a worker could not see this test's uncommitted rows)."""
    import ratings.tasks

    queued = []

    class _Task:
        @staticmethod
        def delay(tournament_id):
            queued.append(tournament_id)
            return rate_tournament_task(tournament_id)

    monkeypatch.setattr(ratings.tasks, "rate_tournament_task", _Task)
    t, org = _tournament("Yayın", four, rounds=1, end=dt.date(2026, 8, 1))
    _play_round(t, org, {1: [(30, 18), (30, 18)], 2: [(18, 30), (24, 24), (20, 28)]})
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        ts.standings_publish(tournament=t, user=org)
    from federation.pagecache import GenerationBump
    from federation.versions import _Bump

    # one job queued; the rating run itself then counts a new version of the rating list (a _Bump)
    # (and the finished public pages move on: a GenerationBump)
    assert len([c for c in callbacks if not isinstance(c, (_Bump, GenerationBump))]) == 1 and queued == [t.pk]
    ev = RatingEvent.objects.get(tournament=t)
    assert ev.rated_sets == 5 and RatingChange.objects.filter(event=ev).count() == 4


@pytest.mark.django_db
def test_forfeits_and_byes_are_not_rated():
    players = [PlayerFactory(rating=r) for r in (1900, 1800, 1700, 1600, 1500)]
    t, org = _tournament("Beş Kişi", players, rounds=1, end=dt.date(2026, 5, 1))
    matches = _play_round(t, org, {1: "black", 2: [(30, 18), (30, 18)]})
    _publish(t, org)
    ev = RatingEvent.objects.get(tournament=t)
    assert (ev.rated_sets, ev.forfeits, ev.byes, ev.players) == (2, 1, 1, 2)
    forfeit = next(m for m in matches if m.forfeit)
    bye = next(m for m in matches if m.kind == Match.Kind.BYE)
    not_rated = {forfeit.white.player_id, forfeit.black.player_id, bye.white.player_id}
    assert not RatingChange.objects.filter(player_id__in=not_rated).exists()
    original = {p.pk: p.rating for p in players}
    now = dict(Player.objects.filter(pk__in=not_rated).values_list("pk", "rating"))
    assert now == {pid: original[pid] for pid in not_rated}


@pytest.mark.django_db
def test_unpublished_or_unfinished_tournaments_are_not_rated(four):
    t, org = _tournament("Yarım", four, rounds=2, end=dt.date(2026, 6, 1))
    _play_round(t, org, {1: [(30, 18), (30, 18)], 2: [(30, 18), (30, 18)]})
    ts.standings_publish(tournament=t, user=org)  # after round 1 of 2: not final
    assert rate_tournament_task(t.pk)["events"] == []
    assert services.tournament_rate(tournament=t) is None
    assert not RatingEvent.objects.exists()


@pytest.mark.django_db
def test_unrated_match_without_sets_is_counted_not_rated(four):
    t, org, matches = _two_round_event(
        four, "TRF gibi", dt.date(2026, 4, 5),
        {1: [(30, 18), (30, 18)], 2: [(30, 18), (30, 18)]},
        {1: [(30, 18), (30, 18)], 2: [(30, 18), (30, 18)]},
    )
    # a match imported without set detail: the result stays, the sets are gone
    SetResult.objects.filter(match=matches[0]).delete()
    Match.objects.filter(pk=matches[1].pk).update(rated=False)
    _publish(t, org)
    ev = RatingEvent.objects.get(tournament=t)
    assert (ev.rated_sets, ev.matches_without_sets, ev.unrated_matches) == (4, 1, 1)


@pytest.mark.django_db
def test_a_stored_set_the_engine_refuses_is_named(four):
    t, org, matches = _two_round_event(
        four, "Bozuk", dt.date(2026, 4, 5),
        {1: [(30, 18), (30, 18)], 2: [(30, 18), (30, 18)]}, {1: [(30, 18), (30, 18)], 2: [(30, 18), (30, 18)]},
    )
    # edited behind the services' back: a withdrawal at 24-24 (Kural 14.5 needs 25 stones first)
    SetResult.objects.filter(match=matches[0], number=2).update(white_stones=24, black_stones=24, termination="black_withdrew")
    with pytest.raises(ValidationFailed) as err, translation.override("en"):
        _publish(t, org)
    assert "round 1, board 1, set 2" in err.value.message and "25" in err.value.message
    assert not RatingEvent.objects.exists()


@pytest.mark.django_db
def test_correction_re_rates_later_events_idempotently_and_equals_rerate_all(four):
    t1, org1, m1 = _two_round_event(
        four, "Ocak", dt.date(2026, 1, 10),
        {1: [(30, 18), (20, 28), (36, 12)], 2: [(24, 24), (31, 17), (22, 26)]},
        {1: [(26, 22), (25, 23)], 2: [(10, 38), (40, 8), (25, 23)]},
    )
    _publish(t1, org1)
    t2, org2, _ = _two_round_event(
        four, "Şubat", dt.date(2026, 2, 10),
        {1: [(18, 30), (28, 20), (12, 36)], 2: [(33, 15), (29, 19)]},
        {1: [(24, 24), (24, 24), (30, 18)], 2: [(19, 29), (21, 27)]}, seed="ikinci",
    )
    _publish(t2, org2)
    before_t2 = {c.player_id: c.rating_after for c in RatingChange.objects.filter(event__tournament=t2)}
    first = _snapshot()

    # a correction in January (the arbiter fixes one set), then January's standings are published again
    s = SetResult.objects.filter(match__round__tournament=t1).order_by("match__round__number", "match__board", "number").first()
    SetResult.objects.filter(pk=s.pk).update(white_stones=48 - s.white_stones, black_stones=48 - s.black_stones)
    _publish(t1, org1)
    after_t2 = {c.player_id: c.rating_after for c in RatingChange.objects.filter(event__tournament=t2)}
    assert after_t2 != before_t2  # February re-rated from the corrected January ratings
    jan = {c.player_id: c.rating_after for c in RatingChange.objects.filter(event__tournament=t1)}
    assert all(
        RatingChange.objects.get(event__tournament=t2, player_id=pid).rating_before == pytest.approx(r)
        for pid, r in jan.items()
    )
    corrected = _snapshot()
    assert corrected != first

    # idempotent: publishing again changes nothing
    _publish(t1, org1)
    assert _snapshot() == corrected
    # and a full re-rating from scratch gives the same rows and player ratings
    out = StringIO()
    call_command("rerate_all", stdout=out)
    assert _snapshot() == corrected
    assert "2/2" in out.getvalue()

    # the pure engine on the same sets over both events agrees
    events = []
    for t in (t1, t2):
        ms = list(Match.objects.filter(round__tournament=t).select_related("white", "black"))
        events.append(Event(t.pk, t.end_date, tuple(_rated_sets_by_hand(t, ms))))
    run = rate_events(events, federation_system(), initial={p.pk: float(p.rating) for p in four})
    for p in four:
        p_now = Player.objects.get(pk=p.pk)
        assert p_now.rating == int(run.rating(p.pk) + 0.5)
        assert RatingChange.objects.get(event__tournament=t2, player=p).rating_after == pytest.approx(run.rating(p.pk), abs=0.01)
    assert sorted(InitialRating.objects.values_list("rating", flat=True)) == [1600, 1700, 1800, 1900]


@pytest.mark.django_db
def test_tournament_rate_writes_only_its_own_rows_from_the_ratings_at_its_start(four):
    t1, org1, _ = _two_round_event(
        four, "Mart", dt.date(2026, 3, 10),
        {1: [(30, 18), (30, 18)], 2: [(18, 30), (18, 30)]}, {1: [(26, 22), (26, 22)], 2: [(20, 28), (20, 28)]},
    )
    _publish(t1, org1)
    t2, org2, _ = _two_round_event(
        four, "Nisan", dt.date(2026, 4, 10),
        {1: [(40, 8), (40, 8)], 2: [(8, 40), (8, 40)]}, {1: [(25, 23), (25, 23)], 2: [(23, 25), (23, 25)]},
    )
    _publish(t2, org2)
    full = {c.player_id: (c.rating_before, c.rating_after) for c in RatingChange.objects.filter(event__tournament=t2)}
    ratings = dict(Player.objects.values_list("pk", "rating"))
    RatingEvent.objects.all().delete()
    ev = services.tournament_rate(tournament=t2)
    assert list(RatingEvent.objects.values_list("tournament_id", flat=True)) == [t2.pk] == [ev.tournament_id]
    again = {c.player_id: (c.rating_before, c.rating_after) for c in RatingChange.objects.filter(event=ev)}
    assert again == full
    assert dict(Player.objects.values_list("pk", "rating")) == ratings


@pytest.mark.django_db
def test_an_earlier_event_published_late_re_rates_the_later_one(four):
    """Order is by rating period (end date), not by publication: January published after February."""
    t2, org2, _ = _two_round_event(
        four, "Şubat", dt.date(2026, 2, 10),
        {1: [(30, 18), (30, 18)], 2: [(18, 30), (18, 30)]}, {1: [(26, 22), (26, 22)], 2: [(20, 28), (20, 28)]},
    )
    _publish(t2, org2)
    feb_first = {c.player_id: c.rating_before for c in RatingChange.objects.filter(event__tournament=t2)}
    assert set(feb_first.values()) == {1900, 1800, 1700, 1600}
    t1, org1, _ = _two_round_event(
        four, "Ocak", dt.date(2026, 1, 10),
        {1: [(40, 8), (40, 8)], 2: [(40, 8), (40, 8)]}, {1: [(40, 8), (40, 8)], 2: [(40, 8), (40, 8)]},
    )
    _publish(t1, org1)
    jan = {c.player_id: c.rating_after for c in RatingChange.objects.filter(event__tournament=t1)}
    feb = {c.player_id: c.rating_before for c in RatingChange.objects.filter(event__tournament=t2)}
    assert feb == pytest.approx(jan)
    incremental = _snapshot()
    call_command("rerate_all", stdout=StringIO())
    assert _snapshot() == incremental


@pytest.mark.django_db
def test_new_players_start_unrated_and_get_a_provisional_first_rating_after_their_first_event():
    """Rating 0 = unrated: the player starts at 1500 with Glicko-2's initial deviation (350) and gets a
    first, provisional rating from the first event; established opponents move little against them
    (their expected score is damped by the newcomer's large deviation)."""
    new = PlayerFactory(rating=0, last_name="Yeni")
    old = [PlayerFactory(rating=r) for r in (1700, 1600, 1500)]
    t, org = _tournament("İlk", [new] + old, rounds=3, end=dt.date(2026, 7, 1), system="round_robin")
    for r in range(3):
        rnd = round_services.round_pair(tournament=t, user=org, coin_seed=f"s{r}")
        round_services.round_publish(round=rnd, user=org)
        for m in rnd.matches.select_related("white", "black"):
            result_services.match_result_enter(match=m, sets=[SetInput(30, 18), SetInput(18, 30), SetInput(24, 24)], user=org)
        round_services.round_close(round=rnd, user=org)
    _publish(t, org)
    c = RatingChange.objects.get(player=new)
    assert (c.status_before, c.status_after, c.sets) == ("unrated", "provisional", 9)
    games = [(ln.opponent_rating, P.known_rd, float(ln.score), ln.margin) for ln in c.lines.all()]
    r_new, rd_new = _after(P.default_rating, P.initial_rd, games)
    assert c.rating_after == pytest.approx(r_new, abs=0.01)
    assert rd_new > P.provisional_rd  # still provisional
    new.refresh_from_db()
    assert new.rating == int(c.rating_after + 0.5)
    for o in old:
        oc = RatingChange.objects.get(player=o)
        against_new = [ln for ln in oc.lines.all() if ln.opponent_id == new.pk]
        others = [ln for ln in oc.lines.all() if ln.opponent_id != new.pk]
        assert len(against_new) == 3
        # the same results (1-1-draw) against the newcomer weigh less: g(350) < g(100)
        assert sum(abs(ln.delta) for ln in against_new) < sum(abs(ln.delta) for ln in others)


# --------------------------------------------------------------------------------------------
# Pages
# --------------------------------------------------------------------------------------------


@pytest.fixture
def rated_event(four):
    t, org, _ = _two_round_event(
        four, "Bahar Açık", dt.date(2026, 4, 5),
        {1: [(30, 18), (20, 28), (36, 12)], 2: [(24, 24), (31, 17), (22, 26)]},
        {1: [(26, 22), (25, 23)], 2: [(10, 38), (40, 8), (25, 23)]},
    )
    _publish(t, org)
    for p in four:
        p.refresh_from_db()
    return t, four


def _names(resp):
    return [line.player.last_name for line in resp.context["lines"]]


@pytest.mark.django_db
def test_rating_list_page_filters_and_orders(client, rated_event):
    from tests.factories import UserFactory

    t, four = rated_event
    client.force_login(UserFactory(is_staff=True))  # sex and the year of the age groups: staff filters (KVKK)
    resp = client.get(reverse("rating-list"))
    assert resp.status_code == 200
    by_rating = sorted(four, key=lambda p: -p.rating)
    assert _names(resp) == [p.last_name for p in by_rating]
    html = resp.content.decode()
    assert reverse("player-detail", args=[four[0].federation_id]) in html
    assert str(four[0].rating) in html

    assert _names(client.get(reverse("rating-list"), {"order": "name"})) == ["Cengiz", "Çelik", "Işık", "İnce"]
    club = four[0].club
    assert sorted(_names(client.get(reverse("rating-list"), {"club": club.pk}))) == sorted(["Çelik", "Işık"])
    assert set(_names(client.get(reverse("rating-list"), {"sex": "f"}))) == {"Cengiz", "İnce"}
    assert set(_names(client.get(reverse("rating-list"), {"city": "İzmir"}))) == {"Cengiz", "İnce"}
    assert set(_names(client.get(reverse("rating-list"), {"city": "Ankara"}))) == {"Çelik", "Işık"}
    assert _names(client.get(reverse("rating-list"), {"age": "u12", "year": 2026})) == ["Cengiz"]
    assert set(_names(client.get(reverse("rating-list"), {"age": "u20", "year": 2026}))) == {"Cengiz", "Işık"}
    assert _names(client.get(reverse("rating-list"), {"age": "50plus", "year": 2026})) == ["Çelik"]
    bad = client.get(reverse("rating-list"), {"age": "u13"})
    assert bad.status_code == 200 and len(_names(bad)) == 4


@pytest.mark.django_db
def test_player_page_shows_the_history_chart_and_the_calculation(client, rated_event):
    t, four = rated_event
    p = four[0]
    c = RatingChange.objects.get(player=p)
    resp = client.get(reverse("player-detail", args=[p.federation_id]), HTTP_ACCEPT_LANGUAGE="en")
    assert resp.status_code == 200
    html = resp.content.decode()
    assert "<svg" in html and 'class="rating-history"' in html
    assert t.name in html
    from federation.formatting import number, signed, stone_margin

    # one number format (federation.formatting): at most one or two decimals, no trailing zeros
    assert number(c.rating_before, 1, lang="en") in html and number(c.rating_after, 1, lang="en") in html
    first = c.lines.order_by("set_result__match__round__number", "set_result__number").first()
    assert number(first.expected, lang="en") in html
    assert signed(first.delta, lang="en") in html
    with translation.override("en"):
        assert stone_margin(first.margin) in html  # "+6 stones" (Kural 14.4)
    # the opponents link to their player pages
    assert reverse("player-detail", args=[first.opponent.federation_id]) in html
    history = resp.context["history"]
    assert [h.tournament.pk for h in history] == [t.pk]
    # one point for the rating before the first event, one per event; y grows downwards
    chart = resp.context["chart"]
    assert html.count("<circle") == 2 and [pt.rating for pt in chart.points] == [c.rating_before, c.rating_after]
    assert (chart.points[1].y < chart.points[0].y) == (c.rating_after > c.rating_before)
    assert len(history[0].lines) == c.sets


@pytest.mark.django_db
def test_pages_load_with_a_fixed_number_of_queries(client, rated_event, django_assert_max_num_queries):
    t, four = rated_event
    t2, org2, _ = _two_round_event(
        four, "Yaz", dt.date(2026, 6, 5), {1: [(30, 18), (30, 18)], 2: [(18, 30), (18, 30)]},
        {1: [(26, 22), (26, 22)], 2: [(20, 28), (20, 28)]},
    )
    _publish(t2, org2)
    with django_assert_max_num_queries(6):
        assert client.get(reverse("player-detail", args=[four[0].federation_id])).status_code == 200
    with django_assert_max_num_queries(11):  # cold: the data versions, the list's rows and cities, the page's players, the parameters in force, the official list
        assert client.get(reverse("rating-list")).status_code == 200
    with django_assert_max_num_queries(7):  # warm: the rows come from the cache
        assert client.get(reverse("rating-list")).status_code == 200


@pytest.mark.django_db
def test_player_page_without_rated_events(client):
    p = PlayerFactory(rating=0)
    resp = client.get(reverse("player-detail", args=[p.federation_id]))
    assert resp.status_code == 200
    assert "<svg" not in resp.content.decode()


@pytest.mark.django_db
def test_rating_event_page(client, rated_event):
    t, four = rated_event
    resp = client.get(reverse("rating-event", args=[t.slug]))
    assert resp.status_code == 200
    assert len(resp.context["changes"]) == 4
    assert client.get(reverse("rating-event", args=["yok"])).status_code == 404


# --------------------------------------------------------------------------------------------
# Commands
# --------------------------------------------------------------------------------------------


@pytest.mark.django_db
def test_rerate_all_prints_progress_and_restores_initial_ratings(rated_event):
    t, four = rated_event
    out = StringIO()
    call_command("rerate_all", stdout=out)
    assert "1/1" in out.getvalue() and t.name in out.getvalue()
    # the event is no longer final: re-rating gives everyone their initial rating back
    Tournament.objects.filter(pk=t.pk).update(status=Tournament.Status.RUNNING)
    call_command("rerate_all", stdout=StringIO())
    assert not RatingEvent.objects.exists()
    assert sorted(Player.objects.filter(pk__in=[p.pk for p in four]).values_list("rating", flat=True)) == [
        1600, 1700, 1800, 1900,
    ]


def test_rating_eval_quick_prints_the_json_line_and_writes_the_marked_section(tmp_path):
    doc = tmp_path / "ratings.md"
    doc.write_text("# Ratings\n\nIntro.\n\n<!-- rating_eval:start -->\nold\n<!-- rating_eval:end -->\n\nAfter.\n")
    out = StringIO()
    call_command("rating_eval", "--quick", "--seed", "3", "--docs", str(doc), stdout=out)
    lines = out.getvalue().strip().splitlines()
    data = json.loads(lines[-1])
    assert set(data) == {"sets", "logloss", "ci_margin_minus_elo", "ci_margin_minus_glicko2", "brier", "defaults",
                         "won_sets_lowering_rating"}
    assert data["won_sets_lowering_rating"] == {"margin": 0.0, "elo": 0.0, "glicko2": 0.0}
    assert set(data["logloss"]) == {"margin", "elo", "glicko2"}
    assert data["sets"] > 0 and all(0 < v < 2 for v in data["logloss"].values())
    lo, hi = data["ci_margin_minus_elo"]
    assert lo <= hi
    assert any(line.startswith("| Federation rating |") for line in lines)
    text = doc.read_text()
    assert text.startswith("# Ratings\n\nIntro.\n") and text.endswith("After.\n")
    assert "old" not in text and "| Federation rating |" in text and "--quick" in text


def test_rating_eval_refuses_bad_options_and_broken_markers(tmp_path):
    from django.core.management.base import CommandError

    with pytest.raises(CommandError) as err:
        call_command("rating_eval", "--quick", "--budget", "0", "--no-docs", stdout=StringIO())
    assert err.value.returncode == 2
    doc = tmp_path / "ratings.md"
    doc.write_text("<!-- rating_eval:end -->\n<!-- rating_eval:start -->\n")
    with pytest.raises(CommandError) as err:
        call_command("rating_eval", "--quick", "--docs", str(doc), stdout=StringIO(), stderr=StringIO())
    assert "wrong order" in str(err.value) and err.value.returncode == 2
    assert doc.read_text() == "<!-- rating_eval:end -->\n<!-- rating_eval:start -->\n"


def test_rating_eval_adds_markers_when_missing(tmp_path):
    doc = tmp_path / "ratings.md"
    doc.write_text("# Ratings\n")
    call_command("rating_eval", "--quick", "--docs", str(doc), stdout=StringIO())
    text = doc.read_text()
    assert text.startswith("# Ratings\n")
    assert text.count("<!-- rating_eval:start -->") == 1 and text.count("<!-- rating_eval:end -->") == 1


def test_rating_eval_section_replaces_the_placeholder_once():
    from ratings.management.commands.rating_eval import END, START, replace_section

    text = "# R\n\nEVAL_TABLE\n\n## After\n"
    once = replace_section(text, "table 1")
    assert once == f"# R\n\n{START}\ntable 1\n{END}\n\n## After\n"
    assert replace_section(once, "table 2") == f"# R\n\n{START}\ntable 2\n{END}\n\n## After\n"
    with pytest.raises(ValueError):
        replace_section(f"{END}\n{START}\n", "x")


# --------------------------------------------------------------------------------------------
# The history chart (no database)
# --------------------------------------------------------------------------------------------


def _h(before, after, sb, sa, month):
    from types import SimpleNamespace

    return SimpleNamespace(
        rating_before=before, rating_after=after, status_before=sb, status_after=sa,
        period=dt.date(2026, month, 1), tournament=SimpleNamespace(name=f"T{month}"),
    )


def test_history_chart_points_ticks_and_unrated_start():
    from ratings.charts import history_chart

    chart = history_chart([_h(1500, 1520, "established", "established", 1), _h(1520, 1480, "established", "established", 2)])
    assert [p.rating for p in chart.points] == [1500, 1520, 1480]
    assert [t.value for t in chart.ticks] == [1475, 1500, 1525]
    # higher rating = smaller y; ticks span the plot box exactly
    assert chart.points[1].y < chart.points[0].y < chart.points[2].y
    assert chart.ticks[0].y == chart.bottom and chart.ticks[-1].y == chart.top
    assert chart.polyline.count(",") == 3
    # an unrated start and events still unrated are not drawn
    chart = history_chart([
        _h(1500, 1610, "unrated", "unrated", 1), _h(1610, 1640, "unrated", "provisional", 2),
        _h(1640, 1650, "provisional", "provisional", 3),
    ])
    assert [(p.rating, p.label) for p in chart.points] == [(1640, "T2"), (1650, "T3")]
    assert history_chart([_h(1500, 1600, "unrated", "unrated", 1)]) is None
    assert history_chart([]) is None


def test_rating_period_prefers_end_then_start_then_creation_day():
    from django.utils import timezone as tz

    created = dt.datetime(2026, 5, 31, 22, 30, tzinfo=dt.timezone.utc)  # 1 June in Istanbul (UTC+3)
    t = Tournament(pk=7, end_date=dt.date(2026, 5, 3), start_date=dt.date(2026, 5, 1), created_at=created)
    assert inputs.event_key(t) == (dt.date(2026, 5, 3), 7)
    t.end_date = None
    assert inputs.rating_period(t) == dt.date(2026, 5, 1)
    t.start_date = None
    t.standings_published_at = tz.now()
    assert inputs.rating_period(t) == dt.date(2026, 6, 1)


@pytest.mark.django_db(transaction=True)
def test_the_cached_rating_list_follows_renames_and_rating_runs(client):
    """The rating list is cached under the members/ratings data versions (federation/versions.py): a
    warm page reads no rating change, and a rename or a new rating run shows at once. Transactional:
    the counters move when a write commits."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from federation import services as member_services
    from federation.versions import current
    from tests.factories import UserFactory

    four = [PlayerFactory(rating=1900 - 100 * i, last_name=n, first_name="Ali")
            for i, n in enumerate(["Çelik", "Cengiz", "Işık", "İnce"])]
    assert _names(client.get(reverse("rating-list"))) == ["Çelik", "Cengiz", "Işık", "İnce"]
    with CaptureQueriesContext(connection) as ctx:
        client.get(reverse("rating-list"))
    assert not [q for q in ctx.captured_queries if "ratings_ratingchange" in q["sql"]]
    boss = UserFactory(username="rl-staff", is_staff=True)
    before = current("members", "ratings")
    member_services.player_update(player=four[0], user=boss, last_name="Çetin", reason="nüfus")
    assert current("members", "ratings") == (before[0] + 1, before[1])
    assert _names(client.get(reverse("rating-list")))[0] == "Çetin"
    t, org, _ = _two_round_event(
        four, "Önbellek Açık", dt.date(2026, 4, 5),
        {1: [(10, 38), (8, 40)], 2: [(10, 38), (8, 40)]}, {1: [(10, 38), (8, 40)], 2: [(10, 38), (8, 40)]},
    )
    ratings_before = current("ratings")[0]
    _publish(t, org)
    from ratings.services import ratings_recompute_all

    ratings_recompute_all()
    assert current("ratings")[0] > ratings_before
    lines = client.get(reverse("rating-list")).context["lines"]
    stored = dict(Player.objects.filter(pk__in=[p.pk for p in four]).values_list("pk", "rating"))
    assert [ln.rating for ln in lines] == sorted((r for r in stored.values() if r > 0), reverse=True)
    assert all(ln.rating == stored[ln.player.pk] for ln in lines)
    assert sum(ln.sets for ln in lines) == 16  # 2 rounds x 2 boards x 2 sets, for both players: recomputed
