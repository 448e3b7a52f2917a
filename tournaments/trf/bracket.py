"""A knockout in a TRF file: the program's own extension lines ``XXK`` (the section's settings) and ``XXM`` (one
per board of a closed round: its place in the bracket, the match for third place, how it was decided and its
sets), so that a knockout's export re-imports as the same knockout (issue 25). TRF-16 has no place for them;
other programs ignore ``XX?`` lines they do not know, as they do the JaVaFo ones (``XXA``, ``XXP``).

Layout (tokens separated by blanks)::

    XXK sets=3,3,5 third=1 level=deciders_then_seed deciders=2 spm=3
    XXM RRR BBBB WWWW KKKK [third=1] [by=sets|deciders|seed|forfeit] [ds=white|black] [bye=pab|half|full|zero]
        [sets=W30-18,B18-30,W9-39w9-31]

``XXM``: round, board, the starting numbers of white and black (``0`` for a bye); a set is its starter
(``W``/``B``), the recorded stones of white and black, and for a set a player withdrew from ``w``/``b`` (who
withdrew) with the stones the stores held. Pure Python, no Django imports.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from .model import TrfError, TrfTournament, _m, gettext_noop

__all__ = ["TrfKnockoutMatch", "TrfSet", "knockout_lines", "read_knockout_line"]

#: The values :func:`read_knockout_line` accepts (the model's choices; checked again by the import).
_LEVEL_RULES = ("deciders", "higher_seed", "deciders_then_seed")
_DECIDED_BY = ("sets", "deciders", "seed", "forfeit")
_BYE_KINDS = ("pab", "half", "full", "zero")
_SET = re.compile(r"([WB])([0-9]{1,2})-([0-9]{1,2})(?:([wb])([0-9]{0,2})-([0-9]{0,2}))?")


@dataclass(frozen=True, slots=True)
class TrfSet:
    """One set of a knockout match: ``starter`` ``"white"``/``"black"``, the recorded stones, and for a set a
    player withdrew from ``termination`` (``white_withdrew``/``black_withdrew``) with the stores' stones."""

    starter: str
    white: int
    black: int
    termination: str = "completed"
    white_store: int | None = None
    black_store: int | None = None

    def token(self) -> str:
        text = f"{self.starter[0].upper()}{self.white}-{self.black}"
        if self.termination != "completed":
            store = lambda v: "" if v is None else str(v)  # noqa: E731
            text += f"{self.termination[0]}{store(self.white_store)}-{store(self.black_store)}"
        return text


@dataclass(frozen=True, slots=True)
class TrfKnockoutMatch:
    """One board of a knockout round (``XXM``): ``black`` None for a bye (``bye_kind``)."""

    round: int
    board: int
    white: int
    black: int | None
    third_place: bool = False
    decided_by: str = ""
    decider_starter: str = ""
    bye_kind: str = ""
    sets: tuple[TrfSet, ...] = ()
    line: int = field(default=0, compare=False)


def knockout_lines(settings: dict, matches: list[TrfKnockoutMatch]) -> list[str]:
    """``XXK`` for ``settings`` (``sets`` list, ``third`` bool, ``level`` rule, ``deciders``, ``spm``) and an
    ``XXM`` line per match, in round and board order."""
    out = [
        f"XXK sets={','.join(str(n) for n in settings.get('sets') or [])} third={int(bool(settings.get('third')))} "
        f"level={settings.get('level') or 'deciders'} deciders={int(settings.get('deciders') or 0)} "
        f"spm={int(settings.get('spm') or 3)}"
    ]
    for m in sorted(matches, key=lambda m: (m.round, m.board)):
        parts = [f"XXM {m.round:>3} {m.board:>4} {m.white:>4} {m.black or 0:>4}"]
        if m.third_place:
            parts.append("third=1")
        if m.decided_by:
            parts.append(f"by={m.decided_by}")
        if m.decider_starter:
            parts.append(f"ds={m.decider_starter}")
        if m.bye_kind:
            parts.append(f"bye={m.bye_kind}")
        if m.sets:
            parts.append("sets=" + ",".join(s.token() for s in m.sets))
        out.append(" ".join(parts))
    return out


