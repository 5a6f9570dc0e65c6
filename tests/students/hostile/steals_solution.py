"""Hostile: looks for the reference solution (through the working folders of the processes above it in /proc —
its parent, or where its pid namespace hides its parent from it, the ancestors /proc/self/stat leads to —, in the
parent folders, and at SOLUTION, filled in by a test) and copies its functions when it can read it.

Safe: it only reads.
"""
import os

SOLUTION = ""  # an absolute path, filled in by the test that uses this file


def _ancestors():
    """The pids above this process as /proc counts them (the machine's, not those of a pid namespace of its own)."""
    pid = "self"
    for _ in range(16):
        try:
            with open(f"/proc/{pid}/stat", "rb") as handle:
                pid = handle.read().rsplit(b")", 1)[1].split()[1].decode()
        except (OSError, IndexError):
            return
        if pid in ("0", "1"):
            return
        yield pid


def _candidates():
    yield f"/proc/{os.getppid()}/cwd/solutions/student.py"
    for pid in _ancestors():
        yield f"/proc/{pid}/cwd/solutions/student.py"
    if SOLUTION:
        yield SOLUTION
    here = os.path.abspath(os.getcwd())
    while True:
        yield os.path.join(here, "solutions", "student.py")
        parent = os.path.dirname(here)
        if parent == here:
            return
        here = parent


def _steal():
    for candidate in _candidates():
        try:
            with open(candidate, encoding="utf-8") as handle:
                return handle.read()
        except OSError:
            continue
    return None


_stolen = _steal()
if _stolen:
    exec(_stolen)
else:
    def format_prompt(messages):
        return ""

    def extract_response(output):
        return ""
