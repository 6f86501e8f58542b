"""The package's layers: an import may only go down a floor, or sideways inside one folder.

The floors, from the ground up (CONTRIBUTING.md explains where new code goes).  A module's
floor is that of the longest prefix listed; every import found anywhere in a module (top
level or inside a function) counts.  The test below fails on an upward or sideways edge, and
a second test shows that it can.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent / "coinsat"

FLOORS: list[tuple[str, ...]] = [
    ("errors", "_version", "_names", "_startup"),
    ("geometry", "registry", "limits"),
    ("configuration", "board"),
    ("rules", "instance"),
    ("solution", "theory"),
    ("result", "families"),
    ("encode", "backends"),
    ("search", "constructive", "io", "draw"),
    ("certificates", "certificates.check"),
    ("certificates.prove",),
    ("solve", "export", "count", "census", "improve", "pack"),
    ("gallery", "certify"),
    ("commands",),
    ("cli",),
    ("study",),
    ("__main__", ""),  # "" is the package root (its public API)
]


def _name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {_name(p): p for p in ROOT.rglob("*.py")}


def floor(module: str) -> tuple[int, str]:
    """(floor, the prefix that placed it)."""
    best = None
    for level, prefixes in enumerate(FLOORS):
        for prefix in prefixes:
            if module == prefix or (prefix and module.startswith(prefix + ".")):
                if best is None or len(prefix) > len(best[1]):
                    best = (level, prefix)
    if best is None:
        raise AssertionError(f"coinsat.{module} is on no floor: add it to FLOORS")
    return best


def imports(module: str, source: str) -> set[str]:
    """The coinsat modules (names relative to the package) that ``source`` imports."""
    package = module if MODULES.get(module, Path()).name == "__init__.py" or module == "" else module.rpartition(".")[0]
    out = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            here = ["coinsat"] + ([p for p in package.split(".") if p])
            base = here[: len(here) - (node.level - 1)] if node.level else []
            mod = ".".join(base + ([node.module] if node.module else []))
            names = [f"{mod}.{a.name}" for a in node.names] if f"{mod}.{node.names[0].name}"[8:] in MODULES else [mod]
        else:
            continue
        for n in names:
            if n == "coinsat" or n.startswith("coinsat."):
                rel = n[len("coinsat.") :] if n != "coinsat" else ""
                while rel not in MODULES and "." in rel:
                    rel = rel.rpartition(".")[0]
                if rel in MODULES and rel != module:
                    out.add(rel)
    return out


def violations(module: str, source: str) -> list[str]:
    mine, my_prefix = floor(module)
    bad = []
    for target in sorted(imports(module, source)):
        theirs, their_prefix = floor(target)
        same_folder = their_prefix == my_prefix and my_prefix != ""
        if theirs > mine or (theirs == mine and not same_folder):
            bad.append(f"coinsat.{module} (floor {mine}) imports coinsat.{target} (floor {theirs})")
    return bad


def test_no_import_goes_up_or_sideways():
    bad = [v for m, p in sorted(MODULES.items()) for v in violations(m, p.read_text())]
    assert not bad, "\n".join(bad)


def test_the_layering_test_sees_an_upward_import():
    assert violations("encode.sat", "from ..search.bfs import solve_bfs\n")
    assert violations("certificates.check.layers", "def f():\n    from ...certificates.prove.layers import x\n")
    assert not violations("search.bfs", "from ..rules import successors\n")


def graph() -> dict[str, set[str]]:
    """module -> the coinsat modules it imports (every import, lazy ones too)."""
    return {m: imports(m, p.read_text()) for m, p in MODULES.items()}


def circles(g: dict[str, set[str]]) -> list[list[str]]:
    """The import circles: strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(g.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            part = []
            while True:
                w = stack.pop()
                on.discard(w)
                part.append(w)
                if w == v:
                    break
            if len(part) > 1:
                out.append(sorted(part))

    for v in sorted(g):
        if v not in index:
            visit(v)
    return out


#: circles still to open (none: the checker's numba switch lives in check/ranked.py)
KNOWN_CIRCLES: list[list[str]] = []


def test_no_import_circle_inside_a_folder_either():
    """The floors forbid circles between folders; this forbids them between the modules of one
    (the known ones listed must still exist: drop them from the list once opened)."""
    found = circles(graph())
    assert [c for c in found if c not in KNOWN_CIRCLES] == []
    assert [c for c in KNOWN_CIRCLES if c not in found] == []


def test_the_circle_test_sees_a_circle():
    assert circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert circles({"a": {"b"}, "b": set()}) == []


def private_imports(module: str, source: str) -> list[str]:
    """``from coinsat.x import _name``: a private name taken from another module (a private
    module, ``from . import _startup``, is a module of its package and allowed)."""
    bad = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom) and (node.level or (node.module or "").startswith("coinsat")):
            for a in node.names:
                if a.name.startswith("_") and not a.name.startswith("__") and not _is_module(module, node, a.name):
                    bad.append(f"coinsat.{module} imports {a.name} from {'.' * node.level}{node.module or ''}")
    return bad


