"""Registries by name: ``name -> "module:function"``, imported on first use.

A missing optional dependency then breaks only the entry that needs it, and
the CLI can list every name without importing anything (pyperplan's
SEARCHES, PuLP's getSolver).
"""

from __future__ import annotations

import importlib
from typing import Callable, Mapping

from .errors import MissingDependency, UsageError


def load(registry: Mapping[str, str], name: str, what: str) -> Callable:
    """The function registered as ``name``; UsageError (exit 2) if unknown or unavailable."""
    try:
        target = registry[name]
    except KeyError:
        raise UsageError(f"unknown {what} {name!r} (choose from {', '.join(registry)})") from None
    module, func = target.split(":")
    try:
        return getattr(importlib.import_module(module), func)
    except (ImportError, AttributeError) as e:
        raise UsageError(f"{what} {name!r} is not available (optional dependency?): {e}") from None


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
