"""The default's plan (``coinsat solve FILE``, method ``auto``): which engine, which h, which bound.

Every choice the default makes is made here, in one table (the constants below, each with the
benchmark that measured it) and two functions: :func:`choose` (the engine, and whether it looks for
its own bound) and :func:`heuristic_for` (the h a bounded search prunes with).  ``coinsat.solve``
carries the plan out (it can call the constructive algorithms, which this floor cannot) and the
command prints it before the search starts; ``--json`` has it as ``"plan"`` (:meth:`Plan.to_json`).

**The bound** (``BOUND_*``).  On the puzzles where the ranked search is the engine (exact window,
the goal spans it, more than ``AUTO_RANK_CONFIGURATIONS`` placements, or more than
``FLIP_RANK_CONFIGURATIONS`` where the fill h is weak at the start), a verified solution of
length U prunes every state with depth + h > U (``search/rank/search.py``, bound-and-prune: sound for
any U, and with U the length of a solution the search meets the goal at the optimum, so the answer
is ``optimal`` as without the bound).  The default finds U itself: the paper's constructive
algorithm (``construct``: milliseconds, but 2-4x the optimum), then a pass of ``improve`` (its
local stretches on radius-1 boards, no whole-window search: the search that follows is that
search) that stops once it has gone ``stall`` CPU seconds without a shorter solution or spent
``cpu_limit`` (:func:`bound_pass`: ``BOUND_IMPROVE``, or ``BOUND_IMPROVE_BRIEF`` where the bound hardly matters).
Why a pass that pays for itself: the search's cost grows with U - optimum (V(3,3)->NW-SE, fill h:
8.9 CPU s at U = 53, the optimum, 30.0 at U = 63, 36.5 at U = 75, near the unpruned search), and
the pass took V(3,3)->NW-SE from 206 moves to the optimum in 6 CPU s.  An iterated bound from below
(the climb of ``improve``: bounded searches with U rising from the lower bound, each step aimed at
twice the states) was measured too, on diagonal-6: 4.4 CPU s over 11 searches, against 1.2 for the
improve pass (103 moves to the optimum 49) and about 1.0 for one search with that bound.

**The h** (:func:`heuristic_for`).  The LM-cut h keeps far fewer states than the fill h where the
relaxed game is a good guide (the V family: 0.075, 0.050, 0.036, 0.021 of the fill h's states from
V(2,2) to V(4,3), ``benchmarks/lm-cut-search.md``, ``benchmarks/lm-cut-proofs.md``; the pinwheels
0.047-0.067) and not on the diagonal flips (0.61 and 0.52, ``benchmarks/lm-cut-families.md``), where
each of its states costs several times a fill state: so the fill h wherever the fill h is weak at
the start (:func:`fill_weak`, the flips).  Elsewhere what decides is the bound: LM-cut's states grow
faster with U - optimum than the fill h's (V(3,3)->NW-SE, 1.34x per move of U against 1.15x), and
with the memo of pruned states (issue 41; ``search/rank/lmcut.py``, Lemma PM) it cost 0.51-0.92 of
the fill h's CPU at the optimum.  Measured in one process each, ``solve(..., "rankbfs",
upper_bound=U, heuristic=h, workers=1)``, nice 10 on a loaded 2-core machine, CPU s fill / LM-cut:
V(3,3)->NW-SE (optimum 53, h_lm(start) = 32) U = 53: 8.98 / 4.56, U = 55: 12.26 / 7.63, U = 57:
16.81 / 13.09 (LM-cut's share rising with U); V(3,2)->NW-SE (49 cells) U = 53: 4.32 / 3.19;
pinwheel-5-swne (49 cells) U = 41: 0.66 / 0.61.  The rule: the LM-cut h on windows of at least ``LMCUT_MIN_CELLS`` cells
where the fill h is not weak and U <= ``LMCUT_MAX_BOUND_RATIO`` x h_lm(start) (the optimum is
1.64-1.74 x h_lm(start) on the V members, 2.03-2.07 on the pinwheels but pinwheel-5-swne's 1.71),
the fill h otherwise.

**The bound from below** (:func:`from_below`, :func:`below`).  Where that rule takes the LM-cut h
at the optimum (windows of at least ``LMCUT_MIN_CELLS`` cells where the fill h is not weak at the
start) and on the family the first U was fitted on (the V members, from V(3,2)), the default does
not shorten a construction into U: it starts the bounded LM-cut search at U = ceil(
``FROM_BELOW_RATIO`` x h_lm(start)) and, while a search answers "no solution within U", searches
again with U = the least depth + h among the states it pruned (Lemma LF of docs/from-below.md: no
solution is shorter than that), or U + ``FROM_BELOW_STEP`` when that is more.  The first search
that meets the goal meets it at the optimum (bound-and-prune keeps every path of length <= U), so
the answer is the last search's own.  Every U it tries after the first is at most the optimum + 1
(``FROM_BELOW_STEP`` - 1), where LM-cut pays most (the table above).  A verified solution (the
best construction and the brief improve pass, ``BOUND_IMPROVE_BRIEF``: a fraction of a CPU second)
caps U: a U it would pass is replaced by its length.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, replace
from fractions import Fraction
from math import ceil, comb
from typing import TYPE_CHECKING

from ..board import BoardKind, span_coords
from ..instance import Instance
from ..theory.reach import configuration_count
from .methods import inapplicable
from .options import AutoOptions, BfsOptions, RankbfsOptions, SpanbfsOptions

if TYPE_CHECKING:
    from .improve import ImproveOptions

# --- the table -----------------------------------------------------------------------------------

#: BFS on exact windows with at most this many configurations, SAT elsewhere.  Measured
#: (`scripts/sat_options.py --sections crossover`, benchmarks/sat_crossover.md): BFS and SAT tie near
#: 5e5 configurations (V(2,1), 24 moves), BFS wins below, SAT wins 6.7x at 3e7 (V(2,2)).
AUTO_BFS_CONFIGURATIONS = 500_000
#: rankbfs instead of spanbfs on windows with more configurations C(n, k) than this
#: (benchmarks/engine-choice.md: spanbfs wins on V(2,2), 3.0e7; rankbfs on V(3,2), 2.0e9)
AUTO_RANK_CONFIGURATIONS = 100_000_000
#: ... and on windows with more than this many where the fill h is weak at the start (the flips,
#: ``FILL_WEAK_RATIO``), rankbfs with a bound of its own instead of spanbfs: on diagonal-6 (3.0e7)
#: 2.64 CPU s against spanbfs's 3.92 (benchmarks/default-solve.md); on vee-2-2 (3.0e7, not a flip)
#: the bounded path took 1.57-1.68 CPU s, spanbfs 0.71, so spanbfs stays there
FLIP_RANK_CONFIGURATIONS = 10_000_000
#: the improve pass that turns the construction into the bound U (module docstring): radius-1 local
#: boards, stretches up to 48 moves, repeated while they shorten the solution, no whole-window search,
#: and it stops after ``stall`` CPU seconds without a shorter solution, or ``cpu_limit`` in all (a
#: guard for the puzzles where it keeps gaining slowly: V(3,3)->SW-NE, construct 591 moves, went to
#: 205 in 540 s of ``improve``'s local passes, benchmarks/improve.md, a bound that prunes little).
#: Measured on V(3,3)->NW-SE (construct 206 moves): 73 after 0.14 CPU s (shortcuts), 63 after 1.5,
#: 59 after 3.3, 56 after 4.7, the optimum 53 after 7.95, then 9 CPU s more without a gain; the
#: longest wait between two gains was 3.2 CPU s.  A bounded search costs more the further U is
#: above the optimum: 8.9 CPU s at U = 53, 30.0 at U = 63 (fill h; the LM-cut h 7.4 and 81.8):
#: benchmarks/default-solve.md.
#: (``improve.ImproveOptions`` fields; the module is imported when a bound is looked for)
BOUND_IMPROVE: dict = {
    "lengths": (3, 4, 6, 8, 12, 16, 24, 32, 48),
    "radii": (1,),
    "climb": False,
    "probe_share": 0.0,
    "final_time": 0.0,
    "local_share": 1.0,
    "stall": 4.0,
    "cpu_limit": 20.0,
}
#: ... and the pass where the bound hardly matters: where the fill h is weak at the start (the
#: LM-cut h of the start over ``FILL_WEAK_RATIO`` times the fill h's, :func:`start_h`), a bounded
#: search with the fill h keeps about as many states with a loose U as with the optimum (diagonal-6:
#: 768,098 states at U = 103, the construction's length, 748,866 at U = 55, 624,090 at the optimum
#: 49), so the pass gets a third of a CPU second: the shortcuts and exchanges (0.15 s: 103 -> 70 on
#: diagonal-6) and little more.  With half a second without a gain as its end instead, the pass took
#: diagonal-6 to 54 in 2.3 CPU s and the default cost 1.05x today's (benchmarks/default-solve.md)
BOUND_IMPROVE_BRIEF: dict = {**BOUND_IMPROVE, "cpu_limit": 0.3}
#: a local board of the pass has at most this share of the window's cells: its last stretch, the
#: whole solution, is otherwise the puzzle itself searched with U = length - 1 (the search that
#: follows the pass, done first with a worse bound: on diagonal-6 the brief pass spent 1.7 of its
#: 1.8 CPU s there).  Measured: V(3,3)->NW-SE reached the optimum 53 after 6.0 CPU s with 0.75
#: (7.95 without the cap), and stopped at 64 with 0.5; diagonal-6's brief pass ends at 70 in 0.31 s
BOUND_LOCAL_SHARE = 0.75
#: the fill h is weak at the start when h_lm(start) > this x h_fill(start): the diagonal flips have
#: 3.4-5.5 (k = 5..9), the V members 1.47-1.53 and the pinwheels 1.48-1.61 (measured by
#: ``start_h`` on instances/families)
FILL_WEAK_RATIO = 2.5
#: the LM-cut h only on windows of at least this many cells (module docstring: it won at the optimum
#: on the 49-cell V(3,2)->NW-SE and pinwheel-5-swne with the memo; the smaller windows were not measured)
LMCUT_MIN_CELLS = 49
#: ... and only with U <= this x h_lm(start): a bound further above the optimum costs LM-cut more
#: than the fill h (module docstring; V(3,3)->NW-SE: U = 53, 55 and 57, 1.66, 1.72 and 1.78 x
#: h_lm(start), LM-cut 0.51x, 0.62x and 0.78x the fill h's CPU; U = 63, 1.97x, before the memo: 81.8
#: CPU s against 30.0)
LMCUT_MAX_BOUND_RATIO = 1.8
#: the bound from below starts at U = ceil(this x h_lm(start)) (module docstring): the least
#: optimum / h_lm(start) over the V members the plan searches from below, rounded down (V(3,2)
#: 53/32 = 1.656 and 36/22 = 1.636, V(3,3) 53/32 and 73/42 = 1.738, V(4,3) 95/55 = 1.727 and
#: 73/42, V(4,4)->NW-SE 95/55: the proven optima of instances/families/README.md, h_lm by
#: ``start_h``; the smaller V members have 1.60-1.64).  A fit, not a theorem: a start above the
#: optimum costs more states, one below costs a search more; the answer is exact either way
FROM_BELOW_RATIO = 1.63
#: ... and after a search that finds none within U, the next U is U + this, or the least depth + h
#: it pruned when that is more (Lemma LF; it was U + 1 in every search measured).  Measured on
#: V(3,3)->SW-NE (benchmarks/default-solve.md, LM-cut, in-process CPU s): the searches at U = 69 ..
#: 73 took 18.1, 22.7, 28.7, 35.6 and 45.0 (the last meets the goal), about 1.25x a move of U; past
#: the optimum a move costs about as much (V(3,3)->NW-SE: 4.56, 7.63, 13.09 at U = 53, 55, 57).  So
#: from a first U k moves under the optimum, steps of one cost 1 + 0.8 + ... + 0.8^k searches at the
#: optimum (3.4 at k = 4, 3.7 at k = 5, where V(3,3)->SW-NE, V(4,3) and V(4,4) start), steps of two
#: about 2.0 and 2.9 (an overshoot of one move at worst); at k = 1 steps of one are cheaper (1.8
#: against 2.1).  The answer is exact with any step (docs/from-below.md, Theorem CL)
FROM_BELOW_STEP = 2


# --- the plan ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Plan:
    """What the default runs: the ``engine``; for a bounded ranked search the ``heuristic`` it
    prunes with and its ``upper_bound`` U (the length of a verified solution), ``bound_from`` how
    U was found; ``reason`` the row of the table that chose them; ``wants_bound``: the engine should
    get a bound (before :func:`with_bound` fills it in)."""

    engine: str
    reason: str
    heuristic: str | None = None
    upper_bound: int | None = None
    bound_from: str | None = None
    wants_bound: bool = False
    #: how U is found: "improve" (a solution shortened), "from below" (:func:`below`: U is the
    #: first bound tried, raised while the search finds none), "--max-moves"; None: no bound
    strategy: str | None = None
    #: with "from below": the length of the verified solution that caps U (None: none found)
    cap: int | None = None
    #: with "from below", once run: each search's U, answer, least pruned f, states, CPU seconds
    #: (``solve.climb``; in the JSON ``"searches"``, beside the fields of :meth:`to_json`)
    searches: tuple = ()

    @classmethod
    def from_json(cls, obj: dict) -> "Plan":
        """The plan a ``"plan"`` object of ``solve --json`` describes (:meth:`to_json`, ``"searches"``)."""
        return cls(
            engine=obj["engine"],
            reason=obj["reason"],
            heuristic=obj.get("heuristic"),
            upper_bound=obj.get("upper_bound"),
            bound_from=obj.get("bound_from"),
            strategy=obj.get("bound_strategy"),
            cap=obj.get("cap"),
            searches=tuple(obj.get("searches") or ()),
        )

    def to_json(self) -> dict:
        """The ``"plan"`` object of ``solve --json``."""
        return {
            "engine": self.engine,
            "heuristic": self.heuristic,
            "upper_bound": self.upper_bound,
            "bound_strategy": self.strategy,
            "cap": self.cap,
            "bound_from": self.bound_from,
            "reason": self.reason,
        }

    def describe(self) -> str:
        """One line for people."""
        text = f"plan: {self.engine}"
        if self.strategy == "from below":
            text += f", h = {self.heuristic}, the bound from below, first U = {self.upper_bound} ({self.bound_from})"
        elif self.upper_bound is not None:
            text += f", h = {self.heuristic}, upper bound {self.upper_bound} ({self.bound_from})"
        text = f"{text}; {self.reason}"
        if self.searches:
            ran = [f"U = {s['upper_bound']}: {s['status']}" for s in self.searches]
            text += f"; searches: {', '.join(ran)}"
        return text

    def options(self, auto: AutoOptions) -> object:
        """The engine's options under this plan."""
        if self.engine == "rankbfs":
            return RankbfsOptions(
                workers=idle_cores(), progress=auto.progress, upper_bound=self.upper_bound, heuristic=self.heuristic
            )
        if self.engine == "spanbfs":
            return SpanbfsOptions(progress=auto.progress)
        if self.engine == "bfs":
            return BfsOptions()
        return auto.sat()


