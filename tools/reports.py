"""Turns grades into records, and records into what grading writes: grades.csv, grades.json, feedback/,
the terminal summary and Gradescope's results.json (report.html is in tools/report_page.py).

A record is one student's result as plain data (what grades.json holds per student).  Every class output
is rendered from records only, so a regrade can merge earlier records with new ones, and nothing in an
output changes from run to run (no clock readings, no temporary paths): grading the same input twice
gives byte-identical files.
"""

from __future__ import annotations

import csv
import io
import json
import statistics
from dataclasses import replace

from framework.harness import render
from framework.harness.i18n import CATALOGUE, text
from tools import caps
from tools.config import GRADED, GROUP_OF_SUITE, GROUPS

BAR = 30
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
LMS_COLUMNS = ("name", "late", "attempt", "files")


# --- one student -------------------------------------------------------------------------------

def record(grade, limits) -> dict:
    """One student's result as plain data: the unit every output is rendered from, within its cap in grades.json
    (tools/caps.py: whatever the submission did, at most caps.RECORD_BYTES)."""
    return caps.record({
        "student": grade.student, "name": grade.name, "entry": grade.entry, "layout": grade.layout,
        "status": grade.status, "gradable": grade.gradable, "score": grade.score, "max_score": grade.max_score,
        "groups": {group: sum(v.case.weight for v in grade.verdicts if v.passed and GROUP_OF_SUITE.get(v.case.suite)
                              == group) for group in GROUPS},
        "late": grade.late, "attempt": grade.attempt, "attempts": grade.attempts, "files": list(grade.files),
        "sandbox": grade.sandbox, "generated_inputs": grade.inputs, "team": grade.team,
        "notes": [note_text(key, fields) for key, fields in grade.notes],
        "cases": {verdict.case.column: _case_json(verdict, limits) for verdict in grade.verdicts},
        "why": "" if grade.gradable else why_text(grade),
    })


def _case_json(verdict, limits) -> dict:
    return {"passed": verdict.passed, "score": verdict.case.weight if verdict.passed else 0,
            "problem": verdict.problem, "hint": verdict.hint,
            "hint_text": render.hint_text(verdict) if verdict.hint and not verdict.passed else "",
            "message": "" if verdict.passed else render.explanation(verdict, "student.py"),
            "timing": {"limit_seconds": limits.case_seconds, "timed_out": verdict.problem == "timeout"}}


def note_text(key: str, fields: dict) -> str:
    return text(key, **fields)


def feedback_text(grade) -> str:
    """The student's feedback: the decisions taken about their files (if any), then what `make test-full` prints;
    within its cap (tools/caps.py: whatever the submission did, at most caps.FEEDBACK_BYTES)."""
    if not grade.notes:
        return caps.feedback(grade.feedback)
    notes = [text("feedback.notes")] + ["  - " + note_text(key, fields) for key, fields in grade.notes]
    return caps.feedback("\n".join(notes) + "\n\n" + grade.feedback)


def why_text(grade) -> str:
    """Why a submission could not run, in the reader's words: what it holds ("—" when nothing), or the entry
    and the cause the grader failed on."""
    return text(f"status.{grade.status}", found=", ".join(grade.found) or "—", entry=grade.entry, cause=grade.cause)


def feedback_name(student: str) -> str:
    """The student's file in feedback/ (ids are already safe file names: tools/submissions.safe_id)."""
    return f"{student}.txt"


def check_record(document: dict) -> None:
    """Render every piece of output one record takes part in, so a record that cannot be written fails
    here, inside its own submission's barrier, and never while the class outputs are written."""
    from tools import report_page
    csv_row(document)
    json.dumps(document, ensure_ascii=False).encode("utf-8")
    report_page.student_row(document, {}).encode("utf-8")


# --- grades.csv ------------------------------------------------------------------------------

def cell(value) -> str:
    """A CSV cell that no spreadsheet takes for a formula (OWASP: a leading =, +, -, @, tab or CR gets ')."""
    shown = "" if value is None else str(value)
    return "'" + shown if shown.startswith(FORMULA_START) else shown


def csv_header() -> list[str]:
    """The columns: score, a 1/0 cell per graded case (t1 … g3), the LMS facts, then the points per group."""
    return ["student", "status", "score", "max_score", *[case.column for case in GRADED], *LMS_COLUMNS,
            *[f"{group}_points" for group in GROUPS]]


