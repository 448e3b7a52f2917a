"""The JSON archive of a tournament (``tournaments.archive``, ``export_tournament`` / ``import_tournament``):
round trips of the shared completed tournament, a round robin, a Swiss with everything the fixtures lack
(forfeits, byes, a late entry, withdrawals, requested byes, forbidden pairs, a hand-changed pairing,
move records, an open round) and a TRF-imported event; the standings of the imported copy; the history
of the imported rows; the refusals (format, version, slug, conflicting players, broken data), nothing
half-saved; the commands."""
from __future__ import annotations

import copy
import io
import json
import random
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import transaction
from django.utils import translation

import games.engine as engine
from federation.errors import ApplicationError, Conflict, ValidationFailed
from federation.models import Club, Player
from federation.sample_data import play_set
from tests.factories import ClubFactory, PlayerFactory, organiser
from tournaments import services
from tournaments.archive.format import FORMAT, FORMAT_VERSION, LEFT_OUT
from tournaments.archive.selectors import tournament_export
from tournaments.archive.services import ArchivePlayerConflicts, tournament_import
from tournaments.entries import services as entry_services
from tournaments.results import services as result_services
from tournaments.rounds import services as round_services
from tournaments.invariants import check_invariants, check_tournament
from tournaments.models import (
    Absence, CoinToss, Entry, ForbiddenPair, Match, PairingChange, Round, SetResult, Tournament,
)
from tournaments.selectors import standings_as_dicts, tournament_crosstable, tournament_standings
from tournaments.results.services import SetInput

pytestmark = pytest.mark.django_db

TRF_DIR = Path(__file__).parent.parent / "trf" / "trf_files" / "interop"


@pytest.fixture(autouse=True)
def english():
    with translation.override("en"):
        yield


@pytest.fixture
def org():
    return organiser(username="arsiv-org")


# --------------------------------------------------------------------------------------------
# Tournaments the shared fixture lacks, built through the services
# --------------------------------------------------------------------------------------------

PLANS = [
    [SetInput(30, 18), SetInput(26, 22)],  # white 2-0
    [SetInput(18, 30), SetInput(20, 28)],  # black 2-0
    [SetInput(24, 24), SetInput(24, 24), SetInput(24, 24)],  # drawn
    [SetInput(28, 20), SetInput(12, 36), SetInput(24, 24)],  # 1½-1½: drawn
]


def _play(rnd, org, *, special=None):
    """Publish ``rnd``, enter every game (``special``: board → sets or "forfeit:<who>"), close it."""
    round_services.round_publish(round=rnd, user=org)
    for i, m in enumerate(rnd.matches.filter(kind="game").order_by("board")):
        plan = (special or {}).get(m.board, PLANS[i % len(PLANS)])
        if isinstance(plan, str):
            result_services.match_result_enter(match=m, forfeit=plan.split(":")[1], user=org)
        else:
            result_services.match_result_enter(match=m, sets=plan, user=org)
    round_services.round_close(round=rnd, user=org)


def sets_with_moves(seed: int) -> list[SetInput]:
    """Sets played by the engine with their move records until the match is decided (RULES.md: white
    starts odd sets)."""
    rng = random.Random(seed)
    out: list[SetInput] = []
    while True:
        moves, (first, second) = play_set(rng, 0.7, 0.7)
        n = len(out) + 1
        w, b = (first, second) if n % 2 else (second, first)
        out.append(SetInput(w, b, moves=" ".join(map(str, moves))))
        if engine.match_result([(s.white_store, s.black_store) for s in out], 3, allow_incomplete=True).complete:
            return out


def build_round_robin(org) -> Tournament:
    t = services.tournament_create(name="Berger Kapalı Turnuvası", rounds_total=3, system="round_robin",
                                   created_by=org, slug="berger-kapali", city="İzmir",
                                   tiebreaks=["sonneborn_berger", "direct_encounter", "wins"])
    club = ClubFactory(name="Kordon Mangala Kulübü", short_name="KMK", city="İzmir")
    for i in range(4):
        entry_services.entry_add(tournament=t, player=PlayerFactory(
            last_name=f"Ege{i}", first_name="Deniz", rating=1800 - 50 * i, federation_id=f"RR-{i + 1}",
            club=club if i % 2 else None, birth_year=None if i == 3 else 1990 + i, sex="f" if i % 2 else "m"))
    for n in range(1, 4):
        _play(round_services.round_pair(tournament=t, user=org, coin_seed="berger" if n == 1 else None), org)
    services.standings_publish(tournament=t, user=org)
    t.refresh_from_db()
    assert t.status == "finished"
    return t


