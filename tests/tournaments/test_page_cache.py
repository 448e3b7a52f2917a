"""Finished public answers (federation/pagecache.py, tournaments/caching.py): an anonymous reader of a
public page is served stored bytes with no query; 304 before any work; the language, the answer kind and
the publish gate are part of the key; a logged-in organiser never sees the public or a stale variant; the
pages of the round being played are rebuilt at most once per interval, however many results arrive."""
from __future__ import annotations

import pytest
from django.db import connection
from django.test import Client, override_settings
from django.test.utils import CaptureQueriesContext
from rest_framework.authtoken.models import Token

from federation import pagecache
from tests.tournaments.test_caching import BLACK_WINS, WHITE_WINS, _event, _play_first_round, _points, people  # noqa: F401
from tournaments import caching
from tournaments.results import services as result_services
from tournaments.rounds import services as round_services

pytestmark = pytest.mark.django_db


def _get(client, path, **headers):
    with CaptureQueriesContext(connection) as ctx:
        response = client.get(path, headers=headers)
    return response, len(ctx.captured_queries)


@pytest.fixture
def played(people):  # noqa: F811 - the fixture of test_caching
    org, ref, _boss = people
    t, _club = _event(org)
    rnd = _play_first_round(t, org, ref)
    return t, rnd, org, ref


def test_second_anonymous_read_is_the_stored_page_with_no_query(played):
    t, _rnd, _org, _ref = played
    client = Client()
    first, q1 = _get(client, f"/t/{t.slug}/standings/")
    again, q2 = _get(client, f"/t/{t.slug}/standings/")
    assert first.status_code == again.status_code == 200
    assert first["X-Page-Cache"] == "miss" and again["X-Page-Cache"] == "hit"
    assert q1 > 0 and q2 == 0
    assert again.content == first.content and again["ETag"] == first["ETag"]
    assert again["Content-Type"] == "text/html; charset=utf-8" and again["Last-Modified"] == first["Last-Modified"]
    # nothing per visitor: no cookie, so the front proxy may keep it (X-Accel-Expires), browsers revalidate
    assert not first.cookies and not again.cookies
    assert again["Cache-Control"] == "public, max-age=0, must-revalidate" and again["X-Accel-Expires"] == "3"
    assert "Content-Security-Policy" in again  # the stored headers of the whole stack


def test_304_before_any_work(played):
    t, _rnd, _org, _ref = played
    client = Client()
    first, _ = _get(client, f"/t/{t.slug}/crosstable/")
    not_modified, queries = _get(client, f"/t/{t.slug}/crosstable/", if_none_match=first["ETag"])
    assert not_modified.status_code == 304 and queries == 0 and not_modified.content == b""
    assert not_modified["ETag"] == first["ETag"]
    since, queries = _get(client, f"/t/{t.slug}/crosstable/", if_modified_since=first["Last-Modified"])
    assert since.status_code == 304 and queries == 0
    other, _ = _get(client, f"/t/{t.slug}/crosstable/", if_none_match='"something-else"')
    assert other.status_code == 200 and other.content == first.content


def test_language_and_answer_kind_are_part_of_the_key(played):
    t, _rnd, _org, _ref = played
    turkish, _ = _get(Client(), f"/t/{t.slug}/standings/")
    english, _ = _get(Client(), f"/t/{t.slug}/standings/", accept_language="en")
    cookie = Client()
    cookie.cookies["django_language"] = "en"
    english_cookie, queries = _get(cookie, f"/t/{t.slug}/standings/")
    assert "<h1>" in turkish.content.decode() and 'lang="tr"' in turkish.content.decode()
    assert 'lang="en"' in english.content.decode() and "Standings" in english.content.decode()
    assert english_cookie["X-Page-Cache"] == "hit" and queries == 0 and english_cookie.content == english.content
    again_tr, _ = _get(Client(), f"/t/{t.slug}/standings/")
    assert again_tr["X-Page-Cache"] == "hit" and again_tr.content == turkish.content
    api = f"/api/tournaments/{t.slug}/standings/"
    as_json, _ = _get(Client(), api, accept="application/json")
    as_json_again, queries = _get(Client(), api, accept="application/json")
    assert as_json["Content-Type"].startswith("application/json") and queries == 0
    assert as_json_again.json() == as_json.json()
    browsable, _ = _get(Client(), api, accept="text/html")
    assert browsable["Content-Type"].startswith("text/html")


