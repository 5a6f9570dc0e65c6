"""Starting a child interpreter for a plan (labkit/run/sandbox.py): its uid, its pids cgroup, bubblewrap or
not, a clean environment, three pipes; and `Started.end`, which ends it and all it began and removes what it
left (processes, files of its uid, its cgroup).  Why: docs/design.md#labkitrunspawnpy
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import stat
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from labkit.run import cgroups, reaper, removal, uids
from labkit.run.sandbox import (IS_LINUX, IS_WINDOWS, PREFIX, PROCESSES, Plan, counts_processes_per_user_namespace,
                                is_root)

INSIDE = "/sandbox"  # the child's folder as bubblewrap shows it (a fixed path: outputs do not vary)
NOBODY = 65534
# Folders anyone may write (sticky, like /tmp): what a child of a uid of its own could leave files in.
SHARED_FOLDERS = ("/tmp", "/var/tmp", "/dev/shm", "/dev/mqueue", "/run/lock", "/var/lock", "/Users/Shared")


# --- starting a child ----------------------------------------------------------------------------

@dataclass
class Started:
    """A started child: its process, the plan, its uid, and how to end it and everything it began."""

    proc: subprocess.Popen
    plan: Plan
    workdir: str
    uid: int | None = None
    started_at: int | None = None  # start time from /proc, to recognise its orphans
    job: object = None
    cgroup: str | None = None  # the pids cgroup it runs in (a child of a root grader without a uid of its own)
    ended: bool = field(default=False)
    tree: list = field(default_factory=list)  # (pid, start time) of the sandbox's own processes, once known
    writes_shared: bool = True  # whether it could write world-writable folders (no Landlock): then they are swept

    def note_tree(self) -> None:
        """Remember the processes bubblewrap started (its inner process, the interpreter): if they outlive
        the outer one they come back to us, and `end` must wait for them and collect them."""
        if self.plan.bwrap and IS_LINUX:
            self.tree = reaper.descendants(self.proc.pid)

    def interpreter_pid(self) -> int | None:
        """The pid, as this process sees it, of a process in the child's own mount namespace, before any student
        code ran: the one started (outside bubblewrap: the interpreter, or the waiter that made its namespaces),
        else the last process bubblewrap started (the interpreter)."""
        if not self.plan.bwrap:
            return self.proc.pid
        return self.tree[-1][0] if self.tree else None

    def end(self) -> None:
        """Kill the child and whatever it started; collect its exit status.  Safe to call twice."""
        if self.ended:
            return
        self.ended = True
        sandboxed = self.tree + (reaper.descendants(self.proc.pid) if self.plan.bwrap and IS_LINUX else [])
        if self.plan.portable:
            _end_portable(self)
        else:
            try:
                os.killpg(self.proc.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
        try:
            self.proc.kill()
        except OSError:
            pass
        self.proc.wait()
        with reaper.spawn_lock:
            reaper.ours.discard(self.proc.pid)
        reaper.wait_gone(sandboxed)  # the kernel ends a pid namespace with its first process, a moment later
        reaper.collect(sandboxed)  # bubblewrap's inner process, orphaned when the outer one died, came back to us
        if not self.plan.bwrap:  # in bubblewrap's pid namespace nothing outlives the sandbox's first process
            if self.uid is not None:
                reaper.kill_everything_of(self.uid)
            reaper.reap_orphans(self.started_at)
            if self.uid is not None and self.writes_shared:
                remove_files_of(self.uid, keep=self.workdir)
        if self.cgroup is not None:
            cgroups.remove(self.cgroup)
        if self.uid is not None:
            uids.give_back(self.uid)


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
                remove_workdir(path)  # every folder on its path is root's and sticky: nobody else can swap one
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


def interpreter() -> str:
    """The interpreter outside any virtual environment, so the child's paths lead nowhere near the lab."""
    if sys.prefix != sys.base_prefix:
        names = (f"python{sys.version_info[0]}.{sys.version_info[1]}", "python3", "python")
        folders = [Path(sys.base_prefix) / ("" if IS_WINDOWS else "bin"),
                   Path(getattr(sys, "_base_executable", "") or sys.executable).parent]
        for folder in folders:
            for name in names:
                candidate = folder / (name + (".exe" if IS_WINDOWS else ""))
                if candidate.is_file() and os.access(candidate, os.X_OK):
                    return str(candidate)
    return sys.executable


