"""A lossless JSON archive of one tournament: :func:`tournament_export` and :func:`tournament_import`
(``manage.py export_tournament`` / ``import_tournament``).

The archive is everything the tournament owns, as plain JSON (no database ids: entries are named by
their starting number, players by their federation id):

* ``"format": "mangala-tournament"``, ``"format_version": 1``;
* ``tournament`` — every setting and state field (dates, system, rounds, tie-breaks and their rules
  text, accelerated pairing, round dates, sets per match, variant, bye points, status, which round the
  standings are published after and when, archived, imported from TRF, created at, ``version`` and
  ``standings_version``) and ``rated`` (whether the national rating counted it when it was exported);
* ``entries`` — starting number, rating at entry, withdrawal (and after which round), federation code,
  official rank, accelerations (virtual points), and the ``player`` (federation id, names, sex, birth
  year, city, active, and the ``club``'s own fields) so that a fresh database can register them;
* ``rounds`` — number, status and its times, modified by hand, the coin toss (seed, outcome, time), the
  hand changes of the pairing (time, reason, boards before and after by starting number) and the
  ``matches``: board, game or bye (and its kind), white and black, forfeit, points, rated, when the
  result was entered, ``version``, and the ``sets`` (number, starter, recorded stones, termination,
  stores at a withdrawal, move record);
* ``absences`` (byes requested ahead) and ``forbidden_pairs`` (with their rounds and reason).

Left out, on purpose: database ids; user accounts (who created the tournament, entered a result,
tossed the coin, changed a pairing, and the per-tournament organiser/referee roles) — accounts are not
part of a tournament and are never matched by name across databases (that would hand a stranger the
rights of ``created_by``); the importing user becomes ``created_by`` (and of the requested byes and
forbidden pairs, as the TRF import does); ``Player.rating`` and the rating history (rating events,
changes and lines, initial ratings) — they belong to the national rating, which computes them from
the results (a new player is registered with the rating of their entry, as ``player_register`` takes a
starting rating); the history rows (django-simple-history) of the exported rows; the search keys
(derived); records of jobs (TRF and record imports).

Import (:func:`tournament_import`) reads an archive in ONE transaction: anything that cannot be read,
does not fit the tables or breaks the rules (:mod:`tournaments.invariants`) raises
:class:`federation.errors.ApplicationError` naming the JSON path (``entries[12].player.last_name``) and
nothing is saved. Refused: another ``format`` or ``format_version``; a slug that exists (unless another
is given); a player whose federation id is stored with another name or birth year
(:class:`ArchivePlayerConflicts`). A stored player with the same federation id, names and birth year is
reused (other differences — club, city — are noted; the stored values are kept), a club by its name;
anyone else is registered. Every row the import creates gets one history row (action
``tournament.import``) whose reason says "imported from <file>". A finished event with published final
standings is rated again from it once the import commits (as publishing its standings would).
``dry_run=True`` does everything and rolls it back.
"""
from __future__ import annotations

import datetime as dt
import json
from collections import defaultdict
from dataclasses import dataclass, field
from decimal import Decimal

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext as _

from federation.audit import audit_context
from federation.errors import Conflict, ValidationFailed
from federation.models import Club, Player
from tournaments import access, signals
from tournaments.models import (
    Absence, CoinToss, Entry, ForbiddenPair, Match, PairingChange, Round, SetResult, Tournament,
)

FORMAT = "mangala-tournament"
FORMAT_VERSION = 1

#: Fields of the tables that the archive leaves out, and why (a test checks that every other field is in it).
LEFT_OUT = {
    "Tournament": {"id": "database id", "created_by": "user account",
                   # a section of a multi-section event (issue 14): the event, its list and the rule that placed
                   # players belong to the event, not to one tournament; an archived section comes back standalone
                   "event": "the event it is a section of", "section_birth_year_min": "the event's section rule",
                   "section_birth_year_max": "the event's section rule", "section_sex": "the event's section rule",
                   "section_order": "the event's section rule",
                   # knockout and team events (issue 14) are not in archive format 1 yet: a knockout comes back
                   # with its system and sets but these settings at their defaults; teams are left out
                   "knockout_sets": "knockout settings (format 1)", "third_place_match": "knockout settings (format 1)",
                   "level_match_rule": "knockout settings (format 1)", "max_deciders": "knockout settings (format 1)",
                   "qualified_from": "another tournament", "qualifiers": "knockout settings (format 1)",
                   "format": "team events (format 1)", "boards_per_team": "team events (format 1)"},
    "Entry": {"id": "database id", "tournament": "the archive's tournament"},
    "Player": {"id": "database id", "rating": "owned by the national rating", "user": "user account",
               "merged_into": "another player's record", "search_key": "derived", "city_key": "derived",
               "sort_key": "derived"},
    "Club": {"id": "database id", "search_key": "derived", "short_key": "derived", "city_key": "derived"},
    "Round": {"id": "database id", "tournament": "the archive's tournament"},
    "CoinToss": {"id": "database id", "round": "its round", "tossed_by": "user account"},
    "PairingChange": {"id": "database id", "round": "its round", "user": "user account"},
    "Match": {"id": "database id", "round": "its round", "result_entered_by": "user account",
              "third_place": "knockout (format 1)", "decider_starter": "knockout (format 1)",
              "decided_by": "knockout (format 1)", "team_match": "team events (format 1)",
              "team_board": "team events (format 1)"},
    "SetResult": {"id": "database id", "match": "its match"},
    "Absence": {"id": "database id", "created_by": "user account"},
    "ForbiddenPair": {"id": "database id", "tournament": "the archive's tournament", "created_by": "user account"},
}

TOURNAMENT_FIELDS = (
    "slug", "name", "start_date", "end_date", "venue", "city", "federation", "system", "rounds_total",
    "double_round_robin", "second_cycle_swap", "acceleration", "tiebreak_rules", "tiebreaks", "round_dates",
    "sets_per_match", "variant", "bye_points", "status", "standings_published_at", "standings_round",
    "chief_arbiter", "time_control", "imported_from_trf", "created_at", "archived_at", "version", "standings_version",
)


# --------------------------------------------------------------------------------------------
# Export
# --------------------------------------------------------------------------------------------


def _dt(value: dt.datetime | None) -> str | None:
    return None if value is None else value.astimezone(dt.timezone.utc).isoformat()


