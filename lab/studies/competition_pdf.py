#!/usr/bin/env python3
"""The SAT Competition description as a PDF in the proceedings' style: encodings/competition-description.pdf.

    python3 scripts/competition_pdf.py [--source encodings/competition-description.md]
        [--table benchmarks/sat-pack.csv] [--out encodings/competition-description.pdf]

Three steps, from the repository's sources only:

1. the hardness table of the Markdown source (between its ``<!-- sat-pack table: begin -->`` and
   ``end`` markers) is generated again from ``benchmarks/sat-pack.csv`` (``scripts/sat_pack_times.py``),
   so the text cannot quote a number the measurement did not make;
2. the Markdown becomes HTML (``markdown``, from the ``docs`` extra) with a two-column stylesheet
   after the IEEE conference template (US letter, Times 10 pt, a title across both columns, numbered
   section heads in small capitals);
3. headless Chromium prints it (``--print-to-pdf``), and the script reports the page count (the
   competition asks for 1–2 pages).
"""

from __future__ import annotations

import argparse
import csv
import html
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import markdown

from coinsat.io.atomic import write_atomic
from lab.studies.sat_pack_times import verdict

ROOT = Path(__file__).resolve().parents[2]
BEGIN, END = "<!-- sat-pack table: begin -->", "<!-- sat-pack table: end -->"
CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"]

CSS = """
@page { size: letter; margin: 0.75in 0.625in 1in 0.625in; }
body { font-family: "Times New Roman", "Nimbus Roman", "Liberation Serif", Times, serif; font-size: 10pt;
       line-height: 1.15; margin: 0; text-align: justify; hyphens: auto; }
h1 { font-size: 22pt; font-weight: normal; text-align: center; margin: 0 0 4pt 0; column-span: all; }
.byline { text-align: center; font-style: italic; margin-bottom: 12pt; column-span: all; }
.columns { column-count: 2; column-gap: 0.25in; }
h2 { font-size: 10pt; font-weight: normal; font-variant: small-caps; text-align: center; margin: 8pt 0 4pt 0; }
p { margin: 0 0 4pt 0; text-indent: 1em; }
p.abstract { font-weight: bold; font-size: 9pt; text-indent: 0; }
ul { margin: 0 0 4pt 0; padding-left: 1.2em; }
li { margin-bottom: 2pt; }
code { font-family: "Courier New", "Liberation Mono", monospace; font-size: 8.5pt; }
pre { font-size: 7.5pt; background: none; border-left: 1pt solid #888; padding-left: 4pt; white-space: pre-wrap;
      break-inside: avoid; }
table { border-collapse: collapse; font-size: 7.5pt; margin: 4pt 0; width: 100%; break-inside: avoid; }
th, td { border-top: 0.5pt solid black; border-bottom: 0.5pt solid black; padding: 1pt 2pt; text-align: center; }
"""


def table_markdown(rows: list[dict[str, str]]) -> str:
    """Per family: files, known answers, files measured, MiniSat timeouts, CaDiCaL solves, files
    that meet the rule, and whether the family meets it (10 or more)."""
    fams: dict[str, list[dict[str, str]]] = {}
    for r in rows:
        fams.setdefault(r["family"], []).append(r)
    out = [
        "| family | files | sat / unsat / unknown | measured | MiniSat > 60 s | CaDiCaL solved "
        "| meet the rule | family meets it |",
        "|---|---:|---|---:|---:|---:|---:|---|",
    ]
    for fam, rs in fams.items():
        n = [sum(r["answer"] == a for r in rs) for a in ("sat", "unsat", "unknown")]
        measured = sum(bool(r["minisat_s"] or r["cadical_s"]) for r in rs)
        slow = sum(r["minisat_s"] == "timeout" for r in rs)
        solved = [float(r["cadical_s"]) for r in rs if r["cadical_s"] not in ("", "timeout")]
        meets = sum(
            r["answer"] != "unknown" and r["minisat_s"] == "timeout" and r["cadical_s"] not in ("", "timeout")
            for r in rs
        )
        span = f" ({min(solved):.0f}–{max(solved):.0f} s)" if solved else ""
        out.append(
            f"| {fam} | {len(rs)} | {' / '.join(map(str, n))} | {measured} | {slow} | {len(solved)}{span} "
            f"| {meets} | {verdict(meets, n[2] == len(rs))} |"
        )
    return "\n".join(out)


def with_table(text: str, rows: list[dict[str, str]]) -> str:
    if BEGIN not in text or END not in text:
        sys.exit(f"competition_pdf.py: the source has no {BEGIN} ... {END} markers")
    head, rest = text.split(BEGIN, 1)
    _, tail = rest.split(END, 1)
    return f"{head}{BEGIN}\n{table_markdown(rows)}\n{END}{tail}"


def page_html(text: str) -> str:
    """The Markdown as one HTML page: the title and the byline across the columns, the rest in two."""
    title, _, body = text.partition("\n")
    body = body.lstrip()
    byline, _, body = body.partition("\n\n")
    main = markdown.markdown(body, extensions=["tables", "fenced_code"])
    main = main.replace("<p><strong>Abstract.</strong>", '<p class="abstract"><em>Abstract</em>—', 1)
    return (
        '<!doctype html><html lang="en"><head><meta charset="utf-8">'
        f"<title>{html.escape(title.lstrip('# '))}</title><style>{CSS}</style></head><body>"
        f"<h1>{html.escape(title.lstrip('# '))}</h1>"
        f'<div class="byline">{markdown.markdown(byline.strip("*"))[3:-4]}</div>'
        f'<div class="columns">{main}</div></body></html>'
    )


def pages(pdf: bytes) -> int:
    return len(re.findall(rb"/Type\s*/Page(?![s\w])", pdf))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--source", type=Path, default=ROOT / "encodings" / "competition-description.md")
    ap.add_argument("--table", type=Path, default=ROOT / "benchmarks" / "sat-pack.csv")
    ap.add_argument("--out", type=Path, default=ROOT / "encodings" / "competition-description.pdf")
    ap.add_argument("--chromium", default=shutil.which("chromium") or "/usr/bin/chromium")
    args = ap.parse_args(argv)
    with open(args.table, newline="", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    text = with_table(args.source.read_text(encoding="utf-8"), rows)
    write_atomic(args.source, text)
    with tempfile.TemporaryDirectory() as tmp:
        page = Path(tmp) / "description.html"
        page.write_text(page_html(text), encoding="utf-8")
        pdf = Path(tmp) / "description.pdf"
        subprocess.run(
            [
                args.chromium,
                *CHROMIUM_FLAGS,
                f"--user-data-dir={tmp}/profile",
                "--no-pdf-header-footer",
                f"--print-to-pdf={pdf}",
                page.as_uri(),
            ],
            check=True,
            capture_output=True,
        )
        data = pdf.read_bytes()
    write_atomic(args.out, data)
    n = pages(data)
    print(f"wrote {args.out.relative_to(ROOT) if args.out.is_relative_to(ROOT) else args.out}: {n} page(s)")
    return 0 if 1 <= n <= 2 else 1


if __name__ == "__main__":
    sys.exit(main())
