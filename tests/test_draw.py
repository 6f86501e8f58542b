"""Pictures: every format on every board kind, checked by reading the files back.

SVGs are parsed as XML and their coins counted (``circle.coin``); the animated SVG's last
frame must put the coins on the goal; PNGs and GIFs are decoded with Pillow; pictures of an
illegal solution are refused with exit 1 and nothing written.
"""

from __future__ import annotations

import io
import json
import math
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from coinsat.cli import main
from coinsat.draw import RASTER_SCALE, STYLE, _goal_caption, draw, replay, start_goal, step_captions, steps
from coinsat.draw.layout import layout
from coinsat.draw.metrics import text_box, text_width
from coinsat.draw.raster import text_boxes
from coinsat.draw.scene import Arc, Disc, Dot, Text, flight, frame, grid, move_text, to_pixels
from coinsat.draw.svg import animation_frame
from coinsat.errors import CoinsatError, IllegalMoveError, UsageError
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
    return [c for c in element.iter(f"{SVG}path") if c.get("class") == "move"]


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
        ends.add(
            (float(values["cx"][-1]), float(values["cy"][-1]))
            if values
            else (float(disc.get("cx")), float(disc.get("cy")))
        )
    lay = layout(instance, replay(instance, solution)[0])
    fr = animation_frame(lay, len(solution))
    goal = {tuple(round(v, 1) for v in to_pixels(lay, lay.position[c], fr=fr)) for c in instance.goal.cells}
    assert ends == goal
    assert len([g for g in root.iter(f"{SVG}g") if g.get("class") == "step"]) == len(solution)


def test_png_and_gif_decode_and_show_the_coins():
    instance = read_instance(ROOT / "instances/paper/h-to-o.toml")
    result = solve(instance)
    png = Image.open(io.BytesIO(draw(instance, format="png").data))
    lay = layout(instance, [])
    fr = frame(lay, ["start", "goal"], STYLE.scaled(RASTER_SCALE))
    x, y = to_pixels(lay, lay.position[instance.start.cells[0]], STYLE.scaled(RASTER_SCALE), fr)
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
    for t in labels:  # a label that moves follows its disc (and hides with it while in the air)
        assert {a.get("attributeName") for a in t.iter(f"{SVG}animate")} in (set(), {"x", "y", "opacity"})
    flying = [t for t in root.iter(f"{SVG}text") if t.get("class") == "flying-label"]
    assert len(flying) == len(result.solution)


# --- pictures you can read: captions measured, never clipped; arcs; the lift; the scale ---

INSTANCE_FILES = sorted(p for p in (ROOT / "instances").glob("*/*.toml"))


def _readable(path: Path):
    try:
        return read_instance(path)
    except CoinsatError:  # a board kind the instance reader does not take (yet): nothing to draw
        return None


def _stored_solution(path: Path):
    recorded = path.parent / "solutions" / f"{path.stem}.json"
    return read_solution(read_instance(path), recorded)[1] if recorded.exists() else None


def _inside(box, width, height, what):
    left, top, right, bottom = box
    assert left >= -0.01 and top >= -0.01 and right <= width + 0.01 and bottom <= height + 0.01, (
        f"{what}: text box {tuple(round(v, 1) for v in box)} outside the picture (0, 0, {width:.1f}, {height:.1f})"
    )


def _check_figure(fig, where: str, captions: list[str]) -> None:
    """Every text of every panel inside its panel (SVG metrics and Pillow's textbbox), every arc
    inside its panel, and each caption shown whole (its lines joined give it back)."""
    shown = []
    for left, top, p in fig.placed:
        texts = [s for s in p.shapes if isinstance(s, Text) and s.role == "caption"]
        shown.append(" ".join(t.text for t in texts))
        board_top = min(s.y - s.r for s in p.shapes if isinstance(s, (Dot, Disc)))
        for t in texts:  # a caption sits above the board, never on it
            assert text_box(t.text, t.x, t.y, t.size, t.anchor)[3] <= board_top + 0.01, f"{where} {t.text!r}"
        for s in p.shapes:
            if isinstance(s, Text):
                _inside(text_box(s.text, s.x, s.y, s.size, s.anchor), p.width, p.height, f"{where} {s.text!r}")
            elif isinstance(s, Disc) and s.label:
                box = text_box(s.label, s.x, s.y + STYLE.font_size * 0.35, STYLE.font_size, "middle")
                _inside(box, p.width, p.height, f"{where} label {s.label!r}")
            elif isinstance(s, Arc):
                for k in range(21):
                    x, y = s.point(k / 20)
                    _inside((x, y, x, y), p.width, p.height, f"{where} arc")
        _inside((left, top, left + p.width, top + p.height), fig.width, fig.height, f"{where} panel")
    assert shown == captions, where
    for text, box in text_boxes(fig):
        _inside(box, fig.width, fig.height, f"{where} (png) {text!r}")


