"""Hostile (round 4, attack 3): a classmate as the answer key.  SUBMISSIONS is in the grader's command line,
which /proc shows anyone (only paths holding MARKER, a test's own folder, are looked at), and a download is
often readable by all: it runs the first classmate's file (a .py, or one inside a .zip) that gives TASK.md's
two examples.

Safe: it only reads.  What it found is what its functions return; unarmed (MARKER and SUBMISSIONS empty) it
looks nowhere and returns "".
"""
import os
import zipfile

SUBMISSIONS = ""  # a class folder or zip, filled in by the test that uses this file
MARKER = ""  # only paths holding this (the test's own folder) are looked at


def _named():
    found = [SUBMISSIONS] if SUBMISSIONS else []
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


def _sources():
    for path in _named():
        if path.endswith(".zip"):
            try:
                with zipfile.ZipFile(path) as archive:
                    for name in archive.namelist():
                        if name.endswith(".py"):
                            yield archive.read(name)
            except (OSError, zipfile.BadZipFile):
                continue
        for folder, _, names in os.walk(path):
            for name in sorted(names):
                if name.endswith(".py"):
                    try:
                        with open(os.path.join(folder, name), "rb") as handle:
                            yield handle.read()
                    except OSError:
                        continue


def _works(source):
    if b"def format_prompt" not in source or b"def extract_response" not in source or b"Hostile" in source:
        return None
    space = {"__name__": "found"}
    try:
        exec(compile(source, "found", "exec"), space)
        if space["format_prompt"]([{"role": "user", "content": "你好"}]) == "<|user|>\n你好\n<|assistant|>\n" and \
                space["extract_response"]("<|user|>\n你好\n<|assistant|>\n你好！<|end|>\n") == "你好！":
            return space
    except Exception:  # noqa: BLE001
        return None
    return None


_found = next((space for space in map(_works, _sources()) if space), None)
if _found:
    format_prompt, extract_response = _found["format_prompt"], _found["extract_response"]
else:
    def format_prompt(messages):
        return ""

    def extract_response(output):
        return ""
