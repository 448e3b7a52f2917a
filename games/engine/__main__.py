"""Command line for the rules engine: ``python -m games.engine COMMAND ...``.

Commands (all output JSON except ``perft``):

- ``perft DEPTH [--variant kale]`` — node count (last line of output).
- ``replay [--variant kale] MOVES...`` — the position after the moves ("4 1 3" as one argument or
  several); ``replay --batch FILE`` — one move sequence per line, one JSON line each
  (``{"error": "line N: ply K: ..."}`` for an illegal line, the others go on, exit status 0; ``-`` reads
  standard input).
- ``play --board a,b,...(14) --to-move 0|1 [--variant kale --castles i,j] PIT`` — one move.
- ``set-result --stores A B [--withdrawn-by first|second]`` — the recorded set result.
- ``match-result --sets "A-B,A-B,..." [--sets-per-match N] [--allow-incomplete]`` — the match result
  (``match_points``/``decided_after`` null for an incomplete match).

Position JSON: ``board`` (14 ints), ``to_move`` (0 first mover, 1, or null when over), ``over``,
``castles`` (kale only, [cell or -1, cell or -1]). Errors: exit status 2 and one line on stderr.
"""
from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from typing import NoReturn

from .errors import RulesError
from .game import Position, Variant, perft, play, replay
from .results import match_result, set_result

EXIT_ERROR = 2


class _CliError(Exception):
    pass


class _Parser(argparse.ArgumentParser):
    """argparse that reports errors as one line and exit status 2."""

    def error(self, message: str) -> NoReturn:
        raise _CliError(f"{self.prog}: {message}")


def _position_json(pos: Position) -> dict[str, object]:
    out: dict[str, object] = {"board": list(pos.board), "to_move": pos.to_move, "over": pos.is_over}
    if pos.variant is Variant.KALE:
        out["castles"] = list(pos.castles)
    return out


def _moves_from_text(text: str) -> list[int]:
    moves: list[int] = []
    for n, token in enumerate(text.replace(",", " ").split(), start=1):
        if not token.isdigit():
            raise RulesError(f"ply {n}: {token!r} is not a pit number 1..6")
        moves.append(int(token))
    return moves


def _ints(text: str, what: str, count: int) -> list[int]:
    parts = [t.strip() for t in text.split(",")]
    try:
        values = [int(t) for t in parts]
    except ValueError:
        raise _CliError(f"{what}: expected {count} comma-separated integers, got {text!r}") from None
    if len(values) != count:
        raise _CliError(f"{what}: expected {count} comma-separated integers, got {len(values)}")
    return values


def _cmd_perft(args: argparse.Namespace) -> None:
    if args.depth < 0:
        raise _CliError("perft: DEPTH must be >= 0")
    print(perft(Position.initial(args.variant), args.depth))


def _cmd_replay(args: argparse.Namespace) -> None:
    if args.batch is not None:
        if args.moves:
            raise _CliError("replay: give either MOVES or --batch FILE, not both")
        try:
            stream = sys.stdin if args.batch == "-" else open(args.batch, encoding="utf-8")
        except OSError as exc:
            raise _CliError(f"replay --batch: cannot read {args.batch}: {exc.strerror}") from None
        with stream:
            for lineno, line in enumerate(stream, start=1):
                try:
                    pos = replay(_moves_from_text(line), args.variant)
                    out: dict[str, object] = _position_json(pos)
                except RulesError as exc:
                    out = {"error": f"line {lineno}: {exc}"}
                print(json.dumps(out), flush=False)
        return
    print(json.dumps(_position_json(replay(_moves_from_text(" ".join(args.moves)), args.variant))))


def _cmd_play(args: argparse.Namespace) -> None:
    board = _ints(args.board, "--board", 14)
    castles = (-1, -1)
    if args.castles is not None:
        c = _ints(args.castles, "--castles", 2)
        castles = (c[0], c[1])
    if args.to_move not in (0, 1):
        raise _CliError("--to-move must be 0 or 1")
    pos = Position(tuple(board), args.to_move, Variant.parse(args.variant), castles)
    res = play(pos, args.pit)
    out = _position_json(res.position)
    out.update(
        extra_turn=res.extra_turn,
        capture=None if res.capture is None else res.capture.value,
        captured=res.captured,
        castle_built=res.castle_built,
        sweep=list(res.sweep),
    )
    print(json.dumps(out))


