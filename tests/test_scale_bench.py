"""The proof ledger's rule (lab.proofs, used by scripts/scale_bench.py): what a checked
proof run makes of a member's stored solution."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from coinsat.io.instance_format import read_instance
from lab import proofs

FAMILIES = Path(__file__).resolve().parent.parent / "instances" / "families"
SPEC = "vdiag-3-2-nwse"  # its stored solution has 53 moves


def _member(tmp_path: Path) -> tuple[Path, Path, int | None]:
    """A copy of the member's instance and stored solution (the rule may write the solution)."""
    toml, sol = tmp_path / f"{SPEC}.toml", tmp_path / "solutions" / f"{SPEC}.json"
    sol.parent.mkdir()
    shutil.copy(FAMILIES / f"{SPEC}.toml", toml)
    shutil.copy(FAMILIES / "solutions" / f"{SPEC}.json", sol)
    return toml, sol, proofs.known_length(read_instance(toml), sol)


def test_a_checked_bound_meeting_the_stored_solution_makes_it_optimal(tmp_path):
    toml, sol, known = _member(tmp_path)
    assert known == 53  # replayed by rules.py
    ok = {"check_ok": True}
    said = proofs.keep_solution(toml, sol, known, {"status": "bounded", "lower_bound": 53}, ok)
    assert said.startswith("the stored one (53 moves): optimal")
    # a bound one short of the solution, an unchecked bound, or an unknown run prove nothing
    for solved, check in (
        ({"status": "bounded", "lower_bound": 52}, ok),
        ({"status": "bounded", "lower_bound": 53}, {"check_ok": False}),
        ({"status": "unknown", "lower_bound": 53}, ok),
    ):
        assert proofs.keep_solution(toml, sol, known, solved, check).startswith("none kept")


def test_a_shorter_optimal_solution_is_kept_only_when_verify_accepts_it(tmp_path):
    toml, sol, known = _member(tmp_path)
    stored = json.loads(sol.read_text())
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({**stored, "moves": stored["moves"][:-1]}))  # one move short: no goal
    solved = {"status": "optimal", "length": 52, "lower_bound": 52, "solution_out": str(bad)}
    said = proofs.keep_solution(toml, sol, known, solved, {"check_ok": True})
    assert said.startswith("not kept: coinsat verify exit") and json.loads(sol.read_text()) == stored
    assert proofs.known_length(read_instance(toml), tmp_path / "none.json") is None
