"""A small class of whichever lab is active, graded once per test module by the real grader: the reference
solution, the lab's wrong solution, the stub, and three hostile files made the lab's with conftest.for_lab."""

from __future__ import annotations

import csv
import json
import re
import shutil
from dataclasses import dataclass, replace
from pathlib import Path

import pytest

from conftest import CLASS_LIMITS, ROOT, STUDENTS, for_lab, missing
from labkit.instructor import config
from labkit.instructor.class_run import ClassOptions, grade_folder
from labkit.instructor.outputs.grades_csv import LMS_COLUMNS
from labkit.spec import Lab, active

# lab id -> its wrong solution and the hint its detector names for it, for the two labs whose wrong solution sits
# elsewhere: Lab09's (tests/students/wrong/, the suite's students) and the toy's.  Every lab of the course's labs/
# needs no row: its own students/wrong.py, whose docstring names the hint ("Hint: hint.key"; see wrong_solution)
WRONG = {
    "lab09": (STUDENTS / "wrong" / "no_trim.py", "hint.not_trimmed"),
    "toycalc": (STUDENTS.parent / "toylab" / "wrong.py", "toy.hint.precedence"),
}


def wrong_solution(lab: Lab) -> tuple:
    """`lab`'s wrong solution and the hint it must be named by: WRONG's entry, else the lab's students/wrong.py."""
    if lab.id in WRONG:
        return WRONG[lab.id]
    path = lab.root / "students" / "wrong.py"
    if not path.is_file():
        missing(
            f"{lab.id}: the core's tests grade each lab's wrong solution: add {path.relative_to(ROOT).as_posix()} "
            f"(right but for one mistake; its docstring names the hint its detector gives: Hint: hint.key)"
        )
    named = re.search(r"^Hint: (\S+)\s*$", path.read_text(encoding="utf-8"), re.M)
    if not named:
        missing(
            f"{lab.id}: {path.relative_to(ROOT).as_posix()}'s docstring must name the hint its detector gives it, "
            f"in a line of its own: Hint: hint.key"
        )
    return path, named[1]


# harmless by construction: they forge replies, patch the child's reporting, print escape codes (nothing to arm)
HOSTILE = ("forges_replies_with_nonce", "patches_reporting", "escape_codes")
HONEST = ("solution", "wrong", "stub")
LIMITS = replace(CLASS_LIMITS, case_seconds=5.0)  # no correct call times out on a busy machine (none of them loops)


def header(lab: Lab) -> list:
    """grades.csv's columns for `lab`, from its spec: a 1/0 column per graded check, the LMS facts, the sandbox
    level, the points of each graded group."""
    return [
        "student",
        "status",
        "score",
        "max_score",
        *[check.column for check in lab.graded],
        *LMS_COLUMNS,
        "sandbox",
        *[f"{group.id}_points" for group in lab.graded_groups],
    ]


@dataclass(frozen=True)
class GradedClass:
    """What one grading of the small class wrote, read back."""

    lab: Lab
    out: Path
    header: list
    rows: dict
    """student -> their grades.csv row"""
    document: dict
    """grades.json"""

    @property
    def students(self) -> dict:
        """student -> their record in grades.json"""
        return {record["student"]: record for record in self.document["students"]}

    def feedback(self, student: str) -> str:
        return (self.out / "feedback" / f"{student}.txt").read_text(encoding="utf-8")

    @property
    def scheme(self) -> config.Scheme:
        return config.load(lab=self.lab)


def small_class(lab: Lab, folder: Path) -> Path:
    """The class's submissions in folder/class, one file per student, named by role."""
    submissions = folder / "class"
    submissions.mkdir(parents=True)
    sources = {"solution": lab.solution_path, "wrong": wrong_solution(lab)[0], "stub": lab.student_path}
    for name in HOSTILE:
        (folder / name).mkdir()
        sources[name] = for_lab(STUDENTS / "hostile" / f"{name}.py", lab, folder / name)
    for name, source in sources.items():
        shutil.copy(source, submissions / f"{name}.py")
    return submissions


def grade_small_class(lab: Lab, folder: Path, jobs: int = 2) -> GradedClass:
    """Grade the small class of `lab` (the active lab) into folder/out, as `make grade` would."""
    out = folder / "out"
    grade_folder(small_class(lab, folder), out, LIMITS, ClassOptions(jobs=jobs))
    with open(out / "grades.csv", encoding="utf-8", newline="") as stream:
        table = list(csv.reader(stream))
    rows = {row[0]: dict(zip(table[0], row)) for row in table[1:]}
    return GradedClass(lab, out, table[0], rows, json.loads((out / "grades.json").read_text(encoding="utf-8")))


@pytest.fixture(scope="module")
def graded_classes(tmp_path_factory):
    """lab -> its small class, graded the first time a test of the module asks for it (under the `lab` fixture,
    which makes that lab active for the grader and its workers) and shared by the module's other tests."""
    done: dict = {}

    def graded(lab: Lab) -> GradedClass:
        assert active().id == lab.id, "grade a lab's class under the `lab` fixture: the grader grades the active lab"
        if lab.id not in done:
            done[lab.id] = grade_small_class(lab, tmp_path_factory.mktemp(f"class-{lab.id}"))
        return done[lab.id]

    return graded
