"""A child's own folder: made empty, named after this grader (PREFIX-<pid>-…), removed with whatever the child
made in it (labkit/run/removal.py); and, once per process, the folders of graders that died cleared away.
"""

from __future__ import annotations

import os
import sys
import tempfile
import time

from labkit.run import removal
from labkit.run.sandbox import PREFIX


def make() -> str:
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

        print(
            text("bounds.stale_folder", lab=active().id, count=len(stuck), folder=stuck[0]), file=sys.stderr, flush=True
        )


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
                    hasattr(os, "getuid")
                    and os.getuid() != 0
                    and entry.stat(follow_symlinks=False).st_uid != os.getuid()
                ):
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


def remove(folder: str) -> str | None:
    """Remove a child's folder, whatever the child made in it (labkit/run/removal.py): None once it is
    gone, else why it stays (the stale-folder cleanup of a later run tries again).  Never raises."""
    return removal.remove_tree(folder)
