#!/usr/bin/env python3
"""The checkout's gallery: every puzzle under instances/, its screenshots, and its stored answers.

    python3 scripts/gallery.py [-o SITE] [--answers FILE] [--solve-missing SECONDS] [--screenshots DIR]
    python3 scripts/gallery.py --refresh --answers-out benchmarks/gallery_answers.json [--time-limit 60]

The pages are ``coinsat gallery SITE --instances instances --no-solve`` (``coinsat/gallery.py`` says
what a page shows and where its answers come from); this script adds what needs a checkout and
the developer tools.  ``--solve-missing T`` solves, with T seconds each, the puzzles that have no
stored answer (default: none are solved; the page says the answer is missing).  ``--screenshots
DIR`` also writes PNG screenshots of the index and of two pages through headless Chromium
(Playwright), at desktop and phone widths.  ``--refresh`` solves, certifies and checks every
puzzle in fresh processes (``lab.gallery``) and writes the answers file.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from coinsat.gallery import build, source
from lab.gallery import refresh

#: the checkout this script belongs to (the gallery of its instances/ and benchmarks/)
CHECKOUT = Path(__file__).resolve().parents[2]
INSTANCES = CHECKOUT / "instances"
ANSWERS = CHECKOUT / "benchmarks" / "gallery_answers.json"


def screenshots(site: Path, out: Path, pages: list[str]) -> None:
    """The index at desktop width, the index on a phone, and ``pages``."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=_chromium(), args=["--no-sandbox"])
        view = browser.new_page(viewport={"width": 1200, "height": 900})
        view.goto((site / "index.html").as_uri())
        view.screenshot(path=str(out / "gallery-index.png"))
        phone = browser.new_page(viewport={"width": 390, "height": 844}, device_scale_factor=2)
        phone.goto((site / "index.html").as_uri())
        phone.screenshot(path=str(out / "gallery-index-phone.png"))
        for n, name in enumerate(pages, start=1):  # gallery-page.png, gallery-page-2.png, ...
            view.goto((site / f"{name}.html").as_uri())
            view.wait_for_timeout(1500)
            view.screenshot(path=str(out / f"gallery-page{'' if n == 1 else f'-{n}'}.png"), full_page=True)
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
    ap.add_argument(
        "--answers", default=str(ANSWERS), help="the stored answers to read (default: benchmarks/gallery_answers.json)"
    )
    ap.add_argument(
        "--solve-missing",
        type=float,
        default=None,
        metavar="SECONDS",
        help="solve the puzzles with no stored answer, SECONDS each (default: show them as missing)",
    )
    ap.add_argument("--only", nargs="*", metavar="NAME", help="only these puzzles (file stems)")
    ap.add_argument("--screenshots", metavar="DIR", help="also screenshot the index and the --page pages into DIR")
    ap.add_argument(
        "--page",
        nargs="*",
        default=["families-vdiag-4-3-nwse", "paper-swap5-b"],
        help="the pages to screenshot (default: %(default)s)",
    )
    ap.add_argument("--refresh", action="store_true", help="solve, certify and check every puzzle; write --answers-out")
    ap.add_argument("--answers-out", metavar="FILE", help="--refresh writes the answers here (and resumes from it)")
    ap.add_argument("--time-limit", type=float, default=60.0, help="--refresh: seconds per command (default: 60)")
    args = ap.parse_args()
    if args.refresh:
        if not args.answers_out:
            ap.error("--refresh needs --answers-out FILE (it never overwrites the committed answers unasked)")
        refresh(Path(args.answers_out), args.time_limit, args.only, INSTANCES)
        return 0
    site = Path(args.out)
    entries = build(site, source(INSTANCES, args.answers, args.only), args.solve_missing)
    print(f"wrote {len(entries)} pages to {site}/index.html", file=sys.stderr)
    if args.screenshots:
        out = Path(args.screenshots)
        out.mkdir(parents=True, exist_ok=True)
        screenshots(site, out, args.page)
    return 0


if __name__ == "__main__":
    sys.exit(main())
