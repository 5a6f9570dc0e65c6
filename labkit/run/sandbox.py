"""How a child interpreter is started and contained, and the sandbox level the parent can vouch for.

The walls per platform, strongest first; the level from what the parent did and the child's first message.
Why: docs/design.md#labkitrunsandboxpy
"""

from __future__ import annotations

import errno
import itertools
import json
import os
import shutil
import signal
import stat
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from labkit.run import reaper, removal

INSIDE = "/sandbox"  # the child's folder as bubblewrap shows it (a fixed path: outputs do not vary)
POLICIES = ("none", "landlock", "uid", "bwrap", "auto")  # ceilings, weakest first: each adds a wall
UID_BASE = 61000  # unprivileged uids for children of a root grader: one per concurrent child
NOBODY = 65534
PROCESSES = 64  # processes (and threads) one child may have at once, wherever a limit can count it alone
IS_WINDOWS = os.name == "nt"
IS_LINUX = sys.platform.startswith("linux")
# Folders anyone may write (sticky, like /tmp): what a child of a uid of its own could leave files in.
SHARED_FOLDERS = ("/tmp", "/var/tmp", "/dev/shm", "/dev/mqueue", "/run/lock", "/var/lock", "/Users/Shared")


# What a submission could otherwise do, and the walls that stop it (README's threat model is this table).
ATTACKS = {
    "read": "read the lab (its answer key, history and bytecode), the class, the outputs, the instructor's files, "
            "/etc/shadow",
    "write": "change files outside its own folder (grades.csv, the lab, the home folder)",
    "shared": "write world-writable folders (/tmp, /var/tmp, /dev/shm): files that outlive it, seen by others",
    "signal": "signal or stop the grader and other processes",
    "network": "open network connections (TCP and UDP)",
    "sockets": "connect to local sockets (D-Bus, ssh and gpg agents, X11; by path or abstract)",
    "processes": "exhaust the processes of the user running the grader",
    "leftover": "leave processes running after it was graded",
    "disk": "fill the disk or memory with files (its folder, /tmp, /dev/shm, memfd)",
}


@dataclass(frozen=True)
class Level:
    """What confines a child: a name for people, the walls in force, what they block, whether that is all."""

    name: str  # bwrap, landlock-6+, landlock-N, uid (+ landlock…), seccomp, none; (no seccomp), (no pid namespace)
    walls: tuple = ()
    blocks: tuple = ()  # keys of ATTACKS
    full: bool = False


def blocked_by(walls: tuple, abi: int) -> tuple:
    """The attacks (ATTACKS) that these walls stop."""
    blocked = set()
    if "bwrap" in walls:  # bubblewrap counts no processes (a limit below does), and bounds no folder (a tmpfs does)
        blocked |= set(ATTACKS) - {"processes", "disk"}
    if abi:  # a file's metadata outside its folder (chmod, utime, xattrs) only the filter or a uid of its own keeps
        blocked |= {"read", "shared"} | ({"signal"} if abi >= 6 else set())
        blocked |= {"write"} if "seccomp" in walls or "uid" in walls else set()
    if "seccomp" in walls:
        blocked |= {"network", "sockets"}
    if SIGNALS_WALL in walls:
        blocked.add("signal")
    if "uid" in walls:
        blocked |= {"write", "signal", "leftover"}
    if PID_WALL in walls:
        blocked |= {"signal", "leftover"}
    if any(wall.startswith("processes ≤") for wall in walls):
        blocked.add("processes")
    if any(wall.startswith("folder ≤") and wall.endswith("(tmpfs)") for wall in walls) and "seccomp" in walls \
            and {"write", "shared"} <= blocked:
        blocked.add("disk")  # all it can write is its bounded folder; memfd_create is refused by the filter
    return tuple(attack for attack in ATTACKS if attack in blocked)


PID_WALL = "pid namespace"  # the child's own (labkit/run/child.py): nothing outside can be named, nothing outlives it
SIGNALS_WALL = "signals (seccomp)"  # the filter keeps the kill family to the child itself (labkit/run/child.py)


def folder_wall(limits, tmpfs: bool) -> str:
    """The wall that bounds the child's folder: a tmpfs of its own (the kernel counts), or the parent's watchdog."""
    how = "tmpfs" if tmpfs else "watchdog"
    return f"folder ≤ {limits.folder_bytes >> 20} MiB, {limits.folder_files} files ({how})"


