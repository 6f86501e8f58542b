"""Certificates: checkable reasons behind every "no" (and every optimality claim).

Kinds (one JSON file each, see :mod:`coinsat.certificates.common` for the header):

* ``invariant``  (scope global) — coin counts, no legal move, goal outside a
  closed cell set (span), frozen goal (Theorem 1's necessity argument):
  :mod:`~coinsat.certificates.invariant`;
* ``closed-set`` (scope global, or window) — configurations closed under
  moves, holding the start and no goal: :mod:`~coinsat.certificates.closed_set`;
* ``bounded``    (scope horizon) — "no solution with <= T moves": a DIMACS CNF,
  its GBD hash and a DRAT proof: :mod:`~coinsat.certificates.bounded`.

:func:`~coinsat.certificates.check.check_certificate` is the independent
checker; :func:`~coinsat.certificates.screens.screen` the cheap global screens
that the solve driver runs first; :mod:`~coinsat.certificates.make` writes the
certificate of a solve result to a directory and checks it.
"""
