"""Command line: ``python -m tournaments.pairing dutch FILE...`` / ``berger N [--double [--plain]]``.

``dutch`` reads TRF-16 / TRF-2026 files (with the extensions listed in
:func:`tournaments.pairing.trf_input.pairing_input_from_trf`: ``XXR``/``142``, ``XXC``/``152``,
``XXA``/``250``, ``XXP``/``260``, ``BBx``/``162``, ``192``, ``240``) and prints the first round
with games to make in the bbpPairings output format: the number of boards, then ``white black``
per board by pairing id, ``X 0`` for the pairing-allocated bye.  With several files each block is
preceded by ``# FILE``.  A line no reader interprets (:func:`tournaments.trf.extensions.unread_lines`), an
extension value that cannot be honoured or a ``092`` line declaring a round robin (paired by its
Berger table: ``berger N``) is refused.  Errors: exit status 2 and one line on
stderr, ``FILE: line N: reason`` when the reason is one line of the file.

``berger`` prints the Berger tables (FIDE C.05 Annex 1); ``--double`` the double round robin
with the last two rounds of the first cycle swapped, ``--plain`` without that swap.
"""
from __future__ import annotations

import argparse
import sys

from ..trf.model import TrfError
from ..trf.reader import read_trf
from .base import PairingError
from .dutch import pair_dutch
from .roundrobin import round_robin_rounds
from .trf_input import pairing_input_from_trf


def format_pairings(pairs) -> str:
    """Reference-engine format: count line, then ``white black`` (``X 0`` = bye)."""
    lines = [str(len(pairs))]
    lines += [f"{p.white} {p.black if p.black is not None else 0}" for p in pairs]
    return "\n".join(lines) + "\n"


class _Fail(Exception):
    pass


class _Parser(argparse.ArgumentParser):
    def error(self, message: str):  # one line, exit 2
        raise _Fail(f"usage error: {message}")


def _dutch(files: list[str], rounds: int | None = None) -> str:
    out = []
    for f in files:
        try:
            t = read_trf(f)
        except OSError as e:
            raise _Fail(f"{f}: cannot read: {e.strerror or e}") from None
        except TrfError as e:
            raise _Fail(f"{f}: {e}") from None
        try:
            inp = pairing_input_from_trf(t, total_rounds=rounds)
            pairs = pair_dutch(inp.players, **inp.dutch_kwargs())
        except PairingError as e:
            raise _Fail(f"{f}: {e}") from None
        block = format_pairings(pairs)
        out.append(f"# {f}\n{block}" if len(files) > 1 else block)
    return "".join(out)


def _berger(n: int, double: bool, plain: bool = False) -> str:
    try:
        rounds = round_robin_rounds(n, double=double, second_cycle_swap=not plain)
    except PairingError as e:
        raise _Fail(str(e)) from None
    lines = []
    for i, rnd in enumerate(rounds, 1):
        boards = "  ".join(f"{w}-{b}" if b else f"{w}-bye" for w, b in rnd)
        lines.append(f"Round {i}: {boards}")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    """Entry point; returns the exit status (0 ok, 2 error)."""
    parser = _Parser(prog="python -m tournaments.pairing", description="Pairing systems")
    sub = parser.add_subparsers(dest="cmd", required=True)
    d = sub.add_parser("dutch", help="pair the next round of TRF files (FIDE Dutch C.04.3)")
    d.add_argument("files", nargs="+", metavar="FILE")
    d.add_argument("--rounds", type=int, metavar="N",
                   help="total number of rounds, for files without an XXR line (overrides XXR)")
    b = sub.add_parser("berger", help="print the Berger table (C.05 Annex 1)")
    b.add_argument("n", type=int, metavar="N",
                   help="number of players (an odd number gets a bye in every round: the table of N + 1)")
    b.add_argument("--double", action="store_true", help="double round robin (second cycle, colours reversed)")
    b.add_argument("--plain", action="store_true",
                   help="with --double: keep the table order (do not swap the last two rounds of the first cycle)")
    try:
        args = parser.parse_args(argv)
        if args.cmd == "berger" and args.plain and not args.double:
            raise _Fail("usage error: --plain only applies with --double")
        text = _dutch(args.files, args.rounds) if args.cmd == "dutch" else _berger(args.n, args.double, args.plain)
    except _Fail as e:
        print(str(e).replace("\n", " "), file=sys.stderr)
        return 2
    sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
