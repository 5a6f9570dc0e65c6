"""A class run nothing stops: one barrier per submission, outputs all or none, Ctrl-C, regrades, safe ids.

The small class of tests/classes.py is graded for each lab of conftest.LABS, its outputs read against that lab's
spec; the other tests grade Lab09's files (Ctrl-C, killed workers, regrades: the core's process handling, which
no spec enters, and each of them slow)."""

import csv
import io
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import threading
from dataclasses import replace
from pathlib import Path

import pytest

from classes import HONEST, HOSTILE, wrong_solution, graded_classes, header  # noqa: F401  (a fixture)
from conftest import CLASS_LIMITS, LAB, ROOT, SOLUTION, STUDENTS, clean_env, make, process_table, wait_for
from labkit.i18n import text
from labkit.run.probe import level as sandbox_level
from labkit.run.reaper import process_stat
from labkit.run.sandbox import Level
from labkit.instructor import audit, class_run, config, grade, workers
from labkit.instructor.outputs import atomic, figures, grades_json, report_page, terminal
from labkit.instructor.outputs.spool import Spool, SpoolChanged
from labkit.instructor.results import StudentResult
from results_fixtures import made_check, made_result
from labkit.instructor.class_run import ClassOptions, grade_folder
from labkit.instructor.one_submission import Grade

MAX_SCORE = config.load().max_score  # full marks of the grading scheme (solutions/grading.ini)

CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")
SLEEPER = (
    "import time\n\n\ndef format_prompt(messages):\n    time.sleep(600)\n\n\ndef extract_response(output):\n"
    "    time.sleep(600)\n"
)


def snapshot(folder: Path) -> dict:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def honest_class(folder: Path, names=("alice", "bob")) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    for name in names:
        shutil.copy(SOLUTION, folder / f"{name}.py")
    return folder


# --- a small class of either lab -------------------------------------------------------------------


def test_a_class_of_either_lab_is_graded_by_that_labs_spec(lab, graded_classes):
    graded = graded_classes(lab)
    columns = [check.column for check in lab.graded]
    assert graded.header == header(lab)
    assert sorted(graded.rows) == sorted([*HONEST, *HOSTILE])
    document = graded.document
    assert (document["lab"], document["title"]) == (lab.name, lab.name)  # the title from the lab's own course file
    assert [(case["column"], case["label"], case["group"]) for case in document["cases"]] == [
        (check.column, text(check.label_key), check.group.id) for check in lab.graded
    ]
    assert document["scheme"]["weights"] == {group.id: group.points for group in lab.graded_groups}
    assert document["max_score"] == graded.scheme.max_score == sum(group.points for group in lab.graded_groups)
    if lab.id != LAB.id:  # not Lab09's columns under another lab's name
        assert not {check.column for check in LAB.graded} <= set(columns)


def test_the_scores_of_either_labs_class_are_what_its_checks_are_worth(lab, graded_classes):
    """The solution gets full marks, the stub nothing, the wrong solution something in between (nothing, where the
    lab grades one check), failing the checks its detector names; every score is the sum of the points of the checks
    passed, group by group."""
    graded = graded_classes(lab)
    scheme, rows = graded.scheme, graded.rows
    for student, row in rows.items():
        passed = [check for check in lab.graded if row[check.column] == "1"]
        assert int(row["score"]) == sum(scheme.points(check) for check in passed), student
        assert int(row["max_score"]) == scheme.max_score
        assert [int(row[f"{group.id}_points"]) for group in lab.graded_groups] == [
            sum(scheme.points(check) for check in passed if check.group == group) for group in lab.graded_groups
        ]
    assert (rows["solution"]["status"], int(rows["solution"]["score"])) == ("ok", scheme.max_score)
    assert (rows["stub"]["status"], rows["stub"]["score"]) == ("ok", "0")
    wrong = int(rows["wrong"]["score"])  # something in between, where there is room (the scaffold grades one check)
    assert rows["wrong"]["status"] == "ok" and wrong < scheme.max_score and (0 < wrong or len(lab.graded) == 1)
    named = wrong_solution(lab)[1]
    failed = {column: case["hint"] for column, case in graded.students["wrong"]["cases"].items() if not case["passed"]}
    assert named in failed.values() and all(rows["wrong"][column] == "0" for column in failed), failed


def test_hostile_files_of_either_lab_end_as_one_status_each_and_score_nothing(lab, graded_classes):
    graded = graded_classes(lab)
    for student in HOSTILE:
        row = graded.rows[student]
        assert row["status"] and row["score"] == "0" and not [c for c in lab.graded if row[c.column] != "0"], row
        feedback = graded.feedback(student)
        assert not CONTROL.search(feedback.replace("\n", "")), student
        assert feedback.rstrip().splitlines()[-1] == text("summary.file", file=lab.student_file_name)


def test_the_feedback_of_either_lab_says_what_grades_csv_says_in_the_labs_words(lab, graded_classes):
    graded = graded_classes(lab)
    for student in (*HONEST, *HOSTILE):
        feedback, row = graded.feedback(student), graded.rows[student]
        for check in lab.graded:
            verdict = "PASS" if row[check.column] == "1" else "FAIL"
            assert f"[TEST {check.id}] {text(check.label_key)} ... [{verdict}]" in feedback.splitlines(), (
                student,
                check.id,
            )
    six = len(lab.selected("test"))
    assert text("summary", passed=six, failed=0) in graded.feedback("solution").splitlines()
    assert text("summary", passed=0, failed=six) in graded.feedback("stub").splitlines()
    assert text(wrong_solution(lab)[1]) in graded.feedback("wrong")


