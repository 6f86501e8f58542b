"""Helpers the studies under ``scripts/`` share: a power-law fit and a proven optimum.

They live in the package (not in a script) so that every study, and the tests that
check a study, use one definition.
"""

from __future__ import annotations

import math
from typing import Iterable, Sequence

from coinsat.instance import Instance
from coinsat.result import Status


def fit_power_law(points: Iterable[tuple[float, float]]) -> tuple[float, float] | None:
    """Least squares of log y = k log x + log c over the points with x, y > 0: ``(k, c)``,
    or None with fewer than two distinct x."""
    pts = [(math.log(x), math.log(y)) for x, y in points if x > 0 and y > 0]
    if len(pts) < 2:
        return None
    mx = sum(p[0] for p in pts) / len(pts)
    my = sum(p[1] for p in pts) / len(pts)
    sxx = sum((p[0] - mx) ** 2 for p in pts)
    if sxx == 0:
        return None
    k = sum((p[0] - mx) * (p[1] - my) for p in pts) / sxx
    return k, math.exp(my - k * mx)


def proven_optimum(
    instance: Instance, methods: Sequence[str], time_limit: float, trust_known: bool = False
) -> tuple[int | None, str]:
    """``(L, how)``: an optimal length proven now by the first method that can (or the
    instance's ``known_optimal`` when ``trust_known``); ``(None, why)`` otherwise.  ``why``
    ends in ``"unsolvable"`` when a method proved that there is no solution."""
    if trust_known and instance.known_optimal is not None:
        return instance.known_optimal, "known_optimal (instance file; checked by the test suite)"
    from coinsat import solve

    why = []
    for method in methods:
        r = solve(instance, method, time_limit=time_limit)
        if r.status is Status.OPTIMAL:
            return r.length, f"proven by {r.method} in {r.seconds:.1f} s"
        why.append(f"{r.method}: {r.status.value} after {r.seconds:.1f} s")
        if r.status is Status.UNSOLVABLE:
            break
    return None, "; ".join(why)
