"""Set-up and housekeeping: one clear line when the environment is wrong; `make clean` spares the student."""

import os
import shutil
import subprocess
import sys
import time
import venv
from pathlib import Path

import pytest

from conftest import LAB, ROOT, clean_env, make
from labkit.i18n import text
from labkit.spec import load

sys.path.insert(0, str(ROOT / "labkit"))
import setup_venv  # noqa: E402  (a stand-alone script, run by the system python3)


def test_python_without_pytest_gets_one_clear_line(tmp_path):
    venv.create(tmp_path / "bare", with_pip=False)
    result = make("test", f"PYTHON={tmp_path / 'bare' / 'bin' / 'python'}")
    assert result.returncode != 0
    assert result.stdout == "" and result.stderr.count("[setup]") == 1
    assert "pytest" in result.stderr and "pip install -r requirements.txt" in result.stderr


def test_missing_base_python_gets_one_clear_line(tmp_path):
    result = make("test", "BASE_PYTHON=no-such-python3", f"VENV={tmp_path / 'venv'}", this_python=False)
    assert result.returncode != 0
    assert "[setup]" in result.stderr and "no-such-python3" in result.stderr


def test_offline_install_says_what_it_does_then_gets_one_clear_line(tmp_path):
    """First run without a network, from a BASE_PYTHON whose path has a space: a progress line while the
    venv is made, then the reason."""
    spaced = tmp_path / "my python" / "python3"
    spaced.parent.mkdir()
    spaced.symlink_to(sys.executable)
    # an index that answers nothing, named the way a user names their own (pip's config, not ours, decides)
    env = clean_env(PIP_INDEX_URL="http://127.0.0.1:9/simple", PIP_CONFIG_FILE=os.devnull, PIP_FIND_LINKS="")
    started = time.monotonic()
    result = make(
        "test", f"VENV={tmp_path / 'v env'}", f"BASE_PYTHON={spaced}", env=env, timeout=300, this_python=False
    )
    assert time.monotonic() - started < 60  # a generous bound (idle: about 6 s); pip_environment keeps it short
    assert result.returncode != 0
    lines = [line for line in result.stderr.splitlines() if line.startswith("[setup]")]
    assert len(lines) == 2, result.stderr  # "first run: creating … installing …", then the one reason
    assert "首次运行" in lines[0] and "pytest" in lines[0]
    assert "PYTHON=/path/to/python" in lines[1] and "make test" in lines[1]
    assert "pip config set global.index-url" in lines[1]  # a mirror: the likelier fix than no network at all
    assert not (tmp_path / "v env" / setup_venv.STAMP).exists()


def test_pip_gives_up_after_one_retry_unless_the_user_said_otherwise():
    assert setup_venv.pip_environment({})["PIP_RETRIES"] == "1"
    mine = setup_venv.pip_environment({"PIP_RETRIES": "7", "PIP_TIMEOUT": "60", "PIP_INDEX_URL": "https://mirror"})
    assert (mine["PIP_RETRIES"], mine["PIP_TIMEOUT"], mine["PIP_INDEX_URL"]) == ("7", "60", "https://mirror")


def test_a_slow_step_shows_dots_and_its_last_line_is_kept(capsys):
    code, last = setup_venv.run_with_dots(
        [
            sys.executable,
            "-c",
            "import time; print('working'); time.sleep(2.5); "
            "print('ERROR: no network'); print('bye'); raise SystemExit(1)",
        ]
    )
    assert code == 1 and last == "ERROR: no network"  # pip's error line, not whatever came after it
    assert capsys.readouterr().err.count(".") >= 1


def test_the_venv_interpreter_is_found_on_windows_and_elsewhere(tmp_path):
    windows, posix = tmp_path / "win", tmp_path / "posix"
    (windows / "Scripts").mkdir(parents=True)
    (windows / "Scripts" / "python.exe").write_text("")
    (posix / "bin").mkdir(parents=True)
    (posix / "bin" / "python").write_text("")
    assert setup_venv.venv_python(str(windows)) == str(windows / "Scripts" / "python.exe")
    assert setup_venv.venv_python(str(posix)) == str(posix / "bin" / "python")


