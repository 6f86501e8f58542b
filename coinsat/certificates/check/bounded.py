"""Bounded certificates (scope horizon): "no solution with <= T moves", as a DRAT or LRAT proof.

Fields::

    "horizon": T, "encoding": {option: bool, ...} (coinsat.encode.options), or "core",
    "margin": null, or the margin of the wider lattice window (hull(start, goal) + margin)
              the formula was built in, chosen so that the window holds R_T (below) and
              the claim is global; the checker rebuilds that window itself,
    "cnf": file name (DIMACS, beside the JSON; optional: a copy of the formula the
           checker writes itself), "cnf_gbd_hash": the formula's GBD hash,
    "proof": file name (DRAT text), "proof_format": "drat", "solver": name,
    "window_exact": true when the window is exact for T (then the claim is global
                    for that horizon, else it speaks of solutions inside the window),
    "solution": optional moves of a solution of length T + 1 (an optimality claim).

With ``"proof_format": "lrat"`` (``"encoding": "core"`` only; ``solver`` informational) the
``proof`` is an LRAT proof of the core-only formula, checked by the linear check of
:mod:`.lrat` (no DRAT checker, no search): the formula the standalone
``scripts/referee_check.py`` writes itself and checks the same proof against.

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
not the solver, and no byte it did not make: it writes the formula text itself from
the instance (:func:`formula_text`) and replays the proof with dratify (cdclkit's
native engine when installed) against *that* text.  The certificate's CNF file is
at most a copy, compared byte for byte with the checker's text, and never parsed;
``cnf_gbd_hash`` must be the GBD hash of the checker's text.  A proof file is read
only when every byte is printable ASCII or a newline (:func:`.format.alphabet_problem`),
and every file name is a plain name inside the certificate's folder
(:func:`.format.confined_file`).  The horizon is at most :func:`max_horizon`, a bound the
checker computes; the formula is built and the proof replayed under the deadline and
the memory limit (:func:`verdict_in_child`).  Who parses what: ``encodings/sat.md`` section 9.
A solution, when present, is replayed with rules.py (``solution.verify``).
"""

from __future__ import annotations

import hashlib
import math
import os
import tempfile
from pathlib import Path
from typing import Callable

from ... import geometry
from ...errors import CoinsatError, LimitReached
from ...instance import Instance
from ...limits import in_child, poll
from .claims import Claim
from .format import alphabet_problem, checked_solution, confined_file

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
    # The layers only grow: stop at the first that leaves the window or stops growing (at
    # most one round per cell of the window, whatever the horizon), polling the limits.
    for _ in range(horizon):
        poll()
        grown = {
            p
            for c in layer
            for p in geometry.neighbours(b.kind, c)
            if p not in layer and sum(n in layer for n in geometry.neighbours(b.kind, p)) >= instance.d
        }
        if not grown:
            break
        if not all(b.has(c) for c in grown):
            return False
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
    """The GBD hash of a DIMACS CNF file (the ``gbdc`` package; ValueError when it cannot parse it)."""
    import gbdc

    try:
        return gbdc.gbdhash(str(path))
    except RuntimeError as e:  # gbdc's parser refuses a malformed DIMACS file
        raise ValueError(f"the CNF file cannot be hashed: {e}") from None


def gbd_hash_text(text: str) -> str:
    """The GBD hash of DIMACS CNF text (written to a temporary file for :func:`gbd_hash_file`)."""
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


def max_horizon(instance: Instance) -> int:
    """The largest horizon a bounded certificate may name, computed from the instance alone.

    A shortest solution inside a window of W cells with k coins visits distinct
    configurations, so it has fewer than C(W, k) moves: "no solution with <= C(W, k) - 1
    moves in the window" already says "none in the window", and a larger horizon proves
    nothing more.  The bound is the checker's, not the file's (a forged header once made
    the checker grow a window for a horizon of 100,000)."""
    return math.comb(instance.board.size, len(instance.start.cells)) - 1


def check_bounded(
    instance: Instance, cert: dict, base_dir: Path, deadline: float | None = None
) -> tuple[bool, str, Claim | None]:
    """The checker (see the module docstring): what the evidence proves, derived from the
    instance, the proof and the solution alone.  Order: cheap checks first.

    The formula is the checker's own text (:func:`formula_text`); the certificate's CNF
    file, when it names one, is only compared with it byte for byte.  The proof files are
    read only after :func:`~.format.alphabet_problem` passed them."""
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
    fmt = cert.get("proof_format")
    cubes = fmt == "cubes"
    if fmt not in ("drat", "cubes", "lrat") or (fmt != "lrat" and cert.get("solver") not in PROOF_SOLVERS):
        return False, f"proofs are accepted in LRAT, or from {PROOF_SOLVERS} in DRAT (one proof, or cubes)", None
    core = cert["encoding"] == "core"
    if fmt == "lrat" and not core:
        return False, 'an LRAT proof is checked against the core-only formula only ("encoding": "core")', None
    problem = None if core else encoding_problem(cert["encoding"])
    if problem:
        return False, problem, None
    cap = max_horizon(instance)
    if horizon > cap:
        return (
            False,
            f"horizon {horizon} exceeds {cap}, the number of configurations of the window less one: "
            "no shortest solution is that long (certify 'unsolvable' instead)",
            None,
        )
    copy = None
    if cert.get("cnf") is not None:
        copy, why = confined_file(base_dir, cert["cnf"], "the CNF file")
        if why:
            return False, why, None
    if cubes:
        from .cubes import cube_problem

        why = cube_problem(cert, base_dir)
        if why:
            return False, why, None
    else:
        _, why = confined_file(base_dir, cert.get("proof"), "the proof file")
        if why:
            return False, why, None
    exact = window_exact(instance, horizon)
    if bool(cert.get("window_exact")) != exact:
        return False, "window_exact does not match the instance's window", None
    ok, why = verdict_in_child(_decide, (instance, horizon, cert, base_dir, copy), deadline)
    if not ok:
        return False, why, None
    return True, why, Claim(solution=length, bound=horizon, window=not exact)


