"""Why am I placed here (issue 25): a player's line walked against the neighbours in the tie-break order,
the step that separated them or "level on everything"; Turkish and English; behind the standings' publish
gate. The separating step itself: ``tournaments.standings.separating_step``."""
from __future__ import annotations

from decimal import Decimal

import pytest
from django.test import Client
from django.utils import timezone, translation

from tests.factories import EntryFactory, PlayerFactory, TournamentFactory, organiser
from tests.tournaments.standings.crosstable import crosstable
from tournaments.models import Match, Round, Tournament
from tournaments.placement.selectors import player_placement
from tournaments.standings import separating_step

ONE, ZERO = Decimal("1"), Decimal("0")


# --- the standings core: which step separates two players -----------------------------------------

# 1 beats 2, 5 beats 1; 2 beats 4; 3 beats 4, 6 beats 3: 1, 2, 3 and 6 end on 1 point. Direct encounter
# inside {1, 2, 3, 6}: 1 → 1 (beat 2), 6 → 1 (beat 3), 2 and 3 → 0, but encounters are missing (C.07
# Art. 6.3): nobody is sure to stay first, the group stays tied. Buchholz: 1 = 2 (1) + 5 (2) = 3,
# 2 = 1 + 4 (0) = 1, 3 = 4 (0) + 6 (1) = 1, 6 = 5 (2) + 3 (1) = 3.
SWISS = {
    1: "+W2 -B5",
    2: "-B1 +W4",
    3: "+W4 -B6",
    4: "-B3 -B2",
    5: "+W6 +W1",
    6: "-B5 +W3",
}
KEYS = ["direct_encounter", "buchholz"]


def test_separating_step_points_first():
    assert separating_step(crosstable(SWISS), tiebreaks=KEYS, first=5, second=1) == 0


def test_separating_step_direct_encounter_that_does_not_separate_is_passed_over():
    # DE values differ (1 against 0) but leave the group tied: Buchholz (3 against 1) separates
    assert separating_step(crosstable(SWISS), tiebreaks=KEYS, first=1, second=2) == 2


def test_separating_step_level_on_everything_is_none():
    assert separating_step(crosstable(SWISS), tiebreaks=KEYS, first=1, second=6) is None


# --- a built tournament --------------------------------------------------------------------------


def build(*, published: bool = True, tiebreaks=("buchholz", "wins")) -> Tournament:
    """Six players A..F (starting numbers 1..6), three closed rounds, all games decisive.

    Round 1: A–B 1-0, C–D 1-0, E–F 1-0. Round 2: A–C 1-0, B–E 1-0, D–F 1-0. Round 3: A–E 1-0, B–D 1-0,
    C–F 1-0. Points: A 3, B 2, C 2, D 1, E 1, F 0.
    Buchholz: A = B 2 + C 2 + E 1 = 5; B = A 3 + E 1 + D 1 = 5; C = D 1 + A 3 + F 0 = 4;
    D = C 2 + F 0 + B 2 = 4; E = F 0 + B 2 + A 3 = 5; F = E 1 + D 1 + C 2 = 4.
    Standings: 1 A; 2 B (BH 5), 3 C (BH 4); 4 E (BH 5), 5 D (BH 4); 6 F."""
    t = TournamentFactory(name="Neden Açık", rounds_total=3, status=Tournament.Status.RUNNING,
                          tiebreaks=list(tiebreaks))
    e = {letter: EntryFactory(tournament=t, player=PlayerFactory(last_name=f"Oyuncu{letter}", first_name="Ayşe",
                                                                   rating=2000 - 10 * i))
         for i, letter in enumerate("ABCDEF")}
    now = timezone.now()
    script = {1: ["AB", "CD", "EF"], 2: ["AC", "BE", "DF"], 3: ["AE", "BD", "CF"]}
    for number, games in script.items():
        rnd = Round.objects.create(tournament=t, number=number, status=Round.Status.CLOSED, paired_at=now,
                                   published_at=now, closed_at=now)
        for board, (w, b) in enumerate(games, start=1):
            Match.objects.create(round=rnd, board=board, white=e[w], black=e[b], white_points=ONE,
                                 black_points=ZERO, result_entered_at=now)
    if published:
        Tournament.objects.filter(pk=t.pk).update(standings_published_at=now, standings_round=3)
    return Tournament.objects.get(pk=t.pk)


@pytest.mark.django_db
def test_placement_values_against_the_neighbours():
    t = build()
    with translation.override("en"):
        place = player_placement(tournament=t, start_no=3)  # C, rank 3
    assert (place.line.rank, place.line.points) == (3, 2.0)
    above, below = place.above, place.below
    assert (above.line.start_no, above.above, below.line.start_no, below.above) == (2, True, 5, False)
    # against B: level on points (2 – 2), Buchholz 4 against 5 separated them
    assert [(s.label, s.own, s.other, s.decisive) for s in above.steps] == [
        ("Points", 2.0, 2.0, False), ("Buchholz", 4.0, 5.0, True),
    ]
    assert above.decided_by == "Buchholz" and not above.shared
    # against E: points 2 against 1 decided at once; nothing else was compared
    assert [(s.label, s.own, s.other, s.decisive) for s in below.steps] == [("Points", 2.0, 1.0, True)]
    assert below.decided_by == "Points"


