"""Reads of a tournament's history: every action on it as one item — who, when, what, why, before, after.

The rows come from django-simple-history's tables (:mod:`federation.audit`): every tracked row of a
tournament (the tournament, its roles, entries, rounds, boards, sets, requested byes, forbidden
pairs, categories and prizes) carries ``audit_tournament_id``; the rows written by one service call share ``audit_action_id`` and are
folded into one :class:`HistoryItem`. A board's sets are folded into the board ("sets": ["30-18",
"26-22"]), so a corrected result reads as one change of one board.

Loaded with one query per tracked model plus one for users and one for players (and one for the clubs of
club categories, when there are any; no query per row).
"""
from __future__ import annotations

import datetime as dt
from collections import defaultdict
from dataclasses import dataclass

from django.contrib.auth import get_user_model
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from federation import formatting

#: Readable names of the actions (the API keeps the codes).
ACTION_LABELS = {
    "tournament.create": gettext_lazy("tournament created"), "tournament.edit": gettext_lazy("tournament edited"),
    "tournament.delete": gettext_lazy("tournament deleted"), "tournament.restore": gettext_lazy("tournament restored"),
    "tournament.import": gettext_lazy("tournament imported"),
    "entry.add": gettext_lazy("player entered"), "entry.withdraw": gettext_lazy("player withdrawn"),
    "entry.reinstate": gettext_lazy("withdrawal undone"), "bye.request": gettext_lazy("bye requested"),
    "bye.withdraw": gettext_lazy("bye request withdrawn"), "round.pair": gettext_lazy("round paired"),
    "round.publish": gettext_lazy("pairings published"), "round.close": gettext_lazy("round closed"),
    "round.reopen": gettext_lazy("round reopened"), "round.delete": gettext_lazy("pairing deleted"),
    "pairing.change": gettext_lazy("pairing changed by hand"), "result.enter": gettext_lazy("result entered"),
    "result.correct": gettext_lazy("result corrected after closing"),
    "standings.publish": gettext_lazy("standings published"),
    "lot.commit": gettext_lazy("lot committed"), "lot.reveal": gettext_lazy("lot drawn"),
    "forbidden_pair.add": gettext_lazy("forbidden pair added"),
    "forbidden_pair.remove": gettext_lazy("forbidden pair removed"),
    "role.assign": gettext_lazy("role given"), "role.remove": gettext_lazy("role taken away"),
    "event.section_add": gettext_lazy("section added to the event"),
    "event.sync": gettext_lazy("section entries made from the event's list"),
    "event.unregister": gettext_lazy("player taken off the event's list"),
    "category.create": gettext_lazy("category added"), "category.edit": gettext_lazy("category changed"),
    "category.delete": gettext_lazy("category deleted"), "prize.create": gettext_lazy("prize added"),
    "tournament.prize_rules": gettext_lazy("prize rules changed"),
    "tournament.prize_lot": gettext_lazy("prize lot drawn"),
    "prize.edit": gettext_lazy("prize changed"), "prize.delete": gettext_lazy("prize deleted"),
    "knockout.qualifiers": gettext_lazy("knockout qualifiers chosen"),
    "playoff.create": gettext_lazy("play-off created"),
    "team.create": gettext_lazy("team added"), "team.edit": gettext_lazy("team changed"),
    "team.seed": gettext_lazy("teams seeded"), "team.member_add": gettext_lazy("player added to a team"),
    "team.member_move": gettext_lazy("team player moved"), "team.member_remove": gettext_lazy("player taken off a team"),
    "event.create": gettext_lazy("event created"), "event.edit": gettext_lazy("event edited"),
    "event.register": gettext_lazy("player put on the event's list"),
    "event.move": gettext_lazy("player moved to another section"),
    "create": gettext_lazy("created"), "edit": gettext_lazy("edited"), "delete": gettext_lazy("deleted"),
}

