"""Page-specific accessibility (issue 15, WCAG 2.1 AA) in the rendered HTML: every form control has a
label, wide tables scroll in a named focusable region with the rank and points columns marked (pinned on
a phone), the pairing list's links say which board they are about, a refused result names its fields
(``aria-invalid`` + ``aria-describedby`` pointing at ids that exist), the replay board speaks Turkish."""
from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client
from django.utils import translation

from games import engine
from games.svg import board_svg
from tests.factories import PASSWORD, PlayerFactory, TournamentRoleFactory, UserFactory, organiser
from tournaments import services
from tournaments.entries import services as entry_services
from tournaments.results import services as result_services
from tournaments.rounds import services as round_services
from tournaments.models import Match, TournamentRole

pytestmark = pytest.mark.django_db


class _Controls(HTMLParser):
    """The form controls of a page (not hidden), whether a <label> wraps them or names them by id, the
    ids of the page, every ``aria-describedby`` and every ``role=region`` scroll wrapper."""

    def __init__(self):
        super().__init__()
        self.labels_open = 0
        self.label_for: set[str] = set()
        self.controls: list[dict] = []
        self.ids: set[str] = set()
        self.describedby: list[tuple[str, str]] = []
        self.scrolls: list[dict] = []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if a.get("id"):
            self.ids.add(a["id"])
        if a.get("aria-describedby"):
            self.describedby.append((a.get("name") or tag, a["aria-describedby"]))
        if tag == "label":
            self.labels_open += 1
            if a.get("for"):
                self.label_for.add(a["for"])
        elif tag in ("input", "select", "textarea") and a.get("type") not in ("hidden", "submit") \
                and "hidden" not in a:
            self.controls.append({"tag": tag, "attrs": a, "wrapped": self.labels_open > 0})
        if tag == "div" and "scroll" in (a.get("class") or "").split():
            self.scrolls.append(a)

    def handle_endtag(self, tag):
        if tag == "label":
            self.labels_open -= 1

    def unlabelled(self) -> list[dict]:
        return [c["attrs"] for c in self.controls
                if not c["wrapped"] and c["attrs"].get("id") not in self.label_for]


def _parse(html: str) -> _Controls:
    p = _Controls()
    p.feed(html)
    return p


def _client(user=None, lang: str = "tr") -> Client:
    c = Client(HTTP_ACCEPT_LANGUAGE=lang)
    if user is not None:
        assert c.login(username=user.username, password=PASSWORD)
    return c


@pytest.fixture
def org():
    return organiser(username="orga")


def _event(org, name="Erişilebilirlik Açık", *, publish=True):
    t = services.tournament_create(name=name, rounds_total=3, created_by=org)
    for i, (first, last) in enumerate((("Ayşe", "Kılıç"), ("Burak", "Ateş"), ("Cem", "Demir"), ("Derya", "Er"))):
        entry_services.entry_add(tournament=t, player=PlayerFactory(first_name=first, last_name=last, rating=1900 - 100 * i))
    rnd = round_services.round_pair(tournament=t, user=org, coin_seed="seed")
    if publish:
        round_services.round_publish(round=rnd, user=org)
    return t, rnd


def _board(t, n=1) -> Match:
    return Match.objects.select_related("white__player", "black__player").get(round__tournament=t, board=n)


# --- 1. labels ------------------------------------------------------------------------------------


def test_players_list_filters_have_visible_labels():
    staff = UserFactory(username="kurul", is_staff=True, groups=["staff"])
    page = _client(staff).get("/players/").content.decode()
    parsed = _parse(page)
    names = {c["attrs"].get("name") for c in parsed.controls}
    assert {"q", "club", "all"} <= names
    assert parsed.unlabelled() == []
    # visible label text, not only a placeholder or aria-label
    assert re.search(r'<label class="filter">Ara <input type="search" name="q"', page)
    assert re.search(r'<label class="filter">Kulüp <select name="club">', page)


@pytest.mark.parametrize("path", ["/clubs/", "/ratings/", "/ratings/lists/"])
def test_other_filter_bars_have_labels(path):
    page = _client().get(path, follow=True).content.decode()
    assert _parse(page).unlabelled() == []


