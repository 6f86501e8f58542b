"""The independent checker of certificate files.

Trust base: rules.py (the one move validator), board.py / geometry.py (the
lattices and their induced subgraphs), and, for bounded certificates, the
SAT encoding and the DRAT checker (see bounded.py); for layers certificates,
the span lemma and the checker's own vector kernel (see layers.py).  Nothing here calls the
code that *finds* certificates (coinsat.theory, coinsat.search, the
builders in this package): every claim is re-derived from the witness.

Lattice semantics.  Claims of scope ``global`` on a lattice are checked on
the infinite lattice, not on the instance's window: a legal move lands next
to coins, so the induced subgraph on the cells within distance 1 of a
configuration's coins holds every legal move of that configuration with the
right neighbour counts.  The checker builds such boards itself.
"""

from __future__ import annotations

import time
import zipfile
from pathlib import Path
from typing import Any, Hashable

from .. import geometry
from ..board import Board, graph_board, lattice_board
from ..configuration import Configuration
from ..errors import LimitReached
from ..instance import Instance
from ..rules import Move, check_move, legal_moves, successors
from .claims import Claim, judge
from .common import FORMAT_VERSION, KINDS, Check, cell_key, instance_digest


#: what a malformed certificate can make the kind checkers raise; each means "rejected"
_MALFORMED = (KeyError, TypeError, ValueError, IndexError, AttributeError, OverflowError, RecursionError,
              OSError, EOFError, zipfile.BadZipFile, MemoryError)


def check_certificate(instance: Instance, cert: Any, base_dir: str | Path | None = None,
                      deadline: float | None = None) -> Check:
    """Accept or reject ``cert`` (a parsed JSON object) for ``instance``.

    A check that cannot finish by ``deadline`` (a ``time.perf_counter()`` value) raises
    :class:`~coinsat.errors.LimitReached`: neither accepted nor rejected.

    The kind checker derives what the evidence proves (a :class:`~.claims.Claim`) from
    the instance and the evidence alone; the file is accepted only when that implies the
    file's own claim (:func:`~.claims.judge`).  The verdict reports the derived claim.
    """
    t0 = time.perf_counter()
    claimed = cert.get("claim", "") if isinstance(cert, dict) else ""
    try:
        ok, reason, proven = _check(instance, cert, Path(base_dir or "."), deadline)
        if ok:
            ok, why = judge(proven, cert)
            reason = reason if ok else why
    except _MALFORMED as e:
        ok, reason, proven = False, f"malformed certificate: {type(e).__name__}: {e}", None
    if not ok:
        return Check(False, reason, "", "", time.perf_counter() - t0, claimed if isinstance(claimed, str) else "")
    return Check(True, reason, proven.text(), proven.scope, time.perf_counter() - t0, claimed)


def _check(instance: Instance, cert: dict, base_dir: Path, deadline: float | None) -> tuple[bool, str, Claim | None]:
    if not isinstance(cert, dict) or cert.get("coinsat_certificate") != FORMAT_VERSION:
        return False, "not a coinsat certificate (version 1)", None
    if cert.get("kind") not in KINDS:
        return False, f"unknown certificate kind {cert.get('kind')!r}", None
    if cert["instance"]["digest"] != instance_digest(instance):
        return False, "the certificate is for another instance (digest mismatch)", None
    kind = cert["kind"]
    if kind == "invariant":
        ok, why = _invariant(instance, cert)
        return ok, why, Claim(unsolvable=True)
    if kind == "closed-set":
        ok, why = _closed_set(instance, cert, deadline)
        return ok, why, Claim(unsolvable=True, window=cert["space"] == "window")
    if kind == "layers":
        from .layers import check_layers

        return check_layers(instance, cert, base_dir, deadline)
    from .bounded import check_bounded

    return check_bounded(instance, cert, base_dir, deadline)


# --- placements and boards ---------------------------------------------------------------


def _coins(instance: Instance, config: Configuration) -> dict[Hashable, str]:
    return {instance.board.coords[c]: lab for c, lab in config.coins}


def _syms(instance: Instance):
    if instance.goal_placement == "fixed":
        return None
    g = geometry.symmetries(instance.board.kind)
    return g if instance.goal_placement == "congruent" else g[:1]


def _fits(instance: Instance, part: dict, whole: dict) -> bool:
    """Does some placement of the labeled cells ``part`` (per goal_placement) lie inside ``whole``?"""
    syms = _syms(instance)
    if syms is None or not part:
        return all(whole.get(c) == lab for c, lab in part.items())
    for m in syms:
        moved = {geometry.apply(m, c): lab for c, lab in part.items()}
        pivot = min(moved)
        for anchor in whole:
            sx, sy = anchor[0] - pivot[0], anchor[1] - pivot[1]
            if all(whole.get((x + sx, y + sy)) == lab for (x, y), lab in moved.items()):
                return True
    return False


def _is_goal(instance: Instance, coins: dict) -> bool:
    goal = _coins(instance, instance.goal)
    return len(coins) == len(goal) and _fits(instance, goal, coins)