def build_eventful_swiss(org) -> Tournament:
    """A Swiss in play with forfeits (one side, both sides), byes (pairing-allocated, half, zero), a late
    entry, a withdrawal undone and one kept, requested byes, a forbidden pair, a hand-changed pairing,
    move records, a withdrawal set (Kural 14.5), published standings and an open last round."""
    import datetime as dt

    t = services.tournament_create(
        name="Olaylı Açık", rounds_total=4, created_by=org, slug="olayli-acik", city="Bursa", venue="Kültür Merkezi",
        start_date=dt.date(2026, 2, 20), end_date=dt.date(2026, 2, 22), acceleration="baku", tiebreak_rules="2023",
        tiebreaks=["buchholz", "set_points", "stone_margin"],
    )
    services.tournament_update(tournament=t, user=org, chief_arbiter="Hakem Bey", time_control="20 dk")
    club = ClubFactory(name="Bursa Mangala", short_name="BM", city="Bursa")
    for i in range(8):
        entry_services.entry_add(tournament=t, player=PlayerFactory(
            last_name=f"Uludağ{i}", first_name="Ali", rating=2100 - 60 * i, federation_id=f"EV-{i + 1}",
            club=club if i < 4 else None))
    e = {x.start_no: x for x in t.entries.all()}
    round_services.forbidden_pair_add(tournament=t, first=e[2], second=e[1], first_round=1, last_round=2,
                                      reason="kardeşler", user=org)
    entry_services.entry_request_bye(entry=e[8], round_number=1, kind="half", user=org)
    entry_services.entry_request_bye(entry=e[3], round_number=3, kind="zero", user=org)

    r1 = round_services.round_pair(tournament=t, user=org, coin_seed="olayli")
    round_services.round_swap_pairing(round=r1, board_a=1, board_b=2, swap="black", reason="masa sırası", user=org)
    _play(r1, org, special={1: sets_with_moves(7), 2: "forfeit:white"})
    entry_services.entry_withdraw(entry=e[7], user=org)
    entry_services.entry_add(tournament=t, player=PlayerFactory(last_name="Geç", first_name="Gelen", rating=1500,
                                                                federation_id="EV-9"), user=org, missed_rounds="half")
    r2 = round_services.round_pair(tournament=t, user=org)
    _play(r2, org, special={1: [SetInput(31, 9, termination="white_withdrew"), SetInput(26, 22)], 2: "forfeit:both"})
    entry_services.entry_reinstate(entry=e[7], user=org)
    entry_services.entry_withdraw(entry=e[6], user=org)
    _play(round_services.round_pair(tournament=t, user=org), org, special={3: sets_with_moves(11)})
    services.standings_publish(tournament=t, user=org)
    r4 = round_services.round_pair(tournament=t, user=org)
    round_services.round_publish(round=r4, user=org)
    first = r4.matches.filter(kind="game").order_by("board").first()
    result_services.match_result_enter(match=first, sets=[SetInput(30, 18)], user=org)  # one set: still open
    t.refresh_from_db()
    return t


def build_trf_event() -> Tournament:
    from tournaments.trf.services import tournament_import_trf

    return tournament_import_trf(data=(TRF_DIR / "p17_acceleration_xxa.trf").read_bytes(), source="p17.trf",
                                 system="swiss").tournament


def build(kind: str, org, completed_tournament=None) -> Tournament:
    if kind == "completed":
        return completed_tournament
    return {"round_robin": build_round_robin, "eventful": build_eventful_swiss,
            "trf": lambda _org: build_trf_event()}[kind](org)


# --------------------------------------------------------------------------------------------
# Comparing two archives (it cannot pass on empty documents: it counts what it compared)
# --------------------------------------------------------------------------------------------


