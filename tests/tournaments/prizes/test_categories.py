"""Category rankings and prize lists (issue 14): the pure cores (membership, ranks within a category, prize
allocation — hand-computed tables and properties), the services and their refusals, the history, the
standings / crosstable / API filtered by category, the prize list page and PDF behind the publish gate,
and the organiser's settings page."""
from __future__ import annotations

import datetime as dt
import re
import shutil
import subprocess
from decimal import Decimal

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import translation
from hypothesis import given, settings
from hypothesis import strategies as st
from rest_framework.test import APIClient

from federation.errors import NotFound, PermissionDenied, ValidationFailed
from tests.factories import ClubFactory, PlayerFactory, TournamentFactory, UserFactory, organiser
from tournaments import selectors
from tournaments import services
from tournaments.entries import services as entry_services
from tournaments.results import services as result_services
from tournaments.rounds import services as round_services
from tournaments.prizes import selectors as category_selectors
from tournaments.prizes import services as category_services
from tournaments.history import selectors as history
from tournaments.models import Category, Entry, Prize, Tournament
from tournaments.results.services import SetInput
from tournaments.standings.categories import (
    CategoryPlace,
    CategoryRule,
    PlayerFacts,
    age_year,
    birth_year_bounds,
    is_member,
    members,
    rank_in_category,
)
from tournaments.standings.prizes import Award, PrizeSpec, Ranked, allocation_order, distribute

D = Decimal


def allocate(prizes, *, ranking, eligible):
    """The awards of :func:`distribute` for players all separated by the tie-breaks (``ranking``: ids in
    standings order, each its own rank)."""
    return distribute(prizes, ranking=[Ranked(id=pid, rank=i + 1) for i, pid in enumerate(ranking)],
                      eligible=eligible).awards


# ============================================================================================
# Pure core: membership
# ============================================================================================


def facts(pid=1, **kw) -> PlayerFacts:
    return PlayerFacts(id=pid, **kw)


def test_u12_is_born_in_or_after_the_year_minus_12():
    u12 = CategoryRule(code="U12", kind="age", max_age=12)
    assert birth_year_bounds(u12, 2026) == (2014, None)
    assert is_member(facts(birth_year=2014), u12, year=2026)  # 12 during 2026, 11 on 1 January
    assert is_member(facts(birth_year=2020), u12, year=2026)
    assert not is_member(facts(birth_year=2013), u12, year=2026)  # 13 during 2026
    assert not is_member(facts(birth_year=None), u12, year=2026)  # unknown: in no age category
    assert is_member(facts(birth_year=2013), u12, year=2025)  # another year, another table


def test_min_age_and_an_age_band():
    seniors = CategoryRule(code="50+", kind="age", min_age=50)
    assert birth_year_bounds(seniors, 2026) == (None, 1976)
    assert is_member(facts(birth_year=1976), seniors, year=2026)
    assert not is_member(facts(birth_year=1977), seniors, year=2026)
    band = CategoryRule(code="U14-12", kind="age", max_age=14, min_age=13)  # 13 and 14 only
    assert [y for y in range(2010, 2016) if is_member(facts(birth_year=y), band, year=2026)] == [2012, 2013]


def test_sex_rating_club_and_city_rules():
    girls, boys = CategoryRule(code="KIZ", kind="girls"), CategoryRule(code="ERKEK", kind="boys")
    assert is_member(facts(sex="f"), girls, year=2026) and not is_member(facts(sex="m"), girls, year=2026)
    assert not is_member(facts(sex=""), girls, year=2026) and not is_member(facts(sex=""), boys, year=2026)
    unrated = CategoryRule(code="PUANSIZ", kind="unrated")
    assert is_member(facts(rating=0), unrated, year=2026) and not is_member(facts(rating=1001), unrated, year=2026)
    band = CategoryRule(code="1200-1499", kind="rating", rating_min=1200, rating_max=1499)
    assert [r for r in (0, 1199, 1200, 1499, 1500) if is_member(facts(rating=r), band, year=2026)] == [1200, 1499]
    up_to = CategoryRule(code="U1400", kind="rating", rating_max=1399)
    assert not is_member(facts(rating=0), up_to, year=2026)  # unrated: not in a band unless it says so (issue 25)
    club = CategoryRule(code="AMK", kind="club", club_id=7)
    assert is_member(facts(club_id=7), club, year=2026) and not is_member(facts(club_id=None), club, year=2026)
    city = CategoryRule(code="IZMIR", kind="city", city="izmir")
    assert is_member(facts(city="izmir"), city, year=2026) and not is_member(facts(city=""), city, year=2026)
    with pytest.raises(ValueError, match="unknown category kind"):
        is_member(facts(), CategoryRule(code="X", kind="team"), year=2026)


