"""Bounded certificates (scope horizon): "no solution with <= T moves", as a DRAT proof.

Fields::

    "horizon": T, "encoding": {option: bool, ...} (coinsat.encode.options), or "core",
    "margin": null, or the margin of the wider lattice window (hull(start, goal) + margin)
              the formula was built in, chosen so that the window holds R_T (below) and
              the claim is global; the checker rebuilds that window itself,
    "cnf": file name (DIMACS, beside the JSON), "cnf_gbd_hash": GBD hash (gbdc),
    "proof": file name (DRAT text), "proof_format": "drat", "solver": name,
    "window_exact": true when the window is exact for T (then the claim is global
                    for that horizon, else it speaks of solutions inside the window),
    "solution": optional moves of a solution of length T + 1 (an optimality claim).

With ``"proof_format": "cubes"`` there is no single ``proof``: ``cubes``, ``cube_proofs``
and ``cover_proof`` (cube-and-conquer; checked by :mod:`.cubes`, one proof at a time).

The CNF is ``coinsat.encode.sat.encode(instance, T, options)`` as
``coinsat.io.dimacs.cnf_text`` prints it; it is satisfiable iff some solution
with at most T moves stays inside the window (spec ``encodings/sat.md``).  The
proof comes from a proof-producing solver through PySAT (CaDiCaL 1.9.5 by
default; CaDiCaL 1.5.3 and Glucose 4 also allowed — never MapleSAT, whose
proofs are not sound).

With ``"encoding": "core"`` the CNF is the core-only formula of :mod:`.core_cnf`
(definition families C1–C8 and N1 only, written from the spec by code that shares
nothing with ``coinsat/encode/``): that path of the checker never imports the encoder,
so the certificate does not trust it, nor any pruning family.

The checker (:func:`check_bounded`) trusts the encoder and the DRAT checker,
not the solver: it hashes the CNF file with gbdc, re-encodes the instance and
hashes that too (so the CNF is the formula of *this* instance and horizon),
and replays the proof with dratify (cdclkit's native engine when installed).
A solution, when present, is replayed with rules.py (``solution.verify``).
"""

from __future__ import annotations

import os
import pickle
import select
import signal
import tempfile
import time
from pathlib import Path

from ... import geometry
from ...errors import CoinsatError, LimitReached
from ...instance import Instance
from .claims import Claim
from .format import checked_solution

PROOF_SOLVERS = ("cadical195", "cadical153", "glucose4")


def window_exact(instance: Instance, horizon: int) -> bool:
    """Is "no solution with <= horizon moves in the window" a global fact?

    Yes on exact windows, and when the window holds the layer R_T: R_0 = the
    start's cells, R_{t+1} = R_t plus every lattice cell with >= d neighbours
    in R_t.  By induction the coins after t moves lie in R_t (a placed coin has
    d coin neighbours, all in R_{t-1}), so solutions with <= T moves never
    leave R_T.  Computed here from geometry alone, not taken from the engine.
    """
    b = instance.board
    if b.exact or instance.exact_within(horizon):
        return True
    layer = {b.lattice_coords[c] for c in instance.start.cells}  # graph boards are exact
    for _ in range(horizon):
        grown = {
            p
            for c in layer
            for p in geometry.neighbours(b.kind, c)
            if p not in layer and sum(n in layer for n in geometry.neighbours(b.kind, p)) >= instance.d
        }
        if not grown:
            break
        layer |= grown
    return all(b.has(c) for c in layer)


def widened(instance: Instance, margin: int) -> Instance:
    """The same puzzle in the lattice window hull(start, goal) + ``margin``.

    Restates ``search/driver.widen`` on purpose: the checker rebuilds the window the
    certificate names from the instance alone, sharing no code with the engine that
    chose it (the re-encoding's hash then tells whether the CNF is that window's)."""
    from ...instance import make_instance

    b = instance.board
    start = instance.start.placement(b.coords)
    goal = instance.goal.placement(b.coords)
    return make_instance(
        b.kind,
        start,
        goal,
        adjacency=instance.d,
        goal_placement=instance.goal_placement,
        name=instance.name,
        margin=margin,
    )


