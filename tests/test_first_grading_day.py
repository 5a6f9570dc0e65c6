"""A TA's first grading day (issue 29): inputs that are not a class are refused in one line that says what was
found and what to pass; the import line tells the truth; every roster row is accounted for; the column filled is
named (and a TITLE that matches none refused); late is said; the small things a TA tripped on.

The class is a realistic Canvas download (lms_fixtures.canvas_class: the facts C1–C6, G1–G7 of the LMS formats
reference) laid out as a TA's folder holds it: the gradebook export, submissions/ and the course's variants/."""

import csv
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import CHECKOUT, ROOT, clean_env, make
from labkit.i18n import text
from lms_fixtures import CANVAS_ROWS, RIGHT, WRONG as WRONG_BYTES, canvas_class, canvas_gradebook, put, zip_bytes


def grade(*args: str, **env) -> subprocess.CompletedProcess:
    """The grader as make runs it (python -m labkit.instructor.grade), from the lab's folder."""
    return subprocess.run(
        [sys.executable, "-m", "labkit.instructor.grade", *args, "--jobs", "2"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env=clean_env(LAB_TIMEOUT="1", **env),
        timeout=300,
    )


def own_lines(stderr: str) -> list[str]:
    """What the grader said on stderr, without make's own `make: *** …` line, nor the warning of a level the
    maintainer chose below full strength (LAB_SANDBOX=none make check)."""
    warning = text("sandbox.warning", choice="", level="", open="").split(" ")[0]
    return [line for line in stderr.splitlines() if not line.startswith(("make", warning))]


def feedback_of(path: Path) -> str:
    """A student's feedback without the first paragraph a level below full strength adds (LAB_SANDBOX=none)."""
    feedback = path.read_text("utf-8")
    for language in ("zh", "en"):
        if feedback.startswith(text("feedback.sandbox", language, level="\0").split("\0")[0]):
            return feedback.split("\n\n", 1)[1]
    return feedback


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
    zipped = put(
        tmp_path / "zipped",
        {
            "gradebook.csv": (ta_folder / "gradebook.csv").read_bytes(),
            "submissions.zip": zip_bytes(
                {path.name: path.read_bytes() for path in (ta_folder / "submissions").iterdir()}
            ),
        },
    )
    result = grade(str(zipped), "--out", str(tmp_path / "out"))
    assert result.returncode == 2 and own_lines(result.stderr)[0].endswith(f"{zipped / 'submissions.zip'}?")
    assert grade(str(ta_folder / "submissions"), "--out", str(tmp_path / "out")).returncode == 0  # what it meant


def test_a_path_that_does_not_exist_is_shown_as_resolved_without_a_usage_dump(tmp_path):
    """`make -C lab grade SUBMISSIONS=class` with a relative path: about ten lines of usage before; now one line
    that says it does not exist and where it was looked for."""
    result = subprocess.run(
        [
            "make",
            "--no-print-directory",
            "-C",
            str(ROOT),
            "grade",
            "SUBMISSIONS=no/such/class",
            f"OUT={tmp_path / 'out'}",
            f"PYTHON={sys.executable}",
        ],
        capture_output=True,
        text=True,
        env=clean_env(),
        timeout=120,
    )
    assert result.returncode != 0 and own_lines(result.stderr) == [
        f"SUBMISSIONS: no/such/class 不存在 (从当前文件夹算起是 {ROOT / 'no' / 'such' / 'class'})"
    ]
    absolute = grade(str(tmp_path / "gone"), LAB_LANG="en")
    assert own_lines(absolute.stderr) == [f"SUBMISSIONS: {tmp_path / 'gone'} does not exist"]


@pytest.mark.parametrize(
    "files",
    [{}, {"marks.csv": "id,mark\n", "notes/todo.md": "-", "report.pdf": "%PDF"}],
    ids=["empty", "no-code-anywhere"],
)
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
        "the folder that holds the class's submissions, or that .zip"
    ]


# --- the import line tells the truth; every roster row accounted for (items 1, 2) ---------------------------

STRANGER = "stranger_10099_50100_student.py"  # a submission whose user id is in no row of the gradebook


