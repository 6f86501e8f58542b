"""Cross-engine agreement at scale: random instances, every engine, answers compared.

The harness of ``scripts/crosscheck.py`` (its docstring says how to run it and what the
report holds): :func:`run_case` checks one ``families.random_case(seed)`` with
``lab.agreement``'s rules, :func:`campaign` runs seeds on worker processes with a
hard limit per instance (a worker past it is killed and the instance counted as
stalled), and :class:`Tally` sums the records into the report's lines.
"""

from __future__ import annotations

import multiprocessing as mp
import os
import time
from collections import Counter
from dataclasses import dataclass, field
from multiprocessing.connection import Connection, wait
from pathlib import Path
from typing import Any, Iterator

from coinsat.families import random_case
from coinsat.result import Status
from lab.agreement import NONE, check, global_decision, save_failure

DEFAULT_TIME_LIMIT = 1.5  # seconds per engine and instance


# --- one instance in a worker --------------------------------------------------------------


@dataclass(frozen=True)
class Settings:
    names: tuple[str, ...]
    time_limit: float
    strict: tuple[str, ...] = ()
    save: bool = True
    failures: Path | None = None  # where a disagreement is saved (None: nowhere)


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
    if problems and settings.save and settings.failures is not None:
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
    optimum = next((dec[1] for dec in decisions if dec is not None and dec != NONE), None)
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
    proc: Any  # a process of the fork context
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
                seed = s.seed
                if seed is None:
                    continue
                if s.conn in ready:
                    try:
                        record = s.conn.recv()
                    except EOFError:  # the worker died (e.g. killed by the OOM killer)
                        record = _stalled(seed)
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
                    yield _stalled(seed)
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


def write_report(path: Path, lines: list[str]) -> None:
    """The markdown report (atomically): a header, then ``Tally.lines``."""
    header = [
        "# Cross-engine agreement on random instances",
        "",
        "Written by `scripts/crosscheck.py` (the rules are in its docstring). "
        f"Run on {time.strftime('%Y-%m-%d')}, {os.cpu_count()} cores shared with other work.",
        "",
    ]
    tmp = path.with_suffix(path.suffix + ".tmp")
    tmp.write_text("\n".join(header + lines) + "\n")
    tmp.replace(path)
