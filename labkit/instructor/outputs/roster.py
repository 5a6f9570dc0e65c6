"""Gradebook files: reads the instructor's roster (a Canvas gradebook export or a Moodle grading worksheet)
and writes the same gradebook back with this assignment's points in its column (`assignment`), accounting for
every row (`accounted`).  Rows match by id only.

The formats (G1–G7, W1–W5) and why: docs/design.md#labkitinstructoroutputsrosterpy
"""

from __future__ import annotations

import csv
import difflib
import io
import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from pathlib import Path

from labkit.i18n import text
from labkit.untrusted import safe_text
from labkit.instructor.lms.layouts import canvas_slug
from labkit.instructor.outputs.figures import penalised
from labkit.instructor.outputs.grades_csv import cell
from labkit.instructor.lms.submissions import NOT_THEIR_DOING, UNGRADABLE

CANVAS_STUDENT = (
    "Student",
    "LastName",
    "FirstName",
    "ID",
    "SIS User ID",
    "SIS Login ID",
    "Integration ID",
    "Root Account",
    "Section",
)  # G1: the columns that say who a row is
CANVAS_KEYS = ("ID", "SIS User ID", "SIS Login ID")  # what a plain entry's name may be
CANVAS_KEPT = ("EX", "N/A")  # G4: excused, cannot see the assignment: left as they were
POINTS_POSSIBLE = "Points Possible"  # G3
MANUAL_POSTING = "Manual Posting"  # G2
TEST_STUDENT = ("student, test", "test student")  # G6

# W4: each column's header in the languages Moodle ships the worksheet in (en 4.x; zh_cn 4.5 and the older
# pack; de, fr, es), compared after Unicode normalisation and case folding.
MOODLE_HEADERS = {
    "identifier": ("Identifier", "标识符", "识别码", "ID", "Identifiant", "Identificador"),
    "name": ("Full name", "全名", "Vollständiger Name", "Nom complet", "Nombre completo"),
    "status": ("Status", "状态", "Statut", "Estado"),
    "group": ("Group", "小组", "群组", "Gruppe", "Groupe", "Grupo"),
    "grade": ("Grade", "成绩", "Bewertung", "Note", "Calificación"),
    "maximum": (
        "Maximum Grade",
        "Maximum grade",
        "最高分",
        "最高成绩",
        "Bestwertung",
        "Note maximale",
        "Calificación máxima",
    ),
    "modified": (
        "Last modified (grade)",
        "上次修改（评分）",
        "最后修改（教师）",
        "Zuletzt geändert (Bewertung)",
        "Dernière modification (note)",
        "Última modificación (calificación)",
    ),
}
MOODLE_NEEDED = ("identifier", "grade", "maximum")
# W3: the Status parts that say a submission came after its due date ("… - 2 hours 13 mins late",
# "已提交请评分 - 迟47 分钟") or was still not submitted at it, and the parts that say only what state it is in.
MOODLE_LATE = re.compile(
    r"^(?:.+ late|迟.+|.+之后|.+ zu spät|en retard de .+|.+ después|assignment is overdue by: .+|"
    r"作业过期时间: ?.+|作业截止日期: ?.+|abgabeende überschritten seit: .+|le devoir est en retard de .+|"
    r"la tarea está retrasada por: .+)$"
)
MOODLE_STATES = {
    "submitted for grading",
    "draft (not submitted)",
    "no submission",
    "graded",
    "not graded",
    "reopened",
    "已提交请评分",
    "已经提交",
    "草稿（未提交）",
    "没有作业",
    "未提交",
    "没有提交的作业",
    "已评分",
    "未评分",
    "重新开启",
    "已开启重交",
    "zur bewertung abgegeben",
    "entwurf (nicht abgegeben)",
    "keine abgabe",
    "bewertet",
    "nicht bewertet",
    "remis pour évaluation",
    "brouillon (non remis)",
    "pas de travail remis",
    "non remis",
    "noté",
    "non évalué",
    "enviado para calificar",
    "borrador (no enviado)",
    "sin entrega",
    "no entregado",
    "calificado",
    "sin calificar",
}
PARTICIPANT = re.compile(r"^\D*?(\d+)\s*$")  # W2: "Participant 1873401", "参与人2001001"
MAX_ROWS = 20000


