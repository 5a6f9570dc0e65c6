"""Hostile (issue 15, finding 4): at import, fills its own folder with what no recursive removal survives and
no careless one gets through: 1,100 nested folders (past the recursion limit of 1,000, where Python 3.11's
shutil.rmtree(ignore_errors=True) raised RecursionError and the folder stayed; tests/test_bounds.py removes
3,000), one of them read-only (mode 500) on the way down and a locked one (mode 000) at the bottom, a
read-only file and a link to the folder above at every 500th level.  Then it answers correctly, so a grade
below full marks is the grader's fault.  (Where the seccomp filter refuses mode changes, the tree is planted
without the two modes.)

Safe: it acts only inside a child's own folder (a lab09-… temporary folder, /sandbox inside bubblewrap), and a
link is only ever made, never followed.
"""
import os

from framework.tags import ASSISTANT_TAG, END_TAG, SYSTEM_TAG, USER_TAG

DEPTH = 1100
NAME = "lab09-deep"  # the top of the tree, so a test can look for what was left


def _refusable(change, *args, **options):
    """A mode change, where the level allows one (the seccomp filter refuses chmod everywhere, its own folder
    included: then the tree is only deep)."""
    try:
        change(*args, **options)
    except PermissionError:
        pass


def _plant():
    here = os.getcwd()
    if not (os.path.basename(here).startswith("lab09-") or here == "/sandbox"):
        return
    os.mkdir(NAME)
    folder = os.open(NAME, os.O_RDONLY)
    for level in range(DEPTH):
        os.mkdir("d", dir_fd=folder)
        if level % 500 == 0:
            with open(os.open("read-only.txt", os.O_CREAT | os.O_WRONLY, 0o400, dir_fd=folder), "w") as handle:
                handle.write("x")
            os.symlink("..", "up", dir_fd=folder)
        inner = os.open("d", os.O_RDONLY, dir_fd=folder)
        if level == 1000:
            _refusable(os.fchmod, folder, 0o500)
        os.close(folder)
        folder = inner
    os.mkdir("locked", dir_fd=folder)
    _refusable(os.chmod, "locked", 0o000, dir_fd=folder)
    os.close(folder)


_plant()
TAGS = {"system": SYSTEM_TAG, "user": USER_TAG, "assistant": ASSISTANT_TAG}


def format_prompt(messages):
    parts = []
    for message in messages:
        if message["role"] not in TAGS:
            raise ValueError(f"unknown role: {message['role']}")
        parts.append(f"{TAGS[message['role']]}\n{message['content']}\n")
    return "".join(parts) + ASSISTANT_TAG + "\n"


def extract_response(output):
    start = output.rfind(ASSISTANT_TAG)
    if start < 0:
        return output.strip()
    reply = output[start + len(ASSISTANT_TAG):]
    cuts = [at for at in (reply.find(tag) for tag in (USER_TAG, ASSISTANT_TAG, SYSTEM_TAG, END_TAG)) if at >= 0]
    return reply[:min(cuts, default=len(reply))].strip()
