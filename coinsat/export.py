"""Export: the puzzle as a formula or a planning task, by format name.

:data:`FORMATS` is the registry (name -> ``"module:function"``, imported on
first use; the CLI's ``--format`` choices are built from it).  A format function
has the signature ``f(instance, horizon, **options)`` and returns either the
file's text (``str``) or an object with ``parts() -> ((role, text), ...)`` when
the format needs several files (PDDL: domain and problem).  It raises
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
    "cnf": "coinsat.io.dimacs:write_cnf",
    "wcnf": "coinsat.io.dimacs:write_wcnf",
    "wcnf-legacy": "coinsat.io.dimacs:write_wcnf_legacy",
    "opb": "coinsat.io.dimacs:write_opb",
    "lp": "coinsat.io.lp_export:lp_text",
    "mps": "coinsat.io.lp_export:mps_text",
    "pddl": "coinsat.io.pddl:pddl_task",
}
SAT_FORMATS = ("cnf", "wcnf", "wcnf-legacy", "opb")  # the formats of coinsat.encode.sat (take --option)


def get_format(name: str) -> Callable:
    return load(FORMATS, name, "format")


def export(instance, fmt: str, horizon: int | None, **options):
    """The text (or parts) of ``instance`` in format ``fmt`` (library entry point)."""
    if horizon is not None and horizon < 0:
        raise UsageError(f"the horizon must be >= 0, not {horizon}")
    return get_format(fmt)(instance, horizon, **options)


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


def write_output(path: str | Path, text: str) -> None:
    """Write ``text`` atomically; xz-compressed (deterministic bytes) when the name ends in .xz."""
    path = Path(path)
    data = text.encode("utf-8")
    if path.suffix == ".xz":
        data = lzma.compress(data, format=lzma.FORMAT_XZ, check=lzma.CHECK_CRC64, preset=6)
    write_atomic(path, data)
