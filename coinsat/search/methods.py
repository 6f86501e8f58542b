"""The registry of solving methods: one :class:`EngineSpec` record per engine.

Every engine is ``solve_<name>(instance, *, limits, max_moves, options) -> Result``
(``search/options.py``), its body decorated by :func:`contract`, which fills in the defaults (a
fresh ``Limits()``, the options dataclass's defaults) once for every engine. A record names the
engine's target (``"module:function"``, imported on first use, so a missing optional dependency
breaks only its own method), its options dataclass, the move models and board kinds it decides,
whether its answers are exact (optimal, or a proof) and, when it has one, the function that says
why it cannot run on an instance, and the line of ``--help`` that helps choose it: what it
proves, when it pays, what it needs. The CLI builds ``--method``, its help and the engines'
flags from :data:`ENGINES`; ``coinsat.solve`` builds the options from it. ``auto`` is the front
door's chooser (``coinsat.solve.solve_auto``), registered here so that it is a method like the
others.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Callable, Protocol, TypeVar

from ..board import BoardKind
from ..errors import UsageError
from ..instance import Instance
from ..limits import Limits
from ..registry import load, unknown
from ..result import Result
from .options import (
    AutoOptions,
    BfsOptions,
    IlpOptions,
    KindOptions,
    PdrOptions,
    RankbfsOptions,
    SatOptions,
    SlidesatOptions,
    SpanbfsOptions,
    options_of,
)

O = TypeVar("O")
O_contra = TypeVar("O_contra", contravariant=True)


class EngineBody(Protocol[O_contra]):
    """What an engine's body receives: the limits and the options always given."""

    def __call__(self, instance: Instance, *, limits: Limits, max_moves: int | None, options: O_contra) -> Result: ...


class EngineFunction(Protocol[O_contra]):
    """The engine contract as callers see it: every argument but the instance optional."""

    def __call__(
        self,
        instance: Instance,
        *,
        limits: Limits | None = None,
        max_moves: int | None = None,
        options: O_contra | None = None,
    ) -> Result: ...


def contract(default: Callable[[], O]) -> Callable[[EngineBody[O]], EngineFunction[O]]:
    """Decorate an engine's body with the defaults of the contract: ``limits`` None becomes a
    fresh ``Limits()`` (no limit, the clock started now) and ``options`` None becomes
    ``default()`` (the options dataclass), so the body's parameters are never None."""

    def wrap(body: EngineBody[O]) -> EngineFunction[O]:
        @functools.wraps(body)
        def engine(
            instance: Instance,
            *,
            limits: Limits | None = None,
            max_moves: int | None = None,
            options: O | None = None,
        ) -> Result:
            chosen = default() if options is None else options
            return body(instance, limits=limits or Limits(), max_moves=max_moves, options=chosen)

        return engine

    return wrap


@dataclass(frozen=True)
class EngineSpec:
    """One engine: ``target`` ``"module:function"``; ``options`` its dataclass; ``moves`` the
    move models (``rules.MOVE_MODELS``) and ``boards`` the board kinds it decides (None: every board); ``exact``
    whether its answers are proofs (optimal, bounded, unsolvable) rather than solutions
    only; ``limit`` ``"module:function"`` saying why it cannot run on an instance (None:
    it can), or None when it runs on every instance of its models and boards;
    ``proves``, ``pays`` and ``needs`` its line of ``--help`` (:meth:`summary`)."""

    name: str
    target: str
    options: type
    moves: tuple[str, ...] = ("jump",)
    boards: tuple[BoardKind, ...] | None = None
    exact: bool = True
    limit: str | None = None
    #: what an answer of the engine proves
    proves: str = ""
    #: when it is the engine to choose
    pays: str = ""
    #: what it needs beyond the user install (``pip install .``)
    needs: str = "nothing"

    def summary(self) -> str:
        """The engine's line of ``coinsat solve --help``."""
        return f"{self.name}: proves {self.proves}; pays {self.pays}; needs {self.needs}"

    def function(self) -> Callable[..., Result]:
        return load({self.name: self.target}, self.name, "method")

    def inapplicable(self, instance: Instance) -> str | None:
        """Why this engine cannot solve ``instance`` (None if it can)."""
        if instance.moves not in self.moves:
            return f"it does not decide moves = {instance.moves!r}"
        if self.boards is not None and instance.board.kind not in self.boards:
            return f"it does not run on {instance.board.kind.value} boards"
        if self.limit is None:
            return None
        return load({self.name: self.limit}, self.name, "method limit")(instance)

    def make_options(self, given: dict) -> object:
        """The options dataclass from keyword values (UsageError on a name it lacks)."""
        return options_of(self.options, self.name, given)


#: what ``pdr`` and ``kind`` need (``backends/abc.py`` runs ABC as a separate process)
ABC = "ABC (apt-get install berkeley-abc)"

