"""The answer of a grown search (``search/grown.py``; docs/grown-windows.md, Lemmas E and G5),
with stand-in searches: the windows the loop hands out, and the answer of every way it ends."""

from __future__ import annotations

import pytest

from coinsat.io.instance_format import read_instance
from coinsat.limits import Limits
from coinsat.result import Evidence, Status
from coinsat.search.grown import Answer, Grown, Proved, WindowAnswer, grow
from coinsat.solution import Solution
from coinsat.theory.reach import exact_for


def _pyramid():
    return read_instance("instances/paper/pyramid-to-line.toml")


class _None:
    """Answers "none with <= H moves" on every window, and records what it was given."""

    bounded_by = "stand-in"

    def __init__(self):
        self.rounds: list[tuple] = []

    def run(self, window, horizon, states):
        self.rounds.append((window, horizon, states))
        return WindowAnswer(Proved.NONE, horizon, states=10)

    def inside(self):
        pytest.fail("no solution was found, so none needs replacing")


def test_every_round_gets_a_window_exact_for_its_horizon():
    inst = _pyramid()
    search = _None()
    g = grow(inst, search, Limits(), max_moves=6, max_states=1000)
    horizons = [h for _, h, _ in search.rounds]
    assert horizons and horizons == sorted(set(horizons)) and horizons[-1] <= 6
    for window, h, _ in search.rounds:
        assert exact_for(window, h)  # Lemma E's hypothesis, on every window handed out
    assert [s for _, _, s in search.rounds] == [1000 - 10 * k for k in range(len(horizons))]  # one budget
    assert [r["horizon"] for r in g.rounds] == horizons and all(r["answer"] == "none" for r in g.rounds)
    assert g.answer() == Answer(Status.BOUNDED, None, 7, Evidence("stand-in", "horizon", horizon=6))
    assert set(g.stats()) == {"windows", "window", "grown"}


def test_a_solution_leaving_the_window_is_replaced_by_the_one_inside():
    inst = _pyramid()
    known = inst.known_optimal

    class Outside:
        """Finds a "solution" through a cell outside the instance's window (none while there is none)."""

        bounded_by = "stand-in"
        kept: Solution | None = None

        def run(self, window, horizon, states):
            far = [c for c, xy in enumerate(window.board.coords) if not inst.board.has(xy)]
            if not far:
                return WindowAnswer(Proved.NONE, horizon)
            near = next(iter(window.start.cells))
            return WindowAnswer(Proved.FOUND, horizon - 1, Solution.of([(near, far[0])] * horizon), states=1)

        def inside(self):
            return self.kept

    search = Outside()
    g = grow(inst, search, Limits(), max_moves=known)
    assert g.kind is Proved.OUTSIDE and g.outside == g.rounds[-1]["horizon"] and g.stats()["outside"] == g.outside
    assert g.answer() == Answer(Status.UNKNOWN, None, g.lower_bound)
    # an inside solution longer than the proven bound is feasible with that bound
    moves = [(0, 1)] * (g.lower_bound + 1)
    search.kept = Solution.of(moves)
    g = grow(inst, search, Limits(), max_moves=known)
    assert g.answer() == Answer(Status.FEASIBLE, search.kept, g.lower_bound)


@pytest.mark.parametrize(
    "kind, none_upto, n, want",
    [
        (Proved.FOUND, 4, 5, (Status.OPTIMAL, 5)),
        (Proved.INCUMBENT, 2, 5, (Status.FEASIBLE, 3)),
        (Proved.INCUMBENT, 6, 5, (Status.OPTIMAL, 5)),
        (Proved.STOPPED, 3, None, (Status.UNKNOWN, 4)),
        (Proved.OUTSIDE, 3, None, (Status.UNKNOWN, 4)),
        (Proved.NONE, 8, None, (Status.BOUNDED, 9)),
        (Proved.CLOSED, 3, None, (Status.UNSOLVABLE, None)),
    ],
)
def test_the_answer_of_every_ending(kind, none_upto, n, want):
    """Lemma G5: optimal only where the bound meets the length; nothing claimed past the bound."""
    solution = None if n is None else Solution.of([(0, 1)] * n)
    cert = Evidence("stand-in", "global")
    a = Grown(kind, none_upto, solution, certificate=cert).answer()
    assert (a.status, a.lower_bound) == want
    assert a.solution is solution
    assert a.certificate == (cert if kind in (Proved.CLOSED, Proved.NONE) else None)
