"""The census kernel, a baseline commit against the working tree, in one run.

    python3 scripts/census_bench.py --baseline COMMIT [--k 6] [--repeat 3]

Each side runs ``coinsat.census.census`` on instances/families/diagonal-K.toml in a fresh process
(the baseline from a temporary ``git worktree`` of COMMIT, on PYTHONPATH), one thread, and reports
the CPU seconds of the search (``Census.cpu_seconds``, after the kernels are compiled), the states
expanded and their rate; the sides alternate, and the table keeps each side's fastest run.  The
layer sizes must agree.  Writes benchmarks/census-kernel.md.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

from lab.commandline import shown

ROOT = Path(__file__).resolve().parents[2]
PROBE = """
import json, sys
from coinsat import census, read_instance
c = census(read_instance(sys.argv[1]), workers=1)
print(json.dumps({"cpu": c.cpu_seconds, "states": c.reachable, "layers": c.layer_sizes}))
"""


def run(path: Path, instance: Path) -> dict:
    out = subprocess.run(
        [sys.executable, "-c", PROBE, str(instance)],
        capture_output=True,
        text=True,
        check=True,
        env={"PYTHONPATH": str(path), "PATH": "/usr/bin:/bin", "NUMBA_NUM_THREADS": "1"},
        cwd=path,
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--baseline", required=True)
    ap.add_argument("--k", type=int, default=6)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    instance = ROOT / f"instances/families/diagonal-{args.k}.toml"
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp) / "baseline"
        git = ["git", "-C", str(ROOT), "worktree"]
        subprocess.run([*git, "add", "-q", "--detach", str(base), args.baseline], check=True)
        try:
            runs: dict[str, list[dict]] = {"baseline": [], "contender": []}
            for _ in range(args.repeat):
                runs["baseline"].append(run(base, instance))
                runs["contender"].append(run(ROOT, instance))
        finally:
            subprocess.run([*git, "remove", "--force", str(base)], check=True)
    best = {side: min(r, key=lambda x: x["cpu"]) for side, r in runs.items()}
    if best["baseline"]["layers"] != best["contender"]["layers"]:
        raise SystemExit("the two sides found different layers")
    states = best["contender"]["states"]
    lines = [
        "# The census kernel: baseline against contender",
        "",
        f"Made by `{shown('scripts/census_bench.py', sys.argv[1:], ROOT)}` on the working tree of the commit",
        f"that adds this table; baseline `{args.baseline}`. Census of instances/families/diagonal-{args.k}.toml,",
        "one thread, CPU seconds of the search after compilation, the fastest of "
        f"{args.repeat} alternating runs each (the machine's other core was busy: rates are rough, the ratio less so).",
        "",
        "| side | CPU s | states | M states / CPU s |",
        "|---|---:|---:|---:|",
    ]
    for side in ("baseline", "contender"):
        b = best[side]
        lines.append(f"| {side} | {b['cpu']:.2f} | {b['states']:,} | {b['states'] / b['cpu'] / 1e6:.2f} |")
    ratio = best["baseline"]["cpu"] / best["contender"]["cpu"]
    lines += ["", f"Contender / baseline speed: {ratio:.2f}x (same {states:,} states, same layers)."]
    (ROOT / "benchmarks/census-kernel.md").write_text("\n".join(lines) + "\n")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
