"""What grading found, as typed values: one `CheckResult` per check of one student, one `StudentResult` per
student, the unit every output is rendered from and a regrade reads back from an earlier grades.json.

`from_json` refuses what this grader could not have written.  Why: docs/design.md#labkitinstructorresultspy
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field

from labkit import render
from labkit.instructor.lms.submissions import safe_id
from labkit.instructor.outputs import caps
from labkit.instructor.outputs.feedback import note_text, why_text
from labkit.spec import active


@dataclass(frozen=True, kw_only=True)
class Timing:
    """The clock a check ran under."""

    limit_seconds: float
    """the time limit of one call of the student's function (Limits.case_seconds)"""
    timed_out: bool
    """whether the check failed because a call ran out of that time"""


@dataclass(frozen=True, kw_only=True)
class CheckResult:
    """One check of one student, as grades.json keeps it under "cases" (keyed by the check's column)."""

    passed: bool
    """whether every example (or every drawn input) passed"""
    score: int
    """the points earned: the scheme's points for this check if passed, else 0"""
    problem: str | None
    """why it failed, as the judge names it ("wrong_value", "timeout", "raised" …); None when it passed"""
    hint: str | None
    """the key of the hint the judge gave (the report's common mistakes group by it); None if none"""
    hint_text: str
    """that hint in the run's language, "" when it passed or had no hint"""
    message: str
    """what `make test-full` explains for this check (input, expected, actual), "" when it passed"""
    timing: Timing
    """the time limit the check ran under, and whether it ran out"""

    @classmethod
    def from_verdict(cls, verdict, worth: int, limits) -> CheckResult:
        """`verdict` of a check worth `worth` points."""
        failed = not verdict.passed
        return cls(
            passed=verdict.passed,
            score=0 if failed else worth,
            problem=verdict.problem,
            hint=verdict.hint,
            hint_text=render.hint_text(verdict) if verdict.hint and failed else "",
            message=render.explanation(verdict, active().student_file_name) if failed else "",
            timing=Timing(limit_seconds=limits.case_seconds, timed_out=verdict.problem == "timeout"),
        )

    @classmethod
    def from_json(cls, entry) -> CheckResult:
        _keys(entry, CHECK_KEYS, CHECK_KEYS)
        timing = entry["timing"]
        _keys(timing, ("limit_seconds", "timed_out"), ("limit_seconds", "timed_out"))
        if not _number(timing["limit_seconds"]) or not isinstance(timing["timed_out"], bool):
            raise ValueError("timing")
        _typed(
            entry,
            {
                "passed": bool,
                "score": int,
                "problem": (str, None),
                "hint": (str, None),
                "hint_text": str,
                "message": str,
            },
        )
        return cls.read(entry)

    @classmethod
    def read(cls, entry: dict) -> CheckResult:
        """From an entry whose shape is known to be right (see StudentResult.read)."""
        return cls(
            passed=entry["passed"],
            score=entry["score"],
            problem=entry["problem"],
            hint=entry["hint"],
            hint_text=entry["hint_text"],
            message=entry["message"],
            timing=_timing(**entry["timing"]),
        )

    def to_json(self) -> dict:
        return {
            "passed": self.passed,
            "score": self.score,
            "problem": self.problem,
            "hint": self.hint,
            "hint_text": self.hint_text,
            "message": self.message,
            "timing": {"limit_seconds": self.timing.limit_seconds, "timed_out": self.timing.timed_out},
        }


CHECK_KEYS = ("passed", "score", "problem", "hint", "hint_text", "message", "timing")
KEYS = (
    "student",
    "name",
    "entry",
    "layout",
    "status",
    "gradable",
    "score",
    "max_score",
    "groups",
    "late",
    "attempt",
    "attempts",
    "files",
    "sandbox",
    "generated_inputs",
    "team",
    "notes",
    "cases",
    "why",
)
BARE_KEYS = (
    "student",
    "name",
    "entry",
    "layout",
    "status",
    "gradable",
    "score",
    "max_score",
    "late",
    "attempt",
    "attempts",
    "files",
    "sandbox",
    "notes",
    "cases",
    "why",
    "team",
)
REQUIRED = ("student", "status", "score", "cases")  # what every grader that wrote grades.json wrote


