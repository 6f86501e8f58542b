"""A static gallery of every puzzle under instances/: one page per puzzle, and an index.

Each page shows the start and goal, what coinsat proves about the puzzle (status, moves, lower
bound, and the certificate of the proof: its kind, its claim, and that the independent checker
accepted it), the best solution animated (an SVG with SMIL in a plain <img>) and stepped through
with controls, and links to the previous, next and index pages.  The index is a grid of cards
that reflows to one column on a phone.

Answers are read, not re-solved.  In this order:

* a family member's recorded solution (``<folder>/solutions/<name>.json``) with the proofs the
  family studies stored: ``benchmarks/vfamily_results.json`` (runs and accepted certificates),
  ``benchmarks/diagonal_flips.json`` and ``benchmarks/scale_proofs.json``; the member is optimal
  when a proven lower bound meets the recorded solution's length (V(4,3)->NW-SE: optimal 95);
* ``benchmarks/gallery_answers.json``, written by ``--refresh``: for each other file ``coinsat
  solve --json``, ``coinsat certify --json`` (build and check a certificate) and ``coinsat
  check-certificate`` in a fresh process, and, when the solve found no solution, ``coinsat
  construct``; each answer is kept with the sha256 of the instance file it is for (a stale answer
  is not shown);
* free-plane puzzles (``board = "plane"``): ``benchmarks/plane.md`` (``scripts/plane_study.py``).

Every solution shown is replayed by ``coinsat.verify`` before it is drawn.  :func:`build` with
``solve_missing`` T solves, with T seconds each, the puzzles that have no stored answer (None:
none are solved; the page says the answer is missing); :func:`refresh` writes the answers file.
``scripts/gallery.py`` is the command line (and its screenshots).
"""

from __future__ import annotations

import hashlib
import html
import json
import re
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Sequence

from ..commands.progress import Live
from ..draw import STYLE, draw_picture, replay, start_goal, step_labels, steps
from ..draw.html import page
from ..draw.layout import layout
from ..draw.scene import frame
from ..errors import CoinsatError
from ..instance import Instance
from ..io.atomic import write_atomic
from ..io.instance_format import parse_instance, read_instance
from ..io.solution_format import parse_solution, read_solution
from ..result import Status
from ..solution import Solution, verify
from ..solve import solve

#: the source checkout the gallery is built from: its instances/ and benchmarks/ (neither ships in a wheel)
ROOT = Path(__file__).resolve().parents[2]
BENCH = ROOT / "benchmarks"
ANSWERS = BENCH / "gallery_answers.json"
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


def groups(instances: Path = ROOT / "instances") -> dict[str, str]:
    found = sorted(p.name for p in instances.iterdir() if p.is_dir() and any(p.glob("*.toml")))
    ordered = [g for g in TITLES if g in found] + [g for g in found if g not in TITLES]
    return {g: TITLES.get(g, g.replace("-", " ").capitalize()) for g in ordered}


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
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _json(path: Path) -> dict:
    return json.loads(path.read_text()) if path.exists() else {}


# ---------------------------------------------------------------- answers from the stored results


def _certificate_lines(kind: str, cert: dict, where: str) -> str:
    claim = cert.get("claim") or "?"
    checked = cert.get("check_seconds")
    took = f", checked in {checked:g} s" if isinstance(checked, (int, float)) else ""
    return f"{kind} certificate: {claim}; accepted by the independent checker{took} ({where})"


def family_answer(path: Path, instance: Instance, stored: dict) -> tuple[Instance, Answer] | None:
    """A family member's recorded solution and the proofs the family studies stored."""
    recorded = path.parent / "solutions" / f"{path.stem}.json"
    if not recorded.exists():
        return None
    instance, solution = read_solution(instance, recorded)
    if not verify(instance, solution).ok:
        raise SystemExit(f"{recorded}: the recorded solution does not verify")
    record = json.loads(recorded.read_text())
    name = path.stem
    bounds: list[tuple[int, str]] = []
    if isinstance(record.get("lower_bound"), int):
        bounds.append((record["lower_bound"], f"the solution record ({record.get('method', '?')})"))
    proof: list[str] = []
    kinds: list[str] = []
    vfam = _json(BENCH / "vfamily_results.json").get(name, {})
    for method, run in sorted(vfam.get("runs", {}).items()):
        if isinstance(run.get("lower_bound"), int):
            bounds.append((run["lower_bound"], f"{method}: {run.get('status')} (benchmarks/vfamily_results.json)"))
    for kind, cert in sorted(vfam.get("certificates", {}).items()):
        if cert.get("accepted"):
            kinds.append(kind)
            proof.append(_certificate_lines(kind, cert, "benchmarks/vfamily_results.json"))
    flips = _json(BENCH / "diagonal_flips.json")
    k = name.removeprefix("diagonal-")
    if name.startswith("diagonal-") and k in flips:
        for method, run in sorted(flips[k].get("runs", {}).items()):
            if isinstance(run.get("lower_bound"), int):
                bounds.append((run["lower_bound"], f"{method}: {run.get('status')} (benchmarks/diagonal_flips.json)"))
    scale = _json(BENCH / "scale_proofs.json").get(name)
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
    extra = stored.get("certificate")
    if extra and extra.get("accepted") and not kinds:
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
        f"moves: instances/{path.parent.name}/solutions/{recorded.name} (method {record.get('method', '?')}), "
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
            raise SystemExit(f"{ANSWERS.name}: the stored moves of {instance.name} do not verify")
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


