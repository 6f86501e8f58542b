"""Instance generators: the V-to-diagonal family, diagonal flips, random puzzles.

All on the square grid, coordinates (x, y) with y up.

* ``diagonal_target(s, "swne")``: the SW-NE diagonal {(i, i)} of an s x s box
  plus two extra coins at (m-1, m) and (m, m-1), m = s // 2 (the two cells of
  the central 2x2 block off the diagonal); ``"nwse"`` is its mirror image
  y -> s-1-y.  For s = 4 these are the start and goal of the paper's
  'diagonal' puzzle (18 moves): :func:`diagonal_flip` (k) is that puzzle for
  a k x k box.
* ``v_shape(a, b)``: the V of the paper's Lower Bound proof as reconstructed
  in ``shared/reference/paper-instances.md`` §7/10 — vertex
  {(0,0),(1,0),(0,1),(1,1)}, right arm (1+i, 2i) for i = 1..a, left arm
  (-i, 2i+1) for i = 1..b, shifted so that the smallest x is 0; n = a+b+4
  coins in an (a+b+2)^2 box whose span is the whole box.
  :func:`vdiag` (a, b, target) re-arranges it into a diagonal target of
  that box (V(2,2) -> "nwse" is instances/paper/vee-2-2.toml, 24 moves).
"""

from __future__ import annotations

import random
from typing import Iterable

from .errors import UsageError
from .instance import Instance, make_instance

Coord = tuple[int, int]
TARGETS = ("nwse", "swne")


def diagonal_target(s: int, orientation: str = "swne") -> list[Coord]:
    if s < 3:
        raise UsageError(f"a diagonal target needs a box of side >= 3, not {s}")
    if orientation not in TARGETS:
        raise UsageError(f"target must be one of {', '.join(TARGETS)}, not {orientation!r}")
    m = s // 2
    cells = [(i, i) for i in range(s)] + [(m - 1, m), (m, m - 1)]
    if orientation == "nwse":
        cells = [(x, s - 1 - y) for x, y in cells]
    return sorted(cells)


def v_shape(a: int, b: int) -> list[Coord]:
    if a < 1 or b < 0 or b > a:
        raise UsageError(f"V(a, b) needs a >= 1 and 0 <= b <= a, not ({a}, {b})")
    cells = [(0, 0), (1, 0), (0, 1), (1, 1)]
    cells += [(1 + i, 2 * i) for i in range(1, a + 1)]
    cells += [(-i, 2 * i + 1) for i in range(1, b + 1)]
    return sorted((x + b, y) for x, y in cells)


def vdiag(a: int, b: int, target: str = "nwse") -> Instance:
    """V(a, b) -> the ``target`` diagonal of its (a+b+2)^2 box, extras at the centre."""
    s = a + b + 2
    return make_instance(
        "square", v_shape(a, b), diagonal_target(s, target), name=f"vdiag-{a}-{b}-{target}",
        source="V-to-diagonal family (Lower Bound proof; shared/reference/paper-instances.md §7/10)",
        metadata={"family": "vdiag", "a": a, "b": b, "target": target},
    )


def diagonal_flip(k: int) -> Instance:
    """The k x k diagonal flip: SW-NE diagonal + 2 central extras -> its mirror image."""
    return make_instance(
        "square", diagonal_target(k, "swne"), diagonal_target(k, "nwse"), name=f"diagonal-{k}",
        source="diagonal-flip family (the paper's 'diagonal' puzzle is k = 4)",
        metadata={"family": "diagonal", "k": k},
    )


def random_instance(
    rng: random.Random, kind: str = "square", n_coins: int = 5, side: int = 4,
    labels: Iterable[str] = ("o",), adjacency: int = 2, goal_placement: str = "fixed",
    margin: int = 1,
) -> Instance:
    """Start and goal drawn uniformly among the placements of ``n_coins`` coins in a side x side box."""
    cells = [(x, y) for x in range(side) for y in range(side)]
    if not 1 <= n_coins <= len(cells):
        raise UsageError(f"cannot place {n_coins} coins in a {side}x{side} box")
    labels = list(labels)
    coin_labels = [rng.choice(labels) for _ in range(n_coins)]
    start = dict(zip(rng.sample(cells, n_coins), coin_labels))
    goal_labels = coin_labels[:]
    rng.shuffle(goal_labels)
    goal = dict(zip(rng.sample(cells, n_coins), goal_labels))
    return make_instance(kind, start, goal, adjacency=adjacency, goal_placement=goal_placement,
                         margin=margin, name=f"random-{kind}-{n_coins}")
