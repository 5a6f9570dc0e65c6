"""Turns grades into records, and records into what grading writes: grades.csv, grades.json, feedback/,
the terminal summary and Gradescope's results.json (report.html is in labkit/instructor/outputs/report_page.py, the class's
figures in labkit/instructor/outputs/figures.py).

A record is one student's result as plain data (what grades.json holds per student).  Every class output
is rendered from records only, so a regrade can merge earlier records with new ones, and nothing in an
output changes from run to run (no clock readings, no temporary paths): grading the same input twice
gives byte-identical files.
"""

from __future__ import annotations

import csv
import hashlib
import io
import json
from dataclasses import replace

from labkit import render
from labkit.i18n import text
from labkit.instructor.outputs import caps, report_page
from labkit.instructor.outputs.figures import Figures, at_other_levels, sandbox_line, status_label
from labkit.spec import active

BAR = 30
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
LMS_COLUMNS = ("name", "late", "attempt", "files")


# --- one student -------------------------------------------------------------------------------

def record(grade, limits) -> dict:
    """One student's result as plain data: the unit every output is rendered from, within its cap in grades.json
    (labkit/instructor/outputs/caps.py: whatever the submission did, at most caps.RECORD_BYTES)."""
    return caps.record({
        "student": grade.student, "name": grade.name, "entry": grade.entry, "layout": grade.layout,
        "status": grade.status, "gradable": grade.gradable, "score": grade.score, "max_score": grade.max_score,
        "groups": {group.id: sum(grade.worth.get(v.case.id, 0) for v in grade.verdicts if v.passed
                                 and v.case.group.id == group.id) for group in active().graded_groups},
        "late": grade.late, "attempt": grade.attempt, "attempts": grade.attempts, "files": list(grade.files),
        "sandbox": grade.sandbox, "generated_inputs": grade.inputs, "team": grade.team,
        "notes": [note_text(key, fields) for key, fields in grade.notes],
        "cases": {verdict.case.column: _case_json(verdict, grade.worth.get(verdict.case.id, 0), limits)
                  for verdict in grade.verdicts},
        "why": "" if grade.gradable else why_text(grade),
    })


def _case_json(verdict, worth: int, limits) -> dict:
    return {"passed": verdict.passed, "score": worth if verdict.passed else 0,
            "problem": verdict.problem, "hint": verdict.hint,
            "hint_text": render.hint_text(verdict) if verdict.hint and not verdict.passed else "",
            "message": "" if verdict.passed else render.explanation(verdict, "student.py"),
            "timing": {"limit_seconds": limits.case_seconds, "timed_out": verdict.problem == "timeout"}}


def note_text(key: str, fields: dict) -> str:
    return text(key, **fields)


def feedback_text(grade) -> str:
    """The student's feedback: the decisions taken about their files (if any), then what `make test-full` prints;
    within its cap (labkit/instructor/outputs/caps.py: whatever the submission did, at most caps.FEEDBACK_BYTES)."""
    if not grade.notes:
        return caps.feedback(grade.feedback)
    notes = [text("feedback.notes")] + ["  - " + note_text(key, fields) for key, fields in grade.notes]
    return caps.feedback("\n".join(notes) + "\n\n" + grade.feedback)


def why_text(grade) -> str:
    """Why a submission could not run, in the reader's words: what it holds ("—" when nothing), or the entry
    and the cause the grader failed on."""
    return text(f"status.{grade.status}", found=", ".join(grade.found) or "—", entry=grade.entry, cause=grade.cause)


def check_record(document: dict) -> None:
    """Render every piece of output one record takes part in, so a record that cannot be written fails
    here, inside its own submission's barrier, and never while the class outputs are written."""
    csv_row(document)
    json.dumps(document, ensure_ascii=False).encode("utf-8")
    report_page.student_row(document, {}).encode("utf-8")


