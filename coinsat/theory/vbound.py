"""A lower bound for the V-to-diagonal family that holds for every n (docs/v-to-diagonal.md).

**Theorem LB.**  Every solution of V(a, b) -> ``target`` (``families.vdiag``; solvable iff
b >= a - 1, Lemma U) has at least :func:`lower_bound` (a, b, target) moves:

    LB = tau(J) + 1   for (target, b) = (SW-NE, a) or (NW-SE, a - 1),
    LB = tau(J - 1)   otherwise,            J = a + b,  tau(j) = j (j + 3) / 2,

that is LB >= s (s - 3) / 2 = s^2/2 - O(s) in the box side s = a + b + 2 = n - 2.  **Theorem RF**
(:func:`row_filling_bound`, below) is stronger, (3/4) s^2 - O(s), and :func:`best_bound` takes
the larger; :func:`check_row_filling` checks its lemmas move by move on a solution.

The proof is Lemma S (span layers of the V): the span layer R_t (``theory/reach.py``, Lemma W:
every coin at step t lies in R_t, and a cell is filled at step t only if it lies in R_t) of
the far corners of the box is at least tau(J) or tau(J - 1), because the layers can only
cross each new strip of the V's square one cell per step.  A goal cell that is not a start
coin needs a move that fills it, at a step >= its layer; two such cells need two steps.

:func:`corner_layers` gives, per corner of the box, the bound of Lemma S on its layer (the
tests compare it with the layers computed by ``reach.layer_steps``).
"""

from __future__ import annotations

__all__ = [
    "best_bound",
    "check_row_filling",
    "corner_layers",
    "far_corners",
    "lower_bound",
    "row_filling_bound",
    "row_filling_closed",
    "stage_cells",
    "tau",
]


def tau(j: int) -> int:
    """tau(j) = 2 + 3 + ... + (j + 1) = j (j + 3) / 2: Lemma S's bound on the layer of the corner
    where coin j + 1 attaches (the squares after j coins have side j + 2)."""
    return j * (j + 3) // 2


def _check(a: int, b: int, target: str) -> None:
    if a < 1 or not a - 1 <= b <= a:
        raise ValueError(f"V({a},{b}) -> a diagonal is solvable only for b in (a-1, a) (Lemma U)")
    if target not in ("nwse", "swne"):
        raise ValueError(f"target must be nwse or swne, not {target!r}")


def corner_layers(a: int, b: int) -> dict[str, int]:
    """Lemma S's lower bounds on the span layers of the box's corners: 'TL', 'TR', 'BL', 'BR'
    (the corner holding the last coin of the V has layer 0).  The last coin, number J = a + b,
    lies off the top-right corner when b = a - 1 and off the top-left when b = a; the strip it
    opens ends at the other top corner and at the bottom corner below it (tau(J)), the
    fourth corner closed the strip before (tau(J - 1))."""
    j = a + b
    if b == a - 1:  # last coin at TR
        return {"TR": 0, "TL": tau(j), "BR": tau(j), "BL": tau(j - 1)}
    return {"TL": 0, "TR": tau(j), "BL": tau(j), "BR": tau(j - 1)}


def far_corners(target: str) -> tuple[str, str]:
    """The two corners of the box that the target diagonal holds."""
    return ("BL", "TR") if target == "swne" else ("TL", "BR")


def lower_bound(a: int, b: int, target: str = "nwse") -> int:
    """LB(a, b, target) of Theorem LB (module docstring)."""
    _check(a, b, target)
    layers = corner_layers(a, b)
    c1, c2 = (layers[c] for c in far_corners(target))
    if c1 and c2:  # two cells to fill, both at steps >= their layers, at distinct steps
        return max(min(c1, c2) + 1, max(c1, c2))
    return max(c1, c2)


# --- Theorem RF: the row-filling bound (docs/v-to-diagonal.md §3), about 3s^2/4 -------------------

Cell = tuple[int, int]


def corner_target(a: int, b: int, target: str) -> bool:
    """Whether ``target`` holds the top corner away from the last coin of the V (SW-NE for b = a,
    NW-SE for b = a - 1): then the last stage counts (N = J), else one stage fewer (N = J - 1)."""
    _check(a, b, target)
    return (target == "swne") == (b == a)


def stages_counted(a: int, b: int, target: str) -> int:
    """N of Theorem RF: the stages whose rows every solution fills (J or J - 1, J = a + b)."""
    return a + b if corner_target(a, b, target) else a + b - 1


