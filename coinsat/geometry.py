"""Lattice maths: a lattice is a value — its neighbour vectors, point group, hull forms, metric,
plane projection and picture syntax — registered once by name.

Square grid: ``(x, y)`` with the 4 unit directions.  Triangular grid: axial
``(x, y)`` with neighbours (±1,0), (0,±1), (1,−1), (−1,1), drawn at Cartesian
(x + y/2, y·√3/2).  Cubic grid: ``(x, y, z)`` with the 6 unit directions, and the
d-dimensional hypercubic grid ``hypercubic-<d>`` with its 2d.  Symmetries are
integer matrices acting on coordinates (the point group of the lattice: 8 for the
square grid, 12 for the triangular, 48 for the cubic, 2^d·d! for the hypercubic).

Adding a board is one :class:`Lattice` record passed to :func:`register` (the end of this
module registers square, triangular and cubic): its name (what an instance file's ``board``
says), its directions, generators of its point group, the linear forms that bound its hull
(the box's axes; the triangular hexagon adds x + y), its graph distance (``metric``), where
its points sit in the plane (``plane``: the images of the unit vectors, exact) and how a
picture row reads and writes its cells (:class:`Picture`).  Every other module asks the
record: boards and windows (``board.py``, ``instance.py``), the instance files and text
pictures (``io/``), the drawings (``draw/layout.py``), the symmetries of goal placements and
screens (``theory/``).  A 2-D lattice's boards are windows of it (:data:`LATTICES`); a
lattice in space (cubic) has finite boards, the span of the start, which the engines see as
graphs (``instance.span_board``; ``theory/cubic.py`` is the paper's open problem 3).

Two more sections serve the paper's open problems 2 and 4: the exact slide test
(:func:`free_space`, :func:`slide_connected`: can a disc of diameter 1 travel between two
lattice points among others, in integer arithmetic) and the exact numbers of the free plane
(:class:`Surd`, :func:`tangent_points`).  They sit here, below ``rules.py``, because the one
move validator needs them.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache
from itertools import permutations, product
from typing import Callable, Iterable, TypeVar, cast

Coord = tuple[int, int]  # a cell of the 2-D lattices that boards use
Point = tuple[int, ...]  # a lattice point of any dimension
Matrix = tuple[tuple[int, ...], ...]
P = TypeVar("P", bound=Point)  # the functions below keep the dimension of what they are given


def l1(v: Point) -> int:
    """The graph distance of the vector ``v`` on the (hyper)cubic lattices: its L1 norm."""
    return abs(v[0]) + abs(v[1]) if len(v) == 2 else sum(map(abs, v))


def hexagonal(v: Point) -> int:
    """The graph distance of the axial vector ``v`` on the triangular lattice."""
    dx, dy = v
    return (abs(dx) + abs(dy) + abs(dx + dy)) // 2


@dataclass(frozen=True)
class Picture:
    """How the rows of a text picture hold a 2-D lattice's cells (the instance files, ``coinsat
    show``).  Row y is one line (the last line y = 0), and the cell (x, y) sits at column
    a·x + b·y of it (``column = (a, b)``).  ``packed``: the row is read without its blanks (the
    k-th other character is column k) and written with one blank between cells; otherwise a
    character's column is its position, a column holding no cell (c − b·y not a multiple of a)
    must be blank (``rule`` says so in the error), and ``beyond`` more columns are written past
    the rightmost coin of a file's picture.  ``layers``: the file draws a lattice in space as a
    list of such pictures, the k-th the layer z = k."""

    column: tuple[int, int] = (1, 0)
    packed: bool = True
    rule: str = ""
    beyond: int = 0
    layers: bool = False

    def column_of(self, c: Point) -> int:
        """The column of the cell ``c`` (its first two coordinates) in its row."""
        a, b = self.column
        return a * c[0] + b * c[1]

    def cell_at(self, col: int, y: int) -> Coord | None:
        """The cell at column ``col`` of row ``y`` (None: between cells)."""
        a, b = self.column
        x, off = divmod(col - b * y, a)
        return None if off else (x, y)

    def row(self, y: int, first: int, last: int, char: Callable[[Coord], str]) -> str:
        """Row ``y`` over the columns ``first .. last``: ``char(cell)`` per cell."""
        if self.packed:
            return " ".join(char(cast(Coord, self.cell_at(col, y))) for col in range(first, last + 1))
        out = [" "] * (last - first + 1)
        for col in range(first, last + 1):
            cell = self.cell_at(col, y)
            if cell is not None:
                out[col - first] = char(cell)
        return "".join(out).rstrip()


@dataclass(frozen=True)
class Lattice:
    """One lattice: ``name`` (an instance file's ``board``), ``directions`` (the neighbour
    vectors), ``generators`` of the point group fixing the origin, ``forms`` (linear forms
    whose ranges cut out the hull), ``metric`` (the graph distance of a vector), ``plane``
    (the images of the unit vectors in the plane, exact: where pictures draw a point and where
    a free-plane file's picture puts a coin; None for a lattice in space), ``picture`` (how a
    text picture holds its cells) and ``slides`` (whether ``moves = "slide"`` is defined on it:
    neighbours at distance 1, ``encodings/slides.md``)."""

    name: str
    directions: tuple[Point, ...]
    generators: tuple[Matrix, ...]
    forms: tuple[Point, ...]
    metric: Callable[[Point], int] = l1
    plane: tuple[PlanePoint, ...] | None = None
    picture: Picture | None = None
    slides: bool = False
    _floats: tuple[tuple[float, float], ...] = field(init=False, repr=False, compare=False, hash=False)

    def __post_init__(self) -> None:
        floats = tuple((_float(px), _float(py)) for px, py in self.plane or ())
        object.__setattr__(self, "_floats", floats)

    def __reduce__(self):
        return (lattice, (self.name,))  # one record per name, in every process

    def __hash__(self) -> int:
        return hash(self.name)  # equal records have equal names; a board's hash stays cheap

    @property
    def dimension(self) -> int:
        return len(self.directions[0])

    def point(self, c: Point) -> PlanePoint:
        """The cell's centre in the plane, exactly (unit spacing)."""
        if self.plane is None:
            raise ValueError(f"no plane picture of the {self.name!r} lattice")
        x, y = Surd(Fraction(0)), Surd(Fraction(0))
        for t, (px, py) in zip(c, self.plane):
            x, y = x + Surd(Fraction(t)) * px, y + Surd(Fraction(t)) * py
        return x, y

    def to_plane(self, c: Point) -> tuple[float, float]:
        """The cell's centre in the plane, in floating point (for drawing only)."""
        x, y = 0.0, 0.0
        for t, (px, py) in zip(c, self._floats):
            x, y = x + t * px, y + t * py
        return x, y

    def axes(self, brackets: str = "()") -> str:
        """How errors write a cell's coordinates: ``(x, y)``, ``[x, y, z]``."""
        names = ", ".join("xyz"[i] if self.dimension <= 3 else f"x{i + 1}" for i in range(self.dimension))
        return f"{brackets[0]}{names}{brackets[1]}"

    def point_words(self, brackets: str = "()") -> str:
        """How errors name a cell: ``(x, y) pair``, ``[x, y, z] triple``."""
        return f"{self.axes(brackets)} { ({2: 'pair', 3: 'triple'}.get(self.dimension, 'point')) }"


