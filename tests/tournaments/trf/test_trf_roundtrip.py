"""Export → import gives the same tournament (issue 10, item 7): a property test over tournaments the
product can hold, built directly in the tables (no pairing engine: any boards are fine for the file).

Random players (with and without FIDE ids, Turkish letters, birth years or none, federation/club
codes), closed rounds with every kind of result (rated and unrated games, forfeits of one or both,
half/full/zero-point byes and the pairing-allocated bye worth 0, ½ or 1), withdrawals, round dates,
forbidden pairs over ranges of rounds, virtual points (manual acceleration) or Baku acceleration, byes
entered ahead for rounds not played yet, Swiss and (double) round robin, round 1's colour. What TRF
carries is compared with :func:`tests.tournaments.trf.trf_picture.picture`.

Limits (by design, see ``tournaments.trf.services``): a withdrawal after the last closed round is not
visible in a file (the line has every round); a last round of byes only (no game) reads back as byes
entered ahead for that round (:func:`tournaments.trf.scoring.played_rounds`: a round is played when it has a
game), so every generated round has one; the rank column is our rank, or the ranks of the file the event
was imported from (``Entry.official_rank``: they must survive a round trip), and the re-import keeps it as
``official_rank``; a non-FIDE federation id is not written (the re-import finds the known player by name,
birth year and code). A round robin is what the product pairs: the Berger table of its field (a file
declaring a round robin whose rounds are not one is refused), its rounds those the field needs.
"""
from __future__ import annotations

import datetime as dt
import random
from decimal import Decimal

import pytest
from django.db import transaction
from django.utils import timezone
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from federation.models import Player
from tests.tournaments.trf.trf_picture import picture
from tournaments.trf.reader import parse_trf
from tournaments.models import Absence, CoinToss, Entry, ForbiddenPair, Match, Round, Tournament
from tournaments.pairing.roundrobin import berger_round
from tournaments.selectors import tournament_standings
from tournaments.trf.selectors import tournament_export_trf
from tournaments.trf.services import tournament_import_trf

pytestmark = pytest.mark.django_db

LAST = ["Öztürk", "Kılıç", "Çelik", "Şahin", "İnce", "Yılmaz", "Ağaoğlu", "Işık", "Güneş", "Demir", "Aksu"]
FIRST = ["Ayşe", "İsmail", "Çağrı", "Gülşen", "Ömer", "Ilgaz", "Ayşe Nur", "Şule", "Ege", "Irmak", ""]
CODES = ["", "TUR", "IST", "ANK", "İZM"]
HALF, ONE, ZERO = Decimal("0.5"), Decimal("1"), Decimal("0")


class _Rollback(Exception):
    pass


def _result(rng: random.Random) -> dict:
    kind = rng.choice(["1", "=", "0", "1", "0", "=", "W", "D", "L", "+w", "+b", "--"])
    if kind in ("1", "=", "0"):
        w = {"1": ONE, "=": HALF, "0": ZERO}[kind]
        return {"white_points": w, "black_points": ONE - w, "rated": True}
    if kind in ("W", "D", "L"):
        w = {"W": ONE, "D": HALF, "L": ZERO}[kind]
        return {"white_points": w, "black_points": ONE - w, "rated": False}
    forfeit = {"+w": "black", "+b": "white", "--": "both"}[kind]
    w, b = {"black": (ONE, ZERO), "white": (ZERO, ONE), "both": (ZERO, ZERO)}[forfeit]
    return {"white_points": w, "black_points": b, "forfeit": forfeit, "rated": False}