def without(doc: dict, *keys: str) -> dict:
    """A copy of ``doc`` without the tournament settings ``keys``."""
    doc = copy.deepcopy(doc)
    for k in keys:
        doc["tournament"].pop(k)
    return doc


def compare(a: dict, b: dict) -> dict:
    """Assert ``a == b`` part by part (so a failure names the part) and return how many entries,
    rounds, matches, sets, absences and forbidden pairs were compared."""
    assert list(a) == list(b) == ["format", "format_version", "tournament", "entries", "rounds", "absences",
                                  "forbidden_pairs"]
    assert a["tournament"] == b["tournament"]
    counts = dict.fromkeys(["entries", "rounds", "matches", "sets", "moves", "absences", "forbidden_pairs"], 0)
    assert len(a["entries"]) == len(b["entries"])
    for x, y in zip(a["entries"], b["entries"]):
        assert x == y
        counts["entries"] += 1
    assert len(a["rounds"]) == len(b["rounds"])
    for ra, rb in zip(a["rounds"], b["rounds"]):
        assert {k: v for k, v in ra.items() if k != "matches"} == {k: v for k, v in rb.items() if k != "matches"}
        counts["rounds"] += 1
        assert len(ra["matches"]) == len(rb["matches"])
        for ma, mb in zip(ra["matches"], rb["matches"]):
            assert ma == mb, (ra["number"], ma["board"])
            counts["matches"] += 1
            counts["sets"] += len(ma["sets"])
            counts["moves"] += sum(1 for s in ma["sets"] if s["moves"])
    assert a["absences"] == b["absences"]
    assert a["forbidden_pairs"] == b["forbidden_pairs"]
    counts["absences"], counts["forbidden_pairs"] = len(a["absences"]), len(a["forbidden_pairs"])
    assert a == b
    return counts


def stored_counts(t: Tournament) -> dict:
    return {
        "entries": t.entries.count(), "rounds": t.rounds.count(),
        "matches": Match.objects.filter(round__tournament=t).count(),
        "sets": SetResult.objects.filter(match__round__tournament=t).count(),
        "moves": SetResult.objects.filter(match__round__tournament=t).exclude(moves="").count(),
        "absences": Absence.objects.filter(entry__tournament=t).count(),
        "forbidden_pairs": ForbiddenPair.objects.filter(tournament=t).count(),
    }


def standings_of(t: Tournament, **kwargs):
    st = tournament_standings(tournament=t, **kwargs)
    return st.rounds, st.provisional, st.tiebreak_rules, standings_as_dicts(st)


def keys_of(value, path=""):
    if isinstance(value, dict):
        for k, v in value.items():
            yield f"{path}.{k}", k
            yield from keys_of(v, f"{path}.{k}")
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from keys_of(v, f"{path}[{i}]")


# --------------------------------------------------------------------------------------------
# Round trips
# --------------------------------------------------------------------------------------------


MINIMUM = {  # what each tournament must put in the comparison, so that it never passes on little
    "completed": {"matches": 9, "sets": 20},
    "round_robin": {"matches": 6, "sets": 12},
    "eventful": {"matches": 20, "sets": 20, "moves": 4, "absences": 2, "forbidden_pairs": 1},
    "trf": {"matches": 3},
}


