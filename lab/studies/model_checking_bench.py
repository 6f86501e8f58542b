#!/usr/bin/env python3
"""Model checking against the explicit engines and SAT (issue 33): ``benchmarks/model_checking.md``.

Sections (``--sections``, default all):

* ``bmc``: every paper puzzle (instances/paper): the SAT engine's answer, and two BMCs on the
  exported binary AIGER (``coinsat export FILE --format aig``, encodings/aiger.md): ABC's
  ``bmc3`` (baseline) and coinsat's own (``lab.bmc.check_export``: the file read back
  by ``io/aiger.py``, CaDiCaL through PySAT): the first failing frame must be the optimum (the
  window is the instance's own, so on the triangular grid it is the optimum inside that window),
  and coinsat's counterexample must replay with rules.py in that many moves.
* ``unsolvable``: every jump puzzle under instances/ that is unsolvable (decided by a screen,
  or by BFS within the time limit), against every engine run directly (the screens of
  ``solve`` bypassed): bfs (closed set, states), rankbfs, sat (what its climb proves at the
  limit), pdr (seconds, invariant clauses, certificate bytes, check seconds), kind (k).
* ``random``: random "near-miss" puzzles (a goal a random walk away from the start with one
  coin then moved to a random empty cell) with more coins, on square, triangular and graph
  boards: how many the screens decide, how many have a solution (PDR's counterexample,
  replayed by rules.py), and the engines on the unsolvable ones no screen decides.

Every engine gets ``--time-limit`` seconds and ``--memory-gb`` GiB; runs are sequential in this
process (ABC in a child process).  Prefix with ``nice -n 10`` on a shared machine.

    python3 scripts/model_checking_bench.py [--sections bmc,unsolvable,random] [--time-limit 30]
        [--bmc-seconds S] [--random 12] [--long-seconds 600] [--cache DIR] [--out benchmarks/model_checking.md]

``--cache DIR`` keeps every finished section in DIR: the same command after a stop reuses them
(resumable by section).
"""

from __future__ import annotations

import argparse
import json
import random
import re
import resource
import sys
import tempfile
import time
from pathlib import Path

from coinsat import export, read_instance
from coinsat.backends.abc import run_abc
from coinsat.certificates.check import check_certificate
from coinsat.certificates.check.format import Certificate
from coinsat.certificates.prove.closed_set import forward_closure
from coinsat.certificates.prove.inductive import build_inductive
from coinsat.certificates.prove.screens import screen
from coinsat.errors import CoinsatError, LimitReached
from coinsat.instance import make_instance
from coinsat.limits import Limits, cpu_seconds
from coinsat.rules import legal_moves
from coinsat.search import methods
from coinsat.theory.reach import configuration_count
from lab.bmc import check_export

ROOT = Path(__file__).resolve().parents[2]


def run_engine(name: str, instance, seconds: float, memory: int):
    """An engine by name, directly (no screens), under the limits; (result or None, CPU seconds of
    this process and its ended children (ABC), error).  The machine is shared: wall time is noise."""
    cpu0 = cpu_seconds()
    try:
        if methods.inapplicable(name, instance):
            return None, 0.0, "n/a"
        r = methods.run(name, instance, limits=Limits(seconds, memory))
    except (CoinsatError, LimitReached) as e:
        return None, cpu_seconds() - cpu0, str(e).splitlines()[0][:60]
    return r, cpu_seconds() - cpu0, None


def answer(r, err) -> str:
    if r is None:
        return err or "—"
    s = r.status.value
    if s in ("optimal", "feasible"):
        return f"{s} {r.length}"
    if s == "unsolvable":
        return f"unsolvable ({r.certificate['scope']})"
    if s in ("unknown", "bounded"):
        return f"{s} (lb {r.lower_bound})"
    return s


# --- bmc ---------------------------------------------------------------------------------------


def bmc_frame(instance, frames: int, seconds: float) -> tuple[int | None, float, float, str]:
    """ABC's ``bmc3`` on the exported binary AIGER: (first failing frame or None, wall seconds, CPU
    seconds of ABC, how): how is "cex", "none", or "limit after frame N" (bmc3 -v prints a line per
    frame it finished: frames 0..N hold no goal)."""
    cpu0 = _children_cpu()
    run = run_abc(export(instance, "aig").data, [f"bmc3 -v -F {frames}"], time_limit=seconds)
    cpu = _children_cpu() - cpu0
    m = re.search(r"asserted in frame (\d+)", run.output)
    if m:
        return int(m.group(1)), run.seconds, cpu, "cex"
    if run.stopped:
        done = [int(x) for x in re.findall(r"^\s*(\d+) \+ :", run.output, flags=re.M)]
        how = f"{run.stopped}: frames 0..{max(done)} hold no goal" if done else run.stopped
        return None, run.seconds, cpu, how
    return None, run.seconds, cpu, "none"