def _date(value: dt.date | None) -> str | None:
    return None if value is None else value.isoformat()


def _points(value) -> float | None:
    return None if value is None else float(value)


def tournament_export(*, tournament: Tournament) -> dict:
    """The archive of ``tournament`` as a JSON-ready dict (module docstring). Deterministic: the same
    data gives the same document. Rating history is not part of it (only whether the event was rated),
    nor are user accounts or database ids. Raises ValidationFailed when a row names an entry of another
    tournament (:mod:`tournaments.invariants` reports such rows)."""
    t = Tournament.objects.get(pk=tournament.pk)
    if t.system == Tournament.System.KNOCKOUT or t.format == Tournament.Format.TEAM:
        # archive format 1 would lose the bracket settings or the teams: refuse rather than write a lossy copy
        raise ValidationFailed(
            _("Knockout and team events cannot be archived yet (archive format %(v)d has no place for their "
              "settings and teams).") % {"v": FORMAT_VERSION},
            field="tournament",
        )
    entries = list(t.entries.select_related("player__club").order_by("start_no"))
    start_no = {e.pk: e.start_no for e in entries}

    def no(entry_id, path: str) -> int | None:
        if entry_id is None:
            return None
        if entry_id not in start_no:
            raise ValidationFailed(_("%(path)s: the entry belongs to another tournament; run check_invariants.")
                                   % {"path": path}, field=path)
        return start_no[entry_id]

    rounds = list(t.rounds.order_by("number"))
    tosses = {c.round_id: c for c in CoinToss.objects.filter(round__tournament=t)}
    changes: dict[int, list[PairingChange]] = defaultdict(list)
    for c in PairingChange.objects.filter(round__tournament=t).order_by("at", "id"):
        changes[c.round_id].append(c)
    matches: dict[int, list[Match]] = defaultdict(list)
    for m in Match.objects.filter(round__tournament=t).order_by("board"):
        matches[m.round_id].append(m)
    sets: dict[int, list[SetResult]] = defaultdict(list)
    for s in SetResult.objects.filter(match__round__tournament=t).order_by("number"):
        sets[s.match_id].append(s)

    def boards(value):
        """A pairing change's boards ``[board, white id, black id]`` with starting numbers for ids."""
        if not isinstance(value, list):
            return value
        return [[b[0], start_no.get(b[1]), start_no.get(b[2])] if isinstance(b, list) and len(b) == 3 else b
                for b in value]

    out_rounds = []
    for i, r in enumerate(rounds):
        toss = tosses.get(r.pk)
        out_matches = []
        for j, m in enumerate(matches.get(r.pk, [])):
            path = f"rounds[{i}].matches[{j}]"
            out_matches.append({
                "board": m.board, "kind": m.kind, "bye_kind": m.bye_kind,
                "white": no(m.white_id, f"{path}.white"), "black": no(m.black_id, f"{path}.black"),
                "forfeit": m.forfeit, "white_points": _points(m.white_points), "black_points": _points(m.black_points),
                "rated": m.rated, "result_entered_at": _dt(m.result_entered_at), "version": m.version,
                "sets": [
                    {"number": s.number, "starter": s.starter, "white_stones": s.white_stones,
                     "black_stones": s.black_stones, "termination": s.termination, "white_store": s.white_store,
                     "black_store": s.black_store, "moves": s.moves}
                    for s in sets.get(m.pk, [])
                ],
            })
        out_rounds.append({
            "number": r.number, "status": r.status, "paired_at": _dt(r.paired_at), "published_at": _dt(r.published_at),
            "closed_at": _dt(r.closed_at), "modified_by_hand": r.modified_by_hand,
            "coin_toss": None if toss is None else {"seed": toss.seed, "outcome": toss.outcome,
                                                    "tossed_at": _dt(toss.tossed_at)},
            "pairing_changes": [{"at": _dt(c.at), "reason": c.reason, "before": boards(c.before),
                                 "after": boards(c.after)} for c in changes.get(r.pk, [])],
            "matches": out_matches,
        })
    absences = sorted(Absence.objects.filter(entry__tournament=t), key=lambda a: (a.round_number, start_no[a.entry_id]))
    pairs = []
    for k, p in enumerate(ForbiddenPair.objects.filter(tournament=t)):
        a, b = sorted((no(p.first_id, f"forbidden_pairs[{k}].first"), no(p.second_id, f"forbidden_pairs[{k}].second")))
        pairs.append({"first": a, "second": b, "first_round": p.first_round, "last_round": p.last_round,
                      "reason": p.reason, "created_at": _dt(p.created_at)})
    pairs.sort(key=lambda p: (p["first_round"], p["first"], p["second"], p["last_round"] or 0))

    settings = {}
    for name in TOURNAMENT_FIELDS:
        value = getattr(t, name)
        if isinstance(value, dt.datetime):
            value = _dt(value)
        elif isinstance(value, dt.date):
            value = _date(value)
        elif isinstance(value, Decimal):
            value = float(value)
        settings[name] = value
    settings["rated"] = signals.tournament_was_rated(t)
    return {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "tournament": settings,
        "entries": [
            {
                "start_no": e.start_no, "rating": e.rating, "withdrawn": e.withdrawn,
                "withdrawn_after_round": e.withdrawn_after_round, "federation": e.federation,
                "official_rank": e.official_rank, "accelerations": e.accelerations,
                "player": _player_doc(e.player),
            }
            for e in entries
        ],
        "rounds": out_rounds,
        "absences": [{"entry": start_no[a.entry_id], "round_number": a.round_number, "kind": a.kind,
                      "created_at": _dt(a.created_at)} for a in absences],
        "forbidden_pairs": pairs,
    }


def _player_doc(p: Player) -> dict:
    club = p.club
    return {
        "federation_id": p.federation_id, "first_name": p.first_name, "last_name": p.last_name, "sex": p.sex,
        "birth_year": p.birth_year, "city": p.city, "active": p.active,
        "club": None if club is None else {"name": club.name, "short_name": club.short_name, "city": club.city,
                                           "active": club.active},
    }


def tournament_export_json(*, tournament: Tournament) -> str:
    """:func:`tournament_export` as JSON text (UTF-8, indented, keys in the archive's order)."""
    return json.dumps(tournament_export(tournament=tournament), ensure_ascii=False, indent=1) + "\n"