@dataclass(frozen=True, kw_only=True)
class StudentResult:
    """One student's result: the unit every output is rendered from, and what a regrade reads back."""

    student: str
    """the student's id: a safe file name (submissions.safe_id), their feedback file's name and grades.csv's key"""
    status: str
    """`ok`, or the one reason that matters most for the instructor (`timeout`, `syntax_error`, `no_student_py` …)"""
    score: int
    """the points earned, out of `max_score`"""
    cases: dict[str, CheckResult] = field(default_factory=dict)
    """every check that ran, by its column (t1 … g3); empty when nothing ran"""
    name: str = ""
    """the student's name, as the download (or the roster) gives it; "" when unknown"""
    entry: str = ""
    """the download's entry that was graded (a file or folder name)"""
    layout: str = "plain"
    """how the download is laid out (plain, canvas, moodle, blackboard, gradescope)"""
    gradable: bool = False
    """whether the submission is graded: pass rates and score figures are over these only (Grade.gradable)"""
    max_score: int = 0
    """full marks of the grading scheme it was graded with"""
    groups: dict[str, int] | None = None
    """the points earned per group of checks; None in a bare entry (a grader error nothing could render)"""
    late: bool | None = None
    """whether the LMS says it came late; None when it does not say"""
    attempt: int | None = None
    """which attempt counted (1 = the first), when there were attempts"""
    attempts: int = 0
    """how many attempts the download holds"""
    files: tuple[str, ...] = ()
    """the files of the attempt that was graded, as the download names them"""
    sandbox: str = ""
    """the sandbox level its child ran at ("" when no child ran)"""
    generated_inputs: str | None = None
    """names the inputs drawn for this student's generated checks; None in a bare entry"""
    team: str = ""
    """a group's submission: the group's name (its other members get the grade in the LMS)"""
    notes: tuple[str, ...] = ()
    """the decisions taken about the student's files, in the run's language (also in their feedback)"""
    why: str = ""
    """why the submission could not run, in the reader's words; "" when it was graded"""
    keys: tuple[str, ...] = field(default=KEYS, compare=False, repr=False)
    """the keys its grades.json entry shows, in that order: today's (KEYS, or BARE_KEYS for a bare entry), or
    those of the entry it was read from, so an earlier result a regrade keeps is written back as it was"""

    @classmethod
    def from_grade(cls, grade, limits) -> StudentResult:
        """A graded submission's result, within its cap in grades.json (outputs/caps.py: whatever the
        submission did, at most caps.RECORD_BYTES)."""
        groups = {
            group.id: sum(
                grade.worth.get(v.case.id, 0) for v in grade.verdicts if v.passed and v.case.group.id == group.id
            )
            for group in active().graded_groups
        }
        document = {
            "student": grade.student,
            "name": grade.name,
            "entry": grade.entry,
            "layout": grade.layout,
            "status": grade.status,
            "gradable": grade.gradable,
            "score": grade.score,
            "max_score": grade.max_score,
            "groups": groups,
            "late": grade.late,
            "attempt": grade.attempt,
            "attempts": grade.attempts,
            "files": list(grade.files),
            "sandbox": grade.sandbox,
            "generated_inputs": grade.inputs,
            "team": grade.team,
            "notes": [note_text(key, fields) for key, fields in grade.notes],
            "cases": {
                v.case.column: CheckResult.from_verdict(v, grade.worth.get(v.case.id, 0), limits).to_json()
                for v in grade.verdicts
            },
            "why": "" if grade.gradable else why_text(grade),
        }
        return cls.read(caps.record(document))  # (capped as written: caps measures the grades.json entry)

    @classmethod
    def bare(cls, failed) -> StudentResult:
        """A grader_error result built from nothing but the failed grade's own strings (no renderer involved)."""
        return cls(
            student=failed.student,
            name=failed.name,
            entry=failed.entry,
            layout=failed.layout,
            status="grader_error",
            score=0,
            max_score=failed.max_score,
            late=failed.late,
            attempts=failed.attempts,
            sandbox=failed.sandbox,
            why=failed.feedback.split("\n", 1)[0],
            team=failed.team,
            keys=BARE_KEYS,
        )

    @classmethod
    def from_json(cls, entry) -> StudentResult:
        """The result an earlier grades.json holds; ValueError if this grader could not have written it."""
        _keys(entry, REQUIRED, KEYS)
        student = entry["student"]
        if not isinstance(student, str) or safe_id(student) != student:
            raise ValueError("student")
        _typed(
            entry,
            {
                "name": str,
                "entry": str,
                "layout": str,
                "status": str,
                "gradable": bool,
                "score": int,
                "max_score": int,
                "groups": dict,
                "late": (bool, None),
                "attempt": (int, None),
                "attempts": int,
                "files": list,
                "sandbox": str,
                "generated_inputs": (str, None),
                "team": str,
                "notes": list,
                "cases": dict,
                "why": str,
            },
        )
        for key in ("files", "notes"):
            if not all(isinstance(item, str) for item in entry.get(key, ())):
                raise ValueError(key)
        if not all(isinstance(group, str) and _integer(points) for group, points in entry.get("groups", {}).items()):
            raise ValueError("groups")
        if not all(isinstance(column, str) for column in entry["cases"]):
            raise ValueError("cases")
        values = dict(entry, cases={column: CheckResult.from_json(case) for column, case in entry["cases"].items()})
        return cls._made(values, tuple(entry))

    @classmethod
    def read(cls, entry: dict) -> StudentResult:
        """From a grades.json entry whose shape is known to be right: made by this run (the spool's, whose
        digest is checked as it is read back, each time an output reads the class)."""
        return cls._made(
            dict(entry, cases={column: CheckResult.read(case) for column, case in entry["cases"].items()}), tuple(entry)
        )

    @classmethod
    def _made(cls, values: dict, keys: tuple) -> StudentResult:
        for key in ("files", "notes"):
            if key in values:
                values[key] = tuple(values[key])
        return cls(**values, keys=keys)

    def to_json(self) -> dict:
        """The student's entry in grades.json (also what the run's spool holds for it)."""
        shown = {
            "files": list(self.files),
            "notes": list(self.notes),
            "cases": {column: case.to_json() for column, case in self.cases.items()},
        }
        return {key: shown[key] if key in shown else getattr(self, key) for key in self.keys}