class RosterError(Exception):
    """The roster cannot be used (the message says why, in the reader's language)."""


@dataclass
class Roster:
    kind: str  # canvas or moodle
    path: Path
    header: list
    rows: list  # student rows (lists of cells, as wide as the header)
    points_row: list | None = None  # Canvas's "Points Possible" row
    bom: bool = False
    columns: dict = field(default_factory=dict)  # Moodle: meaning -> column index (MOODLE_HEADERS)
    delimiter: str = ","
    decimal: str = "."  # the decimal mark its numbers use (G4, G5; Moodle's format_float)
    index: dict | None = field(default=None, repr=False)  # rows by key, built once (`_index`)


# --- reading --------------------------------------------------------------------------------------


def load(path: Path) -> Roster:
    """Read a Canvas gradebook export or a Moodle grading worksheet (UTF-8, with or without a BOM, `,` or `;`),
    or refuse it in one line."""
    try:
        raw = path.read_bytes()
    except OSError as error:
        raise RosterError(text("roster.unreadable", path=path, error=error.strerror or type(error).__name__)) from None
    try:
        content = raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise RosterError(text("roster.not_utf8", path=path)) from None
    bom = raw.startswith(b"\xef\xbb\xbf")
    first = content.split("\n", 1)[0]
    moodle = None
    for delimiter in sorted({",", ";"}, key=lambda sep: -first.count(sep)):
        table = _table(content, delimiter)
        if not table:
            continue
        header, names = table[0], {name.strip() for name in table[0]}
        if "ID" in names and ("Student" in names or {"LastName", "FirstName"} <= names):
            return _canvas_roster(path, [name.strip() for name in header], table[1:], bom, delimiter)
        columns = _moodle_columns(header, table[1:])
        if columns.get("identifier") is not None:
            moodle = moodle or (header, table[1:], columns, delimiter)
    if moodle is None:
        raise RosterError(text("roster.unknown", path=path))
    header, rows, columns, delimiter = moodle
    missing = [meaning for meaning in MOODLE_NEEDED if columns.get(meaning) is None]
    if missing:
        raise RosterError(text("lms.roster.columns", path=path, missing=", ".join(missing), found=_listed(header)))
    rows = _student_rows(path, header, rows)
    _unique(path, [PARTICIPANT.match(row[columns["identifier"]].strip()) for row in rows], header, columns)
    marks = [row[columns["maximum"]] for row in rows]
    return Roster("moodle", path, header, rows, None, bom, columns, delimiter, _decimal(marks))


def _table(content: str, delimiter: str) -> list:
    try:
        return list(csv.reader(io.StringIO(content), delimiter=delimiter))
    except csv.Error:
        return []


def _student_rows(path: Path, header: list, rows: list) -> list:
    """The non-blank rows, each exactly as wide as the header: a row that is not would be written shifted;
    at most MAX_ROWS of them (more, and the gradebook written back would lose the rest)."""
    if len(rows) > MAX_ROWS:
        raise RosterError(text("lms.roster.rows", path=path, rows=len(rows), most=MAX_ROWS))
    kept = []
    for number, row in enumerate(rows, 2):
        if not any(value.strip() for value in row):
            continue
        if len(row) != len(header):
            raise RosterError(text("lms.roster.shifted", path=path, row=number, cells=len(row), width=len(header)))
        kept.append(row)
    return kept


def _canvas_roster(path: Path, header: list, table: list, bom: bool, delimiter: str) -> Roster:
    """G1–G6: the Points Possible row, the Manual Posting row (no ID: left out), the student rows."""
    rows = _student_rows(path, header, table)
    ids = header.index("ID")
    points = next((row for row in rows if row[0].strip() == POINTS_POSSIBLE), None)
    students = [row for row in rows if row[ids].strip() and row is not points]
    _unique(path, [row[ids].strip() for row in students], header, {"identifier": ids})
    numbers = [value for row in ([points] if points else []) + students for value in row]
    return Roster("canvas", path, header, students, points, bom, {}, delimiter, _decimal(numbers))


