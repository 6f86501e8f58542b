"""A fuzz of every input surface of the command line, with one invariant on each input.

Surfaces: instance files (pictures, coordinates, labeled tables, graphs, triangular),
solution JSON (``verify``, ``show``), certificate JSON and its side files
(``check-certificate``) and the arguments themselves.  Inputs come from seeds (files of the
repository's ``instances/`` and what ``solve --json`` and ``certify`` write for a few of
them), changed either *structurally* (the parsed TOML or JSON object: a value replaced by a
hostile one, a key dropped or added, a picture redrawn, a move changed) or *byte by byte*
(bit flips, truncations, spliced bytes, huge integers, deep nesting, huge lines, bad UTF-8).

The invariant (:func:`judge`), for every input: the command returns 0, 1, 2 or 3; nothing on
stderr is a traceback; an exit 2 is a single line ``coinsat: error: ...`` that names one of
the input files (or is an argparse usage error); and, for the memory cases run as child
processes (:func:`run_memory_case`), the peak RSS stays under ``MEMORY_BASE +
MEMORY_PER_BYTE`` x the input's size.  Most cases run in-process through
``coinsat.cli.main(argv)`` (:func:`run_case`); a watchdog turns a case that runs for more than
``CASE_SECONDS`` into a failure.  :func:`save_failure` writes a failing input as a folder (its
files and ``case.json``) that :func:`load_regression` reads back.

``scripts/fuzz.py`` runs a campaign on all cores and writes its table;
``tests/test_fuzz.py`` runs a short one and replays every saved failure.
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import json
import math
import os
import random
import resource
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from coinsat.cli import main as coinsat_main

try:
    import tomllib
except ImportError:  # Python 3.10
    import tomli as tomllib

ALLOWED_EXITS = (0, 1, 2, 3)
CASE_SECONDS = 60  # one in-process case longer than this is a failure ("hang")
MEMORY_BASE = 100 * 2**20  # bytes: the interpreter and imports take ~30 MB; room to spare
MEMORY_PER_BYTE = 20  # measured: a JSON move list costs ~25 bytes of Python objects per byte
MEMORY_CAP = 4 * 2**30  # the child's address-space limit: a runaway case cannot take the machine

# Small seeds only: the structured and byte-level changes keep them small, and solve
# runs on them with a time limit.
SEED_INSTANCES = (
    "instances/paper/h-to-o.toml",
    "instances/paper/o-to-h.toml",
    "instances/paper/swap5-a.toml",
    "instances/paper/tri2oline.toml",
    "instances/paper/vee-2-2.toml",
    "instances/paper/upside-down.toml",
    "instances/counterexamples/thm1-claw.toml",
    "instances/families/vdiag-1-1-nwse.toml",
)
EXTRA_SEEDS = {
    "graph.toml": 'name = "g"\nboard = "graph"\nadjacency = 1\nstart = [1, "b", 3]\ngoal = [1, "b", 4]\n'
    '[graph]\ncells = [1, "b", 3, 4, "2", 2]\nedges = [[1, "b"], ["b", 3], [3, 4], [4, 1], ["2", 2], [2, 1]]\n',
    "labeled.toml": 'name = "lab"\nboard = "square"\nstart = { A = [[0, 0], [1, 0]], B = [[0, 1]] }\n'
    "goal = { A = [[0, 0], [1, 1]], B = [[0, 1]] }\n",
    "coords-tri.toml": 'board = "triangular"\nadjacency = 2\nmargin = 1\ngoal_placement = "translate"\n'
    "start = [[0, 0], [1, 0], [0, 1]]\ngoal = [[1, 0], [2, 0], [1, 1]]\n",
    "tri-picture.toml": 'board = "triangular"\ngoal_placement = "congruent"\nstart = """\n A . B\n'
    'o . o\n"""\ngoal = """\n o . o\nA . B\n"""\n',
}
# (instance seed, what certify should make of it): certificates to mutate.
CERT_SEEDS = (
    "instances/paper/h-to-o.toml",
    "instances/paper/o-to-h.toml",
    "instances/counterexamples/thm1-claw.toml",
    "instances/families/vdiag-1-1-nwse.toml",
)

SURFACES = ("instance", "solution", "certificate", "cli")


