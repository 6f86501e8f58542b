#!/usr/bin/env python3
"""Build a static gallery of every puzzle under instances/: one page per puzzle, and an index.

    python3 scripts/gallery.py [-o SITE] [--time-limit 30] [--only NAME ...] [--screenshots DIR]

Each page shows the start and goal, the status coinsat proves (and the certificate's kind and
scope), the best solution animated (an SVG with SMIL in a plain <img>) and stepped through with
controls, and links to the previous, next and index pages.  A puzzle with a recorded solution
(``<folder>/solutions/<name>.json``, e.g. the V family, whose optima took hours) shows that file's
status, and its moves are replayed by ``coinsat.verify`` first; any other puzzle is solved here
with ``--time-limit`` seconds.  ``--screenshots DIR`` also writes PNG screenshots of the index and
of one page through headless Chromium (Playwright); the README shows two of them.
"""

from __future__ import annotations

import argparse
import hashlib
import html
import json
import re
import sys
from dataclasses import dataclass
from pathlib import Path

from coinsat import draw, load, solve, verify
from coinsat.commands.progress import Live
from coinsat.draw import replay, start_goal, steps
from coinsat.draw.html import page
from coinsat.draw.layout import layout
from coinsat.draw.scene import move_text
from coinsat.errors import CoinsatError
from coinsat.instance import Instance
from coinsat.io.atomic import write_atomic
from coinsat.io.solution_format import read_solution
from coinsat.solution import Solution

ROOT = Path(__file__).resolve().parent.parent
#: the folders of instances/ in index order, with their headings; any other folder follows, by name
TITLES = {
    "paper": "The paper's puzzles",
    "families": "Families (V-to-diagonal, diagonals)",
    "counterexamples": "Counterexamples",
    "open-problems": "Open problems",
}


def groups(instances: Path = ROOT / "instances") -> dict[str, str]:
    found = sorted(p.name for p in instances.iterdir() if p.is_dir() and any(p.glob("*.toml")))
    ordered = [g for g in TITLES if g in found] + [g for g in found if g not in TITLES]
    return {g: TITLES.get(g, g.replace("-", " ").capitalize()) for g in ordered}


#: pages step through at most this many moves with controls (the animation shows any length)
MAX_FRAMES = 150


@dataclass(frozen=True)
class Entry:
    group: str
    path: Path
    instance: Instance
    status: str
    length: int | None
    lower_bound: int | None
    certificate: str
    provenance: str
    solution: Solution | None

    @property
    def slug(self) -> str:
        return slug(self.group, self.path.stem)


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


def _certificate(cert: dict | None) -> str:
    return "—" if not cert else f"{cert.get('kind')} ({cert.get('scope')})"


def entry(group: str, path: Path, time_limit: float) -> Entry:
    instance = load(path)
    recorded = path.parent / "solutions" / f"{path.stem}.json"
    if recorded.exists():
        instance, solution = read_solution(instance, recorded)
        if not verify(instance, solution).ok:
            raise SystemExit(f"{recorded}: the recorded solution does not verify")
        data = json.loads(recorded.read_text())
        return Entry(
            group,
            path,
            instance,
            str(data.get("status", "feasible")),
            len(solution),
            data.get("lower_bound"),
            _certificate(data.get("certificate")),
            f"recorded in solutions/{recorded.name} (method {data.get('method', '?')}); "
            "moves replayed by coinsat verify",
            solution,
        )
    result = solve(instance, time_limit=time_limit)
    return Entry(
        group,
        path,
        instance,
        result.status.value,
        result.length,
        result.lower_bound,
        _certificate(result.certificate),
        f"coinsat solve --time-limit {time_limit:g} ({result.method}, {result.seconds:.2f} s)",
        result.solution,
    )


def _meta(e: Entry) -> str:
    i = e.instance
    rows = [
        ("status", e.status),
        ("moves", "—" if e.length is None else str(e.length)),
        ("lower bound", "—" if e.lower_bound is None else str(e.lower_bound)),
        ("certificate", e.certificate),
        ("board", f"{i.board.kind.value}, d = {i.d}, goal {i.goal_placement.value}"),
        ("coins", str(i.n_coins)),
        ("file", f"instances/{e.group}/{e.path.name}"),
        ("source", i.source or "—"),
        ("answer", e.provenance),
    ]
    body = "".join(f"<tr><th>{html.escape(k)}</th><td>{html.escape(v)}</td></tr>" for k, v in rows)
    return f'<table class="meta" id="facts">{body}</table>'


def _nav(entries: list[Entry], k: int) -> str:
    links = ['<a href="index.html">index</a>']
    for word, j in (("previous", k - 1), ("next", k + 1)):
        if 0 <= j < len(entries):
            other = entries[j]
            links.append(f'<a href="{_attr(other.slug)}.html">{word}: {html.escape(other.instance.name)}</a>')
    return '<p class="nav">' + " · ".join(links) + "</p>"


