"""Convert the WTHOR Othello database into the rating-evaluation CSV format.

Source: the WTHOR database of the Fédération Française d'Othello
(https://www.ffothello.org/informatique/la-base-wthor/), files ``WTH_<year>.wtb`` (games),
``WTHOR.JOU`` (players) and ``WTHOR.TRN`` (tournaments). The copy used for /work/data-ext was taken
from https://github.com/LimeEng/wthor, directory ``wthor-database/`` (years 1977-2021).
Licence: the FFO publishes the database for free download and use; it carries no explicit licence
(the LimeEng/wthor code is MIT, the data files are the FFO's). Do not redistribute it as ours.

Format (little-endian): every file has a 16-byte header. Game files: bytes 4-7 hold the number of
games and bytes 10-11 the year, then 68-byte records: tournament number (uint16), black player
number (uint16), white player number (uint16), black's disc count (1 byte, 0..64, empty squares
given to the winner), theoretical score (1 byte), 60 moves. ``WTHOR.JOU``: bytes 8-9 hold the number
of players, then 20-byte NUL-padded Latin-1 names; ``WTHOR.TRN``: likewise with 26-byte names.

Mapping, one CSV row per game:
  date    ``<year>-01-01`` (WTHOR records only the year);
  event   ``<year> <tournament name>``;
  first   black's player number, second white's (numbers are stable across years);
  stones  first_stones = 24 + round(0.75 * (black - 32)), halves rounded away from zero (so the
          mapping is colour-symmetric), second_stones = 48 - first_stones. The outcome is kept:
          black > 32 gives 25..48, black < 32 gives 0..23, 32 gives 24-24.
Rows are written year by year (input files are sorted by their header year), in record order.

Skipped, and counted on stderr by reason: games in which either player is number 0 ("???", unknown
player), and games of a player against himself (black = white: a program playing itself).
With ``--humans-only``, also games involving a computer program: WTHOR names programs
"<Program> (<author>)", so a player whose name contains "(" is taken as a program (about 29% of
the games, mostly program-vs-program games of the late 1990s).
Anything else that is malformed (bad header, truncated file, disc count > 64, player or tournament
number out of range) stops the conversion with the file name and record number.

Usage: ``python convert_wthor.py WTHOR.JOU WTHOR.TRN WTH_*.wtb -o wthor.csv.gz [--humans-only]``
"""
from __future__ import annotations

import argparse
import csv
import gzip
import struct
import sys
from pathlib import Path

HEADER = 16
GAME = 68
UNKNOWN_PLAYER = 0


def read_names(path: Path, width: int) -> list[str]:
    data = path.read_bytes()
    if len(data) < HEADER:
        raise SystemExit(f"{path}: shorter than its 16-byte header")
    (count,) = struct.unpack_from("<H", data, 8)
    if len(data) != HEADER + count * width:
        raise SystemExit(f"{path}: header says {count} names of {width} bytes, file has {len(data)} bytes")
    return [
        data[HEADER + i * width : HEADER + (i + 1) * width].split(b"\0", 1)[0].decode("latin-1").strip()
        for i in range(count)
    ]


def read_games(path: Path) -> tuple[int, list[tuple[int, int, int, int, int]]]:
    """Return (year, [(record number, tournament, black, white, black discs)])."""
    data = path.read_bytes()
    if len(data) < HEADER:
        raise SystemExit(f"{path}: shorter than its 16-byte header")
    (count,) = struct.unpack_from("<I", data, 4)
    (year,) = struct.unpack_from("<H", data, 10)
    if len(data) != HEADER + count * GAME:
        raise SystemExit(f"{path}: header says {count} games, file has {len(data)} bytes")
    games = []
    for i in range(count):
        tournament, black, white, discs = struct.unpack_from("<HHHB", data, HEADER + i * GAME)
        games.append((i + 1, tournament, black, white, discs))
    return year, games


def stones(black_discs: int) -> int:
    """First (black) player's stones out of 48, half rounded away from the draw."""
    quarters = 3 * (black_discs - 32)  # 0.75 * (black - 32), in quarters
    sign = 1 if quarters >= 0 else -1
    return 24 + sign * ((abs(quarters) + 2) // 4)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("players", type=Path, help="WTHOR.JOU")
    parser.add_argument("tournaments", type=Path, help="WTHOR.TRN")
    parser.add_argument("games", type=Path, nargs="+", help="WTH_<year>.wtb files")
    parser.add_argument("-o", "--output", type=Path, required=True, help="output .csv.gz")
    parser.add_argument("--humans-only", action="store_true", help='skip games of programs ("Name (author)")')
    args = parser.parse_args(argv)

    players = read_names(args.players, 20)
    programs = {i for i, name in enumerate(players) if args.humans_only and "(" in name}
    tournaments = read_names(args.tournaments, 26)
    years = sorted((read_games(p) + (p,) for p in args.games), key=lambda t: t[0])
    written = unknown = selfplay = program = 0
    with gzip.open(args.output, "wt", encoding="utf-8", newline="") as out:
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(["date", "event", "first", "second", "first_stones", "second_stones"])
        for year, games, path in years:
            for record, tournament, black, white, discs in games:
                where = f"{path}: record {record}"
                if discs > 64:
                    raise SystemExit(f"{where}: black disc count {discs} > 64")
                if tournament >= len(tournaments):
                    raise SystemExit(f"{where}: tournament number {tournament} not in {args.tournaments}")
                if black >= len(players) or white >= len(players):
                    raise SystemExit(f"{where}: player number {black}/{white} not in {args.players}")
                if UNKNOWN_PLAYER in (black, white):
                    unknown += 1
                    continue
                if black == white:
                    selfplay += 1
                    continue
                if black in programs or white in programs:
                    program += 1
                    continue
                first = stones(discs)
                writer.writerow([f"{year}-01-01", f"{year} {tournaments[tournament]}", black, white, first, 48 - first])
                written += 1
    print(
        f"{written} games written, {unknown + selfplay + program} skipped ({unknown} with player #0 '???'"
        f" (unknown), {selfplay} of a player against himself, {program} of a program)",
        file=sys.stderr,
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
