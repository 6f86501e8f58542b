"""AIGER files of the puzzle's transition system (spec ``encodings/aiger.md``).

The circuit is built by :func:`coinsat.encode.aiger.build_aig` (the caller builds it;
this module only prints).  Two forms of the same circuit:

* ``aiger``: ASCII AIGER 1.0 (``aag M I L O A``), readable and diffable;
* ``aig``: binary AIGER (``aig M I L O A``), what ABC's ``read_aiger`` and most model
  checkers read.

Both carry the symbol table (``i0 src0`` .. ``l5 occ(2,1)`` .. ``o0 goal``) and a comment
section: the instance, the window, what each latch means, and what the property says.
The output is the *bad* signal (the HWMCC convention of AIGER 1.0 files): a trace that
makes it 1 is a solution, and "the output is never 1" is the claim a model checker proves.
"""

from __future__ import annotations

from ..configuration import UNLABELED
from ..encode.aiger import Aig, index_bits
from ..instance import Instance

SPEC = "encodings/aiger.md"


def _coins(instance: Instance, config) -> str:
    c = instance.board.coords
    return " ".join(f"{c[cell]}" + ("" if lab == UNLABELED else f":{lab}") for cell, lab in config.coins)


def comment_lines(instance: Instance, aig: Aig, horizon: int | None) -> tuple[str, ...]:
    """The comment section: what the circuit is, in words."""
    from .._version import __version__

    b = instance.board
    k = index_bits(b.size)
    prop = (
        "never the goal (holds iff no solution stays inside the window)"
        if horizon is None
        else f"never the goal within {horizon} steps (holds iff no solution with <= {horizon} moves "
        "stays inside the window)"
    )
    lines = [
        f"coinsat {__version__}: coin-moving puzzle as a transition system, spec {SPEC}",
        f"instance: {instance.name}",
        f"board: {b.kind}, window {b.window} ({'exact' if b.exact else 'not exact'}), {b.size} cells",
        f"coins: {instance.n_coins}, labels {', '.join(instance.labels)}; adjacency d = {instance.d}; "
        f"goal placement {instance.goal_placement} ({len(instance.goal_configurations)} in the window)",
        f"start: {_coins(instance, instance.start)}",
        f"goal: {_coins(instance, instance.goal)}",
        f"inputs: src0..src{k - 1}, dst0..dst{k - 1}: source and destination cell index, little-endian; "
        "an input that is not a legal move leaves the state unchanged",
        "latches start at 0; a latch marked 'flipped' holds NOT(occupied), so its cell holds a coin at the start",
        f"output 0 (bad): {prop}",
    ]
    if instance.known_optimal is not None:
        lines.append(f"known optimum: {instance.known_optimal} moves")
    coords = b.coords
    for i, (cell, lab, flip) in enumerate(aig.meaning):
        what = "occupied" if lab is None else f"holds a coin labelled {lab}"
        lines.append(f"latch {i}: cell {cell} {coords[cell]} {what}{' (flipped)' if flip else ''}")
    return tuple(" ".join(line.split()) for line in lines)  # one line each, whatever a name holds


def aag_text(instance: Instance, aig: Aig, horizon: int | None) -> str:
    """ASCII AIGER with symbols and comments."""
    return aig.aag(comment_lines(instance, aig, horizon))


def aig_bytes(instance: Instance, aig: Aig, horizon: int | None) -> bytes:
    """Binary AIGER with symbols and comments."""
    return aig.aig(comment_lines(instance, aig, horizon))


def _check(instance: Instance, horizon: int | None) -> None:
    from ..errors import UsageError

    if horizon is not None and horizon < 0:
        raise UsageError(f"the horizon must be >= 0, not {horizon}")
    if instance.moves != "jump":
        raise UsageError(f"the AIGER formats encode jump moves; this instance has moves = {instance.moves!r}")


def aiger_format(instance: Instance, horizon: int | None = None) -> str:
    """Export format ``aiger`` (ASCII): without a horizon the property "never the goal", with
    ``--horizon T`` "never the goal within T moves" (a step counter)."""
    from ..encode.aiger import build_aig

    _check(instance, horizon)
    return aag_text(instance, build_aig(instance, horizon), horizon)


def aig_format(instance: Instance, horizon: int | None = None) -> bytes:
    """Export format ``aig`` (binary AIGER), the same circuit as ``aiger``."""
    from ..encode.aiger import build_aig

    _check(instance, horizon)
    return aig_bytes(instance, build_aig(instance, horizon), horizon)
