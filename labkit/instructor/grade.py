"""Grades a class: every submission in its own sandboxed child, judged by the lab's case table.

The command line of `make grade` (python -m labkit.instructor.grade SUBMISSIONS …) and of Gradescope's
run_autograder (--gradescope): its options and make's spelling of them, the refusals before grading, the
summary and the exit code.  --help lists the options.  Why: docs/design.md#labkitinstructorgradepy
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from dataclasses import replace
from pathlib import Path

from labkit.i18n import text
from labkit.run.engine import Limits
from labkit.untrusted import safe_text
from labkit.instructor import audit, autograder, class_run, config, workers
from labkit.instructor.outputs import regrade, roster, terminal
from labkit.instructor.config import ATTEMPTS
from labkit.instructor.lms.downloads import Refused as DownloadRefused, describe as describe_download
from labkit.instructor.lms.downloads import refusal as download_refusal
from labkit.instructor.outputs.figures import late_line, nobody_graded
from labkit.instructor.class_run import ClassOptions

MAKE_OPTIONS = (  # make grade's variables: (name, example value, the option it becomes); README shows the same
    ("OUT", "grades", "--out"),
    ("JOBS", "n", "--jobs"),
    ("ROSTER", "gradebook.csv", "--roster"),
    ("ATTEMPT", "latest|best", "--attempt"),
    ("MERGE", "1", "--merge"),
    ("TITLE", "column", "--title"),
    ("NEW_COLUMN", "1", "--new-column"),
    ("UNSAFE", "level|1", "--unsafe"),
    ("CONFIG", "course-file", "--config"),
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


# --- the command -------------------------------------------------------------------------------


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m labkit.instructor.grade",
        description=__doc__.split("\n")[0],
        epilog=f"From make: {MAKE_USAGE} ("
        + ", ".join(f"{name}= is {option}" for name, _, option in MAKE_OPTIONS)
        + "; SUBMISSIONS= is the folder or the LMS's zip).",
    )
    parser.add_argument("submissions", type=Path, nargs="?", help="the class's folder, or the LMS's download zip")
    parser.add_argument("--gradescope", action="store_true", help="grade one Gradescope submission")
    parser.add_argument("--submission", type=Path, default=Path("/autograder/submission"))
    parser.add_argument("--metadata", type=Path, default=None, help="Gradescope's submission_metadata.json")
    parser.add_argument("--results", type=Path, default=Path("/autograder/results/results.json"))
    parser.add_argument(
        "--out",
        type=lambda given: Path(os.path.normpath(given)),
        default=Path("grades"),
        help="the output folder (grades)",
    )  # (normalised: lab.py joins a relative OUT=../x to the lab)
    parser.add_argument(
        "--jobs",
        type=int,
        default=2 * (os.cpu_count() or 1),
        help="submissions graded at once (default: twice the cores: a child spends most of its time "
        "starting up or waiting for its parent, so two per core keep every core busy)",
    )
    parser.add_argument("--attempt", choices=ATTEMPTS, default=None, help="which attempt counts (latest)")
    parser.add_argument("--roster", type=Path, default=None, help="Canvas gradebook export or Moodle worksheet")
    parser.add_argument("--merge", action="store_true", help="replace only these students' rows in OUT")
    parser.add_argument(
        "--title", default=None, help="the assignment's title (default: the course file's, else the lab's name)"
    )
    parser.add_argument(
        "--new-column",
        action="store_true",
        help="write TITLE as a new gradebook column when none has it (else such a TITLE is refused)",
    )
    parser.add_argument(
        "--unsafe",
        nargs="?",
        const=audit.ANY,
        default=os.environ.get("LAB_UNSAFE", ""),
        metavar="LEVEL",
        help="grade at this sandbox level below full strength, knowingly (its "
        "name as the refusal spells it, a list or a pattern: uid, uid+landlock-4, uid*; 1 or no "
        "value: any; also LAB_UNSAFE=)",
    )
    parser.add_argument("--config", type=Path, default=None, help="a course file read over solutions/grading.ini")
    parser.add_argument(
        "--submission-seconds",
        type=float,
        default=Limits.submission_seconds,
        help="wall-clock limit for one student, all cases together",
    )
    args = parser.parse_args(make_spelling(sys.argv[1:] if argv is None else argv))
    given = args.submissions
    args.submissions, args.out, args.roster, args.config = map(
        typed, (args.submissions, args.out, args.roster, args.config)
    )
    limits = replace(Limits.from_env(), submission_seconds=args.submission_seconds)
    try:
        scheme = config.load(args.config)
    except config.ConfigError as exc:
        parser.error(str(exc))
    os.environ.setdefault("LAB_LANG", scheme.language)  # feedback and report in the course's language
    course = config.course_settings(args.title, args.attempt, scheme=scheme, new_column=args.new_column)
    level = audit.sandbox_level()
    if args.gradescope:
        return autograder.gradescope(
            args.submission,
            args.results,
            limits,
            course,
            level,
            metadata=args.metadata,
            course_path=args.config,
            unsafe=args.unsafe,
        )
    if args.submissions is None:
        parser.error(f"SUBMISSIONS must be a folder or an LMS download's .zip: {MAKE_USAGE}")
    refused = download_refusal(args.submissions, skip=(args.out,), given=given)  # not a class: one line, first
    if refused:
        print(refused, file=sys.stderr)
        return 2
    refusal = audit.refusal(
        level, args.unsafe, audit.private_files(args.config, args.submissions, args.out, args.roster)
    )
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
    progress = class_run.progress_printer()
    terminated = class_run.terminate_like_ctrl_c()
    options = ClassOptions(
        jobs=args.jobs, course=course, level=level, gradebook=gradebook, merge=args.merge, progress=progress
    )
    try:
        run = class_run.grade_folder(args.submissions, args.out, limits, options)
    except (roster.RosterError, regrade.RegradeRefused, DownloadRefused) as refused:
        print(str(refused), file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        code = class_run.interrupted(progress, args.out)
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
    print(
        terminal.terminal_summary(
            run.figures,
            time.monotonic() - started,
            args.jobs,
            args.out,
            level,
            extra,
            merged=run.graded if run.merged else None,
            gradebook=run.gradebook or "",
            last=[run.verdict] if run.verdict else [],
        )
    )
    if nobody_graded(run.figures):
        why = safe_text(run.figures.grader_errors[0][1], 300, False)
        print(text("grade.nobody_graded", count=run.figures.count, why=why), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
