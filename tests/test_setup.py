"""Set-up and housekeeping: one clear line when the environment is wrong; `make clean` spares the student."""

import shutil
import subprocess
import sys
import venv

import pytest

from conftest import ROOT, clean_env, make

sys.path.insert(0, str(ROOT / "framework" / "harness"))
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


def test_offline_install_gets_one_clear_line(tmp_path):
    env = clean_env(PIP_NO_INDEX="1", PIP_CONFIG_FILE="/dev/null", PIP_FIND_LINKS="")
    result = make("test", f"VENV={tmp_path / 'venv'}", f"BASE_PYTHON={sys.executable}", env=env, timeout=300,
                  this_python=False)
    assert result.returncode != 0
    lines = [line for line in result.stderr.splitlines() if line.startswith("[setup]")]
    assert len(lines) == 2 and "PYTHON=/path/to/python" in lines[1]  # "first run…", then the one reason
    assert not (tmp_path / "venv" / ".lab09-ready").exists()


def test_too_old_python_is_named(monkeypatch, capsys):
    monkeypatch.setattr(sys, "version_info", (3, 8, 18, "final", 0))
    with pytest.raises(SystemExit):
        setup_venv.check_version()
    assert "3.10" in capsys.readouterr().err


def test_clean_removes_run_artefacts_but_never_the_student_file_or_venv(tmp_path):
    lab = tmp_path / "lab"
    shutil.copytree(ROOT, lab, ignore=shutil.ignore_patterns(".venv*", ".git"))
    for leftover in ("framework/__pycache__", "tests/__pycache__", ".pytest_cache"):
        (lab / leftover).mkdir(parents=True, exist_ok=True)
    (lab / ".venv" / "lib" / "__pycache__").mkdir(parents=True)
    (lab / ".venv" / ".lab09-ready").write_text("ready\n")
    student = (lab / "framework" / "student.py").read_bytes()
    result = subprocess.run(["make", "--no-print-directory", "clean"], cwd=lab, env=clean_env(),
                            capture_output=True, text=True)
    assert result.returncode == 0 and result.stdout == ""
    assert all(".venv" in path.parts for path in lab.glob("**/__pycache__"))
    assert not (lab / ".pytest_cache").exists()
    assert (lab / "framework" / "student.py").read_bytes() == student
    assert (lab / ".venv" / ".lab09-ready").exists() and (lab / ".venv" / "lib" / "__pycache__").exists()


def test_help_lists_the_targets():
    out = make("help").stdout
    for target in ("make test", "make clean", "make check", "STUDENT=", "PYTHON=", "LAB_LANG=en"):
        assert target in out
