"""Checks of AIGER circuits that know nothing about coins: a simulator for witness traces,
and the five checks of a Certifaiger witness circuit (spec ``encodings/aiger.md`` §8).

:func:`simulate` runs a :class:`~coinsat.backends.aigbmc.Circuit` on a witness trace (the
latches' initial values and one input vector per step) and returns the value of every bad
property at every step.  :func:`trace_problem` judges an AIGER witness with it: the initial
values agree with the resets, and the named property is 1 at the last step.

:func:`witness_checks` repeats the checks that Certifaiger (HWMCC'24's certificate checker,
``github.com/Froleyks/certifaiger``) performs on a witness circuit W for a model M, in its
quantifier-free form (no oracles; W's inputs and latches are all shared with M through the
symbol table's ``= <literal>`` names or, without them, the first inputs and latches):

=========== =================================================
reset       R{K} and C  =>  R'{K} and C'
transition  F{K} and C0 and C1 and C0'  =>  F'{K} and C1'
property    C and C' and not P  =>  not P'
base        R' and C'  =>  P'
step        P0' and F' and C0' and C1'  =>  P1'
=========== =================================================

(R: the latches equal their resets; F: the next copy of each latch equals its next-state
function; C: the invariant constraints; P: the first bad literal is 0; primes are W's, K the
shared inputs and latches.)  Each check is one CNF (Tseitin, three clauses per gate and copy)
of the negated implication, which must be unsatisfiable; CaDiCaL 1.9.5 through PySAT decides
it.  The UNSAT answers are not proof-checked (Certifaiger itself can replay them with a
verified proof checker); a SAT answer is a concrete counterexample to the check.
"""

from __future__ import annotations

from dataclasses import dataclass

from .aigbmc import Circuit

SOLVER = "cadical195"
CHECKS = ("reset", "transition", "property", "base", "step")


# --- simulation ------------------------------------------------------------------------------


def simulate(c: Circuit, init: list[int | None], frames: list[list[int]]) -> list[tuple[int, ...]]:
    """The bad properties' values at each step of the trace (``init[k]`` None: 0)."""
    value = [0] * (c.max_var + 1)

    def lit(x: int) -> int:
        return value[x >> 1] ^ (x & 1)

    state = [v or 0 for v in init]
    out: list[tuple[int, ...]] = []
    for inputs in frames:
        for k, x in enumerate(c.inputs):
            value[x >> 1] = inputs[k]
        for k, (x, _, _) in enumerate(c.latches):
            value[x >> 1] = state[k]
        for lhs, r0, r1 in c.ands:
            value[lhs >> 1] = lit(r0) & lit(r1)
        for x in c.constraints:
            if not lit(x):
                raise ValueError(f"an invariant constraint is 0 at step {len(out)}")
        out.append(tuple(lit(x) for x in c.properties))
        state = [lit(nxt) for _, nxt, _ in c.latches]
    return out


def trace_problem(c: Circuit, prop: int, init: list[int | None], frames: list[list[int]]) -> str | None:
    """Why the witness does not show property ``prop`` failing (None: it does, at the last step)."""
    if not 0 <= prop < len(c.properties):
        return f"the circuit has no bad property b{prop}"
    for k, (x, _, reset) in enumerate(c.latches):
        if reset in (0, 1) and init[k] not in (None, reset):
            return f"latch {k} starts at {init[k]}, but its reset is {reset}"
    try:
        values = simulate(c, init, frames)
    except ValueError as e:
        return str(e)
    if not values[-1][prop]:
        return f"b{prop} is 0 at the last step ({len(frames) - 1})"
    return None


# --- the Certifaiger checks ------------------------------------------------------------------


