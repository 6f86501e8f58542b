"""Export: the puzzle as a formula or a planning task, by format name.

:data:`FORMATS` is the registry (name -> ``"module:function"``, imported on
first use; the CLI's ``--format`` choices are built from it).  A format function
has the signature ``f(instance, horizon, **options)`` and returns either the
file's text (``str``) or an object with ``parts() -> ((role, text), ...)`` when
the format needs several files (PDDL: domain and problem).  The format functions
here build the formula (``coinsat.encode``) and hand it to a printer in
``coinsat.io``: the printers never build anything.  It raises
``InstanceError``/``UsageError`` on parameters it cannot honour (e.g. a missing
horizon, or a horizon given to PDDL), which the CLI reports with exit 2.
:func:`write_output` writes one text atomically (xz-compressed for ``.xz``).

The front doors (exported by the package root): :func:`export_puzzle` (``coinsat.export``)
returns an :class:`Export` and writes its files, and :func:`decode` reads an outside
solver's model of an exported formula back as a replayed solution.
"""

from __future__ import annotations

import lzma
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Mapping, Sequence

from .errors import IllegalMoveError, InstanceError, UsageError
from .instance import Instance
from .io import pddl
from .io.atomic import write_atomic
from .registry import load
from .result import Result, Status
from .solution import Solution

# name -> "module:function" (imported on first use)
FORMATS: dict[str, str] = {
    "cnf": "coinsat.export:cnf",
    "wcnf": "coinsat.export:wcnf",
    "wcnf-legacy": "coinsat.export:wcnf_legacy",
    "opb": "coinsat.export:opb",
    "lp": "coinsat.export:lp",
    "mps": "coinsat.export:mps",
    "pddl": "coinsat.io.pddl:pddl_task",
    "aiger": "coinsat.io.aiger:aiger_format",  # ASCII AIGER, encodings/aiger.md; --horizon optional
    "aig": "coinsat.io.aiger:aig_format",  # binary AIGER (bytes), the same circuit
    "btor2": "coinsat.io.btor2:btor2_format",  # the same circuit as a BTOR2 model
}
SAT_FORMATS = ("cnf", "wcnf", "wcnf-legacy", "opb")  # the formats of coinsat.encode.sat (take --option)


def get_format(name: str) -> Callable:
    return load(FORMATS, name, "format")


def export(instance, fmt: str, horizon: int | None, **options):
    """The text (or parts) of ``instance`` in format ``fmt`` (library entry point)."""
    if horizon is not None and horizon < 0:
        raise UsageError(f"the horizon must be >= 0, not {horizon}")
    if getattr(instance, "moves", "jump") != "jump":  # the formats encode jumps only
        raise UsageError(f"the export formats encode jump moves; this instance has moves = {instance.moves!r}")
    return get_format(fmt)(instance, horizon, **options)


def sat_formula(instance, horizon: int | None, encoding=None):
    """``encode(instance, horizon, encoding)`` after checking the horizon (``encoding``: options or a dict)."""
    from .encode.options import EncodingOptions
    from .encode.sat import encode

    if horizon is None:
        raise UsageError("this format needs a horizon: --horizon T (the number of moves)")
    if horizon < 0:
        raise UsageError(f"the horizon must be >= 0, not {horizon}")
    if encoding is not None and not isinstance(encoding, EncodingOptions):
        encoding = EncodingOptions(**dict(encoding))
    return encode(instance, horizon, encoding)


def cnf(instance, horizon: int | None, *, encoding=None, expected: str | None = None) -> str:
    """DIMACS CNF: satisfiable iff a solution with <= T moves exists in the window."""
    from .io.dimacs import cnf_text

    return cnf_text(instance, sat_formula(instance, horizon, encoding), expected=expected)


def wcnf(instance, horizon: int | None, *, encoding=None, expected: str | None = None, legacy: bool = False) -> str:
    """Weighted MaxSAT (MSE 2022+ format; ``legacy``: the ``p wcnf`` one): minimise the moves."""
    from .io.dimacs import wcnf_text

    return wcnf_text(instance, sat_formula(instance, horizon, encoding), expected=expected, legacy=legacy)