# --- 2. wide tables: named focusable regions, rank and points marked -----------------------------


def _scored_tournament(org):
    t, rnd = _event(org)
    for board in (1, 2):
        result_services.match_result_enter(match=_board(t, board), user=org, forfeit="",
                                           sets=[result_services.SetInput(white_store=30, black_store=18, termination="completed")] * 2)
    return t


@pytest.mark.parametrize("suffix", ["standings/", "crosstable/"])
def test_wide_tables_scroll_in_a_named_focusable_region(org, suffix):
    t = _scored_tournament(org)
    page = _client(org).get(f"/t/{t.slug}/{suffix}").content.decode()
    parsed = _parse(page)
    assert parsed.scrolls, "no scroll wrapper"
    for a in parsed.scrolls:
        assert a.get("role") == "region" and a.get("tabindex") == "0"
        assert a.get("aria-label") or a.get("aria-labelledby") in parsed.ids
    # the rank, the name and the points are marked: a phone pins rank and points beside the name
    assert re.search(r'<th class="num rank">', page) and re.search(r'<th class="num pts">', page)
    assert re.search(r'<td class="num rank">1', page) and re.search(r'<td class="num pts"><strong>', page)
    assert re.search(r'<td class="name">', page)


def test_every_scroll_wrapper_in_the_templates_is_a_named_region():
    from pathlib import Path

    root = Path(__file__).resolve().parents[2] / "templates"
    bare = []
    for f in root.rglob("*.html"):
        for m in re.finditer(r'<div class="scroll"[^>]*>', f.read_text(encoding="utf-8")):
            tag = m.group(0)
            if not ('role="region"' in tag and 'tabindex="0"' in tag and ("aria-label" in tag)):
                bare.append(f"{f.relative_to(root)}: {tag}")
    assert bare == []


# --- 5. link names on the pairing list --------------------------------------------------------------


def test_pairing_list_links_name_their_board_and_players(org):
    t, _rnd = _event(org)
    ref = UserFactory(username="hakem")
    TournamentRoleFactory(tournament=t, user=ref, role=TournamentRole.Role.REFEREE)
    m = _board(t, 1)
    result_services.match_result_enter(match=m, user=ref, forfeit="",
                                       sets=[result_services.SetInput(white_store=30, black_store=18, termination="completed",
                                                                      moves="")] * 2)
    page = _client(ref).get(f"/t/{t.slug}/round/1/").content.decode()
    w, b = m.white.player.full_name, m.black.player.full_name
    m2 = _board(t, 2)
    assert f'aria-label="Düzelt – masa 1: {w} – {b}">Düzelt</a>' in page
    assert (f'aria-label="Sonuç gir – masa 2: {m2.white.player.full_name} – {m2.black.player.full_name}">'
            f"Sonuç gir</a>") in page
    # the colour of each name is written out for the phone's card layout
    assert 'data-label="Beyaz"' in page and 'data-label="Siyah"' in page
    en = _client(ref, "en").get(f"/t/{t.slug}/round/1/").content.decode()
    assert f'aria-label="Correct – board 1: {w} – {b}">Correct</a>' in en


def test_replay_links_name_their_board(org):
    t, _rnd = _event(org)
    moves, (first, second) = _finish()
    m = _board(t, 1)
    result_services.match_result_enter(match=m, user=org, forfeit="", sets=[
        result_services.SetInput(white_store=first, black_store=second, termination="completed", moves=" ".join(map(str, moves)))
    ])
    page = _client(org, "en").get(f"/t/{t.slug}/round/1/").content.decode()
    assert re.search(r'aria-label="Replay set 1 – board 1: [^"]+ – [^"]+">▶</a>', page)


def _finish():
    import random

    rng = random.Random(7)
    pos = engine.replay([])
    moves = []
    while not pos.is_over:
        pit = rng.choice([mv.pit for mv in engine.legal_moves(pos)])
        moves.append(pit)
        pos = engine.play(pos, pit).position
    return moves, pos.stores


