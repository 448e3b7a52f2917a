"""Accessible to everyone in the hall (issue 15): WCAG 2.1 AA, checked by axe-core in a real browser.

The demo (``federation.sample_data.load``, the data ``make run`` serves) is built **once** for the module,
then every page kind the browser tests visit — public pages, the referee's result form, the organiser's
pages — is opened

* at 390×844 (a phone) and 1280×800 (a laptop), in Turkish and in English, and checked by axe-core
  (``tests/browser/axe``: the version pinned in its package-lock.json, installed by ``npm ci --prefix
  tests/browser/axe``; ``.ci/run`` and ``make test-browser`` do it) against the WCAG 2.0/2.1 A and AA rules;
* at 195×422 CSS px — a 390 px phone zoomed to 200 % (WCAG 1.4.10 reflow): no page scrolls sideways, the
  header keeps most of the first screen for the content, and on the pairing list both players of board 1
  are inside the viewport.

The pages are visited in a module-scoped fixture (``audit``) that keeps its data committed while it runs
and empties the database afterwards, so the demo is built once (about 30 s) rather than once per test;
the tests then assert on their share of what it found. A failure lists page, viewport, language, rule and
the elements at fault; the full axe results go to ``test-results/axe-<lang>-<viewport>.json``.

Without axe-core installed the axe tests skip with the reason — except under ``CI=true``, where they fail.
"""
from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlparse

import pytest

pytestmark = [pytest.mark.browser]

AXE_DIR = Path(__file__).resolve().parent / "axe"
AXE_JS = AXE_DIR / "node_modules" / "axe-core" / "axe.min.js"
AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]
RESULTS_DIR = Path(__file__).resolve().parents[2] / "test-results"

LANGUAGES = {"tr": "tr-TR", "en": "en-US"}
VIEWPORTS = {"390x844": {"width": 390, "height": 844}, "1280x800": {"width": 1280, "height": 800}}
#: a 390 px wide phone at 200 % zoom: 195 CSS px (WCAG 1.4.10 asks for 320 px at 400 %, i.e. 80 px
#: of a 1280 px screen; a phone in the hall is the narrower real case)
REFLOW = {"width": 195, "height": 422}
#: the header may take at most this share of the first screen at REFLOW
HEADER_SHARE = 0.25

#: Rules excluded on one page, with the reason. Everything else on every page must pass.
AXE_EXCEPTIONS: dict[str, dict[str, str]] = {
    "API docs": {
        # Swagger UI (drf-spectacular-sidecar) renders each operation's header as
        # <button class="opblock-summary-control"> with the path's deep link <a class="nostyle"> inside it:
        # its own React markup, not our template; the link duplicates the button (both open the operation).
        "nested-interactive": "Swagger UI's operation button contains its deep link",
    },
}


@dataclass
class Page:
    name: str
    path: str
    user: str | None = None  # None: anonymous; else a demo account (federation.sample_data.DEMO_PASSWORDS)
    ready: str | None = None  # a selector to wait for before checking (pages drawn by a script)


@dataclass
class Audit:
    pages: list[Page] = field(default_factory=list)
    axe_reason: str | None = None  # why axe did not run
    axe: dict[tuple[str, str], list[str]] = field(default_factory=dict)  # (lang, viewport) -> violations
    reflow: dict[str, list[str]] = field(default_factory=dict)  # lang -> pages that scroll sideways
    header: dict[str, list[str]] = field(default_factory=dict)  # lang -> pages with a tall header
    board1: dict[str, list[str]] = field(default_factory=dict)  # lang -> board 1 players cut off


def _axe_source() -> tuple[str | None, str | None]:
    """(axe.min.js source, None) or (None, why it is missing)."""
    if AXE_JS.exists():
        return AXE_JS.read_text(encoding="utf-8"), None
    return None, (f"axe-core is not installed ({AXE_JS.relative_to(AXE_DIR.parents[2])} missing): "
                  "run `npm ci --prefix tests/browser/axe` (needs npm)")


def _need_axe(audit: Audit) -> None:
    if audit.axe_reason is None:
        return
    if os.environ.get("CI", "").lower() in ("1", "true", "yes"):
        pytest.fail(f"CI: {audit.axe_reason}", pytrace=False)
    pytest.skip(audit.axe_reason)


