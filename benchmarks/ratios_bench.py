"""Benchmark: championship-day costs as ratios to a trivial view measured in the same process and run.

The machine is shared and its load changes by the minute, so absolute times are not comparable between
runs; a ratio to a yardstick measured alternately with the figure is. The yardstick is a trivial view,
``HttpResponse("ok")``, served through the same middleware stack. Measured (issue 22's first three rows):

* the cached public standings page (anonymous reader), CPU per request — target <= 3x trivial;
* ``live.json`` while results arrive: a result entered before every poll (one poll per result, the
  worst ratio a hall has), each poll with the ETag it last got, as ``static/js/live.js`` sends it —
  target <= 3x trivial;
* one result POST through the API (referee with a token, a 3-set result or a correction with its
  version) — target <= 30x trivial, and its SQL statements — target <= 15.

The event is the generated 300-player Swiss of ``pdf_bench.py`` (9 rounds imported from TRF) with a 10th
round paired by the Dutch engine and published: the round in play. SQLite in a temporary folder, the
process's in-memory cache (``--redis URL`` for a Redis cache, as production has), Celery eager, the live
round rebuilt at most every ``LIVE_RECOMPUTE_SECONDS`` (3 s, the production default). CPU time
(``time.process_time``) of the request through Django's test client; batches of each kind are measured
in turn, ``--rounds`` times, and each figure is the median of its batches' ratios.

The POSTing client knows each board's version from the ETag of its last answer (as a referee's phone
does), so a timed POST is the request alone, not a read of the version before it.

Usage: python benchmarks/ratios_bench.py [--players 300] [--rounds 5] [--batch 60] [--redis URL] [--profile [FILE]]

``--profile``: instead of the figures, profile 60 result POSTs — corrections, once every board has a
result; the Redis cache unless ``--redis ''`` — with cProfile and print the top 30 functions by
cumulative time (and save the whole profile to FILE, for ``pstats``, when given).
"""
from __future__ import annotations

import argparse
import cProfile
import pstats
import statistics
import sys
import tempfile
import time
import types
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from _report import figure  # noqa: E402
from pdf_bench import build_event, setup_django  # noqa: E402

CACHED_TARGET = 3.0
LIVE_TARGET = 3.0
WRITE_TARGET = 30.0
STATEMENT_TARGET = 15


def _trivial_urlconf() -> str:
    """A URLconf of the site plus ``/__trivial__/`` answering ``ok`` (the yardstick), as a module."""
    from django.http import HttpResponse
    from django.urls import include, path

    module = types.ModuleType("bench_trivial_urls")
    module.urlpatterns = [path("__trivial__/", lambda request: HttpResponse("ok")), path("", include("federation.urls"))]
    sys.modules[module.__name__] = module
    return module.__name__


def _redis_reachable(url: str) -> bool:
    import redis

    try:
        return bool(redis.Redis.from_url(url, socket_connect_timeout=0.5).ping())
    except Exception:  # noqa: BLE001 - any failure: not reachable
        return False


def _use_cache(backend: dict) -> None:
    """Make ``backend`` the default cache from now on (emptied)."""
    from django.conf import settings
    from django.core.cache import caches

    settings.CACHES = {"default": backend}
    caches._settings = caches.configure_settings(settings.CACHES)
    try:
        del caches["default"]
    except AttributeError:  # not opened in this thread yet
        pass
    caches["default"].clear()


