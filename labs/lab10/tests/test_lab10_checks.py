"""Lab10's checks are honest: the reference and every correct style pass all of make test-full, the stub fails every
one, and every wrong file fails a check whose hint names the rule its docstring says it breaks (Breaks: RULE), in
both languages; the property checks catch the slips a fixed table would miss, and the generated checks answer from
the reference for inputs drawn per student."""

from __future__ import annotations

import re

import pytest

from lab10_support import SOLUTION, STUB, STUDENTS, breaks

from labkit import assess
from labkit.assess import InputSource
from labkit.i18n import text
from labkit.run.engine import Limits, StudentRun

LIMITS = Limits(case_seconds=5.0, load_seconds=10.0)  # no honest call times out on a busy machine
WRONG = sorted((STUDENTS / "wrong").glob("*.py")) + [STUDENTS / "wrong.py"]
CORRECT = [SOLUTION, *sorted((STUDENTS / "correct").glob("*.py"))]


def verdicts(path, lab, stage: str = "full", draws: InputSource = assess.FIXED) -> dict:
    with StudentRun(path, display=path.name, limits=LIMITS) as student:
        return {check.id: assess.verdict(student, check, draws) for check in lab.selected(stage)}


@pytest.mark.parametrize("path", CORRECT, ids=lambda path: path.stem)
def test_every_correct_style_passes_every_check(lab10, path):
    assert [check for check, verdict in verdicts(path, lab10).items() if not verdict.passed] == []


def test_the_stub_fails_every_check(lab10):
    assert all(not verdict.passed for verdict in verdicts(STUB, lab10).values())


@pytest.mark.parametrize("path", WRONG, ids=lambda path: path.stem)
def test_a_wrong_file_fails_with_the_hint_of_the_rule_it_breaks(lab10, path):
    rule = breaks(path)
    failed = [verdict for verdict in verdicts(path, lab10).values() if not verdict.passed]
    assert failed, f"{path.name} passes every check"
    first = failed[0]
    for language, word in (("zh", "规则"), ("en", "rule")):
        hint = text(first.hint, language)
        cited = re.findall(rf"{word}s? ([PCSE][1-5](?:[–、, ]+[PCSE]?[1-5])*)", hint)
        rules = {rule for group in cited for rule in _expand(group)}
        assert rule in rules, f"{path.name} [TEST {first.case.id}] {language}: {hint}"
        assert ("TASK.md" if language == "zh" else "TASK.en.md") in hint


def _expand(group: str) -> set:
    """ "P2–P4" -> {P2, P3, P4}; "P2、P5" / "P2, P5" -> {P2, P5}."""
    found = set()
    for part in re.split(r"[、,]\s*", group):
        ends = re.findall(r"([PCSE])?(\d)", part)
        letter = ends[0][0]
        low, high = int(ends[0][1]), int(ends[-1][1])
        found |= {f"{letter}{n}" for n in range(low, high + 1)}
    return found


@pytest.mark.parametrize(
    "name, check",
    [
        ("no_defaults", "p1"),
        ("json_error_unnamed", "p2"),
        ("key_error", "p2"),
        ("role_case_insensitive", "p2"),
        ("keeps_request_fields", "p1"),
    ],
)
def test_the_property_checks_catch_request_slips_on_drawn_requests(lab10, name, check):
    verdict = verdicts(STUDENTS / "wrong" / f"{name}.py", lab10)[check]
    assert not verdict.passed and verdict.facts["drawn"]["tried"] >= 1


def test_the_generated_checks_answer_from_the_reference_per_student(lab10):
    """Grading only: the reference passes g1–g4 with inputs drawn for two students, which differ; a wrong file of each
    function fails its generated check."""
    from lab10.generated import INPUTS
    from labkit.drawn import specimens

    one, two = (InputSource(student=student, secret="s", count=120) for student in ("alice", "bob"))
    graded = [check for check in lab10.graded if check.group.id == "generated"]
    with StudentRun(SOLUTION, display="student.py", limits=LIMITS) as student:
        assert all(assess.verdict(student, check, one).passed for check in graded)
    for check in graded:
        first = [repr(s) for s in specimens(INPUTS[check.id], one.seed(check), one.number(check))]
        second = [repr(s) for s in specimens(INPUTS[check.id], two.seed(check), two.number(check))]
        assert first and first != second
    for name, check in (
        ("role_case_insensitive", "g1"),
        ("strips_reply", "g2"),
        ("role_in_every_chunk", "g3"),
        ("error_type_by_400", "g4"),
    ):
        with StudentRun(STUDENTS / "wrong" / f"{name}.py", display="student.py", limits=LIMITS) as student:
            assert not assess.verdict(student, lab10.check(check), one).passed, name


def test_the_handout_draws_know_no_answer(lab10):
    """lab10/draws.py judges by the drawn data (a request's own fields, the field a fault broke): it never parses a
    request's text, so nothing in the handout answers a body it did not draw."""
    import inspect

    import lab10.draws as draws

    source = inspect.getsource(draws)
    assert "json.loads" not in source and "parse_chat_request(" not in source
    assert "lab10/generated.py" in lab10.grading_only
