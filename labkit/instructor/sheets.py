"""The generated parts of the sheets and README, from the lab spec, the course file's keys and what make test prints.

A table follows its marker (`<!-- scheme -->`, `<!-- cases -->`, `<!-- scheme: readme -->`, `<!-- course-file -->`) to
the first line not starting with `|`; a transcript (`<!-- transcript: stub -->`, `solution`) is the ```text block after
its marker.  `python -m labkit.instructor.sheets TABLE` prints one table, `--write` rewrites what is stale (make tables)."""

from __future__ import annotations

import functools
import os
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from labkit import course
from labkit.i18n import text
from labkit.instructor.config import NUMBER, keys
from labkit.spec import Lab, active

README = "README.md"
_HEADS = {
    "zh": ("组", "检查", "在哪里运行", "分数", "合计"),
    "en": ("group", "checks", "where they run", "points", "total"),
}
_CASE_HEADS = {"zh": ("测试", "检查什么", "规则"), "en": ("case", "what it checks", "rules")}
_AND = {"zh": "、", "en": ", "}
TRANSCRIPTS = ("stub", "solution")  # what make test prints for the lab's stub and for its reference solution
FENCE = "```"
_WHERE = {
    "zh": {"test": "`make test`", "full": "`make test-full`", "grade": "只在评分时"},
    "en": {"test": "`make test`", "full": "`make test-full`", "grade": "grading only"},
}


@dataclass(frozen=True)
class Block:
    """One generated table: the file it is in, the marker line before it, and how it is rendered."""

    file: str
    marker: str
    render: Callable[[Lab], str]
    fenced: bool = False
    """a ```text block after the marker (a transcript), not a table"""


def markdown(head: tuple, rows: list) -> str:
    """A Markdown table: the head, the rule under it, then one line per row of cells (an empty cell stays empty)."""

    def line(cells):
        return "|" + "|".join(f" {cell} " if cell != "" else " " for cell in cells) + "|\n"

    return line(head) + "|" + "|".join("---" for _ in head) + "|\n" + "".join(line(cells) for cells in rows)


def scheme_table(lab: Lab, language: str) -> str:
    """The scheme as the task sheet in `language` shows it: one row per graded group, then the total."""
    *head, total = _HEADS[language]
    rows: list[tuple] = []  # of cells: text or numbers
    for group in lab.graded_groups:
        ids = [check.id for check in lab.in_group(group.id)]
        label = group.column_label
        shown = (
            getattr(label, language) if label else "TEST {first}–{last}" if len(ids) > 1 else "TEST {first}"
        )  # a group of one check: TEST 1, not TEST 1–1
        rows.append(
            (
                lab.group_name(group, language),
                shown.format(first=ids[0], last=ids[-1]),
                _WHERE[language][group.stage],
                group.points,
            )
        )
    rows.append((f"**{total}**", "", "", f"**{_total(lab)}**"))
    return markdown(tuple(head), rows)


def cases_table(lab: Lab, language: str) -> str:
    """The cases of make test as the task sheet in `language` lists them: its [TEST id], what it checks (the case's
    `about`, else its label) and the sheet's rules it checks."""
    rows = []
    for check in lab.selected("test"):
        about = getattr(check.about, language) if check.about else text(check.label_key, language)
        rows.append((f"TEST {check.id}", about.replace("|", "\\|"), rules_cell(check.rules, language)))
    return markdown(_CASE_HEADS[language], rows)


def rules_cell(rules: tuple[str, ...], language: str) -> str:
    """ "F1–F3" for three or more rules in a row (one letter, numbers one apart), else each: "E1、E4" / "E1, E4"."""
    runs: list[list[str]] = []
    for rule in rules:
        if runs and _next(runs[-1][-1]) == rule:
            runs[-1].append(rule)
        else:
            runs.append([rule])
    parts = [part for run in runs for part in ([f"{run[0]}–{run[-1]}"] if len(run) >= 3 else run)]
    return _AND[language].join(parts)


