"""A differential fuzz of the certificate checker: no mutated certificate is accepted with a
claim stronger than the truth.

Seeds are genuine certificates that ``coinsat certify`` writes for small puzzles — bounded
(one DRAT proof, with a solution: "optimal"), core-only, cube-and-conquer, word and ranked
layers, closed sets and invariants — and the truth for each puzzle comes from an exact engine
(``solve --method bfs``: the optimum, or "unsolvable" with global scope).  A case takes one
seed, applies one to three mutations, writes the files to a fresh folder and runs
``coinsat check-certificate --json`` on it in this process.  Mutations are

* structural (the parsed JSON): the horizon, the claim, the solution, the encoding options,
  the margin, ``window_exact``, the solver, the cubes and their proofs, the layers' bound and
  encoding, the cells, a key dropped or added, file names (``..``, absolute, another file of
  the folder, a symbolic link, a missing file);
* at the byte level (the side files and the JSON): a comment line hiding ``0`` behind every
  separator that some parser ends a line at (``\\v``, ``\\f``, ``\\x1c``-``\\x1e``, ``\\r``,
  U+0085, U+2028, U+2029, NUL, tab), the declared sizes of the ``p cnf`` line, clause and
  proof lines dropped, doubled or emptied, bit flips, truncations, another seed's files.

The oracle: when the checker accepts, the claim it *proved* (``proven``) must be true of the
puzzle: a bound b needs optimum > b (or no solution), a solution of n moves needs n >= the
optimum, "unsolvable" needs no solution.  A claim "inside the window" on a puzzle whose window
is not exact is not judged (the exact engine answers for the infinite lattice) and is counted
apart.  Any exit other than 0, 1 or 3, or an exception, is a failure too.

``scripts/checker_fuzz.py`` runs a campaign and writes its table; ``tests/test_checker_fuzz.py``
runs a fixed slice.
"""

from __future__ import annotations

import contextlib
import copy
import io
import json
import os
import random
import shutil
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from coinsat.certificates.check.claims import Claim, parse_claim

#: the separators some parser of the past ended a line at, and bytes outside the alphabet
SEPARATORS = ["\v", "\f", "\x1c", "\x1d", "\x1e", "\r", "\x85", "\u2028", "\u2029", "\x00", "\t"]

#: each check's --memory-limit: a forged horizon may ask the checker for a huge formula, which
#: the limit stops ("unknown"); the default share of RAM is too much on a shared machine
MEMORY_LIMIT = "2G"

#: (puzzle file relative to the repository, certify options, what the seed is called)
SEED_PLAN: list[tuple[str, list[str], str]] = [
    ("instances/paper/h-to-o.toml", [], "bounded"),
    ("instances/paper/h-to-o.toml", ["--core-only"], "core"),
    ("instances/paper/swap5-a.toml", ["--cubes", "2"], "cubes"),
    ("instances/paper/swap5-a.toml", ["--core-only", "--cubes", "1"], "core-cubes"),
    ("instances/paper/tri2oline.toml", [], "bounded-margin"),
    ("instances/paper/h-to-o.toml", ["--method", "spanbfs"], "layers-word"),
    ("instances/families/vdiag-1-1-nwse.toml", ["--method", "rankbfs"], "layers-rank"),
    ("instances/counterexamples/thm1-claw.toml", [], "unsolvable-a"),
    ("instances/counterexamples/thm2-canonical-L.toml", [], "unsolvable-b"),
]


@dataclass
class Seed:
    name: str
    puzzle: Path
    truth: int | None  # the optimum (None: no solution)
    exact_window: bool
    cert: dict
    files: dict[str, bytes]


@dataclass
class Campaign:
    cases: int = 0
    outcomes: Counter = field(default_factory=Counter)  # (seed, outcome)
    mutations: Counter = field(default_factory=Counter)  # mutation name -> cases
    failures: list[dict] = field(default_factory=list)
    slowest: float = 0.0


