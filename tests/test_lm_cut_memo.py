"""The memo of pruned states of the compiled LM-cut (coinsat/search/rank/lmcut.py, Lemma PM of
docs/lm-cut.md): on and off, the kernel returns the same values.

Random states of random small puzzles are asked about in a sequence of calls whose caps go down
and up again (the memo answers only when a cap is no larger than the one a state was pruned
with), with a memo of 2^20 slots and of 2^2 (states overwrite each other's slots), against the
kernel without a memo and, for the exact values, the reference (theory/relaxed.py).  A bounded
search keeps the same states, layer by layer, with the memo and without it.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from coinsat import read_instance
from coinsat.search.rank import lmcut
from coinsat.search.rank.space import Space
from coinsat.solve import solve
from coinsat.theory.relaxed import h_lm

from .strategies import lattice_puzzles
from .test_lm_cut_search import FAMILIES

SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
PUZZLES = lattice_puzzles(lattices=("square", "square", "triangular"), max_side=6, max_coins=8, adjacency=(2, 2, 1, 3))


@SETTINGS
@given(PUZZLES, st.randoms(use_true_random=False), st.integers(1, 14))
def test_memo_on_and_off_give_the_same_values(instance, rnd, U):
    """Same values with a memo (large, or 4 slots) as without, over caps that fall and rise; the
    memo answers at least once when a state whose rounds pruned it is asked again with a smaller
    cap that its fill schedule is within."""
    pytest.importorskip("numba")
    space = Space(instance, True, U, "lmcut")
    n, k = instance.board.size, instance.n_coins
    rows = [sorted(rnd.sample(range(n), k)) for _ in range(25)] + [sorted(instance.start.cells)]
    cells = np.array(rows, dtype=np.int32).reshape(len(rows), k)
    goals = [[int(c) for c in g] for g in space.goals]
    kernels = [lmcut.LmCut(instance.board.neighbours, instance.d, goals, memo_bits=b) for b in (0, 20, 2)]
    caps = [U, U - 1, max(U - 3, 0), 0, U, max(U - 2, 0), None, max(U - 5, 0)]
    exact = kernels[0].of_cells(cells)
    ref = [h_lm(instance.board, instance.d, sum(1 << c for c in row), space._goal_masks()) for row in rows]
    assert exact.tolist() == ref
    for cap in caps:
        order = rnd.sample(range(len(rows)), len(rows))  # another order each time: other slot fights
        part = cells[order]
        want = kernels[0].of_cells(part, cap)
        for kernel in kernels[1:]:
            assert kernel.of_cells(part, cap).tolist() == want.tolist()
        if cap is not None:
            assert ((want <= cap) == (exact[order] <= cap)).all()
    assert kernels[0].hits[0] == 0
    fill = lmcut.LmCut(instance.board.neighbours, instance.d, goals, memo_bits=0).of_cells(cells, 0)  # cap 0: fill
    # a state LM-cut prunes at cap U - 1 (its rounds ran: stored) whose fill is within U - 3 (asked there)
    asked_again = any(e > U - 1 and f <= U - 3 for e, f in zip(exact.tolist(), fill.tolist()))
    if asked_again:
        assert kernels[1].hits[0] > 0


def test_memo_unsorted_rows_and_larger_caps_are_computed():
    """A row whose cells are not ascending has no key (computed, never stored); a state pruned
    with cap c and asked with cap c + 1 is computed again (the memo answers only for caps <= c)."""
    pytest.importorskip("numba")
    inst = read_instance(FAMILIES / "vdiag-2-2-swne.toml")
    space = Space(inst, True, 36, "lmcut")
    goals = [[int(c) for c in g] for g in space.goals]
    start = np.array([sorted(inst.start.cells)], dtype=np.int32)
    plain = lmcut.LmCut(inst.board.neighbours, inst.d, goals, memo_bits=0)
    h = int(plain.of_cells(start)[0])
    memo = lmcut.LmCut(inst.board.neighbours, inst.d, goals, memo_bits=8)
    for cap in (h - 1, h, h - 2):
        assert memo.of_cells(start, cap).tolist() == plain.of_cells(start, cap).tolist()
    assert memo.hits[0] == 1  # at h - 2, pruned before with h - 1; at h it was computed (and kept)
    rev = np.ascontiguousarray(start[:, ::-1])
    for cap in (h - 1, h - 2):
        assert memo.of_cells(rev, cap).tolist() == plain.of_cells(rev, cap).tolist()
    assert memo.hits[0] == 1


@pytest.mark.parametrize("name,U", [("vdiag-2-2-swne", 36), ("vdiag-2-2-swne", 35), ("vdiag-2-2-nwse", 24)])
def test_search_keeps_the_same_states_with_and_without_the_memo(monkeypatch, name, U):
    """A bounded search pruned by LM-cut: every layer the same with the memo as without it."""
    pytest.importorskip("numba")
    inst = read_instance(FAMILIES / f"{name}.toml")
    runs = []
    for bits in (0, lmcut.MEMO_BITS):
        monkeypatch.setattr(lmcut, "MEMO_BITS", bits)
        r = solve(inst, "rankbfs", upper_bound=U, heuristic="lmcut", workers=1)
        v = r.witness.layers  # the ranked visited set (the witness itself has no layer())
        assert hasattr(v, "layer") and v.depths > 1
        kept = [v.layer(t).tolist() for t in range(v.depths)]
        runs.append((r.status, r.length, r.stats.get("states"), r.stats.get("expanded"), kept))
    assert runs[0] == runs[1]