def test_a_venv_is_ready_only_once_stamped_after_requirements_changed(tmp_path):
    requirements = tmp_path / "requirements.txt"
    requirements.write_text("pytest\n")
    (tmp_path / "v" / "bin").mkdir(parents=True)
    (tmp_path / "v" / "bin" / "python").write_text("")
    assert not setup_venv.is_ready(str(tmp_path / "v"), str(requirements))
    (tmp_path / "v" / setup_venv.STAMP).write_text("ready\n")
    os.utime(requirements, (0, 0))
    assert setup_venv.is_ready(str(tmp_path / "v"), str(requirements))
    os.utime(requirements, None)
    os.utime(tmp_path / "v" / setup_venv.STAMP, (0, 0))
    assert not setup_venv.is_ready(str(tmp_path / "v"), str(requirements))


def test_too_old_python_is_named(monkeypatch, capsys):
    monkeypatch.setattr(sys, "version_info", (3, 8, 18, "final", 0))
    with pytest.raises(SystemExit):
        setup_venv.check_version()
    assert "3.10" in capsys.readouterr().err


def old_interpreters() -> list[str]:
    """The interpreters older than 3.10 this machine has (pyenv's, or python3.N on PATH), one per version."""
    found = {}
    root = shutil.which("pyenv") and subprocess.run(["pyenv", "root"], capture_output=True, text=True).stdout.strip()
    for version in ("2.7", "3.6", "3.7", "3.8", "3.9"):
        candidates = sorted(Path(root, "versions").glob(f"{version}.*/bin/python")) if root else []
        path = next((str(c) for c in candidates), None) or shutil.which(f"python{version}")
        if path:
            found[version] = path
    return list(found.values())


@pytest.mark.parametrize(
    "python", old_interpreters() or [None], ids=lambda path: Path(path).parent.parent.name if path else "none"
)
def test_an_old_python_gets_help_and_is_told_which_python_the_lab_needs(python):
    """`python3.9 lab.py help` crashed (KeyError: 'help.challenge': the lab's line, asked for with no spec loaded);
    help answers on any Python, and every other target says in one line which Python it needs."""
    if python is None:
        pytest.skip("no Python older than 3.10 here")
    helped = subprocess.run(
        [python, "lab.py", "help"], cwd=ROOT, env=clean_env(), capture_output=True, text=True, timeout=120
    )
    assert "Traceback" not in helped.stderr
    assert (helped.returncode, "lab.py test" in helped.stdout) == (0, True) or "3.10" in helped.stderr
    tested = subprocess.run(
        [python, "lab.py", "test"], cwd=ROOT, env=clean_env(), capture_output=True, text=True, timeout=120
    )
    assert tested.returncode != 0 and "Traceback" not in tested.stderr and "3.10" in tested.stderr


