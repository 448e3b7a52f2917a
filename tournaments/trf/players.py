"""The player of each line of an imported TRF file: a known one, or a new one.

Players: a line with a FIDE id is the player with that federation id (registered when new); when that
stored player has another name (compared in Turkish lower case without marks, in any word order) or
another birth year, the import is refused naming the line (:class:`PlayerConflicts`) unless
``player_matches={start_no: that FIDE id}`` confirms that they are the same person (a dry run lists the
line, ``how == "conflict"``). Whatever a matched line says otherwise than its stored player (name
spelling, birth year, sex) is noted; the stored values are kept. A full birth date is kept as the birth
year (one note). A line
without one is matched to a known player with the same name (Turkish case rules), the same birth
year and — when the line gives a federation/club code — that code (their club's short name or the
code of an earlier entry); a unique match is reused and reported ("line 3: Kılıç, Ayşe matched to
known player F-000123"). ``match_players=False`` refuses every match, ``player_matches={start_no:
federation_id or None}`` decides line by line. Any other line gets a new player with the federation
id ``T<tournament id>-<start no>`` (unique: the tournament id is; a taken id gets a suffix, each
insert in a savepoint).
"""
from __future__ import annotations

import re
import unicodedata
from collections import defaultdict
from dataclasses import dataclass, field

from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from federation.collation import turkish_case_variants, turkish_lower, turkish_upper
from federation.errors import NotFound, ValidationFailed
from federation.models import Player
from tournaments.models import Entry, Tournament
from tournaments.trf.checks import MAX_RATING
from tournaments.trf.mapping import _birth_year, _sex, _split_name

@dataclass(slots=True)
class PlayerChoice:
    """How one player line got its player: ``how`` is ``"fide_id"`` (the player with the line's FIDE id),
    ``"matched"`` (a known player with the same name, birth year and code, reused), ``"chosen"`` (the
    caller chose it: ``player_matches``), ``"new"`` (registered by the import) or, after a dry run only,
    ``"conflict"`` (the line's FIDE id belongs to a stored player with another name or birth year: the
    import is refused unless ``player_matches`` confirms it, ``{start_no: that id}``). ``candidates`` is
    the number of known players with the line's name, birth year and code (more than one: none is reused
    unless chosen); ``options`` describes them (``federation_id``, ``name``, ``club``, ``birth_year``).
    ``conflict`` is the text of a FIDE id conflict ("" when none; kept when confirmed)."""

    line: int
    start_no: int
    name: str
    federation_id: str
    how: str
    candidates: int = 0
    options: list[dict] = field(default_factory=list)
    conflict: str = ""
    differs: str = ""
    value: str = ""

    def as_dict(self) -> dict:
        return {"line": self.line, "start_no": self.start_no, "name": self.name,
                "federation_id": self.federation_id, "how": self.how, "candidates": self.candidates,
                "candidate_ids": [o["federation_id"] for o in self.options], "conflict": self.conflict or None,
                "differs": self.differs or None, "value": self.value or None}


#: What the organiser chose for a stored player whose sex or birth year differs from the file
#: (``player_values={start_no: one of these}``): keep the stored values, take the file's, or a new player.
VALUE_CHOICES = ("stored", "file", "new")


class PlayerConflicts(ValidationFailed):
    """Lines whose FIDE id belongs to a stored player with another name or birth year, not confirmed by
    ``player_matches``: nothing is imported. ``conflicts`` are their :class:`PlayerChoice` rows (``how ==
    "conflict"``); ``field`` is ``"player_matches"``."""

    def __init__(self, message: str, conflicts: list[PlayerChoice], field: str = "player_matches") -> None:
        super().__init__(message, field=field)
        self.conflicts = conflicts


def _norm(text: str) -> str:
    return " ".join(turkish_lower(unicodedata.normalize("NFC", text or "")).split())


