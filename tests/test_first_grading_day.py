"""A TA's first grading day (issue 29): inputs that are not a class are refused in one line that says what was
found and what to pass; the import line tells the truth; every roster row is accounted for; the column filled is
named (and a TITLE that matches none refused); late is said; the small things a TA tripped on.

The class is a realistic Canvas download (lms_fixtures.canvas_class: the facts C1–C6, G1–G7 of the LMS formats
reference) laid out as a TA's folder holds it: the gradebook export, submissions/ and the course's variants/."""

import csv
import json
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import CLASS_LIMITS, ROOT, clean_env, make
from lms_fixtures import CANVAS_ROWS, RIGHT, canvas_class, canvas_gradebook, put, zip_bytes


def grade(*args: str, **env) -> subprocess.CompletedProcess:
    """The grader as make runs it (python -m labkit.instructor.grade), from the lab's folder."""
    return subprocess.run([sys.executable, "-m", "labkit.instructor.grade", *args, "--jobs", "2"], cwd=ROOT,
                          capture_output=True, text=True, env=clean_env(LAB_TIMEOUT="1", **env), timeout=300)


def own_lines(stderr: str) -> list[str]:
    """What the grader said on stderr, without make's own `make: *** …` line."""
    return [line for line in stderr.splitlines() if not line.startswith("make")]


@pytest.fixture
def ta_folder(tmp_path):
    """class/canvas/: gradebook.csv, submissions/ (the download unzipped) and variants/ (the course's own)."""
    canvas = tmp_path / "class" / "canvas"
    canvas_class(canvas / "submissions")
    (canvas / "gradebook.csv").write_bytes(canvas_gradebook(CANVAS_ROWS))
    put(canvas / "variants", {"a/student.py": RIGHT, "b/student.py": RIGHT})
    return canvas


# --- SUBMISSIONS that are not a class (item 3) ------------------------------------------------------------------

def test_a_download_one_level_down_is_named_instead_of_graded(ta_folder, tmp_path):
    """It graded three "students" (submissions, variants and the gradebook), exited 0 and said ready to import:
    now one line names what it found and the download one level down, exit 2, nothing written."""
    result = grade(str(ta_folder), "--out", str(tmp_path / "out"), "--roster", str(ta_folder / "gradebook.csv"))
    assert result.returncode == 2 and not (tmp_path / "out").exists()
    [line] = own_lines(result.stderr)
    assert line.startswith(f"SUBMISSIONS: {ta_folder} 里 (gradebook.csv, submissions, variants) 没有一个条目像 LMS")
    assert line.endswith(f"是不是要给 {ta_folder / 'submissions'}?")
    english = grade(str(ta_folder), "--out", str(tmp_path / "out"), LAB_LANG="en")
    assert f"did you mean {ta_folder / 'submissions'}?" in english.stderr and english.returncode == 2
    zipped = put(tmp_path / "zipped", {"gradebook.csv": (ta_folder / "gradebook.csv").read_bytes(),
                                       "submissions.zip": zip_bytes({path.name: path.read_bytes() for path in
                                                                     (ta_folder / "submissions").iterdir()})})
    result = grade(str(zipped), "--out", str(tmp_path / "out"))
    assert result.returncode == 2 and own_lines(result.stderr)[0].endswith(f"{zipped / 'submissions.zip'}?")
    assert grade(str(ta_folder / "submissions"), "--out", str(tmp_path / "out")).returncode == 0  # what it meant


def test_a_path_that_does_not_exist_is_shown_as_resolved_without_a_usage_dump(tmp_path):
    """`make -C lab grade SUBMISSIONS=class` with a relative path: about ten lines of usage before; now one line
    that says it does not exist and where it was looked for."""
    result = subprocess.run(["make", "--no-print-directory", "-C", str(ROOT), "grade", "SUBMISSIONS=no/such/class",
                             f"OUT={tmp_path / 'out'}", f"PYTHON={sys.executable}"], capture_output=True, text=True,
                            env=clean_env(), timeout=120)
    assert result.returncode != 0 and own_lines(result.stderr) == [
        f"SUBMISSIONS: no/such/class 不存在 (从当前文件夹算起是 {ROOT / 'no' / 'such' / 'class'})"]
    absolute = grade(str(tmp_path / "gone"), LAB_LANG="en")
    assert own_lines(absolute.stderr) == [f"SUBMISSIONS: {tmp_path / 'gone'} does not exist"]


@pytest.mark.parametrize("files", [{}, {"marks.csv": "id,mark\n", "notes/todo.md": "-", "report.pdf": "%PDF"}],
                         ids=["empty", "no-code-anywhere"])
def test_a_folder_where_nothing_looks_like_a_submission_is_refused(tmp_path, files):
    """An empty folder, or one with no .py or archive anywhere in it: graded as students with no code (or as
    nobody), exit 0, before; now one line naming what it holds."""
    folder = put(tmp_path / "class", files)
    folder.mkdir(exist_ok=True)
    result = grade(str(folder), "--out", str(tmp_path / "out"))
    assert result.returncode == 2 and not (tmp_path / "out").exists()
    [line] = own_lines(result.stderr)
    found = "marks.csv, notes, report.pdf" if files else "—"
    assert line.startswith(f"SUBMISSIONS: {folder} 里没有像提交的东西") and f"找到的: {found})" in line
    put(folder, {"alice/lab/student.py": RIGHT})  # one student's code, two folders down: a class
    assert grade(str(folder), "--out", str(tmp_path / "out")).returncode == 0


def test_a_file_that_is_not_a_zip_is_refused_in_one_line(tmp_path):
    (tmp_path / "alice.py").write_bytes(RIGHT)
    result = grade(str(tmp_path / "alice.py"), LAB_LANG="en")
    assert result.returncode == 2 and own_lines(result.stderr) == [
        f"SUBMISSIONS: {tmp_path / 'alice.py'} is a file, neither a class's folder nor an LMS download's .zip: pass "
        "the folder that holds the class's submissions, or that .zip"]
