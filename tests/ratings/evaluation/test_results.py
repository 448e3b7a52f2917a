"""Results files for ``rating_eval --results`` (issue 13): every line read or refused with its number;
events sharing a date are predicted from the ratings before that date; the chronological split."""
from __future__ import annotations

import datetime as dt
import gzip
import io
import json
import random

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from ratings.engine import Event, Glicko2, RatedSet, Rater
from ratings.evaluation import ResultsFileError, evaluate_events, load_results, read_results, walk_forward

HEAD = "date,event,first,second,first_stones,second_stones\n"


def _read(text: str):
    return read_results(io.StringIO(text), "t.csv")


def test_events_are_grouped_ordered_by_date_then_file_order():
    data = _read(HEAD + "2024-02-01,B,x,y,30,18\n2024-01-01,A,x,z,24,24\n2024-02-01,C,y,z,10,38\n"
                 "2024-02-01,B,y,x,25,23\n")
    assert [e.id for e in data.events] == ["A", "B", "C"]
    assert [(s.player_a, s.player_b, s.a_stones, s.b_stones) for s in data.events[1].sets] == [
        ("x", "y", 30, 18), ("y", "x", 25, 23)]
    assert (data.rows, data.players, data.dates, data.draws) == (4, 3, 2, 1)
    assert data.events[1].date == dt.date(2024, 2, 1)


@pytest.mark.parametrize(
    "body, line, reason",
    [
        ("2024-01-01,A,x,y,30,17\n", 2, "together 48"),
        ("2024-01-01,A,x,y,49,-1\n", 2, "0..48"),
        ("2024-01-01,A,x,y,30,18\n2024-13-01,A,x,y,30,18\n", 3, "YYYY-MM-DD"),
        ("2024-01-01,A,x,x,30,18\n", 2, "on both sides"),
        ("2024-01-01,A,x,y,30\n", 2, "5 fields"),
        ("2024-01-01,A,x,y,30,18\n\n", 3, "empty line"),
        ("2024-01-01,A,x,y,thirty,18\n", 2, "whole numbers"),
        ("2024-01-01,A,x,y,30,18\n2024-01-02,A,x,y,30,18\n", 3, "dated 2024-01-01 on line 2"),
        ("2024-01-01,,x,y,30,18\n", 2, "event is empty"),
    ],
)
def test_a_bad_line_is_refused_with_its_number(body, line, reason):
    with pytest.raises(ResultsFileError, match=reason) as exc:
        _read(HEAD + body)
    assert exc.value.line == line and f"line {line}" in str(exc.value)


def test_every_bad_line_is_named_in_one_run():
    with pytest.raises(ResultsFileError) as exc:
        _read(HEAD + "2024-01-01,A,x,y,30,17\n2024-01-01,A,x,y,30,18\n2024-02-30,B,x,y,30,18\n2024-01-01,C,z,z,24,24\n")
    assert exc.value.line == 2 and exc.value.errors == (
        (2, "stones 30 and 17: each must be 0..48 and together 48"),
        (4, "date '2024-02-30' is not YYYY-MM-DD"),
        (5, "'z' is on both sides"),
    )
    assert str(exc.value).startswith("t.csv: 3 lines refused: line 2: stones 30 and 17")


def test_a_wrong_header_or_an_empty_file_is_refused():
    with pytest.raises(ResultsFileError, match="header must be"):
        _read("date,event,a,b,x,y\n")
    with pytest.raises(ResultsFileError, match="empty"):
        _read("")
    with pytest.raises(ResultsFileError, match="no results"):
        _read(HEAD)


def test_gzip_and_plain_files_read_the_same(tmp_path):
    text = HEAD + "2024-01-01,A,x,y,30,18\n2024-01-08,B,y,x,20,28\n"
    (tmp_path / "r.csv").write_text(text, encoding="utf-8")
    (tmp_path / "r.csv.gz").write_bytes(gzip.compress(text.encode()))
    a, b = load_results(tmp_path / "r.csv"), load_results(tmp_path / "r.csv.gz")
    assert a.events == b.events and a.rows == 2
    (tmp_path / "bad.csv").write_bytes(HEAD.encode() + b"2024-01-01,\xff,x,y,30,18\n")
    with pytest.raises(ResultsFileError, match="line 2: not UTF-8"):
        load_results(tmp_path / "bad.csv")