def _next(rule: str) -> str:
    """The rule after `rule` ("F2" after "F1"), or "" for a rule without a number."""
    found = re.fullmatch(r"(\D+)(\d+)", rule)
    return f"{found[1]}{int(found[2]) + 1}" if found else ""


def transcript(lab: Lab, language: str, which: str) -> str:
    """What `make test` prints in `language` for the lab's stub ("stub") or its reference ("solution"), the
    summary's last line naming the student's file as the sheet shows it, in a ```text block."""
    return _transcript(lab.id, lab.solution_path, lab.student_file, language, which)


@functools.lru_cache(maxsize=None)
def _transcript(lab_id: str, solution: Path, student_file: str, language: str, which: str) -> str:
    """transcript's work, once a process (make tables compares, then writes; the files it runs do not change)."""
    student = "" if which == "stub" else str(solution)
    command = [
        sys.executable,
        os.path.join(course.ROOT, "lab.py"),
        "--make",
        "--python",
        sys.executable,
        "test",
        "--student",
        student,
    ]
    unwanted = ["LAB", "LAB_LANG", "LAB_STUDENT", "LAB_TIMEOUT", "MAKEFLAGS", "MAKELEVEL", "MFLAGS"]
    if lab_id in course.labs():  # a lab of the course by its name; another (the suite's toy) as this process has it
        command += ["--lab", lab_id]
        unwanted.append("LAB_SPEC")
    env = {key: value for key, value in os.environ.items() if key not in unwanted}
    env.update(LAB_LANG=language, PYTHONDONTWRITEBYTECODE="1")
    printed = subprocess.run(
        command, cwd=course.ROOT, env=env, capture_output=True, text=True, encoding="utf-8", timeout=600
    ).stdout
    tested = text("summary.file", language, file="")
    lines = [tested + student_file if line.startswith(tested) else line for line in printed.splitlines()]
    return FENCE + "text\n" + "".join(line + "\n" for line in lines) + FENCE + "\n"


def readme_table(lab: Lab) -> str:
    """The scheme as README shows it: each group's grades.csv columns, points, points per check and where it runs."""
    rows: list[tuple] = []
    for group in lab.graded_groups:
        checks = lab.in_group(group.id)
        low, high = min(lab.points(check) for check in checks), max(lab.points(check) for check in checks)
        where = _WHERE["en"][group.stage] + (f" ({group.count} inputs drawn per student)" if group.count else "")
        rows.append(
            (
                f"`{group.id}`",
                f"`{checks[0].column}`…`{checks[-1].column}`",
                group.points,
                low if low == high else f"{low}–{high}",
                where,
            )
        )
    rows.append(("**total**", len(lab.graded), f"**{_total(lab)}**", "", ""))
    return markdown(("group", "checks", "points", "each", "where"), rows)


def _total(lab: Lab) -> int:
    return sum(group.points for group in lab.graded_groups)


def course_file_table(lab: Lab) -> str:
    """The keys of the course file, each as labkit/instructor/config.py describes it."""
    rows = []
    for key in keys(lab):
        allowed = "" if key.choices in ((), (NUMBER,)) else f"; one of {', '.join(key.choices)}"
        allowed += f" (at most {key.most})" if key.most is not None else ""
        rows.append(
            (f"`[{key.section}] {key.name}`", "(required)" if key.default is None else key.default, key.about + allowed)
        )
    return markdown(("key", "default", "meaning"), rows)