def _demo() -> tuple[list[Page], dict]:
    """Build the demo, plus what it lacks for a few pages; return the pages to visit and board 1's names."""
    from datetime import date

    from federation.models import Club, Player
    from federation.sample_data import DEMO_TOURNAMENT, KNOCKOUT_FINAL, TEAM_CHAMPIONSHIP, load
    from ratings.models import RatingList
    from tournaments import services
    from tournaments.entries import services as entry_services
    from tournaments.rounds import services as round_services
    from tournaments.models import Event, Match, Round, SetResult, Tournament

    from django.contrib.auth.models import User

    out = load()
    organiser = User.objects.get(username="organiser")
    demo = Tournament.objects.get(name=DEMO_TOURNAMENT)
    # round 3 paired and published: the referee's result form needs an open round
    if not demo.rounds.filter(number=3).exists():
        rnd = round_services.round_pair(tournament=demo, user=organiser, coin_seed="a11y")
        round_services.round_publish(round=rnd, user=organiser)
    # a tournament with its players entered and no round yet: the organiser's page shows the pair button
    fresh = Tournament.objects.filter(name="Erişilebilirlik Kupası 2026").first()
    if fresh is None:
        fresh = services.tournament_create(name="Erişilebilirlik Kupası 2026", rounds_total=5,
                                           system=Tournament.System.SWISS, start_date=date(2026, 12, 19),
                                           city="Ankara", created_by=organiser)
        for p in Player.objects.order_by("federation_id")[:8]:
            entry_services.entry_add(tournament=fresh, player=p)
    knockout = Tournament.objects.get(name=KNOCKOUT_FINAL)
    teams = Tournament.objects.get(name=TEAM_CHAMPIONSHIP)
    event = Event.objects.get(slug=out["event"])
    section = event.sections.order_by("section_order").first()
    board1 = Match.objects.select_related("white__player", "black__player").get(
        round__tournament=demo, round__number=1, board=1)
    a_set = SetResult.objects.filter(match__round__tournament=demo).exclude(moves="").order_by("pk").first()
    official = RatingList.objects.filter(withdrawn_at__isnull=True).order_by("-published_on").first()
    club = Club.objects.order_by("name").first()
    assert demo.rounds.filter(number=1, status=Round.Status.CLOSED).exists()
    d, k, tm = demo.slug, knockout.slug, teams.slug
    pages = [
        Page("home", "/"),
        Page("tournament", f"/t/{d}/"),
        Page("round pairing list", f"/t/{d}/round/1/"),
        Page("standings", f"/t/{d}/standings/"),
        Page("crosstable", f"/t/{d}/crosstable/"),
        Page("live", f"/t/{d}/live/"),
        Page("players list", "/players/"),
        Page("player", f"/players/{board1.white.player.federation_id}/"),
        Page("clubs", "/clubs/"),
        Page("club", f"/clubs/{club.pk}/"),
        Page("rating list", "/ratings/"),
        Page("official rating lists", "/ratings/lists/"),
        Page("official rating list", f"/ratings/lists/{official.published_on.isoformat()}/"),
        Page("events", "/events/"),
        Page("event", f"/events/{event.slug}/"),
        Page("event report", f"/events/{event.slug}/report/"),
        Page("bracket", f"/t/{k}/bracket/"),
        Page("team standings", f"/t/{tm}/teams/standings/"),
        Page("team crosstable", f"/t/{tm}/teams/crosstable/"),
        Page("team round", f"/t/{tm}/round/1/"),
        Page("prize list", f"/t/{section.slug}/prizes/"),
        Page("set replay", f"/games/sets/{a_set.pk}/"),
        Page("login", "/accounts/login/"),
        Page("API docs", "/api/docs/", ready=".swagger-ui .opblock-tag"),
        Page("referee's boards", "/referee/", user="referee"),
        Page("result form", f"/t/{d}/round/3/board/1/", user="referee"),
        Page("organiser's tournament (pair button)", f"/t/{fresh.slug}/", user="organiser"),
        Page("entries", f"/t/{d}/entries/", user="organiser"),
        Page("categories", f"/t/{section.slug}/categories/", user="organiser"),
        Page("tournament create", "/t/new/", user="organiser"),
        Page("team championship create", "/teams/new/", user="organiser"),
        Page("event create", "/events/new/", user="organiser"),
        Page("event registrations", f"/events/{event.slug}/registrations/", user="organiser"),
    ]
    names = {"white": board1.white.player.full_name, "black": board1.black.player.full_name}
    return pages, names