def reachable_by_others(path: str) -> bool:
    """Whether a user with no rights of ours can run `path`: every folder above it searchable by others."""
    real = Path(os.path.realpath(path))
    try:
        return bool(os.stat(real).st_mode & 0o005 == 0o005) and all(
            os.stat(folder).st_mode & 0o001 for folder in real.parents)
    except OSError:
        return False


def interpreter_for(drop_uid: bool) -> tuple[str, list[str]]:
    """The interpreter for a child and the folders it reads.  An unprivileged uid cannot use one installed
    in a private place (pyenv in root's home): then a system interpreter of the same version is used, or
    PermissionError tells the caller that this plan cannot work here."""
    base = interpreter()
    if not drop_uid or (reachable_by_others(base) and all(reachable_by_others(f) for f in python_folders())):
        return base, python_folders()
    version = f"python{sys.version_info[0]}.{sys.version_info[1]}"
    for folder in ("/usr/bin", "/usr/local/bin", "/opt/homebrew/bin"):
        candidate = os.path.join(folder, version)
        if os.path.isfile(candidate) and reachable_by_others(candidate):
            return candidate, [os.path.dirname(os.path.dirname(os.path.realpath(candidate)))]
    raise PermissionError(f"no {version} that an unprivileged user can run")


def child_env(home: str) -> dict:
    """A clean environment: nothing of the user's, UTF-8 everywhere, no bytecode written."""
    env = {"HOME": home, "TMPDIR": home, "TEMP": home, "TMP": home, "LANG": "C.UTF-8",
           "PYTHONHASHSEED": "0", "PYTHONUTF8": "1", "PYTHONIOENCODING": "utf-8",
           "PYTHONDONTWRITEBYTECODE": "1", "PYTHONSAFEPATH": "1", "PYTHONUNBUFFERED": "1"}
    if IS_WINDOWS:  # Windows cannot start Python without these
        for name in ("SYSTEMROOT", "SYSTEMDRIVE", "WINDIR", "COMSPEC", "PATHEXT"):
            if name in os.environ:
                env[name] = os.environ[name]
        env["PATH"] = os.environ.get("SYSTEMROOT", "C:\\Windows") + "\\system32"
    else:
        env["PATH"] = "/usr/local/bin:/usr/bin:/bin"
    return env


def make_workdir() -> str:
    """An empty folder for one child, named after this process so that a later run can clear it away."""
    _clear_stale_workdirs()
    return tempfile.mkdtemp(prefix=f"{PREFIX}-{os.getpid()}-")


STALE_SECONDS = 10.0  # spent at most on other graders' leftovers; the next run goes on where this one stopped
_stale_cleared = False


def _clear_stale_workdirs() -> None:
    """Remove the folders of children whose grader died without cleaning up (once per process; a grader's
    workers leave it to the grader, which did it before starting them).  Nothing here stops a run: what
    cannot be removed is named in one line on stderr, and the next run tries again.  (`make test` gets here
    in pytest_configure, where pytest captures nothing.)"""
    global _stale_cleared
    if _stale_cleared:
        return
    _stale_cleared = True
    if "multiprocessing" in sys.modules and sys.modules["multiprocessing"].parent_process() is not None:
        return
    stuck, deadline = [], time.monotonic() + STALE_SECONDS
    try:
        for folder in _stale_workdirs():
            problem = removal.remove_tree(folder, deadline)
            if problem:
                stuck.append(f"{folder} ({problem})")
    except Exception as exc:  # noqa: BLE001  (cleaning up after another grader never stops this one)
        stuck.append(f"{tempfile.gettempdir()} ({type(exc).__name__})")
    if stuck:
        from labkit.i18n import text
        from labkit.spec import active
        print(text("bounds.stale_folder", lab=active().id, count=len(stuck), folder=stuck[0]), file=sys.stderr,
              flush=True)


