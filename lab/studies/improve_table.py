#!/usr/bin/env python3
"""`coinsat improve` on `construct`'s output, against the optima the exact engines prove.

    python3 scripts/improve_table.py [--time-limit 300] [--opt-time 600] [--members NAME,...]
                                     [--rows-from LOG,...] [--log-dir DIR] [--out benchmarks/improve.md]

Instances: the V-to-diagonal members up to V(3,3) (both targets) and the diagonal flips
k = 3..7 (`coinsat.families`).  For each: `construct` (an upper bound), then `improve` on
its output with ``--time-limit`` seconds (one subprocess each, through the CLI, so every
number is what a user gets), then the reference: a proven optimum from the V-family runs
recorded in benchmarks/vfamily_results.json, or else `solve --method spanbfs` within
``--opt-time`` seconds (its proven lower bound when it stops).  Every solution printed by the
CLI was replayed by rules.py; the script replays the improved one again with `coinsat verify`.
The table says "within 10 %" only against a proven optimum.
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
from coinsat.families import diagonal_flip, vdiag
from coinsat.io.atomic import write_atomic
from lab.commandline import portable

ROOT = Path(__file__).resolve().parents[2]
RESULTS = ROOT / "benchmarks/vfamily_results.json"
FLIPS = ROOT / "benchmarks/diagonal_flips.json"  # scripts/vfamily_study.py --flips
V_MEMBERS = [(1, 1), (2, 1), (2, 2), (3, 2), (3, 3)]


def instances():
    for a, b in V_MEMBERS:
        for target in ("nwse", "swne"):
            yield vdiag(a, b, target)
    for k in range(3, 8):
        yield diagonal_flip(k)


def children_cpu() -> float:
    """CPU seconds (user + system) of the finished child processes so far."""
    use = resource.getrusage(resource.RUSAGE_CHILDREN)
    return use.ru_utime + use.ru_stime


def cli(*args: str, timeout: float, log: Path | None = None) -> tuple[int, dict | None, float, float]:
    """(exit code, the printed JSON object, wall seconds, CPU seconds) of one `coinsat` subprocess;
    its stderr goes to ``log`` as it comes when one is given."""
    t0, c0 = time.perf_counter(), children_cpu()
    command = [sys.executable, "-m", "coinsat", *args]
    try:
        if log is None:
            p = subprocess.run(command, capture_output=True, text=True, timeout=timeout)
        else:
            with log.open("w") as err:
                p = subprocess.run(command, stdout=subprocess.PIPE, stderr=err, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return -1, None, time.perf_counter() - t0, children_cpu() - c0
    try:
        obj = json.loads(p.stdout) if p.stdout.strip() else None
    except json.JSONDecodeError:
        obj = None
    return p.returncode, obj, time.perf_counter() - t0, children_cpu() - c0


def reference(name: str, path: Path, opt_time: float) -> tuple[int | None, str]:
    """(proven optimum, where it comes from) or (None, what is known)."""
    recorded = json.loads(RESULTS.read_text()) if RESULTS.exists() else {}
    for method, run in sorted(recorded.get(name, {}).get("runs", {}).items()):
        if run.get("status") == "optimal":
            return run["length"], f"{method}, benchmarks/vfamily_results.json"
    flips = json.loads(FLIPS.read_text()) if FLIPS.exists() else {}
    for k, entry in flips.items():
        for method, run in sorted(entry.get("runs", {}).items()):
            if name == f"diagonal-{k}" and run.get("status") == "optimal":
                return run["length"], f"{method}, benchmarks/diagonal_flips.json"
    code, obj, secs, _ = cli(
        "solve", str(path), "--method", "spanbfs", "--json", "--time-limit", str(opt_time), timeout=opt_time * 1.3 + 30
    )
    if obj and obj.get("status") == "optimal":
        return obj["length"], f"spanbfs here, {secs:.0f} s"
    lb = obj.get("lower_bound") if obj else None
    return None, f"not proven in {opt_time:g} s (lower bound {lb})"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--time-limit", type=float, default=300.0, help="improve's budget per instance")
    ap.add_argument("--opt-time", type=float, default=600.0, help="spanbfs budget for a missing optimum")
    ap.add_argument("--members", default=None, help="comma-separated instance names (default: all)")
    ap.add_argument("--out", default=str(ROOT / "benchmarks/improve.md"))
    ap.add_argument(
        "--rows-from",
        default=None,
        metavar="LOGS",
        help="comma-separated logs of earlier runs (their printed rows) to merge into the table",
    )
    ap.add_argument("--log-dir", default=None, help="keep improve's --progress lines in DIR/NAME.improve.log")
    ap.add_argument("--note", default="", help="a sentence for the header (e.g. how earlier rows were made)")
    ap.add_argument("--seconds", type=float, default=0.0, help="wall seconds of those earlier runs (for the header)")
    args = ap.parse_args(argv)
    only = set(args.members.split(",")) if args.members else None
    t_start = time.perf_counter() - args.seconds
    rows: dict[str, dict] = {}  # a later log's row of an instance replaces an earlier one, this run's all
    for log in args.rows_from.split(",") if args.rows_from else ():
        for line in Path(log).read_text().splitlines():
            if line.startswith("{"):
                row = json.loads(line)
                made = row.get("run", "").removeprefix("this run")  # (HEAD, start) when the row recorded it
                rows[row["name"]] = dict(row, run=Path(log).name + made)
    head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, cwd=ROOT)
    this_run = f"this run (HEAD {head.stdout.strip()}, started {time.strftime('%H:%M UTC', time.gmtime())})"
    with tempfile.TemporaryDirectory(prefix="coinsat-improve-") as tmp:
        for inst in instances():
            if only is not None and inst.name not in only:
                continue
            path = Path(tmp) / f"{inst.name}.toml"
            write_instance(inst, path)
            built = Path(tmp) / f"{inst.name}.construct.json"
            code, obj, c_secs, _ = cli("construct", str(path), "--json", "-o", str(built), timeout=600)
            if code != 0 or obj is None:
                note = f"construct exit {code}"
                rows[inst.name] = {
                    "name": inst.name,
                    "n": inst.n_coins,
                    "construct": None,
                    "note": note,
                    "run": this_run,
                }
                continue
            out = Path(tmp) / f"{inst.name}.improved.json"
            code, imp, i_secs, i_cpu = cli(
                "improve",
                str(path),
                str(built),
                "--json",
                "-o",
                str(out),
                "--time-limit",
                str(args.time_limit),
                *(["--progress"] if args.log_dir else []),
                timeout=args.time_limit * 1.5 + 60,
                log=Path(args.log_dir) / f"{inst.name}.improve.log" if args.log_dir else None,
            )
            verified = (
                subprocess.run(
                    [sys.executable, "-m", "coinsat", "verify", str(path), str(out)], capture_output=True, text=True
                ).returncode
                == 0
                if imp
                else False
            )
            opt, source = reference(inst.name, path, args.opt_time)
            row = {
                "name": inst.name,
                "n": inst.n_coins,
                "construct": obj["length"],
                "construct_seconds": round(c_secs, 1),
                "improved": imp["length"] if imp else None,
                "status": imp["status"] if imp else f"exit {code}",
                "lower_bound": imp["lower_bound"] if imp else None,
                "improve_seconds": round(i_secs, 1),
                "improve_cpu": round(i_cpu, 1),
                "verified": verified,
                "optimum": opt,
                "source": source,
                "run": this_run,
            }
            rows[inst.name] = row
            print(json.dumps(row), flush=True)
    elapsed = time.perf_counter() - t_start
    order = [inst.name for inst in instances()]
    ordered = sorted(rows.values(), key=lambda r: order.index(r["name"]) if r["name"] in order else len(order))
    write_atomic(args.out, table(ordered, args, elapsed))
    return 0


def table(rows: list[dict], args, elapsed: float) -> str:
    ran = args.members != "none"  # --members none: the table from the logs alone
    cmd = "python3 scripts/improve_table.py" + "".join(
        f" --{k.replace('_', '-')} {v}"
        for k, v in (("time_limit", args.time_limit), ("opt_time", args.opt_time))
        if ran
    )
    if args.members:
        cmd += f" --members {args.members}"
    if args.rows_from:
        cmd += f" --rows-from {portable(args.rows_from, ROOT)}"
    if args.log_dir:
        cmd += f" --log-dir {portable(args.log_dir, ROOT)}"
    lines = [
        "# `coinsat improve` on the constructive algorithm's output",
        "",
        f"Made by `{cmd}` in {elapsed:.0f} s wall (shared 2-core machine: `improve s` is wall clock and",
        "noisy; `CPU s` is the improve process's own CPU time, the comparable measure; the time limit is wall).",
        *([args.note] if args.note else []),
        "`construct` gives a verified solution; `improve` shortens it within its time limit (every",
        "solution replayed by rules.py, the improved one again by `coinsat verify`: column ✓).",
        "`optimum` is a proven optimum (verified solution + proof of optimum − 1) from the source named;",
        "`ratio` = improved / optimum.  `lower bound` is what `improve` itself proves.",
        "`run` names the run that made the row: a log of printed rows (benchmarks/improve_runs/) or this run.",
        "",
        "| instance | n | construct | improved | status | lower bound | ✓ | improve s | CPU s | optimum | ratio "
        "| within 10 % | run |",
        "|---|---:|---:|---:|---|---:|---|---:|---:|---:|---:|---|---|",
    ]
    for r in rows:
        if r.get("construct") is None:
            lines.append(f"| {r['name']} | {r['n']} | — | — | {r.get('note', '')} | | | | | | | | {r.get('run', '')} |")
            continue
        opt, imp = r["optimum"], r["improved"]
        ratio = f"{imp / opt:.2f}" if opt and imp else "—"
        within = ("yes" if imp <= 1.1 * opt else "no") if opt and imp else "—"
        lines.append(
            f"| {r['name']} | {r['n']} | {r['construct']} | {imp} | {r['status']} | {r['lower_bound']} "
            f"| {'✓' if r['verified'] else '✗'} | {r['improve_seconds']} | {r.get('improve_cpu', '—')} "
            f"| {opt if opt else '—'} | {ratio} | {within} | {r.get('run', '')} |"
        )
    lines.append("")
    lines.append(
        "Sources of the optima: " + "; ".join(f"{r['name']}: {r['source']}" for r in rows if "source" in r) + "."
    )
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    sys.exit(main())
