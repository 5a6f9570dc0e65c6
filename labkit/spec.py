"""The lab spec's format: what a lab declares (checks, groups, sections, files), and the lab this checkout runs.

A lab is one module (named by LAB_SPEC) whose `LAB` is a `Lab` built from the dataclasses below; the
core reads it through `active()` and never imports a lab by name.  Every entry is frozen, so what the spec
says is what every face (pytest, the grader, the reports, the handout) sees.
"""

from __future__ import annotations

import functools
import importlib
import os
from dataclasses import KW_ONLY, dataclass, field
from pathlib import Path
from typing import NamedTuple

from labkit import i18n

NETWORKS = ("none",)  # the network policies the engine can give a child (Lab.network)
STAGES = ("test", "full", "grade", "challenge")  # where a group runs: make test ⊂ make test-full ⊂ the grade; apart
_INCLUDES = {
    "test": ("test",),
    "full": ("test", "full"),
    "grade": ("test", "full", "grade"),
    "challenge": ("challenge",),
}
GRADED_PREFIX = "graded_"  # a fixed-input drawn check graded on one student's inputs: section "graded_<its section>"


class Text(NamedTuple):
    """One sentence in both languages of the course."""

    zh: str
    en: str


@dataclass(frozen=True)
class Example:
    """One call of a check: its arguments and what the protocol demands of it, plus outputs of known mistakes.
    `Example(args, expected)` reads as a row of the table; everything else is given by keyword."""

    args: tuple
    """the arguments, in order"""
    expected: object = None
    """the exact value to return (None when an exception is demanded, or when None is the answer)"""
    _: KW_ONLY
    mistakes: dict = field(default_factory=dict)
    """exact output of a known wrong implementation -> the hint key that names that mistake"""
    raises: str | None = None
    """the exception type to raise instead of returning"""
    mentions: str | None = None
    """a word that exception's message must contain"""
    unchanged: bool = False
    """the arguments must be the same after the call"""
    fresh: bool = False
    """the returned list must be a new object, not one of the arguments"""


@dataclass(frozen=True, kw_only=True)
class Group:
    """Checks that run in the same place and share points (a row of the scheme table)."""

    id: str
    """stable: its grades.csv column is "<id>_points", its key in grades.json's weights"""
    points: int
    """shared equally by its checks (a remainder to the first ones); the course file may override it"""
    stage: str
    """where its checks run: "test" (make test), "full" (make test-full), "grade" (grading only) or "challenge"
    (make challenge, never graded)"""
    name: Text
    """its name in the scheme table; "{count}" stands for how many checks it has, as a word (Lab.group_name)"""
    column_label: Text | None = None
    """what the scheme table's checks column shows for it ("{first}", "{last}": its first and last check's ids); None:
    "TEST first–last" """
    count: int = 0
    """inputs drawn per student for its checks, in all (the course file may override it)"""

    def __post_init__(self):
        if self.stage not in STAGES:
            raise ValueError(f"group {self.id}: stage must be one of {', '.join(STAGES)}, not {self.stage!r}")


@dataclass(frozen=True, kw_only=True)
class Section:
    """A header the course's layout prints before the checks that follow it."""

    id: str
    """what a check's `section` names; its header is the text "section.<id>".  A drawn check of make test or
    make test-full (on fixed inputs) is printed, when graded on one student's inputs, under the section
    GRADED_PREFIX + its section ("graded_properties"): the lab declares that section too (checked at load)"""


@dataclass(frozen=True, kw_only=True)
class Case:
    """One check, declared once: what it calls, on which examples, where it is printed and what it is worth
    (MIT gradelib's `@test(points, title)`, as data)."""

    id: str
    """"1" …, "x1" …: its [TEST id]; grades.csv's column is "t<id>" when the id is all digits, else the id"""
    function: str
    """the student's function it calls (one of Lab.functions)"""
    group: Group
    """where it runs and the points it shares"""
    section: str
    """the id of the Section it is printed under"""
    hint: str
    """the hint key shown when it fails and no more precise mistake is recognised"""
    label: str | Text = ""
    """its [TEST id] line's text: a Text given inline (the lab's own "case.<id>.label"), or the key of one;
    empty: "case.<id>.label" """
    examples: tuple = ()
    """its Examples (empty for a check whose inputs are drawn)"""
    points: int | None = None
    """its points when its group does not share them equally; None: an equal share"""
    rules: tuple[str, ...] = ()
    """the task sheets' rules it checks ("F1", "F2"): a case of make test is a row of the sheets' table of cases,
    which make tables writes (labkit/instructor/sheets.py)"""
    about: Text | None = None
    """what that row says the case checks, where it says more than the label; None: the label"""

    @property
    def label_key(self) -> str:
        return self.label if isinstance(self.label, str) and self.label else f"case.{self.id}.label"

    @property
    def suite(self) -> str:
        """ "core" for the checks of `make test`, else its group's id (grades.json's "suite", the summary lines)."""
        return "core" if self.group.stage == "test" else self.group.id

    @property
    def column(self) -> str:
        """Its column in grades.csv: t1 … t6, x1 …, p1 …, g1 …"""
        return f"t{self.id}" if self.id.isdigit() else self.id


