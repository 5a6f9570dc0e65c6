"""Lists what a submission holds (a folder, a .zip, a .tar.gz/.tgz) without extracting anything to disk.

Bounded by one budget per student; nothing climbs out, nothing is written.
Why: docs/design.md#labkitinstructorlmsarchivespy
"""

from __future__ import annotations

import gzip
import io
import os
import stat
import struct
import tarfile
import zipfile
import zlib
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from labkit.run.engine import Limits
from labkit.untrusted import safe_text

MAX_SOURCE = Limits().source_bytes
MAX_MEMBERS = 20000  # listing is cheap: only .py files in searched folders are read
SKIPPED_DIRS = {"__MACOSX", "__pycache__", "node_modules", "site-packages", "venv"}
MAX_INFLATED = 64 << 20
MAX_DEPTH = 12
ARCHIVE_SUFFIXES = (".zip", ".tar.gz", ".tgz", ".tar")
ENTRY_BYTES = 1024  # of a zip's central directory per entry the budget has left (an honest record: 50-300)


class ArchiveError(Exception):
    """The archive cannot be read: damaged, encrypted, too large or not an archive (the reason is args[0])."""


@dataclass(frozen=True)
class Member:
    """One file inside a submission: its path (always '/'-separated, made safe) and, for .py files, its bytes."""

    path: str
    data: bytes | None = None  # read for .py files only
    skipped: str | None = None  # "link", "special", "unsafe_path": listed, never opened

    @property
    def name(self) -> str:
        return PurePosixPath(self.path).name

    @property
    def folder(self) -> str:
        parent = PurePosixPath(self.path).parent.as_posix()
        return "" if parent == "." else parent


def archive_suffix(name: str) -> str | None:
    """The archive suffix `name` ends with (case-insensitive), or None."""
    lowered = name.lower()
    return next((suffix for suffix in ARCHIVE_SUFFIXES if lowered.endswith(suffix)), None)


def searched(path: str) -> bool:
    """Whether a file at `path` counts as the student's work: hidden files and folders (macOS's `.DS_Store` and
    `._*` AppleDouble files, fact A3) and tool folders (`__MACOSX/` …) are not searched."""
    parts = path.split("/")
    return not parts[-1].startswith(".") and not any(
        part.startswith(".") or part in SKIPPED_DIRS for part in parts[:-1]
    )


def wants_data(path: str) -> bool:
    return path.lower().endswith(".py") and searched(path)


def clean_path(raw: str) -> str | None:
    """A member name as a relative '/'-path, or None when it is absolute or climbs out with `..`."""
    parts = [part for part in raw.replace("\\", "/").split("/") if part not in ("", ".")]
    if not parts or raw.startswith(("/", "\\")) or ".." in parts or ":" in parts[0]:
        return None
    return "/".join(safe_text(part, limit=200, keep_newlines=False) for part in parts)


class _Budget:
    """Counts entries and inflated bytes over one whole student (every entry, every archive however nested:
    one budget, so twenty uploads do not get twenty)."""

    def __init__(self, members: int | None = None, inflated: int | None = None):
        self.max_members = MAX_MEMBERS if members is None else members
        self.max_inflated = MAX_INFLATED if inflated is None else inflated
        self.members = 0
        self.inflated = 0

    def count_member(self, count: int = 1):
        self.members += count
        if self.members > self.max_members:
            raise ArchiveError("too_many_files")

    def members_left(self) -> int:
        return max(0, self.max_members - self.members)

    def count_bytes(self, amount: int):
        self.inflated += amount
        if self.inflated > self.max_inflated:
            raise ArchiveError("too_large")

    def room(self, amount: int) -> bool:
        """Whether `amount` more inflated bytes fit."""
        return self.inflated + amount <= self.max_inflated

    def left(self) -> "_Budget":
        """A budget for one archive inside the submission: what is left of this one (charge it back with `spend`)."""
        return _Budget(max(0, self.max_members - self.members), max(0, self.max_inflated - self.inflated))

    def spend(self, inner: "_Budget") -> None:
        """Charge what an inner budget (`left`) used, whether its archive was read or skipped."""
        self.members += inner.members
        self.inflated += inner.inflated


def read_archive(path: Path, budget: _Budget, prefix: str = "") -> list[Member]:
    """The members of the archive at `path` (a .zip, .tar.gz, .tgz or .tar)."""
    return _read_archive(path, archive_suffix(path.name), budget, prefix)


