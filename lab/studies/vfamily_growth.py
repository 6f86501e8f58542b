#!/usr/bin/env python3
"""Upper bounds on the V-to-diagonal family up to n = 40: `construct`, then `improve` on its output.

    python3 scripts/vfamily_growth.py [--a 1,2,...,18] [--b-offsets 0] [--targets nwse,swne]
                                      [--improve-time 20] [--construct-time 1800] [--fresh]
                                      [--results benchmarks/vfamily_growth.json]
                                      [--out benchmarks/vfamily_growth.md]

For each member V(a, a - o) (o in ``--b-offsets``) and target, one subprocess runs
`coinsat construct --json -o` and another `coinsat improve` on that output with
``--improve-time`` seconds (both replay their solution with rules.py before printing it).
Each result is merged into the results file as it comes (a stopped run keeps what it
measured; a later run skips what is there unless ``--redo``; ``--fresh`` starts from an
empty file, so that every row of the table comes from this one run).  It then writes the
table: the move counts, moves / n³, the lower bounds known to this script (the static bound
of ``theory.reach.static_bound`` and what `improve` proved, labelled), least-squares
exponents of moves ~ n^k over the members with n >= 14 (construct alone, and construct +
improve), the git commit of the code that ran, and the wall and CPU seconds of the whole run
(CPU: the subprocesses' own, from ``getrusage``).  These are upper bounds (verified
solutions), never optima.
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from coinsat import write_instance
from coinsat.families import vdiag
from coinsat.io.atomic import write_atomic
from coinsat.theory.reach import static_bound
from lab.analysis import fit_power_law
from lab.commandline import portable

ROOT = Path(__file__).resolve().parents[2]
RESULTS = ROOT / "benchmarks/vfamily_growth.json"
TABLE = ROOT / "benchmarks/vfamily_growth.md"
FIT_FROM = 14


def children_cpu() -> float:
    """CPU seconds (user + system) of the finished child processes so far."""
    use = resource.getrusage(resource.RUSAGE_CHILDREN)
    return use.ru_utime + use.ru_stime


def cli(args: list[str], timeout: float) -> tuple[int, dict | None, float, float, str]:
    """(exit code, the printed JSON object, wall seconds, CPU seconds, the end of stderr) of one
    `coinsat` subprocess."""
    t0, c0 = time.perf_counter(), children_cpu()
    try:
        p = subprocess.run([sys.executable, "-m", "coinsat", *args], capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return -1, None, time.perf_counter() - t0, children_cpu() - c0, "timeout"
    try:
        obj = json.loads(p.stdout) if p.stdout.strip() else None
    except json.JSONDecodeError:
        obj = None
    return p.returncode, obj, time.perf_counter() - t0, children_cpu() - c0, p.stderr.strip()[-300:]


def commit() -> str:
    """The git commit of the code that ran, and the files of construct and improve that differed
    from it (helpers edit the same working tree, so a run may use uncommitted code)."""
    head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, cwd=ROOT).stdout
    dirty = subprocess.run(
        ["git", "status", "--porcelain", "--", "coinsat/constructive", "coinsat/search"],
        capture_output=True,
        text=True,
        cwd=ROOT,
    ).stdout.split("\n")
    edited = sorted(line[3:] for line in dirty if line.strip())
    return head.strip() + (f" + uncommitted {', '.join(edited)}" if edited else "")


def measure(a: int, b: int, target: str, improve_time: float, construct_time: float) -> dict:
    inst = vdiag(a, b, target)
    row: dict = {"a": a, "b": b, "target": target, "n": inst.n_coins, "static_bound": static_bound(inst)}
    with tempfile.TemporaryDirectory(prefix="coinsat-vgrowth-") as tmp:
        path, built, better = Path(tmp) / "v.toml", Path(tmp) / "built.json", Path(tmp) / "better.json"
        write_instance(inst, path)
        code, obj, secs, cpu, _ = cli(["construct", str(path), "--json", "-o", str(built)], construct_time)
        row["construct_seconds"] = round(secs, 1)
        row["construct_cpu"] = round(cpu, 1)
        if code != 0 or obj is None:
            row["construct"] = None
            row["note"] = f"construct exit {code}"
            return row
        row["construct"] = obj["length"]
        args = ["improve", str(path), str(built), "--json", "-o", str(better), "--time-limit", str(improve_time)]
        code, obj, secs, cpu, error = cli(args, improve_time * 2 + 120)
        row["improve_seconds"] = round(secs, 1)
        row["improve_cpu"] = round(cpu, 1)
        row["improved"] = obj["length"] if obj else None
        row["improve_status"] = obj["status"] if obj else f"exit {code}"
        if obj is None:
            row["improve_error"] = error
        row["lower_bound"] = obj["lower_bound"] if obj else None
    return row


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--a", default=",".join(str(a) for a in range(1, 19)))
    ap.add_argument("--b-offsets", default="0", help="b = a - offset for each offset (0: V(a, a))")
    ap.add_argument("--targets", default="nwse,swne")
    ap.add_argument("--improve-time", type=float, default=20.0)
    ap.add_argument("--construct-time", type=float, default=1800.0)
    ap.add_argument("--redo", action="store_true")
    ap.add_argument("--note", default="", help="a sentence for the header (e.g. how earlier rows were made)")
    ap.add_argument("--table-only", action="store_true")
    ap.add_argument("--fresh", action="store_true", help="start from an empty results file (one run, every row)")
    ap.add_argument("--results", default=str(RESULTS), help="the JSON file the rows are merged into")
    ap.add_argument("--out", default=str(TABLE), help="the Markdown table")
    args = ap.parse_args(argv)
    t0, c0 = time.perf_counter(), children_cpu()
    store = Path(args.results)
    if args.fresh and not args.table_only:
        write_atomic(store, "{}\n")
    results = json.loads(store.read_text()) if store.exists() else {}
    for a in () if args.table_only else [int(x) for x in args.a.split(",")]:
        for off in (int(x) for x in args.b_offsets.split(",")):
            b = a - off
            if b < 1 or (a, b) == (1, 0):
                continue
            for target in args.targets.split(","):
                key = f"vdiag-{a}-{b}-{target}"
                old = results.get(key)
                if old and not args.redo and old.get("improve_time", 0) >= args.improve_time:
                    continue
                code = commit()  # per row: other helpers commit to the same tree while this runs
                row = measure(a, b, target, args.improve_time, args.construct_time)
                row["improve_time"] = args.improve_time
                row["commit"] = code
                print(key, json.dumps(row), flush=True)
                results = json.loads(store.read_text()) if store.exists() else {}
                results[key] = row
                write_atomic(store, json.dumps(results, indent=1, sort_keys=True) + "\n")
    write_atomic(args.out, table(results, args, time.perf_counter() - t0, children_cpu() - c0))
    return 0


def fits(rows: list[dict], column: str) -> str:
    pts = [(r["n"], r[column]) for r in rows if r.get(column) and r["n"] >= FIT_FROM]
    fit = fit_power_law(pts)
    if fit is None:
        return f"{column}: fewer than two members with n >= {FIT_FROM}"
    return f"{column}: moves ≈ {fit[1]:.3g}·n^{fit[0]:.2f} over {len(pts)} members with n >= {FIT_FROM}"


def lower_bound(r: dict) -> str:
    """The best lower bound this script knows for a member, labelled by where it comes from."""
    static, proven = r.get("static_bound"), r.get("lower_bound")
    if isinstance(proven, int) and (static is None or proven > static):
        return f"{proven} (improve's exact pass)"
    return f"{static} (static)" if static is not None else "—"


def without_note(argv: list[str]) -> list[str]:
    """The arguments without ``--note`` and its sentence (the header prints the note once, below)."""
    out, skip = [], False
    for arg in argv:
        if skip:
            skip = False
        elif arg == "--note":
            skip = True
        elif not arg.startswith("--note="):
            out.append(arg)
    return out


def table(results: dict, args, elapsed: float, cpu: float) -> str:
    rows = sorted(results.values(), key=lambda r: (r["target"], r["n"], r["a"]))
    argv = " ".join(portable(a, ROOT) for a in without_note(sys.argv[1:]))
    in_order = sorted(rows, key=lambda r: (r["n"], r["target"]))
    heads = list(dict.fromkeys(r.get("commit", "unrecorded").split(" + ")[0] for r in in_order))
    edited = sorted(
        {
            f
            for r in rows
            if " + uncommitted " in r.get("commit", "")
            for f in r["commit"].split(" + uncommitted ")[1].split(", ")
        }
    )
    code = f"the tree's HEAD was {' then '.join(heads)} as the rows were made (each row records its own)"
    if edited:
        code += f"; uncommitted edits in {', '.join(edited)} were on disk for some rows"
    run = (
        f"this run: {elapsed:.0f} s wall, {cpu:.0f} CPU s of its subprocesses"
        if not args.table_only
        else "--table-only: the rows keep their own seconds"
    )
    lines = [
        "# V-to-diagonal family: upper bounds by construct and construct + improve",
        "",
        f"Made by `python3 scripts/vfamily_growth.py {argv}` ({run};",
        "each row keeps its own seconds, wall and CPU; shared 2-core machine, so wall times are noisy).",
        f"Code: {code}.",
        "Every count is a verified solution's length (an upper bound), never an optimum. `lower bound`:",
        "the static bound (fill count, distance, span layers) or, when larger, what `improve`'s exact",
        "pass on span(start) proved (rankbfs layers exhausted without the goal).",
        *([args.note, ""] if args.note else [""]),
        "| member | target | n | construct | s (CPU) | construct + improve | improve s (CPU; limit) "
        "| moves/n³ | lower bound |",
        "|---|---|---:|---:|---:|---:|---:|---:|---|",
    ]
    for r in rows:
        best = r.get("improved") or r.get("construct")
        ratio = f"{best / r['n'] ** 3:.3f}" if best else "—"
        lines.append(
            f"| V({r['a']},{r['b']}) | {r['target']} | {r['n']} | {r.get('construct') or '—'} "
            f"| {r.get('construct_seconds', '—')} ({r.get('construct_cpu', '—')}) "
            f"| {r.get('improved') or r.get('improve_status') or '—'} "
            f"| {r.get('improve_seconds', '—')} ({r.get('improve_cpu', '—')}; {r.get('improve_time', '—'):g}) "
            f"| {ratio} | {lower_bound(r)} |"
        )
    lines += ["", "Least-squares exponents:", ""]
    for target in sorted({r["target"] for r in rows}):
        mine = [r for r in rows if r["target"] == target]
        lines.append(f"* {target}, {fits(mine, 'construct')}")
        lines.append(f"* {target}, {fits(mine, 'improved')}")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    sys.exit(main())
