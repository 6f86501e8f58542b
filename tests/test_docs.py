"""The documentation site's generated pages (lab.docs_site, scripts/docs_site.py): the
CLI reference holds every subcommand and argument of the parser, the API reference every exported
name with its docstring, and repository links are resolved or turned into paths.  The strict MkDocs
build and the example notebook run in ``.ci/run`` (``python3 scripts/docs_site.py``), and here when MkDocs is installed.
"""

from __future__ import annotations

import argparse
import html
import inspect
import json
import re
from pathlib import Path

import pytest

import coinsat
from coinsat.cli import get_parser
from lab import docs_site

ROOT = Path(__file__).resolve().parent.parent


def test_the_cli_page_has_every_subcommand_and_every_argument():
    text = docs_site.cli_page()
    parser = get_parser()
    subs = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    assert len(subs.choices) >= 10
    for name, sub in subs.choices.items():
        assert f"\n## {name}\n" in text, name
        section = text.split(f"\n## {name}\n", 1)[1].split("\n## ", 1)[0]
        for action in sub._actions:
            if isinstance(action, argparse._HelpAction):
                continue
            if isinstance(action, argparse._SubParsersAction):
                for inner, inner_parser in action.choices.items():
                    assert f"\n### {name} {inner}\n" in section, f"{name} {inner}"
                    assert all(
                        f"`{o}" in section
                        for a in inner_parser._actions
                        if not isinstance(a, argparse._HelpAction)
                        for o in a.option_strings
                    ), f"{name} {inner}"
                continue
            for option in action.option_strings or [action.metavar or action.dest]:
                assert f"`{option}" in section, f"{name}: {option}"
            if action.help:
                shown = html.escape(action.help.split("%(")[0][:40], quote=False)
                shown = shown.replace("|", "\\|").replace("\n", "<br>")
                assert shown in section, f"{name}: {action.help}"


def test_the_api_page_documents_every_exported_function_and_type():
    """Every exported function and type is on the page with its docstring, and each function's
    docstring says what it returns and what it raises (or that a failure is an answer)."""
    text = docs_site.api_page(coinsat)
    for name in coinsat.__all__:
        obj = getattr(coinsat, name)
        if inspect.isfunction(obj) or inspect.isclass(obj):
            assert f"\n### {name}\n" in text, name
            doc = inspect.getdoc(obj) or ""
            assert doc, f"coinsat.{name} has no docstring"
            if inspect.isfunction(obj):
                assert "return" in doc.lower(), f"coinsat.{name}: what does it return?"
                assert "raise" in doc.lower() or "exception" in doc.lower(), f"coinsat.{name}: what does it raise?"
    assert "(no docstring)" not in text
    assert "``" not in text.replace("```", "")  # Sphinx double backquotes became Markdown code


def test_docstrings_become_markdown():
    md = docs_site._md_docstring("See :func:`~coinsat.solve` and ``x``.\n\n>>> 1 + 1\n2\n\nafter")
    assert "See `coinsat.solve` and `x`." in md
    assert "```pycon\n>>> 1 + 1\n2\n```" in md
    assert md.rstrip().endswith("after")


def test_repository_links_resolve_to_pages_or_paths():
    rewrite = docs_site.rewrite_links
    md = (
        "[spec](encodings/sat.md) [rules](coinsat/rules.py) ![pic](docs/layers.svg) "
        "[paper](instances/paper/README.md#counts) [web](https://example.org)\n"
        "```\n[kept](coinsat/x.py)\n```\n"
    )
    out = rewrite(md, "index.md")  # the index is made of README.md: links are relative to the root
    assert "[spec](encodings/sat.md)" in out
    assert "rules (`coinsat/rules.py`)" in out
    assert "![pic](layers.svg)" in out
    assert "[paper](puzzles/paper.md#counts)" in out
    assert "[web](https://example.org)" in out
    assert "[kept](coinsat/x.py)" in out  # code is left alone
    assert rewrite("[back](../README.md)", "encodings/sat.md") == "[back](../index.md)"


