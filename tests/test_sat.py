"""The SAT encoding against the BFS oracle and rules.py (encodings/sat.md).

* "UNSAT at horizon T" <=> the window distance (BFS) is > T, for every pruning
  option on and off, on random instances of every board kind, labeled or not,
  d in {1, 2, 3};
* the T = 1 (and T = 2) formula without goal has exactly one model per legal
  move sequence (projected on the move variables);
* decoded models replay legally (certify_solution);
* the numbering is deterministic.
"""

from __future__ import annotations

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from pysat.solvers import Solver

from coinsat.encode.options import EncodingOptions
from coinsat.encode.sat import encode
from coinsat.rules import apply_move, legal_moves
from coinsat.search.bfs import solve_bfs
from coinsat.search.options import BfsOptions
from coinsat.solution import certify_solution

from .strategies import instances


@st.composite
def walked(draw, max_coins=5, d=None, kinds=("square", "triangular", "graph")):
    """A random instance whose goal is a random walk of legal moves away from the start
    (so that distances 2..6 are common, where the pruning families matter)."""
    from dataclasses import replace

    inst = draw(
        instances(
            kinds=kinds, max_coins=max_coins, d=d, goal_placement=draw(st.sampled_from(("fixed", "fixed", "translate")))
        )
    )
    rng = draw(st.randoms(use_true_random=False))
    seen = {inst.start}
    config = inst.start
    for _ in range(rng.randint(2, 8)):
        moves = [
            m for m in legal_moves(inst.board, config, inst.d) if apply_move(inst.board, config, m, inst.d) not in seen
        ]
        if not moves:
            break
        config = apply_move(inst.board, config, rng.choice(moves), inst.d)
        seen.add(config)
    assume(len(seen) >= 3)
    return replace(inst, goal=config)


BASE = EncodingOptions()
TOGGLES = [n for n in EncodingOptions.names() if n != "noop"]
VARIANTS = {"default": BASE, "plain": EncodingOptions.plain(), "naive": EncodingOptions.naive()}
VARIANTS.update({f"{n}={not getattr(BASE, n)}": BASE.with_(**{n: not getattr(BASE, n)}) for n in TOGGLES})
LIMIT = 7  # horizons checked


def window_distance(inst, limit=LIMIT):
    """BFS distance inside the window, or None if > limit (the oracle)."""
    r = solve_bfs(inst, max_moves=limit, options=BfsOptions(grow=False))
    return r.length if r.solution is not None else None


#: conflicts one oracle call may take; a rare drawn instance (d = 1, wide window) ran for minutes
SAT_BUDGET = 200_000


def sat_at(inst, T, options):
    f = encode(inst, T, options)
    with Solver(name="cadical195", bootstrap_with=f.clauses) as s:
        s.conf_budget(SAT_BUDGET)
        answer = s.solve_limited()
        assume(answer is not None)  # too hard for a unit test: hypothesis draws another instance
        if not answer:
            return None
        return certify_solution(inst, f.decode(s.get_model()), "sat-test")


def check_horizons(inst, options):
    dist = window_distance(inst)
    top = LIMIT if dist is None else min(LIMIT, dist)
    for T in sorted({0, max(0, top - 1), top}):
        sol = sat_at(inst, T, options)
        if dist is not None and dist <= T:
            assert sol is not None, f"SAT expected at T={T} (distance {dist})"
            assert len(sol) <= T
            assert len(sol) >= dist
        else:
            assert sol is None, f"UNSAT expected at T={T} (distance {dist})"


@pytest.mark.parametrize("variant", sorted(VARIANTS))
@settings(max_examples=25, deadline=None)
@given(inst=st.one_of(walked(), instances(max_coins=4)))
def test_unsat_at_T_iff_bfs_distance_exceeds_T(variant, inst):
    check_horizons(inst, VARIANTS[variant])


@pytest.mark.parametrize("d", [1, 2, 3])
@settings(max_examples=15, deadline=None)
@given(data=st.data())
def test_each_adjacency_and_labels(d, data):
    inst = data.draw(st.one_of(walked(d=d), instances(max_coins=4, d=d)))
    check_horizons(inst, BASE)


def _projected_models(f, project):
    count = 0
    with Solver(name="cadical195", bootstrap_with=f.clauses) as s:
        while s.solve():
            model = s.get_model()
            lits = [model[v - 1] for v in project]
            count += 1
            s.add_clause([-l for l in lits])
            assert count < 100_000
    return count


def _sequences(inst, T, first=True):
    """Move sequences of length <= T with no-ops only at the end (plain semantics)."""

    def rec(config, k):
        if k == 0:
            return 1
        total = 1  # stop here: the remaining steps are no-ops
        for m in legal_moves(inst.board, config, inst.d):
            total += rec(apply_move(inst.board, config, m, inst.d), k - 1)
        return total

    return rec(inst.start, T)


@settings(max_examples=40, deadline=None)
@given(inst=instances(max_coins=4), options=st.sampled_from(sorted(VARIANTS)))
def test_models_of_one_step_are_the_legal_moves(inst, options):
    opts = VARIANTS[options]
    f = encode(inst, 1, opts, goal=False)
    want = len(legal_moves(inst.board, inst.start, inst.d)) + (1 if opts.noop else 0)
    assert _projected_models(f, f.move_vars()) == want


@settings(max_examples=25, deadline=None)
@given(inst=instances(max_coins=4))
def test_models_of_two_steps_are_the_move_sequences(inst):
    opts = EncodingOptions.plain().with_(noop_last=True)
    f = encode(inst, 2, opts, goal=False)
    assert _projected_models(f, f.move_vars()) == _sequences(inst, 2)


@settings(max_examples=25, deadline=None)
@given(inst=instances(max_coins=4), T=st.integers(0, 4))
def test_deterministic_numbering(inst, T):
    a, b = encode(inst, T), encode(inst, T)
    assert a.clauses == b.clauses and a.nvars == b.nvars
    assert a.symbols() == b.symbols()
    assert len({v for v, _ in a.symbols()}) == a.nvars


def test_symbols_name_the_move_variables():
    from coinsat.instance import make_instance

    inst = make_instance("square", [(0, 0), (1, 0), (0, 1)], [(0, 0), (1, 0), (1, 1)])
    f = encode(inst, 1)
    names = dict(f.symbols())
    assert all(names[v].startswith(("Fill(", "Vac(", "NoOp(")) for v in f.move_vars())
    assert any("Occ(cell=(1, 1), t=1)" == n for n in names.values())


def test_goal_unreachable_within_horizon_is_the_empty_clause():
    from coinsat.instance import make_instance

    inst = make_instance("square", [(0, 0), (1, 0), (0, 1)], [(3, 3), (2, 3), (3, 2)], margin=3)
    f = encode(inst, 1)
    assert [] in f.clauses
