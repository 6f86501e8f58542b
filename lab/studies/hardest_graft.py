"""A first solution of hardest(k) where construct refuses: graft a smaller member's solution, then construct.

    python3 scripts/hardest_graft.py SMALL.toml SMALL.json --k K --row R --col C -o OUT.json

SMALL is a start of the (k-1)-box with a solution (e.g. the 7 x 7 census's hardest start with its
optimal solution) such that inserting an empty row at height R and an empty column at x = C into
it (``families.insert_row_column``) gives hardest(k) less one coin.  The script replays the
solution's moves, mapped by the insertion, on hardest(k) for as long as they stay legal; then a
breadth-first search (at most 6 moves) for a configuration on which Theorem 2's hypothesis holds;
then ``construct`` from there.  The whole sequence is replayed by ``solution.verify`` and written
as a solution file (an upper bound; ``coinsat improve`` shortens it).  hardest(k) is span-critical
(docs/worst-case.md, Lemma C), so construct cannot start from it directly.
"""

from __future__ import annotations

import argparse
import json
import time

from coinsat import construct, read_instance
from coinsat.families import hardest, insert_row_column
from coinsat.instance import make_instance
from coinsat.io.solution_format import parse_solution
from coinsat.solution import verify
from coinsat.theory.square import hypothesis

SIDES = ((1, 0), (-1, 0), (0, 1), (0, -1))


def legal(cells: frozenset, a, b, k: int) -> bool:
    if a not in cells or b in cells or not (0 <= b[0] < k and 0 <= b[1] < k):
        return False
    return sum((b[0] + dx, b[1] + dy) in cells - {a} for dx, dy in SIDES) >= 2


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("small")
    ap.add_argument("solution")
    ap.add_argument("--k", type=int, required=True)
    ap.add_argument("--row", type=int, required=True)
    ap.add_argument("--col", type=int, required=True)
    ap.add_argument("--depth", type=int, default=6)
    ap.add_argument("-o", "--output", required=True)
    args = ap.parse_args(argv)
    c0 = time.process_time()
    k, target = args.k, hardest(args.k)
    small = read_instance(args.small)
    big = frozenset(target.board.coords[q] for q in target.start.cells)
    grown = set(insert_row_column([small.board.coords[q] for q in small.start.cells], args.row, args.col))
    if not grown <= big or len(big - grown) != 1:
        raise SystemExit(f"{args.small}: row {args.row}, column {args.col} inserted do not give hardest({k}) - 1 coin")

    def mp(p):
        return (p[0] + (p[0] >= args.col), p[1] + (p[1] >= args.row))

    cells, moves = big, []
    with open(args.solution) as f:
        small_moves = json.load(f)["moves"]
    for a, b in small_moves:
        a, b = mp(tuple(a)), mp(tuple(b))
        if not legal(cells, a, b, k):
            break
        cells = (cells - {a}) | {b}
        moves.append((a, b))
    grafted = len(moves)
    goal = [target.board.coords[q] for q in target.goal.cells]

    def holds(cs) -> bool:
        return hypothesis(make_instance("square", sorted(cs), goal)) is not None

    front, seen, found = [(cells, [])], {cells}, None
    for _ in range(args.depth + 1):
        found = next(((cs, p) for cs, p in front if holds(cs)), None)
        if found is not None:
            break
        nxt = []
        for cs, p in front:
            for a in cs:
                for b in {(x + dx, y + dy) for x, y in cs for dx, dy in SIDES} - cs:
                    if legal(cs, a, b, k):
                        c2 = frozenset((cs - {a}) | {b})
                        if c2 not in seen:
                            seen.add(c2)
                            nxt.append((c2, p + [(a, b)]))
        front = nxt
    if found is None:
        raise SystemExit(f"no configuration within {args.depth} moves of the grafted prefix satisfies Theorem 2")
    cs, path = found
    moves += path
    built, result = construct(make_instance("square", sorted(cs), goal))
    assert result.solution is not None
    tail = [(built.board.coords[m.src], built.board.coords[m.dst]) for m in result.solution.moves]
    all_moves = [[list(a), list(b)] for a, b in moves + tail]
    out = {"name": target.name, "status": "feasible", "length": len(all_moves), "moves": all_moves}
    inst, sol = parse_solution(target, json.dumps(out), args.output)
    verdict = verify(inst, sol)
    if not verdict.ok:
        raise SystemExit(f"the grafted solution does not replay: {verdict}")
    with open(args.output, "w") as f:
        json.dump(out, f)
    print(
        f"hardest({k}): {grafted} grafted moves + {len(path)} searched + {len(tail)} by construct = "
        f"{len(all_moves)} moves, replayed by rules.py ({time.process_time() - c0:.1f} CPU s)"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