def test_logged_in_organiser_never_gets_the_public_or_a_stale_page(played):
    t, rnd, org, _ref = played
    public_page = Client().get(f"/t/{t.slug}/standings/")  # the public page is stored
    assert f"/t/{t.slug}/tiebreaks/" not in public_page.content.decode()
    organiser = Client()
    organiser.force_login(org)
    page, queries = _get(organiser, f"/t/{t.slug}/standings/")
    assert "X-Page-Cache" not in page and queries > 0
    assert f"/t/{t.slug}/tiebreaks/" in page.content.decode()  # the organiser's variant: the tie-break form
    assert "private" in page["Cache-Control"]
    board1 = rnd.matches.get(board=1)
    name = board1.white.player.full_name
    result_services.match_result_enter(match=board1, sets=BLACK_WINS, user=org, reason="hakem hatası",
                                       expected_version=board1.version)
    assert _points(organiser.get(f"/t/{t.slug}/standings/").content.decode(), name) == "0"
    # the public page follows the correction at once (a closed round: the standings generation moved)
    public, _ = _get(Client(), f"/t/{t.slug}/standings/")
    assert public["X-Page-Cache"] == "miss" and _points(public.content.decode(), name) == "0"


def test_a_token_is_never_answered_from_the_public_entry(played):
    t, _rnd, org, _ref = played
    Client().get(f"/api/tournaments/{t.slug}/standings/")
    token = Token.objects.create(user=org)
    response, queries = _get(Client(), f"/api/tournaments/{t.slug}/standings/", authorization=f"Token {token.key}")
    assert response.status_code == 200 and "X-Page-Cache" not in response and queries > 0


def test_unknown_parameters_and_unpublished_pages_are_not_stored(people):  # noqa: F811
    org, ref, _boss = people
    t, _club = _event(org)
    client = Client()
    hidden, _ = _get(client, f"/t/{t.slug}/standings/")
    assert hidden.status_code == 404 and "X-Page-Cache" not in hidden  # built, never stored
    _play_first_round(t, org, ref)  # closes round 1 and publishes the standings
    shown, _ = _get(client, f"/t/{t.slug}/standings/")
    assert shown.status_code == 200 and shown["X-Page-Cache"] == "miss"
    odd, queries = _get(client, f"/t/{t.slug}/standings/?utm=1")
    assert odd.status_code == 200 and "X-Page-Cache" not in odd and queries > 0
    odd_again, queries = _get(client, f"/t/{t.slug}/standings/?utm=2")
    assert "X-Page-Cache" not in odd_again and queries > 0
    head = client.head(f"/t/{t.slug}/standings/")
    assert head.status_code == 200 and head.content == b"" and int(head["Content-Length"]) == len(shown.content)


def test_open_round_results_leave_the_standings_and_move_the_live_round(played):
    t, _rnd, org, ref = played
    rnd2 = round_services.round_pair(tournament=t, user=org, coin_seed="s2")
    round_services.round_publish(round=rnd2, user=org)
    client = Client()
    client.get(f"/t/{t.slug}/standings/")
    live_before, _ = _get(client, f"/t/{t.slug}/live.json")
    board = rnd2.matches.filter(kind="game").order_by("board").first()
    result_services.match_result_enter(match=board, sets=WHITE_WINS, user=ref)
    standings, queries = _get(client, f"/t/{t.slug}/standings/")
    assert standings["X-Page-Cache"] == "hit" and queries == 0
    live_after, _ = _get(client, f"/t/{t.slug}/live.json")  # LIVE_RECOMPUTE_SECONDS = 0 in the tests
    assert live_after["X-Page-Cache"] == "miss" and live_after["ETag"] != live_before["ETag"]
    assert live_after.json()["done"] == live_before.json()["done"] + 1
    assert "X-Server-Time" in live_after


@pytest.fixture
def in_play(played, monkeypatch):
    """Round 2 published and being played, a clock the page cache reads (``clock[0]``, seconds), and the
    first anonymous answer of ``live.json``: (tournament, round, referee, clock, client, first answer)."""
    t, _rnd, org, ref = played
    rnd2 = round_services.round_pair(tournament=t, user=org, coin_seed="s2")
    round_services.round_publish(round=rnd2, user=org)
    clock = [1_000_000.0]
    monkeypatch.setattr(pagecache.time, "time", lambda: clock[0])
    monkeypatch.setattr(caching.time, "time", lambda: clock[0])
    client = Client()
    first, _ = _get(client, f"/t/{t.slug}/live.json")
    return t, rnd2, ref, clock, client, first