def test_members_and_the_year_ages_are_counted_in():
    players = [facts(1, birth_year=2015), facts(2, birth_year=2010), facts(3, birth_year=2014)]
    assert members(players, CategoryRule(code="U12", kind="age", max_age=12), year=2026) == frozenset({1, 3})
    assert age_year(start_year=2026, event_year=2025, current_year=2030) == 2025
    assert age_year(start_year=None, event_year=2025, current_year=2030) == 2025
    assert age_year(start_year=None, event_year=None, current_year=2030) == 2030


def test_ranks_within_a_category_keep_the_overall_order_and_shared_places():
    # overall: A 1, B 2, C 2 (shared), D 4, E 5, F 5 (shared), G 7
    ranking = [(1, 1), (2, 2), (3, 2), (4, 4), (5, 5), (6, 5), (7, 7)]
    assert rank_in_category(ranking, {2, 5, 6, 7}) == (
        CategoryPlace(id=2, rank=1, shared=False, overall_rank=2),  # C, its overall tie, is not a member
        CategoryPlace(id=5, rank=2, shared=True, overall_rank=5),
        CategoryPlace(id=6, rank=2, shared=True, overall_rank=5),
        CategoryPlace(id=7, rank=4, shared=False, overall_rank=7),
    )
    assert rank_in_category(ranking, set()) == ()


# ============================================================================================
# Pure core: prize allocation
# ============================================================================================

#: Ten players in final standings order (id = overall place): who is U12 and who is a girl.
U12 = frozenset({2, 4, 6, 8})
GIRLS = frozenset({3, 4, 7, 10})
PRIZES = [
    PrizeSpec(id=1, place=1, value=D("1000")), PrizeSpec(id=2, place=2, value=D("700")),
    PrizeSpec(id=3, place=3, value=D("500")),
    PrizeSpec(id=4, place=1, value=D("300"), category="U12", order=1),
    PrizeSpec(id=5, place=2, value=D("200"), category="U12", order=1),
    PrizeSpec(id=6, place=1, value=D("300"), category="KIZ", order=2),
]


def test_the_hand_computed_prize_table():
    """Overall 1000/700/500, U12 300/200, Girls 300. Handed out: overall 1st → 1, overall 2nd → 2 (the
    best U12 player: 700 > 300), overall 3rd → 3 (the best girl); then U12 1st (300, listed before Girls)
    → 4, the next U12 player (a girl too: she takes the first of the two equal prizes); Girls 1st → 7
    (3 and 4 already have a prize); U12 2nd → 6."""
    awards = allocate(PRIZES, ranking=list(range(1, 11)), eligible={"U12": U12, "KIZ": GIRLS})
    assert awards == (Award(1, 1), Award(2, 2), Award(3, 3), Award(4, 4), Award(6, 7), Award(5, 6))
    # Girls listed before U12: the girl in U12 takes the Girls prize and U12 moves down its list
    swapped = [p if p.category != "KIZ" else PrizeSpec(id=6, place=1, value=D("300"), category="KIZ", order=0)
               for p in PRIZES]
    by_prize = {a.prize_id: a.winner for a in allocate(swapped, ranking=list(range(1, 11)),
                                                       eligible={"U12": U12, "KIZ": GIRLS})}
    assert by_prize == {1: 1, 2: 2, 3: 3, 6: 4, 4: 6, 5: 8}


def test_a_prize_with_nobody_left_stays_unawarded():
    prizes = [PrizeSpec(id=1, place=1, value=D("100")), PrizeSpec(id=2, place=1, value=D("50"), category="U8"),
              PrizeSpec(id=3, place=1, value=D("50"), category="KIZ")]
    # the only girl won the overall prize; U8 has nobody: both stay unawarded, never passed on to others
    assert allocate(prizes, ranking=[5, 6, 7], eligible={"U8": set(), "KIZ": {5}}) == (
        Award(1, 5), Award(2, None), Award(3, None))


def test_equal_values_overall_before_category_then_place():
    prizes = [PrizeSpec(id=10, place=2, value=D("100"), category="U12"),
              PrizeSpec(id=11, place=1, value=D("100"), category="U12"),
              PrizeSpec(id=12, place=3, value=D("100"))]
    assert [p.id for p in allocation_order(prizes)] == [12, 11, 10]
    # trophies of equal value: the overall 3rd place goes first, to the best player, a U12 one
    assert allocate(prizes, ranking=[1, 2, 3], eligible={"U12": {1, 3}}) == (
        Award(12, 1), Award(11, 3), Award(10, None))


def test_allocation_refuses_bad_input():
    with pytest.raises(ValueError, match="twice"):
        allocate([], ranking=[1, 1], eligible={})
    with pytest.raises(ValueError, match="U10"):
        allocate([PrizeSpec(id=1, place=1, value=D(1), category="U10")], ranking=[1], eligible={})
    with pytest.raises(ValueError, match="share an id"):
        allocate([PrizeSpec(id=1, place=1, value=D(1)), PrizeSpec(id=1, place=2, value=D(1))], ranking=[1], eligible={})


