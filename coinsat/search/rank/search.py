"""Span-pruned layered BFS on ranked states, past 64 cells (method ``rankbfs``).

The successor of ``spanbfs`` (same pruning, same statuses and scopes, same
grown windows; its module docstring has the arguments), built to scale:

**States.**  A state is stored as the colex rank of its occupied cells, one
uint64 (``search/rank/colex.py``): any window with C(n, k) < 2**64, e.g. 144 cells
and 14 coins.  It is expanded as a bitboard of W = ceil(n / 64) words, the
neighbour planes being shifts across words (``_Kernel``).

**Expansion by removed coin** (what makes it fast).  A move s -> p puts p on
a cell with >= d coins of C - s around it, so p lies in span(C - s) and

    span(C - s + p) = span(C - s).

The span of every successor of C by a move of s is the span of C - s: the
span pruning ("the successor's span must contain a goal placement's span",
Lemma "span monotone") is decided once per (state, coin), k closures per
state, instead of once per successor, and a coin whose removal loses the goal
span generates nothing.  The successors' ranks come from the rank of C - s
by an insertion table (``rank.Colex.insertion_table``): two lookups each.

**Bound-and-prune** (``upper_bound=U``, or ``max_moves=U`` with an h named, on an exact window;
off by default).  h(C) is the greedy
schedule of theory/reach.py applied from C: the span layers R_0 = C,
R_j = R_{j-1} + {cells with >= d neighbours in R_{j-1}}; an empty goal cell
c first in R_j cannot be filled before move j from C (the coins that support
it when it is filled were occupied one step before, Lemma W), every empty
goal cell needs a move of its own, one cell per move, so with f_1 <= ... <=
f_m those steps, every path from C to the goal has at least
h(C) = max_i (f_i + m - i) moves (0 when m = 0; the minimum over goal
placements).  A state first met at depth t is dropped when t + h(state) > U.

*Soundness.*  Let x_0, ..., x_L be a shortest solution with L <= U.  Each x_j
has BFS distance j and j + h(x_j) <= j + (L - j) <= U, so by induction every
x_j is kept at depth j and the goal is met at depth L.  Hence a goal met at
depth L is optimal, a layer T without a goal proves "no solution with <= T
moves" for T <= U, and an empty layer proves "no solution with <= U moves"
(``bounded``, never ``unsolvable``: U need not be achievable for any of this,
so a wrong U makes answers weaker, never false).  The layers certificate
carries U and its checker recomputes h (certificates/check/layers.py).
``forced_supports=True`` (``--forced-supports``, off by default)
prunes with the forced-supports h instead (docs/forced-supports.md, Theorem H: h_fill
<= h_forced <= the moves left; ``Space._forced``, numpy); the certificate then names
``h = "forced"`` and the checker recomputes that h.  ``heuristic="lmcut"`` (``--heuristic
lmcut``; ``--heuristic forced`` is ``--forced-supports``) prunes with the LM-cut of the relaxed
game (docs/lm-cut.md, Theorem LM: h_fill <= h_lm <= the moves left; compiled, ``lmcut.py``),
certificates naming ``h = "lmcut"``.  ``perimeter=R`` (``--perimeter R``)
prunes with the perimeter h over either: the exact distance inside the backward ball of
radius R around the goal, max(h, R + 1) outside it (``backward.py``, docs/perimeter-search.md,
Theorem P); the certificate names ``h = {"kind": "perimeter", "r": R, "inner": ...}`` and the
checker recomputes the ball.
h is computed for every new state of a layer, most of a bounded search's time in
numpy, so with numba it runs compiled, one state at a time (``jit.schedule_h``,
the same numbers: a test compares them; ``benchmarks/rankbfs-heuristic.md``).

**Memory.**  The visited set is one sorted uint64 run per layer (8 bytes a
state, ``search/rank/visited.py``), which a certificate reads back; past a budget
(``spill_budget``, by default half the memory limit) the oldest layers go to
disk by hash partition as width-packed first differences; the search goes on,
bounded by disk.  With ``resume=DIR`` every layer is saved there as it
completes and a later run continues from the last complete one.  The saved
manifest names the pruning that made the layers (U and the h record, the ball's
radius with it: the ball is rebuilt on resume, deterministically), and a run with
another U or h is refused, so no search continues from layers pruned otherwise.

**One layer loop, three exchanges** (``search/rank/loop.py``).  The loop (horizon,
limits, layers, statistics, goal, path, witness) is written once; where the states live
is the exchange's part: one process (``workers=1``), worker processes (``workers=N``,
``processes.py``: the states split by a hash of their rank, each worker owning one part, the
parent routing successors to their owners) or the ranks of an MPI job (``cluster``,
``mpi.py``).  Every exchange keeps the same states, state for state.  ``resume=DIR`` runs on
all three: with workers the parent, on MPI rank 0, saves each layer the parts complete, in
the same files and manifest as one process, and a resumed search hands each part its own
share of the saved layers, so a search saved on P workers or ranks continues on any number,
on any of the three.
"""

