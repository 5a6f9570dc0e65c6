"""LMS downloads become one row per student: Canvas, Moodle, Blackboard, attempts, helpers, archives, gradebooks.

The shapes come from the facts of the LMS formats reference, cited by id (C1–C7 Canvas downloads, G1–G7 its
gradebook, M1–M7 Moodle downloads, W1–W5 its grading worksheet, B1–B3 Blackboard, A1–A3 archives); the
fixtures that build them are in lms_fixtures.py.  The downloads hold Lab09's files: how an LMS lays out a class is
the grader's alone, which no spec enters; what recognises a misnamed upload (a lab's graded functions) runs for
each lab of conftest.LABS."""

import csv
import gzip
import io
import json
import shutil
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import pytest

from conftest import CHECKOUT, CLASS_LIMITS, LABS, ROOT, SOLUTION, STUB, STUDENTS, clean_env, make, without_level_line
from lms_fixtures import (
    CANVAS_ROWS,
    MOODLE_45,
    MOODLE_NAMES,
    RIGHT,
    WRONG as WRONG_BYTES,
    blackboard_class,
    canvas_class,
    canvas_gradebook,
    gbk_zip,
    moodle_45_class,
    moodle_45_worksheet,
    moodle_import,
    put,
    spout_csv,
    worksheet_row,
    zip_bytes,
)
from labkit.instructor import config
from labkit.instructor.outputs import feedback, roster
from labkit.instructor.class_run import ClassOptions, grade_folder
from labkit.instructor.config import course_settings
from labkit.instructor.lms.submissions import discover
from labkit.spec import load

MAX_SCORE = config.load().max_score  # full marks of the grading scheme (solutions/grading.ini)

WRONG = STUDENTS / "wrong"
HELPER_USER = "from helper import format_prompt, extract_response  # the work is in helper.py\n"


def zip_of(path: Path, files: dict) -> Path:
    with zipfile.ZipFile(path, "w") as bundle:
        for name, content in files.items():
            bundle.writestr(name, content)
    return path


def tar_of(path: Path, files: dict) -> Path:
    with tarfile.open(path, "w:gz") as tar:
        for name, content in files.items():
            info = tarfile.TarInfo(name)
            info.size = len(content)
            tar.addfile(info, io.BytesIO(content))
    return path


def canvas_export(folder: Path) -> Path:
    """What Canvas's "Download submissions" gives, unzipped: <name>[_LATE]_<user>_<attachment>_<file>."""
    folder.mkdir()
    solution, stub = SOLUTION.read_bytes(), STUB.read_bytes()
    (folder / "zhangwei_10001_50001_student.py").write_bytes((WRONG / "first_not_last.py").read_bytes())
    (folder / "zhangwei_10001_50009_student-1.py").write_bytes(solution)  # the same file again, renamed (C6)
    (folder / "lisi_LATE_10002_50002_student.py").write_bytes(solution)
    (folder / "wangfang_10003_50003_student.py").write_text(HELPER_USER, encoding="utf-8")
    (folder / "wangfang_10003_50004_helper.py").write_bytes(solution)
    zip_of(folder / "zhaolei_10004_50005_lab09.zip", {"lab09/student.py": solution, "lab09/backup/student.py": stub})
    tar_of(
        folder / "chenjing_10005_50006_lab09.tar.gz",
        {
            "lab09-step8/framework/student.py": solution,
            "lab09-step8/framework/tags.py": b"",
            "lab09-step8/Makefile": b"test:\n",
        },
    )
    (folder / "liuyang_10006_text.html").write_text("<p>我的答案在这里</p>", encoding="utf-8")
    return folder


@pytest.fixture(scope="module")
def canvas(tmp_path_factory):
    root = tmp_path_factory.mktemp("canvas")
    run = grade_folder(canvas_export(root / "submissions"), root / "out", CLASS_LIMITS, ClassOptions(jobs=2))
    return root, {record["student"]: record for record in run.records}


def test_a_canvas_export_gives_one_row_per_student_keyed_by_the_canvas_id(canvas):
    root, records = canvas
    assert sorted(records) == ["10001", "10002", "10003", "10004", "10005", "10006"]
    rows = {row["student"]: row for row in csv.DictReader(open(root / "out" / "grades.csv", encoding="utf-8"))}
    # C6: only the current submission is zipped, so student.py and student-1.py are one upload's copies of one
    # file: one attempt, and the newest copy (the highest number) counts, not first_not_last
    assert rows["10001"]["name"] == "zhangwei" and rows["10001"]["attempt"] == "1"
    assert rows["10001"]["score"] == str(MAX_SCORE) and rows["10001"]["files"] == "student-1.py"
    assert rows["10002"]["late"] == "1" and rows["10001"]["late"] == "0"
    assert rows["10003"]["score"] == str(MAX_SCORE) and rows["10003"]["files"] == "student.py; helper.py"
    assert rows["10004"]["score"] == str(MAX_SCORE) and rows["10004"]["files"] == "lab09.zip/lab09/student.py"
    assert rows["10005"]["score"] == str(MAX_SCORE)
    assert rows["10005"]["files"] == "lab09.tar.gz/lab09-step8/framework/student.py"
    assert rows["10006"]["status"] == "no_student_py"
    assert rows["10006"]["late"] == "0"  # C1, C3: a text entry carries the LATE marker too; without it, on time


def test_every_decision_about_a_students_files_is_stated_in_their_feedback(canvas):
    root, _ = canvas
    feedback = {
        path.stem: without_level_line(path.read_text(encoding="utf-8"))
        for path in (root / "out" / "feedback").iterdir()
    }
    assert "student.py, student-1.py 是同一次上传里同一个文件的几个副本" in feedback["10001"]
    assert "测试的是编号最大、最新的 student-1.py" in feedback["10001"] and "一共提交了" not in feedback["10001"]
    assert "测试的是 lab09.zip/lab09/student.py；lab09.zip/lab09/backup/student.py 在备份文件夹里" in feedback["10004"]
    assert "helper.py" in feedback["10003"].split("\n\n")[0]
    assert "在线文本不是代码" in feedback["10006"] and "text.html" in feedback["10006"]  # says what was found
    late, rest = feedback["10002"].split("\n\n", 1)  # C1: it came late, and this grader took nothing off for it
    assert late == "这次提交迟交了 (LMS 是这样标的)；评分程序没有因此扣分，课程的迟交规则 (如果有) 由 LMS 处理。"
    assert rest.startswith("=== Prompt")  # nothing to decide: exactly what make test-full prints


def test_the_best_attempt_counts_when_asked(tmp_path):
    """B1: Blackboard's download holds one entry per attempt; ATTEMPT=best chooses among those attempts."""
    folder = tmp_path / "class"
    folder.mkdir()
    (folder / "Lab 09_zw123_attempt_2024-03-01-10-00-00_student.py").write_bytes(SOLUTION.read_bytes())
    (folder / "Lab 09_zw123_attempt_2024-03-02-10-00-00_student.py").write_bytes((WRONG / "no_trim.py").read_bytes())
    latest = grade_folder(folder, tmp_path / "latest", CLASS_LIMITS).records[0]
    best = grade_folder(
        folder, tmp_path / "best", CLASS_LIMITS, ClassOptions(course=course_settings(attempt="best"))
    ).records[0]
    assert (latest["attempt"], best["attempt"]) == (2, 1) and latest["score"] < best["score"] == MAX_SCORE
    assert latest["attempts"] == best["attempts"] == 2


def test_a_moodle_export_ignores_online_text_and_keys_by_participant_id(tmp_path):
    folder = tmp_path / "moodle"
    files = folder / "Zhang Wei_1234567_assignsubmission_file_"
    files.mkdir(parents=True)
    shutil.copy(SOLUTION, files / "student.py")
    text_only = folder / "Zhang Wei_1234567_assignsubmission_onlinetext_"
    text_only.mkdir()
    (text_only / "onlinetext.html").write_text("<p>see my file</p>", encoding="utf-8")
    li = folder / "Li Si_1234568_assignsubmission_file_"
    li.mkdir()
    zip_of(li / "lab.zip", {"lab/framework/student.py": (WRONG / "no_cut_end.py").read_bytes()})
    (folder / "Wang Fang_1234569_assignsubmission_file_student.py").write_bytes(SOLUTION.read_bytes())  # flat
    run = grade_folder(folder, tmp_path / "out", CLASS_LIMITS, ClassOptions(jobs=2))
    records = {r["student"]: r for r in run.records}
    assert sorted(records) == ["1234567", "1234568", "1234569"]
    assert records["1234567"]["name"] == "Zhang Wei" and records["1234567"]["score"] == MAX_SCORE
    assert records["1234568"]["score"] < MAX_SCORE and records["1234568"]["status"] == "ok"
    assert records["1234569"]["score"] == MAX_SCORE
    assert any("在线文本" in note for note in records["1234567"]["notes"])


