"""Hostile and broken submissions each end as clearly failed cases; verdicts come only from returned values.

The hostile files (tests/students/hostile/) are written for Lab09; against another lab (conftest.LABS) each runs
as `for_lab` makes it, its functions aliased by position.  What a file breaks is named by role (FIRST, SECOND,
ALL: the checks of the lab's first function, its second, both), so one table holds for every lab.  Lab09 only:
the portable process layer (it does not depend on the lab), what the child sees (tests/test_isolation.py attacks
both labs) and `make test` (tests/test_toylab.py runs the toy's)."""

import time
from dataclasses import replace

import pytest

from conftest import (ALL, FIRST, LAB, QUICK, SECOND, SOLUTION, STUDENTS, clean_env, failing, for_lab, judged, make,
                      role)
from labkit import i18n, render
from labkit.i18n import text
from labkit.run import probe

HOSTILE = STUDENTS / "hostile"
EXTRACT = set(role(LAB, SECOND))
TAGGED = {i for i in EXTRACT if any("<|" in str(example.args[0]) for example in LAB.check(i).examples)}  # the
# extract checks whose output holds a tag (Lab09's 5 and 6; not 4, whose output has none)

# file -> (the role whose checks fail, the problem(s) of its failing checks, the hint of the first of them);
# a set of case ids instead of a role is Lab09's own data (a file whose misbehaviour depends on Lab09's inputs)
BEHAVIOUR = {
    "exit_in_call": (SECOND, "raised", "hint.raised_exit"),
    "sys_exit_in_call": (SECOND, "raised", "hint.raised_exit"),
    "os_exit_in_call": (SECOND, "crashed", "hint.crashed"),
    "keyboard_interrupt": (SECOND, "raised", "hint.raised_interrupt"),
    "loop_in_call": (TAGGED, "timeout", "hint.timeout"),  # it loops while the output holds "<|"
    "loop_sigalrm_ignored": (SECOND, "timeout", "hint.timeout"),
    "long_c_call": (SECOND, "timeout", "hint.timeout"),
    "recursion": (SECOND, "raised", "hint.recursion"),
    "reads_stdin": (SECOND, "raised", "hint.reads_input"),
    "huge_allocation": (SECOND, "raised", "hint.memory"),
    "misspelt_function": (SECOND, "missing_function", "hint.missing_function"),
    "not_callable": (FIRST, "missing_function", "hint.missing_function"),
    "fake_pass_lines": (SECOND, "wrong_value", "hint.empty_when_no_tag"),
    "forged_replies": (ALL, "wrong_value", "hint.returned_empty"),
    "patches_builtins": (ALL, "wrong_type", "hint.none_returned"),
    "steals_solution": (ALL, "wrong_value", "hint.returned_empty"),
    "forges_grade_files": (ALL, "wrong_value", "hint.returned_empty"),
    "patches_reporting": (ALL, "wrong_type", "hint.str_subclass"),
    "floods_stdout": (None, None, None),
    "exit_at_import": (ALL, "load_failed", "hint.raised_exit"),
    "missing_module": (ALL, "load_failed", "hint.import_error"),
    "syntax_error": (ALL, "load_failed", "hint.syntax_error"),
    "loop_at_import": (ALL, "load_failed", "hint.load_timeout"),
    "escape_codes": (ALL, {"wrong_type", "raised"}, "hint.not_str"),
    "forges_replies_with_nonce": (ALL, "load_failed", "hint.forged_reply"),  # its load reply names 2 functions
    "leaves_a_process_behind": (ALL, "wrong_value", "hint.returned_empty"),
    "many_names": (FIRST, "missing_function", "hint.missing_function"),
    "probes_its_walls": (ALL, "wrong_value", "hint.tag_line_expected"),
    "connects_to_local_sockets": (ALL, "wrong_value", "hint.tag_line_expected"),
    "writes_shared_folders": (ALL, "wrong_value", "hint.tag_line_expected"),
    "forks_many": (ALL, "wrong_value", "hint.tag_line_expected"),
    "returns_deep_nesting": (ALL, "wrong_type", "hint.not_str"),
    "surrogate_in_exception": (ALL, {"wrong_value", "raised"}, "hint.tag_line_expected"),
    "bloats_with_forged_replies": (ALL, "crashed", "hint.forged_reply"),  # larger than the child sends: forged
    "grows_its_input": (None, None, None),  # the six do not look at the list afterwards (x3, p1, g1 do)
    "fills_every_bound": (ALL, "wrong_type", "hint.not_str"),
    "leaves_deep_folders": (None, None, None),
    "reorders_what_you_read": (ALL, {"wrong_type", "raised"}, "hint.not_str"),
    "steals_from_git": (ALL, "wrong_value", "hint.returned_empty"),  # unarmed: it looks nowhere
    "steals_cached_bytecode": (ALL, "wrong_value", "hint.returned_empty"),
    "copies_a_classmate": (ALL, "wrong_value", "hint.returned_empty"),
    "nests_sleeping_processes": (ALL, "wrong_value", "hint.returned_empty"),
    "signals_every_way": (ALL, "wrong_value", "hint.tag_line_expected"),
    "signals_its_worker": (ALL, "wrong_value", "hint.tag_line_expected"),
    "fills_its_folder": (ALL, "wrong_value", "hint.tag_line_expected"),
    "changes_modes_outside": (ALL, "wrong_value", "hint.tag_line_expected"),  # unarmed: "none:none"
}