from __future__ import annotations

import os

import numpy as np

from ...errors import LimitReached, UsageError
from ...instance import Instance
from ...limits import Limits, enforced
from ...result import Engine, Result
from ..heuristics import DEFAULT, FORCED_SUPPORTS, PERIMETER, heuristic
from ..layered import Outcome, fixed_result, grown
from ..methods import contract
from ..options import RankbfsOptions
from .colex import U64
from .heap import keep_freed_memory
from .loop import Exchange, Local, Part, run
from .space import CHUNK, Kept, Space, applicable, max_cells, union
from .visited import CODEC, Storage, Visited, chosen, resume_lock

#: ``workers`` value of a search on the ranks of an MPI job (``mpi.py``)
CLUSTER = -1


@contract(RankbfsOptions)
def solve_rankbfs(instance: Instance, *, limits: Limits, max_moves: int | None, options: RankbfsOptions) -> Result:
    """Shortest solution by span-pruned layered BFS over ranked states (module docstring;
    options: ``RankbfsOptions``).  The result's ``witness`` (``SearchLayers``) holds the visited set when the
    instance's own window was searched."""
    why = applicable(instance)
    if why is not None:
        raise UsageError(f"method 'rankbfs' cannot solve this instance: {why}")
    o = options
    workers = o.workers
    if workers is None:
        workers = 1 if o.resume is not None else os.cpu_count() or 1
    if o.cluster:
        from .mpi import comm_world

        comm_world()  # a clear usage error without mpi4py, before any search
        workers = CLUSTER
    spill_budget = o.spill_budget
    if spill_budget is None and limits.memory_limit is not None:
        spill_budget = limits.memory_limit // 2
    storage = Storage(spill_budget, o.resume)
    if o.kernels.keep_heap:
        keep_freed_memory()  # fewer page faults (search/rank/heap.py); forked workers inherit it
    growing = o.grow and instance.board.is_lattice and not instance.board.exact
    if o.resume is not None and growing:
        raise UsageError("--resume needs an exact window (here the search grows its window)")
    if o.upper_bound is not None and o.upper_bound < 0:
        raise UsageError(f"upper_bound must be a number of moves >= 0, not {o.upper_bound}")
    if o.perimeter is not None and o.perimeter < 0:
        raise UsageError(f"perimeter must be a radius >= 0, not {o.perimeter}")
    if growing and o.upper_bound is not None:  # h is a bound on the exact window only (span closed)
        raise UsageError(
            "--upper-bound prunes on an exact window only (the span of the start is finite); here the span "
            "is unbounded and the search grows its window: solve this instance without the bound"
        )
    h, U = pruning(instance, o, max_moves)
    if o.forced_supports and h != FORCED_SUPPORTS:
        raise UsageError(f"--forced-supports is --heuristic {FORCED_SUPPORTS}, not --heuristic {h}: give one of them")
    # the records of the h asked for (search/heuristics.py): what each needs is theirs to say
    for record in [heuristic(h)] + ([PERIMETER] if o.perimeter is not None else []):
        if instance.d < record.min_d:
            raise UsageError(f"{record.asked} needs adjacency d >= {record.min_d} ({record.admissible})")
        if record.needs_bound and U is None:
            raise UsageError(f"{record.asked} prunes with a bound: give --upper-bound or --max-moves")
        if growing and record.exact_window:
            raise UsageError(f"{record.asked} prunes on an exact window only; here the search grows its window")

    # the group before the budget is enforced (a few permutations; theory.reach polls the clock, and a
    # budget spent here is the search's to report, as a limit after its layers); a grown window's own
    sym = group(instance) if o.symmetry else None

    def forward(work: Instance, horizon, lim, budget, prune_, progress_) -> Outcome:
        bound = U if work.board.exact else None
        quotient = sym if work is instance else group(work) if o.symmetry else None
        kept = o.kept if work is instance else None
        return _forward(
            work, horizon, lim, budget, prune_, progress_, bound, workers, storage, h, o.perimeter, quotient, kept
        )

    if growing:
        cap = max_cells(instance.n_coins)
        with chosen(o.kernels):  # compiled or numpy, the workers' route (visited.chosen)
            return grown(
                instance, max_moves, limits, o.max_states, o.prune, o.progress, forward, "rankbfs", Engine.RANKBFS, cap
            )
    # one run per resume directory (R4-7); the kernels chosen for this search (visited.chosen)
    with enforced(limits), chosen(o.kernels), resume_lock(None if o.cluster else o.resume):
        out = forward(instance, max_moves, limits, o.max_states, o.prune, o.progress)
    return fixed_result(instance, out, max_moves, limits, o.prune, "rankbfs", Engine.RANKBFS)


