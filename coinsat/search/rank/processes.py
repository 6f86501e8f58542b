"""Worker processes for the ranked search: the exchange ``Pool`` of ``loop.run`` (``--workers N``).

Each of P workers owns the parts of the states whose rank hashes to it (``loop.owner``):
a :class:`~.loop.Part`, its share of the visited set and of every layer.  The layer loop
runs in the parent, which keeps nothing but sizes.  One layer (``Pool.layer``) is two rounds:

1. *expand*: every worker expands its part of the frontier (``Part.expand``, polling its
   own share of the limits) and splits the successors by owner;
2. *absorb*: every worker receives the successors it owns from all workers and keeps the
   new ones (``Part.absorb``: not visited, and with bound-and-prune depth + h <= U with the
   search's h).

**How successors travel** (``route``).  On Linux the parent makes one memory file per
worker (``memfd_create``) before it forks, so every worker holds every file: a worker
writes its successors, owner by owner, into its own file and tells the parent where each
owner's slice lies; the parent passes those offsets to the owners, which map their slices
of the writers' files (``_view``) and merge them at once.  The data is copied once (written)
and never pickled nor passed through the parent; a file is written over when its writer expands
again (the owners have read it by then; its pages are kept, cut when it is twice as long as a
layer needs) and goes away with the last process holding it, so
nothing is left behind however the search ends.  Elsewhere (or with ``Kernels(memfd=False)``)
the successor arrays are pickled through the parent's pipes.  The bytes in a worker's file
count against its share of the memory limit (its RSS does not show them).

**What the workers inherit.**  The parent loads the compiled kernels before it forks
(``preload``), so no worker loads them itself.  A worker cuts the successors of each batch of
its frontier by owner as soon as they are made (``Part.expand_owned``, the compiled
``jit.split_owned`` through ``loop.split``), keeps those it owns itself in memory (only the
others' go through its file), and an owner merges the runs it receives without a branch per
element (``loop.merge_owned``).  The ways each of these replaced (every worker loading the
kernels, numpy's ``compress`` passes, its own successors through its file, one sort of the
gathered parts) are in commit 0f5a110 and before (``scripts/rank_workers_bench.py`` run from a
copy of it, ``--workers 2/before``); cutting the merged successors of the whole frontier, and
``merge_unique``'s branch, in commit 35e945e and before.

**The witness.**  A finished search gathers every worker's layers into one visited set (the
witness a certificate reads), after which the workers exit.  With route "memfd" (and no spill
budget) that is one round (``Pool.gather``): every worker writes all its layers into its file,
and the witness is the files, mapped (``visited.Parts``: a layer is merged from the workers'
parts when it is read; a plain solve reads none).  The parent merged every layer itself before
(``Pool.collect``, still the route with a spill budget or pipes).  A search that met the goal
gathers first and rebuilds the solution path from the witness in the parent (``Pool.in_layer``:
a binary search per part for each candidate predecessor, 3,356 of them on V(3,3)->NW-SE, each a
round trip to its owner before); with ``--resume DIR`` (the witness is on disk) each candidate
is still asked of its owner.

**Saved layers (``--resume DIR``).**  The parent gathers each layer as soon as the workers
have completed it (``Pool.collect``, the same route as the final gathering) and saves it in
DIR through a :class:`~.visited.Visited` of its own (``saved``): the same files and the same
manifest as the one-process search, then drops it from memory (``Visited.forget``: the parent
holds one gathered layer at a time, about twice its size while merging).  A resumed search
reads the saved layers back (checked by ``Visited.resume``) and hands each worker its own part
of every one of them (``Pool.load``: cut by ``loop.owner`` for this run's number of workers),
so a search saved on P workers, or on one process, continues on any number; the frontier is
re-derived by the parent (``search._check_frontier``).  The saved directory is then the
witness: nothing is gathered at the end.  A worker that dies is a
``WorkerLost`` (exit 4, one line) and the others are stopped and reaped; a limit a worker
meets inside itself (a full disk while spilling) is a limit of the search.

Why processes: numpy releases the GIL only inside single calls, so threads would
serialise the many small calls of an expansion; processes with ``fork`` start in
milliseconds and share nothing mutable.  ``scripts/rank_workers_bench.py`` measures 1
against 2 workers and both routes (``benchmarks/rankbfs-workers.md``); each worker search
reports where its CPU went (``stats["round_cpu"]``).
"""

