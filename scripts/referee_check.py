#!/usr/bin/env python3
"""A referee's checker for coinsat certificates: one file, the Python standard library and numpy.

    python3 scripts/referee_check.py INSTANCE.toml CERTIFICATE_DIR   (or the certificate's JSON file)

It follows docs/certificates.md (format version 1), imports nothing from coinsat, reads the instance itself and
recomputes every fact it uses.  Checked: ``layers`` (word and ranked, quotient layers with their ``symmetries``
included, unpruned or pruned by the h ``fill``; ``forced``, ``lmcut`` and ``perimeter`` where h_fill <= h already
decides), ``bounded`` with a solution alone or an LRAT proof of the core formula (written here), census
certificates (``census.json``, ``layers.npz``).  Not checked (exit 3): DRAT proofs, ``invariant``, ``closed-set``,
cubic boards, slides.  Exit codes: 0 accepted, 1 rejected, 2 bad input, 3 not checked here (never accepted
unchecked); one line says what was checked.
"""

from __future__ import annotations

import hashlib
import io
import itertools
import json
import math
import os
import re
import stat
import sys
import zipfile
from pathlib import Path

import tomllib

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # threads make its small products 30x slower
import numpy as np  # noqa: E402

U64 = np.uint64
BIG = 1 << 30  # "never": the h of a configuration that cannot fill a goal cell
CHUNK = 1024  # configurations expanded at once
LABEL_CHARS = set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
VERDICTS = {0: "accepted", 1: "rejected", 2: "bad input", 3: "not checked here (not accepted)"}
MALFORMED = (LookupError, TypeError, ValueError, AttributeError, ArithmeticError, OSError, RecursionError, EOFError)
MALFORMED += (zipfile.BadZipFile,)  # what a malformed certificate can raise: each is a rejection


class Verdict(Exception):
    """Verdict(code, why) ends the check with an exit code other than 0 (``VERDICTS``) and the reason."""


def require(condition: object, why: str, code: int = 1) -> None:
    if not condition:
        raise Verdict(code, why)


def read_regular(path: Path, limit: int, what: str, code: int = 2) -> bytes:
    """The bytes of a regular file of at most ``limit`` bytes (never a device, pipe or link), or Verdict(code)."""
    try:
        st = os.stat(path, follow_symlinks=False)
    except OSError as e:
        raise Verdict(code, f"{path}: cannot read the {what}: {e.strerror}") from None
    require(stat.S_ISREG(st.st_mode), f"{path}: the {what} is not a regular file", code)
    require(st.st_size <= limit, f"{path}: the {what} has {st.st_size} bytes (at most {limit})", code)
    return path.read_bytes()


# --- 1. the instance: board, coins, window, goal placements --------------------------------------

TRIANGULAR = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1))
DIRECTIONS = {"square": TRIANGULAR[:4], "triangular": TRIANGULAR}
GENERATORS = {  # a rotation and a reflection generating each lattice's point group
    "square": (((0, -1), (1, 0)), ((1, 0), (0, -1))),
    "triangular": (((0, -1), (1, 1)), ((0, 1), (1, 0))),
}


def apply(m, c):
    return (m[0][0] * c[0] + m[0][1] * c[1], m[1][0] * c[0] + m[1][1] * c[1])


def point_group(kind: str) -> list:
    """Every symmetry of the lattice fixing the origin (8 on the square grid, 12 on the triangular)."""
    group = [((1, 0), (0, 1))]
    for g in group:  # the list grows while it is walked: a closure
        for h in GENERATORS[kind]:
            k = tuple(tuple(sum(g[i][t] * h[t][j] for t in range(2)) for j in range(2)) for i in range(2))
            if k not in group:
                group.append(k)
    return group


