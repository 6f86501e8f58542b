"""Integer sequences from the stored records, as OEIS b-files (``scripts/sequences.py``).

A b-file holds lines ``n a(n)``, one term a line, in increasing n, with nothing but **proven**
terms: a verified solution of that length and a proof (an exhaustive search of an exact
window, with its certificate where one was made) that one move fewer does not suffice.  Lines
starting with ``#`` are comments, which the OEIS accepts in b-files; they say what the sequence
is and where each term's proof is recorded.  The first term that is not proven is not written;
:class:`Sequence` carries the best bounds known on it (``open_term``), as Bell did for A127500
(triangular peg solitaire, 19 <= a(11) <= 28), and the folder's README.md lists them.

Each sequence is made by a builder in :data:`BUILDERS`, ``builder(records) -> Sequence``, from the
records :class:`Records` reads (never from a number typed here); tests/test_sequences.py checks
every term of every b-file against those records.

**The census sequence D(k)** is ``census_sequence``: a term for each k whose census certificate
(``benchmarks/census.json``, written by ``scripts/census_table.py``) a fresh ``coinsat
check-certificate`` accepted; the first open term is bounded below by the best start of the next
box with a proven bound (the flip's optimum, or ``benchmarks/census-bounds.json``).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from coinsat.constructive.vschedule import schedule_length
from coinsat.theory.vbound import best_bound
from lab.pinwheel import best_upper_bound
from lab.vfamily import TARGET_NAMES, summarise

__all__ = ["BUILDERS", "Records", "Sequence", "b_file", "proven_term", "readme", "v_member"]


@dataclass(frozen=True)
class Records:
    """The stored records the sequences come from (paths relative to the repository's root)."""

    flips: dict  # benchmarks/diagonal_flips.json
    vfamily: dict  # benchmarks/vfamily_results.json
    vgrowth: dict  # benchmarks/vfamily_growth.json
    pinwheel: dict  # benchmarks/pinwheel_results.json
    census: dict = field(default_factory=dict)  # benchmarks/census.json
    census_bounds: dict = field(default_factory=dict)  # benchmarks/census-bounds.json (a start beyond the census)

    @classmethod
    def read(cls, root: Path) -> "Records":
        def load(rel: str) -> dict:
            path = root / rel
            return json.loads(path.read_text()) if path.exists() else {}

        return cls(
            flips=load("benchmarks/diagonal_flips.json"),
            vfamily=load("benchmarks/vfamily_results.json"),
            vgrowth=load("benchmarks/vfamily_growth.json"),
            pinwheel=load("benchmarks/pinwheel_results.json"),
            census=load("benchmarks/census.json"),
            census_bounds=load("benchmarks/census-bounds.json"),
        )


@dataclass(frozen=True)
class Bound:
    """A bound on the first open term, and what proves it."""

    value: int | None  # None: no bound known (an upper bound on D(k) without a census)
    source: str


@dataclass(frozen=True)
class Sequence:
    """One sequence: its b-file's name, definition and index, its proven terms, and the best
    bounds known on its first open term (None when every term the records reach is proven)."""

    name: str
    title: str
    definition: str
    index: str
    terms: dict[int, int]
    open_term: tuple[int, Bound, Bound] | None
    proofs: dict[int, str] = field(default_factory=dict)  # where each term's proof is recorded

    @property
    def file(self) -> str:
        return f"{self.name}.txt"


def _value(b: Bound) -> int:
    assert b.value is not None  # the V's and the pinwheel's bounds always have a value
    return b.value


def v_member(m: int) -> tuple[int, int]:
    """(a, b) of term m of the V sequences: V(ceil(m/2), floor(m/2)), the V with m arm coins
    (b = a - 1 for odd m, b = a for even m), n = m + 4 coins, box side s = m + 2."""
    return (m + 1) // 2, m // 2


def flip_sequence(records: Records) -> Sequence:
    terms, proofs = {}, {}
    first_open = None
    for key in sorted(records.flips, key=int):
        _, ub, lb, proven = summarise(records.flips[key])
        k = int(key)
        if proven and first_open is None and ub is not None:
            terms[k] = ub
            proofs[k] = f"benchmarks/diagonal_flips.json, diagonal-{k}: {_decider(records.flips[key])}"
        elif first_open is None and lb is not None and ub is not None:
            where = f"benchmarks/diagonal_flips.json, diagonal-{k}: "
            first_open = (
                k,
                Bound(lb, where + _lower_source(records.flips[key])),
                Bound(ub, where + _upper(records.flips[key])),
            )
    return Sequence(
        name="diagonal-flip",
        title="Fewest moves of the k x k diagonal flip",
        definition="a(k) = the fewest moves (square grid, a coin jumps to an empty cell with >= 2 occupied "
        "neighbours other than itself, unlabeled coins) that take the SW-NE diagonal {(i, i): 0 <= i < k} plus "
        "the two coins (m-1, m), (m, m-1), m = floor(k/2), to its mirror image under y -> k-1-y "
        "(coinsat family diagonal --k K; k = 4 is the 18-move 'diagonal' of Demaine, Demaine and Verrill 2002)",
        index="k >= 3, the side of the box (n = k + 2 coins)",
        terms=terms,
        open_term=first_open,
        proofs=proofs,
    )


def v_sequence(records: Records, target: str) -> Sequence:
    terms: dict[int, int] = {}
    proofs: dict[int, str] = {}
    first_open = None
    m = 1
    while first_open is None:
        a, b = v_member(m)
        name = f"vdiag-{a}-{b}-{target}"
        entry = records.vfamily.get(name)
        best = summarise(entry)[1] if entry is not None and summarise(entry)[3] else None
        if entry is not None and best is not None:
            terms[m] = best
            proofs[m] = f"benchmarks/vfamily_results.json, {name}: {_decider(entry)}"
        else:
            first_open = (m, *_v_bounds(records, a, b, target))
        m += 1
    where = TARGET_NAMES[target]
    return Sequence(
        name=f"v-{target}",
        title=f"Fewest moves from the V to the {where} diagonal",
        definition=f"a(m) = the fewest moves (square grid, jump moves, d = 2, unlabeled coins) that take V(a, b), "
        f"a = ceil(m/2), b = floor(m/2), to the {where} diagonal of its (m+2) x (m+2) box plus the two central "
        "extra coins (coinsat family vdiag --a A --b B --target "
        f"{target}; docs/v-to-diagonal.md section 1)",
        index="m >= 1, the number of coins on the V's arms (n = m + 4 coins, box side m + 2)",
        terms=terms,
        open_term=first_open,
        proofs=proofs,
    )


def _v_bounds(records: Records, a: int, b: int, target: str) -> tuple[Bound, Bound]:
    """The best bounds known on V(a, b) -> target: the exact engines' runs, the growth study's rows,
    and the theorems (LB and RF below, L above: docs/v-to-diagonal.md)."""
    name = f"vdiag-{a}-{b}-{target}"
    lows = [Bound(best_bound(a, b, target), "Theorems LB and RF (docs/v-to-diagonal.md section 3)")]
    ups = [Bound(schedule_length(a, b, target), "the vschedule, Theorem L (docs/v-to-diagonal.md section 2)")]
    entry = records.vfamily.get(name)
    if entry is not None:
        _, ub, lb, _ = summarise(entry)
        if lb is not None:
            lows.append(Bound(lb, f"benchmarks/vfamily_results.json, {name}: {_lower_source(entry)}"))
        if ub is not None:
            ups.append(Bound(ub, f"benchmarks/vfamily_results.json, {name}: {_upper(entry)}"))
    row = records.vgrowth.get(name)
    if row is not None:
        for key in ("construct", "improved"):
            if row.get(key):
                ups.append(Bound(row[key], f"benchmarks/vfamily_growth.json, {name}: {key}"))
        if isinstance(row.get("lower_bound"), int):
            lows.append(Bound(row["lower_bound"], f"benchmarks/vfamily_growth.json, {name}: improve's exact pass"))
    return max(lows, key=_value), min(ups, key=_value)


def pinwheel_sequence(records: Records, target: str) -> Sequence:
    exact = records.pinwheel.get("exact", {})
    terms, proofs = {}, {}
    m = 1
    while (e := exact.get(f"pinwheel-{m}-{target}")) is not None and e.get("optimum") is not None:
        terms[m] = e["optimum"]
        search = e.get("search", "rankbfs")
        proofs[m] = f"benchmarks/pinwheel_results.json, pinwheel-{m}-{target}: {e['check']['claim']} ({search})"
        m += 1
    first_open = None
    key = f"pinwheel-{m}-{target}"
    lows, ups = [], []
    if (e := exact.get(key)) is not None and e.get("lower_bound") is not None and e.get("check", {}).get("accepted"):
        lows.append(Bound(e["lower_bound"], f"benchmarks/pinwheel_results.json, {key}: {e['check']['claim']}"))
    if (g := records.pinwheel.get("growth", {}).get(key)) is not None:
        if g.get("static") is not None:
            lows.append(Bound(g["static"], f"benchmarks/pinwheel_results.json, {key}: the static span-layer bound"))
        if isinstance((g.get("improve") or {}).get("lower_bound"), int):
            where = f"benchmarks/pinwheel_results.json, {key}: improve's exact pass (no solution with fewer moves)"
            lows.append(Bound(g["improve"]["lower_bound"], where))
        if (best := best_upper_bound(g)) is not None:
            ups.append(Bound(best, f"benchmarks/pinwheel_results.json, {key}: construct + improve"))
    if lows and ups:
        first_open = (m, max(lows, key=_value), min(ups, key=_value))
    where = TARGET_NAMES[target]
    return Sequence(
        name=f"pinwheel-{target}",
        title=f"Fewest moves from the pinwheel to the {where} diagonal",
        definition="a(m) = the fewest moves (square grid, jump moves, d = 2, unlabeled coins) that take the "
        "pinwheel with m coins (the 2 x 2 block plus m coins, coin j diagonally off corner TR, TL, BL, BR "
        f"(j mod 4) of the bounding box of the block and the coins before it) to the {where} diagonal of its "
        f"(m+2) x (m+2) box plus the two central extra coins (coinsat family pinwheel --m M --target {target})",
        index="m >= 1, the number of coins around the block (n = m + 4 coins, box side m + 2)",
        terms=terms,
        open_term=first_open,
        proofs=proofs,
    )


def _decider(entry: dict) -> str:
    """The run that proved an optimum: its engine and status, e.g. 'rankbfs: optimal 93'."""
    _, ub, lb, _ = summarise(entry)
    for method, run in sorted(entry["runs"].items()):
        if run.get("lower_bound") == lb and run.get("status") == "optimal":
            return f"{method}, optimal {run['length']} (exact engine on span(start), an exact window)"
    return f"a solution of {ub} moves and a run proving >= {lb}"


def _lower_source(entry: dict) -> str:
    lb = summarise(entry)[2]
    for method, run in sorted(entry["runs"].items()):
        if run.get("lower_bound") == lb:
            return f"{method}, {run['status']} (no solution with <= {lb - 1} moves)" if lb else method
    return "—"


def _upper(entry: dict) -> str:
    ub = summarise(entry)[1]
    for method, run in sorted(entry["runs"].items()):
        if run.get("length") == ub:
            return f"{method}'s verified solution (instances/families/solutions/)"
    return "—"


def _census_term(entry: dict | None) -> int | None:
    """D(k) of one census record when its certificate was accepted by a fresh check."""
    if not entry or not (entry.get("check") or {}).get("accepted"):
        return None
    return entry["max_distance"]


def census_sequence(records: Records) -> Sequence:
    terms, proofs = {}, {}
    ks = sorted(int(name.split("-")[1]) for name in records.census if name.startswith("diagonal-"))
    first_open = None
    for k in ks:
        value = _census_term(records.census.get(f"diagonal-{k}"))
        if value is None:
            break
        terms[k] = value
        proofs[k] = (
            f"benchmarks/census.json, diagonal-{k}: the census's layers, certificate accepted by a fresh "
            f"coinsat check-certificate; a hardest start in instances/census/diagonal-{k}/"
        )
    k = max(terms) + 1 if terms else 3
    # no census of the next box: any start of it with a proven lower bound bounds D(k) from below
    # (the flip's start, with its proven optimum, or a start found by search with a checked bound)
    lows = []
    flip = records.flips.get(str(k))
    if flip and summarise(flip)[3] and summarise(flip)[1] is not None:
        where = f"benchmarks/diagonal_flips.json, diagonal-{k}: the flip's proven optimum"
        lows.append(Bound(summarise(flip)[1], where))
    other = records.census_bounds.get(str(k))
    if other is not None:
        lows.append(Bound(other["lower"], f"benchmarks/census-bounds.json, {other['start']}: {other['proof']}"))
    if terms and lows:
        first_open = (k, max(lows, key=_value), Bound(None, "none known (no census of this box)"))
    return Sequence(
        name="census-diagonal",
        title="Largest distance of any start to the k x k diagonal goal",
        definition="a(k) = the largest, over every configuration of k + 2 coins in the k x k box that can reach "
        "it, of the fewest moves to the NW-SE diagonal {(i, k-1-i)} plus its two central extra coins (the goal "
        "of coinsat family diagonal --k K; square grid, a coin jumps to an empty cell with >= 2 occupied "
        "neighbours other than itself, unlabeled coins; moves never leave the box). Computed by one backward "
        "breadth-first search over the box (coinsat census)",
        index="k >= 3, the side of the box (n = k + 2 coins)",
        terms=terms,
        open_term=first_open,
        proofs=proofs,
    )


#: name -> builder
BUILDERS: dict[str, Callable[[Records], Sequence]] = {
    "diagonal-flip": flip_sequence,
    "v-nwse": lambda r: v_sequence(r, "nwse"),
    "v-swne": lambda r: v_sequence(r, "swne"),
    "pinwheel-nwse": lambda r: pinwheel_sequence(r, "nwse"),
    "pinwheel-swne": lambda r: pinwheel_sequence(r, "swne"),
    "census-diagonal": census_sequence,
}


def proven_term(records: Records, name: str, n: int) -> int | None:
    """The value the records prove for term n of sequence ``name``, read afresh from the records
    (not through the builder): None when they prove none."""
    if name == "diagonal-flip":
        entry = records.flips.get(str(n))
        return summarise(entry)[1] if entry and summarise(entry)[3] else None
    if name.startswith("v-"):
        a, b = v_member(n)
        entry = records.vfamily.get(f"vdiag-{a}-{b}-{name[2:]}")
        return summarise(entry)[1] if entry and summarise(entry)[3] else None
    if name.startswith("pinwheel-"):
        e = records.pinwheel.get("exact", {}).get(f"pinwheel-{n}-{name.split('-')[1]}")
        return e["optimum"] if e and e.get("optimum") is not None and e["check"].get("accepted") else None
    if name == "census-diagonal":
        return _census_term(records.census.get(f"diagonal-{n}"))
    raise KeyError(name)


def _bounds(term: tuple[int, Bound, Bound]) -> str:
    n, low, high = term
    return f"{low.value} ≤ a({n})" + ("" if high.value is None else f" ≤ {high.value}")


def b_file(seq: Sequence, command: str) -> str:
    """The b-file: comment lines (what the sequence is, how it was made), then 'n a(n)' lines."""
    lines = [f"# {seq.title}.", *_wrap(f"{seq.definition}.", "# "), f"# Index: {seq.index}."]
    lines += _wrap(
        "Only proven terms: a verified solution of that length and an exhaustive search proving that one move "
        "fewer does not suffice (its record is named below).",
        "# ",
    )
    if seq.open_term:
        n, low, high = seq.open_term
        upper = "" if high.value is None else f" <= {high.value}"
        lines.append(f"# First open term: {low.value} <= a({n}){upper} (sequences/README.md).")
    lines.append(f"# Made by {command} from the project's records.")
    for n, proof in sorted(seq.proofs.items()):
        lines += _wrap(f"a({n}) = {seq.terms[n]}: {proof}", "# ")
    lines += [f"{n} {v}" for n, v in sorted(seq.terms.items())]
    return "\n".join(lines) + "\n"


def readme(seqs: list[Sequence], command: str) -> str:
    """sequences/README.md: what each b-file holds, its index, and the bounds on its first open term."""
    lines = [
        "# Sequences",
        "",
        "Integer sequences computed by coinsat, as OEIS b-files: one line `n a(n)` per term, only",
        "**proven** terms (a verified solution of that length, replayed by `coinsat verify`, and an",
        "exhaustive search of an exact window, with a checked certificate where one was made, proving that",
        "one move fewer does not suffice). Lines starting with `#` are comments: the definition, the index,",
        "and the record that proves each term. All moves are jumps on the square grid: a coin moves to an",
        "empty cell with at least two occupied neighbours other than itself (d = 2); coins are unlabeled.",
        "",
        f"Made by `{command}` from the records (`benchmarks/diagonal_flips.json`,",
        "`benchmarks/vfamily_results.json`, `benchmarks/vfamily_growth.json`, `benchmarks/pinwheel_results.json`);",
        "`tests/test_sequences.py` checks every term against them. The logic is `lab/sequences.py`.",
        "",
        "| b-file | sequence | index | terms | first open term |",
        "|---|---|---|---|---|",
    ]
    for s in seqs:
        shown = ", ".join(str(v) for _, v in sorted(s.terms.items()))
        first = min(s.terms) if s.terms else None
        span = f"a({first})..a({max(s.terms)}): {shown}" if s.terms else "—"
        bounds = _bounds(s.open_term) if s.open_term else "—"
        lines.append(f"| [{s.file}]({s.file}) | {s.title} | {s.index} | {span} | {bounds} |")
    lines += ["", "## The first open terms", ""]
    for s in seqs:
        if s.open_term:
            n, low, high = s.open_term
            lines += [
                f"* **{s.name}**: {_bounds(s.open_term)}. Lower bound: {low.source}. Upper bound: {high.source}.",
            ]
    lines += [
        "",
        "## Indexing",
        "",
        "* **diagonal-flip**: a(k), k ≥ 3, is the k × k flip (n = k + 2 coins); k = 3 is the smallest box in",
        "  which the two extra coins are off the diagonal's ends, and k = 4 is the paper's 18-move puzzle.",
        "* **v-nwse, v-swne**: a(m), m ≥ 1, is V(⌈m/2⌉, ⌊m/2⌋): m counts the coins on the V's arms, so",
        "  n = m + 4 and the box side is m + 2. The V's solvable members are exactly V(a, a) and V(a, a − 1)",
        "  (docs/v-to-diagonal.md, Lemma U), one per number of arm coins, so m runs over every member once:",
        "  odd m is V(a, a − 1) (m = 2a − 1), even m is V(a, a) (m = 2a). V(1, 0) is itself the SW-NE",
        "  diagonal (a(1) = 0 on v-swne) and is the 3 × 3 flip on v-nwse (a(1) = 5, the flip's a(3)).",
        "* **pinwheel-nwse, pinwheel-swne**: a(m), m ≥ 1, is the pinwheel with m coins around its block",
        "  (n = m + 4, box side m + 2), as for the V: the pinwheels with m ≤ 2 are V(1, 0) and V(1, 1),",
        "  so the first two terms agree with the V's.",
        "",
        "## Adding a sequence",
        "",
        "Write a builder `name(records) -> Sequence` in `lab/sequences.py`, register it in",
        "`BUILDERS`, say in `proven_term` what the records must show for a term to be proven, and run the",
        "script. The census sequence D(k) came in this way (`census_sequence`: a term for each k whose census",
        "certificate a fresh `coinsat check-certificate` accepted, from `benchmarks/census.json`; the first open",
        "term bounded below by the flip's optimum or a start with a checked bound, `benchmarks/census-bounds.json`).",
    ]
    return "\n".join(lines) + "\n"


def _wrap(text: str, prefix: str, width: int = 100) -> list[str]:
    out, line = [], prefix
    for word in text.split():
        if len(line) + len(word) + 1 > width and line.strip() != prefix.strip():
            out.append(line.rstrip())
            line = prefix
        line += word + " "
    out.append(line.rstrip())
    return out