def choose(instance: Instance) -> Plan:
    """The engine measured fastest for the instance (benchmarks/engine-choice.md), and whether it
    looks for its own bound:

    * ``rankbfs`` when the window is exact, the goal spans the whole window and the window holds
      more than ``AUTO_RANK_CONFIGURATIONS`` configurations (the V and flip families from V(3,2) and
      diagonal-7 on, and every such window past spanbfs's 64 cells), in as many processes as there
      are idle cores (:func:`idle_cores`), bounded by a solution it builds (``wants_bound``: the
      caller constructs and improves one, then :func:`with_bound`); also from
      ``FLIP_RANK_CONFIGURATIONS`` on where the fill h is weak at the start (:func:`fill_weak`);
    * ``spanbfs`` on the smaller such windows (its pruning keeps only the configurations that span
      the window, and it starts faster than rankbfs);
    * BFS when the window is exact and holds few configurations (BFS then also decides unsolvable
      instances by exhaustion), and for the move models other than jumps;
    * SAT otherwise — including inexact windows (triangular grid), where the SAT driver widens the
      window and proves optimality globally while the explicit engines answer for the window only.
    """
    if instance.moves != "jump":  # the engines that decide other move models: search.methods.ENGINES
        return Plan("bfs", f"moves = {instance.moves}: BFS decides it")
    spans = instance.board.exact and _goal_spans_window(instance)
    many = _configurations(instance)
    if spans and inapplicable("rankbfs", instance) is None and many > AUTO_RANK_CONFIGURATIONS:
        why = f"exact window, {many:.1e} placements > {AUTO_RANK_CONFIGURATIONS:.0e}"
        return Plan("rankbfs", why, wants_bound=True)
    if spans and inapplicable("rankbfs", instance) is None and many > FLIP_RANK_CONFIGURATIONS and fill_weak(instance):
        why = f"exact window, {many:.1e} placements > {FLIP_RANK_CONFIGURATIONS:.0e} and the fill h weak at the start"
        return Plan("rankbfs", why, wants_bound=True)
    if spans and inapplicable("spanbfs", instance) is None:
        return Plan("spanbfs", f"exact window the goal spans, {many:.1e} placements")
    if instance.board.exact and configuration_count(instance) <= AUTO_BFS_CONFIGURATIONS:
        return Plan("bfs", f"exact window, <= {AUTO_BFS_CONFIGURATIONS:,} configurations")
    return Plan("sat", "a window BFS cannot exhaust (or an inexact one)")