@pytest.mark.parametrize("kind", ["completed", "round_robin", "eventful", "trf"])
def test_export_import_export_is_the_same_archive_and_the_same_standings(kind, org, completed_tournament):
    original = build(kind, org, completed_tournament)
    a = tournament_export(tournament=original)
    assert json.loads(json.dumps(a)) == a  # plain JSON
    ids = [p for p, k in keys_of(a) if k == "id" or (k.endswith("_id") and k != "federation_id")]
    assert ids == []  # no database id in an archive
    assert tournament_export(tournament=original) == a  # deterministic

    report = tournament_import(data=json.dumps(a), slug=f"{original.slug}-kopya", source="kopya.json")
    copy_ = Tournament.objects.get(slug=f"{original.slug}-kopya")
    assert copy_.pk != original.pk and report.tournament.pk == copy_.pk
    b = tournament_export(tournament=copy_)
    # the copy is rated once the import commits (never inside this test's transaction)
    counts = compare(without(a, "slug", "rated"), without(b, "slug", "rated"))
    assert b["tournament"]["slug"] == f"{original.slug}-kopya" and b["tournament"]["rated"] is False

    assert counts == stored_counts(original) == stored_counts(copy_)
    assert counts["entries"] > 0 and counts["rounds"] > 0
    for key, least in MINIMUM[kind].items():
        assert counts[key] >= least, (key, counts)
    assert (report.entries, report.rounds, report.matches, report.sets) == (
        counts["entries"], counts["rounds"], counts["matches"], counts["sets"])
    assert report.players_reused == counts["entries"] and report.players_created == 0

    assert standings_of(copy_) == standings_of(original)
    assert standings_of(copy_, public_only=True) == standings_of(original, public_only=True)
    cells = lambda t: [[c.text for c in row.cells] for row in tournament_crosstable(tournament=t, public_only=False).rows]
    assert cells(copy_) == cells(original)
    assert check_tournament(copy_) == []


def test_the_eventful_swiss_has_what_the_archive_must_carry(org):
    """The third tournament really has forfeits, every bye kind, a late entry, withdrawals, requested
    byes, a forbidden pair, a hand change, move records, a withdrawal set and an open round — and the
    archive carries each of them."""
    t = build_eventful_swiss(org)
    a = tournament_export(tournament=t)
    matches = [m for r in a["rounds"] for m in r["matches"]]
    assert {m["forfeit"] for m in matches} >= {"white", "both"}
    assert {m["bye_kind"] for m in matches} >= {"pab", "half", "zero"}
    assert any(s["termination"] == "white_withdrew" and s["white_store"] == 31 for m in matches for s in m["sets"])
    assert [e["withdrawn"] for e in a["entries"]].count(True) == 1
    assert [r["status"] for r in a["rounds"]] == ["closed", "closed", "closed", "published"]
    assert a["rounds"][0]["modified_by_hand"] and a["rounds"][0]["pairing_changes"][0]["reason"] == "masa sırası"
    assert a["rounds"][0]["coin_toss"]["seed"] == "olayli"
    assert a["tournament"]["standings_round"] == 3 and a["tournament"]["status"] == "running"
    assert a["absences"] == [
        {"entry": 8, "round_number": 1, "kind": "half", "created_at": a["absences"][0]["created_at"]},
        {"entry": 3, "round_number": 3, "kind": "zero", "created_at": a["absences"][1]["created_at"]},
    ]
    assert a["forbidden_pairs"][0] | {"created_at": None} == {
        "first": 1, "second": 2, "first_round": 1, "last_round": 2, "reason": "kardeşler", "created_at": None}
    open_match = a["rounds"][3]["matches"][0]
    assert open_match["white_points"] is None and len(open_match["sets"]) == 1
    assert check_invariants(tournaments=Tournament.objects.filter(pk=t.pk)) == []


def test_a_fresh_database_gets_the_players_clubs_and_rating_back(completed_tournament, django_capture_on_commit_callbacks):
    """Delete the completed tournament and its players, import its archive under its own slug: the
    players are registered again (their starting rating = their entry's), the rating runs after the
    commit and gives everyone the rating they had; the archive, standings and invariants are the same."""
    t = completed_tournament
    a = tournament_export(tournament=t)
    before = standings_of(t)
    ratings = {p.federation_id: p.rating for p in Player.objects.filter(entries__tournament=t)}
    player_ids = list(t.entries.values_list("player_id", flat=True))
    t.delete()
    Player.objects.filter(pk__in=player_ids).delete()

    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        report = tournament_import(data=a, source="ct.json")
    assert report.rating_queued and callbacks  # the rating run (and the members' counter, federation/versions.py)
    assert (report.players_created, report.players_reused, report.clubs_created) == (6, 0, 0)
    again = Tournament.objects.get(slug=a["tournament"]["slug"])
    from ratings.models import RatingEvent

    assert RatingEvent.objects.filter(tournament=again).exists()
    compare(a, tournament_export(tournament=again))  # rated again, same slug: the very same archive
    assert standings_of(again) == before
    assert {p.federation_id: p.rating for p in Player.objects.filter(entries__tournament=again)} == ratings
    assert check_invariants(tournaments=Tournament.objects.filter(pk=again.pk)) == []


