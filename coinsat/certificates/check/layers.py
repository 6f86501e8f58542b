"""Layers certificates: "no solution with <= T moves" witnessed by explicit search layers.

For puzzles whose proof of optimality is beyond DRAT (V(3,2) needs 53 moves;
the SAT proof for 52 does not finish), the ``spanbfs`` engine's own layers are
the witness.  Kind ``layers``, scope ``horizon``; fields:

* ``cells`` — the window in bit order (bit i of a word = coin on ``cells[i]``);
* ``horizon`` T and ``layers``, a ``.npz`` file beside the JSON holding the
  arrays ``L0`` ... ``LT`` (sorted distinct uint64 words), with its sha256;
* ``encoding`` (optional): ``word`` (default) or ``rank`` (below; each array then
  holds the first rank and the gaps to the next), and ``upper_bound`` U;
* ``solution`` (optional) — a solution of T + 1 moves: the claim is then
  "optimal: T + 1 moves".

**What the checker verifies** (nothing here calls coinsat.search; the move
rule and the span are recomputed by a kernel written for this file, from
the coordinates through geometry.py, and the kernel is tested against
rules.py):

1. the window is exact: square grid with d >= 2 and ``cells`` containing
   span(start) (no coin ever leaves span(start), Lemma "span monotone", so the
   moves computed on ``cells`` are those of the infinite grid: a destination
   has >= 2 coins around, hence lies in the span), or a graph board and
   ``cells`` = its cells; at most 64 cells;
2. L0 = {start}; every word has as many coins as the start and no goal
   placement occurs in any layer;
3. closure: for i < T, every successor y of a word in L_i whose span contains
   the span of some goal placement lies in L_0 ∪ ... ∪ L_{i+1}.

**Ranked layers** (``encoding = "rank"``, written for ``rankbfs``): the words
are the colexicographic ranks of the occupied cells' positions in ``cells``
(sum of C(c_i, i) over the sorted positions c_1 < ... < c_k), so a window may
have up to 256 cells; the checker decodes them with a table of its own and
runs a multi-word kernel (``_WideRule``, one word per 64 cells).

**Pruned layers** (``upper_bound`` U, ``rankbfs``'s bound-and-prune): (3)
only asks for the successors y with (i + 1) + h(y) <= U, h recomputed here:
with R_0 = y and R_j = R_{j-1} + {cells with >= d neighbours in R_{j-1}}, an
empty goal cell first in R_j cannot be filled before j moves from y, and every
empty goal cell needs a move of its own, so with f_1 <= ... <= f_m those
steps every path from y to that goal placement has >= max_i (f_i + m - i)
moves; h is the minimum over the goal placements.  The horizon must be <= U.

*Why this proves the claim.*  Let x_0 = start, ..., x_k be a solution with
k <= T.  Each x_j spans a goal placement's span (spans only shrink along moves:
encodings/sat.md, Lemma P (i)), so by induction x_j ∈ L_0 ∪ ... ∪ L_j (3), and
x_k, a goal placement, would lie in a layer — excluded by (2).  With pruning,
take the solution shortest: x_j has j + h(x_j) <= k <= T <= U (h is a lower
bound on the moves left), and if x_j lies in L_i with i <= j then
(i + 1) + h(x_{j+1}) <= U, so (3) still applies at every step.
"""

from __future__ import annotations

import hashlib
import io
import math
import time
from pathlib import Path

import numpy as np

from ... import geometry
from ...board import span_coords
from ...errors import LimitReached
from ...instance import Instance
from .claims import Claim
from .format import cell_key, checked_solution

U64 = np.uint64
ONE = U64(1)
CHUNK = 1 << 13  # words of a layer checked at once (bounds the (cells x successors) temporaries)
MAX_CELLS = 256  # ranked layers: four words per configuration (word layers: 64, checked in _check_closure)


