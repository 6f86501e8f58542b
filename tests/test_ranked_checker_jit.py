"""The ranked checker's compiled kernel (certificates/check/rankedjit.py) against its numpy kernel (ranked.py).

Both must ask for the same successors (same span test, same perimeter cap, same ranks) and give
the same h, on windows of one, two and three words and on graphs with 1 <= d <= 4; and a whole
certificate must get the same verdict from either (accepted, or rejected when tampered with).
"""

from __future__ import annotations

import json

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from coinsat.certificates.check import check_certificate
from coinsat.certificates.check.layers import numpy_successors
from coinsat.certificates.check.ranked import Decoder, Kernel, edge_cap
from coinsat.instance import make_instance

rankedjit = pytest.importorskip("coinsat.certificates.check.rankedjit")
if not rankedjit.warm_up():  # pragma: no cover - without numba only the numpy kernel exists
    pytest.skip("numba is not installed", allow_module_level=True)


def _numpy_successors(dec, ker, ranks, need, cap):
    parts = numpy_successors(dec, ker, ranks, need, cap)
    return np.unique(np.concatenate(parts)) if parts else np.zeros(0, dtype=np.uint64)


def _case(rnd, kind, size):
    """An instance on a window of ``size`` cells (square side or graph order) with random goals."""
    if kind == "square":
        cells = [(x, y) for x in range(size) for y in range(size)]
        coins = rnd.randint(4, 9)
        start = rnd.sample(cells, coins)
        inst = make_instance("square", start, start, adjacency=2, cells=cells)
    else:
        cells = list(range(size))
        edges = sorted(
            {tuple(sorted(rnd.sample(cells, 2))) for _ in range(2 * size)} | {(i, i + 1) for i in range(size - 1)}
        )
        coins = rnd.randint(4, 8)
        start = rnd.sample(cells, coins)
        inst = make_instance("graph", start, start, adjacency=rnd.randint(1, 4), edges=edges, cells=cells)
    return inst, list(inst.board.coords), coins


@settings(max_examples=40, deadline=None)
@given(
    st.sampled_from([("square", 7), ("square", 9), ("square", 12), ("graph", 60), ("graph", 90), ("graph", 150)]),
    st.booleans(),
    st.randoms(use_true_random=False),
)
def test_compiled_kernel_is_the_numpy_kernel(board, capped, rnd):
    inst, cells, k = _case(rnd, *board)
    n = len(cells)
    ker, dec = Kernel(inst, cells), Decoder(n, k)
    goal_pos = np.array([sorted(rnd.sample(range(n), k)) for _ in range(rnd.randint(1, 3))], dtype=np.int64)
    goal_words = ker.words(goal_pos)
    goals = [goal_words[:, g : g + 1] for g in range(goal_words.shape[1])]
    spans = ker.span(goal_words)
    need = [row[:, None].copy() for row in np.unique(spans.T, axis=0)]
    square = board[0] == "square"
    cap = edge_cap(cells, need, k) if capped and square else None
    # configurations near the goals (so that spans hit them) and anywhere
    ranks = []
    for _ in range(60):
        if rnd.random() < 0.5:
            base = set(goal_pos[rnd.randrange(len(goal_pos))].tolist())
            for _ in range(rnd.randint(0, 3)):
                base.remove(rnd.choice(sorted(base)))
                base.add(rnd.choice([c for c in range(n) if c not in base]))
            config = sorted(base)
        else:
            config = sorted(rnd.sample(range(n), k))
        ranks.append(int(dec.ranks(np.array([config], dtype=np.int64))[0]))
    ranks = np.unique(np.array(ranks, dtype=np.uint64))
    ex = rankedjit.Expander(dec, ker, need, goals, cap)
    ex.buffer = np.empty(k * n + rnd.randint(0, 3 * k * n), dtype=np.uint64)  # refilled many times
    got = ex.successors(ranks)
    got = np.unique(np.concatenate(got)) if got else np.zeros(0, dtype=np.uint64)
    want = _numpy_successors(dec, ker, ranks, need, cap)
    assert np.array_equal(got, want)
    probe = np.unique(np.concatenate([ranks, want]))
    assert np.array_equal(ex.h(probe), ker.h(ker.words(dec.positions(probe)), goals))


def _diag_certificate(tmp_path, upper_bound):
    from coinsat.certificates.prove.make import certify
    from coinsat.io.instance_format import read_instance
    from coinsat.solve import solve

    inst = read_instance("instances/paper/diagonal.toml")
    done = certify(inst, solve(inst, "rankbfs", upper_bound=upper_bound), tmp_path)
    return inst, json.loads(done.path.read_text())