# --- running one case -------------------------------------------------------------------


class Hang(BaseException):
    """Raised by the watchdog; a BaseException so that the CLI's handlers do not swallow it."""


@dataclass(frozen=True)
class Case:
    """One input: argv with ``{dir}`` for the case's directory, and the files it holds."""

    surface: str
    argv: tuple[str, ...]
    files: tuple[tuple[str, bytes], ...]
    recipe: str = ""


@dataclass(frozen=True)
class Outcome:
    code: int | None
    stdout: str
    stderr: str
    seconds: float
    failure: str | None  # None when the invariant holds


def run_case(case: Case, workdir: Path | None = None) -> Outcome:
    """Run ``case`` in-process in a fresh directory and judge it by the invariant."""
    with tempfile.TemporaryDirectory(dir=workdir) as d:
        for name, data in case.files:
            (Path(d) / name).parent.mkdir(parents=True, exist_ok=True)
            (Path(d) / name).write_bytes(data)
        argv = [a.replace("{dir}", d) for a in case.argv]
        out, err = io.StringIO(), io.StringIO()
        t0 = time.perf_counter()
        code, escaped = None, None
        old = signal.signal(signal.SIGALRM, _alarm)
        signal.alarm(CASE_SECONDS)
        try:
            with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err), _cwd(d):
                code = coinsat_main(argv)
        except SystemExit as e:  # argparse: usage errors (2), --help and --version (0)
            code = e.code if isinstance(e.code, int) else 2
        except Hang:
            escaped = f"hang: more than {CASE_SECONDS} s"
        except BaseException as e:  # noqa: BLE001 - anything that escapes main is a failure
            escaped = f"escaped main: {type(e).__name__}: {str(e)[:200]}"
        finally:
            signal.alarm(0)
            signal.signal(signal.SIGALRM, old)
        seconds = time.perf_counter() - t0
        stdout, stderr = out.getvalue(), err.getvalue().replace(d, "{dir}")
        paths = ["{dir}/" + name for name, _ in case.files]
        failure = escaped or judge(code, stderr, paths, case.argv)
        return Outcome(code, stdout.replace(d, "{dir}"), stderr, seconds, failure)


#: argparse's one-line errors (a mistyped choice or command: cli._Parser prints no usage before them)
ARGPARSE_ONE_LINE = ("coinsat: error: argument ", "coinsat: error: unknown command ")


def judge(code: int | None, stderr: str, paths: list[str], argv: tuple[str, ...] = ()) -> str | None:
    """None if the invariant holds for this exit code and stderr, else what is wrong.

    An exit-2 message names a file when it contains one of ``paths`` or starts with
    an argument of ``argv`` (a file named on the command line that does not exist)."""
    if code not in ALLOWED_EXITS:
        return f"exit {code}"
    if "Traceback" in stderr:
        return "traceback on stderr"
    if code != 2:
        return None
    lines = [l for l in stderr.splitlines() if l.strip()]
    errors = [l for l in lines if l.startswith("coinsat: error: ")]
    usage = [l for l in lines if l.startswith(("usage:", " "))]
    if len(errors) != 1 or len(errors) + len(usage) != len(lines):
        return "exit 2 without exactly one 'coinsat: error:' line"
    if usage or errors[0].startswith(ARGPARSE_ONE_LINE):  # argparse: the message names the argument, not a file
        return None
    named = (
        any(p in errors[0] for p in paths)
        or any(  # a long argument is shown shortened ("abc...xyz")
            errors[0].startswith(f"coinsat: error: {a or repr('')}:" if len(a) <= 60 else f"coinsat: error: {a[:40]}")
            for a in argv
        )
    )
    if (paths or argv) and not named:
        return "exit 2 message names no input file"
    return None


def _alarm(signum, frame):
    raise Hang()


@contextlib.contextmanager
def _cwd(path: str):
    old = os.getcwd()
    os.chdir(path)
    try:
        yield
    finally:
        os.chdir(old)


# --- seeds ------------------------------------------------------------------------------


@dataclass
class Seeds:
    instances: dict[str, bytes] = field(default_factory=dict)  # name -> TOML
    solutions: list[tuple[str, bytes]] = field(default_factory=list)  # (instance name, JSON)
    certificates: list[tuple[str, dict[str, bytes]]] = field(default_factory=list)  # (instance, files)


