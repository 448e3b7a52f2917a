"""Issue 25 (knockout): every knockout setting an organiser changes is in the tournament's history (API and
page); a knockout is created without a number of rounds (it follows from the bracket); a referee of another
tournament is told which one they referee; a knockout's own TRF export re-imports as the same knockout."""
from __future__ import annotations

import dataclasses
import html
import re

import pytest
from django.test import Client

from tests.factories import PlayerFactory, organiser
from tournaments import services
from tournaments.entries import services as entry_services
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


def _knockout(n: int = 4, **settings) -> tuple[Tournament, object]:
    org = organiser(username=f"ko2-{n}")
    t = services.tournament_create(name=f"Eleme Tarih {n}", system="knockout", created_by=org, **settings)
    for i in range(n):
        entry_services.entry_add(tournament=t, player=PlayerFactory(rating=2000 - 10 * i, last_name=f"Ko{i + 1:02d}"))
    return t, org


def test_knockout_settings_changes_are_in_the_history_api_and_page():
    t, org = _knockout(4, rounds_total=2, knockout_sets=[3, 3])
    services.tournament_update(tournament=t, user=org, knockout_sets="3, 5", reason="final of five sets")
    services.tournament_update(tournament=t, user=org, third_place_match=True)
    services.tournament_update(tournament=t, user=org, level_match_rule="deciders_then_seed", max_deciders=2)
    services.tournament_update(tournament=t, user=org, max_deciders=3)
    c = Client(HTTP_ACCEPT_LANGUAGE="en")
    c.force_login(org)
    items = c.get(f"/api/tournaments/{t.slug}/history/").json()
    edits = [i for i in items if i["action"] == "tournament.edit"]
    changed = [(i["before"], i["after"]) for i in reversed(edits)]
    assert changed == [
        ({"knockout_sets": [3, 3]}, {"knockout_sets": [3, 5]}),
        ({"third_place_match": False}, {"third_place_match": True}),
        ({"level_match_rule": "deciders", "max_deciders": 0},
         {"level_match_rule": "deciders_then_seed", "max_deciders": 2}),
        ({"max_deciders": 2}, {"max_deciders": 3}),
    ]
    assert all(i["user"] for i in edits) and all(i["at"] for i in edits)
    assert edits[-1]["reason"] == "final of five sets"
    for lang, words in (("en", ["sets per knockout round", "3, 5", "match for third place", "rule for a level match",
                                "decider sets before the higher seed advances",
                                "decider sets, then the higher seed"]),
                        ("tr", ["eleme turu başına set", "üçüncülük maçı", "berabere biten maç kuralı"])):
        c = Client(HTTP_ACCEPT_LANGUAGE=lang)
        c.force_login(org)
        page = c.get(f"/t/{t.slug}/history/").content.decode()
        text = html.unescape(re.sub(r"<[^>]+>", " ", page.split("<main", 1)[-1]))
        text = re.sub(r"\s+", " ", text)
        for word in words:
            assert word in text, (lang, word)
        assert "deciders_then_seed" not in text and "level_match_rule" not in text


def test_every_editable_tournament_setting_is_tracked_in_the_history():
    from tournaments.history import selectors as history

    shown = set(history._FIELDS["Tournament"])
    assert set(services.EDITABLE_SETTINGS) <= shown
    assert all(f in history.FIELD_LABELS for f in services.EDITABLE_SETTINGS)


# --------------------------------------------------------------------------------------------
# Creating a knockout: no number of rounds asked
# --------------------------------------------------------------------------------------------