def build(seed: int, *, system: str, n: int, rounds_total: int, closed: int, bye_points: Decimal,
          acceleration: str, dated: bool) -> Tournament:
    rng = random.Random(seed)
    double = system == Tournament.System.ROUND_ROBIN and rng.random() < 0.5
    if system == Tournament.System.ROUND_ROBIN:  # the rounds its field needs (C.05), as round 1's pairing sets
        share = closed / rounds_total if rounds_total else 0
        rounds_total = (n if n % 2 else n - 1) * (2 if double else 1)
        closed = round(share * rounds_total)
    start = dt.date(2001, 1, 1) + dt.timedelta(days=rng.randrange(20000))
    dates = ([rng.choice(["", (start + dt.timedelta(days=i)).isoformat()]) for i in range(rounds_total)]
             if dated else [])
    if dated and not any(dates):
        dates[0] = start.isoformat()
    status = (Tournament.Status.DRAFT if closed == 0 else Tournament.Status.FINISHED if closed == rounds_total
              else Tournament.Status.RUNNING)
    t = Tournament.objects.create(
        slug=f"rt-{seed}", name=f"Gidiş Dönüş {seed} – {rng.choice(LAST)}", system=system,
        double_round_robin=double,
        rounds_total=rounds_total, bye_points=bye_points, acceleration=acceleration,
        federation=rng.choice(["", "TUR", "Türkiye", "AZE"]), round_dates=dates, start_date=start,
        end_date=start + dt.timedelta(days=rng.randrange(0, 4)), city=rng.choice(["", "İzmir", "Ağrı"]),
        chief_arbiter=rng.choice(["", "Çetin, Çiğdem"]), time_control=rng.choice(["", "1:30+30sec"]),
        status=status,
    )
    entries = []
    fide_ids = rng.sample(range(10_000, 99_999_999), n)
    file_ranks = rng.sample(range(1, n + 1), n) if rng.random() < 0.3 else None  # an imported event's ranks
    for i in range(n):
        fide = rng.random() < 0.4
        player = Player.objects.create(
            federation_id=str(fide_ids[i]) if fide else f"RT{seed}-{i}", last_name=rng.choice(LAST),
            first_name=rng.choice(FIRST), birth_year=rng.choice([None, 1950 + rng.randrange(60)]),
            sex=rng.choice(["", "m", "f"]),
        )
        accel = []
        if acceleration == Tournament.Acceleration.MANUAL and (i == 0 or rng.random() < 0.5):
            accel = [rng.choice([0.0, 0.5, 1.0, 1.5, 2.0]) for _ in range(rng.randint(1, rounds_total))]
            accel[0] = accel[0] or 1.0
        entries.append(Entry.objects.create(
            tournament=t, player=player, start_no=i + 1, rating=rng.choice([0, 1000 + rng.randrange(1500)]),
            federation=rng.choice(CODES), accelerations=accel,
            official_rank=file_ranks[i] if file_ranks else None,
        ))
    if closed >= 2:
        for e in rng.sample(entries, rng.randint(0, min(2, n - 2))):
            e.withdrawn, e.withdrawn_after_round = True, rng.randint(1, closed - 1)
            e.save()
    if system == Tournament.System.ROUND_ROBIN:
        _round_robin_rounds(t, entries, closed, double, rng)
    for r in range(1, closed + 1 if system == Tournament.System.SWISS else 1):
        rnd = Round.objects.create(tournament=t, number=r, status=Round.Status.CLOSED)
        if r == 1 and rng.random() < 0.7:
            CoinToss.objects.create(round=rnd, seed="x", outcome=rng.choice("wb"), tossed_at=timezone.now())
        active = [e for e in entries if not (e.withdrawn and r > e.withdrawn_after_round)]
        rng.shuffle(active)
        byes = []
        for e in list(active):
            if rng.random() < 0.12 and len(active) > 2:  # a round keeps a game (module docstring)
                byes.append((e, rng.choice(["half", "full", "zero"])))
                active.remove(e)
        if len(active) % 2:
            byes.append((active.pop(), "pab"))
        board = 0
        for a, b in zip(active[::2], active[1::2]):
            board += 1
            Match.objects.create(round=rnd, board=board, white=a, black=b, **_result(rng))
        for e, kind in byes:
            board += 1
            Match.objects.create(round=rnd, board=board, white=e, kind=Match.Kind.BYE, bye_kind=kind,
                                 white_points={"pab": bye_points, "half": HALF, "full": ONE, "zero": ZERO}[kind],
                                 rated=True)
    for r in range(closed + 1, rounds_total + 1):
        for e in entries:
            if not e.withdrawn and rng.random() < 0.2:
                Absence.objects.create(entry=e, round_number=r, kind=rng.choice(["half", "zero", "full", "pab"]))
    seen = set()
    for _ in range(rng.randint(0, 3)):
        a, b = sorted(rng.sample(entries, 2), key=lambda e: e.id)
        first = rng.randint(1, rounds_total)
        last = rng.choice([None, *range(first, rounds_total)])
        if (a.id, b.id, first) not in seen:
            seen.add((a.id, b.id, first))
            ForbiddenPair.objects.create(tournament=t, first=a, second=b, first_round=first, last_round=last,
                                         reason=rng.choice(["", "kardeş"]))
    return t


