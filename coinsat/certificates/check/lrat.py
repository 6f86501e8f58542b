"""The linear LRAT check of a bounded certificate with ``"proof_format": "lrat"``.

An LRAT proof (text format, as cake_lpr and lrat-check read it) is a list of lines::

    id l_1 ... l_k 0 h_1 ... h_j 0     a lemma: clause id, its literals, its hints
    id d i_1 ... i_j 0                 deletions: the clauses i_1 .. i_j are dropped

The formula's clauses have the ids 1 .. m in the order of the formula (an empty clause
included).  A lemma's id is larger than every id before it.  Its check needs no search:
assign every literal of the lemma false, then take the hints in order; each must name a
live clause with no literal left that is not false (a conflict: the lemma holds, and that
must be the last hint) or exactly one (unit: that literal is made true).  A lemma whose
literals clash (a tautology) holds with any hints.  The proof is accepted when it derives
the empty clause; nothing after that line is read.  Only RUP lemmas: a negative hint (the
RAT form of LRAT) is rejected, since the converter (``prove/lrat.py``) writes none.

Why this proves the formula unsatisfiable: each hint clause, under the lemma's negation
and the literals made true before it, forces its last literal, so the negation of the
lemma with the formula propagates to a conflict: every lemma is implied by the clauses
alive before it, and the empty clause by the formula.  Deleting clauses only weakens what
later lemmas may use.  The cost is the total length of the hint clauses: linear in the
proof with the clauses it names.
"""

from __future__ import annotations

from collections.abc import Sequence


def check_lrat(clauses: Sequence[Sequence[int]], proof: bytes) -> tuple[bool, str, int]:
    """(ok, why, lemmas checked) for the LRAT ``proof`` of the formula ``clauses`` (ids 1..m)."""
    live: dict[int, tuple[int, ...]] = {i: tuple(c) for i, c in enumerate(clauses, start=1)}
    last, lemmas = len(clauses), 0
    for number, line in enumerate(proof.decode("ascii").split("\n"), start=1):
        words = line.split()
        if not words or words[0] == "c":
            continue
        where = f"line {number}"
        try:
            if words[1] == "d":
                ids = [int(w) for w in words[2:]]
                if ids[-1] != 0 or any(i not in live for i in ids[:-1]):
                    return False, f"{where}: a deletion of a clause that is not there (or no final 0)", lemmas
                for i in ids[:-1]:
                    del live[i]
                continue
            numbers = [int(w) for w in words]
        except (ValueError, IndexError):
            return False, f"{where}: not an LRAT line", lemmas
        cid, rest = numbers[0], numbers[1:]
        if numbers.count(0) != 2 or rest[-1] != 0 or cid <= last:
            return False, f"{where}: not 'id literals 0 hints 0' with an id above {last}", lemmas
        split = rest.index(0)
        lits, hints = rest[:split], rest[split + 1 : -1]
        why = _rup(live, lits, hints)
        if why:
            return False, f"{where}: lemma {cid}: {why}", lemmas
        last, lemmas = cid, lemmas + 1
        if not lits:
            return True, f"LRAT proof verified ({lemmas} lemmas, each by its hints)", lemmas
        live[cid] = tuple(lits)
    return False, "the LRAT proof never derives the empty clause", lemmas


def _rup(live: dict[int, tuple[int, ...]], lits: list[int], hints: list[int]) -> str | None:
    """Why the hints do not show the lemma by unit propagation (None: they do)."""
    true = {-lit for lit in lits}
    if any(-lit in true for lit in true):
        return None  # a tautology
    for k, h in enumerate(hints):
        clause = live.get(h)
        if clause is None:
            return f"hint {h} is not a clause here" + (" (RAT hints are not accepted)" if h < 0 else "")
        free = [lit for lit in clause if -lit not in true]
        if not free:
            return None if k == len(hints) - 1 else f"hints after the conflict at hint {h}"
        if len(free) > 1:
            return f"hint {h} is not unit"
        true.add(free[0])
    return "the hints end without a conflict"
