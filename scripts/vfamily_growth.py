#!/usr/bin/env python3
"""Upper bounds on the V-to-diagonal family up to n = 40: `construct`, then `improve` on its output.

    python3 scripts/vfamily_growth.py [--a 1,2,...,18] [--b-offsets 0] [--targets nwse]
                                      [--improve-time 60] [--construct-time 1800]

For each member V(a, a - o) (o in ``--b-offsets``) and target, one subprocess runs
`coinsat construct --json -o` and another `coinsat improve` on that output with
``--improve-time`` seconds (both replay their solution with rules.py before printing it).
Each result is merged into benchmarks/vfamily_growth.json as it comes (a stopped run keeps
what it measured; a later run skips what is there unless ``--redo``).  It then writes
benchmarks/vfamily_growth.md: the move counts, moves / n³, and least-squares exponents of
moves ~ n^k over the members with n >= 14 (construct alone, and construct + improve), with
the wall time of the whole run.  These are upper bounds (verified solutions), never optima.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from coinsat.analysis import fit_power_law
from coinsat.families import vdiag
from coinsat.io.atomic import write_atomic
from coinsat.io.instance_format import write_instance

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "benchmarks/vfamily_growth.json"
TABLE = ROOT / "benchmarks/vfamily_growth.md"
FIT_FROM = 14


def cli(args: list[str], timeout: float) -> tuple[int, dict | None, float]:
    t0 = time.perf_counter()
    try:
        p = subprocess.run([sys.executable, "-m", "coinsat", *args], capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return -1, None, time.perf_counter() - t0
    try:
        obj = json.loads(p.stdout) if p.stdout.strip() else None
    except json.JSONDecodeError:
        obj = None
    return p.returncode, obj, time.perf_counter() - t0


def measure(a: int, b: int, target: str, improve_time: float, construct_time: float) -> dict:
    inst = vdiag(a, b, target)
    row: dict = {"a": a, "b": b, "target": target, "n": inst.n_coins}
    with tempfile.TemporaryDirectory(prefix="coinsat-vgrowth-") as tmp:
        path, built, better = Path(tmp) / "v.toml", Path(tmp) / "built.json", Path(tmp) / "better.json"
        write_instance(inst, path)
        code, obj, secs = cli(["construct", str(path), "--json", "-o", str(built)], construct_time)
        row["construct_seconds"] = round(secs, 1)
        if code != 0 or obj is None:
            row["construct"] = None
            row["note"] = f"construct exit {code}"
            return row
        row["construct"] = obj["length"]
        args = ["improve", str(path), str(built), "--json", "-o", str(better), "--time-limit", str(improve_time)]
        code, obj, secs = cli(args, improve_time * 2 + 120)
        row["improve_seconds"] = round(secs, 1)
        row["improved"] = obj["length"] if obj else None
        row["improve_status"] = obj["status"] if obj else f"exit {code}"
        row["lower_bound"] = obj["lower_bound"] if obj else None
    return row


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--a", default=",".join(str(a) for a in range(1, 19)))
    ap.add_argument("--b-offsets", default="0", help="b = a - offset for each offset (0: V(a, a))")
    ap.add_argument("--targets", default="nwse")
    ap.add_argument("--improve-time", type=float, default=60.0)
    ap.add_argument("--construct-time", type=float, default=1800.0)
    ap.add_argument("--redo", action="store_true")
    ap.add_argument("--note", default="", help="a sentence for the header (e.g. how earlier rows were made)")
    ap.add_argument("--table-only", action="store_true")
    args = ap.parse_args(argv)
    t0 = time.perf_counter()
    results = json.loads(RESULTS.read_text()) if RESULTS.exists() else {}
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
                row = measure(a, b, target, args.improve_time, args.construct_time)
                row["improve_time"] = args.improve_time
                print(key, json.dumps(row), flush=True)
                results = json.loads(RESULTS.read_text()) if RESULTS.exists() else {}
                results[key] = row
                write_atomic(RESULTS, json.dumps(results, indent=1, sort_keys=True) + "\n")
    write_atomic(TABLE, table(results, args, time.perf_counter() - t0))
    return 0


def fits(rows: list[dict], column: str) -> str:
    pts = [(r["n"], r[column]) for r in rows if r.get(column) and r["n"] >= FIT_FROM]
    fit = fit_power_law(pts)
    if fit is None:
        return f"{column}: fewer than two members with n >= {FIT_FROM}"
    return f"{column}: moves ≈ {fit[1]:.3g}·n^{fit[0]:.2f} over {len(pts)} members with n >= {FIT_FROM}"


def table(results: dict, args, elapsed: float) -> str:
    rows = sorted(results.values(), key=lambda r: (r["target"], r["n"], r["a"]))
    argv = " ".join(sys.argv[1:])
    lines = [
        "# V-to-diagonal family: upper bounds by construct and construct + improve",
        "",
        f"Made by `python3 scripts/vfamily_growth.py {argv}` (this run: {elapsed:.0f} s wall; each row keeps",
        "its own seconds; shared 2-core machine, load average often above 10, so times are noisy).",
        "Every count is a verified solution's length (an upper bound), never an optimum.",
        *([args.note, ""] if args.note else [""]),
        "| member | target | n | construct | s | construct + improve | improve s (limit) | moves/n³ |",
        "|---|---|---:|---:|---:|---:|---:|---:|",
    ]
    for r in rows:
        best = r.get("improved") or r.get("construct")
        ratio = f"{best / r['n'] ** 3:.3f}" if best else "—"
        lines.append(
            f"| V({r['a']},{r['b']}) | {r['target']} | {r['n']} | {r.get('construct') or '—'} "
            f"| {r.get('construct_seconds', '—')} | {r.get('improved') or '—'} "
            f"| {r.get('improve_seconds', '—')} ({r.get('improve_time', '—'):g}) | {ratio} |"
        )
    lines += ["", "Least-squares exponents:", ""]
    for target in sorted({r["target"] for r in rows}):
        mine = [r for r in rows if r["target"] == target]
        lines.append(f"* {target}, {fits(mine, 'construct')}")
        lines.append(f"* {target}, {fits(mine, 'improved')}")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    sys.exit(main())
