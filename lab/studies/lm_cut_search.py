#!/usr/bin/env python3
"""States kept and CPU of a bound-and-prune rankbfs with the fill, forced-supports and LM-cut h.

The ranked engine itself, one process: ``solve(instance, "rankbfs", upper_bound=U, heuristic=h,
workers=1)`` for h = fill (today's h, compiled), forced (docs/forced-supports.md, numpy) and
lmcut (docs/lm-cut.md, the compiled kernel of search/rank/lmcut.py after the compiled fill h),
one after the other in this process, the same U; numba warmed up on V(2,2) before the first
timed run.  CPU = process time of each solve.  U defaults to L - 1 (L = the stored solution's
length, replayed by rules.py): every h must end with "no solution with <= U moves" (bounded); with
``--at-length`` U = L and every h must meet the goal at L.  Rows are appended to ``--rows`` (JSON
lines) as they finish and read back on a rerun (a long run resumes by member).

    nice -n 10 /usr/bin/time -v python3 scripts/lm_cut_search.py \\
        --members vdiag-2-2-swne vdiag-3-2-nwse vdiag-3-3-swne --rows ROWS --out benchmarks/lm-cut-search.md
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from coinsat import Status, read_instance, solve
from coinsat.search.heuristics import CHOICES
from lab.commandline import shown
from lab.proofs import known_length

ROOT = Path(__file__).resolve().parents[2]
FAMILIES = ROOT / "instances" / "families"
DEFAULT_MEMBERS = ["vdiag-2-2-swne", "vdiag-3-2-nwse", "vdiag-3-3-swne"]
#: the h compared (coinsat.search.heuristics: every one --heuristic takes)
HS = CHOICES


def run(instance, upper_bound: int, h: str, time_limit: float | None) -> dict:
    """One solve; its answer, states kept, states expanded, CPU s and layer sizes."""
    t0 = time.process_time()
    r = solve(instance, "rankbfs", upper_bound=upper_bound, heuristic=h, workers=1, time_limit=time_limit)
    cpu = time.process_time() - t0
    return {
        "status": r.status.value,
        "depth": r.length if r.status is Status.OPTIMAL else None,
        "states": int(r.stats.get("states", 0)),
        "expanded": int(r.stats.get("expanded", 0)),
        "cpu": round(cpu, 2),
        "layers": [int(x) for x in r.stats.get("layers", [])],
    }


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--members", nargs="+", default=DEFAULT_MEMBERS)
    ap.add_argument("--at-length", action="store_true", help="U = L instead of L - 1")
    ap.add_argument("--heuristics", nargs="+", choices=HS, default=list(HS))
    ap.add_argument("--time-limit", type=float, default=None, help="seconds per solve (an unfinished one is 'unknown')")
    ap.add_argument("--rows", default=None, help="JSON lines: rows done are read and skipped, new ones appended")
    ap.add_argument("--out", default=None, help="write the Markdown table here (default: print only)")
    args = ap.parse_args()
    done: dict[tuple[str, int, str], dict] = {}
    if args.rows and Path(args.rows).exists():
        for line in Path(args.rows).read_text().splitlines():
            r = json.loads(line)
            done[(r["member"], r["U"], r["h"])] = r
    warm = read_instance(FAMILIES / "vdiag-2-2-swne.toml")
    for h in args.heuristics:  # numba compiles (or loads its cache) here, not inside a timed run
        run(warm, 35, h, None)
    rows = []
    for name in args.members:
        inst = read_instance(FAMILIES / f"{name}.toml")
        L = known_length(inst, FAMILIES / "solutions" / f"{name}.json")
        if L is None:
            raise SystemExit(f"{name}: no stored solution, or it does not end on a goal placement")
        U = L if args.at_length else L - 1
        for h in args.heuristics:
            if (name, U, h) in done:
                rows.append(done[(name, U, h)])
                print(name, U, h, rows[-1]["status"], rows[-1]["states"], rows[-1]["cpu"], "(from --rows)", flush=True)
                continue
            out = run(inst, U, h, args.time_limit)
            row = dict(member=name, cells=inst.board.size, coins=inst.n_coins, L=L, U=U, h=h, **out)
            expect = ("optimal", L) if U == L else ("bounded", None)
            if out["status"] != "unknown" and (out["status"], out["depth"]) != expect:
                raise SystemExit(f"{name}, U = {U}, h {h}: {out['status']} {out['depth']}, expected {expect}")
            rows.append(row)
            print(name, U, h, out["status"], out["states"], out["cpu"], flush=True)
            if args.rows:
                with open(args.rows, "a") as f:
                    f.write(json.dumps(row) + "\n")
    table = render(rows)
    print(table)
    if args.out:
        cmd = shown("scripts/lm_cut_search.py", sys.argv[1:], ROOT)
        head = (
            "# The LM-cut h in a whole bounded search: states kept and CPU, against the fill and forced h\n\n"
            f"Made by `nice -n 10 /usr/bin/time -v {cmd}` (one process, one core, the machine "
            "shared; the script's docstring has the method; rows read back from --rows were measured "
            "by an earlier invocation of the same command). Each member: the ranked engine with the "
            "same U, once per h, one after the other in one process; 'states' = configurations kept "
            "over all layers; 'peak' = the largest layer; CPU = process time of the solve; ratios "
            "against the fill h (today's). U = L - 1: every h ends with no solution within U moves "
            "(the proof that L is optimal); 'unknown' = stopped by --time-limit (states so far).\n\n"
        )
        Path(args.out).write_text(head + table + "\n")
    return 0


def render(rows: list[dict]) -> str:
    lines = [
        "| instance | cells | coins | L | U | h | answer | states kept | ratio to fill | peak layer | "
        "ratio | CPU s | CPU ratio | states expanded per CPU s |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    base = {(r["member"], r["U"]): r for r in rows if r["h"] == "fill"}
    for r in rows:
        b = base.get((r["member"], r["U"]), r)
        peak, bpeak = max(r["layers"], default=0), max(b["layers"], default=0)
        answer = {"bounded": f"none <= {r['U']}", "optimal": f"goal at {r['depth']}"}.get(r["status"], r["status"])
        lines.append(
            f"| {r['member']} | {r['cells']} | {r['coins']} | {r['L']} | {r['U']} | {r['h']} | {answer} | "
            f"{r['states']:,} | {r['states'] / max(b['states'], 1):.3f} | {peak:,} | {peak / max(bpeak, 1):.3f} | "
            f"{r['cpu']:.1f} | {r['cpu'] / max(b['cpu'], 1e-9):.2f} | {r['expanded'] / max(r['cpu'], 1e-9):,.0f} |"
        )
    return "\n".join(lines)


if __name__ == "__main__":
    raise SystemExit(main())