# --------------------------------------------------------------------------------------------
# Reading an archive: every value checked, every refusal naming its JSON path
# --------------------------------------------------------------------------------------------


def _refuse(path: str, message: str):
    return ValidationFailed(f"{path}: {message}", field=path)


def _int(value, path, *, null=False, lo=None, hi=None):
    if value is None and null:
        return None
    if value.__class__ is not int:
        raise _refuse(path, _("expected a whole number, found %(v)s") % {"v": json.dumps(value, ensure_ascii=False)})
    if (lo is not None and value < lo) or (hi is not None and value > hi):
        raise _refuse(path, _("expected a number from %(lo)s to %(hi)s, found %(v)d")
                      % {"lo": lo if lo is not None else "…", "hi": hi if hi is not None else "…", "v": value})
    return value


def _text(value, path, *, null=False):
    if value is None and null:
        return None
    if not isinstance(value, str):
        raise _refuse(path, _("expected a text, found %(v)s") % {"v": json.dumps(value, ensure_ascii=False)})
    return value


def _bool(value, path):
    if not isinstance(value, bool):
        raise _refuse(path, _("expected true or false, found %(v)s") % {"v": json.dumps(value, ensure_ascii=False)})
    return value


def _choice(value, path, choices):
    _text(value, path)
    if value not in choices:
        raise _refuse(path, _("%(v)s is not one of %(choices)s")
                      % {"v": json.dumps(value, ensure_ascii=False), "choices": ", ".join(repr(c) for c in choices)})
    return value


def _day(value, path, *, null=True):
    if value is None and null:
        return None
    _text(value, path)
    try:
        return dt.date.fromisoformat(value)
    except ValueError:
        raise _refuse(path, _("expected a date YYYY-MM-DD, found %(v)s") % {"v": json.dumps(value)}) from None


def _moment(value, path, *, null=True):
    if value is None and null:
        return None
    _text(value, path)
    try:
        moment = parse_datetime(value)
    except ValueError:
        moment = None
    if moment is None or moment.tzinfo is None:
        raise _refuse(path, _("expected a date and time with its time zone (ISO 8601), found %(v)s")
                      % {"v": json.dumps(value)})
    return moment


def _point(value, path, *, null=True):
    if value is None and null:
        return None
    if value.__class__ not in (int, float) or value not in (0, 0.5, 1):
        raise _refuse(path, _("expected 0, 0.5 or 1, found %(v)s") % {"v": json.dumps(value)})
    return {0: Decimal("0"), 0.5: Decimal("0.5"), 1: Decimal("1")}[value]


def _list(value, path):
    if not isinstance(value, list):
        raise _refuse(path, _("expected a list, found %(v)s") % {"v": json.dumps(value, ensure_ascii=False)[:60]})
    return value


def _object(value, path: str, keys: tuple[str, ...]) -> dict:
    """``value`` as a dict with exactly ``keys`` (a missing or an unknown key is refused)."""
    if not isinstance(value, dict):
        raise _refuse(path, _("expected an object, found %(v)s") % {"v": json.dumps(value, ensure_ascii=False)[:60]})
    missing = [k for k in keys if k not in value]
    if missing:
        raise _refuse(f"{path}.{missing[0]}" if path else missing[0], _("missing"))
    unknown = [k for k in value if k not in keys]
    if unknown:
        return_path = f"{path}.{unknown[0]}" if path else unknown[0]
        raise _refuse(return_path, _("unknown key (format version %(v)d has no such key)") % {"v": FORMAT_VERSION})
    return value


def _clean(instance, path: str, exclude: tuple[str, ...] = ()) -> None:
    """The model's own field checks (lengths, choices, control characters) naming the JSON path."""
    try:
        instance.clean_fields(exclude=list(exclude))
    except ValidationError as exc:
        name, messages = next(iter(exc.message_dict.items()))
        raise _refuse(f"{path}.{name}", " ".join(str(m) for m in messages)) from None


def _numbers(value, path) -> list:
    for i, x in enumerate(_list(value, path)):
        if x.__class__ not in (int, float):
            raise _refuse(f"{path}[{i}]", _("expected a number, found %(v)s") % {"v": json.dumps(x, ensure_ascii=False)})
    return value


def _texts(value, path) -> list:
    for i, x in enumerate(_list(value, path)):
        _text(x, f"{path}[{i}]")
    return value


def _boards(value, path, numbers: set[int]) -> list:
    """A pairing change's boards: ``[[board, white start no, black start no or null], ...]``."""
    for i, b in enumerate(_list(value, path)):
        p = f"{path}[{i}]"
        if not isinstance(b, list) or len(b) != 3:
            raise _refuse(p, _("expected [board, white, black]"))
        _int(b[0], f"{p}[0]", lo=1)
        for k in (1, 2):
            n = _int(b[k], f"{p}[{k}]", null=k == 2)
            if n is not None and n not in numbers:
                raise _refuse(f"{p}[{k}]", _("no entry has starting number %(n)d") % {"n": n})
    return value


# --------------------------------------------------------------------------------------------
# Import
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PlayerConflict:
    """A player of the archive whose federation id is stored with another name or birth year."""

    path: str
    federation_id: str
    archive: object
    stored: object


class ArchivePlayerConflicts(ValidationFailed):
    """Players of the archive whose federation id belongs to a stored player with another name or birth
    year: nothing is imported. ``conflicts`` lists them; ``field`` is the first one's JSON path."""

    def __init__(self, message: str, conflicts: list[PlayerConflict]) -> None:
        super().__init__(message, field=conflicts[0].path)
        self.conflicts = conflicts


@dataclass(slots=True)
class ArchiveImportReport:
    """What an import did (or, after a dry run, would do): the tournament (not in the database after a
    dry run), notes (values not kept, players reused), counts, ``rated`` (the archive says the national
    rating counted the event) and ``rating_queued`` (the event is rated again once the import commits)."""

    tournament: Tournament
    notes: list[str] = field(default_factory=list)
    dry_run: bool = False
    entries: int = 0
    players_created: int = 0
    players_reused: int = 0
    clubs_created: int = 0
    rounds: int = 0
    matches: int = 0
    sets: int = 0
    rated: bool = False
    rating_queued: bool = False


