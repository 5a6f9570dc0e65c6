"""Regrades that keep the class: OUT's earlier results are never lost by grading a part of the class.

If OUT holds results of students this run would not grade, `make grade` refuses (one line, offering
MERGE=1 or another OUT) before grading anything.  With MERGE=1 the rows of the students graded now
replace theirs, every other row and feedback file is kept, and each change is printed as `id: old → new`.
"""

from __future__ import annotations

import json
from pathlib import Path

from labkit.i18n import text
from labkit.instructor.outputs import reports
from labkit.spec import active
from labkit.instructor.outputs.figures import feedback_name, status_label
from labkit.instructor.lms.submissions import safe_id


class RegradeRefused(Exception):
    """OUT holds results this run would lose (the message says what to do)."""


def previous(out: Path, students: list[str], merge: bool) -> list[dict] | None:
    """The earlier records to merge with (MERGE=1), or None when this run may simply replace OUT.
    Raises RegradeRefused when replacing would drop students, or when OUT cannot be merged."""
    path = out / "grades.json"
    if not path.exists():
        return None
    try:
        document = json.loads(path.read_text(encoding="utf-8"))
        records = document["students"]
        columns = [case["column"] for case in document["cases"]]
        kept = [str(record["student"]) for record in records]
        for record in records:
            _check(record)
    except (OSError, ValueError, KeyError, TypeError, AttributeError) as error:
        raise RegradeRefused(text("regrade.unreadable", out=out, error=type(error).__name__)) from error
    lost = sorted(set(kept) - set(students))
    if not merge:
        if lost:
            raise RegradeRefused(text("regrade.refuse", out=out, count=len(kept), lost=len(lost),
                                      examples=", ".join(lost[:3]), graded=len(students)))
        return None
    if columns != [case.column for case in active().graded]:
        raise RegradeRefused(text("regrade.other_cases", out=out))
    return records


def _check(record: dict) -> None:
    """An earlier record is kept only if it is one this grader could have written (it may have been edited)."""
    if not isinstance(record.get("student"), str) or safe_id(record["student"]) != record["student"]:
        raise ValueError("student")
    if not isinstance(record.get("score"), int) or not isinstance(record.get("status"), str) \
            or not isinstance(record.get("cases"), dict):
        raise ValueError("record")
    reports.check_record(record)


def merge(earlier: list[dict], records: list[dict], feedback: dict[str, bytes], out: Path):
    """(records, feedback files, lines to print): the new records replace the earlier ones of the same
    students; the others and their feedback files are kept as they were."""
    graded = {record["student"]: record for record in records}
    merged = dict(graded)
    files = dict(feedback)
    for record in earlier:
        student = str(record["student"])
        if student in graded:
            continue
        merged[student] = record
        name = feedback_name(student)
        try:
            files[name] = (out / "feedback" / name).read_bytes()
        except OSError:
            pass
    before = {str(record["student"]): record for record in earlier}
    changes = []
    for student in sorted(graded):
        old, new = before.get(student), graded[student]
        if old is None:
            changes.append(text("regrade.added", student=student, new=_shown(new)))
        elif _shown(old) != _shown(new):
            changes.append(f"{student}: {_shown(old)} → {_shown(new)}")
    summary = text("regrade.summary", graded=len(graded), changed=len(changes), kept=len(merged) - len(graded))
    return [merged[student] for student in sorted(merged)], files, [summary, *changes]


def _shown(record: dict) -> str:
    score = str(record.get("score", "?"))
    status = record.get("status", "ok")
    return score if status == "ok" else f"{score} ({status_label(status)})"