@st.composite
def prize_problems(draw):
    n = draw(st.integers(0, 12))
    ranking = draw(st.permutations(list(range(1, n + 1))))
    codes = ["A", "B", "C"]
    eligible = {c: frozenset(draw(st.sets(st.sampled_from(ranking), max_size=n)) if n else set()) for c in codes}
    prizes, used = [], set()
    for i in range(draw(st.integers(0, 10))):
        category = draw(st.sampled_from([None, *codes]))
        place = draw(st.integers(1, 4))
        if (category, place) in used:
            continue
        used.add((category, place))
        prizes.append(PrizeSpec(id=i + 1, place=place, value=D(draw(st.sampled_from([0, 50, 100, 300]))),
                                category=category, order=codes.index(category) if category else 0))
    return prizes, ranking, eligible


@settings(max_examples=300, deadline=None)
@given(prize_problems(), st.randoms())
def test_allocation_properties(problem, rnd):
    prizes, ranking, eligible = problem
    awards = allocate(prizes, ranking=ranking, eligible=eligible)
    order = allocation_order(prizes)
    assert [a.prize_id for a in awards] == [p.id for p in order]
    winners = [a.winner for a in awards if a.winner is not None]
    assert len(winners) == len(set(winners)), "one prize per player"
    position = {pid: i for i, pid in enumerate(ranking)}
    given_before: set[int] = set()
    for prize, award in zip(order, awards):
        pool = set(ranking) if prize.category is None else set(eligible[prize.category])
        left = [pid for pid in ranking if pid in pool and pid not in given_before]
        if award.winner is None:
            assert not left, "unawarded only when every eligible player already has a more valuable prize"
        else:
            assert award.winner in pool
            assert award.winner == min(left, key=position.get), "the best-ranked eligible player without a prize"
            given_before.add(award.winner)
    shuffled = list(prizes)
    rnd.shuffle(shuffled)
    assert allocate(shuffled, ranking=ranking, eligible=eligible) == awards, "the input order does not matter"


# ============================================================================================
# A finished school open: 10 players, 3 rounds; the facts are set by final place
# ============================================================================================

WHITE_WINS = [SetInput(30, 18), SetInput(26, 22)]
BLACK_WINS = [SetInput(18, 30), SetInput(22, 26)]

#: by final place (1-based): birth year, sex, rating at entry
FACTS = {
    1: (2000, "m", 1800), 2: (2015, "m", 1500), 3: (2001, "f", 1550), 4: (2014, "f", 0), 5: (2000, "m", 1400),
    6: (2016, "m", 0), 7: (1999, "f", 1200), 8: (2013, "m", 1450), 9: (None, "f", 0), 10: (2017, "", 0),
}


def build_open(org, *, rounds_played=3, slug="okullar-acik"):
    """A Swiss of 10 players and 3 rounds starting 1 March 2026 (ages counted in 2026), the given rounds
    played (odd boards won by white, even ones by black), closed and the standings published; then each
    player's birth year, sex and rating at entry set by their final place (:data:`FACTS`). Returns the
    tournament and the entries in final standings order."""
    t = services.tournament_create(name="Okullar Arası Açık", rounds_total=3, created_by=org, slug=slug,
                                   start_date=dt.date(2026, 3, 1))
    for i in range(10):
        entry_services.entry_add(tournament=t, player=PlayerFactory(last_name=f"Öğrenci{i + 1}", first_name="Ayşe",
                                                                    rating=1900 - 50 * i))
    for n in range(1, rounds_played + 1):
        rnd = round_services.round_pair(tournament=t, user=org, coin_seed="kategori" if n == 1 else None)
        round_services.round_publish(round=rnd, user=org)
        for m in rnd.matches.filter(kind="game").order_by("board"):
            result_services.match_result_enter(match=m, sets=WHITE_WINS if m.board % 2 else BLACK_WINS, user=org)
        round_services.round_close(round=rnd, user=org)
    services.standings_publish(tournament=t, user=org)
    t.refresh_from_db()
    lines = selectors.tournament_standings(tournament=t, public_only=True).lines
    entries = {e.id: e for e in t.entries.select_related("player")}
    ordered = [entries[ln.entry_id] for ln in lines]
    for place, e in enumerate(ordered, start=1):
        born, sex, rating = FACTS[place]
        e.player.birth_year, e.player.sex = born, sex
        e.player.save(update_fields=["birth_year", "sex"])
        Entry.objects.filter(pk=e.pk).update(rating=rating)
    t.refresh_from_db()
    return t, ordered


