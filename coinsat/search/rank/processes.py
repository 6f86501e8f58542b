"""The layered search of ``rankbfs`` in worker processes, partitioned by a hash of the state.

Each of P workers owns the states whose rank hashes to it (``owner``): its part
of the visited set and of every layer.  One layer is two rounds:

1. *expand*: every worker expands its part of the frontier (``Space.expand``)
   and splits the successors by owner;
2. *absorb*: every worker receives the successors it owns from all workers,
   removes its visited ones (and, with bound-and-prune, those with
   t + h > U), and keeps the rest as its part of the next layer.

Only the owner of a state ever decides whether it is new, so the union of the
parts is exactly the layer the single-process search computes (a test checks
it state for state).  The parent routes the successor arrays (through pipes)
and keeps nothing but sizes; a solution path is rebuilt by asking the owners
the depth of each candidate predecessor.

Why processes and pipes: numpy releases the GIL only inside single calls, so
threads would serialise the many small calls of an expansion; processes with
``fork`` start in milliseconds and share nothing mutable.  Routing through the
parent costs two copies of each successor (8 bytes each), small next to the
expansion (``benchmarks/scale.md`` measures 2 workers against 1).
"""

from __future__ import annotations

import multiprocessing as mp
import signal
import time
from dataclasses import dataclass

import numpy as np

from ...errors import LimitReached, WorkerLost
from ...instance import Instance
from ...limits import Limits, rss_bytes
from ..layered import Ending, Outcome
from .colex import U64
from .visited import Storage, Visited

GOLDEN = U64(0x9E3779B97F4A7C15)
#: how long a stopped worker may take to remove its spilled layers and exit before it is killed
STOP_SECONDS = 600


def owner(ranks: np.ndarray, parts: int) -> np.ndarray:
    """The worker that owns each rank (a multiplicative hash, so neighbouring ranks spread)."""
    return ((ranks * GOLDEN) >> U64(40)) % U64(parts)


@dataclass(frozen=True)
class _Setup:
    instance: Instance
    prune: bool
    upper_bound: int | None
    part: int
    parts: int
    deadline: float
    memory_limit: int | None
    storage: Storage


