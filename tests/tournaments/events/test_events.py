"""Multi-section events (issue 14): the pure section rule, the services (placing by the rule, the
organiser's override, the unplaced list, the sections' entries and the refusal once a section has
paired a round), the pages as anonymous and organiser, the API (``system``, ``format``, ``event`` of
``/api/tournaments/`` and ``/api/events/``) and the sample data's school event.

The school event of the tests: ages counted in 2026; İlkokul Kız = girls born 2015-2018 (8-11),
İlkokul Erkek = boys born 2015-2018, Ortaokul = anyone born 2011-2014 (12-15).
"""
from __future__ import annotations

import datetime as dt
import doctest

import pytest
from django.test import Client
from django.utils import translation
from rest_framework.test import APIClient

from federation.errors import Conflict, PermissionDenied, ValidationFailed
from tests.factories import PASSWORD, PlayerFactory, UserFactory, organiser
from tournaments import services
from tournaments.results import services as result_services
from tournaments.rounds import services as round_services
from tournaments.events import services as events
from tournaments.events import sections
from tournaments.models import Entry, Event, EventRegistration, Round, Tournament, TournamentRole
from tournaments.events.sections import SectionRule, ages_for_birth_years, birth_years_for_ages, fitting_sections
from tournaments.results.services import SetInput

pytestmark = pytest.mark.django_db

WHITE_WINS = [SetInput(30, 18), SetInput(26, 22)]


@pytest.fixture(autouse=True)
def english():
    with translation.override("en"):
        yield


# --------------------------------------------------------------------------------------------
# The pure rule
# --------------------------------------------------------------------------------------------

KIZ = SectionRule(key="kiz", birth_year_min=2015, birth_year_max=2018, sex="f")
ERKEK = SectionRule(key="erkek", birth_year_min=2015, birth_year_max=2018, sex="m")
ORTA = SectionRule(key="orta", birth_year_min=2011, birth_year_max=2014)
RULES = [KIZ, ERKEK, ORTA]


def _keys(birth_year, sex, rules=RULES, age_year=2026):
    return [r.key for r in fitting_sections(rules, birth_year=birth_year, sex=sex, age_year=age_year)]


@pytest.mark.parametrize(("birth_year", "sex", "expected"), [
    (2016, "f", ["kiz"]),        # a girl of 10
    (2015, "f", ["kiz"]),        # both ends are included
    (2018, "m", ["erkek"]),
    (2014, "f", ["orta"]),       # a girl of 12: secondary school, any sex
    (2011, "m", ["orta"]),
    (2019, "f", []),             # too young for every section
    (2010, "m", []),             # too old
    (2016, "", []),              # sex not known: no girls' or boys' section
    (2013, "", ["orta"]),        # ... but the open one
    (None, "f", []),             # birth year not known
])
def test_fitting_sections_by_birth_year_and_sex(birth_year, sex, expected):
    assert _keys(birth_year, sex) == expected


def test_open_sections_and_several_fits():
    acik = SectionRule(key="acik")
    assert _keys(2016, "f", RULES + [acik]) == ["kiz", "acik"]  # several fit
    assert _keys(None, "", RULES + [acik]) == ["acik"]
    assert _keys(1970, "m", [acik]) == ["acik"]
    u12 = SectionRule(key="u12", birth_year_min=2014)  # only a lower bound
    assert _keys(2014, "m", [u12]) == ["u12"] and _keys(2013, "m", [u12]) == []
    assert _keys(2030, "m", [u12], age_year=2026) == []  # born after the age year: a typing error
    assert _keys(2030, "m", [u12], age_year=None) == ["u12"]


def test_ages_and_birth_years_in_the_age_year():
    assert birth_years_for_ages(2026, min_age=8, max_age=11) == (2015, 2018)
    assert birth_years_for_ages(2026, max_age=11) == (2015, None)
    assert ages_for_birth_years(2026, 2015, 2018) == (8, 11)
    assert ages_for_birth_years(2026, 2011, None) == (None, 15)
    assert KIZ.ages(2026) == (8, 11) and KIZ.ages(None) == (None, None)


