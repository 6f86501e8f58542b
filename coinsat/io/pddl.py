"""The puzzle as a PDDL planning task (domain + problem), and plans read back.

Contract: :func:`pddl_task` turns an :class:`~coinsat.instance.Instance` into a
:class:`PddlTask` (two texts: domain and problem) whose optimal plans are exactly
the shortest solutions of the puzzle inside the instance's window; :func:`read_plan`
turns a plan written by a planner (Fast Downward's ``sas_plan`` format: one
``(action arg ...)`` per line, ``;`` comments) back into a :class:`Solution`.
Nothing here decides legality: a plan read back is only a *claim*, to be replayed
by :func:`coinsat.solution.verify` (rules.py) before it is believed.

The formulation (typed STRIPS with ``:equality``):

* objects: one ``cell`` per cell of the board's window (lattices: ``x{X}y{Y}``
  with ``m`` for a minus sign, e.g. ``xm1y2``; graph boards: ``c{i}``, the
  cell index); on labeled instances one ``label`` per colour class (``k{i}``,
  the i-th label in sorted order — PDDL names are case-insensitive, so the
  picture characters themselves cannot be used);
* static facts: ``(adj a b)`` for every ordered pair of neighbours, and
  ``(before a b)`` for cells a < b (index order) that share a neighbour — it
  lets a move name its ``d`` supporting neighbours once, as an increasing
  tuple, instead of in all d! orders;
* fluents: ``(occupied c)`` and its complement ``(empty c)`` (plain STRIPS has
  no negative preconditions), plus ``(holds c k)`` on labeled instances;
* ``move ?s ?p ?n1 .. ?nd [?k]``: precondition ``(occupied ?s) (empty ?p)``,
  each ``?ni`` occupied, adjacent to ``?p`` and different from ``?s``, and
  ``(before ?ni ?n(i+1))`` — so the ``?ni`` are d distinct occupied neighbours
  of ``?p`` other than the moved coin, which is rules.py's condition 3 (for d = 2
  this enumerates the neighbour pairs of the destination as action parameters);
  ``?s != ?p`` follows from occupied/empty.  Effect: ``?s`` becomes empty, ``?p``
  occupied (and the label ``?k`` travels with the coin).
* goal: with a single goal placement (``goal_placement = "fixed"``, or a
  translate/congruent goal with one placement in the window) the conjunction of
  ``(occupied c)`` (``(holds c k)`` when labeled) over the goal's cells — start
  and goal have the same coins, so this pins the whole configuration.  With
  several placements the domain gets the cells as ``:constants`` and one
  zero-cost action ``reach-goal-i`` per placement that adds ``(solved)``; moves
  cost 1 (``:action-costs``), so the plan *cost* is still the number of moves.

The domain depends on d, on labeled-ness and (for several goal placements) on the
board; it is therefore written per instance, not shared between instances.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Hashable, cast

from ..errors import InstanceError, UsageError
from ..geometry import Coord
from ..instance import Instance
from ..rules import Move
from ..solution import Solution

DOMAIN_FILE = "domain.pddl"
PROBLEM_FILE = "problem.pddl"


@dataclass(frozen=True)
class PddlTask:
    domain: str
    problem: str

    def parts(self) -> tuple[tuple[str, str], ...]:
        """(role, text) pairs, domain first (the export command's multi-file contract)."""
        return (("domain", self.domain), ("problem", self.problem))


def cell_name(coord: Hashable, index: int, lattice: bool) -> str:
    """The PDDL object name of a cell (module docstring)."""
    if lattice:
        x, y = cast("Coord", coord)  # lattice cells are (x, y) pairs
        return f"x{x}y{y}".replace("-", "m")
    return f"c{index}"


def cell_names(instance: Instance) -> tuple[str, ...]:
    """The PDDL object name of each cell of the instance's board, by cell index."""
    b = instance.board
    return tuple(cell_name(c, i, b.is_lattice) for i, c in enumerate(b.coords))


def _labeled(instance: Instance) -> bool:
    return len(instance.labels) > 1 or instance.start.is_labeled


def _domain_name(instance: Instance) -> str:
    return (
        f"coinsat-{_slug(instance.name)}"
        if len(instance.goal_configurations) > 1
        else (f"coinsat-d{instance.d}" + ("-labeled" if _labeled(instance) else ""))
    )


def _slug(name: str) -> str:
    s = re.sub(r"[^A-Za-z0-9_-]+", "-", name).strip("-").lower()
    return s if s and s[0].isalpha() else f"p-{s}"


def _header(instance: Instance, role: str) -> list[str]:
    from .._version import __version__

    lines = [f"; coinsat {__version__}: {role} of the coin-moving puzzle '{instance.name}'"]
    if instance.source:
        lines.append(f"; source: {instance.source}")
    lines.append(
        f"; board: {instance.board.kind}, window {instance.board.window}, "
        f"{instance.board.size} cells; {instance.n_coins} coins; adjacency d = {instance.d}; "
        f"goal placement {instance.goal_placement} ({len(instance.goal_configurations)} in the window)"
    )
    lines.append("; optimal plan cost = minimum number of moves inside the window")
    return lines


def pddl_domain(instance: Instance) -> str:
    """The domain text (module docstring)."""
    d, labeled = instance.d, _labeled(instance)
    goals = instance.goal_configurations
    multi = len(goals) > 1
    reqs = ":strips :typing :equality" + (" :action-costs" if multi else "")
    out = _header(instance, "domain")
    out += [
        f"(define (domain {_domain_name(instance)})",
        f"  (:requirements {reqs})",
        "  (:types cell" + (" label" if labeled else "") + ")",
    ]
    if multi:
        names = cell_names(instance)
        out.append(
            "  (:constants "
            + " ".join(names)
            + " - cell"
            + (" " + " ".join(_label_names(instance)) + " - label" if labeled else "")
            + ")"
        )
    preds = ["(occupied ?c - cell)", "(empty ?c - cell)", "(adj ?a ?b - cell)", "(before ?a ?b - cell)"]
    if labeled:
        preds.append("(holds ?c - cell ?k - label)")
    if multi:
        preds.append("(solved)")
    out.append("  (:predicates " + " ".join(preds) + ")")
    if multi:
        out.append("  (:functions (total-cost) - number)")
    nbrs = [f"?n{i}" for i in range(1, d + 1)]
    params = "?s ?p - cell" + (" " + " ".join(nbrs) + " - cell" if nbrs else "") + (" ?k - label" if labeled else "")
    pre = ["(occupied ?s)", "(empty ?p)"] + (["(holds ?s ?k)"] if labeled else [])
    for n in nbrs:
        pre += [f"(adj {n} ?p)", f"(occupied {n})", f"(not (= {n} ?s))"]
    pre += [f"(before {a} {b})" for a, b in zip(nbrs, nbrs[1:])]
    eff = ["(not (occupied ?s))", "(empty ?s)", "(occupied ?p)", "(not (empty ?p))"]
    if labeled:
        eff += ["(not (holds ?s ?k))", "(holds ?p ?k)"]
    if multi:
        eff.append("(increase (total-cost) 1)")
    out += [
        "  (:action move",
        f"    :parameters ({params})",
        "    :precondition (and " + " ".join(pre) + ")",
        "    :effect (and " + " ".join(eff) + "))",
    ]
    if multi:
        for i, g in enumerate(goals):
            out += [
                f"  (:action reach-goal-{i}",
                "    :parameters ()",
                "    :precondition (and " + " ".join(_goal_atoms(instance, g)) + ")",
                "    :effect (and (solved)))",
            ]
    out.append(")")
    return "\n".join(out) + "\n"


def _label_names(instance: Instance) -> list[str]:
    return [f"k{i}" for i in range(len(instance.labels))]


def _goal_atoms(instance: Instance, config) -> list[str]:
    names = cell_names(instance)
    if _labeled(instance):
        kname = dict(zip(instance.labels, _label_names(instance)))
        return [f"(holds {names[c]} {kname[lab]})" for c, lab in config.coins]
    return [f"(occupied {names[c]})" for c in config.cells]


def pddl_problem(instance: Instance) -> str:
    """The problem text (module docstring)."""
    b = instance.board
    names = cell_names(instance)
    labeled = _labeled(instance)
    goals = instance.goal_configurations
    multi = len(goals) > 1
    out = _header(instance, "problem")
    if labeled:
        out.append(
            "; labels: " + ", ".join(f"{k} = {lab!r}" for k, lab in zip(_label_names(instance), instance.labels))
        )
    if not b.is_lattice:
        out.append("; cells: " + ", ".join(f"{n} = {c!r}" for n, c in zip(names, b.coords)))
    out += [f"(define (problem {_slug(instance.name)})", f"  (:domain {_domain_name(instance)})"]
    if not multi:  # with several placements the cells are the domain's constants
        objs = "  (:objects " + " ".join(names) + " - cell"
        if labeled:
            objs += " " + " ".join(_label_names(instance)) + " - label"
        out.append(objs + ")")
    init: list[str] = []
    occupied = instance.start.cell_set
    for c in range(b.size):
        init.append(f"({'occupied' if c in occupied else 'empty'} {names[c]})")
    if labeled:
        kname = dict(zip(instance.labels, _label_names(instance)))
        init += [f"(holds {names[c]} {kname[lab]})" for c, lab in instance.start.coins]
    for c in range(b.size):
        init += [f"(adj {names[c]} {names[n]})" for n in b.neighbours[c]]
    before = sorted({(a, n) for c in range(b.size) for a in b.neighbours[c] for n in b.neighbours[c] if a < n})
    init += [f"(before {names[a]} {names[n]})" for a, n in before]
    if multi:
        init.append("(= (total-cost) 0)")
    out.append("  (:init")
    out += [f"    {atom}" for atom in init]
    out.append("  )")
    goal = ["(solved)"] if multi else _goal_atoms(instance, goals[0])
    out.append("  (:goal (and " + " ".join(goal) + "))")
    if multi:
        out.append("  (:metric minimize (total-cost))")
    out.append(")")
    return "\n".join(out) + "\n"


def pddl_task(instance: Instance, horizon: int | None = None, **options) -> PddlTask:
    """Domain and problem of ``instance``.  PDDL has no horizon: ``horizon`` must be None."""
    if horizon is not None:
        raise UsageError(
            "PDDL has no horizon (optimal planners minimise the number of moves): omit --horizon for --format pddl"
        )
    if options:
        raise UsageError(f"unknown PDDL options: {', '.join(sorted(options))}")
    return PddlTask(pddl_domain(instance), pddl_problem(instance))


def fast_downward_driver() -> str | None:
    """Path of Fast Downward's driver script ``fast-downward.py`` shipped by the optional
    ``up-fast-downward`` package, or None when it is not installed (found without importing it)."""
    import importlib.util
    from pathlib import Path

    spec = importlib.util.find_spec("up_fast_downward")
    for where in (spec.submodule_search_locations or []) if spec else []:
        driver = Path(where) / "downward" / "fast-downward.py"
        if driver.is_file():
            return str(driver)
    return None


_ACTION = re.compile(r"^\s*\(([^()]*)\)\s*$")
#: the first line :func:`_header` writes: the role (domain or problem) and the puzzle's name
_TASK = re.compile(r"\A; coinsat \S+: (problem|domain) of the coin-moving puzzle '(.*)'\r?$", re.M)


def is_task(text: str) -> bool:
    """Whether ``text`` begins as a domain or problem file :func:`pddl_task` wrote."""
    return _TASK.match(text) is not None


def check_task(instance: Instance, text: str, path: str) -> None:
    """Refuse (InstanceError naming ``path``) a domain or problem file written for another puzzle
    or another window: its puzzle's name and its ``; board:`` line (kind, window, cells, coins, d,
    goal placements) must be those :func:`pddl_task` writes for ``instance``, so that a plan's
    cell names mean the same cells."""
    m = _TASK.match(text)
    if m is None:
        raise InstanceError("not a PDDL domain or problem coinsat export wrote (no '; coinsat' first line)", path, 1)
    if m.group(2) != instance.name:
        raise InstanceError(f"the task is of {m.group(2)!r}, not of {instance.name!r}", path, 1)
    board = next(line for line in _header(instance, m.group(1)) if line.startswith("; board:"))
    written = next((line.rstrip("\r") for line in text.splitlines()[:4] if line.startswith("; board:")), None)
    if written != board:
        raise InstanceError(f"the task was written for another board: {written!r}, not {board!r}", path)


def read_plan(instance: Instance, text: str) -> Solution:
    """The moves of a plan (``(move s p ...)`` lines; other actions and ``;`` lines skipped).

    Raises InstanceError if a line is not an action or names an unknown cell.
    The result is NOT verified here: pass it to :func:`coinsat.solution.verify`.
    """
    index = {n.lower(): i for i, n in enumerate(cell_names(instance))}
    moves: list[Move] = []
    for lineno, line in enumerate(text.splitlines(), start=1):
        line = line.split(";", 1)[0].strip()
        if not line:
            continue
        m = _ACTION.match(line)
        if not m:
            raise InstanceError(f"not a plan step: {line!r}", line=lineno)
        words = m.group(1).lower().split()
        if not words or words[0] != "move":
            continue
        if len(words) < 3 or words[1] not in index or words[2] not in index:
            raise InstanceError(f"move with unknown cells: {line!r}", line=lineno)
        moves.append(Move(index[words[1]], index[words[2]]))
    return Solution(tuple(moves))
