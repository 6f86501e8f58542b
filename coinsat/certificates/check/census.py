"""The census certificate checker: a window's every configuration of |G| coins and its distance to G.

A census certificate is a folder with ``census.json`` and ``layers.npz`` (format version 1,
written by ``coinsat census``); ``docs/census.md`` states the format, the conditions (0)-(3)
and the theorem that they imply the claim.  This module re-derives everything from the file
alone, with its own code: the neighbours from the board and the cells (square (±1,0), (0,±1);
triangular axial (±1,0), (0,±1), (1,-1), (-1,1); a graph's edges), the colex ranks, whether the
window is closed (Lemma W), and the symmetry group (the lattice's point group with the
translation that maps the window onto itself).  It imports nothing from ``coinsat.search``,
``coinsat.theory`` or ``coinsat.census`` (a test walks the imports).

The check, in the order it runs (each rejection names the item):

1. the JSON fields: types, sizes, counts (``configurations`` = C(N, n), ``reachable`` = the sum of
   ``layer_sizes``, ``unsolvable`` the rest), ``closed`` against Lemma W, ``symmetries`` against
   the recomputed group (graphs: a group of automorphisms fixing the goal, checked element by
   element and for closure);
2. condition (0): the layers into a dense array ``l`` (:func:`.censusjit.scatter`): sorted,
   disjoint, in range, layer 0 = {rank(goal)}, every layer non-empty;
3. condition (1): lambda from the layers (:func:`.censusjit.lift`, Lemma U's Lift);
4. conditions (2) and (3) in one sweep over every configuration (:func:`.censusjit.sweep`, Lemma S);
5. the hardest list: every listed start is in layer D, no two share an orbit, and every member of
   layer D shares an orbit with a listed one (:func:`.censusjit.canonical`, Lemma O).

Theorem C of ``docs/census.md`` then gives the :class:`CensusClaim`.  Memory: C(N, n) bytes for
``l`` plus C(N, n - 1) for lambda (two bytes each when D >= 255); a check that runs out of memory
or time is neither accepted nor rejected (:class:`~coinsat.errors.LimitReached`).
"""

from __future__ import annotations

import json
import time
import zipfile
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from math import comb
from pathlib import Path
from typing import Any, Iterator

import numpy as np

from ...errors import LimitReached
from ...limits import poll, signals_deferred
from .census_window import Rejected, closed_window, neighbour_masks, symmetry_group
from .format import Check, confined_file, unique_keys

FORMAT = "coinsat-census"
VERSION = 1
MAX_CELLS = 64  # one uint64 per configuration
CHUNK = 1 << 22  # ranks per sweep call: the deadline is read between calls
SPLIT = 1 << 16  # a layer this long or longer is cut into one part per worker for the lifts


@dataclass(frozen=True)
class CensusClaim:
    """What a checked census proves: for every configuration X of ``coins`` coins on the window
    of ``cells`` cells, X reaches the goal by moves inside the window iff X is in a layer, and then
    in fewest moves = its layer; ``closed``: the same holds on the unbounded board (Lemma W)."""

    board: str
    adjacency: int
    cells: int
    coins: int
    closed: bool
    layer_sizes: tuple[int, ...]
    hardest: int  # orbits of layer D
    group: int  # the symmetry group's order

    @property
    def max_distance(self) -> int:
        return len(self.layer_sizes) - 1

    @property
    def reachable(self) -> int:
        return sum(self.layer_sizes)

    @property
    def configurations(self) -> int:
        return comb(self.cells, self.coins)

    @property
    def scope(self) -> str:
        return "global" if self.closed else "window"

    def text(self) -> str:
        where = "" if self.closed else " inside the window"
        return (
            f"census of {self.coins} coins on {self.cells} cells ({self.board}, d = {self.adjacency}): "
            f"D = {self.max_distance}; {self.reachable} configurations reach the goal{where} at the distances "
            f"of their layers, {self.configurations - self.reachable} cannot; layer {self.max_distance} "
            f"is {self.hardest} orbit(s) under a group of {self.group}"
        )


@dataclass
class Census:
    """A checked census: its claim and the arrays a caller may query (``l``: layer by rank)."""

    claim: CensusClaim
    cells: list
    goal: tuple[int, ...]
    l: np.ndarray
    binom: np.ndarray
    neighbours: np.ndarray  # bit masks

    def rank(self, positions) -> int:
        return sum(comb(c, i + 1) for i, c in enumerate(sorted(positions)))

    def distance(self, positions) -> int | None:
        """The distance of the configuration on these positions (None: it cannot reach the goal)."""
        t = int(self.l[self.rank(positions)])
        return None if t == np.iinfo(self.l.dtype).max else t


