"""make check's runner (tests/run_suite.py): the core's tests in workers when it can, beside them one after another
those that share the checkout's dist/ (every such test marked) and each lab's."""

import ast
import importlib.util
import os
import signal
import subprocess
import sys

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


def test_with_workers_the_labs_run_beside_them_after_the_checkouts_tests_and_without_each_folder_is_one_run():
    """Two lanes at once: the core's tests in workers; beside them, one after another, the core's CHECKOUT tests
    and then each lab's whole (a lab's tests make clean the checkout: never while a CHECKOUT test builds in it)."""
    spread, beside = run_suite.lanes(["tests", "labs/a/tests", "labs/b/tests"], 2)
    assert [arguments for _, arguments in spread] == [["-n", "2", "--dist", "worksteal", "-m", "not checkout", "tests"]]
    assert [arguments for _, arguments in beside] == [["-m", "checkout", "tests"], ["labs/a/tests"], ["labs/b/tests"]]
    spread, beside = run_suite.lanes(["tests", "labs/a/tests"], 1)
    assert ([arguments for _, arguments in spread], beside) == ([["tests"], ["labs/a/tests"]], [])


@pytest.mark.parametrize("failing", ["none", "aside", "spread", "lab"])
def test_a_failure_beside_the_workers_or_among_them_fails_the_run(tmp_path, failing, capfd):
    """With workers, the CHECKOUT tests and the labs' run in a lane of their own: a failure there fails make check
    as one among the workers does, names its run, and its output is shown."""
    if importlib.util.find_spec("xdist") is None:
        unavailable("xdist", "pytest-xdist is not installed (pip install -r tests/requirements.txt)")
    core, lab = tmp_path / "core", tmp_path / "lab"
    for folder in (core, lab):
        folder.mkdir()
        (folder / "conftest.py").write_text(
            'def pytest_configure(config):\n    config.addinivalue_line("markers", "checkout: the checkout\'s")\n'
        )
    (core / "test_some.py").write_text(
        "import pytest\n\n\n"
        f"@pytest.mark.checkout\ndef test_aside():\n    assert {failing != 'aside'}\n\n\n"
        f"def test_spread():\n    assert {failing != 'spread'}\n"
    )
    (lab / "test_lab.py").write_text(f"def test_lab():\n    assert {failing != 'lab'}\n")
    failed = run_suite.run([str(core), str(lab)], 2)
    assert len(failed) == (failing != "none")
    assert failing not in ("aside", "lab") or failed[0].startswith(str(core if failing == "aside" else lab))
    shown = capfd.readouterr().out
    assert shown.count("1 passed") == 3 - (failing != "none") and shown.count("1 failed") == (failing != "none")
    assert shown.index(f"{lab}, one after another beside the workers") > shown.index(f"{core}, the tests that share")


@pytest.mark.skipif(os.name != "posix", reason="SIGINT ignored by the starting shell is POSIX's")
def test_started_with_ctrl_c_ignored_the_tests_still_take_it(tmp_path):
    """Run in the background (nohup, `make check &`), the suite inherited SIGINT ignored, and five tests that press
    Ctrl-C on watch, chat and the grader waited out their patience and failed: the tests' programs take it again."""
    (tmp_path / "test_ctrl_c.py").write_text(
        "import signal\n\n\ndef test_ctrl_c():\n    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler\n"
    )
    script = f"import sys; sys.path.insert(0, {str(ROOT / 'tests')!r}); import run_suite; "
    script += f"sys.exit(len(run_suite.run([{str(tmp_path)!r}], 1)))"
    ignored = subprocess.run(
        [sys.executable, "-c", script],
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_IGN),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert ignored.returncode == 0, ignored.stdout + ignored.stderr
