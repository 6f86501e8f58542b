"""Statuses and results: one honest outcome type for every engine.

* ``optimal``    verified solution of length T, and no solution with < T moves proven;
* ``feasible``   verified solution, optimality not proven;
* ``unsolvable`` no solution at all, with a certificate of a named kind and scope;
* ``bounded``    no solution with <= T moves proven (lower_bound = T + 1), nothing beyond;
* ``unknown``    a limit was hit before anything conclusive.

``lower_bound`` is the largest L such that every solution is proven to need at
least L moves; it is None exactly when the status is ``unsolvable`` with a
global certificate (no solution of any length).  Certificates say their scope: ``horizon``, ``window`` or ``global``.

A :class:`Result` is built by keyword only.  Its ``certificate`` is an :class:`Evidence`
(the kind of proof, its scope, and the kind's fields; a screen's is the whole checked
certificate object), its ``statistics`` the counts every search reports
(:class:`Statistics`), and ``engine`` the engine that answered.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from ._names import Name
from .errors import InternalError
from .limits import Limits, cpu_seconds, peak_memory
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
    SLIDESAT = "slidesat"
    ILP = "ilp"
    PDR = "pdr"
    KIND = "kind"
    CONSTRUCT = "construct"


@dataclass(frozen=True, init=False, eq=False)
class Evidence(Mapping):
    """What an answer's proof is: its ``kind`` (``exhaustive-search``, ``sat-unsat``, ...),
    its ``scope`` and the kind's fields (horizon, window, states, ...).

    Read-only; a mapping over all of them (``evidence["scope"]``, ``evidence.get("horizon")``)
    so that it prints as the JSON object it is (:meth:`to_json`).  A screen's evidence is a
    whole certificate, which its checker accepted."""

    kind: str
    scope: Scope
    fields: Mapping[str, Any]

    def __init__(self, kind: str, scope: str | Scope, **fields: Any) -> None:
        if scope not in SCOPES:
            raise InternalError(f"certificate scope {scope!r} is none of {SCOPES}")
        object.__setattr__(self, "kind", kind)
        object.__setattr__(self, "scope", Scope(scope))
        object.__setattr__(self, "fields", MappingProxyType(dict(fields)))

    @classmethod
    def of(cls, obj: Mapping[str, Any]) -> "Evidence":
        """From a JSON object with ``kind`` and ``scope`` (an engine's, or a certificate)."""
        rest = {k: v for k, v in obj.items() if k not in ("kind", "scope")}
        return cls(obj["kind"], obj["scope"], **rest)

    def to_json(self) -> dict[str, Any]:
        """The JSON object (``kind`` and ``scope`` first)."""
        return {"kind": self.kind, "scope": self.scope.value, **self.fields}

    def __getitem__(self, key: str) -> Any:
        return self.to_json()[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self.to_json())

    def __len__(self) -> int:
        return 2 + len(self.fields)

    def __eq__(self, other: object) -> bool:
        """Equal to an Evidence or a mapping with the same JSON object."""
        return isinstance(other, Mapping) and self.to_json() == dict(other)


@dataclass(frozen=True, kw_only=True)
class Statistics:
    """What a search did (None: the engine has no such count).

    ``states`` kept (visited), ``expanded`` (whose successors were generated), ``pruned``
    (successors dropped by a bound: the span rule or depth + h > U), ``layers`` completed
    (BFS depths, SAT/ILP horizons asked), ``peak_memory`` (bytes: the high-water mark of
    the process, or of a worker process if larger, so it covers earlier work in the same
    process too) and ``cpu_seconds`` (this process and its ended workers, since the
    run's :class:`~coinsat.limits.Limits` was made)."""

    states: int | None = None
    expanded: int | None = None
    pruned: int | None = None
    layers: int | None = None
    peak_memory: int | None = None
    cpu_seconds: float | None = None

    @classmethod
    def measured(cls, cpu0: float, **counts: int | None) -> "Statistics":
        """The counts given, with the memory and CPU read now (CPU since ``cpu0``)."""
        return cls(**counts, peak_memory=peak_memory(), cpu_seconds=round(cpu_seconds() - cpu0, 4))

    def to_json(self) -> dict[str, Any]:
        return {k: getattr(self, k) for k in self.__dataclass_fields__}


@dataclass(frozen=True)
class SearchLayers:
    """The witness of an answer of a layered search (``spanbfs``, ``rankbfs``): its layers (a list
    of word arrays, or the ranked visited set) when it searched the instance's own window, else None.
    The layers certificate is built from them (``certificates/prove/make.py``), searching again
    only where they are None or too short."""

    layers: Any = field(default=None, repr=False)


@dataclass(frozen=True)
class InductionProof:
    """The witness of an ``unsolvable`` answer proven by ABC's k-induction (``k``), or by its BMC
    visiting every reachable state (``k`` = 0): a proof that carries no invariant of its own, so
    the certificate asks PDR for one (``certificates/prove/make.py``)."""

    k: int


@dataclass(frozen=True, kw_only=True)
class Result:
    """The answer of an engine.  Frozen: a wrapper makes a new one (``dataclasses.replace``).

    ``engine`` says which engine answered (None when a limit stopped the command before
    any engine could); ``stats`` holds the engine's own details (SAT horizons, windows
    grown, layer sizes); ``witness`` is the typed evidence the certificate builders read
    (:class:`SearchLayers`, :class:`InductionProof`, ``pdr``'s ``Invariant``): a certificate is
    made from what the answer carries, never from the engine's name; it never reaches the JSON.
    """

    status: Status
    method: str
    solution: Solution | None = None
    lower_bound: int | None = 0
    certificate: Evidence | None = None
    seconds: float = 0.0
    stats: dict[str, Any] = field(default_factory=dict)
    statistics: Statistics = field(default_factory=Statistics)
    engine: Engine | None = None
    witness: Any = field(default=None, compare=False, repr=False)

    def __post_init__(self) -> None:
        if self.certificate is not None and not isinstance(self.certificate, Evidence):
            object.__setattr__(self, "certificate", Evidence.of(self.certificate))
        has_solution = self.solution is not None
        if has_solution != (self.status in (Status.OPTIMAL, Status.FEASIBLE)):
            raise InternalError(f"status {self.status} with solution={has_solution}")
        if self.status is Status.OPTIMAL and (self.solution is None or self.lower_bound != len(self.solution)):
            raise InternalError("optimal needs a lower bound equal to the solution's length")
        if self.lower_bound is None and not (
            self.status is Status.UNSOLVABLE and self.certificate is not None and self.certificate.scope is Scope.GLOBAL
        ):
            raise InternalError("no lower bound means unsolvable with a global certificate")

    @classmethod
    def measured(
        cls,
        engine: Engine,
        limits: Limits,
        stats: dict[str, Any],
        status: Status,
        solution: Solution | None = None,
        lb: int | None = None,
        certificate: Any = None,
        *,
        method: str | None = None,
        witness: Any = None,
        **counts: int | None,
    ) -> "Result":
        """An answer of ``engine`` (its own ``stats``), its seconds and :class:`Statistics` (``counts``,
        the memory, the CPU seconds) measured now on the clocks of ``limits``; ``method`` is the
        engine's name unless given."""
        return cls(
            status=status,
            method=engine.value if method is None else method,
            solution=solution,
            lower_bound=lb,
            certificate=certificate,
            seconds=limits.elapsed(),
            stats=stats,
            statistics=Statistics.measured(limits.cpu0, **counts),
            engine=engine,
            witness=witness,
        )

    @property
    def length(self) -> int | None:
        return None if self.solution is None else len(self.solution)

    def __repr__(self) -> str:
        """One line a person reads (the fields: ``dataclasses.asdict``, or ``--json`` on the CLI)."""
        what = [self.status.value]
        if self.solution is not None:
            what.append(f"{len(self.solution)} moves")
        if self.status is not Status.OPTIMAL and self.lower_bound:
            what.append(f"lower bound {self.lower_bound}")
        if self.certificate is not None:
            what.append(f"scope {self.certificate.scope.value}")
        by = self.engine.value if self.engine is not None else self.method
        return f"<Result {', '.join(what)} (engine {by}, {self.seconds:.2f} s)>"

    def _repr_html_(self) -> str:
        """Notebooks: status, bounds, method (coinsat/draw, reached by name; ``coinsat.draw`` draws the moves)."""
        from .registry import load

        return load({"html": "coinsat.draw.notebook:result_html"}, "html", "picture")(self)


def against_published(result: Result, known: int | None) -> str | None:
    """How ``result`` contradicts a published optimum of ``known`` moves (the puzzle file's
    ``known_optimal``), in one sentence; None when it does not, or when nothing is published.

    A contradiction is a finding (the publication is wrong) or a bug (coinsat is): either way
    the answer says so loudly.  It is one when the result proves a different optimum, proves
    the puzzle unsolvable, has a solution shorter than ``known`` moves, or proves a lower
    bound above ``known`` (every solution needs more moves than the published optimum)."""
    if known is None:
        return None
    published = f"the puzzle file's known_optimal, a published optimum of {known} moves"
    if result.lower_bound is None:
        return f"coinsat proves the puzzle unsolvable, against {published}"
    if result.status is Status.OPTIMAL and result.length != known:
        return f"coinsat proves the optimum is {result.length} moves, against {published}"
    if result.solution is not None and len(result.solution) < known:
        return f"coinsat found a solution of {len(result.solution)} moves, shorter than {published}"
    if result.lower_bound > known:
        return f"coinsat proves every solution needs at least {result.lower_bound} moves, against {published}"
    return None
