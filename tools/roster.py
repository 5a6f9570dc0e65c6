"""Gradebook files: reads the instructor's roster (a Canvas gradebook export or a Moodle grading worksheet)
and writes the same gradebook back with this assignment's points, ready to import.

Canvas (Grades → Export): `Student, ID, SIS User ID, SIS Login ID, [Integration ID, Root Account,]
Section, <assignment> (<id>) ...`, often a "Points Possible" row.  canvas.csv keeps the five student
columns and one assignment column: the roster's column of that title (so Canvas matches it by its id), or
the title alone (Canvas then creates the assignment).  Canvas matches students by ID, then SIS User ID,
then SIS Login ID; so do we.  Moodle (View all submissions → Download grading worksheet): `Identifier`
("Participant 123", the number its "Download all submissions" folders carry), Full name, ..., `Grade`,
`Maximum Grade`, ..., `Last modified (grade)` (the headers are in the site's language).  moodle.csv is the
worksheet with the Grade cells filled in.  Points are scaled to the assignment's maximum where the
gradebook states one; students without a submission are left blank, and so is a submission the grader
itself (or the machine) failed on; submissions that match no row are listed.  A matched student's name in
grades.csv, grades.json and report.html is the roster's (`named`), not the one the file names carry.
"""

from __future__ import annotations

import csv
import io
import re
from dataclasses import dataclass
from pathlib import Path

from framework.harness.i18n import text
from framework.harness.untrusted import safe_text
from tools.reports import cell
from tools.submissions import NOT_THEIR_DOING

CANVAS_INFO = ("Student", "ID", "SIS User ID", "SIS Login ID", "Integration ID", "Root Account", "Section")
CANVAS_OUT = ("Student", "ID", "SIS User ID", "SIS Login ID", "Section")
MOODLE_ID = {"identifier", "识别码", "标识符", "identificador", "identifiant", "id"}
MOODLE_GRADE = {"grade", "成绩", "分数", "评分", "calificación", "note", "bewertung"}
MOODLE_NAME = {"full name", "全名", "姓名", "nombre completo", "nom complet", "vollständiger name"}
MOODLE_MAX = {"maximum grade", "最高成绩", "满分", "最高分", "calificación máxima", "note maximale", "bestwertung"}
PARTICIPANT = re.compile(r"^\D*?(\d+)\s*$")
MAX_ROWS = 20000


class RosterError(Exception):
    """The roster cannot be used (the message says why, in the reader's language)."""


@dataclass
class Roster:
    kind: str  # canvas or moodle
    path: Path
    header: list
    rows: list  # student rows (lists of cells, padded to the header)
    points_row: list | None = None  # Canvas's "Points Possible" row
    bom: bool = False
    columns: tuple | None = None  # Moodle's (identifier, grade, maximum grade) columns (_moodle_columns)


def load(path: Path) -> Roster:
    """Read a Canvas gradebook export or a Moodle grading worksheet (UTF-8, with or without a BOM)."""
    try:
        raw = path.read_bytes()
    except OSError as error:
        raise RosterError(text("roster.unreadable", path=path, error=error.strerror or type(error).__name__))
    try:
        content = raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise RosterError(text("roster.not_utf8", path=path))
    table = list(csv.reader(io.StringIO(content)))[:MAX_ROWS]
    if not table:
        raise RosterError(text("roster.unknown", path=path))
    header = [name.strip() for name in table[0]]
    width = len(header)
    rows = [(row + [""] * width)[:width] for row in table[1:] if any(value.strip() for value in row)]
    bom = raw.startswith(b"\xef\xbb\xbf")
    if header[:2] == ["Student", "ID"]:
        points = next((row for row in rows if row[0].strip() == "Points Possible"), None)
        students = [row for row in rows if row[1].strip() and row[0].strip() != "Points Possible"]
        return Roster("canvas", path, header, students, points, bom)
    columns = _moodle_columns(header, rows)
    if columns:
        return Roster("moodle", path, header, rows, None, bom, columns)
    raise RosterError(text("roster.unknown", path=path))


def _moodle_columns(header: list, rows: list) -> tuple[int, int, int | None] | None:
    """(identifier, grade, maximum grade) column indexes of a Moodle worksheet, or None."""
    lowered = [name.strip().lower() for name in header]
    identifier = next((i for i, name in enumerate(lowered) if name in MOODLE_ID), None)
    if identifier is None:  # a language we do not know: the column of "Participant 123"-like cells
        identifier = next((i for i in range(len(header)) if rows and all(
            PARTICIPANT.match(row[i].strip()) and not row[i].strip().isdigit() for row in rows)), None)
    grade = next((i for i, name in enumerate(lowered) if name in MOODLE_GRADE), None)
    maximum = next((i for i, name in enumerate(lowered) if name in MOODLE_MAX), None)
    if identifier is None or grade is None:
        return None
    return identifier, grade, maximum


def export(roster: Roster, matched: dict, course) -> tuple[str, str]:
    """(file name, CSV text) for this roster, given the records its rows matched (`match`)."""
    if roster.kind == "canvas":
        return _canvas(roster, matched, course)
    return _moodle(roster, matched)


