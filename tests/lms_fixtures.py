"""LMS downloads and gradebooks as each LMS's own code writes them, built from the facts of the LMS formats
reference (the ids C1–C7, G1–G7, M1–M7, W1–W5, B1–B3, A1–A3 name the fact each shape comes from).

Everything is written inside the test's own temp dir; the student files are the reference solution and the
harmless wrong submissions of tests/students/wrong/.
"""

from __future__ import annotations

import csv
import io
import zipfile
from pathlib import Path

TESTS = Path(__file__).resolve().parent  # no conftest: tests/golden.py builds these without pytest
STUDENTS, SOLUTION = TESTS / "students", TESTS.parent / "solutions" / "student.py"

WRONG = (STUDENTS / "wrong" / "no_trim.py").read_bytes()
RIGHT = SOLUTION.read_bytes()


def put(folder: Path, files: dict) -> Path:
    """Write {relative path: bytes or str} under `folder` (folders made as needed)."""
    for name, content in files.items():
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, str):
            content = content.encode("utf-8")
        path.write_bytes(content)
    return folder


def zip_bytes(files: dict, flag_utf8: bool = True) -> bytes:
    """A zip of {name: bytes}; names are written as given (`\\` separators stay, A1)."""
    raw = io.BytesIO()
    with zipfile.ZipFile(raw, "w") as bundle:
        for name, content in files.items():
            bundle.writestr(zipfile.ZipInfo(name, (2024, 3, 1, 10, 0, 0)), content)
    return raw.getvalue()


def gbk_zip(names: dict) -> bytes:
    """A zip whose member names are GBK bytes without the UTF-8 flag, as Chinese Windows writes them (A2):
    {name: bytes}; each name must be as long in GBK as its placeholder."""
    placeholders = {
        chr(ord("A") + index) * len(name.encode("gbk")): (name, content)
        for index, (name, content) in enumerate(names.items())
    }
    data = zip_bytes({key: content for key, (_, content) in placeholders.items()})
    for key, (name, _) in placeholders.items():
        data = data.replace(key.encode("ascii"), name.encode("gbk"))
    return data


# --- Moodle (M1–M7, W1–W5) -----------------------------------------------------------------------------


def spout_csv(rows: list, bom: bool = True) -> bytes:
    """A CSV as Moodle's dataformat_csv writes it (W5): a BOM, `,`, a cell quoted only when it holds a comma,
    a quote, a backslash, a space or a line break, `\\n` line ends."""
    out = []
    for row in rows:
        out.append(
            ",".join(
                f'"{value.replace(chr(34), chr(34) * 2)}"' if any(c in value for c in ',"\\ \n\r\t') else value
                for value in row
            )
        )
    return (b"\xef\xbb\xbf" if bom else b"") + ("\n".join(out) + "\n").encode("utf-8")


MOODLE_45 = [
    "Identifier",
    "Full name",
    "Email address",
    "Status",
    "Grade",
    "Maximum grade",
    "Grade can be changed",
    "Last modified (submission)",
    "Online text",
    "Last modified (grade)",
    "Feedback comments",
]  # W1 with the 4.5 langpack's "Maximum grade" (W4)


def worksheet_row(
    participant: str, name: str, status: str, maximum: str = "100.00", grade: str = "", hidden: str = "Participant "
) -> list:
    """One row of W1's columns: Identifier is get_string('hiddenuser') . id (W2), dates as userdate (W3)."""
    submitted = "Friday, 20 November 2026, 9:15 PM" if not status.startswith("No submission") else "-"
    return [
        f"{hidden}{participant}",
        name,
        f"{participant}@example.edu",
        status,
        grade,
        maximum,
        "Yes",
        submitted,
        "",
        "-",
        "",
    ]


def moodle_import(data: bytes, hiddenuser: str = "Participant ") -> dict:
    """What Moodle's "Upload grading worksheet" (assignfeedback_offline) takes from a CSV: the columns named
    exactly Identifier, Grade and Last modified (grade), every row as wide as the header, the participant id
    after the hiddenuser string, a grade no larger than Maximum grade; {participant id: grade} of the rows
    with a grade.  Raises AssertionError where Moodle would refuse the file or skip a row as out of range."""
    text = data.decode("utf-8")
    text = text[1:] if text.startswith("\ufeff") else text  # csv_import_reader drops the BOM
    table = list(csv.reader(io.StringIO(text)))
    header = table[0]
    for column in ("Identifier", "Grade", "Last modified (grade)"):
        assert column in header, f"Moodle would refuse the upload: no {column!r} column"
    identifier, grade, maximum = header.index("Identifier"), header.index("Grade"), header.index("Maximum grade")
    grades = {}
    for row in table[1:]:
        assert len(row) == len(header), "csvweirdcolumns: a row is not as wide as the header"
        assert row[identifier].startswith(hiddenuser), row[identifier]
        if row[grade].strip():
            value = float(row[grade].replace(",", "."))
            assert 0 <= value <= float(row[maximum].replace(",", ".")), "out of range: Moodle skips it"
            grades[row[identifier][len(hiddenuser) :]] = value
    return grades


