"""THE move validator.  Nothing else in coinsat decides whether a move is legal.

A move ``(src, dst)`` lifts the coin on cell ``src`` and drops it on cell
``dst``.  It is legal in configuration C under adjacency ``d`` iff

1. both cells are on the board and differ,
2. ``src`` holds a coin and ``dst`` is empty,
3. ``dst`` is adjacent to at least ``d`` coins *other than the moved one*
   (equivalently: after the move, ``dst`` has >= d occupied neighbours).

:func:`check_move` is the definition; it says why a move is illegal.

**Move models.**  Conditions 1–3 are the paper's *jump* model: the coin leaves
the plane and lands anywhere.  A move model adds one more condition on the
path the coin takes (the paper's open problem 2 asks about *slides*, where the
coin must travel in the plane without overlapping others).  Models are
entries of :data:`MOVE_MODELS`, each a function ``(board, config, move) ->
reason or None`` applied after 1–3; ``"jump"`` adds nothing; ``"slide"`` asks
that the coin, a disc of diameter 1 on a lattice point, can travel in the plane
from src to dst without overlapping another coin (touching allowed; the path
may leave the window).  ``geometry.slide_connected`` decides it exactly in
integer arithmetic (encodings/slides.md has the proof).  Every model that
exists only restricts jumps, so a jump kernel filtered by the model's
condition enumerates the model's moves: the kernels take ``model`` too.
:func:`legal_moves` and :func:`apply_move` are built on it.  The bitmask
kernels :func:`successors` and :func:`predecessors` are the same rule
specialised for explicit-state search (tests check that they enumerate
exactly what :func:`check_move` accepts, in both directions of time).
"""

from __future__ import annotations

from typing import Callable, Iterator, NamedTuple

from . import geometry
from .board import Board
from .configuration import Configuration, bits
from .errors import IllegalMoveError, UsageError
from .registry import unknown


class Move(NamedTuple):
    src: int
    dst: int


# The reasons check_move gives, one per way of being illegal.
OFF_BOARD = "off the board"
SAME_CELL = "source and destination are the same cell"
SOURCE_EMPTY = "source cell is empty"
DEST_OCCUPIED = "destination cell is occupied"
TOO_FEW = "destination is adjacent to fewer than {d} other coins"

BLOCKED = "the coin cannot slide there: other coins close every way (a slide, not a jump)"
NO_PLANE = "slides need a square or triangular board (coins in the plane)"

JUMP = "jump"
SLIDE = "slide"


def _jump(board: Board, config: Configuration, move: "Move") -> str | None:
    return None  # a jump may go anywhere: conditions 1-3 are the whole rule


def _slide(board: Board, config: Configuration, move: "Move") -> str | None:
    if board.kind not in geometry.SLIDE_LATTICES:
        return NO_PLANE
    coords = board.lattice_coords
    others = [coords[c] for c in config.cell_set if c != move.src]
    return None if geometry.slide_connected(board.kind, others, coords[move.src], coords[move.dst]) else BLOCKED


#: move model -> the extra condition it puts on a move that meets conditions 1-3
MOVE_MODELS: dict[str, Callable[[Board, Configuration, "Move"], str | None]] = {JUMP: _jump, SLIDE: _slide}


def _model(name: str) -> Callable[[Board, Configuration, "Move"], str | None]:
    try:
        return MOVE_MODELS[name]
    except KeyError:
        raise UsageError(unknown("move model", name, MOVE_MODELS)) from None


def check_move(board: Board, config: Configuration, move: Move, d: int = 2, model: str = JUMP) -> str | None:
    """None if ``move`` is legal in ``config`` under the move ``model``; otherwise the reason it is not.

    Parameters
    ----------
    board : Board
        The cells and their neighbours.
    config : Configuration
        Where the coins are.
    move : Move
        ``(source cell, destination cell)``, board cell indices.
    d : int
        The destination needs at least d occupied neighbours, the moved coin not counted.
    model : str
        The move model (``jump``, or a slide model of ``rules.MOVE_MODELS``).

    Returns
    -------
    str or None
        None, or the reason (a short string, e.g. "destination cell is occupied").

    Raises
    ------
    UsageError
        For an unknown move ``model``; never for an illegal move.
    """
    extra = _model(model)
    src, dst = move
    if not (0 <= src < board.size and 0 <= dst < board.size):
        return OFF_BOARD
    if src == dst:
        return SAME_CELL
    occupied = config.cell_set
    if src not in occupied:
        return SOURCE_EMPTY
    if dst in occupied:
        return DEST_OCCUPIED
    support = sum(1 for n in board.neighbours[dst] if n in occupied and n != src)
    if support < d:
        return TOO_FEW.format(d=d)
    return extra(board, config, move)


def legal_moves(board: Board, config: Configuration, d: int = 2, model: str = JUMP) -> list[Move]:
    """All legal moves of ``config``, sorted.

    Parameters
    ----------
    board, config, d, model
        As for :func:`check_move`.

    Returns
    -------
    list of Move
        Board cell indices; empty when no coin can move.

    Raises
    ------
    UsageError
        For an unknown move ``model``.
    """
    occupied = config.cell_set
    return [
        Move(s, p)
        for p in range(board.size)
        if p not in occupied
        for s in sorted(occupied)
        if check_move(board, config, Move(s, p), d, model) is None
    ]


