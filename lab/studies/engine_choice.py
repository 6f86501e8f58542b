#!/usr/bin/env python3
"""Which exact engine should ``auto`` pick?  Every candidate on the same puzzles, in one run.

    nice -n 10 python3 scripts/engine_choice.py --before /tmp/old-checkout \\
        [--sets paper,flips,vee,random] [--time-limit 60] [--out benchmarks/engine-choice.md]

Each cell is one ``coinsat solve FILE --json`` process (``python3 -m coinsat``), so the
times include the interpreter's start-up and every import, as a user pays them.  Columns:

* ``before``: ``auto`` of the checkout given by ``--before`` (its ``coinsat/`` first on
  ``PYTHONPATH``): the baseline, today's default;
* ``auto``: ``auto`` of the installed package (the contender);
* the engines themselves: ``spanbfs``, ``rankbfs`` (one process), ``rankbfs --workers 2``,
  ``bfs``, ``sat``, where they apply.

Wall seconds (``time.perf_counter`` around the process) and CPU seconds (the process and
its children, from ``RUSAGE_CHILDREN``) are both reported; the machine may be shared, so
the cells of one instance run back to back and their ratios are what to read.  A cell
that hits ``--time-limit`` reports ``unknown``.  ``--heavy NAME`` (repeatable) marks an
instance whose baseline is known to be slow: there the baseline runs last with a time
limit of ``--heavy-factor`` x the contender's wall time (at least 60 s), so an
``unknown`` baseline proves the ratio below 1 / factor without paying for the whole
baseline, and only ``before`` and ``auto`` run.

Instances: ``paper`` = instances/paper/*.toml; ``flips`` = instances/families/diagonal-*;
``vee`` = instances/families/vdiag-{1..3}-*; ``random`` = ``families.random_case(seed)``
for ``--seeds`` seeds, written to a temporary folder.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from pathlib import Path

from lab.commandline import solve_process

ROOT = Path(__file__).resolve().parents[2]

#: (column, extra arguments of `coinsat solve`)
ENGINES = (
    ("spanbfs", ["--method", "spanbfs"]),
    ("rankbfs", ["--method", "rankbfs", "--workers", "1"]),
    ("rankbfs-w2", ["--method", "rankbfs", "--workers", "2"]),
    ("bfs", ["--method", "bfs"]),
    ("sat", ["--method", "sat"]),
)
COLUMNS = ("before", "auto") + tuple(name for name, _ in ENGINES)
#: the contender's time limit on a heavy instance (seconds)
HEAVY_LIMIT = 900.0


def run(path: Path, extra: list[str], time_limit: float, pythonpath: str | None = None) -> dict:
    """One `coinsat solve` process: its answer, wall and CPU seconds."""
    obj, m = solve_process(path, extra, time_limit, pythonpath)
    wall, cpu = m["wall"], m["cpu"]
    if obj is None:
        return {"status": "error", "exit": m["exit"], "error": m["stderr"].strip()[-200:], "wall": wall, "cpu": cpu}
    return {
        "status": obj["status"],
        "length": obj.get("length"),
        "lower_bound": obj.get("lower_bound"),
        "method": obj.get("method"),
        "wall": wall,
        "cpu": cpu,
    }


def applies(path: Path) -> dict[str, bool]:
    """Which engine columns can run on the instance (``search.methods.inapplicable``)."""
    from coinsat import read_instance
    from coinsat.search.methods import inapplicable

    inst = read_instance(path)
    out = {}
    for name, extra in ENGINES:
        out[name] = inapplicable(extra[1], inst) is None
    return out


def instances(sets: list[str], seeds: int, folder: Path) -> list[tuple[str, Path]]:
    out: list[tuple[str, Path]] = []
    if "paper" in sets:
        out += [(f"paper/{p.stem}", p) for p in sorted((ROOT / "instances" / "paper").glob("*.toml"))]
    fam = ROOT / "instances" / "families"
    if "flips" in sets:
        out += [(f"families/{p.stem}", p) for p in sorted(fam.glob("diagonal-*.toml"))]
    if "vee" in sets:
        for a, b in ((1, 1), (2, 1), (2, 2), (3, 2), (3, 3)):
            for t in ("nwse", "swne"):
                out.append((f"families/vdiag-{a}-{b}-{t}", fam / f"vdiag-{a}-{b}-{t}.toml"))
    if "random" in sets:
        from coinsat import write_instance
        from coinsat.families import random_case

        for seed in range(seeds):
            path = folder / f"random-{seed}.toml"
            write_instance(random_case(seed).instance, path)
            out.append((f"random_case({seed})", path))
    return out


def cell(r: dict | None) -> str:
    if r is None:
        return "—"
    if r["status"] == "error":
        return f"error (exit {r.get('exit')})"
    answer = r["status"] if r["length"] is None else f"{r['status']} {r['length']}"
    if r["status"] == "unknown":
        answer += f" (>= {r['lower_bound']})"
    return f"{answer}; {r['wall']:.1f} s, {r['cpu']:.2f} cpu"


def decided(r: dict | None) -> bool:
    return r is not None and r["status"] not in ("unknown", "error")


def best_engine(row: dict) -> str | None:
    """The engine column with the least wall time among those that decided the instance."""
    done = [(row[n]["wall"], n) for n, _ in ENGINES if decided(row.get(n))]
    return min(done)[1] if done else None


def repeated(path: Path, args) -> dict:
    """``before`` and ``auto`` alternately, ``--repeat`` times each: the fastest of each (wall)."""
    runs: dict[str, list[dict]] = {"before": [], "auto": []}
    for _ in range(args.repeat):
        runs["before"].append(run(path, [], args.time_limit, args.before))
        runs["auto"].append(run(path, [], args.time_limit))
    return {k: min(v, key=lambda r: r["wall"]) for k, v in runs.items()}


def measure(name: str, path: Path, args) -> dict:
    if args.repeat > 1:
        return repeated(path, args)
    heavy = name.split("/")[-1] in args.heavy
    row: dict = {}
    row["auto"] = run(path, [], max(args.time_limit, HEAVY_LIMIT) if heavy else args.time_limit)
    if heavy:
        cap = max(60.0, args.heavy_factor * row["auto"]["wall"])
        row["before"] = run(path, [], cap, args.before)
        row["before_cap"] = cap
        return row
    row["before"] = run(path, [], args.time_limit, args.before)
    ok = applies(path)
    for column, extra in ENGINES:
        if ok[column] and column not in args.skip:
            row[column] = run(path, extra, args.time_limit)
    return row


def table(rows: list[tuple[str, dict]], args) -> str:
    several = "--repeat" in args.passed
    repeats = " Before and auto ran several times each, alternately: the fastest run." if several else ""
    title = "## More rows" if args.append else "# Which exact engine should `auto` pick? (`scripts/engine_choice.py`)"
    lines = [
        title,
        "",
        "Do not edit by hand; made by",
        "",
        f"    nice -n 10 python3 scripts/engine_choice.py --before CHECKOUT {' '.join(args.passed)}",
        "",
        "Each cell: the answer, then wall and CPU seconds of one `coinsat solve FILE --json` process",
        "(interpreter start-up and imports included). `before`: `auto` of the checkout before the change",
        "(the baseline); `auto`: the contender; then each engine forced with `--method`. The machine is",
        "shared (2 cores): read the ratios within a row, not the absolute times." + repeats,
        f"Load average (1 min) at the start and the end of the run: {args.loads[0]:.1f}, {args.loads[1]:.1f}.",
        "",
        "| instance | " + " | ".join(COLUMNS) + " | auto / before: wall, cpu | auto / best engine: wall, cpu |",
        "|---" * (len(COLUMNS) + 3) + "|",
    ]
    for name, row in rows:
        cells = [cell(row.get(c)) for c in COLUMNS]
        if "before_cap" in row and not decided(row["before"]):
            cells[0] += f" — stopped at the cap {row['before_cap']:.0f} s"
        a, b = row.get("auto"), row.get("before")
        if decided(a) and decided(b):
            ratio = f"{a['wall'] / b['wall']:.2f}, {a['cpu'] / max(b['cpu'], 1e-9):.2f}"
        elif decided(a) and b is not None:
            ratio = f"< {a['wall'] / b['wall']:.2f}, < {a['cpu'] / max(b['cpu'], 1e-9):.2f} (before: {b['status']})"
        else:
            ratio = "—"
        best = best_engine(row)
        vs_best = "—"
        if best and decided(a):
            vs_best = f"{a['wall'] / row[best]['wall']:.2f}, {a['cpu'] / max(row[best]['cpu'], 1e-9):.2f} ({best})"
        lines.append(f"| {name} | " + " | ".join(cells) + f" | {ratio} | {vs_best} |")
    from coinsat.search.methods import ENGINES

    if not args.append:
        rule = ENGINES["auto"].summary()  # its line of `coinsat solve --help`; the thresholds: search/plan.py
        lines += [
            "",
            "## The rule (`auto`, the contender, as `coinsat solve --help` states it)",
            "",
            rule,
            "",
            "## The rows",
        ]
    return "\n".join(lines) + "\n"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--before", required=True, help="the checkout whose auto is the baseline")
    ap.add_argument("--sets", default="paper,flips,vee,random")
    ap.add_argument("--only", default="", help="comma-separated instance names (stems) to keep")
    ap.add_argument("--seeds", type=int, default=8, help="random instances (random_case(0), ...)")
    ap.add_argument("--time-limit", type=float, default=60.0)
    ap.add_argument("--heavy", action="append", default=[], help="an instance whose baseline is slow (docstring)")
    ap.add_argument("--heavy-factor", type=float, default=2.2)
    ap.add_argument("--skip", default="", help="comma-separated engine columns not to run")
    ap.add_argument("--repeat", type=int, default=1, help="N > 1: only before and auto, N times each, the fastest")
    ap.add_argument("--json", type=Path, help="also write the raw rows to this file")
    ap.add_argument("--out", type=Path, help="write the table here (default: print it)")
    ap.add_argument("--append", action="store_true", help="add the table to --out instead of replacing it")
    ap.add_argument("--from-json", type=Path, help="render the rows a --json run saved (no measuring)")
    args = ap.parse_args(argv)
    given = list(argv if argv is not None else sys.argv[1:])
    for flag in ("--before", "--json", "--out", "--from-json"):  # paths of this machine, not the table's
        while flag in given:
            i = given.index(flag)
            del given[i : i + 2]
    args.passed = [a for a in given if a != "--append"]
    args.skip = set(filter(None, args.skip.split(",")))
    only = set(filter(None, args.only.split(",")))
    rows = []
    args.loads = [os.getloadavg()[0]]
    if args.from_json is not None:
        saved = json.loads(args.from_json.read_text())
        rows, args.loads, args.passed = saved["rows"], saved["loads"], saved["passed"]
    with tempfile.TemporaryDirectory() as tmp:
        for name, path in [] if args.from_json else instances(args.sets.split(","), args.seeds, Path(tmp)):
            if only and name.split("/")[-1] not in only:
                continue
            row = measure(name, path, args)
            rows.append((name, row))
            print(name, {k: cell(v) for k, v in row.items() if isinstance(v, dict)}, file=sys.stderr, flush=True)
    if args.from_json is None:
        args.loads.append(os.getloadavg()[0])
    text = table(rows, args)
    if args.json:
        args.json.write_text(json.dumps({"rows": rows, "loads": args.loads, "passed": args.passed}, indent=1) + "\n")
    if args.out and args.append:
        with args.out.open("a") as f:
            f.write("\n" + text)
    elif args.out:
        args.out.write_text(text)
    else:
        print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