def read_archive_data(data: bytes, suffix: str, budget: _Budget, prefix: str = "") -> list[Member]:
    """The members of an archive held in memory (a student's upload inside the LMS's zip), read like one on disk."""
    return _read_archive(io.BytesIO(data), suffix, budget, prefix)


READ_ERRORS = (
    OSError,
    EOFError,
    zipfile.BadZipFile,
    zipfile.LargeZipFile,
    tarfile.TarError,
    zlib.error,
    NotImplementedError,
    RuntimeError,
    ValueError,
    UnicodeError,
)  # what a damaged archive raises


def _read_archive(source, suffix: str | None, budget: _Budget, prefix: str) -> list[Member]:
    try:
        if suffix == ".zip":
            return _read_zip(source, budget, prefix)
        if suffix in (".tar.gz", ".tgz", ".tar"):
            return _read_tar(source, budget, prefix, compressed=suffix != ".tar")
    except ArchiveError:
        raise
    except READ_ERRORS as exc:
        raise ArchiveError("damaged") from exc
    raise ArchiveError("not_an_archive")


END_RECORD = struct.Struct("<4s4H2LH")  # the end of central directory record
ZIP64_LOCATOR = struct.Struct("<4sLQL")
ZIP64_END = struct.Struct("<4sQ2H2L4Q")
CENTRAL_RECORD = 46  # bytes of a central directory record before its name, extra field and comment


@dataclass(frozen=True)
class Directory:
    """A zip's central directory as its end record states it, read before zipfile reads any of it."""

    entries: int
    """the entries it holds: as declared (zip64's count when there is one), or as many as a walk over its records
    counted, whichever is more (the walk stops one past the bound it was given, so a count that lies is caught)"""
    size: int
    """its bytes, which zipfile reads whole and turns into one ZipInfo per record"""


def zip_directory(source, most: int, most_bytes: int) -> Directory | None:
    """The central directory of the zip at `source` (a Path or a seekable binary file), found as zipfile finds it
    (the end record at the end, else the last one in the final 64 KiB, and the zip64 records before it), its
    records counted up to `most` + 1 when its size is within `most_bytes`; None when there is no end record
    (zipfile then refuses the file itself)."""
    handle = open(source, "rb") if isinstance(source, Path) else source
    try:
        handle.seek(0, 2)
        length = handle.tell()
        tail_start = max(0, length - END_RECORD.size - 0xFFFF)
        handle.seek(tail_start)
        tail = handle.read()
        at = len(tail) - END_RECORD.size
        if at < 0 or tail[at : at + 4] != b"PK\x05\x06" or tail[-2:] != b"\0\0":
            at = tail.rfind(b"PK\x05\x06")
        if at < 0 or len(tail) - at < END_RECORD.size:
            return None
        _, _, _, _, entries, size, _, _ = END_RECORD.unpack_from(tail, at)
        location = tail_start + at
        start = location - size
        if location >= ZIP64_LOCATOR.size + ZIP64_END.size:
            handle.seek(location - ZIP64_LOCATOR.size)
            if handle.read(4) == b"PK\x06\x07":
                handle.seek(location - ZIP64_LOCATOR.size - ZIP64_END.size)
                record = handle.read(ZIP64_END.size)
                if record[:4] == b"PK\x06\x06":
                    *_, entries, size, _ = ZIP64_END.unpack(record)
                    start = location - ZIP64_LOCATOR.size - ZIP64_END.size - size
        if entries > most or size > most_bytes or start < 0:
            return Directory(entries, size)
        return Directory(max(entries, _records(handle, start, size, most)), size)
    finally:
        if handle is not source:
            handle.close()


def _records(handle, start: int, size: int, most: int) -> int:
    """How many central directory records lie in the `size` bytes at `start` (zipfile makes a ZipInfo of each),
    counted up to `most` + 1, reading a MiB at a time."""
    handle.seek(start)
    buffer, at, left, count = b"", 0, size, 0

    def ensure(wanted: int) -> bool:
        nonlocal buffer, at, left
        while len(buffer) - at < wanted and left > 0:
            chunk = handle.read(min(left, 1 << 20))
            if not chunk:
                break
            buffer, at, left = buffer[at:] + chunk, 0, left - len(chunk)
        return len(buffer) - at >= wanted

    while count <= most and ensure(CENTRAL_RECORD) and buffer[at : at + 4] == b"PK\x01\x02":
        name, extra, comment = struct.unpack_from("<3H", buffer, at + 28)
        count += 1
        wanted = CENTRAL_RECORD + name + extra + comment
        if not ensure(wanted):
            break
        at += wanted
    return count


