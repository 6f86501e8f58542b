"""The grading rules of the coin-moving competition family (``scripts/make_benchmarks.py``).

* Where an expected answer comes from: :func:`study_optimum` (the V-family study's results,
  an ``optimal`` run and the certificates accepted for it), :func:`scale_optima` (the large
  members whose layers certificate a fresh process checked and accepted with the claim
  "optimal: L moves"); a rejected or unchecked certificate gives nothing.
* How hard a file is, from the rows of ``scripts/competition_times.py`` (:func:`read_times`):
  :func:`grade` by CaDiCaL's CPU seconds, easy (< 10 s), medium (< 1000 s), hard (stopped at a
  cap of >= 1000 s with the answer known), or "not graded (cap N s)" when a smaller cap
  stopped it (at least that slow, never called hard); "MISMATCH" when a solver's answer
  contradicts the expected one.  :func:`file_grade`: where CaDiCaL 1.9.5 (PySAT) left a file
  ungraded, the ``cadical`` program's run grades it, and the grade says so.
* :func:`check`: one CNF solved by CaDiCaL 1.9.5 (PySAT) in a subprocess killed at a limit.
"""

from __future__ import annotations

import csv
import json
import sys
from pathlib import Path

_CHECK = """
import sys
from pysat.formula import CNF
from pysat.solvers import Solver
with Solver(name="cadical195", bootstrap_with=CNF(from_string=sys.stdin.read()).clauses) as s:
    print("SAT" if s.solve() else "UNSAT")
"""


def check(text: str, seconds: float) -> str:
    """Solve a CNF with CaDiCaL 1.9.5 (PySAT) in a subprocess killed after ``seconds``
    (PySAT cannot interrupt CaDiCaL): SAT, UNSAT or timeout."""
    import subprocess

    try:
        p = subprocess.run([sys.executable, "-c", _CHECK], input=text, capture_output=True, text=True, timeout=seconds)
    except subprocess.TimeoutExpired:
        return "timeout"
    return p.stdout.strip() if p.returncode == 0 else f"error {p.stderr.strip()[-200:]}"


def study_optimum(results: dict, name: str) -> tuple[int | None, str, str | None]:
    """(optimum, how it was found, the accepted certificate of optimum - 1 or None) from the
    V-family study's results (benchmarks/vfamily_results.json)."""
    entry = results.get(name)
    if not entry:
        return None, "", None
    runs = [r for r in entry.get("runs", {}).values() if r.get("status") == "optimal"]
    if not runs:
        return None, "", None
    best = min(runs, key=lambda r: r["seconds"])
    how = f"proven optimal by {best['method']} in {best['seconds']:.0f} s (benchmarks/vfamily_results.json)"
    certs = [
        f"{kind} certificate accepted (checked in {c['check_seconds']:.0f} s; benchmarks/vfamily_results.json)"
        for kind, c in sorted(entry.get("certificates", {}).items())
        if c.get("accepted") and f"optimal: {best['length']} moves" in c.get("claim", "")
    ]
    return best["length"], how, "; ".join(certs) or None


def scale_optima(path: str | None) -> dict[str, tuple[int, str]]:
    """name -> (optimum, source) for the members of scale_proofs.json whose certificate was
    checked and accepted with the claim "optimal: L moves"."""
    if not path:
        return {}
    out = {}
    for name, entry in json.loads(Path(path).read_text()).items():
        check, solve = entry.get("check", {}), entry.get("solve", {})
        claim = check.get("claim", "")
        if check.get("check_ok") and claim.startswith("optimal: "):
            L = int(claim.split()[1])
            out[name] = (
                L,
                f"layers certificate accepted (proven optimal by {solve.get('engine', 'rankbfs')}; checked in "
                f"{check.get('check_cpu', 0):.0f} CPU s; benchmarks/scale-proofs.md)",
            )
    return out


def read_times(paths: list[str]) -> dict[tuple[str, str], dict]:
    """(file without .xz, solver) -> the last row of competition_times.py for it."""
    out: dict[tuple[str, str], dict] = {}
    for p in paths:
        for row in csv.DictReader(open(p, encoding="utf-8")):
            out[(row["file"].removesuffix(".xz"), row["solver"])] = row
    return out


def timing(row: dict | None) -> str:
    if row is None:
        return ""
    return f"{row['answer']} {float(row['cpu_seconds']):.0f} s"


def grade(row: dict | None, expected: str) -> str:
    """easy / medium / hard by CPU seconds (module docstring); '' when not timed."""
    if row is None:
        return ""
    cpu, cap = float(row["cpu_seconds"]), float(row["cap"])
    if row["answer"] in ("SAT", "UNSAT"):
        if row["answer"] != expected:
            return "MISMATCH"
        return "easy" if cpu < 10 else ("medium" if cpu < 1000 else "hard")
    if row["answer"].startswith("timeout"):  # the CPU seconds measured, a little under the cap
        return "hard" if cap >= 1000 else f"not graded (cap {cap:g} s)"
    return row["answer"]


def file_grade(rows: dict[str, dict | None], expected: str) -> str:
    """The grade by CaDiCaL 1.9.5 (PySAT); where its runs leave the file ungraded (a cap
    below 1000 s), the grade the ``cadical`` program's run gives, named as such."""
    first = grade(rows["cadical-pysat"], expected)
    if first and not first.startswith("not graded"):
        return first
    other = grade(rows["cadical-bin"], expected)
    if other and not other.startswith("not graded"):
        return f"{other} (by cadical sc2021)"
    return first or other


def short_source(text: str) -> str:
    """The certificate or solution an answer rests on, in a few words (the manifest has it all)."""
    for key, short in (
        ("layers certificate", "layers certificate"),
        ("drat certificate", "DRAT certificate"),
        ("verified solution", "verified solution"),
        ("known_optimal", "known optimum, tested"),
    ):
        if key in text:
            return short
    return text.split(" (")[0]


def cpu_of(timing_text: str) -> float | None:
    """The CPU seconds of a timing cell ("UNSAT 89 s", "timeout 109 s"); None when not timed."""
    parts = timing_text.split()
    return float(parts[-2]) if len(parts) >= 3 and parts[-1] == "s" else None
