"""`make grade`: every plain layout, honest verdicts for hostile submissions, identical files on a rerun.

The class of every layout and hostile file is Lab09's (its statuses are data of Lab09's files); the course file,
the csv header and Gradescope's tests are checked for each lab of conftest.LABS."""

import base64
import csv
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import uuid
import zipfile
from dataclasses import replace
from pathlib import Path

import pytest

from classes import wrong_solution, header
from conftest import CHECKOUT, LAB, QUICK, ROOT, SOLUTION, STUB, STUDENTS, armed, clean_env, make, without_level_line
from labkit import render
from labkit.i18n import text
from labkit.run import probe, sandbox
from labkit.instructor import config
from labkit.instructor.outputs import gradescope
from labkit.instructor.audit import private_files
from labkit.instructor.class_run import ClassOptions, grade_folder
from labkit.instructor.config import course_settings
from labkit.instructor.one_submission import grade_submission
from labkit.instructor.lms.submissions import Submission

LIMITS = replace(QUICK, load_seconds=3.0, submission_seconds=30.0)
HOSTILE = STUDENTS / "hostile"
SCHEME = config.load()
GRADED = SCHEME.checks  # the six, x1-x10, p1-p4, g1-g3
MAX_SCORE = SCHEME.max_score


MARKER = f"lab09-leftover-{uuid.uuid4().hex}"  # on the command line of the process a submission leaves behind


def build_class(folder: Path, out: Path, canary: Path) -> Path:
    """A class with every layout and every hostile submission, around two honest controls.  The attacks
    that reach for files are aimed at `out` (the grader's output folder) and `canary`, both in the test's
    temp dir; the one that leaves a process behind carries MARKER so the test can look for it."""
    folder.mkdir()
    shutil.copy(SOLUTION, folder / "control_a.py")
    nested = folder / "control_b" / "lab09-step8" / "framework"
    nested.mkdir(parents=True)
    shutil.copy(STUDENTS / "wrong" / "first_not_last.py", nested / "student.py")
    (folder / "control_b" / ".venv" / "lib").mkdir(parents=True)  # hidden folders are not searched
    (folder / "control_b" / ".venv" / "lib" / "student.py").write_text("raise SystemExit\n")
    with zipfile.ZipFile(folder / "zipped.zip", "w") as bundle:
        bundle.write(STUDENTS / "correct" / "regex.py", "lab/framework/student.py")
        bundle.writestr("__MACOSX/lab/framework/student.py", "garbage")
    with zipfile.ZipFile(folder / "two_files.zip", "w") as bundle:
        bundle.writestr("a/student.py", "")
        bundle.writestr("b/student.py", "")
    (folder / "broken.zip").write_bytes(b"PK\x03\x04 not really a zip")
    (folder / "report.docx").write_bytes(b"PK\x03\x04 a word file")
    (folder / "empty").mkdir()
    (folder / "notes.txt").write_text("not a submission\n")
    (folder / ".DS_Store").write_bytes(b"\0")
    gbk = SOLUTION.read_text(encoding="utf-8").replace("参考答案", "参考答案，你好")
    (folder / "gbk.py").write_bytes(gbk.encode("gbk"))
    for path in sorted(HOSTILE.glob("*.py")):
        shutil.copy(path, folder / f"hostile_{path.name}")
    targets = [str(out), str(canary)]
    armed("forges_grade_files", folder, TARGETS=targets).replace(folder / "hostile_forges_grade_files.py")
    armed("leaves_a_process_behind", folder, TARGETS=targets, MARKER=MARKER, GO=str(out / "grades.csv")).replace(
        folder / "hostile_leaves_a_process_behind.py"
    )
    shutil.copy(STUDENTS / "wrong" / "str_subclass.py", folder / "str_subclass.py")
    return folder


