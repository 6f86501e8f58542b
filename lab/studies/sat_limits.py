#!/usr/bin/env python3
"""How far SAT proves "no solution with <= T moves": the climb, one call, and cubes on 2 workers.

    nice -n 10 python3 scripts/sat_limits.py [--members v22swne,v32swne,v32nwse] [--cap 240]
        [--depth 3] [--out benchmarks/sat_limits.md]

For each member (optimum T* known from spanbfs' layers certificates) and each of three ways,
every one given the same CPU budget ``--cap`` (CPU seconds, per member and way), in one run:

* ``incremental``: the SAT engine's plain climb (``solve_sat``, linear, one solver kept
  across horizons), in a child process killed at the cap (``RLIMIT_CPU``); the largest T it
  reported UNSAT.
* ``one-shot``: one fresh solver call on the formula at T (no proof), no climb.
* ``cubes``: cube-and-conquer with 2 workers (``build_cubes``, the default split,
  2^``--depth`` cubes; its DRAT proofs and cover proof are made, not checked here).  A call
  with budget B stops when its two workers together have used B CPU seconds (read from
  ``/proc``, every half second): the budget is the call's, not a share per cube, because
  the look-ahead split leaves one cube nearly as hard as the whole call
  (``benchmarks/cubes.md``).  The cubes with the most negative ("cell empty") literals
  are started first, since those are the hard ones; a satisfiable cube ends the call at
  once (every cube must be refuted for a proof).

The search over T (``--search climb``, the default): the first call is at
min(c + 1, T* − 1), where c is the climb's result: the first horizon the climb did not
prove, or the one an optimality proof needs.  After a success at T, T + 1 (up to T* − 1);
after a failure with nothing proven yet, T − 1; after a failure once something is
proven, the search stops.  Every call gets half of the budget left.  ``--search optimum``
starts at T* − 1 and halves the interval towards c instead.  A failed
call proves nothing; a proven T proves every smaller T too (fewer moves).  Each call's
CPU seconds are listed, so the budget's use can be audited.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

from coinsat import read_instance
from coinsat.certificates.prove.cubes import DEFAULT_SPLIT
from lab.commandline import shown
from lab.sat_limits import Member, climb, cube_call, one_call, search

ROOT = Path(__file__).resolve().parents[2]
FAM = ROOT / "instances/families"


MEMBERS = {
    m.key: m
    for m in (
        Member("v11swne", FAM / "vdiag-1-1-swne.toml", 13),  # a smoke test
        Member("v22swne", FAM / "vdiag-2-2-swne.toml", 36),
        Member("v32swne", FAM / "vdiag-3-2-swne.toml", 36),
        Member("v32nwse", FAM / "vdiag-3-2-nwse.toml", 53),
        Member("v33nwse", FAM / "vdiag-3-3-nwse.toml", 53),
    )
}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--members", default="v22swne,v32swne,v32nwse")
    ap.add_argument("--cap", type=float, default=240.0, help="CPU seconds per member and way")
    ap.add_argument("--depth", type=int, default=3, help="cubes: 2^depth of them")
    ap.add_argument("--search", choices=("climb", "optimum"), default="climb", help="where the calls start")
    ap.add_argument("--out", default=str(ROOT / "benchmarks/sat_limits.md"))
    args = ap.parse_args(argv)
    command = shown("scripts/sat_limits.py", argv or sys.argv[1:], ROOT)
    head = [
        "# SAT engine: where the limits are (V-to-diagonal family)\n",
        f"Command: `nice -n 10 {command}`  \nDate: {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}; "
        f"CaDiCaL 1.9.5 (PySAT), pruned encoding (default options); cubes: split `{DEFAULT_SPLIT}`, "
        f"{1 << args.depth} cubes, 2 workers. Every way gets **{args.cap:g} CPU seconds per member** "
        "(the cubes' count both workers). 2 cores shared with other jobs (CPU seconds, not wall, are the budget).\n",
        f"The calls of one-shot and cubes (`--search {args.search}`): "
        + (
            "the first at min(c + 1, T* − 1), c the climb's result; after a success T + 1, after a failure "
            "T − 1 until something is proven; each call gets half the budget left (the script's docstring). "
            if args.search == "climb"
            else "T* − 1 first, then halving towards the climb's result (the script's docstring). "
        )
        + "A failed call proves nothing. T* is the optimum (spanbfs, layers certificate), so T* − 1 is the most "
        f"any way can prove. Load at the start: {' '.join(f'{x:.1f}' for x in os.getloadavg())}.\n",
        "| member | T* | incremental climb: largest UNSAT T | one-shot: largest UNSAT T | cubes, 2 workers: "
        "largest UNSAT T | calls (CPU s) |",
        "|---|---:|---:|---:|---:|---|",
    ]
    rows: list[str] = []
    for key in args.members.split(","):
        m = MEMBERS[key]
        inc, inc_cpu, inc_log = climb(m, args.cap)
        print(m.key, "climb", inc, inc_cpu, inc_log, file=sys.stderr, flush=True)
        one, one_log = search(m, inc, args.cap, one_call, args.search)
        print(m.key, "one-shot", one, one_log, file=sys.stderr, flush=True)
        cub, cub_log = search(m, inc, args.cap, lambda mm, T, c: cube_call(mm, T, c, args.depth), args.search)
        print(m.key, "cubes", cub, cub_log, file=sys.stderr, flush=True)

        def show(x: int | None, lo: int | None) -> str:
            if x is None:
                return "— (nothing proven within the cap)"
            return f"**{x}**" if x == m.optimum - 1 else f"{x}"

        calls = (
            f"climb: {inc_cpu:.0f} s, {'; '.join(inc_log)}; one-shot: {'; '.join(one_log) or 'none'}; "
            f"cubes: {'; '.join(cub_log) or 'none'}"
        )
        rows.append(
            f"| {read_instance(m.path).name} | {m.optimum} | {show(inc, None)} | {show(one, inc)} "
            f"| {show(cub, inc)} | {calls} |"
        )
        Path(args.out).write_text("\n".join(head + rows) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
