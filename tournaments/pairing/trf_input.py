"""Build the input of a pairing system from a parsed TRF file (pure Python, no Django).

Sources: FIDE Handbook C.04 Annex 2 (TRF-16) and its 2026 revision (TRF-2026 tags ``142``
number of rounds, ``152`` initial colour, ``162`` point system, ``192`` pairing system, ``240``
byes assigned ahead, ``250`` accelerations, ``260`` forbidden pairs); the JaVaFo / bbpPairings
v6 extensions ``XXR`` (rounds), ``XXC`` (``white1``/``black1``), ``XXA`` (virtual points),
``XXP`` (forbidden pairs) and ``BBW BBD BBL BBZ BBF BBU`` (point system); C.04.2 B
(pre-assigned byes and absences are not paired); C.04.5.1 (Baku acceleration).

Main entry point: :func:`pairing_input_from_trf` returns a :class:`TrfPairingInput` holding
everything :func:`~tournaments.pairing.dutch.pair_dutch` needs (``.pair()`` calls it).
:func:`players_from_trf` and :func:`first_colour_from_trf` are the older, narrower helpers.

Where this module and bbpPairings v6 differ (on purpose):

* The round to pair is the first round with games to make (:func:`tournaments.trf.scoring.played_rounds`
  + 1): a pairing-allocated bye entered ahead (``0000 - U``) in that round is honoured (the
  player is not paired), where bbpPairings takes a ``U`` cell as "round paired" and pairs the
  next round.
* ``192 FIDE_DUTCH_2025_BAKU`` gives group A ``2 * ceil(n / 4)`` players (FIDE C.04.5.1, see
  :mod:`.acceleration`); bbpPairings gives it ``ceil(n / 2)``.
* ``XXC rank`` (pairing numbers from the order of the player lines) is refused.
* Conflicting values (``XXR`` v ``142``, ``XXC white1/black1`` v ``152``) are refused, where
  bbpPairings keeps the last one.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

from ..trf.extensions import unread_lines
from ..trf.model import TrfTournament
from ..trf.scoring import declared_type, played_rounds
from .acceleration import baku_accelerations
from .base import Pairing, PairingError, PairingPlayer, PointSystem, RoundRecord

__all__ = [
    "TrfInputError",
    "TrfPairingInput",
    "first_colour_from_trf",
    "forbidden_pairs_from_trf",
    "pairing_input_from_trf",
    "players_from_trf",
    "point_system_from_trf",
]

#: ``192`` texts paired by the Dutch system without acceleration / with the Baku acceleration
#: (the names bbpPairings v6 accepts for the Dutch system).
DUTCH_SYSTEMS = frozenset({"FIDE_DUTCH", "FIDE_DUTCH_2025"})
BAKU_SYSTEMS = frozenset({"FIDE_DUTCH_BAKU", "FIDE_DUTCH_2025_BAKU"})


class TrfInputError(PairingError):
    """A TRF line this module cannot honour; ``line`` is its 1-based number (``None`` when not
    about one line).  ``str()`` is ``"line N: reason"``."""

    def __init__(self, reason: str, *, line: int | None = None) -> None:
        self.reason = reason
        self.line = line
        super().__init__(f"line {line}: {reason}" if line else reason)


@dataclass(frozen=True, slots=True)
class TrfPairingInput:
    """Everything needed to pair the next round of a TRF file by the Dutch system.

    ``players``: every player (``available=False`` for those not to be paired), with
    ``accelerations`` filled in.  ``round_no``: the round to pair (1-based).  ``total_rounds``:
    planned rounds.  ``first_colour``: ``"w"``/``"b"``, colour of the top seed in round 1.
    ``forbidden_pairs``: pairs of starting numbers that may not meet in ``round_no``.
    ``point_system``: values of the results (:class:`~tournaments.pairing.base.PointSystem`).
    ``unavailable``: starting number -> why the player is not paired (``"0000 - U"`` cell, ``240``
    line, ...).  ``baku``: ``True`` when the virtual points come from ``192 ..._BAKU``.
    """

    players: list[PairingPlayer]
    round_no: int
    total_rounds: int
    first_colour: str
    forbidden_pairs: tuple[tuple[int, int], ...] = ()
    point_system: PointSystem = field(default_factory=PointSystem)
    unavailable: dict[int, str] = field(default_factory=dict)
    baku: bool = False

    def dutch_kwargs(self) -> dict:
        """Keyword arguments for :func:`~tournaments.pairing.dutch.pair_dutch`."""
        return {"round_no": self.round_no, "total_rounds": self.total_rounds,
                "first_colour": self.first_colour, "forbidden_pairs": self.forbidden_pairs,
                "point_system": self.point_system}

    def pair(self) -> list[Pairing]:
        """Pair ``round_no`` by the FIDE Dutch system; raises :class:`PairingError` when no legal
        pairing exists."""
        from .dutch import pair_dutch

        return pair_dutch(self.players, **self.dutch_kwargs())


def point_system_from_trf(t: TrfTournament) -> PointSystem:
    """The point system of ``t`` (``BBW``..``BBU`` / TRF-2026 ``162``; standard 1-½-0 for what the
    file does not give; ``U`` defaults to ``W`` as in bbpPairings v6)."""
    try:
        return PointSystem.from_mapping(t.point_system)
    except PairingError as e:
        line = next((t.line_of[k] for k in ("162", "BBW", "BBD", "BBL", "BBZ", "BBF", "BBU") if k in t.line_of),
                    None)
        raise TrfInputError(str(e), line=line) from None


def forbidden_pairs_from_trf(t: TrfTournament, round_no: int) -> list[tuple[int, int]]:
    """Pairs ``(a, b)`` (``a < b``, sorted, no repeats) of starting numbers that may not meet in
    round ``round_no``: every two players of each ``XXP`` group (all rounds) and of each ``260``
    group whose round range holds ``round_no`` (bbpPairings v6 ``resolveForbiddenPairs``)."""
    out: set[tuple[int, int]] = set()
    for f in t.forbidden:
        if round_no < f.first_round or (f.last_round is not None and round_no > f.last_round):
            continue
        group = sorted(set(f.players))
        for i, a in enumerate(group):
            for b in group[i + 1:]:
                out.add((a, b))
    return sorted(out)


def _has_tag(t: TrfTournament, *tags: str) -> bool:
    """True when a kept line has one of ``tags``."""
    return any(line[:3].upper() in tags for line in t.extra_lines)


def _xxc_line(t: TrfTournament) -> int | None:
    """Line number of the first ``XXC`` line (``tag_lines`` when the reader records it; else its
    position in ``layout``, which holds one entry per line in file order)."""
    if "XXC" in t.tag_lines:
        return t.tag_lines["XXC"]
    return next((i + 1 for i, (key, _) in enumerate(t.layout) if key == "XXC"), None)


def _total_rounds(t: TrfTournament) -> int | None:
    xxr, r142 = t.total_rounds, t.rounds_142
    if xxr is not None and r142 is not None and xxr != r142:
        raise TrfInputError(f"142 says {r142} rounds but XXR (line {t.tag_lines.get('XXR', '?')}) says {xxr}",
                            line=t.line_of.get("142"))
    return xxr if xxr is not None else r142


def players_from_trf(t: TrfTournament, round_no: int | None = None
                     ) -> tuple[list[PairingPlayer], int, int]:
    """Players of ``t`` as they stand before round ``round_no``.

    ``round_no`` defaults to the first round with games to make (:func:`tournaments.trf.scoring.played_rounds`
    + 1).  Cells of the round being paired that are byes or absences entered ahead (``0000 - U``,
    ``H``, ``F``, ``Z``, ``-``, ...) and TRF-2026 ``240`` lines for that round make the player
    unavailable.  ``points`` is the score before the round under the file's point system
    (:func:`point_system_from_trf`): the points of the cells of rounds ``< round_no`` when the
    points column agrees with them (with or without the later cells and the virtual points of the
    round, the tolerance of bbpPairings v6); otherwise the points column less the later cells.
    ``accelerations`` are those of ``XXA``/``250`` lines, or the Baku method for
    ``192 FIDE_DUTCH_2025_BAKU`` (see :func:`pairing_input_from_trf`).

    Returns ``(players, round_no, total_rounds)``; ``total_rounds`` is ``XXR`` (or TRF-2026 ``142``).
    Raises :class:`PairingError` when the number of rounds is unknown or the round cannot be
    paired (a cell of that round already names an opponent, or there are fewer rounds), and
    :class:`TrfInputError` for the extension values :func:`pairing_input_from_trf` refuses (lines
    no reader interprets are not checked here).  Prefer :func:`pairing_input_from_trf`, which
    also returns the forbidden pairs, the point system and the first colour.
    """
    inp = pairing_input_from_trf(t, round_no, check_unread=False)
    return inp.players, inp.round_no, inp.total_rounds


def pairing_input_from_trf(t: TrfTournament, round_no: int | None = None, *,
                           total_rounds: int | None = None, check_unread: bool = True) -> TrfPairingInput:
    """Read everything the Dutch system needs to pair round ``round_no`` of ``t``.

    ``round_no``: default the first round with games to make.  ``total_rounds`` overrides
    ``XXR``/``142`` (e.g. a command-line ``--rounds``).  With ``check_unread`` every line that
    :func:`tournaments.trf.extensions.unread_lines` lists is refused.

    Honoured: ``XXR``/``142`` (rounds), ``XXC white1``/``black1`` and ``152`` (first colour,
    else inferred like bbpPairings v6), ``BBx``/``162`` (point system), ``XXA``/``250`` (virtual
    points per round), ``192`` (``FIDE_DUTCH``, ``FIDE_DUTCH_2025``: plain Dutch; ``..._BAKU``:
    Baku acceleration, FIDE C.04.5.1, unless ``XXA``/``250`` lines give the virtual points),
    ``XXP``/``260`` (forbidden pairs active in ``round_no``), ``240`` and byes entered in the
    cells of ``round_no`` (players not paired).

    Raises :class:`TrfInputError` (a :class:`PairingError`) naming the line of anything it cannot
    honour: a ``092`` line declaring a round robin (or a team event), ``XXC rank`` or an unknown ``XXC`` token, another ``192`` system (Burstein, ...),
    ``XXR`` and ``142`` or ``XXC`` and ``152`` that disagree, virtual points for rounds beyond
    the last, the Baku method with a point system where a draw is not half a win or a loss
    scores, a ``240`` bye in a past round where the player has a game; and
    :class:`PairingError` when the rounds are unknown or the round cannot be paired.
    """
    if check_unread:
        bad = unread_lines(t)
        if bad:
            no, reason = bad[0]
            raise TrfInputError(f"cannot honour this line: {reason}", line=no)
    declared, double, team = declared_type(t.tournament_type)
    if declared == "round_robin" or team:
        what = "a team event" if team else "a double round robin" if double else "a round robin"
        how = ("team events are not paired here" if team else
               "a round robin is paired by its Berger table (python -m tournaments.pairing berger N), not by the "
               "Dutch system")
        raise TrfInputError(f"092 {t.tournament_type[:60]!r} says the event is {what}; {how}",
                            line=t.tag_lines.get("092"))
    for token in t.xxc:
        if token.lower() not in ("white1", "black1"):
            what = ("pairing numbers from the order of the player lines (XXC rank) are not supported"
                    if token.lower() == "rank" else f"XXC option {token!r} is not supported")
            raise TrfInputError(what, line=_xxc_line(t))
    system = t.pairing_system.strip().upper()
    baku = False
    if "192" in t.line_of or system:
        if system in BAKU_SYSTEMS:
            baku = True
        elif system not in DUTCH_SYSTEMS:
            raise TrfInputError(f"192: pairing system {t.pairing_system[:40]!r} is not supported "
                                "(FIDE_DUTCH, FIDE_DUTCH_2025 or FIDE_DUTCH_2025_BAKU)", line=t.line_of.get("192"))
    first_colour = first_colour_from_trf(t)
    ps = point_system_from_trf(t)

    played = played_rounds(t)
    if round_no is None:
        round_no = played + 1
    if round_no < 1:
        raise PairingError(f"round {round_no} does not exist")
    total = total_rounds if total_rounds is not None else _total_rounds(t)
    if total is None:
        raise PairingError("the number of rounds is not given (no XXR line; give it with --rounds N)")
    if total < round_no:
        raise PairingError(f"round {round_no} is to be paired but XXR says {total} rounds")

    # Virtual points: XXA / 250 lines, else the Baku method of 192.
    # bbpPairings v6: any XXA / 250 line (even one of 0.0) turns the default acceleration off
    manual = bool(t.accelerations) or _has_tag(t, "XXA", "250")
    accelerations: dict[int, tuple[float, ...]] = {n: tuple(v) for n, v in t.accelerations.items()}
    for n, values in accelerations.items():
        if any(values[total:]):
            last = max(i + 1 for i, v in enumerate(values) if v)
            raise TrfInputError(f"player {n} has virtual points for round {last} but the tournament "
                                f"has {total} rounds", line=t.line_of.get(f"XXA {n}"))
    if baku and not manual:
        if ps.loss != 0 or not math.isclose(2 * ps.draw, ps.win):
            raise TrfInputError("the Baku acceleration needs a point system where a loss scores 0 and a draw "
                                "half a win", line=t.line_of.get("192"))
        ids = sorted(p.start_no for p in t.players)
        accelerations = baku_accelerations(ids, total_rounds=total, win=ps.win, draw=ps.draw)

    byes_now = {b.start_no: b for b in t.byes if b.round == round_no}
    for b in t.byes:
        if b.round < round_no:
            tp = t.player(b.start_no)
            cell = tp.result(b.round) if tp is not None else None
            if cell is not None and cell.opponent is not None:
                raise TrfInputError(f"240 gives player {b.start_no} a bye in round {b.round}, but his round "
                                    f"{b.round} cell names opponent {cell.opponent}", line=b.line)

    players: list[PairingPlayer] = []
    unavailable: dict[int, str] = {}
    for tp in t.players:
        cells = {r.round: r for r in tp.results}
        history: list[RoundRecord] = []
        for rnd in range(1, round_no):
            c = cells.get(rnd)
            history.append(RoundRecord(None, None, "") if c is None else RoundRecord(c.opponent, c.colour, c.code))
        later = [r for r in tp.results if r.round >= round_no]
        available = True
        for r in later:
            if r.round == round_no and not r.is_blank:
                if r.opponent is not None:
                    raise PairingError(f"player {tp.start_no} is already paired in round {round_no}")
                available = False
                unavailable[tp.start_no] = f"round {round_no} cell {(r.raw or r.code).strip()!r}"
        if tp.start_no in byes_now:
            b = byes_now[tp.start_no]
            available = False
            unavailable.setdefault(tp.start_no, f"240 {b.kind} (line {b.line})")
        acc = accelerations.get(tp.start_no, ())
        computed = sum(ps.points(rec) for rec in history)
        later_points = sum(ps.points(RoundRecord(r.opponent, r.colour, r.code)) for r in later)
        if tp.points is None:
            points = computed
        else:
            vp = acc[round_no - 1] if round_no - 1 < len(acc) else 0.0
            candidates = (tp.points - later_points, tp.points, tp.points - later_points - vp, tp.points - vp)
            if any(math.isclose(c, computed, abs_tol=1e-6) for c in candidates):
                points = computed
            else:
                points = tp.points - later_points  # e.g. blank result codes the column resolves
        players.append(PairingPlayer(id=tp.start_no, rating=tp.rating or 0, points=round(points, 6),
                                     history=tuple(history), available=available, accelerations=tuple(acc)))
    return TrfPairingInput(players=players, round_no=round_no, total_rounds=total, first_colour=first_colour,
                           forbidden_pairs=tuple(forbidden_pairs_from_trf(t, round_no)), point_system=ps,
                           unavailable=unavailable, baku=baku and not manual)


def first_colour_from_trf(t: TrfTournament) -> str:
    """Colour of the top seed in round 1 (``"w"``/``"b"``).

    ``XXC white1``/``black1`` or TRF-2026 ``152 W``/``152 B`` when given (a conflict between
    them raises :class:`TrfInputError`); otherwise inferred like bbpPairings v6 from the earliest
    round with a coloured game: the colour of the first player (by pairing id) who took part in
    the pairing by then, flipped when that player's position among such players is odd.  ``"w"``
    when nothing is known (C.04.3 E.5: the initial colour is drawn by lot before round 1).
    """
    toks = {x.lower() for x in t.xxc}
    xxc = "w" if "white1" in toks else "b" if "black1" in toks else None
    if "white1" in toks and "black1" in toks:
        raise TrfInputError("XXC gives both white1 and black1", line=_xxc_line(t))
    if xxc is not None and t.initial_colour is not None and xxc != t.initial_colour:
        raise TrfInputError(f"152 says the top seed had {'white' if t.initial_colour == 'w' else 'black'} in "
                            f"round 1 but XXC (line {_xxc_line(t) or '?'}) says {'white1' if xxc == 'w' else 'black1'}",
                            line=t.line_of.get("152"))
    if xxc is not None:
        return xxc
    if t.initial_colour is not None:
        return t.initial_colour
    first = None
    for tp in t.players:
        for r in tp.results:
            if r.colour in ("w", "b") and (first is None or r.round < first):
                first = r.round
    if first is None:
        return "w"
    pos = 0
    for tp in sorted(t.players, key=lambda p: p.start_no):
        took_part = any(r.round <= first and (r.opponent is not None or r.code in ("U", "+"))
                        for r in tp.results)
        if not took_part:
            continue
        cell = next((r for r in tp.results if r.round == first), None)
        if cell is not None and cell.colour in ("w", "b"):
            c = cell.colour
            if pos & 1:
                c = "b" if c == "w" else "w"
            return c
        pos += 1
    return "w"
