"""Which FIDE C.07 text the standings follow: the 2023 text, or the amendment applied from 1 March 2026
(Art. 16.4.2: the dummy opponent of an own unplayed round is capped at half the rounds) — by the
event's dates unless the organiser chose one; shown on the standings page, in the API and in the
crosstable PDF."""
from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest
from django.template.loader import render_to_string
from django.test import Client
from django.utils import timezone, translation
from rest_framework.test import APIClient

from federation.errors import ValidationFailed
from tests.factories import PlayerFactory, organiser
from tournaments import selectors
from tournaments import services
from tournaments.entries import services as entry_services
from tournaments.history import selectors as history
from tournaments.models import Match, Round, Tournament

pytestmark = pytest.mark.django_db

ONE, ZERO = Decimal("1"), Decimal("0")


@pytest.fixture(autouse=True)
def english():
    with translation.override("en"):
        yield


@pytest.fixture
def org():
    return organiser(username="orhan")


def build(org, *, start_date=None, tiebreak_rules="auto", name="Eşitlik Açık", **kwargs) -> Tournament:
    """Seven players (A..G = 1..7), three closed rounds, Buchholz only. A gets round 1's bye and wins
    twice; B wins three games; both end on 3 points.

    Round 1: A bye, B–C 1-0, D–E 1-0, F–G 1-0. Round 2: A–D 1-0, B–F 1-0, C–E 1-0, G bye.
    Round 3: A–F 1-0, B–D 1-0, C–G 1-0, E bye. Scores: A 3, B 3, C 2, D E F G 1.
    Buchholz of B: C + F + D = 2 + 1 + 1 = 4. Of A: the dummy of round 1 + D + F:
    2023 text (dummy = own score 3) 5 → A first; 2026 text (dummy capped at ½ × 3 = 1.5) 3.5 → B first.
    """
    t = services.tournament_create(name=name, rounds_total=3, created_by=org, start_date=start_date,
                                   tiebreaks=["buchholz"], **kwargs)
    if tiebreak_rules != "auto":
        Tournament.objects.filter(pk=t.pk).update(tiebreak_rules=tiebreak_rules)
        t.refresh_from_db()
    for i, letter in enumerate("ABCDEFG"):
        entry_services.entry_add(tournament=t, player=PlayerFactory(last_name=f"Oyuncu{letter}", first_name="Ali",
                                                                    rating=2000 - 10 * i))
    e = {letter: t.entries.get(start_no=i + 1) for i, letter in enumerate("ABCDEFG")}
    script = {
        1: [("A", None), ("B", "C"), ("D", "E"), ("F", "G")],
        2: [("A", "D"), ("B", "F"), ("C", "E"), ("G", None)],
        3: [("A", "F"), ("B", "D"), ("C", "G"), ("E", None)],
    }
    now = timezone.now()
    for number, games in script.items():
        rnd = Round.objects.create(tournament=t, number=number, status=Round.Status.CLOSED, paired_at=now,
                                   published_at=now, closed_at=now)
        for board, (w, b) in enumerate(games, start=1):
            if b is None:
                Match.objects.create(round=rnd, board=board, kind=Match.Kind.BYE, bye_kind="pab", white=e[w],
                                     white_points=ONE)
            else:
                Match.objects.create(round=rnd, board=board, white=e[w], black=e[b], white_points=ONE,
                                     black_points=ZERO, result_entered_at=now)
    services.standings_publish(tournament=t, user=org)
    return Tournament.objects.get(pk=t.pk)


def top_two(t: Tournament) -> list[tuple[str, float]]:
    st = selectors.tournament_standings(tournament=t)
    return [(line.name.split(",")[0], line.tiebreaks[0]) for line in st.lines[:2]]


def test_a_2025_event_follows_the_2023_text():
    t = build(organiser(username="o1"), start_date=dt.date(2025, 6, 1))
    st = selectors.tournament_standings(tournament=t)
    assert st.tiebreak_rules == "2023"
    assert top_two(t) == [("OyuncuA", 5.0), ("OyuncuB", 4.0)]


def test_a_2026_event_follows_the_amendment_and_the_standings_differ():
    t = build(organiser(username="o1"), start_date=dt.date(2026, 4, 1))
    st = selectors.tournament_standings(tournament=t)
    assert st.tiebreak_rules == "2026"
    assert top_two(t) == [("OyuncuB", 4.0), ("OyuncuA", 3.5)]