def _float(v: "Surd") -> float:
    return float(v.a) + float(v.b) * math.sqrt(v.r)


def _units(dim: int) -> tuple[Point, ...]:
    return tuple(tuple(s * (i == k) for k in range(dim)) for i in range(dim) for s in (1, -1))


def _hypercube_group(dim: int) -> tuple[Matrix, ...]:
    """Generators of the hyperoctahedral group: every axis permutation and one sign flip
    (the whole signed-permutation group, which :func:`symmetries` closes)."""
    perms = tuple(
        tuple(tuple(int(p[i] == k) for k in range(dim)) for i in range(dim)) for p in permutations(range(dim))
    )
    flip = tuple(tuple((-1 if i == 0 else 1) * (i == k) for k in range(dim)) for i in range(dim))
    return perms + (flip,)


def hypercubic(dim: int) -> Lattice:
    """The d-dimensional hypercubic lattice Z^d (dim >= 1)."""
    if dim < 1:
        raise ValueError(f"a hypercubic lattice has dimension >= 1, not {dim}")
    return Lattice(f"hypercubic-{dim}", _units(dim), _hypercube_group(dim), _units(dim)[::2])


#: every registered lattice by name (``hypercubic-<d>`` is made on demand by :func:`lattice`)
TABLE: dict[str, Lattice] = {}
#: the lattices whose boards are windows of the plane (2-D); set by :func:`register`
LATTICES: tuple[str, ...] = ()
#: the 2-D lattices on which slides are defined (their Euclidean metric: :func:`norm2`)
SLIDE_LATTICES: tuple[str, ...] = ()
#: the neighbour vectors alone, by name (the hot path of :func:`neighbours`)
DIRECTIONS: dict[str, tuple[Point, ...]] = {}
#: board names that are not lattices
RESERVED = ("graph", "plane")