def with_bound(plan: Plan, instance: Instance, bound: int | None, found: str) -> Plan:
    """The plan once the caller has looked for a bound: ``bound`` U (None: none found, the search
    runs unbounded, as before the plan), ``found`` how (or why not); the h by :func:`heuristic_for`."""
    if bound is None:
        return replace(plan, wants_bound=False, reason=f"{plan.reason}; no bound ({found})")
    h, why = heuristic_for(instance, bound)
    reason = f"{plan.reason}; {why}"
    strategy = "--max-moves" if found == "--max-moves" else "improve"
    return replace(
        plan, wants_bound=False, upper_bound=bound, heuristic=h, bound_from=found, reason=reason, strategy=strategy
    )


def from_below(instance: Instance, v_member: bool) -> bool:
    """The default finds its bound from below (module docstring): a window of at least
    ``LMCUT_MIN_CELLS`` cells where the fill h is not weak at the start (the LM-cut h's puzzles), of
    the V family (``v_member``: the V-to-diagonal schedule recognises it; the caller asks, this
    floor cannot), the family ``FROM_BELOW_RATIO`` was measured on.  Elsewhere the first U is not
    known to be near the optimum: the pinwheels have optimum / h_lm(start) 2.03-2.07 (63/31, 93/45;
    pinwheel-5-swne 41/24 = 1.71), so they would start 12-19 moves under it; they keep the improve
    pass (not measured from below)."""
    return v_member and instance.board.size >= LMCUT_MIN_CELLS and not fill_weak(instance)


