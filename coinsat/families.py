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
  in ``instances/paper/REFERENCE.md`` §7/10 — vertex
  {(0,0),(1,0),(0,1),(1,1)}, right arm (1+i, 2i) for i = 1..a, left arm
  (-i, 2i+1) for i = 1..b, shifted so that the smallest x is 0; n = a+b+4
  coins in an (a+b+2)^2 box whose span is the whole box.
  :func:`vdiag` (a, b, target) re-arranges it into a diagonal target of
  that box (V(2,2) -> "nwse" is instances/paper/vee-2-2.toml, 24 moves).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Iterable

from . import geometry
from .board import BoardKind
from .errors import UsageError
from .instance import Instance, make_instance
from .rules import apply_move, legal_moves
from .theory.span import lattice_span
from .theory.square import hypothesis

Coord = tuple[int, int]
TARGETS = ("nwse", "swne")


def diagonal_target(s: int, orientation: str = "swne") -> list[Coord]:
    """The diagonal target of box side ``s`` (``s`` cells on the diagonal and two beside its middle),
    in orientation ``orientation`` (one of :data:`TARGETS`); a UsageError for ``s < 3``."""
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
    """The cells of the V shape V(a, b): a 2x2 square with two arms rising from it, ``a`` coins to the
    right and ``b`` to the left (``a >= 1``, ``0 <= b <= a``; a UsageError otherwise)."""
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
        source="V-to-diagonal family (Lower Bound proof; instances/paper/REFERENCE.md §7/10)",
        metadata={"family": "vdiag", "a": a, "b": b, "target": target},
    )


CORNERS = ("TR", "TL", "BL", "BR")


def pinwheel_shape(m: int, order: Iterable[str] = CORNERS) -> list[Coord]:
    """The 2x2 block plus m coins, coin j diagonally off corner ``order[j % len(order)]`` of the
    bounding box of the block and the coins before it; shifted so that the smallest x and y are
    0.  The box is a square of side m + 2 whose span is the whole box.  With ``order`` ("TR",
    "TL") it is the V: ``pinwheel_shape(2a - o, ("TR", "TL")) == v_shape(a, a - o)``."""
    order = tuple(order)
    if m < 0:
        raise UsageError(f"a pinwheel needs m >= 0 coins around its block, not {m}")
    if not order or any(c not in CORNERS for c in order):
        raise UsageError(f"pinwheel corners must be among {', '.join(CORNERS)}, not {order!r}")
    cells = [(0, 0), (1, 0), (0, 1), (1, 1)]
    x0, y0, x1, y1 = 0, 0, 1, 1
    for j in range(m):
        corner = order[j % len(order)]
        p = (x1 + 1 if corner[1] == "R" else x0 - 1, y1 + 1 if corner[0] == "T" else y0 - 1)
        cells.append(p)
        x0, y0, x1, y1 = min(x0, p[0]), min(y0, p[1]), max(x1, p[0]), max(y1, p[1])
    return sorted((x - x0, y - y0) for x, y in cells)


