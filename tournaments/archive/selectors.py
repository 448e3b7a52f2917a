"""The export of a tournament archive (``manage.py export_tournament``): :func:`tournament_export`
writes everything the tournament owns as plain JSON in the format of :mod:`tournaments.archive.format`
(no database ids, no user accounts, no rating history — only whether the event was rated).
"""
from __future__ import annotations

import datetime as dt
import json
from collections import defaultdict
from decimal import Decimal

from django.utils.translation import gettext as _

from federation.errors import ValidationFailed
from federation.models import Player
from tournaments import signals
from tournaments.archive.format import FORMAT, FORMAT_VERSION, TOURNAMENT_FIELDS
from tournaments.models import Absence, CoinToss, ForbiddenPair, Match, PairingChange, SetResult, Tournament


def _dt(value: dt.datetime | None) -> str | None:
    return None if value is None else value.astimezone(dt.timezone.utc).isoformat()


def _date(value: dt.date | None) -> str | None:
    return None if value is None else value.isoformat()


def _points(value) -> float | None:
    return None if value is None else float(value)


def tournament_export(*, tournament: Tournament) -> dict:
    """The archive of ``tournament`` as a JSON-ready dict (:mod:`tournaments.archive.format`). Deterministic: the same
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
