#!/usr/bin/env python3
"""Engines side by side: BFS, SAT (and ILP when registered) and Fast Downward, in one run.

    python3 scripts/bench_engines.py [--set paper,scaling] [--engines bfs,sat,fd]
        [--time-limit 60] [--memory-gb 6] [--final] [--out benchmarks/engines.md]

Every (instance, engine) pair runs in its own subprocess (this script with the
hidden ``_worker`` sub-command) under a wall-clock timeout and an address-space
limit, so a hang or a memory blow-up costs one cell of the table, never the run.

* coinsat engines (every name among bfs/spanbfs/sat/ilp registered in
  ``coinsat.search.methods.METHODS``): ``solve(instance, method, time_limit=S)``;
  the time is the engine's own ``Result.seconds`` (no interpreter start-up).
  An engine that cannot take an instance (spanbfs on labeled coins) shows "n/a".
* ``fd``: Fast Downward's optimal planner (package ``up-fast-downward``), A* with
  the admissible LM-cut heuristic, on the PDDL that ``coinsat export --format pddl``
  writes; the time is the wall time of the whole planner call (driver, translator,
  search).  The plan is read back and replayed by ``coinsat.solution.verify``;
  a plan that fails verification is reported as an error, never as a time.

Instances: ``paper`` = instances/paper/*.toml; ``scaling`` = the diagonal flips
``diagonal_flip(k)`` and the V family ``vdiag(a, b)`` in growing size.  In a
scaling family an engine that failed (timeout, memory) on a member is not run on
the larger members.  Without ``--final`` the table is marked preliminary (the
machine is shared: timings are noisy).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from lab.commandline import shown

ROOT = Path(__file__).resolve().parents[2]


CORE_ENGINES = ("bfs", "spanbfs", "sat", "ilp")
SCALING = {
    "diagonal": [("diagonal_flip", (k,)) for k in (4, 5, 6, 7, 8)],
    "vdiag": [("vdiag", ab) for ab in ((1, 1), (2, 1), (2, 2), (3, 2), (3, 3), (4, 3), (4, 4))],
}


def available_engines() -> list[str]:
    from coinsat import METHODS
    from coinsat.io.pddl import fast_downward_driver

    engines = [m for m in CORE_ENGINES if m in METHODS]
    if fast_downward_driver():
        engines.append("fd")
    return engines


# --- worker: one engine on one instance, one JSON line on stdout ----------------------


def worker(engine: str, path: str, time_limit: float) -> dict:
    from coinsat import read_instance
    from coinsat.solution import verify

    inst = read_instance(path)
    from coinsat.search.methods import inapplicable

    if engine != "fd" and inapplicable(engine, inst):
        return {"status": "n/a", "reason": inapplicable(engine, inst)}
    if engine == "fd":
        out = run_fd(inst, time_limit)
    else:
        from coinsat import solve

        r = solve(inst, engine, time_limit=time_limit)
        out = {
            "status": r.status.value,
            "length": r.length,
            "lower_bound": r.lower_bound,
            "seconds": r.seconds,
            "stats": _jsonable(r.stats),
            "solution": r.solution,
        }
    sol = out.pop("solution")
    if sol is not None:
        verdict = verify(inst, sol)
        out["verified"] = verdict.ok
        if not verdict.ok:
            out["status"] = "error"
            out["error"] = f"solution fails verification: step {verdict.step}: {verdict.reason}"
    return out


def _jsonable(d: dict) -> dict:
    return {k: v for k, v in d.items() if isinstance(v, (int, float, str, bool, type(None), list))}


def run_fd(inst, time_limit: float) -> dict:
    """Fast Downward, astar(lmcut()), on the exported PDDL; status in coinsat's vocabulary."""
    from coinsat.io.pddl import fast_downward_driver, pddl_task, read_plan

    task = pddl_task(inst)
    with tempfile.TemporaryDirectory(prefix="coinsat-fd-") as tmp:
        dom, prob, plan = (os.path.join(tmp, f) for f in ("domain.pddl", "problem.pddl", "plan"))
        Path(dom).write_text(task.domain)
        Path(prob).write_text(task.problem)
        cmd = [
            sys.executable,
            fast_downward_driver(),
            "--overall-time-limit",
            f"{max(1, int(time_limit))}s",
            "--plan-file",
            plan,
            dom,
            prob,
            "--search",
            "astar(lmcut())",
        ]
        t0 = time.perf_counter()
        p = subprocess.run(cmd, cwd=tmp, capture_output=True, text=True)
        seconds = time.perf_counter() - t0
        stats = {"fd_exit": p.returncode}
        for line in p.stdout.splitlines():
            if "] Search time:" in line:
                stats["fd_search_seconds"] = float(line.split("Search time:")[1].strip().rstrip("s"))
            if "] Expanded " in line and "until" not in line:
                stats["fd_expanded"] = int(line.split("Expanded")[1].split()[0])
        if p.returncode == 0 and os.path.exists(plan):
            sol = read_plan(inst, Path(plan).read_text())
            # A* with an admissible heuristic: shortest inside the window; global only if the
            # window is exact up to length - 1 (same rule as the BFS oracle).
            status = "optimal" if inst.exact_within(len(sol) - 1) else "feasible"
            return {
                "status": status,
                "length": len(sol),
                "lower_bound": len(sol) if status == "optimal" else None,
                "seconds": seconds,
                "stats": stats,
                "solution": sol,
            }
        # FD exit codes: 10/11 = proven unsolvable (translator / search), 23 = out of time
        # (search), 22 = out of memory; anything else is an error.
        status = {10: "unsolvable", 11: "unsolvable", 12: "unknown", 22: "memout", 23: "timeout", 24: "timeout"}.get(
            p.returncode, "error"
        )
        out = {
            "status": status,
            "length": None,
            "lower_bound": None,
            "seconds": seconds,
            "stats": stats,
            "solution": None,
        }
        if status == "error":
            out["error"] = (p.stderr or p.stdout)[-400:]
        return out


