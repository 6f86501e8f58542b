"""Cube-and-conquer bounded certificates: one UNSAT call split into cubes solved in parallel.

Why: near the frontier one call "no solution with <= T moves" takes hours on one core
(``benchmarks/sat_limits.md``), but it splits.  A *cube* is a conjunction of literals of
the formula F; F ∧ cube_i is a smaller problem, solved by its own worker with its own
DRAT proof.  The cubes must *cover* the space: F ∧ ¬cube_1 ∧ ... ∧ ¬cube_k is refuted by
one more DRAT proof (the cover proof).  Together they prove F unsatisfiable, which is the
claim of a bounded certificate; the checker (:mod:`coinsat.certificates.check.cubes`)
replays each proof, one at a time.

The split: k occupancy variables x[c, t] near the middle step t = T // 2 (the natural
split point: the configuration halfway).  Three ways to choose them:

* ``middle``: the cells nearest the window's centre, at step T // 2, every sign pattern of
  the first k a cube (2^k cubes; the cover is a full binary tree, refuted at once);
* ``lookahead``: the k variables x[c, t] (t within 2 of the middle) whose two values each
  propagate the most (score |units(x)| · |units(¬x)|, by unit propagation in CaDiCaL),
  chosen once at the root, every sign pattern a cube;
* ``tree``: a look-ahead *tree* (as march_cu builds): starting from the empty cube, the
  leaf whose unit propagation fixes the fewest variables (the least constrained, so the
  hardest guess) is split on the variable with the best look-ahead score *under that
  leaf's literals*, until there are 2^k leaves.  The leaves of a binary tree cover the
  space, so the cover proof stays trivial.

Measured (``benchmarks/cubes.md``, V(2,2) -> SW-NE at T = 35, 8 cubes): no split both
balances and saves CPU.  ``lookahead`` and ``tree`` leave one cube ("every split cell
empty") about as hard as the whole call (each variable's "occupied" side is easy), so 2
workers wait on it; ``middle`` balances (largest cube 1.5x the mean) but needs 2.7x their
CPU, 5x the unsplit call's.  The default is the split with the shortest 2-worker critical
path, max(largest cube, sum / 2): ``lookahead`` (63 CPU s), ``tree`` within 6 %, ``middle``
142 (the unsplit call: 57).

``benchmarks/cubes.md`` measures how evenly each splits (``scripts/cube_bench.py``).

Workers: ``solve_cubes`` takes any :class:`concurrent.futures.Executor`; the default is a
process pool on this machine (``workers`` processes).  A worker gets a picklable
:class:`CubeTask` (file names, the cube, a time budget) and returns a :class:`CubeOutcome`,
so another executor (a cluster, say) can plug in
unchanged as long as the files are visible to it.
"""

from __future__ import annotations

import time
from concurrent.futures import Executor, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from itertools import product
from pathlib import Path

from ...backends import Outcome
from ...backends.sat_backend import SatBackend, prove
from ...errors import LimitReached, WorkerLost
from ...instance import Instance
from ...io.atomic import write_atomic
from ...io.dimacs import gbd_hash
from ...limits import signals_deferred
from ...solution import Solution
from ..check.bounded import PROOF_SOLVERS, widened, window_exact
from ..check.core_cnf import core_clauses, core_cnf_text
from ..check.format import header, solution_json
from .bounded import claim_text, exact_margin, require_proof_checker

SPLITS = ("lookahead", "tree", "middle")
DEFAULT_SPLIT = "lookahead"  # the shortest 2-worker critical path measured (benchmarks/cubes.md)


@dataclass(frozen=True)
class CubeTask:
    """What a worker needs: everything by file name, so any executor can run it."""

    index: int
    cnf_path: str
    cube: tuple[int, ...]
    proof_path: str
    solver: str = "cadical195"
    seconds: float | None = None  # wall budget of this cube (None: unbounded)
    cpu_seconds: float | None = None  # CPU budget of this cube (measurements: a cap per cube)


@dataclass(frozen=True)
class CubeOutcome:
    index: int
    unsat: bool | None  # None: the budget ran out
    seconds: float
    conflicts: int
    proof_bytes: int
    cpu_seconds: float = 0.0  # of the worker process, solving this cube