EXPECTED_STATUS = {
    "control_a": "ok",
    "control_b": "ok",
    "zipped": "ok",
    "two_files": "several_student_py",
    "broken": "bad_archive",
    "empty": "no_student_py",
    "notes": "unsupported",
    "report": "unsupported",
    "gbk": "not_utf8",
    "str_subclass": "ok",
    "hostile_exit_at_import": "import_error",
    "hostile_exit_in_call": "ok",
    "hostile_sys_exit_in_call": "ok",
    "hostile_os_exit_in_call": "crashed",
    "hostile_keyboard_interrupt": "ok",
    "hostile_loop_in_call": "timeout",
    "hostile_loop_sigalrm_ignored": "timeout",
    "hostile_long_c_call": "timeout",
    "hostile_loop_at_import": "timeout",
    "hostile_recursion": "ok",
    "hostile_reads_stdin": "ok",
    "hostile_huge_allocation": "memory",
    "hostile_missing_module": "import_error",
    "hostile_misspelt_function": "missing_function",
    "hostile_not_callable": "missing_function",
    "hostile_syntax_error": "syntax_error",
    "hostile_forged_replies": "ok",
    "hostile_patches_builtins": "ok",
    "hostile_steals_solution": "ok",
    "hostile_fake_pass_lines": "ok",
    "hostile_floods_stdout": "ok",
    "hostile_forges_grade_files": "ok",
    "hostile_patches_reporting": "ok",
    "hostile_escape_codes": "ok",
    "hostile_forges_replies_with_nonce": "crashed",
    "hostile_leaves_a_process_behind": "ok",
    "hostile_many_names": "missing_function",
    "hostile_probes_its_walls": "ok",
    "hostile_returns_deep_nesting": "ok",
    "hostile_surrogate_in_exception": "ok",
    "hostile_bloats_with_forged_replies": "crashed",
    "hostile_grows_its_input": "ok",
    "hostile_fills_every_bound": "ok",
    "hostile_leaves_deep_folders": "ok",
    "hostile_reorders_what_you_read": "ok",
    "hostile_connects_to_local_sockets": "ok",
    "hostile_writes_shared_folders": "ok",
    "hostile_forks_many": "ok",
    "hostile_steals_from_git": "ok",
    "hostile_steals_cached_bytecode": "ok",
    "hostile_copies_a_classmate": "ok",
    "hostile_nests_sleeping_processes": "ok",
    "hostile_signals_every_way": "ok",
    "hostile_signals_its_worker": "ok",
    "hostile_fills_its_folder": "ok",
    "hostile_changes_modes_outside": "ok",
}
ATTACKERS = (
    "hostile_forged_replies",
    "hostile_patches_builtins",
    "hostile_forges_grade_files",
    "hostile_patches_reporting",
    "hostile_escape_codes",
    "hostile_forges_replies_with_nonce",
    "hostile_leaves_a_process_behind",
    "hostile_returns_deep_nesting",
    "hostile_surrogate_in_exception",
    "hostile_bloats_with_forged_replies",
)
REORDERING = re.compile("[\u061c\u200b-\u200f\u2028-\u202e\u2066-\u2069\U000e0000-\U000e007f]")  # bidi, Cf


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    root = tmp_path_factory.mktemp("class")
    out, canary = root / "out", root / "canary"
    for folder in (out, canary):
        folder.mkdir()
        (folder / "grades.csv").write_text("student,score\nalice,100\n")  # what an earlier run left
    folder = build_class(root / "submissions", out, canary)
    run = grade_folder(folder, out, LIMITS, ClassOptions(jobs=2))
    leftovers = [pid for pid in _pids() if MARKER.encode() in _cmdline(pid)]
    return root, {record["student"]: Graded(record) for record in run.records}, leftovers


class Graded:
    """A record read back, with the few questions these tests ask of it."""

    def __init__(self, record: dict):
        self.record, self.status, self.score = record, record["status"], record["score"]
        self.verdicts = [record["cases"][case.column] for case in GRADED if case.column in record["cases"]]

    def passed(self, case) -> bool:
        return bool(self.record["cases"].get(case.column, {}).get("passed"))