def _codes_of(player: Player) -> set[str]:
    """The federation/club codes a known player is known by: their club's short name and the codes of
    their entries (TRF columns 54-56)."""
    codes = {turkish_upper(c.strip()) for c in Entry.objects.filter(player=player).exclude(federation="")
             .values_list("federation", flat=True)}
    if player.club is not None and player.club.short_name:
        codes.add(turkish_upper(player.club.short_name.strip()))
    return codes


def _known_players(p) -> list[Player]:
    """Known players (active, not merged away) with the name of line ``p`` (Turkish case rules), its birth
    year (none = none) and, when the line gives a code (columns 54-56), that code."""
    last, first = _split_name(p.name)
    if not last:
        return []
    q_last, q_first = Q(), Q()
    for form in turkish_case_variants(last):
        q_last |= Q(last_name__iexact=form)
    for form in turkish_case_variants(first):
        q_first |= Q(first_name__iexact=form)
    year = _birth_year(p)
    qs = Player.objects.filter(q_last, q_first, active=True, merged_into__isnull=True).select_related("club")
    qs = qs.filter(birth_year=year) if year is not None else qs.filter(birth_year__isnull=True)
    found = [pl for pl in qs[:50] if _norm(pl.last_name) == _norm(last) and _norm(pl.first_name) == _norm(first)]
    code = turkish_upper((p.federation or "").strip())
    if code:
        found = [pl for pl in found if code in _codes_of(pl)]
    return found


def _create_player(fields: dict, candidates) -> Player:
    """A new player with the first free federation id of ``candidates``; each insert in a savepoint, so an
    id taken meanwhile (another import, a registration) moves on to the next one instead of failing."""
    for fed_id in candidates:
        if not _id_free(fed_id):
            continue
        try:
            with transaction.atomic():
                return Player.objects.create(federation_id=fed_id, **fields)
        except IntegrityError:
            if Player.objects.filter(federation_id=fed_id).exists():
                continue
            raise
    raise ValidationFailed(_("No free federation id for a new player."), field="file")  # pragma: no cover


def _id_free(fed_id: str) -> bool:
    return not Player.objects.filter(federation_id=fed_id).exists()


def _generated_ids(tournament_id: int, start_no: int):
    base = f"T{tournament_id}-{start_no}"
    yield base
    for k in range(2, 1000):
        yield f"{base}-{k}"


def _resolve_choices(t, source: str, player_matches: dict | None) -> tuple[dict[int, Player | None], set[int]]:
    """``player_matches`` checked: ``(choices, confirmed)``. ``choices`` maps the start number of a line
    without FIDE id to the chosen known player, or None for a new one; ``confirmed`` holds the start numbers
    of lines with a FIDE id whose value is that FIDE id: the caller confirms that the stored player with
    that id is the line's player even when the name or birth year differ (:func:`_fide_conflict`)."""
    out: dict[int, Player | None] = {}
    confirmed: set[int] = set()
    if not player_matches:
        return out, confirmed
    from federation.selectors import player_resolve

    by_no = {p.start_no: p for p in t.players}
    used: dict[int, int] = {}
    for key, fed_id in player_matches.items():
        try:
            start_no = int(key)
        except (TypeError, ValueError):
            raise ValidationFailed(_("%(key)s is not a starting number.") % {"key": repr(key)},
                                   field="player_matches") from None
        p = by_no.get(start_no)
        if p is None:
            raise ValidationFailed(_("The file has no player with starting number %(no)d.") % {"no": start_no},
                                   field="player_matches")
        fed_id = (fed_id or "").strip() if isinstance(fed_id, str) or fed_id is None else str(fed_id)
        fide = (p.fide_id or "").strip()
        if fide.strip("0"):
            if fed_id != fide:
                raise ValidationFailed(_("Line %(line)d (starting number %(no)d) has the FIDE id %(id)s: its player is "
                                         "the one with that id. Give that id to confirm that the stored player is "
                                         "the same person.") % {"line": p.line, "no": start_no, "id": fide},
                                       field="player_matches")
            confirmed.add(start_no)
            continue
        if not fed_id:
            out[start_no] = None
            continue
        try:
            player = player_resolve(fed_id)
        except NotFound:
            raise ValidationFailed(_("Line %(line)d (starting number %(no)d): no player with federation id %(id)s.")
                                   % {"line": p.line, "no": start_no, "id": fed_id},
                                   field="player_matches") from None
        if player.pk in used:
            raise ValidationFailed(_("%(id)s is chosen for starting numbers %(a)d and %(b)d; a player has one "
                                     "starting number.") % {"id": player.federation_id, "a": used[player.pk],
                                                            "b": start_no}, field="player_matches")
        used[player.pk] = start_no
        out[start_no] = player
    return out, confirmed


