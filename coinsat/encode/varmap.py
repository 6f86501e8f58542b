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

from dataclasses import make_dataclass
from typing import Hashable

from pysat.formula import IDPool


def key(name: str, fields: str, doc: str) -> type:
    """A key class: a frozen dataclass ``name`` of the int or str ``fields`` (names separated by
    blanks), documented by ``doc``."""
    cls = make_dataclass(name, fields.split(), frozen=True, slots=True, namespace={"__doc__": doc})
    cls.__module__ = __name__
    return cls


Occ = key("Occ", "cell t", "x[c,t]: cell c holds a coin in configuration C_t.")
Lab = key("Lab", "label cell t", "y[l,c,t]: cell c holds a coin of label l in C_t (only with >= 2 labels).")
Fill = key("Fill", "cell t", "f[c,t]: move t drops its coin on c.")
Vac = key("Vac", "cell t", "v[c,t]: move t lifts the coin on c.")
NoOp = key("NoOp", "t", "n[t]: step t moves nothing (C_t = C_{t-1}).")
Moved = key("Moved", "label t", "m[l,t]: move t moves a coin of label l (only with >= 2 labels).")
Idle = key("Idle", "cell t", "w[c,t]: the coin on c was placed there and has not yet supported a fill (P4).")
Tight = key("Tight", "cell t", "k[c,t]: move t fills c and c has exactly d occupied neighbours after it (P5).")
Near = key("Near", "cell t", "a[c,t]: move t lifts a coin from c or from a neighbour of c (P6).")
Edge = key("Edge", "a b t", "q[a,b,t]: cells a < b adjacent, both with coins in C_t (P8); t = -s: in I_s (P10).")
Kept = key("Kept", "cell t", "i[c,t]: c holds a coin in both C_{t-1} and C_t (P10).")
Ladder = key("Ladder", "family t i", "Auxiliary of an exactly-one ladder over family ``family`` at step t (C4/C5).")
Count = key("Count", "what owner t i j", "counter: ``what`` at step t has >= j true inputs among the first i.")
OffGoal = key("OffGoal", "t j", "e[t,j]: at least j coins of C_t lie off the (fixed) goal (P7).")
Place = key("Place", "k", "z[k]: the goal is reached in its k-th placement (translate/congruent goals).")
GoalAt = key("GoalAt", "t", "g[T]: selector; when true, C_T is a goal configuration (C8).")


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
