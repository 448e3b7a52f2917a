"""Races through the HTTP API (issue 23, "A chaos run"): two writers released together, many times.

Three races, each ``CHAOS_TRIALS`` times (100 by default, ``make chaos TRIALS=1000`` for the full run),
on whichever database the run has (SQLite file by tests/chaos/conftest.py, or PostgreSQL with
``DATABASE_URL``); every trial is a fresh published round 1 of a 4-player Swiss (2 boards):

* ``result-vs-close``: board 1 has its result; one organiser enters board 2's first result while another
  closes the round. Allowed: result 200 and close 200 or 409 (close first: a board without result).
* ``partial-vs-close``: both boards decided; a correction of board 2 to one set only (undecided) with
  the version seen, against the round's close. Allowed: one of them 200, the other 409 — or both 200
  only if the round is not left closed with an undecided board.
* ``result-vs-undo``: board 1's first result against the undo of the pairing (``DELETE`` the round).
  Allowed: result 200 + undo 409, or undo 204 + result 404/409.
* ``result-vs-result``: two corrections of board 1 with the same version seen: one 200, the other 409
  (one board for all the trials, each trial from the version the last one left).

Per trial: no 5xx, only the allowed statuses, nothing lost or half-saved (the round, its boards and
sets as the winner's answer says), and ``tournaments.invariants.check_tournament`` finds nothing. The
figures (trials, outcomes, p95 request times) are printed at the end of the run. Each request runs in
a thread of its own, with its own database connection (Django's test client). The data is committed:
the module runs with the database unblocked in autocommit, as a ``transaction=True`` test would, and
flushes it once at its end rather than after each race (a flush of every table, and the post-migrate
signal after it, costs seconds). Failures are collected over all trials and reported together; nothing
is marked xfail.
"""
from __future__ import annotations

import collections
import threading
import time

import pytest
from django.core.management import call_command
from django.db import connections
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from tests.chaos.conftest import SUMMARY, trials
from tests.factories import PlayerFactory, organiser
from tournaments import invariants
from tournaments import services
from tournaments.entries import services as entry_services
from tournaments.results import services as result_services
from tournaments.rounds import services as round_services
from tournaments.models import Match, Round, SetResult, Tournament

pytestmark = [pytest.mark.chaos]


@pytest.fixture(scope="module", autouse=True)
def committed_db(django_db_setup, django_db_blocker):
    """The test database, unblocked for the whole module (autocommit: every write is committed, the
    racing threads see it); flushed once at the end (the other chaos modules start from it empty)."""
    with django_db_blocker.unblock():
        try:
            yield
        finally:
            call_command("flush", interactive=False, verbosity=0)


def _sets(*pairs):
    return [{"white_store": w, "black_store": b, "termination": "completed", "moves": ""} for w, b in pairs]


WIN_2_0 = _sets((30, 18), (26, 22))
LOSS_0_2 = _sets((18, 30), (22, 26))
ONE_SET = _sets((30, 18))


