"""Properties of the standings over random Swiss-like events (hypothesis draws the seeds)."""
from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.standings import PlayerRecord, RoundEntry, RoundKind, compute_standings
from tournaments.standings.event import build_event
from tournaments.standings.tiebreaks import TIEBREAKS

K = RoundKind
ALL_KEYS = list(TIEBREAKS)


def random_event(seed: int, players: int, rounds: int, unplayed: bool = True) -> list[PlayerRecord]:
    """A Swiss-like event: score-ordered pairing without rematches where possible, random 3-set
    results with set detail, and (when ``unplayed``) byes, forfeits, absences and withdrawals."""
    rng = random.Random(seed)
    entries: list[list[RoundEntry]] = [[] for _ in range(players)]
    score = [0.0] * players
    met: list[set[int]] = [set() for _ in range(players)]
    gone: set[int] = set()
    for r in range(1, rounds + 1):
        active = []
        for i in range(players):
            x = rng.random() if unplayed else 1.0
            if i in gone or (r > 1 and x < 0.03):
                gone.add(i)
            elif x < 0.07:
                entries[i].append(RoundEntry(r, K.HALF_BYE, 0.5))
                score[i] += 0.5
            elif x < 0.09:
                entries[i].append(RoundEntry(r, K.ZERO_BYE, 0.0))
            elif x < 0.10:
                entries[i].append(RoundEntry(r, K.FULL_BYE, 1.0))
                score[i] += 1.0
            else:
                active.append(i)
        active.sort(key=lambda i: (-score[i], rng.random()))
        if len(active) % 2:
            bye = active.pop()
            entries[bye].append(RoundEntry(r, K.PAIRING_BYE, 1.0))
            score[bye] += 1.0
        while active:
            a = active.pop(0)
            b = next((c for c in active if c not in met[a]), active[0])
            active.remove(b)
            met[a].add(b)
            met[b].add(a)
            if unplayed and rng.random() < 0.05:
                entries[a].append(RoundEntry(r, K.FORFEIT_WIN, 1.0, opponent=b + 1))
                entries[b].append(RoundEntry(r, K.FORFEIT_LOSS, 0.0, opponent=a + 1))
                score[a] += 1.0
                continue
            sets = [rng.choice((-9, -4, -1, 0, 1, 4, 9)) for _ in range(3)]
            if sets[0] * sets[1] > 0:
                sets = sets[:2]
            sp = sum(1.0 if m > 0 else 0.5 if m == 0 else 0.0 for m in sets)
            pts = 1.0 if sp * 2 > len(sets) else 0.5 if sp * 2 == len(sets) else 0.0
            entries[a].append(RoundEntry(r, K.PLAYED, pts, opponent=b + 1, colour="w",
                                         set_points=sp, stone_margin=sum(sets)))
            entries[b].append(RoundEntry(r, K.PLAYED, 1.0 - pts, opponent=a + 1, colour="b",
                                         set_points=len(sets) - sp, stone_margin=-sum(sets)))
            score[a] += pts
            score[b] += 1.0 - pts
    return [PlayerRecord(i + 1, f"P{i + 1}", 1000 + rng.randrange(1200), tuple(e))
            for i, e in enumerate(entries)]


events = st.builds(random_event, st.integers(0, 10**6), st.integers(2, 24), st.integers(1, 9))


def _by_player(rows):
    return {r.player_id: (r.rank, r.points, r.tiebreaks, r.shared) for r in rows}


@settings(max_examples=60, deadline=None)
@given(events)
def test_ranks_are_consistent(players):
    rows = compute_standings(players, tiebreaks=ALL_KEYS)
    assert sorted(r.player_id for r in rows) == sorted(p.id for p in players)
    for pos, row in enumerate(rows):
        if pos == 0 or rows[pos - 1].rank != row.rank:
            assert row.rank == pos + 1
        else:
            assert rows[pos - 1].points == row.points
        if pos:
            assert rows[pos - 1].points >= row.points
        same_rank = [r for r in rows if r.rank == row.rank]
        assert row.shared == (len(same_rank) > 1)


@settings(max_examples=40, deadline=None)
@given(events, st.randoms(use_true_random=False))
def test_input_order_does_not_matter(players, rnd):
    keys = ["buchholz_cut1", "direct_encounter", "sonneborn_berger", "wins"]
    shuffled = list(players)
    rnd.shuffle(shuffled)
    assert _by_player(compute_standings(players, tiebreaks=keys)) == _by_player(
        compute_standings(shuffled, tiebreaks=keys))


@settings(max_examples=60, deadline=None)
@given(events)
def test_cut_and_median_are_ordered(players):
    keys = ["buchholz", "buchholz_cut1", "buchholz_cut2", "median_buchholz", "median_buchholz2"]
    for row in compute_standings(players, tiebreaks=keys):
        bh, c1, c2, m1, m2 = row.tiebreaks
        assert bh >= c1 >= c2 >= 0
        assert c1 >= m1 >= m2 >= 0


@settings(max_examples=60, deadline=None)
@given(events)
def test_stone_margins_cancel_and_progressive_bounds(players):
    rows = compute_standings(players, tiebreaks=["stone_margin", "progressive", "wins", "games_won_otb"])
    assert sum(r.tiebreaks[0] for r in rows) == 0
    event = build_event(players)
    for r in rows:
        _, ps, win, won = r.tiebreaks
        assert r.points <= ps <= r.points * event.rounds
        assert won <= win <= r.points


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10**6), st.integers(2, 20), st.integers(1, 8))
def test_without_unplayed_rounds_buchholz_is_the_plain_sum(seed, count, rounds):
    players = random_event(seed, count, rounds, unplayed=False)
    event = build_event(players)
    score = dict(zip(event.ids, event.score))
    rows = compute_standings(players, tiebreaks=["buchholz", "sonneborn_berger"])
    for p, row in zip(players, sorted(rows, key=lambda r: r.player_id)):
        games = [e for e in p.rounds if e.kind is K.PLAYED]
        byes = [e for e in p.rounds if e.kind is K.PAIRING_BYE]  # odd fields: PAB → own score
        own = score[p.id]
        assert row.tiebreaks[0] == sum(score[e.opponent] for e in games) + own * len(byes)
        assert row.tiebreaks[1] == sum(score[e.opponent] * e.points for e in games) + own * len(byes)


@settings(max_examples=30, deadline=None)
@given(events, st.integers(0, 9))
def test_rounds_argument_equals_truncated_input(players, cut):
    keys = ["buchholz_cut1", "sonneborn_berger", "direct_encounter", "progressive", "aro"]
    truncated = [PlayerRecord(p.id, p.name, p.rating, tuple(e for e in p.rounds if e.round <= cut))
                 for p in players]
    assert _by_player(compute_standings(players, tiebreaks=keys, rounds=cut)) == _by_player(
        compute_standings(truncated, tiebreaks=keys, rounds=cut))