@override_settings(LIVE_RECOMPUTE_SECONDS=30)
def test_the_live_round_is_rebuilt_at_most_once_per_interval(in_play):
    t, rnd2, ref, clock, client, first = in_play
    boards = list(rnd2.matches.filter(kind="game").order_by("board"))
    builds = 0
    for board in boards:  # a result every second
        result_services.match_result_enter(match=board, sets=WHITE_WINS, user=ref)
        clock[0] += 1
        response, queries = _get(client, f"/t/{t.slug}/live.json")
        assert response.status_code == 200 and "X-Server-Time" in response
        if response["X-Page-Cache"] == "miss":
            builds += 1
        else:
            assert response["X-Page-Cache"] == "stale" and queries == 0
    assert builds == 0  # 3 results in 3 s: all within the interval, the previous answer served
    assert client.get(f"/t/{t.slug}/live.json").content == first.content  # the previous answer, as it was
    clock[0] += 30
    fresh, _ = _get(client, f"/t/{t.slug}/live.json")
    assert fresh["X-Page-Cache"] == "miss" and fresh["ETag"] != first["ETag"]
    again, queries = _get(client, f"/t/{t.slug}/live.json")
    assert again["X-Page-Cache"] == "hit" and queries == 0


@override_settings(LIVE_RECOMPUTE_SECONDS=30)
def test_one_rebuild_at_a_time_the_others_get_the_previous_answer(in_play):
    from django.core.cache import cache

    t, rnd2, ref, clock, client, first = in_play
    result_services.match_result_enter(match=rnd2.matches.filter(kind="game").first(), sets=WHITE_WINS, user=ref)
    clock[0] += 31
    key = pagecache.page_key("tr", False, f"/t/{t.slug}/live.json", "")
    assert cache.add(key + ":lock", 1)  # another request is building it
    busy, queries = _get(client, f"/t/{t.slug}/live.json")
    assert busy["X-Page-Cache"] == "stale" and queries == 0 and busy["ETag"] == first["ETag"]
    cache.delete(key + ":lock")
    built, _ = _get(client, f"/t/{t.slug}/live.json")
    assert built["X-Page-Cache"] == "miss" and built["ETag"] != first["ETag"]
    assert cache.get(key + ":lock") is None  # released after the build


def test_a_write_moves_the_generations_now_and_again_on_commit(played):
    t, rnd, org, _ref = played
    scope = caching.page_scope(t.slug)
    names = (caching.GEN_VERSION, caching.GEN_STANDINGS)
    before = pagecache.current_gens(scope, names)
    board1 = rnd.matches.get(board=1)
    result_services.match_result_enter(match=board1, sets=BLACK_WINS, user=org, reason="hakem hatası",
                                       expected_version=board1.version)
    now = pagecache.current_gens(scope, names)
    # a correction of a closed round: both generations moved at once (inside the transaction) ...
    assert now[0] > before[0] and now[1] > before[1]
    # ... and move again when it commits: one callback for the transaction holds both keys
    pending = [f for _s, f, _r in connection.run_on_commit if isinstance(f, pagecache.GenerationBump)]
    assert len(pending) == 1 and {pagecache.gen_key(scope, g) for g in names} <= pending[0].keys
    pending[0]()
    assert pagecache.current_gens(scope, names) == (now[0] + 1, now[1] + 1)


def test_missing_generation_starts_afresh_and_matches_no_old_entry(played):
    from django.core.cache import cache

    t, _rnd, _org, _ref = played
    client = Client()
    client.get(f"/t/{t.slug}/standings/")
    cache.delete(pagecache.gen_key(caching.page_scope(t.slug), caching.GEN_STANDINGS))  # evicted
    response, queries = _get(client, f"/t/{t.slug}/standings/")
    assert response["X-Page-Cache"] == "miss" and queries > 0


@override_settings(PUBLIC_PAGE_CACHE=False)
def test_switched_off_every_request_is_built(played):
    t, _rnd, _org, _ref = played
    client = Client()
    client.get(f"/t/{t.slug}/standings/")
    response, queries = _get(client, f"/t/{t.slug}/standings/")
    assert "X-Page-Cache" not in response and queries > 0


