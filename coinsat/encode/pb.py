"""The pseudo-Boolean form of the SAT encoding (what the OPB export prints).

The cardinality families are stated natively instead of as clauses (spec
``encodings/sat.md``; the OPB paragraph of ``io/dimacs.py``): per step t, C4 and
C5 become ``n[t] + sum f[c,t] = 1`` and ``n[t] + sum v[c,t] = 1``, and C6 becomes
``-d f[p,t] + sum x[n,t] >= 0``.  Every other clause ``l1 | .. | lk`` becomes
``sum l >= 1`` with a negated literal ``~x`` written ``-x`` and the right side
lowered by one.  Auxiliary variables that only the replaced clauses used stay
declared and unconstrained.  This module builds the rows; ``io/dimacs.py`` only
prints them.
"""

from __future__ import annotations

from collections import Counter

from ..errors import InternalError
from . import sat_families as fam
from .sat import SatFormula, made

Row = tuple[list[tuple[int, int]], str, int]  # (coefficient, variable) terms, relation, right side


def clauses_with_empty(formula: SatFormula) -> list[list[int]]:
    """The clauses; an empty clause (goal out of reach within T) becomes ``x1`` and ``-x1``."""
    out: list[list[int]] = []
    for c in formula.clauses:
        out.extend([c] if c else [[1], [-1]])
    return out


def _native_rows(formula: SatFormula) -> tuple[list[Row], Counter]:
    """C4, C5, C6 of every layer as rows, and the clauses they replace."""
    e, d = formula.encoder, formula.encoder.instance.d
    native: list[Row] = []
    replaced: Counter[tuple[int, ...]] = Counter()
    for t in range(1, formula.horizon + 1):
        for build in (fam.c4_one_fill, fam.c5_one_vacate, fam.c6_adjacency):
            replaced.update(tuple(c) for c in build(e, t))  # same clauses as emitted (ids are reused)
        noop = [e.noop(t)] if e.options.noop else []
        fills = [made(e.f(c, t), "a fill") for c in e.fills[t]]
        vacates = [made(e.v(c, t), "a vacate") for c in e.cells[t - 1]]
        native.append(([(1, v) for v in noop + fills], "=", 1))
        native.append(([(1, v) for v in noop + vacates], "=", 1))
        for p in e.fills[t]:
            support = [made(e.x(n, t), "an occupancy") for n in e.nbrs[p] if e.x(n, t - 1)]
            native.append(([(-d, made(e.f(p, t), "a fill"))] + [(1, x) for x in support], ">=", 0))
    return native, replaced


def pb_rows(formula: SatFormula) -> list[Row]:
    """Every row of the PB form: the clauses that stay clauses, then the native families."""
    native, replaced = _native_rows(formula)
    rows: list[Row] = []
    left = Counter(replaced)
    for c in clauses_with_empty(formula):
        key = tuple(c)
        if left[key] > 0:
            left[key] -= 1
            continue
        rows.append(([(1 if lit > 0 else -1, abs(lit)) for lit in c], ">=", 1 - sum(lit < 0 for lit in c)))
    if +left:
        raise InternalError("the native PB families must replace clauses that the encoder emitted")
    return rows + native
