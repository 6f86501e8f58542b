"""The HWMCC pack: the puzzles as AIGER 1.9 and BTOR2 safety benchmarks, each with a known answer
and a witness checked by coinsat's own code (spec ``encodings/hwmcc-pack.md``).

:func:`write_hwmcc_pack` writes, for every puzzle given whose stored answer can be checked:

* a **solvable** puzzle with a stored solution of L moves that stays inside the circuit's window
  (replayed by rules.py through :func:`coinsat.solution.verify`): ``coins-<p>.aig`` ("never the
  goal") and ``coins-<p>-within<L>.aig`` ("never the goal within L moves"), both **unsafe**, and
  their BTOR2 twins; for each the witness trace (``.cex``: the AIGER/HWMCC format; ``.btor2.cex``:
  btorsim's), made from the solution and checked by simulating the file read back with
  coinsat's readers: the bad property must be 1 at the last step;
* an **unsolvable** puzzle (unlabeled coins): ``coins-<p>.aig`` and ``.btor2``, **safe**.  The
  evidence is an inductive-invariant certificate (``certificates/``: PDR's invariant and three
  DRAT proofs, accepted by :func:`coinsat.certificates.check.check_certificate`), and the
  witness is a Certifaiger witness circuit (``coins-<p>.witness.aig``): the model with the
  bad literal ``not (P and Inv)``.  It is read back and passes the five Certifaiger checks
  (``backends/aigcheck.py``), base and step among them.

Nothing is hard-coded: an answer is a stored solution that verifies, or a certificate that the
checker accepts; a puzzle or file with neither is left out and named in the report.  ``abc_cap``: ABC's
``pdr`` is also run on every ``.aig`` file for at most that many seconds, and its answer must not
contradict the known one (it is recorded with ABC's CPU seconds).
"""

from __future__ import annotations

import csv
import hashlib
import json
import re
import resource
import time
from dataclasses import asdict, dataclass, fields
from pathlib import Path
from typing import Sequence

from ..backends.aigbmc import Circuit
from ..backends.aigcheck import trace_problem, witness_checks
from ..encode.aiger import Aig, build_aig
from ..errors import InstanceError, InternalError, UsageError
from ..instance import Instance
from ..io.aiger import comment_lines, read_aiger
from ..io.aiger19 import aig_19, btor2_trace_text, circuit_of, read_btor2_trace, trace_text, with_invariant
from ..io.atomic import write_atomic
from ..io.btor2 import btor2_text, read_btor2
from ..io.instance_format import DATA, read_instance
from ..io.solution_format import parse_solution
from ..solution import Solution, verify

#: the answers stored for the shipped puzzles
PACKAGED_ANSWERS = DATA / "gallery_answers.json"
_BIT = re.compile(r"^(src|dst)\[?(\d+)\]?$")


@dataclass(frozen=True)
class PackRow:
    """One benchmark file of the pack (a row of ``manifest.csv``)."""

    file: str
    format: str  # aig | btor2
    puzzle: str
    property: str
    expected: str  # unsafe | safe
    depth: int | None  # the step at which the witness trace reaches bad (unsafe)
    inputs: int
    latches: int
    gates: int
    sha256: str
    evidence: str
    witness: str
    witness_checked: str
    abc_pdr: str = ""  # unsafe | safe | undecided | "" (not run)
    abc_pdr_cpu: float | None = None


@dataclass(frozen=True)
class HwmccPack:
    """What :func:`write_hwmcc_pack` wrote: the rows, what it left out (a puzzle or a file stem, and
    why), and
    the CPU seconds of this process and of ABC."""

    directory: Path
    rows: tuple[PackRow, ...]
    left_out: tuple[tuple[str, str], ...]
    cpu_seconds: float
    abc_cpu_seconds: float

    @property
    def counts(self) -> dict[str, int]:
        out: dict[str, int] = {}
        for r in self.rows:
            key = f"{r.format} {r.expected}"
            out[key] = out.get(key, 0) + 1
        return out