def make_seeds(root: Path) -> Seeds:
    """Read the seed instances (paths relative to the repository ``root``) and ask the CLI itself
    for solutions and certificates."""
    seeds = Seeds()
    for rel in SEED_INSTANCES:
        seeds.instances[Path(rel).name] = (root / rel).read_bytes()
    for name, text in EXTRA_SEEDS.items():
        seeds.instances[name] = text.encode()
    for name, data in seeds.instances.items():
        o = run_case(Case("seed", ("solve", "{dir}/" + name, "--json", "--time-limit", "5"), ((name, data),)))
        try:
            obj = json.loads(o.stdout)
        except json.JSONDecodeError:
            continue
        if obj.get("moves"):
            seeds.solutions.append((name, json.dumps(obj, indent=1).encode()))
    for rel in CERT_SEEDS:
        name = Path(rel).name
        with tempfile.TemporaryDirectory() as d:
            with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
                try:
                    code = coinsat_main(["certify", str(root / rel), "-o", d, "--time-limit", "20"])
                except BaseException:  # noqa: BLE001 - a seed that cannot be made is skipped
                    code = None
            files = {p.name: p.read_bytes() for p in Path(d).iterdir() if p.is_file()}
        if code == 0 and any(n.endswith(".json") for n in files):
            seeds.certificates.append((name, files))
    return seeds


# --- hostile values and structural changes ----------------------------------------------


def hostile_value(rng: random.Random):
    """A value that a careless parser mishandles."""
    return rng.choice(
        [
            0,
            -1,
            1,
            2,
            3,
            7,
            65,
            2**31,
            2**63,
            -(2**63),
            10**30,
            10**200,
            1.5,
            float("inf"),
            float("nan"),
            True,
            False,
            "",
            "2",
            "o",
            "é",
            "A-1",
            "\u0000",
            "x" * rng.randint(1, 2000),
            [],
            {},
            [[]],
            [0, 0],
            [[0, 0]],
            [[0, 0], [0, 0]],
            ["a", 1],
            {"A": [[0, 0]]},
            {"é": [[0, 0]]},
            _nested(rng.randint(5, 60)),
            [[rng.randint(-5, 5), rng.randint(-5, 5)] for _ in range(rng.randint(0, 30))],
        ]
    )


def _nested(depth: int):
    v: list = []
    for _ in range(depth):
        v = [v]
    return v


def _paths(obj, prefix=()):
    """Every path to a value inside nested dicts and lists."""
    yield prefix
    if isinstance(obj, dict):
        for k, v in obj.items():
            yield from _paths(v, prefix + (k,))
    elif isinstance(obj, list):
        for i, v in enumerate(obj[:50]):
            yield from _paths(v, prefix + (i,))


def _set(obj, path, value):
    if not path:
        return value
    parent = obj
    for k in path[:-1]:
        parent = parent[k]
    parent[path[-1]] = value
    return obj


def _delete(obj, path):
    parent = obj
    for k in path[:-1]:
        parent = parent[k]
    del parent[path[-1]]
    return obj


def mutate_object(obj, rng: random.Random):
    """One structural change of a parsed TOML or JSON object (a deep copy is changed)."""
    obj = json.loads(json.dumps(obj))
    paths = list(_paths(obj))
    path = rng.choice(paths)
    op = rng.randrange(7)
    if op == 0 or not path:
        return _set(obj, path, hostile_value(rng))
    if op == 1:
        return _delete(obj, path)
    if op == 2 and isinstance(obj, dict):
        obj[
            rng.choice(
                [
                    "adjacency",
                    "margin",
                    "goal_placement",
                    "board",
                    "known_optimal",
                    "name",
                    "moves",
                    "kind",
                    "claim",
                    "scope",
                    "horizon",
                    "unknown_key",
                    "graph",
                    "metadata",
                ]
            )
        ] = hostile_value(rng)
        return obj
    target = obj
    for k in path:
        target = target[k]
    if op == 3 and isinstance(target, str):
        return _set(obj, path, mutate_picture(target, rng))
    if op == 4 and isinstance(target, list) and target:
        i, j = rng.randrange(len(target)), rng.randrange(len(target))
        target[i], target[j] = target[j], target[i]
        if rng.random() < 0.5:
            target.append(rng.choice(target))
        return obj
    if op == 5 and isinstance(target, int) and not isinstance(target, bool):
        return _set(obj, path, target + rng.choice([-1, 1, -100, 100, 10**5, -(10**5), 10**25]))
    if op == 6 and isinstance(target, (int, str)) and not isinstance(target, bool):
        return _set(obj, path, str(target) if isinstance(target, int) else _int_or(target))
    return _set(obj, path, hostile_value(rng))


