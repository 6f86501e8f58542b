"""The layers checker's symmetry group and canonical forms (``docs/symmetry.md``, Lemma QC).

A ranked layers certificate of a quotient search (``rankbfs`` with its symmetry on) lists, in
the field ``symmetries``, a group H of permutations of the window's positions (the identity
included), and its layers hold one configuration per H-orbit.  Nothing of the list is trusted:
:func:`verified_group` accepts it only when it is a group of automorphisms of the window's
neighbour relation that maps the start onto itself and the set of goal placements onto itself,
the facts Lemma QC needs; the neighbour relation is the layers checker's own
(``ranked.Kernel.nbr``, built from the coordinates).  :func:`canonical` is the checker's own
canonical form: the least colex rank over the images of a configuration (``ranked.Decoder``
ranks them).  Nothing here imports the search or ``coinsat.theory``.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .ranked import Decoder, Kernel

#: the most permutations a file may list (the square grid's point group has 8, the triangular 12)
MAX_ORDER = 12


def verified_group(listed: Any, ker: Kernel, start: list[int], goals: np.ndarray) -> tuple[np.ndarray | None, str]:
    """The nontrivial permutations of ``listed`` (an int64 array (g, n), None when only the
    identity is listed) and "" when the list is a group of automorphisms of the window fixing
    the start and the goal placements (``goals``: rows of sorted positions); else (None, why)."""
    n = ker.n
    if not isinstance(listed, list) or not 1 <= len(listed) <= MAX_ORDER:
        return None, f"symmetries must be a list of 1 .. {MAX_ORDER} permutations"
    perms = []
    for g in listed:
        if not (
            isinstance(g, list)
            and all(isinstance(v, int) and not isinstance(v, bool) for v in g)
            and sorted(g) == list(range(n))
        ):
            return None, f"a symmetry is not a permutation of the positions 0 .. {n - 1}"
        perms.append(tuple(g))
    given = set(perms)
    if len(given) != len(perms):
        return None, "a symmetry is listed twice"
    identity = tuple(range(n))
    if identity not in given:
        return None, "the symmetries do not include the identity"
    if any(tuple(a[b[q]] for q in range(n)) not in given for a in perms for b in perms):
        return None, "the symmetries are not closed under composition (not a group)"
    nbr = [_neighbours(ker, q) for q in range(n)]
    goal_set = {tuple(row) for row in goals.tolist()}
    for g in perms:
        if any({g[p] for p in nbr[q]} != nbr[g[q]] for q in range(n)):
            return None, f"symmetry {list(g)} is not an automorphism of the window's neighbour relation"
        if sorted(g[q] for q in start) != sorted(start):
            return None, f"symmetry {list(g)} moves the start"
        if {tuple(sorted(g[q] for q in row)) for row in goal_set} != goal_set:
            return None, f"symmetry {list(g)} moves the goal"
    rest = [g for g in perms if g != identity]
    return (np.array(rest, dtype=np.int64) if rest else None), ""


def _neighbours(ker: Kernel, q: int) -> set[int]:
    column = ker.nbr[:, q]
    return {64 * w + b for w in range(ker.W) for b in range(64) if int(column[w]) >> b & 1}


def canonical(dec: Decoder, perms: np.ndarray | None, ranks: np.ndarray) -> np.ndarray:
    """The canonical form of each rank: the least rank of its images under ``perms`` and itself
    (the same length and order as ``ranks``; ``ranks`` itself when there is no group)."""
    if perms is None or ranks.size == 0:
        return ranks
    pos = dec.positions(ranks)
    best = np.array(ranks, dtype=np.uint64)
    for g in perms:
        np.minimum(best, dec.ranks(np.sort(g[pos], axis=1)), out=best)
    return best
