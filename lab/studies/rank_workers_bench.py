#!/usr/bin/env python3
"""rankbfs on 1 against N worker processes, in the same run, and where the workers' time goes.

Each instance is solved ``--repeat`` times with each worker count, alternating, every run a
fresh process (``coinsat.solve(..., "rankbfs", workers=N)``).  A row gives wall and CPU
seconds (the process and its workers), states expanded per CPU second, and the search's own
account (``stats["round_cpu"]``, ``search/rank/loop.py`` and ``processes.py``): the CPU of
the expand and absorb rounds (summed over the workers; and the gather round, where the workers
write the witness's layers for the parent), and for worker runs the *critical
path* (per round, the busiest worker's CPU, summed) and the parent's CPU (routing
successors: pickling and pipes).  On a
machine with N idle cores a worker run takes about its serial part (its CPU less the
workers' rounds: start-up, screens, the parent) plus the critical path, so
``CPU(1 worker) / (serial + critical)`` estimates the wall speed-up of a quiet machine;
the measured wall ratio is also given, with the load average around each run, since a
shared machine bounds it by the cores others leave.  Answers (and their moves), states kept,
states expanded and the layers' sizes must agree (the script exits 1 if not).

    nice -n 10 python3 scripts/rank_workers_bench.py [--instances vdiag-3-3-nwse:53,vdiag-3-2-nwse] \\
        [--workers 1,2,2/pipes] [--repeat 2] [--baseline COMMIT] [--out benchmarks/rankbfs-workers.md]

With ``--baseline COMMIT`` every worker count also runs on that commit (a temporary ``git
worktree`` of it, its own copy of this script measuring it), the two trees alternating, and the
table adds this tree's CPU against the baseline's.

An instance is a name in instances/families/, optionally ``:U`` for ``--upper-bound`` U and
``:U:H`` for the h it prunes with (``--heuristic H``: fill, forced, lmcut); a
worker count N, optionally ``/pipes`` (``COINSAT_ROUTE=pipes``, ``Kernels.memfd`` False:
successors through the parent's pipes instead of the workers' memory files,
``search/rank/processes.py``).  The workers before their last changes (the kernels loaded by
each worker, numpy's owner split, a worker's own successors through its file, gathered layers
sorted) are measured from a copy of commit 0f5a110 (``git archive 0f5a110 | tar -x -C DIR``,
then ``DIR/scripts/rank_workers_bench.py --commit 0f5a110 --workers 2/before``: that commit's
variant).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def one(spec: str, workers: int) -> dict:
    """Solve one instance in this process (the run measured) and report."""
    import coinsat

    if not Path(coinsat.__file__).resolve().is_relative_to(ROOT):
        raise SystemExit(f"measured {coinsat.__file__}, not the coinsat of {ROOT}")
    name, _, rest = spec.partition(":")
    bound, _, h = rest.partition(":")
    inst = coinsat.read_instance(ROOT / "instances" / "families" / f"{name}.toml")
    options: dict = {"workers": workers}
    if bound:
        options["upper_bound"] = int(bound)
    if h:
        options["heuristic"] = h
    t0, c0 = time.perf_counter(), time.process_time()
    r = coinsat.solve(inst, "rankbfs", **options)
    wall = time.perf_counter() - t0
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return {
        "status": r.status.value,
        "length": r.length,
        "states": r.stats.get("states"),
        "expanded": r.stats.get("expanded"),
        "layers": r.stats.get("layers"),
        "moves": hashlib.sha256(repr(r.solution and r.solution.moves).encode()).hexdigest()[:12],
        "round_cpu": r.stats.get("round_cpu"),
        "route": r.stats.get("route", ""),
        "wall": wall,
        "cpu": time.process_time() - c0 + kids.ru_utime + kids.ru_stime,
    }


#: the rounds a search's ``round_cpu`` may account for (``gather``: the workers write the witness's
#: layers for the parent, ``search/rank/processes.py``'s ``Pool.gather``, since commit 35e945e)
ROUNDS = ("expand", "absorb", "gather")


def _rounds(r: dict) -> float:
    """The CPU of a run's rounds (expand, absorb and, for worker runs that have one, gather:
    summed over its workers)."""
    return sum(r["round_cpu"].get(k, 0.0) for k in ROUNDS)


def _critical(r: dict) -> float:
    """A worker run's serial CPU (all but the workers' rounds) plus its critical path."""
    return r["cpu"] - _rounds(r) + r["round_cpu"]["critical"]


def _same(rs: list[dict]) -> bool:
    """Every run of an instance gives the same answer, states and states expanded, and those that
    report them (a baseline's copy of this script may not) the same layer sizes and moves."""
    told = [r for r in rs if r.get("layers") is not None]
    return (
        len({(r["status"], r["length"], r["states"], r["expanded"]) for r in rs}) == 1
        and len({(tuple(r["layers"]), r.get("moves")) for r in told}) <= 1
    )


def run(spec: str, workers: str, tree: Path = ROOT, side: str = "") -> dict:
    """One measured run in a fresh process; ``workers`` is N or N/pipes; ``tree`` the checkout
    whose coinsat runs (its own copy of this script measures it), ``side`` its name in the table."""
    load0 = os.getloadavg()[0]
    count, _, route = workers.partition("/")
    env = dict(os.environ, PYTHONPATH=str(tree))  # that tree's coinsat (a `git archive` copy's), not the installed one
    env.update({"COINSAT_ROUTE": route} if route else {})  # read by Kernels.from_environment
    cmd = [sys.executable, str(tree / "scripts/rank_workers_bench.py"), "--one", spec, "--workers", count]
    out = subprocess.run(cmd, capture_output=True, text=True, cwd=str(tree), env=env)
    if out.returncode != 0:
        raise SystemExit(f"{spec} with {workers} workers: {out.stderr[-2000:]}")
    got = json.loads(out.stdout.strip().splitlines()[-1])
    got["load"] = (load0, os.getloadavg()[0])
    got["workers"] = workers
    got["side"] = side
    return got


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--instances", default="vdiag-3-3-nwse:53")
    ap.add_argument("--workers", default="1,2,2/pipes", help="worker counts (N or N/pipes), the first the baseline")
    ap.add_argument("--repeat", type=int, default=2)
    ap.add_argument(
        "--warmup",
        default=None,
        help="an instance solved once with one worker first, not measured, so that the compiled kernels are"
        " cached (default: the first instance; '' for none)",
    )
    ap.add_argument("--out", default=None)
    ap.add_argument(
        "--commit", default=None, help="the commit measured, when run from a `git archive` copy (no .git to ask)"
    )
    ap.add_argument(
        "--baseline",
        default=None,
        help="a commit measured beside the working tree, every worker count, alternating (from a temporary"
        " `git worktree` of it)",
    )
    ap.add_argument("--one", default=None, help=argparse.SUPPRESS)
    args = ap.parse_args()
    counts = args.workers.split(",")
    if args.one:
        print(json.dumps(one(args.one, int(counts[0]))))
        return 0
    started = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True)
    commit = head.stdout.strip() or args.commit or "(not a git checkout)"
    warmup = args.instances.split(",")[0] if args.warmup is None else args.warmup
    with tempfile.TemporaryDirectory() as tmp:
        trees = {"": ROOT}
        if args.baseline:
            base = Path(tmp) / "baseline"
            git = ["git", "-C", str(ROOT), "worktree"]
            subprocess.run([*git, "add", "-q", "--detach", str(base), args.baseline], check=True)
            trees = {args.baseline: base, "this tree": ROOT}
        try:
            runs = _measure(args, counts, warmup, trees)
        finally:
            if args.baseline:
                subprocess.run([*git, "remove", "--force", str(base)], check=True)
    return _table(args, counts, warmup, runs, started, commit)


