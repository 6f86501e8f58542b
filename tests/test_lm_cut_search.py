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
from itertools import combinations
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from coinsat import Status, read_instance
from coinsat.configuration import bits
from coinsat.errors import UsageError
from coinsat.search.rank.space import Space, fill_h
from coinsat.solution import verify
from coinsat.solve import solve
from coinsat.theory.relaxed import h_lm, lm_cut_one
from coinsat.theory.supports import BIG, h_fill_one, span_of
from lab.proofs import known_length

from .strategies import exact_distances, lattice_puzzles

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
    visited = r.witness.layers
    rng = np.random.default_rng(7)
    ranks, depths = [], []
    for t in range(visited.depths):
        layer = visited.layer(t)
        pick = layer[rng.choice(layer.size, min(layer.size, 12), replace=False)]
        ranks.append(pick)
        depths += [t] * pick.size
    _compare(inst, np.concatenate(ranks), np.array(depths, dtype=np.int64), U)


def _plan_length(nbr_lists, d: int, layer: dict[int, int], C: int, goal_cells: list[int]) -> int:
    """Lemma UP's plan as lmcut.py counts it, in plain Python: the goal cells outside C (ascending)
    on a stack; each cell popped takes, among its actions in the window's order (d-subsets of its
    sorted neighbours), the first with every support on a lower layer and the fewest supports
    neither in C nor needed; those supports become needed (pushed)."""
    need = [t for t in goal_cells if not C >> t & 1]
    stack, length, marked = list(need), len(need), set(need)
    while stack:
        c = stack.pop()
        best, fewest = None, d + 1
        for P in combinations(sorted(nbr_lists[c]), d):
            if all(layer.get(q, BIG) < layer[c] for q in P):
                new = sum(1 for q in P if not C >> q & 1 and q not in marked)
                if new < fewest:
                    best, fewest = P, new
        assert best is not None
        for q in best:
            if not C >> q & 1 and q not in marked:
                marked.add(q)
                stack.append(q)
                length += 1
    return length


def _capped(instance, C: int, goals: list[list[int]], cap: int) -> int:
    """The value lmcut.py's kernel returns for a state C with ``cap`` (module docstring), from the
    reference's pieces: per goal placement (in order) its fill schedule, Lemma UP's plan and the
    rounds of docs/lm-cut.md §3 (stopped past the cap: min(LM, cap + 1))."""
    nbr, d = instance.board.neighbour_masks, instance.d
    span = span_of(nbr, d, C)
    layer, cur, j = {q: 0 for q in bits(C)}, C, 0
    while cur != span:
        j += 1
        new = [c for c in bits(span & ~cur) if (nbr[c] & cur).bit_count() >= d]
        layer.update((c, j) for c in new)
        cur |= sum(1 << c for c in new)
    best = BIG
    for cells in goals:
        goal = sum(1 << c for c in cells)
        fill = h_fill_one(nbr, d, C, goal)
        if fill > cap or fill >= best:
            best = min(best, fill)
            continue
        if _plan_length(instance.board.neighbours, d, layer, C, sorted(cells)) <= cap:
            best = fill
            continue
        best = min(best, max(fill, min(lm_cut_one(nbr, d, C, goal), cap + 1)))
    return best