def _unique(path: Path, keys: list, header: list, columns: dict) -> None:
    """Refuse a roster whose id column does not hold one id per row: matching by it could not be trusted."""
    seen = set()
    for key in keys:
        key = key.group(1) if isinstance(key, re.Match) else key
        if key is None or key in seen:
            raise RosterError(text("lms.roster.ids", path=path, column=header[columns["identifier"]], id=key or "—"))
        seen.add(key)


def _decimal(values: list) -> str:
    """The decimal mark of a roster's numbers: `,` when they are written `8,50` (G4, G5), else `.`."""
    commas = sum(bool(re.fullmatch(r"-?\d+,\d+", value.strip())) for value in values)
    points = sum(bool(re.fullmatch(r"-?\d+\.\d+", value.strip())) for value in values)
    return "," if commas > points else "."


def _normal(name: str) -> str:
    return " ".join(unicodedata.normalize("NFKC", name).casefold().split())


_KNOWN = {meaning: {_normal(name) for name in names} for meaning, names in MOODLE_HEADERS.items()}


def _moodle_columns(header: list, rows: list) -> dict:
    """Each column's meaning (MOODLE_HEADERS), by its header in any language of W4; the identifier also by its
    cells ("Participant 123" in every row) when the header is in a language not listed."""
    normal = [_normal(name) for name in header]
    columns = {
        meaning: next((i for i, name in enumerate(normal) if name in names), None) for meaning, names in _KNOWN.items()
    }
    if columns["identifier"] is None:
        rows = [row for row in rows if len(row) == len(header)]
        columns["identifier"] = next(
            (
                i
                for i in range(len(header))
                if rows and all(PARTICIPANT.match(row[i].strip()) and not row[i].strip().isdigit() for row in rows)
            ),
            None,
        )
    return columns


def _listed(header: list) -> str:
    shown = [safe_text(name, 40, False) for name in header[:12]]
    return ", ".join(shown) + (f" … +{len(header) - 12}" if len(header) > 12 else "")


# --- which download it is for ------------------------------------------------------------------------


def check_fits(roster: Roster, layouts) -> None:
    """Refuse, before grading, a gradebook that is not of the kind the download needs (a Canvas download's ids
    are not in a Moodle worksheet, a Blackboard download's in neither)."""
    wanted = sorted(set(layouts) - {"plain"})
    if any(layout != roster.kind for layout in wanted):
        raise RosterError(text("lms.roster.other_lms", path=roster.path, kind=roster.kind, layout=", ".join(wanted)))


# --- the column this assignment's points go to -------------------------------------------------------------

CANVAS_ASSIGNMENT = re.compile(r"^(?P<title>.+) \((?P<id>\d+)\)$")  # G1: "<Title> (<id>)"
CLOSEST = 3  # columns named when a TITLE matches none


@dataclass(frozen=True)
class Column:
    """Where a gradebook written back puts this assignment's points: the roster's column (None: a new one, asked for
    with NEW_COLUMN=1), its header, and the points it is out of as the roster states them ("" when it does not)."""

    index: int | None
    title: str
    maximum: str = ""
    closest: tuple = ()  # a new column: the roster's closest ones (what TITLE may have meant)


def assignment(roster: Roster, title: str, new_column: bool = False, required: bool = True) -> Column:
    """The column for `title`: Canvas's `<title> (<id>)` or `<title>` (compared exactly, else ignoring case,
    width and spacing, when one column alone is that), Moodle's Grade.  A title that matches no column is refused
    (RosterError) with the closest ones, unless `new_column` asks for it as a new column or it is not `required`
    (no submission of the class is in this roster: the gradebook is the problem, and the import line says so); one
    that matches several is refused with them."""
    if roster.kind == "moodle":
        maxima = sorted({row[roster.columns["maximum"]].strip() for row in roster.rows} - {""})
        return Column(roster.columns["grade"], roster.header[roster.columns["grade"]], " / ".join(maxima[:3]))
    columns = _assignment_columns(roster.header)
    for same in (lambda name: name, _normal):
        found = [
            index
            for index in columns
            if same(title)
            in (
                same(roster.header[index]),
                same(titled["title"]) if (titled := CANVAS_ASSIGNMENT.match(roster.header[index])) else None,
            )
        ]
        if len(found) > 1:
            raise RosterError(
                text(
                    "lms.roster.title_twice",
                    path=roster.path,
                    title=title,
                    columns=", ".join(roster.header[index] for index in found),
                )
            )
        if found:
            index = found[0]
            return Column(index, roster.header[index], roster.points_row[index].strip() if roster.points_row else "")
    assignments = [
        (roster.header[index], titled["title"])
        for index in columns  # (column, its title)
        if (titled := CANVAS_ASSIGNMENT.match(roster.header[index]))
    ]
    closest = [
        name
        for name, _ in sorted(
            assignments,
            key=lambda assignment: -difflib.SequenceMatcher(None, _normal(title), _normal(assignment[1])).ratio(),
        )
    ][:CLOSEST]
    if new_column or not required:
        return Column(None, title, closest=tuple(closest))
    raise RosterError(
        text(
            "lms.roster.no_title",
            path=roster.path,
            title=title,
            closest=", ".join(closest) or text("lms.roster.no_columns"),
        )
    )


