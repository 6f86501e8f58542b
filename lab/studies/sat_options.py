#!/usr/bin/env python3
"""Measure the SAT encoding options, solver settings and horizon strategies.

Writes ``benchmarks/sat_options.md``.  Baseline (the issue's naive encoding) and
contenders run in the same process, interleaved, so that the machine's load
hits them alike; every table gives CPU seconds of the solver process (less
sensitive to other users of the machine than wall time), conflicts, and the
ratio to the baseline.  Seeds vary CaDiCaL's random seed; medians are shown.

    python3 scripts/sat_options.py                       # diagonal, vee-2-2
    python3 scripts/sat_options.py --instances diagonal --seeds 5
    python3 scripts/sat_options.py --sections fixed      # only the fixed-horizon table
    python3 scripts/sat_options.py --limits 3,2:1800 3,3:1800   # benchmarks/sat_limits.md
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

from coinsat import Status, read_instance, solve
from coinsat.backends.sat_backend import CADICAL_DEFAULTS, SatBackend
from coinsat.encode.options import EncodingOptions
from coinsat.encode.sat import Encoder
from coinsat.io.atomic import write_atomic
from coinsat.search.options import SAT_STRATEGIES

ROOT = Path(__file__).resolve().parents[2]

DEFAULT = EncodingOptions()
NAIVE = EncodingOptions.naive()


def variants() -> dict[str, EncodingOptions]:
    out = {"naive (baseline)": NAIVE, "default": DEFAULT}
    for name in EncodingOptions.names():
        if name == "noop":
            continue
        flip = not getattr(DEFAULT, name)
        out[f"default, {name}={'on' if flip else 'off'}"] = DEFAULT.with_(**{name: flip})
    return out


def cpu() -> float:
    return time.process_time()


def fixed_call(
    instance, T: int, options: EncodingOptions, seed: int, config: dict | None, limit: float, solver="cadical195"
):
    """One fresh solver on the closed horizon-T formula: (answer, cpu s, conflicts, vars, clauses)."""
    enc = Encoder(instance, options)
    clauses = enc.extend(T)
    assumptions, extra = enc.goal(T)
    cfg = dict(CADICAL_DEFAULTS if config is None else config)
    if solver.startswith("cadical"):
        cfg["seed"] = seed
    be = SatBackend(solver, config=cfg if solver.startswith("cadical") else None)
    be.add(clauses + extra)
    c0 = cpu()
    ans = be.solve(assumptions or [], time_limit=limit)
    secs = cpu() - c0
    be.close()
    return ans.outcome.value, secs, ans.stats.get("conflicts", 0), enc.vm.nvars, len(clauses) + len(extra)


def med(xs):
    return statistics.median(xs) if xs else float("nan")


def section_fixed(instances, seeds, limit) -> list[str]:
    lines = [
        "## Fixed-horizon calls (one fresh solver, closed formula)",
        "",
        "Median over seeds of CaDiCaL 1.9.5 CPU seconds and conflicts at T* - 1 (UNSAT) and T* "
        "(SAT), T* the known optimum; ratio = baseline / variant (higher is better).",
        "",
    ]
    for inst in instances:
        T = inst.known_optimal
        lines += [
            f"### {inst.name} (T* = {T})",
            "",
            "| variant | vars | clauses | UNSAT@T*-1 s | conflicts | ratio | SAT@T* s | conflicts | ratio |",
            "|---|---:|---:|---:|---:|---:|---:|---:|---:|",
        ]
        rows = {}
        vs = variants()
        for seed in range(seeds):  # interleave variants within a seed: same load for all
            for name, opts in vs.items():
                for h in (T - 1, T):
                    ans, secs, confl, nv, nc = fixed_call(inst, h, opts, seed, None, limit)
                    r = rows.setdefault(name, {"vars": nv, "clauses": nc, T - 1: [], T: []})
                    r[h].append((secs if ans != "UNKNOWN" else float("inf"), confl))
        base = rows["naive (baseline)"]
        for name, r in rows.items():
            cells = [name, str(r["vars"]), str(r["clauses"])]
            for h in (T - 1, T):
                s, c = med([x[0] for x in r[h]]), med([x[1] for x in r[h]])
                bs = med([x[0] for x in base[h]])
                cells += [f"{s:.2f}", f"{c:.0f}", f"{bs / s:.1f}x" if s > 0 else "-"]
            lines.append("| " + " | ".join(cells) + " |")
        lines.append("")
    return lines


def section_solvers(instances, seeds, limit) -> list[str]:
    lines = [
        "## Solvers and CaDiCaL settings (default encoding, UNSAT at T* - 1)",
        "",
        "| instance | solver / setting | CPU s | conflicts |",
        "|---|---|---:|---:|",
    ]
    settings = [
        ("cadical195", None, f"cadical195 {CADICAL_DEFAULTS} (default)"),
        ("cadical195", {}, "cadical195 (CaDiCaL defaults)"),
        ("cadical153", None, "cadical153"),
        ("glucose4", None, "glucose4"),
        ("minisat22", None, "minisat22"),
    ]
    for inst in instances:
        T = inst.known_optimal - 1
        for solver, config, label in settings:
            runs = [
                fixed_call(inst, T, DEFAULT, seed, config, limit, solver)
                for seed in range(seeds if solver.startswith("cadical") else 1)
            ]
            lines.append(
                f"| {inst.name} | {label} | {med([r[1] for r in runs]):.2f} | {med([r[2] for r in runs]):.0f} |"
            )
    return lines + [""]


def section_strategies(instances, limit) -> list[str]:
    lines = [
        "## Horizon strategies (whole runs of the SAT engine, incremental)",
        "",
        "Wall and CPU seconds of the whole run (encoding included), total conflicts, the "
        "horizons asked; the baseline is the naive encoding with the linear climb.",
        "",
        "| instance | encoding | strategy | status | length | wall s | CPU s | conflicts | ratio (CPU) | horizons |",
        "|---|---|---|---|---:|---:|---:|---:|---:|---|",
    ]
    for inst in instances:
        runs = [("naive", NAIVE, "linear")] + [("default", DEFAULT, s) for s in SAT_STRATEGIES]
        base = None
        for label, opts, strat in runs:
            c0, w0 = cpu(), time.perf_counter()
            r = sat(inst, limit, encoding=opts, strategy=strat)
            c, w = cpu() - c0, time.perf_counter() - w0
            base = c if base is None else base
            hs = " ".join(f"{h['horizon']}{h['outcome'][0]}" for h in r.stats["horizons"])
            lines.append(
                f"| {inst.name} | {label} | {strat} | {r.status.value} | {r.length} | "
                f"{w:.2f} | {c:.2f} | {r.stats['conflicts']} | {base / c:.1f}x | {hs} |"
            )
    return lines + [""]


def sat(inst, limit, **options):
    """The SAT engine alone on ``inst`` (``coinsat.solve``, no screens), its options as keywords."""
    return solve(inst, "sat", screens=False, time_limit=limit, **options)


def section_crossover(limit) -> list[str]:
    """BFS against SAT where ``auto`` switches (on exact windows: BFS up to a number of configurations)."""
    from coinsat.families import vdiag
    from coinsat.theory.reach import configuration_count

    cases = [
        ("vdiag-1-1-nwse", vdiag(1, 1, "nwse")),
        ("vdiag-1-1-swne", vdiag(1, 1, "swne")),
        ("diagonal", read_instance(ROOT / "instances" / "paper" / "diagonal.toml")),
        ("vdiag-2-1-swne", vdiag(2, 1, "swne")),
        ("vdiag-2-1-nwse", vdiag(2, 1, "nwse")),
        ("vee-2-2", read_instance(ROOT / "instances" / "paper" / "vee-2-2.toml")),
    ]
    lines = [
        "## BFS or SAT (solve_auto)",
        "",
        "CPU seconds of whole runs (`coinsat.solve`, the engine alone); on an exact window `auto` takes BFS "
        "when it holds few configurations, SAT beyond.",
        "",
        "| instance | configurations | optimum | BFS CPU s | BFS states | SAT CPU s | BFS/SAT |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    for name, inst in cases:
        c0 = cpu()
        rb = solve(inst, "bfs", screens=False, time_limit=limit)
        cb = cpu() - c0
        c0 = cpu()
        rs = sat(inst, limit)
        cs = cpu() - c0
        lines.append(
            f"| {name} | {configuration_count(inst)} | {rs.length} | {cb:.2f}"
            f"{'' if rb.status is Status.OPTIMAL else ' (' + rb.status.value + ')'} | "
            f"{rb.stats.get('states')} | {cs:.2f} | {cb / max(cs, 1e-3):.1f}x |"
        )
    return lines + [""]


def section_limits(specs: list[str], out: str) -> None:
    """Long runs of the SAT engine on V(a, b) -> NW-SE diagonal (families.vdiag): one row per
    horizon, written as the run goes (so an interrupted run still leaves its table)."""
    from coinsat.families import vdiag
    from coinsat.theory.reach import lower_bound

    lines = [
        "# SAT engine: where the limits are (V-to-diagonal family)",
        "",
        f"Command: `python3 scripts/sat_options.py --limits {' '.join(specs)}`  ",
        f"Date: {time.strftime('%Y-%m-%d %H:%M')}; default options, CaDiCaL 1.9.5, linear strategy; "
        "2 shared cores (wall seconds are inflated by the other sessions).",
        "",
    ]

    def flush():
        write_atomic(out, "\n".join(lines) + "\n")

    for spec in specs:
        ab, limit = spec.split(":")
        a, b = (int(v) for v in ab.split(","))
        inst = vdiag(a, b)
        lines += [
            f"## V({a},{b}): {inst.n_coins} coins, {inst.board.size} cells, "
            f"lower bound {lower_bound(inst)}, time limit {limit} s",
            "",
            "| T | answer | wall s | conflicts | vars | clauses |",
            "|---:|---|---:|---:|---:|---:|",
        ]
        flush()

        def row(rep):
            lines.append(
                f"| {rep.horizon} | {rep.outcome} | {rep.seconds:.2f} | {rep.conflicts} | {rep.vars} | {rep.clauses} |"
            )
            flush()

        c0 = cpu()
        r = sat(inst, float(limit), progress=row)
        lines += [
            "",
            f"Result: **{r.status.value}**, length {r.length}, lower bound {r.lower_bound}, "
            f"{r.seconds:.1f} s wall, {cpu() - c0:.1f} s CPU, {r.stats['conflicts']} conflicts.",
            "",
        ]
        flush()


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--instances", default="diagonal,vee-2-2")
    p.add_argument("--seeds", type=int, default=3)
    p.add_argument("--time-limit", type=float, default=300.0)
    p.add_argument("--sections", default="fixed,solvers,strategies,crossover")
    p.add_argument("--out", default=str(ROOT / "benchmarks" / "sat_options.md"))
    p.add_argument(
        "--limits",
        nargs="*",
        metavar="A,B:SECONDS",
        help="instead: long runs on V(A,B), written to benchmarks/sat_limits.md",
    )
    a = p.parse_args(argv)
    if a.limits:
        section_limits(a.limits, str(ROOT / "benchmarks" / "sat_limits.md"))
        return 0
    instances = [read_instance(ROOT / "instances" / "paper" / f"{n}.toml") for n in a.instances.split(",")]
    sections = a.sections.split(",")
    lines = [
        "# SAT engine: encoding options, solvers, horizon strategies",
        "",
        f"Command: `python3 scripts/sat_options.py {' '.join(argv or sys.argv[1:])}`".rstrip() + "  ",
        f"Date: {time.strftime('%Y-%m-%d %H:%M')}; machine: 2 cores shared with other "
        "sessions (timings are noisy; CPU seconds and conflicts are the steadier columns).",
        "",
    ]
    if "fixed" in sections:
        lines += section_fixed(instances, a.seeds, a.time_limit)
    if "solvers" in sections:
        lines += section_solvers(instances, a.seeds, a.time_limit)
    if "strategies" in sections:
        lines += section_strategies(instances, a.time_limit)
    if "crossover" in sections:
        lines += section_crossover(a.time_limit)
    write_atomic(a.out, "\n".join(lines) + "\n")
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
