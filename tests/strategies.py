"""Hypothesis strategies: small random instances on every board kind, labeled and not."""

from __future__ import annotations

from hypothesis import strategies as st

from coinsat.instance import make_instance

KINDS = ("square", "triangular", "graph")


@st.composite
def placements(draw, cells, n, labeled):
    chosen = draw(st.permutations(cells))[:n]
    if not labeled:
        return {c: "o" for c in chosen}
    labels = draw(st.lists(st.sampled_from("AB"), min_size=n, max_size=n))
    return dict(zip(chosen, labels))


@st.composite
def instances(draw, kinds=KINDS, max_coins=5, labeled=None, d=None, goal_placement=None):
    """A small random instance (solvable or not)."""
    kind = draw(st.sampled_from(kinds))
    is_labeled = draw(st.booleans()) if labeled is None else labeled
    adjacency = draw(st.sampled_from((1, 2, 2, 2, 3))) if d is None else d
    if kind == "graph":
        n_cells = draw(st.integers(4, 8))
        cells = list(range(n_cells))
        pairs = [(u, v) for u in cells for v in cells if u < v]
        edges = draw(st.lists(st.sampled_from(pairs), min_size=n_cells, max_size=2 * n_cells, unique=True))
    else:
        side = 3 if kind == "square" else 2
        cells = [(x, y) for x in range(side + 1) for y in range(side)]
        edges = None
    n = draw(st.integers(2, min(max_coins, len(cells) - 1)))
    start = draw(placements(cells, n, is_labeled))
    goal_cells = draw(st.permutations(cells))[:n]
    labels = draw(st.permutations(list(start.values())))
    goal = dict(zip(goal_cells, labels))
    placement = "fixed"
    if kind != "graph":
        placement = (
            draw(st.sampled_from(("fixed", "fixed", "translate", "congruent")))
            if goal_placement is None
            else goal_placement
        )
    return make_instance(
        kind,
        start,
        goal,
        adjacency=adjacency,
        goal_placement=placement,
        edges=edges,
        cells=cells if kind == "graph" else None,
        margin=1,
        name="random",
    )


@st.composite
def configurations(draw, instance_strategy=None):
    """An instance and a random configuration on its board with the instance's coins."""
    inst = draw(instances() if instance_strategy is None else instance_strategy)
    cells = draw(st.permutations(range(inst.board.size)))[: inst.n_coins]
    labels = [lab for _, lab in inst.start.coins]
    from coinsat.configuration import Configuration

    return inst, Configuration(tuple(zip(cells, labels)))


def unsolvable_against_bounded(got, want, max_moves) -> bool:
    """True when one answer is ``unsolvable`` and the other ``bounded`` at ``max_moves``: the two
    agree, one stronger (an exhausted global state space also proves "none within max_moves";
    rule 2 of ``lab.agreement``).  The ``unsolvable`` one must be global."""
    from coinsat.result import Status

    if {got.status, want.status} != {Status.UNSOLVABLE, Status.BOUNDED}:
        return False
    unsolvable = got if got.status is Status.UNSOLVABLE else want
    assert unsolvable.certificate["scope"] == "global" and max_moves is not None
    return True


def default_sigint() -> None:
    """``preexec_fn`` for a child that a test interrupts: SIGINT as a terminal gives it.  A run
    started in the background (``cmd &`` in a script, as CI may do) ignores SIGINT, children
    inherit an ignored SIGINT across exec, and Python then installs no handler: the test's
    Ctrl-C would be lost and the child would run on."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})


@st.composite
def lattice_puzzles(draw, lattices=("square",), max_side=5, max_coins=6, adjacency=(2,)):
    """A random unlabeled puzzle on a rectangle of the lattice (drawn from ``lattices``), d drawn
    from ``adjacency``, the goal placement fixed (twice as likely) or any translation."""
    lattice = draw(st.sampled_from(lattices))
    w = draw(st.integers(2, max_side))
    h = draw(st.integers(2, max_side))
    cells = [(x, y) for x in range(w) for y in range(h)]
    n = draw(st.integers(2, min(max_coins, len(cells) - 1)))
    start = draw(st.permutations(cells))[:n]
    goal = draw(st.permutations(cells))[:n]
    placement = draw(st.sampled_from(("fixed", "fixed", "translate")))
    d = draw(st.sampled_from(adjacency))
    return make_instance(lattice, start, goal, adjacency=d, goal_placement=placement, margin=1, name="random")


def exact_distances(instance) -> tuple[dict[int, float], list[int]]:
    """Distance to the nearest goal placement of every configuration reachable from the start
    (inf: none reachable), by BFS over rules.successors forward then backwards from the goal
    placements inside the reachable graph; and the goal bitmasks."""
    from collections import deque

    from coinsat.rules import successors

    board, d = instance.board, instance.d
    start = instance.start.mask
    goals = [g.mask for g in instance.goal_configurations]
    seen, queue, back = {start}, deque([start]), {}
    while queue:
        x = queue.popleft()
        for _, (y,) in successors(board, d, (x,)):
            back.setdefault(y, []).append(x)
            if y not in seen:
                seen.add(y)
                queue.append(y)
    dist: dict[int, float] = {x: float("inf") for x in seen}
    queue = deque(g for g in goals if g in seen)
    for g in queue:
        dist[g] = 0
    while queue:
        y = queue.popleft()
        for x in back.get(y, ()):
            if dist[x] == float("inf"):
                dist[x] = dist[y] + 1
                queue.append(x)
    return dist, goals