class Spool:
    """Each student's record and feedback on disk as they are made (in a file of the run's staging folder), read
    back in the class's order as often as an output needs them: memory holds only where each one is and its
    digest.  What is read back must match that digest: outside any sandbox (level `none`) a submission can
    write wherever the grader can while it runs, and nothing it wrote may reach an output (a change raises
    `SpoolChanged`; bytes added at the end are never read)."""

    def __init__(self, path):
        self.file = open(path, "x+b", buffering=0)  # noqa: SIM115  (unbuffered: every read is what the disk holds)
        self.places: dict[int, tuple] = {}  # index -> (offset, record's length, feedback's length, digest)
        self.end = 0

    def put(self, index: int, document: dict, feedback: str) -> None:
        record, said = json.dumps(document, ensure_ascii=False).encode("utf-8"), feedback.encode("utf-8")
        entry = memoryview(record + said)
        self.places[index] = (self.end, len(record), len(said), hashlib.sha256(entry).digest())
        self.file.seek(self.end)
        while entry:
            entry = entry[self.file.write(entry):]
        self.end += len(record) + len(said)

    def __len__(self) -> int:
        return len(self.places)

    def __iter__(self):
        """The records, in the class's order."""
        for document, _ in self.entries():
            yield document

    def entries(self):
        """(record, feedback) of every student, in the class's order."""
        for index in sorted(self.places):
            offset, record, feedback, digest = self.places[index]
            self.file.seek(offset)
            entry = self.file.read(record + feedback)
            if hashlib.sha256(entry).digest() != digest:
                raise SpoolChanged(f"{self.file.name} was changed while grading (by a submission outside any "
                                   "sandbox?)")
            yield json.loads(entry[:record]), entry[record:].decode("utf-8")

    def close(self) -> None:
        self.file.close()


class SpoolChanged(OSError):
    """The run's own record of a student is not what it wrote: nothing of this run may be written."""


BRIEF = ("student", "name", "layout", "team", "status", "gradable", "score", "max_score", "late", "attempt")


def brief(document: dict) -> dict:
    """What a gradebook needs of a record (labkit/instructor/outputs/roster.py): who and how they did, without the cases, so a
    roster's view of the class costs a few fields per student."""
    return {key: document[key] for key in BRIEF if key in document}


# --- grades.csv ------------------------------------------------------------------------------

def cell(value) -> str:
    """A CSV cell that no spreadsheet takes for a formula (OWASP: a leading =, +, -, @, tab or CR gets ')."""
    shown = "" if value is None else str(value)
    return "'" + shown if shown.startswith(FORMULA_START) else shown


def csv_header() -> list[str]:
    """The columns: score, a 1/0 cell per graded case (t1 … g3), the LMS facts, then the points per group."""
    return ["student", "status", "score", "max_score", *[case.column for case in active().graded], *LMS_COLUMNS,
            *[f"{group.id}_points" for group in active().graded_groups]]


def csv_row(document: dict) -> list[str]:
    cases, groups = document["cases"], document.get("groups", {})
    late = {True: "1", False: "0"}.get(document.get("late"), "")
    return [cell(document["student"]), cell(document["status"]), str(document["score"]), str(document["max_score"]),
            *["1" if cases.get(case.column, {}).get("passed") else "0" for case in active().graded],
            cell(document.get("name", "")), late, cell(document.get("attempt") or ""),
            cell("; ".join(document.get("files", []))), *[str(groups.get(group.id, 0)) for group in active().graded_groups]]


def write_grades_csv(stream, records) -> None:
    """grades.csv into a text stream, one record at a time."""
    writer = csv.writer(stream, lineterminator="\n")
    writer.writerow(csv_header())
    for document in records:
        writer.writerow(csv_row(document))


# --- grades.json -----------------------------------------------------------------------------

def write_grades_json(stream, records, limits, course, level) -> None:
    """grades.json into a text stream, one record at a time: the same text as json.dumps(indent=2) of the
    whole document, without ever holding it."""
    scheme = course.scheme
    cases = [{"column": c.column, "label": text(c.label_key), "weight": scheme.points(c), "suite": c.suite,
              "group": c.group.id} for c in scheme.checks]
    document = {"lab": "Lab09", "title": course.title, "max_score": scheme.max_score, "cases": cases,
                "scheme": {"weights": scheme.weights, "generated_count": scheme.generated_count},  # not the secret
                "sandbox": sandbox_json(level, records),
                "limits": {"case_seconds": limits.case_seconds, "submission_seconds": limits.submission_seconds,
                           "memory_mb": limits.memory_bytes >> 20}}
    stream.write(json.dumps(document, ensure_ascii=False, indent=2)[:-2] + ",\n  \"students\": [")
    separator = "\n    "
    for document in records:
        stream.write(separator + json.dumps(document, ensure_ascii=False, indent=2).replace("\n", "\n    "))
        separator = ",\n    "
    stream.write("\n  ]\n}\n" if separator != "\n    " else "]\n}\n")