@dataclass(frozen=True, kw_only=True)
class DrawnCheck(Case):
    """A check whose inputs are drawn: the module `inputs` names draws them and demands what each must give."""

    inputs: str
    """the module whose INPUTS[id] (a labkit.drawn.Inputs) draws its inputs and demands what each must give (it
    is imported only when the check runs)"""

    @property
    def graded_section(self) -> str | None:
        """The section it is printed under when graded on one student's inputs: GRADED_PREFIX + its section for a
        check of make test or test-full (which runs on fixed inputs there); None for one drawn only when graded."""
        return GRADED_PREFIX + self.section if self.group.stage in ("test", "full") else None


# The targets every lab has (challenge: a lab with a "challenge" group), run by labkit/entry.py.
CORE_TARGETS = ("test", "test-full", "challenge", "watch", "clean", "help", "run")


@dataclass(frozen=True, kw_only=True)
class Option:
    """A setting of a lab's own target: NAME=value in make's spelling (lab.py takes it too), or --name value."""

    name: str
    """make's spelling, upper case ("SEED"); lab.py also takes --seed VALUE (lower case, "_" as "-")"""
    flag: str
    """what the target's program is given: the flag and the value, or the flag alone for a switch (`on`, `off`)"""
    on: tuple[str, ...] = ()
    """a switch: the values that give the program the flag (alone)"""
    off: tuple[str, ...] = ()
    """a switch: the values that do not (any other does); neither `on` nor `off`: the flag takes the value"""
    alone: bool = False
    """lab.py also takes --name without a value, as NAME=1 (a switch like DEMO)"""
    path: bool = False
    """the value is a path: made absolute when typed outside the checkout (the program runs in it)"""

    def __post_init__(self):
        if self.on and self.off:
            raise ValueError(f"option {self.name}: a switch has the values that turn it on, or those that do not")

    @property
    def switch(self) -> bool:
        return bool(self.on or self.off)

    def given(self, value: str) -> bool:
        """Whether a switch set to `value` gives the program its flag."""
        return value in self.on if self.on else value not in self.off


@dataclass(frozen=True, kw_only=True)
class Target:
    """A make target (and `python lab.py` target) of the lab's own, or a core target's help line restated."""

    name: str
    """`make NAME`, `python lab.py NAME`; a name of CORE_TARGETS restates that target's help line only"""
    help: str
    """the key of its line in `make help` (the lab's texts define it)"""
    module: str = ""
    """the module it runs, as `python -m MODULE --student FILE` and its options' flags (empty for a core target)"""
    usage: str = ""
    """what `make help` shows after the name ("[SEED=n]")"""
    options: tuple[Option, ...] = ()
    """the settings it takes, in the order its program is given them"""
    notes: str = ""
    """the key of a line `make help` prints under the targets (what the options do); empty: none"""

    def __post_init__(self):
        if bool(self.module) == (self.name in CORE_TARGETS):
            raise ValueError(
                f"target {self.name}: a target of the lab's own names the module it runs (module=), "
                f"a core one ({', '.join(CORE_TARGETS)}) only its help line"
            )


