"""The course file (grading.ini beside the lab's reference solution, solutions/grading.ini): the secret, title,
language and visibility of one offering, and optional overrides of the lab's scheme; `Course`, what a run uses.

Every key is described once, in KEYS.  Why: docs/design.md#labkitinstructorconfigpy
"""

from __future__ import annotations

import configparser
import os
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path

from labkit.spec import Case, Lab, active

COURSE_FILE = "grading.ini"  # the course file's name, beside the lab's reference solution: never in the handout
VISIBILITIES = ("hidden", "after_due_date", "after_published", "visible")
LANGUAGES = ("zh", "en")
ATTEMPTS = ("latest", "best")  # which attempt counts (--attempt, LAB_ATTEMPT)
NO_CODE = ("0", "blank")  # a gradebook cell of a submission with no code to run
NUMBER = "a whole number ≥ 0"


@dataclass(frozen=True)
class Key:
    """One key of the course file."""

    section: str
    name: str
    default: str | None
    """its value when no file states it (None: it must be stated, and not empty)"""
    about: str
    """what it decides, as README's table of the course file says"""
    choices: tuple = ()
    """the values it may take (empty: any string; NUMBER: a whole number)"""
    most: int | None = None
    """the largest a NUMBER may be (None: no bound)"""


def keys(lab: Lab) -> tuple[Key, ...]:
    """Every key the course file of `lab` may state: the course's own, then the overrides of the lab's scheme."""
    drawn = [group for group in lab.graded_groups if group.count]
    return (
        Key(
            "generated",
            "secret",
            None,
            "with the student id, seeds each student's drawn inputs: change it every offering, never publish it",
        ),
        *[
            Key(
                "generated",
                "count",
                str(group.count),
                f"inputs drawn per submission for the `{group.id}` checks (overrides the spec)",
                (NUMBER,),
            )
            for group in drawn[:1]
        ],
        Key("course", "title", lab.name, "the assignment's title (report, gradebook column; `TITLE=` overrides)"),
        Key("course", "language", "zh", "feedback and report language (`LAB_LANG` overrides)", LANGUAGES),
        Key(
            "gradescope",
            "visibility",
            "visible",
            "every test but those run only in grading (`LAB_VISIBILITY` overrides)",
            VISIBILITIES,
        ),
        Key(
            "gradescope",
            "generated_visibility",
            "after_due_date",
            "the tests run only in grading (Gradescope then hides the total until the due date)",
            VISIBILITIES,
        ),
        Key(
            "gradebook",
            "no_code",
            "0",
            "what canvas.csv and moodle.csv get for a submission with no code to run "
            "(nothing to test, only a .docx or a text entry, a broken archive …): `0`, or `blank` to leave its cell "
            "as it was; either way the summary names them",
            NO_CODE,
        ),
        Key(
            "late",
            "penalty",
            "0",
            "percent taken off a late submission's points in canvas.csv and moodle.csv "
            "(grades.csv keeps the points earned; the feedback and report say it); 0: none, and the LMS's own late "
            "policy applies when you import",
            (NUMBER,),
            most=100,
        ),
        *[
            Key(
                "weights",
                group.id,
                str(group.points),
                f"points of `{group.id}` (overrides the spec)"
                + ("; 0 skips its checks" if group.stage == "grade" else ""),
                (NUMBER,),
            )
            for group in lab.graded_groups
        ],
    )


class ConfigError(ValueError):
    """The course file says something the grader cannot use; the message names the key."""


@dataclass(frozen=True)
class Scheme:
    """The lab's scheme with the course file's overrides, and the course's settings: what the grader reads."""

    weights: dict
    """group id -> points, shared by the group's checks (the spec's, or the course file's override)"""
    generated_count: int
    """inputs drawn per submission for the generated checks"""
    secret: str = field(repr=False)
    """seeds each student's drawn inputs"""
    title: str
    language: str
    visibility: str
    generated_visibility: str
    no_code: str = "0"
    """what a gradebook gets for a submission with no code to run: "0" or "blank" (its cell as it was)"""
    late_penalty: int = 0
    """percent taken off a late submission's points in a gradebook (0: none; the LMS's own policy applies)"""
    lab: Lab = field(default_factory=active, repr=False, compare=False)
    """the lab it grades"""

    @property
    def checks(self) -> tuple[Case, ...]:
        """Every graded check, group by group (the six, extended, property, generated)."""
        return self.lab.graded

    @property
    def max_score(self) -> int:
        return sum(self.weights.values())

    def points(self, check: Case) -> int:
        """The points `check` is worth: its group's points shared equally, the remainder to the first ones."""
        return self.lab.points(check, self.weights[check.group.id])

    @cached_property
    def worth(self) -> dict:
        """check id -> its points, for every graded check."""
        return {check.id: self.points(check) for check in self.checks}


