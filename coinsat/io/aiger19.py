"""AIGER 1.9 safety files, HWMCC witness traces and Certifaiger witness circuits (spec
``encodings/aiger.md`` §8).

Printers and parsers only; the circuits are :class:`coinsat.backends.aigbmc.Circuit` values
(what :func:`coinsat.io.aiger.read_aiger` returns), so a file written here can be read back
by the project's own reader and checked by its own simulator and SAT checks
(``backends/aigcheck.py``).

* :func:`circuit_of` turns the encoder's :class:`~coinsat.encode.aiger.Aig` into a
  ``Circuit`` whose property is a **bad-state literal** (AIGER 1.9's ``B`` section) instead
  of an output (AIGER 1.0's convention);
* :func:`aag_19` / :func:`aig_19` print a circuit as ASCII or binary AIGER 1.9, with the full
  header ``aag M I L O A B C J F`` (J = F = 0: safety only), latch resets written when not 0,
  the symbol table and the comment section;
* :func:`with_invariant` builds a Certifaiger witness circuit: the model's inputs, latches,
  resets and gates, one extra gate cone for an invariant ``Inv`` given as clauses over the
  model's literals, and the single bad literal ``bad_M or not Inv``.  Its symbol table maps
  every input and latch to the model literal it simulates (``i0 = 2``, Certifaiger's
  convention), and a ``WITNESS b0 <model>`` comment names the property and the model file;
* :func:`trace_text` / :func:`read_trace`: the AIGER (HWMCC) witness of an unsafe circuit:
  ``1``, the violated property (``b0``), one line with the latches' initial values, one line
  of input values per step, ``.``;
* :func:`btor2_trace_text` / :func:`read_btor2_trace`: the same for a BTOR2 model, in btorsim's
  witness format.
"""

from __future__ import annotations

from ..backends.aigbmc import Circuit
from ..encode.aiger import Aig, Gates
from ..errors import InstanceError

# --- circuits --------------------------------------------------------------------------------


def circuit_of(aig: Aig) -> Circuit:
    """The encoder's circuit with its output as the bad-state property (AIGER 1.9), reset 0."""
    ni, nl = len(aig.inputs), len(aig.latches)
    inputs = tuple(2 * (k + 1) for k in range(ni))
    latches = tuple((2 * (ni + k + 1), nxt, 0) for k, (_, nxt) in enumerate(aig.latches))
    ands = tuple((2 * (ni + nl + k + 1), r0, r1) for k, (r0, r1) in enumerate(aig.ands))
    symbols = {f"i{k}": name for k, name in enumerate(aig.inputs)}
    symbols.update({f"l{k}": name for k, (name, _) in enumerate(aig.latches)})
    symbols.update({f"b{k}": name for k, (name, _) in enumerate(aig.outputs)})
    bad = tuple(lit for _, lit in aig.outputs)
    return Circuit(ni + nl + len(ands), inputs, latches, (), ands, bad, (), symbols)


def _check_numbering(c: Circuit) -> None:
    """The binary format (and Certifaiger, in both formats) wants inputs, latches, then gates
    numbered consecutively, each gate after its inputs."""
    ni, nl = len(c.inputs), len(c.latches)
    assert c.inputs == tuple(2 * (k + 1) for k in range(ni)), "inputs must be numbered 2, 4, ..."
    assert all(lit == 2 * (ni + k + 1) for k, (lit, _, _) in enumerate(c.latches)), "latches follow the inputs"
    for k, (lhs, r0, r1) in enumerate(c.ands):
        assert lhs == 2 * (ni + nl + k + 1) and r0 < lhs and r1 < lhs, f"gate {k} is not numbered in order"
    assert c.max_var == ni + nl + len(c.ands)


def _header(kind: str, c: Circuit) -> str:
    return (
        f"{kind} {c.max_var} {len(c.inputs)} {len(c.latches)} {len(c.outputs)} {len(c.ands)} "
        f"{len(c.bad)} {len(c.constraints)} 0 0"
    )


def _latch_line(lit: int | None, nxt: int, reset: int) -> str:
    head = f"{lit} {nxt}" if lit is not None else f"{nxt}"
    return head if reset == 0 else f"{head} {reset}"


