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
    within = "" if horizon is None else f" within {horizon} steps"  # the bad signal, not the property
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
        f"output 0 (bad): 1 when the coins reach a goal placement{within}; the safety property is {prop}",
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


def check_exportable(instance: Instance, horizon: int | None) -> None:
    """A usage error for what the circuit cannot say: a negative horizon, slide moves."""
    from ..errors import UsageError

    if horizon is not None and horizon < 0:
        raise UsageError(f"the horizon must be >= 0, not {horizon}")
    if instance.moves != "jump":
        raise UsageError(f"the AIGER formats encode jump moves; this instance has moves = {instance.moves!r}")


def aiger_format(instance: Instance, horizon: int | None = None) -> str:
    """Export format ``aiger`` (ASCII): without a horizon the property "never the goal", with
    ``--horizon T`` "never the goal within T moves" (a step counter)."""
    from ..encode.aiger import build_aig

    check_exportable(instance, horizon)
    return aag_text(instance, build_aig(instance, horizon), horizon)


def aig_format(instance: Instance, horizon: int | None = None) -> bytes:
    """Export format ``aig`` (binary AIGER), the same circuit as ``aiger``."""
    from ..encode.aiger import build_aig

    check_exportable(instance, horizon)
    return aig_bytes(instance, build_aig(instance, horizon), horizon)


# --- the reader ------------------------------------------------------------------------------


