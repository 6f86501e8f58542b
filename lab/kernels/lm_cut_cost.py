#!/usr/bin/env python3
"""LM-cut's cost per state: a baseline commit's kernel against this checkout's, in one run.

    nice -n 10 python3 scripts/lm_cut_cost.py --baseline COMMIT [--contender COMMIT] \\
        [--runs vdiag-3-3-swne:upper=73 diagonal-7:max=60] [--out benchmarks/lm-cut-cost.md]

For each run (``NAME:upper=U``: ``coinsat solve instances/families/NAME.toml --method rankbfs
--upper-bound U --heuristic lmcut --workers 1``; ``NAME:max=K``: the same with ``--max-moves K``)
the search runs once with the baseline's package (``git archive COMMIT coinsat``, first on
``PYTHONPATH``) and once with the contender's (``--contender``, default HEAD, archived the same
way, so that the checkout may change while it runs), each in a fresh process (``python3`` this script
``--driver``), numba warmed up on V(2,2)->SW-NE before the timed solve.  Per run: the answer, the
states kept and expanded (they must be the same: the h decides the same), the CPU seconds of the
solve (``time.process_time``), the CPU inside the h (``Space.inner_heuristic``: the compiled fill h
on the batch, the colex unranking, the LM-cut kernel) and inside the LM-cut kernel alone
(``LmCut.of_cells``), and the states the kernel was asked about.  µs a state = the solve's CPU /
the states kept (the issue's measure).

Same values.  The contender's process also saves a sample of the kernel's real inputs (``--per-batch``
states of every batch, evenly spaced in it, with its cap, at most ``--sample`` states in all: every depth
of the search is in it); a third and a fourth process
(baseline, contender) compute the kernel on exactly those inputs, once with their caps (as in the
search), once with cap 0 (round 1 and the fill schedule only, which every state with a goal cell
still to fill exceeds) and once with cap 2^29 (round 1, the fill schedule and Lemma UP's plan, which
then always has <= cap actions: no round), and the table says whether the two kernels' values are
identical, array for array, their µs a state on the same states, and where the contender's time
goes: the search outside the h, the h outside the kernel (the compiled fill h of the batch and the
unranking), and the kernel's round 1, plan and rounds (the sample's shares of the kernel's time,
applied to the search's kernel CPU).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
FAMILIES = ROOT / "instances" / "families"
DEFAULT_RUNS = ["vdiag-3-3-swne:upper=73", "diagonal-7:max=60"]


def driver(spec: dict) -> dict:
    """One process: the timed solve (``spec["mode"] == "solve"``) or the kernel on saved inputs
    (``"values"``), with the ``coinsat`` first on ``PYTHONPATH``."""
    import numpy as np

    import coinsat
    from coinsat import read_instance, solve
    from coinsat.search.rank import lmcut
    from coinsat.search.rank import space as sp

    inst = read_instance(spec["instance"])
    warm = read_instance(spec["warm"])
    solve(warm, "rankbfs", upper_bound=35, heuristic="lmcut", workers=1)  # numba loads or compiles here
    if spec["mode"] == "values":
        data = np.load(spec["sample"])
        space = sp.Space(inst, True, int(data["U"]), h="lmcut")
        lm = lmcut.LmCut(inst.board.neighbours, inst.d, [list(g) for g in space.goals])
        at, caps, cells = data["at"], data["caps"], data["cells"]
        parts = [cells[at[i] : at[i + 1]] for i in range(caps.size)]
        lm.of_cells(parts[0][:1], int(caps[0]))
        c0 = time.process_time()
        values = [lm.of_cells(p, int(c)) for p, c in zip(parts, caps)]
        cpu = time.process_time() - c0
        c0 = time.process_time()
        for p in parts:
            lm.of_cells(p, 0)
        cpu0 = time.process_time() - c0
        c0 = time.process_time()
        for p in parts:
            lm.of_cells(p, 1 << 29)
        cpu_plan = time.process_time() - c0
        np.save(spec["values_out"], np.concatenate(values))
        return {
            "cpu": cpu,
            "cpu_cap0": cpu0,
            "cpu_plan": cpu_plan,
            "states": int(cells.shape[0]),
            "package": coinsat.__file__,
        }
    clock = {"h": 0.0, "kernel": 0.0, "evals": 0, "saved": 0}
    sample: list = []
    inner, of_cells = sp.Space.inner_heuristic, lmcut.LmCut.of_cells

    def timed_inner(self, ranks, cap=None):
        c = time.process_time()
        out = inner(self, ranks, cap)
        clock["h"] += time.process_time() - c
        return out

    def timed_kernel(self, cells, cap=None):
        c = time.process_time()
        out = of_cells(self, cells, cap)
        clock["kernel"] += time.process_time() - c
        clock["evals"] += int(cells.shape[0])
        if spec.get("sample") and cap is not None and cap >= 0 and clock["saved"] < spec["max_sample"]:
            step = max(1, cells.shape[0] // spec.get("per_batch", 512))  # spread over the batch (sorted by rank)
            part = np.array(cells[::step][: spec.get("per_batch", 512)], dtype=np.int32)
            sample.append((part, int(cap)))
            clock["saved"] += part.shape[0]
        return out

    made: list = []
    init = lmcut.LmCut.__init__

    def counted_init(self, *a, **k):
        init(self, *a, **k)
        made.append(self)

    sp.Space.inner_heuristic = timed_inner
    lmcut.LmCut.of_cells = timed_kernel
    lmcut.LmCut.__init__ = counted_init
    kind, bound = spec["bound"]
    c0 = time.process_time()
    if kind == "upper":
        r = solve(inst, "rankbfs", upper_bound=bound, heuristic="lmcut", workers=1)
    else:
        r = solve(inst, "rankbfs", max_moves=bound, heuristic="lmcut", workers=1)
    cpu = time.process_time() - c0
    if sample:
        cells = np.concatenate([x for x, _ in sample])
        at = np.cumsum([0] + [x.shape[0] for x, _ in sample])
        U = bound
        np.savez(spec["sample"], cells=cells, at=at, caps=np.array([c for _, c in sample]), U=U)
    return {
        "status": r.status.value,
        "length": r.length,
        "lower_bound": r.lower_bound,
        "states": int(r.stats.get("states", 0)),
        "expanded": int(r.stats.get("expanded", 0)),
        "cpu": cpu,
        "h_cpu": clock["h"],
        "kernel_cpu": clock["kernel"],
        "evals": clock["evals"],
        "memo": sum(int(getattr(x, "hits", [0])[0]) for x in made),  # a kernel without a memo: 0
        "package": coinsat.__file__,
    }


def spawn(pythonpath: Path, spec: dict) -> dict:
    """``driver(spec)`` in a fresh ``nice``d process whose ``coinsat`` is the one under ``pythonpath``."""
    env = dict(os.environ, PYTHONPATH=str(pythonpath))
    cmd = ["nice", "-n", "10", sys.executable, str(ROOT / "scripts/lm_cut_cost.py"), "--driver", json.dumps(spec)]
    p = subprocess.run(cmd, capture_output=True, text=True, env=env, cwd="/")
    if p.returncode != 0:
        raise SystemExit(f"driver failed ({pythonpath}):\n{p.stderr[-3000:]}")
    out = json.loads(p.stdout.strip().splitlines()[-1])
    want = (pythonpath / "coinsat" / "__init__.py").resolve()
    if Path(out["package"]).resolve() != want:
        raise SystemExit(f"the driver imported {out['package']}, not {want}")
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--baseline", help="the commit whose kernel is the baseline")
    ap.add_argument("--contender", default="HEAD", help="the commit whose kernel is measured against it")
    ap.add_argument("--runs", nargs="+", default=DEFAULT_RUNS, help="NAME:upper=U or NAME:max=K (docstring)")
    ap.add_argument("--per-batch", type=int, default=512, help="save this many states of each kernel batch")
    ap.add_argument("--sample", type=int, default=300_000, help="at most this many saved states a run")
    ap.add_argument("--out", default=None)
    ap.add_argument("--driver", default=None, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.driver:
        print(json.dumps(driver(json.loads(args.driver))))
        return 0
    if not args.baseline:
        ap.error("--baseline COMMIT is required")
    commit, mine = (
        subprocess.run(
            ["git", "-C", str(ROOT), "rev-parse", "--short", c], capture_output=True, text=True, check=True
        ).stdout.strip()
        for c in (args.baseline, args.contender)
    )
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        base, cont = Path(tmp) / "baseline", Path(tmp) / "contender"
        for where, c in ((base, commit), (cont, mine)):
            where.mkdir()
            archive = subprocess.run(["git", "-C", str(ROOT), "archive", c, "coinsat"], capture_output=True, check=True)
            subprocess.run(["tar", "-x", "-C", str(where)], input=archive.stdout, check=True)
        for run in args.runs:
            name, _, b = run.partition(":")
            kind, _, value = b.partition("=")
            if kind not in ("upper", "max") or not value.isdigit():
                raise SystemExit(f"--runs {run!r}: write NAME:upper=U or NAME:max=K")
            spec = {
                "instance": str(FAMILIES / f"{name}.toml"),
                "warm": str(FAMILIES / "vdiag-2-2-swne.toml"),
                "bound": [kind, int(value)],
                "mode": "solve",
                "per_batch": args.per_batch,
                "max_sample": args.sample,
            }
            sample = str(Path(tmp) / f"{name}.npz")
            t0 = time.strftime("%H:%M", time.gmtime())
            load0 = os.getloadavg()[0]
            old = spawn(base, spec)
            print(run, "baseline", old, flush=True)
            new = spawn(cont, dict(spec, sample=sample))
            print(run, "contender", new, flush=True)
            vals = {}
            for who, path in (("baseline", base), ("contender", cont)):
                out = str(Path(tmp) / f"{name}-{who}.npy")
                vals[who] = spawn(path, dict(spec, mode="values", sample=sample, values_out=out))
                vals[who]["values"] = out
            import numpy as np

            same = bool(np.array_equal(np.load(vals["baseline"]["values"]), np.load(vals["contender"]["values"])))
            print(run, "kernel on the same states", vals, "identical:", same, flush=True)
            rows.append(
                dict(
                    run=run,
                    old=old,
                    new=new,
                    vals=vals,
                    same=same,
                    when=t0,
                    end=time.strftime("%H:%M", time.gmtime()),
                    load=(load0, os.getloadavg()[0]),
                )
            )
    table = render(rows, commit, mine)
    print(table)
    if args.out:
        cmd = shown(args)
        Path(args.out).write_text(
            "# LM-cut's cost per state: the kernel of a baseline commit against this one\n\n"
            f"Made by `nice -n 10 {cmd}` (the method is the script's docstring; each cell a fresh process, "
            f"one worker, CPU seconds of the process; the machine shared with other jobs, so the ratios "
            f"of one row are what to read).\n\n" + table + "\n\n" + when(rows) + "\n"
        )
    return 0


def when(rows: list[dict]) -> str:
    """The runs' times (UTC) and the machine's load average (1 minute) at their start and end."""
    day = time.strftime("%Y-%m-%d", time.gmtime())
    parts = [
        f"{r['run']} {r['when']}-{r['end']} UTC (load average {r['load'][0]:.1f}, then {r['load'][1]:.1f})"
        for r in rows
    ]
    return f"Run on {day}: " + "; ".join(parts) + ", on 2 cores shared with other jobs."


def shown(args) -> str:
    from lab.commandline import shown as portable

    return portable("scripts/lm_cut_cost.py", sys.argv[1:], ROOT)


def render(rows: list[dict], commit: str, mine: str) -> str:
    """The searches, then the kernel on the same states."""
    lines = [
        f"Baseline: commit {commit}; contender: commit {mine}.",
        "",
        "| run | kernel | answer | states kept | states expanded | kernel calls (states) | answered by the memo | "
        "CPU s | h CPU s | kernel CPU s | µs a kept state | kernel µs a call | CPU ratio |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        for who in ("old", "new"):
            x = r[who]
            answer = {"optimal": f"optimal {x['length']}", "bounded": f"none <= {x['lower_bound'] - 1}"}.get(
                x["status"], x["status"]
            )
            lines.append(
                f"| {r['run']} | {'baseline' if who == 'old' else 'contender'} | {answer} | {x['states']:,} | "
                f"{x['expanded']:,} | {x['evals']:,} | {x.get('memo', 0):,} | {x['cpu']:.1f} | {x['h_cpu']:.1f} | "
                f"{x['kernel_cpu']:.1f} | "
                f"{x['cpu'] / max(x['states'], 1) * 1e6:.1f} | {x['kernel_cpu'] / max(x['evals'], 1) * 1e6:.2f} | "
                f"{x['cpu'] / max(r['old']['cpu'], 1e-9):.2f} |"
            )
    lines += [
        "",
        "The kernels on the same states (a sample of the contender's kernel calls, with their caps), "
        "µs a state: with the caps of the search; with cap 0 (round 1 and the fill schedule); with cap "
        "2^29 (and Lemma UP's plan, no round):",
        "",
        "| run | states | identical values | baseline | contender | ratio | baseline, cap 0 | contender, cap 0 | "
        "baseline, cap 2^29 | contender, cap 2^29 |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        b, c = r["vals"]["baseline"], r["vals"]["contender"]
        n = max(b["states"], 1) / 1e6
        lines.append(
            f"| {r['run']} | {b['states']:,} | {'yes' if r['same'] else 'NO'} | {b['cpu'] / n:.2f} | "
            f"{c['cpu'] / n:.2f} | {c['cpu'] / max(b['cpu'], 1e-9):.2f} | {b['cpu_cap0'] / n:.2f} | "
            f"{c['cpu_cap0'] / n:.2f} | {b['cpu_plan'] / n:.2f} | {c['cpu_plan'] / n:.2f} |"
        )
    lines += [
        "",
        "Where the contender's time goes, µs a kept state of the search (the kernel's part split by the "
        "sample's shares: round 1 and the fill schedule = cap 0; Lemma UP's plan = cap 2^29 less cap 0; "
        "the rounds = the rest):",
        "",
        "| run | whole search | search outside the h | fill h of the batch and unranking | kernel | "
        "kernel: round 1 | kernel: plan | kernel: rounds |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        x, c = r["new"], r["vals"]["contender"]
        per = 1e6 / max(x["states"], 1)
        k = x["kernel_cpu"] * per
        full = max(c["cpu"], 1e-9)
        one, plan = c["cpu_cap0"] / full, max(c["cpu_plan"] - c["cpu_cap0"], 0.0) / full
        lines.append(
            f"| {r['run']} | {x['cpu'] * per:.1f} | {(x['cpu'] - x['h_cpu']) * per:.1f} | "
            f"{(x['h_cpu'] - x['kernel_cpu']) * per:.1f} | {k:.1f} | {k * one:.1f} | {k * plan:.1f} | "
            f"{k * max(1 - one - plan, 0.0):.1f} |"
        )
    return "\n".join(lines)


if __name__ == "__main__":
    raise SystemExit(main())