def apply_move(
    board: Board, config: Configuration, move: Move, d: int = 2, step: int | None = None, model: str = JUMP
) -> Configuration:
    """The configuration after ``move``.

    Parameters
    ----------
    board, config, move, d, model
        As for :func:`check_move`.
    step : int, optional
        The move's number in a solution, carried by the error.

    Returns
    -------
    Configuration
        The new configuration (``config`` itself is not changed).

    Raises
    ------
    IllegalMoveError
        With ``step`` and the reason, if the move is illegal.
    UsageError
        For an unknown move ``model``.
    """
    reason = check_move(board, config, move, d, model)
    if reason is not None:
        raise IllegalMoveError(step, move, reason)
    return config.moved(*move)


# --- bitmask kernels for explicit-state search --------------------------------------
# A state is a tuple of occupancy masks, one per colour class (a single mask for
# unlabeled coins).  Bit c of a mask is set iff cell c holds a coin of that class.


def successors(
    board: Board, d: int, state: tuple[int, ...], model: str = JUMP
) -> Iterator[tuple[Move, tuple[int, ...]]]:
    """Every legal move from ``state`` and the state it leads to."""
    if model != JUMP:
        yield from _sliding(board, successors(board, d, state), state, model, reverse=False)
        return
    nbr = board.neighbour_masks
    occ = _occupancy(state)
    frontier = 0
    for c in bits(occ):
        frontier |= nbr[c]
    for p in bits(frontier & ~occ):
        support = (nbr[p] & occ).bit_count()
        if support < d:
            continue
        # A source adjacent to p takes one coin away from p's support.
        sources = occ if support > d else occ & ~nbr[p]
        bit_p = 1 << p
        for s in bits(sources):
            bit_s = 1 << s
            yield Move(s, p), tuple(m ^ bit_s ^ bit_p if m & bit_s else m for m in state)


def predecessors(
    board: Board, d: int, state: tuple[int, ...], model: str = JUMP
) -> Iterator[tuple[Move, tuple[int, ...]]]:
    """Every (move, previous state) such that the move is legal there and leads to ``state``.

    The move s -> p is legal in prev = state - p + s iff p has >= d occupied
    neighbours in state (the coins other than the moved one are exactly
    state - p, and p is not its own neighbour) and s is empty in state.
    """
    if model != JUMP:
        yield from _sliding(board, predecessors(board, d, state), state, model, reverse=True)
        return
    nbr = board.neighbour_masks
    occ = _occupancy(state)
    empty = ((1 << board.size) - 1) & ~occ
    for p in bits(occ):
        if (nbr[p] & occ).bit_count() < d:
            continue
        bit_p = 1 << p
        for s in bits(empty):
            bit_s = 1 << s
            yield Move(s, p), tuple(m ^ bit_s ^ bit_p if m & bit_p else m for m in state)


def _occupancy(state: tuple[int, ...]) -> int:
    """The mask of the cells that hold a coin of any class."""
    occ = 0
    for m in state:
        occ |= m
    return occ


def _sliding(
    board: Board, jumps: Iterator[tuple[Move, tuple[int, ...]]], state: tuple[int, ...], model: str, reverse: bool
) -> Iterator[tuple[Move, tuple[int, ...]]]:
    """The jumps that are slides (``model``: a move model that is not ``JUMP``, a UsageError if it
    is none).  The coins that stay are ``state`` minus the moved coin (its source going forwards,
    its destination backwards: a slide reversed is a slide with the same coins around, since both
    ends lie in one component of the free space).  The free space of the coins that stay is built
    once per moved coin."""
    _model(model)
    if board.kind not in geometry.SLIDE_LATTICES:
        return
    coords = board.lattice_coords
    occ = _occupancy(state)
    spaces: dict[int, tuple[geometry.FreeSpace, int]] = {}
    for move, other in jumps:
        mover = move.dst if reverse else move.src
        if mover not in spaces:
            space = geometry.free_space(board.kind, [coords[c] for c in bits(occ & ~(1 << mover))])
            spaces[mover] = (space, space.signature(coords[mover]))
        space, home = spaces[mover]
        target = move.src if reverse else move.dst
        if space.connected or space.signature(coords[target]) == home:
            yield move, other


# --- the free plane -------------------------------------------------------------------------------
# Coins are unit discs anywhere in the plane (geometry.PlanePoint, exact).  A move lifts the coin
# centred at src and puts it at dst, touching at least d of the other coins (centre distance exactly
# 1) and overlapping none (every other centre at distance >= 1).  The same rule as on a lattice,
# with "adjacent" read as "touching" and "empty" as "overlapping nothing".

OVERLAP = "the coin would overlap another coin (centres closer than 1)"
TOO_FEW_TOUCH = "the coin would touch fewer than {d} other coins"


def check_plane_move(
    coins: frozenset[geometry.PlanePoint], src: geometry.PlanePoint, dst: geometry.PlanePoint, d: int = 2
) -> str | None:
    """None if moving the coin at ``src`` to ``dst`` is legal among ``coins``; else the reason.
    Exact (geometry.Surd); a geometry.FieldError propagates when the numbers leave Q(√r)."""
    if src not in coins:
        return SOURCE_EMPTY
    if dst == src:
        return SAME_CELL
    if dst in coins:
        return DEST_OCCUPIED
    touching = 0
    for c in coins:
        if c == src:
            continue
        s = (geometry.dist2(c, dst) - geometry.ONE).sign()
        if s < 0:
            return OVERLAP
        touching += s == 0
    return TOO_FEW_TOUCH.format(d=d) if touching < d else None