# Rows whose outcome depends on the lab's inputs or return types, as the toy lab gives them (its checks pass
# expressions, not messages, and its first function returns a list).  Every other row holds for the toy as it
# stands, its hint compared where it is the core's.
RETURNS_EMPTY = (ALL, {"wrong_type", "wrong_value"}, "hint.not_list")  # "" is the wrong type for a list
TOY = {
    "loop_in_call": (None, None, None),  # loops only on input with "<|": the toy's have none
    "fills_every_bound": (SECOND, "wrong_type", "hint.not_str"),  # its first function raises before it fills
    "escape_codes": (ALL, {"wrong_type", "raised"}, "hint.not_list"),
    "reorders_what_you_read": (ALL, {"wrong_type", "raised"}, "hint.not_list"),
    "surrogate_in_exception": (ALL, {"wrong_type", "raised"}, "hint.not_list"),
    "returns_deep_nesting": (ALL, "wrong_type", "hint.not_list"),
    **dict.fromkeys(("forged_replies", "steals_solution", "forges_grade_files", "leaves_a_process_behind",
                     "probes_its_walls", "connects_to_local_sockets", "writes_shared_folders", "forks_many",
                     "steals_from_git", "steals_cached_bytecode", "copies_a_classmate",
                     "nests_sleeping_processes", "signals_every_way", "signals_its_worker", "fills_its_folder",
                     "changes_modes_outside"),
                    RETURNS_EMPTY),
}

# Lab10's: its first function returns a dict (the lab's own hint names it: hint.case1), its inputs hold no tag, and
# Lab09's extract_response given chat_completion's reply returns a str where a dict is due, as the honest file does
LAB10 = {**TOY, **dict.fromkeys((*(name for name, row in TOY.items() if row is RETURNS_EMPTY),),
                                (ALL, {"wrong_type", "wrong_value"}, "hint.case1")),
         **dict.fromkeys(("escape_codes", "reorders_what_you_read", "surrogate_in_exception"),
                         (ALL, {"wrong_type", "raised"}, "hint.case1")),
         "returns_deep_nesting": (ALL, "wrong_type", "hint.case1"),
         "fills_every_bound": (SECOND, "wrong_type", "hint.case5"),
         "fake_pass_lines": (SECOND, "wrong_type", "hint.case5")}
OTHERS = {"toycalc": TOY, "lab10": LAB10}  # lab id -> its rows where they differ from Lab09's
STOLEN_ELSEWHERE = (ALL, "load_failed", "hint.import_error")  # Lab09's solution (the grader's) in another lab's child

_HONEST = {}  # lab id -> case id -> (passed, problem) of Lab09's solution as a file of that lab


def honest(lab, folder) -> dict:
    """What Lab09's own solution gets in `lab` (all passed in Lab09): the outcome of every check a hostile file
    leaves alone, since its other functions are the solution's."""
    if lab.id not in _HONEST:
        verdicts = judged(for_lab(SOLUTION, lab, folder))
        _HONEST[lab.id] = {case_id: (verdict.passed, verdict.problem) for case_id, verdict in verdicts.items()}
    return _HONEST[lab.id]