def test_creating_a_knockout_derives_its_rounds_and_says_so(client):
    from django.contrib.messages import get_messages
    from django.urls import reverse
    from django.utils import translation

    org = organiser(username="ko2-create")
    client.force_login(org)
    client.defaults["HTTP_ACCEPT_LANGUAGE"] = "en"
    page = client.get(reverse("tournament-create")).content.decode()
    assert "A knockout needs none" in html.unescape(page)
    response = client.post(reverse("tournament-create"), {
        "name": "Tursuz Eleme", "system": "knockout", "rounds_total": "", "sets_per_match": 3, "variant": "federation",
        "knockout_sets": "3, 3, 5", "level_match_rule": "deciders", "tiebreak_1": "buchholz",
    })
    assert response.status_code == 302, response.content.decode()[:2000]
    t = Tournament.objects.get(name="Tursuz Eleme")
    assert (t.system, t.rounds_total) == ("knockout", 3)  # from the sets of its three rounds, until round 1
    with translation.override("en"):
        shown = [str(m) for m in get_messages(response.wsgi_request)]
    assert any("follows from the bracket" in m for m in shown), shown
    # a number given for a knockout is not taken: the bracket decides
    response = client.post(reverse("tournament-create"), {
        "name": "Sayili Eleme", "system": "knockout", "rounds_total": "7", "sets_per_match": 3,
        "variant": "federation", "level_match_rule": "deciders", "tiebreak_1": "buchholz",
    })
    assert response.status_code == 302
    assert Tournament.objects.get(name="Sayili Eleme").rounds_total == 1
    # a Swiss still needs its rounds
    response = client.post(reverse("tournament-create"), {
        "name": "Isvicre", "system": "swiss", "rounds_total": "", "sets_per_match": 3, "variant": "federation",
        "tiebreak_1": "buchholz",
    })
    assert response.status_code == 200 and not Tournament.objects.filter(name="Isvicre").exists()
    assert "Say how many rounds the tournament has." in html.unescape(response.content.decode())
    # the edit page of a knockout says where its rounds come from
    page = html.unescape(client.get(reverse("tournament-edit", args=[t.slug])).content.decode())
    assert "Follows from the bracket" in page


def test_creating_a_knockout_through_the_api_answers_the_rounds_of_its_bracket(client):
    org = organiser(username="ko2-api")
    client.force_login(org)
    response = client.post("/api/tournaments/", {"name": "API Tursuz", "system": "knockout", "rounds_total": 9,
                                                 "knockout_sets": [3, 5]}, content_type="application/json")
    assert response.status_code == 201, response.content
    assert response.json()["rounds_total"] == 2  # from its sets per round, until round 1 is paired
    # the service needs none for a knockout, and says so for a Swiss
    assert services.tournament_create(name="Servis Eleme", system="knockout").rounds_total == 1
    from federation.errors import ValidationFailed

    with pytest.raises(ValidationFailed) as exc:
        services.tournament_create(name="Servis Isvicre")
    assert exc.value.field == "rounds_total"


# --------------------------------------------------------------------------------------------
# A referee of another tournament
# --------------------------------------------------------------------------------------------


def test_a_referee_of_another_tournament_is_told_which_one_they_referee(client):
    from django.contrib.auth import get_user_model
    from django.urls import reverse

    from federation.errors import PermissionDenied
    from tournaments.models import Match, TournamentRole
    from tournaments.results import services as result_services
    from tournaments.results.services import SetInput
    from tournaments.rounds import services as round_services

    t, org = _knockout(4)
    other = services.tournament_create(name="Komşu Turnuva", rounds_total=3, created_by=org)
    ref = get_user_model().objects.create_user(username="hakem-baska")
    TournamentRole.objects.create(tournament=other, user=ref, role=TournamentRole.Role.REFEREE)
    rnd = round_services.round_pair(tournament=t, user=org, coin_seed="r")
    round_services.round_publish(round=rnd, user=org)
    m = Match.objects.filter(round=rnd, kind="game").first()
    from django.utils import translation

    with translation.override("en"):
        with pytest.raises(PermissionDenied) as exc:
            result_services.match_result_enter(match=m, sets=[SetInput(30, 18)] * 2, user=ref)
    assert "“Komşu Turnuva”" in str(exc.value.message) and t.name in str(exc.value.message)
    client.force_login(ref)
    client.defaults["HTTP_ACCEPT_LANGUAGE"] = "en"
    page = html.unescape(client.get(reverse("match-result", args=[t.slug, 1, m.board])).content.decode())
    assert "You referee “Komşu Turnuva”" in page
    response = client.post(f"/api/tournaments/{t.slug}/rounds/1/boards/{m.board}/result/",
                           {"sets": [{"white_store": 30, "black_store": 18}]}, content_type="application/json")
    assert response.status_code == 403 and "Komşu Turnuva" in response.json()["error"]["message"]
    # someone who referees nothing reads the old message
    nobody = get_user_model().objects.create_user(username="kimse")
    with translation.override("en"):
        with pytest.raises(PermissionDenied) as exc:
            result_services.match_result_enter(match=m, sets=[SetInput(30, 18)] * 2, user=nobody)
    assert str(exc.value.message) == "Only referees and organisers can enter results."


