"""The core against a lab it was not written for: the toy calculator of tests/toylab/, chosen through LAB_SPEC
and run by the same `make test` and `make grade` as Lab09 (design §6)."""

from __future__ import annotations

import csv
import importlib
import json
import shutil
import subprocess
import sys

import pytest

from conftest import ROOT, STUDENTS, clean_env, make
from labkit.i18n import text
from labkit.spec import Text, load

TOY = ROOT / "tests" / "toylab"
SPEC = "toylab.spec"  # tests/ is on the path of the suite and of every child below
LAB = load(SPEC)
SIX = LAB.selected("test")  # the toy's `make test` checks


def toy_env(**overrides) -> dict:
    """A student's shell with the toy lab chosen (LAB_SPEC) and found (PYTHONPATH), in English."""
    return clean_env(LAB_SPEC=SPEC, PYTHONPATH=str(ROOT / "tests"), LAB_LANG="en", **overrides)


def toy_test(student: str, target: str = "test") -> subprocess.CompletedProcess:
    """`make test` (or `make test-full`) of the toy lab on `student`, a file of tests/toylab/."""
    return make(target, f"STUDENT=tests/toylab/{student}", env=toy_env())


def verdicts(output: str) -> dict:
    """[TEST id] -> PASS or FAIL, as printed."""
    found = {}
    for line in output.splitlines():
        if line.startswith("[TEST "):
            found[line[6 : line.index("]")]] = line.rsplit("[", 1)[1].rstrip("]")
    return found


def test_the_toy_spec_is_another_lab_with_functions_of_other_types():
    assert LAB.functions == ("split_tokens", "to_rpn", "evaluate") and LAB.graded_functions == LAB.functions
    wanted = {check.id: {type(example.expected).__name__ for example in check.examples} for check in LAB.checks}
    assert wanted == {
        "1": {"list"},
        "2": {"list"},
        "3": {"str"},
        "4": {"str"},
        "x1": {"list"},
        "x2": {"str"},
        "x3": {"int"},
    }  # evaluate returns an int: the child sends it as data, like a list
    assert [check.id for check in SIX] == ["1", "2", "3", "4"] and LAB.check("x3") not in SIX
    assert LAB.student_file_name == "calc.py" and LAB.student_module == "calc"


@pytest.mark.parametrize("student, passed", [("calc.py", 0), ("solution.py", len(SIX))])
def test_the_toy_make_test_gives_the_stub_nothing_and_the_solution_every_case(student, passed):
    result = toy_test(student)
    assert verdicts(result.stdout) == {c.id: "PASS" if passed else "FAIL" for c in SIX}, result.stdout + result.stderr
    assert text("summary", "en", passed=passed, failed=len(SIX) - passed) in result.stdout.splitlines()
    assert (result.returncode == 0) == (passed == len(SIX))


def test_the_toy_wrong_solution_fails_the_cases_its_detector_names_with_the_toy_hint():
    result = toy_test("wrong.py", "test-full")
    shown = verdicts(result.stdout)
    assert {case for case, verdict in shown.items() if verdict == "FAIL"} == {"4", "x2", "x3"}, result.stdout
    precedence = importlib.import_module(SPEC).TEXTS["toy.hint.precedence"].en  # the toy lab's own words
    for case in ("4", "x3"):
        block = result.stdout.split(f"[TEST {case}]", 1)[1].split("[TEST", 1)[0]
        assert precedence in block and result.returncode != 0
    assert "expected: 7" in block and "actual:   9" in block, block  # evaluate("1+2*3"): ints, shown as such


@pytest.mark.parametrize("student, failed", [("solution.py", set()), ("calc.py", {c.id for c in LAB.selected("full")})])
def test_the_toy_make_test_full_runs_evaluate_which_returns_an_int(student, failed):
    result = toy_test(student, "test-full")
    shown = verdicts(result.stdout)
    assert set(shown) == {check.id for check in LAB.selected("full")} and "x3" in shown, result.stdout
    assert {case for case, verdict in shown.items() if verdict == "FAIL"} == failed, result.stdout
    assert (result.returncode == 0) == (not failed)


def test_a_returned_int_is_data_a_forged_one_is_not():
    """The child sends an exact int, finite float, bool or None as data; the parent keeps one only as the type
    it is, and refuses an int longer than the child would send."""
    from labkit.run import replies
    from labkit.run.engine import Limits

    limits = Limits()
    kept = [
        replies.returned({"kind": "data", "type": type(v).__name__, "value": v}, limits)["kind"]
        for v in (7, -2.5, True, None)
    ]
    assert kept == ["data"] * 4
    for forged in (
        {"type": "int", "value": "7"},
        {"type": "int", "value": True},
        {"type": "bool", "value": 1},
        {"type": "float", "value": float("nan")},
        {"type": "float", "value": float("inf")},
        {"type": "NoneType", "value": 0},
        {"type": "str", "value": 7},
        {"type": "complex", "value": 1.0},
    ):
        assert replies.returned({"kind": "data", **forged}, limits)["kind"] == "other", forged
    with pytest.raises(replies.Invalid, match="int"):
        replies.returned({"kind": "data", "type": "int", "value": 1 << (4 * limits.value_chars + 1)}, limits)


