"""Hostile and broken submissions each end as clearly failed cases; verdicts come only from returned values."""

import time
from dataclasses import replace

import pytest

from conftest import LAB, QUICK, SOLUTION, STUDENTS, clean_env, failing, judged, make
from labkit import render
from labkit.run import probe

HOSTILE = STUDENTS / "hostile"
FORMAT, EXTRACT = {"1", "2", "3"}, {"4", "5", "6"}
ALL = FORMAT | EXTRACT

# file -> (cases that fail, the problem(s) of the failing cases, the hint of the first failing case)
BEHAVIOUR = {
    "exit_in_call": (EXTRACT, "raised", "hint.raised_exit"),
    "sys_exit_in_call": (EXTRACT, "raised", "hint.raised_exit"),
    "os_exit_in_call": (EXTRACT, "crashed", "hint.crashed"),
    "keyboard_interrupt": (EXTRACT, "raised", "hint.raised_interrupt"),
    "loop_in_call": ({"5", "6"}, "timeout", "hint.timeout"),  # case 4 has no tag: no loop
    "loop_sigalrm_ignored": (EXTRACT, "timeout", "hint.timeout"),
    "long_c_call": (EXTRACT, "timeout", "hint.timeout"),
    "recursion": (EXTRACT, "raised", "hint.recursion"),
    "reads_stdin": (EXTRACT, "raised", "hint.reads_input"),
    "huge_allocation": (EXTRACT, "raised", "hint.memory"),
    "misspelt_function": (EXTRACT, "missing_function", "hint.missing_function"),
    "not_callable": (FORMAT, "missing_function", "hint.missing_function"),
    "fake_pass_lines": (EXTRACT, "wrong_value", "hint.empty_when_no_tag"),
    "forged_replies": (ALL, "wrong_value", "hint.returned_empty"),
    "patches_builtins": (ALL, "wrong_type", "hint.none_returned"),
    "steals_solution": (ALL, "wrong_value", "hint.returned_empty"),
    "forges_grade_files": (ALL, "wrong_value", "hint.returned_empty"),
    "patches_reporting": (ALL, "wrong_type", "hint.str_subclass"),
    "floods_stdout": (set(), None, None),
    "exit_at_import": (ALL, "load_failed", "hint.raised_exit"),
    "missing_module": (ALL, "load_failed", "hint.import_error"),
    "syntax_error": (ALL, "load_failed", "hint.syntax_error"),
    "loop_at_import": (ALL, "load_failed", "hint.load_timeout"),
    "escape_codes": (ALL, {"wrong_type", "raised"}, "hint.not_str"),
    "forges_replies_with_nonce": (ALL, "crashed", "hint.forged_reply"),
    "leaves_a_process_behind": (ALL, "wrong_value", "hint.returned_empty"),
    "many_names": (FORMAT, "missing_function", "hint.missing_function"),
    "probes_its_walls": (ALL, "wrong_value", "hint.tag_line_expected"),
    "connects_to_local_sockets": (ALL, "wrong_value", "hint.tag_line_expected"),
    "writes_shared_folders": (ALL, "wrong_value", "hint.tag_line_expected"),
    "forks_many": (ALL, "wrong_value", "hint.tag_line_expected"),
    "returns_deep_nesting": (ALL, "wrong_type", "hint.not_str"),
    "surrogate_in_exception": (ALL, {"wrong_value", "raised"}, "hint.tag_line_expected"),
    "bloats_with_forged_replies": (ALL, "crashed", "hint.forged_reply"),  # larger than the child sends: forged
    "grows_its_input": (set(), None, None),  # the six do not look at the list afterwards (x3, p1, g1 do)
    "fills_every_bound": (ALL, "wrong_type", "hint.not_str"),
    "leaves_deep_folders": (set(), None, None),
    "reorders_what_you_read": (ALL, {"wrong_type", "raised"}, "hint.not_str"),
}


def test_every_hostile_file_is_in_the_table():
    assert {p.stem for p in HOSTILE.glob("*.py")} == set(BEHAVIOUR)


@pytest.mark.parametrize("name", sorted(BEHAVIOUR))
def test_hostile_file_fails_exactly_where_it_misbehaves(name, engine):
    must_fail, problem, hint = BEHAVIOUR[name]
    if name == "steals_solution" and "read" not in probe.level().blocks:
        must_fail, problem, hint = set(), None, None  # no wall against reading at this level (README)
    verdicts = judged(HOSTILE / f"{name}.py", limits=replace(QUICK, load_seconds=2.0))
    assert failing(verdicts) == must_fail
    if must_fail:
        assert {verdicts[i].problem for i in must_fail} == (problem if isinstance(problem, set) else {problem})
        assert verdicts[min(must_fail)].hint == hint
    for verdict in verdicts.values():  # and every failure renders in both languages without error
        assert verdict.passed or render.failure_lines(verdict, f"{name}.py")


