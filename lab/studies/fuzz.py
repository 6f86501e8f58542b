"""Fuzz every input surface of the command line and check one invariant on each input
(the harness: ``lab.fuzz``, whose docstring says what is fuzzed and judged).

    python3 scripts/fuzz.py --minutes 60 --out benchmarks/fuzz.md   # parallel on all cores
    python3 scripts/fuzz.py --minutes 1 --workers 1 --seed 7          # prints the table

Every failing input is saved under ``tests/data/fuzz_regressions/<id>/`` (its files and
``case.json``), which ``tests/test_fuzz.py`` replays; the findings table is printed, or
written with ``--out`` (the checker campaign's section of that file is kept).
"""

from __future__ import annotations

import argparse
import concurrent.futures
import os
import sys
import time
from pathlib import Path

from lab import fuzz

ROOT = Path(__file__).resolve().parents[2]
REGRESSIONS = ROOT / "tests" / "data" / "fuzz_regressions"


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--minutes", type=float, default=60)
    p.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    p.add_argument("--seed", type=int, default=int(time.time()))
    p.add_argument(
        "--out",
        "--table",
        dest="table",
        default=None,
        metavar="FILE",
        help="write the table here (e.g. benchmarks/fuzz.md; its checker-campaign section is kept); default: print it",
    )
    args = p.parse_args(argv)
    t0 = time.monotonic()
    mem_rows = []
    for name, (cargv, files) in fuzz.memory_cases(ROOT).items():
        code, rss, size, secs, err = fuzz.run_memory_case(cargv, files)
        fail = fuzz.memory_failure(code, rss, size, err, list(files))
        mem_rows.append((name, size, rss, secs, code, fail))
        print(
            f"memory: {name}: exit {code}, {rss / 2**20:.0f} MB for {size / 2**20:.1f} MB, {secs:.1f} s"
            + (f"  FAIL {fail}" if fail else ""),
            flush=True,
        )
    budget = max(1.0, args.minutes * 60 - (time.monotonic() - t0))
    jobs = [(budget, args.seed + i, ROOT, REGRESSIONS) for i in range(args.workers)]
    # Not multiprocessing.Pool: its workers are daemons, which may not start the child
    # processes some commands use (certify), so every such case would fail spuriously.
    with concurrent.futures.ProcessPoolExecutor(args.workers) as pool:
        results = list(pool.map(fuzz.work, jobs))
    tried = {s: sum(r["tried"][s] for r in results) for s in fuzz.SURFACES}
    failures = [f for r in results for f in r["failures"]]
    by_kind: dict[tuple[str, str], int] = {}
    for f in failures:
        key = (f["surface"], f["kind"])
        by_kind[key] = by_kind.get(key, 0) + 1
    minutes = (time.monotonic() - t0) / 60
    command = f"python3 scripts/fuzz.py --minutes {args.minutes:g} --workers {args.workers} --seed {args.seed}"
    text = table_text(command, minutes, tried, failures, by_kind, mem_rows, max(r["slowest"] for r in results))
    if args.table is None:
        print(text, end="")
    else:
        write_table(Path(args.table), text)
    where = args.table or "above"
    print(f"{sum(tried.values())} inputs in {minutes:.1f} min, {len(failures)} failures; table: {where}")
    return 1 if failures or any(r[-1] for r in mem_rows) else 0


#: the section of the table file that scripts/checker_fuzz.py writes (kept when this table is rewritten)
CHECKER_SECTION = ("<!-- checker-campaign: begin -->", "<!-- checker-campaign: end -->")


def write_table(path: Path, text: str) -> None:
    """Write the table to ``path``, keeping the checker campaign's section of the old file."""
    old = path.read_text() if path.exists() else ""
    begin, end = CHECKER_SECTION
    if begin in old and end in old:
        text += "\n" + old[old.index(begin) : old.index(end) + len(end)] + "\n"
    path.write_text(text)


def table_text(
    command: str, minutes: float, tried: dict, failures: list, by_kind: dict, mem_rows: list, slowest: float
) -> str:
    lines = [
        "# Fuzz campaign",
        "",
        f"Command: `{command}` (made by `scripts/fuzz.py`).",
        "",
        (
            "Invariant for every input: exit 0, 1, 2 or 3; no traceback; an exit 2 is one line "
            "`coinsat: error: FILE[:LINE]: ...` naming an input file (or an argparse usage error); "
            f"memory cases (child processes): peak RSS <= {fuzz.MEMORY_BASE // 2**20} MB + {fuzz.MEMORY_PER_BYTE} x "
            "input bytes."
        ),
        "",
        f"Wall time: {minutes:.1f} min; slowest in-process case: {slowest:.1f} s.",
        "",
        "| surface | inputs tried | failures |",
        "|---|---:|---:|",
    ]
    for s in fuzz.SURFACES:
        lines.append(f"| {s} | {tried[s]} | {sum(1 for f in failures if f['surface'] == s)} |")
    lines.append(f"| **total** | {sum(tried.values())} | {len(failures)} |")
    if by_kind:
        lines += ["", "| surface | failure | count |", "|---|---|---:|"]
        lines += [f"| {s} | {k} | {c} |" for (s, k), c in sorted(by_kind.items())]
    lines += [
        "",
        "Memory cases:",
        "",
        "| case | input | peak RSS | bound | seconds | exit | verdict |",
        "|---|---:|---:|---:|---:|---:|---|",
    ]
    for name, size, rss, secs, code, fail in mem_rows:
        bound = fuzz.MEMORY_BASE + fuzz.MEMORY_PER_BYTE * size
        lines.append(
            f"| {name} | {size / 2**20:.2f} MB | {rss / 2**20:.0f} MB | {bound / 2**20:.0f} MB | "
            f"{secs:.1f} | {code} | {fail or 'ok'} |"
        )
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    sys.exit(main())