def test_a_blackboard_export_names_students_from_its_receipts(tmp_path):
    folder = tmp_path / "blackboard"
    folder.mkdir()
    first, second = "Lab 09_zw123_attempt_2024-03-01-10-00-00", "Lab 09_zw123_attempt_2024-03-02-09-30-00"
    (folder / f"{first}_student.py").write_bytes((WRONG / "no_trim.py").read_bytes())
    (folder / f"{second}_student.py").write_bytes(SOLUTION.read_bytes())
    for stem in (first, second):
        (folder / f"{stem}.txt").write_text("Name: Zhang Wei (zw123)\nAssignment: Lab 09\n", encoding="utf-8")
    (folder / "Lab 09_ls_9_attempt_2024-03-01-11-00-00_student.py").write_bytes(SOLUTION.read_bytes())
    run = grade_folder(folder, tmp_path / "out", CLASS_LIMITS, ClassOptions(jobs=2))
    records = {r["student"]: r for r in run.records}
    assert sorted(records) == ["ls_9", "zw123"]
    assert records["zw123"]["name"] == "Zhang Wei" and records["zw123"]["attempt"] == 2
    assert records["zw123"]["score"] == MAX_SCORE


def test_what_cannot_be_resolved_says_what_was_found(tmp_path):
    folder = tmp_path / "class"
    (folder / "twins" / "a").mkdir(parents=True)
    (folder / "twins" / "b").mkdir()
    for side in "ab":
        shutil.copy(SOLUTION, folder / "twins" / side / "student.py")
    (folder / "essay").mkdir()
    (folder / "essay" / "report.docx").write_bytes(b"PK")
    (folder / "essay" / "notes.md").write_text("todo", encoding="utf-8")
    (folder / "renamed").mkdir()
    shutil.copy(SOLUTION, folder / "renamed" / "lab9_answer.py")
    by_id = {s.student: s for s in discover(folder)}
    assert by_id["twins"].status == "several_student_py" and by_id["twins"].found == ("a/student.py", "b/student.py")
    assert by_id["essay"].status == "no_student_py" and by_id["essay"].found == ("notes.md", "report.docx")
    assert by_id["renamed"].gradable and by_id["renamed"].notes[0][0] == "note.renamed"


def defining(functions) -> str:
    return "".join(f"def {name}(value):\n    return value\n\n\n" for name in functions)


def test_a_misnamed_file_counts_when_it_defines_the_labs_graded_functions(lab, tmp_path):
    """What recognises the student file under another name is a top-level `def` of one of the graded functions
    of the lab being graded (Lab.graded_functions): another lab's functions, or the lab's indented in a class, are
    not its work."""
    others = {name for module in LABS.values() for name in load(module).graded_functions} - set(lab.functions)
    assert others, "the labs of conftest.LABS share every function: nothing tells them apart"
    folder = put(
        tmp_path / "class",
        {
            "solution/answer.py": lab.solution_path.read_bytes(),
            "first_only/answer.py": defining(lab.graded_functions[:1]),
            "last_only/answer.py": "import os\n\n" + defining(lab.graded_functions[-1:]),
            "another_lab/answer.py": defining(sorted(others)),
            "in_a_class/answer.py": "class Work:\n    " + defining(lab.graded_functions).replace("\n", "\n    "),
        },
    )
    by_id = {s.student: s for s in discover(folder)}
    for student in ("solution", "first_only", "last_only"):
        assert by_id[student].gradable and by_id[student].notes[0][0] == "note.renamed", student
    for student in ("another_lab", "in_a_class"):
        assert by_id[student].status == "no_student_py" and by_id[student].found == ("answer.py",), student


# --- archives are read safely --------------------------------------------------------------------


def test_archives_never_follow_links_or_climb_out_and_stay_bounded(tmp_path):
    folder = tmp_path / "class"
    folder.mkdir()
    outside = tmp_path / "outside"
    outside.mkdir()
    with tarfile.open(folder / "links.tar.gz", "w:gz") as tar:
        link = tarfile.TarInfo("student.py")
        link.type, link.linkname = tarfile.SYMTYPE, str(SOLUTION)
        tar.addfile(link)
        for name in ("../outside/evil.py", "/tmp/evil.py"):
            info = tarfile.TarInfo(name)
            info.size = 4
            tar.addfile(info, io.BytesIO(b"x=1\n"))
    with zipfile.ZipFile(folder / "zlink.zip", "w") as bundle:
        info = zipfile.ZipInfo("student.py")
        info.external_attr = 0o120777 << 16
        bundle.writestr(info, str(SOLUTION))
        bundle.writestr("../../outside/student.py", SOLUTION.read_bytes())
    bomb = folder / "bomb.tar.gz"
    with open(bomb, "wb") as raw, gzip.GzipFile(fileobj=raw, mode="wb") as packed:
        header = tarfile.TarInfo("data.bin")
        header.size = 256 << 20
        packed.write(header.tobuf())
        zeros = bytes(1 << 20)
        for _ in range(256):
            packed.write(zeros)
    assert bomb.stat().st_size < 2 << 20
    before = sorted(p for p in tmp_path.rglob("*"))
    by_id = {s.student: s for s in discover(folder)}
    assert sorted(p for p in tmp_path.rglob("*")) == before  # nothing was extracted anywhere
    assert by_id["links"].status == "no_student_py" and "links.tar.gz/student.py (link)" in by_id["links"].found
    assert by_id["zlink"].status == "no_student_py" and "zlink.zip/student.py (link)" in by_id["zlink"].found
    assert by_id["bomb"].status == "bad_archive"


def test_zip_names_written_by_windows_tools_in_gbk_are_read(tmp_path):
    folder = tmp_path / "class"
    folder.mkdir()
    raw = io.BytesIO()
    with zipfile.ZipFile(raw, "w") as bundle:
        bundle.writestr("placeholder_name_here/student.py", SOLUTION.read_bytes())
    data = raw.getvalue().replace(b"placeholder_name_here", "作业九".encode("gbk").ljust(21, b"_"))
    (folder / "wei.zip").write_bytes(data)
    submission = discover(folder)[0]
    assert submission.gradable and submission.attempts[0].files[0].startswith("wei.zip/作业九")


# --- gradebooks ------------------------------------------------------------------------------------

CANVAS_ROSTER = (
    "Student,ID,SIS User ID,SIS Login ID,Section,Lab08 (4241),Lab09 (4242),Current Score,Final Score\n"
    "    Points Possible,,,,,10.00,10.00,(read only),(read only)\n"
    '"Zhang, Wei",10001,2023001,zhangwei,CS101-A,9,,90,90\n'
    '"Li, Si",10002,2023002,lisi,CS101-A,8,,80,80\n'
    '"Wang, Fang",10003,2023003,wangfang,CS101-B,10,,100,100\n'
    '"Zhao, Lei",10004,2023004,zhaolei,CS101-B,7,,70,70\n'
    '"Chen, Jing",10005,2023005,chenjing,CS101-B,7,,70,70\n'
    '"Liu, Yang",10006,2023006,liuyang,CS101-B,7,,70,70\n'
    '"Absent, Student",10008,2023008,absent,CS101-B,0,,0,0\n'
)