def check_census(path: str | Path, deadline: float | None = None, workers: int = 1) -> Check:
    """Accept or reject the census certificate at ``path`` (its folder or its ``census.json``).

    ``deadline``: a ``time.perf_counter()`` value; a check that cannot finish by then raises
    :class:`~coinsat.errors.LimitReached`, as does running out of memory.  ``workers``: threads
    for the passes over the layers and the sweep (the verdict does not depend on it)."""
    t0 = time.perf_counter()
    try:
        census = verified_census(path, deadline, workers)
    except Rejected as e:
        return Check(False, str(e), "", "", time.perf_counter() - t0, "")
    except MemoryError:
        raise LimitReached("memory limit (the check ran out of memory)") from None
    c = census.claim
    return Check(True, "conditions (0)-(3) hold", c.text(), c.scope, time.perf_counter() - t0, c.text())


def verified_census(path: str | Path, deadline: float | None = None, workers: int = 1) -> Census:
    """The checked census at ``path``; :class:`Rejected` (with the reason) if it is not one."""
    path = Path(path)
    folder = path if path.is_dir() else path.parent
    json_path = folder / "census.json" if path.is_dir() else path
    try:
        obj = json.loads(json_path.read_bytes().decode("ascii"), object_pairs_hook=unique_keys)
    except OSError as e:
        raise Rejected(f"{json_path.name}: cannot be read: {e.strerror or e}") from None
    except (ValueError, RecursionError) as e:
        raise Rejected(f"{json_path.name}: not JSON: {str(e).splitlines()[0][:200]}") from None
    return census_from(obj, folder, json_path.name, deadline, workers)


def census_from(obj: Any, folder: Path, name: str, deadline: float | None = None, workers: int = 1) -> Census:
    """The checked census of a parsed ``census.json`` (``name``) whose layers file is in ``folder``."""
    try:
        return _verified(obj, folder, name, deadline, workers)
    except (KeyError, TypeError, ValueError, IndexError, OverflowError, zipfile.BadZipFile, EOFError, OSError) as e:
        raise Rejected(f"malformed census certificate: {type(e).__name__}: {e}") from None


def _int(obj: dict, key: str, low: int = 0) -> int:
    v = obj[key]
    if not isinstance(v, int) or isinstance(v, bool) or v < low:
        raise Rejected(f"census.json: {key} must be an integer >= {low}, not {v!r}")
    return v


def _verified(obj: Any, folder: Path, name: str, deadline: float | None, workers: int) -> Census:
    if (
        not isinstance(obj, dict)
        or obj.get("format") != FORMAT
        or type(obj.get("version")) is not int
        or obj.get("version") != VERSION
    ):
        raise Rejected(f"{name}: not a {FORMAT} certificate of version {VERSION}")
    board, d = obj["board"], _int(obj, "adjacency", 1)
    cells = obj["cells"]
    if not isinstance(cells, list):
        raise Rejected("census.json: cells must be a list")
    N = len(cells)
    if N > MAX_CELLS:
        raise Rejected(f"census.json: {N} cells; this checker handles windows of at most {MAX_CELLS} cells")
    nb = neighbour_masks(board, cells, obj)
    goal = _positions(obj["goal"], N, "goal")
    n = len(goal)
    if n == 0:
        raise Rejected("census.json: the goal has no coins")
    closed = closed_window(board, cells, d)  # Lemma W
    if obj["closed"] is not closed:
        raise Rejected(f"census.json: closed is {obj['closed']!r}, but the window is {'' if closed else 'not '}closed")
    sizes, D, total = _counts(obj, N, n)
    group = symmetry_group(board, cells, goal, nb, obj["symmetries"])
    hardest = [_positions(h, N, f"hardest[{i}]") for i, h in enumerate(obj["hardest"])]
    if any(len(h) != n for h in hardest):
        raise Rejected(f"census.json: every hardest start must have {n} coins")
    layers_path, why = confined_file(folder, obj["layers"], "census.json: layers")
    if layers_path is None:
        raise Rejected(why or "census.json: layers")

    with signals_deferred():
        from . import censusjit as jit

        jit.warm_up()
    binom = jit.binomials(N, n)
    dtype = np.uint8 if D < 255 else np.uint16
    if D >= 65535:
        raise Rejected(f"census.json: max_distance {D} is beyond this checker (at most 65534)")
    none = int(np.iinfo(dtype).max)
    l = _dense(total, none, dtype)
    lam = _dense(comb(N, n - 1), none, dtype)
    last = np.zeros(0, dtype=np.int64)
    for t, layer in _read_layers(layers_path, D, sizes, total, l, none, jit):  # one layer in memory at a time
        if t == 0 and (layer.size != 1 or int(layer[0]) != _rank(goal)):
            raise Rejected("condition (0): layer 0 is not {rank(goal)}")
        # condition (1), Lemma U: t increasing, so the first write is the min
        _run(workers, [(jit.lift, (lam, part, t, n, N, binom, nb, d)) for part in _split(layer, workers)], deadline)
        last = layer
    _sweep(l, lam, total, n, N, binom, none, cells, deadline, workers, jit)  # conditions (2), (3): Lemma S
    del lam
    orbits = _hardest(l, last, D, hardest, group, n, N, binom, cells, jit)
    claim = CensusClaim(str(board), d, N, n, closed, tuple(sizes), orbits, len(group))
    return Census(claim, cells, tuple(goal), l, binom, nb)


