"""Hostile and broken submissions each end as clearly failed cases; verdicts come only from returned values.

The hostile files (tests/students/hostile/) are written for Lab09; against another lab (conftest.LABS) each runs
as `for_lab` makes it, its functions aliased by position (`conftest.plays`).  What a file breaks is named by role
(FIRST, SECOND, ALL: the checks of the lab's function playing Lab09's first, its second, both) or by a function of
the lab's spec (the checks whose inputs the file loops on), and what another lab's checks then say is derived from
Lab09's row and the types the lab's checks want (`expected`), so one table holds for every lab, one the suite has
never heard of too.  Lab09 only: the portable process layer (it does not depend on the lab), what the child sees
(tests/test_isolation.py attacks every lab) and `make test` (tests/test_toylab.py runs the toy's)."""

import time
from dataclasses import replace

import pytest

from conftest import (
    ALL,
    FIRST,
    LAB,
    QUICK,
    SECOND,
    SOLUTION,
    STUDENTS,
    clean_env,
    failing,
    for_lab,
    judged,
    make,
    played,
    plays,
    role,
)
from labkit import render
from labkit.i18n import text
from labkit.run import probe

HOSTILE = STUDENTS / "hostile"
EXTRACT = set(role(LAB, SECOND))


def tagged(lab) -> list:
    """The checks of the function playing extract_response that loop_in_call.py loops in: those given an output
    holding "<|" (its loop's condition) in some example (Lab09's 5 and 6: case 4 has no tag)."""
    return [
        i
        for i in role(lab, SECOND)
        if any(example.args and "<|" in str(example.args[0]) for example in lab.check(i).examples)
    ]


def listed(lab) -> list:
    """The checks fills_every_bound.py gets to fill: its format_prompt extends the list it is given, and raises
    on anything else, as Lab09's solution does (another lab's first function given a str or a dict: no wall is
    tested there, and the check fails as the solution's does)."""
    return [
        i
        for i in role(lab, ALL)
        if lab.check(i).function in played(lab, SECOND)
        or all(example.args and isinstance(example.args[0], list) for example in lab.check(i).examples)
    ]