def test_a_canvas_gradebook_export_becomes_an_importable_canvas_csv(tmp_path):
    folder = canvas_export(tmp_path / "class")
    (folder / "stranger_10099_50100_student.py").write_bytes(SOLUTION.read_bytes())
    roster = tmp_path / "gradebook.csv"
    roster.write_bytes(b"\xef\xbb\xbf" + CANVAS_ROSTER.encode("utf-8"))
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "labkit.instructor.grade",
            str(folder),
            "--out",
            str(tmp_path / "out"),
            "--roster",
            str(roster),
            "--jobs",
            "2",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env=clean_env(LAB_TIMEOUT="1"),
        timeout=300,
    )
    assert result.returncode == 0, result.stderr
    written = (tmp_path / "out" / "canvas.csv").read_bytes()
    assert written.startswith(b"\xef\xbb\xbf")  # G5: the BOM read is written back
    lines = written.decode("utf-8-sig").splitlines()
    assert lines[0] == "Student,ID,SIS User ID,SIS Login ID,Section,Lab09 (4242)"
    assert lines[1] == "    Points Possible,,,,,10.00"  # G3: as Canvas wrote it
    points = {row["ID"]: row["Lab09 (4242)"] for row in csv.DictReader(lines)}
    assert points == {
        "": "10.00",
        "10001": "10",
        "10002": "10",
        "10003": "10",
        "10004": "10",
        "10005": "10",
        "10006": "0",
        "10008": "",
    }  # 10006 handed in no code: 0; 10008 nothing: blank
    assert "名单里找不到的提交 (1): 10099 (100/100, stranger_10099_50100_student.py)" in result.stdout
    assert f"结果: {tmp_path / 'out'}/grades.csv、grades.json、report.html、feedback/、canvas.csv" in result.stdout
    assert result.stdout.splitlines()[-1] == (  # issue 29: never "ready to import" with a submission left out
        "canvas.csv 已写出，但还不能直接导入: 1 份提交在名单里找不到，它们的成绩没有写进去 (10099 (100/100, "
        "stranger_10099_50100_student.py))"
    )
    assert "canvas.csv: 写的是 Lab09 (4242) 这一列 (满分 10.00)" in result.stdout
    assert "名单 7 行 = 写了成绩 5 + 没有可运行的代码、写了 0 分 1 + 没有提交 1" in result.stdout
    assert "  没有提交、保持原样 (1): Absent, Student (10008)" in result.stdout
    assert "10099" in (tmp_path / "out" / "report.html").read_text(encoding="utf-8").split('id=unmatched')[1]
    # the roster names its students: its names, not the file names' slugs, in every output
    names = {
        row["student"]: row["name"] for row in csv.DictReader(open(tmp_path / "out" / "grades.csv", encoding="utf-8"))
    }
    assert names == {
        "10001": "Zhang, Wei",
        "10002": "Li, Si",
        "10003": "Wang, Fang",
        "10004": "Zhao, Lei",
        "10005": "Chen, Jing",
        "10006": "Liu, Yang",
        "10099": "stranger",
    }  # 10099: no row, its slug
    document = json.loads((tmp_path / "out" / "grades.json").read_text(encoding="utf-8"))
    assert {record["student"]: record["name"] for record in document["students"]} == names
    page = (tmp_path / "out" / "report.html").read_text(encoding="utf-8").split("id=students")[1]
    assert "<td>Zhang, Wei</td>" in page and "<td>zhangwei</td>" not in page


MOODLE_WORKSHEET = (
    "Identifier,Full name,Email address,Status,Grade,Maximum Grade,Grade can be changed,"
    "Last modified (submission),Online text,Last modified (grade),Feedback comments\n"
    "Participant 1234567,Zhang Wei,zw@example.edu,Submitted for grading,,20.00,Yes,"
    '"Monday, 4 March 2024, 10:00 AM",,-,\n'
    "Participant 1234568,Li Si,ls@example.edu,No submission,,20.00,Yes,-,,-,\n"
    "Participant 1234569,=HYPERLINK(1),evil@example.edu,Submitted for grading,,20.00,Yes,-,,-,\n"
)


@pytest.mark.parametrize("header", ["en", "zh"])
def test_a_moodle_worksheet_gets_its_grade_column_filled(tmp_path, header):
    folder = tmp_path / "moodle"
    for pid, source in (("1234567", SOLUTION), ("1234569", WRONG / "no_trim.py")):
        (folder / f"Someone_{pid}_assignsubmission_file_").mkdir(parents=True)
        shutil.copy(source, folder / f"Someone_{pid}_assignsubmission_file_" / "student.py")
    worksheet = MOODLE_WORKSHEET
    if header == "zh":
        worksheet = (
            worksheet.replace("Identifier", "识别码")
            .replace("Maximum Grade", "最高成绩")
            .replace(",Grade,", ",成绩,")
            .replace("Participant ", "参与者")
        )
    roster = tmp_path / "worksheet.csv"
    roster.write_text(worksheet, encoding="utf-8")
    run = grade_folder(folder, tmp_path / "out", CLASS_LIMITS, ClassOptions(roster_path=roster))
    assert run.unmatched == []
    names = {
        row["student"]: row["name"] for row in csv.DictReader(open(tmp_path / "out" / "grades.csv", encoding="utf-8"))
    }
    assert names == {"1234567": "Zhang Wei", "1234569": "'=HYPERLINK(1)"}  # the worksheet's, not "Someone"
    if header == "en":  # the roster's names change nothing from one run to the next
        grade_folder(folder, tmp_path / "again", CLASS_LIMITS, ClassOptions(roster_path=roster))
        assert all(
            (tmp_path / "out" / name).read_bytes() == (tmp_path / "again" / name).read_bytes()
            for name in ("grades.csv", "grades.json", "report.html", "moodle.csv")
        )
    rows = list(csv.reader(open(tmp_path / "out" / "moodle.csv", encoding="utf-8")))
    assert rows[0] == next(csv.reader(io.StringIO(worksheet)))
    grade = rows[0].index("Grade" if header == "en" else "成绩")
    score = next(r["score"] for r in run.records if r["student"] == "1234569")
    assert [row[grade] for row in rows[1:]] == ["20", "", f"{score * 20 / MAX_SCORE:g}"]
    assert rows[3][1] == "'=HYPERLINK(1)"  # no spreadsheet formula, even from a roster


def test_a_roster_that_is_neither_says_so_before_grading(tmp_path):
    folder = tmp_path / "class"
    folder.mkdir()
    shutil.copy(SOLUTION, folder / "alice.py")
    (tmp_path / "list.csv").write_text("name,grade\nalice,\n", encoding="utf-8")
    result = make("grade", f"SUBMISSIONS={folder}", f"OUT={tmp_path / 'out'}", f"ROSTER={tmp_path / 'list.csv'}")
    assert result.returncode != 0 and "既不是 Canvas" in result.stderr and not (tmp_path / "out").exists()


# --- Gradescope: the same reading of files -----------------------------------------------------------


def gradescope(tmp_path, files: dict, metadata: dict | None = None, **env) -> dict:
    submission = tmp_path / "submission"
    submission.mkdir()
    for name, content in files.items():
        (submission / name).write_bytes(content)
    if metadata is not None:
        (tmp_path / "submission_metadata.json").write_text(json.dumps(metadata), encoding="utf-8")
    results = tmp_path / "results" / "results.json"
    subprocess.run(
        [
            sys.executable,
            "-m",
            "labkit.instructor.grade",
            "--gradescope",
            "--submission",
            str(submission),
            "--results",
            str(results),
        ],
        cwd=ROOT,
        check=True,
        env=clean_env(**env),
        timeout=300,
    )
    return json.loads(results.read_text(encoding="utf-8"))


@pytest.mark.parametrize(
    "files",
    [
        {"student (1).py": SOLUTION.read_bytes()},
        {"lab.zip": None},
        {"lab.tar.gz": None},
        {"student.py": HELPER_USER.encode(), "helper.py": SOLUTION.read_bytes()},
    ],
    ids=["renamed-copy", "zip", "tar.gz", "helper"],
)
def test_gradescope_accepts_what_make_grade_accepts(tmp_path, files):
    if "lab.zip" in files:
        files = {
            "lab.zip": zip_of(tmp_path / "x.zip", {"lab/framework/student.py": SOLUTION.read_bytes()}).read_bytes()
        }
    if "lab.tar.gz" in files:
        files = {"lab.tar.gz": tar_of(tmp_path / "x.tgz", {"lab/student.py": SOLUTION.read_bytes()}).read_bytes()}
    document = gradescope(tmp_path, files)
    assert document["score"] == MAX_SCORE, document["output"]


def test_gradescope_reads_late_and_attempts_and_speaks_english_on_request(tmp_path):
    metadata = {
        "id": 1,
        "created_at": "2024-03-02T10:00:00.000000-08:00",
        "assignment": {"due_date": "2024-03-01T23:59:00.000000-08:00", "total_points": "100.0"},
        "users": [{"email": "s@example.edu", "id": 7, "name": "S"}],
        "previous_submissions": [
            {"submission_time": "2024-03-01T10:00:00.000000-08:00", "score": 100.0},
            {"submission_time": "2024-03-01T11:00:00.000000-08:00", "score": 40.0},
        ],
    }
    document = gradescope(
        tmp_path,
        {"student.py": (WRONG / "no_trim.py").read_bytes()},
        metadata,
        LAB_LANG="en",
        LAB_ATTEMPT="best",
        LAB_VISIBILITY="after_due_date",
    )
    assert document["output_format"] == "text" and document["visibility"] == "after_due_date"
    assert document["extra_data"]["late"] is True and document["extra_data"]["attempt"] == 3
    assert "This is attempt 3." in document["output"] and "after the due date" in document["output"]
    assert document["score"] == 100.0 and "earlier best, 100, is kept" in document["output"]
    assert all(t["visibility"] == "after_due_date" and t["output_format"] == "text" for t in document["tests"])
    assert all(t["name"].isascii() for t in document["tests"])  # English names, not the Chinese ones