def test_imported_rows_have_one_history_row_saying_where_they_came_from(org):
    t = build_eventful_swiss(org)
    a = tournament_export(tournament=t)
    a["entries"][0]["player"]["federation_id"] = "EV-YENI"  # a new player: registered, with history
    a["entries"][0]["player"]["club"] = {"name": "Yeni Kulüp", "short_name": "YK", "city": "Bursa", "active": True}
    report = tournament_import(data=a, slug="tarihce", source="olayli.json", user=org)
    copy_ = report.tournament
    assert (report.players_created, report.clubs_created) == (1, 1)
    assert Player.objects.get(federation_id="EV-YENI").club.name == "Yeni Kulüp"
    assert Player.objects.get(federation_id="EV-YENI").rating == a["entries"][0]["rating"]  # the starting rating
    assert copy_.created_by == org
    for model, rows in [
        (Tournament, Tournament.objects.filter(pk=copy_.pk)),
        (Entry, Entry.objects.filter(tournament=copy_)),
        (Round, Round.objects.filter(tournament=copy_)),
        (Match, Match.objects.filter(round__tournament=copy_)),
        (SetResult, SetResult.objects.filter(match__round__tournament=copy_)),
        (Absence, Absence.objects.filter(entry__tournament=copy_)),
        (ForbiddenPair, ForbiddenPair.objects.filter(tournament=copy_)),
        (Player, Player.objects.filter(federation_id="EV-YENI")),
        (Club, Club.objects.filter(name="Yeni Kulüp")),
    ]:
        pks = list(rows.values_list("pk", flat=True))
        assert pks, model
        hist = model.history.filter(id__in=pks)
        assert hist.count() == len(pks), model  # exactly one row each
        assert set(hist.values_list("history_type", "history_change_reason", "audit_action", "history_user")) == {
            ("+", "imported from olayli.json", "tournament.import", org.pk)}, model
        if model not in (Player, Club):
            assert set(hist.values_list("audit_tournament_id", flat=True)) == {copy_.pk}, model
    assert len(set(Match.history.filter(audit_tournament_id=copy_.pk).values_list("audit_action_id", flat=True))) == 1
    # the tournament's history page folds the import into one action
    from tournaments.history.selectors import tournament_history

    assert [item.action for item in tournament_history(tournament=copy_)].count("tournament.import") == 1


def test_the_reason_is_in_the_importers_language(completed_tournament):
    a = tournament_export(tournament=completed_tournament)
    with translation.override("tr"):
        copy_ = tournament_import(data=a, slug="turkce", source="ct.json").tournament
    reason = Tournament.history.get(id=copy_.pk).history_change_reason
    assert "ct.json" in reason  # Turkish when the catalogue has it, English otherwise


def test_a_dry_run_reports_and_saves_nothing(completed_tournament):
    a = tournament_export(tournament=completed_tournament)
    a["entries"][5]["player"]["federation_id"] = "CT-NEW"
    counts = (Tournament.objects.count(), Player.objects.count(), Entry.history.count(), Player.history.count())
    report = tournament_import(data=a, slug="deneme", dry_run=True)
    assert report.dry_run and (report.entries, report.matches, report.sets) == (6, 9, 20)
    assert (report.players_created, report.players_reused) == (1, 5)
    assert counts == (Tournament.objects.count(), Player.objects.count(), Entry.history.count(),
                      Player.history.count())
    assert not Tournament.objects.filter(slug="deneme").exists()


