"""Regrades that keep the class: OUT's earlier results are never lost by grading a part of the class.

Refused before grading unless MERGE=1 (or another OUT).  Why: docs/design.md#labkitinstructoroutputsregradepy
"""

from __future__ import annotations

import json
from pathlib import Path

from labkit.i18n import text
from labkit.instructor.outputs import registry
from labkit.instructor.outputs.figures import status_label
from labkit.instructor.results import StudentResult
from labkit.spec import active


class RegradeRefused(Exception):
    """OUT holds results this run would lose (the message says what to do)."""


def previous(out: Path, students: list[str], merge: bool) -> list[StudentResult] | None:
    """The earlier results to merge with (MERGE=1), or None when this run may simply replace OUT.
    Raises RegradeRefused when replacing would drop students, or when OUT cannot be merged."""
    path = out / "grades.json"
    if not path.exists():
        return None
    try:
        document = json.loads(path.read_text(encoding="utf-8"))
        records = [_checked(record) for record in document["students"]]
        columns = [case["column"] for case in document["cases"]]
    except (OSError, ValueError, KeyError, TypeError, AttributeError) as error:
        raise RegradeRefused(text("regrade.unreadable", out=out, error=type(error).__name__)) from error
    kept = [record.student for record in records]
    lost = sorted(set(kept) - set(students))
    if not merge:
        if lost:
            raise RegradeRefused(
                text(
                    "regrade.refuse",
                    out=out,
                    count=len(kept),
                    lost=len(lost),
                    examples=", ".join(lost[:3]),
                    graded=len(students),
                )
            )
        return None
    if columns != [case.column for case in active().graded]:
        raise RegradeRefused(text("regrade.other_cases", out=out))
    return records


def _checked(entry) -> StudentResult:
    """An earlier result, kept only if it is one this grader could have written (it may have been edited) and
    every output can render it."""
    result = StudentResult.from_json(entry)
    registry.check(result)
    return result


def merge(earlier: list[StudentResult], results: list[StudentResult]):
    """(results, the students whose earlier files are kept, lines to print): the new results replace the
    earlier ones of the same students; the others are kept as they were."""
    graded = {result.student: result for result in results}
    merged = dict(graded)
    kept = []
    for result in earlier:
        if result.student not in graded:
            merged[result.student] = result
            kept.append(result.student)
    before = {result.student: result for result in earlier}
    changes = []
    for student in sorted(graded):
        old, new = before.get(student), graded[student]
        if old is None:
            changes.append(text("regrade.added", student=student, new=_shown(new)))
        elif _shown(old) != _shown(new):
            changes.append(f"{student}: {_shown(old)} → {_shown(new)}")
    summary = text("regrade.summary", graded=len(graded), changed=len(changes), kept=len(merged) - len(graded))
    return [merged[student] for student in sorted(merged)], kept, [summary, *changes]


def _shown(result: StudentResult) -> str:
    return str(result.score) if result.status == "ok" else f"{result.score} ({status_label(result.status)})"