def stage_excess(k: int) -> int:
    """Lemma Q's count for stage k: of the k + 2 cells under the new row at most
    floor((k + 7)/2) hold a coin when the stage starts (Lemma P's four adjacent pairs), and every
    other one must be refilled inside the stage."""
    return max(0, (k + 2) - (k + 7) // 2)


def row_filling_bound(a: int, b: int, target: str = "nwse") -> int:
    """Theorem RF: every solution of V(a, b) -> ``target`` (J = a + b >= 2) has at least
    sum_{k < N} ((k + 2) + stage_excess(k)) + 1 moves: the first fills of the N stage rows
    (Lemma R), the refills under them (Lemma Q) and the goal's bottom corner.  0 for V(1, 0)."""
    _check(a, b, target)
    if a + b < 2:
        return 0
    n = stages_counted(a, b, target)
    return sum(k + 2 + stage_excess(k) for k in range(n)) + 1


def row_filling_closed(a: int, b: int, target: str = "nwse") -> int:
    """Theorem RF's bound in closed form: tau(N) + floor((N - 3)^2 / 4) + 1 for N >= 3 (tau(N) + 1
    below), N = J on the corner target, J - 1 on the other: about 3 s^2 / 4."""
    _check(a, b, target)
    if a + b < 2:
        return 0
    n = stages_counted(a, b, target)
    return tau(n) + ((n - 3) ** 2 // 4 if n >= 3 else 0) + 1


def best_bound(a: int, b: int, target: str = "nwse") -> int:
    """The larger of Theorem LB's and Theorem RF's bounds (RF wins from J = 5 on)."""
    return max(lower_bound(a, b, target), row_filling_bound(a, b, target))


def stage_cells(a: int, b: int) -> list[tuple[Cell, list[Cell], list[Cell]]]:
    """For each stage k = 0 .. J - 1, in vdiag's coordinates: (c_k, [p_1 .. p_m], [q_1 .. q_m]),
    m = k + 2.  c_k is the corner of the square Q_k (side k + 2) diagonally off which coin k + 1
    lies; p_1 .. p_m is the new row above Q_k, from above c_k away from the coin (p_m = c_{k+1});
    q_i is the cell below p_i (the top row of Q_k)."""
    _check(a, b, "nwse")
    out = []
    for k in range(a + b):
        x0, x1 = b - k // 2, b + 1 + (k + 1) // 2  # Q_k = [x0, x1] x [0, k + 1]
        top = k + 1
        if k % 2 == 0:  # coin k + 1 off the top-right corner: the new row runs leftwards to x0 - 1
            corner, xs = (x1, top), range(x1, x0 - 2, -1)
        else:  # off the top-left corner: the new row runs rightwards to x1 + 1
            corner, xs = (x0, top), range(x0, x1 + 2)
        p = [(x, top + 1) for x in xs][: k + 2]
        q = [(x, top) for x, _ in p]
        out.append((corner, p, q))
    return out


def check_row_filling(a: int, b: int, target: str, moves: list[tuple[Cell, Cell]]) -> dict:
    """Replays ``moves`` (pairs of cells in vdiag's coordinates, a solution of V(a, b) -> target
    that rules.py accepted) and checks Theorem RF's lemmas on it (ValueError naming the first that
    fails): Lemma P (at most 4 adjacent pairs of coins after every move), Lemma T (no cell outside
    Q_k and the V is first filled before c_k), Lemma R (each stage row first filled in order, p_i
    held by p_(i-1) and q_i), Lemma Q (the refills of each stage, inside disjoint windows).
    Returns the counts: the moves the theorem counts are distinct, so ``counted`` <= len(moves)."""
    occupied = set(v_cells(a, b))
    start = frozenset(occupied)
    first: dict[Cell, int] = {c: 0 for c in occupied}
    configs = [frozenset(occupied)]
    for t, (src, dst) in enumerate(moves, 1):
        occupied.remove(src)
        occupied.add(dst)
        first.setdefault(dst, t)
        configs.append(frozenset(occupied))
        pairs = sum((x + 1, y) in occupied for x, y in occupied) + sum((x, y + 1) in occupied for x, y in occupied)
        if pairs > 4:
            raise ValueError(f"Lemma P fails after move {t}: {pairs} adjacent pairs")
    s = a + b + 2
    if occupied != set(target_cells(s, target)):
        raise ValueError("the moves do not end on the target")
    never = len(moves) + 1
    theta = lambda c: first.get(c, never)  # noqa: E731
    stages = stage_cells(a, b)
    n = stages_counted(a, b, target)
    counted: set[int] = set()
    refills = 0
    last_end = -1
    for k in range(n):
        corner, p, q = stages[k]
        early = [c for c, t in first.items() if not _in_square(c, q) and c not in start and t <= theta(corner)]
        if early:
            raise ValueError(f"Lemma T fails at stage {k}: {early[0]} filled by move {theta(early[0])}")
        times = [theta(c) for c in p]
        if not all(u < v for u, v in zip(times, times[1:])) or times[-1] >= never:
            raise ValueError(f"Lemma R fails at stage {k}: first fills {times}")
        for i, c in enumerate(p):
            t = times[i]
            before, src = configs[t - 1], moves[t - 1][0]
            held = [p[i - 1] if i else _coin(a, b, k), q[i]]
            if any(h not in before or h == src for h in held):
                raise ValueError(f"Lemma R fails at stage {k}: {c} (move {t}) is not held by {held}")
            counted.add(t)
        sigma = times[0] - 1
        if sigma < last_end:
            raise ValueError(f"the windows of stages {k - 1} and {k} overlap")
        last_end = times[-1]
        empty = [c for c in q if c not in configs[sigma]]
        if len(q) - len(empty) > (k + 7) // 2:
            raise ValueError(f"Lemma Q fails at stage {k}: {len(q) - len(empty)} cells under the row hold coins")
        for c in empty:
            t = next((t for t in range(sigma + 1, times[-1]) if moves[t - 1][1] == c), never)
            if t == never:
                raise ValueError(f"Lemma Q fails at stage {k}: {c} is never refilled inside the stage")
            if first[c] >= t:  # never a first fill: those are counted in their own stage
                raise ValueError(f"Lemma Q fails at stage {k}: move {t} is the first fill of {c}")
            counted.add(t)
            refills += 1
    goal = set(target_cells(s, target))
    bottom = next(c for c in goal if c[1] == 0 and c[0] in (0, s - 1))
    if n and (stages[n - 1][1][-1] not in goal or stages[n - 1][1][-1] in start or bottom in start):
        raise ValueError("c_N must be a goal cell, and c_N and the bottom corner empty at the start")
    if n:
        counted.add(theta(bottom))
    total = row_filling_bound(a, b, target)
    if len(counted) < total:
        raise ValueError(f"{len(counted)} distinct counted moves, fewer than Theorem RF's {total}")
    return {"moves": len(moves), "counted": len(counted), "refills": refills, "bound": total}


def _in_square(c: Cell, top: list[Cell]) -> bool:
    """Whether c lies in the square Q_k whose top row is ``top`` (the q cells of stage k)."""
    xs = [x for x, _ in top]
    return min(xs) <= c[0] <= max(xs) and 0 <= c[1] <= top[0][1]


def _coin(a: int, b: int, k: int) -> Cell:
    """Coin k + 1 of the V (vdiag's coordinates): r_i for k = 2i - 2, l_i for k = 2i - 1."""
    i = k // 2 + 1
    return (b + 1 + i, 2 * i) if k % 2 == 0 else (b - i, 2 * i + 1)


def v_cells(a: int, b: int) -> list[Cell]:
    """V(a, b) as docs/v-to-diagonal.md §1 defines it (the same cells as ``families.v_shape``, a
    floor above; a test compares them): the block {b, b + 1} x {0, 1}, r_i = (b + 1 + i, 2i),
    l_i = (b - i, 2i + 1)."""
    block = [(b + x, y) for x in (0, 1) for y in (0, 1)]
    return block + [(b + 1 + i, 2 * i) for i in range(1, a + 1)] + [(b - i, 2 * i + 1) for i in range(1, b + 1)]


def target_cells(s: int, target: str) -> list[Cell]:
    """The target of the s x s box (``families.diagonal_target``'s cells): the SW-NE diagonal plus
    (m - 1, m), (m, m - 1), m = floor(s/2), or its mirror image y -> s - 1 - y (NW-SE)."""
    m = s // 2
    cells = [(i, i) for i in range(s)] + [(m - 1, m), (m, m - 1)]
    return cells if target == "swne" else [(x, s - 1 - y) for x, y in cells]
