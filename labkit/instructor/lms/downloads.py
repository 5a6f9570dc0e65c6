"""What SUBMISSIONS names: a class folder, the LMS's download as the zip it comes in, or a folder holding only it.

An LMS's zip is read where it lies, never extracted.  Why: docs/design.md#labkitinstructorlmsdownloadspy
"""

from __future__ import annotations

import os
import zipfile
from collections import Counter
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from labkit.i18n import text
from labkit.untrusted import safe_text
from labkit.instructor.lms.archives import (
    MAX_DEPTH,
    READ_ERRORS,
    ArchiveError,
    Member,
    _Budget,
    archive_suffix,
    clean_path,
    read_entry_file,
    read_folder,
    read_zip_entry_file,
    searched,
    zip_directory,
    zip_is_folder,
    zip_name,
)
from labkit.instructor.lms.layouts import recognise

LAYOUT_NAMES = {"canvas": "Canvas", "moodle": "Moodle", "blackboard": "Blackboard"}
CLASS_MEMBERS = 100_000  # entries of the LMS's zip read at most (each student's own budget then applies)
CLASS_DIRECTORY = 64 << 20  # bytes of its central directory


class Refused(Exception):
    """SUBMISSIONS is not something to grade: args[0] is the one line that says what was found and what to pass."""


@dataclass(frozen=True)
class DiskEntry:
    """A top-level file or folder of a class folder on disk."""

    path: Path

    @property
    def name(self) -> str:
        return self.path.name

    @property
    def is_dir(self) -> bool:
        return self.path.is_dir()

    @property
    def is_file(self) -> bool:
        return self.path.is_file()

    def head(self, size: int) -> bytes:
        """The first `size` bytes of a file (b"" when it cannot be read)."""
        try:
            with open(self.path, "rb") as handle:
                return handle.read(size)
        except OSError:
            return b""

    def members(self, shown: str, budget: _Budget) -> list[Member]:
        """Its files, bounded by the student's budget; links are listed, never followed."""
        if self.path.is_symlink():
            return [Member(safe_text(self.path.name, 200, False), skipped="link")]
        if self.path.is_dir():
            return read_folder(self.path, budget)
        return read_entry_file(self.path, shown, budget)


@dataclass(frozen=True)
class ZipEntry:
    """A top-level file or folder inside the LMS's zip: read from the zip, never extracted."""

    bundle: zipfile.ZipFile
    name: str
    is_dir: bool
    files: tuple = ()  # (path inside the entry, or None for a name that climbs out; its ZipInfo); a file: ("", info)
    folders: int = 0  # the folder entries read_folder would list in it (each counts, as on disk)

    @property
    def is_file(self) -> bool:
        return not self.is_dir

    def head(self, size: int) -> bytes:
        try:
            with self.bundle.open(self.files[0][1]) as handle:
                return handle.read(size)
        except (IndexError, *READ_ERRORS):
            return b""

    def members(self, shown: str, budget: _Budget) -> list[Member]:
        """Its files as `DiskEntry.members` lists them on disk: a folder's in walk order, archives among them
        opened one level (in memory, counted against the budget), a file as itself or its archive's contents."""
        members = []
        try:
            budget.count_member(self.folders)
            for path, info in self.files:
                if path is None:
                    budget.count_member()
                    members.append(Member(shown, skipped="unsafe_path"))
                else:
                    members += read_zip_entry_file(self.bundle, info, path or shown, budget)
        except ArchiveError:
            raise
        except READ_ERRORS as exc:
            raise ArchiveError("damaged") from exc
        return members


@dataclass
class Download:
    """The class's entries, and where they were read from: `kind` is folder, zip (SUBMISSIONS is the LMS's
    zip), folder_zip (a folder holding only it) or student_zip (a zip in no LMS layout: one student's)."""

    source: Path
    kind: str
    entries: list = field(default_factory=list)
    zip: str = ""  # the zip's file name, when the entries come from one

    def layouts(self) -> Counter:
        """How many entries each layout recognises (plain: none does)."""
        return Counter(_layout(entry) for entry in self.entries)

    def line(self) -> str:
        """What the terminal's summary says of SUBMISSIONS: which layout was recognised, in what."""
        counted = self.layouts()
        parts = [
            text("download.layout", layout=LAYOUT_NAMES.get(layout) or text("download.plain"), count=count)
            for layout, count in sorted(counted.items(), key=lambda pair: (pair[0] == "plain", pair[0]))
        ]
        layouts = text("download.and").join(parts) or text("download.empty")
        source = safe_text(self.source.name, 200, False)
        if self.kind == "student_zip":
            return text("download.student_zip", zip=source)
        if self.kind == "folder":
            return text("download.folder", folder=source, layouts=layouts)
        return text(f"download.{self.kind}", folder=source, zip=safe_text(self.zip, 200, False), layouts=layouts)