class _DryRun(Exception):
    def __init__(self, report: ArchiveImportReport) -> None:
        super().__init__("dry run")
        self.report = report


def read_archive(data) -> dict:
    """The archive as a dict from a dict, JSON text or bytes; ValidationFailed (``field="file"``) for
    anything that is not a JSON object, and for another format or format version."""
    if isinstance(data, (bytes, bytearray)):
        try:
            data = bytes(data).decode("utf-8-sig")
        except UnicodeDecodeError:
            raise ValidationFailed(_("The archive is not UTF-8 text."), field="file") from None
    if isinstance(data, str):
        try:
            data = json.loads(data)
        except json.JSONDecodeError as exc:
            raise ValidationFailed(_("The archive is not valid JSON (line %(line)d, column %(col)d: %(msg)s).")
                                   % {"line": exc.lineno, "col": exc.colno, "msg": exc.msg}, field="file") from None
    if not isinstance(data, dict):
        raise ValidationFailed(_("The archive is not a JSON object."), field="file")
    if data.get("format") != FORMAT:
        raise ValidationFailed(
            _("Not a tournament archive: the format is %(found)s, not %(format)s.")
            % {"found": json.dumps(data.get("format"), ensure_ascii=False), "format": FORMAT}, field="format")
    version = data.get("format_version")
    if version.__class__ is not int or version != FORMAT_VERSION:
        raise ValidationFailed(
            _("Archive format version %(found)s is not supported; this program reads version %(supported)d.")
            % {"found": json.dumps(version, ensure_ascii=False), "supported": FORMAT_VERSION}, field="format_version")
    return data


def tournament_import(*, data, slug: str | None = None, dry_run: bool = False, user=None,
                      source: str = "archive") -> ArchiveImportReport:
    """Create the tournament of archive ``data`` (a dict, JSON text or bytes; module docstring) under
    its own slug or ``slug``; returns an :class:`ArchiveImportReport`.

    One transaction: a refusal (:class:`federation.errors.ApplicationError` naming the JSON path in
    ``field`` and in the message) saves nothing. Raises ValidationFailed for another format or version,
    a value that does not fit, data that breaks the rules (the invariants of
    :mod:`tournaments.invariants`); Conflict when the slug is taken; :class:`ArchivePlayerConflicts`
    for players stored with another name or birth year; PermissionDenied when ``user`` may not create
    tournaments. ``source`` names the file in the history ("imported from <source>"). Rating history
    is not imported (the event is rated again from its results after the commit when it is final).
    ``dry_run``: do everything, then roll back.
    """
    if user is not None:
        access.require(access.can_create_tournament(user), _("Only organisers can import tournaments."))
    doc = read_archive(data)
    reason = _("imported from %(file)s") % {"file": source}
    try:
        with transaction.atomic(), audit_context(action="tournament.import", user=user, reason=reason):
            report = _import(doc, slug=slug, user=user, reason=reason)
            if dry_run:
                report.dry_run = True
                raise _DryRun(report)
    except _DryRun as stop:
        return stop.report
    except IntegrityError as exc:  # a constraint the checks did not foresee (or a concurrent import)
        from federation.errors import integrity_error_message

        raise ValidationFailed(integrity_error_message(exc), field="file") from exc
    return report


ENTRY_KEYS = ("start_no", "rating", "withdrawn", "withdrawn_after_round", "federation", "official_rank",
              "accelerations", "player")
PLAYER_KEYS = ("federation_id", "first_name", "last_name", "sex", "birth_year", "city", "active", "club")
CLUB_KEYS = ("name", "short_name", "city", "active")
ROUND_KEYS = ("number", "status", "paired_at", "published_at", "closed_at", "modified_by_hand", "coin_toss",
              "pairing_changes", "matches")
TOSS_KEYS = ("seed", "outcome", "tossed_at")
CHANGE_KEYS = ("at", "reason", "before", "after")
MATCH_KEYS = ("board", "kind", "bye_kind", "white", "black", "forfeit", "white_points", "black_points", "rated",
              "result_entered_at", "version", "sets")
SET_KEYS = ("number", "starter", "white_stones", "black_stones", "termination", "white_store", "black_store", "moves")
ABSENCE_KEYS = ("entry", "round_number", "kind", "created_at")
PAIR_KEYS = ("first", "second", "first_round", "last_round", "reason", "created_at")


def _read_tournament(doc: dict, slug: str | None, user) -> tuple[Tournament, bool]:
    from tournaments.standings import TIEBREAKS

    d = _object(doc.get("tournament"), "tournament", (*TOURNAMENT_FIELDS, "rated"))
    p = "tournament"
    tiebreaks = _texts(d["tiebreaks"], f"{p}.tiebreaks")
    for i, key in enumerate(tiebreaks):
        if key not in TIEBREAKS:
            raise _refuse(f"{p}.tiebreaks[{i}]", _("unknown tie-break %(key)s") % {"key": key})
        if key in tiebreaks[:i]:
            raise _refuse(f"{p}.tiebreaks[{i}]", _("tie-break %(key)s is listed twice") % {"key": key})
    if d["bye_points"] not in (0, 0.5, 1) or isinstance(d["bye_points"], bool):
        raise _refuse(f"{p}.bye_points", _("expected 0, 0.5 or 1, found %(v)s") % {"v": json.dumps(d["bye_points"])})
    t = Tournament(
        slug=_text(slug if slug is not None else d["slug"], f"{p}.slug" if slug is None else "slug"),
        name=_text(d["name"], f"{p}.name"), start_date=_day(d["start_date"], f"{p}.start_date"),
        end_date=_day(d["end_date"], f"{p}.end_date"), venue=_text(d["venue"], f"{p}.venue"),
        city=_text(d["city"], f"{p}.city"), federation=_text(d["federation"], f"{p}.federation"),
        system=_choice(d["system"], f"{p}.system", Tournament.System.values),
        rounds_total=_int(d["rounds_total"], f"{p}.rounds_total", lo=1, hi=99),
        double_round_robin=_bool(d["double_round_robin"], f"{p}.double_round_robin"),
        second_cycle_swap=_bool(d["second_cycle_swap"], f"{p}.second_cycle_swap"),
        acceleration=_choice(d["acceleration"], f"{p}.acceleration", Tournament.Acceleration.values),
        tiebreak_rules=_choice(d["tiebreak_rules"], f"{p}.tiebreak_rules", Tournament.TiebreakRules.values),
        tiebreaks=list(tiebreaks), round_dates=list(_texts(d["round_dates"], f"{p}.round_dates")),
        sets_per_match=_choice_int(d["sets_per_match"], f"{p}.sets_per_match", (1, 3, 5, 7)),
        variant=_choice(d["variant"], f"{p}.variant", Tournament.Variant.values),
        bye_points=Decimal(str(d["bye_points"])).quantize(Decimal("0.1")),
        status=_choice(d["status"], f"{p}.status", Tournament.Status.values),
        standings_published_at=_moment(d["standings_published_at"], f"{p}.standings_published_at"),
        standings_round=_int(d["standings_round"], f"{p}.standings_round", null=True, lo=1, hi=99),
        chief_arbiter=_text(d["chief_arbiter"], f"{p}.chief_arbiter"),
        time_control=_text(d["time_control"], f"{p}.time_control"),
        imported_from_trf=_bool(d["imported_from_trf"], f"{p}.imported_from_trf"),
        archived_at=_moment(d["archived_at"], f"{p}.archived_at"),
        version=_int(d["version"], f"{p}.version", lo=1),
        standings_version=_int(d["standings_version"], f"{p}.standings_version", lo=1),
        created_by=user if getattr(user, "is_authenticated", False) else None,
    )
    t.created_at = _moment(d["created_at"], f"{p}.created_at", null=False)
    if t.start_date and t.end_date and t.end_date < t.start_date:
        raise _refuse(f"{p}.end_date", _("The end date is before the start date."))
    _clean(t, p, exclude=("created_by",))
    return t, _bool(d["rated"], f"{p}.rated")