def test_overlapping_rules():
    acik = SectionRule(key="acik")
    pairs = sections.overlapping(RULES + [acik])
    assert [(a.key, b.key) for a, b in pairs] == [("kiz", "acik"), ("erkek", "acik"), ("orta", "acik")]
    assert sections.overlapping(RULES) == []  # girls and boys of the same years do not overlap


def test_the_docstring_examples_hold():
    result = doctest.testmod(sections)
    assert result.attempted >= 9 and result.failed == 0


# --------------------------------------------------------------------------------------------
# Services
# --------------------------------------------------------------------------------------------


@pytest.fixture
def org():
    return organiser(username="okul-org")


@pytest.fixture
def school(org):
    """The event with its three sections (3-round Swiss each)."""
    event = events.event_create(name="İl Okullar Mangala Şampiyonası", user=org, start_date=dt.date(2026, 5, 16),
                                end_date=dt.date(2026, 5, 17), city="Eskişehir")
    kiz = events.event_section_add(event=event, user=org, name="İlkokul Kız", rounds_total=3, birth_year_min=2015,
                                   birth_year_max=2018, sex="f", chief_arbiter="Selin Aydın")
    erkek = events.event_section_add(event=event, user=org, name="İlkokul Erkek", rounds_total=3,
                                     birth_year_min=2015, birth_year_max=2018, sex="m")
    orta = events.event_section_add(event=event, user=org, name="Ortaokul", rounds_total=3, birth_year_min=2011,
                                    birth_year_max=2014)
    return event, kiz, erkek, orta


def _pupil(last, sex, year, rating=1200):
    return PlayerFactory(last_name=last, first_name="Öğrenci", sex=sex, birth_year=year, rating=rating)


def test_event_create_and_its_checks(org):
    event = events.event_create(name="  Okullar Arası 2026 ", user=org, start_date=dt.date(2026, 5, 16))
    assert (event.slug, event.name, event.created_by, event.age_year) == (
        "okullar-arasi-2026", "Okullar Arası 2026", org, 2026)
    assert events.event_create(name="Okullar Arası 2026", user=org).slug == "okullar-arasi-2026-2"
    with pytest.raises(PermissionDenied):
        events.event_create(name="X", user=UserFactory())
    with pytest.raises(ValidationFailed) as exc:
        events.event_create(name="X", user=org, start_date=dt.date(2026, 5, 16), end_date=dt.date(2026, 5, 1))
    assert exc.value.field == "end_date"
    with pytest.raises(ValidationFailed) as exc:
        events.event_create(name="  ", user=org)
    assert exc.value.field == "name"
    row = Event.history.filter(id=event.id).get()
    assert (row.audit_action, row.history_user) == ("event.create", org)


def test_sections_are_tournaments_with_their_rule_and_the_creator_organises_them(school, org):
    event, kiz, erkek, orta = school
    assert kiz.name == "İl Okullar Mangala Şampiyonası – İlkokul Kız"
    assert events.section_label(kiz) == "İlkokul Kız"
    assert (kiz.event, kiz.section_birth_year_min, kiz.section_birth_year_max, kiz.section_sex) == (event, 2015, 2018, "f")
    assert [s.section_order for s in (kiz, erkek, orta)] == [1, 2, 3]
    assert (kiz.start_date, kiz.end_date, kiz.city, kiz.status) == (dt.date(2026, 5, 16), dt.date(2026, 5, 17),
                                                                   "Eskişehir", "draft")
    assert kiz.chief_arbiter == "Selin Aydın"
    # staff adds a section: the event's creator still becomes its organiser
    staff = UserFactory(is_staff=True)
    acik = events.event_section_add(event=event, user=staff, name="Açık", rounds_total=5)
    assert acik.created_by == staff
    assert TournamentRole.objects.filter(tournament=acik, user=org, role="organiser").exists()
    row = Tournament.history.filter(id=acik.id, history_type="+").get()
    assert row.audit_action == "event.section_add"


