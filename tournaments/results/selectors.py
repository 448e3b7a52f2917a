"""Reads for result entry and the live pages: the referee's boards of the rounds in play, and the live
round's boards as the live page, the hall screen and ``live.json`` show them."""
from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from django.db.models import QuerySet
from django.utils.translation import gettext as _

from tournaments.models import Match, Round, SetResult, Tournament


# --------------------------------------------------------------------------------------------
# The referee's phone and the live round pages
# --------------------------------------------------------------------------------------------


def refereed_tournaments(*, user) -> QuerySet[Tournament]:
    """Tournaments in play (not finished, not archived) whose results ``user`` may enter
    (:func:`tournaments.access.can_enter_results`): every one for staff and the global organiser and
    referee groups; otherwise those with a per-tournament role (referee or organiser) or created by
    ``user``. Newest first."""
    from django.db.models import Q

    from federation import roles

    if not getattr(user, "is_authenticated", False):
        return Tournament.objects.none()
    qs = Tournament.objects.filter(archived_at__isnull=True).exclude(status=Tournament.Status.FINISHED)
    if not (roles.is_staff(user) or user.groups.filter(name__in=[roles.ORGANISER, roles.REFEREE]).exists()):
        qs = qs.filter(Q(roles__user=user) | Q(created_by=user)).distinct()
    return qs.order_by("-start_date", "-id")


@dataclass(frozen=True, slots=True)
class RefereeBoard:
    """One board of a round in play as the referee's home lists it. ``state``: ``missing`` (no
    result), ``open`` (sets saved, match not finished), ``done`` (result entered) or ``bye``."""

    match: Match
    state: str

    @property
    def board(self) -> int:
        return self.match.board


@dataclass(frozen=True, slots=True)
class RefereeRound:
    """A tournament with its current round (the last one paired; ``None`` before round 1):
    ``open`` when results can be entered (published), its boards and how many results are missing."""

    tournament: Tournament
    round: Round | None
    boards: tuple[RefereeBoard, ...]

    @property
    def open(self) -> bool:
        return self.round is not None and self.round.status == Round.Status.PUBLISHED

    @property
    def games(self) -> int:
        return sum(1 for b in self.boards if b.state != "bye")

    @property
    def missing(self) -> int:
        return sum(1 for b in self.boards if b.state in ("missing", "open"))

    @property
    def entered(self) -> int:
        return self.games - self.missing


def _board_state(m: Match) -> str:
    if m.kind == Match.Kind.BYE:
        return "bye"
    if m.result_entered_at is None:
        return "missing"
    return "open" if m.white_points is None else "done"


def referee_rounds(*, user) -> list[RefereeRound]:
    """The current round (the last one paired) of each tournament ``user`` referees
    (:func:`refereed_tournaments`) with the boards of the published ones; a fixed number of queries
    (tournaments, their rounds, the boards) however many tournaments and boards."""
    tournaments = list(refereed_tournaments(user=user))
    if not tournaments:
        return []
    rounds: dict[int, Round] = {}
    for r in Round.objects.filter(tournament__in=tournaments).only("id", "tournament_id", "number", "status"):
        if r.tournament_id not in rounds or r.number > rounds[r.tournament_id].number:
            rounds[r.tournament_id] = r
    published = [r.id for r in rounds.values() if r.status == Round.Status.PUBLISHED]
    by_round: dict[int, list[RefereeBoard]] = defaultdict(list)
    if published:
        for m in (
            Match.objects.filter(round_id__in=published).select_related("white__player", "black__player")
            .order_by("round_id", "board")
        ):
            by_round[m.round_id].append(RefereeBoard(m, _board_state(m)))
    out = []
    for t in tournaments:
        r = rounds.get(t.id)
        out.append(RefereeRound(t, r, tuple(by_round.get(r.id, ())) if r else ()))
    out.sort(key=lambda x: not x.open)  # rounds being played first
    return out


def live_round(*, tournament: Tournament, number: int | None = None) -> Round | None:
    """The round the live pages show — what the public sees, whoever asks: round ``number`` if it is
    published or closed, otherwise (``number`` None) the last published or closed round; ``None``
    when there is none (the publish gate: :mod:`tournaments.publication`)."""
    qs = tournament.rounds.filter(status__in=[Round.Status.PUBLISHED, Round.Status.CLOSED])
    if number is not None:
        return qs.filter(number=number).first()
    return qs.order_by("-number").first()


def _points_text(p) -> str:
    from django.template.defaultfilters import floatformat

    return "" if p is None else floatformat(p, "-1")