def _context(browser, base: str, lang: str, user: str | None):
    """A browser context in ``lang`` (Accept-Language and the site's language cookie), logged in as ``user``."""
    from federation.sample_data import DEMO_PASSWORDS

    ctx = browser.new_context(locale=LANGUAGES[lang], viewport=VIEWPORTS["390x844"])
    ctx.set_default_timeout(15_000)
    ctx.add_cookies([{"name": "django_language", "value": lang, "url": base}])
    if user:
        pg = ctx.new_page()
        pg.goto(f"{base}/accounts/login/")
        pg.fill("input[name=username]", user)
        pg.fill("input[name=password]", DEMO_PASSWORDS[user])
        pg.click("main form button[type=submit]")
        pg.wait_for_url(lambda url: "/accounts/login/" not in url)
        pg.close()
    return ctx


def _open(pg, base: str, page: Page) -> None:
    response = pg.goto(base + page.path)
    assert response is not None and response.status == 200, f"{page.name} {page.path}: HTTP {response and response.status}"
    if page.ready:
        pg.wait_for_selector(page.ready)
    pg.wait_for_load_state("load")


AXE_RUN = """async (tags) => {
  const r = await axe.run(document, {runOnly: {type: 'tag', values: tags}, resultTypes: ['violations']});
  return r.violations.map(v => ({id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map(n => ({
    target: n.target.join(' '), html: n.html.slice(0, 200), summary: n.failureSummary,
    data: (n.any[0] || n.all[0] || n.none[0] || {}).data || null}))}));
}"""

#: text rectangles of a name inside board 1 (whatever the markup: a table row or a card)
NAME_RECTS = """(name) => {
  const scope = document.querySelector('#board-1') || document.querySelector('main');
  const walker = document.createTreeWalker(scope, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const at = node.data.indexOf(name);
    if (at < 0) continue;
    const range = document.createRange();
    range.setStart(node, at); range.setEnd(node, at + name.length);
    const r = range.getBoundingClientRect();
    return {left: r.left, right: r.right, width: window.innerWidth};
  }
  return null;
}"""


def _violations(found: list[dict], page: Page, viewport: str, lang: str) -> list[str]:
    skip = AXE_EXCEPTIONS.get(page.name, {})
    lines = []
    for v in found:
        if v["id"] in skip:
            continue
        targets = ", ".join(n["target"] for n in v["nodes"][:6]) + (" …" if len(v["nodes"]) > 6 else "")
        lines.append(f"{page.name} ({page.path}) [{viewport}, {lang}] {v['id']} ({v['impact']}, "
                     f"{len(v['nodes'])}×): {v['help']} — {targets}")
    return lines


@pytest.fixture(scope="module")
def audit(browser, live_server, django_db_setup, django_db_blocker) -> Audit:
    """Build the demo once, visit every page in both languages and all three sizes, and remember what
    axe and the reflow checks found; the database is emptied again at the end."""
    from django.core.management import call_command
    from django.test.utils import modify_settings

    source, reason = _axe_source()
    result = Audit(axe_reason=reason)
    base = live_server.url
    # what pytest-django's _live_server_helper does for a test: the live server's host is allowed
    with django_db_blocker.unblock(), modify_settings(ALLOWED_HOSTS={"append": urlparse(base).hostname}):
        try:
            pages, board1 = _demo()
            result.pages = pages
            for lang in LANGUAGES:
                raw: dict[str, list] = {v: [] for v in VIEWPORTS}
                for v in VIEWPORTS:
                    result.axe[(lang, v)] = []
                result.reflow[lang], result.header[lang], result.board1[lang] = [], [], []
                contexts = {}
                try:
                    for page in pages:
                        if page.user not in contexts:
                            contexts[page.user] = _context(browser, base, lang, page.user)
                        pg = contexts[page.user].new_page()
                        try:
                            _visit(pg, base, page, lang, source, raw, result, board1)
                        except Exception as exc:  # one broken page must not hide what the others show
                            result.reflow[lang].append(f"{page.name} ({page.path}) [{lang}]: could not be checked: {exc}")
                        finally:
                            pg.close()
                finally:
                    for ctx in contexts.values():
                        ctx.close()
                if source is not None:
                    RESULTS_DIR.mkdir(exist_ok=True)
                    for v in VIEWPORTS:
                        (RESULTS_DIR / f"axe-{lang}-{v}.json").write_text(
                            json.dumps(raw[v], ensure_ascii=False, indent=1), encoding="utf-8")
        finally:
            call_command("flush", interactive=False, verbosity=0)
    return result


