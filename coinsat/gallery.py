"""A static gallery of puzzles: one page per puzzle, and an index (``coinsat gallery DIR``).

The puzzles are the ``*.toml`` files of a folder, or of its subfolders (one heading each, as in a
checkout's ``instances/``); by default the puzzles shipped with coinsat (``coinsat/data``, the
paper's).  Each page shows the start and goal, what coinsat proves about the puzzle (status,
moves, lower bound, and the certificate of the proof: its kind, its claim, and that the
independent checker accepted it), the best solution animated (an SVG with SMIL in a plain <img>)
and stepped through with controls, and links to the previous, next and index pages.  The index
is a grid of cards that reflows to one column on a phone.

Answers are read, not re-solved.  In this order:

* a family member's recorded solution (``<folder>/solutions/<name>.json``) with the proofs the
  family studies stored beside the instance folder (a checkout's ``benchmarks/``:
  ``vfamily_results.json`` (runs and accepted certificates), ``diagonal_flips.json`` and
  ``scale_proofs.json``); the member is optimal when a proven lower bound meets the recorded
  solution's length (V(4,3)->NW-SE: optimal 95);
* the stored answers (``benchmarks/gallery_answers.json`` beside the folder, else the copy shipped
  with coinsat, ``coinsat/data/gallery_answers.json``), written by ``scripts/gallery.py --refresh``
  (``lab.gallery``): for each file ``coinsat solve --json``, ``coinsat certify --json``
  (build and check a certificate) and ``coinsat check-certificate`` in a fresh process, and, when
  the solve found no solution, ``coinsat construct``; each answer is kept under
  ``<folder>/<file>`` with the sha256 of the instance file it is for (a stale answer is not shown);
* free-plane puzzles (``board = "plane"``): ``benchmarks/plane.md`` (``scripts/plane_study.py``).

Every solution shown is replayed by ``coinsat.verify`` before it is drawn.  :func:`build` with
``solve_missing`` T solves, with T seconds each, the puzzles that have no stored answer (None:
none are solved; the page says the answer is missing).
"""

from __future__ import annotations

import hashlib
import html
import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Sequence

from .draw import STYLE, draw_picture, replay, start_goal, step_labels, steps
from .draw.html import PAGE_HEAD, page
from .draw.layout import layout
from .draw.scene import frame
from .errors import CoinsatError, InstanceError, UsageError
from .instance import Instance
from .io.atomic import write_atomic
from .io.instance_format import DATA, parse_instance, read_instance
from .io.solution_format import parse_solution, read_solution
from .result import Status
from .solution import Solution, verify
from .solve import solve

#: the answers stored for the shipped puzzles (a link to the checkout's benchmarks/gallery_answers.json)
PACKAGED_ANSWERS = DATA / "gallery_answers.json"
#: the folders of instances/ in index order, with their headings; any other folder follows, by name
TITLES = {
    "paper": "The paper's puzzles",
    "families": "Families (V-to-diagonal, diagonals)",
    "counterexamples": "Counterexamples",
    "open-problems": "Open problems",
    "regressions": "Regressions (the square construction's former failures)",
}
#: pages step through at most this many moves with controls (the animation shows any length)
MAX_FRAMES = 150
#: a page draws a board at least this wide (pixels; a small board is drawn larger, up to MAX_SCALE)
PAGE_WIDTH = 440.0
MAX_SCALE = 2.0


def picture_scale(instance: Instance, lay) -> float:
    """The scale of a page's pictures: a small board drawn larger (up to MAX_SCALE), a large one
    at 1 (the page's CSS fits any picture to a phone's width)."""
    width = frame(lay, ("start",), STYLE).width
    return max(1.0, min(MAX_SCALE, PAGE_WIDTH / width))