def write_page(site: Path, entries: list[Entry], k: int) -> None:
    e = entries[k]
    instance = e.instance
    trace, moves = replay(instance, e.solution)
    lay = layout(instance, trace)
    extra = ""
    if moves:
        draw(instance, e.solution, animate=True, output=site / f"{e.slug}-animated.svg")
        extra = (
            f'<h2>Animation</h2><p><img class="animation" src="{_attr(e.slug)}-animated.svg" '
            f'alt="{html.escape(instance.name)}: the solution, animated"></p>'
        )
    frames = steps(instance, trace, moves, lay) if moves and len(moves) <= MAX_FRAMES else []
    labels = [move_text(instance, m) for m in moves] if frames else []
    note = "" if frames or not moves else f"<p>{len(moves)} moves: too many to step through here.</p>"
    text = page(
        instance.name,
        start_goal(instance, lay),
        frames,
        labels,
        meta_html=_nav(entries, k) + _meta(e) + extra + note,
        extra_html=f'<p><a href="{_attr(e.slug)}.toml">the instance file</a></p>' + _nav(entries, k),
    )
    write_atomic(site / f"{e.slug}.html", text)
    write_atomic(site / f"{e.slug}.toml", e.path.read_text())


def write_index(
    site: Path, entries: list[Entry], skipped: list[tuple[str, Path, str]] = (), titles: dict[str, str] | None = None
) -> None:
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8"><title>coinsat gallery</title>',
        "<style>body{font-family:DejaVu Sans,Helvetica,Arial,sans-serif;margin:1.5em}"
        "td,th{padding:0.2em 0.7em;text-align:left}img{vertical-align:middle}</style></head><body>",
        "<h1>coinsat gallery</h1>",
        "<p>Every puzzle under <code>instances/</code>, with what coinsat proves about it.</p>",
    ]
    for group, title in (titles if titles is not None else groups()).items():
        rows = [e for e in entries if e.group == group]
        left_out = [(p, why) for g, p, why in skipped if g == group]
        if not rows and not left_out:
            continue
        parts.append(f'<h2>{html.escape(title)}</h2><table id="{_attr(slug(group, ""))}">')
        parts.append("<tr><th>puzzle</th><th>start and goal</th><th>status</th><th>moves</th><th>certificate</th></tr>")
        for e in rows:
            moves = "—" if e.length is None else str(e.length)
            parts.append(
                f'<tr><td><a href="{_attr(e.slug)}.html">{html.escape(e.instance.name)}</a></td>'
                f'<td><img src="{_attr(e.slug)}.svg" height="60" alt="{_attr(e.instance.name)}"></td>'
                f"<td>{html.escape(e.status)}</td><td>{moves}</td><td>{html.escape(e.certificate)}</td></tr>"
            )
        for path, why in left_out:
            parts.append(f"<tr><td>{html.escape(path.stem)}</td><td colspan=4>not drawn: {html.escape(why)}</td></tr>")
        parts.append("</table>")
    parts.append("</body></html>")
    write_atomic(site / "index.html", "\n".join(parts) + "\n")


def build(
    site: Path, time_limit: float, only: list[str] | None = None, instances: Path = ROOT / "instances"
) -> list[Entry]:
    entries, skipped = [], []
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
            try:
                entries.append(entry(group, path, time_limit))
            except CoinsatError as e:  # e.g. a board kind the solver does not read (the free plane)
                skipped.append((group, path, str(e).replace(str(instances.parent) + "/", "")))
                print(f"{group}/{path.stem}: skipped: {skipped[-1][2]}", file=sys.stderr)
                continue
            print(f"{group}/{path.stem}: {entries[-1].status}", file=sys.stderr)
    site.mkdir(parents=True, exist_ok=True)
    for k, e in enumerate(entries):
        draw(e.instance, output=site / f"{e.slug}.svg")
        write_page(site, entries, k)
    write_index(site, entries, skipped, titles)
    return entries


def screenshots(site: Path, out: Path, page_name: str) -> None:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=_chromium(), args=["--no-sandbox"])
        view = browser.new_page(viewport={"width": 1000, "height": 760})
        view.goto((site / "index.html").as_uri())
        view.screenshot(path=str(out / "gallery-index.png"))
        view.goto((site / f"{page_name}.html").as_uri())
        view.wait_for_timeout(1500)
        view.screenshot(path=str(out / "gallery-page.png"))
        browser.close()


def _chromium() -> str:
    import shutil

    found = shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")
    if found is None:
        raise SystemExit("no Chromium found (apt-get install chromium)")
    return found


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("-o", "--out", default="site", help="the directory to write (default: site)")
    ap.add_argument("--time-limit", type=float, default=30.0, help="seconds per puzzle without a recorded solution")
    ap.add_argument("--only", nargs="*", metavar="NAME", help="only these puzzles (file stems)")
    ap.add_argument("--screenshots", metavar="DIR", help="also screenshot the index and --page into DIR")
    ap.add_argument("--page", default="families-vdiag-2-2-nwse", help="the page to screenshot")
    args = ap.parse_args()
    site = Path(args.out)
    entries = build(site, args.time_limit, args.only)
    print(f"wrote {len(entries)} pages to {site}/index.html", file=sys.stderr)
    if args.screenshots:
        out = Path(args.screenshots)
        out.mkdir(parents=True, exist_ok=True)
        screenshots(site, out, args.page)
    return 0


if __name__ == "__main__":
    sys.exit(main())
