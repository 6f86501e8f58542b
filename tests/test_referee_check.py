"""scripts/referee_check.py, the referee's standalone checker, against coinsat's own checker.

Every certificate here is made by coinsat (``certify``) and then checked twice: by
``check_certificate`` in this process and by the referee's script in a subprocess.  Their
verdicts must be equal (0 accepted, 1 rejected), genuine and tampered alike; where the script
does not re-implement what a kind needs (DRAT proofs, the LM-cut h, invariants, closed sets)
it must say so with exit code 3, never accept.  Census certificates are built here by a brute
force of their own (every configuration of a tiny window, distances by a backward search), as
docs/certificates.md ("census") specifies them, and must be accepted, and rejected once tampered.
"""

from __future__ import annotations

import ast
import contextlib
import copy
import hashlib
import io
import itertools
import json
import math
import random
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from coinsat import geometry
from coinsat.certificates.check import check_certificate
from coinsat.certificates.prove.make import certify
from coinsat.instance import Instance, make_instance
from coinsat.io.instance_format import read_instance, write_instance
from coinsat.solve import solve
from lab import checker_fuzz

ROOT = Path(__file__).resolve().parents[1]
REFEREE = ROOT / "scripts" / "referee_check.py"
DIAGONAL = ROOT / "instances" / "paper" / "diagonal.toml"
U64 = np.uint64

DIAG3 = make_instance(
    "square", [(0, 0), (1, 1), (2, 2), (1, 2), (2, 1)], [(0, 2), (1, 1), (2, 0), (1, 2), (2, 1)], name="diag3"
)
# a graph board: a 3 x 3 grid of named cells with one diagonal, d = 2
_NAMES = {(x, y): f"c{x}{y}" for x in range(3) for y in range(3)}
_EDGES = [(_NAMES[a], _NAMES[b]) for a in _NAMES for b in _NAMES if b in geometry.neighbours("square", a) and a < b]
GRAPH = make_instance(
    "graph",
    ["c00", "c11", "c22", "c12", "c21"],
    ["c02", "c11", "c20", "c12", "c21"],
    edges=_EDGES + [("c00", "c11"), ("c20", "c02")],  # optimum 3 (6 without the two chords)
    name="graph-grid",
)


def referee(instance: Path, target: Path) -> tuple[int, str]:
    """The script's exit code and its one line."""
    p = subprocess.run(
        [sys.executable, str(REFEREE), str(instance), str(target)], capture_output=True, text=True, timeout=300
    )
    assert p.stderr == "", p.stderr  # no traceback, ever
    assert p.stdout.count("\n") == 1, p.stdout
    return p.returncode, p.stdout.strip()


def coinsat(inst: Instance, cert: dict, folder: Path) -> int:
    return 0 if check_certificate(inst, cert, folder).ok else 1


class Made:
    """A certificate coinsat made: the instance (object and TOML file) and its folder."""

    def __init__(self, inst: Instance, folder: Path, toml: Path | None = None):
        self.inst, self.folder = inst, folder
        self.toml = toml or folder.parent / f"{folder.name}.toml"
        if toml is None:
            write_instance(inst, self.toml)
        (self.path,) = folder.glob("*.certificate.json")
        self.cert = json.loads(self.path.read_text())

    def agree(self, cert: dict | None = None, unchecked: bool = False) -> int:
        """Write ``cert`` (default: the genuine one) and return the verdict both checkers give;
        with ``unchecked``, the script may also say 3 (not checked here), and then it is 3."""
        cert = self.cert if cert is None else cert
        self.path.write_text(json.dumps(cert))
        try:
            want = coinsat(self.inst, cert, self.folder)
            code, line = referee(self.toml, self.folder)
        finally:
            self.path.write_text(json.dumps(self.cert))
        assert code == want or (unchecked and code == 3), (want, line)
        return code

    def layers(self) -> list[np.ndarray]:
        with np.load(self.folder / self.cert["layers"]) as z:
            return [z[f"L{i}"] for i in range(self.cert["horizon"] + 1)]

    def with_layers(self, layers: list[np.ndarray], name: str = "tampered.npz", **fields) -> dict:
        """The certificate with these (stored) layers in a new file, hashed: only the check of the
        layers themselves can object."""
        buf = io.BytesIO()
        np.savez_compressed(buf, **{f"L{i}": layer for i, layer in enumerate(layers)})
        (self.folder / name).write_bytes(buf.getvalue())
        return dict(self.cert, layers=name, layers_sha256=hashlib.sha256(buf.getvalue()).hexdigest(), **fields)