def _visit(pg, base: str, page: Page, lang: str, source: str | None, raw: dict, result: Audit, board1: dict) -> None:
    """Check one page: axe at each viewport, then the reflow at 195×422."""
    if source is not None:
        for v, size in VIEWPORTS.items():
            pg.set_viewport_size(size)
            _open(pg, base, page)
            pg.evaluate(source)
            found = pg.evaluate(AXE_RUN, AXE_TAGS)
            raw[v].append({"page": page.name, "path": page.path, "violations": found})
            result.axe[(lang, v)] += _violations(found, page, v, lang)
    pg.set_viewport_size(REFLOW)
    _open(pg, base, page)
    width = pg.evaluate("document.documentElement.scrollWidth")
    if width > REFLOW["width"] + 1:
        wide = pg.evaluate(WIDEST)
        result.reflow[lang].append(f"{page.name} ({page.path}) [195x422, {lang}]: page is "
                                   f"{width} px wide; widest: {wide}")
    header = pg.evaluate("(document.querySelector('body > header') || {getBoundingClientRect: () => ({height: 0})}).getBoundingClientRect().height")
    if header > HEADER_SHARE * REFLOW["height"]:
        result.header[lang].append(f"{page.name} ({page.path}) [195x422, {lang}]: header "
                                   f"{header:.0f} px of {REFLOW['height']} px")
    if page.name == "round pairing list":
        for side, name in board1.items():
            r = pg.evaluate(NAME_RECTS, name)
            if r is None or r["left"] < -0.5 or r["right"] > r["width"] + 0.5:
                result.board1[lang].append(
                    f"board 1 {side} “{name}” [195x422, {lang}]: "
                    + ("not found" if r is None else f"spans x {r['left']:.0f}–{r['right']:.0f} of {r['width']} px"))


#: the elements that stick out furthest to the right (what makes a page scroll sideways)
WIDEST = """() => {
  const w = document.documentElement.clientWidth, out = [];
  for (const el of document.querySelectorAll('body *')) {
    const r = el.getBoundingClientRect();
    if (r.right > w + 1 && r.width > 0) {
      let inScroller = false;
      for (let p = el.parentElement; p && p !== document.body; p = p.parentElement) {
        const s = getComputedStyle(p).overflowX;
        if (s === 'auto' || s === 'scroll' || s === 'hidden') { inScroller = true; break; }
      }
      if (!inScroller) out.push([r.right, el]);
    }
  }
  out.sort((a, b) => b[0] - a[0]);
  const seen = new Set(), names = [];
  for (const [right, el] of out) {
    if ([...seen].some(s => s.contains(el))) continue;
    seen.add(el);
    names.push(el.tagName.toLowerCase() + (el.id ? '#' + el.id : '') + (el.className && typeof el.className === 'string' ? '.' + el.className.trim().split(/\\s+/).join('.') : '') + ' →' + Math.round(right));
    if (names.length >= 4) break;
  }
  return names.join(', ');
}"""


@pytest.mark.parametrize("viewport", list(VIEWPORTS))
@pytest.mark.parametrize("lang", list(LANGUAGES))
def test_every_page_passes_axe_wcag21_aa(audit, lang, viewport):
    _need_axe(audit)
    found = audit.axe[(lang, viewport)]
    if found:
        pytest.fail(f"{len(found)} axe violation(s) (WCAG 2.1 A/AA) at {viewport}, {lang}:\n" + "\n".join(found), pytrace=False)


@pytest.mark.parametrize("lang", list(LANGUAGES))
def test_every_page_reflows_at_195_px(audit, lang):
    """WCAG 1.4.10: a 390 px phone at 200 % zoom (195 CSS px) never scrolls the page sideways; wide tables
    scroll inside a named region of their own."""
    found = audit.reflow[lang]
    if found:
        pytest.fail(f"{len(found)} page(s) scroll sideways at 195 px ({lang}):\n" + "\n".join(found), pytrace=False)