class _Cnf:
    def __init__(self) -> None:
        self.n = 1
        self.clauses: list[list[int]] = [[1]]  # variable 1 is "true"

    def new(self) -> int:
        self.n += 1
        return self.n

    def copy(self, c: Circuit, leaves: dict[int, int], roots) -> dict[int, int]:
        """One copy of ``c``'s gates in the cone of ``roots`` (literals; the gates outside it
        constrain nothing): AIGER variable -> CNF literal; ``leaves`` fixes some inputs and
        latches (shared with another copy), the others get fresh variables."""
        m = dict(leaves)
        for x in (*c.inputs, *(lat for lat, _, _ in c.latches)):
            if x >> 1 not in m:
                m[x >> 1] = self.new()
        gate = {lhs >> 1: (r0, r1) for lhs, r0, r1 in c.ands}
        cone: set[int] = set()
        todo = [x >> 1 for x in roots]
        while todo:
            v = todo.pop()
            if v in gate and v not in cone:
                cone.add(v)
                todo += [r >> 1 for r in gate[v]]
        for lhs, r0, r1 in c.ands:
            if lhs >> 1 not in cone:
                continue
            a, b = self.lit(m, r0), self.lit(m, r1)
            g = self.new()
            m[lhs >> 1] = g
            self.clauses += [[-g, a], [-g, b], [g, -a, -b]]
        return m

    def lit(self, m: dict[int, int], x: int) -> int:
        v = -1 if x >> 1 == 0 else m[x >> 1]
        return -v if x & 1 else v

    def and_(self, lits: list[int]) -> int:
        g = self.new()
        self.clauses += [[-g, a] for a in lits] + [[g, *(-a for a in lits)]]
        return g

    def eq(self, a: int, b: int) -> int:
        g = self.new()
        self.clauses += [[-g, -a, b], [-g, a, -b], [g, a, b], [g, -a, -b]]
        return g

    def satisfiable(self, goal: int) -> bool:
        from pysat.solvers import Solver

        with Solver(name=SOLVER, bootstrap_with=self.clauses + [[goal]]) as s:
            return bool(s.solve())


def shared_literals(model: Circuit, witness: Circuit) -> list[tuple[int, int]]:
    """(model literal, witness literal) for every shared input and latch: the witness's symbol
    table (``= <literal>``, Certifaiger's convention), else the first inputs and latches."""
    pairs = []
    model_leaves = set(model.inputs) | {x for x, _, _ in model.latches}
    for prefix, lits in (("i", witness.inputs), ("l", tuple(x for x, _, _ in witness.latches))):
        for k, x in enumerate(lits):
            name = witness.symbols.get(f"{prefix}{k}", "")
            if name.startswith("="):
                target = name[1:].strip()
                if not target.isdigit() or int(target) not in model_leaves:
                    raise ValueError(f"{prefix}{k} maps to {target!r}, which is no input or latch of the model")
                pairs.append((int(target), x))
    if pairs:
        return pairs
    n, m = min(len(model.inputs), len(witness.inputs)), min(len(model.latches), len(witness.latches))
    return [(model.inputs[k], witness.inputs[k]) for k in range(n)] + [
        (model.latches[k][0], witness.latches[k][0]) for k in range(m)
    ]


@dataclass(frozen=True)
class WitnessCheck:
    name: str
    ok: bool
    detail: str


def witness_checks(model: Circuit, witness: Circuit) -> tuple[WitnessCheck, ...]:
    """The five checks of the module docstring, in order (each one SAT call)."""
    if len(witness.properties) < 1 or len(model.properties) < 1:
        raise ValueError("the model and the witness need a bad property (or an output)")
    shared = shared_literals(model, witness)
    leaves = set(witness.inputs) | {x for x, _, _ in witness.latches}
    extended = leaves - {w for _, w in shared}
    if extended:
        raise ValueError(
            f"{len(extended)} witness inputs or latches simulate nothing in the model: Certifaiger's quantified "
            "checks would be needed, which coinsat does not repeat"
        )
    m_latch = {x: (nxt, reset) for x, nxt, reset in model.latches}
    w_latch = {x: (nxt, reset) for x, nxt, reset in witness.latches}
    out = []
    for name in CHECKS:
        cnf = _Cnf()
        bad = _CHECK[name](cnf, model, witness, shared, m_latch, w_latch)
        sat = cnf.satisfiable(bad)
        out.append(WitnessCheck(name, not sat, "a counterexample exists" if sat else "unsatisfiable"))
    return tuple(out)


