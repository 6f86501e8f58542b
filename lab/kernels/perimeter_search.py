#!/usr/bin/env python3
"""Perimeter search (docs/perimeter-search.md): the backward ball, and the states it saves.

Two tables, one run.

*The ball* (``--ball-members``, ``--ball-radius R``): the engine's backward ball
(``coinsat.search.rank.backward.Ball``) around the goal placements, inside span(start), for
r = 1 .. R: the shell S_r (configurations at exact distance r), the ball B_r, the predecessors
generated from S_{r-1} per configuration (repeats included: the backward branching, Lemma U),
the share of them that are new, the ball's memory (8 bytes of rank and 1 of distance a
configuration) and the CPU seconds of the ball so far.

*The search* (``--members``, ``--radii``): the ranked engine, one process
(``solve(..., "rankbfs", upper_bound=U, forced_supports=..., perimeter=r, workers=1)``), for
U = L (the stored solution's length, replayed by rules.py) and, with ``--proof``, U = L - 1:
today's h (fill), the forced-supports h, and the perimeter h of radius r over each, one after
the other in the same process. 'states' = configurations kept over all layers (the ball not
included; its size is its own column); CPU seconds are this process's, ball included. All
rows of one instance and U must give the same answer (the optimum L at U = L, "no solution with
<= L - 1 moves" at U = L - 1), or the script stops.

    nice -n 10 python3 scripts/perimeter_search.py --ball-radius 10 --members vdiag-3-2-nwse \\
        vdiag-3-3-swne --radii 6 8 10 --proof --out benchmarks/perimeter-search.md
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from coinsat import read_instance, solve
from coinsat.search.rank.backward import Ball
from coinsat.search.rank.space import Space
from lab.commandline import shown
from lab.proofs import known_length

ROOT = Path(__file__).resolve().parents[2]
FAMILIES = ROOT / "instances" / "families"


def stored_length(name: str) -> int:
    """The length of the stored solution of ``name``, replayed by rules.py (study.proofs.known_length)."""
    length = known_length(read_instance(FAMILIES / f"{name}.toml"), FAMILIES / "solutions" / f"{name}.json")
    if length is None:
        raise SystemExit(f"{name}: no stored solution, or it does not end on a goal placement")
    return length


def ball_rows(name: str, radius: int) -> list[tuple]:
    inst = read_instance(FAMILIES / f"{name}.toml")
    space = Space(inst, True, None)
    t0 = time.process_time()
    seconds: dict[int, float] = {}
    ball = Ball(space, radius, progress=lambda i, size: seconds.__setitem__(i, time.process_time() - t0))
    rows = []
    total = 1
    for r in range(1, radius + 1):
        shell = int(ball.shells[r].size)
        total += shell
        before = int(ball.shells[r - 1].size)
        made = ball.made[r]
        rows.append((name, r, shell, total, made / max(before, 1), shell / max(made, 1), total * 9, seconds[r]))
    return rows


def engine_run(instance, upper_bound: int, inner: str, radius: int | None) -> dict:
    t0 = time.process_time()
    r = solve(
        instance, "rankbfs", upper_bound=upper_bound, forced_supports=inner == "forced", perimeter=radius, workers=1
    )
    cpu = time.process_time() - t0
    if r.status.value not in ("optimal", "bounded"):
        raise SystemExit(f"{instance.name}, U = {upper_bound}, h {inner} r {radius}: rankbfs answered {r.status.value}")
    return {
        "answer": r.length if r.status.value == "optimal" else None,
        "states": int(r.stats["states"]),
        "expanded": int(r.stats["expanded"]),
        "ball": int(r.stats.get("ball", 0)),
        "depth": len(r.stats["layers"]) - 1,
        "cpu": cpu,
    }


def certificate_row(name: str, U: int, inner: str, radius: int | None, where: Path) -> list:
    """Search (this process), certificate written and checked (``certify``), then checked again by
    ``coinsat check-certificate --workers 1`` in a fresh process: CPU seconds of each."""
    import resource
    import subprocess

    from coinsat import certify

    inst = read_instance(FAMILIES / f"{name}.toml")
    t0 = time.process_time()
    r = solve(inst, "rankbfs", upper_bound=U, forced_supports=inner == "forced", perimeter=radius, workers=1)
    search = time.process_time() - t0
    t0 = time.process_time()
    done = certify(inst, where, result=r)
    made = time.process_time() - t0
    if not done.check.ok:
        raise SystemExit(f"{name}: the certificate was rejected: {done.check.reason}")
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    cmd = ["coinsat", "check-certificate", "--workers", "1", str(FAMILIES / f"{name}.toml"), str(done.path)]
    out = subprocess.run(cmd, capture_output=True, text=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    check = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if out.returncode != 0:
        raise SystemExit(f"{name}: check-certificate exit {out.returncode}: {out.stdout}{out.stderr}")
    cert = json.loads(done.path.read_text())
    return [
        name,
        U,
        inner,
        radius,
        done.check.claim,
        int(cert["states"]),
        int(r.stats.get("ball", 0)),
        search,
        made,
        check,
    ]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--ball-members", nargs="*", default=["vdiag-3-3-swne", "vdiag-3-3-nwse"])
    ap.add_argument("--ball-radius", type=int, default=10)
    ap.add_argument("--members", nargs="*", default=["vdiag-3-2-nwse", "vdiag-3-3-swne"])
    ap.add_argument("--radii", nargs="+", type=int, default=[6, 8, 10])
    ap.add_argument("--inner", nargs="+", choices=("fill", "forced"), default=["fill", "forced"])
    ap.add_argument("--proof", action="store_true", help="also U = L - 1 (the search that proves L optimal)")
    ap.add_argument("--only-proof", action="store_true", help="U = L - 1 only")
    ap.add_argument("--no-baseline", action="store_true", help="--certificates: the --radii rows only")
    ap.add_argument("--rows", default=None, help="JSON lines: search rows done are read and skipped, new ones appended")
    ap.add_argument("--out", default=None, help="write the Markdown tables here (default: print only)")
    ap.add_argument(
        "--certificates",
        metavar="DIR",
        default=None,
        help="instead: certificates of --members at U = L (layers to L - 1) for each --inner and --radii, "
        "written to DIR and checked in a fresh process; one table of CPU seconds",
    )
    ap.add_argument(
        "--gap",
        type=int,
        metavar="R",
        default=None,
        help="instead: inside the ball of radius R of each --ball-members, h_fill and h_forced against the "
        "exact distance, per distance (a uniform sample of --sample configurations of each shell)",
    )
    ap.add_argument("--sample", type=int, default=20000)
    args = ap.parse_args()
    if args.certificates:
        return certificates(args)
    if args.gap is not None:
        return gaps(args)
    balls = []
    for name in args.ball_members:
        for row in ball_rows(name, args.ball_radius):
            balls.append(row)
            print(_ball_line(row), flush=True)
    done: dict = {}
    if args.rows and Path(args.rows).exists():
        for line in Path(args.rows).read_text().splitlines():
            r = json.loads(line)
            done[(r[0], r[1], r[2], r[3])] = r
    solve(read_instance(FAMILIES / "vdiag-2-2-swne.toml"), "rankbfs", upper_bound=35, workers=1)  # numba compiles here
    rows = []
    for name in args.members:
        inst = read_instance(FAMILIES / f"{name}.toml")
        L = stored_length(name)
        for U in [L - 1] if args.only_proof else [L] + ([L - 1] if args.proof else []):
            answers = set()
            for inner in args.inner:
                for radius in [None] + list(args.radii):
                    key = (name, U, inner, radius)
                    if key in done:
                        row = done[key]
                    else:
                        run = engine_run(inst, U, inner, radius)
                        row = [name, U, inner, radius, inst.board.size, inst.n_coins, L, run]
                        if args.rows:
                            with open(args.rows, "a") as f:
                                f.write(json.dumps(row) + "\n")
                    rows.append(row)
                    answers.add(row[7]["answer"])
                    print(_search_line(row, rows), flush=True)
            if answers != {L if U == L else None}:
                raise SystemExit(f"{name}, U = {U}: answers {answers}, expected {L if U == L else None}")
    if args.out:
        cmd = shown("scripts/perimeter_search.py", sys.argv[1:], ROOT)
        text = [
            "# Perimeter search: the backward ball and the states it saves\n",
            f"Made by `{cmd}` (nice -n 10, one core, the machine shared; the script's docstring says what "
            "is counted; search rows read from --rows were measured by an earlier invocation of the same "
            "command). Proofs: docs/perimeter-search.md.\n",
            "## The backward ball\n",
            "| instance | r | shell S_r | ball B_r | preds / state of S_(r-1) | new / preds | ball bytes | "
            "ball CPU s (so far) |",
            "|---|---|---|---|---|---|---|---|",
            *[_ball_line(b) for b in balls],
            "\n## The search: states kept\n",
            "'ratio' = states / states of the fill row (today's h, same instance and U); 'vs inner' = "
            "states / states of the same inner h without the ball; '(states + ball) / fill' counts the "
            "ball's configurations too (the memory it holds). 'last layer' = the deepest nonempty layer. "
            "CPU s include the ball.\n",
            "| instance | U | answer | h | r | ball | states | ratio | vs inner | (states + ball) / fill | "
            "last layer | CPU s | CPU ratio |",
            "|---|---|---|---|---|---|---|---|---|---|---|---|---|",
        ]
        text += [_search_line(r, rows) for r in rows]
        Path(args.out).write_text("\n".join(text) + "\n")
    return 0


def certificates(args) -> int:
    solve(read_instance(FAMILIES / "vdiag-2-2-swne.toml"), "rankbfs", upper_bound=35, workers=1)  # numba compiles here
    rows = []
    for name in args.members:
        L = stored_length(name)
        for inner in args.inner:
            for radius in ([] if args.no_baseline else [None]) + list(args.radii):
                where = Path(args.certificates) / f"{name}-{inner}-{radius}"
                rows.append(certificate_row(name, L, inner, radius, where))
                print(_certificate_line(rows[-1]), flush=True)
    if args.out:
        cmd = shown("scripts/perimeter_search.py", sys.argv[1:], ROOT)
        text = [
            "# Perimeter search: certificates and the CPU of their check\n",
            f"Made by `{cmd}` (nice -n 10, one core, the machine shared). Each row: the ranked engine with "
            "U = L (one process, this script's process: 'search'), then `certify` (the layers 0 .. L - 1 "
            "written and checked: 'write + check'), then `coinsat check-certificate --workers 1` in a fresh "
            "process ('check'; the checker recomputes the h, the ball included). CPU seconds; 'check / "
            "search' is the criterion of issue 32 (at most 2).\n",
            "| instance | U | h | r | claim checked | configurations in the layers | ball | search CPU s | "
            "write + check CPU s | check CPU s (fresh process) | check / search |",
            "|---|---|---|---|---|---|---|---|---|---|---|",
            *[_certificate_line(r) for r in rows],
        ]
        Path(args.out).write_text("\n".join(text) + "\n")
    return 0


def _certificate_line(row) -> str:
    name, U, inner, radius, claim, states, ball, search, made, check = row
    r = "-" if radius is None else radius
    return (
        f"| {name} | {U} | {inner} | {r} | {claim} | {states:,} | {ball:,} | {search:.1f} | {made:.1f} | "
        f"{check:.1f} | {check / max(search, 1e-9):.2f} |"
    )


def gaps(args) -> int:
    import numpy as np

    rng = np.random.default_rng(1)
    rows = []
    for name in args.ball_members:
        inst = read_instance(FAMILIES / f"{name}.toml")
        fill, forced = Space(inst, True, None, "fill"), Space(inst, True, None, "forced")
        ball = Ball(fill, args.gap)
        for i, shell in enumerate(ball.shells):
            pick = shell if shell.size <= args.sample else np.sort(rng.choice(shell, args.sample, replace=False))
            hf, hs = fill.inner_heuristic(pick), forced.inner_heuristic(pick)
            rows.append(
                (name, i, int(shell.size), int(pick.size), hf.mean(), hs.mean(), (i - hs).mean(), (hs == i).mean())
            )
            print(_gap_line(rows[-1]), flush=True)
    if args.out:
        cmd = shown("scripts/perimeter_search.py", sys.argv[1:], ROOT)
        text = [
            "# How far the h is from the exact distance near the goal\n",
            f"Made by `{cmd}` (nice -n 10, one core, the machine shared). Inside the backward ball (exact "
            "distances, docs/perimeter-search.md Lemma B): for each distance i, a uniform sample of the shell "
            "S_i (seed 1), today's h (fill) and the forced-supports h against i. Every value is <= i (Theorem H).\n",
            "| instance | distance i | shell S_i | sampled | mean h_fill | mean h_forced | mean i - h_forced | "
            "share h_forced = i |",
            "|---|---|---|---|---|---|---|---|",
            *[_gap_line(r) for r in rows],
        ]
        Path(args.out).write_text("\n".join(text) + "\n")
    return 0


def _gap_line(row) -> str:
    name, i, size, sampled, hf, hs, gap, exact = row
    return f"| {name} | {i} | {size:,} | {sampled:,} | {hf:.2f} | {hs:.2f} | {gap:.2f} | {exact:.3f} |"


def _ball_line(row) -> str:
    name, r, shell, total, branching, new, nbytes, cpu = row
    mib = nbytes / 2**20
    return f"| {name} | {r} | {shell:,} | {total:,} | {branching:.1f} | {new:.3f} | {mib:.1f} MiB | {cpu:.1f} |"


def _search_line(row, rows) -> str:
    name, U, inner, radius, cells, coins, L, run = row
    base = next((x[7] for x in rows if x[0] == name and x[1] == U and x[2] == "fill" and x[3] is None), run)
    same = next((x[7] for x in rows if x[0] == name and x[1] == U and x[2] == inner and x[3] is None), run)
    answer = f"optimal {run['answer']}" if run["answer"] is not None else f"none <= {U}"
    held = (run["states"] + run["ball"]) / max(base["states"], 1)
    return (
        f"| {name} | {U} | {answer} | {inner} | {'-' if radius is None else radius} | {run['ball']:,} | "
        f"{run['states']:,} | {run['states'] / max(base['states'], 1):.3f} | "
        f"{run['states'] / max(same['states'], 1):.3f} | {held:.3f} | "
        f"{run['depth']} | {run['cpu']:.1f} | "
        f"{run['cpu'] / max(base['cpu'], 1e-9):.2f} |"
    )


if __name__ == "__main__":
    raise SystemExit(main())