def check_layers(
    instance: Instance, cert: dict, base_dir: Path, deadline: float | None = None
) -> tuple[bool, str, Claim | None]:
    """What the layers prove (see the module docstring), derived from the instance and the files."""
    horizon = cert["horizon"]
    if not isinstance(horizon, int) or isinstance(horizon, bool) or horizon < 0:
        return False, f"the horizon must be an integer >= 0, not {horizon!r}", None
    cells = [cell_key(c) for c in cert["cells"]]
    ok, why = _exact_window(instance, cells)
    if not ok:
        return False, why, None
    solution, why = checked_solution(instance, cert, horizon)
    if why:
        return False, why, None
    path = base_dir / cert["layers"]
    if not path.is_file():
        return False, f"missing file {path}", None
    data = path.read_bytes()
    if hashlib.sha256(data).hexdigest() != cert["layers_sha256"]:
        return False, "the layers file's sha256 differs from the certificate's", None
    with np.load(io.BytesIO(data), allow_pickle=False) as z:
        layers = [_layer(z[f"L{i}"], i) for i in range(horizon + 1)]
    encoding = cert.get("encoding", "word")
    bound = cert.get("upper_bound")
    if bound is not None and (not isinstance(bound, int) or isinstance(bound, bool) or bound < horizon):
        return False, f"the upper bound must be an integer >= the horizon {horizon}, not {bound!r}", None
    if encoding == "rank":  # stored as first differences
        layers = [np.cumsum(layer, dtype=U64) for layer in layers]
        ok, why = _check_ranked(instance, cells, layers, bound, deadline)
    elif encoding != "word" or bound is not None:
        return False, f"unknown layers encoding {encoding!r} (or a bound on word layers)", None
    elif len(cells) > 64:
        return False, "word layers hold at most 64 cells", None
    else:
        ok, why = _check_closure(instance, cells, layers, deadline)
    return ok, why, Claim(solution=None if solution is None else len(solution), bound=horizon) if ok else None


def _layer(array: np.ndarray, i: int) -> np.ndarray:
    """Layer ``i`` as uint64 words; its values must be exactly representable (no sign, no fraction)."""
    if array.ndim != 1:
        raise ValueError(f"L{i} is not a one-dimensional array")
    words = np.asarray(array, dtype=U64)
    if array.dtype != U64 and not np.array_equal(words.astype(array.dtype), array):
        raise ValueError(f"L{i} holds values that are not 64-bit configuration words")
    return words


def _exact_window(instance: Instance, cells: list) -> tuple[bool, str]:
    b = instance.board
    if len(cells) > MAX_CELLS or len(set(cells)) != len(cells):
        return False, f"the window must list at most {MAX_CELLS} distinct cells"
    if b.kind == "graph":
        return (set(cells) == set(b.coords), "the cells are not the graph's cells")
    if b.kind != "square" or instance.d < 2:
        return False, "layers certificates need an exact window: square grid with d >= 2, or a graph"
    start = [b.lattice_coords[c] for c in instance.start.cells]
    xs, ys = [x for x, _ in start], [y for _, y in start]
    box = frozenset((x, y) for x in range(min(xs), max(xs) + 1) for y in range(min(ys), max(ys) + 1))
    if not set(span_coords("square", start, instance.d, box)) <= set(cells):
        return False, "the cells do not contain span(start), the exact window of the square grid"
    return True, ""