def _cmd_set_result(args: argparse.Namespace) -> None:
    r = set_result(args.stores[0], args.stores[1], args.withdrawn_by)
    print(json.dumps({"first": r.first, "second": r.second, "winner": r.winner, "margin": r.margin}))


def _cmd_match_result(args: argparse.Namespace) -> None:
    sets: list[tuple[int, int]] = []
    for n, item in enumerate(filter(None, (t.strip() for t in args.sets.split(","))), start=1):
        a, sep, b = item.partition("-")
        if not sep or not a.strip().isdigit() or not b.strip().isdigit():
            raise _CliError(f"--sets: set {n}: expected A-B stones like 30-18, got {item!r}")
        sets.append((int(a), int(b)))
    r = match_result(sets, args.sets_per_match, allow_incomplete=args.allow_incomplete)
    print(
        json.dumps(
            {
                "set_points": list(r.set_points),
                "match_points": None if r.match_points is None else list(r.match_points),
                "decided_after": r.decided_after,
                "complete": r.complete,
            }
        )
    )


def build_parser() -> argparse.ArgumentParser:
    """The argument parser (exposed for tests and docs)."""
    parser = _Parser(prog="python -m games.engine", description="Mangala rules engine (Kural 10-14, 004).")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)

    def variant_arg(p: argparse.ArgumentParser) -> None:
        p.add_argument("--variant", default="federation", choices=["federation", "kale"])

    p = sub.add_parser("perft", help="count move sequences of DEPTH plies from the initial position")
    p.add_argument("depth", type=int, metavar="DEPTH")
    variant_arg(p)
    p.set_defaults(func=_cmd_perft)

    p = sub.add_parser("replay", help="replay a move sequence, print the position as JSON")
    p.add_argument("moves", nargs="*", metavar="MOVES", help='pit numbers, e.g. "4 1 3"')
    p.add_argument("--batch", metavar="FILE", help="one move sequence per line (- for stdin)")
    variant_arg(p)
    p.set_defaults(func=_cmd_replay)

    p = sub.add_parser("play", help="play one pit from a given board")
    p.add_argument("--board", required=True, help="14 comma-separated stone counts")
    p.add_argument("--to-move", required=True, type=int, choices=[0, 1])
    p.add_argument("--castles", help="kale: first,second castle cell or -1")
    variant_arg(p)
    p.add_argument("pit", type=int, metavar="PIT")
    p.set_defaults(func=_cmd_play)

    p = sub.add_parser("set-result", help="recorded result of a set from the two stores")
    p.add_argument("--stores", required=True, type=int, nargs=2, metavar=("FIRST", "SECOND"))
    p.add_argument("--withdrawn-by", choices=["first", "second"])
    p.set_defaults(func=_cmd_set_result)

    p = sub.add_parser("match-result", help="match result from the sets' recorded stones")
    p.add_argument("--sets", required=True, help='"A-B,A-B,..." recorded stones of A (white) and B')
    p.add_argument("--sets-per-match", type=int, default=3)
    p.add_argument("--allow-incomplete", action="store_true", help="accept a match still in progress")
    p.set_defaults(func=_cmd_match_result)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the CLI; returns the exit status (0, or 2 after printing one error line to stderr)."""
    argv = list(sys.argv[1:] if argv is None else argv)
    # "--castles -1,-1" would look like an option to argparse: glue the value on ("--castles=-1,-1").
    for i in range(len(argv) - 2, -1, -1):
        if argv[i] in ("--castles", "--board") and argv[i + 1].startswith("-"):
            argv[i : i + 2] = [f"{argv[i]}={argv[i + 1]}"]
    try:
        args = build_parser().parse_args(argv)
        args.func(args)
    except (_CliError, RulesError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_ERROR
    except ValueError as exc:  # e.g. a bad set number from a helper: still one line
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_ERROR
    except BrokenPipeError:  # output piped into e.g. head
        sys.stderr.close()
        return 0
    except Exception as exc:  # a bug: still one line, no traceback (CLI contract)
        print(f"error: internal error: {type(exc).__name__}: {exc}", file=sys.stderr)
        return EXIT_ERROR
    return 0


if __name__ == "__main__":
    sys.exit(main())