#: Readable names of the fields shown in before/after.
FIELD_LABELS = {
    "name": gettext_lazy("name"), "start_date": gettext_lazy("start date"), "end_date": gettext_lazy("end date"),
    "venue": gettext_lazy("venue"), "city": gettext_lazy("city"), "chief_arbiter": gettext_lazy("chief arbiter"),
    "time_control": gettext_lazy("time control"), "tiebreaks": gettext_lazy("tie-breaks"),
    "rounds_total": gettext_lazy("number of rounds"), "status": gettext_lazy("status"),
    "standings_round": gettext_lazy("standings published after round"),
    "standings_published_at": gettext_lazy("standings published at"), "archived_at": gettext_lazy("archived at"),
    "user": gettext_lazy("user"), "role": gettext_lazy("role"), "start_no": gettext_lazy("starting number"),
    "player": gettext_lazy("player"), "rating": gettext_lazy("rating"), "withdrawn": gettext_lazy("withdrawn"),
    "withdrawn_after_round": gettext_lazy("withdrawn after round"), "number": gettext_lazy("round"),
    "modified_by_hand": gettext_lazy("modified by hand"), "kind": gettext_lazy("kind"),
    "bye_kind": gettext_lazy("bye"), "white": gettext_lazy("white"), "black": gettext_lazy("black"),
    "forfeit": gettext_lazy("forfeit"), "white_points": gettext_lazy("white's points"),
    "black_points": gettext_lazy("black's points"), "rated": gettext_lazy("rated"), "version": gettext_lazy("version"),
    "round_number": gettext_lazy("round"), "sets": gettext_lazy("sets"),
    "acceleration": gettext_lazy("accelerated pairing"), "tiebreak_rules": gettext_lazy("tie-break rules text"),
    "second_cycle_swap": gettext_lazy("second-cycle swap"), "first": gettext_lazy("player"),
    "second": gettext_lazy("other player"), "first_round": gettext_lazy("from round"),
    "last_round": gettext_lazy("to round"), "reason": gettext_lazy("reason"),
    "code": gettext_lazy("code"), "max_age": gettext_lazy("highest age"), "min_age": gettext_lazy("lowest age"),
    "rating_min": gettext_lazy("lowest rating"), "rating_max": gettext_lazy("highest rating"),
    "club": gettext_lazy("club"), "order": gettext_lazy("order"), "category": gettext_lazy("category"),
    "place": gettext_lazy("place"), "label": gettext_lazy("prize"), "value": gettext_lazy("value"),
    "short_name": gettext_lazy("short name"), "seed_no": gettext_lazy("seed"), "team_id": gettext_lazy("team"),
    "board": gettext_lazy("board"), "reserve": gettext_lazy("reserve"),
    "prize_sharing": gettext_lazy("sharing prize money"),
    "prizes_to_withdrawn": gettext_lazy("players who withdrew early can take prizes"),
    "prize_lot_seed": gettext_lazy("seed of the prize lot"),
    "includes_unrated": gettext_lazy("includes unrated players"), "money": gettext_lazy("money prize"),
    "knockout_sets": gettext_lazy("sets per knockout round"), "third_place_match": gettext_lazy("match for third place"),
    "level_match_rule": gettext_lazy("rule for a level match"),
    "max_deciders": gettext_lazy("decider sets before the higher seed advances"),
    "qualified_from": gettext_lazy("qualified from"), "qualifiers": gettext_lazy("qualifiers"),
    "format": gettext_lazy("format"), "boards_per_team": gettext_lazy("boards per team match"),
    "section_birth_year_min": gettext_lazy("born in or after"),
    "section_birth_year_max": gettext_lazy("born in or before"), "section_sex": gettext_lazy("sex of the section"),
}
#: Fields holding a date and time / a date: shown in the reader's language and the site's time zone (the API
#: keeps ISO 8601).
_MOMENT_FIELDS = frozenset({"standings_published_at", "archived_at"})
_DAY_FIELDS = frozenset({"start_date", "end_date"})
#: Stored field → the key shown (ids become what they point to).
_OUT_KEY = {"white_id": "white", "black_id": "black", "entry_id": "player", "player_id": "player", "user_id": "user",
            "first_id": "first", "second_id": "second", "category_id": "category", "club_id": "club",
            "qualified_from_id": "qualified_from"}

from federation.models import Player
from tournaments.models import Absence, Entry, ForbiddenPair, Match, Round, SetResult, Tournament, TournamentRole
from tournaments.models import Category, Prize, Team, TeamMember

