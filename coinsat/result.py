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

import enum
from dataclasses import dataclass, field
from typing import Any

from .solution import Solution


class Status(str, enum.Enum):
    OPTIMAL = "optimal"
    FEASIBLE = "feasible"
    UNSOLVABLE = "unsolvable"
    BOUNDED = "bounded"
    UNKNOWN = "unknown"

    def __str__(self) -> str:
        return self.value


SCOPES = ("horizon", "window", "global")


@dataclass
class Result:
    status: Status
    method: str
    solution: Solution | None = None
    lower_bound: int | None = 0
    certificate: dict[str, Any] | None = None
    seconds: float = 0.0
    stats: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        has_solution = self.solution is not None
        if has_solution != (self.status in (Status.OPTIMAL, Status.FEASIBLE)):
            raise AssertionError(f"status {self.status} with solution={has_solution}")
        if self.status is Status.OPTIMAL:
            assert self.lower_bound == len(self.solution), "optimal needs a matching lower bound"
        if self.lower_bound is None:
            assert self.status is Status.UNSOLVABLE and self.certificate["scope"] == "global"
        if self.certificate is not None:
            assert self.certificate.get("scope") in SCOPES, self.certificate

    @property
    def length(self) -> int | None:
        return None if self.solution is None else len(self.solution)