def test_every_field_is_in_the_archive_or_left_out_on_purpose(completed_tournament):
    """A new column must be added to the archive (and a new format version) or to LEFT_OUT with a reason."""
    from tournaments.archive.format import (
        ABSENCE_KEYS, CHANGE_KEYS, CLUB_KEYS, ENTRY_KEYS, MATCH_KEYS, PAIR_KEYS, PLAYER_KEYS, ROUND_KEYS, SET_KEYS,
        TOSS_KEYS, TOURNAMENT_FIELDS,
    )

    exported = {
        Tournament: TOURNAMENT_FIELDS, Entry: ENTRY_KEYS, Player: PLAYER_KEYS, Club: CLUB_KEYS, Round: ROUND_KEYS,
        CoinToss: TOSS_KEYS, PairingChange: CHANGE_KEYS, Match: MATCH_KEYS, SetResult: SET_KEYS, Absence: ABSENCE_KEYS,
        ForbiddenPair: PAIR_KEYS,
    }
    nested = {"coin_toss", "pairing_changes", "matches", "sets"}  # relations written inside their parent
    for model, keys in exported.items():
        fields = {f.name for f in model._meta.concrete_fields}
        assert fields == (set(keys) - nested) | set(LEFT_OUT[model.__name__]), model.__name__


# --------------------------------------------------------------------------------------------
# Refusals: each with a clear message naming the JSON path, nothing half-saved
# --------------------------------------------------------------------------------------------


@pytest.fixture
def archive(completed_tournament) -> dict:
    return tournament_export(tournament=completed_tournament)


def _refused(data, exc_type=ValidationFailed, **kwargs) -> ApplicationError:
    before = (Tournament.objects.count(), Player.objects.count(), Club.objects.count(), Entry.history.count(),
              Match.objects.count())
    with pytest.raises(exc_type) as info:
        tournament_import(data=data, **kwargs)
    assert before == (Tournament.objects.count(), Player.objects.count(), Club.objects.count(),
                      Entry.history.count(), Match.objects.count())
    return info.value


def test_unknown_format_and_version_are_refused(archive):
    exc = _refused({**archive, "format": "trf"}, slug="x")
    assert exc.field == "format" and "mangala-tournament" in exc.message and '"trf"' in exc.message
    exc = _refused({**archive, "format_version": FORMAT_VERSION + 1}, slug="x")
    assert exc.field == "format_version" and "version 2 is not supported" in exc.message
    assert "reads version 1" in exc.message
    exc = _refused({k: v for k, v in archive.items() if k != "format_version"}, slug="x")
    assert exc.field == "format_version"
    exc = _refused(b"{not json", slug="x")
    assert exc.field == "file" and "not valid JSON (line 1, column 2" in exc.message
    exc = _refused("[1, 2]", slug="x")
    assert exc.field == "file"


def test_an_existing_slug_is_refused_unless_another_is_given(archive):
    exc = _refused(archive, Conflict)
    assert exc.field == "slug" and archive["tournament"]["slug"] in exc.message
    exc = _refused(archive, Conflict, slug=archive["tournament"]["slug"])
    assert exc.field == "slug"
    exc = _refused(archive, slug="Boşluklu slug!")
    assert exc.field == "tournament.slug"
    assert tournament_import(data=archive, slug="baska-ad").tournament.slug == "baska-ad"


def test_conflicting_players_are_refused_naming_the_path(archive):
    a = copy.deepcopy(archive)
    a["entries"][2]["player"]["last_name"] = "Başka"
    a["entries"][4]["player"]["birth_year"] = 1977
    a["entries"][5]["player"]["federation_id"] = "CT-NEW"  # would be registered: not half-saved
    exc = _refused(a, ArchivePlayerConflicts, slug="cakisma")
    assert exc.field == "entries[2].player.last_name"
    assert [c.path for c in exc.conflicts] == ["entries[2].player.last_name", "entries[4].player.birth_year"]
    assert 'entries[2].player.last_name: federation id CT-3 is stored as "Şahin", the archive says "Başka"' in exc.message
    assert "entries[4].player.birth_year: federation id CT-5 is stored as 2000, the archive says 1977" in exc.message


def test_same_player_with_other_club_is_reused_with_a_note(archive):
    a = copy.deepcopy(archive)
    a["entries"][0]["player"]["city"] = "Konya"
    a["entries"][0]["player"]["club"] = {"name": "Konya MK", "short_name": "KMK", "city": "Konya", "active": True}
    report = tournament_import(data=a, slug="not-ile")
    assert report.players_reused == 6 and report.players_created == 0
    assert any("entries[0].player: the stored player CT-1 differs in city, club" in n for n in report.notes)
    assert Player.objects.get(federation_id="CT-1").city == "Ankara"


