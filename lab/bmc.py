"""BMC on the exported file against the SAT engine's optimum (``encodings/aiger.md`` §4).

:func:`check_export` exports an instance (``aig``, ``aiger`` or ``btor2``), reads the bytes back
with this project's own readers (``io/aiger.py``, ``io/btor2.py``: the file's format, not the
encoder's objects), unrolls the circuit with ``backends/aigbmc.py`` (CaDiCaL 1.9.5 through
PySAT, one incremental solver, one assumption per frame) and checks what the file says against
an optimum L found by another engine: frames 0..L-1 have no bad state, frame L has one, and the
counterexample's input frames, decoded through the file's symbol table (``src0..``, ``dst0..``),
replay with rules.py (``encode.aiger.replay``) to a goal placement in exactly L moves.  For an
unsolvable puzzle no frame up to ``frames`` may fail.
"""

from __future__ import annotations

import re
import time
from dataclasses import dataclass

from coinsat import export
from coinsat.backends.aigbmc import BmcAnswer, Circuit, bmc
from coinsat.encode.aiger import replay
from coinsat.instance import Instance
from coinsat.solution import verify

_BIT = re.compile(r"^(src|dst)\[?(\d+)\]?$")


@dataclass(frozen=True)
class BmcCheck:
    answer: BmcAnswer
    cpu: float  # CPU seconds of the reading, unrolling and solving
    replayed: int | None  # moves of the counterexample replayed by rules.py (None: no trace or it failed)
    problem: str | None  # why the file disagrees with the expectation (None: it agrees, or undecided)


def read_export(instance: Instance, fmt: str = "aig", horizon: int | None = None) -> Circuit:
    """The exported file, read back by the project's reader of that format."""
    data = export(instance, fmt, horizon).data
    if fmt == "btor2":
        from coinsat.io.btor2 import read_btor2

        return read_btor2(data, f"{instance.name}.btor2")
    from coinsat.io.aiger import read_aiger

    return read_aiger(data if isinstance(data, bytes) else data.encode(), f"{instance.name}.{fmt}")


def trace_moves(circuit: Circuit, trace) -> list[tuple[int, int]]:
    """(source, destination) cell indices per frame, from the inputs named ``src<i>``/``dst<i>``
    (or ``src[i]``/``dst[i]``, BTOR2's bits) in the file's symbol table."""
    where: dict[tuple[str, int], int] = {}
    for k, name in enumerate(circuit.input_names()):
        m = _BIT.match(name)
        if m:
            where[(m.group(1), int(m.group(2)))] = k
    if not where:
        raise ValueError("the file names no src/dst inputs")
    out = []
    for frame in trace:
        value = {"src": 0, "dst": 0}
        for (which, bit), k in where.items():
            value[which] |= frame[k] << bit
        out.append((value["src"], value["dst"]))
    return out


def check_export(
    instance: Instance, optimum: int | None, frames: int, fmt: str = "aig", deadline: float | None = None
) -> BmcCheck:
    """BMC of the exported file against ``optimum`` (None: unsolvable; no frame in 0..frames may
    fail).  ``problem`` is None when the file agrees or the deadline stopped it first
    (``answer.stopped``, with ``answer.cleared`` frames proved)."""
    cpu0 = time.process_time()
    circuit = read_export(instance, fmt)
    answer = bmc(circuit, frames if optimum is None else optimum, deadline)
    cpu = time.process_time() - cpu0
    if answer.stopped:
        return BmcCheck(answer, cpu, None, None)
    if answer.failing_frame is None:
        problem = None if optimum is None else f"no failing frame up to the optimum {optimum}"
        return BmcCheck(answer, cpu, None, problem)
    solution = replay(instance, trace_moves(circuit, answer.trace))  # rules.py on each frame, as for pdr
    if solution is None:
        return BmcCheck(answer, cpu, None, "the counterexample does not reach the goal under rules.py")
    moves = solution.moves
    verdict = verify(instance, solution)
    if not verdict.ok:
        return BmcCheck(answer, cpu, None, f"the replayed moves fail verification: {verdict.reason}")
    if optimum is None:
        return BmcCheck(answer, cpu, len(moves), f"frame {answer.failing_frame} fails on an unsolvable puzzle")
    if answer.failing_frame != optimum or len(moves) != optimum:
        return BmcCheck(
            answer, cpu, len(moves), f"first failing frame {answer.failing_frame}, {len(moves)} moves, not {optimum}"
        )
    return BmcCheck(answer, cpu, len(moves), None)
