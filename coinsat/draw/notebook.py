"""What a notebook shows for an Instance, a Solution or a Result (``_repr_svg_`` / ``_repr_html_``).

The value types sit on low floors and must not import this package; they reach these
functions through ``coinsat.registry`` by name, on first display.  A Solution or a Result
carries board cells but not the board, so without an instance they show what they are
(status, bounds, moves as cell numbers); ``coinsat.draw(instance, result)`` draws them.
"""

from __future__ import annotations

from html import escape

from ..instance import Instance
from ..result import Result
from ..solution import Solution


def instance_svg(instance: Instance) -> str:
    from . import draw

    return str(draw(instance).data)


def solution_html(solution: Solution) -> str:
    moves = ", ".join(f"{m.src} -> {m.dst}" for m in solution.moves[:40])
    more = f", … ({len(solution) - 40} more)" if len(solution) > 40 else ""
    return (
        f"<div><b>Solution</b> of {len(solution)} moves, as cell indices: {escape(moves)}{more}"
        "<br><small>in coordinates: <code>solution.text(instance)</code>; drawn: "
        "<code>coinsat.draw(instance, solution)</code></small></div>"
    )


def result_html(result: Result) -> str:
    rows = [
        ("status", result.status.value),
        ("length", "—" if result.length is None else str(result.length)),
        ("lower bound", "—" if result.lower_bound is None else str(result.lower_bound)),
        ("method", result.method),
        (
            "certificate",
            "—" if not result.certificate else f"{result.certificate.get('kind')} ({result.certificate.get('scope')})",
        ),
        ("seconds", f"{result.seconds:.3f}"),
    ]
    body = "".join(f"<tr><th style='text-align:left'>{k}</th><td>{escape(v)}</td></tr>" for k, v in rows)
    tail = "<br><small>draw it with <code>coinsat.draw(instance, result)</code></small>" if result.solution else ""
    return f"<table>{body}</table>{tail}"


def _certificate(result: Result) -> str:
    cert = result.certificate
    return "—" if not cert else f"{cert.get('kind')} ({cert.get('scope')})"
