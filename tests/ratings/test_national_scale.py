"""National scale (issue 22): the re-rating's bulk writes (COPY on PostgreSQL, batched ``bulk_create``
elsewhere) store exactly the rows the per-event writes stored; the rating list and the player list
sort and paginate in the database in the same Turkish order as ``player_sort_key``; the player search
gives the same players as the joined condition it replaced; pages load in a fixed number of queries
whatever the number of players. Runs on SQLite and, with ``DATABASE_URL``, on PostgreSQL."""
from __future__ import annotations

import datetime as dt
import random
from types import SimpleNamespace

import pytest
from django.db import connection
from django.db.models import Q
from django.urls import reverse

from federation.collation import TURKISH_ALPHABET, player_sort_key, player_sort_text
from federation.models import Player
from federation.selectors import player_search_q, search_words
from ratings import inputs, selectors, services
from ratings.models import InitialRating, RatingChange, RatingEvent, RatingGameLine
from tests.factories import ClubFactory, PlayerFactory
from tests.ratings.test_product import _play_round, _tournament
from tournaments import services as ts

# --------------------------------------------------------------------------------------------
# the stored sort key (no database)
# --------------------------------------------------------------------------------------------


def test_sort_text_orders_exactly_as_player_sort_key():
    rng = random.Random(22)
    chars = TURKISH_ALPHABET + TURKISH_ALPHABET.upper() + "İIâÂîû -'.09éß\u4e00\U000F0001"
    people = []
    for _ in range(3000):
        def word():
            return "".join(rng.choice(chars) for _ in range(rng.randint(0, 4)))
        people.append(SimpleNamespace(last_name=word(), first_name=word(),
                                      federation_id=rng.choice(["", "T-1", "T-10", "T-2", "TMF-000123"])))
    key = {id(p): player_sort_text(p.last_name, p.first_name, p.federation_id) for p in people}
    assert [player_sort_key(p) for p in sorted(people, key=lambda p: key[id(p)])] == sorted(map(player_sort_key, people))
    for a, b in zip(people, people[1:]):
        assert (key[id(a)] < key[id(b)]) == (player_sort_key(a) < player_sort_key(b))
        assert (key[id(a)] == key[id(b)]) == (player_sort_key(a) == player_sort_key(b))


def test_sort_text_of_turkish_letters():
    names = ["Çelik", "Cengiz", "Ceylan", "İnce", "Işık", "Ilgaz", "Ağaoğlu", "Ağa", "Özgür", "Oral", "Şen", "Sönmez",
             "Üstün", "Uzun", "Âli", "Ali", "Zengin"]
    got = sorted(names, key=lambda n: player_sort_text(n, "", ""))
    assert got == ["Ağa", "Ağaoğlu", "Ali", "Âli", "Cengiz", "Ceylan", "Çelik", "Ilgaz", "Işık", "İnce", "Oral", "Özgür",
                   "Sönmez", "Şen", "Uzun", "Üstün", "Zengin"]
    assert player_sort_text("Işık", "Can", "TR1").isascii()


# --------------------------------------------------------------------------------------------
# the rating list and the player list: database order = today's Python order
# --------------------------------------------------------------------------------------------

LAST = ["Çelik", "Cengiz", "Ceylan", "Işık", "Ilgaz", "İnce", "Ağaoğlu", "Ağa", "Özgür", "Oral", "Şen", "Sönmez",
        "Üstün", "Uzun", "Âlim", "Alim", "ÇAKIR", "çakır", "IŞIK", "İNCE"]
FIRST = ["Ali", "Ayşe", "Can", "Cem", "Çağla", "Deniz", "Işıl", "İrem", "Ömer", "Şule", "Ümit", "Ugur"]


@pytest.fixture
def crowd():
    """130 players with Turkish names, many equal ratings, some unrated, inactive or merged, two clubs."""
    rng = random.Random(7)
    clubs = [ClubFactory(name="İzmir Mangala Kulübü", short_name="İZM", city="İzmir"),
             ClubFactory(name="Çankaya Zeka Oyunları", short_name="ÇZO", city="Ankara")]
    players = []
    for i in range(130):
        players.append(PlayerFactory(
            federation_id=f"TR-{rng.randint(1, 99999):05d}-{i}", last_name=rng.choice(LAST), first_name=rng.choice(FIRST),
            rating=rng.choice([0, 1400, 1500, 1500, 1550, 1600, 1720]), club=rng.choice(clubs + [None]),
            city=rng.choice(["İzmir", "Ankara", "", "Istanbul"]), active=rng.random() > 0.05,
        ))
    Player.objects.filter(pk=players[3].pk).update(merged_into=players[4])
    return players


