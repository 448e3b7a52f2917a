"""Reading a tournament archive (:mod:`tournaments.archive.format`): :func:`read_archive` turns a
dict, JSON text or bytes into the archive's dict (refusing another format or version), and
:func:`parse_archive` checks every value into unsaved model instances (:class:`ParsedArchive`) —
nothing is written; every refusal is a :class:`federation.errors.ValidationFailed` naming the JSON
path (``entries[12].player.last_name``).
"""
from __future__ import annotations

import datetime as dt
import json
from dataclasses import dataclass
from decimal import Decimal

from django.core.exceptions import ValidationError
from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext as _

from federation.errors import ValidationFailed
from federation.models import Club, Player
from tournaments.archive.format import (
    ABSENCE_KEYS, CHANGE_KEYS, CLUB_KEYS, ENTRY_KEYS, FORMAT, FORMAT_VERSION, MATCH_KEYS, PAIR_KEYS, PLAYER_KEYS,
    ROUND_KEYS, SET_KEYS, TOSS_KEYS, TOURNAMENT_FIELDS,
)
from tournaments.models import (
    Absence, CoinToss, Entry, ForbiddenPair, Match, PairingChange, Round, SetResult, Tournament,
)


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


def refuse(path: str, message: str):
    """The ValidationFailed (to raise) that refuses the value at JSON path ``path``, naming it."""
    return ValidationFailed(f"{path}: {message}", field=path)


def _int(value, path, *, null=False, lo=None, hi=None):
    if value is None and null:
        return None
    if value.__class__ is not int:
        raise refuse(path, _("expected a whole number, found %(v)s") % {"v": json.dumps(value, ensure_ascii=False)})
    if (lo is not None and value < lo) or (hi is not None and value > hi):
        raise refuse(path, _("expected a number from %(lo)s to %(hi)s, found %(v)d")
                     % {"lo": lo if lo is not None else "…", "hi": hi if hi is not None else "…", "v": value})
    return value


def _text(value, path, *, null=False):
    if value is None and null:
        return None
    if not isinstance(value, str):
        raise refuse(path, _("expected a text, found %(v)s") % {"v": json.dumps(value, ensure_ascii=False)})
    return value


def _bool(value, path):
    if not isinstance(value, bool):
        raise refuse(path, _("expected true or false, found %(v)s") % {"v": json.dumps(value, ensure_ascii=False)})
    return value


def _choice(value, path, choices):
    _text(value, path)
    if value not in choices:
        raise refuse(path, _("%(v)s is not one of %(choices)s")
                     % {"v": json.dumps(value, ensure_ascii=False), "choices": ", ".join(repr(c) for c in choices)})
    return value


def _day(value, path, *, null=True):
    if value is None and null:
        return None
    _text(value, path)
    try:
        return dt.date.fromisoformat(value)
    except ValueError:
        raise refuse(path, _("expected a date YYYY-MM-DD, found %(v)s") % {"v": json.dumps(value)}) from None


def _moment(value, path, *, null=True):
    if value is None and null:
        return None
    _text(value, path)
    try:
        moment = parse_datetime(value)
    except ValueError:
        moment = None
    if moment is None or moment.tzinfo is None:
        raise refuse(path, _("expected a date and time with its time zone (ISO 8601), found %(v)s")
                     % {"v": json.dumps(value)})
    return moment


def _point(value, path, *, null=True):
    if value is None and null:
        return None
    if value.__class__ not in (int, float) or value not in (0, 0.5, 1):
        raise refuse(path, _("expected 0, 0.5 or 1, found %(v)s") % {"v": json.dumps(value)})
    return {0: Decimal("0"), 0.5: Decimal("0.5"), 1: Decimal("1")}[value]


def _list(value, path):
    if not isinstance(value, list):
        raise refuse(path, _("expected a list, found %(v)s") % {"v": json.dumps(value, ensure_ascii=False)[:60]})
    return value


