"""TRF extensions (XXA/250, XXP/260, BBx/162, 240, ``0000 - U`` ahead, 192 Baku) against the
reference engine (bbpPairings ``--dutch`` v6): ``cases_extensions/`` (see its README), and the four
shared interop files.
"""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.shared_data import shared_path
from tournaments.pairing import PairingError
from tournaments.pairing.trf_input import pairing_input_from_trf
from tournaments.trf.reader import parse_trf, read_trf

HERE = Path(__file__).parent
REPO = HERE.parents[2]
CASES = sorted(p for p in (HERE / "cases_extensions").glob("*/r*.trf") if not p.name.endswith(".bbp.trf"))
INTEROP = HERE / "cases_interop"


def _expected(trf: Path) -> str:
    return trf.with_name(trf.stem + ".expected").read_text().strip()


def _format(pairs) -> str:
    return "\n".join([str(len(pairs))] + [f"{p.white} {p.black or 0}" for p in pairs])


@pytest.mark.parametrize("trf", CASES, ids=[f"{p.parent.name}/{p.stem}" for p in CASES])
def test_extension_case(trf: Path) -> None:
    inp = pairing_input_from_trf(parse_trf(trf.read_bytes()))
    assert inp.round_no == int(trf.stem[1:])
    expected = _expected(trf)
    if expected == "no valid pairing":
        with pytest.raises(PairingError):
            inp.pair()
    else:
        assert _format(inp.pair()) == expected


def test_extension_cases_present() -> None:
    assert len(CASES) == 347
    assert all(p.with_name(p.stem + ".expected").is_file() for p in CASES)
    kinds = {p.parent.name.split("_")[0] for p in CASES}
    assert kinds == {"xxa", "a250", "xxp", "p260", "bbu", "bbw31", "bb321", "p162", "pab", "b240", "baku", "mix",
                     "aug"}
    # every file the reference engine got instead of ours sits beside one of ours
    for bbp in (HERE / "cases_extensions").glob("*/r*.bbp.trf"):
        assert bbp.with_name(bbp.name.replace(".bbp.trf", ".trf")).is_file()


def test_extension_cases_through_the_command_line() -> None:
    """All cases with a pairing, in one run of ``python -m tournaments.pairing dutch``."""
    files = [p for p in CASES if _expected(p) != "no valid pairing"]
    rel = [str(p.relative_to(REPO)) for p in files]
    r = subprocess.run([sys.executable, "-m", "tournaments.pairing", "dutch", *rel], cwd=REPO,
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    assert r.stdout == "".join(f"# {f}\n{_expected(p)}\n" for f, p in zip(rel, files))


def test_no_valid_pairing_through_the_command_line() -> None:
    files = [p for p in CASES if _expected(p) == "no valid pairing"]
    assert files
    r = subprocess.run([sys.executable, "-m", "tournaments.pairing", "dutch", str(files[0])], cwd=REPO,
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 2 and r.stdout == ""
    assert len(r.stderr.strip().splitlines()) == 1 and "no pairing satisfies" in r.stderr


# ---------------------------------------------------------------------------------------------
# The shared interop files (../shared/data/interop, README there) and their copies here.

INTEROP_EXPECTED = {
    # round 2: player 4's pairing-allocated bye is entered ahead, he is not paired
    "p02_preassigned_pab.trf": (2, "2\n5 1\n2 3"),
    # bbpPairings gives the same
    "p13_half_point_pab.trf": (2, "3\n2 1\n4 3\n5 0"),
    "p15_forbidden_pair_xxp.trf": (2, "2\n4 1\n2 3"),
    "p17_acceleration_xxa.trf": (2, "3\n2 1\n5 4\n3 6"),
}


def _run_cli(path: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "tournaments.pairing", "dutch", str(path)], cwd=REPO,
                          capture_output=True, text=True, timeout=60)


@pytest.mark.parametrize("name", sorted(INTEROP_EXPECTED))
def test_interop_shared(name: str) -> None:
    path = shared_path("data", "interop", name)
    assert path.read_bytes() == (INTEROP / name).read_bytes()  # the local copy is current
    r = _run_cli(path)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == INTEROP_EXPECTED[name][1]


@pytest.mark.parametrize("name", sorted(INTEROP_EXPECTED))
def test_interop_local_copy(name: str) -> None:
    round_no, expected = INTEROP_EXPECTED[name]
    inp = pairing_input_from_trf(read_trf(INTEROP / name))
    assert inp.round_no == round_no
    assert _format(inp.pair()) == expected


def test_interop_details() -> None:
    p02 = pairing_input_from_trf(read_trf(INTEROP / "p02_preassigned_pab.trf"))
    by = {p.id: p for p in p02.players}
    assert not by[4].available and by[4].points == 0.0  # the file's 1.0 includes the round-2 bye
    assert by[5].available and by[5].points == 1.0  # round-1 bye
    assert p02.unavailable == {4: "round 2 cell '0000 - U'"}
    p13 = pairing_input_from_trf(read_trf(INTEROP / "p13_half_point_pab.trf"))
    assert p13.point_system.pab_points == 0.5
    assert {p.id: p.points for p in p13.players}[3] == 0.5
    p15 = pairing_input_from_trf(read_trf(INTEROP / "p15_forbidden_pair_xxp.trf"))
    assert p15.forbidden_pairs == ((1, 2),)
    p17 = pairing_input_from_trf(read_trf(INTEROP / "p17_acceleration_xxa.trf"))
    assert {p.id: p.accelerations for p in p17.players}[4] == (1.0, 1.0, 1.0)