def _made(factory, name: str, inst: Instance, toml: Path | None = None, method: str = "auto", **options) -> Made:
    folder = factory.mktemp("made") / name
    done = certify(inst, solve(inst, method, **options), folder)
    assert done.check.ok, done.check.reason
    return Made(inst, folder, toml)


@pytest.fixture(scope="module")
def made(tmp_path_factory) -> dict[str, Made]:
    diag = read_instance(DIAGONAL)
    rank = {"workers": 1, "symmetry": False}  # plain layers: the script does not read `symmetries` yet
    return {
        "word": _made(tmp_path_factory, "word", diag, DIAGONAL),
        "rank": _made(tmp_path_factory, "rank", DIAG3, method="rankbfs", **rank),
        "fill": _made(tmp_path_factory, "fill", diag, DIAGONAL, "rankbfs", max_moves=18, **rank),
        "forced": _made(
            tmp_path_factory, "forced", diag, DIAGONAL, "rankbfs", max_moves=18, heuristic="forced", **rank
        ),
        "perimeter": _made(tmp_path_factory, "perimeter", diag, DIAGONAL, "rankbfs", max_moves=18, perimeter=3, **rank),
        "graph": _made(tmp_path_factory, "graph", GRAPH, method="rankbfs", **rank),
    }


# --- the file itself -----------------------------------------------------------------------------