# --- ids -------------------------------------------------------------------------------------------


def test_entries_that_would_collide_keep_distinct_ids_and_no_cell_is_a_formula(tmp_path):
    folder = tmp_path / "class"
    folder.mkdir()
    wrong = STUDENTS / "wrong" / "no_trim.py"
    sources = {
        "X.py": SOLUTION,
        "X.py.py": wrong,
        "x.PY": wrong,
        '=HYPERLINK("http:evil.example","open").py': SOLUTION,
        "\x1b[2Jclear\x07.py": wrong,
        "-2+3.py": SOLUTION,
    }
    for name, source in sources.items():
        shutil.copy(source, folder / name)
    for name, source in (("X.zip", SOLUTION), ("X.zip.py", wrong)):
        if name.endswith(".zip"):
            import zipfile

            with zipfile.ZipFile(folder / name, "w") as bundle:
                bundle.write(source, "student.py")
        else:
            shutil.copy(source, folder / name)
    run = grade_folder(folder, tmp_path / "out", CLASS_LIMITS, ClassOptions(jobs=2))
    ids = [record["student"] for record in run.records]
    assert len(ids) == len(set(i.casefold() for i in ids)) == 8
    assert {"X.py", "X.py.py", "X.zip", "X.zip.py"} <= set(ids)
    scores = {record["student"]: record["score"] for record in run.records}
    assert scores["X.py"] == scores["X.zip"] == MAX_SCORE > scores["X.py.py"] == scores["X.zip.py"]
    feedback = sorted(p.name for p in (tmp_path / "out" / "feedback").iterdir())
    assert len(feedback) == 8 and not any(CONTROL.search(name) or "/" in name for name in feedback)
    table = (tmp_path / "out" / "grades.csv").read_text(encoding="utf-8")
    assert not CONTROL.search(table.replace("\n", ""))
    document = json.loads((tmp_path / "out" / "grades.json").read_text(encoding="utf-8"))
    shown = json.dumps([[r["student"], r["entry"], r["files"]] for r in document["students"]], ensure_ascii=False)
    assert "\\u001b" not in shown and "\\u0007" not in shown  # the entry's own name, too, is shown, not obeyed
    assert not CONTROL.search((tmp_path / "out" / "report.html").read_text(encoding="utf-8").replace("\n", ""))
    cells = [row[0] for row in csv.reader(table.splitlines()[1:])]
    assert not [cell for cell in cells if cell.startswith(("=", "+", "-", "@"))]
    assert "'=HYPERLINK(_http_evil.example_,_open_)" in cells and "'-2+3" in cells  # ids are safe file names


def test_an_output_folder_inside_the_submissions_is_never_graded(tmp_path):
    folder = honest_class(tmp_path / "class")
    out = folder / "grades"
    for _ in range(2):
        result = make("grade", f"SUBMISSIONS={folder}", f"OUT={out}")
        assert result.returncode == 0, result.stderr
    assert [row["student"] for row in csv.DictReader(open(out / "grades.csv"))] == ["alice", "bob"]
    shutil.copytree(out, folder / "old-results")  # a copy under another name is recognised too
    run = grade_folder(folder, tmp_path / "elsewhere", CLASS_LIMITS)
    assert [record["student"] for record in run.records] == ["alice", "bob"]


# --- the barrier -----------------------------------------------------------------------------------


def test_a_failure_while_rendering_one_submission_becomes_its_status_and_the_class_is_written(tmp_path, monkeypatch):
    folder = honest_class(tmp_path / "class", ("alice", "victim", "zoe"))
    real = StudentResult.from_grade

    def failing(result, limits):
        if result.student == "victim":
            raise RecursionError("maximum recursion depth exceeded while encoding a JSON object")
        return real(result, limits)

    monkeypatch.setattr(StudentResult, "from_grade", failing)
    run = grade_folder(folder, tmp_path / "out", CLASS_LIMITS, ClassOptions(jobs=2))
    records = {record["student"]: record for record in run.records}
    assert records["victim"]["status"] == "grader_error" and records["victim"]["score"] == 0
    assert records["alice"]["score"] == records["zoe"]["score"] == MAX_SCORE
    feedback = (tmp_path / "out" / "feedback" / "victim.txt").read_text(encoding="utf-8")
    assert "victim.py" in feedback and "RecursionError: maximum recursion depth exceeded" in feedback
    rows = list(csv.DictReader(open(tmp_path / "out" / "grades.csv", encoding="utf-8")))
    assert [row["status"] for row in rows] == ["ok", "grader_error", "ok"]
    page = (tmp_path / "out" / "report.html").read_text(encoding="utf-8")
    assert "RecursionError" in page.split("id=not-graded")[1]
    assert "2/2" in page.split("id=rates")[1].split("</table>")[0]  # the pass rates leave it out