@pytest.mark.parametrize("path, value, field, words", [
    (("tournament", "name"), 5, "tournament.name", "expected a text"),
    (("tournament", "sets_per_match"), 4, "tournament.sets_per_match", "is not one of 1, 3, 5, 7"),
    (("tournament", "tiebreaks"), ["buchholz", "gizli"], "tournament.tiebreaks[1]", "unknown tie-break gizli"),
    (("tournament", "created_at"), "2026-01-01T10:00:00", "tournament.created_at", "time zone"),
    (("tournament", "extra"), 1, "tournament.extra", "unknown key"),
    (("entries", 3, "start_no"), 1, "entries[3].start_no", "also entries[0]'s"),
    (("entries", 1, "player", "last_name"), "a\x00b", "entries[1].player.last_name", ""),
    (("rounds", 1, "matches", 2, "white"), 17, "rounds[1].matches[2].white", "no entry has starting number 17"),
    (("rounds", 0, "matches", 0, "sets", 1, "white_stones"), "30", "rounds[0].matches[0].sets[1].white_stones",
     "expected a whole number"),
    (("rounds", 0, "matches", 0, "sets", 1, "white_stones"), 31, "rounds[0].matches[0].sets[1]", "do not total 48"),
    (("rounds", 2, "matches", 0, "white_points"), 0.25, "rounds[2].matches[0].white_points", "expected 0, 0.5 or 1"),
    (("rounds", 2, "matches", 1, "sets"), None, "rounds[2].matches[1].sets", "expected a list"),
    (("rounds", 0, "number"), 2, "rounds[1].number", "round 2 is in the archive twice"),
    (("absences",), [{"entry": 1, "round_number": 1, "kind": "nap", "created_at": "2026-01-01T10:00:00+00:00"}],
     "absences[0].kind", "is not one of"),
])
def test_values_that_do_not_fit_are_refused_naming_the_path(archive, path, value, field, words):
    a = copy.deepcopy(archive)
    node = a
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = value
    exc = _refused(a, slug="bozuk")
    assert exc.field == field
    assert exc.message.startswith(f"{field}: ") and words in exc.message


def test_data_that_breaks_the_rules_is_refused_and_nothing_is_saved(archive):
    """The checks of tournaments.invariants run on what the import wrote, before the commit: a hand-edited
    archive cannot smuggle in a match whose points do not follow from its sets — or anything else."""
    a = copy.deepcopy(archive)
    for e in a["entries"]:
        e["player"]["federation_id"] += "-YENI"  # every player would be registered
    m = a["rounds"][0]["matches"][0]
    assert (m["white_points"], m["black_points"]) == (1.0, 0.0)
    m["white_points"], m["black_points"] = 0.0, 1.0
    a["rounds"][2]["matches"][1]["sets"][1]["starter"] = "white"
    exc = _refused(a, slug="kurallara-aykiri")
    assert exc.field == "rounds[0].matches[0]"
    assert "rounds[0].matches[0]: kurallara-aykiri, round 1, board 1: the sets give 1–0, the match records 0–1" in exc.message
    assert "rounds[2].matches[1].sets[1]: " in exc.message and "set 2 is started by white, but black starts it" in exc.message
    assert not Player.objects.filter(federation_id__endswith="-YENI").exists()


# --------------------------------------------------------------------------------------------
# The commands
# --------------------------------------------------------------------------------------------


