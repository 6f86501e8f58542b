"""The registry of solving methods, by name (the engines only; the front door is ``coinsat.solve``).

Each method is a function ``(instance, *, max_moves, time_limit, memory_limit,
**options) -> Result``.  Optional engines register lazily (their module is
imported only when asked for), so a missing optional dependency breaks only its
own method.  The CLI builds its ``--method`` choices from :data:`METHODS`.
"""

from __future__ import annotations

from typing import Callable

from ..errors import UsageError
from ..instance import Instance
from ..registry import load
from ..result import Result
from ..rules import MOVE_MODELS as RULES

# name -> "module:function" (imported on first use)
METHODS: dict[str, str] = {
    "auto": "coinsat.solve:solve_auto",
    "bfs": "coinsat.search.bfs:solve_bfs",
    "spanbfs": "coinsat.search.spanbfs:solve_spanbfs",
    "rankbfs": "coinsat.search.rankbfs:solve_rankbfs",
    "sat": "coinsat.search.driver:solve_sat",
    "ilp": "coinsat.search.ilp:solve_ilp",
    "slidesat": "coinsat.search.slidesat:solve_slidesat",
}


#: name -> "module:function" telling why the method cannot run on an instance (None: it can).
#: Methods not listed run on every instance.
LIMITS: dict[str, str] = {
    "spanbfs": "coinsat.search.spanbfs:applicable",
    "rankbfs": "coinsat.search.rankbfs:applicable",
}


#: the move models (rules.MOVE_MODELS) each method decides; a method not listed decides jumps only
#: and refuses any other model (exit 2) rather than answer for the wrong rules
MOVES: dict[str, tuple[str, ...]] = {"auto": ("jump", "slide"), "bfs": ("jump", "slide"), "slidesat": ("slide",)}


def get_method(name: str) -> Callable[..., Result]:
    engine = load(METHODS, name, "method")
    models = MOVES.get(name, ("jump",))

    def guarded(instance: Instance, **kwargs) -> Result:
        if instance.moves not in models:
            raise UsageError(
                f"method {name!r} does not decide moves = {instance.moves!r} "
                f"(methods that do: {', '.join(m for m, ms in MOVES.items() if instance.moves in ms)})"
            )
        return engine(instance, **kwargs)

    return engine if set(models) >= set(RULES) else guarded


def inapplicable(name: str, instance: Instance) -> str | None:
    """Why method ``name`` cannot solve ``instance`` (None if it can)."""
    return load(LIMITS, name, "method limit")(instance) if name in LIMITS else None
