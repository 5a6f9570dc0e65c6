"""No student lost or misattributed on real exports (issue 27 item 7): what the held-out LMS checks found, each
rule held to the LMS's own code (the fact ids of the LMS formats reference: C1 Canvas's file names, G6 its Test
Student, S3 a Gradescope metadata file listing one user twice).  The fixtures are built here, in the test's temp
dir, from those facts."""

import csv
import json
import subprocess
import sys
import unicodedata

import pytest

from conftest import CLASS_LIMITS, ROOT, clean_env
from lms_fixtures import RIGHT, WRONG, canvas_gradebook, put
from labkit.instructor import config
from labkit.instructor.class_run import ClassOptions, grade_folder
from labkit.instructor.lms.layouts import canvas_slug, recognise
from labkit.instructor.lms.submissions import discover, gradescope_metadata

MAX_SCORE = config.load().max_score

# C1: Canvas writes `<sortable name, downcased, every non-[[:word:]] character deleted>_<user id>_<attachment>_<file>`;
# Ruby's [[:word:]] holds combining marks (Python's \w does not): ọ̀ is o + U+0323 + U+0300, and `İ` lower-cases to
# i + U+0307.  Canvas stores a name as it was typed (NFC, or NFD from a Mac): both must be read.
MARKED = {"100109": "Adébáyọ̀, Olúmídé", "100110": "Öztürk, İlayda"}
SLUGS = {
    "100109": "ad\u00e9b\u00e1y\u1ecd\u0300ol\u00fam\u00edd\u00e9",  # as Canvas wrote them
    "100110": "\u00f6zt\u00fcrki\u0307layda",
}


def marked_download(folder, form: str = "NFC"):
    files = {f"{unicodedata.normalize(form, SLUGS[user])}_{user}_5{user[-3:]}_student.py": RIGHT for user in MARKED}
    files["zhangwei_10001_50001_student.py"] = WRONG
    return put(folder, files)


@pytest.mark.parametrize("form", ["NFC", "NFD"])
def test_canvas_names_with_combining_marks_are_read_as_ruby_writes_them(tmp_path, form):
    """C1, C2: `adébáyọ̀olúmídé_100109_…` and `öztürki̇layda_100110_…` are Canvas entries keyed by their user
    ids (they were plain entries named after the whole file, so those two students had no row)."""
    assert [canvas_slug(MARKED[user]) for user in SLUGS] == list(SLUGS.values())
    assert canvas_slug("'other 567, guy 8'") == "other567guy8"
    assert canvas_slug("some_999_, _1234_guy") == "some9991234guy"
    folder = marked_download(tmp_path / "download", form)
    by_id = {s.student: s for s in discover(folder)}
    assert sorted(by_id) == ["10001", "100109", "100110"] and {s.layout for s in by_id.values()} == {"canvas"}
    assert by_id["100110"].name == unicodedata.normalize(form, SLUGS["100110"])
    assert recognise("other-567--guy-8_12_34_x.py", False).student == "12"  # C2: the older hyphenated slugs
    assert recognise("zhang wei_10001_50001_student.py", False) is None  # a space is no word character


def test_those_two_students_get_their_rows_in_the_gradebook(tmp_path):
    """With the gradebook as ROSTER=, both get their grade in canvas.csv, under their roster names."""
    folder = marked_download(tmp_path / "download")
    rows = [(name, user, f"u{user}", "A", "", "", "") for user, name in MARKED.items()]
    rows.append(("Zhang, Wei", "10001", "zw", "A", "", "", ""))
    (tmp_path / "gradebook.csv").write_bytes(canvas_gradebook(rows))
    run = grade_folder(
        folder, tmp_path / "out", CLASS_LIMITS, ClassOptions(jobs=2, roster_path=tmp_path / "gradebook.csv")
    )
    assert run.unmatched == []
    lines = (tmp_path / "out" / "canvas.csv").read_text("utf-8").splitlines()
    cells = {row["ID"]: row["Lab09 (4242)"] for row in csv.DictReader(lines[:1] + lines[2:])}
    assert cells["100109"] == cells["100110"] == "10" and cells["10001"] not in ("", "10")
    names = {record["student"]: record["name"] for record in run.records}
    assert names["100109"] == "Adébáyọ̀, Olúmídé" and names["100110"] == "Öztürk, İlayda"


