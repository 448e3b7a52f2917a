"""The locks that keep a result write, a round close and an undone pairing from racing (issue 23).

Lock order everywhere: tournament, round, board (match). On PostgreSQL:

* a **result write** (:func:`tournaments.results.services.match_result_enter`) holds the tournament row in
  ``FOR KEY SHARE`` (:func:`result_write_lock`): result writers do not wait for each other (their version
  bump, a non-key ``UPDATE``, does not conflict with ``KEY SHARE``), then locks its match row;
* a **round close**, **reopen** or **undone pairing** locks the tournament ``FOR UPDATE`` (which waits for
  every result write holding it and makes later ones wait), then the round, then the round's matches in
  board order (:func:`round_lock`), and decides from the locked rows.

So one of two racing writes always sees the other's committed state: a partial correction racing a close
either lands before it (the close is refused: a board without a result) or after it (the correction is
refused: the round is closed); a first result racing an undone pairing either lands first (the undo is
refused: a result is entered) or finds no board (409 ``pairing_undone``). No deadlock is possible between
them. On SQLite (``BEGIN IMMEDIATE``: one writer at a time, federation/settings/base.py) the transactions
are serialised already and the row locks are no-ops.
"""
from __future__ import annotations

from contextlib import contextmanager

from django.db import IntegrityError, OperationalError, connection, transaction
from django.utils.translation import gettext as _

from federation.errors import Conflict

# PostgreSQL SQLSTATEs of a lost race: deadlock, serialization failure, a row gone under a foreign key
_RACE_STATES = {"40P01", "40001", "23503"}


def result_write_lock(tournament_id: int) -> None:
    """Hold tournament ``tournament_id`` in ``FOR KEY SHARE`` until the transaction ends (PostgreSQL; one
    statement). Nothing on other databases: SQLite serialises write transactions (``BEGIN IMMEDIATE``)."""
    if connection.vendor != "postgresql":
        return
    with connection.cursor() as cursor:
        cursor.execute('SELECT 1 FROM "tournaments_tournament" WHERE "id" = %s FOR KEY SHARE', [tournament_id])


def round_lock(round_obj):
    """Lock a round for a close, reopen or undone pairing, in the house order: its tournament (``FOR
    UPDATE``), the round, then its matches by board. Returns ``(tournament, round, matches)``, all as just
    read under the locks (matches ordered by board). Three statements. Raises Conflict (409,
    ``pairing_undone``) when the round is gone."""
    from tournaments.models import Match, Round, Tournament

    tournament = Tournament.objects.select_for_update().get(pk=round_obj.tournament_id)
    rnd = Round.objects.select_for_update().filter(pk=round_obj.pk).first()
    if rnd is None:  # undone by a concurrent request, committed while this one waited for the tournament
        raise Conflict(_("The pairing of round %(n)d was undone meanwhile; reload the tournament.")
                       % {"n": round_obj.number}, code="pairing_undone")
    matches = list(Match.objects.select_for_update().filter(round_id=rnd.pk).order_by("board"))
    rnd.tournament = tournament
    return tournament, rnd, matches


def race_lost(exc: Exception) -> bool:
    """True when ``exc`` (a database error) is a race lost to a concurrent writer — a deadlock, a
    serialization failure, or a row deleted under a foreign key — rather than a bug."""
    if not isinstance(exc, (OperationalError, IntegrityError)):
        return False
    cause = exc.__cause__
    state = getattr(cause, "sqlstate", None) or getattr(cause, "pgcode", None)
    return state in _RACE_STATES


@contextmanager
def read_snapshot():
    """Run the reads inside in one snapshot of the database.

    On PostgreSQL, outside a transaction, they run in a READ ONLY REPEATABLE READ transaction: under
    the default READ COMMITTED every statement sees the data committed when *it* starts, so a result
    committed between reading the matches and reading their sets gave a match whose points disagree
    with its sets (a torn read: ``StandingsError``, HTTP 500). Inside a transaction, and on SQLite
    (one writer at a time; a read transaction sees one snapshot), the reads run as they are.
    """
    conn = transaction.get_connection()
    if conn.vendor != "postgresql" or conn.in_atomic_block:
        yield
        return
    with transaction.atomic():
        with conn.cursor() as cur:
            cur.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
        yield
