#!/usr/bin/env python3
"""Cross-engine agreement at scale: random instances, every engine, answers compared.

    nice -n 10 python3 scripts/crosscheck.py --n 10000 --workers 2 --report benchmarks/crosscheck.md
    python3 scripts/crosscheck.py --replay tests/data/crosscheck_failures/*.toml

Why: the engines (``bfs``, ``spanbfs``, ``sat``, ``ilp``) share only rules.py, so
answers that agree on thousands of unrelated instances are evidence for each of
them, and one that disagrees is a bug in at least one.  Every answer's solution
is replayed here by ``solution.verify`` (rules.py) as well.

**Instances**: ``coinsat.families.random_case(seed)``, one seed one instance,
reproducible (its comment says what the mix is).

**What an answer claims, and the agreement rules**: ``lab.agreement`` (its
docstring states them; rule 5 is ``--strict``).

``unknown`` (a limit hit, or a window engine whose window cannot prove T) is
never a disagreement; unknowns are counted per engine and reported.  Each
engine runs with ``--time-limit`` seconds; a worker still busy ``--hard-limit``
seconds after taking an instance is killed (its own process id) and the
instance counted as *stalled*.  An engine that raises is a disagreement.

Every disagreement is printed and saved to tests/data/crosscheck_failures/
(the instance, T, the engines' answers and problems in its metadata;
``--replay`` re-checks such files).  Exit 1 if any, else 0.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

from coinsat import METHODS
from lab.agreement import VARIANTS, check_file, engines
from lab.commandline import shown
from lab.crosscheck import DEFAULT_TIME_LIMIT, Settings, Tally, campaign, write_report

ROOT = Path(__file__).resolve().parents[2]
FAILURES = ROOT / "tests" / "data" / "crosscheck_failures"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--n", type=int, default=200, help="number of random instances (default 200)")
    ap.add_argument("--seed", type=int, default=0, help="first seed; instance i uses seed + i")
    ap.add_argument(
        "--workers", type=int, default=os.cpu_count() or 1, help="worker processes (default: os.cpu_count())"
    )
    ap.add_argument("--engines", default=None, help="comma-separated subset of " + ",".join(engines()))
    ap.add_argument(
        "--time-limit",
        type=float,
        default=DEFAULT_TIME_LIMIT,
        help=f"seconds per engine and instance (default {DEFAULT_TIME_LIMIT:g})",
    )
    ap.add_argument(
        "--hard-limit",
        type=float,
        default=None,
        help="seconds after which a worker busy on one instance is killed (default: 4 x engines x time limit)",
    )
    ap.add_argument(
        "--strict", default="", metavar="ENGINES", help="engines whose answers must be global (rule 5), comma-separated"
    )
    ap.add_argument("--progress", type=int, default=500, metavar="K", help="a progress line every K instances")
    ap.add_argument("--no-save", action="store_true", help="do not write failure files")
    ap.add_argument(
        "--failures",
        type=Path,
        default=FAILURES,
        help="folder for the failure files (default tests/data/crosscheck_failures)",
    )
    ap.add_argument("--report", type=Path, default=None, help="write the markdown report here")
    ap.add_argument(
        "--replay",
        type=Path,
        nargs="+",
        default=None,
        metavar="FILE",
        help="re-check saved instance files instead of random ones",
    )
    args = ap.parse_args(argv)
    names = tuple(args.engines.split(",")) if args.engines else engines()
    strict = tuple(e for e in args.strict.split(",") if e)
    missing = [e for e in names + strict if e not in METHODS and e not in VARIANTS]
    if missing:
        ap.error(f"not registered: {', '.join(missing)}")
    if args.n < 1 or args.workers < 1 or args.time_limit <= 0:
        ap.error("--n, --workers and --time-limit must be positive")
    if args.replay:
        bad = 0
        for path in args.replay:
            problems = check_file(path, names, args.time_limit, strict)
            bad += bool(problems)
            print(f"{path}: {'; '.join(problems) if problems else 'agree'}")
        return 1 if bad else 0
    hard = args.hard_limit or 4 * len(names) * args.time_limit
    settings = Settings(names, args.time_limit, strict, not args.no_save, args.failures)
    command = shown("scripts/crosscheck.py", argv or sys.argv[1:], ROOT)
    print(
        f"engines: {', '.join(names)}; seeds {args.seed}..{args.seed + args.n - 1}; "
        f"{args.workers} workers; {args.time_limit:g} s per engine, hard limit {hard:g} s",
        flush=True,
    )
    t0 = time.perf_counter()
    tally = Tally()
    for rec in campaign(list(range(args.seed, args.seed + args.n)), settings, args.workers, hard):
        tally.add(rec)
        if rec.problems:
            print(
                f"DISAGREEMENT seed {rec.seed} T={rec.horizon} {'/'.join(rec.category)}: "
                f"{'; '.join(rec.problems)}" + (f" -> {rec.saved}" if rec.saved else ""),
                flush=True,
            )
        if rec.stalled:
            print(f"stalled: seed {rec.seed} killed after {hard:g} s", flush=True)
        done = len(tally.records)
        if args.progress and done % args.progress == 0:
            print(
                f"  {done}/{args.n} done, {len(tally.disagreements)} disagreements, {time.perf_counter() - t0:.0f} s",
                flush=True,
            )
    wall = time.perf_counter() - t0
    lines = tally.lines(names, args.time_limit, hard, args.workers, wall, command)
    print("\n".join(lines))
    if args.report:
        write_report(args.report, lines)
    print(f"{len(tally.records)} instances, {len(tally.disagreements)} disagreements")
    return 1 if tally.disagreements else 0


if __name__ == "__main__":
    sys.exit(main())