def read_clauses(path: str | Path) -> list[list[int]]:
    """The clauses of the DIMACS file a :class:`CubeTask` names (a worker's input: any executor
    that sees the file can run the task)."""
    clauses: list[list[int]] = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line and line[0] not in "cp\n":
                clauses.append([int(x) for x in line.split()[:-1]])
    return clauses


def solve_cube(task: CubeTask) -> CubeOutcome:
    """Refute F ∧ cube with a DRAT proof written to ``task.proof_path`` (a worker's job), within
    the task's wall and CPU budgets."""
    clauses = read_clauses(task.cnf_path) + [[lit] for lit in task.cube]
    t0, c0 = time.perf_counter(), time.process_time()
    refutation = prove(clauses, task.solver, time_limit=task.seconds, cpu_limit=task.cpu_seconds)
    seconds, cpu = time.perf_counter() - t0, time.process_time() - c0
    conflicts = refutation.stats.get("conflicts", 0)
    if refutation.proof is None:
        unsat = None if refutation.outcome is Outcome.UNKNOWN else False
        return CubeOutcome(task.index, unsat, seconds, conflicts, 0, cpu)
    text = "\n".join(refutation.proof) + "\n"
    write_atomic(task.proof_path, text)
    return CubeOutcome(task.index, True, seconds, conflicts, len(text.encode()), cpu)


def split_variables(clauses: list[list[int]], candidates: list[int], k: int, how: str) -> list[int]:
    """k variables to split on, chosen from ``candidates`` (in order of preference for ``middle``)."""
    if how == "middle":
        return candidates[:k]
    if how != "lookahead":
        raise ValueError(f"unknown split {how!r} (choose from {', '.join(SPLITS)})")
    with SatBackend("cadical195") as s:
        s.add(clauses)
        scored = _scores(s, [], candidates)
    return [v for _, v in scored[:k]]


def _scores(s: SatBackend, cube: list[int], candidates: list[int]) -> list[tuple[int, int]]:
    """(score, variable), best first: |units(cube ∧ x)| · |units(cube ∧ ¬x)| for the free
    candidates (a failed literal fixes its variable: no use splitting on it)."""
    scored = []
    taken = {abs(lit) for lit in cube}
    for var in candidates:
        if var in taken:
            continue
        ok_pos, pos = s.propagate(assumptions=cube + [var])
        ok_neg, neg = s.propagate(assumptions=cube + [-var])
        if ok_pos and ok_neg:
            scored.append((len(pos) * len(neg), var))
    scored.sort(key=lambda sv: (-sv[0], sv[1]))
    return scored


def tree_cubes(clauses: list[list[int]], candidates: list[int], leaves: int, pool: int = 48) -> list[tuple[int, ...]]:
    """``leaves`` cubes, the leaves of a look-ahead tree (the ``tree`` split).

    Repeatedly the leaf that propagates to the fewest fixed variables is split on its best
    look-ahead variable.  Only the ``pool`` best candidates at the root are scored below it
    (the scoring is |candidates| propagations per split).  A leaf with no splittable
    variable left is not split again; the result may then hold fewer cubes.
    """
    with SatBackend("cadical195") as s:
        s.add(clauses)
        pool_vars = [v for _, v in _scores(s, [], candidates)[:pool]]
        open_: list[tuple[int, list[int]]] = [(_fixed(s, []), [])]
        done: list[list[int]] = []
        while open_ and len(open_) + len(done) < leaves:
            open_.sort(key=lambda fc: fc[0])
            _, cube = open_.pop(0)
            best = _scores(s, cube, pool_vars)
            if not best:
                done.append(cube)
                continue
            var = best[0][1]
            for lit in (var, -var):
                open_.append((_fixed(s, cube + [lit]), cube + [lit]))
    return [tuple(c) for _, c in open_] + [tuple(c) for c in done] if (open_ or done) else [()]


def _fixed(s: SatBackend, cube: list[int]) -> int:
    ok, units = s.propagate(assumptions=cube)
    return len(units) if ok else 1 << 30  # a cube refuted by propagation is the easiest


