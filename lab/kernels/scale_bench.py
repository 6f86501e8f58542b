#!/usr/bin/env python3
"""The exact engines at scale: ``spanbfs`` against ``rankbfs``; writes benchmarks/scale.md.

Sections (``--sections``, comma-separated; default all but ``bound`` and ``proofs``):

* ``keys``: the state key, measured — colex ranks (one uint64) against multi-word
  bitboards (2 or 3 uint64 rows) for sorting, deduplicating and looking up
  random configurations of 81 cells / 11 coins and 144 cells / 14 coins;
* ``compare``: old ``spanbfs`` against new ``rankbfs`` (1 worker), and rankbfs
  with bound-and-prune (U = the stored verified solution's length) as a
  contender, on V(3,2) and V(3,3) -> NW-SE in one run: states kept, wall and CPU
  seconds, peak RSS, states expanded per CPU second, ratios;
* ``bound``: bound-and-prune with and without U, both to the end;
* ``workers``: 1 against 2 worker processes on the same instance;
* ``profile``: where rankbfs's time goes (cProfile, per function);
* ``certify``: ranked layers certificates written by the solve, then checked in a
  fresh process by the checker and by its baseline (an earlier commit's checker);
* ``checkprofile``: where the checker's time goes, baseline and now (cProfile);
* ``checkkernel``: the checker's numpy kernel against its compiled one (numba) on the
  same certificates, one word (V(3,2)) and two words (V(4,3), pruned);
* ``checkthreads``: the checker on 1 against 2 threads (``workers``), the same V(4,3)
  certificate, the compiled kernel;
* ``proofs``: the large members (``--members``) solved with certificates that a
  fresh process checks, one member per invocation, kept in
  benchmarks/scale_proofs.json (long: run it alone, in the background);
* ``prooftable``: the proofs' table alone, from benchmarks/scale_proofs.json (nothing run);
* ``extrapolate``: the V chains and diagonal flips measured member by member,
  and what the larger members would need (states, RAM, disk, CPU, machines).

Runs go one after another (two cores shared by several users), each kept in
benchmarks/scale_runs.json; ``--reuse`` takes a kept run instead of repeating it.
Every engine run is a fresh subprocess (``--one``), so its peak RSS is its own.
CPU seconds include worker processes.  The machine is shared: wall times are
noisy, CPU seconds less so; ratios come from one run.

    nice -n 10 python3 scripts/scale_bench.py [--sections keys,compare,...] [--out benchmarks/scale.md]
"""

from __future__ import annotations

import argparse
import json
import math
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from coinsat import Status
from coinsat.search.options import RankbfsOptions
from lab import proofs
from lab.baseline import module_at

ROOT = Path(__file__).resolve().parents[2]
FAM = ROOT / "instances" / "families"
#: where certificates, solutions and resumable layers are written: jobs and the records kept in
#: benchmarks/ name them relative to this folder (the system's temporary folder, $TMPDIR), so the
#: records never hold a path of the machine that ran them
SCRATCH = Path(tempfile.gettempdir())


def scratch(name: str) -> Path:
    """A job's file or folder: ``name`` under SCRATCH (an absolute ``name`` stays as given)."""
    return SCRATCH / name


def in_scratch(path: Path) -> str:
    """``path`` as a job or a record names it: relative to SCRATCH when inside it."""
    try:
        return str(path.relative_to(SCRATCH))
    except ValueError:
        return str(path)


DEFAULT = "keys,compare,workers,profile,certify,checkprofile,extrapolate"
#: V(3,3) runs stop at this horizon ("bounded") unless --full: on a shared machine a full run of the
#: old engine takes over an hour of wall time
V33_HORIZON = 36


def instance_of(spec: str):
    from coinsat import read_instance
    from coinsat.families import diagonal_flip

    if spec.startswith("diagonal-"):
        return diagonal_flip(int(spec.split("-")[1]))
    return read_instance(FAM / f"{spec}.toml")


def known_length(spec: str) -> int | None:
    """The length of the stored solution, verified (None when there is none)."""
    return proofs.known_length(instance_of(spec), FAM / "solutions" / f"{spec}.json")


# --- one run in a subprocess ----------------------------------------------------------------------


def one(job: dict) -> dict:
    """Solve (and optionally certify) one instance; what the tables need."""
    from coinsat import solve

    inst = instance_of(job["spec"])
    options = dict(job.get("options", {}))
    if "resume" in options:
        options["resume"] = str(scratch(options["resume"]))
    t0, c0 = time.perf_counter(), time.process_time()
    r = solve(inst, job["engine"], **options)
    wall = time.perf_counter() - t0
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = time.process_time() - c0 + kids.ru_utime + kids.ru_stime
    layers = r.stats.get("layers", [])
    out = {
        "spec": job["spec"],
        "engine": job["engine"],
        "options": job.get("options", {}),
        "status": r.status.value,
        "length": r.length,
        "lower_bound": r.lower_bound,
        "states": r.stats.get("states"),
        "expanded": sum(layers[:-1]) if layers else None,
        "layers": layers,
        "bound_pruned": r.stats.get("bound_pruned"),
        "bytes_per_state": r.stats.get("bytes_per_state"),
        "wall": wall,
        "cpu": cpu,
        "rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
        "child_rss_mb": kids.ru_maxrss / 1024,
    }
    if job.get("solution_out") and r.solution is not None:
        from coinsat.io.solution_format import result_to_json

        solution_out = scratch(job["solution_out"])
        solution_out.parent.mkdir(parents=True, exist_ok=True)  # it may be the cert_dir
        solution_out.write_text(json.dumps(result_to_json(inst, r)) + "\n")
        out["solution_out"] = job["solution_out"]  # keep_solution reads it (relative to SCRATCH)
    if r.status is Status.UNKNOWN:  # a limit stopped it: its layers and CPU are kept, nothing to certify
        out["stopped"] = r.stats.get("stopped") or r.stats.get("reason")
    elif job.get("cert_dir"):  # write the certificate, check it later in its own process (``check_one``)
        write_certificate(inst, r, scratch(job["cert_dir"]), out)
    if job.get("certify"):
        from coinsat.certificates.prove.make import certify

        with tempfile.TemporaryDirectory() as tmp:
            t1 = time.perf_counter()
            done = certify(inst, r, tmp)
            out["certify_wall"] = time.perf_counter() - t1
            cert = done.certificate.to_json() if hasattr(done.certificate, "to_json") else done.certificate
            out["check_ok"], out["claim"], out["reason"] = done.check.ok, done.check.claim, done.check.reason
            out["cert_states"] = cert.get("states")
            files = list(Path(tmp).glob("*.npz"))
            out["cert_bytes"] = sum(f.stat().st_size for f in files)
    return out