def add_categories_and_prizes(t, org):
    """U12, Girls (KIZ), U8 (nobody), rating 1500-1600, unrated; overall 1000/700/500 (money), U12
    300/200, KIZ 300, U8 100 (trophies and medals)."""
    u12 = category_services.category_quick_add(tournament=t, preset="U12", user=org)
    kiz = category_services.category_quick_add(tournament=t, preset="KIZ", user=org)
    u8 = category_services.category_quick_add(tournament=t, preset="U8", user=org)
    category_services.category_create(tournament=t, code="1500-1600", name="1500–1600", kind="rating",
                                      rating_min=1500, rating_max=1600, user=org)
    category_services.category_create(tournament=t, code="puansiz", name="Puansızlar", kind="unrated", user=org)
    for place, value in ((1, 1000), (2, 700), (3, 500)):
        category_services.prize_create(tournament=t, place=place, label=f"{value} TL", value=value, money=True,
                                       user=org)
    category_services.prize_create(tournament=t, category=u12, place=1, label="U12 kupası", value=300, user=org)
    category_services.prize_create(tournament=t, category=u12, place=2, label="U12 madalyası", value=200, user=org)
    category_services.prize_create(tournament=t, category=kiz, place=1, label="Kız kupası", value=300, user=org)
    category_services.prize_create(tournament=t, category=u8, place=1, label="U8 kupası", value=100, user=org)
    t.refresh_from_db()


@pytest.fixture
def english():
    with translation.override("en"):
        yield


@pytest.fixture
def org(db):
    return organiser(username="okul-org", first_name="Oya", last_name="Organizatör")


@pytest.fixture
def school(org, english):
    t, ordered = build_open(org)
    add_categories_and_prizes(t, org)
    return t, ordered


def test_the_open_has_a_shared_second_place(school):
    t, ordered = school
    ranks = [ln.rank for ln in selectors.tournament_standings(tournament=t, public_only=True).lines]
    assert ranks == [1, 2, 2, 4, 5, 6, 7, 8, 9, 10]  # places 2 and 3 equal on points and every tie-break


def test_category_tables_from_the_standings(school):
    t, ordered = school
    places = {e.id: i for i, e in enumerate(ordered, start=1)}

    def table(code):
        _c, st = category_selectors.category_standings(tournament=t, code=code, public_only=True)
        return [(places[ln.entry_id], ln.rank, ln.shared, ln.overall_rank) for ln in st.lines]

    # (final place, rank in category, shared, overall rank)
    assert table("U12") == [(2, 1, False, 2), (4, 2, False, 4), (6, 3, False, 6), (10, 4, False, 10)]
    assert table("kiz") == [(3, 1, False, 2), (4, 2, False, 4), (7, 3, False, 7), (9, 4, False, 9)]
    assert table("1500-1600") == [(2, 1, True, 2), (3, 1, True, 2)]  # the overall tie carries over
    assert table("PUANSIZ") == [(4, 1, False, 4), (6, 2, False, 6), (9, 3, False, 9), (10, 4, False, 10)]
    assert table("U8") == []
    with pytest.raises(ValidationFailed) as exc:
        category_selectors.category_standings(tournament=t, code="U16", public_only=True)
    assert exc.value.field == "category"


def test_the_prize_list_of_the_open(school):
    t, ordered = school
    pl = category_selectors.prize_list(tournament=t, public_only=True)
    assert pl.final
    places = {e.id: i for i, e in enumerate(ordered, start=1)}
    got = [(p.category_code, p.place, places[p.winner.entry_id] if p.winner else None, p.place_in_list)
           for p in pl.prizes]
    assert got == [
        (None, 1, 1, 1), (None, 2, None, None), (None, 3, None, None),  # places 2 and 3: a shared 2nd
        ("U12", 1, 4, 2), ("U12", 2, 6, 3),  # the best U12 (place 2) shares the overall 2nd and 3rd prizes
        ("KIZ", 1, 7, 3),  # girls at places 3 and 4 already have a prize
        ("U8", 1, None, None),  # nobody in U8
    ]
    # level on points and every tie-break: 700 + 500 = 1200 pooled, 600 TL each (issue 25)
    second, third = pl.prizes[1], pl.prizes[2]
    assert [(places[ln.entry_id], amount) for ln, amount in second.shares] == [(2, D("600.00")), (3, D("600.00"))]
    assert second.shares == third.shares and second.pooled_places == (2, 3)
    assert pl.awarded == 6
    assert [tb.code for tb in pl.tables] == ["U12", "KIZ", "U8", "1500-1600", "PUANSIZ"]


# ============================================================================================
# Services
# ============================================================================================


@pytest.fixture
def draft(org):
    return services.tournament_create(name="Taslak Açık", rounds_total=5, created_by=org, start_date=dt.date(2026, 5, 1))


