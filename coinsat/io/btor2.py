"""BTOR2 files of the puzzle's transition system (spec ``encodings/aiger.md`` §4), and a reader.

The writer prints the circuit of :func:`coinsat.encode.aiger.build_aig` (the caller builds
it) as a BTOR2 model with bit-vector inputs and boolean state:

* ``src`` and ``dst`` are two inputs of sort ``bitvec k`` (the source and destination cell
  index; bit i is ``slice i i``), the same inputs as the AIGER file's ``src0..``, ``dst0..``;
* one state of sort ``bitvec 1`` per latch, holding the *meaning* of the latch (``occ(x,y)``:
  "the cell holds a coin"), initialised to the start (``init`` 1 for a cell that holds a coin):
  BTOR2 has initial values, so the AIGER file's reset-to-0 flips are undone here;
* the AND gates as ``and`` nodes of sort ``bitvec 1`` (an inverted input is a ``not`` node);
* ``next`` for every state, and one ``bad`` property: the AIGER file's output ("a goal
  placement", or "a goal within T steps" with a horizon).

:func:`read_btor2` reads the subset of BTOR2 this writer prints (sorts ``bitvec``;
``input``, ``state``, ``init``, ``next``, ``zero``, ``one``, ``not``, ``and``, ``slice``,
``bad``, ``constraint``, ``output``; negative node references) into a bit-level
:class:`coinsat.backends.aigbmc.Circuit`, so that the BMC of ``backends/aigbmc.py`` checks
the BTOR2 file as it checks the AIGER one.  No BTOR2 model checker (btormc, pono) is packaged
for Debian or PyPI here; the reader is this project's own check of the file.

The reader is bounded: a width above :data:`MAX_WIDTH`, more than :data:`MAX_NODES` nodes or
more than :data:`MAX_BITS` bits in all are refused before they are built (a 35-byte file
declaring ``sort bitvec 100000000`` once took 24 s and 3 GB), and so are width 0 and a node
id defined twice.
"""

from __future__ import annotations

from ..encode.aiger import Aig, index_bits
from ..instance import Instance
from .aiger import check_exportable, comment_lines


def btor2_text(instance: Instance, aig: Aig, horizon: int | None) -> str:
    """The BTOR2 model (module docstring), with the AIGER file's comment section as ``;`` lines."""
    k = index_bits(instance.board.size)
    ni, nl = len(aig.inputs), len(aig.latches)
    lines = [f"; {c}" for c in comment_lines(instance, aig, horizon)]
    lines.append("; BTOR2: each state holds its meaning itself (the flips above are the AIGER file's); init: the start")
    nid = 0

    def node(text: str) -> int:
        nonlocal nid
        nid += 1
        lines.append(f"{nid} {text}")
        return nid

    b1 = node("sort bitvec 1")
    bk = node(f"sort bitvec {k}") if k > 1 else b1
    zero, one = node(f"zero {b1}"), node(f"one {b1}")
    src, dst = node(f"input {bk} src"), node(f"input {bk} dst")
    var: dict[int, int] = {}  # AIGER variable -> node of its (positive) value
    for i in range(k):
        var[1 + i] = node(f"slice {b1} {src} {i} {i}") if k > 1 else src
        var[1 + k + i] = node(f"slice {b1} {dst} {i} {i}") if k > 1 else dst
    flips = [flip for _, _, flip in aig.meaning] + [False] * (nl - len(aig.meaning))
    states = []
    for j, ((name, _), flip) in enumerate(zip(aig.latches, flips)):
        s = node(f"state {b1} {name}")
        node(f"init {b1} {s} {one if flip else zero}")
        states.append(s)
        var[ni + j + 1] = node(f"not {b1} {s}") if flip else s  # the AIGER latch's value
    negated: dict[int, int] = {}

    def ref(lit: int) -> int:
        if lit in (0, 1):
            return one if lit else zero
        v = var[lit >> 1]
        if not lit & 1:
            return v
        if v not in negated:
            negated[v] = node(f"not {b1} {v}")
        return negated[v]

    for g, (r0, r1) in enumerate(aig.ands):
        var[ni + nl + g + 1] = node(f"and {b1} {ref(r0)} {ref(r1)}")
    for j, ((_, nxt), flip) in enumerate(zip(aig.latches, flips)):
        value = ref(nxt ^ int(flip))
        node(f"next {b1} {states[j]} {value}")
    for name, out in aig.outputs:
        node(f"bad {ref(out)} {name}")
    return "\n".join(lines) + "\n"


