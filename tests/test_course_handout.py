"""`make dist LAB=x`: a handout per lab of the course, laid out as Lab09's is, carrying its lab (no LAB or LAB_SPEC
needed or read), with only that lab's files and words, and a build that checks it in a student's environment."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import pytest

from conftest import CHECKOUT, ROOT, clean_env
from labkit import course
from labkit.i18n import text
from test_handout import copy_of_the_lab, git

pytestmark = CHECKOUT  # these tests build and read the checkout's dist/

SECOND = "lab10"
SECOND_ROOT = ROOT / course.labs()[SECOND][0]
HANDOUT = "lab10-step9"
WRONG_LAB = {"LAB": "lab09", "LAB_SPEC": "lab09.spec"}  # a shell that names another lab: the handout must not care


def dist(folder: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        ["make", "--no-print-directory", "dist", *args, f"PYTHON={sys.executable}"],
        cwd=folder,
        env=clean_env(),
        capture_output=True,
        text=True,
        timeout=600,
    )


def unpacked(archive: Path, into: Path) -> Path:
    with tarfile.open(archive) as tar:
        tar.extractall(into, **({"filter": "data"} if hasattr(tarfile, "data_filter") else {}))
    return into / HANDOUT


def student_shell(**overrides) -> dict:
    """A student's shell that names the wrong lab, with no course on its PYTHONPATH."""
    env = clean_env(PYTHONDONTWRITEBYTECODE="1", **{**WRONG_LAB, **overrides})
    env.pop("PYTHONPATH", None)
    return env


