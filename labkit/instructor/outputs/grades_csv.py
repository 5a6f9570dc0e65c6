"""grades.csv: one row per student, a 1/0 cell per graded check, the LMS facts and the points per group; no
cell a spreadsheet takes for a formula."""

from __future__ import annotations

import csv

from labkit.spec import active

NAME = "grades.csv"
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
LMS_COLUMNS = ("name", "late", "attempt", "files")
RUN_COLUMNS = ("sandbox",)  # the level the student's child ran at ("": none ran)


def cell(value) -> str:
    """A CSV cell that no spreadsheet takes for a formula (OWASP: a leading =, +, -, @, tab or CR gets ')."""
    shown = "" if value is None else str(value)
    return "'" + shown if shown.startswith(FORMULA_START) else shown


def csv_header() -> list[str]:
    """The columns: score, a 1/0 cell per graded case (t1 … g3), the LMS facts, the sandbox level, then the points
    per group."""
    lab = active()
    return [
        "student",
        "status",
        "score",
        "max_score",
        *[case.column for case in lab.graded],
        *LMS_COLUMNS,
        *RUN_COLUMNS,
        *[f"{group.id}_points" for group in lab.graded_groups],
    ]


def csv_row(result) -> list[str]:
    """One StudentResult's row."""
    lab, groups = active(), result.groups or {}
    late = {True: "1", False: "0"}.get(result.late, "")
    return [
        cell(result.student),
        cell(result.status),
        str(result.score),
        str(result.max_score),
        *["1" if case.column in result.cases and result.cases[case.column].passed else "0" for case in lab.graded],
        cell(result.name),
        late,
        cell(result.attempt or ""),
        cell("; ".join(result.files)),
        cell(result.sandbox),
        *[str(groups.get(group.id, 0)) for group in lab.graded_groups],
    ]


def write_grades_csv(stream, results) -> None:
    """grades.csv into a text stream, one result at a time."""
    writer = csv.writer(stream, lineterminator="\n")
    writer.writerow(csv_header())
    for result in results:
        writer.writerow(csv_row(result))


def piece(result, _feedback: str) -> list[str]:
    return csv_row(result)


def write(run, staging) -> None:
    with staging.create(NAME, text=True) as stream:
        write_grades_csv(stream, run.records)
