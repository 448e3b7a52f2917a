"""Convert Jeff Sackmann's ATP tour-level results into the rating-evaluation CSV format.

Source: https://github.com/JeffSackmann/tennis_atp, files ``atp_matches_<year>.csv`` (tour-level
main draws, Davis Cup included; not the qualifying/challenger/futures/doubles files).
Licence: CC BY-NC-SA 4.0, "Tennis databases, files, and algorithms by Jeff Sackmann / Tennis
Abstract": non-commercial use with attribution, derived data under the same licence. Keep it out
of the repository; use it for evaluation only.

Mapping, one CSV row per completed match:
  date    ``tourney_date`` as YYYY-MM-DD (the Monday of the event's week: all of its matches);
  event   ``<tourney_id> <tourney_name>``: one rating period per tournament;
  first   the smaller of the two ATP player ids, second the larger (an order independent of the
          result; tennis has no first player);
  stones  the share of games won: first_stones = 24 + round(24 * (g1 - g2) / (g1 + g2)), halves
          rounded away from zero, where a tie-break set counts 7-6 and a match tie-break such as
          [10-8] counts as one game to the side that won it; second_stones = 48 - first_stones.
          The match winner always gets the larger share: when the games say otherwise (about 4%
          of matches: the winner won no more games than the loser) the row is 25-23 for him.
Rows are sorted by date (stable, so a tournament's matches stay in file order).

Skipped, counted on stderr by reason: matches not completed (RET, W/O, DEF, ABD, unfinished and
like markers), matches whose score is unknown or unparseable (UNK, NA, "?", empty, malformed
sets; each such score other than empty/UNK/NA is also listed with its file and line) and matches
with the placeholder player 199999 ("U Unknown"). A bad line otherwise (wrong column count, bad
date or player id, a player meeting himself, one tournament with two dates) stops the conversion
with its file and line number.

Usage: ``python convert_tennis_atp.py atp_matches_*.csv -o tennis_atp.csv.gz``
"""
from __future__ import annotations

import argparse
import collections
import csv
import datetime as dt
import gzip
import re
import sys
from fractions import Fraction
from pathlib import Path

SET = re.compile(r"(\d+)-(\d+)(?:\(\d+\))?")
MATCH_TIEBREAK = re.compile(r"\[(\d+)-(\d+)\]")
NOT_COMPLETED = {"RET", "W/O", "DEF", "Def.", "Default", "Walkover", "ABD", "abandoned", "unfinished"}
UNKNOWN_PLAYER = 199999  # atp_players.csv: "U Unknown"
NEEDED = ["tourney_id", "tourney_name", "tourney_date", "winner_id", "loser_id", "score"]


def games(score: str) -> tuple[int, int] | str:
    """(winner's games, loser's games) of a complete score, or the reason it is skipped."""
    tokens = score.split()
    if any(t in NOT_COMPLETED for t in tokens):
        return "not completed"
    won = lost = 0
    for token in tokens:
        if m := SET.fullmatch(token):
            won, lost = won + int(m[1]), lost + int(m[2])
        elif m := MATCH_TIEBREAK.fullmatch(token):
            won, lost = (won + 1, lost) if int(m[1]) > int(m[2]) else (won, lost + 1)
        else:
            return "unknown or unparseable score"
    if won + lost == 0:
        return "unknown or unparseable score"
    return won, lost


def winner_stones(won: int, lost: int) -> int:
    share = Fraction(24 * (won - lost), won + lost)
    rounded = int(abs(share) + Fraction(1, 2)) * (1 if share >= 0 else -1)
    return max(25, 24 + rounded)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("matches", type=Path, nargs="+", help="atp_matches_<year>.csv files")
    parser.add_argument("-o", "--output", type=Path, required=True, help="output .csv.gz")
    args = parser.parse_args(argv)

    rows: list[tuple[str, str, str, str, int, int]] = []
    skipped: collections.Counter[str] = collections.Counter()
    event_dates: dict[str, str] = {}
    for path in args.matches:
        with open(path, encoding="utf-8", newline="") as src:
            reader = csv.reader(src)
            header = next(reader)
            missing = [c for c in NEEDED if c not in header]
            if missing:
                raise SystemExit(f"{path}: line 1: missing columns {missing}")
            col = {c: header.index(c) for c in NEEDED}
            for row in reader:
                where = f"{path}: line {reader.line_num}"
                if len(row) != len(header):
                    raise SystemExit(f"{where}: {len(row)} columns, expected {len(header)}")
                try:
                    date = dt.datetime.strptime(row[col["tourney_date"]], "%Y%m%d").date().isoformat()
                    winner, loser = int(row[col["winner_id"]]), int(row[col["loser_id"]])
                except ValueError as exc:
                    raise SystemExit(f"{where}: {exc}") from None
                if UNKNOWN_PLAYER in (winner, loser):
                    skipped["unknown player 199999"] += 1
                    continue
                if winner == loser:
                    raise SystemExit(f"{where}: player {winner} meets himself")
                event = f"{row[col['tourney_id']]} {row[col['tourney_name']]}"
                if event_dates.setdefault(event, date) != date:
                    raise SystemExit(f"{where}: event {event!r} dated {date} and {event_dates[event]}")
                result = games(row[col["score"]])
                if isinstance(result, str):
                    skipped[result] += 1
                    if result.startswith("unknown") and row[col["score"]].strip() not in {"", "UNK", "NA"}:
                        print(f"{where}: skipped score {row[col['score']]!r}", file=sys.stderr)
                    continue
                w = winner_stones(*result)
                first, second, s1 = (winner, loser, w) if winner < loser else (loser, winner, 48 - w)
                rows.append((date, event, str(first), str(second), s1, 48 - s1))
    rows.sort(key=lambda r: r[0])
    with gzip.open(args.output, "wt", encoding="utf-8", newline="") as out:
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(["date", "event", "first", "second", "first_stones", "second_stones"])
        writer.writerows(rows)
    detail = ", ".join(f"{n} {reason}" for reason, n in sorted(skipped.items()))
    print(f"{len(rows)} matches written, {sum(skipped.values())} skipped ({detail or 'none'})", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