@dataclass(frozen=True)
class Source:
    """A gallery's puzzles and where their answers come from (:func:`source`)."""

    #: (folder, file) in index order; a folder is a heading and the first part of an answer's key
    files: tuple[tuple[str, Path], ...]
    #: folder -> heading, in index order
    titles: dict[str, str]
    #: how the pages name a file: ``label + "paper/diagonal.toml"`` ("" for the shipped puzzles,
    #: whose names coinsat solve takes as they are)
    label: str
    #: the family studies' results beside the folder (a checkout's benchmarks/), or None
    bench: Path | None
    #: the stored answers (None: none)
    answers: Path | None


def source(
    instances: str | Path | None = None, answers: str | Path | None = None, only: Sequence[str] | None = None
) -> Source:
    """The puzzles of ``instances`` (None: the shipped ones): its ``*.toml`` files, and those of
    its subfolders.  ``answers`` None: ``benchmarks/gallery_answers.json`` beside the folder when
    there is one, else the copy shipped with coinsat.  ``only``: these file stems only.
    UsageError (one line) for a folder that is missing or holds no instance file."""
    folder = DATA if instances is None else Path(instances)
    if not folder.is_dir():
        raise UsageError(f"{folder}: {'no such folder' if not folder.exists() else 'not a folder'}")
    found: dict[str, list[Path]] = {}
    direct = sorted(folder.glob("*.toml"))
    if direct:  # a folder of puzzles: one heading, named after it
        found[folder.resolve().name] = direct
    for sub in sorted(p for p in folder.iterdir() if p.is_dir()):
        inside = sorted(sub.glob("*.toml"))
        if inside:
            found.setdefault(sub.name, []).extend(inside)
    if not found:
        raise UsageError(f"{folder}: no instance files (*.toml) in it or in its subfolders")
    ordered = [g for g in TITLES if g in found] + sorted(g for g in found if g not in TITLES)
    files = tuple((g, p) for g in ordered for p in found[g] if not only or p.stem in only)
    if only and not files:
        raise UsageError(f"{folder}: none of {', '.join(only)} is a puzzle there")
    top = folder.resolve().parent if direct else folder.resolve()  # it holds the headings' folders ("." too)
    bench = top.parent / "benchmarks" if instances is not None else None
    if bench is not None and not bench.is_dir():
        bench = None
    if answers is None:
        stored = bench / "gallery_answers.json" if bench is not None else None
        answers = stored if stored is not None and stored.is_file() else PACKAGED_ANSWERS
    elif not Path(answers).is_file():
        raise UsageError(f"{answers}: no such file (the stored answers)")
    label = "" if instances is None else f"{top.name}/"
    titles = {g: TITLES.get(g, g.replace("-", " ").capitalize()) for g in ordered}
    return Source(files, titles, label, bench, Path(answers))


@dataclass(frozen=True)
class Answer:
    """What is known about a puzzle, and where it comes from."""

    status: str  # optimal, feasible, unsolvable, bounded, unknown, or "missing" (nothing stored)
    length: int | None = None
    lower_bound: int | None = None
    certificate: str = "—"  # short, for the index: "layers ✓" / "—"
    proof: list[str] = field(default_factory=list)  # the page's lines on the proof and its check
    provenance: list[str] = field(default_factory=list)  # where the answer and the moves come from
    solution: Solution | None = None


@dataclass(frozen=True)
class Entry:
    group: str
    path: Path
    instance: Instance | None  # None: not drawable by coinsat.draw (why in ``note``)
    answer: Answer
    note: str = ""
    #: how the page names the file ("instances/paper/diagonal.toml"; "paper/diagonal.toml" if shipped)
    file: str = ""

    @property
    def slug(self) -> str:
        return slug(self.group, self.path.stem)

    @property
    def name(self) -> str:
        return self.instance.name if self.instance is not None else self.path.stem


