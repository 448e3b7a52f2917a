"""Checks after a load run (Django must be set up): what the API accepted is what the database holds,
and what the server serves is what a fresh computation gives.

* :func:`check_results` — every board of the round: its stored sets are exactly those of the accepted
  submission with the highest version, its version is that version, no version was answered to two
  different results (a lost update), and a board nobody's submission was accepted for has no result —
  allowing only for submissions that got no answer because the phase ended while they were in flight.
* :func:`check_standings` — the standings API (JSON) and the standings page (HTML table) as served now
  equal ``selectors.tournament_standings`` computed in this process with the cache switched off.
* :func:`check_live` — ``live.json`` as served equals ``result_selectors.live_data`` computed afresh.
* :func:`profile_requests` — the queries of one request of each kind (Django test client in this process,
  ``CaptureQueriesContext``): how many, how long, the slowest.
"""
from __future__ import annotations

import json
import re
import time
import urllib.request
from collections import defaultdict
from html.parser import HTMLParser
from pathlib import Path

from benchmarks.load.results import recorded

DUMMY_CACHE = {"default": {"BACKEND": "django.core.cache.backends.dummy.DummyCache"}}


def load_submissions(out_dir: Path) -> dict[int, list[dict]]:
    """Every result the run sent, by board (all locust processes, all phases), each with its answer:
    ``{"id", "board", "sets", "status", "version"}``; ``status`` None: no answer came (the phase ended
    while it was in flight — the server may still have stored it)."""
    answers: dict[str, dict] = {}
    for path in sorted(out_dir.glob("answers-*.jsonl")):
        for line in path.read_text().splitlines():
            if line.strip():
                row = json.loads(line)
                answers[row["id"]] = row
    out: dict[int, list[dict]] = defaultdict(list)
    for path in sorted(out_dir.glob("attempts-*.jsonl")):
        for line in path.read_text().splitlines():
            if line.strip():
                row = json.loads(line)
                ans = answers.get(row["id"], {})
                out[int(row["board"])].append({"id": row["id"], "board": int(row["board"]), "sets": row["sets"],
                                               "phase": row.get("phase"), "status": ans.get("status"),
                                               "version": ans.get("version")})
    return out


def _stored_as_typed(s) -> dict:
    """A stored set as the referee typed it (the raw stores for a withdrawal)."""
    if s.termination == "completed":
        return {"white_store": s.white_stones, "black_store": s.black_stones, "termination": "completed"}
    return {"white_store": s.white_store, "black_store": s.black_store, "termination": s.termination}


def _typed(s: dict) -> dict:
    return {"white_store": int(s["white_store"]), "black_store": int(s["black_store"]),
            "termination": s.get("termination") or "completed"}


