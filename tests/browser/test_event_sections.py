"""A school event with sections, set up by an organiser in a real browser and reported (issue 14: "an
organiser sets up each format and publishes its final report").

Through the pages under ``/events/`` the organiser creates the event (ages counted in the reference date's
year, 2026), adds two sections — *İlkokul Kız* (girls born 2015–2018, a round robin, chief arbiter named)
and *Açık* (anyone born 2014 or earlier) — searches the players of Eskişehir and registers them: each is
placed by the rules (a boy of 2017 fits no section and waits on the list); the school's best girl is moved
to *Açık* with a reason. The section entries are made, *Açık* gets the U12 category and a prize list.

The rounds are played with the services (every game won by the higher-rated player, so each section's
ranking is the rating order); before the standings are published the public's report, its PDF and the
prize list hide them. The organiser publishes both sections' final standings in the browser; then anyone
reads the winners in the event report and its PDF, and who took which prize (one prize a player: the girl
who is second overall takes the 500 TL and the U12 medal goes to the next U12 player).
"""
from __future__ import annotations

import io
import re

import pytest
expect = pytest.importorskip("playwright.sync_api").expect

from tests.browser.helpers import login as _login
from tests.factories import PlayerFactory, organiser
from tournaments.results import services as result_services
from tournaments.rounds import services as round_services
from tournaments.models import Event, EventRegistration, Round, Tournament
from tournaments.results.services import SetInput

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}

WHITE_WINS = [SetInput(30, 18), SetInput(26, 22)]
BLACK_WINS = [SetInput(18, 30), SetInput(22, 26)]

#: (first name, last name, sex, birth year, rating); all of Eskişehir. Ayşe is moved from İlkokul Kız to Açık,
#: Can (a boy of 2017) fits no section.
PUPILS = [
    ("Ayşe", "Yılmaz", "f", 2016, 1450),
    ("Zeynep", "Kaya", "f", 2015, 1400),
    ("Elif", "Şahin", "f", 2017, 1350),
    ("Defne", "Çelik", "f", 2018, 1300),
    ("Ela", "Aydın", "f", 2016, 1250),
    ("Mehmet", "Demir", "m", 1990, 1600),
    ("Fatma", "Arslan", "f", 1985, 1420),
    ("Burak", "Koç", "m", 2010, 1380),
    ("Selin", "Öztürk", "f", 2012, 1330),
    ("Emre", "Doğan", "m", 2014, 1200),
    ("Can", "Yıldız", "m", 2017, 1100),
]


def _pdf_text(body: bytes) -> str:
    from pypdf import PdfReader

    return "\n".join(p.extract_text() for p in PdfReader(io.BytesIO(body)).pages)


def _get(page, url: str):
    """GET ``url`` with the page's cookies and its English language (Playwright's request context does not
    send the browser's Accept-Language)."""
    return page.request.get(url, headers={"Accept-Language": "en-US,en"})


def _submit(page, button) -> None:
    """Press a form's submit button and wait for the page the server answers with."""
    with page.expect_navigation():
        button.click()


def _play_all_rounds(section: Tournament, org) -> None:
    """Pair, publish, enter and close every round: the higher-rated player wins each game 2–0 in sets."""
    while True:
        section.refresh_from_db()
        if section.rounds.filter(status=Round.Status.CLOSED).count() == section.rounds_total:
            return
        rnd = round_services.round_pair(tournament=section, user=org)
        round_services.round_publish(round=rnd, user=org)
        for m in rnd.matches.filter(kind="game").select_related("white", "black"):
            result_services.match_result_enter(match=m, sets=WHITE_WINS if m.white.rating > m.black.rating else BLACK_WINS,
                                               user=org)
        round_services.round_close(round=rnd, user=org)