# --- parent: run the grid, write the table ------------------------------------------


def _limit_memory(gb: float):
    def set_limit():
        b = int(gb * 2**30)
        resource.setrlimit(resource.RLIMIT_AS, (b, b))

    return set_limit


def run_one(engine: str, path: Path, time_limit: float, memory_gb: float) -> dict:
    cmd = [
        sys.executable,
        str(ROOT / "scripts/bench_engines.py"),
        "_worker",
        engine,
        str(path),
        "--time-limit",
        str(time_limit),
    ]
    t0 = time.perf_counter()
    try:
        p = subprocess.run(
            cmd, capture_output=True, text=True, timeout=time_limit + 15, preexec_fn=_limit_memory(memory_gb)
        )
    except subprocess.TimeoutExpired:
        return {"status": "timeout", "seconds": time.perf_counter() - t0}
    if p.returncode != 0:
        err = p.stderr.strip().splitlines()[-1:] or ["?"]
        status = "memout" if "MemoryError" in p.stderr else "error"
        return {"status": status, "seconds": time.perf_counter() - t0, "error": err[0][:200]}
    res = json.loads(p.stdout.strip().splitlines()[-1])
    if res["status"] == "unknown" and res.get("seconds", 0) >= 0.95 * time_limit:
        res["status"] = "timeout"
    return res


def instance_files(sets: list[str], tmp: Path) -> list[tuple[str, str, Path]]:
    """(group, family, path) for every instance of the chosen sets, in run order."""
    from coinsat import families, write_instance

    out = []
    if "paper" in sets:
        out += [("paper", "", p) for p in sorted((ROOT / "instances/paper").glob("*.toml"))]
    if "scaling" in sets:
        for fam, members in SCALING.items():
            for func, params in members:
                inst = getattr(families, func)(*params)
                path = tmp / f"{inst.name}.toml"
                write_instance(inst, path)
                out.append(("scaling", fam, path))
    return out


