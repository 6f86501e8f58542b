"""A lower bound for the V-to-diagonal family that holds for every n (docs/v-to-diagonal.md).

**Theorem LB.**  Every solution of V(a, b) -> ``target`` (``families.vdiag``; solvable iff
b >= a - 1, Lemma U) has at least :func:`lower_bound` (a, b, target) moves:

    LB = tau(J) + 1   for (target, b) = (SW-NE, a) or (NW-SE, a - 1),
    LB = tau(J - 1)   otherwise,            J = a + b,  tau(j) = j (j + 3) / 2,

that is LB >= (s - 2)(s - 3) / 2 = s^2/2 - O(s) in the box side s = a + b + 2 = n - 2.

The proof is Lemma S (span layers of the V): the span layer R_t (``theory/reach.py``, Lemma W:
every coin at step t lies in R_t, and a cell is filled at step t only if it lies in R_t) of
the far corners of the box is at least tau(J) or tau(J - 1), because the layers can only
cross each new strip of the V's square one cell per step.  A goal cell that is not a start
coin needs a move that fills it, at a step >= its layer; two such cells need two steps.

:func:`corner_layers` gives, per corner of the box, the bound of Lemma S on its layer (the
tests compare it with the layers computed by ``reach.layer_steps``).
"""

from __future__ import annotations

__all__ = ["tau", "corner_layers", "lower_bound", "far_corners"]


def tau(j: int) -> int:
    """tau(j) = 2 + 3 + ... + (j + 1) = j (j + 3) / 2: Lemma S's bound on the layer of the corner
    where coin j + 1 attaches (the squares after j coins have side j + 2)."""
    return j * (j + 3) // 2


def _check(a: int, b: int, target: str) -> None:
    if a < 1 or not a - 1 <= b <= a:
        raise ValueError(f"V({a},{b}) -> a diagonal is solvable only for b in (a-1, a) (Lemma U)")
    if target not in ("nwse", "swne"):
        raise ValueError(f"target must be nwse or swne, not {target!r}")


def corner_layers(a: int, b: int) -> dict[str, int]:
    """Lemma S's lower bounds on the span layers of the box's corners: 'TL', 'TR', 'BL', 'BR'
    (the corner holding the last coin of the V has layer 0).  The last coin, number J = a + b,
    lies off the top-right corner when b = a - 1 and off the top-left when b = a; the strip it
    opens ends at the other top corner and at the bottom corner below it (tau(J)), the
    fourth corner closed the strip before (tau(J - 1))."""
    j = a + b
    if b == a - 1:  # last coin at TR
        return {"TR": 0, "TL": tau(j), "BR": tau(j), "BL": tau(j - 1)}
    return {"TL": 0, "TR": tau(j), "BL": tau(j), "BR": tau(j - 1)}


def far_corners(target: str) -> tuple[str, str]:
    """The two corners of the box that the target diagonal holds."""
    return ("BL", "TR") if target == "swne" else ("TL", "BR")


def lower_bound(a: int, b: int, target: str = "nwse") -> int:
    """LB(a, b, target) of Theorem LB (module docstring)."""
    _check(a, b, target)
    layers = corner_layers(a, b)
    c1, c2 = (layers[c] for c in far_corners(target))
    if c1 and c2:  # two cells to fill, both at steps >= their layers, at distinct steps
        return max(min(c1, c2) + 1, max(c1, c2))
    return max(c1, c2)