@pytest.mark.parametrize("path", INSTANCE_FILES, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_no_caption_is_clipped_on_any_instance(path):
    instance = _readable(path)
    if instance is None:
        pytest.skip(f"{path.name}: not read by the instance reader")
    lay = layout(instance, [])
    fig = start_goal(instance, lay)
    _check_figure(fig, f"{path.stem} start/goal", ["start", _goal_caption(instance)])
    solution = _stored_solution(path)
    if solution is None and path.parent.name == "paper":
        result = solve(instance, time_limit=20)
        solution = result.solution
    if solution is None:
        return
    instance, solution = (instance, solution)
    trace, moves = replay(instance, solution)
    lay = layout(instance, trace)
    captions = step_captions(instance, moves)
    panels_ = steps(instance, trace, moves, lay)
    _check_figure(grid(panels_, STYLE.columns), f"{path.stem} steps", captions)
    fr = animation_frame(lay, len(moves))
    assert text_width(f"step {len(moves)} / {len(moves)}", STYLE.font_size) + 2 * STYLE.margin <= fr.width


def test_the_reviewed_captions_are_whole(tmp_path):
    """swap5-b's last caption was cut to '11: (1, 0) -', rhomboid's goal to 'goal (any translat'."""
    swap = read_instance(ROOT / "instances/paper/swap5-b.toml")
    result = solve(swap, time_limit=20)
    svg = str(draw(swap, result).data)
    captions = [
        " ".join(t.text or "" for t in p.iter(f"{SVG}text") if t.get("class") == "caption") for p in panels(svg)
    ]
    assert captions[-1] == f"{len(result.solution)}: {move_text(swap, result.solution.moves[-1])}"
    rhomboid = read_instance(ROOT / "instances/paper/rhomboid.toml")
    svg = str(draw(rhomboid).data)
    texts = [" ".join(t.text or "" for t in p.iter(f"{SVG}text") if t.get("class") == "caption") for p in panels(svg)]
    assert texts == ["start", "goal (any translate)"]


def test_a_move_is_an_arc_bowed_over_the_board():
    instance = read_instance(ROOT / "instances/paper/h-to-o.toml")
    result = solve(instance)
    lay = layout(instance, replay(instance, result.solution)[0])
    for move in result.solution.moves:
        (x1, y1), (cx, cy), (x2, y2) = flight(lay, move)
        mx, my = (x1 + x2) / 2, (y1 + y2) / 2
        # over the board: the arc bows upwards, or to the left when the move is vertical
        assert cy < my - 1 or (abs(x1 - x2) < 1e-6 and cx < mx - 1), move
        assert math.hypot(cx - mx, cy - my) <= STYLE.arc_cap * STYLE.cell + 1e-9


def test_the_animation_lifts_the_coin_above_the_others():
    instance = read_instance(ROOT / "instances/paper/h-to-o.toml")
    result = solve(instance)
    root = ET.fromstring(str(draw(instance, result, animate=True).data))
    order = [g.get("class") or "" for g in root if g.tag == f"{SVG}g"]
    flights = [i for i, c in enumerate(order) if c == "flight"]
    coins_at = [i for i, c in enumerate(order) if c.startswith("coin-")]
    assert len(flights) == len(result.solution) and min(flights) > max(coins_at)  # drawn on top
    for g in (g for g in root if g.get("class") == "flight"):
        disc = next(c for c in g.iter(f"{SVG}circle") if c.get("class") == "flying")
        values = {
            a.get("attributeName"): [float(v) for v in a.get("values").split(";")] for a in disc.iter(f"{SVG}animate")
        }
        r = values["r"]
        assert max(r) > r[0] * 1.1  # larger in the air
        ys = values["cy"]
        chord = (ys[1] + ys[-2]) / 2
        xs = values["cx"]
        mid = len(ys) // 2
        assert ys[mid] < chord - 1 or (abs(ys[1] - ys[-2]) < 1e-6 and xs[mid] < (xs[1] + xs[-2]) / 2 - 1)


def test_the_scale_option_scales_the_picture(tmp_path):
    h = str(ROOT / "instances/paper/h-to-o.toml")
    sizes = {}
    for scale in ("1", "3"):
        out = tmp_path / f"h{scale}.png"
        assert main(["show", h, "--format", "png", "--scale", scale, "-o", str(out)]) == 0
        sizes[scale] = Image.open(out).size
    assert abs(sizes["3"][0] - 3 * sizes["1"][0]) <= 3 and abs(sizes["3"][1] - 3 * sizes["1"][1]) <= 3
    default = tmp_path / "default.png"
    assert main(["show", h, "--format", "png", "-o", str(default)]) == 0
    assert abs(Image.open(default).size[0] - RASTER_SCALE * sizes["1"][0]) <= 3
    assert sizes["1"][0] >= 300  # readable at 1: the h-to-o start/goal was 292 px wide at 1 before
    for bad in ("0", "-1", "nan", "1e9"):
        assert main(["show", h, "--format", "svg", "--scale", bad, "-o", str(tmp_path / "x.svg")]) == 2
    assert not (tmp_path / "x.svg").exists()


def test_the_step_player_names_the_labeled_coin_that_moves():
    instance = read_instance(ROOT / "instances/paper/swap5-b.toml")
    result = solve(instance, time_limit=20)
    html = str(draw(instance, result, format="html").data)
    labels = json.loads(html.split('id="moves">')[1].split("</script>")[0])
    trace = replay(instance, result.solution)[0]
    for before, move, text in zip(trace, result.solution.moves, labels):
        assert text == f"coin {dict(before.coins)[move.src]}: {move_text(instance, move)}"


def test_a_raster_too_large_is_refused_before_drawing():
    """The 'worm' (2 coins, d = 1, 600 moves): coinsat.draw refuses its PNG and GIF at once
    (UsageError naming the size), whatever the command line checks first."""
    import time

    worm = make_instance("square", [(0, 0), (1, 0)], [(600, 0), (601, 0)], adjacency=1)
    solution = Solution.of([(worm.board.cell((i, 0)), worm.board.cell((i + 2, 0))) for i in range(600)])
    for fmt in ("png", "gif"):
        t0 = time.process_time()
        with pytest.raises(UsageError, match="too large for a"):
            draw(worm, solution, format=fmt)
        assert time.process_time() - t0 < 30
    small = draw(worm, format="png", scale=0.5)  # its start and goal are a fine PNG
    assert Image.open(io.BytesIO(small.data)).size[0] > 10_000


def test_a_large_picture_is_drawn_with_less_supersampling(monkeypatch):
    """Past MAX_CANVAS the canvas is drawn at a lower supersampling, so memory stays bounded."""
    from coinsat.draw import raster

    instance = read_instance(ROOT / "instances/paper/h-to-o.toml")
    full = Image.open(io.BytesIO(draw(instance, format="png").data))
    monkeypatch.setattr(raster, "MAX_CANVAS", full.size[0] * full.size[1] * 2)  # room for 1x only
    made = []
    real_new = raster._pillow()[0].new

    def spy(mode, size, *a, **k):
        made.append(size)
        return real_new(mode, size, *a, **k)

    monkeypatch.setattr(raster._pillow()[0], "new", spy)
    small = Image.open(io.BytesIO(draw(instance, format="png").data))
    assert small.size == full.size and made and made[-1] == full.size


def test_show_reports_the_bytes_it_wrote(capsys, tmp_path):
    """The count is of bytes on disk, not of characters: the filmstrip's captions hold "→" (3 bytes)."""
    out = tmp_path / "h.svg"
    solution = ROOT / "instances/families/solutions/vdiag-1-1-nwse.json"
    assert (
        main(
            [
                "show",
                str(ROOT / "instances/families/vdiag-1-1-nwse.toml"),
                str(solution),
                "-o",
                str(out),
                "--format",
                "svg",
            ]
        )
        == 0
    )
    said = capsys.readouterr().out
    assert f"(svg, {out.stat().st_size} bytes)" in said
    assert out.stat().st_size > len(out.read_text(encoding="utf-8"))  # the case the count got wrong