def _children_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def section_bmc(args) -> list[str]:
    rows = [
        "## BMC on the exported AIGER against the SAT engine (instances/paper)",
        "",
        "SAT: `solve --method sat` (its window grows on the triangular grid, so its optimum is global). "
        "Two BMCs on `coinsat export FILE --format aig` (no horizon: the property 'never the goal'); the "
        "first failing frame is the length of a shortest solution inside the window. "
        "**ABC** (baseline): `bmc3 -v -F (optimum + 2)`, or `-F 30` on unsolvable puzzles. "
        "**coinsat BMC** (contender): `lab.bmc.check_export`: the exported bytes read back by "
        "`io/aiger.py`'s reader (not the encoder), unrolled into one incremental CNF solved by CaDiCaL 1.9.5 "
        "(PySAT), one assumption per frame: frames 0..L-1 must be UNSAT and frame L SAT (L the SAT "
        "optimum), and the counterexample's inputs, decoded through the file's symbol table, must replay "
        "with rules.py to the goal in exactly L moves; on unsolvable puzzles frames 0..30 must be UNSAT. "
        f"Each BMC gets {args.bmc_seconds or args.time_limit:g} s; the machine is shared, so the seconds are "
        "CPU seconds (ABC's measured as this process's children).",
        "",
        "| puzzle | board | cells | SAT answer | SAT CPU s | ABC bmc3 first failing frame | ABC CPU s | ABC agrees "
        "| coinsat BMC first failing frame | replayed moves | coinsat CPU s | coinsat agrees | CPU ratio ABC/coinsat |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    agree_abc = agree_own = total = 0
    for f in sorted((ROOT / "instances" / "paper").glob("*.toml")):
        inst = read_instance(f)
        total += 1
        r, sat_cpu, err = run_engine("sat", inst, args.time_limit, args.memory)
        opt = r.length if r is not None and r.status.value == "optimal" else None
        unsolvable = r is not None and r.status.value == "unsolvable"
        frames = opt + 2 if opt is not None else 30
        limit = args.bmc_seconds or args.time_limit
        frame, _, abc_cpu, how = bmc_frame(inst, frames, limit)
        if opt is not None and frame is None and how != "none":  # stopped by the limit
            cleared = re.search(r"frames 0\.\.(\d+)", how)
            a_abc = "not decided (consistent so far)" if cleared and int(cleared.group(1)) < opt else "not decided"
        elif opt is not None:
            a_abc = "yes" if frame == opt else "NO"
        else:
            a_abc = "yes" if (unsolvable and frame is None) else "?"
        agree_abc += a_abc == "yes"
        shown = frame if frame is not None else f"none in {frames} frames" if how == "none" else how
        if opt is None and not unsolvable:
            own, a_own, own_shown, replayed, own_cpu = None, "? (no SAT answer)", "—", "—", 0.0
        else:
            own = check_export(inst, opt, 30, "aig", time.perf_counter() + limit)
            own_cpu = own.cpu
            ans = own.answer
            if ans.stopped:
                own_shown = f"time limit: frames 0..{ans.cleared - 1} hold no goal"
                a_own = "not decided"
            elif ans.failing_frame is None:
                own_shown = f"none in frames 0..{ans.cleared - 1}"
                a_own = "yes" if own.problem is None else f"NO: {own.problem}"
            else:
                own_shown = str(ans.failing_frame)
                a_own = "yes" if own.problem is None else f"NO: {own.problem}"
            replayed = str(own.replayed) if own.replayed is not None else "—"
        agree_own += a_own == "yes"
        ratio = f"{abc_cpu / own_cpu:.1f}x" if own_cpu > 0 and a_own == "yes" and a_abc == "yes" else "—"
        if a_own == "yes" and a_abc != "yes" and own_cpu > 0:
            ratio = f"> {abc_cpu / own_cpu:.1f}x (ABC undecided)"
        rows.append(
            f"| {inst.name} | {inst.board.kind.value} | {inst.board.size} | {answer(r, err)} | {sat_cpu:.2f} | "
            f"{shown} | {abc_cpu:.2f} | {a_abc} | {own_shown} | {replayed} | {own_cpu:.2f} | {a_own} | {ratio} |"
        )
        print(rows[-1], flush=True)
    rows += [
        "",
        f"Agreement with the SAT engine on the {total} paper puzzles: ABC's bmc3 {agree_abc}/{total}, "
        f"coinsat BMC {agree_own}/{total}.",
    ]
    return rows


# --- unsolvable --------------------------------------------------------------------------------

ENGINES = ("bfs", "rankbfs", "sat", "pdr", "kind")


def pdr_certificate(instance, r) -> tuple[str, str]:
    """(certificate bytes, check seconds) of PDR's invariant, built and checked here."""
    if r is None or r.status.value != "unsolvable" or r.witness is None:
        return "—", "—"
    with tempfile.TemporaryDirectory() as tmp:
        cert = Certificate.from_json(build_inductive(instance, r.witness, tmp, "x"))
        text = cert.text()
        size = len(text.encode()) + sum(p.stat().st_size for p in Path(tmp).iterdir())
        t0 = cpu_seconds()
        verdict = check_certificate(instance, json.loads(text), tmp)
        secs = cpu_seconds() - t0
    return f"{size:,}", f"{secs:.2f}" + ("" if verdict.ok else " REJECTED")


def closed_set_bytes(instance, seconds: float) -> str:
    try:
        cert = forward_closure(instance, deadline=time.perf_counter() + seconds)
    except LimitReached:
        return "limit"
    return "—" if cert is None else f"{len(json.dumps(cert)):,}"


def engine_rows(insts: list, args, title: str, seconds: float | None = None) -> list[str]:
    """Every engine on every puzzle, ``seconds`` each (default ``--time-limit``)."""
    seconds = seconds or args.time_limit
    collected: list = []
    rows = [
        title,
        "",
        "Each engine run directly (no screens), "
        f"{seconds:g} s and {args.memory // (1 << 30)} GiB each; every 's' column is CPU seconds "
        "(this process and its children, ABC included: the machine is shared). "
        "bfs states: configurations held; closed set: bytes of the closed-set certificate JSON (the "
        "reachable set); pdr: invariant clauses (ABC's plus one per goal placement), certificate bytes "
        "(JSON and three DRAT proofs), check seconds; kind: the k of the successful induction.",
        "",
        "| puzzle | cells | coins | configurations | screen | bfs | bfs s | bfs states | closed set B | rankbfs | "
        "rankbfs s | sat | sat s | pdr | pdr s | pdr clauses | pdr cert B | check s | kind | kind s | k |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for inst in insts:
        scr = screen(inst)
        cells = [inst.name, str(inst.board.size), str(inst.n_coins), f"{configuration_count(inst):,}"]
        cells.append(scr.method.split(":", 1)[1] if scr is not None else "—")
        res = {}
        for name in ENGINES:
            r, secs, err = run_engine(name, inst, seconds, args.memory)
            res[name] = (r, secs)
            cells += [answer(r, err), f"{secs:.2f}"]
            if name == "bfs":
                cells += [f"{r.stats.get('states', 0):,}" if r is not None else "—", closed_set_bytes(inst, 60)]
            if name == "pdr":
                size, check = pdr_certificate(inst, r)
                clauses = r.stats.get("invariant_clauses", "—") if r is not None else "—"
                cells += [str(clauses), size, check]
            if name == "kind":
                cells.append(str(r.stats.get("k", "—")) if r is not None else "—")
        rows.append("| " + " | ".join(cells) + " |")
        print(rows[-1], flush=True)
        collected.append((inst, res))
    rows += ["", *summary(collected)]
    return rows


def summary(collected: list) -> list[str]:
    """Which engine proves what (from the rows above), and the puzzles only PDR decides."""
    rows = [
        "Which engine proves 'unsolvable' on these puzzles within the limit:",
        "",
        "| engine | global | inside the window | not proven | slowest proof s |",
        "|---|---|---|---|---|",
    ]
    for name in ENGINES:
        scopes = [
            r.certificate["scope"] if r is not None and r.status.value == "unsolvable" else None
            for r, _ in (res[name] for _, res in collected)
        ]
        times = [
            secs
            for (r, secs) in (res[name] for _, res in collected)
            if r is not None and r.status.value == "unsolvable"
        ]
        rows.append(
            f"| {name} | {scopes.count('global')} | {scopes.count('window')} | {scopes.count(None)} | "
            f"{max(times):.2f} |"
            if times
            else f"| {name} | 0 | 0 | {len(scopes)} | — |"
        )
    only = [
        inst.name
        for inst, res in collected
        if res["pdr"][0] is not None
        and res["pdr"][0].status.value == "unsolvable"
        and not any(res[e][0] is not None and res[e][0].status.value == "unsolvable" for e in ENGINES if e != "pdr")
    ]
    states = [
        res["bfs"][0].stats.get("states", 0)
        for _, res in collected
        if res["bfs"][0] is not None and res["bfs"][0].status.value == "unsolvable"
    ]
    rows += [
        "",
        "Decided by PDR only: "
        + (", ".join(only) if only else "none")
        + (
            f". The largest set BFS held while proving one of them unsolvable: {max(states):,} configurations."
            if states
            else "."
        ),
    ]
    return rows


def unsolvable_instances(args) -> tuple[list, list[str]]:
    found, skipped = [], []
    for f in sorted(ROOT.glob("instances/**/*.toml")):
        try:
            inst = read_instance(f)
        except CoinsatError as e:
            skipped.append(f"{f.relative_to(ROOT)} ({str(e).splitlines()[0].split(': ', 1)[-1][:60]})")
            continue
        if inst.moves != "jump":
            skipped.append(f"{f.relative_to(ROOT)} (moves = {inst.moves}: the circuit encodes jumps)")
            continue
        if screen(inst) is not None:
            found.append(inst)
            continue
        r, _, _ = run_engine("bfs", inst, args.scan_seconds, args.memory)
        if r is not None and r.status.value == "unsolvable":
            found.append(inst)
    return found, skipped


def section_unsolvable(args) -> list[str]:
    insts, skipped = unsolvable_instances(args)
    rows = engine_rows(
        insts,
        args,
        "## Every unsolvable puzzle in instances/",
    )
    rows += [
        "",
        f"Found by a screen or by `bfs` within {args.scan_seconds:g} s per file. Not run: "
        + ("; ".join(skipped) if skipped else "none")
        + ".",
    ]
    return rows


# --- random ------------------------------------------------------------------------------------

#: (board, width, height, coins, d, goal): the goal a near miss of a random walk ("walk") or random
#: in the box ("random"); cubic boxes are width x width x height
RANDOM_KINDS = (
    ("square", 6, 6, 12, 2, "walk"),
    ("square", 7, 5, 14, 2, "walk"),
    ("square", 6, 6, 12, 2, "random"),
    ("triangular", 5, 5, 10, 3, "walk"),
    ("graph", 6, 6, 14, 2, "walk"),
    ("cubic", 3, 3, 13, 3, "walk"),
    ("cubic", 3, 3, 13, 3, "random"),
)


def near_miss(kind: str, w: int, h: int, n: int, d: int, seed: int, mode: str = "walk"):
    rng = random.Random(seed)
    if kind == "graph":
        size = w * h
        edges = {(i, i + 1) for i in range(size - 1)}
        while len(edges) < 1.6 * size:
            u, v = rng.sample(range(size), 2)
            edges.add((min(u, v), max(u, v)))
        cells: list = list(range(size))
        name = f"rg{size}-n{n}-d{d}-s{seed}"

        def make(s, g):
            return make_instance("graph", s, g, edges=sorted(edges), adjacency=d, name=name)
    else:
        if kind == "cubic":
            cells = [(x, y, z) for x in range(w) for y in range(w) for z in range(h)]
        else:
            cells = [(x, y) for x in range(w) for y in range(h)]
        name = f"r{kind[:3]}{w}x{h}-n{n}-d{d}-{mode}-s{seed}"

        def make(s, g):
            return make_instance(kind, s, g, adjacency=d, name=name)

    start = rng.sample(cells, n)
    if mode == "random":
        return make(start, rng.sample(cells, n))
    inst = make(start, start)
    conf = inst.start
    for _ in range(40):
        moves = legal_moves(inst.board, conf, d)
        if not moves:
            break
        conf = conf.moved(*rng.choice(moves))
    coords = inst.board.coords
    goal = [coords[c] for c in sorted(conf.cell_set)]
    empty = [c for c in coords if c not in goal]
    goal[rng.randrange(len(goal))] = rng.choice(empty)
    return make(start, goal)


def section_random(args) -> list[str]:
    rows = [
        "## Random near-miss puzzles",
        "",
        f"{args.random} seeds per row: the start random in the box; the goal a random walk of 40 moves away "
        "with one coin then moved to a random empty cell of the window ('walk'), or random in the box "
        "('random'). Cubic boxes are w x w x h. 'solvable': PDR's counterexample, replayed by "
        f"rules.py ({args.time_limit:g} s). A puzzle whose file would be refused (e.g. a goal off the "
        "board) counts as 'refused'.",
        "",
        "| board | box | coins | d | goal | screened | solvable | unsolvable, no screen | undecided | refused |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    hard, undecided = [], []
    for kind, w, h, n, d, mode in RANDOM_KINDS:
        counts = {"screen": 0, "solvable": 0, "unsolvable": 0, "undecided": 0, "refused": 0}
        for seed in range(args.random):
            try:
                inst = near_miss(kind, w, h, n, d, seed, mode)
            except CoinsatError:
                counts["refused"] += 1
                continue
            if screen(inst) is not None:
                counts["screen"] += 1
                continue
            r, _, _ = run_engine("pdr", inst, args.time_limit, args.memory)
            if r is not None and r.status.value in ("optimal", "feasible"):
                counts["solvable"] += 1
            elif r is not None and r.status.value == "unsolvable":
                counts["unsolvable"] += 1
                hard.append(inst)
            else:
                counts["undecided"] += 1
                undecided.append(inst)
        rows.append(
            f"| {kind} | {w}x{h} | {n} | {d} | {mode} | {counts['screen']} | {counts['solvable']} | "
            f"{counts['unsolvable']} | {counts['undecided']} | {counts['refused']} |"
        )
        print(rows[-1], flush=True)
    if undecided and args.long_seconds > args.time_limit:
        rows += [
            "",
            f"The {len(undecided)} undecided at {args.time_limit:g} s, given {args.long_seconds:g} s of `pdr` "
            "(CPU seconds of ABC and this process):",
            "",
            "| puzzle | cells | coins | pdr | pdr CPU s |",
            "|---|---|---|---|---|",
        ]
        for inst in undecided:
            r, cpu, err = run_engine("pdr", inst, args.long_seconds, args.memory)
            rows.append(f"| {inst.name} | {inst.board.size} | {inst.n_coins} | {answer(r, err)} | {cpu:.1f} |")
            print(rows[-1], flush=True)
            if r is not None and r.status.value == "unsolvable":
                hard.append(inst)
    retried = bool(undecided) and args.long_seconds > args.time_limit
    if hard:
        long = args.long_seconds if args.long_seconds > args.time_limit else None
        rows += ["", *engine_rows(hard, args, "### The unsolvable ones no screen decides", long)]
    else:
        rows += [
            "",
            f"None of the {args.random * len(RANDOM_KINDS)} sampled puzzles is unsolvable without a screen "
            "deciding it: each was refused, screened, solved (a counterexample replayed by rules.py) or left "
            "undecided at the limit"
            + (f" ({args.long_seconds:g} s of pdr for the ones undecided at first)." if retried else "."),
        ]
    return rows


SECTIONS = {"bmc": section_bmc, "unsolvable": section_unsolvable, "random": section_random}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sections", default=",".join(SECTIONS))
    ap.add_argument("--time-limit", type=float, default=30.0, help="seconds per engine and puzzle")
    ap.add_argument("--bmc-seconds", type=float, default=None, help="ABC's bmc3 seconds (default: --time-limit)")
    ap.add_argument(
        "--long-seconds",
        type=float,
        default=0.0,
        help="random section: pdr's seconds on the puzzles undecided at --time-limit (0: no second try)",
    )
    ap.add_argument("--scan-seconds", type=float, default=10.0, help="bfs seconds per file when scanning")
    ap.add_argument("--memory-gb", type=float, default=4.0)
    ap.add_argument("--random", type=int, default=12, help="seeds per random row")
    ap.add_argument("--out", default=None, help="write the table here (default: stdout only)")
    ap.add_argument(
        "--cache", default=None, help="a folder keeping each finished section: a rerun after a stop reuses them"
    )
    args = ap.parse_args(argv)
    args.memory = int(args.memory_gb * (1 << 30))
    command = "python3 scripts/model_checking_bench.py " + " ".join(argv if argv is not None else sys.argv[1:])
    out = [
        "# Model checking: ABC's BMC, PDR and k-induction against the explicit engines and SAT",
        "",
        f"Generated by `{command.strip()}` — do not edit by hand.",
        "",
    ]
    t0 = time.perf_counter()
    for name in args.sections.split(","):
        cached = Path(args.cache) / f"{name}.md" if args.cache else None
        if cached is not None and cached.is_file():
            out += cached.read_text().splitlines() + [""]
            continue
        rows = SECTIONS[name](args)
        if cached is not None:
            cached.parent.mkdir(parents=True, exist_ok=True)
            cached.write_text("\n".join(rows) + "\n")
        out += rows + [""]
    out.append(f"Total {time.perf_counter() - t0:.0f} s (sections reused from --cache not counted).")
    text = "\n".join(out) + "\n"
    if args.out:
        Path(args.out).write_text(text)
        print(f"wrote {args.out}", file=sys.stderr)
    else:
        print(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