def check_results(config: dict, sent: dict[int, list[dict]]) -> tuple[list[str], dict]:
    """Problems found (empty: all good) and counts.

    Per board: the stored sets are those of the accepted submission with the highest version — or, when
    some submissions got no answer (cut off at the end of a phase), possibly those of one of them (the
    server finished it after the client stopped waiting: counted, not a fault); the stored version is the
    highest accepted one plus the unanswered ones that were stored; no two accepted answers share a
    version with different sets (a lost update); a board without any accepted or unanswered submission
    has no result."""
    from tournaments.models import Match

    problems: list[str] = []
    matches = (
        Match.objects.filter(round__tournament__slug=config["slug"], round__number=config["round"], kind="game")
        .prefetch_related("sets").order_by("board")
    )
    counts = {"boards": 0, "with_result": 0, "sent": 0, "accepted": 0, "refused": 0, "unanswered": 0,
              "unanswered_stored": 0, "double_taps": 0}
    for m in matches:
        counts["boards"] += 1
        subs = sent.get(m.board, [])
        accepted = [x for x in subs if x["status"] is not None and 200 <= x["status"] < 300]
        unanswered = [x for x in subs if x["status"] is None]
        counts["sent"] += len(subs)
        counts["accepted"] += len(accepted)
        counts["unanswered"] += len(unanswered)
        counts["refused"] += len(subs) - len(accepted) - len(unanswered)
        stored = [_stored_as_typed(s) for s in sorted(m.sets.all(), key=lambda s: s.number)]
        if m.result_entered_at is not None:
            counts["with_result"] += 1
        by_version: dict[int, list[dict]] = defaultdict(list)
        for a in accepted:
            by_version[int(a["version"])].append(a)
        for v, rows in by_version.items():
            distinct = {json.dumps([_typed(s) for s in r["sets"]]) for r in rows}
            if len(distinct) > 1:
                problems.append(f"board {m.board}: version {v} was answered to {len(rows)} different results "
                                f"(a lost update)")
            counts["double_taps"] += len(rows) - 1
        top = max(by_version, default=1)
        want = [_typed(s) for s in by_version[top][0]["sets"]] if by_version else None
        late = [x for x in unanswered if [_typed(s) for s in x["sets"]] == stored]
        if m.result_entered_at is None:
            if by_version:
                problems.append(f"board {m.board}: {len(accepted)} accepted submission(s) but no result stored")
            continue
        if not by_version and not late:
            problems.append(f"board {m.board}: has a result (version {m.version}) that no request gave")
            continue
        if stored != want:
            if late and m.version > top:
                counts["unanswered_stored"] += 1
            else:
                problems.append(f"board {m.board}: stored sets {stored} (version {m.version}) differ from the "
                                f"last accepted {want} (version {top})")
        extra = m.version - top  # versions written by submissions that got no answer
        if extra < 0:
            problems.append(f"board {m.board}: stored version {m.version} is older than an accepted {top}")
        elif extra > len(unanswered):
            problems.append(f"board {m.board}: stored version {m.version}, the last accepted was {top} and only "
                            f"{len(unanswered)} submission(s) got no answer (a write nobody sent?)")
        missing = set(range(2, top + 1)) - set(by_version)
        if len(missing) > len(unanswered):
            problems.append(f"board {m.board}: versions {sorted(missing)} were never answered although only "
                            f"{len(unanswered)} submission(s) went unanswered (a write counted twice?)")
        numbers = sorted(s.number for s in m.sets.all())
        if numbers != list(range(1, len(numbers) + 1)):
            problems.append(f"board {m.board}: set numbers {numbers} are not 1..n")
        for s in sorted(m.sets.all(), key=lambda s: s.number):
            if (s.white_stones, s.black_stones) != recorded(_stored_as_typed(s)):
                problems.append(f"board {m.board} set {s.number}: recorded {s.white_stones}-{s.black_stones}, "
                                f"the rules give {recorded(_stored_as_typed(s))}")
    return problems, counts


# --------------------------------------------------------------------------------------------------
# Standings and live pages: served vs fresh
# --------------------------------------------------------------------------------------------------


def http_get(url: str, headers: dict | None = None, timeout: float = 60) -> tuple[int, bytes]:
    req = urllib.request.Request(url, headers={"Accept-Language": "tr", **(headers or {})})
    try:
        with urllib.request.urlopen(req, timeout=timeout) as resp:
            return resp.status, resp.read()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read()


def http_post(url: str, body: dict | None, token: str, timeout: float = 60) -> tuple[int, bytes]:
    data = json.dumps(body or {}).encode()
    req = urllib.request.Request(url, data=data, method="POST", headers={
        "Authorization": f"Token {token}", "Content-Type": "application/json", "Accept-Language": "tr"})
    try:
        with urllib.request.urlopen(req, timeout=timeout) as resp:
            return resp.status, resp.read()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read()


