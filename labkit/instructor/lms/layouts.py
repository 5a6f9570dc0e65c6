"""Recognises whose work an entry of an LMS download is, from the names each LMS's own code writes.

Canvas (C1–C6), Moodle (M1–M6) and Blackboard (B1–B3); anything else is a plain entry, one per student.
The layouts and the fact ids: docs/design.md#labkitinstructorlmslayoutspy
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

BASE58 = "[1-9A-HJ-NP-Za-km-z]"
CANVAS_ANONYMOUS = re.compile(rf"^(?P<late>LATE_)?(?P<user>anon_{BASE58}{{5}})_(?P<tail>.+)$")  # C4
CANVAS_NAMED = re.compile(r"^(?P<name>.*?)(?P<late>_LATE)?_(?P<user>\d+)_(?P<tail>.+)$")  # C1, C2 (name: ruby_word)
CANVAS_TAIL = re.compile(r"^(?:(?P<attachment>\d+)_(?P<file>.+)|(?P<entry>text|link)\.html)$")  # C1, C3
MOODLE = re.compile(r"^(?P<prefix>.+?)_assignsubmission_(?P<plugin>[a-z0-9]+)(?P<underscore>_?)(?P<file>.*)$")
MOODLE_PREFIX = re.compile(r"^(?P<name>.*)_(?P<id>\d+)$")
MOODLE_BLIND = {"participant", "participante", "参与人", "参与者", "teilnehmerin", "teilnehmer/in"}  # M1's name
BLACKBOARD = re.compile(
    r"^(?P<prefix>.+?)_attempt_(?P<stamp>\d{4}-\d\d-\d\d-\d\d-\d\d-\d\d)"
    r"(?:_(?P<file>.+)|(?P<receipt>\.txt))$"
)  # B1
RECEIPT_NAME = re.compile(r"^[^\n:：]{1,40}[:：][ \t]*(?P<name>.*?)[ \t]*\((?P<user>[^()\n]+)\)[ \t]*$")  # B2


@dataclass(frozen=True)
class Owner:
    """Whose an entry is, in which download, and where its file belongs in that student's submission."""

    layout: str  # canvas, moodle, blackboard, plain
    student: str  # the LMS's id for the student (plain: the entry's name)
    name: str = ""  # the student's name as the LMS wrote it
    late: bool | None = None  # what the download's own marker says (Canvas LATE); None when it has none
    order: str = ""  # ranks copies of a file within one upload: Canvas attachment id
    file: str = ""  # the file's own name inside the submission ("" for a Moodle folder)
    kind: str = "file"  # file, online_text, link (Canvas URL entry), receipt (Blackboard's .txt)
    attempt: str = ""  # which upload the entry is part of: Blackboard's attempt date; one upload elsewhere
    team: str = ""  # the group's name when the entry is a group's submission (Moodle teams, Canvas groups)


def recognise(entry: str, is_dir: bool) -> Owner | None:
    """The owner of a top-level entry of an LMS download, or None for a plain entry."""
    moodle = _moodle(entry, is_dir)
    if moodle or is_dir:
        return moodle
    board = BLACKBOARD.match(entry)
    if board:
        return Owner(
            "blackboard",
            board["prefix"],
            file=board["file"] or "",
            attempt=board["stamp"],
            kind="receipt" if board["receipt"] else "file",
        )
    return _canvas(entry)


def _moodle(entry: str, is_dir: bool) -> Owner | None:
    """M1, M2: a folder `<prefix>_assignsubmission_<plugin>` (4.1+) or `…_<plugin>_` (3.x), or a flat file."""
    found = MOODLE.match(entry)
    if not found:
        return None
    if is_dir and found["file"]:
        return None
    if not is_dir and not (found["underscore"] and found["file"]):
        return None
    kind = "online_text" if found["plugin"] == "onlinetext" else "file"
    prefix = MOODLE_PREFIX.match(found["prefix"])
    if prefix is None:  # a team submission of students in no group: "Default group", in the site's language
        return Owner("moodle", found["prefix"], found["prefix"], file=found["file"], kind=kind, team=found["prefix"])
    name = prefix["name"]
    if name.casefold() in MOODLE_BLIND:  # blind marking: "Participant_<id>", no name
        name = ""
    return Owner("moodle", prefix["id"], name, file=found["file"], kind=kind)


