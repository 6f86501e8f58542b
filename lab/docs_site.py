"""The documentation site: the MkDocs hooks that generate its reference pages.

``scripts/docs_site.py`` is the hooks file ``mkdocs.yml`` names (its ``on_config`` calls
:func:`configure` with the package root; :func:`on_files` and :func:`on_page_markdown` are
taken from here) and the CI check (a strict build and
:func:`run_notebook`).  Nothing generated is committed: every build makes these pages afresh
from the repository:

* ``index.md``, ``file-format.md``, ``answers.md`` — sections of ``README.md``;
* ``cli.md`` — the command-line reference, from the argparse parser of ``coinsat/cli.py``
  (every subcommand, every argument, its choices, default and help text);
* ``api.md`` — the Python API reference, from the signatures and docstrings of the names the
  package exports (``coinsat.__all__``) and of the picture and result types;
* ``tutorial.md`` — ``examples/tutorial.py``, explained by its own comments, with the pictures
  it draws (the script is run at build time);
* ``notebook.md`` — ``examples/tour.ipynb`` with its stored outputs (pictures included);
* ``encodings/*.md`` — the formula specifications of ``encodings/``;
* ``puzzles/*.md`` — the README of each folder of ``instances/``;
* ``benchmarks/*.md`` — every measured table of ``benchmarks/`` (its README is the section's
  first page, the rest are reached from it and from the pages that cite them); the other files of
  ``benchmarks/`` (plots, CSV and JSON tables, solutions) are copied as they are, and a folder
  gets a page listing its files.

Every other ``docs/*.md`` (the proofs) is a page as it is, listed under "Proofs and notes" in
file-name order, so a new one needs no edit here.  A link to a repository file that is not a page
of the site (``coinsat/rules.py``, ``instances/paper/diagonal.toml``) is turned into the path
in code type: the site has no copy of the sources to link to.  A path in code type that the site
does show (`` `benchmarks/pinwheel.md` ``) becomes a link to it.

Math is written ``$...$`` (inline) and ``$$...$$`` (display), as GitHub reads it;
``pymdownx.arithmatex`` keeps it away from Markdown, and :func:`on_page_content` turns it into
MathML at build time (``latex2mathml``), so the site needs no script and no network to show it.
Heading ids never start with a digit (:func:`slugify`): the theme's scrollspy passes them to
``querySelector``, which rejects ``#1-the-puzzle``.
"""

from __future__ import annotations

import argparse
import html
import inspect
import json
import posixpath
import re
import sys
import tempfile
from pathlib import Path
from types import ModuleType
from typing import Any, Callable

#: the source checkout the site is built from (README, docs/, encodings/, examples/, instances/)
ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
BENCHMARKS = ROOT / "benchmarks"
NOTEBOOK = ROOT / "examples" / "tour.ipynb"

#: README sections that become pages: page -> (title, the README headings it holds)
README_PAGES = {
    "index.md": ("coinsat", None),  # the text before the first "## " and the sections below
    "file-format.md": ("File format", ["File format"]),
    "answers.md": ("Statuses and answers", ["Statuses and answers"]),
}
INDEX_SECTIONS = ["The rules", "Quick start", "Pictures and counts"]


# ---------------------------------------------------------------- Markdown from the repository


def readme_sections() -> tuple[str, dict[str, str]]:
    """The README's preamble and its "## " sections by heading."""
    text = (ROOT / "README.md").read_text()
    parts = re.split(r"^## (.+)$", text, flags=re.M)
    preamble, sections = parts[0], {}
    for heading, body in zip(parts[1::2], parts[2::2]):
        sections[heading.strip()] = body.strip() + "\n"
    return preamble, sections


def readme_page(name: str) -> str:
    preamble, sections = readme_sections()
    title, headings = README_PAGES[name]
    if headings is None:
        body = (
            preamble.strip() + "\n\n" + "".join(f"## {h}\n\n{sections[h]}\n" for h in INDEX_SECTIONS if h in sections)
        )
        return body
    return f"# {title}\n\n" + "".join(sections.get(h, "") for h in headings)