def expected(lab, name) -> tuple:
    """The row of `name` for `lab`: the ids of the checks it breaks, their problems as a set, the first one's hint."""
    which, problem, hint = OTHERS[lab.id].get(name, BEHAVIOUR[name]) if lab.id != LAB.id else BEHAVIOUR[name]
    if name == "steals_solution" and "read" not in probe.level().blocks:  # no wall against reading here (README):
        which, problem, hint = (None, None, None) if lab.id == LAB.id else STOLEN_ELSEWHERE  # it runs Lab09's solution
    ids = role(lab, which) if which is None or isinstance(which, str) else [i for i in role(lab, ALL) if i in which]
    problems = problem if isinstance(problem, set) else {problem}
    if any(example.raises for i in ids for example in lab.check(i).examples):  # a check that demands an exception
        problems = problems | ({"no_exception"} if problems & {"wrong_type", "wrong_value"} else set()) | \
            ({"wrong_exception"} if "raised" in problems else set())  # (Lab10's): a value there is no exception, a
        # raise the wrong one
    return ids, problems, hint


def test_every_hostile_file_is_in_the_table():
    assert {p.stem for p in HOSTILE.glob("*.py")} == set(BEHAVIOUR) and set(TOY) <= set(BEHAVIOUR)


@pytest.mark.parametrize("name", sorted(BEHAVIOUR))
def test_hostile_file_fails_exactly_where_it_misbehaves(name, lab_engine, tmp_path):
    lab = lab_engine
    broken, problems, hint = expected(lab, name)
    (tmp_path / "honest").mkdir()
    untouched = honest(lab, tmp_path / "honest")
    verdicts = judged(for_lab(HOSTILE / f"{name}.py", lab, tmp_path), limits=replace(QUICK, load_seconds=2.0))
    assert list(verdicts) == role(lab, ALL) and {v.case.function for v in verdicts.values()} == set(lab.functions[:2])
    assert {i for i in broken if verdicts[i].passed} == set()
    assert {i: verdicts[i].problem for i in broken if verdicts[i].problem not in problems} == {}
    assert {i: (v.passed, v.problem) for i, v in verdicts.items() if i not in broken} == \
        {i: untouched[i] for i in verdicts if i not in broken}  # the checks it leaves alone: as the solution's
    if broken and (lab.id == LAB.id or hint in i18n.CORE):  # another lab's own hints are its own business
        assert verdicts[broken[0]].hint == hint
    for verdict in verdicts.values():  # and every failure renders in both languages without error
        assert verdict.passed or render.failure_lines(verdict, f"{name}.py")


def test_a_hung_case_costs_its_limit_not_the_files_budget(lab, tmp_path):
    """Two or three hung cases of 0.3 s each take about a second with start-ups; the bound only catches waiting
    for a longer clock (the 120 s budget, the 100 s load limit), at half of it: a busy machine may be 50 times
    slower than an idle one and still pass (make bench times it)."""
    hung = role(lab, SECOND)
    path = for_lab(HOSTILE / "loop_sigalrm_ignored.py", lab, tmp_path)
    started = time.monotonic()
    verdicts = judged(path, limits=replace(QUICK, case_seconds=0.3, load_seconds=100.0))
    assert [verdicts[i].problem for i in hung] == ["timeout"] * len(hung)
    assert time.monotonic() - started < 50.0


def test_load_failures_carry_the_details_students_need(lab, tmp_path):
    first, second = role(lab, FIRST)[0], role(lab, SECOND)[0]
    syntax = judged(for_lab(HOSTILE / "syntax_error.py", lab, tmp_path))[first].facts["load"]
    assert (syntax.status, syntax.detail["line"]) == ("syntax_error", 4)
    missing = judged(for_lab(HOSTILE / "missing_module.py", lab, tmp_path))[first].facts["load"]
    assert (missing.status, missing.detail["module"]) == ("import_error", "numpy_but_misspelt")
    name = lab.functions[1]
    near = name[:3] + name[4:]  # a letter left out, as in misspelt_function.py
    misspelt = tmp_path / "misspelt" / lab.student_file_name
    misspelt.parent.mkdir()
    misspelt.write_text(f"def {lab.functions[0]}(value):\n    return value\n\n\ndef {near}(value):\n    return value\n",
                        encoding="utf-8")
    lines = render.failure_lines(judged(misspelt)[second], misspelt.name)
    assert any(near in line for line in lines)  # what it does define, named