def _stale_workdirs() -> list[str]:
    """Children's folders whose grader is no longer running: ours (as root: anyone's, since a root grader's
    children own their folders), never a link."""
    stale = []
    with os.scandir(tempfile.gettempdir()) as entries:
        for entry in entries:
            parts = entry.name.split("-")
            if len(parts) < 3 or parts[0] != PREFIX or not parts[1].isdigit() or int(parts[1]) == os.getpid():
                continue
            try:
                if not entry.is_dir(follow_symlinks=False) or (
                        hasattr(os, "getuid") and os.getuid() != 0 and entry.stat(follow_symlinks=False).st_uid
                        != os.getuid()):
                    continue
            except OSError:
                continue  # it vanished
            if not _still_running(int(parts[1])):
                stale.append(entry.path)
    return stale


def _still_running(pid: int) -> bool:
    """Whether process `pid` exists (when in doubt: yes).  Not os.kill(pid, 0) on Windows, where 0 is Ctrl-C."""
    if sys.platform == "win32":  # IS_WINDOWS, spelled so that mypy checks this on Windows only
        try:
            import ctypes
            kernel32 = ctypes.WinDLL("kernel32", use_last_error=True)
            handle = kernel32.OpenProcess(0x1000, False, pid)  # PROCESS_QUERY_LIMITED_INFORMATION
            if not handle:
                return ctypes.get_last_error() != 87  # ERROR_INVALID_PARAMETER: there is no such process
            code = ctypes.c_ulong()
            alive = not kernel32.GetExitCodeProcess(handle, ctypes.byref(code)) or code.value == 259  # STILL_ACTIVE
            kernel32.CloseHandle(handle)
            return alive
        except (OSError, AttributeError, ValueError, OverflowError):
            return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (OSError, OverflowError):
        pass  # it runs as another user, or no process can have that number
    return True


def start(plan: Plan, source: str, settings: dict, workdir: str) -> Started:
    """Start the child interpreter for `plan` with three pipes (requests, replies, output)."""
    python, folders = interpreter_for(plan.drop_uid)
    uid = uids.take() if plan.drop_uid else None
    inside = INSIDE if plan.bwrap else workdir
    root = is_root()
    settings = dict(settings, landlock_cap=(settings.get("landlock_cap") if plan.landlock else 0),
                    confine=plan.landlock)
    # A process limit that counts this child alone: its own uid; or, for a grader that is not root, its own
    # user namespace (bubblewrap's, or one it makes itself); or, for root's child without a uid, a cgroup.
    per_namespace = plan.landlock and not root and counts_processes_per_user_namespace()
    settings["userns"] = per_namespace and not plan.bwrap
    # Namespaces of its own (labkit/run/child.py): a pid namespace (bubblewrap has one), its folder a tmpfs with
    # a bound; not in the portable layer (Windows' job object), nor where LAB_NO_NAMESPACES=1 says the machine
    # would refuse them.
    spaces = IS_LINUX and not plan.portable and os.environ.get("LAB_NO_NAMESPACES") != "1"
    settings["pidns"] = spaces and not plan.bwrap
    settings["pidns_given"] = plan.bwrap
    settings["parent"] = os.getpid()  # the waiter ends with this process (PR_SET_PDEATHSIG), as bubblewrap does
    if not spaces:
        settings.pop("folder", None)
    if uid is not None or per_namespace:
        settings["limits"] = dict(settings["limits"], processes=PROCESSES)
    cgroup = cgroups.pids_group() if plan.landlock and root and uid is None else None
    command = [python, "-S", "-c", source, json.dumps(settings)]
    options: dict[str, Any] = dict(stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                   env=child_env(inside))
    try:
        if uid is not None:
            os.chown(workdir, uid, uid)
            os.chmod(workdir, 0o700)
            options.update(user=uid, group=uid, extra_groups=[])
        if plan.bwrap:
            command = bwrap_command(folders) + ["--bind", workdir, INSIDE, "--chdir", INSIDE] + bwrap_read_only() \
                + ["--"] + command
            options["cwd"] = "/"
        else:
            options["cwd"] = workdir
        if cgroup is not None:
            command = ["/bin/sh", "-c", cgroups.INTO_CGROUP, os.path.join(cgroup, "cgroup.procs")] + command
        reaper.become_reaper()
        if plan.portable:
            options.update(_portable_options())
        else:
            options["start_new_session"] = True
        with reaper.spawn_lock:
            proc = subprocess.Popen(command, **options)
            reaper.ours.add(proc.pid)
    except BaseException:
        if cgroup is not None:
            cgroups.remove(cgroup)
        if uid is not None:
            uids.give_back(uid)
        raise
    facts = reaper.process_stat(proc.pid) if IS_LINUX else None
    started = Started(proc, plan, workdir, uid, facts[2] if facts else None, cgroup=cgroup)
    if plan.portable:
        started.job = _contain_portable(proc, settings["limits"].get("memory_bytes"))
    return started


