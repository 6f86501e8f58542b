"""How well does a rule turn the hardest starts of the (k-1) x (k-1) box into those of the k x k box?

    python3 scripts/hardest_rules.py --resume7 DIR [-o benchmarks/hardest-rules.md]

For the diagonal goal (``coinsat family diagonal --k K``) it runs the census of the k x k box for
k = 5, 6 (seconds) and reloads the 7 x 7 one from DIR (the folder ``census(..., resume=DIR)`` wrote;
minutes and about 5 GB), then measures two rules on every step k - 1 -> k with k = 6, 7, by the
exact distance the census gives the start each rule makes:

* **insert**: take a hardest start of the (k-1)-box (every class, every image under the goal's
  symmetries), insert an empty row at height r and an empty column at x = c (0 <= r, c <= k - 1:
  the cells at y >= r move up, those at x >= c move right) and add one coin on any empty cell;
  the best over the added coin for each (class, image, r, c), and over everything;
* **family**: the member ``hardest(k)`` of ``coinsat family hardest`` (docs/worst-case.md).

It writes the table (with the command and the CPU seconds) to the output file.
"""

from __future__ import annotations

import argparse
import time
from collections import Counter
from itertools import combinations
from pathlib import Path

import numpy as np

from coinsat import census
from coinsat.families import diagonal_flip, hardest, insert_row_column
from coinsat.instance import make_instance
from coinsat.theory.span import lattice_span
from coinsat.theory.square import hypothesis
from lab.commandline import shown

ROOT = Path(__file__).resolve().parents[2]


def lookup(c, board, configs) -> np.ndarray:
    """Distances (255: cannot reach) of configurations given as lists of (x, y)."""
    return c.distance_of([[board.cell(xy) for xy in cs] for cs in configs]).astype(np.int64)


def images(c, cells: tuple[int, ...]) -> list[list[tuple[int, int]]]:
    """The images of a start (positions) under the census's symmetries, as coordinates."""
    out: list[list[tuple[int, int]]] = []
    for perm in c.symmetries:
        im = sorted(c.window[perm[q]] for q in cells)
        if im not in out:
            out.append(im)
    return out


def step(small, big) -> dict:
    """The insert rule from ``small``'s hardest starts into ``big``'s box, and the family member."""
    k = int(big.instance.board.size**0.5)
    board = big.instance.board
    best: dict[tuple, tuple[int, tuple[int, int]]] = {}
    for ci, h in enumerate(small.hardest):
        for ii, im in enumerate(images(small, h)):
            for r in range(k):
                for col in range(k):
                    grown = insert_row_column(im, r, col)
                    free = [(x, y) for x in range(k) for y in range(k) if (x, y) not in set(grown)]
                    d = lookup(big, board, [grown + [p] for p in free])
                    d[d == 255] = -1
                    i = int(np.argmax(d))
                    best[(ci + 1, ii, r, col)] = (int(d[i]), free[i])
    top = max(v[0] for v in best.values())
    member = hardest(k)
    fam = int(lookup(big, board, [[member.board.coords[q] for q in member.start.cells]])[0])
    return {"k": k, "D": big.max_distance, "best": best, "top": top, "family": fam}


def structure(c) -> dict:
    """Facts about every hardest class of one census (docs/worst-case.md): span, Lemma C, Theorem 2, the
    coins whose removal keeps the span (singly), and for the family member where its free coin may go."""
    k = int(c.instance.board.size**0.5)
    goal = [c.window[q] for q in c.goal]
    full = k * k
    box_span = critical = hyp = 0
    single: Counter = Counter()
    for h in c.hardest:
        cells = [c.window[q] for q in h]
        box_span += len(lattice_span("square", cells, 2)) == full
        critical += all(
            len(lattice_span("square", [x for x in cells if x not in e], 2)) < full for e in combinations(cells, 2)
        )
        hyp += hypothesis(make_instance("square", cells, goal)) is not None
        single[sum(len(lattice_span("square", [x for x in cells if x != e], 2)) == full for e in cells)] += 1
    member = [hardest(k).board.coords[q] for q in hardest(k).start.cells]
    board = c.instance.board
    free = {}
    for e in member:
        rest = [x for x in member if x != e]
        if len(lattice_span("square", rest, 2)) == full:
            spots = [(x, y) for x in range(k) for y in range(k) if (x, y) not in set(rest)]
            d = lookup(c, board, [rest + [p] for p in spots])
            free[e] = (int((d == c.max_distance).sum()), len(spots))
    return {
        "k": k,
        "classes": len(c.hardest),
        "box": box_span,
        "critical": critical,
        "hyp": hyp,
        "single": dict(sorted(single.items())),
        "free": free,
    }