def fmt_time(r: dict | None, limit: float) -> str:
    if r is None:
        return "—"
    st = r["status"]
    if st in ("optimal", "unsolvable", "bounded"):
        return f"{r['seconds']:.2f}" + ("" if st == "optimal" else f" ({st})")
    if st == "feasible":
        return f"{r['seconds']:.2f} (feasible {r.get('length')})"
    if st == "timeout":
        return f"> {limit:g} (timeout)"
    if st in ("skipped", "n/a"):
        return st
    return st


def ratio(a: dict | None, b: dict | None, limit: float) -> str:
    """time(a) / time(b): > 1 means b is faster."""
    solved = ("optimal", "unsolvable")
    if not a or not b or b.get("status") not in solved:
        return "—"
    tb = max(b["seconds"], 0.01)  # below 10 ms a ratio says nothing
    if a.get("status") in solved:
        return f"{max(a['seconds'], 0.01) / tb:.1f}"
    if a.get("status") == "timeout":
        return f"> {limit / tb:.0f}"
    return "—"


def answer(results: dict[str, dict], known) -> tuple[str, bool]:
    """The agreed answer (optimum or 'unsolvable') and whether the engines agree."""
    finals = {
        e: (r["status"], r.get("length"))
        for e, r in results.items()
        if r and r.get("status") in ("optimal", "unsolvable")
    }
    values = set(finals.values())
    if not values:
        return "?", True
    agree = len(values) == 1
    st, length = sorted(values, key=str)[0]
    text = str(length) if st == "optimal" else "unsolvable"
    if known is not None and st == "optimal" and length != known:
        agree = False
    return (text if agree else "DISAGREE " + json.dumps(finals)), agree


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["_worker"]:
        return worker_main(argv[1:])
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--set", default="paper,scaling", help="comma list of: paper, scaling")
    ap.add_argument("--engines", default=None, help="comma list (default: every available engine)")
    ap.add_argument("--time-limit", type=float, default=60.0, help="seconds per engine and instance")
    ap.add_argument("--memory-gb", type=float, default=6.0, help="address-space limit per engine run")
    ap.add_argument("--only", default=None, help="comma list of instance names to keep")
    ap.add_argument("--final", action="store_true", help="do not mark the table preliminary")
    ap.add_argument("--out", default=str(ROOT / "benchmarks/engines.md"))
    ap.add_argument("--json", default=None, help="also write the raw results here")
    args = ap.parse_args(argv)

    from coinsat import read_instance
    from coinsat.io.atomic import write_atomic

    engines = args.engines.split(",") if args.engines else available_engines()
    sets = args.set.split(",")
    command = shown("scripts/bench_engines.py", argv or sys.argv[1:], ROOT)
    rows, raw = [], []
    with tempfile.TemporaryDirectory(prefix="coinsat-bench-") as tmp:
        failed: dict[tuple[str, str], bool] = {}
        for group, fam, path in instance_files(sets, Path(tmp)):
            inst = read_instance(path)
            if args.only and inst.name not in args.only.split(","):
                continue
            results: dict[str, dict] = {}
            for e in engines:
                if fam and failed.get((fam, e)):
                    results[e] = {"status": "skipped"}
                    continue
                r = run_one(e, path, args.time_limit, args.memory_gb)
                results[e] = r
                if fam and r["status"] in ("timeout", "memout", "error", "unknown"):
                    failed[(fam, e)] = True
                print(
                    f"{inst.name:>22} {e:>4}: {r['status']:<10} {r.get('length')} {r.get('seconds', 0):8.2f} s",
                    file=sys.stderr,
                    flush=True,
                )
            opt, agree = answer(results, inst.known_optimal)
            raw.append({"instance": inst.name, "group": group, "family": fam, "results": results, "answer": opt})
            sat = results.get("sat") or {}
            st = sat.get("stats", {}) if sat.get("status") in ("optimal", "unsolvable") else {}
            nvars = st.get("vars", st.get("variables", "—"))
            ncls = st.get("clauses", "—")
            cells = [fmt_time(results.get(e), args.time_limit) for e in engines]
            ratios = (
                [ratio(results.get(e), results.get("sat"), args.time_limit) for e in engines if e != "sat"]
                if "sat" in engines
                else []
            )
            rows.append(
                [inst.name, group + (f"/{fam}" if fam else ""), str(inst.n_coins), str(inst.board.size), opt]
                + cells
                + ratios
                + [str(nvars), str(ncls)]
            )
            if not agree:
                print(f"ENGINES DISAGREE on {inst.name}: {opt}", file=sys.stderr)
    header = (
        ["instance", "set", "coins", "cells", "optimum"]
        + [f"{e} s" for e in engines]
        + ([f"{e}/sat" for e in engines if e != "sat"] if "sat" in engines else [])
        + ["sat vars", "sat clauses"]
    )
    text = render(header, rows, engines, command, args) + crossover(raw, args.time_limit)
    write_atomic(args.out, text)
    if args.json:
        write_atomic(args.json, json.dumps(raw, indent=1, default=str) + "\n")
    print(text)
    return 0