# file -> (the checks that fail: a role, or a function of the lab giving their ids; the problem(s) of its failing
# checks; the hint of the first of them), as Lab09 gives them.  Another lab's row is derived from it (`expected`).
BEHAVIOUR = {
    "exit_in_call": (SECOND, "raised", "hint.raised_exit"),
    "sys_exit_in_call": (SECOND, "raised", "hint.raised_exit"),
    "os_exit_in_call": (SECOND, "crashed", "hint.crashed"),
    "keyboard_interrupt": (SECOND, "raised", "hint.raised_interrupt"),
    "loop_in_call": (tagged, "timeout", "hint.timeout"),
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
    "fills_every_bound": (listed, "wrong_type", "hint.not_str"),
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
STOLEN_ELSEWHERE = (ALL, "load_failed", "hint.import_error")  # Lab09's solution (the grader's) in another lab's child
TYPE_HINTS = {"str": "hint.not_str", "list": "hint.not_list"}  # the judge's hint for a value of the wrong type, by
# the type wanted (any other: the check's own hint)

_HONEST = {}  # lab id -> case id -> (passed, problem) of Lab09's solution as a file of that lab


def honest(lab, folder) -> dict:
    """What Lab09's own solution gets in `lab` (all passed in Lab09): the outcome of every check a hostile file
    leaves alone, since its other functions are the solution's."""
    if lab.id not in _HONEST:
        verdicts = judged(for_lab(SOLUTION, lab, folder))
        _HONEST[lab.id] = {case_id: (verdict.passed, verdict.problem) for case_id, verdict in verdicts.items()}
    return _HONEST[lab.id]


def wanted(check) -> str:
    """The type a check's first call must return (the one a file wrong on every call fails on)."""
    return type(check.examples[0].expected).__name__


def expected(lab, name) -> tuple:
    """The row of `name` for `lab`: the ids of the checks it breaks, their problems as a set, the first one's hint
    (None: the lab's own, not compared).  Lab09's is BEHAVIOUR's; another lab's is derived from it and the lab's
    spec, since the file returns what it returns in Lab09: a str of the wrong value (wrong_value) is of the wrong
    type where a check wants another (the hint the judge gives that type, TYPE_HINTS), and is otherwise judged by
    the lab's own hints; a value that is no str (hint.not_str) gets the hint of the type the check wants; a hint
    comes from the function of Lab09 that gives it there, and is not compared where the lab's first failing check
    plays another (a lab of one function: extract_response's, not format_prompt's)."""
    which, problem, hint = BEHAVIOUR[name]
    if name == "steals_solution" and "read" not in probe.level().blocks:  # no wall against reading here (README):
        which, problem, hint = (None, None, None) if lab.id == LAB.id else STOLEN_ELSEWHERE  # it runs Lab09's solution
    ids = which(lab) if callable(which) else role(lab, which)
    problems = problem if isinstance(problem, set) else {problem}
    if lab.id != LAB.id and ids:
        first = lab.check(ids[0])
        kinds = {wanted(lab.check(i)) for i in ids}
        ours = which(LAB) if callable(which) else role(LAB, which)
        if not ours or plays(lab)[first.function] != LAB.check(ours[0]).function:
            hint = None
        elif "wrong_value" in problems:
            hint = None if wanted(first) == "str" else TYPE_HINTS.get(wanted(first), first.hint)
        elif hint == "hint.not_str":
            hint = TYPE_HINTS.get(wanted(first), first.hint)
        if "wrong_value" in problems and kinds != {"str"}:
            problems = problems - {"wrong_value"} | {"wrong_type"} | ({"wrong_value"} if "str" in kinds else set())
    if any(example.raises for i in ids for example in lab.check(i).examples):  # a check that demands an exception
        problems = (
            problems
            | ({"no_exception"} if problems & {"wrong_type", "wrong_value"} else set())
            | ({"wrong_exception"} if "raised" in problems else set())
        )  # (Lab10's): a value there is no exception, a
        # raise the wrong one
    return ids, problems, hint


def test_every_hostile_file_is_in_the_table():
    assert {p.stem for p in HOSTILE.glob("*.py")} == set(BEHAVIOUR)


@pytest.mark.parametrize("name", sorted(BEHAVIOUR))
def test_hostile_file_fails_exactly_where_it_misbehaves(name, lab_engine, tmp_path):
    lab = lab_engine
    broken, problems, hint = expected(lab, name)
    (tmp_path / "honest").mkdir()
    untouched = honest(lab, tmp_path / "honest")
    verdicts = judged(for_lab(HOSTILE / f"{name}.py", lab, tmp_path), limits=replace(QUICK, load_seconds=2.0))
    assert list(verdicts) == role(lab, ALL) and {v.case.function for v in verdicts.values()} == set(played(lab, ALL))
    assert {i for i in broken if verdicts[i].passed} == set()
    assert {i: verdicts[i].problem for i in broken if verdicts[i].problem not in problems} == {}
    assert {i: (v.passed, v.problem) for i, v in verdicts.items() if i not in broken} == {
        i: untouched[i] for i in verdicts if i not in broken
    }  # the checks it leaves alone: as the solution's
    if broken and hint is not None:
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
    first, second = role(lab, ALL)[0], role(lab, SECOND)[0]
    syntax = judged(for_lab(HOSTILE / "syntax_error.py", lab, tmp_path))[first].facts["load"]
    assert (syntax.status, syntax.detail["line"]) == ("syntax_error", 4)
    missing = judged(for_lab(HOSTILE / "missing_module.py", lab, tmp_path))[first].facts["load"]
    assert (missing.status, missing.detail["module"]) == ("import_error", "numpy_but_misspelt")
    [name] = played(lab, SECOND)
    near = name[:3] + name[4:]  # a letter left out, as in misspelt_function.py
    misspelt = tmp_path / "misspelt" / lab.student_file_name
    misspelt.parent.mkdir()
    misspelt.write_text(
        "".join(
            f"def {near if function == name else function}(value):\n    return value\n\n\n"
            for function in played(lab, ALL)
        ),
        encoding="utf-8",
    )
    lines = render.failure_lines(judged(misspelt)[second], misspelt.name)
    assert any(near in line for line in lines)  # what it does define, named


def test_os_exit_reports_the_exit_code_and_later_cases_still_run(lab, tmp_path):
    verdicts = judged(for_lab(HOSTILE / "os_exit_in_call.py", lab, tmp_path))
    second = role(lab, SECOND)
    assert verdicts[second[0]].facts["exit_code"] == 0
    assert [verdicts[i].problem for i in second] == ["crashed"] * len(second)


def test_exceptions_point_at_the_students_own_line(write_student, lab, tmp_path):
    path = write_student(
        "def format_prompt(messages):\n    return ''\n\n\ndef extract_response(output):\n"
        "    reply = None\n    return reply.strip()\n",
        name="written.py",
    )
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
    assert (
        failing(verdicts) == set(role(lab, ALL)) and verdicts[role(lab, ALL)[0]].facts["load"].status == "missing_file"
    )


def test_nothing_of_the_lab_is_visible_from_the_child(write_student):
    probe = write_student(
        "import os, sys\n"
        "seen = repr([os.getcwd(), sys.path, sys.argv, dict(os.environ), sys.executable, __file__])\n"
        "def format_prompt(messages):\n    return seen\n"
        "def extract_response(output):\n    return ''\n"
    )
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
    assert not [
        line for line in lines if "fake" in line and not line.lstrip().startswith(("打印:", "|", "测试的文件:"))
    ], result.stdout  # (the file's own name, fake_pass_lines.py, is in the line naming the file tested)
    forged = f"Result: {len(role(LAB, ALL))} passed"
    assert forged not in result.stdout.replace(f"| {forged}", "")


@pytest.mark.parametrize("name", ["loop_in_call", "os_exit_in_call", "syntax_error", "exit_at_import"])
def test_make_test_always_prints_the_summary_and_fails(name, engine):
    result = make(
        "test",
        f"STUDENT={HOSTILE / f'{name}.py'}",
        env=clean_env(LAB_TIMEOUT="0.5", LAB_ENGINE="portable" if engine == "portable" else ""),
    )
    must_fail, checks = expected(LAB, name)[0], role(LAB, ALL)
    assert result.returncode != 0
    assert text("summary", "zh", passed=len(checks) - len(must_fail), failed=len(must_fail)) in result.stdout
    assert result.stdout.count("[TEST ") == len(LAB.selected("test"))
