#!/usr/bin/env python3
"""Time the files of a SAT Competition pack with MiniSat and CaDiCaL: benchmarks/sat-pack.csv.

    coinsat pack sat-competition build/sat-pack
    nice -n 10 python3 scripts/sat_pack_times.py build/sat-pack [--minisat-cap 60] [--cadical-cap 300]
        [--budget 2700] [--out benchmarks/sat-pack.csv]

One row per file of the pack's manifest (``DIR/pack.csv``): ``family,file,answer,minisat_s,cadical_s,
hash``.  A time is the solver process's CPU seconds (user + system, ``os.wait4``), ``timeout`` when
the run hit its cap, empty when the run was not made (the budget was spent, or the answer is
unknown: no solver is expected to settle an open horizon in minutes, or CaDiCaL timed out, so the
file cannot meet the rule whatever MiniSat does).  Each run is niced (15), one
at a time; MiniSat is Debian's ``minisat`` with ``-cpu-lim=60`` (the selection rule's limit),
CaDiCaL the ``cadical`` program, capped at ``--cadical-cap`` CPU seconds by the kernel's
``RLIMIT_CPU`` (not by its ``-t``, which counts wall seconds; the rule allows 5,000 s, this
measurement cannot).  Every answer a solver gives is compared with the pack's: a
disagreement stops the script (a wrong answer in the pack, or a solver bug).

``--budget`` bounds the CPU seconds of all runs together: a run starts only if the budget can
still pay its cap.  CaDiCaL runs first on each file; MiniSat follows.  The rows are rewritten after
every run, and a row already measured in ``--out`` is kept (``--fresh`` measures again), so a
stopped measurement resumes.  The summary (``benchmarks/sat-pack.md``): per family, the files, the
known answers, and how many meet the rule (MiniSat times out at 60 s, CaDiCaL solves).
"""

from __future__ import annotations

import argparse
import csv
import fnmatch
import io
import os
import resource
import shutil
import subprocess
import sys
from pathlib import Path

from coinsat.io.atomic import write_atomic
from coinsat.pack import read_manifest
from lab.commandline import shown

ROOT = Path(__file__).resolve().parents[2]
COLUMNS = ["family", "file", "answer", "minisat_s", "cadical_s", "hash"]
EXIT = {10: "sat", 20: "unsat"}


def run(cmd: list[str], cap: float) -> tuple[str, float]:
    """(answer or "timeout", CPU seconds) of one niced solver process capped at ``cap`` CPU seconds."""

    def limits() -> None:
        os.nice(max(0, 15 - os.nice(0)))  # niceness 15, whatever the script's own
        # the kernel stops the solver at ``cap`` CPU seconds (SIGXCPU, then SIGKILL 5 s later).
        # CaDiCaL's own -t counts wall seconds, which a loaded machine spends without the solver.
        resource.setrlimit(resource.RLIMIT_CPU, (int(cap), int(cap) + 5))

    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, preexec_fn=limits)
    _, status, usage = os.wait4(proc.pid, 0)
    cpu = usage.ru_utime + usage.ru_stime
    code = os.waitstatus_to_exitcode(status)
    if code in EXIT and cpu <= cap:
        return EXIT[code], cpu
    return "timeout", cpu


def solvers(minisat_cap: float, cadical_cap: float) -> dict[str, tuple[list[str], float]]:
    found = {name: shutil.which(name) for name in ("minisat", "cadical")}
    missing = [n for n, p in found.items() if p is None]
    if missing:
        sys.exit(f"sat_pack_times.py: {', '.join(missing)} not found (apt-get install minisat cadical)")
    return {
        "cadical": ([str(found["cadical"]), "-q"], cadical_cap),
        "minisat": ([str(found["minisat"]), f"-cpu-lim={int(minisat_cap)}", "-verb=0"], minisat_cap),
    }


def versions() -> str:
    """The solvers' versions: Debian's package versions when dpkg knows them."""
    done = subprocess.run(
        ["dpkg-query", "-W", "-f", "${Package} ${Version}, ", "minisat", "cadical"], capture_output=True, text=True
    )
    return done.stdout.strip(", ") or "versions unknown"


def meets(row: dict[str, str]) -> bool:
    """The rule: MiniSat does not solve the file in 60 s, CaDiCaL does (within its cap here)."""
    return row["answer"] != "unknown" and row["minisat_s"] == "timeout" and row["cadical_s"] not in ("", "timeout")


def write_csv(path: Path, rows: list[dict[str, str]]) -> None:
    buf = io.StringIO()
    w = csv.DictWriter(buf, COLUMNS, lineterminator="\n")
    w.writeheader()
    w.writerows(rows)
    write_atomic(path, buf.getvalue())


def verdict(meet: int, all_open: bool) -> str:
    """Whether a family meets the rule: 10 files or more; a family of open files only (nobody knows
    their answers, so nobody can say a solver solves them) is outside it."""
    if all_open:
        return "outside the rule (open: no answer known)"
    return "yes" if meet >= 10 else "no"