def crossover(raw: list[dict], limit: float) -> str:
    """Per scaling family: the first member on which SAT is faster than BFS, and the ratios."""
    out = []
    for fam in SCALING:
        members = [r for r in raw if r["group"] == "scaling" and r.get("family") == fam]
        if not members or "sat" not in members[0]["results"] or "bfs" not in members[0]["results"]:
            continue
        ratios = [(m["instance"], ratio(m["results"]["bfs"], m["results"]["sat"], limit)) for m in members]
        first = next((name for name, q in ratios if q != "—" and (q.startswith(">") or float(q) > 1)), None)
        out.append(
            f"* {fam}: "
            + ", ".join(f"{n} {q}" for n, q in ratios)
            + (f" — SAT first faster than BFS on **{first}**" if first else " — SAT never faster than BFS here")
        )
    if not out:
        return ""
    return "\n## SAT vs BFS crossover (time(bfs) / time(sat))\n\n" + "\n".join(out) + "\n"


def render(header, rows, engines, command, args) -> str:
    lines = ["# Engines side by side", ""]
    if not args.final:
        lines += ["**PRELIMINARY** — measured on a 2-core machine shared with other jobs; timings are noisy.", ""]
    lines += [
        f"Generated by `{command}` — do not edit by hand.",
        "",
        f"Engines: {', '.join(engines)}. Time limit {args.time_limit:g} s and {args.memory_gb:g} GiB "
        "per engine and instance, each in its own subprocess. Seconds: coinsat engines report their own "
        "solve time (`Result.seconds`); `fd` is the wall time of the whole Fast Downward call "
        "(translator + A* with LM-cut) on the exported PDDL, counted only after its plan passed "
        "`verify`. Ratios are time(engine) / time(sat): above 1 means SAT is faster. "
        "`skipped`: the engine already failed on a smaller member of the same family. "
        "SAT variables and clauses are those of the formula at the final horizon.",
        "",
        "| " + " | ".join(header) + " |",
        "|" + "---|" * len(header),
    ]
    lines += ["| " + " | ".join(r) + " |" for r in rows]
    return "\n".join(lines) + "\n"


def worker_main(argv: list[str]) -> int:
    """``scripts/bench_engines.py _worker ENGINE PATH --time-limit S``: one engine on one file, its
    answer printed as JSON (run in a child process, so a crash or a limit ends the child alone)."""
    wp = argparse.ArgumentParser()
    wp.add_argument("engine")
    wp.add_argument("path")
    wp.add_argument("--time-limit", type=float, required=True)
    a = wp.parse_args(argv)
    print(json.dumps(worker(a.engine, a.path, a.time_limit), default=str))
    return 0


if __name__ == "__main__":
    sys.exit(main())