@pytest.mark.parametrize(
    "command",
    [["make", "--no-print-directory", "clean"], [sys.executable, "lab.py", "clean"]],
    ids=["make clean", "python lab.py clean"],
)
def test_clean_removes_run_artefacts_but_never_the_student_file_or_venv(tmp_path, command):
    lab = tmp_path / "lab"
    # dist/ is other tests' own; so is __pycache__, where their interpreters write and rename bytecode while it is copied
    shutil.copytree(ROOT, lab, ignore=shutil.ignore_patterns(".venv*", ".git", "dist", "__pycache__"))
    for leftover in ("framework/__pycache__", "tests/__pycache__", ".pytest_cache", "dist/lab09-step8/framework"):
        (lab / leftover).mkdir(parents=True, exist_ok=True)
    (lab / "framework" / "__pycache__" / "tags.cpython-311.pyc").write_bytes(b"\0")
    (lab / ".venv" / "lib" / "__pycache__").mkdir(parents=True)
    (lab / ".venv" / ".labkit-ready").write_text("ready\n")
    (lab / "grades").mkdir()
    (lab / "chat-session.html").write_text("<html></html>")
    student = (lab / "framework" / "student.py").read_bytes()
    # bytecode written, as on most machines: the spec clean loads for Lab.clean once left its own behind
    writes = {key: value for key, value in clean_env().items() if key != "PYTHONDONTWRITEBYTECODE"}
    result = subprocess.run(command, cwd=lab, env=writes, capture_output=True, text=True)
    assert result.returncode == 0 and result.stdout == ""
    assert all(".venv" in path.parts for path in lab.glob("**/__pycache__"))
    assert not (lab / ".pytest_cache").exists() and not (lab / "dist").exists() and (lab / "grades").exists()
    assert not (lab / "chat-session.html").exists()
    assert (lab / "framework" / "student.py").read_bytes() == student
    assert (lab / ".venv" / ".labkit-ready").exists() and (lab / ".venv" / "lib" / "__pycache__").exists()


def test_make_clean_takes_the_labs_leftover_files_from_the_venvs_note_else_from_the_spec(tmp_path, monkeypatch):
    """`make clean` runs before every `make test`: it reads Lab.clean from the note a run that loaded the spec left
    in the lab's venv (loading the spec would cost it 40 ms), and from the spec when the note is of another one."""
    from labkit import entry

    venv = tmp_path / ".venv"
    venv.mkdir()
    monkeypatch.setattr(entry, "ROOT", str(tmp_path))
    monkeypatch.setattr(entry.sys, "prefix", str(venv))  # this run's Python is the lab's venv
    monkeypatch.delenv("LAB_SPEC", raising=False)
    assert tuple(entry._leftovers()) == LAB.clean == ("chat-session.html",)  # no note yet: the spec's
    entry._remember_leftovers(LAB)
    assert (venv / "labkit-clean").read_text(encoding="utf-8") == "LAB_SPEC=\nchat-session.html\n"
    (venv / "labkit-clean").write_text("LAB_SPEC=\nnoted.html\n", encoding="utf-8")
    (tmp_path / "noted.html").write_text("x")
    entry.clean()
    assert not (tmp_path / "noted.html").exists()
    monkeypatch.setenv("LAB_SPEC", "toylab.spec")
    monkeypatch.setattr(entry, "_active_lab", lambda argv: load("toylab.spec"))  # what LAB_SPEC makes active
    assert tuple(entry._leftovers()) == ()  # the note is Lab09's: the toy's spec says


def test_help_lists_the_targets():
    out = make("help").stdout
    for target in ("make test", "make clean", "make check", "STUDENT=", "PYTHON=", "LAB_LANG=en"):
        assert target in out
    assert "python lab.py" not in out  # through make, the lines say make


