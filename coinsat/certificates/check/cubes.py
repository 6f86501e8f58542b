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
dropped before the next, so memory grows with the largest proof, not their sum.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import Callable

MAX_CUBES = 1 << 16


def _problem(cert: dict, nvars: int) -> str | None:
    cubes, proofs = cert.get("cubes"), cert.get("cube_proofs")
    if not isinstance(cubes, list) or not cubes or len(cubes) > MAX_CUBES:
        return f"the cubes must be a list of 1 to {MAX_CUBES} cubes"
    if not isinstance(proofs, list) or len(proofs) != len(cubes):
        return "there must be one cube proof per cube"
    for i, cube in enumerate(cubes):
        if (
            not isinstance(cube, list)
            or not cube
            or not all(isinstance(x, int) and not isinstance(x, bool) and 0 < abs(x) <= nvars for x in cube)
        ):
            return f"cube {i} is not a non-empty list of literals of the CNF's {nvars} variables"
    names = proofs + [cert.get("cover_proof")]
    if not all(isinstance(n, str) and n and os.path.basename(n) == n and n not in (".", "..") for n in names):
        return "proof files must be plain file names beside the certificate"
    return None


def _with_clauses(base: str, extra: list[list[int]]) -> str:
    """The DIMACS text ``base`` with ``extra`` clauses appended (header count updated)."""
    lines = base.splitlines()
    for k, line in enumerate(lines):
        if line.startswith("p cnf "):
            _, _, v, c = line.split()
            lines[k] = f"p cnf {v} {int(c) + len(extra)}"
            break
    return "\n".join(lines + [" ".join(map(str, c)) + " 0" for c in extra]) + "\n"


def check_cubes(
    cnf_path: Path,
    nvars: int,
    cert: dict,
    base_dir: Path,
    deadline: float | None,
    drat: Callable[[Path, Path, float | None], tuple[bool, str, int]],
) -> tuple[bool, str, int]:
    """(ok, why, proof steps) for the cube and cover proofs of F = ``cnf_path``."""
    problem = _problem(cert, nvars)
    if problem:
        return False, problem, 0
    cubes: list[list[int]] = cert["cubes"]
    files = [base_dir / p for p in cert["cube_proofs"]] + [base_dir / cert["cover_proof"]]
    missing = [str(p) for p in files if not p.is_file()]
    if missing:
        return False, f"missing file {missing[0]}", 0
    base = cnf_path.read_text(encoding="utf-8")
    jobs = [(f"cube {i}", [[lit] for lit in cube], files[i]) for i, cube in enumerate(cubes)]
    jobs.append(("the cover", [[-lit for lit in cube] for cube in cubes], files[-1]))
    steps = 0
    fd, tmp = tempfile.mkstemp(suffix=".cnf")
    os.close(fd)
    try:
        for what, extra, proof in jobs:
            Path(tmp).write_text(_with_clauses(base, extra), encoding="utf-8")
            ok, why, n = drat(Path(tmp), proof, deadline)
            if not ok:
                return False, f"{what}: DRAT proof rejected: {why}", 0
            steps += n
    finally:
        os.unlink(tmp)
    return True, f"{len(cubes)} cube proofs and the cover proof, {steps} proof steps checked", steps
