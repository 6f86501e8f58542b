"""The core-only CNF: "a solution with <= T moves exists", from the definitions alone.

Why this module exists: a bounded certificate built on the pruned encoding trusts the
encoder (``coinsat/encode/``) — its checker re-encodes with the same code, so an unsound
pruning clause (the encoder once cut every solution of a labeled puzzle, P12) would be
re-made and accepted.  The core-only CNF is written here, from the specification
(``encodings/sat.md`` §4, the definition families C1–C8 and the no-op steps N1, nothing
else: no windows, no pruning, no symmetry breaking), by code that shares nothing with
``coinsat/encode/`` (a test runs the check with ``coinsat.encode`` made unimportable).
The builder writes this very text and the checker rebuilds it and compares GBD hashes,
so the trust base of a core-only certificate is this file, the board (``board.py``), the
DRAT checker, and the spec's argument that C1–C8 + N1 define exactly the solutions with
at most T moves.

Variables, numbered in this order: x[c, t] (c holds a coin in C_t) for t = 0..T; then per
step t = 1..T: f[c, t] (move t drops on c), v[c, t] (move t lifts from c), n[t] (step t
is a no-op); with labels (L >= 2): y[l, c, t] for t = 0..T and m[l, t]; auxiliaries
(ladder, counters, placement selectors) are numbered as they are needed.

Clauses (spec ids):

* C1  x[c, 0] = [c in A]; y[l, c, 0] = [A has a coin of label l on c].
* C2  f[c, t] <-> x[c, t] & ~x[c, t-1].   C3  v[c, t] <-> x[c, t-1] & ~x[c, t].
* C4, C5 (with N1)  exactly one of {n[t]} + {f[c, t]}, and of {n[t]} + {v[c, t]}: one
  at-least-one clause and a sequential at-most-one (Sinz's ladder, spec §4 "ladder").
* C6  f[p, t] -> at least d of {x[q, t] : q in N(p)}: one clause per (|N(p)| - d + 1)-subset
  when there are at most 64 of them, else a sequential counter; d > |N(p)| gives ~f[p, t].
* C7  (labels) x <-> OR_l y; at most one label per cell; a label changes only where a move
  lifts or drops; the dropped coin carries the label of the lifted one (m[l, t]).
* C8  the goal at step T: a fixed goal as units; translate/congruent goals as one
  selector per placement inside the window (at least one selector; a selector forces its
  placement's coins), an empty clause when no placement fits.
"""

from __future__ import annotations

from itertools import combinations

from ...instance import Instance

#: beyond this many subset clauses per cell, C6 uses a sequential counter (as the spec)
MAX_SUBSET_CLAUSES = 64


class Cnf:
    """A variable counter and a clause list: the only machinery this module needs."""

    def __init__(self) -> None:
        self.nvars = 0
        self.clauses: list[list[int]] = []

    def new(self) -> int:
        self.nvars += 1
        return self.nvars

    def add(self, *clause: int) -> None:
        self.clauses.append(list(clause))

    def exactly_one(self, lits: list[int]) -> None:
        self.add(*lits)
        if len(lits) < 2:
            return
        prev = None
        for i, lit in enumerate(lits):
            if prev is not None:
                self.add(-lit, -prev)
            if i < len(lits) - 1:
                s = self.new()
                self.add(-lit, s)
                if prev is not None:
                    self.add(-prev, s)
                prev = s

    def at_least(self, guard: int, lits: list[int], d: int) -> None:
        """``guard -> at least d of lits``."""
        k = len(lits) - d + 1
        if d <= 0:
            return
        if k <= 0:
            self.add(-guard)
            return
        if _binomial(len(lits), k) <= MAX_SUBSET_CLAUSES:
            for subset in combinations(lits, k):
                self.add(-guard, *subset)
            return
        # r[i][j]: at least j of the first i literals (j = 1..d); "at least 0" is true and
        # "at least j >= 1 of none" false, so those literals are left out of the clauses
        r = [[0] * (d + 1)] + [[0] + [self.new() for _ in range(d)] for _ in lits]
        for i in range(1, len(lits) + 1):
            for j in range(1, d + 1):
                below = [r[i - 1][j]] if i > 1 else []
                self.add(-r[i][j], *below, lits[i - 1])
                if j > 1:  # j - 1 >= 1 of the first i - 1: false when i = 1
                    self.add(-r[i][j], *below, *([r[i - 1][j - 1]] if i > 1 else []))
        self.add(-guard, r[len(lits)][d])

    def text(self) -> str:
        lines = [f"p cnf {self.nvars} {len(self.clauses)}"]
        lines += [" ".join(map(str, c)) + " 0" for c in self.clauses]
        return "\n".join(lines) + "\n"