@pytest.mark.django_db(transaction=True)
def test_a_page_built_before_the_commit_is_not_served_after_it():
    """A reader that builds the page between the write's first move and its commit (here: inside the
    writer's transaction, where the new data is not committed yet) stores it under the moved generation;
    the commit moves it again, so the next reader gets a page built after the commit."""
    from django.db import transaction

    from tests.factories import organiser, referee

    org, ref = organiser(username="tx-org"), referee(username="tx-ref")
    t, _club = _event(org)
    rnd = _play_first_round(t, org, ref)
    scope = caching.page_scope(t.slug)
    client = Client()
    client.get(f"/t/{t.slug}/standings/")
    before = pagecache.current_gens(scope, (caching.GEN_STANDINGS,))[0]
    board1 = rnd.matches.get(board=1)
    with transaction.atomic():
        result_services.match_result_enter(match=board1, sets=BLACK_WINS, user=org, reason="hakem hatası",
                                           expected_version=board1.version)
        during = client.get(f"/t/{t.slug}/standings/")
        assert during["X-Page-Cache"] == "miss"
        assert pagecache.current_gens(scope, (caching.GEN_STANDINGS,))[0] == before + 1
    assert pagecache.current_gens(scope, (caching.GEN_STANDINGS,))[0] == before + 2
    after = client.get(f"/t/{t.slug}/standings/")
    assert after["X-Page-Cache"] == "miss"  # rebuilt after the commit, not the page built inside it
    again = client.get(f"/t/{t.slug}/standings/")
    assert again["X-Page-Cache"] == "hit" and again.content == after.content


def test_compressed_once_for_readers_that_accept_gzip(played):
    import gzip

    t, _rnd, _org, _ref = played
    client = Client()
    plain, _ = _get(client, f"/t/{t.slug}/standings/")
    first, _ = _get(Client(), f"/t/{t.slug}/standings/", accept_encoding="gzip, deflate, br")
    assert first["X-Page-Cache"] == "hit" and first["Content-Encoding"] == "gzip"
    assert gzip.decompress(first.content) == plain.content and len(first.content) < len(plain.content) / 3
    assert int(first["Content-Length"]) == len(first.content)
    assert first["ETag"] != plain["ETag"] and "Accept-Encoding" in first["Vary"] and "Accept-Encoding" in plain["Vary"]
    again, queries = _get(Client(), f"/t/{t.slug}/standings/", accept_encoding="gzip", if_none_match=first["ETag"])
    assert again.status_code == 304 and queries == 0 and again["ETag"] == first["ETag"]
    refused, _ = _get(Client(), f"/t/{t.slug}/standings/", accept_encoding="gzip;q=0, identity")
    assert "Content-Encoding" not in refused and refused.content == plain.content
    # the first build answers a gzip reader compressed too
    from django.core.cache import cache

    cache.clear()
    built, _ = _get(Client(), f"/t/{t.slug}/crosstable/", accept_encoding="gzip")
    assert built["X-Page-Cache"] == "miss" and built["Content-Encoding"] == "gzip"
    assert b"<html" in gzip.decompress(built.content)


def test_made_up_parameter_values_never_fill_the_cache(played):
    """?category=<anything>, ?lang=<anything>, ?tv=<anything>: answered, never stored (here or by nginx)."""
    from django.core.cache import cache

    t, _rnd, _org, _ref = played
    client = Client()
    for n in range(3):
        made_up, _ = _get(client, f"/t/{t.slug}/standings/?category=XX{n}")
        assert made_up.status_code == 200 and made_up["Cache-Control"] == "no-store"
        assert 'data-testid="unknown-category"' in made_up.content.decode()
        assert pagecache.page_key("tr", False, f"/t/{t.slug}/standings/", f"category=XX{n}") not in cache
        odd_lang, queries = _get(client, f"/api/tournaments/{t.slug}/standings/?lang=x{n}")
        assert odd_lang.status_code == 200 and "X-Page-Cache" not in odd_lang and queries > 0
        odd_tv, queries = _get(client, f"/t/{t.slug}/live/?tv=x{n}")
        assert odd_tv.status_code == 200 and "X-Page-Cache" not in odd_tv and queries > 0
    cross, _ = _get(client, f"/t/{t.slug}/crosstable/?category=nope")
    assert cross["Cache-Control"] == "no-store"
    tv, _ = _get(client, f"/t/{t.slug}/live/?tv=1")
    again, queries = _get(client, f"/t/{t.slug}/live/?tv=1")
    assert tv["X-Page-Cache"] == "miss" and again["X-Page-Cache"] == "hit" and queries == 0
    english, _ = _get(client, f"/api/tournaments/{t.slug}/standings/?lang=en")
    assert english["X-Page-Cache"] == "miss"
