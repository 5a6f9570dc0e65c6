"""The grading scheme, stated once in solutions/grading.ini: points per group, generated checks, course, Gradescope.

Read with the standard library (configparser) by the grader, the Gradescope runner and the reports;
`python -m labkit.instructor.config` prints the scheme as the table TASK.md shows (a test keeps the two in step).
"""

from __future__ import annotations

import configparser
import sys
from dataclasses import dataclass, field, replace
from functools import cached_property
from pathlib import Path

from lab09.cases import CORE, EXTENDED
from lab09.properties import PROPERTY_CASES
from lab09.generated import GENERATED_CASES

PATH = Path(__file__).resolve().parents[2] / "solutions" / "grading.ini"  # the course file: never in the handout
GROUPS = {"six": CORE, "extended": EXTENDED, "properties": PROPERTY_CASES, "generated": GENERATED_CASES}
GRADED = tuple(case for cases in GROUPS.values() for case in cases)  # every graded case, group by group
GROUP_OF_SUITE = {"core": "six", "extended": "extended", "properties": "properties", "generated": "generated"}
VISIBILITIES = ("hidden", "after_due_date", "after_published", "visible")
LANGUAGES = ("zh", "en")
ATTEMPTS = ("latest", "best")  # which attempt counts (--attempt, LAB_ATTEMPT)
DEFAULTS = {
    "weights": {"six": "30", "extended": "20", "properties": "20", "generated": "30"},
    "generated": {"count": "120", "secret": "lab09-3f8e1c52a9d04b7e"},
    "course": {"title": "Lab09", "language": "zh"},
    "gradescope": {"visibility": "visible", "generated_visibility": "after_due_date"},
}


class ConfigError(ValueError):
    """The configuration file says something the grader cannot use; the message names the key."""


@dataclass(frozen=True)
class Scheme:
    """Points per group and everything else the grader reads from the configuration.  `cases` are the
    graded cases with their points (Case.weight), so a verdict carries what it is worth."""

    weights: dict  # group -> points, shared equally by the group's checks
    generated_count: int
    secret: str = field(repr=False)
    title: str
    language: str
    visibility: str
    generated_visibility: str

    @cached_property
    def cases(self) -> tuple:
        """Every graded case, group by group (the six, extended, property, generated), with its points."""
        return tuple(replace(case, weight=self.points(case)) for case in GRADED)

    @property
    def max_score(self) -> int:
        return sum(self.weights.values())

    def points(self, case) -> int:
        """The points `case` is worth: its group's points shared equally, the remainder to the first ones."""
        name = GROUP_OF_SUITE[case.suite]
        ids = [c.id for c in GROUPS[name]]
        base, extra = divmod(self.weights[name], len(ids))
        return base + (1 if ids.index(case.id) < extra else 0)


def load(path: Path | None = None) -> Scheme:
    """The scheme in `path` (default solutions/grading.ini, if present); keys left out keep their defaults."""
    parser = _parser()
    path = PATH if path is None else Path(path)
    if path != PATH or path.exists():
        try:
            with open(path, encoding="utf-8") as handle:
                parser.read_file(handle)
        except (OSError, configparser.Error, UnicodeDecodeError) as exc:
            raise ConfigError(f"{path}: {exc}") from None
    return _scheme(parser, str(path))


def _parser() -> configparser.ConfigParser:
    parser = configparser.ConfigParser(interpolation=None)
    parser.read_dict(DEFAULTS)
    return parser


def _scheme(parser: configparser.ConfigParser, where: str) -> Scheme:
    for section in parser.sections():
        unknown = set(parser[section]) - set(DEFAULTS.get(section, {}))
        if section not in DEFAULTS or unknown:
            raise ConfigError(f"{where}: unknown {'section' if section not in DEFAULTS else 'key'} "
                              f"[{section}] {', '.join(sorted(unknown))}".rstrip())
    weights = {name: _number(parser, "weights", name, where) for name in GROUPS}
    language = parser["course"]["language"].strip()
    visibilities = [parser["gradescope"][key].strip() for key in ("visibility", "generated_visibility")]
    if language not in LANGUAGES:
        raise ConfigError(f"{where}: [course] language must be {' or '.join(LANGUAGES)}, not {language!r}")
    if any(value not in VISIBILITIES for value in visibilities):
        raise ConfigError(f"{where}: [gradescope] visibility must be one of {', '.join(VISIBILITIES)}")
    if not parser["generated"]["secret"].strip():
        raise ConfigError(f"{where}: [generated] secret is empty")
    return Scheme(weights, _number(parser, "generated", "count", where), parser["generated"]["secret"].strip(),
                  parser["course"]["title"].strip(), language, *visibilities)


def defaults() -> Scheme:
    """The scheme with nothing changed (what README and TASK.md state)."""
    return _scheme(_parser(), "defaults")


def _number(parser, section: str, key: str, where: str) -> int:
    value = parser[section][key].strip()
    if not (value.isascii() and value.isdigit()):
        raise ConfigError(f"{where}: [{section}] {key} must be a whole number ≥ 0, not {value!r}")
    return int(value)


# --- the table TASK.md shows ------------------------------------------------------------------------

_TABLE = {
    "zh": ("| 组 | 检查 | 在哪里运行 | 分数 |", "合计",
           {"six": ("六个测试", "TEST 1–6", "`make test`"),
            "extended": ("扩展检查", "TEST x1–x10", "`make test-full`"),
            "properties": ("性质检查", "TEST p1–p4", "`make test-full`"),
            "generated": ("生成检查", "g1–g3: 为每个学生随机生成的输入", "只在评分时")}),
    "en": ("| group | checks | where they run | points |", "total",
           {"six": ("the six", "TEST 1–6", "`make test`"),
            "extended": ("extended checks", "TEST x1–x10", "`make test-full`"),
            "properties": ("property checks", "TEST p1–p4", "`make test-full`"),
            "generated": ("generated checks", "g1–g3: inputs drawn for each student", "grading only")}),
}


def scheme_table(scheme: Scheme, language: str) -> str:
    """The grading scheme as the Markdown table of TASK.md (zh) or TASK.en.md (en)."""
    head, total, rows = _TABLE[language]
    lines = [head, "|---|---|---|---|"]
    lines += [f"| {name} | {checks} | {where} | {scheme.weights[group]} |"
              for group, (name, checks, where) in rows.items()]
    lines.append(f"| **{total}** | | | **{scheme.max_score}** |")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    print(scheme_table(load(), sys.argv[1] if len(sys.argv) > 1 else "zh"), end="")