def _whole(text: str, what: str, no: int) -> int:
    if not (text.isascii() and text.isdigit()) or len(text) > 4:
        raise TrfError(_m(gettext_noop("%(what)s %(value)r is not a whole number"), what=what, value=text[:20]),
                       line=no)
    return int(text)


def _bad(tag: str, token: str, no: int) -> TrfError:
    return TrfError(_m(gettext_noop("%(tag)s: %(token)r is not a setting this program writes"), tag=tag,
                       token=token[:30]), line=no)


def read_knockout_line(t: TrfTournament, tag: str, line: str, no: int, player_ok) -> None:
    """Read one ``XXK``/``XXM`` line into ``t.knockout`` / ``t.knockout_matches`` (called by
    :func:`tournaments.trf.extensions.read_extensions`; ``player_ok(n, no, tag)`` checks a starting number).
    Raises :class:`TrfError` naming the line for a value this program does not write."""
    tokens = line[3:].split()
    if tag == "XXK":
        if t.knockout is not None:
            raise TrfError(_m(gettext_noop("a second %(tag)s line (the first one is read)"), tag="XXK"), line=no)
        out = {"sets": [], "third": False, "level": "deciders", "deciders": 0, "spm": 3}
        for token in tokens:
            key, sep, value = token.partition("=")
            if not sep or key not in out:
                raise _bad("XXK", token, no)
            if key == "sets":
                out["sets"] = [_whole(v, "XXK: sets", no) for v in value.split(",") if v]
            elif key == "third":
                out["third"] = _whole(value, "XXK: third", no) == 1
            elif key == "level":
                if value not in _LEVEL_RULES:
                    raise _bad("XXK", token, no)
                out["level"] = value
            else:
                out[key] = _whole(value, f"XXK: {key}", no)
        t.knockout = out
        t.line_of["XXK"] = no
        return
    if len(tokens) < 4:
        raise TrfError(_m(gettext_noop("XXM: expected the round, the board and the starting numbers of white and "
                                       "black")), line=no)
    rnd, board = _whole(tokens[0], "XXM: round", no), _whole(tokens[1], "XXM: board", no)
    white = player_ok(_whole(tokens[2], "XXM: starting number", no), no, "XXM")
    black_no = _whole(tokens[3], "XXM: starting number", no)
    black = player_ok(black_no, no, "XXM") if black_no else None
    if rnd < 1 or board < 1:
        raise _bad("XXM", f"{tokens[0]} {tokens[1]}", no)
    fields = {"third": False, "by": "", "ds": "", "bye": "", "sets": ()}
    for token in tokens[4:]:
        key, sep, value = token.partition("=")
        if not sep or key not in fields:
            raise _bad("XXM", token, no)
        if key == "third":
            fields["third"] = _whole(value, "XXM: third", no) == 1
        elif key == "by" and value in _DECIDED_BY or key == "ds" and value in ("white", "black") or (
                key == "bye" and value in _BYE_KINDS):
            fields[key] = value
        elif key == "sets":
            sets = []
            for text in value.split(","):
                found = _SET.fullmatch(text)
                if found is None:
                    raise _bad("XXM", text, no)
                s, w, b, who, ws, bs = found.groups()
                sets.append(TrfSet(
                    starter="white" if s == "W" else "black", white=int(w), black=int(b),
                    termination={"w": "white_withdrew", "b": "black_withdrew"}.get(who or "", "completed"),
                    white_store=int(ws) if ws else None, black_store=int(bs) if bs else None,
                ))
            fields["sets"] = tuple(sets)
        else:
            raise _bad("XXM", token, no)
    t.knockout_matches.append(TrfKnockoutMatch(
        round=rnd, board=board, white=white, black=black, third_place=fields["third"], decided_by=fields["by"],
        decider_starter=fields["ds"], bye_kind=fields["bye"], sets=fields["sets"], line=no,
    ))