def cubes_of(variables: list[int]) -> list[tuple[int, ...]]:
    """Every sign pattern of ``variables``: a full binary split (2^k cubes)."""
    return [
        tuple(v if s else -v for v, s in zip(variables, signs))
        for signs in product((True, False), repeat=len(variables))
    ]


def occupancy_candidates(target: Instance, horizon: int, core: bool, formula) -> list[int]:
    """The variables x[c, t] near the middle step, central cells first."""
    b = target.board
    if b.is_lattice:
        coords = b.lattice_coords
        cx = sum(x for x, _ in coords) / len(coords)
        cy = sum(y for _, y in coords) / len(coords)
        order = sorted(range(b.size), key=lambda c: ((coords[c][0] - cx) ** 2 + (coords[c][1] - cy) ** 2, c))
    else:
        order = list(range(b.size))
    mid = horizon // 2
    steps = [mid] + [t for d in (1, 2) for t in (mid - d, mid + d) if 0 < t < horizon]
    out = []
    for t in steps:
        for c in order:
            var = t * b.size + c + 1 if core else formula.encoder.x(c, t)
            if var is not None:
                out.append(var)
    return out


def solve_cubes(tasks: list[CubeTask], workers: int = 1, executor: Executor | None = None) -> list[CubeOutcome]:
    """Run the tasks on ``executor`` (default: a pool of ``workers`` processes on this machine).

    The default pool is ended by this function however it ends.  When a limit (the watchdog's
    LimitReached, Ctrl-C) stops the wait for the cubes, its workers are killed and reaped at
    once, with signals held back meanwhile: waiting for a running cube to end, as a plain
    ``shutdown`` does, let the watchdog fire again inside ``shutdown`` and left a worker that
    never got its sentinel, blocked on a pipe, and the command hung at exit."""
    if executor is not None:
        return list(executor.map(solve_cube, tasks))
    pool = ProcessPoolExecutor(max_workers=workers)
    try:
        return list(pool.map(solve_cube, tasks))
    except BrokenProcessPool:  # a worker killed (by hand, or by the kernel out of memory)
        _end(pool)
        raise WorkerLost("a cube worker ended without answering (killed?); nothing certified") from None
    except BaseException:
        _end(pool)
        raise
    finally:
        with signals_deferred():
            pool.shutdown(wait=True, cancel_futures=True)


def _end(pool: ProcessPoolExecutor) -> None:
    """Kill the pool's workers and reap them (signals held back: this must run to the end)."""
    with signals_deferred():
        procs = list((getattr(pool, "_processes", None) or {}).values())
        pool.shutdown(wait=False, cancel_futures=True)
        for proc in procs:
            if proc.is_alive():
                proc.kill()
        for proc in procs:
            proc.join()


