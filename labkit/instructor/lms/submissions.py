"""Turns a submissions folder into one Submission per student: which student file, which helpers, which attempt.

Ambiguity is resolved as a person would and stated in the feedback; nothing of a student's is compiled here.
Why: docs/design.md#labkitinstructorlmssubmissionspy
"""

from __future__ import annotations

import functools
import json
import re
from dataclasses import dataclass, field, replace
from datetime import datetime, timezone
from pathlib import Path, PurePosixPath

from labkit.untrusted import safe_text
from labkit.instructor.lms import downloads
from labkit.instructor.lms.archives import ArchiveError, Member, _Budget, archive_suffix, read_folder, searched
from labkit.instructor.lms.layouts import Owner, blackboard_users, recognise, version
from labkit.spec import active

MODULE = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*\.py$")
BACKUP = re.compile(r"(?i)backup|\bbak\b|^old\b|^old[-_ ]|copy|archive|previous|备份|旧|副本")
MAX_HELPERS = 20
MAX_FOUND = 8  # files named when saying what a submission holds
MAX_INSPECTED = 8 << 20  # bytes of one student's files searched for the lab's functions
RECEIPT_BYTES = 4096  # of a Blackboard receipt: its first line names the student
UNGRADABLE = ("no_student_py", "several_student_py", "bad_archive", "unsupported", "unreadable", "too_many_files")
NOT_THEIR_DOING = ("grader_error", "system_error")  # the grader or the machine failed, not the student


@dataclass(frozen=True)
class Attempt:
    """One runnable version of a student's work: the student file, the helper modules it imports, and where from."""

    source: bytes
    modules: dict = field(default_factory=dict)  # helper file name ("helper.py") -> its bytes
    files: tuple = ()  # the files used, as found in the submission
    late: bool | None = None


@dataclass(frozen=True)
class Submission:
    """One student: who, from which entries, the attempts that can run (oldest first) or why none can."""

    student: str
    entry: str
    source: bytes | None = None  # shorthand for a single attempt of just this student file
    status: str | None = None  # one of UNGRADABLE, or None
    found: tuple = ()  # what the submission holds, when that explains its status
    layout: str = "plain"
    name: str = ""
    attempts: tuple = ()
    notes: tuple = ()  # (text key, fields) pairs the feedback states
    lms_late: bool | None = None  # what the LMS says of the whole submission: the download's marker, else the
    #                               gradebook's status (roster.prepare); the counted attempt's own marker comes first
    team: str = ""  # the group's name, for a group's submission (its other members get the grade in the LMS)

    def __post_init__(self):
        if self.source is not None and not self.attempts:
            object.__setattr__(self, "attempts", (Attempt(self.source, files=(active().student_file_name,)),))

    @property
    def gradable(self) -> bool:
        return self.status is None and bool(self.attempts)

    @property
    def late(self) -> bool | None:
        """The download's marker for the attempt that counts last, else the gradebook's status, else unknown."""
        own = self.attempts[-1].late if self.attempts else None
        return self.lms_late if own is None else own


@dataclass
class _Pool:
    """Everything one student handed in: their files, tagged with the entry and attempt they came from."""

    owner: Owner
    entries: list = field(default_factory=list)
    files: list = field(default_factory=list)  # (Member, Owner of its entry)
    errors: list = field(default_factory=list)  # status strings of entries that could not be read
    paths: list = field(default_factory=list)  # (entry, Owner or None): read when the student's turn comes
    budget: _Budget = field(default_factory=_Budget)  # one for everything this student handed in


# --- a class folder -------------------------------------------------------------------------------


def discover(source: Path, skip: tuple = ()) -> list[Submission]:
    """One Submission per student in `source` (a folder, the LMS's zip or a folder holding only it: see
    downloads.py), sorted by id; ids are unique and safe as file names.  `skip` lists paths never graded (the
    output folder); earlier grading outputs are skipped too.  Students are read one at a time, so memory
    holds one student's files, not the class's."""
    with downloads.opened(source, skip) as download:
        submissions = [_resolved(pool) for pool in _pools(download.entries)]
    return sorted(unique_ids(submissions), key=lambda s: s.student)


