"""A child's own folder, bounded: the tmpfs a child mounts over it where it can (labkit/run/child.py), and what the
parent measures of it — that tmpfs's own count, read through the child's /proc entry, or else a walk of the folder.
The parent ends a child whose folder holds more than its bound (the submission's status is then `disk`)."""

from __future__ import annotations

import os
import stat
import sys

SLACK_BYTES = 1 << 20  # the tmpfs holds this much more than the bound, so that passing the bound can be seen
SLACK_FILES = 2  # its root, and one entry past the bound


def mount_size(bytes_bound: int, files_bound: int) -> dict:
    """What the child's tmpfs is made to hold: the bound and a little more (`SLACK_BYTES`, `SLACK_FILES`)."""
    return {"bytes": bytes_bound + SLACK_BYTES, "files": files_bound + SLACK_FILES}


class Folder:
    """One child's folder as the parent measures it: `attach` finds the child's tmpfs; `over` says whether it holds
    more than the bound (by the tmpfs's count, or by a walk of `path` where there is no tmpfs)."""

    def __init__(self, path: str, bytes_bound: int, files_bound: int):
        self.path, self.bytes_bound, self.files_bound = path, bytes_bound, files_bound
        self.fd: int | None = None  # the child's tmpfs, once attached

    def attach(self, pid: int) -> bool:
        """Open the folder the process `pid` works in (its tmpfs, in its own mount namespace: /proc/<pid>/cwd) and
        keep it if it is the tmpfs of the size the child was asked to mount (no student code has run yet)."""
        if not sys.platform.startswith("linux"):
            return False
        fd: int | None  # None once self.fd keeps it
        try:
            fd = os.open(f"/proc/{pid}/cwd", os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
        except OSError:
            return False
        wanted = mount_size(self.bytes_bound, self.files_bound)
        try:
            info = os.fstatvfs(fd)
            pages = -(-wanted["bytes"] // info.f_frsize)
            if info.f_files == wanted["files"] and info.f_blocks == pages:
                self.fd, fd = fd, None
        except OSError:
            pass
        finally:
            if fd is not None:
                os.close(fd)
        return self.fd is not None

    def usage(self) -> tuple[int, int]:
        """(bytes, files and folders) the folder holds: the tmpfs's count, or a walk that stops past the bound."""
        if self.fd is not None:
            info = os.fstatvfs(self.fd)
            return (info.f_blocks - info.f_bfree) * info.f_frsize, info.f_files - info.f_ffree - 1
        return self._walked()

    def over(self) -> bool:
        """Whether the folder holds more bytes or more files than its bound."""
        try:
            used, files = self.usage()
        except OSError:
            return False  # the child's folder is gone: it ended
        return used > self.bytes_bound or files > self.files_bound

    def _walked(self) -> tuple[int, int]:
        """A walk of the folder, never through a link, counting allocated blocks (a sparse file holds only what it
        wrote); a folder it cannot list counts as past the bound (the child hid it: chmod 000)."""
        used, files, pending = 0, 0, [self.path]
        while pending:
            folder = pending.pop()
            try:
                entries = os.scandir(folder)
            except FileNotFoundError:
                continue
            except OSError:
                if folder == self.path:
                    raise
                return used, self.files_bound + 1
            with entries:
                for entry in entries:
                    files += 1
                    if files > self.files_bound:
                        return used, files
                    try:
                        info = entry.stat(follow_symlinks=False)
                    except OSError:
                        continue
                    used += info.st_blocks * 512 if hasattr(info, "st_blocks") else info.st_size
                    if used > self.bytes_bound:
                        return used, files
                    if stat.S_ISDIR(info.st_mode):
                        pending.append(entry.path)
        return used, files

    def close(self) -> None:
        if self.fd is not None:
            os.close(self.fd)
            self.fd = None
