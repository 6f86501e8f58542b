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
    ("geometry", "registry", "limits", "environment"),
    ("configuration", "board"),
    ("rules", "instance"),
    ("solution", "theory"),
    ("result", "families"),
    ("encode", "backends"),
    ("search", "constructive", "io", "draw"),
    ("certificates", "certificates.check"),
    ("certificates.prove",),
    ("solve", "export", "count", "census", "improve", "pack", "hwmcc"),
    ("gallery", "certify"),
    ("commands",),
    ("cli",),
    # "" is the package root (its public API)
    ("__main__", ""),
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
KNOWN_SOLVER_IMPORTS: set[str] = set()


def test_pysat_solvers_are_imported_by_the_backends_alone():
    found = {v for m, p in sorted(MODULES.items()) for v in solver_imports(m, p.read_text())}
    assert sorted(found - KNOWN_SOLVER_IMPORTS) == []
    assert sorted(KNOWN_SOLVER_IMPORTS - found) == []  # moved ones leave the list


def test_the_solver_import_test_sees_one():
    assert solver_imports("certificates.prove.x", "def f():\n    from pysat.solvers import Solver\n")
    assert solver_imports("theory.x", "import pysat.solvers\n")
    assert not solver_imports("backends.sat_backend", "from pysat.solvers import Solver\n")
    assert not solver_imports("encode.sat", "from pysat.formula import IDPool\n")


def test_the_private_import_test_sees_one():
    assert private_imports("search.x", "from .spanbfs import _Outcome\n")
    assert not private_imports("search.x", "from .layered import Outcome\n")


# --- the laboratory: lab/ and scripts/ over the public surface ---------------------------------

REPO = ROOT.parent
#: the laboratory's files: lab/ and the scripts that launch it
LAB_FILES = sorted(REPO.glob("lab/**/*.py")) + sorted(REPO.glob("scripts/*.py"))
#: scripts outside the rule: the referee's checker is standalone by design (it imports no coinsat)
LAB_EXEMPT = {"scripts/referee_check.py"}


#: The engine's own benchmark harness (``lab/kernels/``): white-box benchmarks that may import internal
#: modules, each with the reason a public entry point (``coinsat.solve`` and its options) would not
#: measure what it claims.  Every file of ``lab/kernels/`` is listed; only its launcher imports it.
LAB_KERNELS: dict[str, str] = {
    "lab/kernels/rank_kernel_bench.py": "times rankbfs's compiled kernels (expansion, dedup, merge, the visited "
    "set, the heap) one by one on real layers, each against the kernel it replaced",
    "lab/kernels/rank_engine_bench.py": "runs a baseline commit's rankbfs module (older than the options of "
    "coinsat.solve) against this one, and profiles by the engine's own functions",
    "lab/kernels/scale_bench.py": "times the rank keys (colex), the compiled expansion, the certificate writer "
    "without its check (checked in a process of its own) and a baseline checker, beside whole solves",
    "lab/kernels/lm_cut_cost.py": "times LM-cut per state on sampled states of the ranked space, a baseline "
    "commit's kernel against this one's",
    "lab/kernels/forced_support_study.py": "checks its own h+ against the engine's Space.heuristic on every "
    "sampled state",
    "lab/kernels/perimeter_search.py": "builds the perimeter (a backward Ball around the goal) layer by layer "
    "and compares the engine's heuristics on it",
    "lab/kernels/lrat_bench.py": "times the DRAT-to-LRAT conversion and the linear LRAT check, the functions "
    "themselves, beside the DRAT check and the referee script",
    "lab/kernels/symmetry_bench.py": "runs the ranked engine itself (no screens, no plan), the compiled kernels "
    "preloaded, plain against quotient, and reads the engine's symmetry group",
}


def _public() -> tuple[set[str], set[str]]:
    """(the names of coinsat.__all__, the public modules) -- tests/test_api.py:PUBLIC_MODULES."""
    import coinsat
    from tests.test_api import public_modules

    return set(coinsat.__all__), set(public_modules())


def _module(name: str) -> bool:
    rel = name.split(".")[1:]
    return bool(rel) and (
        (ROOT.joinpath(*rel).with_suffix(".py")).is_file() or (ROOT.joinpath(*rel) / "__init__.py").is_file()
    )


