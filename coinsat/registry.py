"""Registries by name: ``name -> "module:function"``, imported on first use.

A missing optional dependency then breaks only the entry that needs it, and
the CLI can list every name without importing anything (pyperplan's
SEARCHES, PuLP's getSolver).
"""

from __future__ import annotations

import difflib
import importlib
from typing import Callable, Iterable, Mapping

from .errors import MissingDependency, UsageError


def load(registry: Mapping[str, str], name: str, what: str) -> Callable:
    """The function registered as ``name``; UsageError (exit 2) if unknown or unavailable."""
    try:
        target = registry[name]
    except KeyError:
        raise UsageError(unknown(what, name, registry)) from None
    module, func = target.split(":")
    try:
        return getattr(importlib.import_module(module), func)
    except (ImportError, AttributeError) as e:
        raise UsageError(f"{what} {name!r} is not available (optional dependency?): {e}") from None


def closest(name: str, choices: Iterable[str]) -> str | None:
    """The choice ``name`` most likely misspells (case aside), or None when none is close."""
    known = {str(c).lower(): str(c) for c in choices}
    found = difflib.get_close_matches(str(name).lower(), list(known), n=1, cutoff=0.6)
    return known[found[0]] if found else None


def unknown(what: str, name: str, choices: Iterable[str]) -> str:
    """One line for a ``name`` that is not among ``choices``: the closest first, then all of them
    (``unknown method 'sta' (did you mean 'sat'? choose from auto, bfs, ...)``)."""
    names = [str(c) for c in choices]
    guess = closest(name, names)
    hint = f"did you mean {guess!r}? " if guess is not None else ""
    return f"unknown {what} {name!r} ({hint}choose from {', '.join(names)})"


#: the optional packages and the extra of pyproject.toml that installs each
EXTRAS = {
    "pulp": "ilp",
    "highspy": "ilp",
    "gbdc": "certify",
    "dratify": "certify",
    "cdclkit": "certify",
    "numba": "fast",
    "mpi4py": "cluster",
}


def require(module: str, purpose: str):
    """``import module``, or MissingDependency (exit 2) with one line naming the extra:
    ``solve --method ilp needs pulp: pip install 'coinsat[ilp]'``."""
    try:
        return importlib.import_module(module)
    except ImportError:
        extra = EXTRAS.get(module, "all")
        install = f"pip install 'coinsat[{extra}]' (or 'coinsat[all]')"
        raise MissingDependency(f"{purpose} needs {module}: {install}") from None