def test_a_class_run_that_graded_nobody_fails_in_one_line_and_names_who_it_failed_on(tmp_path, monkeypatch, capsys):
    """Issue 24 item 5: every submission grader_error (a broken setup) exits 1 and says why in one line, where it
    exited 0 as if the class were graded; a few grader errors are named in the summary, and the run still exits
    0 when someone was graded."""
    monkeypatch.setattr(audit, "sandbox_level", lambda: Level("bwrap", full=True))
    folder = honest_class(tmp_path / "class", ("alice", "bob", "victim"))
    real = StudentResult.from_grade

    def failing(result, limits, who=("alice", "bob", "victim")):
        if result.student in who:
            raise RuntimeError("the course file's secret is unreadable")
        return real(result, limits)

    monkeypatch.setattr(StudentResult, "from_grade", failing)
    assert grade.main([str(folder), "--out", str(tmp_path / "none")]) == 1
    said = capsys.readouterr()
    failed = [line for line in said.err.splitlines() if line.startswith("评分失败")]
    assert len(failed) == 1 and "3 份提交全部是 grader_error" in failed[0]
    assert "RuntimeError: the course file's secret is unreadable" in failed[0]
    named = [line for line in said.out.splitlines() if line.startswith("评分程序出错的提交 (3")]
    assert len(named) == 1 and named[0].endswith("alice, bob, victim")

    monkeypatch.setattr(StudentResult, "from_grade", lambda result, limits: failing(result, limits, ("victim",)))
    assert grade.main([str(folder), "--out", str(tmp_path / "some")]) == 0
    said = capsys.readouterr()
    assert "评分失败" not in said.err and "评分程序出错的提交 (1，" in said.out and said.out.count("victim") >= 1


def test_workers_that_end_as_they_start_fail_the_run_in_one_line(tmp_path, monkeypatch, capsys):
    """The grader's own setup failing (no worker can take any work) is one line and exit 1, not a traceback."""
    monkeypatch.setattr(audit, "sandbox_level", lambda: Level("bwrap", full=True))
    folder = honest_class(tmp_path / "class", ("alice",))

    def failing(*args, **kwargs):
        raise workers.WorkersFailing("grading workers end as they start (exit code 1)")

    monkeypatch.setattr(class_run, "grade_class", failing)
    assert grade.main([str(folder), "--out", str(tmp_path / "out")]) == 1
    said = capsys.readouterr().err.strip().splitlines()
    assert said[-1] == text(
        "grade.setup_failed", why="grading workers end as they start (exit code 1)", out=tmp_path / "out"
    )
    assert not (tmp_path / "out").exists()


def test_class_outputs_are_written_all_or_none(tmp_path, monkeypatch):
    folder = honest_class(tmp_path / "class")
    out = tmp_path / "out"
    grade_folder(folder, out, CLASS_LIMITS)
    before = snapshot(out)
    shutil.copy(STUDENTS / "wrong" / "no_trim.py", folder / "bob.py")

    class FullDisk(io.RawIOBase):
        def writable(self):
            return True

        def write(self, data):
            raise OSError(28, "No space left on device")

    def full_disk(path):
        return io.BufferedWriter(FullDisk()) if path.name == "grades.json" else real_open(path)

    real_open = atomic._open
    monkeypatch.setattr(atomic, "_open", full_disk)
    with pytest.raises(OSError):
        grade_folder(folder, out, CLASS_LIMITS)
    assert snapshot(out) == before and sorted(p.name for p in out.iterdir()) == sorted(
        ["feedback", "grades.csv", "grades.json", "report.html"]
    )
    monkeypatch.setattr(atomic, "_open", real_open)

    real_replace, calls = os.replace, []

    def failing_third_rename(source, target):
        calls.append(target)
        if len(calls) == 3:
            raise OSError(5, "Input/output error")
        return real_replace(source, target)

    monkeypatch.setattr(atomic.os, "replace", failing_third_rename)
    with pytest.raises(OSError):
        grade_folder(folder, out, CLASS_LIMITS)
    monkeypatch.setattr(atomic.os, "replace", real_replace)
    assert snapshot(out) == before
    grade_folder(folder, out, CLASS_LIMITS)
    assert snapshot(out) != before and not [p for p in out.iterdir() if p.name.startswith(".")]


def test_outputs_follow_the_users_umask(tmp_path):
    folder = honest_class(tmp_path / "class")
    previous = os.umask(0o027)
    try:
        grade_folder(folder, tmp_path / "out", CLASS_LIMITS)
    finally:
        os.umask(previous)
    modes = {p.name: p.stat().st_mode & 0o777 for p in (tmp_path / "out").rglob("*")}
    assert modes["grades.csv"] == modes["report.html"] == modes["alice.txt"] == 0o640
    assert modes["feedback"] == 0o750


# --- Ctrl-C, dead workers, a killed grader ----------------------------------------------------------


def children_of(pid: int) -> list[int]:
    return [child for child, (parent, _, _, state) in process_table().items() if parent == pid and state != "Z"]


def alive(pid: int) -> bool:
    stat = process_stat(pid)
    return stat is not None and stat[3] != "Z"


def workers_of(grader: int) -> list[int]:
    """The grader's worker processes (multiprocessing's spawned interpreters; not its resource tracker)."""
    found = []
    for child in children_of(grader):
        try:
            with open(f"/proc/{child}/cmdline", "rb") as handle:
                if b"spawn_main" in handle.read():
                    found.append(child)
        except OSError:
            continue
    return found


def busy_workers(grader: int) -> list[int]:
    """Workers grading right now: each has a student's child running."""
    return [worker for worker in workers_of(grader) if children_of(worker)]


