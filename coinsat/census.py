"""The census: the exact distance to a goal of every configuration of a window.

``census(instance)`` takes the goal of ``instance`` and its window (the board the instance file
builds: on the square grid with d >= 2, span(start) plus the goal, which for the diagonal family
is the whole k x k box) and runs one breadth-first search backwards from the goal over every
configuration with as many coins (``search/rank/census.py``, the kernel).  The answer:

* the layer sizes (how many configurations need exactly t moves), their sum (the solvable
  configurations) and the rest of C(N, n) (those that cannot reach the goal);
* D, the largest distance, and the configurations at distance D up to the goal's symmetry
  group (the lattice symmetries that map the window and the goal onto themselves), each with
  an optimal solution found by descending the layers and replayed by ``rules.py``;
* a certificate (``write_certificate``): the layers as sorted colex ranks, which
  ``certificates/check/census.py`` checks with its own code (docs/census.md).

The answer is about moves inside the window.  It is the answer on the unbounded board when the
window is *closed* (no cell outside it has d or more neighbours inside, Lemma W of
docs/census.md: then no move ever leaves it); ``Census.closed`` says which.
"""

from __future__ import annotations

import json
import os
import time
from dataclasses import dataclass, field
from math import comb
from pathlib import Path
from typing import Any, Callable

import numpy as np

from . import geometry
from .board import cell_json
from .configuration import Configuration
from .errors import InternalError, LimitReached, UsageError
from .instance import Instance
from .limits import Limits
from .solution import Solution, certify_solution

#: the certificate format this module writes (docs/certificates.md, docs/census.md)
FORMAT = "coinsat-census"
VERSION = 1
#: cells a window may have (one uint64 bitboard)
MAX_CELLS = 64


@dataclass
class Progress:
    """One report of a running census: the layer being expanded and the work so far."""

    depth: int
    layer: int  # configurations in the layer being expanded
    done: int  # of them expanded so far
    states: int  # configurations met so far (all layers)
    seconds: float


@dataclass
class Census:
    """What a census found (module docstring)."""

    instance: Instance
    window: tuple  # the cells' coordinates, position q = index (the board's order)
    goal: tuple[int, ...]
    closed: bool
    layer_sizes: list[int]
    layers: list[np.ndarray] = field(repr=False)
    symmetries: list[list[int]]
    hardest: list[tuple[int, ...]]  # one configuration (positions) per orbit of the last layer
    seconds: float = 0.0
    cpu_seconds: float = 0.0
    expanded_lifts: int = 0
    expanded: int = 0  # configurations expanded by this run (fewer than ``reachable`` after a resume)
    scan_cpu_seconds: float = 0.0  # of cpu_seconds, reading the layers off the distance array
    _dist: np.ndarray | None = field(default=None, repr=False)

    @property
    def cells(self) -> int:
        return len(self.window)

    @property
    def coins(self) -> int:
        return len(self.goal)

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
    def unsolvable(self) -> int:
        return self.configurations - self.reachable

    @property
    def rate(self) -> float:
        """Configurations expanded per CPU second by this run (each is expanded once)."""
        return self.expanded / max(self.cpu_seconds, 1e-9)

    def distances(self) -> np.ndarray:
        """The distance of every rank (``UNSEEN`` for those no layer holds), built once."""
        if self._dist is None:
            from .search.rank.census import distance_array

            self._dist = distance_array(self.configurations)
            for t, layer in enumerate(self.layers):
                self._dist[layer] = t
        return self._dist

    def distance_of(self, configurations: Any) -> np.ndarray:
        """The distance to the goal of each configuration (255, ``UNSEEN``: none, it cannot reach it).

        ``configurations`` is one row per configuration of the window's positions (cell indices of
        the census's board, ``window[q]`` their coordinates), ``coins`` per row in any order.
        """
        from .search.rank.colex import Colex

        rows = np.sort(np.asarray(configurations, dtype=np.int64).reshape(-1, self.coins), axis=1)
        return self.distances()[Colex(self.cells, self.coins).rank(rows)]

    def as_json(self) -> dict:
        return {
            "name": self.instance.name,
            "board": str(self.instance.board.kind),
            "adjacency": self.instance.d,
            "cells": self.cells,
            "coins": self.coins,
            "closed": self.closed,
            "scope": "global" if self.closed else "window",
            "layer_sizes": self.layer_sizes,
            "max_distance": self.max_distance,
            "reachable": self.reachable,
            "configurations": self.configurations,
            "unsolvable": self.unsolvable,
            "hardest": [[cell_json(self.window[q]) for q in h] for h in self.hardest],
            "symmetry_group_order": len(self.symmetries),
            "states": self.reachable,
            "expanded": self.expanded,
            "scan_cpu_seconds": round(self.scan_cpu_seconds, 3),
            "seconds": round(self.seconds, 3),
            "cpu_seconds": round(self.cpu_seconds, 3),
            "states_per_cpu_second": round(self.rate),
        }


