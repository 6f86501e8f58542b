"""One self-contained HTML page: start and goal, and a solution stepped through with controls.

Every step is an inline SVG panel (``svg.py``); a few lines of script show one at a time
(first, back, play/pause, forward, last, a slider, and the arrow keys).  No network, no
library: the page works from a file, in a gallery, in a notebook's output cell.
"""

from __future__ import annotations

from typing import Sequence
from xml.sax.saxutils import escape

from .scene import Figure, Panel
from .style import STYLE, Style
from .svg import figure_svg

_SCRIPT = """
(function () {
  const frames = Array.from(document.querySelectorAll('.frame'));
  const slider = document.getElementById('step');
  const label = document.getElementById('label');
  const play = document.getElementById('play');
  const moves = JSON.parse(document.getElementById('moves').textContent);
  let current = 0, timer = null;
  function show(k) {
    current = Math.max(0, Math.min(frames.length - 1, k));
    frames.forEach((f, i) => { f.style.display = i === current ? '' : 'none'; });
    slider.value = current;
    label.textContent = 'step ' + current + ' / ' + (frames.length - 1) + (current ? ': ' + moves[current - 1] : '');
    document.body.dataset.step = current;
  }
  function stop() { if (timer) { clearInterval(timer); timer = null; play.textContent = 'play'; } }
  function start() {
    if (current === frames.length - 1) show(0);
    timer = setInterval(() => { if (current === frames.length - 1) stop(); else show(current + 1); }, STEP_MS);
    play.textContent = 'pause';
  }
  document.getElementById('first').onclick = () => { stop(); show(0); };
  document.getElementById('prev').onclick = () => { stop(); show(current - 1); };
  document.getElementById('next').onclick = () => { stop(); show(current + 1); };
  document.getElementById('last').onclick = () => { stop(); show(frames.length - 1); };
  play.onclick = () => { if (timer) stop(); else start(); };
  slider.oninput = () => { stop(); show(Number(slider.value)); };
  document.addEventListener('keydown', (e) => {
    if (e.key === 'ArrowRight') { stop(); show(current + 1); }
    if (e.key === 'ArrowLeft') { stop(); show(current - 1); }
  });
  show(0);
  if (document.body.dataset.autoplay === 'yes') start();
})();
"""

_CSS = """
body { font-family: DejaVu Sans, Helvetica, Arial, sans-serif; margin: 0 auto; padding: 1em; max-width: 1100px;
       color: #222; }
.controls { margin: 0.6em 0; display: flex; flex-wrap: wrap; gap: 0.4em; align-items: center; }
.controls button { font-size: 1em; min-width: 2.6em; padding: 0.3em 0.6em; }
.controls input[type=range] { flex: 1 1 12em; min-width: 8em; }
#label { flex-basis: 100%; font-size: 1.05em; }
.overview svg, .frame svg, img.animation { max-width: 100%; height: auto; }
table.facts { border-collapse: collapse; max-width: 100%; }
table.facts th { text-align: left; vertical-align: top; padding: 0.25em 0.8em 0.25em 0; white-space: nowrap; }
table.facts td { padding: 0.25em 0; overflow-wrap: anywhere; }
h1 { font-size: 1.4em; } .meta { color: #555; } .nav { overflow-wrap: anywhere; }
"""

#: the first lines of every page coinsat writes: UTF-8, a phone's width (the viewport), and no
#: icon (a browser then asks for no favicon.ico, a 404)
PAGE_HEAD = (
    "<!DOCTYPE html>",
    '<html lang="en"><head><meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    '<link rel="icon" href="data:,">',
)


def page(
    title: str,
    overview: Figure | None,
    frames: Sequence[Panel] = (),
    moves: Sequence[str] = (),
    *,
    meta_html: str = "",
    middle_html: str = "",
    extra_html: str = "",
    autoplay: bool = False,
    style: Style = STYLE,
) -> str:
    """The page: a title, ``meta_html`` (trusted, built by coinsat), the start and goal (unless
    ``overview`` is None), ``middle_html``, and the steps of a solution with controls when
    ``frames`` is not empty, then ``extra_html``.
    The page reflows to a phone's width (a viewport tag; pictures scale to the column)."""
    import json

    from .scene import grid

    out = [
        *PAGE_HEAD,
        f"<title>{escape(title)}</title>",
        f"<style>{_CSS}</style></head>",
        f'<body data-autoplay="{"yes" if autoplay else "no"}">',
        f"<h1>{escape(title)}</h1>",
        meta_html,
    ]
    if overview is not None:
        out.append(f'<div class="overview">{figure_svg(overview, title, style)}</div>')
    out.append(middle_html)
    if frames:
        out += [
            "<h2>Solution</h2>",
            '<div class="controls">'
            '<button id="first">|&lt;</button><button id="prev">&lt;</button>'
            '<button id="play">play</button><button id="next">&gt;</button><button id="last">&gt;|</button>'
            f'<input type="range" id="step" min="0" max="{len(frames) - 1}" value="0">'
            '<span id="label"></span></div>',
        ]
        for i, p in enumerate(frames):
            hidden = "" if i == 0 else ' style="display:none"'
            svg = figure_svg(grid([p], 1, style), f"{title}, step {i}", style)
            out.append(f'<div class="frame" data-step="{i}"{hidden}>{svg}</div>')
        safe = json.dumps(list(moves)).replace("</", "<\\/")
        out.append(f'<script type="application/json" id="moves">{safe}</script>')
        out.append(f"<script>{_SCRIPT.replace('STEP_MS', str(int(style.step_seconds * 1000)))}</script>")
    out += [extra_html, "</body></html>"]
    return "\n".join(out) + "\n"
