"""Inductive-invariant certificates: clauses over the occupancy of cells that hold at the start,
are kept by every move, and exclude every goal placement — so the goal is unreachable.

Fields::

    "cells":   the cells the literals speak of (coordinates), each on the instance's window;
    "clauses": the invariant Inv, a list of clauses; literal +(i + 1) is "cells[i] holds a
               coin", -(i + 1) "cells[i] is empty";
    "proofs":  {"init": file, "step": file, "goal": file}: DRAT refutations (beside the JSON)
               of the three formulas below, in the order and numbering this module writes;
    "proof_format": "drat", "solver": the proof-producing solver (informational),
    "from_pdr": how many clauses ABC's PDR found (informational; the rest are the goal's
               negation).

The checker trusts no engine and no file's formula.  It writes, from the instance and the
clauses alone, three DIMACS texts over x[c] (cell c holds a coin now, variables 1..N),
x'[c] (after one step, N+1..2N) and auxiliaries numbered after them:

1. ``init``: x = the start (units), and not Inv(x) (one selector per clause: the selector
   forces every literal of its clause false; at least one selector);
2. ``step``: Inv(x), Trans(x, x') and not Inv(x');
3. ``goal``: Inv(x) and x is a goal placement (one selector per placement inside the window;
   none: the empty clause).

Trans is one step of the core-only formula (``encodings/sat.md`` §4, C2–C6 with N1; the
clause machinery of :mod:`.core_cnf`): fill f[c] <-> x'[c] & ~x[c], vacate
v[c] <-> x[c] & ~x'[c], exactly one of {n} + f and of {n} + v, and f[p] -> at least d of
x'[N(p)] — so x' is x after one legal move inside the window, or x itself.  Each text must
be refuted by its proof, replayed by dratify against the text written here, through the
DRAT path of :mod:`.bounded` (a proof with a byte outside printable ASCII and the newline
is rejected unread; proof files are plain names beside the certificate; the formulas are
built and the proofs replayed in a child process under the time and memory limits).  Then every configuration
reachable inside the window satisfies Inv (1 and 2, by induction on the moves) and none is
a goal (3): no solution stays inside the window.

**Scope.** Every configuration reachable on the infinite lattice lies in span(start), the
least set of cells that holds the start and every lattice cell with at least d neighbours in
it (by induction on the moves: the dropped coin has d coin neighbours, all in span(start)).
When the window holds span(start), computed here from geometry, every reachable configuration
and every move between two of them lies inside the window, so the three checks cover them all
and the claim is ``global``: the square grid's windows with d >= 2 (span(start), plus the
goal's cells); graph boards are finite (global).  Otherwise (the triangular grid's
hull + margin, whose span is the whole lattice) the claim is ``unsolvable inside the window``.
Unlabeled coins only.
"""

from __future__ import annotations

from pathlib import Path

from ... import geometry
from ...board import cell_key
from ...instance import Instance
from .bounded import refute, verdict_in_child
from .claims import Claim
from .core_cnf import Cnf
from .format import confined_file

PROOF_NAMES = ("init", "step", "goal")


# --- the formulas ---------------------------------------------------------------------------


def _not_inv(cnf: Cnf, clauses: list[list[int]], var: list[int]) -> None:
    """not Inv over the variables ``var`` (var[i] is cell i's): a selector per clause."""
    selectors = []
    for clause in clauses:
        z = cnf.new()
        selectors.append(z)
        for lit in clause:
            x = var[abs(lit) - 1]
            cnf.add(-z, -x if lit > 0 else x)
    cnf.add(*selectors)  # no clause: Inv is true, its negation the empty clause


def _inv(cnf: Cnf, clauses: list[list[int]], var: list[int]) -> None:
    for clause in clauses:
        cnf.add(*[var[abs(lit) - 1] if lit > 0 else -var[abs(lit) - 1] for lit in clause])


def _trans(cnf: Cnf, instance: Instance, x: list[int], y: list[int]) -> None:
    """One step (a legal move inside the window, or none) from x to y: C2-C6 with N1."""
    board = instance.board
    cells = range(board.size)
    f = [cnf.new() for _ in cells]
    v = [cnf.new() for _ in cells]
    n = cnf.new()
    for c in cells:
        cnf.add(-f[c], -x[c])  # C2
        cnf.add(-f[c], y[c])
        cnf.add(x[c], -y[c], f[c])
        cnf.add(-v[c], x[c])  # C3
        cnf.add(-v[c], -y[c])
        cnf.add(-x[c], y[c], v[c])
    cnf.exactly_one([n] + f)  # C4 + N1
    cnf.exactly_one([n] + v)  # C5 + N1
    for p in cells:  # C6 on the post-move state
        cnf.at_least(f[p], [y[q] for q in board.neighbours[p]], instance.d)


def formulas(instance: Instance, clauses: list[list[int]]) -> dict[str, str]:
    """The three DIMACS texts (module docstring), keyed by ``PROOF_NAMES``.  ``clauses`` use
    literals +-(c + 1) over the window's cell indices."""
    return {
        name: f"c coinsat inductive-invariant check '{name}' (encodings/aiger.md section 5)\n" + cnf.text()
        for name, cnf in formula_cnfs(instance, clauses).items()
    }


