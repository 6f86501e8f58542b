#!/usr/bin/env python3
"""The slide conjecture, checked: every unlabeled triangular puzzle in a box, slides against Theorem 1.

The paper conjectures that Theorem 1 (triangular grid, d = 2, unlabeled) still holds when every
move must be a slide.  For every puzzle (A, B), A != B, with n coins each inside a w x h
parallelogram of axial cells, one per class under the 12 lattice symmetries and translations:

* the exact jump decider (``coinsat.theory.triangular.decide``, with the claw correction) says
  solvable or not;
* decider "no": no jump solution exists, so no slide solution either (every slide is a jump):
  the two agree, no search needed;
* decider "yes": ``bfs`` on the slide instance (window hull(A, B) + margin, margin 2 then 4,
  ``grow=False``) looks for a slide solution — a real one, replayed by rules.py.  A pair with
  none is a candidate counterexample; the forward slide closure of A is then computed on a
  window W plus its rim: if no reachable configuration touches the rim, the closure is every
  configuration A can ever reach by slides (a slide's destination touches two coins, so it lies
  in W or its rim), and B outside it proves "no slide solution" globally.  Before that, a goal
  that no slide can end in (``theory.slides.frozen_for_slides``: e.g. a claw, whose centre is
  enclosed by its three leaves) is proven unreachable outright.

The second section compares the exact slide test with the lattice-step model exhaustively: every
set of at most k coins in the radius-2 hexagon (19 cells), every pair of its empty cells.

Usage (the report in benchmarks/slide_census.md was made by the command it names at its top):

    python3 scripts/slide_census.py [--quick] [--out benchmarks/slide_census.md]
"""

from __future__ import annotations

import argparse
import time
from collections import Counter
from itertools import combinations
from pathlib import Path

from coinsat import geometry, solve, write_instance
from coinsat.board import lattice_board
from coinsat.instance import make_instance
from coinsat.rules import successors
from coinsat.theory import slides, triangular

ROOT = Path(__file__).resolve().parents[2]
Cells = tuple[tuple[int, int], ...]


def parallelogram(w: int, h: int) -> list[tuple[int, int]]:
    return [(x, y) for y in range(h) for x in range(w)]


def canonical(a: Cells, b: Cells) -> tuple[Cells, Cells]:
    """One key per class of (A, B) under the triangular lattice's symmetries and translations."""
    best = None
    for m in geometry.symmetries("triangular"):
        ia = [geometry.apply(m, c) for c in a]
        ib = [geometry.apply(m, c) for c in b]
        ox, oy = min(ia + ib)
        key = (
            tuple(sorted((x - ox, y - oy) for x, y in ia)),
            tuple(sorted((x - ox, y - oy) for x, y in ib)),
        )
        if best is None or key < best:
            best = key
    assert best is not None
    return best


def pairs(box: list[tuple[int, int]], n: int):
    seen = set()
    for a in combinations(box, n):
        for b in combinations(box, n):
            if a == b:
                continue
            key = canonical(a, b)
            if key not in seen:
                seen.add(key)
                yield key


def slide_closure(a: Cells, margin: int, max_states: int) -> tuple[set | None, bool]:
    """Every configuration reachable from A by slides on hull(A) + margin plus its rim, and
    whether the closure stayed off the rim (then it is global); None past max_states."""
    core = geometry.hull("triangular", a, margin)
    rim = {n for c in core for n in geometry.neighbours("triangular", c)} - core
    board = lattice_board("triangular", core | rim, exact=False, window="closure")
    rim_mask = sum(1 << board.cell(c) for c in rim)
    start = (sum(1 << board.cell(c) for c in a),)
    seen = {start}
    queue = [start]
    touched = False
    for state in queue:
        for _, nxt in successors(board, 2, state, "slide"):
            if nxt not in seen:
                seen.add(nxt)
                queue.append(nxt)
                touched |= bool(nxt[0] & rim_mask)
                if len(seen) > max_states:
                    return None, False
    coords = board.lattice_coords
    return {frozenset(coords[c] for c in range(board.size) if s >> c & 1) for (s,) in seen}, not touched


