"""Official rating lists (issue 13, item 4): the frozen snapshot against numbers worked out by hand from a
small fixture (rating as of the date, sets, status, rank with ties, the activity window's edge, change
since the previous list, age category), withdrawal and a corrected list for the same date, the refusals
(service and API: field and reason), the audit history, the pages, CSV and PDF as an anonymous visitor,
the staff-only forms, the player's list history, KVKK (no sex or birth year; anonymising renames the
lines), the monthly job, the sample data, and the queries a page costs.

The fixture writes rating rows directly (a rating run's output), so each expected number is plain::

    list of 1 May 2026 (window: rated sets on 2 May 2025 … 1 May 2026)
    player  events up to the date (period: rating after, status, sets)          rating sets active rank cat.
    Cengiz  2025-05-02: 1651.2 est. 5          (the window's first day)          1651   5    yes    1   50plus
    Çelik   2025-05-02: 1600.4 est. 4; 2026-04-20: 1650.5 est. 6 (06-01 ignored) 1651  10    yes    1   u12
    Kaya    2026-04-20: 1600.0 prov. 3                                           1600   3    yes    3   u10
    Ilgaz   2026-05-01: 1599.5 est. 7          (on the list date: counted)       1600   7    yes    3   65plus
    Işık    2026-03-01: 1500.5 est. 2                                            1501   2    yes    5   open
    Demir   2025-05-01: 1700.0 est. 3          (a day before the window)         1700   3    no     -   open
    Fidan   no event, initial rating 1550                                        1550   0    no     -
    Gül     initial rating 1720; an event on 2026-05-10 (after the date)         1720   0    no     -
    Hatay   never rated, Player.rating 1490 (becomes its initial rating)         1490   0    no     -
    Ersoy   2026-04-20: still unrated                                            not listed
    Oral    Player.rating 0, never rated                                         not listed
    Pasif   deactivated                                                          not listed
"""
from __future__ import annotations

import csv
import datetime as dt
import io
import shutil
import subprocess

import pytest
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from federation.errors import Conflict, PermissionDenied, ValidationFailed
from ratings.lists import selectors as list_selectors
from ratings.lists import services as list_services
from ratings.engine import FEDERATION_SYSTEM
from ratings.models import InitialRating, RatingChange, RatingEvent, RatingList, RatingListEntry, RatingParameterSet
from tests.factories import PlayerFactory, TournamentFactory, UserFactory

pytestmark = pytest.mark.django_db

MAY = dt.date(2026, 5, 1)
APRIL = dt.date(2026, 4, 1)

needs_poppler = pytest.mark.skipif(not shutil.which("pdftotext"), reason="poppler-utils (pdftotext) missing")


# --------------------------------------------------------------------------------------------
# fixture
# --------------------------------------------------------------------------------------------


def _event(period: dt.date) -> RatingEvent:
    t = TournamentFactory(status="finished", start_date=period, end_date=period)
    return RatingEvent.objects.create(tournament=t, period=period, rated_at=timezone.now())


def _change(player, event, rating_after, status="established", sets=1):
    RatingChange.objects.create(event=event, player=player, period=event.period, rating_before=1500.0,
                                rating_after=rating_after, status_before="established", status_after=status, sets=sets)


@pytest.fixture
def league():
    """The players and rating rows of the module docstring; returns {last name: player}."""
    p = {}
    for name, birth, rating in [("Cengiz", 1976, 1500), ("Çelik", 2014, 1500), ("Kaya", 2016, 0),
                                ("Ilgaz", 1960, 0), ("Işık", 2000, 1500), ("Demir", None, 1500),
                                ("Fidan", 1990, 1550), ("Gül", 1990, 1720), ("Hatay", 1990, 1490),
                                ("Ersoy", 1990, 0), ("Oral", 1990, 0), ("Pasif", 1990, 1600)]:
        p[name] = PlayerFactory(last_name=name, first_name="Test", birth_year=birth, rating=rating, city="Bursa",
                                sex="f")
    p["Pasif"].active = False
    p["Pasif"].save()
    for name in ("Cengiz", "Çelik", "Kaya", "Ilgaz", "Işık", "Demir", "Fidan", "Gül", "Ersoy", "Pasif"):
        InitialRating.objects.create(player=p[name], rating=p[name].rating)
    e0, e1, e2 = _event(dt.date(2025, 5, 1)), _event(dt.date(2025, 5, 2)), _event(dt.date(2026, 4, 20))
    e3, e4 = _event(dt.date(2026, 3, 1)), _event(MAY)
    later, much_later = _event(dt.date(2026, 5, 10)), _event(dt.date(2026, 6, 1))
    _change(p["Demir"], e0, 1700.0, sets=3)
    _change(p["Cengiz"], e1, 1651.2, sets=5)
    _change(p["Çelik"], e1, 1600.4, sets=4)
    _change(p["Çelik"], e2, 1650.5, sets=6)
    _change(p["Çelik"], much_later, 1900.0, sets=5)
    _change(p["Kaya"], e2, 1600.0, status="provisional", sets=3)
    _change(p["Ersoy"], e2, 1400.0, status="unrated", sets=2)
    _change(p["Işık"], e3, 1500.5, sets=2)
    _change(p["Ilgaz"], e4, 1599.5, sets=7)
    _change(p["Gül"], later, 1800.0, sets=4)
    _change(p["Pasif"], e2, 1650.0, sets=3)
    return p


