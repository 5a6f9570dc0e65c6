"""bubblewrap's command line for a child: every namespace new, no network, the system's and Python's files
read-only, the child's folder bound at INSIDE, and bubblewrap's own tmpfs made read-only once all is mounted.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

from labkit.run.sandbox import PREFIX

INSIDE = "/sandbox"  # the child's folder as bubblewrap shows it (a fixed path: outputs do not vary)
NOBODY = 65534


def command(python_folders: list[str]) -> list[str]:
    """bubblewrap with every namespace new, no network, the system's and Python's files read-only."""
    command = [
        shutil.which("bwrap") or "bwrap",
        "--unshare-all",
        "--die-with-parent",
        "--new-session",
        "--hostname",
        PREFIX,
        "--cap-drop",
        "ALL",
        "--uid",
        str(NOBODY),
        "--gid",
        str(NOBODY),
    ]
    for top in ("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32"):
        path = Path(top)
        if path.is_symlink():
            command += ["--symlink", os.readlink(top), top]
        elif path.is_dir():
            command += ["--ro-bind", top, top]
    for folder in python_folders:
        if not any(folder == top or folder.startswith(top + "/") for top in ("/usr", "/bin", "/lib", "/lib64")):
            command += ["--ro-bind", folder, folder]
    for single in ("/etc/ld.so.cache", "/etc/localtime"):
        command += ["--ro-bind-try", single, single]
    return command + ["--proc", "/proc", "--dev", "/dev", "--tmpfs", "/tmp"]


def read_only() -> list[str]:
    """bubblewrap's own tmpfs (its root, /tmp, /dev and so /dev/shm) made read-only once everything is mounted on
    them: with or without Landlock, the child's folder (a tmpfs of its own, labkit/run/child.py) is all it can
    write."""
    return ["--remount-ro", "/tmp", "--remount-ro", "/dev", "--remount-ro", "/"]
