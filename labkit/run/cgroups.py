"""A pids cgroup for each child of a root grader that cannot give it a uid of its own (root's processes know
no RLIMIT_NPROC): made allowing PROCESSES processes, removed with whatever is still in it when the child ends,
and the ones of graders that died cleared away.  None where the machine gives no writable pids cgroup.
"""

from __future__ import annotations

import itertools
import os
import signal
import threading
import time
from typing import Literal

from labkit.run.sandbox import IS_LINUX, PREFIX, PROCESSES, is_root

_lock = threading.Lock()
# The folder children's cgroups go in, None where there is none; False: not looked for
_cgroup_base: str | None | Literal[False] = False
_cgroup_serial = itertools.count()
CGROUP_REFUSED = f"{PREFIX}: cannot enter pids cgroup"  # what the child says (then it is started without one)
# The child moves itself into its cgroup before it becomes bubblewrap or Python, so all it starts is counted.
INTO_CGROUP = f'echo $$ >"$0" 2>/dev/null || {{ echo "{CGROUP_REFUSED}" >&2; exit 125; }}; exec "$@"'


def _pids_base() -> str | None:
    """Where a root grader makes one pids cgroup per child: the cgroup v1 pids hierarchy at this process's own
    cgroup, or the top of a cgroup2 hierarchy that hands the pids controller down (a cgroup with processes of
    its own cannot, so the grader's own is no use there).  None where neither is writable."""
    global _cgroup_base
    with _lock:
        if _cgroup_base is False:
            _cgroup_base = _find_pids_base() if IS_LINUX and is_root() else None
            if _cgroup_base:
                _clear_stale_cgroups(_cgroup_base)
        return _cgroup_base


def _find_pids_base() -> str | None:
    try:
        with open("/proc/self/mountinfo", encoding="utf-8", errors="replace") as handle:
            mounts = handle.read().splitlines()
        with open("/proc/self/cgroup", encoding="utf-8", errors="replace") as handle:
            own = [line.split(":", 2) for line in handle.read().splitlines() if line.count(":") >= 2]
    except OSError:
        return None
    unified = None
    for line in mounts:
        left, _, right = line.partition(" - ")
        fields, tail = left.split(), right.split()
        if len(fields) < 5 or len(tail) < 3:
            continue
        root, point, kind, options = fields[3], fields[4], tail[0], tail[2].split(",")
        if kind == "cgroup" and "pids" in options:  # v1: this process's cgroup in the pids hierarchy
            path = next((p for _, names, p in own if "pids" in names.split(",")), None)
            if path is not None and (path + "/").startswith(root.rstrip("/") + "/"):
                folder = os.path.join(point, path[len(root.rstrip("/")) :].lstrip("/"))
                return folder if os.access(folder, os.W_OK) else None
        elif kind == "cgroup2" and root == "/":
            unified = unified or point
    if unified is None:
        return None
    try:  # the machine's own choice (systemd hands pids down): never changed here
        with open(os.path.join(unified, "cgroup.subtree_control"), encoding="ascii") as handle:
            return unified if "pids" in handle.read().split() and os.access(unified, os.W_OK) else None
    except OSError:
        return None


def pids_group() -> str | None:
    """A new pids cgroup allowing PROCESSES processes, or None where this machine gives none."""
    base = _pids_base()
    if not base:
        return None
    folder = os.path.join(base, f"{PREFIX}-{os.getpid()}-{next(_cgroup_serial)}")
    try:
        os.mkdir(folder, 0o755)
        with open(os.path.join(folder, "pids.max"), "w", encoding="ascii") as handle:
            handle.write(str(PROCESSES))
    except OSError:
        remove(folder)
        return None
    return folder


def refused() -> None:
    """A child could not enter its pids cgroup here: later children are started without one."""
    global _cgroup_base
    with _lock:
        _cgroup_base = None


def remove(folder: str, seconds: float = 2.0) -> None:
    """Remove a child's cgroup, killing whatever is still in it (its processes end a moment after SIGKILL)."""
    deadline = time.monotonic() + seconds
    while True:
        try:
            os.rmdir(folder)
            return
        except FileNotFoundError:
            return
        except OSError:
            if time.monotonic() > deadline:
                return  # left for the next grader's clean-up of stale cgroups
        try:
            with open(os.path.join(folder, "cgroup.procs"), encoding="ascii") as handle:
                for pid in handle.read().split():
                    try:
                        os.kill(int(pid), signal.SIGKILL)
                    except (OSError, ValueError):
                        pass
        except OSError:
            pass
        time.sleep(0.005)


def _clear_stale_cgroups(base: str) -> None:
    """Remove the cgroups of children whose grader died without removing them."""
    try:
        names = os.listdir(base)
    except OSError:
        return
    for name in names:
        owner = name.split("-")[1] if name.startswith(f"{PREFIX}-") and name.count("-") == 2 else ""
        if not owner.isdigit() or int(owner) == os.getpid():
            continue
        try:
            os.kill(int(owner), 0)
        except ProcessLookupError:
            remove(os.path.join(base, name), seconds=0.5)
        except OSError:
            continue
