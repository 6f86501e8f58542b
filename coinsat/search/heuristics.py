"""The registry of the h a bounded ranked search prunes with: one :class:`Heuristic` record per h.

``rankbfs`` with a bound U keeps a state first met at depth t iff t + h(state) <= U, which is
sound for every *admissible* h (h <= the moves left; Lemma W of docs/perimeter-search.md, the
argument of ``search/rank/search.py``).  A record names the h's proof of admissibility, its
kernel (``"module:function"``, imported on first use), what a layers certificate writes for
it, what asking for it needs (a bound, an exact window, an adjacency) and what it costs a
state, and gives its line of ``--help``.  The command line builds ``--heuristic``'s choices
and help from :data:`HEURISTICS`, the engine validates and dispatches through
:func:`heuristic`, and the certificate builder writes :func:`certificate_field`: none of them
tells one h from another by its name (the default plan, ``search/plan.py``, picks one by name).

A *wrapper* (``wraps=True``: the perimeter h) is asked for by its own flag and builds an h over
an inner one (the ball's exact distances, max(inner h, R + 1) outside it: docs/perimeter-search.md,
Theorem P); its kernel is a factory ``(space, parameter, limits) -> object`` with
``h(ranks, inner)``.  Every other kernel is ``(space, ranks, cap) -> int64 array``: h of the
states ranked ``ranks`` in the ``search/rank/space.Space`` of the search, 2**30 when a goal is
out of reach; ``cap`` (None or U - depth) lets a kernel stop early, returning a value that is
<= ``cap`` exactly when h is.

The layers checker (``certificates/check/``) recomputes each h with code of its own and keeps its
own table of the h a certificate may name (``certificates/check/perimeter.py:INNER``): a
deliberate re-implementation, since the checker imports nothing from ``search/`` (a test checks
that the two tables name the same h).  Adding an h: its kernel file and one record here
(CONTRIBUTING.md, "An h").
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from .._names import Name
from ..errors import UsageError
from ..registry import load, unknown


class Cost(Name):
    """What an h costs a state, in increasing order (measured: ``Heuristic.measured``)."""

    #: a few sweeps of the span layers, compiled with numba when it is installed
    LOW = "low"
    #: the sweeps over a larger set of cells, closed first (numpy only)
    MEDIUM = "medium"
    #: rounds of a cut procedure per state the fill h does not prune (compiled)
    HIGH = "high"


@dataclass(frozen=True)
class Heuristic:
    """One h of the bounded ranked search.

    ``name`` is what ``--heuristic`` (or the record's ``flag``) takes; ``summary`` its line of
    ``--help``; ``admissible`` the document and theorem that prove h <= the moves left;
    ``consistent`` the same for h(C) <= 1 + h(C') across a move C -> C' (None: not proven; the
    search and its checker need admissibility only); ``kernel`` the ``"module:function"``
    computing it (module docstring); ``certificate`` the value of a layers certificate's ``h``
    field when this h prunes alone (None: the field is left out, the checker's default h; a
    wrapper's: the ``kind`` of its record); ``needs_bound`` and ``exact_window``: naming it asks
    for a bound U and for an exact window (a search that grows its window refuses it);
    ``min_d`` the least adjacency it is defined for; ``cost`` its :class:`Cost` a state and
    ``measured`` the benchmark that measured it; ``wraps`` (module docstring) and ``flag`` the
    option that asks for it."""

    name: str
    summary: str
    admissible: str
    kernel: str
    certificate: str | None
    cost: Cost
    measured: str
    needs_bound: bool = True
    exact_window: bool = True
    min_d: int = 0
    consistent: str | None = None
    wraps: bool = False
    flag: str = "--heuristic"

    @property
    def asked(self) -> str:
        """How the command line asks for it (``--heuristic lmcut``, ``--perimeter``)."""
        return self.flag if self.wraps else f"{self.flag} {self.name}"

    def help(self) -> str:
        """Its line of the option's ``--help``: what it is, the proof, what it costs a state."""
        return f"{self.name}: {self.summary} ({self.admissible}; cost a state: {self.cost})"

    def function(self) -> Callable:
        """The kernel (module docstring), imported on first use (UsageError if unavailable)."""
        return load({self.name: self.kernel}, self.name, "h")


#: the h a search with a bound prunes with when none is named
DEFAULT = "fill"
#: the h ``--forced-supports`` names (the older spelling of ``--heuristic forced``)
FORCED_SUPPORTS = "forced"

HEURISTICS: dict[str, Heuristic] = {
    record.name: record
    for record in (
        Heuristic(
            "fill",
            "the default: the fill schedule of the empty goal cells over the span layers",
            "docs/forced-supports.md, Theorem H: h_fill <= h_forced <= dist",
            "coinsat.search.rank.space:fill_h",
            certificate=None,
            cost=Cost.LOW,
            measured="benchmarks/lm-cut-search.md",
            needs_bound=False,
            exact_window=False,
        ),
        Heuristic(
            "forced",
            "as --forced-supports: the fill schedule over the goal cells closed under forced supports, >= fill",
            "docs/forced-supports.md, Theorem H",
            "coinsat.search.rank.space:forced_h",
            certificate="forced",
            cost=Cost.MEDIUM,
            measured="benchmarks/lm-cut-search.md",
        ),
        Heuristic(
            "lmcut",
            "the LM-cut of the game without lifts: counts the scaffolding, >= fill",
            "docs/lm-cut.md, Theorem LM",
            "coinsat.search.rank.space:lmcut_h",
            certificate="lmcut",
            cost=Cost.HIGH,
            measured="benchmarks/lm-cut-search.md",
            min_d=1,
        ),
        Heuristic(
            "perimeter",
            "the exact distances of the backward ball of radius R around the goal, max(inner h, R + 1) outside it",
            "docs/perimeter-search.md, Theorem P",
            "coinsat.search.rank.backward:Ball",
            certificate="perimeter",
            cost=Cost.LOW,
            measured="benchmarks/perimeter-search.md",
            wraps=True,
            flag="--perimeter",
        ),
    )
}

#: the h ``--heuristic`` takes (the wrappers have flags of their own)
CHOICES = tuple(name for name, record in HEURISTICS.items() if not record.wraps)
#: the perimeter h's record (``--perimeter R``)
PERIMETER = HEURISTICS["perimeter"]


def heuristic(name: str) -> Heuristic:
    """The record of the h ``name`` that ``--heuristic`` takes (UsageError naming those for another
    name, a wrapper's included: it has its own flag)."""
    if name not in CHOICES:
        raise UsageError(unknown("h", name, CHOICES))
    return HEURISTICS[name]


def choices_help() -> str:
    """The ``--heuristic`` entries of ``--help``, a line per h it takes (the command keeps them)."""
    return "\n".join(HEURISTICS[name].help() for name in CHOICES)


def pruned_by(inner: str, parameter: int | None = None) -> str | dict:
    """What a search pruned by the h ``inner`` (wrapped by the perimeter of radius ``parameter``
    when given) records: the name, or the perimeter's ``{"kind", "r", "inner"}``; a resumed
    search must name the same (``rank/visited.py``), and :func:`certificate_field` writes it."""
    if parameter is None:
        return inner
    return {"kind": PERIMETER.certificate, "r": parameter, "inner": inner}


def certificate_field(pruned: str | dict | None) -> str | dict | None:
    """The ``h`` field of a layers certificate of a search that recorded ``pruned``
    (:func:`pruned_by`; None: no h named): None where the field is left out (the checker's
    default h)."""
    if pruned is None or isinstance(pruned, dict):
        return pruned
    return HEURISTICS[pruned].certificate