def bound_zip(source, budget: "_Budget") -> None:
    """Refuse (too_many_files) a zip whose central directory holds more entries than the budget has left, or more
    bytes than ENTRY_BYTES for each of them, before zipfile reads it (an 88 MB zip of a million folder entries
    cost the grader 14.6 s and 558 MB in zipfile alone)."""
    most = budget.members_left()
    directory = zip_directory(source, most, most * ENTRY_BYTES)
    if directory is not None and (directory.entries > most or directory.size > most * ENTRY_BYTES):
        raise ArchiveError("too_many_files")


def zip_name(info: zipfile.ZipInfo) -> str:
    """The member's name; names written by Windows tools without the UTF-8 flag are often GBK, not cp437."""
    if info.flag_bits & 0x800:
        return info.filename
    try:
        raw = info.filename.encode("cp437")
    except UnicodeEncodeError:
        return info.filename
    for encoding in ("utf-8", "gbk"):
        try:
            return raw.decode(encoding)
        except UnicodeDecodeError:
            continue
    return info.filename


def zip_is_folder(info: zipfile.ZipInfo) -> bool:
    return info.is_dir() or info.filename.endswith("\\")  # PowerShell 5.1 writes `\` separators (A1)


def _read_zip(source, budget: _Budget, prefix: str) -> list[Member]:
    members = []
    bound_zip(source, budget)
    with zipfile.ZipFile(source) as bundle:
        for info in bundle.infolist():
            budget.count_member()  # folder entries too: a million of them are no lighter than files
            if zip_is_folder(info):
                continue
            name = clean_path(zip_name(info))
            if name is None:
                members.append(Member(prefix + safe_text(info.filename, 200, False), skipped="unsafe_path"))
                continue
            member = zip_file(bundle, info, name, prefix)
            if member.data is not None:
                budget.count_bytes(len(member.data))
            members.append(member)
    return members


def zip_file(bundle: zipfile.ZipFile, info: zipfile.ZipInfo, name: str, prefix: str = "") -> Member:
    """One file of a zip as a Member (its bytes, not yet counted, when it is a .py file); links and devices are
    skipped."""
    skipped = _not_a_file(info)
    if skipped:
        return Member(prefix + name, skipped=skipped)
    data = None
    if wants_data(name):
        if info.flag_bits & 0x1:
            raise ArchiveError("encrypted")
        with bundle.open(info) as handle:
            data = read_at_most(handle, MAX_SOURCE + 1)  # never inflate more than that
    return Member(prefix + name, data)


def _not_a_file(info: zipfile.ZipInfo) -> str | None:
    """ "link" or "special" for a member that is no regular file (never opened), else None."""
    mode = info.external_attr >> 16
    if stat.S_ISLNK(mode):
        return "link"
    return "special" if stat.S_IFMT(mode) not in (0, stat.S_IFREG) else None


def read_zip_entry_file(bundle: zipfile.ZipFile, info: zipfile.ZipInfo, shown: str, budget: _Budget) -> list[Member]:
    """One file inside the LMS's zip, read as `read_entry_file` reads one on disk: an archive's contents (inflated
    into memory, which counts against the budget; archives inside it are listed, not opened), or the file."""
    budget.count_member()
    suffix = archive_suffix(shown)
    if suffix and not _not_a_file(info):
        inner = budget.left()
        try:
            return read_archive_data(_inflated(bundle, info, inner), suffix, inner, prefix=shown + "/")
        except ArchiveError as error:
            return [Member(shown, skipped=f"archive_{error.args[0]}")]
        finally:
            budget.spend(inner)
    member = zip_file(bundle, info, shown)
    if member.data is not None and not budget.room(len(member.data)):  # spent: listed, not read (as on disk)
        return [Member(shown, skipped="too_large")]
    if member.data is not None:
        budget.count_bytes(len(member.data))
    return [member]


def _inflated(bundle: zipfile.ZipFile, info: zipfile.ZipInfo, budget: _Budget) -> bytes:
    """A member's bytes, inflated at most to what is left of the budget (ArchiveError beyond it)."""
    if info.flag_bits & 0x1:
        raise ArchiveError("encrypted")
    if not budget.room(info.file_size):  # too large as declared: skipped before inflating a byte
        raise ArchiveError("too_large")
    try:
        with bundle.open(info) as handle:
            data = handle.read(budget.max_inflated - budget.inflated + 1)  # a size that lies stops here
    except READ_ERRORS as exc:
        raise ArchiveError("damaged") from exc
    budget.count_bytes(len(data))
    return data


