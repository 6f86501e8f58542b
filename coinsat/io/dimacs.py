"""DIMACS CNF, WCNF (MaxSAT) and OPB (pseudo-Boolean) files of the SAT encoding.

The formulas are those of :func:`coinsat.encode.sat.encode` (spec
``encodings/sat.md``) and, for OPB, the rows of :func:`coinsat.encode.pb.pb_rows`;
they are built by the caller (``coinsat.export`` for the CLI, the certificate
builder and checker for proofs).  This module only prints them, with a header
that makes every file self-describing, and reads answers back:

* ``c`` (``*`` in OPB) comment lines: instance name and source, board, coins,
  start and goal, horizon, encoding options and clauses per constraint family,
  coinsat version, and the expected answer when it is known;
* the symbol table, one line per variable: ``c var 17 Fill(cell=(1, 2), t=3)``
  (the meanings of ``encodings/sat.md``: Occ = x[c,t], Fill = f[c,t],
  Vac = v[c,t], NoOp = n[t], ...); :func:`read_symbols` and
  :func:`decode_symbols` turn a model back into moves with nothing but this
  table, so an external solver's answer can be checked by ``verify``.

Numbering is the encoder's (deterministic), and nothing here depends on time,
paths or dictionaries' hash order: the same input gives byte-identical files.

Formats:

* ``cnf``: ``p cnf V C``; satisfiable iff some solution has at most T moves
  inside the board's window (no-op steps make it monotone in T).
* ``wcnf``: the MaxSAT Evaluation format used since 2022 (what PySAT's
  ``WCNF.to_fp`` writes by default and current MSE solvers read): no ``p``
  line, hard clauses start with ``h``, soft clauses with their weight.
  ``wcnf-legacy``: the pre-2022 format, ``p wcnf V C top`` with hard clauses
  weighted ``top`` (for older solvers; PySAT's RC2 reads both).  Hard: the CNF
  at horizon T; soft: one unit clause ``n[t]`` of weight 1 per step, so the
  cost of an optimum is the minimum number of moves (<= T), and the hard part is
  unsatisfiable iff no solution has <= T moves.  Needs the no-op option (N1).
* ``opb``: the PB competition format (``* #variable= V #constraint= M``,
  ``+1 x3 -2 x7 >= 0 ;``), decision version (no objective).  The cardinality
  families are written natively instead of as clauses: C4 and C5 as
  ``n[t] + sum f[c,t] = 1`` and ``n[t] + sum v[c,t] = 1``, C6 as
  ``-d f[p,t] + sum x[n,t] >= 0``; every other clause ``l1 | .. | lk`` as
  ``sum l >= 1`` with ``~x`` written ``-x`` and the right side lowered by one.
  Auxiliary variables that only the replaced clauses used (ladders, counters)
  stay declared and unconstrained.
"""

from __future__ import annotations

import re
from typing import Iterable

from ..configuration import UNLABELED
from ..encode.pb import Row, clauses_with_empty
from ..encode.sat import SatFormula
from ..errors import UsageError
from ..instance import Instance
from ..rules import Move
from ..solution import Solution

SPEC = "encodings/sat.md"


# --- what to say about a formula ------------------------------------------------------


def expected_answer(instance: Instance, horizon: int) -> str | None:
    """'SAT' / 'UNSAT' when the instance's known optimum decides the horizon, else None.

    T < optimum: no solution with <= T moves anywhere, so none in the window either.
    T >= optimum: some optimal solution stays in the window when the window is
    exact for T (every cell within distance T of the start is on the board).
    """
    k = instance.known_optimal
    if k is None:
        return None
    if horizon < k:
        return "UNSAT"
    return "SAT" if instance.exact_within(horizon) else None


def _coins(instance: Instance, config) -> str:
    c = instance.board.coords
    return " ".join(f"{c[cell]}" + ("" if lab == UNLABELED else f":{lab}") for cell, lab in config.coins)


def comment_safe(text: str) -> str:
    """``text`` as one comment line in the DIMACS alphabet (printable ASCII): the typographic
    signs of the project's texts spelt in ASCII (``§5`` is ``section 5``, ``→`` is ``->``), every
    other character written as a backslash escape.  An instance's name or source may hold a line
    break (a parser would read what follows as a clause) or a byte that parsers disagree on
    (``\\v``, U+2028: ``encodings/sat.md`` section 9); a comment never does."""
    spelt = text.translate(_IN_ASCII)
    return _OUTSIDE_COMMENT.sub(lambda m: m.group().encode("unicode_escape").decode("ascii"), spelt)