def _round_robin_rounds(t: Tournament, entries: list[Entry], closed: int, double: bool, rng: random.Random) -> None:
    """Rounds 1..``closed`` of a round robin as the product pairs them (pairing_adapter._round_robin): the
    Berger table of the field; the dummy's opponent has a zero-point bye, a withdrawn player's opponent a
    full-point bye. A withdrawal that would leave a closed round without a game is undone."""
    by_no = {e.start_no: e for e in entries}
    n = len(entries)

    def out(no: int, r: int) -> bool:
        e = by_no[no]
        return e.withdrawn and r > e.withdrawn_after_round

    tables = [berger_round(n, r, double=double) for r in range(1, closed + 1)]
    if any(not any(b and not out(w, r) and not out(b, r) for w, b in pairs) for r, pairs in enumerate(tables, 1)):
        for e in entries:
            if e.withdrawn:
                e.withdrawn, e.withdrawn_after_round = False, None
                e.save()
    for r, pairs in enumerate(tables, start=1):
        rnd = Round.objects.create(tournament=t, number=r, status=Round.Status.CLOSED)
        if r == 1 and rng.random() < 0.7:
            CoinToss.objects.create(round=rnd, seed="x", outcome="w", tossed_at=timezone.now())
        board = 0
        byes = []
        for w, b in pairs:
            if not b:
                if not out(w, r):
                    byes.append((w, "zero"))
            elif out(w, r) or out(b, r):
                byes += [(x, "full") for x in (w, b) if not out(x, r)]
            else:
                board += 1
                Match.objects.create(round=rnd, board=board, white=by_no[w], black=by_no[b], **_result(rng))
        for no, kind in byes:
            board += 1
            Match.objects.create(round=rnd, board=board, white=by_no[no], kind=Match.Kind.BYE, bye_kind=kind,
                                 white_points=ONE if kind == "full" else ZERO, rated=True)


