"""Benchmark: the result write path (issue 22, "The write path") — one result POST through the API.

A referee with a token (a per-tournament role) enters a 3-set result on every board of a published round
of a 40-player Swiss, then corrects each with the version it got back (``If-Match``). Each is measured
as CPU time in this process (the Django test client: middleware, DRF, the service, the SQLite database
in the same process; CPU, not wall time, so the neighbours' load inflates it less) and as SQL statements;
the yardstick, measured in the same run by the same client, is a trivial view (``GET /favicon.ico``: the
whole middleware stack, no query). The figures are the medians and their ratio.

Usage: python benchmarks/write_bench.py [--players 40]
"""
from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from _report import figure  # noqa: E402
from pdf_bench import setup_django  # noqa: E402

STATEMENT_TARGET = 15


def _timed(func) -> tuple[float, int, object]:
    """(CPU ms, SQL statements, result) of ``func()``."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as ctx:
        t0 = time.process_time()
        result = func()
        ms = (time.process_time() - t0) * 1000
    return ms, len(ctx.captured_queries), result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=40)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as folder:
        setup_django(Path(folder))
        from rest_framework.authtoken.models import Token
        from rest_framework.test import APIClient

        from federation.models import Player
        from tests.factories import UserFactory, organiser
        from tournaments import services
        from tournaments.models import TournamentRole

        org = organiser(username="bench-org")
        t = services.tournament_create(name="Yazma Ölçümü", rounds_total=5, created_by=org)
        for i in range(args.players):
            player = Player.objects.create(federation_id=f"WB{i:04d}", first_name="Oyuncu", last_name=f"No{i}",
                                           rating=2000 - i)
            services.entry_add(tournament=t, player=player, user=org)
        rnd = services.round_pair(tournament=t, user=org, coin_seed="bench")
        services.round_publish(round=rnd, user=org)
        ref = UserFactory(username="bench-ref")
        TournamentRole.objects.create(tournament=t, user=ref, role=TournamentRole.Role.REFEREE)
        client = APIClient(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=ref).key}")
        boards = list(rnd.matches.filter(kind="game").order_by("board").values_list("board", flat=True))
        base = f"/api/tournaments/{t.slug}/rounds/1/"

        def post(board: int, third: tuple[int, int], etag: str | None = None):
            sets = [{"white_store": w, "black_store": b} for w, b in ((20, 28), (30, 18), third)]
            headers = {"HTTP_IF_MATCH": etag} if etag else {}
            r = client.post(f"{base}boards/{board}/result/", {"sets": sets, "forfeit": ""}, format="json", **headers)
            assert r.status_code == 200, r.content
            return r

        client.get("/favicon.ico")  # the first request of the process: imports, URL resolver
        reads = [_timed(lambda: client.get("/favicon.ico")) for _ in range(4 * len(boards))]
        firsts = [_timed(lambda b=b: post(b, (26, 22))) for b in boards]
        fixes = [_timed(lambda b=b, r=r: post(b, (22, 26), r["ETag"])) for b, (_ms, _n, r) in zip(boards, firsts)]
        read_ms = statistics.median(ms for ms, _n, _r in reads)
        first_ms = statistics.median(ms for ms, _n, _r in firsts)
        fix_ms = statistics.median(ms for ms, _n, _r in fixes)
        figure("result POST, first 3-set result: SQL statements", max(n for _ms, n, _r in firsts), "",
               target=STATEMENT_TARGET, digits=0)
        figure("result POST, correction with If-Match: SQL statements", max(n for _ms, n, _r in fixes), "",
               target=STATEMENT_TARGET, digits=0)
        figure("GET /favicon.ico (yardstick), CPU median", read_ms, "ms", digits=2)
        figure("result POST, first 3-set result, CPU median", first_ms, "ms")
        figure("result POST, correction, CPU median", fix_ms, "ms")
        figure("result POST, first result / trivial view", first_ms / read_ms, "x", digits=1)
        figure("result POST, correction / trivial view", fix_ms / read_ms, "x", digits=1,
               note=f"{len(boards)} boards, {args.players} players")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