from __future__ import annotations

import mmap
import multiprocessing as mp
import os
import signal
import time
from dataclasses import dataclass
from math import comb

import numpy as np

from ...environment import Kernels
from ...errors import InternalError, LimitReached, WorkerLost
from ...instance import Instance
from ...limits import Limits, rss_bytes
from .colex import U64
from .loop import Answer, Part, combine, owner, split
from .space import FAST_MIN, union
from .visited import Parts, Storage, Visited, chosen, compiled, in_force

#: how long a stopped worker may take to remove its spilled layers and exit before it is killed
STOP_SECONDS = 600


def route() -> str:
    """How successors travel: "memfd" (Linux with fork: each worker writes its successors into
    a memory file that every worker inherited, the owners read their slices from it, the parent
    passes offsets only) or "pipes" (pickled, through the parent; also with
    ``Kernels(memfd=False)`` in force, ``visited.chosen``)."""
    fork = "fork" in mp.get_all_start_methods()
    if fork and hasattr(os, "memfd_create") and in_force().memfd:
        return "memfd"
    return "pipes"


def preload(ctx, instance: Instance) -> bool:
    """Load the compiled kernels in the parent before the workers fork (``visited.compiled``), so
    that they inherit them (numba's dispatchers keep their loaded overloads in the process's
    memory, which a forked child shares) instead of each loading them itself (about 0.6 CPU s a
    worker on V(3,3)).  Only with ``fork``, when the state space is large enough for the workers
    to use them (C(n, k) >= ``space.FAST_MIN``)."""
    if ctx.get_start_method() != "fork":
        return False
    return comb(instance.board.size, instance.n_coins) >= FAST_MIN


def _put(fd: int, a: np.ndarray, pos: int) -> None:
    """Write the array ``a`` at byte ``pos`` of the file ``fd`` (whole: pwrite may write less);
    memory the system cannot give the file is a limit of the search, as for a spilled layer."""
    view = np.ascontiguousarray(a).data.cast("B")
    done = 0
    try:
        while done < len(view):
            done += os.pwrite(fd, view[done:], pos + done)
    except OSError as e:
        raise LimitReached(f"memory limit (successors file: {e.strerror or e})") from None


def _get(fd: int, pos: int, count: int) -> np.ndarray:
    """``count`` ranks read from byte ``pos`` of the file ``fd``."""
    out = np.empty(count, dtype=U64)
    view = out.data.cast("B")
    done = 0
    while done < len(view):
        n = os.preadv(fd, [view[done:]], pos + done)
        if n <= 0:
            raise OSError(f"the successors file of a worker ends {len(view) - done} bytes early")
        done += n
    return out


def _view(fd: int, pos: int, count: int) -> np.ndarray:
    """``count`` ranks at byte ``pos`` of the file ``fd``, mapped (``mmap``), not copied: the
    mapping lasts as long as the array.  For reads whose array is merged into a new one at once
    (``Part.absorb``, ``Pool.collect``), before the file's writer truncates it again (its next
    expansion or dump, after every reader has answered): a mapped page past the end of a
    truncated file would be a SIGBUS, so a view is never kept (``_get`` copies instead)."""
    if count == 0:
        return np.zeros(0, dtype=U64)
    start = pos - pos % mmap.ALLOCATIONGRANULARITY
    region = mmap.mmap(fd, pos + 8 * count - start, mmap.MAP_SHARED, mmap.PROT_READ | mmap.PROT_WRITE, offset=start)
    return np.frombuffer(region, dtype=U64, count=count, offset=pos - start)