def _choice_int(value, path, choices):
    _int(value, path)
    if value not in choices:
        raise _refuse(path, _("%(v)s is not one of %(choices)s") % {"v": value, "choices": ", ".join(map(str, choices))})
    return value


def _resolve_players(entries: list[dict], notes: list[str]) -> tuple[dict[int, Player | None], dict, list]:
    """The stored player of each entry index (None: to be registered), the clubs by name (stored, or
    None to be created), and the conflicts (module docstring)."""
    ids = [e["player"]["federation_id"] for e in entries]
    stored = {p.federation_id: p for p in Player.objects.filter(federation_id__in=ids).select_related("club")}
    out: dict[int, Player | None] = {}
    conflicts: list[PlayerConflict] = []
    for i, e in enumerate(entries):
        a = e["player"]
        path = f"entries[{i}].player"
        p = stored.get(a["federation_id"])
        if p is None:
            out[i] = None
            continue
        for name in ("last_name", "first_name", "birth_year"):
            if getattr(p, name) != a[name]:
                conflicts.append(PlayerConflict(f"{path}.{name}", p.federation_id, a[name], getattr(p, name)))
        kept = p
        while kept.merged_into_id is not None:
            kept = Player.objects.get(pk=kept.merged_into_id)
        if kept is not p:
            notes.append(_("%(path)s: player %(id)s was merged into %(kept)s; the entry is %(kept)s's")
                         % {"path": path, "id": p.federation_id, "kept": kept.federation_id})
        differs = [name for name in ("sex", "city", "active") if getattr(p, name) != a[name]]
        if (p.club.name if p.club else None) != (a["club"]["name"] if a["club"] else None):
            differs.append("club")
        if differs:
            notes.append(_("%(path)s: the stored player %(id)s differs in %(fields)s; the stored values are kept")
                         % {"path": path, "id": p.federation_id, "fields": ", ".join(differs)})
        out[i] = kept
    names = {e["player"]["club"]["name"] for e in entries if e["player"]["club"] is not None}
    clubs = {c.name: c for c in Club.objects.filter(name__in=names)}
    return out, clubs, conflicts


def _conflicts_message(conflicts: list[PlayerConflict]) -> str:
    lines = [
        _("%(path)s: federation id %(id)s is stored as %(stored)s, the archive says %(archive)s")
        % {"path": c.path, "id": c.federation_id, "stored": json.dumps(c.stored, ensure_ascii=False),
           "archive": json.dumps(c.archive, ensure_ascii=False)}
        for c in conflicts[:10]
    ]
    more = len(conflicts) - len(lines)
    listed = "; ".join(lines)
    if more > 0:
        listed += " " + _("(and %(n)d more)") % {"n": more}
    return _("Players of the archive are stored with another name or birth year; nothing was imported: %(list)s") % {
        "list": listed}


def _history(model, objs: list, *, reason: str, user, tournament_id: int) -> list:
    """``bulk_create`` with one history row per object (:func:`simple_history.utils.bulk_create_with_history`)
    carrying the import's action, user, reason and tournament (as :func:`federation.audit._fill_history_row`
    does for a single save)."""
    from simple_history.utils import bulk_create_with_history

    from federation.audit import current

    if not objs:
        return []
    ctx = current()
    return bulk_create_with_history(
        objs, model, default_user=user if getattr(user, "is_authenticated", False) else None,
        default_change_reason=reason,
        custom_historical_attrs={"audit_action": ctx.action, "audit_action_id": ctx.action_id,
                                 "audit_tournament_id": tournament_id},
    )


@dataclass(slots=True)
class _Parsed:
    """An archive read and checked, not written yet: unsaved model instances with what links them."""

    tournament: Tournament
    rated: bool
    entries: list  # (player doc, unsaved Player, unsaved Entry), in archive order
    numbers: dict  # start no -> index in ``entries``
    rounds: list  # (Round, CoinToss | None, [(PairingChange, at)], [(Match, white no, black no, [(SetResult, path)], path)], path)
    absences: list  # (Absence, start no, created at)
    pairs: list  # (ForbiddenPair, start no, start no, created at)


