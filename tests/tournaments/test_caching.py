"""Cached outputs follow every change (tournaments/caching.py): each write that changes what a
tournament shows bumps its version, and a page read after the write shows the change."""
from __future__ import annotations

import pytest
from django.db import connection, transaction
from django.test import Client, override_settings
from django.test.utils import CaptureQueriesContext

from federation import pagecache
from federation import services as member_services
from tests.factories import ClubFactory, PlayerFactory, UserFactory, organiser, referee
from tournaments import caching
from tournaments import services
from tournaments.entries import services as entry_services
from tournaments.results import services as result_services
from tournaments.rounds import services as round_services
from tournaments.models import Entry, Tournament
from tournaments.selectors import tournament_standings
from tournaments.results.services import SetInput

pytestmark = pytest.mark.django_db

WHITE_WINS = [SetInput(30, 18), SetInput(26, 22)]
BLACK_WINS = [SetInput(18, 30), SetInput(22, 26)]


@pytest.fixture
def people():
    return organiser(username="cache-org"), referee(username="cache-ref"), UserFactory(username="cache-staff", is_staff=True)


def _event(org, n=6, rounds=3):
    club = ClubFactory(name="Kadıköy Mangala Kulübü")
    t = services.tournament_create(name="Önbellek Açık", rounds_total=rounds, created_by=org, start_date=None)
    for i in range(n):
        entry_services.entry_add(
            tournament=t,
            player=PlayerFactory(rating=1800 - 50 * i, federation_id=f"CA-{i + 1}", club=club if i == 0 else None),
        )
    return t, club


def _version(t: Tournament) -> int:
    return Tournament.objects.values_list("version", flat=True).get(pk=t.pk)


def test_every_write_that_changes_an_output_bumps_the_version(people):
    org, ref, boss = people
    t, club = _event(org)
    e1, e2, e3, e6 = (Entry.objects.get(tournament=t, start_no=n) for n in (1, 2, 3, 6))
    steps = [
        ("bye requested", lambda: entry_services.entry_request_bye(entry=e6, round_number=2, kind="half", user=org)),
        ("bye withdrawn", lambda: entry_services.entry_bye_withdraw(entry=e6, round_number=2, user=org, reason="geldi")),
        ("forbidden pair", lambda: round_services.forbidden_pair_add(tournament=t, first=e1, second=e2, user=org,
                                                               reason="kardeş")),
        ("settings", lambda: services.tournament_update(tournament=t, user=org, name="Önbellek Açık 2026")),
        ("round paired", lambda: round_services.round_pair(tournament=t, user=org, coin_seed="s")),
        ("pairing swapped", lambda: round_services.round_swap_pairing(round=t.rounds.get(number=1), board_a=1, board_b=2,
                                                                swap="black", reason="masa", user=org)),
        ("round published", lambda: round_services.round_publish(round=t.rounds.get(number=1), user=org)),
        ("result entered", lambda: result_services.match_result_enter(match=t.rounds.get(number=1).matches.get(board=1),
                                                               sets=WHITE_WINS, user=ref)),
        ("round closed", lambda: _close_round(t, ref, org)),
        ("standings published", lambda: services.standings_publish(tournament=t, user=org)),
        ("player renamed", lambda: member_services.player_update(player=e1.player, user=boss, last_name="Yeniad",
                                                                 reason="nüfus kaydı")),
        ("club renamed", lambda: member_services.club_update(club=club, user=boss, name="Kadıköy Mangala SK",
                                                             reason="yeni ad")),
        ("withdrawal", lambda: entry_services.entry_withdraw(entry=e3, user=org, reason="hasta")),
        ("reinstated", lambda: entry_services.entry_reinstate(entry=e3, user=org, reason="iyileşti")),
    ]
    scope = caching.page_scope(t.slug)
    for label, step in steps:
        before = _version(t)
        gens = pagecache.current_gens(scope, (caching.GEN_VERSION,))
        step()
        assert _version(t) > before, f"{label} did not bump the version ({before})"
        # and the finished public pages (federation/pagecache.py) move on with it
        assert pagecache.current_gens(scope, (caching.GEN_VERSION,)) != gens, f"{label} left the public pages"


def _close_round(t, ref, org):
    rnd = t.rounds.get(number=1)
    for m in rnd.matches.filter(kind="game", white_points__isnull=True):
        result_services.match_result_enter(match=m, sets=WHITE_WINS, user=ref)
    round_services.round_close(round=rnd, user=org)


def _play_first_round(t, org, ref):
    rnd = round_services.round_pair(tournament=t, user=org, coin_seed="s")
    round_services.round_publish(round=rnd, user=org)
    for m in rnd.matches.filter(kind="game"):
        result_services.match_result_enter(match=m, sets=WHITE_WINS, user=ref)
    round_services.round_close(round=rnd, user=org)
    services.standings_publish(tournament=t, user=org)
    return rnd


def _points(html: str, name: str) -> str:
    row = next(r for r in html.split("<tr>") if name in r)
    return row.split("<strong>")[1].split("</strong>")[0]


def test_standings_page_is_served_from_the_cache_and_follows_a_correction(people):
    org, ref, _boss = people
    t, _club = _event(org)
    rnd = _play_first_round(t, org, ref)
    board1 = rnd.matches.get(board=1)
    white_name = board1.white.player.full_name
    client = Client()
    first = client.get(f"/t/{t.slug}/standings/").content.decode()
    assert _points(first, white_name) == "1"
    with CaptureQueriesContext(connection) as ctx:
        again = client.get(f"/t/{t.slug}/standings/").content.decode()
    table = first.split('data-testid="standings"')[1].split("</table>")[0]
    # served as finished bytes (federation/pagecache.py): not even the tournament is read
    assert table in again and len(ctx.captured_queries) == 0
    result_services.match_result_enter(match=board1, sets=BLACK_WINS, user=org, reason="hakem hatası",
                                       expected_version=board1.version)
    after = client.get(f"/t/{t.slug}/standings/").content.decode()
    assert _points(after, white_name) == "0"