_OUTSIDE_COMMENT = re.compile(r"[^\x20-\x7e]")
#: the signs the instance files and headers use, as a reader of a DIMACS comment would spell them
_IN_ASCII = str.maketrans(
    {
        "§": "section ",
        "→": "->",
        "←": "<-",
        "≤": "<=",
        "≥": ">=",
        "–": "-",
        "—": "-",
        "−": "-",
        "×": "x",
        "·": "*",
        "²": "^2",
        "³": "^3",
        "‘": "'",
        "’": "'",
        "“": '"',
        "”": '"',
        "…": "...",
    }
)


def header_lines(instance: Instance, formula, fmt: str, expected: str | None) -> list[str]:
    """The comment lines (without the comment character) of every format, each in the
    DIMACS alphabet (:func:`comment_safe`)."""
    return [comment_safe(line) for line in _header_lines(instance, formula, fmt, expected)]


def _header_lines(instance: Instance, formula, fmt: str, expected: str | None) -> list[str]:
    from .._version import __version__

    b = instance.board
    T = formula.horizon
    out = [f"coinsat {__version__}: coin-moving puzzle as {fmt}, spec {SPEC}", f"instance: {instance.name}"]
    if instance.source:
        out.append(f"source: {instance.source}")
    out += [
        f"board: {b.kind}, window {b.window} ({'exact' if b.exact else 'not exact'}), {b.size} cells",
        f"coins: {instance.n_coins}, labels {', '.join(instance.labels)}; adjacency d = {instance.d}; "
        f"goal placement {instance.goal_placement} ({len(instance.goal_configurations)} in the window)",
        f"start: {_coins(instance, instance.start)}",
        f"goal: {_coins(instance, instance.goal)}",
        f"horizon: T = {T} moves; satisfiable iff a solution with at most {T} moves exists in the window",
        "encoding options: " + " ".join(f"{k}={int(v)}" for k, v in formula.options.as_dict().items()),
        "clauses per family: " + " ".join(f"{k}={v}" for k, v in formula.family_counts.items()),
    ]
    if instance.known_optimal is not None:
        out.append(f"known optimum: {instance.known_optimal} moves")
    out.append(f"expected: {expected or 'unknown'}")
    out.append("symbols: 'var N Meaning' for every variable (Occ = x[c,t], Fill = f[c,t], Vac = v[c,t], NoOp = n[t])")
    out += [f"var {v} {meaning}" for v, meaning in formula.symbols()]
    return out


def _clause_line(c: Iterable[int], lead: str = "") -> str:
    return lead + " ".join(map(str, c)) + " 0"


# --- CNF, WCNF ---------------------------------------------------------------------------


def cnf_text(instance: Instance, f: SatFormula, *, expected: str | None = None) -> str:
    """The DIMACS CNF text of the formula ``f`` of ``instance`` (module docstring)."""
    expected = expected or expected_answer(instance, f.horizon)
    clauses = clauses_with_empty(f)
    lines = ["c " + h for h in header_lines(instance, f, "CNF", expected)]
    lines.append(f"p cnf {f.nvars} {len(clauses)}")
    lines += [_clause_line(c) for c in clauses]
    return "\n".join(lines) + "\n"


def wcnf_text(instance: Instance, f: SatFormula, *, expected: str | None = None, legacy: bool = False) -> str:
    """WCNF: minimise the number of moves within the horizon (module docstring)."""
    if not f.options.noop:
        raise UsageError("wcnf needs the no-op option (N1): the moves counted are the steps that are not no-ops")
    from ..encode.varmap import NoOp

    softs = [[f.pool.obj2id[NoOp(t)]] for t in range(1, f.horizon + 1)]
    hard = clauses_with_empty(f)
    exp = expected or _expected_cost(instance, f.horizon)
    lines = [
        "c " + h
        for h in header_lines(
            instance, f, "weighted MaxSAT (WCNF" + (", legacy" if legacy else ", MSE 2022+") + ")", exp
        )
    ]
    lines.append("c objective: one soft unit clause NoOp(t) of weight 1 per step; cost = number of moves")
    if legacy:
        top = len(softs) + 1
        lines.append(f"p wcnf {f.nvars} {len(hard) + len(softs)} {top}")
        lines += [_clause_line(c, "1 ") for c in softs]
        lines += [_clause_line(c, f"{top} ") for c in hard]
    else:
        lines += [_clause_line(c, "1 ") for c in softs]
        lines += [_clause_line(c, "h ") for c in hard]
    return "\n".join(lines) + "\n"