def readable(source: Path) -> bool:
    """Whether SUBMISSIONS can be graded: a folder, or a .zip file."""
    return source.is_dir() or (source.is_file() and archive_suffix(source.name) == ".zip")


LOOKED_AT = 2000  # names of one folder looked at when seeking a download one level down
FEW = 20  # a folder of more entries than this is a class, not a TA's folder with a download in it


def refusal(source: Path, skip: tuple = (), given: Path | None = None) -> str | None:
    """Why SUBMISSIONS is no class to grade, in one line that says what was found and what to pass instead; None
    when it is one.  Refused: a path that does not exist (shown as resolved: make -C runs in the lab), a file that
    is not a zip, one that cannot be read, a zip larger than a class's download, a folder of at most FEW entries that
    holds an LMS download one level down and none of its own ("did you mean …/submissions?"), a folder where nothing
    looks like a submission (no .py or archive in it).  `given`: the path as typed, when `source` is it made
    absolute."""
    shown = safe_text(str(Path(os.path.abspath(source))), 300, False)
    given = source if given is None else given
    if not source.exists() and not source.is_symlink():
        if given.is_absolute():
            return text("download.missing", source=shown)
        return text("download.missing_relative", source=shown, given=safe_text(str(given), 300, False))
    if not readable(source):
        return text("download.not_a_class", source=shown)
    try:  # one that cannot be read is said to be so, not taken for an OUT that could not be written
        os.listdir(source) if source.is_dir() else source.open("rb").close()
        with opened(source, skip) as download:
            if download.kind != "folder" or any(_layout(entry) != "plain" for entry in download.entries):
                return None
            entries = download.entries
            below = [entry for entry in entries if _holds_a_download(entry)] if len(entries) <= FEW else []
    except Refused as refused:
        return str(refused)
    except OSError as error:
        return text("download.unreadable", source=shown, error=safe_text(str(error), 300, False))
    if below:
        return text(
            "download.one_level_down",
            source=shown,
            found=_few([entry.name for entry in entries]),
            meant=" / ".join(safe_text(str(entry.path), 300, False) for entry in below[:3]),
        )
    if not any(_holds_code(entry) for entry in entries):
        return text("download.nothing", source=shown, found=_few([entry.name for entry in entries]) or "—")
    return None


def _code_file(name: str) -> bool:
    """Whether a file could be (part of) a student's submission: a .py or an archive."""
    return name.lower().endswith(".py") or archive_suffix(name) is not None


def _holds_code(entry: DiskEntry) -> bool:
    """Whether a top-level entry looks like a submission: a .py or an archive, or a folder with one among its first
    LOOKED_AT names."""
    if not entry.is_dir or entry.path.is_symlink():
        return _code_file(entry.name)
    looked = 0
    for _, folders, files in os.walk(entry.path):
        if any(_code_file(name) for name in files):
            return True
        looked += len(folders) + len(files)
        if looked >= LOOKED_AT:
            return False
    return False


def _holds_a_download(entry: DiskEntry) -> bool:
    """Whether a top-level entry of a folder is an LMS download itself: a folder most of whose (first LOOKED_AT)
    names, two at least, are in an LMS layout, or a zip `_lms_zip` reads as one."""
    if entry.path.is_symlink():
        return False
    if entry.is_dir:
        names = []
        with os.scandir(entry.path) as listing:
            for item in listing:
                if _counted(item.name):
                    names.append(recognise(item.name, item.is_dir(follow_symlinks=False)) is not None)
                if len(names) >= LOOKED_AT:
                    break
        return sum(names) >= 2 and 2 * sum(names) > len(names)
    if entry.is_file and archive_suffix(entry.name) == ".zip":
        try:
            with _lms_zip(entry.path) as entries:
                return entries is not None
        except Refused:
            return False
    return False


def _few(names: list, shown: int = 6) -> str:
    shown_names = [safe_text(name, 80, False) for name in names[:shown]]
    return ", ".join(shown_names) + (f" … +{len(names) - shown}" if len(names) > shown else "")


def describe(source: Path, skip: tuple = ()) -> str:
    """The terminal's line naming the layout recognised in SUBMISSIONS (the same reading `opened` does)."""
    try:
        with opened(source, skip) as download:
            return download.line()
    except Refused as refused:
        return str(refused)
    except OSError as error:
        return text(
            "download.unreadable", source=safe_text(str(source), 300, False), error=safe_text(str(error), 300, False)
        )


