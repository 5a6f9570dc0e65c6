"""Recognises whose work an entry of an LMS export is, from the names Canvas, Moodle and Blackboard give.

Canvas "Download submissions":  <name>[_LATE]_<user id>_<attachment id>_<file>  (repeated uploads of one
                                 file become <file>-1, <file>-2 ...), online text as <name>[_LATE]_<id>_text.html
Moodle "Download all submissions":  folders <Full Name>_<participant id>_assignsubmission_file_/ (and
                                 ..._onlinetext_/), or flat files <Full Name>_<id>_assignsubmission_file_<file>
Blackboard "Assignment File Download":  <assignment>_<username>_attempt_<YYYY-MM-DD-HH-MM-SS>_<file>, with a
                                 <assignment>_<username>_attempt_<date>.txt that names the student
Anything else is a plain entry: one folder or file per student, named after the student.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

CANVAS = re.compile(r"^(?P<name>.*?)(?P<late>_LATE)?_(?P<user>\d+|anon_[A-Za-z0-9]+)_(?P<order>\d+)_(?P<file>.+)$")
CANVAS_TEXT = re.compile(r"^(?P<name>.*?)(?P<late>_LATE)?_(?P<user>\d+|anon_[A-Za-z0-9]+)_(?P<file>text\.html|link\.html)$")
MOODLE = re.compile(r"^(?P<name>.+?)_(?P<user>\d+)_assignsubmission_(?P<plugin>[a-z]+)_(?P<file>.*)$")
BLACKBOARD = re.compile(r"^(?P<prefix>.+)_attempt_(?P<order>\d{4}-\d\d-\d\d-\d\d-\d\d-\d\d)(?:_(?P<file>.+)|(?P<receipt>\.txt))$")
BLACKBOARD_NAME = re.compile(r"^Name:\s*(?P<name>.*?)\s*\((?P<user>[^()]+)\)\s*$", re.M)


@dataclass(frozen=True)
class Owner:
    """Whose an entry is, in which export, and where its file belongs in that student's submission."""

    layout: str  # canvas, moodle, blackboard, plain
    student: str  # the LMS's id for the student (plain: the entry's name)
    name: str = ""  # the student's name as the LMS wrote it
    late: bool | None = None
    order: str = ""  # sorts the student's files by time: Canvas attachment id, Blackboard date
    file: str = ""  # the file's own name inside the submission ("" for a Moodle folder)
    kind: str = "file"  # file, online_text (not code), receipt (Blackboard's .txt)


def recognise(entry: str, is_dir: bool) -> Owner | None:
    """The owner of a top-level entry of an LMS export, or None for a plain entry."""
    moodle = MOODLE.match(entry)
    if moodle and (is_dir and moodle["file"] == "" or not is_dir and moodle["file"]):
        kind = "file" if moodle["plugin"] == "file" else "online_text"
        return Owner("moodle", moodle["user"], moodle["name"], file=moodle["file"], kind=kind)
    if is_dir:
        return None
    board = BLACKBOARD.match(entry)
    if board:
        return Owner("blackboard", board["prefix"], order=board["order"], file=board["file"] or "",
                     kind="receipt" if board["receipt"] else "file")
    text = CANVAS_TEXT.match(entry)
    if text:
        return Owner("canvas", text["user"], text["name"], bool(text["late"]), "", text["file"], "online_text")
    canvas = CANVAS.match(entry)
    if canvas:
        return Owner("canvas", canvas["user"], canvas["name"], bool(canvas["late"]), canvas["order"].zfill(20),
                     canvas["file"])
    return None


def blackboard_users(owners: list[Owner], receipts: dict[str, str]) -> dict[str, tuple[str, str]]:
    """Blackboard writes <assignment>_<username>; the receipt .txt names the user ("Name: Wei Zhang (zw123)").
    Maps each prefix to (username, name): from its receipts, else after the prefix all entries share."""
    prefixes = sorted({owner.student for owner in owners})
    found = {}
    for prefix in prefixes:
        match = BLACKBOARD_NAME.search(receipts.get(prefix, ""))
        if match and prefix.endswith("_" + match["user"]):
            found[prefix] = (match["user"], match["name"])
    shared = _shared_head(prefixes) if len(prefixes) > 1 else ""
    for prefix in prefixes:
        if prefix not in found:
            user = prefix[len(shared):] if shared else prefix.rsplit("_", 1)[-1]
            found[prefix] = (user or prefix, "")
    return found


def _shared_head(prefixes: list[str]) -> str:
    """The longest `_`-ended beginning all prefixes share (the assignment's name and its `_`)."""
    first, last = min(prefixes), max(prefixes)
    size = 0
    while size < min(len(first), len(last)) and first[size] == last[size]:
        size += 1
    head = first[:size]
    return head[:head.rfind("_") + 1] if "_" in head else ""


VERSION = re.compile(r"^(?P<stem>.+?)(?:-(?P<dash>\d+)| ?\((?P<paren>\d+)\))?(?P<suffix>\.[A-Za-z0-9]+)?$")


def version(file: str) -> tuple[str, int]:
    """("student.py", 2) for "student-2.py" (Canvas) or "student (2).py" (browsers); ("x.py", 0) for "x.py"."""
    match = VERSION.match(file)
    if not match:
        return file, 0
    number = match["dash"] or match["paren"]
    return match["stem"] + (match["suffix"] or ""), int(number) if number else 0