def _pids():
    return [int(entry) for entry in os.listdir("/proc") if entry.isdigit()] if os.path.isdir("/proc") else []


def _cmdline(pid: int) -> bytes:
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as handle:
            return handle.read()
    except OSError:
        return b""


def test_every_entry_gets_one_row_with_its_status(graded):
    _, grades, _ = graded
    assert {student: grade.status for student, grade in grades.items()} == EXPECTED_STATUS


def test_scores_are_honest(graded):
    _, grades, _ = graded
    assert grades["control_a"].score == grades["zipped"].score == MAX_SCORE
    # forging, patching and stealing earn exactly what their honest return values earn: the stub's score
    stub = grade_submission(Submission("stub", "student.py", source=STUB.read_bytes()), LIMITS, SCHEME).score
    assert stub == 0
    for student in ATTACKERS + (
        "two_files",
        "broken",
        "empty",
        "gbk",
        "hostile_syntax_error",
        "hostile_exit_at_import",
        "hostile_loop_at_import",
    ):
        assert grades[student].score == stub, student
    stealing = grades["hostile_steals_solution"].score
    assert stealing == (stub if "read" in probe.level().blocks else MAX_SCORE)  # honest either way
    # a str subclass that equals everything earns only what its format_prompt earns honestly
    assert grades["str_subclass"].score == sum(
        SCHEME.points(c) for c in GRADED if grades["str_subclass"].passed(c) and c.function == "format_prompt"
    )
    assert grades["hostile_floods_stdout"].score == MAX_SCORE  # printing 200 MB changes nothing
    # a hang, an exit or a crash costs only the cases where it happens: format_prompt's cases still pass
    for student in ("hostile_loop_in_call", "hostile_os_exit_in_call", "hostile_exit_in_call"):
        assert all(grades[student].passed(case) for case in LAB.selected("test")[:3]), student


def test_nothing_of_a_submission_outlives_grading_or_escapes_into_the_outputs(graded):
    root, grades, leftovers = graded
    assert leftovers == []  # the process left behind was gone when grading returned
    written = [
        root / "out" / "grades.csv",
        root / "out" / "grades.json",
        *sorted((root / "out" / "feedback").glob("*.txt")),
    ]
    for path in written:
        content = path.read_text(encoding="utf-8")  # valid UTF-8: no lone surrogate got through
        assert "mallory" not in content, path
        assert not re.search("[\x00-\x08\x0b-\x1f\x7f-\x9f]", content), path  # no escape codes
        assert not REORDERING.search(content), path  # nothing that reorders what the reader sees
    if "write" in probe.level().blocks:
        assert (root / "canary" / "grades.csv").read_text() == "student,score\nalice,100\n"
    json.loads((root / "out" / "grades.json").read_text(encoding="utf-8"))


def test_one_submission_cannot_bloat_the_outputs(graded):
    """Issue 15, finding 3: a forged reply beyond the child's bounds, an honest list grown on every call, values
    just within every bound — each student's grades.json entry and feedback stay within their caps."""
    root, grades, _ = graded
    document = json.loads((root / "out" / "grades.json").read_text(encoding="utf-8"))
    for record in document["students"]:  # as grades.json writes it: two levels deep, four more spaces a line
        shown = json.dumps(record, ensure_ascii=False, indent=2)
        assert len(shown.encode("utf-8")) + 4 * (shown.count("\n") + 1) <= 32 << 10, record["student"]
    for path in (root / "out" / "feedback").glob("*.txt"):
        assert path.stat().st_size <= 64 << 10, path.name
    forged = grades["hostile_bloats_with_forged_replies"].record["cases"]
    assert "returned data of more than 1048576 characters" in forged["t1"]["message"]  # refused as forged
    grown = grades["hostile_grows_its_input"]
    assert {v["problem"] for v in grown.verdicts if not v["passed"]} == {"modified_input"}
    assert all(grown.passed(case) for case in GRADED if case.function == "extract_response")
    assert grown.score == sum(SCHEME.points(case) for case in GRADED if grown.passed(case))  # the spec's points
    assert grown.score < SCHEME.max_score
    assert "现值: (太大了，没有收回: 超过 1048576 个字符" in grown.record["cases"]["x3"]["message"]
    full = (root / "out" / "feedback" / "hostile_fills_every_bound.txt").read_text(encoding="utf-8")
    # every verdict kept: values are drawn within a width budget, so this feedback stays under its cap without
    # being cut (test_bounds checks the cut itself, on feedback that is over it)
    assert full.count("[TEST ") == len(GRADED) and "每个学生的反馈最多 64 KB" not in full
    assert text("summary", passed=0, failed=len(LAB.selected("test"))) in full


