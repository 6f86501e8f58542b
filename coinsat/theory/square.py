"""Theorem 2 (square grid, d = 2, unlabeled): the hypothesis checker.

The paper's statement: A can be re-arranged into B *if* there are coins e1, e2
such that span(A − {e1, e2}) ⊇ span(B − {e1, e2}) and each e_i is adjacent
to two coins of B other than e1 and e2.

Coins are unlabeled, so "the coins e1, e2" names two cells E_A ⊆ A (where the
coins start) and two cells E_B ⊆ B (where they end).  The hypothesis is:

    ∃ E_A ⊆ A, E_B ⊆ B, |E_A| = |E_B| = 2:
        span(A − E_A) ⊇ span(B − E_B)   and
        every b ∈ E_B has >= 2 neighbours in B − E_B.

The second clause puts E_B inside span(B − E_B), so B ⊆ span(A − E_A) ⊆
span(A).  The theorem claims only sufficiency; it is known to be too broad
(Galliot, Gravier, Sivignon, arXiv 2307.06767): ``scripts/theorem_check.py``
finds puzzles that satisfy the hypothesis and are unsolvable, and
``instances/counterexamples/`` keeps the smallest.

All spans here are computed on a finite square board that contains the
bounding box of A ∪ B; that is exact, because the span of a set of cells lies
inside its bounding box (d >= 2).
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations
from typing import Iterable

from .. import geometry
from ..board import Board, BoardKind, lattice_board
from ..configuration import bits
from ..instance import Instance
from .span import span_mask


@dataclass(frozen=True)
class ExtraPair:
    """A witness of the hypothesis: the two cells of A and of B holding e1, e2."""

    start_cells: tuple[int, int]
    goal_cells: tuple[int, int]


def start_spans(board: Board, start_mask: int, d: int = 2) -> dict[int, tuple[int, int]]:
    """span(A − E_A) for every pair E_A ⊆ A (span mask -> one pair giving it)."""
    out: dict[int, tuple[int, int]] = {}
    for a, b in combinations(list(bits(start_mask)), 2):
        out.setdefault(span_mask(board, start_mask & ~(1 << a) & ~(1 << b), d), (a, b))
    return out


def goal_spans(board: Board, goal_mask: int, d: int = 2) -> dict[int, tuple[int, int]]:
    """span(B − E_B) for every pair E_B ⊆ B whose cells each have >= d neighbours in B − E_B."""
    nbr = board.neighbour_masks
    out: dict[int, tuple[int, int]] = {}
    for a, b in combinations(list(bits(goal_mask)), 2):
        rest = goal_mask & ~(1 << a) & ~(1 << b)
        if (nbr[a] & rest).bit_count() >= d and (nbr[b] & rest).bit_count() >= d:
            out.setdefault(span_mask(board, rest, d), (a, b))
    return out


def witness_masks(board: Board, start_mask: int, goal_mask: int, d: int = 2) -> ExtraPair | None:
    """An (E_A, E_B) satisfying the hypothesis, or None."""
    sa = start_spans(board, start_mask, d)
    for gs, eb in goal_spans(board, goal_mask, d).items():
        for ss, ea in sa.items():
            if gs & ~ss == 0:
                return ExtraPair(ea, eb)
    return None


def box_board(coords: Iterable) -> Board:
    """The bounding box of ``coords`` as a square board (exact for spans of its subsets)."""
    return lattice_board("square", geometry.hull("square", list(coords), 0), exact=True, window="box")


def hypothesis(instance: Instance) -> dict | None:
    """Theorem 2's hypothesis on an instance: a witness ``{"start": [xy, xy], "goal": [xy, xy]}`` or None.

    Only for unlabeled square-grid instances with d = 2 (ValueError otherwise);
    with a free goal placement, any placement inside the window may serve.
    """
    b = instance.board
    if b.kind is not BoardKind.SQUARE or instance.d != 2 or instance.start.is_labeled:
        raise ValueError("Theorem 2 is about unlabeled coins on the square grid with d = 2")
    start = [b.coords[c] for c in instance.start.cells]
    for goal_config in instance.goal_configurations:
        goal = [b.coords[c] for c in goal_config.cells]
        box = box_board(start + goal)
        w = witness_masks(box, _mask(box, start), _mask(box, goal), instance.d)
        if w is not None:
            return {
                "start": [box.coords[c] for c in w.start_cells],
                "goal": [box.coords[c] for c in w.goal_cells],
            }
    return None


def _mask(board: Board, coords) -> int:
    m = 0
    for xy in coords:
        m |= 1 << board.cell(xy)
    return m
