"""Engines ``pdr`` and ``kind``: the puzzle as a safety property, proved by ABC (IC3/PDR, k-induction).

The circuit is ``encodings/aiger.md``'s (:func:`coinsat.encode.aiger.build_aig`): one step
is one move or a stutter, on the instance's window, and the output is 1 in a goal placement.
"The output is never 1" holds iff no solution stays inside the window.  So:

* **property proved** -> ``unsolvable``.  Scope ``global`` when the window is exact for every
  horizon (square grid with d >= 2: span(start), by Lemma "span monotone"; graph boards);
  otherwise (triangular grid, square grid with d = 1) scope ``window``, "no solution that
  stays inside the window", with the lower bound the window proves globally (exact for
  R (the radius of ``windows.exact_horizon``): every solution needs more than R moves);
* **counterexample** -> its input frames name moves; the frames are replayed by rules.py
  (a frame that is no legal move is a stutter of the circuit and is skipped) and the move
  list is certified (``solution.certify_solution``): ``feasible`` from ``pdr`` (its traces
  are not shortest), the shortest inside the window from ``kind``'s base case (a BMC that
  adds one frame at a time), ``optimal`` when the window is exact for one move less;
* **a limit** -> ``unknown`` with the bound proven so far (``kind``: the frames its BMC
  cleared).  With ``max_moves = T`` the circuit gets the step counter of the bounded variant
  and a proof gives ``bounded`` (when the window is exact for T).

``pdr`` keeps the inductive invariant ABC dumps (``pdr -d``, a set of cubes over the
latches, each one blocked) as ``Result.witness``: an :class:`Invariant`, clauses over the
occupancy of cells, which ``certify`` turns into an ``inductive`` certificate (checked
without ABC: ``coinsat/certificates/check/inductive.py``).  The goal's negation is added to
ABC's clauses (ABC may use the property as a hypothesis of its induction, option ``-o``),
so that the clauses alone are inductive.  Unlabeled instances only carry an invariant
(with labels the latches are per label; the answer still stands, without a certificate).

ABC runs as a separate process (``backends/abc.py``): the time limit and the memory limit
(applied to ABC's own resident memory) kill it; a missing binary is a usage error naming
the package ``berkeley-abc`` (exit 2).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import Any

from ..backends.abc import AbcRun, require_abc, run_abc
from ..encode.aiger import Aig, build_aig, decode_moves, replay
from ..instance import Instance
from ..limits import Limits
from ..result import Engine, InductionProof, Result, Status
from ..solution import Solution, certify_solution
from ..theory.reach import exact_for, fill_count_bound
from .grown import found_in_window
from .methods import contract
from .options import KindOptions, PdrOptions
from .windows import exact_horizon

_ASSERTED = re.compile(r"was asserted in frame (\d+)")
_NO_CEX = re.compile(r"No output asserted in (\d+) frames")
_EXHAUSTED = re.compile(r"Explored all reachable states after completing (\d+) frames")


@dataclass(frozen=True)
class Invariant:
    """Clauses over the occupancy of the window's cells: literal +(c + 1) is "cell c holds a coin",
    -(c + 1) "cell c is empty".  ``from_abc``: how many of them came from ABC (the rest are
    the goal's negation)."""

    clauses: tuple[tuple[int, ...], ...]
    from_abc: int


def _for_abc(aig: Aig) -> Aig:
    """The circuit with latch names ``L<i>`` (safe in ABC's files whatever the cells are called)."""
    return replace(aig, latches=[(f"L{i}", nxt) for i, (_, nxt) in enumerate(aig.latches)])


def _seconds_left(limits: Limits) -> float | None:
    left = limits.remaining()
    return None if left is None else max(left, 0.01)


def _trace(instance: Instance, aig: Aig, cex_text: str, frames: int) -> list[tuple[int, int]]:
    """Input frames 0..frames-1 of ABC's ``write_cex -n`` file, as (source, destination)."""
    values: dict[tuple[str, int], int] = {}
    for line in cex_text.splitlines():
        m = re.fullmatch(r"\s*(\S+)@(\d+)\s*=\s*([01])\s*", line)
        if m:
            values[(m.group(1), int(m.group(2)))] = int(m.group(3))
    names = aig.inputs
    rows = [[values.get((n, f), 0) for n in names] for f in range(frames)]
    return decode_moves(instance, rows)


def _invariant(instance: Instance, aig: Aig, pla: str) -> Invariant | None:
    """ABC's dumped cubes (``pdr -d``) as clauses over cells, plus the goal's negation.
    None when a cube names a latch that is not a cell's occupancy (labels, the step counter)."""
    names: list[str] = []
    clauses: list[tuple[int, ...]] = []
    for line in pla.splitlines():
        line = line.strip()
        if line.startswith(".ilb"):
            names = line.split()[1:]
        elif line and line[0] in "01-" and names:
            cube = line.split()[0]
            clause = []
            for name, ch in zip(names, cube):
                if ch == "-":
                    continue
                if not name.startswith("L") or not name[1:].isdigit() or int(name[1:]) >= len(aig.meaning):
                    return None
                cell, label, flip = aig.meaning[int(name[1:])]
                if label is not None:
                    return None
                occupied = (ch == "1") != flip  # the cube's value of "cell holds a coin"
                clause.append(-(cell + 1) if occupied else cell + 1)  # the clause blocks the cube
            clauses.append(tuple(sorted(set(clause), key=abs)))
    from_abc = len(clauses)
    for conf in instance.goal_configurations:  # not this placement: some cell differs
        coins = conf.cell_set
        clauses.append(tuple(-(c + 1) if c in coins else c + 1 for c in range(instance.board.size)))
    return Invariant(tuple(clauses), from_abc)


def _outcome(run: AbcRun) -> tuple[str, int | None]:
    """("proved" | "cex" | "undecided", the asserted frame) from ABC's output."""
    m = _ASSERTED.search(run.output)
    if m:
        return "cex", int(m.group(1))
    if "Property proved" in run.output or "Networks are equivalent" in run.output:
        return "proved", None
    return "undecided", None


def _cex_solution(instance: Instance, aig: Aig, run: AbcRun, frame: int, engine: str) -> Solution:
    frames = _trace(instance, aig, run.files.get("cex.txt", ""), frame)
    solution = replay(instance, frames)
    if solution is None:
        from ..errors import InternalError

        raise InternalError(f"{engine}: ABC's counterexample does not reach the goal when replayed by rules.py")
    return certify_solution(instance, solution, engine)


@contract(PdrOptions)
def solve_pdr(instance: Instance, *, limits: Limits, max_moves: int | None, options: PdrOptions) -> Result:
    """IC3/PDR through ABC (module docstring)."""
    memory_limit = limits.memory_limit
    require_abc()
    aig = _for_abc(build_aig(instance, max_moves))
    radius = exact_horizon(instance)
    floor = fill_count_bound(instance)
    left = _seconds_left(limits)
    cmd = "pdr -d -I inv.pla" + (f" -T {max(1, int(left))}" if left is not None else "")
    run = run_abc(
        aig.aig(),
        [cmd, "write_cex -n cex.txt"],
        time_limit=left,
        memory_limit=memory_limit,
        want=("inv.pla", "cex.txt"),
    )
    stats: dict[str, Any] = {"abc_seconds": round(run.seconds, 3), "latches": len(aig.latches), "ands": len(aig.ands)}

    def result(status, solution=None, lb=None, certificate=None, witness=None) -> Result:
        return Result.measured(Engine.PDR, limits, stats, status, solution, lb, certificate, witness=witness)

    kind, frame = ("undecided", None) if run.stopped else _outcome(run)
    if kind == "cex" and frame is not None:
        solution = _cex_solution(instance, aig, run, frame, "pdr")
        n = len(solution)
        if n == 0:
            return result(Status.OPTIMAL, solution, 0)
        return result(Status.FEASIBLE, solution, min(floor, n))
    if kind == "proved":
        if max_moves is not None:
            if exact_for(instance, max_moves):
                cert = {"kind": "pdr", "scope": "horizon", "horizon": max_moves}
                return result(Status.BOUNDED, lb=max_moves + 1, certificate=cert)
            stats["stopped"] = f"proved inside the window only, which is not exact for {max_moves} moves"
            return result(Status.UNKNOWN, lb=max(floor, (radius or 0) + 1))
        inv = _invariant(instance, aig, run.files.get("inv.pla", "")) if not instance.labels[1:] else None
        scope = "global" if radius is None else "window"
        cert = {"kind": "pdr", "scope": scope, "window": instance.board.window}
        if inv is not None:
            cert["invariant_clauses"] = len(inv.clauses)
            stats["invariant_clauses"] = len(inv.clauses)
        return result(Status.UNSOLVABLE, lb=None if radius is None else radius + 1, certificate=cert, witness=inv)
    # under a time limit ABC's pdr got -T (the seconds left): undecided then means it ran out
    stats["stopped"] = run.stopped or ("time limit" if left is not None else "ABC left the property undecided")
    return result(Status.UNKNOWN, lb=floor)


@contract(KindOptions)
def solve_kind(instance: Instance, *, limits: Limits, max_moves: int | None, options: KindOptions) -> Result:
    """k-induction through ABC: for k = 1, 2, 4, ...: the base case by BMC (``bmc3``, frames
    0..k, which also finds the shortest solution inside the window), then the inductive step
    with uniqueness constraints (``ind -u``).  No certificate beyond the answer."""
    memory_limit = limits.memory_limit
    max_frames = options.max_frames
    require_abc()
    aig = _for_abc(build_aig(instance))
    radius = exact_horizon(instance)
    floor = fill_count_bound(instance)
    cleared = 0  # frames 0..cleared-1 hold no goal: no solution with < cleared moves in the window
    stats: dict = {}

    def proven_lb() -> int:
        inside = cleared if radius is None else min(cleared, radius + 1)
        return max(floor, inside)

    def result(status, solution=None, lb=None, certificate=None, witness=None) -> Result:
        stats["frames_cleared"] = cleared
        return Result.measured(
            Engine.KIND, limits, stats, status, solution, lb, certificate, witness=witness, layers=cleared
        )

    k = 1
    while True:
        reason = limits.exceeded()
        if reason:
            stats["stopped"] = reason
            return result(Status.UNKNOWN, lb=proven_lb())
        frames = k + 1 if max_moves is None else min(k + 1, max_moves + 1)
        left = _seconds_left(limits)
        run = run_abc(
            aig.aig(),
            [f"bmc3 -F {frames}", "write_cex -n cex.txt", f"ind -u -F {k}"],
            time_limit=left,
            memory_limit=memory_limit,
            want=("cex.txt",),
        )
        if run.stopped:
            stats["stopped"] = run.stopped
            return result(Status.UNKNOWN, lb=proven_lb())
        m = _ASSERTED.search(run.output)
        if m:
            solution = _cex_solution(instance, aig, run, int(m.group(1)), "kind")
            status, lb, _ = found_in_window(len(solution), radius)
            return result(status, solution, lb)
        if _EXHAUSTED.search(run.output):  # bmc3 visited every reachable state without a goal
            stats["k"] = 0
            scope = "global" if radius is None else "window"
            cert: dict[str, Any] = {"kind": "bmc-exhausted", "scope": scope, "window": instance.board.window}
            return result(
                Status.UNSOLVABLE,
                lb=None if radius is None else radius + 1,
                certificate=cert,
                witness=InductionProof(0),
            )
        cleared_here = _NO_CEX.search(run.output)
        if cleared_here is None:
            stats["stopped"] = "ABC's BMC gave no answer"
            return result(Status.UNKNOWN, lb=proven_lb())
        cleared = max(cleared, int(cleared_here.group(1)))
        if max_moves is not None and cleared >= max_moves + 1:
            if exact_for(instance, max_moves):
                return result(
                    Status.BOUNDED,
                    lb=max_moves + 1,
                    certificate={"kind": "bmc", "scope": "horizon", "horizon": max_moves},
                )
            stats["stopped"] = f"max_moves {max_moves} inside a window not exact for it"
            return result(Status.UNKNOWN, lb=proven_lb())
        if "Networks are equivalent" in run.output and cleared >= k + 1:
            stats["k"] = k
            scope = "global" if radius is None else "window"
            cert = {"kind": "k-induction", "scope": scope, "k": k, "window": instance.board.window}
            return result(
                Status.UNSOLVABLE,
                lb=None if radius is None else radius + 1,
                certificate=cert,
                witness=InductionProof(k),
            )
        if k >= max_frames:
            stats["stopped"] = f"frame limit (k = {k})"
            return result(Status.UNKNOWN, lb=proven_lb())
        k *= 2
