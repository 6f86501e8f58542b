"""``Name``: the base of coinsat's string enums (statuses, scopes, board kinds, ...).

A member *is* its value: it compares equal to the string, prints as the string in
``str()`` and f-strings, and dumps to JSON as the string, so typed code and the public
text formats (TOML, JSON, tables) stay the same.
"""

from __future__ import annotations

import enum


class Name(str, enum.Enum):
    def __str__(self) -> str:
        return str(self.value)

    def __format__(self, spec: str) -> str:
        return format(str(self.value), spec)
