"""`make grade` on a Lab10 class of right, wrong and hostile files: full marks to every right one, each wrong one
named by its rule, each hostile one a status of its own, and the class whole (every file a row)."""

from __future__ import annotations

import csv
import json
import re
import shutil

import pytest

from lab10_support import COURSE, SOLUTION, SPEC, STUB, STUDENTS, breaks, make

from labkit.spec import load

LAB = load(SPEC)
WRONG = (
    "bool_is_int",
    "json_error_unnamed",
    "strips_reply",
    "no_done",
    "role_case_insensitive",
    "error_type_by_400",
    "fixed_meta",
    "usage_names",
)
HOSTILE = {
    "loop_in_parse": "timeout",
    "exit_in_stream": "crashed",
    "fake_pass": "ok",
    "huge_events": "ok",
    "exit_at_import": "import_error",
}


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    folder = tmp_path_factory.mktemp("lab10-class")
    out = folder.parent / f"{folder.name}-out"
    files = {
        "right_reference": SOLUTION,
        "stub": STUB,
        "wrong_solution": STUDENTS / "wrong.py",
        **{f"right_{path.stem}": path for path in sorted((STUDENTS / "correct").glob("*.py"))},
        **{f"wrong_{name}": STUDENTS / "wrong" / f"{name}.py" for name in WRONG},
        **{f"hostile_{name}": STUDENTS / "hostile" / f"{name}.py" for name in HOSTILE if name != "exit_at_import"},
        "hostile_exit_at_import": COURSE / "tests" / "students" / "hostile" / "exit_at_import.py",
    }
    for name, source in files.items():
        shutil.copy(source, folder / f"{name}.py")
    # the loop spins out the limit of every check that reaches parse_chat_request: a second each here, not the default
    # two (a right call takes microseconds: a busy machine still leaves it a thousandfold margin)
    result = make("grade", f"SUBMISSIONS={folder}", f"OUT={out}", "JOBS=2", timeout=600, LAB_TIMEOUT="1")
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    with open(out / "grades.csv", encoding="utf-8-sig", newline="") as stream:
        rows = {row["student"]: row for row in csv.DictReader(stream)}
    document = json.loads((out / "grades.json").read_text(encoding="utf-8"))
    return files, rows, {record["student"]: record for record in document["students"]}, out


def test_the_class_is_whole_every_file_a_row(graded):
    files, rows, records, _ = graded
    assert set(rows) == set(files) == set(records)


def test_every_right_file_gets_full_marks(graded):
    _, rows, _, _ = graded
    right = {student: (row["status"], row["score"]) for student, row in rows.items() if student.startswith("right_")}
    assert len(right) >= 3 and set(right.values()) == {("ok", "100")}, right
    assert (rows["stub"]["status"], rows["stub"]["score"]) == ("ok", "0")


@pytest.mark.parametrize("name", ["wrong_solution", *(f"wrong_{name}" for name in WRONG)])
def test_every_wrong_file_loses_points_on_a_check_whose_hint_names_its_rule(graded, name):
    files, rows, records, out = graded
    rule = breaks(files[name])
    failed = {column: case for column, case in records[name]["cases"].items() if not case["passed"]}
    assert rows[name]["status"] == "ok" and int(rows[name]["score"]) < 100 and failed
    feedback = (out / "feedback" / f"{name}.txt").read_text(encoding="utf-8")
    hints = re.findall(r"^    提示: (.*)$", feedback, re.M)
    assert any(re.search(rf"规则 (?:[PCSE]\d[、–])*{rule}\b|规则 {rule[0]}\d–{rule[0]}\d", hint) for hint in hints), (
        hints
    )


def test_every_hostile_file_ends_as_its_own_status_and_earns_only_what_it_returns(graded):
    """The loop costs parse_chat_request's checks; its honest chat_completion and error_body keep their points."""
    _, rows, records, _ = graded
    assert {name[len("hostile_") :]: rows[name]["status"] for name in rows if name.startswith("hostile_")} == HOSTILE
    assert all(rows[name]["score"] == "0" for name in rows if name.startswith("hostile_") and "loop" not in name)
    function = {check.column: check.function for check in LAB.graded}
    loop = records["hostile_loop_in_parse"]["cases"]
    assert {case["passed"] for column, case in loop.items() if function[column] == "parse_chat_request"} == {False}
    assert {
        case["passed"] for column, case in loop.items() if function[column] in ("chat_completion", "error_body")
    } == {True}
