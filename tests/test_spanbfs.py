"""The span-pruned vectorised BFS (method ``spanbfs``) against rules.py and the BFS oracle."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from coinsat.board import span_coords
from coinsat.errors import UsageError
from coinsat.families import vdiag
from coinsat.instance import make_instance
from coinsat.io.instance_format import read_instance
from coinsat.limits import Limits, rss_bytes
from coinsat.result import Status
from coinsat.rules import successors
from coinsat.search.bfs import solve_bfs
from coinsat.search.options import SpanbfsOptions
from coinsat.search.spanbfs import U64, _Kernel, solve_spanbfs
from coinsat.solution import verify
from coinsat.solve import solve

from .strategies import configurations, instances, unsolvable_against_bounded
from .test_sat import walked

UNLABELED = instances(labeled=False, max_coins=5)


@settings(max_examples=150, deadline=None)
@given(configurations(UNLABELED))
def test_vector_kernel_is_the_move_rule_of_rules_py(case):
    inst, config = case
    (word,) = config.masks(inst.labels)
    want = {new for _, (new,) in successors(inst.board, inst.d, (word,))}
    got = set(int(w) for w in _Kernel(inst).successors(np.array([word], dtype=U64)))
    assert got == want


@settings(max_examples=150, deadline=None)
@given(configurations(instances(kinds=("square", "triangular"), labeled=False, max_coins=5)))
def test_vector_span_is_the_span(case):
    inst, config = case
    board = inst.board
    (word,) = config.masks(inst.labels)
    cells = [board.coords[c] for c, _ in config.coins]
    want = {board.cell(q) for q in span_coords(board.kind, cells, inst.d, frozenset(board.coords))}
    span = int(_Kernel(inst).span(np.array([word], dtype=U64))[0])
    assert {c for c in range(board.size) if span >> c & 1} == want


def _answer(r):
    return r.status, r.length, r.lower_bound


def _assert_honest_stop(got, want):
    """An ``unknown`` at the cell cap claims no solution and a lower bound that BFS's proof allows."""
    assert got.solution is None and got.lower_bound is not None
    if want.solution is not None:  # BFS's solution bounds every true lower bound
        assert got.lower_bound <= want.length


def test_spanbfs_stops_at_its_cell_cap_honestly():
    """Found by hypothesis: d = 1, optimum 4; the window exact for 4 moves has over 64 cells."""
    coords = [(x, y) for y in range(-1, 4) for x in range(-1, 4)]
    inst = make_instance(
        "square", [coords[i] for i in (6, 8, 11, 13)], [coords[i] for i in (7, 12, 16, 17)], adjacency=1, margin=1
    )
    want, got = solve_bfs(inst, max_moves=5), solve_spanbfs(inst, max_moves=5, options=SpanbfsOptions(prune=False))
    assert (want.status, want.length) == (Status.OPTIMAL, 4)
    assert got.status is Status.UNKNOWN and "window cap" in got.stats["stopped"]
    _assert_honest_stop(got, want)


@settings(max_examples=120, deadline=None)
@given(UNLABELED, st.booleans(), st.sampled_from([None, 2, 4]))
def test_spanbfs_agrees_with_bfs(inst, prune, max_moves):
    """Same status, length and lower bound as the BFS oracle, pruning on and off."""
    if max_moves is None and not inst.board.exact:
        max_moves = 5  # both grow the window to the horizon: keep it small (d = 1 branches widely)
    want = solve_bfs(inst, max_moves=max_moves)
    got = solve_spanbfs(inst, max_moves=max_moves, options=SpanbfsOptions(prune=prune))
    if got.status is Status.UNKNOWN and "window cap" in str(got.stats.get("stopped")):
        _assert_honest_stop(got, want)  # spanbfs works on <= 64 cells; d = 1 windows outgrow it
        return
    none = (Status.UNSOLVABLE, Status.BOUNDED, Status.UNKNOWN)
    if max_moves is not None and want.status in none and got.status in none:
        # Either may reach the horizon first or exhaust its side first (BFS also searches
        # backwards, and answers unknown at a horizon its window does not make exact);
        # both must still say "nothing found".
        assert want.solution is None and got.solution is None
        return
    assert _answer(got) == _answer(want)
    if got.solution is not None:
        assert verify(inst, got.solution).ok
    if got.status is Status.UNSOLVABLE:
        assert got.certificate["scope"] == want.certificate["scope"]


def test_paper_puzzles_and_pruning():
    diag = read_instance("instances/paper/diagonal.toml")
    pruned, plain = solve_spanbfs(diag), solve_spanbfs(diag, options=SpanbfsOptions(prune=False))
    assert _answer(pruned) == _answer(plain) == (Status.OPTIMAL, 18, 18)
    assert pruned.stats["states"] < plain.stats["states"] / 2  # the pruning removes work
    vee = solve_spanbfs(read_instance("instances/paper/vee-2-2.toml"))
    assert _answer(vee) == (Status.OPTIMAL, 24, 24)
    assert verify(read_instance("instances/paper/vee-2-2.toml"), vee.solution).ok