@settings(max_examples=25, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(
    seed=st.integers(0, 10**6),
    system=st.sampled_from([Tournament.System.SWISS, Tournament.System.ROUND_ROBIN]),
    n=st.integers(2, 9),
    rounds=st.integers(1, 6),
    played=st.floats(0, 1),
    bye_points=st.sampled_from([Decimal("0"), Decimal("0.5"), Decimal("1")]),
    acceleration=st.sampled_from(list(Tournament.Acceleration.values)),
    dated=st.booleans(),
)
def test_export_then_import_gives_the_same_tournament(seed, system, n, rounds, played, bye_points, acceleration,
                                                      dated, django_settings_off_history):
    closed = round(played * rounds)
    try:
        with transaction.atomic():  # each example on its own: no known players from another one
            original = build(seed, system=system, n=n, rounds_total=rounds, closed=closed, bye_points=bye_points,
                             acceleration=acceleration, dated=dated)
            text = tournament_export_trf(tournament=original)
            report = tournament_import_trf(data=text.encode(), source="roundtrip.trf")
            again = report.tournament
            assert picture(again) == picture(original), text
            ours = {line.start_no: (line.points, line.rank) for line in tournament_standings(tournament=original).lines}
            theirs = {line.start_no: line.points for line in tournament_standings(tournament=again).lines}
            assert theirs == {k: v[0] for k, v in ours.items()}
            file_ranks = {e.start_no: e.official_rank for e in original.entries.all()}
            if any(file_ranks.values()):  # an imported event: its file's ranks survive the round trip
                assert {e.start_no: e.official_rank for e in again.entries.all()} == file_ranks
            elif original.rounds.exists():  # the rank column is our rank: the re-import keeps it as the file's
                assert {e.start_no: e.official_rank for e in again.entries.all()} == {k: v[1] for k, v in ours.items()}
            # a second export of the re-imported tournament is the same file but for its name line
            assert tournament_export_trf(tournament=again).splitlines()[1:] == text.splitlines()[1:]
            raise _Rollback
    except _Rollback:
        pass


@pytest.fixture
def django_settings_off_history(settings):
    settings.SIMPLE_HISTORY_ENABLED = False
    return settings


# --------------------------------------------------------------------------------------------
# A file's own ranks, and byes written without the U code, after export and import


def _line(no: int, points: str, rank: int, cells: str) -> str:
    return f"001 {no:>4}      {'Oyuncu, ' + chr(64 + no):<33} 1500     {'':>11} {'':<10} {points:>4} {rank:>4}  {cells}"


def test_the_files_ranks_survive_a_round_trip():
    """The rank column of the file (here not the standings order: its program's tie-breaks are not known)."""
    text = "\n".join(["012 Sıra Deneme", "092 Individual: Swiss-System",
                      _line(1, "1.0", 3, "   2 w 1"), _line(2, "0.0", 4, "   1 b 0"),
                      _line(3, "1.0", 1, "   4 w 1"), _line(4, "0.0", 2, "   3 b 0"), "XXR 1"]) + "\n"
    first = tournament_import_trf(data=text.encode(), source="ranks.trf").tournament
    assert {e.start_no: e.official_rank for e in first.entries.all()} == {1: 3, 2: 4, 3: 1, 4: 2}
    exported = tournament_export_trf(tournament=first)
    assert {p.start_no: p.rank for p in parse_trf(exported).players} == {1: 3, 2: 4, 3: 1, 4: 2}
    again = tournament_import_trf(data=exported.encode(), source="again.trf").tournament
    assert {e.start_no: e.official_rank for e in again.entries.all()} == {1: 3, 2: 4, 3: 1, 4: 2}
    assert tournament_export_trf(tournament=again).splitlines()[1:] == exported.splitlines()[1:]


@pytest.mark.parametrize("cells, kinds", [
    # one 1-point bye without U in a round of 5: the pairing-allocated bye (TRF-16 before the U code)
    ({5: "0000 - +"}, {5: "pab"}),
    ({5: "0000 -  "}, {5: "pab"}),
    # two of them in one round: full-point byes
    ({4: "0000 - +", 5: "0000 - +"}, {4: "full", 5: "full"}),
])
def test_byes_without_u_come_back_as_they_were_read(cells, kinds):
    lines = ["012 Bay Deneme", "092 Individual: Swiss-System", _line(1, "1.0", 1, "   2 w 1"),
             _line(2, "0.0", 2, "   1 b 0")]
    if 4 not in cells:
        lines += [_line(3, "1.0", 3, "   4 w 1"), _line(4, "0.0", 4, "   3 b 0")]
    else:
        lines += [_line(3, "0.0", 5, "0000 - Z")]
    lines += [_line(no, "1.0", no, cell) for no, cell in sorted(cells.items())] + ["XXR 3"]
    first = tournament_import_trf(data=("\n".join(lines) + "\n").encode(), source="byes.trf").tournament
    got = {m.white.start_no: m.bye_kind for m in Match.objects.filter(round__tournament=first, bye_kind__in=["pab", "full"])}
    assert got == kinds
    exported = tournament_export_trf(tournament=first)
    again = tournament_import_trf(data=exported.encode(), source="again.trf").tournament
    assert picture(again)["matches"] == picture(first)["matches"]
    assert tournament_export_trf(tournament=again).splitlines()[1:] == exported.splitlines()[1:]