def gbd_hash_file(path: str | Path) -> str:
    import gbdc

    try:
        return gbdc.gbdhash(str(path))
    except RuntimeError as e:  # gbdc's parser refuses a malformed DIMACS file
        raise ValueError(f"the CNF file cannot be hashed: {e}") from None


def gbd_hash_text(text: str) -> str:
    fd, tmp = tempfile.mkstemp(suffix=".cnf")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        return gbd_hash_file(tmp)
    finally:
        os.unlink(tmp)


def encoding_problem(encoding: object) -> str | None:
    """Why a certificate's ``encoding`` object does not keep the formula's meaning
    "a solution with at most T moves exists in the window" (None: it does).

    The rule (encodings/sat.md, section 8): ``noop`` must be true — without N1 the
    formula at T says "exactly T moves", and its refutation says nothing about shorter
    solutions — and every other field must name a family that encodings/sat.md proves
    sound for "at most T" (all of :class:`~coinsat.encode.options.EncodingOptions`),
    with a JSON boolean value.  Absent fields take their defaults.
    """
    from ...encode.options import EncodingOptions

    if not isinstance(encoding, dict):
        return "the encoding must be an object of option: boolean"
    unknown = sorted(set(encoding) - set(EncodingOptions.names()))
    if unknown:
        return f"unknown encoding option(s) {unknown}"
    loose = sorted(k for k, v in encoding.items() if not isinstance(v, bool))
    if loose:
        return f"encoding option(s) {loose} must be true or false"
    if encoding.get("noop", True) is not True:
        return (
            "encoding option noop = false makes the formula at T mean 'exactly T moves': "
            "its refutation does not prove 'no solution with <= T moves'"
        )
    return None


def check_bounded(
    instance: Instance, cert: dict, base_dir: Path, deadline: float | None = None
) -> tuple[bool, str, Claim | None]:
    """The checker (see the module docstring): what the evidence proves, derived from the
    instance, the proof and the solution alone.  Order: cheap checks first."""
    horizon = cert["horizon"]
    if not isinstance(horizon, int) or isinstance(horizon, bool) or horizon < -1:
        return False, f"the horizon must be an integer >= -1, not {horizon!r}", None
    if cert.get("margin") is not None:  # encoded in a wider window of the same puzzle
        margin = cert["margin"]
        if (
            not instance.board.is_lattice
            or not isinstance(margin, int)
            or isinstance(margin, bool)
            or margin < instance.margin
        ):
            return False, "a margin is only for widening a lattice window", None
        try:
            instance = widened(instance, margin)
        except CoinsatError as e:  # e.g. a window far past the board size cap
            return False, f"the margin {margin} gives no window the checker can build: {e}", None
    solution, why = checked_solution(instance, cert, horizon)
    if why:
        return False, why, None
    length = None if solution is None else len(solution)
    if horizon < 0:
        if solution is None:
            return False, "horizon -1 certifies a solution, and there is none", None
        return True, f"a verified solution of {length} moves", Claim(solution=length)
    cubes = cert.get("proof_format") == "cubes"
    if cert.get("solver") not in PROOF_SOLVERS or cert.get("proof_format") not in ("drat", "cubes"):
        return False, f"proofs are accepted from {PROOF_SOLVERS} in DRAT format only (one proof, or cubes)", None
    core = cert["encoding"] == "core"
    problem = None if core else encoding_problem(cert["encoding"])
    if problem:
        return False, problem, None
    cnf_path = base_dir / cert["cnf"]
    proof_path = cnf_path if cubes else base_dir / cert["proof"]
    for p in (cnf_path, proof_path):
        if not p.is_file():
            return False, f"missing file {p}", None
    cnf_vars = _declared_variables(cnf_path)
    if cnf_vars is None or horizon > cnf_vars:  # before any work that grows with the horizon
        return (
            False,
            (
                "the CNF file has no 'p cnf' header"
                if cnf_vars is None
                else f"horizon {horizon} exceeds the CNF's {cnf_vars} variables (the formula has a "
                "no-op variable per step): it is not this horizon's formula"
            ),
            None,
        )
    exact = window_exact(instance, horizon)
    if bool(cert.get("window_exact")) != exact:
        return False, "window_exact does not match the instance's window", None
    if gbd_hash_file(cnf_path) != cert["cnf_gbd_hash"]:
        return False, "the CNF file's GBD hash differs from the certificate's", None
    if gbd_hash_text(formula_text(instance, horizon, cert["encoding"])) != cert["cnf_gbd_hash"]:
        return (
            False,
            "the CNF is not this instance's formula for this horizon (GBD hash of the re-encoding differs)",
            None,
        )
    if cubes:
        from .cubes import check_cubes

        ok, why, _ = check_cubes(cnf_path, cnf_vars, cert, base_dir, deadline, _drat)
        if not ok:
            return False, why, None
        return True, why, Claim(solution=length, bound=horizon, window=not exact)
    ok, why, steps = _drat(cnf_path, proof_path, deadline)
    if not ok:
        return False, f"DRAT proof rejected: {why}", None
    how = f"{steps} proof steps checked" if steps else why
    return True, f"DRAT proof verified ({how})", Claim(solution=length, bound=horizon, window=not exact)


