"""The puzzle as a sequential circuit (an AIG): one clock step is one move or a no-op.

Specification: ``encodings/aiger.md``.  The semantics are those of the SAT encoding
(``encodings/sat.md`` §1, §4 C2–C7 with N1): the state is the occupancy (and, with labels,
the label) of every cell of the instance's window; the inputs name a source and a
destination cell in binary; the step moves the coin when ``rules.check_move`` would accept
the move (source occupied, destination empty, at least d occupied neighbours of the
destination other than the source) and otherwise leaves the state as it is (a stutter,
the no-op of N1).  So the states reachable in at most k steps are exactly the
configurations reachable with at most k moves inside the window, and the output ``goal``
is 1 exactly in a goal placement: the safety property "the output is never 1" holds iff
the puzzle has no solution that stays inside the window.  With a horizon T a saturating
step counter makes the output ``goal and at most T steps taken``: then the property holds
iff no solution with at most T moves stays inside the window.

Every latch starts at 0 (the classic AIGER reset; ABC's invariant dump assumes it): the
latch of cell c holds ``occupied(c) XOR [c holds a coin at the start]``, a literal flip, no
gate.  :class:`Aig` is the circuit; :meth:`Aig.aag` prints the ASCII AIGER 1.0 text.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..configuration import Configuration
from ..instance import Instance
from ..rules import Move, check_move
from ..solution import Solution


@dataclass
class Aig:
    """An and-inverter graph with latches.  Literals are AIGER's: ``2 * var + negated``,
    0 false, 1 true; variables 1..I are inputs, then latches, then and gates."""

    inputs: list[str] = field(default_factory=list)  # names
    latches: list[tuple[str, int]] = field(default_factory=list)  # (name, next-state literal)
    ands: list[tuple[int, int]] = field(default_factory=list)  # (rhs0, rhs1), lhs = 2 * var
    outputs: list[tuple[str, int]] = field(default_factory=list)
    #: latch index -> (cell, label or None, flipped): what each latch means
    meaning: list[tuple[int, str | None, bool]] = field(default_factory=list)

    def aag(self, comments: tuple[str, ...] = ()) -> str:
        """ASCII AIGER (``aag M I L O A``), with the symbol table and ``comments``."""
        i, lat, a = len(self.inputs), len(self.latches), len(self.ands)
        lines = [f"aag {i + lat + a} {i} {lat} {len(self.outputs)} {a}"]
        lines += [str(2 * (k + 1)) for k in range(i)]
        lines += [f"{2 * (i + k + 1)} {nxt}" for k, (_, nxt) in enumerate(self.latches)]
        lines += [str(lit) for _, lit in self.outputs]
        lines += [f"{2 * (i + lat + k + 1)} {r0} {r1}" for k, (r0, r1) in enumerate(self.ands)]
        lines += [f"i{k} {name}" for k, name in enumerate(self.inputs)]
        lines += [f"l{k} {name}" for k, (name, _) in enumerate(self.latches)]
        lines += [f"o{k} {name}" for k, (name, _) in enumerate(self.outputs)]
        if comments:
            lines += ["c", *comments]
        return "\n".join(lines) + "\n"

    def aig(self, comments: tuple[str, ...] = ()) -> bytes:
        """Binary AIGER (``aig M I L O A``: what ABC's ``read_aiger`` reads): the same circuit,
        the gates as delta-encoded varints (the builder numbers every gate after its inputs)."""
        i, lat, a = len(self.inputs), len(self.latches), len(self.ands)
        head = [f"aig {i + lat + a} {i} {lat} {len(self.outputs)} {a}"]
        head += [str(nxt) for _, nxt in self.latches]
        head += [str(lit) for _, lit in self.outputs]
        out = bytearray(("\n".join(head) + "\n").encode("ascii"))
        for k, (r0, r1) in enumerate(self.ands):
            lhs = 2 * (i + lat + k + 1)
            for delta in (lhs - r0, r0 - r1):
                while delta >= 0x80:
                    out.append(delta & 0x7F | 0x80)
                    delta >>= 7
                out.append(delta)
        tail = self.aag(comments).split("\n", 1 + i + lat + len(self.outputs) + a)[-1]
        out += tail.encode("ascii", "backslashreplace")
        return bytes(out)


class Gates:
    """AND gates over AIGER literals (0 false, 1 true, an odd literal the negation of the even
    one below it) with constant folding and structural hashing, and the gates built of them; a
    subclass numbers each new gate (``new_gate``)."""

    def __init__(self) -> None:
        self._seen: dict[tuple[int, int], int] = {}

    def new_gate(self, hi: int, lo: int) -> int:
        """The literal of a new gate ``hi AND lo`` (``hi >= lo``, neither constant)."""
        raise NotImplementedError

    def and_(self, a: int, b: int) -> int:
        """a AND b."""
        a, b = max(a, b), min(a, b)  # AIGER wants rhs0 >= rhs1
        if b == 0 or a == b ^ 1:
            return 0
        if b == 1 or a == b:
            return a
        lit = self._seen.get((a, b))
        if lit is None:
            lit = self._seen[(a, b)] = self.new_gate(a, b)
        return lit

    def or_(self, a: int, b: int) -> int:
        """a OR b."""
        return self.and_(a ^ 1, b ^ 1) ^ 1

    def all(self, lits) -> int:
        """The AND of ``lits`` (1 when there are none)."""
        out = 1
        for lit in lits:
            out = self.and_(out, lit)
        return out

    def any(self, lits) -> int:
        """The OR of ``lits`` (0 when there are none)."""
        return self.all(lit ^ 1 for lit in lits) ^ 1

    def xor(self, a: int, b: int) -> int:
        """a XOR b."""
        return self.or_(self.and_(a, b ^ 1), self.and_(a ^ 1, b))


class _Builder(Gates):
    """The gates of one circuit.  Inputs and latches are numbered first (their count is known
    before any gate), gates after."""

    def __init__(self, n_inputs: int, n_latches: int):
        super().__init__()
        self.base = n_inputs + n_latches
        self.ands: list[tuple[int, int]] = []

    def input(self, k: int) -> int:
        return 2 * (k + 1)

    def latch(self, k: int, n_inputs: int) -> int:
        return 2 * (n_inputs + k + 1)

    def new_gate(self, hi: int, lo: int) -> int:
        self.ands.append((hi, lo))
        return 2 * (self.base + len(self.ands))

    def at_least(self, lits: list[int], d: int) -> int:
        """1 iff at least ``d`` of ``lits`` are 1 (a sequential counter: r[j] = at least j so far)."""
        if d <= 0:
            return 1
        if d > len(lits):
            return 0
        r = [1] + [0] * d
        for lit in lits:
            for j in range(d, 0, -1):
                r[j] = self.or_(r[j], self.and_(r[j - 1], lit))
        return r[d]

    def decode(self, bits: list[int], count: int) -> list[int]:
        """One-hot lines ``[value of bits == c]`` for c = 0..count-1 (bits little-endian)."""
        # AND over the bits in order: structural hashing shares the prefixes (about 2 * 2^k gates)
        return [self.all((b if c >> i & 1 else b ^ 1) for i, b in enumerate(bits)) for c in range(count)]


def index_bits(cells: int) -> int:
    """Input bits per cell index (at least 1)."""
    return max(1, (cells - 1).bit_length())


def build_aig(instance: Instance, horizon: int | None = None) -> Aig:
    """The circuit of ``instance`` (module docstring); ``horizon``: the bounded variant."""
    board = instance.board
    N = board.size
    k = index_bits(N)
    labels = sorted(instance.labels) if len(instance.labels) > 1 else []
    start = dict(instance.start.coins)
    coords = board.coords
    # latches: one per cell (unlabeled) or one per (label, cell); then the step counter
    meaning: list[tuple[int, str | None, bool]] = []
    if labels:
        for lab in labels:
            meaning += [(c, lab, start.get(c) == lab) for c in range(N)]
    else:
        meaning = [(c, None, c in start) for c in range(N)]
    counter_bits = 0 if horizon is None else (horizon + 1).bit_length()
    n_inputs = 2 * k
    g = _Builder(n_inputs, len(meaning) + counter_bits)
    src_bits = [g.input(i) for i in range(k)]
    dst_bits = [g.input(k + i) for i in range(k)]
    state = [g.latch(i, n_inputs) ^ int(flip) for i, (_, _, flip) in enumerate(meaning)]  # true value
    if labels:
        y = {lab: state[j * N : (j + 1) * N] for j, lab in enumerate(labels)}
        x = [g.any(y[lab][c] for lab in labels) for c in range(N)]
    else:
        x = state
    S = g.decode(src_bits, N)
    P = g.decode(dst_bits, N)
    src_ok = g.any(g.and_(S[c], x[c]) for c in range(N))
    dst_ok = g.any(g.and_(P[c], x[c] ^ 1) for c in range(N))
    others = [g.and_(x[q], S[q] ^ 1) for q in range(N)]  # occupied and not the lifted coin
    support = [g.at_least([others[q] for q in board.neighbours[p]], instance.d) for p in range(N)]
    sup_ok = g.any(g.and_(P[p], support[p]) for p in range(N))
    legal = g.all((src_ok, dst_ok, sup_ok))
    nxt: list[int] = []
    if labels:
        lifted = {lab: g.any(g.and_(S[c], y[lab][c]) for c in range(N)) for lab in labels}
        for lab in labels:
            for c in range(N):
                drop, lift = g.and_(legal, P[c]), g.and_(legal, S[c])
                keep = g.all((drop ^ 1, lift ^ 1, y[lab][c]))
                nxt.append(g.or_(g.and_(drop, lifted[lab]), keep))
    else:
        for c in range(N):
            nxt.append(g.xor(x[c], g.and_(legal, g.or_(S[c], P[c]))))
    latches = []
    for (cell, label, flip), lit in zip(meaning, nxt):
        prefix = "occ" if label is None else f"lab_{label}"
        latches.append((f"{prefix}{_coord(coords[cell])}", lit ^ int(flip)))  # back to the latch's polarity
    goal = g.any(_placement(g, instance, conf, x, y if labels else None) for conf in instance.goal_configurations)
    out = goal
    if horizon is not None:  # saturating counter of steps; bad while it is <= T
        cnt = [g.latch(len(meaning) + i, n_inputs) for i in range(counter_bits)]
        full = g.all(c if (horizon + 1) >> i & 1 else c ^ 1 for i, c in enumerate(cnt))
        carry = full ^ 1
        for i, c in enumerate(cnt):
            latches.append((f"step{i}", g.xor(c, carry)))
            carry = g.and_(c, carry)
        out = g.and_(goal, full ^ 1)
    inputs = [f"src{i}" for i in range(k)] + [f"dst{i}" for i in range(k)]
    name = "goal" if horizon is None else f"goal_within_{horizon}"
    return Aig(inputs, latches, g.ands, [(name, out)], meaning)


def _placement(g: _Builder, instance: Instance, conf, x: list[int], y) -> int:
    coins = dict(conf.coins)
    terms = [x[c] if c in coins else x[c] ^ 1 for c in range(instance.board.size)]
    if y is not None:
        terms += [y[lab][c] for c, lab in coins.items()]
    return g.all(terms)


def _coord(c) -> str:
    return "(" + ",".join(map(str, c)) + ")" if isinstance(c, tuple) else f"({c})"


def decode_moves(instance: Instance, frames: list[list[int]]) -> list[tuple[int, int]]:
    """The moves named by a trace's input frames (``[src bits..., dst bits...]``, little-endian),
    frame by frame; indices past the board are kept (rules.py rejects them).  Which frames are
    moves and which stutter is for the caller to decide, by replaying with rules.py."""
    k = index_bits(instance.board.size)
    out = []
    for bits in frames:
        s = sum(b << i for i, b in enumerate(bits[:k]))
        p = sum(b << i for i, b in enumerate(bits[k : 2 * k]))
        out.append((s, p))
    return out


def replay(instance: Instance, frames: list[tuple[int, int]]) -> Solution | None:
    """The move list of a trace (:func:`decode_moves`, or any model checker's frames): each frame's
    (source, destination) if rules.py accepts it as a move in the current configuration, else a
    stutter; cut at the first goal placement.  None when the trace never reaches the goal (a wrong
    trace: the caller reports a bug)."""
    config: Configuration = instance.start
    moves: list[Move] = []
    if instance.is_goal(config):
        return Solution.of(())
    for s, p in frames:
        move = Move(s, p)
        if check_move(instance.board, config, move, instance.d, instance.moves) is not None:
            continue
        config = config.moved(s, p)
        moves.append(move)
        if instance.is_goal(config):
            return Solution.of(moves)
    return None