@pytest.fixture
def staff():
    return UserFactory(username="liste-yetkilisi", first_name="Selin", last_name="Kurt", is_staff=True)


def _lines(rating_list):
    """(last name, rating, sets, status, active, rank, change, category) in list order."""
    return [(e.name.split(",")[0], e.rating, e.sets, e.status, e.active, e.rank, e.change, e.category)
            for e in list_selectors.rating_list_entries(rating_list)]


MAY_LINES = [
    ("Cengiz", 1651, 5, "established", True, 1, None, "50plus"),
    ("Çelik", 1651, 10, "established", True, 1, None, "u12"),
    ("Ilgaz", 1600, 7, "established", True, 3, None, "65plus"),
    ("Kaya", 1600, 3, "provisional", True, 3, None, "u10"),
    ("Işık", 1501, 2, "established", True, 5, None, "open"),
    ("Gül", 1720, 0, "established", False, None, None, "open"),
    ("Demir", 1700, 3, "established", False, None, None, "open"),
    ("Fidan", 1550, 0, "established", False, None, None, "open"),
    ("Hatay", 1490, 0, "established", False, None, None, "open"),
]


# --------------------------------------------------------------------------------------------
# the snapshot
# --------------------------------------------------------------------------------------------


def test_window_and_default_date():
    assert list_selectors.ACTIVITY_WINDOW_MONTHS == 12
    assert list_selectors.activity_window_start(MAY) == dt.date(2025, 5, 2)
    assert list_selectors.activity_window_start(dt.date(2028, 2, 29)) == dt.date(2027, 3, 1)  # 28 Feb 2027 + 1
    assert list_selectors.months_before(dt.date(2026, 3, 31), 1) == dt.date(2026, 2, 28)
    assert list_services.rating_list_default_date(dt.date(2026, 12, 17)) == dt.date(2026, 12, 1)


def test_snapshot_by_hand(league, staff):
    rl = list_services.rating_list_publish(published_on=MAY, user=staff, title="Mayıs 2026")
    assert _lines(rl) == MAY_LINES
    assert rl.players == 9 and rl.published_by == staff and rl.in_force and rl.system == FEDERATION_SYSTEM
    assert rl.parameter_set is None
    e = RatingListEntry.objects.get(rating_list=rl, player=league["Çelik"])
    assert (e.federation_id, e.name, e.city, e.club) == (league["Çelik"].federation_id, "Çelik, Test", "Bursa", "")