@SETTINGS
@given(PUZZLES, st.randoms(use_true_random=False), st.integers(0, 12))
def test_kernel_capped_values_are_the_specified_ones(instance, rnd, U):
    """The compiled kernel's capped values, exactly (not only their decisions): what the kernel
    before its rewrite returned, written out from the reference's pieces (``_capped``), on random
    configurations of random puzzles at random depths.  The rewrite (span layers by neighbour
    counts, pcf read when needed, the before zone asked backwards) must change no value."""
    pytest.importorskip("numba")
    space = Space(instance, True, U, "lmcut")
    n, k = instance.board.size, instance.n_coins
    cells = [sorted(rnd.sample(range(n), k)) for _ in range(20)] + [sorted(instance.start.cells)]
    ranks = np.array([space.rank_of_cells(c) for c in cells], dtype=np.uint64)
    goals = [[int(c) for c in g] for g in space.goals]
    for t in range(0, U + 1, max(1, U // 2)):
        got = space.inner_heuristic(ranks, U - t)
        fill = fill_h(space, ranks)
        want = [
            f if f > U - t else _capped(instance, sum(1 << c for c in cs), goals, U - t)
            for cs, f in zip(cells, fill.tolist())
        ]
        assert got.tolist() == want


@SETTINGS
@given(lattice_puzzles(max_side=4, max_coins=6, adjacency=(2, 2, 3)), st.randoms(use_true_random=False))
def test_kernel_admissible_against_exact_distances(instance, rnd):
    """Theorem LM for the compiled kernel (not only the reference): on configurations reachable
    from the start of random small puzzles (all, or 150 drawn, the start among them), the kernel's
    h_lm is at most the exact distance to the goal (BFS over rules.successors), and at least the
    fill h."""
    pytest.importorskip("numba")
    dist, _ = exact_distances(instance)
    states = sorted(dist)
    if len(states) > 150:
        states = rnd.sample(states, 149) + [instance.start.mask]
    space = Space(instance, True, 0, "lmcut")
    ranks = np.array([space.rank_of_cells(list(bits(x))) for x in states], dtype=np.uint64)
    got = space.inner_heuristic(ranks).tolist()
    fill = fill_h(space, ranks).tolist()
    for x, h, f in zip(states, got, fill):
        assert f <= h, (x, f, h)
        assert h <= dist[x], (x, h, dist[x])
        if h >= BIG:
            assert dist[x] == float("inf")


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
    assert lm.witness.layers.heuristic == "lmcut"
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
    assert per.witness.layers.heuristic == {"kind": "perimeter", "r": 2, "inner": "lmcut"}
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


@SETTINGS
@given(PUZZLES)
def test_actions_tables_beside_by_sup(instance):
    """The tables the rounds read instead of an action's row (lmcut.py, ``Actions``): ``supf`` is
    ``sup`` flat (row a at a * d); beside each entry of ``by_sup`` (cell p, action a), ``sup_eff``
    is a's cell and, for d = 2, ``sup_other`` a's support other than p; every action of the window,
    with each of its supports, is an entry once.  A wrong entry would change the h^max update."""
    from coinsat.search.rank.lmcut import Actions

    d = instance.d
    nbr = [sorted(instance.board.neighbours[c]) for c in range(instance.board.size)]
    acts = Actions(nbr, d)
    assert acts.supf.reshape(-1, d).tolist() == acts.sup.tolist()
    pairs = []
    for p in range(acts.n):
        for t in range(int(acts.sup_at[p]), int(acts.sup_at[p + 1])):
            a = int(acts.by_sup[t])
            P = acts.sup[a].tolist()
            assert p in P and int(acts.sup_eff[t]) == int(acts.eff[a]) and p in nbr[int(acts.eff[a])]
            if d == 2:
                assert sorted([p, int(acts.sup_other[t])]) == P
            pairs.append((a, p))
    assert sorted(pairs) == sorted((a, int(q)) for a in range(acts.size) for q in acts.sup[a])


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 70), st.data())
def test_unrank_cells_by_bisection_is_colex(n, data):
    """Lemma CB (docs/lm-cut.md): the kernel's unranking (a bisection a cell) is colex's own,
    on random ranks of k-subsets of n cells (the first and the last rank among them)."""
    pytest.importorskip("numba")
    from math import comb

    from coinsat.search.rank.colex import Colex
    from coinsat.search.rank.lmcut import unrank_cells

    k = data.draw(st.integers(1, min(n, 14)))
    top = comb(n, k) - 1
    ranks = np.array(sorted({0, top, *data.draw(st.lists(st.integers(0, top), max_size=40))}), dtype=np.uint64)
    colex = Colex(n, k)
    got = unrank_cells(ranks, k, n, colex.binom)
    assert got.tolist() == colex.unrank(ranks).tolist()
    assert (colex.rank(got.astype(np.int64)) == ranks).all()


@pytest.mark.parametrize(
    "name,U",
    [
        ("vdiag-2-2-nwse", 23),  # the reference: about 25 CPU s
        pytest.param("vdiag-2-2-nwse", 24, marks=pytest.mark.slow),  # about 40 s
        pytest.param("vdiag-2-2-swne", 35, marks=pytest.mark.slow),  # about 250 s
    ],
)
def test_search_keeps_the_states_the_reference_h_keeps(monkeypatch, name, U):
    """The search with the compiled kernel (capped, Lemmas UP, ES and PM, unsigned indices) keeps,
    layer for layer, the states that the same search keeps with the reference h_lm of
    ``theory/relaxed.py`` (exact values, no numba: ``compiled`` patched to None), and ends alike."""
    pytest.importorskip("numba")
    from coinsat.search.rank import space as space_module

    inst = read_instance(FAMILIES / f"{name}.toml")
    runs = []
    for reference in (False, True):
        if reference:
            monkeypatch.setattr(space_module, "compiled", lambda: None)
        r = solve(inst, "rankbfs", upper_bound=U, heuristic="lmcut", workers=1)
        v = r.witness.layers  # the ranked visited set
        assert hasattr(v, "layer") and v.depths > 1, "the search's layers are its witness"
        runs.append((r.status, r.length, r.stats.get("states"), [v.layer(t).tolist() for t in range(v.depths)]))
    assert runs[0] == runs[1]