@CHECKOUT  # dist/ of the checkout
def test_the_gradescope_bundle_updates_package_lists_before_installing():
    setup = [
        line.strip()
        for line in (ROOT / "labkit" / "instructor" / "gradescope" / "setup.sh").read_text().splitlines()
        if line.strip().startswith("apt-get")
    ]
    assert setup[0] == "apt-get update" and setup[1].startswith("apt-get install")
    result = make("gradescope", env=clean_env(LAB_LANG="en"))
    assert result.returncode == 0
    with zipfile.ZipFile(ROOT / "dist" / "gradescope-autograder.zip") as bundle:
        runner = bundle.read("run_autograder").decode()
    assert "export LAB_LANG=en" in runner and "--metadata /autograder/submission_metadata.json" in runner
    assert make("gradescope").returncode == 0  # rebuilt with the defaults: no other test sees English


# --- issue 15 finding 5 and 10: inspecting files before grading is a bounded scan, never a parse -------------


def _parse_bomb(files: int = 20, size: int = 1 << 20) -> bytes:
    """Finding 5's archive: ~22 KB holding twenty 1 MiB files of `a\\n` lines and no student.py."""
    raw = io.BytesIO()
    with zipfile.ZipFile(raw, "w", zipfile.ZIP_DEFLATED) as bundle:
        for index in range(files):
            bundle.writestr(f"f{index}.py", b"a\n" * (size // 2))
    return raw.getvalue()


def test_inspecting_a_parse_bomb_compiles_nothing_in_the_grader(tmp_path, monkeypatch):
    """Finding 5: looking for the lab's functions in twenty 1 MiB files ast.parse'd each (2.6 s, 0.9 GB each)
    in the grader's own process; now nothing of a student's is parsed or compiled before grading."""
    import ast
    import builtins

    folder = tmp_path / "class"
    folder.mkdir()
    (folder / "bomb.zip").write_bytes(_parse_bomb())
    (folder / "helpers").mkdir()
    (folder / "helpers" / "student.py").write_text("import helper\n", encoding="utf-8")
    (folder / "helpers" / "helper.py").write_text("import other\n", encoding="utf-8")
    (folder / "helpers" / "other.py").write_text("x = 1\n", encoding="utf-8")

    parsed = []
    real_parse, real_compile = ast.parse, builtins.compile
    with monkeypatch.context() as patch:  # counted, not refused: pytest itself parses once the test is over
        patch.setattr(ast, "parse", lambda *args, **kwargs: parsed.append(args[1:2]) or real_parse(*args, **kwargs))
        patch.setattr(
            builtins, "compile", lambda *args, **kwargs: parsed.append(args[1:2]) or real_compile(*args, **kwargs)
        )
        by_id = {s.student: s for s in discover(folder)}
    assert parsed == []
    assert by_id["bomb"].status == "no_student_py" and len(by_id["bomb"].found) == 9  # 8 named, "… +12"
    assert by_id["helpers"].attempts[0].files == ("student.py", "helper.py", "other.py")  # imports still followed


def test_one_budget_per_student_however_many_uploads_and_archives(tmp_path, monkeypatch):
    """Finding 5: each archive inside a folder had a budget of its own, so Moodle's 20 uploads per student gave
    20 budgets (≈ 50 min of parsing); now one student's entries and nested archives share one budget, and an
    archive beyond what is left is skipped and said so (M1's folder of uploads)."""
    from labkit.instructor.lms import archives

    monkeypatch.setattr(archives, "MAX_INFLATED", (3 << 20) + (64 << 10))  # student.py and three uploads
    folder = tmp_path / "moodle" / "Bob Jones_1873401_assignsubmission_file"
    for index in range(20):
        put(folder, {f"upload{index:02d}.zip": _parse_bomb(files=4, size=256 << 10)})  # 1 MiB inflated each
    put(folder, {"student.py": RIGHT})
    bob = discover(tmp_path / "moodle")[0]
    assert bob.gradable and bob.attempts[0].files == ("student.py",)
    skipped = next(fields["files"] for key, fields in bob.notes if key == "note.skipped")
    assert "upload02.zip" not in skipped and skipped.startswith("upload03.zip, upload04.zip")
    assert "… +9" in skipped  # all seventeen beyond the budget are listed as skipped


def test_nothing_compiled_in_the_grader_warns_on_its_terminal(tmp_path):
    """Finding 10: with Python 3.12+ scanning a helper's imports printed a SyntaxWarning per invalid escape,
    with the raw BEL/ESC/BS bytes of the student's source, on the instructor's terminal."""
    import warnings

    folder = put(
        tmp_path / "class",
        {
            "alice/student.py": "from helper import format_prompt, extract_response\n",
            "alice/helper.py": "".join(f'x{i} = "\\{c}"\n' for i, c in enumerate("\x07\x1b\x08q" * 75)),
        },
    )
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        alice = discover(folder)[0]
    assert alice.attempts[0].files == ("student.py", "helper.py")
    assert [str(w.message) for w in caught] == []


# --- archives as students make them (A1–A3) ---------------------------------------------------------------


def test_archives_from_windows_and_macos_are_read_as_their_makers_meant(tmp_path):
    """A1: PowerShell 5.1 writes `\\` separators; A2: Chinese Windows writes GBK names without the UTF-8 flag;
    A3: macOS adds __MACOSX/._* and .DS_Store.  The student's folder is read with its real name, the
    AppleDouble copy is no student.py, and neither litters what the feedback lists."""
    windows = zip_bytes({"lab09\\": b"", "lab09\\student.py": RIGHT, "lab09\\backup\\student.py": WRONG_BYTES})
    mac = zip_bytes(
        {
            "lab09/student.py": RIGHT,
            "__MACOSX/lab09/._student.py": b"\x00\x05\x16\x07 junk",
            "lab09/.DS_Store": b"\x00\x00\x00\x01Bud1",
            "lab09/._student.py": b"\x00\x05\x16\x07",
        }
    )
    chinese = gbk_zip({"作业九/student.py": RIGHT, "作业九/备份/student.py": WRONG_BYTES})
    folder = put(
        tmp_path / "class",
        {"wei.zip": windows, "mac.zip": mac, "li.zip": chinese, "empty/.DS_Store": b"Bud1", "empty/notes.md": "todo"},
    )
    by_id = {s.student: s for s in discover(folder)}
    assert by_id["wei"].attempts[0].files == ("wei.zip/lab09/student.py",)
    assert by_id["mac"].attempts[0].files == ("mac.zip/lab09/student.py",) and by_id["mac"].notes == ()
    assert by_id["li"].attempts[0].files == ("li.zip/作业九/student.py",)
    assert (
        "note.chose_backup",
        {"chosen": "li.zip/作业九/student.py", "others": "li.zip/作业九/备份/student.py"},
    ) in by_id["li"].notes
    assert by_id["empty"].found == ("notes.md",)  # .DS_Store is not the student's work
    from labkit.instructor.one_submission import grade_submission

    said = feedback.feedback_text(grade_submission(by_id["li"], CLASS_LIMITS, config.load()))
    assert "测试的是 li.zip/作业九/student.py；li.zip/作业九/备份/student.py 在备份文件夹里" in said


# --- issue 16: every shape of the facts, one row per student keyed by the LMS's id -------------------------


@pytest.fixture(scope="module")
def moodle(tmp_path_factory):
    root = tmp_path_factory.mktemp("moodle45")
    folder = moodle_45_class(root / "download")
    (root / "Grades-CS101-Lab09-42.csv").write_bytes(moodle_45_worksheet())
    run = grade_folder(
        folder, root / "out", CLASS_LIMITS, ClassOptions(jobs=2, roster_path=root / "Grades-CS101-Lab09-42.csv")
    )
    return root, run, {record["student"]: record for record in run.records}


def test_a_moodle_45_download_gives_one_row_per_participant_id(moodle):
    """M1, M2: every folder shape, flat mode and blind marking, keyed by the participant id; M6: the online
    text is no second row; M5: the renamed second upload is the one graded; the worksheet's names (W1)."""
    _, run, records = moodle
    assert sorted(records) == [f"18734{n:02d}" for n in range(1, 10)] and run.unmatched == []
    right = {"1873401", "1873402", "1873404", "1873405", "1873407", "1873408", "1873409"}
    assert {student for student, record in records.items() if record["score"] == MAX_SCORE} == right
    assert records["1873404"]["files"] == ["student (1).py"] and records["1873404"]["attempts"] == 1
    assert records["1873402"]["files"] == ["lab/student.py"]
    assert {student: record["name"] for student, record in records.items()} == {
        pid: name for pid, name in MOODLE_NAMES.items() if pid in records
    }  # the two Li Wei apart by id
    assert any("在线文本" in note for note in records["1873401"]["notes"])


def test_moodle_lateness_comes_from_the_worksheets_status(moodle):
    """W3: the download has no late marker, so the worksheet's Status says it: late (or a draft still not
    submitted when due), on time; the row of a student who handed in nothing keeps no grade."""
    _, _, records = moodle
    assert {student: record["late"] for student, record in records.items()} == {
        "1873401": True,
        "1873402": False,
        "1873403": True,
        "1873404": False,
        "1873405": True,
        "1873406": False,
        "1873407": False,
        "1873408": False,
        "1873409": False,
    }


def test_moodle_csv_is_what_upload_grading_worksheet_accepts(moodle):
    """Done when: for a Moodle 4.5 download with its worksheet, moodle.csv has the same columns and the same
    identifiers, the grade in the Grade column for every graded student, every other byte as Moodle wrote it
    (W5), so its "Upload grading worksheet" takes it."""
    root, _, records = moodle
    written = (root / "out" / "moodle.csv").read_bytes()
    grades = moodle_import(written)
    assert grades == {student: record["score"] * 20 / MAX_SCORE for student, record in records.items()}
    original = moodle_45_worksheet().split(b"\n")
    lines = written.split(b"\n")
    assert len(lines) == len(original) and lines[0] == original[0]  # the BOM and the header as read
    grade = MOODLE_45.index("Grade")
    for before, after in zip(original[1:], lines[1:]):
        cells_before, cells_after = next(csv.reader([before.decode()]), []), next(csv.reader([after.decode()]), [])
        assert cells_after[:grade] + cells_after[grade + 1 :] == cells_before[:grade] + cells_before[grade + 1 :]
        if cells_after and cells_after[grade] == cells_before[grade]:
            assert after == before  # untouched rows are byte-identical
    assert b'"Good start - see me"' in written and b"Participant 1873410" in written


@pytest.fixture(scope="module")
def canvas_semicolons(tmp_path_factory):
    """G5: `;` separators and decimal commas, with a BOM; G2: a Manual Posting row before Points Possible."""
    root = tmp_path_factory.mktemp("canvas_semicolons")
    folder = canvas_class(root / "download")
    gradebook = root / "gradebook.csv"
    gradebook.write_bytes(
        canvas_gradebook(CANVAS_ROWS, separator=";", bom=True, manual=True, decimal=",", points="7.00")
    )
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "labkit.instructor.grade",
            str(folder),
            "--out",
            str(root / "out"),
            "--roster",
            str(gradebook),
            "--jobs",
            "2",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env=clean_env(LAB_TIMEOUT="1"),
        timeout=300,
    )
    assert result.returncode == 0, result.stderr
    records = {r["student"]: r for r in json.loads((root / "out" / "grades.json").read_text("utf-8"))["students"]}
    return root, result.stdout, records


def test_a_canvas_download_gives_one_row_per_canvas_id_with_late_from_its_marker(canvas_semicolons):
    """C1–C6: one row per user id or anonymous id, LATE read from the file name (C1, C4), a text or URL entry
    is no code (C3), the renamed re-upload counts (C6), the two Li Wei apart."""
    _, _, records = canvas_semicolons
    assert sorted(records) == [
        "10001",
        "10002",
        "10004",
        "10005",
        "10006",
        "10007",
        "10008",
        "10009",
        "10010",
        "10011",
        "10012",
        "anon_Bc4Dm",
        "anon_Xq3Kp",
    ]
    assert {s for s, r in records.items() if r["score"] == MAX_SCORE} == {
        "10001",
        "10002",
        "10004",
        "10005",
        "10006",
        "10009",
        "10011",
        "10012",
        "anon_Xq3Kp",
    }
    assert {s: r["late"] for s, r in records.items() if r["late"]} == {"10002": True, "anon_Bc4Dm": True}
    assert records["10001"]["late"] is False and records["10007"]["late"] is False  # Canvas marks late ones
    assert records["10007"]["status"] == records["10008"]["status"] == "no_student_py"
    assert any("link.html" in note for note in records["10008"]["notes"])
    assert records["10001"]["files"] == ["student-1.py"] and records["10001"]["attempts"] == 1
    assert records["10004"]["name"] == "O'Brien, Seán" and records["10005"]["name"] == "张, 伟"  # the roster's


def test_a_canvas_group_entry_is_graded_once_and_says_who_else_needs_the_grade(canvas_semicolons):
    """C5: the entry named after the group is keyed by its representative's id; the feedback, the report and
    the terminal say it is a group's, whose other members get the grade in Canvas."""
    root, stdout, records = canvas_semicolons
    assert records["10006"]["team"] == "group0" and records["10006"]["score"] == MAX_SCORE
    assert any("小组 group0 的提交" in note for note in records["10006"]["notes"])
    assert "小组提交 (1)" in stdout and "10006 (group0)" in stdout
    assert "小组 group0 的提交" in (root / "out" / "feedback" / "10006.txt").read_text("utf-8")
    assert "小组 group0 的提交" in (root / "out" / "report.html").read_text("utf-8")


def test_canvas_csv_keeps_the_separator_decimal_mark_and_cells_it_must_not_touch(canvas_semicolons):
    """G5: written back with `;`, decimal commas and the BOM read; G3: Points Possible as read; G2: no Manual
    Posting row; G4: EX and N/A left as they were; G6: the Test Student never given a grade; anonymous ids
    (C4) are not in the gradebook and are listed, with what to do."""
    root, stdout, records = canvas_semicolons
    written = (root / "out" / "canvas.csv").read_bytes()
    assert written.startswith(b"\xef\xbb\xbf")
    lines = written.decode("utf-8-sig").splitlines()
    assert lines[0] == "Student;ID;SIS User ID;SIS Login ID;Section;Lab09 (4242)"
    assert lines[1] == "    Points Possible;;;;;7,00" and "Manual Posting" not in written.decode("utf-8")
    cells = {row["ID"]: row["Lab09 (4242)"] for row in csv.DictReader(lines, delimiter=";")}
    score = {
        s: f"{r['score'] * 7 / MAX_SCORE:.2f}".rstrip("0").rstrip(".").replace(".", ",") for s, r in records.items()
    }
    assert cells == {
        "": "7,00",
        "10001": "7",
        "10002": "7",
        "10004": "7",
        "10005": "7",
        "10006": "7",
        "10007": "0",
        "10008": "0",
        "10009": "7",
        "10010": score["10010"],
        "10012": "EX",
        "10013": "N/A",
        "10011": "",
    }
    assert "," in score["10010"]  # a fraction, written with the decimal comma read
    late = records["anon_Bc4Dm"]["score"]  # a wrong file's score: as the spec's points give it
    assert (
        f"名单里找不到的提交 (2): anon_Bc4Dm ({late:g}/100, LATE_anon_Bc4Dm_50004_student.py), anon_Xq3Kp (100/100, "
        "anon_Xq3Kp_50003_student.py)"
        in stdout
        and "SpeedGrader" in stdout
    )
    assert "  EX (免交)、保持原样 (1): Excused, Edd (10012)" in stdout
    assert "  N/A (看不到这个作业)、保持原样 (1): Hidden, Hal (10013)" in stdout
    assert stdout.count("10011") == 1 and "Canvas 的测试学生 (Student View) 的提交 (10011) 照样评了分" in stdout  # G6


def test_blackboard_user_names_come_from_receipts_in_any_language(tmp_path):
    """B1: one dated entry per attempt and a receipt each; B3: user names with `_` and `.`; B2: the first line
    names the student in any language, and comments below it that look like fields change nothing; a
    submission typed into the Submission Field has only its receipt."""
    folder = blackboard_class(tmp_path / "blackboard")
    by_id = {s.student: s for s in discover(folder)}
    assert sorted(by_id) == ["li_si_2", "o.neill", "wei.zhang"]
    assert by_id["wei.zhang"].name == "Wei Zhang" and len(by_id["wei.zhang"].attempts) == 2
    assert by_id["li_si_2"].name == "Li Si" and len(by_id["li_si_2"].attempts) == 1
    assert by_id["o.neill"].status == "no_student_py" and by_id["o.neill"].name == "Aoife O'Neill"
    assert ("lms.note.receipt_only", {}) in by_id["o.neill"].notes
    assert all(s.late is None for s in by_id.values())  # Blackboard's download says nothing of the due date


def test_moodle_team_submissions_are_graded_once_per_group(tmp_path):
    """M1: with team submissions each group's folder is `<group>_<group id>`, or `Default group` with no id,
    and the worksheet has a Group column; the group's row is keyed by its id, matches no participant, and
    the feedback and terminal say its members get the grade in Moodle."""
    folder = put(
        tmp_path / "download",
        {"Team A_42_assignsubmission_file/student.py": RIGHT, "Default group_assignsubmission_file/student.py": RIGHT},
    )
    header = MOODLE_45[:4] + ["Group"] + MOODLE_45[4:]
    rows = [header] + [
        row[:4] + [group] + row[4:]
        for row, group in (
            (worksheet_row("2001", "Zhang Wei", "Submitted for grading"), "Team A"),
            (worksheet_row("2002", "Li Si", "Submitted for grading"), "Team A"),
            (worksheet_row("2003", "Wang Fang", "Submitted for grading"), "Default group"),
        )
    ]
    (tmp_path / "worksheet.csv").write_bytes(spout_csv(rows))
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "labkit.instructor.grade",
            str(folder),
            "--out",
            str(tmp_path / "out"),
            "--roster",
            str(tmp_path / "worksheet.csv"),
            "--jobs",
            "1",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env=clean_env(LAB_TIMEOUT="1"),
        timeout=300,
    )
    assert result.returncode == 0, result.stderr
    records = {r["student"]: r for r in json.loads((tmp_path / "out" / "grades.json").read_text("utf-8"))["students"]}
    assert sorted(records) == ["42", "Default group"] and records["42"]["team"] == "Team A"
    assert "小组提交 (2)" in result.stdout and "42 (Team A)" in result.stdout
    assert "小组 Team A 的提交" in (tmp_path / "out" / "feedback" / "42.txt").read_text("utf-8")
    assert moodle_import((tmp_path / "out" / "moodle.csv").read_bytes()) == {}  # no participant got it
    # M2: Moodle 3.x wrote one folder per member, `<group>-<full name>_<participant id>_…_/`: keyed by the member
    old = put(tmp_path / "moodle3", {"Team A-Zhang Wei_2001_assignsubmission_file_/student.py": RIGHT})
    member = discover(old)[0]
    assert (member.student, member.name, member.team) == ("2001", "Team A-Zhang Wei", "")
    assert roster.prepare(roster.load(tmp_path / "worksheet.csv"), [member])[0].name == "Team A-Zhang Wei"


