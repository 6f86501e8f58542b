"""``--method`` helps choose (issue 44): a line per engine in ``solve --help`` and ``certify --help``,
made from the engine's record (``search/methods.py``: what it proves, when it pays, what it
needs), ``auto``'s naming every engine it may pick; a mistyped name is one line with the
closest name ("did you mean"), exit 2, on the command line and in Python; and help texts that
belong to their command, with their defaults.
"""

from __future__ import annotations

import argparse
import inspect
import re

import pytest

import coinsat
from coinsat.cli import get_parser, main
from coinsat.errors import UsageError
from coinsat.registry import EXTRAS, closest, unknown
from coinsat.search.methods import ENGINES
from coinsat.search.plan import choose


def method_help(command: str, monkeypatch) -> str:
    """The --method entry of ``coinsat COMMAND --help`` as printed (80 columns)."""
    monkeypatch.setenv("COLUMNS", "80")
    parser = get_parser()
    subs = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    text = subs.choices[command].format_help()
    start = text.index("  --method {")
    end = text.index("\n  --", start + 1)
    return text[start:end]


def entries(block: str) -> dict[str, str]:
    """method -> its help line, the wrapped continuation lines joined."""
    found: dict[str, str] = {}
    current = None
    for line in block.splitlines()[2:]:  # the option line, then "the engine (default auto):"
        head = re.match(r"\s+([a-z]+): proves ", line)
        if head and line.startswith(" " * 24 + head.group(1)):
            current = head.group(1)
            found[current] = line.strip()
        elif current is not None:
            found[current] += " " + line.strip()
    return found


@pytest.mark.parametrize("command", ["solve", "certify"])
def test_every_method_has_one_line_of_what_it_proves_pays_and_needs(command, monkeypatch):
    lines = entries(method_help(command, monkeypatch))
    assert list(lines) == list(ENGINES)  # each engine once, in the registry's order (auto first)
    for name, record in ENGINES.items():
        assert record.proves and record.pays and record.needs, name
        assert lines[name] == record.summary(), (lines[name], record.summary())
        for part in ("proves", "pays", "needs"):
            assert f" {part} " in lines[name] or lines[name].startswith(f"{name}: {part} "), (name, part)


def test_auto_names_every_engine_it_may_pick():
    picked = set(re.findall(r'Plan\("(\w+)"', inspect.getsource(choose)))  # the one place auto decides
    assert {"rankbfs", "spanbfs", "bfs", "sat"} <= picked  # the rule's four (the regex still reads it)
    for name in picked:
        assert re.search(rf"\b{name}\b", ENGINES["auto"].pays), name


def test_what_the_engines_need():
    assert "berkeley-abc" in ENGINES["pdr"].needs and "berkeley-abc" in ENGINES["kind"].needs
    assert f"coinsat[{EXTRAS['pulp']}]" in ENGINES["ilp"].needs  # the extra that installs PuLP
    for name in ("auto", "bfs", "spanbfs", "sat", "slidesat"):
        assert ENGINES[name].needs == "nothing", name


@pytest.mark.parametrize(
    "argv, guess",
    [
        (["solve", "paper/diagonal", "--method", "sta"], "sat"),
        (["solve", "paper/diagonal", "--method", "SAT"], "sat"),
        (["certify", "paper/diagonal", "-o", "x", "--method", "spanbsf"], "spanbfs"),
        (["sovle", "paper/diagonal"], "solve"),
        (["export", "paper/diagonal", "--horizon", "3", "--format", "cfn"], "cnf"),
        (["solve", "paper/diagonal", "--method", "xyzzy"], None),
    ],
)
def test_a_mistyped_choice_is_one_line_with_the_closest(capsys, argv, guess):
    with pytest.raises(SystemExit) as stop:
        main(argv)
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1, err  # no usage block before it
    assert err.startswith("coinsat: error: ") and "choose from" in err
    if guess is None:
        assert "did you mean" not in err
    else:
        assert f"did you mean {guess!r}?" in err


def test_other_usage_errors_still_show_the_usage(capsys):
    with pytest.raises(SystemExit):
        main(["solve"])
    err = capsys.readouterr().err
    assert err.startswith("usage: coinsat solve") and "required: file" in err


def test_the_python_api_says_did_you_mean():
    instance = coinsat.load("paper/h-to-o")
    with pytest.raises(UsageError, match=r"unknown method 'spanbsf' \(did you mean 'spanbfs'\? choose from auto"):
        coinsat.solve(instance, method="spanbsf")


def test_closest():
    assert closest("rank", ENGINES) == "rankbfs" and closest("PDR", ENGINES) == "pdr"
    assert closest("zzzz", ENGINES) is None
    assert unknown("format", "x", ["a"]) == "unknown format 'x' (choose from a)"


def _help_of(command: str, option: str) -> str:
    parser = get_parser()
    subs = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    action = next(a for a in subs.choices[command]._actions if option in a.option_strings)
    return action.help % {"default": action.default} if "%(" in action.help else action.help


def test_improve_shows_its_defaults():
    from coinsat.search.improve import ImproveOptions

    o = ImproveOptions()
    assert f"(default: {o.stretch_time:g})" in _help_of("improve", "--stretch-time")
    assert f"(default: {max(o.lengths)}," in _help_of("improve", "--max-stretch")
    assert ",".join(map(str, o.lengths)) in _help_of("improve", "--stretches")
    assert "(default: 1)" in _help_of("certify", "--workers")
    assert "(default: lookahead)" in _help_of("certify", "--split")


def test_every_option_with_a_default_shows_it():
    """An option whose default is a value (not None, False or an empty list) says it in --help."""
    import argparse

    from coinsat.cli import get_parser

    def options(parser, name=""):
        for a in parser._actions:
            if isinstance(a, argparse._SubParsersAction):
                for sub_name, sub in a.choices.items():
                    yield from options(sub, f"{name} {sub_name}".strip())
            elif a.option_strings and a.nargs != 0 and a.default not in (None, False, [], argparse.SUPPRESS):
                yield name, a

    silent = [f"{name} {a.option_strings[-1]}" for name, a in options(get_parser()) if "default" not in (a.help or "")]
    assert silent == []


@pytest.mark.parametrize("command", ["show", "count", "construct", "census"])
def test_a_time_limit_help_says_what_that_command_does(command):
    text = _help_of(command, "--time-limit")
    assert "exit 3" in text and "feasible" not in text and "improve" not in text
