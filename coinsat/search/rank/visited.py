"""The visited set of ``rankbfs``: one sorted run of ranks per depth, spilled to disk past a budget.

**One run per layer.**  A state is visited once, at its BFS depth, so the
visited set is the disjoint union of its layers, each a sorted uint64 array.
Storing it that way costs 8 bytes a state (the depth is the run a state is
in, not a field of its own) and adding a layer appends one array: nothing is
ever inserted into, or copied with, the rest of the set, so there are never
two copies of it (``np.insert`` into one sorted array, the earlier store,
briefly held two).  Membership asks every run with one ``searchsorted`` of the
sorted queries (numpy narrows each search from the previous one); with numba,
``jit.member_sorted`` goes through both sorted arrays at once, walking when their
sizes are close and galloping when they are not.  Its cost is the size of the runs
it is asked against (about 20 ns a visited state on V(3,3)), so each layer's check
costs in proportion to all that was visited before it.

**Spilling.**  When the runs held in memory pass ``budget`` bytes, the oldest
are written to disk and dropped from memory, the newest (the frontier being
expanded) last.  A spilled layer of ``SPLIT_AT`` states or more is split into
``PARTS`` files by a hash of the rank (a smaller one is one file); each file
holds its ranks sorted, the first rank then the first differences in the width
(1, 2, 4 or 8 bytes) that makes the file smallest, the rare larger gaps stored
apart (``encode``), ``disk_bytes`` in all.  Membership of a
batch of new states streams one partition at a time: the queries of
partition p are checked against partition p of each spilled layer, so the
memory a check needs is one partition of the spilled set, not all of it, and
the search is bounded by disk, not RAM.  Every check reads every spilled
layer back, so decoding must be cheap: a general compressor (zlib) stored the
layers smaller but cost far more CPU than it saved (``benchmarks/rankbfs-spill.md``).

**Saved layers and resume.**  With ``directory`` given, every layer is
written there as it completes (the same files) and ``manifest.json`` is
replaced atomically after it, naming the search (instance fingerprint, span
pruning, file format, the bound U and the h that pruned with it: ``"fill"``,
``"forced"`` or ``{"kind": "perimeter", "r": R, "inner": ...}``), the last
complete depth and the sha256 of every layer file.  :func:`Visited.resume`
reads a directory back, checks that it belongs to the same search (another
instance, U or h is a UsageError naming the directory and both values: layers
pruned one way are never continued another way), and drops any layer written
after the manifest (a run killed mid-layer), so a resumed search continues
from the last complete layer and meets exactly the states the uninterrupted
one would.  A manifest without an h was saved when only the fill h resumed:
it reads as ``"fill"`` (None without a bound).  Worker processes save through
one such set in their parent (``processes.Pool.save``), which keeps none of the
layers in memory (:meth:`Visited.forget`): the directory does not depend on the
number of workers that wrote it.

**Trusting saved layers.**  A resumed answer (``optimal``, or a global
``unsolvable``) is only as good as the layers it continues from, so before any
is used, :func:`Visited.resume` reads every layer file back and refuses the
directory (a UsageError naming the file: exit 2, no traceback) unless each
file has the sha256 the manifest gives it, decodes to a strictly increasing run
of ranks of its own partition, and every layer has the size the manifest says
and is not empty (a search never saves an empty layer: it stops there).  The
hashes catch damage (a truncated or flipped file, an edited size or frontier);
they cannot catch an edit made together with new hashes, since the manifest
sits beside the files, and they do not cover the manifest's own fields (U, h);
so ``rankbfs`` also re-derives the frontier from the layer before it with this
run's U and h (what a resumed search continues from): a manifest whose h was
edited to the run's catches there whenever the two h keep different frontiers.  An answer from a
resumed search says so (``resumed`` in its statistics, shown by ``solve`` in
its JSON and human output), and ``--certify`` checks every layer
independently, from the start.

**A worker search's witness.**  Worker processes hand their layers to the parent as they
hold them, one sorted run per worker and layer (:class:`Parts`): a layer is merged from the
parts when it is read (a certificate reads each layer once, a plain solve none), so the parent
merges and copies nothing when the search ends (``processes.Pool.gather``).

**One run at a time.**  :func:`resume_lock` holds an exclusive lock (``flock``) on the
directory while a search saves into it: a second run on the same directory is a UsageError
at once (exit 2), not a second writer (round-4 defect R4-7).  The kernel drops the lock with
the process, so a killed run leaves no stale lock behind.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import tempfile
import weakref
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator

import numpy as np

from ...environment import Kernels
from ...errors import LimitReached, UsageError
from ...limits import signals_deferred
from .colex import U64

#: hash partitions of a spilled layer (a membership check holds one in memory at a time) ...
PARTS = 16
#: ... once it has this many states (a smaller layer is one file: fewer files to open per check)
SPLIT_AT = 1 << 20
MANIFEST = "manifest.json"
GOLDEN = U64(0x9E3779B97F4A7C15)
#: membership checks this large use the compiled galloping search when numba is installed
COMPILED_MIN = 1 << 14


@dataclass(frozen=True)
class Storage:
    """Where a search keeps its layers: ``budget`` bytes of runs in memory (None: all), and
    ``directory`` to save every layer in and resume from (None: spill to a private one)."""

    budget: int | None = None
    directory: str | None = None

    def share(self, parts: int) -> "Storage":
        """One of ``parts`` workers' storage: its share of the budget (no saved directory)."""
        return Storage(None if self.budget is None else max(1, self.budget // parts))


def part_of(ranks: np.ndarray, parts: int = PARTS) -> np.ndarray:
    """The file partition of each rank (a multiplicative hash; distinct bits from ``processes.owner``)."""
    return ((ranks * GOLDEN) >> U64(20)) % U64(parts)


#: the file format of a spilled partition (saved layers of another format are refused on resume)
CODEC = "delta-width-exceptions-1"
_WIDTHS = (np.uint8, np.uint16, np.uint32, np.uint64)
_LE64 = np.dtype(U64).newbyteorder("<")


def encode(sorted_ranks: np.ndarray) -> bytes:
    """Sorted ranks as the first rank and the first differences after it, in the width (1, 2,
    4 or 8 bytes) that makes the file smallest, the few differences too large for it stored
    apart as exceptions (position and value, 8 bytes each).  Layout, little-endian: one byte
    giving the width, the first rank (8 bytes), the number of exceptions E (8 bytes), E
    positions, E values, then the differences (0 in an exception's place).

    Why exceptions: the ranks of a layer are far from uniform in the colex order, so a few gaps
    are much larger than the rest.  With one width for all, the largest gap set it, and on
    V(4,3)'s spilled layers (81 cells, 11 coins) that was 8 bytes a state although 99.99 % of
    the gaps fit 4 bytes (1,850 of 26.0 M did not, at depth 70 of the U = 94 search).  The
    first rank stands apart for the same reason (it is as large as the ranks).  Decoding is a
    widening copy, a patch of the exceptions and one cumulative sum (no inflate: a check reads
    every spilled layer)."""
    if sorted_ranks.size == 0:
        return bytes([1])
    deltas = np.diff(sorted_ranks)

    too_big = {t: np.flatnonzero(deltas > U64(np.iinfo(t).max)) for t in _WIDTHS}
    kind = min(_WIDTHS, key=lambda t: np.dtype(t).itemsize * deltas.size + 16 * too_big[t].size)
    big = too_big[kind]
    narrow = deltas.copy()
    narrow[big] = 0
    head = np.array([sorted_ranks[0], big.size], dtype=U64).astype(_LE64).tobytes()
    return (
        bytes([np.dtype(kind).itemsize])
        + head
        + big.astype(_LE64).tobytes()
        + deltas[big].astype(_LE64).tobytes()
        + narrow.astype(np.dtype(kind).newbyteorder("<")).tobytes()
    )


class Damaged(ValueError):
    """Bytes that :func:`decode` cannot read as an encoded run (the message says why)."""


def decode(data: bytes) -> np.ndarray:
    """The inverse of :func:`encode`; :class:`Damaged` for bytes it cannot have written (a bad
    width byte, a length that does not fit the layout, an exception outside the run)."""
    if len(data) <= 1:
        if data not in (b"", bytes([1])):
            raise Damaged(f"one byte {data!r} is not an encoded run")
        return np.zeros(0, dtype=U64)
    widths = {np.dtype(t).itemsize: t for t in _WIDTHS}
    if data[0] not in widths or len(data) < 17:
        raise Damaged("not an encoded run (bad header)")
    kind = widths[data[0]]
    first, n_big = np.frombuffer(data, dtype=_LE64, count=2, offset=1)
    e = int(n_big)
    rest = len(data) - 17 - 16 * e
    if e < 0 or rest < 0 or rest % data[0]:
        raise Damaged(f"{len(data)} bytes do not hold {e} exceptions and {data[0]}-byte differences")
    big = np.frombuffer(data, dtype=_LE64, count=e, offset=17)
    values = np.frombuffer(data, dtype=_LE64, count=e, offset=17 + 8 * e)
    deltas = np.frombuffer(data, dtype=np.dtype(kind).newbyteorder("<"), offset=17 + 16 * e).astype(U64)
    if e and int(big.max()) >= deltas.size:
        raise Damaged("an exception lies outside the run")
    deltas[big.astype(np.intp)] = values
    out = np.empty(deltas.size + 1, dtype=U64)
    out[0] = first
    np.cumsum(deltas, dtype=U64, out=out[1:])
    out[1:] += first
    return out


def _write(path: Path, data: bytes) -> None:
    tmp = path.with_name(path.name + ".tmp")
    with open(tmp, "wb") as f:
        f.write(data)
    os.replace(tmp, path)


@contextmanager
def resume_lock(directory: str | Path | None) -> Iterator[None]:
    """Hold the ``--resume`` directory (created if missing) for the block (module docstring:
    one run at a time); a UsageError when another run holds it.  None: nothing to hold."""
    try:
        import fcntl
    except ImportError:  # no flock here (Windows): no lock
        fcntl = None  # type: ignore[assignment]
    base = None if directory is None else Path(directory)
    if fcntl is None or base is None or (base.exists() and not base.is_dir()):
        yield  # not a directory: Visited.resume says so
        return
    try:
        base.mkdir(parents=True, exist_ok=True)
        fd = os.open(base, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    except OSError as e:
        raise UsageError(f"{directory}: cannot save layers there ({e.strerror or e})") from None
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise UsageError(
                f"{directory}: another coinsat run is saving its layers there (the directory is locked): "
                "wait for it to end, or give another --resume directory"
            ) from None
        yield
    finally:
        os.close(fd)  # the lock goes with it


class Visited:
    """The visited set (module docstring): ``layer(i)`` the states at depth i, ``upper_bound``
    the bound-and-prune bound the search used (a layers certificate carries it)."""

    def __init__(
        self,
        upper_bound: int | None = None,
        budget: int | None = None,
        directory: str | Path | None = None,
        fingerprint: dict | None = None,
    ):
        self.upper_bound = upper_bound
        self.heuristic = "fill"  # the h that pruned the layers with upper_bound (a certificate names it)
        self.symmetry = None  # the nontrivial symmetries its layers are quotiented by (docs/symmetry.md)
        self.budget = budget
        self.fingerprint = fingerprint or {}
        self._runs: list[np.ndarray | None] = []  # None: on disk only
        self._sizes: list[int] = []
        self._parts: list[int] = []  # files of each saved layer (1 or PARTS)
        self._hashes: list[list[str]] = []  # sha256 of each saved layer's files (a saved directory)
        self._saved = 0  # layers 0 .. _saved - 1 are on disk
        self.disk_bytes = 0
        self.spilled = 0  # layers dropped from memory
        self._dir: Path | None = None
        self._persist = directory is not None
        if directory is not None:
            self._dir = Path(directory)
            try:
                self._dir.mkdir(parents=True, exist_ok=True)
            except OSError as e:
                raise UsageError(f"{directory}: cannot save layers there ({e.strerror or e})") from None

    # --- building ---------------------------------------------------------------------------------

    @classmethod
    def from_layers(cls, layers: list[np.ndarray], upper_bound: int | None = None) -> "Visited":
        v = cls(upper_bound=upper_bound)
        for i, layer in enumerate(layers):
            v.add(layer, i)
        return v

    def add(self, new: np.ndarray, depth: int) -> None:
        """Append ``new`` (sorted, none visited) as layer ``depth`` (layers before it are empty if missing)."""
        while len(self._runs) < depth:
            self._append(np.zeros(0, dtype=U64))
        if depth != len(self._runs):
            raise ValueError(f"layer {depth} added after layer {len(self._runs) - 1}")
        self._append(np.asarray(new, dtype=U64))

    def _append(self, run: np.ndarray) -> None:
        self._runs.append(run)
        self._sizes.append(int(run.size))
        try:
            if self._persist:
                self._save_through(len(self._runs))
            self._spill_over_budget()
        except OSError as e:  # a full disk is a limit: the search stops with what it proved
            raise LimitReached(f"disk limit ({e.strerror or e})") from None

    def _directory(self) -> Path:
        if self._dir is None:  # a private spill directory, removed with this object
            self._dir = Path(tempfile.mkdtemp(prefix="coinsat-layers-"))
            self._cleanup = weakref.finalize(self, shutil.rmtree, str(self._dir), True)
        return self._dir

    def discard(self) -> None:
        """Remove the private spill directory now (a saved ``directory`` stays); the set is unusable after."""
        cleanup = getattr(self, "_cleanup", None)
        if cleanup is not None:
            cleanup()

    def _save_through(self, count: int) -> None:
        """Write layers _saved .. count - 1 to disk (partition files), then the manifest."""
        base = self._directory()
        for i in range(self._saved, count):
            run = self._runs[i]
            assert run is not None
            d = base / f"L{i:05d}"
            d.mkdir(exist_ok=True)
            parts = PARTS if run.size >= SPLIT_AT else 1
            who = part_of(run, parts)
            hashes = []
            for p in range(parts):
                data = encode(run[who == U64(p)] if parts > 1 else run)
                _write(d / f"p{p:03d}.bin", data)
                self.disk_bytes += len(data)
                if self._persist:
                    hashes.append(hashlib.sha256(data).hexdigest())
            self._parts.append(parts)
            self._hashes.append(hashes)
        self._saved = max(self._saved, count)
        if self._persist:
            manifest = dict(self.fingerprint, upper_bound=self.upper_bound, layers=self._sizes[:count])
            manifest["parts"] = self._parts[:count]
            manifest["sha256"] = self._hashes[:count]
            _write(base / MANIFEST, json.dumps(manifest).encode())

    def _spill_over_budget(self) -> None:
        if self.budget is None:
            return
        i = 0
        while self.nbytes > self.budget and i < len(self._runs) - 1:
            if self._runs[i] is not None:
                if self._saved <= i:
                    self._save_through(i + 1)
                self._runs[i] = None
                self.spilled += 1
            i += 1

    def forget(self) -> None:
        """Drop every saved layer from memory (they are read back from disk when asked for): the
        parent of worker processes saves the layers it gathers and keeps none of them."""
        for i in range(min(self._saved, len(self._runs))):
            self._runs[i] = None

    # --- reading ----------------------------------------------------------------------------------

    def _load(self, i: int, p: int) -> np.ndarray:
        file = self._directory() / f"L{i:05d}" / f"p{p:03d}.bin"
        try:
            with open(file, "rb") as f:
                return decode(f.read())
        except (OSError, Damaged) as e:  # changed under a running search: say which file
            raise UsageError(f"{file}: saved layer {i} cannot be read ({getattr(e, 'strerror', None) or e})") from None

    def layer(self, i: int) -> np.ndarray:
        """The sorted states at depth i (read back from disk if spilled; empty past the last)."""
        if i >= len(self._runs):
            return np.zeros(0, dtype=U64)
        run = self._runs[i]
        if run is not None:
            return run
        return np.sort(np.concatenate([self._load(i, p) for p in range(self._parts[i])]))

    def contains(self, values: np.ndarray) -> np.ndarray:
        """Which of the sorted ``values`` are visited."""
        seen = np.zeros(values.shape, dtype=bool)
        if values.size == 0:
            return seen
        on_disk = []
        for i, run in enumerate(self._runs):
            if run is None:
                on_disk.append(i)
            elif run.size:
                _member_into(run, values, seen)
        for i in on_disk:  # the small layers: one file each
            if self._parts[i] == 1 and self._sizes[i]:
                _member_into(self._load(i, 0), values, seen)
        on_disk = [i for i in on_disk if self._parts[i] > 1]
        if on_disk:
            who = part_of(values)
            for p in range(PARTS):
                at = np.flatnonzero(who == U64(p))
                if at.size == 0:
                    continue
                sub = values[at]
                hit = np.zeros(at.size, dtype=bool)
                for i in on_disk:
                    if self._sizes[i]:
                        _member_into(self._load(i, p), sub, hit)
                seen[at] |= hit
        return seen

    def in_layer(self, value: int, i: int) -> bool:
        """Is the state ``value`` at depth i (one partition file read if the layer is spilled)?"""
        if i >= len(self._runs) or self._sizes[i] == 0:
            return False
        q = np.array([value], dtype=U64)
        run = self._runs[i]
        if run is None:
            run = self._load(i, int(part_of(q, self._parts[i])[0]))
        return bool(_member(run, q)[0])

    def depth_of(self, value: int) -> int | None:
        for i in range(self.depths):
            if self.in_layer(value, i):
                return i
        return None

    @property
    def keys(self) -> np.ndarray:
        """Every visited state, sorted (a full copy: for tests and small searches)."""
        return np.sort(np.concatenate([self.layer(i) for i in range(self.depths)] or [np.zeros(0, U64)]))

    @property
    def depth(self) -> np.ndarray:
        """The depth of each of ``keys``."""
        layers = [self.layer(i) for i in range(self.depths)]
        if not layers:
            return np.zeros(0, dtype=np.uint16)
        keys = np.concatenate(layers)
        depth = np.repeat(np.arange(len(layers), dtype=np.uint16), [a.size for a in layers])
        return depth[np.argsort(keys, kind="stable")]

    @property
    def depths(self) -> int:
        """Layers stored (the last depth + 1)."""
        return len(self._runs)

    @property
    def size(self) -> int:
        return int(sum(self._sizes))

    @property
    def nbytes(self) -> int:
        """Bytes of the runs held in memory."""
        return int(sum(r.nbytes for r in self._runs if r is not None))

    # --- resume -----------------------------------------------------------------------------------

    @classmethod
    def resume(
        cls, directory: str | Path, fingerprint: dict, upper_bound: int | None, budget: int | None
    ) -> "Visited | None":
        """The layers saved in ``directory`` by the same search (None if it holds none yet);
        a UsageError if they belong to another search."""
        base = Path(directory)
        if base.exists() and not base.is_dir():
            raise UsageError(f"{base}: not a directory (--resume names a directory of saved layers)")
        try:
            manifest = json.loads((base / MANIFEST).read_text())
        except FileNotFoundError:
            return None
        except (OSError, ValueError) as e:
            raise UsageError(f"{base / MANIFEST}: not a saved rankbfs search ({e})") from None
        if not isinstance(manifest, dict):
            raise UsageError(f"{base / MANIFEST}: not a saved rankbfs search (not a JSON object)")
        theirs = {k: manifest.get(k) for k in fingerprint} | {"upper_bound": manifest.get("upper_bound")}
        if "h" in fingerprint and "h" not in manifest:  # saved before the manifest named its h, when
            theirs["h"] = None if theirs["upper_bound"] is None else "fill"  # only the fill h resumed
        ours = dict(fingerprint, upper_bound=upper_bound)
        if theirs != ours:
            diff = sorted(k for k in ours if theirs.get(k) != ours[k])
            said = "; ".join(f"{k}: saved {_shown(theirs.get(k))}, this run {_shown(ours[k])}" for k in diff)
            raise UsageError(
                f"{base}: saved layers of another search ({said}): give the saved options or a new directory"
            )
        sizes, parts, hashes = _saved_layers(base, manifest)
        v = cls(upper_bound=upper_bound, budget=budget, directory=base, fingerprint=fingerprint)
        for i in range(len(sizes), 1 << 20):  # layers written after the manifest: a killed run's
            extra = base / f"L{i:05d}"
            if not extra.exists():
                break
            shutil.rmtree(extra)
        v._runs = [None] * len(sizes)
        v._sizes = sizes
        v._saved = len(sizes)
        v._parts = parts
        v._hashes = hashes
        v.disk_bytes = _verify(base, sizes, parts, hashes)
        if sizes:  # the frontier back in memory
            v._runs[-1] = v.layer(len(sizes) - 1)
        return v

    def layer_size(self, i: int) -> int:
        return self._sizes[i] if i < len(self._sizes) else 0


class Parts(Visited):
    """A visited set held as the parts of P worker processes (``processes.Pool.gather``): layer i
    is the union of ``pieces[i]``, P sorted runs, pairwise disjoint (each state has one owner),
    merged when the layer is read (``layer``: a certificate reads each layer once, a plain solve
    none), so gathering a worker search's witness merges and copies nothing in the parent.
    Membership asks every part; the set is complete (nothing is added to it)."""

    def __init__(self, pieces: list[list[np.ndarray]], upper_bound: int | None = None):
        super().__init__(upper_bound=upper_bound)
        self._pieces = pieces
        self._sizes = [sum(int(p.size) for p in ps) for ps in pieces]

    def add(self, new: np.ndarray, depth: int) -> None:
        raise TypeError("the gathered layers of a worker search are complete: nothing is added to them")

    def layer(self, i: int) -> np.ndarray:
        """The sorted states at depth i, merged from the parts (empty past the last)."""
        if i >= len(self._pieces):
            return np.zeros(0, dtype=U64)
        runs = [p for p in self._pieces[i] if p.size]
        if not runs:
            return np.zeros(0, dtype=U64)
        kernels = compiled() if sum(p.size for p in runs) >= COMPILED_MIN else None
        if kernels is None:
            return np.sort(np.concatenate(runs))
        while len(runs) > 1:  # disjoint: no repeat to drop
            pairs = range(0, len(runs) - 1, 2)
            runs = [kernels.merge_disjoint(runs[j], runs[j + 1]) for j in pairs] + runs[len(runs) & ~1 :]
        return np.array(runs[0], dtype=U64)  # a copy when it is one part: never the mapped file itself

    def contains(self, values: np.ndarray) -> np.ndarray:
        seen = np.zeros(values.shape, dtype=bool)
        for ps in self._pieces:
            for p in ps:
                if p.size and values.size:
                    _member_into(p, values, seen)
        return seen

    def in_layer(self, value: int, i: int) -> bool:
        """One binary search in each part (a solution path asks thousands of these, one at a time)."""
        if i >= len(self._pieces):
            return False
        x = U64(value)
        for p in self._pieces[i]:
            at = int(np.searchsorted(p, x))
            if at < p.size and p[at] == x:
                return True
        return False

    @property
    def depths(self) -> int:
        return len(self._pieces)

    @property
    def nbytes(self) -> int:
        return int(sum(p.nbytes for ps in self._pieces for p in ps))

    def forget(self) -> None:
        return None


def _saved_layers(base: Path, manifest) -> tuple[list[int], list[int], list[list[str]]]:
    """The sizes, file counts and sha256s a manifest gives its layers; a UsageError naming the
    manifest when they are missing or malformed (an edited file, or one saved without hashes)."""
    where = base / MANIFEST
    hashes = manifest.get("sha256") if isinstance(manifest, dict) else None
    if hashes is None:
        raise UsageError(
            f"{where}: no sha256 of the layer files (saved by an older coinsat?): resume into a new directory"
        )
    try:
        sizes = [_count(s) for s in manifest["layers"]]
        parts = [_count(p) for p in manifest["parts"]]
        ok = len(sizes) == len(parts) == len(hashes) and all(p in (1, PARTS) for p in parts)
        ok = ok and all(
            isinstance(h, list) and len(h) == p and all(_is_hex(x) for x in h) for h, p in zip(hashes, parts)
        )
    except (KeyError, TypeError, ValueError):
        ok = False
    if not ok:
        raise UsageError(f"{where}: malformed (layers, parts and sha256 must describe the same layer files)")
    return sizes, parts, hashes


def _shown(value) -> str:
    """A manifest value in an error message: compact JSON, a long digest cut to 12 characters."""
    if isinstance(value, str) and len(value) == 64:
        return value[:12] + "..."
    return json.dumps(value, sort_keys=True)


def _count(x) -> int:
    if isinstance(x, bool) or not isinstance(x, int) or x < 0:
        raise ValueError(x)
    return x


def _is_hex(x) -> bool:
    return isinstance(x, str) and len(x) == 64 and all(c in "0123456789abcdef" for c in x)


def _verify(base: Path, sizes: list[int], parts: list[int], hashes: list[list[str]]) -> int:
    """Read every saved layer file once: its sha256 must be the manifest's, its bytes a strictly
    increasing run of ranks of its own partition, each layer of the manifest's size and not
    empty (module docstring).  Returns the bytes on disk; a UsageError names the first bad file."""
    total = 0
    for i, (size, count, digests) in enumerate(zip(sizes, parts, hashes)):
        held = 0
        for p in range(count):
            file = base / f"L{i:05d}" / f"p{p:03d}.bin"
            try:
                data = file.read_bytes()
            except OSError as e:
                raise UsageError(f"{file}: saved layer {i} cannot be read ({e.strerror or e})") from None
            if hashlib.sha256(data).hexdigest() != digests[p]:
                raise UsageError(f"{file}: damaged (its sha256 is not the one in {MANIFEST})")
            try:
                run = decode(data)
            except Damaged as e:
                raise UsageError(f"{file}: damaged ({e})") from None
            if run.size > 1 and not bool(np.all(run[1:] > run[:-1])):
                raise UsageError(f"{file}: damaged (the ranks are not strictly increasing)")
            if count > 1 and run.size and not bool(np.all(part_of(run, count) == U64(p))):
                raise UsageError(f"{file}: damaged (ranks of another partition)")
            held += int(run.size)
            total += len(data)
        if held != size:
            raise UsageError(f"{base / MANIFEST}: layer {i} has {held} states on disk, not {size}")
        if size == 0:
            raise UsageError(f"{base / MANIFEST}: layer {i} is empty (a search stops there and never saves one)")
    return total


#: the kernel choice of the running search (``chosen``); outside a search, the defaults
_in_force = Kernels()


def in_force() -> Kernels:
    """The kernel choice of the running search (``RankbfsOptions.kernels``, put in force by
    ``chosen``; a worker process by its setup), or ``Kernels()`` outside one."""
    return _in_force


@contextmanager
def chosen(kernels: Kernels):
    """``kernels`` in force in this process (``compiled``, ``processes.route``) until the block
    ends, then the choice before it again."""
    global _in_force
    before, _in_force = _in_force, kernels
    try:
        yield kernels
    finally:
        _in_force = before


def compiled():
    """``search/rank/jit.py`` with every kernel loaded, or None when the numpy path runs
    (no numba, or ``Kernels(compiled=False)`` in force: then ``jit`` is not imported here).

    The one loader of the compiled kernels (rankbfs's expansion and this module's membership
    both come through it), run with SIGINT and the time limit's SIGALRM held back
    (``limits.signals_deferred``): an import of numba cut in half breaks every later one, and
    loading a kernel starts LLVM, which puts its own SIGINT handler in place (it cleans up and
    re-raises the signal, so a Ctrl-C would end the process instead of the search).  Leaving
    the deferred block installs Python's handlers again at the C level, which undoes LLVM's;
    after it nothing compiles again (``jit.warm_up``), so LLVM never gets another chance.
    numba's first load is made without its probe for a BLAS (``_no_blas_probe``)."""
    if not _in_force.compiled:
        return None
    with signals_deferred(), _no_blas_probe():
        from . import jit as fastkernel

        return fastkernel if fastkernel.warm_up() else None


#: the module numba imports, at its first compilation or cache load, only to ask whether a BLAS exists
_BLAS_PROBE = "scipy.linalg.cython_blas"


@contextmanager
def _no_blas_probe():
    """Hold back numba's BLAS probe for the block, when scipy's linear algebra is not loaded yet.

    numba's first compilation or cache load imports ``numba.np.arraymath``, which imports
    ``scipy.linalg`` (and with it ``numpy.f2py``) to set one flag, ``_HAVE_BLAS``, which only
    np.correlate and np.convolve of floats read (no kernel here calls them): 0.29 of the 0.9 CPU s
    that ``compiled`` took on a quiet machine, paid by every search and by the parent of worker
    processes before they fork (``benchmarks/rankbfs-5m.md``).  Meanwhile the module it imports
    reads as missing (a ``None`` entry in ``sys.modules``: the import raises at once); afterwards the
    entry goes and scipy imports as usual (numba's linear algebra asks again when it compiles)."""
    import sys

    held = _BLAS_PROBE not in sys.modules and "scipy.linalg" not in sys.modules
    if held:
        sys.modules[_BLAS_PROBE] = None
    try:
        yield
    finally:
        if held and sys.modules.get(_BLAS_PROBE, 0) is None:
            del sys.modules[_BLAS_PROBE]


def _member_into(run: np.ndarray, values: np.ndarray, seen: np.ndarray) -> None:
    """seen |= which of the sorted ``values`` are in the sorted ``run`` (in place when compiled)."""
    kernels = compiled() if max(run.size, values.size) >= COMPILED_MIN else None
    if kernels is not None:
        kernels.member_sorted(run, values, seen)
    elif run.size and values.size:
        seen |= _member(run, values)


def _member(run: np.ndarray, values: np.ndarray) -> np.ndarray:
    """Which of the sorted ``values`` are in the sorted ``run``: the smaller array is searched
    for in the larger (compiled galloping search with numba, else numpy's binary search)."""
    if run.size == 0 or values.size == 0:
        return np.zeros(values.shape, dtype=bool)
    kernels = compiled() if max(run.size, values.size) >= COMPILED_MIN else None
    if kernels is not None:
        seen = np.zeros(values.shape, dtype=bool)
        kernels.member_sorted(run, values, seen)
        return seen
    if run.size < values.size:
        idx = np.searchsorted(values, run)
        ok = idx < values.size
        idx, found = idx[ok], run[ok]
        seen = np.zeros(values.shape, dtype=bool)
        seen[idx[values[idx] == found]] = True
        return seen
    idx = np.searchsorted(run, values)
    idx[idx == run.size] = 0
    return run[idx] == values