def _cli(argv: list[str]) -> tuple[int, str, str]:
    from coinsat.cli import main

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main(argv)
        except SystemExit as e:  # argparse
            code = int(e.code or 0)
    return code, out.getvalue(), err.getvalue()


def truth_of(puzzle: Path) -> int | None:
    """The optimum by breadth-first search (None: unsolvable with global scope)."""
    code, out, err = _cli(["solve", str(puzzle), "--method", "bfs", "--json", "--time-limit", "300"])
    answer = json.loads(out)
    if answer["status"] == "optimal":
        return int(answer["length"])
    if answer["status"] == "unsolvable" and (answer.get("certificate") or {}).get("scope", "global") == "global":
        return None
    raise RuntimeError(f"no exact answer for {puzzle}: {answer['status']} {err}")


def make_seeds(root: Path, work: Path, plan=SEED_PLAN) -> list[Seed]:
    """Certify each planned puzzle into ``work`` and read the files back as seeds."""
    from coinsat import read_instance

    truths: dict[str, int | None] = {}
    seeds = []
    for rel, options, name in plan:
        puzzle = root / rel
        if rel not in truths:
            truths[rel] = truth_of(puzzle)
        out = work / name
        code, _, err = _cli(["certify", str(puzzle), "-o", str(out), *options])
        if code != 0:
            raise RuntimeError(f"certify {rel} {options}: exit {code}: {err}")
        (path,) = out.glob("*.certificate.json")
        cert = json.loads(path.read_text())
        files = {f.name: f.read_bytes() for f in out.iterdir() if f.is_file() and f != path}
        inst = read_instance(puzzle)
        seeds.append(Seed(name, puzzle, truths[rel], bool(inst.board.exact), cert, files))
    return seeds


# --- the oracle -----------------------------------------------------------------------------


def judge_truth(claim: Claim, truth: int | None, exact_window: bool) -> str:
    """ "true", "false" or "unjudged" (a window claim where the window is not exact)."""
    if claim.window and not exact_window and truth is not None:
        return "unjudged"
    if claim.unsolvable:
        return "true" if truth is None else "false"
    if claim.solution is not None and (truth is None or claim.solution < truth):
        return "false"
    if claim.bound is not None and truth is not None and claim.bound >= truth:
        return "false"
    return "true"


# --- mutations ------------------------------------------------------------------------------

Case = tuple[dict, dict[str, bytes]]
Mutation = Callable[[random.Random, dict, dict, list[Seed]], str]


def _side(cert: dict, files: dict) -> list[str]:
    return [n for n in files if not n.endswith(".json")]


def m_horizon(rng, cert, files, seeds) -> str:
    if "horizon" not in cert:
        return "no horizon"
    h = cert["horizon"] + rng.choice([1, 2, 5, -1, 10**6, 2**63])
    cert["horizon"] = h
    if rng.random() < 0.5:
        cert.pop("solution", None)
        cert["claim"] = f"no solution with <= {h} moves"
    else:
        cert["claim"] = f"optimal: {h + 1} moves (no solution with <= {h} moves)"
    return f"horizon {h}"


def m_claim(rng, cert, files, seeds) -> str:
    h = cert.get("horizon", rng.randint(0, 20))
    cert["claim"] = rng.choice(
        [
            "unsolvable",
            f"no solution with <= {h + 1} moves",
            f"optimal: {max(0, h)} moves (no solution with <= {max(0, h) - 1} moves)",
            f"optimal: {h + 2} moves (no solution with <= {h + 1} moves)",
            "unsolvable inside the window",
        ]
    )
    cert["scope"] = rng.choice(["global", "horizon", "window", cert.get("scope")])
    return "claim " + cert["claim"]