def wcnf_legacy(instance, horizon: int | None, **kw) -> str:
    return wcnf(instance, horizon, legacy=True, **kw)


def opb(instance, horizon: int | None, *, encoding=None, expected: str | None = None) -> str:
    """OPB with the cardinality families written natively (``coinsat.encode.pb``)."""
    from .encode.pb import pb_rows
    from .io.dimacs import opb_text

    f = sat_formula(instance, horizon, encoding)
    return opb_text(instance, f, pb_rows(f), expected=expected)


def _ilp_text(instance, horizon: int | None, fmt: str, options: dict) -> str:
    from .encode.ilp import build_ilp
    from .io.lp_export import lp_text, mps_text

    if horizon is None:
        raise UsageError(f"the {fmt} format needs a horizon (--horizon T)")
    if horizon < 0:
        raise UsageError(f"the horizon must be >= 0, not {horizon}")
    return (lp_text if fmt == "lp" else mps_text)(instance, build_ilp(instance, horizon, **options), horizon)


def lp(instance, horizon: int | None, **options) -> str:
    """The ILP model (``encodings/ilp.md``) in LP format."""
    return _ilp_text(instance, horizon, "lp", options)


def mps(instance, horizon: int | None, **options) -> str:
    """The ILP model (``encodings/ilp.md``) in MPS format."""
    return _ilp_text(instance, horizon, "mps", options)


def encoding_options(items: list[str]):
    """``["commute=0", "ladder=1"]`` -> EncodingOptions (defaults for the rest)."""
    from .encode.options import DEFAULT_OPTIONS, EncodingOptions

    changes = {}
    for item in items:
        name, sep, value = item.partition("=")
        if not sep or name not in EncodingOptions.names() or value not in ("0", "1"):
            raise UsageError(
                f"bad --option {item!r}: expected NAME=0 or NAME=1 with NAME one of "
                f"{', '.join(EncodingOptions.names())}"
            )
        changes[name] = value == "1"
    return DEFAULT_OPTIONS.with_(**changes)


def output_paths(output: str | Path, fmt: str, roles: Sequence[str]) -> list[Path]:
    """Where each part of an export goes: ``output`` for one part; for several, ``DIR/<role>.<fmt>``
    when ``output`` is a directory (existing, ending in ``/`` or without a suffix), else
    ``PATH.<role>.ext`` for each part but the last (the problem), which goes to ``output``."""
    text = str(output)
    path = Path(output)
    if len(roles) == 1:
        return [path]
    if text.endswith(("/", "\\")) or path.is_dir() or not path.suffix:
        return [path / f"{role}.{fmt}" for role in roles]
    if path.suffix == ".xz":
        raise UsageError(f"{fmt} output has several files and cannot go to one .xz file: {text}")
    return [path.with_suffix(f".{role}{path.suffix}") for role in roles[:-1]] + [path]


def roles(fmt: str) -> list[str]:
    """The parts a format writes, by role (``pddl``: domain and problem; the others one, ``""``)."""
    return ["domain", "problem"] if fmt == "pddl" else [""]


@dataclass(frozen=True)
class Export:
    """A puzzle in a file format (:func:`export_puzzle`).

    ``parts`` are ``(role, text)`` pairs, one per file (``pddl``: the domain, then the problem;
    every other format one part with role ``""``); a text is ``bytes`` for binary AIGER.
    ``files`` are the paths written (empty when no output was given)."""

    format: str
    horizon: int | None
    parts: tuple[tuple[str, str | bytes], ...]
    files: tuple[Path, ...] = ()

    @property
    def data(self) -> str | bytes:
        """The one part's text; the problem (the last part) for a format with several."""
        return self.parts[-1][1]


