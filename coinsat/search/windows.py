"""The geometry of lattice windows: which cells a window exact for a horizon holds.

A finite window W of an infinite lattice (triangular grid, square grid with d = 1) is *exact
for horizon T* when it holds the lattice layer R_T (``theory.reach``: R_0 = the start's
cells, R_{t+1} = R_t plus every cell with >= d neighbours in R_t).  By Lemma W
(``encodings/sat.md`` §2) no solution with <= T moves occupies a cell outside R_T, so what an
engine proves about such solutions inside W holds on the whole lattice.  The functions here
are pure (an instance in, a window or a cell map out):

* :func:`exact_horizon`: the largest T the instance's own window is exact for;
* :func:`window_for`: the smallest window exact for T (R_T plus the goal's cells), the
  instance itself when its window already is;
* :func:`to_original` and :func:`fits`: a solution of the window in the instance's cells, and
  the test "these moves stay inside the instance's window".

What an answer on such a window means on the board, and the loop that grows the window from
horizon to horizon, are ``search/grown.py``'s; the proofs are ``docs/grown-windows.md``.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Callable

from ..board import MAX_WINDOW_CELLS, lattice_board
from ..configuration import Configuration
from ..instance import Instance
from ..limits import Limits
from ..solution import Solution
from ..theory.reach import LatticeLayers as Layers
from ..theory.reach import exact_for


def exact_horizon(instance: Instance, limit: int = 10_000) -> int | None:
    """The largest T (at most ``limit``) such that the instance's window is exact for T:
    it holds R_T.  None when it is exact for every T (an exact board, or a window that
    holds the whole, finite, span(start))."""
    b = instance.board
    if b.exact:
        return None
    layers = Layers(instance)
    for t in range(limit):
        layers.grow_to(t + 1)
        if not all(b.has(c) for c in layers.cells(t + 1)):
            return t
        if layers.stable:
            return None
    return limit


def window_for(original: Instance, layers: Layers, horizon: int, max_cells: int = MAX_WINDOW_CELLS) -> Instance | None:
    """The puzzle on a window exact for ``horizon`` moves (None: more than ``max_cells`` cells).

    The instance itself when its window already is; otherwise the board R_horizon plus
    the goal's cells, declared exact when the layers have stopped growing (R is then
    span(start), which no coin ever leaves)."""
    if original.board.size <= max_cells and exact_for(original, horizon):
        return original
    if not layers.grow_to(horizon, max_cells):
        return None
    b = original.board
    cells = set(layers.cells(horizon)) | {b.lattice_coords[c] for c in original.goal.cells}
    if len(cells) > max_cells:
        return None
    exact = layers.stable
    board = lattice_board(b.kind, cells, exact=exact, window="span" if exact else f"R_{horizon}")

    def moved(config: Configuration) -> Configuration:
        return Configuration(tuple((board.cell(b.coords[c]), lab) for c, lab in config.coins))

    return replace(original, board=board, start=moved(original.start), goal=moved(original.goal))


def to_original(original: Instance, work: Instance, solution: Solution) -> Solution | None:
    """``solution`` (cells of ``work``) in the cells of ``original``; None if it leaves its window."""
    if work is original:
        return solution
    coords, b = work.board.coords, original.board
    if not all(b.has(coords[c]) for move in solution.moves for c in move):
        return None
    moves = [(b.cell(coords[s]), b.cell(coords[p])) for s, p in solution.moves]
    return Solution.of(moves)


def fits(original: Instance, work: Instance) -> Callable[[list], bool]:
    """A test "these moves (cells of ``work``) stay inside the original window"."""
    if work is original:
        return lambda moves: True
    coords, b = work.board.coords, original.board
    inside = [b.has(c) for c in coords]
    return lambda moves: all(inside[s] and inside[p] for s, p in moves)


def elapsed(limits: Limits) -> float:
    """Seconds since the run (and its ``limits``) started (``limits.elapsed()``; the ranked
    search's progress reads it from here)."""
    return limits.elapsed()