def course_file(lab: Lab | None = None) -> Path:
    """The course file of `lab` (default: the active one): grading.ini beside its reference solution (in
    solutions/ with it), so that each lab is graded with its own secret and title."""
    lab = lab or active()
    return lab.solution_path.parent / COURSE_FILE


def load(path: Path | None = None, lab: Lab | None = None) -> Scheme:
    """The scheme of `lab` (default: the active one) with its course file's settings, and then those of `path`
    over them."""
    lab = lab or active()
    own = course_file(lab)
    parser = configparser.ConfigParser(interpolation=None)
    files = [own] if own.exists() else []
    if path is not None and Path(path) != own:
        files.append(Path(path))
    for source in files:
        try:
            with open(source, encoding="utf-8") as handle:
                parser.read_file(handle)
        except (OSError, configparser.Error, UnicodeDecodeError) as exc:
            raise ConfigError(f"{source}: {exc}") from None
    return _scheme(parser, str(files[-1] if files else own), lab)


@dataclass(frozen=True)
class Course:
    """What the course decides: the assignment's title, Gradescope visibility, which attempt counts, and the
    grading scheme.  One place reads them (`course_settings`), fed by solutions/grading.ini."""

    title: str
    visibility: str
    attempt: str
    scheme: Scheme
    new_column: bool = False  # a TITLE no column of the gradebook has becomes a new column (NEW_COLUMN=1)


def course_settings(
    title: str | None = None,
    attempt: str | None = None,
    environ=os.environ,
    scheme: Scheme | None = None,
    new_column: bool = False,
) -> Course:
    """The course's settings: options given, else the environment (LAB_ATTEMPT, LAB_VISIBILITY), else the
    grading scheme (solutions/grading.ini, or `scheme`).  The language is LAB_LANG's (grade.main sets it from
    the scheme)."""
    scheme = scheme or load()
    chosen = attempt or environ.get("LAB_ATTEMPT", "").strip().lower() or "latest"
    visibility = environ.get("LAB_VISIBILITY", "").strip().lower()
    return Course(
        title=title or scheme.title,
        visibility=visibility if visibility in VISIBILITIES else scheme.visibility,
        attempt=chosen if chosen in ATTEMPTS else "latest",
        scheme=scheme,
        new_column=new_column,
    )


def _scheme(parser: configparser.ConfigParser, where: str, lab: Lab) -> Scheme:
    known = {(key.section, key.name): key for key in keys(lab)}
    sections = {section for section, _ in known}
    for section in parser.sections():
        unknown = {name for name in parser[section] if (section, name) not in known}
        if section not in sections or unknown:
            raise ConfigError(
                f"{where}: unknown {'section' if section not in sections else 'key'} "
                f"[{section}] {', '.join(sorted(unknown))}".rstrip()
            )
    texts: dict[tuple[str, str], str] = {}  # (section, name) -> its value, for every key but the NUMBER ones
    numbers: dict[tuple[str, str], int] = {}
    for (section, name), key in known.items():
        stated = parser.get(section, name, fallback=key.default)  # None only where the key has no default
        if stated is None:
            raise ConfigError(f"{where}: no [{section}] {name}")
        value = stated.strip()
        if not value and key.default is None:
            raise ConfigError(f"{where}: [{section}] {name} is empty")
        if key.choices == (NUMBER,):
            if not (value.isascii() and value.isdigit()):
                raise ConfigError(f"{where}: [{section}] {name} must be {NUMBER}, not {value!r}")
            number = numbers[section, name] = int(value)
            if key.most is not None and number > key.most:
                raise ConfigError(f"{where}: [{section}] {name} must be at most {key.most}, not {number}")
        elif key.choices and value not in key.choices:
            raise ConfigError(f"{where}: [{section}] {name} must be one of {', '.join(key.choices)}, not {value!r}")
        else:
            texts[section, name] = value
    counts = [group.count for group in lab.graded_groups if group.count]
    return Scheme(
        weights={group.id: numbers["weights", group.id] for group in lab.graded_groups},
        generated_count=numbers.get(("generated", "count"), counts[0] if counts else 0),
        secret=texts["generated", "secret"],
        title=texts["course", "title"],
        language=texts["course", "language"],
        visibility=texts["gradescope", "visibility"],
        generated_visibility=texts["gradescope", "generated_visibility"],
        no_code=texts["gradebook", "no_code"],
        late_penalty=numbers["late", "penalty"],
        lab=lab,
    )