def census(w: int, h: int, n: int, time_limit: float) -> tuple[Counter, list]:
    stats: Counter = Counter()
    candidates = []
    for a, b in pairs(parallelogram(w, h), n):
        stats["pairs"] += 1
        jump = make_instance("triangular", list(a), list(b), margin=2)
        decision = triangular.decide(jump)
        read = slides.decide_slides(jump)
        stats["slide-read decider yes"] += read.solvable
        if not decision.solvable:
            stats["decider no (slides no too)"] += 1
            if read.solvable:
                stats["DISAGREE: slide-read yes, jump decider no"] += 1
                candidates.append((a, b, read.reason, "slide-read decider says yes, jumps impossible", None))
            continue
        stats["decider yes"] += 1
        found = False
        for margin in (2, 4):
            inst = make_instance("triangular", list(a), list(b), margin=margin, moves="slide")
            r = solve(inst, "bfs", screens=False, time_limit=time_limit, grow=False)
            if r.solution is not None:
                found = True
                break
        if found:
            stats["slide solution found"] += 1
            if not read.solvable:
                stats["DISAGREE: slide-read no, slide solution found"] += 1
                candidates.append((a, b, read.reason, "slide-read decider says no, a slide solution exists", None))
            continue
        stats["no slide solution in hull + 4"] += 1
        if slides.frozen_for_slides(b):
            proven, status = True, "proven: no slide ends in B (theory.slides.frozen_for_slides)"
        else:
            closure, exact = slide_closure(a, 4, 500_000)
            proven = closure is not None and exact and frozenset(b) not in closure
            status = (
                "proven: the slide closure of A is closed and misses B" if proven else "no slide solution in hull + 4"
            )
        stats["proven slide-unsolvable (closed set)"] += proven
        if read.solvable:
            stats["DISAGREE: slide-read yes, no slide solution"] += 1
        candidates.append((a, b, f"jump decider {decision.reason}; slide-read {read.reason}", status, None))
    return stats, candidates


def compare_models(k: int) -> Counter:
    """Every set of 2..k coins in the radius-2 hexagon: do the two models split its empty cells alike?"""
    cells = sorted(geometry.ball("triangular", [(0, 0)], 2))
    stats: Counter = Counter()
    for n in range(2, k + 1):
        for coins in combinations(cells, n):
            stats["sets"] += 1
            stats["agree" if slides.models_agree(coins, cells) else "DIFFER"] += 1
    return stats


def write_candidates(candidates: list, out_dir: Path, limit: int) -> list[str]:
    out_dir.mkdir(parents=True, exist_ok=True)
    names = []
    for i, (a, b, reason, status, _) in enumerate(sorted(candidates, key=lambda c: (len(c[0]), c))[:limit]):
        name = f"slide-cx{i + 1}-n{len(a)}"
        inst = make_instance(
            "triangular",
            list(a),
            list(b),
            moves="slide",
            name=name,
            source=f"scripts/slide_census.py: Theorem 1 says solvable ({reason}); slides: {status}",
        )
        write_instance(inst, out_dir / f"{name}.toml")
        names.append(name)
    return names