def test_the_second_labs_handout_works_alone_with_a_fresh_venv_and_the_wrong_lab_in_the_environment(tmp_path):
    built = dist(ROOT, f"LAB={SECOND}")
    assert built.returncode == 0, built.stderr
    handout = unpacked(ROOT / "dist" / f"{HANDOUT}.tar.gz", tmp_path)
    names = sorted(path.relative_to(handout).as_posix() for path in handout.rglob("*") if path.is_file())
    assert {
        "Makefile",
        "lab.py",
        "requirements.txt",
        "pytest.ini",
        "TASK.md",
        "TASK.en.md",
        "framework/student.py",
        "framework/api.py",
        "framework/verify.py",
        "lab10/spec.py",
        "lab10/serve.py",
    } <= set(names)
    assert not [
        name
        for name in names
        if name.split("/")[0] in ("labs", "solutions", "tests", "students")
        or "instructor" in name
        or name == "lab10/generated.py"
    ]
    lab09 = {name for name in names if name.startswith("lab09/")}  # only what Lab10's server imports of Lab09
    assert lab09 == {
        "lab09/__init__.py",
        "lab09/spec.py",
        "lab09/examples.py",
        "lab09/reference.py",
        "lab09/chat/__init__.py",
        "lab09/chat/tinylm.py",
        "lab09/chat/corpus.py",
        "lab09/chat/topics.txt",
    }
    assert (handout / "framework" / "student.py").read_bytes() == (
        SECOND_ROOT / "framework" / "student.py"
    ).read_bytes()
    assert "the eight cases" in (handout / "pytest.ini").read_text(encoding="utf-8")
    assert (handout / "Makefile").read_text(encoding="utf-8").startswith("# Lab10 · HTTP 服务 — ")
    assert 'LAB_SPEC = "lab10.spec"' in (handout / "framework" / "__init__.py").read_text(encoding="utf-8")

    base = getattr(sys, "_base_executable", sys.executable)  # a fresh venv, made by the handout's own make test
    stub = subprocess.run(
        ["make", "--no-print-directory", "test", f"BASE_PYTHON={base}"],
        cwd=handout,
        env=student_shell(),
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert (handout / ".venv").is_dir(), stub.stderr
    assert stub.returncode != 0 and text("summary", passed=0, failed=8) in stub.stdout.splitlines(), stub.stdout
    shutil.copy(SECOND_ROOT / "solutions" / "student.py", handout / "framework" / "student.py")
    solved = subprocess.run(
        ["make", "--no-print-directory", "test"],
        cwd=handout,
        env=student_shell(LAB="lab99"),
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert solved.returncode == 0 and text("summary", passed=8, failed=0) in solved.stdout.splitlines(), solved.stdout
    helped = subprocess.run(
        [sys.executable, "lab.py", "help"],
        cwd=handout,
        env=student_shell(),
        capture_output=True,
        text=True,
        timeout=120,
    ).stdout
    assert "python lab.py serve" in helped and "八个测试" in helped
    assert "lab09" not in helped and "LAB=" not in helped  # a handout is one lab: no list of the course's


def test_the_builds_check_refuses_a_handout_that_finds_its_lab_only_through_the_environment(tmp_path):
    """A handout whose framework/__init__.py does not fix its lab relied on the environment it was built in (the
    build's check used to inherit LAB_SPEC); the check now runs with the wrong lab named and refuses it."""
    from labkit.instructor import dist as build

    files, _ = build.handout_sources()
    files["framework/__init__.py"] = ((ROOT / "framework" / "__init__.py").read_bytes(), 0o644)  # not fixed
    folder = tmp_path / "handout"
    for name, (content, _) in files.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_bytes(content)
    with pytest.raises(build.Refused, match="no_such_lab"):
        build.check_baseline(folder, sys.executable, files)
    files, _ = build.handout_sources()  # as make dist writes it, it passes
    (folder / "framework" / "__init__.py").write_bytes(files["framework/__init__.py"][0])
    build.check_baseline(folder, sys.executable, files)


def test_an_uncommitted_lab_is_named_in_one_line(tmp_path):
    if subprocess.run(["git", "-C", str(ROOT), "rev-parse", "HEAD"], capture_output=True).returncode != 0:
        pytest.skip("the course is not a git checkout here")
    clone = copy_of_the_lab(tmp_path)
    git(clone, "rm", "-q", "--cached", "labs/lab10/TASK.en.md")
    git(clone, "commit", "-qm", "a lab's sheet not yet added")
    refused = dist(clone, f"LAB={SECOND}")
    said = [line for line in refused.stderr.splitlines() if not line.startswith("make: ***")]
    assert refused.returncode != 0 and said == [text("dist.not_committed", lab="Lab10", path="labs/lab10/TASK.en.md")]
    assert "fatal" not in refused.stderr and not (clone / "dist" / HANDOUT).exists()


def test_the_gradescope_bundle_of_a_lab_carries_that_lab_its_answer_key_and_its_course_file():
    made = subprocess.run(
        ["make", "--no-print-directory", "gradescope", f"LAB={SECOND}", f"BASE_PYTHON={sys.executable}"],
        cwd=ROOT,
        env=clean_env(),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert made.returncode == 0, made.stderr
    with zipfile.ZipFile(ROOT / "dist" / "gradescope-autograder.zip") as bundle:
        names = set(bundle.namelist())
        assert bundle.read("solutions/grading.ini") == (SECOND_ROOT / "solutions" / "grading.ini").read_bytes()
        assert bundle.read("solutions/student.py") == (SECOND_ROOT / "solutions" / "student.py").read_bytes()
        assert 'LAB_SPEC = "lab10.spec"' in bundle.read("framework/__init__.py").decode("utf-8")
        modes = {info.filename: info.external_attr >> 16 for info in bundle.infolist()}
    assert {"lab10/generated.py", "lab10/spec.py", "framework/api.py", "setup.sh", "run_autograder"} <= names
    assert "framework/student.py" not in names and not any(name.startswith("labs/") for name in names)
    assert modes["solutions/grading.ini"] == modes["solutions/student.py"] == 0o600
    os.unlink(ROOT / "dist" / "gradescope-autograder.zip")
