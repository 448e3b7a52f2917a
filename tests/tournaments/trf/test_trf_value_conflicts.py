"""A stored player whose sex or birth year differs from the file: a conflict the organiser confirms in the
preview (keep the stored values, take the file's, or a new player); without a choice nothing is imported."""
from __future__ import annotations

import json

import pytest

from federation.models import Player
from tests.tournaments.trf.test_trf_trial import OPTIONS, _api, _file, _import, _page, _player, _upload
from tournaments.models import Tournament
from tournaments.trf.players import PlayerConflicts

pytestmark = pytest.mark.django_db

# line 3: the FIDE id of a stored player with the same name and birth year but another sex
SEX = _file(_player(1, "Öztürk, Elif", "1.0", "   2 w 1", sex="w", fide="90011", birth="1998"),
            _player(2, "Başka, Biri", "0.0", "   1 b 0", sex="m", fide="90012"), "XXR 1")


@pytest.fixture
def stored():
    return Player.objects.create(federation_id="90011", last_name="Öztürk", first_name="Elif", birth_year=1998,
                                 sex="m")


def test_a_stored_player_with_another_sex_is_refused_naming_the_line_and_field(stored):
    with pytest.raises(PlayerConflicts) as err:
        _import(SEX)
    assert err.value.field == "player_values"
    assert "line 3: 90011: sex female (stored: male)" in err.value.message
    assert not Tournament.objects.filter(name="Deneme Turnuvası").exists()


def test_a_chosen_player_with_another_birth_year_is_refused_naming_the_line_and_field():
    Player.objects.create(federation_id="F-5", last_name="Kaya", first_name="Ali", birth_year=1990, sex="m")
    text = _file(_player(1, "Kaya, Ali", "1.0", "   2 w 1", sex="m", birth="1991"),
                 _player(2, "Başka, Biri", "0.0", "   1 b 0"), "XXR 1")
    with pytest.raises(PlayerConflicts) as err:
        _import(text, player_matches={1: "F-5"})
    assert err.value.field == "player_values" and "line 3: F-5: birth year 1991 (stored: 1990)" in err.value.message
    report = _import(text, player_matches={1: "F-5"}, player_values={1: "stored"})
    assert report.tournament.entries.get(start_no=1).player.birth_year == 1990


def test_the_preview_lists_a_differing_sex_for_a_choice(stored):
    report = _import(SEX, dry_run=True)
    assert [(c.start_no, c.differs) for c in report.differing] == [(1, "line 3: 90011: sex female (stored: male)")]
    assert report.players[0].as_dict()["differs"] == "line 3: 90011: sex female (stored: male)"


def test_keep_the_stored_values_when_chosen(stored):
    report = _import(SEX, player_values={1: "stored"})
    assert report.tournament.entries.get(start_no=1).player == stored
    stored.refresh_from_db()
    assert stored.sex == "m"


def test_take_the_files_values_when_chosen(stored):
    report = _import(SEX, player_values={1: "file"})
    assert report.tournament.entries.get(start_no=1).player == stored
    stored.refresh_from_db()
    assert stored.sex == "f"
    assert "line 3: 90011: sex female (stored: male): the file's values are taken, as chosen" in report.notes


def test_a_new_player_when_chosen(stored):
    report = _import(SEX, player_values={1: "new"})
    player = report.tournament.entries.get(start_no=1).player
    assert player != stored and player.sex == "f" and player.federation_id.startswith("T")
    stored.refresh_from_db()
    assert stored.sex == "m"


def test_the_page_asks_for_the_choice_and_imports_once_chosen(stored):
    client = _page()
    r = client.post("/t/import/", {"file": _upload(SEX, "sex.trf"), **OPTIONS})
    html = r.content.decode()
    assert r.status_code == 200 and 'data-testid="import-differing"' in html
    assert 'name="value_1" value="file"' in html and "line 3: 90011: sex female (stored: male)" in html
    token = r.context["form"].data["upload"]
    r = client.post("/t/import/", {"upload": token, "preview": "1", "value_1": "file", **OPTIONS})
    assert 'name="value_1" value="file" checked' in r.content.decode()
    r = client.post("/t/import/", {"upload": token, "value_1": "file", **OPTIONS})
    assert r.status_code == 302
    stored.refresh_from_db()
    assert stored.sex == "f"


def test_the_api_refuses_lists_and_takes_player_values(stored):
    r = _api().post("/api/tournaments/import-trf/", {"file": _upload(SEX)}, format="multipart")
    assert r.status_code == 400 and r.json()["error"]["field"] == "player_values"
    r = _api().post("/api/tournaments/import-trf/", {"file": _upload(SEX), "dry_run": "true"}, format="multipart")
    assert r.status_code == 200
    assert r.json()["players"][0]["differs"] == "line 3: 90011: sex female (stored: male)"
    r = _api().post("/api/tournaments/import-trf/", {"file": _upload(SEX), "player_values": json.dumps({"1": "stored"})},
                    format="multipart")
    assert r.status_code == 201


def test_the_notes_after_an_import_are_a_link_to_the_imports_page(stored):
    client = _page()
    r = client.post("/t/import/", {"file": _upload(SEX, "sex.trf"), "value_1": "stored", **OPTIONS}, follow=True)
    shown = [str(m) for m in r.context["messages"]]
    assert len(shown) == 1 and shown[0].startswith("Imported Deneme Turnuvası. <a href=\"/t/import/")
    assert 'data-testid="import-notes-link"' in r.content.decode()
    link = shown[0].split('href="')[1].split('"')[0]
    page = client.get(link).content.decode()
    assert "line 3: the file differs from the stored player 90011: sex female (stored: male)" in page
