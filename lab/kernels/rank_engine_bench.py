#!/usr/bin/env python3
"""rankbfs's engine, a baseline revision against the working tree, in the same run; writes a table.

For each instance both versions solve it in fresh subprocesses (``--one``), alternating
baseline/contender ``--repeat`` times; the table gives each one's best CPU seconds, states
expanded per CPU second, peak RSS, bytes per visited state, and contender/baseline ratios.
The baseline is ``git archive REV coinsat`` unpacked to a temporary directory, so both
versions run the same instances on the same (shared) machine at the same time of day.
Answers and states kept must agree: a row says so, and the script exits 1 if they do not.

    nice -n 10 python3 scripts/rank_engine_bench.py --baseline REV [--instances a,b] \\
        [--options '{"spill_budget": 1024}'] [--workers 1,2] [--out benchmarks/rankbfs-engine.md]

Instances are names in instances/families/ (``vdiag-3-2-nwse``) or ``diagonal-K``; a name with
``@T`` stops at horizon T (``vdiag-3-3-nwse@36``).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def one(spec: str, options: dict) -> dict:
    """Solve one instance here (the ``coinsat`` on sys.path) and report."""
    from coinsat import read_instance
    from coinsat.families import diagonal_flip

    name, _, horizon = spec.partition("@")
    if name.startswith("diagonal-"):
        inst = diagonal_flip(int(name.split("-")[1]))
    else:
        inst = read_instance(ROOT / "instances" / "families" / f"{name}.toml")
    max_moves = int(horizon) if horizon else None
    t0, c0 = time.perf_counter(), time.process_time()
    try:  # the engine contract of issue 29 (search/rank/, options dataclasses)
        from coinsat.search.options import RankbfsOptions
        from coinsat.search.rank.search import solve_rankbfs
    except ImportError:  # a baseline revision from before it: keywords, search/rankbfs.py
        from coinsat.search.rankbfs import solve_rankbfs as solve_old  # type: ignore[import-not-found]

        r = solve_old(inst, max_moves=max_moves, **options)
    else:
        r = solve_rankbfs(inst, max_moves=max_moves, options=RankbfsOptions(**options))
    wall = time.perf_counter() - t0
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = time.process_time() - c0 + kids.ru_utime + kids.ru_stime
    peak = max(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, kids.ru_maxrss) * 1024
    return {
        "status": r.status.value,
        "length": r.length,
        "lower_bound": r.lower_bound,
        "states": r.stats.get("states"),
        "expanded": r.stats.get("expanded"),
        "bytes_per_state": r.stats.get("bytes_per_state"),
        "disk_bytes": r.stats.get("disk_bytes", 0),
        "wall": wall,
        "cpu": cpu,
        "peak_rss": peak,
    }


#: what ``--breakdown`` times: (label, module, attribute), outermost first; nested ones are inside
#: the one above them ("of which")
PIECES = (
    ("expansion (Space.expand: kernel, sort, dedup)", "coinsat.search.rank.space", "Space.expand"),
    ("  of which: the compiled kernel (expand_branchfree)", "coinsat.search.rank.jit", "expand_branchfree"),
    ("  of which: the compiled kernel (expand_chunk)", "coinsat.search.rank.jit", "expand_chunk"),
    ("  of which: in-place dedup (dedup_sorted)", "coinsat.search.rank.jit", "dedup_sorted"),
    ("union of the chunks (merge_unique)", "coinsat.search.rank.jit", "merge_unique"),
    ("membership (Visited.contains)", "coinsat.search.rank.visited", "Visited.contains"),
    ("h (Space.heuristic)", "coinsat.search.rank.space", "Space.heuristic"),
    ("  of which: the compiled h (schedule_h_words)", "coinsat.search.rank.jit", "schedule_h_words"),
    ("  of which: the compiled h (schedule_h)", "coinsat.search.rank.jit", "schedule_h"),
    ("saving/spilling layers (Visited.add)", "coinsat.search.rank.visited", "Visited.add"),
)


def breakdown(spec: str, options: dict) -> dict:
    """Solve ``spec`` here with CPU timers around the pieces of ``PIECES`` (those that exist in
    this revision), one worker; returns their CPU seconds and the run's."""
    import importlib

    spent: dict[str, float] = {}

    def timed(label, f):
        def g(*a, **k):
            c = time.process_time()
            try:
                return f(*a, **k)
            finally:
                spent[label] = spent.get(label, 0.0) + time.process_time() - c

        return g

    try:  # load (or compile) the kernels first: the timers measure the search, not the loading
        from coinsat.search.rank.visited import compiled

        compiled()
    except ImportError:
        pass
    for label, module, attr in PIECES:
        try:
            owner = importlib.import_module(module)
        except ImportError:
            continue
        *path, name = attr.split(".")
        for part in path:
            owner = getattr(owner, part, None)
        if owner is not None and hasattr(owner, name):
            setattr(owner, name, timed(label, getattr(owner, name)))
    r = one(spec, dict(options, workers=1))
    return {"run": r, "spent": spent}


