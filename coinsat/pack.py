"""Benchmark packs: ``coinsat pack sat-competition DIR`` writes a SAT Competition pack.

A pack is a folder of DIMACS CNF files, ``<family>/<file>.cnf``, and a manifest
``pack.csv`` (``family,file,answer,horizon,instance,answer_source,hash``).  What the SAT
Competition's selection asks of a benchmark family, and how the pack meets it:

* **at most 16 instances per family** (``per_family``, at most :data:`MAX_PER_FAMILY`);
* **known answers**, read from the repository's stored optima, never written by hand.  A
  member's recorded solution (``<folder>/solutions/<name>.json``) is replayed by
  :func:`coinsat.solution.verify` on the instance's board; its ``length`` L and its
  ``lower_bound`` B (the largest number of moves that every solution is proven to need) decide
  the horizons: T = L is ``sat`` (the replayed solution is a model: it stays in the window),
  T = B − 1 is ``unsat`` (no solution anywhere has fewer than B moves, so none in the window
  either), and when B < L the horizon T = B is ``unknown`` (open, labelled so).  A member whose
  record is optimal (B = L) gives T* = L (sat) and T* − 1 (unsat); an open one gives its
  ``unknown`` horizon; :func:`selection` says which of them a family of 16 takes;
* **sanitised DIMACS**: the file is the export writer's (``coinsat.io.dimacs.cnf_text``: a
  standard ``p cnf V C`` line, every comment before it and in printable ASCII), with each
  clause's repeated literals merged and the tautological clauses (``x ∨ ¬x ∨ …``, which the
  encoder's ladders can produce) dropped, which changes no model;
* **no two isomorphic instances**: each file's canonical hash is ``gbdc``'s ``isohash2``, the
  hash of a Weisfeiler–Leman colour refinement of the clause–variable graph with polarity:
  invariant under renaming variables and reordering clauses and the literals in them (equal
  files have equal hashes; rarely, two files that are not isomorphic share one, and one is
  refused, which is the safe side).  :class:`PackBuilder` refuses a file whose hash is already
  in the pack (:class:`DuplicateInstance`, exit 2), so no pack holds two isomorphic files.

The families (:data:`FAMILIES`; :func:`family_files` reads the name):

* ``census-<goal>-<k>``: the census's hardest starts of the k × k box
  (``instances/census/<goal>-<k>/``; each a class of starts at the largest distance D from the
  goal, with its optimal solution), at T = D and D − 1;
* ``flip``: the k × k diagonal flips (``instances/families/diagonal-<k>.toml``), k = 5..9;
* ``vdiag``: the V-to-diagonal family (``instances/families/vdiag-*.toml``) from V(3,2) up;
* ``open``: two open puzzles, the 9 × 9 flip and V(4,4) to the SW–NE diagonal, each at its proven
  lower bound (``unknown``).

The open members (``unknown``) are those of ``flip``, ``vdiag`` and ``open`` whose optimum is not
proven (diagonal-9, V(4,4) to the SW–NE diagonal, V(5,4)).
"""

from __future__ import annotations

import csv
import dataclasses
import io
import json
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Sequence

from .errors import InstanceError, InternalError, UsageError
from .instance import Instance
from .io.atomic import write_atomic
from .io.instance_format import read_instance
from .io.solution_format import read_solution
from .registry import require
from .solution import verify

if TYPE_CHECKING:
    from .encode.sat import SatFormula

#: the selection rules' cap on the instances of one family
MAX_PER_FAMILY = 16
#: the families of ``coinsat pack sat-competition`` when none are named
#: (the two census families, each measured to meet the selection rule, benchmarks/sat-pack.md, and
#: the open members, labelled ``unknown``, to which no hardness claim applies)
DEFAULT_FAMILIES = ("census-canonical-5", "census-diagonal-5", "open")
#: the manifest's columns
MANIFEST_COLUMNS = ("family", "file", "answer", "horizon", "instance", "answer_source", "hash")
ANSWERS = ("sat", "unsat", "unknown")
#: the families that are not a census folder: name -> (files relative to the instance root)
FAMILIES: dict[str, Callable[[Path], list[Path]]] = {
    "flip": lambda root: [root / "families" / f"diagonal-{k}.toml" for k in range(5, 10)],
    "vdiag": lambda root: sorted((p for p in (root / "families").glob("vdiag-*.toml") if _vsize(p) >= 5), key=_natural),
    "open": lambda root: [root / "families" / name for name in ("diagonal-9.toml", "vdiag-4-4-swne.toml")],
}
_CENSUS = re.compile(r"^census-([a-z]+)-(\d+)$")


