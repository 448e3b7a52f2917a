"""How many SQL queries each public page and API answer costs, as an anonymous visitor, on the shared
completed tournament: cold (empty cache) and warm (the cached tables reused).

The bounds are what the pages need now (a page that needs fewer may lower its bound), so a new N+1 query (one query per row or per round) fails here:
the completed tournament has 6 players and 3 rounds, and a page whose queries grow with either would
exceed them. Warm pages of the cached outputs (standings, crosstable, live round, standings API) must
not read a single match, entry or set: those come from the cache (tournaments/caching.py).
"""
from __future__ import annotations

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

pytestmark = pytest.mark.django_db

SLUG = "tamamlanmis-test-turnuvasi"

#: (path, most queries cold, most queries warm, cached: no match/entry/set query when warm)
PAGES = [
    ("/", 1, 1, False),
    (f"/t/{SLUG}/", 6, 6, False),
    (f"/t/{SLUG}/round/1/", 8, 8, False),
    (f"/t/{SLUG}/standings/", 6, 1, True),  # + the categories of the menu (cached with the table)
    (f"/t/{SLUG}/crosstable/", 7, 1, True),
    (f"/t/{SLUG}/live/", 4, 1, True),
    (f"/t/{SLUG}/tv/", 4, 1, True),
    (f"/t/{SLUG}/live.json", 4, 1, True),
    (f"/t/{SLUG}/export.trf", 8, 8, False),
    ("/players/", 3, 3, False),  # the count, the page of 50 (sorted by sort_key in the database), the clubs
    ("/players/CT-1/", 5, 5, False),  # + the official lists the player is on
    ("/players/CT-1/results/", 4, 4, False),
    ("/ratings/", 11, 7, False),  # + the parameter set in force, + the current official list
    ("/clubs/", 1, 1, False),
    ("/api/tournaments/", 2, 2, False),
    (f"/api/tournaments/{SLUG}/", 4, 4, False),  # + its categories (issue 14)
    (f"/api/tournaments/{SLUG}/rounds/1/", 5, 5, False),
    (f"/api/tournaments/{SLUG}/standings/", 5, 1, True),
    (f"/t/{SLUG}/prizes/", 8, 1, True),  # categories, entries' facts, prizes + the standings' own
    ("/api/ratings/", 5, 2, False),
    ("/api/ratings/players/CT-1/history/", 3, 3, False),
    ("/api/players/", 2, 2, False),
]

_ROW_TABLES = ('"tournaments_match"', '"tournaments_entry"', '"tournaments_setresult"')


def _get(client: Client, path: str) -> tuple[int, list[str]]:
    with CaptureQueriesContext(connection) as ctx:
        response = client.get(path)
        if getattr(response, "streaming", False):
            b"".join(response.streaming_content)
    assert response.status_code == 200, (path, response.status_code)
    return len(ctx.captured_queries), [q["sql"] for q in ctx.captured_queries]


@pytest.mark.parametrize(("path", "cold_max", "warm_max", "cached"), PAGES, ids=[p[0] for p in PAGES])
def test_public_page_query_count(completed_tournament, path, cold_max, warm_max, cached):
    client = Client()
    cold, _sql = _get(client, path)
    warm, warm_sql = _get(client, path)
    assert cold <= cold_max, f"{path}: {cold} queries cold (at most {cold_max})"
    assert warm <= warm_max, f"{path}: {warm} queries warm (at most {warm_max}): {warm_sql}"
    if cached:
        rows = [q for q in warm_sql if any(table in q for table in _ROW_TABLES)]
        assert not rows, f"{path}: the warm page read rows the cache holds: {rows}"