def test_category_create_normalises_and_refuses_with_the_field(draft, org, english):
    c = category_services.category_create(tournament=draft, code=" u12 ", name="12 Yaş Altı", kind="age", max_age=12,
                                          min_age=5, rating_min=1000, user=org)
    assert (c.code, c.max_age, c.min_age, c.rating_min, c.order) == ("U12", 12, 5, None, 1)  # other kinds' fields cleared
    cases = [
        (dict(code="U12", name="x", kind="age", max_age=12), "code"),  # taken (case does not matter)
        (dict(code="ÜÇ", name="x", kind="girls"), "code"),
        (dict(code="", name="x", kind="girls"), "code"),
        (dict(code="A", name=" ", kind="girls"), "name"),
        (dict(code="A", name="x", kind="team"), "kind"),
        (dict(code="A", name="x", kind="age"), "max_age"),
        (dict(code="A", name="x", kind="age", max_age=10, min_age=12), "min_age"),
        (dict(code="A", name="x", kind="age", max_age=0), "max_age"),
        (dict(code="A", name="x", kind="rating"), "rating_min"),
        (dict(code="A", name="x", kind="rating", rating_min=1600, rating_max=1500), "rating_max"),
        (dict(code="A", name="x", kind="rating", rating_min=5000), "rating_min"),
        (dict(code="A", name="x", kind="club"), "club"),
        (dict(code="A", name="x", kind="club", club=999999), "club"),
        (dict(code="A", name="x", kind="city", city="  "), "city"),
    ]
    for kwargs, field in cases:
        with pytest.raises(ValidationFailed) as exc:
            category_services.category_create(tournament=draft, user=org, **kwargs)
        assert exc.value.field == field, (kwargs, exc.value.message)
    club = ClubFactory(name="Ankara Mangala Kulübü")
    c2 = category_services.category_create(tournament=draft, code="AMK", name="Kulüp", kind="club", club=club.pk,
                                           user=org)
    assert c2.club_id == club.pk and c2.order == 2
    assert Category.objects.filter(tournament=draft).count() == 2


def test_only_organisers_write_and_every_write_bumps_the_version(draft, org):
    stranger = UserFactory(username="yabanci")
    with pytest.raises(PermissionDenied):
        category_services.category_create(tournament=draft, code="KIZ", name="Kızlar", kind="girls", user=stranger)
    v = Tournament.objects.get(pk=draft.pk).standings_version
    c = category_services.category_quick_add(tournament=draft, preset="KIZ", user=org)
    p = category_services.prize_create(tournament=draft, category=c, place=1, label="Kupa", user=org)
    category_services.prize_update(prize=p, label="Altın kupa", user=org)
    with pytest.raises(PermissionDenied):
        category_services.prize_delete(prize=p, user=stranger)
    category_services.prize_delete(prize=p, user=org)
    assert Tournament.objects.get(pk=draft.pk).standings_version == v + 4


def test_quick_add_presets(draft, org, english):
    made = [category_services.category_quick_add(tournament=draft, preset=code, user=org)
            for code in ("U8", "U10", "u12", "U14", "KIZ")]
    assert [(c.code, c.name, c.kind, c.max_age) for c in made] == [
        ("U8", "Under 8", "age", 8), ("U10", "Under 10", "age", 10), ("U12", "Under 12", "age", 12),
        ("U14", "Under 14", "age", 14), ("KIZ", "Girls", "girls", None)]
    for preset in ("U12", "U16"):
        with pytest.raises(ValidationFailed) as exc:
            category_services.category_quick_add(tournament=draft, preset=preset, user=org)
        assert exc.value.field == "code"


def test_category_update_and_delete(draft, org, english):
    c = category_services.category_quick_add(tournament=draft, preset="U12", user=org)
    category_services.category_quick_add(tournament=draft, preset="KIZ", user=org)
    prize = category_services.prize_create(tournament=draft, category=c, place=1, label="Kupa", user=org)
    c = category_services.category_update(category=c, kind="rating", rating_max=1399, code="u1400",
                                          name="1400 altı", user=org, reason="yaş yerine puan")
    assert (c.code, c.kind, c.max_age, c.rating_max) == ("U1400", "rating", None, 1399)
    with pytest.raises(ValidationFailed) as exc:
        category_services.category_update(category=c, code="KIZ", user=org)
    assert exc.value.field == "code"
    with pytest.raises(ValidationFailed) as exc:
        category_services.category_update(category=c, tournament=draft, user=org)
    assert exc.value.field == "tournament"
    category_services.category_delete(category=c, user=org, reason="gerek yok")
    assert not Category.objects.filter(pk=c.pk).exists() and not Prize.objects.filter(pk=prize.pk).exists()
    with pytest.raises(NotFound):
        category_services.category_delete(category=c, user=org)


