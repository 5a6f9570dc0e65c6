"""Grades a class folder into OUT: every submission in a worker process behind its barrier, the outputs written
all or none, progress on the terminal, and Ctrl-C (or SIGTERM, SIGHUP, SIGQUIT) ending it with nothing written.

Why: docs/design.md#labkitinstructorclass_runpy
"""

from __future__ import annotations

import gc
import json
import signal
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, cast

from labkit.i18n import text
from labkit.run import engine, sandbox
from labkit.run.engine import Limits
from labkit.instructor import audit, workers
from labkit.instructor.outputs import atomic, regrade, registry, roster
from labkit.instructor.outputs.spool import Spool
from labkit.instructor.config import Course, Scheme, course_settings
from labkit.instructor.outputs.figures import Figures
from labkit.instructor.outputs.gradebooks import kind_lines, missing_line, rows_line
from labkit.instructor.lms.submissions import Submission, discover, noted_late
from labkit.instructor.one_submission import Grade
from labkit.instructor.barrier import judged_safely, rendered_safely, worker_failed, worker_seconds

INTERRUPTED = 130


def grade_class(
    submissions: list[Submission | None],
    jobs: int,
    limits: Limits,
    scheme: Scheme,
    progress=None,
    attempt: str = "latest",
    keep=None,
    level=None,
) -> None:
    """Grade every submission, `jobs` at a time, each run and judged in a worker process (judging hundreds
    of calls is Python work that threads of one process could not share); this process renders, and hands
    each result to `keep(index, result)` as it comes.  A hung case costs only its own time limit; a worker
    that dies costs only the submission it held (labkit/instructor/workers.py: tried once more, then
    `worker_failed` says whose doing it was); one past its submission's deadline (`worker_seconds`) or stopped
    is killed by this process and that submission is `timeout`; `level` (the run's, else the probe's) decides
    whose doing a dead worker was.  Each entry of `submissions` is let go of (None) once graded.  On Ctrl-C
    every worker ends its child at once and KeyboardInterrupt goes on up."""
    finished_count = 0

    def pending(index: int) -> Submission:
        submission = submissions[index]
        assert submission is not None, "a submission is let go of once it is graded, and graded once"
        return submission

    def finished(index: int, grade: Grade) -> None:
        nonlocal finished_count
        result = rendered_safely(pending(index), grade, limits, scheme)
        submissions[index] = None  # let go of it: the class's files are not held to the end
        finished_count += 1
        if keep:
            keep(index, result)
        if progress:
            progress(finished_count, len(submissions))

    if jobs <= 1 or len(submissions) <= 1:
        for index in range(len(submissions)):
            finished(index, judged_safely(pending(index), limits, attempt, scheme))
        return
    pool = workers.Pool(jobs, judged_safely, (limits, attempt, scheme), stop_children=engine.stop_all)
    level = level or audit.sandbox_level()
    try:  # (the pool stops its workers first when anything goes wrong)
        pool.run(
            len(submissions),
            pending,
            finished,
            lambda index, exc: finished(index, worker_failed(pending(index), exc, scheme, level)),
            deadline=lambda index: worker_seconds(pending(index), limits, attempt),
        )
    finally:
        stop_resource_tracker()


def stop_resource_tracker() -> None:
    """End the helper process multiprocessing starts beside the workers (its resource tracker) and wait for
    it, so grading returns with nothing it started still running (on its own the helper ends a moment
    after this process, and a busy machine makes that moment long).  The next pool starts a new one."""
    from multiprocessing import resource_tracker

    gc.collect()  # the pool's pipes are closed while the tracker still runs to hear it
    stop = getattr(getattr(resource_tracker, "_resource_tracker", None), "_stop", None)  # CPython 3.8+
    if stop is not None:
        try:
            stop()
        except (OSError, RuntimeError, ChildProcessError):
            pass


# --- a class folder into OUT ---------------------------------------------------------------------


@dataclass(frozen=True)
class ClassOptions:
    """How `grade_folder` grades a class, besides its folder, OUT and the limits: make grade's JOBS=, the course's
    settings, the sandbox level, the roster (ROSTER=), MERGE=1 and who hears of the progress."""

    jobs: int = 1  # submissions graded at once
    course: Course | None = None  # None: course_settings()
    level: sandbox.Level | None = None  # None: the probe's (audit.sandbox_level)
    roster_path: Path | None = None  # a gradebook to read, when `gradebook` is not given
    gradebook: roster.Roster | None = None  # one already read (main reads it first: a bad file is one line)
    merge: bool = False  # replace only these students' records in OUT (MERGE=1)
    progress: Callable[[int, int], None] | None = None  # told (done, total) as each submission is graded


