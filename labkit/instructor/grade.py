"""Grades a class: every submission in its own sandboxed child, judged by the lab's case table.

`make grade` (python -m labkit.instructor.grade SUBMISSIONS …) and Gradescope's run_autograder (--gradescope);
--help lists the options.  Why (the barrier, Ctrl-C): docs/design.md#labkitinstructorgradepy
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import signal
import sys
import threading
import time
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import cast

from labkit import checks, render
from labkit.checks import InputSource
from labkit.i18n import text
from labkit.judge import Verdict
from labkit.run import engine, sandbox
from labkit.run.engine import Limits, LoadOutcome, StudentRun
from labkit.spec import active
from labkit.untrusted import safe_text
from labkit.instructor import audit, config, workers
from labkit.instructor.outputs import atomic, gradescope as gradescope_results, regrade, registry, roster, terminal
from labkit.instructor.outputs.feedback import feedback_text, why_text
from labkit.instructor.outputs.spool import Spool
from labkit.instructor.results import StudentResult
from labkit.instructor.config import ATTEMPTS, Course, Scheme, course_settings
from labkit.instructor.lms.downloads import Refused as DownloadRefused, describe as describe_download
from labkit.instructor.lms.downloads import refusal as download_refusal
from labkit.instructor.outputs.figures import Figures, late_line, nobody_graded
from labkit.instructor.outputs.gradebooks import kind_lines, missing_line, rows_line
from labkit.instructor.lms.submissions import NOT_THEIR_DOING, UNGRADABLE, Submission, discover, from_folder, gradescope_metadata
from labkit.instructor.lms.submissions import noted_late

MAX_BEST = 5  # attempts graded at most when the best one counts
INTERRUPTED = 130
MAKE_OPTIONS = (  # make grade's variables: (name, example value, the option it becomes); README shows the same
    ("OUT", "grades", "--out"), ("JOBS", "n", "--jobs"), ("ROSTER", "gradebook.csv", "--roster"),
    ("ATTEMPT", "latest|best", "--attempt"), ("MERGE", "1", "--merge"), ("TITLE", "column", "--title"),
    ("NEW_COLUMN", "1", "--new-column"), ("UNSAFE", "level|1", "--unsafe"), ("CONFIG", "course-file", "--config"),
)
MAKE_USAGE = "make grade SUBMISSIONS=dir|zip " + " ".join(f"[{name}={value}]" for name, value, _ in MAKE_OPTIONS)


def make_spelling(argv: list) -> list:
    """The arguments with make's spelling (`python lab.py grade SUBMISSIONS=class OUT=out MERGE=1`) as the options
    make grade passes: SUBMISSIONS= the folder, each of MAKE_OPTIONS its option, a switch (`=1`) on when its value is
    not empty, as the Makefile's `$(if …)` does; anything else as it was."""
    options = {name: (option, example == "1") for name, example, option in MAKE_OPTIONS}
    spelt = []
    for arg in argv:
        name, equals, value = arg.partition("=")
        if equals and name == "SUBMISSIONS":
            spelt.append(value)
        elif equals and name in options:
            option, switch = options[name]
            spelt += ([option] if value else []) if switch else ([option, value] if value else [])
        else:
            spelt.append(arg)
    return spelt


def typed(path: Path | None) -> Path | None:
    """A path as the instructor typed it: relative to where they ran make or lab.py (LAB_CWD), not to the lab."""
    base = os.environ.get("LAB_CWD")
    return Path(base) / path if path is not None and base and not path.is_absolute() else path


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


# --- one submission ------------------------------------------------------------------------------

