"""Counting optimal solutions: the paper's small puzzles, and brute-force enumeration on tiny ones.

The brute force shares nothing with coinsat/count.py but the move validator: it lists every
legal move sequence of each length with ``rules.legal_moves`` / ``rules.apply_move`` until one
reaches a goal placement, and joins sequences that differ by one legal swap of adjacent moves
(judged by ``rules.check_move``) to count the traces.
"""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from coinsat.cli import main
from coinsat.count import count, count_traces
from coinsat.instance import Instance, make_instance
from coinsat.io.instance_format import read_instance
from coinsat.result import Status
from coinsat.rules import Move, apply_move, check_move, legal_moves
from coinsat.theory.reach import symmetries

from .strategies import instances

PAPER = Path(__file__).resolve().parent.parent / "instances" / "paper"


@st.composite
def walked(draw, kinds=("square", "triangular", "graph")):
    """A random puzzle whose goal is where a random walk of 2 to 5 legal moves ends (never back
    to a configuration it has seen): most such puzzles have short solutions, unlike random goals."""
    instance = draw(instances(kinds=kinds, max_coins=4, goal_placement="fixed"))
    config = instance.start
    visited = {config}
    for _ in range(draw(st.integers(2, 5))):
        after = [
            apply_move(instance.board, config, m, instance.d) for m in legal_moves(instance.board, config, instance.d)
        ]
        fresh = [c for c in after if c not in visited]
        if not fresh:
            break
        config = draw(st.sampled_from(fresh))
        visited.add(config)
    return replace(instance, goal=config)


CAPPED = "capped"


def exact_for(instance: Instance, horizon: int) -> Instance:
    """The puzzle on a window exact for ``horizon`` moves: the lattice window grown by ``horizon``
    cells (every coin stays within distance t of the start after t moves)."""
    if instance.board.exact:
        return instance
    coords = instance.board.lattice_coords
    as_map = lambda c: {coords[cell]: lab for cell, lab in c.coins}  # noqa: E731
    return make_instance(
        instance.board.kind,
        as_map(instance.start),
        as_map(instance.goal),
        adjacency=instance.d,
        goal_placement=instance.goal_placement.value,
        margin=horizon,
    )


def brute_force(instance: Instance, max_length: int, cap: int = 20_000):
    """(optimum, every optimal sequence) by listing all sequences on a window exact for
    ``max_length`` moves; None if there is none within ``max_length`` moves; CAPPED if the
    listing outgrew ``cap`` sequences first."""
    instance = exact_for(instance, max_length)
    board, d = instance.board, instance.d
    level: list = [((), instance.start)]
    for length in range(max_length + 1):
        found = [seq for seq, c in level if instance.is_goal(c)]
        if found:
            return length, found
        if length == max_length:
            return None
        level = [(seq + (m,), apply_move(board, c, m, d)) for seq, c in level for m in legal_moves(board, c, d)]
        if len(level) > cap:
            return CAPPED
    return None


def brute_traces(instance: Instance, sequences: list[tuple[Move, ...]], horizon: int) -> int:
    instance = exact_for(instance, horizon)
    board, d = instance.board, instance.d
    known = set(sequences)
    seen: set[tuple[Move, ...]] = set()
    classes = 0
    for seq in sequences:
        if seq in seen:
            continue
        classes += 1
        stack = [seq]
        seen.add(seq)
        while stack:
            s = stack.pop()
            c = instance.start
            for t in range(len(s) - 1):
                swapped = s[:t] + (s[t + 1], s[t]) + s[t + 2 :]
                first = check_move(board, c, s[t + 1], d) is None
                if first and check_move(board, c.moved(*s[t + 1]), s[t], d) is None:
                    assert swapped in known  # a legal swap of an optimal sequence is optimal
                    if swapped not in seen:
                        seen.add(swapped)
                        stack.append(swapped)
                c = c.moved(*s[t])
    return classes


def configuration_sets(instance: Instance, sequences: list[tuple[Move, ...]], horizon: int) -> int:
    instance = exact_for(instance, horizon)
    sets = set()
    for seq in sequences:
        c, visited = instance.start, {instance.start}
        for m in seq:
            c = c.moved(*m)
            visited.add(c)
        sets.add(frozenset(visited))
    return len(sets)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(instances(max_coins=4), walked()))