#: Fields shown for each tracked model (ids are turned into readable values below).
_FIELDS = {
    "Tournament": ["name", "start_date", "end_date", "venue", "city", "chief_arbiter", "time_control", "tiebreaks",
                   "rounds_total", "status", "standings_round", "standings_published_at", "archived_at",
                   "acceleration", "tiebreak_rules", "second_cycle_swap",
                   # a knockout section's settings (tournaments.knockout.settings.EDITABLE) and its stage
                   "knockout_sets", "third_place_match", "level_match_rule", "max_deciders", "qualified_from_id",
                   "qualifiers",
                   # a team event's format, an event section's limits
                   "format", "boards_per_team", "section_birth_year_min", "section_birth_year_max", "section_sex",
                   # the prize rules (issue 25)
                   "prize_sharing", "prizes_to_withdrawn", "prize_lot_seed"],
    "TournamentRole": ["user_id", "role"],
    "Entry": ["start_no", "player_id", "rating", "withdrawn", "withdrawn_after_round"],
    "Round": ["number", "status", "modified_by_hand"],
    "Match": ["kind", "bye_kind", "white_id", "black_id", "forfeit", "white_points", "black_points", "rated", "version"],
    "Absence": ["entry_id", "round_number", "kind"],
    "ForbiddenPair": ["first_id", "second_id", "first_round", "last_round", "reason"],
    "Category": ["code", "name", "kind", "max_age", "min_age", "rating_min", "rating_max", "club_id", "city", "order",
                 "includes_unrated"],
    "Prize": ["category_id", "place", "label", "value", "money"],
    "Team": ["name", "short_name", "seed_no", "withdrawn"],
    "TeamMember": ["team_id", "entry_id", "board", "reserve"],
}
_ORDER = ["Match", "Round", "Entry", "Absence", "ForbiddenPair", "TournamentRole", "Category", "Prize", "Team",
          "TeamMember", "Tournament"]


@dataclass(frozen=True, slots=True)
class HistoryItem:
    """One action: ``at`` (aware datetime), ``user`` (display name or None), ``action`` (e.g.
    ``"result.correct"``), ``object`` (e.g. "Round 3, board 1"), ``reason`` ("" when none given),
    ``before``/``after`` (JSON-ready dicts of the fields that changed; ``None`` for a created / deleted
    object), ``round`` and ``board`` it concerns (or None)."""

    at: dt.datetime
    user: str | None
    action: str
    object: str
    reason: str
    before: dict | None
    after: dict | None
    round: int | None = None
    board: int | None = None

    @property
    def action_label(self) -> str:
        """The action in the reader's language (:func:`action_label`), never its code."""
        return action_label(self.action)

    def changes(self) -> list[dict]:
        """The before/after as rows for a page: ``{"object", "field", "before", "after"}`` with readable
        field names and values (lists joined, booleans and empty values as words)."""
        flat = self.before is not None and all(not isinstance(v, dict) for v in self.before.values())
        flat = flat or (self.before is None and self.after is not None
                        and all(not isinstance(v, dict) for v in self.after.values()))
        if flat:
            groups = {self.object: (self.before or {}, self.after or {}, self.before is None, self.after is None)}
        else:
            labels = list(dict.fromkeys([*(self.before or {}), *(self.after or {})]))
            groups = {
                lb: ((self.before or {}).get(lb) or {}, (self.after or {}).get(lb) or {},
                     lb not in (self.before or {}), lb not in (self.after or {}))
                for lb in labels
            }
        rows = []
        for label, (old, new, created, deleted) in groups.items():
            bye = "bye" in (old.get("kind"), new.get("kind"))
            for key in dict.fromkeys([*old, *new]):
                if key == "version" or (bye and key in _NOT_FOR_BYES):
                    continue
                rows.append({
                    "object": label, "field": str(FIELD_LABELS.get(key, key)),
                    "before": "" if created else _readable(old.get(key), key),
                    "after": "" if deleted else _readable(new.get(key), key),
                })
        return rows

    def as_dict(self) -> dict:
        return {
            "at": timezone.localtime(self.at).isoformat(), "user": self.user, "action": self.action, "object": self.object,
            "reason": self.reason, "before": self.before, "after": self.after, "round": self.round, "board": self.board,
        }