@pytest.mark.parametrize("lang", list(LANGUAGES))
def test_header_leaves_the_phone_screen_to_the_content(audit, lang):
    found = audit.header[lang]
    if found:
        pytest.fail(f"header taller than {HEADER_SHARE:.0%} of a 195×422 screen ({lang}):\n" + "\n".join(found), pytrace=False)


@pytest.mark.parametrize("lang", list(LANGUAGES))
def test_board_one_players_are_on_screen_at_195_px(audit, lang):
    found = audit.board1[lang]
    if found:
        pytest.fail("pairing list, round 1 at 195×422:\n" + "\n".join(found), pytrace=False)


# --- the global parts, on the smallest pages (no demo needed) ------------------------------------------


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("lang,label", [("tr", "İçeriğe geç"), ("en", "Skip to content")])
def test_skip_link_is_the_first_stop_and_visible(new_page, live_server, lang, label):
    pg = new_page(locale=LANGUAGES[lang], viewport=VIEWPORTS["390x844"])
    pg.context.add_cookies([{"name": "django_language", "value": lang, "url": live_server.url}])
    pg.goto(f"{live_server.url}/")
    pg.keyboard.press("Tab")
    focused = pg.evaluate("""() => { const a = document.activeElement, r = a.getBoundingClientRect(),
      s = getComputedStyle(a);
      return {text: a.textContent.trim(), href: a.getAttribute('href'), top: r.top, bottom: r.bottom, left: r.left,
              right: r.right, outline: s.outlineStyle, outlineWidth: parseFloat(s.outlineWidth)}; }""")
    assert focused["text"] == label
    assert focused["href"].startswith("#")
    assert focused["top"] >= 0 and focused["bottom"] <= 844 and focused["left"] >= 0 and focused["right"] <= 390
    assert focused["outline"] != "none" and focused["outlineWidth"] >= 2
    pg.keyboard.press("Enter")
    assert pg.evaluate("document.activeElement.id") == focused["href"][1:]
    assert pg.evaluate("document.activeElement.tagName") == "MAIN"


#: WCAG 1.4.11: the boundary of a control (its border, or its fill when it has no border) against what is
#: behind it, and the focus outline against the page
CONTROL_CONTRAST = """() => {
  const rgb = c => { const m = c.match(/[\\d.]+/g).map(Number); return {r: m[0], g: m[1], b: m[2], a: m.length > 3 ? m[3] : 1}; };
  const lum = ({r, g, b}) => { const f = v => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
    return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b); };
  const ratio = (a, b) => { const x = lum(a), y = lum(b); return (Math.max(x, y) + 0.05) / (Math.min(x, y) + 0.05); };
  const behind = el => { for (let p = el.parentElement; p; p = p.parentElement) {
      const c = rgb(getComputedStyle(p).backgroundColor); if (c.a > 0) return c; } return {r: 255, g: 255, b: 255, a: 1}; };
  const out = [];
  for (const el of document.querySelectorAll('input:not([type=hidden]), select, textarea, button')) {
    const s = getComputedStyle(el), r = el.getBoundingClientRect();
    if (!r.width || s.visibility === 'hidden') continue;
    const back = behind(el), fill = rgb(s.backgroundColor);
    const border = parseFloat(s.borderTopWidth) > 0 && s.borderTopStyle !== 'none' ? ratio(rgb(s.borderTopColor), back) : 0;
    const filled = fill.a > 0 ? ratio(fill, back) : 0;
    const link = el.matches('button.link');  // a text link styled as such: its text is its boundary
    out.push({what: el.outerHTML.slice(0, 80), border: border, fill: filled, link: link});
  }
  return out;
}"""


@pytest.mark.django_db(transaction=True)
def test_control_boundaries_have_3_to_1_contrast(new_page, live_server):
    pg = new_page(locale="tr-TR", viewport=VIEWPORTS["390x844"])
    pg.goto(f"{live_server.url}/accounts/login/")
    weak = [c for c in pg.evaluate(CONTROL_CONTRAST) if not c["link"] and max(c["border"], c["fill"]) < 3]
    assert weak == [], "controls whose boundary is below 3:1 against the page:\n" + "\n".join(
        f"{c['what']} border {c['border']:.2f}, fill {c['fill']:.2f}" for c in weak)