def m_solution(rng, cert, files, seeds) -> str:
    sol = cert.get("solution")
    if not sol:
        other = rng.choice(seeds).cert.get("solution")
        if other:
            cert["solution"] = copy.deepcopy(other)
        return "solution from another seed"
    choice = rng.randrange(4)
    if choice == 0:
        del cert["solution"][-1]
    elif choice == 1:
        cert["solution"] = sol + [list(reversed(sol[-1]))]
    elif choice == 2:
        cert["solution"] = sol + [sol[-1], list(reversed(sol[-1]))]
    else:
        cert["solution"] = sol[::-1]
    return f"solution edit {choice}"


def m_encoding(rng, cert, files, seeds) -> str:
    enc = cert.get("encoding")
    if isinstance(enc, dict) and enc and rng.random() < 0.6:
        k = rng.choice(sorted(enc))
        enc[k] = rng.choice([not enc[k], 0, 1, None, "true"])
        return f"encoding {k}"
    cert["encoding"] = rng.choice(["core", {}, {"noop": False}, "word", "rank", None, {"bogus": True}])
    return f"encoding {cert['encoding']!r}"


def m_fields(rng, cert, files, seeds) -> str:
    key = rng.choice(["margin", "window_exact", "solver", "upper_bound", "proof_format", "cells", "digest"])
    if key == "margin":
        cert["margin"] = rng.choice([None, 0, 1, 3, 10, -1, 10**7, True])
    elif key == "window_exact":
        cert["window_exact"] = not cert.get("window_exact", False)
    elif key == "solver":
        cert["solver"] = rng.choice(["maplechrono", "glucose4", "cadical153", "lingeling", ""])
    elif key == "upper_bound":
        cert["upper_bound"] = rng.choice([None, cert.get("horizon", 0), cert.get("horizon", 0) + 1, 10**9, -1])
    elif key == "proof_format":
        cert["proof_format"] = rng.choice(["drat", "cubes", "lrat", None])
    elif key == "cells" and isinstance(cert.get("cells"), list) and cert["cells"]:
        cells = cert["cells"]
        if rng.random() < 0.5:
            rng.shuffle(cells)
        else:
            cells.pop(rng.randrange(len(cells)))
    elif key == "digest":
        other = rng.choice(seeds).cert
        cert["instance"] = copy.deepcopy(other["instance"])
    return f"field {key}"


def m_drop_key(rng, cert, files, seeds) -> str:
    keys = [k for k in cert if k not in ("coinsat_certificate",)]
    k = rng.choice(keys)
    if rng.random() < 0.7:
        del cert[k]
        return f"drop {k}"
    cert[k + "_"] = cert[k]
    return f"add {k}_"


def m_cubes(rng, cert, files, seeds) -> str:
    cubes = cert.get("cubes")
    if not isinstance(cubes, list) or not cubes:
        return "no cubes"
    choice = rng.randrange(6)
    if choice == 0 and len(cubes) > 1:
        i = rng.randrange(len(cubes))
        del cubes[i]
        del cert["cube_proofs"][i]
    elif choice == 1:
        cube = rng.choice(cubes)
        j = rng.randrange(len(cube)) if cube else 0
        if cube:
            cube[j] = -cube[j]
    elif choice == 2:
        proofs = cert["cube_proofs"]
        rng.shuffle(proofs)
    elif choice == 3:
        cert["cover_proof"] = rng.choice(cert["cube_proofs"])
    elif choice == 4:
        cert["cubes"] = [[1]]
        cert["cube_proofs"] = [cert["cube_proofs"][0]]
    else:
        cube = rng.choice(cubes)
        cube.append(rng.choice([0, 10**9, -(10**9), True]))
    return f"cubes {choice}"


def m_names(rng, cert, files, seeds) -> str:
    fields = [k for k in ("cnf", "proof", "layers", "cover_proof") if isinstance(cert.get(k), str)]
    if not fields:
        return "no file names"
    k = rng.choice(fields)
    side = _side(cert, files)
    cert[k] = rng.choice(
        [
            "../" + cert[k],
            "/etc/hostname",
            "sub/" + cert[k],
            "missing.bin",
            rng.choice(side) if side else "x",
            ".",
            "",
            "link-" + cert[k],
        ]
    )
    if cert[k].startswith("link-"):
        files[cert[k]] = b"@symlink:/etc/hostname"
    return f"name {k}"