def _cpu_per_request(fn, n: int) -> float:
    """CPU milliseconds per call of ``fn`` over ``n`` calls."""
    start = time.process_time()
    for _ in range(n):
        fn()
    return (time.process_time() - start) * 1000 / n


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=300)
    parser.add_argument("--rounds", type=int, default=5, help="batches of each kind (the median is reported)")
    parser.add_argument("--batch", type=int, default=60, help="requests per batch")
    parser.add_argument("--redis", default="redis://127.0.0.1:6379/9",
                        help="also measure with this Redis as the cache, as production has ('' : memory only)")
    parser.add_argument("--profile", nargs="?", const="-", default=None, metavar="FILE",
                        help="print the cProfile top 30 of 60 result POSTs instead of the figures "
                        "(and save the whole profile to FILE, for pstats, when given)")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="ratios-bench-") as tmp:
        setup_django(Path(tmp))
        from django.conf import settings
        from django.contrib.auth.models import Group, User
        from django.core.cache import caches
        from django.db import connection
        from django.test import Client
        from django.test.utils import CaptureQueriesContext
        from rest_framework.authtoken.models import Token

        from federation import roles
        from tournaments import services
        from tournaments.results import services as result_services
        from tournaments.rounds import services as round_services
        from tournaments.models import Match, Tournament

        settings.ROOT_URLCONF = _trivial_urlconf()
        settings.LIVE_RECOMPUTE_SECONDS = 3.0
        settings.DEBUG = False
        t = build_event(args.players)
        organiser = User.objects.create_user("bench-organiser", is_staff=True)
        Tournament.objects.filter(pk=t.pk).update(rounds_total=t.rounds_total + 1, created_by=organiser)
        t.refresh_from_db()
        services.standings_publish(tournament=t, user=organiser) if not t.standings_published else None
        rnd = round_services.round_pair(tournament=t, user=organiser, coin_seed="bench")
        round_services.round_publish(round=rnd, user=organiser)
        referee = User.objects.create_user("bench-referee")
        referee.groups.add(Group.objects.get_or_create(name=roles.REFEREE)[0])
        token = Token.objects.create(user=referee)
        games = list(rnd.matches.filter(kind=Match.Kind.GAME).order_by("board"))
        print(f"event: {args.players} players, round {rnd.number} in play ({len(games)} boards)")

        anonymous = Client()
        api = Client(headers={"authorization": f"Token {token.key}"})
        paths = {"trivial": "/__trivial__/", "standings": f"/t/{t.slug}/standings/", "live": f"/t/{t.slug}/live.json"}

        outcomes = [
            [{"white_store": 30, "black_store": 18}, {"white_store": 26, "black_store": 22}],
            [{"white_store": 18, "black_store": 30}, {"white_store": 22, "black_store": 26}],
            [{"white_store": 30, "black_store": 18}, {"white_store": 20, "black_store": 28},
             {"white_store": 25, "black_store": 23}],
        ]
        state = {"k": 0}

        def outcome(k: int) -> list[dict]:
            """The k-th result entered: each pass over the boards shifts the outcomes by one, so a correction
            changes the result (the same result again is a double submit, which writes nothing)."""
            return outcomes[(k + k // len(games)) % len(outcomes)]
        seen_versions: dict[int, int] = {}  # board -> the version its last answer gave (no result yet: absent)

        def post_result():
            """The next board's result, or (all boards done) a correction with the version seen."""
            k = state["k"]
            state["k"] += 1
            m = games[k % len(games)]
            body = {"sets": outcome(k)}
            if m.board in seen_versions:
                body["version"] = seen_versions[m.board]
            url = f"/api/tournaments/{t.slug}/rounds/{rnd.number}/boards/{m.board}/result/"
            response = api.post(url, body, content_type="application/json")
            assert response.status_code == 200, (response.status_code, response.content[:300])
            seen_versions[m.board] = int(response["ETag"].strip('"'))

        def enter_result_quietly():
            """A result entered between two polls (not timed): the service, as the API would call it."""
            k = state["k"]
            state["k"] += 1
            m = Match.objects.get(pk=games[k % len(games)].pk)
            sets = [result_services.SetInput(s["white_store"], s["black_store"]) for s in outcome(k)]
            m = result_services.match_result_enter(match=m, sets=sets, user=referee,
                                                   expected_version=m.version if m.result_entered_at else None)
            seen_versions[m.board] = m.version

        seen = {"etag": ""}

        def live_while_results_arrive():
            """One poll as static/js/live.js sends it (with the ETag it last got), after a new result."""
            enter_result_quietly()
            start = time.process_time()
            response = anonymous.get(paths["live"], headers={"if-none-match": seen["etag"]})
            spent = time.process_time() - start
            assert response.status_code in (200, 304)
            seen["etag"] = response["ETag"]
            return spent

        if args.profile:
            if args.redis and _redis_reachable(args.redis):
                print(f"profile: Redis cache at {args.redis}")
                _use_cache({"BACKEND": "federation.cache.ResilientRedisCache", "LOCATION": args.redis})
            else:
                print("profile: in-process cache")
                _use_cache({"BACKEND": "django.core.cache.backends.locmem.LocMemCache"})
            for _ in range(len(games)):  # a first result on every board (not profiled): then corrections
                post_result()
            profiler = cProfile.Profile()
            profiler.enable()
            for _ in range(60):
                post_result()
            profiler.disable()
            if args.profile != "-":
                profiler.dump_stats(args.profile)
            pstats.Stats(profiler).sort_stats("cumulative").print_stats(30)
            return 0

        backends = [("in-process memory", {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"})]
        if args.redis and not _redis_reachable(args.redis):
            print(f"Redis at {args.redis} not reachable: measured with the in-process cache only")
        elif args.redis:
            backends.append(("Redis", {"BACKEND": "federation.cache.ResilientRedisCache", "LOCATION": args.redis}))
        for cache_kind, backend in backends:
            _use_cache(backend)
            for path in paths.values():  # first requests: imports, templates, this cache's stored pages
                assert anonymous.get(path).status_code == 200, path
            print(f"cache: {cache_kind}")
            ratios = {"standings": [], "live": [], "write": []}
            trivials = []
            for _ in range(args.rounds):
                trivial = _cpu_per_request(lambda: anonymous.get(paths["trivial"]), args.batch)
                standings = _cpu_per_request(lambda: anonymous.get(paths["standings"]), args.batch)
                live = sum(live_while_results_arrive() for _ in range(args.batch)) * 1000 / args.batch
                write = _cpu_per_request(post_result, max(10, args.batch // 3))
                trivial_after = _cpu_per_request(lambda: anonymous.get(paths["trivial"]), args.batch)
                yardstick = (trivial + trivial_after) / 2
                trivials.append(yardstick)
                ratios["standings"].append(standings / yardstick)
                ratios["live"].append(live / yardstick)
                ratios["write"].append(write / yardstick)
            with CaptureQueriesContext(connection) as ctx:
                post_result()
            statements = len(ctx.captured_queries)

            n = f"{args.players} players, {cache_kind} cache"
            figure("trivial view (the yardstick), CPU per request", statistics.median(trivials), "ms")
            figure(f"cached standings page, {n}, ratio to trivial", statistics.median(ratios["standings"]), "x",
                   target=CACHED_TARGET)
            figure(f"live.json while results arrive, {n}, ratio to trivial", statistics.median(ratios["live"]),
                   "x", target=LIVE_TARGET)
            figure(f"result POST (API), {n}, ratio to trivial", statistics.median(ratios["write"]), "x",
                   target=WRITE_TARGET)
            figure("result POST (API), SQL statements", statements, "statements", target=STATEMENT_TARGET, digits=0)
    return 0


if __name__ == "__main__":
    sys.exit(main())