def test_os_exit_reports_the_exit_code_and_later_cases_still_run(lab, tmp_path):
    verdicts = judged(for_lab(HOSTILE / "os_exit_in_call.py", lab, tmp_path))
    second = role(lab, SECOND)
    assert verdicts[second[0]].facts["exit_code"] == 0
    assert [verdicts[i].problem for i in second] == ["crashed"] * len(second)


def test_exceptions_point_at_the_students_own_line(write_student, lab, tmp_path):
    path = write_student("def format_prompt(messages):\n    return ''\n\n\ndef extract_response(output):\n"
                         "    reply = None\n    return reply.strip()\n", name="written.py")
    raised = judged(for_lab(path, lab, tmp_path))[role(lab, SECOND)[0]].facts["raised"]
    assert (raised["type"], raised["line"], raised["code"]) == ("AttributeError", 7, "return reply.strip()")


def test_gbk_file_fails_with_how_to_resave(write_student, lab):
    source = lab.solution_path.read_text(encoding="utf-8") + "\n# 参考答案。你好\n"
    verdicts = judged(write_student(source.encode("gbk"), name=lab.student_file_name))
    first = role(lab, ALL)[0]
    load = verdicts[first].facts["load"]
    assert failing(verdicts) == set(role(lab, ALL)) and (load.status, load.detail["looks_like"]) == ("not_utf8", "GBK")
    assert verdicts[first].hint == "hint.not_utf8"


def test_bom_and_crlf_are_fine(write_student, lab):
    source = lab.solution_path.read_text(encoding="utf-8").replace("\n", "\r\n")
    verdicts = judged(write_student(b"\xef\xbb\xbf" + source.encode("utf-8"), name=lab.student_file_name))
    assert list(verdicts) == role(lab, ALL) and failing(verdicts) == set()


def test_missing_file_is_a_clear_failure(tmp_path, lab):
    verdicts = judged(tmp_path / lab.student_file_name)
    assert failing(verdicts) == set(role(lab, ALL)) and verdicts[role(lab, ALL)[0]].facts["load"].status == "missing_file"


def test_nothing_of_the_lab_is_visible_from_the_child(write_student):
    probe = write_student(
        "import os, sys\n"
        "seen = repr([os.getcwd(), sys.path, sys.argv, dict(os.environ), sys.executable, __file__])\n"
        "def format_prompt(messages):\n    return seen\n"
        "def extract_response(output):\n    return ''\n")
    seen = judged(probe)[role(LAB, FIRST)[0]].facts["actual"]
    for secret in ("solutions", "tests/students", str(SOLUTION.parent.parent)):
        assert secret not in seen


# --- the same guarantees through `make test`, as a student runs it -----------------------------------

def test_fake_pass_lines_never_reach_the_report_unmarked():
    result = make("test", f"STUDENT={HOSTILE / 'fake_pass_lines.py'}")
    lines = result.stdout.splitlines()
    assert result.returncode != 0
    summary = text("summary", "zh", passed=len(role(LAB, ALL)) - len(EXTRACT), failed=len(EXTRACT))
    assert [line for line in lines if line.startswith("测试结果")] == [summary], result.stdout
    assert not [line for line in lines if "fake" in line and not line.lstrip().startswith(("打印:", "|", "测试的文件:"))], \
        result.stdout  # (the file's own name, fake_pass_lines.py, is in the line naming the file tested)
    forged = f"Result: {len(role(LAB, ALL))} passed"
    assert forged not in result.stdout.replace(f"| {forged}", "")


@pytest.mark.parametrize("name", ["loop_in_call", "os_exit_in_call", "syntax_error", "exit_at_import"])
def test_make_test_always_prints_the_summary_and_fails(name, engine):
    result = make("test", f"STUDENT={HOSTILE / f'{name}.py'}",
                  env=clean_env(LAB_TIMEOUT="0.5", LAB_ENGINE="portable" if engine == "portable" else ""))
    must_fail, checks = expected(LAB, name)[0], role(LAB, ALL)
    assert result.returncode != 0
    assert text("summary", "zh", passed=len(checks) - len(must_fail), failed=len(must_fail)) in result.stdout
    assert result.stdout.count("[TEST ") == len(LAB.selected("test"))
