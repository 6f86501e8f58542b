"""The lattice-step model of a slide, next to the exact one (``encodings/slides.md`` §3).

The exact model (``geometry.slide_connected``, used by rules.py) asks whether a disc
of diameter 1 can travel in the plane from one lattice point to another without
overlapping the other coins.  A simpler model, used by earlier reconstructions of
the paper's puzzles, keeps the coin on the lattice: on the triangular grid it steps
between adjacent empty cells, and a step from a to b is blocked iff both common
neighbours of a and b hold coins (they are √3 < 2 apart, so no disc fits between
them).  :func:`step_connected` decides that model; the tests compare the two on
random scenes, and :func:`first_difference` searches for a scene where they differ.

Both models only ever see the coins other than the moved one.  Outside the
bounding hexagon of those coins grown by 2 every cell is empty and every step is
free (a blocked step needs two coins next to both of its cells), so the step model
searches only that region: any walk that leaves it can go round inside its rim.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Iterable

from .. import geometry
from ..configuration import Configuration
from ..geometry import Coord
from ..instance import Instance
from ..rules import SLIDE, Move, check_move, legal_moves
from . import triangular


def common_neighbours(a: Coord, b: Coord) -> tuple[Coord, ...]:
    """The cells adjacent to both ``a`` and ``b`` (two when a and b are triangular neighbours)."""
    na = set(geometry.neighbours("triangular", a))
    return tuple(c for c in geometry.neighbours("triangular", b) if c in na)


def step_connected(coins: Iterable[Coord], a: Coord, b: Coord) -> bool:
    """The lattice-step model on the triangular grid: ``a`` reaches ``b`` by steps between
    adjacent empty cells, none of them with both common neighbours occupied."""
    occupied = set(coins)
    region = geometry.hull("triangular", list(occupied) + [a, b], 2)
    seen, queue = {a}, [a]
    for u in queue:
        if u == b:
            return True
        for v in geometry.neighbours("triangular", u):
            if v in seen or v in occupied or v not in region:
                continue
            if all(c in occupied for c in common_neighbours(u, v)):
                continue
            seen.add(v)
            queue.append(v)
    return b in seen


def step_components(coins: Iterable[Coord], cells: Iterable[Coord]) -> dict[Coord, int]:
    """The step model's component (a number) of every empty cell of ``cells``: one search of the
    coins' hexagon grown by 2 instead of one per pair."""
    occupied = set(coins)
    wanted = [c for c in cells if c not in occupied]
    region = geometry.hull("triangular", list(occupied) + wanted, 2)
    comp: dict[Coord, int] = {}
    for seed in wanted:
        if seed in comp:
            continue
        label = len(comp)
        comp[seed] = label
        queue = [seed]
        for u in queue:
            for v in geometry.neighbours("triangular", u):
                if v in comp or v in occupied or v not in region:
                    continue
                if all(c in occupied for c in common_neighbours(u, v)):
                    continue
                comp[v] = label
                queue.append(v)
    return {c: comp[c] for c in wanted}


def models_agree(coins: Iterable[Coord], cells: Iterable[Coord]) -> bool:
    """The exact model and the step model split the empty cells of ``cells`` the same way."""
    cs = tuple(set(coins))
    steps = step_components(cs, cells)
    space = geometry.free_space("triangular", cs)
    pairs = {(space.signature(c), label) for c, label in steps.items()}
    return len(pairs) == len({s for s, _ in pairs}) == len({label for _, label in pairs})


@dataclass(frozen=True)
class Difference:
    """A scene where the two models disagree: ``coins`` stay, a coin at ``a`` moves to ``b``."""

    coins: tuple[Coord, ...]
    a: Coord
    b: Coord
    exact: bool
    step: bool


def compare(coins: Iterable[Coord], a: Coord, b: Coord) -> Difference | None:
    """The disagreement of the two models on one scene, or None if they agree."""
    cs = tuple(sorted(set(coins)))
    exact = geometry.slide_connected("triangular", cs, a, b)
    step = step_connected(cs, a, b)
    return None if exact == step else Difference(cs, a, b, exact, step)


