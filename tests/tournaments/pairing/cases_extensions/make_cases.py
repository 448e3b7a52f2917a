"""Make the TRF-extension reference cases of this folder with bbpPairings (``--dutch``, v6).

Usage (from the repository root)::

    python tests/tournaments/pairing/cases_extensions/make_cases.py /path/to/bbpPairings.exe

Each tournament below is simulated round by round: before round N the file ``rN.trf`` is written
(rounds 1..N-1, byes entered ahead for round N, the extension lines), bbpPairings pairs it, the
pairing is recorded in ``rN.expected`` (``no valid pairing`` when it finds none, which ends the
tournament) and random results are drawn for it (seeded, so the folder is reproducible).  When
bbpPairings needs another file for the same situation, that file is kept as ``rN.bbp.trf``:

* a pairing-allocated bye entered ahead (``0000 - U`` in round N): our reader honours the cell,
  bbpPairings would take round N as paired, so its file has a ``240 U`` line instead;
* ``192 FIDE_DUTCH_2025_BAKU`` with a number of players where FIDE C.04.5.1 (group A =
  2 * ceil(n / 4)) and bbpPairings (ceil(n / 2)) differ: its file gives the FIDE virtual points
  as ``XXA`` lines (computed here from the C.04.5.1 text, independently of the product code).

Not imported by the tests; run it by hand to regenerate.  Generated names are not real people.
"""
from __future__ import annotations

import math
import random
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent

POINTS_STD = {"W": 1.0, "D": 0.5, "L": 0.0, "Z": 0.0, "F": 0.0}


@dataclass
class Config:
    name: str
    n: int
    rounds: int
    seed: int
    features: tuple[str, ...]
    points: dict[str, float] = field(default_factory=dict)  # W D L Z F U given in the file
    points_lines: tuple[str, ...] = ()


CONFIGS = [
    # accelerations (XXA, several players, several rounds)
    Config("xxa_n9", 9, 7, 601, ("xxa",)),
    Config("xxa_n14", 14, 7, 602, ("xxa",)),
    Config("xxa_n20", 20, 9, 603, ("xxa", "half_byes")),
    Config("xxa_n27", 27, 7, 604, ("xxa", "half_byes", "forfeits")),
    Config("a250_n16", 16, 7, 605, ("a250",)),
    Config("a250_n23", 23, 9, 606, ("a250", "half_byes")),
    # forbidden pairs (pairs and a three-player group)
    Config("xxp_n8", 8, 5, 611, ("xxp",)),
    Config("xxp_n13", 13, 7, 612, ("xxp", "half_byes")),
    Config("xxp_n22", 22, 7, 613, ("xxp", "forfeits")),
    Config("xxp_n31", 31, 9, 614, ("xxp", "half_byes")),
    Config("p260_n12", 12, 7, 615, ("p260",)),
    Config("p260_n19", 19, 7, 616, ("p260", "xxp")),
    # point systems
    Config("bbu_n9", 9, 7, 621, ("half_byes",), {"U": 0.5}, ("BBU  0.5",)),
    Config("bbu_n15", 15, 7, 622, ("forfeits",), {"U": 0.5}, ("BBU  0.5",)),
    Config("bbu_n25", 25, 9, 623, ("half_byes", "forfeits"), {"U": 0.5}, ("BBU  0.5",)),
    Config("bbw31_n13", 13, 7, 624, ("half_byes",), {"W": 3.0, "D": 1.0}, ("BBW  3.0", "BBD  1.0")),
    Config("bb321_n17", 17, 7, 625, ("forfeits", "half_byes"),
           {"W": 3.0, "D": 2.0, "L": 1.0, "Z": 0.0, "F": 0.0},
           ("BBW  3.0", "BBD  2.0", "BBL  1.0", "BBZ  0.0", "BBF  0.0")),
    Config("p162_n11", 11, 7, 626, ("half_byes",), {"W": 3.0, "D": 1.0, "U": 1.5},
           ("162  W 3.0    D 1.0    P 1.5",)),
    # byes entered ahead
    Config("pab_n9", 9, 7, 631, ("pab_ahead",)),
    Config("pab_n13", 13, 7, 632, ("pab_ahead", "half_byes")),
    Config("pab_n21", 21, 9, 633, ("pab_ahead", "forfeits"), {"U": 0.5}, ("BBU  0.5",)),
    Config("b240_n10", 10, 7, 634, ("b240",)),
    Config("b240_n17", 17, 7, 635, ("b240", "half_byes")),
    Config("b240_n26", 26, 9, 636, ("b240", "forfeits")),
    # Baku acceleration (192)
    Config("baku_n8", 8, 7, 641, ("baku",)),
    Config("baku_n12", 12, 9, 642, ("baku", "half_byes")),
    Config("baku_n15", 15, 9, 643, ("baku",)),
    Config("baku_n24", 24, 9, 644, ("baku", "half_byes")),
    Config("baku_n35", 35, 9, 645, ("baku", "forfeits")),
    Config("baku_n9", 9, 7, 646, ("baku",)),
    Config("baku_n14", 14, 9, 647, ("baku", "half_byes")),
    Config("baku_n21", 21, 10, 648, ("baku",)),
    Config("baku_n30", 30, 9, 649, ("baku", "forfeits")),
    Config("baku_xxa_n16", 16, 7, 650, ("baku", "xxa")),  # XXA lines win over 192 ..._BAKU
    Config("baku_bbw_n20", 20, 9, 651, ("baku",), {"W": 2.0, "D": 1.0}, ("BBW  2.0", "BBD  1.0")),
    # everything at once
    Config("mix_n24", 24, 9, 661, ("xxa", "xxp", "b240", "pab_ahead", "half_byes", "forfeits"),
           {"U": 0.5}, ("BBU  0.5",)),
    Config("mix_n33", 33, 9, 662, ("a250", "p260", "b240", "half_byes", "forfeits")),
    Config("mix_n41", 41, 9, 663, ("baku", "xxp", "b240", "pab_ahead", "half_byes", "forfeits")),
]