def test_organiser_sets_up_a_school_event_with_sections_and_publishes_its_report(live_server, new_page):
    org_user = organiser(username="okul-orga")
    players = {first: PlayerFactory(first_name=first, last_name=last, sex=sex, birth_year=year, rating=rating,
                                    city="Eskişehir")
               for first, last, sex, year, rating in PUPILS}
    base = live_server.url
    problems: list[str] = []

    def watch(pg):
        pg.on("console", lambda msg: problems.append(msg.text) if "Content Security Policy" in msg.text else None)
        return pg

    orga = watch(new_page())
    _login(orga, base, "okul-orga")

    # --- the event, with its reference date ------------------------------------------------------------
    orga.goto(f"{base}/events/")
    orga.get_by_role("link", name="New event").click()
    orga.wait_for_url(f"{base}/events/new/")
    orga.fill("input[name=name]", "Eskişehir Okullar Mangala Şampiyonası")
    orga.fill("input[name=start_date]", "2026-05-16")
    orga.fill("input[name=end_date]", "2026-05-17")
    orga.fill("input[name=city]", "Eskişehir")
    orga.fill("input[name=venue]", "Atatürk Spor Salonu")
    orga.fill("input[name=reference_date]", "2026-01-01")
    _submit(orga, orga.get_by_role("button", name="Create"))
    event = Event.objects.get(name="Eskişehir Okullar Mangala Şampiyonası")
    assert (str(event.reference_date), event.age_year, event.created_by) == ("2026-01-01", 2026, org_user)
    assert orga.url == f"{base}/events/{event.slug}/sections/new/"
    assert "Ages are counted in 2026" in orga.locator("form.form").inner_text()

    # --- two sections: girls of primary-school age, and an open section for those born 2014 or earlier ---
    orga.fill("input[name=name]", "İlkokul Kız")
    orga.select_option("select[name=system]", "round_robin")
    orga.fill("input[name=rounds_total]", "3")
    orga.select_option("select[name=sets_per_match]", "3")
    orga.fill("input[name=birth_year_min]", "2015")
    orga.fill("input[name=birth_year_max]", "2018")
    orga.select_option("select[name=sex]", "f")
    orga.fill("input[name=chief_arbiter]", "Hakan Er")
    _submit(orga, orga.get_by_role("button", name="Add and add another"))
    assert orga.url == f"{base}/events/{event.slug}/sections/new/"
    expect(orga.locator(".messages")).to_contain_text("Section İlkokul Kız added.")
    orga.fill("input[name=name]", "Açık")
    orga.select_option("select[name=system]", "round_robin")
    orga.fill("input[name=rounds_total]", "5")
    orga.fill("input[name=birth_year_max]", "2014")
    _submit(orga, orga.get_by_role("button", name="Add section", exact=True))
    assert orga.url == f"{base}/events/{event.slug}/"
    kiz = event.sections.get(name__endswith="İlkokul Kız")
    acik = event.sections.get(name__endswith="Açık")
    assert (kiz.system, kiz.section_birth_year_min, kiz.section_birth_year_max, kiz.section_sex, kiz.chief_arbiter) == (
        "round_robin", 2015, 2018, "f", "Hakan Er")
    assert (acik.section_birth_year_min, acik.section_birth_year_max, acik.section_sex, acik.section_order) == (
        None, 2014, "", 2)
    rows = orga.locator("table.sections tbody tr")
    expect(rows).to_have_count(2)
    expect(orga.locator(f'tr[data-section="{kiz.slug}"]')).to_contain_text(
        "born 2015–2018 (ages 8–11 in 2026) · girls / women")
    expect(orga.locator(f'tr[data-section="{acik.slug}"]')).to_contain_text(
        "born 2014 or earlier (12 or older in 2026)")

    # --- registration: search, see where the rules put each player, register them all -----------------
    orga.get_by_role("link", name="Registration list").click()
    orga.wait_for_url(f"{base}/events/{event.slug}/registrations/")
    orga.fill("input[name=q]", "Eskişehir")
    _submit(orga, orga.get_by_role("button", name="Search"))
    found = orga.locator("table.found tbody tr")
    expect(found).to_have_count(len(PUPILS))
    expect(found.filter(has_text="Yılmaz, Ayşe").locator("td").nth(4)).to_have_text("İlkokul Kız")
    expect(found.filter(has_text="Demir, Mehmet").locator("td").nth(4)).to_have_text("Açık")
    expect(found.filter(has_text="Doğan, Emre").locator("td").nth(4)).to_have_text("Açık")  # born 2014: 12
    expect(found.filter(has_text="Yıldız, Can").locator("td").nth(4)).to_contain_text("No section fits")
    for n in range(len(PUPILS)):
        expect(found).to_have_count(len(PUPILS) - n)
        _submit(orga, found.first.get_by_role("button", name="Register"))
    expect(orga.locator("table.found tbody")).to_contain_text("No player found who is not registered yet.")
    regs = {r.player.first_name: r.section for r in EventRegistration.objects.filter(event=event)
            .select_related("player", "section")}
    assert {k for k, s in regs.items() if s == kiz} == {"Ayşe", "Zeynep", "Elif", "Defne", "Ela"}
    assert {k for k, s in regs.items() if s == acik} == {"Mehmet", "Fatma", "Burak", "Selin", "Emre"}
    assert regs["Can"] is None
    expect(orga.locator("h2#unplaced")).to_have_text("Not placed (1)")
    expect(orga.locator("table.unplaced tbody tr")).to_contain_text(
        "No section fits Yıldız, Can (born 2017, boy / man); choose a section by hand.")

    # the organiser moves the school's best girl to Açık, saying why
    kiz_rows = orga.locator(f"h2#section-{kiz.slug} + p + table.section-list tbody tr")
    expect(kiz_rows).to_have_count(5)
    ayse_row = kiz_rows.filter(has_text="Yılmaz, Ayşe")
    expect(ayse_row).to_contain_text("by the rule: born 2016, girl / woman")
    ayse_row.locator("summary").click()
    ayse_row.locator("select[name=section]").select_option(label="Açık")
    ayse_row.locator("input[name=reason]").fill("Okul birincisi; Açık bölümde oynamak istiyor")
    _submit(orga, ayse_row.get_by_role("button", name="Move"))
    expect(orga.locator(".messages")).to_contain_text("Yılmaz, Ayşe moved: Açık.")
    acik_rows = orga.locator(f"h2#section-{acik.slug} + p + table.section-list tbody tr")
    expect(acik_rows).to_have_count(6)
    expect(acik_rows.filter(has_text="Yılmaz, Ayşe")).to_contain_text(
        "chosen by the organiser: Okul birincisi; Açık bölümde oynamak istiyor")
    expect(kiz_rows).to_have_count(4)
    reg = EventRegistration.objects.get(event=event, player=players["Ayşe"])
    assert (reg.section, reg.override) == (acik, True)

    # the sections' entries
    _submit(orga, orga.get_by_role("button", name="Make the section entries"))
    expect(orga.locator(".messages")).to_contain_text("10 entries made in the sections.")
    expect(orga.locator(".messages")).to_contain_text("1 player is not placed yet.")
    expect(acik_rows.locator("td").nth(4)).to_have_text("entered")
    assert sorted(kiz.entries.values_list("player__first_name", flat=True)) == ["Defne", "Ela", "Elif", "Zeynep"]
    assert list(acik.entries.order_by("start_no").values_list("player__first_name", flat=True)) == [
        "Mehmet", "Ayşe", "Fatma", "Burak", "Selin", "Emre"]  # starting numbers by rating

    # --- Açık: the U12 category and the prize list ---------------------------------------------------------
    orga.goto(f"{base}/t/{acik.slug}/")
    orga.get_by_role("link", name="Categories and prizes").click()
    orga.wait_for_url(f"{base}/t/{acik.slug}/categories/")
    _submit(orga, orga.get_by_test_id("quick-add").get_by_role("button", name="U12"))
    u12 = orga.get_by_test_id("categories").locator("tbody tr").filter(has_text="U12")
    expect(u12).to_contain_text("born in 2014 or later")
    expect(u12.locator("td").nth(3)).to_have_text("2")  # Ayşe (2016) and Emre (2014)
    prize_form = orga.locator("form:has(input[name=form][value=prize])")
    for category, place, label, value in (("", "1", "Kupa ve 1.000 TL", "1000"), ("", "2", "500 TL", "500"),
                                          ("U12", "1", "Altın madalya", "100")):
        orga.locator("details:has(input[name=form][value=prize]) > summary").click()
        if category:
            prize_form.locator("select[name=category]").select_option(label="U12 – Under 12")
        prize_form.locator("input[name=place]").fill(place)
        prize_form.locator("input[name=label]").fill(label)
        prize_form.locator("input[name=value]").fill(value)
        _submit(orga, prize_form.get_by_role("button", name="Add"))
        expect(orga.locator(".messages")).to_contain_text("Prize added.")
    settings = orga.get_by_test_id("prize-settings").locator("tbody tr")
    expect(settings).to_have_count(3)
    assert [settings.nth(i).locator("td").nth(2).inner_text() for i in range(3)] == [
        "Kupa ve 1.000 TL", "500 TL", "Altın madalya"]

    # --- the rounds are played (services); nothing is published yet -------------------------------------
    _play_all_rounds(kiz, org_user)
    _play_all_rounds(acik, org_user)
    kiz.refresh_from_db()
    acik.refresh_from_db()
    assert (kiz.rounds_total, acik.rounds_total) == (3, 5)
    anon = watch(new_page(viewport=PHONE))
    anon.goto(f"{base}/events/{event.slug}/report/")
    for slug in (kiz.slug, acik.slug):
        expect(anon.locator(f'section.report-section[data-section="{slug}"]')).to_contain_text(
            "The standings are not published yet.")
    expect(anon.locator("section.report-section table")).to_have_count(0)
    expect(anon.locator("main")).not_to_contain_text("Kaya, Zeynep")
    hidden_pdf = _get(anon, f"{base}/events/{event.slug}/report.pdf")
    assert hidden_pdf.status == 200 and hidden_pdf.headers["content-type"] == "application/pdf"
    hidden_text = _pdf_text(hidden_pdf.body())
    assert "The standings are not published yet." in hidden_text
    assert "Kaya" not in hidden_text and "Demir" not in hidden_text
    assert _get(anon, f"{base}/t/{acik.slug}/prizes/").status == 404
    assert _get(anon, f"{base}/t/{acik.slug}/prizes.pdf").status == 404

    # --- the organiser publishes both sections' final standings -------------------------------------------
    for section in (kiz, acik):
        orga.goto(f"{base}/t/{section.slug}/")
        expect(orga.get_by_test_id("section-event")).to_have_text(f"Section of {event.name}")
        _submit(orga, orga.get_by_role("button", name="Publish standings"))
        section.refresh_from_db()
        assert section.status == "finished" and section.standings_published

    # --- anyone: the event page, the report and its PDF -------------------------------------------------------
    anon.goto(f"{base}/events/{event.slug}/")
    expect(anon.locator(f'tr[data-section="{kiz.slug}"]')).to_contain_text("4")
    expect(anon.locator(f'tr[data-section="{kiz.slug}"]')).to_contain_text("3 of 3 rounds")
    expect(anon.locator(f'tr[data-section="{acik.slug}"]')).to_contain_text("5 of 5 rounds")
    anon.get_by_role("link", name="Event report").click()
    anon.wait_for_url(f"{base}/events/{event.slug}/report/")

    def report_rows(section):
        part = anon.locator(f'section.report-section[data-section="{section.slug}"]')
        expect(part).to_contain_text("Final standings")
        return [[c.strip() for c in row.locator("td").all_inner_texts()]
                for row in part.locator("tbody tr").all()]

    kiz_part = anon.locator(f'section.report-section[data-section="{kiz.slug}"]')
    expect(kiz_part.locator("h2")).to_have_text("İlkokul Kız")
    expect(kiz_part.locator(".facts")).to_contain_text("4 players")
    expect(kiz_part.locator(".facts")).to_contain_text("Chief arbiter: Hakan Er")
    assert [(r[0], r[1], r[3]) for r in report_rows(kiz)] == [
        ("1", "Kaya, Zeynep", "3"), ("2", "Şahin, Elif", "2"), ("3", "Çelik, Defne", "1"), ("4", "Aydın, Ela", "0")]
    assert [(r[0], r[1], r[3]) for r in report_rows(acik)] == [
        ("1", "Demir, Mehmet", "5"), ("2", "Yılmaz, Ayşe", "4"), ("3", "Arslan, Fatma", "3"),
        ("4", "Koç, Burak", "2"), ("5", "Öztürk, Selin", "1"), ("6", "Doğan, Emre", "0")]
    pdf_href = anon.get_by_role("link", name="Report (PDF)").get_attribute("href")
    assert pdf_href == f"/events/{event.slug}/report.pdf"
    pdf = _get(anon, f"{base}{pdf_href}")
    assert pdf.status == 200 and pdf.headers["content-type"] == "application/pdf"
    assert pdf.body().startswith(b"%PDF")
    text = _pdf_text(pdf.body())
    assert "Eskişehir Okullar Mangala Şampiyonası" in text and "Final standings" in text
    assert "Kaya, Zeynep" in text and "Demir, Mehmet" in text and "Hakan Er" in text
    assert "The standings are not published yet." not in text

    # --- anyone: the prize list of Açık -------------------------------------------------------------------------
    anon.goto(f"{base}/t/{acik.slug}/")
    anon.get_by_role("link", name="Prize list").click()
    anon.wait_for_url(f"{base}/t/{acik.slug}/prizes/")
    expect(anon.get_by_test_id("prizes-provisional")).to_have_count(0)
    prize_rows = anon.get_by_test_id("prizes").locator("tbody tr")
    expect(prize_rows).to_have_count(3)
    got = {}
    for row in prize_rows.all():
        cells = [c.strip() for c in row.locator("td").all_inner_texts()]
        got[row.get_attribute("data-prize")] = (cells[2], cells[3], cells[4])
    assert got == {
        "-1": ("Kupa ve 1.000 TL", "Demir, Mehmet", "1"),
        "-2": ("500 TL", "Yılmaz, Ayşe", "2"),
        "U12-1": ("Altın madalya", "Doğan, Emre", "6"),  # Ayşe already has a more valuable prize
    }
    u12_rows = anon.get_by_test_id("category-U12").locator("tbody tr")
    expect(u12_rows).to_have_count(2)
    assert [[c.strip() for c in u12_rows.nth(i).locator("td").all_inner_texts()][:4] for i in range(2)] == [
        ["1", "2", "2", "Yılmaz, Ayşe"], ["2", "6", "6", "Doğan, Emre"]]
    prizes_pdf = _get(anon, f"{base}/t/{acik.slug}/prizes.pdf")
    assert prizes_pdf.status == 200 and prizes_pdf.headers["content-type"] == "application/pdf"
    assert re.search(r"Doğan,\s*Emre", _pdf_text(prizes_pdf.body()))
    assert problems == []