def _serve(setup: _Setup, conn) -> None:
    """A worker: answer the parent's requests until told to stop, then remove its spilled layers
    and say so (``Pool.close`` waits for that: a worker killed while deleting them left them behind)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent handles Ctrl-C and stops us
    signal.signal(signal.SIGTERM, _exit_on_term)  # ... or terminates us: the spilled layers still go
    visited = Visited(budget=setup.storage.budget)
    try:
        _answer(setup, conn, visited)
    except Exception as e:  # noqa: BLE001 — told to the parent, which raises it (one line, no traceback here)
        _tell(conn, _Failed(isinstance(e, LimitReached), f"{type(e).__name__}: {e}"))
        return
    finally:
        visited.discard()  # its private spill directory (a forked child runs no exit hooks)
    conn.send(None)  # "stopped": the directory is gone


@dataclass(frozen=True)
class _Failed:
    """A worker's answer when a request raised: a limit (a full disk while spilling: the search
    stops with what it proved) or an error (the search cannot go on)."""

    limit: bool
    text: str


def _tell(conn, msg) -> None:
    try:
        conn.send(msg)
    except OSError:
        pass


def _exit_on_term(signum, frame) -> None:
    raise SystemExit(0)


def _answer(setup: _Setup, conn, visited: Visited) -> None:
    """The requests of ``_serve`` until "stop"."""
    from .space import Space, union

    space = Space(setup.instance, setup.prune, setup.upper_bound)
    front = np.zeros(0, dtype=U64)
    chunk = 1 << 17
    while True:
        msg = conn.recv()
        op = msg[0]
        if op == "start":
            visited.add(msg[1], 0)
            front = msg[1]
            conn.send(None)
        elif op == "expand":
            out, stopped = [], None
            for i in range(0, front.size, chunk):
                out.append(space.expand(front[i : i + chunk]))
                if time.time() > setup.deadline:
                    stopped = "time limit"
                    break
                rss = rss_bytes()
                if setup.memory_limit is not None and rss is not None and rss > setup.memory_limit:
                    stopped = "memory limit"
                    break
            succ = union(out)
            who = owner(succ, setup.parts)
            conn.send((stopped, [succ[who == U64(p)] for p in range(setup.parts)]))
        elif op == "absorb":
            depth, buckets = msg[1], msg[2]
            nxt = union(list(buckets))  # each sorted and distinct: merged, not sorted again
            nxt = nxt[~visited.contains(nxt)]
            pruned = 0
            if setup.upper_bound is not None and nxt.size:
                ok = depth + space.heuristic(nxt) <= setup.upper_bound
                pruned = int(nxt.size - ok.sum())
                nxt = nxt[ok]
            visited.add(nxt, depth)
            front = nxt
            hit = nxt[np.isin(nxt, space.goal_ranks)]
            conn.send((int(nxt.size), pruned, int(hit[0]) if hit.size else None, visited.nbytes, visited.disk_bytes))
        elif op == "in_layer":
            conn.send(visited.in_layer(msg[1], msg[2]))
        elif op == "layer":
            conn.send(visited.layer(msg[1]))
        elif op == "stop":
            return


class Pool:
    """P workers, each owning one partition."""

    def __init__(
        self, instance: Instance, prune: bool, upper_bound: int | None, parts: int, limits: Limits, storage: Storage
    ):
        ctx = mp.get_context("fork") if "fork" in mp.get_all_start_methods() else mp.get_context()
        deadline = time.time() + (limits.remaining() or 1e12) if limits.time_limit is not None else float("inf")
        share = None if limits.memory_limit is None else limits.memory_limit // (parts + 1)
        self.parts, self.upper_bound = parts, upper_bound
        self.conns, self.procs = [], []
        for p in range(parts):
            a, b = ctx.Pipe()
            proc = ctx.Process(
                target=_serve,
                args=(_Setup(instance, prune, upper_bound, p, parts, deadline, share, storage.share(parts)), b),
                daemon=True,
            )
            proc.start()
            self.conns.append(a)
            self.procs.append(proc)

    def ask(self, requests: list) -> list:
        for p, req in enumerate(requests):
            self._send(p, req)
        return [self._recv(p) for p in range(self.parts)]

    def in_layer(self, rank: int, t: int) -> bool:
        p = int(owner(np.array([rank], dtype=U64), self.parts)[0])
        self._send(p, ("in_layer", rank, t))
        return self._recv(p)

    def _send(self, p: int, msg) -> None:
        try:
            self.conns[p].send(msg)
        except (OSError, EOFError):  # BrokenPipeError, ConnectionResetError: the worker is gone
            raise self._lost(p) from None

    def _recv(self, p: int):
        try:
            msg = self.conns[p].recv()
        except (OSError, EOFError):
            raise self._lost(p) from None
        if isinstance(msg, _Failed):
            if msg.limit:
                raise LimitReached(msg.text.partition(": ")[2])
            raise WorkerLost(f"rankbfs worker {p + 1} of {self.parts} failed: {msg.text}")
        return msg

    def _lost(self, p: int) -> WorkerLost:
        """The error for worker ``p``, which ended without answering (how it ended, when known)."""
        proc = self.procs[p]
        proc.join(timeout=1)
        code = proc.exitcode
        if code is None:
            how = "stopped answering"
        elif code < 0:
            how = f"was killed by signal {-code}" + (" (out of memory, or by hand?)" if -code == signal.SIGKILL else "")
        else:
            how = f"exited with code {code}"
        return WorkerLost(f"rankbfs worker {p + 1} of {self.parts} (pid {proc.pid}) {how}; the search cannot go on")

    def gather(self, depths: int, budget: int | None) -> Visited:
        """Every worker's layers, merged layer by layer into one visited set (the workers then exit)."""
        visited = Visited(upper_bound=self.upper_bound, budget=budget)
        for i in range(depths):
            parts = self.ask([("layer", i)] * self.parts)
            visited.add(np.sort(np.concatenate(parts)), i)
        self.close()
        return visited

    def close(self) -> None:
        """Stop the workers and wait until each has removed its spilled layers and exited."""
        for conn in self.conns:
            try:
                conn.send(("stop",))
            except (OSError, ValueError):
                pass
        for conn in self.conns:
            try:
                if conn.poll(STOP_SECONDS):
                    conn.recv()
            except (OSError, EOFError):
                pass
        self.end(terminate=False)

    def end(self, terminate: bool = True) -> None:
        """Terminate the workers (``terminate``) or let them exit, and reap them: a worker left
        unreaped keeps its CPU seconds out of the parent's ``RUSAGE_CHILDREN``."""
        for proc in self.procs:
            if terminate and proc.is_alive():
                proc.terminate()  # SIGTERM: the worker still removes its spilled layers
            proc.join(timeout=STOP_SECONDS)
            if proc.is_alive():
                proc.kill()
                proc.join()


