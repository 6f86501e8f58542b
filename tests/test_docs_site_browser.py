"""The documentation site in a real browser: the site is built (``scripts/docs_site.py``, strict,
without running the notebook), served on 127.0.0.1, and headless Chromium opens EVERY page at
390 px (a phone).  On each page: no console error (an invalid heading id throws in the theme's
scrollspy), nothing scrolls sideways, no raw TeX in the text (``$...$``, ``\\frac``: the math is
MathML), and every ``benchmarks/`` file the page cites (in code type or in running text) is a link; every
``benchmarks/`` link of the site then answers 200.

Skipped when no Chromium (or Playwright) is installed; ``.ci/run`` installs both.  The site needs
the ``docs`` extra: missing, it skips on a developer's machine and fails under CI, where ``.ci/run``
installs ``.[dev,docs]`` before the tests.
"""

from __future__ import annotations

import functools
import importlib.util
import os
import re
import shutil
import subprocess
import sys
import threading
import urllib.request
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")
sync_api = pytest.importorskip("playwright.sync_api")
pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="no Chromium installed (apt-get install chromium)")

WIDTH = 390
DOCS_EXTRA = ("mkdocs", "pymdownx", "latex2mathml")
#: TeX that did not render: a $...$ span, or a control word the pages use
RAW_TEX = re.compile(r"\$[^$\s][^$]*\$|\\(?:frac|sum|le|ge|cdot|lfloor|rfloor|mathrm|text|sqrt|binom|Theta)\b")


class _Quiet(SimpleHTTPRequestHandler):
    def log_message(self, *args) -> None:
        pass


class _Server(ThreadingHTTPServer):
    def handle_error(self, request, client_address) -> None:
        pass  # the browser dropped a request when it left the page (the search index): not a finding


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    missing = [m for m in DOCS_EXTRA if importlib.util.find_spec(m) is None]
    if missing:
        if os.environ.get("CI"):
            pytest.fail(f"CI must build the docs site: .ci/run installs .[docs] (missing {', '.join(missing)})")
        pytest.skip(f"the docs extra is not installed (missing {', '.join(missing)}): pip install -e '.[docs]'")
    out = tmp_path_factory.mktemp("docs-site")
    path = [str(ROOT), *filter(None, [os.environ.get("PYTHONPATH")])]  # this checkout's coinsat builds the site
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(path)}
    done = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "docs_site.py"), "--skip-notebook", "--site", str(out)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    server = _Server(("127.0.0.1", 0), functools.partial(_Quiet, directory=str(out)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield out, f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()


@pytest.fixture(scope="module")
def browser():
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        yield b
        b.close()


def _pages(out: Path) -> list[str]:
    """Every page of the site, as its URL path (``""`` for the home page)."""
    pages = [p.relative_to(out).parent.as_posix() for p in out.rglob("index.html")]
    return sorted("" if p == "." else p + "/" for p in pages)


_PAGE_FACTS = """() => {
  const prose = document.body.cloneNode(true);
  prose.querySelectorAll('pre, code, script, style, math').forEach(e => e.remove());
  const cited = Array.from(document.querySelectorAll(':not(pre) > code'))
    .filter(c => /^benchmarks\\//.test(c.textContent.trim()) && !c.closest('a'))
    .map(c => c.textContent.trim());
  const main = document.querySelector('[role=main]') || document.body;
  const walker = document.createTreeWalker(main, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    if (n.parentElement.closest('a, code, pre, h1, h2, h3, h4, h5, h6, script, style')) continue;
    cited.push(...(n.textContent.match(/benchmarks\\/[\\w.\\/-]*/g) || []));
  }
  return {
    width: Math.max(document.documentElement.scrollWidth, document.body.scrollWidth),
    text: prose.textContent,
    unlinked: cited,
    links: Array.from(document.querySelectorAll('a[href]')).map(a => a.href).filter(h => h.includes('/benchmarks/')),
    maths: document.querySelectorAll('math').length,
    images: Array.from(document.images).filter(i => !(i.complete && i.naturalWidth > 0)).map(i => i.src),
  };
}"""


def test_every_page_fits_a_phone_without_errors_raw_tex_or_dead_citations(site, browser):
    out, base = site
    pages = _pages(out)
    assert len(pages) > 20 and "benchmarks/" in pages and "v-to-diagonal/" in pages
    page = browser.new_page(viewport={"width": WIDTH, "height": 844})
    problems: list[str] = []
    page.on("console", lambda m: problems.append(f"console {m.type}: {m.text}") if m.type == "error" else None)
    page.on("pageerror", lambda e: problems.append(f"page error: {e}"))
    page.on("requestfailed", lambda r: None if "ABORTED" in (r.failure or "") else problems.append(f"failed: {r.url}"))
    found: dict[str, list[str]] = {}
    links: set[str] = set()
    maths = {}
    for path in pages:
        problems.clear()
        page.goto(base + path, wait_until="load")
        facts = page.evaluate(_PAGE_FACTS)
        bad = list(problems)
        if facts["width"] > WIDTH:
            bad.append(f"scrolls sideways: {facts['width']} px wide")
        bad += [f"raw TeX: {m.group(0)!r}" for m in RAW_TEX.finditer(facts["text"])][:3]
        bad += [f"cites {c} without a link" for c in facts["unlinked"]]
        bad += [f"broken image {src}" for src in facts["images"]]
        if bad:
            found[path or "/"] = bad
        links.update(h.split("#")[0] for h in facts["links"])
        maths[path] = facts["maths"]
    page.close()
    assert found == {}, "\n".join(f"{p}: {b}" for p, b in found.items())
    assert maths["v-to-diagonal/"] > 0  # the proof's formulas are MathML
    dead = []
    for url in sorted(links):
        try:
            with urllib.request.urlopen(url, timeout=10) as r:
                assert r.status == 200
        except Exception as e:  # noqa: BLE001 - any failure is a dead link, named below
            dead.append(f"{url}: {e}")
    assert dead == [] and len(links) > 30


def test_the_v_family_plot_is_shown(site, browser):
    out, base = site
    page = browser.new_page(viewport={"width": WIDTH, "height": 844})
    page.goto(base + "puzzles/families/", wait_until="load")
    shown = page.evaluate(
        "Array.from(document.images).filter(i => i.src.endsWith('/benchmarks/vfamily.png'))"
        ".map(i => [i.naturalWidth, i.getBoundingClientRect().right])"
    )
    page.close()
    assert len(shown) == 1
    natural, right = shown[0]
    assert natural > 100 and right <= WIDTH  # loaded, and scaled to the column