def register(lat: Lattice) -> Lattice:
    """Make ``lat`` a board: an instance file's ``board = "<name>"``, its windows, pictures and
    drawings, goal placements under its symmetries.  Its record must have a picture syntax, and
    a plane projection when it is 2-D.  Returns ``lat``."""
    global LATTICES, SLIDE_LATTICES
    if lat.name in TABLE or lat.name in RESERVED or lat.name.startswith("hypercubic-"):
        raise ValueError(f"the lattice name {lat.name!r} is taken")
    planar = lat.dimension == 2 and lat.plane is not None
    if lat.picture is None or lat.picture.layers == planar or (lat.picture.layers and lat.dimension != 3):
        raise ValueError(
            f"lattice {lat.name!r}: a board needs a picture syntax: rows and a plane projection in 2-D, layers in 3-D"
        )
    TABLE[lat.name] = lat
    DIRECTIONS[lat.name] = lat.directions
    LATTICES = tuple(n for n, t in TABLE.items() if t.dimension == 2)
    SLIDE_LATTICES = tuple(n for n in LATTICES if TABLE[n].slides)
    return lat


def unregister(name: str) -> None:
    """Forget the lattice ``name`` (a test's own lattice, after the test)."""
    global LATTICES, SLIDE_LATTICES
    TABLE.pop(name)
    DIRECTIONS.pop(name)
    LATTICES = tuple(n for n in LATTICES if n != name)
    SLIDE_LATTICES = tuple(n for n in SLIDE_LATTICES if n != name)


def lattice(name: str) -> Lattice:
    """The lattice called ``name`` (``square``, ``triangular``, ``cubic``, ``hypercubic-<d>``)."""
    if name in TABLE:
        return TABLE[name]
    if name.startswith("hypercubic-") and name[len("hypercubic-") :].isdigit():
        return hypercubic(int(name[len("hypercubic-") :]))
    raise ValueError(f"unknown lattice {name!r}")


def neighbours(name: str, c: P) -> tuple[P, ...]:
    """The cells next to ``c`` on lattice ``name`` (one per direction, in the lattice's order)."""
    dirs = DIRECTIONS[name] if name in DIRECTIONS else lattice(name).directions
    if len(c) == 2:  # the hot path of every 2-D search
        x, y = c
        return cast("tuple[P, ...]", tuple((x + dx, y + dy) for dx, dy in dirs))
    return cast("tuple[P, ...]", tuple(tuple(a + b for a, b in zip(c, v)) for v in dirs))


def distance(name: str, a: Point, b: Point) -> int:
    """Graph distance on the infinite lattice."""
    lat = TABLE[name] if name in TABLE else lattice(name)
    if len(a) == 2:  # the hot path
        return lat.metric((b[0] - a[0], b[1] - a[1]))
    return lat.metric(tuple(q - p for p, q in zip(a, b)))


