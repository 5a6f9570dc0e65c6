"""Removes a folder a child wrote in, whatever it made there: a tree of any depth, folders it made unreadable
(chmod 000) or unwritable, read-only files, links, FIFOs and sockets.

Nothing recurses, no link is followed, nothing raises.  Why: docs/design.md#labkitrunremovalpy
"""

from __future__ import annotations

import errno
import os
import stat
import time

BY_DESCRIPTOR = (
    os.name != "nt" and os.scandir in os.supports_fd and {os.open, os.unlink, os.rmdir, os.stat} <= os.supports_dir_fd
)
_FOLDER = (os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC) if BY_DESCRIPTOR else 0


class Moved(OSError):
    """A folder is not the one that was listed: the tree changed under the removal, which stops there."""


class OutOfTime(OSError):
    """The removal's deadline passed: what is left stays for another time."""


def remove_tree(path: str, deadline: float | None = None) -> str | None:
    """Remove `path` (a folder, or anything else) and all it holds, stopping at `deadline` (time.monotonic())
    if one is given.  None once it is gone; else why it, or something in it, is still there (the first
    problem met; the rest is removed as far as it can be)."""
    clock = _Clock(deadline)
    try:
        if not BY_DESCRIPTOR:
            return _remove_by_path(path, clock)
        parent = os.open(os.path.dirname(os.path.abspath(path)), _FOLDER)
        try:
            return _remove_below(parent, os.path.basename(os.path.abspath(path)), clock)
        finally:
            os.close(parent)
    except FileNotFoundError:
        return None
    except (OSError, ValueError) as exc:
        return _reason(exc)


class _Clock:
    """The deadline of one removal, looked at once per folder."""

    def __init__(self, deadline: float | None):
        self.deadline = deadline

    def check(self) -> None:
        if self.deadline is not None and time.monotonic() > self.deadline:
            raise OutOfTime(errno.ETIME, "out of time, left for the next run")


def _remove_below(top: int, name: str, clock: _Clock) -> str | None:
    """Remove the entry `name` of the open folder `top`, walking down and back up one folder at a time."""
    found = os.stat(name, dir_fd=top, follow_symlinks=False)
    if not stat.S_ISDIR(found.st_mode):
        os.unlink(name, dir_fd=top)  # the folder around the tree is never changed, whoever owns it
        return None
    problems: list[str] = []
    folder = _enter(top, name, found)
    # From the top down: name, (device, inode), subfolders still to do (None: not listed yet)
    path: list[tuple[str, tuple[int, int], list[str] | None]] = [(name, _identity(found), None)]
    try:
        while path:
            clock.check()
            name, identity, todo = path[-1]
            if todo is None:
                todo = _clear_files(folder, problems)
                path[-1] = (name, identity, todo)
            if todo:
                sub = todo.pop()
                try:
                    found = os.stat(sub, dir_fd=folder, follow_symlinks=False)
                    if not stat.S_ISDIR(found.st_mode):  # replaced since it was listed
                        _writable(folder, lambda: os.unlink(sub, dir_fd=folder))
                        continue
                    inner = _enter(folder, sub, found)
                except FileNotFoundError:
                    continue
                except (Moved, OutOfTime):
                    raise
                except OSError as exc:
                    problems.append(_reason(exc, sub))
                    continue
                os.close(folder)
                folder = inner
                path.append((sub, _identity(found), None))
                continue
            path.pop()
            if not path:
                break
            above = os.open("..", _FOLDER, dir_fd=folder)
            if _identity(os.fstat(above)) != path[-1][1]:
                os.close(above)
                raise Moved(errno.ENOENT, "the tree changed while it was removed")
            os.close(folder)
            folder = above
            _attempt(problems, name, lambda: _writable(folder, lambda: os.rmdir(name, dir_fd=folder)))
    finally:
        os.close(folder)
    _attempt(problems, name, lambda: os.rmdir(name, dir_fd=top))
    return problems[0] if problems else None


def _identity(found: os.stat_result) -> tuple[int, int]:
    return found.st_dev, found.st_ino


