"""The barrier around one submission: whatever goes wrong while it is read, run, judged or rendered becomes its
status (`grader_error`), and a worker that died on it or ran past its deadline becomes its grade too.

Why: docs/design.md#labkitinstructorbarrierpy
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from labkit import render
from labkit.i18n import text
from labkit.run import engine
from labkit.run.engine import Limits
from labkit.untrusted import safe_text
from labkit.instructor import workers
from labkit.instructor.config import Scheme
from labkit.instructor.outputs import registry
from labkit.instructor.outputs.feedback import feedback_text
from labkit.instructor.results import StudentResult
from labkit.instructor.lms.submissions import Submission
from labkit.instructor.one_submission import MAX_BEST, Grade, grade_submission, not_run_feedback


@dataclass(frozen=True)
class Result:
    """A graded submission with its output already rendered (so writing the class cannot fail on it)."""

    grade: Grade
    record: StudentResult
    feedback: str


def grade_safely(submission: Submission, limits: Limits, scheme: Scheme, attempt: str = "latest") -> Result:
    """The barrier around one submission: read, run, judge, render.  Anything that goes wrong in there
    becomes this submission's status `grader_error`, naming the entry and the cause."""
    return rendered_safely(submission, judged_safely(submission, limits, attempt, scheme), limits, scheme)


def judged_safely(submission: Submission, limits: Limits, attempt: str, scheme: Scheme) -> Grade:
    """The first half of the barrier (read, run, judge), the part a worker process does."""
    try:
        return grade_submission(submission, limits, scheme, attempt=attempt)
    except engine.Stopped:  # Ctrl-C: not this submission's fault, and nothing is written
        raise
    except Exception as exc:  # noqa: BLE001  (this is the barrier: every failure becomes a status)
        return grader_error(submission, exc, scheme)


def rendered_safely(submission: Submission, grade: Grade, limits: Limits, scheme: Scheme) -> Result:
    """The second half of the barrier: the record and the feedback of a grade."""
    try:
        return _rendered(grade, limits)
    except Exception as exc:  # noqa: BLE001  (this is the barrier: every failure becomes a status)
        failed = grader_error(submission, exc, scheme)
    try:
        return _rendered(failed, limits)
    except Exception:  # noqa: BLE001  (even rendering the error failed: the barest record there is)
        return Result(failed, StudentResult.bare(failed), failed.feedback)


def _rendered(grade: Grade, limits: Limits) -> Result:
    """The grade's result and feedback, checked against every output (outputs/registry.py)."""
    result, feedback = StudentResult.from_grade(grade, limits), feedback_text(grade)
    registry.check(result, feedback)
    return Result(grade, result, feedback)


def grader_error(submission: Submission, exc: BaseException, scheme: Scheme) -> Grade:
    """The grade of a submission the grader itself failed on: no verdicts, the entry and the cause named."""
    try:
        cause = f"{type(exc).__name__}: {exc}"
    except Exception:  # noqa: BLE001  (an exception whose str() fails still has a type)
        cause = type(exc).__name__
    cause = safe_text(cause, limit=300, keep_newlines=False)
    entry = safe_text(submission.entry, limit=300, keep_newlines=False)
    failed = Grade(
        submission.student,
        entry,
        "grader_error",
        name=submission.name,
        layout=submission.layout,
        late=submission.late,
        attempts=len(submission.attempts),
        cause=cause,
        max_score=scheme.max_score,
        team=submission.team,
    )
    return replace(failed, feedback=not_run_feedback(failed, scheme))


# --- a worker's failure --------------------------------------------------------------------------

WORKER_MARGIN = 30.0  # seconds a worker may take beyond its submission's budget (reading, judging, ending children)


def worker_seconds(submission: Submission, limits: Limits, attempt: str) -> float:
    """How long the grader lets a worker grade `submission`: the budget of each attempt it runs, and a margin."""
    runs = min(len(submission.attempts), MAX_BEST) if attempt == "best" else 1
    return max(1, runs) * (limits.submission_seconds + WORKER_MARGIN) + WORKER_MARGIN


def worker_failed(submission: Submission, exc: BaseException, scheme: Scheme, level) -> Grade:
    """The grade of a submission whose worker failed it.  Killed by the grader past its deadline or stopped
    (`WorkerTimedOut`): `timeout`, the submission's own failure (a level where a child can signal does not let it
    stall the run, and where none can, the budget the worker keeps is the submission's).  Dead on every try
    (`WorkerDied`): where this level keeps a child's signals in ("signal" in its blocks), nothing the submission
    did ended it — `grader_error`, not their doing; where it does not, the submission could have, and must not
    gain by it: `crashed`, its own failure.  Anything else the work raised: `grader_error`."""
    if isinstance(exc, workers.WorkerTimedOut):
        status, key = "timeout", "status.worker_timeout"
    elif isinstance(exc, workers.WorkerDied) and "signal" not in level.blocks:
        status, key = "crashed", "status.worker_died_own"
    else:
        return grader_error(submission, exc, scheme)
    failed = replace(grader_error(submission, exc, scheme), status=status)
    why = text(key, entry=failed.entry, cause=failed.cause, level=level.name, seconds=getattr(exc, "seconds", 0.0))
    summary = render.summary_lines([(case, False) for case in scheme.checks])
    return replace(failed, feedback="\n".join([why, "", *summary]) + "\n")