class _TableRows(HTMLParser):
    """The cell texts of the rows of ``<table data-testid="standings">``'s body."""

    def __init__(self):
        super().__init__()
        self.rows: list[list[str]] = []
        self._in_table = self._in_body = False
        self._cell: list[str] | None = None
        self._depth = 0

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "table" and attrs.get("data-testid") == "standings":
            self._in_table = True
        elif self._in_table and tag == "tbody":
            self._in_body = True
        elif self._in_body and tag == "tr":
            self.rows.append([])
        elif self._in_body and tag == "td":
            self._cell = []
        elif self._cell is not None and tag == "small":
            self._depth += 1

    def handle_endtag(self, tag):
        if tag == "table" and self._in_table:
            self._in_table = self._in_body = False
        elif tag == "td" and self._cell is not None:
            self.rows[-1].append(" ".join("".join(self._cell).split()))
            self._cell = None
        elif tag == "small" and self._depth:
            self._depth -= 1

    def handle_data(self, data):
        if self._cell is not None and not self._depth:
            self._cell.append(data)


def _fresh_standings(slug: str):
    from django.test.utils import override_settings

    from tournaments import selectors
    from tournaments.models import Tournament

    with override_settings(CACHES=DUMMY_CACHE):
        t = Tournament.objects.get(slug=slug)
        return selectors.tournament_standings(tournament=t, public_only=True, lang="tr")


def check_standings(base_url: str, slug: str) -> tuple[list[str], dict]:
    """Compare the served standings API and page with a fresh computation; problems and what was seen."""
    from federation import formatting
    from tournaments import selectors

    problems: list[str] = []
    status_api, body_api = http_get(f"{base_url}/api/tournaments/{slug}/standings/?lang=tr")
    status_page, body_page = http_get(f"{base_url}/t/{slug}/standings/")
    fresh = _fresh_standings(slug)
    want = selectors.standings_as_dicts(fresh)
    info = {"rounds": fresh.rounds, "rows": len(want)}
    if status_api != 200:
        problems.append(f"standings API answered {status_api}")
    else:
        served = json.loads(body_api)
        if served.get("rounds") != fresh.rounds:
            problems.append(f"standings API is after round {served.get('rounds')}, fresh after {fresh.rounds}")
        rows = served.get("rows") or []
        if len(rows) != len(want):
            problems.append(f"standings API has {len(rows)} rows, fresh {len(want)}")
        for i, (got, exp) in enumerate(zip(rows, want), start=1):
            diff = [k for k in exp if not _same(got.get(k), exp[k])]
            if diff:
                problems.append(f"standings API row {i}: {', '.join(f'{k}={got.get(k)!r} (fresh {exp[k]!r})' for k in diff[:4])}")
                if len(problems) > 20:
                    break
    if status_page != 200:
        problems.append(f"standings page answered {status_page}")
    else:
        parser = _TableRows()
        parser.feed(body_page.decode())
        m = re.search(r"<small>[^<]*?(\d+)[^<]*</small>", body_page.decode())
        info["page_rows"] = len(parser.rows)
        if len(parser.rows) != len(fresh.lines):
            problems.append(f"standings page has {len(parser.rows)} rows, fresh {len(fresh.lines)}")
        for i, (cells, line) in enumerate(zip(parser.rows, fresh.lines), start=1):
            exp = [f"{line.rank}{'=' if line.shared else ''}", str(line.start_no), " ".join(line.name.split()),
                   formatting.points(line.points, lang="tr")]
            got = [cells[0], cells[1], cells[2], cells[4]] if len(cells) >= 5 else cells + [""] * 4
            if got[:3] != exp[:3] or got[3] != exp[3]:
                problems.append(f"standings page row {i}: {got} (fresh {exp})")
                if len(problems) > 40:
                    break
        if m is None:
            problems.append("standings page: no 'after round' heading found")
        elif int(m.group(1)) != fresh.rounds:
            problems.append(f"standings page is after round {m.group(1)}, fresh after {fresh.rounds}")
    return problems, info


def _same(a, b) -> bool:
    if isinstance(a, float) or isinstance(b, float):
        try:
            return abs(float(a) - float(b)) < 1e-6
        except (TypeError, ValueError):
            return False
    return a == b


