"""Typed variable keys of the SAT encoding and the map key -> DIMACS variable.

Every variable of ``encodings/sat.md`` has a key class below; keys are small
frozen dataclasses (two keys of different classes are never equal, even when
their fields are), numbered through PySAT's :class:`~pysat.formula.IDPool` in
creation order.  The builder creates variables in a fixed order, so the same
instance, horizon and options always give the same numbering.  The solver
never parses a variable's name back: :meth:`VarMap.symbols` only *prints* keys
(the one reader of names is ``io/dimacs.py``, for models that external solvers
return on an exported file).

A variable that the reachability windows (P2) rule out is never created:
:meth:`VarMap.get` returns None for it and the builders read that as the
constant "false".
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Hashable

from pysat.formula import IDPool


@dataclass(frozen=True, slots=True)
class Occ:
    """x[c,t]: cell c holds a coin in configuration C_t."""

    cell: int
    t: int


@dataclass(frozen=True, slots=True)
class Lab:
    """y[l,c,t]: cell c holds a coin of label l in C_t (only with >= 2 labels)."""

    label: str
    cell: int
    t: int


@dataclass(frozen=True, slots=True)
class Fill:
    """f[c,t]: move t drops its coin on c."""

    cell: int
    t: int


@dataclass(frozen=True, slots=True)
class Vac:
    """v[c,t]: move t lifts the coin on c."""

    cell: int
    t: int


@dataclass(frozen=True, slots=True)
class NoOp:
    """n[t]: step t moves nothing (C_t = C_{t-1})."""

    t: int


@dataclass(frozen=True, slots=True)
class Moved:
    """m[l,t]: move t moves a coin of label l (only with >= 2 labels)."""

    label: str
    t: int


@dataclass(frozen=True, slots=True)
class Idle:
    """w[c,t]: the coin on c was placed there and has not yet supported a fill (P4)."""

    cell: int
    t: int


@dataclass(frozen=True, slots=True)
class Tight:
    """k[c,t]: move t fills c and c has exactly d occupied neighbours after it (P5)."""

    cell: int
    t: int


@dataclass(frozen=True, slots=True)
class Near:
    """a[c,t]: move t lifts a coin from c or from a neighbour of c (P6)."""

    cell: int
    t: int


@dataclass(frozen=True, slots=True)
class Edge:
    """q[a,b,t]: cells a < b are adjacent and both hold coins in C_t (P8); with t = -s,
    in the kept set I_s of move s (P10)."""

    a: int
    b: int
    t: int


@dataclass(frozen=True, slots=True)
class Kept:
    """i[c,t]: c holds a coin in both C_{t-1} and C_t (P10)."""

    cell: int
    t: int


@dataclass(frozen=True, slots=True)
class Ladder:
    """Auxiliary of an exactly-one ladder over family ``family`` at step t (C4/C5)."""

    family: str
    t: int
    i: int


@dataclass(frozen=True, slots=True)
class Count:
    """Auxiliary of a cardinality counter: ``what`` at step t has >= j true inputs among the first i."""

    what: str
    owner: int
    t: int
    i: int
    j: int


@dataclass(frozen=True, slots=True)
class OffGoal:
    """e[t,j]: at least j coins of C_t lie off the (fixed) goal (P7)."""

    t: int
    j: int


@dataclass(frozen=True, slots=True)
class Place:
    """z[k]: the goal is reached in its k-th placement (translate/congruent goals)."""

    k: int


@dataclass(frozen=True, slots=True)
class GoalAt:
    """g[T]: selector; when true, C_T is a goal configuration (C8)."""

    t: int


MOVE_KEYS = (Fill, Vac, NoOp)


class VarMap:
    """Typed keys <-> DIMACS variables through one IDPool."""

    def __init__(self, coords: tuple[Hashable, ...]):
        self.pool = IDPool()
        self.coords = coords
        self._fast: dict[tuple, int] = {}  # (key class, *fields) -> id: cheap to hash

    def new(self, cls, *fields) -> int:
        """The variable of the key ``cls(*fields)``, created now if it does not exist yet."""
        k = (cls, *fields)
        v = self._fast.get(k)
        if v is None:
            v = self._fast[k] = self.pool.id(cls(*fields))
        return v

    def get(self, cls, *fields) -> int | None:
        """The variable of ``cls(*fields)``, or None if it was never created (constant false)."""
        return self._fast.get((cls, *fields))

    @property
    def nvars(self) -> int:
        return self.pool.top

    def key(self, var: int):
        return self.pool.obj(var)

    def meaning(self, key) -> str:
        name = type(key).__name__
        parts = []
        for f in key.__slots__:
            val = getattr(key, f)
            if f == "cell" or (f in ("a", "b") and isinstance(key, Edge)):
                val = self.coords[val]
            parts.append(f"{f}={val}")
        return f"{name}({', '.join(parts)})"

    def symbols(self) -> list[tuple[int, str]]:
        """(variable, meaning) for every variable, by variable number."""
        return [(v, self.meaning(self.pool.obj(v))) for v in range(1, self.pool.top + 1)]