def test_v21_both_targets_match_bfs():
    for target in ("nwse", "swne"):
        inst = vdiag(2, 1, target)
        assert _answer(solve_spanbfs(inst)) == _answer(solve_bfs(inst))


def test_limits_are_honest():
    inst = read_instance("instances/paper/vee-2-2.toml")
    r = solve_spanbfs(inst, max_moves=10)
    assert r.status is Status.BOUNDED and r.lower_bound == 11
    r = solve_spanbfs(inst, options=SpanbfsOptions(max_states=1000))
    assert r.status is Status.UNKNOWN and r.solution is None and 1 <= r.lower_bound <= 24


def test_labeled_or_large_instances_are_refused():
    with pytest.raises(UsageError, match="labeled"):
        solve_spanbfs(read_instance("instances/paper/swap5-a.toml"))


def test_auto_picks_spanbfs_when_the_goal_spans_the_window():
    r = solve(read_instance("instances/paper/diagonal.toml"))
    assert r.method == "auto:spanbfs" and r.status is Status.OPTIMAL
    assert solve(read_instance("instances/paper/swap5-a.toml")).method == "auto:bfs"


# --- D12, limits, grown windows ------------------------------------------------------------------


@pytest.mark.parametrize("d", [5, 10**8, 10**30])
def test_an_adjacency_above_every_degree_supports_no_cell(d):
    """D12: no counter of d levels (it took 19 s and 816 MB at d = 10^8): no cell is a
    destination, so the start is frozen and the window (span(start)) proves it."""
    inst = make_instance("square", [(0, 0), (1, 0), (0, 1)], [(0, 0), (1, 0), (1, 1)], adjacency=d)
    kernel = _Kernel(inst)
    words = np.array([0b111, kernel.full], dtype=U64)
    assert not kernel.supported(words).any()
    assert kernel.successors(words).size == 0
    r = solve_spanbfs(inst)
    assert r.status is Status.UNSOLVABLE and r.certificate["scope"] == "global"
    same = make_instance("square", [(0, 0), (1, 0), (0, 1)], [(0, 0), (1, 0), (0, 1)], adjacency=d)
    assert _answer(solve_spanbfs(same)) == (Status.OPTIMAL, 0, 0)


def test_the_kernel_threshold_is_exact_at_every_d():
    """d from 1 to one above the degree: supported(m) is "at least d occupied neighbours"."""
    rng = np.random.default_rng(0)
    for d in range(1, 8):
        inst = make_instance(
            "triangular", [(0, 0), (1, 0), (0, 1), (1, 1)], [(0, 0), (1, 0), (0, 1), (2, 0)], adjacency=d, margin=1
        )
        board = inst.board
        words = rng.integers(0, 1 << board.size, size=200, dtype=np.uint64)
        got = _Kernel(inst).supported(words)
        for w, s in zip(words.tolist(), got.tolist()):
            want = sum(1 << c for c in range(board.size) if sum(w >> q & 1 for q in board.neighbours[c]) >= d)
            assert s == want


def test_a_memory_limit_gives_unknown_with_a_lower_bound():
    inst = read_instance("instances/paper/vee-2-2.toml")  # 24 moves, many states
    r = solve_spanbfs(inst, limits=Limits(memory_limit=rss_bytes() // 2))
    assert r.status is Status.UNKNOWN and r.solution is None
    assert r.stats["stopped"] == "memory limit"
    assert 0 <= r.lower_bound <= 24


@settings(max_examples=40, deadline=None)
@given(
    st.one_of(walked(kinds=("triangular",), max_coins=4), instances(kinds=("triangular",), labeled=False, max_coins=4)),
    st.sampled_from([None, 3, 5]),
)
def test_grown_spanbfs_answers_as_sat_within_64_cells(inst, max_moves):
    """Global answers; where the window for a horizon passes 64 cells: unknown, with a
    lower bound that SAT's answer respects."""
    assume(len(inst.labels) == 1)
    want = solve(inst, "sat", max_moves=max_moves)
    got = solve(inst, "spanbfs", max_moves=max_moves)
    if got.status is Status.UNKNOWN:
        assert got.stats["stopped"].startswith("window cap")
        assert want.lower_bound is None or got.lower_bound <= want.lower_bound
        assert want.length is None or got.lower_bound <= want.length
        return
    if unsolvable_against_bounded(got, want, max_moves):
        return
    assert _answer(got) == _answer(want)
    if got.solution is not None:
        assert verify(inst, got.solution).ok


def test_paper_triangular_puzzles():
    for name in ("rhomboid", "upside-down"):
        inst = read_instance(f"instances/paper/{name}.toml")
        r = solve(inst, "spanbfs")
        assert _answer(r) == (Status.OPTIMAL, inst.known_optimal, inst.known_optimal)
    r = solve(read_instance("instances/paper/pyramid-to-line.toml"), "spanbfs")  # 7 moves: R_6 > 64 cells
    assert r.status is Status.UNKNOWN and 1 <= r.lower_bound <= 7
