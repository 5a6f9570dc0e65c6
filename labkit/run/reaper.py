"""What a child leaves behind, found and ended: orphans that come back to this process (a subreaper),
bubblewrap's own processes, everything of a child's uid; and a child's resident memory where no rlimit
holds it.  Linux reads /proc; elsewhere these are no-ops (macOS: see README's Platforms)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time

IS_LINUX = sys.platform.startswith("linux")
spawn_lock = threading.Lock()  # held while a child is forked and while orphans are looked for
ours: set = set()  # pids of children this process started and has not ended yet


def kill_everything_of(uid: int) -> None:
    """End every process running as `uid` (a uid only children of this grader use): `kill -KILL -1` run as
    that uid reaches exactly them, however they detached."""
    try:
        subprocess.run(
            ["/bin/sh", "-c", "kill -KILL -1 2>/dev/null; exit 0"],
            user=uid,
            group=uid,
            extra_groups=[],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            timeout=10,
            cwd="/",
        )
    except (OSError, subprocess.SubprocessError):
        pass


_reaper_on = False


def become_reaper() -> None:
    """Linux: make orphaned descendants of our children reparent to this process (PR_SET_CHILD_SUBREAPER)."""
    global _reaper_on
    if _reaper_on or not IS_LINUX:
        return
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        _reaper_on = libc.prctl(36, 1, 0, 0, 0) == 0
    except (OSError, AttributeError):
        _reaper_on = False


def process_stat(pid: int) -> tuple[int, int, int, str] | None:
    """(parent pid, session id, start time, state such as "R" or "Z") of a process, from /proc."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as handle:
            fields = handle.read().rsplit(b")", 1)[1].split()
        return int(fields[1]), int(fields[3]), int(fields[19]), fields[0].decode()
    except (OSError, IndexError, ValueError):
        return None


def _orphans(child_started: int) -> list[int]:
    """Processes reparented to us that a child left behind: started after it, outside our own session (a
    child runs in a session of its own, and whatever detached made another), and not started by us."""
    me, my_session = os.getpid(), os.getsid(0)
    found: list[int] = []
    try:
        entries = os.listdir("/proc")
    except OSError:
        return found
    for entry in entries:
        if not entry.isdigit() or int(entry) in ours:
            continue
        pid = int(entry)
        stat = process_stat(pid)
        if stat and stat[0] == me and stat[2] >= child_started and stat[1] != my_session:
            found.append(pid)
    return found


def reap_orphans(child_started: int | None, seconds: float = 10.0) -> int:
    """Kill and collect everything a child left behind that came back to us: each orphan with every process below
    it, all stopped first (a stopped process cannot fork) and then killed at once, whatever their depth or process
    groups; again until none comes back (a killed orphan's children come back to us as zombies), for at most
    `seconds`.  Where a child has a pid namespace or a uid of its own this finds nothing: the kernel ended all of
    it; elsewhere it is as good as what /proc shows while it looks (README: a level without either)."""
    if not _reaper_on or child_started is None:
        return 0
    ended, deadline = 0, time.monotonic() + seconds
    while time.monotonic() < deadline:
        with spawn_lock:  # no child of ours is being forked (and not yet known) while we look
            orphans = _orphans(child_started)
            _stop_and_kill(orphans, deadline)
        if not orphans:
            break
        for pid in orphans:
            try:
                os.waitpid(pid, 0)
                ended += 1
            except ChildProcessError:
                pass
    return ended


def _stop_and_kill(tops: list[int], deadline: float) -> None:
    """Stop every process in the trees below `tops` until a look finds none that is not stopped, then kill them
    all (a process stopped before it could fork leaves no child to miss)."""
    stopped: set = set()
    while time.monotonic() < deadline:
        found = set(tops) | {pid for top in tops for pid, _ in descendants(top)}
        fresh = found - stopped
        if not fresh:
            break
        for pid in fresh:
            try:
                os.kill(pid, signal.SIGSTOP)
            except OSError:
                pass
        stopped |= fresh
    for pid in stopped:
        try:
            os.kill(pid, signal.SIGKILL)
        except OSError:
            pass


def descendants(pid: int) -> list[tuple[int, int]]:
    """(pid, start time) of every process below `pid`, from /proc/<pid>/task/<tid>/children."""
    found: list[tuple[int, int]] = []
    pending = [pid]
    while pending and len(found) < 10_000:
        current = pending.pop()
        try:
            for task in os.listdir(f"/proc/{current}/task"):
                with open(f"/proc/{current}/task/{task}/children", "rb") as handle:
                    for child in handle.read().split():
                        stat = process_stat(int(child))
                        if stat:
                            found.append((int(child), stat[2]))
                            pending.append(int(child))
        except (OSError, ValueError):
            continue
    return found


def wait_gone(processes: list[tuple[int, int]], seconds: float = 5.0) -> None:
    """Wait (briefly) until none of these processes exists any more (a reused pid does not count)."""
    deadline = time.monotonic() + seconds
    for pid, started in processes:
        while time.monotonic() < deadline:
            stat = process_stat(pid)
            if stat is None or stat[2] != started or stat[3] == "Z":
                break
            time.sleep(0.002)


def collect(processes: list[tuple[int, int]]) -> None:
    """Reap those of `processes` that became our children (orphans come back to a subreaper) and ended."""
    me = os.getpid()
    for pid, started in processes:
        stat = process_stat(pid)
        if stat and stat[0] == me and stat[2] == started:
            try:
                os.waitpid(pid, os.WNOHANG)
            except ChildProcessError:
                pass


def resident_bytes(pid: int) -> int:
    """Resident memory of a process and all its descendants (Linux /proc, macOS libproc); 0 if unknown."""
    if IS_LINUX:
        total, page = 0, os.sysconf("SC_PAGE_SIZE")
        for current in [pid] + [child for child, _ in descendants(pid)]:
            try:
                with open(f"/proc/{current}/statm", "rb") as handle:
                    total += int(handle.read().split()[1]) * page
            except (OSError, ValueError, IndexError):
                continue
        return total
    if sys.platform == "darwin":
        return _darwin_resident(pid)
    return 0


def _darwin_resident(pid: int) -> int:
    try:
        import ctypes

        libproc = ctypes.CDLL("/usr/lib/libproc.dylib")
        info = (ctypes.c_uint64 * 12)()  # struct proc_taskinfo: 6 uint64 then 12 int32 (96 bytes)
        written = libproc.proc_pidinfo(
            ctypes.c_int(pid),
            ctypes.c_int(4),
            ctypes.c_uint64(0),  # PROC_PIDTASKINFO
            ctypes.byref(info),
            ctypes.c_int(ctypes.sizeof(info)),
        )
        return int(info[1]) if written == ctypes.sizeof(info) else 0
    except (OSError, AttributeError):
        return 0