def _object(value, path: str, keys: tuple[str, ...]) -> dict:
    """``value`` as a dict with exactly ``keys`` (a missing or an unknown key is refused)."""
    if not isinstance(value, dict):
        raise refuse(path, _("expected an object, found %(v)s") % {"v": json.dumps(value, ensure_ascii=False)[:60]})
    missing = [k for k in keys if k not in value]
    if missing:
        raise refuse(f"{path}.{missing[0]}" if path else missing[0], _("missing"))
    unknown = [k for k in value if k not in keys]
    if unknown:
        return_path = f"{path}.{unknown[0]}" if path else unknown[0]
        raise refuse(return_path, _("unknown key (format version %(v)d has no such key)") % {"v": FORMAT_VERSION})
    return value


def _clean(instance, path: str, exclude: tuple[str, ...] = ()) -> None:
    """The model's own field checks (lengths, choices, control characters) naming the JSON path."""
    try:
        instance.clean_fields(exclude=list(exclude))
    except ValidationError as exc:
        name, messages = next(iter(exc.message_dict.items()))
        raise refuse(f"{path}.{name}", " ".join(str(m) for m in messages)) from None


def _numbers(value, path) -> list:
    for i, x in enumerate(_list(value, path)):
        if x.__class__ not in (int, float):
            raise refuse(f"{path}[{i}]", _("expected a number, found %(v)s") % {"v": json.dumps(x, ensure_ascii=False)})
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
            raise refuse(p, _("expected [board, white, black]"))
        _int(b[0], f"{p}[0]", lo=1)
        for k in (1, 2):
            n = _int(b[k], f"{p}[{k}]", null=k == 2)
            if n is not None and n not in numbers:
                raise refuse(f"{p}[{k}]", _("no entry has starting number %(n)d") % {"n": n})
    return value


def _read_tournament(doc: dict, slug: str | None, user) -> tuple[Tournament, bool]:
    from tournaments.standings import TIEBREAKS

    d = _object(doc.get("tournament"), "tournament", (*TOURNAMENT_FIELDS, "rated"))
    p = "tournament"
    tiebreaks = _texts(d["tiebreaks"], f"{p}.tiebreaks")
    for i, key in enumerate(tiebreaks):
        if key not in TIEBREAKS:
            raise refuse(f"{p}.tiebreaks[{i}]", _("unknown tie-break %(key)s") % {"key": key})
        if key in tiebreaks[:i]:
            raise refuse(f"{p}.tiebreaks[{i}]", _("tie-break %(key)s is listed twice") % {"key": key})
    if d["bye_points"] not in (0, 0.5, 1) or isinstance(d["bye_points"], bool):
        raise refuse(f"{p}.bye_points", _("expected 0, 0.5 or 1, found %(v)s") % {"v": json.dumps(d["bye_points"])})
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
        raise refuse(f"{p}.end_date", _("The end date is before the start date."))
    _clean(t, p, exclude=("created_by",))
    return t, _bool(d["rated"], f"{p}.rated")


def _choice_int(value, path, choices):
    _int(value, path)
    if value not in choices:
        raise refuse(path, _("%(v)s is not one of %(choices)s") % {"v": value, "choices": ", ".join(map(str, choices))})
    return value