def _hide(rng) -> bytes:
    sep = rng.choice(SEPARATORS)
    return rng.choice([f"c x{sep}0\n", f"{sep}0\n", f"c {sep}0 0\n", f"0{sep}\n", f"1 {sep} -1 0\n"]).encode("utf-8")


def m_bytes(rng, cert, files, seeds) -> str:
    side = _side(cert, files)
    if not side:
        return "no side file"
    name = rng.choice(side)
    data = bytearray(files[name])
    choice = rng.randrange(10)
    lines = bytes(data).split(b"\n")
    if choice == 0:  # a hidden empty clause
        data += _hide(rng)
    elif choice == 1:  # hidden in the middle
        i = rng.randrange(len(lines))
        lines.insert(i, _hide(rng).rstrip(b"\n"))
        data = bytearray(b"\n".join(lines))
    elif choice == 2 and data:  # bit flips
        for _ in range(rng.randint(1, 4)):
            i = rng.randrange(len(data))
            data[i] ^= 1 << rng.randrange(8)
    elif choice == 3:  # truncation
        data = data[: rng.randrange(len(data) + 1)]
    elif choice == 4:  # a line dropped or doubled
        i = rng.randrange(len(lines))
        if rng.random() < 0.5:
            del lines[i]
        else:
            lines.insert(i, lines[i])
        data = bytearray(b"\n".join(lines))
    elif choice == 5:  # declared sizes
        data = bytearray(
            b"\n".join(
                b"p cnf %d %d" % (rng.choice([0, 1, 10**8, 2**40]), rng.choice([0, 1, 10**8]))
                if ln.startswith(b"p cnf")
                else ln
                for ln in lines
            )
        )
    elif choice == 6:  # emptied
        data = bytearray()
    elif choice == 7:  # an empty clause appended openly
        data += b"0\n"
    elif choice == 8:  # another seed's file of the same kind
        other = rng.choice(seeds)
        same = [n for n in other.files if n.rsplit(".", 1)[-1] == name.rsplit(".", 1)[-1]]
        if same:
            data = bytearray(other.files[rng.choice(same)])
    else:  # a unicode line break inside a comment, as UTF-8
        data = bytearray(b"c " + "\u2028".encode() + b"0\n") + data
    files[name] = bytes(data)
    return f"bytes {choice} {name.rsplit('.', 1)[-1]}"


def m_reencode(rng, cert, files, seeds) -> str:
    """A forger with the exporter: the genuine formula at a larger horizon as the CNF (and its
    GBD hash), with the claim to match, an empty clause hidden in a comment behind a separator,
    and the proof emptied or kept: the R3-1 recipe, with every separator."""
    from coinsat import read_instance
    from coinsat.certificates.check.bounded import formula_text
    from coinsat.io.dimacs import gbd_hash

    if cert.get("kind") != "bounded" or not isinstance(cert.get("cnf"), str):
        return "no formula"
    seed = next(s for s in seeds if s.cert is not None and s.cert.get("instance") == cert.get("instance"))
    h = int(seed.cert["horizon"]) + rng.choice([1, 1, 2])  # the genuine horizon's: another mutation may be huge
    text = formula_text(read_instance(seed.puzzle), h, cert["encoding"])
    cert.update(horizon=h, cnf_gbd_hash=gbd_hash(text))
    cert.pop("solution", None)
    cert["claim"] = f"no solution with <= {h} moves"
    data = text.encode() + (_hide(rng) if rng.random() < 0.8 else b"")
    files[cert["cnf"]] = data
    if rng.random() < 0.7:
        for name in [cert.get("proof"), cert.get("cover_proof"), *(cert.get("cube_proofs") or [])]:
            if isinstance(name, str) and name in files:
                files[name] = b""
    return f"reencode h={h}"