def action_label(action: str) -> str:
    """The readable name of the history action code ``action`` (``"round.close"`` → "round closed"), in the
    active language. A code missing from :data:`ACTION_LABELS` falls back to its verb's label (``create``,
    ``edit``, ``delete``) or to a generic "changed" — never the code itself."""
    label = ACTION_LABELS.get(action)
    if label is None:
        verb = action.rsplit(".", 1)[-1]
        label = ACTION_LABELS.get(verb) or gettext_lazy("changed")
    return str(label)


#: Fields of a board that say nothing about a bye (a bye is neither rated nor unrated, has no black and no
#: forfeit): not shown for one.
_NOT_FOR_BYES = frozenset({"rated", "black", "forfeit"})


def _choice_labels() -> dict[str, dict[str, object]]:
    """Field shown → stored code → its label (the models' choices), for the page (the API keeps the codes)."""
    return {
        "status": {**dict(Tournament.Status.choices), **dict(Round.Status.choices)},
        "acceleration": dict(Tournament.Acceleration.choices),
        "tiebreak_rules": dict(Tournament.TiebreakRules.choices),
        "prize_sharing": dict(Tournament.PrizeSharing.choices),
        "kind": {**dict(Match.Kind.choices), **dict(Absence.Kind.choices), **dict(Category.Kind.choices)},
        "bye_kind": dict(Match.ByeKind.choices),
        "forfeit": {k: v for k, v in Match.Forfeit.choices if k},
        "role": dict(TournamentRole.Role.choices),
        "level_match_rule": dict(Tournament.LevelMatchRule.choices),
        "format": dict(Tournament.Format.choices),
        "section_sex": dict(Tournament._meta.get_field("section_sex").choices or ()),
    }


def _tiebreak_text(key: str) -> str:
    from django.utils.translation import get_language

    from tournaments.standings import tiebreak_label

    try:
        return tiebreak_label(key, "en" if (get_language() or "").startswith("en") else "tr")
    except Exception:  # an old or unknown key: shown as stored
        return key


def _readable(value, key: str | None = None) -> str:
    if value is None or value == "":
        return "—"
    if value is True:
        return str(gettext_lazy("yes"))
    if value is False:
        return str(gettext_lazy("no"))
    if key == "tiebreaks" and isinstance(value, list):
        return ", ".join(_tiebreak_text(str(v)) for v in value) or "—"
    if key == "sets" and isinstance(value, list):
        return ", ".join(_set_readable(str(v)) for v in value) or "—"
    if key in _MOMENT_FIELDS or key in _DAY_FIELDS:
        shown = _when_readable(value, moment=key in _MOMENT_FIELDS)
        if shown:
            return shown
    if isinstance(value, list):
        return ", ".join(str(v) for v in value) or "—"
    if key is not None and isinstance(value, str):
        labels = _choice_labels().get(key)
        if labels and value in labels:
            return str(labels[value])
    if isinstance(value, float):
        return {1.0: "1", 0.5: "½", 0.0: "0"}.get(value, f"{value:g}")
    return str(value)


def _set_readable(text: str) -> str:
    """``"30-18 (white_withdrew)"`` → ``"30-18 (white withdrew)"``: a set's ending by its label."""
    score, sep, rest = text.partition(" (")
    code = rest[:-1] if sep and rest.endswith(")") else None
    labels = dict(SetResult.Termination.choices)
    return f"{score} ({labels[code]})" if code in labels else text


def _when_readable(value, *, moment: bool) -> str:
    """An ISO 8601 date and time (``moment``) or date, as stored in before/after, in the reader's language
    (``5 Aralık 2026 22:49`` / ``5 Dec 2026 22:49``, the site's time zone); "" when it is not one."""
    try:
        when = dt.datetime.fromisoformat(str(value)) if moment else dt.date.fromisoformat(str(value))
    except ValueError:
        return ""
    return formatting.moment(when) if moment else formatting.day(when)