#: Letters NFKD does not split into a base letter and a mark (ı is the Turkish dotless i).
_FOLD_EXTRA = str.maketrans({"ı": "i", "ø": "o", "đ": "d", "ł": "l", "ß": "ss", "æ": "ae", "œ": "oe"})


def _name_key(name: str) -> list[str]:
    """The words of a name in Turkish lower case without marks (ç→c, ğ→g, ı→i, ö→o, ş→s, ü→u), sorted: two
    names with the same key are the same name however they are written ("ÖZTÜRK, Elif", "Elif Ozturk")."""
    low = turkish_lower(unicodedata.normalize("NFC", name or ""))
    plain = "".join(ch for ch in unicodedata.normalize("NFKD", low) if not unicodedata.combining(ch))
    return sorted(w for w in re.split(r"[\s,]+", plain.translate(_FOLD_EXTRA)) if w)


def _who(name: str, year: int | None) -> str:
    """``"Öztürk, Elif (1998)"``, or the name alone without a birth year."""
    return f"{name} ({year})" if year else name


def _fide_conflict(p, player: Player) -> str:
    """"" when the stored ``player`` (the one with line ``p``'s FIDE id) has the line's name (compared by
    :func:`_name_key`) and birth year (when both give one); else why they look like two people, naming the
    line."""
    file_year, stored_year = _birth_year(p), player.birth_year
    if _name_key(p.name) == _name_key(player.full_name) and not (file_year and stored_year
                                                                 and file_year != stored_year):
        return ""
    return _("line %(line)d: FIDE id %(id)s belongs to %(stored)s; the file says %(file)s") % {
        "line": p.line, "id": player.federation_id, "stored": _who(player.full_name, stored_year),
        "file": _who(p.name, file_year)}


def _sex_label(code: str) -> str:
    return str(Player.Sex(code).label) if code in Player.Sex.values else "—"


def _difference_note(p, player: Player, notes: list[str]) -> None:
    """A note listing what line ``p`` says that differs from the stored ``player`` it is given (name
    spelling, birth year, sex): the stored values are kept."""
    parts = []
    last, first = _split_name(p.name)
    written = f"{last}, {first}" if first else last
    if " ".join(written.split()) != " ".join(player.full_name.split()):
        parts.append(_("name %(file)s (stored: %(stored)s)") % {"file": written, "stored": player.full_name})
    year = _birth_year(p)
    if year is not None and year != player.birth_year:
        parts.append(_("birth year %(file)s (stored: %(stored)s)") % {"file": year,
                                                                       "stored": player.birth_year or "—"})
    sex = _sex(p.sex)
    if sex and sex != player.sex:
        parts.append(_("sex %(file)s (stored: %(stored)s)") % {"file": _sex_label(sex),
                                                                "stored": _sex_label(player.sex)})
    if parts:
        notes.append(_("line %(line)d: the file differs from the stored player %(id)s: %(differences)s; the stored "
                       "values are kept") % {"line": p.line, "id": player.federation_id,
                                             "differences": ", ".join(parts)})