def build_cubes(
    instance: Instance,
    horizon: int,
    out_dir: str | Path,
    stem: str,
    solution: Solution | None = None,
    *,
    core: bool = False,
    split: str = DEFAULT_SPLIT,
    depth: int = 3,
    workers: int = 1,
    executor: Executor | None = None,
    solver: str = "cadical195",
    deadline: float | None = None,
    stats: dict | None = None,
    cube_cpu_cap: float | None = None,
) -> dict | None:
    """Prove "no solution with <= T moves" by cube-and-conquer: the base CNF, 2^depth cube proofs and the
    cover proof (module docstring); the certificate.

    Parameters
    ----------
    instance : Instance
        The puzzle (on a lattice, built in the window exact for T, as :func:`~.bounded.build_bounded`).
    horizon : int
        T.
    out_dir : str or Path
        Gets the CNF, the cubes and the proofs, named after ``stem``.
    stem : str
        The files' name stem.
    solution : Solution, optional
        A solution, replayed by the checker and claimed beside the bound (``optimal`` when it
        has T + 1 moves).
    core : bool
        Encode only the definition families C1-C8.
    split : str
        How the cubes are chosen: ``lookahead``, ``tree`` or ``middle`` (``coinsat.certify.SPLITS``).
    depth : int
        2^depth cubes (``tree``: as many leaves).
    workers : int
        Processes that solve the cubes (with the default executor).
    executor : concurrent.futures.Executor, optional
        Runs the :class:`CubeTask` s (default: a pool of ``workers`` processes).
    solver : str
        The PySAT solver that writes the proofs.
    deadline : float, optional
        A ``time.perf_counter()`` value.
    stats : dict, optional
        Receives the per-cube outcomes and the split (for measurements).
    cube_cpu_cap : float, optional
        Stop each cube after that many CPU seconds (measurements only).

    Returns
    -------
    dict or None
        The certificate object; None if some cube is satisfiable (then so is the formula).

    Raises
    ------
    LimitReached
        Past ``deadline``, or when a cube passes ``cube_cpu_cap`` (after ``stats`` is filled).
    """
    if solver not in PROOF_SOLVERS:
        raise ValueError(f"solver {solver!r} cannot give trusted proofs (use one of {PROOF_SOLVERS})")
    require_proof_checker()
    margin = exact_margin(instance, horizon)
    target = instance if margin is None else widened(instance, margin)
    out = Path(out_dir)
    if core:  # the text and the clauses it prints: the formula object, never its text read back
        cnf, formula = core_clauses(target, horizon), None
        text, clauses = core_cnf_text(target, horizon, cnf), cnf.clauses
        encoding: object = "core"
    else:
        from ...encode.options import DEFAULT_OPTIONS
        from ...encode.pb import clauses_with_empty
        from ...encode.sat import encode
        from ...io.dimacs import cnf_text

        formula = encode(target, horizon, DEFAULT_OPTIONS)
        text, clauses, encoding = cnf_text(target, formula), clauses_with_empty(formula), DEFAULT_OPTIONS.as_dict()
    cnf_name = f"{stem}.h{horizon}.cnf"
    write_atomic(out / cnf_name, text)
    t0 = time.perf_counter()
    candidates = occupancy_candidates(target, horizon, core, formula)
    if split == "tree":
        cubes = tree_cubes(clauses, candidates, 1 << depth)
        variables = sorted({abs(lit) for c in cubes for lit in c})
    else:
        variables = split_variables(clauses, candidates, depth, split)
        cubes = cubes_of(variables)
    split_seconds = time.perf_counter() - t0
    left = None if deadline is None else deadline - time.perf_counter()
    if left is not None and left <= 0:
        raise LimitReached(f"no proof of 'no solution with <= {horizon} moves' within the time limit")
    names = [f"{stem}.h{horizon}.cube{i}.drat" for i in range(len(cubes))]
    tasks = [
        CubeTask(i, str(out / cnf_name), cube, str(out / name), solver, left, cube_cpu_cap)
        for i, (cube, name) in enumerate(zip(cubes, names))
    ]
    t1 = time.perf_counter()
    outcomes = solve_cubes(tasks, workers, executor)
    cubes_wall = time.perf_counter() - t1
    if stats is not None:
        stats.update(variables=variables, split_seconds=split_seconds, outcomes=outcomes, wall=cubes_wall)
    if any(o.unsat is None for o in outcomes):
        raise LimitReached(f"no proof of 'no solution with <= {horizon} moves' within the time limit")
    if not all(o.unsat for o in outcomes):
        return None
    cover_name = f"{stem}.h{horizon}.cover.drat"
    cover = prove(clauses + [[-lit for lit in c] for c in cubes], solver)
    if cover.proof is None:
        raise ValueError("the cubes do not cover the formula")  # a full split always does
    write_atomic(out / cover_name, "\n".join(cover.proof) + "\n")
    cert = header(instance, "bounded", "horizon", claim_text(target, horizon, solution))
    cert.update(
        horizon=horizon,
        margin=margin,
        encoding=encoding,
        cnf=cnf_name,
        cnf_gbd_hash=gbd_hash(text),
        proof_format="cubes",
        solver=solver,
        cubes=[list(c) for c in cubes],
        cube_proofs=names,
        cover_proof=cover_name,
        split=split,
        workers=workers,
        cube_seconds=[round(o.seconds, 3) for o in outcomes],
        cubes_wall_seconds=round(cubes_wall, 3),
        proof_bytes=sum(o.proof_bytes for o in outcomes),
        window_exact=window_exact(target, horizon),
    )
    if solution is not None:
        cert["solution"] = solution_json(instance, solution)
    return cert
