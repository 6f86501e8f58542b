"""Options of the SAT encoding (spec: ``encodings/sat.md``, section "Options").

Every pruning or symmetry-breaking family is one boolean.  Each is *sound*:
whenever a solution with at most T moves exists, the formula with the option
on is still satisfiable (the spec proves it, family by family, and the tests
cross-check every option on and off against the BFS oracle).  The defaults
are the fastest sound setting measured by ``scripts/sat_options.py``
(``benchmarks/sat_options.md``).

* ``noop``        N1  no-op steps: "solvable within T" is monotone in T.
* ``noop_last``   P1  no-ops only after the last real move.
* ``windows``     P2  span layers: x[c, t] exists only for c in R_t.
* ``no_return``   P3  the coin placed at step t is not lifted at step t+1.
* ``useful``      P4  a placed coin is lifted again only after it supported
                      a fill (generalises P3).
* ``tight``       P5  with P4: only a fill that *needs* the coin counts.
* ``commute``     P6  of two independent consecutive moves, the one with the
                      smaller destination comes first.
* ``perimeter``   P8  square grid, d = 2: at most K adjacent coin pairs at
                      every step (the span of C_t must keep containing span(B)).
* ``spanning``    P9  square grid, d = 2, goal spanning the whole window box:
                      a coin on every boundary line and in every two adjacent lines.
* ``kept``        P10 P8 and P9 for the coins a move keeps (C_{t-1} & C_t):
                      the lifted coin must be an extra coin.
* ``distinct``    P11 no configuration repeats (C_t != C_u for u <= t - 3).
* ``symmetry``    P12 the first move is the least of its images under the
                      symmetries of the instance.
* ``goal_count``  P7  off-goal counters: at step t at most T - t coins lie
                      off the goal (fixed goals only; implied, redundant).
* ``ladder``      C4/C5 exactly-one by a sequential ladder instead of
                      pairwise clauses.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields, replace


@dataclass(frozen=True)
class EncodingOptions:
    noop: bool = True
    noop_last: bool = True
    windows: bool = True
    no_return: bool = True
    useful: bool = True
    tight: bool = True
    commute: bool = False
    perimeter: bool = True
    spanning: bool = True
    kept: bool = False
    distinct: bool = False
    symmetry: bool = True
    goal_count: bool = False
    ladder: bool = True

    def with_(self, **changes) -> "EncodingOptions":
        return replace(self, **changes)

    def as_dict(self) -> dict[str, bool]:
        return asdict(self)

    @classmethod
    def names(cls) -> tuple[str, ...]:
        return tuple(f.name for f in fields(cls))

    @classmethod
    def naive(cls) -> "EncodingOptions":
        """The naive baseline: no-ops, post-state adjacency, no coin twice in a row."""
        return cls(
            noop=True,
            noop_last=False,
            windows=False,
            no_return=True,
            useful=False,
            tight=False,
            commute=False,
            perimeter=False,
            spanning=False,
            kept=False,
            distinct=False,
            symmetry=False,
            goal_count=False,
            ladder=False,
        )

    @classmethod
    def plain(cls) -> "EncodingOptions":
        """No optional family at all (the definition of the transition relation only)."""
        return cls.naive().with_(no_return=False)


DEFAULT_OPTIONS = EncodingOptions()