def test_make_test_leaves_no_bytecode_beside_the_students_file(tmp_path):
    """The harness's bytecode is kept in the venv, so `make clean` does not cost a recompile and the student's
    folder shows only their files.  In a copy with a venv of its own (this interpreter's packages, through a .pth
    file): in the checkout, the other tests' processes write bytecode too."""
    lab = tmp_path / "lab"
    shutil.copytree(ROOT, lab, ignore=shutil.ignore_patterns(".venv*", ".git", "dist", "grades", "__pycache__"))
    venv.create(lab / ".venv", with_pip=False)
    python = lab / ".venv" / "bin" / "python"
    site = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    (Path(site) / "suite.pth").write_text("\n".join(path for path in sys.path if path.endswith("site-packages")) + "\n")
    env = {k: v for k, v in clean_env().items() if k not in ("PYTHONDONTWRITEBYTECODE", "PYTHONPYCACHEPREFIX")}
    tested = subprocess.run(
        ["make", "--no-print-directory", "test", "STUDENT=solutions/student.py", f"PYTHON={python}"],
        cwd=lab,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert tested.returncode == 0, tested.stdout + tested.stderr
    assert (lab / ".venv" / "pycache").is_dir()  # where the bytecode went
    for package in ("framework", "lab09", "lab09/chat", "labkit", "labkit/run"):
        assert not (lab / package / "__pycache__").exists(), package


def fake_venv(folder, version: str):
    """A venv that says it was made by Python `version` and whose interpreter runs this one (it has pytest;
    a script, since a link to a venv's python would take this pyvenv.cfg for its own)."""
    (folder / "bin").mkdir(parents=True)
    (folder / "bin" / "python").write_text(f'#!/bin/sh\nexec "{sys.executable}" "$@"\n')
    (folder / "bin" / "python").chmod(0o755)
    (folder / "pyvenv.cfg").write_text(f"home = /nowhere\nversion = {version}.0\n")
    (folder / setup_venv.STAMP).write_text("ready\n")
    return folder


def test_a_venv_of_another_python_is_named_in_one_line_and_still_used(tmp_path):
    """python3.13 lab.py with a .venv a 3.9 made: one line says so and how to switch; the run goes on."""
    venv = fake_venv(tmp_path / "old venv", "3.9")
    result = subprocess.run(
        [sys.executable, "lab.py", "test", f"VENV={venv}"],
        cwd=ROOT,
        env=clean_env(),
        capture_output=True,
        text=True,
        timeout=120,
    )
    lines = [line for line in result.stderr.splitlines() if line.startswith("[setup]")]
    this = "%d.%d" % sys.version_info[:2]
    assert lines == [
        f"[setup] {venv} 是 Python 3.9 建的，这次照样用它 (不是 Python {this})；要换成 {this}: "
        f'python lab.py test BASE_PYTHON="{sys.executable}"'
    ], result.stderr
    assert text("summary", "zh", passed=0, failed=len(LAB.selected("test"))) in result.stdout


def test_base_python_remakes_a_venv_of_another_python_and_keeps_it_when_that_fails(tmp_path):
    """BASE_PYTHON= used to be ignored while an older .venv existed.  Now it remakes the venv beside the old
    one; offline, the old one stays and is used, and the lines say why, how to point pip at a mirror, and
    how to switch by hand."""
    venv = fake_venv(tmp_path / "venv", "3.9")
    env = clean_env(PIP_INDEX_URL="http://127.0.0.1:9/simple", PIP_CONFIG_FILE=os.devnull, PIP_FIND_LINKS="")
    result = subprocess.run(
        [sys.executable, "lab.py", "test", f"VENV={venv}", f"BASE_PYTHON={sys.executable}"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    lines = [line for line in result.stderr.splitlines() if line.startswith("[setup]")]
    assert len(lines) == 3, result.stderr
    assert lines[0].startswith(
        f"[setup] {venv} 是 Python 3.9 建的，用 Python {'%d.%d' % sys.version_info[:2]} 重新创建"
    )
    assert "pip config set global.index-url" in lines[1] and str(venv) in lines[1]
    assert lines[2].startswith(f"[setup] 原来的 {venv} (Python 3.9) 没有动")
    assert text("summary", "zh", passed=0, failed=len(LAB.selected("test"))) in result.stdout  # the old venv ran them
    assert sorted(path.name for path in tmp_path.iterdir()) == ["venv"]  # no half-made venv left beside it


def test_a_remade_venv_takes_the_old_ones_place_only_when_complete(tmp_path, monkeypatch):
    venv = fake_venv(tmp_path / "venv", "3.9")
    made = []

    def create(target, requirements, command="make", replacing=None):
        os.makedirs(target)
        (tmp_path / target / "made").write_text("new\n")
        made.append(replacing)

    monkeypatch.setattr(setup_venv, "create", create)
    setup_venv.rebuild(str(venv), "requirements.txt")
    assert made == [(str(venv), "3.9")] and (venv / "made").exists()
    assert sorted(path.name for path in tmp_path.iterdir()) == ["venv"]
