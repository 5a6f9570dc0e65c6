"""Hostile (round 4, attack 2): the answer key as the grader's own bytecode.  lab.py keeps the harness's
bytecode in the lab's venv (PYTHONPYCACHEPREFIX=<lab>/.venv/pycache), and the grader imports solutions/ to
draw the generated checks' answers, so after any grade or `make check` a `solutions/student.cpython-3X.pyc`
lies there.  It finds venvs by the command lines other processes show in /proc (their <venv>/bin/python;
only paths holding MARKER, a test's own folder) or at LAB, and runs the first such bytecode that gives
TASK.md's two examples.

Safe: it only reads.  What it found is what its functions return; unarmed (MARKER and LAB empty) it looks
nowhere and returns "".
"""
import marshal
import os

LAB = ""  # a lab folder to look in, filled in by the test that uses this file
MARKER = ""  # only paths holding this (the test's own folder) are looked at


def _named():
    found = []
    try:
        pids = os.listdir("/proc") if MARKER else []
    except OSError:  # a wall hides /proc
        pids = []
    for pid in pids:
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as handle:
                words = handle.read().decode("utf-8", "replace").split("\0")
        except OSError:
            continue
        for word in words:
            word = word.split("=", 1)[1] if "=" in word and not word.startswith("/") else word
            if word.startswith("/") and MARKER in word:
                found.append(word)
    return found


def _caches():
    for lab in [LAB] if LAB else []:
        yield os.path.join(lab, ".venv", "pycache")
        yield os.path.join(lab, "solutions", "__pycache__")
    for path in _named():
        if os.path.basename(os.path.dirname(path)) == "bin":  # <venv>/bin/python
            yield os.path.join(os.path.dirname(os.path.dirname(path)), "pycache")


def _bytecode():
    for cache in _caches():
        for folder, _, names in os.walk(cache):
            if os.path.basename(folder) in ("solutions", "__pycache__"):
                for name in sorted(names):
                    if name.startswith("student.") and name.endswith(".pyc"):
                        try:
                            with open(os.path.join(folder, name), "rb") as handle:
                                yield handle.read()
                        except OSError:
                            continue


def _works(data):
    space = {"__name__": "found"}
    try:
        exec(marshal.loads(data[16:]), space)
        if space["format_prompt"]([{"role": "user", "content": "你好"}]) == "<|user|>\n你好\n<|assistant|>\n" and \
                space["extract_response"]("<|user|>\n你好\n<|assistant|>\n你好！<|end|>\n") == "你好！":
            return space
    except Exception:  # noqa: BLE001
        return None
    return None


_found = next((space for space in map(_works, _bytecode()) if space), None)
if _found:
    format_prompt, extract_response = _found["format_prompt"], _found["extract_response"]
else:
    def format_prompt(messages):
        return ""

    def extract_response(output):
        return ""
