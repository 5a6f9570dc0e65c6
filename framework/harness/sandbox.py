"""How a child interpreter is started and contained, and the sandbox level the parent can vouch for.

Walls, strongest first.  Linux: bubblewrap (`bwrap`: new user, pid, network, ipc and uts namespaces,
only the interpreter's files and the child's own folder visible, the whole sandbox dies with its
parent); an unprivileged uid of its own when the grader runs as root; Landlock, applied by the child to
itself before any student code runs; resource limits; and always a reaper that kills whatever a child
left behind.  macOS: the uid (as root), resource limits and the process group.  Windows: a job object
(memory limit, the whole process tree ends with the child).  What failed once in this process (bwrap
refused by the kernel, an interpreter the unprivileged uid cannot read) is not tried again.

The level is computed here, from what the parent did and from the child's first message (sent before
any student code ran), never from anything the child says later.
"""

from __future__ import annotations

import errno
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

from framework.harness import reaper, removal

INSIDE = "/sandbox"  # the child's folder as bubblewrap shows it (a fixed path: outputs do not vary)
POLICIES = ("none", "landlock", "uid", "bwrap", "auto")  # ceilings, weakest first: each adds a wall
UID_BASE = 61000  # unprivileged uids for children of a root grader: one per concurrent child
NOBODY = 65534
IS_WINDOWS = os.name == "nt"
IS_LINUX = sys.platform.startswith("linux")


# What a submission could otherwise do, and the walls that stop it (README's threat model is this table).
ATTACKS = {
    "read": "read the lab (solutions/), the instructor's files, /etc/shadow",
    "write": "change files outside its own folder (grades.csv, the lab, the home folder)",
    "signal": "signal or stop the grader and other processes",
    "network": "open network connections (TCP and UDP)",
    "leftover": "leave processes running after it was graded",
}


@dataclass(frozen=True)
class Level:
    """What confines a child: a name for people, the walls in force, what they block, whether that is all."""

    name: str  # bwrap, landlock-6+, landlock-N (no signal scoping), uid (+ landlock…), none
    walls: tuple = ()
    blocks: tuple = ()  # keys of ATTACKS
    full: bool = False


def blocked_by(walls: tuple, abi: int) -> tuple:
    """The attacks (ATTACKS) that these walls stop."""
    blocked = set()
    if "bwrap" in walls:
        blocked |= set(ATTACKS)
    if abi:
        blocked |= {"read", "write"} | ({"signal"} if abi >= 6 else set())
    if any(wall.startswith("uid ") for wall in walls):
        blocked |= {"write", "signal", "leftover"}
    if "reaper" in walls:
        blocked.add("leftover")
    return tuple(attack for attack in ATTACKS if attack in blocked)


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


def level_of(plan: Plan, hello: dict, uid: int | None) -> Level:
    """The level of a child started with `plan` whose first message was `hello`."""
    abi = hello.get("landlock", 0) if type(hello.get("landlock")) is int else 0
    walls = []
    if plan.bwrap:
        walls.append("bwrap")
    if uid is not None:
        walls.append(f"uid {uid}")
    if abi:
        walls.append(f"landlock-{abi}")
    limits = hello.get("limits") if type(hello.get("limits")) is list else []
    if limits:
        walls.append("rlimits")
    if plan.portable:
        walls.append("job object" if IS_WINDOWS else "kill on timeout")
    else:
        walls.append("reaper" if IS_LINUX else "process group")
    blocks = blocked_by(tuple(walls), abi)
    full = set(ATTACKS) - {"network"} <= set(blocks)
    if plan.bwrap:
        return Level("bwrap", tuple(walls), blocks, full)
    if abi >= 6:
        name = "landlock-6+"
    elif abi >= 4:
        name = f"landlock-{abi} (no signal scoping)"
    elif abi:
        name = f"landlock-{abi} (no network or signal scoping)"
    else:
        name = ""
    if uid is not None:
        name = f"uid + {name}" if name else "uid"
    return Level(name or "none", tuple(walls), blocks, full)


_probed: Level | None = None


def level() -> Level:
    """The level a child started now gets (the grader shows it before grading): one real child is started
    to find out, as every child is, then the answer is kept for this process."""
    global _probed
    if _probed is None:
        from framework.harness.engine import Limits, StudentRun
        with StudentRun(display="probe.py", source=b"", limits=Limits(load_seconds=30.0)) as probe:
            probe.start()
            _probed = probe.level or Level("none", (), ())
    return _probed


# --- unprivileged uids for the children of a root grader ---------------------------------------------

_uid_locks: dict = {}  # uid -> the open lock file that reserves it for this process