def first_difference(
    samples: int, radius: int = 3, max_coins: int = 12, seed: int = 0
) -> tuple[Difference | None, int]:
    """Random scenes in the hexagon of ``radius`` around the origin: the first (smallest found,
    by coin count) disagreement, and how many scenes were compared."""
    rng = random.Random(seed)
    cells = sorted(geometry.ball("triangular", [(0, 0)], radius))
    best: Difference | None = None
    for k in range(samples):
        n = rng.randint(2, max_coins)
        coins = rng.sample(cells, n)
        free = [c for c in cells if c not in set(coins)]
        a, b = rng.sample(free, 2)
        diff = compare(coins, a, b)
        if diff is not None and (best is None or len(diff.coins) < len(best.coins)):
            best = diff
    return best, samples


# --- Theorem 1 with every move read as a slide -------------------------------------------------


def has_slide(start: triangular.Placement, d: int = 2) -> bool:
    """Does ``start`` have a legal slide on the infinite grid?  (Destinations lie next to coins,
    and the slide's path is decided on the whole plane, not on the local board.)"""
    board = triangular.local_board(start, 1)
    config = Configuration(tuple((board.cell(xy), lab) for xy, lab in start.items()))
    return bool(legal_moves(board, config, d, SLIDE))


def one_slide(start: triangular.Placement, goal: triangular.Placement, d: int = 2) -> bool:
    """Is ``goal`` exactly one legal slide away from ``start``?"""
    src = [xy for xy, lab in start.items() if goal.get(xy) != lab]
    dst = [xy for xy, lab in goal.items() if start.get(xy) != lab]
    if len(src) != 1 or len(dst) != 1 or start[src[0]] != goal[dst[0]] or dst[0] in start:
        return False
    board = triangular.local_board(list(start) + dst, 1)
    config = Configuration(tuple((board.cell(xy), lab) for xy, lab in start.items()))
    return check_move(board, config, Move(board.cell(src[0]), board.cell(dst[0])), d, SLIDE) is None


def decide_slides(instance: Instance) -> triangular.Decision:
    """Theorem 1 (with the claw correction) with "move" read as "slide" in its conditions: A has
    a valid *slide*, or B is one *slide* from A.  The paper's conjecture, as a decider to test.
    Three coins: two coins never enclose anything, so every jump is a slide and the jump
    decider's exact three-coin answer stands."""
    if not triangular.applies(instance):
        raise ValueError("Theorem 1 is about the triangular grid with d = 2")
    start = triangular.placement_of(instance, instance.start)
    goal = triangular.placement_of(instance, instance.goal)
    if len(start) <= 3:
        return triangular.decide(instance)
    near = triangular.near_placements(instance, start, goal)
    if any(p == start for p in near):
        return triangular.Decision(True, "equal")
    if not has_slide(start):
        return triangular.Decision(False, "no-slide")
    if any(one_slide(start, p) for p in near):
        return triangular.Decision(True, "one-slide")
    cond = triangular.shape_condition(goal)
    return (
        triangular.Decision(True, f"condition-{cond}")
        if cond is not None
        else triangular.Decision(False, "conditions-fail")
    )


def frozen_for_slides(goal: Iterable[Coord], d: int = 2) -> bool:
    """No slide ends in ``goal``: every cell p of it with >= d neighbours in the rest is enclosed
    by the rest, alone.  Then B is reachable from no other configuration (the last move of a
    solution ends in B and puts its coin on such a p, coming from a lattice cell in p's
    component of the free space).  A bounded component lies inside the convex hull of the coins
    around it, so the cells of the goal's hexagonal hull are all the cells it can hold."""
    cells = set(goal)
    region = geometry.hull("triangular", cells, 0)
    far = (max(x for x, _ in region) + 3, max(y for _, y in region) + 3)
    for p in cells:
        rest = cells - {p}
        if sum(n in rest for n in geometry.neighbours("triangular", p)) < d:
            continue
        space = geometry.free_space("triangular", rest)
        home = space.signature(p)
        if home == space.signature(far):
            return False  # p is reachable from outside
        if any(space.signature(c) == home for c in region if c not in cells):
            return False
    return True
