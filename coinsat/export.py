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
"""

from __future__ import annotations

import lzma
from pathlib import Path
from typing import Callable

from .errors import UsageError
from .io.atomic import write_atomic
from .registry import load

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


def write_output(path: str | Path, text: str | bytes) -> None:
    """Write ``text`` atomically; xz-compressed (deterministic bytes) when the name ends in .xz."""
    path = Path(path)
    data = text if isinstance(text, bytes) else text.encode("utf-8")
    if path.suffix == ".xz":
        data = lzma.compress(data, format=lzma.FORMAT_XZ, check=lzma.CHECK_CRC64, preset=6)
    write_atomic(path, data)