def formula_text(instance: Instance, horizon: int, encoding: object) -> str:
    """The CNF a certificate with this ``encoding`` field must hold, rebuilt here: the
    core-only formula (no import of ``coinsat.encode``), or the encoder's with the options."""
    if encoding == "core":
        from .core_cnf import core_cnf_text

        return core_cnf_text(instance, horizon)
    from ...encode.options import EncodingOptions
    from ...encode.sat import encode
    from ...io.dimacs import cnf_text

    if not isinstance(encoding, dict):
        raise ValueError('the encoding must be an object of option: boolean, or "core"')
    return cnf_text(instance, encode(instance, horizon, EncodingOptions(**encoding)))


def _declared_variables(path: Path) -> int | None:
    """The variable count of a DIMACS file's ``p cnf V C`` line (None: no such line first)."""
    try:
        with open(path, encoding="utf-8") as f:
            for line in f:
                if line.startswith("p cnf "):
                    return int(line.split()[2])
                if line and line[0] not in "c\n":
                    return None
    except (OSError, UnicodeDecodeError, ValueError, IndexError):
        return None
    return None


def _drat_in_process(cnf_path: Path, proof_path: Path) -> tuple[bool, str, int]:
    import cdclkit  # noqa: F401  (registers the native DRAT engine with dratify)
    import dratify

    try:
        formula = dratify.parse_dimacs(cnf_path.read_text(encoding="utf-8"))
        result = dratify.check_proof(formula, proof_path.read_text(encoding="utf-8"))
    except Exception as e:  # noqa: BLE001 — a proof the checker cannot read is a rejected proof
        return False, f"unreadable proof: {type(e).__name__}: {e}", 0
    return bool(result.ok), str(result.reason), int(result.steps or 0)


def _drat(cnf_path: Path, proof_path: Path, deadline: float | None) -> tuple[bool, str, int]:
    """dratify's verdict on the proof.  dratify has no time limit of its own, so under a
    deadline it runs in a forked child that is killed when the deadline passes (a plain
    ``os.fork``: it works inside daemonic worker processes too, where multiprocessing
    refuses children).  Without ``fork`` the check runs here, unbounded."""
    if deadline is None or deadline == float("inf") or not hasattr(os, "fork"):
        return _drat_in_process(cnf_path, proof_path)
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: check, send the verdict, leave without running any cleanup
        os.close(read_end)
        try:
            verdict = _drat_in_process(cnf_path, proof_path)
        except BaseException as e:  # noqa: BLE001 — any failure is a rejection, reported
            verdict = (False, f"{type(e).__name__}: {e}", 0)
        with os.fdopen(write_end, "wb") as out:
            out.write(pickle.dumps(verdict))
        os._exit(0)
    os.close(write_end)
    try:
        with os.fdopen(read_end, "rb") as answer:
            ready, _, _ = select.select([answer], [], [], max(0.0, deadline - time.perf_counter()))
            if not ready:
                raise LimitReached("the DRAT check did not finish within the time limit")
            data = answer.read()
    finally:
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        os.waitpid(pid, 0)
    if not data:  # the child died (killed, out of memory): no verdict is a rejection
        return False, "the DRAT checker stopped without a verdict", 0
    ok, why, steps = pickle.loads(data)
    return bool(ok), str(why), int(steps)