def grade_submission(submission: Submission, limits: Limits, scheme: Scheme, attempt: str = "latest") -> Grade:
    """Run every case on the attempt that counts (or explain why nothing can run) and write its feedback:
    the table cases and property checks as `make test-full` runs them, then the checks on inputs drawn for
    this student.  Points come from the grading scheme."""
    started = time.monotonic()
    draws = InputSource(student=submission.student, secret=scheme.secret, count=scheme.generated_count)
    base = Grade(submission.student, submission.entry, submission.status or "ok", name=submission.name,
                 layout=submission.layout, late=submission.late, attempts=len(submission.attempts),
                 notes=submission.notes, found=submission.found, max_score=scheme.max_score, worth=scheme.worth,
                 inputs=draws.fingerprint(scheme.checks), team=submission.team)
    if not submission.gradable:
        return replace(base, feedback=_not_run(base, scheme))
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
    return replace(base, status=overall_status(load, verdicts), verdicts=verdicts,
                   feedback=render.course_report(verdicts, active().student_file_name), sandbox=load.sandbox,
                   weak_sandbox=level.name if level is not None and not level.full else "",
                   seconds=time.monotonic() - started, attempt=number,
                   late=submission.lms_late if candidate.late is None else candidate.late,
                   files=candidate.files, notes=notes)


def _run(candidate, limits: Limits, scheme: Scheme, draws: InputSource) \
        -> tuple[list[Verdict], LoadOutcome, sandbox.Level | None]:
    """The verdicts of every check on one attempt, its load, and the level its children ran at (None: none ran)."""
    verdicts = []
    with StudentRun(display=active().student_file_name, source=candidate.source, limits=limits, modules=candidate.modules) as student:
        for case in scheme.checks:  # after engine.stop_all() a case raises engine.Stopped
            if case.suite != "generated" or scheme.weights["generated"]:
                verdicts.append(checks.verdict(student, case, draws))
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
    if "memory" in problems or any(v.problem == "raised" and v.facts["raised"].get("type") == "MemoryError"
                                   for v in verdicts):
        return "memory"
    if "disk" in problems:
        return "disk"
    if "timeout" in problems:
        return "timeout"
    if problems & {"crashed", "no_answer"}:
        return "crashed"
    return "ok"


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


def _not_run(grade: Grade, scheme: Scheme) -> str:
    """The feedback of a submission nothing ran for: why, then the summary with every case failed."""
    summary = render.summary_lines([(case, False) for case in scheme.checks])
    return "\n".join([why_text(grade), "", *summary]) + "\n"


def grader_error(submission: Submission, exc: BaseException, scheme: Scheme) -> Grade:
    """The grade of a submission the grader itself failed on: no verdicts, the entry and the cause named."""
    try:
        cause = f"{type(exc).__name__}: {exc}"
    except Exception:  # noqa: BLE001  (an exception whose str() fails still has a type)
        cause = type(exc).__name__
    cause = safe_text(cause, limit=300, keep_newlines=False)
    entry = safe_text(submission.entry, limit=300, keep_newlines=False)
    failed = Grade(submission.student, entry, "grader_error", name=submission.name, layout=submission.layout,
                   late=submission.late, attempts=len(submission.attempts), cause=cause, max_score=scheme.max_score,
                   team=submission.team)
    return replace(failed, feedback=_not_run(failed, scheme))


# --- a class -----------------------------------------------------------------------------------

def grade_class(submissions: list[Submission | None], jobs: int, limits: Limits, scheme: Scheme, progress=None,
                attempt: str = "latest", keep=None, level=None) -> None:
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
        pool.run(len(submissions), pending, finished,
                 lambda index, exc: finished(index, worker_failed(pending(index), exc, scheme, level)),
                 deadline=lambda index: worker_seconds(pending(index), limits, attempt))
    finally:
        stop_resource_tracker()


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
    why = text(key, entry=failed.entry, cause=failed.cause, level=level.name,
               seconds=getattr(exc, "seconds", 0.0))
    summary = render.summary_lines([(case, False) for case in scheme.checks])
    return replace(failed, feedback="\n".join([why, "", *summary]) + "\n")


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


def _progress_printer(stream=sys.stderr):
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


# --- the command -------------------------------------------------------------------------------