@functools.lru_cache(maxsize=64)
def _shared_timing(kind: type, limit_seconds, timed_out: bool) -> Timing:
    return Timing(limit_seconds=limit_seconds, timed_out=timed_out)


def _timing(limit_seconds: float, timed_out: bool) -> Timing:
    """A Timing shared by every check read with the same one (a class reads back a few kinds, many times over);
    2 and 2.0 apart, so each is written back as it was read."""
    # A class is hashable; mypy checks type[float] against Hashable with float's own (instance) __hash__
    return _shared_timing(type(limit_seconds), limit_seconds, timed_out)  # type: ignore[arg-type]


def _keys(entry, required: tuple, known: tuple) -> None:
    if not isinstance(entry, dict):
        raise ValueError("entry")
    missing, unknown = set(required) - set(entry), set(entry) - set(known)
    if missing or unknown:
        raise ValueError(", ".join(sorted(missing | unknown)))


def _typed(entry: dict, types: dict) -> None:
    """Every key of `entry` named in `types` holds a value of its type (None where the type allows it)."""
    for key, wanted in types.items():
        if key not in entry:
            continue
        kinds = wanted if isinstance(wanted, tuple) else (wanted,)
        value = entry[key]
        if not any(
            value is None if kind is None else _integer(value) if kind is int else isinstance(value, kind)
            for kind in kinds
        ):
            raise ValueError(key)


def _integer(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _number(value) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)