def pruning(instance: Instance, o: RankbfsOptions, max_moves: int | None) -> tuple[str, int | None]:
    """(h, U): the h the search prunes with and its bound U (None: no pruning), what
    :func:`solve_rankbfs` runs with and the command's header names.

    --max-moves K with an h asked for (--heuristic, --forced-supports, --perimeter) is a bound
    too: a solution of <= K moves has depth + h <= K at every state (the docstring's soundness
    argument with U = K), so an exact window prunes with min(U, K).  Without one, --max-moves
    alone does not prune: an empty layer then proves "unsolvable", which a pruned one cannot."""
    h = o.heuristic or (FORCED_SUPPORTS if o.forced_supports else DEFAULT)
    growing = o.grow and instance.board.is_lattice and not instance.board.exact
    U = o.upper_bound
    asked = o.heuristic is not None or o.forced_supports or o.perimeter is not None
    if max_moves is not None and asked and not growing:
        U = max_moves if U is None else min(U, max_moves)
    return h, U


def _forward(
    instance: Instance,
    horizon: int | None,
    limits: Limits,
    max_states: int | None,
    prune: bool,
    progress,
    upper_bound: int | None,
    workers: int,
    storage: Storage = Storage(),
    h: str = DEFAULT,
    perimeter: int | None = None,
    symmetry: np.ndarray | None = None,
    kept: Kept | None = None,
) -> Outcome:
    """The layered search (``loop.run``) on the exchange ``workers`` asks for: one process
    (1), worker processes (> 1) or the ranks of the MPI job (CLUSTER; rank 0 alone reads,
    checks and writes ``storage.directory``, and tells the others); each saves in and resumes
    from ``storage.directory``.  ``layers`` of the outcome is the :class:`Visited` store (with
    a directory: the saved layers, read back from disk when asked for).  With a
    bound, ``perimeter`` R prunes with the perimeter h of the backward ball of radius R
    (``backward.py``, docs/perimeter-search.md; built here, before the workers fork).
    ``symmetry``: the window's symmetries fixing start and goal besides the identity
    (:func:`group`); the layers then hold one configuration per orbit.  ``kept``: an earlier
    bounded search's keep decisions (``space.Kept``, Lemma KR of docs/from-below.md), used with one
    worker when its h, instance and group are this search's (``stats["kept_before"]`` says whether,
    and how many states were kept on them without their h computed; the layers are the same)."""
    space = Space(instance, prune, upper_bound, h if upper_bound is not None else DEFAULT)
    stats: dict = {"pruning": prune, "upper_bound": upper_bound}
    space.symmetry = symmetry
    stats["symmetry"] = 1 if symmetry is None else len(symmetry) + 1
    if perimeter is not None and upper_bound is not None:
        try:
            ball = PERIMETER.function()(space, perimeter, limits)  # backward.Ball
        except KeyboardInterrupt:  # an answer as for a limit (unknown, the lower bound so far), as in the loop
            raise LimitReached("interrupted") from None
        space.perimeter = ball
        stats["ball"] = ball.size
    if kept is not None:
        why = "not with worker processes (one worker only)" if workers != 1 else kept.fits(space)
        reuse: dict = {"upper_bound": kept.upper_bound, "states": int(kept.ranks.size)}
        stats["kept_before"] = reuse
        if why is None:
            space.kept = kept
        else:
            reuse["ignored"] = why
    exchange: Exchange
    start = np.array([space.rank_of_cells(instance.start.cells)], dtype=U64)
    visited: Visited | None = None
    comm = None
    if workers == CLUSTER:  # rank 0 alone reads (and checks) and writes the saved layers
        from .mpi import comm_world, on_primary

        comm = comm_world()
        if storage.directory is not None:
            visited = on_primary(
                comm,
                lambda: _store(instance, prune, upper_bound, storage, stats, start, space.h_record, space.symmetry),
            )
            resumed = comm.bcast(stats.get("resumed"), root=0)
            if resumed is not None:
                stats.update(resumed=resumed, resumed_at=resumed["depth"])
    elif storage.directory is not None or workers == 1:  # read (and checked) before any worker forks
        visited = _store(instance, prune, upper_bound, storage, stats, start, space.h_record, space.symmetry)
    if workers == CLUSTER:
        from .mpi import Cluster

        exchange = Cluster(space, limits, storage, visited)
    elif workers > 1:
        from .processes import Pool

        h_, ball = space.h, space.perimeter
        exchange = Pool(
            instance,
            prune,
            upper_bound,
            workers,
            limits,
            storage,
            h=h_,
            perimeter=ball,
            saved=visited,
            symmetry=space.symmetry,
        )
    else:
        assert visited is not None
        exchange = Local(Part(space, visited), limits)
    if "resumed" not in stats:
        return _trusted(space, stats, run(space, exchange, horizon, limits, max_states, progress, stats))
    depth = stats["resumed"]["depth"]

    def frontier() -> str | None:  # the frontier must be what its layer gives (visited.py)
        assert visited is not None
        return _check_frontier(space, visited, visited.layer(depth), depth, upper_bound, limits, storage.directory)

    def check() -> str | None:
        if comm is None:
            reason = frontier()
        else:  # rank 0 checks; every rank gets its verdict
            reason = comm.bcast(on_primary(comm, frontier), root=0)
        if not reason:
            stats["resumed"]["checked"] = RESUME_CHECKED
        return reason

    out = run(space, exchange, horizon, limits, max_states, progress, stats, check, str(storage.directory))
    return _trusted(space, stats, out)