def records_of(*rows) -> list[dict]:
    """Records as grading writes them, for gradebook tests that need no grading: (student, layout, score)."""
    return [
        {"student": student, "layout": layout, "name": name, "status": "ok", "score": score, "max_score": MAX_SCORE}
        for student, layout, score, name in rows
    ]


@pytest.mark.parametrize("variant", ["comma", "first-last", "no-sis"])
def test_canvas_gradebook_variants_are_read_and_written_back_as_they_came(tmp_path, variant):
    """G1: `LastName, FirstName` instead of `Student`, with or without `SIS User ID`; G5: no BOM, `,`."""
    options = {"comma": {}, "first-last": {"first_last": True}, "no-sis": {"sis": False}}[variant]
    path = tmp_path / "gradebook.csv"
    path.write_bytes(canvas_gradebook(CANVAS_ROWS, **options))
    book = roster.load(path)
    assert (book.kind, book.delimiter, book.decimal, book.bom) == ("canvas", ",", ".", False)
    matched, unmatched = roster.match(
        book, records_of(("10001", "canvas", 75, "zhangwei"), ("10099", "canvas", 100, "stranger"))
    )
    name, content = roster.export(book, matched, course_settings())
    header, points, *rows = list(csv.reader(io.StringIO(content)))
    student = {"comma": ["Student"], "first-last": ["LastName", "FirstName"], "no-sis": ["Student"]}[variant]
    assert header == student + ["ID"] + ([] if variant == "no-sis" else ["SIS User ID"]) + [
        "SIS Login ID",
        "Section",
        "Lab09 (4242)",
    ]
    assert points[0] == "    Points Possible" and points[-1] == "10.00" and unmatched == ["10099"]
    assert {row[header.index("ID")]: row[-1] for row in rows}["10001"] == "7.5"
    assert roster.named(book, records_of(("10001", "canvas", 75, "zhangwei")), matched)[0]["name"] == "Zhang, Wei"


