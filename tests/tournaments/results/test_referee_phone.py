"""The referee's phone (issue 11): a refused save names its set in a summary and marks that set's
fields; the stores are labelled with the players' names in the order each set is played; the
referee's home lists the current round's boards of the tournaments they referee (and only those)."""
from __future__ import annotations

import re

import pytest
from django.test import Client

from tests.factories import PASSWORD, PlayerFactory, TournamentRoleFactory, UserFactory, organiser
from tournaments import services
from tournaments.entries import services as entry_services
from tournaments.results import services as result_services
from tournaments.rounds import services as round_services
from tournaments.models import Match, TournamentRole

pytestmark = pytest.mark.django_db


def _client(user, lang: str = "en") -> Client:
    c = Client(HTTP_ACCEPT_LANGUAGE=lang)
    assert c.login(username=user.username, password=PASSWORD)
    return c


def _event(org, name: str, *, publish: bool = True, players=(("Ayşe", "Kılıç"), ("Burak", "Ateş"),
                                                             ("Cem", "Demir"), ("Derya", "Er"))):
    t = services.tournament_create(name=name, rounds_total=3, created_by=org)
    for i, (first, last) in enumerate(players):
        entry_services.entry_add(tournament=t, player=PlayerFactory(first_name=first, last_name=last, rating=1900 - 100 * i))
    rnd = round_services.round_pair(tournament=t, user=org, coin_seed="seed")
    if publish:
        round_services.round_publish(round=rnd, user=org)
    return t, rnd


@pytest.fixture
def org():
    return organiser(username="orga")


@pytest.fixture
def hakem():
    """A referee of one tournament only (a per-tournament role, no global group)."""
    return UserFactory(username="hakem")


def _board1(t) -> Match:
    return Match.objects.select_related("white__player", "black__player").get(round__tournament=t, board=1)


def _post(t, board: int, sets, **extra) -> dict:
    data = {"forfeit": ""}
    for n, (w, b) in enumerate(sets, 1):
        data.update({f"set{n}_white": w, f"set{n}_black": b, f"set{n}_termination": "completed"})
    data.update(extra)
    return data


def _input(page: str, name: str) -> str:
    found = re.search(rf'<input[^>]*name="{name}"[^>]*>', page)
    assert found, name
    return found.group(0)


def test_store_labels_name_the_players_in_the_order_each_set_is_played(org, hakem):
    t, _rnd = _event(org, "Etiketler")
    TournamentRoleFactory(tournament=t, user=hakem, role=TournamentRole.Role.REFEREE)
    m = _board1(t)
    white = f"{m.white.player.first_name} {m.white.player.last_name}"
    black = f"{m.black.player.first_name} {m.black.player.last_name}"
    page = _client(hakem).get(f"/t/{t.slug}/round/1/board/1/").content.decode()
    sets = re.findall(r'<fieldset class="set[^"]*" data-set="(\d)">(.*?)</fieldset>', page, re.S)
    assert [n for n, _ in sets] == ["1", "2", "3"]
    for n, body in sets:
        starter, other = (white, black) if int(n) % 2 else (black, white)  # white starts odd sets
        colours = ("white", "black") if int(n) % 2 else ("black", "white")
        first_name, second_name = (f"set{n}_{c}" for c in colours)
        assert f"{starter} (starts) — stones" in body and f"{other} — stones" in body
        assert f"{other} (starts)" not in body
        # the starter's store comes first, as the set is played
        assert body.index(f"{starter} (starts)") < body.index(f'name="{first_name}"') < body.index(f"{other} — stones")
        assert body.index(f"{other} — stones") < body.index(f'name="{second_name}"')


def test_refusal_in_set_3_is_summarised_at_the_top_and_marks_set_3(org, hakem):
    t, _rnd = _event(org, "Ret")
    TournamentRoleFactory(tournament=t, user=hakem, role=TournamentRole.Role.REFEREE)
    c = _client(hakem)
    r = c.post(f"/t/{t.slug}/round/1/board/1/", _post(t, 1, [(30, 18), (18, 30), (30, 20)]))
    assert r.status_code == 200
    page = r.content.decode()
    summary = re.search(r'<div class="error error-summary" id="result-errors" role="alert"([^>]*)>(.*?)</div>',
                        page, re.S)
    assert summary, "no error summary"
    assert "data-focus-on-load" in summary.group(1) and 'tabindex="-1"' in summary.group(1)
    # above the first set, naming set 3 and linking to its first store (white's: white starts set 3)
    assert summary.start() < page.index('data-set="1"')
    text = summary.group(2)
    assert 'href="#id_set3_white"' in text and "Set 3" in text and "50" in text
    for name in ("set3_white", "set3_black"):
        tag = _input(page, name)
        assert 'aria-invalid="true"' in tag and 'aria-describedby="set3-errors"' in tag
    for name in ("set1_white", "set1_black", "set2_white", "set2_black"):
        assert "aria-invalid" not in _input(page, name)
    assert 'id="set3-errors"' in page
    assert _board1(t).result_entered_at is None  # nothing saved


