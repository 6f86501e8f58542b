"""Statuses and results: one honest outcome type for every engine.

* ``optimal``    verified solution of length T, and no solution with < T moves proven;
* ``feasible``   verified solution, optimality not proven;
* ``unsolvable`` no solution at all, with a certificate of a named kind and scope;
* ``bounded``    no solution with <= T moves proven (lower_bound = T + 1), nothing beyond;
* ``unknown``    a limit was hit before anything conclusive.

``lower_bound`` is the largest L such that every solution is proven to need at
least L moves; it is None exactly when the status is ``unsolvable`` with a
global certificate (no solution of any length).  Certificates say their scope: ``horizon``, ``window`` or ``global``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ._names import Name
from .errors import InternalError
from .solution import Solution


class Status(Name):
    OPTIMAL = "optimal"
    FEASIBLE = "feasible"
    UNSOLVABLE = "unsolvable"
    BOUNDED = "bounded"
    UNKNOWN = "unknown"


class Scope(Name):
    """How far a proof reaches: solutions within a horizon, inside the window, or all."""

    HORIZON = "horizon"
    WINDOW = "window"
    GLOBAL = "global"


SCOPES = tuple(s.value for s in Scope)


class Engine(Name):
    """What produced a result (``Result.method`` is the name shown to users, e.g. ``auto:spanbfs``)."""

    SCREEN = "screen"
    BFS = "bfs"
    SPANBFS = "spanbfs"
    RANKBFS = "rankbfs"
    SAT = "sat"
    ILP = "ilp"
    CONSTRUCT = "construct"


@dataclass(frozen=True)
class Result:
    """The answer of an engine.  Frozen: a wrapper makes a new one (``dataclasses.replace``).

    ``engine`` says which engine answered (None when a limit stopped the command before
    any engine could); ``witness`` is engine-specific evidence kept for the certificate
    builders (``spanbfs``: its search layers, so that certifying does not search again);
    it never reaches the JSON.
    """

    status: Status
    method: str
    solution: Solution | None = None
    lower_bound: int | None = 0
    certificate: dict[str, Any] | None = None
    seconds: float = 0.0
    stats: dict[str, Any] = field(default_factory=dict)
    engine: Engine | None = None
    witness: Any = field(default=None, compare=False, repr=False)

    def __post_init__(self) -> None:
        has_solution = self.solution is not None
        if has_solution != (self.status in (Status.OPTIMAL, Status.FEASIBLE)):
            raise InternalError(f"status {self.status} with solution={has_solution}")
        if self.status is Status.OPTIMAL and (self.solution is None or self.lower_bound != len(self.solution)):
            raise InternalError("optimal needs a lower bound equal to the solution's length")
        if self.lower_bound is None and not (
            self.status is Status.UNSOLVABLE
            and self.certificate is not None
            and self.certificate.get("scope") == Scope.GLOBAL
        ):
            raise InternalError("no lower bound means unsolvable with a global certificate")
        if self.certificate is not None and self.certificate.get("scope") not in SCOPES:
            raise InternalError(f"certificate scope {self.certificate.get('scope')!r} is none of {SCOPES}")

    @property
    def length(self) -> int | None:
        return None if self.solution is None else len(self.solution)

    def _repr_html_(self) -> str:
        """Notebooks: status, bounds, method (coinsat/draw, reached by name; ``coinsat.draw`` draws the moves)."""
        from .registry import load

        return load({"html": "coinsat.draw.notebook:result_html"}, "html", "picture")(self)
