"""Every way a student starts the lab works: make, python lab.py (Windows has no make), python
framework/verify.py, python framework/student.py; from the lab and from inside framework/."""

import dataclasses
import os
import shutil
import subprocess
import sys
import venv

import pytest

from conftest import LAB, ROOT, SOLUTION, STUB, clean_env, make
from labkit import entry
from labkit.spec import Option, Target
from test_course_output import transcript

FRAMEWORK = ROOT / "framework"


def python(*args: str, cwd=ROOT, env: dict | None = None) -> subprocess.CompletedProcess:
    """This interpreter (it has pytest) on `args`, as a student's shell would start it; no bytecode left behind."""
    return subprocess.run(
        [sys.executable, *args],
        cwd=cwd,
        env=env or clean_env(PYTHONDONTWRITEBYTECODE="1"),
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_lab_py_runs_the_six_like_make_test():
    stub = python("lab.py", "test", f"PYTHON={sys.executable}")
    assert stub.returncode == 1 and stub.stdout == transcript("stub")
    solved = python("lab.py", "test", "--student", "solutions/student.py", "--python", sys.executable)
    assert solved.returncode == 0 and solved.stdout == transcript("solution", tested="solutions/student.py")


def test_lab_py_speaks_english_on_request_and_runs_the_other_targets():
    english = python("lab.py", "test", "LAB_LANG=en", f"PYTHON={sys.executable}")  # as Windows' shells can say it
    assert english.stdout == transcript("stub", "TASK.en.md")
    full = python("lab.py", "test-full", "STUDENT=solutions/student.py", f"PYTHON={sys.executable}")
    assert full.returncode == 0 and "扩展检查: 10 通过, 0 失败" in full.stdout
    challenge = python("lab.py", "challenge", f"PYTHON={sys.executable}")
    assert challenge.returncode == 1 and challenge.stdout.count("[FAIL]") == len(LAB.selected("challenge"))


def test_the_checks_run_with_their_own_plugins_only(tmp_path):
    """A pytest plugin the interpreter happens to have (here one that reverses the tests' order, as a randomiser
    would, and notes that it ran) changes nothing in what make test prints, for make or lab.py; pytest-timeout, the
    backstop the checks name, is loaded (its option is taken)."""
    site = tmp_path / "site"
    (site / "intruder-1.0.dist-info").mkdir(parents=True)
    (site / "intruder-1.0.dist-info" / "METADATA").write_text("Metadata-Version: 2.1\nName: intruder\nVersion: 1.0\n")
    (site / "intruder-1.0.dist-info" / "entry_points.txt").write_text("[pytest11]\nintruder = intruder_plugin\n")
    ran = tmp_path / "intruder-ran"
    (site / "intruder_plugin.py").write_text(
        f"def pytest_configure(config):\n    open({str(ran)!r}, 'a').close()\n\n\n"
        "def pytest_collection_modifyitems(items):\n    items.reverse()\n"
    )
    env = clean_env(PYTHONPATH=str(site), PYTEST_ADDOPTS="--timeout=60")
    plain = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--co", "framework/verify.py"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert plain.returncode == 0 and ran.exists(), plain.stdout + plain.stderr  # pytest itself does load it
    ran.unlink()
    for result in (make("test", env=env), python("lab.py", "test", f"PYTHON={sys.executable}", env=env)):
        assert result.stdout == transcript("stub"), result.stderr
    assert not ran.exists()


def test_help_into_a_reader_that_left_ends_quietly():
    """`python lab.py help | head` ended in a BrokenPipeError traceback (a TA's find, in the handout too)."""
    helper = subprocess.Popen(
        [sys.executable, "lab.py", "help"], cwd=ROOT, env=clean_env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    helper.stdout.close()  # the reader is gone before the first line
    _, stderr = helper.communicate(timeout=60)
    assert helper.returncode == 0 and b"Traceback" not in stderr, stderr


def test_a_relative_student_path_is_read_from_where_it_was_typed():
    result = python("../lab.py", "test", "STUDENT=../solutions/student.py", f"PYTHON={sys.executable}", cwd=FRAMEWORK)
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.mark.parametrize("folder", [ROOT, FRAMEWORK], ids=["from the lab", "from framework/"])
def test_python_framework_verify_py_prints_the_six_with_the_right_exit_code(folder):
    script = os.path.relpath(FRAMEWORK / "verify.py", folder)
    stub = python(script, f"PYTHON={sys.executable}", cwd=folder)
    assert stub.returncode == 1 and stub.stdout == transcript("stub"), stub.stderr
    solution = os.path.relpath(SOLUTION, folder)
    solved = python(script, f"STUDENT={solution}", f"PYTHON={sys.executable}", cwd=folder)
    assert solved.returncode == 0 and solved.stdout == transcript("solution", tested="solutions/student.py"), (
        solved.stderr
    )


@pytest.mark.parametrize("folder", [ROOT, FRAMEWORK], ids=["from the lab", "from framework/"])
def test_python_framework_student_py_runs_the_students_main_block(folder):
    result = python(os.path.relpath(STUB, folder), cwd=folder)
    assert result.returncode == 0 and result.stdout == "''\n''\n", result.stderr  # the stub returns ""


def test_a_students_own_experiment_imports_the_tags_when_run_as_a_script(tmp_path):
    """In a copy of the lab: the reference solution with an experiment under __main__, run both ways."""
    copy = tmp_path / "lab09"
    shutil.copytree(FRAMEWORK, copy / "framework", ignore=shutil.ignore_patterns("__pycache__"))
    source = SOLUTION.read_text(encoding="utf-8") + (
        '\n\nif __name__ == "__main__":\n'
        '    print(repr(format_prompt([{"role": "user", "content": "hi"}])))\n'
        '    print(extract_response("<|user|>\\nhi\\n<|assistant|>\\nhello<|end|>\\n"))\n'
    )
    (copy / "framework" / "student.py").write_text(source, encoding="utf-8")
    for folder, script in ((copy, "framework/student.py"), (copy / "framework", "student.py")):
        result = python(script, cwd=folder)
        assert result.stdout == "'<|user|>\\nhi\\n<|assistant|>\\n'\nhello\n", result.stderr


def test_the_harness_still_gives_the_child_its_own_tags():
    """framework/framework.py only serves scripts: a graded file still gets framework.tags from the engine."""
    result = make("test", "STUDENT=solutions/student.py")
    assert result.returncode == 0


def test_make_test_accepts_a_python_whose_path_has_a_space(tmp_path):
    """PYTHON= naming a venv in a folder with a space (it borrows this interpreter's pytest through a .pth)."""
    home = tmp_path / "my labs" / "venv"
    venv.create(home, with_pip=False)
    spaced = home / "bin" / "python"
    site = subprocess.run(
        [str(spaced), "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    import pytest as here  # the folder this interpreter's pytest was installed in
    import pytest_timeout

    folders = {os.path.dirname(os.path.dirname(here.__file__)), os.path.dirname(pytest_timeout.__file__)}
    (tmp_path / "my labs" / "venv" / site.split(str(home) + os.sep, 1)[1] / "lab.pth").write_text(
        "\n".join(sorted(folders)) + "\n"
    )
    result = make("test", f"PYTHON={spaced}")
    assert result.returncode != 0 and result.stdout == transcript("stub"), result.stderr
    assert make("test", f"PYTHON={spaced}", "STUDENT=solutions/student.py").returncode == 0


def test_make_and_lab_py_take_the_same_options_in_either_spelling():
    as_make = entry.parse(
        ["chat", "STUDENT=my file.py", "SEED=7", "DEMO=1", "VENV=.venv-x", "BASE_PYTHON=python3.12", "LAB_LANG=en"]
    )
    as_options = entry.parse(
        [
            "--student",
            "my file.py",
            "--seed=7",
            "--demo",
            "chat",
            "--venv",
            ".venv-x",
            "--base-python",
            "python3.12",
            "--lab-lang",
            "en",
        ]
    )
    assert as_make == as_options and as_make["target"] == "chat" and as_make["settings"] == {"SEED": "7", "DEMO": "1"}
    assert "--demo" not in entry.command(entry.parse(["chat", "DEMO="]), "py") and entry.parse([])["target"] == "help"
    assert "--demo" in entry.command(as_make, "py")
    chat = entry.command(
        entry.parse(["chat", "REWRITE=0", "REWRITE_DEADLINE=800", "REWRITE_DELAY=900", "SEED=3"]), "py"
    )
    assert chat[:3] == ["py", "-m", "lab09.chat.main"]  # the module Lab09's spec names for its own target
    for flag in ("--no-rewrite", "--rewrite-deadline 800", "--rewrite-delay 900", "--seed 3"):
        assert flag in " ".join(chat)
    assert "--no-rewrite" not in entry.command(entry.parse(["chat", "REWRITE=1"]), "py")
    passed_on = entry.parse(["--make", "--python", "/a b/python", "run", "-m", "pytest", "STUDENT=x", "--help"])
    assert passed_on["rest"] == ["-m", "pytest", "STUDENT=x", "--help"] and passed_on["python"] == "/a b/python"


def test_make_chat_takes_a_switch_as_lab_py_does_demo_0_is_no_demo(tmp_path):
    """The Makefile passes DEMO= on as it was typed, so `make chat DEMO=0` is the chat, as `python lab.py chat
    DEMO=0` is, not the demo (it gave `--demo` for any value that was not empty)."""
    asked = dict(input="", env=clean_env(), capture_output=True, text=True, timeout=120, cwd=ROOT)
    student = f"STUDENT=solutions/student.py CHAT_PAGE={tmp_path / 'page.html'} CHAT_DB={tmp_path / 'chat.db'}".split()
    by_make = subprocess.run(
        ["make", "--no-print-directory", "chat", "DEMO=0", *student, f"PYTHON={sys.executable}"], **asked
    )
    by_lab_py = subprocess.run(
        [sys.executable, "lab.py", "chat", "DEMO=0", *student, f"PYTHON={sys.executable}"], **asked
    )
    demo = subprocess.run(
        ["make", "--no-print-directory", "chat", "DEMO=1", *student, f"PYTHON={sys.executable}"], **asked
    )
    assert by_make.returncode == by_lab_py.returncode == demo.returncode == 0, by_make.stderr
    assert by_make.stdout == by_lab_py.stdout and len(by_make.stdout.splitlines()) < len(demo.stdout.splitlines())


def test_the_targets_come_from_the_spec_the_core_ones_first():
    assert entry.target_names(LAB) == ["test", "test-full", "challenge", "watch", "chat", "clean", "help", "run"]
    stub = entry.command(entry.parse(["test"]), "py")
    assert stub[:5] == ["py", "-m", "pytest", "framework/verify.py", "--student=framework/student.py"]
    assert entry.command(entry.parse(["test-full"]), "py")[-1] == "--full"


def test_a_value_may_be_a_targets_name_and_help_wins_wherever_it_stands():
    """argparse reads the options; a file named `run` is still a file, and only the `run` that is the target passes
    what follows it on."""
    named_run = entry.parse(["--student", "run", "test", "SEED=2"])
    assert (named_run["student"], named_run["target"], named_run["rest"]) == ("run", "test", [])
    assert entry.parse(["--student", "run", "run", "-h"])["rest"] == ["-h"]
    assert entry.parse(["test", "-h"])["target"] == entry.parse(["--help", "chat"])["target"] == "help"


@pytest.mark.parametrize(
    "argv",
    [
        ["tset"],
        ["test", "--student"],
        ["test", "chat"],
        ["test", "--nope"],
        ["--make=1", "test"],
        ["test", "--student", "--make"],
        ["FOO=1", "test"],
    ],
)
def test_a_wrong_argument_gets_one_line_and_exit_code_2(argv):
    result = python("lab.py", *argv)
    assert result.returncode == 2 and result.stdout == ""
    assert len(result.stderr.splitlines()) == 1 and "python lab.py" in result.stderr


def test_help_without_make_names_the_windows_command_and_every_target():
    out = python("lab.py", "help").stdout
    for target in entry.target_names(LAB):
        assert f"python lab.py {target}" in out or target == "help"
    assert "py lab.py test" in out and "STUDENT=" in out and "LAB_LANG=en" in out


@pytest.mark.parametrize(
    "declare, refused",
    [
        (lambda: Target(name="serve", help="help.serve"), "names the module it runs"),
        (lambda: Target(name="test", help="help.test", module="lab09.chat.main"), "only its help line"),
        (lambda: Option(name="DEMO", flag="--demo", on=("1",), off=("0",)), "turn it on, or those that do not"),
        (lambda: dataclasses.replace(LAB, targets=LAB.targets * 2), "a target is declared twice"),
    ],
    ids=["own-without-module", "core-with-module", "switch-both-ways", "twice"],
)
def test_a_target_or_option_the_entry_could_not_run_is_refused_at_load(declare, refused):
    with pytest.raises(ValueError, match=refused):
        declare()


def test_make_help_lists_lab09s_own_chat_after_watch_and_its_options_line_under_the_targets():
    rows = make("help").stdout.splitlines()
    assert [row.split()[1] for row in rows[:7]] == ["test", "test", "watch", "chat", "test-full", "challenge", "clean"]
    assert rows[3].startswith("make chat [SEED=n]") and rows[7].startswith("chat: REWRITE=0 不改写")


def test_a_windows_run_waits_for_its_child_and_passes_its_exit_code_on(monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)  # run() moves to the lab; monkeypatch moves back
    monkeypatch.setattr(entry.os, "name", "nt")
    code = entry.run(
        sys.executable, [sys.executable, "-c", "import os, sys; sys.exit(3 if os.path.isfile('lab.py') else 4)"]
    )
    assert code == 3  # it ran in the lab, and its exit code came back


def test_the_student_file_and_tags_stay_what_task_md_shows():
    source = STUB.read_text(encoding="utf-8")
    assert "from framework.tags import ASSISTANT_TAG, END_TAG, SYSTEM_TAG, USER_TAG\n" in source
    assert 'if __name__ == "__main__":' in source