def test_a_set_after_the_deciding_one_is_refused_on_that_set(org, hakem):
    t, _rnd = _event(org, "Karar")
    TournamentRoleFactory(tournament=t, user=hakem, role=TournamentRole.Role.REFEREE)
    r = _client(hakem).post(f"/t/{t.slug}/round/1/board/1/", _post(t, 1, [(30, 18), (30, 18), (18, 30)]))
    page = r.content.decode()
    assert 'aria-invalid="true"' in _input(page, "set3_white")
    assert "aria-invalid" not in _input(page, "set1_white")
    assert 'href="#id_set3_white"' in page and "decided after set 2" in page


def test_form_errors_name_their_set_in_the_summary(org, hakem):
    t, _rnd = _event(org, "Form")
    TournamentRoleFactory(tournament=t, user=hakem, role=TournamentRole.Role.REFEREE)
    data = _post(t, 1, [(30, 18)])
    data.update({"set2_white": "26", "set2_black": ""})
    page = _client(hakem).post(f"/t/{t.slug}/round/1/board/1/", data).content.decode()
    summary = re.search(r'id="result-errors"(.*?)</div>', page, re.S).group(1)
    assert "Set 2: Enter both stores." in summary and 'href="#id_set2_black"' in summary
    assert 'aria-invalid="true"' in _input(page, "set2_black")


def test_a_stale_version_is_summarised_without_a_set(org, hakem):
    t, _rnd = _event(org, "Sürüm")
    TournamentRoleFactory(tournament=t, user=hakem, role=TournamentRole.Role.REFEREE)
    m = _board1(t)
    result_services.match_result_enter(match=m, sets=[result_services.SetInput(30, 18), result_services.SetInput(30, 18)], user=org)
    data = _post(t, 1, [(18, 30), (18, 30)], version=m.version)  # the version before the organiser's save
    page = _client(hakem).post(f"/t/{t.slug}/round/1/board/1/", data).content.decode()
    summary = re.search(r'id="result-errors"(.*?)</div>', page, re.S).group(1)
    assert "Someone else changed this result meanwhile" in summary


def test_a_saved_result_from_the_referee_home_goes_back_there(org, hakem):
    t, _rnd = _event(org, "Dönüş")
    TournamentRoleFactory(tournament=t, user=hakem, role=TournamentRole.Role.REFEREE)
    r = _client(hakem).post(f"/t/{t.slug}/round/1/board/1/", _post(t, 1, [(30, 18), (30, 18)], **{"from": "referee"}))
    assert r.status_code == 302 and r["Location"] == "/referee/"
    assert _board1(t).white_points == 1


def test_no_form_for_a_round_not_yet_published(org, hakem):
    t, _rnd = _event(org, "Taslak", publish=False)
    TournamentRoleFactory(tournament=t, user=hakem, role=TournamentRole.Role.REFEREE)
    r = _client(hakem).get(f"/t/{t.slug}/round/1/board/1/")
    assert r.status_code == 302 and r["Location"] == f"/t/{t.slug}/round/1/"


def test_referee_home_lists_only_their_tournaments_current_round(org, hakem, django_assert_max_num_queries):
    mine, _ = _event(org, "Benim Turnuvam")
    other, _ = _event(org, "Başkasının Turnuvası")
    waiting, _ = _event(org, "Yayımlanmamış", publish=False)
    for t in (mine, waiting):
        TournamentRoleFactory(tournament=t, user=hakem, role=TournamentRole.Role.REFEREE)
    m = _board1(mine)
    result_services.match_result_enter(match=m, sets=[result_services.SetInput(30, 18), result_services.SetInput(30, 18)], user=org)
    c = _client(hakem)
    page = c.get("/referee/").content.decode()
    assert "Benim Turnuvam" in page and "Yayımlanmamış" in page
    assert "Başkasının Turnuvası" not in page
    assert "1 of 2 results entered" in page
    section = page[page.index('data-tournament="' + mine.slug):]
    section = section[:section.index("</section>")]
    assert f'href="/t/{mine.slug}/round/1/board/1/?from=referee"' in section
    assert f'href="/t/{mine.slug}/round/1/board/2/?from=referee"' in section
    assert re.search(r'data-board="1">.*?1 – 0', section, re.S)
    assert re.search(r'data-board="2">.*?No result', section, re.S)
    waiting_section = page[page.index('data-tournament="' + waiting.slug):]
    waiting_section = waiting_section[:waiting_section.index("</section>")]
    assert "not published yet" in waiting_section and "/board/" not in waiting_section  # no form offered
    # the home page (where login lands) shows the boards being played too
    home = c.get("/").content.decode()
    assert f'/t/{mine.slug}/round/1/board/2/?from=referee' in home and f"/t/{waiting.slug}/round/1/board/" not in home
    # a fixed number of queries, however many boards
    with django_assert_max_num_queries(12):
        c.get("/referee/")


