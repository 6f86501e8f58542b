"""The compiled expansion (search/rank/jit.py, numba) against the numpy one: the same successors
of every state, on random instances up to 144 cells, the span pruning on and off; and the compiled
bound-and-prune h against the numpy one, state for state."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from coinsat.environment import Kernels
from coinsat.families import vdiag
from coinsat.search.layered import unique as _unique
from coinsat.search.options import RankbfsOptions
from coinsat.search.rank import jit as fastkernel
from coinsat.search.rank.colex import U64
from coinsat.search.rank.search import solve_rankbfs
from coinsat.search.rank.space import Space

from .test_rankbfs import wide_walks
from .test_sat import walked

pytestmark = pytest.mark.skipif(not fastkernel.HAVE_NUMBA, reason="numba not installed (the 'fast' extra)")


def _same_successors(inst, prune: bool, ranks: np.ndarray) -> None:
    """numpy and expand_branchfree: the same successors, in any order of the states."""
    space = Space(inst, prune)
    want = space._expand_chunk(ranks)
    fast = fastkernel.FastSpace(space)
    raw = np.sort(fast.expand(ranks))
    assert np.array_equal(want, _unique(raw))
    shuffled = np.random.default_rng(ranks.size).permutation(ranks)  # its unranking starts from the state before
    assert np.array_equal(np.sort(fast.expand(shuffled)), raw)
    assert np.array_equal(fast.successors(ranks), want)


def _states(inst, prune: bool) -> np.ndarray:
    r = solve_rankbfs(inst, max_moves=4, options=RankbfsOptions(prune=prune, grow=False))
    return r.witness.layers.keys if r.witness.layers is not None else np.zeros(0, dtype=U64)


@settings(max_examples=60, deadline=None)
@given(walked(max_coins=5, kinds=("square", "triangular", "graph")), st.booleans())
def test_the_compiled_expansion_is_the_numpy_one(inst, prune):
    if len(inst.labels) > 1 or inst.moves != "jump":
        return
    states = _states(inst, prune)
    if states.size:
        _same_successors(inst, prune, states)


@settings(max_examples=5, deadline=None)
@given(wide_walks(), st.booleans())
def test_the_compiled_expansion_past_64_cells(inst, prune):
    _same_successors(inst, prune, _states(inst, prune))


@st.composite
def random_windows(draw, wide: bool):
    """An instance and random states of its coins (not only reachable ones, so that every
    neighbourhood pattern comes up), on 16 to 64 cells (one word) or, ``wide``, 65 to 180 (two
    words, the scalar path; three, the loops over words): square (a diagonal's box; d = 2 is the
    straight-line four-plane path), triangular, and graphs (a ring with chords; d up to 4, where the
    scalar paths give way to the loops)."""
    from coinsat.instance import make_instance

    kind = draw(st.sampled_from(("square", "triangular", "graph")))
    if kind == "square":
        d = draw(st.sampled_from((1, 2, 2)))  # d = 1: the window is the box grown by 1
        w = draw(st.integers(9, 11) if wide else st.integers(4, 8)) - 2 * (d == 1)
        start = [(i, i) for i in range(w)]
        inst = make_instance("square", start, start, adjacency=d, margin=1)
    elif kind == "triangular":
        x = draw(st.integers(8, 11) if wide else st.integers(4, 7))
        start = [(0, 0), (x, 0), (0, x), (1, 1)]
        inside = [(a, b) for a in range(2, x) for b in range(x - a) if (a, b) not in start]
        start += draw(st.lists(st.sampled_from(inside), max_size=4, unique=True))
        inst = make_instance("triangular", start, start, adjacency=draw(st.integers(1, 2)), margin=1)
    else:
        n = draw(st.integers(65, 180) if wide else st.integers(8, 64))
        cells = list(range(n))
        chords = draw(st.lists(st.tuples(st.sampled_from(cells), st.sampled_from(cells)), min_size=n, max_size=2 * n))
        edges = {(i, (i + 1) % n) for i in cells} | {(min(a, b), max(a, b)) for a, b in chords if a != b}
        k = draw(st.integers(3, min(8, n // 2)))
        ends = draw(st.permutations(cells))
        inst = make_instance(
            "graph", ends[:k], ends[k : 2 * k], adjacency=draw(st.integers(1, 4)), edges=sorted(edges), cells=cells
        )
    cells = list(range(inst.board.size))
    states = draw(st.lists(st.permutations(cells), min_size=20, max_size=40))
    coins = np.sort(np.array([c[: inst.n_coins] for c in states], dtype=np.int64), axis=1)
    return inst, coins


@st.composite
def many_coins(draw):
    """A graph of 67 to 140 cells (a ring with chords) holding 65 to n - 2 coins (C(n, k) stays
    below 2**64: at most 6 holes), and random states of it."""
    from coinsat.instance import make_instance

    n = draw(st.integers(67, 140))
    k = n - draw(st.integers(2, min(6, n - 65)))
    cells = list(range(n))
    chords = draw(st.lists(st.tuples(st.sampled_from(cells), st.sampled_from(cells)), min_size=n, max_size=2 * n))
    edges = {(i, (i + 1) % n) for i in cells} | {(min(a, b), max(a, b)) for a, b in chords if a != b}
    start, goal = draw(st.permutations(cells)), draw(st.permutations(cells))
    inst = make_instance(
        "graph", start[:k], goal[:k], adjacency=draw(st.integers(1, 4)), edges=sorted(edges), cells=cells
    )
    states = draw(st.lists(st.permutations(cells), min_size=5, max_size=20))
    coins = np.sort(np.array([c[:k] for c in states], dtype=np.int64), axis=1)
    return inst, coins


@settings(max_examples=20, deadline=None)
@given(many_coins(), st.booleans())
def test_more_than_64_coins_expand_with_numpy_beside_the_compiled_kernels(case, prune):
    """Past 64 coins (expand_branchfree's coin mask is one word) Space.expand runs the numpy
    expansion, also with the compiled kernels loaded (FAST_MIN lowered to 1)."""
    from coinsat.search.rank import space as rankspace

    inst, coins = case
    assert inst.n_coins > rankspace.MAX_FAST_COINS
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(rankspace, "FAST_MIN", 1)
        space = Space(inst, prune)
        ranks = _unique(space.colex.rank(coins))
        assert space.fast is not None
        assert np.array_equal(space.expand(ranks), _unique(space._expand_chunk(ranks)))


@settings(max_examples=40, deadline=None)
@given(random_windows(wide=True), st.booleans())
def test_the_compiled_expansion_of_random_states_past_64_cells(case, prune):
    inst, coins = case
    assert inst.board.size > 64
    _same_successors(inst, prune, _unique(Space(inst, prune).colex.rank(coins)))


@settings(max_examples=40, deadline=None)
@given(random_windows(wide=False), st.booleans())
def test_the_compiled_expansion_of_random_states_on_one_word(case, prune):
    inst, coins = case
    assert inst.board.size <= 64
    _same_successors(inst, prune, _unique(Space(inst, prune).colex.rank(coins)))


def _same_h(inst, ranks: np.ndarray) -> None:
    """numpy's schedule, schedule_h and schedule_h_words (where it applies; schedule_h elsewhere):
    the same h, state for state, also in a shuffled order (its unranking starts from the state before)."""
    space = Space(inst, True, 10**6)
    space._fast = None  # the numpy schedule
    want = space.heuristic(ranks)
    fast = fastkernel.FastSpace(space)
    kernels = [fastkernel.schedule_h]
    if fast.W <= 2 and 1 <= fast.d <= 3:
        kernels.append(fastkernel.schedule_h_words)
        assert fast.h_kernel is fastkernel.schedule_h_words
    for kernel in kernels:
        fast.h_kernel = kernel
        got = fast.heuristic(ranks)
        assert got.dtype == want.dtype and np.array_equal(want, got), kernel.__name__
        order = np.random.default_rng(ranks.size).permutation(ranks.size)
        assert np.array_equal(fast.heuristic(ranks[order]), want[order]), kernel.__name__


@settings(max_examples=40, deadline=None)
@given(random_windows(wide=True))
def test_the_compiled_h_of_random_states_past_64_cells(case):
    inst, coins = case
    _same_h(inst, _unique(Space(inst).colex.rank(coins)))


@settings(max_examples=40, deadline=None)
@given(random_windows(wide=False))
def test_the_compiled_h_of_random_states_on_one_word(case):
    inst, coins = case
    _same_h(inst, _unique(Space(inst).colex.rank(coins)))


@settings(max_examples=40, deadline=None)
@given(walked(max_coins=5, kinds=("square", "triangular", "graph")))
def test_the_compiled_h_of_reachable_states_and_every_goal_placement(inst):
    if len(inst.labels) > 1 or inst.moves != "jump":
        return
    states = _states(inst, True)
    if states.size:
        _same_h(inst, states)


def test_a_bounded_search_is_the_same_with_either_h(monkeypatch):
    """V(2,1) -> NW-SE with U = its optimum: the same layers and prunings with the compiled h
    (on every batch: FAST_MIN lowered to 1) as with the numpy one."""
    from coinsat.search.rank import space as rankbfs

    inst = vdiag(2, 1, "nwse")
    monkeypatch.setattr(rankbfs, "FAST_MIN", 1)
    calls = []
    real = fastkernel.FastSpace.heuristic
    monkeypatch.setattr(fastkernel.FastSpace, "heuristic", lambda self, r: calls.append(r.size) or real(self, r))
    fast = solve_rankbfs(inst, options=RankbfsOptions(upper_bound=24))
    assert len(calls) >= 20  # one per layer: the compiled h ran
    plain = solve_rankbfs(inst, options=RankbfsOptions(upper_bound=24, kernels=Kernels(compiled=False)))
    assert fast.stats["bound_pruned"] == plain.stats["bound_pruned"] > 0
    assert (fast.status, fast.length, fast.stats["layers"]) == (plain.status, plain.length, plain.stats["layers"])


@settings(max_examples=80, deadline=None)
@given(st.lists(st.integers(0, 2**64 - 1), max_size=300), st.integers(1, 4))
def test_dedup_in_place_is_unique(values, copies):
    a = np.sort(np.array(values * copies, dtype=U64))
    m = fastkernel.dedup_sorted(a)
    assert np.array_equal(a[:m], np.unique(np.array(values, dtype=U64)))


@settings(max_examples=80, deadline=None)
@given(st.lists(st.integers(0, 2**64 - 1), max_size=300), st.integers(1, 3), st.integers(1, 64))
def test_the_radix_sort_is_unique(values, copies, bits):
    """sort_distinct on values below 2**bits (1 to 6 digit passes, odd and even counts): np.unique."""
    a = np.array([v >> (64 - bits) for v in values] * copies, dtype=U64)
    np.random.default_rng(len(values)).shuffle(a)
    assert np.array_equal(fastkernel.sort_distinct(a.copy(), bits), np.unique(a))


def test_the_h_kernel_follows_the_words():
    assert fastkernel.heuristic_kernel(1, 2) is fastkernel.schedule_h_words
    assert fastkernel.heuristic_kernel(2, 3) is fastkernel.schedule_h_words
    assert fastkernel.heuristic_kernel(3, 2) is fastkernel.schedule_h  # three words: the loops
    assert fastkernel.heuristic_kernel(1, 4) is fastkernel.schedule_h  # d = 4: the loops


@pytest.mark.parametrize("upper_bound", [24, 23])
def test_a_bounded_search_is_the_same_with_either_compiled_h(monkeypatch, upper_bound):
    """V(2,1) -> NW-SE at U = its optimum and one less, every batch compiled: schedule_h (the loops
    of three and four words, forced here on one) and schedule_h_words keep the same layers and
    prune the same."""
    from coinsat.search.rank import space as rankspace

    monkeypatch.setattr(rankspace, "FAST_MIN", 1)
    inst = vdiag(2, 1, "nwse")
    new = solve_rankbfs(inst, options=RankbfsOptions(upper_bound=upper_bound, workers=1))
    monkeypatch.setattr(fastkernel, "heuristic_kernel", lambda W, d: fastkernel.schedule_h)
    old = solve_rankbfs(inst, options=RankbfsOptions(upper_bound=upper_bound, workers=1))
    assert new.stats["bound_pruned"] == old.stats["bound_pruned"] > 0
    assert (new.status, new.length, new.stats["layers"]) == (old.status, old.length, old.stats["layers"])
    for i in range(new.witness.layers.depths):
        assert np.array_equal(new.witness.layers.layer(i), old.witness.layers.layer(i))


def test_v22_layers_are_the_same_with_either_kernel():
    inst = vdiag(2, 2, "nwse")
    fast = solve_rankbfs(inst, options=RankbfsOptions(kernels=Kernels(compiled=True)))
    plain = solve_rankbfs(inst, options=RankbfsOptions(kernels=Kernels(compiled=False)))
    assert (fast.status, fast.length, fast.stats["layers"]) == (plain.status, plain.length, plain.stats["layers"])
    assert np.array_equal(fast.witness.layers.keys, plain.witness.layers.keys)


@settings(max_examples=80, deadline=None)
@given(st.lists(st.integers(0, 2**64 - 1), max_size=200), st.lists(st.integers(0, 2**64 - 1), max_size=200))
def test_galloping_membership_is_isin(run, values):
    run_a = np.unique(np.array(run, dtype=U64))
    vals = np.unique(np.array(values + run[::3], dtype=U64))
    want = np.isin(vals, run_a)
    for ratio in (0, 1, 8, 1 << 20):  # gallop always, ..., walk always
        seen = np.zeros(vals.shape, dtype=bool)
        fastkernel.member_scan(run_a, vals, seen, ratio)
        assert np.array_equal(seen, want)
        seen = np.zeros(run_a.shape, dtype=bool)
        fastkernel.member_scan(vals, run_a, seen, ratio)
        assert np.array_equal(seen, np.isin(run_a, vals))
    seen = np.zeros(vals.shape, dtype=bool)
    fastkernel.member_gallop(run_a, vals, seen)  # what member_scan runs between sizes far apart
    assert np.array_equal(seen, want)


def test_the_loader_compiles_each_kernel_once(monkeypatch):
    """spill.compiled loads every kernel (interrupts held back); a search then compiles nothing more,
    so LLVM never loads outside the deferred block (see spill.compiled)."""
    from coinsat.search.rank.visited import compiled

    assert compiled() is fastkernel
    solve_rankbfs(vdiag(2, 2, "nwse"))  # frontiers and runs past the compiled thresholds
    from coinsat.search.rank import space as rankbfs

    monkeypatch.setattr(rankbfs, "FAST_MIN", 1)
    solve_rankbfs(vdiag(2, 1, "nwse"), options=RankbfsOptions(upper_bound=24))  # and h, on every batch
    kernels = (
        fastkernel.expand_branchfree,
        fastkernel.dedup_sorted,
        fastkernel.sort_distinct,
        fastkernel.merge_unique,
        fastkernel.merge_disjoint,
        fastkernel.member_gallop,
        fastkernel.member_scan,
        fastkernel.schedule_h,
        fastkernel.schedule_h_words,
    )
    for kernel in kernels:
        assert len(kernel.signatures) == 1, kernel.signatures


@settings(max_examples=40, deadline=None)
@given(st.lists(st.lists(st.integers(0, 2**64 - 1), max_size=60), min_size=1, max_size=5), st.integers(0, 3))
def test_merging_sorted_parts_is_sorting_their_union(parts, scale):
    from coinsat.search.rank.space import FAST_MIN, union

    arrays = [np.unique(np.array(p, dtype=U64)) for p in parts]
    if scale:  # past FAST_MIN: the compiled pairwise merge
        arrays = [
            np.unique(np.concatenate([a, np.arange(scale * FAST_MIN, dtype=U64) * U64(i + 2)]))
            for i, a in enumerate(arrays)
        ]
    want = np.unique(np.concatenate(arrays))
    assert np.array_equal(union(arrays), want)
    a, b = arrays[0], arrays[-1]
    assert np.array_equal(fastkernel.merge_unique(a, b), np.union1d(a, b))
    assert np.array_equal(fastkernel.merge_unique(b, a), np.union1d(a, b))
    b = np.setdiff1d(b, a)  # disjoint: the parts two workers own
    assert np.array_equal(fastkernel.merge_disjoint(a, b), np.union1d(a, b))
    assert np.array_equal(fastkernel.merge_disjoint(b, a), np.union1d(a, b))


def test_scipy_and_numba_linear_algebra_work_after_the_held_back_probe():
    """``visited._no_blas_probe`` hides scipy's BLAS module while numba first loads (so numba skips
    its probe); afterwards scipy's linear algebra imports and works, and numba still compiles
    np.dot.  In a fresh interpreter, where the probe has not run yet."""
    import subprocess
    import sys

    pytest.importorskip("numba")
    code = (
        "import numpy as np, sys\n"
        "from coinsat.search.rank import visited\n"
        "assert visited.compiled() is not None\n"
        "assert sys.modules.get('scipy.linalg.cython_blas', 0) is not None\n"
        "import scipy.linalg\n"
        "a = np.array([[2.0, 1.0], [1.0, 3.0]])\n"
        "assert abs(scipy.linalg.det(a) - 5.0) < 1e-9\n"
        "import numba\n"
        "f = numba.njit(lambda x, y: np.dot(x, y))\n"
        "assert np.allclose(f(a, a), a @ a)\n"
        "print('ok')\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert out.returncode == 0 and out.stdout.strip() == "ok", out.stderr[-2000:]