def _trusted(space: Space, stats: dict, out: Outcome) -> Outcome:
    """``out``, its statistics saying how many states were kept on an earlier search's decisions."""
    if space.kept is not None:
        stats["kept_before"]["trusted"] = space.trusted
    return out


def group(instance: Instance) -> np.ndarray | None:
    """The symmetries of the instance's window that fix the start and the goal, besides the
    identity, as cell permutations (g, n), or None when there is none: the group of
    ``theory.reach.symmetries`` (lattice windows with a fixed goal; docs/symmetry.md says why the
    start is fixed too)."""
    from ...theory.reach import symmetries

    perms = symmetries(instance, fix_start=True)
    return np.array(perms, dtype=np.int64).reshape(len(perms), instance.board.size) if perms else None


def fingerprint(instance: Instance, prune: bool) -> dict:
    """What identifies a search's layers (resume refuses layers of another search)."""
    import hashlib

    b = instance.board
    text = repr((b.coords, b.neighbour_masks, instance.d, instance.start.cells, instance.goal_configurations))
    digest = hashlib.sha256(text.encode()).hexdigest()
    return {"search": "rankbfs", "instance": digest, "pruning": prune, "codec": CODEC}


def _check_frontier(space, visited: Visited, front, depth: int, upper_bound, limits: Limits, where) -> str | None:
    """UsageError unless the resumed frontier (layer ``depth``) is exactly what layer depth - 1
    gives: its successors not in an earlier layer, pruned as the search prunes.  Returns the
    limit that stopped the check (None: checked)."""
    try:
        parts = []
        before = visited.layer(depth - 1)
        for i in range(0, before.size, CHUNK * 4):
            parts.append(space.expand(before[i : i + CHUNK * 4]))
            reason = limits.exceeded()
            if reason:
                return reason
        again = union(parts)
        again = again[~visited.contains(again) | np.isin(again, front, assume_unique=True)]
        if upper_bound is not None and again.size:
            again = again[depth + space.heuristic(again, depth) <= upper_bound]
    except LimitReached as e:
        return str(e)
    except KeyboardInterrupt:
        return "interrupted"
    if not np.array_equal(again, front):
        raise UsageError(f"{where}: saved layer {depth} is not the layer that layer {depth - 1} gives (edited)")
    return None


