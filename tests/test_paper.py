"""The paper's puzzles give their known optimal counts (and the unsolvable ones are unsolvable)."""

from pathlib import Path

import pytest

from coinsat.io.instance_format import read_instance
from coinsat.result import Status
from coinsat.search.bfs import solve_bfs
from coinsat.solution import verify

PAPER = sorted(Path("instances/paper").glob("*.toml"))
SLOW = {"vee-2-2", "tri2oline"}  # 10-30 s with BFS: covered by the SAT tests and scripts


def _params():
    for p in PAPER:
        marks = [pytest.mark.slow] if p.stem in SLOW else []
        yield pytest.param(p, marks=marks, id=p.stem)


@pytest.mark.parametrize("path", list(_params()))
def test_paper_instance_bfs(path):
    inst = read_instance(path)
    r = solve_bfs(inst)
    expected = dict(inst.metadata).get("expected")
    if expected == "unsolvable":
        assert r.status is Status.UNSOLVABLE and r.certificate["scope"] == "global"
        return
    assert inst.known_optimal is not None
    assert r.length == inst.known_optimal
    assert verify(inst, r.solution).ok
    if inst.board.exact or inst.exact_within(inst.known_optimal - 1):
        assert r.status is Status.OPTIMAL
