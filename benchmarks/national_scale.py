"""National scale by simulation: the rating list, player search and the full re-rating with a whole
federation's data in PostgreSQL.

The federation at full scale (``--full``): 50,000 players, 2,000 events a year, 1,000,000 rated sets.
Default (``make bench``): 5,000 players, 200 events, 100,000 sets — a few minutes.

In a fresh PostgreSQL database ``bench_national`` (migrated with the production settings through
``benchmarks/load/settings.py``) the script bulk-loads with COPY the tables the three reads use:
clubs and players (Turkish names, 81-province cities, sexes, birth years, folded search keys as
``Player.save`` writes them), and finished, published Swiss events over one year — entries, closed
rounds, matches (about 1 % forfeits, byes for odd fields) and their sets (three-set matches, results by
the players' latent strength, withdrawals and level sets; every set valid for the rules engine). The
rating rows (``RatingEvent``, ``RatingChange``, ``RatingGameLine``, ``InitialRating``, ``Player.rating``)
are then written by the project's own full re-rating (``ratings.services.ratings_recompute_all``, the
service behind ``manage.py rerate_all`` and the ``ratings.rerate_all`` task), which is what is timed.

Measured:

* full re-rating: ``ratings_recompute_all`` from empty rating tables, then again replacing every row (as
  ``rerate_all`` does in production), each split into loading, engine, writing and the rest; at the
  sizes of ``--rerate-at`` (default 100k and 300k sets when the data has 1M) by marking later events
  unrated, extrapolated linearly to 1,000,000 sets when the data is smaller (said so in the figure);
* the rating list page ``/ratings/``: first page, a middle page, filtered by club, city, sex (staff),
  age group, and a name search — p50/p95 over up to 20 requests (Django test client, production
  settings), with the cache switched off and as configured (Redis; first request cold);
* player search: ``/players/?q=`` with a Turkish name fragment, a federation id and a city, and the API
  ``/api/players/?search=``;
* database size (``pg_database_size``), the biggest tables and indexes (``pg_total_relation_size``),
  and ``EXPLAIN (ANALYZE, BUFFERS)`` of the slowest queries, with sequential scans named;
* the plan of the player search (the trigram indexes of migration ``federation.0006``).

Targets (issue 22): rating list page p95 <= 300 ms without the cache (<= 100 ms cached); player search
p95 <= 100 ms; full re-rating of 1,000,000 sets <= 60 s.

Usage::

    .venv/bin/python benchmarks/national_scale.py                 # 5,000 players, 100,000 sets
    .venv/bin/python benchmarks/national_scale.py --full          # 50,000 players, 2,000 events, 1 M sets
    .venv/bin/python benchmarks/national_scale.py --players 20000 --sets 300000 --keep

PostgreSQL: ``BENCH_PG_URL`` (default ``postgres://postgres@127.0.0.1:5432/postgres``); Redis for the
cache: ``BENCH_NATIONAL_REDIS_URL`` (default ``redis://127.0.0.1:6379/6``; without Redis the cached
figures are skipped). Skips with a message (exit 0) when PostgreSQL is not reachable.
"""
from __future__ import annotations

import argparse
import datetime as dt
import json
import math
import os
import random
import re
import secrets
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks._report import figure  # noqa: E402

DB_NAME = "bench_national"
PG_ADMIN_URL = os.environ.get("BENCH_PG_URL", "postgres://postgres@127.0.0.1:5432/postgres")
REDIS_URL = os.environ.get("BENCH_NATIONAL_REDIS_URL", "redis://127.0.0.1:6379/6")
TARGET_LIST_MS = 300  # issue 22: the rating list uncached
TARGET_LIST_CACHED_MS = 100
TARGET_SEARCH_MS = 100
TARGET_RERATE_S = 60  # issue 22: the full re-rating of 1 M sets

# the 81 provinces' biggest cities by weight (players follow population, roughly)
CITIES = [
    ("İstanbul", 18), ("Ankara", 7), ("İzmir", 5), ("Bursa", 4), ("Antalya", 3), ("Konya", 3), ("Adana", 3),
    ("Şanlıurfa", 2), ("Gaziantep", 2), ("Kocaeli", 2), ("Mersin", 2), ("Diyarbakır", 2), ("Hatay", 2),
    ("Manisa", 2), ("Kayseri", 2), ("Samsun", 2), ("Balıkesir", 1), ("Kahramanmaraş", 1), ("Van", 1),
    ("Aydın", 1), ("Denizli", 1), ("Sakarya", 1), ("Tekirdağ", 1), ("Muğla", 1), ("Eskişehir", 1),
    ("Mardin", 1), ("Trabzon", 1), ("Malatya", 1), ("Erzurum", 1), ("Ordu", 1), ("Afyonkarahisar", 1),
    ("Sivas", 1), ("Tokat", 1), ("Zonguldak", 1), ("Çorum", 1), ("Elazığ", 1), ("Batman", 1), ("Ağrı", 1),
    ("Çanakkale", 1), ("Isparta", 1), ("Edirne", 1), ("Uşak", 1), ("Düzce", 1), ("Rize", 1), ("Niğde", 1),
    ("Kırşehir", 1), ("Yozgat", 1), ("Giresun", 1), ("Bolu", 1), ("Nevşehir", 1), ("Çankırı", 1), ("Iğdır", 1),
]
FIRST_F_MORE = ["Ayşegül", "Büşra", "Cansu", "Damla", "Esra", "Fatma", "Hande", "İrem", "Kübra", "Leyla", "Melek",
                "Merve", "Nur", "Pınar", "Rabia", "Seda", "Tuğçe", "Ülkü", "Yasemin", "Zehra", "Aslı", "Beren",
                "Ceren", "Derya", "Ela", "Feride", "Gül", "Hatice", "Işıl", "Meryem"]