def everything_under(pid: int) -> list[int]:
    found, pending = [], [pid]
    while pending:
        for child in children_of(pending.pop()):
            found.append(child)
            pending.append(child)
    return found


def start_grader(folder: Path, out: Path, *options: str, session: bool = False, **env) -> subprocess.Popen:
    """The grader on `folder`; `session`: in a process group of its own, as a terminal starts it."""
    return subprocess.Popen(
        [sys.executable, "-m", "labkit.instructor.grade", str(folder), "--out", str(out), *options],
        cwd=ROOT,
        env=clean_env(**env),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=session,
    )


LINUX_PROC = pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads the process table from /proc")


@LINUX_PROC
def test_ctrl_c_stops_every_child_keeps_the_previous_outputs_and_exits_130(tmp_path):
    folder = honest_class(tmp_path / "class", ("alice",))
    out = tmp_path / "out"
    env = {"LAB_TIMEOUT": "60"}
    assert make("grade", f"SUBMISSIONS={folder}", f"OUT={out}", env=clean_env(**env)).returncode == 0
    before = snapshot(out)
    for name in ("sleepy1", "sleepy2", "sleepy3", "sleepy4"):
        (folder / f"{name}.py").write_text(SLEEPER, encoding="utf-8")
    grader = start_grader(folder, out, "--jobs", "2", **env)
    try:
        wait_for(lambda: len(busy_workers(grader.pid)) == 2, what="two sleepers running")
        started = everything_under(grader.pid)  # the workers, their children, multiprocessing's tracker
        grader.send_signal(signal.SIGINT)
        stdout, stderr = grader.communicate(timeout=120)  # grading itself would take an hour
    finally:
        if grader.poll() is None:
            grader.kill()
    assert grader.returncode == 130
    assert stderr.strip().splitlines()[-1].startswith("已中断") and "Traceback" not in stderr and stdout == ""
    # every process it started is gone when the grader returns: the workers and their children, and
    # multiprocessing's resource tracker, which on its own ends only a moment after the grader (it is stopped)
    assert not [pid for pid in started if alive(pid)]
    assert snapshot(out) == before and not [p for p in out.iterdir() if p.name.startswith(".")]


@LINUX_PROC
@pytest.mark.parametrize("ending, sandbox", [("SIGHUP", "uid"), ("SIGQUIT", "uid"), ("SIGHUP", "auto")])
def test_a_closed_terminal_ends_the_run_and_everything_it_started(tmp_path, ending, sandbox):
    """Round 5: a closed terminal or a dropped ssh session sends SIGHUP (Ctrl-\\ SIGQUIT) to the whole process
    group; the workers died by its default action without ending their children, and a sleeping child's
    processes (its waiter and its pid namespace) stayed, with parent 1.  Now every ending signal stops the run
    as Ctrl-C does: the grader exits 128 + the signal, and nothing it started is left (at `uid`: the waiter
    outside the child's pid namespace also ends with its worker, as bubblewrap's --die-with-parent does)."""
    folder = honest_class(tmp_path / "class", ())
    for name in ("sleepy1", "sleepy2"):
        (folder / f"{name}.py").write_text(SLEEPER, encoding="utf-8")
    out = tmp_path / "out"
    grader = start_grader(
        folder, out, "--jobs", "2", session=True, LAB_TIMEOUT="60", LAB_SANDBOX=sandbox, LAB_UNSAFE="1"
    )
    try:
        wait_for(lambda: len(busy_workers(grader.pid)) == 2, what="two sleepers running")
        started = everything_under(grader.pid)
        os.killpg(grader.pid, getattr(signal, ending))
        _, stderr = grader.communicate(timeout=120)
    finally:
        if grader.poll() is None:
            os.killpg(grader.pid, signal.SIGKILL)
    assert grader.returncode == 128 + getattr(signal, ending), stderr
    assert "Traceback" not in stderr
    wait_for(lambda: not [pid for pid in started if alive(pid)], what="every process the run started to end")
    assert not out.exists()


@LINUX_PROC
def test_a_worker_killed_mid_submission_costs_nothing_but_a_retry_and_the_run_writes_every_row(tmp_path):
    """Finding 9: SIGKILL of one worker, as the kernel's OOM killer sends it, used to lose the whole class."""
    names = ("alice", "bob", "carol", "dave", "erin")
    folder = honest_class(tmp_path / "class", names)
    out = tmp_path / "out"
    grader = start_grader(folder, out, "--jobs", "2")
    try:
        victim = wait_for(lambda: busy_workers(grader.pid), what="a worker grading")[0]
        os.kill(victim, signal.SIGKILL)
        stdout, stderr = grader.communicate(timeout=300)
    finally:
        if grader.poll() is None:
            grader.kill()
    assert grader.returncode == 0, stderr
    assert "Traceback" not in stderr and stdout.startswith("Lab09: 5 份提交评分完成")
    rows = list(csv.DictReader(open(out / "grades.csv", encoding="utf-8")))
    assert [(row["student"], row["status"], row["score"]) for row in rows] == [
        (name, "ok", str(MAX_SCORE)) for name in names
    ]
    assert sorted(p.name for p in (out / "feedback").iterdir()) == [f"{name}.txt" for name in names]


