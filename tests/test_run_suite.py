"""make check's runner (tests/run_suite.py): the core's tests, then each lab's, in workers when it can; and every
test that shares the checkout's dist/ marked to run in one worker."""

import ast
import importlib.util

import pytest

import run_suite
from conftest import ROOT, unavailable

# what a test does that writes or reads the checkout's dist/ (make clean removes it; golden captures make gradescope)
SHARES_DIST = ('make("dist"', 'make("gradescope"', 'make("clean"', 'ROOT / "dist"', 'golden.main(["capture"')


def test_the_cores_tests_run_first_then_each_labs_own():
    folders = run_suite.folders()
    assert folders[0] == "tests" and set(folders[1:]) == {
        path.relative_to(ROOT).as_posix() for path in ROOT.glob("labs/*/tests")
    }


def test_workers_follow_lab_suite_workers_and_are_one_without_xdist(monkeypatch):
    monkeypatch.setenv("LAB_SUITE_WORKERS", "1")
    assert run_suite.workers() == 1
    monkeypatch.setenv("LAB_SUITE_WORKERS", "3")
    assert run_suite.workers() == (3 if importlib.util.find_spec("xdist") else 1)
    monkeypatch.delenv("LAB_SUITE_WORKERS")
    assert 1 <= run_suite.workers() <= run_suite.MOST_WORKERS
    monkeypatch.setattr(importlib.util, "find_spec", lambda name: None)
    assert run_suite.workers() == 1


def marked(decorators) -> bool:
    return any(isinstance(node, ast.Name) and node.id == "CHECKOUT" for node in decorators)


@pytest.mark.parametrize("path", sorted((ROOT / "tests").glob("test_*.py")), ids=lambda path: path.name)
def test_a_test_that_shares_the_checkouts_dist_runs_in_the_checkout_group(path):
    """In two workers, make dist in one test and make clean in another removed each other's files: every test that
    does what SHARES_DIST names carries conftest.CHECKOUT (or its module does), so they run one after another."""
    source = path.read_text(encoding="utf-8")
    tree, lines = ast.parse(source), source.split("\n")
    whole = any(
        isinstance(node, ast.Assign)
        and [getattr(target, "id", "") for target in node.targets] == ["pytestmark"]
        and ast.unparse(node.value) == "CHECKOUT"
        for node in tree.body
    )
    unmarked = [
        node.name
        for node in tree.body
        if isinstance(node, ast.FunctionDef)
        and node.name.startswith("test_")
        and any(sign in "\n".join(lines[node.lineno - 1 : node.end_lineno]) for sign in SHARES_DIST)
        and not (whole or marked(node.decorator_list))
    ]
    assert unmarked == [], f"{path.name}: mark them @CHECKOUT (conftest.py)"


@pytest.mark.parametrize("failing", ["none", "aside", "spread"])
def test_a_failure_beside_the_workers_or_among_them_fails_the_run(tmp_path, failing, capsys):
    """With workers, the CHECKOUT tests run in a process of their own: its failure fails make check as theirs does,
    and its output is shown."""
    if importlib.util.find_spec("xdist") is None:
        unavailable("xdist", "pytest-xdist is not installed (pip install -r tests/requirements.txt)")
    (tmp_path / "conftest.py").write_text(
        'def pytest_configure(config):\n    config.addinivalue_line("markers", "checkout: the checkout\'s")\n'
    )
    (tmp_path / "test_some.py").write_text(
        "import pytest\n\n\n"
        f"@pytest.mark.checkout\ndef test_aside():\n    assert {failing != 'aside'}\n\n\n"
        f"def test_spread():\n    assert {failing != 'spread'}\n"
    )
    assert run_suite.run(str(tmp_path), 2) == (failing == "none")
    assert "1 passed" in capsys.readouterr().out or failing == "aside"