def test_a_tree_of_any_depth_left_in_a_childs_folder_is_removed(graded):
    """Issue 15, finding 4: 1,100 nested folders (past the recursion limit), locked and read-only ones among
    them, cost nothing: removed when the child ends, and its student keeps full marks."""
    _, grades, _ = graded
    assert grades["hostile_leaves_deep_folders"].score == MAX_SCORE
    temporary = Path(tempfile.gettempdir())
    assert not [folder for folder in temporary.glob(f"{sandbox.PREFIX}-*-*") if (folder / "lab09-deep").exists()]


def test_hostile_neighbours_change_no_other_verdict(graded):
    _, grades, _ = graded
    alone = grade_submission(Submission("alone", "student.py", source=SOLUTION.read_bytes()), LIMITS, SCHEME)
    assert [v["passed"] for v in grades["control_a"].verdicts] == [v.passed for v in alone.verdicts]
    control_b = [v["passed"] for v in grades["control_b"].verdicts]
    assert control_b.count(False) >= 1 and not grades["control_b"].passed(LAB.selected("test")[4])


def test_csv_header_rows_and_cells(graded):
    root, grades, _ = graded
    lines = (root / "out" / "grades.csv").read_text(encoding="utf-8").splitlines()
    assert lines[0] == ",".join(header(LAB))
    rows = list(csv.DictReader(lines))
    assert [row["student"] for row in rows] == sorted(grades)
    for row in rows:
        cells = [row[c.column] for c in GRADED]
        assert set(cells) <= {"0", "1"}
        assert int(row["score"]) == sum(SCHEME.points(c) for c in GRADED if row[c.column] == "1")
        assert int(row["score"]) == sum(int(row[f"{group}_points"]) for group in SCHEME.weights)
        assert row["max_score"] == str(MAX_SCORE)
    assert "mallory" not in (root / "out" / "grades.csv").read_text()


def test_json_has_every_verdict_message_and_timing(graded):
    root, _, _ = graded
    document = json.loads((root / "out" / "grades.json").read_text(encoding="utf-8"))
    loop = next(s for s in document["students"] if s["student"] == "hostile_loop_in_call")
    assert loop["cases"]["t5"]["problem"] == "timeout" and loop["cases"]["t5"]["timing"]["timed_out"]
    assert "秒内没有返回" in loop["cases"]["t5"]["message"] and loop["cases"]["t1"]["passed"]
    assert [c["column"] for c in document["cases"]] == [c.column for c in GRADED]
    control_b = next(s for s in document["students"] if s["student"] == "control_b")["cases"]["t5"]["message"]
    caret = next(line for line in control_b.splitlines() if line.lstrip().startswith("^"))
    actual = next(line for line in control_b.splitlines() if line.startswith("实际:"))
    # the layout is kept: the caret stays under the differing character (CJK labels are two columns wide)
    assert caret.index("^") == render.width(actual[: actual.index('"2"')]) + 1


