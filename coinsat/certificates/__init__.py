"""Certificates: checkable reasons behind every "no" (and every optimality claim).

Kinds (one JSON file each; the shared header is :mod:`.check.format`):

* ``invariant``  (scope global) — coin counts, no legal move, goal outside a
  closed cell set (span), frozen goal (Theorem 1's necessity argument);
* ``closed-set`` (scope global, or window) — configurations closed under
  moves, holding the start and no goal;
* ``bounded``    (scope horizon) — "no solution with <= T moves": a DIMACS CNF,
  its GBD hash and a DRAT proof;
* ``layers``     (scope horizon) — the same claim witnessed by ``spanbfs``'s
  search layers.

Two sides that share only the format:

* :mod:`.check` — the independent checkers (``check_certificate``): each derives
  what its evidence proves and accepts a file only when that implies its claim;
  it imports nothing from :mod:`.prove`, ``coinsat.search`` or ``coinsat.theory``;
* :mod:`.prove` — the provers (finders and builders): the cheap global screens
  (:mod:`.prove.screens`), invariants, closed sets, DRAT proofs, layers, and
  :func:`.prove.make.certify`, which writes a result's certificate and checks it.
"""