MUTATIONS: dict[str, Mutation] = {
    "reencode": m_reencode,
    "horizon": m_horizon,
    "claim": m_claim,
    "solution": m_solution,
    "encoding": m_encoding,
    "fields": m_fields,
    "drop-key": m_drop_key,
    "cubes": m_cubes,
    "names": m_names,
    "bytes": m_bytes,
    "json-bytes": lambda rng, cert, files, seeds: "json bytes",  # applied when writing
}


# --- one case -------------------------------------------------------------------------------


def _write(folder: Path, cert: dict, files: dict[str, bytes], json_mutation: random.Random | None) -> Path:
    for name, data in files.items():
        if not name or "/" in name or name in (".", ".."):  # a mutated name: the file is simply absent
            continue
        target = data[len(b"@symlink:") :].decode("utf-8", "replace") if data.startswith(b"@symlink:") else ""
        if target and "\x00" not in target:  # a byte mutation may have broken the target: then a plain file
            os.symlink(target, folder / name)
        else:
            (folder / name).write_bytes(data)
    text = json.dumps(cert).encode()
    if json_mutation is not None:  # a separator inside a string, or raw non-ASCII
        rng = json_mutation
        i = text.find(b'"', rng.randrange(len(text)))
        if i >= 0:
            text = text[: i + 1] + rng.choice(SEPARATORS).encode("utf-8") + text[i + 1 :]
    path = folder / "c.certificate.json"
    path.write_bytes(text)
    return path


def run_case(
    seed: Seed,
    rng: random.Random,
    seeds: list[Seed],
    scratch: Path,
    time_limit: float = 20.0,
    memory_limit: str = MEMORY_LIMIT,
) -> dict:
    cert, files = copy.deepcopy(seed.cert), dict(seed.files)
    names = rng.sample(sorted(MUTATIONS), rng.randint(1, min(3, len(MUTATIONS))))
    done = []
    for n in names:
        try:
            done.append(MUTATIONS[n](rng, cert, files, seeds))
        except Exception as e:  # noqa: BLE001 — a mutation that does not apply to this case
            done.append(f"{n} skipped ({type(e).__name__})")
    folder = Path(tempfile.mkdtemp(dir=scratch))
    try:
        path = _write(folder, cert, files, rng if "json-bytes" in names else None)
        t0 = time.perf_counter()
        try:
            code, out, err = _cli(
                [
                    "check-certificate",
                    str(seed.puzzle),
                    str(path),
                    "--json",
                    "--time-limit",
                    str(time_limit),
                    "--memory-limit",
                    memory_limit,
                ]
            )
        except Exception as e:  # noqa: BLE001 — the harness reports every escape
            code, out, err = -1, "", f"{type(e).__name__}: {e}"
        seconds = time.perf_counter() - t0
        record = {"seed": seed.name, "mutations": names, "applied": done, "exit": code, "seconds": seconds}
        if code not in (0, 1, 3):
            record.update(outcome="crash", detail=(err or out)[-500:])
            _keep(record, folder, cert, files)
            return record
        answer = json.loads(out) if out.strip().startswith("{") else {}
        if code == 0:
            proven = parse_claim(answer.get("proven", ""))
            verdict = judge_truth(proven, seed.truth, seed.exact_window)
            record.update(outcome="accepted-" + verdict, proven=answer.get("proven"))
            if verdict == "false":
                _keep(record, folder, cert, files)
        else:
            record.update(outcome="rejected" if code == 1 else "unknown", reason=str(answer.get("reason", ""))[:160])
        return record
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def _keep(record: dict, folder: Path, cert: dict, files: dict) -> None:
    record["certificate"] = cert
    record["files"] = {n: d.decode("latin-1") for n, d in files.items() if len(d) < 1 << 20}


