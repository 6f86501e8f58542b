"""The census checker's window: neighbours, closure (Lemma W) and the symmetry group (Lemma O).

Everything here is derived from the certificate's board and cells alone (``docs/census.md``
sections 5 and 6): square neighbours (±1,0), (0,±1); triangular axial (±1,0), (0,±1), (1,-1),
(-1,1); a graph's edges.  The point groups are generated here from two matrices each, and a
symmetry of the window is a point-group element followed by the one translation that can map
the window onto itself.  Nothing is imported from ``coinsat.geometry`` or ``coinsat.board``.
"""

from __future__ import annotations

from typing import Any

import numpy as np

SQUARE = ((1, 0), (-1, 0), (0, 1), (0, -1))
TRIANGULAR = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1))
#: generators of the point groups fixing the origin, as (a, b, c, d): (x, y) -> (a x + b y, c x + d y)
GENERATORS = {
    "square": ((0, -1, 1, 0), (0, 1, 1, 0)),  # a quarter turn; the reflection in x = y
    "triangular": ((0, -1, 1, 1), (0, 1, 1, 0)),  # a sixth of a turn in axial coordinates; x <-> y
}


class Rejected(Exception):
    """A reason to reject the certificate (the message names the item)."""


def _coords(board: str, cells: list) -> list[tuple[int, int]]:
    out = []
    for c in cells:
        if not (isinstance(c, list) and len(c) == 2 and all(isinstance(v, int) and not isinstance(v, bool) for v in c)):
            raise Rejected(f"census.json: a {board} cell is [x, y] with integers, not {c!r}")
        out.append((c[0], c[1]))
    if len(set(out)) != len(out):
        raise Rejected("census.json: a cell is listed twice")
    return out


def neighbour_masks(board: Any, cells: list, obj: dict) -> np.ndarray:
    """nb[q] = the bit mask of q's neighbours in the window."""
    N = len(cells)
    pairs: set[tuple[int, int]] = set()
    if board in ("square", "triangular"):
        if "edges" in obj:
            raise Rejected(f"census.json: a {board} board has no edges field (neighbours follow from the cells)")
        index = {c: q for q, c in enumerate(_coords(board, cells))}
        vectors = SQUARE if board == "square" else TRIANGULAR
        for (x, y), q in index.items():
            for dx, dy in vectors:
                p = index.get((x + dx, y + dy))
                if p is not None:
                    pairs.add((q, p))
    elif board == "graph":
        if not all(isinstance(c, (str, int)) and not isinstance(c, bool) for c in cells) or len(set(cells)) != N:
            raise Rejected("census.json: graph cells are distinct names (strings or integers)")
        for e in obj["edges"]:
            if not (
                isinstance(e, list) and len(e) == 2 and all(isinstance(q, int) and not isinstance(q, bool) for q in e)
            ):
                raise Rejected(f"census.json: an edge is [i, j] with positions, not {e!r}")
            i, j = e
            if not (0 <= i < N and 0 <= j < N) or i == j:
                raise Rejected(f"census.json: edge {e!r} is not a pair of distinct positions 0 .. {N - 1}")
            pairs |= {(i, j), (j, i)}
    else:
        raise Rejected(f"census.json: board {board!r} is none of square, triangular, graph")
    nb = np.zeros(N, dtype=np.uint64)
    for q, p in pairs:
        nb[q] |= np.uint64(1 << p)
    return nb


def closed_window(board: str, cells: list, d: int) -> bool:
    """Lemma W: no lattice cell outside the window has >= d neighbours in it (a graph is its own window)."""
    if board == "graph":
        return True
    vectors = SQUARE if board == "square" else TRIANGULAR
    window = {(c[0], c[1]) for c in cells}
    seen: dict[tuple[int, int], int] = {}
    for x, y in window:
        for dx, dy in vectors:
            out = (x + dx, y + dy)
            if out not in window:
                seen[out] = seen.get(out, 0) + 1
    return all(k < d for k in seen.values())


def symmetry_group(board: str, cells: list, goal: list[int], nb: np.ndarray, listed: Any) -> list[tuple[int, ...]]:
    """The symmetry group, recomputed (lattices) or verified (graphs); it must be the listed one."""
    N = len(cells)
    if not isinstance(listed, list) or not all(
        isinstance(g, list) and sorted(g) == list(range(N)) and all(isinstance(v, int) for v in g) for g in listed
    ):
        raise Rejected(f"census.json: symmetries must be permutations of 0 .. {N - 1}")
    given = [tuple(g) for g in listed]
    if len(set(given)) != len(given):
        raise Rejected("census.json: a symmetry is listed twice")
    goal_set = set(goal)
    if board == "graph":
        edges = {(q, p) for q in range(N) for p in range(N) if int(nb[q]) >> p & 1}
        for g in given:
            if any((g[q], g[p]) not in edges for q, p in edges) or {g[q] for q in goal} != goal_set:
                raise Rejected(f"census.json: symmetry {list(g)} is not an automorphism fixing the goal")
        closure = {tuple(a[b[q]] for q in range(N)) for a in given for b in given}
        if tuple(range(N)) not in set(given) or not closure <= set(given):
            raise Rejected("census.json: the symmetries are not a group (identity, compositions)")
        return given
    group = _lattice_group(board, cells, goal_set)
    if set(given) != set(group):
        raise Rejected(f"census.json: the symmetries are not the window's and goal's group (order {len(group)})")
    return given


def _lattice_group(board: str, cells: list, goal: set[int]) -> list[tuple[int, ...]]:
    """Every lattice symmetry (point group element, then a translation) that maps the window onto
    itself and the goal onto itself, as permutations of positions."""
    gens = GENERATORS[board]
    mats = {(1, 0, 0, 1)}
    frontier = list(mats)
    while frontier:  # the point group, as the closure of its generators
        h = frontier.pop()
        for g in gens:
            m = (
                g[0] * h[0] + g[1] * h[2],
                g[0] * h[1] + g[1] * h[3],
                g[2] * h[0] + g[3] * h[2],
                g[2] * h[1] + g[3] * h[3],
            )
            if m not in mats:
                mats.add(m)
                frontier.append(m)
    coords = [(c[0], c[1]) for c in cells]
    index = {c: q for q, c in enumerate(coords)}
    low = min(coords)
    out = []
    for a, b, c, d in sorted(mats):
        image = [(a * x + b * y, c * x + d * y) for x, y in coords]
        least = min(image)  # a translation keeps the lexicographic order: it takes min(image) to min(window)
        tx, ty = low[0] - least[0], low[1] - least[1]
        perm = [index.get((x + tx, y + ty), -1) for x, y in image]
        if -1 not in perm and {perm[q] for q in goal} == goal:
            out.append(tuple(perm))
    return sorted(set(out))