def _int_or(s: str):
    try:
        return int(s)
    except ValueError:
        return s + "2"


def mutate_picture(pic: str, rng: random.Random) -> str:
    """Redraw a picture: characters replaced or inserted, rows added, dropped or widened."""
    rows = pic.split("\n")
    i = rng.randrange(len(rows))
    op = rng.randrange(5)
    if op == 0:
        rows.insert(i, rows[i])
    elif op == 1 and len(rows) > 1:
        del rows[i]
    elif op == 2:
        rows[i] = rows[i] + rng.choice([".", " .", "o", " o", "A"]) * rng.randint(1, 400)
    else:
        row = list(rows[i]) or [" "]
        row.insert(rng.randrange(len(row) + 1), rng.choice("o.A1zé ²\t#ö中 .oo"))
        rows[i] = "".join(row)
    return "\n".join(rows)


def to_toml(obj: dict) -> str:
    """A TOML text of ``obj`` (tables last); strings with newlines become multi-line strings."""
    scalars = [(k, v) for k, v in obj.items() if not isinstance(v, dict) or not v or k not in ("graph", "metadata")]
    tables = [(k, v) for k, v in obj.items() if (k, v) not in scalars]
    lines = [f"{_key(k)} = {_toml_value(v)}" for k, v in scalars]
    for k, v in tables:
        lines += ["", f"[{_key(k)}]"] + [f"{_key(k2)} = {_toml_value(v2)}" for k2, v2 in v.items()]
    return "\n".join(lines) + "\n"


def _key(k) -> str:
    return k if isinstance(k, str) and k.replace("_", "").isalnum() and k.isascii() else json.dumps(str(k))