def _uid_folder() -> str:
    """A folder only root can change, holding one lock file per uid in use (by any grader on this machine)."""
    folder = os.path.join(tempfile.gettempdir(), "lab09-uids")
    try:
        os.mkdir(folder, 0o700)
    except FileExistsError:
        pass
    info = os.lstat(folder)
    if info.st_uid != 0 or not os.path.isdir(folder) or os.path.islink(folder) or info.st_mode & 0o022:
        raise PermissionError(f"{folder} is not a private folder of root's")
    return folder


def _take_uid() -> int:
    """An unprivileged uid that no other child on this machine uses now: `kill -1` run as that uid at the
    end reaches this child's processes and nothing else.  A lock file (released when this process ends,
    however it ends) reserves the uid across all graders of the machine."""
    import fcntl
    base = int(os.environ.get("LAB_SANDBOX_UID", UID_BASE))
    folder = _uid_folder()
    with _lock:
        for uid in range(base, base + 4096):
            if uid in _uid_locks:
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
    ended: bool = field(default=False)
    tree: list = field(default_factory=list)  # (pid, start time) of the sandbox's own processes, once known

    def note_tree(self) -> None:
        """Remember the processes bubblewrap started (its inner process, the interpreter): if they outlive
        the outer one they come back to us, and `end` must wait for them and collect them."""
        if self.plan.bwrap and IS_LINUX:
            self.tree = reaper.descendants(self.proc.pid)

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
        if self.uid is not None:
            _give_back_uid(self.uid)


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
    return tempfile.mkdtemp(prefix=f"lab09-{os.getpid()}-")


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
        from framework.harness.i18n import text
        print(text("bounds.stale_folder", count=len(stuck), folder=stuck[0]), file=sys.stderr, flush=True)


def _stale_workdirs() -> list[str]:
    """Children's folders whose grader is no longer running: ours (as root: anyone's, since a root grader's
    children own their folders), never a link."""
    stale = []
    with os.scandir(tempfile.gettempdir()) as entries:
        for entry in entries:
            parts = entry.name.split("-")
            if len(parts) < 3 or parts[0] != "lab09" or not parts[1].isdigit() or int(parts[1]) == os.getpid():
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
    if IS_WINDOWS:
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
    settings = dict(settings, landlock_cap=(settings.get("landlock_cap") if plan.landlock else 0))
    if uid is not None:  # a uid of its own: a process limit means something (root has none)
        settings["limits"] = dict(settings["limits"], processes=64)
    command = [python, "-S", "-c", source, json.dumps(settings)]
    options = dict(stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=child_env(inside))
    try:
        if uid is not None:
            os.chown(workdir, uid, uid)
            os.chmod(workdir, 0o700)
            options.update(user=uid, group=uid, extra_groups=[])
        if plan.bwrap:
            command = bwrap_command(folders) + ["--bind", workdir, INSIDE, "--chdir", INSIDE, "--"] + command
            options["cwd"] = "/"
        else:
            options["cwd"] = workdir
        reaper.become_reaper()
        if plan.portable:
            options.update(_portable_options())
        else:
            options["start_new_session"] = True
        with reaper.spawn_lock:
            proc = subprocess.Popen(command, **options)
            reaper.ours.add(proc.pid)
    except BaseException:
        if uid is not None:
            _give_back_uid(uid)
        raise
    stat = reaper.process_stat(proc.pid) if IS_LINUX else None
    started = Started(proc, plan, workdir, uid, stat[2] if stat else None)
    if plan.portable:
        started.job = _contain_portable(proc, settings["limits"].get("memory_bytes"))
    return started


def bwrap_command(python_folders: list[str]) -> list[str]:
    """bubblewrap with every namespace new, no network, the system's and Python's files read-only."""
    command = [shutil.which("bwrap") or "bwrap", "--unshare-all", "--die-with-parent", "--new-session",
               "--hostname", "lab09", "--cap-drop", "ALL", "--uid", str(NOBODY), "--gid", str(NOBODY)]
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
        from framework.harness import winjob
        return winjob.contain(proc, memory_bytes)
    except (ImportError, OSError):
        return None


def _end_portable(started: Started) -> None:
    if started.job is not None:
        try:
            from framework.harness import winjob
            winjob.terminate(started.job)
        except (ImportError, OSError):
            pass


def remove_workdir(folder: str) -> str | None:
    """Remove a child's folder, whatever the child made in it (framework/harness/removal.py): None once it is
    gone, else why it stays (the stale-folder cleanup of a later run tries again).  Never raises."""
    return removal.remove_tree(folder)