def _measure(args, counts: list[str], warmup: str, trees: dict[str, Path]) -> dict[str, list[dict]]:
    """Every run: per instance, ``--repeat`` rounds of every worker count on every tree, alternating."""
    for tree in trees.values():
        if warmup:
            run(warmup, "1", tree)
    runs: dict[str, list[dict]] = {}
    for spec in args.instances.split(","):
        runs[spec] = []
        for _ in range(args.repeat):
            for w in counts:
                for side, tree in trees.items():
                    r = run(spec, w, tree, side)
                    runs[spec].append(r)
                    print(spec, json.dumps(r), file=sys.stderr, flush=True)
    return runs


def _table(args, counts: list[str], warmup: str, runs: dict[str, list[dict]], started: str, commit: str) -> int:
    """The table of the runs (written to ``--out``); 1 if two runs of an instance disagree."""
    lines = [
        "# rankbfs: one process against worker processes, same run",
        "",
        f"Made by `nice -n 10 python3 scripts/rank_workers_bench.py --instances {args.instances}"
        f" --workers {args.workers} --repeat {args.repeat}"
        + (f" --warmup '{args.warmup}'" if args.warmup is not None else "")
        + (f" --commit {args.commit}" if args.commit else "")
        + (f" --baseline {args.baseline}" if args.baseline else "")
        + (f" --out {args.out}" if args.out else "")
        + "`"
        f" at `{commit}` (started {started}; {os.cpu_count()} cores shared with other users:"
        " the load average before and after each run is in its row). Every run is a fresh process, the"
        f" worker counts alternating, after one unmeasured run of `{warmup}` with one worker; CPU seconds"
        " include the workers. *critical* is the search's own account of a worker run: per round"
        " (expand, absorb, and the gather of the witness where the run has one) the busiest worker's"
        " CPU seconds, summed; *parent* is the parent's CPU during"
        " the search (routing: the successors themselves through pipes, or their offsets in the workers'"
        " memory files). On as"
        " many idle cores as workers a run would take about its serial part (its CPU less the workers'"
        " rounds: start-up, screens, the parent) plus the critical path, hence the estimate"
        " `CPU(1 worker) / (serial + critical)`; the measured wall ratio depends on the load.",
        "",
        "| instance | workers | answer | states | wall s | CPU s | M expanded / CPU s | rounds' CPU s:"
        " expand / absorb (/ gather) | critical s | parent s | load before / after |",
        "|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    bad = False
    summary = []
    for spec, rs in runs.items():
        for r in rs:
            wc = r["round_cpu"] or {}
            split = f"{wc['expand']:.1f} / {wc['absorb']:.1f}" if wc else ""
            split += f" / {wc['gather']:.2f}" if "gather" in wc else ""
            crit = f"{wc['critical']:.1f} | {wc['parent']:.1f}" if "critical" in wc else " | "
            length = r["length"] if r["length"] is not None else ""
            count, _, variant = r["workers"].partition("/")
            tags = [r["route"]] if r["route"] else []
            tags += [variant] if variant and variant != r["route"] else []
            tags += [r["side"]] if r.get("side") else []
            who = count + (f" ({', '.join(tags)})" if tags else "")
            lines.append(
                f"| {spec} | {who} | {r['status']} {length} |"
                f" {r['states']:,} | {r['wall']:.1f} | {r['cpu']:.1f} | {r['expanded'] / r['cpu'] / 1e6:.2f} |"
                f" {split} | {crit} |"
                f" {r['load'][0]:.1f} / {r['load'][1]:.1f} |"
            )
        # the same answer (and moves), states, states expanded and layer sizes in every run
        same = _same(rs)
        bad |= not same
        for side, w in ((side, w) for side in dict.fromkeys(r.get("side", "") for r in rs) for w in counts[1:]):
            base = [r for r in rs if r["workers"] == counts[0] and r.get("side", "") == side]
            mine = [r for r in rs if r["workers"] == w and r.get("side", "") == side]
            cpu1 = statistics.median(r["cpu"] for r in base)
            path = statistics.median(_critical(r) for r in mine)
            rounds = statistics.median(_rounds(r) for r in mine) / statistics.median(_rounds(r) for r in base)
            who = f"{w} vs {counts[0]}" + (f" ({side})" if side else "")
            summary.append(
                f"| {spec} | {who} | {min(r['wall'] for r in base) / min(r['wall'] for r in mine):.2f} |"
                f" {statistics.median(r['cpu'] for r in mine) / cpu1:.2f} | {rounds:.2f} | {cpu1 / path:.2f} |"
                f" {statistics.median(r['round_cpu']['parent'] / r['cpu'] for r in mine):.1%} |"
                f" {'yes' if same else '**NO**'} |"
            )
    lines += [
        "",
        "Summary (medians over the repeats; wall: best against best):",
        "",
        "| instance | workers | wall speed-up, measured (loaded) | CPU ratio | rounds' CPU ratio | wall"
        " speed-up, quiet-machine estimate | parent's share of the CPU |"
        " same answers, moves, states, expanded, layers |",
        "|---|---|---|---|---|---|---|---|",
        *summary,
    ]
    if args.baseline:
        lines += ["", f"This tree against `{args.baseline}` (CPU seconds, medians over the repeats):", ""]
        lines += ["| instance | workers | baseline CPU s | this tree CPU s | speed (baseline / this tree) |"]
        lines += ["|---|---|---|---|---|"]
        for spec, rs in runs.items():
            for w in counts:
                cpu = {
                    side: statistics.median(r["cpu"] for r in rs if r["workers"] == w and r["side"] == side)
                    for side in (args.baseline, "this tree")
                }
                old, new = cpu[args.baseline], cpu["this tree"]
                lines.append(f"| {spec} | {w} | {old:.1f} | {new:.1f} | {old / new:.2f} |")
    text = "\n".join(lines) + "\n"
    if args.out:
        Path(args.out).write_text(text)
    print(text)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