def first_bound(instance: Instance, cap: int | None) -> int:
    """The first U of the bound from below: ceil(``FROM_BELOW_RATIO`` x h_lm(start)), at least
    h_lm(start) (Theorem LM: no solution is shorter) and at most ``cap``."""
    lm = start_h(instance)[1]
    first = max(lm, ceil(Fraction(str(FROM_BELOW_RATIO)) * lm))  # exact: the constant as written
    return first if cap is None else min(first, cap)


def below(plan: Plan, instance: Instance, cap: int | None, found: str) -> Plan:
    """The plan of the bound from below (module docstring): the ranked search with the LM-cut h,
    U = :func:`first_bound`,
    capped by ``cap`` (the length of a verified solution, ``found`` says how it was made; None:
    none)."""
    fill, lm = start_h(instance)
    U = first_bound(instance, cap)
    how = f"ceil({FROM_BELOW_RATIO} x h_lm(start) = {lm})"
    how += f", capped by {cap} ({found})" if cap is not None else f" (no cap: {found})"
    why = f"h = lmcut (the bound from below: {instance.board.size} cells, h_lm/h_fill at the start {lm}/{fill})"
    return replace(
        plan,
        engine="rankbfs",
        wants_bound=False,
        upper_bound=U,
        heuristic="lmcut",
        bound_from=how,
        reason=f"{plan.reason}; {why}",
        strategy="from below",
        cap=cap,
    )