def _short(rev: str) -> str:
    return subprocess.run(["git", "rev-parse", "--short", rev], cwd=ROOT, capture_output=True, text=True).stdout.strip()


def _unpack(rev: str, where: Path) -> Path:
    """``git archive REV coinsat instances`` unpacked into ``where`` (a revision to run)."""
    where.mkdir()
    archive = subprocess.run(["git", "archive", rev, "coinsat", "instances"], cwd=ROOT, capture_output=True)
    if archive.returncode != 0:
        raise SystemExit(f"git archive {rev}: {archive.stderr.decode(errors='replace').strip()}")
    subprocess.run(["tar", "-x", "-C", str(where)], input=archive.stdout, check=True)
    return where


def _disk(r: dict) -> float:
    return (r.get("disk_bytes") or 0) / max(1, r["states"] or 1)


def run(path: Path, spec: str, options: dict, extra_env: dict | None = None, flag: str = "--one") -> dict:
    env = dict(os.environ, PYTHONPATH=str(path), **(extra_env or {}))
    cmd = [sys.executable, str(ROOT / "scripts/rank_engine_bench.py"), flag, spec, "--options", json.dumps(options)]
    out = subprocess.run(cmd, env=env, capture_output=True, text=True, cwd=str(path))
    if out.returncode != 0:
        raise SystemExit(f"{spec} with {path}: {out.stderr[-2000:]}")
    return json.loads(out.stdout.strip().splitlines()[-1])


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--baseline", default="HEAD", help="git revision of the baseline (default HEAD)")
    ap.add_argument(
        "--contender",
        default=None,
        help="git revision of the contender (default: the working tree; a revision keeps others' unfinished edits out)",
    )
    ap.add_argument("--instances", default="vdiag-3-2-nwse")
    ap.add_argument("--options", default="{}", help="JSON keyword options of solve_rankbfs for both")
    ap.add_argument("--contender-options", default=None, help="JSON options for the contender only")
    ap.add_argument("--contender-env", default="", help="KEY=VALUE,... set for the contender only")
    ap.add_argument("--baseline-env", default="", help="KEY=VALUE,... set for the baseline only")
    ap.add_argument("--repeat", type=int, default=2)
    ap.add_argument(
        "--warmup",
        default="vdiag-2-2-swne",
        help="solved once by each side first, not measured (its layers are large enough for a compiled"
        " kernel to fill its cache); '' for none",
    )
    ap.add_argument("--out", default=None)
    ap.add_argument("--append", action="store_true", help="add the table to the end of --out (one file, several runs)")
    ap.add_argument("--title", default="rankbfs: baseline against the working tree")
    ap.add_argument("--profile", action="store_true", help="append a cProfile of the contender (first instance)")
    ap.add_argument("--one", default=None, help=argparse.SUPPRESS)
    ap.add_argument("--profile-one", default=None, help=argparse.SUPPRESS)
    ap.add_argument(
        "--breakdown",
        action="store_true",
        help="append where each side's CPU goes on the first instance (timers around the engine's pieces, one worker)",
    )
    ap.add_argument("--breakdown-one", default=None, help=argparse.SUPPRESS)
    args = ap.parse_args()
    options = json.loads(args.options)
    if args.one:
        print(json.dumps(one(args.one, options)))
        return 0
    if args.breakdown_one:
        print(json.dumps(breakdown(args.breakdown_one, options)))
        return 0
    if args.profile_one:
        import cProfile
        import io
        import pstats

        prof = cProfile.Profile()
        prof.runcall(one, args.profile_one, options)
        buf = io.StringIO()
        pstats.Stats(prof, stream=buf).sort_stats("tottime").print_stats(12)
        print(buf.getvalue())
        return 0
    contender_options = json.loads(args.contender_options) if args.contender_options else options
    cenv = dict(kv.split("=", 1) for kv in args.contender_env.split(",") if kv)
    benv = dict(kv.split("=", 1) for kv in args.baseline_env.split(",") if kv)
    rev = subprocess.run(["git", "rev-parse", "--short", args.baseline], cwd=ROOT, capture_output=True, text=True)
    head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True)
    crev = "" if args.contender is None else _short(args.contender)
    rows, bad = [], False
    load_start = os.getloadavg()[0]
    split: dict[str, dict] = {}
    with tempfile.TemporaryDirectory() as tmp:
        base = _unpack(args.baseline, Path(tmp) / "baseline")
        new = ROOT if args.contender is None else _unpack(args.contender, Path(tmp) / "contender")
        if args.warmup:
            run(base, args.warmup, options, benv)
            run(new, args.warmup, contender_options, cenv)
        for spec in args.instances.split(","):
            got: dict[str, list[dict]] = {"baseline": [], "contender": []}
            for _ in range(args.repeat):
                got["baseline"].append(run(base, spec, options, benv))
                got["contender"].append(run(new, spec, contender_options, cenv))
            b = min(got["baseline"], key=lambda r: r["cpu"])
            c = min(got["contender"], key=lambda r: r["cpu"])
            same = all(b[k] == c[k] for k in ("status", "length", "lower_bound", "states"))
            bad |= not same
            rows.append((spec, b, c, same))
            print(spec, json.dumps(b), json.dumps(c), file=sys.stderr)
        if args.breakdown:
            spec = args.instances.split(",")[0]
            sides = (("baseline", base, options, benv), ("contender", new, contender_options, cenv))
            for side, path, opts, env in sides:
                split[side] = run(path, spec, opts, env, flag="--breakdown-one")
    lines = [
        f"# {args.title}",
        "",
        f"Made by `scripts/rank_engine_bench.py --baseline {args.baseline} --instances {args.instances}"
        f" --options '{args.options}'"
        + (f" --contender {args.contender}" if args.contender else "")
        + (f" --contender-options '{args.contender_options}'" if args.contender_options else "")
        + (f" --baseline-env {args.baseline_env}" if args.baseline_env else "")
        + (f" --contender-env {args.contender_env}" if args.contender_env else "")
        + (f" --out {args.out}{' --append' if args.append else ''}" if args.out else "")
        + f" --repeat {args.repeat}{' --profile' if args.profile else ''}{' --breakdown' if args.breakdown else ''}`:"
        f" baseline = `{rev.stdout.strip()}`, contender = "
        + (
            f"`{crev}`."
            if args.contender
            else f"the working tree at `{head.stdout.strip()}` (and its uncommitted changes)."
        )
        + f" Each number is the best of {args.repeat} runs,"
        " each a fresh process, baseline and contender alternating, after one unmeasured warm-up run each"
        f" (`{args.warmup}`); CPU seconds include worker processes."
        f" Machine load (1-minute average) at the start {load_start:.1f}, at the end {os.getloadavg()[0]:.1f}"
        " (2 cores, shared: CPU seconds grow with the load, so only the ratios of one run compare).",
        "",
        "| instance | answer | states | expanded | CPU s (base / new) | speedup (base / new CPU)"
        " | M expanded per CPU s (base / new) | peak RSS MB (base / new) | bytes/state in memory (base / new)"
        " | disk bytes/state (base / new) | same answer and states |",
        "|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for spec, b, c, same in rows:
        answer = f"{c['status']} {c['length'] if c['length'] is not None else ''} (lb {c['lower_bound']})"
        rate_b, rate_c = b["expanded"] / b["cpu"] / 1e6, c["expanded"] / c["cpu"] / 1e6
        lines.append(
            f"| {spec} | {answer} | {c['states']:,} | {c['expanded']:,} | {b['cpu']:.1f} / {c['cpu']:.1f} |"
            f" {b['cpu'] / c['cpu']:.2f}x | {rate_b:.2f} / {rate_c:.2f} | {b['peak_rss'] / 2**20:.0f} /"
            f" {c['peak_rss'] / 2**20:.0f} | {b['bytes_per_state'] or 0:.2f} / {c['bytes_per_state'] or 0:.2f} |"
            f" {_disk(b):.2f} / {_disk(c):.2f} |"
            f" {'yes' if same else '**NO**'} |"
        )
    if split:
        spec = args.instances.split(",")[0]
        lines += [
            "",
            f"Where the CPU goes on {spec} (`--breakdown`: CPU-second timers around the engine's pieces, one more"
            " run of each side, one worker; an indented row is part of the row above it):",
            "",
            "| piece | baseline CPU s | share | contender CPU s | share | new / base |",
            "|---|---|---|---|---|---|",
        ]
        cpu = {side: split[side]["run"]["cpu"] for side in split}
        for label, _, _ in PIECES:
            got = {side: split[side]["spent"].get(label) for side in split}
            if all(v is None or v < 0.005 for v in got.values()):
                continue
            cells = []
            for side in ("baseline", "contender"):
                v = got[side]
                cells += ["–", "–"] if v is None else [f"{v:.2f}", f"{100 * v / cpu[side]:.0f} %"]
            b_, c_ = got["baseline"], got["contender"]
            ratio = f"{c_ / b_:.2f}" if b_ and c_ else "–"
            lines.append(f"| {label.strip()} | {' | '.join(cells)} | {ratio} |".replace("| of which:", "| ↳"))
        total = [f"{cpu[side]:.2f}" for side in ("baseline", "contender")]
        ratio = cpu["contender"] / cpu["baseline"]
        lines.append(f"| whole run | {total[0]} | 100 % | {total[1]} | 100 % | {ratio:.2f} |")
    if args.profile:
        spec = args.instances.split(",")[0]
        cmd = [
            sys.executable,
            str(ROOT / "scripts/rank_engine_bench.py"),
            "--profile-one",
            spec,
            "--options",
            json.dumps(contender_options),
        ]
        env = dict(os.environ, PYTHONPATH=str(ROOT), **cenv)
        prof = subprocess.run(cmd, env=env, capture_output=True, text=True, cwd=str(ROOT)).stdout
        body = [ln for ln in prof.splitlines() if ln.strip()]
        lines += [
            "",
            f"Where the contender's time goes on {spec} (cProfile, wall seconds under the profiler, by own time):",
            "",
            "```",
            *body[-14:],
            "```",
        ]
    text = "\n".join(lines) + "\n"
    if args.out:
        out = Path(args.out)
        out.write_text((out.read_text() + "\n" if args.append and out.exists() else "") + text)
    print(text)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