def _ball_board(kind: str, coords, radius: int, extra=()) -> Board:
    cells = set(geometry.ball(kind, coords, radius)) | set(extra)
    return lattice_board(kind, cells, exact=False, window=f"check-ball+{radius}")


def _degree(instance: Instance, cell, cells) -> int:
    b = instance.board
    if b.is_lattice:
        return sum(n in cells for n in geometry.neighbours(b.kind, cell))
    return sum(b.coords[n] in cells for n in b.neighbours[b.cell(cell)])


# --- invariant -----------------------------------------------------------------------------


def _invariant(instance: Instance, cert: dict) -> tuple[bool, str]:
    reason = cert.get("reason")
    start, goal = _coins(instance, instance.start), _coins(instance, instance.goal)
    if reason == "coin-counts":
        if instance.start.label_counts == instance.goal.label_counts:
            return False, "start and goal have the same coins"
        return True, "start and goal differ in coins"
    if _is_goal(instance, start):
        return False, "the start is a goal placement (0 moves)"
    if reason == "no-move":
        b = instance.board
        if b.is_lattice:
            board = _ball_board(b.kind, start, 1)
            config = Configuration(tuple((board.cell(c), lab) for c, lab in start.items()))
        else:
            board, config = b, instance.start
        moves = legal_moves(board, config, instance.d)
        if moves:
            s, p = moves[0]
            return False, f"the start has a legal move {board.coords[s]} -> {board.coords[p]}"
        return True, "the start has no legal move"
    if reason == "span":
        return _span(instance, cert, start, goal)
    if reason == "frozen-goal":
        return _frozen(instance, cert, start, goal)
    return False, f"unknown invariant reason {reason!r}"


_AUX = ("coinsat-auxiliary-cell",)


def _span(instance: Instance, cert: dict, start: dict, goal: dict) -> tuple[bool, str]:
    cells = {cell_key(c) for c in cert["cells"]}
    if not set(start) <= cells:
        return False, "the cell set does not contain the start"
    b, d = instance.board, instance.d
    # Closed: no cell outside S is a valid destination while every cell of S holds a coin.
    # Asked of rules.py with one auxiliary coin, far from everything, as the mover.
    if b.is_lattice:
        far = (max(x for x, _ in cells) + 10, max(y for _, y in cells) + 10)
        board = _ball_board(b.kind, cells, 1, extra=[far])
        aux = board.cell(far)
        outside = [board.cell(c) for c in geometry.ball(b.kind, cells, 1) if c not in cells]
    else:
        if any(not b.has(c) for c in cells):
            return False, "the cell set names a cell that is not on the board"
        edges = [(b.coords[u], b.coords[v]) for u in range(b.size) for v in b.neighbours[u] if u < v]
        board = graph_board(list(b.coords) + [_AUX], edges)
        aux = board.cell(_AUX)
        outside = [board.cell(c) for c in b.coords if c not in cells]
    config = Configuration(tuple((board.cell(c), "o") for c in cells) + ((aux, "o"),))
    for p in outside:
        if check_move(board, config, Move(aux, p), d) is None:
            return False, f"the cell set is not closed: {board.coords[p]} has >= {d} neighbours in it"
    if _fits(instance, {c: "o" for c in goal}, {c: "o" for c in cells}):
        return False, "a goal placement lies inside the closed cell set"
    return True, "the goal does not fit in a closed cell set containing the start (span monotone)"


def _frozen(instance: Instance, cert: dict, start: dict, goal: dict) -> tuple[bool, str]:
    d = instance.d
    if d < 2:
        return False, "frozen-goal needs d >= 2"
    free = cert.get("free_coin")
    if free is None:
        cells = set(goal)
        busy = [c for c in cells if _degree(instance, c, cells) >= d]
        if busy:
            return False, f"goal coin {busy[0]} has >= {d} coin neighbours: the goal has predecessors"
        return True, "no legal move ends in the goal, and the start is not the goal"
    c = cell_key(free)
    if c not in goal:
        return False, f"free coin {c} is not a goal coin"
    rest = {x: lab for x, lab in goal.items() if x != c}
    crowded = [x for x in rest if _degree(instance, x, rest) > d - 2]
    if crowded:
        return False, f"goal coin {crowded[0]} has > {d - 2} neighbours among the other frozen coins"
    if _fits(instance, rest, start):
        return False, "the start contains the frozen part of a goal placement"
    return True, "every predecessor chain of the goal keeps its frozen part, which the start lacks"


# --- closed set ----------------------------------------------------------------------------


