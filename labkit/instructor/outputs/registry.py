"""The outputs registry: one `Output` per thing `make grade` writes, and the one list (`OUTPUTS`) that writing,
checking and regrading loop over.  Adding an export is a module with its piece and its writer, and one entry
here: `check` then refuses a student it cannot write (inside that student's barrier), `write` puts it in OUT
with the others (all or none), and a regrade with MERGE=1 keeps its per-student files.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path
from typing import Callable

from labkit.instructor.outputs import feedback, gradebooks, gradescope, grades_csv, grades_json, report_page
from labkit.instructor.outputs.figures import Figures
from labkit.instructor.results import StudentResult


def always(_run) -> bool:
    return True


@dataclass(frozen=True, kw_only=True)
class Output:
    """One thing `make grade` writes, rendered from the class's results alone."""

    name: str
    """its file or folder under OUT ("grades.csv", "feedback")"""
    render: Callable
    """render(run, staging): writes it into the run's staging folder (outputs/atomic.py) from `run` (a
    ClassResults; Gradescope's: a gradescope.Submission), reading the records as often as it needs"""
    wanted: Callable = always
    """wanted(run): whether this run writes it (a gradebook only when a roster of its kind was given)"""
    piece: Callable | None = None
    """piece(result, feedback): this student's part of it (a csv row, an html row, a gradebook cell);
    raising means this student cannot be written.  `check` calls it inside the student's barrier"""
    kept: Callable | None = None
    """kept(out, student) -> {path under OUT: content}: the student's own files in an earlier OUT, which
    MERGE=1 keeps when this run does not grade them (an output with files of its own per student writes
    those of the students this run graded, `run.graded()`, and this gives the others')"""


OUTPUTS = (  # the class run, in the order they are written
    Output(name=grades_csv.NAME, piece=grades_csv.piece, render=grades_csv.write),
    Output(name=grades_json.NAME, piece=grades_json.piece, render=grades_json.write),
    Output(name=feedback.FOLDER, piece=feedback.piece, render=feedback.write, kept=feedback.kept),
    Output(name=report_page.NAME, piece=report_page.piece, render=report_page.write),
    Output(name="canvas.csv", wanted=gradebooks.wanted("canvas"), piece=gradebooks.piece, render=gradebooks.write),
    Output(name="moodle.csv", wanted=gradebooks.wanted("moodle"), piece=gradebooks.piece, render=gradebooks.write),
)
GRADESCOPE = (Output(name=gradescope.NAME, render=gradescope.write),)  # one Gradescope submission


@dataclass(frozen=True, kw_only=True)
class ClassResults:
    """What every class output is rendered from: the StudentResults in the class's order as the outputs show
    them (with the roster's name where it gives one), read back from the run's spool as often as an output
    needs them; the students this run graded, with their feedback; the results' figures; the course, sandbox
    level and limits; and the roster with what matching it found."""

    records: object
    """the results, iterable as often as an output needs (never held all at once unless a merge holds them)"""
    graded: Callable
    """graded() -> (result, feedback text) of every student this run graded, in the class's order"""
    figures: Figures
    course: object
    level: object
    limits: object
    gradebook: object = None
    matched: gradebooks.Matched = gradebooks.Matched()

    @property
    def unmatched(self) -> list:
        return self.matched.unmatched

    @classmethod
    def of(cls, records, graded, course, level, limits, gradebook=None) -> ClassResults:
        """`records`: StudentResults, iterable more than once; `graded()`: (result, feedback text) pairs."""
        matched = gradebooks.match(gradebook, records, course)
        named = _Renamed(records, matched.names)
        return cls(
            records=named,
            graded=graded,
            figures=Figures.of(named, level),
            course=course,
            level=level,
            limits=limits,
            gradebook=gradebook,
            matched=matched,
        )


class _Renamed:
    """`results` as the outputs show them: with the name the roster gives each student, if any."""

    def __init__(self, results, names: dict):
        self.results, self.names = results, names

    def __iter__(self):
        for result in self.results:
            name = self.names.get(result.student, result.name)
            yield result if name == result.name else replace(result, name=name)


class Spooled:
    """The run's spool (outputs/spool.py) read as StudentResults: `records` in the class's order, and `graded`,
    each with its feedback; every reading goes back to the disk, so none of them is held."""

    def __init__(self, spool):
        self.spool = spool

    def __iter__(self):
        for document in self.spool:
            yield StudentResult.read(document)

    def graded(self):
        for document, said in self.spool.entries():
            yield StudentResult.read(document), said


def check(result, feedback_text: str = "", outputs=None) -> None:
    """Render this student's piece of every output, so a student who cannot be written fails here, inside
    their own barrier, and never while the class's outputs are written."""
    for output in OUTPUTS if outputs is None else outputs:
        if output.piece is not None:
            output.piece(result, feedback_text)


def write(staging, run, outputs=None) -> list[str]:
    """Write every output `run` wants into the staging folder; the names to commit."""
    written = [output for output in (OUTPUTS if outputs is None else outputs) if output.wanted(run)]
    for output in written:
        output.render(run, staging)
    return [output.name for output in written]


def keep(staging, run, out: Path, students, outputs=None) -> None:
    """Copy into the staging folder each of `students`' own files of an earlier OUT (MERGE=1: those this run
    did not grade), for every output `run` wants that has files of its own per student."""
    keepers = [
        output.kept
        for output in (OUTPUTS if outputs is None else outputs)
        if output.kept is not None and output.wanted(run)
    ]
    for student in students:
        for kept in keepers:
            for name, content in kept(out, student).items():
                staging.write(name, content)