def test_the_referee_is_one_short_file_of_the_standard_library_and_numpy():
    text = REFEREE.read_text()
    assert len(text.splitlines()) < 800
    modules = set()
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.Import):
            modules |= {a.name.split(".")[0] for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            modules.add((node.module or "").split(".")[0])
    assert "coinsat" not in modules
    assert modules <= set(sys.stdlib_module_names) | {"numpy", "__future__"}, modules


# --- genuine certificates ------------------------------------------------------------------------


#: the h the script does not compute: h_fill stands in (a lower bound of each), and what it cannot decide is exit 3
STRONGER_H = ("forced", "perimeter")


@pytest.mark.parametrize("kind", ["word", "rank", "fill", "forced", "perimeter", "graph"])
def test_genuine_layers_certificates_are_accepted_by_both(made, kind):
    m = made[kind]
    code, line = referee(m.toml, m.folder)
    if kind in STRONGER_H and code == 3:  # a successor that h_fill asks for and the file's h does not
        assert m.agree(unchecked=True) == 3 and "decides whether" in line, line
        return
    assert m.agree() == 0
    assert line.startswith("accepted: layers certificate") and "proves 'optimal: " in line
    assert (m.cert.get("encoding") == "rank") == ("ranked layers" in line)


def test_the_lm_cut_h_is_not_checked_here_and_never_accepted(tmp_path_factory):
    m = _made(
        tmp_path_factory, "lmcut", DIAG3, None, "rankbfs", max_moves=6, heuristic="lmcut", workers=1, symmetry=False
    )
    code, line = referee(m.toml, m.folder)
    assert m.cert["h"] == "lmcut" and coinsat(m.inst, m.cert, m.folder) == 0
    if code == 0:  # accepted only if no successor needed the LM-cut value: checked as an unpruned closure
        assert m.agree() == 0
    else:
        assert code == 3 and 'the h "lmcut" decides whether' in line
    assert m.agree(dict(m.cert, claim="no solution with <= 6 moves", solution=None)) == 1  # rejected before h


def test_kinds_without_a_checker_here_say_so(tmp_path_factory):
    """Unsolvable (an invariant or a closed set) and SAT-proven answers: exit 3, not 0 or 1."""
    closed = make_instance("square", [(0, 0), (1, 0)], [(0, 0), (2, 0)], name="two-coins")
    tri = make_instance("triangular", [(0, 0), (1, 0), (0, 1)], [(1, 0), (0, 1), (1, 1)], name="tri")
    for inst in (closed, tri):
        m = _made(tmp_path_factory, inst.name, inst)
        code, line = referee(m.toml, m.folder)
        assert code == 3 and "not checked here" in line, line
        assert coinsat(m.inst, m.cert, m.folder) == 0
        # the digest (with the triangular margin) is still checked: another instance is rejected
        assert m.agree(dict(m.cert, instance={"name": "x", "digest": "0" * 64})) == 1


def test_a_zero_move_answer_is_a_replayed_solution(tmp_path_factory):
    inst = make_instance("square", [(0, 0), (1, 0), (0, 1)], [(0, 0), (1, 0), (0, 1)], name="already")
    m = _made(tmp_path_factory, "already", inst)
    assert m.cert["kind"] == "bounded" and m.cert["horizon"] == -1
    assert m.agree() == 0
    assert m.agree(dict(m.cert, solution=[[[0, 0], [1, 1]]])) == 1


# --- tampered certificates: both checkers must agree ----------------------------------------------


def _claims(m: Made) -> list[dict]:
    T = m.cert["horizon"]
    return [
        dict(m.cert, claim=f"no solution with <= {T + 1} moves", solution=None),  # false
        dict(m.cert, claim=f"no solution with <= {T - 2} moves", solution=None),  # weaker, true
        dict(m.cert, claim=f"optimal: {T + 1} moves (no solution with <= {T} moves)", solution=None),
        dict(m.cert, scope="global"),
        dict(m.cert, claim=f"optimal: {T + 2} moves (no solution with <= {T + 1} moves)"),
        dict(m.cert, solution=m.cert["solution"][:-1]),
        dict(m.cert, solution=m.cert["solution"][::-1]),
        dict(m.cert, layers_sha256="0" * 64),
        dict(m.cert, horizon=T + 1),
        dict(m.cert, instance=dict(m.cert["instance"], digest="1" * 64)),
        dict(m.cert, cells=m.cert["cells"][1:]),
        dict(m.cert, coinsat_certificate=2),
        dict(m.cert, kind="census"),
        dict(m.cert, layers="../" + m.cert["layers"]),
    ]


@pytest.mark.parametrize("kind", ["word", "rank", "graph"])
def test_tampered_claims_and_fields_get_the_same_verdict(made, kind):
    m = made[kind]
    verdicts = [m.agree(cert) for cert in _claims(m)]
    assert verdicts[1] == 0 and verdicts.count(1) >= 10


@pytest.mark.parametrize("kind", ["word", "rank", "fill", "forced", "perimeter"])
def test_tampered_layers_get_the_same_verdict(made, kind):
    """Equal verdicts; for an h the script does not compute it may say 3 instead (never 0 for a 1)."""
    m, undecided = made[kind], kind in STRONGER_H
    accepted, rejected = ({0, 3}, {1, 3}) if undecided else ({0}, {1})
    layers = m.layers()
    T = len(layers) - 1
    rank = m.cert.get("encoding") == "rank"
    full = [np.cumsum(x, dtype=U64) for x in layers] if rank else layers

    def stored(ls):
        return [np.diff(x, prepend=U64(0)) if rank and x.size else x for x in ls]

    middle = T // 2
    dropped = [np.delete(x, len(x) // 2) if i == middle else x for i, x in enumerate(full)]
    assert m.agree(m.with_layers(stored(dropped)), undecided) in rejected  # a configuration the closure needs is gone
    assert m.agree(m.with_layers(stored(full)), undecided) in accepted  # rewritten, unchanged
    fewer = m.with_layers(stored(full[:-1]), horizon=T - 1, claim=f"no solution with <= {T - 1} moves")
    assert m.agree(fewer, undecided) in accepted
    empty = full + [np.zeros(0, U64)]
    claim = f"no solution with <= {T + 1} moves"
    assert m.agree(m.with_layers(stored(empty), horizon=T + 1, claim=claim, solution=None), undecided) in rejected
    swapped = full[:middle] + [full[middle + 1], full[middle]] + full[middle + 2 :]
    assert m.agree(m.with_layers(stored(swapped)), undecided) in rejected
    if "upper_bound" in m.cert:
        for fields in ({"upper_bound": T - 1}, {"h": "fill"}, {"h": "astar"}):
            m.agree(dict(m.cert, **fields), undecided)
        m.agree(dict(m.cert, h="lmcut"), unchecked=True)
        m.agree(dict(m.cert, h={"kind": "perimeter", "r": 1, "inner": "forced"}), unchecked=True)
        m.agree(dict(m.cert, h={"kind": "perimeter", "r": 9, "inner": "fill"}), unchecked=True)


def test_a_random_round_of_forgeries_gets_the_same_verdicts(tmp_path_factory):
    """Small random puzzles, their ranked certificates mutated (states dropped, moved a layer
    later, an extra random state, the last layers emptied), as ranks and pruned with U = T."""
    rnd = random.Random(43)
    verdicts = []
    while len(verdicts) < 30:
        box = [(x, y) for x in range(3) for y in range(rnd.choice((2, 3)))]
        k = rnd.randrange(3, 5)
        start, goal = rnd.sample(box, k), rnd.sample(box, k)
        inst = make_instance("square", start, goal, name=f"r{len(verdicts)}")
        result = solve(inst, "rankbfs", workers=1, symmetry=False)
        if result.status.value != "optimal" or result.lower_bound < 3 or not inst.board.exact:
            continue
        m = _made(tmp_path_factory, inst.name, inst, None, "rankbfs", workers=1, symmetry=False)
        full = [np.cumsum(x, dtype=U64) for x in m.layers()]
        T = len(full) - 1
        top = math.comb(len(m.cert["cells"]), k)
        for kind in ("drop", "late", "extra", "empty"):
            ls = [x.copy() for x in full]
            i = rnd.randrange(1, T + 1)
            if kind in ("drop", "late") and ls[i].size:
                j = rnd.randrange(ls[i].size)
                moved, ls[i] = ls[i][j], np.delete(ls[i], j)
                if kind == "late" and i < T:
                    ls[i + 1] = np.union1d(ls[i + 1], [moved]).astype(U64)
            elif kind == "extra":
                ls[i] = np.union1d(ls[i], [rnd.randrange(top)]).astype(U64)
            else:
                ls = ls[:i] + [np.zeros(0, U64)] * (T + 1 - i)
            stored = [np.diff(x, prepend=U64(0)) if x.size else x for x in ls]
            for fields in ({}, {"upper_bound": T}):
                cert = m.with_layers(stored, claim=f"no solution with <= {T} moves", solution=None, **fields)
                verdicts.append(m.agree(cert))
    assert 0 < sum(verdicts) < len(verdicts)  # some accepted (true claims), some rejected


# --- census certificates, made by a brute force of their own -----------------------------------------


def _census(kind: str, cells: list, goal: set, d: int, folder: Path) -> dict:
    """Every configuration of len(goal) coins on ``cells``, its distance to ``goal`` by moves inside
    the window (a backward search over explicit moves), written as docs/certificates.md says."""
    n, N = len(goal), len(cells)
    index = {c: i for i, c in enumerate(cells)}

    def moves(config: frozenset):
        for s in config:
            rest = config - {s}
            for p in cells:
                if p not in config and sum(q in rest for q in geometry.neighbours(kind, p)) >= d:
                    yield rest | {p}

    configs = [frozenset(c) for c in itertools.combinations(cells, n)]
    into: dict = {c: [] for c in configs}
    for c in configs:
        for y in moves(c):
            into[y].append(c)
    dist, frontier = {frozenset(goal): 0}, [frozenset(goal)]
    while frontier:
        after = []
        for y in frontier:
            for x in into[y]:
                if x not in dist:
                    dist[x] = dist[y] + 1
                    after.append(x)
        frontier = after
    D = max(dist.values())

    def rank(config) -> int:
        return sum(math.comb(c, i + 1) for i, c in enumerate(sorted(index[x] for x in config)))

    layers = [sorted(rank(x) for x in dist if dist[x] == t) for t in range(D + 1)]
    syms = []
    for m in geometry.symmetries(kind):
        image = [geometry.apply(m, c) for c in cells]
        lo, hi = min(image), min(cells)
        moved = [(x - lo[0] + hi[0], y - lo[1] + hi[1]) for x, y in image]
        if set(moved) == set(cells) and {moved[index[g]] for g in goal} == set(goal):
            syms.append([index[c] for c in moved])
    hardest, covered = [], set()
    for x in sorted((x for x in dist if dist[x] == D), key=rank):
        pos = sorted(index[c] for c in x)
        if rank(x) not in covered:
            hardest.append(pos)
            covered |= {rank(cells[p[q]] for q in pos) for p in syms}
    outside = {q for c in cells for q in geometry.neighbours(kind, c)} - set(cells)
    closed = all(sum(q in cells for q in geometry.neighbours(kind, p)) < d for p in outside)
    total = math.comb(N, n)
    meta = {
        "format": "coinsat-census",
        "version": 1,
        "board": kind,
        "adjacency": d,
        "cells": [list(c) for c in cells],
        "goal": sorted(index[g] for g in goal),
        "closed": closed,
        "layer_sizes": [len(x) for x in layers],
        "max_distance": D,
        "reachable": len(dist),
        "configurations": total,
        "unsolvable": total - len(dist),
        "hardest": hardest,
        "symmetries": syms,
        "layers": "layers.npz",
    }
    folder.mkdir(parents=True, exist_ok=True)
    np.savez(folder / "layers.npz", **{f"layer_{t}": np.array(x, dtype=U64) for t, x in enumerate(layers)})
    (folder / "census.json").write_text(json.dumps(meta, indent=1))
    return meta


def _instance_toml(path: Path, kind: str, goal: set, d: int = 2) -> Path:
    coins = json.dumps([list(c) for c in sorted(goal)])
    path.write_text(f'board = "{kind}"\nadjacency = {d}\nstart = {coins}\ngoal = {coins}\n')
    return path


CENSUSES = {  # a 3 x 3 box, an L of five coins (D = 8); a triangle of ten cells, three coins in a corner (D = 6)
    "square": ([(x, y) for y in range(3) for x in range(3)], {(0, 0), (1, 0), (2, 0), (0, 1), (0, 2)}),
    "triangular": ([(x, y) for y in range(4) for x in range(4) if x + y <= 3], {(0, 0), (1, 0), (0, 1)}),
}


@pytest.mark.parametrize("kind", sorted(CENSUSES))
def test_a_brute_force_census_is_accepted_and_its_forgeries_rejected(tmp_path, kind):
    cells, goal = CENSUSES[kind]
    folder = tmp_path / "census"
    meta = _census(kind, cells, goal, 2, folder)
    toml = _instance_toml(tmp_path / "goal.toml", kind, goal)
    code, line = referee(toml, folder)
    assert code == 0 and f"{meta['reachable']} of {meta['configurations']} reach the goal" in line, line
    assert meta["unsolvable"] > 0 and meta["max_distance"] >= 2 and len(meta["symmetries"]) >= 2
    other = _instance_toml(tmp_path / "other.toml", kind, set(cells[-3:]))
    assert referee(other, folder)[0] == 1  # the census of another goal

    with np.load(folder / "layers.npz") as z:
        layers = [z[f"layer_{t}"] for t in range(meta["max_distance"] + 1)]

    def forged(change_meta=None, change_layers=None) -> tuple[int, str]:
        m, ls = json.loads(json.dumps(meta)), [x.copy() for x in layers]
        if change_layers:
            ls = change_layers(ls)
            m["layer_sizes"] = [len(x) for x in ls]
            m["reachable"] = sum(m["layer_sizes"])
            m["unsolvable"] = m["configurations"] - m["reachable"]
        if change_meta:
            change_meta(m)
        np.savez(folder / "layers.npz", **{f"layer_{t}": x for t, x in enumerate(ls)})
        (folder / "census.json").write_text(json.dumps(m))
        try:
            return referee(toml, folder)
        finally:
            np.savez(folder / "layers.npz", **{f"layer_{t}": x for t, x in enumerate(layers)})
            (folder / "census.json").write_text(json.dumps(meta))

    def later(ls):  # a configuration of layer 1 said to be one move further
        x, ls[1] = ls[1][0], ls[1][1:]
        ls[2] = np.union1d(ls[2], [x]).astype(U64)
        return ls

    assert forged()[0] == 0
    assert "closure" in forged(change_layers=lambda ls: [ls[0], ls[1][1:], *ls[2:]])[1]
    assert forged(change_layers=later)[0] == 1
    shorter = forged(
        change_layers=lambda ls: ls[:-1], change_meta=lambda m: m.update(max_distance=m["max_distance"] - 1)
    )
    assert shorter[0] == 1
    assert forged(change_meta=lambda m: m.update(unsolvable=m["unsolvable"] - 1))[0] == 1
    assert forged(change_meta=lambda m: m.update(closed=not m["closed"]))[0] == 1
    assert forged(change_meta=lambda m: m.update(symmetries=m["symmetries"][:1]))[0] == 1
    assert forged(change_meta=lambda m: m.update(hardest=m["hardest"][1:]))[0] == 1
    assert forged(change_meta=lambda m: m.update(hardest=m["hardest"] + m["hardest"][:1]))[0] == 1
    assert forged(change_meta=lambda m: m.update(version=2))[0] == 1
    assert forged(change_meta=lambda m: m.update(layers="../layers.npz"))[0] == 1


@pytest.mark.parametrize("kind", ["square", "triangular"])
def test_a_census_made_by_coinsat_gets_the_same_verdict_as_its_forgeries(tmp_path, kind):
    """``coinsat census`` itself (not the brute force above), on diagonal-3 and on three coins of the
    triangular grid: accepted by both checkers, and each tampering rejected by both."""
    from coinsat.census import census, write_certificate

    if kind == "square":
        inst = read_instance(ROOT / "instances" / "families" / "diagonal-3.toml")
    else:
        inst = make_instance("triangular", [(0, 0), (1, 0), (0, 1)], [(1, 0), (0, 1), (1, 1)], name="tri")
    folder = tmp_path / "census"
    write_certificate(census(inst, workers=1), folder)
    toml = tmp_path / "puzzle.toml"
    write_instance(inst, toml)
    meta = json.loads((folder / "census.json").read_text())

    def both(m: dict) -> int:
        (folder / "census.json").write_text(json.dumps(m))
        want = 0 if check_certificate(inst, m, folder).ok else 1
        code, line = referee(toml, folder)
        assert code == want, (want, line)
        return code

    assert both(meta) == 0
    assert both(dict(meta, max_distance=meta["max_distance"] + 1)) == 1
    assert both(dict(meta, closed=not meta["closed"])) == 1
    assert both(dict(meta, hardest=meta["hardest"][1:] or [[0] * len(meta["goal"])])) == 1
    assert both(dict(meta, reachable=meta["reachable"] - 1)) == 1
    assert both(dict(meta, symmetries=meta["symmetries"] + [meta["symmetries"][0][::-1]])) == 1


def test_bad_input_is_exit_2(tmp_path):
    assert referee(tmp_path / "missing.toml", tmp_path)[0] == 2
    (tmp_path / "bad.toml").write_text('board = "hexagonal"\nstart = [[0, 0]]\ngoal = [[0, 0]]\n')
    assert referee(tmp_path / "bad.toml", tmp_path)[0] == 2
    assert referee(DIAGONAL, tmp_path)[0] == 2  # no certificate in the folder


# --- the checker-fuzz corpus (lab/checker_fuzz.py) on the layers seeds -------------------


@pytest.fixture(scope="module")
def fuzz_seeds(tmp_path_factory):
    plan = [p for p in checker_fuzz.SEED_PLAN if p[2] in ("layers-word", "layers-rank", "unsolvable-b")]
    return checker_fuzz.make_seeds(ROOT, tmp_path_factory.mktemp("fuzz-seeds"), plan)


def test_the_checker_fuzz_mutations_get_the_same_verdicts(fuzz_seeds, tmp_path):
    """The fuzz harness's mutations (structural and byte level) of genuine layers certificates:
    check-certificate's exit code and the script's must be equal, except that the script may say
    "not checked here" (exit 3) for a kind it does not re-check (the unsolvable seed's closed set)."""
    rng = random.Random(20261207)
    codes = []
    for case in range(60):
        seed = fuzz_seeds[case % len(fuzz_seeds)]
        cert, files = copy.deepcopy(seed.cert), dict(seed.files)
        names = rng.sample(sorted(checker_fuzz.MUTATIONS), rng.randint(1, 3))
        for name in names:
            with contextlib.suppress(Exception):  # a mutation that does not apply to this seed
                checker_fuzz.MUTATIONS[name](rng, cert, files, fuzz_seeds)
        folder = tmp_path / f"case{case}"
        folder.mkdir()
        path = checker_fuzz._write(folder, cert, files, rng if "json-bytes" in names else None)
        want, _, _ = checker_fuzz._cli(["check-certificate", str(seed.puzzle), str(path), "--time-limit", "60"])
        code, line = referee(seed.puzzle, path)
        if want == 3:  # a limit: no verdict to compare
            continue
        unchecked = isinstance(cert, dict) and cert.get("kind") != "layers" and code == 3  # said so, not accepted
        assert code == want or unchecked, (seed.name, names, want, line)
        codes.append(code)
    assert codes.count(0) and codes.count(1) and len(codes) >= 50


def test_every_kind_the_checker_accepts_has_its_section_in_the_specification():
    from coinsat.certificates.check import CHECKERS

    text = (ROOT / "docs" / "certificates.md").read_text()
    for kind in [*CHECKERS, "census"]:
        assert f"\n### `{kind}`\n" in text, f"docs/certificates.md has no section for the kind {kind!r}"


def _shipped_puzzles() -> list[str]:
    """Every puzzle file, but of the census's hardest starts (instances/census/, hundreds of
    configurations on the same few boxes) only the first of each folder."""
    files, seen = [], set()
    for p in sorted((ROOT / "instances").rglob("*.toml")):
        rel = p.relative_to(ROOT)
        if rel.parts[1] == "census":
            if p.parent in seen:
                continue
            seen.add(p.parent)
        files.append(str(rel))
    return files


@pytest.mark.parametrize("puzzle", _shipped_puzzles())
def test_the_script_reads_every_shipped_puzzle_to_the_same_digest(puzzle, tmp_path):
    """Its own TOML reading, pictures, labels, windows and digest against coinsat's, on every
    puzzle file of the repository: a certificate of a kind it does not check, bound by coinsat's
    digest, passes the digest (exit 3, not 1); cubic and plane boards are not read (exit 3)."""
    from coinsat.certificates.check.format import header, instance_digest

    text = (ROOT / puzzle).read_text()
    cert = {"kind": "inductive", "scope": "global", "claim": "unsolvable", "instance": {"name": "x", "digest": "0"}}
    if 'board = "plane"' not in text and 'board = "cubic"' not in text:
        inst = read_instance(ROOT / puzzle)
        cert = header(inst, "inductive", "global", "unsolvable")
        assert cert["instance"]["digest"] == instance_digest(inst)
    (tmp_path / "x.certificate.json").write_text(json.dumps(cert))
    code, line = referee(ROOT / puzzle, tmp_path)
    assert code == 3 and ("inductive certificates" in line) == (cert["instance"]["digest"] != "0"), line


# --- bounded certificates with an LRAT proof (docs/certificates.md, "LRAT proofs") -------------------

LRAT_PUZZLES = {  # a square window, a triangular one widened by a margin, labels, translated goals, a graph
    "h-to-o": lambda: read_instance(ROOT / "instances" / "paper" / "h-to-o.toml"),
    "tri": lambda: make_instance(  # optimum 5: R_4 leaves the board, so the window is widened (margin 3)
        "triangular", [(0, 2), (2, 1), (0, 1), (2, 0)], [(1, 2), (0, 0), (0, 1), (1, 1)], name="tri"
    ),
    "swap5-a": lambda: read_instance(ROOT / "instances" / "paper" / "swap5-a.toml"),  # labels, optimum 8
    "translate": lambda: make_instance(  # optimum 3, two placements
        "square", [(0, 0), (0, 2), (2, 2), (2, 1)], [(2, 1), (1, 0), (2, 2), (1, 1)], goal_placement="translate"
    ),
    "graph": lambda: GRAPH,
}


@pytest.fixture(scope="module")
def lrat(tmp_path_factory) -> dict[str, Made]:
    from coinsat.certify import certify as certify_answer

    out = {}
    for name, make in LRAT_PUZZLES.items():
        inst = make()
        folder = tmp_path_factory.mktemp("lrat") / name
        done = certify_answer(inst, folder, lrat=True)
        assert done.check is not None and done.check.ok, done
        out[name] = Made(inst, folder)
    return out


@pytest.mark.parametrize("name", sorted(LRAT_PUZZLES))
def test_genuine_lrat_certificates_are_accepted_by_both(lrat, name):
    m = lrat[name]
    assert m.cert["proof_format"] == "lrat" and m.cert["encoding"] == "core" and m.cert["horizon"] >= 2
    assert m.agree() == 0
    code, line = referee(m.toml, m.folder)
    assert line.startswith("accepted: bounded certificate") and "LRAT proof of F_T" in line, line
    if name == "tri":  # the window was widened to hold R_T: the bound is global
        assert m.cert["margin"] is not None and m.cert["window_exact"]


def _proof_lines(m: Made) -> list[str]:
    return (m.folder / m.cert["proof"]).read_text().splitlines()


def _with_proof(m: Made, lines: list[str], **fields) -> dict:
    (m.folder / "forged.lrat").write_text("\n".join(lines) + "\n")
    return dict(m.cert, proof="forged.lrat", **fields)


def test_forged_lrat_certificates_are_rejected_by_both(lrat):
    m, other = lrat["h-to-o"], lrat["swap5-a"]
    lines = _proof_lines(m)
    T = m.cert["horizon"]
    lemmas = [i for i, line in enumerate(lines) if line.split()[1] != "d"]
    first, last = lemmas[0], lemmas[-1]
    wrong = lines.copy()  # a hint of the empty clause's line replaced by the formula's first clause
    words = wrong[last].split()
    wrong[last] = " ".join(words[:-2] + ["1", "0"])
    bare = {"cnf": None, "cnf_gbd_hash": None}  # the proof alone must then carry the check
    forged = [
        _with_proof(m, wrong),  # a wrong hint
        _with_proof(m, lines[:first] + lines[first + 1 :]),  # a missing step
        _with_proof(m, lines[:last]),  # no empty clause
        _with_proof(m, _proof_lines(other), **bare),  # a proof of a different formula
        dict(m.cert, horizon=T + 1, claim=f"no solution with <= {T + 1} moves", solution=None),  # a larger U
        dict(m.cert, horizon=T + 1, claim=f"no solution with <= {T + 1} moves", solution=None, **bare),
        dict(m.cert, encoding={"noop": True}),  # LRAT is checked against the core formula only
        dict(m.cert, window_exact=not m.cert["window_exact"]),
        dict(m.cert, cnf_gbd_hash="0" * 32),
        dict(m.cert, claim=f"no solution with <= {T + 1} moves", solution=None),
        dict(m.cert, proof_format="lrat-x"),
    ]
    for cert in forged:
        assert m.agree(cert) == 1, cert
    copy = m.folder / m.cert["cnf"]
    text = copy.read_bytes()
    copy.write_bytes(text.replace(b"horizon", b"Horizon", 1))  # one byte of a comment of the copy
    try:
        assert m.agree() == 1
    finally:
        copy.write_bytes(text)
    assert m.agree(dict(m.cert, solver="minisat22", **bare)) == 0  # the solver is informational for LRAT
    assert m.agree(dict(m.cert, claim=f"no solution with <= {T - 1} moves", solution=None)) == 0  # weaker
    assert m.agree(dict(m.cert, proof_format="drat"), unchecked=True) in (1, 3)  # the script checks no DRAT


def test_lrat_of_another_instance_or_horizon_never_passes(lrat):
    """Every genuine proof, put in every other certificate: rejected by both (its formula differs)."""
    for name, m in lrat.items():
        for other_name, other in lrat.items():
            if other_name != name:
                forged = _with_proof(m, _proof_lines(other), cnf=None, cnf_gbd_hash=None)
                assert m.agree(forged) == 1, (name, other_name)


# --- quotient layers (docs/symmetry.md): the group verified, closure on the orbits' least keys ------------


def test_the_referee_checks_quotient_layers_and_their_group(tmp_path):
    """A default rankbfs certificate of the paper's diagonal keeps one configuration per orbit of the
    symmetries fixing start and goal; the script verifies the group itself (permutations, a group, each
    keeping the neighbours, the start and the goal set) and canonicalises with its own code.  Genuine and
    forged, its verdict equals coinsat's."""
    inst = read_instance(DIAGONAL)
    done = certify(inst, solve(inst, "rankbfs", workers=1), tmp_path)
    assert done.check.ok
    cert = json.loads(done.path.read_text())
    assert len(cert["symmetries"]) == 4
    code, line = referee(DIAGONAL, tmp_path)
    assert code == 0 and "per orbit of 4 symmetries" in line, line
    n = inst.board.size
    ident, (a, b) = list(range(n)), (0, n - 1)  # two corners: swapping them alone keeps nothing
    swap = ident.copy()
    swap[a], swap[b] = b, a
    forged = {
        "no group": None,
        "not a group": cert["symmetries"][:3],
        "no identity": cert["symmetries"][1:],
        "not a permutation": [ident, [0] * n],
        "not an automorphism": [ident, swap],
        "a float": [[float(q) for q in p] for p in cert["symmetries"]],
    }
    for why, group in forged.items():
        bad = {k: v for k, v in cert.items() if k != "symmetries"}
        if group is not None:
            bad["symmetries"] = group
        done.path.write_text(json.dumps(bad))
        ours, (theirs, line) = coinsat(inst, bad, tmp_path), referee(DIAGONAL, tmp_path)
        assert ours == theirs == 1, (why, ours, theirs, line)


def test_a_claim_number_with_a_leading_zero_is_rejected_by_both(tmp_path):
    """R4-6: only the canonical spelling of a number is a claim ('<= 03 moves' is not one)."""
    h_to_o = ROOT / "instances" / "paper" / "h-to-o.toml"
    inst = read_instance(h_to_o)
    done = certify(inst, solve(inst, "spanbfs"), tmp_path)
    cert = json.loads(done.path.read_text())
    assert cert["claim"] == "optimal: 4 moves (no solution with <= 3 moves)"
    for claim in ("optimal: 04 moves (no solution with <= 3 moves)", "optimal: 4 moves (no solution with <= 03 moves)"):
        bad = dict(cert, claim=claim)
        done.path.write_text(json.dumps(bad))
        ours, (theirs, line) = coinsat(inst, bad, tmp_path), referee(h_to_o, tmp_path)
        assert ours == theirs == 1, (claim, line)


# --- the fuzz regressions: every saved certificate input, both checkers ------------------------------


def _regressions() -> list[Path]:
    root = ROOT / "tests" / "data" / "fuzz_regressions"
    return sorted(
        p for p in root.iterdir() if json.loads((p / "case.json").read_text())["argv"][0] == "check-certificate"
    )


@pytest.mark.parametrize("case", _regressions(), ids=lambda p: p.name)
def test_the_saved_fuzz_regressions_get_the_same_verdict(case):
    """Every certificate the fuzz harness saved (tests/data/fuzz_regressions): the script's verdict equals
    check-certificate's exit code, or is 3 (not checked here); never an acceptance coinsat refuses."""
    argv = [a.replace("{dir}", str(case)) for a in json.loads((case / "case.json").read_text())["argv"]]
    ours = subprocess.run(
        [sys.executable, "-m", "coinsat", *argv, "--time-limit", "60"], capture_output=True, text=True, timeout=300
    ).returncode
    theirs, line = referee(Path(argv[1]), Path(argv[2]))
    assert theirs in (ours, 3), (ours, line)
