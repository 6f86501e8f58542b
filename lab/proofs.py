"""The proof ledger's rule: what a checked proof run makes of a puzzle's stored solution.

A family member's shortest known solution is kept as ``solutions/NAME.json`` beside its
instance file (``instances/families/``).  A proof run (``scripts/scale_bench.py --sections
proofs``) solves the member with a bound-and-prune search and writes a certificate that a
fresh process checks.  :func:`keep_solution` decides, from the run's answer and the check,
what the ledger may now say:

* the run answered ``bounded`` with lower bound L ("no solution with <= L - 1 moves"), the
  certificate was accepted, and the stored solution has exactly L moves (replayed here by
  ``rules.py``): the stored solution is **optimal**;
* the run answered ``optimal`` with an accepted certificate: its solution is optimal; it
  replaces the stored one only when shorter and ``coinsat verify`` accepts it;
* anything else (an unchecked or rejected certificate, ``unknown``, a bound short of the
  stored length) proves nothing about optimality, and nothing is written.

Optimal means a verified solution of length L and a checked proof that L - 1 moves do not
suffice; neither half alone is enough.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from coinsat.instance import Instance
from coinsat.io.solution_format import read_solution
from coinsat.solution import verify


def known_length(instance: Instance, solution_file: Path) -> int | None:
    """The length of the solution stored in ``solution_file``, replayed here by rules.py
    (None when there is no file or the solution does not reach the goal)."""
    if not solution_file.exists():
        return None
    ext, sol = read_solution(instance, solution_file)
    return len(sol) if verify(ext, sol, keep_trace=False).ok else None


def keep_solution(
    instance_file: Path, solution_file: Path, known: int | None, solved: dict, check: dict, label: str | None = None
) -> str:
    """Apply the module's rule for one proof run; what was done, in words.

    ``known`` is :func:`known_length` of ``solution_file``; ``solved`` the run's answer (``status``,
    ``length``, ``lower_bound``, ``solution_out``: the file its solution was written to); ``check``
    the fresh process's verdict on its certificate (``check_ok``).  A new optimal solution is
    copied to ``solution_file`` only when ``coinsat verify`` accepts it against ``instance_file``;
    ``label`` names that file in the answer (default: the path as given).
    """
    bound = solved.get("lower_bound")
    if solved.get("status") == "bounded" and check.get("check_ok") and known is not None and bound == known:
        # "no solution with <= known - 1 moves" (checked) and a verified solution of known moves: optimal
        return f"the stored one ({known} moves): optimal, since no solution has <= {known - 1} moves"
    if solved.get("status") != "optimal" or not check.get("check_ok"):
        return "none kept (not proved optimal with a checked certificate)"
    if known is not None and known <= solved["length"]:
        return f"the stored one ({known} moves, now proved optimal)"
    src = Path(solved.get("solution_out", ""))
    if not src.is_file():
        return "none kept (the run wrote no solution file)"
    v = subprocess.run(
        [sys.executable, "-m", "coinsat", "verify", str(instance_file), str(src)], capture_output=True, text=True
    )
    if v.returncode != 0:
        return f"not kept: coinsat verify exit {v.returncode}"
    solution_file.parent.mkdir(parents=True, exist_ok=True)
    solution_file.write_text(src.read_text())
    return f"written to {label or solution_file} (coinsat verify: ok)"
