#!/usr/bin/env python3
"""A first session with coinsat: build a puzzle from a picture, solve it, check, draw and count.

    python3 examples/tutorial.py [OUTDIR]        # pictures go to OUTDIR (default: a temporary one)

Each step is a few lines you can paste into a notebook cell (where the puzzle, the result and
the drawings show themselves).  The test suite runs this file (tests/test_tutorial.py).
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

import coinsat

# 1. A puzzle from a picture.  'o' is a coin, '.' an empty cell; the last line is row y = 0.
#    Turn the triangle upside down on the triangular grid (each row up is shifted right by one
#    character); anywhere will do ("translate").
PUZZLE = '''
name = "triangle-flip"
board = "triangular"
goal_placement = "translate"
start = """
  o
 o o
o o o
"""
goal = """
  o o o
   o o
    o
"""
'''


def main(outdir: Path) -> int:
    puzzle = coinsat.parse_instance(PUZZLE)
    print(f"{puzzle.name}: {puzzle.n_coins} coins on the {puzzle.board.kind.value} grid")

    # 2. Solve it.  'optimal' means: a solution of this length, and a proof that none is shorter.
    result = coinsat.solve(puzzle, time_limit=60)
    print(f"solve: {result.status}, {result.length} moves (lower bound {result.lower_bound})")

    # 3. Check the moves with the one move validator (any move list can be checked this way).
    verdict = coinsat.verify(puzzle, result.solution)
    print(f"verify: {'ok' if verdict.ok else verdict.reason}")

    # 4. Draw it: start and goal, the steps as a filmstrip, an animation, a page with controls.
    outdir.mkdir(parents=True, exist_ok=True)
    coinsat.draw(puzzle, output=outdir / "start-goal.svg")
    coinsat.draw(puzzle, result, output=outdir / "steps.svg")
    coinsat.draw(puzzle, result, animate=True, output=outdir / "animated.svg")
    coinsat.draw(puzzle, result, format="gif", output=outdir / "animated.gif")
    coinsat.draw(puzzle, result, format="html", output=outdir / "steps.html")
    print(f"draw: pictures in {outdir}")

    # 5. In how many ways?  Optimal move sequences, and the same up to reordering moves that commute.
    counted = coinsat.count(puzzle)
    print(f"count: {counted.sequences} optimal sequences, {counted.traces} up to commuting moves")
    return 0 if verdict.ok and result.status is coinsat.Status.OPTIMAL else 1


if __name__ == "__main__":
    target = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(tempfile.mkdtemp(prefix="coinsat-tutorial-"))
    sys.exit(main(target))