def campaign(
    seeds: list[Seed],
    *,
    seconds: float | None = None,
    cases: int | None = None,
    seed: int = 0,
    time_limit: float = 20.0,
    progress: Callable[[Campaign], None] | None = None,
) -> Campaign:
    """Run cases until ``seconds`` pass or ``cases`` are done (at least one of them given)."""
    rng = random.Random(seed)
    result = Campaign()
    scratch = Path(tempfile.mkdtemp(prefix="coinsat-checker-fuzz-"))
    t_end = None if seconds is None else time.perf_counter() + seconds
    last = time.perf_counter()
    try:
        while (cases is None or result.cases < cases) and (t_end is None or time.perf_counter() < t_end):
            s = rng.choice(seeds)
            case_seed = rng.getrandbits(64)
            try:
                record = run_case(s, random.Random(case_seed), seeds, scratch, time_limit)
            except Exception as e:  # noqa: BLE001 — a harness fault is reported, never a silent stop
                record = {"seed": s.name, "mutations": [], "applied": [], "exit": None, "seconds": 0.0}
                record.update(outcome="harness-error", detail=f"case {case_seed}: {type(e).__name__}: {e}")
            result.cases += 1
            result.outcomes[(s.name, record["outcome"])] += 1
            for n in record["mutations"]:
                result.mutations[n] += 1
            result.slowest = max(result.slowest, record["seconds"])
            if record["outcome"] in ("crash", "accepted-false", "harness-error"):
                result.failures.append(record)
            if progress is not None and time.perf_counter() - last > 30:
                last = time.perf_counter()
                progress(result)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    return result


def table(result: Campaign, seeds: list[Seed], command: str, wall: float) -> str:
    """The campaign as Markdown: per seed, the outcomes; the false accepts and crashes."""
    kinds = ["accepted-true", "accepted-unjudged", "rejected", "unknown", "accepted-false", "crash"]
    lines = [
        "## Checker campaign (differential fuzz of `check-certificate`)",
        "",
        f"Command: `{command}` (made by `scripts/checker_fuzz.py`, logic in `lab/checker_fuzz.py`).",
        "",
        "Each case mutates a genuine certificate (structure and bytes: separators, comments, Unicode line",
        "breaks, declared sizes, file names) and runs `coinsat check-certificate --json` on it. An accepted",
        "case's *proven* claim is judged against the optimum from `solve --method bfs`; a claim stronger",
        "than the truth is a false accept.",
        "",
        f"Wall time: {wall / 60:.1f} min; {result.cases} cases; slowest case {result.slowest:.1f} s.",
        "",
        "| seed | truth | " + " | ".join(kinds) + " |",
        "|---|---:|" + "---:|" * len(kinds),
    ]
    for s in seeds:
        truth = "unsolvable" if s.truth is None else str(s.truth)
        row = [str(result.outcomes[(s.name, k)]) for k in kinds]
        lines.append(f"| {s.name} | {truth} | " + " | ".join(row) + " |")
    total = [str(sum(v for (_, k2), v in result.outcomes.items() if k2 == k)) for k in kinds]
    lines.append("| **total** | | " + " | ".join(f"**{t}**" for t in total) + " |")
    lines += ["", "Mutations applied (a case takes one to three):", ""]
    lines.append(", ".join(f"{k} {v}" for k, v in sorted(result.mutations.items())))
    lines += [
        "",
        f"False accepts: **{sum(r['outcome'] == 'accepted-false' for r in result.failures)}**; "
        f"crashes: **{sum(r['outcome'] == 'crash' for r in result.failures)}**.",
    ]
    for r in result.failures[:20]:
        detail = f": {r['detail']}" if r["outcome"] == "harness-error" else ""
        lines.append(f"- {r['seed']}: {r['outcome']} after {r['applied']} (exit {r['exit']}){detail}")
    return "\n".join(lines) + "\n"