def _toml_value(v) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, float):
        if math.isnan(v) or math.isinf(v):
            return "nan" if math.isnan(v) else "inf" if v > 0 else "-inf"
        return repr(v)
    if isinstance(v, int):
        return str(v)
    if isinstance(v, str):
        if "\n" in v and '"""' not in v and "\\" not in v:
            return '"""\n' + v + '"""'
        return json.dumps(v)
    if isinstance(v, list):
        return "[" + ", ".join(_toml_value(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{ " + ", ".join(f"{_key(k)} = {_toml_value(x)}" for k, x in v.items()) + " }"
    return json.dumps(str(v))


def mutate_bytes(data: bytes, rng: random.Random) -> bytes:
    """One byte-level change: flips, cuts, splices, huge numbers, deep nesting, huge lines."""
    b = bytearray(data)
    n = len(b)
    at = rng.randrange(n + 1)
    op = rng.randrange(10)
    if op == 0 and n:
        for _ in range(rng.randint(1, 8)):
            i = rng.randrange(n)
            b[i] ^= 1 << rng.randrange(8)
    elif op == 1:
        del b[at:]
    elif op == 2 and n:
        j = rng.randrange(n + 1)
        del b[min(at, j) : max(at, j)]
    elif op == 3 and n:
        j = min(n, at + rng.randint(1, 200))
        b[at:at] = b[at:j] * rng.randint(1, 20)
    elif op == 4:
        b[at:at] = rng.choice(
            [b"9" * rng.randint(4000, 6000), b"-" + b"1" * 5000, b"0x" + b"f" * 5000, b"1e400", b"-0", b"1_000"]
        )
    elif op == 5:
        k = rng.randint(100, 20000)
        b[at:at] = rng.choice([b"[" * k + b"]" * k, b"[" * k, b"{" * k, b'{"a":' * k])
    elif op == 6:
        b[at:at] = rng.choice([b".", b"o", b" ", b"x", b"0,"]) * rng.randint(1000, 300_000)
    elif op == 7:
        b[at:at] = rng.choice(
            [
                b"\xff",
                b"\xc3",
                b"\x00",
                b"\r",
                b"\r\n",
                b'"""',
                b"'''",
                b'"',
                b"\\",
                b"\n[graph]\n",
                b"\n[[x]]\n",
                b"#",
                b"\xef\xbb\xbf",
            ]
        )
    elif op == 8:
        b[at:at] = bytes(rng.randrange(256) for _ in range(rng.randint(1, 64)))
    else:
        b = b[: rng.randrange(n + 1)]
    return bytes(b)


# --- cases per surface -------------------------------------------------------------------


def instance_case(seeds: Seeds, rng: random.Random) -> Case:
    _, data = rng.choice(sorted(seeds.instances.items()))
    if rng.random() < 0.5:
        obj = tomllib.loads(data.decode())
        for _ in range(rng.randint(1, 3)):
            obj = mutate_object(obj, rng)
        new = to_toml(obj).encode() if isinstance(obj, dict) else data
        recipe = "structured"
    else:
        new = data
        for _ in range(rng.randint(1, 3)):
            new = mutate_bytes(new, rng)
        recipe = "bytes"
    command = rng.choice(
        [
            ["show"],
            ["show"],
            ["solve", "--time-limit", "2", "--max-moves", "3", "--json"],
            ["construct"],
            ["export", "--horizon", "1", "--format", rng.choice(["cnf", "lp", "opb"]), "-o", "{dir}/out.x"],
        ]
    )
    argv = (command[0], "{dir}/x.toml", *command[1:])
    return Case("instance", argv, (("x.toml", new),), recipe)


def solution_case(seeds: Seeds, rng: random.Random) -> Case:
    inst_name, sol = rng.choice(seeds.solutions)
    if rng.random() < 0.5:
        obj = json.loads(sol)
        for _ in range(rng.randint(1, 3)):
            obj = mutate_object(obj, rng)
        new = json.dumps(obj).encode()
        recipe = "structured"
    else:
        new = sol
        for _ in range(rng.randint(1, 3)):
            new = mutate_bytes(new, rng)
        recipe = "bytes"
    command = rng.choice(["verify", "verify", "show"])
    return Case(
        "solution",
        (command, "{dir}/x.toml", "{dir}/s.json"),
        (("x.toml", seeds.instances[inst_name]), ("s.json", new)),
        recipe,
    )


def certificate_case(seeds: Seeds, rng: random.Random) -> Case:
    inst_name, files = rng.choice(seeds.certificates)
    files = dict(files)
    cert_name = next(n for n in sorted(files) if n.endswith(".json"))
    target = rng.choice(sorted(files)) if rng.random() < 0.3 else cert_name
    if target == cert_name and rng.random() < 0.6:
        obj = json.loads(files[target])
        for _ in range(rng.randint(1, 3)):
            obj = mutate_object(obj, rng)
        files[target] = json.dumps(obj).encode()
        recipe = f"structured {target}"
    else:
        for _ in range(rng.randint(1, 3)):
            files[target] = mutate_bytes(files[target], rng)
        recipe = f"bytes {target}"
    # The instance itself is sometimes another one: a certificate used against the wrong puzzle.
    inst = seeds.instances[inst_name if rng.random() < 0.9 else rng.choice(sorted(seeds.instances))]
    return Case(
        "certificate",
        ("check-certificate", "{dir}/x.toml", "{dir}/c/" + cert_name),
        (("x.toml", inst), *(("c/" + n, b) for n, b in files.items())),
        recipe,
    )


_OPTIONS = {
    "solve": ["--method", "--max-moves", "--time-limit", "--json", "-o", "--solver", "--strategy", "--certify"],
    "verify": ["--json"],
    "show": [],
    "construct": ["--json"],
    "certify": ["-o", "--time-limit", "--method"],
    "check-certificate": ["--json"],
    "export": ["--horizon", "--format", "-o", "--option"],
    "family": ["--a", "--b", "--k", "--target", "-o"],
}
_VALUES = [
    "0",
    "1",
    "2",
    "-1",
    "1.5",
    "nan",
    "inf",
    "-inf",
    "1e-9",
    "1e400",
    "9" * 5000,
    "",
    " ",
    "é",
    "bfs",
    "sat",
    "ilp",
    "spanbfs",
    "auto",
    "cnf",
    "lp",
    "pddl",
    "wcnf",
    "mps",
    "opb",
    "cadical195",
    "lingeling",
    "linear",
    "nwse",
    "vdiag",
    "diagonal",
    "noop=0",
    "x=y",
    "{dir}/x.toml",
    "{dir}",
    "{dir}/missing.toml",
    "{dir}/out.json",
    "{dir}/sub/out.json",
    "--",
    "-",
    "--json",
]


def cli_case(seeds: Seeds, rng: random.Random) -> Case:
    command = rng.choice(sorted(_OPTIONS) + ["bogus", "--version", "--help", ""])
    argv = [command]
    if command == "family":
        argv.append(rng.choice(["vdiag", "diagonal", "bogus", "9" * 50]))
    for _ in range(rng.randint(0, 3)):
        argv.append(rng.choice(["{dir}/x.toml", "{dir}/x.toml", "{dir}/s.json", "{dir}", "{dir}/nope"]))
    for _ in range(rng.randint(0, 4)):
        opts = _OPTIONS.get(command, ["--json"]) + ["--bogus", "-x"]
        argv.append(rng.choice(opts))
        if rng.random() < 0.8:
            argv.append(rng.choice(_VALUES))
    if command in ("solve", "certify") and "--time-limit" not in argv:
        argv += ["--time-limit", "3"]  # arguments are fuzzed, not the engines' running time
    if command == "export":
        argv = [a for a in argv if a != "9" * 5000] + ["--horizon", str(rng.randint(0, 3))]
    _, data = rng.choice(
        [("h-to-o.toml", seeds.instances["h-to-o.toml"]), ("graph.toml", seeds.instances["graph.toml"])]
    )
    files = [("x.toml", data)]
    if seeds.solutions:
        files.append(("s.json", seeds.solutions[0][1]))
    return Case("cli", tuple(argv), tuple(files), "argv")


MAKERS = {"instance": instance_case, "solution": solution_case, "certificate": certificate_case, "cli": cli_case}


def make_case(seeds: Seeds, rng: random.Random, surface: str | None = None) -> Case:
    if surface is None:
        surface = rng.choice([s for s in SURFACES if s != "certificate" or seeds.certificates])
    return MAKERS[surface](seeds, rng)


# --- memory cases: child processes with a measured peak RSS -----------------------------


def memory_cases(root: Path) -> dict[str, tuple[tuple[str, ...], dict[str, bytes]]]:
    """Large inputs: name -> (argv after 'coinsat', files).  Each stays within a few MB."""
    hto = (root / "instances/paper/h-to-o.toml").read_bytes()
    n = 20_000
    path_graph = ", ".join(f"[{i}, {i + 1}]" for i in range(n))
    far = [[[3, 1], [1, 2]]] + [[[i, 1000], [i, 1001]] for i in range(50_000)]
    return {
        "picture row of 5 MB (dots)": (
            ("show", "{dir}/x.toml"),
            {
                "x.toml": (
                    'board = "square"\nstart = """\no o\no .' + "." * 5_000_000 + '\n"""\ngoal = """\no o\n. o\n"""\n'
                ).encode()
            },
        ),
        "picture row of 1 MB, closing quotes on it": (
            ("show", "{dir}/x.toml"),
            {
                "x.toml": (
                    'board = "square"\nstart = """\no o\no .' + "." * 1_000_000 + '"""\ngoal = """\no o\n. o"""\n'
                ).encode()
            },
        ),
        "far coin in a 1 MB picture row": (
            ("solve", "{dir}/x.toml", "--time-limit", "5"),
            {
                "x.toml": (
                    'board = "square"\nstart = """\no o\no .' + "." * 240_000 + 'o\n"""\ngoal = """\no o\n. o\n"""\n'
                ).encode()
            },
        ),
        "verify: 50k far cells after an illegal move": (
            ("verify", "{dir}/x.toml", "{dir}/s.json"),
            {"x.toml": hto, "s.json": json.dumps({"moves": far}).encode()},
        ),
        f"graph path of {n} cells": (
            ("show", "{dir}/x.toml"),
            {
                "x.toml": (
                    'board = "graph"\nstart = [0, 1, 2]\ngoal = [0, 1, 3]\n[graph]\n'
                    f"edges = [{path_graph}, [0, 2], [1, 3]]\n"
                ).encode()
            },
        ),
        "nesting 100k deep (TOML)": (
            ("show", "{dir}/x.toml"),
            {"x.toml": ('board = "square"\nstart = ' + "[" * 100_000 + "]" * 100_000 + "\ngoal = [[0, 0]]\n").encode()},
        ),
        "nesting 100k deep (JSON)": (
            ("verify", "{dir}/x.toml", "{dir}/s.json"),
            {"x.toml": hto, "s.json": b"[" * 100_000},
        ),
        "integer of 100k digits": (
            ("show", "{dir}/x.toml"),
            {
                "x.toml": (
                    'board = "square"\nadjacency = ' + "9" * 100_000 + "\nstart = [[0, 0]]\ngoal = [[0, 0]]\n"
                ).encode()
            },
        ),
        "hex integer of 100k digits": (
            ("show", "{dir}/x.toml"),
            {"x.toml": ('board = "square"\nstart = [[0x' + "f" * 100_000 + ", 0]]\ngoal = [[0, 0]]\n").encode()},
        ),
        "verify: 5k legal moves of 5k coins": (
            ("verify", "{dir}/x.toml", "{dir}/s.json"),
            {
                "x.toml": (
                    'board = "square"\nstart = [[0, 0], [1, 0], [0, 1], '
                    + ", ".join(f"[{i}, 10]" for i in range(5000))
                    + "]\ngoal = [[0, 0], [1, 0], [0, 1], "
                    + ", ".join(f"[{i}, 10]" for i in range(5000))
                    + "]\n"
                ).encode(),
                "s.json": json.dumps({"moves": [[[0, 0], [1, 1]], [[1, 1], [0, 0]]] * 2500}).encode(),
            },
        ),
        "20k coins in a row": (
            ("show", "{dir}/x.toml"),
            {
                "x.toml": (
                    'board = "square"\nstart = ['
                    + ", ".join(f"[{i}, 0]" for i in range(20_000))
                    + "]\ngoal = ["
                    + ", ".join(f"[{i}, 1]" for i in range(20_000))
                    + "]\n"
                ).encode()
            },
        ),
    }


#: Runs ``coinsat.cli.main`` and, at exit, writes the process's own peak RSS (VmHWM, which
#: exec resets) to the file named first.  ``wait4``'s ru_maxrss is not used: Linux carries the
#: parent's high-water mark across fork and exec, so a child of a large process (pytest after
#: many tests) would be charged the parent's memory.
_HWM_WRAPPER = """
import atexit, sys
out, sys.argv = sys.argv[1], ["coinsat", *sys.argv[2:]]
def _report():
    try:
        with open("/proc/self/status") as f:
            kb = next(line.split()[1] for line in f if line.startswith("VmHWM"))
        with open(out, "w") as f:
            f.write(kb)
    except (OSError, StopIteration):
        pass
atexit.register(_report)
from coinsat.cli import main
sys.exit(main(sys.argv[1:]))
"""


def run_memory_case(argv: tuple[str, ...], files: dict[str, bytes]) -> tuple[int, int, int, float, str]:
    """(exit code, peak RSS in bytes, input bytes, seconds, stderr) of ``coinsat argv`` in a child."""
    with tempfile.TemporaryDirectory() as d:
        for name, data in files.items():
            (Path(d) / name).write_bytes(data)
        args = [a.replace("{dir}", d) for a in argv]
        hwm = Path(d) / ".peak-rss-kb"
        t0 = time.perf_counter()
        proc = subprocess.Popen(
            [sys.executable, "-c", _HWM_WRAPPER, str(hwm), *args],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            cwd=d,
            preexec_fn=_limit_memory,
        )
        assert proc.stderr is not None  # stderr=PIPE
        err = proc.stderr.read().decode(errors="replace")
        _, status, usage = os.wait4(proc.pid, 0)
        proc.returncode = os.waitstatus_to_exitcode(status)
        seconds = time.perf_counter() - t0
        peak = int(hwm.read_text()) * 1024 if hwm.exists() else usage.ru_maxrss * 1024
        return proc.returncode, peak, sum(map(len, files.values())), seconds, err.replace(d, "{dir}")


def _limit_memory() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_CAP, MEMORY_CAP))


