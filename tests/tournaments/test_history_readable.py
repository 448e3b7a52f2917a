"""Issue 25, a fresh user's trial: the history page showed internal codes and raw timestamps
(``white_withdrew``, ``knockout.qualifiers``, ``2026-12-05T22:49:28.439580+03:00``). The page reads in the
reader's language — actions by their labels, a set's ending by its choice label, dates and times in the
language's format and the site's time zone — while the API keeps the codes and ISO 8601."""
from __future__ import annotations

import html
import re
from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client
from django.utils import translation

from tests.factories import PlayerFactory, organiser
from tournaments import services
from tournaments.history import selectors as history
from tournaments.models import Match
from tournaments.results.services import SetInput
from tournaments.entries import services as entry_services
from tournaments.results import services as result_services
from tournaments.rounds import services as round_services

pytestmark = pytest.mark.django_db

ISO_MOMENT = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d")
#: How product code names the action of a tracked change: @audited("x.y") / audit_context(action="x.y").
ACTION_CODE = re.compile(r"""audited\(\s*["']([a-z_]+\.[a-z_]+)["']|action=["']([a-z_]+\.[a-z_]+)["']""")


def _tournament_action_codes() -> set[str]:
    """Every action code written into a tournament's history by product code."""
    root = Path(settings.BASE_DIR)
    codes = set()
    for path in [*(root / "tournaments").rglob("*.py"), root / "federation" / "services.py"]:
        text = path.read_text(encoding="utf-8")
        for m in ACTION_CODE.finditer(text):
            code = m.group(1) or m.group(2)
            if path.name == "services.py" and path.parent.name == "federation" and not code.startswith("role."):
                continue  # federation's own history (players, clubs, accounts): not a tournament's
            codes.add(code)
    return codes


def test_history_internal_codes_every_action_has_a_readable_label():
    codes = _tournament_action_codes()
    assert {"knockout.qualifiers", "playoff.create", "round.close", "result.correct", "role.assign"} <= codes
    missing = sorted(c for c in codes if c not in history.ACTION_LABELS)
    assert missing == []
    with translation.override("tr"):
        assert history.action_label("knockout.qualifiers") == "eleme turuna çıkanlar alındı"
        # a code without a label of its own still never shows as the code
        assert history.action_label("knockout.unknown_thing") == "değiştirildi"
        assert history.action_label("team.delete") == str(history.ACTION_LABELS["delete"])
    with translation.override("en"):
        assert history.action_label("knockout.qualifiers") == "knockout qualifiers chosen"
        assert "." not in history.action_label("something.new")


@pytest.fixture
def played():
    """Round 1 of four players: board 1 has a set White withdrew from; the round is closed and the standings
    published (a date and time in the tournament's history)."""
    org = organiser(username="orga")
    t = services.tournament_create(name="Tarih Açık", rounds_total=3, created_by=org)
    for i in range(4):
        entry_services.entry_add(tournament=t, player=PlayerFactory(last_name=f"Oyuncu{i + 1}", first_name="Ç",
                                                              rating=2000 - 10 * i))
    rnd = round_services.round_pair(tournament=t, user=org, coin_seed="h")
    round_services.round_publish(round=rnd, user=org)
    m1, m2 = Match.objects.filter(round=rnd, kind=Match.Kind.GAME).order_by("board")
    result_services.match_result_enter(match=m1, sets=[SetInput(9, 31, "white_withdrew"), SetInput(20, 28)], user=org)
    result_services.match_result_enter(match=m2, sets=[SetInput(30, 18), SetInput(26, 22)], user=org)
    round_services.round_close(round=rnd, user=org)
    services.standings_publish(tournament=t, user=org)
    return t, org


def _visible_text(page: str) -> str:
    """The page's text as a reader sees it (tags and their attributes left out)."""
    main = page.split("<main", 1)[-1]
    return html.unescape(re.sub(r"<[^>]+>", " ", main))


@pytest.mark.parametrize("lang, withdrew, published", [
    ("en", "9-39 (white withdrew)", "standings published"),
    ("tr", "9-39 (beyaz çekildi)", "sıralama yayımlandı"),
])
def test_history_internal_codes_and_raw_timestamps_read_in_both_languages(played, lang, withdrew, published):
    t, org = played
    c = Client(HTTP_ACCEPT_LANGUAGE=lang)
    c.force_login(org)
    response = c.get(f"/t/{t.slug}/history/")
    assert response.status_code == 200
    text = _visible_text(response.content.decode())
    assert "white_withdrew" not in text and "standings.publish" not in text
    assert withdrew in text, text[text.find("board 1"):][:600]
    assert published in text
    assert not ISO_MOMENT.search(text), ISO_MOMENT.search(text)
    # the standings' publication time reads as the language's date and time, in the site's time zone
    t.refresh_from_db()
    with translation.override(lang):
        from federation import formatting

        shown = formatting.moment(t.standings_published_at)
    assert shown and shown in text


def test_history_api_keeps_codes_and_iso_timestamps(played):
    t, _org = played
    with translation.override("en"):
        items = [i.as_dict() for i in history.tournament_history(tournament=t)]
    assert items[0]["action"] == "standings.publish"
    assert ISO_MOMENT.match(items[0]["after"]["standings_published_at"])
    result = next(i for i in items if i["action"] == "result.enter" and i["board"] == 1)
    assert result["after"]["sets"] == ["9-39 (white_withdrew)", "20-28"]
