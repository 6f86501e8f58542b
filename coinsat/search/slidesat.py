"""SAT on slides by counterexample-guided refinement (``encodings/slides.md`` §4).

Every slide is a jump, so the jump encoding (``encode/sat.py``) is a relaxation:
UNSAT at horizon T proves "no slide solution with <= T moves".  When the solver
returns a jump plan, rules.py replays it under the slide model; the first move
that is not a slide, lifted from s to p while the coins W stayed, becomes a
*lemma* blocking that move wherever those coins are all present:

    for every step t:   not( x[c, t-1] for c in W  and  v[s, t]  and  f[p, t] )

Sound because more coins only shrink the free space: if s and p lie in different
components with the coins W, they do with any superset of W (W is first shrunk
greedily to a minimal blocking set, which keeps the lemma true and makes it
stronger).  The solver is asked again until it returns a slide plan (a solution,
replayed by ``certify_solution`` on the slide instance) or UNSAT.  Lemmas are kept
from one horizon to the next.

Only the encoding families that keep some shortest *slide* solution are on: the
dominance families P4/P5 (``useful``, ``tight``) and P6 (``commute``) reorder or
merge moves, which can turn a slide plan into a non-slide one, so they are off;
P3 (merging s -> p -> q into s -> q keeps a slide: the coins around are the same),
P11, P12 (lattice symmetries are isometries) and the invariants P2, P8, P9 stay.

Horizons run T = 0, 1, 2, ... on a window exact for T (``driver.widen``), so the
bounds are global.  Answers: ``optimal``, ``bounded`` at ``max_moves``, ``unknown``
with the proven lower bound at a limit.  No unsolvable answers (the horizons never
end on their own); the screens in ``solve.py`` still answer those.
"""

from __future__ import annotations

from dataclasses import replace

from .. import geometry
from ..backends.sat_backend import Outcome as SatOutcome
from ..backends.sat_backend import SatBackend
from ..encode.options import DEFAULT_OPTIONS, EncodingOptions
from ..encode.sat import encode
from ..encode.varmap import Fill, Occ, Vac
from ..errors import InternalError, LimitReached
from ..instance import Instance
from ..limits import Limits
from ..result import Engine, Result, Status
from ..rules import Move
from ..solution import Solution, certify_solution, verify
from .driver import widen
from .methods import contract
from .options import SlidesatOptions
from .windows import to_original

#: the encoding families sound for slides (module docstring)
SLIDE_OPTIONS: EncodingOptions = DEFAULT_OPTIONS.with_(useful=False, tight=False, commute=False)

#: a lemma: (coins that stay, as lattice points; source; destination)
Lemma = tuple[frozenset[geometry.Coord], geometry.Coord, geometry.Coord]


def blocking_core(kind: str, others: list[geometry.Coord], src: geometry.Coord, dst: geometry.Coord) -> Lemma:
    """A minimal subset W of ``others`` that still keeps ``src`` from sliding to ``dst``
    (dropping any one coin of W would open a way)."""
    keep = list(others)
    i = 0
    while i < len(keep):
        trial = keep[:i] + keep[i + 1 :]
        if not geometry.slide_connected(kind, trial, src, dst):
            keep = trial
        else:
            i += 1
    return frozenset(keep), src, dst


@contract(SlidesatOptions)
def solve_slidesat(instance: Instance, *, limits: Limits, max_moves: int | None, options: SlidesatOptions) -> Result:
    """Shortest slide solution by CEGAR over the jump encoding (module docstring; options:
    ``SlidesatOptions``)."""
    solver = options.solver
    lemmas: set[Lemma] = set()
    stats: dict = {"lemmas": 0, "sat_calls": 0}
    T = 0

    def result(status: Status, solution: Solution | None, lb: int | None, cert: dict | None = None) -> Result:
        stats["lemmas"] = len(lemmas)
        return Result.measured(Engine.SLIDESAT, limits, stats, status, solution, lb, cert, layers=T)

    try:
        while max_moves is None or T <= max_moves:
            work = widen(replace(instance, moves="jump"), T)
            found = _horizon(work, T, lemmas, limits, solver, stats)
            if found == "unknown":
                return result(Status.UNKNOWN, None, T)
            if isinstance(found, Solution):
                certify_solution(replace(work, moves=instance.moves), found, "slidesat")
                mapped = to_original(instance, work, found)
                if mapped is None:  # optimal length known, but the moves cannot be named in this window
                    stats["stopped"] = "the solution found leaves the instance's window"
                    return result(Status.UNKNOWN, None, T)
                return result(Status.OPTIMAL, certify_solution(instance, mapped, "slidesat"), T)
            T += 1
    except LimitReached:
        return result(Status.UNKNOWN, None, T)
    cert = {"kind": "sat-cegar", "scope": "horizon", "horizon": max_moves}
    return result(Status.BOUNDED, None, T, cert)


def _horizon(work: Instance, T: int, lemmas: set[Lemma], limits: Limits, solver: str, stats: dict):
    """A slide solution with <= T moves in ``work`` (a Solution), None if there is none, or
    "unknown" at a limit.  New lemmas are added to ``lemmas``."""
    formula = encode(work, T, SLIDE_OPTIONS)
    vm = formula.encoder.vm
    coords = work.board.lattice_coords
    slide_work = replace(work, moves="slide")
    with SatBackend(solver) as sat:
        sat.add(formula.clauses)
        sat.add(_lemma_clauses(work, vm, T, lemmas))
        while True:
            reason = limits.exceeded()
            if reason:
                return "unknown"
            stats["sat_calls"] += 1
            answer = sat.solve(limits=limits)
            if answer.outcome == SatOutcome.UNSAT:
                return None
            if answer.outcome != SatOutcome.SAT or answer.model is None:
                return "unknown"
            plan = formula.decode(answer.model)
            verdict = verify(slide_work, plan)
            if verdict.ok:
                return plan
            if verdict.step is None:  # the encoding's goal clauses make every plan end on the goal
                raise InternalError(f"a SAT plan at horizon {T} does not reach the goal: {verdict.reason}")
            move: Move = plan.moves[verdict.step - 1]
            before = verdict.trace[verdict.step - 1]
            others = [coords[c] for c in before.cells if c != move.src]
            lemma = blocking_core(work.board.kind, others, coords[move.src], coords[move.dst])
            lemmas.add(lemma)
            sat.add(_lemma_clauses(work, vm, T, {lemma}))


def _lemma_clauses(work: Instance, vm, T: int, lemmas: set[Lemma]) -> list[list[int]]:
    """The clauses of ``lemmas`` at every step 1..T of ``work``'s encoding (a missing variable
    is the constant false: its step cannot match the lemma, so no clause is needed)."""
    board = work.board
    out: list[list[int]] = []
    for stay, src, dst in lemmas:
        if not (board.has(src) and board.has(dst) and all(board.has(c) for c in stay)):
            continue
        s, p = board.cell(src), board.cell(dst)
        cells = [board.cell(c) for c in stay]
        for t in range(1, T + 1):
            lits = [vm.get(Vac, s, t), vm.get(Fill, p, t)] + [vm.get(Occ, c, t - 1) for c in cells]
            if any(v is None for v in lits):
                continue
            out.append([-v for v in lits if v is not None])
    return out