@pytest.fixture(scope="module")
def graded_day(tmp_path_factory):
    """The TA's Canvas download with its gradebook, one submission more than the gradebook has rows for."""
    root = tmp_path_factory.mktemp("day")
    folder = canvas_class(root / "submissions")
    (folder / STRANGER).write_bytes(RIGHT)
    (root / "gradebook.csv").write_bytes(
        canvas_gradebook(CANVAS_ROWS + [("Absent, Ann", "10014", "ann", "A", "", "", "")])
    )
    result = grade(str(folder), "--out", str(root / "out"), "--roster", str(root / "gradebook.csv"))
    assert result.returncode == 0, result.stderr
    return root, result.stdout


def test_no_output_says_ready_to_import_while_a_submission_matches_no_row(graded_day):
    """Done when: a submission matching no row (and the anonymous ones) and the rows left without a grade are
    named, and neither the terminal, nor report.html, nor its last line says ready to import."""
    root, stdout = graded_day
    page = (root / "out" / "report.html").read_text("utf-8")
    for said in (stdout, page):
        assert "可以导入" not in said and "ready to import" not in said
    last = stdout.splitlines()[-1]
    assert (
        last.startswith("canvas.csv 已写出，但还不能直接导入: 3 份提交在名单里找不到")
        and f"10099 (100/100, {STRANGER})" in last
    )
    assert "  没有提交、保持原样 (1): Absent, Ann (10014)" in stdout  # the row left without a grade, by name and id
    verdict = page.split('<p class="banner weak" id=gradebook>', 1)[1].split("</p>", 1)[0]
    assert verdict == html_escaped(last) and f"<li>10099 (100/100, {STRANGER})</li>" in page


def html_escaped(line: str) -> str:
    import html

    return html.escape(line)


def test_every_roster_row_is_accounted_for_and_the_counts_add_up(graded_day):
    """Item 2: the summary and the report list who has no submission, who is excused, who cannot see it, who got a
    grade (by name and id), and the counts add up to the roster's rows (the Test Student's row among them)."""
    root, stdout = graded_day
    [line] = [line for line in stdout.splitlines() if line.startswith("名单 ")]
    total, parts = line[len("名单 ") :].split(" 行 = ")
    counts = [int(part.rsplit(" ", 1)[1]) for part in parts.split(" + ")]
    assert int(total) == len(CANVAS_ROWS) + 1 == sum(counts)
    assert parts == (
        "写了成绩 7 + 没有可运行的代码、写了 0 分 2 + 没有提交 1 + EX (免交) 1 + N/A (看不到这个作业) 1 + "
        "Test Student 1"
    )
    for listed in (
        "  EX (免交)、保持原样 (1): Excused, Edd (10012)",
        "  N/A (看不到这个作业)、保持原样 (1): Hidden, Hal (10013)",
        "  没有可运行的代码，按课程文件写了 0 分 (2): Liu, Yang (10007), Wang, Fang (10008)",
        "  写了成绩 (7): Zhang, Wei (10001), Li, Si (10002), O'Brien, Seán (10004), 张, 伟 (10005), "
        "Chen, Jing (10006), Li, Wei (10009), Li, Wei (10010)",
    ):
        assert listed in stdout
    rows = (root / "out" / "report.html").read_text("utf-8").split("id=roster-rows>", 1)[1].split("</ul>", 1)[0]
    assert "<li>没有提交、保持原样 (1): Absent, Ann (10014)</li>" in rows and "Excused, Edd (10012)" in rows
    assert "Zhang, Wei (10001)" in rows


def test_the_import_line_says_ready_only_when_every_row_with_a_submission_got_its_cell(tmp_path):
    """The same class without the submissions no row has: ready to import, as the last line and in the report."""
    folder = put(
        tmp_path / "download", {"zhangwei_10001_50001_student.py": RIGHT, "lisi_LATE_10002_50002_student.py": RIGHT}
    )
    (tmp_path / "gradebook.csv").write_bytes(canvas_gradebook(CANVAS_ROWS[:3]))
    result = grade(str(folder), "--out", str(tmp_path / "out"), "--roster", str(tmp_path / "gradebook.csv"))
    assert (
        result.stdout.splitlines()[-1] == "canvas.csv 已按名单写好，可以导入: 2 行写了成绩，名单上其余的行上面都有交代"
    )
    assert "名单 3 行 = 写了成绩 2 + 没有提交 1" in result.stdout
    assert '<p class="banner full" id=gradebook>canvas.csv 已按名单写好，可以导入' in (
        tmp_path / "out" / "report.html"
    ).read_text("utf-8")


