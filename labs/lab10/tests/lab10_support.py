"""Helpers of Lab10's own tests: the lab chosen for make and for this process, its student files, a running server.

The course's own helpers (tests/conftest.py: clean_env, wait_for, unavailable, …) are used as they are, loaded from
their file when pytest has not (these tests are run on their own for now).
"""

from __future__ import annotations

import contextlib
import importlib.util
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

LAB_ROOT = Path(__file__).resolve().parents[1]  # labs/lab10: the lab's root, the handout's top
COURSE = LAB_ROOT.parents[1]  # the course repository: Makefile, lab.py, labkit/, tests/
SPEC = "lab10.spec"
STUDENTS = LAB_ROOT / "students"
SOLUTION = LAB_ROOT / "solutions" / "student.py"
STUB = LAB_ROOT / "framework" / "student.py"


def _course_helpers():
    """tests/conftest.py, the course's test helpers, as pytest loaded it or loaded from its file."""
    path = COURSE / "tests" / "conftest.py"
    loaded = sys.modules.get("conftest")
    if loaded is not None and Path(getattr(loaded, "__file__", "")).resolve() == path:
        return loaded
    if "course_conftest" not in sys.modules:
        sys.path.insert(0, str(path.parent))
        spec = importlib.util.spec_from_file_location("course_conftest", path)
        module = importlib.util.module_from_spec(spec)
        sys.modules["course_conftest"] = module
        spec.loader.exec_module(module)
    return sys.modules["course_conftest"]


course = _course_helpers()
clean_env, wait_for, unavailable = course.clean_env, course.wait_for, course.unavailable


def lab_env(**overrides) -> dict:
    """A student's shell with Lab10 chosen (LAB_SPEC) and found (PYTHONPATH), as README says to run it for now."""
    paths = os.pathsep.join([str(LAB_ROOT), *filter(None, [os.environ.get("PYTHONPATH")])])
    return clean_env(LAB_SPEC=SPEC, PYTHONPATH=paths, **overrides)


def make(*args: str, timeout: float = 120, **env) -> subprocess.CompletedProcess:
    """`make ARGS` in the course repository with Lab10 chosen, this interpreter as PYTHON."""
    return subprocess.run(
        ["make", "--no-print-directory", *args, f"PYTHON={sys.executable}"],
        cwd=COURSE,
        env=lab_env(**env),
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def verdicts(output: str) -> dict:
    """[TEST id] -> PASS or FAIL, as printed."""
    return dict(re.findall(r"^\[TEST (\w+)\] .* \[(PASS|FAIL)\]$", output, re.M))


def breaks(path: Path) -> str:
    """The rule a wrong file's docstring names on its last line (`Breaks: P3`)."""
    return re.search(r"^Breaks: (\S+)\s*$", path.read_text(encoding="utf-8"), re.M)[1]


@pytest.fixture
def lab10(monkeypatch):
    """Lab10 active in this process (the engine's functions, the texts, the grader) and in every process a test starts."""
    from labkit.spec import active

    monkeypatch.setenv("LAB_SPEC", SPEC)
    monkeypatch.setenv("PYTHONPATH", lab_env()["PYTHONPATH"])
    active.cache_clear()
    try:
        yield active()
    finally:
        active.cache_clear()


class Served:
    """A running `python -m lab10.serve`: its endpoint, its process and the lines it has logged so far."""

    def __init__(self, url: str, process: subprocess.Popen, log: list):
        self.url, self.process, self.log = url, process, log

    @property
    def base(self) -> str:
        """The address an OpenAI client is given (…/v1)."""
        return self.url.rsplit("/chat/completions", 1)[0]

    @property
    def port(self) -> int:
        return int(re.search(r":(\d+)/", self.url)[1])


@contextlib.contextmanager
def serving(student: Path, *options: str, env: dict | None = None):
    """`python -m lab10.serve` on `student` (SEED 1, no pace unless told), as a Served; its output is read as it
    comes (a full pipe would stop the server's log), and it is stopped with Ctrl-C's signal at the end, as a student
    stops it."""
    import signal
    import threading

    command = [sys.executable, "-m", "lab10.serve", "--student", str(student), "--seed", "1", "--pace", "0", *options]
    process = subprocess.Popen(
        command,
        cwd=COURSE,
        env=env or lab_env(LAB_LANG="en"),
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    log: list = []
    reader = threading.Thread(target=lambda: log.extend(iter(process.stdout.readline, "")), daemon=True)
    reader.start()
    try:
        found = wait_for(
            lambda: (
                next(
                    (
                        re.search(r"http://127\.0\.0\.1:\d+/v1/chat/completions", line)
                        for line in list(log)
                        if "http://" in line
                    ),
                    None,
                )
                or process.poll() is not None
            ),
            what="make serve's banner",
        )
        assert process.poll() is None, "".join(log)
        yield Served(found[0], process, log)
    finally:
        if process.poll() is None:
            process.send_signal(signal.SIGINT)
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        reader.join(timeout=10)
        process.stdout.close()