def apply(m: Matrix, c: P) -> P:
    """The matrix ``m`` applied to the point ``c``."""
    return cast(P, tuple(sum(row[k] * c[k] for k in range(len(c))) for row in m))


def compose(a: Matrix, b: Matrix) -> Matrix:
    """The matrix product a·b (apply b first, then a)."""
    n = len(a)
    return tuple(tuple(sum(a[i][k] * b[k][j] for k in range(n)) for j in range(n)) for i in range(n))


def symmetries(name: str) -> tuple[Matrix, ...]:
    """All lattice symmetries fixing the origin (identity first)."""
    return _group(lattice(name))


@lru_cache(maxsize=None)
def _group(lat: Lattice) -> tuple[Matrix, ...]:
    dim = lat.dimension
    identity: Matrix = tuple(tuple(int(i == k) for k in range(dim)) for i in range(dim))
    group = [identity]
    seen = {identity}
    frontier = [identity]
    while frontier:
        g = frontier.pop()
        for h in lat.generators:
            k = compose(g, h)
            if k not in seen:
                seen.add(k)
                group.append(k)
                frontier.append(k)
    return tuple(group)


def ball(name: str, centre: Iterable[P], radius: int) -> frozenset[P]:
    """All coordinates within lattice distance ``radius`` of the set ``centre``."""
    seen = set(centre)
    frontier = list(seen)
    for _ in range(radius):
        nxt = []
        for c in frontier:
            for n in neighbours(name, c):
                if n not in seen:
                    seen.add(n)
                    nxt.append(n)
        frontier = nxt
    return frozenset(seen)


def hull(name: str, coords: Iterable[P], margin: int = 0) -> frozenset[P]:
    """The lattice hull of ``coords`` grown by ``margin``: the cells on which each of the
    lattice's forms takes a value within the range it takes on ``coords``, ± ``margin``.

    Square (and cubic) grid: the bounding box.  Triangular grid: the bounding hexagon, the
    cells whose x, y and x + y all lie in the ranges spanned by ``coords``.
    """
    lat = lattice(name)
    cs = list(coords)
    dim = lat.dimension
    lows = [min(c[i] for c in cs) - margin for i in range(dim)]
    highs = [max(c[i] for c in cs) + margin for i in range(dim)]
    box = product(*(range(lo, hi + 1) for lo, hi in zip(lows, highs)))
    extra = [f for f in lat.forms if sum(1 for t in f if t) > 1]  # the forms beyond the axes
    if not extra:
        return cast("frozenset[P]", frozenset(box))
    ranges = [(min(_dot(f, c) for c in cs) - margin, max(_dot(f, c) for c in cs) + margin) for f in extra]
    return cast(
        "frozenset[P]", frozenset(p for p in box if all(lo <= _dot(f, p) <= hi for f, (lo, hi) in zip(extra, ranges)))
    )


def _dot(f: Point, c: Point) -> int:
    return sum(a * b for a, b in zip(f, c))


# --- slides: the exact free-space test ---------------------------------------------------------
# Coins are discs of diameter 1 centred on lattice points (adjacent points are 1 apart, so
# neighbouring coins touch).  A coin slides from a to b iff its centre can travel from a to b
# staying at distance >= 1 from every other centre: a and b lie in one component of
# F = plane minus the open unit discs around the other centres.  encodings/slides.md proves the
# criterion used here: build the *blocking graph* (centres closer than 2, i.e. squared distance
# < 4); a and b are in one component of F iff every cycle of that graph, drawn with straight
# segments, winds around a and b with the same parity.  Parities are sums over edges of "the ray
# from the point in the +x direction crosses the edge", computed in integer lattice coordinates
# (an affine image of the plane keeps every crossing), so the test is exact.


