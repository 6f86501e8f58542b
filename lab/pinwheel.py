"""The pinwheel study's records (scripts/pinwheel_study.py, benchmarks/pinwheel_results.json).

A growth entry keeps one construction per constructive algorithm, ``constructs[ALG]`` =
``{"rc", "length", "cpu"}`` (``coinsat construct --algorithm ALG``; exit 2 and no length when the
algorithm refuses the puzzle, with the reason in ``note``), and ``improve``, `coinsat improve` on
the shortest of them.  The member's upper bound is the best of all of these
(:func:`best_upper_bound`); tests/test_records.py checks the stored records against it.
"""

from __future__ import annotations

__all__ = ["best_upper_bound", "migrate_growth"]


def best_upper_bound(entry: dict) -> int | None:
    """The shortest verified solution of a growth entry: every construction and improve."""
    found = [c["length"] for c in entry.get("constructs", {}).values() if c.get("length") is not None]
    improved = (entry.get("improve") or {}).get("length")
    if improved is not None:
        found.append(improved)
    return min(found) if found else None


def migrate_growth(entry: dict) -> dict:
    """An entry written before ``constructs`` existed: its one ``construct`` (the default
    algorithm of a square board, ``square``) becomes ``constructs["square"]``."""
    if "construct" in entry and "constructs" not in entry:
        entry["constructs"] = {"square": entry.pop("construct")}
    return entry
