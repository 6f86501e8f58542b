"""What a checked census proves about one puzzle: ``check-certificate FILE DIR/census.json``.

The census certificate (:mod:`.census`) speaks of every configuration of its window at once; a
puzzle whose goal is the census's goal and whose start lies in the window gets its answer from it
(Theorem C of ``docs/census.md``): the start's layer t is its distance, and a start in no layer
cannot reach the goal.  The checker derives a :class:`~.claims.Claim` for the puzzle:

* start in layer t: a solution of t moves, found here by walking down the layers (each step a
  move to a configuration one layer lower, which condition (3) guarantees) and replayed by
  ``rules.py`` on the census window's board, and no solution with <= t - 1 moves;
* start in no layer: unsolvable.

Scope.  When the census window is closed (Lemma W) the negative part holds on the unbounded
board (``global``).  When it is not, it holds for moves inside the census window only; that is the
claim's "inside the window" exactly when the census window is the puzzle's own window (the same
cells), and otherwise the census proves only the solution.  A graph census must be of the
puzzle's graph (the same cells and edges).
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from ...board import cell_json, graph_board, lattice_board
from ...configuration import Configuration
from ...errors import LimitReached
from ...instance import Instance
from .census import Census, Rejected, census_from
from .claims import Claim
from .format import Check, unique_keys


def check_census_kind(
    instance: Instance, cert: dict, base_dir: Path, deadline: float | None, workers: int = 1
) -> tuple[bool, str, Claim | None]:
    """The kind checker of a census certificate for ``instance`` (``cert``: the parsed census.json)."""
    try:
        census = census_from(cert, Path(base_dir), "census.json", deadline, workers)
        claim = start_claim(instance, census, cert)
    except Rejected as e:
        return False, str(e), None
    except MemoryError:
        raise LimitReached("memory limit (the check ran out of memory)") from None
    return True, f"census: conditions (0)-(3) hold; {census.claim.text()}", claim


def check_census_for(instance: Instance, path: str | Path, deadline=None, workers: int = 1) -> Check:
    """:func:`check_census_kind` on the census at ``path`` (folder or census.json), as a verdict."""
    import json

    t0 = time.perf_counter()
    path = Path(path)
    json_path = path / "census.json" if path.is_dir() else path
    try:
        cert = json.loads(json_path.read_bytes().decode("ascii"), object_pairs_hook=unique_keys)
    except (OSError, ValueError) as e:
        return Check(False, f"{json_path.name}: unreadable: {e}", seconds=time.perf_counter() - t0)
    ok, reason, claim = check_census_kind(instance, cert, json_path.parent, deadline, workers)
    if not ok or claim is None:
        return Check(False, reason, seconds=time.perf_counter() - t0)
    return Check(True, reason, claim.text(), claim.scope, time.perf_counter() - t0, claim.text())


def start_claim(instance: Instance, census: Census, cert: dict) -> Claim:
    """What ``census`` proves about ``instance`` (:class:`Rejected` if it is not that puzzle's census)."""
    c = census.claim
    board = instance.board
    if str(board.kind) != c.board or instance.d != c.adjacency:
        raise Rejected(
            f"the census is of {c.board} with d = {c.adjacency}, the puzzle {board.kind} with d = {instance.d}"
        )
    if len(instance.labels) > 1 or instance.goal_placement != "fixed" or instance.moves != "jump":
        raise Rejected("a census speaks of unlabeled coins, a fixed goal and jumps; this puzzle is another kind")
    index = {_key(x): q for q, x in enumerate(census.cells)}
    names = [cell_json(board.coords[i]) for i in range(board.size)]
    if c.board == "graph":
        edges = {frozenset((names[u], names[v])) for u in range(board.size) for v in board.neighbours[u]}
        theirs = {frozenset((census.cells[i], census.cells[j])) for i, j in cert["edges"]}
        if set(map(_key, names)) != set(index) or edges != theirs:
            raise Rejected("the census is of another graph than the puzzle's")

    def positions(config: Configuration, what: str) -> list[int]:
        out = [index.get(_key(names[i])) for i in config.cells]
        if None in out:
            raise Rejected(f"the puzzle's {what} has a coin outside the census window")
        return sorted(q for q in out if q is not None)

    if positions(instance.goal, "goal") != list(census.goal):
        raise Rejected("the puzzle's goal is not the census's goal")
    start = positions(instance.start, "start")
    same_window = set(index) == set(map(_key, names))
    global_ = c.closed or c.board == "graph"
    t = census.distance(start)
    if t is None:
        if not (global_ or same_window):
            raise Rejected("the start is in no layer, but the census window is neither closed nor the puzzle's window")
        return Claim(unsolvable=True, window=not global_)
    _replay(census, start, t)
    if t == 0:
        return Claim(solution=0)
    if not (global_ or same_window):
        return Claim(solution=t)
    return Claim(solution=t, bound=t - 1, window=not global_)


def _key(x: Any):
    return tuple(x) if isinstance(x, list) else x


def _replay(census: Census, start: list[int], t: int) -> None:
    """Walk from ``start`` (layer t) down to the goal, one layer per move (Theorem C (i): a coin s
    with lambda(X - s) = t - 1 and a cell p of Lemma U), and replay the moves with rules.py on the
    census window's board; :class:`Rejected` if either fails."""
    from ...solution import Solution, verify

    nb, d = census.neighbours, census.claim.adjacency
    N = len(census.cells)
    X = set(start)
    moves = []
    for layer in range(t, 0, -1):
        step = next(
            (
                (s, p)
                for s in sorted(X)
                for p in range(N)
                if p not in X
                and bin(int(nb[p]) & _mask(X - {s})).count("1") >= d
                and census.distance((X - {s}) | {p}) == layer - 1
            ),
            None,
        )
        if step is None:
            raise Rejected(f"no move from layer {layer} to layer {layer - 1}")  # condition (3) makes this unreachable
        moves.append(step)
        X = (X - {step[0]}) | {step[1]}
    if census.claim.board == "graph":
        names = list(census.cells)
        pairs = [(names[p], names[q]) for p in range(N) for q in range(p + 1, N) if int(nb[p]) >> q & 1]
        board = graph_board(names, pairs)
    else:
        board = lattice_board(census.claim.board, [tuple(x) for x in census.cells], exact=True, window="census")
    order = {_key(x): i for i, x in enumerate(board.coords)}
    at = [order[_key(x)] for x in census.cells]
    window = Instance(
        "census",
        board,
        Configuration.unlabeled(at[q] for q in start),
        Configuration.unlabeled(at[q] for q in census.goal),
        adjacency=d,
    )
    verdict = verify(window, Solution.of((at[s], at[p]) for s, p in moves), keep_trace=False)
    if not verdict.ok:
        raise Rejected(f"the path down the layers does not replay: {verdict.reason} (step {verdict.step})")


def _mask(cells) -> int:
    return sum(1 << q for q in cells)