def test_a_gradebook_no_submission_matches_would_import_an_empty_column(tmp_path):
    """Issue 27 item 7: a real export of another course (no id of the download in it) said ready to import."""
    folder = put(tmp_path / "download", {"smithbob_340934_208490284_student.py": RIGHT})
    (tmp_path / "gradebook.csv").write_bytes(canvas_gradebook(CANVAS_ROWS[:2]))
    result = grade(
        str(folder), "--out", str(tmp_path / "out"), "--roster", str(tmp_path / "gradebook.csv"), LAB_LANG="en"
    )
    assert result.stdout.splitlines()[-1] == (
        "canvas.csv would import an empty column: none of the 1 submissions matches a row of the roster (340934 "
        "(100/100, smithbob_340934_208490284_student.py)). Is it this course's gradebook?"
    )
    assert "ready to import" not in result.stdout
    # G1: such a gradebook (a real one of another course) has no column of this TITLE either: it is still read, the
    # class graded and listed, the TITLE's absence said (the gradebook is the problem, not the TITLE)
    other = (
        "Student,ID,SIS Login ID,Section,Lab 01 (150834)\n    Points Possible,,,,10.00\nZelda Fitzgerald,10001,z,A,\n"
    )
    (tmp_path / "other.csv").write_text(other, encoding="utf-8")
    result = grade(
        str(folder), "--out", str(tmp_path / "other"), "--roster", str(tmp_path / "other.csv"), LAB_LANG="en"
    )
    assert result.returncode == 0, result.stderr
    assert (
        "canvas.csv: the gradebook has no column Lab09 (the closest: Lab 01 (150834)); written as a new column, "
        "but no submission is in this gradebook (see the last line)" in result.stdout
    )
    assert "  no submission, left as it was (1): Zelda Fitzgerald (10001)" in result.stdout
    assert result.stdout.splitlines()[-1].startswith("canvas.csv would import an empty column")


# --- TITLE matched or refused, the column always named (item 4) ---------------------------------------------


def test_a_title_that_matches_no_column_is_refused_with_the_closest(tmp_path):
    """TITLE="Lab 9" where the gradebook has Lab09 (4242) silently added a column with an empty Points Possible:
    now one line with the closest columns, before grading; NEW_COLUMN=1 adds it on purpose, out of full marks."""
    folder = put(tmp_path / "download", {"zhangwei_10001_50001_student.py": RIGHT})
    (tmp_path / "gradebook.csv").write_bytes(canvas_gradebook(CANVAS_ROWS[:2]))
    roster = ["--roster", str(tmp_path / "gradebook.csv")]
    refused = grade(str(folder), "--out", str(tmp_path / "out"), *roster, "--title", "Lab 9")
    assert refused.returncode == 2 and not (tmp_path / "out").exists()
    assert own_lines(refused.stderr) == [
        f"{tmp_path / 'gradebook.csv'} 里没有 TITLE=Lab 9 这一列；最接近的: Lab09 (4242), Lab08 (4241)。请用 TITLE= 给出其中"
        "一列 (括号里的编号可以不写)，或者加 NEW_COLUMN=1 把 Lab 9 作为新的一列写进去"
    ]
    for title, column in (("lab09", "Lab09 (4242)"), ("Lab09 (4242)", "Lab09 (4242)"), ("LAB08", "Lab08 (4241)")):
        result = grade(str(folder), "--out", str(tmp_path / title), *roster, "--title", title)
        assert f"canvas.csv: 写的是 {column} 这一列 (满分 10.00)" in result.stdout, title
        assert (tmp_path / title / "canvas.csv").read_text("utf-8").splitlines()[0].endswith(f",{column}")
    added = make(
        "grade",
        f"SUBMISSIONS={folder}",
        f"OUT={tmp_path / 'new'}",
        f"ROSTER={tmp_path / 'gradebook.csv'}",
        "TITLE=Lab 9",
        "NEW_COLUMN=1",
        env=clean_env(LAB_TIMEOUT="1"),
    )
    assert "canvas.csv: 新加的一列 Lab 9 (满分 100.00)；导入时 Canvas 会把它建成一个新作业" in added.stdout, (
        added.stderr
    )
    header, points, *rows = (tmp_path / "new" / "canvas.csv").read_text("utf-8").splitlines()
    assert header.endswith(",Lab 9") and points.endswith(",100.00") and rows[0].endswith(",100")


