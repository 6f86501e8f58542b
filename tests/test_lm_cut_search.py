"""rankbfs with ``--heuristic lmcut``: the compiled LM-cut (coinsat/search/rank/lmcut.py) against
the reference (coinsat/theory/relaxed.py), and the search pruned by it against the fill h.

The kernel must give theory.relaxed.h_lm's value on every state (no cap), and with a cap
U - t the same decision t + h <= U with a value never above h_lm (docs/lm-cut.md §3 and the
module docstring of lmcut.py): on random configurations of random small puzzles and on states
sampled from the layers of a bounded search of V(2,2)->SW-NE.  The search with the LM-cut h
meets the goal at the stored solution's length L with U = L (same optimum as the fill h, fewer
states) and ends with "no solution within U moves" at U = L - 1; its solutions are replayed
by the engine (rules.py) before they are returned.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from coinsat import Status, read_instance
from coinsat.errors import UsageError
from coinsat.search.rank.space import Space
from coinsat.solution import verify
from coinsat.solve import solve
from coinsat.study.proofs import known_length
from coinsat.theory.relaxed import h_lm

from .strategies import lattice_puzzles

ROOT = Path(__file__).resolve().parent.parent
FAMILIES = ROOT / "instances" / "families"
SETTINGS = settings(max_examples=50, deadline=None, suppress_health_check=list(HealthCheck))
#: random unlabeled puzzles on the square or triangular grid, d = 1..3
PUZZLES = lattice_puzzles(lattices=("square", "square", "triangular"), max_side=6, max_coins=8, adjacency=(2, 2, 1, 3))


def _masks(space: Space, ranks: np.ndarray) -> list[int]:
    return [sum(1 << c for c in space.cells_of_rank(int(r))) for r in ranks]


def _compare(instance, ranks: np.ndarray, depths: np.ndarray, U: int) -> None:
    """The kernel's exact values = h_lm; its capped values decide as h_lm does, never above it."""
    space = Space(instance, True, U, "lmcut")
    goals = space._goal_masks()
    want = np.array([h_lm(instance.board, instance.d, C, goals) for C in _masks(space, ranks)], dtype=np.int64)
    got = space.inner_heuristic(ranks)
    assert got.tolist() == want.tolist()
    for t in np.unique(depths):
        at = depths == t
        capped = space.heuristic(ranks[at], int(t))
        assert ((t + capped <= U) == (t + want[at] <= U)).all()
        assert (capped <= want[at]).all()


@SETTINGS
@given(PUZZLES, st.randoms(use_true_random=False), st.integers(0, 12))
def test_kernel_equals_reference_on_random_states(instance, rnd, U):
    """Random configurations (and the start) of random puzzles: the compiled h_lm = the reference."""
    pytest.importorskip("numba")
    space = Space(instance, True, U, "lmcut")
    n, k = instance.board.size, instance.n_coins
    cells = [sorted(rnd.sample(range(n), k)) for _ in range(30)] + [sorted(instance.start.cells)]
    ranks = np.array([space.rank_of_cells(c) for c in cells], dtype=np.uint64)
    depths = np.array([rnd.randrange(0, U + 2) for _ in cells], dtype=np.int64)
    _compare(instance, ranks, depths, U)


def test_kernel_equals_reference_on_vdiag_2_2_swne_layers():
    """States sampled from every layer of the fill-pruned search of V(2,2)->SW-NE with U = 35."""
    pytest.importorskip("numba")
    inst = read_instance(FAMILIES / "vdiag-2-2-swne.toml")
    U = 35
    r = solve(inst, "rankbfs", upper_bound=U, workers=1)
    assert r.status is Status.BOUNDED
    visited = r.witness
    rng = np.random.default_rng(7)
    ranks, depths = [], []
    for t in range(visited.depths):
        layer = visited.layer(t)
        pick = layer[rng.choice(layer.size, min(layer.size, 12), replace=False)]
        ranks.append(pick)
        depths += [t] * pick.size
    _compare(inst, np.concatenate(ranks), np.array(depths, dtype=np.int64), U)


def _run(name: str, U: int, h: str, **extra):
    inst = read_instance(FAMILIES / f"{name}.toml")
    return inst, solve(inst, "rankbfs", upper_bound=U, heuristic=h, workers=1, **extra)


