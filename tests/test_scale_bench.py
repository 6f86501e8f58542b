"""scripts/scale_bench.py's rule for what a proof run makes of a member's stored solution."""

from __future__ import annotations

from .test_study_scripts import _load


def test_a_checked_bound_meeting_the_stored_solution_makes_it_optimal():
    bench = _load("scale_bench")
    spec = "vdiag-3-2-nwse"  # its stored solution has 53 moves, replayed by known_length
    assert bench.known_length(spec) == 53
    ok = {"check_ok": True}
    said = bench.keep_solution(spec, {"status": "bounded", "lower_bound": 53}, ok)
    assert said.startswith("the stored one (53 moves): optimal")
    # a bound one short of the solution, an unchecked bound, or an unknown run prove nothing
    for solved, check in (
        ({"status": "bounded", "lower_bound": 52}, ok),
        ({"status": "bounded", "lower_bound": 53}, {"check_ok": False}),
        ({"status": "unknown", "lower_bound": 53}, ok),
    ):
        assert bench.keep_solution(spec, solved, check).startswith("none kept")
