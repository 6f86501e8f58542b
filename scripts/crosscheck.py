#!/usr/bin/env python3
"""Cross-engine agreement at scale: random instances, every engine, answers compared.

    nice -n 10 python3 scripts/crosscheck.py --n 10000 --workers 2 --report benchmarks/crosscheck.md
    python3 scripts/crosscheck.py --replay tests/data/crosscheck_failures/*.toml

Why: the engines (``bfs``, ``spanbfs``, ``sat``, ``ilp``) share only rules.py, so
answers that agree on thousands of unrelated instances are evidence for each of
them, and one that disagrees is a bug in at least one.  Every answer's solution
is replayed here by ``solution.verify`` (rules.py) as well.

**Instances** (``random_case(seed)``, one seed one instance, reproducible): square,
triangular and graph boards; unlabeled coins or two labels; d = 1, 2, 3; goal
placements fixed, translate, congruent (graphs: fixed); the goal either random
cells of the frame (often unsolvable) or the end of a random walk of 3 to 10
legal moves from the start (solvable, with longer optima).  Each comes with a
horizon T (every engine runs with ``max_moves=T``); a walk's goal gets T >= the
walk's length, so its optimum is within reach.  Lattice windows that are not
exact (triangular grid; square grid with d = 1) get ``margin = min(T, 6)``
(exact for the horizon up to 6; larger windows make ILP slow) in 60 % of the
cases and a margin of 1 or 2 otherwise, so that answers scoped to the window
occur.

**What an answer claims.**  Every engine answer is read as claims, not as a
status string, so that the rules hold whatever scope an engine reaches:

* *global decision for T*: ``none`` (no solution with <= T moves at all) when
  ``lower_bound`` is None (global unsolvable) or > T — this covers ``bounded``;
  ``len L`` for ``optimal`` with L <= T.  Otherwise none (``feasible`` without a
  proven optimum, ``unknown``, a window-only ``unsolvable`` with a small bound).
* *window decision for T* (the instance's window as given): the global decision
  when it is ``none``; ``len L`` for ``optimal`` (its solution lies in the
  window, so the window's optimum is L too) and for ``feasible`` with
  ``stats["window_optimal"]``; ``none`` for ``unsolvable`` with scope
  ``window``; a length L > T counts as ``none`` within T.

**Agreement rules** (``compare``); each broken rule is a disagreement:

1. every solution replays legally to a goal placement (rules.py);
2. all global decisions are equal ("same status and length" where both answers
   are global; ``bounded`` and ``unsolvable`` are the same answer for T: a run
   that exhausts the state space before T may say the stronger one);
3. all window decisions are equal (window-scoped answers are compared only with
   answers about the same window, including global ones that imply one);
4. consistency across scopes, for every pair: no lower bound above another
   engine's solution length; no ``optimal`` L above another's solution; no
   window decision contradicted by another's solution inside the window (all
   solutions are; a shorter one, or one within T against ``none``);
5. ``--strict ENGINES``: the named engines must decide globally wherever another
   engine did — an answer of theirs with no global decision for T (``unknown``,
   ``feasible`` without the optimum, ``unsolvable`` with scope ``window``) next
   to another engine's global decision is a disagreement unless it used at
   least half its time limit (a state or window-size limit counts against it
   too).  Off by default.  Since bfs/ilp/spanbfs grow triangular (and d = 1
   square) windows as the SAT driver does, run ``--strict bfs,ilp``; spanbfs
   stops growing at its 64-cell cap (an honest ``unknown``), which the flag
   would report (seed 30016: R_5 of a d = 1 square puzzle).

``unknown`` (a limit hit, or a window engine whose window cannot prove T) is
never a disagreement; unknowns are counted per engine and reported.  Each
engine runs with ``--time-limit`` seconds; a worker still busy ``--hard-limit``
seconds after taking an instance is killed (its own process id) and the
instance counted as *stalled*.  An engine that raises is a disagreement.

Every disagreement is printed and saved to tests/data/crosscheck_failures/
(the instance, T, the engines' answers and problems in its metadata;
``--replay`` re-checks such files).  Exit 1 if any, else 0.
"""