@pytest.mark.parametrize(
    "name", ["vdiag-2-2-nwse", "vdiag-2-2-swne", pytest.param("vdiag-3-2-nwse", marks=pytest.mark.slow)]
)
def test_lmcut_search_same_optimum_as_fill(name):
    """U = L: both h meet the goal at L (the solution replayed), LM-cut keeping fewer states;
    U = L - 1: both end with no solution within U moves; the witness names h = "lmcut"."""
    inst = read_instance(FAMILIES / f"{name}.toml")
    L = known_length(inst, FAMILIES / "solutions" / f"{name}.json")
    assert L is not None
    _, fill = _run(name, L, "fill")
    _, lm = _run(name, L, "lmcut")
    assert fill.status is lm.status is Status.OPTIMAL
    assert fill.length == lm.length == L
    assert verify(inst, lm.solution, keep_trace=False).ok
    assert lm.stats["states"] < fill.stats["states"]
    assert lm.witness.heuristic == "lmcut"
    _, below = _run(name, L - 1, "lmcut")
    assert below.status is Status.BOUNDED


def test_lmcut_with_perimeter_and_workers():
    """--perimeter R over the LM-cut h, and two workers, keep the same optimum; the two workers
    keep the same states as one process."""
    name = "vdiag-2-2-nwse"
    inst = read_instance(FAMILIES / f"{name}.toml")
    L = known_length(inst, FAMILIES / "solutions" / f"{name}.json")
    _, one = _run(name, L, "lmcut")
    _, per = _run(name, L, "lmcut", perimeter=2)
    assert per.status is Status.OPTIMAL and per.length == L
    assert per.witness.heuristic == {"kind": "perimeter", "r": 2, "inner": "lmcut"}
    two = solve(inst, "rankbfs", upper_bound=L, heuristic="lmcut", workers=2)
    assert two.status is Status.OPTIMAL and two.length == L
    assert two.stats["states"] == one.stats["states"]


def test_heuristic_options():
    """--forced-supports is --heuristic forced; a conflict or an h without a bound is a usage error."""
    inst = read_instance(FAMILIES / "vdiag-2-2-nwse.toml")
    a = solve(inst, "rankbfs", upper_bound=24, forced_supports=True, workers=1)
    b = solve(inst, "rankbfs", upper_bound=24, heuristic="forced", workers=1)
    assert a.stats["states"] == b.stats["states"]
    with pytest.raises(UsageError):
        solve(inst, "rankbfs", upper_bound=24, forced_supports=True, heuristic="lmcut", workers=1)
    with pytest.raises(UsageError):
        solve(inst, "rankbfs", heuristic="lmcut", workers=1)


def test_cli_heuristic_lmcut():
    """coinsat solve --method rankbfs --upper-bound SOL --heuristic lmcut: optimal, exit 0; a bad
    name is refused by the argument parser (exit 2)."""
    sol = FAMILIES / "solutions" / "vdiag-2-2-nwse.json"
    cmd = [sys.executable, "-m", "coinsat", "solve", str(FAMILIES / "vdiag-2-2-nwse.toml"), "--method", "rankbfs"]
    cmd += ["--upper-bound", str(sol), "--workers", "1", "--json"]
    out = subprocess.run(cmd + ["--heuristic", "lmcut"], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout)["status"] == "optimal"
    bad = subprocess.run(cmd + ["--heuristic", "lm"], capture_output=True, text=True)
    assert bad.returncode == 2 and "Traceback" not in bad.stderr


def test_lmcut_layers_resume_and_refuse_another_h(tmp_path):
    """--resume: the manifest names h = "lmcut"; the same search resumes from it, one with the
    fill h is refused (layers pruned otherwise)."""
    from coinsat.search.options import RankbfsOptions
    from coinsat.search.rank.search import solve_rankbfs

    inst = read_instance(FAMILIES / "vdiag-2-2-nwse.toml")
    opts = RankbfsOptions(workers=1, upper_bound=24, heuristic="lmcut", resume=str(tmp_path))
    assert solve_rankbfs(inst, options=opts).length == 24
    again = solve_rankbfs(inst, options=opts)
    assert again.length == 24 and "resumed" in again.stats
    with pytest.raises(UsageError):
        solve_rankbfs(inst, options=RankbfsOptions(workers=1, upper_bound=24, resume=str(tmp_path)))


def test_cli_certificate_names_lmcut_and_is_accepted(tmp_path):
    """--certify: the layers certificate of an LM-cut search names "h": "lmcut" and the checker
    (certificates/check, its own kernel) accepts it."""
    sol = FAMILIES / "solutions" / "vdiag-2-2-nwse.json"
    cmd = [sys.executable, "-m", "coinsat", "solve", str(FAMILIES / "vdiag-2-2-nwse.toml"), "--method", "rankbfs"]
    cmd += ["--upper-bound", str(sol), "--heuristic", "lmcut", "--workers", "1", "--certify", str(tmp_path)]
    out = subprocess.run(cmd, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert "accepted" in out.stdout
    (cert,) = tmp_path.glob("*.certificate.json")
    got = json.loads(cert.read_text())
    assert got["kind"] == "layers" and got["h"] == "lmcut" and got["upper_bound"] == 24