def pinwheel(m: int, target: str = "nwse", order: Iterable[str] = CORNERS) -> Instance:
    """The pinwheel: :func:`pinwheel_shape` -> the ``target`` diagonal of its
    (m+2)^2 box with the extras at the centre, as :func:`vdiag` builds it.  Its coins cycle
    through all four corners, so no Γ chain touches the corner the next coin needs at every
    step (docs/v-to-diagonal.md, 'The pinwheel')."""
    order = tuple(order)
    cells = pinwheel_shape(m, order)
    tag = "" if order == CORNERS else "-" + "".join(c.lower() for c in order)
    return make_instance(
        "square",
        cells,
        diagonal_target(m + 2, target),
        name=f"pinwheel-{m}-{target}{tag}",
        source="pinwheel family: isolated coins off the four corners in turn (docs/v-to-diagonal.md)",
        metadata={"family": "pinwheel", "m": m, "target": target, "order": ",".join(order)},
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


def insert_row_column(cells: Iterable[Coord], row: int, column: int) -> list[Coord]:
    """``cells`` with an empty row inserted at height ``row`` and an empty column at x = ``column``:
    cells with y >= row move up one, those with x >= column right one (the rule docs/worst-case.md
    measures on the census's hardest starts)."""
    return sorted((x + (x >= column), y + (y >= row)) for x, y in cells)


HARDEST_5 = ((0, 0), (1, 0), (1, 3), (3, 2), (4, 2), (3, 4), (4, 3))


def hardest_shape(k: int) -> list[Coord]:
    """The start of ``hardest(k)``: a span-critical chain in the k x k box (docs/worst-case.md).

    For k >= 6, with y_low = 2 for even k and 1 for odd k:

    * the SW domino (0, 0), (1, 0);
    * the NE pair (k-2, k-1), (k-1, k-2), diagonal neighbours at the NE corner;
    * the right arm: (k-1, y) for y = k-4, k-6, ..., y_low (every other cell of the right edge);
    * the bottom pair (k-3, y_low), (k-4, y_low) and the top coin (k-5, k-1);
    * the bridge: (x, y_low) for x = k-7, k-9, ... down to 1 (even k) or 2 (odd k).

    That is n = k + 2 coins, and each coin but the domino widens the span rectangle grown from
    the NE corner by one or two rows or columns, just enough for it to reach the domino.  k = 5
    is too small for the top coin's gap of three; its member is the 5 x 5 census's hardest start
    of that shape (NE pair, a coin two below it, one left, the domino).
    """
    if k < 5:
        raise UsageError(f"hardest(k) needs k >= 5, not {k}")
    if k == 5:
        return sorted(HARDEST_5)
    y_low = 2 if k % 2 == 0 else 1
    cells = [(0, 0), (1, 0), (k - 2, k - 1), (k - 1, k - 2)]
    cells += [(k - 1, y) for y in range(k - 4, y_low - 1, -2)]
    cells += [(k - 3, y_low), (k - 4, y_low), (k - 5, k - 1)]
    cells += [(x, y_low) for x in range(k - 7, 3 - y_low - 1, -2)]
    assert len(cells) == k + 2 == len(set(cells)), (k, cells)
    return sorted(cells)


def hardest(k: int) -> Instance:
    """:func:`hardest_shape` (k) -> the NW-SE diagonal of the k x k box (the flip's goal)."""
    return make_instance(
        "square",
        hardest_shape(k),
        diagonal_target(k, "nwse"),
        name=f"hardest-{k}",
        source="hardest family: the census's hardest starts of the diagonal goal, generalised (docs/worst-case.md)",
        metadata={"family": "hardest", "k": k},
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


# --- the cross-check's random instances (lab.agreement, scripts/crosscheck.py) -----------
#
# **Instances** (``random_case(seed)``, one seed one instance, reproducible): square,
# triangular and graph boards; unlabeled coins or two labels; d = 1, 2, 3; goal
# placements fixed, translate, congruent (graphs: fixed); the goal either random
# cells of the frame (often unsolvable) or the end of a random walk of 3 to 10
# legal moves from the start (solvable, with longer optima).  Each comes with a
# horizon T (every engine runs with ``max_moves=T``); a walk's goal gets T >= the
# walk's length, so its optimum is within reach.  Lattice windows that are not
# exact (triangular grid; square grid with d = 1) get ``margin = min(T, 6)``
# (exact for the horizon up to 6; larger windows make ILP slow) in 60 % of the
# cases and a margin of 1 or 2 otherwise, so that answers scoped to the window
# occur.

MAX_WALK = 10  # longest random walk towards a goal
MAX_EXACT_MARGIN = 3  # a larger margin makes windows of hundreds of cells (ILP: seconds per instance)


@dataclass(frozen=True)
class Case:
    """One random instance, the horizon it is solved with, and where its goal came from."""

    seed: int
    instance: Instance
    horizon: int
    goal_source: str  # "walk" (reached by legal moves) | "random" (random cells)

    @property
    def category(self) -> tuple[str, str, str, str, str]:
        inst = self.instance
        labels = "labeled" if inst.start.is_labeled else "unlabeled"
        return (inst.board.kind, labels, f"d={inst.d}", inst.goal_placement, self.goal_source)


def random_case(seed: int) -> Case:
    """The instance of ``seed`` (the same on every machine: only ``random.Random(seed)``)."""
    rng = random.Random(seed)
    kind = rng.choice((BoardKind.SQUARE, BoardKind.SQUARE, BoardKind.TRIANGULAR, BoardKind.TRIANGULAR, BoardKind.GRAPH))
    d = rng.choice((1, 2, 2, 3))
    labeled = rng.random() < 0.4
    placement = "fixed" if kind is BoardKind.GRAPH else rng.choice(("fixed", "fixed", "translate", "congruent"))
    if kind is BoardKind.GRAPH:
        cells, edges = _random_graph(rng)
    else:
        w, h = (rng.randint(3, 5), rng.randint(2, 4)) if kind is BoardKind.SQUARE else (rng.randint(3, 4), 2)
        cells, edges = [(x, y) for x in range(w) for y in range(h)], None
    n = rng.randint(d + 1, min(6 if d > 1 else 4, len(cells) - 1))  # < d + 1 coins never move
    start_cells = _cluster(rng, kind, cells, edges, n) if rng.random() < 0.8 else rng.sample(cells, n)
    labels = [rng.choice("AB") if labeled else "o" for _ in range(n)]
    start = dict(zip(start_cells, labels))
    wanted_walk = rng.randint(3, MAX_WALK) if rng.random() < 0.6 else 0
    horizon = rng.randint(2, 7) if not wanted_walk else 0
    margin_exact = rng.random() < 0.6
    small_margin = rng.randint(1, 2)
    goal, walked = start, 0
    if wanted_walk:
        walk_margin = min(wanted_walk, MAX_EXACT_MARGIN) if margin_exact else small_margin
        goal, walked = _walk(rng, kind, start, d, edges, cells, walk_margin, wanted_walk)
    source = "walk" if walked else "random"
    if walked:
        horizon = max(2, walked + rng.randint(0, 2))
    else:
        horizon = horizon or rng.randint(2, 7)
        goal_cells = rng.sample(cells, n)
        goal = dict(zip(goal_cells, rng.sample(labels, n)))
    margin = min(horizon, MAX_EXACT_MARGIN) if margin_exact else small_margin
    inst = make_instance(
        kind,
        start,
        goal,
        adjacency=d,
        goal_placement=placement,
        edges=edges,
        cells=cells if kind is BoardKind.GRAPH else None,
        margin=margin,
        name=f"crosscheck-{seed}",
    )
    return Case(seed, inst, horizon, source)


def _random_graph(rng: random.Random):
    n = rng.randint(5, 8)
    cells = list(range(n))
    pairs = [(u, v) for u in cells for v in cells if u < v]
    order = cells[:]
    rng.shuffle(order)
    edges = {tuple(sorted((order[i], order[i + 1]))) for i in range(n - 1)}  # a spanning path
    edges |= set(rng.sample(pairs, rng.randint(1, n)))
    return cells, sorted(edges)


def _cluster(rng: random.Random, kind: BoardKind, cells, edges, n: int) -> list:
    """``n`` cells grown from a random one by adding random neighbours (coins that touch
    can usually move; scattered ones often cannot)."""
    if kind is BoardKind.GRAPH:
        adj: dict = {c: set() for c in cells}
        for u, v in edges:
            adj[u].add(v)
            adj[v].add(u)
        nbrs = adj.__getitem__
    else:
        on = set(cells)
        nbrs = lambda c: {q for q in geometry.neighbours(kind, c) if q in on}  # noqa: E731
    chosen = [rng.choice(cells)]
    while len(chosen) < n:
        rim = sorted({q for c in chosen for q in nbrs(c)} - set(chosen))
        chosen.append(rng.choice(rim or sorted(set(cells) - set(chosen))))
    return chosen


def _walk(rng, kind: BoardKind, start, d, edges, cells, margin, steps) -> tuple[dict, int]:
    """The coordinates after up to ``steps`` random legal moves from ``start``, and how many
    were made.  The walk never revisits a configuration nor moves the same coin twice in a
    row; it stays in the window of the start, which the instance's window contains.  Half
    the walks only take the moves that leave the most coins off their start cells, which
    makes goals with longer optima (a purely random walk mostly undoes itself)."""
    inst = make_instance(
        kind, start, start, adjacency=d, edges=edges, cells=cells if kind is BoardKind.GRAPH else None, margin=margin
    )
    config, seen, last, made = inst.start, {inst.start}, None, 0
    home, away = set(inst.start.coins), rng.random() < 0.5
    for _ in range(steps):
        nexts = [
            (m.dst, apply_move(inst.board, config, m, d)) for m in legal_moves(inst.board, config, d) if m.src != last
        ]
        nexts = [(p, c) for p, c in nexts if c not in seen]
        if not nexts:
            break
        if away:  # keep only the moves that leave the most coins off their start cells
            far = max(len(set(c.coins) - home) for _, c in nexts)
            nexts = [(p, c) for p, c in nexts if len(set(c.coins) - home) == far]
        last, config = rng.choice(nexts)
        seen.add(config)
        made += 1
    return {inst.board.coords[c]: lab for c, lab in config.coins}, made