def test_change_since_the_previous_list_in_force(league, staff):
    april = list_services.rating_list_publish(published_on=APRIL, user=staff)
    # 1 April 2026 (window from 2 April 2025): Demir's 1 May 2025 counts; Kaya and Ilgaz are not rated yet
    assert _lines(april) == [
        ("Demir", 1700, 3, "established", True, 1, None, "open"),
        ("Cengiz", 1651, 5, "established", True, 2, None, "50plus"),
        ("Çelik", 1600, 4, "established", True, 3, None, "u12"),
        ("Işık", 1501, 2, "established", True, 4, None, "open"),
        ("Gül", 1720, 0, "established", False, None, None, "open"),
        ("Fidan", 1550, 0, "established", False, None, None, "open"),
        ("Hatay", 1490, 0, "established", False, None, None, "open"),
    ]
    may = list_services.rating_list_publish(published_on=MAY, user=staff)
    changes = {name: change for name, *_rest, change, _cat in _lines(may)}
    assert changes == {"Cengiz": 0, "Çelik": 51, "Ilgaz": None, "Kaya": None, "Işık": 0, "Gül": 0, "Demir": 0,
                       "Fidan": 0, "Hatay": 0}
    # a withdrawn list is not "the previous list": withdraw April, publish May again → no changes
    list_services.rating_list_withdraw(rating_list=may, user=staff, reason="Nisan listesi geri çekildi")
    list_services.rating_list_withdraw(rating_list=april, user=staff, reason="Hatalı sonuçlar")
    again = list_services.rating_list_publish(published_on=MAY, user=staff)
    assert {e.change for e in again.entries.all()} == {None}


def test_category_follows_the_list_year(league, staff):
    rl = list_services.rating_list_publish(published_on=dt.date(2025, 6, 1), user=staff)
    cats = {e.name.split(",")[0]: e.category for e in rl.entries.all()}
    assert cats["Çelik"] == "u12" and cats["Cengiz"] == "open"  # 11 and 49 in 2025; 12 and 50 in 2026


def test_parameter_set_in_force_is_recorded(league, staff):
    ps = RatingParameterSet.objects.create(label="Kurul 2026/1", system=FEDERATION_SYSTEM, params={},
                                           adopted_at=timezone.now(), adopted_by=staff)
    rl = list_services.rating_list_publish(published_on=MAY, user=staff)
    assert rl.parameter_set == ps


# --------------------------------------------------------------------------------------------
# withdrawal, refusals, audit, data version
# --------------------------------------------------------------------------------------------


def test_withdraw_and_publish_again_for_the_same_date(league, staff):
    first = list_services.rating_list_publish(published_on=MAY, user=staff)
    RatingChange.objects.filter(player=league["Işık"]).update(rating_after=1555.0)  # a corrected result
    with pytest.raises(Conflict) as exc:
        list_services.rating_list_publish(published_on=MAY, user=staff)
    assert exc.value.field == "published_on"
    list_services.rating_list_withdraw(rating_list=first, user=staff, reason="  Bir sonuç düzeltildi. ")
    first.refresh_from_db()
    assert not first.in_force and first.withdrawn_by == staff and first.withdrawn_reason == "Bir sonuç düzeltildi."
    second = list_services.rating_list_publish(published_on=MAY, user=staff)
    assert list_selectors.rating_list_current() == second
    assert list_selectors.rating_list_for_date(MAY) == second
    assert list_selectors.rating_list_for_date(MAY, list_id=first.pk) == first
    assert list(list_selectors.rating_list_archive()) == [second, first]
    assert RatingListEntry.objects.get(rating_list=first, player=league["Işık"]).rating == 1501  # frozen
    assert RatingListEntry.objects.get(rating_list=second, player=league["Işık"]).rating == 1555
    with pytest.raises(Conflict):
        list_services.rating_list_withdraw(rating_list=first, user=staff, reason="again")


def test_refusals(league, staff):
    tomorrow = timezone.localdate() + dt.timedelta(days=1)
    with pytest.raises(ValidationFailed) as exc:
        list_services.rating_list_publish(published_on=tomorrow, user=staff)
    assert exc.value.field == "published_on"
    with pytest.raises(ValidationFailed) as exc:
        list_services.rating_list_publish(published_on=MAY, user=staff, title="a\nb")
    assert exc.value.field == "title"
    with pytest.raises(PermissionDenied):
        list_services.rating_list_publish(published_on=MAY, user=UserFactory())
    rl = list_services.rating_list_publish(published_on=MAY, user=staff)
    for reason in ("", "   ", None):
        with pytest.raises(ValidationFailed) as exc:
            list_services.rating_list_withdraw(rating_list=rl, user=staff, reason=reason)
        assert exc.value.field == "reason"
    with pytest.raises(PermissionDenied):
        list_services.rating_list_withdraw(rating_list=rl, user=UserFactory(), reason="x")
    assert RatingList.objects.count() == 1 and rl.in_force


