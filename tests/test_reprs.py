"""The one-line reprs a person sees in a REPL or notebook: status, length, engine; no field dump."""

from __future__ import annotations

from coinsat.io.instance_format import read_instance
from coinsat.result import Status
from coinsat.solve import solve


def test_an_optimal_result_reads_as_one_line():
    r = solve(read_instance("instances/paper/diagonal.toml"), "spanbfs")
    text = repr(r)
    assert text.startswith("<Result optimal, 18 moves (engine spanbfs, ")
    assert "\n" not in text and "Move(" not in text


def test_an_unsolvable_result_names_its_scope():
    r = solve(read_instance("instances/paper/one-extra.toml"))
    assert r.status is Status.UNSOLVABLE
    assert "unsolvable" in repr(r) and f"scope {r.certificate.scope.value}" in repr(r)


def test_a_solution_shows_its_first_moves_and_how_many_more():
    sol = solve(read_instance("instances/paper/diagonal.toml"), "spanbfs").solution
    text = repr(sol)
    first = sol.moves[0]
    assert text.startswith(f"<Solution 18 moves, as cell indices: {first.src} -> {first.dst}, ")
    assert text.endswith("(10 more)>")


def test_every_output_writes_a_move_in_one_notation(capsys, tmp_path):
    """solve, show, verify, decode and the Python API write a move ``(x, y) -> (x, y)`` (review round 4, m7)."""
    import json
    import re

    from pysat.solvers import Solver

    from coinsat.cli import main

    def run(*argv: str) -> str:
        assert main(list(argv)) == 0
        return capsys.readouterr().out

    inst = read_instance("instances/paper/h-to-o.toml")
    sol = solve(inst, "bfs").solution
    expected = [inst.move_text(m) for m in sol.moves]
    assert all(re.fullmatch(r"\(-?\d+, -?\d+\) -> \(-?\d+, -?\d+\)", e) for e in expected)
    assert [line.split(". ", 1)[1] for line in sol.text(inst).splitlines()] == expected

    answer = tmp_path / "h.json"
    out = run("solve", "paper/h-to-o", "--method", "bfs", "-o", str(answer))
    cells = [tuple(map(tuple, m)) for m in json.loads(answer.read_text())["moves"]]
    shown = [inst.move_text((inst.board.cell(s), inst.board.cell(p))) for s, p in cells]
    assert [line.split(". ", 1)[1] for line in out.splitlines() if " -> " in line] == shown
    assert all(f"step {t}: {m}" in run("show", "paper/h-to-o", str(answer)) for t, m in enumerate(shown, 1))

    cnf, model = tmp_path / "h.cnf", tmp_path / "h.model"
    run("export", "paper/h-to-o", "--horizon", "4", "--format", "cnf", "-o", str(cnf))
    clauses = [[int(x) for x in line.split()[:-1]] for line in cnf.read_text().splitlines() if line[:1] not in "cp"]
    with Solver(name="cadical195", bootstrap_with=[c for c in clauses if c]) as solver:
        assert solver.solve()
        model.write_text("s SATISFIABLE\nv " + " ".join(map(str, solver.get_model())) + " 0\n")
    out = run("decode", "paper/h-to-o", str(cnf), str(model), "-o", str(answer))
    cells = [tuple(map(tuple, m)) for m in json.loads(answer.read_text())["moves"]]
    decoded = [inst.move_text((inst.board.cell(s), inst.board.cell(p))) for s, p in cells]
    assert [line.split(". ", 1)[1] for line in out.splitlines() if " -> " in line] == decoded


def test_show_reports_the_bytes_it_wrote(capsys, tmp_path):
    """``wrote FILE (svg, N bytes)``: N is the file's size on disk, not its number of characters
    (the captions' arrows are 3 bytes in UTF-8; review round 4, m10)."""
    from coinsat.cli import main

    answer, picture = tmp_path / "h.json", tmp_path / "h.svg"
    assert main(["solve", "paper/h-to-o", "--method", "bfs", "-o", str(answer)]) == 0
    assert main(["show", "paper/h-to-o", str(answer), "--format", "svg", "-o", str(picture)]) == 0
    out = capsys.readouterr().out
    size = picture.stat().st_size
    assert f"wrote {picture} (svg, {size} bytes)" in out
    assert size > len(picture.read_text(encoding="utf-8"))  # not ASCII: characters and bytes differ
