"""Pictures: every format on every board kind, checked by reading the files back.

SVGs are parsed as XML and their coins counted (``circle.coin``); the animated SVG's last
frame must put the coins on the goal; PNGs and GIFs are decoded with Pillow; pictures of an
illegal solution are refused with exit 1 and nothing written.
"""

from __future__ import annotations

import io
import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from coinsat.cli import main
from coinsat.draw import draw, replay
from coinsat.draw.layout import layout
from coinsat.draw.scene import to_pixels
from coinsat.errors import IllegalMoveError, UsageError
from coinsat.instance import make_instance
from coinsat.io.instance_format import read_instance
from coinsat.io.solution_format import read_solution
from coinsat.solution import Solution
from coinsat.solve import solve

Image = pytest.importorskip("PIL.Image")

ROOT = Path(__file__).resolve().parent.parent
SVG = "{http://www.w3.org/2000/svg}"
V33 = ROOT / "instances/families/vdiag-3-3-nwse.toml"
V33_SOLUTION = ROOT / "instances/families/solutions/vdiag-3-3-nwse.json"


def panels(svg: str) -> list[ET.Element]:
    return [g for g in ET.fromstring(svg).iter(f"{SVG}g") if g.get("class") == "panel"]


def coins(element: ET.Element) -> list[ET.Element]:
    return [c for c in element.iter(f"{SVG}circle") if c.get("class") == "coin"]


def arrows(element: ET.Element) -> list[ET.Element]:
    return [c for c in element.iter(f"{SVG}line") if c.get("class") == "move"]


BOARDS = {
    "square": lambda: read_instance(ROOT / "instances/paper/h-to-o.toml"),
    "triangular": lambda: read_instance(ROOT / "instances/paper/pyramid-to-line.toml"),
    "graph": lambda: make_instance(
        "graph", [0, 1, 2], [2, 3, 4], adjacency=1, edges=[(0, 1), (1, 2), (2, 3), (3, 4), (4, 0)], cells=list(range(5))
    ),
}


@pytest.mark.parametrize("kind", sorted(BOARDS))
def test_start_and_goal_side_by_side_have_every_coin(kind):
    instance = BOARDS[kind]()
    svg = str(draw(instance).data)
    found = panels(svg)
    assert len(found) == 2
    assert [len(coins(p)) for p in found] == [instance.n_coins] * 2


@pytest.mark.parametrize("kind", sorted(BOARDS))
def test_a_filmstrip_has_a_panel_per_step_and_an_arrow_per_move(kind):
    instance = BOARDS[kind]()
    result = solve(instance)
    svg = str(draw(instance, result).data)
    found = panels(svg)
    assert len(found) == len(result.solution) + 1
    assert all(len(coins(p)) == instance.n_coins for p in found)
    assert [len(arrows(p)) for p in found] == [0] + [1] * len(result.solution)


def test_the_triangular_layout_is_a_true_triangular_lattice():
    instance = BOARDS["triangular"]()
    lay = layout(instance, [])
    coords = instance.board.lattice_coords
    origin = instance.board.cell((0, 0)) if instance.board.has((0, 0)) else None
    assert origin is not None
    for nb in instance.board.neighbours[origin]:  # all six neighbours at distance one cell
        a, b = lay.position[origin], lay.position[nb]
        assert abs(((a[0] - b[0]) ** 2 + (a[1] - b[1]) ** 2) ** 0.5 - 1) < 1e-9, coords[nb]


def test_the_animated_svg_ends_on_the_goal():
    instance = read_instance(V33)
    instance, solution = read_solution(instance, V33_SOLUTION)
    svg = str(draw(instance, solution, animate=True).data)
    root = ET.fromstring(svg)
    discs = coins(root)
    assert len(discs) == instance.n_coins
    ends = set()
    for disc in discs:
        values = {a.get("attributeName"): a.get("values", "").split(";") for a in disc.iter(f"{SVG}animate")}
        ends.add((float(values["cx"][-1]), float(values["cy"][-1])))
    lay = layout(instance, replay(instance, solution)[0])
    goal = {tuple(round(v, 1) for v in to_pixels(lay, lay.position[c])) for c in instance.goal.cells}
    assert ends == goal
    assert len([g for g in root.iter(f"{SVG}g") if g.get("class") == "step"]) == len(solution)