def _json(value):
    if value is None or isinstance(value, (bool, int, str, list, dict)):
        return value
    if isinstance(value, dt.datetime):
        return timezone.localtime(value).isoformat() if timezone.is_aware(value) else value.isoformat()
    if isinstance(value, dt.date):
        return value.isoformat()
    try:  # Decimal points
        return float(value)
    except (TypeError, ValueError):
        return str(value)


class _Names:
    """Readable names for ids met in history rows (entries by start number, players, users)."""

    def __init__(self, rows_by_model: dict[str, list]):
        entry_rows = rows_by_model.get("Entry", [])
        self.entry = {}
        player_ids = {r.player_id for r in entry_rows}
        players = {p.pk: p.full_name for p in Player.objects.filter(pk__in=player_ids).only("first_name", "last_name")}
        for r in entry_rows:  # the last known start number and name of each entry
            self.entry[r.id] = f"{r.start_no}. {players.get(r.player_id, '?')}"
        # starting numbers are re-sorted in bulk before round 1 (no history row): use the current ones
        current = Entry.objects.filter(pk__in=list(self.entry)).values_list("pk", "start_no", "player_id")
        for pk, start_no, player_id in current:
            self.entry[pk] = f"{start_no}. {players.get(player_id, '?')}"
        self.player = players
        self.round = {r.id: r.number for r in rows_by_model.get("Round", [])}
        self.match = {r.id: (self.round.get(r.round_id), r.board) for r in rows_by_model.get("Match", [])}
        user_ids = {r.history_user_id for rows in rows_by_model.values() for r in rows if r.history_user_id}
        user_ids |= {r.user_id for r in rows_by_model.get("TournamentRole", [])}
        self.user = {
            u.pk: (u.get_full_name() or u.username) for u in get_user_model().objects.filter(pk__in=user_ids)
        }
        self.category = {r.id: r.code for r in rows_by_model.get("Category", [])}  # the last known code
        self.team = {r.id: r.name for r in rows_by_model.get("Team", [])}  # the last known name
        club_ids = {r.club_id for r in rows_by_model.get("Category", []) if r.club_id}
        self.club = {}
        if club_ids:
            from federation.models import Club

            self.club = dict(Club.objects.filter(pk__in=club_ids).values_list("pk", "name"))
        stage_ids = {r.qualified_from_id for r in rows_by_model.get("Tournament", []) if r.qualified_from_id}
        self.stage = dict(Tournament.objects.filter(pk__in=stage_ids).values_list("pk", "name")) if stage_ids else {}

    def value(self, field: str, value):
        if value is None:
            return None
        if field in ("white_id", "black_id", "entry_id", "first_id", "second_id"):
            return self.entry.get(value, f"#{value}")
        if field == "player_id":
            return self.player.get(value, f"#{value}")
        if field == "user_id":
            return self.user.get(value, f"#{value}")
        if field == "category_id":
            return self.category.get(value, f"#{value}")
        if field == "team_id":
            return self.team.get(value, f"#{value}")
        if field == "club_id":
            return self.club.get(value, f"#{value}")
        if field == "qualified_from_id":
            return self.stage.get(value, f"#{value}")
        return _json(value)

    def label(self, model: str, row) -> tuple[str, int | None, int | None]:
        """``(label, round, board)`` of a history row."""
        if model == "Tournament":
            return _("Tournament"), None, None
        if model == "Round":
            return _("Round %(n)d") % {"n": row.number}, row.number, None
        if model == "Match":
            n = self.round.get(row.round_id)
            return _("Round %(n)s, board %(b)d") % {"n": n, "b": row.board}, n, row.board
        if model == "SetResult":
            n, b = self.match.get(row.match_id, (None, None))
            return _("Round %(n)s, board %(b)s") % {"n": n, "b": b}, n, b
        if model == "Entry":
            return _("Player %(p)s") % {"p": self.entry.get(row.id, row.id)}, None, None
        if model == "Absence":
            return _("Bye of %(p)s, round %(n)d") % {"p": self.entry.get(row.entry_id, row.entry_id),
                                                       "n": row.round_number}, row.round_number, None
        if model == "TournamentRole":
            return _("Role of %(u)s") % {"u": self.user.get(row.user_id, row.user_id)}, None, None
        if model == "ForbiddenPair":
            return _("Forbidden pair %(a)s – %(b)s") % {"a": self.entry.get(row.first_id, row.first_id),
                                                         "b": self.entry.get(row.second_id, row.second_id)}, None, None
        if model == "Category":
            return _("Category %(code)s") % {"code": row.code}, None, None
        if model == "Prize":
            where = self.category.get(row.category_id, row.category_id) if row.category_id else _("overall")
            return _("Prize %(list)s, place %(p)d") % {"list": where, "p": row.place}, None, None
        if model == "Team":
            return self.team.get(row.id, row.name), None, None
        if model == "TeamMember":
            return _("Player %(p)s") % {"p": self.entry.get(row.entry_id, row.entry_id)}, None, None
        return model, None, None