def _value_differences(p, player: Player) -> str:
    """"" when line ``p`` gives the stored ``player``'s sex and birth year (or one of them gives none); else
    what differs, naming the line and the field ("line 4: birth year 1990 (stored: 1991)")."""
    parts = []
    year = _birth_year(p)
    if year is not None and player.birth_year and year != player.birth_year:
        parts.append(_("birth year %(file)s (stored: %(stored)s)") % {"file": year, "stored": player.birth_year})
    sex = _sex(p.sex)
    if sex and player.sex in Player.Sex.values and sex != player.sex:
        parts.append(_("sex %(file)s (stored: %(stored)s)") % {"file": _sex_label(sex),
                                                                "stored": _sex_label(player.sex)})
    if not parts:
        return ""
    return _("line %(line)d: %(id)s: %(differences)s") % {"line": p.line, "id": player.federation_id,
                                                           "differences": ", ".join(parts)}


def _resolve_values(t, player_values: dict | None) -> dict[int, str]:
    """``player_values`` checked: start number → ``"stored"``, ``"file"`` or ``"new"``."""
    out: dict[int, str] = {}
    by_no = {p.start_no for p in t.players}
    for key, value in (player_values or {}).items():
        try:
            start_no = int(key)
        except (TypeError, ValueError):
            raise ValidationFailed(_("%(key)s is not a starting number.") % {"key": repr(key)},
                                   field="player_values") from None
        if start_no not in by_no:
            raise ValidationFailed(_("The file has no player with starting number %(no)d.") % {"no": start_no},
                                   field="player_values")
        if value not in VALUE_CHOICES:
            raise ValidationFailed(_("Starting number %(no)d: the choice is stored, file or new.") % {"no": start_no},
                                   field="player_values")
        out[start_no] = value
    return out


def _option(player: Player) -> dict:
    """A known player offered for a line: federation id, name, club, birth year."""
    club = player.club
    return {"federation_id": player.federation_id, "name": player.full_name,
            "club": (club.short_name or club.name) if club is not None else "", "birth_year": player.birth_year}


def _full_birth_date(text: str) -> bool:
    """True for a birth date with a month or day (``1990/01/01``), not a year alone (``1990``, ``1990/00/00``)."""
    m = re.fullmatch(r"(\d{4})[/.\-](\d{1,2})[/.\-](\d{1,2})", (text or "").strip())
    return bool(m) and int(m.group(1)) != 0 and (int(m.group(2)) != 0 or int(m.group(3)) != 0)


def _birth_date_note(t, notes: list[str]) -> None:
    """One note for the lines giving a full birth date (``1990/01/01``): a player keeps a birth year only."""
    full = [p for p in t.players if _full_birth_date(p.birth_date)]
    if full:
        notes.append(ngettext(
            "%(n)d line gives a full birth date (line %(line)d: %(date)s); only the birth year is kept",
            "%(n)d lines give a full birth date (the first, line %(line)d: %(date)s); only the birth year is kept",
            len(full)) % {"n": len(full), "line": full[0].line, "date": full[0].birth_date})