def slug(group: str, stem: str) -> str:
    """The file name (without extension) of a puzzle's page: letters, digits, '.', '_' and '-'
    only, so a hostile folder or file name (quotes, '<', '/') can never become markup or a path;
    a name that had to be changed gets a short hash of the original, so two names never meet."""
    raw = f"{group}-{stem}"
    safe = re.sub(r"[^A-Za-z0-9._-]+", "_", raw).strip(".") or "puzzle"
    if safe != raw:
        safe += "-" + hashlib.sha256(raw.encode()).hexdigest()[:8]
    return safe


def _attr(text: str) -> str:
    """Text for an HTML attribute value (quotes included)."""
    return html.escape(text, quote=True)


def sha256(path: Path) -> str:
    """The sha256 hex digest of a file's bytes (a stored answer names the instance file it is for by it)."""
    return hashlib.sha256(path.read_bytes()).hexdigest()


def load_json(path: Path) -> dict:
    """The JSON object in ``path`` ({} when there is no such file; UsageError when it is malformed)."""
    if not path.exists():
        return {}
    try:
        found = json.loads(path.read_text())
    except (json.JSONDecodeError, UnicodeDecodeError) as e:
        raise UsageError(f"{path}: malformed JSON: {e}") from None
    if not isinstance(found, dict):
        raise UsageError(f"{path}: not a JSON object")
    return found


def _study(bench: Path | None, name: str) -> dict:
    """A family study's stored results (``bench/name``), {} when there are none."""
    return load_json(bench / name) if bench is not None else {}


# ---------------------------------------------------------------- answers from the stored results


def _certificate_lines(kind: str, cert: dict, where: str) -> str:
    claim = cert.get("claim") or "?"
    checked = cert.get("check_seconds")
    took = f", checked in {round(checked, 1):g} s" if isinstance(checked, (int, float)) else ""
    return f"{kind} certificate: {claim}; accepted by the independent checker{took} ({where})"


