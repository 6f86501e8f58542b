"""The paper's theory as code: span and extra coins, Theorem 1 (triangular) as
an exact decider, Theorem 2's hypothesis (square grid).

* :mod:`coinsat.theory.span` — span closure on boards and lattices, square-grid
  rectangles, span-minimality, extra coins and pairs, the ⌈h/2⌉ bound;
* :mod:`coinsat.theory.triangular` — :func:`~coinsat.theory.triangular.decide`;
* :mod:`coinsat.theory.square` — :func:`~coinsat.theory.square.hypothesis`.
"""