def _is_module(module: str, node: ast.ImportFrom, name: str) -> bool:
    return any(f"{t}.{name}" in MODULES or (t == "" and name in MODULES) for t in _bases(module, node))


def _bases(module: str, node: ast.ImportFrom) -> list[str]:
    package = module if MODULES.get(module, Path()).name == "__init__.py" or module == "" else module.rpartition(".")[0]
    here = [p for p in package.split(".") if p]
    base = here[: len(here) - (node.level - 1)] if node.level else []
    return [".".join(base + ([node.module] if node.module else []))]


def test_no_module_imports_a_private_name_from_another():
    found = sorted(v for m, p in sorted(MODULES.items()) for v in private_imports(m, p.read_text()))
    assert found == []


def solver_imports(module: str, source: str) -> list[str]:
    """An import of PySAT's solvers outside ``backends/``: every SAT call, proofs included, goes
    through ``backends.sat_backend`` (its one facade over PySAT)."""
    if module == "backends" or module.startswith("backends."):
        return []
    bad = []
    for node in ast.walk(ast.parse(source)):
        names = [a.name for a in node.names] if isinstance(node, ast.Import) else []
        names += [node.module or ""] if isinstance(node, ast.ImportFrom) and not node.level else []
        bad += [f"coinsat.{module} imports {n}" for n in names if (n + ".").startswith("pysat.solvers.")]
    return bad


#: solver imports still outside backends/ (to be moved to backends.sat_backend)
KNOWN_SOLVER_IMPORTS = {
    "coinsat.study.sat_limits imports pysat.solvers",
}


def test_pysat_solvers_are_imported_by_the_backends_alone():
    found = {v for m, p in sorted(MODULES.items()) for v in solver_imports(m, p.read_text())}
    assert sorted(found - KNOWN_SOLVER_IMPORTS) == []
    assert sorted(KNOWN_SOLVER_IMPORTS - found) == []  # moved ones leave the list


def test_the_solver_import_test_sees_one():
    assert solver_imports("certificates.prove.x", "def f():\n    from pysat.solvers import Solver\n")
    assert solver_imports("study.x", "import pysat.solvers\n")
    assert not solver_imports("backends.sat_backend", "from pysat.solvers import Solver\n")
    assert not solver_imports("encode.sat", "from pysat.formula import IDPool\n")


def test_the_private_import_test_sees_one():
    assert private_imports("search.x", "from .spanbfs import _Outcome\n")
    assert not private_imports("search.x", "from .layered import Outcome\n")


# --- the drawing: python3 -m tests.test_layering docs/layers.svg -------------------------------


def edges() -> dict[tuple[str, str], int]:
    """(importer group, imported group) -> number of module imports, between the floor
    prefixes (a group is the prefix that places a module); imports inside a group are left out."""
    out: dict[tuple[str, str], int] = {}
    for m, p in MODULES.items():
        mine = floor(m)[1]
        for target in imports(m, p.read_text()):
            theirs = floor(target)[1]
            if theirs != mine:
                out[mine, theirs] = out.get((mine, theirs), 0) + 1
    return out


def draw(path: str) -> None:
    """The floors bottom to top, one box per group, an arrow per group-to-group import
    (grey when it goes down; red, and the drawing is wrong, when it does not)."""
    import matplotlib

    matplotlib.use("Agg")
    matplotlib.rcParams.update({"svg.fonttype": "none", "svg.hashsalt": "coinsat"})  # small, same bytes each run
    import matplotlib.pyplot as plt

    used = {g for pair in edges() for g in pair} | {floor(m)[1] for m in MODULES}
    where: dict[str, tuple[float, float]] = {}
    for level, prefixes in enumerate(FLOORS):
        row = [p for p in prefixes if p in used]
        for i, p in enumerate(row):
            where[p] = ((i + 1) / (len(row) + 1) * 10, level * 1.3)
    fig, ax = plt.subplots(figsize=(10, 12))
    for (a, b), n in sorted(edges().items()):
        up = floor(b)[0] >= floor(a)[0]
        ax.annotate(
            "",
            xy=where[b],
            xytext=where[a],
            arrowprops={"arrowstyle": "->", "color": "red" if up else "0.6", "lw": 0.4 + 0.15 * min(n, 10)},
        )
    for p, (x, y) in where.items():
        label = p or "coinsat (package root)"
        ax.text(
            x, y, label, ha="center", va="center", fontsize=8, bbox={"boxstyle": "round", "fc": "white", "ec": "0.3"}
        )
    for level in range(len(FLOORS)):
        ax.text(-0.4, level * 1.3, f"floor {level}", ha="right", va="center", fontsize=8, color="0.4")
    ax.set_xlim(-1.6, 10.4)
    ax.set_ylim(-0.8, len(FLOORS) * 1.3)
    ax.axis("off")
    ax.set_title("coinsat: imports between layers (arrows point at the imported layer; all go down)", fontsize=10)
    fig.savefig(path, metadata={"Date": None}, bbox_inches="tight")


if __name__ == "__main__":
    import sys

    draw(sys.argv[1] if len(sys.argv) > 1 else "docs/layers.svg")