def test_prize_refusals_name_the_field(draft, org, english):
    u12 = category_services.category_quick_add(tournament=draft, preset="U12", user=org)
    other = category_services.category_quick_add(tournament=TournamentFactory(created_by=org), preset="U12", user=org)
    category_services.prize_create(tournament=draft, place=1, label="1000 TL", value=1000, user=org)
    category_services.prize_create(tournament=draft, place=3, label="300 TL", value="300", user=org)
    category_services.prize_create(tournament=draft, category=u12, place=1, label="Kupa", user=org)  # same place, other list
    cases = [
        (dict(place=1, label="x", value=5), "place"),  # overall 1st exists
        (dict(place=0, label="x"), "place"),
        (dict(place=2, label="x", value=1001), "value"),  # worth more than 1st
        (dict(place=2, label="x", value=299), "value"),  # worth less than 3rd
        (dict(place=2, label="x", value=-1), "value"),
        (dict(place=2, label="x", value="12.345"), "value"),
        (dict(place=2, label="x", value="abc"), "value"),
        (dict(place=2, label=""), "label"),
        (dict(place=2, label="x", category=other), "category"),
    ]
    for kwargs, field in cases:
        with pytest.raises(ValidationFailed) as exc:
            category_services.prize_create(tournament=draft, user=org, **kwargs)
        assert exc.value.field == field, (kwargs, exc.value.message)
    p = category_services.prize_create(tournament=draft, place=2, label="500 TL", value="500,00", user=org)
    assert p.value == D("500.00")
    # Turkish thousands and decimal comma, English thousands; a third decimal is refused
    for typed, value in (("1.000", "1000"), ("1.000,50", "1000.50"), ("1,000.50", "1000.50"), ("2.500", "2500"),
                         (" 750,5 ", "750.50"), ("250.50", "250.50")):
        assert category_services._check_value(typed) == D(value), typed
    for typed in ("12.3456", "1.00.0", "1,000,5", "1e3"):
        with pytest.raises(ValidationFailed):
            category_services._check_value(typed)
    with pytest.raises(ValidationFailed) as exc:
        category_services.prize_update(prize=p, place=3, user=org)
    assert exc.value.field == "place"


def test_the_history_tells_who_changed_the_categories_and_prizes(draft, org, english):
    c = category_services.category_quick_add(tournament=draft, preset="U12", user=org)
    p = category_services.prize_create(tournament=draft, category=c, place=1, label="Kupa", value=100, user=org)
    category_services.prize_update(prize=p, value=150, user=org, reason="sponsor")
    category_services.category_delete(category=c, user=org, reason="birleştirildi")
    items = history.tournament_history(tournament=draft)
    assert [i.action for i in items[:4]] == ["category.delete", "prize.edit", "prize.create", "category.create"]
    assert all(i.user == "Oya Organizatör" for i in items[:4])
    edit = items[1]
    assert (edit.object, edit.reason, edit.before, edit.after) == (
        "Prize U12, place 1", "sponsor", {"value": 100.0}, {"value": 150.0})
    assert items[0].reason == "birleştirildi" and "Category U12" in items[0].before


# ============================================================================================
# Pages and API
# ============================================================================================


def _client(user=None) -> Client:
    c = Client(HTTP_ACCEPT_LANGUAGE="en")
    if user is not None:
        c.force_login(user)
    return c


def _rows(html: str, testid: str) -> list[list[str]]:
    body = html.split(f'data-testid="{testid}"', 1)[1].split("<tbody>", 1)[1].split("</tbody>", 1)[0]
    return [[re.sub(r"<[^>]+>", "", c).strip() for c in re.findall(r"<td[^>]*>(.*?)</td>", tr, re.S)]
            for tr in re.findall(r"<tr[^>]*>(.*?)</tr>", body, re.S)]


def test_standings_page_by_category_for_the_public(school):
    t, ordered = school
    html = _client().get(f"/t/{t.slug}/standings/?category=u12").content.decode()
    assert 'data-category="U12"' in html and 'data-testid="category-menu"' in html
    rows = _rows(html, "standings")
    # rank in U12, overall rank, starting number, name
    assert [r[:4] for r in rows] == [
        [str(i), str(overall), str(ordered[place - 1].start_no), ordered[place - 1].player.full_name]
        for i, (place, overall) in enumerate(((2, 2), (4, 4), (6, 6), (10, 10)), start=1)
    ]
    whole = _client().get(f"/t/{t.slug}/standings/").content.decode()
    assert len(_rows(whole, "standings")) == 10 and "data-category" not in whole
    unknown = _client().get(f"/t/{t.slug}/standings/?category=U99").content.decode()
    assert 'data-testid="unknown-category"' in unknown and len(_rows(unknown, "standings")) == 10


def test_crosstable_by_category(school):
    t, ordered = school
    html = _client().get(f"/t/{t.slug}/crosstable/?category=KIZ").content.decode()
    assert 'data-category="KIZ"' in html
    rows = [r for r in re.findall(r"<tr>(.*?)</tr>", html.split("<tbody>", 1)[1], re.S)]
    cells = [re.findall(r"<td[^>]*>(.*?)</td>", r) for r in rows]
    assert [(c[0], c[1], c[2]) for c in cells] == [
        ("1", "2", str(ordered[2].start_no)), ("2", "4", str(ordered[3].start_no)),
        ("3", "7", str(ordered[6].start_no)), ("4", "9", str(ordered[8].start_no))]


