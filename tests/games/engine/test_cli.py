"""``python -m games.engine`` run as a subprocess: JSON output, exit status 2 with one stderr line."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from games.engine import Position, perft, replay

REPO_ROOT = Path(__file__).resolve().parents[3]


def run(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "games.engine", *args],
        cwd=REPO_ROOT,
        capture_output=True,
        text=True,
        input=stdin,
        timeout=60,
    )


def assert_error(proc: subprocess.CompletedProcess[str], pattern: str) -> None:
    """Exit status 2, nothing on stdout, exactly one line on stderr matching ``pattern``, no traceback."""
    assert proc.returncode == 2, proc
    assert proc.stdout == ""
    lines = proc.stderr.splitlines()
    assert len(lines) == 1, proc.stderr
    assert "Traceback" not in proc.stderr
    assert pytest.importorskip("re").search(pattern, lines[0]), lines[0]


@pytest.mark.parametrize("variant, expected", [("federation", 1233), ("kale", 1197)])
def test_perft_prints_count_as_last_line(variant, expected):
    proc = run("perft", "4", "--variant", variant)
    assert proc.returncode == 0
    assert proc.stdout.splitlines()[-1] == str(expected)
    assert expected == perft(Position.initial(variant), 4)


def test_replay_json_one_argument_and_several():
    """Board after "4 1 3": 4 ends in the store (Kural 13A), 1 passes, the second player's 3 passes."""
    want = {"board": [1, 5, 5, 2, 5, 5, 1, 4, 4, 1, 5, 5, 5, 0], "to_move": 0, "over": False}
    for args in (("replay", "4 1 3"), ("replay", "4", "1", "3")):
        proc = run(*args)
        assert proc.returncode == 0, proc.stderr
        assert json.loads(proc.stdout) == want


def test_replay_kale_has_castles():
    proc = run("replay", "--variant", "kale", "4 1 3")
    assert json.loads(proc.stdout) == {
        "board": [4, 4, 1, 2, 6, 6, 0, 1, 5, 5, 5, 5, 4, 0],
        "to_move": 1,
        "over": False,
        "castles": [-1, -1],
    }


def test_replay_finished_set_has_null_to_move():
    import random

    from .helpers import random_game

    moves, positions = random_game(random.Random(31))
    proc = run("replay", " ".join(map(str, moves)))
    out = json.loads(proc.stdout)
    assert out["over"] is True and out["to_move"] is None
    assert out["board"] == list(positions[-1].board)


def test_replay_illegal_move_exit_2_names_ply():
    assert_error(run("replay", "4 4 1 4"), r"^error: ply 4: pit 4 of first player is empty$")
    assert_error(run("replay", "4 x"), r"ply 2: 'x' is not a pit number")


def test_replay_batch_one_json_line_per_input_line(tmp_path):
    """--batch: one JSON line per input line; an illegal line gives {"error": ...} and the rest go on."""
    f = tmp_path / "moves.txt"
    f.write_text("4 1 3\n4 4 1 4\n\n1\n", encoding="utf-8")
    proc = run("replay", "--batch", str(f))
    assert proc.returncode == 0
    out = [json.loads(line) for line in proc.stdout.splitlines()]
    assert len(out) == 4
    assert out[0]["board"] == list(replay([4, 1, 3]).board)
    assert out[1] == {"error": "line 2: ply 4: pit 4 of first player is empty"}
    assert out[2]["board"] == list(Position.initial().board)
    assert out[3]["board"] == list(replay([1]).board)
    proc = run("replay", "--batch", "-", stdin="4\n")
    assert json.loads(proc.stdout)["to_move"] == 0


def test_replay_batch_missing_file():
    assert_error(run("replay", "--batch", "/nonexistent/file.txt"), r"cannot read /nonexistent/file.txt")


def test_play_from_board():
    """003 §4: the opponent pit made 4 from 3 is captured."""
    proc = run("play", "--board", "4,4,4,4,4,4,0,3,5,4,4,4,4,0", "--to-move", "0", "5")
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert out["board"] == [4, 4, 4, 4, 1, 5, 5, 0, 5, 4, 4, 4, 4, 0]
    assert out["to_move"] == 1 and out["over"] is False
    assert out["capture"] == "even" and out["captured"] == 4


