"""The layout keeps the architecture (docs/architecture.md): layers, cycles, file sizes, capability packages.

A static reading of every import statement of the four apps (also those inside functions), no Django.
"""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
APPS = ("federation", "games", "tournaments", "ratings")  # ground first: a module imports only its layer or below
LAYER = {app: i for i, app in enumerate(APPS)}
#: Composition roots: they assemble everything, so they may import any layer.
ROOTS = ("federation.settings", "federation.urls", "federation.urls_api", "federation.urls_members",
         "federation.sample_data", "federation.celery", "federation.asgi", "federation.wsgi")
#: Upward imports that predate the layering and are still to be turned round (the list may only shrink:
#: a new upward import fails, and so does an entry that no longer exists). Each is "importer -> imported".
KNOWN_UPWARD: set[str] = set()
PURE_CORES = ("games.engine", "tournaments.pairing", "tournaments.standings", "ratings.engine")
MAX_LINES = 800
MAX_FILES_IN_CYCLES = 4


def _modules() -> dict[str, Path]:
    out = {}
    for app in APPS:
        for path in (ROOT / app).rglob("*.py"):
            rel = path.relative_to(ROOT)
            if "migrations" in rel.parts or "__pycache__" in rel.parts:
                continue
            mod = ".".join(rel.with_suffix("").parts)
            out[mod.removesuffix(".__init__")] = path
    return out


MODULES = _modules()


def _imports(mod: str, path: Path) -> set[str]:
    """The modules of the four apps that ``mod`` imports (the longest known prefix of each name)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                pkg = mod.split(".") if path.name == "__init__.py" else mod.split(".")[:-1]
                pkg = pkg[: len(pkg) - (node.level - 1)]
                base = ".".join(pkg + ([base] if base else []))
            names = [base] + [f"{base}.{a.name}" for a in node.names]
        else:
            continue
        for name in names:
            while name and name not in MODULES:
                name = name.rpartition(".")[0]
            if name and name != mod:
                found.add(name)
    return found


GRAPH = {mod: _imports(mod, path) for mod, path in MODULES.items()}


def _is_root(mod: str) -> bool:
    return mod.startswith(ROOTS) or ".management.commands" in mod


def _cycles() -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[list[str]] = []
    for start in GRAPH:
        if start in index:
            continue
        work = [(start, iter(sorted(GRAPH[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on.add(start)
        while work:
            v, children = work[-1]
            for w in children:
                if w not in index:
                    index[w] = low[w] = len(index)
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(sorted(GRAPH[w]))))
                    break
                if w in on:
                    low[v] = min(low[v], index[w])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[v])
                if low[v] == index[v]:
                    comp = []
                    while True:
                        w = stack.pop()
                        on.discard(w)
                        comp.append(w)
                        if w == v:
                            break
                    if len(comp) > 1:
                        out.append(sorted(comp))
    return out


def test_the_graph_is_read():
    """The reading finds the modules and their imports (a broken reader would pass everything below)."""
    assert "tournaments.models" in MODULES and "federation.audit" in MODULES
    assert "federation.errors" in GRAPH["tournaments.races"] or "federation.errors" in set().union(*GRAPH.values())
    assert "tournaments.signals" in GRAPH["ratings.apps"]


def test_imports_point_down():
    """federation → games → tournaments → ratings: no module imports a higher layer (composition roots aside)."""
    upward = {
        f"{mod} -> {dep}"
        for mod, deps in GRAPH.items() if not _is_root(mod)
        for dep in deps if LAYER[dep.split(".")[0]] > LAYER[mod.split(".")[0]]
    }
    assert upward - KNOWN_UPWARD == set(), "new upward imports (docs/architecture.md)"
    assert KNOWN_UPWARD - upward == set(), "gone: remove them from KNOWN_UPWARD"


def test_import_cycles():
    cycles = _cycles()
    across = [c for c in cycles if len({m.split(".")[0] for m in c}) > 1]
    assert across == []
    assert sum(len(c) for c in cycles) <= MAX_FILES_IN_CYCLES, cycles


@pytest.mark.parametrize("core", PURE_CORES)
def test_pure_cores_import_no_django(core):
    """The pure cores import neither Django nor any Django app module outside the pure cores."""
    for mod, path in MODULES.items():
        if mod != core and not mod.startswith(core + "."):
            continue
        source = path.read_text(encoding="utf-8")
        assert "import django" not in source and "from django" not in source, mod
        for dep in GRAPH[mod]:
            assert dep.startswith(PURE_CORES) or dep.startswith("tournaments.trf") and _is_pure(dep), (mod, dep)


def _is_pure(mod: str) -> bool:
    source = MODULES[mod].read_text(encoding="utf-8")
    return "from django" not in source and "import django" not in source


def test_no_product_file_over_800_lines():
    over = {str(p.relative_to(ROOT)): n for p in MODULES.values()
            if (n := p.read_text(encoding="utf-8").count("\n") + 1) > MAX_LINES}
    assert over == {}


def test_tournaments_top_level_is_small_and_has_no_capability_prefix():
    top = sorted(p.name for p in (ROOT / "tournaments").glob("*.py"))
    assert len(top) <= 25, top
    prefixes = ("team_", "event_", "category_", "knockout_", "prize_", "bracket_", "hall_", "crosstable_", "trf_")
    assert [n for n in top if n.startswith(prefixes)] == []
