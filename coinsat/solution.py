"""Solutions (move lists) and their verification.

:func:`verify` replays a move list with rules.py and either accepts it or
names the first illegal step and why, or says that the goal is not reached.
Every engine's answer goes through :func:`certify_solution`, which raises
VerificationError (a coinsat bug) instead of letting a wrong answer out.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable

from .configuration import Configuration
from .errors import VerificationError
from .instance import Instance
from .rules import Move, check_move


@dataclass(frozen=True)
class Solution:
    moves: tuple[Move, ...]

    @classmethod
    def of(cls, moves: Iterable[tuple[int, int]]) -> "Solution":
        return cls(tuple(Move(int(s), int(p)) for s, p in moves))

    def __len__(self) -> int:
        return len(self.moves)

    def __repr__(self) -> str:
        """The first moves as board cell indices (a solution does not know its board):
        :meth:`text` writes them as every other output does, ``(x, y) -> (x, y)``."""
        shown = ", ".join(f"{m.src} -> {m.dst}" for m in self.moves[:8])
        more = f", ... ({len(self.moves) - 8} more)" if len(self.moves) > 8 else ""
        return f"<Solution {len(self.moves)} moves, as cell indices: {shown}{more}>"

    def text(self, instance: Instance) -> str:
        """The moves in the one notation of the command line (``coinsat solve``, ``show``, ``verify``,
        ``decode``): a numbered line each, ``    1. (3, 1) -> (1, 2)``, in ``instance``'s coordinates
        (``instance.move_text`` writes one move).
        """
        return "\n".join(f"  {t:3d}. {instance.move_text(m)}" for t, m in enumerate(self.moves, start=1))

    def _repr_html_(self) -> str:
        """Notebooks: the moves (coinsat/draw, reached by name; ``coinsat.draw`` draws them on a board)."""
        from .registry import load

        return load({"html": "coinsat.draw.notebook:solution_html"}, "html", "picture")(self)


@dataclass(frozen=True)
class Verdict:
    ok: bool
    step: int | None  # 1-based step of the first illegal move, or None
    reason: str
    trace: tuple[Configuration, ...]  # C_0 .. C_k for the legal prefix (only C_k without keep_trace)

    def __bool__(self) -> bool:
        return self.ok


def verify(instance: Instance, solution: Solution, keep_trace: bool = True) -> Verdict:
    """Replay ``solution`` from the start; accept iff every move is legal and a goal placement is reached.

    ``rules.check_move``, the one move validator, judges every move.

    Parameters
    ----------
    instance : Instance
        The puzzle.
    solution : Solution
        The moves (board cell indices; ``io.solution_format`` reads them from a file).
    keep_trace : bool
        False keeps only the last configuration and replays on one set of occupied cells
        updated in place, so that time and memory stay linear in the input (a trace would
        hold moves x coins cells).

    Returns
    -------
    Verdict
        ``ok``, and otherwise the ``step`` of the first illegal move (None when every move is
        legal but the last configuration is not the goal) and the ``reason``; with
        ``keep_trace`` also the configurations it went through.

    Raises
    ------
    UsageError
        For an unknown move model of the instance; an illegal solution is an answer (``ok``
        False), not an exception.
    """
    if not keep_trace:
        return _verify_in_place(instance, solution)
    config = instance.start
    trace = [config]
    for t, move in enumerate(solution.moves, start=1):
        reason = check_move(instance.board, config, move, instance.d, instance.moves)
        if reason is not None:
            return Verdict(False, t, reason, tuple(trace))
        config = config.moved(*move)
        trace.append(config)
    if not instance.is_goal(config):
        return Verdict(False, None, "the final configuration is not the goal", tuple(trace))
    return Verdict(True, None, "ok", tuple(trace))


class _Occupied:
    """All that check_move reads of a configuration: its occupied cells (here a mutable set)."""

    __slots__ = ("cell_set",)

    def __init__(self, cells: Iterable[int]):
        self.cell_set = set(cells)


def _verify_in_place(instance: Instance, solution: Solution) -> Verdict:
    labels = dict(instance.start.coins)
    occupied = _Occupied(labels)
    for t, move in enumerate(solution.moves, start=1):
        reason = check_move(instance.board, occupied, move, instance.d, instance.moves)  # type: ignore[arg-type]
        if reason is not None:
            return Verdict(False, t, reason, (Configuration(tuple(labels.items())),))
        labels[move.dst] = labels.pop(move.src)
        occupied.cell_set.discard(move.src)
        occupied.cell_set.add(move.dst)
    config = Configuration(tuple(labels.items()))
    if not instance.is_goal(config):
        return Verdict(False, None, "the final configuration is not the goal", (config,))
    return Verdict(True, None, "ok", (config,))


def certify_solution(instance: Instance, solution: Solution, engine: str) -> Solution:
    """Return ``solution`` if verify accepts it; raise VerificationError otherwise."""
    verdict = verify(instance, solution)
    if not verdict.ok:
        where = f"step {verdict.step}" if verdict.step else "end"
        raise VerificationError(
            f"engine {engine!r} returned a solution that fails verification at {where}: {verdict.reason}"
        )
    return solution