def is_closed(instance: Instance) -> bool:
    """No lattice cell outside the window has >= d neighbours inside it (graph boards: True)."""
    board = instance.board
    if not board.is_lattice:
        return True
    inside = set(board.lattice_coords)
    rim = {n for c in inside for n in geometry.neighbours(board.kind, c)} - inside
    return all(sum(m in inside for m in geometry.neighbours(board.kind, c)) < instance.d for c in rim)


def symmetries(instance: Instance) -> list[list[int]]:
    """The goal's symmetry group on the window (``theory.reach.symmetries`` without the start),
    as permutations of the positions, the identity first."""
    from .theory.reach import symmetries as lattice_symmetries

    out = [list(range(instance.board.size))]
    for perm in lattice_symmetries(instance, fix_start=False):
        if list(perm) not in out:
            out.append(list(perm))
    return out


def _check(instance: Instance) -> None:
    if len(instance.labels) > 1:
        raise UsageError("the census counts unlabeled coins; this puzzle has labels")
    if instance.goal_placement != "fixed":
        raise UsageError("the census needs a fixed goal (goal_placement = 'fixed')")
    if instance.moves != "jump":
        raise UsageError("the census knows jumps only (moves = 'jump')")
    if instance.board.size > MAX_CELLS:
        raise UsageError(f"the census handles windows of up to {MAX_CELLS} cells; this one has {instance.board.size}")


def span_counts(instance: Instance, *, pairs: bool = True, parts: int = 256) -> tuple[int, int | None]:
    """Two counts over the configurations of the window with the puzzle's number of coins, by code
    the census does not use: a check of a census and of the paper's Theorem 2.

    Span never grows along a move, so when the goal spans the window every configuration that can
    reach it spans the window too; and when the goal's two extra coins each touch two others
    (Theorem 2, square grid, d = 2) every configuration with two coins whose removal keeps the
    span can reach it.  So ``two_extra <= Census.reachable <= spanning`` for such a goal.

    Parameters
    ----------
    instance : Instance
        The window (its board, at most 64 cells), the number of coins and d.
    pairs : bool
        Also count ``two_extra`` (n^2 more work per spanning configuration).
    parts : int
        Blocks of the ranks counted in parallel (numba threads).

    Returns
    -------
    tuple
        ``(spanning, two_extra)``: the configurations whose span is the whole window, and those
        of them with two coins whose removal keeps it (None unless ``pairs``).

    Raises
    ------
    UsageError
        For a window of more than 64 cells, or a missing numba (``coinsat[fast]``).
    """
    from .limits import signals_deferred
    from .search.rank.colex import Colex

    board = instance.board
    N, n = board.size, instance.n_coins
    if N > MAX_CELLS:
        raise UsageError(f"the span counts handle windows of up to {MAX_CELLS} cells; this one has {N}")
    with signals_deferred():
        from .search.rank import census as kernel

        if not kernel.HAVE_NUMBA:
            raise UsageError("the span counts need numba: pip install 'coinsat[fast]'")
    nb = np.array([sum(1 << j for j in board.neighbours[q]) for q in range(N)], dtype=np.uint64)
    full = np.uint64((1 << N) - 1)
    spanning, two = kernel.count_spanning(n, N, Colex(N, n).binom, nb, instance.d, full, parts, pairs)
    return int(spanning), (int(two) if pairs else None)