def write_certificate(inst, r, folder: Path, out: dict) -> None:
    """The certificate of ``r`` written to ``folder`` (not checked here: a large check is timed in a
    fresh process of its own, so that its CPU seconds and peak RSS are the checker's alone)."""
    from coinsat.certificates.prove.make import build_certificate, stem

    folder.mkdir(parents=True, exist_ok=True)
    t1 = time.process_time()
    cert = build_certificate(inst, r, folder)
    path = folder / f"{stem(inst)}.certificate.json"
    path.write_text(cert.text())
    out["cert_path"] = in_scratch(path)
    out["write_cpu"] = time.process_time() - t1
    out["cert_states"] = cert.to_json().get("states") if hasattr(cert, "to_json") else None
    out["cert_bytes"] = sum(f.stat().st_size for f in folder.glob(f"{stem(inst)}*.npz"))


def check_one(job: dict) -> dict:
    """Check a written certificate (``job``: spec, cert_path); CPU seconds and peak RSS of the check."""
    if job.get("check_kernel"):  # before the checker is imported: numpy or numba (coinsat/environment.py)
        os.environ["COINSAT_CHECK_KERNEL"] = job["check_kernel"]
    from coinsat.certificates.check import check_certificate

    if job.get("baseline"):
        use_baseline_checker(job["baseline"])
    inst = instance_of(job["spec"])
    path = scratch(job["cert_path"])
    cert = json.loads(path.read_text())
    prof = None
    if job.get("profile"):
        import cProfile

        prof = cProfile.Profile()
        prof.enable()
    t0, c0 = time.perf_counter(), time.process_time()
    c = check_certificate(inst, cert, path.parent, None, job.get("check_workers", 1))
    top = []
    if prof is not None:
        import pstats

        prof.disable()
        st = pstats.Stats(prof)
        total = sum(v[2] for v in st.stats.values())  # type: ignore[attr-defined]
        for (file, _, name), v in sorted(st.stats.items(), key=lambda kv: -kv[1][2])[:10]:  # type: ignore[attr-defined]
            top.append([f"{Path(file).name}:{name}", v[1], v[2], v[2] / total])
    return {
        **job,
        "profile": top,
        "check_ok": c.ok,
        "claim": c.claim,
        "reason": c.reason,
        "check_wall": time.perf_counter() - t0,
        "check_cpu": time.process_time() - c0,
        "check_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
    }


#: the layers checker before the fast ranked kernel (the baseline of the checker's measurements)
BASELINE_CHECKER = "1f1b741"


def use_baseline_checker(commit: str) -> None:
    """Check layers certificates with certificates/check/layers.py as it was at ``commit``
    (``lab.baseline.module_at``: read with ``git show``, loaded as a module of the same package
    so that its relative imports work)."""
    from coinsat.certificates import check

    name = "coinsat.certificates.check._baseline_layers"
    module_at(ROOT, commit, "coinsat/certificates/check/layers.py", name)
    check.CHECKERS["layers"] = f"{name}:check_layers"


CACHE: dict[str, dict] = {}
#: every engine run's result, kept across invocations (``--reuse`` takes a run from here instead of
#: running it again; each result carries the date and load average of its run)
RUNS = ROOT / "benchmarks" / "scale_runs.json"
REUSE = False


def run(job: dict, timeout: float | None = None) -> dict:
    key = json.dumps(job, sort_keys=True)
    if key in CACHE:
        return CACHE[key]
    kept = json.loads(RUNS.read_text()) if RUNS.exists() else {}
    if REUSE and key in kept and kept[key].get("status") not in ("error", "timeout"):
        CACHE[key] = kept[key]
        return CACHE[key]
    when, load = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), os.getloadavg()[0]
    CACHE[key] = {**_run(job, timeout), "date": when, "load": load}
    kept = json.loads(RUNS.read_text()) if RUNS.exists() else {}
    kept[key] = CACHE[key]
    RUNS.write_text(json.dumps(kept, indent=1, sort_keys=True) + "\n")
    return CACHE[key]


def _run(job: dict, timeout: float | None = None) -> dict:
    cmd = [sys.executable, str(ROOT / "scripts/scale_bench.py"), "--one", json.dumps(job)]
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return {**job, "status": "timeout"}
    if p.returncode != 0:
        return {**job, "status": "error", "reason": p.stderr.strip().splitlines()[-1:] or ""}
    return json.loads(p.stdout.strip().splitlines()[-1])


# --- sections -------------------------------------------------------------------------------------


