"""Gradescope's results.json for one submission: a score, and one test per check with the feedback a student
would see, each test's visibility the course's (generated checks: the scheme's own)."""

from __future__ import annotations

import json
from dataclasses import dataclass, replace

from labkit import render
from labkit.i18n import text
from labkit.instructor.outputs import caps
from labkit.instructor.outputs.feedback import feedback_text, why_text
from labkit.spec import active

NAME = "results.json"


@dataclass(frozen=True, kw_only=True)
class Submission:
    """What results.json is rendered from: the grade of the one submission (None when grading was refused,
    then `refusal` says why), the course, Gradescope's facts about it, the sandbox level the grader found (said
    in extra_data, graded or refused), and the file to write."""

    grade: object | None
    course: object
    facts: dict
    refusal: str = ""
    name: str = NAME
    level: object = None


def gradescope_results(grade, course, facts: dict, level=None) -> dict:
    """Gradescope's results.json: a score, and one test per case with the feedback a student would see.
    Generated checks are tests of their own with the scheme's visibility, left out of the overall output
    while they are not visible; every text is preformatted ("text"), so caret lines stay aligned."""
    tests = []
    for case in course.scheme.checks:
        verdict, ok = grade.verdict(case), grade.passed(case)
        output = (
            ""
            if ok
            else render.explanation(verdict, active().student_file_name)
            if verdict is not None
            else why_text(grade)
        )
        tests.append(
            {
                "name": f"[TEST {case.id}] {text(case.label_key)}",
                "number": case.column,
                "score": course.scheme.points(case) if ok else 0,
                "max_score": course.scheme.points(case),
                "status": "passed" if ok else "failed",
                "output": output,
                "output_format": "text",
                "visibility": visibility(course, case),
            }
        )
    for test, output in zip(tests, caps.explanations([test["output"] for test in tests])):
        test["output"] = output
    shown = [v for v in grade.verdicts if visibility(course, v.case) == "visible"]
    if len(shown) < len(grade.verdicts):
        grade = replace(grade, feedback=render.course_report(shown, active().student_file_name))
    lines = []
    if facts.get("attempt"):
        lines.append(text("gradescope.attempt", attempt=facts["attempt"]))
    if facts.get("late"):
        lines.append(text("gradescope.late"))
    score = grade.score
    if course.attempt == "best" and facts.get("previous_best", -1) > score:
        score = facts["previous_best"]
        lines.append(text("gradescope.kept_best", score=_number(score), now=grade.score))
    output = "\n".join(lines + [""] if lines else []) + feedback_text(grade)
    return {
        "score": score,
        "output": output,
        "output_format": "text",
        "test_output_format": "text",
        "visibility": course.visibility,
        "stdout_visibility": "hidden",
        "tests": tests,
        "extra_data": {
            "status": grade.status,
            "late": facts.get("late"),
            "attempt": facts.get("attempt"),
            "files": list(grade.files),
            "sandbox": grade.sandbox,
            **_level(level),
        },
    }


def visibility(course, case) -> str:
    """Generated checks follow the scheme's own setting; every other test the course's visibility."""
    return course.scheme.generated_visibility if case.suite == "generated" else course.visibility


def _number(value: float) -> str:
    return f"{value:g}"


def refused(refusal: str, course, level=None) -> dict:
    """results.json when grading must not start (the sandbox in force would not keep the answer key safe)."""
    return {
        "score": 0,
        "output": refusal,
        "output_format": "text",
        "visibility": course.visibility,
        "stdout_visibility": "hidden",
        "tests": [],
        "extra_data": {"status": "refused", **_level(level)},
    }


def _level(level) -> dict:
    """The level the grader found before grading (the submission's own child may have had a weaker one)."""
    return {} if level is None else {"sandbox_level": level.name, "sandbox_full": level.full}


def write(run: Submission, staging) -> None:
    results = (
        gradescope_results(run.grade, run.course, run.facts, run.level)
        if run.grade is not None
        else refused(run.refusal, run.course, run.level)
    )
    staging.write(run.name, (json.dumps(results, ensure_ascii=False, indent=2) + "\n").encode("utf-8"))