class DuplicateInstance(UsageError):
    """A file whose canonical hash is already in the pack (an isomorphic copy); exit 2."""


def _natural(path: Path) -> list:
    return [int(t) if t.isdigit() else t for t in re.split(r"(\d+)", path.stem)]


def _vsize(path: Path) -> int:
    m = re.match(r"vdiag-(\d+)-(\d+)-", path.name)
    return int(m.group(1)) + int(m.group(2)) if m else 0


def family_files(name: str, root: Path) -> list[Path]:
    """The instance files of family ``name`` under the instance root (``instances/``), in order."""
    m = _CENSUS.match(name)
    if m:
        folder = root / "census" / f"{m.group(1)}-{m.group(2)}"
        if not folder.is_dir():
            raise UsageError(f"family {name}: no census folder {folder}")
        return sorted(folder.glob("*.toml"), key=_natural)
    if name not in FAMILIES:
        raise UsageError(f"unknown family {name!r}: expected census-<goal>-<k> or one of {', '.join(FAMILIES)}")
    files = [p for p in FAMILIES[name](root) if p.is_file()]
    if not files:
        raise UsageError(f"family {name}: no instance files under {root}")
    return files


# --- answers from the stored optima ---------------------------------------------------------------


@dataclass(frozen=True)
class Member:
    """An instance file with its stored record: ``length`` L of the replayed solution and the proven
    ``lower_bound`` B (B = L: optimal)."""

    path: Path
    instance: Instance
    length: int
    lower_bound: int
    solution_file: Path

    @property
    def optimal(self) -> bool:
        return self.lower_bound == self.length

    def horizons(self) -> list[tuple[int, str]]:
        """(T, answer) pairs this member gives the pack: its threshold pair, or its open horizon."""
        if self.optimal:
            return [(self.length, "sat"), (self.length - 1, "unsat")] if self.length > 0 else []
        return [(self.lower_bound, "unknown")]