def _reference_rows(order):
    """Today's rating list rows computed as before issue 22: every listed player sorted in Python."""
    listed = [p for p in Player.objects.all() if p.rating > 0 and p.active and p.merged_into_id is None]
    listed.sort(key=lambda p: (-p.rating, player_sort_key(p)))
    rows, rank, prev = [], 0, None
    for i, p in enumerate(listed, start=1):
        if p.rating != prev:
            rank, prev = i, p.rating
        rows.append((rank, p.pk, p.rating, player_sort_key(p)))
    if order == "name":
        rows.sort(key=lambda r: r[3])
    return [r[:3] for r in rows]


@pytest.mark.django_db
@pytest.mark.parametrize("order", ["rating", "name"])
def test_rating_list_order_and_ranks_equal_the_python_sort(crowd, order):
    want = _reference_rows(order)
    lines = selectors.rating_list(order=order)
    assert len(lines) == len(want) > 60
    got = [(ln.rank, ln.player.pk, ln.rating) for ln in lines[0:50]] + [(ln.rank, ln.player.pk, ln.rating)
                                                                        for ln in lines[50:len(lines)]]
    assert got == want
    assert (lines[7].rank, lines[7].player.pk) == want[7][:2]
    assert [ln.player.pk for ln in lines[-3:]] == [r[1] for r in want[-3:]]
    assert [ln.player.pk for ln in lines[1:9:3]] == [r[1] for r in want[1:9:3]]
    assert lines[len(lines):] == []
    with pytest.raises(IndexError):
        lines[len(lines)]


@pytest.mark.django_db
def test_rating_list_page_by_name_in_turkish_order(client, crowd):
    resp = client.get(reverse("rating-list"), {"order": "name", "page": 2})
    names = [(ln.player.last_name, ln.player.first_name) for ln in resp.context["lines"]]
    want = [(p.last_name, p.first_name) for p in sorted(
        (p for p in Player.objects.all() if p.rating > 0 and p.active and p.merged_into_id is None), key=player_sort_key,
    )][100:200]
    assert names == want and names


@pytest.mark.django_db
def test_player_list_pages_in_turkish_order(client, crowd):
    everyone = sorted(Player.objects.filter(active=True), key=player_sort_key)
    got = []
    for page in (1, 2, 3):
        got += [p.pk for p in client.get(reverse("player-list"), {"page": page}).context["page"].object_list]
    assert got == [p.pk for p in everyone]
    izmir = client.get(reverse("player-list"), {"q": "izmir"}).context["page"].object_list
    found = set(Player.objects.filter(player_search_q("izmir")))
    assert [p.pk for p in izmir] == [p.pk for p in everyone if p in found][:50] and len(found) > 20


def test_sort_key_follows_the_name(db):
    p = PlayerFactory(last_name="Işık", first_name="Can", federation_id="TR-9")
    assert p.sort_key == player_sort_text("Işık", "Can", "TR-9")
    p.last_name = "İnce"
    p.save(update_fields=["last_name"])
    p.refresh_from_db()
    assert p.sort_key == player_sort_text("İnce", "Can", "TR-9")


# --------------------------------------------------------------------------------------------
# the player search: the same players as the joined condition it replaced
# --------------------------------------------------------------------------------------------


def _joined_q(text):
    q = Q()
    for word, key in search_words(text):
        q &= (Q(federation_id__iexact=word) | Q(search_key__contains=key) | Q(city_key__contains=key)
              | Q(club__search_key__contains=key) | Q(club__short_key__contains=key)
              | (Q(city="") & Q(club__city_key__contains=key)))
    return q


@pytest.mark.django_db
@pytest.mark.parametrize("text", ["izmir", "İZMİR", "cankaya", "czo", "ankara", "ışık", "IŞIK can", "ce", "ağa ali",
                                  "istanbul", "tr-00", "nobody", "ız", "çakır izm", "%", "_"])
