"""Run under ``mpiexec -n 2`` with a scratch directory: ``rankbfs --cluster --resume`` (tests/test_resume_workers.py).

Rank 0 saves the layers the ranks complete; a resumed job scatters each rank its part of the
saved layers.  For each case rank 0 prints one JSON line: the answers and layer sizes of a run
without a stop (one process), of the stopped and resumed cluster runs, and whether the layers
and moves are the same; then a directory saved by one process resumed on the ranks, a
directory saved on the ranks resumed by one process, and the one-line refusal of a frontier
forged with a new sha256 (the same message on every rank, which then all stop)."""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

import numpy as np

from coinsat.errors import UsageError
from coinsat.families import vdiag
from coinsat.search.options import RankbfsOptions
from coinsat.search.rank.colex import U64
from coinsat.search.rank.mpi import comm_world, is_primary
from coinsat.search.rank.search import solve_rankbfs
from coinsat.search.rank.visited import MANIFEST, decode, encode
from coinsat.solution import verify

INST = vdiag(2, 1, "nwse")


def run(**kw):
    return solve_rankbfs(INST, options=RankbfsOptions(**kw))


def layers(r) -> list:
    return [r.witness.layers.layer(i) for i in range(r.witness.layers.depths)]


def same(a, b) -> bool:
    return (
        (a.status, a.length, a.solution) == (b.status, b.length, b.solution)
        and a.stats["layers"] == b.stats["layers"]
        and all(np.array_equal(x, y) for x, y in zip(layers(a), layers(b), strict=True))
    )


def report(**line) -> None:
    if is_primary():
        print(json.dumps(line), flush=True)


def main(base: Path) -> None:
    comm = comm_world()
    for name, kw in {"fill": {"upper_bound": 24}, "forced": {"upper_bound": 24, "forced_supports": True}}.items():
        d = str(base / name)
        fresh = run(workers=1, **kw)  # every rank: the same one-process run, for the sizes
        cut = sum(fresh.stats["layers"][:13]) - 1
        stopped = run(cluster=True, resume=d, max_states=cut, **kw)
        again = run(cluster=True, resume=d, **kw)
        line = {"case": name, "fresh": [fresh.status.value, fresh.length], "stopped": stopped.status.value}
        if is_primary():
            line["saved_layers"] = json.loads((Path(d) / MANIFEST).read_text())["layers"]
            line["resumed_at"] = again.stats.get("resumed_at")
            line["same"] = same(again, fresh)
            line["replays"] = bool(verify(INST, again.solution).ok)
            line["ranks"] = again.stats.get("cluster_ranks")
        report(**line)
    # saved by one process (rank 0), resumed on the ranks; saved on the ranks, resumed by one process
    one = str(base / "one")
    if is_primary():
        run(workers=1, upper_bound=24, resume=one, max_states=2000)
    comm.Barrier()
    on_ranks = run(cluster=True, upper_bound=24, resume=one)
    d = str(base / "fill")
    if is_primary():
        fresh = run(workers=1, upper_bound=24)
        back = run(workers=1, upper_bound=24, resume=d)
        report(case="across", ranks_from_one=same(on_ranks, fresh), one_from_ranks=same(back, fresh))
    # a frontier forged with a new sha256
    forged = base / "forged"
    run(cluster=True, resume=str(forged), max_states=3000)
    if is_primary():
        m = json.loads((forged / MANIFEST).read_text())
        last = len(m["layers"]) - 1
        front = decode((forged / f"L{last:05d}" / "p000.bin").read_bytes())
        data = encode(np.asarray(front[:10], dtype=U64))
        (forged / f"L{last:05d}" / "p000.bin").write_bytes(data)
        m["layers"][last], m["sha256"][last] = 10, [hashlib.sha256(data).hexdigest()]
        (forged / MANIFEST).write_text(json.dumps(m))
    comm.Barrier()
    try:
        run(cluster=True, resume=str(forged))
        said = None
    except UsageError as e:
        said = str(e)
    told = comm.gather(said, root=0)
    report(case="forged", refused=told)


if __name__ == "__main__":
    main(Path(sys.argv[1]))
