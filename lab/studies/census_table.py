"""The census table: D(k) and the layers of every start of the k x k box, for three goals.

    python3 scripts/census_table.py --k 3,4,5,6,7 --work DIR [--goals diagonal,canonical,v]

For each goal and k it runs ``coinsat.census`` (the 7 x 7 box resumes from DIR/<name>-resume),
writes the certificate to DIR/<name>-cert (too large to commit: 2.2 GB for the 7 x 7 box), the
hardest starts to instances/census/<name>/, and the table to benchmarks/census.md and
benchmarks/census.json.  The goals (instances/census/goals/ for the two that are not family files):

* ``diagonal``: the NW-SE diagonal of the box plus its two central extra coins, the goal of
  ``coinsat family diagonal --k K`` (the flip and the V end there);
* ``canonical``: the paper's canonical configuration of k + 2 coins in the box (its Theorem 2
  routes every square-grid puzzle through it): the canonical L (coins every other cell from the
  top-left corner down the left edge and along the bottom to the bottom-right corner) and the two
  extra coins in the leftmost bottommost empty cells;
* ``v``: the V(a, b) shape with a + b + 2 = k (b = a or a - 1), the start of the paper's lower-bound
  family: the hardest starts that must become a V.

The census's window is the instance's (span(start) plus the goal), so each goal file's start is
the SW-NE diagonal, whose span is the box.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from coinsat import census, read_instance, write_certificate, write_hardest, write_instance
from coinsat.families import diagonal_target, v_shape
from coinsat.instance import make_instance
from lab.commandline import shown

ROOT = Path(__file__).resolve().parents[2]


def canonical(k: int) -> list[tuple[int, int]]:
    """The paper's canonical configuration of k + 2 coins in the k x k box (module docstring)."""
    path = [(0, y) for y in range(k - 1, 0, -1)] + [(x, 0) for x in range(k)]
    coins = path[::2]
    occupied = set(coins)
    extras = sorted(((x, y) for x in range(k) for y in range(k) if (x, y) not in occupied))[:2]
    return sorted(coins + extras)


def goal_file(goal: str, k: int) -> Path:
    """The census's instance file of ``goal`` in the k x k box."""
    if goal == "diagonal":
        return ROOT / f"instances/families/diagonal-{k}.toml"
    return ROOT / "instances/census/goals" / f"{goal}-{k}.toml"


def goal_instance(goal: str, k: int):
    if goal == "diagonal":
        return read_instance(goal_file(goal, k))
    if goal == "canonical":
        cells, what = canonical(k), "the paper's canonical configuration (canonical L + 2)"
    elif goal == "v":
        a = (k - 1) // 2
        b = k - 2 - a
        cells, what = v_shape(a, b), f"the V({a},{b}) shape"
    else:
        raise SystemExit(f"unknown goal {goal!r}")
    inst = make_instance(
        "square",
        diagonal_target(k, "swne"),
        cells,
        name=f"{goal}-{k}",
        source=f"census goal: {what} in the {k} x {k} box (the start, the SW-NE diagonal, only fixes the window)",
        metadata={"census_goal": goal, "k": k},
    )
    path = goal_file(goal, k)
    path.parent.mkdir(parents=True, exist_ok=True)
    write_instance(inst, path)
    return read_instance(path)


def span_counts(inst, pairs: bool) -> dict:
    """The census's check by other code (``coinsat.census.span_counts``)."""
    from coinsat.census import span_counts as count

    t0 = time.process_time()
    spanning, two = count(inst, pairs=pairs)
    return {
        "spanning": spanning,
        "two_extra": two,
        "span_check_cpu_seconds": round(time.process_time() - t0, 1),
    }


def check(goal: str, k: int, certificate: Path) -> dict:
    """A fresh ``coinsat check-certificate`` of one census certificate: its verdict and CPU seconds."""
    import resource
    import subprocess

    path = goal_file(goal, k)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    run = subprocess.run(
        [sys.executable, "-m", "coinsat", "check-certificate", str(path), str(certificate), "--json", "--workers", "1"],
        capture_output=True,
        text=True,
    )
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    out = json.loads(run.stdout) if run.stdout.strip() else {}
    return {"accepted": run.returncode == 0 and out.get("accepted") is True, "cpu_seconds": round(cpu, 1)}


def flip(k: int) -> int | None:
    p = ROOT / f"instances/families/solutions/diagonal-{k}.json"
    if not p.exists():
        return None
    o = json.loads(p.read_text())
    return o["length"] if o.get("status") == "optimal" else None