def test_a_moodle_worksheet_names_its_grade_column(tmp_path):
    from lms_fixtures import MOODLE_45, spout_csv, worksheet_row

    folder = put(tmp_path / "download", {"Zhang Wei_1873401_assignsubmission_file/student.py": RIGHT})
    (tmp_path / "worksheet.csv").write_bytes(
        spout_csv([MOODLE_45, worksheet_row("1873401", "Zhang Wei", "Submitted for grading", "20.00")])
    )
    result = grade(
        str(folder), "--out", str(tmp_path / "out"), "--roster", str(tmp_path / "worksheet.csv"), "--title", "anything"
    )  # a worksheet is one assignment's: TITLE names no column of it
    assert "moodle.csv: 写的是 Grade 这一列 (满分 20.00)" in result.stdout
    assert (
        result.stdout.splitlines()[-1] == "moodle.csv 已按名单写好，可以导入: 1 行写了成绩，名单上其余的行上面都有交代"
    )


# --- late is said (item 5); no code to run, as the course file says (issue 27 item 7) ------------------------


def course_file(tmp_path, text: str) -> Path:
    path = tmp_path / "course.ini"
    path.write_text(text, encoding="utf-8")
    return path


def test_late_is_said_and_by_default_left_to_the_lms(graded_day):
    """`late=1` for a student and nothing in the feedback or the report: now both say it came late and that this
    grader took nothing off (the LMS's own late policy applies when the gradebook is imported)."""
    root, stdout = graded_day
    assert (
        "迟交 (2): 10002, anon_Bc4Dm — 这个评分程序没有因此扣分；导入后由 LMS 自己的迟交规则处理 (如果设了的话)"
        in stdout
    )
    feedback = feedback_of(root / "out" / "feedback" / "10002.txt")
    assert feedback.startswith(
        "这次提交迟交了 (LMS 是这样标的)；评分程序没有因此扣分，课程的迟交规则 (如果有) 由 LMS 处理。\n\n"
    )
    late = (root / "out" / "report.html").read_text("utf-8").split("<h2>迟交的提交 (2)</h2>", 1)[1].split("</ul>")[0]
    assert "导入后由 LMS 自己的迟交规则处理" in late and "10002.txt" in late and "anon_Bc4Dm.txt" in late
    cells = {
        row["ID"]: row["Lab09 (4242)"]
        for row in csv.DictReader(
            (root / "out" / "canvas.csv").read_text("utf-8").splitlines()[:1]
            + (root / "out" / "canvas.csv").read_text("utf-8").splitlines()[2:]
        )
    }
    assert cells["10002"] == "10"  # nothing taken off