def check_live(base_url: str, slug: str) -> list[str]:
    """``live.json`` as served vs ``result_selectors.live_data`` now (boards, results and sets)."""
    from django.test.utils import override_settings
    from django.utils import translation

    from tournaments.results import selectors as result_selectors
    from tournaments.models import Tournament

    status, body = http_get(f"{base_url}/t/{slug}/live.json")
    if status != 200:
        return [f"live.json answered {status}"]
    served = json.loads(body)
    with override_settings(CACHES=DUMMY_CACHE), translation.override("tr"):
        t = Tournament.objects.get(slug=slug)
        fresh = result_selectors.live_data(tournament=t, round=result_selectors.live_round(tournament=t))
    problems = []
    if (served.get("round") or {}).get("number") != (fresh.get("round") or {}).get("number"):
        problems.append(f"live.json shows round {served.get('round')}, fresh {fresh.get('round')}")
    keys = ("board", "state", "white_points", "black_points", "forfeit", "sets_text")
    got = [{k: b.get(k) for k in keys} for b in served.get("boards", [])]
    exp = [{k: b.get(k) for k in keys} for b in fresh.get("boards", [])]
    if got != exp:
        bad = [(g, e) for g, e in zip(got, exp) if g != e][:3]
        problems.append(f"live.json boards differ from a fresh read ({len(got)} vs {len(exp)} boards; e.g. {bad})")
    if served.get("done") != fresh.get("done"):
        problems.append(f"live.json says {served.get('done')} results in, fresh {fresh.get('done')}")
    return problems


# --------------------------------------------------------------------------------------------------
# Finishing the round through the API, as the organiser would
# --------------------------------------------------------------------------------------------------


def finish_round(base_url: str, config: dict, say=print) -> list[str]:
    """Enter the boards still without a result (as a referee, through the API), close the round and
    publish the standings (as the organiser): the standings then count the round the load wrote."""
    import random

    from benchmarks.load.results import match_sets
    from tournaments.models import Match

    problems = []
    rng = random.Random(7)
    missing = list(
        Match.objects.filter(round__tournament__slug=config["slug"], round__number=config["round"], kind="game",
                             white_points__isnull=True).select_related("white", "black").values_list(
            "board", "version", "white__rating", "black__rating")
    )
    token = config["referee_tokens"][0]
    for board, version, wr, br in missing:
        sets = match_sets(rng, wr, br, config["sets_per_match"])
        body = {"sets": sets, **({"version": version} if version > 1 else {})}
        status, text = http_post(f"{base_url}/api/tournaments/{config['slug']}/rounds/{config['round']}/boards/"
                                 f"{board}/result/", body, token)
        if status != 200:
            problems.append(f"finishing board {board}: {status} {text[:200]!r}")
    if missing:
        say(f"  entered the {len(missing)} board(s) still open through the API")
    org = config["organiser_token"]
    status, text = http_post(f"{base_url}/api/tournaments/{config['slug']}/rounds/{config['round']}/close/", None, org)
    if status != 200:
        problems.append(f"closing round {config['round']}: {status} {text[:300]!r}")
    status, text = http_post(f"{base_url}/api/tournaments/{config['slug']}/standings/publish/", None, org)
    if status != 200:
        problems.append(f"publishing the standings: {status} {text[:300]!r}")
    return problems


# --------------------------------------------------------------------------------------------------
# Where a request's time goes: its queries
# --------------------------------------------------------------------------------------------------


def _shape(sql: str) -> str:
    sql = re.sub(r"'(?:[^']|'')*'", "?", sql)
    sql = re.sub(r"\b\d+(\.\d+)?\b", "?", sql)
    sql = re.sub(r"\(\?(, \?)+\)", "(?…)", sql)
    return " ".join(sql.split())