MOODLE_HEADERS_OF = {  # W4: the worksheet's header words in every language of the facts
    "en-4.x": ("Identifier", "Full name", "Status", "Grade", "Maximum Grade", "Last modified (grade)", "Participant "),
    "en-4.5": ("Identifier", "Full name", "Status", "Grade", "Maximum grade", "Last modified (grade)", "Participant "),
    "zh_cn-4.5": ("标识符", "全名", "状态", "成绩", "最高分", "上次修改（评分）", "参与人"),
    "zh_cn-3.x": ("识别码", "全名", "状态", "成绩", "最高成绩", "最后修改（教师）", "参与者"),
    "de": (
        "ID",
        "Vollständiger Name",
        "Status",
        "Bewertung",
        "Bestwertung",
        "Zuletzt geändert (Bewertung)",
        "Teilnehmer/in",
    ),
    "fr": (
        "Identifiant",
        "Nom complet",
        "Statut",
        "Note",
        "Note maximale",
        "Dernière modification (note)",
        "Participant ",
    ),
    "es": (
        "Identificador",
        "Nombre completo",
        "Estado",
        "Calificación",
        "Calificación máxima",
        "Última modificación (calificación)",
        "Participante ",
    ),
}
MOODLE_LATE_OF = {  # W3: "Submitted for grading - <time> late" as each language pack writes it
    "en-4.x": ("Submitted for grading - 2 hours 13 mins late", "Submitted for grading - Graded"),
    "en-4.5": ("Submitted for grading - 2 hours 13 mins late", "Submitted for grading"),
    "zh_cn-4.5": ("已提交请评分 - 迟47 分钟", "已提交请评分 - 已评分"),
    "zh_cn-3.x": ("已经提交 - 47 分钟之后", "已经提交"),
    "de": ("Zur Bewertung abgegeben - 2 Stunden 13 Minuten zu spät", "Zur Bewertung abgegeben - Bewertet"),
    "fr": ("Remis pour évaluation - En retard de 2 heures 13 min", "Remis pour évaluation"),
    "es": ("Enviado para calificar - 2 horas 13 minutos después", "Enviado para calificar - Calificado"),
}


@pytest.mark.parametrize("language", sorted(MOODLE_HEADERS_OF))
def test_moodle_worksheets_in_every_language_are_read_by_meaning(tmp_path, language):
    """W4: the columns found by what they mean in each language, the grade written in the Grade column with the
    worksheet's decimal mark (de and fr: `8,50`), lateness read from Status (W3), everything else unchanged."""
    identifier, name, status, grade, maximum, modified, hidden = MOODLE_HEADERS_OF[language]
    comma = language in ("de", "fr")
    late, on_time = MOODLE_LATE_OF[language]
    header = [identifier, name, "Email", status, grade, maximum, modified]
    rows = [header] + [
        [f"{hidden}{pid}", who, f"{pid}@example.edu", state, "", "20,00" if comma else "20.00", "-"]
        for pid, who, state in (("301", "Zhang Wei", late), ("302", "Li Si", on_time))
    ]
    path = tmp_path / "worksheet.csv"
    path.write_bytes(spout_csv(rows))
    book = roster.load(path)
    assert book.kind == "moodle" and book.decimal == ("," if comma else ".")
    records = records_of(("301", "moodle", 75, "Zhang Wei"), ("302", "moodle", 100, "Li Si"))
    assert [roster.late(book, row) for row in range(2)] == [True, False]
    matched, unmatched = roster.match(book, records)
    written = list(csv.reader(io.StringIO(roster.export(book, matched, course_settings())[1].lstrip("\ufeff"))))
    assert unmatched == [] and written[0] == header
    assert [row[4] for row in written[1:]] == (["15", "20"])
    assert [row[:4] + row[5:] for row in written[1:]] == [row[:4] + row[5:] for row in rows[1:]]
    rows[1][5] = "17,25" if comma else "17.25"  # a maximum with a fraction: the grade keeps the decimal mark
    path.write_bytes(spout_csv(rows))
    book = roster.load(path)
    out = roster.export(book, roster.match(book, records)[0], course_settings())[1]
    assert ("12,94" if comma else "12.94") in out