def test_player_search_equals_the_joined_condition(crowd, text):
    fid = crowd[5].federation_id
    for t in (text, fid, fid.lower()):
        want = set(Player.objects.filter(_joined_q(t)).values_list("pk", flat=True))
        assert set(Player.objects.filter(player_search_q(t)).values_list("pk", flat=True)) == want
    assert set(Player.objects.filter(player_search_q(fid)).values_list("pk", flat=True)) == {crowd[5].pk}


# --------------------------------------------------------------------------------------------
# query counts: a page costs the same at 130 players as at 10
# --------------------------------------------------------------------------------------------


@pytest.mark.django_db
def test_rating_list_and_search_pages_load_in_a_fixed_number_of_queries(client, crowd, django_assert_max_num_queries,
                                                                         settings):
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.dummy.DummyCache"}}
    # no cache: the versions, the histogram, the page's rows, its rating changes, its players, the clubs,
    # the cities, the events, the parameters in force, the official list
    with django_assert_max_num_queries(12):
        assert client.get(reverse("rating-list"), {"page": 2}).status_code == 200
    with django_assert_max_num_queries(13):  # + the clubs the search words match
        assert client.get(reverse("rating-list"), {"q": "ce", "order": "name"}).status_code == 200
    with django_assert_max_num_queries(6):
        resp = client.get("/api/ratings/", {"limit": 50, "offset": 10})
    assert resp.status_code == 200 and len(resp.json()["results"]) == 50
    with django_assert_max_num_queries(5):  # the clubs the words match, the count, the page (with clubs), the clubs list
        assert client.get(reverse("player-list"), {"q": "izmir", "page": 2}).status_code == 200
    with django_assert_max_num_queries(4):
        assert client.get("/api/players/", {"search": "ce"}).status_code == 200


# --------------------------------------------------------------------------------------------
# the re-rating: bulk writes = the per-event writes of before, one transaction
# --------------------------------------------------------------------------------------------

RESULTS = [[(30, 18), (20, 28), (36, 12)], [(26, 22), (25, 23)], [(24, 24), (31, 17), (22, 26)],
           [(10, 38), (40, 8), (25, 23)], [(18, 30), (28, 20), (12, 36)], "white", [(33, 15), (29, 19)]]


@pytest.fixture
def federation():
    """Nine players (three unrated), three published events of two rounds (a bye, a forfeit)."""
    club = ClubFactory(name="Ankara Mangala", short_name="AMK", city="Ankara")
    players = [PlayerFactory(rating=r, last_name=n, club=club)
               for r, n in zip([1900, 1800, 1700, 1600, 1550, 0, 0, 1450, 0],
                               ["Çelik", "Cengiz", "Işık", "İnce", "Öz", "Şen", "Uz", "Ağa", "Er"])]
    for k, (day, field) in enumerate([(dt.date(2026, 1, 10), players[:7]), (dt.date(2026, 2, 10), players[2:]),
                                      (dt.date(2026, 3, 10), players)]):
        t, org = _tournament(f"Etkinlik {k}", field, rounds=2, end=day)
        for r in range(2):
            _play_round(t, org, {b: RESULTS[(b + r + k) % len(RESULTS)] for b in range(1, 6)}, seed=f"s{k}{r}")
        ts.standings_publish(tournament=t, user=org)
    return players


def _rows():
    """Every rating row with its values (ids left out; rows in id order, so the order of writing)."""
    events = list(RatingEvent.objects.order_by("id").values_list(
        "tournament_id", "period", "system", "rated_sets", "players", "forfeits", "byes", "unrated_matches",
        "matches_without_sets"))
    changes = list(RatingChange.objects.order_by("id").values_list(
        "event__tournament_id", "player_id", "period", "rating_before", "rating_after", "status_before", "status_after",
        "sets"))
    lines = list(RatingGameLine.objects.order_by("id").values_list(
        "change__event__tournament_id", "change__player_id", "set_result_id", "opponent_id", "opponent_rating", "score",
        "result_score", "margin", "expected", "delta"))
    return events, changes, lines, sorted(Player.objects.values_list("pk", "rating")), \
        sorted(InitialRating.objects.values_list("player_id", "rating"))