def _children_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def _abc_pdr(data: bytes, cap: float) -> tuple[str, float]:
    """ABC's ``pdr`` on the file: its answer and ABC's CPU seconds."""
    from ..backends.abc import run_abc

    cpu0 = _children_cpu()
    # pdr -T is ABC's own clock, CPU seconds; the wall-clock limit is only a safety net
    run = run_abc(data, [f"pdr -T {max(1, int(cap))}"], time_limit=30 * cap + 60)
    cpu = _children_cpu() - cpu0
    if "was asserted in frame" in run.output:
        return "unsafe", cpu
    if "Property proved" in run.output:
        return "safe", cpu
    return "undecided", cpu


def _sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _frames(circuit: Circuit, moves: list[tuple[int, int]], steps: int) -> list[list[int]]:
    """Input vectors naming ``moves`` through the file's symbol table (``src0``.. or ``src[0]``..),
    then zeros up to ``steps`` vectors."""
    where = {}
    for k, name in enumerate(circuit.input_names()):
        m = _BIT.match(name)
        if m:
            where[k] = (m.group(1), int(m.group(2)))
    if not where:
        raise InternalError("the file names no src/dst inputs")
    out = []
    for t in range(steps):
        s, d = moves[t] if t < len(moves) else (0, 0)
        value = {"src": s, "dst": d}
        out.append([value[where[k][0]] >> where[k][1] & 1 if k in where else 0 for k in range(len(circuit.inputs))])
    return out


def _stored(answers: dict, key: str, path: Path) -> dict | None:
    record = answers.get(key)
    if record is None or record.get("sha256") != _sha(path.read_bytes()):
        return None  # no answer, or one for another version of the file (stale)
    return record


def _solution_in_window(instance: Instance, record: dict) -> tuple[Solution | None, str]:
    """The stored moves as cells of the instance's own window, replayed by rules.py."""
    grown, solution = parse_solution(instance, json.dumps({"moves": record["moves"]}), "gallery_answers.json")
    coords = grown.board.coords
    board = instance.board
    if not all(c >= 0 and board.has(coords[c]) for mv in solution.moves for c in mv):
        return None, "the stored solution leaves the circuit's window"
    moved = Solution.of((board.cell(coords[s]), board.cell(coords[d])) for s, d in solution.moves)
    verdict = verify(instance, moved)
    if not verdict.ok:
        return None, f"the stored solution does not verify: {verdict.reason}"
    return moved, ""


def _shape(c: Circuit) -> dict:
    return {"inputs": len(c.inputs), "latches": len(c.latches), "gates": len(c.ands)}


def _unsafe_files(out: Path, instance: Instance, solution: Solution, record: dict) -> list[PackRow]:
    L = len(solution)
    cert = record.get("certificate") or {}
    optimal = f", optimal by a stored {cert.get('kind')} certificate" if record.get("status") == "optimal" else ""
    evidence = f"a stored {L}-move solution inside the window, replayed by rules.py{optimal}"
    rows = []
    for horizon in (None, L):
        stem = f"coins-{instance.name}" + ("" if horizon is None else f"-within{horizon}")
        prop = "never the goal" if horizon is None else f"never the goal within {horizon}"
        aig = build_aig(instance, horizon)
        data, model = _model_file(out, instance, aig, horizon, stem)
        frames = _frames(model, list(solution.moves), L + 1)
        text = trace_text([reset if reset in (0, 1) else None for _, _, reset in model.latches], frames)
        write_atomic(out / f"{stem}.cex", text)
        problem = _trace_file_problem(out / f"{stem}.cex", model)
        if problem:
            raise InternalError(f"{stem}.cex: {problem}")
        checked = f"b0 is 1 at step {L} (coinsat's simulator on the file read back)"
        rows.append(PackRow(f"{stem}.aig", "aig", instance.name, prop, "unsafe", L, **_shape(model),
                            sha256=_sha(data), evidence=evidence, witness=f"{stem}.cex",
                            witness_checked=checked))  # fmt: skip
        rows.append(_btor2_unsafe(out, instance, aig, horizon, stem, prop, solution, evidence))
    return rows