def cprofile(call, top: int = 16) -> list[list]:
    """Where one call spends its time (cProfile): the project's functions and the big framework steps,
    by cumulative ms: ``[cumulative ms, own ms, calls, where]``."""
    import cProfile
    import pstats

    prof = cProfile.Profile()
    prof.enable()
    call()
    prof.disable()
    root = str(Path(__file__).resolve().parent.parent.parent) + "/"
    rows = []
    for (filename, line, func), (cc, nc, tt, ct, callers) in pstats.Stats(prof).stats.items():
        rel = filename.replace(root, "")
        ours = rel.startswith(("federation/", "ratings/", "tournaments/", "games/"))
        big = any(k in rel for k in ("rest_framework/views.py", "simple_history/models.py", "django/db/backends/utils.py",
                                     "django/db/models/deletion.py", "django/db/models/base.py", "rest_framework/authentication.py",
                                     "django/core/handlers/base.py"))
        if ours or big:
            rows.append([round(ct * 1000, 2), round(tt * 1000, 2), nc, f"{rel.split('site-packages/')[-1]}:{line} {func}"])
    rows.sort(key=lambda r: -r[0])
    return rows[:top]


def profile_requests(config: dict, repeat: int = 5) -> dict:
    """Queries per request of each kind (median of ``repeat`` runs of wall time; the query list of the
    last run), measured in this process with the Django test client against the database of the run."""
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    from tournaments.models import Match

    slug, rnd = config["slug"], config["round"]
    ref = Client(HTTP_HOST="127.0.0.1", HTTP_AUTHORIZATION=f"Token {config['referee_tokens'][0]}",
                 HTTP_ACCEPT_LANGUAGE="tr")
    anon = Client(HTTP_HOST="127.0.0.1", HTTP_ACCEPT_LANGUAGE="tr")
    board = Match.objects.filter(round__tournament__slug=slug, round__number=rnd, kind="game").order_by("board").first()
    out = {}

    def run(name, call, prepare=lambda: ()):
        walls, last = [], None
        for _ in range(repeat):
            args = prepare()  # outside the measurement (e.g. the version to send)
            with CaptureQueriesContext(connection) as ctx:
                t0 = time.perf_counter()
                resp = call(*args)
                walls.append((time.perf_counter() - t0) * 1000)
            last = (resp.status_code, list(ctx.captured_queries))
        status, queries = last
        shapes = defaultdict(lambda: [0, 0.0])
        for q in queries:
            s = shapes[_shape(q["sql"])]
            s[0] += 1
            s[1] += float(q["time"]) * 1000
        walls.sort()
        out[name] = {
            "status": status, "queries": len(queries), "db_ms": sum(float(q["time"]) for q in queries) * 1000,
            "wall_ms_median": walls[len(walls) // 2],
            "top": sorted(([n, round(ms, 2), sql[:240]] for sql, (n, ms) in shapes.items()), key=lambda x: -x[1])[:8],
            "all": [_shape(q["sql"])[:160] for q in queries],
        }

    from benchmarks.load.results import match_sets
    import random

    rng = random.Random(11)
    url = f"/api/tournaments/{slug}/rounds/{rnd}/boards/{board.board}/result/"

    def body():
        m = Match.objects.get(pk=board.pk)
        data = {"sets": match_sets(rng, sets_per_match=config["sets_per_match"])}
        if m.result_entered_at is not None:
            data["version"] = m.version
        return (json.dumps(data),)

    def submit(data):
        return ref.post(url, data=data, content_type="application/json")

    run("POST result", submit, body)
    prepared = body()
    out["POST result"]["cprofile"] = cprofile(lambda: submit(*prepared))
    run("GET standings page", lambda: anon.get(f"/t/{slug}/standings/"))
    run("GET live page", lambda: anon.get(f"/t/{slug}/live/"))
    run("GET live.json", lambda: anon.get(f"/t/{slug}/live.json"))
    run("GET standings API", lambda: anon.get(f"/api/tournaments/{slug}/standings/"))
    from django.test.utils import override_settings

    with override_settings(CACHES=DUMMY_CACHE):  # what a request costs when nothing is cached
        run("GET standings page (no cache)", lambda: anon.get(f"/t/{slug}/standings/"))
        run("GET live page (no cache)", lambda: anon.get(f"/t/{slug}/live/"))
        run("GET live.json (no cache)", lambda: anon.get(f"/t/{slug}/live.json"))
    return out