QUICK = [(3, 2, 3), (3, 2, 4)]
PLAN = [(3, 3, 3), (3, 3, 4), (3, 3, 5), (3, 3, 6), (3, 3, 7), (4, 3, 4), (4, 3, 5)]


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="small boxes only (a smoke run)")
    ap.add_argument("--out", default=str(ROOT / "benchmarks" / "slide_census.md"))
    ap.add_argument("--time-limit", type=float, default=30.0, help="seconds per BFS")
    ap.add_argument("--compare-coins", type=int, default=8, help="k of the exhaustive model comparison")
    ap.add_argument("--boxes", default=None, help="w,h,n triples separated by ';' (default: the full plan)")
    ap.add_argument("--compare-only", action="store_true", help="only the comparison of the two slide models")
    args = ap.parse_args(argv)
    plan = QUICK if args.quick else PLAN
    if args.boxes:
        plan = [tuple(int(v) for v in t.split(",")) for t in args.boxes.split(";")]
    if args.compare_only:
        plan = []
    lines = [
        "# The slide conjecture: census",
        "",
        f"Made by `python3 scripts/slide_census.py{' --quick' if args.quick else ''}"
        f"{' --compare-only' if args.compare_only else ''}"
        f"{' --boxes ' + repr(args.boxes) if args.boxes else ''}` "
        f"(--time-limit {args.time_limit}, --compare-coins {args.compare_coins}; one core of a shared 2-core machine).",
        "",
        "Every unlabeled puzzle (A, B), A != B, both inside the w x h parallelogram of axial cells, one per class",
        "under the 12 symmetries and translations.  'decider' is the exact jump decider (Theorem 1 with the claw",
        "correction).  Decider 'no' needs no search (slides are jumps).  Decider 'yes': BFS on slides in hull(A, B)",
        "+ 2, then + 4, must find a slide solution (replayed by rules.py).  'slide-read decider': the same theorem",
        "with 'A has a valid move' and 'B is one move from A' read with slides (`theory.slides.decide_slides`, the",
        "conjecture as a decider); 'slide-read disagrees' counts pairs where it says yes without a slide solution",
        "found, or no while one was found.",
        "",
        "| box | coins | pairs | jump decider no | jump decider yes | slide solution found "
        "| no slide solution in hull+4 | of which proven | slide-read decider yes | slide-read disagrees "
        "| CPU s | wall s |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    all_candidates = []
    for w, h, n in plan:
        t0, c0 = time.perf_counter(), time.process_time()
        stats, candidates = census(w, h, n, args.time_limit)
        secs, cpu = time.perf_counter() - t0, time.process_time() - c0
        all_candidates += candidates
        lines.append(
            f"| {w}x{h} | {n} | {stats['pairs']} | {stats['decider no (slides no too)']} | {stats['decider yes']} "
            f"| {stats['slide solution found']} | {stats['no slide solution in hull + 4']} "
            f"| {stats['proven slide-unsolvable (closed set)']} | {stats['slide-read decider yes']} "
            f"| {sum(v for k, v in stats.items() if k.startswith('DISAGREE'))} | {cpu:.1f} | {secs:.1f} |"
        )
        print(lines[-1], flush=True)
        Path(args.out).write_text("\n".join(lines + ["", "(partial: the run is still going)", ""]))
    lines.append("")
    if not plan:
        lines.append("(no census rows in this run)")
    elif all_candidates:
        names = write_candidates(all_candidates, ROOT / "instances" / "open-problems", 5)
        lines.append(
            f"**{len(all_candidates)} pairs where the jump decider (Theorem 1) says solvable and no slide solution "
            "was found, or where the slide-read decider disagrees with the search.**"
        )
        lines.append(f"The smallest are written to instances/open-problems/: {', '.join(names)}.")
        lines.append("")
        for a, b, reason, status, size in sorted(all_candidates, key=lambda c: (len(c[0]), c))[:20]:
            extra = f", closure of {size} configurations" if size else ""
            lines.append(f"* start {list(a)} goal {list(b)}: decider {reason}; {status}{extra}")
    else:
        lines.append("**Agreement: every puzzle the jump decider calls solvable has a slide solution.**")
    lines.append("")
    if args.compare_coins < 2:
        lines += ["The two slide models are compared by `--compare-only` (benchmarks/slide_models.md).", ""]
        Path(args.out).write_text("\n".join(lines))
        return 0
    c0 = time.process_time()
    cmp = compare_models(args.compare_coins)
    secs = time.process_time() - c0
    lines += [
        "## Exact slides vs the lattice-step model",
        "",
        f"Every set of 2..{args.compare_coins} coins in the radius-2 hexagon (19 cells): do the exact test "
        "(`geometry.free_space`) and the step model (`theory.slides.step_components`) split its empty cells into "
        "the same components (so agree on every pair of them)?",
        "",
        f"{cmp['sets']} coin sets: {cmp['agree']} agree, {cmp['DIFFER']} differ ({secs:.1f} CPU s).",
        "",
    ]
    Path(args.out).write_text("\n".join(lines))
    print("\n".join(lines[-6:]))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
