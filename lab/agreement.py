"""Do the engines agree?  What an engine's answer claims, and the rules that answers obey.

Why: the engines (``bfs``, ``spanbfs``, ``rankbfs``, ``sat``, ``ilp``, and ``pdr``/``kind`` where ABC
is installed; ``rankbfs-forced`` and ``rankbfs-lmcut``, the ranked search pruned at U = T by a
stronger h) share only rules.py, so
answers that agree on thousands of unrelated instances are evidence for each of
them, and one that disagrees is a bug in at least one.  ``scripts/crosscheck.py``
runs these rules on random instances (``families.random_case``) in parallel;
the tests run a sample and check the rules themselves on made-up answers.

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
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Iterable

from coinsat import METHODS, read_instance, write_instance
from coinsat.board import BoardKind
from coinsat.certificates.prove.screens import screen
from coinsat.instance import Instance, make_instance
from coinsat.limits import Limits
from coinsat.result import Result, Scope, Status
from coinsat.search.heuristics import CHOICES, DEFAULT
from coinsat.search.methods import inapplicable, run
from coinsat.solution import verify

ENGINES = ("bfs", "spanbfs", "rankbfs", "sat", "ilp", "pdr", "kind")
#: the ranked search pruned by a stronger h at U = T (``--max-moves T --heuristic H``): one more
#: voice each, on exact windows (where the bound prunes; a growing window refuses an h), for every
#: h of the registry but the default (coinsat.search.heuristics: a new h is cross-checked here)
VARIANTS = {f"rankbfs-{h}": ("rankbfs", {"heuristic": h}) for h in CHOICES if h != DEFAULT}
FOUND = (Status.OPTIMAL, Status.FEASIBLE)
#: the model checkers (ABC through ``search/pdr.py``): cross-checked where ABC is installed, on
#: windows of at most ``MC_MAX_CELLS`` cells (each run is a process; their circuit is the
#: instance's window as given, so their answers are window answers or bounded ones)
MODEL_CHECKERS = ("pdr", "kind")
MC_MAX_CELLS = 48


def engines() -> tuple[str, ...]:
    """The cross-checked engines this installation has (pdr and kind need ABC)."""
    from coinsat.backends.abc import abc_binary

    abc = abc_binary() is not None
    base = tuple(e for e in ENGINES if e in METHODS and (abc or e not in MODEL_CHECKERS))
    return base + tuple(v for v, (method, _) in VARIANTS.items() if method in base)


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
    found = r.status is Status.OPTIMAL or (r.status is Status.FEASIBLE and r.stats.get("window_optimal"))
    if found and r.length is not None:
        return ("len", r.length) if r.length <= horizon else NONE
    if r.status is Status.UNSOLVABLE and r.certificate is not None and r.certificate.scope is Scope.WINDOW:
        return NONE
    return None


def window_only(r: Result) -> bool:
    """An answer that speaks only for the window."""
    if r.status is Status.UNSOLVABLE:
        return r.certificate is not None and r.certificate.scope is Scope.WINDOW
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
        answered = {e: decide(r, horizon) for e, r in results.items()}
        decided: dict[str, Decision] = {e: dec for e, dec in answered.items() if dec is not None}
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
            n = len(rb.solution)
            if ra.lower_bound is None:
                problems.append(f"{a} says unsolvable (global) but {b} found {n} moves")
            elif ra.lower_bound > n:
                problems.append(f"{a} lower bound {ra.lower_bound} > {b}'s solution of {n}")
            if ra.status is Status.OPTIMAL and ra.length is not None and ra.length > n:
                problems.append(f"{a} optimal {ra.length} but {b} found {n}")
            if wa == NONE and (n <= horizon or window_only(ra) and ra.status is Status.UNSOLVABLE):
                problems.append(f"{a} says no window solution (T={horizon}) but {b} found {n} moves")
            elif wa is not None and wa != NONE and wa[1] > n:
                problems.append(f"{a} says the window's optimum is {wa[1]} but {b} found {n}")
    global_ = {e: global_decision(r, horizon) for e, r in results.items()}
    deciders = sorted(e for e, dec in global_.items() if dec is not None)
    for e in strict:  # rule 5
        mute = results.get(e)
        if mute is None or global_[e] is not None or not deciders:
            continue
        if time_limit is None or mute.seconds < time_limit / 2:
            problems.append(
                f"{e} gave no global answer ({describe(mute)}, {mute.seconds:.2f} s) where "
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
        method, options = VARIANTS.get(e, (e, {}))
        if inapplicable(method, instance) or (e in MODEL_CHECKERS and instance.board.size > MC_MAX_CELLS):
            continue
        if e in VARIANTS and instance.board.is_lattice and not instance.board.exact:
            continue  # the bound prunes on an exact window only
        try:
            results[e] = run(method, instance, limits=Limits(time_limit), max_moves=horizon, **options)
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


def save_failure(instance: Instance, horizon: int, results: dict[str, Result], problems, folder: Path, **extra) -> Path:
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
    if b.kind is not BoardKind.TRIANGULAR:
        return instance, 0
    xy = b.lattice_coords
    shift = max(0, -min(xy[c][0] for conf in (instance.start, instance.goal) for c in conf.cells))
    if not shift:
        return instance, 0

    def moved(conf):
        return {(xy[c][0] + shift, xy[c][1]): lab for c, lab in conf.coins}

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