class _Bounded:
    """A read-only stream that stops (ArchiveError) once the budget's inflated bytes run out."""

    def __init__(self, stream, budget: _Budget):
        self.stream, self.budget = stream, budget

    def read(self, size: int = -1) -> bytes:
        chunk = self.stream.read(size if size is not None and size >= 0 else 1 << 20)
        self.budget.count_bytes(len(chunk))
        return chunk


def _read_tar(source, budget: _Budget, prefix: str, compressed: bool) -> list[Member]:
    members = []
    with open(source, "rb") if isinstance(source, Path) else source as raw:
        stream = gzip.GzipFile(fileobj=raw, mode="rb") if compressed else raw
        # One pass, nothing seeks: a stream ("r|") is only read, though typeshed asks every fileobj to write and seek
        with tarfile.open(fileobj=_Bounded(stream, budget), mode="r|") as tar:  # type: ignore[call-overload]
            for info in tar:
                budget.count_member()  # folders too (tarfile keeps every member it has read)
                if info.isdir():
                    continue
                name = clean_path(info.name)
                if name is None:
                    members.append(Member(prefix + safe_text(info.name, 200, False), skipped="unsafe_path"))
                elif info.issym() or info.islnk():
                    members.append(Member(prefix + name, skipped="link"))
                elif not info.isfile():
                    members.append(Member(prefix + name, skipped="special"))
                elif wants_data(name):
                    handle = tar.extractfile(info)
                    members.append(Member(prefix + name, read_at_most(handle, MAX_SOURCE + 1) if handle else b""))
                else:
                    members.append(Member(prefix + name))
    return members


def read_folder(folder: Path, budget: _Budget) -> list[Member]:
    """The files under `folder` (links listed, never followed); archives among them are opened, one level."""
    members: list[Member] = []
    for top, dirs, files in os.walk(folder, followlinks=False):
        relative = Path(top).relative_to(folder)
        depth = len(relative.parts)
        kept = []
        for name in sorted(dirs):
            full = os.path.join(top, name)
            budget.count_member()  # a folder is an entry, as in a zip (a million empty ones cost a walk)
            if os.path.islink(full):
                members.append(Member(_join(relative, name), skipped="link"))
            elif depth < MAX_DEPTH and searched(_join(relative, name) + "/"):
                kept.append(name)
        dirs[:] = kept
        for name in sorted(files):
            members.extend(read_entry_file(Path(top) / name, _join(relative, name), budget))
    return members


def _join(relative: Path, name: str) -> str:
    return "/".join(safe_text(part, 200, False) for part in (*relative.parts, name))


def read_entry_file(path: Path, shown: str, budget: _Budget) -> list[Member]:
    """One file on disk as members: an archive's contents (under 'name.zip/...'; archives inside it are
    listed, not opened), or the file itself."""
    budget.count_member()
    if archive_suffix(shown) and os.path.isfile(path) and not os.path.islink(path):
        inner = budget.left()  # what the student has left: an archive too big for it is skipped, not the student
        try:
            return read_archive(path, inner, prefix=shown + "/")
        except ArchiveError as error:
            return [Member(shown, skipped=f"archive_{error.args[0]}")]
        finally:
            budget.spend(inner)
    return [read_file(path, shown, budget)]


def read_at_most(handle, limit: int) -> bytes:
    """At most `limit` bytes of `handle`, read 64 KiB at a time: one read(limit) reserves `limit` bytes, and
    for each small file kept that costs a page-rounded block of its own (4 KiB for 1 KiB of source)."""
    chunks = []
    while limit > 0:
        chunk = handle.read(min(limit, 1 << 16))
        if not chunk:
            break
        chunks.append(chunk)
        limit -= len(chunk)
    return b"".join(chunks)


def read_file(path: Path, shown: str, budget: _Budget) -> Member:
    """One file of a folder as a Member (its bytes when it is a .py file); links and devices are skipped."""
    try:
        info = os.lstat(path)
    except OSError:
        return Member(shown, skipped="unreadable")
    if stat.S_ISLNK(info.st_mode):
        return Member(shown, skipped="link")
    if not stat.S_ISREG(info.st_mode):
        return Member(shown, skipped="special")
    if not wants_data(shown):
        return Member(shown)
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0))
        with os.fdopen(fd, "rb") as handle:
            data = read_at_most(handle, MAX_SOURCE + 1)
    except OSError:
        return Member(shown, skipped="unreadable")
    if not budget.room(len(data)):  # the student's budget is spent: listed, not read
        return Member(shown, skipped="too_large")
    budget.count_bytes(len(data))
    return Member(shown, data)
