"""Writes the class outputs into OUT all at once or not at all, with the user's umask.

Everything is first written into a staging folder inside OUT (so a full disk, a bad name or any other
failure happens before anything is replaced); then each output is renamed into place, the previous one
moved aside first; if a rename fails, what was moved is moved back.  Files get mode 0666 and folders
0777 minus the umask, as `touch` and `mkdir` would give them.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

STAGING = ".lab09-staging-"


def commit(out: Path, files: dict[str, bytes], folders: dict[str, dict[str, bytes]]) -> None:
    """Put `files` (name -> content) and `folders` (name -> {file name -> content}) into `out`, replacing
    the outputs of the same names, all or none.  Other files in `out` are left alone."""
    out.mkdir(parents=True, exist_ok=True)
    _remove_stale(out)
    staging = out / f"{STAGING}{os.getpid()}"
    shutil.rmtree(staging, ignore_errors=True)
    os.mkdir(staging)
    try:
        for name, content in files.items():
            _create(staging / name, content)
        for name, contents in folders.items():
            os.mkdir(staging / name)
            for file_name, content in contents.items():
                _create(staging / name / file_name, content)
        _swap(out, staging, [*files, *folders])
    finally:
        shutil.rmtree(staging, ignore_errors=True)


def _create(path: Path, content: bytes) -> None:
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o666)
    with os.fdopen(fd, "wb") as stream:
        stream.write(content)


def _swap(out: Path, staging: Path, names: list[str]) -> None:
    """Rename each staged output into `out`; on a failure, undo the renames already made."""
    aside = staging / ".previous"
    os.mkdir(aside)
    done: list[tuple[str, bool]] = []  # (name, whether an earlier output was moved aside)
    try:
        for name in names:
            existed = os.path.lexists(out / name)
            if existed:
                os.replace(out / name, aside / name)
            done.append((name, existed))
            os.replace(staging / name, out / name)
    except BaseException:
        for name, existed in reversed(done):
            try:
                if os.path.lexists(out / name) and not os.path.lexists(staging / name):
                    os.replace(out / name, staging / name)
                if existed:
                    os.replace(aside / name, out / name)
            except OSError:
                pass
        raise


def _remove_stale(out: Path) -> None:
    """Staging folders a killed run left behind (their process is gone)."""
    for path in out.glob(STAGING + "*"):
        pid = path.name[len(STAGING):]
        if pid.isdigit() and int(pid) != os.getpid() and not _alive(int(pid)):
            shutil.rmtree(path, ignore_errors=True)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True