def norm2(name: str, v: Coord) -> int:
    """Squared Euclidean length of the lattice vector ``v`` in units of the lattice spacing (the
    lattice's plane projection: x² + xy + y² on the triangular grid)."""
    if name not in SLIDE_LATTICES:
        raise ValueError(f"slides are defined on {', '.join(SLIDE_LATTICES)}, not on {name!r}")
    length = dist2(plane_point(0, 0), TABLE[name].point(v))
    return int(length.a)  # an integer: the vectors of a slide lattice have integer squared lengths


@lru_cache(maxsize=None)
def blocking_offsets(name: str) -> tuple[Coord, ...]:
    """The vectors v with 0 < |v| < 2: two coins this far apart leave no room between them."""
    return tuple((x, y) for x in range(-2, 3) for y in range(-2, 3) if 0 < norm2(name, (x, y)) < 4)


def _crosses(p: Coord, a: Coord, b: Coord) -> bool:
    """The ray {p + t(1, 0): t > 0} crosses segment ab (half-open in y, so that summing over
    a closed polygon not through p gives its winding number mod 2)."""
    (px, py), (ax, ay), (bx, by) = p, a, b
    if (ay > py) == (by > py):
        return False
    dy = by - ay  # nonzero here; p < crossing x  <=>  (px - ax) dy < (py - ay)(bx - ax), sign of dy flips it
    lhs, rhs = (px - ax) * dy, (py - ay) * (bx - ax)
    return lhs < rhs if dy > 0 else lhs > rhs


@dataclass(frozen=True)
class FreeSpace:
    """The plane minus the open unit discs around ``centres``: the blocking forest (``order``:
    each centre after its parent, None for roots) and the blocking edges outside it (``extra``,
    one independent cycle each).  :meth:`signature` names a free point's component."""

    order: tuple[tuple[Coord, Coord | None], ...]
    extra: tuple[tuple[Coord, Coord], ...]

    @property
    def connected(self) -> bool:
        """No blocking cycle: every free point reaches every other."""
        return not self.extra

    def signature(self, p: Coord) -> int:
        """Bit k: the winding parity around ``p`` of the k-th fundamental cycle.  Two free
        points share a component iff their signatures are equal (encodings/slides.md)."""
        if not self.extra:
            return 0
        phi: dict[Coord, bool] = {}
        for v, parent in self.order:
            phi[v] = False if parent is None else phi[parent] ^ _crosses(p, parent, v)
        sig = 0
        for k, (u, v) in enumerate(self.extra):
            if phi[u] ^ phi[v] ^ _crosses(p, u, v):
                sig |= 1 << k
        return sig


def free_space(name: str, centres: Iterable[Coord]) -> FreeSpace:
    """The :class:`FreeSpace` of unit-diameter coins on the lattice points ``centres``."""
    cs = set(centres)
    offsets = blocking_offsets(name)
    order: list[tuple[Coord, Coord | None]] = []
    extra: list[tuple[Coord, Coord]] = []
    parent: dict[Coord, Coord | None] = {}
    for root in sorted(cs):
        if root in parent:
            continue
        parent[root] = None
        order.append((root, None))
        queue = [root]
        for u in queue:
            for dx, dy in offsets:
                v = (u[0] + dx, u[1] + dy)
                if v not in cs:
                    continue
                if v not in parent:
                    parent[v] = u
                    order.append((v, u))
                    queue.append(v)
                elif u < v and parent[v] != u and parent[u] != v:
                    extra.append((u, v))
    return FreeSpace(tuple(order), tuple(extra))


def slide_connected(name: str, centres: Iterable[Coord], a: Coord, b: Coord) -> bool:
    """A coin centred at lattice point ``a`` can slide to ``b`` among coins on ``centres``
    (neither a nor b among them)."""
    space = free_space(name, centres)
    return space.connected or space.signature(a) == space.signature(b)


# --- the free plane: exact numbers --------------------------------------------------------------
# Coins anywhere in the plane (the paper's open problem 4).  A placed coin touches two others, so
# its centre is a tangent point of two centres P, Q at distance delta <= 2:
#     X = (P + Q)/2 ± t · rot90(Q − P),   t = sqrt((4 − delta²) / (4 delta²)).
# From lattice starts and rationally placed goals, every such point has coordinates a + b·√r with
# a, b rational and r a squarefree integer, the same r for both coordinates.  :class:`Surd` is that
# number, exactly; mixing two different radicals raises :class:`FieldError` (never a rounding).