def tutorial_page() -> str:
    """``examples/tutorial.py`` as a page: each numbered comment ("# 1. ...") becomes a section
    whose prose is the comment and whose code is the lines up to the next one."""
    src = (ROOT / "examples" / "tutorial.py").read_text()
    doc = re.search(r'"""(.*?)"""', src, re.S)
    intro = doc.group(1).strip() if doc else ""
    lines = (src[doc.end() :] if doc else src).strip("\n").splitlines()
    sections: list[tuple[str, list[str], list[str]]] = [("Setup", [], [])]
    i = 0
    while i < len(lines):
        m = re.match(r"^\s*# (\d+)\. (.*)$", lines[i])
        if m:
            prose = [m.group(2)]
            i += 1
            while i < len(lines) and re.match(r"^\s*#\s", lines[i]):
                prose.append(lines[i].strip().lstrip("#").strip())
                i += 1
            text = " ".join(prose)
            split = re.match(r"(.+?[.?:])\s+(.*)$", text)
            head, rest = (split.group(1), split.group(2)) if split else (text, "")
            sections.append((f"{m.group(1)}. {head.rstrip('.:')}", [rest] if rest else [], []))
            continue
        sections[-1][2].append(lines[i])
        i += 1
    out = ["# Tutorial", "", intro.replace("\n    python3", "\n\n    python3"), ""]
    for title, prose, code in sections:
        while code and not code[-1].strip():
            code.pop()
        while code and not code[0].strip():
            code.pop(0)
        out += [f"## {title}", "", " ".join(prose), ""] if prose else [f"## {title}", ""]
        if code:
            out += ["```python", *code, "```", ""]
        shown = [name for line in code for name in _TUTORIAL_PICTURE.findall(line)]  # what this step draws
        alt = {name: name.rsplit(".", 1)[0].replace("-", " ") for name in shown}
        out += [f"![{alt[name]}]({TUTORIAL_PICTURES}/{name})" for name in shown] + ([""] if shown else [])
    out.append("The whole script is `examples/tutorial.py`; the test suite runs it (`tests/test_tutorial.py`).")
    return "\n".join(out) + "\n"


#: where the pictures the tutorial draws go in the site, and how its code names one
TUTORIAL_PICTURES = "tutorial-pictures"
_TUTORIAL_PICTURE = re.compile(r'output=outdir / "([\w.-]+\.svg)"')


