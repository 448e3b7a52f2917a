"""``python -m tournaments.pairing`` run as a subprocess."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[3]
CASES = Path(__file__).parent / "cases"


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "tournaments.pairing", *args], cwd=REPO,
                          capture_output=True, text=True, timeout=120)


def test_dutch_one_file():
    f = CASES / "n9_r5_s1" / "r5.trf"
    r = run("dutch", str(f))
    assert r.returncode == 0, r.stderr
    assert r.stdout == "5\n6 1\n2 4\n8 7\n9 5\n3 0\n"
    assert r.stdout.strip() == f.with_suffix(".expected").read_text().strip()


def test_dutch_several_files():
    a, b = CASES / "n9_r5_s1" / "r5.trf", CASES / "n12_r7_s2" / "r3.trf"
    r = run("dutch", str(a), str(b))
    assert r.returncode == 0, r.stderr
    expected = "".join(f"# {f}\n{f.with_suffix('.expected').read_text().strip()}\n" for f in (a, b))
    assert r.stdout == expected


def test_dutch_bad_trf(tmp_path):
    bad = tmp_path / "bad.trf"
    good_line = (CASES / "n9_r5_s1" / "r2.trf").read_text().splitlines()[1]
    bad.write_text("012 Bad\n" + good_line + "\n001 abcd\n")
    r = run("dutch", str(bad))
    assert r.returncode == 2
    assert r.stdout == ""
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and "line 3" in lines[0] and str(bad) in lines[0]


def test_dutch_missing_file(tmp_path):
    r = run("dutch", str(tmp_path / "nope.trf"))
    assert r.returncode == 2 and len(r.stderr.strip().splitlines()) == 1


def test_berger():
    r = run("berger", "4")
    assert r.returncode == 0
    assert r.stdout == "Round 1: 1-4  2-3\nRound 2: 4-3  1-2\nRound 3: 2-4  3-1\n"
    r = run("berger", "3", "--double", "--plain")
    assert r.returncode == 0
    # the 4-player table with 4 as the dummy, then the second cycle with colours reversed
    assert r.stdout.splitlines() == ["Round 1: 2-3  1-bye", "Round 2: 1-2  3-bye", "Round 3: 3-1  2-bye",
                                     "Round 4: 3-2  1-bye", "Round 5: 2-1  3-bye", "Round 6: 1-3  2-bye"]
    # default: the last two rounds of the first cycle swapped (C.05 Annex 1 recommendation)
    r = run("berger", "3", "--double")
    assert r.returncode == 0
    assert r.stdout.splitlines() == ["Round 1: 2-3  1-bye", "Round 2: 3-1  2-bye", "Round 3: 1-2  3-bye",
                                     "Round 4: 3-2  1-bye", "Round 5: 2-1  3-bye", "Round 6: 1-3  2-bye"]
    r = run("berger", "4", "--plain")
    assert r.returncode == 2 and "--plain" in r.stderr


def test_usage_errors():
    for args in (("berger", "1"), ("berger", "x"), ()):
        r = run(*args)
        assert r.returncode == 2 and len(r.stderr.strip().splitlines()) == 1, args


def test_rounds_option_pairs_a_file_without_xxr(tmp_path):
    """A TRF without XXR is refused with a hint; ``--rounds N`` supplies the number of rounds."""
    import subprocess
    import sys
    from pathlib import Path

    trf = Path(__file__).resolve().parents[3] / "tournaments" / "sample_data" / "trf" / "national_juniors_2011.trf"
    bad = subprocess.run([sys.executable, "-m", "tournaments.pairing", "dutch", str(trf)], capture_output=True, text=True)
    assert bad.returncode == 2 and "--rounds N" in bad.stderr and bad.stdout == ""
    ok = subprocess.run([sys.executable, "-m", "tournaments.pairing", "dutch", "--rounds", "7", str(trf)],
                        capture_output=True, text=True)
    assert ok.returncode == 0, ok.stderr
    lines = ok.stdout.splitlines()
    assert int(lines[0]) == len(lines) - 1 == 17  # 34 players, round 6: 17 boards, no bye