def test_lists_are_published_in_date_order(league, staff):
    """A list's changes count from the list before it: an earlier list after a later one is refused
    until the later one is withdrawn (the fresh-user trial saw changes frozen against the wrong list)."""
    may = list_services.rating_list_publish(published_on=MAY, user=staff)
    april = MAY - dt.timedelta(days=30)
    with pytest.raises(Conflict) as exc:
        list_services.rating_list_publish(published_on=april, user=staff)
    assert exc.value.field == "published_on" and "tarih sırasıyla" in str(exc.value.message)  # Turkish: the default
    list_services.rating_list_withdraw(rating_list=may, user=staff, reason="önce nisan listesi")
    assert list_services.rating_list_publish(published_on=april, user=staff).in_force
    again = list_services.rating_list_publish(published_on=MAY, user=staff)
    assert list(RatingList.objects.filter(withdrawn_at__isnull=True).order_by("published_on")
                .values_list("published_on", flat=True)) == [april, MAY] and again.in_force


def test_audit_history_and_data_version(league, staff, django_capture_on_commit_callbacks, monkeypatch):
    from federation.versions import current

    before = current("ratings")[0]
    with django_capture_on_commit_callbacks(execute=True):
        rl = list_services.rating_list_publish(published_on=MAY, user=staff, note="Aylık liste")
    assert current("ratings")[0] == before + 1  # the cached rating pages change
    bumped = []
    monkeypatch.setattr(list_services, "bump_on_commit", bumped.append)  # (the test's one transaction merges bumps)
    list_services.rating_list_withdraw(rating_list=rl, user=staff, reason="Hatalı")
    assert bumped == ["ratings"]
    rows = list(RatingList.history.filter(id=rl.pk).order_by("history_date"))
    assert [(r.audit_action, r.history_user, r.history_change_reason, r.history_type) for r in rows] == [
        ("rating_list.publish", staff, "Aylık liste", "+"), ("rating_list.withdraw", staff, "Hatalı", "~"),
    ]


# --------------------------------------------------------------------------------------------
# API
# --------------------------------------------------------------------------------------------


def test_api_reads_anonymous(client, league, staff):
    list_services.rating_list_publish(published_on=APRIL, user=staff)
    list_services.rating_list_publish(published_on=MAY, user=staff, title="Mayıs")
    archive = client.get("/api/ratings/lists/").json()
    assert archive["count"] == 2
    assert [r["published_on"] for r in archive["results"]] == ["2026-05-01", "2026-04-01"]
    assert "published_by" not in archive["results"][0]  # who: staff only
    assert archive["results"][0]["csv"] == "/ratings/lists/2026-05-01.csv"
    body = client.get("/api/ratings/lists/2026-05-01/").json()
    assert body["list"]["title"] == "Mayıs" and body["count"] == 9
    first = body["results"][1]
    assert first == {"rank": 1, "federation_id": league["Çelik"].federation_id, "name": "Çelik, Test", "club": "",
                     "city": "Bursa", "rating": 1651, "change": 51, "sets": 10, "status": "established",
                     "active": True, "category": "u12"}
    assert not {"sex", "birth_year"} & set(first)
    names = lambda params: [r["name"].split(",")[0] for r in client.get("/api/ratings/lists/2026-05-01/", params).json()["results"]]  # noqa: E731
    assert names({"category": "u12"}) == ["Çelik", "Kaya"]  # U12 and younger
    assert names({"category": "50plus"}) == ["Cengiz", "Ilgaz"]  # 50+ and older
    assert names({"active": "false"}) == ["Gül", "Demir", "Fidan", "Hatay"]
    assert names({"active": "true", "limit": 2, "offset": 2}) == ["Ilgaz", "Kaya"]
    current = client.get("/api/ratings/lists/current/").json()
    assert current["list"]["published_on"] == "2026-05-01" and current["count"] == 9
    resp = client.get("/api/ratings/lists/2026-05-02/")
    assert resp.status_code == 404 and resp.json()["error"]["field"] == "date"
    resp = client.get("/api/ratings/lists/2026-05-01/", {"category": "u13"})
    assert resp.status_code == 400 and resp.json()["error"]["field"] == "category"


def test_api_current_without_lists_is_404(client):
    assert client.get("/api/ratings/lists/current/").status_code == 404