class FieldError(ArithmeticError):
    """A result outside the quadratic fields Q(√r) that :class:`Surd` represents."""


def squarefree(n: int) -> tuple[int, int]:
    """n = s² · r with r squarefree: (s, r), for n >= 1."""
    s, r, k = 1, n, 2
    while k * k <= r:
        while r % (k * k) == 0:
            r //= k * k
            s *= k
        k += 1
    return s, r


@dataclass(frozen=True, order=True)
class Surd:
    """The real number a + b·√r (a, b rational; r squarefree >= 2, or r = 1 and b = 0)."""

    a: Fraction
    b: Fraction = Fraction(0)
    r: int = 1

    def __post_init__(self) -> None:
        object.__setattr__(self, "a", Fraction(self.a))
        object.__setattr__(self, "b", Fraction(self.b))
        if self.b == 0 or self.r == 1:
            if self.r == 1 and self.b != 0:  # b·√1 is rational
                object.__setattr__(self, "a", self.a + self.b)
            object.__setattr__(self, "b", Fraction(0))
            object.__setattr__(self, "r", 1)

    def _radical(self, other: "Surd") -> int:
        if self.r == 1 or other.r == 1 or self.r == other.r:
            return max(self.r, other.r)
        raise FieldError(f"√{self.r} and √{other.r} in one number")

    def __add__(self, other: "Surd") -> "Surd":
        return Surd(self.a + other.a, self.b + other.b, self._radical(other))

    def __sub__(self, other: "Surd") -> "Surd":
        return Surd(self.a - other.a, self.b - other.b, self._radical(other))

    def __neg__(self) -> "Surd":
        return Surd(-self.a, -self.b, self.r)

    def __mul__(self, other: "Surd") -> "Surd":
        r = self._radical(other)
        return Surd(self.a * other.a + self.b * other.b * r, self.a * other.b + self.b * other.a, r)

    def sign(self) -> int:
        """-1, 0 or 1, exactly: compare a with -b·√r by squaring."""
        sa = (self.a > 0) - (self.a < 0)
        sb = (self.b > 0) - (self.b < 0)
        if sb == 0 or sa == sb:
            return sa or sb
        if sa == 0:
            return sb
        big = self.a * self.a - self.b * self.b * self.r  # > 0: a dominates
        return sa if big > 0 else (sb if big < 0 else 0)

    def sqrt(self) -> "Surd":
        """The non-negative square root, if it lies in Q(√r) (or is s·√r' of a rational); else FieldError."""
        if self.sign() < 0:
            raise FieldError("square root of a negative number")
        if self.b == 0:
            return _rational_sqrt(self.a)
        # (x + y√r)² = a + b√r: x² + r y² = a, 2xy = b; x² solves X² − aX + r b²/4 = 0
        disc = self.a * self.a - self.r * self.b * self.b
        root = _exact_fraction_sqrt(disc)
        for x2 in ((self.a + root) / 2, (self.a - root) / 2) if root is not None else ():
            x = _exact_fraction_sqrt(x2) if x2 > 0 else None
            if x:
                cand = Surd(x, self.b / (2 * x), self.r)
                if cand * cand == self:
                    return cand if cand.sign() >= 0 else -cand
        raise FieldError(f"√({self}) is not in Q(√{self.r})")

    def __str__(self) -> str:
        return str(self.a) if self.b == 0 else f"{self.a} + {self.b}·√{self.r}"


def _exact_fraction_sqrt(q: Fraction) -> Fraction | None:
    if q < 0:
        return None
    n, d = math.isqrt(q.numerator), math.isqrt(q.denominator)
    return Fraction(n, d) if n * n == q.numerator and d * d == q.denominator else None