@contextmanager
def opened(source: Path, skip: tuple = ()):
    """The Download SUBMISSIONS names (its zip, if any, open until the block ends).  `skip` lists paths never
    graded (the output folder); earlier grading outputs are skipped too."""
    if source.is_dir():
        skipped = {os.path.realpath(path) for path in skip}
        paths = [
            path
            for path in sorted(source.iterdir())
            if _counted(path.name) and os.path.realpath(path) not in skipped and not is_grading_output(path)
        ]
        only = paths[0] if len(paths) == 1 else None
        if only is not None and archive_suffix(only.name) == ".zip" and only.is_file() and not only.is_symlink():
            with _lms_zip(only) as entries:
                if entries is not None:
                    yield Download(source, "folder_zip", entries, only.name)
                    return
        yield Download(source, "folder", [DiskEntry(path) for path in paths])
        return
    with _lms_zip(source) as entries:
        if entries is None:
            yield Download(source, "student_zip", [DiskEntry(source)])
        else:
            yield Download(source, "zip", entries, source.name)


def is_grading_output(path: Path) -> bool:
    """Whether `path` is a folder `make grade` wrote (grades.csv, grades.json and report.html)."""
    return (
        path.is_dir()
        and not path.is_symlink()
        and all((path / name).is_file() for name in ("grades.csv", "grades.json", "report.html"))
    )


@contextmanager
def _lms_zip(path: Path):
    """The top-level entries of the zip at `path` if most of them are named in an LMS layout, else None (also
    for a zip that cannot be opened: it is then one student's damaged archive).  Refused when its central
    directory is larger than a class's download (CLASS_MEMBERS, CLASS_DIRECTORY), before zipfile reads it."""
    try:
        directory = zip_directory(path, CLASS_MEMBERS, CLASS_DIRECTORY)
    except OSError:
        directory = None
    if directory is not None and (directory.entries > CLASS_MEMBERS or directory.size > CLASS_DIRECTORY):
        raise Refused(
            text(
                "download.too_many",
                zip=safe_text(path.name, 200, False),
                entries=directory.entries,
                megabytes=directory.size / (1 << 20),
                most=CLASS_MEMBERS,
            )
        )
    try:
        bundle = zipfile.ZipFile(path)
    except READ_ERRORS:
        yield None
        return
    with bundle:
        entries = _zip_entries(bundle)
        recognised = sum(_layout(entry) != "plain" for entry in entries)
        yield entries if 2 * recognised > len(entries) else None


def _zip_entries(bundle: zipfile.ZipFile) -> list[ZipEntry]:
    """The zip's top-level entries, sorted by name; a folder's files in the order `read_folder` walks them,
    without what it never walks into (hidden and tool folders, beyond MAX_DEPTH)."""
    found: dict[tuple, list] = {}
    folders: Counter = Counter()
    for info in bundle.infolist():
        name = clean_path(zip_name(info))
        if name is None:  # absolute or climbing out: an entry of its own, listed as such, never opened
            found.setdefault((safe_text(info.filename, 200, False), False), []).append((None, info))
            continue
        top, _, rest = name.partition("/")
        if not _counted(top):
            continue
        if not rest and not zip_is_folder(info):
            found.setdefault((top, False), []).append(("", info))
            continue
        files = found.setdefault((top, True), [])
        listed = rest and searched(rest.rpartition("/")[0] + "/") and rest.count("/") <= MAX_DEPTH
        if listed and zip_is_folder(info):
            folders[top] += 1  # a folder read_folder lists (it walks only into those it searches)
        elif listed:
            files.append((rest, info))
    return [
        ZipEntry(
            bundle,
            name,
            folder,
            tuple(sorted(files, key=lambda pair: _walk_order(pair[0]))),
            folders[name] if folder else 0,
        )
        for (name, folder), files in sorted(found.items())
    ]


def _walk_order(path: str | None) -> tuple:
    """Sorts paths as os.walk with sorted names meets them: a folder's own files before its sub-folders'."""
    if path is None:
        return ()
    *folders, file = path.split("/")
    return (*[(1, folder) for folder in folders], (0, file))


def _counted(name: str) -> bool:
    """Whether a top-level name is a class entry: not hidden, not macOS's __MACOSX (A3)."""
    return not name.startswith(".") and name != "__MACOSX"


def _layout(entry) -> str:
    owner = recognise(entry.name, entry.is_dir)
    return owner.layout if owner else "plain"