def _trace_file_problem(path: Path, model: Circuit) -> str | None:
    from ..io.aiger19 import read_trace

    prop, init, frames = read_trace(path.read_text(), len(model.inputs), len(model.latches), path.name)
    return trace_problem(model, prop, init, frames)


def _btor2_unsafe(out, instance, aig: Aig, horizon, stem, prop, solution: Solution, evidence) -> PackRow:
    text = btor2_text(instance, aig, horizon)
    write_atomic(out / f"{stem}.btor2", text)
    model = read_btor2((out / f"{stem}.btor2").read_text(), f"{stem}.btor2")
    names = ["src", "dst"]
    width = len(model.inputs) // 2
    L = len(solution)
    moves = list(solution.moves) + [(0, 0)]
    vectors = [[s, d] for s, d in moves[: L + 1]]
    write_atomic(out / f"{stem}.btor2.cex", btor2_trace_text([width, width], vectors, names))
    frames = read_btor2_trace((out / f"{stem}.btor2.cex").read_text(), [width, width], f"{stem}.btor2.cex")
    steps = len(frames)
    init = [reset if reset in (0, 1) else None for _, _, reset in model.latches]
    problem = trace_problem(model, 0, init, frames)
    if problem:
        raise InternalError(f"{stem}.btor2.cex: {problem}")
    checked = f"bad is 1 at step {steps - 1} (coinsat's simulator on the BTOR2 file read back)"
    data = text.encode()
    return PackRow(f"{stem}.btor2", "btor2", instance.name, prop, "unsafe", L, **_shape(model), sha256=_sha(data),
                   evidence=evidence, witness=f"{stem}.btor2.cex", witness_checked=checked)  # fmt: skip


def _invariant_certificate(out: Path, instance: Instance, stem: str, deadline: float) -> tuple[dict | None, str]:
    """PDR's invariant as an inductive certificate under ``out/certificates``, checked."""
    from ..certificates.check import check_certificate
    from ..certificates.check.format import Certificate
    from ..certificates.prove.inductive import build_inductive
    from ..limits import Limits
    from ..result import Status
    from ..search.pdr import solve_pdr

    r = solve_pdr(instance, limits=Limits(max(1.0, deadline - time.perf_counter())))
    if r.status is not Status.UNSOLVABLE or r.witness is None:
        return None, f"PDR gave no invariant ({r.status.value})"
    folder = out / "certificates"
    folder.mkdir(exist_ok=True)
    text = Certificate.from_json(build_inductive(instance, r.witness, folder, stem)).text()
    write_atomic(folder / f"{stem}.certificate.json", text)
    cert = json.loads((folder / f"{stem}.certificate.json").read_text())
    verdict = check_certificate(instance, cert, folder)
    if not verdict.ok:
        return None, f"the invariant certificate was rejected: {verdict.reason}"
    return cert, verdict.reason


def _safe_files(out: Path, instance: Instance, record: dict, deadline: float) -> tuple[list[PackRow], str]:
    from ..certificates.check.inductive import invariant_clauses

    stem = f"coins-{instance.name}"
    cert, why = _invariant_certificate(out, instance, stem, deadline)
    if cert is None:
        return [], why
    aig = build_aig(instance)
    data, model = _model_file(out, instance, aig, None, stem)
    clauses, problem = invariant_clauses(instance, cert)
    assert clauses is not None, problem
    latch = {cell: (model.latches[k][0] ^ int(flip)) for k, (cell, _, flip) in enumerate(aig.meaning)}
    lits = [[latch[abs(x) - 1] ^ int(x < 0) for x in clause] for clause in clauses]
    stored = record.get("certificate") or {}
    evidence = (
        f"inductive-invariant certificate certificates/{stem}.certificate.json (PDR's {len(clauses)} clauses, "
        f"3 DRAT proofs), accepted by coinsat's checker; stored answer unsolvable ({stored.get('kind')} certificate)"
    )
    witness = with_invariant(model, lits, f"{stem}.aig")
    return _safe_rows(out, instance, aig, None, stem, data, model, witness, evidence), ""


