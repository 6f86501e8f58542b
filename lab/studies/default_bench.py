#!/usr/bin/env python3
"""The default ``coinsat solve FILE`` against today's default and today's best configuration, in one run.

    nice -n 10 python3 scripts/default_bench.py --baseline COMMIT \\
        [--members vdiag-3-3-nwse,diagonal-6,paper] [--time-limit 600] [--out benchmarks/default-solve.md]

The baseline commit is checked out with ``git worktree add`` into a temporary folder and its command
runs with that folder on ``PYTHONPATH``; the contender is this checkout (``--contender``, default the
folder holding this script), run the same way.  Each cell is one ``coinsat solve FILE --json`` process,
so the CPU seconds (the process and its children: ``RUSAGE_CHILDREN``) include the interpreter's
start-up and every import, as a user pays them.  Columns, in the order they run:

* ``baseline default``: the baseline's ``coinsat solve FILE`` (no flags);
* ``baseline rankbfs U=STORED, fill`` and ``..., lmcut``: the baseline's
  ``--method rankbfs --upper-bound STORED [--heuristic lmcut]``, STORED the stored solution
  ``instances/families/solutions/<name>.json`` (a paper puzzle has none: there STORED is the
  baseline default's own optimal solution, written to a temporary file); ``n/a`` where rankbfs does
  not take a bound (a labeled puzzle, an inexact window);
* ``new default``: the contender's ``coinsat solve FILE``, with the plan it printed.

Before the first cell each checkout solves diagonal-4 with rankbfs and both h's, unmeasured, so that
its numba kernels are compiled and cached (``warm_up``).

Members: the names of ``instances/families/<name>.toml``, ``paper/<name>`` and ``paper`` (every
``instances/paper/*.toml``).  ``--not-run NAME=REASON`` (repeatable) puts a row in the table that
says it was not run and why.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from lab.commandline import shown, solve_process

ROOT = Path(__file__).resolve().parents[2]
FAMILIES = ROOT / "instances" / "families"
PAPER = ROOT / "instances" / "paper"
COLUMNS = ("baseline default", "baseline rankbfs U=STORED, fill", "baseline rankbfs U=STORED, lmcut", "new default")


def run(code: Path, path: Path, extra: list[str], time_limit: float) -> dict:
    """One ``coinsat solve`` process of the checkout ``code``: its answer, wall and CPU seconds."""
    obj, m = solve_process(path, extra, time_limit, str(code))
    wall, cpu = m["wall"], m["cpu"]
    if obj is None:
        return {"status": "error", "exit": m["exit"], "error": m["stderr"].strip()[-300:], "wall": wall, "cpu": cpu}
    stats = obj.get("statistics") or {}
    return {
        "status": obj["status"],
        "length": obj.get("length"),
        "lower_bound": obj.get("lower_bound"),
        "method": obj.get("method"),
        "states": stats.get("states"),
        "expanded": stats.get("expanded"),
        "plan": obj.get("plan"),
        "moves": obj.get("moves"),
        "wall": wall,
        "cpu": cpu,
    }


def warm_up(code: Path) -> None:
    """Compile and cache the numba kernels of the checkout ``code`` (the fill and LM-cut h's) on a
    small puzzle, unmeasured: a fresh checkout would otherwise charge the compilation to its
    first cell."""
    path, stored = FAMILIES / "diagonal-4.toml", FAMILIES / "solutions" / "diagonal-4.json"
    for extra in ([], ["--heuristic", "lmcut"]):
        run(code, path, ["--method", "rankbfs", "--upper-bound", str(stored), *extra], 600.0)


def members(names: list[str]) -> list[tuple[str, Path]]:
    out: list[tuple[str, Path]] = []
    for name in names:
        if name == "paper":
            out += [(f"paper/{p.stem}", p) for p in sorted(PAPER.glob("*.toml"))]
        elif name.startswith("paper/"):
            out.append((name, PAPER / f"{name[6:]}.toml"))
        else:
            out.append((name, FAMILIES / f"{name}.toml"))
    return out


def takes_a_bound(path: Path) -> str | None:
    """Why rankbfs takes no --upper-bound on the puzzle (None: it takes one)."""
    from coinsat import read_instance
    from coinsat.search.methods import inapplicable

    inst = read_instance(path)
    why = inapplicable("rankbfs", inst)
    if why is None and not inst.board.exact:
        why = "an inexact window (rankbfs prunes with a bound on exact windows only)"
    return why


def measure(name: str, path: Path, baseline: Path, contender: Path, folder: Path, limit: float) -> dict:
    row: dict = {"baseline default": run(baseline, path, [], limit)}
    stored = FAMILIES / "solutions" / f"{path.stem}.json"
    why = takes_a_bound(path)
    if why is None and not stored.exists():
        base = row["baseline default"]
        if base["status"] == "optimal":
            stored = folder / f"{path.stem}.json"
            stored.write_text(json.dumps({"moves": base["moves"]}))
        else:
            why = f"no stored solution, and the baseline default answered {base['status']}"
    row["stored"] = None if why else _length(stored)
    for column, h in ((COLUMNS[1], "fill"), (COLUMNS[2], "lmcut")):
        if why:
            row[column] = {"status": "n/a", "why": why}
            continue
        extra = ["--method", "rankbfs", "--upper-bound", str(stored)] + (["--heuristic", h] if h != "fill" else [])
        row[column] = run(baseline, path, extra, limit)
    row["new default"] = run(contender, path, [], limit)
    return row


def _length(stored: Path) -> int:
    return len(json.loads(stored.read_text())["moves"])


def answered(r: dict | None) -> bool:
    return r is not None and r.get("status") not in ("unknown", "error", "n/a", None)


def cell(r: dict | None) -> str:
    if r is None:
        return "—"
    if r["status"] == "n/a":
        return "n/a"
    if r["status"] == "error":
        return f"error (exit {r.get('exit')})"
    answer = r["status"] if r["length"] is None else f"{r['status']} {r['length']}"
    if r["status"] == "unknown":
        answer += f" (>= {r['lower_bound']})"
    states = f", {r['states']:,} states" if r.get("states") is not None else ""
    return f"{answer}; {r['cpu']:.2f} CPU s{states}"


def plan_text(r: dict) -> str:
    plan = r.get("plan")
    if not plan:
        return "—"
    if plan.get("upper_bound") is None:
        return f"{plan['engine']}, no bound"
    if plan.get("bound_strategy") == "from below":  # each search: U, its answer, its CPU seconds in-process
        ran = ", ".join(f"U = {s['upper_bound']} {s['status']} ({_search(s)})" for s in plan.get("searches") or [])
        return f"{plan['engine']}, h = {plan['heuristic']}, from below: {ran} (first U = {plan['bound_from']})"
    return f"{plan['engine']}, h = {plan['heuristic']}, U = {plan['upper_bound']} ({plan['bound_from']})"


def _search(s: dict) -> str:
    """One search of the bound from below: its in-process CPU seconds, and the states it kept on the
    decisions of the search before (Lemma KR, docs/from-below.md) when it did."""
    trusted = s.get("trusted")
    return f"{s['cpu_seconds']:.1f} s" + ("" if trusted is None else f", {trusted:,} trusted")


def ratio(new: dict, old: dict | None) -> str:
    if not (answered(new) and answered(old)) or old is None:
        return "—"
    return f"{new['cpu'] / max(old['cpu'], 1e-9):.2f}"


def same_answer(row: dict) -> str:
    """'yes' when every column that answered gives the same status and length."""
    answers = {(r["status"], r.get("length")) for c in COLUMNS if answered(r := row.get(c) or {})}
    return "yes" if len(answers) == 1 else "NO: " + ", ".join(sorted(f"{s} {n}" for s, n in answers))


def table(rows: list[tuple[str, dict]], skipped: list[tuple[str, str]], meta: dict) -> str:
    lines = [
        "# The default `coinsat solve FILE` against today's default and today's best configuration",
        "",
        "Do not edit by hand; made by",
        "",
        f"    nice -n 10 {meta['command']}",
        "",
        f"Baseline: commit {meta['baseline']}; contender: commit {meta['contender']}"
        f"{' (with changes not committed)' if meta['dirty'] else ''}. Each cell: the answer, then the CPU",
        "seconds of one `coinsat solve FILE --json` process and its children (start-up and imports",
        "included), then the states the search kept (`statistics.states`). STORED = the length of the",
        "stored solution (`instances/families/solutions/<name>.json`; for a paper puzzle the baseline",
        "default's own optimal solution). `new / best` = the new default's CPU over the least CPU of the three",
        "baseline columns. One run, nice 10, on a shared 2-core machine: read the ratios within a row.",
        f"Load average (1 min) at the start and the end: {meta['loads'][0]:.1f}, {meta['loads'][1]:.1f}.",
        f"Run {meta['started']} to {meta['ended']} UTC.",
        "",
        "| puzzle | STORED | " + " | ".join(COLUMNS) + " | new / baseline default | new / best | same answer "
        "| the new default's plan |",
        "|---" * (len(COLUMNS) + 6) + "|",
    ]
    for name, row in rows:
        new = row["new default"]
        done = [row[c] for c in COLUMNS[:3] if answered(row.get(c))]
        best = min(done, key=lambda r: r["cpu"]) if done else None
        cells = " | ".join(cell(row.get(c)) for c in COLUMNS)
        stored = "—" if row.get("stored") is None else str(row["stored"])
        lines.append(
            f"| {name} | {stored} | {cells} | {ratio(new, row['baseline default'])} | {ratio(new, best)} "
            f"| {same_answer(row)} | {plan_text(new)} |"
        )
    for name, why in skipped:
        lines.append(f"| {name} | — | " + " | ".join(["not run"] * len(COLUMNS)) + f" | — | — | — | not run: {why} |")
    return "\n".join(lines) + "\n"


def git(*args: str) -> str:
    return subprocess.run(["git", "-C", str(ROOT), *args], capture_output=True, text=True, check=True).stdout.strip()


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--baseline", required=True, help="the commit whose default and rankbfs are the baseline")
    ap.add_argument("--contender", type=Path, default=ROOT, help="the checkout of the new default (default: this)")
    ap.add_argument("--members", default="vdiag-3-3-nwse,diagonal-6,paper")
    ap.add_argument("--not-run", action="append", default=[], metavar="NAME=REASON", help="a row not run, and why")
    ap.add_argument("--time-limit", type=float, default=600.0, help="seconds per cell (a cell past it: unknown)")
    ap.add_argument("--json", type=Path, help="also write the raw rows here")
    ap.add_argument("--out", type=Path, help="write the table here (default: print it)")
    args = ap.parse_args(argv)
    given = list(argv if argv is not None else sys.argv[1:])
    skipped = [tuple(item.split("=", 1)) for item in args.not_run]
    if any(len(s) != 2 for s in skipped):
        ap.error("--not-run takes NAME=REASON")
    meta = {
        "command": shown("scripts/default_bench.py", given, ROOT),
        "baseline": git("rev-parse", "--short", args.baseline),
        "contender": subprocess.run(
            ["git", "-C", str(args.contender), "rev-parse", "--short", "HEAD"], capture_output=True, text=True
        ).stdout.strip(),
        "dirty": bool(
            subprocess.run(
                ["git", "-C", str(args.contender), "status", "--porcelain", "--untracked-files=no"],
                capture_output=True,
                text=True,
            ).stdout.strip()
        ),
        "loads": [os.getloadavg()[0]],
        "started": time.strftime("%Y-%m-%d %H:%M", time.gmtime()),
    }
    rows = []
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(3))  # a stopped run still removes its worktree
    with tempfile.TemporaryDirectory() as tmp:
        baseline = Path(tmp) / "baseline"
        git("worktree", "add", "--detach", str(baseline), args.baseline)
        try:
            for code in (baseline, args.contender.resolve()):
                warm_up(code)
            for name, path in members(args.members.split(",")):
                row = measure(name, path, baseline, args.contender.resolve(), Path(tmp), args.time_limit)
                rows.append((name, row))
                print(name, {c: cell(row.get(c)) for c in COLUMNS}, file=sys.stderr, flush=True)
        finally:
            git("worktree", "remove", "--force", str(baseline))
    meta["loads"].append(os.getloadavg()[0])
    meta["ended"] = time.strftime("%H:%M", time.gmtime())
    for _, row in rows:
        for c in COLUMNS:
            (row.get(c) or {}).pop("moves", None)
    text = table(rows, skipped, meta)  # type: ignore[arg-type]
    if args.json:
        args.json.write_text(json.dumps({"rows": rows, "meta": meta}, indent=1) + "\n")
    if args.out:
        args.out.write_text(text)
    else:
        print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
