"""How far SAT proves "no solution with <= T moves" within a CPU budget: the climb, one call,
and cube-and-conquer on 2 workers, and the search over horizons that asks them.

* :func:`climb`: the SAT engine's plain climb (``coinsat.solve(method="sat")``, one solver kept across
  horizons) in a child process killed at the cap (``RLIMIT_CPU``); the largest T reported UNSAT.
* :func:`one_call`: one fresh solver call on the formula at T (no proof), no climb.
* :func:`cube_call`: cube-and-conquer (``build_cubes``) on 2 workers whose CPU seconds together
  are capped by :class:`BudgetPool` (the budget is the call's, not a share per cube: the
  look-ahead split leaves one cube nearly as hard as the whole call).
* :func:`search` (``climb``): the first call at min(c + 1, T* − 1), c the climb's result; after
  a success at T, T + 1 (up to T* − 1); after a failure with nothing proven yet, T − 1; after a
  failure once something is proven, stop.  Every call gets half of the budget left.
  :func:`search_down` (``optimum``) starts at T* − 1 and halves the interval towards c.  A
  failed call proves nothing; a proven T proves every smaller T too.

``scripts/sat_limits.py`` runs them on the V family and writes ``benchmarks/sat_limits.md``.
"""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from coinsat import read_instance
from coinsat.certificates.prove.cubes import build_cubes
from coinsat.errors import LimitReached


@dataclass(frozen=True)
class Member:
    key: str
    path: Path
    optimum: int  # proven with a checked certificate: the most any call can prove is optimum - 1


_CLIMB = """
import json, sys
from coinsat import read_instance, solve
def report(r):
    print(json.dumps({"T": r.horizon, "outcome": str(getattr(r.outcome, "value", r.outcome))}), flush=True)
solve(read_instance(sys.argv[1]), "sat", screens=False, max_moves=int(sys.argv[2]), progress=report)
"""


def _cpu_cap(cap: float):
    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_CPU, (int(cap), int(cap) + 5))

    return limit