def blocks(lab: Lab) -> tuple[Block, ...]:
    """Every generated part of `lab`: its scheme, its cases and their two transcripts in each task sheet, and
    README's two tables where its root has a README (a lab in a folder of the course's, labs/<lab>/, has its sheets
    only)."""
    sheets: tuple[Block, ...] = ()
    for language, file in lab.sheets.items():
        sheets += (
            Block(file, "<!-- scheme -->", functools.partial(scheme_table, language=language)),
            Block(file, "<!-- cases -->", functools.partial(cases_table, language=language)),
        )
        sheets += tuple(
            Block(
                file,
                f"<!-- transcript: {which} -->",
                functools.partial(transcript, language=language, which=which),
                fenced=True,
            )
            for which in TRANSCRIPTS
        )
    if lab.sheets and not (lab.root / README).is_file():
        return sheets
    return sheets + (
        Block(README, "<!-- scheme: readme -->", readme_table),
        Block(README, "<!-- course-file -->", course_file_table),
    )


def current(sheet: str, block: Block) -> str | None:
    """The table (or ```text block) that follows the block's marker in `sheet` (None when the marker is missing or
    appears more than once)."""
    lines = sheet.splitlines(keepends=True)
    span = _span(lines, block.marker, block.fenced)
    return None if span is None else "".join(lines[span[0] : span[1]])


def replaced(sheet: str, block: Block, part: str) -> str:
    """`sheet` with the table (or ```text block) after the block's marker replaced by `part`."""
    lines = sheet.splitlines(keepends=True)
    span = _span(lines, block.marker, block.fenced)
    assert span is not None, block.marker
    return "".join(lines[: span[0]]) + part + "".join(lines[span[1] :])


def _span(lines: list[str], marker: str, fenced: bool) -> tuple[int, int] | None:
    """[start, end) of the lines after the one marker line: up to the first line not starting with `|`, or the
    ```text block (an empty span where it does not start there)."""
    found = [index for index, line in enumerate(lines) if line.rstrip("\n") == marker]
    if len(found) != 1:
        return None
    start = end = found[0] + 1
    if not fenced:
        while end < len(lines) and lines[end].startswith("|"):
            end += 1
    elif end < len(lines) and lines[end].rstrip("\n") == FENCE + "text":
        end += 1
        while end < len(lines) and lines[end].rstrip("\n") != FENCE:
            end += 1
        end = min(end + 1, len(lines))
    return start, end


def stale(lab: Lab, root: Path) -> list[tuple[Block, str | None, str]]:
    """(block, the table there now or None without a single marker, the table it should be) for every stale one."""
    found = []
    for block in blocks(lab):
        there = current((root / block.file).read_text(encoding="utf-8"), block)
        wanted = block.render(lab)
        if there != wanted:
            found.append((block, there, wanted))
    return found


def write(lab: Lab, root: Path) -> list[str]:
    """Rewrite every stale table under `root`; "FILE MARKER" of each one rewritten.  A missing marker is an error."""
    done = []
    for block, there, wanted in stale(lab, root):
        path = root / block.file
        if there is None:
            raise SystemExit(f"{block.file}: needs exactly one line {block.marker}")
        path.write_text(replaced(path.read_text(encoding="utf-8"), block, wanted), encoding="utf-8")
        done.append(f"{block.file} {block.marker}")
    return done


def main(argv: list[str]) -> int:
    lab = active()
    tables = {
        "zh": lambda: scheme_table(lab, "zh"),
        "en": lambda: scheme_table(lab, "en"),
        "cases-zh": lambda: cases_table(lab, "zh"),
        "cases-en": lambda: cases_table(lab, "en"),
        "readme": lambda: readme_table(lab),
        "course-file": lambda: course_file_table(lab),
    }
    if argv == ["--write"]:
        for line in write(lab, lab.root) or ["tables: every generated table is current"]:
            print(line if line.startswith("tables:") else f"tables: rewrote {line}")
        return 0
    if len(argv) > 1 or (argv and argv[0] not in tables):
        print(f"usage: python -m labkit.instructor.sheets [{'|'.join(tables)}|--write]", file=sys.stderr)
        return 2
    print(tables[argv[0] if argv else "zh"](), end="")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
