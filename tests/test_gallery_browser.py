"""The gallery in a real browser: headless Chromium opens the index and the pages that
coinsat.gallery writes (coinsat gallery, scripts/gallery.py), and checks that no page logs an
error, that the pictures hold the puzzle's coins, that the step controls step, and that the
animation (SMIL inside an <img>) moves.  Skipped only when no Chromium (or Playwright) is
installed; ``.ci/run`` installs both.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from coinsat import gallery

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")
sync_api = pytest.importorskip("playwright.sync_api")
pytest.importorskip("PIL")
pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="no Chromium installed (apt-get install chromium)")

PUZZLES = ["h-to-o", "vdiag-2-1-nwse", "thm1-claw"]


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    out = tmp_path_factory.mktemp("site")
    entries = gallery.build(out, gallery.source(ROOT / "instances", only=PUZZLES), 30.0)
    return out, entries


@pytest.fixture(scope="module")
def browser():
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        yield b
        b.close()


def _open(browser, url: str, width: int = 900):
    page = browser.new_page(viewport={"width": width, "height": 700})
    problems: list[str] = []

    def console(message) -> None:
        if message.type in ("error", "warning"):
            problems.append(f"console {message.type}: {message.text}")

    page.on("console", console)
    page.on("pageerror", lambda e: problems.append(f"page error: {e}"))
    page.on("requestfailed", lambda r: problems.append(f"failed to load {r.url}"))
    page.goto(url)
    page.wait_for_load_state("load")
    return page, problems


def test_the_index_links_every_page(site, browser, tmp_path):
    out, entries = site
    page, problems = _open(browser, (out / "index.html").as_uri())
    links = page.locator(".card a.title")
    assert links.count() == len(entries) == len(PUZZLES)
    assert page.evaluate("Array.from(document.images).every(i => i.complete && i.naturalWidth > 0)")
    page.screenshot(path=str(tmp_path / "index.png"))
    assert (tmp_path / "index.png").stat().st_size > 1000
    assert problems == []


def test_each_page_shows_every_coin_without_errors(site, browser):
    out, entries = site
    for e in entries:
        page, problems = _open(browser, (out / f"{e.slug}.html").as_uri())
        panels = page.locator(".overview svg g.panel")
        assert panels.count() == 2  # start and goal
        for k in range(2):
            assert panels.nth(k).locator("circle.coin").count() == e.instance.n_coins
        assert page.evaluate("Array.from(document.images).every(i => i.complete && i.naturalWidth > 0)")
        assert problems == [], e.slug
        page.close()


def test_the_step_controls_and_the_animation_advance(site, browser, tmp_path):
    out, entries = site
    e = next(x for x in entries if x.path.stem == "h-to-o")
    page, problems = _open(browser, (out / f"{e.slug}.html").as_uri())
    assert page.evaluate("document.body.dataset.step") == "0"
    page.click("#next")
    assert page.evaluate("document.body.dataset.step") == "1"
    assert page.inner_text("#label").startswith(f"step 1 / {e.answer.length}")
    visible = page.locator(".frame:visible")
    assert visible.count() == 1 and visible.first.get_attribute("data-step") == "1"
    page.click("#last")
    assert page.evaluate("document.body.dataset.step") == str(e.answer.length)
    animation = page.locator("img.animation")
    first = animation.screenshot(path=str(tmp_path / "a.png"))
    page.wait_for_timeout(1600)  # more than two steps of the animation
    second = animation.screenshot(path=str(tmp_path / "b.png"))
    assert first != second, "the animated SVG did not move"
    assert problems == []


def test_the_index_and_the_pages_fit_a_phone(site, browser):
    """390 px wide (a phone): nothing scrolls sideways, every picture fits the column."""
    out, entries = site
    for name in ["index"] + [e.slug for e in entries]:
        page, problems = _open(browser, (out / f"{name}.html").as_uri(), width=390)
        page.wait_for_timeout(200)
        assert page.evaluate("document.documentElement.scrollWidth") <= 390, name
        widest = page.evaluate(
            "Math.max(...Array.from(document.querySelectorAll('img, svg')).map(e => e.getBoundingClientRect().right))"
        )
        assert widest <= 390, name
        assert problems == [], name
        page.close()


def test_pages_show_the_proof_of_an_optimal_answer(site):
    out, entries = site
    for e in entries:
        text = (out / f"{e.slug}.html").read_text()
        if e.answer.status in ("optimal", "unsolvable"):
            assert "proof" in text and e.answer.proof, e.slug
