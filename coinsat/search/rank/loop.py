"""The layer loop of ``rankbfs``, written once, and the exchange it runs on.

:func:`run` is the whole forward search: the horizon, the limits, one layer after the
other, the statistics, the progress reports, the goal, the path back to the start, the
state budget, the :class:`~coinsat.search.layered.Outcome` and the visited set handed
back as the witness.  It does not know where the states live.  That is the
:class:`Exchange`'s part, the only thing that differs between the three ways the
search runs:

========================  =================================  ==================================
exchange                  where the parts live                how successors reach their owner
========================  =================================  ==================================
:class:`Local`            one part, in this process           they are already there
``processes.Pool``        one part per worker process         through the parent (pipes)
``mpi.Cluster``           one part per MPI rank               one ``Alltoallv``, rank to rank
========================  =================================  ==================================

**Parts.**  A state belongs to the part :func:`owner` gives it (a multiplicative hash of
its rank).  A :class:`Part` holds the states it owns: its share of the visited set and
of the frontier.  It expands its frontier (:meth:`Part.expand`), and, given every
successor it owns, keeps those it has not visited and that the bound does not prune
(:meth:`Part.absorb`: t + h > U drops a state, with the h the search was asked for,
"fill", "forced" or "lmcut").  Only the owner of a state decides whether it is new, so the union
of the parts is exactly the layer one part computes alone: the kept states are the same
state for state whatever the exchange (tests check it for worker processes and for two
real MPI ranks, with both h).

**One layer** is: :meth:`Exchange.poll` (a limit or Ctrl-C, decided for every part at
once), :meth:`Exchange.layer` (every part expands; the successors go to their owners;
every owner absorbs; the parts' :class:`Answer` values are combined into one: sizes,
pruned counts, bytes, the smallest goal rank met), then the loop's decisions, which are
the same on every MPI rank because each sees the same combined answer.  A solution path
is rebuilt from the smallest goal rank of the layer by asking :meth:`Exchange.in_layer`
for each candidate predecessor (``space.path``), so every exchange returns the same moves.

**Endings** (``layered.Ending``): a goal in layer t (``found``), an empty layer
(``empty``: with a bound U, "no solution with <= U moves"), the horizon, or a limit after
the last complete layer (``limit``: time, memory, disk, the state budget, Ctrl-C).  A
finished search hands back its visited set (gathered from the parts); one stopped by a
limit hands back what the exchange can give without the parts' help (:class:`Local`:
the set itself; the others: an empty one).  With ``--resume DIR`` every exchange saves each
complete layer there (the workers' parent and MPI rank 0 gather it from the parts), and the
witness is the saved set, whatever the ending.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Callable, Protocol

import numpy as np

from ...errors import InternalError, LimitReached, UsageError
from ...limits import Limits
from ..layered import Ending, Outcome
from .colex import U64
from .space import CHUNK, FAST_MIN, Rate, Space, path, union
from .visited import Visited, compiled

GOLDEN = U64(0x9E3779B97F4A7C15)
#: frontier states a part expands between two polls of its limits
BATCH = CHUNK * 4


def owner(ranks: np.ndarray, parts: int) -> np.ndarray:
    """The part that owns each rank: a multiplicative hash, so neighbouring ranks spread, mapped
    onto 0 .. parts - 1 by its top 32 bits times ``parts`` (no division; in place, one copy)."""
    h = ranks * GOLDEN
    h >>= U64(32)
    h *= U64(parts)
    h >>= U64(32)
    return h


def split(ranks: np.ndarray, parts: int) -> list[np.ndarray]:
    """``ranks`` (sorted) cut by owner: item p holds, still sorted, those part p owns.  With
    numba and a large array: ``jit.split_owned`` (a count pass and a scatter pass into one new
    array; item p is a slice of it; for two parts about a quarter of the numpy passes' CPU).
    Else a few parts: one ``compress`` pass each (twice as fast as
    boolean indexing); many: one stable sort of the owners and slices."""
    if parts == 1:
        return [ranks]
    kernels = compiled() if ranks.size >= FAST_MIN else None
    if kernels is not None:
        out, ends = kernels.split_owned(np.ascontiguousarray(ranks, dtype=U64), parts)
        return [out[ends[p] : ends[p + 1]] for p in range(parts)]
    who = owner(ranks, parts)
    if parts <= 4:
        return [np.compress(who == U64(p), ranks) for p in range(parts)]
    order = np.argsort(who, kind="stable")
    ends = np.cumsum(np.bincount(who.astype(np.intp), minlength=parts))
    ordered = ranks[order]
    return np.split(ordered, ends[:-1])


def merge_owned(runs: list[np.ndarray]) -> np.ndarray:
    """The sorted distinct union of the successors a part owns, one sorted distinct run from each
    part that made some (``Part.absorb``).  Runs of different parts interleave finely and share
    most of their values, so with numba and enough of them they are merged by the branch-free
    ``jit.merge_unique_select`` (pairwise); else ``space.union``."""
    runs = [r for r in runs if r.size]
    if len(runs) <= 1:
        return runs[0] if runs else np.zeros(0, dtype=U64)
    kernels = compiled() if sum(r.size for r in runs) >= FAST_MIN else None
    if kernels is None:
        return union(runs)
    while len(runs) > 1:
        pairs = range(0, len(runs) - 1, 2)
        runs = [kernels.merge_unique_select(runs[i], runs[i + 1]) for i in pairs] + runs[len(runs) & ~1 :]
    return runs[0]


@dataclass(frozen=True)
class Answer:
    """What the parts say about the layer they just built (or the frontier they start
    from), summed over the parts: ``size`` new states, ``pruned`` by the bound, ``hit`` the
    smallest goal rank among them (None: none), bytes of visited states in memory and on
    disk, layers spilled; ``least_f`` the least depth + h among the states the bound pruned
    (None: none pruned; the next bound worth trying, Lemma LF of docs/from-below.md)."""

    size: int
    pruned: int = 0
    hit: int | None = None
    nbytes: int = 0
    disk: int = 0
    spilled: int = 0
    least_f: int | None = None


def combine(answers: list[Answer]) -> Answer:
    """One answer for the union of the parts."""
    hits = [a.hit for a in answers if a.hit is not None]
    fs = [a.least_f for a in answers if a.least_f is not None]
    return Answer(
        size=sum(a.size for a in answers),
        pruned=sum(a.pruned for a in answers),
        hit=min(hits) if hits else None,
        nbytes=sum(a.nbytes for a in answers),
        disk=sum(a.disk for a in answers),
        spilled=sum(a.spilled for a in answers),
        least_f=min(fs) if fs else None,
    )


class Part:
    """The states one part owns: its visited set (``visited``, one run per depth; a depth
    where it owns nothing is empty) and its share of the frontier."""

    def __init__(self, space: Space, visited: Visited):
        self.space, self.visited = space, visited
        self.front = np.zeros(0, dtype=U64)

    def begin(self, mine: np.ndarray) -> Answer:
        """Start from ``mine`` (the start state if this part owns it) as layer 0, or, when the
        visited set already holds layers (a resumed search), from its last one."""
        if self.visited.depths == 0:
            self.visited.add(mine, 0)
        self.front = self.visited.layer(self.visited.depths - 1)
        return self._answer(0)

    def expand(self, poll: Callable[[], str | None]) -> tuple[np.ndarray, str | None]:
        """The sorted distinct successors of the frontier (those that keep a goal span), in
        batches with ``poll`` asked after each; a reason it gives stops the expansion."""
        out = []
        for i in range(0, self.front.size, BATCH):
            out.append(self.space.expand(self.front[i : i + BATCH]))
            reason = poll()
            if reason:
                return np.zeros(0, dtype=U64), reason
        return union(out), None

    def expand_owned(self, poll: Callable[[], str | None], parts: int) -> tuple[list[np.ndarray], str | None]:
        """``expand``'s successors cut by owner (``split``): item p the sorted distinct successors
        part p owns.  Each batch's successors are cut as soon as they are made, while they are
        still in the cache, and each owner's pieces merged; cutting the merged successors of the
        whole frontier instead read them from memory once more (worker processes)."""
        out: list[list[np.ndarray]] = [[] for _ in range(parts)]
        for i in range(0, self.front.size, BATCH):
            for mine, piece in zip(out, split(self.space.expand(self.front[i : i + BATCH]), parts)):
                mine.append(piece)
            reason = poll()
            if reason:
                return [np.zeros(0, dtype=U64)] * parts, reason
        return [union(pieces) for pieces in out], None

    def absorb(self, runs: list[np.ndarray], depth: int) -> Answer:
        """Layer ``depth`` of this part from the successors it owns (``runs``, each sorted and
        distinct): those not visited, and with a bound U those with depth + h <= U."""
        space = self.space
        nxt = merge_owned(list(runs))
        nxt = nxt[~self.visited.contains(nxt)]
        pruned, least = 0, None
        if space.upper_bound is not None and nxt.size:
            f = depth + space.heuristic(nxt, depth)
            ok = f <= space.upper_bound
            pruned = int(nxt.size - ok.sum())
            if pruned:  # Lemma LF (docs/from-below.md): no solution is shorter than the least such f
                least = int(f[~ok].min())
            nxt = nxt[ok]
        if nxt.size:  # an empty layer is never stored (a saved search never holds one)
            self.visited.add(nxt, depth)
        self.front = nxt
        return self._answer(pruned, least)

    def _answer(self, pruned: int, least: int | None = None) -> Answer:
        v, front = self.visited, self.front
        hit = front[np.isin(front, self.space.goal_ranks)]
        found = int(hit[0]) if hit.size else None
        return Answer(int(front.size), pruned, found, v.nbytes, v.disk_bytes, v.spilled, least)


class Exchange(Protocol):
    """Where the parts live and how successors reach their owners (module docstring).

    ``primary``: this process reports progress (every process returns the outcome);
    ``alone``: a limit raised in this process may end the search here (False on MPI, where
    the other ranks would wait in a collective: the exception goes on up);
    ``stats``: what the exchange adds to the statistics (read when the search ends)."""

    primary: bool
    alone: bool
    stats: dict

    def __enter__(self) -> "Exchange": ...

    def __exit__(self, *exc: object) -> None: ...

    def begin(self, start: np.ndarray) -> tuple[list[int], Answer]:
        """Give the start to its owner; the sizes of the layers held (``[1]``, or those of a
        resumed search) and the answer of the last of them, the frontier."""
        ...

    def poll(self) -> str | None:
        """A limit or Ctrl-C that stops the search now, decided for every part."""
        ...

    def layer(self, depth: int) -> tuple[str | None, Answer]:
        """Build layer ``depth`` from the frontier: (a stop reason met while expanding, or
        None and the combined answer)."""
        ...

    def in_layer(self, rank: int, t: int) -> bool:
        """Is the state ``rank`` in layer t (asked of its owner; collective on MPI)?"""
        ...

    def witness(self, complete: bool, depths: int) -> Visited:
        """The visited set of the ``depths`` layers (gathered from the parts if ``complete``;
        else what is at hand), after which the parts are gone."""
        ...


class Local:
    """One part, in this process: the exchange of ``--workers 1``.
    ``stats["round_cpu"]``: the CPU seconds of the expansions and of the absorptions."""

    primary = True
    alone = True

    def __init__(self, part: Part, limits: Limits):
        self.part, self.limits = part, limits
        self.spent = {"expand": 0.0, "absorb": 0.0}
        self.stats: dict = {}

    def __enter__(self) -> "Local":
        return self

    def __exit__(self, *exc: object) -> None:
        return None

    def begin(self, start: np.ndarray) -> tuple[list[int], Answer]:
        got = self.part.begin(start)
        v = self.part.visited
        return [v.layer_size(i) for i in range(v.depths)], got

    def poll(self) -> str | None:
        return self.limits.exceeded()

    def layer(self, depth: int) -> tuple[str | None, Answer]:
        t0 = time.process_time()
        succ, reason = self.part.expand(self.limits.exceeded)
        t1 = time.process_time()
        self.spent["expand"] += t1 - t0
        if reason:
            return reason, Answer(0)
        got = self.part.absorb([succ], depth)
        self.spent["absorb"] += time.process_time() - t1
        self.stats["round_cpu"] = {k: round(v, 3) for k, v in self.spent.items()}
        return None, got

    def in_layer(self, rank: int, t: int) -> bool:
        return self.part.visited.in_layer(rank, t)

    def witness(self, complete: bool, depths: int) -> Visited:
        return self.part.visited


def run(
    space: Space,
    exchange: Exchange,
    horizon: int | None,
    limits: Limits,
    max_states: int | None,
    progress,
    stats: dict,
    check: Callable[[], str | None] | None = None,
    saved: str | None = None,
) -> Outcome:
    """The layered forward search of ``space``'s instance on ``exchange`` (module docstring).

    ``stats`` is the statistics dictionary the outcome carries (the caller may have put
    entries in it); ``check``, for a resumed search, re-derives the frontier before it is
    used (a stop reason, or None once checked); ``saved`` names the directory a resumed
    search's layers came from (layers that do not chain are then its damage, a usage error)."""
    start = np.array([space.rank_of_cells(space.instance.start.cells)], dtype=U64)
    stats.update(expanded=0, bound_pruned=0)
    if space.upper_bound is not None:
        stats["h"] = space.h_record
    clock = Rate(limits)
    with exchange:
        layers, last = exchange.begin(start)
        stats["layers"] = layers
        depth = len(layers) - 1

        def end(kind: Ending, moves: list | None = None, reason: str | None = None) -> Outcome:
            witness = exchange.witness(kind is not Ending.LIMIT, len(layers))
            witness.heuristic = space.h_record
            witness.symmetry = space.symmetry  # a certificate of its layers lists the group (docs/symmetry.md)
            stats.update(exchange.stats)
            states = sum(layers)
            stats["bytes_per_state"] = last.nbytes / max(1, states)
            stats["disk_bytes"] = last.disk
            stats["layers_spilled"] = last.spilled
            return Outcome(kind, depth, states, witness, moves, reason, stats)

        def found(rank: int) -> Outcome:
            try:
                return end(Ending.FOUND, path(space, exchange.in_layer, depth, rank))
            except InternalError as e:
                if saved is None:
                    raise
                raise UsageError(f"{saved}: {e}: the saved layers are damaged or edited") from None

        if depth == 0 and last.hit is not None:
            return end(Ending.FOUND, [])
        if space.need and not space.kernel.spans_one_of(space.kernel_words(start), space.need)[0]:
            # the expansion assumes every state it expands spans a goal span (held coins keep
            # it); a start that does not has no successor that does
            return end(Ending.EMPTY) if horizon is None or horizon > 0 else end(Ending.HORIZON)
        try:
            if check is not None and depth > 0:
                reason = check()
                if reason:
                    depth -= 1  # the frontier is unchecked: only the paths of < depth moves are known enumerated
                    return end(Ending.LIMIT, reason=reason)
            if depth > 0 and last.hit is not None:  # resumed at the goal's layer
                return found(last.hit)
            while True:
                if horizon is not None and depth >= horizon:
                    return end(Ending.HORIZON)
                reason = exchange.poll()
                if reason:
                    return end(Ending.LIMIT, reason=reason)
                reason, got = exchange.layer(depth + 1)
                if reason:
                    return end(Ending.LIMIT, reason=reason)
                stats["expanded"] += layers[-1]
                stats["bound_pruned"] += got.pruned
                if got.least_f is not None:  # the least depth + h the bound pruned (Lemma LF)
                    old = stats.get("least_pruned_f")
                    stats["least_pruned_f"] = got.least_f if old is None else min(old, got.least_f)
                last = got
                if got.size == 0:
                    return end(Ending.EMPTY)
                depth += 1
                layers.append(got.size)
                if progress is not None and exchange.primary:
                    progress(clock.report(depth, got.size, sum(layers), stats["expanded"], got.disk))
                if got.hit is not None:
                    return found(got.hit)
                if max_states is not None and sum(layers) > max_states:
                    return end(Ending.LIMIT, reason="state limit")
        except LimitReached as e:
            if not exchange.alone:
                raise
            return end(Ending.LIMIT, reason=str(e))
        except KeyboardInterrupt:
            if not exchange.alone:
                raise
            return end(Ending.LIMIT, reason="interrupted")