def test_png_and_gif_decode_and_show_the_coins():
    instance = read_instance(ROOT / "instances/paper/h-to-o.toml")
    result = solve(instance)
    png = Image.open(io.BytesIO(draw(instance, format="png").data))
    lay = layout(instance, [])
    x, y = to_pixels(lay, lay.position[instance.start.cells[0]])
    assert png.convert("RGB").getpixel((int(x), int(y))) == (0, 0, 0)  # a black disc on a start coin
    assert png.convert("RGB").getpixel((2, 2)) == (255, 255, 255)
    gif = Image.open(io.BytesIO(draw(instance, result, format="gif").data))
    assert gif.n_frames == len(result.solution) + 1


def test_labeled_coins_get_colours_and_letters():
    instance = make_instance("square", {(0, 0): "A", (1, 0): "B", (0, 1): "B"}, {(0, 0): "B", (1, 0): "A", (0, 1): "B"})
    root = ET.fromstring(str(draw(instance).data))
    fills = {c.get("fill") for c in coins(root)}
    assert len(fills) == 2 and "#000000" not in fills
    assert sorted(t.text or "" for t in root.iter(f"{SVG}text") if t.get("class") == "label") == [
        "A",
        "A",
        "B",
        "B",
        "B",
        "B",
    ]


def test_html_page_has_a_frame_per_step_and_the_moves():
    instance = read_instance(ROOT / "instances/paper/h-to-o.toml")
    result = solve(instance)
    html = str(draw(instance, result, format="html").data)
    assert html.count('class="frame"') == len(result.solution) + 1
    moves = json.loads(html.split('id="moves">')[1].split("</script>")[0])
    assert len(moves) == len(result.solution)


def test_an_illegal_solution_is_not_drawn(tmp_path, capsys):
    instance = read_instance(ROOT / "instances/paper/h-to-o.toml")
    with pytest.raises(IllegalMoveError):
        draw(instance, Solution.of([(0, 1)]))
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"moves": [[[0, 0], [5, 5]]]}))
    out = tmp_path / "out.svg"
    assert main(["show", str(ROOT / "instances/paper/h-to-o.toml"), str(bad), "--format", "svg", "-o", str(out)]) == 1
    assert not out.exists()


def test_png_needs_an_output_file_and_formats_are_checked(capsys):
    assert main(["show", str(ROOT / "instances/paper/h-to-o.toml"), "--format", "png"]) == 2
    with pytest.raises(UsageError):
        draw(BOARDS["square"](), format="jpeg")


@pytest.mark.parametrize("fmt", ["gif", "html"])
def test_the_v33_solution_draws_on_the_command_line(tmp_path, fmt):
    out = tmp_path / f"v33.{fmt}"
    assert main(["show", str(V33), str(V33_SOLUTION), "--format", fmt, "-o", str(out)]) == 0
    if fmt == "gif":
        assert Image.open(out).n_frames == 54
    else:
        assert out.read_text().count('class="frame"') == 54


def test_a_notebook_shows_instances_results_and_solutions():
    instance = read_instance(ROOT / "instances/paper/h-to-o.toml")
    assert len(panels(instance._repr_svg_())) == 2
    result = solve(instance)
    assert "optimal" in result._repr_html_()
    assert "4 moves" in result.solution._repr_html_()


def test_labels_travel_with_their_coins_in_the_animation():
    instance = read_instance(ROOT / "instances/paper/swap5-b.toml")
    result = solve(instance)
    root = ET.fromstring(str(draw(instance, result, animate=True).data))
    labels = [t for t in root.iter(f"{SVG}text") if t.get("class") == "label"]
    assert sorted(t.text or "" for t in labels) == sorted(lab for _, lab in instance.start.coins)
    assert all({a.get("attributeName") for a in t.iter(f"{SVG}animate")} == {"x", "y"} for t in labels)