def test_feedback_is_what_make_test_full_prints(graded):
    """Byte for byte, but for the property checks: the grade draws each student's inputs (issue 15, finding 6),
    so their section says so in its header and may show another counterexample for the same verdicts."""
    root, _, _ = graded
    input_free = ("hostile_misspelt_function", "hostile_syntax_error")  # verdicts that show no input
    for name in ("control_b", "hostile_os_exit_in_call") + input_free:
        entry = root / "submissions" / (name if name == "control_b" else f"{name}.py")
        student = entry / "lab09-step8" / "framework" / "student.py" if entry.is_dir() else entry
        lab_copy = root / "as_student" / name / "student.py"
        lab_copy.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(student, lab_copy)
        printed = make("test-full", f"STUDENT={lab_copy}", env=clean_env(LAB_TIMEOUT="0.5")).stdout
        printed = printed.replace(str(lab_copy), "student.py")
        feedback = (root / "out" / "feedback" / f"{name}.txt").read_text(encoding="utf-8")
        feedback = without_generated(without_level_line(feedback))
        graded_section, printed_section = property_section(feedback), property_section(printed)
        assert graded_section[0] == text("section.graded_properties"), name
        assert printed_section[0] == text("section.properties"), name
        assert outside_properties(feedback) == outside_properties(printed), name
        if name in input_free:
            assert graded_section[1:] == printed_section[1:], name
            continue
        assert verdict_lines(graded_section) == verdict_lines(printed_section), name
        for explained in explanations(graded_section):  # every failure explained as make test-full does
            assert explained[0].startswith("    调用: ") and explained[-1].startswith("    提示: "), name
            assert any("个随机输入出错" in line for line in explained), name


def without_generated(feedback: str) -> str:
    """The feedback less what only grading runs: the generated checks' section and summary line."""
    before, rest = feedback.split("\n\n=== 生成检查", 1)
    after = rest[rest.index("\n\n" + "=" * 40) :]
    return before + "\n".join(line for line in after.split("\n") if not line.startswith("生成检查: "))


def property_section(report: str) -> list[str]:
    """The lines of the property checks' section: its header, its [TEST pN] lines and their explanations."""
    lines = report.split("\n")
    start = next(i for i, line in enumerate(lines) if line.startswith("=== 性质检查"))
    return lines[start : lines.index("", start)]


def outside_properties(report: str) -> list[str]:
    lines, section = report.split("\n"), property_section(report)
    start = lines.index(section[0])
    return lines[:start] + lines[start + len(section) :]


def verdict_lines(section: list[str]) -> list[str]:
    return [line for line in section if line.startswith("[TEST ")]


def explanations(section: list[str]) -> list[list[str]]:
    """The lines under each failing [TEST] line of a section."""
    blocks: list[list[str]] = []
    for line in section[1:]:
        if line.startswith("[TEST "):
            blocks.append([])
        else:
            blocks[-1].append(line)
    return [block for block in blocks if block]


def test_report_is_one_self_contained_page(graded):
    root, grades, _ = graded
    page = (root / "out" / "report.html").read_text(encoding="utf-8")
    assert page.startswith("<!doctype html>") and "http:" not in page and "https:" not in page
    assert page.count("class=bar") == len(GRADED) and page.count("<tr><td data-v=") == len(grades)
    assert "src=" not in page and page.count("<script") == 1  # the sorting script, inline
    script = page.split("<script>", 1)[1].split("</script>", 1)[0]
    digest = base64.b64encode(hashlib.sha256(script.encode("utf-8")).digest()).decode()
    assert f"default-src 'none'; style-src 'unsafe-inline'; script-src 'sha256-{digest}'" in page


