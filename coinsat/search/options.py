"""Each engine's options: one frozen dataclass per engine, the third argument of its contract.

Every engine is ``solve_<name>(instance, *, limits, max_moves, options) -> Result``
(``limits`` a :class:`~coinsat.limits.Limits`, passed whole; ``options`` the engine's
dataclass below, its defaults when None).  A field that the command line offers carries
its flag in ``metadata`` (:func:`flag`): ``coinsat solve`` builds its flags from these
fields and the options of the chosen method from the flags given, so no engine's rules
live in the command.  ``progress`` is a callback, never a flag: the command gives one.

This module imports no engine, so the command line and the registry can read it cheaply.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import TYPE_CHECKING, Any, Callable, Mapping

from ..backends.sat_backend import DEFAULT_SOLVER, SOLVERS
from ..environment import Kernels
from ..errors import UsageError
from .heuristics import CHOICES, PERIMETER, choices_help

if TYPE_CHECKING:  # the encoder is not imported to read the options (the core-only checker runs without it)
    from ..encode.options import EncodingOptions

#: the SAT horizon strategies (search/driver.py) and the ILP ones (search/ilp.py)
SAT_STRATEGIES = ("linear", "geometric", "descend")
ILP_STRATEGIES = ("geometric", "linear")
ILP_ENCODING = ("noop_last", "windows", "no_return", "counts")

#: ``type`` of a flag: ``count`` (an integer >= 0), ``choice`` (one of ``choices``),
#: ``switch`` (present or not), ``path`` (a file or directory), ``solution-length`` (a
#: solution file, or ``construct``: the length of a verified solution of the instance)
FLAG_TYPES = ("count", "choice", "switch", "path", "solution-length")


def flag(
    name: str, kind: str, help: str, metavar: str | None = None, choices: tuple = (), **cli: Any
) -> dict[str, Any]:
    """The ``metadata`` of a field offered on the command line as ``name``; ``cli_default=v``:
    the command passes v when the flag is not given (else the field keeps its default);
    ``negate=True`` on a switch: the flag given sets the field False (``--no-...``)."""
    if kind not in FLAG_TYPES:
        raise ValueError(f"flag type {kind!r} is none of {FLAG_TYPES}")
    return {"flag": name, "type": kind, "help": help, "metavar": metavar, "choices": choices, **cli}


def _hook(default: Any = None) -> Any:
    """A callback field: not compared, not a flag."""
    return field(default=default, compare=False, repr=False)


@dataclass(frozen=True, kw_only=True)
class BfsOptions:
    """``bfs``: ``max_states`` bounds the states held (summed over the rounds of a growing
    window); ``grow=False`` searches an inexact window as given (answers then speak of it)."""

    max_states: int = 20_000_000
    grow: bool = True


@dataclass(frozen=True, kw_only=True)
class SpanbfsOptions:
    """``spanbfs``: ``prune=False`` turns the span pruning off (tests, benchmarks);
    ``progress(LayerReport)`` after every layer; ``grow`` as for bfs."""

    max_states: int = 400_000_000
    prune: bool = True
    grow: bool = True
    progress: Callable | None = _hook()


@dataclass(frozen=True, kw_only=True)
class RankbfsOptions:
    """``rankbfs``: as spanbfs, and ``upper_bound`` U (the length of a known solution) turns
    bound-and-prune on, on exact windows; ``workers`` processes (None: one per core);
    ``cluster`` runs on the ranks of the MPI job this process belongs to; ``spill_budget``
    bytes of layers stay in memory, the rest goes to disk (default: half the memory
    limit); ``resume`` a directory where every layer is saved and from whose last complete
    layer a search of the same instance, bound U and h continues (one process, workers or
    the MPI ranks, whatever the saving run's; an exact window; the manifest names U and h,
    and layers pruned otherwise are refused); ``symmetry`` (on by default; ``--no-symmetry``)
    stores one configuration per orbit of the window's symmetries that fix the start and the
    goal, when there is one besides the identity (docs/symmetry.md); ``kernels`` how it computes
    (:class:`~coinsat.environment.Kernels`: compiled or numpy kernels, the workers' route, the C
    heap; every choice gives the same layers), by default from the ``COINSAT_*`` environment
    variables (``Kernels.from_environment``)."""

    max_states: int = 2_000_000_000
    prune: bool = True
    grow: bool = True
    upper_bound: int | None = field(
        default=None,
        metadata=flag(
            "--upper-bound",
            "solution-length",
            "rankbfs: a solution file (or 'construct') whose verified length U prunes states with depth + h > U",
            "FILE",
        ),
    )
    workers: int | None = field(
        default=1,
        metadata=flag("--workers", "count", "rankbfs: processes (default: one per core)", "N", cli_default=None),
    )
    cluster: bool = field(
        default=False,
        metadata=flag(
            "--cluster",
            "switch",
            "rankbfs: run as one rank of an MPI job (mpiexec -n N coinsat solve FILE --method rankbfs --cluster)",
        ),
    )
    forced_supports: bool = field(
        default=False,
        metadata=flag(
            "--forced-supports",
            "switch",
            "rankbfs with --upper-bound or --max-moves: prune with the forced-supports h (docs/forced-supports.md)",
        ),
    )
    heuristic: str | None = field(
        default=None,
        metadata=flag(
            "--heuristic",
            "choice",
            f"rankbfs with --upper-bound or --max-moves: the h it prunes with:\n{choices_help()}",
            choices=CHOICES,
        ),
    )
    perimeter: int | None = field(
        default=None,
        metadata=flag(
            "--perimeter",
            "count",
            f"rankbfs with --upper-bound or --max-moves: prune with {PERIMETER.summary} ({PERIMETER.admissible})",
            "R",
        ),
    )
    symmetry: bool = field(
        default=True,
        metadata=flag(
            "--no-symmetry",
            "switch",
            "rankbfs: search every configuration, not one per orbit of the board symmetries that fix the "
            "start and the goal (docs/symmetry.md)",
            negate=True,
        ),
    )
    spill_budget: int | None = None
    resume: str | None = field(
        default=None,
        metadata=flag(
            "--resume",
            "path",
            "rankbfs: save every layer in DIR; if DIR holds layers of this search (same instance, "
            "--upper-bound and h: --heuristic, --perimeter), continue from the last (any --workers, --cluster)",
            "DIR",
        ),
    )
    progress: Callable | None = _hook()
    kernels: Kernels = field(default_factory=Kernels.from_environment)
    #: the keep decisions of an earlier bounded search of the same instance and h
    #: (``search/rank/space.Kept``; the default's climb passes them, ``coinsat.solve.climb``): a state
    #: it kept is kept again without its h where Lemma KR (docs/from-below.md) allows; the same
    #: layers.  One worker only (ignored with worker processes: the answer's ``kept_before`` says so)
    kept: Any = _hook()


_SOLVER = flag("--solver", "choice", f"SAT solver (PySAT name) for --method sat/auto (default {DEFAULT_SOLVER})")
_SOLVER["choices"] = SOLVERS
_STRATEGY = flag("--strategy", "choice", "SAT horizon strategy (default linear)", choices=SAT_STRATEGIES)
_HINT = flag(
    "--horizon-hint",
    "count",
    "SAT: a solution with <= T moves is known (any engine, a solution file): ask T first, "
    "then T - 1, instead of climbing from the lower bound",
    "T",
)


@dataclass(frozen=True, kw_only=True)
class SatOptions:
    """``sat`` (search/driver.py): the PySAT ``solver``, the horizon ``strategy`` and
    ``stride``, the ``encoding`` families (None: ``encode.options.DEFAULT_OPTIONS``);
    ``solver_config``: CaDiCaL options (default
    ``sat_backend.CADICAL_DEFAULTS``); ``horizon_hint``: a known upper bound, asked first
    instead of climbing (``fresh``: the calls below the best length get a new solver;
    ``descend=False``: stop after the call at the hint)."""

    solver: str = field(default=DEFAULT_SOLVER, metadata=_SOLVER)
    strategy: str = field(default="linear", metadata=_STRATEGY)
    encoding: EncodingOptions | None = None
    solver_config: Mapping[str, int] | None = None
    stride: int = 1
    horizon_hint: int | None = field(default=None, metadata=_HINT)
    fresh: bool = False
    descend: bool = True
    progress: Callable | None = _hook()


@dataclass(frozen=True, kw_only=True)
class IlpOptions:
    """``ilp``: the MILP ``solver`` (PuLP name) and its ``threads``; horizons up to
    ``max_horizon`` by ``strategy``; the encoding families of encodings/ilp.md (None:
    the model's default); ``grow`` as for bfs."""

    solver: str = "highs"
    threads: int | None = None
    max_horizon: int | None = None
    strategy: str = "linear"
    noop_last: bool | None = None
    windows: bool | None = None
    no_return: bool | None = None
    counts: bool | None = None
    grow: bool = True
    progress: Callable | None = _hook()  # an IlpReport when a horizon's model goes to the solver and when it returns

    def encoding(self) -> dict[str, bool]:
        """The encoding families set (passed to ``encode.ilp.build_ilp``)."""
        return {k: v for k in ILP_ENCODING if (v := getattr(self, k)) is not None}


@dataclass(frozen=True, kw_only=True)
class SlidesatOptions:
    """``slidesat``: the PySAT ``solver``."""

    solver: str = field(default=DEFAULT_SOLVER, metadata=_SOLVER)


@dataclass(frozen=True, kw_only=True)
class PdrOptions:
    """``pdr`` (search/pdr.py, ABC's IC3/PDR): no options; ABC's own defaults."""


@dataclass(frozen=True, kw_only=True)
class KindOptions:
    """``kind`` (search/pdr.py, ABC's k-induction): ``max_frames``, the largest k tried before
    answering unknown."""

    max_frames: int = 4096


@dataclass(frozen=True, kw_only=True)
class AutoOptions:
    """``auto`` (``coinsat.solve.solve_auto``): the SAT settings used when it picks SAT, the
    progress display handed to whichever engine it picks, and ``announce(plan)``, called with the
    plan (``search/plan.py``: engine, h, bound) before the engine starts.  ``reuse`` (on by
    default): each bounded search of the bound from below (``coinsat.solve.climb``) keeps the states
    the search before it proved keepable without computing their h (Lemma KR of docs/from-below.md;
    the same layers; one worker only); off, every search computes every h (tests, benchmarks)."""

    solver: str | None = field(default=None, metadata=_SOLVER)
    strategy: str | None = field(default=None, metadata=_STRATEGY)
    horizon_hint: int | None = field(default=None, metadata=_HINT)
    progress: Callable | None = _hook()
    announce: Callable | None = _hook()
    reuse: bool = True

    def sat(self) -> SatOptions:
        """The SAT engine's options under these settings."""
        base = SatOptions(progress=self.progress)
        return SatOptions(
            solver=self.solver or base.solver,
            strategy=self.strategy or base.strategy,
            horizon_hint=self.horizon_hint,
            progress=self.progress,
        )


def options_of(cls: type, name: str, given: Mapping[str, Any]) -> Any:
    """``cls(**given)``; an option the engine does not have is a UsageError naming the method."""
    known = {f.name for f in fields(cls)}
    unknown = sorted(set(given) - known)
    if unknown:
        raise UsageError(
            f"unknown option(s) for method {name!r}: {', '.join(unknown)} (it takes {', '.join(sorted(known))})"
        )
    return cls(**given)


def flags_of(cls: type) -> list[tuple[str, Mapping[str, Any]]]:
    """(field name, flag metadata) of every field of ``cls`` offered as a flag."""
    return [(f.name, f.metadata) for f in fields(cls) if f.metadata]
