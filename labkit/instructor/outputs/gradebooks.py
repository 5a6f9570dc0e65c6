"""canvas.csv and moodle.csv: the instructor's gradebook (outputs/roster.py reads it) written back with this
assignment's points, when a roster was given; and what matching the class with it tells the other outputs: the
roster's names, the column filled, every roster row accounted for, the submissions it does not list, what is left
to do by hand in the LMS, and whether the file is ready to import."""

from __future__ import annotations

from dataclasses import dataclass, field

from labkit.i18n import text
from labkit.untrusted import safe_text
from labkit.instructor.outputs import roster
from labkit.instructor.outputs.figures import status_label

SHOWN = 10  # names a terminal line lists before "… +N" (the report lists them all, up to its own bound)


@dataclass(frozen=True, kw_only=True)
class Matched:
    """The class matched with the roster: its rows' records, the submissions it does not list, the names it
    gives; the column filled, every row by kind (roster.accounted), the import verdict; and the lines saying what
    is left to do in the LMS."""

    matched: dict = field(default_factory=dict)
    column_chosen: object = None
    """the roster's column the points go to (roster.Column)"""
    unmatched: list = field(default_factory=list)
    """ids of the submissions no row matches"""
    names: dict = field(default_factory=dict)
    lines: list = field(default_factory=list)
    """what to do by hand in the LMS: anonymous ids, matches by name, group submissions"""
    file: str = ""
    """canvas.csv or moodle.csv ("": no roster)"""
    column: str = ""
    """the line naming the column filled"""
    rows: dict = field(default_factory=dict)
    """kind (roster.ROW_KINDS) -> the rows of that kind, each "Name (id)", in the roster's order"""
    total: int = 0
    """the roster's rows (the kinds add up to it)"""
    missing: list = field(default_factory=list)
    """each unmatched submission as "id (score/max, entry)": what to look for in the download"""
    ready: bool = False
    verdict: str = ""
    """the import line: ready, not ready (and why), or an empty column"""
    no_code: str = "0"
    """what the course file writes for no code to run ("0" or "blank")"""


def match(gradebook, records, course) -> Matched:
    """The results (read once, each without its cases: roster.brief) matched with `gradebook` (None: no
    roster, only the group submissions to name)."""
    if gradebook is None:
        return Matched(lines=roster.team_lines(roster.brief(result) for result in records))
    briefs = [roster.brief(result) for result in records]
    matched, unmatched = roster.match(gradebook, briefs)
    column = roster.assignment(gradebook, course.title, getattr(course, "new_column", False), required=False)
    kinds = roster.accounted(gradebook, matched, column)
    by_id = {str(brief["student"]): brief for brief in briefs}
    missing = [_missing(by_id[student]) for student in unmatched]
    file = f"{gradebook.kind}.csv"
    written = len(kinds["graded"]) + (len(kinds["no_code"]) if course.scheme.no_code == "0" else 0)
    problems = []
    if missing:
        problems.append(text("gradebook.problem.unmatched", count=len(missing), ids=_few(missing)))
    if kinds["failed"]:
        problems.append(text("gradebook.problem.failed", count=len(kinds["failed"]), who=_few(_who(kinds["failed"]))))
    if not written and briefs:
        verdict = text("gradebook.empty", file=file, count=len(briefs), ids=_few(missing or list(by_id)))
    elif problems:
        verdict = text("gradebook.not_ready", file=file, problems=text("gradebook.and").join(problems))
    else:
        verdict = text("gradebook.ready", file=file, written=written)
    lines = roster.summary(gradebook, briefs, matched, unmatched) + roster.team_lines(briefs)
    names = {brief["student"]: brief["name"] for brief in roster.named(gradebook, briefs, matched)}
    return Matched(
        matched=matched,
        column_chosen=column,
        unmatched=unmatched,
        names=names,
        lines=lines,
        file=file,
        column=_column(gradebook, column, file, course),
        total=len(gradebook.rows),
        missing=missing,
        rows={kind: _who(rows) for kind, rows in kinds.items()},
        ready=bool(written) and not problems,
        verdict=verdict,
        no_code=course.scheme.no_code,
    )


def _column(gradebook, column, file: str, course) -> str:
    """The line naming the column filled (and what it is out of)."""
    if column.index is None and not getattr(course, "new_column", False):  # no submission is in this roster
        return text(
            "gradebook.column_missing",
            file=file,
            column=column.title,
            closest=", ".join(column.closest) or text("lms.roster.no_columns"),
        )
    if column.index is None:
        return text("gradebook.column_new", file=file, column=column.title, maximum=f"{course.scheme.max_score:.2f}")
    return text("gradebook.column", file=file, column=column.title, maximum=column.maximum or "—")


def _who(rows: list) -> list[str]:
    return [f"{name} ({student})" if name else student for name, student, _ in rows]


def _missing(brief: dict) -> str:
    """An unmatched submission as the instructor would look for it: its id, score and its entry in the download
    (the file graded, when the student's work is spread over several entries)."""
    entries, files = str(brief.get("entry") or ""), brief.get("files") or ()
    entry = safe_text(files[0] if "; " in entries and files else entries, 80, False)
    graded = brief.get("gradable")
    score = f"{brief['score']}/{brief['max_score']}" if graded else status_label(str(brief.get("status")))
    return f"{brief['student']} ({score}" + (f", {entry})" if entry else ")")


def _few(items: list, shown: int = SHOWN) -> str:
    return ", ".join(items[:shown]) + (f" … +{len(items) - shown}" if len(items) > shown else "")


def rows_line(matched: Matched) -> str:
    """The roster's rows counted by kind, adding up to the roster ("" without one)."""
    if not matched.file:
        return ""
    parts = [text(_part(kind, matched.no_code), count=len(rows)) for kind, rows in matched.rows.items() if rows]
    return text("gradebook.rows", total=matched.total, parts=" + ".join(parts))


def kind_lines(matched: Matched, shown: int = SHOWN) -> list[str]:
    """Each kind's rows by name and id (the Test Student's: its own line elsewhere), `shown` of them a line."""
    lines = []
    for kind in LISTED:
        rows = matched.rows.get(kind) or []
        if rows:
            key = _part(kind, matched.no_code).replace("gradebook.part.", "gradebook.list.")
            lines.append(text(key, count=len(rows), who=_few(rows, shown)))
    return lines


def missing_line(matched: Matched) -> str:
    """The submissions no row matches, each with its score and entry ("" when there is none)."""
    return text("roster.unmatched", count=len(matched.missing), ids=_few(matched.missing)) if matched.missing else ""


LISTED = ("no_submission", "excused", "cannot_see", "no_code", "failed", "graded")  # the Test Student: its own line


def _part(kind: str, no_code: str) -> str:
    return f"gradebook.part.{kind}" + (f"_{'zero' if no_code == '0' else 'blank'}" if kind == "no_code" else "")


def piece(result, _feedback: str) -> str:
    """The student's cell in a gradebook (its points, as a gradebook with no maximum of its own shows them)."""
    return roster.score_cell(roster.brief(result), None, ".")


def wanted(kind: str):
    return lambda run: run.gradebook is not None and run.gradebook.kind == kind


def write(run, staging) -> None:
    name, content = roster.export(run.gradebook, run.matched.matched, run.course, run.matched.column_chosen)
    staging.write(name, content.encode("utf-8"))
