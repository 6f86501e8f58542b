"""The registry of solving methods: one :class:`EngineSpec` record per engine.

Every engine is ``solve_<name>(instance, *, limits, max_moves, options) -> Result``
(``search/options.py``).  A record names the engine's target (``"module:function"``,
imported on first use, so a missing optional dependency breaks only its own method), its
options dataclass, the move models and board kinds it decides, whether its answers are
exact (optimal, or a proof) and, when it has one, the function that says why it cannot
run on an instance.  The CLI builds ``--method`` and the engines' flags from
:data:`ENGINES`; ``coinsat.solve`` builds the options from it.  ``auto`` is the front
door's chooser (``coinsat.solve.solve_auto``), registered here so that it is a method
like the others.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from ..board import BoardKind
from ..errors import UsageError
from ..instance import Instance
from ..limits import Limits
from ..registry import load
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

ALL_BOARDS = tuple(BoardKind)
LATTICES = (BoardKind.SQUARE, BoardKind.TRIANGULAR)


@dataclass(frozen=True)
class EngineSpec:
    """One engine: ``target`` ``"module:function"``; ``options`` its dataclass; ``moves`` the
    move models (``rules.MOVE_MODELS``) and ``boards`` the board kinds it decides; ``exact``
    whether its answers are proofs (optimal, bounded, unsolvable) rather than solutions
    only; ``limit`` ``"module:function"`` saying why it cannot run on an instance (None:
    it can), or None when it runs on every instance of its models and boards; ``display``
    the progress display the command gives it (when its options take a ``progress``)."""

    name: str
    target: str
    options: type
    moves: tuple[str, ...] = ("jump",)
    boards: tuple[BoardKind, ...] = ALL_BOARDS
    exact: bool = True
    limit: str | None = None
    #: how the command shows progress: "log" (a line per layer or horizon once a run lasts) or
    #: "live" (one transient line rewritten per layer: depth, states/s, memory, disk)
    display: str = "log"

    def function(self) -> Callable[..., Result]:
        return load({self.name: self.target}, self.name, "method")

    def inapplicable(self, instance: Instance) -> str | None:
        """Why this engine cannot solve ``instance`` (None if it can)."""
        if instance.moves not in self.moves:
            return f"it does not decide moves = {instance.moves!r}"
        if instance.board.kind not in self.boards:
            return f"it does not run on {instance.board.kind.value} boards"
        if self.limit is None:
            return None
        return load({self.name: self.limit}, self.name, "method limit")(instance)

    def make_options(self, given: dict) -> object:
        """The options dataclass from keyword values (UsageError on a name it lacks)."""
        return options_of(self.options, self.name, given)


ENGINES: dict[str, EngineSpec] = {
    spec.name: spec
    for spec in (
        EngineSpec("auto", "coinsat.solve:solve_auto", AutoOptions, moves=("jump", "slide")),
        EngineSpec("bfs", "coinsat.search.bfs:solve_bfs", BfsOptions, moves=("jump", "slide")),
        EngineSpec(
            "spanbfs", "coinsat.search.spanbfs:solve_spanbfs", SpanbfsOptions, limit="coinsat.search.spanbfs:applicable"
        ),
        EngineSpec(
            "rankbfs",
            "coinsat.search.rank.search:solve_rankbfs",
            RankbfsOptions,
            limit="coinsat.search.rank.space:applicable",
            display="live",
        ),
        EngineSpec("sat", "coinsat.search.driver:solve_sat", SatOptions),
        EngineSpec("ilp", "coinsat.search.ilp:solve_ilp", IlpOptions),
        EngineSpec(
            "slidesat", "coinsat.search.slidesat:solve_slidesat", SlidesatOptions, moves=("slide",), boards=LATTICES
        ),
        EngineSpec("pdr", "coinsat.search.pdr:solve_pdr", PdrOptions),  # ABC (berkeley-abc): encodings/aiger.md
        EngineSpec("kind", "coinsat.search.pdr:solve_kind", KindOptions),
    )
}

#: the method names (the CLI's ``--method`` choices)
METHODS = tuple(ENGINES)


def spec(name: str) -> EngineSpec:
    try:
        return ENGINES[name]
    except KeyError:
        raise UsageError(f"unknown method {name!r} (choose from {', '.join(ENGINES)})") from None


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
    """Run engine ``name`` with its options given as keywords (``spec(name).options`` fields)."""
    record = spec(name)
    return get_method(name)(instance, limits=limits, max_moves=max_moves, options=record.make_options(options))