def read_aiger(data: bytes, path: str = "<aiger>"):
    """An AIGER file (ASCII ``aag`` or binary ``aig``, AIGER 1.0 or 1.9 without justice and
    fairness) as a :class:`coinsat.backends.aigbmc.Circuit`.  Written from the AIGER format's
    description, independent of the encoder: it is what checks the exported files.  A malformed
    file raises :class:`~coinsat.errors.InstanceError` naming the file and the line (exit 2)."""
    from ..backends.aigbmc import Circuit
    from ..errors import InstanceError

    def bad(message: str, line: int | None) -> InstanceError:
        return InstanceError(message, path, line)

    pos = 0
    lineno = 0

    def next_line() -> str:
        nonlocal pos, lineno
        end = data.find(b"\n", pos)
        if end < 0:
            raise bad("the file ends too early (a line is missing)", lineno + 1)
        raw = data[pos:end]
        pos, lineno = end + 1, lineno + 1
        try:
            return raw.decode("ascii")
        except UnicodeDecodeError:
            raise bad("a header line holds a byte that is not ASCII", lineno) from None

    def ints(text: str, count: int | tuple[int, ...]) -> list[int]:
        parts = text.split()
        counts = (count,) if isinstance(count, int) else count
        if len(parts) not in counts or not all(p.isdigit() for p in parts):
            want = " or ".join(map(str, counts))
            raise bad(f"expected {want} unsigned integers, got {text!r}", lineno)
        return [int(p) for p in parts]

    head = next_line().split()
    if not head or head[0] not in ("aag", "aig") or len(head) not in (6, 7, 8, 9, 10):
        raise bad("not an AIGER file: the header must be 'aag M I L O A' or 'aig M I L O A' [B C J F]", 1)
    binary = head[0] == "aig"
    nums = ints(" ".join(head[1:]), len(head) - 1) + [0] * (10 - len(head))
    M, I, L, O, A, B, C, J, F = nums
    if J or F:
        raise bad("justice and fairness properties (liveness) are not supported", 1)
    if binary and M != I + L + A:
        raise bad(f"binary AIGER needs M = I + L + A ({M} != {I + L + A})", 1)
    if I + L + A > M:
        raise bad(f"I + L + A = {I + L + A} exceeds M = {M}", 1)
    top = 2 * M + 1

    def literal(x: int) -> int:
        if x > top:
            raise bad(f"the literal {x} exceeds 2M + 1 = {top}", lineno)
        return x

    defined: dict[int, str] = {}

    def define(lit: int, what: str) -> None:
        if lit < 2 or lit & 1:
            raise bad(f"{what} must be defined by a positive literal >= 2, not {lit}", lineno)
        if literal(lit) >> 1 in defined:
            raise bad(f"variable {lit >> 1} is defined twice", lineno)
        defined[lit >> 1] = what

    inputs = []
    for k in range(I):
        lit = 2 * (k + 1) if binary else ints(next_line(), 1)[0]
        define(lit, "an input")
        inputs.append(lit)
    latches = []
    for k in range(L):
        vals = ints(next_line(), (1, 2) if binary else (2, 3))
        lit = 2 * (I + k + 1) if binary else vals.pop(0)
        define(lit, "a latch")
        nxt = literal(vals[0])
        reset = vals[1] if len(vals) > 1 else 0
        if reset not in (0, 1, lit):
            raise bad(f"a latch's reset must be 0, 1 or its own literal {lit}, not {reset}", lineno)
        latches.append((lit, nxt, reset))
    outputs = [literal(ints(next_line(), 1)[0]) for _ in range(O)]
    bads = [literal(ints(next_line(), 1)[0]) for _ in range(B)]
    constraints = [literal(ints(next_line(), 1)[0]) for _ in range(C)]
    ands = []
    for k in range(A):
        if binary:
            lhs = 2 * (I + L + k + 1)
            deltas = []
            for _ in range(2):
                x, shift = 0, 0
                while True:
                    if pos >= len(data):
                        raise bad(f"the file ends inside AND gate {k} (binary section)", None)
                    byte = data[pos]
                    pos += 1
                    x |= (byte & 0x7F) << shift
                    shift += 7
                    if not byte & 0x80:
                        break
                deltas.append(x)
            r0 = lhs - deltas[0]
            r1 = r0 - deltas[1]
            if r1 < 0 or deltas[0] == 0:
                raise bad(f"AND gate {k} (literal {lhs}) has an input that is not below it", None)
        else:
            lhs, r0, r1 = ints(next_line(), 3)
            literal(r0), literal(r1)
        define(lhs, "an AND gate")
        ands.append((lhs, r0, r1))
    # every used literal must be defined (or constant), and the gates must not form a loop
    for lit in [n for _, n, _ in latches] + outputs + bads + constraints + [r for _, a, b in ands for r in (a, b)]:
        if lit >> 1 and lit >> 1 not in defined:
            raise bad(f"the literal {lit} names variable {lit >> 1}, which nothing defines", None)
    ands = _topological(ands, bad)
    symbols: dict[str, str] = {}
    comments: list[str] = []
    rest = data[pos:].decode("utf-8", errors="replace").split("\n")
    in_comments = False
    for text in rest:
        lineno += 1
        if in_comments:
            comments.append(text)
        elif text == "c":
            in_comments = True
        elif text:
            kind, _, name = text.partition(" ")
            if len(kind) < 2 or kind[0] not in "ilobcjf" or not kind[1:].isdigit() or not name:
                raise bad(f"not a symbol-table line: {text[:60]!r}", None if binary else lineno)
            symbols[kind] = name
    while comments and comments[-1] == "":
        comments.pop()
    return Circuit(
        M,
        tuple(inputs),
        tuple(latches),
        tuple(outputs),
        tuple(ands),
        tuple(bads),
        tuple(constraints),
        symbols,
        tuple(comments),
    )


def _topological(ands: list[tuple[int, int, int]], bad) -> list[tuple[int, int, int]]:
    """The AND gates ordered so that each comes after the gates it reads (ASCII files may list
    them in any order); a cycle is an error."""
    gate = {lhs >> 1: (lhs, r0, r1) for lhs, r0, r1 in ands}
    if all(r0 < lhs and r1 < lhs for lhs, r0, r1 in ands) and ands == sorted(ands):
        return ands
    order: list[tuple[int, int, int]] = []
    state: dict[int, int] = {}  # 1 visiting, 2 done
    for root in gate:
        stack = [(root, False)]
        while stack:
            v, done = stack.pop()
            if done:
                state[v] = 2
                order.append(gate[v])
                continue
            if state.get(v) == 2:
                continue
            if state.get(v) == 1:
                raise bad(f"the AND gates form a loop through variable {v}", None)
            state[v] = 1
            stack.append((v, True))
            for r in gate[v][1:]:
                if r >> 1 in gate and state.get(r >> 1) != 2:
                    if state.get(r >> 1) == 1:
                        raise bad(f"the AND gates form a loop through variable {r >> 1}", None)
                    stack.append((r >> 1, False))
    return order