def formula_cnfs(instance: Instance, clauses: list[list[int]]) -> dict[str, Cnf]:
    """The three formulas as clause lists, which :func:`formulas` prints (a prover refutes these)."""
    N = instance.board.size
    out = {}
    for name in PROOF_NAMES:
        cnf = Cnf()
        x = [cnf.new() for _ in range(N)]
        y = [cnf.new() for _ in range(N)]
        if name == "init":
            start = instance.start.cell_set
            for c in range(N):
                cnf.add(x[c] if c in start else -x[c])
            _not_inv(cnf, clauses, x)
        elif name == "step":
            _inv(cnf, clauses, x)
            _trans(cnf, instance, x, y)
            _not_inv(cnf, clauses, y)
        else:
            _inv(cnf, clauses, x)
            selectors = []
            for placement in instance.goal_configurations:
                z = cnf.new()
                selectors.append(z)
                coins = placement.cell_set
                for c in range(N):
                    cnf.add(-z, x[c] if c in coins else -x[c])
            cnf.add(*selectors)
        out[name] = cnf
    return out


def window_closed(instance: Instance) -> bool:
    """Does the window hold span(start) on the infinite lattice (module docstring)?  Grown here
    from geometry alone: add every lattice cell with >= d neighbours in the set, and stop at the
    first one off the window (False) or when nothing is added (True)."""
    b = instance.board
    if not b.is_lattice:
        return True
    span = {b.lattice_coords[c] for c in instance.start.cells}
    frontier = set(span)
    while frontier:
        candidates = {p for xy in frontier for p in geometry.neighbours(b.kind, xy) if p not in span}
        grown = {p for p in candidates if sum(q in span for q in geometry.neighbours(b.kind, p)) >= instance.d}
        if not all(b.has(p) for p in grown):
            return False
        span |= grown
        frontier = grown
    return True


def invariant_clauses(instance: Instance, cert: dict) -> tuple[list[list[int]] | None, str]:
    """The certificate's clauses over the window's cell indices, or (None, why not)."""
    board = instance.board
    cells = cert["cells"]
    if not isinstance(cells, list):
        return None, "cells must be a list of cells"
    index = []
    for c in cells:
        key = cell_key(c)
        if not board.has(key):
            return None, f"the cell {c!r} is not on the instance's window"
        index.append(board.cell(key))
    if len(set(index)) != len(index):
        return None, "a cell is listed twice"
    clauses = cert["clauses"]
    if not isinstance(clauses, list):
        return None, "clauses must be a list of lists of literals"
    out = []
    for clause in clauses:
        if not isinstance(clause, list):
            return None, "a clause must be a list of literals"
        lits = []
        for lit in clause:
            if not isinstance(lit, int) or isinstance(lit, bool) or lit == 0 or abs(lit) > len(index):
                return None, f"the literal {lit!r} names no listed cell"
            cell = index[abs(lit) - 1]
            lits.append(cell + 1 if lit > 0 else -(cell + 1))
        out.append(lits)
    return out, ""


# --- the proofs ---------------------------------------------------------------------------


def _decide(instance: Instance, clauses: list[list[int]], proofs: dict[str, Path]) -> tuple[bool, str]:
    """Write the three formulas here and replay each proof against its text (bounded.py's
    DRAT path: a proof with a byte outside printable ASCII and newline is rejected unread)."""
    texts = formulas(instance, clauses)
    steps = 0
    for name in PROOF_NAMES:
        ok, why, n = refute(texts[name], proofs[name])
        if not ok:
            return False, f"the '{name}' proof does not refute the checker's formula: {why}"
        steps += n
    return True, f"{steps} proof steps checked"


def check_inductive(
    instance: Instance, cert: dict, base_dir: Path, deadline: float | None = None
) -> tuple[bool, str, Claim | None]:
    """The checker (module docstring): what the clauses and proofs prove, from the instance."""
    if len(instance.labels) > 1:
        return False, "inductive-invariant certificates are for unlabeled coins", None
    if instance.moves != "jump":
        return False, f"the invariant's transition relation is that of jumps, not moves = {instance.moves!r}", None
    if cert.get("proof_format") != "drat":
        return False, "the proofs must be in DRAT format", None
    clauses, why = invariant_clauses(instance, cert)
    if clauses is None:
        return False, why, None
    names = cert["proofs"]
    if not isinstance(names, dict) or set(names) != set(PROOF_NAMES):
        return False, f"proofs must name exactly {PROOF_NAMES}", None
    proofs = {}
    for name in PROOF_NAMES:
        path, problem = confined_file(base_dir, names[name], f"the '{name}' proof")
        if path is None:
            return False, problem or "no proof file", None
        proofs[name] = path
    ok, why = verdict_in_child(_decide, (instance, clauses, proofs), deadline)
    if not ok:
        return False, why, None
    closed = window_closed(instance)
    where = "" if closed else " inside the window"
    return (
        True,
        f"{len(clauses)} clauses: holds at the start, kept by every move, excludes the goal{where} "
        f"(3 DRAT proofs, {why})",
        Claim(unsolvable=True, window=not closed),
    )
