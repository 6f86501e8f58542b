"""Text measured without a font library: the advance widths of DejaVu Sans, the font every
picture names first (``style.font``) and the one the PNG writer draws with.

Widths are in thousandths of an em (advance widths at size 1000, read once from DejaVuSans.ttf
with Pillow's ``getlength``; DejaVu's basic layout has no kerning, so a string's width is the
sum of its characters').  A character not in the table counts as one full em, wider than any
in it, so a measured caption can only come out too wide, never too narrow.  The fallback fonts
of ``style.font`` (Helvetica, Arial) are narrower than DejaVu Sans.
"""

from __future__ import annotations

#: ascent and descent of DejaVu Sans, in thousandths of an em
ASCENT = 929
DESCENT = 236
#: the width of a character outside the table (one em: wider than every character in it)
UNKNOWN = 1000

WIDTHS: dict[str, int] = {
    " ": 318,
    "!": 401,
    '"': 460,
    "#": 838,
    "$": 636,
    "%": 950,
    "&": 780,
    "'": 275,
    "(": 390,
    ")": 390,
    "*": 500,
    "+": 838,
    ",": 318,
    "-": 361,
    ".": 318,
    "/": 337,
    "0": 636,
    "1": 636,
    "2": 636,
    "3": 636,
    "4": 636,
    "5": 636,
    "6": 636,
    "7": 636,
    "8": 636,
    "9": 636,
    ":": 337,
    ";": 337,
    "<": 838,
    "=": 838,
    ">": 838,
    "?": 531,
    "@": 1000,
    "A": 684,
    "B": 686,
    "C": 698,
    "D": 770,
    "E": 632,
    "F": 575,
    "G": 775,
    "H": 752,
    "I": 295,
    "J": 295,
    "K": 656,
    "L": 557,
    "M": 863,
    "N": 748,
    "O": 787,
    "P": 603,
    "Q": 787,
    "R": 695,
    "S": 635,
    "T": 611,
    "U": 732,
    "V": 684,
    "W": 989,
    "X": 685,
    "Y": 611,
    "Z": 685,
    "[": 390,
    "\\": 337,
    "]": 390,
    "^": 838,
    "_": 500,
    "`": 500,
    "a": 613,
    "b": 635,
    "c": 550,
    "d": 635,
    "e": 615,
    "f": 352,
    "g": 635,
    "h": 634,
    "i": 278,
    "j": 278,
    "k": 579,
    "l": 278,
    "m": 974,
    "n": 634,
    "o": 612,
    "p": 635,
    "q": 635,
    "r": 411,
    "s": 521,
    "t": 392,
    "u": 634,
    "v": 592,
    "w": 818,
    "x": 592,
    "y": 592,
    "z": 525,
    "{": 636,
    "|": 337,
    "}": 636,
    "~": 838,
    "→": 838,
    "←": 838,
    "—": 1000,
    "–": 500,
    "≤": 838,
    "≥": 838,
    "·": 318,
    "…": 1000,
    "×": 838,
    "°": 500,
    "±": 838,
    "√": 637,
}


def text_width(text: str, size: float) -> float:
    """The advance width of ``text`` set in DejaVu Sans at ``size`` pixels."""
    return sum(WIDTHS.get(ch, UNKNOWN) for ch in text) * size / 1000


def text_box(
    text: str, x: float, baseline: float, size: float, anchor: str = "start"
) -> tuple[float, float, float, float]:
    """(left, top, right, bottom) of ``text`` drawn at ``x`` (its start, or its middle with
    ``anchor="middle"``) on the baseline ``baseline``: the ink can only lie inside."""
    width = text_width(text, size)
    left = x - width / 2 if anchor == "middle" else x
    return (left, baseline - ASCENT * size / 1000, left + width, baseline + DESCENT * size / 1000)