def test_benchmark_citations_and_images_become_links_and_heading_ids_never_start_with_a_digit():
    rewrite = docs_site.rewrite_links
    out = rewrite("measured: `benchmarks/pinwheel.md`, `benchmarks/`, `benchmarks/no-such.md`", "lm-cut.md")
    assert "[`benchmarks/pinwheel.md`](benchmarks/pinwheel.md)" in out
    assert "[`benchmarks/`](benchmarks/index.md)" in out
    assert "`benchmarks/no-such.md`" in out and "(benchmarks/no-such.md)" not in out  # not on the site: no link
    out = rewrite("measured: benchmarks/vschedule.md. ![p](x.png) <b title='benchmarks/census.md'>", "v-to-diagonal.md")
    assert out.startswith("measured: [benchmarks/vschedule.md](benchmarks/vschedule.md). ")  # not the full stop
    assert "title='benchmarks/census.md'" in out  # never inside an HTML tag
    plot = rewrite("![plot](../../benchmarks/vfamily.png)", "puzzles/families.md")  # instances/families/README.md
    assert plot == "![plot](../benchmarks/vfamily.png)"
    assert rewrite("[§2](#2-the-schedule)", "v-to-diagonal.md") == "[§2](#s2-the-schedule)"
    assert docs_site.slugify("2. The schedule", "-") == "s2-the-schedule"
    assert docs_site.slugify("Lemma A", "-") == "lemma-a"


def test_math_becomes_mathml_and_unknown_tex_fails_the_build():
    pytest.importorskip("latex2mathml")
    html_in = '<p>so <span class="arithmatex">\\(a \\le b\\)</span></p><div class="arithmatex">\\[\\frac{1}{2}\\]</div>'
    out = docs_site.math_to_mathml(html_in)
    assert out.count('display="block"') == 1 and "<mfrac>" in out and "\\frac" not in out
    assert out.count('display="inline"') == 2 and "<wbr>" in out  # a line may break before the relation
    with pytest.raises(ValueError, match="nosuchcommand"):
        docs_site.math_to_mathml('<span class="arithmatex">\\(\\nosuchcommand x\\)</span>')


def test_every_docs_page_is_in_the_navigation_and_every_benchmark_page_is_linked_from_its_index():
    pages = docs_site.generated_pages(coinsat)
    nav = json.dumps(docs_site.site_nav(pages))
    tables = [name for name in pages if name.startswith("benchmarks/") and name != "benchmarks/index.md"]
    for name in [n for n in pages if n not in tables] + [
        str(p.relative_to(ROOT / "docs")) for p in (ROOT / "docs").rglob("*.md")
    ]:
        assert f'"{name}"' in nav, name
    index = pages["benchmarks/index.md"]
    assert len(tables) >= 27
    for name in tables:
        inner = name[len("benchmarks/") :]
        assert f"]({inner})" in index or f"]({inner.rsplit('/', 1)[0]}" in index, name


def test_the_tutorial_page_shows_the_pictures_the_tutorial_draws():
    page = docs_site.tutorial_page()
    pictures = docs_site.tutorial_pictures()
    shown = re.findall(r"!\[[^\]]*\]\(([^)]+)\)", page)
    assert len(shown) >= 2 and set(shown) <= set(pictures)
    assert all(data.lstrip().startswith(b"<svg") or b"<svg" in data[:400] for data in pictures.values())


def test_the_notebook_is_stored_executed_and_shows_each_step():
    nb = json.loads((ROOT / "examples" / "tour.ipynb").read_text())
    code = [c for c in nb["cells"] if c["cell_type"] == "code"]
    assert all(c.get("outputs") for c in code), "a code cell has no stored output: run python3 scripts/docs_site.py"
    text = json.dumps(nb)
    for step in ("parse_instance", "coinsat.solve", "coinsat.verify", "coinsat.draw", "coinsat.count"):
        assert step in text, step
    assert not any(o.get("output_type") == "error" for c in code for o in c["outputs"])


def test_the_site_builds_strictly_and_the_notebook_runs(tmp_path):
    for module in ("mkdocs", "pymdownx", "latex2mathml", "nbclient"):  # the docs extra
        pytest.importorskip(module)
    nb = docs_site.run_notebook()
    outputs = "".join(
        "".join(o.get("text", "")) for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", [])
    )
    assert "optimal 4 moves; lower bound 4" in outputs and "\nok\n" in outputs and "180 optimal sequences" in outputs
    import subprocess
    import sys

    done = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(tmp_path / "site")],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert (tmp_path / "site" / "cli" / "index.html").exists()
    assert (tmp_path / "site" / "notebook" / "index.html").read_text().count("<svg") >= 3


def test_the_benchmarks_index_lists_every_table():
    """Review round 4 (aesthetics): benchmarks/README.md listed every table but perimeter-search.md."""
    index = (ROOT / "benchmarks" / "README.md").read_text()
    tables = [p.name for p in sorted((ROOT / "benchmarks").glob("*.md")) if p.name != "README.md"]
    missing = [name for name in tables if f"({name})" not in index]
    assert not missing, missing