def test_events_sharing_a_date_are_predicted_from_the_ratings_before_that_date():
    """A wins big in event A1; B2 on the same date must still predict A as an unrated newcomer."""
    same = [Event("A1", dt.date(2024, 1, 1), (RatedSet("A1", "a", "b", 48, 0),)),
            Event("A2", dt.date(2024, 1, 1), (RatedSet("A2", "a", "c", 30, 18),))]
    later = [same[0], Event("A2", dt.date(2024, 1, 2), (RatedSet("A2", "a", "c", 30, 18),))]
    p_same = walk_forward(same, Glicko2())
    p_later = walk_forward(later, Glicko2())
    assert p_same[1].expected == pytest.approx(0.5)  # nobody rated yet on that date
    assert p_later[1].expected > 0.6  # a day later A's win is known
    # the events are still rated in file order: the final ratings equal two consecutive periods
    r = Rater(Glicko2())
    for e in same:
        r.rate(e)
    assert r.rating("a") > 1500


def _league(seed: int, n_dates: int = 14, players: int = 16):
    rng = random.Random(seed)
    skill = {f"p{i}": rng.gauss(0, 1) for i in range(players)}
    lines = [HEAD]
    for d in range(n_dates):
        day = dt.date(2020, 1, 1) + dt.timedelta(days=30 * d)
        for k in range(2):
            for _ in range(25):
                a, b = rng.sample(sorted(skill), 2)
                m = max(-24, min(24, round(4 * (skill[a] - skill[b]) + rng.gauss(0, 6))))
                lines.append(f"{day},E{d}-{k},{a},{b},{24 + m},{24 - m}\n")
    return "".join(lines)


def test_the_chronological_split_tunes_on_the_first_sets_and_scores_the_rest():
    data = _read(_league(3))
    ev = evaluate_events(data.events, budget=2, bootstrap=50, burn_in=0.1, tune_fraction=0.6)
    # 700 sets on 14 dates (50 per date): burn-in ends after date 2 (100 sets >= 70), tuning after
    # date 9 (450 >= 420), the held-out part is dates 10..14 (250 sets)
    assert ev.burn_in_events == 4 and ev.tuning_events == 14 and ev.held_out_events == 10
    assert ev.sets == 250 and ev.tuning_sets == 350
    s = ev.summary()
    assert set(s["logloss"]) == {"margin", "elo", "glicko2"}
    assert s["won_sets_lowering_rating"] == {"margin": 0.0, "elo": 0.0, "glicko2": 0.0}
    assert ev.systems["margin"].won > 0
    assert all(0.5 < v < 1.2 for v in s["defaults"]["logloss"].values())
    assert sum(b[2] for b in ev.bands) == ev.sets
    with pytest.raises(ValueError, match="at least 3 dates"):
        evaluate_events(data.events[:2], budget=1, bootstrap=10)


def test_rating_eval_results_command_prints_the_json_line(tmp_path, capsys):
    path = tmp_path / "league.csv"
    path.write_text(_league(4), encoding="utf-8")
    call_command("rating_eval", "--results", str(path), "--quick", "--bootstrap", "50")
    out = capsys.readouterr().out.strip().splitlines()
    summary = json.loads(out[-1])
    assert summary["sets"] == 250
    assert set(summary) >= {"logloss", "ci_margin_minus_elo", "ci_margin_minus_glicko2", "brier", "defaults",
                            "won_sets_lowering_rating"}
    assert "| Federation rating |" in "\n".join(out)


def test_rating_eval_results_command_names_the_bad_line(tmp_path):
    path = tmp_path / "bad.csv"
    path.write_text(HEAD + "2024-01-01,A,x,y,30,18\n2024-01-01,A,x,y,30,19\n", encoding="utf-8")
    with pytest.raises(CommandError, match="bad.csv, line 3: stones 30 and 19"):
        call_command("rating_eval", "--results", str(path), "--quick")