def _read_entries(doc: dict) -> tuple[list, dict[int, int]]:
    entries, numbers, fed_ids = [], {}, {}
    for i, raw in enumerate(_list(doc["entries"], "entries")):
        p = f"entries[{i}]"
        e = _object(raw, p, ENTRY_KEYS)
        n = _int(e["start_no"], f"{p}.start_no", lo=1, hi=32767)
        if n in numbers:
            raise _refuse(f"{p}.start_no", _("starting number %(n)d is also entries[%(i)d]'s") % {"n": n, "i": numbers[n]})
        numbers[n] = i
        a = _object(e["player"], f"{p}.player", PLAYER_KEYS)
        fid = _text(a["federation_id"], f"{p}.player.federation_id").strip()
        if not fid:
            raise _refuse(f"{p}.player.federation_id", _("A player needs a federation id."))
        if fid in fed_ids:
            raise _refuse(f"{p}.player.federation_id", _("federation id %(id)s is also entries[%(i)d]'s")
                          % {"id": fid, "i": fed_ids[fid]})
        fed_ids[fid] = i
        player = Player(federation_id=fid, first_name=_text(a["first_name"], f"{p}.player.first_name"),
                        last_name=_text(a["last_name"], f"{p}.player.last_name"),
                        sex=_text(a["sex"], f"{p}.player.sex"),
                        birth_year=_int(a["birth_year"], f"{p}.player.birth_year", null=True, lo=1900, hi=2100),
                        city=_text(a["city"], f"{p}.player.city"), active=_bool(a["active"], f"{p}.player.active"))
        _clean(player, f"{p}.player", exclude=("club", "user", "merged_into", "rating"))
        if a["club"] is not None:
            c = _object(a["club"], f"{p}.player.club", CLUB_KEYS)
            club = Club(name=_text(c["name"], f"{p}.player.club.name"),
                        short_name=_text(c["short_name"], f"{p}.player.club.short_name"),
                        city=_text(c["city"], f"{p}.player.club.city"), active=_bool(c["active"], f"{p}.player.club.active"))
            _clean(club, f"{p}.player.club")  # the name is unique: a stored club of that name is reused
        entry = Entry(start_no=n, rating=_int(e["rating"], f"{p}.rating", lo=0, hi=32767),
                      withdrawn=_bool(e["withdrawn"], f"{p}.withdrawn"),
                      withdrawn_after_round=_int(e["withdrawn_after_round"], f"{p}.withdrawn_after_round", null=True,
                                                 lo=0, hi=99),
                      federation=_text(e["federation"], f"{p}.federation"),
                      official_rank=_int(e["official_rank"], f"{p}.official_rank", null=True, lo=0),
                      accelerations=list(_numbers(e["accelerations"], f"{p}.accelerations")))
        _clean(entry, p, exclude=("tournament", "player"))
        entries.append((a, player, entry))
    return entries, numbers


def _read_sets(m: dict, mp: str) -> list:
    sets, seen = [], set()
    for k, raw in enumerate(_list(m["sets"], f"{mp}.sets")):
        sp = f"{mp}.sets[{k}]"
        s = _object(raw, sp, SET_KEYS)
        n = _int(s["number"], f"{sp}.number", lo=1, hi=7)
        if n in seen:
            raise _refuse(f"{sp}.number", _("set %(n)d is in the match twice") % {"n": n})
        seen.add(n)
        ws = _int(s["white_stones"], f"{sp}.white_stones", lo=0, hi=48)
        bs = _int(s["black_stones"], f"{sp}.black_stones", lo=0, hi=48)
        if ws + bs != 48:
            raise _refuse(sp, _("the recorded stones %(w)d–%(b)d do not total 48 (Kural 1)") % {"w": ws, "b": bs})
        row = SetResult(number=n, starter=_choice(s["starter"], f"{sp}.starter", ("white", "black")),
                        white_stones=ws, black_stones=bs,
                        termination=_choice(s["termination"], f"{sp}.termination", SetResult.Termination.values),
                        white_store=_int(s["white_store"], f"{sp}.white_store", null=True, lo=0, hi=48),
                        black_store=_int(s["black_store"], f"{sp}.black_store", null=True, lo=0, hi=48),
                        moves=_text(s["moves"], f"{sp}.moves"))
        _clean(row, sp, exclude=("match",))
        sets.append((row, sp))
    return sets


def _read_match(raw, mp: str, numbers: dict[int, int]) -> tuple:
    m = _object(raw, mp, MATCH_KEYS)
    kind = _choice(m["kind"], f"{mp}.kind", Match.Kind.values)
    white = _int(m["white"], f"{mp}.white")
    black = _int(m["black"], f"{mp}.black", null=True)
    for colour, n in (("white", white), ("black", black)):
        if n is not None and n not in numbers:
            raise _refuse(f"{mp}.{colour}", _("no entry has starting number %(n)d") % {"n": n})
    match = Match(board=_int(m["board"], f"{mp}.board", lo=1, hi=32767), kind=kind,
                  bye_kind=_text(m["bye_kind"], f"{mp}.bye_kind"), forfeit=_text(m["forfeit"], f"{mp}.forfeit"),
                  white_points=_point(m["white_points"], f"{mp}.white_points"),
                  black_points=_point(m["black_points"], f"{mp}.black_points"),
                  rated=_bool(m["rated"], f"{mp}.rated"),
                  result_entered_at=_moment(m["result_entered_at"], f"{mp}.result_entered_at"),
                  version=_int(m["version"], f"{mp}.version", lo=1))
    _clean(match, mp, exclude=("round", "white", "black", "result_entered_by"))
    if kind == Match.Kind.GAME and (black is None or match.bye_kind or white == black):
        raise _refuse(mp, _("a game has two different players and no bye kind"))
    if kind == Match.Kind.BYE and (black is not None or match.forfeit or not match.bye_kind
                                   or match.black_points is not None):
        raise _refuse(mp, _("a bye has one player, a bye kind, no forfeit and no black points"))
    if kind == Match.Kind.GAME and (match.white_points is None) != (match.black_points is None):
        raise _refuse(mp, _("a result gives points to both players or to neither"))
    return match, white, black, _read_sets(m, mp), mp