@pytest.mark.parametrize(
    "content, says",
    [
        ("name,grade\nalice,\n", "既不是 Canvas"),
        (
            "Identifier,Full name,Status,Punkte,Höchstpunkte\nParticipant 1,A,x,,10\n",
            "分不清哪一列是 grade, maximum；找到的列: Identifier, Full name, Status, Punkte, Höchstpunkte",
        ),
        (
            "Student,ID,SIS Login ID,Section,Lab09 (4242)\n    Points Possible,,,,10.00\n\"Zhang, Wei\",10001,zw,A,,5\n",
            "第 3 行有 6 个单元格，表头有 5 个",
        ),
        (
            "Student,ID,SIS Login ID,Section,Lab09 (4242)\n\"Zhang, Wei\",10001,zw,A,\n\"Li, Si\",10001,ls,A,\n",
            "ID 列不是每行一个不同的编号 (10001)",
        ),
    ],
    ids=["neither", "unclear-columns", "shifted-row", "repeated-id"],
)
def test_a_gradebook_that_cannot_be_trusted_is_refused_in_one_line_before_grading(tmp_path, content, says):
    """Build 2: a file that is not a gradebook of the kind expected, whose columns cannot be told apart, or
    that would be written shifted is refused in one line, naming what it found, before anything is graded."""
    folder = put(tmp_path / "class", {"alice.py": RIGHT})
    (tmp_path / "list.csv").write_text(content, encoding="utf-8")
    result = make("grade", f"SUBMISSIONS={folder}", f"OUT={tmp_path / 'out'}", f"ROSTER={tmp_path / 'list.csv'}")
    assert result.returncode != 0 and says in result.stderr and not (tmp_path / "out").exists()
    assert len([line for line in result.stderr.splitlines() if not line.startswith("make")]) == 1, result.stderr


def test_a_gradebook_of_another_lms_is_refused_before_grading(tmp_path):
    folder = put(tmp_path / "download", {"zhangwei_10001_50001_student.py": RIGHT})
    (tmp_path / "worksheet.csv").write_bytes(moodle_45_worksheet())
    with pytest.raises(roster.RosterError, match="Moodle 的成绩册|moodle 的成绩册"):
        grade_folder(folder, tmp_path / "out", CLASS_LIMITS, ClassOptions(roster_path=tmp_path / "worksheet.csv"))
    assert not (tmp_path / "out").exists()


def test_a_grade_never_lands_on_another_student_of_the_same_name(tmp_path):
    """Build 3, the misattribution case: the worksheet lacks participant 123 but has another Li Wei (456).
    Matching fell back to the name and gave 456 the grade of 123's file; now 123 is listed as unmatched,
    456's row keeps no grade, and the terminal names 123, not 456."""
    folder = put(tmp_path / "download", {"Li Wei_123_assignsubmission_file/student.py": RIGHT})
    rows = [MOODLE_45, worksheet_row("456", "Li Wei", "No submission", maximum="20.00")]
    (tmp_path / "worksheet.csv").write_bytes(spout_csv(rows))
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "labkit.instructor.grade",
            str(folder),
            "--out",
            str(tmp_path / "out"),
            "--roster",
            str(tmp_path / "worksheet.csv"),
            "--jobs",
            "1",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env=clean_env(LAB_TIMEOUT="1"),
        timeout=300,
    )
    assert result.returncode == 0, result.stderr
    assert moodle_import((tmp_path / "out" / "moodle.csv").read_bytes()) == {}
    assert "名单里找不到的提交 (1): 123 (100/100, Li Wei_123_assignsubmission_file)" in result.stdout
    assert [line for line in result.stdout.splitlines() if "456" in line] == ["  没有提交、保持原样 (1): Li Wei (456)"]
    assert (
        '<li>123 (100/100, Li Wei_123_assignsubmission_file)</li>'
        in (tmp_path / "out" / "report.html").read_text("utf-8").split("id=unmatched")[1]
    )


def test_a_plain_folder_is_matched_by_name_only_when_one_row_has_it_and_says_so(tmp_path):
    """Build 3: a plain folder has no id, so its name is used, said so in the feedback and the report; a name
    two rows share matches neither; an entry named after an id matches by that id."""
    folder = put(
        tmp_path / "class", {"Zhang Wei/student.py": RIGHT, "Li Wei/student.py": RIGHT, "2023002/student.py": RIGHT}
    )
    (tmp_path / "gradebook.csv").write_bytes(canvas_gradebook(CANVAS_ROWS))
    run = grade_folder(folder, tmp_path / "out", CLASS_LIMITS, ClassOptions(roster_path=tmp_path / "gradebook.csv"))
    assert sorted(run.unmatched) == ["Li Wei"]
    cells = {
        row["ID"]: row["Lab09 (4242)"]
        for row in csv.DictReader(
            (tmp_path / "out" / "canvas.csv").read_text("utf-8").splitlines()[:1]
            + (tmp_path / "out" / "canvas.csv").read_text("utf-8").splitlines()[2:]
        )
    }
    assert cells["10001"] == "10" and cells["10002"] == "10" and cells["10009"] == cells["10010"] == ""
    feedback = (tmp_path / "out" / "feedback" / "Zhang Wei.txt").read_text("utf-8")
    assert "下载里没有你的编号，按姓名对应到成绩册里的 Zhang, Wei" in feedback
    assert "按姓名对应的提交 (1，下载里没有编号): Zhang Wei" in (tmp_path / "out" / "report.html").read_text("utf-8")
    assert "按姓名" not in (tmp_path / "out" / "feedback" / "2023002.txt").read_text("utf-8")


def test_five_files_in_one_upload_are_one_attempt_graded_as_readme_says(tmp_path):
    """Build 5: student.py, student (1).py … student (4).py in one zip were graded as five attempts ("submitted
    5 times"); one upload is one attempt, the highest number (the newest copy) is graded, the feedback names
    it, and ATTEMPT=best chooses among attempts, not among one upload's files."""
    copies = {
        "lab/student.py": RIGHT,
        **{f"lab/student ({n}).py": WRONG_BYTES for n in (1, 2, 3)},
        "lab/student (4).py": (WRONG / "first_not_last.py").read_bytes(),
    }
    folder = put(tmp_path / "class", {"alice.zip": zip_bytes(copies)})
    for attempt in ("latest", "best"):
        record = grade_folder(
            folder, tmp_path / attempt, CLASS_LIMITS, ClassOptions(course=course_settings(attempt=attempt))
        ).records[0]
        assert (record["attempt"], record["attempts"]) == (1, 1) and record["score"] < MAX_SCORE
        assert record["files"] == ["alice.zip/lab/student (4).py"]
        feedback = (tmp_path / attempt / "feedback" / "alice.txt").read_text("utf-8")
        assert "测试的是编号最大、最新的 alice.zip/lab/student (4).py" in feedback and "一共提交了" not in feedback
    readme = (ROOT / "README.md").read_text("utf-8")
    assert "the highest number (the newest copy) is graded" in readme


def test_lateness_is_blank_where_nothing_says_it(tmp_path):
    """Build 4: a Moodle download without a worksheet, a plain folder: unknown, blank in grades.csv, not 0."""
    folder = put(
        tmp_path / "class", {"Zhang Wei_1873401_assignsubmission_file/student.py": RIGHT, "alice/student.py": RIGHT}
    )
    grade_folder(folder, tmp_path / "out", CLASS_LIMITS)
    rows = list(csv.DictReader(open(tmp_path / "out" / "grades.csv", encoding="utf-8")))
    assert {row["student"]: row["late"] for row in rows} == {"1873401": "", "alice": ""}


# --- the LMS's download as it comes: its zip (C7), read in place -------------------------------------------


def zipped(folder: Path, path: Path) -> Path:
    """`folder`'s files in a zip at `path`, by their paths inside it, deflated, as the LMS's download zips them."""
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as bundle:
        for file in sorted(folder.rglob("*")):
            if file.is_file():
                bundle.writestr(file.relative_to(folder).as_posix(), file.read_bytes())
    return path


def moodle_download(folder: Path) -> Path:
    """M1: the Moodle 4.5 class, and a folder of uploads holding a zip (opened, one level) and a tool folder
    the folder reader never walks into."""
    moodle_45_class(folder)
    return put(
        folder,
        {
            "Li Si_1873411_assignsubmission_file/lab.zip": zip_bytes({"lab/student.py": RIGHT}),
            "Li Si_1873411_assignsubmission_file/lab/node_modules/x/student.py": WRONG_BYTES,
        },
    )