def export_puzzle(
    instance: Instance,
    format: str,
    horizon: int | None = None,
    *,
    output: str | Path | None = None,
    encoding: Sequence[str] | Mapping[str, bool] | None = None,
    **options: Any,
) -> Export:
    """The puzzle as a formula, a planning task or a circuit, for other solvers.

    Parameters
    ----------
    instance : Instance
        The puzzle (jump moves).
    format : str
        A name of :data:`FORMATS`: ``cnf``, ``wcnf``, ``wcnf-legacy`` (DIMACS, with a symbol
        table), ``opb``, ``lp``, ``mps`` (the ILP model; ``coinsat[ilp]``), ``pddl``, ``aiger``,
        ``aig``, ``btor2``.
    horizon : int, optional
        The number of moves T: required by every format except pddl (which refuses one) and
        the circuits (optional).  A SAT formula is satisfiable iff a solution with <= T moves
        exists in the window.
    output : str or Path, optional
        Write the parts there (atomically; ``.xz``: compressed); several parts go to
        ``DIR/<role>.<format>`` or ``PATH.<role>.ext`` (:func:`output_paths`).
    encoding : optional
        SAT encoding options for the SAT formats (``encodings/sat.md``): ``["commute=0"]`` or
        ``{"commute": False}``.
    **options
        The format's own options.

    Returns
    -------
    Export
        The parts (text, or bytes for ``aig``) and the files written.

    Raises
    ------
    UsageError
        For an unknown format, a missing, negative or refused horizon, encoding options given
        to a format that takes none, an unknown encoding option, a puzzle with slide moves, or
        several parts sent to one ``.xz`` file.
    MissingDependency
        For ``lp`` and ``mps`` without PuLP.
    OutputError
        When a file cannot be written.
    """
    if encoding:
        if format not in SAT_FORMATS:
            raise UsageError(f"encoding options are SAT encoding options; format {format!r} does not take them")
        items = encoding if not isinstance(encoding, Mapping) else [f"{k}={int(bool(v))}" for k, v in encoding.items()]
        options["encoding"] = encoding_options(list(items))
    out = export(instance, format, horizon, **options)
    parts = tuple(out.parts()) if hasattr(out, "parts") else (("", out),)
    files: list[Path] = []
    if output is not None:
        for path, (_, text) in zip(output_paths(output, format, [r for r, _ in parts]), parts):
            write_output(path, text)
            files.append(path)
    return Export(format, horizon, parts, tuple(files))


_LITERAL = re.compile(r"^[-+]?x?\d+$")


def read_model(path: str | Path) -> list[int]:
    """The true and false literals of a solver's output (``s SATISFIABLE`` / ``v ... 0`` lines, or
    the literals alone; ``x12`` / ``-x12`` as pseudo-Boolean solvers print them); InstanceError
    naming the file and line otherwise (an UNSAT answer, a word that is not a literal)."""
    text = _read_text(path, "model")
    literals: list[int] = []
    for number, line in enumerate(text.splitlines(), start=1):
        words = line.split()
        if not words or words[0] == "c":
            continue
        if words[0] in ("s", "SAT", "UNSAT", "UNSATISFIABLE", "SATISFIABLE", "INDET", "UNKNOWN"):
            answer = " ".join(words[1:] if words[0] == "s" else words)
            if "UNSAT" in answer:
                raise InstanceError(
                    "the solver answered UNSATISFIABLE: no solution within the formula's horizon, no model",
                    str(path),
                    number,
                )
            if answer not in ("SATISFIABLE", "SAT"):
                raise InstanceError(f"the solver answered {answer!r}: no model", str(path), number)
            continue
        if words[0] == "v":
            words = words[1:]
        for w in words:
            if not _LITERAL.match(w):
                raise InstanceError(f"{w[:40]!r} is not a literal (an integer, or x12 / -x12)", str(path), number)
            value = int(w.replace("x", ""))
            if value != 0:
                literals.append(value)
    if not literals:
        raise InstanceError("no literals: not a model (give the solver's output for the exported formula)", str(path))
    return literals