def test_export_and_import_commands(completed_tournament, tmp_path):
    path = tmp_path / "ct.json"
    call_command("export_tournament", completed_tournament.slug, "-o", str(path), stderr=io.StringIO())
    doc = json.loads(path.read_text(encoding="utf-8"))
    assert doc["format"] == FORMAT and doc["format_version"] == FORMAT_VERSION
    out = io.StringIO()
    call_command("export_tournament", completed_tournament.slug, stdout=out)
    assert json.loads(out.getvalue()) == doc

    out = io.StringIO()
    call_command("import_tournament", str(path), "--slug", "komut", "--dry-run", stdout=out, stderr=io.StringIO())
    assert "dry run: Tamamlanmış Test Turnuvası: 6 players (0 new, 6 known), 3 rounds, 9 boards, 20 sets" in out.getvalue()
    assert not Tournament.objects.filter(slug="komut").exists()

    out = io.StringIO()
    call_command("import_tournament", str(path), "--slug", "komut", stdout=out, stderr=io.StringIO())
    assert out.getvalue().splitlines()[-1] == "komut"
    assert Tournament.objects.filter(slug="komut").exists()
    history = Match.history.filter(audit_tournament_id=Tournament.objects.get(slug="komut").pk)
    assert set(history.values_list("history_change_reason", flat=True)) == {"imported from ct.json"}

    with pytest.raises(CommandError) as info:
        call_command("import_tournament", str(path), stdout=io.StringIO(), stderr=io.StringIO())
    assert info.value.returncode == 2 and "(--slug NEW)" in str(info.value) and "ct.json: " in str(info.value)
    with pytest.raises(CommandError) as info:
        call_command("import_tournament", str(tmp_path / "yok.json"))
    assert info.value.returncode == 2 and "no such file" in str(info.value)
    with pytest.raises(CommandError) as info:
        call_command("export_tournament", "yok")
    assert info.value.returncode == 2


# --------------------------------------------------------------------------------------------
# Property: any one changed value is imported soundly or refused cleanly, never half-saved
# --------------------------------------------------------------------------------------------

from hypothesis import HealthCheck, event, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402


def _leaves(value, path=()):
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _leaves(v, (*path, k))
    elif isinstance(value, list) and value and not all(isinstance(x, (int, float, str)) for x in value):
        for i, v in enumerate(value):
            yield from _leaves(v, (*path, i))
    else:
        yield path


class _Rollback(Exception):
    pass


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_one_changed_value_is_imported_soundly_or_refused(archive, data):
    leaves = [p for p in _leaves(archive) if p and p[0] not in ("format", "format_version")]
    path = data.draw(st.sampled_from(leaves), label="path")
    value = data.draw(st.one_of(
        st.none(), st.booleans(), st.integers(-3, 60), st.sampled_from([0.5, 1.0, 2.5]),
        st.text(max_size=5), st.sampled_from(["white", "black", "bye", "pab", "closed", "2026-01-01", []]),
    ), label="value")
    a = copy.deepcopy(archive)
    node = a
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = value
    players = Player.objects.count()
    try:
        with transaction.atomic():
            try:
                report = tournament_import(data=a, slug="ozellik")
            except ApplicationError as exc:
                event("refused")
                assert exc.message and exc.field
                assert not Tournament.objects.filter(slug="ozellik").exists()
                assert Player.objects.count() == players
            else:
                event("imported")
                assert check_tournament(report.tournament) == []
            raise _Rollback
    except _Rollback:
        pass


# --------------------------------------------------------------------------------------------
# Real tournaments (../shared/data/trf): sound, and the same after a round trip
# --------------------------------------------------------------------------------------------

from tests.shared_data import shared_glob  # noqa: E402


@pytest.mark.parametrize("path", shared_glob("data/trf/*.trf"), ids=lambda p: p.name)
def test_real_tournaments_are_sound_and_survive_a_round_trip(path):
    from tournaments.trf.services import tournament_import_trf

    t = tournament_import_trf(data=path.read_bytes(), source=path.name).tournament
    assert check_tournament(t) == []
    a = tournament_export(tournament=t)
    copy_ = tournament_import(data=a, slug="gercek-kopya", source=path.name).tournament
    counts = compare(without(a, "slug"), without(tournament_export(tournament=copy_), "slug"))
    assert counts == stored_counts(t) and counts["matches"] > 50
    assert standings_of(copy_) == standings_of(t)


@pytest.mark.django_db
def test_knockout_and_team_events_are_refused_rather_than_archived_lossily():
    from federation.errors import ValidationFailed
    from tournaments.archive.selectors import tournament_export
    from tournaments.models import Tournament
    from tests.factories import TournamentFactory

    for kwargs in ({"system": Tournament.System.KNOCKOUT}, {"format": Tournament.Format.TEAM}):
        t = TournamentFactory(**kwargs)
        with pytest.raises(ValidationFailed) as exc:
            tournament_export(tournament=t)
        assert exc.value.field == "tournament" and "cannot be archived yet" in str(exc.value.message)
