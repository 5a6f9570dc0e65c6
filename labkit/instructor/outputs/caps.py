"""Hard caps on what one student makes the grader write: their feedback file and their entry in grades.json.

Below a cap nothing changes; above it the explanations share what is left.
Why: docs/design.md#labkitinstructoroutputscapspy
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from labkit.i18n import text

FEEDBACK_BYTES = 64 << 10
RECORD_BYTES = 32 << 10
MAX_ITEMS = 50  # of a record's lists of names (files, notes) kept when the entry is over its cap
_INDENT = "    "  # an explanation's lines are indented under their [TEST] line


@dataclass(frozen=True)
class Cut:
    """Where text is cut: a file (a line costs its UTF-8 bytes and a newline) or a str inside grades.json (its
    escaped bytes and an escaped newline), the note that stands for what was left out, and the cap."""

    note_key: str
    cap: int
    indent: str = ""
    in_json: bool = False

    def size(self, line: str) -> int:
        if self.in_json:
            return utf8_size(json.dumps(line, ensure_ascii=False))  # its quotes stand for the escaped newline
        return utf8_size(line) + 1

    def note(self, left_out: int) -> str:
        return self.indent + text(self.note_key, kb=max(1, -(-left_out // 1024)), cap=self.cap >> 10)


def utf8_size(value: str) -> int:
    return len(value.encode("utf-8"))


def feedback(report: str, cap: int = FEEDBACK_BYTES) -> str:
    """`report` (a feedback file's text) within `cap` bytes: unchanged when it fits, else with its explanations
    (the indented lines under each [TEST] line) cut to fair shares of what the other lines leave."""
    if utf8_size(report) <= cap:
        return report
    cut = Cut("bounds.feedback_cut", cap, _INDENT)
    pieces: list = []  # a line kept as it is, or a list of lines: one explanation
    for line in report.split("\n"):
        if line.startswith(_INDENT):
            if not pieces or isinstance(pieces[-1], str):
                pieces.append([])
            pieces[-1].append(line)
        else:
            pieces.append(line)
    blocks = [piece for piece in pieces if isinstance(piece, list)]
    fixed = sum(cut.size(piece) for piece in pieces if isinstance(piece, str))
    shares = fair_shares([sum(map(cut.size, block)) for block in blocks], cap - fixed)
    kept = iter([cut_lines(block, share, cut) for block, share in zip(blocks, shares)])
    lines = [line for piece in pieces for line in ([piece] if isinstance(piece, str) else next(kept))]
    return hard_cut("\n".join(lines), cut)


def fair_shares(sizes: list[int], budget: int) -> list[int | None]:
    """What each of `sizes` may keep of `budget`, shared fairly: None for those that fit whole (the smallest,
    as long as they fit an equal share of what is left), an equal share for all the others."""
    shares: list[int | None] = [None] * len(sizes)
    order = sorted(range(len(sizes)), key=sizes.__getitem__)
    left = max(0, budget)
    for position, index in enumerate(order):
        share = left // (len(order) - position)
        if sizes[index] > share:
            for rest in order[position:]:
                shares[rest] = share
            break
        left -= sizes[index]
    return shares


def cut_lines(lines: list[str], share: int | None, cut: Cut) -> list[str]:
    """`lines` within `share` bytes as `cut` measures them (None: all of them), the note included.  The last
    line (an explanation's hint) is kept after the note when it is short."""
    if share is None:
        return lines
    total = sum(map(cut.size, lines))
    tail = lines[-1:] if len(lines) > 1 and cut.size(lines[-1]) <= share // 4 else []
    room = share - cut.size(cut.note(total)) - sum(map(cut.size, tail))
    kept = []
    for line in lines[: len(lines) - len(tail)]:
        if cut.size(line) > room:
            if room > cut.size(cut.indent + "…") + 16:  # worth keeping the start of a long line
                kept.append(cut_line(line, room, cut))
            break
        kept.append(line)
        room -= cut.size(line)
    return kept + [cut.note(total - sum(map(cut.size, kept + tail)))] + tail


def cut_line(line: str, room: int, cut: Cut) -> str:
    """The start of `line`, then "…", within `room` bytes as `cut` measures them."""
    head = line.encode("utf-8")[:room].decode("utf-8", "ignore")
    while head and cut.size(head + "…") > room:
        head = head[: -max(1, len(head) // 8)]
    return head + "…"


def hard_cut(report: str, cut: Cut) -> str:
    """`report` whole if within the cap, else its first lines and the note: the last resort, which holds
    whatever the lines are (thousands of notes about files, say)."""
    if utf8_size(report) <= cut.cap:
        return report
    note = cut.note(utf8_size(report))
    head = report.encode("utf-8")[: cut.cap - utf8_size(note) - 1].decode("utf-8", "ignore")
    return head[: head.rfind("\n") + 1] + note


def shared(messages: list[str], budget: int, cut: Cut) -> list[str]:
    """Several texts within `budget` bytes together, as `cut` measures their lines, each cut to a fair share."""
    split = [message.split("\n") for message in messages]
    shares = fair_shares([sum(map(cut.size, lines)) for lines in split], budget)
    return [
        message if share is None else "\n".join(cut_lines(lines, share, cut))
        for message, lines, share in zip(messages, split, shares)
    ]


def explanations(outputs: list[str], budget: int = FEEDBACK_BYTES) -> list[str]:
    """Gradescope's per-test outputs (one explanation each) within `budget` bytes together."""
    return shared(outputs, budget, Cut("bounds.feedback_cut", budget))


def written_size(document: dict) -> int:
    """The bytes a record takes in grades.json, where it sits two levels deep (four more spaces a line)."""
    shown = json.dumps(document, ensure_ascii=False, indent=2)
    return utf8_size(shown) + 4 * (shown.count("\n") + 1)


def record(document: dict, cap: int = RECORD_BYTES) -> dict:
    """`document` (one student's record) within `cap` bytes as grades.json writes it: unchanged when it fits,
    else the case messages cut to fair shares of what the rest leaves; past that (a record made of thousands
    of names), its lists of names shortened and its other texts cut too."""
    if written_size(document) <= cap:
        return document
    cut = Cut("bounds.record_cut", cap, in_json=True)
    cases = {column: dict(case) for column, case in document["cases"].items()}
    document = dict(document, cases=cases)
    columns = [column for column, case in cases.items() if case.get("message")]
    messages = [cases[column]["message"] for column in columns]
    for column in columns:
        cases[column]["message"] = ""
    budget = cap - written_size(document)  # (which counts each message's quotes once more: a few bytes spare)
    for column, message in zip(columns, shared(messages, budget, cut)):
        cases[column]["message"] = message
    if written_size(document) <= cap:
        return document
    return _names_cut(document, cap, cut)


def _names_cut(document: dict, cap: int, cut: Cut) -> dict:
    """The last resort for a record: its lists of names at most MAX_ITEMS long (then "… N more"), and its
    texts (names, notes, hints, messages) cut to fair shares of what the fixed fields leave."""
    document = dict(document)
    for key in ("files", "notes"):
        items = list(document.get(key) or [])
        if len(items) > MAX_ITEMS:
            items = items[:MAX_ITEMS] + [text("bounds.more_items", count=len(items) - MAX_ITEMS)]
        document[key] = items
    # (the dict or the list that holds a text, its key or index in it): every text the record holds
    places: list[tuple[Any, Any]] = [
        (document, key) for key in ("name", "entry", "why") if isinstance(document.get(key), str)
    ]
    places += [(document[key], index) for key in ("files", "notes") for index in range(len(document[key]))]
    places += [(case, key) for case in document["cases"].values() for key in ("hint_text", "message")]
    values = [container[key] for container, key in places]
    for container, key in places:
        container[key] = ""
    budget = cap - written_size(document)
    for (container, key), value in zip(places, values):
        container[key] = value
    shares = fair_shares([cut.size(value) for value in values], budget)
    for (container, key), value, share in zip(places, values, shares):
        if share is not None:
            container[key] = cut_line(value, share, cut) if share > 8 else ""
    return document