def test_grading_twice_gives_identical_files(tmp_path):
    folder = tmp_path / "class"
    folder.mkdir()
    paths = [
        SOLUTION,
        STUDENTS / "wrong" / "no_trim.py",
        HOSTILE / "loop_in_call.py",
        HOSTILE / "fake_pass_lines.py",
        HOSTILE / "os_exit_in_call.py",
        HOSTILE / "syntax_error.py",
    ]
    for path in paths:
        shutil.copy(path, folder / path.name)
    outputs = []
    for run in ("first", "second"):
        result = make(
            "grade", f"SUBMISSIONS={folder}", f"OUT={tmp_path / run}", "JOBS=2", env=clean_env(LAB_TIMEOUT="0.5")
        )
        assert result.returncode == 0, result.stderr
        assert "ETA" in result.stderr or "预计" in result.stderr
        outputs.append(
            {p.relative_to(tmp_path / run): p.read_bytes() for p in sorted((tmp_path / run).rglob("*")) if p.is_file()}
        )
    assert outputs[0] == outputs[1] and len(outputs[0]) == 3 + len(paths)  # grades.csv, .json, report; feedback
    assert not [p for p in (tmp_path / "first").iterdir() if p.name.startswith(".")]  # no staging left


def test_a_rerun_replaces_forged_and_stale_files(tmp_path):
    folder = tmp_path / "class"
    folder.mkdir()
    shutil.copy(SOLUTION, folder / "alice.py")
    out = tmp_path / "out"
    assert make("grade", f"SUBMISSIONS={folder}", f"OUT={out}").returncode == 0
    with open(out / "grades.csv", "a") as forged:
        forged.write("mallory,ok,100,100\n")
    (out / "feedback" / "mallory.txt").write_text("forged\n")
    assert make("grade", f"SUBMISSIONS={folder}", f"OUT={out}").returncode == 0
    assert "mallory" not in (out / "grades.csv").read_text() and not (out / "feedback" / "mallory.txt").exists()


def test_grade_without_submissions_says_how():
    result = make("grade")
    assert result.returncode != 0 and "SUBMISSIONS=" in result.stderr


def test_every_way_of_asking_lists_every_option_readme_documents():
    from labkit.instructor.grade import MAKE_OPTIONS, MAKE_USAGE  # make grade's variables, in one place

    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    synopsis = readme.split("## Grading a class", 1)[1].split("```bash\n", 1)[1].split("```", 1)[0]
    assert " ".join(synopsis.split()) == MAKE_USAGE  # README's synopsis is the grader's own
    documented = re.findall(r"\[([A-Z_]+)=", MAKE_USAGE)
    assert documented == [name for name, _, _ in MAKE_OPTIONS] and len(documented) == 9
    recipe = (ROOT / "Makefile").read_text(encoding="utf-8").split("\ngrade:", 1)[1].split("\n\n", 1)[0]
    passed_on = set(re.findall(r"\$\(([A-Z_]+)\)", recipe)) - {"RUN", "SUBMISSIONS"}
    assert sorted(passed_on) == sorted(documented)  # every variable the recipe hands to the grader
    usage = make("grade").stderr
    assert f"usage: {MAKE_USAGE}" in usage
    grader = subprocess.run(
        [sys.executable, "-m", "labkit.instructor.grade", "--help"],
        cwd=ROOT,
        env=clean_env(),
        capture_output=True,
        text=True,
        timeout=60,
    ).stdout
    assert all(f"--{option.lstrip('-')}" in grader for _, _, option in MAKE_OPTIONS)
    assert MAKE_USAGE in " ".join(grader.split())
    assert all(f"{name}= is {option}" in " ".join(grader.split()) for name, _, option in MAKE_OPTIONS)
    helped = next(line for line in make("help").stdout.splitlines() if line.startswith("make grade"))
    assert all(f"[{name}=" in helped for name in documented), helped


