"""The generated tables of the sheets and README, rendered from the lab spec and the course file's keys.

Each follows a marker line (`<!-- scheme -->`, `<!-- scheme: readme -->`, `<!-- course-file -->`) to the first line
not starting with `|`.  `python -m labkit.instructor.sheets [zh|en|readme|course-file]` prints one table; `--write`
rewrites every stale one (make tables).
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Callable

from labkit.instructor.config import NUMBER, keys
from labkit.spec import Lab, active

README = "README.md"
_HEADS = {"zh": ("组", "检查", "在哪里运行", "分数", "合计"), "en": ("group", "checks", "where they run", "points", "total")}
_WHERE = {"zh": {"test": "`make test`", "full": "`make test-full`", "grade": "只在评分时"},
          "en": {"test": "`make test`", "full": "`make test-full`", "grade": "grading only"}}


@dataclass(frozen=True)
class Block:
    """One generated table: the file it is in, the marker line before it, and how it is rendered."""

    file: str
    marker: str
    render: Callable[[Lab], str]


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
        shown = getattr(label, language) if label else "TEST {first}–{last}" if len(ids) > 1 else \
            "TEST {first}"  # a group of one check: TEST 1, not TEST 1–1
        rows.append((lab.group_name(group, language), shown.format(first=ids[0], last=ids[-1]),
                     _WHERE[language][group.stage], group.points))
    rows.append((f"**{total}**", "", "", f"**{_total(lab)}**"))
    return markdown(tuple(head), rows)


def readme_table(lab: Lab) -> str:
    """The scheme as README shows it: each group's grades.csv columns, points, points per check and where it runs."""
    rows: list[tuple] = []
    for group in lab.graded_groups:
        checks = lab.in_group(group.id)
        low, high = min(lab.points(check) for check in checks), max(lab.points(check) for check in checks)
        where = _WHERE["en"][group.stage] + (f" ({group.count} inputs drawn per student)" if group.count else "")
        rows.append((f"`{group.id}`", f"`{checks[0].column}`…`{checks[-1].column}`", group.points,
                     low if low == high else f"{low}–{high}", where))
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
        rows.append((f"`[{key.section}] {key.name}`", "(required)" if key.default is None else key.default,
                     key.about + allowed))
    return markdown(("key", "default", "meaning"), rows)


def blocks(lab: Lab) -> tuple[Block, ...]:
    """Every generated table of `lab`: one per task sheet, and README's two where its root has a README (a lab in a
    folder of the course's, labs/<lab>/, has its sheets only)."""
    sheets = tuple(Block(file, "<!-- scheme -->", partial(scheme_table, language=language))
                   for language, file in lab.sheets.items())
    if lab.sheets and not (lab.root / README).is_file():
        return sheets
    return sheets + (Block(README, "<!-- scheme: readme -->", readme_table),
                     Block(README, "<!-- course-file -->", course_file_table))


def current(text: str, marker: str) -> str | None:
    """The table that follows `marker` in `text` (None when the marker is missing or appears more than once)."""
    lines = text.splitlines(keepends=True)
    found = [index for index, line in enumerate(lines) if line.rstrip("\n") == marker]
    if len(found) != 1:
        return None
    table = []
    for line in lines[found[0] + 1:]:
        if not line.startswith("|"):
            break
        table.append(line)
    return "".join(table)


def replaced(text: str, marker: str, table: str) -> str:
    """`text` with the table after `marker` replaced by `table`."""
    lines = text.splitlines(keepends=True)
    start = next(index for index, line in enumerate(lines) if line.rstrip("\n") == marker) + 1
    end = start
    while end < len(lines) and lines[end].startswith("|"):
        end += 1
    return "".join(lines[:start]) + table + "".join(lines[end:])


def stale(lab: Lab, root: Path) -> list[tuple[Block, str | None, str]]:
    """(block, the table there now or None without a single marker, the table it should be) for every stale one."""
    found = []
    for block in blocks(lab):
        there = current((root / block.file).read_text(encoding="utf-8"), block.marker)
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
        path.write_text(replaced(path.read_text(encoding="utf-8"), block.marker, wanted), encoding="utf-8")
        done.append(f"{block.file} {block.marker}")
    return done


def main(argv: list[str]) -> int:
    lab = active()
    tables = {"zh": lambda: scheme_table(lab, "zh"), "en": lambda: scheme_table(lab, "en"),
              "readme": lambda: readme_table(lab), "course-file": lambda: course_file_table(lab)}
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
