"""The free plane (the paper's open problem 4): unit discs anywhere, exact shortest solutions.

A coin is a disc of diameter 1; a move puts a coin where it touches >= d others and overlaps
none (``rules.check_plane_move``, the one validator).  Positions are exact
(``geometry.Surd``: a + b·√r); every candidate destination is a tangent point of two coins
(``geometry.tangent_points``), since touching two coins pins the centre to one of two points.

**Goal placements.**  ``congruent`` goals may sit anywhere, rotated and reflected; ``translate``
goals anywhere without turning (one common point fixes them, so n − L >= 1 suffices there).  A solution
with L moves moves at most L coins, so at least n − L coins never move: they lie in the start
*and* in the final placement G of the goal.  When n − L >= 2, two of them fix G up to the
reflection: G maps goal points g1, g2 onto start points s1, s2 with |g1 g2| = |s1 s2|.
:func:`placements` lists every such G with >= k common points (the rotation has exact cosine
and sine u·v/|u|², u×v/|u|²).  So "no solution with <= L moves" is proven by searching only
the placements with >= n − L common points, each with a fixed goal.

**Search** (:func:`search`): depth-first iterative deepening per placement, with the
admissible bound h = |C \\ G| (a move puts at most one coin onto G).  A move to a point outside
G is tried only while the bound leaves room (slack L − g − h > 0 after it), so with little
slack only goal points are tried.  ``complete=True`` (proofs) lets a :class:`FieldError`
(a position outside the exact arithmetic) stop the search with an error instead of skipping the
position; ``complete=False`` (finding solutions) skips it — a found solution is still replayed
exactly by :func:`verify`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache
from itertools import permutations
from typing import Iterable

from ..errors import InternalError, LimitReached
from ..geometry import FieldError, PlanePoint, Surd, dist2, tangent_points
from ..limits import poll
from ..rules import check_plane_move

Coins = frozenset[PlanePoint]
PlaneMove = tuple[PlanePoint, PlanePoint]


@dataclass(frozen=True)
class PlanePuzzle:
    """Start and goal as exact points; ``goal_placement`` is "fixed", "translate" or "congruent"."""

    name: str
    start: Coins
    goal: Coins
    adjacency: int = 2
    goal_placement: str = "congruent"
    source: str = ""
    metadata: tuple = field(default=())

    @property
    def n(self) -> int:
        return len(self.start)


def _rotations(u: PlanePoint, v: PlanePoint) -> tuple[Surd, Surd]:
    """(cos, sin) of the rotation taking vector u to vector v (equal lengths), exactly."""
    L = u[0] * u[0] + u[1] * u[1]
    inv = _inverse(L)
    return (u[0] * v[0] + u[1] * v[1]) * inv, (u[0] * v[1] - u[1] * v[0]) * inv


def _inverse(x: Surd) -> Surd:
    conj = Surd(x.a, -x.b, x.r)
    norm = (x * conj).a
    return conj * Surd(1 / norm)


def placements(puzzle: PlanePuzzle, min_common: int, against: Coins | None = None) -> list[Coins]:
    """Every placement G of the goal with >= ``min_common`` points in common with ``against``
    (default: the start; complete for min_common >= 2, module docstring).  Fixed goals: the goal."""
    base = puzzle.start if against is None else against
    if puzzle.goal_placement == "fixed":
        return [puzzle.goal] if len(puzzle.goal & base) >= min_common else []
    if puzzle.goal_placement == "translate":
        if min_common < 1:
            raise ValueError("translates with no point in common are infinitely many")
        shifted = {
            frozenset((x + s[0] - g[0], y + s[1] - g[1]) for x, y in puzzle.goal) for g in puzzle.goal for s in base
        }
        return sorted((t for t in shifted if len(t & base) >= min_common), key=sorted)
    if min_common < 2:
        raise ValueError("placements with fewer than two points in common are infinitely many")
    return sorted((g for g in _placements(puzzle.goal, base) if len(g & base) >= min_common), key=sorted)


@lru_cache(maxsize=64)
def _placements(goal: Coins, base: Coins) -> frozenset[Coins]:
    """Every image of ``goal`` under a rigid motion taking two of its points onto two of ``base``."""
    found: set[Coins] = set()
    minus = Surd(Fraction(-1))
    for mirror in (False, True):
        shape = [(x, y * minus) if mirror else (x, y) for x, y in sorted(goal)]
        for g1, g2 in permutations(shape, 2):
            u = (g2[0] - g1[0], g2[1] - g1[1])
            for s1, s2 in permutations(sorted(base), 2):
                if dist2(s1, s2) != dist2(g1, g2):
                    continue
                c, s = _rotations(u, (s2[0] - s1[0], s2[1] - s1[1]))
                found.add(
                    frozenset(
                        (s1[0] + c * (x - g1[0]) - s * (y - g1[1]), s1[1] + s * (x - g1[0]) + c * (y - g1[1]))
                        for x, y in shape
                    )
                )
    return frozenset(found)


def is_goal(puzzle: PlanePuzzle, coins: Coins) -> bool:
    """Whether ``coins`` are the goal (the goal itself, or any placement of it when it floats)."""
    if puzzle.goal_placement == "fixed":
        return coins == puzzle.goal
    return coins in placements(puzzle, puzzle.n, against=coins)


def destinations(coins: Coins, src: PlanePoint, complete: bool) -> set[PlanePoint]:
    """Every point where the coin at ``src`` could go: tangent points of two other coins."""
    others = [c for c in coins if c != src]
    out: set[PlanePoint] = set()
    for i, p in enumerate(others):
        for q in others[i + 1 :]:
            try:
                out.update(tangent_points(p, q))
            except FieldError:
                if complete:
                    raise
    return out


@dataclass(frozen=True)
class Verdict:
    ok: bool
    step: int | None
    reason: str


def verify(puzzle: PlanePuzzle, moves: Iterable[PlaneMove]) -> Verdict:
    """Replay ``moves`` with rules.check_plane_move; accept iff all are legal and a goal placement is reached."""
    coins = puzzle.start
    for t, (src, dst) in enumerate(moves, start=1):
        reason = check_plane_move(coins, src, dst, puzzle.adjacency)
        if reason is not None:
            return Verdict(False, t, reason)
        coins = (coins - {src}) | {dst}
    if not is_goal(puzzle, coins):
        return Verdict(False, None, "the final configuration is not a placement of the goal")
    return Verdict(True, None, "ok")


@dataclass
class SearchReport:
    """What :func:`search` proved: ``length`` (None: nothing found up to ``max_moves``) and the
    largest L with "no solution with <= L moves" proven (``proven_none``), nodes expanded."""

    length: int | None = None
    moves: list[PlaneMove] | None = None
    proven_none: int = -1
    nodes: int = 0
    placements_searched: dict[int, int] = field(default_factory=dict)
    incomplete: str | None = None  # why the last level searched was not complete (then it proves nothing)
    stopped: str | None = None  # the limit that stopped the search (node limit, time, memory, Ctrl-C)
    beyond_placements: bool = False  # stopped where the placement argument ends (levels above prove nothing)


def max_provable(puzzle: PlanePuzzle) -> int:
    """The largest L whose level :func:`search` can search completely: the placements of a goal
    sharing n − L points with the start are listed for n − L >= 2 (congruent), >= 1 (translate)."""
    return puzzle.n - {"fixed": 0, "translate": 1}.get(puzzle.goal_placement, 2)


def search(puzzle: PlanePuzzle, max_moves: int, node_limit: int = 5_000_000) -> SearchReport:
    """Shortest solution by iterative deepening over L = 0, 1, ..., ``max_moves``.  Each L < found
    is searched completely (module docstring); the placement argument needs n − L >= 2.

    A limit (``node_limit`` nodes, or the ambient budget of ``coinsat.limits``: time, memory,
    Ctrl-C) ends the search with ``stopped`` set and what was proven before it."""
    report = SearchReport()
    try:
        return _search(puzzle, max_moves, node_limit, report)
    except LimitReached as e:
        report.stopped = str(e)
        return report


def _search(puzzle: PlanePuzzle, max_moves: int, node_limit: int, report: SearchReport) -> SearchReport:
    for L in range(max_moves + 1):
        if L > max_provable(puzzle):
            report.beyond_placements = True
            break  # placements with fewer common points cannot be listed: no proof beyond
        goals = placements(puzzle, puzzle.n - L)
        report.placements_searched[L] = len(goals)
        try:
            moves = _level(puzzle, goals, L, report, node_limit, complete=True)
        except FieldError as e:  # some position is outside the exact arithmetic: look, but prove nothing
            report.incomplete = str(e)
            moves = _level(puzzle, goals, L, report, node_limit, complete=False)
            if moves is None:
                return report
        if moves is not None:
            if not verify(puzzle, moves).ok:
                raise InternalError(f"the plane search found moves that verify rejects: {moves}")
            report.length, report.moves = L, moves
            return report
        report.proven_none = L
    return report


def _level(
    puzzle: PlanePuzzle, goals: list[Coins], L: int, report: SearchReport, node_limit: int, complete: bool
) -> list[PlaneMove] | None:
    for goal in goals:
        moves = _deepen(puzzle, goal, L, report, node_limit, complete)
        if moves is not None:
            return moves
    return None


def _deepen(
    puzzle: PlanePuzzle, goal: Coins, L: int, report: SearchReport, node_limit: int, complete: bool
) -> list[PlaneMove] | None:
    seen: dict[Coins, int] = {}
    path: list[PlaneMove] = []

    def dfs(coins: Coins, g: int) -> bool:
        h = len(coins - goal)
        if h == 0:
            return True
        if g + h > L or seen.get(coins, L + 1) <= g:
            return False
        seen[coins] = g
        report.nodes += 1
        if report.nodes > node_limit:
            raise LimitReached(f"node limit ({node_limit} nodes)")
        if report.nodes % 256 == 0:
            poll()
        for src in sorted(coins):
            on_goal = src in goal
            targets = sorted(goal - coins)  # a move onto the goal: h drops by one unless src was on it
            extra: list[PlanePoint] = []
            if g + 1 + h + (1 if on_goal else 0) <= L:  # room for a move off the goal
                extra = sorted(destinations(coins, src, complete) - goal)
            for dst in targets + extra:
                try:
                    if check_plane_move(coins, src, dst, puzzle.adjacency) is not None:
                        continue
                except FieldError:
                    if complete:
                        raise
                    continue
                path.append((src, dst))
                if dfs((coins - {src}) | {dst}, g + 1):
                    return True
                path.pop()
        return False

    return list(path) if dfs(puzzle.start, 0) else None