def test_api_publish_and_withdraw_staff_only(client, league, staff):
    assert client.post("/api/ratings/lists/", {"published_on": "2026-05-01"}).status_code == 401
    client.force_login(UserFactory())
    resp = client.post("/api/ratings/lists/", {"published_on": "2026-05-01"}, content_type="application/json")
    assert resp.status_code == 403
    client.force_login(staff)
    tomorrow = (timezone.localdate() + dt.timedelta(days=1)).isoformat()
    for body, field in [({"published_on": tomorrow}, "published_on"), ({"published_on": "1 Mayıs"}, "published_on"),
                        ({"published_on": "2026-05-01", "colour": "x"}, "colour")]:
        resp = client.post("/api/ratings/lists/", body, content_type="application/json")
        assert resp.status_code == 400, body
        assert resp.json()["error"]["field"] == field and resp.json()["error"]["message"]
    resp = client.post("/api/ratings/lists/", {"published_on": "2026-05-01", "title": "Mayıs"},
                       content_type="application/json")
    assert resp.status_code == 201
    assert resp.json()["players"] == 9 and resp.json()["published_by"] == "Selin Kurt"
    resp = client.post("/api/ratings/lists/", {"published_on": "2026-05-01"}, content_type="application/json")
    assert resp.status_code == 409 and resp.json()["error"]["field"] == "published_on"
    resp = client.post("/api/ratings/lists/2026-05-01/withdraw/", {"reason": " "}, content_type="application/json")
    assert resp.status_code == 400 and resp.json()["error"]["field"] == "reason"
    resp = client.post("/api/ratings/lists/2026-05-01/withdraw/", {}, content_type="application/json")
    assert resp.status_code == 400 and resp.json()["error"]["field"] == "reason"
    resp = client.post("/api/ratings/lists/2026-05-01/withdraw/", {"reason": "Hatalı"}, content_type="application/json")
    assert resp.status_code == 200
    assert resp.json()["in_force"] is False and resp.json()["withdrawn_reason"] == "Hatalı"
    assert client.post("/api/ratings/lists/2026-05-01/withdraw/", {"reason": "x"},
                       content_type="application/json").status_code == 404
    # no date: the first day of this month
    resp = client.post("/api/ratings/lists/", {}, content_type="application/json")
    assert resp.status_code == 201 and resp.json()["published_on"] == timezone.localdate().replace(day=1).isoformat()


def test_schema_documents_the_list_operations(client):
    schema = client.get("/api/schema/", {"format": "json"}).json()
    ops = {op["operationId"] for item in schema["paths"].values() for op in item.values() if isinstance(op, dict)}
    assert {"rating_lists_list", "rating_lists_publish", "rating_lists_current", "rating_lists_retrieve",
            "rating_lists_withdraw"} <= ops


# --------------------------------------------------------------------------------------------
# pages, CSV, PDF
# --------------------------------------------------------------------------------------------


def test_pages_for_anonymous_visitors(client, league, staff):
    list_services.rating_list_publish(published_on=APRIL, user=staff)
    list_services.rating_list_publish(published_on=MAY, user=staff, title="Mayıs listesi")
    page = client.get("/ratings/lists/2026-05-01/").content.decode()
    assert "Mayıs listesi" in page and "Çelik, Test" in page and "+51" in page
    assert "1976" not in page and "2014" not in page  # no birth year (KVKK); the age group only
    assert "Withdraw" not in page and "Geri çek" not in page
    filtered = client.get("/ratings/lists/2026-05-01/", {"category": "u12", "active": "1"}).content.decode()
    assert "Çelik, Test" in filtered and "Kaya, Test" in filtered and "Cengiz, Test" not in filtered
    archive = client.get("/ratings/lists/").content.decode()
    assert "/ratings/lists/2026-04-01/" in archive and "/ratings/lists/2026-05-01.pdf" in archive
    box = client.get("/ratings/").content.decode()
    assert "/ratings/lists/2026-05-01/" in box and "/ratings/lists/2026-05-01.csv" in box and "/ratings/lists/" in box
    player = client.get(f"/players/{league['Çelik'].federation_id}/").content.decode()
    assert 'data-testid="official-lists"' in player and "+51" in player
    assert client.get("/ratings/lists/2026-05-02/").status_code == 404
    assert client.get("/ratings/lists/2026-02-30/").status_code == 404


