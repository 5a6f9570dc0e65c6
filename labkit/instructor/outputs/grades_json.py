"""grades.json: the run's scheme, sandbox and limits, then every student's result as `StudentResult.to_json`
gives it, written one record at a time as the same text as json.dumps(indent=2) of the whole document."""

from __future__ import annotations

import json

from labkit.i18n import text
from labkit.instructor.outputs.figures import at_other_levels
from labkit.spec import active

NAME = "grades.json"


def write_grades_json(stream, results, limits, course, level) -> None:
    """grades.json into a text stream, one result at a time: the same text as json.dumps(indent=2) of the
    whole document, without ever holding it."""
    scheme = course.scheme
    cases = [
        {
            "column": c.column,
            "label": text(c.label_key),
            "weight": scheme.points(c),
            "suite": c.suite,
            "group": c.group.id,
        }
        for c in scheme.checks
    ]
    document = {
        "lab": active().name,
        "title": course.title,
        "max_score": scheme.max_score,
        "cases": cases,
        "scheme": {"weights": scheme.weights, "generated_count": scheme.generated_count},  # not the secret
        "sandbox": sandbox_json(level, results),
        "limits": {
            "case_seconds": limits.case_seconds,
            "submission_seconds": limits.submission_seconds,
            "memory_mb": limits.memory_bytes >> 20,
        },
    }
    stream.write(json.dumps(document, ensure_ascii=False, indent=2)[:-2] + ",\n  \"students\": [")
    separator = "\n    "
    for result in results:
        stream.write(separator + json.dumps(result.to_json(), ensure_ascii=False, indent=2).replace("\n", "\n    "))
        separator = ",\n    "
    stream.write("\n  ]\n}\n" if separator != "\n    " else "]\n}\n")


def sandbox_json(level, results=()) -> dict:
    return {
        "level": level.name,
        "walls": list(level.walls),
        "blocks": list(getattr(level, "blocks", ())),
        "full": level.full,
        "students_at_other_levels": {student: shown for student, shown in at_other_levels(results, level)},
    }


def piece(result, _feedback: str) -> bytes:
    return json.dumps(result.to_json(), ensure_ascii=False).encode("utf-8")


def write(run, staging) -> None:
    with staging.create(NAME, text=True) as stream:
        write_grades_json(stream, run.records, run.limits, run.course, run.level)