def _players_for(t, source: str, tournament: Tournament, *, match_players: bool,
                 choices: dict[int, Player | None], confirmed: set[int], notes: list[str],
                 dry_run: bool = False, values: dict[int, str] | None = None
                 ) -> tuple[dict[int, Player], list[PlayerChoice]]:
    """The player of every line (see the module docstring) and how it was found.

    A stored player whose sex or birth year differs from its line (:func:`_value_differences`) takes what
    ``values`` says for its start number (``"stored"``: keep the stored values, ``"file"``: take the
    file's, ``"new"``: register a new player for the line); without a choice the import is refused
    (:class:`PlayerConflicts`, naming the line and the field) and a dry run reports it (``differs``).

    A line whose FIDE id belongs to a stored player with another name or birth year (:func:`_fide_conflict`)
    is refused (:class:`PlayerConflicts`, all such lines at once) unless its start number is in
    ``confirmed``; a dry run reports it (``how == "conflict"``) instead."""
    players: dict[int, Player] = {}
    report: list[PlayerChoice] = []
    taken: dict[int, int] = {}  # player pk → start no, so no player gets two lines
    chosen_pks = {pl.pk: n for n, pl in choices.items() if pl is not None}
    proposals: dict[int, tuple[Player | None, int]] = {}
    wanted: dict[int, list[int]] = defaultdict(list)
    by_fide: dict[int, Player] = {}
    found_of: dict[int, list[Player]] = {}
    for p in t.players:
        fide = (p.fide_id or "").strip()
        if fide.strip("0"):
            known = Player.objects.filter(federation_id=fide).first()
            if known is not None:
                if known.pk in chosen_pks:
                    raise ValidationFailed(_("%(id)s is chosen for starting number %(a)d but line %(line)d "
                                             "(starting number %(b)d) has it as FIDE id.")
                                           % {"id": fide, "a": chosen_pks[known.pk], "line": p.line, "b": p.start_no},
                                           field="player_matches")
                by_fide[p.start_no] = known
                taken[known.pk] = p.start_no
            continue
        if not match_players:
            continue
        found = _known_players(p)
        found_of[p.start_no] = found
        if p.start_no in choices:
            continue
        proposals[p.start_no] = (found[0] if len(found) == 1 else None, len(found))
        if len(found) == 1:
            wanted[found[0].pk].append(p.start_no)
    conflicts: list[PlayerChoice] = []
    differing: list[PlayerChoice] = []
    for p in t.players:
        last, first = _split_name(p.name)
        fide = (p.fide_id or "").strip()
        if p.start_no in by_fide:
            player = by_fide[p.start_no]
            conflict = _fide_conflict(p, player)
            choice = PlayerChoice(p.line, p.start_no, p.name, player.federation_id, "fide_id", conflict=conflict)
            if conflict and p.start_no not in confirmed:
                choice.how = "conflict"
                conflicts.append(choice)
            else:
                if conflict:
                    notes.append(_("line %(line)d: FIDE id %(id)s: the stored player %(stored)s is this line's player, "
                                   "as confirmed") % {"line": p.line, "id": player.federation_id,
                                                      "stored": _who(player.full_name, player.birth_year)})
                given = values if not conflict or p.start_no in (values or {}) else {**(values or {}), p.start_no: "stored"}
                player = _settle_values(p, player, choice, tournament, given, differing, notes, dry_run)
            players[p.start_no] = player
            report.append(choice)
            continue
        options = [_option(pl) for pl in found_of.get(p.start_no, [])]
        how, candidates = "new", len(options)
        player = None
        if p.start_no in choices:
            player = choices[p.start_no]
            how = "chosen" if player is not None else "new"
        elif p.start_no in proposals:
            match, candidates = proposals[p.start_no]
            if match is not None:
                if len(wanted[match.pk]) > 1:
                    lines = ", ".join(str(t.player(n).line) for n in wanted[match.pk])
                    text = (_("line %(line)d: %(name)s: lines %(lines)s all match the known player %(id)s; none would "
                              "be matched, each would get a new player") if dry_run else
                            _("line %(line)d: %(name)s: lines %(lines)s all match the known player %(id)s; none is "
                              "matched, each gets a new player"))
                    notes.append(text % {"line": p.line, "name": p.name, "id": match.federation_id, "lines": lines})
                elif match.pk in taken or match.pk in chosen_pks:
                    text = (_("line %(line)d: %(name)s matches the known player %(id)s, who has another line; a new "
                              "player would be registered") if dry_run else
                            _("line %(line)d: %(name)s matches the known player %(id)s, who has another line; a new "
                              "player is registered"))
                    notes.append(text % {"line": p.line, "name": p.name, "id": match.federation_id})
                else:
                    player, how = match, "matched"
            elif candidates > 1:
                text = (_("line %(line)d: %(name)s: %(n)d known players have this name and birth year; a new player "
                          "would be registered (choose one to use a known player)") if dry_run else
                        _("line %(line)d: %(name)s: %(n)d known players have this name and birth year; a new "
                          "player is registered (choose one to use a known player)"))
                notes.append(text % {"line": p.line, "name": p.name, "n": candidates})
        if player is None:
            fields = {"first_name": first, "last_name": last, "sex": _sex(p.sex), "birth_year": _birth_year(p),
                      "rating": max(0, min(MAX_RATING, p.rating or 0))}
            ids = [fide] if fide.strip("0") else _generated_ids(tournament.pk, p.start_no)
            player = _create_player(fields, ids)
        choice = PlayerChoice(p.line, p.start_no, p.name, player.federation_id, how, candidates, options)
        if how == "matched":
            notes.append(_("line %(line)d: %(name)s matched to known player %(id)s")
                         % {"line": p.line, "name": p.name, "id": player.federation_id})
            player = _settle_values(p, player, choice, tournament, values, differing, notes, dry_run)
        elif how == "chosen":
            notes.append(_("line %(line)d: %(name)s is the known player %(id)s (as chosen)")
                         % {"line": p.line, "name": p.name, "id": player.federation_id})
            player = _settle_values(p, player, choice, tournament, values, differing, notes, dry_run)
        taken[player.pk] = p.start_no
        players[p.start_no] = player
        report.append(choice)
    if conflicts:
        if not dry_run:
            shown = "; ".join(c.conflict for c in conflicts[:5])
            more = len(conflicts) - 5
            if more > 0:
                shown += "; " + ngettext("and %(n)d more line", "and %(n)d more lines", more) % {"n": more}
            raise PlayerConflicts(_("%(source)s: %(conflicts)s. Nothing is imported: confirm that the stored player "
                                    "is the same person, or correct the file.")
                                  % {"source": source, "conflicts": shown}, conflicts)
        for c in conflicts:
            notes.append(_("%(conflict)s: the import would be refused unless you confirm that they are the same "
                           "person") % {"conflict": c.conflict})
    if differing:
        if not dry_run:
            shown = "; ".join(c.differs for c in differing[:5])
            more = len(differing) - 5
            if more > 0:
                shown += "; " + ngettext("and %(n)d more line", "and %(n)d more lines", more) % {"n": more}
            raise PlayerConflicts(_("%(source)s: %(differences)s. Nothing is imported: choose for each line whether "
                                    "the stored values are kept, the file's are taken or a new player is "
                                    "registered.") % {"source": source, "differences": shown}, differing,
                                  field="player_values")
        for c in differing:
            notes.append(_("%(differences)s: the import would be refused unless you choose the stored values, the "
                           "file's or a new player") % {"differences": c.differs})
    return players, report