def test_the_toy_make_help_lists_the_toys_targets_and_make_chat_says_it_has_none():
    shown = make("help", env=toy_env())
    rows = shown.stdout.split("\ninstructors:")[0].splitlines()
    assert shown.returncode == 0 and [row.split()[1] for row in rows if row.startswith("make ")] == [
        "test",
        "test",
        "watch",
        "test-full",
        "clean",
    ], shown.stdout + shown.stderr  # no chat, no challenge
    # its own words
    assert "make test-full            基本 + 更多 (都计入成绩) / basic and more checks (all graded)" in rows
    without_make = subprocess.run(
        [sys.executable, "lab.py", "help"], cwd=ROOT, env=toy_env(), capture_output=True, text=True, timeout=60
    )
    assert without_make.returncode == 0 and "python lab.py run ARGS" in without_make.stdout
    assert "chat" not in without_make.stdout and "challenge" not in without_make.stdout
    chat = make("chat", "DEMO=1", env=toy_env())
    said = [line for line in chat.stderr.splitlines() if not line.startswith("make: ***")]  # make's own line
    assert (
        chat.returncode != 0
        and chat.stdout == ""
        and said == ["make chat: this lab has no chat target (it has: test, test-full, watch, clean, help, run)"]
    )


def test_a_lab_that_does_not_restate_the_test_full_line_gets_its_groups_named_by_the_core():
    """The core's line for `make test-full` names the groups it adds from the spec (Lab09 and the toy restate it)."""
    from dataclasses import replace
    from labkit import entry

    plain = replace(LAB, targets=())
    rows = [row for row in entry.help_text("make", plain).splitlines() if row.startswith("make test-full ")]
    assert rows == ["make test-full            基本 + 更多 (都计入成绩) / basic, more (all graded)"]
    two = replace(plain, groups=(*LAB.groups, replace(LAB.groups[-1], id="extra", name=Text("附加", "extra"))))
    rows = [row for row in entry.help_text("make", two).splitlines() if row.startswith("make test-full ")]
    assert rows == ["make test-full            基本 + 更多 + 附加 (都计入成绩) / basic, more and extra (all graded)"]


def test_the_toy_make_test_without_student_tests_the_toys_own_stub():
    result = make("test", env=toy_env())
    assert result.returncode != 0 and result.stdout.rstrip().endswith("tested: calc.py"), result.stdout
    assert text("summary", "en", passed=0, failed=len(SIX)) in result.stdout.splitlines()


@pytest.fixture(scope="module")
def toy_class(tmp_path_factory):
    """A toy class graded by the grader: the solution, the wrong file, the stub, three hostile files adapted to
    the toy's functions (or none), the solution under another name, and Lab09's solution under that name."""
    folder = tmp_path_factory.mktemp("toy-class")
    out = folder.parent / f"{folder.name}-out"
    # that one names no function
    hostile = [*sorted((TOY / "students").glob("*.py")), STUDENTS / "hostile" / "exit_at_import.py"]
    for name, source in (
        ("alice.py", TOY / "solution.py"),
        ("bob.py", TOY / "wrong.py"),
        ("carol.py", TOY / "calc.py"),
        *((f"hostile_{path.stem}.py", path) for path in hostile),
    ):
        shutil.copy(source, folder / name)
    for student, source in (("dave", TOY / "solution.py"), ("erin", ROOT / "solutions" / "student.py")):
        (folder / student).mkdir()
        shutil.copy(source, folder / student / "answer.py")  # misnamed: found by the functions it defines
    result = make(
        "grade",
        f"SUBMISSIONS={folder}",
        f"OUT={out}",
        f"CONFIG={TOY / 'grading.ini'}",
        "JOBS=2",
        env=toy_env(LAB_TIMEOUT="1"),  # the loop spins out each check's limit: a second here, not the default two
        timeout=300,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    with open(out / "grades.csv", encoding="utf-8-sig", newline="") as stream:
        rows = list(csv.DictReader(stream))
    return rows, json.loads((out / "grades.json").read_text(encoding="utf-8"))


def test_the_toy_grades_csv_has_the_toy_specs_columns(toy_class):
    rows, document = toy_class
    header = list(rows[0])
    columns = [check.column for check in LAB.graded]
    assert header[4 : 4 + len(columns)] == columns == ["t1", "t2", "t3", "t4", "x1", "x2", "x3"]
    assert header[-len(LAB.graded_groups) :] == [f"{group.id}_points" for group in LAB.graded_groups]
    assert document["lab"] == LAB.name and [case["column"] for case in document["cases"]] == columns


def test_the_toy_class_gets_honest_scores_and_one_status_per_hostile_file(toy_class):
    rows, document = toy_class
    by_student = {row["student"]: row for row in rows}
    full = str(sum(group.points for group in LAB.graded_groups))
    assert (by_student["alice"]["status"], by_student["alice"]["score"]) == ("ok", full)
    assert (by_student["carol"]["status"], by_student["carol"]["score"]) == ("ok", "0")
    assert [column for column in ("t4", "x2", "x3") if by_student["bob"][column] == "0"] == ["t4", "x2", "x3"]
    bob = next(student for student in document["students"] if student["student"] == "bob")
    assert {column: case["hint"] for column, case in bob["cases"].items() if not case["passed"]} == {
        "t4": "toy.hint.precedence",
        "x2": "toy.hint.precedence",
        "x3": "toy.hint.precedence",
    }
    hostile = {student: row["status"] for student, row in by_student.items() if student.startswith("hostile_")}
    assert hostile == {
        "hostile_exit_at_import": "import_error",
        "hostile_loop_in_call": "timeout",
        "hostile_os_exit_in_call": "crashed",
    }
    assert all(by_student[student]["score"] == "0" for student in hostile)


def test_a_misnamed_file_counts_when_it_defines_the_toy_functions_not_lab09s(toy_class):
    rows, _ = toy_class
    by_student = {row["student"]: row for row in rows}
    assert (by_student["dave"]["status"], by_student["dave"]["score"]) == ("ok", "100")
    assert by_student["erin"]["status"] == "no_student_py"