@dataclass(frozen=True)
class Plan:
    """One way to start a child: inside bubblewrap or not, under an unprivileged uid or not."""

    bwrap: bool = False
    drop_uid: bool = False
    landlock: bool = True
    portable: bool = False  # plain pipes and Popen.kill only (Windows; forced on POSIX by LAB_ENGINE=portable)

    @property
    def key(self) -> tuple:
        return (self.bwrap, self.drop_uid)


def policy(environ=os.environ) -> str:
    """LAB_SANDBOX: auto (the strongest that works), or a ceiling for tests: `uid` = no bwrap, `landlock` =
    no bwrap and no uid, `none` = no wall at all but the reaper and the limits."""
    value = environ.get("LAB_SANDBOX", "auto").strip().lower() or "auto"
    return value if value in POLICIES else "auto"


def _allows(ceiling: str, wall: str) -> bool:
    return POLICIES.index(ceiling) >= POLICIES.index(wall)


def landlock_cap(environ=os.environ) -> int | None:
    """LAB_LANDLOCK_ABI=N makes the child use at most Landlock ABI N (tests simulate older kernels)."""
    value = environ.get("LAB_LANDLOCK_ABI", "")
    return int(value) if value.isdigit() else None


def portable_forced(environ=os.environ) -> bool:
    return IS_WINDOWS or environ.get("LAB_ENGINE", "").lower() == "portable"


_broken: set = set()  # plan keys that failed to start a child in this process
_lock = threading.Lock()


def plans(environ=os.environ) -> list[Plan]:
    """The ways to start a child, strongest first, that the policy allows and that have not failed here."""
    chosen = policy(environ)
    landlock = _allows(chosen, "landlock")
    if portable_forced(environ):
        return [Plan(landlock=landlock and not IS_WINDOWS, portable=True)]
    root = os.geteuid() == 0
    candidates = []
    if _allows(chosen, "bwrap") and IS_LINUX and shutil.which("bwrap"):
        if root:
            candidates.append(Plan(bwrap=True, drop_uid=True))
        candidates.append(Plan(bwrap=True))
    if _allows(chosen, "uid") and root:
        candidates.append(Plan(drop_uid=True, landlock=landlock))
    candidates.append(Plan(landlock=landlock))
    return [plan for plan in candidates if plan.key not in _broken] or candidates[-1:]


def mark_broken(plan: Plan) -> None:
    """`plan` could not start a child here (e.g. namespaces refused): later children skip it."""
    with _lock:
        _broken.add(plan.key)


def level_of(plan: Plan, hello: dict, uid: int | None, cgroup: bool = False, folder: str = "") -> Level:
    """The level of a child started with `plan` (under `uid`, in a pids cgroup) whose first message was
    `hello`; `folder` is the wall that bounds its folder (`folder_wall`), "" where none does."""
    abi = hello.get("landlock", 0) if type(hello.get("landlock")) is int else 0
    seccomp = hello.get("seccomp") is True
    limits = hello["limits"] if type(hello.get("limits")) is list else []
    pidns = hello.get("pidns") is True
    walls = []
    if plan.bwrap:
        walls.append("bwrap")
    if uid is not None:
        walls.append("uid")  # which uid varies run to run; the outputs must not
    if pidns:
        walls.append(PID_WALL)
    if abi:
        walls.append(f"landlock-{abi}")
    if seccomp:
        walls.append("seccomp")
    if seccomp and hello.get("signals") is True:
        walls.append(SIGNALS_WALL)
    if "RLIMIT_NPROC" in limits and uid is not None:
        walls.append(f"processes ≤ {PROCESSES} (uid)")
    elif "RLIMIT_NPROC" in limits and (hello.get("userns") is True or (plan.bwrap and not _root())):
        walls.append(f"processes ≤ {PROCESSES} (userns)")
    elif cgroup:
        walls.append(f"processes ≤ {PROCESSES} (cgroup)")
    if folder:
        walls.append(folder)
    if limits:
        walls.append("rlimits")
    if plan.portable:
        walls.append("job object" if IS_WINDOWS else "kill on timeout")
    else:
        walls.append("reaper" if IS_LINUX else "process group")
    blocks = blocked_by(tuple(walls), abi)
    full = set(ATTACKS) <= set(blocks)
    if plan.bwrap:
        return Level("bwrap", tuple(walls), blocks, full)
    parts = ["uid"] if uid is not None else []
    if abi >= 6:
        parts.append("landlock-6+")
    elif abi >= 4:
        parts.append(f"landlock-{abi}")
    elif abi:
        parts.append(f"landlock-{abi} (no network scoping)")
    # Where no pid namespace could be made (a kernel or container that refuses one), and no uid of its own ends
    # what it leaves, the name says so: what it left is ended by the reaper, as far as it can find it.
    missing = " (no pid namespace)" if IS_LINUX and not plan.portable and not pidns and uid is None else ""
    if not parts:
        return Level(("seccomp" if seccomp else "none") + missing, tuple(walls), blocks, full)
    return Level(" + ".join(parts) + ("" if seccomp else " (no seccomp)") + missing, tuple(walls), blocks, full)