def bound_pass(instance: Instance, brief: bool = False) -> tuple[ImproveOptions, str]:
    """The improve pass that makes the bound, and why: ``BOUND_IMPROVE_BRIEF`` where the fill h is
    weak at the start (h_lm(start) > ``FILL_WEAK_RATIO`` x h_fill(start): the flips) or ``brief``
    (the cap of the bound from below), else ``BOUND_IMPROVE``; local boards of at most
    ``BOUND_LOCAL_SHARE`` of the window."""
    from .improve import ImproveOptions  # noqa: F811 (the TYPE_CHECKING name, imported when used)

    fill, lm = start_h(instance)
    cells = int(BOUND_LOCAL_SHARE * instance.board.size)
    if brief:
        return ImproveOptions(**BOUND_IMPROVE_BRIEF, max_local_cells=cells), "a brief improve (the cap)"
    if fill_weak(instance):
        short = ImproveOptions(**BOUND_IMPROVE_BRIEF, max_local_cells=cells)
        return short, f"a brief improve (h_lm/h_fill at the start {lm}/{fill} > {FILL_WEAK_RATIO})"
    full = ImproveOptions(**BOUND_IMPROVE, max_local_cells=cells)
    return full, f"improve (h_lm/h_fill at the start {lm}/{fill} <= {FILL_WEAK_RATIO})"