def _decide(instance: Instance, horizon: int, cert: dict, base_dir: Path, copy: Path | None) -> tuple[bool, str]:
    """The part of the check whose cost grows with the formula: build the formula text here,
    compare the certificate's copy and hash with it, and replay the proof(s) against it."""
    lrat = cert.get("proof_format") == "lrat"
    if lrat:  # the clauses themselves, for the LRAT check: built once, printed once
        from .core_cnf import core_clauses, core_cnf_text

        cnf = core_clauses(instance, horizon)
        text = core_cnf_text(instance, horizon, cnf)
    else:
        text = formula_text(instance, horizon, cert["encoding"])
    own = alphabet_problem(text.encode("utf-8"), "the checker's own formula")
    if own:  # an instance whose text leaks into a comment unescaped: never parse it
        return False, own
    if copy is not None:
        not_it = "the CNF file is not this instance's formula for this horizon (the re-encoding differs in"
        if copy.stat().st_size != len(text):  # before reading a file of any size
            return False, f"{not_it} size)"
        if copy.read_bytes() != text.encode("ascii"):
            return False, f"{not_it} bytes)"
    if cert.get("cnf_gbd_hash") is not None and cert["cnf_gbd_hash"] != gbd_hash(text):
        return False, "the certificate's GBD hash is not the formula's (the re-encoding differs in hash)"
    if cert.get("proof_format") == "cubes":
        from .cubes import check_cubes

        ok, why, _ = check_cubes(text, cert, base_dir, refute)
        return ok, why
    if lrat:
        from .lrat import check_lrat

        data = (base_dir / cert["proof"]).read_bytes()
        problem = alphabet_problem(data, cert["proof"])
        if problem:
            return False, problem
        ok, why, _ = check_lrat(cnf.clauses, data)
        return ok, why if ok else f"LRAT proof rejected: {why}"
    ok, why, steps = refute(text, base_dir / cert["proof"])
    if not ok:
        return False, f"DRAT proof rejected: {why}"
    how = f"{steps} proof steps checked" if steps else why
    return True, f"DRAT proof verified ({how})"


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


def gbd_hash(formula: str) -> str:
    """The GBD hash of the checker's own DIMACS text: the md5 of its clause tokens (comment and
    ``p`` lines dropped) joined by single spaces, as the Global Benchmark Database and gbdc
    define it.  Written here so that the checker needs neither gbdc nor ``coinsat.io`` (which
    imports the encoder); tests hold it to gbdc's ``gbdhash``."""
    tokens: list[str] = []
    for line in formula.split("\n"):
        if not line.startswith(("c", "p")):
            tokens += line.split()
    return hashlib.md5(" ".join(tokens).encode("ascii")).hexdigest()


def refute(formula: str, proof_path: Path) -> tuple[bool, str, int]:
    """dratify's verdict on the DRAT proof in ``proof_path`` for the checker's own ``formula``
    text (ok, why, steps).  The proof is read only if every byte is in the DIMACS alphabet."""
    import cdclkit  # noqa: F401  (registers the native DRAT engine with dratify)
    import dratify

    data = proof_path.read_bytes()
    problem = alphabet_problem(data, proof_path.name)
    if problem:
        return False, problem, 0
    try:
        result = dratify.check_proof(dratify.parse_dimacs(formula), data.decode("ascii"))
    except Exception as e:  # noqa: BLE001 — a proof the checker cannot read is a rejected proof
        return False, f"unreadable proof: {type(e).__name__}: {e}", 0
    return bool(result.ok), str(result.reason), int(result.steps or 0)


def verdict_in_child(task: Callable[..., tuple[bool, str]], args: tuple, deadline: float | None) -> tuple[bool, str]:
    """``task(*args)``'s verdict, computed under the deadline and the ambient budget by
    :func:`coinsat.limits.in_child` (the formula builder and dratify have no limits of their own).

    The checker's rules: a limit (the deadline, the memory limit, or running out of memory) is
    LimitReached, neither accepted nor rejected; any other failure inside the task is a rejection
    naming it; a child that ends without a verdict (killed from outside) is a rejection."""

    def decide(*args) -> tuple[bool, str]:
        try:
            return task(*args)
        except LimitReached:  # the inherited budget, polled inside the task: no verdict
            raise
        except MemoryError:
            raise LimitReached("memory limit (the proof check ran out of memory)") from None
        except Exception as e:  # noqa: BLE001 — any failure is a rejection, reported
            return False, f"{type(e).__name__}: {e}"

    ok, why = in_child(
        decide,
        args,
        deadline=deadline,
        what="the proof check",
        lost=lambda status: (False, "the proof checker stopped without a verdict"),
    )
    return bool(ok), str(why)
