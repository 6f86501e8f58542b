#!/usr/bin/env python3
"""Cube-and-conquer at the frontier: how the splits balance, 1 against 2 workers, extrapolation.

    nice -n 10 python3 scripts/cube_bench.py [--sections balance,targets,v32nw] [--depth 3]
        [--split tree] [--cap 60] [--out benchmarks/cubes.md]

* ``balance``: V(2,2) -> SW-NE at T = 35 split 2^depth ways by each split of
  ``certificates/prove/cubes.py`` (``tree``, ``lookahead``, ``middle``), 2 workers, every cube
  capped at ``--balance-cap`` CPU s: CPU seconds and conflicts per cube, the largest over the
  mean (1 = perfectly even).
* ``targets``: V(2,2) and V(3,2) -> SW-NE at T = 35 (optimal 36) by ``--split`` with 2 workers
  (the certificate checked by ``check_certificate``) and with 1 worker, in the same run.
* ``v22``: V(2,2) -> SW-NE at T = 35 (optimal 36) split 2^depth ways by ``--split`` with 2
  workers (the certificate checked by ``check_certificate``: every cube proof and the cover),
  by the other split (``lookahead`` / ``middle`` of ``certificates/prove/cubes.py``) with 2
  workers, and by ``--split`` with 1 worker, in the same run: the CPU seconds of every cube,
  the largest over the mean (1 = perfectly even), the sum, and the wall seconds.
* ``v32``: V(3,2) -> SW-NE at T = 35 (optimal 36), 2 workers (checked), then 1 worker.
* ``v32nw``: V(3,2) -> NW-SE at T = 52, all 2^``--extrapolate-depth`` cubes, each capped at
  ``--nw-cap`` CPU s, with ``--nw-workers`` (the 2-worker certificate checked).
* ``strata``: V(3,2) -> NW-SE at T = 52 split 2^``--extrapolate-depth`` ways; one cube per
  number of negative literals (the all-negative one capped at ``--hard-cap``, the others at
  ``--cap`` CPU s) on ``--strata-workers``: an estimate of every cube's cost and of the
  wall time for w workers, with the hardest cube measured rather than assumed.
* ``extrapolate``: V(3,2) -> NW-SE at T = 52 (optimal 53, proven by spanbfs' layers), split
  2^``--extrapolate-depth`` ways; ``--sample`` cubes spread over them are solved in parallel,
  each capped at ``--cap`` CPU seconds: how many finish, and how hard the rest are.

CPU seconds are the worker processes' own; wall seconds are also given with the load
average, because the 2 cores are shared with other jobs (a speed-up from the second worker
shows in wall seconds only when a core is free).
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import statistics
import sys
import tempfile
import time
from pathlib import Path

from coinsat import read_instance
from coinsat.certificates.check import check_certificate
from coinsat.certificates.check.format import Certificate
from coinsat.certificates.prove.cubes import build_cubes
from coinsat.errors import LimitReached

ROOT = Path(__file__).resolve().parents[2]
V22 = ROOT / "instances/families/vdiag-2-2-swne.toml"
V32 = ROOT / "instances/families/vdiag-3-2-swne.toml"
V32NW = ROOT / "instances/families/vdiag-3-2-nwse.toml"
T_NW = 52


def load() -> str:
    return " ".join(f"{x:.1f}" for x in os.getloadavg())


def run(path: Path, T: int, *, split: str, depth: int, workers: int, check: bool, cap: float | None = None) -> dict:
    inst = read_instance(path)
    with tempfile.TemporaryDirectory(dir=os.environ.get("TMPDIR")) as d:
        stats: dict = {}
        t0, l0 = time.perf_counter(), load()
        try:
            cert = build_cubes(
                inst, T, d, "c", split=split, depth=depth, workers=workers, stats=stats, cube_cpu_cap=cap
            )
            stopped = None
        except LimitReached as e:
            cert, stopped = None, str(e)
        wall = time.perf_counter() - t0
        out = {"name": inst.name, "wall": wall, "load": l0, "stats": stats, "stopped": stopped, "cert": cert}
        if check and cert is not None:
            c0 = time.process_time()
            verdict = check_certificate(inst, json.loads(Certificate.from_json(cert).text()), Path(d))
            out.update(check_cpu=time.process_time() - c0, check_ok=verdict.ok, check_reason=verdict.reason)
            out["proof_mb"] = sum(f.stat().st_size for f in Path(d).glob("*.drat")) / 1e6
        return out


def cpu_list(r: dict) -> list[float]:
    return [o.cpu_seconds for o in r["stats"].get("outcomes", [])]


def whole_call(path: Path, T: int, cap: float) -> str:
    """The baseline of the splits: the call unsplit (one cube, no literals), capped at ``cap`` CPU s."""
    from coinsat.certificates.check.bounded import widened
    from coinsat.certificates.prove.bounded import exact_margin
    from coinsat.certificates.prove.cubes import CubeTask, solve_cube
    from coinsat.encode.sat import encode
    from coinsat.io.dimacs import cnf_text

    inst = read_instance(path)
    margin = exact_margin(inst, T)
    inst = inst if margin is None else widened(inst, margin)  # the formula build_cubes splits
    with tempfile.TemporaryDirectory(dir=os.environ.get("TMPDIR")) as d:
        cnf = Path(d) / "f.cnf"
        cnf.write_text(cnf_text(inst, encode(inst, T)))
        t0, l0 = time.perf_counter(), load()
        o = solve_cube(CubeTask(0, str(cnf), (), str(Path(d) / "f.drat"), cpu_seconds=cap))
        wall = time.perf_counter() - t0
    answer = "UNSAT" if o.unsat else ("stopped at the cap" if o.unsat is None else "SAT")
    return (
        f"| none (one call) | 1 | — | {o.cpu_seconds:.1f} | {o.conflicts / 1000:.0f} | 1.00 | {o.cpu_seconds:.1f} "
        f"| {wall:.1f} | {0 if o.unsat is not None else 1} ({answer}; proof {o.proof_bytes / 1e6:.0f} MB) | {l0} |"
    )


def balance(depth: int, cap: float, splits: list[str]) -> list[str]:
    """Each split of V(2,2) -> SW-NE at T = 35, 2 workers, each cube capped at ``cap`` CPU s."""
    rows = [
        "| split | cubes | split wall s | CPU s per cube | conflicts per cube (thousands) | max / mean CPU "
        "| CPU s (sum) | wall s | stopped at the cap | load |",
        "|---|---:|---:|---|---|---:|---:|---:|---|---|",
    ]
    for split in splits:
        if split == "none":
            rows.append(whole_call(V22, 35, cap * (1 << depth)))
            print(rows[-1], file=sys.stderr, flush=True)
            continue
        r = run(V22, 35, split=split, depth=depth, workers=2, check=False, cap=cap)
        outs = r["stats"].get("outcomes", [])
        cpu = [o.cpu_seconds for o in outs]
        stopped = sum(1 for o in outs if o.unsat is None)
        rows.append(
            f"| {split} | {len(outs)} | {r['stats'].get('split_seconds', 0):.1f} | "
            f"{', '.join(f'{c:.1f}' for c in cpu)} | {', '.join(f'{o.conflicts / 1000:.0f}' for o in outs)} | "
            f"{max(cpu) / statistics.mean(cpu):.2f} | {sum(cpu):.1f} | {r['wall']:.1f} | {stopped} | {r['load']} |"
        )
        print(rows[-1], file=sys.stderr, flush=True)
    return rows


ROW_HEAD = [
    "| member | T | split | workers | cubes | CPU s per cube | max / mean | CPU s (sum) | wall s (build) | load "
    "| proof MB | check CPU s | accepted |",
    "|---|---:|---|---:|---:|---|---:|---:|---:|---|---:|---:|---|",
]


def row(r: dict, T: int, split: str, workers: int) -> str:
    cpu = cpu_list(r)
    spread = f"{max(cpu) / statistics.mean(cpu):.2f}" if cpu else "—"
    if r["cert"] is None:
        checked = f"— | — | {r['stopped'] or 'satisfiable?'}"
    elif "check_ok" in r:
        verdict = "yes" if r["check_ok"] else "NO: " + r["check_reason"]
        checked = f"{r['proof_mb']:.0f} | {r['check_cpu']:.1f} | {verdict}"
    else:
        checked = "— | — | not checked"
    return (
        f"| {r['name']} | {T} | {split} | {workers} | {len(cpu)} | {', '.join(f'{c:.1f}' for c in cpu)} | {spread} "
        f"| {sum(cpu):.1f} | {r['wall']:.1f} | {r['load']} | {checked} |"
    )


def member(path: Path, T: int, depth: int, plan: list[tuple[str, int, bool]], cap: float | None = None) -> list[str]:
    """One row per (split, workers, check) of ``plan``, in the same run."""
    rows = list(ROW_HEAD)
    for split, workers, check in plan:
        r = run(path, T, split=split, depth=depth, workers=workers, check=check, cap=cap)
        rows.append(row(r, T, split, workers))
        print(rows[-1], file=sys.stderr, flush=True)
    return rows


def extrapolate(depth: int, split: str, cap: float, sample: int) -> list[str]:
    """A sample of the 2^depth cubes of V(3,2) -> NW-SE at T = 52, each capped at ``cap`` CPU s."""
    from coinsat.certificates.prove.cubes import (
        CubeTask,
        cubes_of,
        occupancy_candidates,
        read_clauses,
        solve_cubes,
        split_variables,
    )
    from coinsat.encode.sat import encode
    from coinsat.io.dimacs import cnf_text

    inst = read_instance(V32NW)
    with tempfile.TemporaryDirectory(dir=os.environ.get("TMPDIR")) as d:
        f = encode(inst, T_NW)
        cnf = Path(d) / "f.cnf"
        cnf.write_text(cnf_text(inst, f))
        clauses = read_clauses(cnf)
        variables = split_variables(clauses, occupancy_candidates(inst, T_NW, False, f), depth, split)
        cubes = cubes_of(variables)
        step = max(1, len(cubes) // sample)
        picked = list(range(0, len(cubes), step))[:sample]
        tasks = [CubeTask(i, str(cnf), cubes[i], str(Path(d) / f"{i}.drat"), cpu_seconds=cap) for i in picked]
        t0, l0 = time.perf_counter(), load()
        outs = solve_cubes(tasks, workers=len(tasks))
        wall = time.perf_counter() - t0
    done = [o for o in outs if o.unsat]
    rows = [
        f"{inst.name} at T = {T_NW} ({f.nvars} variables), split `{split}` on {depth} variables ({len(cubes)} "
        f"cubes); {len(picked)} of them (every {step}th) solved in parallel, each capped at {cap:g} CPU s: "
        f"{len(done)} refuted within the cap, {len(outs) - len(done)} stopped at it; wall {wall:.0f} s, load {l0}.",
        "",
        "| cube | answer | CPU s | conflicts |",
        "|---:|---|---:|---:|",
    ]
    rows += [
        f"| {o.index} | {'UNSAT' if o.unsat else ('SAT' if o.unsat is False else 'stopped')} "
        f"| {o.cpu_seconds:.1f} | {o.conflicts} |"
        for o in outs
    ]
    print("\n".join(rows), file=sys.stderr, flush=True)
    return rows


def strata(depth: int, split: str, cap: float, hard_cap: float, seed: int, workers: int) -> list[str]:
    """One cube per number of negative literals e = 0..depth of V(3,2) -> NW-SE at T = 52.

    Why by that number: under the look-ahead split each variable's "occupied" side is easy
    and its "empty" side keeps the difficulty (V(2,2) and V(3,2) -> SW-NE, above), so the
    cubes with many negative literals are the hard ones.  Class e holds C(depth, e) cubes;
    the all-negative cube (the one that was as hard as the unsplit call at T = 35) is
    measured itself, with ``hard_cap``; in the other classes one cube drawn with ``seed``,
    with ``cap``.  ``workers`` solve them, hardest class first.
    """
    import random
    from math import comb

    from coinsat.certificates.prove.cubes import (
        CubeTask,
        cubes_of,
        occupancy_candidates,
        read_clauses,
        solve_cubes,
        split_variables,
    )
    from coinsat.encode.sat import encode
    from coinsat.io.dimacs import cnf_text

    inst = read_instance(V32NW)
    rng = random.Random(seed)
    with tempfile.TemporaryDirectory(dir=os.environ.get("TMPDIR")) as d:
        f = encode(inst, T_NW)
        cnf = Path(d) / "f.cnf"
        cnf.write_text(cnf_text(inst, f))
        clauses = read_clauses(cnf)
        t0 = time.perf_counter()
        variables = split_variables(clauses, occupancy_candidates(inst, T_NW, False, f), depth, split)
        split_wall = time.perf_counter() - t0
        cubes = cubes_of(variables)
        by_class: dict[int, list[int]] = {}
        for i, c in enumerate(cubes):
            by_class.setdefault(sum(lit < 0 for lit in c), []).append(i)
        picked = {e: (ids[-1] if e == depth else rng.choice(ids)) for e, ids in by_class.items()}
        tasks = [
            CubeTask(i, str(cnf), cubes[i], str(Path(d) / f"{i}.drat"), cpu_seconds=hard_cap if e == depth else cap)
            for e, i in sorted(picked.items(), reverse=True)
        ]
        t1, l0 = time.perf_counter(), load()
        outs = {o.index: o for o in solve_cubes(tasks, workers=workers)}
        wall = time.perf_counter() - t1
    rows = [
        f"{inst.name} at T = {T_NW} ({f.nvars} variables), split `{split}` on {depth} variables ({len(cubes)} "
        f"cubes; split chosen in {split_wall:.0f} s wall); one cube per class e (number of negative, 'cell "
        f"empty', literals), drawn with seed {seed}, the all-negative cube itself; each capped at {cap:g} CPU s, "
        f"the all-negative one at {hard_cap:g}; {workers} workers, hardest class first; wall {wall:.0f} s, "
        f"load {l0}.",
        "",
        "| e (negative literals) | cubes in the class | cube measured | answer | CPU s | conflicts | proof MB "
        "| class estimate, CPU s |",
        "|---:|---:|---:|---|---:|---:|---:|---|",
    ]
    total, lower, largest = 0.0, False, 0.0
    for e in sorted(picked):
        o = outs[picked[e]]
        answer = "UNSAT" if o.unsat else ("SAT" if o.unsat is False else "stopped at the cap")
        est = comb(depth, e) * o.cpu_seconds
        total, lower, largest = total + est, lower or o.unsat is None, max(largest, o.cpu_seconds)
        rows.append(
            f"| {e} | {comb(depth, e)} | {o.index} | {answer} | {o.cpu_seconds:.1f} | {o.conflicts} "
            f"| {o.proof_bytes / 1e6:.1f} | {'>= ' if o.unsat is None else ''}{est:.0f} |"
        )
    at_least = ">= " if lower else ""
    rows += [
        "",
        f"Estimate of all {len(cubes)} cubes (each class's count times its one measured cube; one sample per "
        f"class, so an estimate, not a bound): {at_least}{total:.0f} CPU s; the largest cube measured: "
        f"{at_least if outs[picked[depth]].unsat is None else ''}{largest:.0f} CPU s.",
        "",
        "| workers | wall on free cores >= max(largest cube, all / workers), s |",
        "|---:|---:|",
    ]
    rows += [f"| {w} | {at_least}{max(largest, total / w):.0f} |" for w in (1, 2, 4, 8, 16, 64)]
    print("\n".join(rows), file=sys.stderr, flush=True)
    return rows


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sections", default="balance,targets")
    ap.add_argument("--depth", type=int, default=3)
    ap.add_argument("--split", default="tree")
    ap.add_argument("--splits", default="none,tree,lookahead,middle", help="balance: the splits compared")
    ap.add_argument("--balance-cap", type=float, default=120.0, help="CPU seconds per cube (balance)")
    ap.add_argument("--cap", type=float, default=60.0, help="CPU seconds per cube (extrapolate)")
    ap.add_argument("--extrapolate-depth", type=int, default=6, help="split variables at T = 52")
    ap.add_argument("--sample", type=int, default=4, help="cubes solved at T = 52 (spread over all)")
    ap.add_argument("--nw-cap", type=float, default=300.0, help="v32nw: CPU seconds per cube")
    ap.add_argument("--nw-workers", type=lambda s: [int(x) for x in s.split(",")], default=[2], help="v32nw: e.g. 2,1")
    ap.add_argument("--hard-cap", type=float, default=300.0, help="strata: CPU s of the all-negative cube")
    ap.add_argument("--seed", type=int, default=16, help="strata: which cube of each class")
    ap.add_argument("--strata-workers", type=int, default=2)
    ap.add_argument("--out", default=str(ROOT / "benchmarks/cubes.md"))
    args = ap.parse_args(argv)
    command = "python3 scripts/cube_bench.py " + " ".join(shlex.quote(a) for a in (argv or sys.argv[1:]))
    parts = [
        "# Cube-and-conquer at the frontier\n",
        f"Command: `{command}`  \nDate: {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}; CaDiCaL 1.9.5 "
        "(PySAT) with DRAT proofs, pruned encoding (default options); 2 cores shared with other jobs "
        "(load averages in the tables).\n",
    ]
    sections = args.sections.split(",")
    split = args.split
    if "balance" in sections:
        parts += [
            f"## V(2,2) -> SW-NE at T = 35: how each split balances ({1 << args.depth} cubes, 2 workers, "
            f"each cube capped at {args.balance_cap:g} CPU s)\n",
            "\n".join(balance(args.depth, args.balance_cap, args.splits.split(","))) + "\n",
        ]
        Path(args.out).write_text("\n".join(parts))
    if "targets" in sections:  # the certified targets: 2 workers (checked), then 1 worker
        for path, title in ((V22, "V(2,2)"), (V32, "V(3,2)")):
            rows = member(path, 35, args.depth, [(split, 2, True), (split, 1, False)])
            parts += [f"## {title} -> SW-NE at T = 35: certified, 2 workers and 1 worker\n", "\n".join(rows) + "\n"]
            Path(args.out).write_text("\n".join(parts))
    if "v22" in sections:  # the balance of both splits, and 1 against 2 workers
        plan = [(split, 2, True), ("middle" if split != "middle" else "lookahead", 2, False), (split, 1, False)]
        rows = member(V22, 35, args.depth, plan)
        parts += ["## V(2,2) -> SW-NE at T = 35: the splits, 1 and 2 workers\n", "\n".join(rows) + "\n"]
        Path(args.out).write_text("\n".join(parts))  # each section as soon as it is measured
    if "v32" in sections:
        plan = [(split, 2, True), (split, 1, False)]
        parts += ["## V(3,2) -> SW-NE at T = 35\n", "\n".join(member(V32, 35, args.depth, plan)) + "\n"]
        Path(args.out).write_text("\n".join(parts))
    if "v32nw" in sections:  # the whole T = 52 call, every cube capped at --nw-cap CPU s
        plan = [(split, w, w == 2) for w in args.nw_workers]
        rows = member(V32NW, T_NW, args.extrapolate_depth, plan, cap=args.nw_cap)
        parts += [f"## V(3,2) -> NW-SE at T = {T_NW}: all cubes\n", "\n".join(rows) + "\n"]
        Path(args.out).write_text("\n".join(parts))
    if "extrapolate" in sections:
        parts += [
            "## V(3,2) -> NW-SE at T = 52\n",
            "\n".join(extrapolate(args.extrapolate_depth, args.split, args.cap, args.sample)) + "\n",
        ]
    if "strata" in sections:
        parts += [
            f"## V(3,2) -> NW-SE at T = {T_NW}: one cube per class\n",
            "\n".join(
                strata(args.extrapolate_depth, args.split, args.cap, args.hard_cap, args.seed, args.strata_workers)
            )
            + "\n",
        ]
    Path(args.out).write_text("\n".join(parts))
    return 0


if __name__ == "__main__":
    sys.exit(main())