def fill_weak(instance: Instance) -> bool:
    """The fill h is weak at the start: h_lm(start) > ``FILL_WEAK_RATIO`` x h_fill(start) (the flips)."""
    fill, lm = start_h(instance)
    return lm > FILL_WEAK_RATIO * max(fill, 1)


def heuristic_for(instance: Instance, bound: int) -> tuple[str, str]:
    """The h a bounded ranked search prunes with, and why (module docstring: the LM-cut h on
    windows of at least ``LMCUT_MIN_CELLS`` cells where the fill h is not weak at the start and the
    bound U is at most ``LMCUT_MAX_BOUND_RATIO`` x h_lm(start); the fill h otherwise)."""
    cells = instance.board.size
    if cells < LMCUT_MIN_CELLS:
        return "fill", f"h = fill ({cells} cells < {LMCUT_MIN_CELLS}: LM-cut not measured to pay there)"
    fill, lm = start_h(instance)
    if lm > FILL_WEAK_RATIO * max(fill, 1):
        return "fill", f"h = fill (h_lm/h_fill at the start {lm}/{fill} > {FILL_WEAK_RATIO}: a flip-like puzzle)"
    if bound > LMCUT_MAX_BOUND_RATIO * lm:
        return "fill", f"h = fill (U = {bound} > {LMCUT_MAX_BOUND_RATIO} x h_lm(start) = {lm}: a loose bound)"
    return "lmcut", f"h = lmcut ({cells} cells, U = {bound} <= {LMCUT_MAX_BOUND_RATIO} x h_lm(start) = {lm})"


def start_h(instance: Instance) -> tuple[int, int]:
    """(h_fill, h_lm) of the start: the ranked search's fill and LM-cut h's (``theory/relaxed.py``,
    the reference the compiled kernels are tested against), each the least over the goal placements."""
    from ..theory.relaxed import h_lm  # numpy and more: only when a bound is looked for
    from ..theory.supports import BIG, h_fill_one

    board, d = instance.board, instance.d
    start = sum(1 << c for c, _ in instance.start.coins)
    goals = [sum(1 << c for c, _ in g.coins) for g in instance.goal_configurations]
    key = (tuple(board.neighbour_masks), d, start, tuple(goals))
    if key not in _START_H:  # asked up to three times a plan (0.1 CPU s each on the V(3,3) window)
        fill = min((h_fill_one(board.neighbour_masks, d, start, g) for g in goals), default=BIG)
        _START_H.clear()
        _START_H[key] = (fill, h_lm(board, d, start, goals))
    return _START_H[key]


#: the last ``start_h``: its puzzle (neighbours, d, start, goals) and its answer
_START_H: dict[tuple, tuple[int, int]] = {}


def idle_cores() -> int:
    """The cores not busy over the last minute (the load average), at least one: a search on
    a shared machine gains nothing from a process that has no core to run on."""
    cores = os.cpu_count() or 1
    try:
        load = os.getloadavg()[0]
    except OSError:  # no load average on this platform
        return 1
    return max(1, min(cores, int(cores - load + 0.5)))


def _configurations(instance: Instance) -> int:
    """C(n, k): the placements of the coins in the window, colours ignored."""
    return comb(instance.board.size, instance.n_coins)


def _goal_spans_window(instance: Instance) -> bool:
    """Every goal placement spans the whole window (the spanbfs pruning is then strongest)."""
    board = instance.board
    if board.kind is BoardKind.GRAPH:
        return False
    coords = board.lattice_coords
    region = frozenset(coords)
    for g in instance.goal_configurations:
        cells = [coords[c] for c, _ in g.coins]
        if len(span_coords(board.kind, cells, instance.d, region)) < board.size:
            return False
    return True
