"""Lab10 through the course's own make, as README says to run it for now (LAB_SPEC=lab10.spec, PYTHONPATH=labs/lab10):
make test-full passes the reference and fails the stub, make help lists make serve and its settings, make tables
rewrites Lab10's two sheets only, and a loop in the student's file costs its call's limit in make test too."""

from __future__ import annotations

import shutil

from lab10_support import LAB_ROOT, SOLUTION, STUDENTS, make, verdicts

from labkit.spec import load

LAB = load("lab10.spec")


def test_make_test_full_passes_the_reference_and_fails_the_stub():
    solved = make("test-full", f"STUDENT={SOLUTION}")
    assert solved.returncode == 0 and set(verdicts(solved.stdout).values()) == {"PASS"}
    assert list(verdicts(solved.stdout)) == [check.id for check in LAB.selected("full")]
    assert "扩展检查: 12 通过, 0 失败" in solved.stdout and "性质检查: 2 通过, 0 失败" in solved.stdout
    stub = make("test-full")
    assert stub.returncode != 0 and set(verdicts(stub.stdout).values()) == {"FAIL"}


def test_make_help_lists_make_serve_and_its_settings():
    shown = make("help", LAB_LANG="en")
    rows = [row for row in shown.stdout.splitlines() if row.startswith("make ")]
    assert any(row.startswith("make serve [PORT=n]") and "POST /v1/chat/completions" in row for row in rows), rows
    assert "PORT=n" in shown.stdout and "CHECK=1" in shown.stdout
    assert not any(row.startswith(("make chat", "make challenge")) for row in rows)  # Lab09's targets are not its


def test_make_tables_rewrites_the_two_sheets_of_lab10_and_nothing_else(tmp_path):
    from labkit.instructor import sheets

    for name in ("TASK.md", "TASK.en.md"):
        text = (LAB_ROOT / name).read_text(encoding="utf-8")
        stale = text.replace("| 40 |", "| 41 |") if name == "TASK.md" else text.replace("| 40 |", "| 39 |")
        (tmp_path / name).write_text(stale, encoding="utf-8")
    assert sorted(sheets.write(LAB, tmp_path)) == ["TASK.en.md <!-- scheme -->", "TASK.md <!-- scheme -->"]
    for name in ("TASK.md", "TASK.en.md"):
        assert (tmp_path / name).read_text(encoding="utf-8") == (LAB_ROOT / name).read_text(encoding="utf-8")
    assert sorted(path.name for path in tmp_path.iterdir()) == ["TASK.en.md", "TASK.md"]


def test_a_loop_in_parse_chat_request_fails_its_checks_and_the_run_goes_on(tmp_path):
    shutil.copy(STUDENTS / "hostile" / "loop_in_parse.py", tmp_path / "student.py")
    result = make("test", f"STUDENT={tmp_path / 'student.py'}", LAB_TIMEOUT="1")
    shown = verdicts(result.stdout)
    assert {case for case, verdict in shown.items() if verdict == "PASS"} == {"5", "6"}, result.stdout
    assert result.returncode != 0 and "测试结果: 2 通过, 6 失败" in result.stdout
    assert "常见错误 11" in result.stdout  # the loop's hint points at the sheet
