"""Turkish first, for real: crosstable colour letters per language, one number and one date format,
error pages and refusals in the user's language that name the real problem (never a constraint name).

The suite's default language is Turkish; English is asserted under ``Accept-Language: en`` or
``translation.override("en")``. Turkish checks here do not depend on new catalogue entries (letters,
decimal comma, month names, status codes, no English/technical text).
"""
from __future__ import annotations

import datetime as dt
import random
import re
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest
from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.db import IntegrityError, transaction
from django.template.loader import render_to_string
from django.test import Client, override_settings
from django.urls import path
from django.utils import translation
from rest_framework.test import APIClient

from federation import formatting
from federation.errors import ValidationFailed, integrity_error_message, validation_error_message
from federation.sample_data import play_set
from tests.factories import PlayerFactory, organiser
from tournaments import services
from tournaments.entries import services as entry_services
from tournaments.results import services as result_services
from tournaments.rounds import services as round_services
from tournaments.models import SetResult
from tournaments.selectors import tournament_crosstable
from tournaments.results.services import SetInput

pytestmark = pytest.mark.django_db
REPO = Path(__file__).resolve().parents[2]


# --------------------------------------------------------------------------------------------
# Crosstable colour letters: B = beyaz, S = siyah in Turkish; W = white, B = black in English
# --------------------------------------------------------------------------------------------


def test_colour_letter_helper():
    assert [formatting.colour_letter(c, lang="tr") for c in ("w", "b", "white", "black", None)] == ["B", "S", "B", "S", ""]
    assert [formatting.colour_letter(c, lang="en") for c in ("w", "b")] == ["W", "B"]
    with translation.override("tr"):
        assert formatting.colour_letter("w") == "B"
    with translation.override("en"):
        assert formatting.colour_letter("b") == "B"


def test_crosstable_cells_use_the_letters_of_the_language(completed_tournament):
    tr = [c.text for row in tournament_crosstable(tournament=completed_tournament, lang="tr").rows for c in row.cells]
    en = [c.text for row in tournament_crosstable(tournament=completed_tournament, lang="en").rows for c in row.cells]
    assert all(re.fullmatch(r"\d+[BS](1|0|½|\+|-)", t) for t in tr), tr
    assert all(re.fullmatch(r"\d+[WB](1|0|½|\+|-)", t) for t in en), en
    assert any("S" in t for t in tr) and not any("W" in t for t in tr)
    # the same cell: Turkish B (beyaz) is English W (white), Turkish S (siyah) English B (black)
    assert [t.replace("B", "W").replace("S", "B") for t in tr] == en


def test_crosstable_page_and_pdf_legend_say_which_letter_is_which(completed_tournament):
    slug = completed_tournament.slug
    tr = Client(HTTP_ACCEPT_LANGUAGE="tr").get(f"/t/{slug}/crosstable/").content.decode()
    assert "B = " in tr and "S = " in tr and "w = white" not in tr
    assert re.search(r'<td class="cell">\d+S', tr)
    en = Client(HTTP_ACCEPT_LANGUAGE="en").get(f"/t/{slug}/crosstable/").content.decode()
    assert "W = white, B = black" in en and re.search(r'<td class="cell">\d+W', en)
    from tournaments.paper.crosstable import crosstable_pdf_context, crosstable_pdf_html

    for lang, letters in (("tr", "BS"), ("en", "WB")):
        html = crosstable_pdf_html(crosstable_pdf_context(tournament=completed_tournament, lang=lang), lang=lang)
        assert f"{letters[0]} = " in html and f"{letters[1]} = " in html
        # the PDF has one right-to-left cell for a row's rounds, each text between LEFT-TO-RIGHT MARKs
        assert re.search(rf'<td class="cols rounds"[^>]*>[^<]*\u200e\d+[{letters}]', html)


# --------------------------------------------------------------------------------------------
# One number format, one date format per language
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("value, places, tr, en", [
    (2.5, 2, "2,5", "2.5"), (2.50, 2, "2,5", "2.5"), (3.0, 2, "3", "3"), (12.25, 2, "12,25", "12.25"),
    (1.5, 1, "1,5", "1.5"), (0.0, 2, "0", "0"), (-0.0, 2, "0", "0"), (1712.349, 1, "1712,3", "1712.3"),
    (None, 2, "", ""), ("", 2, "", ""),
])
def test_number_format(value, places, tr, en):
    assert formatting.number(value, places, lang="tr") == tr
    assert formatting.number(value, places, lang="en") == en