def member(path: Path) -> Member:
    """The instance at ``path`` with its recorded solution, replayed by ``verify`` (InstanceError
    when the record is missing, contradicts itself, or does not solve the puzzle)."""
    instance = read_instance(path)
    sol_path = path.parent / "solutions" / f"{path.stem}.json"
    if not sol_path.is_file():
        raise InstanceError(f"no recorded solution for {path.name} (expected {sol_path})", str(path), None)
    try:
        record = json.loads(sol_path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as e:
        raise InstanceError(f"cannot read the recorded solution: {e}", str(sol_path), None) from None
    board_instance, solution = read_solution(instance, sol_path)
    verdict = verify(board_instance, solution, keep_trace=False)
    if not verdict.ok:
        raise InstanceError(f"the recorded solution does not solve the puzzle: {verdict.reason}", str(sol_path), None)
    if board_instance.board.size != instance.board.size:  # a move left the window: no model of its CNF
        raise InstanceError("the recorded solution leaves the instance's window", str(sol_path), None)
    length = len(solution.moves)
    bound = record.get("lower_bound") if isinstance(record, dict) else None
    if not isinstance(bound, int) or isinstance(bound, bool) or not 0 <= bound <= length:
        raise InstanceError(f"'lower_bound' must be an integer in 0..{length}, not {bound!r}", str(sol_path), None)
    if isinstance(record.get("length"), int) and record["length"] != length:
        raise InstanceError(f"'length' {record['length']} but {length} moves", str(sol_path), None)
    if instance.known_optimal is not None and instance.known_optimal != length and bound == length:
        raise InstanceError(
            f"known_optimal {instance.known_optimal} disagrees with the recorded optimum {length}", str(path), None
        )
    return Member(path, instance, length, bound, sol_path)


# --- sanitised DIMACS and the canonical hash ------------------------------------------------------


def sanitised(formula: SatFormula) -> SatFormula:
    """``formula`` with each clause's repeated literals merged and tautological clauses dropped
    (the same models; the variables and their symbol table unchanged)."""
    clauses = []
    for c in formula.clauses:
        lits = list(dict.fromkeys(c))
        if any(-x in lits for x in lits):
            continue
        clauses.append(lits)
    return dataclasses.replace(formula, clauses=clauses)


def cnf_file_text(instance: Instance, horizon: int, answer: str) -> str:
    """The sanitised DIMACS text of ``instance`` at ``horizon`` (module docstring)."""
    expected = {"sat": "SAT", "unsat": "UNSAT"}.get(answer)
    from .encode.sat import encode  # here: pysat and the encoder load only when a pack is written
    from .io.dimacs import cnf_text

    return cnf_text(instance, sanitised(encode(instance, horizon)), expected=expected)


def is_sanitised(text: str) -> bool:
    """Whether ``text`` is sanitised DIMACS: comments (printable ASCII) only before one
    ``p cnf V C`` line whose counts are right, then clauses of literals in 1..V ending in 0, none
    empty, none with a repeated literal or a literal and its negation."""
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    k = 0
    while k < len(lines) and lines[k].startswith("c"):
        if not re.fullmatch(r"c( [\x20-\x7e]*)?", lines[k]):
            return False
        k += 1
    if k == len(lines):
        return False
    m = re.fullmatch(r"p cnf (\d+) (\d+)", lines[k])
    if not m:
        return False
    nvars, nclauses = int(m.group(1)), int(m.group(2))
    body = lines[k + 1 :]
    if len(body) != nclauses:
        return False
    for line in body:
        if not re.fullmatch(r"(-?[1-9]\d* )+0", line):
            return False
        lits = [int(t) for t in line.split()[:-1]]
        if len(set(lits)) != len(lits) or any(-x in lits for x in lits) or any(abs(x) > nvars for x in lits):
            return False
    return True


def canonical_hash(path: Path) -> str:
    """``gbdc.isohash2`` of the CNF file at ``path``: invariant under renaming variables and
    reordering clauses (module docstring); needs ``gbdc`` (``coinsat[certify]``).

    Computed in a fresh Python process: gbdc 0.4.3's ``isohash2`` crashes (a segmentation fault)
    in a process that has loaded PySAT's solvers first, as the test suite does."""
    require("gbdc", "the pack's isomorphism hash")
    done = subprocess.run(
        [sys.executable, "-c", "import gbdc, sys; print(gbdc.isohash2(sys.argv[1]))", str(path)],
        capture_output=True,
        text=True,
    )
    digest = done.stdout.strip()
    if done.returncode != 0 or not re.fullmatch(r"[0-9a-f]+", digest):
        raise InternalError(f"gbdc.isohash2 failed on {path}: exit {done.returncode} {done.stderr.strip()[-200:]}")
    return digest


# --- the pack -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class PackEntry:
    """One file of a pack (a row of its manifest)."""

    family: str
    file: str  # relative to the pack's folder: <family>/<name>.cnf
    answer: str  # sat | unsat | unknown
    horizon: int
    instance: str  # the instance file, relative to the instance root
    answer_source: str
    hash: str


@dataclass(frozen=True)
class Pack:
    """A written pack: its folder, the manifest and its entries, and the files refused as isomorphic
    copies (``(family, file, the entry's file it copies)``)."""

    directory: Path
    manifest: Path
    entries: tuple[PackEntry, ...]
    refused: tuple[tuple[str, str, str], ...] = ()

    def counts(self) -> dict[str, dict[str, int]]:
        """family -> answer -> number of files."""
        out: dict[str, dict[str, int]] = {}
        for e in self.entries:
            out.setdefault(e.family, dict.fromkeys(ANSWERS, 0))[e.answer] += 1
        return out


class PackBuilder:
    """Writes files into a pack folder and refuses an isomorphic copy (:meth:`add`)."""

    def __init__(self, directory: Path):
        self.directory = Path(directory)
        self.entries: list[PackEntry] = []
        self._by_hash: dict[str, PackEntry] = {}

    def add(
        self, family: str, name: str, text: str, answer: str, horizon: int, instance: str, answer_source: str
    ) -> PackEntry:
        """Write ``text`` as ``<family>/<name>``; DuplicateInstance (nothing left behind) when a
        file of the same canonical hash is already in the pack."""
        if answer not in ANSWERS:
            raise UsageError(f"answer must be one of {', '.join(ANSWERS)}, not {answer!r}")
        if not is_sanitised(text):
            raise UsageError(f"{family}/{name}: not sanitised DIMACS")
        path = self.directory / family / name
        write_atomic(path, text)
        digest = canonical_hash(path)
        if digest in self._by_hash:
            path.unlink()
            first = self._by_hash[digest].file
            raise DuplicateInstance(f"{family}/{name} is isomorphic to {first} (canonical hash {digest}): refused")
        entry = PackEntry(family, f"{family}/{name}", answer, horizon, instance, answer_source, digest)
        self._by_hash[digest] = entry
        self.entries.append(entry)
        return entry

    def write_manifest(self) -> Path:
        buf = io.StringIO()
        w = csv.writer(buf, lineterminator="\n")
        w.writerow(MANIFEST_COLUMNS)
        for e in self.entries:
            w.writerow([getattr(e, c) for c in MANIFEST_COLUMNS])
        path = self.directory / "pack.csv"
        write_atomic(path, buf.getvalue())
        return path


def _source(m: Member, answer: str, root: Path) -> str:
    sol = _relative(m.solution_file, root)
    if answer == "sat":
        return f"{sol}: {m.length} moves replayed by verify"
    if answer == "unsat":
        return f"{sol}: every solution needs >= {m.lower_bound} moves (proven lower bound)"
    return f"{sol}: open ({m.lower_bound} <= optimum <= {m.length})"


def _relative(path: Path, root: Path) -> str:
    try:
        return path.resolve().relative_to(root.resolve().parent).as_posix()
    except ValueError:
        return path.name


def plan(families: Sequence[str], root: Path, per_family: int) -> list[tuple[str, Member, int, str]]:
    """(family, member, horizon, answer) for each file of the pack, at most ``per_family`` per
    family (:func:`selection`)."""
    if not 1 <= per_family <= MAX_PER_FAMILY:
        raise UsageError(f"--per-family must be in 1..{MAX_PER_FAMILY}, not {per_family}")
    if len(set(families)) != len(families):
        raise UsageError(f"a family is named twice: {', '.join(families)}")
    if not families:
        raise UsageError("no family named")
    root = Path(root)
    if not root.is_dir():
        raise UsageError(f"the instance folder {root} does not exist")
    out = []
    for fam in families:
        members = [member(p) for p in family_files(fam, root)]
        out += [(fam, m, t, a) for m, t, a in selection(members, per_family)]
    return out


def selection(members: Sequence[Member], n: int) -> list[tuple[Member, int, str]]:
    """At most ``n`` (member, T, answer) triples, in the members' order: up to n // 4 open
    horizons (at most two), and of the optimal members T* − 1 (unsat) for the first ones and
    T* (sat) for the first max(1, round(3/8 of the rest)) of them, so that 16 files are 6 sat
    and 10 unsat when there are 10 optimal members (the unsatisfiable side is where MiniSat
    fails: benchmarks/sat-pack.md); with fewer members, every member's pair."""
    open_ = [(m, t, a) for m in members if not m.optimal for t, a in m.horizons()][: min(2, n // 4)]
    closed = [m for m in members if m.optimal and m.length > 0]
    room = n - len(open_)
    n_sat = max(1, round(3 * room / 8)) if room else 0
    n_unsat = room - n_sat
    if len(closed) < n_unsat:  # too few members: each gives its pair
        n_unsat = len(closed)
        n_sat = min(len(closed), room - n_unsat)
    chosen = []
    for k, m in enumerate(closed):
        if k < n_sat:
            chosen.append((m, m.length, "sat"))
        if k < n_unsat:
            chosen.append((m, m.length - 1, "unsat"))
    return chosen + open_


def sat_competition(
    directory: str | Path,
    families: Sequence[str] = DEFAULT_FAMILIES,
    *,
    instances: str | Path = "instances",
    per_family: int = MAX_PER_FAMILY,
    progress: Callable[[int, int, str], None] | None = None,
) -> Pack:
    """Write a SAT Competition benchmark pack into ``directory``.

    Parameters
    ----------
    directory : str or Path
        The pack's folder (created): ``<family>/<file>.cnf`` and the manifest ``pack.csv``.
    families : sequence of str
        Family names: ``census-<goal>-<k>`` (a census folder), ``flip``, ``vdiag``
        (module docstring).
    instances : str or Path
        The instance root holding ``census/`` and ``families/`` (a checkout's ``instances/``).
    per_family : int
        At most this many files per family, 1..16.
    progress : callable, optional
        Called with (files written, files planned, file name).

    Returns
    -------
    Pack
        The entries written, with their answers and canonical hashes, and the refused copies.

    Raises
    ------
    UsageError
        An unknown family, a bad count, a missing instance folder, or no ``gbdc``.
    InstanceError
        A member whose recorded solution is missing or does not replay.
    """
    root = Path(instances)
    todo = plan(list(families), root, per_family)
    builder = PackBuilder(Path(directory))
    refused = []
    for k, (fam, m, t, answer) in enumerate(todo):
        name = f"coins-{m.path.stem}-T{t}.cnf"
        if progress:
            progress(k, len(todo), f"{fam}/{name}")
        text = cnf_file_text(m.instance, t, answer)
        try:
            builder.add(fam, name, text, answer, t, _relative(m.path, root), _source(m, answer, root))
        except DuplicateInstance as e:
            first = str(e).split(" is isomorphic to ")[1].split(" ")[0]
            refused.append((fam, f"{fam}/{name}", first))
    manifest = builder.write_manifest()
    return Pack(Path(directory), manifest, tuple(builder.entries), tuple(refused))


def read_manifest(path: Path) -> list[dict[str, str]]:
    """The rows of a pack's ``pack.csv``."""
    with open(path, newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f))