def fide_group_a(n: int) -> int:
    """C.04.5.1: the first half of the players rounded up to the nearest even number."""
    return min(n, 2 * math.ceil(n / 4))


def bbp_group_a(n: int) -> int:
    return (n - 1) // 2 + 1


def baku_values(total: int, win: float, draw: float) -> list[float]:
    """C.04.5.1: accelerated rounds = first half rounded up; 1 VP in the first half of them
    (rounded up), 0.5 in the rest."""
    acc = math.ceil(total / 2)
    full = math.ceil(acc / 2)
    return [win if r < full else draw if r < acc else 0.0 for r in range(total)]


class Sim:
    def __init__(self, cfg: Config, bbp: str, out: Path) -> None:
        self.cfg = cfg
        self.bbp = bbp
        self.out = out
        self.rng = random.Random(cfg.seed)
        self.ps = dict(POINTS_STD)
        self.ps.update({k: v for k, v in cfg.points.items() if k != "U"})
        self.ps["U"] = cfg.points.get("U", self.ps["W"])
        n = cfg.n
        ratings = sorted((self.rng.randint(1200, 2600) for _ in range(n)), reverse=True)
        self.ratings = {i + 1: r for i, r in enumerate(ratings)}
        self.cells: dict[int, list[str]] = {i: [] for i in range(1, n + 1)}
        self.withdrawn: set[int] = set()
        self.lines_240: list[tuple[str, int, list[int]]] = []
        self.ext: list[str] = list(cfg.points_lines)
        self.colour_mode = self.rng.choice(["XXC white1", "XXC black1", "152 W", "152 B", "infer"])
        self.rounds_tag = self.rng.choice(["XXR", "142"])
        self.bbp_ext: list[str] = []
        f = cfg.features
        players = list(range(1, n + 1))
        if "xxa" in f:
            for p in players:
                if self.rng.random() < 0.45:
                    vals = [self.rng.choice([0.0, 0.5, 1.0, 1.0, 2.0]) if r < (cfg.rounds + 1) // 2 else 0.0
                            for r in range(cfg.rounds)]
                    if self.rng.random() < 0.5:
                        vals = vals[:self.rng.randint(2, cfg.rounds)]
                    self.ext.append(f"XXA {p:4d}" + "".join(f" {v:4.1f}" for v in vals))
        if "a250" in f:
            top = self.rng.randint(n // 3, n // 2 + 1)
            half = (cfg.rounds + 1) // 2
            self.ext.append(f"250      {1.0:4.1f} {1:3d} {max(1, half - 1):3d} {1:4d} {top:4d}")
            self.ext.append(f"250      {0.5:4.1f} {half:3d} {half + 1:3d} {1:4d} {top:4d}")
            lo = self.rng.randint(top + 1, n)
            self.ext.append(f"250      {0.5:4.1f} {2:3d} {3:3d} {lo:4d} {lo:4d}")
        if "xxp" in f:
            pool = players[:]
            self.rng.shuffle(pool)
            self.ext.append(f"XXP {pool[0]} {pool[1]}")
            self.ext.append(f"XXP {pool[2]} {pool[3]}")
            self.ext.append(f"XXP {pool[4]} {pool[5]} {pool[6]}")
        if "p260" in f:
            pool = players[:]
            self.rng.shuffle(pool)
            self.ext.append(f"260 {1:3d} {cfg.rounds:3d} {pool[0]:4d} {pool[1]:4d}")
            self.ext.append(f"260 {2:3d} {4:3d} {pool[2]:4d} {pool[3]:4d} {pool[4]:4d}")
            self.ext.append(f"260 {cfg.rounds - 2:3d} {cfg.rounds:3d} {pool[5]:4d} {pool[6]:4d}")
            self.ext.append(f"260 {1:3d} {2:3d} {pool[0]:4d} {pool[7]:4d}")
        self.baku = "baku" in f
        if self.baku:
            self.ext.append("192 FIDE_DUTCH_2025_BAKU")
            if fide_group_a(n) != bbp_group_a(n) and "xxa" not in f:
                vals = baku_values(cfg.rounds, self.ps["W"], self.ps["D"])
                self.bbp_ext = [e for e in self.ext if not e.startswith("192")] + ["192 FIDE_DUTCH_2025"]
                for p in range(1, fide_group_a(n) + 1):
                    self.bbp_ext.append(f"XXA {p:4d}" + "".join(f" {v:4.1f}" for v in vals))

    # -- files --------------------------------------------------------------------------------

    def cell_points(self, cell: str) -> float:
        opp, code = cell[:4].strip(), cell[7]
        if code in "1+WFU":
            return self.ps["U"] if opp == "0000" and code in "U+" else self.ps["W"]
        if code in "=DH":
            return self.ps["D"]
        if opp == "0000":
            return self.ps["Z"]
        return self.ps["L"] if code in "0L" else self.ps["F"]

    def player_line(self, p: int, cells: list[str]) -> str:
        pts = sum(self.cell_points(c) for c in cells if c.strip())
        s = [" "] * 89
        name = f"Test{p:04d} Player{p:04d}"
        for col, txt in ((1, "001"), (5, f"{p:4d}"), (15, name), (49, f"{self.ratings[p]:4d}"),
                         (81, f"{pts:4.1f}"), (86, f"{p:4d}")):
            s[col - 1:col - 1 + len(txt)] = txt
        return ("".join(s) + "".join("  " + c for c in cells)).rstrip()

    def write(self, path: Path, rnd: int, ahead: dict[int, str], for_bbp: bool) -> None:
        cfg = self.cfg
        lines = [f"012 Extension case {cfg.name} round {rnd}"]
        extra_240 = list(self.lines_240)
        u_ahead = []
        for p in range(1, cfg.n + 1):
            cells = list(self.cells[p])
            cell = ahead.get(p)
            if cell is not None:
                if for_bbp and cell == "0000 - U":
                    u_ahead.append(p)
                else:
                    cells.append(cell)
            lines.append(self.player_line(p, cells))
        if u_ahead:
            extra_240.append(("U", rnd, u_ahead))
        lines.append(f"{self.rounds_tag} {cfg.rounds}")
        if self.colour_mode != "infer":
            lines.append(self.colour_mode)
        elif rnd == 1:
            lines.append("XXC white1")
        lines += self.bbp_ext if (for_bbp and self.bbp_ext) else self.ext
        for kind, r, ps in extra_240:
            lines.append(f"240 {kind} {r:3d} " + " ".join(f"{p:4d}" for p in ps))
        path.write_text("\n".join(lines) + "\n")

    def run_bbp(self, path: Path) -> str:
        res = subprocess.run([self.bbp, "--dutch", str(path), "-p"], capture_output=True, text=True, timeout=600)
        if res.returncode == 0:
            return res.stdout.strip()
        if "No valid pairing" in res.stderr:
            return "no valid pairing"
        raise SystemExit(f"{path}: bbpPairings failed: {res.stderr.strip()}")

    # -- simulation ---------------------------------------------------------------------------

    def run(self) -> int:
        cfg, rng = self.cfg, self.rng
        folder = self.out / cfg.name
        folder.mkdir(parents=True)
        made = 0
        had_pab: set[int] = set()
        for rnd in range(1, cfg.rounds + 1):
            f = cfg.features
            ahead: dict[int, str] = {}
            active = [p for p in range(1, cfg.n + 1) if p not in self.withdrawn]
            for p in active:
                if rnd > 1 and "half_byes" in f and rng.random() < 0.08:
                    ahead[p] = "0000 - H"
                elif rnd > 2 and rng.random() < 0.03:
                    ahead[p] = "0000 - Z"
            new_240: list[int] = []
            kind_240 = rng.choice("HZFU")
            if "b240" in f and rnd > 1:
                for p in active:
                    if p not in ahead and rng.random() < 0.08:
                        new_240.append(p)
            if new_240:
                self.lines_240.append((kind_240, rnd, new_240))
            for p in self.withdrawn:
                ahead[p] = "0000 - Z"
            free = [p for p in active if p not in ahead and p not in new_240]
            if "pab_ahead" in f and rnd > 1 and len(free) % 2 == 1 and rng.random() < 0.7:
                cands = [p for p in free[len(free) // 2:] if p not in had_pab]
                if cands:
                    p = rng.choice(cands)
                    ahead[p] = "0000 - U"
                    had_pab.add(p)
            ours = folder / f"r{rnd}.trf"
            self.write(ours, rnd, ahead, for_bbp=False)
            needs_bbp = "0000 - U" in ahead.values() or bool(self.bbp_ext)
            bbp_file = folder / f"r{rnd}.bbp.trf"
            if needs_bbp:
                self.write(bbp_file, rnd, ahead, for_bbp=True)
                result = self.run_bbp(bbp_file)
            else:
                result = self.run_bbp(ours)
            (folder / f"r{rnd}.expected").write_text(result + "\n")
            made += 1
            if result == "no valid pairing":
                break
            # results of round rnd
            round_cells: dict[int, str] = dict(ahead)
            for p in new_240:
                round_cells[p] = f"0000 - {kind_240}"
            rows = result.splitlines()[1:]
            for row in rows:
                w, b = (int(x) for x in row.split())
                if b == 0:
                    round_cells[w] = "0000 - U"
                    had_pab.add(w)
                    continue
                x = rng.random()
                if "forfeits" in f and x < 0.04:
                    cw, cb = ("+", "-") if rng.random() < 0.5 else ("-", "+")
                elif x < 0.42:
                    cw, cb = "1", "0"
                elif x < 0.70:
                    cw, cb = "=", "="
                else:
                    cw, cb = "0", "1"
                round_cells[w] = f"{b:4d} w {cw}"
                round_cells[b] = f"{w:4d} b {cb}"
            for p in range(1, cfg.n + 1):
                self.cells[p].append(round_cells.get(p, "0000 - Z"))
            if rnd >= 2:
                for p in active:
                    if rng.random() < 0.02:
                        self.withdrawn.add(p)
        return made


def augment(src: Path, dest: Path, bbp: str) -> int:
    """``aug_*`` folders: each round of ``../cases_generated/<name>`` (the reference engine's own
    generator) with extension lines added: ``XXA`` for about a third of the players, an ``XXP``
    pair and an ``XXP`` group of three, a ``260`` pair for a range of rounds, ``BBU 0.5`` (the
    points column less ½ per ``0000 - U`` cell).  The history stays as played without them."""
    made = 0
    for trf in sorted(src.glob("r*.trf"), key=lambda p: int(p.stem[1:])):
        rng = random.Random(f"{src.name}/{trf.stem}")
        lines = trf.read_text().splitlines()
        rnd = int(trf.stem[1:])
        total = next(int(x.split()[1]) for x in lines if x.startswith("XXR"))
        players = [int(x[4:8]) for x in lines if x.startswith("001")]
        out = []
        for x in lines:
            if x.startswith("001"):
                u = x[91:].count("0000 - U")
                pts = float(x[80:84]) - 0.5 * u
                x = x[:80] + f"{pts:4.1f}" + x[84:]
            out.append(x)
        out.append("BBU  0.5")
        for p in players:
            if rng.random() < 0.33:
                vals = [rng.choice([0.0, 0.5, 1.0, 1.0]) for _ in range(rng.randint(1, total))]
                out.append(f"XXA {p:4d}" + "".join(f" {v:4.1f}" for v in vals))
        pool = players[:]
        rng.shuffle(pool)
        out.append(f"XXP {pool[0]} {pool[1]}")
        out.append(f"XXP {pool[2]} {pool[3]} {pool[4]}")
        first = rng.randint(1, total)
        out.append(f"260 {first:3d} {rng.randint(first, total):3d} {pool[5]:4d} {pool[6]:4d}")
        dest.mkdir(parents=True, exist_ok=True)
        target = dest / trf.name
        target.write_text("\n".join(out) + "\n")
        res = subprocess.run([bbp, "--dutch", str(target), "-p"], capture_output=True, text=True, timeout=600)
        if res.returncode == 0:
            result = res.stdout.strip()
        elif "No valid pairing" in res.stderr:
            result = "no valid pairing"
        else:
            raise SystemExit(f"{target}: bbpPairings failed: {res.stderr.strip()}")
        (dest / f"{trf.stem}.expected").write_text(result + "\n")
        made += 1
    return made


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print(__doc__)
        return 2
    bbp = argv[1]
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp)
        total = 0
        names = []
        for cfg in CONFIGS:
            total += Sim(cfg, bbp, out).run()
            names.append(cfg.name)
        for src in sorted((HERE.parent / "cases_generated").iterdir()):
            if src.is_dir():
                total += augment(src, out / f"aug_{src.name}", bbp)
                names.append(f"aug_{src.name}")
        for name in names:
            dest = HERE / name
            if dest.exists():
                shutil.rmtree(dest)
            shutil.copytree(out / name, dest)
    print(f"{total} rounds in {len(names)} tournaments")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