def _rational_sqrt(q: Fraction) -> Surd:
    """√q for a rational q >= 0 as s·√r."""
    if q == 0:
        return Surd(Fraction(0))
    num, den = q.numerator * q.denominator, q.denominator  # √(n/d) = √(n·d)/d
    s, r = squarefree(num)
    return Surd(Fraction(0), Fraction(s, den), r) if r != 1 else Surd(Fraction(s, den))


PlanePoint = tuple[Surd, Surd]


def plane_point(x: int | Fraction | Surd, y: int | Fraction | Surd) -> PlanePoint:
    """A point of the plane with exact coordinates (integers and fractions become ``Surd``)."""
    return (x if isinstance(x, Surd) else Surd(Fraction(x)), y if isinstance(y, Surd) else Surd(Fraction(y)))


def lattice_point(name: str, c: Coord) -> PlanePoint:
    """A lattice cell's centre in the plane (unit spacing; triangular rows at height √3/2)."""
    if name not in TABLE:
        raise ValueError(f"no plane picture of the {name!r} lattice")
    return TABLE[name].point(c)


def dist2(p: PlanePoint, q: PlanePoint) -> Surd:
    """The squared distance between two plane points, exactly."""
    dx, dy = q[0] - p[0], q[1] - p[1]
    return dx * dx + dy * dy


ONE, FOUR = Surd(Fraction(1)), Surd(Fraction(4))


def tangent_points(p: PlanePoint, q: PlanePoint) -> tuple[PlanePoint, ...]:
    """The centres at distance exactly 1 from both p and q (none if |pq| > 2, one if = 2);
    FieldError if they are not representable."""
    d2 = dist2(p, q)
    gap = (FOUR - d2).sign()
    if gap < 0 or d2.sign() == 0:
        return ()
    half = Surd(Fraction(1, 2))
    mx, my = (p[0] + q[0]) * half, (p[1] + q[1]) * half
    if gap == 0:
        return ((mx, my),)
    # t² = (4 − δ²)/(4δ²): divide by the conjugate to keep one radical
    num, den = FOUR - d2, FOUR * d2
    conj = Surd(den.a, -den.b, den.r)
    norm = (den * conj).a  # rational
    t = (num * conj * Surd(1 / norm)).sqrt()
    vx, vy = -(q[1] - p[1]), q[0] - p[0]
    return ((mx + t * vx, my + t * vy), (mx - t * vx, my - t * vy))


# --- the lattices of the boards -----------------------------------------------------------------
# One record each, registered once: an instance file's `board = "<name>"` reads it.

_HALF, _ROOT3_HALF = Surd(Fraction(1, 2)), Surd(Fraction(0), Fraction(1, 2), 3)
_ONE, _ZERO = Surd(Fraction(1)), Surd(Fraction(0))

SQUARE = register(
    Lattice(
        "square",
        ((1, 0), (-1, 0), (0, 1), (0, -1)),
        # a rotation of order 4 and a reflection
        (((0, -1), (1, 0)), ((1, 0), (0, -1))),
        ((1, 0), (0, 1)),
        plane=((_ONE, _ZERO), (_ZERO, _ONE)),
        picture=Picture(),  # one character per cell, blank-separated
        slides=True,
    )
)
TRIANGULAR = register(
    Lattice(
        "triangular",
        ((1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1)),
        # axial rotation by 60 degrees: (x, y) -> (-y, x + y); reflection swaps the axes
        (((0, -1), (1, 1)), ((0, 1), (1, 0))),
        ((1, 0), (0, 1), (1, 1)),
        metric=hexagonal,
        plane=((_ONE, _ZERO), (_HALF, _ROOT3_HALF)),
        # row y shifted right by y characters: cell x at column 2x + y
        picture=Picture(column=(2, 1), packed=False, rule="c - y must be even", beyond=1),
        slides=True,
    )
)
#: the cubic lattice (the paper's open problem 3): a file draws it layer by layer, z = 0, 1, ...
CUBIC = register(Lattice("cubic", _units(3), _hypercube_group(3), _units(3)[::2], picture=Picture(layers=True)))