def forward_partitioned(
    instance: Instance,
    horizon: int | None,
    limits: Limits,
    max_states: int | None,
    prune: bool,
    progress,
    upper_bound: int | None,
    workers: int,
    storage: Storage = Storage(),
) -> Outcome:
    """The layered search of ``search._forward`` on ``workers`` processes (module docstring)."""
    from .space import Rate, Space, path

    space = Space(instance, prune, upper_bound)
    start = np.array([space.rank_of_cells(instance.start.cells)], dtype=U64)
    stats: dict = {"layers": [1], "pruning": prune, "upper_bound": upper_bound, "expanded": 0, "bound_pruned": 0}
    stats["workers"] = workers
    if np.isin(space.goal_ranks, start).any():
        v = Visited(upper_bound=upper_bound)
        v.add(start, 0)
        return Outcome(Ending.FOUND, 0, 1, v, [], None, stats)
    pool = Pool(instance, prune, upper_bound, workers, limits, storage)
    clock, disk = Rate(limits), 0
    who = int(owner(start, workers)[0])
    depth, states, nbytes = 0, 1, 0
    kind, moves, reason = "limit", None, None
    starts_spanning = not space.need or space.kernel.spans_one_of(space.kernel_words(start), space.need)[0]
    try:
        pool.ask([("start", start if p == who else np.zeros(0, dtype=U64)) for p in range(workers)])
        while True:
            if not starts_spanning:
                kind = "empty" if horizon is None or horizon > 0 else "horizon"
                break
            if horizon is not None and depth >= horizon:
                kind = "horizon"
                break
            reason = limits.exceeded()
            if reason:
                break
            out = pool.ask([("expand",)] * workers)
            stopped = next((s for s, _ in out if s), None)
            if stopped:
                reason = stopped
                break
            stats["expanded"] += stats["layers"][-1]
            got = pool.ask([("absorb", depth + 1, [out[q][1][p] for q in range(workers)]) for p in range(workers)])
            size = sum(g[0] for g in got)
            stats["bound_pruned"] += sum(g[1] for g in got)
            nbytes = sum(g[3] for g in got)
            disk = sum(g[4] for g in got)
            if size == 0:
                kind = "empty"
                break
            depth += 1
            states += size
            stats["layers"].append(size)
            if progress is not None:
                progress(clock.report(depth, size, states, stats["expanded"], disk))
            hits = [g[2] for g in got if g[2] is not None]
            if hits:
                kind, moves = "found", path(space, pool.in_layer, depth, hits[0])
                break
            if max_states is not None and states > max_states:
                reason = "state limit"
                break
    except LimitReached as e:
        reason = str(e)
    except KeyboardInterrupt:
        reason = "interrupted"
    except WorkerLost:
        pool.end()  # the others are stopped and reaped (their spilled layers removed)
        raise
    stats["bytes_per_state"] = nbytes / max(1, states)
    stats["disk_bytes"] = disk
    if reason is None:  # a finished search: its layers are the witness of a certificate
        try:
            visited = pool.gather(len(stats["layers"]), storage.budget)
        except WorkerLost:
            pool.end()
            raise
    else:  # a request may be unanswered (Ctrl-C in the middle): no witness, the workers are stopped
        pool.end()
        visited = Visited(upper_bound=upper_bound)
    return Outcome(Ending(kind), depth, states, visited, moves, reason, stats)