class Instance:
    """The puzzle as the TOML file states it; cells are (x, y) pairs on lattices, names on graphs."""

    def __init__(self, path: str):
        text = read_regular(Path(path), 64 << 20, "instance file")
        try:
            data = tomllib.loads(text.decode("utf-8"))
        except (UnicodeDecodeError, tomllib.TOMLDecodeError) as e:
            raise Verdict(2, f"{path}: not a TOML instance: {e}") from None
        self.path, self.name = path, data.get("name", Path(path).stem)
        self.kind = data.get("board")
        require(self.kind not in ("cubic", "plane"), f"{path}: {self.kind} boards are not read by this checker", 3)
        require(self.kind in ("square", "triangular", "graph"), f"{path}: board must be square, triangular or graph", 2)
        self.d, self.margin = data.get("adjacency", 2), data.get("margin", 2)
        for key, value in (("adjacency", self.d), ("margin", self.margin)):
            require(type(value) is int and value >= 1, f"{path}: {key} must be an integer >= 1", 2)
        self.placement, self.moves = data.get("goal_placement", "fixed"), data.get("moves", "jump")
        ok = self.placement in ("fixed", "translate", "congruent") and self.moves in ("jump", "slide")
        require(ok, f"{path}: unknown goal_placement or moves", 2)
        self.graph, self.graph_cells = {}, []
        if self.kind == "graph":
            graph = data.get("graph", {})
            names = list(graph.get("cells", []))
            for u, v in graph.get("edges", []):
                require(u != v, f"{path}: a self-loop at cell {u!r}", 2)
                names += [u, v]
                for a, b in ((u, v), (v, u)):
                    self.graph.setdefault(a, set()).add(b)
            self.graph_cells = list(dict.fromkeys(names))
        self.start, self.goal = self.coins(data, "start"), self.coins(data, "goal")
        ok = self.start and sorted(self.start.values()) == sorted(self.goal.values())
        require(ok, f"{path}: start and goal must have the same (non-zero) coins", 2)
        ok = self.kind != "graph" or set(self.start) | set(self.goal) <= set(self.graph_cells)
        require(ok, f"{path}: a coin is not on the graph", 2)
        self.labels = sorted(set(self.start.values()))
        self.window(self.margin)

    def coins(self, data: dict, key: str) -> dict:
        """``{cell: label}`` from a picture, a list of cells, or a table label -> cells."""
        value = data.get(key)
        if isinstance(value, str) and self.kind != "graph":
            return self.picture(value, key)
        table = {"o": value} if isinstance(value, list) else value
        require(isinstance(table, dict), f"{self.path}: {key} must be a picture, a list of cells or a table", 2)
        out: dict = {}
        for label, cells in table.items():
            for c in cells:
                lattice_cell = isinstance(c, list) and len(c) == 2 and all(type(v) is int for v in c)
                ok = lattice_cell if self.kind != "graph" else type(c) in (int, str)
                ok = ok and set(label) <= LABEL_CHARS and (tuple(c) if lattice_cell else c) not in out
                require(ok, f"{self.path}: {key}: bad cell {c!r} or label {label!r}", 2)
                out[tuple(c) if lattice_cell else c] = label
        return out

    def picture(self, text: str, key: str) -> dict:
        """'.' empty, a letter or digit a coin of that label ('o': unlabeled); the last row is y = 0.  Square:
        blanks are skipped, the k-th other character is x = k; triangular: column c of row y is x = (c - y) / 2."""
        rows = text.split("\n")
        if rows and not rows[-1].strip():
            rows.pop()
        out = {}
        for i, row in enumerate(rows):
            y = len(rows) - 1 - i
            if self.kind == "square":
                row = re.sub(r"\s+", "", row)
            for m in re.finditer(r"[^.\s]", row):
                col, ch = m.start(), m.group()
                ok = ch in LABEL_CHARS and (self.kind != "triangular" or (col - y) % 2 == 0)
                require(ok, f"{self.path}: {key}: bad character {ch!r} in row y = {y} of the picture", 2)
                out[(col, y) if self.kind == "square" else ((col - y) // 2, y)] = ch
        return out

    def around(self, c) -> list:
        """The neighbours of c on the whole lattice (or the graph)."""
        if self.kind == "graph":
            return sorted(self.graph.get(c, ()), key=json.dumps)
        return [(c[0] + dx, c[1] + dy) for dx, dy in DIRECTIONS[self.kind]]

    def span(self, coins, region=None) -> set:
        """span(coins): the least superset holding every cell (of ``region``) with >= d neighbours in it."""
        s, fresh = set(coins), set(coins)
        while fresh:
            near = {p for c in fresh for p in self.around(c) if p not in s and (region is None or p in region)}
            fresh = {p for p in near if sum(q in s for q in self.around(p)) >= self.d}
            s |= fresh
        return s

    def hull(self, coords, m: int) -> set:
        """The bounding box (triangular: hexagon, also bounding x + y) of coords, grown by m."""
        xs, ys, ss = [c[0] for c in coords], [c[1] for c in coords], [c[0] + c[1] for c in coords]
        box = {(x, y) for x in range(min(xs) - m, max(xs) + m + 1) for y in range(min(ys) - m, max(ys) + m + 1)}
        if self.kind == "triangular":
            box = {c for c in box if min(ss) - m <= c[0] + c[1] <= max(ss) + m}
        return box

    def window(self, margin: int) -> None:
        """The board (``cells``) with this margin, and whether it is ``exact``: a graph's cells; span(start) + the
        goal's cells when the span, grown inside hull(start) + margin, stays off that region's rim (no coin leaves
        it: exact); else hull(start and goal) + margin."""
        self.margin, m, self.exact, self.cells = margin, max(margin, 1), True, self.graph_cells
        if self.kind != "graph":
            region = self.hull(list(self.start), m)
            s = self.span(self.start, region)
            self.exact = not any(p not in region for c in s for p in self.around(c))
            box = s | set(self.goal) if self.exact else self.hull(list(self.start) + list(self.goal), m)
            self.cells = sorted(box, key=lambda c: (c[1], c[0]))
        self.cell_set = set(self.cells)

    def placements(self) -> list[dict]:
        """The goal when fixed, else its images under translations (and the point group) that lie on the board."""
        if self.placement == "fixed":
            return [dict(self.goal)]
        found = set()
        for m in point_group(self.kind) if self.placement == "congruent" else [((1, 0), (0, 1))]:
            image = [(apply(m, c), lab) for c, lab in self.goal.items()]
            ax, ay = image[0][0]
            for bx, by in self.cells:
                moved = frozenset(((x + bx - ax, y + by - ay), lab) for (x, y), lab in image)
                if all(c in self.cell_set for c, _ in moved):
                    found.add(moved)
        return [dict(p) for p in found]

    def digest(self) -> str:
        """sha256 of the canonical JSON of the puzzle (docs/certificates.md, "The instance digest")."""
        obj = {"board": self.kind, "adjacency": self.d, "goal_placement": self.placement}
        for key, coins in (("start", self.start), ("goal", self.goal)):
            obj[key] = sorted(([list(c) if isinstance(c, tuple) else c, s] for c, s in coins.items()), key=json.dumps)
        if self.kind == "graph":
            obj["cells"] = sorted(self.cells, key=json.dumps)
            pairs = {tuple(sorted((u, v), key=json.dumps)) for u in self.graph for v in self.graph[u]}
            obj["edges"] = sorted((list(p) for p in pairs), key=json.dumps)
        elif self.kind == "triangular":
            obj["margin"] = self.margin
        return hashlib.sha256(json.dumps(obj, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


def replay(inst: Instance, moves) -> int:
    """The number of moves of a solution, replayed on the board; rejected if it is not one."""
    require(inst.moves == "jump", "a solution of a puzzle with slides (this file has no slide rule)", 3)
    coins = dict(inst.start)
    for t, (s, p) in enumerate(moves, start=1):
        s, p = (tuple(c) if isinstance(c, list) else c for c in (s, p))  # [x, y] on lattices, names on graphs
        require(s in inst.cell_set and p in inst.cell_set, "the solution uses a cell that is not on the board")
        require(s in coins and p not in coins and s != p, f"the solution is not one: move {t} is illegal")
        support = sum(q in coins and q != s and q in inst.cell_set for q in inst.around(p))
        require(support >= inst.d, f"the solution is not one: move {t} lands beside < {inst.d} other coins")
        coins[p] = coins.pop(s)
    require(coins in inst.placements(), "the solution is not one: it does not end in a goal placement")
    return len(moves)


# --- 2. claims (docs/certificates.md, "Claims") -------------------------------------------------

BOUND = r"no solution with <= (0|[1-9][0-9]*) moves((?: inside the window)?)"
FORMS = (
    ("unsolvable", re.compile(r"unsolvable((?: inside the window)?)")),
    ("bound", re.compile(BOUND)),
    ("optimal", re.compile(r"optimal: (0|[1-9][0-9]*) moves(?: \(" + BOUND + r"\))?")),
    ("solution", re.compile(r"a solution of (0|[1-9][0-9]*) moves(?: \(" + BOUND + r"\))?")),
)


def claim(solution=None, bound=None, unsolvable=False, window=False) -> dict:
    if unsolvable and (solution is not None or bound is not None):
        raise ValueError("an unsolvable claim has neither a solution nor a bound")
    if bound is not None and solution is not None and bound >= solution:
        raise ValueError("a solution contradicts the bound")
    optimal = solution == 0 or (solution is not None and bound == solution - 1)
    return {"solution": solution, "bound": bound, "unsolvable": unsolvable, "window": window, "optimal": optimal}


def claim_text(c: dict) -> str:
    where = " inside the window" if c["window"] else ""
    if c["unsolvable"]:
        return "unsolvable" + where
    bound = None if c["bound"] is None else f"no solution with <= {c['bound']} moves{where}"
    if c["solution"] is None:
        return bound or "nothing"
    if c["solution"] == 0:
        return "optimal: 0 moves"
    head = f"{'optimal:' if c['optimal'] else 'a solution of'} {c['solution']} moves"
    return head if bound is None else f"{head} ({bound})"


def parse_claim(text) -> dict:
    if not isinstance(text, str):
        raise ValueError("the claim must be a text")
    for form, pattern in FORMS:
        m = pattern.fullmatch(text)
        if m is None:
            continue
        if form == "unsolvable":
            return claim(unsolvable=True, window=bool(m.group(1)))
        if form == "bound":
            return claim(bound=int(m.group(1)), window=bool(m.group(2)))
        n, bound, window = int(m.group(1)), m.group(2), bool(m.group(3))
        if form == "optimal":
            if (n > 0 and bound is None) or (bound is not None and int(bound) != n - 1):
                raise ValueError(f"'optimal: {n} moves' needs the bound {n - 1}")
            return claim(solution=n, bound=None if n == 0 else n - 1, window=window)
        c = claim(solution=n, bound=None if bound is None else int(bound), window=window)
        if c["optimal"]:
            raise ValueError("an optimal solution is written 'optimal: N moves'")
        return c
    raise ValueError(f"{text!r} is none of the claim forms")


def implies(p: dict, c: dict) -> bool:
    """Does the proven claim p imply the claim c?  (A window claim is implied by a global one.)"""
    bound = c["bound"] is None or p["unsolvable"] or (p["bound"] is not None and p["bound"] >= c["bound"])
    negative = c["unsolvable"] or c["bound"] is not None
    same = c["solution"] in (None, p["solution"]) and (p["unsolvable"] or not c["unsolvable"])
    return same and bound and not (negative and p["window"] and not c["window"])


def judge(proven: dict, cert: dict) -> str:
    claimed = parse_claim(cert.get("claim"))  # ValueError: rejected as malformed
    scope = ("window" if claimed["window"] else "global") if claimed["unsolvable"] else "horizon"
    require(cert.get("scope") == scope, f"the claim has scope {scope}, not {cert.get('scope')!r}")
    require(implies(proven, claimed), f"the evidence proves {claim_text(proven)!r}, not {cert['claim']!r}")
    return claim_text(proven)


# --- 3. configurations of a window as boolean rows; colex ranks; the move rule ------------------


class Window:
    """Cells with the induced neighbour relation.  A configuration of k coins is a boolean row, its key the
    colex rank sum_i C(c_i, i + 1) of its positions c_0 < ... < c_{k-1} (ranked) or the word sum_i 2^c_i."""

    def __init__(self, inst: Instance, cells: list, k: int):
        self.cells, self.n, self.k, self.d = cells, len(cells), k, inst.d
        index = {c: i for i, c in enumerate(cells)}
        self.adj = np.zeros((self.n, self.n), dtype=np.float32)
        for i, j in ((i, index[q]) for i, c in enumerate(cells) for q in inst.around(c) if q in index):
            self.adj[i, j] = i != j
        self.binom = np.array(
            [[min(math.comb(c, i), (1 << 64) - 1) for i in range(k + 2)] for c in range(self.n + 1)], U64
        )
        self.ranked = True

    def rows(self, cell_lists) -> np.ndarray:
        out = np.zeros((len(cell_lists), self.n), dtype=bool)
        index = {c: i for i, c in enumerate(self.cells)}
        for r, cells in enumerate(cell_lists):
            out[r, [index[c] for c in cells]] = True
        return out

    def supported(self, occ: np.ndarray) -> np.ndarray:
        """The cells with >= d occupied neighbours."""
        return occ.astype(np.float32) @ self.adj >= self.d

    def key(self, occ: np.ndarray) -> np.ndarray:
        if not self.ranked:
            return np.where(occ, U64(1) << np.arange(self.n, dtype=U64), U64(0)).sum(axis=1, dtype=U64)
        index = np.cumsum(occ, axis=1)  # 1 + the number of coins before each coin
        terms = self.binom[np.arange(self.n)[None, :], np.minimum(index, self.k + 1)]
        return np.where(occ, terms, U64(0)).sum(axis=1, dtype=U64)

    def rows_of(self, keys: np.ndarray, k: int | None = None) -> np.ndarray:
        if not self.ranked:
            return ((keys[:, None] >> np.arange(self.n, dtype=U64)) & U64(1)).astype(bool)
        r, out = keys.astype(U64), np.zeros((keys.size, self.n), dtype=bool)
        for i in range(self.k if k is None else k, 0, -1):  # the top coin c is the largest with C(c, i) <= r
            c = np.searchsorted(self.binom[:, i], r, side="right") - 1
            out[np.arange(keys.size), c] = True
            r = r - self.binom[c, i]
        return out

    def entry(self, occ: np.ndarray) -> np.ndarray:
        """The span layer in which each cell enters span(occ): 0 for coins, BIG for never."""
        layer, cur, rows, step = np.where(occ, 0, BIG), occ, np.arange(len(occ)), 0
        while rows.size:  # cur: the spans still growing, rows: where they are
            step += 1
            new = self.supported(cur) & ~cur
            grew = new.any(axis=1)
            cur, new, rows = (cur | new)[grew], new[grew], rows[grew]
            layer[rows] = np.where(new, step, layer[rows])
        return layer


def required_successors(w: Window, occ: np.ndarray, goals: np.ndarray) -> np.ndarray:
    """The successors Y = X - s + p of the rows X whose span contains a goal placement.  A move
    s -> p drops p beside >= d coins of X - s, so span(Y) = span(X - s): one span per coin."""
    out = [np.zeros((0, w.n), dtype=bool)]
    pos = np.nonzero(occ)[1].reshape(len(occ), w.k)
    for j in range(w.k):
        rest = occ.copy()
        rest[np.arange(len(occ)), pos[:, j]] = False
        outside = (w.entry(rest) >= BIG).astype(np.float32) @ goals.T.astype(np.float32)  # goal cells off the span
        keep = (outside == 0).any(axis=1)  # (no goal placement: none)
        r, p = np.nonzero(w.supported(rest) & ~occ & keep[:, None])
        succ = rest[r]
        succ[np.arange(r.size), p] = True
        out.append(succ)
    return np.concatenate(out)


def schedule(entry: np.ndarray, cells: np.ndarray) -> np.ndarray:
    """max_i (f_i + q - i) over the q marked cells of a row, f_1 <= ... <= f_q their entry layers: each needs
    a move of its own, the one filling a cell of layer f is move f or later.  0 if none, BIG if one never enters."""
    n = entry.shape[1]
    vals = np.sort(np.where(cells, entry, -BIG), axis=1)
    return np.minimum(BIG, np.maximum(0, (vals + (n - 1 - np.arange(n))[None, :]).max(axis=1)))


def h_fill(w: Window, occ: np.ndarray, goals: np.ndarray) -> np.ndarray:
    entry = w.entry(occ)
    return np.min([schedule(entry, g[None, :] & ~occ) for g in goals], axis=0, initial=BIG)


def absent(values: np.ndarray, layer: np.ndarray) -> np.ndarray:
    """The sorted ``values`` not in the sorted ``layer``."""
    if not layer.size or not values.size:
        return values
    return values[layer[np.minimum(np.searchsorted(layer, values), layer.size - 1)] != values]


def quotient_group(w: Window, perms, start: np.ndarray, goals: np.ndarray) -> list | None:
    """The ``symmetries`` of quotient layers: a group of permutations of the window's positions, each keeping
    the neighbour relation, the start and the set of goal placements (docs/symmetry.md)."""
    if perms is None:
        return None
    ok = w.ranked and isinstance(perms, list) and 0 < len(perms) <= 4096 and all(isinstance(p, list) for p in perms)
    require(ok and all(sorted(p) == list(range(w.n)) and all(type(q) is int for q in p) for p in perms), "symmetries")
    P, S, gk = [np.array(p) for p in perms], {tuple(p) for p in perms}, np.unique(w.key(goals))
    require(tuple(range(w.n)) in S and all(tuple(p[q]) in S for p in P for q in P), "the symmetries are not a group")
    ok = all(np.array_equal(w.adj[np.ix_(p, p)], w.adj) and np.array_equal(start[:, p], start) for p in P)
    require(ok and all(np.array_equal(np.unique(w.key(goals[:, p])), gk) for p in P), "a symmetry moves the board")
    return P


# --- 4. the certificate kinds -------------------------------------------------------------------


def side_file(folder: Path, name, what: str) -> bytes:
    """A file the certificate names: a plain name of a regular file in its folder (no link)."""
    ok = isinstance(name, str) and name not in ("", ".", "..") and os.path.basename(name) == name
    require(ok and "\x00" not in name, f"{what}: not a plain file name: {name!r}")
    return read_regular(folder / name, 1 << 40, what, 1)


def read_layers(data: bytes, count: int, cap: int, prefix: str) -> list[np.ndarray]:
    """Arrays prefix0 .. prefix<count-1> of an .npz (a zip of .npy files): one-dimensional integers
    of at most 8 bytes, at most ``cap`` of them (the zip's declared size is checked before inflating)."""
    layers = []
    with zipfile.ZipFile(io.BytesIO(data)) as z:
        for i in range(count):
            name = f"{prefix}{i}.npy"
            require(name in z.namelist() and z.getinfo(name).file_size <= 8 * cap + 4096, f"no array {name} that fits")
            array = np.load(io.BytesIO(z.read(name)), allow_pickle=False)
            ok = array.ndim == 1 and array.dtype.kind in "iu" and array.dtype.itemsize <= 8 and array.size <= cap
            require(ok, f"{name} is not a list of at most {cap} integers")
            words = array.astype(U64)
            require(np.array_equal(words.astype(array.dtype), array), f"{name} holds values past 64 bits")
            layers.append(words)
    return layers


def check_layers(inst: Instance, cert: dict, folder: Path) -> tuple[dict, str]:
    """L0 = {start}, no goal placement in any layer, and every successor y of L_i (i < T) whose span contains
    a goal placement (and (i + 1) + h(y) <= U when pruned) lies in L_0 .. L_{i+1}: no solution has <= T moves.
    h_fill is computed here; every other h is >= h_fill, so a successor that h_fill does not ask
    for is asked for by none; one it asks for and that is missing is undecided for another h (exit 3)."""
    T = cert["horizon"]
    require(type(T) is int and T >= 0, f"the horizon must be an integer >= 0, not {T!r}")
    cells = [tuple(c) if isinstance(c, list) else c for c in cert["cells"]]
    require(len(cells) <= 256 and len(set(cells)) == len(cells), "the window must list at most 256 distinct cells")
    if inst.kind == "graph":
        require(set(cells) == set(inst.cells), "the cells are not the graph's cells")
    else:
        require(inst.kind == "square" and inst.d >= 2, "layers need an exact window: square grid, d >= 2, or a graph")
        require(inst.span(inst.start) <= set(cells), "the cells do not contain span(start)")  # finite: d >= 2
    solution = None if cert.get("solution") is None else replay(inst, cert["solution"])
    require(solution is None or solution > T, f"the solution has {solution} moves, contradicting the horizon {T}")
    judge(claim(solution=solution, bound=T), cert)  # the most these layers can prove: judged before the work
    data = side_file(folder, cert["layers"], "the layers file")
    require(hashlib.sha256(data).hexdigest() == cert["layers_sha256"], "the layers file's sha256 differs")
    k = len(inst.start)
    layers = read_layers(data, T + 1, math.comb(len(cells), k), "L")
    encoding, U, h = cert.get("encoding", "word"), cert.get("upper_bound"), cert.get("h", "fill")
    require(U is None or (type(U) is int and U >= T), f"the upper bound must be an integer >= {T}, not {U!r}")
    names, form = ("fill", "forced", "lmcut"), isinstance(h, dict) and set(h) == {"kind", "r", "inner"}
    if form:  # {"kind": "perimeter", "r": R, "inner": I}
        form = h["kind"] == "perimeter" and type(h["r"]) is int and 0 <= h["r"] <= 250 and h["inner"] in names
    require(h in names if isinstance(h, str) else form, f"unknown h {h!r}")
    require(h == "fill" or (encoding == "rank" and U is not None), f"the h {h!r} needs ranked layers and a bound")
    require(encoding in ("word", "rank") and (encoding == "rank" or U is None), f"unknown encoding {encoding!r}")
    require(len(inst.labels) == 1, "layers certificates are for unlabeled coins")
    w = Window(inst, cells, k)
    if encoding == "rank":
        require(math.comb(len(cells), k) <= 1 << 64, "ranks of this window do not fit 64 bits")
        layers = [np.cumsum(layer, dtype=U64) for layer in layers]  # stored as first differences
    else:
        require(len(cells) <= 64, "word layers hold at most 64 cells")
        w.ranked = False
    goals = w.rows([list(g) for g in inst.placements() if set(g) <= set(cells)])
    start = w.rows([list(inst.start)])
    require(layers[0].tolist() == w.key(start).tolist(), "L0 is not {start}")
    goal_keys, P = np.unique(w.key(goals)), quotient_group(w, cert.get("symmetries"), start, goals)
    for i, layer in enumerate(layers):
        require(np.all(layer[1:] > layer[:-1]), f"L{i} is not sorted without repeats")
        if encoding == "word":
            bits = np.unpackbits(layer.astype("<u8").view(np.uint8)).reshape(-1, 64)
            require(np.all(bits.sum(axis=1) == k), f"L{i} has a word without {k} coins")
        else:
            require(not layer.size or int(layer[-1]) < math.comb(len(cells), k), f"L{i} has a rank too large")
        require(absent(goal_keys, layer).size == goal_keys.size, f"L{i} holds a goal placement")
    for i in range(T):
        for lo in range(0, layers[i].size, CHUNK):
            succ = required_successors(w, w.rows_of(layers[i][lo : lo + CHUNK]), goals)  # their orbits' least keys:
            keys = np.unique(w.key(succ) if P is None else np.min([w.key(succ[:, p]) for p in P], axis=0))
            for j in range(i + 1, -1, -1):
                keys = absent(keys, layers[j])
            if U is not None and keys.size:  # pruned: only the successors with (i + 1) + h <= U are asked for
                keys = keys[h_fill(w, w.rows_of(keys), goals) <= U - (i + 1)]  # h_fill <= every other h
                if h != "fill" and keys.size:  # a stronger h may not ask for them: undecided
                    raise Verdict(3, f"the h {json.dumps(h)} decides whether L{i + 1} must hold a successor")
            require(not keys.size, f"a successor of L{i} is in no layer up to L{i + 1} (key {int(keys[:1].sum())})")
    states = sum(int(layer.size) for layer in layers)
    pruned = "" if U is None else f", pruned by h {json.dumps(h)} with upper bound {U}"
    pruned += "" if P is None else f", one configuration per orbit of {len(P)} symmetries"
    what = f"closure of {T + 1} {'ranked' if encoding == 'rank' else 'word'} layers ({states} configurations{pruned})"
    return claim(solution=solution, bound=T), what


def check_bounded(inst: Instance, cert: dict, folder: Path) -> tuple[dict, str]:
    """Horizon -1 certifies a solution alone: replayed.  Else an LRAT proof of the core formula F_T, written here."""
    T, margin = cert["horizon"], cert.get("margin")
    require(type(T) is int and T >= -1, f"the horizon must be an integer >= -1, not {T!r}")
    if margin is not None:  # the formula is of the lattice window hull(start and goal) + margin
        require(inst.kind != "graph" and type(margin) is int and margin >= inst.margin, "a margin widens lattices")
        xs, ys = zip(*(list(inst.start) + list(inst.goal)))
        area = (max(xs) - min(xs) + 1 + 2 * margin) * (max(ys) - min(ys) + 1 + 2 * margin)
        require(area <= 250_000, f"the margin {margin} gives a window of more than 250,000 cells")
        inst.window(margin)
    solution = None if cert.get("solution") is None else replay(inst, cert["solution"])
    require(solution is None or solution > T, f"the solution has {solution} moves, contradicting the horizon {T}")
    if T == -1:
        require(solution is not None, "horizon -1 certifies a solution, and there is none")
        return claim(solution=solution), "a solution, replayed"
    require(cert.get("proof_format") not in ("drat", "cubes"), "DRAT proofs: use coinsat check-certificate", 3)
    require(cert.get("proof_format") == "lrat" and cert["encoding"] == "core", "LRAT proofs of the core formula only")
    require(T < math.comb(len(inst.cells), len(inst.start)), "the horizon exceeds C(cells, coins) - 1")
    copy = None if cert.get("cnf") is None else side_file(folder, cert["cnf"], "the CNF copy")
    proof, layer = side_file(folder, cert["proof"], "the proof file"), set(inst.start)
    for _ in range(0 if inst.exact else T):  # R_t+1 = R_t + every cell with >= d neighbours in R_t
        grown = {p for c in layer for p in inst.around(c) if sum(q in layer for q in inst.around(p)) >= inst.d} - layer
        layer |= grown
        if not grown or not layer <= inst.cell_set:
            break
    exact = inst.exact or layer <= inst.cell_set  # the board is exact, or holds R_T: the claim is global
    require(bool(cert.get("window_exact")) == exact, "window_exact does not match the instance's window")
    judge(claim(solution=solution, bound=T, window=not exact), cert)
    nvars, clauses = core_formula(inst, T)
    lines = [" ".join(map(str, c)) + " 0" for c in clauses]
    name = "".join(ch if " " <= ch <= "~" else "?" for ch in str(inst.name))
    text = f"c coinsat core-only CNF (encodings/sat.md C1-C8, N1): {name}, horizon {T}\np cnf {nvars} {len(clauses)}\n"
    require(copy in (None, (text + "\n".join(lines) + "\n").encode()), "the CNF copy is not F_T")
    gbd = hashlib.md5(" ".join(w for line in lines for w in line.split()).encode()).hexdigest()
    require(cert.get("cnf_gbd_hash") in (None, gbd), "the GBD hash is not F_T's")
    require(re.fullmatch(rb"[\x20-\x7e\n]*", proof) is not None, "the proof has bytes outside printable ASCII")
    return claim(
        solution=solution, bound=T, window=not exact
    ), f"LRAT proof of F_T ({check_lrat(clauses, proof)} lemmas)"


def core_formula(inst: Instance, T: int) -> tuple[int, list[list[int]]]:
    """F_T: "a solution of <= T moves in the window" (docs/certificates.md, "The core formula"), its variable count
    and its clauses in their order (clause i has the id i + 1)."""
    cells, index, out = range(len(inst.cells)), {c: i for i, c in enumerate(inst.cells)}, []
    nbrs = [sorted(index[q] for q in inst.around(c) if q in index) for c in inst.cells]
    labels, new = (inst.labels if len(inst.labels) > 1 else []), itertools.count(1).__next__

    def exactly_one(lits: list) -> None:  # the clause of all, then Sinz's ladder: s[i] for i < k (k >= 2)
        s = [0] + [new() for _ in lits[1:]] if len(lits) > 1 else []  # s[i + 1]: "one of l_0 .. l_i"
        out.append(lits)
        for i, lit in enumerate(lits if s else []):
            out.extend(([[-lit, -s[i]]] if i else []) + ([[-lit, s[i + 1]]] if i < len(lits) - 1 else []))
            out.extend([[-s[i], s[i + 1]]] if 0 < i < len(lits) - 1 else [])

    def at_least(guard: int, lits: list, d: int) -> None:  # guard -> at least d of lits: a clause per subset
        k = len(lits) - d + 1
        require(k <= 0 or math.comb(len(lits), k) <= 64, "a cell's C6 needs a sequential counter (not written here)", 3)
        out.extend(([-guard, *sub] for sub in itertools.combinations(lits, k)) if k > 0 else [[-guard]])

    x = [[new() for _ in cells] for _ in range(T + 1)]
    f, v, n = [[]], [[]], [0]
    for _ in range(T):
        f, v, n = f + [[new() for _ in cells]], v + [[new() for _ in cells]], n + [new()]
    y = [{b: [new() for _ in cells] for b in labels} for _ in range(T + 1)]
    m = [{b: new() for b in labels} for _ in range(T + 1)]
    start = {index[c]: b for c, b in inst.start.items()}
    for c in cells:  # C1
        out += [[x[0][c] if c in start else -x[0][c]]] + [[y[0][b][c] * (-1) ** (start.get(c) != b)] for b in labels]
    for t in range(1, T + 1):
        for c in cells:  # C2, C3
            a, b, fc, vc = x[t][c], x[t - 1][c], f[t][c], v[t][c]
            out += [[-fc, -b], [-fc, a], [b, -a, fc], [-vc, b], [-vc, -a], [-b, a, vc]]
        exactly_one([n[t]] + f[t])  # C4 + N1
        exactly_one([n[t]] + v[t])  # C5 + N1
        for p in cells:  # C6
            at_least(f[t][p], [x[t][q] for q in nbrs[p]], inst.d)
        for c in cells if labels else []:  # C7
            ys = [y[t][b][c] for b in labels]
            out += [[-x[t][c], *ys]] + [[-a, -b] for a, b in itertools.combinations(ys, 2)]
            for b in labels:
                now, was, mb, fc, vc = y[t][b][c], y[t - 1][b][c], m[t][b], f[t][c], v[t][c]
                out += [[-now, x[t][c]], [-was, vc, now], [-now, fc, was], [-vc, -was, mb], [-fc, -mb, now]]
        out += [[-a, -b] for a, b in itertools.combinations([m[t][b] for b in labels], 2)]
    selectors = []  # C8: a fixed goal as units, else one selector per placement (in sorted order)
    for g in sorted(sorted((index[c], b) for c, b in p.items()) for p in inst.placements()):
        if inst.placement == "fixed":
            goal = dict(g)
            for c in cells:
                out += [[x[T][c] if c in goal else -x[T][c]]] + ([[y[T][goal[c]][c]]] if c in goal and labels else [])
            return new() - 1, out
        selectors.append(z := new())
        for c, b in g:
            out += [[-z, x[T][c]]] + ([[-z, y[T][b][c]]] if labels else [])
    return new() - 1, out + [selectors]


def check_lrat(clauses: list, proof: bytes) -> int:
    """The linear LRAT check (docs/certificates.md, "LRAT proofs"): the number of lemmas checked, or Verdict 1."""
    live, last, lemmas = dict(enumerate(clauses, start=1)), len(clauses), 0
    for number, line in enumerate(proof.decode("ascii").split("\n"), start=1):
        words, where = line.split(), f"LRAT line {number}"
        if words[:1] in ([], ["c"]):
            continue
        if words[1:2] == ["d"]:  # id d ids 0: the clauses ids are dropped
            ids = [int(w) for w in words[2:]]
            require(ids[-1:] == [0] and all(i in live for i in ids[:-1]), f"{where}: a bad deletion")
            for i in ids[:-1]:
                del live[i]
            continue
        numbers = [int(w) for w in words]  # id literals 0 hints 0
        require(numbers.count(0) == 2 and numbers[-1] == 0 and numbers[0] > last, f"{where}: not 'id lits 0 hints 0'")
        last, rest, lemmas = numbers[0], numbers[1:], lemmas + 1
        lits, hints = rest[: rest.index(0)], rest[rest.index(0) + 1 : -1]
        true, done = {-lit for lit in lits}, len({abs(x) for x in lits}) < len(set(lits))  # a tautology holds
        for k, h in enumerate([] if done else hints):  # each hint unit, the last one a conflict
            require(h in live, f"{where}: hint {h} is not a clause here")
            free = [lit for lit in live[h] if -lit not in true]
            require(len(free) == 1 or (not free and k == len(hints) - 1), f"{where}: hint {h} is not unit")
            done = not free
            true.update(free)
        require(done, f"{where}: the hints of lemma {last} end without a conflict")
        if not lits:
            return lemmas
        live[last] = lits
    raise Verdict(1, "the LRAT proof never derives the empty clause")


KINDS = {"layers": check_layers, "bounded": check_bounded, "invariant": None, "closed-set": None, "inductive": None}


def no_duplicates(pairs):
    require(len({k for k, _ in pairs}) == len(pairs), "a key appears twice in one JSON object")
    return dict(pairs)


def check_certificate(inst: Instance, path: Path) -> str:
    """The verdict on a ``*.certificate.json``: a line saying what was proven (or Verdict 1)."""
    data = read_regular(path, 1 << 30, "certificate")
    require(re.fullmatch(rb"[\x20-\x7e\n]*", data) is not None, "bytes outside printable ASCII and newline")
    cert = json.loads(data.decode("ascii"), object_pairs_hook=no_duplicates)
    ok = isinstance(cert, dict) and type(cert.get("coinsat_certificate")) is int and cert["coinsat_certificate"] == 1
    require(ok, "not a coinsat certificate of format version 1")
    require(cert.get("kind") in KINDS, f"unknown certificate kind {cert.get('kind')!r}")
    require(cert["instance"]["digest"] == inst.digest(), "the certificate is for another instance (digest)")
    require(KINDS[cert["kind"]], f"{cert['kind']} certificates are not checked here: use coinsat check-certificate", 3)
    proven, what = KINDS[cert["kind"]](inst, cert, path.parent)
    text = judge(proven, cert)
    scope = ("window" if proven["window"] else "global") if proven["unsolvable"] else "horizon"
    return f"{cert['kind']} certificate {path.name}: {what}; proves {text!r} (scope {scope})"


# --- 5. census certificates (docs/certificates.md, "census") -------------------------------------


def check_census(inst: Instance, folder: Path) -> str:
    """Every configuration of the window's n coins is in layer t iff its distance to the goal is t."""
    raw = read_regular(folder / "census.json", 1 << 30, "census file")
    cert = json.loads(raw.decode("ascii"), object_pairs_hook=no_duplicates)
    ok = cert["format"] == "coinsat-census" and type(cert["version"]) is int and cert["version"] == 1
    require(ok, "not a census certificate of format version 1")
    require(cert["board"] == inst.kind and cert["adjacency"] == inst.d, "the board or d is not the instance's")
    require(len(inst.labels) == 1 and inst.placement == "fixed", "a census is of unlabeled coins and a fixed goal")
    cells = [tuple(c) if isinstance(c, list) else c for c in cert["cells"]]
    N, goal = len(cells), cert["goal"]
    require(len(set(cells)) == N and N <= 256, "the cells must be at most 256 distinct cells")
    require(goal == sorted(set(goal)) and all(type(q) is int and 0 <= q < N for q in goal), "malformed goal")
    require({cells[q] for q in goal} == set(inst.goal), "the census's goal is not the instance's goal")
    n, C = len(goal), math.comb(N, len(goal))
    if inst.kind == "graph":
        index = {c: i for i, c in enumerate(cells)}
        want = {frozenset((index[c], index[q])) for c in cells for q in inst.around(c) if q in index}
        require(
            {frozenset((i, j)) for i, j in cert["edges"]} == want, "the edges are not the graph's between the cells"
        )
    else:
        require(all(isinstance(c, tuple) and len(c) == 2 and all(type(v) is int for v in c) for c in cells), "cells")
    around = {p for c in cells for p in inst.around(c)} - set(cells)
    closed = all(sum(q in set(cells) for q in inst.around(p)) < inst.d for p in around)
    require(cert["closed"] is closed, f"'closed' must be {str(closed).lower()}")
    D = cert["max_distance"]
    require(type(D) is int and 0 <= D and len(cert["layer_sizes"]) == D + 1, "max_distance and layer_sizes disagree")
    require(C <= 1 << 28, f"a census of {C} configurations is past this checker's tables (2^28)", 3)
    w = Window(inst, cells, n)
    layers = read_layers(side_file(folder, cert["layers"], "the layers file"), D + 1, C, "layer_")
    none = np.iinfo(np.uint16).max
    dist = np.full(C, none, dtype=np.uint16)  # l(X) for every configuration X, by rank
    for t, layer in enumerate(layers):
        require(np.all(layer[1:] > layer[:-1]) and (not layer.size or int(layer[-1]) < C), f"layer_{t} is unsorted")
        require(layer.size == cert["layer_sizes"][t] and layer.size > 0, f"layer_{t} has not its stated size")
        require(np.all(dist[layer] == none), f"layer_{t} shares a configuration with an earlier layer")
        dist[layer] = t
    reachable = sum(int(layer.size) for layer in layers)
    require(layers[0].tolist() == w.key(w.rows([[cells[q] for q in goal]])).tolist(), "layer_0 is not {goal}")
    require([cert["reachable"], cert["configurations"], cert["unsolvable"]] == [reachable, C, C - reachable], "counts")
    # (1) lambda(Z): the least l(Y) over Y with Z in Lift(Y) = {Y - p : p has >= d coins of Y beside it}
    lam = np.full(math.comb(N, n - 1), none, dtype=np.uint16)
    for t, layer in enumerate(layers):
        for lo in range(0, layer.size, CHUNK):
            occ = w.rows_of(layer[lo : lo + CHUNK])
            r, p = np.nonzero(occ & w.supported(occ))
            Z = occ[r]
            Z[np.arange(r.size), p] = False
            z = w.key(Z)
            lam[z[lam[z] == none]] = t  # layers in increasing t: the first value is the least
    # (2) closure: Z + s is in a layer, with l(Z + s) <= lambda(Z) + 1, for every Z with a lambda
    zs = np.flatnonzero(lam != none).astype(U64)
    for lo in range(0, zs.size, CHUNK):
        Z = w.rows_of(zs[lo : lo + CHUNK], n - 1)
        lz = lam[zs[lo : lo + CHUNK]].astype(np.int64)
        for s in range(N):
            rows = np.flatnonzero(~Z[:, s])
            X = Z[rows]
            X[:, s] = True
            bad = np.flatnonzero(dist[w.key(X)].astype(np.int64) > lz[rows] + 1)
            require(not bad.size, f"closure fails: a predecessor of layer_{lz[rows][bad[:1]].sum()} is in no layer")
    # (3) support: every X in layer t >= 1 has a coin s with lambda(X - s) = t - 1
    for t, layer in enumerate(layers[1:], start=1):
        for lo in range(0, layer.size, CHUNK):
            occ = w.rows_of(layer[lo : lo + CHUNK])
            pos, ok = np.nonzero(occ)[1].reshape(len(occ), n), np.zeros(len(occ), dtype=bool)
            for j in range(n):
                Z = occ.copy()
                Z[np.arange(len(occ)), pos[:, j]] = False
                ok |= lam[w.key(Z)] == t - 1
            require(ok.all(), f"support fails: a configuration of layer_{t} has no move into layer_{t - 1}")
    # the symmetries (recomputed on lattices) and the hardest starts, one per orbit of layer D
    group = {tuple(p) for p in cert["symmetries"]}  # on a graph: the identity alone
    want = {tuple(range(N))} if inst.kind == "graph" else lattice_symmetries(inst.kind, cells, goal)
    require(group == want, "the symmetries are not the puzzle's")
    hardest = [sorted(h) for h in cert["hardest"]]
    ok = all(len(set(h)) == n == len(h) and all(type(q) is int and 0 <= q < N for q in h) for h in hardest)
    require(ok, "a hardest start is not a list of n distinct positions")
    orbits = [w.key(w.rows([[cells[p[q]] for q in h] for p in group])) for h in hardest]
    union = np.unique(np.concatenate(orbits)) if orbits else np.zeros(0, U64)
    keys = w.key(w.rows([[cells[q] for q in h] for h in hardest])) if hardest else np.zeros(0, U64)
    require(np.array_equal(union, layers[D]), "the orbits of the hardest starts are not layer D")
    require(all(not np.isin(keys[:i], o).any() for i, o in enumerate(orbits)), "two hardest starts share an orbit")
    where = f"{N} cells ({'closed' if closed else 'not closed'})"
    return f"census of {n} coins on {where}: {reachable} of {C} reach the goal, in <= {D} moves; {C - reachable} never"


def lattice_symmetries(kind: str, cells: list, goal: list) -> set:
    """The permutations of positions made by the lattice symmetries mapping the window and the goal onto themselves."""
    index, out = {c: i for i, c in enumerate(cells)}, set()
    for m in point_group(kind):
        image = [apply(m, c) for c in cells]
        (ax, ay), (bx, by) = min(cells), min(image)
        moved = [(x + ax - bx, y + ay - by) for x, y in image]
        perm = tuple(index.get(c, -1) for c in moved)  # -1: a cell off the window
        if set(moved) == set(cells) and sorted(perm[q] for q in goal) == goal:
            out.add(perm)
    return out


# --- 6. the command -----------------------------------------------------------------------------


def main(argv: list[str]) -> int:
    try:
        require(len(argv) == 2, "usage: python3 referee_check.py INSTANCE.toml CERTIFICATE_DIR (or its JSON file)", 2)
        try:
            inst, target = Instance(argv[0]), Path(argv[1])
        except MALFORMED as e:
            raise Verdict(2, f"{argv[0]}: not an instance file: {type(e).__name__}: {e}") from None
        if target.is_dir() and (target / "census.json").exists():
            code, line = 0, check_census(inst, target)
        else:
            found = sorted(target.glob("*.certificate.json")) if target.is_dir() else [target]
            require(
                len(found) == 1, f"{target}: expected one *.certificate.json or a census.json, found {len(found)}", 2
            )
            code, line = 0, check_certificate(inst, found[0])
    except Verdict as e:
        code, line = e.args
    except MALFORMED as e:
        code, line = 1, f"malformed certificate: {type(e).__name__}: {e}"
    except MemoryError:
        code, line = 3, "out of memory"
    print(f"{VERDICTS[code]}: {line}")
    return code


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
