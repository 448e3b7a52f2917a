"""Issue 23: publishing a pairing locks in the house order — tournament, round, boards (tournaments.races).

It used to lock the round alone and then write the tournament (``tournament_touch``): the reverse order of an
undone pairing (``round_delete``: tournament, round, boards), a deadlock when the two met. The order of the
locking reads is checked on both databases; on PostgreSQL publish races the undo 20 times (~2 s): one of
them wins, the other gets a clean answer, never a deadlock.
"""
from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from federation.errors import Conflict
from tests.factories import PlayerFactory, organiser
from tests.racing import race
from tournaments import services
from tournaments.entries import services as entry_services
from tournaments.rounds import services as round_services
from tournaments.models import Round, Tournament

TRIALS = 20


def _paired(name: str):
    org = organiser(username=f"{name}-org")
    t = services.tournament_create(name=f"Kilit {name}", rounds_total=3, created_by=org)
    for i in range(4):
        entry_services.entry_add(tournament=t, player=PlayerFactory(rating=1800 - 10 * i), user=org)
    return t, org, round_services.round_pair(tournament=t, user=org, coin_seed=name)


def _table(sql: str) -> str:
    return sql.split(" FROM ", 1)[1].split()[0].strip('"')


@pytest.mark.django_db
def test_publish_locks_tournament_then_round_then_boards():
    t, org, rnd = _paired("sira")
    with CaptureQueriesContext(connection) as ctx:
        round_services.round_publish(round=Round.objects.get(pk=rnd.pk), user=org)
    order = ["tournaments_tournament", "tournaments_round", "tournaments_match"]
    reads = [q["sql"] for q in ctx.captured_queries if q["sql"].startswith("SELECT")]
    if connection.features.has_select_for_update:  # PostgreSQL: the locking reads are exactly these, in order
        assert [_table(sql) for sql in reads if "FOR UPDATE" in sql] == order
    else:  # SQLite (no FOR UPDATE): tournaments.races.round_lock's three reads, one after the other
        tables = [_table(sql) for sql in reads]
        assert any(tables[i:i + 3] == order for i in range(len(tables))), tables
    assert Round.objects.get(pk=rnd.pk).status == Round.Status.PUBLISHED


@pytest.mark.skipif(connection.vendor != "postgresql", reason="races need PostgreSQL")
@pytest.mark.django_db(transaction=True)
def test_publish_racing_the_undone_pairing_never_deadlocks():
    t, org, rnd = _paired("yaris")
    outcomes = {"publish first": 0, "undo first": 0, "undo before": 0}
    for trial in range(TRIALS):
        published, undone = race([
            lambda: round_services.round_publish(round=Round.objects.get(pk=rnd.pk), user=org),
            lambda: round_services.round_delete(round=Round.objects.get(pk=rnd.pk), user=org, reason="yanlış"),
        ])
        assert not isinstance(undone, BaseException), (trial, undone)
        if isinstance(published, Round.DoesNotExist):  # the undo committed before publish read the round
            outcomes["undo before"] += 1
        elif isinstance(published, BaseException):
            assert isinstance(published, Conflict) and published.code == "pairing_undone", (trial, published)
            outcomes["undo first"] += 1
        else:
            assert published.status == Round.Status.PUBLISHED
            outcomes["publish first"] += 1
        assert not Round.objects.filter(tournament=t).exists()
        rnd = round_services.round_pair(tournament=Tournament.objects.get(pk=t.pk), user=org, coin_seed=f"y{trial}")
    assert sum(outcomes.values()) == TRIALS
    print(outcomes)