from __future__ import annotations

import argparse
import multiprocessing as mp
import os
import random
import shlex
import sys
import time
from collections import Counter
from dataclasses import dataclass, field, replace
from multiprocessing.connection import Connection, wait
from pathlib import Path
from typing import Iterable, Iterator

from coinsat import geometry
from coinsat.certificates.build.screens import screen
from coinsat.instance import Instance, make_instance
from coinsat.io.instance_format import read_instance, write_instance
from coinsat.result import Result, Status
from coinsat.rules import apply_move, legal_moves
from coinsat.search.methods import METHODS, get_method, inapplicable
from coinsat.solution import verify

ROOT = Path(__file__).resolve().parent.parent
FAILURES = ROOT / "tests" / "data" / "crosscheck_failures"
ENGINES = ("bfs", "spanbfs", "sat", "ilp")
FOUND = (Status.OPTIMAL, Status.FEASIBLE)
MAX_WALK = 10  # longest random walk towards a goal
MAX_EXACT_MARGIN = 3  # a larger margin makes windows of hundreds of cells (ILP: seconds per instance)
DEFAULT_TIME_LIMIT = 1.5  # seconds per engine and instance


def engines() -> tuple[str, ...]:
    return tuple(e for e in ENGINES if e in METHODS)


# --- random instances -------------------------------------------------------------------


@dataclass(frozen=True)
class Case:
    """One random instance, the horizon it is solved with, and where its goal came from."""

    seed: int
    instance: Instance
    horizon: int
    goal_source: str  # "walk" (reached by legal moves) | "random" (random cells)

    @property
    def category(self) -> tuple[str, str, str, str, str]:
        inst = self.instance
        labels = "labeled" if inst.start.is_labeled else "unlabeled"
        return (inst.board.kind, labels, f"d={inst.d}", inst.goal_placement, self.goal_source)


def random_case(seed: int) -> Case:
    """The instance of ``seed`` (the same on every machine: only ``random.Random(seed)``)."""
    rng = random.Random(seed)
    kind = rng.choice(("square", "square", "triangular", "triangular", "graph"))
    d = rng.choice((1, 2, 2, 3))
    labeled = rng.random() < 0.4
    placement = "fixed" if kind == "graph" else rng.choice(("fixed", "fixed", "translate", "congruent"))
    if kind == "graph":
        cells, edges = _random_graph(rng)
    else:
        w, h = (rng.randint(3, 5), rng.randint(2, 4)) if kind == "square" else (rng.randint(3, 4), 2)
        cells, edges = [(x, y) for x in range(w) for y in range(h)], None
    n = rng.randint(d + 1, min(6 if d > 1 else 4, len(cells) - 1))  # < d + 1 coins never move
    start_cells = _cluster(rng, kind, cells, edges, n) if rng.random() < 0.8 else rng.sample(cells, n)
    labels = [rng.choice("AB") if labeled else "o" for _ in range(n)]
    start = dict(zip(start_cells, labels))
    wanted_walk = rng.randint(3, MAX_WALK) if rng.random() < 0.6 else 0
    horizon = rng.randint(2, 7) if not wanted_walk else 0
    margin_exact = rng.random() < 0.6
    small_margin = rng.randint(1, 2)
    goal, walked = start, 0
    if wanted_walk:
        walk_margin = min(wanted_walk, MAX_EXACT_MARGIN) if margin_exact else small_margin
        goal, walked = _walk(rng, kind, start, d, edges, cells, walk_margin, wanted_walk)
    source = "walk" if walked else "random"
    if walked:
        horizon = max(2, walked + rng.randint(0, 2))
    else:
        horizon = horizon or rng.randint(2, 7)
        goal_cells = rng.sample(cells, n)
        goal = dict(zip(goal_cells, rng.sample(labels, n)))
    margin = min(horizon, MAX_EXACT_MARGIN) if margin_exact else small_margin
    inst = make_instance(
        kind,
        start,
        goal,
        adjacency=d,
        goal_placement=placement,
        edges=edges,
        cells=cells if kind == "graph" else None,
        margin=margin,
        name=f"crosscheck-{seed}",
    )
    return Case(seed, inst, horizon, source)