ENGINES: dict[str, EngineSpec] = {
    spec.name: spec
    for spec in (
        EngineSpec(
            "auto",
            "coinsat.solve:solve_auto",
            AutoOptions,
            moves=("jump", "slide"),
            proves="what the engine it picks proves, after the screens",
            pays="as the first try: it picks rankbfs (large windows the goal spans), spanbfs (smaller ones), bfs (few "
            "configurations, slide moves) or sat (the rest)",
        ),
        EngineSpec(
            "bfs",
            "coinsat.search.bfs:solve_bfs",
            BfsOptions,
            moves=("jump", "slide"),
            proves="optimal or unsolvable in the window, visiting every configuration (any board, labels)",
            pays="on small state spaces",
        ),
        EngineSpec(
            "spanbfs",
            "coinsat.search.spanbfs:solve_spanbfs",
            SpanbfsOptions,
            limit="coinsat.search.spanbfs:applicable",
            proves="optimal or unsolvable in the window, span-pruned (unlabeled, <= 64 cells)",
            pays="when the goal spans its window (diagonals, the V family)",
        ),
        EngineSpec(
            "rankbfs",
            "coinsat.search.rank.search:solve_rankbfs",
            RankbfsOptions,
            limit="coinsat.search.rank.space:applicable",
            proves="what spanbfs proves, on <= 256 cells; bound-and-prune with --upper-bound or --heuristic",
            pays="on large windows the goal spans (V(3,2), diagonal-7 and up)",
            needs="nothing (the fast extra compiles it; --cluster needs the cluster extra)",
        ),
        EngineSpec(
            "sat",
            "coinsat.search.driver:solve_sat",
            SatOptions,
            proves="optimal by horizons (each shorter one UNSAT), globally on triangular grids too",
            pays="on short solutions in large windows",
        ),
        EngineSpec(
            "ilp",
            "coinsat.search.ilp:solve_ilp",
            IlpOptions,
            proves="what sat proves, with its model as a 0-1 program (PuLP, HiGHS)",
            pays="as a cross-check (slower than sat on long puzzles)",
            needs="the ilp extra (pip install 'coinsat[ilp]')",
        ),
        EngineSpec(
            "slidesat",
            "coinsat.search.slidesat:solve_slidesat",
            SlidesatOptions,
            moves=("slide",),  # every slide puzzle lies on a lattice with slides (instance.py)
            proves="optimal by horizons, for moves = 'slide' (square and triangular grids)",
            pays="on slide puzzles too large for bfs",
        ),
        EngineSpec(  # encodings/aiger.md
            "pdr",
            "coinsat.search.pdr:solve_pdr",
            PdrOptions,
            proves="unsolvable at every horizon (ABC's IC3/PDR), with an inductive certificate",
            pays="for an unbounded proof that enumerates no configuration (bfs was faster on instances/)",
            needs=ABC,
        ),
        EngineSpec(
            "kind",
            "coinsat.search.pdr:solve_kind",
            KindOptions,
            proves="unsolvable at every horizon (ABC's k-induction), or the shortest solution in the window",
            pays="rarely (pdr proved more, faster; kind has no certificate of its own)",
            needs=ABC,
        ),
    )
}

#: the method names (the CLI's ``--method`` choices)
METHODS = tuple(ENGINES)


def spec(name: str) -> EngineSpec:
    """The :class:`EngineSpec` of method ``name`` (UsageError naming the known ones for another name)."""
    try:
        return ENGINES[name]
    except KeyError:
        raise UsageError(unknown("method", name, ENGINES)) from None


def get_method(name: str) -> Callable[..., Result]:
    """The engine function of ``name``, refusing (exit 2) an instance whose move model it does
    not decide rather than answer for the wrong rules."""
    record = spec(name)
    engine = record.function()

    def guarded(instance: Instance, **kwargs) -> Result:
        if instance.moves not in record.moves:
            deciders = [m for m, s in ENGINES.items() if instance.moves in s.moves]
            raise UsageError(
                f"method {name!r} does not decide moves = {instance.moves!r} (methods that do: {', '.join(deciders)})"
            )
        return engine(instance, **kwargs)

    return guarded


def inapplicable(name: str, instance: Instance) -> str | None:
    """Why method ``name`` cannot solve ``instance`` (None if it can)."""
    return spec(name).inapplicable(instance)


def run(
    name: str, instance: Instance, *, limits: Limits | None = None, max_moves: int | None = None, **options
) -> Result:
    """Run one engine alone (no screens), its options given as keywords.

    :func:`coinsat.solve` with ``screens=False`` does the same inside the budget of the whole
    call; this is the registry's own door, for code that holds an :class:`EngineSpec`.

    Parameters
    ----------
    name : str
        A method of :data:`ENGINES`.
    instance : Instance
        The puzzle.
    limits : Limits, optional
        The engine's time and memory budget.
    max_moves : int, optional
        Look for solutions of at most this many moves.
    **options
        Fields of ``spec(name).options`` (``coinsat.search.options``).

    Returns
    -------
    Result
        The engine's answer (every solution replayed by the move validator).

    Raises
    ------
    UsageError
        For an unknown method or option, or a move model the engine does not decide.
    MissingDependency
        When the engine's extra is not installed.
    """
    record = spec(name)
    return get_method(name)(instance, limits=limits, max_moves=max_moves, options=record.make_options(options))