def cores(c) -> list[tuple[list[tuple[int, int]], list[tuple[int, int]]]]:
    """The classes grouped by core: each class in the image holding (0, 0) (and (1, 0) if one does), its
    domino (0, 0), (0, 1) read as (0, 0), (1, 0); the core of a class is the n - 1 coins left when the
    coin is removed whose remainder is shared by the most classes; returns (core, free coins) pairs,
    largest group first."""

    def oriented(h):
        ims = images(c, h)
        return min(ims, key=lambda im: ((0, 0) not in im, (1, 0) not in im, im))

    def norm(cells):
        s = set(cells)
        if {(0, 0), (0, 1)} <= s and (1, 0) not in s:
            s = (s - {(0, 1)}) | {(1, 0)}
        return tuple(sorted(s))

    shown = [oriented(h) for h in c.hardest]
    count: Counter = Counter(norm([x for x in h if x != e]) for h in shown for e in h)
    groups: dict[tuple, list] = {}
    for h in shown:
        best = max((norm([x for x in h if x != e]) for e in h), key=lambda key: count[key])
        extra = sorted(set(norm(h)) - set(best))
        groups.setdefault(best, []).append(extra[0] if len(extra) == 1 else None)
    return sorted(((list(k), v) for k, v in groups.items()), key=lambda kv: -len(kv[1]))


def picture(cells, k: int) -> str:
    s = set(cells)
    return "\n".join("".join("o" if (x, y) in s else "." for x in range(k)) for y in range(k - 1, -1, -1))


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--resume7", required=True, help="the finished 7 x 7 census (census(..., resume=DIR))")
    ap.add_argument("-o", "--output", default=str(ROOT / "benchmarks/hardest-rules.md"))
    args = ap.parse_args(argv)
    c0 = time.process_time()
    cs = {k: census(diagonal_flip(k), workers=1) for k in (5, 6)}
    cs[7] = census(diagonal_flip(7), workers=1, resume=args.resume7)
    steps = [step(cs[5], cs[6]), step(cs[6], cs[7])]
    facts = [structure(cs[k]) for k in (5, 6, 7)]
    cpu = time.process_time() - c0
    lines = [
        "# Rules from the hardest starts of one box to the next (measured)",
        "",
        f"Made by `{shown('scripts/hardest_rules.py', ['--resume7', 'DIR'], ROOT)}` "
        f"({cpu:.0f} CPU s, the census reload included); DIR is the finished 7 x 7 census of the "
        "diagonal goal. Every number is an exact distance from the census (measured, one run).",
        "",
        "| step | D(k) | insert: best | (class, image, r, c) reaching it | family `hardest(k)` |",
        "|---|---:|---:|---|---:|",
    ]
    for s in steps:
        reach = [key for key, v in s["best"].items() if v[0] == s["top"]]
        shown_keys = ", ".join(f"({a}, {b}, {r}, {c}) + {s['best'][(a, b, r, c)][1]}" for a, b, r, c in reach[:6])
        more = f" and {len(reach) - 6} more" if len(reach) > 6 else ""
        lines.append(f"| {s['k'] - 1} -> {s['k']} | {s['D']} | {s['top']} | {shown_keys}{more} | {s['family']} |")
    lines += ["", "How close the insert rule gets, over its (class, image, r, c) choices (best added coin each):", ""]
    for s in steps:
        hist = Counter(v[0] for v in s["best"].values())
        ranked = sorted(hist.items(), reverse=True)[:8]
        lines.append(
            f"* {s['k'] - 1} -> {s['k']} (D = {s['D']}): "
            + ", ".join(f"{d} moves: {n} choices" for d, n in ranked)
            + f"; {len(s['best'])} choices in all."
        )
    rc: dict[int, dict[tuple[int, int], int]] = {}
    for s in steps:
        rc[s["k"]] = {}
        for (_, _, r, c), (d, _) in s["best"].items():
            rc[s["k"]][(r, c)] = max(rc[s["k"]].get((r, c), -1), d)
    lines += ["", "Best distance for each inserted row r (rows of the table) and column c, 6 -> 7:", ""]
    lines.append("| r \\ c | " + " | ".join(str(c) for c in range(7)) + " |")
    lines.append("|---" * 8 + "|")
    for r in range(6, -1, -1):
        lines.append(f"| {r} | " + " | ".join(str(rc[7][(r, c)]) for c in range(7)) + " |")
    lines += [
        "",
        "## The hardest classes (every class of the census's last layer, up to the goal's symmetries)",
        "",
        "| k | classes | span = box | Lemma C (no two coins removable) | Theorem 2 hypothesis holds "
        "| classes by coins removable one at a time (count: classes) |",
        "|---:|---:|---:|---:|---:|---|",
    ]
    for f in facts:
        lines.append(
            f"| {f['k']} | {f['classes']} | {f['box']} | {f['critical']} | {f['hyp']} "
            f"| {', '.join(f'{a}: {b}' for a, b in f['single'].items())} |"
        )
    lines += ["", "The family member's coins that can go singly, and how many cells each can move to keeping D:", ""]
    for f in facts:
        lines.append(
            f"* k = {f['k']}: " + "; ".join(f"{e}: {a} of {b} cells" for e, (a, b) in sorted(f["free"].items()))
        )
    lines += [
        "",
        "## Cores: the classes grouped by their n - 1 coins other than one free coin",
        "",
        "Each class drawn in its image holding (0, 0) (top row first); a domino (0, 0), (0, 1) is read as",
        "(0, 0), (1, 0); the free coins listed are the classes of the group (None: no single free coin).",
    ]
    for k in (5, 6, 7):
        for core, free in cores(cs[k]):
            lines += ["", f"k = {k}, {len(free)} classes, free coin at: {', '.join(str(f) for f in free)}", ""]
            lines += ["```", picture(core, k), "```"]
    Path(args.output).write_text("\n".join(lines) + "\n")
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