def sandbox_json(level, records=()) -> dict:
    return {"level": level.name, "walls": list(level.walls), "blocks": list(getattr(level, "blocks", ())),
            "full": level.full,
            "students_at_other_levels": {student: shown for student, shown in at_other_levels(records, level)}}


# --- the terminal ------------------------------------------------------------------------------

def terminal_summary(records, seconds: float, jobs: int, out, level, extra: list[str] = (),
                     merged: int | None = None) -> str:
    """What `make grade` prints at the end, from `records` or their `Figures`.  `merged`: how many of them this
    run graded, when it merged them into earlier results (MERGE=1); every figure below the first line is over
    all of them."""
    figures = records if isinstance(records, Figures) else Figures.of(records, level)
    graded, count = figures.graded, figures.count
    total = graded or 1
    graded_now = count if merged is None else merged
    timing = {"count": count, "seconds": seconds, "jobs": max(1, min(jobs, graded_now))}
    rest = text("report.scores_rest", count=count - graded) if graded < count else ""
    lines = [text("report.done", **timing) if merged is None else text("report.done_merged", graded=merged, **timing),
             text("report.statuses") + " " + " · ".join(f"{status_label(s)} {n}" for s, n in figures.status_counts()),
             text("report.scores", mean=figures.mean(), median=figures.median(), top=figures.top_score(), count=graded,
                  rest=rest),
             sandbox_line(level, figures), ""]
    for case, passes in figures.pass_rates():
        filled = round(BAR * passes / total)
        lines.append(f"{case.column:>4} {'█' * filled}{'░' * (BAR - filled)} {100 * passes / total:5.1f}%"
                     f"  {passes}/{graded}  {text(case.label_key)}")
    mistakes = figures.common_mistakes()[:5]
    if mistakes:
        lines += ["", text("report.mistakes_top")]
        lines += [f"  {m['count']:>3} × {m['text']}  ({', '.join(m['cases'])})" for m in mistakes]
    lines += [*extra, "", text("report.where", out=out)]
    return "\n".join(lines)


# --- Gradescope ----------------------------------------------------------------------------------

def gradescope_results(grade, course, facts: dict) -> dict:
    """Gradescope's results.json: a score, and one test per case with the feedback a student would see.
    Generated checks are tests of their own with the scheme's visibility, left out of the overall output
    while they are not visible; every text is preformatted ("text"), so caret lines stay aligned."""
    tests = []
    for case in course.scheme.checks:
        verdict, ok = grade.verdict(case), grade.passed(case)
        output = "" if ok else render.explanation(verdict, "student.py") if verdict is not None else why_text(grade)
        tests.append({"name": f"[TEST {case.id}] {text(case.label_key)}", "number": case.column,
                      "score": course.scheme.points(case) if ok else 0, "max_score": course.scheme.points(case),
                      "status": "passed" if ok else "failed", "output": output, "output_format": "text",
                      "visibility": visibility(course, case)})
    for test, output in zip(tests, caps.explanations([test["output"] for test in tests])):
        test["output"] = output
    shown = [v for v in grade.verdicts if visibility(course, v.case) == "visible"]
    if len(shown) < len(grade.verdicts):
        grade = replace(grade, feedback=render.course_report(shown, "student.py"))
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
    return {"score": score, "output": output, "output_format": "text", "test_output_format": "text",
            "visibility": course.visibility, "stdout_visibility": "hidden", "tests": tests,
            "extra_data": {"status": grade.status, "late": facts.get("late"), "attempt": facts.get("attempt"),
                           "files": list(grade.files), "sandbox": grade.sandbox}}


def visibility(course, case) -> str:
    """Generated checks follow the scheme's own setting; every other test the course's visibility."""
    return course.scheme.generated_visibility if case.suite == "generated" else course.visibility


def _number(value: float) -> str:
    return f"{value:g}"
