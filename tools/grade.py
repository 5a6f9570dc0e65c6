"""Grades a class: every submission in its own sandboxed child, judged by the lab's case table.

    python -m tools.grade SUBMISSIONS [--out grades] [--jobs N]          (make grade)
    python -m tools.grade --gradescope [--submission DIR] [--results F]  (Gradescope's run_autograder)

A verdict comes only from the values a student's functions returned (see framework/harness/engine.py);
nothing a submission prints, exits with or writes can change it.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import dataclass, field, replace
from pathlib import Path

from framework.harness import render
from framework.harness.cases import ALL_CASES
from framework.harness.engine import Limits, LoadOutcome, StudentRun
from framework.harness.i18n import text
from framework.harness.judge import Verdict, check
from tools import reports
from tools.submissions import Submission, discover, from_folder

FILE = "student.py"  # how every student's file is named in feedback


@dataclass
class Grade:
    """One student's result: status, score, the verdict of every case and the feedback text."""

    student: str
    entry: str
    status: str
    verdicts: list = field(default_factory=list)
    feedback: str = ""
    sandbox: str = "none"
    seconds: float = 0.0

    @property
    def score(self) -> int:
        return sum(v.case.weight for v in self.verdicts if v.passed)

    def verdict(self, case) -> Verdict | None:
        """The verdict of `case`, or None when the submission could not run at all."""
        return next((v for v in self.verdicts if v.case is case), None)

    def passed(self, case) -> bool:
        verdict = self.verdict(case)
        return verdict is not None and verdict.passed


def grade_submission(submission: Submission, limits: Limits, cases=ALL_CASES) -> Grade:
    """Run every case on one submission (or explain why it cannot run) and write its feedback."""
    started = time.monotonic()
    if not submission.gradable:
        feedback = "\n".join([text(f"status.{submission.status}", found=", ".join(submission.found)), "",
                              *render.summary_lines([(case, False) for case in cases])]) + "\n"
        return Grade(submission.student, submission.entry, submission.status, feedback=feedback)
    with StudentRun(display=FILE, source=submission.source, limits=limits) as student:
        verdicts = [check(student, case) for case in cases]
        load = student.load
    return Grade(submission.student, submission.entry, overall_status(load, verdicts), verdicts,
                 render.course_report(verdicts, FILE), load.sandbox, time.monotonic() - started)


def overall_status(load: LoadOutcome, verdicts: list[Verdict]) -> str:
    """`ok`, or the one reason that matters most for the instructor."""
    if not load.ok:
        return load.status
    problems = {v.problem for v in verdicts}
    if "missing_function" in problems:
        return "missing_function"
    if any(v.problem == "raised" and v.facts["raised"].get("type") == "MemoryError" for v in verdicts):
        return "memory"
    if "timeout" in problems:
        return "timeout"
    if problems & {"crashed", "no_answer"}:
        return "crashed"
    return "ok"


def grade_class(folder: Path, jobs: int, limits: Limits, progress=None) -> list[Grade]:
    """Grade every entry of `folder` in parallel; a hung case costs only its own time limit."""
    submissions = discover(folder)
    grades: dict[str, Grade] = {}
    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        futures = [pool.submit(grade_submission, submission, limits) for submission in submissions]
        for future in as_completed(futures):
            grade = future.result()
            grades[grade.student] = grade
            if progress:
                progress(len(grades), len(submissions))
    return [grades[s.student] for s in submissions]


def _progress_printer(stream=sys.stderr):
    started = time.monotonic()
    last = [0.0]

    def show(done: int, total: int):
        now = time.monotonic() - started
        if done < total and now - last[0] < (0.2 if stream.isatty() else 5.0):
            return
        last[0] = now
        eta = now / done * (total - done)
        line = text("grade.progress", done=done, total=total, elapsed=now, eta=eta)
        stream.write(("\r" + line + ("\n" if done == total else "")) if stream.isatty() else line + "\n")
        stream.flush()

    return show


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.grade", description=__doc__.split("\n")[0])
    parser.add_argument("submissions", type=Path, nargs="?", help="folder with one entry per student")
    parser.add_argument("--gradescope", action="store_true", help="grade one Gradescope submission")
    parser.add_argument("--submission", type=Path, default=Path("/autograder/submission"))
    parser.add_argument("--results", type=Path, default=Path("/autograder/results/results.json"))
    parser.add_argument("--out", type=Path, default=Path("grades"))
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--submission-seconds", type=float, default=Limits.submission_seconds,
                        help="wall-clock limit for one student, all cases together")
    args = parser.parse_args(argv)
    limits = replace(Limits.from_env(), submission_seconds=args.submission_seconds)
    if args.gradescope:
        grade = grade_submission(replace(from_folder(args.submission, "submission"), entry="submission"), limits)
        reports.write_gradescope(grade, args.results)
        return 0
    if args.submissions is None or not args.submissions.is_dir():
        parser.error("SUBMISSIONS must be a folder (make grade SUBMISSIONS=dir)")
    started = time.monotonic()
    grades = grade_class(args.submissions, args.jobs, limits, _progress_printer())
    reports.write_all(grades, args.out, limits)
    print(reports.terminal_summary(grades, time.monotonic() - started, args.jobs, args.out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