def test_a_course_late_penalty_is_taken_off_in_the_gradebook_and_said(tmp_path):
    """`[late] penalty = 10`: 10% off a late submission's points in canvas.csv, grades.csv keeping the points
    earned; the feedback, the report and the terminal say so, in English too."""
    folder = put(
        tmp_path / "download", {"zhangwei_10001_50001_student.py": RIGHT, "lisi_LATE_10002_50002_student.py": RIGHT}
    )
    (tmp_path / "gradebook.csv").write_bytes(canvas_gradebook(CANVAS_ROWS[:2]))
    config = course_file(tmp_path, "[late]\npenalty = 10\n")
    result = grade(
        str(folder),
        "--out",
        str(tmp_path / "out"),
        "--roster",
        str(tmp_path / "gradebook.csv"),
        "--config",
        str(config),
        LAB_LANG="en",
    )
    assert result.returncode == 0, result.stderr
    lines = (tmp_path / "out" / "canvas.csv").read_text("utf-8").splitlines()
    assert {row["ID"]: row["Lab09 (4242)"] for row in csv.DictReader(lines[:1] + lines[2:])} == {
        "10001": "10",
        "10002": "9",
    }
    grades = {row["student"]: row for row in csv.DictReader(open(tmp_path / "out" / "grades.csv", encoding="utf-8"))}
    assert grades["10002"]["score"] == "100" and grades["10002"]["late"] == "1"
    assert (
        "late (1): 10002 — 10% taken off in canvas.csv and moodle.csv (grading.ini's [late] penalty)" in result.stdout
    )
    feedback = feedback_of(tmp_path / "out" / "feedback" / "10002.txt")
    assert feedback.startswith("This submission came late (so the LMS says); as the course decides, 10% is taken off")
    assert '10002.txt">10002</a>: 100 → 90</li>' in (tmp_path / "out" / "report.html").read_text("utf-8")


@pytest.mark.parametrize("setting, cell", [("", "0"), ("[gradebook]\nno_code = blank\n", "")], ids=["zero", "blank"])
def test_a_submission_with_no_code_is_written_as_the_course_file_says_and_named(tmp_path, setting, cell):
    """Issue 27 item 7: a text entry (no code file) is 0 in canvas.csv by default, or its cell left as it was with
    `[gradebook] no_code = blank`; the summary names it either way."""
    folder = put(
        tmp_path / "download", {"zhangwei_10001_50001_student.py": RIGHT, "lisi_10002_text.html": "<p>my answer</p>"}
    )
    (tmp_path / "gradebook.csv").write_bytes(canvas_gradebook(CANVAS_ROWS[:2]))
    result = grade(
        str(folder),
        "--out",
        str(tmp_path / "out"),
        "--roster",
        str(tmp_path / "gradebook.csv"),
        "--config",
        str(course_file(tmp_path, setting)),
    )
    lines = (tmp_path / "out" / "canvas.csv").read_text("utf-8").splitlines()
    assert {row["ID"]: row["Lab09 (4242)"] for row in csv.DictReader(lines[:1] + lines[2:])}["10002"] == cell
    said = "写了 0 分" if cell else "留空"
    assert f"  没有可运行的代码，按课程文件{said} (1): Li, Si (10002)" in result.stdout
    assert result.stdout.splitlines()[-1].startswith("canvas.csv 已按名单写好，可以导入")


@pytest.mark.parametrize(
    "setting, says",
    [
        ("[gradebook]\nno_code = none\n", "must be one of 0, blank, not 'none'"),
        ("[late]\npenalty = 101\n", "must be at most 100, not 101"),
    ],
)
def test_the_course_files_new_keys_are_checked(tmp_path, setting, says):
    folder = put(tmp_path / "class", {"alice.py": RIGHT})
    result = grade(str(folder), "--out", str(tmp_path / "out"), "--config", str(course_file(tmp_path, setting)))
    assert result.returncode == 2 and says in result.stderr and not (tmp_path / "out").exists()


# --- the small ones (item 6) ----------------------------------------------------------------------------------


def test_an_empty_file_is_named_as_empty(tmp_path):
    """A 0-byte student.py was told "student.py 里没有函数 format_prompt"; now its feedback opens with what it is."""
    folder = put(tmp_path / "class", {"alice/student.py": b"", "bob/student.py": b"\n  \n", "cai/student.py": RIGHT})
    grade(str(folder), "--out", str(tmp_path / "out"))
    for student, size in (("alice", 0), ("bob", 4)):
        feedback = feedback_of(tmp_path / "out" / "feedback" / f"{student}.txt")
        assert feedback.startswith(
            f"关于你提交的文件:\n  - student.py 是空文件 ({size} 字节，里面没有代码)，所以下面每个测试都找不到函数"
        )
    assert "空文件" not in (tmp_path / "out" / "feedback" / "cai.txt").read_text("utf-8")