def live_board(m: Match) -> dict:
    """A board as the live pages and their JSON show it (texts already in the user's language), from a
    match with its players and sets loaded — the reference that :func:`live_boards` (plain values, what
    the pages use) is tested against."""
    sets = [
        {"number": s.number, "starter": s.starter, "white_stones": s.white_stones, "black_stones": s.black_stones}
        for s in m.sets.all()
    ]
    state = _board_state(m)
    if m.kind == Match.Kind.BYE:
        result = _points_text(m.white_points)
        note = m.get_bye_kind_display()
    else:
        result = (
            f"{_points_text(m.white_points)} – {_points_text(m.black_points)}" if m.white_points is not None else ""
        )
        note = _("forfeit") if m.forfeit else ""
    return {
        "board": m.board,
        "kind": m.kind,
        "state": state,
        "white": {"start_no": m.white.start_no, "name": m.white.player.full_name},
        "black": {"start_no": m.black.start_no, "name": m.black.player.full_name} if m.black_id else None,
        "white_points": None if m.white_points is None else float(m.white_points),
        "black_points": None if m.black_points is None else float(m.black_points),
        "result": result,
        "note": note,
        "forfeit": m.forfeit,
        "sets": sets,
        "sets_text": ", ".join(f"{s['white_stones']}–{s['black_stones']}" for s in sets),
    }


def _live_board_values(row: dict, sets: list[dict]) -> dict:
    """:func:`live_board` from a ``values()`` row of the match (``white__…``/``black__…`` names) and its
    sets in order: the same dict, without building model instances (the live round is rebuilt for a
    whole hall: :func:`live_data`)."""
    kind = row["kind"]
    white_points, black_points = row["white_points"], row["black_points"]
    if kind == Match.Kind.BYE:
        state = "bye"
        result = _points_text(white_points)
        note = Match.ByeKind(row["bye_kind"]).label if row["bye_kind"] else ""
    else:
        state = "missing" if row["result_entered_at"] is None else ("open" if white_points is None else "done")
        result = f"{_points_text(white_points)} – {_points_text(black_points)}" if white_points is not None else ""
        note = _("forfeit") if row["forfeit"] else ""

    def name(last: str, first: str) -> str:
        return f"{last}, {first}" if first else last  # Player.full_name

    return {
        "board": row["board"],
        "kind": kind,
        "state": state,
        "white": {"start_no": row["white__start_no"],
                  "name": name(row["white__player__last_name"], row["white__player__first_name"])},
        "black": {"start_no": row["black__start_no"],
                  "name": name(row["black__player__last_name"], row["black__player__first_name"])}
        if row["black_id"] else None,
        "white_points": None if white_points is None else float(white_points),
        "black_points": None if black_points is None else float(black_points),
        "result": result,
        "note": str(note),
        "forfeit": row["forfeit"],
        "sets": sets,
        "sets_text": ", ".join(f"{s['white_stones']}–{s['black_stones']}" for s in sets),
    }


def live_boards(*, round: Round) -> list[dict]:
    """The boards of ``round`` as :func:`live_board` shows them, in board order: two queries (boards with
    players, sets), plain values, however many boards."""
    rows = list(
        round.matches.order_by("board").values(
            "id", "board", "kind", "bye_kind", "forfeit", "result_entered_at", "white_points", "black_points",
            "black_id", "white__start_no", "white__player__last_name", "white__player__first_name",
            "black__start_no", "black__player__last_name", "black__player__first_name",
        )
    )
    sets: dict[int, list[dict]] = defaultdict(list)
    for s in (SetResult.objects.filter(match__round=round).order_by("match_id", "number")
              .values("match_id", "number", "starter", "white_stones", "black_stones")):
        sets[s.pop("match_id")].append(s)
    return [_live_board_values(row, sets.get(row["id"], [])) for row in rows]


def live_data(*, tournament: Tournament, round: Round | None) -> dict:
    """What the live round page and its JSON show: the round (number, status), its boards with results
    and sets as entered, how many results are in, and ``key`` — a digest of the round and its pairing
    that changes when another round is published or a pairing is changed (the page then reloads).
    Two queries for the boards (players, sets), however many boards."""
    import hashlib

    boards = live_boards(round=round) if round is not None else []
    games = [b for b in boards if b["kind"] == Match.Kind.GAME]
    done = sum(1 for b in games if b["state"] == "done")
    pairing = ";".join(
        f"{b['board']}:{b['white']['start_no']}:{b['black']['start_no'] if b['black'] else '-'}" for b in boards
    )
    signature = f"{round.number}|{round.status}|{pairing}" if round is not None else "-"
    return {
        "tournament": {"slug": tournament.slug, "name": tournament.name},
        "round": None if round is None else {
            "number": round.number, "status": round.status, "status_label": round.get_status_display(),
        },
        "boards": boards,
        "games": len(games),
        "done": done,
        "progress": _("%(done)d of %(n)d results in") % {"done": done, "n": len(games)},
        "key": hashlib.sha1(signature.encode()).hexdigest()[:16],
    }