@pytest.mark.django_db
def test_placement_top_and_bottom_have_one_neighbour():
    t = build()
    assert player_placement(tournament=t, start_no=1).above is None
    assert player_placement(tournament=t, start_no=6).below is None


@pytest.mark.django_db
def test_placement_level_on_everything_shares_the_rank():
    t = build(tiebreaks=("wins",))  # B and C: 2 points, 2 wins each
    place = player_placement(tournament=t, start_no=3)
    assert place.above.line.start_no == 2 and place.above.decided_by is None and place.above.shared
    assert [(s.own, s.other, s.decisive) for s in place.above.steps] == [(2.0, 2.0, False), (2.0, 2.0, False)]
    assert place.line.rank == place.above.line.rank == 2


@pytest.mark.django_db
def test_placement_page_in_english():
    t = build()
    page = Client(HTTP_ACCEPT_LANGUAGE="en").get(f"/t/{t.slug}/standings/3/why/")
    html = page.content.decode()
    assert page.status_code == 200
    assert "Why is OyuncuC, Ayşe placed here?" in html or "Why is Ayşe OyuncuC placed here?" in html
    assert "Against the player just above" in html and "Separated by Buchholz." in html
    assert "Separated by Points." in html


@pytest.mark.django_db
def test_placement_page_in_turkish():
    t = build()
    page = Client(HTTP_ACCEPT_LANGUAGE="tr").get(f"/t/{t.slug}/standings/3/why/")
    html = page.content.decode()
    assert page.status_code == 200
    assert "neden bu sırada?" in html and "Eşitlik bozma sırası: Buchholz, Galibiyet sayısı" in html
    assert "sonra eşitlik bozma sırasıyla her ölçüte göre" in html
    assert "Hemen üstündeki oyuncuyla" in html and "Ayıran: Buchholz." in html and "Ayıran: Puan." in html


@pytest.mark.django_db
def test_placement_level_page_says_level_on_everything():
    t = build(tiebreaks=("wins",))
    html = Client(HTTP_ACCEPT_LANGUAGE="en").get(f"/t/{t.slug}/standings/3/why/").content.decode()
    assert "Level on points and every tie-break: they share rank 2." in html


@pytest.mark.django_db
def test_placement_unpublished_is_404_to_the_public_and_shown_to_the_organiser():
    t = build(published=False)
    assert Client().get(f"/t/{t.slug}/standings/3/why/").status_code == 404
    org = organiser(username="neden-org")
    t.created_by = org
    t.save(update_fields=["created_by"])
    client = Client()
    client.force_login(org)
    assert client.get(f"/t/{t.slug}/standings/3/why/").status_code == 200


@pytest.mark.django_db
def test_placement_unknown_starting_number_is_404():
    t = build()
    assert Client().get(f"/t/{t.slug}/standings/99/why/").status_code == 404


@pytest.mark.django_db
def test_standings_rows_link_to_the_placement_page():
    t = build()
    html = Client().get(f"/t/{t.slug}/standings/").content.decode()
    assert f'href="/t/{t.slug}/standings/3/why/"' in html


# --- the JSON twin --------------------------------------------------------------------------------


@pytest.mark.django_db
def test_placement_api_values():
    t = build()
    data = Client(HTTP_ACCEPT_LANGUAGE="en").get(f"/api/tournaments/{t.slug}/standings/3/why/").json()
    assert data["player"]["start_no"] == 3 and data["player"]["rank"] == 3
    assert data["tiebreak_keys"] == ["buchholz", "wins"]
    assert data["above"]["neighbour"]["start_no"] == 2 and data["above"]["decided_by"] == "Buchholz"
    assert data["above"]["steps"] == [
        {"label": "Points", "own": 2.0, "other": 2.0, "decisive": False},
        {"label": "Buchholz", "own": 4.0, "other": 5.0, "decisive": True},
    ]
    assert data["below"]["decided_by"] == "Points" and data["below"]["playoff"] is False


@pytest.mark.django_db
def test_placement_api_in_turkish_and_publish_gate():
    t = build()
    data = Client(HTTP_ACCEPT_LANGUAGE="tr").get(f"/api/tournaments/{t.slug}/standings/3/why/").json()
    assert data["below"]["decided_by"] == "Puan"
    hidden = build(published=False)
    assert Client().get(f"/api/tournaments/{hidden.slug}/standings/3/why/").status_code == 404
    assert Client().get(f"/api/tournaments/{t.slug}/standings/99/why/").status_code == 404