def family_answer(
    path: Path, instance: Instance, stored: dict, bench: Path | None = None, label: str = "instances/"
) -> tuple[Instance, Answer] | None:
    """A family member's recorded solution and the proofs the family studies stored in ``bench``
    (None: none)."""
    recorded = path.parent / "solutions" / f"{path.stem}.json"
    if not recorded.exists():
        return None
    instance, solution = read_solution(instance, recorded)
    if not verify(instance, solution).ok:
        raise InstanceError("the recorded solution does not verify", str(recorded), None)
    record = json.loads(recorded.read_text())
    name = path.stem
    bounds: list[tuple[int, str]] = []
    if isinstance(record.get("lower_bound"), int):
        bounds.append((record["lower_bound"], f"the solution record ({record.get('method', '?')})"))
    proof: list[str] = []
    kinds: list[str] = []
    vfam = _study(bench, "vfamily_results.json").get(name, {})
    for method, run in sorted(vfam.get("runs", {}).items()):
        if isinstance(run.get("lower_bound"), int):
            bounds.append((run["lower_bound"], f"{method}: {run.get('status')} (benchmarks/vfamily_results.json)"))
    for kind, cert in sorted(vfam.get("certificates", {}).items()):
        if cert.get("accepted"):
            kinds.append(kind)
            proof.append(_certificate_lines(kind, cert, "benchmarks/vfamily_results.json"))
    flips = _study(bench, "diagonal_flips.json")
    k = name.removeprefix("diagonal-")
    if name.startswith("diagonal-") and k in flips:
        for method, run in sorted(flips[k].get("runs", {}).items()):
            if isinstance(run.get("lower_bound"), int):
                bounds.append((run["lower_bound"], f"{method}: {run.get('status')} (benchmarks/diagonal_flips.json)"))
        for kind, cert in sorted(flips[k].get("certificates", {}).items()):
            if cert.get("accepted") and kind not in kinds:
                kinds.append(kind)
                proof.append(_certificate_lines(kind, cert, "benchmarks/diagonal_flips.json"))
    pinwheel = _study(bench, "pinwheel_results.json").get("exact", {}).get(name)
    if pinwheel and (pinwheel.get("check") or {}).get("accepted"):  # benchmarks/pinwheel.md's exact optima
        check = pinwheel["check"]
        kind = "ranked layers" if "ranked layers" in str(check.get("reason")) else str(pinwheel["certify"]["kind"])
        if kind not in kinds:
            kinds.append(kind)
            checked = {"claim": check.get("claim"), "check_seconds": check.get("cpu")}
            proof.append(_certificate_lines(kind, checked, "benchmarks/pinwheel_results.json"))
    scale = _study(bench, "scale_proofs.json").get(name)
    if scale and (scale.get("check") or {}).get("check_ok"):
        check, solved = scale["check"], scale.get("solve", {})
        if isinstance(solved.get("lower_bound"), int):
            bounds.append((solved["lower_bound"], "rankbfs (benchmarks/scale_proofs.json)"))
        if "ranked layers" not in kinds:
            kinds.append("ranked layers")
            proof.append(
                _certificate_lines(
                    "ranked layers",
                    {**check, "check_seconds": round(check.get("check_cpu", 0))},
                    "benchmarks/scale_proofs.json",
                )
            )
    for census in _study(bench, "census-bounds.json").values():  # a census start's checked bound (census-8.md)
        start = Path(str(census.get("start", ""))) if isinstance(census, dict) else Path()
        if (start.parent.name, start.stem) == (path.parent.name, name):
            if isinstance(census.get("lower"), int):
                bounds.append((census["lower"], f"{census.get('proof')} (benchmarks/census-bounds.json)"))
    extra = stored.get("certificate")  # a certificate the refresh made and checked (with the command to remake it)
    if extra and extra.get("accepted") and extra.get("kind") not in kinds:
        kinds.append(extra["kind"])
        proof.append(_stored_certificate_line(extra))
    for line in proof:  # an accepted certificate of "no solution with <= K moves" proves the bound K + 1
        for k in re.findall(r"no solution with <= (\d+) moves", line):
            bounds.append((int(k) + 1, line.split(":")[0] + " (accepted by the independent checker)"))
    ub = len(solution)
    # the largest proven bound; on a tie an engine's run is named before the record that copied it
    lb, lb_from = (
        max(bounds, key=lambda b: (b[0], not b[1].startswith("the solution record"))) if bounds else (None, "")
    )
    optimal = lb is not None and lb >= ub
    status = "optimal" if optimal else "feasible"
    if optimal and not proof:
        proof.append(
            f"exhaustive search: {lb_from} proved no solution with fewer than {ub} moves (no certificate file stored)"
        )
    if not optimal and lb is not None:
        proof.append(f"lower bound {lb}: {lb_from}")
    if not optimal and record.get("status") == "optimal":
        proof.append("the solution record says 'optimal', but no stored result proves the bound: shown as feasible")
    provenance = [
        f"moves: {label}{path.parent.name}/solutions/{recorded.name} (method {record.get('method', '?')}), "
        "replayed by coinsat verify",
    ]
    if optimal:
        provenance.append(f"the lower bound {lb}: {lb_from}")
    short = " + ".join(f"{k} ✓" for k in kinds) if kinds else ("exhaustive search" if optimal else "—")
    return instance, Answer(status, ub, lb, short, proof, provenance, solution)


def _stored_certificate_line(cert: dict) -> str:
    took = cert.get("check_seconds")
    took_text = f" in {took:g} s" if isinstance(took, (int, float)) else ""
    again = f"; to make and check it again: {cert['command']}" if cert.get("command") else ""
    return (
        f"{cert.get('kind')} certificate ({cert.get('scope')} scope): {cert.get('claim')}; accepted by "
        f"coinsat check-certificate in a fresh process{took_text} (benchmarks/gallery_answers.json){again}"
    )