def test_a_rename_reaches_the_cached_crosstable_and_live_page(people):
    org, ref, boss = people
    t, _club = _event(org)
    _play_first_round(t, org, ref)
    client = Client()
    player = Entry.objects.get(tournament=t, start_no=1).player
    old = player.full_name
    for path in (f"/t/{t.slug}/crosstable/", f"/t/{t.slug}/live.json"):
        assert old in client.get(path).content.decode()
    member_services.player_update(player=player, user=boss, last_name="Değişik", reason="evlilik")
    player.refresh_from_db()
    for path in (f"/t/{t.slug}/crosstable/", f"/t/{t.slug}/live.json"):
        body = client.get(path).content.decode()
        assert player.full_name in body and old not in body, path


def test_a_rolled_back_write_does_not_name_a_cached_value(people):
    """A service that bumped the version in memory and then failed: the cache key uses the committed
    version, so the table cached now is not taken for the next real version's."""
    org, ref, _boss = people
    t, _club = _event(org)
    _play_first_round(t, org, ref)
    committed = _version(t)
    with pytest.raises(RuntimeError), transaction.atomic():
        services.tournament_touch(t)
        assert t.version == committed + 1
        raise RuntimeError("a failure after the bump")
    assert caching.current_version(t) == committed and t.version == committed
    built = []
    caching.tournament_cached("probe", tournament=t, build=lambda: built.append(1) or "v")
    services.tournament_touch(Tournament.objects.get(pk=t.pk))  # the real next version
    caching.tournament_cached("probe", tournament=Tournament.objects.get(pk=t.pk), build=lambda: built.append(2) or "w")
    assert built == [1, 2]


def test_a_stale_instance_never_writes_the_version_back(people):
    org, _ref, _boss = people
    t, _club = _event(org)
    stale = Tournament.objects.get(pk=t.pk)
    services.tournament_touch(Tournament.objects.get(pk=t.pk))
    services.tournament_touch(Tournament.objects.get(pk=t.pk))
    now = _version(t)
    stale.name = "Bayat Kopya"
    stale.save()
    assert _version(t) == now and Tournament.objects.get(pk=t.pk).name == "Bayat Kopya"


def test_the_api_standings_come_from_the_cache_and_equal_a_fresh_computation(people):
    org, ref, _boss = people
    t, _club = _event(org)
    _play_first_round(t, org, ref)
    client = Client()
    first = client.get(f"/api/tournaments/{t.slug}/standings/").json()
    with CaptureQueriesContext(connection) as ctx:
        second = client.get(f"/api/tournaments/{t.slug}/standings/").json()
    assert second == first and not [q for q in ctx.captured_queries if "tournaments_match" in q["sql"]]
    fresh = tournament_standings(tournament=Tournament.objects.get(pk=t.pk), public_only=True, lang="tr")
    assert [(r["start_no"], r["points"]) for r in first["rows"]] == [(ln.start_no, ln.points) for ln in fresh.lines]


@override_settings(CACHES={"default": {
    "BACKEND": "federation.cache.ResilientRedisCache", "LOCATION": "redis://127.0.0.1:9/0",  # nothing listens
    "OPTIONS": {"socket_connect_timeout": 0.2, "socket_timeout": 0.2},
}})
def test_pages_work_while_the_cache_is_down(completed_tournament):
    slug = completed_tournament.slug
    for path in (f"/t/{slug}/standings/", f"/t/{slug}/crosstable/", f"/t/{slug}/live.json",
                 f"/api/tournaments/{slug}/standings/"):
        assert Client().get(path).status_code == 200, path


def test_results_of_an_open_round_keep_the_public_standings_cached(people):
    """While round 2 is played, the public standings (after round 1) stay cached: entering a result of
    the open round bumps ``version`` (live page, organiser view) but not ``standings_version``; a
    correction in the closed round 1 bumps both, and the public page shows it."""
    org, ref, _boss = people
    t, _club = _event(org)
    rnd1 = _play_first_round(t, org, ref)
    rnd2 = round_services.round_pair(tournament=t, user=org)
    round_services.round_publish(round=rnd2, user=org)
    client = Client()
    client.get(f"/t/{t.slug}/standings/")
    before = Tournament.objects.values_list("version", "standings_version").get(pk=t.pk)
    result_services.match_result_enter(match=rnd2.matches.filter(kind="game").first(), sets=WHITE_WINS, user=ref)
    after = Tournament.objects.values_list("version", "standings_version").get(pk=t.pk)
    assert after == (before[0] + 1, before[1])
    with CaptureQueriesContext(connection) as ctx:
        page = client.get(f"/t/{t.slug}/standings/").content.decode()
    assert len(ctx.captured_queries) == 0  # still the finished page: a result of an open round leaves it
    board1 = rnd1.matches.get(board=1)
    name = board1.white.player.full_name
    assert _points(page, name) == "1"
    result_services.match_result_enter(match=board1, sets=BLACK_WINS, user=org, reason="yanlış masa",
                                       expected_version=board1.version)
    assert Tournament.objects.values_list("standings_version", flat=True).get(pk=t.pk) == before[1] + 1
    assert _points(client.get(f"/t/{t.slug}/standings/").content.decode(), name) == "0"