def decode(instance: Instance, formula: str | Path, model: str | Path) -> Result:
    """An outside solver's model of an exported formula, or a planner's plan of an exported PDDL
    task, as a solution replayed by ``rules.py``.

    The formula's symbol table (``c var N Fill(cell=(x, y), t=k)``, written by
    :func:`export_puzzle` for cnf, wcnf and opb) names what each variable means; the model's
    true literals are read through it (``io.dimacs.decode_symbols``) and the moves replayed.
    When the formula is a PDDL domain or problem :func:`export_puzzle` wrote (``format="pddl"``),
    the model is a plan (Fast Downward's ``sas_plan``: ``(move s p ...)`` lines, ``;`` comments),
    read by ``io.pddl.read_plan`` once the task's puzzle and board are checked to be ``instance``'s.

    Parameters
    ----------
    instance : Instance
        The puzzle the formula was exported from (its name must match the formula's).
    formula : str or Path
        The exported formula file (cnf, wcnf, opb), or the PDDL domain or problem file.
    model : str or Path
        The solver's output: ``s SATISFIABLE`` and ``v ... 0`` lines, or the literals alone; for
        PDDL, the planner's plan.

    Returns
    -------
    Result
        ``feasible`` with the decoded solution (``method`` ``decode``, lower bound 0: nothing
        is proven about shorter solutions).

    Raises
    ------
    InstanceError
        When a file cannot be read, the formula has no symbol table or is of another puzzle (a
        PDDL task: or of another board), or the model is not one (an UNSAT answer, a word that is
        not a literal; a plan line that is not an action, a move naming an unknown cell).
    IllegalMoveError
        When the decoded moves are illegal or do not reach the goal (``step`` None: the end).
    """
    from .io.dimacs import decode_symbols, read_symbols
    from .io.files import read_regular

    try:  # the symbol table precedes the clauses
        header = read_regular(formula, "the formula file", first=1 << 20).decode("utf-8", errors="replace")
    except OSError as e:
        raise InstanceError(f"cannot read the formula: {e.strerror or e}", str(formula)) from None
    if pddl.is_task(header):  # a planner's plan of the PDDL task
        pddl.check_task(instance, header, str(formula))
        return _replayed(instance, _read_plan(instance, model))
    symbols = read_symbols(header)
    if not symbols:
        raise InstanceError("no 'c var N ...' symbol table: not a formula coinsat export wrote", str(formula))
    named = re.search(r"^c instance: (.*)$", header, re.M)
    if named and named.group(1).strip() != instance.name:
        raise InstanceError(f"the formula is of {named.group(1).strip()!r}, not of {instance.name!r}", str(formula))
    return _replayed(instance, decode_symbols(instance, symbols, read_model(model)))


def _replayed(instance: Instance, solution: Solution) -> Result:
    """``decode``'s answer: ``solution`` replayed by rules.py (IllegalMoveError when it fails)."""
    from .solution import verify

    verdict = verify(instance, solution, keep_trace=False)
    if not verdict.ok:
        move = solution.moves[verdict.step - 1] if verdict.step else None
        raise IllegalMoveError(verdict.step, move, verdict.reason)
    return Result(status=Status.FEASIBLE, method="decode", solution=solution, lower_bound=0)


def _read_plan(instance: Instance, path: str | Path) -> Solution:
    """A planner's plan file (Fast Downward's ``sas_plan``: ``(move s p ...)`` lines, ``;`` comments),
    its errors naming the file and line."""
    text = _read_text(path, "plan")
    try:
        return pddl.read_plan(instance, text)
    except InstanceError as e:
        raise InstanceError(e.message, str(path), e.line) from None


def _read_text(path: str | Path, what: str) -> str:
    """An outside tool's output file (a model, a plan) as text; InstanceError naming it when it
    cannot be read."""
    from .io.files import read_regular

    try:
        return read_regular(path, f"the {what} file").decode("utf-8", errors="replace")
    except FileNotFoundError:
        raise InstanceError("no such file", str(path)) from None
    except OSError as e:
        raise InstanceError(f"cannot read the {what}: {e.strerror or e}", str(path)) from None


def write_output(path: str | Path, text: str | bytes) -> None:
    """Write ``text`` atomically; xz-compressed (deterministic bytes) when the name ends in .xz."""
    path = Path(path)
    data = text if isinstance(text, bytes) else text.encode("utf-8")
    if path.suffix == ".xz":
        data = lzma.compress(data, format=lzma.FORMAT_XZ, check=lzma.CHECK_CRC64, preset=6)
    write_atomic(path, data)