def test_play_kale_builds_castle():
    proc = run("play", "--variant", "kale", "--board", "4,4,4,4,4,4,0,2,4,4,4,4,4,2", "--to-move", "0",
               "--castles", "-1,-1", "4")
    out = json.loads(proc.stdout)
    assert out["castles"] == [7, -1] and out["capture"] == "castle" and out["castle_built"] == 7


@pytest.mark.parametrize(
    "args, pattern",
    [
        (("--board", "4,4,4", "--to-move", "0", "1"), r"--board: expected 14"),
        (("--board", "4,4,4,4,4,4,0,4,4,4,4,4,4,1", "--to-move", "0", "1"), r"49 stones"),
        (("--board", "4,4,4,4,4,4,0,4,4,4,4,4,4,0", "--to-move", "0", "9"), r"pit must be a number 1\.\.6"),
        (("--board", "4,4,4,4,4,4,0,4,4,4,4,4,4,0", "--to-move", "2", "1"), r"--to-move"),
        (("--board", "0,4,4,4,4,4,4,4,4,4,4,4,4,0", "--to-move", "0", "1"), r"pit 1 of first player is empty"),
    ],
)
def test_play_errors(args, pattern):
    assert_error(run("play", *args), pattern)


def test_set_result_json():
    """Kural 14.5.4: 26-12 with the loser withdrawing is recorded 36-12, "+12"."""
    proc = run("set-result", "--stores", "26", "12", "--withdrawn-by", "second")
    assert json.loads(proc.stdout) == {"first": 36, "second": 12, "winner": "first", "margin": 12}
    proc = run("set-result", "--stores", "24", "24")
    assert json.loads(proc.stdout) == {"first": 24, "second": 24, "winner": None, "margin": 0}


def test_set_result_errors():
    assert_error(run("set-result", "--stores", "20", "12", "--withdrawn-by", "second"), r"Kural 14\.5\.2")
    assert_error(run("set-result", "--stores", "20", "20"), r"Kural 14\.6")
    assert_error(run("set-result", "--stores", "30", "17"), r"sum to 47")
    assert_error(run("set-result", "--stores", "30"), r"--stores")


def test_match_result_json():
    proc = run("match-result", "--sets", "30-18,30-18")
    assert json.loads(proc.stdout) == {
        "set_points": [2.0, 0.0], "match_points": [1.0, 0.0], "decided_after": 2, "complete": True}
    proc = run("match-result", "--sets", "30-18, 18-30, 24-24")
    assert json.loads(proc.stdout) == {
        "set_points": [1.5, 1.5], "match_points": [0.5, 0.5], "decided_after": 3, "complete": True}
    proc = run("match-result", "--sets", "30-18", "--allow-incomplete")
    assert json.loads(proc.stdout) == {
        "set_points": [1.0, 0.0], "match_points": None, "decided_after": None, "complete": False}
    proc = run("match-result", "--sets", "30-18,30-18,30-18", "--sets-per-match", "5")
    assert json.loads(proc.stdout)["decided_after"] == 3


def test_match_result_errors():
    assert_error(run("match-result", "--sets", "30-18,30-18,18-30"), r"set 3 was played but the match was decided")
    assert_error(run("match-result", "--sets", "30-18", "--sets-per-match", "4"), r"odd")
    assert_error(run("match-result", "--sets", "30:18"), r"set 1: expected A-B")
    assert_error(run("match-result", "--sets", "30-18,30-17"), r"set 2: stones 30-17 sum to 47")
    assert_error(run("match-result", "--sets", "30-18"), r"only 1 set recorded at 1-0")


def test_argparse_errors_are_one_line_exit_2():
    assert_error(run(), r"required")
    assert_error(run("bogus"), r"invalid choice")
    assert_error(run("perft", "x"), r"invalid int value")
    assert_error(run("perft", "3", "--variant", "oware"), r"invalid choice")