def test_each_lab_is_graded_with_its_own_course_file(lab):
    """The course file lies beside the lab's reference solution (Lab09's solutions/grading.ini): the toy is
    graded with its own secret and title, not with Lab09's, and no child may read it."""
    own = config.course_file()
    assert own == lab.solution_path.parent / "grading.ini" and own.is_file()
    stated = own.read_text(encoding="utf-8")
    scheme = config.load()
    assert f"secret = {scheme.secret}" in stated and f"title = {scheme.title}" in stated
    private = [path for _, path in private_files(None)]
    assert own in private and lab.solution_path in private and lab.root in private
    if lab.id != LAB.id:
        assert scheme.secret != SCHEME.secret


def test_gradescope_results_follow_its_schema(lab, tmp_path):
    wrong, named = wrong_solution(lab)
    submission = tmp_path / "submission"
    submission.mkdir()
    shutil.copy(wrong, submission / lab.student_file_name)
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
        env=clean_env(),
    )
    document = json.loads(results.read_text(encoding="utf-8"))
    scheme = config.load()
    assert set(document) >= {"score", "tests"}
    assert [(test["number"], test["name"]) for test in document["tests"]] == [
        (case.column, f"[TEST {case.id}] {text(case.label_key)}") for case in lab.graded
    ]
    course = course_settings(environ=clean_env(), scheme=scheme)  # the course the run above graded for
    for test, case in zip(document["tests"], lab.graded):
        assert set(test) >= {"name", "score", "max_score", "status", "output", "visibility"}
        assert test["status"] in ("passed", "failed") and test["visibility"] == gradescope.visibility(course, case)
        assert test["max_score"] == scheme.points(case)
        assert test["score"] == (test["max_score"] if test["status"] == "passed" else 0)
        assert test["output_format"] == "text"  # preformatted: the caret stays under the difference
    assert document["score"] == sum(t["score"] for t in document["tests"]) < scheme.max_score
    assert document["score"] > 0 or len(lab.graded) == 1  # some passed, some failed (but in a lab of one check)
    failed = [test["output"] for test in document["tests"] if test["status"] == "failed"]
    # the call, then why
    assert failed and all(output.startswith(f"{text('field.call')}: ") for output in failed), failed
    assert [output for output in failed if text(named) in output], failed  # the detector's hint, in the lab's words


def test_gradescope_says_why_nothing_ran_as_grades_json_does(tmp_path):
    submission = tmp_path / "class" / "submission"
    submission.mkdir(parents=True)  # nothing in it: no student.py, and nothing else found either
    results = tmp_path / "results.json"
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
        env=clean_env(),
    )
    outputs = {test["output"] for test in json.loads(results.read_text(encoding="utf-8"))["tests"]}
    shutil.copy(SOLUTION, tmp_path / "class" / "alice.py")  # a class with nothing to grade is refused (issue 29)
    subprocess.run(
        [sys.executable, "-m", "labkit.instructor.grade", str(tmp_path / "class"), "--out", str(tmp_path / "out")],
        cwd=ROOT,
        check=True,
        env=clean_env(),
        capture_output=True,
    )
    [record] = [
        record
        for record in json.loads((tmp_path / "out" / "grades.json").read_text(encoding="utf-8"))["students"]
        if record["student"] == "submission"
    ]
    assert record["status"] == "no_student_py" and outputs == {record["why"]} and record["why"].endswith(": —")


@CHECKOUT  # dist/ of the checkout
def test_gradescope_bundle_has_its_entry_points_and_no_solution():
    assert make("gradescope").returncode == 0
    with zipfile.ZipFile(ROOT / "dist" / "gradescope-autograder.zip") as bundle:
        names = set(bundle.namelist())
    assert {
        "setup.sh",
        "run_autograder",
        "labkit/instructor/grade.py",
        "solutions/grading.ini",
        "labkit/run/engine.py",
    } <= names
    # the course file and the generated checks' answer key, read by the grader only (the child cannot)
    assert sorted(name for name in names if name.startswith("solutions/")) == [
        "solutions/grading.ini",
        "solutions/student.py",
    ]
    assert not any(name.startswith("tests/") or name == "framework/student.py" for name in names)