def named(roster: Roster, records: list[dict], matched: dict) -> list[dict]:
    """The records with the name the roster gives their student (Canvas's `Student`, Moodle's full name),
    for the rows `match` matched them with; a record no row matches, or whose row names nobody, keeps the
    name the submission carried."""
    column = _name_column(roster)
    if column is None:
        return list(records)
    names = {}
    for index, record in matched.items():
        name = safe_text(roster.rows[index][column].strip(), 120, False).strip()
        if name:
            names[str(record["student"])] = name
    return [{**record, "name": names[str(record["student"])]} if str(record["student"]) in names else record
            for record in records]


def _name_column(roster: Roster) -> int | None:
    """Where the roster names its students: Canvas's `Student`; Moodle's `Full name` (in a language we know,
    else the column after the identifier, where Moodle puts it)."""
    if roster.kind == "canvas":
        return roster.header.index("Student") if "Student" in roster.header else None
    identifier = roster.columns[0]
    lowered = [name.strip().lower() for name in roster.header]
    known = next((i for i, name in enumerate(lowered) if name in MOODLE_NAME), None)
    if known is not None:
        return known
    return 1 if identifier != 1 and len(roster.header) > 1 else None


def _keys(roster: Roster):
    """A roster row's keys for matching a record's id: what the LMS imports students by."""
    if roster.kind == "canvas":
        where = {name: roster.header.index(name) for name in CANVAS_INFO if name in roster.header}

        def canvas_keys(row):
            return [row[where[name]].strip() for name in ("ID", "SIS User ID", "SIS Login ID", "Student")
                    if name in where]
        return canvas_keys
    identifier = roster.columns[0]
    emails = [i for i, name in enumerate(roster.header) if roster.rows and all(
        "@" in row[i] or not row[i].strip() for row in roster.rows) and any("@" in row[i] for row in roster.rows)]

    def moodle_keys(row):
        found = PARTICIPANT.match(row[identifier].strip())
        return [found.group(1) if found else "", row[identifier].strip(), *[row[i].strip() for i in emails],
                row[1].strip() if len(row) > 1 and identifier != 1 else ""]
    return moodle_keys


def _points(record: dict, maximum: float | None) -> str:
    """A record's score as the gradebook's points: blank for a grader error, scaled to `maximum` if known."""
    if record.get("status") in NOT_THEIR_DOING:  # the grader or the machine failed: left to you
        return ""
    top = record.get("max_score") or 100  # full marks of the grading scheme the record was graded with
    value = record["score"] * (maximum if maximum else top) / top
    return f"{value:.2f}".rstrip("0").rstrip(".")


def _number(value: str) -> float | None:
    try:
        number = float(value.strip().replace(",", "."))
    except ValueError:
        return None
    return number if number > 0 else None


def match(roster: Roster, records: list[dict]) -> tuple[dict, list[str]]:
    """(row index -> record, ids of submissions that match no row): each record's id against each row's keys,
    what the LMS imports students by (exact first, then ignoring case)."""
    matched, unmatched = {}, []
    exact: dict[str, int] = {}
    folded: dict[str, int] = {}
    keys = _keys(roster)
    for index, row in enumerate(roster.rows):
        for key in keys(row):
            if key:
                exact.setdefault(key, index)
                folded.setdefault(key.casefold(), index)
    for record in records:
        student = str(record["student"])
        index = exact.get(student, folded.get(student.casefold()))
        if index is None and record.get("name"):
            index = folded.get(str(record["name"]).casefold())
        if index is None or index in matched:
            unmatched.append(student)
        else:
            matched[index] = record
    return matched, unmatched


def _canvas(roster: Roster, matched: dict, course) -> tuple[str, str]:
    where = {name: roster.header.index(name) for name in CANVAS_INFO if name in roster.header}
    column = _canvas_assignment(roster.header, course.title)
    title = roster.header[column] if column is not None else course.title
    maximum = _number(roster.points_row[column]) if column is not None and roster.points_row else None
    stream = io.StringIO()
    writer = csv.writer(stream, lineterminator="\n")
    writer.writerow([*CANVAS_OUT, title])
    if maximum is not None:
        writer.writerow(["Points Possible", "", "", "", "", f"{maximum:g}"])
    for index, row in enumerate(roster.rows):
        info = [cell(row[where[name]]) if name in where else "" for name in CANVAS_OUT]
        writer.writerow([*info, _points(matched[index], maximum) if index in matched else ""])
    return "canvas.csv", stream.getvalue()


def _canvas_assignment(header: list, title: str) -> int | None:
    """The roster's column for this assignment: "<title> (<id>)", else exactly "<title>"."""
    start = max((header.index(name) for name in CANVAS_INFO if name in header), default=1) + 1
    for index in range(start, len(header)):
        if re.fullmatch(re.escape(title) + r" \(\d+\)", header[index]) or header[index] == title:
            return index
    return None


def _moodle(roster: Roster, matched: dict) -> tuple[str, str]:
    _, grade, maximum_column = roster.columns
    stream = io.StringIO()
    if roster.bom:
        stream.write("\ufeff")
    writer = csv.writer(stream, lineterminator="\n")
    writer.writerow([cell(name) for name in roster.header])
    for index, row in enumerate(roster.rows):
        out = [cell(value) for value in row]
        if index in matched:
            maximum = _number(row[maximum_column]) if maximum_column is not None else None
            out[grade] = _points(matched[index], maximum) or row[grade]
        writer.writerow(out)
    return "moodle.csv", stream.getvalue()