def test_counts_agree_with_brute_force_enumeration(instance):
    brute = brute_force(instance, 4)
    if brute == CAPPED:
        return
    if brute is None:  # no solution within 4 moves: the count must not claim one (if it answers quickly)
        counted = count(instance, time_limit=2)
        assert counted.length is None or counted.length > 4
        return
    counted = count(instance, time_limit=60)
    length, sequences = brute
    assert counted.status is Status.OPTIMAL
    assert counted.length == length
    assert counted.sequences == len(sequences)
    assert counted.traces == brute_traces(instance, sequences, 4)
    assert counted.configuration_sets == configuration_sets(instance, sequences, 4)
    assert counted.configurations is not None and counted.configurations[0] == 1
    if instance.board.exact:  # the brute force then searches the same board, with the same symmetries
        assert counted.up_to_symmetry == brute_orbits(instance, sequences)


def brute_orbits(instance: Instance, sequences: list[tuple[Move, ...]]) -> int:
    """Classes of sequences under the puzzle's symmetries, by mapping every sequence."""
    group = symmetries(instance)
    canonical = {min([seq] + [tuple(Move(g[m.src], g[m.dst]) for m in seq) for g in group]) for seq in sequences}
    return len(canonical)


def walks_to_goal(instance: Instance, length: int) -> int:
    """The number of legal move sequences of exactly ``length`` moves that end on a goal placement,
    by a forward dynamic program over configurations (rules.legal_moves / apply_move only).  When
    no shorter sequence reaches the goal, these are exactly the optimal sequences."""
    board, d = instance.board, instance.d
    layer = {instance.start: 1}
    for _ in range(length):
        nxt: dict = {}
        for c, n in layer.items():
            for m in legal_moves(board, c, d):
                after = apply_move(board, c, m, d)
                nxt[after] = nxt.get(after, 0) + n
        layer = nxt
    return sum(n for c, n in layer.items() if instance.is_goal(c))


def model_count(instance: Instance, horizon: int) -> int:
    """Optimal sequences as models: the time-expanded CNF at the optimum with no no-op steps and no
    pruning family (only the exact span windows), projected on its fill and vacate variables
    (one model per move sequence), counted by Ganak."""
    pyganak = pytest.importorskip("pyganak")
    from coinsat.encode.options import EncodingOptions
    from coinsat.encode.sat import encode

    options = EncodingOptions(**dict.fromkeys(EncodingOptions.names(), False)).with_(windows=True)
    formula = encode(instance, horizon, options)
    counter = pyganak.Counter()
    counter.new_vars(formula.nvars)
    counter.add_clauses(formula.clauses)
    counter.set_sampling_set(formula.move_vars())
    return counter.count()


@pytest.mark.parametrize("name", ["h-to-o", "swap5-a", "swap5-b"])
def test_counts_agree_with_a_model_counter(name):
    instance = read_instance(PAPER / f"{name}.toml")
    assert instance.board.exact  # the CNF's window is then exact too
    counted = count(instance)
    assert counted.length is not None
    assert model_count(instance, counted.length) == counted.sequences


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(walked(kinds=("square", "graph")))
def test_counts_agree_with_a_model_counter_on_random_puzzles(instance):
    if not instance.board.exact:
        return
    counted = count(instance, time_limit=5)
    if counted.length is None or counted.length == 0 or counted.length > 6:
        return
    assert model_count(instance, counted.length) == counted.sequences


def test_symmetric_sequences_are_counted_once_per_orbit():
    # a 4 x 3 box missing its two middle cells, to be turned into the box missing the two side
    # middles: symmetric under both mirror lines, and so are some of its optimal sequences
    start = [(0, 0), (0, 1), (0, 2), (1, 0), (1, 2), (2, 0), (2, 2), (3, 0), (3, 1), (3, 2)]
    goal = [(0, 0), (0, 2), (1, 0), (1, 1), (1, 2), (2, 0), (2, 1), (2, 2), (3, 0), (3, 2)]
    instance = make_instance("square", start, goal)
    brute = brute_force(instance, 3)
    assert brute is not None and brute != CAPPED
    counted = count(instance)
    assert counted.symmetries == 4 and counted.sequences == len(brute[1])
    assert counted.up_to_symmetry == brute_orbits(instance, brute[1])
    assert counted.up_to_symmetry * counted.symmetries != counted.sequences  # not a plain division