def _random_graph(rng: random.Random):
    n = rng.randint(5, 8)
    cells = list(range(n))
    pairs = [(u, v) for u in cells for v in cells if u < v]
    order = cells[:]
    rng.shuffle(order)
    edges = {tuple(sorted((order[i], order[i + 1]))) for i in range(n - 1)}  # a spanning path
    edges |= set(rng.sample(pairs, rng.randint(1, n)))
    return cells, sorted(edges)


def _cluster(rng: random.Random, kind, cells, edges, n: int) -> list:
    """``n`` cells grown from a random one by adding random neighbours (coins that touch
    can usually move; scattered ones often cannot)."""
    if kind == "graph":
        adj: dict = {c: set() for c in cells}
        for u, v in edges:
            adj[u].add(v)
            adj[v].add(u)
        nbrs = adj.__getitem__
    else:
        on = set(cells)
        nbrs = lambda c: {q for q in geometry.neighbours(kind, c) if q in on}  # noqa: E731
    chosen = [rng.choice(cells)]
    while len(chosen) < n:
        rim = sorted({q for c in chosen for q in nbrs(c)} - set(chosen))
        chosen.append(rng.choice(rim or sorted(set(cells) - set(chosen))))
    return chosen


def _walk(rng, kind, start, d, edges, cells, margin, steps) -> tuple[dict, int]:
    """The coordinates after up to ``steps`` random legal moves from ``start``, and how many
    were made.  The walk never revisits a configuration nor moves the same coin twice in a
    row; it stays in the window of the start, which the instance's window contains.  Half
    the walks only take the moves that leave the most coins off their start cells, which
    makes goals with longer optima (a purely random walk mostly undoes itself)."""
    inst = make_instance(
        kind, start, start, adjacency=d, edges=edges, cells=cells if kind == "graph" else None, margin=margin
    )
    config, seen, last, made = inst.start, {inst.start}, None, 0
    home, away = set(inst.start.coins), rng.random() < 0.5
    for _ in range(steps):
        nexts = [
            (m.dst, apply_move(inst.board, config, m, d)) for m in legal_moves(inst.board, config, d) if m.src != last
        ]
        nexts = [(p, c) for p, c in nexts if c not in seen]
        if not nexts:
            break
        if away:  # keep only the moves that leave the most coins off their start cells
            far = max(len(set(c.coins) - home) for _, c in nexts)
            nexts = [(p, c) for p, c in nexts if len(set(c.coins) - home) == far]
        last, config = rng.choice(nexts)
        seen.add(config)
        made += 1
    return {inst.board.coords[c]: lab for c, lab in config.coins}, made


# --- what an answer claims, and the rules -------------------------------------------------

Decision = tuple  # ("none",) or ("len", L): the answer to "the optimum, if <= T"
NONE: Decision = ("none",)


def global_decision(r: Result, horizon: int) -> Decision | None:
    """What ``r`` proves about every solution of the puzzle, for horizon T (docstring)."""
    if r.lower_bound is None or r.lower_bound > horizon:
        return NONE
    if r.status is Status.OPTIMAL:
        return ("len", r.length)
    return None


def window_decision(r: Result, horizon: int) -> Decision | None:
    """What ``r`` proves about the solutions inside the instance's window, for horizon T."""
    if global_decision(r, horizon) == NONE:
        return NONE
    if r.status is Status.OPTIMAL or (r.status is Status.FEASIBLE and r.stats.get("window_optimal")):
        return ("len", r.length) if r.length <= horizon else NONE
    if r.status is Status.UNSOLVABLE and (r.certificate or {}).get("scope") == "window":
        return NONE
    return None


