"""Helpers for the harness's own tests: run `make` as a student would, or judge a file in-process."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from framework import ROOT, STUB  # noqa: F401  (STUB: the tests take it from here)
from labkit import assess, course
from labkit.run.engine import Limits, Runtime, StudentRun
from labkit.spec import DrawnCheck, active
import labkit.instructor  # noqa: F401  (the grader's sentences join the catalogue, so every test sees all of it)

os.environ.pop("LAB", None)  # the suite chooses its labs itself (LABS, LAB_SPEC): a LAB= of the shell is no lab of it
# Bytecode is written, as on most machines: with PYTHONDONTWRITEBYTECODE=1 in the shell, every interpreter a test
# starts outside the lab's venv (in a copy, a handout, a clone) compiled the harness again, a fifth of the suite's CPU.
# A test about bytecode sets the variable itself.
os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
# `make check VENV=… BASE_PYTHON=…` (as CI runs it) puts its variables in the environment of every process below it:
# a `make test` a test starts in a handout or a lab copy would read them (a venv of another name, CI's interpreter in
# place of the one the test chose).  The suite's processes start from a shell without any variable the Makefile reads.
MAKE_VARIABLES = frozenset(re.findall(r"\$\((?:origin )?([A-Z][A-Z0-9_]*)\)", (ROOT / "Makefile").read_text("utf-8")))
for _name in MAKE_VARIABLES | {"MAKEFLAGS", "MFLAGS", "MAKELEVEL", "MAKEOVERRIDES"}:
    os.environ.pop(_name, None)
STUDENTS = ROOT / "tests" / "students"
# A test that writes or reads the checkout's own outputs (dist/: make dist, make gradescope, make clean there): beside
# make check's workers, the tests so marked run one after another in a process of their own (tests/run_suite.py)
CHECKOUT = pytest.mark.checkout
LAB = active()  # the lab this checkout runs (lab09/spec.py)
# fixed examples: the six, extended
TABLE = tuple(check for check in LAB.selected("full") if not isinstance(check, DrawnCheck))

if os.environ.get("LAB_SANDBOX", "").strip().lower() == "none":
    # Whoever runs `make check` with the sandbox forced off chose that level; the grader refuses a level below full
    # strength unless UNSAFE= names it, and is told here, as an instructor would tell it: every hostile file in
    # tests/students/ is harmless by construction (README).
    os.environ["LAB_UNSAFE"] = "1"
SOLUTION = ROOT / "solutions" / "student.py"
QUICK = Limits(case_seconds=0.5, load_seconds=5.0)  # hostile files time out sooner in tests
CLASS_LIMITS = Limits(case_seconds=0.5, load_seconds=5.0, submission_seconds=60.0)  # a class graded in a test


def use_engine(layer: str, monkeypatch) -> str:
    """Make `layer` the engine's process layer for this test (portable: plain pipes and Popen.kill, as on
    Windows; LAB_ENGINE=portable)."""
    if layer == "portable":
        monkeypatch.setenv("LAB_ENGINE", "portable")
    else:
        monkeypatch.delenv("LAB_ENGINE", raising=False)
    return layer


@pytest.fixture(params=("posix", "portable"))
def engine(request, monkeypatch):
    """Run the test with each process layer of the engine."""
    return use_engine(request.param, monkeypatch)


def process_table() -> dict:
    """pid -> (parent pid, session, start time, state) of every process, as the reaper reads /proc."""
    from labkit.run.reaper import process_stat

    table = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit() and (stat := process_stat(int(entry))):
            table[int(entry)] = stat
    return table


def wait_for(condition, seconds: float = 120.0, what: str = "the state the test waits for"):
    """Poll `condition()` until it gives something true and return that: how a test waits for a process or a
    file, never by sleeping a fixed time.  `seconds` only bounds how long a broken run takes to fail (a busy
    machine makes every step slower, so it is generous)."""
    import time

    deadline = time.monotonic() + seconds
    while True:
        found = condition()
        if found:
            return found
        if time.monotonic() > deadline:
            pytest.fail(f"gave up after {seconds:g} s waiting for {what}")
        time.sleep(0.02)


def missing(what: str) -> None:
    """Fail the test in one line (no traceback) naming what a lab lacks that the core's tests need of every lab,
    and where to add it: a lab the suite has never heard of gets this, never a KeyError deep in a test."""
    pytest.fail(what, pytrace=False)


def unavailable(tool: str, reason: str) -> None:
    """Skip a test for want of `tool` (bwrap, chromium, ...), unless CI requires it (LAB_CI_REQUIRES): then fail."""
    if tool in os.environ.get("LAB_CI_REQUIRES", "").split():
        pytest.fail(f"CI requires {tool}: {reason}")
    pytest.skip(reason)


def without_level_line(feedback: str) -> str:
    """A student's feedback less its first line where that says the sandbox was below full strength (the grade
    says so when the instructor chose such a level, as `LAB_SANDBOX=none make check` does): what remains is what
    a full-strength grade writes."""
    from labkit.i18n import text

    opening = text("feedback.sandbox", level="\0").split("\0")[0]
    return feedback.split("\n\n", 1)[1] if feedback.startswith(opening) else feedback


def clean_env(**overrides) -> dict:
    """The environment of a student's shell (without the variables of `make check`: MAKE_VARIABLES), Chinese unless
    told otherwise."""
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("LAB", "LAB_LANG", "LAB_TIMEOUT", "LAB_STUDENT", "PYTHONPYCACHEPREFIX")
    }  # bytecode of a lab copied to a temp dir stays there
    env.update(overrides)
    return env


def make(
    *args: str, env: dict | None = None, timeout: float = 120, this_python: bool = True
) -> subprocess.CompletedProcess:
    """`make ARGS` in the lab, by default with this interpreter (it has pytest); output as text."""
    command = ["make", "--no-print-directory", *args]
    if this_python and not any(arg.startswith("PYTHON=") for arg in args):
        command.append(f"PYTHON={sys.executable}")
    return subprocess.run(command, cwd=ROOT, env=env or clean_env(), capture_output=True, text=True, timeout=timeout)


def judged(path: Path, cases=None, limits: Limits = QUICK) -> dict:
    """case id -> Verdict for one student file, through the same engine and judge as `make test` (by default
    the active lab's `make test` checks of the functions that play Lab09's two of make test, the ones a file written
    for Lab09 defines (`plays`): the `lab` fixture chooses which lab is active)."""
    lab = active()
    cases = [case for case in lab.selected("test") if case.function in played(lab, ALL)] if cases is None else cases
    with StudentRun(path, display=path.name, limits=limits) as student:
        return {case.id: assess.verdict(student, case) for case in cases}


# the suite's own toy lab (tests/toylab/): its name, spec, where it is found
TOY = ("toy", "toylab.spec", ROOT / "tests")
DEFAULT, *_FURTHER = course.labs().items()  # the course's labs as it finds them: the default lab, then labs/<name>/
LABS = {DEFAULT[0]: DEFAULT[1][1], TOY[0]: TOY[1], **{name: spec for name, (_, spec) in _FURTHER}}  # the labs the
# core's own tests run against, derived: the course's default lab (Lab09), the toy, every lab of labs/ (Lab10, ...)
LAB_ROOTS = {TOY[0]: TOY[2], **{name: ROOT.joinpath(*root.split("/")) for name, (root, _) in _FURTHER}}  # where a
# lab's package is found, if not at the top
sys.path += [str(path) for path in LAB_ROOTS.values() if str(path) not in sys.path]  # (after the course's own folders)


def use_lab(name: str, monkeypatch):
    """Make the lab LABS[name] active for this test and yield it (a generator for a fixture to yield from)."""
    monkeypatch.setenv("LAB_SPEC", LABS[name])
    paths = [str(LAB_ROOTS[name])] if name in LAB_ROOTS else []
    monkeypatch.setenv(
        "PYTHONPATH", os.pathsep.join(filter(None, (*paths, str(ROOT / "tests"), os.environ.get("PYTHONPATH"))))
    )
    active.cache_clear()
    try:
        yield active()
    finally:
        active.cache_clear()  # the next active() reads the environment monkeypatch gives back


@pytest.fixture(params=tuple(LABS))
def lab(request, monkeypatch):
    """Run the test against each lab of LABS: the spec is active in this process (labkit.spec.active(), and so
    the engine's functions, the texts and the grader's columns) and, through LAB_SPEC and PYTHONPATH, in every
    process the test starts (make, the grader's workers)."""
    yield from use_lab(request.param, monkeypatch)


@pytest.fixture(
    params=((DEFAULT[0], "posix"), (DEFAULT[0], "portable"), *((name, "posix") for name in LABS if name != DEFAULT[0])),
    ids="-".join,
)
def lab_engine(request, monkeypatch):
    """`lab` and `engine` together, the portable layer for Lab09 only: the process layer does not depend on
    the lab, so another lab's runs prove what they prove (the core runs another lab) with the posix one."""
    name, layer = request.param
    use_engine(layer, monkeypatch)
    yield from use_lab(name, monkeypatch)


def _arities() -> dict:
    """Lab09's function -> how many arguments it takes, from its reference solution (its signatures)."""
    import ast

    tree = ast.parse(SOLUTION.read_text(encoding="utf-8"))
    return {node.name: len(node.args.args) for node in tree.body if isinstance(node, ast.FunctionDef)}


def in_order(lab) -> dict:
    """`lab`'s function -> Lab09's function in the same place: the first as the first, ..."""
    return dict(zip(lab.functions, LAB.functions))


def plays(lab) -> dict:
    """`lab`'s function -> the function of Lab09 it runs in a file written for Lab09 (`for_lab`): Lab09's in the
    same place (`in_order`), and a lab of one function Lab09's second, extract_response, where most hostile files
    misbehave (as format_prompt it would meet three of them)."""
    return in_order(lab) if len(lab.functions) > 1 else dict(zip(lab.functions, LAB.functions[1:]))


def for_lab(path: Path, lab, folder: Path, playing: dict | None = None) -> Path:
    """`path` (a file written for Lab09) as a file of `lab`: for Lab09 the file itself, for another lab a copy in
    `folder` that also defines each of that lab's functions as the function of Lab09 it plays (`playing`, by
    default `plays`), given the first arguments of the lab's call as many as Lab09's takes (Lab10's functions take
    several: its chat_completion(reply, …) runs Lab09's extract_response(reply)), so one hostile file attacks
    every lab the same way.  What the file imports from Lab09's
    given module (`from framework.tags import A, B`) it gets as plain assignments of the same values, since
    another lab's child is given that lab's module instead.  The copy is `folder`/<the lab's target name>."""
    if lab.id == LAB.id:
        return path
    given = Runtime.of(LAB).given
    source = re.sub(
        rf"^from {re.escape(given['module'])} import (.*?)(\s*#.*)?$",
        lambda found: "".join(
            f"{name} = {given['names'][name]!r}; " for name in (name.strip() for name in found[1].split(","))
        ),
        path.read_text(encoding="utf-8"),
        flags=re.M,
    )
    arity = _arities()
    aliases = "".join(
        f"\ntry:\n    _ours = {ours}\nexcept NameError:\n    pass\nelse:\n"  # a missing function stays
        f"    {mine} = _ours\n    if callable(_ours):\n"  # missing, a name that is no function one
        f"        def {mine}(*args, _ours=_ours):\n            return _ours(*args[:{arity[ours]}])\n"
        for mine, ours in (plays(lab) if playing is None else playing).items()
    )
    copy = folder / lab.student_file_name
    copy.write_text(source + "\n" + aliases + "\n", encoding="utf-8")
    return copy


FIRST, SECOND, ALL = "first", "second", "all"  # roles: the checks of the function of a lab that plays Lab09's
# first (format_prompt), of the one that plays its second (extract_response), of both (`plays`)


def played(lab, which) -> tuple:
    """`lab`'s functions in one role (FIRST, SECOND, ALL or None), in the lab's order."""
    ours = {None: (), FIRST: LAB.functions[:1], SECOND: LAB.functions[1:2], ALL: LAB.functions[:2]}[which]
    return tuple(mine for mine, theirs in plays(lab).items() if theirs in ours)


def role(lab, which, stage: str = "test") -> list:
    """The ids of `lab.selected(stage)` in one role (FIRST: the checks of the function playing Lab09's first,
    SECOND: its second, ALL: both, None: none), in run order: how a test names "the checks of the function a file
    breaks" in every lab at once (the suite's files are written for Lab09's make test, which calls two functions;
    Lab10's calls four, and the checks of its other two are no file's role; a lab of one function has no FIRST)."""
    return [check.id for check in lab.selected(stage) if check.function in played(lab, which)]


def failing(verdicts: dict) -> set:
    return {case_id for case_id, verdict in verdicts.items() if not verdict.passed}


def armed(name: str, folder: Path, **values) -> Path:
    """A copy of tests/students/hostile/<name>.py in `folder` with its placeholders (`NAME = …` lines at the
    top level) set to `values`: the hostile files do nothing harmful until a test points them at its own
    temp dir."""
    source = (STUDENTS / "hostile" / f"{name}.py").read_text(encoding="utf-8")
    for key, value in values.items():
        source, count = re.subn(rf"^{key} = .*$", lambda _: f"{key} = {value!r}", source, count=1, flags=re.M)
        assert count == 1, f"{name}.py has no placeholder {key}"
    copy = folder / f"{name}.py"
    copy.write_text(source, encoding="utf-8")
    return copy


@pytest.fixture
def write_student(tmp_path):
    """Write a student file (text or bytes) into a temporary folder and return its path."""

    def write(content, name="student.py"):
        path = tmp_path / name
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content, encoding="utf-8")
        return path

    return write


def pytest_configure(config):
    config.addinivalue_line("markers", "checkout: shares the checkout's dist/ (conftest.CHECKOUT, tests/run_suite.py)")