def _model_file(out: Path, instance: Instance, aig: Aig, horizon: int | None, stem: str) -> tuple[bytes, Circuit]:
    """Write ``stem.aig`` (AIGER 1.9) and read it back with coinsat's reader."""
    data = aig_19(circuit_of(aig), comment_lines(instance, aig, horizon))
    write_atomic(out / f"{stem}.aig", data)
    return data, read_aiger((out / f"{stem}.aig").read_bytes(), f"{stem}.aig")


def _safe_rows(out: Path, instance: Instance, aig: Aig, horizon: int | None, stem: str, data: bytes, model: Circuit,
               witness: Circuit, evidence: str) -> list[PackRow]:  # fmt: skip
    """Write the witness circuit, read it back, require the five checks, and write the BTOR2 twin."""
    write_atomic(out / f"{stem}.witness.aig", aig_19(witness))
    back = read_aiger((out / f"{stem}.witness.aig").read_bytes(), f"{stem}.witness.aig")
    checks = witness_checks(model, back)
    failed = [c.name for c in checks if not c.ok]
    if failed:
        raise InternalError(f"{stem}.witness.aig fails the Certifaiger checks {failed}")
    checked = f"{', '.join(c.name for c in checks)}: all 5 pass (coinsat's SAT checks on the files read back)"
    prop = "never the goal" if horizon is None else f"never the goal within {horizon}"
    rows = [PackRow(f"{stem}.aig", "aig", instance.name, prop, "safe", None, **_shape(model), sha256=_sha(data),
                    evidence=evidence, witness=f"{stem}.witness.aig", witness_checked=checked)]  # fmt: skip
    text = btor2_text(instance, aig, horizon)
    write_atomic(out / f"{stem}.btor2", text)
    bmodel = read_btor2((out / f"{stem}.btor2").read_text(), f"{stem}.btor2")
    rows.append(PackRow(f"{stem}.btor2", "btor2", instance.name, prop, "safe", None, **_shape(bmodel),
                        sha256=_sha(text.encode()), evidence=evidence, witness=f"{stem}.witness.aig (of the .aig)",
                        witness_checked="no BTOR2 certificate format; the AIGER twin's witness"))  # fmt: skip
    return rows


def _bounded_safe_files(out: Path, instance: Instance, L: int, record: dict, limit: int) -> tuple[list[PackRow], str]:
    """ "Never the goal within L - 1" (safe when the optimum is L): the witness of ``bounded.py``."""
    from .bounded import bounded_witness, has_goal, layers

    T = L - 1
    layer_list = layers(instance, T, limit)
    if layer_list is None:
        return [], f"more than {limit} configurations reachable within {T} moves: too many for an explicit invariant"
    if has_goal(instance, layer_list):
        raise InternalError(f"{instance.name}: a goal within {T} moves, but the stored optimum is {L}")
    stem = f"coins-{instance.name}-within{T}"
    aig = build_aig(instance, T)
    data, model = _model_file(out, instance, aig, T, stem)
    witness = bounded_witness(model, instance, aig, T, layer_list, f"{stem}.aig")
    size = sum(len(layer) for layer in layer_list)
    cert = record.get("certificate") or {}
    evidence = (
        f"stored optimum {L} ({cert.get('kind')} certificate); the {size} configurations reachable within {T} moves "
        "inside the window (breadth-first, rules.py) hold no goal"
    )
    return _safe_rows(out, instance, aig, T, stem, data, model, witness, evidence), ""


