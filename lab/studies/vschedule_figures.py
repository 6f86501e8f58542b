#!/usr/bin/env python3
"""The pictures of docs/v-to-diagonal.md, drawn by `coinsat show --format svg`.

    python3 scripts/vschedule_figures.py --out docs/v-to-diagonal [--tmp DIR]

* ``gadget-a.svg`` / ``gadget-b.svg``: the schedule's gadget A (the coin off the far top corner,
  side 6 of V(3,3) -> SW-NE) and gadget B (the coin off the corner where the legs meet, side 7
  of the same schedule), every step;
* ``exhibit-v33-nwse.svg``: the absorption exhibit: the optimal 53-move solution of V(3,3) ->
  NW-SE stored in instances/families/solutions/ just before and after the move that absorbs
  the fourth coin of the V (the opposite corner of the active square is empty: no chain ends
  there);
* ``v33-nwse.svg``: start and goal of V(3,3) -> NW-SE.

Each picture is made from a small instance file (start = the configuration before, goal = the
one after) and the moves between, written to --tmp (a temporary directory by default).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

from coinsat import write_instance
from coinsat.constructive.vschedule import Schedule, absorptions
from coinsat.families import v_shape, vdiag
from coinsat.instance import make_instance

ROOT = Path(__file__).resolve().parents[2]


def replay(cells, moves):
    occ = set(cells)
    for s, d in moves:
        occ.remove(tuple(s))
        occ.add(tuple(d))
    return occ


def draw(tmp: Path, out: Path, name: str, start, moves, title: str) -> None:
    goal = replay(start, moves)
    inst = make_instance("square", sorted(start), sorted(goal), name=name, source=title)
    write_instance(inst, tmp / f"{name}.toml")
    (tmp / f"{name}.json").write_text(json.dumps({"moves": [[list(s), list(d)] for s, d in moves]}))
    cmd = [sys.executable, "-m", "coinsat", "show", str(tmp / f"{name}.toml")]
    if moves:
        cmd.append(str(tmp / f"{name}.json"))
    subprocess.run([*cmd, "--format", "svg", "-o", str(out / f"{name}.svg")], check=True)
    print("wrote", out / f"{name}.svg", f"({len(moves)} moves)")


def step_slice(a: int, b: int, target: str, gadget: str, side: int):
    """(configuration before, moves) of one step of the schedule."""
    sched = Schedule(a, b, target).run()
    at = 0
    for name, s, cost in sched.costs:
        if (name, s) == (gadget, side):
            return replay(v_shape(a, b), sched.moves[:at]), sched.moves[at : at + cost]
        at += cost
    raise SystemExit(f"no step {gadget}({side}) in V({a},{b}) -> {target}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", required=True)
    ap.add_argument("--tmp")
    args = ap.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as t:
        tmp = Path(args.tmp or t)
        tmp.mkdir(parents=True, exist_ok=True)
        before, moves = step_slice(3, 3, "swne", "A", 6)
        draw(tmp, out, "gadget-a", before, moves, "gadget A: V(3,3) -> SW-NE, side 6")
        before, moves = step_slice(3, 3, "swne", "B", 7)
        draw(tmp, out, "gadget-b", before, moves, "gadget B: V(3,3) -> SW-NE, side 7")
        sol = json.loads((ROOT / "instances/families/solutions/vdiag-3-3-nwse.json").read_text())["moves"]
        record = absorptions(3, 3, sol)[3]  # the fourth coin of the V
        k = record.step
        start = replay(v_shape(3, 3), sol[: k - 1])
        draw(tmp, out, "exhibit-v33-nwse", start, sol[k - 1 : k], f"V(3,3) -> NW-SE optimal, step {k}")
        write_instance(vdiag(3, 3, "nwse"), tmp / "v33.toml")
        cmd = [sys.executable, "-m", "coinsat", "show", str(tmp / "v33.toml"), "--format", "svg"]
        subprocess.run([*cmd, "-o", str(out / "v33-nwse.svg")], check=True)
        print("wrote", out / "v33-nwse.svg")


if __name__ == "__main__":
    main()