def _pools(entries: list) -> list[_Pool]:
    """The entries grouped by student, from their names (and Blackboard's receipts); nothing else is read yet."""
    owned: dict[tuple, _Pool] = {}
    plain: list[_Pool] = []
    owners = {entry: recognise(entry.name, entry.is_dir) for entry in entries}
    board = [owner for owner in owners.values() if owner and owner.layout == "blackboard"]
    if board:
        receipts = {
            owner.student: entry.head(RECEIPT_BYTES).decode("utf-8", "replace")
            for entry, owner in owners.items()
            if owner and owner.kind == "receipt"
        }
        users = blackboard_users([owner.student for owner in board], receipts)
        owners = {
            entry: replace(owner, student=users[owner.student][0], name=users[owner.student][1])
            if owner and owner.layout == "blackboard"
            else owner
            for entry, owner in owners.items()
        }
    for entry, owner in owners.items():
        if owner is None:
            pool = _Pool(Owner("plain", _stem(entry)))
            plain.append(pool)
        else:
            owner = replace(owner, name=safe_text(owner.name, 120, False), team=safe_text(owner.team, 120, False))
            pool = owned.setdefault((owner.layout, owner.student), _Pool(owner))
            if owner.name and not pool.owner.name:
                pool.owner = replace(pool.owner, name=owner.name)
        pool.entries.append(safe_text(entry.name, 200, False))
        pool.paths.append((entry, owner))
    return list(owned.values()) + plain


def _resolved(pool: _Pool) -> Submission:
    """Read the student's entries, all against the pool's one budget, and resolve them; then let go of the
    files (what runs is in the submission's attempts)."""
    for entry, owner in pool.paths:
        shown = safe_text((owner.file if owner is not None else "") or entry.name, 200, False)
        _add_members(pool, owner, lambda budget: entry.members(shown, budget))  # bounded; nothing is extracted
    submission = resolve(pool)
    pool.paths, pool.files = [], []
    return submission


def _stem(entry) -> str:
    """A plain entry's student id: a folder's name, a file's name without its extension (.tar.gz whole)."""
    if not entry.is_file:
        return entry.name
    suffix = archive_suffix(entry.name)
    return entry.name[: -len(suffix)] if suffix else PurePosixPath(entry.name).stem


def _add_members(pool: _Pool, owner: Owner | None, members) -> None:
    """Add what `members(budget)` lists to the pool, or, when it cannot be read, the status that says why."""
    try:
        pool.files += [(member, owner) for member in members(pool.budget)]
    except ArchiveError as error:
        pool.errors.append("too_many_files" if error.args[0] == "too_many_files" else "bad_archive")
    except OSError:
        pool.errors.append("unreadable")


# --- one student ------------------------------------------------------------------------------


def resolve(pool: _Pool) -> Submission:
    """The student's Submission: their attempts, or the status that says why none can run."""
    owner = pool.owner
    marks = [entry.late for _, entry in pool.files if entry is not None and entry.late is not None]
    base = Submission(
        student=owner.student,
        entry="; ".join(pool.entries),
        layout=owner.layout,
        name=owner.name,
        team=owner.team,
        lms_late=any(marks) if marks else None,
    )
    notes = _pool_notes(pool)
    code = [(member, entry) for member, entry in pool.files if member.data is not None and _code(entry)]
    candidates = [(member, entry) for member, entry in code if _is_target(member.name)]
    if (
        not candidates
        and owner.layout == "plain"
        and len(pool.entries) == 1
        and [member.path for member, _ in code] == [pool.entries[0]]
    ):
        candidates = code  # a plain class folder: one .py file per student, named after the student
    elif not candidates:
        candidates = _defining(code)
        if len(candidates) == 1:
            notes.append(("note.renamed", {"file": candidates[0][0].path}))
    if not candidates:
        return replace(base, status=_why_none(pool), found=_listing(pool), notes=tuple(notes))
    uploads: dict[str, list] = {}
    for member, entry in candidates:
        uploads.setdefault(entry.attempt if entry else "", []).append((member, entry))
    attempts, ambiguous = [], []
    for key in sorted(uploads):
        chosen, decided = _choose(uploads[key])
        notes += decided
        if chosen is None:
            ambiguous += [member.path for member, _ in uploads[key]]
            continue
        attempts.append(_attempt(chosen, pool))
        if not chosen[0].data.strip():  # named as empty, not as a file missing the lab's functions
            notes.append(("lms.note.empty", {"file": chosen[0].path, "size": len(chosen[0].data)}))
    if ambiguous:
        return replace(base, status="several_student_py", found=tuple(sorted(ambiguous)), notes=tuple(notes))
    return replace(base, attempts=tuple(attempts), notes=tuple(notes))


def _code(owner: Owner | None) -> bool:
    return owner is None or owner.kind == "file"


def _is_target(name: str) -> bool:
    return version(name.lower())[0] == active().student_file_name