_MODELS = {"Tournament": Tournament, "TournamentRole": TournamentRole, "Entry": Entry, "Round": Round,
           "Match": Match, "SetResult": SetResult, "Absence": Absence, "ForbiddenPair": ForbiddenPair,
           "Category": Category, "Prize": Prize, "Team": Team, "TeamMember": TeamMember}


def _set_text(row) -> str:
    text = f"{row.white_stones}-{row.black_stones}"
    return text if row.termination == "completed" else f"{text} ({row.termination})"


def tournament_history(
    *, tournament: Tournament, round_number: int | None = None, board: int | None = None,
    limit: int = 200, offset: int = 0,
) -> list[HistoryItem]:
    """The history of ``tournament``, newest first: one :class:`HistoryItem` per action.

    ``round_number`` / ``board`` keep the actions that touched that round / that board of it.
    ``limit`` (≤ 1000) and ``offset`` page through the items.
    """
    rows_by_model: dict[str, list] = {}
    for name, model in _MODELS.items():
        rows_by_model[name] = list(
            model.history.filter(audit_tournament_id=tournament.pk).order_by("history_date", "history_id")
        )
    names = _Names(rows_by_model)
    groups: dict[str, list[tuple[str, object, object | None]]] = defaultdict(list)
    for name, rows in rows_by_model.items():
        last: dict[int, object] = {}
        for row in rows:
            groups[row.audit_action_id].append((name, row, last.get(row.id)))
            last[row.id] = row
    items = []
    for action_id, members in groups.items():
        item = _fold(members, names)
        if item is None:
            continue
        if round_number is not None and item.round != round_number and not _touches(members, names, round_number, board):
            continue
        if board is not None and (item.board != board or item.round != round_number):
            continue  # a board's history: the actions on that board alone (not whole-round pairings)
        items.append(item)
    items.sort(key=lambda i: i.at, reverse=True)
    limit = max(1, min(int(limit), 1000))
    return items[max(0, int(offset)):][:limit]


def _touches(members, names: _Names, round_number: int | None, board: int | None) -> bool:
    for model, row, _prev in members:
        _label, n, b = names.label(model, row)
        if round_number is not None and n != round_number:
            continue
        if board is not None and b != board:
            continue
        return True
    return False