def _write_event_before_issue_22(inp, run, now):
    """The writes of one event as ``ratings.services._write_event`` did them before issue 22."""
    from ratings.engine import FEDERATION_SYSTEM

    ev = inp.event
    players = inputs.players_in([inp])
    rev = RatingEvent.objects.create(
        tournament=inp.tournament, period=ev.date, rated_at=now, system=FEDERATION_SYSTEM,
        rated_sets=len(ev.sets), players=len(players), forfeits=inp.forfeits, byes=inp.byes,
        unrated_matches=inp.unrated_matches, matches_without_sets=inp.matches_without_sets,
    )
    entries = {}
    for pid in players:
        entry = next((h for h in run.history.get(pid, ()) if h.event_id == ev.id), None)
        if entry is not None:
            entries[pid] = entry
    changes = RatingChange.objects.bulk_create([
        RatingChange(event=rev, player_id=pid, period=ev.date, rating_before=h.rating_before,
                     rating_after=h.rating_after, status_before=h.status_before, status_after=h.status_after,
                     sets=len(h.lines))
        for pid, h in sorted(entries.items())
    ])
    change_of = {c.player_id: c for c in changes}
    cursor = {pid: 0 for pid in entries}
    lines = []
    for s, set_id in zip(ev.sets, inp.set_ids):
        for pid, opp in ((s.player_a, s.player_b), (s.player_b, s.player_a)):
            h = entries[pid]
            ln = h.lines[cursor[pid]]
            cursor[pid] += 1
            set_score = s.score if pid == s.player_a else 1.0 - s.score
            lines.append(RatingGameLine(
                change=change_of[pid], set_result_id=set_id, opponent_id=opp, opponent_rating=ln.opponent_rating,
                score=services._SCORE[set_score], result_score=ln.score, margin=ln.margin, expected=ln.expected,
                delta=ln.change))
    RatingGameLine.objects.bulk_create(lines)
    return rev


def _before_issue_22(todo, run, now, progress=None, **_kw):
    events = []
    for n, inp in enumerate(todo, start=1):
        events.append(_write_event_before_issue_22(inp, run, now))
        if progress is not None:
            progress(n, len(todo), events[-1])
    return events


@pytest.mark.django_db
def test_bulk_rerating_writes_the_rows_of_the_per_event_writes(federation, monkeypatch):
    services.ratings_recompute_all()
    bulk = _rows()
    assert len(bulk[0]) == 3 and len(bulk[2]) > 60 and any(r[3] != r[4] for r in bulk[1])
    services.ratings_recompute_all()  # replacing every row
    assert _rows() == bulk
    with monkeypatch.context() as m:
        m.setattr(services, "_write_events", _before_issue_22)
        seen = []
        services.ratings_recompute_all(progress=lambda n, total, ev: seen.append((n, total, ev.tournament.name)))
        before = _rows()
    assert seen == [(1, 3, "Etkinlik 0"), (2, 3, "Etkinlik 1"), (3, 3, "Etkinlik 2")]
    assert before == bulk  # same rows, same values (floats exactly), same order
    # a partial re-rating from the second event leaves the same rows too
    from tournaments.models import Tournament

    services.ratings_recompute_from(tournament=Tournament.objects.get(name="Etkinlik 1"))
    assert _rows() == bulk


@pytest.mark.django_db
def test_copy_and_orm_writes_give_the_same_rows(federation, monkeypatch):
    if connection.vendor != "postgresql":
        pytest.skip("COPY is PostgreSQL's")
    monkeypatch.setattr(services, "_bulk_method", lambda: "orm")
    services.ratings_recompute_all()
    orm = _rows()
    monkeypatch.setattr(services, "_bulk_method", lambda: "copy")
    InitialRating.objects.all().delete()
    Player.objects.filter(pk__in=[p.pk for p in federation]).update(rating=0)
    for p in federation:
        Player.objects.filter(pk=p.pk).update(rating=p.rating)
    services.ratings_recompute_all()
    assert _rows() == orm


@pytest.mark.django_db
def test_a_failed_rerating_keeps_the_previous_ratings(federation, monkeypatch):
    """One transaction (here a savepoint inside the test's): the rows written before the failure go."""
    services.ratings_recompute_all()

    def fail(*args, **kwargs):
        raise RuntimeError("disk full")

    Player.objects.filter(pk=federation[0].pk).update(rating=1234)  # as if the run would change it
    kept = _rows()
    monkeypatch.setattr(services, "_update_players", fail)  # after every event's rows are written
    with pytest.raises(RuntimeError):
        services.ratings_recompute_all()
    assert _rows() == kept
    assert Player.objects.get(pk=federation[0].pk).rating == 1234
