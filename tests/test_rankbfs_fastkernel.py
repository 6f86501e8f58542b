"""The compiled expansion (search/fastkernel.py, numba) against the numpy one: the same successors
of every state, on random instances up to 144 cells, the span pruning on and off."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from coinsat.families import vdiag
from coinsat.search import fastkernel
from coinsat.search.rank import U64
from coinsat.search.rankbfs import Space, solve_rankbfs
from coinsat.search.spanbfs import _unique

from .test_rankbfs import wide_walks
from .test_sat import walked

pytestmark = pytest.mark.skipif(not fastkernel.HAVE_NUMBA, reason="numba not installed (the 'fast' extra)")


def _same_successors(inst, prune: bool, ranks: np.ndarray) -> None:
    space = Space(inst, prune)
    want = space._expand_chunk(ranks)
    got = _unique(fastkernel.FastSpace(space).expand(ranks))
    assert np.array_equal(want, got)


def _states(inst, prune: bool) -> np.ndarray:
    r = solve_rankbfs(inst, max_moves=4, prune=prune, grow=False)
    return r.witness.keys if r.witness is not None else np.zeros(0, dtype=U64)


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


def test_v22_layers_are_the_same_with_either_kernel(monkeypatch):
    inst = vdiag(2, 2, "nwse")
    fast = solve_rankbfs(inst)
    monkeypatch.setenv(fastkernel.ENV, "numpy")
    plain = solve_rankbfs(inst)
    assert (fast.status, fast.length, fast.stats["layers"]) == (plain.status, plain.length, plain.stats["layers"])
    assert np.array_equal(fast.witness.keys, plain.witness.keys)


@settings(max_examples=80, deadline=None)
@given(st.lists(st.integers(0, 2**64 - 1), max_size=200), st.lists(st.integers(0, 2**64 - 1), max_size=200))
def test_galloping_membership_is_isin(run, values):
    run_a = np.unique(np.array(run, dtype=U64))
    vals = np.unique(np.array(values + run[::3], dtype=U64))
    seen = np.zeros(vals.shape, dtype=bool)
    fastkernel.member_sorted(run_a, vals, seen)
    assert np.array_equal(seen, np.isin(vals, run_a))
