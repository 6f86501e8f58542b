"""The hardest family to n = 40: what construct gives, what is proven, against the flip.

    python3 scripts/hardest_growth.py [--k 8..38] [-o benchmarks/hardest-growth.md]

For every k it runs, in the same process, ``construct`` on ``hardest(k)`` (``coinsat family hardest``)
and on the flip ``diagonal_flip(k)`` (same box, same goal), and the static lower bound of each
(theory/reach.lower_bound: fill count, distance and span layers, Lemma W).  It records whether
Theorem 2's hypothesis holds for hardest(k) (theory/square.hypothesis) and whether the start is
span-critical (Lemma C of docs/worst-case.md).  Every number is measured in this run, or a static
bound computed in it; no fit is a theorem.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from coinsat import construct
from coinsat.errors import ConstructionError
from coinsat.families import diagonal_flip, hardest, hardest_shape
from coinsat.theory.reach import lower_bound
from coinsat.theory.span import lattice_span
from coinsat.theory.square import hypothesis
from lab.commandline import shown

ROOT = Path(__file__).resolve().parents[2]


def span_critical(k: int) -> bool:
    """Lemma C: span(A) is the box and no two coins can go without shrinking it."""
    cells = hardest_shape(k)
    full = k * k
    if len(lattice_span("square", cells, 2)) != full:
        return False
    return all(
        len(lattice_span("square", [c for t, c in enumerate(cells) if t not in (i, j)], 2)) < full
        for i in range(len(cells))
        for j in range(i + 1, len(cells))
    )


def row(k: int) -> dict:
    t0 = time.process_time()
    h, f = hardest(k), diagonal_flip(k)
    try:
        construct(h)
        refused = ""
    except ConstructionError as e:
        refused = str(e).split(":")[0]
    _, fr = construct(f)
    return {
        "k": k,
        "n": k + 2,
        "refused": refused,
        "hypothesis": hypothesis(h) is not None,
        "critical": span_critical(k),
        "h_static": lower_bound(h),
        "f_construct": fr.length,
        "f_static": lower_bound(f),
        "cpu": time.process_time() - t0,
    }


def parse_ks(text: str) -> list[int]:
    if ".." in text:
        a, b = text.split("..")
        return list(range(int(a), int(b) + 1))
    return [int(x) for x in text.split(",")]


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--k", default="8..38", help="box sides: A..B or a comma list (default 8..38, n = k + 2 <= 40)")
    ap.add_argument("-o", "--output", default=str(ROOT / "benchmarks/hardest-growth.md"))
    args = ap.parse_args(argv)
    rows = []
    for k in parse_ks(args.k):
        rows.append(row(k))
        r = rows[-1]
        print(k, r["refused"] or "built", r["f_construct"], f"{r['cpu']:.1f}", flush=True)
    cpu = sum(r["cpu"] for r in rows)
    argv_shown = [] if args.k == "8..38" else ["--k", args.k]
    lines = [
        "# The hardest family to n = 40: construct, static bounds, and the flip at the same k",
        "",
        f"Made by `{shown('scripts/hardest_growth.py', argv_shown, ROOT)}` ({cpu:.0f} CPU s in all). "
        "`hardest(k)`: `coinsat family hardest --k K`; the flip: `coinsat family diagonal --k K` (the same "
        "k x k box and the same goal, n = k + 2 coins). Measured in this run: construct's answer and length "
        "(a verified solution, an upper bound), the static lower bound (theory/reach.lower_bound: fill count, "
        "distance, span layers; a proven bound, Lemma W), whether Theorem 2's hypothesis holds "
        "(theory/square.hypothesis) and whether the start is span-critical (Lemma C, docs/worst-case.md).",
        "",
        "| k | n | hardest(k): construct | Theorem 2 hypothesis | span-critical | hardest(k): static lower bound "
        "| flip: construct | flip: static lower bound | CPU s |",
        "|---:|---:|---|---|---|---:|---:|---:|---:|",
    ]
    for r in rows:
        lines.append(
            f"| {r['k']} | {r['n']} | {'refused: ' + r['refused'] if r['refused'] else 'built'} "
            f"| {'holds' if r['hypothesis'] else 'fails'} | {'yes' if r['critical'] else 'no'} | {r['h_static']} "
            f"| {r['f_construct']} | {r['f_static']} | {r['cpu']:.1f} |"
        )
    lines += [
        "",
        "construct gives no upper bound for any member: Theorem 2 needs two coins whose removal keeps a "
        "span that covers the goal's, and a span-critical start has none (docs/worst-case.md, Lemma C). "
        "The only upper bounds for the family are the exact values for k <= 7 (the census) and, for k = 8, "
        "a verified solution made by a prefix grafted from the 7 x 7 optimum, then construct, then improve ("
        "benchmarks/census-8.md). The flip's construct column is measured in the same run.",
    ]
    Path(args.output).write_text("\n".join(lines) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
