#!/usr/bin/env python3
"""How much a stronger h would prune: forced supports, sampled from a bounded search's layers.

rankbfs's h (``search/rank/search.py``, Bound-and-prune) schedules the fills of the empty goal
cells: the cell first in span layer R_j cannot be filled before move j, one fill per move.
A candidate strengthening, not implemented: more cells must be filled than the goal cells.

*Forced supports.*  Let the window be exact (no coin ever leaves span(start); from C, none leaves
span(C), Lemma "span monotone").  An empty goal cell c is filled by a drop, and at that moment at
least d of its neighbours hold coins other than the moving one.  If c has exactly d neighbours in
span(C), all of them are occupied then; each one that is empty now and is not a goal cell must
receive a drop before.  Such a cell is filled the same way, so the rule repeats on it.  Let S be
the cells found so (empty, non-goal, forced).  Drops onto distinct cells are distinct moves, and a
cell of S first in R_j cannot be filled before move j either, so the schedule over the empty goal
cells *and* S is still a lower bound on the moves left: h+ = max_i (f_i + |cells| - i) over both
(and 2**30 when a forced cell has fewer than d neighbours in span(C)).  h+ >= h.

This script measures what h+ would remove from a search that already used h: it reads the ranked
layers certificate of a bounded search (U), samples configurations of some layers, recomputes h
(checked against ``Space.heuristic``, the engine's own, on every sample) and h+, and counts the
sampled configurations at depth t with t + h+ > U, which a search with h+ would drop (with their
descendants that nothing else reaches).  A table in ``--out``.

    python3 scripts/forced_support_study.py instances/families/vdiag-4-3-nwse.toml \\
        CERT.json --depths 30:87:4 --sample 2000 --out benchmarks/forced-supports.md
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import numpy as np

from coinsat import read_instance
from coinsat.search.rank.space import Space
from coinsat.theory.span import span_mask

BIG = 1 << 30


class Study:
    def __init__(self, instance):
        self.board, self.d, self.n = instance.board, instance.d, instance.board.size
        self.nbr = instance.board.neighbour_masks
        if len(instance.goal_configurations) != 1:
            raise SystemExit("one goal placement only (the families' exact windows)")
        self.goal = sum(1 << c for c in instance.goal_configurations[0].cells)

    def entry_layers(self, C: int, cells: int) -> list[int] | None:
        """The span layer in which each cell of ``cells`` - C first appears; None if one never does."""
        f, cur, j, todo = [], C, 0, cells & ~C
        while todo:
            j += 1
            grown = cur
            for c in range(self.n):
                if not cur >> c & 1 and (self.nbr[c] & cur).bit_count() >= self.d:
                    grown |= 1 << c
            if grown == cur:
                return None
            new = grown & ~cur & todo
            f += [j] * new.bit_count()
            todo &= ~new
            cur = grown
        return f

    def schedule(self, C: int, cells: int) -> int:
        f = self.entry_layers(C, cells)
        if f is None:
            return BIG
        f.sort()
        return max((f[i] + len(f) - 1 - i for i in range(len(f))), default=0)

    def forced(self, C: int) -> int | None:
        """S of the module docstring (a bitmask), None when a forced cell can never be filled."""
        spn = span_mask(self.board, C, self.d)
        todo = [c for c in range(self.n) if self.goal >> c & 1 and not C >> c & 1]
        seen, S = set(todo), 0
        while todo:
            around = self.nbr[todo.pop()] & spn
            if around.bit_count() < self.d:
                return None
            if around.bit_count() == self.d:
                for q in range(self.n):
                    if around >> q & 1 and not (C | self.goal) >> q & 1 and q not in seen:
                        S |= 1 << q
                        seen.add(q)
                        todo.append(q)
        return S


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("instance")
    ap.add_argument("certificate", help="a ranked layers certificate of a bounded rankbfs search (its JSON)")
    ap.add_argument("--depths", default="30:87:4", help="start:stop:step of the layers sampled")
    ap.add_argument("--sample", type=int, default=2000, help="configurations sampled per layer")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", default="benchmarks/forced-supports.md")
    args = ap.parse_args()
    inst = read_instance(args.instance)
    cert = json.loads(Path(args.certificate).read_text())
    U = cert["upper_bound"]
    study, space = Study(inst), Space(inst, prune=True)
    rng = np.random.default_rng(args.seed)
    a, b, c = (int(x) for x in args.depths.split(":"))
    rows = []
    t0 = time.process_time()
    with np.load(Path(args.certificate).parent / cert["layers"]) as z:
        for t in range(a, min(b, cert["horizon"] + 1), c):
            layer = np.cumsum(z[f"L{t}"], dtype=np.uint64)
            if layer.size == 0:
                break
            picked = layer if layer.size <= args.sample else rng.choice(layer, args.sample, replace=False)
            engine_h = space.heuristic(picked)
            cut, gains = 0, []
            for r, h_engine in zip(picked, engine_h):
                C = sum(1 << q for q in space.cells_of_rank(int(r)))
                h = study.schedule(C, study.goal)
                if h != int(h_engine):
                    raise SystemExit(f"the schedule here ({h}) is not the engine's h ({h_engine}) at rank {r}")
                S = study.forced(C)
                h_plus = BIG if S is None else study.schedule(C, study.goal | S)
                gains.append(min(h_plus, 999) - h)
                cut += t + h_plus > U
            rows.append((t, layer.size, picked.size, cut, float(np.mean(gains)), max(gains)))
            print(rows[-1], flush=True)
    lines = [
        "# Forced supports: what a stronger h would prune (sampled, not implemented)\n",
        f"Made by `python3 scripts/forced_support_study.py {args.instance} CERT --depths {args.depths} "
        f"--sample {args.sample} --seed {args.seed}` on the layers of `{cert['claim']}` (U = {U}, "
        f"{cert.get('states', '?')} configurations; {time.process_time() - t0:.0f} CPU s). h+ is the schedule "
        "over the empty goal cells and the forced supports (the script's docstring has the argument); every "
        "sampled h equals the engine's. 'Dropped' = sampled configurations at depth t with t + h+ > U, which a "
        "search with h+ would not keep.\n",
        "| depth t | layer size | sampled | dropped by h+ | share | mean h+ - h | max h+ - h |",
        "|---|---|---|---|---|---|---|",
    ]
    for t, size, n, cut, mean, top in rows:
        lines.append(f"| {t} | {size:,} | {n} | {cut} | {cut / max(n, 1):.1%} | {mean:.2f} | {top} |")
    Path(args.out).write_text("\n".join(lines) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
