"""Load an event once into flat per-player, per-round arrays (validated), then compute from them.

:func:`build_event` is the only place that reads :class:`PlayerRecord` objects; every tie-break
works on the :class:`Event` it returns. Player *indexes* (0..len-1, input order) are used
internally; ``Event.ids[i]`` maps back to the player id.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from tournaments.standings.base import PlayerRecord, RoundKind, StandingsError

#: Points a kind must carry (C.07 Art. 16.2 categories; PAB is set by the organiser: any value).
_FIXED_POINTS: dict[RoundKind, float] = {
    RoundKind.FORFEIT_WIN: 1.0,
    RoundKind.FORFEIT_LOSS: 0.0,
    RoundKind.FULL_BYE: 1.0,
    RoundKind.HALF_BYE: 0.5,
    RoundKind.ZERO_BYE: 0.0,
    RoundKind.ABSENT: 0.0,
}
_VALID_POINTS = (0.0, 0.5, 1.0)
WIN_POINTS = 1.0
DRAW_POINTS = 0.5

NO_OPPONENT = -1


@dataclass(slots=True)
class Event:
    """Validated results of an individual event after ``rounds`` rounds.

    All per-round lists have length ``rounds``; index ``r - 1`` is round ``r``.

    * ``kind[i][r]`` — :class:`RoundKind` (a missing entry is ABSENT);
    * ``points[i][r]`` — match points; ``opponent[i][r]`` — opponent *index* or ``-1``;
    * ``colour[i][r]`` — ``"w"``, ``"b"`` or ``None``;
    * ``set_points[i][r]`` / ``stone_margin[i][r]`` — Mangala set detail or ``None``;
    * ``score[i]`` — total match points;
    * ``adjusted[i]`` — the score *as an opponent* for Buchholz-type tie-breaks (C.07 Art. 16.3):
      requested byes (HALF_BYE, ZERO_BYE, ABSENT) followed only by VURs, or in the last round
      (category 16.2.5), count as draws (½); every other round counts the points scored.
      With pre-determined pairings (``round_robin``) Art. 16 does not apply: ``adjusted == score``.
    * ``round_robin`` — pre-determined pairings (round robin): unplayed games count as played
      against the scheduled opponent, byes contribute nothing to opponent-based tie-breaks;
    * ``rules`` — ``"2023"`` (C.07 text in force from 2023: the dummy opponent of an unplayed round
      has the participant's own score) or ``"2026"`` (amendment applied from 1 March 2026,
      Art. 16.4.1/16.4.2: that score is capped by the scheduled opponent's adjusted score for a
      forfeit, and by draw points × rounds for any other unplayed round).
    """

    ids: list[int]
    names: list[str]
    ratings: list[int]
    rounds: int
    kind: list[list[RoundKind]]
    points: list[list[float]]
    opponent: list[list[int]]
    colour: list[list[str | None]]
    set_points: list[list[float | None]]
    stone_margin: list[list[int | None]]
    score: list[float] = field(default_factory=list)
    adjusted: list[float] = field(default_factory=list)
    round_robin: bool = False
    rules: str = "2023"
    #: Memo for values shared by several tie-breaks (e.g. Buchholz contributions); keyed by name.
    cache: dict[str, object] = field(default_factory=dict)

    def __len__(self) -> int:
        return len(self.ids)


def _fmt(x: float) -> str:
    return f"{x:g}"


RULES = ("2023", "2026")


def build_event(
    players: Sequence[PlayerRecord],
    rounds: int | None = None,
    *,
    round_robin: bool = False,
    rules: str = "2023",
) -> Event:
    """Validate ``players`` and lay their results out as an :class:`Event`.

    ``rounds``: standings after this many rounds (entries of later rounds are ignored);
    ``None`` means the highest round number present in the input (0 when there is none).
    ``round_robin`` and ``rules``: see :class:`Event`.

    Raises :class:`StandingsError` for: duplicate player ids, a round number < 1 or twice for one
    player, points not in {0, ½, 1} or not fitting the kind, a paired entry without an opponent
    or with one that does not exist / is the player, a bye with an opponent, a colour other than
    "w"/"b", and asymmetric pairings (the opponent's entry for that round does not name the player
    back, has an incompatible kind, points that do not add up, the same colour, or stone margins
    that are not opposite).
    """
    if rounds is not None and (isinstance(rounds, bool) or not isinstance(rounds, int) or rounds < 0):
        raise StandingsError(f"rounds must be a non-negative integer or None, got {rounds!r}")
    if rules not in RULES:
        raise StandingsError(f"unknown rules {rules!r}; valid: {', '.join(map(repr, RULES))}")
    index: dict[int, int] = {}
    for i, p in enumerate(players):
        if p.id in index:
            raise StandingsError(f"player id {p.id} appears twice")
        index[p.id] = i

    # First pass: per-entry checks, find the number of rounds.
    max_round = 0
    for p in players:
        seen: set[int] = set()
        for e in p.rounds:
            r = e.round
            if isinstance(r, bool) or not isinstance(r, int) or r < 1:
                raise StandingsError(f"player {p.id}: round number must be an integer >= 1, got {r!r}")
            if r in seen:
                raise StandingsError(f"player {p.id}, round {r}: two entries for the same round")
            seen.add(r)
            if not isinstance(e.kind, RoundKind):
                raise StandingsError(f"player {p.id}, round {r}: kind must be a RoundKind, got {e.kind!r}")
            if e.points not in _VALID_POINTS:
                raise StandingsError(
                    f"player {p.id}, round {r}: points must be 0, 0.5 or 1, got {e.points!r}"
                )
            fixed = _FIXED_POINTS.get(e.kind)
            if fixed is not None and e.points != fixed:
                raise StandingsError(
                    f"player {p.id}, round {r}: a {e.kind.name} scores {_fmt(fixed)}, got {_fmt(e.points)}"
                )
            if e.kind.paired:
                if e.opponent is None:
                    raise StandingsError(f"player {p.id}, round {r}: {e.kind.name} needs an opponent id")
                if e.opponent not in index:
                    raise StandingsError(
                        f"player {p.id}, round {r}: opponent id {e.opponent} does not exist"
                    )
                if e.opponent == p.id:
                    raise StandingsError(f"player {p.id}, round {r}: paired with themself")
            elif e.opponent is not None:
                raise StandingsError(
                    f"player {p.id}, round {r}: a {e.kind.name} has no opponent, got {e.opponent}"
                )
            if e.colour not in (None, "w", "b"):
                raise StandingsError(
                    f"player {p.id}, round {r}: colour must be 'w', 'b' or None, got {e.colour!r}"
                )
            if e.set_points is not None and (e.set_points < 0 or (e.set_points * 2) % 1 != 0):
                raise StandingsError(
                    f"player {p.id}, round {r}: set points must be a non-negative multiple of 0.5, "
                    f"got {e.set_points!r}"
                )
            if e.stone_margin is not None and (
                isinstance(e.stone_margin, bool) or not isinstance(e.stone_margin, int)
            ):
                raise StandingsError(
                    f"player {p.id}, round {r}: stone margin must be an integer, got {e.stone_margin!r}"
                )
            max_round = max(max_round, r)

    n = max_round if rounds is None else rounds
    count = len(players)
    kind = [[RoundKind.ABSENT] * n for _ in range(count)]
    points = [[0.0] * n for _ in range(count)]
    opponent = [[NO_OPPONENT] * n for _ in range(count)]
    colour: list[list[str | None]] = [[None] * n for _ in range(count)]
    set_points: list[list[float | None]] = [[None] * n for _ in range(count)]
    stone_margin: list[list[int | None]] = [[None] * n for _ in range(count)]
    for i, p in enumerate(players):
        for e in p.rounds:
            r = e.round - 1
            if r >= n:
                continue
            kind[i][r] = e.kind
            points[i][r] = float(e.points)
            if e.opponent is not None:
                opponent[i][r] = index[e.opponent]
            colour[i][r] = e.colour
            set_points[i][r] = e.set_points
            stone_margin[i][r] = e.stone_margin

    ids = [p.id for p in players]
    _check_symmetry(ids, kind, points, opponent, colour, set_points, stone_margin, n)

    event = Event(
        ids=ids,
        names=[p.name for p in players],
        ratings=[p.rating for p in players],
        rounds=n,
        kind=kind,
        points=points,
        opponent=opponent,
        colour=colour,
        set_points=set_points,
        stone_margin=stone_margin,
        round_robin=bool(round_robin),
        rules=rules,
    )
    event.score = [sum(row) for row in points]
    if round_robin:
        event.adjusted = list(event.score)
    else:
        event.adjusted = [_adjusted_score(kind[i], points[i]) for i in range(count)]
    return event


_COMPATIBLE = {
    RoundKind.PLAYED: (RoundKind.PLAYED,),
    RoundKind.FORFEIT_WIN: (RoundKind.FORFEIT_LOSS,),
    RoundKind.FORFEIT_LOSS: (RoundKind.FORFEIT_WIN, RoundKind.FORFEIT_LOSS),
}


def _check_symmetry(ids, kind, points, opponent, colour, set_points, stone_margin, n) -> None:
    for i in range(len(ids)):
        for r in range(n):
            j = opponent[i][r]
            if j == NO_OPPONENT:
                continue
            where = f"player {ids[i]}, round {r + 1}"
            if opponent[j][r] != i:
                back = opponent[j][r]
                named = "no opponent" if back == NO_OPPONENT else f"opponent {ids[back]}"
                raise StandingsError(
                    f"{where}: asymmetric pairing: paired with {ids[j]}, "
                    f"whose round {r + 1} entry has {named}"
                )
            ki, kj = kind[i][r], kind[j][r]
            if kj not in _COMPATIBLE[ki]:
                raise StandingsError(
                    f"{where}: asymmetric pairing: {ki.name} against {ids[j]}'s {kj.name}"
                )
            if ki is RoundKind.PLAYED:
                if points[i][r] + points[j][r] != 1.0:
                    raise StandingsError(
                        f"{where}: match points against {ids[j]} add up to "
                        f"{_fmt(points[i][r] + points[j][r])}, not 1"
                    )
                si, sj = set_points[i][r], set_points[j][r]
                if si is not None and sj is not None:
                    expected = 1.0 if si > sj else 0.5 if si == sj else 0.0
                    if expected != points[i][r]:
                        raise StandingsError(
                            f"{where}: set points {_fmt(si)}-{_fmt(sj)} against {ids[j]} do not give "
                            f"{_fmt(points[i][r])} match points"
                        )
                mi, mj = stone_margin[i][r], stone_margin[j][r]
                if mi is not None and mj is not None and mi != -mj:
                    raise StandingsError(
                        f"{where}: stone margins {mi} and {mj} against {ids[j]} are not opposite"
                    )
            ci, cj = colour[i][r], colour[j][r]
            if ci is not None and ci == cj:
                raise StandingsError(f"{where}: both {ids[i]} and {ids[j]} have colour {ci!r}")


def _adjusted_score(kinds: list[RoundKind], pts: list[float]) -> float:
    """Score of a participant as seen by its opponents' Buchholz/Sonneborn-Berger (C.07 Art. 16.3).

    Category 16.2.5 rounds — requested byes (HALF_BYE, ZERO_BYE, ABSENT) not followed by any
    round that is not a VUR, i.e. after the last round in which the participant played, was
    paired, or got a PAB/full-point bye — are evaluated as draws (½). Categories 16.2.1–16.2.4
    (byes with points, forfeit wins, requested byes followed by a non-VUR round, forfeit losses)
    are evaluated with the points actually scored."""
    last_active = -1
    for r in range(len(kinds) - 1, -1, -1):
        if not kinds[r].voluntarily_unplayed:
            last_active = r
            break
    total = 0.0
    for r, (k, p) in enumerate(zip(kinds, pts)):
        if r > last_active and k.requested_bye:
            total += DRAW_POINTS
        else:
            total += p
    return total
