"""Convert international football results into the rating-evaluation CSV format.

Source: https://github.com/martj42/international_results, file ``results.csv`` (columns date,
home_team, away_team, home_score, away_score, tournament, city, country, neutral). Licence: CC0 1.0.

Mapping, one CSV row per match:
  date    first day of the match's month (``YYYY-MM-01``);
  event   ``YYYY-MM``: one rating period per calendar month;
  first   home team (as named in the file), second away team;
  stones  with g = home_score - away_score, first_stones = 24 + clip(4 * g, -24, 24)
          (one goal = 4 stones, a 6-goal margin = 48-0, a draw = 24-24), second = 48 - first.
          Penalty shoot-outs are ignored: the match score is the result.
Rows keep the file's order, which must be chronological (checked).

Skipped, and counted on stderr: matches with a missing score (``NA`` or empty: fixtures not yet
played). Any other bad line (wrong column count, bad date, non-integer or negative score, a team
playing itself, dates going backwards) stops the conversion with its line number.

Usage: ``python convert_football.py results.csv -o football.csv.gz``
"""
from __future__ import annotations

import argparse
import csv
import datetime as dt
import gzip
import sys
from pathlib import Path

COLUMNS = ["date", "home_team", "away_team", "home_score", "away_score", "tournament", "city", "country", "neutral"]
MISSING = {"", "NA"}


def stones(home: int, away: int) -> int:
    return 24 + max(-24, min(24, 4 * (home - away)))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("results", type=Path, help="results.csv")
    parser.add_argument("-o", "--output", type=Path, required=True, help="output .csv.gz")
    args = parser.parse_args(argv)

    written = skipped = 0
    last = dt.date.min
    with open(args.results, encoding="utf-8", newline="") as src, gzip.open(
        args.output, "wt", encoding="utf-8", newline=""
    ) as out:
        reader = csv.reader(src)
        if next(reader, None) != COLUMNS:
            raise SystemExit(f"{args.results}: line 1: header is not {','.join(COLUMNS)}")
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(["date", "event", "first", "second", "first_stones", "second_stones"])
        for row in reader:
            where = f"{args.results}: line {reader.line_num}"
            if len(row) != len(COLUMNS):
                raise SystemExit(f"{where}: {len(row)} columns, expected {len(COLUMNS)}")
            date_s, home, away, hs, as_ = row[:5]
            try:
                date = dt.date.fromisoformat(date_s)
            except ValueError:
                raise SystemExit(f"{where}: bad date {date_s!r}") from None
            if date < last:
                raise SystemExit(f"{where}: date {date} before the previous line's {last}")
            last = date
            if not home or not away or home == away:
                raise SystemExit(f"{where}: bad teams {home!r} / {away!r}")
            if hs in MISSING or as_ in MISSING:
                skipped += 1
                continue
            if not (hs.isdigit() and as_.isdigit()):
                raise SystemExit(f"{where}: bad score {hs!r}-{as_!r}")
            first = stones(int(hs), int(as_))
            writer.writerow([f"{date:%Y-%m}-01", f"{date:%Y-%m}", home, away, first, 48 - first])
            written += 1
    print(f"{written} matches written, {skipped} skipped (score missing)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