def _at_student_path(member) -> bool:
    """Whether a file lies in the student file's folder of a whole lab copy (for a student file in a folder of the lab)."""
    folder = PurePosixPath(active().student_file).parent.as_posix()
    return folder != "." and member.path.endswith(f"{folder}/{member.name}")


def _choose(upload: list) -> tuple:
    """The one student file of an upload and the decisions taken, stated in the feedback; (None, …) when a
    person could not say.  Copies of one file in one folder are versions (the LMS or a browser renamed them):
    the highest number, the newest, counts; then the rules for files in different places."""
    notes = []
    copies: dict[tuple, list] = {}
    for member, owner in upload:
        stem, number = version(member.name.lower())
        copies.setdefault((member.folder, stem), []).append(((number, owner.order if owner else ""), member))
    pool = []
    for versions in copies.values():
        versions.sort(key=lambda pair: (pair[0], pair[1].path))
        newest = versions[-1][1]
        pool.append(newest)
        if len(versions) > 1:
            notes.append(
                (
                    "lms.note.versions",
                    {"chosen": newest.path, "files": ", ".join(member.path for _, member in versions)},
                )
            )
    rules = (
        (lambda m: not _in_backup(m.path), "backup"),
        (lambda m: _at_student_path(m), "lab_copy"),
        (lambda m: m.path.count("/") == min(x.path.count("/") for x in pool), "top_level"),
        (lambda m: m.name == active().student_file_name, "exact_name"),
    )
    reasons, dropped = [], []
    for keep, reason in rules:
        if len(pool) == 1:
            break
        kept = [member for member in pool if keep(member)]
        if kept and len(kept) < len(pool):
            dropped += [member.path for member in pool if member not in kept]
            pool = kept
            reasons.append(reason)
    if len(pool) != 1:
        return None, notes
    if dropped:
        notes.append((f"note.chose_{reasons[0]}", {"chosen": pool[0].path, "others": ", ".join(dropped)}))
    return next((member, entry) for member, entry in upload if member is pool[0]), notes


# --- bounded inspection: a scan of bytes, never a parse (nothing of a student's is compiled here) -----------

_LINE_START = re.compile(rb"(?:\xef\xbb\xbf)?(?:async[ \t]+)?")
_IMPORT = re.compile(rb"\bimport\b")
_IMPORT_LINE = re.compile(
    rb"[ \t]*(?:from[ \t]+(?P<dots>\.*)[ \t]*(?P<module>[A-Za-z_][\w.]*)?[ \t]*import[ \t]*"
    rb"(?P<names>[^\n#]*)|import[ \t]+(?P<modules>[^\n#]*))"
)
_NAME = re.compile(rb"[A-Za-z_]\w*")


@functools.lru_cache(maxsize=None)
def _definition(functions: tuple) -> re.Pattern:
    """`def <one of functions>(`, with any spaces or tabs between."""
    names = b"|".join(re.escape(name.encode()) for name in functions)
    return re.compile(rb"def[ \t]+(?:" + names + rb")[ \t]*\(")


def _defining(code: list) -> list:
    """The files that define one of the lab's graded functions at their top level (a misnamed student file),
    searched in path order until MAX_INSPECTED bytes of this student's files have been looked at."""
    found, inspected = [], 0
    for member, entry in sorted(code, key=lambda pair: pair[0].path):
        inspected += len(member.data)
        if inspected > MAX_INSPECTED:
            break
        if _defines_lab_functions(member.data):
            found.append((member, entry))
    return found


def _defines_lab_functions(source: bytes) -> bool:
    """Whether a file has `def <one of the lab's graded functions>(` at the start of a line (top level)."""
    for match in _definition(active().graded_functions).finditer(source):
        start = source.rfind(b"\n", max(0, match.start() - 16), match.start()) + 1
        if start == 0 and match.start() > 16:
            continue  # the line began further back: something else comes before `def`
        if _LINE_START.fullmatch(source, start, match.start()):
            return True
    return False