@pytest.mark.parametrize("upper_bound", [None, 18])
def test_both_kernels_give_the_same_verdicts(tmp_path, monkeypatch, upper_bound):
    """An accepted certificate is accepted by the compiled kernel, and a dropped configuration, or
    a bound below the one searched with, is rejected by it as by the numpy kernel."""
    from .test_layers_certificate import _rewrite_ranks

    inst, cert = _diag_certificate(tmp_path, upper_bound)

    def drop(layers):
        layers["L9"] = layers["L9"][1:]

    other = tmp_path / "dropped"
    other.mkdir()
    (other / cert["layers"]).write_bytes((tmp_path / cert["layers"]).read_bytes())
    dropped = _rewrite_ranks(other, cert, drop)
    verdicts = {}
    for mode in ("numpy", "numba"):
        monkeypatch.setenv("COINSAT_CHECK_KERNEL", mode)
        verdicts[mode] = (
            check_certificate(inst, cert, tmp_path).ok,
            check_certificate(inst, dropped, other).ok,
        )
    assert verdicts["numba"] == verdicts["numpy"] == (True, False)


@pytest.mark.parametrize("upper_bound", [None, 18])
def test_threads_give_the_same_verdicts_and_reasons(tmp_path, monkeypatch, upper_bound):
    """Chunks of seven configurations on 1, 2 and 3 threads: the accepted certificate is accepted,
    a layer with a configuration dropped is rejected with the same reason on every thread count
    (the first failing chunk in order), and a deadline already past stops the threaded check."""
    import threading

    from coinsat.certificates.check import layers
    from coinsat.errors import LimitReached

    from .test_layers_certificate import _rewrite_ranks

    inst, cert = _diag_certificate(tmp_path, upper_bound)

    def drop(ls):
        for i in (6, 9):
            ls[f"L{i}"] = np.delete(ls[f"L{i}"], [3, ls[f"L{i}"].size // 2])

    other = tmp_path / "dropped"
    other.mkdir()
    (other / cert["layers"]).write_bytes((tmp_path / cert["layers"]).read_bytes())
    dropped = _rewrite_ranks(other, cert, drop)
    monkeypatch.setenv("COINSAT_CHECK_KERNEL", "numba")
    monkeypatch.setattr(layers, "CHUNK", 7)
    seen = []
    for workers in (1, 2, 3):
        good = check_certificate(inst, cert, tmp_path, workers=workers)
        bad = check_certificate(inst, dropped, other, workers=workers)
        assert good.ok and not bad.ok
        seen.append(bad.reason)
        with pytest.raises(LimitReached):
            check_certificate(inst, cert, tmp_path, deadline=0.0, workers=workers)
    assert len(set(seen)) == 1 and "a successor of L" in seen[0]
    assert not [t for t in threading.enumerate() if t.name.startswith("coinsat-check")]


def _imports(module: str, root) -> set[str]:
    """The coinsat modules ``module`` imports (its import statements, relative ones resolved)."""
    import ast

    path = root / (module.replace(".", "/") + ".py")
    if not path.exists():
        path = root / module.replace(".", "/") / "__init__.py"
    package = module.rsplit(".", 1)[0] if path.name != "__init__.py" else module
    out = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom):
            base = package.split(".")
            base = base[: len(base) - node.level + 1] if node.level else []
            name = ".".join(base + ([node.module] if node.module else []))
            out.add(name)
            out.update(f"{name}.{a.name}" for a in node.names)  # "from . import x" may name a module
        elif isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
    return {m for m in out if m.startswith("coinsat") and _exists(m, root)}


def _exists(module: str, root) -> bool:
    rel = module.replace(".", "/")
    return (root / f"{rel}.py").exists() or (root / rel / "__init__.py").exists()


def test_the_checker_kernels_import_nothing_from_the_search():
    """Everything the layers checker and its two kernels import, followed module by module (the
    package's own ``__init__`` aside, which loads the whole API), stays out of coinsat.search."""
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    todo = ["coinsat.certificates.check.layers", "coinsat.certificates.check.rankedjit"]
    seen: set[str] = set()
    while todo:
        module = todo.pop()
        if module in seen or module == "coinsat":
            continue
        seen.add(module)
        todo.extend(_imports(module, root))
    assert "coinsat.certificates.check.ranked" in seen and "coinsat.limits" in seen
    assert not [m for m in seen if m.startswith("coinsat.search")]
