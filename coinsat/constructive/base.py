"""Shared machinery of the constructive algorithms.

:class:`Play` is a configuration being rearranged on an instance's board,
addressed by lattice coordinates.  Every move it makes goes through
:func:`coinsat.rules.apply_move` (the single validator), so an illegal step is
caught where it is made (the algorithms' bug, never an answer).  A cell that
is not on the board raises :class:`WindowTooSmall`; the drivers then rebuild
the instance with a wider window (:func:`with_margin`) and start again.

:class:`ConstructionError` is the one error the algorithms raise on purpose:
the theorem's hypothesis fails (or the puzzle is outside the algorithm's
scope), with a message that says which condition.
"""

from __future__ import annotations

import time
from collections import Counter
from contextlib import contextmanager
from functools import wraps
from typing import Callable, Hashable, Iterator, NamedTuple

from ..configuration import Configuration
from ..errors import ConstructionError, IllegalMoveError, VerificationError, WindowTooSmall
from ..geometry import Coord, neighbours
from ..instance import Instance, make_instance
from ..limits import poll
from ..result import Engine, Result, Status
from ..rules import Move, apply_move
from ..solution import Solution, certify_solution


class Construction(NamedTuple):
    """The instance the solution is stated on (its window may be wider than the
    input's: same start, goal and placement rule) and the verified result."""

    instance: Instance
    result: Result


class Play:
    """A configuration under construction: coordinates -> label, plus the moves made."""

    def __init__(self, instance: Instance):
        self.instance = instance
        self.board = instance.board
        self.kind = instance.board.kind
        self.d = instance.d
        self.config = instance.start
        self.occ: dict[Coord, str] = {instance.board.lattice_coords[c]: lab for c, lab in instance.start.coins}
        self.moves: list[Move] = []
        self.phases: list[str] = []
        self.tally: Counter[str] = Counter()

    def restart(self) -> None:
        """Back to the instance's start, with no moves made."""
        self.config = self.instance.start
        self.occ = {self.board.lattice_coords[c]: lab for c, lab in self.instance.start.coins}
        self.moves = []
        self.tally = Counter()

    # --- where the moves go (scripts/construct_phases.py) --------------------------
    @contextmanager
    def phase(self, name: str) -> Iterator[None]:
        """Count the moves made inside this block under ``name`` (nested: a path)."""
        self.phases.append(name)
        try:
            yield
        finally:
            self.phases.pop()

    def _path(self) -> str:
        out: list[str] = []
        for name in self.phases:  # a phase that calls itself (rotation inside rotation) counts once
            if name not in out:
                out.append(name)
        return "/".join(out) or "-"

    @classmethod
    def at(cls, instance: Instance, config: Configuration) -> "Play":
        """A play on ``instance``'s board that starts from ``config`` instead of the start."""
        play = cls(instance)
        play.config = config
        play.occ = {instance.board.lattice_coords[c]: lab for c, lab in config.coins}
        return play

    # --- queries -------------------------------------------------------------------
    def on_board(self, xy: Coord) -> bool:
        return self.board.has(xy)

    def cell(self, xy: Coord) -> int:
        if not self.board.has(xy):
            raise WindowTooSmall(xy)
        return self.board.cell(xy)

    def occupied(self, xy: Coord) -> bool:
        return xy in self.occ

    def support(self, xy: Coord, moving: Coord | None = None) -> int:
        """Occupied neighbours of ``xy`` other than the cell ``moving``."""
        return sum(1 for n in neighbours(self.kind, xy) if n != moving and n in self.occ)

    # --- the only way to change the configuration -----------------------------------
    def move(self, src: Coord, dst: Coord) -> None:
        poll()  # the command's budget (limits.enforced: LimitReached once spent); a clock read
        m = Move(self.cell(src), self.cell(dst))
        self.config = apply_move(self.board, self.config, m, self.d, step=len(self.moves) + 1)
        self.moves.append(m)
        self.occ[dst] = self.occ.pop(src)
        self.tally[self._path()] += 1

    def clone(self, relabel: dict[Coord, str] | None = None) -> "Play":
        """A copy (no moves recorded) whose coins on ``relabel``'s cells get new labels."""
        other = Play.__new__(Play)
        other.instance, other.board, other.kind, other.d = self.instance, self.board, self.kind, self.d
        other.occ = dict(self.occ)
        other.occ.update(relabel or {})
        other.config = Configuration(tuple((self.board.cell(xy), lab) for xy, lab in other.occ.items()))
        other.moves = []
        other.phases, other.tally = [], Counter()
        return other


def phased(name: str) -> Callable:
    """Decorator: the moves a method of an object with a ``play`` make count under ``name``."""

    def wrap(method: Callable) -> Callable:
        @wraps(method)
        def inner(self, *args, **kwargs):
            with self.play.phase(name):
                return method(self, *args, **kwargs)

        return inner

    return wrap


def with_margin(instance: Instance, margin: int) -> Instance:
    """The same puzzle on a lattice window grown by ``margin`` cells."""
    coords = instance.board.coords
    return make_instance(
        instance.board.kind,
        {coords[c]: lab for c, lab in instance.start.coins},
        {coords[c]: lab for c, lab in instance.goal.coins},
        adjacency=instance.adjacency,
        goal_placement=instance.goal_placement,
        name=instance.name,
        source=instance.source,
        known_optimal=instance.known_optimal,
        margin=margin,
        metadata=dict(instance.metadata),
    )


def drop_loops(instance: Instance, moves: list[Move]) -> list[Move]:
    """Cut every cycle: when a configuration occurs again, the moves in between go.  Legal,
    because each kept move starts from the configuration it started from before (the two
    halves of the square construction often undo each other's last steps)."""
    config = instance.start
    seen = {config: 0}
    kept: list[Move] = []
    trail = [config]
    for m in moves:
        config = config.moved(*m)
        if config in seen:
            cut = seen[config]
            for c in trail[cut + 1 :]:
                del seen[c]
            kept, trail = kept[:cut], trail[: cut + 1]
        else:
            kept.append(m)
            trail.append(config)
            seen[config] = len(kept)
    return kept


def run_construction(
    instance: Instance,
    name: str,
    plan: Callable[[Play], None],
    margins: tuple[int, ...],
    stats: Callable[[Play], dict] | None = None,
) -> Construction:
    """Run ``plan`` on ``instance`` (widening the window through ``margins`` when it
    asks for a cell outside), certify the moves and wrap them in a feasible Result."""
    t0 = time.perf_counter()
    method = f"construct:{name}"
    tried: list[Hashable] = []
    for margin in (None, *margins):
        if margin is not None and margin <= instance.margin:
            continue
        inst = instance if margin is None else with_margin(instance, margin)
        play = Play(inst)
        try:
            plan(play)
        except WindowTooSmall as e:
            tried.append(e.coord)
            continue
        except IllegalMoveError as e:
            raise VerificationError(f"{method} made an illegal move: {e}") from e
        moves = drop_loops(inst, play.moves)
        solution = certify_solution(inst, Solution.of(moves), method)
        lower = 0 if inst.is_goal(inst.start) else 1
        info = {"margin": inst.margin, "window": inst.board.window}
        if stats is not None:
            info.update(stats(play))
        result = Result(
            status=Status.FEASIBLE,
            method=method,
            solution=solution,
            lower_bound=lower,
            seconds=time.perf_counter() - t0,
            stats=info,
            engine=Engine.CONSTRUCT,
        )
        return Construction(inst, result)
    raise ConstructionError(f"{method}: the construction needs cells outside every window tried (last: {tried[-1]})")