def test_points_signed_and_stone_margin():
    assert formatting.points(2.5, lang="tr") == "2,5" and formatting.points(3, lang="tr") == "3"
    assert formatting.signed(12.3, lang="tr") == "+12,3" and formatting.signed(-4, lang="en") == "−4"
    assert formatting.signed(0, lang="en") == "0"
    with translation.override("en"):
        assert [formatting.stone_margin(n) for n in (2, 1, -12, 0)] == ["+2 stones", "+1 stone", "−12 stones", "0 stones"]
    assert formatting.stone_margin(None) == ""


def test_one_date_format_per_language():
    d = dt.date(2026, 12, 1)
    assert formatting.day(d, lang="tr") == "1 Aralık 2026"
    assert formatting.day(d, lang="en") == "1 Dec 2026"
    at = dt.datetime(2026, 12, 1, 11, 5, tzinfo=dt.timezone.utc)  # 14:05 in Istanbul
    assert formatting.moment(at, lang="tr") == "1 Aralık 2026 14:05"
    assert formatting.moment(at, lang="en") == "1 Dec 2026 14:05"
    with translation.override("tr"):
        html = render_to_string("tournaments/crosstable_pdf.html", {
            "table": SimpleNamespace(standings=SimpleNamespace(rounds=0, tiebreak_labels=(), tiebreak_rules="2023"),
                                     rows=(), round_numbers=()),
            "t": SimpleNamespace(name="X", city="İzmir", start_date=d, end_date=dt.date(2026, 12, 3),
                                 get_system_display="İsviçre", chief_arbiter=""),
            "generated_at": at,
        })
    assert "1 Aralık 2026 – 3 Aralık 2026" in html and "1 Aralık 2026 14:05" in html


def test_standings_page_writes_tiebreaks_without_trailing_zeros(completed_tournament):
    html = Client(HTTP_ACCEPT_LANGUAGE="tr").get(f"/t/{completed_tournament.slug}/standings/").content.decode()
    cells = re.findall(r'<td class="num">([^<]*)</td>', html)
    assert cells and not [c for c in cells if re.fullmatch(r"-?\d+[,.]\d*0", c)], cells  # never 2,50
    assert not [c for c in cells if re.fullmatch(r"-?\d+\.\d+", c)], cells  # Turkish decimal comma
    assert re.search(r"<strong>\d+(,5)?</strong>", html)


def test_rating_chart_time_axis_follows_the_dates():
    from ratings.charts import history_chart

    def h(before, after, when):
        return SimpleNamespace(rating_before=before, rating_after=after, status_before="established",
                               status_after="established", period=when, tournament=SimpleNamespace(name=str(when)))

    chart = history_chart([h(1500, 1520, dt.date(2026, 1, 1)), h(1520, 1510, dt.date(2026, 2, 1)),
                           h(1510, 1540, dt.date(2026, 12, 1))])
    start, jan, feb, dec = chart.points
    assert start.date is None and start.x == chart.left < jan.x  # the rating before: left of the first event
    assert dec.x == chart.right
    # one month apart is about a tenth of eleven months apart
    assert (feb.x - jan.x) == pytest.approx((dec.x - jan.x) * 31 / 334, abs=0.2)
    assert dec.show_date and not (jan.show_date and feb.show_date)  # labels never crowd each other
    with translation.override("tr"):
        svg = render_to_string("ratings/_history_chart.html", {"chart": chart})
    assert ">Ara 2026</text>" in svg and "(1 Aralık 2026)" in svg


# --------------------------------------------------------------------------------------------
# Error pages in the user's language, never Django's debug or English pages
# --------------------------------------------------------------------------------------------


def _boom(request):
    raise RuntimeError("secret detail of a bug")


def _forbidden(request):
    raise DjangoPermissionDenied("not for you")


def _api_boom(request):
    raise RuntimeError("secret detail of a bug")


def _urls():
    from federation import urls

    return [path("test-boom/", _boom), path("test-forbidden/", _forbidden), path("api/test-boom/", _api_boom),
            *urls.urlpatterns]


urlpatterns = _urls()
handler403 = "federation.error_views.permission_denied"
handler404 = "federation.error_views.page_not_found"
handler500 = "federation.error_views.server_error"