def plane_answer(path: Path) -> Answer:
    """A free-plane puzzle's row of benchmarks/plane.md (scripts/plane_study.py)."""
    table = BENCH / "plane.md"
    rel = f"instances/{path.parent.name}/{path.name}"
    for line in table.read_text().splitlines() if table.exists() else []:
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
    group: str, path: Path, answers: dict, solve_missing: float | None, instances: Path = ROOT / "instances"
) -> Entry:
    key = f"{group}/{path.name}"
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
            answer = plane_stored(record) if record.get("status") else plane_answer(path)
            return Entry(group, path, picture, answer, note)
        why = str(e).replace(str(instances.parent) + "/", "")
        return Entry(group, path, None, Answer("missing", provenance=[f"not read: {why}"]), f"not drawn: {why}")
    family = family_answer(path, instance, record)
    if family is not None:
        return Entry(group, path, family[0], family[1])
    if record.get("status"):
        instance, answer = stored_answer(instance, record)
        return Entry(group, path, instance, answer)
    stale = " (the stored one is for an older version of the file)" if record.get("stale") else ""
    if solve_missing is None:
        answer = Answer(
            "missing",
            provenance=[f"no stored answer{stale}: python3 scripts/gallery.py --refresh --answers-out FILE"],
        )
        return Entry(group, path, instance, answer)
    result = solve(instance, time_limit=solve_missing)
    cert = result.certificate
    proof = []
    if cert:
        proof.append(f"{cert.get('kind')} ({cert.get('scope')} scope), from the solve; not checked here")
    elif result.status in (Status.OPTIMAL, Status.UNSOLVABLE):
        proof.append(f"{result.method}: proven by the engine's search; no certificate stored (run --refresh)")
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
    return Entry(group, path, instance, answer)


# ---------------------------------------------------------------- refreshing the stored answers


def _coinsat(args: list[str], timeout: float) -> dict | None:
    """One coinsat command in a fresh process, its JSON output (None if it printed none)."""
    try:
        done = subprocess.run(
            [sys.executable, "-m", "coinsat", *args], capture_output=True, text=True, timeout=timeout, cwd=ROOT
        )
    except subprocess.TimeoutExpired:
        return None
    for line in reversed(done.stdout.splitlines()):
        if line.startswith("{"):
            return json.loads(line)
    said = done.stderr.strip().splitlines()
    return {"reason": said[-1].removeprefix("coinsat: ") if said else f"exit {done.returncode}, no answer"}


def refresh_one(path: Path, time_limit: float, certify: bool = True) -> dict:
    """solve, certify and check one file in fresh processes (construct when solve found nothing)."""
    import datetime

    rel = str(path.relative_to(ROOT))
    limit = ["--time-limit", f"{time_limit:g}"]
    wall = 3 * time_limit + 60
    solved = _coinsat(["solve", rel, "--json", *limit], wall) or {"status": "unknown"}
    solved.setdefault("status", "unknown")
    record = {
        "sha256": sha256(path),
        "status": solved.get("status", "unknown"),
        "length": solved.get("length"),
        "lower_bound": solved.get("lower_bound"),
        "method": solved.get("method", "?"),
        "seconds": round(float(solved.get("seconds") or 0.0), 3),
        "time_limit": time_limit,
        "command": f"coinsat solve {rel} --time-limit {time_limit:g}",
        "moves": solved.get("moves"),
        "moves_from": "coinsat solve",
        "made": datetime.date.today().isoformat(),
    }
    if certify and record["status"] not in ("optimal", "feasible", "unsolvable"):
        built = _coinsat(["construct", rel, "--json"], wall)
        if built and built.get("moves"):
            record.update(status="feasible", length=built.get("length"), moves=built["moves"])
            record["moves_from"] = "coinsat construct"
            record["lower_bound"] = max(
                x for x in (solved.get("lower_bound"), built.get("lower_bound"), 0) if x is not None
            )
    if certify and record["status"] in ("optimal", "unsolvable"):
        # a layers certificate first (exhaustive layers, checked without a SAT solver), else certify's choice
        why = []
        cert = None
        for how in (["--method", "spanbfs"], []):
            with tempfile.TemporaryDirectory() as tmp:
                made = _coinsat(["certify", rel, "-o", tmp, "--json", *how, *limit], wall)
                if not (made and made.get("accepted") and made.get("file")):
                    why.append(f"certify {' '.join(how) or '(default)'}: {(made or {}).get('reason', 'no answer')}")
                    continue
                checked = _coinsat(["check-certificate", rel, made["file"], "--json"], wall)
                if checked is None or not checked.get("accepted"):
                    why.append(f"check-certificate: {(checked or {}).get('reason', 'no answer')}")
                    continue
                cert = {
                    "kind": made.get("kind"),
                    "scope": checked.get("scope"),
                    "claim": checked.get("proven") or checked.get("claim"),
                    "accepted": True,
                    "reason": checked.get("reason"),
                    "check_seconds": round(float(checked.get("seconds") or 0.0), 3),
                    "command": f"coinsat certify {rel} -o DIR {' '.join(how)}".rstrip()
                    + f" && coinsat check-certificate {rel} DIR/{Path(made['file']).name}",
                }
                break
        record["certificate"] = cert or {"kind": None, "accepted": False, "why": "; ".join(why)}
    return record


