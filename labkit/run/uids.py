"""The uids of children of a root grader: each child an unprivileged uid of its own, which no account and no
other child on this machine has while it runs (a lock file per uid, shared by every grader here).

What `kill -1` as that uid reaches at the child's end is then that child's and nothing else.
"""

from __future__ import annotations

import errno
import os
import stat
import threading

from labkit.run.sandbox import PREFIX

UID_BASE = 61000  # unprivileged uids for children of a root grader: one per concurrent child
_lock = threading.Lock()
_uid_locks: dict = {}  # uid -> the open lock file that reserves it for this process
UID_FOLDERS = ("/run", "/var/run")  # root's own, whatever TMPDIR says; the first that exists holds the locks


def _uid_folder() -> str:
    """A folder only root can change, holding one lock file per uid in use by any grader on this machine.
    It never depends on TMPDIR (two graders with different ones must still see each other's locks)."""
    top = next((folder for folder in UID_FOLDERS if os.path.isdir(folder)), "/tmp")
    folder = os.path.join(top, f"{PREFIX}-uids")
    try:
        os.mkdir(folder, 0o700)
    except FileExistsError:
        pass
    info = os.lstat(folder)
    if info.st_uid != 0 or not stat.S_ISDIR(info.st_mode) or info.st_mode & 0o022:
        raise PermissionError(f"{folder} is not a private folder of root's")
    return folder


def _someone_has(uid: int) -> bool:
    """Whether `uid` (or the group of that number, which the child gets too) belongs to an account here:
    such a uid is never given to a child (its `kill -1` and the removal of its files would reach them)."""
    try:
        import grp
        import pwd
    except ImportError:
        return False
    for lookup in (pwd.getpwuid, grp.getgrgid):
        try:
            lookup(uid)
            return True
        except KeyError:
            continue
    return False


def take() -> int:
    """An unprivileged uid that no other child on this machine uses now and no account has: `kill -1` run as
    that uid at the end reaches this child's processes and nothing else.  A lock file (released when this
    process ends, however it ends) reserves the uid across all graders of the machine."""
    import fcntl

    base = int(os.environ.get("LAB_SANDBOX_UID", UID_BASE))
    folder = _uid_folder()
    with _lock:
        for uid in range(base, base + 4096):
            if uid in _uid_locks or _someone_has(uid):
                continue
            handle = os.open(
                os.path.join(folder, str(uid)), os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600
            )
            try:
                fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                os.close(handle)
                continue
            _uid_locks[uid] = handle
            return uid
    raise BlockingIOError(errno.EAGAIN, "no free sandbox uid")


def give_back(uid: int) -> None:
    """Release the lock that reserves `uid`: a later child may have it."""
    with _lock:
        handle = _uid_locks.pop(uid, None)
    if handle is not None:
        os.close(handle)
