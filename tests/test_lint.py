"""The tree passes its linter and labkit/ its type checker, as pyproject.toml configures them: the suite's own tools
(tests/requirements.txt, installed by make check), never a student's; without them these tests skip, or fail where
CI requires them (LAB_CI_REQUIRES)."""

import importlib.util
import subprocess
import sys

import pytest

from conftest import ROOT, unavailable

# a tool -> how make check runs it (its module's -m); mypy reads what to check and where to cache from pyproject.toml
COMMANDS = {"ruff": ["ruff", "check", "--no-cache", "."], "mypy": ["mypy"]}


@pytest.mark.parametrize("tool", COMMANDS)
def test_the_tree_passes(tool):
    if importlib.util.find_spec(tool) is None:
        unavailable(tool, f"{tool} is not installed (pip install -r tests/requirements.txt: the suite's, not students')")
    done = subprocess.run([sys.executable, "-m", *COMMANDS[tool]], cwd=ROOT, capture_output=True, text=True,
                          timeout=600)
    assert done.returncode == 0, done.stdout + done.stderr