def lab_imports(source: str, names: set[str], modules: set[str]) -> list[str]:
    """What a laboratory file reaches beyond coinsat's public surface: internal modules
    (``coinsat.search.methods``) and private names (``coinsat.rules._x``), from ``import``,
    ``from ... import`` and attributes of ``coinsat`` itself (``coinsat.search``)."""
    out: list[str] = []

    def module(name: str) -> None:
        if name not in modules:
            out.append(name)

    aliases = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            for a in node.names:
                if a.name == "coinsat":
                    aliases.add(a.asname or "coinsat")
                elif a.name.startswith("coinsat."):
                    module(a.name)
        elif isinstance(node, ast.ImportFrom) and not node.level and (node.module or "").split(".")[0] == "coinsat":
            for a in node.names:
                full = f"{node.module}.{a.name}"
                if node.module == "coinsat" and a.name in names:
                    continue  # the root's name wins where a module has it too (coinsat.solve)
                if _module(full):
                    module(full)
                elif node.module == "coinsat":
                    out.append(full)
                elif node.module not in modules:
                    module(node.module)
                elif a.name.startswith("_"):
                    out.append(full)
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in aliases:
            full = f"coinsat.{node.attr}"
            dunder = node.attr.startswith("__") and node.attr.endswith("__")
            if node.attr not in names and not dunder and not (_module(full) and full in modules):
                out.append(full)
    return out


#: Internal modules the laboratory (outside ``lab/kernels/``) still reaches: none.  lab/ came out of the
#: package reaching into 43; each became public properly (exported, documented, in tests/test_api.py)
#: or left the lab's code.  The list may only shrink: keep it empty.
KNOWN_INTERNAL: set[str] = set()


def test_the_laboratory_imports_only_public_names():
    names, modules = _public()
    found = {}
    for path in LAB_FILES:
        rel = path.relative_to(REPO).as_posix()
        if rel not in LAB_EXEMPT and rel not in LAB_KERNELS:
            for target in lab_imports(path.read_text(), names, modules):
                found.setdefault(target, set()).add(rel)
    new = {t: sorted(w) for t, w in found.items() if t not in KNOWN_INTERNAL}
    assert not new, "\n".join(f"{t} (from {', '.join(w)})" for t, w in sorted(new.items()))
    assert sorted(KNOWN_INTERNAL - set(found)) == []  # no longer reached: drop it from the list


def test_the_kernel_harness_is_named_file_by_file_and_imported_by_its_launchers_alone():
    """Every module of ``lab/kernels/`` has its line (and reason) in LAB_KERNELS and every line its
    file; nothing else in the laboratory imports ``lab.kernels`` but each one's own launcher."""
    found = {p.relative_to(REPO).as_posix() for p in REPO.glob("lab/kernels/*.py") if p.name != "__init__.py"}
    assert sorted(found - set(LAB_KERNELS)) == []  # a new kernel benchmark needs its line and reason
    assert sorted(set(LAB_KERNELS) - found) == []  # a moved or deleted one leaves the list
    assert all(reason.strip() for reason in LAB_KERNELS.values())
    bad = []
    for path in LAB_FILES:
        rel = path.relative_to(REPO).as_posix()
        for node in ast.walk(ast.parse(path.read_text())):
            got = [a.name for a in node.names] if isinstance(node, ast.Import) else []
            got += [node.module or ""] if isinstance(node, ast.ImportFrom) and not node.level else []
            for n in got:
                if n == "lab.kernels" or n.startswith("lab.kernels."):
                    launcher = f"scripts/{n.rpartition('.')[2]}.py"
                    if rel != launcher or f"lab/kernels/{n.rpartition('.')[2]}.py" not in LAB_KERNELS:
                        bad.append(f"{rel} imports {n}")
    assert bad == []


def test_the_laboratory_test_sees_an_internal_import():
    names, modules = _public()
    assert lab_imports("from coinsat.search.driver import solve_sat\n", names, modules) == ["coinsat.search.driver"]
    assert lab_imports("import coinsat\ncoinsat.search.driver.solve_sat()\n", names, modules) == ["coinsat.search"]
    assert lab_imports("from coinsat.rules import _Move\n", names, modules) == ["coinsat.rules._Move"]
    assert lab_imports("from coinsat import solve_auto\n", names, modules) == ["coinsat.solve_auto"]
    assert lab_imports("from coinsat.search import driver\n", names, modules) == ["coinsat.search.driver"]
    assert lab_imports("from coinsat.certificates import prove\n", names, modules) == ["coinsat.certificates.prove"]
    ok = "import coinsat\nfrom coinsat import solve, families\nfrom coinsat.theory.reach import lower_bound\n"
    ok += "from coinsat.search.methods import ENGINES\nfrom coinsat.certificates import check\n"
    assert lab_imports(ok + "coinsat.verify\ncoinsat.families.vdiag\n", names, modules) == []


def test_nothing_in_the_package_imports_the_laboratory():
    bad = []
    for m, p in sorted(MODULES.items()):
        for node in ast.walk(ast.parse(p.read_text())):
            got = [a.name for a in node.names] if isinstance(node, ast.Import) else []
            got += [node.module or ""] if isinstance(node, ast.ImportFrom) and not node.level else []
            bad += [f"coinsat.{m} imports {n}" for n in got if n == "lab" or n.startswith("lab.")]
    assert bad == []


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