def _tail(c: Circuit, comments: tuple[str, ...]) -> str:
    order = {"i": 0, "l": 1, "o": 2, "b": 3, "c": 4}
    keys = sorted(c.symbols, key=lambda k: (order.get(k[0], 5), k[0], int(k[1:]) if k[1:].isdigit() else 0))
    lines = [f"{k} {c.symbols[k]}" for k in keys]
    if comments:
        lines += ["c", *(" ".join(line.split()) for line in comments)]
    return "".join(line + "\n" for line in lines)


def aag_19(c: Circuit, comments: tuple[str, ...] = ()) -> str:
    """ASCII AIGER 1.9 (``aag M I L O A B C J F``)."""
    _check_numbering(c)
    lines = [_header("aag", c)]
    lines += [str(lit) for lit in c.inputs]
    lines += [_latch_line(lit, nxt, reset) for lit, nxt, reset in c.latches]
    lines += [str(lit) for lit in (*c.outputs, *c.bad, *c.constraints)]
    lines += [f"{lhs} {r0} {r1}" for lhs, r0, r1 in c.ands]
    return "".join(line + "\n" for line in lines) + _tail(c, comments or c.comments)


def aig_19(c: Circuit, comments: tuple[str, ...] = ()) -> bytes:
    """Binary AIGER 1.9 (``aig M I L O A B C J F``): the gates as delta-encoded varints."""
    _check_numbering(c)
    lines = [_header("aig", c)]
    lines += [_latch_line(None, nxt, reset) for _, nxt, reset in c.latches]
    lines += [str(lit) for lit in (*c.outputs, *c.bad, *c.constraints)]
    out = bytearray("".join(line + "\n" for line in lines).encode("ascii"))
    for lhs, r0, r1 in c.ands:
        hi, lo = max(r0, r1), min(r0, r1)
        for delta in (lhs - hi, hi - lo):
            while delta >= 0x80:
                out.append(delta & 0x7F | 0x80)
                delta >>= 7
            out.append(delta)
    out += _tail(c, comments or c.comments).encode("ascii", "backslashreplace")
    return bytes(out)


class Extender(Gates):
    """New AND gates on top of a circuit's (numbered after them), for building a witness
    circuit's invariant."""

    def __init__(self, model: Circuit):
        super().__init__()
        self.model = model
        self.ands = list(model.ands)
        self.top = model.max_var

    def new_gate(self, hi: int, lo: int) -> int:
        self.top += 1
        self.ands.append((2 * self.top, hi, lo))
        return 2 * self.top

    def witness(self, inv: int, model_file: str, what: str) -> Circuit:
        """The witness circuit whose single bad literal is ``not (P and inv)`` (module docstring)."""
        model = self.model
        if len(model.properties) != 1:
            raise ValueError("the model must have exactly one property")
        bad = self.all((model.properties[0] ^ 1, inv)) ^ 1
        symbols = {f"i{k}": f"= {lit}" for k, lit in enumerate(model.inputs)}
        symbols.update({f"l{k}": f"= {lit}" for k, (lit, _, _) in enumerate(model.latches)})
        symbols["b0"] = "witness"
        comments = (
            f"WITNESS b0 {model_file}",
            "Certifaiger witness circuit: the model's inputs, latches, resets and gates; bad = not (P and Inv), "
            f"Inv {what} (an inductive invariant)",
        )
        return Circuit(self.top, model.inputs, model.latches, (), tuple(self.ands), (bad,), (), symbols, comments)


def with_invariant(model: Circuit, clauses: list[list[int]], model_file: str) -> Circuit:
    """A Certifaiger witness circuit for ``model`` (module docstring).

    ``clauses``: the invariant, each clause a list of the model's AIGER literals (latches,
    possibly negated).  The witness keeps the model's numbering for inputs, latches and
    gates, so the shared inputs and latches are the same literals; the new gates follow."""
    ext = Extender(model)
    inv = ext.all(ext.any(clause) for clause in clauses)
    return ext.witness(inv, model_file, f"a conjunction of {len(clauses)} clauses over the latches")


# --- witness traces --------------------------------------------------------------------------


