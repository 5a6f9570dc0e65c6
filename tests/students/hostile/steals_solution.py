"""Hostile: looks for the reference solution (through the grader's working folder in /proc, in the parent
folders, and at SOLUTION, filled in by a test) and copies its functions when it can read it.

Safe: it only reads.
"""
import os

SOLUTION = ""  # an absolute path, filled in by the test that uses this file


def _candidates():
    yield f"/proc/{os.getppid()}/cwd/solutions/student.py"
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
