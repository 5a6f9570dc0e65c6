"""LMS downloads and gradebooks as each LMS's own code writes them, built from the facts of the LMS formats
reference (the ids C1–C7, G1–G7, M1–M7, W1–W5, B1–B3, A1–A3 name the fact each shape comes from).

Everything is written inside the test's own temp dir; the student files are the reference solution and the
harmless wrong submissions of tests/students/wrong/.
"""

from __future__ import annotations

import csv
import io
import zipfile
from pathlib import Path

from conftest import SOLUTION, STUDENTS

WRONG = (STUDENTS / "wrong" / "no_trim.py").read_bytes()
RIGHT = SOLUTION.read_bytes()


def put(folder: Path, files: dict) -> Path:
    """Write {relative path: bytes or str} under `folder` (folders made as needed)."""
    for name, content in files.items():
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, str):
            content = content.encode("utf-8")
        path.write_bytes(content)
    return folder


def zip_bytes(files: dict, flag_utf8: bool = True) -> bytes:
    """A zip of {name: bytes}; names are written as given (`\\` separators stay, A1)."""
    raw = io.BytesIO()
    with zipfile.ZipFile(raw, "w") as bundle:
        for name, content in files.items():
            bundle.writestr(zipfile.ZipInfo(name, (2024, 3, 1, 10, 0, 0)), content)
    return raw.getvalue()


def gbk_zip(names: dict) -> bytes:
    """A zip whose member names are GBK bytes without the UTF-8 flag, as Chinese Windows writes them (A2):
    {name: bytes}; each name must be as long in GBK as its placeholder."""
    placeholders = {chr(ord("A") + index) * len(name.encode("gbk")): (name, content)
                    for index, (name, content) in enumerate(names.items())}
    data = zip_bytes({key: content for key, (_, content) in placeholders.items()})
    for key, (name, _) in placeholders.items():
        data = data.replace(key.encode("ascii"), name.encode("gbk"))
    return data


# --- Moodle (M1–M7, W1–W5) -----------------------------------------------------------------------------

def spout_csv(rows: list, bom: bool = True) -> bytes:
    """A CSV as Moodle's dataformat_csv writes it (W5): a BOM, `,`, a cell quoted only when it holds a comma,
    a quote, a backslash, a space or a line break, `\\n` line ends."""
    out = []
    for row in rows:
        out.append(",".join(f'"{value.replace(chr(34), chr(34) * 2)}"'
                            if any(c in value for c in ',"\\ \n\r\t') else value for value in row))
    return (b"\xef\xbb\xbf" if bom else b"") + ("\n".join(out) + "\n").encode("utf-8")


MOODLE_45 = ["Identifier", "Full name", "Email address", "Status", "Grade", "Maximum grade",
             "Grade can be changed", "Last modified (submission)", "Online text", "Last modified (grade)",
             "Feedback comments"]  # W1 with the 4.5 langpack's "Maximum grade" (W4)


def worksheet_row(participant: str, name: str, status: str, maximum: str = "100.00", grade: str = "",
                  hidden: str = "Participant ") -> list:
    """One row of W1's columns: Identifier is get_string('hiddenuser') . id (W2), dates as userdate (W3)."""
    submitted = "Friday, 20 November 2026, 9:15 PM" if not status.startswith("No submission") else "-"
    return [f"{hidden}{participant}", name, f"{participant}@example.edu", status, grade, maximum, "Yes", submitted,
            "", "-", ""]


def moodle_import(data: bytes, hiddenuser: str = "Participant ") -> dict:
    """What Moodle's "Upload grading worksheet" (assignfeedback_offline) takes from a CSV: the columns named
    exactly Identifier, Grade and Last modified (grade), every row as wide as the header, the participant id
    after the hiddenuser string, a grade no larger than Maximum grade; {participant id: grade} of the rows
    with a grade.  Raises AssertionError where Moodle would refuse the file or skip a row as out of range."""
    text = data.decode("utf-8")
    text = text[1:] if text.startswith("\ufeff") else text  # csv_import_reader drops the BOM
    table = list(csv.reader(io.StringIO(text)))
    header = table[0]
    for column in ("Identifier", "Grade", "Last modified (grade)"):
        assert column in header, f"Moodle would refuse the upload: no {column!r} column"
    identifier, grade, maximum = header.index("Identifier"), header.index("Grade"), header.index("Maximum grade")
    grades = {}
    for row in table[1:]:
        assert len(row) == len(header), "csvweirdcolumns: a row is not as wide as the header"
        assert row[identifier].startswith(hiddenuser), row[identifier]
        if row[grade].strip():
            value = float(row[grade].replace(",", "."))
            assert 0 <= value <= float(row[maximum].replace(",", ".")), "out of range: Moodle skips it"
            grades[row[identifier][len(hiddenuser):]] = value
    return grades


# --- Canvas (C1–C7, G1–G7) --------------------------------------------------------------------------------

def canvas_gradebook(rows: list, separator: str = ",", bom: bool = False, first_last: bool = False,
                     manual: bool = False, decimal: str = ".", sis: bool = True, points: str = "10.00") -> bytes:
    """A gradebook export (G1–G6): the student columns, `Lab08 (4241)`, `Lab09 (4242)`, totals; the Manual
    Posting row (G2) and `    Points Possible` (G3); rows (name, id, login, section, lab08, lab09, total), the
    name `Last, First`; scores with two decimals in the decimal mark given (G4, G5)."""
    def number(value: str) -> str:
        return value.replace(".", decimal)
    student = ["LastName", "FirstName"] if first_last else ["Student"]
    header = student + ["ID"] + (["SIS User ID"] if sis else []) + ["SIS Login ID", "Section", "Lab08 (4241)",
                                                                      "Lab09 (4242)", "Current Score"]
    blank = [""] * (len(student) + 2 + sis + 1)
    table = [header]
    if manual:
        table.append(blank + ["", "Manual Posting", ""])
    table.append(["    Points Possible"] + [""] * (len(student) + 2 + sis) + [number("10.00"), number(points),
                                                                            "(read only)"])
    for name, user, login, section, lab08, lab09, total in rows:
        names = [part.strip() for part in name.split(",", 1)] if first_last else [name]
        table.append(names + [user] + ([f"2023{user[-3:]}"] if sis else []) + [login, section, number(lab08), lab09,
                                                                               number(total)])
    stream = io.StringIO()
    csv.writer(stream, delimiter=separator, lineterminator="\n").writerows(table)
    return (b"\xef\xbb\xbf" if bom else b"") + stream.getvalue().encode("utf-8")