def main(argv=None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m labkit.instructor.grade", description=__doc__.split("\n")[0],
        epilog=f"From make: {MAKE_USAGE} (" + ", ".join(f"{name}= is {option}" for name, _, option in MAKE_OPTIONS)
        + "; SUBMISSIONS= is the folder or the LMS's zip).")
    parser.add_argument("submissions", type=Path, nargs="?", help="the class's folder, or the LMS's download zip")
    parser.add_argument("--gradescope", action="store_true", help="grade one Gradescope submission")
    parser.add_argument("--submission", type=Path, default=Path("/autograder/submission"))
    parser.add_argument("--metadata", type=Path, default=None, help="Gradescope's submission_metadata.json")
    parser.add_argument("--results", type=Path, default=Path("/autograder/results/results.json"))
    parser.add_argument("--out", type=lambda given: Path(os.path.normpath(given)), default=Path("grades"),
                        help="the output folder (grades)")  # (normalised: lab.py joins a relative OUT=../x to the lab)
    parser.add_argument("--jobs", type=int, default=2 * (os.cpu_count() or 1),
                        help="submissions graded at once (default: twice the cores: a child spends most of its time "
                             "starting up or waiting for its parent, so two per core keep every core busy)")
    parser.add_argument("--attempt", choices=ATTEMPTS, default=None, help="which attempt counts (latest)")
    parser.add_argument("--roster", type=Path, default=None, help="Canvas gradebook export or Moodle worksheet")
    parser.add_argument("--merge", action="store_true", help="replace only these students' rows in OUT")
    parser.add_argument("--title", default=None, help="the assignment's title (default: the course file's, else the lab's name)")
    parser.add_argument("--new-column", action="store_true",
                        help="write TITLE as a new gradebook column when none has it (else such a TITLE is refused)")
    parser.add_argument("--unsafe", nargs="?", const=audit.ANY, default=os.environ.get("LAB_UNSAFE", ""),
                        metavar="LEVEL", help="grade at this sandbox level below full strength, knowingly (its "
                        "name as the refusal spells it, a list or a pattern: uid, uid+landlock-4, uid*; 1 or no "
                        "value: any; also LAB_UNSAFE=)")
    parser.add_argument("--config", type=Path, default=None, help="a course file read over solutions/grading.ini")
    parser.add_argument("--submission-seconds", type=float, default=Limits.submission_seconds,
                        help="wall-clock limit for one student, all cases together")
    args = parser.parse_args(make_spelling(sys.argv[1:] if argv is None else argv))
    given = args.submissions
    args.submissions, args.out, args.roster, args.config = map(typed, (args.submissions, args.out, args.roster,
                                                                       args.config))
    limits = replace(Limits.from_env(), submission_seconds=args.submission_seconds)
    try:
        scheme = config.load(args.config)
    except config.ConfigError as exc:
        parser.error(str(exc))
    os.environ.setdefault("LAB_LANG", scheme.language)  # feedback and report in the course's language
    course = course_settings(args.title, args.attempt, scheme=scheme, new_column=args.new_column)
    level = audit.sandbox_level()
    if args.gradescope:
        return gradescope(args, limits, course, level)
    if args.submissions is None:
        parser.error(f"SUBMISSIONS must be a folder or an LMS download's .zip: {MAKE_USAGE}")
    refused = download_refusal(args.submissions, skip=(args.out,), given=given)  # not a class: one line, first
    if refused:
        print(refused, file=sys.stderr)
        return 2
    refusal = audit.refusal(level, args.unsafe, audit.private_files(args.config, args.submissions, args.out,
                                                                    args.roster))
    if refusal:
        print(refusal, file=sys.stderr)
        return 2
    try:  # a file that is not a gradebook is refused in one line, before anything else is said or done
        gradebook = roster.load(args.roster) if args.roster else None
    except roster.RosterError as refused:
        print(str(refused), file=sys.stderr)
        return 2
    if not level.full:
        print(audit.warning(level, args.unsafe), file=sys.stderr)
    started = time.monotonic()
    progress = _progress_printer()
    terminated = _terminate_like_ctrl_c()
    try:
        run = grade_folder(args.submissions, args.out, limits, jobs=args.jobs, course=course, level=level,
                           gradebook=gradebook, merge=args.merge, progress=progress)
    except (roster.RosterError, regrade.RegradeRefused, DownloadRefused) as refused:
        print(str(refused), file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        code = interrupted(progress, args.out)
        return 128 + terminated[0] if terminated else code  # as a shell reports the signal that came
    except OSError as error:
        print(text("grade.write_failed", out=args.out, error=safe_text(str(error), 300, False)), file=sys.stderr)
        return 1
    except workers.WorkersFailing as failing:  # the grader's own setup: no worker can take any work
        print(text("grade.setup_failed", why=safe_text(str(failing), 300, False), out=args.out), file=sys.stderr)
        return 1
    extra = ["", *run.changes] if run.changes else []
    extra += ["", *run.gradebook_lines] if run.gradebook_lines else []  # the column, every roster row, the misses
    extra += [*run.lms_lines, *filter(None, [late_line(run.figures, course.scheme)])]
    extra += ["", describe_download(args.submissions, skip=(args.out,))]  # the layout read
    print(terminal.terminal_summary(run.figures, time.monotonic() - started, args.jobs, args.out, level, extra,
                                    merged=run.graded if run.merged else None, gradebook=run.gradebook or "",
                                    last=[run.verdict] if run.verdict else []))
    if nobody_graded(run.figures):
        why = safe_text(run.figures.grader_errors[0][1], 300, False)
        print(text("grade.nobody_graded", count=run.figures.count, why=why), file=sys.stderr)
        return 1
    return 0


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


def grade_folder(folder: Path, out: Path, limits: Limits, *, jobs: int = 1, course: Course | None = None,
                 level=None, roster_path: Path | None = None, gradebook=None, merge: bool = False,
                 progress=None) -> ClassRun:
    """Grade every student in `folder` and write OUT, all or none.  Raises RosterError or RegradeRefused
    before grading anything, KeyboardInterrupt (nothing written) or OSError (OUT as it was).  Each student's
    record and feedback go to a file in OUT's staging folder as they are made (outputs/spool.py), so memory does
    not grow with the class; the outputs are written from it once grading is over."""
    course = course or course_settings()
    level = level or audit.sandbox_level()
    submissions = discover(folder, skip=(out,))
    if gradebook is None and roster_path:
        gradebook = roster.load(roster_path)
    if gradebook is not None:  # a TITLE with no column: RosterError before grading, unless no submission is in it
        roster.assignment(gradebook, course.title, course.new_column, required=roster.in_roster(gradebook, submissions))
        submissions = roster.prepare(gradebook, submissions)
    submissions = noted_late(submissions, course.scheme.late_penalty)
    previous = regrade.previous(out, [s.student for s in submissions], merge)
    with atomic.Staging(out) as staging:
        spool = Spool(staging.scratch("records"))
        try:
            # grade_class lets go of each submission (None) once it is graded: nothing here reads them again
            grade_class(cast("list[Submission | None]", submissions), jobs, limits, course.scheme, progress,
                        course.attempt,
                        lambda index, result: spool.put(index, result.record.to_json(), result.feedback), level)
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
    return ClassRun(run.figures, out, run.unmatched, changes, written, len(submissions), previous is not None,
                    matched.lines, [line for line in lines if line], matched.verdict)


def _terminate_like_ctrl_c() -> list:
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


def gradescope(args, limits: Limits, course: Course, level) -> int:
    """One Gradescope submission: the same reading of files as `make grade`, metadata for late and attempts."""
    metadata = args.metadata or args.submission.parent / "submission_metadata.json"
    facts = gradescope_metadata(metadata)
    submission = replace(from_folder(args.submission, facts.get("student") or "submission"), entry="submission")
    private = audit.private_files(args.config, out=args.results) + (("metadata", metadata),)
    refusal = audit.refusal(level, args.unsafe, private)
    grade = None
    if not refusal:
        result = grade_safely(submission, limits, course.scheme)
        grade = replace(result.grade, late=facts.get("late", result.grade.late))
    run = gradescope_results.Submission(grade=grade, course=course, facts=facts, refusal=refusal or "",
                                        name=args.results.name, level=level)
    args.results.parent.mkdir(parents=True, exist_ok=True)
    with atomic.Staging(args.results.parent) as staging:
        registry.write(staging, run, registry.GRADESCOPE)
        staging.commit([run.name])
    return 0


if __name__ == "__main__":
    sys.exit(main())