def _enter(parent: int, name: str, listed: os.stat_result) -> int:
    """The folder `name` of `parent`, opened (made searchable first if the child had locked it), checked to be
    the folder that was listed."""
    try:
        folder = os.open(name, _FOLDER, dir_fd=parent)
    except PermissionError:
        _unlock(parent, name)
        folder = os.open(name, _FOLDER, dir_fd=parent)
    if _identity(os.fstat(folder)) != _identity(listed):
        os.close(folder)
        raise Moved(errno.ENOENT, "the tree changed while it was removed")
    return folder


def _unlock(parent: int, name: str) -> None:
    """Give the owner back every right on the folder `name` of `parent`, without following a link to it."""
    try:
        os.chmod(name, 0o700, dir_fd=parent, follow_symlinks=False)
        return
    except (NotImplementedError, OSError) as exc:
        unsupported = not isinstance(exc, OSError) or exc.errno in (errno.ENOTSUP, errno.EOPNOTSUPP, errno.EINVAL)
        if not unsupported or not hasattr(os, "O_PATH"):
            raise
    handle = os.open(name, os.O_PATH | os.O_DIRECTORY | os.O_NOFOLLOW, dir_fd=parent)  # Linux without lchmod
    try:
        os.chmod(f"/proc/self/fd/{handle}", 0o700)
    finally:
        os.close(handle)


def _writable(folder: int, change) -> None:
    """Run `change` (an unlink or rmdir in `folder`, a folder of the tree), first giving the owner write access
    to `folder` if it needs it."""
    try:
        change()
    except PermissionError:
        os.chmod(folder, 0o700)
        change()


def _clear_files(folder: int, problems: list) -> list[str]:
    """Remove every entry of `folder` that is not a folder; the names of those that are."""
    subfolders = []
    with os.scandir(folder) as entries:
        listed = [(entry.name, entry.is_dir(follow_symlinks=False)) for entry in entries]
    for name, is_folder in listed:
        if is_folder:
            subfolders.append(name)
        else:
            _attempt(problems, name, lambda: _writable(folder, lambda: os.unlink(name, dir_fd=folder)))
    return subfolders


def _attempt(problems: list, name: str, change) -> None:
    try:
        change()
    except FileNotFoundError:
        pass
    except OSError as exc:
        problems.append(_reason(exc, name))


def _reason(exc: BaseException, name: str = "") -> str:
    """A short reason, as a person reads it: the error's name and text, and the entry it was about."""
    code = errno.errorcode.get(getattr(exc, "errno", None) or 0, type(exc).__name__)
    what = getattr(exc, "strerror", None) or str(exc)
    return f"{code}: {what}" + (f" ({name!r})" if name else "")


def _remove_by_path(path: str, clock: _Clock) -> str | None:
    """The same without descriptors (Windows): entries by their paths (long ones included); a link or junction
    is removed itself, never what it points to; read-only files are made writable first."""
    if os.name == "nt" and not path.startswith("\\\\?\\"):
        path = "\\\\?\\" + os.path.abspath(path)
    problems: list[str] = []
    todo = [(path, False)]
    while todo:
        clock.check()
        current, emptied = todo.pop()
        try:
            if emptied:
                os.rmdir(current)
                continue
            found = os.lstat(current)
            attributes = getattr(found, "st_file_attributes", 0)
            link = stat.S_ISLNK(found.st_mode) or attributes & stat.FILE_ATTRIBUTE_REPARSE_POINT
            if stat.S_ISDIR(found.st_mode) and not link:
                todo.append((current, True))
                with os.scandir(current) as entries:
                    todo += [(entry.path, False) for entry in entries]
            elif link and attributes & stat.FILE_ATTRIBUTE_DIRECTORY:
                os.rmdir(current)  # a directory link or a junction: only the link goes
            elif link:
                os.unlink(current)
            else:
                _unlink_read_only(current)
        except FileNotFoundError:
            pass
        except OutOfTime:
            raise
        except OSError as exc:
            problems.append(_reason(exc, os.path.basename(current)))
    return problems[0] if problems else None


def _unlink_read_only(path: str) -> None:
    try:
        os.unlink(path)
    except PermissionError:
        os.chmod(path, stat.S_IWRITE | stat.S_IREAD)
        os.unlink(path)