def main() -> None:
    if sys.argv[1:] == ["--table-only"]:  # the table again from benchmarks/census.json, nothing run
        stored = json.loads((ROOT / "benchmarks/census.json").read_text())
        head = (ROOT / "benchmarks/census.md").read_text().split("`")[1]
        write_table(stored, head)
        return
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--k", default="3,4,5,6,7")
    ap.add_argument("--goals", default="diagonal,canonical,v")
    ap.add_argument("--work", required=True, help="folder for the certificates and resume layers")
    ap.add_argument("--workers", type=int, default=None)
    ap.add_argument(
        "--check",
        action="store_true",
        help="instead of running the census, check the rows' certificates in DIR with a fresh "
        "`coinsat check-certificate` (one process each) and record the verdict and its CPU seconds",
    )
    ap.add_argument(
        "--span-check",
        type=int,
        default=6,
        metavar="K",
        help="for k <= K count the spanning configurations by other code (and, for k <= 6, those with two "
        "removable coins): two_extra <= solvable <= spanning",
    )
    args = ap.parse_args()
    work = Path(args.work)
    out_json = ROOT / "benchmarks/census.json"
    rows = json.loads(out_json.read_text()) if out_json.exists() else {}
    for goal in args.goals.split(","):
        for k in map(int, args.k.split(",")):
            name = f"{goal}-{k}"
            if args.check:
                rows[name]["check"] = check(goal, k, work / f"{name}-cert" / "census.json")
                print(name, rows[name]["check"], flush=True)
                out_json.write_text(json.dumps(rows, indent=1) + "\n")
                continue
            inst = goal_instance(goal, k)
            t0 = time.perf_counter()
            c = census(inst, workers=args.workers, resume=work / f"{name}-resume" if k >= 7 else None)
            folder = ROOT / "instances/census" / name
            for old in list(folder.glob("*.toml")) + list(folder.glob("solutions/*.json")):
                old.unlink()
            write_hardest(c, folder)
            write_certificate(c, work / f"{name}-cert")
            row = c.as_json()
            row.pop("hardest")
            row.update(
                {
                    "goal": goal,
                    "k": k,
                    "hardest_classes": len(c.hardest),
                    "hardest_members": c.layer_sizes[-1],
                    "flip": flip(k) if goal == "diagonal" else None,
                    "wall_seconds_with_files": round(time.perf_counter() - t0, 1),
                }
            )
            if k <= args.span_check:
                row.update(span_counts(inst, pairs=k <= 6))
            rows[name] = row
            print(name, c.max_distance, c.reachable, c.unsolvable, len(c.hardest), flush=True)
            out_json.write_text(json.dumps(rows, indent=1) + "\n")
    write_table(rows, shown("scripts/census_table.py", sys.argv[1:], ROOT))


def _checked(r: dict) -> str:
    c = r.get("check")
    if c is None:
        return "not yet"
    return f"{'accepted' if c['accepted'] else 'REJECTED'} ({c['cpu_seconds']})"


def write_table(rows: dict, command: str) -> None:
    lines = [
        "# The census: every start of the k x k box",
        "",
        f"Made by `{command}` and earlier runs of it (numba kernel, one byte per configuration; times are",
        "CPU seconds of the search on a 2-core machine shared with other jobs, so the rates are rough).",
        "Exact distances from one backward search per row; the window (the box) is closed, so each",
        "answer holds on the unbounded grid (docs/census.md, Lemma W). The certificates were checked by",
        "a fresh `coinsat check-certificate`, one thread (last column). `D` is the largest distance; `classes` the",
        "hardest starts up to the goal's symmetries (instances/census/<goal>-<k>/, each with an optimal",
        "solution replayed by rules.py). Rows are from the kernel of the commit that ran them: the rows",
        "with a 'reading layers' figure are from the current one (scripts/census_bench.py compares kernels).",
        "",
        "| goal | k | coins | configurations | solvable | cannot reach | D | hardest (classes / members) "
        "| flip(k) | CPU s | of which reading layers | M states / CPU s | certificate checked (CPU s) |",
        "|---|---:|---:|---:|---:|---:|---:|---|---:|---:|---:|---:|---|",
    ]
    for name in sorted(rows, key=lambda n: (rows[n]["goal"], rows[n]["k"])):
        r = rows[name]
        lines.append(
            f"| {r['goal']} | {r['k']} | {r['coins']} | {r['configurations']:,} | {r['reachable']:,} | "
            f"{r['unsolvable']:,} | **{r['max_distance']}** | {r['hardest_classes']} / {r['hardest_members']} | "
            f"{r['flip'] if r['flip'] is not None else '—'} | {r['cpu_seconds']} | {r.get('scan_cpu_seconds', '—')} | "
            f"{r['states_per_cpu_second'] / 1e6:.2f} | {_checked(r)} |"
        )
    lines += [
        "",
        "## A check by other code",
        "",
        "Span never grows along a move, so a configuration that reaches a goal spanning the box spans the box;",
        "the paper's Theorem 2 (square grid) moves A to B when two coins of A can be removed without",
        "shrinking its span and B's two extra coins each touch two others, which holds for the diagonal and",
        "the canonical goals. So *two extra* <= *solvable* <= *spanning*, counted by",
        "`coinsat.census.span_counts` (its own span closure, no moves):",
        "",
        "| row | two extra | solvable (census) | spanning | CPU s of the count |",
        "|---|---:|---:|---:|---:|",
    ]
    for name in sorted(rows, key=lambda n: (rows[n]["goal"], rows[n]["k"])):
        r = rows[name]
        if r.get("spanning") is None:
            continue
        two = "—" if r.get("two_extra") is None else f"{r['two_extra']:,}"
        lines.append(f"| {name} | {two} | {r['reachable']:,} | {r['spanning']:,} | {r['span_check_cpu_seconds']} |")
    lines += ["", "## Layer sizes", ""]
    for name in sorted(rows, key=lambda n: (rows[n]["goal"], rows[n]["k"])):
        r = rows[name]
        lines.append(f"- {name} (distance 0..{r['max_distance']}): {' '.join(map(str, r['layer_sizes']))}")
    (ROOT / "benchmarks/census.md").write_text("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