def stored_answer(instance: Instance, record: dict) -> tuple[Instance, Answer]:
    """An answer of benchmarks/gallery_answers.json (moves replayed by coinsat verify)."""
    solution = None
    moves_from = record.get("moves_from", record.get("method", "?"))
    if record.get("moves") is not None and record.get("status") in ("optimal", "feasible"):
        instance, solution = parse_solution(instance, json.dumps({"moves": record["moves"]}), "gallery_answers.json")
        if not verify(instance, solution).ok:
            raise InstanceError(f"the stored moves of {instance.name} do not verify", "gallery_answers.json", None)
    status = record["status"]
    cert = record.get("certificate")
    proof, short = [], "—"
    if cert and cert.get("accepted"):
        proof.append(_stored_certificate_line(cert))
        short = f"{cert.get('kind')} ✓"
    elif cert:
        proof.append(f"no certificate: {cert.get('why', 'not accepted')}")
    lb = record.get("lower_bound")
    if status in ("unknown", "bounded", "feasible") and lb is not None:
        proof.append(f"lower bound {lb}: {record.get('method', '?')} within {record.get('time_limit', '?')} s")
    provenance = [
        f"{record.get('command', 'coinsat solve')} ({record.get('method', '?')}, {record.get('seconds', 0):.2f} s; "
        f"stored in benchmarks/gallery_answers.json on {record.get('made', '?')})"
    ]
    if solution is not None:
        provenance.append(f"moves: {moves_from}, replayed by coinsat verify")
    length = len(solution) if solution is not None else record.get("length")
    return instance, Answer(status, length, lb, short, proof, provenance, solution)


def plane_answer(path: Path, bench: Path | None = None) -> Answer:
    """A free-plane puzzle's row of ``bench``/plane.md (scripts/plane_study.py; None: no table)."""
    table = bench / "plane.md" if bench is not None else None
    rel = f"instances/{path.parent.name}/{path.name}"  # how the table names its rows
    for line in table.read_text().splitlines() if table is not None and table.exists() else []:
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if cells and cells[0] == rel and len(cells) >= 5:
            found = int(cells[2]) if cells[2].isdigit() else None
            none_up_to = int(cells[3]) if cells[3].isdigit() else None
            optimal = cells[4] == "yes"
            status = "optimal" if optimal else ("feasible" if found else "unknown")
            lb = none_up_to + 1 if none_up_to is not None else None
            proof = [
                f"exact search over every placement of the goal (scripts/plane_study.py): no solution with <= "
                f"{none_up_to} moves" + (f"; a solution of {found} moves replayed exactly" if found else "")
            ]
            return Answer(
                status,
                found,
                lb,
                "exhaustive search" if optimal else "—",
                proof,
                ["benchmarks/plane.md (free-plane moves are not drawn here: coordinates leave the grid)"],
            )
    return Answer("missing", provenance=["no row in benchmarks/plane.md"])


def is_plane(path: Path) -> bool:
    """Is the instance file at ``path`` a free-plane puzzle (``board = "plane"``)?"""
    return re.search(r'^board\s*=\s*"plane"', path.read_text(), re.M) is not None


def _exact(v) -> str:
    return "(" + ", ".join(str(x) for x in v) + ")" if isinstance(v, list) else str(v)


def plane_stored(record: dict) -> Answer:
    """A free-plane answer of gallery_answers.json (coinsat solve's plane engine); the moves, in
    exact coordinates, are listed (coinsat verify replays them: the command is on the page)."""
    moves = record.get("moves") or []
    listed = "; ".join(f"{_exact(a)} → {_exact(b)}" for a, b in moves)
    proof = []
    if record["status"] == "optimal":
        proof.append(
            f"exact search over every placement of the goal (coinsat solve, method plane): no solution with "
            f"<= {record['length'] - 1} moves; the {record['length']}-move solution replayed exactly"
        )
    elif record.get("lower_bound") is not None:
        proof.append(
            f"lower bound {record['lower_bound']}: coinsat solve, method plane, within {record['time_limit']} s"
        )
    provenance = [
        f"{record.get('command')} ({record.get('method')}, {record.get('seconds', 0):.2f} s; stored in "
        f"benchmarks/gallery_answers.json on {record.get('made', '?')})"
    ]
    if listed:
        provenance.append(f"moves (exact coordinates): {listed}")
    short = "exhaustive search" if record["status"] == "optimal" else "—"
    return Answer(record["status"], record.get("length"), record.get("lower_bound"), short, proof, provenance)