def test_section_add_refusals(school, org):
    event, *_ = school
    with pytest.raises(ValidationFailed) as exc:
        events.event_section_add(event=event, user=org, name="Ters", rounds_total=3, birth_year_min=2018,
                                 birth_year_max=2015)
    assert exc.value.field == "birth_year_max"
    with pytest.raises(ValidationFailed) as exc:
        events.event_section_add(event=event, user=org, name="X", rounds_total=3, sex="x")
    assert exc.value.field == "sex"
    with pytest.raises(ValidationFailed) as exc:
        events.event_section_add(event=event, user=org, name="X", rounds_total=3, birth_year_min="iki bin")
    assert exc.value.field == "birth_year_min"
    with pytest.raises(Conflict) as exc:
        events.event_section_add(event=event, user=org, name="ilkokul kız", rounds_total=3)
    assert exc.value.field == "name"
    with pytest.raises(ValidationFailed) as exc:  # the tournament's own checks
        events.event_section_add(event=event, user=org, name="Çift", rounds_total=3, sets_per_match=4)
    assert exc.value.field == "sets_per_match"
    with pytest.raises(PermissionDenied):
        events.event_section_add(event=event, user=UserFactory(), name="Y", rounds_total=3)
    assert event.sections.count() == 3


def test_register_places_by_the_rule(school, org):
    event, kiz, erkek, orta = school
    ayse = _pupil("Ayşe", "f", 2016)
    can = _pupil("Can", "m", 2017)
    elif_ = _pupil("Elif", "f", 2012)
    regs = [events.event_register(event=event, player=p, user=org) for p in (ayse, can, elif_)]
    assert [(r.section, r.override, r.placement_message) for r in regs] == [
        (kiz, False, ""), (erkek, False, ""), (orta, False, "")]
    row = EventRegistration.history.filter(id=regs[0].id).get()
    assert (row.audit_action, row.history_user) == ("event.register", org)
    with pytest.raises(Conflict) as exc:
        events.event_register(event=event, player=ayse, user=org)
    assert exc.value.field == "player" and "already registered" in exc.value.message


def test_no_section_or_several_leave_the_player_unplaced_with_a_message(school, org):
    event, kiz, erkek, orta = school
    old = _pupil("Lise", "m", 2009)
    reg = events.event_register(event=event, player=old, user=org)
    assert reg.section is None and not reg.override
    assert reg.placement_message == "No section fits Lise, Öğrenci (born 2009, boy / man); choose a section by hand."
    unknown = _pupil("Bilinmez", "f", None)
    assert "birth year not known" in events.event_register(event=event, player=unknown, user=org).placement_message
    acik = events.event_section_add(event=event, user=org, name="Açık", rounds_total=5)
    # adding an open section places the ones nobody fitted
    assert EventRegistration.objects.get(player=old).section == acik
    assert EventRegistration.objects.get(player=unknown).section == acik
    girl = _pupil("Kız", "f", 2016)
    reg = events.event_register(event=event, player=girl, user=org)
    assert reg.section is None
    assert reg.placement_message == ("Several sections fit Kız, Öğrenci (born 2016, girl / woman) "
                                     "(İlkokul Kız, Açık); choose one by hand.")


def test_override_section_and_a_section_of_another_event(school, org):
    event, kiz, erkek, orta = school
    strong = _pupil("Güçlü", "f", 2016)
    reg = events.event_register(event=event, player=strong, section=orta, note="Okul takımına seçildi", user=org)
    assert (reg.section, reg.override, reg.note) == (orta, True, "Okul takımına seçildi")
    other = events.event_create(name="Başka Etkinlik", user=org, start_date=dt.date(2026, 6, 1))
    foreign = events.event_section_add(event=other, user=org, name="Açık", rounds_total=3)
    for section in (foreign, services.tournament_create(name="Bağımsız", rounds_total=3, created_by=org)):
        with pytest.raises(ValidationFailed) as exc:
            events.event_register(event=event, player=_pupil(section.slug, "f", 2016), section=section, user=org)
        assert exc.value.field == "section" and "is not a section of İl Okullar" in exc.value.message
    with pytest.raises(ValidationFailed) as exc:
        events.event_registration_move(registration=reg, section=foreign, reason="yanlış", user=org)
    assert exc.value.field == "section"


