"""The one-line reprs a person sees in a REPL or notebook: status, length, engine; no field dump."""

from __future__ import annotations

from coinsat.io.instance_format import read_instance
from coinsat.result import Status
from coinsat.solve import solve


def test_an_optimal_result_reads_as_one_line():
    r = solve(read_instance("instances/paper/diagonal.toml"), "spanbfs")
    text = repr(r)
    assert text.startswith("<Result optimal, 18 moves (engine spanbfs, ")
    assert "\n" not in text and "Move(" not in text


def test_an_unsolvable_result_names_its_scope():
    r = solve(read_instance("instances/paper/one-extra.toml"))
    assert r.status is Status.UNSOLVABLE
    assert "unsolvable" in repr(r) and f"scope {r.certificate.scope.value}" in repr(r)


def test_a_solution_shows_its_first_moves_and_how_many_more():
    sol = solve(read_instance("instances/paper/diagonal.toml"), "spanbfs").solution
    text = repr(sol)
    first = sol.moves[0]
    assert text.startswith(f"<Solution 18 moves: {first.src}->{first.dst} ")
    assert text.endswith("(10 more)>")
