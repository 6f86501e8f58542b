"""The cubic lattice (the paper's open problem 3): boxes, span in 3-D, extra coins, Theorem 2's analogue.

Cells are integer points ``(x, y, z)``; a cell's neighbours are the 6 unit steps
(``geometry.CUBIC``).  A move is the paper's: a coin goes to an empty cell adjacent to
>= d coins other than itself.

**Span in 3-D.**  The definitions carry over word for word (``theory/span.py`` works on
any board): span(C) is the least S ⊇ C with no outside cell having >= d neighbours in S;
Lemma "span monotone" holds with the same proof.  For d >= 2 the span lies in the
bounding box: a cell outside the box has at most one neighbour inside it (only the step
back towards the box enters it).  So a box that holds A is an *exact* board for every
puzzle starting at A — the reachable configurations never leave span(A) — and the
exact searches below run on boxes, as on the square grid.

**Extra coins** (paper, "General Tools", unchanged): a set E of coins of C is *extra*
when span(C − E) = span(C); C has *two extra coins* when some pair is extra.

**Theorem 2's analogue.**  On the square grid (d = 2) the paper's Theorem 2 says: A can
be re-arranged into B if there are coins e1, e2 with span(A − {e1, e2}) ⊇ span(B − {e1, e2})
and each e_i adjacent to d coins of B other than e1, e2.  With unlabeled coins "the coins
e1, e2" name two cells E_A ⊆ A and two cells E_B ⊆ B, which is what
``theory.square.witness_masks`` checks on any board; :func:`hypothesis` applies it to a
box of the cubic lattice, for any d.  :func:`closure` is the exact reachable set, so a
pair with the hypothesis and B outside the closure is a counterexample to the analogue.
``scripts/cubic_study.py`` runs every full-span start of small boxes.
"""

from __future__ import annotations

from itertools import combinations, product
from typing import Iterable

from .. import geometry
from ..board import Board, graph_board
from ..configuration import bits
from ..rules import successors
from .span import span_mask
from .square import witness_masks

Point3 = tuple[int, int, int]


def box_cells(dims: tuple[int, int, int]) -> list[Point3]:
    """The cells of the box ``[0, a) x [0, b) x [0, c)``."""
    a, b, c = dims
    return [(x, y, z) for z in range(c) for y in range(b) for x in range(a)]


def box_board(dims: tuple[int, int, int]) -> Board:
    """The box as a board (a graph board whose cells are named by their points)."""
    cells = box_cells(dims)
    index = set(cells)
    edges = [(p, q) for p in cells for q in geometry.neighbours("cubic", p) if q in index and p < q]
    return graph_board(cells, edges)


def mask_of(board: Board, points: Iterable[Point3]) -> int:
    """The bit set of the cubic board's cells at ``points``."""
    m = 0
    for p in points:
        m |= 1 << board.cell(p)
    return m


def has_two_extra(board: Board, mask: int, d: int) -> bool:
    """Some pair of coins of ``mask`` is extra: span(C − E) = span(C)."""
    whole = span_mask(board, mask, d)
    return any(span_mask(board, mask & ~(1 << a) & ~(1 << b), d) == whole for a, b in combinations(list(bits(mask)), 2))


def hypothesis(board: Board, start: int, goal: int, d: int) -> bool:
    """Theorem 2's hypothesis (module docstring) for the coin masks ``start`` and ``goal``."""
    return witness_masks(board, start, goal, d) is not None


def closure(board: Board, start: int, d: int) -> set[int]:
    """Every configuration (as a mask) reachable from ``start`` on ``board``: exact on a box
    holding the start when d >= 2 (module docstring)."""
    seen = {start}
    queue = [(start,)]
    for state in queue:
        for _, (nxt,) in successors(board, d, state):
            if nxt not in seen:
                seen.add(nxt)
                queue.append((nxt,))
    return seen


def box_symmetries(dims: tuple[int, int, int]) -> list[dict[int, int]]:
    """The symmetries of the cubic lattice that map the box onto itself, as cell permutations
    of :func:`box_board`'s numbering."""
    cells = box_cells(dims)
    index = {p: i for i, p in enumerate(cells)}
    out = []
    for m in geometry.symmetries("cubic"):
        image = [geometry.apply(m, p) for p in cells]
        low = tuple(min(q[k] for q in image) for k in range(3))
        moved = [tuple(q[k] - low[k] for k in range(3)) for q in image]
        if all(q in index for q in moved):
            out.append({i: index[q] for i, q in enumerate(moved)})  # type: ignore[index]
    return out


def canonical(mask: int, perms: list[dict[int, int]]) -> int:
    """The least image of ``mask`` under the box's symmetries."""
    best = mask
    for perm in perms:
        img = 0
        for c in bits(mask):
            img |= 1 << perm[c]
        best = min(best, img)
    return best


def full_span_starts(board: Board, dims: tuple[int, int, int], n: int, d: int) -> list[int]:
    """One start per symmetry class among the n-coin configurations whose span is the whole box."""
    full = (1 << board.size) - 1
    perms = box_symmetries(dims)
    seen: set[int] = set()
    out = []
    for cells in combinations(range(board.size), n):
        m = sum(1 << c for c in cells)
        key = canonical(m, perms)
        if key in seen:
            continue
        seen.add(key)
        if span_mask(board, m, d) == full:
            out.append(key)
    return out


def all_masks(size: int, n: int) -> list[int]:
    """Every bit set of ``n`` cells among ``size``."""
    return [sum(1 << c for c in cells) for cells in combinations(range(size), n)]


def boxes(max_cells: int) -> list[tuple[int, int, int]]:
    """Boxes a >= b >= c >= 2 (up to symmetry) with at most ``max_cells`` cells, smallest first."""
    out = [(a, b, c) for a, b, c in product(range(2, 6), repeat=3) if a >= b >= c and a * b * c <= max_cells]
    return sorted(out, key=lambda t: (t[0] * t[1] * t[2], t))
