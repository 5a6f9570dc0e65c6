"""Hostile: changes the mode, times and extended attributes of every file named in TARGETS (round 5: Landlock
covers none of them, so a child that keeps the grader's uid made a 0600 file world-readable, set a setuid bit
on root's file and granted itself a POSIX ACL), and returns which worked as "a:x,b:y".

Safe by construction: it touches only the files named in TARGETS, and TARGETS is empty here.  A test that
wants the attack writes a copy of this file with TARGETS filled in: canary files in that test's own temp dir.
"""
import os

TARGETS = []  # absolute paths of files, filled in by the test that uses this file


def _tried(change) -> str:
    try:
        change()
        return "done"
    except (OSError, AttributeError, NotImplementedError):
        return "refused"


def _attempts(path):
    yield "chmod", lambda: os.chmod(path, 0o4755)
    yield "utime", lambda: os.utime(path, (0, 0))
    yield "xattr", lambda: os.setxattr(path, "user.labkit", b"1")
    yield "chown", lambda: os.chown(path, os.getuid(), os.getgid())


def format_prompt(messages):
    said = {}
    for index, path in enumerate(TARGETS):
        for name, change in _attempts(path):
            said[f"{name}{index}"] = _tried(change)
    return ",".join(f"{key}:{value}" for key, value in said.items()) or "none:none"


def extract_response(output):
    return ""