def in_roster(roster: Roster, submissions: list) -> bool:
    """Whether any submission of the class has a row in the roster (by `find`'s rules)."""
    return any(find(roster, s.student, s.layout, s.name).row is not None for s in submissions)


def _assignment_columns(header: list) -> list[int]:
    """The columns after the student ones (G1: assignments, custom columns, totals), by index."""
    start = max((header.index(name) for name in CANVAS_STUDENT if name in header), default=1) + 1
    return list(range(start, len(header)))


# --- matching --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Found:
    """Where a submission's row is, and how it was found: `id`, `name` (the download had no id), or why none:
    `anonymous` (Canvas anonymous ids are not in the gradebook), `team` (a Moodle group's id), `missing`."""

    row: int | None
    how: str
    group: str = ""  # Canvas: the entry's name when it is not its row's student (a group's entry, C5)


def find(roster: Roster, student: str, layout: str, name: str = "") -> Found:
    """The row of one submission, by the download's id only; by name only for a plain entry, which has no id."""
    index = _index(roster)
    if layout == "canvas" and roster.kind == "canvas":
        if student.startswith("anon_"):
            return Found(None, "anonymous")
        row = index["id"].get(student)
        if row is None:
            return Found(None, "missing")
        own = _name_keys(_row_name(roster, roster.rows[row]))
        return Found(row, "id", name if name and own and _name_key(name) not in own else "")
    if layout == "moodle" and roster.kind == "moodle":
        row = index["id"].get(student)
        if row is not None:
            return Found(row, "id")
        return Found(None, "team" if name and _normal(name) in index["teams"] else "missing")
    if layout != "plain":
        return Found(None, "missing")
    rows = index["keys"].get(student) or index["folded"].get(student.casefold())  # exact first, then any case
    if rows:
        return Found(rows[0], "id") if len(rows) == 1 else Found(None, "missing")
    rows = index["names"].get(_name_key(student), [])
    return Found(rows[0], "name") if len(rows) == 1 else Found(None, "missing")


def _index(roster: Roster) -> dict:
    """The roster's rows by id (what the LMS's download names), by the other keys a plain entry may be named
    after, and by name (for plain entries only); built once per roster."""
    if roster.index is not None:
        return roster.index
    ids: dict[str, int] = {}
    keys: dict[str, list[int]] = {}  # a key -> the rows it names
    folded: dict[str, list[int]] = {}
    names: dict[str, list[int]] = {}
    group = roster.columns.get("group")
    teams = {_normal(row[group]) for row in roster.rows} if group is not None else set()
    for row_index, row in enumerate(roster.rows):
        if roster.kind == "canvas":
            ids[row[roster.header.index("ID")].strip()] = row_index
            own = [row[roster.header.index(key)].strip() for key in CANVAS_KEYS if key in roster.header]
        else:
            number = _participant(roster, row)
            ids[number] = row_index
            own = [number, row[roster.columns["identifier"]].strip(), *[row[i].strip() for i in _identity(roster)]]
        for key in {key for key in own if key}:
            keys.setdefault(key, []).append(row_index)
            folded.setdefault(key.casefold(), []).append(row_index)
        for key in _name_keys(_row_name(roster, row)):
            if row_index not in names.setdefault(key, []):
                names[key].append(row_index)
    roster.index = {"id": ids, "keys": keys, "folded": folded, "names": names, "teams": teams}
    return roster.index