def _canvas(entry: str) -> Owner | None:
    """C1–C4: the name part (lower-cased by Canvas, so never `LATE`), the late marker, the id, then the rest."""
    found = CANVAS_ANONYMOUS.match(entry)
    late = bool(found and found["late"])
    name = ""
    if not found:
        found = CANVAS_NAMED.match(entry)
        if (
            not found
            or found["name"] != found["name"].lower()
            or not all(ruby_word(character) or character == "-" for character in found["name"])
        ):
            return None  # ("-": older Canvas wrote hyphenated slugs, C2)
        late, name = bool(found["late"]), found["name"]
    tail = CANVAS_TAIL.match(found["tail"])
    if not tail:
        return None
    if tail["entry"]:
        return Owner(
            "canvas",
            found["user"],
            name,
            late,
            file=found["tail"],
            kind="online_text" if tail["entry"] == "text" else "link",
        )
    return Owner("canvas", found["user"], name, late, tail["attachment"].zfill(20), tail["file"])


def receipt_user(text: str) -> tuple[str, str] | None:
    """(user name, name) from a Blackboard receipt's first line, in any language (B2: `Name: Wei Zhang (zw123)`,
    `Naam: …`); only the first line, since the comments below it are free text and may look like fields."""
    for line in text.splitlines():
        if line.strip():
            found = RECEIPT_NAME.match(line.strip().lstrip("\ufeff"))
            return (found["user"].strip(), found["name"]) if found else None
    return None


def blackboard_users(prefixes: list[str], receipts: dict[str, str]) -> dict[str, tuple[str, str]]:
    """Blackboard writes <assignment>_<user name>, and user names may hold `_` or `.` (B3): maps each prefix to
    (user name, name).  A receipt whose user name ends its prefix says so and names the assignment; the other
    prefixes of that assignment give their user names after it; else what follows the head all prefixes share."""
    found: dict[str, tuple[str, str]] = {}
    assignments: set[str] = set()
    for prefix in sorted(set(prefixes)):
        user = receipt_user(receipts.get(prefix, ""))
        if user and user[0] and prefix.endswith("_" + user[0]):
            found[prefix] = user
            assignments.add(prefix[: -len(user[0]) - 1])
    rest = sorted(set(prefixes) - set(found))
    shared = _shared_head(rest) if len(rest) > 1 else ""
    for prefix in rest:
        known = max((name for name in assignments if prefix.startswith(name + "_")), key=len, default=None)
        if known is not None:
            found[prefix] = (prefix[len(known) + 1 :], "")
        else:
            user_name = prefix[len(shared) :] if shared else prefix.rsplit("_", 1)[-1]
            found[prefix] = (user_name or prefix, "")
    return found


def _shared_head(prefixes: list[str]) -> str:
    """The longest `_`-ended beginning all prefixes share (the assignment's name and its `_`)."""
    first, last = min(prefixes), max(prefixes)
    size = 0
    while size < min(len(first), len(last)) and first[size] == last[size]:
        size += 1
    head = first[:size]
    return head[: head.rfind("_") + 1] if "_" in head else ""


def ruby_word(character: str) -> bool:
    """Whether a character is one Canvas keeps in a name (C1): Ruby's `[[:word:]]`, letters, marks, decimal digits
    and connector punctuation.  Python's `\\w` differs: it has no combining marks (`ọ̀`, the `i̇` that `İ` lower-cases
    to), so `adébáyọ̀olúmídé_100109_…` was no Canvas name and its student had no row."""
    category = unicodedata.category(character)
    return category[0] in "LM" or category in ("Nd", "Pc")


def canvas_slug(name: str) -> str:
    """A name as Canvas writes it into file names (C1, C2): `_<digits>_` collapsed, lower-cased, every character
    that is not a Ruby word character deleted (`Zhang, Wei` → `zhangwei`, `'other 567, guy 8'` → `other567guy8`,
    `Öztürk, İlayda` → `öztürki̇layda`)."""
    return "".join(character for character in re.sub(r"_(\d+)_", r"\1", name).lower() if ruby_word(character))


VERSION = re.compile(
    r"^(?P<stem>.+?)(?:-(?P<dash>\d+)| ?\((?P<paren>\d+)\))?"
    r"(?P<suffix>(?:\.tar)?\.[A-Za-z0-9]+)?$"
)


def version(file: str) -> tuple[str, int]:
    """("main.py", 2) for "main-2.py" (Canvas, C6) or "main (2).py" (Moodle M5, browsers);
    ("x.py", 0) for "x.py"; multi-dot suffixes stay whole ("lab-1.tar.gz" is "lab.tar.gz", 1)."""
    match = VERSION.match(file)
    if not match:
        return file, 0
    number = match["dash"] or match["paren"]
    return match["stem"] + (match["suffix"] or ""), int(number) if number else 0
