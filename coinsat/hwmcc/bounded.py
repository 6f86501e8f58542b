"""Witness circuits for the bounded files ("never the goal within T moves"): the explicit layers.

The circuit of ``coinsat export --format aig --horizon T`` has the board's latches and a
saturating step counter ``cnt`` (``encodings/aiger.md`` §1).  With ``R_t`` the configurations
reachable with at most t moves inside the window (rules.py's moves, by breadth-first search), the
invariant is

    Inv  =  cnt <= T + 1   and   for every t <= T:  cnt = t  ->  state in R_t.

It is inductive with the property P = not (goal and cnt <= T) exactly when no goal lies in R_T:
at reset cnt = 0 and the state is the start (R_0); a step from cnt = t < T and a state of R_t goes
to cnt = t + 1 and a state of R_{t+1} (a legal move or a stutter); from cnt = T it goes to the
saturated T + 1, where Inv asks nothing; and P holds on R_T when no goal is there.  The witness
checker does not take this argument on trust: it checks base and step on the circuit.

``state in R_t`` is the disjunction of one minterm per configuration over the latches, built in
one fixed latch order so that structural hashing shares common prefixes (a trie); the layers are
disjoint, so ``R_t`` is the prefix disjunction of layers 0..t.  The size is about
``|R_T| * latches`` gates at most, so :func:`layers` gives up above ``limit`` configurations.
"""

from __future__ import annotations

from ..backends.aigbmc import Circuit
from ..encode.aiger import Aig
from ..instance import Instance
from ..io.aiger19 import Extender
from ..rules import successors


def layers(instance: Instance, horizon: int, limit: int) -> list[list[tuple[int, ...]]] | None:
    """The BFS layers 0..horizon (states as per-label masks, labels sorted), None above ``limit``."""
    labels = tuple(sorted(instance.labels))
    start = instance.start.masks(labels)
    seen = {start}
    out = [[start]]
    for _ in range(horizon):
        nxt = []
        for s in out[-1]:
            for _, u in successors(instance.board, instance.d, s, instance.moves):
                if u not in seen:
                    seen.add(u)
                    nxt.append(u)
        out.append(nxt)
        if len(seen) > limit:
            return None
    return out


def has_goal(instance: Instance, layer_list: list[list[tuple[int, ...]]]) -> bool:
    """Does any layer hold a goal placement (then "never the goal within L - 1" would be false)?"""
    from ..configuration import Configuration

    labels = tuple(sorted(instance.labels))
    return any(instance.is_goal(Configuration.from_masks(labels, s)) for layer in layer_list for s in layer)


def latch_values(instance: Instance, aig: Aig, state: tuple[int, ...]) -> list[int]:
    """The value of each board latch (in the file's polarity) in the configuration ``state``."""
    labels = sorted(instance.labels)
    occupied = 0
    for m in state:
        occupied |= m
    out = []
    for cell, label, flip in aig.meaning:
        mask = occupied if label is None else state[labels.index(label)]
        out.append((mask >> cell & 1) ^ int(flip))
    return out


def bounded_witness(
    model: Circuit, instance: Instance, aig: Aig, horizon: int, layer_list: list[list[tuple[int, ...]]], name: str
) -> Circuit:
    """The witness circuit of the module docstring for the bounded file ``model``."""
    ext = Extender(model)
    n_board = len(aig.meaning)
    board = [lit for lit, _, _ in model.latches[:n_board]]
    counter = [lit for lit, _, _ in model.latches[n_board:]]

    def minterm(values: list[int]) -> int:
        return ext.all(lit if v else lit ^ 1 for lit, v in zip(board, values))

    def cnt_is(t: int) -> int:
        return ext.all(c if t >> i & 1 else c ^ 1 for i, c in enumerate(counter))

    in_r = 0
    parts = [ext.any(cnt_is(v) for v in range(horizon + 2))]  # cnt <= T + 1
    for t, layer in enumerate(layer_list):
        in_r = ext.any((in_r, ext.any(minterm(latch_values(instance, aig, s)) for s in layer)))
        parts.append(ext.any((cnt_is(t) ^ 1, in_r)))
    size = sum(len(layer) for layer in layer_list)
    return ext.witness(ext.all(parts), name, f"the {size} configurations reachable within {horizon} moves, by step")