def _imports(source: bytes) -> set[str]:
    """Top-level names of the modules a source imports, from its `import` and `from … import` lines (anywhere,
    indented too); a line continued with brackets is read to its closing bracket.  Over-reading costs nothing:
    a name only matters if a module of that name sits beside the student file."""
    names: set[str] = set()
    position = 0
    while True:
        found = _IMPORT.search(source, position)
        if found is None:
            return names
        start = source.rfind(b"\n", position, found.start()) + 1 or position
        end = source.find(b"\n", found.end())
        end = len(source) if end < 0 else end
        line = _IMPORT_LINE.match(source, max(start, position), end)
        if line and line["names"] is not None:
            listed = line["names"]
            if listed.lstrip().startswith(b"(") and b")" not in listed:
                close = source.find(b")", end, end + 4096)
                end = close if close >= 0 else end
                listed = source[found.end() : end]
            if line["module"] and not line["dots"]:
                names.add(line["module"].split(b".")[0].decode())
            elif line["dots"] == b"." and not line["module"]:
                names.update(name.decode() for name in _NAME.findall(listed) if name != b"as")
        elif line and line["modules"]:
            for part in line["modules"].split(b";")[0].split(b","):
                module = _NAME.match(part.strip())
                if module:
                    names.add(module.group().decode())
        position = end + 1


def _in_backup(path: str) -> bool:
    return any(BACKUP.search(part) for part in path.split("/")[:-1])


def _attempt(chosen: tuple, pool: _Pool) -> Attempt:
    member, owner = chosen
    helpers = _helpers(member, owner, pool)
    files = (member.path, *[helper.path for helper in helpers.values()])
    return Attempt(
        member.data, {name: helper.data for name, helper in helpers.items()}, files, owner.late if owner else None
    )


def _helpers(target: Member, owner: Owner | None, pool: _Pool) -> dict[str, Member]:
    """The modules beside the student file that it imports (and they import), the newest copy of each name, from
    the same upload."""
    upload = owner.attempt if owner else ""
    beside: dict[str, tuple] = {}
    for member, entry in pool.files:
        if member is target or member.data is None or member.folder != target.folder or not _code(entry):
            continue
        if (entry.attempt if entry else "") != upload:
            continue
        name, number = version(member.name)
        if not MODULE.match(name) or _is_target(name):
            continue
        rank = (number, (entry.order if entry else ""))
        if name not in beside or rank > beside[name][0]:
            beside[name] = (rank, member)
    if not beside:
        return {}  # nothing to import: no need to read the student file's imports
    assert target.data is not None  # the student file: resolve() chooses it among the files it read
    wanted: set[str] = set()
    queue = [target.data]
    chosen: dict[str, Member] = {}
    while queue and len(chosen) < MAX_HELPERS:
        for module in _imports(queue.pop()) - wanted:
            wanted.add(module)
            found = beside.get(module + ".py")
            if found:
                chosen[module + ".py"] = found[1]
                queue.append(found[1].data)
    return dict(sorted(chosen.items()))


def _pool_notes(pool: _Pool) -> list:
    notes: list[tuple[str, dict]] = []
    kinds = {entry.kind for _, entry in pool.files if entry is not None}
    if "online_text" in kinds:
        notes.append(("note.online_text", {}))
    if "link" in kinds:
        notes.append(("lms.note.link", {}))
    if "receipt" in kinds and not kinds & {"file", "online_text", "link"}:
        notes.append(("lms.note.receipt_only", {}))
    if pool.owner.team:
        notes.append(("lms.note.team", {"team": pool.owner.team}))
    skipped = [member.path for member, _ in pool.files if member.skipped and searched(member.path)]
    if skipped:
        notes.append(("note.skipped", {"files": _names(skipped)}))
    return notes


def _why_none(pool: _Pool) -> str:
    if pool.errors and not pool.files:
        return pool.errors[0]
    archives = [m for m, _ in pool.files if m.skipped and m.skipped.startswith("archive_")]
    if archives and len(archives) == len(pool.files):
        return "too_many_files" if any(m.skipped == "archive_too_many_files" for m in archives) else "bad_archive"
    if (
        pool.owner.layout == "plain"
        and len(pool.entries) == 1
        and len(pool.files) == 1
        and pool.files[0][0].path == pool.entries[0]
        and not pool.files[0][0].path.lower().endswith(".py")
    ):
        return "unsupported"
    return "no_student_py"


def _listing(pool: _Pool) -> tuple:
    """What the submission holds, briefly: visible files first, then what was skipped and why."""
    shown = [
        member.path + (f" ({member.skipped})" if member.skipped else "")
        for member, _ in pool.files
        if searched(member.path)
    ]
    first, more = _cut(shown)
    return tuple(first + [more] if more else first)


def _names(paths: list) -> str:
    first, more = _cut(paths)
    return ", ".join(first) + (f" {more}" if more else "")


def _cut(items: list) -> tuple[list, str]:
    """The first MAX_FOUND items, and "… +N" for the N left out ("" when none are)."""
    left = len(items) - MAX_FOUND
    return items[:MAX_FOUND], f"… +{left}" if left > 0 else ""