def _root() -> bool:
    return hasattr(os, "geteuid") and os.geteuid() == 0


def counts_processes_per_user_namespace() -> bool:
    """Linux 5.14 and later count RLIMIT_NPROC per user namespace: a child in one of its own (bubblewrap's,
    or one it makes) is then limited alone, not together with every process of the grader's user."""
    if not IS_LINUX:
        return False
    try:
        major, minor = (int(part) for part in os.uname().release.split("-")[0].split(".")[:2])
    except ValueError:
        return False
    return (major, minor) >= (5, 14)


# --- unprivileged uids for the children of a root grader ---------------------------------------------

PREFIX = "labkit"  # names this engine gives what it leaves on the machine: workdirs, cgroups, the uid folder, the host
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


def _take_uid() -> int:
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
            handle = os.open(os.path.join(folder, str(uid)), os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC,
                             0o600)
            try:
                fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                os.close(handle)
                continue
            _uid_locks[uid] = handle
            return uid
    raise BlockingIOError(errno.EAGAIN, "no free sandbox uid")


def _give_back_uid(uid: int) -> None:
    with _lock:
        handle = _uid_locks.pop(uid, None)
    if handle is not None:
        os.close(handle)


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
            _remove_cgroup(self.cgroup)
        if self.uid is not None:
            _give_back_uid(self.uid)


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


# --- a pids cgroup for each child of a root grader that cannot give it a uid of its own -----------------

# The folder children's cgroups go in, None where there is none; False: not looked for
_cgroup_base: str | None | Literal[False] = False
_cgroup_serial = itertools.count()
CGROUP_REFUSED = f"{PREFIX}: cannot enter pids cgroup"  # what the child says (then it is started without one)
# The child moves itself into its cgroup before it becomes bubblewrap or Python, so all it starts is counted.
_INTO_CGROUP = f'echo $$ >"$0" 2>/dev/null || {{ echo "{CGROUP_REFUSED}" >&2; exit 125; }}; exec "$@"'


def _pids_base() -> str | None:
    """Where a root grader makes one pids cgroup per child: the cgroup v1 pids hierarchy at this process's own
    cgroup, or the top of a cgroup2 hierarchy that hands the pids controller down (a cgroup with processes of
    its own cannot, so the grader's own is no use there).  None where neither is writable."""
    global _cgroup_base
    with _lock:
        if _cgroup_base is False:
            _cgroup_base = _find_pids_base() if IS_LINUX and _root() else None
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
                folder = os.path.join(point, path[len(root.rstrip("/")):].lstrip("/"))
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


def _pids_group() -> str | None:
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
        _remove_cgroup(folder)
        return None
    return folder


def cgroups_refused() -> None:
    """A child could not enter its pids cgroup here: later children are started without one."""
    global _cgroup_base
    with _lock:
        _cgroup_base = None


def _remove_cgroup(folder: str, seconds: float = 2.0) -> None:
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
            _remove_cgroup(os.path.join(base, name), seconds=0.5)
        except OSError:
            continue


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
    uid = _take_uid() if plan.drop_uid else None
    inside = INSIDE if plan.bwrap else workdir
    root = _root()
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
    cgroup = _pids_group() if plan.landlock and root and uid is None else None
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
            command = ["/bin/sh", "-c", _INTO_CGROUP, os.path.join(cgroup, "cgroup.procs")] + command
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
            _remove_cgroup(cgroup)
        if uid is not None:
            _give_back_uid(uid)
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
