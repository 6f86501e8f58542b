"""Configurations: which cells hold coins, and which label each coin carries.

One canonical, hashable type covers unlabeled, coloured and fully labeled
coins: a configuration is the tuple of ``(cell, label)`` pairs sorted by cell.
Unlabeled coins carry the label :data:`UNLABELED` (``"o"``, the picture
character), so "unlabeled" is just "a single colour class" and every engine
treats colour classes uniformly.  Two coins with the same label are
interchangeable (the paper's multiset of tokens).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from functools import cached_property
from typing import Hashable, Iterable, Iterator, Mapping, Sequence, TypeVar

UNLABELED = "o"


_C = TypeVar("_C", bound=Hashable)  # a coordinate type


def bits(m: int) -> Iterator[int]:
    """The set bits of ``m``, lowest first (the cells of an occupancy mask): the one bit iterator."""
    while m:
        low = m & -m
        yield low.bit_length() - 1
        m ^= low


@dataclass(frozen=True, order=True)
class Configuration:
    coins: tuple[tuple[int, str], ...]

    def __post_init__(self) -> None:
        coins = tuple(sorted(self.coins))
        cells = [c for c, _ in coins]
        if len(set(cells)) != len(cells):
            dup = next(c for c in cells if cells.count(c) > 1)
            raise ValueError(f"two coins on cell {dup}")
        object.__setattr__(self, "coins", coins)

    @classmethod
    def unlabeled(cls, cells: Iterable[int]) -> "Configuration":
        return cls(tuple((c, UNLABELED) for c in cells))

    @classmethod
    def from_labels(cls, placement: Mapping[int, str]) -> "Configuration":
        return cls(tuple(placement.items()))

    @classmethod
    def from_masks(cls, labels: tuple[str, ...], masks: tuple[int, ...]) -> "Configuration":
        """Inverse of :meth:`masks`."""
        return cls(tuple((c, label) for label, m in zip(labels, masks) for c in bits(m)))

    def placement(self, coords: Sequence[_C]) -> dict[_C, str]:
        """The coins by coordinate, ``{coords[cell]: label}`` (``coords``: a board's ``coords``)."""
        return {coords[c]: lab for c, lab in self.coins}

    @property
    def cells(self) -> tuple[int, ...]:
        return tuple(c for c, _ in self.coins)

    @cached_property
    def cell_set(self) -> frozenset[int]:
        """Computed once: rules.check_move asks for it on every move it judges."""
        return frozenset(self.cells)

    @property
    def labels(self) -> tuple[str, ...]:
        """The sorted colour classes present."""
        return tuple(sorted({lab for _, lab in self.coins}))

    @property
    def label_counts(self) -> Counter:
        return Counter(lab for _, lab in self.coins)

    @property
    def is_labeled(self) -> bool:
        return any(lab != UNLABELED for _, lab in self.coins)

    def __len__(self) -> int:
        return len(self.coins)

    def label_at(self, cell: int) -> str | None:
        for c, lab in self.coins:
            if c == cell:
                return lab
        return None

    @property
    def mask(self) -> int:
        m = 0
        for c, _ in self.coins:
            m |= 1 << c
        return m

    def masks(self, labels: tuple[str, ...]) -> tuple[int, ...]:
        """One occupancy bitmask per label in ``labels`` (the BFS state)."""
        out = dict.fromkeys(labels, 0)
        for c, lab in self.coins:
            out[lab] |= 1 << c
        return tuple(out[lab] for lab in labels)

    def moved(self, src: int, dst: int) -> "Configuration":
        """The coin on ``src`` placed on ``dst`` (no legality check: see rules.py)."""
        return Configuration(tuple((dst if c == src else c, lab) for c, lab in self.coins))