def window_only(r: Result) -> bool:
    """An answer that speaks only for the window."""
    if r.status is Status.UNSOLVABLE:
        return (r.certificate or {}).get("scope") == "window"
    return r.status is Status.FEASIBLE and bool(r.stats.get("window_optimal"))


def describe(r: Result) -> str:
    """One line per answer: status, length, lower bound, scope (what failure files record)."""
    parts = [r.status.value]
    if r.length is not None:
        parts.append(str(r.length))
    parts.append(f"lb={'none (global unsolvable)' if r.lower_bound is None else r.lower_bound}")
    if r.certificate:
        parts.append(f"scope={r.certificate.get('scope')}")
    if r.stats.get("window_optimal"):
        parts.append("window_optimal")
    if r.solution is not None:
        parts.append("moves=" + str([[s, p] for s, p in r.solution.moves]))
    return " ".join(parts)


def compare(
    instance: Instance,
    horizon: int,
    results: dict[str, Result],
    strict: Iterable[str] = (),
    time_limit: float | None = None,
) -> list[str]:
    """Every broken agreement rule (empty: the answers agree); rules in the module docstring."""
    problems = []
    for e, r in results.items():  # rule 1
        if r.solution is not None:
            verdict = verify(instance, r.solution)
            if not verdict.ok:
                problems.append(f"{e}'s solution fails rules.py at step {verdict.step}: {verdict.reason}")
    for name, decide in (("global", global_decision), ("window", window_decision)):  # rules 2, 3
        decided = {e: decide(r, horizon) for e, r in results.items()}
        decided = {e: dec for e, dec in decided.items() if dec is not None}
        if len(set(decided.values())) > 1:
            problems.append(
                f"{name} answers differ for T={horizon}: "
                + ", ".join(f"{e}={' '.join(map(str, dec))}" for e, dec in decided.items())
            )
    for a, ra in results.items():  # rule 4
        wa = window_decision(ra, horizon)
        for b, rb in results.items():
            if a == b or rb.solution is None:
                continue
            n = rb.length
            if ra.lower_bound is None:
                problems.append(f"{a} says unsolvable (global) but {b} found {n} moves")
            elif ra.lower_bound > n:
                problems.append(f"{a} lower bound {ra.lower_bound} > {b}'s solution of {n}")
            if ra.status is Status.OPTIMAL and ra.length > n:
                problems.append(f"{a} optimal {ra.length} but {b} found {n}")
            if wa == NONE and (n <= horizon or window_only(ra) and ra.status is Status.UNSOLVABLE):
                problems.append(f"{a} says no window solution (T={horizon}) but {b} found {n} moves")
            elif wa is not None and wa != NONE and wa[1] > n:
                problems.append(f"{a} says the window's optimum is {wa[1]} but {b} found {n}")
    decided = {e: global_decision(r, horizon) for e, r in results.items()}
    deciders = sorted(e for e, dec in decided.items() if dec is not None)
    for e in strict:  # rule 5
        r = results.get(e)
        if r is None or decided[e] is not None or not deciders:
            continue
        if time_limit is None or r.seconds < time_limit / 2:
            problems.append(
                f"{e} gave no global answer ({describe(r)}, {r.seconds:.2f} s) where "
                f"{', '.join(deciders)} did, under --strict"
            )
    return problems