def plane_picture(path: Path) -> Instance | None:
    """Start and goal of a plane puzzle whose pictures are on its grid, as a lattice instance
    (only to draw them: the moves of the free plane are not lattice moves)."""
    text = path.read_text()
    grid = re.search(r'^grid\s*=\s*"(square|triangular)"', text, re.M)
    kind = grid.group(1) if grid else "square"
    text = re.sub(r'^board\s*=\s*"plane"', f'board = "{kind}"', text, flags=re.M)
    text = re.sub(r"^grid\s*=.*$", "", text, flags=re.M)
    try:
        return parse_instance(text, str(path))
    except CoinsatError:
        return None


def entry(
    group: str,
    path: Path,
    answers: dict,
    solve_missing: float | None,
    bench: Path | None = None,
    label: str = "instances/",
) -> Entry:
    """The page of one puzzle: its answer (module docstring), solved here only when none is stored
    and ``solve_missing`` gives the seconds to spend."""
    key = f"{group}/{path.name}"
    shown = f"{label}{key}"
    record = answers.get(key, {})
    if record and record.get("sha256") != sha256(path):
        record = {"stale": True}
    try:
        instance = read_instance(path)
    except CoinsatError as e:
        if is_plane(path):
            picture = plane_picture(path)
            note = (
                'a free-plane puzzle (board = "plane"): coins anywhere in the plane, so its moves leave the grid '
                "and are listed, not drawn; start and goal are drawn on the grid of their pictures"
            )
            answer = plane_stored(record) if record.get("status") else plane_answer(path, bench)
            return Entry(group, path, picture, answer, note, shown)
        why = str(e).replace(str(path), shown)
        return Entry(group, path, None, Answer("missing", provenance=[f"not read: {why}"]), f"not drawn: {why}", shown)
    family = family_answer(path, instance, record, bench, label)
    if family is not None:
        return Entry(group, path, family[0], family[1], file=shown)
    if record.get("status"):
        instance, answer = stored_answer(instance, record)
        return Entry(group, path, instance, answer, file=shown)
    stale = " (the stored one is for an older version of the file)" if record.get("stale") else ""
    if solve_missing is None:
        answer = Answer(
            "missing",
            provenance=[f"no stored answer{stale}: coinsat gallery DIR --solve-missing SECONDS solves it"],
        )
        return Entry(group, path, instance, answer, file=shown)
    try:
        result = solve(instance, time_limit=solve_missing)
    except CoinsatError as e:  # an instance no engine takes: the page says why
        return Entry(group, path, instance, Answer("missing", provenance=[f"not solved: {e}"]), file=shown)
    cert = result.certificate
    proof = []
    if cert:
        proof.append(f"{cert.get('kind')} ({cert.get('scope')} scope), from the solve; not checked here")
    elif result.status in (Status.OPTIMAL, Status.UNSOLVABLE):
        proof.append(f"{result.method}: proven by the engine's search; no certificate stored")
    if result.lower_bound is not None and result.status not in (Status.OPTIMAL, Status.UNSOLVABLE):
        proof.append(f"lower bound {result.lower_bound}: {result.method} within {solve_missing:g} s")
    answer = Answer(
        result.status.value,
        result.length,
        result.lower_bound,
        "—" if not cert else f"{cert.get('kind')} ({cert.get('scope')})",
        proof,
        [f"solved here: coinsat solve --time-limit {solve_missing:g} ({result.method}, {result.seconds:.2f} s){stale}"],
        result.solution,
    )
    return Entry(group, path, instance, answer, file=shown)