def _positions(value: Any, N: int, what: str) -> list[int]:
    """A strictly increasing list of positions 0 .. N - 1."""
    if not isinstance(value, list) or not all(isinstance(q, int) and not isinstance(q, bool) for q in value):
        raise Rejected(f"census.json: {what} must be a list of positions")
    if any(q < 0 or q >= N for q in value) or any(a >= b for a, b in zip(value, value[1:])):
        raise Rejected(f"census.json: {what} must be strictly increasing positions 0 .. {N - 1}")
    return value


def _rank(positions) -> int:
    """The colex rank (Lemma R)."""
    return sum(comb(c, i + 1) for i, c in enumerate(sorted(positions)))


def _unrank(r: int, n: int, N: int) -> list[int]:
    out, c = [], N - 1
    for i in range(n - 1, -1, -1):
        while comb(c, i + 1) > r:
            c -= 1
        out.append(c)
        r -= comb(c, i + 1)
        c -= 1
    return out[::-1]


def _counts(obj: dict, N: int, n: int) -> tuple[list[int], int, int]:
    """layer_sizes, D and C(N, n), after checking every count field against each other."""
    sizes = obj["layer_sizes"]
    if (
        not isinstance(sizes, list)
        or not sizes
        or not all(isinstance(s, int) and not isinstance(s, bool) for s in sizes)
    ):
        raise Rejected("census.json: layer_sizes must be a non-empty list of integers")
    if sizes[0] != 1 or any(s < 1 for s in sizes):
        raise Rejected("census.json: layer 0 has one configuration and no layer is empty")
    D, total = _int(obj, "max_distance"), comb(N, n)
    if D != len(sizes) - 1:
        raise Rejected(f"census.json: max_distance {D} but {len(sizes)} layers")
    if _int(obj, "configurations") != total:
        raise Rejected(f"census.json: configurations is {obj['configurations']}, not C({N}, {n}) = {total}")
    reachable = sum(sizes)
    if _int(obj, "reachable") != reachable or reachable > total:
        raise Rejected(f"census.json: reachable is {obj['reachable']}, the layers hold {reachable} (of {total})")
    if _int(obj, "unsolvable") != total - reachable:
        raise Rejected(f"census.json: unsolvable is {obj['unsolvable']}, not {total} - {reachable}")
    return sizes, D, total


