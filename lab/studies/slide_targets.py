#!/usr/bin/env python3
"""The paper's slide counts, proven by two engines: bfs and slidesat (CEGAR SAT) on the same files.

Each instance of instances/open-problems/*-slides.toml is solved by ``bfs`` (slide kernels) and by
``slidesat`` (jump encoding refined by blocked slides), and, for comparison, by ``bfs`` with jumps.
Both slide answers must be optimal with the same length; the table quotes CPU seconds and the
ratio bfs / slidesat measured in the same run.

Usage (benchmarks/slide_targets.md names the command that made it):

    python3 scripts/slide_targets.py [--out benchmarks/slide_targets.md]
"""

from __future__ import annotations

import argparse
import time
from dataclasses import replace
from pathlib import Path

from coinsat import read_instance, solve

ROOT = Path(__file__).resolve().parents[2]
FILES = ["rhomboid-slides", "upside-down-slides", "pyramid-to-line-slides"]


def timed(instance, method: str):
    c0 = time.process_time()
    r = solve(instance, method)
    return r, time.process_time() - c0


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default=str(ROOT / "benchmarks" / "slide_targets.md"))
    args = ap.parse_args(argv)
    lines = [
        "# Slide targets: two engines",
        "",
        "Made by `python3 scripts/slide_targets.py` (CPU seconds; one core of a shared 2-core machine).",
        "",
        "| instance | jumps (bfs) | slides: bfs | slides: slidesat | agree | bfs CPU s | slidesat CPU s "
        "| bfs / slidesat | slidesat lemmas |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for name in FILES:
        inst = read_instance(ROOT / "instances" / "open-problems" / f"{name}.toml")
        jump, _ = timed(replace(inst, moves="jump"), "bfs")
        a, ta = timed(inst, "bfs")
        b, tb = timed(inst, "slidesat")
        agree = a.status == b.status == "optimal" and len(a.solution) == len(b.solution)
        lines.append(
            f"| {name} | {jump.status} {jump.lower_bound} | {a.status} {a.lower_bound} | {b.status} {b.lower_bound} "
            f"| {'yes' if agree else '**no**'} | {ta:.2f} | {tb:.2f} | {ta / max(tb, 1e-9):.1f} "
            f"| {b.stats.get('lemmas')} |"
        )
        print(lines[-1], flush=True)
    Path(args.out).write_text("\n".join(lines) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