def test_h_to_o_by_walks():
    instance = read_instance(PAPER / "h-to-o.toml")
    assert [walks_to_goal(instance, t) for t in range(4)] == [0, 0, 0, 0]
    counted = count(instance)
    assert counted.length == 4 and counted.sequences == walks_to_goal(instance, 4) == 180


# The paper puzzles small enough for the default suite; their counts are in instances/paper/README.md
# (the larger ones are under test_paper_counts_slow).
SMALL = ["diagonal", "h-to-o", "rhomboid", "swap5-a", "swap5-b", "upside-down", "o-to-h", "zero-extra", "one-extra"]


def readme_counts() -> dict[str, tuple[str, str]]:
    """puzzle -> (sequences, traces) from the counts table of instances/paper/README.md."""
    out = {}
    text = (PAPER / "README.md").read_text()
    table = text[text.index("## Counts") :]
    for line in table.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) >= 4 and cells[0].startswith("["):
            out[cells[0][1 : cells[0].index("]")]] = (cells[2], cells[3])
    return out


def _as_text(n: int | None) -> str:
    return "—" if n is None else str(n)


@pytest.mark.parametrize("name", SMALL)
def test_paper_counts_match_the_readme(name):
    counted = count(read_instance(PAPER / f"{name}.toml"), time_limit=60)
    assert readme_counts()[name] == (_as_text(counted.sequences), _as_text(counted.traces))


@pytest.mark.slow
@pytest.mark.parametrize("name", ["pyramid-to-line", "tri2oline"])
def test_paper_counts_slow(name):
    counted = count(read_instance(PAPER / f"{name}.toml"))
    assert readme_counts()[name] == (_as_text(counted.sequences), _as_text(counted.traces))


def test_the_diagonal_has_5856_optimal_sequences_on_the_command_line(capsys):
    assert main(["count", str(PAPER / "diagonal.toml"), "--up-to-symmetry"]) == 0
    out = capsys.readouterr().out
    assert ": 5856 optimal move sequences of 18 moves" in out.splitlines()[0]  # no bare "5856" line
    assert "up to symmetry: 1464 classes" in out  # 5856 / 4: no optimal sequence is symmetric
    assert main(["count", str(PAPER / "diagonal.toml"), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["sequences"] == 5856 and data["length"] == 18 and data["status"] == "optimal"


def test_a_limit_gives_no_count_and_exit_3(capsys):
    assert main(["count", str(PAPER / "diagonal.toml"), "--time-limit", "0.05"]) == 3
    assert "not counted" in capsys.readouterr().out


def test_a_graph_with_two_routes_counts_both_and_their_interleavings():
    # a path 0-1-2-3-4 plus a hub 5 adjacent to all: with d = 1 every coin can hop anywhere next to another
    edges = [(0, 1), (1, 2), (2, 3), (3, 4)]
    inst = make_instance("graph", [0, 1], [3, 4], adjacency=1, edges=edges, cells=list(range(5)))
    brute = brute_force(inst, 8)
    assert brute is not None and brute != CAPPED
    counted = count(inst)
    assert counted.sequences == len(brute[1]) and counted.length == brute[0]


def test_count_traces_joins_swapped_sequences():
    a, b, c = Move(0, 1), Move(2, 3), Move(4, 5)
    assert count_traces([(a, b), (b, a)]) == 1
    assert count_traces([(a, b), (b, c)]) == 2
    assert count_traces([(a, b, c), (b, a, c), (b, c, a), (a, c, b)]) == 1


def test_the_progress_line_shows_on_a_terminal_only():
    import io

    from coinsat.io.terminal import Display

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    piped, terminal = io.StringIO(), Terminal()
    for stream in (piped, terminal):
        with Display("counting", stream=stream) as live:
            live.update("forward layer 3")
    assert piped.getvalue() == ""
    assert "counting: forward layer 3" in terminal.getvalue()
    quiet = Terminal()
    with Display("counting", quiet=True, stream=quiet) as live:  # --json
        live.update("forward layer 3")
    assert quiet.getvalue() == ""