def test_move_needs_a_reason_and_is_recorded(school, org):
    event, kiz, erkek, orta = school
    reg = events.event_register(event=event, player=_pupil("Ada", "f", 2016), user=org)
    with pytest.raises(ValidationFailed) as exc:
        events.event_registration_move(registration=reg, section=orta, reason="  ", user=org)
    assert exc.value.field == "reason"
    with pytest.raises(Conflict):
        events.event_registration_move(registration=reg, section=kiz, reason="aynı yer", user=org)
    reg = events.event_registration_move(registration=reg, section=orta, reason="Ortaokulda oynamak istiyor",
                                         user=org)
    reg.refresh_from_db()
    assert (reg.section, reg.override, reg.note) == (orta, True, "Ortaokulda oynamak istiyor")
    row = EventRegistration.history.filter(id=reg.id).latest("history_date")
    assert (row.audit_action, row.history_change_reason, row.section_id) == (
        "event.move", "Ortaokulda oynamak istiyor", orta.id)
    reg = events.event_registration_move(registration=reg, section=None, reason="Belgesi eksik", user=org)
    assert reg.section is None and reg.override
    with pytest.raises(PermissionDenied):
        events.event_registration_move(registration=reg, section=kiz, reason="x", user=UserFactory())


def test_sync_makes_the_entries_and_follows_moves_before_pairing(school, org):
    event, kiz, erkek, orta = school
    a, b, c = _pupil("Ayşe", "f", 2016, 1300), _pupil("Banu", "f", 2015, 1400), _pupil("Cem", "m", 2016)
    old = _pupil("Lise", "m", 2008)
    for p in (a, b, c, old):
        events.event_register(event=event, player=p, user=org)
    report = events.event_sections_sync(event=event, user=org)
    assert sorted(report.added) == sorted([
        ("Ayşe, Öğrenci", "İlkokul Kız"), ("Banu, Öğrenci", "İlkokul Kız"), ("Cem, Öğrenci", "İlkokul Erkek")])
    assert report.removed == [] and report.unplaced == 1
    assert [(e.start_no, e.player) for e in kiz.entries.order_by("start_no")] == [(1, b), (2, a)]  # by rating
    assert [e.player for e in erkek.entries.all()] == [c]
    assert not Entry.objects.filter(player=old).exists()
    assert events.event_sections_sync(event=event, user=org).added == []  # nothing left to do
    # a move before the pairing: the entry follows
    reg = EventRegistration.objects.get(player=b)
    events.event_registration_move(registration=reg, section=orta, reason="Seviyesi yüksek", user=org)
    report = events.event_sections_sync(event=event, user=org)
    assert (report.added, report.removed) == ([("Banu, Öğrenci", "Ortaokul")], [("Banu, Öğrenci", "İlkokul Kız")])
    assert [(e.start_no, e.player) for e in kiz.entries.all()] == [(1, a)]
    assert [e.player for e in orta.entries.all()] == [b]
    entry_row = Entry.history.filter(tournament_id=orta.id).get()
    assert entry_row.audit_action == "event.sync"


def test_no_move_out_of_a_section_that_has_paired_a_round(school, org):
    event, kiz, erkek, orta = school
    girls = [_pupil(f"Kız{i}", "f", 2016, 1500 - i) for i in range(4)]
    for p in girls:
        events.event_register(event=event, player=p, user=org)
    events.event_sections_sync(event=event, user=org)
    round_services.round_pair(tournament=kiz, user=org, coin_seed="okul")
    reg = EventRegistration.objects.get(player=girls[0])
    with pytest.raises(Conflict) as exc:
        events.event_registration_move(registration=reg, section=orta, reason="yanlış bölüm", user=org)
    assert exc.value.code == "section_started" and exc.value.field == "section"
    assert exc.value.message.startswith("Kız0, Öğrenci is entered in İlkokul Kız, which has already paired round 1")
    # the list changed behind the service's back (the admin): the sync refuses too, and changes nothing
    EventRegistration.objects.filter(pk=reg.pk).update(section=orta, override=True)
    late = _pupil("Geç", "m", 2017)
    events.event_register(event=event, player=late, user=org)
    with pytest.raises(Conflict) as exc:
        events.event_sections_sync(event=event, user=org)
    assert exc.value.code == "section_started" and "İlkokul Kız" in exc.value.message
    assert kiz.entries.count() == 4 and not orta.entries.exists() and not erkek.entries.exists()
    with pytest.raises(Conflict):
        events.event_registration_remove(registration=reg, user=org)
    # a player placed in a section that has already paired a round joins it late, with zero-point byes
    EventRegistration.objects.filter(pk=reg.pk).update(section=kiz)
    rnd = kiz.rounds.get()
    round_services.round_publish(round=rnd, user=org)
    for m in rnd.matches.filter(kind="game"):
        result_services.match_result_enter(match=m, sets=WHITE_WINS, user=org)
    round_services.round_close(round=rnd, user=org)
    newcomer = _pupil("Yeni", "f", 2017, 1000)
    events.event_register(event=event, player=newcomer, user=org)
    events.event_sections_sync(event=event, user=org)
    entry = kiz.entries.get(player=newcomer)
    assert [(m.kind, m.bye_kind, str(m.white_points)) for m in entry.matches_as_white.all()] == [("bye", "zero", "0.0")]