# --------------------------------------------------------------------------------------------
# A knockout's own TRF export re-imports as the same knockout
# --------------------------------------------------------------------------------------------


def _played_knockout():
    """Five players (three byes in round 1), sets 3 then 5, a match for third place, a level match settled by
    decider sets, a set a player withdrew from, and a forfeit in the match for third place; every round closed."""
    from tournaments.models import Match
    from tournaments.results import services as result_services
    from tournaments.results.services import SetInput
    from tournaments.rounds import services as round_services

    t, org = _knockout(5, knockout_sets=[3, 3, 5], third_place_match=True, level_match_rule="deciders_then_seed",
                       max_deciders=2)
    for number in (1, 2, 3):
        rnd = round_services.round_pair(tournament=t, user=org, coin_seed=f"trf-{number}")
        round_services.round_publish(round=rnd, user=org)
        t.refresh_from_db()
        for m in rnd.matches.filter(kind="game").select_related("white", "black").order_by("board"):
            n = 3 if number < 3 else 5
            top_white = m.white.start_no < m.black.start_no
            win = SetInput(30, 18) if top_white else SetInput(18, 30)
            if m.third_place:
                result_services.match_result_enter(match=m, forfeit="white", user=org)
            elif number == 1:  # level after 3 sets, then a won decider
                result_services.match_result_enter(
                    match=m, sets=[SetInput(24, 24), SetInput(9, 31, "white_withdrew"), SetInput(31, 17)],
                    user=org, decider_starter="black")
                m.refresh_from_db()
                result_services.match_result_enter(
                    match=m, sets=[SetInput(24, 24), SetInput(9, 31, "white_withdrew"), SetInput(31, 17), win],
                    user=org, expected_version=m.version)
            else:
                result_services.match_result_enter(match=m, sets=[win] * (n // 2 + 1), user=org)
        round_services.round_close(round=rnd, user=org)
    t.refresh_from_db()
    assert Match.objects.filter(round__tournament=t, decided_by="deciders").exists()
    return t, org


def _picture(t: Tournament) -> dict:
    from tournaments.models import Match

    boards = []
    for m in Match.objects.filter(round__tournament=t).select_related("round", "white", "black").order_by(
            "round__number", "board"):
        boards.append((
            m.round.number, m.board, m.kind, m.bye_kind, m.white.start_no, m.black.start_no if m.black_id else None,
            m.forfeit, m.white_points, m.black_points, m.third_place, m.decided_by, m.decider_starter,
            [(s.number, s.starter, s.white_stones, s.black_stones, s.termination, s.white_store, s.black_store)
             for s in m.sets.order_by("number")],
        ))
    return {"system": t.system, "rounds_total": t.rounds_total, "sets_per_match": t.sets_per_match,
            "knockout_sets": t.knockout_sets, "third_place_match": t.third_place_match,
            "level_match_rule": t.level_match_rule, "max_deciders": t.max_deciders, "boards": boards,
            "withdrawn": sorted(e.start_no for e in t.entries.filter(withdrawn=True))}


def test_a_knockouts_own_trf_export_reimports_as_the_same_knockout():
    from tournaments.invariants import check_tournament
    from tournaments.knockout import selectors as knockout_selectors
    from tournaments.knockout.selectors import ranking_as_dicts
    from tournaments.trf.selectors import tournament_export_trf
    from tournaments.trf.services import tournament_import_trf

    t, org = _played_knockout()
    text = tournament_export_trf(tournament=t)
    assert "\nXXK sets=3,3,5 third=1 level=deciders_then_seed deciders=2 spm=3\n" in text
    assert "XXM " in text
    report = tournament_import_trf(data=text, user=org, name="Eleme geri")
    back = report.tournament
    back.refresh_from_db()
    assert _picture(back) == _picture(t)
    assert check_tournament(back) == []

    def drawn(tournament):  # the bracket as the organisers see it (every round, slot, player, set, the ranking)
        bracket = knockout_selectors.knockout_bracket(tournament=tournament, public_only=False)
        def plain(value):  # a player by their seed and name (the import makes new entries)
            if isinstance(value, dict):
                if "entry_id" in value:
                    return (value["seed"], value["name"])
                return {k: plain(v) for k, v in value.items() if k != "tournament_id"}
            if isinstance(value, (list, tuple)):
                return [plain(v) for v in value]
            return value

        return plain(dataclasses.asdict(bracket)), plain(ranking_as_dicts(bracket))

    assert drawn(back) == drawn(t)
    # the file the import makes again is the same file
    again = tournament_export_trf(tournament=back, personal=True)
    assert again.replace("Eleme geri", t.name).splitlines()[1:] == text.splitlines()[1:]


def test_a_created_swiss_lists_no_knockout_setting_in_its_history_and_a_knockout_lists_its_own():
    from tournaments.history import selectors as history

    org = organiser(username="ko2-swiss")
    swiss = services.tournament_create(name="Isvicre Tarih", rounds_total=5, created_by=org)
    created = history.tournament_history(tournament=swiss)[-1].as_dict()
    assert created["action"] == "tournament.create" and "knockout_sets" not in created["after"]
    assert "format" not in created["after"] and created["after"]["rounds_total"] == 5
    t, _org = _knockout(2, knockout_sets=[5], third_place_match=False)
    created = history.tournament_history(tournament=t)[-1].as_dict()
    assert created["after"]["knockout_sets"] == [5] and created["after"]["third_place_match"] is False


def test_a_knockouts_trf_imported_as_another_system_says_its_bracket_lines_are_not_kept():
    from django.utils import translation

    from tournaments.trf.selectors import tournament_export_trf
    from tournaments.trf.services import tournament_import_trf

    t, org = _played_knockout()
    text = tournament_export_trf(tournament=t)
    with translation.override("en"):
        report = tournament_import_trf(data=text, user=org, name="Isvicre gibi", system="swiss", dry_run=True)
    assert any("(XXK, XXM) are not kept" in n for n in report.notes), report.notes


def test_a_knockout_trf_whose_boards_disagree_with_the_player_lines_is_refused():
    from federation.errors import ValidationFailed
    from tournaments.trf.selectors import tournament_export_trf
    from tournaments.trf.services import tournament_import_trf

    t, org = _played_knockout()
    lines = tournament_export_trf(tournament=t).splitlines()
    i = next(k for k, x in enumerate(lines) if x.startswith("XXM   2    1"))
    lines[i] = lines[i][:13] + "   5" + lines[i][17:]  # another white than the player lines say
    with pytest.raises(ValidationFailed) as exc:
        tournament_import_trf(data="\n".join(lines) + "\n", user=org, name="Bozuk")
    assert "XXM" in str(exc.value.message) and exc.value.field == "file"
    assert not Tournament.objects.filter(name="Bozuk").exists()