def _identity(roster: Roster) -> list:
    """Moodle's identity columns (W1: between Full name and Status, e.g. Email address, ID number)."""
    name, status = roster.columns.get("name"), roster.columns.get("status")
    first = (name if name is not None else roster.columns["identifier"]) + 1
    return [i for i in range(first, status if status is not None else first) if i != roster.columns["identifier"]]


def _row_name(roster: Roster, row: list) -> str:
    """The row's student name as the roster writes it: Canvas's sortable `Student` (or `Last, First`), Moodle's
    Full name ("" when the worksheet has none, as under blind marking)."""
    if roster.kind == "canvas":
        if "Student" in roster.header:
            return row[roster.header.index("Student")].strip()
        return ", ".join(row[roster.header.index(part)].strip() for part in ("LastName", "FirstName"))
    column = roster.columns.get("name")
    return row[column].strip() if column is not None else ""


def _name_key(name: str) -> str:
    return canvas_slug(unicodedata.normalize("NFKC", name)).replace("_", "").replace("-", "")


def _name_keys(name: str) -> set:
    """A name as a plain folder may be called: `Zhang, Wei` as `zhangwei`, `Zhang Wei` or `Wei Zhang`."""
    if not name:
        return set()
    keys = {_name_key(name)}
    if "," in name:
        last, first = name.split(",", 1)
        keys.add(_name_key(first + last))
    return keys - {""}


def is_test_student(roster: Roster, row: int) -> bool:
    """Canvas's Test Student (Student View, G6): never given a grade."""
    return roster.kind == "canvas" and _row_name(roster, roster.rows[row]).casefold() in TEST_STUDENT


def late(roster: Roster, row: int) -> bool | None:
    """W3: what a worksheet row's Status says: late (or still not submitted when due), on time, or unknown (a
    Canvas roster, no Status column, or a status in a language not known)."""
    column = roster.columns.get("status") if roster.kind == "moodle" else None
    if column is None:
        return None
    parts = [_normal(re.sub(r"<[^>]*>", "", part)) for part in roster.rows[row][column].split(" - ")]
    if any(MOODLE_LATE.match(part) for part in parts):
        return True
    return False if any(part in MOODLE_STATES for part in parts) else None


def prepare(roster: Roster, submissions: list) -> list:
    """Before grading: refuse a roster of another LMS, and give each submission what its row says: lateness the
    download has no marker for (W3), and notes for the feedback: matched by name (the download has no id), a
    group's submission (C5, M1)."""
    check_fits(roster, [submission.layout for submission in submissions])
    prepared = []
    for submission in submissions:
        found = find(roster, submission.student, submission.layout, submission.name)
        notes, team = list(submission.notes), submission.team
        if found.how == "name":
            assert found.row is not None  # `find` names the row it found by name
            notes.append(("lms.note.by_name", {"name": _row_name(roster, roster.rows[found.row])}))
        elif found.how == "team" or found.group:
            team = team or submission.name
            if ("lms.note.team", {"team": team}) not in notes:
                notes.append(("lms.note.team", {"team": team}))
        lms_late = late(roster, found.row) if found.row is not None and submission.lms_late is None else None
        prepared.append(
            replace(
                submission,
                notes=tuple(notes),
                team=team,
                lms_late=submission.lms_late if lms_late is None else lms_late,
            )
        )
    return prepared


BRIEF = (
    "student",
    "name",
    "layout",
    "team",
    "status",
    "gradable",
    "score",
    "max_score",
    "late",
    "attempt",
    "entry",
    "files",
)


def brief(result) -> dict:
    """What a gradebook needs of a StudentResult (this module's record): who and how they did, without the
    cases, so a roster's view of the class costs a few fields per student."""
    return {key: getattr(result, key) for key in BRIEF}