def run_engines(
    instance: Instance, horizon: int, names: Iterable[str], time_limit: float | None
) -> tuple[dict[str, Result], list[str]]:
    """Each engine called directly with ``max_moves=horizon`` (``methods.solve`` would answer
    screened instances without running any), plus the cheap unsolvability screens as one
    more voice when they answer.  An engine that raises is a problem."""
    results, errors = {}, []
    for e in names:
        if inapplicable(e, instance):
            continue
        try:
            results[e] = get_method(e)(instance, max_moves=horizon, time_limit=time_limit)
        except Exception as exc:  # noqa: BLE001 - any crash is a finding, reported and saved
            errors.append(f"{e} raised {type(exc).__name__}: {exc}")
    try:
        screened = screen(instance)
    except Exception as exc:  # noqa: BLE001
        errors.append(f"screen raised {type(exc).__name__}: {exc}")
    else:
        if screened is not None:
            results["screen"] = screened
    return results, errors


def check(
    instance: Instance,
    horizon: int,
    names: Iterable[str] | None = None,
    time_limit: float | None = None,
    strict: Iterable[str] = (),
) -> tuple[dict[str, Result], list[str]]:
    results, errors = run_engines(instance, horizon, tuple(names or engines()), time_limit)
    return results, errors + compare(instance, horizon, results, strict, time_limit)


def save_failure(
    instance: Instance, horizon: int, results: dict[str, Result], problems, folder: Path = FAILURES, **extra
) -> Path:
    """Write the instance with T, the answers and the problems in its metadata (atomic).

    A triangular instance with a coin at x < 0 is first translated to x >= 0 (metadata
    ``translated_by``): the picture writer of io/instance_format.py drops such coins
    (it draws row y from column y on, and the cell x sits at column 2x + y), which would
    save a different, unreadable puzzle.  A translate of a lattice puzzle is the same
    puzzle."""
    instance, shift = drawable(instance)
    meta = dict(instance.metadata)
    meta.update(extra, max_moves=horizon, problems=list(problems), answers={e: describe(r) for e, r in results.items()})
    if shift:
        meta["translated_by"] = [shift, 0]
    path = folder / f"{instance.name}.toml"
    folder.mkdir(parents=True, exist_ok=True)
    write_instance(replace(instance, metadata=tuple(sorted(meta.items()))), path)
    return path


def drawable(instance: Instance) -> tuple[Instance, int]:
    """The instance moved right by ``shift`` cells so that no triangular coin has x < 0."""
    b = instance.board
    if b.kind != "triangular":
        return instance, 0
    coins = [(b.coords[c], lab) for conf in (instance.start, instance.goal) for c, lab in conf.coins]
    shift = max(0, -min(x for (x, _), _ in coins))
    if not shift:
        return instance, 0

    def moved(conf):
        return {(b.coords[c][0] + shift, b.coords[c][1]): lab for c, lab in conf.coins}

    return make_instance(
        b.kind,
        moved(instance.start),
        moved(instance.goal),
        adjacency=instance.d,
        goal_placement=instance.goal_placement,
        name=instance.name,
        source=instance.source,
        known_optimal=instance.known_optimal,
        margin=instance.margin,
        metadata=dict(instance.metadata),
    ), shift


def check_file(path: Path, names=None, time_limit: float | None = None, strict=()) -> list[str]:
    """Re-check a saved instance (metadata ``max_moves``); the problems it still has."""
    inst = read_instance(path)
    return check(inst, dict(inst.metadata)["max_moves"], names, time_limit, strict)[1]


# --- one instance in a worker --------------------------------------------------------------


@dataclass(frozen=True)
class Settings:
    names: tuple[str, ...]
    time_limit: float
    strict: tuple[str, ...] = ()
    save: bool = True
    failures: Path = FAILURES


@dataclass(frozen=True)
class Record:
    """What the supervisor keeps of one instance (small and picklable)."""

    seed: int
    category: tuple[str, str, str, str, str]
    horizon: int
    exact: bool  # the window is exact for T
    optimum: int | None = None  # the proven global optimum when <= T (from any engine)
    none_within: bool = False  # some engine proved "no solution with <= T moves"
    unknown: tuple[tuple[str, str], ...] = ()  # (engine, "at limit" | "early")
    seconds: tuple[tuple[str, float], ...] = ()
    problems: tuple[str, ...] = ()
    saved: str | None = None
    stalled: bool = False


