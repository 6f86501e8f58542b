"""``coinsat gallery DIR`` (coinsat/commands/gallery.py): from any folder, after a plain install,
with the shipped puzzles and their stored answers by default, or with any folder of instance files.

The install test builds the wheel as ``.ci/run`` does (pip fetches the build backend: skipped
offline), installs it (without its dependencies, which this machine has)
into a fresh virtual environment and runs the installed ``coinsat gallery`` from a temporary
folder: the case of the review in which ``scripts/gallery.py`` crashed (it found the repository
from ``__file__``).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path

import pytest

from coinsat.cli import main
from coinsat.gallery import PACKAGED_ANSWERS
from coinsat.io.instance_format import shipped

ROOT = Path(__file__).resolve().parent.parent


class Links(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.hrefs: list[str] = []

    def handle_starttag(self, tag, attrs):
        if tag == "a":
            self.hrefs.extend(v for k, v in attrs if k == "href" and v)


def links(page: Path) -> list[str]:
    p = Links()
    p.feed(page.read_text())
    return p.hrefs


def run(capsys, *argv):
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_the_shipped_puzzles_from_another_folder(capsys, monkeypatch, tmp_path):
    """No --instances: the shipped puzzles, with their stored certificates, whatever the folder."""
    monkeypatch.chdir(tmp_path)
    code, out, err = run(capsys, "gallery", "site", "--only", "diagonal", "o-to-h", "--no-solve")
    assert code == 0, err
    assert "wrote 2 puzzle pages" in out
    page = (tmp_path / "site" / "paper-diagonal.html").read_text()
    # the stored answer, not a solve here: the layers certificate accepted by check-certificate
    assert "optimal: 18 moves (no solution with &lt;= 17 moves)" in page
    assert "accepted by coinsat check-certificate" in page
    assert "paper/diagonal.toml" in page  # the name coinsat solve takes
    index = tmp_path / "site" / "index.html"
    assert {"paper-diagonal.html", "paper-o-to-h.html"} <= set(links(index))


def test_every_shipped_puzzle_has_a_stored_answer():
    answers = json.loads(PACKAGED_ANSWERS.read_text())
    assert sorted(f"paper/{n.split('/')[1]}.toml" for n in shipped()) == sorted(
        k for k in answers if k.startswith("paper/")
    )


def test_a_folder_of_my_own_puzzles_is_solved_here(capsys, tmp_path):
    """A flat folder: one heading named after it; a puzzle with no stored answer is solved (or,
    with --no-solve, shown as missing)."""
    mine = tmp_path / "mine"
    mine.mkdir()
    shutil.copy(ROOT / "instances/paper/h-to-o.toml", mine / "my-h.toml")
    code, out, err = run(capsys, "gallery", str(tmp_path / "site"), "--instances", str(mine))
    assert code == 0, err
    page = (tmp_path / "site" / "mine-my-h.html").read_text()
    assert "solved here" in page and "<th>status</th><td>optimal</td>" in page
    assert "<th>moves</th><td>4</td>" in page and "mine/my-h.toml" in page
    code, out, err = run(capsys, "gallery", str(tmp_path / "bare"), "--instances", str(mine), "--no-solve")
    assert code == 0 and "1 no stored answer" in out, out + err
    assert "no stored answer" in (tmp_path / "bare" / "mine-my-h.html").read_text()


def test_a_folder_of_folders_has_a_heading_each(capsys, tmp_path):
    for group, name in (("alpha", "h-to-o"), ("beta", "rhomboid")):
        (tmp_path / "tree" / group).mkdir(parents=True)
        shutil.copy(ROOT / f"instances/paper/{name}.toml", tmp_path / "tree" / group / f"{name}.toml")
    code, out, err = run(capsys, "gallery", str(tmp_path / "site"), "--instances", str(tmp_path / "tree"))
    assert code == 0, err
    index = (tmp_path / "site" / "index.html").read_text()
    assert "<h2>Alpha</h2>" in index and "<h2>Beta</h2>" in index
    assert {"alpha-h-to-o.html", "beta-rhomboid.html"} <= set(links(tmp_path / "site" / "index.html"))


@pytest.mark.parametrize(
    "make, said",
    [
        (lambda t: t / "nosuch", "no such folder"),
        (lambda t: (t / "empty").mkdir() or t / "empty", "no instance files"),
        (lambda t: (t / "f.toml").write_text("x") and t / "f.toml", "not a folder"),
    ],
)
def test_a_bad_instance_folder_is_one_line(capsys, tmp_path, make, said):
    folder = make(tmp_path)
    code, out, err = run(capsys, "gallery", str(tmp_path / "site"), "--instances", str(folder))
    assert code == 2 and said in err and len(err.strip().splitlines()) == 1, err
    assert not (tmp_path / "site").exists()


def test_missing_or_malformed_answers_are_one_line(capsys, tmp_path):
    code, _, err = run(capsys, "gallery", str(tmp_path / "s"), "--answers", str(tmp_path / "none.json"))
    assert code == 2 and "no such file" in err and len(err.strip().splitlines()) == 1, err
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    code, _, err = run(capsys, "gallery", str(tmp_path / "s"), "--answers", str(bad))
    assert code == 2 and "malformed JSON" in err and len(err.strip().splitlines()) == 1, err


def copy_of_the_sources(to: Path) -> Path:
    """What the wheel is built from: pyproject.toml, README, LICENSE, the package (its data links
    kept) and the files its links name."""
    skip = shutil.ignore_patterns("__pycache__", "*.pyc")
    shutil.copytree(ROOT / "coinsat", to / "coinsat", symlinks=True, ignore=skip)
    shutil.copytree(ROOT / "instances" / "paper", to / "instances" / "paper")
    (to / "benchmarks").mkdir()
    shutil.copy(ROOT / "benchmarks" / "gallery_answers.json", to / "benchmarks")
    for name in ("pyproject.toml", "README.md", "LICENSE"):
        shutil.copy(ROOT / name, to)
    return to


def test_the_installed_wheel_builds_the_gallery_from_a_temp_folder(tmp_path):
    """pip wheel, a fresh venv, pip install the wheel, then ``coinsat gallery site`` in a folder
    that is not the checkout: the installed package (not this checkout) writes every shipped page."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    source = copy_of_the_sources(tmp_path / "src")  # setuptools writes build/ beside the sources it builds
    pip = [sys.executable, "-m", "pip"]
    built = subprocess.run(
        [*pip, "wheel", "-q", "--no-deps", "-w", str(tmp_path / "dist"), str(source)],  # as .ci/run builds it
        capture_output=True,
        text=True,
        env=env,
    )
    if built.returncode != 0:
        pytest.skip(f"no wheel could be built here: {built.stderr.strip().splitlines()[-1:]}")
    wheel = next((tmp_path / "dist").glob("coinsat-*.whl"))
    venv = tmp_path / "venv"
    # the dependencies come from this interpreter's site-packages; coinsat from the wheel alone
    subprocess.run([sys.executable, "-m", "venv", "--system-site-packages", str(venv)], check=True)
    python = venv / "bin" / "python"
    subprocess.run([str(python), "-m", "pip", "install", "-q", "--no-deps", str(wheel)], check=True, env=env)
    work = tmp_path / "elsewhere"
    work.mkdir()
    probe = [str(python), "-c", "import coinsat; print(coinsat.__file__)"]
    where = subprocess.run(probe, cwd=work, capture_output=True, text=True, env=env)
    assert Path(where.stdout.strip()).is_relative_to(venv), where.stdout  # the wheel's copy, not the checkout
    done = subprocess.run(
        [str(venv / "bin" / "coinsat"), "gallery", "site"], cwd=work, capture_output=True, text=True, env=env
    )
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    site = work / "site"
    pages = {f"paper-{n.split('/')[1]}.html" for n in shipped()}
    assert pages <= set(links(site / "index.html"))
    assert all((site / p).is_file() for p in pages)
    assert "accepted by coinsat check-certificate" in (site / "paper-diagonal.html").read_text()


def test_answers_beside_the_folder_are_found_from_inside_it(capsys, monkeypatch, tmp_path):
    """A checkout-like tree: repo/instances/mine/h.toml and repo/benchmarks/gallery_answers.json
    with an answer for mine/h.toml; ``--instances .`` from inside mine/ reads it (nothing solved)."""
    mine = tmp_path / "repo" / "instances" / "mine"
    mine.mkdir(parents=True)
    shutil.copy(ROOT / "instances/paper/h-to-o.toml", mine / "h.toml")
    stored = json.loads(PACKAGED_ANSWERS.read_text())["paper/h-to-o.toml"]  # the same bytes, the same sha256
    (tmp_path / "repo" / "benchmarks").mkdir()
    (tmp_path / "repo" / "benchmarks" / "gallery_answers.json").write_text(json.dumps({"mine/h.toml": stored}))
    monkeypatch.chdir(mine)
    code, out, err = run(capsys, "gallery", str(tmp_path / "site"), "--instances", ".", "--no-solve")
    assert code == 0 and "1 optimal" in out, out + err
    page = (tmp_path / "site" / "mine-h.html").read_text()
    assert "instances/mine/h.toml" in page and "accepted by coinsat check-certificate" in page