def memory_failure(code: int, rss: int, size: int, stderr: str, names: list[str]) -> str | None:
    if rss > MEMORY_BASE + MEMORY_PER_BYTE * size:
        return f"peak RSS {rss / 2**20:.0f} MB > bound {(MEMORY_BASE + MEMORY_PER_BYTE * size) / 2**20:.0f} MB"
    return judge(code, stderr, ["{dir}/" + n for n in names])


# --- saving failures and the campaign -----------------------------------------------------

SAVE_PER_KIND = 3  # failing inputs saved per worker and signature (all are counted)


def signature(outcome: Outcome) -> str:
    """What kind of failure this is: the failure and the last stderr line, digits dropped."""
    last = (outcome.stderr.strip().splitlines() or [""])[-1]
    if "Traceback" in outcome.stderr:
        last = [l for l in outcome.stderr.splitlines() if l and not l.startswith((" ", "coinsat:"))][-1]
    return (outcome.failure or "") + " | " + "".join(c for c in last[:60] if not c.isdigit())


def save_failure(case: Case, outcome: Outcome, directory: Path) -> Path:
    """Write the case's files and ``case.json`` under a name made from its content."""
    h = hashlib.sha256(repr((case.argv, case.files)).encode()).hexdigest()[:12]
    where = directory / f"{case.surface}-{h}"
    if (where / "case.json").exists():  # saved before (and perhaps annotated since): keep it
        return where
    where.mkdir(parents=True, exist_ok=True)
    for name, data in case.files:
        (where / name).parent.mkdir(parents=True, exist_ok=True)
        (where / name).write_bytes(data)
    (where / "case.json").write_text(
        json.dumps(
            {
                "surface": case.surface,
                "argv": list(case.argv),
                "files": [n for n, _ in case.files],
                "recipe": case.recipe,
                "failure": outcome.failure,
                "exit": outcome.code,
                "stderr_tail": outcome.stderr[-600:],
            },
            indent=1,
        )
        + "\n"
    )
    return where