class _Rule:
    """The move rule and the span on words over ``cells`` (rows: one neighbour mask per cell)."""

    def __init__(self, instance: Instance, cells: list):
        index = {c: i for i, c in enumerate(cells)}
        b = instance.board
        masks = []
        for c in cells:
            if b.kind == "graph":
                nbrs = tuple(b.coords[q] for q in b.neighbours[b.cell(c)])
            else:
                nbrs = geometry.neighbours(b.kind, c)
            masks.append(sum(1 << index[q] for q in nbrs if q in index))
        self.n, self.d = len(cells), instance.d
        self.nbr = np.array(masks, dtype=U64)[:, None]  # (n, 1)
        self.bit = (ONE << np.arange(self.n, dtype=U64))[:, None]  # (n, 1)

    def successors(self, words: np.ndarray) -> np.ndarray:
        out = []
        for s in range(self.n):
            rest = words[(words >> U64(s)) & ONE == 1] ^ (ONE << U64(s))
            if rest.size == 0:
                continue
            legal = (np.bitwise_count(rest[None, :] & self.nbr) >= self.d) & ((rest[None, :] & self.bit) == 0)
            legal[s] = False
            p, i = np.nonzero(legal)
            out.append(rest[i] | self.bit[p, 0])
        return np.concatenate(out) if out else np.zeros(0, dtype=U64)

    def span(self, words: np.ndarray) -> np.ndarray:
        words = words.copy()
        todo = np.arange(words.size)  # the words still growing
        while todo.size:
            cur = words[todo]
            add = np.bitwise_count(cur[None, :] & self.nbr) >= self.d
            grown = cur | np.bitwise_or.reduce(np.where(add, self.bit, U64(0)), axis=0)
            words[todo] = grown
            todo = todo[grown != cur]
        return words


