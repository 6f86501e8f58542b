"""What every certificate file shares: the header, the instance digest, cell encoding.

A certificate is one JSON object::

    {"coinsat_certificate": 1, "kind": one of KINDS ("invariant", "closed-set", "bounded", "layers",
     "inductive", "census"),
     "scope": "global" | "window" | "horizon", "claim": "...",
     "instance": {"name": ..., "digest": <sha256 of the canonical instance>},
     ...kind-specific fields...}

The digest binds a certificate to one instance: board kind, adjacency d, goal
placement, start and goal coins (coordinates and labels), the graph's cells
and edges, and the triangular window margin (window-scoped claims depend on
it).  Cells are written in the instance's coordinates: ``[x, y]`` on lattices,
the cell name on graph boards.  Large files (CNF, proof) live beside the JSON
and are named relative to it.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any, Mapping

from ...board import BoardKind, cell_json, cell_key
from ...instance import Instance

FORMAT_VERSION = 1
#: a byte outside the DIMACS alphabet (printable ASCII and the newline): any such byte in a
#: text a checker reads is a rejection (``encodings/sat.md`` section 9, "Who parses what")
_OUTSIDE_ALPHABET = re.compile(rb"[^\x20-\x7e\n]")
KINDS = ("invariant", "closed-set", "bounded", "layers", "inductive", "census")


@dataclass(frozen=True)
class Check:
    """The verdict of a checker: ``ok`` and why (the reason names the failing item).

    ``claim`` and ``scope`` are what the checker *proved* (empty when rejected);
    ``claimed`` is the file's own claim, which the proof implies when ``ok``.
    """

    ok: bool
    reason: str
    claim: str = ""
    scope: str = ""
    seconds: float = 0.0
    claimed: str = ""

    def __bool__(self) -> bool:
        return self.ok


_HEADER = ("coinsat_certificate", "kind", "scope", "claim", "instance")


@dataclass(frozen=True)
class Certificate:
    """A certificate as the builders make it and ``certify`` writes it.

    The header is typed; ``fields`` holds the kind's evidence in file order (read-only).
    The checker never builds one: it reads the untrusted JSON object itself, field by
    field, so that no constructor's assumptions stand between a forged file and the
    checks (``check_certificate`` takes the parsed object).
    """

    kind: str
    scope: str
    claim: str
    instance_name: str
    digest: str
    fields: Mapping[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        from ...errors import InternalError

        if self.kind not in KINDS:
            raise InternalError(f"certificate kind {self.kind!r} is none of {KINDS}")
        object.__setattr__(self, "fields", MappingProxyType(dict(self.fields)))

    @classmethod
    def from_json(cls, obj: Mapping[str, Any]) -> "Certificate":
        """From a builder's object (``header(...)`` plus the kind's fields)."""
        return cls(
            obj["kind"],
            obj["scope"],
            obj["claim"],
            obj["instance"]["name"],
            obj["instance"]["digest"],
            {k: v for k, v in obj.items() if k not in _HEADER},
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "coinsat_certificate": FORMAT_VERSION,
            "kind": self.kind,
            "scope": self.scope,
            "claim": self.claim,
            "instance": {"name": self.instance_name, "digest": self.digest},
            **self.fields,
        }

    def text(self) -> str:
        """The file: one top-level field per line, each value compact (closed sets can be large)."""
        obj = self.to_json()
        return "{\n" + ",\n".join(f" {json.dumps(k)}: {json.dumps(v)}" for k, v in obj.items()) + "\n}\n"


def coins_json(instance: Instance, config) -> list:
    """``[[cell, label], ...]`` sorted, in the instance's coordinates."""
    coords = instance.board.coords
    return sorted(([cell_json(coords[c]), lab] for c, lab in config.coins), key=json.dumps)


