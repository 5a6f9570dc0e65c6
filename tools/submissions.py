"""Finds each student's student.py in a submissions folder: a sub-folder, a .py file or a .zip per student."""

from __future__ import annotations

import zipfile
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from framework.harness.engine import Limits

TARGET = "student.py"
SKIPPED_DIRS = {"__MACOSX", "__pycache__", "node_modules"}


def _searched(folders) -> bool:
    """Whether a student.py under these folders counts: hidden and tool folders are not searched."""
    return not any(part.startswith(".") or part in SKIPPED_DIRS for part in folders)
MAX_SOURCE = Limits().source_bytes  # read one byte more, so that the engine can say "too large"


@dataclass(frozen=True)
class Submission:
    """One input entry: who it is, and either the source of its student.py or why there is none."""

    student: str
    entry: str
    source: bytes | None = None
    status: str | None = None  # no_student_py, several_student_py, bad_zip, unsupported, unreadable
    found: tuple = ()  # where student.py files were found inside the entry

    @property
    def gradable(self) -> bool:
        return self.status is None


def discover(folder: Path) -> list[Submission]:
    """One Submission per visible entry of `folder`, sorted by student id (ids made unique)."""
    entries = sorted(p for p in folder.iterdir() if not p.name.startswith("."))
    stems = [entry.stem if entry.is_file() else entry.name for entry in entries]
    submissions = []
    for entry, stem in zip(entries, stems):
        student = stem if stems.count(stem) == 1 else entry.name
        submissions.append(read_entry(entry, student))
    return sorted(submissions, key=lambda s: s.student)


def read_entry(entry: Path, student: str) -> Submission:
    try:
        if entry.is_dir():
            return from_folder(entry, student)
        if entry.suffix == ".py":
            return Submission(student, entry.name, source=_read(entry), found=(entry.name,))
        if entry.suffix == ".zip":
            return from_zip(entry, student)
    except OSError:
        return Submission(student, entry.name, status="unreadable")
    return Submission(student, entry.name, status="unsupported")


def from_folder(folder: Path, student: str, entry: str | None = None) -> Submission:
    """The one student.py anywhere inside `folder` (hidden and cache folders are not searched)."""
    found = sorted(p for p in folder.rglob(TARGET)
                   if p.is_file() and _searched(p.relative_to(folder).parts[:-1]))
    names = tuple(p.relative_to(folder).as_posix() for p in found)
    entry = entry or folder.name
    if len(found) != 1:
        return Submission(student, entry, status="no_student_py" if not found else "several_student_py", found=names)
    return Submission(student, entry, source=_read(found[0]), found=names)


def from_zip(archive: Path, student: str) -> Submission:
    try:
        with zipfile.ZipFile(archive) as bundle:
            members = [info for info in bundle.infolist() if not info.is_dir()
                       and PurePosixPath(info.filename).name == TARGET
                       and _searched(PurePosixPath(info.filename).parts[:-1])]
            names = tuple(sorted(info.filename for info in members))
            if len(members) != 1:
                status = "no_student_py" if not members else "several_student_py"
                return Submission(student, archive.name, status=status, found=names)
            with bundle.open(members[0]) as handle:
                source = handle.read(MAX_SOURCE + 1)  # never inflate more than that (zip bombs)
            return Submission(student, archive.name, source=source, found=names)
    except (zipfile.BadZipFile, zipfile.LargeZipFile, NotImplementedError, RuntimeError, ValueError, EOFError):
        return Submission(student, archive.name, status="bad_zip")


def _read(path: Path) -> bytes:
    with open(path, "rb") as handle:
        return handle.read(MAX_SOURCE + 1)
