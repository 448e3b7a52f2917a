"""The import of a tournament archive (``manage.py import_tournament``): :func:`tournament_import`
creates the tournament of an archive (:mod:`tournaments.archive.format`, read and checked by
:mod:`tournaments.archive.reading`).

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

import json
from dataclasses import dataclass, field

from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from federation.audit import audit_context
from federation.errors import Conflict, ValidationFailed
from federation.models import Club, Player
from tournaments import access, signals
from tournaments.archive.reading import ParsedArchive, parse_archive, read_archive, refuse
from tournaments.models import (
    Absence, CoinToss, Entry, ForbiddenPair, Match, PairingChange, Round, SetResult, Tournament,
)


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


def _import(doc: dict, *, slug: str | None, user, reason: str) -> ArchiveImportReport:
    from federation.audit import audit_context as nested_context
    from tournaments.publication import is_rateable
    from tournaments.invariants import check_tournament

    parsed = parse_archive(doc, slug=slug, user=user)
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
        raise refuse(f"entries[{i}].player", _("two entries of the archive are the same stored player"))

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


def _club_doc(parsed: ParsedArchive, name: str) -> dict:
    return next(a["club"] for a, _p, _e in parsed.entries if a["club"] is not None and a["club"]["name"] == name)


def _write(parsed: ParsedArchive, report: ArchiveImportReport, *, stored: dict, clubs: dict, user,
           reason: str) -> dict:
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
