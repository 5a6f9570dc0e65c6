"""feedback/: one text file per student, what `make test-full` prints for their file, after the decisions
taken about their files; within its cap (outputs/caps.py).  A regrade with MERGE=1 keeps the files of the
students it does not grade."""

from __future__ import annotations

from pathlib import Path

from labkit.i18n import text
from labkit.instructor.outputs import caps
from labkit.instructor.outputs.figures import feedback_name, student_file_name

FOLDER = "feedback"


def note_text(key: str, fields: dict) -> str:
    return text(key, student_file=student_file_name(), **fields)


LATE_NOTES = ("note.late", "note.late_penalty")  # said on their own, before the decisions about files


def feedback_text(grade) -> str:
    """The student's feedback: the sandbox level when it was below full strength, whether it came late (and what
    that cost), the decisions taken about their files (if any), then what `make test-full` prints; within its cap
    (labkit/instructor/outputs/caps.py: whatever the submission did, at most caps.FEEDBACK_BYTES)."""
    head = [text("feedback.sandbox", level=grade.weak_sandbox)] if grade.weak_sandbox else []
    late = [note_text(key, fields) for key, fields in grade.notes if key in LATE_NOTES]
    files = [note_text(key, fields) for key, fields in grade.notes if key not in LATE_NOTES]
    parts = head + late
    if files:
        parts.append("\n".join([text("feedback.notes")] + ["  - " + note for note in files]))
    return caps.feedback("".join(part + "\n\n" for part in parts) + grade.feedback)


def why_text(grade) -> str:
    """Why a submission could not run, in the reader's words: what it holds ("—" when nothing), or the entry
    and the cause the grader failed on."""
    return text(
        f"status.{grade.status}",
        student_file=student_file_name(),
        found=", ".join(grade.found) or "—",
        entry=grade.entry,
        cause=grade.cause,
    )


def piece(_result, feedback: str) -> bytes:
    return feedback.encode("utf-8")


def write(run, staging) -> None:
    """Every student graded by this run (written once every child is gone: none of them can touch it)."""
    staging.folder(FOLDER)
    for result, feedback in run.graded():
        staging.write(f"{FOLDER}/{feedback_name(result.student)}", feedback.encode("utf-8"))


def kept(out: Path, student: str) -> dict[str, bytes]:
    """The student's feedback file in an earlier OUT, if it has one."""
    name = f"{FOLDER}/{feedback_name(student)}"
    try:
        return {name: (out / name).read_bytes()}
    except OSError:
        return {}