def test_a_gradescope_user_listed_twice_seeds_that_user_once(tmp_path):
    """S3: a real submission_metadata.json lists one user id twice (with two due dates): the submission is that
    user's, seeded by that id alone ("3690678", not "3690678+3690678"), late by the first listing's due date; a
    group of two stays both."""
    user = {
        "id": 3690678,
        "email": "s@example.edu",
        "name": "S",
        "sid": "",
        "assignment": {"due_date": "2022-02-14T04:30:00.000000-08:00", "late_due_date": None},
    }
    metadata = {
        "id": 1,
        "created_at": "2022-02-14T19:51:39.947996-08:00",
        "previous_submissions": [],
        "assignment": {"due_date": "2022-02-14T04:30:00.000000-08:00", "total_points": "4"},
        "users": [user, dict(user, name="S Test", assignment={"due_date": "2022-02-16T04:30:00.000000-08:00"})],
    }
    path = tmp_path / "submission_metadata.json"
    path.write_text(json.dumps(metadata), encoding="utf-8")
    facts = gradescope_metadata(path)
    assert facts["student"] == "3690678" and facts["late"] is True and facts["attempt"] == 1
    metadata["users"][1]["id"] = 42
    path.write_text(json.dumps(metadata), encoding="utf-8")
    assert gradescope_metadata(path)["student"] == "3690678+42"


def test_canvas_test_student_is_graded_but_left_out_of_the_class_figures(tmp_path):
    """G6, C3: Canvas's Test Student (Student View; the download's `studenttest_3143_207797_…`, the gradebook's
    `Student, Test`) hands in like anyone: graded, in grades.csv, its gradebook row left as it was, and in none of
    the class's figures (counts, statuses, scores, pass rates, mistakes); named once in the terminal and the
    report.  It counted as a student of the class before."""
    folder = put(
        tmp_path / "download",
        {
            "studenttest_3143_207797_student.py": WRONG,
            "smithbob_340934_208490284_student.py": RIGHT,
            "wellslane_334244_394803489_student.py": RIGHT,
        },
    )
    rows = [
        ("Smith, Bob", "340934", "bob", "A", "", "", ""),
        ("Wells, Lane", "334244", "lane", "A", "", "", ""),
        ("Student, Test", "3143", "", "", "", "", ""),
    ]
    (tmp_path / "gradebook.csv").write_bytes(canvas_gradebook(rows))
    for roster in ([], ["--roster", str(tmp_path / "gradebook.csv")]):
        out = tmp_path / ("roster" if roster else "alone")
        result = subprocess.run(
            [sys.executable, "-m", "labkit.instructor.grade", str(folder), "--out", str(out), "--jobs", "2", *roster],
            cwd=ROOT,
            capture_output=True,
            text=True,
            env=clean_env(LAB_TIMEOUT="1"),
            timeout=300,
        )
        assert result.returncode == 0, result.stderr
        grades = {row["student"]: row for row in csv.DictReader(open(out / "grades.csv", encoding="utf-8"))}
        assert sorted(grades) == ["3143", "334244", "340934"] and int(grades["3143"]["score"]) < MAX_SCORE
        assert "Lab09: 2 份提交评分完成" in result.stdout and "全部运行完 2" in result.stdout
        # its slip: not the class's
        assert f"平均 {MAX_SCORE:.1f}" in result.stdout and "最常见的错误" not in result.stdout
        assert result.stdout.count("3143") == 1 and "Canvas 的测试学生 (Student View) 的提交 (3143)" in result.stdout
        page = (out / "report.html").read_text("utf-8")
        prose = page.split("id=students", 1)[0]
        assert "2 份提交，其中 2 份已评分" in prose and prose.count("3143") == 1 and "id=mistakes>" in prose
    lines = (tmp_path / "roster" / "canvas.csv").read_text("utf-8").splitlines()
    assert lines[-1] == "\"Student, Test\",3143,2023143,,,"  # its row as it was