def _expected_cost(instance: Instance, horizon: int) -> str | None:
    e = expected_answer(instance, horizon)
    if e == "UNSAT":
        return "hard clauses UNSAT"
    if e == "SAT":
        return f"optimum cost {instance.known_optimal}"
    return None


# --- OPB ---------------------------------------------------------------------------------


def opb_text(instance: Instance, f: SatFormula, rows: list[Row], *, expected: str | None = None) -> str:
    """OPB (PB competition format) of ``rows = encode.pb.pb_rows(f)`` (module docstring)."""
    exp = expected or expected_answer(instance, f.horizon)
    lines = [f"* #variable= {f.nvars} #constraint= {len(rows)}"]
    lines += ["* " + h for h in header_lines(instance, f, "pseudo-Boolean decision problem (OPB)", exp)]
    lines.append(
        "* native: C4, C5 as '= 1' rows, C6 as '-d f[p,t] + sum x[n,t] >= 0' rows; "
        "the other families as clauses '>= 1 - #negative literals'"
    )
    for terms, rel, rhs in rows:
        lines.append(" ".join(f"{a:+d} x{v}" for a, v in terms) + f" {rel} {rhs} ;")
    return "\n".join(lines) + "\n"


# --- reading answers back through the symbol table --------------------------------------

_VAR = re.compile(r"^[c*] var (\d+) (\w+)\((.*)\)$")
_STEP = re.compile(r"^cell=(.*), t=(\d+)$")


def read_symbols(text: str) -> dict[int, tuple[str, str]]:
    """var -> (kind, fields) from the ``c var N Kind(fields)`` lines of an exported file."""
    out = {}
    for line in text.splitlines():
        m = _VAR.match(line)
        if m:
            out[int(m.group(1))] = (m.group(2), m.group(3))
        elif line.startswith(("p ", "h ")) or line[:1].isdigit() or line[:1] in "-+":
            break  # the formula starts: the table is over
    return out


def decode_symbols(instance: Instance, symbols: dict[int, tuple[str, str]], model: Iterable[int]) -> Solution:
    """The moves of ``model`` read through the symbol table alone (not verified: use ``verify``).

    Move t is (the cell whose Vac(cell, t) is true, the cell whose Fill(cell, t)
    is true); a step with neither is a no-op.  Raises UsageError on a model that
    does not describe one move per step.
    """
    index = {str(c): i for i, c in enumerate(instance.board.coords)}
    fills: dict[int, list[int]] = {}
    vacs: dict[int, list[int]] = {}
    for lit in model:
        if lit <= 0 or lit not in symbols:
            continue
        kind, fields = symbols[lit]
        if kind not in ("Fill", "Vac"):
            continue
        m = _STEP.match(fields)
        if not m or m.group(1) not in index:
            raise UsageError(f"symbol table: cannot read {kind}({fields})")
        (fills if kind == "Fill" else vacs).setdefault(int(m.group(2)), []).append(index[m.group(1)])
    moves = []
    for t in sorted(set(fills) | set(vacs)):
        f, v = fills.get(t, []), vacs.get(t, [])
        if len(f) != 1 or len(v) != 1:
            raise UsageError(f"model has no single move at step {t}: fills {f}, vacates {v}")
        moves.append(Move(v[0], f[0]))
    return Solution(tuple(moves))


def gbd_hash(text: str) -> str:
    """The GBD hash of a DIMACS CNF text: md5 of its clause tokens (comment and ``p``
    lines dropped) joined by single spaces — the identifier the Global Benchmark
    Database and its ``gbdc`` tool give a CNF (tests check the two agree)."""
    import hashlib

    tokens = []
    for line in text.splitlines():
        if line.startswith(("c", "p")):
            continue
        tokens += line.split()
    return hashlib.md5(" ".join(tokens).encode("ascii")).hexdigest()
