"""Backends run formulas and answer one :class:`Outcome`; they know nothing about coins.

``sat_backend`` runs CNF with PySAT, ``ilp_backend`` runs 0-1 programs with PuLP;
both report ``SAT`` (a model), ``UNSAT`` (a proof that none exists) or
``UNKNOWN`` (a limit was hit: never a guess).
"""

from __future__ import annotations

from .._names import Name


class Outcome(Name):
    """What a backend can say about a formula (the value is what JSON and tables show)."""

    SAT = "SAT"
    UNSAT = "UNSAT"
    UNKNOWN = "UNKNOWN"