def moodle_45_class(folder: Path) -> Path:
    """A Moodle 4.5 "Download all submissions" (M1: folders without the trailing underscore), with a flat-mode
    entry, a Moodle 3.x folder (M2), blind marking, a renamed second upload (M5), online text (M6), names with
    CJK, accents, apostrophes (M3 deletes them) and hyphens, the zh_cn name order (M4) and two students of the
    same name."""
    return put(
        folder,
        {
            "Zhang Wei_1873401_assignsubmission_file/student.py": RIGHT,
            "Zhang Wei_1873401_assignsubmission_onlinetext/onlinetext.html": "<p>see my file</p>",
            "张伟_1873402_assignsubmission_file/lab/student.py": RIGHT,
            "Seán OBrien_1873403_assignsubmission_file/student.py": WRONG,
            "Anne-Marie Dubois_1873404_assignsubmission_file/student.py": WRONG,
            "Anne-Marie Dubois_1873404_assignsubmission_file/student (1).py": RIGHT,  # M5: her second upload
            "Li Wei_1873405_assignsubmission_file/student.py": RIGHT,
            "Li Wei_1873406_assignsubmission_file/student.py": WRONG,
            "Participant_1873407_assignsubmission_file/student.py": RIGHT,  # blind marking
            "Ana García_1873408_assignsubmission_file_student.py": RIGHT,  # flat mode
            "Kim Lee_1873409_assignsubmission_file_/student.py": RIGHT,  # Moodle 3.x
        },
    )


MOODLE_STATUSES = {  # W3
    "1873401": "Submitted for grading - 2 hours 13 mins late",
    "1873402": "Submitted for grading - Graded",
    "1873403": "Draft (not submitted) - Assignment is overdue by: 9 days 10 hours",
    "1873404": "Submitted for grading",
    "1873405": "Submitted for grading - 1 day 3 hours late",
    "1873406": "Submitted for grading - Not graded",
    "1873407": "Submitted for grading",
    "1873408": "Submitted for grading",
    "1873409": "Submitted for grading",
    "1873410": "No submission - Assignment is overdue by: 9 days 10 hours",
}
MOODLE_NAMES = {
    "1873401": "Zhang Wei",
    "1873402": "张伟",
    "1873403": "Seán O'Brien",
    "1873404": "Anne-Marie Dubois",
    "1873405": "Li Wei",
    "1873406": "Li Wei",
    "1873407": "Chen Jing",
    "1873408": "Ana García",
    "1873409": "Kim Lee",
    "1873410": "Absent Student",
}


def moodle_45_worksheet() -> bytes:
    rows = [MOODLE_45] + [
        worksheet_row(pid, MOODLE_NAMES[pid], status, maximum="20.00") for pid, status in MOODLE_STATUSES.items()
    ]
    rows[1][-1] = "Good start - see me"  # feedback comments are the instructor's: imported, never touched
    return spout_csv(rows)


# --- Canvas (C1–C7, G1–G7) --------------------------------------------------------------------------------


def canvas_gradebook(
    rows: list,
    separator: str = ",",
    bom: bool = False,
    first_last: bool = False,
    manual: bool = False,
    decimal: str = ".",
    sis: bool = True,
    points: str = "10.00",
) -> bytes:
    """A gradebook export (G1–G6): the student columns, `Lab08 (4241)`, `Lab09 (4242)`, totals; the Manual
    Posting row (G2) and `    Points Possible` (G3); rows (name, id, login, section, lab08, lab09, total), the
    name `Last, First`; scores with two decimals in the decimal mark given (G4, G5)."""

    def number(value: str) -> str:
        return value.replace(".", decimal)

    student = ["LastName", "FirstName"] if first_last else ["Student"]
    header = (
        student
        + ["ID"]
        + (["SIS User ID"] if sis else [])
        + ["SIS Login ID", "Section", "Lab08 (4241)", "Lab09 (4242)", "Current Score"]
    )
    blank = [""] * (len(student) + 2 + sis + 1)
    table = [header]
    if manual:
        table.append(blank + ["", "Manual Posting", ""])
    table.append(
        ["    Points Possible"] + [""] * (len(student) + 2 + sis) + [number("10.00"), number(points), "(read only)"]
    )
    for name, user, login, section, lab08, lab09, total in rows:
        names = [part.strip() for part in name.split(",", 1)] if first_last else [name]
        table.append(
            names
            + [user]
            + ([f"2023{user[-3:]}"] if sis else [])
            + [login, section, number(lab08), lab09, number(total)]
        )
    stream = io.StringIO()
    csv.writer(stream, delimiter=separator, lineterminator="\n").writerows(table)
    return (b"\xef\xbb\xbf" if bom else b"") + stream.getvalue().encode("utf-8")


