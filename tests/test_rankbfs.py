"""The ranked, span-pruned BFS (method ``rankbfs``): ranks, its kernel, and its answers against BFS."""

from __future__ import annotations

import itertools
from math import comb

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from coinsat.errors import UsageError
from coinsat.families import vdiag
from coinsat.instance import make_instance
from coinsat.io.instance_format import read_instance
from coinsat.result import Status
from coinsat.rules import successors
from coinsat.search.bfs import solve_bfs
from coinsat.search.options import RankbfsOptions, SpanbfsOptions
from coinsat.search.rank.colex import U64, Colex, fits, from_words, to_words
from coinsat.search.rank.search import solve_rankbfs
from coinsat.search.rank.space import Space, max_cells
from coinsat.search.spanbfs import solve_spanbfs
from coinsat.solution import verify

from .strategies import instances
from .test_sat import walked


def test_colex_ranks_every_small_subset_once():
    colex = Colex(9, 4)
    subsets = np.array(list(itertools.combinations(range(9), 4)))
    ranks = colex.rank(subsets)
    assert sorted(ranks.tolist()) == list(range(comb(9, 4)))
    assert np.array_equal(colex.unrank(ranks), subsets)


@settings(max_examples=40, deadline=None)
@given(st.integers(1, 14).flatmap(lambda k: st.tuples(st.just(k), st.integers(k, 144))), st.integers(0, 2**32))
def test_rank_unrank_round_trip_up_to_144_cells_and_14_coins(nk, seed):
    k, n = nk
    assert fits(n, k)
    colex = Colex(n, k)
    rng = np.random.default_rng(seed)
    rows = np.sort(np.argsort(rng.random((50, n)), axis=1)[:, :k], axis=1)
    ranks = colex.rank(rows)
    assert int(ranks.max()) < comb(n, k)
    assert np.array_equal(colex.unrank(ranks), rows)
    words = to_words(rows, -(-n // 64))
    assert np.array_equal(from_words(words, k), rows)


def test_the_largest_ranks_fit_and_the_window_cap_follows_them():
    assert fits(144, 14) and not fits(200, 14)
    colex = Colex(144, 14)
    top = np.array([list(range(130, 144))], dtype=np.int64)
    assert int(colex.rank(top)[0]) == comb(144, 14) - 1
    assert np.array_equal(colex.unrank(colex.rank(top)), top)
    assert max_cells(14) >= 144 and max_cells(10) == 256


def _big_graph(rnd, n):
    """A random connected graph board on n cells (a path plus chords)."""
    edges = [(i, i + 1) for i in range(n - 1)] + [tuple(sorted(rnd.sample(range(n), 2))) for _ in range(n)]
    return sorted({e for e in edges if e[0] != e[1]})


@settings(max_examples=20, deadline=None)
@given(st.sampled_from([("square", 12), ("graph", 100), ("graph", 70)]), st.integers(1, 3), st.randoms())
def test_kernel_is_the_move_rule_past_64_cells(board, d, rnd):
    """Every successor of a random configuration, on windows of 70 to 144 cells, is the
    set rules.py gives (the span pruning off)."""
    kind, size = board
    k = rnd.randint(3, 8)
    if kind == "square":
        cells = [(x, y) for x in range(size) for y in range(size)]
        start = [(i, i) for i in range(size)]  # span(start) = the box (d = 2)
        inst = make_instance("square", start, start, adjacency=2)
    else:
        cells = list(range(size))
        start = rnd.sample(cells, k)
        inst = make_instance("graph", start, start, adjacency=d, edges=_big_graph(rnd, size), cells=cells)
    assert inst.board.size > 64
    space = Space(inst, prune=False)
    b = inst.board
    config = sorted(rnd.sample(range(b.size), len(start)))
    word = sum(1 << c for c in config)
    want = {space.rank_of_cells(c for c in range(b.size) if w >> c & 1) for _, (w,) in successors(b, inst.d, (word,))}
    got = space.expand(np.array([space.rank_of_cells(config)], dtype=U64))
    assert sorted(want) == got.tolist()


def _answer(r):
    return r.status, r.length, r.lower_bound


@settings(max_examples=80, deadline=None)
@given(
    st.one_of(instances(labeled=False, max_coins=5), walked(max_coins=5)),
    st.booleans(),
    st.sampled_from([None, 2, 4]),
)
def test_rankbfs_answers_as_spanbfs(inst, prune, max_moves):
    """The same answers (status, length, lower bound, scope) and states kept as spanbfs
    on windows of <= 64 cells, pruning on and off; solutions replay."""
    if len(inst.labels) > 1:
        return
    if max_moves is None and not inst.board.exact:
        max_moves = 5
    want = solve_spanbfs(inst, max_moves=max_moves, options=SpanbfsOptions(prune=prune))
    got = solve_rankbfs(inst, max_moves=max_moves, options=RankbfsOptions(prune=prune))
    if "window cap" in str(want.stats.get("stopped")):
        return  # rankbfs goes past 64 cells: checked against bfs below
    assert _answer(got) == _answer(want)
    assert got.stats.get("states") == want.stats.get("states")
    if got.solution is not None:
        assert verify(inst, got.solution).ok
    if got.certificate is not None:
        assert got.certificate["scope"] == want.certificate["scope"]


@st.composite
def wide_walks(draw):
    """d = 2 square instances whose window (span of the start) has 65 to 100 cells, with a goal
    a random walk of legal moves away (BFS is then quick)."""
    from coinsat.rules import apply_move, legal_moves

    w = draw(st.integers(9, 10))
    diagonal = [(i, i) for i in range(w)]  # its span is the w x w box
    inst = make_instance("square", diagonal, diagonal, adjacency=2)
    start = diagonal
    rnd = draw(st.randoms(use_true_random=False))
    config, seen = inst.start, {inst.start}
    for _ in range(rnd.randint(1, 4)):
        moves = [m for m in legal_moves(inst.board, config, 2) if apply_move(inst.board, config, m, 2) not in seen]
        if not moves:
            break
        config = apply_move(inst.board, config, rnd.choice(moves), 2)
        seen.add(config)
    coords = inst.board.coords
    return make_instance("square", start, [coords[c] for c in config.cells], adjacency=2)


@settings(max_examples=12, deadline=None)
@given(wide_walks(), st.booleans(), st.sampled_from([None, 2, 4]))
def test_rankbfs_equals_bfs_past_64_cells(inst, prune, max_moves):
    assert inst.board.size > 64
    want = solve_bfs(inst, max_moves=max_moves if max_moves is not None else 5)
    got = solve_rankbfs(inst, max_moves=max_moves if max_moves is not None else 5, options=RankbfsOptions(prune=prune))
    assert _answer(got) == _answer(want)
    if got.solution is not None:
        assert verify(inst, got.solution).ok


def test_the_paper_diagonal():
    diag = read_instance("instances/paper/diagonal.toml")
    assert _answer(solve_rankbfs(diag)) == (Status.OPTIMAL, 18, 18)


@pytest.mark.slow
def test_v21_both_targets_match_bfs():
    for target in ("nwse", "swne"):
        inst = vdiag(2, 1, target)
        assert _answer(solve_rankbfs(inst)) == _answer(solve_bfs(inst))


def test_labeled_instances_are_refused():
    with pytest.raises(UsageError, match="labeled"):
        solve_rankbfs(read_instance("instances/paper/swap5-a.toml"))


def test_limits_are_honest():
    inst = read_instance("instances/paper/vee-2-2.toml")
    r = solve_rankbfs(inst, max_moves=10)
    assert r.status is Status.BOUNDED and r.lower_bound == 11
    for workers in (1, 2):
        r = solve_rankbfs(inst, options=RankbfsOptions(max_states=1000, workers=workers))
        assert r.status is Status.UNKNOWN and r.solution is None and 1 <= r.lower_bound <= 24
        assert r.stats["stopped"] == "state limit"


# --- bound-and-prune ------------------------------------------------------------------------------


@settings(max_examples=40, deadline=None)
@given(walked(max_coins=5, kinds=("square", "graph")), st.sampled_from([0, 1, 3]))
def test_bound_and_prune_agrees_with_bfs(inst, slack):
    """With U = the optimum + slack the answer is unchanged; with a U below the optimum (a wrong
    bound) the answer is 'bounded' at U, never a false 'unsolvable'."""
    if len(inst.labels) > 1 or not inst.board.exact:
        return
    want = solve_bfs(inst)
    if want.status is not Status.OPTIMAL:
        return
    L = want.length
    got = solve_rankbfs(inst, options=RankbfsOptions(upper_bound=L + slack))
    assert _answer(got) == _answer(want)
    assert verify(inst, got.solution).ok
    if L >= 1:
        low = solve_rankbfs(inst, options=RankbfsOptions(upper_bound=L - 1))
        assert low.status is Status.BOUNDED and low.lower_bound == L and low.solution is None


@settings(max_examples=60, deadline=None)
@given(instances(labeled=False, max_coins=5, kinds=("square", "graph"), goal_placement="fixed"))
def test_h_of_the_start_is_the_span_layer_bound_of_theory_reach(inst):
    """h is the greedy fill schedule of theory/reach.py, recomputed from each state: at the start
    both must agree (two independent implementations)."""
    from coinsat.theory.reach import lower_bound

    if len(inst.labels) > 1:
        return
    space = Space(inst)
    h = int(space.heuristic(np.array([space.rank_of_cells(inst.start.cells)], dtype=U64))[0])
    want = lower_bound(inst)
    assert h == (want if want is not None else 1 << 30)


def test_bound_and_prune_removes_states_on_v21():
    inst = vdiag(2, 1, "nwse")
    plain, bounded = solve_rankbfs(inst), solve_rankbfs(inst, options=RankbfsOptions(upper_bound=24))
    assert _answer(plain) == _answer(bounded) == (Status.OPTIMAL, 24, 24)
    assert bounded.stats["bound_pruned"] > 0 and bounded.stats["states"] < plain.stats["states"]


# --- worker processes -----------------------------------------------------------------------------


@settings(max_examples=15, deadline=None)
@given(walked(max_coins=5, kinds=("square", "graph")), st.booleans())
def test_partitioned_search_equals_the_single_process_one_state_for_state(inst, bound):
    if len(inst.labels) > 1 or not inst.board.exact:
        return
    U = None
    if bound:
        r = solve_bfs(inst)
        U = r.length if r.status is Status.OPTIMAL else None
    one = solve_rankbfs(inst, options=RankbfsOptions(workers=1, upper_bound=U))
    two = solve_rankbfs(inst, options=RankbfsOptions(workers=2, upper_bound=U))
    assert _answer(one) == _answer(two)
    assert one.stats["layers"] == two.stats["layers"]
    assert np.array_equal(one.witness.layers.keys, two.witness.layers.keys)
    assert np.array_equal(one.witness.layers.depth, two.witness.layers.depth)