def _read_layers(
    path: Path, D: int, sizes: list[int], total: int, l: np.ndarray, none: int, jit
) -> Iterator[tuple[int, np.ndarray]]:
    """Condition (0): every layer sorted, in range and disjoint from the ones before, written into
    ``l``; yields (t, layer) in increasing t, each read when the one before has been used."""
    with np.load(path, allow_pickle=False) as z:
        names = set(z.files)
        wanted = {f"layer_{t}" for t in range(D + 1)}
        if names != wanted:
            extra = sorted(names - wanted)[:3]
            missing = sorted(wanted - names, key=lambda s: int(s[6:]))[:3]
            raise Rejected(f"layers.npz: arrays layer_0 .. layer_{D} expected; missing {missing}, extra {extra}")
        for t in range(D + 1):
            a = z[f"layer_{t}"]
            if a.dtype != np.uint64 or a.ndim != 1:
                raise Rejected(f"layers.npz: layer_{t} must be a 1-D uint64 array, not {a.ndim}-D {a.dtype}")
            if a.size != sizes[t]:
                raise Rejected(f"layers.npz: layer_{t} has {a.size} ranks, layer_sizes says {sizes[t]}")
            a = a.view(np.int64)
            i, why = jit.scatter(l, a, t, total, none)
            if i >= 0:
                r = int(a[i]) % (1 << 64)
                what = {1: "is not above the one before", 2: f"is not below C(N, n) = {total}", 3: "is in two layers"}
                raise Rejected(f"condition (0): layer_{t}[{i}] = {r} {what[why]}")
            yield t, a


def _dense(size: int, none: int, dtype) -> np.ndarray:
    """An array of ``size`` sentinels; a size beyond numpy or the memory is a limit, not a rejection."""
    try:
        return np.full(size, none, dtype=dtype)
    except (ValueError, MemoryError):
        raise LimitReached(f"memory limit (the check needs an array of {size:,} entries)") from None


def _split(a: np.ndarray, parts: int) -> list[np.ndarray]:
    if parts <= 1 or a.size < SPLIT:
        return [a]
    return [p for p in np.array_split(a, parts) if p.size]


def _limit(deadline: float | None) -> None:
    poll()
    if deadline is not None and time.perf_counter() > deadline:
        raise LimitReached("time limit")


def _run(workers: int, calls: list, deadline: float | None) -> list:
    """Run (function, arguments) calls: on threads when ``workers`` > 1 (the kernels release the GIL)."""
    _limit(deadline)
    if workers <= 1 or len(calls) <= 1:
        return [f(*args) for f, args in calls]
    with ThreadPoolExecutor(workers) as pool:
        return list(pool.map(lambda call: call[0](*call[1]), calls))


def _sweep(l, lam, total, n, N, binom, none, cells, deadline, workers, jit) -> None:
    """Conditions (2) and (3) over every configuration, a chunk of ranks per call."""
    step = max(1, workers)
    for lo in range(0, total, CHUNK * step):
        bounds = [(a, min(a + CHUNK, total)) for a in range(lo, min(lo + CHUNK * step, total), CHUNK)]
        results = _run(workers, [(jit.sweep, (l, lam, a, b, n, N, binom, none)) for a, b in bounds], deadline)
        bad = [(int(r), int(code)) for code, r in results if code != jit.OK]
        if bad:
            r, code = min(bad)
            X = [cells[q] for q in _unrank(r, n, N)]
            t = int(l[r])
            if code == jit.MISSING:
                raise Rejected(f"condition (2): {X} (rank {r}) is a predecessor of a layer but in no layer")
            if code == jit.TOO_FAR:
                raise Rejected(
                    f"condition (2): {X} (rank {r}) is in layer {t}, but has a successor two or more layers down"
                )
            raise Rejected(f"condition (3): {X} (rank {r}) is in layer {t}, but has no successor in layer {t - 1}")


def _hardest(l, last, D, hardest, group, n, N, binom, cells, jit) -> int:
    """Lemma O: the listed starts are in layer D, in distinct orbits, and their orbits cover layer D."""
    ranks = np.array([_rank(h) for h in hardest], dtype=np.int64)
    for h, r in zip(hardest, ranks):
        if int(l[r]) != D:
            raise Rejected(f"census.json: hardest start {[cells[q] for q in h]} is not in layer {D}")
    perms = np.array(group, dtype=np.int64).reshape(len(group), N)
    listed = np.zeros(ranks.size, dtype=np.int64)
    jit.canonical(ranks, perms, n, N, binom, listed)
    if np.unique(listed).size != listed.size:
        raise Rejected("census.json: two hardest starts lie in one orbit")
    members = last
    canon = np.zeros(members.size, dtype=np.int64)
    jit.canonical(members, perms, n, N, binom, canon)
    uncovered = np.setdiff1d(canon, listed)
    if uncovered.size:
        X = [cells[q] for q in _unrank(int(uncovered[0]), n, N)]
        raise Rejected(f"census.json: the orbit of {X} in layer {D} has no hardest start")
    return int(listed.size)