def run_case(seed: int, settings: Settings) -> Record:
    case = random_case(seed)
    inst, T = case.instance, case.horizon
    results, problems = check(inst, T, settings.names, settings.time_limit, settings.strict)
    saved = None
    if problems and settings.save:
        saved = str(
            save_failure(
                inst,
                T,
                results,
                problems,
                settings.failures,
                seed=seed,
                goal_source=case.goal_source,
                time_limit=settings.time_limit,
            )
        )
    decisions = {global_decision(r, T) for r in results.values()} - {None}
    optimum = next((dec[1] for dec in decisions if dec != NONE), None)
    unknown = tuple(
        (e, "at limit" if r.seconds >= 0.8 * settings.time_limit else "early")
        for e, r in results.items()
        if r.status is Status.UNKNOWN
    )
    return Record(
        seed,
        case.category,
        T,
        inst.exact_within(T),
        optimum,
        NONE in decisions,
        unknown,
        tuple((e, r.seconds) for e, r in results.items()),
        tuple(problems),
        saved,
    )


def _worker(conn: Connection, settings: Settings) -> None:
    while True:
        seed = conn.recv()
        if seed is None:
            return
        conn.send(run_case(seed, settings))


# --- the supervisor: all cores, a hard limit per instance ---------------------------------


@dataclass
class _Slot:
    proc: mp.Process
    conn: Connection
    seed: int | None = None
    since: float = 0.0


def campaign(seeds: list[int], settings: Settings, workers: int, hard_limit: float) -> Iterator[Record]:
    """Records in completion order.  Each worker process takes one seed at a time; one that
    is still busy ``hard_limit`` seconds later is killed and replaced (the seed: stalled)."""
    ctx = mp.get_context("fork")
    todo = list(reversed(seeds))
    slots: list[_Slot] = []

    def spawn() -> _Slot:
        mine, theirs = ctx.Pipe()
        proc = ctx.Process(target=_worker, args=(theirs, settings), daemon=True)
        proc.start()
        theirs.close()
        return _Slot(proc, mine)

    def feed(slot: _Slot) -> None:
        slot.seed = todo.pop() if todo else None
        slot.since = time.perf_counter()
        if slot.seed is not None:
            slot.conn.send(slot.seed)

    try:
        slots = [spawn() for _ in range(max(1, min(workers, len(seeds))))]
        for s in slots:
            feed(s)
        while any(s.seed is not None for s in slots):
            busy = [s for s in slots if s.seed is not None]
            ready = wait([s.conn for s in busy], timeout=1.0)
            for s in busy:
                if s.conn in ready:
                    try:
                        record = s.conn.recv()
                    except EOFError:  # the worker died (e.g. killed by the OOM killer)
                        record = _stalled(s.seed)
                        s.proc.join()
                        s.conn.close()
                        fresh = spawn()
                        s.proc, s.conn = fresh.proc, fresh.conn
                    yield record
                    feed(s)
                elif time.perf_counter() - s.since > hard_limit:
                    s.proc.kill()  # our own worker, by its process id
                    s.proc.join()
                    s.conn.close()
                    yield _stalled(s.seed)
                    fresh = spawn()
                    s.proc, s.conn = fresh.proc, fresh.conn
                    feed(s)
    finally:
        for s in slots:
            if s.proc.is_alive():
                try:
                    s.conn.send(None)
                except OSError:
                    pass
                s.proc.join(timeout=5)
                if s.proc.is_alive():
                    s.proc.kill()
                    s.proc.join()


def _stalled(seed: int) -> Record:
    case = random_case(seed)
    return Record(seed, case.category, case.horizon, case.instance.exact_within(case.horizon), stalled=True)


# --- the report -----------------------------------------------------------------------------