def match(roster: Roster, records: list[dict]) -> tuple[dict, list[str]]:
    """(row index -> record, ids of submissions that match no row), by the rules of `find`: one row per id,
    one record per row (a second record a row would get is listed as unmatched)."""
    matched, unmatched = {}, []
    for record in records:
        found = find(roster, str(record["student"]), record.get("layout", "plain"), str(record.get("name") or ""))
        if found.row is None or found.row in matched:
            unmatched.append(str(record["student"]))
        else:
            matched[found.row] = record
    return matched, unmatched


def named(roster: Roster, records: list[dict], matched: dict) -> list[dict]:
    """The records with the name the roster gives their student (Canvas's `Student`, Moodle's full name),
    for the rows `match` matched them with; a record no row matches, or whose row names nobody, keeps the
    name the submission carried."""
    names = {}
    for index, record in matched.items():
        name = safe_text(_row_name(roster, roster.rows[index]), 120, False).strip()
        if name:
            names[str(record["student"])] = name
    return [
        {**record, "name": names[str(record["student"])]} if str(record["student"]) in names else record
        for record in records
    ]


def summary(roster: Roster, records: list[dict], matched: dict, unmatched: list[str]) -> list[str]:
    """What the instructor must do by hand, one line each (terminal and report): submissions of anonymous ids and
    submissions matched by name (rows left as they were are in `accounted`)."""
    by_id = {str(record["student"]): record for record in records}
    lines = []
    anonymous = [
        student
        for student in unmatched
        if by_id.get(student, {}).get("layout") == "canvas" and student.startswith("anon_")
    ]
    if anonymous:
        lines.append(text("lms.roster.anonymous", count=len(anonymous), ids=_few(anonymous)))
    by_name = [
        str(record["student"])
        for index, record in matched.items()
        if find(roster, str(record["student"]), record.get("layout", "plain"), "").how == "name"
    ]
    if by_name:
        lines.append(text("lms.roster.by_name", count=len(by_name), ids=_few(by_name)))
    return lines


ROW_KINDS = ("graded", "no_code", "failed", "no_submission", "excused", "cannot_see", "test_student")


def accounted(roster: Roster, matched: dict, column: Column) -> dict[str, list]:
    """Every roster row by what the gradebook written back does with it (ROW_KINDS: a grade written; no code to
    run, 0 or blank as the course file says; the grader or the machine failed, left blank; no submission; EX;
    N/A; Canvas's Test Student), each row as (name, id, its record or None); the lists add up to the roster."""
    kinds: dict[str, list] = {kind: [] for kind in ROW_KINDS}
    for index, row in enumerate(roster.rows):
        record = matched.get(index)
        cell = row[column.index].strip() if roster.kind == "canvas" and column.index is not None else ""
        if is_test_student(roster, index):
            kind = "test_student"
        elif cell == "EX":
            kind = "excused"
        elif cell == "N/A":
            kind = "cannot_see"
        elif record is None:
            kind = "no_submission"
        elif record.get("status") in NOT_THEIR_DOING:
            kind = "failed"
        elif record.get("status") in UNGRADABLE:
            kind = "no_code"
        else:
            kind = "graded"
        kinds[kind].append((safe_text(_row_name(roster, row), 120, False), _row_id(roster, row), record))
    return kinds


def _row_id(roster: Roster, row: list) -> str:
    """The id a row is matched by: Canvas's ID, Moodle's participant number."""
    if roster.kind == "canvas":
        return row[roster.header.index("ID")].strip()
    return _participant(roster, row)


def _participant(roster: Roster, row: list) -> str:
    """A Moodle row's participant number: every row has one (a roster without is refused when it is read)."""
    found = PARTICIPANT.match(row[roster.columns["identifier"]].strip())
    assert found is not None, "load() refuses a Moodle roster with a row that has none"
    return found.group(1)


def team_lines(records: Iterable[dict]) -> list[str]:
    """One line naming the group submissions, whose other members must get the grade in the LMS."""
    teams = [f"{record['student']} ({record['team']})" for record in records if record.get("team")]
    return [text("lms.teams", count=len(teams), ids=_few(teams))] if teams else []


def _few(ids: list, shown: int = 10) -> str:
    return ", ".join(ids[:shown]) + (f" … +{len(ids) - shown}" if len(ids) > shown else "")


# --- writing -------------------------------------------------------------------------------------------