@dataclass(frozen=True, kw_only=True)
class Lab:
    """Everything the core needs to run, judge, grade and hand out one lab."""

    id: str
    """stable, lower case: part of every fixed seed of its drawn checks"""
    name: str
    """how the course names it: grades.json's "lab", the default course title"""
    root: Path
    """the lab's top folder, the top of its handout: every path below is relative to it"""
    student_file: str
    """the student's file, from the lab's root"""
    solution: str
    """the reference solution, from the lab's root (never in the handout)"""
    given: str
    """the module the student's file imports from the lab (its values are sent to the child)"""
    functions: tuple[str, ...]
    """every function of the student's file the checks call"""
    sheets: dict
    """language -> the task sheet in that language, from the lab's root"""
    title: Text = Text("", "")
    """what it is about ("多轮对话", "multi-turn chat"): the grading report's title, after the course's"""
    texts: tuple[str, ...] = ()
    """the modules whose TEXTS (key -> (中文, English)) are the lab's sentences: labels, sections, its hints and
    its restated default hints, its own faces'; labkit.i18n installs them over the core's"""
    groups: tuple[Group, ...]
    """in the order of the scheme table and of grades.csv's points columns"""
    sections: tuple[Section, ...]
    """every section a check can be printed under"""
    checks: tuple[Case, ...]
    """every check, in the order they run and are printed"""
    mistakes: str = ""
    """"module:NAME" of the lab's mistake detectors (a labkit.judge.Detectors); empty: the judge's own hints"""
    targets: tuple[Target, ...] = ()
    """its own make targets (a chat), and core targets whose help line it restates; the core's are derived
    (test, test-full, watch, clean, help, run, and challenge when a group runs "challenge")"""
    clean: tuple[str, ...] = ()
    """files its targets leave in the checkout (they run there) that `make clean` removes (make chat's page)"""
    verify: str = ""
    """the lab's pytest file of the checks, from the lab's root (the handout's pytest.ini finds it)"""
    handout: str = ""
    """the handout's folder and archive name under dist/ (dist/<handout>.zip …); empty: the lab's id"""
    trees: tuple[str, ...] = ()
    """the lab's own folders that ship in the handout, from the lab's root (the core's package ships with them)"""
    ships: dict = field(default_factory=dict)
    """files of the course outside the lab's root that its handout needs, handout path -> path from the course's top:
    another lab's modules its own code imports (a server that runs the previous lab's reference and chat model);
    empty: none"""
    grading_only: tuple[str, ...] = ()
    """the lab's own files or folders inside `trees` that only the grade uses and the handout never ships, from
    the lab's root: what would give an answer away (checks whose answers come from the solution, their helpers)"""
    fixed_inputs: str = ""
    """the module whose FIXED_INPUTS keeps, for each drawn check on fixed inputs (`make test-full`'s, the same for
    everyone), those inputs and what the reference says of each (the stencil of its `consult`): data that
    `make tables` writes from the draws and the solution; empty: the lab has no such check"""
    network: str = "none"
    """what the student's code may reach: "none", the only policy the engine has (no network wherever the sandbox
    level can stop it: README's threat table); a lab that needs another (the next chapter's chat over HTTP would
    need loopback) is refused until the engine has one"""

    def __post_init__(self):
        if self.network not in NETWORKS:
            raise ValueError(f"{self.id}: network {self.network!r}: the engine has only {', '.join(NETWORKS)}")
        ids = [check.id for check in self.checks]
        sections = {section.id for section in self.sections}
        for check in self.checks:
            where = f"{self.id} check {check.id}"
            if ids.count(check.id) > 1:
                raise ValueError(f"{where}: the id is used twice")
            if check.group not in self.groups:
                raise ValueError(f"{where}: group {check.group.id} is not one of the lab's groups")
            if check.section not in sections:
                raise ValueError(f"{where}: section {check.section} is not one of the lab's sections")
            graded = getattr(check, "graded_section", None)
            if graded is not None and graded not in sections:
                raise ValueError(
                    f"{where}: section {graded} is not one of the lab's sections (a drawn check of "
                    f"make test-full is printed under it when graded)"
                )
            if check.function not in self.functions:
                raise ValueError(f"{where}: function {check.function} is not one of the lab's functions")
        names = [target.name for target in self.targets]
        if len(set(names)) != len(names):
            raise ValueError(f"{self.id}: a target is declared twice: {', '.join(names)}")
        for group in self.groups:
            given = [check.points for check in self.checks if check.group.id == group.id]
            if any(points is not None for points in given) and (None in given or sum(given) != group.points):
                raise ValueError(
                    f"{self.id} group {group.id}: explicit points must cover every check and add up to {group.points}"
                )

    @property
    def has_challenge(self) -> bool:
        """Whether it has optional checks, and so a `make challenge`."""
        return any(group.stage == "challenge" for group in self.groups)

    def own_target(self, name: str) -> Target | None:
        """Its Target named `name`: one of its own targets, or a core target's restated help line; else None."""
        return next((target for target in self.targets if target.name == name), None)

    @property
    def handout_name(self) -> str:
        """The handout's folder and archive name under dist/: `handout`, or the lab's id."""
        return self.handout or self.id

    @property
    def student_path(self) -> Path:
        """The student's file (the stub, in the lab's checkout)."""
        return self.root / self.student_file

    @property
    def solution_path(self) -> Path:
        """The reference solution (never in the handout)."""
        return self.root / self.solution

    @property
    def student_file_name(self) -> str:
        """The student's file name without its folder: how submissions and feedback name it."""
        return Path(self.student_file).name

    @property
    def student_module(self) -> str:
        """The name the student's file is imported under in the child: its file name without ".py"."""
        return Path(self.student_file).stem

    @functools.cached_property
    def graded_functions(self) -> tuple[str, ...]:
        """The functions the graded checks call, in the order of `functions` (what a misnamed upload of the
        student's file is recognised by)."""
        called = {check.function for check in self.graded}
        return tuple(function for function in self.functions if function in called)

    def display_name(self, path) -> str:
        """How a file is named in messages: relative to the lab's root when it lies inside it."""
        try:
            return Path(path).resolve().relative_to(self.root).as_posix()
        except ValueError:
            return str(path)

    def selected(self, stage: str) -> tuple[Case, ...]:
        """The checks a run of `stage` executes, in order: "test" the six, "full" also the extended and property
        checks, "grade" every graded check, "challenge" the optional ones."""
        return tuple(check for check in self.checks if check.group.stage in _INCLUDES[stage])

    @functools.cached_property
    def graded(self) -> tuple[Case, ...]:
        """Every graded check, group by group (grades.csv's order)."""
        return self.selected("grade")

    @functools.cached_property
    def graded_groups(self) -> tuple[Group, ...]:
        return tuple(group for group in self.groups if group.stage in _INCLUDES["grade"])

    def check(self, check_id: str) -> Case:
        """The check whose id is `check_id`."""
        for check in self.checks:
            if check.id == check_id:
                return check
        raise KeyError(f"{self.id} has no check {check_id!r}")

    def group_name(self, group: Group, language: str | None = None) -> str:
        """`group`'s name in `language` (default: the current one), its "{count}" the number of its checks as a
        word: "六个测试", "the six"."""
        language = language or i18n.current_language()
        count = i18n.number_word(len(self.in_group(group.id)), language)
        return getattr(group.name, "en" if language == "en" else "zh").format(count=count)

    def in_group(self, group_id: str) -> tuple[Case, ...]:
        """The checks of one group, in order."""
        return tuple(check for check in self.checks if check.group.id == group_id)

    def points(self, check: Case, group_points: int | None = None) -> int:
        """The points `check` is worth when its group is worth `group_points` (default: the spec's): its own
        points if the spec states them, else an equal share, the remainder to the first ones."""
        group = check.group
        if check.points is not None and group_points in (None, group.points):
            return check.points
        total = group.points if group_points is None else group_points
        ids = [c.id for c in self.in_group(group.id)]
        base, extra = divmod(total, len(ids))
        return base + (1 if ids.index(check.id) < extra else 0)