# --- ids ----------------------------------------------------------------------------------------

_UNSAFE_IN_NAMES = re.compile(r'[\\/:*?"<>|\x00-\x1f\x7f]')


def safe_id(raw: str) -> str:
    """An id that is printable and also a safe file name on every system (feedback/<id>.txt)."""
    shown = safe_text(raw, limit=120, keep_newlines=False)
    shown = _UNSAFE_IN_NAMES.sub("_", shown).strip(" .")
    return shown or "_"


def unique_ids(submissions: list[Submission]) -> list[Submission]:
    """Ids made safe and unique, also ignoring case (feedback files on macOS and Windows): an entry whose
    short id collides takes its full entry name, and what still collides gets ~2, ~3 ..."""
    ids = [safe_id(s.student) for s in submissions]
    full = [False] * len(submissions)
    while True:
        seen: dict[str, list[int]] = {}
        for index, student in enumerate(ids):
            seen.setdefault(student.casefold(), []).append(index)
        clashes = [group for group in seen.values() if len(group) > 1]
        changed = False
        for group in clashes:
            for index in group:
                if not full[index] and submissions[index].layout == "plain":
                    ids[index], full[index], changed = safe_id(submissions[index].entry), True, True
        if not changed:
            break
    taken: set[str] = set()
    for index, student in enumerate(ids):
        candidate, number = student, 1
        while candidate.casefold() in taken:
            number += 1
            candidate = f"{student}~{number}"
        taken.add(candidate.casefold())
        ids[index] = candidate
    return [replace(submission, student=student) for submission, student in zip(submissions, ids)]


def noted_late(submissions: list, penalty: int) -> list:
    """The submissions, each late one with a note for its feedback saying so and what this grader does about it
    (the course file's late penalty, or nothing: the LMS's own policy then applies)."""
    note = ("note.late_penalty", {"penalty": penalty}) if penalty else ("note.late", {})
    return [
        replace(submission, notes=(*submission.notes, note)) if submission.late else submission
        for submission in submissions
    ]


# --- Gradescope -------------------------------------------------------------------------------


def from_folder(folder: Path, student: str = "submission") -> Submission:
    """Everything in one folder is one student's work (Gradescope's /autograder/submission)."""
    pool = _Pool(Owner("plain", student), entries=[student])
    _add_members(pool, None, lambda budget: read_folder(folder, budget))  # the folder itself: read even if a link
    submission = resolve(pool)
    if submission.status == "unsupported":
        submission = replace(submission, status="no_student_py")
    return submission


def gradescope_metadata(path: Path) -> dict:
    """Who, late and attempt facts from Gradescope's submission_metadata.json ({} when it is missing or odd)."""
    try:
        document = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    if not isinstance(document, dict):
        return {}
    facts: dict[str, object] = {}
    users = [user for user in document.get("users") or [] if isinstance(user, dict) and user.get("id") is not None]
    if users:  # who submitted (a group shares one submission): seeds their generated checks; a user listed twice
        facts["student"] = safe_id("+".join(sorted({str(user["id"]) for user in users})))  # is one (S3)
    created = str(document.get("created_at") or "")
    assignment = document["assignment"] if isinstance(document.get("assignment"), dict) else {}
    due = _own_due_date(document) or str(assignment.get("due_date") or "")
    if created and due:
        facts["late"] = _instant(created) > _instant(due)
    previous = document.get("previous_submissions")
    if isinstance(previous, list):
        facts["attempt"] = len(previous) + 1
        scores = [float(p["score"]) for p in previous if isinstance(p, dict) and _number(p.get("score"))]
        if scores:
            facts["previous_best"] = max(scores)
    return facts


def _own_due_date(document: dict) -> str:
    """A student's own (extended) due date, where Gradescope lists one under users[].assignment."""
    for user in document.get("users") or []:
        if isinstance(user, dict) and isinstance(user.get("assignment"), dict) and user["assignment"].get("due_date"):
            return str(user["assignment"]["due_date"])
    return ""


def _instant(stamp: str) -> datetime:
    try:
        moment = datetime.fromisoformat(stamp.replace("Z", "+00:00"))
    except ValueError:
        return datetime.min.replace(tzinfo=timezone.utc)
    return moment if moment.tzinfo else moment.replace(tzinfo=timezone.utc)


def _number(value) -> bool:
    try:
        float(value)
    except (TypeError, ValueError):
        return False
    return True