def export(roster: Roster, matched: dict, course, column: Column | None = None) -> tuple[str, str]:
    """(file name, CSV text) for this roster, given the records its rows matched (`match`) and the column chosen
    (`assignment`, as grading allowed it)."""
    if roster.kind == "canvas":
        column = column or assignment(roster, course.title, getattr(course, "new_column", False), required=False)
        return _canvas(roster, matched, course, column)
    return _moodle(roster, matched, course.scheme)


def score_cell(record: dict, maximum: float | None, decimal: str, scheme=None) -> str:
    """A record's score as the gradebook's points: blank for a grader error, and for no code to run when the
    course file says so (`[gradebook] no_code`); the course's late penalty taken off (`[late] penalty`); scaled
    to `maximum` if known, written with the gradebook's decimal mark."""
    if record.get("status") in NOT_THEIR_DOING:  # the grader or the machine failed: left to you
        return ""
    if record.get("status") in UNGRADABLE and getattr(scheme, "no_code", "0") == "blank":
        return ""
    top = record.get("max_score") or 100  # full marks of the grading scheme the record was graded with
    value = penalised(record["score"], record.get("late"), scheme) * (maximum if maximum else top) / top
    return f"{value:.2f}".rstrip("0").rstrip(".").replace(".", decimal)


def _number(value: str) -> float | None:
    try:
        number = float(value.strip().replace(",", "."))
    except ValueError:
        return None
    return number if number > 0 else None


def _canvas(roster: Roster, matched: dict, course, target: Column) -> tuple[str, str]:
    student = [i for i, name in enumerate(roster.header) if name in CANVAS_STUDENT]
    column = target.index
    new_points = f"{course.scheme.max_score:.2f}".replace(".", roster.decimal)  # a new column: out of full marks
    maximum = _number(roster.points_row[column]) if column is not None and roster.points_row else None
    stream = io.StringIO()
    if roster.bom:
        stream.write("\ufeff")
    writer = csv.writer(stream, delimiter=roster.delimiter, lineterminator="\n")
    writer.writerow([roster.header[i] for i in student] + [target.title])
    if roster.points_row is not None:
        points = roster.points_row[column] if column is not None else new_points
        writer.writerow([roster.points_row[i] for i in student] + [points])
    for index, row in enumerate(roster.rows):
        before = row[column] if column is not None else ""
        value = before
        if index in matched and not is_test_student(roster, index) and before.strip() not in CANVAS_KEPT:
            value = score_cell(matched[index], maximum, roster.decimal, course.scheme) or before
        writer.writerow([cell(row[i]) for i in student] + [value])
    return "canvas.csv", stream.getvalue()


def _moodle(roster: Roster, matched: dict, scheme=None) -> tuple[str, str]:
    """W5's way: a BOM if the worksheet had one, a cell quoted only when it holds the separator, a quote, a
    backslash, a space or a line break; every row as wide as the header; only Grade cells change."""
    columns = roster.columns
    grade, maximum_column = columns["grade"], columns["maximum"]
    modified = columns.get("modified")
    imported = {
        columns["identifier"],
        grade,
        *(range(modified, len(roster.header)) if modified is not None else range(grade + 1, len(roster.header))),
    }
    lines = ["\ufeff" if roster.bom else ""]
    lines[0] += _moodle_line(roster.header, roster.delimiter)
    for index, row in enumerate(roster.rows):
        out = [value if i in imported else _guarded(value) for i, value in enumerate(row)]
        if index in matched:
            out[grade] = score_cell(matched[index], _number(row[maximum_column]), roster.decimal, scheme) or row[grade]
        lines.append(_moodle_line(out, roster.delimiter))
    return "moodle.csv", "".join(lines)


def _guarded(value: str) -> str:
    """A cell Moodle does not import, made safe for a spreadsheet (a name like `=HYPERLINK(…)`); `-` stays."""
    return value if value.strip() in ("", "-") else cell(value)


def _moodle_line(cells: list, delimiter: str) -> str:
    quoted = [
        f'"{value.replace(chr(34), chr(34) * 2)}"'
        if any(c in value for c in (delimiter, '"', "\\", " ", "\n", "\r", "\t"))
        else value
        for value in cells
    ]
    return delimiter.join(quoted) + "\n"