def _closed_set(instance: Instance, cert: dict, deadline: float | None = None) -> tuple[bool, str]:
    b, d = instance.board, instance.d
    space = cert["space"]  # what it proves: unsolvable, inside the window for space "window"
    if space not in ("lattice", "board", "window"):
        return False, f"unknown space {space!r}"
    if (space == "lattice") != b.is_lattice and space != "window":
        return False, f"space {space!r} does not match a {b.kind} board"
    if space == "window" and not b.is_lattice:
        return False, "window space is for lattice instances"
    labels = tuple(cert["labels"])
    if labels != instance.labels:
        return False, f"labels {labels} differ from the instance's {instance.labels}"
    cells = [cell_key(c) for c in cert["cells"]]
    if space == "lattice":  # the start may be a family member outside ``cells``
        board = _ball_board(b.kind, cells + [b.coords[c] for c in instance.start.cells], 1)
    else:
        board = b
        if any(not b.has(c) for c in cells):
            return False, "a member uses a cell that is not on the board"
    pos = [board.cell(c) for c in cells]

    def state(row) -> tuple[int, ...]:
        out = []
        for h in row:
            m, mm = int(h, 16), 0
            if m >> len(pos):
                raise ValueError("member mask beyond the listed cells")
            i = 0
            while m:
                if m & 1:
                    mm |= 1 << pos[i]
                m >>= 1
                i += 1
            out.append(mm)
        return tuple(out)

    members = {state(row) for row in cert["members"]}
    types = {tuple(sorted((lab, int(col)) for lab, col in t)) for t in cert.get("triangle_types") or []}
    if types and (b.kind != "triangular" or space != "lattice" or d != 2 or len(instance.start) != 3):
        return False, "triangle families are for three coins on the triangular grid (d = 2)"
    ok, why = _triangle_families_closed(types)
    if not ok:
        return False, why

    def coins_of(st) -> dict:
        return {board.coords[c]: lab for lab, m in zip(labels, st) for c in _bits(m)}

    def member(st) -> bool:
        return st in members or (bool(types) and _triangle_type(coins_of(st)) in types)

    start_coins = _coins(instance, instance.start)
    if not all(board.has(c) for c in start_coins):
        return False, "the start is not in the set"
    start = tuple(sum(1 << board.cell(c) for c, lab in start_coins.items() if lab == want) for want in labels)
    if not member(start):
        return False, "the start is not in the set"
    for k, st in enumerate(members):
        if deadline is not None and k % 1024 == 0 and time.perf_counter() > deadline:
            raise LimitReached(f"the closure check stopped after {k} of {len(members)} members (time limit)")
        for (s, p), nxt in successors(board, d, st):
            if not member(nxt):
                return False, (f"not closed: the move {board.coords[s]} -> {board.coords[p]} leaves the set "
                               f"from member {sorted(coins_of(st).items(), key=str)}")
        if _is_goal(instance, coins_of(st)):
            return False, f"member {sorted(coins_of(st).items(), key=str)} is a goal placement"
    goal = _coins(instance, instance.goal)
    if types and _triangle_type(goal) is not None:
        for v in _colour_variants(instance, goal):
            if _triangle_type(v) in types:
                return False, "a goal placement is a triangle of a member type"
    where = "the window " + str(cert.get("window", "")) if space == "window" else "the whole board"
    return True, f"{len(members)} configurations closed under legal moves on {where}, no goal among them"


def _bits(m: int):
    i = 0
    while m:
        if m & 1:
            yield i
        m >>= 1
        i += 1


def _colour(xy) -> int:
    return (xy[0] - xy[1]) % 3


def _triangle_type(coins: dict):
    cs = list(coins)
    if len(cs) != 3 or any(geometry.distance("triangular", cs[i], cs[j]) != 1 for i in range(3) for j in range(i)):
        return None
    return tuple(sorted((lab, _colour(xy)) for xy, lab in coins.items()))


def _colour_variants(instance: Instance, goal: dict) -> list[dict]:
    """Placements of ``goal`` covering every (symmetry, colour shift) class."""
    syms = _syms(instance)
    if syms is None:
        return [goal]
    return [{(geometry.apply(m, xy)[0] + t, geometry.apply(m, xy)[1]): lab for xy, lab in goal.items()}
            for m in syms for t in range(3)]


def _triangle_families_closed(types) -> tuple[bool, str]:
    """Every successor of a triangle of type θ is a triangle of type θ.

    Rules are invariant under translation and translations by (a, b) with
    a ≡ b (mod 3) keep every cell's colour, so it suffices to check the six
    representatives: up and down triangles with each colour at the left corner.
    """
    for t in types:
        by_colour = {col: lab for lab, col in t}
        if sorted(by_colour) != [0, 1, 2]:
            return False, f"triangle type {t} does not give one label per colour"
        for k in range(3):
            for tri in (((k, 0), (k + 1, 0), (k, 1)), ((k + 1, 0), (k, 1), (k + 1, 1))):
                coins = {xy: by_colour[_colour(xy)] for xy in tri}
                board = _ball_board("triangular", tri, 1)
                config = Configuration(tuple((board.cell(xy), lab) for xy, lab in coins.items()))
                for mv in legal_moves(board, config, 2):
                    after = {board.coords[c]: lab for c, lab in config.moved(*mv).coins}
                    if _triangle_type(after) != t:
                        return False, f"triangle family {t} is not closed (move {mv})"
    return True, "triangle families closed"
