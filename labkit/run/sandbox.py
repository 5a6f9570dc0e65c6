"""The sandbox levels: the ways to start a child (plans) that LAB_SANDBOX allows and that work here, the walls a
started child has, what they block (ATTACKS), and the level the parent can vouch for from them.

Nothing here starts a child (labkit/run/spawn.py does); the names and bounds its helpers share are here.
Why: docs/design.md#labkitrunsandboxpy
"""

from __future__ import annotations

import os
import shutil
import sys
import threading
from dataclasses import dataclass

POLICIES = ("none", "landlock", "uid", "bwrap", "auto")  # ceilings, weakest first: each adds a wall
PROCESSES = 64  # processes (and threads) one child may have at once, wherever a limit can count it alone
IS_WINDOWS = os.name == "nt"
IS_LINUX = sys.platform.startswith("linux")
PREFIX = "labkit"  # names this engine gives what it leaves on the machine: workdirs, cgroups, the uid folder, the host


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
    if (
        any(wall.startswith("folder ≤") and wall.endswith("(tmpfs)") for wall in walls)
        and "seccomp" in walls
        and {"write", "shared"} <= blocked
    ):
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
    elif "RLIMIT_NPROC" in limits and (hello.get("userns") is True or (plan.bwrap and not is_root())):
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


def is_root() -> bool:
    """Whether this process runs as root (never on Windows, which has no euid)."""
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
