#!/usr/bin/env python3
"""Cube-and-conquer at the frontier: how the splits balance, 1 against 2 workers, extrapolation.

    nice -n 10 python3 scripts/cube_bench.py [--sections balance,targets,extrapolate] [--depth 3]
        [--split lookahead] [--cap 60] [--out benchmarks/cubes.md]

* ``balance``: V(2,2) -> SW-NE at T = 35 split 2^depth ways by each split of
  ``certificates/build/cubes.py`` (``lookahead``, ``middle``), solved by 2 workers: the CPU
  seconds of every cube, the largest over the mean (1 = perfectly even) and the sum.
* ``targets``: V(2,2) -> SW-NE and V(3,2) -> SW-NE at T = 35 (both optimal at 36), each built
  with 1 and with 2 worker processes in the same run (``--split``, ``--depth``) and the
  2-worker certificate checked by ``check_certificate`` (every cube proof and the cover).
* ``extrapolate``: V(3,2) -> NW-SE at T = 52 (optimal 53, proven by spanbfs' layers), split
  2^(depth + 1) ways, every cube capped at ``--cap`` CPU seconds: how many cubes finish,
  and what that says about the workers the whole call needs.

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

from coinsat.certificates.build.cubes import build_cubes
from coinsat.certificates.check import check_certificate
from coinsat.certificates.check.format import Certificate
from coinsat.errors import LimitReached
from coinsat.io.instance_format import read_instance

ROOT = Path(__file__).resolve().parent.parent
V22 = ROOT / "instances/families/vdiag-2-2-swne.toml"
V32 = ROOT / "instances/families/vdiag-3-2-swne.toml"
V32NW = ROOT / "instances/families/vdiag-3-2-nwse.toml"


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


def balance(depth: int) -> list[str]:
    rows = [
        "| split | variables | cubes | CPU s per cube | max / mean | CPU s total | wall s | load |",
        "|---|---|---:|---|---:|---:|---:|---|",
    ]
    for split in ("lookahead", "middle"):
        r = run(V22, 35, split=split, depth=depth, workers=2, check=False)
        cpu = cpu_list(r)
        rows.append(
            f"| {split} | {r['stats']['variables']} | {len(cpu)} | {', '.join(f'{c:.1f}' for c in cpu)} | "
            f"{max(cpu) / statistics.mean(cpu):.2f} | {sum(cpu):.1f} | {r['wall']:.1f} | {r['load']} |"
        )
        print(rows[-1], file=sys.stderr, flush=True)
    return rows


def targets(depth: int, split: str) -> list[str]:
    rows = [
        "| member | T | workers | cubes | CPU s of the cubes (sum) | wall s (build) | load | proof MB "
        "| check CPU s | accepted |",
        "|---|---:|---:|---:|---:|---:|---|---:|---:|---|",
    ]
    for path in (V22, V32):
        for workers in (1, 2):
            r = run(path, 35, split=split, depth=depth, workers=workers, check=workers == 2)
            cpu = cpu_list(r)
            checked = (
                f"{r['proof_mb']:.0f} | {r['check_cpu']:.1f} | {'yes' if r['check_ok'] else 'NO: ' + r['check_reason']}"
                if "check_ok" in r
                else "— | — | (not checked: same kind as the row below)"
            )
            if r["cert"] is None:
                checked = f"— | — | {r['stopped'] or 'satisfiable?'}"
            rows.append(
                f"| {r['name']} | 35 | {workers} | {len(cpu)} | {sum(cpu):.1f} | {r['wall']:.1f} | {r['load']} "
                f"| {checked} |"
            )
            print(rows[-1], file=sys.stderr, flush=True)
    return rows


def extrapolate(depth: int, split: str, cap: float) -> list[str]:
    r = run(V32NW, 52, split=split, depth=depth, workers=2, check=False, cap=cap)
    outs = r["stats"].get("outcomes", [])
    done = [o for o in outs if o.unsat]
    rows = [
        f"V(3,2) -> NW-SE at T = 52, split `{split}` into {len(outs)} cubes, each capped at {cap:g} CPU s, "
        f"2 workers: {len(done)} cubes refuted within the cap, {len(outs) - len(done)} stopped at it; "
        f"wall {r['wall']:.0f} s, load {r['load']}.",
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


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sections", default="balance,targets,extrapolate")
    ap.add_argument("--depth", type=int, default=3)
    ap.add_argument("--split", default="lookahead")
    ap.add_argument("--cap", type=float, default=60.0, help="CPU seconds per cube (extrapolate)")
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
    if "balance" in sections:
        parts += ["## Which split balances (V(2,2) -> SW-NE, T = 35)\n", "\n".join(balance(args.depth)) + "\n"]
    if "targets" in sections:
        parts += ["## Targets: 1 against 2 workers\n", "\n".join(targets(args.depth, args.split)) + "\n"]
    if "extrapolate" in sections:
        parts += [
            "## V(3,2) -> NW-SE at T = 52\n",
            "\n".join(extrapolate(args.depth + 1, args.split, args.cap)) + "\n",
        ]
    Path(args.out).write_text("\n".join(parts))
    return 0


if __name__ == "__main__":
    sys.exit(main())