def test_referee_home_query_count_does_not_grow_with_boards(org, hakem, django_assert_max_num_queries):
    players = [(f"Ad{i}", f"Soyad{i}") for i in range(16)]
    for k in range(3):
        t, _ = _event(org, f"Büyük {k}", players=players)
        TournamentRoleFactory(tournament=t, user=hakem, role=TournamentRole.Role.REFEREE)
    c = _client(hakem)
    with django_assert_max_num_queries(12):
        page = c.get("/referee/").content.decode()
    assert page.count("?from=referee") == 3 * 8


def test_staff_see_every_tournament_in_play_and_strangers_none(org):
    t, _ = _event(org, "Herkesin")
    staff = UserFactory(username="personel", is_staff=True)
    assert "Herkesin" in _client(staff).get("/referee/").content.decode()
    stranger = UserFactory(username="yabanci")
    page = _client(stranger).get("/referee/").content.decode()
    assert "Herkesin" not in page and "You referee no tournament in play." in page
    assert _client(stranger).get("/").status_code == 200
    assert Client().get("/referee/").status_code == 302  # login first


def test_a_conflict_shows_what_was_saved_by_whom_and_when_and_keeps_my_numbers(org, hakem):
    """Someone else saved meanwhile: the summary shows their sets, who and when (Istanbul time), offers
    "keep theirs" (reload) and "enter mine again"; the form keeps my stores and the current version, so
    a second submit overwrites deliberately."""
    import datetime as dt

    t, _rnd = _event(org, "Çakışma")
    TournamentRoleFactory(tournament=t, user=hakem, role=TournamentRole.Role.REFEREE)
    org.first_name, org.last_name = "Oya", "Başhakem"
    org.save()
    m = _board1(t)
    seen = m.version
    result_services.match_result_enter(match=m, sets=[result_services.SetInput(30, 18), result_services.SetInput(28, 20)], user=org)
    Match.objects.filter(pk=m.pk).update(result_entered_at=dt.datetime(2026, 5, 1, 11, 7, tzinfo=dt.timezone.utc))
    current = Match.objects.get(pk=m.pk).version
    c = _client(hakem)
    data = _post(t, 1, [(18, 30), (18, 30)], version=seen, **{"from": "referee"})
    page = c.post(f"/t/{t.slug}/round/1/board/1/", data).content.decode()
    summary = re.search(r'id="result-errors"(.*?)</form>', page, re.S).group(1)
    assert "30–18, 28–20" in summary and "Oya Başhakem" in summary
    assert "14:07" in summary  # 11:07 UTC is 14:07 in Istanbul
    assert "Keep theirs" in summary and f'href="/t/{t.slug}/round/1/board/1/?from=referee"' in summary
    assert "Enter mine again" in summary
    assert 'value="18"' in _input(page, "set1_white") and 'value="30"' in _input(page, "set1_black")
    assert f'value="{current}"' in _input(page, "version")
    # the second submit, with the version the form now carries, overwrites on purpose
    data["version"] = current
    r = c.post(f"/t/{t.slug}/round/1/board/1/", data)
    assert r.status_code == 302
    assert _board1(t).black_points == 1


def test_a_board_with_a_result_says_who_entered_it_and_when(org, hakem):
    import datetime as dt

    t, _rnd = _event(org, "Not")
    TournamentRoleFactory(tournament=t, user=hakem, role=TournamentRole.Role.REFEREE)
    org.first_name, org.last_name = "Oya", "Başhakem"
    org.save()
    c = _client(hakem)
    assert "Result entered by" not in c.get(f"/t/{t.slug}/round/1/board/1/").content.decode()
    m = _board1(t)
    result_services.match_result_enter(match=m, sets=[result_services.SetInput(30, 18), result_services.SetInput(28, 20)], user=org)
    Match.objects.filter(pk=m.pk).update(result_entered_at=dt.datetime(2026, 5, 1, 21, 30, tzinfo=dt.timezone.utc))
    page = c.get(f"/t/{t.slug}/round/1/board/1/").content.decode()
    note = re.search(r'<p class="note result-entered">(.*?)</p>', page, re.S)
    assert note and note.start() < page.index('<form method="post" class="result-form"')
    assert note.group(1) == "Result entered by Oya Başhakem at 00:30"


def test_referee_board_names_wrap_instead_of_an_ellipsis():
    from pathlib import Path

    css = (Path(__file__).resolve().parents[3] / "static/css/site.css").read_text()
    rule = re.search(r"\.board-link \.names span \{([^}]*)\}", css).group(1)
    assert "ellipsis" not in rule and "nowrap" not in rule and "line-clamp:2" in rule
