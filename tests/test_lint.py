"""The tree passes its linter, its formatter's check and labkit/ its type checker, as pyproject.toml configures them:
the suite's own tools (tests/requirements.txt, installed by make check), never a student's; without them these tests
skip, or fail where CI requires them (LAB_CI_REQUIRES)."""

import importlib.util
import subprocess
import sys

import pytest

from conftest import ROOT, unavailable
from labkit.instructor import new_lab

# what make check runs -> its module (python -m) and arguments; mypy reads what to check and where to cache from
# pyproject.toml
COMMANDS = {
    "ruff check": ["ruff", "check", "--no-cache", "."],
    "ruff format": ["ruff", "format", "--check", "--no-cache", "."],
    "mypy": ["mypy"],
}


def tool_or_skip(module: str) -> None:
    """Skip (or fail, where CI requires it) when the suite's tool `module` is not installed."""
    if importlib.util.find_spec(module) is None:
        unavailable(
            module, f"{module} is not installed (pip install -r tests/requirements.txt: the suite's, not students')"
        )


@pytest.mark.parametrize("tool", COMMANDS)
def test_the_tree_passes(tool):
    tool_or_skip(COMMANDS[tool][0])
    done = subprocess.run(
        [sys.executable, "-m", *COMMANDS[tool]], cwd=ROOT, capture_output=True, text=True, timeout=600
    )
    assert done.returncode == 0, done.stdout + done.stderr


@pytest.mark.parametrize("name", ["lab99", "l" + "x" * 30], ids=["short", "longest"])  # what new_lab.NAME allows
@pytest.mark.parametrize("command", ["check", "format --diff"])
def test_a_new_labs_python_files_pass_the_linter_and_the_formatter_as_make_new_lab_writes_them(command, name):
    """make check after make new-lab is green untouched, and its linter and formatter read labs/<name>/ too: each
    file of the scaffold is checked as if it lay there (--stdin-filename, so pyproject.toml's excludes apply), for a
    short name and the longest one (a line that fits with one may not with the other)."""
    tool_or_skip("ruff")
    assert new_lab.NAME.match(name)
    for path, text in new_lab.files(name).items():
        if path.endswith(".py"):
            where = f"labs/{name}/{path}"
            args = [*command.split(), "--no-cache", "--force-exclude", "--stdin-filename", where, "-"]
            done = subprocess.run(
                [sys.executable, "-m", "ruff", *args], cwd=ROOT, input=text, capture_output=True, text=True, timeout=60
            )
            assert done.returncode == 0, f"{where}:\n{done.stdout}{done.stderr}"