def test_csv_download(client, league, staff):
    list_services.rating_list_publish(published_on=APRIL, user=staff)
    list_services.rating_list_publish(published_on=MAY, user=staff)
    resp = client.get("/ratings/lists/2026-05-01.csv")
    assert resp.status_code == 200 and resp["Content-Type"].startswith("text/csv")
    assert 'filename="derecelendirme-listesi-2026-05-01.csv"' in resp["Content-Disposition"]
    text = resp.content.decode("utf-8")
    assert text.startswith("\ufeff")
    rows = list(csv.DictReader(io.StringIO(text.lstrip("\ufeff"))))
    assert [r["name"] for r in rows][:2] == ["Cengiz, Test", "Çelik, Test"]
    assert rows[1] == {"rank": "1", "federation_id": league["Çelik"].federation_id, "name": "Çelik, Test",
                       "club": "", "city": "Bursa", "rating": "1651", "change": "51", "sets": "10",
                       "status": "established", "active": "1", "category": "u12"}
    assert rows[-1]["rank"] == "" and rows[-1]["active"] == "0"
    only_active = list(csv.DictReader(io.StringIO(client.get("/ratings/lists/2026-05-01.csv", {"active": "1"})
                                                  .content.decode().lstrip("\ufeff"))))
    assert len(only_active) == 5


def test_csv_cells_are_never_formulas(client, staff):
    PlayerFactory(last_name="=HYPERLINK(1)", first_name="", rating=1500)
    list_services.rating_list_publish(published_on=MAY, user=staff)
    assert "'=HYPERLINK(1)" in client.get("/ratings/lists/2026-05-01.csv").content.decode()