@override_settings(ROOT_URLCONF=__name__)
@pytest.mark.parametrize("lang, texts", [
    ("en", {404: "Page not found", 403: "Not allowed", 500: "Something went wrong"}),
    ("tr", {}),
])
def test_error_pages_are_the_sites_own(lang, texts):
    c = Client(HTTP_ACCEPT_LANGUAGE=lang, raise_request_exception=False)
    for url, status in (("/no-such-page/", 404), ("/test-forbidden/", 403), ("/test-boom/", 500),
                        ("/players/NO-SUCH-ID/", 404), ("/t/no-such-tournament/", 404)):
        r = c.get(url)
        html = r.content.decode()
        assert r.status_code == status, url
        assert f'<html lang="{lang}">' in html, url
        assert f'data-testid="error-{status}"' in html, url
        assert "Traceback" not in html and "secret detail" not in html and "not for you" not in html
        assert "no such player" not in html and "Django" not in html
        if texts:
            assert texts[status] in html
    api = c.get("/api/test-boom/")
    assert api.status_code == 500 and api.json()["error"]["code"] == "server_error"
    assert "secret" not in api.content.decode()
    assert c.get("/api/no-such-endpoint/").json()["error"]["code"] == "not_found"


def test_csrf_failure_page_says_reload():
    c = Client(enforce_csrf_checks=True, HTTP_ACCEPT_LANGUAGE="en")
    c.get("/accounts/login/")  # the cookie is set, the form is then sent without its token
    r = c.post("/accounts/login/", {"username": "x", "password": "y"}, HTTP_REFERER="http://testserver/accounts/login/?next=/")
    html = r.content.decode()
    assert r.status_code == 403 and 'data-testid="error-csrf"' in html
    assert "The page was open too long" in html and "Reload the page" in html and "Nothing was saved." in html
    assert 'href="/accounts/login/?next=/"' in html  # back to the page the form was on
    assert "CSRF verification failed" not in html and "Forbidden" not in html
    tr = Client(enforce_csrf_checks=True, HTTP_ACCEPT_LANGUAGE="tr").post("/accounts/login/", {})
    assert tr.status_code == 403 and '<html lang="tr">' in tr.content.decode()
    assert "CSRF verification failed" not in tr.content.decode()


def test_api_csrf_failure_is_translated_json():
    org = organiser(username="csrf-org")
    c = APIClient(enforce_csrf_checks=True, HTTP_ACCEPT_LANGUAGE="en")
    c.force_login(org)  # a session: DRF checks its CSRF token
    r = c.post("/api/tournaments/", {"name": "X", "rounds_total": 3}, format="json")
    assert r.status_code == 403
    err = r.json()["error"]
    assert err["code"] == "csrf_failed" and "Reload the page" in err["message"] and "CSRF Failed" not in err["message"]


def test_make_run_serves_without_debug_pages():
    """``make run`` uses federation.settings.dev: DEBUG is off unless DJANGO_DEBUG=true, and static files
    are still served (WhiteNoise from the finders)."""
    code = ("import os; os.environ.pop('DJANGO_DEBUG', None); "
            "os.environ['DJANGO_SETTINGS_MODULE'] = 'federation.settings.dev'; "
            "from django.conf import settings; "
            "print(settings.DEBUG, settings.WHITENOISE_USE_FINDERS, settings.CSRF_FAILURE_VIEW)")
    out = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, check=True).stdout
    assert out.split() == ["False", "True", "federation.error_views.csrf_failure"]


# --------------------------------------------------------------------------------------------
# Refusals that name the real problem
# --------------------------------------------------------------------------------------------


@pytest.fixture
def board():
    org = organiser(username="tt-org")
    t = services.tournament_create(name="Türkçe Metin Kupası", rounds_total=3, created_by=org)
    for rating in (1900, 1800):
        entry_services.entry_add(tournament=t, player=PlayerFactory(rating=rating))
    rnd = round_services.round_pair(tournament=t, user=org, coin_seed="metin")
    round_services.round_publish(round=rnd, user=org)
    return rnd.matches.get(board=1), org


def _refusal(match, sets) -> ValidationFailed:
    with pytest.raises(ValidationFailed) as err:
        result_services.match_result_enter(match=match, sets=sets)
    return err.value


def test_a_20_20_completed_set_is_a_sum_error_not_an_agreed_draw(board):
    m, _ = board
    with translation.override("en"):
        err = _refusal(m, [SetInput(20, 20)])
    assert "40 stones, not 48" in err.message and "agreed" not in err.message and err.field == "sets[1]"
    with translation.override("tr"):
        err = _refusal(m, [SetInput(20, 20)])
    assert "40" in err.message and "anlaşmalı" not in err.message


def test_a_withdrawal_with_both_at_25_says_only_one_can_reach_25(board):
    m, _ = board
    with translation.override("en"):
        err = _refusal(m, [SetInput(25, 25, termination="white_withdrew")])
    assert "both stores cannot hold 25" in err.message and "50 stones" in err.message
    with translation.override("en"):
        err = _refusal(m, [SetInput(30, 20)])
    assert "50 stones, more than the 48" in err.message