# ---------------------------------------------------------------- the pages


def status_text(a: Answer) -> str:
    """The status as the index shows it ("no stored answer", "unknown (≥ 41)", "optimal")."""
    if a.status == "missing":
        return "no stored answer"
    if a.status in ("unknown", "bounded") and a.lower_bound is not None:
        return f"{a.status} (≥ {a.lower_bound})"
    return a.status


def _meta(e: Entry) -> str:
    a = e.answer
    rows = [
        ("status", status_text(a)),
        ("moves", "—" if a.length is None else str(a.length)),
        ("lower bound", "—" if a.lower_bound is None else str(a.lower_bound)),
        ("proof", "<br>".join(html.escape(line) for line in a.proof) or "—"),
        ("answer from", "<br>".join(html.escape(line) for line in a.provenance) or "—"),
    ]
    i = e.instance
    if i is not None:
        rows.append(("board", html.escape(f"{i.board.kind.value}, d = {i.d}, goal {i.goal_placement.value}")))
        rows.append(("coins", str(i.n_coins)))
        rows.append(("source", html.escape(i.source or "—")))
    rows.append(("file", html.escape(e.file or f"{e.group}/{e.path.name}")))
    if e.note:
        rows.append(("note", html.escape(e.note)))
    body = "".join(f"<tr><th>{html.escape(k)}</th><td>{v}</td></tr>" for k, v in rows)
    return f'<table class="facts" id="facts">{body}</table>'


def _nav(entries: list[Entry], k: int) -> str:
    links = ['<a href="index.html">index</a>']
    for word, j in (("previous", k - 1), ("next", k + 1)):
        if 0 <= j < len(entries):
            other = entries[j]
            links.append(f'<a href="{_attr(other.slug)}.html">{word}: {html.escape(other.name)}</a>')
    return '<p class="nav">' + " · ".join(links) + "</p>"


def write_page(site: Path, entries: list[Entry], k: int) -> None:
    """Write the page of ``entries[k]`` into ``site`` (its HTML and a copy of its instance file)."""
    e = entries[k]
    instance = e.instance
    solution = e.answer.solution
    if instance is None:
        body = _nav(entries, k) + _meta(e) + f"<p>{html.escape(e.note)}</p>"
        text = page(e.name, None, meta_html=body, extra_html=_nav(entries, k))
        write_atomic(site / f"{e.slug}.html", text)
        write_atomic(site / f"{e.slug}.toml", e.path.read_text())
        return
    trace, moves = replay(instance, solution)
    lay = layout(instance, trace)
    style = STYLE.scaled(picture_scale(instance, lay))
    animation = ""
    if moves:
        write_atomic(
            site / f"{e.slug}-animated.svg",
            draw_picture(instance, solution, animate=True, scale=style.cell / STYLE.cell).data,
        )
        animation = (
            f'<h2>Animation</h2><p><img class="animation" src="{_attr(e.slug)}-animated.svg" '
            f'alt="{_attr(e.name)}: the solution, animated"></p>'
        )
    frames = steps(instance, trace, moves, lay, style) if moves and len(moves) <= MAX_FRAMES else []
    labels = step_labels(instance, trace, moves) if frames else []
    note = "" if frames or not moves else f"<p>{len(moves)} moves: too many to step through here.</p>"
    text = page(
        e.name,
        start_goal(instance, lay, style),
        frames,
        labels,
        meta_html=_nav(entries, k) + _meta(e),
        middle_html=animation + note,
        extra_html=f'<p><a href="{_attr(e.slug)}.toml">the instance file</a></p>' + _nav(entries, k),
        style=style,
    )
    write_atomic(site / f"{e.slug}.html", text)
    write_atomic(site / f"{e.slug}.toml", e.path.read_text())