def test_a_hung_case_costs_its_limit_not_the_files_budget():
    """Two hung cases of 0.3 s each take about a second with start-ups; the bound only catches waiting for
    a longer clock (the 120 s budget, the 100 s load limit), at half of it: a busy machine may be 50 times
    slower than an idle one and still pass (make bench times it)."""
    started = time.monotonic()
    verdicts = judged(HOSTILE / "loop_in_call.py", limits=replace(QUICK, case_seconds=0.3, load_seconds=100.0))
    assert [verdicts[i].problem for i in ("5", "6")] == ["timeout", "timeout"]
    assert time.monotonic() - started < 50.0


def test_load_failures_carry_the_details_students_need():
    syntax = judged(HOSTILE / "syntax_error.py")["1"].facts["load"]
    assert (syntax.status, syntax.detail["line"]) == ("syntax_error", 4)
    missing = judged(HOSTILE / "missing_module.py")["1"].facts["load"]
    assert (missing.status, missing.detail["module"]) == ("import_error", "numpy_but_misspelt")
    lines = render.failure_lines(judged(HOSTILE / "misspelt_function.py")["4"], "student.py")
    assert any("extract_reponse" in line for line in lines)


def test_os_exit_reports_the_exit_code_and_later_cases_still_run():
    verdicts = judged(HOSTILE / "os_exit_in_call.py")
    assert verdicts["4"].facts["exit_code"] == 0
    assert [verdicts[i].problem for i in ("4", "5", "6")] == ["crashed"] * 3


def test_exceptions_point_at_the_students_own_line(write_student):
    path = write_student("def format_prompt(messages):\n    return ''\n\n\ndef extract_response(output):\n"
                         "    reply = None\n    return reply.strip()\n")
    raised = judged(path)["4"].facts["raised"]
    assert (raised["type"], raised["line"], raised["code"]) == ("AttributeError", 7, "return reply.strip()")


def test_gbk_file_fails_with_how_to_resave(write_student):
    source = SOLUTION.read_text(encoding="utf-8").replace("参考答案", "参考答案。你好")
    verdicts = judged(write_student(source.encode("gbk")))
    load = verdicts["1"].facts["load"]
    assert failing(verdicts) == ALL and (load.status, load.detail["looks_like"]) == ("not_utf8", "GBK")
    assert verdicts["1"].hint == "hint.not_utf8"


def test_bom_and_crlf_are_fine(write_student):
    source = SOLUTION.read_text(encoding="utf-8").replace("\n", "\r\n")
    assert failing(judged(write_student(b"\xef\xbb\xbf" + source.encode("utf-8")))) == set()


def test_missing_file_is_a_clear_failure(tmp_path):
    verdicts = judged(tmp_path / "nope.py")
    assert failing(verdicts) == ALL and verdicts["1"].facts["load"].status == "missing_file"


def test_nothing_of_the_lab_is_visible_from_the_child(write_student):
    probe = write_student(
        "import os, sys\n"
        "seen = repr([os.getcwd(), sys.path, sys.argv, dict(os.environ), sys.executable, __file__])\n"
        "def format_prompt(messages):\n    return seen\n"
        "def extract_response(output):\n    return ''\n")
    seen = judged(probe)["1"].facts["actual"]
    for secret in ("solutions", "tests/students", str(SOLUTION.parent.parent)):
        assert secret not in seen


# --- the same guarantees through `make test`, as a student runs it -----------------------------------

def test_fake_pass_lines_never_reach_the_report_unmarked():
    result = make("test", f"STUDENT={HOSTILE / 'fake_pass_lines.py'}")
    lines = result.stdout.splitlines()
    assert result.returncode != 0
    assert [line for line in lines if line.startswith("测试结果")] == ["测试结果: 3 通过, 3 失败"], result.stdout
    assert not [line for line in lines if "fake" in line and not line.lstrip().startswith(("打印:", "|", "测试的文件:"))], \
        result.stdout  # (the file's own name, fake_pass_lines.py, is in the line naming the file tested)
    assert "Result: 6 passed" not in result.stdout.replace("| Result: 6 passed", "")


@pytest.mark.parametrize("name", ["loop_in_call", "os_exit_in_call", "syntax_error", "exit_at_import"])
def test_make_test_always_prints_the_summary_and_fails(name, engine):
    result = make("test", f"STUDENT={HOSTILE / f'{name}.py'}",
                  env=clean_env(LAB_TIMEOUT="0.5", LAB_ENGINE="portable" if engine == "portable" else ""))
    must_fail = BEHAVIOUR[name][0]
    assert result.returncode != 0
    assert f"测试结果: {6 - len(must_fail)} 通过, {len(must_fail)} 失败" in result.stdout
    assert result.stdout.count("[TEST ") == len(LAB.selected("test"))