def test_the_reports_attempt_column_says_what_grades_csv_says(tmp_path):
    """The report's 第几次 was blank while grades.csv said 1: now 1, or 2/2 when there was a choice (B1)."""
    first, second = "Lab 09_zw_attempt_2024-03-01-10-00-00", "Lab 09_zw_attempt_2024-03-02-10-00-00"
    folder = put(
        tmp_path / "class",
        {
            f"{first}_student.py": WRONG_BYTES,
            f"{second}_student.py": RIGHT,
            "Lab 09_ls_attempt_2024-03-01-11-00-00_student.py": RIGHT,
        },
    )
    grade(str(folder), "--out", str(tmp_path / "out"))
    page = (tmp_path / "out" / "report.html").read_text("utf-8")
    rows = {
        row["student"]: row["attempt"]
        for row in csv.DictReader(open(tmp_path / "out" / "grades.csv", encoding="utf-8"))
    }
    assert rows == {"ls": "1", "zw": "2"}
    for student, shown in (("ls", "1"), ("zw", "2/2")):
        row = page.split(f'<tr><td data-v="{student}">', 1)[1].split("</tr>", 1)[0]
        assert f'<td class=num data-v="{rows[student]}">{shown}</td>' in row, row


def test_python_lab_py_grade_does_what_make_grade_does(tmp_path):
    """`python lab.py grade` said "看不懂 grade": now it takes make's spelling and grades, paths taken from where it
    was typed; the other instructors' targets say in one line to use make, and the handout says they are not in it."""
    folder = put(tmp_path / "class", {"alice.py": RIGHT})
    result = subprocess.run(
        [
            sys.executable,
            str(ROOT / "lab.py"),
            "grade",
            "SUBMISSIONS=class",
            "OUT=out",
            "JOBS=1",
            "MERGE=",
            "TITLE=Lab09",
        ],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        env=clean_env(LAB_TIMEOUT="1"),
        timeout=300,
    )
    assert result.returncode == 0, result.stderr
    assert {
        row["student"]: row["score"] for row in csv.DictReader(open(tmp_path / "out" / "grades.csv", encoding="utf-8"))
    } == {"alice": "100"}
    assert f"SUBMISSIONS: 文件夹 {folder.name}" in result.stdout
    said = subprocess.run(
        [sys.executable, str(ROOT / "lab.py"), "dist"], capture_output=True, text=True, env=clean_env(), timeout=60
    )
    assert said.returncode == 2 and said.stderr == (
        "python lab.py dist: 这是 make 的目标，请用 make dist (python lab.py 只代替 make grade)\n"
    )
    from labkit.instructor.grade import make_spelling

    assert make_spelling(["SUBMISSIONS=a b", "OUT=o", "MERGE=1", "NEW_COLUMN=", "TITLE=Lab 9", "--jobs", "2"]) == [
        "a b",
        "--out",
        "o",
        "--merge",
        "--title",
        "Lab 9",
        "--jobs",
        "2",
    ]


def test_in_the_handout_python_lab_py_grade_says_it_is_not_there(monkeypatch, capsys):
    from labkit import entry

    monkeypatch.setattr(entry, "_instructor", lambda: False)
    with pytest.raises(SystemExit) as ended:
        entry.parse(["grade", "SUBMISSIONS=class"])
    assert ended.value.code == 2 and capsys.readouterr().err == (
        "python lab.py grade: 评分等老师用的目标不在学生发放包里 (可用的目标见 python lab.py help)\n"
    )


@CHECKOUT  # dist/ of the checkout
def test_make_dist_names_the_folder_and_both_archives():
    """`make dist` printed only the .tar.gz it made beside the .zip."""
    built = make("dist", timeout=600)
    assert built.returncode == 0, built.stderr
    assert built.stdout.splitlines()[-1] == (
        "学生发放包: dist/lab09-step8/，以及它的两个压缩包 dist/lab09-step8.tar.gz, "
        "dist/lab09-step8.zip (Windows 上用 .zip)"
    )
    assert (ROOT / "dist" / "lab09-step8.zip").is_file() and (ROOT / "dist" / "lab09-step8.tar.gz").is_file()
