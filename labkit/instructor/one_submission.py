"""Grades one submission: every check run on the attempt that counts, judged, its status and feedback (`Grade`).

Nothing here guards against the grader's own failures: labkit/instructor/barrier.py does.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field, replace

from labkit import assess, render
from labkit.assess import InputSource
from labkit.i18n import text
from labkit.judge import Verdict
from labkit.run import sandbox
from labkit.run.engine import Limits, LoadOutcome, StudentRun
from labkit.spec import active
from labkit.instructor.config import Scheme
from labkit.instructor.outputs.feedback import why_text
from labkit.instructor.lms.submissions import NOT_THEIR_DOING, UNGRADABLE, Submission

MAX_BEST = 5  # attempts graded at most when the best one counts


@dataclass
class Grade:
    """One student's result: status, score, the verdict of every case and the feedback text."""

    student: str
    entry: str
    status: str
    verdicts: list = field(default_factory=list)
    feedback: str = ""
    sandbox: str = ""  # the level its child ran at ("": no child ran)
    weak_sandbox: str = ""  # that level again when it was below full strength (the feedback's first line says so)
    seconds: float = 0.0
    name: str = ""
    layout: str = "plain"
    late: bool | None = None
    attempt: int | None = None  # which attempt counted (1 = the first), when there were attempts
    attempts: int = 0
    files: tuple = ()
    notes: tuple = ()  # (text key, fields): decisions about the student's files, stated in the feedback
    found: tuple = ()
    cause: str = ""  # what went wrong, for grader_error
    max_score: int = 0  # of the grading scheme it was graded with
    worth: dict = field(default_factory=dict)  # check id -> the points the scheme gives it (Scheme.worth)
    inputs: str = ""  # names the inputs drawn for this student's drawn checks (InputSource.fingerprint)
    team: str = ""  # a group's submission: the group's name (its other members get the grade in the LMS)

    @property
    def score(self) -> int:
        return points(self.verdicts, self.worth)

    @property
    def gradable(self) -> bool:
        """Whether the submission is graded: a file the grader judged, a syntax error or a timeout included (with
        the points it earned); not an entry with no code to test, nor one the grader or the machine failed on.
        Pass rates and score figures are over these only (figures.gradable)."""
        return self.status not in UNGRADABLE + NOT_THEIR_DOING

    def verdict(self, case) -> Verdict | None:
        """The verdict of `case` (by id: drawn checks judge copies of their case), or None when nothing ran."""
        return next((v for v in self.verdicts if v.case.id == case.id), None)

    def passed(self, case) -> bool:
        verdict = self.verdict(case)
        return verdict is not None and verdict.passed


def points(verdicts, worth: dict) -> int:
    """The points `verdicts` earned: what `worth` gives each check passed."""
    return sum(worth.get(v.case.id, 0) for v in verdicts if v.passed)


def grade_submission(submission: Submission, limits: Limits, scheme: Scheme, attempt: str = "latest") -> Grade:
    """Run every case on the attempt that counts (or explain why nothing can run) and write its feedback:
    the table cases and property checks as `make test-full` runs them, then the checks on inputs drawn for
    this student.  Points come from the grading scheme."""
    started = time.monotonic()
    draws = InputSource(student=submission.student, secret=scheme.secret, count=scheme.generated_count)
    base = Grade(
        submission.student,
        submission.entry,
        submission.status or "ok",
        name=submission.name,
        layout=submission.layout,
        late=submission.late,
        attempts=len(submission.attempts),
        notes=submission.notes,
        found=submission.found,
        max_score=scheme.max_score,
        worth=scheme.worth,
        inputs=draws.fingerprint(scheme.checks),
        team=submission.team,
    )
    if not submission.gradable:
        return replace(base, feedback=not_run_feedback(base, scheme))
    chosen = list(enumerate(submission.attempts, 1))
    chosen = chosen[-MAX_BEST:] if attempt == "best" else chosen[-1:]
    best = None
    for number, candidate in chosen:
        graded = _run(candidate, limits, scheme, draws)
        score = points(graded[0], scheme.worth)
        if best is None or score >= best[0]:
            best = (score, number, candidate, graded)
    assert best is not None  # a gradable submission has an attempt
    _, number, candidate, (verdicts, load, level) = best
    notes = submission.notes
    if len(submission.attempts) > 1:
        rule = text("note.rule_best") if attempt == "best" else text("note.rule_latest")
        notes += (("note.attempt", {"number": number, "total": len(submission.attempts), "rule": rule}),)
    if candidate.modules:
        notes += (("note.helpers", {"files": ", ".join(candidate.modules)}),)
    return replace(
        base,
        status=overall_status(load, verdicts),
        verdicts=verdicts,
        feedback=render.course_report(verdicts, active().student_file_name),
        sandbox=load.sandbox,
        weak_sandbox=level.name if level is not None and not level.full else "",
        seconds=time.monotonic() - started,
        attempt=number,
        late=submission.lms_late if candidate.late is None else candidate.late,
        files=candidate.files,
        notes=notes,
    )


def _run(
    candidate, limits: Limits, scheme: Scheme, draws: InputSource
) -> tuple[list[Verdict], LoadOutcome, sandbox.Level | None]:
    """The verdicts of every check on one attempt, its load, and the level its children ran at (None: none ran)."""
    verdicts = []
    with StudentRun(
        display=active().student_file_name, source=candidate.source, limits=limits, modules=candidate.modules
    ) as student:
        for case in scheme.checks:  # after engine.stop_all() a case raises engine.Stopped
            if case.suite != "generated" or scheme.weights["generated"]:
                verdicts.append(assess.verdict(student, case, draws))
        load = student.load
    assert load is not None  # the first check loaded the file
    return verdicts, load, student.level


def overall_status(load: LoadOutcome, verdicts: list[Verdict]) -> str:
    """`ok`, or the one reason that matters most for the instructor."""
    if not load.ok:
        return load.status
    problems = {v.problem for v in verdicts}
    if "missing_function" in problems:
        return "missing_function"
    if "memory" in problems or any(
        v.problem == "raised" and v.facts["raised"].get("type") == "MemoryError" for v in verdicts
    ):
        return "memory"
    if "disk" in problems:
        return "disk"
    if "timeout" in problems:
        return "timeout"
    if problems & {"crashed", "no_answer"}:
        return "crashed"
    return "ok"


def not_run_feedback(grade: Grade, scheme: Scheme) -> str:
    """The feedback of a submission nothing ran for: why, then the summary with every case failed."""
    summary = render.summary_lines([(case, False) for case in scheme.checks])
    return "\n".join([why_text(grade), "", *summary]) + "\n"
