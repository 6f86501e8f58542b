"""The span-pruned vectorised BFS (method ``spanbfs``) against rules.py and the BFS oracle."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from coinsat.board import span_coords
from coinsat.errors import UsageError
from coinsat.families import vdiag
from coinsat.io.instance_format import read_instance
from coinsat.result import Status
from coinsat.rules import successors
from coinsat.search.bfs import solve_bfs
from coinsat.search.methods import solve
from coinsat.search.spanbfs import U64, _Kernel, solve_spanbfs
from coinsat.solution import verify

from .strategies import configurations, instances

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


@settings(max_examples=120, deadline=None)
@given(UNLABELED, st.booleans(), st.sampled_from([None, 2, 4]))
def test_spanbfs_agrees_with_bfs(inst, prune, max_moves):
    """Same status, length and lower bound as the BFS oracle, pruning on and off."""
    want = solve_bfs(inst, max_moves=max_moves)
    got = solve_spanbfs(inst, max_moves=max_moves, prune=prune)
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
    pruned, plain = solve_spanbfs(diag), solve_spanbfs(diag, prune=False)
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
    r = solve_spanbfs(inst, max_states=1000)
    assert r.status is Status.UNKNOWN and r.solution is None and 1 <= r.lower_bound <= 24


def test_labeled_or_large_instances_are_refused():
    with pytest.raises(UsageError, match="labeled"):
        solve_spanbfs(read_instance("instances/paper/swap5-a.toml"))


def test_auto_picks_spanbfs_when_the_goal_spans_the_window():
    r = solve(read_instance("instances/paper/diagonal.toml"))
    assert r.method == "auto:spanbfs" and r.status is Status.OPTIMAL
    assert solve(read_instance("instances/paper/swap5-a.toml")).method == "auto:bfs"