def bwrap_command(python_folders: list[str]) -> list[str]:
    """bubblewrap with every namespace new, no network, the system's and Python's files read-only."""
    command = [shutil.which("bwrap") or "bwrap", "--unshare-all", "--die-with-parent", "--new-session",
               "--hostname", PREFIX, "--cap-drop", "ALL", "--uid", str(NOBODY), "--gid", str(NOBODY)]
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


def bwrap_read_only() -> list[str]:
    """bubblewrap's own tmpfs (its root, /tmp, /dev and so /dev/shm) made read-only once everything is mounted on
    them: with or without Landlock, the child's folder (a tmpfs of its own, labkit/run/child.py) is all it can
    write."""
    return ["--remount-ro", "/tmp", "--remount-ro", "/dev", "--remount-ro", "/"]


def python_folders() -> list[str]:
    """The folders the child interpreter reads: its installation (not the lab's virtual environment)."""
    folders = {os.path.realpath(sys.base_prefix), os.path.realpath(sys.base_exec_prefix),
               os.path.dirname(os.path.dirname(os.path.realpath(interpreter())))}
    return sorted(folder for folder in folders if folder and folder != "/")


# --- the portable process layer (Windows; forced elsewhere by LAB_ENGINE=portable) -------------------

def _portable_options() -> dict:
    if IS_WINDOWS:
        return {"creationflags": getattr(subprocess, "CREATE_NEW_PROCESS_GROUP", 0)
                | getattr(subprocess, "CREATE_NO_WINDOW", 0)}
    return {}


def _contain_portable(proc: subprocess.Popen, memory_bytes: int | None):
    """Windows: put the child in a job object that limits its memory and ends its whole tree with it."""
    if not IS_WINDOWS:
        return None
    try:
        from labkit.run import winjob
        return winjob.contain(proc, memory_bytes)
    except (ImportError, OSError):
        return None


def _end_portable(started: Started) -> None:
    if started.job is not None:
        try:
            from labkit.run import winjob
            winjob.terminate(started.job)
        except (ImportError, OSError):
            pass


def remove_workdir(folder: str) -> str | None:
    """Remove a child's folder, whatever the child made in it (labkit/run/removal.py): None once it is
    gone, else why it stays (the stale-folder cleanup of a later run tries again).  Never raises."""
    return removal.remove_tree(folder)
