"""Turns grades into records, and records into what grading writes: grades.csv, grades.json, feedback/,
the terminal summary and Gradescope's results.json (report.html is in tools/report_page.py).

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
    """What a gradebook needs of a record (tools/roster.py): who and how they did, without the cases, so a
    roster's view of the class costs a few fields per student."""
    return {key: document[key] for key in BRIEF if key in document}


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
    cases = [{"column": c.column, "label": text(c.label_key), "weight": c.weight, "suite": c.suite,
              "group": GROUP_OF_SUITE[c.suite]} for c in scheme.cases]
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


def at_other_levels(records, level) -> list[tuple[str, str]]:
    """(student, level) of each student whose child ran at another level than the run's, in the records' order:
    a weaker one (a wall that failed for good during the run is not tried again), or, after a merge, the level
    of the run that graded them."""
    return [(document["student"], document["sandbox"]) for document in records if _elsewhere(document, level.name)]


def _elsewhere(document: dict, level_name: str | None) -> bool:
    """Whether the record's child ran at another level than `level_name` (the run's)."""
    return bool(level_name and document.get("sandbox") and document["sandbox"] != level_name)


# --- class figures ---------------------------------------------------------------------------

class Figures:
    """The class's figures, gathered one record at a time in a size that does not grow with the class: how
    many, per status, how many got each score, passes per case, the common mistakes (with their first example
    ids), the TABLE_ROWS students the report's table lists when not everyone fits (those not graded, then the
    lowest scores), and, given the run's level, the students graded at another (`at_other_levels`).

    Pass rates and score figures are over the graded submissions only (`Grade.gradable`): every file the
    grader could judge, a syntax error or a timeout included (with the points it earned); left out are the
    entries with no code to test (tools/submissions.UNGRADABLE) and those the grader or the machine failed on."""

    def __init__(self, level=None):
        self.level = getattr(level, "name", None)
        self.other_levels: list[tuple[str, str]] = []  # (student, level) of those graded at another level
        self.count = 0
        self.graded = 0
        self.scores: dict[int, int] = {}  # score -> how many graded records have it
        self.top = 0
        self.statuses: dict[str, list] = {}  # status -> [how many, whether graded]
        self.passes = dict.fromkeys((case.column for case in GRADED), 0)
        self.mistakes: dict[str, dict] = {}
        self._lowest: list[tuple] = []  # (graded, score, student), at most 2 * TABLE_ROWS between trims

    @classmethod
    def of(cls, records, level=None) -> Figures:
        figures = cls(level)
        for document in records:
            figures.add(document)
        return figures

    def add(self, document: dict) -> None:
        self.count += 1
        graded = bool(document.get("gradable"))
        self.top = max(self.top, document.get("max_score") or 0)
        status, score = document.get("status", ""), document.get("score", 0)
        self.statuses.setdefault(status, [0, graded])[0] += 1
        self.statuses[status][1] = graded
        self._lowest.append((graded, score, document["student"]))
        if _elsewhere(document, self.level):
            self.other_levels.append((document["student"], document["sandbox"]))
        if len(self._lowest) >= 2 * TABLE_ROWS:
            self._lowest = sorted(self._lowest)[:TABLE_ROWS]
        if not graded:
            return
        self.graded += 1
        self.scores[score] = self.scores.get(score, 0) + 1
        for column, verdict in document["cases"].items():
            if verdict.get("passed"):
                if column in self.passes:
                    self.passes[column] += 1
            elif verdict.get("hint"):
                self._mistake(verdict, column, document["student"])

    def _mistake(self, verdict: dict, column: str, student: str) -> None:
        entry = self.mistakes.setdefault(verdict["hint"], {"hint": verdict["hint"], "text": verdict.get("hint_text")
                                                           or verdict["hint"], "count": 0, "last": None,
                                                           "cases": [], "examples": []})
        if entry["last"] != student:  # a student counts once however many cases show the slip
            entry["last"] = student
            entry["count"] += 1
            entry["examples"] = sorted(entry["examples"] + [student])[:MISTAKE_EXAMPLES]
        if column not in entry["cases"]:
            entry["cases"].append(column)

    def mean(self) -> float:
        return sum(score * count for score, count in self.scores.items()) / self.graded if self.graded else 0

    def median(self) -> float:
        """As statistics.median over every graded score (0 when none)."""
        if not self.graded:
            return 0
        wanted, found, seen = [(self.graded - 1) // 2, self.graded // 2], [], 0
        for score in sorted(self.scores):
            seen += self.scores[score]
            while wanted and wanted[0] < seen:
                found.append(score)
                wanted.pop(0)
        return found[0] if found[0] == found[1] else (found[0] + found[1]) / 2

    def top_score(self) -> int:
        """The full marks the records were graded out of (the grading scheme's maximum)."""
        return self.top or 100

    def pass_rates(self):
        """(case, passed count) for every case over the graded records, in table order."""
        return [(case, self.passes[case.column]) for case in GRADED]

    def histogram(self, bins: int = 10):
        """Counts of graded scores in `bins` equal ranges of the maximum (the top bin includes full marks)."""
        counts, top = [0] * bins, self.top_score()
        for score, count in self.scores.items():
            counts[min(bins - 1, max(0, score) * bins // top)] += count
        return [(top * i // bins, top * (i + 1) // bins, count) for i, count in enumerate(counts)]

    def status_counts(self) -> list[tuple[str, int]]:
        """(status, how many): `ok` first, then the other graded statuses, then those not graded, so the counts
        before the first status not graded add up to the graded submissions the figures are over."""
        return [(status, count) for status, (count, graded) in sorted(
            self.statuses.items(), key=lambda item: (item[0] != "ok", not item[1][1], -item[1][0], item[0]))]

    def common_mistakes(self) -> list[dict]:
        """Each hint the judge gave, most students first: the hint, its text, how many students, which cases,
        example ids."""
        order = {case.column: index for index, case in enumerate(GRADED)}
        mistakes = [{"hint": m["hint"], "text": m["text"], "count": m["count"], "examples": list(m["examples"]),
                     "cases": sorted(m["cases"], key=lambda column: order.get(column, len(order)))}
                    for m in self.mistakes.values()]
        return sorted(mistakes, key=lambda m: (-m["count"], m["cases"][0] if m["cases"] else "", m["hint"]))

    def shown(self) -> set | None:
        """The students a table of at most TABLE_ROWS rows lists: those not graded, then the lowest scores (None:
        everyone fits)."""
        if self.count <= TABLE_ROWS:
            return None
        return {student for _, _, student in sorted(self._lowest)[:TABLE_ROWS]}


TABLE_ROWS = 1000  # students report.html's table lists at most (every student is in grades.csv)
MISTAKE_EXAMPLES = 3


def gradable(records) -> list[dict]:
    """The records of the graded submissions (see `Figures`)."""
    return [document for document in records if document.get("gradable")]


def common_mistakes(records) -> list[dict]:
    """Each hint the judge gave, most students first (`Figures.common_mistakes`)."""
    return Figures.of(records).common_mistakes()


def status_label(status: str) -> str:
    """A status in the reader's language (the code itself for a status this version has no words for)."""
    key = f"label.{status}"
    return text(key) if key in CATALOGUE else status


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


def sandbox_line(level, records=()) -> str:
    """The run's level and walls, and the students graded at another level, if any (with their level), from
    the records or their Figures."""
    key = "sandbox.full" if level.full else "sandbox.weak"
    line = text(key, level=level.name, walls=", ".join(level.walls) or "—")
    others = records.other_levels if isinstance(records, Figures) else at_other_levels(records, level)
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