INDEX_CSS = """
body{font-family:DejaVu Sans,Helvetica,Arial,sans-serif;margin:0 auto;padding:1em;max-width:1400px;color:#222}
h1{font-size:1.6em}h2{font-size:1.25em;margin-top:1.6em}
.cards{display:grid;grid-template-columns:repeat(auto-fill,minmax(min(100%,300px),1fr));gap:1em}
.card{border:1px solid #ddd;border-radius:8px;padding:0.7em;display:flex;flex-direction:column;gap:0.4em}
.card a.title{font-weight:bold;font-size:1.1em;overflow-wrap:anywhere}
.card img{width:100%;height:180px;object-fit:contain;background:#fff}
.card .facts{font-size:0.92em;color:#444;overflow-wrap:anywhere}
.status{display:inline-block;padding:0.05em 0.5em;border-radius:1em;font-size:0.9em;background:#eee}
.status.optimal,.status.unsolvable{background:#d8f0dc}.status.feasible{background:#fdf1c7}
.status.unknown,.status.missing,.status.bounded{background:#f7d9d9}
"""


def write_index(site: Path, entries: list[Entry], titles: dict[str, str], label: str = "") -> None:
    """The index: a card per puzzle under its folder's heading (``label``: how the folders are named)."""
    where = f"under <code>{html.escape(label)}</code>" if label else "shipped with coinsat"
    parts = [
        *PAGE_HEAD,
        f"<title>coinsat gallery</title><style>{INDEX_CSS}</style></head><body>",
        "<h1>coinsat gallery</h1>",
        f"<p>Every puzzle {where}, with what coinsat proves about it: the status, "
        "the moves, and the certificate of each proof, checked by the independent checker. "
        "Each page has the proof's details and the solution, animated and step by step.</p>",
    ]
    for group, title in titles.items():
        rows = [e for e in entries if e.group == group]
        if not rows:
            continue
        parts.append(f'<h2>{html.escape(title)}</h2><div class="cards" id="{_attr(slug(group, ""))}">')
        for e in rows:
            a = e.answer
            picture = (
                f'<img src="{_attr(e.slug)}.svg" alt="{_attr(e.name)}: start and goal">'
                if e.instance is not None
                else f"<p>{html.escape(e.note)}</p>"
            )
            moves = "" if a.length is None else f" · {a.length} moves"
            parts.append(
                f'<div class="card"><a class="title" href="{_attr(e.slug)}.html">{html.escape(e.name)}</a>{picture}'
                f'<div class="facts"><span class="status {_attr(a.status)}">{html.escape(status_text(a))}</span>'
                f"{moves}<br>certificate: {html.escape(a.certificate)}</div></div>"
            )
        parts.append("</div>")
    parts.append("</body></html>")
    write_atomic(site / "index.html", "\n".join(parts) + "\n")


def build(
    site: Path,
    puzzles: Source | None = None,
    solve_missing: float | None = None,
    progress: Callable[[int, int, str], None] | None = None,
) -> list[Entry]:
    """Write the gallery of ``puzzles`` (None: the shipped ones) into ``site``; the entries, in
    index order.  ``progress(done, total, name)`` is called before each puzzle is read."""
    src = puzzles if puzzles is not None else source()
    answers = load_json(src.answers) if src.answers is not None else {}
    entries: list[Entry] = []
    for done, (group, path) in enumerate(src.files):
        if progress is not None:
            progress(done, len(src.files), f"{group}/{path.stem}")
        entries.append(entry(group, path, answers, solve_missing, src.bench, src.label))
    site.mkdir(parents=True, exist_ok=True)
    for k, e in enumerate(entries):
        if e.instance is not None:
            write_atomic(site / f"{e.slug}.svg", draw_picture(e.instance).data)
        write_page(site, entries, k)
    write_index(site, entries, src.titles, src.label)
    return entries
