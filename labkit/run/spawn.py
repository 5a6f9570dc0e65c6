"""Starting a child interpreter for a plan (labkit/run/sandbox.py): its uid, its pids cgroup, bubblewrap or
not, a clean environment, three pipes; and `Started.end`, which ends it and all it began and removes what it
left (processes, files of its uid, its cgroup).  Why: docs/design.md#labkitrunspawnpy
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
from dataclasses import dataclass, field
from typing import Any

from labkit.run import bwrap, cgroups, interpreters, reaper, sweep, uids
from labkit.run.sandbox import IS_LINUX, IS_WINDOWS, PROCESSES, Plan, counts_processes_per_user_namespace, is_root


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
                sweep.remove_files_of(self.uid, keep=self.workdir)
        if self.cgroup is not None:
            cgroups.remove(self.cgroup)
        if self.uid is not None:
            uids.give_back(self.uid)


def child_env(home: str) -> dict:
    """A clean environment: nothing of the user's, UTF-8 everywhere, no bytecode written."""
    env = {
        "HOME": home,
        "TMPDIR": home,
        "TEMP": home,
        "TMP": home,
        "LANG": "C.UTF-8",
        "PYTHONHASHSEED": "0",
        "PYTHONUTF8": "1",
        "PYTHONIOENCODING": "utf-8",
        "PYTHONDONTWRITEBYTECODE": "1",
        "PYTHONSAFEPATH": "1",
        "PYTHONUNBUFFERED": "1",
    }
    if IS_WINDOWS:  # Windows cannot start Python without these
        for name in ("SYSTEMROOT", "SYSTEMDRIVE", "WINDIR", "COMSPEC", "PATHEXT"):
            if name in os.environ:
                env[name] = os.environ[name]
        env["PATH"] = os.environ.get("SYSTEMROOT", "C:\\Windows") + "\\system32"
    else:
        env["PATH"] = "/usr/local/bin:/usr/bin:/bin"
    return env


def start(plan: Plan, source: str, settings: dict, workdir: str) -> Started:
    """Start the child interpreter for `plan` with three pipes (requests, replies, output)."""
    python, folders = interpreters.interpreter_for(plan.drop_uid)
    uid = uids.take() if plan.drop_uid else None
    inside = bwrap.INSIDE if plan.bwrap else workdir
    root = is_root()
    settings = dict(
        settings, landlock_cap=(settings.get("landlock_cap") if plan.landlock else 0), confine=plan.landlock
    )
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
    options: dict[str, Any] = dict(
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=child_env(inside)
    )
    try:
        if uid is not None:
            os.chown(workdir, uid, uid)
            os.chmod(workdir, 0o700)
            options.update(user=uid, group=uid, extra_groups=[])
        if plan.bwrap:
            command = (
                bwrap.command(folders)
                + ["--bind", workdir, bwrap.INSIDE, "--chdir", bwrap.INSIDE]
                + bwrap.read_only()
                + ["--"]
                + command
            )
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


# --- the portable process layer (Windows; forced elsewhere by LAB_ENGINE=portable) -------------------


def _portable_options() -> dict:
    if IS_WINDOWS:
        return {
            "creationflags": getattr(subprocess, "CREATE_NEW_PROCESS_GROUP", 0)
            | getattr(subprocess, "CREATE_NO_WINDOW", 0)
        }
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
