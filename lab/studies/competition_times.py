#!/usr/bin/env python3
"""Time CNF files with two different SAT solvers, each run capped, one CSV row per run.

    nice -n 10 python3 scripts/competition_times.py FILE.cnf[.xz] ... [--solvers cadical-pysat,cadical-bin]
        [--cap 1000] [--out benchmarks/competition-times.csv]

Why a script of its own: the hard members of the competition family take up to the cap
per file and solver, far longer than generating them, so the timing runs are made apart
from ``make_benchmarks.py`` (in the background), and ``make_benchmarks.py --times CSV``
reads the rows back into the manifest.  The cap is in **CPU seconds** of the solver
process (``RLIMIT_CPU``; PySAT cannot interrupt CaDiCaL, the kernel can): on a machine
shared with other jobs wall seconds measure the load as much as the formula, CPU seconds
much less.  Wall seconds are
recorded too.  Rows are appended as soon as a run ends, so a run cut short keeps what
it measured.

Solvers: ``cadical-pysat`` (CaDiCaL 1.9.5 through PySAT, the solver coinsat uses),
``cadical-bin`` (the ``cadical`` program, /usr/bin/cadical, version ``sc2021``: a different
build and release), ``glucose4`` (Glucose 4 through PySAT).
"""

from __future__ import annotations

import argparse
import csv
import lzma
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

FIELDS = ["file", "gbd_hash", "solver", "answer", "wall_seconds", "cpu_seconds", "cap", "date"]

_PYSAT = """
import sys
from pysat.formula import CNF
from pysat.solvers import Solver
with Solver(name=sys.argv[2], bootstrap_with=CNF(from_file=sys.argv[1]).clauses) as s:
    print("SAT" if s.solve() else "UNSAT")
"""


def plain_copy(path: Path) -> tuple[Path, bool]:
    """The file uncompressed (a temporary copy for .xz files), and whether it is temporary."""
    if path.suffix != ".xz":
        return path, False
    fd, tmp = tempfile.mkstemp(suffix=".cnf")
    with os.fdopen(fd, "wb") as out, lzma.open(path) as src:
        shutil.copyfileobj(src, out)
    return Path(tmp), True


def command(solver: str, cnf: Path) -> list[str]:
    if solver == "cadical-bin":
        return [shutil.which("cadical") or "/usr/bin/cadical", "-q", str(cnf)]
    name = {"cadical-pysat": "cadical195", "glucose4": "glucose4"}[solver]
    return [sys.executable, "-c", _PYSAT, str(cnf), name]


def _cpu_cap(cap: float):
    def limit() -> None:  # in the child, before exec: SIGXCPU at the cap, SIGKILL soon after
        resource.setrlimit(resource.RLIMIT_CPU, (int(cap), int(cap) + 5))

    return limit


def run_one(solver: str, cnf: Path, cap: float) -> tuple[str, float, float]:
    """(SAT | UNSAT | timeout | error, wall seconds, CPU seconds of the child)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    try:
        p = subprocess.run(
            command(solver, cnf), capture_output=True, text=True, timeout=50 * cap, preexec_fn=_cpu_cap(cap)
        )
        out = p.stdout
        if p.returncode < 0 or p.returncode == 128 + 24:  # SIGXCPU / SIGKILL: the CPU cap
            answer = "timeout"
        elif solver == "cadical-bin":
            answer = {10: "SAT", 20: "UNSAT"}.get(p.returncode, f"error {p.returncode}")
        else:
            answer = out.strip() if p.returncode == 0 else f"error {p.stderr.strip()[-120:]}"
    except subprocess.TimeoutExpired:
        answer = "timeout (wall)"
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return answer, wall, cpu


def gbd_hash(path: Path) -> str:
    try:
        import gbdc

        return gbdc.gbdhash(str(path))
    except ImportError:
        return ""


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("files", nargs="+")
    ap.add_argument("--solvers", default="cadical-pysat,cadical-bin")
    ap.add_argument("--cap", type=float, default=1000.0, help="CPU seconds per run (killed past it)")
    ap.add_argument("--out", default="benchmarks/competition-times.csv")
    args = ap.parse_args(argv)
    out = Path(args.out)
    new = not out.exists()
    with open(out, "a", newline="", encoding="utf-8") as f:
        w = csv.DictWriter(f, FIELDS, lineterminator="\n")
        if new:
            w.writeheader()
        for name in args.files:
            path = Path(name)
            cnf, temporary = plain_copy(path)
            try:
                h = gbd_hash(cnf)
                for solver in args.solvers.split(","):
                    answer, wall, cpu = run_one(solver, cnf, args.cap)
                    row = {
                        "file": path.name,
                        "gbd_hash": h,
                        "solver": solver,
                        "answer": answer,
                        "wall_seconds": f"{wall:.1f}",
                        "cpu_seconds": f"{cpu:.1f}",
                        "cap": f"{args.cap:g}",
                        "date": time.strftime("%Y-%m-%d %H:%M", time.gmtime()),
                    }
                    w.writerow(row)
                    f.flush()
                    print(" ".join(str(v) for v in row.values()), file=sys.stderr, flush=True)
            finally:
                if temporary:
                    cnf.unlink()
    return 0


if __name__ == "__main__":
    sys.exit(main())