def memory_needed(cells: int, coins: int) -> int:
    """Bytes of the two dense arrays: a distance per n-set, a bit per (n - 1)-set."""
    return comb(cells, coins) + comb(cells, coins - 1) // 8 + 1


def census(
    instance: Instance,
    *,
    limits: Limits | None = None,
    workers: int | None = None,
    resume: str | Path | None = None,
    progress: Callable[[Progress], None] | None = None,
) -> Census:
    """Run the census of ``instance``'s goal over its window (module docstring).

    ``workers`` threads expand each layer (default: all cores); ``resume`` names a folder where
    every finished layer is saved and from which an interrupted census continues.  Raises
    UsageError for a puzzle the census does not cover (labels, a goal that may move, slides, more
    than 64 cells, or arrays larger than the memory limit) and LimitReached when the time limit
    stops it (the layers saved in ``resume`` are kept).
    """
    from .limits import signals_deferred
    from .search.rank.colex import Colex

    _check(instance)
    board = instance.board
    N, n = board.size, instance.n_coins
    need = memory_needed(N, n)
    cap = limits.memory_limit if limits is not None else None
    if cap is not None and need > cap:
        raise UsageError(
            f"the census of {n} coins on {N} cells needs {need / 2**30:.1f} GiB for its arrays; "
            f"the memory limit is {cap / 2**30:.1f} GiB"
        )
    with signals_deferred():  # numba and LLVM load with interrupts held back (visited.compiled)
        from .search.rank import census as kernel

        if not kernel.HAVE_NUMBA:
            raise UsageError("the census needs numba: pip install 'coinsat[fast]'")
        kernel.warm_up()
    import numba

    most = numba.config.NUMBA_NUM_THREADS  # type: ignore[attr-defined]
    numba.set_num_threads(most if not workers else max(1, min(workers, most)))  # every call sets its own
    colex = Colex(N, n)
    binom = colex.binom
    nb = np.array([sum(1 << j for j in board.neighbours[q]) for q in range(N)], dtype=np.uint64)
    d = instance.d
    goal = tuple(sorted(instance.goal.cells))
    t0, c0 = time.perf_counter(), time.process_time()
    dist = kernel.distance_array(comb(N, n))
    zseen = np.zeros(comb(N, n - 1) // 8 + 1, dtype=np.uint8)  # one bit per (n - 1)-set
    layers: list[np.ndarray] = []
    saved = _Saved(resume, instance) if resume is not None else None
    if saved is not None:
        layers = saved.load()
        for t, layer in enumerate(layers):
            dist[layer] = t
        for layer in layers[:-1]:
            kernel.mark_lifts(layer, n, N, binom, nb, d, zseen)
    if not layers:
        layers = [colex.rank(np.array([goal], dtype=np.int64))]
        dist[layers[0]] = 0
        if saved is not None:
            saved.save(0, layers[0])
    lifts = expanded = 0
    scan = 0.0
    met = sum(int(x.size) for x in layers)
    chunk = 1 << 20
    while layers[-1].size:
        t = len(layers) - 1
        if t + 1 > kernel.MAX_DEPTH:
            raise UsageError(f"the census stores distances in one byte; layer {t + 1} is too deep")
        layer = layers[-1]
        expanded += int(layer.size)
        writes = 0
        for lo in range(0, layer.size, chunk):
            if limits is not None and (why := limits.exceeded()):
                raise LimitReached(f"{why} while expanding layer {t} (layers 0..{t} are complete)")
            fresh, wrote = kernel.expand(layer[lo : lo + chunk], np.uint8(t + 1), n, N, binom, nb, d, dist, zseen)
            lifts += int(fresh)
            writes += int(wrote)
            if progress is not None:
                progress(Progress(t, int(layer.size), min(lo + chunk, layer.size), met, time.perf_counter() - t0))
        c1 = time.process_time()
        nxt = kernel.layer_of(dist, t + 1, at_most=writes)
        scan += time.process_time() - c1
        if nxt.size == 0:
            break
        layers.append(nxt)
        met += int(nxt.size)
        if saved is not None:
            saved.save(t + 1, nxt)
    seconds, cpu = time.perf_counter() - t0, time.process_time() - c0
    syms = symmetries(instance)
    last = colex.unrank(layers[-1])
    hardest = _orbits(last, syms, colex)
    return Census(
        instance=instance,
        window=board.coords,
        goal=goal,
        closed=is_closed(instance),
        layer_sizes=[int(x.size) for x in layers],
        layers=layers,
        symmetries=syms,
        hardest=hardest,
        seconds=seconds,
        cpu_seconds=cpu,
        expanded_lifts=lifts,
        expanded=expanded,
        scan_cpu_seconds=scan,
        _dist=dist,
    )


def _orbits(configs: np.ndarray, syms: list[list[int]], colex) -> list[tuple[int, ...]]:
    """One representative (the least rank) per orbit of the rows of ``configs`` under ``syms``."""
    if configs.shape[0] == 0:
        return []
    ranks = colex.rank(configs)
    best = ranks.copy()
    for perm in syms[1:]:
        image = np.sort(np.asarray(perm, dtype=np.int64)[configs], axis=1)
        best = np.minimum(best, colex.rank(image))
    reps = np.unique(best)
    return [tuple(int(c) for c in row) for row in colex.unrank(reps)]


def solve_from(c: Census, start: tuple[int, ...]) -> Solution:
    """An optimal solution from ``start`` (a configuration of the census) to the goal: at each
    step the first of ``rules.successors``'s moves to a configuration one layer nearer, so the
    moves come from the one move validator; the whole is replayed by it again (raises if it fails)."""
    from .configuration import bits
    from .rules import successors
    from .search.rank.colex import Colex

    inst = c.instance
    colex = Colex(c.cells, c.coins)
    dist = c.distances()
    state = sum(1 << q for q in start)
    t = int(dist[colex.rank(np.array([sorted(start)], dtype=np.int64))[0]])
    moves = []
    while t > 0:
        options = list(successors(inst.board, inst.d, (state,)))
        nexts = np.array([list(bits(y)) for _, (y,) in options], dtype=np.int64)
        nearer = np.flatnonzero(dist[colex.rank(nexts)] == t - 1)
        if nearer.size == 0:
            raise InternalError(f"census: no move one layer nearer from layer {t} (the layers are wrong)")
        move, (state,) = options[int(nearer[0])]
        moves.append(move)
        t -= 1
    return certify_solution(with_start(inst, start), Solution(tuple(moves)), "census")


def with_start(instance: Instance, start: tuple[int, ...]) -> Instance:
    """``instance`` with ``start`` (positions of its board) as the start."""
    from dataclasses import replace

    label = instance.goal.labels[0]
    return replace(instance, start=Configuration(tuple((q, label) for q in sorted(start))), known_optimal=None)


def write_certificate(c: Census, folder: str | Path) -> Path:
    """The census certificate (docs/census.md): ``census.json`` and ``layers.npz``, written to a
    temporary name and renamed, so that a folder never holds half a certificate."""
    from .io.atomic import write_atomic

    out = Path(folder)
    out.mkdir(parents=True, exist_ok=True)
    board = c.instance.board
    meta: dict = {
        "format": FORMAT,
        "version": VERSION,
        "board": str(board.kind),
        "adjacency": c.instance.d,
        "cells": [cell_json(x) for x in c.window],
    }
    if not board.is_lattice:
        meta["edges"] = [[i, j] for i in range(board.size) for j in board.neighbours[i] if i < j]
    meta.update(
        {
            "goal": list(c.goal),
            "closed": c.closed,
            "layer_sizes": c.layer_sizes,
            "max_distance": c.max_distance,
            "reachable": c.reachable,
            "configurations": c.configurations,
            "unsolvable": c.unsolvable,
            "hardest": [list(h) for h in c.hardest],
            "symmetries": c.symmetries,
            "layers": "layers.npz",
        }
    )
    tmp = out / "layers.tmp.npz"
    with open(tmp, "wb") as f:
        np.savez(f, **{f"layer_{t}": layer for t, layer in enumerate(c.layers)})  # type: ignore[arg-type]
    os.replace(tmp, out / "layers.npz")
    write_atomic(out / "census.json", json.dumps(meta, indent=1) + "\n")
    return out


class _Saved:
    """The layers of an interrupted census, one ``layer_T.npy`` per finished layer, beside a
    ``census-resume.json`` naming the puzzle (a folder of another puzzle is refused)."""

    def __init__(self, folder: str | Path, instance: Instance):
        self.dir = Path(folder)
        self.dir.mkdir(parents=True, exist_ok=True)
        board = instance.board
        self.key = {
            "board": str(board.kind),
            "adjacency": instance.d,
            "cells": [cell_json(x) for x in board.coords],
            "goal": sorted(instance.goal.cells),
        }
        marker = self.dir / "census-resume.json"
        if marker.exists():
            if json.loads(marker.read_text()) != self.key:
                raise UsageError(f"{self.dir}: its saved layers belong to another census (another window or goal)")
        else:
            marker.write_text(json.dumps(self.key) + "\n")

    def load(self) -> list[np.ndarray]:
        layers: list[np.ndarray] = []
        while (p := self.dir / f"layer_{len(layers)}.npy").exists():
            layers.append(np.load(p))
        return layers

    def save(self, t: int, layer: np.ndarray) -> None:
        tmp = self.dir / f"layer_{t}.tmp.npy"
        np.save(tmp, layer)
        os.replace(tmp, self.dir / f"layer_{t}.npy")


def write_hardest(c: Census, folder: str | Path) -> list[Path]:
    """One instance file per hardest start (``<name>-hardest-<i>.toml``, one per symmetry class)
    with its optimal solution in ``solutions/`` beside it: D moves, replayed by ``rules.py``;
    the census certificate is the proof that none is shorter."""
    from dataclasses import replace

    from .io.atomic import write_atomic
    from .io.instance_format import write_instance
    from .io.solution_format import moves_to_json

    out = Path(folder)
    (out / "solutions").mkdir(parents=True, exist_ok=True)
    written = []
    base = c.instance.name
    for i, start in enumerate(c.hardest, 1):
        name = f"{base}-hardest-{i}"
        inst = replace(
            with_start(c.instance, start),
            name=name,
            source=f"census of {base}'s goal: a start at the largest distance D = {c.max_distance} "
            f"(class {i} of {len(c.hardest)} under the goal's symmetries)",
            metadata=tuple(sorted({**dict(c.instance.metadata), "census": base, "census_class": i}.items())),
        )
        solution = solve_from(c, start)
        path = out / f"{name}.toml"
        write_instance(inst, path)
        scope = "global: the window is closed" if c.closed else "moves inside the window"
        record = {
            "name": name,
            "status": "optimal",
            "length": len(solution),
            "lower_bound": c.max_distance,
            "method": "census",
            "proven": f"optimal: these {len(solution)} moves are replayed by rules.py, and the census of "
            f"{base}'s goal puts this start in layer {c.max_distance} ({scope})",
            "moves": moves_to_json(inst, solution),
        }
        write_atomic(out / "solutions" / f"{name}.json", json.dumps(record) + "\n")
        written.append(path)
    return written