def _read_rounds(doc: dict, numbers: dict[int, int]) -> list:
    rounds, seen = [], set()
    for i, raw in enumerate(_list(doc["rounds"], "rounds")):
        p = f"rounds[{i}]"
        r = _object(raw, p, ROUND_KEYS)
        number = _int(r["number"], f"{p}.number", lo=1, hi=99)
        if number in seen:
            raise _refuse(f"{p}.number", _("round %(n)d is in the archive twice") % {"n": number})
        seen.add(number)
        rnd = Round(number=number, status=_choice(r["status"], f"{p}.status", Round.Status.values),
                    paired_at=_moment(r["paired_at"], f"{p}.paired_at"),
                    published_at=_moment(r["published_at"], f"{p}.published_at"),
                    closed_at=_moment(r["closed_at"], f"{p}.closed_at"),
                    modified_by_hand=_bool(r["modified_by_hand"], f"{p}.modified_by_hand"))
        toss = None
        if r["coin_toss"] is not None:
            c = _object(r["coin_toss"], f"{p}.coin_toss", TOSS_KEYS)
            toss = CoinToss(seed=_text(c["seed"], f"{p}.coin_toss.seed"),
                            outcome=_choice(c["outcome"], f"{p}.coin_toss.outcome", ("w", "b")),
                            tossed_at=_moment(c["tossed_at"], f"{p}.coin_toss.tossed_at", null=False))
            _clean(toss, f"{p}.coin_toss", exclude=("round", "tossed_by"))
        changes = []
        for k, raw_c in enumerate(_list(r["pairing_changes"], f"{p}.pairing_changes")):
            cp = f"{p}.pairing_changes[{k}]"
            c = _object(raw_c, cp, CHANGE_KEYS)
            changes.append((PairingChange(reason=_text(c["reason"], f"{cp}.reason"),
                                          before=_boards(c["before"], f"{cp}.before", set(numbers)),
                                          after=_boards(c["after"], f"{cp}.after", set(numbers))),
                            _moment(c["at"], f"{cp}.at", null=False)))
        matches, boards = [], set()
        for j, raw_m in enumerate(_list(r["matches"], f"{p}.matches")):
            match = _read_match(raw_m, f"{p}.matches[{j}]", numbers)
            if match[0].board in boards:
                raise _refuse(f"{p}.matches[{j}].board", _("board %(b)d is in the round twice") % {"b": match[0].board})
            boards.add(match[0].board)
            matches.append(match)
        rounds.append((rnd, toss, changes, matches, p))
    return rounds


def _read_absences(doc: dict, numbers: dict[int, int], by_user) -> list:
    absences, seen = [], set()
    for i, raw in enumerate(_list(doc["absences"], "absences")):
        p = f"absences[{i}]"
        a = _object(raw, p, ABSENCE_KEYS)
        n = _int(a["entry"], f"{p}.entry")
        if n not in numbers:
            raise _refuse(f"{p}.entry", _("no entry has starting number %(n)d") % {"n": n})
        rn = _int(a["round_number"], f"{p}.round_number", lo=1, hi=99)
        if (n, rn) in seen:
            raise _refuse(p, _("starting number %(n)d has two byes requested for round %(r)d") % {"n": n, "r": rn})
        seen.add((n, rn))
        absence = Absence(round_number=rn, kind=_choice(a["kind"], f"{p}.kind", Absence.Kind.values), created_by=by_user)
        absences.append((absence, n, _moment(a["created_at"], f"{p}.created_at", null=False)))
    return absences


def _read_pairs(doc: dict, numbers: dict[int, int], by_user) -> list:
    pairs, seen = [], set()
    for i, raw in enumerate(_list(doc["forbidden_pairs"], "forbidden_pairs")):
        p = f"forbidden_pairs[{i}]"
        f = _object(raw, p, PAIR_KEYS)
        a, b = _int(f["first"], f"{p}.first"), _int(f["second"], f"{p}.second")
        for key, n in (("first", a), ("second", b)):
            if n not in numbers:
                raise _refuse(f"{p}.{key}", _("no entry has starting number %(n)d") % {"n": n})
        if a == b:
            raise _refuse(f"{p}.second", _("A forbidden pair needs two different players."))
        first_round = _int(f["first_round"], f"{p}.first_round", lo=1, hi=99)
        last_round = _int(f["last_round"], f"{p}.last_round", null=True, lo=first_round, hi=99)
        key = (min(a, b), max(a, b), first_round)
        if key in seen:
            raise _refuse(p, _("These two players are already a forbidden pair."))
        seen.add(key)
        pair = ForbiddenPair(first_round=first_round, last_round=last_round, reason=_text(f["reason"], f"{p}.reason"),
                             created_by=by_user)
        _clean(pair, p, exclude=("tournament", "first", "second", "created_by"))
        pairs.append((pair, a, b, _moment(f["created_at"], f"{p}.created_at", null=False)))
    return pairs


def _read(doc: dict, *, slug: str | None, user) -> _Parsed:
    """Read and check every value of the archive (nothing is written)."""
    _object(doc, "", ("format", "format_version", "tournament", "entries", "rounds", "absences", "forbidden_pairs"))
    t, rated = _read_tournament(doc, slug, user)
    by_user = user if getattr(user, "is_authenticated", False) else None
    entries, numbers = _read_entries(doc)
    return _Parsed(t, rated, entries, numbers, _read_rounds(doc, numbers), _read_absences(doc, numbers, by_user),
                   _read_pairs(doc, numbers, by_user))


def _import(doc: dict, *, slug: str | None, user, reason: str) -> ArchiveImportReport:
    from federation.audit import audit_context as nested_context
    from tournaments.publication import is_rateable
    from tournaments.invariants import check_tournament

    parsed = _read(doc, slug=slug, user=user)
    t = parsed.tournament
    if Tournament.objects.filter(slug=t.slug).exists():
        raise Conflict(_("There is already a tournament with the short name %(slug)s; import the archive under "
                         "another short name.") % {"slug": t.slug}, field="slug")
    notes: list[str] = []
    report = ArchiveImportReport(tournament=t, notes=notes, rated=parsed.rated)
    stored, clubs, conflicts = _resolve_players([{"player": a} for a, _p, _e in parsed.entries], notes)
    if conflicts:
        raise ArchivePlayerConflicts(_conflicts_message(conflicts), conflicts)
    kept_ids = [p.pk for p in stored.values() if p is not None]
    twice = {pk for pk in kept_ids if kept_ids.count(pk) > 1}
    if twice:
        i = next(i for i, p in stored.items() if p is not None and p.pk in twice)
        raise _refuse(f"entries[{i}].player", _("two entries of the archive are the same stored player"))

    created_at = t.created_at
    t.save()
    with nested_context(action="tournament.import", tournament_id=t.pk):
        paths = _write(parsed, report, stored=stored, clubs=clubs, user=user, reason=reason)
        Tournament.objects.filter(pk=t.pk).update(created_at=created_at)  # auto_now_add wrote the import's time
        t.created_at = created_at

    # the rules: the imported tournament must be sound, as if the services had written it
    violations = check_tournament(t)
    if violations:
        shown = [f"{paths.get((v.model, v.pk), v.model)}: {v.message}" for v in violations[:5]]
        more = len(violations) - len(shown)
        listed = "; ".join(shown)
        if more > 0:
            listed += " " + _("(and %(n)d more)") % {"n": more}
        first = violations[0]
        raise ValidationFailed(_("The archive's data breaks the rules; nothing was imported: %(list)s") % {"list": listed},
                               field=paths.get((first.model, first.pk), "file"))

    if parsed.rated and not is_rateable(t):
        notes.append(_("the archive says the event was rated, but it is not a finished event with published final "
                       "standings: it is not rated"))
    if is_rateable(t):  # rated from its results, as publishing its final standings would
        signals.rerate_on_commit(t)
        report.rating_queued = True
        same = Tournament.objects.filter(name=t.name, start_date=t.start_date).exclude(pk=t.pk).first()
        if same is not None:
            notes.append(_("a tournament with the same name and start date exists (%(slug)s): if it is the same "
                           "event, its results now count twice in the national rating") % {"slug": same.slug})
    return report