def blackboard_download(folder: Path) -> Path:
    """B1–B3: two attempts with their receipts, user names with `.` and `_`, a receipt in Dutch, one with no file."""
    first, second = "Lab 09_wei.zhang_attempt_2024-03-01-10-00-00", "Lab 09_wei.zhang_attempt_2024-03-02-09-30-00"
    typed, li = "Lab 09_o.neill_attempt_2024-03-01-12-00-00", "Lab 09_li_si_2_attempt_2024-03-01-11-00-00"
    return put(
        folder,
        {
            f"{first}_student.py": WRONG_BYTES,
            f"{first}.txt": "Name: Wei Zhang (wei.zhang)\n",
            f"{second}_student.py": RIGHT,
            f"{second}.txt": "Name: Wei Zhang (wei.zhang)\n",
            f"{li}_student.py": RIGHT,
            f"{li}.txt": "Naam: Li Si (li_si_2)\n",
            f"{typed}.txt": "Name: Aoife O'Neill (o.neill)\nSubmission Field:\ndef format_prompt(m): …\n",
        },
    )


DOWNLOADS = {"canvas": canvas_export, "moodle": moodle_download, "blackboard": blackboard_download}
ZIP_NAMES = {
    "canvas": "cs101-lab09_submissions.zip",  # C7: <course slug>-<title slug> submissions, spaces → _
    "moodle": "CS101-Lab09-42.zip",
    "blackboard": "gradebook_CS101_Lab 09_2024-03-03-10-00-00.zip",
}


@pytest.mark.parametrize("lms", sorted(DOWNLOADS))
def test_the_lms_download_zip_is_read_as_the_same_download_unzipped(tmp_path, lms):
    """C7: Canvas (and Moodle, and Blackboard) hand the instructor one zip. SUBMISSIONS= the zip itself, or a
    folder holding only that zip, gives exactly the submissions the unzipped download gives (every student,
    file, attempt, note), nested archives included, and nothing is extracted anywhere.  Before, the zip was
    refused ("SUBMISSIONS must be a folder") or, dropped into a folder, graded as one plain student."""
    unzipped = DOWNLOADS[lms](tmp_path / "unzipped")
    (tmp_path / "as_it_comes").mkdir()
    download = zipped(unzipped, tmp_path / "as_it_comes" / ZIP_NAMES[lms])
    expected = discover(unzipped)
    assert len(expected) > 2 and {s.layout for s in expected} == {lms}
    before = sorted(tmp_path.rglob("*"))
    assert discover(download) == expected
    assert discover(tmp_path / "as_it_comes") == expected
    assert sorted(tmp_path.rglob("*")) == before  # read in place: nothing written, nothing extracted


def test_a_zip_of_one_student_stays_one_student(tmp_path):
    """A zip whose files are in no LMS layout is one student's work (plain), whether it is SUBMISSIONS itself or
    the only entry of the folder; the terminal says how it was read and that a class folder must be unzipped."""
    one = {"lab09/student.py": HELPER_USER, "lab09/helper.py": RIGHT, "lab09/backup/student.py": WRONG_BYTES}
    folder = put(tmp_path / "class", {"alice.zip": zip_bytes(one)})
    for source in (folder / "alice.zip", folder):
        (alice,) = discover(source)
        assert (alice.student, alice.layout) == ("alice", "plain")
        assert alice.attempts[0].files == ("alice.zip/lab09/student.py", "alice.zip/lab09/helper.py")
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "labkit.instructor.grade",
            str(folder / "alice.zip"),
            "--out",
            str(tmp_path / "out"),
            "--jobs",
            "1",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env=clean_env(LAB_TIMEOUT="1"),
        timeout=300,
    )
    assert result.returncode == 0, result.stderr
    assert "alice.zip 里的文件不是 Canvas、Moodle 或 Blackboard 下载的格式: 当作一名学生的提交" in result.stdout
    records = json.loads((tmp_path / "out" / "grades.json").read_text("utf-8"))["students"]
    assert [(r["student"], r["score"]) for r in records] == [("alice", MAX_SCORE)]


def test_make_grade_takes_the_canvas_zip_and_says_which_layout_it_recognised(tmp_path):
    """C7: `make grade SUBMISSIONS=cs101-lab09_submissions.zip` grades the class from the zip, as the download
    unzipped is graded (the same grades.csv), and the terminal names the layout recognised; a file that is
    neither a folder nor a zip is refused in one line (it used to end a usage dump)."""
    unzipped = canvas_export(tmp_path / "unzipped")
    download = zipped(unzipped, tmp_path / "cs101-lab09_submissions.zip")
    grade_folder(unzipped, tmp_path / "from_folder", CLASS_LIMITS, ClassOptions(jobs=2))
    result = subprocess.run(
        [sys.executable, "-m", "labkit.instructor.grade", str(download), "--out", str(tmp_path / "out"), "--jobs", "2"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env=clean_env(LAB_TIMEOUT="1"),
        timeout=300,
    )
    assert result.returncode == 0, result.stderr
    assert (
        "SUBMISSIONS: cs101-lab09_submissions.zip 是 LMS 的下载，认出的布局: Canvas (8 个条目)；直接读 zip，不解压"
        in result.stdout
    )
    assert (tmp_path / "out" / "grades.csv").read_bytes() == (tmp_path / "from_folder" / "grades.csv").read_bytes()
    english = subprocess.run(
        [sys.executable, "-m", "labkit.instructor.grade", str(unzipped), "--out", str(tmp_path / "en"), "--jobs", "2"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env=clean_env(LAB_TIMEOUT="1", LAB_LANG="en"),
        timeout=300,
    )
    assert "SUBMISSIONS: the folder unzipped, layout recognised: Canvas (8 entries)" in english.stdout
    (tmp_path / "notes.txt").write_text("not a download", encoding="utf-8")
    refused = subprocess.run(
        [sys.executable, "-m", "labkit.instructor.grade", str(tmp_path / "notes.txt")],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env=clean_env(),
        timeout=60,
    )
    assert refused.returncode == 2 and refused.stderr == (
        f"SUBMISSIONS: {tmp_path / 'notes.txt'} 是一个文件，不是班级文件夹，也不是 LMS 下载的 .zip: 请给装着全班提交的文件夹或那个 .zip\n"
    )


def test_a_submissions_folder_that_cannot_be_read_is_named_as_such(tmp_path, monkeypatch, capsys):
    """It was reported as an OUT that could not be written ("写不了 grades/"), with nothing graded either way."""
    from labkit.instructor import grade

    (tmp_path / "class").mkdir()
    real = grade.os.listdir

    def refused(path="."):
        if Path(path) == tmp_path / "class":
            raise PermissionError(13, "Permission denied", str(path))
        return real(path)

    monkeypatch.setattr(grade.os, "listdir", refused)
    assert grade.main([str(tmp_path / "class"), "--out", str(tmp_path / "out")]) == 2
    [line] = capsys.readouterr().err.splitlines()
    assert line.startswith("SUBMISSIONS: 读不了 ") and "Permission denied" in line and "写不了" not in line
    assert not (tmp_path / "out").exists()


def test_a_students_upload_inside_the_zip_is_bounded_by_their_budget(tmp_path, monkeypatch):
    """Inside the LMS's zip a student's own archive is inflated in memory, never to disk, and counts against
    that student's one budget: a bomb is cut off at the budget and skipped (named in the feedback), their
    student.py still graded, and the next student gets a budget of their own."""
    from labkit.instructor.lms import archives

    monkeypatch.setattr(archives, "MAX_INFLATED", 4 << 20)
    raw = io.BytesIO()
    with zipfile.ZipFile(raw, "w", zipfile.ZIP_DEFLATED) as bundle:
        bundle.writestr("Bob Jones_1873401_assignsubmission_file/student.py", RIGHT)
        bundle.writestr("Bob Jones_1873401_assignsubmission_file/data.zip", bytes(64 << 20))  # 64 MiB of zeros
        bundle.writestr("Ann Lee_1873402_assignsubmission_file/lab.zip", zip_bytes({"lab/student.py": RIGHT}))
    assert len(raw.getvalue()) < 1 << 20
    (tmp_path / "CS101-Lab09-42.zip").write_bytes(raw.getvalue())
    bob, ann = discover(tmp_path / "CS101-Lab09-42.zip")
    assert bob.student == "1873401" and bob.attempts[0].files == ("student.py",)
    assert ("note.skipped", {"files": "data.zip"}) in bob.notes
    assert ann.student == "1873402" and ann.attempts[0].files == ("lab.zip/lab/student.py",)
