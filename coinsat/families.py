"""Instance generators: the V-to-diagonal family, diagonal flips, random puzzles.

The families are on the square grid, coordinates (x, y) with y up; the random
generators cover both lattices (:func:`random_instance` for the engines'
cross-checks, :func:`random_theorem1` / :func:`random_theorem2` for the studies of
the paper's constructions, kept draw for draw as the studies first used them).

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
from .theory.span import lattice_span
from .theory.square import hypothesis

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
        "square",
        v_shape(a, b),
        diagonal_target(s, target),
        name=f"vdiag-{a}-{b}-{target}",
        source="V-to-diagonal family (Lower Bound proof; shared/reference/paper-instances.md §7/10)",
        metadata={"family": "vdiag", "a": a, "b": b, "target": target},
    )


def diagonal_flip(k: int) -> Instance:
    """The k x k diagonal flip: SW-NE diagonal + 2 central extras -> its mirror image."""
    return make_instance(
        "square",
        diagonal_target(k, "swne"),
        diagonal_target(k, "nwse"),
        name=f"diagonal-{k}",
        source="diagonal-flip family (the paper's 'diagonal' puzzle is k = 4)",
        metadata={"family": "diagonal", "k": k},
    )


def random_instance(
    rng: random.Random,
    kind: str = "square",
    n_coins: int = 5,
    side: int = 4,
    labels: Iterable[str] = ("o",),
    adjacency: int = 2,
    goal_placement: str = "fixed",
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
    return make_instance(
        kind,
        start,
        goal,
        adjacency=adjacency,
        goal_placement=goal_placement,
        margin=margin,
        name=f"random-{kind}-{n_coins}",
    )


# --- random puzzles for the studies of Theorems 1 and 2 ----------------------------------

RING = ((1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1), (1, -1))


def _hexagon(r, cx=0, cy=0):
    return [(x + cx, y + cy) for x in range(-r, r + 1) for y in range(-r, r + 1) if abs(x + y) <= r]


def _labels(rng, n):
    scheme = rng.choice(("o", "o", "AB", "full"))
    if scheme == "o":
        return ["o"] * n
    if scheme == "AB":
        return [rng.choice("AB") for _ in range(n)]
    return [f"c{i}" for i in range(n)]


def _sparse(rng, n, planted):
    """``planted`` plus isolated coins (pairwise at distance >= 2): goals without triangles."""
    cells = set(planted)
    r = 2 + 2 * int(n**0.5)
    for _ in range(20000):
        if len(cells) >= n:
            break
        p = (rng.randint(-r, r), rng.randint(-r, r))
        if p not in cells and all((p[0] + dx, p[1] + dy) not in cells for dx, dy in RING):
            cells.add(p)
    return list(cells)[:n] if len(cells) >= n else None


PLANTS = (
    [(0, 0), (1, 0), (2, 0), (3, 0)],
    [(0, 0), (1, 0), (2, 0), (6, 0), (7, 0)],
    [(0, 0), (1, 0), (0, 1)],
    [(0, 0), (1, 0), (1, 1), (1, 2)],
)


def random_theorem1(rng: random.Random, n_max: int, n_min: int = 3) -> Instance | None:
    """A random triangular instance (dense, or with a sparse goal that has no triangle), labeled
    or not; None when a draw fails.  For the study of Theorem 1's construction."""
    n = rng.randint(n_min, n_max)
    if rng.random() < 0.7:
        r = max(2, int((n * rng.uniform(1.2, 3.5)) ** 0.5))
        a = rng.sample(_hexagon(r), n)
        b = rng.sample(_hexagon(r, rng.randint(-3, 3), rng.randint(-3, 3)), n)
    else:
        a = _sparse(rng, n, [(x + 1, y - 2) for x, y in rng.choice(PLANTS)])
        b = _sparse(rng, n, rng.choice(PLANTS))
        if a is None or b is None or len(a) != n or len(b) != n:
            return None
    labels = _labels(rng, n)
    goal_labels = labels[:]
    rng.shuffle(goal_labels)
    return make_instance("triangular", dict(zip(a, labels)), dict(zip(b, goal_labels)), name="random")


STEPS = ((2, 0), (0, 2), (-2, 0), (0, -2), (1, 1), (1, -1), (-1, 1), (-1, -1))
SIDES = ((1, 0), (-1, 0), (0, 1), (0, -1))


def _chain_with_extras(rng, n):
    """n - 2 coins grown by steps of length 2 (a sparse, nearly span-minimal set) plus two
    coins dropped next to two others: the hypothesis' extra coins."""
    cells = [(0, 0)]
    for _ in range(1000):
        if len(cells) >= n - 2:
            break
        p = rng.choice(cells)
        dx, dy = rng.choice(STEPS)
        q = (p[0] + dx, p[1] + dy)
        if all(abs(q[0] - c[0]) + abs(q[1] - c[1]) >= 2 for c in cells):
            cells.append(q)
    for _ in range(2):
        cand = sorted({(c[0] + dx, c[1] + dy) for c in cells for dx, dy in SIDES} - set(cells))
        cand = [q for q in cand if sum((q[0] + dx, q[1] + dy) in cells for dx, dy in SIDES) >= 2]
        if not cand:
            return None
        cells.append(rng.choice(cand))
    return cells if len(cells) == n else None


def random_theorem2(rng: random.Random, n_max: int) -> Instance | None:
    """A random square instance kept when Theorem 2's hypothesis holds: half dense (A random
    in a box, B random in span(A)), half sparse (A a chain of coins two apart plus two extra
    coins; B the same kind of set moved into span(A), or random in span(A))."""
    n = rng.randint(4, n_max)
    if rng.random() < 0.5:
        w, h = rng.randint(2, 6), rng.randint(2, 6)
        cells = [(x, y) for x in range(w) for y in range(h)]
        if len(cells) < n + 1:
            return None
        a = rng.sample(cells, n)
    else:
        a = _chain_with_extras(rng, n)
        if a is None:
            return None
    span = sorted(lattice_span("square", a, 2))
    if len(span) < n:
        return None
    b = _chain_with_extras(rng, n) if rng.random() < 0.3 else rng.sample(span, n)
    if b is None:
        return None
    if not set(b) <= set(span):
        dx = min(p[0] for p in span) - min(p[0] for p in b)
        dy = min(p[1] for p in span) - min(p[1] for p in b)
        b = [(x + dx, y + dy) for x, y in b]
        if not set(b) <= set(span):
            return None
    inst = make_instance("square", a, b, name="random")
    return inst if hypothesis(inst) is not None else None  # None also when a draw fails