FIRST_M_MORE = ["Abdullah", "Burak", "Cem", "Deniz", "Efe", "Furkan", "Gökay", "Halil", "İsmail", "Kaan", "Levent",
                "Murat", "Necati", "Onur", "Özgür", "Recep", "Serkan", "Şükrü", "Tarık", "Umut", "Yiğit", "Zeki",
                "Alper", "Berk", "Caner", "Doğukan", "Emir", "Fatih", "Hakan", "Ilgaz"]
LAST_MORE = ["Acar", "Ağaoğlu", "Akbulut", "Akgül", "Aksoy", "Altun", "Avcı", "Başaran", "Bayram", "Bilgin", "Coşkun",
             "Çakmak", "Çınar", "Demirci", "Dinç", "Duran", "Ekinci", "Erdem", "Eren", "Gök", "Gümüş", "Gündoğdu",
             "Gürbüz", "Işıkoğlu", "İnce", "Kahraman", "Kalkan", "Kaplan", "Karakaya", "Kocabaş", "Korkmaz", "Kuru",
             "Metin", "Oral", "Oruç", "Önal", "Öztekin", "Sağlam", "Sevim", "Soylu", "Sönmez", "Süzer", "Şen",
             "Taş", "Taşkın", "Toprak", "Tuncer", "Turan", "Uysal", "Uzun", "Vural", "Yalçın", "Yavuz", "Yücel",
             "Yüksel", "Zengin", "Ölmez", "Üstün", "Çiftçi", "Özgür"]


def say(text: str = "") -> None:
    print(text, flush=True)


def load() -> str:
    return "load {:.2f} {:.2f} {:.2f}".format(*os.getloadavg())


def _db_url(name: str) -> str:
    parts = urlsplit(PG_ADMIN_URL)
    return urlunsplit((parts.scheme, parts.netloc, f"/{name}", "", ""))


def pg_admin(sql: str) -> None:
    import psycopg

    with psycopg.connect(PG_ADMIN_URL, autocommit=True) as conn:
        conn.execute(sql)


def pg_reachable() -> str | None:
    try:
        import psycopg

        with psycopg.connect(PG_ADMIN_URL, connect_timeout=3) as conn:
            conn.execute("SELECT 1")
    except Exception as exc:  # noqa: BLE001
        return f"PostgreSQL at {PG_ADMIN_URL} is not reachable ({str(exc).strip().splitlines()[0] if str(exc) else exc})"
    return None


def redis_reachable() -> bool:
    try:
        import redis

        redis.Redis.from_url(REDIS_URL, socket_connect_timeout=2).ping()
        return True
    except Exception:  # noqa: BLE001
        return False


def pct(values: list[float], q: float) -> float:
    v = sorted(values)
    if not v:
        return float("nan")
    k = (len(v) - 1) * q
    lo = int(k)
    hi = min(lo + 1, len(v) - 1)
    return v[lo] + (v[hi] - v[lo]) * (k - lo)


# --------------------------------------------------------------------------------------------------
# Bulk loading with COPY: rows as dicts of attnames; missing fields take the model's default
# --------------------------------------------------------------------------------------------------


class Copier:
    """COPY rows of a Django model straight into its table, filling every field the row does not give
    with the model's default (so a field added later with a default needs no change here)."""

    def __init__(self, model):
        from django.db import models

        self.model = model
        self.fields = [f for f in model._meta.concrete_fields]
        self.columns = [f.column for f in self.fields]
        now = dt.datetime.now(dt.timezone.utc)
        self.defaults = {}
        for f in self.fields:
            if getattr(f, "auto_now_add", False) or getattr(f, "auto_now", False):
                self.defaults[f.attname] = now
            else:  # the model's default; "" for a text field without one, None for a nullable one
                self.defaults[f.attname] = f.get_default
        self.json_fields = {f.attname for f in self.fields if isinstance(f, models.JSONField)}
        self.rows: list[tuple] = []

    def add(self, **values) -> None:
        from psycopg.types.json import Jsonb

        row = []
        for f in self.fields:
            if f.attname in values:
                v = values[f.attname]
            else:
                d = self.defaults[f.attname]
                v = d() if callable(d) else d
            if f.attname in self.json_fields and v is not None:
                v = Jsonb(v)
            row.append(v)
        self.rows.append(tuple(row))

    def flush(self, cursor) -> int:
        if not self.rows:
            return 0
        table = self.model._meta.db_table
        cols = ", ".join(f'"{c}"' for c in self.columns)
        with cursor.copy(f'COPY "{table}" ({cols}) FROM STDIN') as copy:
            for row in self.rows:
                copy.write_row(row)
        n = len(self.rows)
        self.rows = []
        return n