@LINUX_PROC
def test_a_submission_whose_worker_dies_on_both_tries_is_a_grader_error_and_the_class_is_written(tmp_path):
    """A dead worker's submission is tried once more, then recorded as not the student's doing; a worker told
    to stop (SIGTERM) stops, whatever its child is doing."""
    folder = honest_class(tmp_path / "class", ("alice", "zoe"))
    (folder / "victim.py").write_text(SLEEPER, encoding="utf-8")
    limits = replace(CLASS_LIMITS, case_seconds=60.0, submission_seconds=600.0)
    graded, outcome = [], {}

    def grading():
        try:
            options = ClassOptions(jobs=2, progress=lambda done, total: graded.append(done))
            outcome["run"] = grade_folder(folder, tmp_path / "out", limits, options)
        except BaseException as exc:  # noqa: BLE001  (the test reports it)
            outcome["error"] = exc

    thread = threading.Thread(target=grading)
    thread.start()
    try:
        wait_for(lambda: len(graded) == 2, what="the honest two graded")  # the victim's worker alone is busy
        first = wait_for(lambda: busy_workers(os.getpid()), what="the victim being graded")
        assert len(first) == 1
        os.kill(first[0], signal.SIGTERM)
        wait_for(lambda: not alive(first[0]), what="the worker to end on SIGTERM")
        second = wait_for(lambda: busy_workers(os.getpid()), what="the victim tried once more")
        assert second != first
        os.kill(second[0], signal.SIGKILL)
    finally:
        thread.join(300)
    assert not thread.is_alive() and "error" not in outcome, outcome
    rows = {row["student"]: row for row in csv.DictReader(open(tmp_path / "out" / "grades.csv", encoding="utf-8"))}
    assert [(row["status"], row["score"]) for row in rows.values()] == [
        ("ok", str(MAX_SCORE)),
        ("grader_error", "0"),
        ("ok", str(MAX_SCORE)),
    ]
    feedback = (tmp_path / "out" / "feedback" / "victim.txt").read_text(encoding="utf-8")
    assert "victim.py" in feedback and "WorkerDied" in feedback and "SIGKILL" in feedback and "2 times" in feedback
    assert outcome["run"].figures.graded == 2  # not the student's doing: left out of the figures


@LINUX_PROC
def test_workers_and_their_children_end_when_the_grader_is_killed(tmp_path):
    """A grader that is killed (SIGKILL: no handler runs) leaves nothing behind: its workers end with it, and
    so do the students' children they were running and multiprocessing's resource tracker."""
    folder = tmp_path / "class"
    folder.mkdir()
    for name in ("sleepy1", "sleepy2"):
        (folder / f"{name}.py").write_text(SLEEPER, encoding="utf-8")
    grader = start_grader(folder, tmp_path / "out", "--jobs", "2", LAB_TIMEOUT="60")
    try:
        wait_for(lambda: len(busy_workers(grader.pid)) == 2, what="two sleepers running")
        started = everything_under(grader.pid)
    finally:
        grader.kill()
        grader.communicate(timeout=120)
    assert len(started) >= 5  # two workers, a child of each, the tracker
    wait_for(lambda: not [pid for pid in started if alive(pid)], what="every process the grader started to end")


def test_each_record_and_feedback_goes_to_disk_as_it_is_made(tmp_path):
    """Memory flat in the size of the class: nothing of a graded student waits in memory for the end of the run
    (`make bench` measures the memory itself); no output exists while children run (none could change one)."""
    folder = honest_class(tmp_path / "class", ("alice", "bob", "carol"))
    out = tmp_path / "out"
    seen = []

    def progress(done, total):
        staging = out / f"{atomic.STAGING}{os.getpid()}"
        seen.append((done, (staging / ".records").stat().st_size, sorted(p.name for p in staging.iterdir())))

    grade_folder(folder, out, CLASS_LIMITS, ClassOptions(progress=progress))
    assert [done for done, _, _ in seen] == [1, 2, 3] and all(names == [".records"] for _, _, names in seen)
    sizes = [size for _, size, _ in seen]
    assert 0 < sizes[0] < sizes[1] < sizes[2] and sizes[2] > 3 * len((out / "feedback" / "alice.txt").read_bytes())
    assert not [p for p in out.iterdir() if p.name.startswith(".")]


def test_what_a_submission_writes_into_the_run_s_own_file_never_reaches_an_output(tmp_path):
    """Outside any sandbox a submission can write wherever the grader can: bytes it adds are never read, and a
    change to what the grader wrote stops the run before anything is written."""
    records = Spool(tmp_path / "records")
    records.put(1, {"student": "bob", "score": 0}, "bob's feedback")
    records.put(0, {"student": "alice", "score": 100}, "alice's feedback")
    with open(tmp_path / "records", "ab") as forged:
        forged.write(b'{"student": "mallory", "score": 100}')
    assert list(records.entries()) == [
        ({"student": "alice", "score": 100}, "alice's feedback"),
        ({"student": "bob", "score": 0}, "bob's feedback"),
    ]
    with open(tmp_path / "records", "r+b") as forged:
        forged.seek(forged.read().index(b'"score": 0'))
        forged.write(b'"score": 9')
    with pytest.raises(SpoolChanged):
        list(records)
    records.close()


