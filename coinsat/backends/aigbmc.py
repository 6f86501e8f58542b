"""Bounded model checking of an AIGER circuit with PySAT (CaDiCaL 1.9.5): knows nothing about coins.

:class:`Circuit` is an and-inverter graph as an AIGER file states it (the reader is
:func:`coinsat.io.aiger.read_aiger`; this module never sees a file).  :func:`bmc` unrolls it
frame by frame into one incremental CNF (Tseitin: three clauses per AND gate per frame; a latch
at frame t+1 *is* its next-state literal at frame t, no new variable) and asks, for
k = 0, 1, 2, ...: is some bad signal 1 at frame k, with every invariant constraint 1 at frames
0..k?  Each question is one ``solve`` under an assumption (the frame's "some bad" literal);
after an UNSAT answer the negation is added as a unit, which is implied, and the next frame is
unrolled on top of the learnt clauses.  The first SAT answer is the first failing frame, and its
model gives the input values of frames 0..k (a counterexample trace).

Semantics (AIGER 1.9, which contains 1.0): the bad signals are the ``B`` section, or, when the
file has none, the outputs (HWMCC's convention for AIGER 1.0 files); a latch's reset is 0, 1,
or its own literal (uninitialised: a free value at frame 0).  Justice and fairness properties
(liveness) are not handled: the reader refuses them.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

SOLVER = "cadical195"


@dataclass(frozen=True)
class Circuit:
    """An AIG in AIGER's numbering: literal ``2 * var + negated``; 0 false, 1 true."""

    max_var: int
    inputs: tuple[int, ...]  # literals
    latches: tuple[tuple[int, int, int], ...]  # (literal, next, reset): reset 0, 1 or the literal
    outputs: tuple[int, ...]
    ands: tuple[tuple[int, int, int], ...]  # (lhs, rhs0, rhs1)
    bad: tuple[int, ...] = ()
    constraints: tuple[int, ...] = ()
    symbols: dict[str, str] = field(default_factory=dict)  # "i0" -> "src0", "l3" -> ..., "o0" -> ...
    comments: tuple[str, ...] = ()

    @property
    def properties(self) -> tuple[int, ...]:
        """The bad-state literals: ``B``, or the outputs when there is no ``B``."""
        return self.bad if self.bad else self.outputs

    def input_names(self) -> list[str]:
        return [self.symbols.get(f"i{k}", f"i{k}") for k in range(len(self.inputs))]


@dataclass(frozen=True)
class BmcAnswer:
    """``failing_frame``: the least k with a bad signal 1 at frame k (None: none found);
    ``cleared``: frames 0..cleared-1 were proved to have none; ``trace``: for a failing frame,
    the input values of frames 0..k (one list of bits per frame, in the order of
    ``Circuit.inputs``); ``stopped``: "time limit" when the deadline cut a frame short."""

    failing_frame: int | None
    cleared: int
    trace: tuple[tuple[int, ...], ...] = ()
    stopped: str | None = None
    frame_seconds: tuple[float, ...] = ()  # CPU-time of the solver per frame (process CPU)
    variables: int = 0
    clauses: int = 0


class _Unroller:
    def __init__(self, circuit: Circuit):
        self.c = circuit
        self.n = 1  # CNF variable 1 is "true"
        self.clauses: list[list[int]] = [[1]]
        self.frames: list[dict[int, int]] = []  # per frame: AIGER var -> CNF literal
        self.input_vars: list[list[int]] = []

    def new(self) -> int:
        self.n += 1
        return self.n

    def lit(self, frame: dict[int, int], aig_lit: int) -> int:
        v = aig_lit >> 1
        x = -1 if v == 0 else frame[v]  # AIGER's variable 0 is false; CNF variable 1 is true
        return -x if aig_lit & 1 else x

    def frame(self) -> dict[int, int]:
        """Unroll one more frame; returns its variable map (clauses appended to ``clauses``)."""
        c = self.c
        f: dict[int, int] = {}
        ins = []
        for lit in c.inputs:
            f[lit >> 1] = self.new()
            ins.append(f[lit >> 1])
        self.input_vars.append(ins)
        if not self.frames:
            for lit, _, reset in c.latches:
                if reset in (0, 1):
                    f[lit >> 1] = 1 if reset else -1
                else:
                    f[lit >> 1] = self.new()
        else:
            prev = self.frames[-1]
            for lit, nxt, _ in c.latches:
                f[lit >> 1] = self.lit(prev, nxt)
        for lhs, r0, r1 in c.ands:
            a, b = self.lit(f, r0), self.lit(f, r1)
            g = self.new()
            f[lhs >> 1] = g
            self.clauses += [[-g, a], [-g, b], [g, -a, -b]]
        self.frames.append(f)
        return f


def bmc(circuit: Circuit, max_frame: int, deadline: float | None = None) -> BmcAnswer:
    """First failing frame in 0..max_frame (module docstring); ``deadline``: a
    ``time.perf_counter()`` value after which the answer is ``stopped``."""
    from pysat.solvers import Solver

    u = _Unroller(circuit)
    per_frame: list[float] = []
    with Solver(name=SOLVER) as s:
        added = 0
        for k in range(max_frame + 1):
            f = u.frame()
            for lit in circuit.constraints:
                u.clauses.append([u.lit(f, lit)])
            bads = [u.lit(f, lit) for lit in circuit.properties]
            goal = u.new()
            u.clauses.append([-goal, *bads])  # goal -> some bad signal at frame k
            for cl in u.clauses[added:]:
                s.add_clause(cl)
            added = len(u.clauses)
            cpu0 = time.process_time()
            answer = _solve(s, [goal], deadline)
            per_frame.append(time.process_time() - cpu0)
            if answer is None:
                return BmcAnswer(None, k, stopped="time limit", frame_seconds=tuple(per_frame), variables=u.n)
            if answer:
                model = s.get_model() or []
                value = {abs(x): int(x > 0) for x in model}
                trace = tuple(tuple(value.get(v, 0) for v in ins) for ins in u.input_vars)
                return BmcAnswer(k, k, trace, frame_seconds=tuple(per_frame), variables=u.n, clauses=added)
            s.add_clause([-goal])
    return BmcAnswer(None, max_frame + 1, frame_seconds=tuple(per_frame), variables=u.n, clauses=added)


def _solve(s, assumptions: list[int], deadline: float | None) -> bool | None:
    """``s.solve(assumptions)``; None when the deadline passed first (polled between conflict budgets)."""
    if deadline is None:
        return s.solve(assumptions=assumptions)
    budget = 5000
    while True:
        if time.perf_counter() > deadline:
            return None
        s.conf_budget(budget)
        answer = s.solve_limited(assumptions=assumptions)
        if answer is not None:
            return answer
        budget = min(2 * budget, 1 << 18)