def tutorial_pictures() -> dict[str, bytes]:
    """Run ``examples/tutorial.py`` (its ``main(outdir)``, output silenced) and return the SVG
    pictures it drew, by their path in the site; a failing tutorial fails the build."""
    import contextlib
    import importlib.util
    import io

    spec = importlib.util.spec_from_file_location("coinsat_tutorial", ROOT / "examples" / "tutorial.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    with tempfile.TemporaryDirectory() as tmp, contextlib.redirect_stdout(io.StringIO()):
        if module.main(Path(tmp)) != 0:
            raise SystemExit("examples/tutorial.py failed: run it to see why")
        return {f"{TUTORIAL_PICTURES}/{p.name}": p.read_bytes() for p in sorted(Path(tmp).glob("*.svg"))}


def notebook_page(path: Path = NOTEBOOK) -> str:
    """The notebook as Markdown: its text cells, its code, and the outputs stored with it."""
    nb = json.loads(path.read_text())
    out = []
    for cell in nb["cells"]:
        source = "".join(cell["source"])
        if cell["cell_type"] == "markdown":
            out.append(source)
            continue
        out.append(f"```python\n{source}\n```")
        for o in cell.get("outputs", []):
            data = o.get("data", {})
            if "image/svg+xml" in data:
                svg = "".join(data["image/svg+xml"])
                out.append(f'<div class="nb-output">\n{_one_block(svg)}\n</div>')
            elif "text/plain" in data or o.get("output_type") == "stream":
                text = "".join(data.get("text/plain", o.get("text", "")))
                out.append("```text\n" + text.rstrip() + "\n```")
    return "\n\n".join(out) + "\n"


def _one_block(html: str) -> str:
    """Raw HTML that Markdown keeps as one block: no blank lines inside."""
    return "\n".join(line for line in html.splitlines() if line.strip())


# ---------------------------------------------------------------- the command-line reference


def _subcommands(parser: argparse.ArgumentParser) -> list[tuple[str, str, argparse.ArgumentParser]]:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            helps = {a.dest: a.help or "" for a in action._choices_actions}
            return [(name, helps.get(name, ""), sub) for name, sub in action.choices.items()]
    return []


def _argument_rows(parser: argparse.ArgumentParser) -> list[tuple[str, str]]:
    rows = []
    for a in parser._actions:
        if isinstance(a, (argparse._HelpAction, argparse._SubParsersAction)):
            continue
        if a.option_strings:
            metavar = "" if a.nargs == 0 else " " + str(a.metavar or a.dest.upper())
            name = ", ".join(f"`{o}{metavar}`" for o in a.option_strings)
        else:
            name = f"`{a.metavar or a.dest}`"
        what = (a.help or "").replace("%(default)s", str(a.default))
        extras = []
        if a.choices is not None and not isinstance(a, argparse._SubParsersAction):
            extras.append("one of " + ", ".join(f"`{c}`" for c in a.choices))
        if a.option_strings and a.default not in (None, False, argparse.SUPPRESS) and a.nargs != 0:
            extras.append(f"default `{a.default}`")
        if a.required and a.option_strings:
            extras.append("required")
        if a.nargs in ("?", "*") and not a.option_strings:
            extras.append("optional")
        text = what + (" (" + "; ".join(extras) + ")" if extras else "")
        cell = html.escape(text, quote=False).replace("|", "\\|").replace("\n", "<br>")  # "<img>" is text
        rows.append((name.replace("|", "\\|"), cell))  # --method: a line each
    return rows


def _arguments(parser: argparse.ArgumentParser) -> list[str]:
    rows = _argument_rows(parser)
    if not rows:
        return []
    return ["", "| argument | meaning |", "|---|---|"] + [f"| {n} | {t or '—'} |" for n, t in rows]


def cli_page() -> str:
    """Every subcommand of ``coinsat``, from the parser itself (so it cannot drift from the code)."""
    import os

    from coinsat import cli

    os.environ["COLUMNS"] = "88"  # argparse wraps usage lines to this width (a narrow page's code block)
    parser = cli.get_parser()
    doc = inspect.getdoc(cli) or ""
    out = [
        "# Command line",
        "",
        "Generated from the argument parser (`coinsat/cli.py`, one module per subcommand in "
        "`coinsat/commands/`) each time the site is built.",
        "",
        "```text\n" + parser.format_usage().strip() + "\n```",
        "",
        _md_docstring(doc.split("\n\n", 1)[1] if "\n\n" in doc else ""),
        "",
        "| command | what it does |",
        "|---|---|",
    ]
    subs = _subcommands(parser)
    out += [f"| [`{name}`](#{name}) | {text} |" for name, text, _ in subs]
    for name, text, sub in subs:
        out += [
            "",
            f"## {name}",
            "",
            text[:1].upper() + text[1:] + ".",
            "",
            "```text",
            sub.format_usage().strip(),
            "```",
        ]
        out += _arguments(sub)
        for inner, inner_text, inner_sub in _subcommands(sub):  # e.g. family vdiag, family diagonal
            out += ["", f"### {name} {inner}", "", inner_text, "", "```text", inner_sub.format_usage().strip(), "```"]
            out += _arguments(inner_sub)
        module = sys.modules.get(f"coinsat.commands.{name.replace('-', '_')}")
        mod_doc = inspect.getdoc(module) if module else None
        if mod_doc:
            out += ["", _md_docstring(mod_doc)]
    return "\n".join(out) + "\n"


# ---------------------------------------------------------------- the API reference

#: the names documented beyond coinsat.__all__: (module, name)
EXTRA_API = [
    ("coinsat.draw", "Drawing"),
    ("coinsat.draw.style", "Style"),
    ("coinsat.count", "Count"),
    ("coinsat.result", "Statistics"),
]


#: numpydoc's section titles (a title underlined with dashes); the entries of the first three
#: (``name : type`` and an indented description) become list items
_LISTED_SECTIONS = ("Parameters", "Returns", "Raises", "Yields", "Attributes")
_SECTIONS = (*_LISTED_SECTIONS, "Examples", "Notes", "See Also", "References")


def _numpydoc(lines: list[str]) -> list[str]:
    """numpydoc sections (``Parameters`` over a line of dashes) as bold titles, and the entries of
    Parameters, Returns and Raises as list items: ``- `name` (type): description``."""
    out: list[str] = []
    listed, i = False, 0
    while i < len(lines):
        line = lines[i]
        if line.strip() in _SECTIONS and i + 1 < len(lines) and re.fullmatch(r"\s*-{3,}\s*", lines[i + 1]):
            listed = line.strip() in _LISTED_SECTIONS
            out += ["", f"**{line.strip()}**", ""]
            i += 2
            continue
        if listed and line.strip() and not line.startswith(" "):
            name, _, kind = line.partition(" : ")
            text = []
            i += 1
            while i < len(lines) and (lines[i].startswith(" ") or not lines[i].strip()):
                if lines[i].strip():
                    text.append(lines[i].strip())
                elif i + 1 < len(lines) and not lines[i + 1].startswith(" "):
                    break
                i += 1
            head = f"`{name.strip()}`" + (f" ({kind.strip()})" if kind.strip() else "")
            out.append(f"- {head}" + (f": {' '.join(text)}" if text else ""))
            continue
        out.append(line)
        i += 1
    return out


def _md_docstring(doc: str) -> str:
    """Sphinx-flavoured docstring text as Markdown: roles and double backquotes to code, numpydoc
    sections to titled lists, and doctest blocks to fenced ``pycon`` code."""
    doc = re.sub(r":(?:func|class|meth|mod|attr|data|exc):`~?([^`]+)`", lambda m: f"`{m.group(1)}`", doc)
    doc = doc.replace("``", "`")
    lines, out, i = _numpydoc(doc.splitlines()), [], 0
    while i < len(lines):
        if lines[i].lstrip().startswith(">>>"):
            block = []
            while i < len(lines) and lines[i].strip():
                block.append(lines[i].strip() if lines[i].lstrip().startswith((">>>", "...")) else lines[i].strip())
                i += 1
            out += ["", "```pycon", *block, "```", ""]
            continue
        if re.match(r"^\s{4,}\S", lines[i]) and (not out or not out[-1].strip()):  # an indented command
            block = []
            while i < len(lines) and (lines[i].startswith("    ") or not lines[i].strip()):
                block.append(lines[i][4:])
                i += 1
            while block and not block[-1].strip():
                block.pop()
            out += ["```text", *block, "```", ""]
            continue
        out.append(lines[i])
        i += 1
    return "\n".join(out).strip()


def _signature(name: str, obj: Any) -> str:
    """``name(parameters) -> annotation``, one parameter a line when it is long."""
    try:
        sig = inspect.signature(obj)
    except (TypeError, ValueError):
        return f"{name}(...)"
    text = f"{name}{sig}"
    if len(text) <= 88 or not sig.parameters:
        return text
    params, star = [], False
    for p in sig.parameters.values():
        if p.kind is p.KEYWORD_ONLY and not star:
            params.append("*")
            star = True
        params.append(str(p))
    tail = (
        ""
        if sig.return_annotation is inspect.Signature.empty
        else f" -> {inspect.formatannotation(sig.return_annotation)}"
    )
    return f"{name}(\n" + "".join(f"    {p},\n" for p in params) + f"){tail}"


def api_entries(package: ModuleType) -> list[tuple[str, str, Any]]:
    """The documented names: ``package.__all__`` (functions and classes), then EXTRA_API."""
    import importlib

    seen = []
    for name in package.__all__:
        obj = getattr(package, name)
        if inspect.isfunction(obj) or inspect.isclass(obj):
            seen.append((f"coinsat.{name}", name, obj))
    for module, name in EXTRA_API:
        obj = getattr(importlib.import_module(module), name, None)
        if obj is not None and all(obj is not o for _, _, o in seen):  # not exported already
            seen.append((f"{module}.{name}", name, obj))
    return seen


def api_page(package: ModuleType) -> str:
    """The API reference of ``package`` (the package root, passed in: it sits above this module)."""
    out = [
        "# Python API",
        "",
        "Generated from the docstrings each time the site is built. The package's own introduction "
        "(`coinsat/__init__.py`):",
        "",
        _md_docstring(inspect.getdoc(package) or ""),
    ]
    functions = [e for e in api_entries(package) if inspect.isfunction(e[2])]
    classes = [e for e in api_entries(package) if inspect.isclass(e[2])]
    for heading, group in (("Functions", functions), ("Types", classes)):
        out += ["", f"## {heading}"]
        for full, name, obj in group:
            out += ["", f"### {name}", "", f"```python\n{_signature(full, obj)}\n```", ""]
            out.append(_md_docstring(inspect.getdoc(obj) or "(no docstring)"))
            if inspect.isclass(obj) and not issubclass(obj, BaseException):
                members = [
                    (m, v)
                    for m, v in vars(obj).items()
                    if not m.startswith("_")
                    and (inspect.isfunction(v) or isinstance(v, property))
                    and inspect.getdoc(v)
                ]
                for m, v in members:
                    sig = "" if isinstance(v, property) else str(inspect.signature(v))
                    out += ["", f"**`{name}.{m}{sig}`**", "", _md_docstring(inspect.getdoc(v) or "")]
    return "\n".join(out) + "\n"


# ---------------------------------------------------------------- MkDocs hooks

#: the generated pages: path in the site -> its maker, given the package root
GENERATED: dict[str, Callable[[ModuleType], str]] = {
    "index.md": lambda package: readme_page("index.md"),
    "file-format.md": lambda package: readme_page("file-format.md"),
    "answers.md": lambda package: readme_page("answers.md"),
    "cli.md": lambda package: cli_page(),
    "api.md": api_page,
    "tutorial.md": lambda package: tutorial_page(),
    "notebook.md": lambda package: notebook_page(),
}


def generated_pages(package: ModuleType) -> dict[str, str]:
    """Every generated page, by its path in the site (``package``: the package root)."""
    pages = {name: make(package) for name, make in GENERATED.items()}
    for spec in sorted((ROOT / "encodings").glob("*.md")):
        pages[f"encodings/{spec.name}"] = spec.read_text()
    for readme in sorted((ROOT / "instances").glob("*/README.md")):
        pages[f"puzzles/{readme.parent.name}.md"] = readme.read_text()
    pages.update(benchmark_pages())
    return pages


def benchmark_pages() -> dict[str, str]:
    """``benchmarks/``: its README as the section's index (with a line for every table it does not
    link), each other Markdown table as a page, and a page listing each folder's files."""
    pages = {}
    tables = sorted(p for p in BENCHMARKS.glob("*.md") if p.name != "README.md")
    readme = (BENCHMARKS / "README.md").read_text()
    unlinked = [p.name for p in tables if f"]({p.name})" not in readme]
    if unlinked:
        readme += "\n## Also here\n\n" + "".join(f"- [{n}]({n})\n" for n in unlinked)
    pages["benchmarks/index.md"] = readme
    for p in tables:
        pages[f"benchmarks/{p.name}"] = p.read_text()
    for folder in sorted(p for p in BENCHMARKS.iterdir() if p.is_dir()):
        files = sorted(f.relative_to(folder).as_posix() for f in folder.rglob("*") if f.is_file())
        pages[f"benchmarks/{folder.name}/index.md"] = f"# benchmarks/{folder.name}/\n\n" + "".join(
            f"- [{f}]({f})\n" for f in files
        )
    return pages


def benchmark_files() -> dict[str, Path]:
    """Every file of ``benchmarks/`` that is not a Markdown page, by its path in the site."""
    return {
        p.relative_to(ROOT).as_posix(): p
        for p in sorted(BENCHMARKS.rglob("*"))
        if p.is_file() and not (p.suffix == ".md" and p.parent == BENCHMARKS)
    }


def _title(text: str, fallback: str) -> str:
    m = re.search(r"^# (.+)$", text, re.M)
    return m.group(1).strip() if m else fallback


def site_nav(pages: dict[str, str]) -> list:
    own = sorted(str(p.relative_to(DOCS)) for p in DOCS.rglob("*.md"))
    nav: list = [
        {"Home": "index.md"},
        {"Tutorial": "tutorial.md"},
        {"Notebook": "notebook.md"},
        {"File format": "file-format.md"},
        {"Statuses and answers": "answers.md"},
        {"Command line": "cli.md"},
        {"Python API": "api.md"},
        {"Encodings": [{_title(pages[k], k): k} for k in sorted(pages) if k.startswith("encodings/")]},
        {"Puzzles": [{_title(pages[k], k): k} for k in sorted(pages) if k.startswith("puzzles/")]},
        {"Benchmarks": "benchmarks/index.md"},  # its pages are reached from there and from the citations
    ]
    if own:
        nav.append({"Proofs and notes": [{_title((DOCS / n).read_text(), n): n} for n in own]})
    return nav


_PAGES: dict[str, str] = {}


def configure(config, package: ModuleType):
    """The ``on_config`` hook's work: make the pages (``package``: the package root), the nav, the
    heading ids (:func:`slugify`) and the style sheet."""
    _PAGES.clear()
    _PAGES.update(generated_pages(package))
    config["nav"] = site_nav(_PAGES)
    config["mdx_configs"].setdefault("toc", {})["slugify"] = slugify
    config["extra_css"].append(STYLE_SHEET)
    return config


def on_files(files, config, **kwargs):
    from mkdocs.structure.files import File, InclusionLevel

    def add(name: str, **source) -> None:
        if files.get_file_from_path(name) is not None:
            raise SystemExit(f"docs/{name} would hide the generated file of that name: rename it")
        in_nav = not name.startswith("benchmarks/") or name == "benchmarks/index.md"
        level = InclusionLevel.UNDEFINED if in_nav else InclusionLevel.NOT_IN_NAV
        files.append(File.generated(config, name, inclusion=level, **source))

    for name, text in _PAGES.items():
        add(name, content=text)
    for name, path in benchmark_files().items():
        add(name, abs_src_path=str(path))
    for name, data in tutorial_pictures().items():
        add(name, content=data)
    add(STYLE_SHEET, content=STYLE)
    return files


# ---------------------------------------------------------------- heading ids, math, the style sheet


def slugify(value: str, separator: str) -> str:
    """Markdown's own heading ids, with ``s`` before one that would start with a digit (a CSS
    selector ``#1-the-puzzle`` is invalid, and the theme's scrollspy throws on it)."""
    from markdown.extensions.toc import slugify as plain

    slug = plain(value, separator)
    return f"s{slug}" if slug[:1].isdigit() else slug


def _anchor(anchor: str) -> str:
    """A heading id as :func:`slugify` makes it, from the one GitHub makes (``#2-the-schedule``)."""
    return f"s{anchor}" if anchor[:1].isdigit() else anchor


_MATH = re.compile(r'<(span|div) class="arithmatex">\\[(\[](.*?)\\[)\]]</\1>', re.S)


def math_to_mathml(page_html: str) -> str:
    """``pymdownx.arithmatex``'s spans (``\\(...\\)``) and blocks (``\\[...\\]``) as MathML."""
    from latex2mathml.converter import convert

    def one(tex: str, display: str) -> str:
        mathml = convert(tex, display=display)
        unknown = re.search(r">(\\[A-Za-z]+|&)<", mathml)  # a command latex2mathml does not know, or aligned's &
        if unknown:
            raise ValueError(f"math {tex!r}: latex2mathml cannot render {unknown.group(1)!r}")
        return mathml

    def render(m: re.Match) -> str:
        tag, tex = m.group(1), html.unescape(m.group(2)).strip()
        if tag == "div":
            return one(tex, "block")  # a display scrolls in its own box (STYLE)
        return "<wbr>".join(one(piece, "inline") for piece in _inline_pieces(tex))

    return _MATH.sub(render, page_html)


#: the relations a line of inline math may break before, as TeX breaks after them
_RELATIONS = {"=", "<", ">", r"\le", r"\ge", r"\leq", r"\geq", r"\ne", r"\neq", r"\equiv", r"\subseteq", r"\in"}
_TOKEN = re.compile(r"\\[A-Za-z]+|\\.|.", re.S)


def _inline_pieces(tex: str) -> list[str]:
    """Inline math cut before each relation outside braces (MathML in a browser never breaks a
    line, so ``a = b ≤ c`` is drawn as pieces ``a``, ``= b``, ``≤ c`` a line may break between)."""
    pieces, current, depth = [], "", 0
    for token in _TOKEN.findall(tex):
        if token in ("{", r"\left", r"\begin"):
            depth += 1
        elif token in ("}", r"\right", r"\end"):
            depth -= 1
        elif depth == 0 and token in _RELATIONS and current.strip():
            pieces.append(current)
            current = ""
        current += token
    return [p for p in pieces + [current] if p.strip()]


def on_page_content(page_html, page, config, files, **kwargs):
    try:
        return math_to_mathml(page_html)
    except ValueError as e:
        raise SystemExit(f"{page.file.src_uri}: {e}") from None


#: the site's own style: every wide thing (table, code block, picture, formula) scrolls or shrinks
#: inside its own box, so no page scrolls sideways on a 390 px phone
STYLE_SHEET = "css/coinsat.css"
STYLE = """\
body { overflow-wrap: break-word; }
table { display: block; max-width: 100%; overflow-x: auto; }
pre { max-width: 100%; overflow-x: auto; }
pre code { white-space: pre; word-break: normal; overflow-wrap: normal; }
p code, li code, td code, th code { overflow-wrap: anywhere; word-break: break-word; }
img, svg { max-width: 100%; height: auto; }
.nb-output { max-width: 100%; overflow-x: auto; }
math[display="block"] { display: block; max-width: 100%; overflow-x: auto; overflow-y: hidden; padding: 0.3em 0; }
math { font-size: 1.15em; }
"""


#: where the Markdown of a page came from, so its relative links can be resolved in the repository
def _origin(page_path: str) -> str:
    if page_path in ("index.md", "file-format.md", "answers.md"):
        return "README.md"
    if page_path.startswith("encodings/"):
        return page_path
    if page_path.startswith("puzzles/"):
        return f"instances/{Path(page_path).stem}/README.md"
    if page_path.startswith("benchmarks/"):
        return page_path[: -len("index.md")] + "README.md" if page_path.endswith("index.md") else page_path
    if page_path in GENERATED:
        return f"docs/{page_path}"
    return f"docs/{page_path}"


def _site_path(repo_path: str) -> str | None:
    """The page (or file) of the site that shows this repository file, if any."""
    if repo_path.startswith("docs/"):
        inner = repo_path[len("docs/") :]
        if inner.startswith(f"{TUTORIAL_PICTURES}/"):  # drawn at build time (tutorial_pictures)
            return inner
        return inner if inner and (DOCS / inner).is_file() else None
    if repo_path.startswith("encodings/") and repo_path.endswith(".md"):
        return repo_path
    m = re.fullmatch(r"instances/([^/]+)/README\.md", repo_path)
    if m:
        return f"puzzles/{m.group(1)}.md"
    if repo_path == "README.md":
        return "index.md"
    if repo_path == "examples/tutorial.py":
        return "tutorial.md"
    if repo_path.startswith("benchmarks/") or repo_path == "benchmarks":
        target = ROOT / repo_path
        if target.is_dir():
            return f"{repo_path.rstrip('/')}/index.md"
        if target.name == "README.md":
            return f"{posixpath.dirname(repo_path)}/index.md"
        return repo_path if target.is_file() else None
    return None


def _slug(heading: str) -> str:
    return re.sub(r"[\s]+", "-", re.sub(r"[^\w\s-]", "", heading).strip().lower())


def _readme_anchor(anchor: str) -> tuple[str, str]:
    """The page (and anchor) that shows the README section ``#anchor``."""
    for page, (_, headings) in README_PAGES.items():
        if headings and anchor in {_slug(h) for h in headings}:
            return page, ""
    if anchor == "command-line":
        return "cli.md", ""
    return "index.md", anchor if anchor in {_slug(h) for h in INDEX_SECTIONS} else ""


_LINK = re.compile(r"(!?)\[([^\]]*)\]\(([^)\s]+)\)")


def rewrite_links(markdown: str, page_path: str) -> str:
    """Relative links resolved from the page's origin in the repository: to the site's page or
    file that shows the target, else the target's path in code type (and an image is dropped to
    its alt text)."""
    origin_dir = posixpath.dirname(_origin(page_path))
    page_dir = posixpath.dirname(page_path)

    def fix(m: re.Match) -> str:
        bang, text, target = m.groups()
        if re.match(r"^[a-z][a-z0-9+.-]*:", target) or target.startswith(("#", "/")):
            return m.group(0)
        path, _, anchor = target.partition("#")
        repo = posixpath.normpath(posixpath.join(origin_dir, path)) if path else _origin(page_path)
        site = _site_path(repo)
        if repo == "README.md" and anchor:  # a README section: its own page, or the home page's section
            site, anchor = _readme_anchor(anchor)
        if site is not None:
            rel = posixpath.relpath(site, page_dir or ".")
            return f"{bang}[{text}]({rel}{'#' + _anchor(anchor) if anchor else ''})"
        shown = text if text and text.strip("`") != repo else ""
        return f"{shown} (`{repo}`)" if shown else f"`{repo}`"

    def cite(m: re.Match) -> str:  # `benchmarks/pinwheel.md` in prose: a link when the site shows it
        path = m.group(1)
        site = _site_path(posixpath.normpath(path))
        if not site:
            return m.group(0)
        return f"[`{path}`]({posixpath.relpath(site, page_dir or '.')})"

    def plain(m: re.Match) -> str:  # benchmarks/pinwheel.md in running text: a link too
        path = m.group(0)
        site = _site_path(posixpath.normpath(path))
        return f"[{path}]({posixpath.relpath(site, page_dir or '.')})" if site else path

    def running_text(text: str) -> str:  # outside code spans, links, HTML tags and headings
        parts = _PROTECTED.split(text)
        return "".join(q if i % 2 else _PLAIN_CITE.sub(plain, q) for i, q in enumerate(parts))

    def prose(text: str) -> str:
        text = re.sub(r"\]\(#(\d[^)\s]*)\)", lambda m: f"](#{_anchor(m.group(1))})", text)
        return running_text(_CITE.sub(cite, _LINK.sub(fix, text)))

    # leave fenced code alone
    parts = re.split(r"(^```.*?^```)", markdown, flags=re.M | re.S)
    return "".join(p if p.startswith("```") else prose(p) for p in parts)


#: what a path in running text is never linked inside: code spans, links, HTML tags, heading lines
_PROTECTED = re.compile(r"(`+[^`]*?`+|!?\[[^\]]*\]\([^)]*\)|<[^>\n]+>|^#{1,6} .*$)", re.M)
#: benchmarks/FILE in running text (a sentence's final full stop is not part of it)
_PLAIN_CITE = re.compile(r"(?<![\w/.\-])benchmarks/(?:[\w-]+(?:\.[\w-]+)*/?)*")

#: a repository path in code type, not already the text of a link
_CITE = re.compile(r"(?<![\[\w`])`((?:benchmarks|docs|encodings)/[\w./-]*)`(?!\]\()")


def on_page_markdown(markdown, page, config, files, **kwargs):
    return rewrite_links(markdown, page.file.src_uri)


# ---------------------------------------------------------------- the check CI runs


def run_notebook(path: Path = NOTEBOOK, timeout: int = 120) -> Any:
    """Execute the notebook in a fresh kernel (nbclient); an error in any cell raises."""
    import nbformat
    from jupyter_client.manager import KernelManager
    from nbclient import NotebookClient

    nb = nbformat.read(path, as_version=4)
    with tempfile.TemporaryDirectory() as sockets:  # the kernel on local sockets, not TCP (its warning said so)
        km = KernelManager(kernel_name="python3", transport="ipc", ip=str(Path(sockets) / "kernel"))
        try:
            NotebookClient(nb, km=km, timeout=timeout, resources={"metadata": {"path": str(ROOT)}}).execute()
        finally:
            if km.has_kernel:
                km.shutdown_kernel(now=True)
    return nb