def test_remove_takes_the_player_out_of_a_section_not_started(school, org):
    event, kiz, *_ = school
    a, b = _pupil("Ayşe", "f", 2016, 1300), _pupil("Banu", "f", 2015, 1400)
    for p in (a, b):
        events.event_register(event=event, player=p, user=org)
    events.event_sections_sync(event=event, user=org)
    events.event_registration_remove(registration=EventRegistration.objects.get(player=b), user=org,
                                     reason="Gelmedi")
    assert not EventRegistration.objects.filter(player=b).exists()
    assert [(e.start_no, e.player) for e in kiz.entries.all()] == [(1, a)]


def test_update_of_the_age_year_places_the_rule_placed_players_again(school, org):
    event, kiz, erkek, orta = school
    p = _pupil("Sınırda", "f", 2014)  # 12 in 2026: Ortaokul; 11 in 2025 would not change the birth years
    manual = _pupil("Elle", "f", 2016)
    events.event_register(event=event, player=p, user=org)
    events.event_register(event=event, player=manual, section=orta, note="seçim", user=org)
    event = events.event_update(event=event, user=org, name="İl Okullar Şampiyonası 2026", city="Bursa")
    assert (event.name, event.city) == ("İl Okullar Şampiyonası 2026", "Bursa")
    # birth-year rules do not depend on the age year, so nobody moves; the override stays
    events.event_update(event=event, user=org, reference_date=dt.date(2025, 9, 1))
    assert EventRegistration.objects.get(player=p).section == orta
    assert EventRegistration.objects.get(player=manual).section == orta
    with pytest.raises(ValidationFailed):
        events.event_update(event=event, user=org, slug="baska")
    events.event_sections_sync(event=event, user=org)
    assert orta.entries.count() == 2
    round_services.round_pair(tournament=orta, user=org, coin_seed="x")
    with pytest.raises(Conflict) as exc:
        events.event_update(event=event, user=org, reference_date=dt.date(2024, 9, 1))
    assert exc.value.field == "reference_date"


def test_a_deactivated_player_cannot_be_registered(school, org):
    event, *_ = school
    p = _pupil("Pasif", "f", 2016)
    p.active = False
    p.save()
    with pytest.raises(Conflict) as exc:
        events.event_register(event=event, player=p, user=org)
    assert exc.value.field == "player"


# --------------------------------------------------------------------------------------------
# Pages
# --------------------------------------------------------------------------------------------


def _client(user=None) -> Client:
    c = Client(HTTP_ACCEPT_LANGUAGE="en")
    if user is not None:
        assert c.login(username=user.username, password=PASSWORD)
    return c


def _play_through(section: Tournament, org) -> None:
    for _n in range(section.rounds_total):
        rnd = round_services.round_pair(tournament=section, user=org, coin_seed="okul")
        round_services.round_publish(round=rnd, user=org)
        for m in rnd.matches.filter(kind="game"):
            result_services.match_result_enter(match=m, sets=WHITE_WINS, user=org)
        round_services.round_close(round=rnd, user=org)
    services.standings_publish(tournament=section, user=org)


@pytest.fixture
def played(school, org):
    """The school event with 4 girls (İlkokul Kız played through, standings published), 2 boys
    (İlkokul Erkek: round 1 paired, not published) and nobody in Ortaokul."""
    event, kiz, erkek, orta = school
    for i in range(4):
        events.event_register(event=event, player=_pupil(f"Kız{i}", "f", 2016, 1500 - 10 * i), user=org)
    for i in range(2):
        events.event_register(event=event, player=_pupil(f"Oğlan{i}", "m", 2017), user=org)
    events.event_sections_sync(event=event, user=org)
    _play_through(kiz, org)
    round_services.round_pair(tournament=erkek, user=org, coin_seed="okul")
    for t in (kiz, erkek, orta):
        t.refresh_from_db()
    return event, kiz, erkek, orta