def generate(*, players: int, events: int, sets_target: int, seed: int) -> dict:
    """Fill the database (Django set up, empty migrated database). Returns counts."""
    from django.contrib.auth import get_user_model
    from django.core.management.color import no_style
    from django.db import connection, transaction

    import games.engine as engine
    from benchmarks.load.results import match_sets
    from federation.collation import player_sort_text, search_fold
    from federation.models import Club, Player
    from federation.sample_data import FIRST_F, FIRST_M, LAST
    from tournaments.models import DEFAULT_TIEBREAKS, Entry, Match, Round, SetResult, Tournament

    rng = random.Random(seed)
    first_f = list(dict.fromkeys(FIRST_F + FIRST_F_MORE))
    first_m = list(dict.fromkeys(FIRST_M + FIRST_M_MORE))
    last = list(dict.fromkeys(LAST + LAST_MORE))
    city_names = [c for c, _w in CITIES]
    city_weights = [w for _c, w in CITIES]
    t0 = time.perf_counter()

    clubs = Copier(Club)
    n_clubs = max(20, players // 250)
    club_city = {}
    kinds = ["Mangala Kulübü", "Zeka Oyunları SK", "Akıl ve Zeka Oyunları Derneği", "Gençlik ve Spor Kulübü",
             "Okul Sporları Kulübü"]
    for cid in range(1, n_clubs + 1):
        city = city_names[(cid - 1) % len(city_names)] if cid <= len(city_names) else rng.choices(city_names, city_weights)[0]
        name = f"{city} {kinds[(cid - 1) // len(city_names) % len(kinds)]} {cid}"
        short = f"{search_fold(city)[:3].upper()}{cid}"
        club_city[cid] = city
        clubs.add(id=cid, name=name, short_name=short, city=city, active=True, search_key=search_fold(name),
                  short_key=search_fold(short), city_key=search_fold(city))
    clubs_by_city = defaultdict(list)
    for cid, city in club_city.items():
        clubs_by_city[city].append(cid)

    people = Copier(Player)
    strength: dict[int, float] = {}
    rating0: dict[int, int] = {}
    by_city: dict[str, list[int]] = defaultdict(list)
    for pid in range(1, players + 1):
        sex = "f" if rng.random() < 0.42 else "m"
        city = rng.choices(city_names, city_weights)[0]
        cid = rng.choice(clubs_by_city[city]) if clubs_by_city.get(city) and rng.random() < 0.85 else (
            rng.randint(1, n_clubs) if rng.random() < 0.5 else None)
        junior = rng.random() < 0.6
        birth = rng.randint(2008, 2018) if junior else rng.randint(1950, 2007)
        first = rng.choice(first_f if sex == "f" else first_m)
        surname = rng.choice(last)
        strength[pid] = rng.gauss(1500, 220)
        r0 = max(800, min(2600, int(strength[pid] + rng.gauss(0, 80)))) if rng.random() < 0.25 else 0
        rating0[pid] = r0
        by_city[city].append(pid)
        people.add(id=pid, federation_id=f"TMF-{pid:06d}", first_name=first, last_name=surname, sex=sex,
                   birth_year=birth, club_id=cid, city=city if rng.random() < 0.9 else "", rating=r0,
                   user_id=None, active=rng.random() > 0.03, merged_into_id=None,
                   search_key=search_fold(f"{first} {surname}"), city_key=search_fold(city),
                   sort_key=player_sort_text(surname, first, f"TMF-{pid:06d}"))

    tournaments, entries, rounds, matches, sets_ = (Copier(Tournament), Copier(Entry), Copier(Round), Copier(Match),
                                                    Copier(SetResult))
    year_start = dt.date(2025, 1, 4)
    rounds_for = lambda n: 5 if n < 24 else (7 if n < 120 else 9)  # noqa: E731
    # players per event so that the events give about sets_target sets (2.45 sets a match on average)
    mean_sets = sets_target / max(events, 1)
    eid = rid = mid = sid = enid = 0
    total_sets = 0
    all_ids = list(range(1, players + 1))
    for e in range(events):
        eid += 1
        guess = 2 * mean_sets / (2.45 * 7) * 1.035  # 1.035: the lognormal spread and the forfeits
        field = int(max(8, min(players, rng.lognormvariate(math.log(guess) - 0.08, 0.4))))
        n_rounds = min(rounds_for(field), field - 1)
        day = year_start + dt.timedelta(days=int(e * 361 / max(events, 1)))
        city = rng.choices(city_names, city_weights)[0]
        local = by_city.get(city) or all_ids
        picked: set[int] = set()
        want_local = min(len(local), int(field * 0.75))
        picked.update(rng.sample(local, want_local))
        while len(picked) < field:
            picked.add(rng.randint(1, players))
        field_ids = sorted(picked, key=lambda p: (-rating0[p], p))
        published = dt.datetime.combine(day + dt.timedelta(days=1), dt.time(18, 0), tzinfo=dt.timezone.utc)
        tournaments.add(id=eid, slug=f"etkinlik-{eid:05d}", name=f"{city} Mangala Turnuvası {eid}", start_date=day,
                        end_date=day + dt.timedelta(days=1), city=city, venue=f"{city} Spor Salonu",
                        system="swiss", rounds_total=n_rounds, status="finished", standings_published_at=published,
                        standings_round=n_rounds, tiebreaks=list(DEFAULT_TIEBREAKS), created_at=published,
                        version=2 + field * n_rounds)
        entry_of = {}
        for no, pid in enumerate(field_ids, start=1):
            enid += 1
            entry_of[pid] = enid
            entries.add(id=enid, tournament_id=eid, player_id=pid, start_no=no, rating=rating0[pid])
        score = {pid: 0.0 for pid in field_ids}
        for rn in range(1, n_rounds + 1):
            rid += 1
            at = published - dt.timedelta(hours=n_rounds - rn + 1)
            rounds.add(id=rid, tournament_id=eid, number=rn, status="closed", paired_at=at, published_at=at,
                       closed_at=at + dt.timedelta(minutes=50))
            order = sorted(field_ids, key=lambda p: (-score[p], rng.random()))
            board = 0
            if len(order) % 2:
                bye = order.pop()
                board_bye = len(order) // 2 + 1
                mid += 1
                matches.add(id=mid, round_id=rid, board=board_bye, kind="bye", bye_kind="pab",
                            white_id=entry_of[bye], black_id=None, forfeit="", white_points=1, black_points=None,
                            rated=True, result_entered_at=at, version=1)
                score[bye] += 1
            for i in range(0, len(order), 2):
                board += 1
                mid += 1
                w, b = order[i], order[i + 1]
                if rng.random() < 0.5:
                    w, b = b, w
                if rng.random() < 0.01:
                    who = rng.choice(["white", "black"])
                    wp, bp = (0, 1) if who == "white" else (1, 0)
                    matches.add(id=mid, round_id=rid, board=board, kind="game", bye_kind="", white_id=entry_of[w],
                                black_id=entry_of[b], forfeit=who, white_points=wp, black_points=bp, rated=False,
                                result_entered_at=at, version=2)
                    score[w] += wp
                    score[b] += bp
                    continue
                played = match_sets(rng, strength[w], strength[b], 3)
                rec = []
                for k, s in enumerate(played, start=1):
                    withdrawn = {"completed": None, "white_withdrew": "first", "black_withdrew": "second"}[s["termination"]]
                    res = engine.set_result(s["white_store"], s["black_store"], withdrawn_by=withdrawn)
                    rec.append((res.first, res.second))
                    sid += 1
                    sets_.add(id=sid, match_id=mid, number=k, starter="white" if k % 2 else "black",
                              white_stones=res.first, black_stones=res.second, termination=s["termination"],
                              white_store=None if withdrawn is None else s["white_store"],
                              black_store=None if withdrawn is None else s["black_store"], moves="")
                mr = engine.match_result(rec, sets_per_match=3)
                wp, bp = mr.match_points
                matches.add(id=mid, round_id=rid, board=board, kind="game", bye_kind="", white_id=entry_of[w],
                            black_id=entry_of[b], forfeit="", white_points=wp, black_points=bp, rated=True,
                            result_entered_at=at, version=2)
                score[w] += wp
                score[b] += bp
                total_sets += len(played)
    gen_s = time.perf_counter() - t0
    counts = {"clubs": len(clubs.rows), "players": len(people.rows), "events": len(tournaments.rows),
              "entries": len(entries.rows), "rounds": len(rounds.rows), "matches": len(matches.rows),
              "sets": len(sets_.rows)}
    say(f"  generated {counts} in {gen_s:.0f} s")
    t1 = time.perf_counter()
    with transaction.atomic():
        with connection.cursor() as cur:
            raw = cur.cursor
            for c in (clubs, people, tournaments, entries, rounds, matches, sets_):
                c.flush(raw)
            for sql in connection.ops.sequence_reset_sql(no_style(), [Club, Player, Tournament, Entry, Round, Match,
                                                                       SetResult]):
                cur.execute(sql)
    User = get_user_model()
    staff = User.objects.create(username="bench-staff", is_staff=True, password="!")
    counts["copy_seconds"] = time.perf_counter() - t1
    counts["generate_seconds"] = gen_s
    counts["staff_id"] = staff.pk
    say(f"  loaded with COPY in {counts['copy_seconds']:.0f} s ({load()})")
    return counts


# --------------------------------------------------------------------------------------------------
# Re-rating
# --------------------------------------------------------------------------------------------------


def rerate(label: str) -> dict:
    """Time ``ratings_recompute_all`` with its parts (loading, engine, writing, players)."""
    from django.db import connection

    import ratings.services as services

    parts = defaultdict(float)
    originals = {
        "rating_inputs": services.rating_inputs, "rate_events": services.rate_events,
        "_write_events": services._write_events, "_update_players": services._update_players,
        "_initial_ratings": services._initial_ratings,
    }

    def timed(name, fn):
        def wrapper(*a, **k):
            t = time.perf_counter()
            try:
                return fn(*a, **k)
            finally:
                parts[name] += time.perf_counter() - t
        return wrapper

    queries = {"n": 0, "seconds": 0.0}

    def count(execute, sql, params, many, context):
        t = time.perf_counter()
        try:
            return execute(sql, params, many, context)
        finally:
            queries["n"] += 1
            queries["seconds"] += time.perf_counter() - t

    services.rating_inputs = timed("load (rating_inputs)", originals["rating_inputs"])
    services.rate_events = timed("engine (rate_events)", originals["rate_events"])
    services._write_events = timed("write rows (_write_events)", originals["_write_events"])
    services._update_players = timed("Player.rating (_update_players)", originals["_update_players"])
    services._initial_ratings = timed("initial ratings", originals["_initial_ratings"])
    try:
        t0, c0 = time.perf_counter(), time.process_time()
        with connection.execute_wrapper(count):
            summary = services.ratings_recompute_all()
        wall, cpu = time.perf_counter() - t0, time.process_time() - c0
    finally:
        services.rating_inputs = originals["rating_inputs"]
        services.rate_events = originals["rate_events"]
        services._write_events = originals["_write_events"]
        services._update_players = originals["_update_players"]
        services._initial_ratings = originals["_initial_ratings"]
    rest = wall - sum(parts.values())
    parts["delete old rows and the rest"] = max(0.0, rest)
    out = {"label": label, "wall": wall, "cpu": cpu, "events": len(summary.events), "rated_sets": summary.rated_sets,
           "players_updated": summary.players_updated, "parts": dict(parts), "queries": queries["n"],
           "query_seconds": queries["seconds"], "load": os.getloadavg()}
    say(f"  {label}: {summary.rated_sets:,} sets in {len(summary.events)} events: {wall:.1f} s wall, {cpu:.1f} s CPU "
        f"in this process, {queries['n']} queries ({queries['seconds']:.1f} s in them); "
        + ", ".join(f"{k} {v:.1f} s" for k, v in parts.items()) + f" ({load()})")
    return out


def rate_subset(max_sets: int | None) -> int:
    """Mark the events after the first ``max_sets`` sets (in rating order) as running, so only those are
    rated; None: every event. Returns the number of sets in the rated events."""
    from django.db import connection

    with connection.cursor() as cur:
        cur.execute("UPDATE tournaments_tournament SET status = 'finished'")
        if max_sets is None:
            cur.execute("SELECT count(*) FROM tournaments_setresult")
            return cur.fetchone()[0]
        cur.execute("""
            WITH per_event AS (
              SELECT t.id, t.end_date, count(s.id) AS n
              FROM tournaments_tournament t JOIN tournaments_round r ON r.tournament_id = t.id
              JOIN tournaments_match m ON m.round_id = r.id JOIN tournaments_setresult s ON s.match_id = m.id
              GROUP BY t.id, t.end_date),
            running AS (SELECT id, n, sum(n) OVER (ORDER BY end_date, id) AS upto FROM per_event)
            UPDATE tournaments_tournament SET status = 'running'
            WHERE id IN (SELECT id FROM running WHERE upto - n >= %s)""", [max_sets])
        cur.execute("""SELECT count(s.id) FROM tournaments_setresult s JOIN tournaments_match m ON s.match_id = m.id
                       JOIN tournaments_round r ON m.round_id = r.id JOIN tournaments_tournament t
                       ON r.tournament_id = t.id WHERE t.status = 'finished'""")
        return cur.fetchone()[0]


# --------------------------------------------------------------------------------------------------
# Pages
# --------------------------------------------------------------------------------------------------


def time_requests(client, url: str, *, repeat: int, budget_s: float, capture: bool = True) -> dict:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    times, statuses, slow, db_ms = [], set(), [], []
    first = None
    spent = 0.0
    for i in range(repeat):
        with CaptureQueriesContext(connection) as ctx:
            t0 = time.perf_counter()
            resp = client.get(url)
            ms = (time.perf_counter() - t0) * 1000
        if first is None:
            first = ms
        times.append(ms)
        statuses.add(resp.status_code)
        spent += ms / 1000
        db_ms.append(sum(float(q["time"]) for q in ctx.captured_queries) * 1000)
        if i == 0 and capture:
            slow = sorted(((float(q["time"]), q["sql"]) for q in ctx.captured_queries), reverse=True)[:3]
            nq = len(ctx.captured_queries)
        if spent > budget_s and i >= 4:
            break
    return {"url": url, "n": len(times), "p50": pct(times, 0.5), "p95": pct(times, 0.95), "first": first,
            "max": max(times), "statuses": sorted(statuses), "queries": nq if capture else None, "slow": slow,
            "db_ms_p50": pct(db_ms, 0.5)}


def measure_pages(args, staff_id: int, cache: bool, only=lambda name: True) -> dict:
    from django.test import Client
    from django.test.utils import override_settings

    from federation.models import Club, Player
    from ratings import selectors

    anon = Client(HTTP_HOST="127.0.0.1", HTTP_ACCEPT_LANGUAGE="tr")
    staff = Client(HTTP_HOST="127.0.0.1", HTTP_ACCEPT_LANGUAGE="tr")
    from django.contrib.auth import get_user_model

    staff.force_login(get_user_model().objects.get(pk=staff_id))
    rated = Player.objects.filter(rating__gt=0, active=True).count()
    middle = max(1, (rated // 100) // 2)
    club = Club.objects.order_by("id").values_list("short_name", flat=True).first()
    sample = Player.objects.filter(active=True).order_by("id")[Player.objects.count() // 3]
    fragment = sample.last_name[: max(4, len(sample.last_name) - 2)].lower()
    cases = [
        ("rating list: first page", anon, "/ratings/"),
        (f"rating list: page {middle} (middle)", anon, f"/ratings/?page={middle}"),
        ("rating list: club filter", anon, f"/ratings/?club={club}"),
        ("rating list: city filter", anon, "/ratings/?city=İstanbul"),
        ("rating list: sex filter (staff)", staff, "/ratings/?sex=f"),
        ("rating list: age U12", anon, "/ratings/?age=u12"),
        ("rating list: name search", anon, f"/ratings/?q={fragment}"),
        ("rating API: first 100", anon, "/api/ratings/?limit=100"),
        ("player search: name fragment", anon, f"/players/?q={fragment}"),
        ("player search: federation id", anon, f"/players/?q={sample.federation_id}"),
        ("player search: city", anon, "/players/?q=İzmir"),
        ("player list: first page", anon, "/players/"),
        ("player API search: name", anon, f"/api/players/?search={fragment}"),
    ]
    out = {}
    ctx = override_settings(CACHES={"default": {"BACKEND": "django.core.cache.backends.dummy.DummyCache"}}) \
        if not cache else None
    if ctx:
        ctx.enable()
    try:
        if cache:
            from django.core.cache import cache as c

            c.clear()
        for name, client, url in cases:
            if not only(name):
                continue
            out[name] = r = time_requests(client, url, repeat=args.repeat, budget_s=args.budget)
            say(f"    {name:<36} p50 {r['p50']:8.1f} ms  p95 {r['p95']:8.1f} ms  first {r['first']:8.1f} ms  "
                f"n={r['n']:<3} {r['queries']} queries ({r['db_ms_p50']:.0f} ms in them)  {r['statuses']}")
    finally:
        if ctx:
            ctx.disable()
    out["_rated_players"] = rated
    out["_fragment"] = fragment
    return out


def profile_page(url: str, top: int = 14) -> list[tuple]:
    """Where one uncached request of ``url`` spends its time (cProfile, cumulative, project code first)."""
    import cProfile
    import pstats

    from django.test import Client
    from django.test.utils import override_settings

    client = Client(HTTP_HOST="127.0.0.1", HTTP_ACCEPT_LANGUAGE="tr")
    prof = cProfile.Profile()
    with override_settings(CACHES={"default": {"BACKEND": "django.core.cache.backends.dummy.DummyCache"}}):
        t0 = time.perf_counter()
        prof.enable()
        client.get(url)
        prof.disable()
        wall = (time.perf_counter() - t0) * 1000
    stats = pstats.Stats(prof)
    rows = []
    for (filename, line, func), (cc, nc, tt, ct, callers) in stats.stats.items():
        rel = filename.replace(str(ROOT) + "/", "")
        if rel.startswith(("federation/", "ratings/", "tournaments/", "games/")) or "site-packages/django/core/paginator" in rel \
                or "site-packages/django/template/base" in rel or func in ("execute", "_fetch_all"):
            rows.append((ct * 1000, tt * 1000, nc, f"{rel.split('site-packages/')[-1]}:{line} {func}"))
    rows.sort(reverse=True)
    say(f"\nwhere an uncached {url} spends its {wall:.0f} ms (cProfile, cumulative ms / own ms / calls):")
    for ct, tt, nc, name in rows[:top]:
        say(f"    {ct:8.1f} {tt:8.1f} {nc:>9}  {name}")
    return rows[:top]


# --------------------------------------------------------------------------------------------------
# Database size and query plans
# --------------------------------------------------------------------------------------------------


def db_sizes() -> dict:
    from django.db import connection

    with connection.cursor() as cur:
        cur.execute("SELECT pg_database_size(current_database())")
        total = cur.fetchone()[0]
        cur.execute("""SELECT c.relname, c.relkind, pg_total_relation_size(c.oid), pg_relation_size(c.oid),
                              c.reltuples::bigint
                       FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
                       WHERE n.nspname = 'public' AND c.relkind IN ('r', 'i')
                       ORDER BY pg_total_relation_size(c.oid) DESC LIMIT 16""")
        rows = cur.fetchall()
    return {"total": total, "relations": rows}


def explain(sql: str, params=None) -> list[str]:
    from django.db import connection

    with connection.cursor() as cur:
        cur.execute("EXPLAIN (ANALYZE, BUFFERS) " + sql, params)
        return [r[0] for r in cur.fetchall()]


def show_plans(results: dict, limit: int = 5) -> list[dict]:
    """EXPLAIN ANALYZE of the slowest distinct queries seen in the page measurements."""
    seen = {}
    for name, r in results.items():
        if name.startswith("_"):
            continue
        for secs, sql in r.get("slow", []):
            key = re.sub(r"\d+", "?", sql)[:300]
            if key not in seen or seen[key][0] < secs:
                seen[key] = (secs, sql, name)
    plans = []
    for secs, sql, name in sorted(seen.values(), reverse=True)[:limit]:
        if not sql.lstrip().upper().startswith("SELECT"):
            continue
        try:
            plan = explain(sql)
        except Exception as exc:  # noqa: BLE001
            plan = [f"(EXPLAIN failed: {exc})"]
        seq = sorted({m.group(1) for line in plan for m in [re.search(r"Seq Scan on (\w+)", line)] if m})
        plans.append({"page": name, "ms": secs * 1000, "sql": sql, "plan": plan, "seq_scans": seq})
        shown = sql if len(sql) < 600 else sql[:420] + f" … [{len(sql):,} characters] … " + sql[-120:]
        say(f"\n  {secs * 1000:.1f} ms ({name}): {shown}")
        for line in plan[:22]:
            say(f"      {line if len(line) < 240 else line[:200] + f' … [{len(line):,} characters]'}")
        if len(plan) > 22:
            say(f"      … {len(plan) - 22} more plan lines")
    return plans


# --------------------------------------------------------------------------------------------------


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--full", action="store_true", help="national scale: 50,000 players, 2,000 events, 1,000,000 sets")
    ap.add_argument("--players", type=int)
    ap.add_argument("--sets", type=int)
    ap.add_argument("--events", type=int)
    ap.add_argument("--rerate-at", default="",
                    help="also time the re-rating with only the first N sets rated (comma list, e.g. 100000,300000; "
                         "default with --full: 100000,300000)")
    ap.add_argument("--rerate-twice", action="store_true", default=None,
                    help="time a second full re-rating that replaces every row (default: on unless --full)")
    ap.add_argument("--repeat", type=int, default=20, help="requests per page (default 20)")
    ap.add_argument("--budget", type=float, default=40.0, help="seconds at most per page before stopping early (>= 5 requests)")
    ap.add_argument("--no-try-indexes", dest="try_indexes", action="store_false",
                    help="(kept for old command lines: the trigram indexes are in the migrations now)")
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--keep", action="store_true", help="keep the database bench_national for inspection")
    ap.add_argument("--json", type=Path, help="write every measured number to this file")
    args = ap.parse_args(argv)
    players = args.players or (50_000 if args.full else 5_000)
    sets_target = args.sets or (1_000_000 if args.full else 100_000)
    events = args.events or max(10, round(2000 * sets_target / 1_000_000))
    rerate_at = [int(x) for x in args.rerate_at.split(",") if x.strip()] or (
        [100_000, 300_000] if sets_target >= 1_000_000 else [])
    twice = args.rerate_twice if args.rerate_twice is not None else not args.full

    why = pg_reachable()
    if why:
        say(f"national_scale: SKIPPED — {why}. Start PostgreSQL (or set BENCH_PG_URL).")
        return 0
    with_cache = redis_reachable()
    env = {
        "DJANGO_SETTINGS_MODULE": "benchmarks.load.settings",
        "DJANGO_SECRET_KEY": secrets.token_urlsafe(50),
        "DJANGO_ALLOWED_HOSTS": "127.0.0.1,localhost,testserver",
        "DJANGO_SECURE_SSL_REDIRECT": "false",
        "DJANGO_SECURE_COOKIES": "false",
        "API_THROTTLE_ENABLED": "false",
        "DATABASE_URL": _db_url(DB_NAME),
        "CACHE_KEY_PREFIX": "bench-national",
        "BENCH_VAR_DIR": tempfile.mkdtemp(prefix="mangala-national-"),
        "DJANGO_LOG_LEVEL": "ERROR",
    }
    if with_cache:
        env["REDIS_URL"] = REDIS_URL
    else:  # the production settings want a broker; nothing here sends a task, and the cache is per process
        env["REDIS_URL"] = ""
        env["CELERY_BROKER_URL"] = "memory://"
        env["CACHE_URL"] = ""
        say(f"national_scale: note — Redis at {REDIS_URL} is not reachable: the cached figures are skipped")
    os.environ.update(env)
    # production settings need a static manifest only to render {% static %}: reuse the load test's
    from benchmarks.load_test import ensure_static, static_root

    os.environ["BENCH_STATIC_ROOT"] = str(static_root())
    results: dict = {"players": players, "sets_target": sets_target, "events": events, "machine_load_start": os.getloadavg()}
    status = 0

    def on_signal(signum, frame):
        raise KeyboardInterrupt

    import signal

    for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):  # every way of stopping ends in the cleanup
        signal.signal(sig, on_signal)
    try:
        ensure_static(dict(os.environ))
        import django

        say(f"national scale: {players:,} players, {events:,} events, about {sets_target:,} sets; "
            f"{os.cpu_count()} cores; {load()}")
        pg_admin(f"DROP DATABASE IF EXISTS {DB_NAME} WITH (FORCE)")
        pg_admin(f"CREATE DATABASE {DB_NAME}")
        django.setup()
        from django.core.management import call_command
        from django.db import connection

        t0 = time.perf_counter()
        call_command("migrate", "--noinput", verbosity=0)
        say(f"  {DB_NAME} created and migrated in {time.perf_counter() - t0:.0f} s")
        counts = generate(players=players, events=events, sets_target=sets_target, seed=args.seed)
        results["counts"] = counts
        with connection.cursor() as cur:
            cur.execute("VACUUM ANALYZE")

        say("\nfull re-rating (ratings.services.ratings_recompute_all):")
        reratings = []
        for n in rerate_at:
            if n >= counts["sets"]:
                continue
            got = rate_subset(n)
            reratings.append(rerate(f"first {got:,} sets rated (rating tables empty before)"))
            reratings[-1]["subset"] = got
        got = rate_subset(None)
        full = rerate(f"all {got:,} sets (rating tables empty before)")
        full["subset"] = got
        reratings.append(full)
        if twice:
            again = rerate(f"all {got:,} sets again (every rating row replaced, as rerate_all in production)")
            again["subset"] = got
            reratings.append(again)
        results["rerate"] = reratings
        with connection.cursor() as cur:
            cur.execute("VACUUM ANALYZE")

        say("\npages (Django test client, production settings, in this process):")
        say("  cache off (every request computes):")
        results["pages_nocache"] = measure_pages(args, counts["staff_id"], cache=False)
        if with_cache:
            say("  cache as configured (Redis; the first request of each page is cold):")
            results["pages_cache"] = measure_pages(args, counts["staff_id"], cache=True,
                                                   only=lambda name: name.startswith("rating"))

        results["profile"] = profile_page("/ratings/")

        say("\nslowest queries (EXPLAIN ANALYZE):")
        results["plans"] = show_plans(results["pages_nocache"])

        sizes = db_sizes()
        results["sizes"] = sizes
        say(f"\ndatabase size: {sizes['total'] / 2**20:,.0f} MB; biggest relations (with their indexes and TOAST):")
        for name, kind, total, own, tuples in sizes["relations"]:
            say(f"    {name:<52} {'index' if kind == 'i' else 'table'} {total / 2**20:9.1f} MB "
                f"(own {own / 2**20:8.1f} MB, ~{tuples:,} rows)")

        say("\nthe search's plan (trigram indexes of migration federation.0006):")
        frag = results["pages_nocache"].get("_fragment", "kaya")
        from federation.selectors import player_search_q
        from federation.models import Player as _P

        sql, params = _P.objects.filter(player_search_q(frag), active=True).order_by("sort_key")[:50].query.sql_with_params()
        results["search_plan"] = plan = explain(sql, params)
        for line in plan[:16]:
            say(f"      {line}")

        # --- figures ---------------------------------------------------------------------------------
        say("")
        note_size = f"{counts['players']:,} players, {got:,} sets"
        pages = results["pages_nocache"]
        for name, r in pages.items():
            if name.startswith("_"):
                continue
            target = TARGET_LIST_MS if name.startswith("rating") else TARGET_SEARCH_MS
            figure(f"national {name} p95", r["p95"], "ms", target=target,
                   note=f"p50 {r['p50']:.0f} ms, n={r['n']}, no cache; {note_size}")
        if with_cache:
            for name, r in results["pages_cache"].items():
                if name.startswith("_"):
                    continue
                target = TARGET_LIST_CACHED_MS if name.startswith("rating") else TARGET_SEARCH_MS
                figure(f"national {name} p95 (cached)", r["p95"], "ms", target=target,
                       note=f"first (cold) {r['first']:.0f} ms, p50 {r['p50']:.0f} ms, n={r['n']}")
        for r in reratings:
            per_m = r["wall"] / max(r["subset"], 1) * 1_000_000
            figure(f"national re-rating {r['subset']:,} sets{' (replace)' if 'again' in r['label'] else ''}",
                   r["wall"], "s", note=f"{r['events']} events, {r['cpu']:.0f} s CPU, load {r['load'][0]:.1f}")
        base = [r for r in reratings if "again" not in r["label"]]
        if len(base) >= 2:
            xs = [r["subset"] for r in base]
            ys = [r["wall"] for r in base]
            slope = (ys[-1] - ys[0]) / max(xs[-1] - xs[0], 1)
            at_1m = ys[-1] + slope * (1_000_000 - xs[-1])
        else:
            at_1m = base[-1]["wall"] / max(base[-1]["subset"], 1) * 1_000_000
        measured_1m = [r for r in base if r["subset"] >= 950_000]
        if measured_1m:
            figure("national full re-rating of 1 M sets (measured)", measured_1m[-1]["wall"], "s",
                   target=TARGET_RERATE_S, note=f"{measured_1m[-1]['subset']:,} sets")
        else:
            figure("national full re-rating of 1 M sets (extrapolated)", at_1m, "s", target=TARGET_RERATE_S,
                   note="linear from " + ", ".join(f"{r['subset']:,}: {r['wall']:.0f} s" for r in base))
        replaced = [r for r in reratings if "again" in r["label"]]
        if replaced:
            r = replaced[-1]
            figure("national re-rating replacing rows, per 1 M sets (extrap.)",
                   r["wall"] / max(r["subset"], 1) * 1_000_000, "s", target=TARGET_RERATE_S,
                   note=f"linear from {r['subset']:,} sets: {r['wall']:.0f} s")
        figure("national database size", sizes["total"] / 2**20, "MB", note=note_size)
        results["machine_load_end"] = os.getloadavg()
    except KeyboardInterrupt:
        say("\ninterrupted: cleaning up")
        status = 130
    except Exception:
        import traceback

        traceback.print_exc()
        status = 1
    finally:
        try:
            from django.db import connections

            connections.close_all()
        except Exception:  # noqa: BLE001
            pass
        if args.json:
            args.json.write_text(json.dumps(results, indent=1, default=str))
        if args.keep:
            say(f"kept: database {DB_NAME}")
        else:
            try:
                pg_admin(f"DROP DATABASE IF EXISTS {DB_NAME} WITH (FORCE)")
            except Exception as exc:  # noqa: BLE001
                say(f"(could not drop {DB_NAME}: {exc})")
        if with_cache:
            try:
                import redis

                redis.Redis.from_url(REDIS_URL).flushdb()
            except Exception:  # noqa: BLE001
                pass
        import shutil

        shutil.rmtree(env["BENCH_VAR_DIR"], ignore_errors=True)
    return status


if __name__ == "__main__":
    sys.exit(main())