def _settle_values(p, player: Player, choice: PlayerChoice, tournament: Tournament, values: dict[int, str] | None,
                   differing: list[PlayerChoice], notes: list[str], dry_run: bool) -> Player:
    """The player of line ``p`` once the organiser's choice for a stored ``player`` whose sex or birth year
    differs from the line is applied (see :func:`_players_for`); ``choice`` is updated."""
    diff = _value_differences(p, player)
    value = (values or {}).get(p.start_no)
    if not diff or value is None:
        if diff:
            choice.differs = diff
            differing.append(choice)
        _difference_note(p, player, notes)
        return player
    choice.differs, choice.value = diff, value
    if value == "new":
        last, first = _split_name(p.name)
        fields = {"first_name": first, "last_name": last, "sex": _sex(p.sex), "birth_year": _birth_year(p),
                  "rating": max(0, min(MAX_RATING, p.rating or 0))}
        new = _create_player(fields, _generated_ids(tournament.pk, p.start_no))
        choice.federation_id, choice.how = new.federation_id, "new"
        notes.append(_("%(differences)s: a new player %(new)s is registered for the line, as chosen")
                     % {"differences": diff, "new": new.federation_id})
        return new
    if value == "file":
        year, sex = _birth_year(p), _sex(p.sex)
        if year is not None:
            player.birth_year = year
        if sex:
            player.sex = sex
        player.save(update_fields=["birth_year", "sex"])
        notes.append(_("%(differences)s: the file's values are taken, as chosen") % {"differences": diff})
        return player
    _difference_note(p, player, notes)
    return player