def test_public_event_page_respects_each_sections_publish_gate(played):
    event, kiz, erkek, orta = played
    page = _client().get(f"/events/{event.slug}/")
    assert page.status_code == 200
    html = page.content.decode()
    assert "İl Okullar Mangala Şampiyonası" in html
    assert f'href="/t/{kiz.slug}/"' in html and f'href="/t/{kiz.slug}/standings/"' in html
    for s in (erkek, orta):  # nothing published: the name only
        assert "İlkokul Erkek" in html and "Ortaokul" in html
        assert f"/t/{s.slug}/" not in html
    assert "born 2015–2018 (ages 8–11 in 2026) · girls / women" in html
    assert "Registration list" not in html  # no organiser box for the public
    assert _client().get("/events/yok-boyle-bir-etkinlik/").status_code == 404


def test_organiser_sees_every_section_and_the_organiser_pages(played, org):
    event, kiz, erkek, orta = played
    html = _client(org).get(f"/events/{event.slug}/").content.decode()
    for s in (kiz, erkek, orta):
        assert f'href="/t/{s.slug}/"' in html
    assert f'href="/events/{event.slug}/registrations/"' in html


def test_section_page_links_its_event(played):
    event, kiz, *_ = played
    html = _client().get(f"/t/{kiz.slug}/").content.decode()
    assert f'href="/events/{event.slug}/"' in html and "Section of İl Okullar Mangala Şampiyonası" in html


def test_registration_pages_are_for_organisers(played):
    event, *_ = played
    r = _client().get(f"/events/{event.slug}/registrations/")
    assert r.status_code == 302 and r["Location"].startswith("/accounts/login/")
    r = _client(UserFactory()).get(f"/events/{event.slug}/registrations/")
    assert r.status_code == 403 and "Only the event&#x27;s organisers can do this." in r.content.decode()
    waiting = _pupil("Bekleyen", "f", 2013)
    EventRegistration.objects.create(event=event, player=waiting, section=event.sections.get(name__endswith="Ortaokul"))
    r = _client(UserFactory()).post(f"/events/{event.slug}/registrations/sync/", follow=True)
    assert "Only the event&#x27;s organisers can do this." in r.content.decode()
    assert not Entry.objects.filter(player=waiting).exists()
    r = _client(UserFactory()).post(f"/events/{event.slug}/registrations/add/", {"player": waiting.pk}, follow=True)
    assert "Only the event&#x27;s organisers can do this." in r.content.decode()


def test_organiser_registers_searches_moves_and_syncs_through_the_pages(played, org):
    event, kiz, erkek, orta = played
    c = _client(org)
    teen = _pupil("Ortalı", "f", 2013)
    adult = _pupil("Yetişkin", "m", 1990)
    page = c.get(f"/events/{event.slug}/registrations/", {"q": "Ortalı"}).content.decode()
    assert "Ortalı, Öğrenci" in page and ">Ortaokul<" in page  # where the rules would put her
    r = c.post(f"/events/{event.slug}/registrations/add/", {"player": teen.pk, "q": "Ortalı"})
    assert r.status_code == 302
    assert EventRegistration.objects.get(player=teen).section == orta
    r = c.post(f"/events/{event.slug}/registrations/add/", {"player": adult.pk}, follow=True)
    assert "No section fits Yetişkin, Öğrenci (born 1990, boy / man)" in r.content.decode()
    reg = EventRegistration.objects.get(player=adult)
    page = c.get(f"/events/{event.slug}/registrations/").content.decode()
    assert "Not placed (1)" in page and "by the rule: born 2013, girl / woman" in page
    r = c.post(f"/events/{event.slug}/registrations/{reg.pk}/move/", {"section": orta.pk, "reason": "Öğretmen"},
               follow=True)
    assert "Yetişkin, Öğrenci moved: Ortaokul." in r.content.decode()
    assert "chosen by the organiser: Öğretmen" in r.content.decode()
    r = c.post(f"/events/{event.slug}/registrations/sync/", follow=True)
    assert "2 entries made in the sections." in r.content.decode()
    assert sorted(orta.entries.values_list("player__last_name", flat=True)) == ["Ortalı", "Yetişkin"]
    # moving a girl out of the section that has played: refused with the reason shown
    girl = EventRegistration.objects.get(player__last_name="Kız0")
    r = c.post(f"/events/{event.slug}/registrations/{girl.pk}/move/", {"section": orta.pk, "reason": "deneme"},
               follow=True)
    assert "which has already paired round 1" in r.content.decode()
    assert EventRegistration.objects.get(pk=girl.pk).section == kiz


