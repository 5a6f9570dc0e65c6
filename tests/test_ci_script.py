""".ci/run: every CPython 3.10–3.13 found, once each, its own venv, non-zero on any failure; plain POSIX
shell, so macOS's bash 3.2 runs it (a test runs it with dash, which has no bash extensions at all)."""

import shutil
import stat
import subprocess

import pytest

from conftest import ROOT

SHELLS = [shutil.which(shell) for shell in ("bash", "dash") if shutil.which(shell)]


def executable(path, text: str) -> None:
    path.write_text("#!/bin/sh\n" + text)
    path.chmod(path.stat().st_mode | stat.S_IXUSR)


def fake_machine(tmp_path, failing: str = "") -> tuple:
    """A PATH with Pythons 3.9–3.13 (3.11 twice: pyenv's and python3.11), pyenv, and a make that logs."""
    bin_dir, log = tmp_path / "bin", tmp_path / "make.log"
    bin_dir.mkdir()
    for tool in ("dirname", "id"):  # all .ci/run needs from the system
        (bin_dir / tool).symlink_to(shutil.which(tool))
    for minor in (10, 11, 12, 13):
        executable(bin_dir / f"python3.{minor}", f'echo 3.{minor}\n')  # what the version probe prints
    executable(bin_dir / "python3", 'echo ""\n')  # a 3.9: the probe prints nothing
    versions = tmp_path / "pyenv" / "versions"
    for name, answer in (("3.11.7", "3.11"), ("3.8.18", "")):
        (versions / name / "bin").mkdir(parents=True)
        executable(versions / name / "bin" / "python3", f'echo "{answer}"\n')
    executable(
        bin_dir / "pyenv",
        f'case "$1" in root) echo "{tmp_path / "pyenv"}";; versions) echo 3.11.7; echo 3.8.18;; esac\n',
    )
    fail = f'case "$*" in *"/{failing} "*) exit 1;; esac\n' if failing else ""
    executable(bin_dir / "make", f'echo "$*" >> "{log}"\n' + fail)
    return str(bin_dir), log


@pytest.mark.parametrize("shell", SHELLS, ids=lambda path: path.rsplit("/", 1)[-1])
def test_ci_runs_make_check_once_per_minor_version_each_in_its_own_venv(tmp_path, shell):
    path, log = fake_machine(tmp_path)
    result = subprocess.run(
        [shell, str(ROOT / ".ci" / "run")], env={"PATH": path}, capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0, result.stderr
    calls = log.read_text().splitlines()
    assert [call.split("VENV=")[1] for call in calls] == [f".venv-ci-3.{minor}" for minor in (11, 10, 12, 13)]
    assert all(call.startswith("--no-print-directory check BASE_PYTHON=") for call in calls)
    assert str(tmp_path / "pyenv" / "versions" / "3.11.7") in calls[0]  # pyenv's 3.11 first, python3.11 not again


@pytest.mark.parametrize("shell", SHELLS, ids=lambda path: path.rsplit("/", 1)[-1])
def test_ci_fails_when_any_version_fails_and_still_runs_the_others(tmp_path, shell):
    path, log = fake_machine(tmp_path, failing="python3.12")
    result = subprocess.run(
        [shell, str(ROOT / ".ci" / "run")], env={"PATH": path}, capture_output=True, text=True, timeout=60
    )
    assert result.returncode != 0 and "FAILED with Python 3.12" in result.stderr
    assert len(log.read_text().splitlines()) == 4


def test_ci_uses_nothing_newer_than_bash_3_2():
    source = (ROOT / ".ci" / "run").read_text()
    for bash4 in ("declare -A", "local -A", "mapfile", "readarray", ",,}", "^^}", "|&", "&>>", "coproc", "${!"):
        assert bash4 not in source, bash4