def load_regression(where: Path) -> tuple[Case, dict]:
    meta = json.loads((where / "case.json").read_text())
    files = tuple((n, (where / n).read_bytes()) for n in meta["files"])
    return Case(meta["surface"], tuple(meta["argv"]), files, meta.get("recipe", "")), meta


def campaign(
    seconds: float, seed: int, seeds: Seeds, save_to: Path | None = None, max_cases: int | None = None
) -> dict:
    """Run random cases for ``seconds``; count them per surface, and save the first
    ``SAVE_PER_KIND`` failures of each signature under ``save_to`` (None: save nothing)."""
    rng = random.Random(seed)
    tried = {s: 0 for s in SURFACES}
    failures: list[dict] = []
    deadline = time.monotonic() + seconds
    slowest = 0.0
    seen: dict[str, int] = {}
    while time.monotonic() < deadline and (max_cases is None or sum(tried.values()) < max_cases):
        case = make_case(seeds, rng)
        outcome = run_case(case)
        tried[case.surface] += 1
        slowest = max(slowest, outcome.seconds)
        if outcome.failure:
            kind = signature(outcome)
            seen[kind] = seen.get(kind, 0) + 1
            saving = save_to is not None and seen[kind] <= SAVE_PER_KIND
            where = save_failure(case, outcome, save_to) if saving and save_to is not None else None
            failures.append(
                {
                    "surface": case.surface,
                    "failure": outcome.failure,
                    "argv": case.argv,
                    "kind": kind,
                    "saved": str(where) if where else None,
                    "stderr": outcome.stderr[-300:],
                }
            )
    return {"tried": tried, "failures": failures, "slowest": slowest}


def work(job: tuple[float, int, Path, Path | None]) -> dict:
    """One worker process of a parallel campaign: ``(seconds, seed, repository root, save_to)``."""
    seconds, seed, root, save_to = job
    return campaign(seconds, seed, make_seeds(root), save_to)
