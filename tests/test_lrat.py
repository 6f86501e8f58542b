"""LRAT proofs: the linear check (certificates/check/lrat.py) and the DRAT-to-LRAT converter
(certificates/prove/lrat.py).

The check is held to small proofs written by hand, each forged one way (a hint out of order,
a clause used after its deletion, a RAT hint, an id that does not grow, no empty clause); the
converter to refutations of random unsatisfiable formulas by PySAT's CaDiCaL, whose LRAT the
check must accept, and to hand-made DRAT proofs with the cases its docstring names (a deleted
reason of a root literal, a lemma true at the root, a lemma that is not RUP).
"""

from __future__ import annotations

import random

import pytest
from pysat.solvers import Solver

from coinsat.certificates.check.lrat import check_lrat
from coinsat.certificates.prove.lrat import drat_to_lrat

# (1 2) (-1 2) (1 -2) (-1 -2): every assignment of two variables falsifies one clause
SQUARE = [[1, 2], [-1, 2], [1, -2], [-1, -2]]
GENUINE = "5 2 0 1 2 0\n6 0 5 3 4 0\n"


def ok(clauses, text: str) -> bool:
    return check_lrat(clauses, text.encode())[0]


def test_a_hand_written_lrat_proof_is_accepted():
    assert check_lrat(SQUARE, GENUINE.encode()) == (True, "LRAT proof verified (2 lemmas, each by its hints)", 2)
    assert ok(SQUARE, "c a comment\n5 2 0 1 2 0\n5 d 1 2 0\n6 0 5 3 4 0\n")  # deletions after the last use


@pytest.mark.parametrize(
    "forged",
    [
        "5 2 0 3 1 0\n6 0 5 3 4 0\n",  # a hint that is not unit: (1 -2) is satisfied by -2
        "5 2 0 1 0\n6 0 5 3 4 0\n",  # a hint missing: no conflict
        "5 2 0 1 2 3 0\n6 0 5 3 4 0\n",  # a hint after the conflict
        "5 2 0 1 2 0\n5 d 3 0\n6 0 5 3 4 0\n",  # clause 3 used after its deletion
        "5 2 0 1 2 0\n6 0 5 -3 4 0\n",  # a RAT hint
        "5 2 0 1 2 0\n4 0 5 3 4 0\n",  # an id that does not grow
        "5 2 0 1 2 0\n",  # no empty clause
        "5 2 0 1 2 0\n6 0 7 3 4 0\n",  # a hint that names no clause
        "5 2 0 1 2 0\n6 0 5 3 4\n",  # no final 0
        "5 2 0 1 2 0\n6 d 9 0\n6 0 5 3 4 0\n",  # a deletion of no clause
        "5 2 x 1 2 0\n6 0 5 3 4 0\n",  # not a number
    ],
)
def test_forged_lrat_proofs_are_rejected(forged):
    assert not ok(SQUARE, forged)
    assert ok(SQUARE, GENUINE)


def test_a_formula_with_the_empty_clause_is_refuted_by_naming_it():
    assert ok([[1], []], "3 0 2 0\n")
    assert drat_to_lrat([[1], []], []) == ["3 0 2 0"]


def _check_converted(clauses, drat) -> list[str]:
    lines = drat_to_lrat(clauses, drat)
    good, why, _ = check_lrat(clauses, ("\n".join(lines) + "\n").encode())
    assert good, why
    return lines


def test_a_hand_made_drat_proof_is_converted():
    lines = _check_converted(SQUARE, ["2 0", "d 1 2 0", "0"])
    assert lines[-1].split()[1] == "0"  # the empty clause last


def test_a_deleted_reason_of_a_root_literal_is_kept_and_a_root_true_lemma_is_shown():
    # (1) is a unit, (-1 2) makes 2 true at the root, and with 2 the last four clauses are unsatisfiable
    clauses = [[1], [-1, 2], [-2, 3, 4], [-2, 3, -4], [-2, -3, 4], [-2, -3, -4]]
    lines = _check_converted(clauses, ["d -1 2 0", "3 0", "0"])  # the deletion of 2's reason is not carried out
    assert any(line.split()[1:3] == ["2", "0"] for line in lines)  # 2 got its own unit lemma
    _check_converted(clauses, ["2 4 0", "3 0", "0"])  # (2 4) is satisfied at the root


def test_a_lemma_that_is_not_rup_is_refused():
    with pytest.raises(ValueError, match="not RUP"):
        drat_to_lrat([[1, 2], [-1, 2]], ["1 0", "0"])
    with pytest.raises(ValueError, match="does not refute"):
        drat_to_lrat([[1, 2], [-1, 2]], ["2 0"])


def _random_unsat(rng: random.Random, n: int) -> list[list[int]]:
    while True:
        clauses = [[v * rng.choice((1, -1)) for v in rng.sample(range(1, n + 1), 3)] for _ in range(int(4.6 * n))]
        with Solver(name="minisat22", bootstrap_with=clauses) as s:
            if not s.solve():
                return clauses


def test_cadical_refutations_of_random_formulas_become_lrat_that_the_check_accepts():
    from coinsat.backends.sat_backend import prove

    rng = random.Random(43)
    sizes = []
    for _ in range(12):
        clauses = _random_unsat(rng, rng.randrange(20, 45))
        refutation = prove(clauses, "cadical195")
        lines = _check_converted(clauses, refutation.proof)
        broken = [line for line in lines if " d " not in line]
        sizes.append(len(broken))
        if len(broken) > 2:  # a hint dropped from the empty clause's line: rejected
            last = broken[-1].split()
            cut = " ".join(last[:-2] + ["0"])
            assert not check_lrat(clauses, ("\n".join(lines[:-1] + [cut]) + "\n").encode())[0]
    assert max(sizes) > 5  # some proofs had work to do