#: what a resumed search checked of the layers it continues from (its answer says it: ``stats["resumed"]``)
RESUME_CHECKED = (
    "sha256 and order of every saved layer file; the last layer re-derived from the one before it; "
    "the earlier ones not re-derived (--certify checks them all)"
)


def _store(
    instance: Instance,
    prune: bool,
    upper_bound: int | None,
    storage: Storage,
    stats: dict,
    start: np.ndarray,
    h_record=None,
    symmetry: np.ndarray | None = None,
) -> Visited:
    """A new visited set, or the one saved in ``storage.directory`` by the same search (from
    ``start``: its layer 0 must be it).  The saved search is the same one when its instance,
    span pruning, file format, bound U and h (``h_record``: ``"fill"``, ``"forced"`` or the
    perimeter's record, None without a bound) are all this run's (``Visited.resume``)."""
    if storage.directory is None:
        return Visited(upper_bound=upper_bound, budget=storage.budget)
    mark = dict(fingerprint(instance, prune), h=h_record if upper_bound is not None else None)
    # layers of one state per orbit are not a plain search's, nor the reverse (a manifest saved
    # before this field reads as None: a plain search's)
    mark["symmetry"] = None if symmetry is None else symmetry.tolist()
    old = Visited.resume(storage.directory, mark, upper_bound, storage.budget)
    if old is None:
        return Visited(upper_bound, storage.budget, storage.directory, mark)
    if not np.array_equal(old.layer(0), start):
        raise UsageError(f"{storage.directory}: saved layer 0 is not the start of this search (damaged)")
    stats["layers"] = [old.layer_size(i) for i in range(old.depths)]
    stats["resumed_at"] = old.depths - 1
    stats["resumed"] = {
        "directory": str(storage.directory),
        "depth": old.depths - 1,
        "checked": "sha256 and order of every saved layer file",
    }
    return old