def refresh(out: Path, time_limit: float, only: list[str] | None, instances: Path = ROOT / "instances") -> None:
    answers = _json(out) if out.exists() else {}
    todo = [
        (group, path)
        for group in groups(instances)
        for path in sorted((instances / group).glob("*.toml"))
        if not only or path.stem in only
    ]
    for group, path in todo:
        key = f"{group}/{path.name}"
        if answers.get(key, {}).get("sha256") == sha256(path):
            print(f"{key}: stored answer is current; skipped (resumed)", file=sys.stderr)
            continue
        try:
            instance = read_instance(path)
        except CoinsatError:
            if is_plane(path):  # the plane engine answers through coinsat solve; no certificate kind exists
                record = refresh_one(path, time_limit, certify=False)
                answers[key] = record
                print(f"{key}: {record['status']} {record.get('length')} (plane)", file=sys.stderr)
                write_atomic(out, json.dumps(answers, indent=1, sort_keys=True) + "\n")
            else:
                print(f"{key}: not read by the instance reader; skipped", file=sys.stderr)
            continue
        family = family_answer(path, instance, {})
        if family is not None and family[1].certificate not in ("—", "exhaustive search"):
            print(f"{key}: family record with a stored certificate; skipped", file=sys.stderr)
            continue
        record = refresh_one(path, time_limit)
        if family is not None:  # keep only the certificate: the moves and bounds come from the family's record
            record = {k: record[k] for k in ("sha256", "certificate", "made") if k in record}
        answers[key] = record
        cert = (record.get("certificate") or {}).get("accepted")
        print(f"{key}: {record.get('status', 'family')} {record.get('length')} certificate={cert}", file=sys.stderr)
        write_atomic(out, json.dumps(answers, indent=1, sort_keys=True) + "\n")


# ---------------------------------------------------------------- the pages


def _status_text(a: Answer) -> str:
    if a.status == "missing":
        return "no stored answer"
    if a.status in ("unknown", "bounded") and a.lower_bound is not None:
        return f"{a.status} (≥ {a.lower_bound})"
    return a.status


def _meta(e: Entry) -> str:
    a = e.answer
    rows = [
        ("status", _status_text(a)),
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
    rows.append(("file", html.escape(f"instances/{e.group}/{e.path.name}")))
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


def write_index(
    site: Path,
    entries: list[Entry],
    skipped: Sequence[tuple[str, Path, str]] = (),
    titles: dict[str, str] | None = None,
) -> None:
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>coinsat gallery</title><style>{INDEX_CSS}</style></head><body>",
        "<h1>coinsat gallery</h1>",
        "<p>Every puzzle under <code>instances/</code>, with what coinsat proves about it: the status, "
        "the moves, and the certificate of each proof, checked by the independent checker. "
        "Each page has the proof's details and the solution, animated and step by step.</p>",
    ]
    for group, title in (titles if titles is not None else groups()).items():
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
                f'<div class="facts"><span class="status {_attr(a.status)}">{html.escape(_status_text(a))}</span>'
                f"{moves}<br>certificate: {html.escape(a.certificate)}</div></div>"
            )
        parts.append("</div>")
    parts.append("</body></html>")
    write_atomic(site / "index.html", "\n".join(parts) + "\n")


def build(
    site: Path,
    solve_missing: float | None = None,
    only: list[str] | None = None,
    instances: Path = ROOT / "instances",
    answers_file: Path | None = ANSWERS,
) -> list[Entry]:
    """Write the gallery of ``instances`` into ``site``; the entries, in index order."""
    answers = _json(answers_file) if answers_file is not None else {}
    entries: list[Entry] = []
    titles = groups(instances)
    todo = [
        (group, path)
        for group in titles
        for path in sorted((instances / group).glob("*.toml"))
        if not only or path.stem in only
    ]
    with Live("gallery", total=len(todo)) as live:
        for done, (group, path) in enumerate(todo):
            live.update(f"{group}/{path.stem}", done)
            entries.append(entry(group, path, answers, solve_missing, instances))
            print(f"{group}/{path.stem}: {_status_text(entries[-1].answer)}", file=sys.stderr)
    site.mkdir(parents=True, exist_ok=True)
    for k, e in enumerate(entries):
        if e.instance is not None:
            write_atomic(site / f"{e.slug}.svg", draw_picture(e.instance).data)
        write_page(site, entries, k)
    write_index(site, entries, [], titles)
    return entries