@dataclass
class ClassRun:
    """What one `make grade` produced: the class's figures, submissions missing from the roster, merge lines,
    how many submissions this run graded and whether it merged them into earlier results (MERGE=1)."""

    figures: Figures
    out: Path
    unmatched: list
    changes: list
    gradebook: str | None = None  # canvas.csv or moodle.csv, when a roster was given
    graded: int = 0  # submissions graded by this run (fewer than the records after a merge)
    merged: bool = False
    lms_lines: list = field(default_factory=list)  # what to do by hand in the LMS (groups, anonymous ids …)
    gradebook_lines: list = field(default_factory=list)  # the column filled, every roster row, the misses
    verdict: str = ""  # whether the gradebook written is ready to import (the terminal's last line)

    @property
    def records(self) -> list[dict]:
        """The records as written, read back from OUT's grades.json (the run itself never holds them all)."""
        return json.loads((self.out / "grades.json").read_text(encoding="utf-8"))["students"]


def grade_folder(folder: Path, out: Path, limits: Limits, options: ClassOptions | None = None) -> ClassRun:
    """Grade every student in `folder` and write OUT, all or none.  Raises RosterError or RegradeRefused
    before grading anything, KeyboardInterrupt (nothing written) or OSError (OUT as it was).  Each student's
    record and feedback go to a file in OUT's staging folder as they are made (outputs/spool.py), so memory does
    not grow with the class; the outputs are written from it once grading is over."""
    options = options or ClassOptions()
    course = options.course or course_settings()
    level = options.level or audit.sandbox_level()
    submissions = discover(folder, skip=(out,))
    gradebook = options.gradebook
    if gradebook is None and options.roster_path:
        gradebook = roster.load(options.roster_path)
    if gradebook is not None:  # a TITLE with no column: RosterError before grading, unless no submission is in it
        roster.assignment(gradebook, course.title, course.new_column, required=roster.in_roster(gradebook, submissions))
        submissions = roster.prepare(gradebook, submissions)
    submissions = noted_late(submissions, course.scheme.late_penalty)
    previous = regrade.previous(out, [s.student for s in submissions], options.merge)
    with atomic.Staging(out) as staging:
        spool = Spool(staging.scratch("records"))
        try:
            # grade_class lets go of each submission (None) once it is graded: nothing here reads them again
            grade_class(
                cast("list[Submission | None]", submissions),
                options.jobs,
                limits,
                course.scheme,
                options.progress,
                course.attempt,
                lambda index, result: spool.put(index, result.record.to_json(), result.feedback),
                level,
            )
            spooled = registry.Spooled(spool)
            records, kept, changes = spooled, (), []
            if previous is not None:  # (a merge holds the class's results: regrade.merge takes lists)
                records, kept, changes = regrade.merge(previous, list(spooled))
            run = registry.ClassResults.of(records, spooled.graded, course, level, limits, gradebook)
            names = registry.write(staging, run)
            registry.keep(staging, run, out, kept)
            staging.commit(names)
        finally:
            spool.close()
    written = next((name for name in ("canvas.csv", "moodle.csv") if name in names), None)
    matched = run.matched
    lines = [matched.column, rows_line(matched), *kind_lines(matched), missing_line(matched)] if matched.file else []
    return ClassRun(
        run.figures,
        out,
        run.unmatched,
        changes,
        written,
        len(submissions),
        previous is not None,
        matched.lines,
        [line for line in lines if line],
        matched.verdict,
    )


# --- the terminal: progress and Ctrl-C -----------------------------------------------------------


def progress_printer(stream=sys.stderr):
    """The progress line, as `grade_folder`'s `progress`: rewritten in place on a terminal (at most every 0.2 s),
    else a line every 5 s; the last submission's always.  Its `state` says whether a line is left open."""
    started = time.monotonic()
    last = [0.0]
    state = {"open_line": False}

    def show(done: int, total: int):
        now = time.monotonic() - started
        if done < total and now - last[0] < (0.2 if stream.isatty() else 5.0):
            return
        last[0] = now
        eta = now / done * (total - done)
        line = text("grade.progress", done=done, total=total, elapsed=now, eta=eta)
        if stream.isatty():
            stream.write("\r" + line + ("\n" if done == total else ""))
            state["open_line"] = done < total
        else:
            stream.write(line + "\n")
        stream.flush()

    show.state = state
    return show


def terminate_like_ctrl_c() -> list:
    """SIGTERM (`kill`), SIGHUP (a closed terminal, a dropped ssh session) and SIGQUIT (Ctrl-\\) stop grading the
    way Ctrl-C does; the list holds the one that came."""
    came: list = []

    def stop(signum, _frame):
        came.append(int(signum))
        raise KeyboardInterrupt

    if threading.current_thread() is threading.main_thread():
        for name in workers.ENDING_SIGNALS:
            signal.signal(getattr(signal, name), stop)
    return came


def interrupted(progress, out: Path) -> int:
    """Ctrl-C: every child is already gone, nothing was written; say so in one line."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    opened = getattr(progress, "state", {}).get("open_line")
    print(("\n" if opened else "") + text("grade.interrupted", out=out), file=sys.stderr, flush=True)
    return INTERRUPTED
