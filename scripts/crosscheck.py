#!/usr/bin/env python3
"""Cross-engine agreement: random instances solved by every engine, answers compared.

    python3 scripts/crosscheck.py --n 1000 --seed 0

Engines are the registered methods among ``bfs``, ``spanbfs``, ``sat``, ``ilp``
(``coinsat.search.methods.METHODS``; one not registered is skipped, and one that
cannot take an instance — ``spanbfs`` on labeled coins — sits that instance out).  Each
instance comes with a horizon T and every engine is run with ``max_moves=T``
and no time limit.  Instances: square, triangular and graph boards; labeled
and not; d = 2 and d = 3; fixed, translate and congruent goals; goals that are
a random walk of legal moves away from the start (solvable) or random cells
(often unsolvable).  Triangular instances mostly get a margin >= T, which makes
the window exact for the horizon, so that all engines must agree exactly there
too; the rest keep a small margin to exercise the window-only answers.

The engines are called directly, not through ``methods.solve`` (which answers
screened instances without running any engine); the cheap unsolvability
screens (``certificates/screens.py``) join as one more voice when they answer.

Rules (``compare``), with L an engine's solution length:

* no engine answers ``unknown`` (except a window engine on a window that is not exact for T, where "none within T" cannot be proven);
* window exact within T (``Instance.exact_within(T)``): every engine agrees on
  whether a solution with <= T moves exists, on its optimal length, and on the
  status (``bounded`` and ``unsolvable`` count as the same answer here: a run
  that exhausts the window before T may say the stronger one);
* otherwise the engines that answer for the window (bfs, ilp) agree as above;
  every engine, window-bound or not, stays consistent: no lower bound above a
  solution another engine found, no ``optimal`` longer than another's
  solution, no global ``unsolvable`` next to a solution.

A disagreement writes the instance (with T and the answers in its metadata) to
``tests/data/regressions/`` for ``tests/test_crosscheck.py`` to replay.  The
last line is "N instances, K disagreements".
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections import Counter
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from coinsat import geometry  # noqa: E402
from coinsat.instance import Instance, make_instance  # noqa: E402
from coinsat.io.instance_format import write_instance  # noqa: E402
from coinsat.result import Result, Status  # noqa: E402
from coinsat.rules import apply_move, legal_moves  # noqa: E402
from coinsat.certificates.screens import screen  # noqa: E402
from coinsat.search.methods import METHODS, get_method, inapplicable  # noqa: E402

ENGINES = ("bfs", "spanbfs", "sat", "ilp")
WINDOW_ENGINES = ("bfs", "spanbfs", "ilp")  # answer for the instance's window, exactly as given
REGRESSIONS = ROOT / "tests" / "data" / "regressions"
FOUND = (Status.OPTIMAL, Status.FEASIBLE)


def engines() -> tuple[str, ...]:
    return tuple(e for e in ENGINES if e in METHODS)


# --- random instances -------------------------------------------------------------------

def random_instance(rng: random.Random, name: str = "random") -> tuple[Instance, int]:
    """A random instance and the horizon to solve it with."""
    kind = rng.choice(("square", "square", "triangular", "triangular", "graph"))
    d = rng.choice((2, 2, 2, 3))
    labeled = rng.random() < 0.4
    placement = "fixed" if kind == "graph" else rng.choice(("fixed", "fixed", "translate", "congruent"))
    horizon = rng.randint(2, 7)
    if kind == "graph":
        cells, edges = _random_graph(rng)
    else:
        w, h = (rng.randint(3, 5), rng.randint(2, 4)) if kind == "square" else (rng.randint(3, 4), 2)
        cells, edges = [(x, y) for x in range(w) for y in range(h)], None
    n = rng.randint(d + 1, min(6, len(cells) - 1))  # fewer than d + 1 coins never move
    start_cells = _cluster(rng, kind, cells, edges, n) if rng.random() < 0.8 else rng.sample(cells, n)
    labels = [rng.choice("AB") if labeled else "o" for _ in range(n)]
    start = dict(zip(start_cells, labels))
    margin = horizon if kind == "triangular" and rng.random() < 0.7 else 1
    goal = _walk(rng, kind, start, d, edges, cells, margin, rng.randint(2, horizon + 2)) \
        if rng.random() < 0.6 else start
    if goal == start:  # a random goal (or the walk found no move)
        goal_cells = rng.sample(cells, n)
        goal = dict(zip(goal_cells, rng.sample(labels, n)))
    inst = make_instance(kind, start, goal, adjacency=d, goal_placement=placement, edges=edges,
                         cells=cells if kind == "graph" else None, margin=margin, name=name)
    return inst, horizon


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
        adj = {c: set() for c in cells}
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


def _walk(rng, kind, start, d, edges, cells, margin, steps):
    """The coordinates after ``steps`` random legal moves from ``start`` (fewer if stuck)."""
    inst = make_instance(kind, start, start, adjacency=d, edges=edges,
                         cells=cells if kind == "graph" else None, margin=margin)
    config, seen, last = inst.start, {inst.start}, None
    for _ in range(steps):  # never back to a visited configuration, never the same coin twice in a row
        nexts = [(m.dst, apply_move(inst.board, config, m, d))
                 for m in legal_moves(inst.board, config, d) if m.src != last]
        nexts = [(p, c) for p, c in nexts if c not in seen]
        if not nexts:
            break
        last, config = rng.choice(nexts)
        seen.add(config)
    return {inst.board.coords[c]: lab for c, lab in config.coins}


# --- comparing answers ----------------------------------------------------------------

def answer_class(r: Result) -> str:
    if r.status in FOUND:
        return f"{r.status.value} {r.length}"
    if r.status in (Status.BOUNDED, Status.UNSOLVABLE):
        return "none"
    return r.status.value


def compare(instance: Instance, horizon: int, results: dict[str, Result]) -> list[str]:
    """Every way the results disagree (empty: they agree); rules in the module docstring."""
    problems = []
    exact = instance.exact_within(horizon)
    for e, r in results.items():
        # A window engine cannot prove "none within T" on a window that is not exact for T:
        # it honestly answers unknown there.  Anywhere else unknown is a failure.
        if r.status is Status.UNKNOWN and (exact or e not in WINDOW_ENGINES or r.solution):
            problems.append(f"{e} answered unknown")
    # On a window not exact for T a window engine's "unknown" (allowed above) is no answer to compare.
    strict = [e for e in results if exact or (e in WINDOW_ENGINES and results[e].status is not Status.UNKNOWN)]
    classes = {e: answer_class(results[e]) for e in strict}
    if len(set(classes.values())) > 1:
        problems.append("answers differ: " + ", ".join(f"{e}={c}" for e, c in classes.items()))
    for a, ra in results.items():
        for b, rb in results.items():
            if a == b or rb.status not in FOUND:
                continue
            if ra.lower_bound is None:
                problems.append(f"{a} says unsolvable (global) but {b} found {rb.length} moves")
            elif ra.lower_bound > rb.length:
                problems.append(f"{a} lower bound {ra.lower_bound} > {b}'s solution of {rb.length}")
            if ra.status is Status.OPTIMAL and ra.length > rb.length:
                problems.append(f"{a} optimal {ra.length} but {b} found {rb.length}")
    return problems


def check(instance: Instance, horizon: int, names=None) -> tuple[dict[str, Result], list[str]]:
    """Run the engines with ``max_moves=horizon``, each called directly (``methods.solve``
    would answer screened instances without running any engine), plus the cheap
    unsolvability screens as one more voice when they answer.  An engine that raises
    (e.g. a solution that fails verification) is a disagreement too."""
    results, errors = {}, []
    for e in names or engines():
        if inapplicable(e, instance):
            continue
        try:
            results[e] = get_method(e)(instance, max_moves=horizon)
        except Exception as exc:  # noqa: BLE001 - any crash is a finding, reported and saved
            errors.append(f"{e} raised {type(exc).__name__}: {exc}")
    try:
        screened = screen(instance)
    except Exception as exc:  # noqa: BLE001
        errors.append(f"screen raised {type(exc).__name__}: {exc}")
    else:
        if screened is not None:
            results["screen"] = screened
    return results, errors + compare(instance, horizon, results)


def save_regression(instance: Instance, horizon: int, results: dict[str, Result], problems) -> Path:
    meta = dict(instance.metadata)
    meta.update(max_moves=horizon, problems=list(problems),
                answers={e: answer_class(r) for e, r in results.items()})
    path = REGRESSIONS / f"{instance.name}.toml"
    write_instance(replace(instance, metadata=tuple(sorted(meta.items()))), path)
    return path


def category(instance: Instance) -> str:
    lab = "labeled" if instance.start.is_labeled else "unlabeled"
    return f"{instance.board.kind}/{lab}/d={instance.d}/{instance.goal_placement}"


# --- main ---------------------------------------------------------------------------------

def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--n", type=int, default=200, help="number of random instances (default 200)")
    ap.add_argument("--seed", type=int, default=0, help="first seed; instance i uses seed + i")
    ap.add_argument("--engines", default=None, help="comma-separated subset of " + ",".join(engines()))
    ap.add_argument("--progress", type=int, default=50, metavar="K", help="a progress line every K instances")
    ap.add_argument("--no-save", action="store_true", help="do not write regression files")
    args = ap.parse_args(argv)
    names = tuple(args.engines.split(",")) if args.engines else engines()
    missing = [e for e in names if e not in METHODS]
    if missing:
        ap.error(f"not registered: {', '.join(missing)}")
    print(f"engines: {', '.join(names)}; seeds {args.seed}..{args.seed + args.n - 1}", flush=True)
    t0 = time.perf_counter()
    seconds: Counter = Counter()
    outcomes: Counter = Counter()
    windows: Counter = Counter()
    cats: Counter = Counter()
    bad = 0
    for i in range(args.n):
        seed = args.seed + i
        inst, horizon = random_instance(random.Random(seed), name=f"crosscheck-{seed}")
        results, problems = check(inst, horizon, names)
        for e, r in results.items():
            seconds[e] += r.seconds
        first = results.get(names[0])
        outcomes[answer_class(first) if first and first.status in FOUND else "no solution <= T"] += 1
        windows["exact within T" if inst.exact_within(horizon) else "window only"] += 1
        cats[category(inst)] += 1
        if problems:
            bad += 1
            where = "" if args.no_save else f" -> {save_regression(inst, horizon, results, problems)}"
            print(f"DISAGREEMENT seed {seed} T={horizon} {category(inst)}: {'; '.join(problems)}{where}",
                  flush=True)
        if "screen" in results:
            outcomes["(screened unsolvable)"] += 1
        if args.progress and (i + 1) % args.progress == 0:
            print(f"  {i + 1}/{args.n} done, {bad} disagreements, {time.perf_counter() - t0:.0f} s", flush=True)
    print(f"answers ({names[0]}): " + ", ".join(f"{k} {v}" for k, v in sorted(outcomes.items())))
    print("windows: " + ", ".join(f"{k} {v}" for k, v in sorted(windows.items())))
    print("engine seconds (sum): " + ", ".join(f"{e} {seconds[e]:.1f}" for e in names))
    print(f"categories: {len(cats)} ({', '.join(f'{k} {v}' for k, v in sorted(cats.items()))})")
    print(f"{args.n} instances, {bad} disagreements")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