def _binomial(n: int, k: int) -> int:
    out = 1
    for i in range(min(k, n - k)):
        out = out * (n - i) // (i + 1)
    return out


def core_clauses(instance: Instance, horizon: int) -> Cnf:
    """The core-only formula for ``horizon`` on the instance's own window (module docstring)."""
    board = instance.board
    cells = range(board.size)
    d = instance.d
    labels = sorted(instance.labels) if len(instance.labels) > 1 else []
    cnf = Cnf()
    x = [[cnf.new() for _ in cells] for _ in range(horizon + 1)]
    f: list[list[int]] = [[]]
    v: list[list[int]] = [[]]
    n: list[int] = [0]
    for _ in range(1, horizon + 1):
        f.append([cnf.new() for _ in cells])
        v.append([cnf.new() for _ in cells])
        n.append(cnf.new())
    y = [{lab: [cnf.new() for _ in cells] for lab in labels} for _ in range(horizon + 1)]
    m = [{lab: cnf.new() for lab in labels} for _ in range(horizon + 1)]
    start = dict(instance.start.coins)
    for c in cells:  # C1
        cnf.add(x[0][c] if c in start else -x[0][c])
        for lab in labels:
            cnf.add(y[0][lab][c] if start.get(c) == lab else -y[0][lab][c])
    for t in range(1, horizon + 1):
        for c in cells:
            now, before = x[t][c], x[t - 1][c]
            cnf.add(-f[t][c], -before)  # C2
            cnf.add(-f[t][c], now)
            cnf.add(before, -now, f[t][c])
            cnf.add(-v[t][c], before)  # C3
            cnf.add(-v[t][c], -now)
            cnf.add(-before, now, v[t][c])
        cnf.exactly_one([n[t]] + f[t])  # C4 + N1
        cnf.exactly_one([n[t]] + v[t])  # C5 + N1
        for p in cells:  # C6: the post-move state
            cnf.at_least(f[t][p], [x[t][q] for q in board.neighbours[p]], d)
        if labels:
            _labels(cnf, t, cells, labels, x, f, v, y, m)
    _goal(cnf, instance, horizon, x, y, labels)
    return cnf


def _labels(cnf: Cnf, t: int, cells, labels, x, f, v, y, m) -> None:
    """C7 at step t (and the label/occupancy link at t - 1 = 0 is made by C1's units)."""
    for c in cells:
        ys = [y[t][lab][c] for lab in labels]
        cnf.add(-x[t][c], *ys)
        for a, b in combinations(ys, 2):
            cnf.add(-a, -b)
        for lab in labels:
            now, before = y[t][lab][c], y[t - 1][lab][c]
            cnf.add(-now, x[t][c])
            cnf.add(-before, v[t][c], now)
            cnf.add(-now, f[t][c], before)
            cnf.add(-v[t][c], -before, m[t][lab])
            cnf.add(-f[t][c], -m[t][lab], now)
    for a, b in combinations([m[t][lab] for lab in labels], 2):
        cnf.add(-a, -b)


def _goal(cnf: Cnf, instance: Instance, horizon: int, x, y, labels) -> None:
    """C8 as hard clauses."""
    T = horizon
    if instance.goal_placement == "fixed":
        goal = dict(instance.goal.coins)
        for c in range(instance.board.size):
            cnf.add(x[T][c] if c in goal else -x[T][c])
            if c in goal and labels:
                cnf.add(y[T][goal[c]][c])
        return
    selectors = []
    for placement in instance.goal_configurations:
        z = cnf.new()
        selectors.append(z)
        for c, lab in placement.coins:
            cnf.add(-z, x[T][c])
            if labels:
                cnf.add(-z, y[T][lab][c])
    cnf.add(*selectors)  # no placement: the empty clause


def core_cnf_text(instance: Instance, horizon: int, cnf: Cnf | None = None) -> str:
    """DIMACS text of the core-only formula (a comment line, then the clauses); ``cnf``: the
    formula :func:`core_clauses` built for them, when the caller (a prover) holds it already."""
    name = "".join(ch if " " <= ch <= "~" else "?" for ch in instance.name)  # one line, DIMACS alphabet
    head = f"c coinsat core-only CNF (encodings/sat.md C1-C8, N1): {name}, horizon {horizon}\n"
    return head + (core_clauses(instance, horizon) if cnf is None else cnf).text()