def btor2_format(instance: Instance, horizon: int | None = None) -> str:
    """Export format ``btor2``: the AIGER circuit as a BTOR2 model (``--horizon T`` optional)."""
    from ..encode.aiger import build_aig

    check_exportable(instance, horizon)
    return btor2_text(instance, build_aig(instance, horizon), horizon)


# --- the reader ------------------------------------------------------------------------------

#: the widest bit-vector sort read; the writer's widest is a cell index's (18 bits for the
#: largest window, 250,000 cells)
MAX_WIDTH = 64
#: the most nodes (numbered lines) read
MAX_NODES = 1_000_000
#: the most bits of all nodes together (each is one AIG literal, built before any check)
MAX_BITS = 1 << 24
#: how many arguments each operator the reader reads takes, at least
_ARITY = {"sort": 2, "input": 1, "state": 1, "zero": 1, "one": 1, "not": 2, "and": 3, "slice": 4}
_ARITY.update({"init": 3, "next": 3, "bad": 1, "constraint": 1, "output": 1})


def read_btor2(text: str, path: str = "<btor2>"):
    """The subset of BTOR2 in the module docstring as a bit-level
    :class:`~coinsat.backends.aigbmc.Circuit` (inputs, latches with their reset, AND gates, the
    ``bad`` properties and constraints).  Anything else raises
    :class:`~coinsat.errors.InstanceError` naming the file and line (exit 2)."""
    from ..backends.aigbmc import Circuit
    from ..errors import InstanceError

    sorts: dict[int, int] = {}  # sort id -> width
    bits: dict[int, list[int]] = {}  # node id -> AIG literals, bit 0 first
    width_of: dict[int, int] = {}
    n_var = 0
    inputs: list[int] = []
    states: dict[int, int] = {}  # node id -> latch literal
    init: dict[int, int] = {}
    nxt: dict[int, int] = {}
    ands: list[tuple[int, int, int]] = []
    bads: list[int] = []
    constraints: list[int] = []
    outputs: list[int] = []
    symbols: dict[str, str] = {}
    pending: list[tuple[str, int, list[str]]] = []  # state lines: latches are numbered after inputs

    def new() -> int:
        nonlocal n_var
        n_var += 1
        return 2 * n_var

    total = 0  # bits of all nodes so far

    def put(no: int, nid: int, lits: list[int]) -> None:
        nonlocal total
        total += len(lits)
        if total > MAX_BITS:
            raise InstanceError(f"more than {MAX_BITS} bits in all", path, no)
        bits[nid] = lits

    lines = text.split("\n")
    seen: dict[int, int] = {}  # node id -> its line
    # pass 1: inputs first (AIGER numbers inputs before latches), then everything in order
    parsed = []
    for no, raw in enumerate(lines, 1):
        line = raw.split(";", 1)[0].strip()
        if not line:
            continue
        parts = line.split()
        if len(parts) < 2 or not parts[0].isdigit():
            raise InstanceError(f"not a BTOR2 line: {raw[:60]!r}", path, no)
        nid = int(parts[0])
        if nid in seen:
            raise InstanceError(f"node {nid} is defined twice (first on line {seen[nid]})", path, no)
        seen[nid] = no
        if len(parts) - 2 < _ARITY.get(parts[1], 0):
            raise InstanceError(f"'{parts[1]}' takes {_ARITY[parts[1]]} arguments", path, no)
        if len(seen) > MAX_NODES:
            raise InstanceError(f"more than {MAX_NODES} nodes", path, no)
        parsed.append((no, nid, parts[1], parts[2:]))
    for no, nid, op, args in parsed:
        if op == "input":
            pending.append(("input", nid, args))
    for _, nid, op, args in parsed:
        if op == "state":
            pending.append(("state", nid, args))

    def num(no: int, x: str) -> int:
        try:
            return int(x)
        except ValueError:
            raise InstanceError(f"expected a number, got {x!r}", path, no) from None

    def arg(no: int, x: str) -> list[int]:
        ref = num(no, x)
        if abs(ref) not in bits:
            raise InstanceError(f"node {abs(ref)} is used before it is defined", path, no)
        return [b ^ 1 for b in bits[abs(ref)]] if ref < 0 else bits[abs(ref)]

    def sort(no: int, x: str) -> int:
        s = num(no, x)
        if s not in sorts:
            raise InstanceError(f"{s} is not a declared bit-vector sort", path, no)
        return sorts[s]

    def and_(a: int, b: int) -> int:
        if a == 0 or b == 0 or a == b ^ 1:
            return 0
        if a == 1:
            return b
        if b == 1 or a == b:
            return a
        lhs = new()
        ands.append((lhs, a, b))
        return lhs

    def decl(kind: str, nid: int, args: list[str], no: int) -> None:
        w = sort(no, args[0])
        lits = [new() for _ in range(w)]
        put(no, nid, lits)
        width_of[nid] = w
        if kind == "input":
            inputs.extend(lits)
        else:
            if w != 1:
                raise InstanceError("only states of sort bitvec 1 are read", path, no)
            states[nid] = lits[0]
        if len(args) > 1:
            symbols[f"{kind}:{nid}"] = args[1]

    by_id = {nid: no for no, nid, _, _ in parsed}
    for no, nid, op, args in parsed:
        if op == "sort":
            if len(args) != 2 or args[0] != "bitvec":
                raise InstanceError("only 'sort bitvec W' is read", path, no)
            width = num(no, args[1])
            if not 1 <= width <= MAX_WIDTH:
                raise InstanceError(f"width {width}: this reader reads widths 1 to {MAX_WIDTH}", path, no)
            sorts[nid] = width
    for kind, nid, args in pending:
        decl(kind, nid, args, by_id[nid])
    for no, nid, op, args in parsed:
        if op in ("input", "state", "sort"):
            continue
        if op in ("zero", "one"):
            w = sort(no, args[0])
            put(no, nid, [int(op == "one")] + [0] * (w - 1))
        elif op == "not":
            put(no, nid, [b ^ 1 for b in arg(no, args[1])])
        elif op == "and":
            a, b = arg(no, args[1]), arg(no, args[2])
            if len(a) != len(b):
                raise InstanceError("'and' of two different widths", path, no)
            put(no, nid, [and_(x, y) for x, y in zip(a, b)])
        elif op == "slice":
            a = arg(no, args[1])
            hi, lo = num(no, args[2]), num(no, args[3])
            if not 0 <= lo <= hi < len(a):
                raise InstanceError(f"slice {hi} {lo} out of the width {len(a)}", path, no)
            put(no, nid, a[lo : hi + 1])
        elif op in ("init", "next"):
            s = num(no, args[1])
            if s not in states:
                raise InstanceError(f"{op} of node {s}, which is not a state", path, no)
            value = arg(no, args[2])
            if op == "init":
                if value[0] not in (0, 1):
                    raise InstanceError("only constant initial values are read", path, no)
                init[s] = value[0]
            else:
                nxt[s] = value[0]
        elif op in ("bad", "constraint", "output"):
            value = arg(no, args[0])
            if len(value) != 1:
                raise InstanceError(f"a {op} must be of width 1", path, no)
            {"bad": bads, "constraint": constraints, "output": outputs}[op].append(value[0])
        else:
            raise InstanceError(f"the operator {op!r} is not in the subset this reader reads", path, no)
    latches = []
    for s, lit in states.items():
        if s not in nxt:
            raise InstanceError(f"state {s} has no next", path, None)
        latches.append((lit, nxt[s], init.get(s, lit)))  # no init: uninitialised
    n_in = len(inputs)
    # renumber: AIGER wants inputs, then latches, then gates in order (they were created so)
    assert all(lit == 2 * (i + 1) for i, lit in enumerate(inputs))
    assert all(lit == 2 * (n_in + j + 1) for j, (lit, _, _) in enumerate(latches))
    names = {
        f"i{i}": f"{symbols.get(f'input:{nid}', nid)}[{b}]"
        for i, (nid, b) in enumerate(
            (nid, b) for kind, nid, _ in pending if kind == "input" for b in range(width_of[nid])
        )
    }
    return Circuit(
        n_var, tuple(inputs), tuple(latches), tuple(outputs), tuple(ands), tuple(bads), tuple(constraints), names
    )