_MODULES: dict = {}  # id of a loaded Lab -> the module that declares it


def load(module: str) -> Lab:
    """The Lab that `module` (a dotted module name) declares as LAB."""
    lab = getattr(importlib.import_module(module), "LAB", None)
    if not isinstance(lab, Lab):
        raise ValueError(f"{module}: LAB is not a labkit.spec.Lab")
    _MODULES[id(lab)] = module
    try:  # every text the core will ask of it, now (labkit.i18n.wanted), not first in a student's run
        i18n.use(lab)
    except KeyError as missing:
        raise KeyError(f"{missing.args[0]} (the lab of {_file_of(module)})") from None
    return lab


def _file_of(module: str) -> str:
    """The spec module's file, from the course's top where it lies inside it."""
    path = Path(getattr(importlib.import_module(module), "__file__", module)).resolve()
    try:
        return path.relative_to(Path(__file__).resolve().parents[1]).as_posix()
    except ValueError:
        return str(path)


def module_of(lab: Lab) -> str:
    """The module `lab` was loaded from (what a handout's framework/__init__.py names as its LAB_SPEC)."""
    return _MODULES[id(lab)]


@functools.lru_cache(maxsize=None)
def active() -> Lab:
    """The lab this checkout runs: the one a handout fixes; else the lab LAB names in the environment (labkit.course,
    which also puts its root on the path), else the module LAB_SPEC names, else framework.LAB_SPEC (the default lab)."""
    from labkit import course

    name = os.environ.get("LAB", "").strip()
    module = (
        course.fixed()
        or (course.select(name) if name else None)
        or os.environ.get("LAB_SPEC")
        or importlib.import_module("framework").LAB_SPEC
    )
    lab = load(module)
    course.join_face(lab.root)
    return lab


i18n.find_lab_with(lambda: active())  # the lab's texts come from the active lab (a lambda: a test may patch active)