class Setup:
    """Two organisers with API tokens (one per racing thread)."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.org = organiser(username=f"chaos-{name}-org")
        self.org2 = organiser(username=f"chaos-{name}-org2")
        self.keys = [Token.objects.create(user=u).key for u in (self.org, self.org2)]
        self.n = 0

    def client(self, i: int) -> APIClient:
        c = APIClient(HTTP_ACCEPT_LANGUAGE="en", HTTP_AUTHORIZATION=f"Token {self.keys[i]}")
        c.raise_request_exception = False  # an exception in a view is a 500 answer, counted as such
        return c

    def round1(self, *, results: int) -> Tournament:
        """A published round 1 (2 boards), the first ``results`` boards with a 2-0 result."""
        self.n += 1
        t = services.tournament_create(name=f"Kaos {self.name} {self.n}", rounds_total=3, created_by=self.org)
        for i in range(4):
            entry_services.entry_add(tournament=t, player=PlayerFactory(rating=1800 - 10 * i), user=self.org)
        rnd = round_services.round_pair(tournament=t, user=self.org, coin_seed=f"kaos-{self.name}-{self.n}")
        round_services.round_publish(round=rnd, user=self.org)
        for m in Match.objects.filter(round=rnd).order_by("board")[:results]:
            result_services.match_result_enter(
                match=m, sets=[result_services.SetInput(**{**x, "termination": "completed"}) for x in WIN_2_0],
                forfeit="", user=self.org, expected_version=None, reason="", decider_starter="",
            )
        return Tournament.objects.get(pk=t.pk)


def race(calls):
    """Run the ``calls`` (functions of no argument returning a response) at once, each in a thread with
    its own database connection; returns [(status, seconds, body)] in the order given."""
    barrier = threading.Barrier(len(calls))
    out: list = [None] * len(calls)

    def run(i, fn):
        try:
            barrier.wait(timeout=10)
            t0 = time.perf_counter()
            r = fn()
            body = r.content[:300].decode("utf-8", "replace")
            out[i] = (r.status_code, time.perf_counter() - t0, body)
        except Exception as e:  # noqa: BLE001 — counted as a failure, the race goes on
            out[i] = (599, 0.0, repr(e))
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(i, fn)) for i, fn in enumerate(calls)]
    for th in threads:
        th.start()
    for th in threads:
        th.join(timeout=60)
    return out


def _p95(xs):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(0.95 * len(xs)))] if xs else 0.0


class Tally:
    def __init__(self, name: str) -> None:
        self.name, self.outcomes, self.times, self.failures = name, collections.Counter(), [], []
        self.n = 0

    def add(self, n: int, results, problems: list[str]) -> None:
        self.n += 1
        self.outcomes["/".join(str(s) for s, _, _ in results)] += 1
        self.times.extend(t for _, t, _ in results)
        if any(s >= 500 for s, _, _ in results):
            problems.append("5xx")
        if problems:
            self.failures.append(f"trial {n}: {results_text(results)}: {'; '.join(problems)}")

    def finish(self, db: str) -> None:
        line = (f"chaos race {self.name} [{db}]: {self.n} trials, outcomes {dict(self.outcomes)}, "
                f"p95 {_p95(self.times) * 1000:.0f} ms, {len(self.failures)} failed")
        SUMMARY.append(line)
        print(line)
        assert not self.failures, f"{line}\n" + "\n".join(self.failures[:15])


def results_text(results) -> str:
    return ", ".join(f"{s} {b[:160]!r}" for s, _, b in results)


def _res(m: Match) -> str:
    """``"1-0"``, ``"0-1"``, ``"½-½"`` or ``""`` (no result) from the stored points."""
    if m.white_points is None:
        return ""
    return {1: "1-0", 0: "0-1"}.get(int(m.white_points * 2) // 2 if m.white_points != m.black_points else -1, "½-½")


def _db() -> str:
    return connections["default"].vendor


def _invariants(t: Tournament) -> list[str]:
    return [str(v.as_dict()) for v in invariants.check_tournament(Tournament.objects.get(pk=t.pk))]


def _url(t, rest=""):
    return f"/api/tournaments/{t.slug}/rounds/1/{rest}"


def test_result_against_round_close():
    s, tally = Setup("result-vs-close"), Tally("result-vs-close")
    a, b = s.client(0), s.client(1)
    for n in range(trials()):
        t = s.round1(results=1)
        res = race([lambda: a.post(_url(t, "boards/2/result/"), {"sets": WIN_2_0, "forfeit": ""}, format="json"),
                    lambda: b.post(_url(t, "close/"), format="json")])
        (rs, _, _), (cs, _, _) = res
        problems = []
        if rs != 200 or cs not in (200, 409):
            problems.append(f"statuses {rs}/{cs} (want 200 and 200|409)")
        rnd = Round.objects.get(tournament=t, number=1)
        boards = list(Match.objects.filter(round=rnd).order_by("board"))
        if rs == 200 and (not _res(boards[1]) or SetResult.objects.filter(match=boards[1]).count() != 2):
            problems.append(f"board 2's result lost: {_res(boards[1])!r}")
        if rnd.status == Round.Status.CLOSED and any(not _res(m) for m in boards):
            problems.append("round closed with a board without result")
        if (cs == 200) != (rnd.status == Round.Status.CLOSED):
            problems.append(f"close answered {cs} but the round is {rnd.status}")
        problems += _invariants(t)
        tally.add(n, res, problems)
    tally.finish(_db())


def test_partial_correction_against_round_close():
    s, tally = Setup("partial-vs-close"), Tally("partial-vs-close")
    a, b = s.client(0), s.client(1)
    for n in range(trials()):
        t = s.round1(results=2)
        m2 = Match.objects.get(round__tournament=t, round__number=1, board=2)
        res = race([lambda: a.post(_url(t, "boards/2/result/"),
                                   {"sets": ONE_SET, "forfeit": "", "version": m2.version}, format="json"),
                    lambda: b.post(_url(t, "close/"), format="json")])
        (rs, _, _), (cs, _, _) = res
        problems = []
        if rs >= 500 or cs >= 500 or rs not in (200, 400, 409) or cs not in (200, 409):
            problems.append(f"statuses {rs}/{cs}")
        rnd = Round.objects.get(tournament=t, number=1)
        m2.refresh_from_db()
        nsets = SetResult.objects.filter(match=m2).count()
        if rnd.status == Round.Status.CLOSED and nsets < 2:
            problems.append(f"round closed with board 2 undecided ({nsets} set, result {_res(m2)!r})")
        if rs == 200 and nsets != 1:
            problems.append(f"the correction answered 200 but board 2 has {nsets} sets")
        if rs != 200 and nsets != 2:
            problems.append(f"the correction was refused ({rs}) but board 2 has {nsets} sets")
        problems += _invariants(t)
        tally.add(n, res, problems)
    tally.finish(_db())


def test_first_result_against_pairing_undo():
    s, tally = Setup("result-vs-undo"), Tally("result-vs-undo")
    a, b = s.client(0), s.client(1)
    for n in range(trials()):
        t = s.round1(results=0)
        res = race([lambda: a.post(_url(t, "boards/1/result/"), {"sets": WIN_2_0, "forfeit": ""}, format="json"),
                    lambda: b.delete(_url(t), {"reason": "chaos"}, format="json")])
        (rs, _, _), (us, _, _) = res
        problems = []
        rnd = Round.objects.filter(tournament=t, number=1).first()
        if (rs, us) == (200, 409):
            m1 = Match.objects.filter(round=rnd, board=1).first() if rnd else None
            if m1 is None or not _res(m1) or SetResult.objects.filter(match=m1).count() != 2:
                problems.append("the result answered 200 but is not stored")
        elif us == 204 and rs in (404, 409):
            if rnd is not None or SetResult.objects.filter(match__round__tournament=t).exists():
                problems.append("the undo answered 204 but round 1 or its sets are still there")
        else:
            problems.append(f"statuses {rs}/{us} (want 200+409 or 404|409+204)")
        problems += _invariants(t)
        tally.add(n, res, problems)
    tally.finish(_db())


def test_two_results_on_one_board():
    s, tally = Setup("result-vs-result"), Tally("result-vs-result")
    a, b = s.client(0), s.client(1)
    t = s.round1(results=1)  # one board, corrected again and again: each trial starts from its version
    m1 = Match.objects.get(round__tournament=t, round__number=1, board=1)
    for n in range(trials()):
        m1.refresh_from_db()
        v = m1.version
        # sets that differ from the last trial's (a correction that changes nothing is not a write)
        sa = LOSS_0_2 if n % 2 else _sets((20, 28), (21, 27))
        sb = _sets((30, 18), (22, 26), (28, 20)) if n % 2 else _sets((31, 17), (21, 27), (29, 19))
        res = race([lambda: a.post(_url(t, "boards/1/result/"), {"sets": sa, "forfeit": "", "version": v},
                                   format="json"),
                    lambda: b.post(_url(t, "boards/1/result/"), {"sets": sb, "forfeit": "", "version": v},
                                   format="json")])
        statuses = sorted(x[0] for x in res)
        problems = []
        if statuses != [200, 409]:
            problems.append(f"statuses {statuses} (want one 200, one 409)")
        m1.refresh_from_db()
        nsets = SetResult.objects.filter(match=m1).count()
        if res[0][0] == 200 and (_res(m1), nsets) != ("0-1", 2):
            problems.append(f"writer A won but board 1 is {_res(m1)!r} with {nsets} sets")
        if res[1][0] == 200 and (_res(m1), nsets) != ("1-0", 3):
            problems.append(f"writer B won but board 1 is {_res(m1)!r} with {nsets} sets")
        if m1.version != v + 1 and 200 in statuses:
            problems.append(f"version {m1.version}, want {v + 1}")
        problems += _invariants(t)
        tally.add(n, res, problems)
    tally.finish(_db())