def trace_text(init: list[int | None], frames: list[list[int]], prop: int = 0) -> str:
    """The AIGER witness of a violated bad property ``prop``: ``1``, ``b<prop>``, the
    latches' initial values (``x``: uninitialised), one line of inputs per step, ``.``."""
    latch_line = "".join("x" if v is None else str(v) for v in init)
    return "\n".join(["1", f"b{prop}", latch_line, *("".join(map(str, f)) for f in frames), "."]) + "\n"


def read_trace(text: str, n_inputs: int, n_latches: int, path: str = "<witness>"):
    """``(prop, init, frames)`` of an AIGER witness; ``init`` holds None for ``x``.  A
    malformed witness raises :class:`~coinsat.errors.InstanceError` naming the file and line."""
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    if len(lines) < 4:
        raise InstanceError("a witness needs '1', a property, the initial latches and '.'", path, None)
    if lines[0] != "1":
        raise InstanceError(f"the first line must be '1' (a violated property), not {lines[0][:20]!r}", path, 1)
    if len(lines[1]) < 2 or lines[1][0] != "b" or not lines[1][1:].isdigit():
        raise InstanceError(f"the second line must name a bad property 'b<k>', not {lines[1][:20]!r}", path, 2)
    if lines[-1] != ".":
        raise InstanceError("the witness must end with a line '.'", path, len(lines))

    def bits(line: str, count: int, no: int, allow_x: bool) -> list[int | None]:
        ok = "01x" if allow_x else "01"
        if len(line) != count or any(ch not in ok for ch in line):
            raise InstanceError(f"expected {count} characters of {ok!r}, got {line[:40]!r}", path, no)
        return [None if ch == "x" else int(ch) for ch in line]

    init = bits(lines[2], n_latches, 3, True)
    frames = [[int(b or 0) for b in bits(line, n_inputs, no, False)] for no, line in enumerate(lines[3:-1], 4)]
    if not frames:
        raise InstanceError("the witness has no input line (at least one step is needed)", path, 4)
    return int(lines[1][1:]), init, frames


def btor2_trace_text(widths: list[int], frames: list[list[int]], names: list[str]) -> str:
    """btorsim's witness format: ``sat``, ``b0``, ``#0`` (no state values: every state has an
    init), then per step ``@t`` and one line ``<input index> <bits, most significant first>
    <name>@t`` per input, and ``.``."""
    lines = ["sat", "b0", "#0"]
    for t, values in enumerate(frames):
        lines.append(f"@{t}")
        lines += [f"{k} {format(v, f'0{w}b')} {names[k]}@{t}" for k, (v, w) in enumerate(zip(values, widths))]
    return "\n".join([*lines, "."]) + "\n"


def read_btor2_trace(text: str, widths: list[int], path: str = "<witness>") -> list[list[int]]:
    """The input vectors of a BTOR2 witness of ``b0`` as bit vectors of the model read back by
    ``io/btor2.py: read_btor2`` (bit i of input j is the bit input ``sum(widths[:j]) + i``)."""
    lines = text.split("\n")
    if lines[:3] != ["sat", "b0", "#0"]:
        raise InstanceError("a BTOR2 witness of b0 starts with 'sat', 'b0', '#0'", path, 1)
    frames: list[list[int]] = []
    for no, line in enumerate(lines[3:], 4):
        if line == ".":
            return frames
        parts = line.split()
        if line.startswith("@") and line[1:] == str(len(frames)):
            frames.append([0] * sum(widths))
        elif frames and len(parts) in (2, 3) and parts[0].isdigit() and int(parts[0]) < len(widths):
            k, bits = int(parts[0]), parts[1]
            if len(bits) != widths[k] or set(bits) - {"0", "1"}:
                raise InstanceError(f"input {k} needs {widths[k]} bits, not {bits[:40]!r}", path, no)
            base = sum(widths[:k])
            for i, ch in enumerate(reversed(bits)):
                frames[-1][base + i] = int(ch)
        else:
            raise InstanceError(f"not a line of a BTOR2 witness here: {line[:40]!r}", path, no)
    raise InstanceError("the witness must end with a line '.'", path, len(lines))
