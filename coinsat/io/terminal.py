"""What the command prints is text, never terminal commands (round-4 defect R4-4).

A puzzle's name, a graph's cell names and a certificate's fields come from files someone else
may have written.  Printed raw, a name holding ``ESC [31m`` recolours the terminal, an OSC
sequence (``ESC ] 0 ; ... BEL``) retitles the window, and U+202E (right-to-left override)
turns the rest of the line around.  :func:`escaped` writes every such character as a visible
escape (``\\x1b``, ``\\u202e``): the C0 controls but the newline and the tab, DEL, the C1
controls, the bidirectional embeddings, overrides, isolates and marks, and the Unicode line
and paragraph separators.  The command line (``cli.main``) wraps its standard output in
:class:`EscapingWriter` for the whole command, so every human output is covered, and escapes
its own error line; ``--json`` output is ASCII already (``json.dumps``), so it is unchanged.
"""

from __future__ import annotations

import re
from typing import Any

_UNSAFE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]")


def _visible(m: re.Match) -> str:
    code = ord(m.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def escaped(text: str) -> str:
    """``text`` with every control, bidirectional and line-separator character written as an
    escape (module docstring); any other text is returned as it is."""
    return _UNSAFE.sub(_visible, text)


class EscapingWriter:
    """A text stream that writes :func:`escaped` text to ``stream``; everything else
    (``buffer`` for binary output, ``fileno``, ``isatty``, ``flush``) is the stream's own."""

    def __init__(self, stream: Any):
        self.stream = stream

    def write(self, text: str) -> int:
        self.stream.write(escaped(text))
        return len(text)

    def writelines(self, lines) -> None:
        for line in lines:
            self.write(line)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.stream, name)