@dataclass(slots=True)
class ParsedArchive:
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
            raise refuse(f"{p}.start_no", _("starting number %(n)d is also entries[%(i)d]'s") % {"n": n, "i": numbers[n]})
        numbers[n] = i
        a = _object(e["player"], f"{p}.player", PLAYER_KEYS)
        fid = _text(a["federation_id"], f"{p}.player.federation_id").strip()
        if not fid:
            raise refuse(f"{p}.player.federation_id", _("A player needs a federation id."))
        if fid in fed_ids:
            raise refuse(f"{p}.player.federation_id", _("federation id %(id)s is also entries[%(i)d]'s")
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
            raise refuse(f"{sp}.number", _("set %(n)d is in the match twice") % {"n": n})
        seen.add(n)
        ws = _int(s["white_stones"], f"{sp}.white_stones", lo=0, hi=48)
        bs = _int(s["black_stones"], f"{sp}.black_stones", lo=0, hi=48)
        if ws + bs != 48:
            raise refuse(sp, _("the recorded stones %(w)d–%(b)d do not total 48 (Kural 1)") % {"w": ws, "b": bs})
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
            raise refuse(f"{mp}.{colour}", _("no entry has starting number %(n)d") % {"n": n})
    match = Match(board=_int(m["board"], f"{mp}.board", lo=1, hi=32767), kind=kind,
                  bye_kind=_text(m["bye_kind"], f"{mp}.bye_kind"), forfeit=_text(m["forfeit"], f"{mp}.forfeit"),
                  white_points=_point(m["white_points"], f"{mp}.white_points"),
                  black_points=_point(m["black_points"], f"{mp}.black_points"),
                  rated=_bool(m["rated"], f"{mp}.rated"),
                  result_entered_at=_moment(m["result_entered_at"], f"{mp}.result_entered_at"),
                  version=_int(m["version"], f"{mp}.version", lo=1))
    _clean(match, mp, exclude=("round", "white", "black", "result_entered_by"))
    if kind == Match.Kind.GAME and (black is None or match.bye_kind or white == black):
        raise refuse(mp, _("a game has two different players and no bye kind"))
    if kind == Match.Kind.BYE and (black is not None or match.forfeit or not match.bye_kind
                                   or match.black_points is not None):
        raise refuse(mp, _("a bye has one player, a bye kind, no forfeit and no black points"))
    if kind == Match.Kind.GAME and (match.white_points is None) != (match.black_points is None):
        raise refuse(mp, _("a result gives points to both players or to neither"))
    return match, white, black, _read_sets(m, mp), mp


def _read_rounds(doc: dict, numbers: dict[int, int]) -> list:
    rounds, seen = [], set()
    for i, raw in enumerate(_list(doc["rounds"], "rounds")):
        p = f"rounds[{i}]"
        r = _object(raw, p, ROUND_KEYS)
        number = _int(r["number"], f"{p}.number", lo=1, hi=99)
        if number in seen:
            raise refuse(f"{p}.number", _("round %(n)d is in the archive twice") % {"n": number})
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
                raise refuse(f"{p}.matches[{j}].board", _("board %(b)d is in the round twice") % {"b": match[0].board})
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
            raise refuse(f"{p}.entry", _("no entry has starting number %(n)d") % {"n": n})
        rn = _int(a["round_number"], f"{p}.round_number", lo=1, hi=99)
        if (n, rn) in seen:
            raise refuse(p, _("starting number %(n)d has two byes requested for round %(r)d") % {"n": n, "r": rn})
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
                raise refuse(f"{p}.{key}", _("no entry has starting number %(n)d") % {"n": n})
        if a == b:
            raise refuse(f"{p}.second", _("A forbidden pair needs two different players."))
        first_round = _int(f["first_round"], f"{p}.first_round", lo=1, hi=99)
        last_round = _int(f["last_round"], f"{p}.last_round", null=True, lo=first_round, hi=99)
        key = (min(a, b), max(a, b), first_round)
        if key in seen:
            raise refuse(p, _("These two players are already a forbidden pair."))
        seen.add(key)
        pair = ForbiddenPair(first_round=first_round, last_round=last_round, reason=_text(f["reason"], f"{p}.reason"),
                             created_by=by_user)
        _clean(pair, p, exclude=("tournament", "first", "second", "created_by"))
        pairs.append((pair, a, b, _moment(f["created_at"], f"{p}.created_at", null=False)))
    return pairs


def parse_archive(doc: dict, *, slug: str | None, user) -> ParsedArchive:
    """Read and check every value of the archive (nothing is written)."""
    _object(doc, "", ("format", "format_version", "tournament", "entries", "rounds", "absences", "forbidden_pairs"))
    t, rated = _read_tournament(doc, slug, user)
    by_user = user if getattr(user, "is_authenticated", False) else None
    entries, numbers = _read_entries(doc)
    return ParsedArchive(t, rated, entries, numbers, _read_rounds(doc, numbers),
                         _read_absences(doc, numbers, by_user), _read_pairs(doc, numbers, by_user))