def test_category_pages_are_cached_per_category(school):
    t, _ordered = school
    c = _client()
    for path in (f"/t/{t.slug}/standings/?category=U12", f"/t/{t.slug}/crosstable/?category=KIZ",
                 f"/t/{t.slug}/prizes/"):
        first = c.get(path).content.decode()
        with CaptureQueriesContext(connection) as ctx:
            again = c.get(path).content.decode()
        table = lambda html: html.split("<tbody>", 1)[1].split("</tbody>", 1)[0]  # noqa: E731
        assert table(again) == table(first) and "<td" in table(first)
        # the finished page (federation/pagecache.py): not even the tournament is read
        assert len(ctx.captured_queries) == 0, (path, [q["sql"] for q in ctx.captured_queries])
    # a new category is a new version: the menu and the tables are built again
    category_services.category_quick_add(tournament=t, preset="U14", user=t.created_by)
    assert "U14 – " in c.get(f"/t/{t.slug}/standings/?category=U12").content.decode()


def test_standings_api_by_category(school):
    t, ordered = school
    api = APIClient(HTTP_ACCEPT_LANGUAGE="en")
    body = api.get(f"/api/tournaments/{t.slug}/standings/?category=1500-1600").json()
    assert body["category"] == {"code": "1500-1600", "name": "1500–1600", "kind": "rating"}
    assert [(r["start_no"], r["rank"], r["shared"], r["overall_rank"]) for r in body["rows"]] == [
        (ordered[1].start_no, 1, True, 2), (ordered[2].start_no, 1, True, 2)]
    whole = api.get(f"/api/tournaments/{t.slug}/standings/").json()
    assert whole["category"] is None and len(whole["rows"]) == 10 and "overall_rank" not in whole["rows"][0]
    r = api.get(f"/api/tournaments/{t.slug}/standings/?category=U99")
    assert r.status_code == 400
    assert r.json()["error"]["field"] == "category" and "U12" in r.json()["error"]["message"]
    detail = api.get(f"/api/tournaments/{t.slug}/").json()
    assert detail["categories"] == [
        {"code": "U12", "name": "Under 12", "kind": "age"}, {"code": "KIZ", "name": "Girls", "kind": "girls"},
        {"code": "U8", "name": "Under 8", "kind": "age"},
        {"code": "1500-1600", "name": "1500–1600", "kind": "rating"},
        {"code": "PUANSIZ", "name": "Puansızlar", "kind": "unrated"}]


def test_prize_page_for_the_public_once_final(school):
    t, ordered = school
    html = _client().get(f"/t/{t.slug}/prizes/").content.decode()
    rows = _rows(html, "prizes")
    name = lambda place: ordered[place - 1].player.full_name  # noqa: E731
    assert [(r[1], r[2], r[3]) for r in rows] == [
        ("1", "1000 TL", name(1)),
        ("2", "700 TL", f"Shared (places 2–3 pooled): {name(2)} 600.00; {name(3)} 600.00"),
        ("3", "500 TL", f"Shared (places 2–3 pooled): {name(2)} 600.00; {name(3)} 600.00"),
        ("1", "U12 kupası", name(4)), ("2", "U12 madalyası", name(6)), ("1", "Kız kupası", name(7)),
        ("1", "U8 kupası", "not awarded (no eligible player left)")]
    assert 'data-testid="prizes-provisional"' not in html
    u12 = _rows(html, "category-U12")
    assert [(r[0], r[1], r[3]) for r in u12] == [("1", "2", name(2)), ("2", "4", name(4)), ("3", "6", name(6)),
                                                  ("4", "10", name(10))]


def test_prize_page_waits_for_the_final_standings(org, english):
    t, ordered = build_open(org, rounds_played=2, slug="yarim-acik")
    add_categories_and_prizes(t, org)
    assert _client().get(f"/t/{t.slug}/prizes/").status_code == 404  # published after round 2 of 3
    assert _client().get(f"/t/{t.slug}/prizes.pdf").status_code == 404
    assert _client(UserFactory(username="veli")).get(f"/t/{t.slug}/prizes/").status_code == 404
    assert _client().get(f"/t/{t.slug}/standings/?category=U12").status_code == 200  # the standings' gate
    page = _client(org).get(f"/t/{t.slug}/prizes/")
    assert page.status_code == 200 and 'data-testid="prizes-provisional"' in page.content.decode()


needs_poppler = pytest.mark.skipif(not shutil.which("pdftotext"), reason="poppler-utils (pdftotext) missing")


@needs_poppler
def test_prize_list_pdf(school, tmp_path, settings):
    settings.MEDIA_ROOT = str(tmp_path)
    t, ordered = school
    r = _client().get(f"/t/{t.slug}/prizes.pdf")
    assert r.status_code == 200 and r["Content-Type"] == "application/pdf"
    pdf = tmp_path / "p.pdf"
    pdf.write_bytes(b"".join(r.streaming_content))
    text = subprocess.run(["pdftotext", "-layout", str(pdf), "-"], capture_output=True, text=True, check=True).stdout
    assert "Okullar Arası Açık" in text and "Prize list" in text
    line = next(ln for ln in text.splitlines() if "U12 kupası" in ln)
    assert ordered[3].player.full_name in line  # U12 1st prize: the 4th placed player
    assert "not awarded" in next(ln for ln in text.splitlines() if "U8 kupası" in ln)
    assert "Under 12 (U12)" in text and "Girls (KIZ)" in text