@dataclass(frozen=True)
class _Setup:
    instance: Instance
    prune: bool
    upper_bound: int | None
    h: str
    part: int
    parts: int
    deadline: float
    memory_limit: int | None
    storage: Storage
    files: tuple[int, ...] | None = None  # the successors files of every worker (route "memfd")
    perimeter: object = None  # the parent's backward ball (search/rank/backward.py), inherited
    parent: int = 0  # the parent's pid (``_die_with_parent``)
    symmetry: object = None  # the parent's ``Space.symmetry`` (docs/symmetry.md)
    kernels: Kernels = Kernels()  # the parent's kernel choice (``visited.chosen``)


def _serve(setup: _Setup, conn) -> None:
    """A worker: answer the parent's requests until told to stop, then remove its spilled layers
    and say so (``Pool.close`` waits for that: a worker killed while deleting them left them behind)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent handles Ctrl-C and stops us
    signal.signal(signal.SIGTERM, _exit_on_term)  # ... or terminates us: the spilled layers still go
    if not _die_with_parent(setup.parent):
        return
    visited = Visited(budget=setup.storage.budget)
    try:
        with chosen(setup.kernels):
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


def _die_with_parent(parent: int) -> bool:
    """On Linux, have SIGTERM sent to this worker when its parent dies (``prctl(PR_SET_PDEATHSIG)``):
    a search killed with SIGKILL (or a lost session) leaves no worker expanding a layer nobody
    will read, competing with the run that resumes it.  False if the parent is gone already."""
    try:
        import ctypes

        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGTERM)  # 1: PR_SET_PDEATHSIG
    except (OSError, AttributeError):  # not Linux: a worker ends at its next message instead
        pass
    return os.getppid() == parent


def _answer(setup: _Setup, conn, visited: Visited) -> None:
    """The requests of ``_serve`` until "stop": "start" (layer 0), "expand" (the successors
    of this part's frontier, by owner), "absorb" (this part's next layer), "in_layer", "layer".
    The answers to "expand" and "absorb" end with the worker's CPU seconds so far (``Pool.layer``)."""
    from .space import Space

    space = Space(setup.instance, setup.prune, setup.upper_bound, setup.h)
    space.perimeter = setup.perimeter
    space.symmetry = setup.symmetry
    part = Part(space, visited)

    files = setup.files or ()
    mine = files[setup.part] if files else None
    held = 0  # bytes in this worker's successors file (memory its RSS does not show)
    own = None  # the successors it owns itself, between its expand and absorb (route "memfd")

    def poll() -> str | None:
        if time.time() > setup.deadline:
            return "time limit"
        rss = rss_bytes()
        if setup.memory_limit is not None and rss is not None and rss + held > setup.memory_limit:
            return "memory limit"
        return None

    while True:
        msg = conn.recv()
        op = msg[0]
        if op == "start":
            conn.send(part.begin(msg[1]))
        elif op == "expand":
            buckets, stopped = part.expand_owned(poll, setup.parts)
            if mine is None:
                conn.send((stopped, buckets, time.process_time()))
                continue
            # the owners have read the last layer's successors: written over, from the start (the
            # file's pages are reused: writing into pages the file must allocate and zero again
            # took three times as long); a file twice as long as this layer needs is cut first
            need = sum(b.nbytes for p, b in enumerate(buckets) if p != setup.part)
            if held > 2 * need:
                os.ftruncate(mine, need)
                held = need
            where, at = [], 0  # (byte offset, count) of each owner's successors in the file
            for p, b in enumerate(buckets):
                if p == setup.part:  # its own: kept in memory, not written and read back
                    own = b
                    where.append((0, int(b.size)))
                    continue
                _put(mine, b, at)
                where.append((at, int(b.size)))
                at += b.nbytes
            held = max(held, at)
            del buckets
            conn.send((stopped, where, time.process_time()))
        elif op == "absorb":
            runs = [
                r
                if isinstance(r, np.ndarray)
                else (own if r[0] == setup.part and own is not None else _view(files[r[0]], r[1], r[2]))
                for r in msg[2]
            ]
            own = None
            conn.send((part.absorb(runs, msg[1]), time.process_time()))
        elif op == "load":  # its part of saved layer msg[1] (a resumed search), from its own file or the pipe
            if isinstance(msg[2], np.ndarray) or mine is None:
                got = msg[2]
            else:  # the parent wrote it at the start of this worker's file
                got = _get(mine, 0, msg[2])
                os.ftruncate(mine, 0)
            visited.add(got, msg[1])
            conn.send(int(got.size))
        elif op == "in_layer":
            conn.send(visited.in_layer(msg[1], msg[2]))
        elif op == "dump" and mine is not None:  # layer msg[1] into this worker's file, for Pool.gather
            layer = visited.layer(msg[1])
            os.ftruncate(mine, 0)
            _put(mine, layer, 0)
            held = layer.nbytes
            conn.send(int(layer.size))
        elif op == "dump_all" and mine is not None:  # layers 0 .. msg[1] - 1, one after the other (Pool.gather)
            os.ftruncate(mine, 0)
            held, where = 0, []
            for i in range(msg[1]):
                layer = visited.layer(i)
                _put(mine, layer, held)
                where.append((held, int(layer.size)))
                held += layer.nbytes
            conn.send((where, time.process_time()))
        elif op == "layer":
            conn.send(visited.layer(msg[1]))
        elif op == "stop":
            return


