"""Gradescope's run_autograder (`--gradescope`): one submission read as `make grade` reads a student's files,
graded behind its barrier, late and attempts from Gradescope's metadata, and results.json written.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from labkit.run.engine import Limits
from labkit.instructor import audit
from labkit.instructor.config import Course
from labkit.instructor.outputs import atomic, gradescope as gradescope_results, registry
from labkit.instructor.lms.submissions import from_folder, gradescope_metadata
from labkit.instructor.barrier import grade_safely


def gradescope(
    folder: Path,
    results: Path,
    limits: Limits,
    course: Course,
    level,
    *,
    metadata: Path | None = None,
    course_path: Path | None = None,
    unsafe="",
) -> int:
    """One Gradescope submission (`folder`) into `results`: the same reading of files as `make grade`, `metadata`
    (default: submission_metadata.json beside `folder`) for late and attempts; refused, results.json says why
    (`unsafe` and the course file `course_path` as the command line's --unsafe and --config)."""
    metadata = metadata or folder.parent / "submission_metadata.json"
    facts = gradescope_metadata(metadata)
    submission = replace(from_folder(folder, facts.get("student") or "submission"), entry="submission")
    private = audit.private_files(course_path, out=results) + (("metadata", metadata),)
    refusal = audit.refusal(level, unsafe, private)
    grade = None
    if not refusal:
        result = grade_safely(submission, limits, course.scheme)
        grade = replace(result.grade, late=facts.get("late", result.grade.late))
    run = gradescope_results.Submission(
        grade=grade, course=course, facts=facts, refusal=refusal or "", name=results.name, level=level
    )
    results.parent.mkdir(parents=True, exist_ok=True)
    with atomic.Staging(results.parent) as staging:
        registry.write(staging, run, registry.GRADESCOPE)
        staging.commit([run.name])
    return 0