def _fold(members: list, names: _Names) -> HistoryItem | None:
    """One item from the history rows of one action."""
    first = max(members, key=lambda m: m[1].history_date)[1]
    at = first.history_date
    user_id = next((r.history_user_id for _m, r, _p in members if r.history_user_id), None)
    reason = next((r.history_change_reason for _m, r, _p in members if r.history_change_reason), "") or ""
    action = first.audit_action or {"+": "create", "~": "edit", "-": "delete"}[first.history_type]
    before: dict[str, dict] = {}
    after: dict[str, dict] = {}
    places: dict[str, tuple[int | None, int | None, str]] = {}
    sets_before: dict[str, list] = defaultdict(list)
    sets_after: dict[str, list] = defaultdict(list)
    for model, row, prev in sorted(members, key=lambda m: m[1].history_id):
        label, n, b = names.label(model, row)
        places.setdefault(label, (n, b, model))
        if model == "SetResult":
            if row.history_type in ("-", "~") and prev is not None:
                sets_before[label].append((prev.number, _set_text(prev)))
            if row.history_type in ("+", "~"):
                sets_after[label].append((row.number, _set_text(row)))
            continue
        fields = _FIELDS[model]
        old = None if row.history_type == "+" or prev is None else {
            _OUT_KEY.get(f, f): names.value(f, getattr(prev, f)) for f in fields}
        new = None if row.history_type == "-" else {_OUT_KEY.get(f, f): names.value(f, getattr(row, f)) for f in fields}
        if row.history_type == "-" and prev is None:
            old = {_OUT_KEY.get(f, f): names.value(f, getattr(row, f)) for f in fields}
        if model == "Tournament" and old is None and new is not None:
            new = _without_unused_settings(new)  # a created Swiss lists no knockout, team or section setting
        fields = [_OUT_KEY.get(f, f) for f in fields]
        if old is not None and new is not None:
            changed = [f for f in fields if old[f] != new[f]]
            if not changed:
                continue
            old = {f: old[f] for f in changed}
            new = {f: new[f] for f in changed}
        if old is not None:
            before.setdefault(label, {}).update(old)
        if new is not None:
            after.setdefault(label, {}).update(new)
    for label in set(sets_before) | set(sets_after):
        before.setdefault(label, {})["sets"] = [t for _n, t in sorted(sets_before.get(label, []))]
        after.setdefault(label, {})["sets"] = [t for _n, t in sorted(sets_after.get(label, []))]
    labels = list(dict.fromkeys(list(before) + list(after)))
    if not labels:
        return None
    labels.sort(key=lambda lb: (_ORDER.index(places[lb][2]) if places[lb][2] in _ORDER else 0,
                                places[lb][0] or 0, places[lb][1] or 0))
    prefer = {"round": "Round", "entry": "Entry", "bye": "Absence", "tournament": "Tournament",
              "result": "Match", "pairing": "Match", "standings": "Tournament", "forbidden_pair": "ForbiddenPair",
              "category": "Category", "prize": "Prize", "team": "Team"}.get(action.split(".")[0])
    main = next((lb for lb in labels if places[lb][2] == prefer), None) or labels[0]
    n, b, _model = places[main]
    if len(labels) == 1:
        out_before, out_after = before.get(main), after.get(main)
    else:
        out_before = {lb: before[lb] for lb in labels if lb in before} or None
        out_after = {lb: after[lb] for lb in labels if lb in after} or None
        b = b if all(places[lb][1] == b for lb in labels) else None
    return HistoryItem(
        at=at, user=names.user.get(user_id) if user_id else None, action=action, object=main, reason=reason,
        before=out_before, after=out_after, round=n, board=b,
    )


#: Settings of one kind of tournament only (a knockout, a team event, an event's section): a tournament created
#: without them does not list them.
_KIND_SETTINGS = {"knockout_sets": [], "third_place_match": False, "level_match_rule": "deciders", "max_deciders": 0,
                  "qualified_from": None, "qualifiers": None, "format": "individual", "boards_per_team": 4,
                  "section_birth_year_min": None, "section_birth_year_max": None, "section_sex": ""}


def _without_unused_settings(values: dict) -> dict:
    """``values`` of a created tournament without the settings of another kind of tournament left at their
    defaults (:data:`_KIND_SETTINGS`); a knockout keeps its own."""
    knockout = any(values.get(k) != d for k, d in _KIND_SETTINGS.items() if k in ("knockout_sets", "third_place_match",
                                                                                  "level_match_rule", "max_deciders"))
    team = values.get("format") not in (None, "individual")
    keep = set()
    if knockout:
        keep |= {"knockout_sets", "third_place_match", "level_match_rule", "max_deciders", "qualified_from",
                 "qualifiers"}
    if team:
        keep |= {"format", "boards_per_team"}
    return {k: v for k, v in values.items() if k not in _KIND_SETTINGS or k in keep or v != _KIND_SETTINGS[k]}


def deleted_tournament(slug: str):
    """The last snapshot of a deleted tournament with ``slug`` (its history stays readable for staff),
    or None. The snapshot has ``pk``, ``name`` and ``slug`` like a tournament."""
    row = Tournament.history.filter(slug=slug, history_type="-").order_by("-history_date").first()
    if row is None or Tournament.objects.filter(pk=row.id).exists():
        return None
    row.pk = row.id
    return row