class _Clock:
    """Where the CPU of a worker search goes (``stats["round_cpu"]``): the workers' CPU seconds
    in each round (summed over workers: ``expand``, ``absorb``, and ``gather`` when the workers
    write the witness's layers for the parent, ``Pool.gather``), ``critical`` the sum over rounds of the busiest
    worker's (what the rounds take on as many idle cores as workers), and the ``parent``'s
    own since the workers started (routing: pickling and pipes).
    ``scripts/rank_workers_bench.py`` reads them to say where a worker search's time goes."""

    def __init__(self, parts: int):
        self.last = [0.0] * parts
        self.spent = {"expand": 0.0, "absorb": 0.0, "critical": 0.0}
        self.parent0 = time.process_time()

    def round(self, name: str, now: list[float]) -> None:
        """The workers' CPU counters after a round: each one's seconds since its last answer."""
        spent = [t - t0 for t, t0 in zip(now, self.last)]
        self.last = now
        self.spent[name] = self.spent.get(name, 0.0) + sum(spent)
        self.spent["critical"] += max(spent)

    def seconds(self) -> dict:
        parent = time.process_time() - self.parent0
        return {k: round(v, 3) for k, v in self.spent.items()} | {"parent": round(parent, 3)}


class Pool:
    """P worker processes, each owning one part: the exchange of ``loop.run`` for ``--workers P``."""

    primary = True
    alone = True

    def __init__(
        self,
        instance: Instance,
        prune: bool,
        upper_bound: int | None,
        parts: int,
        limits: Limits,
        storage: Storage,
        h: str = "fill",
        perimeter: object = None,
        saved: Visited | None = None,
        symmetry: object = None,
    ):
        ctx = mp.get_context("fork") if "fork" in mp.get_all_start_methods() else mp.get_context()
        if preload(ctx, instance):  # before the fork: the workers inherit the loaded kernels
            compiled()
        deadline = time.time() + (limits.remaining() or 1e12) if limits.time_limit is not None else float("inf")
        share = None if limits.memory_limit is None else limits.memory_limit // (parts + 1)
        self.parts, self.upper_bound, self.limits, self.budget = parts, upper_bound, limits, storage.budget
        self.stats: dict = {"workers": parts}
        self.saved = saved  # the layers saved in --resume DIR, by the parent (``Pool.save``)
        self.held = 0  # layers the workers hold (layer 0 .. held - 1)
        self.gathered: Visited | None = None  # the workers' layers in the parent (``in_layer``)
        self.cpu = _Clock(parts)
        self.route = route()
        self.stats["route"] = self.route
        files = None
        if self.route == "memfd":
            files = tuple(os.memfd_create(f"coinsat-successors-{p}") for p in range(parts))
        self.conns, self.procs = [], []
        for p in range(parts):
            a, b = ctx.Pipe()
            setup = _Setup(
                instance,
                prune,
                upper_bound,
                h,
                p,
                parts,
                deadline,
                share,
                storage.share(parts),
                files,
                perimeter,
                os.getpid(),
                symmetry,
                in_force(),
            )
            proc = ctx.Process(target=_serve, args=(setup, b), daemon=True)
            proc.start()
            self.conns.append(a)
            self.procs.append(proc)
        # the workers hold them now: a file goes with the last of them; the parent keeps them
        # only to read the gathered layers from them (Pool.gather), and closes them in ``end``
        self.files = files

    # --- the exchange of loop.run -----------------------------------------------------------------

    def __enter__(self) -> "Pool":
        return self

    def __exit__(self, *exc: object) -> None:
        self.end()  # whatever ended the search, no worker is left behind (a no-op once they exited)

    def begin(self, start: np.ndarray) -> tuple[list[int], Answer]:
        """Layer 0 to the owner of the start (saved as layer 0 with --resume), or, resumed, every
        saved layer to the workers, each its own part (``load``)."""
        resumed = self.saved is not None and self.saved.depths > 0
        if resumed:
            self.load()
        who = int(owner(start, self.parts)[0])
        empty = np.zeros(0, dtype=U64)
        got = self.ask([("start", start if p == who and not resumed else empty) for p in range(self.parts)])
        self.held = self.saved.depths if self.saved is not None and resumed else 1
        if self.saved is None:
            return [1], combine(got)
        if not resumed:
            self.saved.add(start, 0)
        self.saved.forget()
        return [self.saved.layer_size(i) for i in range(self.saved.depths)], combine(got)

    def load(self) -> None:
        """Hand every worker its part of each saved layer (read back from disk one layer at a time,
        cut by ``owner`` for this run's number of workers, whatever the saving run's was)."""
        assert self.saved is not None
        for i in range(self.saved.depths):
            pieces = split(self.saved.layer(i), self.parts)
            if self.files is not None:  # through the worker's own memory file, which is idle now
                for fd, piece in zip(self.files, pieces):
                    os.ftruncate(fd, 0)
                    _put(fd, piece, 0)
                got = self.ask([("load", i, int(piece.size)) for piece in pieces])
            else:
                got = self.ask([("load", i, piece) for piece in pieces])
            want = self.saved.layer_size(i)
            if sum(got) != want:
                raise InternalError(f"the workers hold {sum(got)} states of saved layer {i}, not {want}")

    def save(self, depth: int) -> None:
        """Layer ``depth``, complete in the workers, gathered (``collect``) and saved in the
        --resume directory as the one-process search saves it (same files, same manifest), then
        dropped from the parent's memory."""
        if self.saved is None:
            return
        self.saved.add(self.collect(depth), depth)
        self.saved.forget()

    def poll(self) -> str | None:
        return self.limits.exceeded()

    def layer(self, depth: int) -> tuple[str | None, Answer]:
        out = self.ask([("expand",)] * self.parts)
        self.cpu.round("expand", [o[2] for o in out])
        stopped = next((o[0] for o in out if o[0]), None)
        if stopped:
            return stopped, Answer(0)
        ps = range(self.parts)
        if self.route == "memfd":  # (writer, byte offset, count): the owner reads them itself
            runs = [[(q, *out[q][1][p]) for q in ps] for p in ps]
        else:
            runs = [[out[q][1][p] for q in ps] for p in ps]
        del out
        got = self.ask([("absorb", depth, runs[p]) for p in ps])
        self.cpu.round("absorb", [g[1] for g in got])
        answer = combine([g[0] for g in got])
        if answer.size:  # an empty layer is never saved (the search stops there)
            self.held = depth + 1
            self.save(depth)
        self.stats["round_cpu"] = self.cpu.seconds()
        return None, answer

    def in_layer(self, rank: int, t: int) -> bool:
        """Asked while the path is rebuilt, once the search has ended: from the layers gathered
        then (the witness, ``gather``), or, with saved layers, by the owner of ``rank``."""
        if self.saved is None:
            if self.gathered is None:
                self.gathered = self.gather(self.held, self.budget)
            return self.gathered.in_layer(rank, t)
        p = int(owner(np.array([rank], dtype=U64), self.parts)[0])
        self._send(p, ("in_layer", rank, t))
        return self._recv(p)

    def witness(self, complete: bool, depths: int) -> Visited:
        """The gathered layers of a finished search; an empty set after a limit (a request may
        be unanswered, a Ctrl-C in the middle: the workers are stopped)."""
        if self.saved is not None:  # every layer is on disk already
            if complete:
                self.close()
            else:
                self.end()
            return self.saved
        if self.gathered is not None:  # gathered for the path (``in_layer``): the workers have exited
            return self.gathered
        if complete:
            return self.gather(depths, self.budget)
        self.end()
        return Visited(upper_bound=self.upper_bound)

    # --- requests ---------------------------------------------------------------------------------

    def ask(self, requests: list) -> list:
        for p, req in enumerate(requests):
            self._send(p, req)
        return [self._recv(p) for p in range(self.parts)]

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
        """Every worker's layers in one visited set (the workers then exit).

        Route "memfd" without a spill budget: in one round (``round_cpu["gather"]``) every worker
        writes all its layers into its memory file, and the witness is those files, mapped
        (``visited.Parts``: each layer merged from the workers' parts when it is read, by a
        certificate; a plain solve reads none, and nothing is copied or merged in the parent).
        Else the parent merges each layer (``collect``) into a visited set of the budget."""
        if self.files is None or budget is not None:
            visited = Visited(upper_bound=self.upper_bound, budget=budget)
            for i in range(depths):
                visited.add(self.collect(i), i)
            self.close()
            return visited
        out = self.ask([("dump_all", depths)] * self.parts)
        self.cpu.round("gather", [o[1] for o in out])
        self.stats["round_cpu"] = self.cpu.seconds()
        files, self.files = self.files, None
        self.close()
        pieces: list[list[np.ndarray]] = [[] for _ in range(depths)]
        for fd, (where, _) in zip(files, out):
            total = sum(n for _, n in where)
            # writable, as ``_view``'s: the compiled kernels take the arrays they were loaded for
            region = mmap.mmap(fd, 8 * total, mmap.MAP_SHARED, mmap.PROT_READ | mmap.PROT_WRITE) if total else None
            os.close(fd)  # the mapping keeps the file
            for i, (pos, n) in enumerate(where):
                got = np.zeros(0, U64) if region is None or not n else np.frombuffer(region, U64, n, pos)
                pieces[i].append(got)
        return Parts(pieces, self.upper_bound)

    def collect(self, i: int) -> np.ndarray:
        """Layer i, sorted, from the workers' parts: with route "memfd" each worker writes its part
        into its memory file and the parent maps it (no pickling, no copy: ``_view``); the parts
        are sorted, distinct and disjoint, so ``jit.merge_disjoint`` merges them in one linear pass
        without a branch (``space.union`` when small or without numba)."""
        if self.files is not None:
            sizes = self.ask([("dump", i)] * self.parts)
            parts = [_view(fd, 0, n) for fd, n in zip(self.files, sizes)]
        else:
            parts = self.ask([("layer", i)] * self.parts)
        kernels = compiled() if sum(p.size for p in parts) >= FAST_MIN else None
        if kernels is None:
            return union(parts)
        while len(parts) > 1:  # the parts are disjoint (each state has one owner): no repeat to drop
            pairs = range(0, len(parts) - 1, 2)
            parts = [kernels.merge_disjoint(parts[i], parts[i + 1]) for i in pairs] + parts[len(parts) & ~1 :]
        return parts[0]

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
        for fd in self.files or ():  # the memory files the parent kept for gathering
            os.close(fd)
        self.files = None