def climb(m: Member, cap: float) -> tuple[int | None, float, list[str]]:
    """(largest T reported UNSAT, CPU s, the calls) of the plain climb, killed at ``cap`` CPU s."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    p = subprocess.run(
        [sys.executable, "-c", _CLIMB, str(m.path), str(m.optimum - 1)],
        capture_output=True,
        text=True,
        preexec_fn=_cpu_cap(cap),
    )
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    rows = [json.loads(line) for line in p.stdout.splitlines() if line.startswith("{")]
    unsat = [r["T"] for r in rows if r["outcome"].lower() == "unsat"]
    last = f"T = {rows[-1]['T']} {rows[-1]['outcome']}" if rows else "no call answered"
    return (max(unsat) if unsat else None), cpu, [f"{len(rows)} calls answered, the last {last}"]


def one_call(m: Member, T: int, cap: float) -> tuple[bool | None, float]:
    """One fresh call at T (pruned encoding, no proof), capped at ``cap`` CPU s: (UNSAT?, CPU s)."""
    from pysat.solvers import Solver

    from coinsat.certificates.check.bounded import widened
    from coinsat.certificates.prove.bounded import exact_margin
    from coinsat.encode.sat import encode
    from coinsat.io.dimacs import cnf_text

    inst = read_instance(m.path)
    margin = exact_margin(inst, T)
    target = inst if margin is None else widened(inst, margin)
    c0 = time.process_time()
    text = cnf_text(target, encode(target, T))
    clauses = [[int(x) for x in line.split()[:-1]] for line in text.splitlines() if line and line[0] not in "cp"]
    with Solver(name="cadical195", bootstrap_with=clauses) as s:
        budget = 2000
        while time.process_time() - c0 < cap:
            s.conf_budget(budget)
            answer = s.solve_limited()
            if answer is not None:
                return (not answer), time.process_time() - c0
            budget = min(2 * budget, 1 << 18)
    return None, time.process_time() - c0


class BudgetPool:
    """An executor for ``build_cubes`` that stops its workers at a CPU budget shared by them.

    ``map`` starts the cubes with the most negative literals first and polls the workers'
    CPU seconds (``/proc/<pid>/stat``); past ``budget`` it kills them and raises
    :class:`LimitReached`.  A satisfiable cube also ends the map (its outcome is returned and
    the rest are reported unsolved), as one cube model is a model of the formula.
    """

    def __init__(self, workers: int, budget: float) -> None:
        self.workers, self.budget = workers, budget

    def map(self, fn, tasks):
        import multiprocessing

        from coinsat.certificates.prove.cubes import CubeOutcome

        order = sorted(tasks, key=lambda t: (-sum(lit < 0 for lit in t.cube), t.index))
        tick = os.sysconf("SC_CLK_TCK")
        with multiprocessing.get_context("fork").Pool(self.workers) as pool:
            pending = {t.index: pool.apply_async(fn, (t,)) for t in order}
            pids = [w.pid for w in pool._pool]
            while True:
                done = {i: r.get() for i, r in pending.items() if r.ready()}
                if len(done) == len(pending) or any(o.unsat is False for o in done.values()):
                    break
                if _cpu_of(pids, tick) >= self.budget:
                    pool.terminate()
                    raise LimitReached(f"the cubes used their {self.budget:.0f} CPU s")
                time.sleep(0.5)
            pool.terminate()
        return [done.get(t.index) or CubeOutcome(t.index, None, 0.0, 0, 0) for t in tasks]


def _cpu_of(pids: list[int], tick: int) -> float:
    """CPU seconds (user + system) of live processes so far; a finished one counts 0 here."""
    total = 0.0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += (int(fields[11]) + int(fields[12])) / tick
    return total


def cube_call(m: Member, T: int, cap: float, depth: int) -> tuple[bool | None, float]:
    """Cube-and-conquer at T on 2 workers sharing ``cap`` CPU s (:class:`BudgetPool`):
    (UNSAT?, CPU s of this process and the workers)."""
    inst = read_instance(m.path)
    c0 = time.process_time()
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    with tempfile.TemporaryDirectory(dir=os.environ.get("TMPDIR")) as d:
        try:
            cert = build_cubes(inst, T, d, "c", depth=depth, workers=2, executor=BudgetPool(2, cap))  # type: ignore[arg-type]
            answer: bool | None = cert is not None
        except LimitReached:
            answer = None
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    workers = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return answer, (time.process_time() - c0) + workers


def said(T: int, answer: bool | None, cpu: float) -> str:
    """One call of the log: 'T = 45: UNSAT (60 CPU s)'."""
    return f"T = {T}: {'UNSAT' if answer else ('SAT?!' if answer is False else 'stopped')} ({cpu:.0f} CPU s)"


def search(m: Member, lo: int | None, cap: float, call, how: str = "climb") -> tuple[int | None, list[str]]:
    """The largest T proven by ``call`` within ``cap`` CPU s, and the calls (the order: module docstring)."""
    if how == "optimum" or lo is None:
        return search_down(m, lo, cap, call)
    proven: int | None = None
    left, T, failed = cap, min(lo + 1, m.optimum - 1), m.optimum  # failed: the lowest T that failed
    log: list[str] = []
    while left > 5 and 0 < T < failed:
        answer, cpu = call(m, T, left / 2)
        left -= cpu
        log.append(said(T, answer, cpu))
        if answer is False:
            break  # satisfiable below the optimum: the optimum is wrong
        if answer:
            proven, T = T, T + 1
        elif proven is not None:
            break
        else:
            failed, T = T, T - 1
    return proven, log


def search_down(m: Member, lo: int | None, cap: float, call) -> tuple[int | None, list[str]]:
    """``--search optimum``: T* − 1 first, then halfway
    between the climb's ``lo`` and the last failure (module docstring)."""
    proven: int | None = None
    left, hi, base = cap, m.optimum - 1, lo if lo is not None else 0
    log: list[str] = []
    T = hi
    while left > 5 and T > (proven if proven is not None else base - (1 if T == hi else 0)):
        answer, cpu = call(m, T, left / 2)
        left -= cpu
        log.append(said(T, answer, cpu))
        if answer is False:
            break  # satisfiable below the optimum: the optimum is wrong
        if answer:
            proven = T
        else:
            hi = T - 1
        T = ((proven if proven is not None else base) + hi + 1) // 2
    return proven, log