def csv_row(document: dict) -> list[str]:
    cases, groups = document["cases"], document.get("groups", {})
    late = {True: "1", False: "0"}.get(document.get("late"), "")
    return [cell(document["student"]), cell(document["status"]), str(document["score"]), str(document["max_score"]),
            *["1" if cases.get(case.column, {}).get("passed") else "0" for case in GRADED],
            cell(document.get("name", "")), late, cell(document.get("attempt") or ""),
            cell("; ".join(document.get("files", []))), *[str(groups.get(group, 0)) for group in GROUPS]]


def grades_csv(records) -> str:
    stream = io.StringIO()
    writer = csv.writer(stream, lineterminator="\n")
    writer.writerow(csv_header())
    writer.writerows(csv_row(document) for document in records)
    return stream.getvalue()


# --- grades.json -----------------------------------------------------------------------------

def grades_json(records, limits, course, level) -> str:
    scheme = course.scheme
    cases = [{"column": c.column, "label": text(c.label_key), "weight": c.weight, "suite": c.suite,
              "group": GROUP_OF_SUITE[c.suite]} for c in scheme.cases]
    document = {"lab": "Lab09", "title": course.title, "max_score": scheme.max_score, "cases": cases,
                "scheme": {"weights": scheme.weights, "generated_count": scheme.generated_count},  # not the secret
                "sandbox": sandbox_json(level, records),
                "limits": {"case_seconds": limits.case_seconds, "submission_seconds": limits.submission_seconds,
                           "memory_mb": limits.memory_bytes >> 20},
                "students": list(records)}
    return json.dumps(document, ensure_ascii=False, indent=2) + "\n"


def sandbox_json(level, records=()) -> dict:
    return {"level": level.name, "walls": list(level.walls), "blocks": list(getattr(level, "blocks", ())),
            "full": level.full,
            "students_at_other_levels": {student: shown for student, shown in at_other_levels(records, level)}}


def at_other_levels(records, level) -> list[tuple[str, str]]:
    """(student, level) of each student whose child ran at another level than the run's, in the records' order:
    a weaker one (a wall that failed for good during the run is not tried again), or, after a merge, the level
    of the run that graded them."""
    return [(document["student"], document["sandbox"]) for document in records
            if document.get("sandbox") and document["sandbox"] != level.name]


# --- class figures ---------------------------------------------------------------------------

def gradable(records) -> list[dict]:
    """The records of the graded submissions: every file the grader could judge, a syntax error or a timeout
    included (with the points it earned).  Pass rates and score figures are over these only; left out are the
    entries with no code to test (tools/submissions.UNGRADABLE) and those the grader or the machine failed on."""
    return [document for document in records if document.get("gradable")]


def passed(document: dict, case) -> bool:
    return bool(document["cases"].get(case.column, {}).get("passed"))


def pass_rates(records):
    """(case, passed count) for every case over the gradable records, in table order."""
    graded = gradable(records)
    return [(case, sum(passed(document, case) for document in graded)) for case in GRADED]


def top_score(records) -> int:
    """The full marks the records were graded out of (the grading scheme's maximum)."""
    return max([document.get("max_score") or 0 for document in records] or [0]) or 100


