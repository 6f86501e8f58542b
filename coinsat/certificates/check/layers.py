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
have up to 256 cells, with C(cells, coins) <= 2^64 (past that, ranks wrap and a
rank names no single configuration: refused); the checker decodes them with a decoder of its own and
runs a multi-word kernel (:mod:`.ranked`: shifted neighbour planes, one span
closure per removed coin at most, successor ranks from prefix sums), built to
cost about what the search cost; with numba (the ``fast`` extra), checks of
``JIT_MIN_STATES`` configurations or more on windows of two words or more
(past 64 cells) run the same conditions compiled, a configuration at a time
(:mod:`.rankedjit`, tested against this kernel; ``_compiled`` says why one word
stays in numpy).  On the square grid with d = 2 a removed coin
whose rest has more adjacent pairs than the perimeter bound allows
(``ranked.edge_cap``: such a rest cannot span a goal span) generates nothing
to check.  Word layers (``spanbfs``) are expanded by the same kernel.  A
successor is looked up in L_{i+1}, L_i, L_{i-1} first, then in the earlier
layers (moves need not be reversible); every layer is held once, as words or
decoded ranks (8 bytes a state, no more than the search's visited set).

**Pruned layers** (``upper_bound`` U, ``rankbfs``'s bound-and-prune): (3)
only asks for the successors y with (i + 1) + h(y) <= U, h recomputed here:
with R_0 = y and R_j = R_{j-1} + {cells with >= d neighbours in R_{j-1}}, an
empty goal cell first in R_j cannot be filled before j moves from y, and every
empty goal cell needs a move of its own, so with f_1 <= ... <= f_m those
steps every path from y to that goal placement has >= max_i (f_i + m - i)
moves; h is the minimum over the goal placements.  The horizon must be <= U.

**Forced supports** (field ``h`` = ``"forced"``; absent or ``"fill"``: the h
above; any other value is refused, and ``"forced"`` needs ranked layers and
U).  h is then the same schedule over a larger set X of cells: the empty goal
cells, closed under "if a cell x of X has exactly d neighbours in span(y),
every one of them that is empty in y and not a goal cell is in X".  Every
configuration reached from y lies in span(y) (Lemma "span monotone"), so when
a move drops a coin on such an x, all d of those neighbours hold coins other
than the moving one; one empty in y was filled by an earlier move, whose
destination is that cell.  So each cell of X is the destination of some move
of every path from y to the goal placement (induction over the closure),
distinct cells need distinct moves, a cell first in R_j is not a destination
before move j, and the schedule over X is a lower bound on the moves left;
infinite when a cell of X has fewer than d neighbours in span(y) (it is never
a destination).  X contains the empty goal cells and the schedule never
decreases when a cell is added, so this h is >= the fill schedule.  The whole
proof, lemma by lemma: docs/forced-supports.md (Theorem H).  The checker
recomputes this h itself (``ranked.Kernel.h_forced``, numpy, also when the
successors are compiled).

**LM-cut** (field ``h`` = ``"lmcut"``, ranked layers with U only, adjacency d >= 1).  h is
min over the goal placements G of max(h_fill(y, G), LM(y, G)), LM the number of rounds of the
LM-cut procedure on the game without lifts (a filled cell stays filled; a cell of span(y) is
filled when d of its neighbours in span(y) are): each round finds a set of fills that every
plan of that game must use and makes them free.  Every path from y to G gives such a plan of
at most as many steps (its first fills, in order), so LM(y, G) <= h+(y, G) <= the moves left;
the proof, lemma by lemma: docs/lm-cut.md (Theorem LM).  The checker recomputes it with a
kernel of its own (:mod:`.lmcut`, compiled), following §3 of that document with its tie-breaks
(cell numbers: the window's bit order), so that it finds the same values as the search; a
value it finds smaller asks for a successor the search did not keep, and is a rejection, never
a false acceptance.  The kernel only decides (i + 1) + h(y) <= U, so it stops its rounds past
U - (i + 1); and as it costs more than a lookup, a successor is looked up in every layer before
its h is computed (for the other h, after the three nearest layers).

**Perimeter** (field ``h`` = ``{"kind": "perimeter", "r": R, "inner": "fill" | "forced" | "lmcut"}``,
ranked layers with U only).  The checker computes the backward ball B_R itself (:mod:`.perimeter`:
a breadth-first search backwards from the goal placements inside span(start), over
configurations inside span(start); undoing a move lifts a coin with >= d coins beside it and
puts it on any empty cell), with the exact distance dist(y) of each of its configurations, and
takes h(y) = dist(y) inside the ball, max(h_inner(y), R + 1) outside it.  This h is a lower
bound on the moves left from every configuration inside span(start) (outside the ball
dist(y) > R), which is all the argument below uses.  The proof: docs/perimeter-search.md
(Theorem P).  A radius other than the search's is not a forgery by itself: a larger R gives a
larger h that is still a lower bound (the claim stays true), a smaller R asks for successors
the search did not keep (rejected, unless the layers happen to hold them).  A radius past U - 1
decides exactly as U - 1 does (a configuration at depth i + 1 >= 1 is asked for iff
h <= U - 1 - i: inside radius U - 1 both h are dist, past it both are >= U), so the ball is
computed to min(R, U - 1): the check's cost does not grow with the R a file names.

**Symmetry** (field ``symmetries``, ranked layers only; ``docs/symmetry.md``, Lemma QC).  A
list of permutations of the positions of ``cells``, the identity among them.  The checker
accepts it only if it is closed under composition (a group H), and each member is an
automorphism of the window's neighbour relation (computed here from the coordinates) that maps
the start onto itself and the set of goal placements in W onto itself (:mod:`.orbits`).  Then
condition (3) is asked of canonical forms: for each successor y, c(y), the least rank of its
images under H, must lie in L_0 ∪ ... ∪ L_{i+1} (or be pruned: (i + 1) + h(c(y)) > U).  L_0 =
{start} and "no layer holds a goal placement" are unchanged: the start and the goal placements
are their own canonical forms' orbits (H fixes them).  Why this proves the same claim: an
automorphism fixing the goal maps the paths from y to the goal onto those from its image, so
every member of an orbit has the same distance to the goal, and (H a group) c(sigma y) = c(y);
the induction below then runs on c(x_j) (docs/symmetry.md, Lemma QC).

**Threads** (``workers``).  Condition (3) is a statement about each
configuration of L_i alone, so the chunks of a layer are checked
independently: with the compiled kernel on ``workers`` threads (its kernels
release the GIL, as do numpy's sort and searchsorted; the layers are shared,
read only; each thread has its own output buffer).  The chunks' answers are
read in order, so the first failing chunk is the one reported, whatever the
number of threads.  The numpy kernel runs on one thread: it is a chain of many
small array operations with the GIL taken between them (it is the kernel of
small checks, where threads would not pay), unless the h is "lmcut": its compiled kernel,
which releases the GIL, then takes most of the time.

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
import zipfile
from collections import deque
from concurrent.futures import ThreadPoolExecutor
from contextlib import closing
from pathlib import Path

import numpy as np

from ... import geometry
from ...board import BoardKind, span_coords
from ...environment import check_kernel
from ...errors import LimitReached
from ...instance import Instance
from ...limits import poll, signals_deferred
from . import orbits, perimeter
from .claims import Claim
from .format import cell_key, checked_solution, confined_file
from .ranked import Decoder, Kernel, edge_cap

U64 = np.uint64
ONE = U64(1)
CHUNK = 1 << 15  # configurations of a layer expanded at once (temporaries: a few hundred bytes each)
JIT_MIN_STATES = 200_000  # smaller checks stay in numpy (nothing to compile, no numba to import)
MAX_CELLS = 256  # ranked layers: four words per configuration (word layers: 64, checked in _check_closure)


def check_layers(
    instance: Instance, cert: dict, base_dir: Path, deadline: float | None = None, workers: int = 1
) -> tuple[bool, str, Claim | None]:
    """What the layers prove (see the module docstring), derived from the instance and the files;
    ranked layers are checked on ``workers`` threads (module docstring, "Threads")."""
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
    path, problem = confined_file(base_dir, cert["layers"], "the layers file")
    if path is None:
        return False, str(problem), None
    data = path.read_bytes()
    if hashlib.sha256(data).hexdigest() != cert["layers_sha256"]:
        return False, "the layers file's sha256 differs from the certificate's", None
    cap = math.comb(len(cells), len(instance.start.cells))
    layers = _read_layers(data, horizon, cap, deadline)
    del data
    encoding = cert.get("encoding", "word")
    bound = cert.get("upper_bound")
    if bound is not None and (not isinstance(bound, int) or isinstance(bound, bool) or bound < horizon):
        return False, f"the upper bound must be an integer >= the horizon {horizon}, not {bound!r}", None
    h_name, radius, why = perimeter.parse(cert.get("h", "fill"), encoding, bound)
    if why:
        return False, why, None
    symmetries = cert.get("symmetries")
    if symmetries is not None and encoding != "rank":
        return False, "symmetries need ranked layers", None
    if encoding == "rank":  # stored as first differences
        for layer in layers:  # in place: no second copy of the layers
            np.cumsum(layer, dtype=U64, out=layer)
        ok, why = _check_ranked(instance, cells, layers, bound, deadline, workers, h_name, radius, symmetries)
    elif encoding != "word" or bound is not None:
        return False, f"unknown layers encoding {encoding!r} (or a bound on word layers)", None
    elif len(cells) > 64:
        return False, "word layers hold at most 64 cells", None
    else:
        ok, why = _check_closure(instance, cells, layers, deadline)
    return ok, why, Claim(solution=None if solution is None else len(solution), bound=horizon) if ok else None


#: bytes of a layer decompressed at a time between two looks at the clock and the memory
READ_CHUNK = 1 << 24


def _read_layers(data: bytes, horizon: int, cap: int, deadline: float | None) -> list[np.ndarray]:
    """The arrays L0 ... L<horizon> of the ``.npz`` bytes, each read under a bound the checker
    derives itself: a layer is a set of configurations of ``cells`` with the start's number of
    coins, so it holds at most ``cap`` = C(cells, coins) of them.  Each member's ``.npy`` header
    is read first (one-dimensional, integers of at most 8 bytes, at most ``cap`` entries), and
    only then its data, decompressed in ``READ_CHUNK`` pieces with the deadline and the ambient
    memory limit polled between them.  A zip bomb (a small file declaring a huge layer) is
    rejected before any byte of it is inflated; ``ValueError`` (rejected) on any malformed
    member, :class:`LimitReached` when a limit ends the reading."""
    layers = []
    with zipfile.ZipFile(io.BytesIO(data)) as z:
        names = set(z.namelist())
        for i in range(horizon + 1):
            if f"L{i}.npy" not in names:
                raise ValueError(f"the layers file has no array L{i} (horizon {horizon})")
            with z.open(f"L{i}.npy") as f:
                version = np.lib.format.read_magic(f)
                if version == (1, 0):
                    shape, _, dtype = np.lib.format.read_array_header_1_0(f)
                elif version == (2, 0):
                    shape, _, dtype = np.lib.format.read_array_header_2_0(f)
                else:
                    raise ValueError(f"L{i} has an unknown .npy version {version}")
                if len(shape) != 1 or dtype.hasobject or dtype.kind not in "iu" or dtype.itemsize > 8:
                    raise ValueError(f"L{i} is not a one-dimensional array of integers")
                if shape[0] > cap:
                    raise ValueError(f"L{i} declares {shape[0]} states, more than C(cells, coins) = {cap}")
                layers.append(_layer(_read_exactly(f, shape[0], dtype, deadline, i), i))
    return layers


def _read_exactly(f, count: int, dtype: np.dtype, deadline: float | None, i: int) -> np.ndarray:
    try:
        out = np.empty(count, dtype=dtype)
    except MemoryError:
        raise LimitReached(f"memory limit (layer L{i} holds {count} states)") from None
    view = memoryview(out.view(np.uint8).data)
    done = 0
    while done < len(view):
        if deadline is not None and time.perf_counter() > deadline:
            raise LimitReached("time limit")
        poll()
        n = f.readinto(view[done : done + READ_CHUNK])
        if not n:
            raise ValueError(f"L{i} is truncated")
        done += n
    return out


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
    if b.kind is BoardKind.GRAPH:
        return (set(cells) == set(b.coords), "the cells are not the graph's cells")
    if b.kind is not BoardKind.SQUARE or instance.d < 2:
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
            if b.kind is BoardKind.GRAPH:
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


def _moved_words(words: np.ndarray, pos: np.ndarray, j: int, rows: np.ndarray, p: np.ndarray) -> np.ndarray:
    """The words of the moves of coin j (rows, destinations p)."""
    return (words[rows] ^ (ONE << pos[rows, j].astype(U64))) | (ONE << p.astype(U64))


def _positions(words: np.ndarray, k: int) -> np.ndarray:
    """(N, k) ascending positions of the set bits of words with k bits each (lowest bit first)."""
    w = words.copy()
    out = np.empty((w.size, k), dtype=np.int64)
    for t in range(k):
        low = w & (~w + ONE)
        out[:, t] = np.bitwise_count(low - ONE)
        w ^= low
    return out


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
    ker = Kernel(instance, cells)
    need_cols = [np.array([[g]], dtype=U64) for g in need]
    square = b.kind is BoardKind.SQUARE and instance.d == 2 and all(len(c) == 2 for c in cells)
    cap = edge_cap(cells, need_cols, n_coins) if square else None
    for i in range(len(layers) - 1):
        for lo in range(0, layers[i].size, CHUNK):
            if deadline is not None and time.perf_counter() > deadline:
                raise LimitReached(f"the check of the layers stopped at L{i} (time limit)")
            chunk = layers[i][lo : lo + CHUNK]
            pos, words = _positions(chunk, n_coins), chunk[None, :]
            whole = ker.reaches(words, need_cols)[0]
            moves = ker.successors(pos, words, need_cols, whole, cap)
            parts = [_moved_words(chunk, pos, j, rows, p) for j, rows, p, _ in moves]
            if not parts:
                continue
            out = _distinct(np.concatenate(parts))
            for j in range(i + 1, -1, -1):  # the next layer first, then back (moves need not be reversible)
                if out.size == 0:
                    break
                out = _absent(out, layers[j])
            if out.size:
                return False, f"a successor of L{i} is in no layer up to L{i + 1} (word {int(out[0])})"
    states = sum(int(layer.size) for layer in layers)
    return True, f"closure of {len(layers)} layers ({states} configurations) verified"


# --- ranked (and pruned) layers -------------------------------------------------------------------


def _check_ranked(
    instance: Instance,
    cells: list,
    layers: list[np.ndarray],
    bound: int | None,
    deadline: float | None,
    workers: int = 1,
    h_name: str = "fill",
    radius: int | None = None,
    symmetries: list | None = None,
) -> tuple[bool, str]:
    """Conditions (2) and (3) of the module docstring on colex-ranked layers, pruned by h with
    ``bound`` U when given (decoder and kernel: :mod:`.ranked`), the chunks of each layer on
    ``workers`` threads when the compiled kernel runs; ``h_name`` "forced": the forced-supports
    h (module docstring), computed by the numpy kernel; "lmcut": the LM-cut h, computed by
    :mod:`.lmcut`; ``radius`` r: the perimeter h over that inner h (module docstring,
    "Perimeter"; the ball recomputed here by :mod:`.perimeter`); ``symmetries``: the file's
    group, verified and applied by :mod:`.orbits` (module docstring, "Symmetry")."""
    if len(instance.labels) > 1:
        return False, "layers certificates are for unlabeled coins"
    if h_name == "lmcut" and instance.d < 1:
        return False, "the h 'lmcut' needs adjacency d >= 1 (docs/lm-cut.md §3)"
    b = instance.board
    index = {c: i for i, c in enumerate(cells)}
    k = len(instance.start)
    if math.comb(len(cells), k) > 1 << 64:  # past 64 bits ranks wrap and name no single configuration
        return False, f"ranks of {k} coins on {len(cells)} cells do not fit 64 bits (C(n, k) > 2^64)"
    dec = Decoder(len(cells), k)
    ker = Kernel(instance, cells)
    try:
        start = sorted(index[b.coords[c]] for c in instance.start.cells)
    except KeyError:
        return False, "the start is not inside the window"
    placements = [g for g in instance.goal_configurations if all(b.coords[c] in index for c in g.cells)]
    goal_pos = np.array([sorted(index[b.coords[c]] for c in g.cells) for g in placements], dtype=np.int64)
    goal_pos = goal_pos.reshape(-1, k)
    goal_words = ker.words(goal_pos)
    goals = [goal_words[:, g : g + 1] for g in range(goal_words.shape[1])]
    spans = ker.span(goal_words)
    distinct = np.unique(spans.T, axis=0) if spans.shape[1] else spans.T
    need = [row[:, None].copy() for row in distinct]
    group = None
    if symmetries is not None:  # Lemma QC (docs/symmetry.md): a group of automorphisms fixing start and goal
        group, why = orbits.verified_group(symmetries, ker, start, goal_pos)
        if why:
            return False, why
    goal_ranks = np.unique(dec.ranks(goal_pos))
    square = b.kind is BoardKind.SQUARE and instance.d == 2 and all(len(c) == 2 for c in cells)
    cap = edge_cap(cells, need, k) if square else None
    if layers[0].tolist() != dec.ranks(np.array([start], dtype=np.int64)).tolist():
        return False, "L0 is not {start}"
    for i, layer in enumerate(layers):
        if layer.size and (np.any(layer[1:] <= layer[:-1]) or int(layer[-1]) >= dec.size):
            return False, f"L{i} is not a sorted set of ranks below C({len(cells)}, {k})"
        if _absent(goal_ranks, layer).size < goal_ranks.size:
            return False, f"L{i} holds a goal placement"
    fast = _compiled(sum(int(layer.size) for layer in layers), ker)
    jit = None if fast is None else fast.Expander(dec, ker, need, goals, cap)
    # (3) asks for y at depth i + 1 >= 1 iff h(y) <= U - 1 - i, so radii R >= U - 1 decide alike
    # (docs/perimeter-search.md, "The certificate"): the ball stops at U - 1, whatever R the file names
    ball = None
    if radius is not None:
        reach = radius if bound is None else min(radius, max(0, bound - 1))
        ball = perimeter.Ball(dec, ker, start, goal_pos, reach, deadline)

    lm = _lm_kernel(dec, ker, goals) if h_name == "lmcut" else None

    def inner(ranks: np.ndarray, budget: int) -> np.ndarray:
        """h of ``ranks``, or for "lmcut" min(h, budget + 1): the same decision h <= budget."""
        if lm is not None:
            return lm.h(ranks, budget)
        if h_name == "forced":
            return ker.h_forced(ker.words(dec.positions(ranks)), goals)
        return ker.h(ker.words(dec.positions(ranks)), goals) if jit is None else jit.h(ranks)

    def missing(i: int, lo: int) -> int | None:
        """A successor asked for by (3) of the chunk of L_i at ``lo`` that lies in no layer up to L_{i+1}."""
        if deadline is not None and time.perf_counter() > deadline:
            raise LimitReached(f"the check of the layers stopped at L{i} (time limit)")
        chunk = layers[i][lo : lo + CHUNK]
        parts = jit.successors(chunk) if jit is not None else numpy_successors(dec, ker, chunk, need, cap)
        if not parts:
            return None
        out = _distinct(orbits.canonical(dec, group, np.concatenate(parts)))  # (3) on canonical forms
        # the layers a successor is usually in; all of them first when h costs more than a lookup
        for j in range(i + 1, -1 if lm is not None else max(-1, i - 2), -1):
            if out.size == 0:
                break
            out = _absent(out, layers[j])
        if bound is not None and out.size:  # only successors with (i + 1) + h <= U are asked for
            budget = bound - (i + 1)
            h = inner(out, budget) if ball is None else ball.h(out, lambda r: inner(r, budget))
            out = out[h <= budget]
        for j in range(i - 2, -1, -1):
            if out.size == 0:
                break
            out = _absent(out, layers[j])
        return int(out[0]) if out.size else None

    # the numpy kernel: one thread (module docstring), unless the compiled LM-cut h takes the time
    threads = workers if jit is not None or lm is not None else 1
    for i in range(len(layers) - 1):
        with closing(_in_order(missing, i, range(0, layers[i].size, CHUNK), threads)) as answers:
            for rank in answers:
                if rank is not None:
                    return False, f"a successor of L{i} is in no layer up to L{i + 1} (rank {rank})"
    states = sum(int(layer.size) for layer in layers)
    name = h_name if ball is None else f"perimeter r = {radius} over {h_name}, ball of {ball.ranks.size} states"
    pruned = "" if bound is None else f", pruned by h ({name}) with upper bound {bound}"
    quotient = "" if group is None else f", one per orbit of a symmetry group of order {len(group) + 1}"
    return True, f"closure of {len(layers)} ranked layers ({states} configurations{quotient}{pruned}) verified"


def _in_order(task, i: int, starts: range, threads: int):
    """``task(i, lo)`` for every ``lo`` of ``starts``, the answers in order; with ``threads`` > 1 on
    that many threads, at most two tasks per thread ahead of the answer read (a chunk's temporaries
    are a few hundred bytes per configuration).  An exception (the deadline, Ctrl-C in the caller)
    cancels the tasks not started; the running ones end with their chunk."""
    if threads <= 1:
        yield from (task(i, lo) for lo in starts)
        return
    pool = ThreadPoolExecutor(threads, thread_name_prefix="coinsat-check")
    ahead: deque = deque()
    try:
        for lo in starts:
            ahead.append(pool.submit(task, i, lo))
            if len(ahead) >= 2 * threads:
                yield ahead.popleft().result()
        while ahead:
            yield ahead.popleft().result()
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


def numpy_successors(dec: Decoder, ker: Kernel, ranks: np.ndarray, need: list, cap: int | None) -> list:
    """The successor ranks of ``ranks`` that condition (3) asks for, by :mod:`.ranked`'s numpy kernel
    (unsorted, with repeats; one array per removed coin index)."""
    pos = dec.positions(ranks)
    words = ker.words(pos)
    whole = ker.reaches(words, need)[0]
    tables = dec.tables(pos)
    return [dec.moved(tables, rows, j, p, m) for j, rows, p, m in ker.successors(pos, words, need, whole, cap)]


def _compiled(states: int, ker: Kernel):
    """:mod:`.rankedjit` for a check of ``states`` configurations on ``ker``'s window when numba
        loads, else None (the numpy kernel of :mod:`.ranked`).  Measured (``benchmarks/scale-checkkernel.md``):
        on two words the compiled kernel checks 2.25x faster; on one word numpy's whole-array operations
        are as fast or faster, so one-word checks stay in numpy unless ``COINSAT_CHECK_KERNEL`` says numba
    (``environment.check_kernel``).  d = 0
        (every empty cell a destination) is the numpy kernel's alone: the compiled counter starts at 1.
        The import and compile run with SIGINT and the alarm held back (``limits.signals_deferred``)."""
    mode = check_kernel()
    if ker.d < 1 or mode == "numpy" or (mode != "numba" and (states < JIT_MIN_STATES or ker.W < 2)):
        return None
    with signals_deferred():
        from . import rankedjit

        return rankedjit if rankedjit.warm_up() else None


def _lm_kernel(dec: Decoder, ker: Kernel, goals: list):
    """:mod:`.lmcut`'s kernel for this certificate, loaded (numba imported and the kernel compiled or
    read from numba's cache) with SIGINT and the alarm held back, as in :func:`_compiled`; without
    numba the same functions run as Python."""
    with signals_deferred():
        from . import lmcut

        lmcut.warm_up()
        return lmcut.LMCut(dec, ker, goals)


def _distinct(values: np.ndarray) -> np.ndarray:
    """Sorted distinct values (sorted in place)."""
    values.sort()
    return values[np.concatenate(([True], values[1:] != values[:-1]))] if values.size else values


def _absent(values: np.ndarray, layer: np.ndarray) -> np.ndarray:
    """The sorted ``values`` that are not in the sorted ``layer``."""
    if layer.size == 0 or values.size == 0:
        return values
    idx = np.minimum(np.searchsorted(layer, values), layer.size - 1)
    return values[layer[idx] != values]