# --- 4. the result form: refusals point at their fields -----------------------------------------------


def _post(sets, **extra) -> dict:
    data = {"forfeit": ""}
    for n, (w, b) in enumerate(sets, 1):
        data.update({f"set{n}_white": w, f"set{n}_black": b, f"set{n}_termination": "completed"})
    data.update(extra)
    return data


def _input(page: str, name: str) -> str:
    found = re.search(rf'<(?:input|select)[^>]*name="{name}"[^>]*>', page)
    assert found, name
    return found.group(0)


def _assert_describedby_ids_exist(page: str):
    parsed = _parse(page)
    assert parsed.describedby, "nothing points to an error"
    for name, ref in parsed.describedby:
        for i in ref.split():
            assert i in parsed.ids, f"{name}: aria-describedby={i!r} names no element"


@pytest.mark.parametrize("sets, bad_set", [
    ([(30, 20)], 1),  # the stones do not sum to 48 (a set-level refusal)
    ([(30, 18), (20, 20)], 2),
    ([(49, 0)], 1),  # over the field's maximum
])
def test_a_refused_set_marks_its_fields_and_points_to_its_reason(org, sets, bad_set):
    t, _rnd = _event(org)
    r = _client(org, "en").post(f"/t/{t.slug}/round/1/board/1/", _post(sets))
    page = r.content.decode()
    assert r.status_code == 200 and "error-summary" in page
    assert re.search(r'<div class="error error-summary" id="result-errors" role="alert" tabindex="-1" data-focus-on-load>',
                     page)
    invalid = [n for n in ("white", "black") if 'aria-invalid="true"' in _input(page, f"set{bad_set}_{n}")]
    assert invalid, "no store of the refused set is marked"
    for n in invalid:
        assert f'aria-describedby="set{bad_set}-errors"' in _input(page, f"set{bad_set}_{n}")
    assert f'id="set{bad_set}-errors"' in page
    _assert_describedby_ids_exist(page)


def test_a_refused_forfeit_and_a_missing_reason_point_to_their_errors(org):
    t, _rnd = _event(org)
    page = _client(org, "en").post(f"/t/{t.slug}/round/1/board/1/", _post([], forfeit="bogus")).content.decode()
    tag = _input(page, "forfeit")
    assert 'aria-invalid="true"' in tag and 'aria-describedby="id_forfeit_error"' in tag
    assert page.count('id="id_forfeit_error"') == 1
    _assert_describedby_ids_exist(page)


# --- 6. the replay board speaks the page's language -------------------------------------------------


def test_board_svg_titles_are_translated_and_pit_numbers_contrast():
    with translation.override("tr"):
        svg = board_svg(engine.Position.initial(), names=("Ayşe", "Burak"))
    titles = re.findall(r"<title[^>]*>(.*?)</title>", svg)
    assert titles[0].startswith("Mangala tahtası.") and "Ayşe (altta)" in titles[0] and "Burak (üstte)" in titles[0]
    assert "Hamle sırası: Ayşe." in titles[0]
    assert "Ayşe: hazine 0" in titles and "Burak: hazine 0" in titles
    assert not any(w in " ".join(titles) for w in ("store", "pits", "bottom", "to move"))
    assert "<style" not in svg  # the site's CSP forbids inline styles: the board's rules are in site.css
    css = (Path(settings.BASE_DIR) / "static" / "css" / "site.css").read_text(encoding="utf-8")
    fill = re.search(r"\.mangala-board \.label \{[^}]*fill:(#[0-9a-f]{6})", css).group(1)
    board = re.search(r"\.mangala-board \.board \{ fill:(#[0-9a-f]{6})", css).group(1)
    assert _contrast(fill, board) >= 4.5


def _contrast(a: str, b: str) -> float:
    def lum(h):
        c = [int(h[i:i + 2], 16) / 255 for i in (1, 3, 5)]
        c = [x / 12.92 if x <= 0.03928 else ((x + 0.055) / 1.055) ** 2.4 for x in c]
        return 0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2]

    hi, lo = sorted((lum(a), lum(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)