def keys_section(lines: list[str]) -> None:
    from coinsat.search.rank.colex import Colex, to_words

    lines += [
        "## Keys: colex rank against multi-word bitboards\n",
        "2,000,000 random configurations (with repeats); rank: `Colex.rank` then sort and deduplicate "
        "one uint64 array, lookup by `searchsorted`; words: the (N, W) uint64 bitboards sorted and "
        "deduplicated as rows (`np.unique(axis=0)`, the fastest row sort numpy has), lookup by "
        "`searchsorted` on a structured view. CPU seconds.\n",
        "| cells | coins | words | rank: encode | rank: sort+dedup | rank: lookup | rank: decode "
        "| words: sort+dedup | words: lookup | sort ratio words/rank |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    rng = np.random.default_rng(0)
    N = 2_000_000
    for n, k in ((81, 11), (144, 14)):
        colex = Colex(n, k)
        rows = np.sort(np.argsort(rng.random((N // 4, n)), axis=1)[:, :k], axis=1)
        rows = np.concatenate([rows] * 4)  # repeats, as successors have
        W = -(-n // 64)

        def clock(f):
            t = time.process_time()
            v = f()
            return time.process_time() - t, v

        t_enc, ranks = clock(lambda: colex.rank(rows))
        t_sort, uniq = clock(lambda: np.unique(ranks))
        t_look, _ = clock(lambda: np.searchsorted(uniq, ranks))
        t_dec, _ = clock(lambda: colex.unrank(uniq))
        words = np.ascontiguousarray(to_words(rows, W).T)
        t_wsort, wuniq = clock(lambda: np.unique(words, axis=0))
        view = np.ascontiguousarray(wuniq[:, ::-1]).view([(f"w{i}", np.uint64) for i in range(W)]).ravel()
        q = np.ascontiguousarray(words[:, ::-1]).view(view.dtype).ravel()
        t_wlook, _ = clock(lambda: np.searchsorted(view, q))
        lines.append(
            f"| {n} | {k} | {W} | {t_enc:.2f} | {t_sort:.2f} | {t_look:.2f} | {t_dec:.2f} | {t_wsort:.2f} "
            f"| {t_wlook:.2f} | {t_wsort / max(t_sort, 1e-9):.1f} |"
        )
    lines.append(
        "\nKept: ranks (one word, numpy's fast 1-D sort); the bitboards are used only inside the "
        "expansion of a chunk.\n"
    )


def _row(r: dict) -> str:
    exp = r.get("expanded") or 0
    rate = exp / r["cpu"] if r.get("cpu") else 0
    opts = ", ".join(f"{k}={v}" for k, v in r.get("options", {}).items()) or "—"
    return (
        f"| {r['spec']} | {r['engine']} | {opts} | {r['status']} | {r.get('length')} | {r.get('states')} "
        f"| {exp} | {r.get('bound_pruned') or 0} | {r.get('wall', 0):.1f} | {r.get('cpu', 0):.1f} "
        f"| {rate / 1e6:.3f} | {r.get('rss_mb', 0):.0f} / {r.get('child_rss_mb', 0):.0f} |"
    )


HEAD = [
    "| instance | engine | options | status | length | states kept | expanded | removed by bound "
    "| wall s | CPU s | M expanded / CPU s | peak RSS MB (self / largest child) |",
    "|---|---|---|---|---|---|---|---|---|---|---|---|",
]


FULL = False


def horizon(spec: str) -> dict:
    """``max_moves`` for the V(3,3) runs (module constant V33_HORIZON) unless --full."""
    return {"max_moves": V33_HORIZON} if spec.startswith("vdiag-3-3") and not FULL else {}


def run_all(jobs: list[dict]) -> list[dict]:
    """The jobs one after another, each in a fresh process (its own CPU clock and peak RSS; two
    cores are shared by several users, so nothing here runs two measurements at once)."""
    return [run(job) for job in jobs]


COMPARE_SPECS = ("vdiag-3-2-nwse", "vdiag-3-3-nwse")


def compare_jobs() -> list[dict]:
    """Per member: old spanbfs, new rankbfs (one worker), and rankbfs with bound-and-prune
    (U = the stored verified solution's length) as a contender."""
    out = []
    for s in COMPARE_SPECS:
        out.append({"spec": s, "engine": "spanbfs", "options": horizon(s)})
        out.append({"spec": s, "engine": "rankbfs", "options": {"workers": 1, **horizon(s)}})
        U = known_length(s)
        if U is not None:
            out.append({"spec": s, "engine": "rankbfs", "options": {"workers": 1, "upper_bound": U, **horizon(s)}})
    return out


def bound_jobs() -> list[dict]:
    """Each member to the end, with and without U (no horizon: the bound acts on the deep layers)."""
    out = []
    for spec in ("vdiag-3-2-nwse", "vdiag-3-3-nwse"):
        out.append({"spec": spec, "engine": "rankbfs", "options": {"workers": 1}})
        out.append({"spec": spec, "engine": "rankbfs", "options": {"workers": 1, "upper_bound": known_length(spec)}})
    return out


CERTIFY_SPECS = ("vdiag-2-2-swne", "vdiag-3-2-swne")


def certify_jobs(folder: Path = Path("scale-certify")) -> list[dict]:
    out = []
    for spec in CERTIFY_SPECS:
        for opts in ({"workers": 1}, {"workers": 1, "upper_bound": known_length(spec)}):
            tag = "U" if "upper_bound" in opts else "plain"
            out.append({"spec": spec, "engine": "rankbfs", "options": opts, "cert_dir": str(folder / f"{spec}-{tag}")})
    return out


def checkprofile_section(lines: list[str]) -> None:
    """Where the layers checker's time goes, before (the baseline commit) and now: cProfile of one
    check of the V(3,2) -> SW-NE certificate (no bound) made by the certify section's job."""
    job = certify_jobs()[2]
    r = run(job)
    lines += [
        "## Where the layers checker's time goes\n",
        f"cProfile of one check of the {job['spec']} certificate (rankbfs, no bound, {r.get('cert_states')} states; "
        f"solve {r.get('cpu', 0):.1f} CPU s): time inside each function itself (numpy calls count in the "
        "function that makes them); profiling slows both checkers.\n",
    ]
    for label, extra in ((f"baseline (commit {BASELINE_CHECKER})", {"baseline": BASELINE_CHECKER}), ("now", {})):
        c = _run({"spec": job["spec"], "check": True, "cert_path": r.get("cert_path"), "profile": True, **extra})
        lines += [
            f"**{label}**: {c.get('check_cpu', 0):.1f} CPU s profiled, "
            f"{'accepted' if c.get('check_ok') else 'rejected'}.\n",
            "| function | calls | own s | share |",
            "|---|---|---|---|",
        ]
        lines += [f"| {name} | {calls} | {own:.2f} | {100 * share:.0f} % |" for name, calls, own, share in c["profile"]]
        lines.append("")


#: the checkkernel section's second certificate: V(4,3) -> SW-NE to 50 moves, pruned with U = 73
CHECKKERNEL_JOB = {
    "spec": "vdiag-4-3-swne",
    "engine": "rankbfs",
    "options": {"upper_bound": 73, "max_moves": 50, "workers": 1},
    "cert_dir": "scale-checkkernel/vdiag-4-3-swne-50",
}


def warm_checker() -> None:
    """Fill numba's cache for the checker's compiled kernel, so that no measured check times a compile."""
    warm = "from coinsat.certificates.check import rankedjit; rankedjit.warm_up()"
    subprocess.run([sys.executable, "-c", warm], check=True)


def checkkernel_section(lines: list[str]) -> None:
    """The layers checker with its numpy kernel (ranked.py) and its compiled one (rankedjit.py), on
    the same certificates, one after the other (COINSAT_CHECK_KERNEL=numpy / numba)."""
    lines += [
        "## The checker's numpy kernel against its compiled kernel\n",
        "Each certificate is written once by the solve and checked in a fresh process by each kernel "
        "(`COINSAT_CHECK_KERNEL=numpy`, then `=numba`; the compiled kernel is loaded from numba's cache, "
        "filled before the first check; the import of numba and the load are included). Both must give "
        "the same verdict. Without the variable the checker takes the compiled kernel on two words or "
        "more only (`certificates/check/layers.py`, `_compiled`).\n",
        "| certificate | states | words | solve CPU s | numpy check CPU s | compiled check CPU s | ratio "
        "| compiled / solve | peak RSS MB (numpy / compiled) | verdicts |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    warm_checker()
    for job in (certify_jobs()[2], CHECKKERNEL_JOB):
        r = run(job)
        if not r.get("cert_path"):
            lines.append(f"| {job['spec']} | no certificate ({r.get('status')}) | | | | | | | | |")
            continue
        got = {
            kernel: _run({"spec": job["spec"], "check": True, "cert_path": r["cert_path"], "check_kernel": kernel})
            for kernel in ("numpy", "numba")
        }
        a, b = got["numpy"], got["numba"]
        horizon = job["options"].get("max_moves")
        name = f"{job['spec']} to {horizon} moves, U = {job['options'].get('upper_bound')}" if horizon else job["spec"]
        words = "2" if "4-3" in job["spec"] else "1"
        lines.append(
            f"| {name} | {r.get('cert_states'):,} | {words} | {r['cpu']:.1f} | {a['check_cpu']:.1f} | "
            f"{b['check_cpu']:.1f} | **{a['check_cpu'] / b['check_cpu']:.2f}x** | {b['check_cpu'] / r['cpu']:.2f} | "
            f"{a['check_rss_mb']:.0f} / {b['check_rss_mb']:.0f} | {a.get('claim') or a.get('reason')} / "
            f"{b.get('claim') or b.get('reason')} |"
        )
    lines.append("")


def checkthreads_section(lines: list[str]) -> None:
    """The layers checker on one thread against two, on the same certificate (the compiled kernel),
    one after the other in fresh processes."""
    lines += [
        "## The layers checker on 1 and 2 threads\n",
        "The certificate of `CHECKKERNEL_JOB` (written once by the solve) checked in a fresh process with "
        "`workers` = 1, then 2 (`check_certificate(..., workers)`, `coinsat check-certificate --workers N`): "
        "the chunks of a layer on that many threads, the compiled kernel (numba's cache filled first). "
        "Wall seconds show the speedup; CPU seconds what the threads cost together.\n",
        "| certificate | states | threads | wall s | CPU s | speedup (wall, 1 / 2) | CPU 2 / CPU 1 | peak RSS MB "
        "| verdict |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    warm_checker()
    r = run(CHECKKERNEL_JOB)
    if not r.get("cert_path"):
        lines += [f"| {CHECKKERNEL_JOB['spec']} | no certificate ({r.get('status')}) | | | | | | | |", ""]
        return
    name = f"{CHECKKERNEL_JOB['spec']} to {CHECKKERNEL_JOB['options']['max_moves']} moves"
    got = {}
    for workers in (1, 2):
        job = {"spec": r["spec"], "check": True, "cert_path": r["cert_path"], "check_kernel": "numba"}
        got[workers] = c = _run({**job, "check_workers": workers})
        print(f"{workers} thread(s): {c.get('check_wall')} s wall, {c.get('reason')}", flush=True)
    one, two = got[1], got[2]
    for workers, c in got.items():
        ratio = f"**{one['check_wall'] / two['check_wall']:.2f}x**" if workers == 2 else ""
        cpu = f"{two['check_cpu'] / one['check_cpu']:.2f}" if workers == 2 else ""
        lines.append(
            f"| {name} | {r.get('cert_states'):,} | {workers} | {c['check_wall']:.1f} | {c['check_cpu']:.1f} | "
            f"{ratio} | {cpu} | {c['check_rss_mb']:.0f} | {c.get('claim') or c.get('reason')} |"
        )
    lines.append(f"\nLoad average when the section ended: {os.getloadavg()[0]:.1f} (2 cores).\n")


def compare_section(lines: list[str], results: dict) -> None:
    lines += [
        "## Old spanbfs against rankbfs (one worker), same run\n",
        "The runs ran one after another, each in a fresh process (a shared machine: CPU seconds are "
        "the comparable measure; the load average is noted below). The contender rows: rankbfs alone, "
        "and rankbfs with bound-and-prune (U = the stored verified solution's length, `--upper-bound FILE`).\n",
        *HEAD,
    ]
    loads = []
    for spec in COMPARE_SPECS:
        got = []
        for job in [j for j in compare_jobs() if j["spec"] == spec]:
            loads.append(os.getloadavg()[0])
            r = run(job)
            results[(spec, job["engine"], "upper_bound" in job["options"])] = r
            got.append(r)
            lines.append(_row(r))
            print(lines[-1], flush=True)
        old = got[0]
        for new in got[1:]:
            if old.get("cpu") and new.get("cpu"):
                label = "ratio spanbfs / rankbfs" + (" with U" if "upper_bound" in new["options"] else "")
                lines.append(
                    f"| {spec} | {label} | | | | {old['states'] / max(new['states'] or 1, 1):.2f} | | "
                    f"| {old['wall'] / new['wall']:.2f} | {old['cpu'] / new['cpu']:.2f} | "
                    f"| {old['rss_mb'] / max(new['rss_mb'], 1):.2f} |"
                )
    lines.append(f"\nLoad average at the start of each run: {', '.join(f'{x:.1f}' for x in loads)}.\n")


def bound_section(lines: list[str], results: dict) -> None:
    lines += [
        "## Bound-and-prune\n",
        "U = the length of the verified solution stored in instances/families/solutions/ "
        "(`--upper-bound FILE`); the same engine without U, both to the end, in the same run.\n",
        *HEAD,
    ]
    jobs = bound_jobs()
    got = run_all(jobs)
    for plain, pruned in zip(got[::2], got[1::2]):
        lines += [_row(plain), _row(pruned)]
        print(lines[-1], flush=True)
        if plain.get("states") and pruned.get("states") and plain.get("cpu") and pruned.get("cpu"):
            lines.append(
                f"| {plain['spec']} | with U / without | | | | {pruned['states'] / plain['states']:.3f} "
                f"| | | {pruned['wall'] / plain['wall']:.2f} | {pruned['cpu'] / plain['cpu']:.2f} | | |"
            )
    lines.append("")


WORKER_SPECS = ("vdiag-3-2-nwse", "vdiag-3-3-nwse")


def workers_section(lines: list[str]) -> None:
    """1 against 2 worker processes on each of WORKER_SPECS (V(3,3) to the horizon unless --full),
    one after the other: the speedup in wall seconds and the states expanded per CPU second."""
    lines += ["## Workers: 1 against 2 processes, same run\n", *HEAD]
    for spec in WORKER_SPECS:
        rs = [run({"spec": spec, "engine": "rankbfs", "options": {"workers": w, **horizon(spec)}}) for w in (1, 2)]
        lines += [_row(r) for r in rs]
        if all(r.get("wall") for r in rs):
            lines.append(
                f"| {spec} | speedup 2 vs 1 | | | | | | | {rs[0]['wall'] / rs[1]['wall']:.2f} "
                f"| {rs[0]['cpu'] / rs[1]['cpu']:.2f} | | |"
            )
    lines += [
        "",
        f"Load average at the end: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores (a shared machine: "
        "the wall-clock speedup is bounded by the cores the other users leave).\n",
    ]


def profile_section(lines: list[str]) -> None:
    """cProfile of one rankbfs solve of V(3,3) -> NW-SE in this process (one worker; to the
    horizon unless --full), after an unprofiled warm-up that loads the compiled kernels."""
    import cProfile
    import pstats

    from coinsat.search.rank.search import solve_rankbfs

    solve_rankbfs(instance_of("vdiag-2-2-swne"), options=RankbfsOptions(workers=1))  # loads the kernels (not profiled)
    inst = instance_of("vdiag-3-3-nwse")
    limit = horizon("vdiag-3-3-nwse").get("max_moves")
    prof = cProfile.Profile()
    prof.enable()
    r = solve_rankbfs(inst, max_moves=limit, options=RankbfsOptions(workers=1))
    prof.disable()
    st = pstats.Stats(prof)
    total = sum(v[2] for v in st.stats.values())  # type: ignore[attr-defined]
    rows = sorted(st.stats.items(), key=lambda kv: -kv[1][2])[:12]  # type: ignore[attr-defined]
    kernel = "compiled (numba)" if _compiled_kernel() else "numpy"
    lines += [
        "## Where rankbfs's time goes\n",
        f"cProfile of `solve_rankbfs(V(3,3) -> NW-SE, max_moves={limit}, workers=1)` ({r.status.value}, "
        f"{r.stats['states']} states, {r.stats['expanded']} expanded, {total:.1f} s profiled; the "
        f"{kernel} expansion): time spent inside each function itself (numpy calls are counted in "
        "the function that makes them; a compiled kernel counts as one function).\n",
        "| function | calls | own s | share |",
        "|---|---|---|---|",
    ]
    for (file, line, name), v in rows:
        lines.append(f"| {Path(file).name}:{name} | {v[1]} | {v[2]:.2f} | {100 * v[2] / total:.0f} % |")
    lines.append("")


def _compiled_kernel() -> bool:
    from coinsat.search.rank import jit as fastkernel

    return fastkernel.available()


def certify_section(lines: list[str]) -> None:
    lines += [
        "## Ranked layers certificates: checking against solving\n",
        "rankbfs solves (with U when given) and writes the layers certificate of its own search in the "
        "same process; the certificate is then checked in a fresh process by the checker "
        "(`certificates/check/layers.py` with its kernel `ranked.py`) and, as the baseline, by the "
        f"checker of commit {BASELINE_CHECKER} (before the fast kernel), one after the other. CPU seconds.\n",
        "| instance | options | status | length | states | certificate MB | bytes / state | solve CPU s "
        "| check CPU s | check / solve | baseline check CPU s | baseline / new | check peak RSS MB | verdict |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for job in certify_jobs():
        r = run(job)
        if not r.get("cert_path"):
            lines.append(f"| {job['spec']} | {job['options']} | {r.get('status')} | | | | | | | | | | | |")
            continue
        new = _run({"spec": job["spec"], "check": True, "cert_path": r["cert_path"]})
        old = _run({"spec": job["spec"], "check": True, "cert_path": r["cert_path"], "baseline": BASELINE_CHECKER})
        opts = ", ".join(f"{k}={v}" for k, v in r.get("options", {}).items())
        b = r.get("cert_bytes") or 0
        per = b / r["cert_states"] if r.get("cert_states") else 0
        ok = new.get("check_ok") and old.get("check_ok")
        verdict = "✓ " + str(new.get("claim")) if ok else f"✗ {new.get('reason')} / {old.get('reason')}"
        lines.append(
            f"| {r['spec']} | {opts} | {r['status']} | {r.get('length')} | {r.get('cert_states')} | {b / 1e6:.1f} "
            f"| {per:.2f} | {r['cpu']:.1f} | {new.get('check_cpu', 0):.1f} "
            f"| {new.get('check_cpu', 0) / max(r['cpu'], 1e-9):.2f} | {old.get('check_cpu', 0):.1f} "
            f"| {old.get('check_cpu', 0) / max(new.get('check_cpu', 0), 1e-9):.1f} | {new.get('check_rss_mb', 0):.0f} "
            f"| {verdict} |"
        )
        print(lines[-1], flush=True)
    lines.append("")


def _cert_row(r: dict) -> str:
    opts = ", ".join(f"{k}={v}" for k, v in r.get("options", {}).items()) or "—"
    b = r.get("cert_bytes") or 0
    per = b / r["cert_states"] if r.get("cert_states") else 0
    return (
        f"| {r['spec']} | {opts} | {r['status']} | {r.get('length')} | {r.get('cert_states')} | {b / 1e6:.1f} "
        f"| {per:.2f} | {r.get('certify_wall', 0):.0f} | {'✓' if r.get('check_ok') else '✗ ' + str(r.get('reason'))} "
        f"| {r.get('claim')} |"
    )


# --- proofs of the large members, one at a time, with certificates checked in a fresh process -----

PROOFS = ROOT / "benchmarks" / "scale_proofs.json"
PROOF_MEMBERS = ("vdiag-3-3-swne", "vdiag-4-3-nwse", "vdiag-4-3-swne", "diagonal-8")
#: use the stored solution's length as the bound U only when it is this close to the lower bounds
#: known (V(4,3)'s stored 803 / 586 moves are far above any optimum: h would prune nothing) and
#: when it pays: not on diagonal-8, where a run with U = 93 was still solving at 1000 CPU s while
#: the unbounded solve took 725 (h is computed in numpy for every new state, the expansion is compiled)
U_MEMBERS = ("vdiag-3-3-swne",)
#: a bound U given on the command line (``--upper-bound SPEC=U``), for members whose stored solution
#: is far above the optimum.  U need not be the length of any solution: bound-and-prune is sound for
#: every U (search/rank/search.py): a goal met at depth L <= U is optimal, and a search that runs out of
#: states proves "no solution with <= U moves" and nothing more; the checker re-applies the same U
GIVEN_U: dict[str, int] = {}
#: ``--spill-budget`` bytes: layers past it go to disk (rankbfs's ``spill_budget``; None: all in RAM)
SPILL: int | None = None
#: ``--proof-seconds``: a proof's solve stops there with 'unknown' (its layers so far are kept in
#: PROOFS); with ``--resume`` every layer is saved in SCRATCH/SPEC-layers, and the same command
#: continues the search from the last complete layer
PROOF_SECONDS: float | None = None
RESUME = False
PROOF_WORKERS = 1  # --proof-workers


def proof_jobs(spec: str, scratch: Path) -> tuple[dict, dict]:
    opts: dict = {"workers": PROOF_WORKERS}
    if spec in GIVEN_U:
        opts["upper_bound"] = GIVEN_U[spec]
    elif spec in U_MEMBERS and known_length(spec) is not None:
        opts["upper_bound"] = known_length(spec)
    if SPILL is not None:
        opts["spill_budget"] = SPILL
    if PROOF_SECONDS is not None:
        opts["time_limit"] = PROOF_SECONDS
    if RESUME:
        opts["resume"] = str(scratch / f"{spec}-layers")
    folder = scratch / spec
    solve_job = {
        "spec": spec,
        "engine": "rankbfs",
        "options": opts,
        "cert_dir": str(folder),
        "solution_out": str(folder / "solution.json"),
    }
    check_job = {"spec": spec, "check": True}
    if PROOF_WORKERS > 1:  # the check on as many threads (the verdict does not depend on them)
        check_job["check_workers"] = PROOF_WORKERS
    return solve_job, check_job


def proofs_section(lines: list[str], members: list[str], scratch: Path, adopt: str | None = None) -> None:
    """Solve each member with rankbfs (writing its layers certificate), check the certificate in a
    fresh process, and keep the optimal solution (``coinsat verify``) in instances/families/solutions/
    when it is new or shorter.  Runs one member at a time; every result is kept in PROOFS, so the
    table holds the members proved by earlier invocations too.  ``adopt``: the output of a solve
    already run by ``--one`` with this section's job (its certificate is then checked here)."""
    store = json.loads(PROOFS.read_text()) if PROOFS.exists() else {}
    for spec in members:
        ensure_instance(spec)
        solve_job, check_job = proof_jobs(spec, scratch)
        started = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
        if adopt:
            solved = json.loads(Path(adopt).read_text().strip().splitlines()[-1])
            started = "adopted: " + str(solved.get("started", "an earlier --one run"))
        else:
            print(f"{spec}: solving ...", flush=True)
            solved = _run(solve_job)
        entry = {"solve": solved, "started": started, "load": os.getloadavg()[0]}
        if solved.get("cert_path"):
            print(f"{spec}: checking ...", flush=True)
            entry["check"] = _run({**check_job, "cert_path": solved["cert_path"]})
        entry["solution_file"] = keep_solution(spec, solved, entry.get("check", {}))
        why = failed(entry)
        if why and spec in store and not failed(store[spec]):
            # a run that broke (an import error, a killed checker) never replaces a checked proof
            print(f"{spec}: {why}; the stored entry is kept", flush=True)
            continue
        store[spec] = entry
        PROOFS.write_text(json.dumps(store, indent=1, sort_keys=True) + "\n")
    proofs_table(lines, store)


def failed(entry: dict) -> str:
    """Why a proofs entry is no result ('' when it is one): its solve or its check ended in an error."""
    for part in ("solve", "check"):
        if entry.get(part, {}).get("status") in ("error", "timeout"):
            return f"the {part} ended in {entry[part]['status']}: {entry[part].get('reason', '')}"
    return ""


def ensure_instance(spec: str) -> None:
    """A diagonal flip's instance file is written as ``scripts/vfamily_study.py`` writes it."""
    path = FAM / f"{spec}.toml"
    if path.exists() or not spec.startswith("diagonal-"):
        return
    from coinsat import write_instance

    write_instance(instance_of(spec), path)


def keep_solution(spec: str, solved: dict, check: dict) -> str:
    """The proof ledger's rule (``lab.proofs``) for one member's run."""
    solution = FAM / "solutions" / f"{spec}.json"
    label = f"instances/families/solutions/{spec}.json"
    if solved.get("solution_out"):
        solved = {**solved, "solution_out": str(scratch(solved["solution_out"]))}
    return proofs.keep_solution(FAM / f"{spec}.toml", solution, known_length(spec), solved, check, label)


def proofs_table(lines: list[str], store: dict) -> None:
    lines += [
        "## Large members: optima and bounds, with checked certificates\n",
        "Each member: `rankbfs` (one worker unless `--proof-workers`; U = the stored solution's length, or a U "
        "given with `--upper-bound SPEC=U`, where the column shows one) solves it and writes "
        "the layers certificate of its own search in the same process; a fresh process then checks the "
        "certificate with the independent checker (`certificates/check/layers.py`, `ranked.py`). CPU "
        "seconds are the comparable unit on this shared machine (load average at the start in the last "
        "column). Made by `nice -n 10 python3 scripts/scale_bench.py --sections proofs --members NAME "
        "--out benchmarks/scale-proofs.md` (one member per invocation; earlier members are kept in "
        "`benchmarks/scale_proofs.json`). A given U need not be the length of any solution: bound-and-prune "
        "is sound for every U (a goal met at depth L <= U is optimal; a search that runs out of states proves "
        "only 'no solution with <= U moves', status `bounded`), and the checker re-applies the same U.\n",
        "| instance | cells | coins | U | status | length | states kept | solve CPU s | solve peak RSS MB "
        "| certificate MB | bytes / state | check CPU s | check peak RSS MB | check / solve CPU | check "
        "| solution file | started (load) |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for spec in sorted(store, key=lambda x: PROOF_MEMBERS.index(x) if x in PROOF_MEMBERS else 99):
        e = store[spec]
        r, c = e["solve"], e.get("check", {})
        inst = instance_of(spec)
        b = r.get("cert_bytes") or 0
        per = b / r["cert_states"] if r.get("cert_states") else 0
        ratio = f"{c['check_cpu'] / r['cpu']:.2f}" if c.get("check_cpu") and r.get("cpu") else "—"
        verdict = "✓ " + str(c.get("claim")) if c.get("check_ok") else "✗ " + str(c.get("reason", "not checked"))
        lines.append(
            f"| {spec} | {inst.board.size} | {inst.n_coins} | {r.get('options', {}).get('upper_bound', '—')} "
            f"| {r.get('status')} | {r.get('length')} | {r.get('states')} | {r.get('cpu', 0):.0f} "
            f"| {r.get('rss_mb', 0):.0f} | {b / 1e6:.1f} | {per:.2f} | {c.get('check_cpu', 0):.0f} "
            f"| {c.get('check_rss_mb', 0):.0f} | {ratio} | {verdict} | {e.get('solution_file')} "
            f"| {e.get('started')} ({e.get('load', 0):.1f}) |"
        )
    lines.append("")


#: the V chains: each member adds one coin and one row and column to the window, by lengthening arm
#: a ("a") or arm b ("b"); the growth of a step is taken from the last step of the same kind
CHAINS = {
    "NW-SE": ["vdiag-1-1-nwse", "vdiag-2-1-nwse", "vdiag-2-2-nwse", "vdiag-3-2-nwse", "vdiag-3-3-nwse"],
    "SW-NE": ["vdiag-1-1-swne", "vdiag-2-1-swne", "vdiag-2-2-swne", "vdiag-3-2-swne"],
    "diagonal flip": ["diagonal-4", "diagonal-5", "diagonal-6", "diagonal-7"],
}
NEXT = {
    "NW-SE": ["vdiag-4-3-nwse", "vdiag-4-4-nwse"],
    "SW-NE": ["vdiag-3-3-swne", "vdiag-4-3-swne", "vdiag-4-4-swne"],
    "diagonal flip": ["diagonal-8"],
}
#: RAM one machine gives the search in the "machines" column (a parameter of the estimate, not measured)
MACHINE_GB = 16


def _step(spec: str) -> str:
    """The kind of step that leads to a V member: 'a' when arm a was lengthened (a > b), else 'b'."""
    if spec.startswith("diagonal-"):
        return "k"
    a, b = (int(x) for x in spec.split("-")[1:3])
    return "a" if a > b else "b"


def extrapolate_section(lines: list[str], results: dict) -> None:
    lines += [
        "## What the larger members need (extrapolation)\n",
        "Measured here: rankbfs (one worker, no bound) run to the end on every smaller member of each chain, "
        "one after another. A V member adds one coin and one row and column to the window, by lengthening "
        "arm a or arm b; the growth of states alternates between the two kinds of step, so the next member's "
        "growth is taken from the last step of the same kind (diagonal flips: the last step). Memory: the "
        "visited set is one sorted uint64 run of ranks per layer, 8 bytes a state in RAM (spilled to disk "
        "past `--memory-limit`, deflated first differences, about the certificate's bytes per state). "
        "The projections are guesses from the measured growth, not bounds.\n",
        "| chain | instance | step | cells | coins | status | length | states kept | growth | largest layer "
        "| layers | CPU s | M states / CPU s | peak RSS MB |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    measured: dict = {}
    for chain, specs in CHAINS.items():
        prev = None
        for spec in specs:
            r = run({"spec": spec, "engine": "rankbfs", "options": {"workers": 1}})
            inst = instance_of(spec)
            layers = r.get("layers") or [0]
            growth = f"x{r['states'] / prev['states']:.1f}" if prev and r.get("states") and prev.get("states") else "—"
            rate = (r.get("states") or 0) / max(r.get("cpu") or 1e-9, 1e-9) / 1e6
            lines.append(
                f"| {chain} | {spec} | {_step(spec)} | {inst.board.size} | {inst.n_coins} | {r['status']} "
                f"| {r.get('length')} | {r.get('states')} | {growth} | {max(layers)} | {len(layers)} "
                f"| {r.get('cpu', 0):.1f} | {rate:.2f} | {r.get('rss_mb', 0):.0f} |"
            )
            measured[spec] = r
            prev = r
    lines += [
        "",
        "| chain | instance | step | growth used (from) | states | RAM GB at 8 B/state | disk GB spilled at "
        "1.6 B/state | CPU hours at the last member's rate | machines of {MACHINE_GB} GB | fits this machine (24 GB, "
        "shared) |".replace("{MACHINE_GB}", str(MACHINE_GB)),
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for chain, specs in CHAINS.items():
        factors: dict[str, tuple[float, str]] = {}
        for a, b in zip(specs, specs[1:]):
            if measured[a].get("states") and measured[b].get("states"):
                factors[_step(b)] = (measured[b]["states"] / measured[a]["states"], f"{a} -> {b}")
        last = measured[specs[-1]]
        states = float(last.get("states") or 0)
        rate = states / max(last.get("cpu") or 1e-9, 1e-9)
        for spec in NEXT[chain]:
            kind = _step(spec)
            if kind not in factors or not states:
                continue
            f, source = factors[kind]
            states *= f
            ram = states * 8 / 1e9
            lines.append(
                f"| {chain} | {spec} | {kind} | x{f:.1f} ({source}) | {states:.2e} | {ram:.1f} "
                f"| {states * 1.6 / 1e9:.1f} | {states / rate / 3600:.1f} | {math.ceil(ram / MACHINE_GB)} "
                f"| {'yes' if ram < 0.75 * 24 else 'no (spill to disk or a cluster)'} |"
            )
    lines.append("")
    if PROBES:
        probe_rows(lines, measured)


#: members run for a limited time only (``--probe SPEC[@U],...``, ``--probe-seconds``; with
#: ``--probe-depth D`` to D moves, so that every layer counted is complete): their first layers
PROBES: list[str] = []
PROBE_SECONDS = 900.0
PROBE_DEPTH: int | None = None
PREVIOUS = {"vdiag-4-3-nwse": "vdiag-3-3-nwse", "vdiag-4-3-swne": "vdiag-3-3-swne", "diagonal-8": "diagonal-7"}


def probe_job(item: str) -> dict:
    """The engine run of one probe ``SPEC`` or ``SPEC@U`` (U: its bound; else ``--upper-bound``'s);
    ``proof:SPEC``: the proofs section's run of SPEC as kept in PROOFS (one stopped by
    ``--proof-seconds`` is a probe that went as deep as it could)."""
    if item.startswith("proof:"):
        spec = item.split(":", 1)[1]
        kept = json.loads(PROOFS.read_text()).get(spec) if PROOFS.exists() else None
        if kept is None:
            raise SystemExit(f"--probe {item}: no run of {spec} in {PROOFS}")
        return {"spec": spec, "options": kept["solve"].get("options", {}), "kept": kept["solve"]}
    spec, _, bound = item.partition("@")
    opts: dict = {"workers": 1, "time_limit": PROBE_SECONDS}
    if PROBE_DEPTH is not None:
        opts["max_moves"] = PROBE_DEPTH
    if bound:
        opts["upper_bound"] = int(bound)
    elif spec in GIVEN_U:
        opts["upper_bound"] = GIVEN_U[spec]
    return {"spec": spec, "engine": "rankbfs", "options": opts}


def probe_rows(lines: list[str], measured: dict) -> None:
    """The first layers of a member too large to finish here, against its chain predecessor's layers
    at the same depths (a measured growth per layer, where the extrapolation above only guesses).
    The predecessor's layers are those of its probe with the same U in this invocation when there
    is one, else those of its run to the end above; the projection multiplies the predecessor's
    whole search (to the end, same U: the run above or the proofs section's) by that growth."""
    to = f"to {PROBE_DEPTH} moves, " if PROBE_DEPTH is not None else ""
    lines += [
        "### Probes: the first layers of the next members\n",
        f"rankbfs (one worker; U where given) {to}with a time limit of {PROBE_SECONDS:.0f} s, one after another; "
        "the growth is the size of the deepest complete layer over the predecessor's layer at the same depth "
        "(the predecessor's probe with the same U when it is in the table, else its run to the end above); "
        "the rate is the states of the complete layers expanded, per CPU second of the whole run (a run "
        "stopped by the time limit inside a layer counts that layer's CPU, not its states). Projected: the "
        "predecessor's whole search with the same U (its run to the end: above, or in `scale_proofs.json`) "
        "times that growth, and the CPU seconds those states take at the probe's rate; a guess, not a bound "
        "(the growth of the deeper layers need not be the growth at the probe's depth).\n",
        "| instance | U | status | depth reached | states | expanded | CPU s | M expanded / CPU s | peak RSS MB "
        "| predecessor | layer growth at that depth | predecessor's whole search (states) | projected states "
        "| projected CPU s |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    proofs = json.loads(PROOFS.read_text()) if PROOFS.exists() else {}
    probed: dict = {}
    for item in PROBES:
        job = probe_job(item)
        spec, U = job["spec"], job["options"].get("upper_bound")
        r = job["kept"] if "kept" in job else run(job)
        probed[(spec, U)] = r
        layers = r.get("layers") or []
        before = PREVIOUS.get(spec, "")
        whole = measured.get(before) if U is None else (proofs.get(before) or {}).get("solve")
        if whole is not None and whole.get("options", {}).get("upper_bound") != U:
            whole = None
        prev = probed.get((before, U)) or whole or {}
        pl = prev.get("layers") or []
        depth = len(layers) - 1
        grow = layers[depth] / pl[depth] if 0 <= depth < len(pl) and pl[depth] else None
        rate = (r.get("expanded") or 0) / max(r.get("cpu") or 1e-9, 1e-9)
        total = (whole or {}).get("states")
        guess = total * grow if total and grow else None
        lines.append(
            f"| {spec}{' (proofs run)' if 'kept' in job else ''} | {U if U is not None else '—'} "
            f"| {r.get('status')} | {depth} | {r.get('states')} "
            f"| {r.get('expanded')} | {r.get('cpu', 0):.0f} | {rate / 1e6:.3f} | {r.get('rss_mb', 0):.0f} "
            f"| {before or '—'} | {f'x{grow:.2f}' if grow else '—'} | {total or '—'} "
            f"| {f'{guess:.2e}' if guess else '—'} | {f'{guess / rate:.0f}' if guess and rate else '—'} |"
        )
    lines.append("")


def main(argv=None) -> int:
    global FULL, REUSE, PROBE_SECONDS, PROBE_DEPTH, SPILL, PROOF_SECONDS, RESUME, PROOF_WORKERS
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", default=str(ROOT / "benchmarks" / "scale.md"))
    ap.add_argument("--sections", default=DEFAULT)
    ap.add_argument("--one", help=argparse.SUPPRESS)
    ap.add_argument("--members", default=",".join(PROOF_MEMBERS), help="the proofs section's members")
    ap.add_argument(
        "--scratch",
        default="scale-proofs",
        help="where the proofs' certificates are written (a relative folder: under the temporary folder)",
    )
    ap.add_argument("--adopt", help=argparse.SUPPRESS)
    ap.add_argument("--full", action="store_true", help=f"run V(3,3) to the end (default: to {V33_HORIZON} moves)")
    ap.add_argument("--reuse", action="store_true", help=f"take engine runs already kept in {RUNS.name}")
    ap.add_argument("--probe", default="", help="extrapolate: members (SPEC or SPEC@U) to run for --probe-seconds only")
    ap.add_argument("--probe-seconds", type=float, default=PROBE_SECONDS)
    ap.add_argument("--probe-depth", type=int, help="extrapolate: run the probes to this many moves")
    ap.add_argument(
        "--upper-bound",
        default="",
        metavar="SPEC=U,...",
        help="proofs and probes: the bound U of these members (any integer: sound, see GIVEN_U)",
    )
    ap.add_argument("--spill-budget", type=float, help="proofs: bytes of layers kept in RAM, the rest on disk")
    ap.add_argument("--proof-seconds", type=float, help="proofs: stop a solve after this many seconds ('unknown')")
    ap.add_argument("--resume", action="store_true", help="proofs: save every layer, continue a stopped solve")
    ap.add_argument("--proof-workers", type=int, default=1, help="proofs: rankbfs worker processes (default 1)")
    args = ap.parse_args(argv)
    for item in filter(None, args.upper_bound.split(",")):
        spec, _, value = item.partition("=")
        if not value.isdigit():
            ap.error(f"--upper-bound: {item!r} is not SPEC=U with U an integer >= 0")
        GIVEN_U[spec] = int(value)
    SPILL = None if args.spill_budget is None else int(args.spill_budget)
    PROOF_SECONDS, RESUME, PROOF_WORKERS = args.proof_seconds, args.resume, args.proof_workers
    FULL, REUSE, PROBE_SECONDS, PROBE_DEPTH = args.full, args.reuse, args.probe_seconds, args.probe_depth
    PROBES[:] = [x for x in args.probe.split(",") if x]
    if args.one:
        job = json.loads(args.one)
        print(json.dumps(check_one(job) if job.get("check") else one(job)))
        return 0
    sections = args.sections.split(",")
    lines = [
        "# Exact search at scale: spanbfs against rankbfs\n",
        f"Made by `nice -n 10 python3 scripts/scale_bench.py {' '.join(argv if argv is not None else sys.argv[1:])}` "
        f"(started {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, {os.cpu_count()} cores shared with "
        "other users). Each engine run is a fresh process; CPU seconds include its workers. The runs "
        "ran one after another.\n",
    ]
    results: dict = {}
    out = Path(args.out)
    steps = {
        "keys": lambda: keys_section(lines),
        "compare": lambda: compare_section(lines, results),
        "bound": lambda: bound_section(lines, results),
        "workers": lambda: workers_section(lines),
        "profile": lambda: profile_section(lines),
        "certify": lambda: certify_section(lines),
        "checkprofile": lambda: checkprofile_section(lines),
        "checkkernel": lambda: checkkernel_section(lines),
        "checkthreads": lambda: checkthreads_section(lines),
        "proofs": lambda: proofs_section(lines, args.members.split(","), Path(args.scratch), args.adopt),
        "prooftable": lambda: proofs_table(lines, json.loads(PROOFS.read_text()) if PROOFS.exists() else {}),
        "extrapolate": lambda: extrapolate_section(lines, results),
    }
    if "extrapolate" not in sections:
        lines.append(
            "The extrapolation to larger members is `benchmarks/scale-extrapolation.md` "
            "(`scripts/scale_bench.py --sections extrapolate --out benchmarks/scale-extrapolation.md`).\n"
        )
    if not {"proofs", "prooftable"} & set(sections):
        lines.append(
            "The large members proved with checked certificates are in `benchmarks/scale-proofs.md` "
            "(`scripts/scale_bench.py --sections proofs --members NAME --out benchmarks/scale-proofs.md`).\n"
        )
    for name in sections:
        steps[name]()
        out.write_text("\n".join(lines) + "\n")
        print(f"[{name} done]", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
