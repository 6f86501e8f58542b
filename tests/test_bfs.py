"""The BFS oracle against a tiny, obviously-correct forward enumerator."""

from collections import deque

from hypothesis import given, settings

from coinsat.result import Status
from coinsat.rules import apply_move, legal_moves
from coinsat.search.bfs import solve_bfs
from coinsat.solution import verify

from .strategies import instances


def brute_distance(inst, limit=10**6):
    """Plain forward BFS over Configuration objects through rules.legal_moves."""
    seen = {inst.start: 0}
    queue = deque([inst.start])
    while queue:
        c = queue.popleft()
        if inst.is_goal(c):
            return seen[c]
        for m in legal_moves(inst.board, c, inst.d):
            n = apply_move(inst.board, c, m, inst.d)
            if n not in seen:
                seen[n] = seen[c] + 1
                queue.append(n)
        assert len(seen) < limit
    return None


@settings(max_examples=120, deadline=None)
@given(instances(max_coins=4))
def test_bfs_agrees_with_brute_force(inst):
    want = brute_distance(inst)
    r = solve_bfs(inst)
    if want is None:
        assert r.status is Status.UNSOLVABLE
        assert r.certificate["scope"] == ("global" if inst.board.exact else "window")
    else:
        assert r.status in (Status.OPTIMAL, Status.FEASIBLE)
        assert r.length == want
        assert verify(inst, r.solution).ok
        if r.status is Status.OPTIMAL:
            assert r.lower_bound == want


@settings(max_examples=60, deadline=None)
@given(instances(max_coins=4))
def test_bfs_horizon_limit_is_bounded_not_unsolvable(inst):
    want = brute_distance(inst)
    if want is None or want == 0:
        return
    r = solve_bfs(inst, max_moves=want - 1)
    # "none within want - 1 moves" is a bounded answer only where the window proves it
    assert r.status is (Status.BOUNDED if inst.exact_within(want - 1) else Status.UNKNOWN)
    assert r.lower_bound <= want
    assert solve_bfs(inst, max_moves=want).length == want