def _club_doc(parsed: _Parsed, name: str) -> dict:
    return next(a["club"] for a, _p, _e in parsed.entries if a["club"] is not None and a["club"]["name"] == name)


def _write(parsed: _Parsed, report: ArchiveImportReport, *, stored: dict, clubs: dict, user, reason: str) -> dict:
    """Write the rows of ``parsed`` (its tournament is saved) with one history row each; returns the JSON
    path of every row written, by (model label, pk), for the messages of the final check."""
    t = parsed.tournament
    notes = report.notes
    paths: dict[tuple[str, int], str] = {("tournaments.Tournament", t.pk): "tournament"}
    for name in sorted({a["club"]["name"] for a, _p, _e in parsed.entries if a["club"] is not None}):
        c = _club_doc(parsed, name)
        club = clubs.get(name)
        if club is None:
            clubs[name] = Club.objects.create(name=name, short_name=c["short_name"], city=c["city"], active=c["active"])
            report.clubs_created += 1
        elif (club.short_name, club.city, club.active) != (c["short_name"], c["city"], c["active"]):
            notes.append(_("club %(name)s: the stored club differs from the archive's; the stored values are kept")
                         % {"name": name})
    entries = []
    for i, (a, player, entry) in enumerate(parsed.entries):
        p = stored[i]
        if p is None:
            player.club = clubs[a["club"]["name"]] if a["club"] is not None else None
            player.rating = min(entry.rating, 4000)  # the starting rating; the national rating does the rest
            player.save()
            p = player
            report.players_created += 1
        else:
            report.players_reused += 1
        entry.tournament, entry.player = t, p
        entries.append(entry)
    entries = _history(Entry, entries, reason=reason, user=user, tournament_id=t.pk)
    entry_of = {e.start_no: e for e in entries}
    for i, (_a, _p, entry) in enumerate(parsed.entries):
        paths[("tournaments.Entry", entry_of[entry.start_no].pk)] = f"entries[{i}]"

    for rnd, *_rest in parsed.rounds:
        rnd.tournament = t
    rounds = _history(Round, [r[0] for r in parsed.rounds], reason=reason, user=user, tournament_id=t.pk)
    tosses, changes, times, matches = [], [], [], []
    for rnd, (_r, toss, round_changes, round_matches, rp) in zip(rounds, parsed.rounds):
        paths[("tournaments.Round", rnd.pk)] = rp
        if toss is not None:
            toss.round = rnd
            tosses.append(toss)
        for change, at in round_changes:
            change.round = rnd
            change.before = _to_ids(change.before, entry_of)
            change.after = _to_ids(change.after, entry_of)
            changes.append(change)
            times.append(at)
        for match, white, black, sets, mp in round_matches:
            match.round = rnd
            match.white = entry_of[white]
            match.black = entry_of[black] if black is not None else None
            matches.append((match, sets, mp))
    CoinToss.objects.bulk_create(tosses)
    made = PairingChange.objects.bulk_create(changes)
    for change, at in zip(made, times):
        change.at = at  # auto_now_add wrote the import's time
    PairingChange.objects.bulk_update(made, ["at"])
    made_matches = _history(Match, [m for m, _s, _p in matches], reason=reason, user=user, tournament_id=t.pk)
    sets = []
    for match, (_m, match_sets, mp) in zip(made_matches, matches):
        paths[("tournaments.Match", match.pk)] = mp
        for row, sp in match_sets:
            row.match = match
            sets.append((row, sp))
    made_sets = _history(SetResult, [s for s, _p in sets], reason=reason, user=user, tournament_id=t.pk)
    for row, (_s, sp) in zip(made_sets, sets):
        paths[("tournaments.SetResult", row.pk)] = sp

    for absence, n, _at in parsed.absences:
        absence.entry = entry_of[n]
    made_absences = _history(Absence, [a for a, _n, _at in parsed.absences], reason=reason, user=user,
                             tournament_id=t.pk)
    for row, (_a, _n, at) in zip(made_absences, parsed.absences):
        row.created_at = at
    Absence.objects.bulk_update(made_absences, ["created_at"])
    for pair, a, b, _at in parsed.pairs:
        pair.tournament = t
        pair.first, pair.second = sorted((entry_of[a], entry_of[b]), key=lambda x: x.pk)  # first: the lower id
    made_pairs = _history(ForbiddenPair, [p for p, _a, _b, _at in parsed.pairs], reason=reason, user=user,
                          tournament_id=t.pk)
    for row, (_p, _a, _b, at) in zip(made_pairs, parsed.pairs):
        row.created_at = at
    ForbiddenPair.objects.bulk_update(made_pairs, ["created_at"])
    report.entries, report.rounds, report.matches, report.sets = (
        len(entries), len(rounds), len(made_matches), len(made_sets))
    return paths


def _to_ids(boards, entry_of: dict[int, Entry]):
    return [[b[0], entry_of[b[1]].pk, entry_of[b[2]].pk if b[2] is not None else None] for b in boards]
