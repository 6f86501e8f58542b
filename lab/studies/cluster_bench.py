#!/usr/bin/env python3
"""rankbfs on 1 and 2 MPI ranks (``--cluster``) and 1 and 2 worker processes, same instance, same run.

Each configuration solves the instance in a fresh ``coinsat solve --method rankbfs`` (under
``mpiexec -n P`` for the ranks), ``--repeat`` times in rotation; the table gives the best wall
and CPU seconds (CPU of all processes, from the rusage of the waited-for children) and the
speedups against one process.  The machine is shared: wall speedups are only meaningful when
the load average (printed) is below the core count.

    nice -n 10 python3 scripts/cluster_bench.py [--instance vdiag-3-2-nwse] [--out benchmarks/cluster.md]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def mpiexec() -> str:
    here = Path(sys.executable).parent / "mpiexec"
    found = str(here) if here.exists() else shutil.which("mpiexec")
    if found is None:
        raise SystemExit("mpiexec not found: pip install 'coinsat[cluster]'")
    return found


def measure(cmd: list[str]) -> dict:
    env = dict(os.environ, OMPI_MCA_mpi_yield_when_idle="1", OMPI_ALLOW_RUN_AS_ROOT="1")
    env["OMPI_ALLOW_RUN_AS_ROOT_CONFIRM"] = "1"
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    out = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if out.returncode != 0:
        raise SystemExit(f"{' '.join(cmd)}: exit {out.returncode}\n{out.stderr[-2000:]}")
    # under mpiexec stdout is a pseudo-terminal: a library may add a colour reset at exit
    got = json.loads(next(line for line in out.stdout.splitlines() if line.startswith("{")))
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return {"status": got["status"], "length": got["length"], "wall": wall, "cpu": cpu}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--instance", default="vdiag-3-2-nwse")
    ap.add_argument("--repeat", type=int, default=1)
    ap.add_argument("--out", default=None)
    args = ap.parse_args()
    file = str(ROOT / "instances" / "families" / f"{args.instance}.toml")
    solve = [sys.executable, "-m", "coinsat", "solve", file, "--method", "rankbfs", "--json"]
    configs = {
        "1 process": solve + ["--workers", "1"],
        "2 worker processes": solve + ["--workers", "2"],
        "1 MPI rank": [mpiexec(), "-n", "1", *solve, "--cluster"],
        "2 MPI ranks": [mpiexec(), "--oversubscribe", "-n", "2", *solve, "--cluster"],
    }
    best: dict[str, dict] = {}
    for _ in range(args.repeat):
        for name, cmd in configs.items():
            r = measure(cmd)
            print(name, json.dumps(r), file=sys.stderr)
            if name not in best or r["wall"] < best[name]["wall"]:
                best[name] = r
    one = best["1 process"]
    lines = [
        f"# rankbfs: worker processes and MPI ranks on {args.instance}",
        "",
        f"Made by `scripts/cluster_bench.py --instance {args.instance} --repeat {args.repeat}` (best of"
        f" {args.repeat}, configurations in rotation). Load average at the end: {os.getloadavg()[0]:.1f}"
        f" on {os.cpu_count()} cores (shared machine: a load above the core count makes wall speedups"
        " pessimistic). CPU = all processes of the run.",
        "",
        "| configuration | answer | wall s | CPU s | wall speedup vs 1 process | CPU ratio vs 1 process |",
        "|---|---|---|---|---|---|",
    ]
    for name, r in best.items():
        lines.append(
            f"| {name} | {r['status']} {r['length']} | {r['wall']:.1f} | {r['cpu']:.1f} |"
            f" {one['wall'] / r['wall']:.2f}x | {r['cpu'] / one['cpu']:.2f} |"
        )
    same = len({(r["status"], r["length"]) for r in best.values()}) == 1
    lines += ["", f"Same answer in every configuration: {'yes' if same else '**NO**'}."]
    text = "\n".join(lines) + "\n"
    if args.out:
        Path(args.out).write_text(text)
    print(text)
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
