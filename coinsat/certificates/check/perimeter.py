"""The perimeter h of a ranked layers certificate, recomputed by the checker (``"h": {"kind":
"perimeter", "r": R, "inner": "fill" | "forced" | "lmcut"}``).

The argument is ``docs/perimeter-search.md`` (Lemmas U and B, Theorem P); it is restated here
so that this file can be read alone, and nothing here imports ``coinsat.search`` or
``coinsat.theory``: the ball is computed by the checker's own decoder and kernel (:mod:`.ranked`).

*Undoing a move.*  s -> p is legal in X iff s holds a coin, p is empty and p has >= d coins of
X - s beside it; it leads to Y = X - s + p and X - s = Y - p.  So the predecessors of Y are
Y - p + s for the coins p of Y with >= d coins of Y beside them and the empty cells s.

*The ball.*  S = span(start) in the window has no outside cell with >= d neighbours in it, so
a move from a configuration inside S drops its coin inside S and every path from one stays in
S.  A breadth-first search backwards from the goal placements inside S, over configurations of
S, therefore meets every configuration of S first at its exact number of moves to the nearest
goal placement, dist(C); B_r is that search to depth r.

*The h.*  h(C) = dist(C) for C in B_r, max(h_inner(C), r + 1) otherwise: outside the ball
dist(C) >= r + 1, and h_inner (the fill schedule, the forced-supports bound or the LM-cut of :mod:`.layers`)
is a lower bound on dist(C).  So h <= dist(C) on every configuration inside S, which is all the
layers checker's argument needs ("Why this proves the claim" in :mod:`.layers`).
"""

from __future__ import annotations

import time
from typing import Callable

import numpy as np

from ...errors import LimitReached
from ...limits import poll
from .ranked import Decoder, Kernel

U64 = np.uint64
CHUNK = 1 << 15
#: the largest radius a certificate may name (distances are kept as one byte)
MAX_RADIUS = 250
#: The h a layers certificate may name alone or as the perimeter's ``"inner"``: the checker's own
#: table, a deliberate re-implementation of the search's registry (``coinsat/search/heuristics.py``),
#: kept apart because the checker imports nothing from ``search/`` (CONTRIBUTING.md).  Each h is
#: recomputed by the checker's own kernel (:mod:`.layers`' docstring); a test checks that both
#: tables name the same h.
INNER = ("fill", "forced", "lmcut")


def parse(value, encoding: str, bound) -> tuple[str, int | None, str]:
    """(inner h, radius or None, why not) of a certificate's ``h`` field; ``why`` is "" when the
    field is well formed."""
    if isinstance(value, str):
        if value not in INNER or (value != "fill" and (encoding != "rank" or bound is None)):
            return "", None, f"unknown h {value!r} (fill, or forced or lmcut on ranked layers with an upper bound)"
        return value, None, ""
    if not isinstance(value, dict) or set(value) != {"kind", "r", "inner"} or value["kind"] != "perimeter":
        names = ", ".join(INNER)
        return "", None, f"unknown h {value!r} ({names}, or {{'kind': 'perimeter', 'r': R, 'inner': NAME}})"
    r, inner = value["r"], value["inner"]
    if not isinstance(r, int) or isinstance(r, bool) or not 0 <= r <= MAX_RADIUS:
        return "", None, f"the perimeter radius must be an integer 0 .. {MAX_RADIUS}, not {r!r}"
    if inner not in INNER:
        return "", None, f"unknown inner h {inner!r} (fill, forced or lmcut)"
    if encoding != "rank" or bound is None:
        return "", None, "a perimeter h needs ranked layers and an upper bound"
    return inner, r, ""


def _distinct(values: np.ndarray) -> np.ndarray:
    """Sorted distinct values (a sort: numpy's hashing ``unique`` is several times slower on uint64)."""
    values = np.sort(values)
    return values[np.concatenate(([True], values[1:] != values[:-1]))] if values.size else values


def _union(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return _distinct(np.concatenate([a, b]))


class Ball:
    """The shells S_0 .. S_r (sorted ranks at exact distance i, module docstring), computed here."""

    def __init__(
        self,
        dec: Decoder,
        ker: Kernel,
        start: list[int],
        goal_pos: np.ndarray,
        radius: int,
        deadline: float | None = None,
    ):
        region = ker.span(ker.words(np.array([start], dtype=np.int64)))
        inside = [row for row in goal_pos if not ker.any(ker.words(row[None, :]) & ~region)[0]]
        goals = dec.ranks(np.array(inside, dtype=np.int64).reshape(-1, dec.k))
        shell = _distinct(goals)
        self.radius, self.shells = radius, [shell]
        seen = shell
        for i in range(1, radius + 1):
            parts = [np.zeros(0, dtype=U64)]
            for lo in range(0, shell.size, CHUNK):
                if deadline is not None and time.perf_counter() > deadline:
                    raise LimitReached(f"the backward ball stopped at radius {i} (time limit)")
                poll()
                chunk = shell[lo : lo + CHUNK]
                pos = dec.positions(chunk)
                words = ker.words(pos)
                tables = dec.tables(pos)
                here = [dec.moved(tables, rows, j, s, m) for j, rows, s, m in ker.predecessors(pos, words, region)]
                if here:
                    parts.append(_distinct(np.concatenate(here)))
            found = _distinct(np.concatenate(parts))
            idx = np.minimum(np.searchsorted(seen, found), max(seen.size - 1, 0))
            shell = found[seen[idx] != found] if seen.size else found
            self.shells.append(shell)
            seen = _union(seen, shell)
        self.ranks = seen
        dist = np.zeros(seen.size, dtype=np.uint8)
        for i, s in enumerate(self.shells):
            dist[np.searchsorted(seen, s)] = i
        self.dist = dist

    def h(self, ranks: np.ndarray, inner: Callable[[np.ndarray], np.ndarray]) -> np.ndarray:
        """dist inside the ball, max(inner, r + 1) outside (inner called on the outside ranks only)."""
        out = np.full(ranks.size, -1, dtype=np.int64)
        if self.ranks.size and ranks.size:
            idx = np.minimum(np.searchsorted(self.ranks, ranks), self.ranks.size - 1)
            hit = self.ranks[idx] == ranks
            out[hit] = self.dist[idx[hit]]
        far = out < 0
        if far.any():
            out[far] = np.maximum(inner(ranks[far]), self.radius + 1)
        return out