def write_hwmcc_pack(
    directory: str | Path,
    instances: Sequence[str | Path] | None = None,
    answers: str | Path | None = None,
    *,
    abc_cap: float | None = None,
    seconds_per_puzzle: float = 60.0,
    explicit_limit: int = 5000,
) -> HwmccPack:
    """Write the HWMCC pack (module docstring) into ``directory`` and its ``manifest.csv``.

    Parameters
    ----------
    directory : str or Path
        Created if missing; the benchmark files, witnesses, certificates and manifest go there.
    instances : sequence of paths, optional
        Instance files; default the packaged paper puzzles.
    answers : path, optional
        The stored answers (``gallery_answers.json``: keys ``<folder>/<file>`` relative to the
        instances' parent folder, each with the sha256 of its instance file); default the
        packaged ones.
    abc_cap : float, optional
        Seconds of ABC's ``pdr`` per ``.aig`` file (None: ABC is not timed).
    seconds_per_puzzle : float
        Time PDR gets to find an unsolvable puzzle's invariant.
    explicit_limit : int
        A solvable puzzle with optimum L also gets its safe file "never the goal within L - 1"
        when at most this many configurations are reachable within L - 1 moves (its witness
        lists them: ``hwmcc/bounded.py``).

    Returns
    -------
    HwmccPack
        The rows written, and the puzzles or files left out (with why).

    Raises
    ------
    UsageError
        When ABC is needed (an unsolvable puzzle's invariant, or ``abc_cap``) and not installed.
    InternalError
        When a witness fails its check, or ABC contradicts a known answer.
    """
    cpu0, abc0 = time.process_time(), _children_cpu()
    out = Path(directory)
    out.mkdir(parents=True, exist_ok=True)
    paths = [Path(p) for p in instances] if instances is not None else sorted((DATA / "paper").glob("*.toml"))
    answers_path = Path(answers) if answers is not None else PACKAGED_ANSWERS
    try:
        stored = json.loads(answers_path.read_text())
    except (OSError, ValueError) as e:
        raise UsageError(f"{answers_path}: cannot read the stored answers ({e})") from None
    rows: list[PackRow] = []
    left_out: list[tuple[str, str]] = []
    for path in paths:
        instance = read_instance(path)
        key = f"{path.resolve().parent.name}/{path.name}"
        record = _stored(stored, key, path)
        if record is None:
            left_out.append((instance.name, f"no stored answer for this version of {key}"))
            continue
        why, what = "", ""
        if instance.moves != "jump":
            why = "slide moves (the circuit encodes jumps)"
        elif record.get("status") in ("optimal", "feasible") and record.get("moves"):
            solution, why = _solution_in_window(instance, record)
            if solution is not None:
                rows += _unsafe_files(out, instance, solution, record)
                if record.get("status") == "optimal" and len(solution) >= 1:
                    new, why = _bounded_safe_files(out, instance, len(solution), record, explicit_limit)
                    what = f"coins-{instance.name}-within{len(solution) - 1}"
                    rows += new
        elif record.get("status") == "unsolvable":
            if len(instance.labels) > 1:
                why = "labelled coins (no invariant certificate)"
            else:
                new, why = _safe_files(out, instance, record, time.perf_counter() + seconds_per_puzzle)
                rows += new
        else:
            why = f"the stored answer is {record.get('status')!r}"
        if why:
            left_out.append((what or instance.name, why))
    if abc_cap is not None:
        rows = [_with_abc(out, r, abc_cap) if r.format == "aig" else r for r in rows]
    _write_manifest(out / "manifest.csv", rows)
    return HwmccPack(out, tuple(rows), tuple(left_out), time.process_time() - cpu0, _children_cpu() - abc0)


def _with_abc(out: Path, row: PackRow, cap: float) -> PackRow:
    answer, cpu = _abc_pdr((out / row.file).read_bytes(), cap)
    if answer not in ("undecided", row.expected):
        raise InternalError(f"{row.file}: ABC's pdr says {answer}, the checked evidence says {row.expected}")
    return PackRow(**{**asdict(row), "abc_pdr": answer, "abc_pdr_cpu": round(cpu, 2)})


def _write_manifest(path: Path, rows: list[PackRow]) -> None:
    import io

    names = [f.name for f in fields(PackRow)]
    buf = io.StringIO()
    w = csv.DictWriter(buf, fieldnames=names, lineterminator="\n")
    w.writeheader()
    for r in rows:
        w.writerow({k: ("" if v is None else v) for k, v in asdict(r).items()})
    write_atomic(path, buf.getvalue())


def read_manifest(path: str | Path) -> list[dict[str, str]]:
    """The rows of a pack's ``manifest.csv``."""
    try:
        with open(path, newline="") as fh:
            return list(csv.DictReader(fh))
    except OSError as e:
        raise InstanceError(f"cannot read the manifest ({e.strerror})", str(path), None) from None