def test_the_amendment_day_itself_counts_as_2026():
    assert selectors.tiebreak_rules_for(Tournament(start_date=dt.date(2026, 3, 1))) == "2026"
    assert selectors.tiebreak_rules_for(Tournament(start_date=dt.date(2026, 2, 28))) == "2023"


def test_the_organisers_choice_overrides_the_dates(org):
    old = build(org, start_date=dt.date(2025, 6, 1), tiebreak_rules="2026", name="Eski")
    assert top_two(old)[0][0] == "OyuncuB"
    new = build(org, start_date=dt.date(2026, 6, 1), tiebreak_rules="2023", name="Yeni")
    assert top_two(new)[0][0] == "OyuncuA"


def test_the_choice_can_change_after_the_event_and_is_recorded(org):
    t = build(org, start_date=dt.date(2025, 6, 1))
    v0 = t.version
    services.tournament_update(tournament=t, user=org, tiebreak_rules="2026", reason="federasyon kararı")
    t.refresh_from_db()
    assert t.version > v0  # standings and PDFs are computed again
    assert top_two(t)[0][0] == "OyuncuB"
    item = history.tournament_history(tournament=t, limit=1)[0]
    assert (item.action, item.reason) == ("tournament.edit", "federasyon kararı")
    assert (item.before, item.after) == ({"tiebreak_rules": "auto"}, {"tiebreak_rules": "2026"})
    with pytest.raises(ValidationFailed) as err:
        services.tournament_update(tournament=t, user=org, tiebreak_rules="2030")
    assert err.value.field == "tiebreak_rules"


@pytest.mark.parametrize(("fields", "expected"), [
    ({"round_dates": ["2026-03-01", "2026-03-02"]}, "2026"),
    ({"round_dates": ["", "26/02/28"]}, "2023"),  # the first date found, in a TRF form (YY/MM/DD)
    ({"round_dates": ["sabah"], "end_date": dt.date(2026, 3, 5)}, "2026"),
    ({"end_date": dt.date(2025, 12, 31)}, "2023"),
    ({}, None),  # the creation date
])
def test_without_a_start_date_the_rounds_then_the_end_then_the_creation_date_decide(org, fields, expected):
    t = services.tournament_create(name="Tarihsiz", rounds_total=3, created_by=org)
    Tournament.objects.filter(pk=t.pk).update(**fields)
    t.refresh_from_db()
    if expected is None:
        assert selectors.tiebreak_rules_for(t) == "2026"  # created now, after March 2026
        Tournament.objects.filter(pk=t.pk).update(created_at=timezone.make_aware(dt.datetime(2025, 5, 1)))
        t.refresh_from_db()
        expected = "2023"
    assert selectors.tiebreak_rules_for(t) == expected


def test_standings_page_names_the_text_above_the_table(org):
    t = build(org, start_date=dt.date(2025, 6, 1))
    body = Client(HTTP_ACCEPT_LANGUAGE="en").get(f"/t/{t.slug}/standings/").content.decode()
    sentence = "Tie-breaks: FIDE C.07 (2023 text)"
    assert sentence in body and "amendment" not in body
    assert body.index(sentence) < body.index('data-testid="standings"')
    services.tournament_update(tournament=t, user=org, tiebreak_rules="2026")
    body = Client(HTTP_ACCEPT_LANGUAGE="en").get(f"/t/{t.slug}/standings/").content.decode()
    assert "Tie-breaks: FIDE C.07 (2023 text) with the amendment of 1 March 2026" in body


def test_standings_api_says_which_text(org):
    t = build(org, start_date=dt.date(2026, 4, 1))
    body = APIClient().get(f"/api/tournaments/{t.slug}/standings/?lang=en").json()
    assert body["tiebreak_rules"] == "2026"
    assert body["tiebreak_rules_text"] == "Tie-breaks: FIDE C.07 (2023 text) with the amendment of 1 March 2026"
    assert [row["name"].split(",")[0] for row in body["rows"][:2]] == ["OyuncuB", "OyuncuA"]
    detail = APIClient().get(f"/api/tournaments/{t.slug}/").json()
    assert (detail["tiebreak_rules"], detail["tiebreak_rules_applied"]) == ("auto", "2026")


def test_crosstable_pdf_footer_names_the_text(org):
    t = build(org, start_date=dt.date(2025, 6, 1))
    table = selectors.tournament_crosstable(tournament=t, lang="en")
    html = render_to_string("tournaments/crosstable_pdf.html",
                            {"table": table, "t": t, "generated_at": timezone.now()})
    assert "Tie-breaks: FIDE C.07 (2023 text)" in html and "amendment" not in html