def _roots(c: Circuit, *, nexts: bool = False, prop: bool = False) -> list[int]:
    """The literals a check reads of ``c``: constraints and resets always, the next-state
    functions and the first property when asked."""
    out = [*c.constraints, *(reset for _, _, reset in c.latches)]
    out += [nxt for _, nxt, _ in c.latches] if nexts else []
    return out + ([c.properties[0]] if prop else [])


def _both(cnf: _Cnf, model: Circuit, witness: Circuit, shared, **what):
    mm = cnf.copy(model, {}, _roots(model, **what))
    wm = cnf.copy(witness, {w >> 1: mm[m >> 1] for m, w in shared}, _roots(witness, **what))
    return mm, wm


def _constrained(cnf: _Cnf, c: Circuit, m) -> int:
    return cnf.and_([cnf.lit(m, x) for x in c.constraints])


def _reset_eqs(cnf: _Cnf, m, latches, which) -> int:
    eqs = [cnf.eq(cnf.lit(m, x), cnf.lit(m, latches[x][1])) for x in which if x in latches]
    return cnf.and_(eqs)


def _check_reset(cnf, model, witness, shared, m_latch, w_latch) -> int:
    mm, wm = _both(cnf, model, witness, shared)
    premise = [_reset_eqs(cnf, mm, m_latch, [m for m, _ in shared]), _constrained(cnf, model, mm)]
    conclusion = cnf.and_([_reset_eqs(cnf, wm, w_latch, [w for _, w in shared]), _constrained(cnf, witness, wm)])
    return cnf.and_([*premise, -conclusion])


def _check_transition(cnf, model, witness, shared, m_latch, w_latch) -> int:
    m0, w0 = _both(cnf, model, witness, shared, nexts=True)
    m1, w1 = _both(cnf, model, witness, shared)
    model_f = cnf.and_([cnf.eq(cnf.lit(m0, m_latch[m][0]), cnf.lit(m1, m)) for m, _ in shared if m in m_latch])
    witness_f = cnf.and_([cnf.eq(cnf.lit(w0, w_latch[w][0]), cnf.lit(w1, w)) for _, w in shared if w in w_latch])
    premise = [model_f, _constrained(cnf, model, m0), _constrained(cnf, model, m1), _constrained(cnf, witness, w0)]
    return cnf.and_([*premise, -cnf.and_([witness_f, _constrained(cnf, witness, w1)])])


def _check_property(cnf, model, witness, shared, m_latch, w_latch) -> int:
    mm, wm = _both(cnf, model, witness, shared, prop=True)
    parts = [cnf.lit(mm, model.properties[0]), _constrained(cnf, model, mm), _constrained(cnf, witness, wm)]
    return cnf.and_([*parts, -cnf.lit(wm, witness.properties[0])])


def _check_base(cnf, model, witness, shared, m_latch, w_latch) -> int:
    wm = cnf.copy(witness, {}, _roots(witness, prop=True))
    reset = _reset_eqs(cnf, wm, w_latch, list(w_latch))
    return cnf.and_([reset, _constrained(cnf, witness, wm), cnf.lit(wm, witness.properties[0])])


def _check_step(cnf, model, witness, shared, m_latch, w_latch) -> int:
    w0 = cnf.copy(witness, {}, _roots(witness, nexts=True, prop=True))
    w1 = cnf.copy(witness, {}, _roots(witness, prop=True))
    f = cnf.and_([cnf.eq(cnf.lit(w0, nxt), cnf.lit(w1, x)) for x, (nxt, _) in w_latch.items()])
    parts = [-cnf.lit(w0, witness.properties[0]), f, _constrained(cnf, witness, w0), _constrained(cnf, witness, w1)]
    return cnf.and_([*parts, cnf.lit(w1, witness.properties[0])])


_CHECK = {
    "reset": _check_reset,
    "transition": _check_transition,
    "property": _check_property,
    "base": _check_base,
    "step": _check_step,
}
