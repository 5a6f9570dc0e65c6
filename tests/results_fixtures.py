"""Results made by hand for the outputs' tests: a StudentResult or CheckResult with only the fields a test is about,
the rest as the grader would write them for a student who passed nothing."""

from labkit.instructor.results import CheckResult, StudentResult, Timing


def made_check(passed: bool = False, **fields) -> CheckResult:
    values = {
        "score": 0,
        "problem": None if passed else "wrong_value",
        "hint": None,
        "hint_text": "",
        "message": "",
        "timing": Timing(limit_seconds=2.0, timed_out=False),
        **fields,
    }
    return CheckResult(passed=passed, **values)


def made_result(student: str, **fields) -> StudentResult:
    values = {"status": "ok", "score": 0, "gradable": fields.get("status", "ok") == "ok", **fields}
    return StudentResult(student=student, **values)