def _merge(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Sorted distinct words of a and b."""
    c = np.sort(np.concatenate([a, b]))
    return c[np.concatenate([[True], c[1:] != c[:-1]])] if c.size else c


def _word(config, index) -> int:
    return sum(1 << index[c] for c in config)


def _check_closure(
    instance: Instance, cells: list, layers: list[np.ndarray], deadline: float | None = None
) -> tuple[bool, str]:
    b = instance.board
    index = {c: i for i, c in enumerate(cells)}
    rule = _Rule(instance, cells)
    try:
        start = _word((b.coords[c] for c in instance.start.cells), index)
        goals = np.array(
            sorted(
                {
                    _word((b.coords[c] for c in g.cells), index)
                    for g in instance.goal_configurations
                    if all(b.coords[c] in index for c in g.cells)
                }
            ),
            dtype=U64,
        )
    except KeyError:
        return False, "the start is not inside the window"
    if len(instance.labels) > 1:
        return False, "layers certificates are for unlabeled coins"
    need = np.unique(rule.span(goals)) if goals.size else goals
    n_coins = len(instance.start)
    if layers[0].tolist() != [start]:
        return False, "L0 is not {start}"
    for i, layer in enumerate(layers):
        if layer.size and (np.any(layer[1:] <= layer[:-1]) or np.any(np.bitwise_count(layer) != n_coins)):
            return False, f"L{i} is not a sorted set of configurations with {n_coins} coins"
        if goals.size and np.isin(goals, layer).any():
            return False, f"L{i} holds a goal placement"
    union = layers[0]
    for i in range(len(layers) - 1):
        union = _merge(union, layers[i + 1])
        for k in range(0, layers[i].size, CHUNK):
            if deadline is not None and time.perf_counter() > deadline:
                raise LimitReached(f"the check of the layers stopped at L{i} (time limit)")
            succ = rule.successors(layers[i][k : k + CHUNK])  # repeats are harmless here
            span = rule.span(succ)
            keep = np.zeros(succ.shape, dtype=bool)
            for g in need:
                keep |= (span & g) == g
            idx = np.minimum(np.searchsorted(union, succ), union.size - 1)  # union is sorted
            missing = succ[keep & (union[idx] != succ)]
            if missing.size:
                return False, f"a successor of L{i} is in no layer up to L{i + 1} (word {int(missing[0])})"
    states = sum(int(layer.size) for layer in layers)
    return True, f"closure of {len(layers)} layers ({states} configurations) verified"


# --- ranked (and pruned) layers -------------------------------------------------------------------


class _Colex:
    """Colex ranks of k-subsets of n positions, decoded and encoded with a table of binomials."""

    def __init__(self, n: int, k: int):
        top = (1 << 64) - 1
        self.k = k
        self.size = math.comb(n, k)
        self.cols = [np.array([min(math.comb(c, i), top) for c in range(n + 1)], dtype=U64) for i in range(k + 1)]

    def cells(self, ranks: np.ndarray) -> np.ndarray:
        """(N, k) ascending positions."""
        r = ranks.copy()
        out = np.empty((r.size, self.k), dtype=np.int64)
        for i in range(self.k, 0, -1):
            c = np.searchsorted(self.cols[i], r, side="right") - 1
            out[:, i - 1] = c
            r = r - self.cols[i][c]
        return out

    def ranks(self, cells: np.ndarray) -> np.ndarray:
        out = np.zeros(cells.shape[0], dtype=U64)
        for i in range(self.k):
            out += self.cols[i + 1][cells[:, i]]
        return out


class _WideRule:
    """The move rule, the span and h on configurations as (W, N) arrays of 64-bit words
    (bit c % 64 of word c // 64 = a coin on ``cells[c]``), from per-cell neighbour masks."""

    def __init__(self, instance: Instance, cells: list):
        index = {c: i for i, c in enumerate(cells)}
        b = instance.board
        self.n, self.d = len(cells), instance.d
        self.W = max(1, -(-self.n // 64))
        nbr = np.zeros((self.W, self.n, 1), dtype=U64)
        self.bit = np.zeros((self.W, self.n, 1), dtype=U64)
        for i, c in enumerate(cells):
            self.bit[i // 64, i, 0] = ONE << U64(i % 64)
            nbrs = (
                tuple(b.coords[q] for q in b.neighbours[b.cell(c)])
                if b.kind == "graph"
                else geometry.neighbours(b.kind, c)
            )
            for q in nbrs:
                if q in index:
                    j = index[q]
                    nbr[j // 64, i, 0] |= ONE << U64(j % 64)
        self.nbr = nbr

    def words(self, cells: np.ndarray) -> np.ndarray:
        out = np.zeros((self.W, cells.shape[0]), dtype=U64)
        for j in range(cells.shape[1]):
            c = cells[:, j]
            for w in range(self.W):
                out[w] |= np.where(c // 64 == w, ONE << (c % 64).astype(U64), U64(0))
        return out

    def _counts(self, words: np.ndarray) -> np.ndarray:
        """(n, N): occupied neighbours of every cell."""
        return np.bitwise_count(words[:, None, :] & self.nbr).sum(axis=0)

    def _occupied(self, words: np.ndarray) -> np.ndarray:
        return ((words[:, None, :] & self.bit) != 0).any(axis=0)

    def kept_successors(self, pos: np.ndarray, need: np.ndarray):
        """For each cell s: the successors (rows of ascending positions) of the configurations
        ``pos`` by a move of the coin on s whose span contains a column of ``need``.  A move
        s -> p puts p on a cell with >= d coins of C - s around it, so p lies in span(C - s)
        and span(C - s + p) = span(C - s): one closure per (configuration, coin) decides all
        the moves of that coin."""
        words = self.words(pos)
        for s in range(self.n):
            has = np.flatnonzero((pos == s).any(axis=1))
            if has.size == 0:
                continue
            rest = words[:, has].copy()
            rest[s // 64] ^= ONE << U64(s % 64)
            span = self.span(rest)
            keep = np.zeros(has.size, dtype=bool)
            for g in range(need.shape[1]):
                keep |= ((span & need[:, g : g + 1]) == need[:, g : g + 1]).all(axis=0)
            has, rest = has[keep], rest[:, keep]
            legal = (self._counts(rest) >= self.d) & ~self._occupied(rest)
            legal[s] = False
            p, i = np.nonzero(legal)
            if p.size == 0:
                continue
            new = pos[has[i]].copy()
            new[new == s] = p
            new.sort(axis=1)
            yield new

    def grow(self, words: np.ndarray) -> np.ndarray:
        """One span layer: every cell with >= d occupied neighbours added."""
        add = self._counts(words) >= self.d  # (n, N)
        return words | np.bitwise_or.reduce(np.where(add[None, :, :], self.bit, U64(0)), axis=1)

    def span(self, words: np.ndarray) -> np.ndarray:
        words = words.copy()
        todo = np.arange(words.shape[1])
        while todo.size:
            cur = words[:, todo]
            grown = self.grow(cur)
            words[:, todo] = grown
            todo = todo[(grown != cur).any(axis=0)]
        return words

    def h(self, words: np.ndarray, goals: np.ndarray) -> np.ndarray:
        """The fill-schedule bound (module docstring) to the nearest goal placement."""
        best = np.full(words.shape[1], np.iinfo(np.int64).max // 2)
        for g in range(goals.shape[1]):
            goal = goals[:, g : g + 1]
            empty = goal & ~words
            left = np.bitwise_count(empty).sum(axis=0).astype(np.int64)
            h = np.zeros(words.shape[1], dtype=np.int64)
            layer, j = words, 0
            while (left > 0).any():
                j += 1
                grown = self.grow(layer)
                new = np.bitwise_count(grown & ~layer & empty).sum(axis=0).astype(np.int64)
                h = np.where(new > 0, np.maximum(h, j - 1 + left), h)
                left = left - new
                stuck = (grown == layer).all(axis=0) & (left > 0)
                h[stuck] = np.iinfo(np.int64).max // 2
                left[stuck] = 0
                layer = grown
            best = np.minimum(best, h)
        return best


def _check_ranked(
    instance: Instance, cells: list, layers: list[np.ndarray], bound: int | None, deadline: float | None
) -> tuple[bool, str]:
    """Conditions (2) and (3) of the module docstring on colex-ranked layers, pruned by h with
    ``bound`` U when given."""
    if len(instance.labels) > 1:
        return False, "layers certificates are for unlabeled coins"
    b = instance.board
    index = {c: i for i, c in enumerate(cells)}
    k = len(instance.start)
    colex = _Colex(len(cells), k)
    rule = _WideRule(instance, cells)
    try:
        start = sorted(index[b.coords[c]] for c in instance.start.cells)
    except KeyError:
        return False, "the start is not inside the window"
    placements = [g for g in instance.goal_configurations if all(b.coords[c] in index for c in g.cells)]
    goal_pos = np.array([sorted(index[b.coords[c]] for c in g.cells) for g in placements], dtype=np.int64)
    goal_pos = goal_pos.reshape(-1, k)
    goals = rule.words(goal_pos)
    goal_ranks = np.unique(colex.ranks(goal_pos))
    need = rule.span(goals)
    if layers[0].tolist() != colex.ranks(np.array([start], dtype=np.int64)).tolist():
        return False, "L0 is not {start}"
    for i, layer in enumerate(layers):
        if layer.size and (np.any(layer[1:] <= layer[:-1]) or int(layer[-1]) >= colex.size):
            return False, f"L{i} is not a sorted set of ranks below C({len(cells)}, {k})"
        if goal_ranks.size and np.isin(goal_ranks, layer).any():
            return False, f"L{i} holds a goal placement"
    union = layers[0]
    for i in range(len(layers) - 1):
        union = _merge(union, layers[i + 1])
        for lo in range(0, layers[i].size, CHUNK):
            if deadline is not None and time.perf_counter() > deadline:
                raise LimitReached(f"the check of the layers stopped at L{i} (time limit)")
            pos = colex.cells(layers[i][lo : lo + CHUNK])
            for new in rule.kept_successors(pos, need):
                ranks = colex.ranks(new)
                idx = np.minimum(np.searchsorted(union, ranks), union.size - 1)
                out = union[idx] != ranks
                if bound is not None and out.any():
                    out[out] = (i + 1) + rule.h(rule.words(new[out]), goals) <= bound
                if out.any():
                    return False, f"a successor of L{i} is in no layer up to L{i + 1} (rank {int(ranks[out][0])})"
    states = sum(int(layer.size) for layer in layers)
    pruned = "" if bound is None else f", pruned by h with upper bound {bound}"
    return True, f"closure of {len(layers)} ranked layers ({states} configurations{pruned}) verified"