def test_record_mismatch_names_the_stones_white_black_in_the_result_api(board):
    """Set 2 is started by black: the engine's stones (first mover first) are turned to White-Black."""
    m, org = board
    moves, (first, second) = play_set(random.Random(5), 0.7, 0.7)  # set 2: first = black
    white, black = second, first
    wrong = (white + 1, black - 1) if black > 0 else (white - 1, black + 1)
    c = APIClient(HTTP_ACCEPT_LANGUAGE="en")
    c.force_authenticate(org)
    url = f"/api/tournaments/{m.round.tournament.slug}/rounds/1/boards/1/result/"
    r = c.post(url, {"sets": [{"white_store": 30, "black_store": 18},
                              {"white_store": wrong[0], "black_store": wrong[1], "moves": " ".join(map(str, moves))}]},
               format="json")
    err = r.json()["error"]
    assert r.status_code == 400 and err["field"] == "sets[2]"
    assert f"gives {white}-{black} (white-black), not the {wrong[0]}-{wrong[1]} entered" in err["message"]


def test_record_import_mismatch_names_the_stones_white_black(board):
    """A game record of set 2 (black moves first) whose moves give other stones than the stored ones."""
    from games.engine.notation import GameRecord, write_record
    from tournaments.records.services import record_import_create, record_import_run

    m, org = board
    moves, (first, second) = play_set(random.Random(5), 0.7, 0.7)  # what the moves give, black first
    result_services.match_result_enter(match=m, sets=[SetInput(30, 18), SetInput(18, 30)])  # stored set 2: 18-30
    assert (second, first) != (18, 30)
    rec = GameRecord(event=m.round.tournament.name, round="1", white=m.white.player.full_name,
                     black=m.black.player.full_name, set_number=2, result=(18, 30), moves=tuple(moves))
    with translation.override("en"):
        row = record_import_run(import_id=record_import_create(text=write_record(rec), user=org).id)
    assert [e["message"] for e in row.errors] == [
        f"the moves give {second}-{first} (White-Black), not the stored 18-30 of set 2"]


def test_record_import_forgives_the_keyboard_in_names(board):
    """Player and tournament names typed without Turkish letters still find the set."""
    from games.engine.notation import GameRecord, write_record
    from tournaments.records.services import record_import_create, record_import_run

    m, org = board
    m.white.player.last_name, m.white.player.first_name = "Güneş", "Ayşe"
    m.white.player.save()
    moves, (first, second) = play_set(random.Random(3), 0.7, 0.7)  # set 1: white first
    result_services.match_result_enter(match=m, sets=[SetInput(first, second)])
    black = m.black.player
    rec = GameRecord(event="TURKCE METIN KUPASI", round="1", white="GUNES, Ayse",
                     black=f"{black.last_name}, {black.first_name}".upper(), set_number=1, result=(first, second),
                     moves=tuple(moves))
    with translation.override("en"):
        row = record_import_run(import_id=record_import_create(text=write_record(rec), user=org).id)
    assert (row.stored, row.errors) == (1, [])


def test_constraint_names_never_reach_a_user(board):
    from federation.api import exception_handler

    m, _ = board
    try:
        with transaction.atomic():
            SetResult.objects.create(match=m, number=1, starter="white", white_stones=20, black_stones=20)
    except IntegrityError as exc:
        caught = exc
    with translation.override("en"):
        assert integrity_error_message(caught) == "The stones of a set must total 48 (Kural 1)."
        response = exception_handler(caught, {})
    assert response.status_code == 409 and "set_stones_sum_48" not in str(response.data)
    with translation.override("en"):
        unknown = integrity_error_message(IntegrityError('violates check constraint "some_rule_xyz"'))
        from django.core.exceptions import ValidationError

        mixed = validation_error_message(ValidationError(["Constraint “set_stones_sum_48” is violated.",
                                                          "Constraint “other_rule” is violated."]))
    assert "some_rule_xyz" not in unknown and "database" in unknown
    assert "set_stones_sum_48" not in mixed and "other_rule" not in mixed and "total 48" in mixed


def test_a_constraint_in_the_result_service_is_said_in_words(board, monkeypatch):
    """Should a check ever slip past the service's own checks, the database's refusal is worded."""
    from tournaments.results import services as result_services

    m, _ = board

    def refuse(*args, **kwargs):
        raise IntegrityError('new row for relation "tournaments_match" violates check constraint '
                             '"match_points_both_or_none"')

    # the result's columns are written by one UPDATE (federation.prepared.update_columns), not Match.save
    monkeypatch.setattr(result_services, "update_columns", refuse)
    with translation.override("en"):
        err = _refusal(m, [SetInput(30, 18)])
    assert err.message == "A match result gives points to both players or to neither."
