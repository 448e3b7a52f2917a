"""Starting numbers of players (and teams) level on rating follow the Turkish alphabet (issue 25)."""
from __future__ import annotations

import pytest

from tests.factories import PlayerFactory, organiser
from tournaments import services
from tournaments.entries import services as entry_services

pytestmark = pytest.mark.django_db

# code-point order would give Yıldız, Çelik, Öztürk, Şahin (ASCII Y < the Turkish letters)
NAMES = ["Şahin", "Yıldız", "Öztürk", "Çelik", "Işık", "İnce", "Cengiz"]
TURKISH = ["Cengiz", "Çelik", "Işık", "İnce", "Öztürk", "Şahin", "Yıldız"]


def test_starting_numbers_of_unrated_players_follow_turkish_alphabetical_order():
    t = services.tournament_create(name="Sıralama Kupası", rounds_total=3, created_by=organiser(username="sn-org"))
    for last in NAMES:
        entry_services.entry_add(tournament=t, player=PlayerFactory(last_name=last, first_name="Ali", rating=0))
    entry_services.entry_add(tournament=t, player=PlayerFactory(last_name="Zeybek", first_name="Ali", rating=1600))
    order = list(t.entries.order_by("start_no").values_list("player__last_name", flat=True))
    assert order == ["Zeybek", *TURKISH]


def test_starting_numbers_use_the_first_name_in_turkish_order_when_last_names_are_equal():
    t = services.tournament_create(name="Ad Kupası", rounds_total=3, created_by=organiser(username="sn-org2"))
    for first in ("Zeki", "Çağrı", "Ömer", "Can"):
        entry_services.entry_add(tournament=t, player=PlayerFactory(last_name="Kaya", first_name=first, rating=0))
    order = list(t.entries.order_by("start_no").values_list("player__first_name", flat=True))
    assert order == ["Can", "Çağrı", "Ömer", "Zeki"]


def test_team_starting_numbers_level_on_rating_follow_turkish_alphabetical_order():
    from tournaments.teams import services as teams

    org = organiser(username="sn-org3")
    t = teams.team_tournament_create(name="Takım Sıralaması", rounds_total=3, boards_per_team=1, created_by=org)
    for name in ("Yıldızspor", "Çelikspor", "Öztürkspor", "Şahinspor"):
        team = teams.team_create(tournament=t, name=name, user=org)
        teams.team_member_add(team=team, player=PlayerFactory(rating=0), user=org)
    teams.team_seeds_sort(tournament=t, user=org)
    assert list(t.teams.order_by("seed_no").values_list("name", flat=True)) == [
        "Çelikspor", "Öztürkspor", "Şahinspor", "Yıldızspor"]