def histogram(records, bins: int = 10):
    """Counts of gradable scores in `bins` equal ranges of the maximum (the top bin includes full marks)."""
    counts, top = [0] * bins, top_score(records)
    for document in gradable(records):
        counts[min(bins - 1, max(0, document["score"]) * bins // top)] += 1
    return [(top * i // bins, top * (i + 1) // bins, count) for i, count in enumerate(counts)]


def status_counts(records) -> list[tuple[str, int]]:
    """(status, how many): `ok` first, then the other graded statuses, then those not graded, so the counts
    before the first status not graded add up to the graded submissions the figures are over."""
    counts: dict[str, int] = {}
    graded: dict[str, bool] = {}
    for document in records:
        counts[document["status"]] = counts.get(document["status"], 0) + 1
        graded[document["status"]] = bool(document.get("gradable"))
    return sorted(counts.items(), key=lambda item: (item[0] != "ok", not graded[item[0]], -item[1], item[0]))


def status_label(status: str) -> str:
    """A status in the reader's language (the code itself for a status this version has no words for)."""
    key = f"label.{status}"
    return text(key) if key in CATALOGUE else status


def common_mistakes(records, examples: int = 3) -> list[dict]:
    """Each hint the judge gave, most students first: the hint, how many students, which cases, example ids."""
    found: dict[str, dict] = {}
    for document in gradable(records):
        for column, verdict in document["cases"].items():
            if verdict.get("passed") or not verdict.get("hint"):
                continue
            entry = found.setdefault(verdict["hint"], {"hint": verdict["hint"], "text": verdict.get("hint_text")
                                                       or verdict["hint"], "students": [], "cases": []})
            if document["student"] not in entry["students"]:
                entry["students"].append(document["student"])
            if column not in entry["cases"]:
                entry["cases"].append(column)
    order = [case.column for case in GRADED]
    mistakes = []
    for entry in found.values():
        entry["cases"].sort(key=lambda column: order.index(column) if column in order else len(order))
        mistakes.append({**entry, "count": len(entry["students"]), "examples": sorted(entry["students"])[:examples]})
    return sorted(mistakes, key=lambda m: (-m["count"], m["cases"][0] if m["cases"] else "", m["hint"]))


# --- the terminal ------------------------------------------------------------------------------

def terminal_summary(records, seconds: float, jobs: int, out, level, extra: list[str] = (),
                     merged: int | None = None) -> str:
    """What `make grade` prints at the end.  `merged`: how many of `records` this run graded, when it merged
    them into earlier results (MERGE=1); every figure below the first line is over all of `records`."""
    graded = gradable(records)
    total = len(graded) or 1
    scores = [document["score"] for document in graded] or [0]
    graded_now = len(records) if merged is None else merged
    timing = {"count": len(records), "seconds": seconds, "jobs": max(1, min(jobs, graded_now))}
    rest = text("report.scores_rest", count=len(records) - len(graded)) if len(graded) < len(records) else ""
    lines = [text("report.done", **timing) if merged is None else text("report.done_merged", graded=merged, **timing),
             text("report.statuses") + " " + " · ".join(f"{status_label(s)} {n}" for s, n in status_counts(records)),
             text("report.scores", mean=statistics.mean(scores), median=statistics.median(scores), top=top_score(records),
                  count=len(graded), rest=rest),
             sandbox_line(level, records), ""]
    for case, count in pass_rates(records):
        filled = round(BAR * count / total)
        lines.append(f"{case.column:>4} {'█' * filled}{'░' * (BAR - filled)} {100 * count / total:5.1f}%"
                     f"  {count}/{len(graded)}  {text(case.label_key)}")
    mistakes = common_mistakes(records)[:5]
    if mistakes:
        lines += ["", text("report.mistakes_top")]
        lines += [f"  {m['count']:>3} × {m['text']}  ({', '.join(m['cases'])})" for m in mistakes]
    lines += [*extra, "", text("report.where", out=out)]
    return "\n".join(lines)


def sandbox_line(level, records=()) -> str:
    """The run's level and walls, and the students graded at another level, if any (with their level)."""
    key = "sandbox.full" if level.full else "sandbox.weak"
    line = text(key, level=level.name, walls=", ".join(level.walls) or "—")
    others = at_other_levels(records, level)
    if others:
        shown = ", ".join(f"{student} ({name})" for student, name in others[:10]) + (" …" if len(others) > 10 else "")
        line += "\n" + text("sandbox.other_levels", count=len(others), students=shown)
    return line


# --- Gradescope ----------------------------------------------------------------------------------

def gradescope_results(grade, course, facts: dict) -> dict:
    """Gradescope's results.json: a score, and one test per case with the feedback a student would see.
    Generated checks are tests of their own with the scheme's visibility, left out of the overall output
    while they are not visible; every text is preformatted ("text"), so caret lines stay aligned."""
    tests = []
    for case in course.scheme.cases:
        verdict, ok = grade.verdict(case), grade.passed(case)
        output = "" if ok else render.explanation(verdict, "student.py") if verdict is not None else why_text(grade)
        tests.append({"name": f"[TEST {case.id}] {text(case.label_key)}", "number": case.column,
                      "score": case.weight if ok else 0, "max_score": case.weight,
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