def _lab_targets(source: str, names: set[str]) -> set[str]:
    """The coinsat modules a laboratory file imports ("coinsat" for the root's public names)."""
    out, aliases = set(), set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            for a in node.names:
                if a.name == "coinsat":
                    aliases.add(a.asname or "coinsat")
                elif a.name.startswith("coinsat."):
                    out.add(a.name)
        elif isinstance(node, ast.ImportFrom) and not node.level and (node.module or "").split(".")[0] == "coinsat":
            for a in node.names:
                full = f"{node.module}.{a.name}"
                if node.module == "coinsat" and a.name in names:
                    out.add("coinsat")
                else:
                    out.add(full if _module(full) else node.module or "coinsat")
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in aliases:
            full = f"coinsat.{node.attr}"
            out.add(full if node.attr not in names and _module(full) else "coinsat")
    return out


def _group(target: str) -> str:
    """The floor group (FLOORS' prefix) of a module named ``coinsat.x`` (of a private name in it)."""
    rel = target[len("coinsat.") :] if target != "coinsat" else ""
    while rel not in MODULES and "." in rel:
        rel = rel.rpartition(".")[0]
    return floor(rel if rel in MODULES else "")[1]


def lab_edges() -> dict[tuple[str, str], tuple[int, bool]]:
    """(laboratory group, coinsat group) -> (files importing it, whether every import lands on a
    public name); the groups are ``lab`` (lab/ and scripts/) and ``lab/kernels`` (LAB_KERNELS)."""
    names, modules = _public()
    out: dict[tuple[str, str], tuple[int, bool]] = {}
    for path in LAB_FILES:
        rel = path.relative_to(REPO).as_posix()
        if rel in LAB_EXEMPT:
            continue
        mine = "lab/kernels" if rel in LAB_KERNELS else "lab"
        source = path.read_text()
        internal = {_group(t) for t in lab_imports(source, names, modules)}
        for group in {_group(t) for t in _lab_targets(source, names)} | internal:
            n, ok = out.get((mine, group), (0, True))
            out[mine, group] = (n + 1, ok and group not in internal)
    return out


def test_the_drawing_has_the_laboratory_landing_on_public_names():
    """Above the floors, ``lab`` imports groups of the library; an arrow is public unless it is one
    of KNOWN_INTERNAL's (the kernels' harness is drawn apart, LAB_KERNELS)."""
    found = lab_edges()
    internal = sorted(g for (m, g), (_, ok) in found.items() if m == "lab" and not ok)
    assert internal == sorted({_group(k) for k in KNOWN_INTERNAL})
    assert ("lab", "") in found and found["lab", ""][1]  # the root's verbs, the most used door


def draw(path: str) -> None:
    """The floors bottom to top, one box per group, an arrow per group-to-group import
    (grey when it goes down; red, and the drawing is wrong, when it does not); above them the
    laboratory, an arrow per group it imports (blue: public names only)."""
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
    top = len(FLOORS) * 1.3 + 0.4
    where["lab"], where["lab/kernels"] = (3.5, top), (7.5, top)
    for (a, b), (n, ok) in sorted(lab_edges().items()):
        colour = "tab:orange" if a == "lab/kernels" else "tab:blue" if ok else "red"
        ax.annotate(
            "",
            xy=where[b],
            xytext=where[a],
            arrowprops={"arrowstyle": "->", "color": colour, "lw": 0.4 + 0.1 * min(n, 10), "alpha": 0.6},
        )
    ax.text(-0.4, top, "laboratory", ha="right", va="center", fontsize=8, color="0.4")
    for p, (x, y) in where.items():
        label = {"": "coinsat (package root)", "lab": "lab (studies, scripts)"}.get(p, p)
        ax.text(
            x, y, label, ha="center", va="center", fontsize=8, bbox={"boxstyle": "round", "fc": "white", "ec": "0.3"}
        )
    for level in range(len(FLOORS)):
        ax.text(-0.4, level * 1.3, f"floor {level}", ha="right", va="center", fontsize=8, color="0.4")
    ax.set_xlim(-1.6, 10.4)
    ax.set_ylim(-0.8, top + 0.8)
    ax.axis("off")
    ax.set_title(
        "coinsat: imports between layers (arrows point at the imported layer; all go down)\n"
        "lab above the library: blue lands on public names, red on internal ones (KNOWN_INTERNAL), "
        "orange is the kernels' harness (LAB_KERNELS)",
        fontsize=10,
    )
    fig.savefig(path, metadata={"Date": None}, bbox_inches="tight")


if __name__ == "__main__":
    import sys

    draw(sys.argv[1] if len(sys.argv) > 1 else "docs/layers.svg")