def summary(rows: list[dict[str, str]], command: str, args) -> str:
    fams: dict[str, list[dict[str, str]]] = {}
    for r in rows:
        fams.setdefault(r["family"], []).append(r)
    lines = [
        "# The SAT Competition pack: MiniSat and CaDiCaL times",
        "",
        f"Made by `{command}` (CPU seconds, each run niced and alone; MiniSat `-cpu-lim={args.minisat_cap:g}`, "
        f"CaDiCaL capped at {args.cadical_cap:g} s; a shared 2-core machine; {versions()}). Rows: `sat-pack.csv`; "
        "a row measured by an earlier run of the script on the same file (the same hash) is kept.",
        "",
        "The selection rule: at least 10 files per family that MiniSat does not solve in 60 s and "
        "CaDiCaL or kissat solves within 5,000 s. CaDiCaL is capped far below 5,000 s here, so a "
        "`timeout` of CaDiCaL counts against the rule although it may not fail it. An empty time in the CSV: "
        "the run was not made (the budget was spent, the answer is unknown, the file was skipped with "
        "`--skip`, or CaDiCaL timed out first); such a file counts against the rule too.",
        "",
        "| family | files | sat | unsat | unknown | measured | MiniSat timeout | CaDiCaL solved "
        "| meet the rule | the family meets the rule |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---|",
    ]
    for fam, rs in fams.items():
        n = {a: sum(r["answer"] == a for r in rs) for a in ("sat", "unsat", "unknown")}
        measured = sum(r["minisat_s"] != "" and r["cadical_s"] != "" for r in rs)
        m_to = sum(r["minisat_s"] == "timeout" for r in rs)
        c_ok = sum(r["cadical_s"] not in ("", "timeout") for r in rs)
        ok = sum(meets(r) for r in rs)
        lines.append(
            f"| {fam} | {len(rs)} | {n['sat']} | {n['unsat']} | {n['unknown']} | {measured} | {m_to} | {c_ok} "
            f"| {ok} | {verdict(ok, n['unknown'] == len(rs))} |"
        )
    cpu = sum(float(r[k]) for r in rows for k in ("minisat_s", "cadical_s") if r[k] not in ("", "timeout"))
    timeouts = sum(r[k] == "timeout" for r in rows for k in ("minisat_s", "cadical_s"))
    lines += [
        "",
        f"CPU spent on finished runs: {cpu:.0f} s, plus {timeouts} runs stopped at their caps.",
        "",
    ]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("pack", type=Path, help="the pack's folder (coinsat pack sat-competition DIR)")
    ap.add_argument("--minisat-cap", type=float, default=60.0)
    ap.add_argument("--cadical-cap", type=float, default=300.0)
    ap.add_argument("--budget", type=float, default=2700.0, help="CPU seconds for all runs (default 45 min)")
    ap.add_argument("--out", type=Path, default=ROOT / "benchmarks" / "sat-pack.csv")
    ap.add_argument("--fresh", action="store_true", help="measure every file again")
    ap.add_argument("--redo", action="append", default=[], metavar="GLOB", help="measure the files matching GLOB again")
    ap.add_argument(
        "--skip", action="append", default=[], metavar="GLOB", help="leave the files matching GLOB unmeasured"
    )
    args = ap.parse_args(argv)
    command = shown("scripts/sat_pack_times.py", sys.argv[1:] if argv is None else argv, ROOT)
    tools = solvers(args.minisat_cap, args.cadical_cap)
    manifest = read_manifest(args.pack / "pack.csv")
    old = {}
    if args.out.exists() and not args.fresh:
        with open(args.out, newline="") as f:
            old = {(r["file"], r["hash"]): r for r in csv.DictReader(f)}
    rows = []
    for m in manifest:
        kept = {} if any(fnmatch.fnmatch(m["file"], g) for g in args.redo) else old.get((m["file"], m["hash"]), {})
        rows.append({c: kept.get(c, "") for c in COLUMNS} | {k: m[k] for k in ("family", "file", "answer", "hash")})
    spent = 0.0
    # one file of each family in turn, so a spent budget leaves every family partly measured
    order = sorted(range(len(rows)), key=lambda i: ([r["family"] for r in rows[:i]].count(rows[i]["family"]), i))
    for i in order:
        row = rows[i]
        if row["answer"] == "unknown" or any(fnmatch.fnmatch(row["file"], g) for g in args.skip):
            continue
        for name in ("cadical", "minisat"):
            key = f"{name}_s"
            if row[key] or (name == "minisat" and row["cadical_s"] == "timeout"):
                continue  # measured, or CaDiCaL failed: the file cannot meet the rule
            cmd, cap = tools[name]
            if spent + cap > args.budget:
                continue
            answer, cpu = run([*cmd, str(args.pack / row["file"])], cap)
            spent += cpu
            if answer != "timeout" and answer != row["answer"]:
                sys.exit(f"sat_pack_times.py: {name} says {answer} on {row['file']}, the pack says {row['answer']}")
            row[key] = "timeout" if answer == "timeout" else f"{cpu:.1f}"
            print(f"{row['file']}: {name} {row[key]} (spent {spent:.0f} s)", flush=True)
            write_csv(args.out, rows)
            write_atomic(args.out.with_suffix(".md"), summary(rows, command, args))
    write_csv(args.out, rows)
    write_atomic(args.out.with_suffix(".md"), summary(rows, command, args))
    return 0


if __name__ == "__main__":
    sys.exit(main())