@needs_poppler
def test_pdf_download(client, league, staff, settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path
    list_services.rating_list_publish(published_on=MAY, user=staff)
    resp = client.get("/ratings/lists/2026-05-01.pdf")
    assert resp.status_code == 200 and resp["Content-Type"] == "application/pdf"
    data = b"".join(resp.streaming_content)
    assert data.startswith(b"%PDF")
    src = tmp_path / "list.pdf"
    src.write_bytes(data)
    text = subprocess.run(["pdftotext", "-enc", "UTF-8", "-layout", str(src), "-"], check=True,
                          capture_output=True).stdout.decode()
    assert "1 Mayıs 2026" in text
    lines = [ln.split() for ln in text.splitlines()]
    celik = next(ln for ln in lines if "Çelik," in ln)
    assert celik[0] == "1" and "1651" in celik and "+51" not in celik  # no previous list: no change
    assert "Işık," in text and "Ilgaz," in text
    assert list(tmp_path.glob("rating_lists/*.pdf"))  # kept: the list never changes


def test_downloads_of_withdrawn_lists_are_404_but_the_page_says_why(client, league, staff):
    rl = list_services.rating_list_publish(published_on=MAY, user=staff)
    list_services.rating_list_withdraw(rating_list=rl, user=staff, reason="Bir turnuva düzeltildi")
    assert client.get("/ratings/lists/2026-05-01.csv").status_code == 404
    assert client.get("/ratings/lists/2026-05-01.pdf").status_code == 404
    page = client.get("/ratings/lists/2026-05-01/").content.decode()
    assert 'data-testid="withdrawn"' in page and "Bir turnuva düzeltildi" in page
    archive = client.get("/ratings/lists/").content.decode()
    assert "Bir turnuva düzeltildi" in archive
    assert "/ratings/lists/2026-05-01.csv" not in archive
    assert "official-list-box" in client.get("/ratings/").content.decode()
    assert list_selectors.rating_list_current() is None
    assert client.get(f"/players/{league['Çelik'].federation_id}/").content.decode().count("official-lists") == 0


def test_publish_and_withdraw_forms_are_for_staff(client, league, staff):
    resp = client.get("/ratings/lists/publish/")
    assert resp.status_code == 302 and "/accounts/login/" in resp["Location"]
    assert client.post("/ratings/lists/publish/", {"published_on": "2026-05-01"}).status_code == 302
    client.force_login(UserFactory())
    resp = client.post("/ratings/lists/publish/", {"published_on": "2026-05-01"})
    assert resp.status_code == 403
    assert not RatingList.objects.exists()
    client.force_login(staff)
    form = client.get("/ratings/lists/publish/").content.decode()
    assert f'value="{timezone.localdate().replace(day=1).isoformat()}"' in form  # the first of this month
    tomorrow = (timezone.localdate() + dt.timedelta(days=1)).isoformat()
    resp = client.post("/ratings/lists/publish/", {"published_on": tomorrow})
    assert resp.status_code == 400 and not RatingList.objects.exists()
    resp = client.post("/ratings/lists/publish/", {"published_on": "2026-05-01", "title": "Mayıs"})
    assert resp.status_code == 302 and resp["Location"] == "/ratings/lists/2026-05-01/"
    assert 'data-testid="withdraw"' in client.get("/ratings/lists/2026-05-01/").content.decode()
    resp = client.post("/ratings/lists/2026-05-01/withdraw/", {"reason": ""})
    assert resp.status_code == 400 and RatingList.objects.get().in_force
    resp = client.post("/ratings/lists/2026-05-01/withdraw/", {"reason": "Hatalı"})
    assert resp.status_code == 302 and not RatingList.objects.get().in_force
    client.force_login(UserFactory())
    assert client.post("/ratings/lists/publish/", {"published_on": "2026-05-01"}).status_code == 403
    assert RatingList.objects.count() == 1


# --------------------------------------------------------------------------------------------
# KVKK, the monthly job, the sample data, queries
# --------------------------------------------------------------------------------------------


def test_anonymising_a_player_renames_their_lines(league, staff):
    from federation.services import player_anonymise

    list_services.rating_list_publish(published_on=MAY, user=staff)
    player_anonymise(player=league["Çelik"], user=staff, reason="Ayrıldı")
    e = RatingListEntry.objects.get(player=league["Çelik"])
    assert e.name == f"Anonim {league['Çelik'].pk}" and e.city == "" and e.rating == 1651


def test_monthly_job(league, settings):
    from federation.queues import TASK_QUEUES
    from ratings.tasks import publish_monthly_list_task

    entry = settings.CELERY_BEAT_SCHEDULE["publish-rating-list"]
    assert entry["task"] == "ratings.publish_monthly_list" and TASK_QUEUES[entry["task"]] == "ratings"
    assert entry["schedule"].day_of_month == {1} and entry["schedule"].hour == {4} and entry["schedule"].minute == {0}
    settings.RATING_LIST_AUTO_PUBLISH = False
    assert "skipped" in publish_monthly_list_task.apply(args=["2026-05-01"]).get()
    assert not RatingList.objects.exists()
    settings.RATING_LIST_AUTO_PUBLISH = True
    assert publish_monthly_list_task.apply(args=["2026-05-01"]).get() == {"published": "2026-05-01", "players": 9}
    assert "skipped" in publish_monthly_list_task.apply(args=["2026-05-01"]).get()  # once
    rl = RatingList.objects.get()
    assert rl.published_by is None and rl.note
    assert publish_monthly_list_task.apply().get()["published"] == timezone.localdate().replace(day=1).isoformat()


def test_sample_data_has_two_official_lists():
    from federation.sample_data import load

    load()
    lists = list(RatingList.objects.filter(withdrawn_at__isnull=True).order_by("published_on"))
    assert [rl.published_on for rl in lists] == [APRIL, MAY]
    may = RatingListEntry.objects.filter(rating_list=lists[1])
    assert may.filter(active=True).count() == 12  # the rated spring Swiss
    assert may.exclude(change=0).exclude(change__isnull=True).exists()
    load()  # idempotent
    assert RatingList.objects.count() == 2


def test_pages_cost_a_fixed_number_of_queries(client, staff):
    def counts():
        cache.clear()
        out = []
        for path in ("/ratings/lists/", "/ratings/lists/2026-05-01/", "/ratings/lists/2026-05-01.csv",
                     "/api/ratings/lists/2026-05-01/", "/api/ratings/lists/current/", "/api/ratings/lists/"):
            with CaptureQueriesContext(connection) as ctx:
                assert client.get(path).status_code == 200
            out.append(len(ctx.captured_queries))
        return out

    PlayerFactory.create_batch(5, rating=1500)
    rl = list_services.rating_list_publish(published_on=dt.date(2026, 4, 1), user=staff)
    list_services.rating_list_publish(published_on=MAY, user=staff)
    few = counts()
    PlayerFactory.create_batch(60, rating=1500)
    list_services.rating_list_withdraw(rating_list=RatingList.objects.get(published_on=MAY), user=staff, reason="x")
    list_services.rating_list_publish(published_on=MAY, user=staff)
    assert rl.in_force
    many = counts()
    assert few == many, (few, many)
    assert max(many) <= 4, many