def test_organiser_settings_page(school):
    t, _ordered = school
    org = t.created_by
    c = _client(org)
    html = c.get(f"/t/{t.slug}/categories/").content.decode()
    rows = _rows(html, "categories")
    assert [(r[0], r[3]) for r in rows] == [("U12", "4"), ("KIZ", "4"), ("U8", "0"), ("1500-1600", "2"),
                                             ("PUANSIZ", "4")]
    assert rows[0][2] == "born in 2014 or later"
    assert re.search(r'value="U12"><button type="submit" disabled', html)  # already there
    r = c.post(f"/t/{t.slug}/categories/quick-add/", {"preset": "U10"})
    assert r.status_code == 302 and Category.objects.filter(tournament=t, code="U10").exists()
    r = c.post(f"/t/{t.slug}/categories/", {"form": "category", "code": "ANK", "name": "Ankara", "kind": "city"})
    assert r.status_code == 200 and "This field is required." in r.content.decode()  # the city, named by the service
    r = c.post(f"/t/{t.slug}/categories/", {"form": "category", "code": "ANK", "name": "Ankara", "kind": "city",
                                           "city": "ANKARA"})
    assert r.status_code == 302
    assert category_selectors.category_standings(tournament=t, code="ANK")[1].lines != ()  # every player: Ankara
    r = c.post(f"/t/{t.slug}/categories/", {"form": "prize", "category": "", "place": "2", "label": "x", "value": "5"})
    assert "already has a prize for place 2" in r.content.decode()
    prize = Prize.objects.get(tournament=t, category__isnull=True, place=3)
    r = c.post(f"/t/{t.slug}/prizes/{prize.pk}/", {"category": "", "place": "4", "label": "500 TL", "value": "500"})
    assert r.status_code == 302 and Prize.objects.get(pk=prize.pk).place == 4
    u8 = Category.objects.get(tournament=t, code="U8")
    assert c.post(f"/t/{t.slug}/categories/{u8.pk}/delete/").status_code == 302
    assert not Category.objects.filter(pk=u8.pk).exists()
    page = c.get(f"/t/{t.slug}/history/").content.decode()
    assert "category deleted" in page and "Category U8" in page and "Prize overall, place 3" in page
    assert f'href="/t/{t.slug}/categories/"' in c.get(f"/t/{t.slug}/").content.decode()


def test_settings_page_is_for_organisers_only(school):
    t, _ordered = school
    r = _client(UserFactory(username="veli")).get(f"/t/{t.slug}/categories/")
    assert r.status_code == 403 and "Only the organiser can change the categories and prizes." in r.content.decode()
    u12 = Category.objects.get(tournament=t, code="U12")
    _client(UserFactory(username="veli2")).post(f"/t/{t.slug}/categories/{u12.pk}/delete/")
    assert Category.objects.filter(pk=u12.pk).exists()
    r = _client().get(f"/t/{t.slug}/categories/")
    assert r.status_code == 302 and "/accounts/login/" in r["Location"]


def test_ages_are_counted_in_the_events_year_else_the_start_year(org, english):
    from django.utils import timezone

    from tournaments.models import Event

    t = TournamentFactory(created_by=org, start_date=None)
    born_2014 = PlayerFactory(birth_year=2014)
    entry_services.entry_add(tournament=t, player=born_2014)
    u12 = category_services.category_quick_add(tournament=t, preset="U12", user=org)
    this_year = timezone.localdate().year
    assert category_selectors.category_age_year(t) == this_year
    event = Event.objects.create(slug="il-okullar", name="İl Okullar Şampiyonası", reference_date=dt.date(2027, 1, 1))
    Tournament.objects.filter(pk=t.pk).update(event=event)
    t.refresh_from_db()
    assert category_selectors.category_age_year(t) == 2027
    assert category_selectors.category_members(tournament=t, categories=[u12])["U12"] == frozenset()  # 13 in 2027
    # a section starting in 2026 of an event whose reference date is in 2027: the event's year, as for
    # the section's own birth-year rule
    Tournament.objects.filter(pk=t.pk).update(start_date=dt.date(2026, 6, 1))
    t.refresh_from_db()
    assert category_selectors.category_age_year(t) == 2027
    assert category_selectors.category_members(tournament=t, categories=[u12])["U12"] == frozenset()
    Tournament.objects.filter(pk=t.pk).update(event=None)
    t.refresh_from_db()
    assert category_selectors.category_age_year(t) == 2026
    assert len(category_selectors.category_members(tournament=t, categories=[u12])["U12"]) == 1