def canvas_class(folder: Path) -> Path:
    """A Canvas "Download submissions", unzipped (C1–C6): names as Canvas slugs them (accents and CJK kept,
    apostrophes, commas and spaces deleted), LATE, anonymous ids (C4), text and URL entries (C3), a group's
    entry named after the group (C5), a re-upload renamed -1 (C6), two students of the same name, the Test
    Student and an excused student."""
    return put(
        folder,
        {
            "zhangwei_10001_50001_student.py": WRONG,
            "zhangwei_10001_50009_student-1.py": RIGHT,  # C6: the same file uploaded again
            "lisi_LATE_10002_50002_student.py": RIGHT,
            "anon_Xq3Kp_50003_student.py": RIGHT,
            "LATE_anon_Bc4Dm_50004_student.py": WRONG,
            "obrienseán_10004_50005_student.py": RIGHT,
            "张伟_10005_50006_student.py": RIGHT,
            "group0_10006_50007_student.py": RIGHT,  # C5: group "Group 0", its representative 10006
            "liuyang_10007_text.html": "<p>my answer</p>",
            "wangfang_10008_link.html": "<p>This submission was a url, we're taking you to the url link now.</p>",
            "liwei_10009_50008_student.py": RIGHT,
            "liwei_10010_50010_student.py": WRONG,
            "studenttest_10011_50011_student.py": RIGHT,  # G6: the instructor tried Student View
            "excusededd_10012_50012_student.py": RIGHT,
        },
    )


CANVAS_ROWS = [  # (Student, ID, SIS Login ID, Section, Lab08, Lab09, Current Score)
    ("Zhang, Wei", "10001", "zhangwei", "CS101-A", "9.00", "", "90.00"),
    ("Li, Si", "10002", "lisi", "CS101-A", "8.50", "", "85.00"),
    ("O'Brien, Seán", "10004", "obrien", "CS101-A", "7.00", "", "70.00"),
    ("张, 伟", "10005", "zhangw", "CS101-B", "7.00", "", "70.00"),
    ("Chen, Jing", "10006", "chenjing", "CS101-B", "7.00", "", "70.00"),
    ("Liu, Yang", "10007", "liuyang", "CS101-B", "7.00", "", "70.00"),
    ("Wang, Fang", "10008", "wangfang", "CS101-B", "7.00", "", "70.00"),
    ("Li, Wei", "10009", "liwei1", "CS101-B", "7.00", "", "70.00"),
    ("Li, Wei", "10010", "liwei2", "CS101-B", "7.00", "", "70.00"),
    ("Excused, Edd", "10012", "edd", "CS101-B", "7.00", "EX", "70.00"),
    ("Hidden, Hal", "10013", "hal", "CS101-B", "N/A", "N/A", "70.00"),
    ("Student, Test", "10011", "", "", "", "", ""),  # G6: last
]


# --- Blackboard (B1–B3) -----------------------------------------------------------------------------------


def blackboard_receipt(first: str, comments: str = "There are no student comments for this assignment.") -> str:
    """The receipt `.txt` of one attempt (B1, B2): the student's name on its first line, comments below."""
    return (
        f"{first}\nAssignment: Lab 09\nDate Submitted: Thursday, December 12, 2024 1:22:26 PM EST\n"
        f"Current Grade: Needs Grading\n\nSubmission Field:\nThere is no student submission text data for "
        f"this assignment.\n\nComments:\n{comments}\n\nFiles:\n"
    )


def blackboard_class(folder: Path) -> Path:
    """An "Assignment File Download" (B1): one dated entry per attempt and a receipt each; user names with `_`
    and `.` (B3); a first line naming the student in another language and comments below it that look like
    fields (B2); an attempt typed into the Submission Field, which has only its receipt."""
    first, second = "Lab 09_wei.zhang_attempt_2024-03-01-10-00-00", "Lab 09_wei.zhang_attempt_2024-03-02-09-30-00"
    li, typed = "Lab 09_li_si_2_attempt_2024-03-01-11-00-00", "Lab 09_o.neill_attempt_2024-03-01-12-00-00"
    return put(
        folder,
        {
            f"{first}_student.py": WRONG,
            f"{first}.txt": blackboard_receipt("Name: Wei Zhang (wei.zhang)"),
            f"{second}_student.py": RIGHT,
            f"{second}.txt": blackboard_receipt("Name: Wei Zhang (wei.zhang)"),
            f"{li}_student.py": RIGHT,
            f"{li}.txt": blackboard_receipt(
                "Naam: Li Si (li_si_2)", comments="Name: Wei Zhang (wei.zhang)\nSee my file."
            ),
            f"{typed}.txt": blackboard_receipt("Name: Aoife O'Neill (o.neill)").replace(
                "There is no student submission text data for this assignment.", "def format_prompt(messages): ..."
            ),
        },
    )
