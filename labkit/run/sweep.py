"""What a child of a uid of its own left in the folders anyone may write (/tmp, /var/tmp, /dev/shm …), removed
once its processes have ended: only what that uid owns, only in root's sticky folders, never through a link.
"""

from __future__ import annotations

import os
import stat
import tempfile

from labkit.run import removal

# Folders anyone may write (sticky, like /tmp): what a child of a uid of its own could leave files in.
SHARED_FOLDERS = ("/tmp", "/var/tmp", "/dev/shm", "/dev/mqueue", "/run/lock", "/var/lock", "/Users/Shared")


def remove_files_of(uid: int, keep: str = "") -> int:
    """Remove what `uid` (a uid of a child's own, its processes already ended) left in the folders anyone may
    write: whatever it owns at the top of each, and in the sticky world-writable folders of root's inside them
    (/tmp/.X11-unix …); a folder it owns goes whole.  Only root's sticky folders are searched: there no other
    user can rename an entry, or a folder on the way to it, while it is removed.  `keep` (the child's own
    folder, which its parent removes) stays.  Returns how many entries went."""
    removed, seen, budget = 0, set(), [20_000]  # entries looked at, at most: /tmp may be large
    for top in SHARED_FOLDERS + (tempfile.gettempdir(),):
        real = os.path.realpath(top)
        if real not in seen:
            seen.add(real)
            removed += _sweep(real, uid, os.path.realpath(keep) if keep else "", budget, depth=3)
    return removed


def _sweep(folder: str, uid: int, keep: str, budget: list, depth: int) -> int:
    try:
        fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC)
    except OSError:
        return 0
    try:
        info = os.fstat(fd)
        if info.st_uid != 0 or info.st_mode & (stat.S_ISVTX | stat.S_IWOTH) != stat.S_ISVTX | stat.S_IWOTH:
            return 0
        names = []
        with os.scandir(fd) as entries:
            for entry in entries:
                budget[0] -= 1
                if budget[0] < 0:
                    break
                names.append(entry.name)
        removed = 0
        for name in names:
            path = os.path.join(folder, name)
            try:
                found = os.stat(name, dir_fd=fd, follow_symlinks=False)
            except OSError:
                continue
            if path == keep:
                continue
            if found.st_uid == uid and stat.S_ISDIR(found.st_mode):
                removal.remove_tree(path)  # every folder on its path is root's and sticky: nobody else can swap one
                removed += 1
            elif found.st_uid == uid:
                try:
                    os.unlink(name, dir_fd=fd)
                    removed += 1
                except OSError:
                    continue
            elif stat.S_ISDIR(found.st_mode) and depth > 0:
                removed += _sweep(path, uid, keep, budget, depth - 1)
        return removed
    finally:
        os.close(fd)