def test_organiser_creates_an_event_and_adds_a_section_through_the_pages(org):
    c = _client(org)
    r = c.post("/events/new/", {"name": "İlçe Şampiyonası", "start_date": "2026-10-03", "city": "Konya"})
    event = Event.objects.get(name="İlçe Şampiyonası")
    assert r.status_code == 302 and r["Location"] == f"/events/{event.slug}/sections/new/"
    r = c.post(f"/events/{event.slug}/sections/new/", {
        "name": "Ortaokul Kız", "system": "round_robin", "rounds_total": "5", "sets_per_match": "3",
        "birth_year_min": "2011", "birth_year_max": "2014", "sex": "f",
    })
    assert r.status_code == 302
    section = event.sections.get()
    assert (section.system, section.section_sex, section.section_birth_year_min) == ("round_robin", "f", 2011)
    r = c.post(f"/events/{event.slug}/sections/new/", {
        "name": "Ters", "system": "swiss", "rounds_total": "5", "sets_per_match": "3",
        "birth_year_min": "2014", "birth_year_max": "2011",
    })
    assert r.status_code == 200 and "The section&#x27;s birth years are in the wrong order." in r.content.decode()
    assert _client(UserFactory()).get("/events/new/").status_code == 403


def test_event_report_and_its_pdf(played, org, settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path
    event, kiz, erkek, orta = played
    html = _client().get(f"/events/{event.slug}/report/").content.decode()
    assert html.count('class="report-section"') == 3
    kiz_part = html[html.index(f'data-section="{kiz.slug}"'):html.index(f'data-section="{erkek.slug}"')]
    assert "4 players" in kiz_part and "3 of 3 rounds" in kiz_part and "Selin Aydın" in kiz_part
    assert "Final standings" in kiz_part and kiz_part.count("<tr>") == 5  # heading + 4 players
    erkek_part = html[html.index(f'data-section="{erkek.slug}"'):html.index(f'data-section="{orta.slug}"')]
    assert "The standings are not published yet." in erkek_part and "<table" not in erkek_part
    from tournaments.events import selectors as event_selectors

    report = event_selectors.event_report(event=event, user=None)
    assert report[0].final and report[0].players == 4 and report[0].rounds_closed == 3
    assert sorted(line.name for line in report[0].lines) == ["Kız0, Öğrenci", "Kız1, Öğrenci", "Kız2, Öğrenci",
                                                            "Kız3, Öğrenci"]
    assert sum(line.points for line in report[0].lines) == 6  # two games a round, three rounds
    assert [line.points for line in report[0].lines] == sorted((line.points for line in report[0].lines),
                                                               reverse=True)
    assert report[1].lines == [] and report[2].players == 0
    r = _client().get(f"/events/{event.slug}/report.pdf")
    assert r.status_code == 200 and r["Content-Type"] == "application/pdf"
    assert b"".join(r.streaming_content).startswith(b"%PDF")  # embedded mode: built by the task, run eagerly


# --------------------------------------------------------------------------------------------
# API
# --------------------------------------------------------------------------------------------


def test_tournament_list_carries_system_format_and_event(played):
    event, kiz, erkek, orta = played
    plain = services.tournament_create(name="Bağımsız Round Robin", rounds_total=3, system="round_robin")
    items = {t["slug"]: t for t in APIClient().get("/api/tournaments/", {"limit": 100}).json()["results"]}
    assert (items[kiz.slug]["system"], items[kiz.slug]["format"], items[kiz.slug]["event"]) == (
        "swiss", "individual", event.slug)
    assert (items[plain.slug]["system"], items[plain.slug]["format"], items[plain.slug]["event"]) == (
        "round_robin", "individual", None)
    assert {"slug", "name", "start_date", "end_date", "city", "rounds_total", "status", "n_entries"} <= set(
        items[kiz.slug])


def test_events_api(played):
    event, kiz, erkek, orta = played
    body = APIClient().get("/api/events/").json()
    assert body["count"] == 1
    assert body["results"][0] == {
        "slug": event.slug, "name": "İl Okullar Mangala Şampiyonası", "start_date": "2026-05-16",
        "end_date": "2026-05-17", "venue": "", "city": "Eskişehir", "reference_date": None, "age_year": 2026,
        "n_sections": 3,
    }
    detail = APIClient(HTTP_ACCEPT_LANGUAGE="en").get(f"/api/events/{event.slug}/").json()
    assert [s["label"] for s in detail["sections"]] == ["İlkokul Kız", "İlkokul Erkek", "Ortaokul"]
    first = detail["sections"][0]
    assert first["slug"] == kiz.slug and first["system"] == "swiss" and first["format"] == "individual"
    assert first["n_entries"] == 4 and first["status"] == "finished"
    assert first["rule"] == {"birth_year_min": 2015, "birth_year_max": 2018, "sex": "f", "min_age": 8, "max_age": 11,
                             "text": "born 2015–2018 (ages 8–11 in 2026) · girls / women"}
    assert detail["sections"][2]["rule"]["sex"] == "" and detail["sections"][2]["rule"]["min_age"] == 12
    r = APIClient().get("/api/events/yok/")
    assert r.status_code == 404 and r.json()["error"]["code"] == "not_found"


def test_archived_sections_are_for_staff_only(played):
    event, kiz, erkek, orta = played
    Tournament.objects.filter(pk=orta.pk).update(archived_at=dt.datetime(2026, 6, 1, tzinfo=dt.UTC))
    labels = [s["label"] for s in APIClient().get(f"/api/events/{event.slug}/").json()["sections"]]
    assert labels == ["İlkokul Kız", "İlkokul Erkek"]
    staff = UserFactory(is_staff=True)
    api = APIClient()
    api.force_authenticate(staff)
    assert len(api.get(f"/api/events/{event.slug}/").json()["sections"]) == 3
    assert "Ortaokul" not in _client().get(f"/events/{event.slug}/").content.decode()


def test_schema_documents_the_event_endpoints_and_fields(db):
    from drf_spectacular.generators import SchemaGenerator

    schema = SchemaGenerator().get_schema(request=None, public=True)
    assert {"/api/events/", "/api/events/{slug}/"} <= set(schema["paths"])
    props = schema["components"]["schemas"]["TournamentListOutput"]["properties"]
    assert {"system", "format", "event"} <= set(props)
    assert schema["components"]["schemas"]["FormatEnum"]["enum"] == ["individual", "team"]


# --------------------------------------------------------------------------------------------
# Sample data
# --------------------------------------------------------------------------------------------


def test_sample_data_has_the_school_event_with_three_sections_played_through():
    from federation.sample_data import SCHOOL_EVENT, load

    load()
    event = Event.objects.get(name=SCHOOL_EVENT)
    sections_ = list(event.sections.order_by("section_order"))
    assert [events.section_label(s) for s in sections_] == ["İlkokul Kız", "İlkokul Erkek", "Ortaokul Açık"]
    assert [(s.section_birth_year_min, s.section_birth_year_max, s.section_sex) for s in sections_] == [
        (2015, 2018, "f"), (2015, 2018, "m"), (2011, 2014, "")]
    regs = list(event.registrations.select_related("player", "section"))
    assert len(regs) == 18 and not [r for r in regs if r.section is None or r.override]
    for r in regs:  # placed by the rule, and entered in that section only
        assert events.placement_for(event=event, player=r.player).section == r.section
        assert list(Entry.objects.filter(player=r.player).values_list("tournament_id", flat=True)) == [r.section_id]
    for s in sections_:
        assert s.status == "finished" and s.standings_published
        assert s.rounds.filter(status=Round.Status.CLOSED).count() == s.rounds_total
        assert not s.rounds.filter(matches__kind="game", matches__white_points__isnull=True).exists()
        assert s.entries.count() == 6
    assert load()["event"] == event.slug and Event.objects.count() == 1  # idempotent