def test_an_interrupted_run_into_a_new_folder_leaves_no_folder_behind(tmp_path, monkeypatch):
    folder = honest_class(tmp_path / "class", ("alice", "bob"))

    def interrupted(*_args, **_kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(report_page, "write_page", interrupted)
    with pytest.raises(KeyboardInterrupt):
        grade_folder(folder, tmp_path / "new" / "out", CLASS_LIMITS)
    assert not (tmp_path / "new").exists()


# --- the sandbox label -----------------------------------------------------------------------------


def test_the_sandbox_level_is_shown_in_grades_json_the_report_and_the_terminal(tmp_path):
    folder = honest_class(tmp_path / "class", ("alice",))
    result = make("grade", f"SUBMISSIONS={folder}", f"OUT={tmp_path / 'out'}")
    document = json.loads((tmp_path / "out" / "grades.json").read_text(encoding="utf-8"))
    level = audit.sandbox_level()
    shown = document["sandbox"]
    assert (shown["level"], shown["walls"], shown["blocks"], shown["full"]) == (
        level.name,
        list(level.walls),
        list(level.blocks),
        level.full,
    )
    assert level.name in result.stdout
    page = (tmp_path / "out" / "report.html").read_text(encoding="utf-8")
    assert "id=sandbox>" in page and level.name in page.split("id=sandbox>")[1].split("</p>")[0]


def test_below_full_strength_refuses_unless_unsafe_names_the_level_then_warns(tmp_path, monkeypatch, capsys):
    """Issue 27, item 1: a level below full strength is the instructor's choice, never a default."""
    monkeypatch.delenv("LAB_UNSAFE", raising=False)
    folder = honest_class(tmp_path / "class", ("alice",))
    weak = Level("landlock-4 (no pid namespace)", walls=("landlock-4",), blocks=("read", "sockets"), full=False)
    monkeypatch.setattr(audit, "sandbox_level", lambda: weak)
    assert grade.main([str(folder), "--out", str(tmp_path / "refused")]) == 2
    said = capsys.readouterr().err.strip().splitlines()
    assert len(said) == 1 and said[0].startswith("拒绝评分") and said[0].endswith("UNSAFE=landlock-4-no-pid-namespace")
    assert not (tmp_path / "refused").exists()
    assert grade.main([str(folder), "--out", str(tmp_path / "full-spelling"), "--unsafe", "landlock-4"]) == 2
    capsys.readouterr()  # the full level's spelling does not name this weaker one
    assert grade.main([str(folder), "--out", str(tmp_path / "weak"), "--unsafe", "landlock-4-no-pid-namespace"]) == 0
    captured = capsys.readouterr()
    assert captured.err.startswith(
        "警告: 按 UNSAFE=landlock-4-no-pid-namespace 在不完整的沙箱 landlock-4 (no pid namespace) 下评分"
    )
    assert "沙箱不完整，是老师用 UNSAFE= 选的: landlock-4" in captured.out
    assert "class=\"banner weak\"" in (tmp_path / "weak" / "report.html").read_text(encoding="utf-8")

    monkeypatch.setattr(audit, "sandbox_level", lambda: Level("none"))
    monkeypatch.setattr(os, "geteuid", lambda: 0)
    assert grade.main([str(folder), "--out", str(tmp_path / "refused"), "--unsafe", "landlock-4"]) == 2
    assert "UNSAFE=none" in capsys.readouterr().err and not (tmp_path / "refused").exists()
    assert grade.main([str(folder), "--out", str(tmp_path / "unsafe"), "--unsafe"]) == 0  # UNSAFE=1: any level
    assert (tmp_path / "unsafe" / "grades.csv").exists()


# --- the figures and their words ------------------------------------------------------------------

# The tester's class: three ran to the end, two timed out, one has a syntax error; and a .docx, not graded.
STATUSES = {
    "s1": "ok",
    "s2": "ok",
    "s3": "ok",
    "s4": "timeout",
    "s5": "timeout",
    "s6": "syntax_error",
    "s7": "no_student_py",
}
WORDS = {  # what each language says about that class, in the terminal and in report.html
    "zh": {
        "status": "状态: 全部运行完 3 · 超时 2 · 语法错误 1 · 没有 student.py 1",
        "scores": "分数 (已评分的 6 份提交；另 1 份没有评分): 平均 20.0",
        "overview": "7 份提交，其中 6 份已评分",
        "rates": "只统计已评分的 6 份提交 (共 7 份)",
        "tag": "全部运行完 3",
        "never": ("能运行", "已运行"),
    },
    "en": {
        "status": "status: ran to the end 3 · timed out 2 · syntax error 1 · no student.py 1",
        "scores": "score (6 graded submissions; 1 not graded): mean 20.0",
        "overview": "7 submissions, 6 of them graded",
        "rates": "Over the 6 graded submissions (of 7)",
        "tag": "ran to the end 3",
        "never": ("that ran", "ran 3", "them ran"),
    },
}


def class_records() -> list:
    """Results of that class as the grader counts them: `gradable` is the grader's own rule (Grade.gradable)."""
    return [
        made_result(
            student,
            status=status,
            gradable=Grade(student, "", status).gradable,
            score=40 if status == "ok" else 0,
            max_score=MAX_SCORE,
        )
        for student, status in STATUSES.items()
    ]


@pytest.mark.parametrize("language", ["zh", "en"])
def test_the_status_line_and_the_score_line_count_the_same_submissions(language, monkeypatch):
    monkeypatch.setenv("LAB_LANG", language)
    records = class_records()
    assert len(figures.gradable(records)) == 6  # a syntax error and the timeouts get a score; the .docx does not
    words = WORDS[language]
    lines = terminal.terminal_summary(records, 1.0, 4, "out", Level("bwrap", full=True)).splitlines()
    assert lines[1] == words["status"]
    assert lines[2].startswith(words["scores"])
    page = report_page.page(records, config.course_settings(), Level("bwrap", full=True))
    assert words["overview"] in page and words["rates"] in page and words["tag"] in page
    for wrong in words["never"]:
        assert wrong not in "\n".join(lines) and wrong not in page, wrong
    readme = (ROOT / "README.md").read_text(encoding="utf-8")  # README names the figures the same way
    for key in ("label.ok",):
        assert text(key, language="en") in readme and text(key, language="zh") in readme
    assert "score (N graded submissions)" in readme and "已评分的 N 份提交" in readme


def test_the_terminal_lists_the_most_common_mistakes_and_says_how_many_more_the_report_has():
    """A TA's class with seven kinds of mistake: the terminal showed five and said nothing of the other two
    (M6, M7 of report.html: a missing blank line between SSE events, a loop); now a last line says how many more
    and where they are."""
    records = [
        made_result(
            f"s{index}",
            max_score=MAX_SCORE,
            cases={"1": made_check(hint=f"hint.{index}", hint_text=f"mistake {index}")},
        )
        for index in range(7)
    ]
    lines = terminal.terminal_summary(records, 1.0, 4, "out", Level("bwrap", full=True)).splitlines()
    start = lines.index(text("report.mistakes_top")) + 1
    listed = [line for line in lines[start:] if " × " in line]
    assert len(listed) == terminal.MISTAKES_SHOWN
    assert lines[start + len(listed)] == "  " + text("report.mistakes_more", count=2, out="out")
    fewer = terminal.terminal_summary(records[:5], 1.0, 4, "out", Level("bwrap", full=True))
    assert text("report.mistakes_more", count=0, out="out").split("0")[0] not in fewer


@pytest.mark.parametrize("language", ["zh", "en"])
def test_after_a_merge_the_first_line_says_how_many_were_graded_and_how_many_written(language, monkeypatch):
    monkeypatch.setenv("LAB_LANG", language)
    records = class_records()
    first = terminal.terminal_summary(records, 0.1, 4, "out", Level("bwrap", full=True), merged=1).splitlines()[0]
    assert (
        first
        == {
            "zh": "Lab09: 评分 1 份 (合并后共 7 份)，用时 0.1 秒 (1 个并行)",
            "en": "Lab09: graded 1 (merged: 7 in all) in 0.1 s (1 at a time)",
        }[language]
    )
    whole = terminal.terminal_summary(records, 0.1, 4, "out", Level("bwrap", full=True)).splitlines()[0]
    assert (
        whole
        == {
            "zh": "Lab09: 7 份提交评分完成，用时 0.1 秒 (4 个并行)",
            "en": "Lab09: graded 7 submissions in 0.1 s (4 at a time)",
        }[language]
    )


@pytest.mark.parametrize("count", [0, 1, 7])
def test_grades_json_written_record_by_record_is_the_same_text_as_the_whole_document(count):
    records = [
        replace(record, cases={"t1": made_check(hint="h", message="a\nb \u4e2d\U0001f600")})
        for record in class_records()[:count]
    ]
    stream = io.StringIO()
    grades_json.write_grades_json(stream, records, CLASS_LIMITS, config.course_settings(), Level("bwrap", full=True))
    written = stream.getvalue()
    assert written == json.dumps(json.loads(written), ensure_ascii=False, indent=2) + "\n"
    assert json.loads(written)["students"] == [record.to_json() for record in records]


def test_a_large_class_gets_one_usable_page_with_every_student_in_grades_csv():
    """3,000 students: the table lists those not graded and the lowest scores (at most report_page.MAX_ROWS)
    and says so; the lists stop at MAX_ITEMS with a line saying how many more and where they all are."""
    records = []
    for index in range(3000):
        status = "no_student_py" if index % 10 == 3 else "ok"
        records.append(
            made_result(
                f"s{index:04d}",
                status=status,
                score=0 if status != "ok" else 100 - index % 7 * 10,
                max_score=MAX_SCORE,
                notes=("note",),
                why="why",
                cases={"t1": made_check(hint="h", hint_text="slip")},
            )
        )
    page = report_page.page(records, config.course_settings(), Level("bwrap", full=True))
    table = page.split("id=students>")[1].split("</table>")[0]
    rows = re.findall(r'<tr><td data-v="(s\d+)">', table)
    ranked = sorted(records, key=lambda r: (r.gradable, r.score, r.student))[: report_page.MAX_ROWS]
    assert rows == sorted(r.student for r in ranked) and len(rows) == report_page.MAX_ROWS == 1000
    assert text("report.students_shown", shown=1000, count=3000).split("grades.csv")[0] in page
    for section in ("not-graded", "notes"):
        items = page.split(f"id={section}>")[1].split("</ul>")[0].count("<li")
        assert items == report_page.MAX_ITEMS + 1  # and one line: "… and N more"
    assert text("report.more", count=300 - report_page.MAX_ITEMS, where="grades.csv") in page
    assert len(page.encode("utf-8")) < 2_000_000  # a page a laptop or a phone opens (4.5 MB before)


# --- regrades --------------------------------------------------------------------------------------


def test_a_regrade_of_one_student_refuses_or_merges_and_prints_the_change(tmp_path):
    folder = honest_class(tmp_path / "class", ("alice", "carol"))
    shutil.copy(STUDENTS / "wrong" / "no_trim.py", folder / "bob.py")
    out = tmp_path / "out"
    assert make("grade", f"SUBMISSIONS={folder}", f"OUT={out}").returncode == 0
    before = snapshot(out)
    fixed = tmp_path / "regrade"
    fixed.mkdir()
    shutil.copy(SOLUTION, fixed / "bob.py")

    refused = subprocess.run(
        [sys.executable, "-m", "labkit.instructor.grade", str(fixed), "--out", str(out)],
        cwd=ROOT,
        env=clean_env(),
        capture_output=True,
        text=True,
        timeout=120,
    )
    warning = audit.warning(sandbox_level(), os.environ.get("LAB_UNSAFE", ""))  # printed first below full strength
    said = [line for line in refused.stderr.strip().splitlines() if line != warning]
    assert refused.returncode == 2 and len(said) == 1 and "MERGE=1" in said[0]
    assert snapshot(out) == before

    merged = make("grade", f"SUBMISSIONS={fixed}", f"OUT={out}", "MERGE=1")
    assert merged.returncode == 0, merged.stderr
    assert merged.stdout.startswith("Lab09: 评分 1 份 (合并后共 3 份)，用时 ")  # graded 1, wrote 3 rows
    assert "评分中 1/1" in merged.stderr
    old = next(r for r in json.loads(before["grades.json"])["students"] if r["student"] == "bob")["score"]
    assert f"bob: {old} → {MAX_SCORE}" in merged.stdout
    after = snapshot(out)
    rows = {row["student"]: row for row in csv.DictReader(after["grades.csv"].decode().splitlines())}
    old_rows = {row["student"]: row for row in csv.DictReader(before["grades.csv"].decode().splitlines())}
    assert rows["alice"] == old_rows["alice"] and rows["carol"] == old_rows["carol"]
    assert rows["bob"]["score"] == str(MAX_SCORE) != old_rows["bob"]["score"]
    assert after["feedback/alice.txt"] == before["feedback/alice.txt"] != b""
    assert after["feedback/bob.txt"] != before["feedback/bob.txt"]


def test_merge_refuses_a_grades_json_it_could_not_have_written(tmp_path):
    folder = honest_class(tmp_path / "class", ("alice", "bob"))
    out = tmp_path / "out"
    grade_folder(folder, out, CLASS_LIMITS)
    document = json.loads((out / "grades.json").read_text(encoding="utf-8"))
    document["students"][0]["student"] = "../../escape"
    (out / "grades.json").write_text(json.dumps(document), encoding="utf-8")
    result = make("grade", f"SUBMISSIONS={folder}", f"OUT={out}", "MERGE=1")
    assert result.returncode != 0 and "grades.json" in result.stderr
    assert not (tmp_path / "escape.txt").exists()


HOSTILE_CLASS = {
    "deep400": "def format_prompt(messages):\n    x = []\n    for _ in range(400):\n        x = [x]\n    return x\n\n\n"
    "def extract_response(output):\n    return ''\n",
    "deep5000": "import sys\nsys.setrecursionlimit(50000)\n\n\ndef format_prompt(messages):\n    x = []\n"
    "    for _ in range(5000):\n        x = [x]\n    return x\n\n\ndef extract_response(output):\n    return ''\n",
    "surrogate": "def format_prompt(messages):\n    return ''\n\n\ndef extract_response(output):\n"
    "    raise ValueError('\\ud800 lone')\n",
    "screen": "def format_prompt(messages):\n    raise ValueError('\\x1b[2J\\x1b[H[TEST 1] ... [PASS]')\n\n\n"
    "def extract_response(output):\n    return ''\n",
}


def test_a_class_with_submissions_that_break_rendering_still_grades_to_the_end(tmp_path):
    folder = honest_class(tmp_path / "class", ("alice", "zoe"))
    for name, source in HOSTILE_CLASS.items():
        (folder / f"{name}.py").write_text(source, encoding="utf-8")
    result = make("grade", f"SUBMISSIONS={folder}", f"OUT={tmp_path / 'out'}", env=clean_env(LAB_TIMEOUT="5"))
    assert result.returncode == 0, result.stderr
    rows = {row["student"]: row for row in csv.DictReader(open(tmp_path / "out" / "grades.csv", encoding="utf-8"))}
    assert sorted(rows) == sorted(["alice", "zoe", *HOSTILE_CLASS])
    assert rows["alice"]["score"] == rows["zoe"]["score"] == str(MAX_SCORE)
    assert all(rows[name]["score"] == "0" for name in HOSTILE_CLASS)
    assert not CONTROL.search((tmp_path / "out" / "grades.csv").read_text(encoding="utf-8").replace("\n", ""))
    json.loads((tmp_path / "out" / "grades.json").read_text(encoding="utf-8"))  # valid UTF-8 and JSON
    assert len(list((tmp_path / "out" / "feedback").iterdir())) == len(rows)  # one per student
