"""The checker of cube-and-conquer evidence for a bounded certificate (``"proof_format": "cubes"``).

Fields (beside those of :mod:`.bounded`, which checks the CNF itself: its hash, and that
it is this instance's formula for this horizon)::

    "cubes": [[lit, ...], ...]        conjunctions of literals of the CNF's variables,
    "cube_proofs": [file, ...]        one DRAT proof per cube, beside the JSON,
    "cover_proof": file               a DRAT proof of the cover.

What it proves: for each i, F ∧ cube_i is unsatisfiable (proof i refutes the CNF plus
the cube's literals as unit clauses), and F ∧ ¬cube_1 ∧ ... ∧ ¬cube_k is unsatisfiable
(the cover proof refutes the CNF plus one clause per negated cube).  Every model of F
satisfies some cube or none; the first case is ruled out by the cube proofs, the second
by the cover proof: F is unsatisfiable.  Nothing about how the cubes were chosen is
trusted.  A cube left out (with its proof) leaves the cover formula satisfiable unless F
alone is refuted by the cover proof — either way the claim stands or the check fails.

The proofs are checked one at a time (streaming): each is read, replayed by dratify and
dropped before the next, so memory grows with the largest proof, not their sum.  Every
proof is replayed against the checker's own formula text plus the cube's clauses (never
a file), after its bytes passed the DIMACS-alphabet check.
"""

from __future__ import annotations

from pathlib import Path
from typing import Callable

from .format import confined_file

MAX_CUBES = 1 << 16

Refute = Callable[[str, Path], "tuple[bool, str, int]"]


def cube_problem(cert: dict, base_dir: Path) -> str | None:
    """Why the cube fields are malformed (None: they are well formed): the shape of the cubes
    and the proof file names, which must be plain names of regular files beside the certificate.
    The literals are checked against the formula's variables by :func:`check_cubes`."""
    cubes, proofs = cert.get("cubes"), cert.get("cube_proofs")
    if not isinstance(cubes, list) or not cubes or len(cubes) > MAX_CUBES:
        return f"the cubes must be a list of 1 to {MAX_CUBES} cubes"
    if not isinstance(proofs, list) or len(proofs) != len(cubes):
        return "there must be one cube proof per cube"
    for i, cube in enumerate(cubes):
        literals = isinstance(cube, list) and all(isinstance(x, int) and not isinstance(x, bool) for x in cube)
        if not cube or not literals:
            return f"cube {i} is not a non-empty list of literals"
    for i, name in enumerate(proofs + [cert.get("cover_proof")]):
        _, why = confined_file(base_dir, name, "the cover proof" if i == len(proofs) else f"cube {i}'s proof")
        if why:
            return why
    return None


def _variables(formula: str) -> int:
    """The variable count of the checker's own formula text (its ``p cnf V C`` line)."""
    for line in formula.split("\n"):
        if line.startswith("p cnf "):
            return int(line.split()[2])
    raise ValueError("the checker's formula has no 'p cnf' line")


def _with_clauses(base: str, extra: list[list[int]]) -> str:
    """The checker's DIMACS text ``base`` with ``extra`` clauses appended (header count
    updated).  ``base`` is text the checker wrote: lines end at ``\\n`` only."""
    lines = base.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    for k, line in enumerate(lines):
        if line.startswith("p cnf "):
            _, _, v, c = line.split()
            lines[k] = f"p cnf {v} {int(c) + len(extra)}"
            break
    return "\n".join(lines + [" ".join(map(str, c)) + " 0" for c in extra]) + "\n"


def check_cubes(formula: str, cert: dict, base_dir: Path, refute: Refute) -> tuple[bool, str, int]:
    """(ok, why, proof steps) for the cube and cover proofs of F = ``formula``, the text the
    checker wrote itself (:func:`.bounded.formula_text`); ``refute(text, proof)`` replays
    one DRAT proof against a text.  :func:`cube_problem` has passed the fields."""
    nvars = _variables(formula)
    cubes: list[list[int]] = cert["cubes"]
    for i, cube in enumerate(cubes):
        if not all(0 < abs(x) <= nvars for x in cube):
            return False, f"cube {i} is not a list of literals of the formula's {nvars} variables", 0
    files = [base_dir / p for p in cert["cube_proofs"]] + [base_dir / cert["cover_proof"]]
    jobs = [(f"cube {i}", [[lit] for lit in cube], files[i]) for i, cube in enumerate(cubes)]
    jobs.append(("the cover", [[-lit for lit in cube] for cube in cubes], files[-1]))
    steps = 0
    for what, extra, proof in jobs:
        ok, why, n = refute(_with_clauses(formula, extra), proof)
        if not ok:
            return False, f"{what}: DRAT proof rejected: {why}", 0
        steps += n
    return True, f"{len(cubes)} cube proofs and the cover proof, {steps} proof steps checked", steps
