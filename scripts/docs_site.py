#!/usr/bin/env python3
"""The documentation site: MkDocs hooks that generate its reference pages, and the CI check
(the pages and links: ``lab.docs_site``).

    python3 scripts/docs_site.py [--site DIR]       # build with `mkdocs build --strict`, run the notebook
    mkdocs build --strict                            # the same build (mkdocs.yml names this file as hooks)
    mkdocs serve                                     # read it at http://127.0.0.1:8000 while editing
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
from pathlib import Path

import coinsat

# the laboratory is not installed: the repository root, appended (mkdocs loads this file by its path)
sys.path.append(str(Path(__file__).resolve().parents[1]))

from lab.docs_site import ROOT, configure, on_files, on_page_content, on_page_markdown, run_notebook  # noqa: E402

__all__ = ["on_config", "on_files", "on_page_content", "on_page_markdown"]  # the hooks mkdocs.yml loads from this file


def on_config(config, **kwargs):
    return configure(config, coinsat)


def main() -> int:
    ap = argparse.ArgumentParser(description="Build the documentation site (strict) and run the example notebook.")
    ap.add_argument("--site", help="where to write the site (default: a temporary folder, removed)")
    ap.add_argument("--skip-notebook", action="store_true", help="do not execute examples/tour.ipynb")
    args = ap.parse_args()
    if not args.skip_notebook:
        nb = run_notebook()
        errors = [o for c in nb.cells for o in c.get("outputs", []) if o.get("output_type") == "error"]
        if errors:
            raise SystemExit(f"examples/tour.ipynb: {len(errors)} cells failed")
        print(f"examples/tour.ipynb: {sum(c.cell_type == 'code' for c in nb.cells)} code cells ran", file=sys.stderr)
    with tempfile.TemporaryDirectory() as tmp:
        site = args.site or tmp
        cmd = [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", site, "-f", str(ROOT / "mkdocs.yml")]
        done = subprocess.run(cmd, cwd=ROOT)
        if done.returncode != 0:
            return done.returncode
        print(f"docs: built with mkdocs --strict into {site}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