def instance_digest(instance: Instance) -> str:
    """The sha256 of the instance's canonical JSON (board, adjacency, goal placement, start, goal,
    the cells and edges of a graph board, the margin of a triangular one): a certificate names
    the puzzle it is for by it.
    """
    b = instance.board
    obj: dict[str, Any] = {
        "board": b.kind,
        "adjacency": instance.d,
        "goal_placement": instance.goal_placement,
        "start": coins_json(instance, instance.start),
        "goal": coins_json(instance, instance.goal),
    }
    if b.kind is BoardKind.GRAPH:
        obj["cells"] = sorted((cell_json(c) for c in b.coords), key=json.dumps)
        obj["edges"] = sorted(
            (
                sorted((cell_json(b.coords[u]), cell_json(b.coords[v])), key=json.dumps)
                for u in range(b.size)
                for v in b.neighbours[u]
                if u < v
            ),
            key=json.dumps,
        )
    elif b.kind is BoardKind.TRIANGULAR:
        obj["margin"] = instance.margin
    text = json.dumps(obj, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


def header(instance: Instance, kind: str, scope: str, claim: str) -> dict[str, Any]:
    """The fields every certificate file starts with: format version, kind, scope, claim and the
    instance (name and :func:`instance_digest`).
    """
    return {
        "coinsat_certificate": FORMAT_VERSION,
        "kind": kind,
        "scope": scope,
        "claim": claim,
        "instance": {"name": instance.name, "digest": instance_digest(instance)},
    }


def solution_json(instance: Instance, solution) -> list:
    """A solution as ``[[from, to], ...]`` in the instance's coordinates (certificate field)."""
    coords = instance.board.coords
    return [[cell_json(coords[s]), cell_json(coords[p])] for s, p in solution.moves]


def checked_solution(instance: Instance, cert: dict, horizon: int):
    """The certificate's solution, replayed by rules.py: ``(solution or None, None)`` or
    ``(None, reason)`` when it is not a solution or does not exceed ``horizon`` moves."""
    from ...solution import Solution, verify

    if cert.get("solution") is None:
        return None, None
    board = instance.board
    try:
        solution = Solution.of((board.cell(cell_key(s)), board.cell(cell_key(p))) for s, p in cert["solution"])
    except KeyError:
        return None, "the solution uses a cell that is not on the board"
    verdict = verify(instance, solution)
    if not verdict.ok:
        return None, f"the solution is not one: {verdict.reason} (step {verdict.step})"
    if len(solution) <= horizon:
        return None, f"the solution has {len(solution)} moves, contradicting the horizon {horizon}"
    return solution, None


def unique_keys(pairs: list) -> dict:
    """``json.loads``'s ``object_pairs_hook`` for certificates: an object with a key twice is not
    JSON two parsers read alike (Python's takes the last value, others the first), so the file
    would claim two things; ValueError names the key."""
    keys = [k for k, _ in pairs]
    if len(set(keys)) != len(keys):
        twice = sorted({k for k in keys if keys.count(k) > 1})
        raise ValueError(f"key {twice[0]!r} appears twice in one object")
    return dict(pairs)


def alphabet_problem(data: bytes, what: str) -> str | None:
    """Why ``data`` is not plain DIMACS-alphabet text (None: it is).

    The alphabet is printable ASCII (0x20-0x7e) and the newline.  Parsers disagree on
    everything else: ``str.splitlines`` (dratify) ends a line at ``\\v``, ``\\f``,
    ``\\x1c``-``\\x1e``, U+0085, U+2028 and U+2029, gbdc only at ``\\n``; a byte that two
    parsers read differently is how a forged file once hid an empty clause in a comment."""
    m = _OUTSIDE_ALPHABET.search(data)
    if m is None:
        return None
    return (
        f"{what}: byte 0x{data[m.start()]:02x} at offset {m.start()} is outside the DIMACS alphabet "
        "(printable ASCII and newline)"
    )


def confined_file(base_dir: Path, name: object, what: str) -> tuple[Path | None, str | None]:
    """The regular file a certificate names, confined to the certificate's folder:
    ``(path, None)``, or ``(None, reason)``.

    A name is a plain file name (no folder part, not ``.`` or ``..``) of a regular file
    that is not a symbolic link, so the checker reads nothing outside the folder it was
    given (no hash oracle on other files, no device or pipe to block on)."""
    if not isinstance(name, str) or not name or name in (".", "..") or os.path.basename(name) != name:
        return None, f"{what}: file names must be plain file names beside the certificate, not {name!r}"
    if "\x00" in name or len(name) > 255:
        return None, f"{what}: not a usable file name"
    path = base_dir / name
    try:
        if path.is_symlink() or not path.is_file():
            return None, f"{what}: {name} is not a regular file beside the certificate"
    except OSError as e:
        return None, f"{what}: {name} cannot be read: {e.strerror or e}"
    return path, None
