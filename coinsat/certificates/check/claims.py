"""Claims: what a certificate says, and what a checker proved, as one small value.

A certificate file carries its claim as text (``"claim"``); the checkers never
echo it.  Each checker derives a :class:`Claim` from the instance and the
evidence alone, and :func:`judge` accepts the file only when that derived
claim *implies* the file's claim.  So a forged file may claim less than its
evidence proves (a weaker claim is still true), never more.

The four statements, and the text forms the certificate builders write::

    unsolvable                      no solution at all
    no solution with <= T moves     every solution needs more than T moves
    a solution of N moves           a solution of N moves exists (replayed by rules.py)
    optimal: N moves                both: a solution of N moves, none with <= N - 1

Combined forms are ``"optimal: N moves (no solution with <= N-1 moves)"`` and
``"a solution of N moves (no solution with <= T moves)"``.  A negative part
may end in ``" inside the window"``: it then speaks only of solutions that stay
inside the instance's finite window (a triangular window that is not exact).
"0 moves" is optimal by itself: ``"optimal: 0 moves"``.

Implication (``proven.implies(claimed)``):

* a claimed solution length must be the proven one;
* a claimed bound T needs a proven bound >= T, or proven unsolvability;
* claimed unsolvability needs proven unsolvability;
* a global negative claim needs a global proof; a window claim accepts either
  (every solution inside the window is a solution).

The scope word of the file must be the scope of its claim: ``global`` for
unsolvable, ``window`` for unsolvable inside the window, ``horizon`` for
everything else (bounds and solutions).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_WINDOW = " inside the window"
#: a number as Python's str(int) spells it: ASCII digits, no leading zero ("03" is no claim)
_N = r"(0|[1-9][0-9]*)"
_BOUND = r"no solution with <= " + _N + r" moves((?: inside the window)?)"
_FORMS = (
    ("unsolvable", re.compile(r"unsolvable((?: inside the window)?)")),
    ("bound", re.compile(_BOUND)),
    ("optimal", re.compile(r"optimal: " + _N + r" moves(?: \(" + _BOUND + r"\))?")),
    ("solution", re.compile(r"a solution of " + _N + r" moves(?: \(" + _BOUND + r"\))?")),
)


@dataclass(frozen=True)
class Claim:
    """``solution``: a verified solution of this many moves exists; ``bound``: no solution
    with <= bound moves; ``unsolvable``: no solution at all; ``window``: the negative part
    is proven only for solutions inside the instance's window."""

    solution: int | None = None
    bound: int | None = None
    unsolvable: bool = False
    window: bool = False

    def __post_init__(self) -> None:
        if self.unsolvable and (self.solution is not None or self.bound is not None):
            raise ValueError("an unsolvable claim has neither a solution nor a bound")
        if self.bound is not None and self.solution is not None and self.bound >= self.solution:
            raise ValueError(f"a solution of {self.solution} moves contradicts 'none with <= {self.bound}'")
        if self.bound is not None and self.bound < 0 or self.solution is not None and self.solution < 0:
            raise ValueError("move counts are >= 0")

    @property
    def optimal(self) -> bool:
        return self.solution == 0 or (self.solution is not None and self.bound == self.solution - 1)

    @property
    def scope(self) -> str:
        if self.unsolvable:
            return "window" if self.window else "global"
        return "horizon"

    def text(self) -> str:
        where = _WINDOW if self.window else ""
        if self.unsolvable:
            return "unsolvable" + where
        bound = None if self.bound is None else f"no solution with <= {self.bound} moves{where}"
        if self.solution is None:
            return bound or "nothing"
        if self.solution == 0:
            return "optimal: 0 moves"
        head = f"{'optimal:' if self.optimal else 'a solution of'} {self.solution} moves"
        return head if bound is None else f"{head} ({bound})"

    def implies(self, other: "Claim") -> bool:
        if other.solution is not None and other.solution != self.solution:
            return False
        if other.unsolvable and not self.unsolvable:
            return False
        if other.bound is not None and not (self.unsolvable or (self.bound is not None and self.bound >= other.bound)):
            return False
        negative = other.unsolvable or other.bound is not None
        return not (negative and self.window and not other.window)


def parse_claim(text: object) -> Claim:
    """The :class:`Claim` a certificate's text states; ValueError if it is none of the forms."""
    if not isinstance(text, str):
        raise ValueError(f"the claim must be a text, not {type(text).__name__}")
    for form, pattern in _FORMS:
        m = pattern.fullmatch(text)
        if m is None:
            continue
        if form == "unsolvable":
            return Claim(unsolvable=True, window=bool(m.group(1)))
        if form == "bound":
            return Claim(bound=int(m.group(1)), window=bool(m.group(2)))
        n, bound, window = int(m.group(1)), m.group(2), bool(m.group(3))
        if form == "optimal":
            if n > 0 and bound is None:
                raise ValueError(f"'optimal: {n} moves' must say which bound makes it optimal")
            if bound is not None and int(bound) != n - 1:
                raise ValueError(f"'optimal: {n} moves' needs the bound {n - 1}, not {bound}")
            return Claim(solution=n, bound=None if n == 0 else n - 1, window=window)
        claim = Claim(solution=n, bound=None if bound is None else int(bound), window=window)
        if claim.optimal:  # "a solution of N (none <= N-1)" is the optimal form, spelled otherwise
            raise ValueError(f"say 'optimal: {n} moves' for a solution of {n} moves with none shorter")
        return claim
    raise ValueError(f"{text!r} is not a claim this checker knows")


def judge(proven: Claim, cert: dict) -> tuple[bool, str]:
    """Does ``proven`` (what the checker derived) imply the file's claim, in the file's scope?"""
    try:
        claimed = parse_claim(cert.get("claim"))
    except ValueError as e:
        return False, f"unreadable claim: {e}"
    if cert.get("scope") != claimed.scope:
        return False, f"the claim {claimed.text()!r} has scope {claimed.scope}, not {cert.get('scope')!r}"
    if not proven.implies(claimed):
        return False, (f"the evidence proves {proven.text()!r}, which does not imply the claim {claimed.text()!r}")
    return True, ""