@dataclass
class Tally:
    records: list[Record] = field(default_factory=list)

    def add(self, r: Record) -> None:
        self.records.append(r)

    @property
    def disagreements(self) -> list[Record]:
        return [r for r in self.records if r.problems]

    def mix(self, i: int) -> Counter:
        return Counter(r.category[i] for r in self.records)

    def lines(
        self, names: tuple[str, ...], time_limit: float, hard_limit: float, workers: int, wall: float, command: str
    ) -> list[str]:
        recs = self.records
        n = len(recs)
        out = [
            f"Command: `{command}`",
            "",
            f"- instances: {n}; workers: {workers}; wall time: {wall:.0f} s ({wall / 60:.1f} min)",
            f"- engines: {', '.join(names)} (+ the unsolvability screens when they answer); "
            f"time limit {time_limit:g} s per engine, hard limit {hard_limit:g} s per instance",
            f"- **disagreements: {len(self.disagreements)}**",
            f"- stalled (killed at the hard limit): {sum(r.stalled for r in recs)}"
            + "".join(f" seed {r.seed}" for r in recs if r.stalled),
            "",
        ]
        out += ["## Instance mix", ""]
        for title, i in (("board", 0), ("coins", 1), ("d", 2), ("goal placement", 3), ("goal source", 4)):
            out.append(f"- {title}: " + ", ".join(f"{k} {v}" for k, v in sorted(self.mix(i).items())))
        exact = sum(r.exact for r in recs)
        out.append(f"- window exact for T: {exact}; window only: {n - exact}")
        out.append(
            "- horizons T: " + ", ".join(f"{k}: {v}" for k, v in sorted(Counter(r.horizon for r in recs).items()))
        )
        opt = Counter(r.optimum for r in recs if r.optimum is not None)
        out.append(
            f"- proven optimum <= T: {sum(opt.values())} instances; lengths "
            + ", ".join(f"{k}: {v}" for k, v in sorted(opt.items()))
        )
        out.append(f"- no solution with <= T moves proven: {sum(r.none_within for r in recs)}")
        out.append(
            f"- neither (every engine unknown or window-only): "
            f"{sum(r.optimum is None and not r.none_within and not r.stalled for r in recs)}"
        )
        cats = Counter(r.category[:4] for r in recs)
        possible = 2 * 2 * 3 * 3 + 2 * 3  # lattices: labels x d x placements; graphs: fixed only
        out.append(f"- categories (board/coins/d/placement): {len(cats)} of {possible} possible")
        out += [
            "",
            "## Answers by engine",
            "",
            "| engine | ran | unknown at the limit | unknown early | seconds (sum) |",
            "|---|---:|---:|---:|---:|",
        ]
        for e in names + ("screen",):
            ran = sum(any(x == e for x, _ in r.seconds) for r in recs)
            unk = Counter(why for r in recs for x, why in r.unknown if x == e)
            secs = sum(s for r in recs for x, s in r.seconds if x == e)
            out.append(f"| {e} | {ran} | {unk['at limit']} | {unk['early']} | {secs:.0f} |")
        out += [
            "",
            '"unknown early": an engine stopped before its time limit without an answer —',
            "spanbfs at its 64-cell window cap, or a state limit.",
            "",
        ]
        if self.disagreements:
            out += ["## Disagreements", ""]
            for r in self.disagreements:
                out.append(
                    f"- seed {r.seed} ({'/'.join(r.category)}, T={r.horizon}): {'; '.join(r.problems)} -> `{r.saved}`"
                )
        return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--n", type=int, default=200, help="number of random instances (default 200)")
    ap.add_argument("--seed", type=int, default=0, help="first seed; instance i uses seed + i")
    ap.add_argument(
        "--workers", type=int, default=os.cpu_count() or 1, help="worker processes (default: os.cpu_count())"
    )
    ap.add_argument("--engines", default=None, help="comma-separated subset of " + ",".join(engines()))
    ap.add_argument(
        "--time-limit",
        type=float,
        default=DEFAULT_TIME_LIMIT,
        help=f"seconds per engine and instance (default {DEFAULT_TIME_LIMIT:g})",
    )
    ap.add_argument(
        "--hard-limit",
        type=float,
        default=None,
        help="seconds after which a worker busy on one instance is killed (default: 4 x engines x time limit)",
    )
    ap.add_argument(
        "--strict", default="", metavar="ENGINES", help="engines whose answers must be global (rule 5), comma-separated"
    )
    ap.add_argument("--progress", type=int, default=500, metavar="K", help="a progress line every K instances")
    ap.add_argument("--no-save", action="store_true", help="do not write failure files")
    ap.add_argument(
        "--failures",
        type=Path,
        default=FAILURES,
        help="folder for the failure files (default tests/data/crosscheck_failures)",
    )
    ap.add_argument("--report", type=Path, default=None, help="write the markdown report here")
    ap.add_argument(
        "--replay",
        type=Path,
        nargs="+",
        default=None,
        metavar="FILE",
        help="re-check saved instance files instead of random ones",
    )
    args = ap.parse_args(argv)
    names = tuple(args.engines.split(",")) if args.engines else engines()
    strict = tuple(e for e in args.strict.split(",") if e)
    missing = [e for e in names + strict if e not in METHODS]
    if missing:
        ap.error(f"not registered: {', '.join(missing)}")
    if args.n < 1 or args.workers < 1 or args.time_limit <= 0:
        ap.error("--n, --workers and --time-limit must be positive")
    if args.replay:
        bad = 0
        for path in args.replay:
            problems = check_file(path, names, args.time_limit, strict)
            bad += bool(problems)
            print(f"{path}: {'; '.join(problems) if problems else 'agree'}")
        return 1 if bad else 0
    hard = args.hard_limit or 4 * len(names) * args.time_limit
    settings = Settings(names, args.time_limit, strict, not args.no_save, args.failures)
    command = "python3 scripts/crosscheck.py " + " ".join(shlex.quote(a) for a in (argv or sys.argv[1:]))
    print(
        f"engines: {', '.join(names)}; seeds {args.seed}..{args.seed + args.n - 1}; "
        f"{args.workers} workers; {args.time_limit:g} s per engine, hard limit {hard:g} s",
        flush=True,
    )
    t0 = time.perf_counter()
    tally = Tally()
    for rec in campaign(list(range(args.seed, args.seed + args.n)), settings, args.workers, hard):
        tally.add(rec)
        if rec.problems:
            print(
                f"DISAGREEMENT seed {rec.seed} T={rec.horizon} {'/'.join(rec.category)}: "
                f"{'; '.join(rec.problems)}" + (f" -> {rec.saved}" if rec.saved else ""),
                flush=True,
            )
        if rec.stalled:
            print(f"stalled: seed {rec.seed} killed after {hard:g} s", flush=True)
        done = len(tally.records)
        if args.progress and done % args.progress == 0:
            print(
                f"  {done}/{args.n} done, {len(tally.disagreements)} disagreements, {time.perf_counter() - t0:.0f} s",
                flush=True,
            )
    wall = time.perf_counter() - t0
    lines = tally.lines(names, args.time_limit, hard, args.workers, wall, command)
    print("\n".join(lines))
    if args.report:
        header = [
            "# Cross-engine agreement on random instances",
            "",
            "Written by `scripts/crosscheck.py` (the rules are in its docstring). "
            f"Run on {time.strftime('%Y-%m-%d')}, {os.cpu_count()} cores shared with other work.",
            "",
        ]
        tmp = args.report.with_suffix(args.report.suffix + ".tmp")
        tmp.write_text("\n".join(header + lines) + "\n")
        tmp.replace(args.report)
    print(f"{len(tally.records)} instances, {len(tally.disagreements)} disagreements")
    return 1 if tally.disagreements else 0


if __name__ == "__main__":
    sys.exit(main())
