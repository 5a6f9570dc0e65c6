"""Hostile: fills the disk or the machine's memory with files — in its own folder (the working folder, where TMPDIR
points: a tmpfs there is memory that RLIMIT_AS does not count), in FOLDER, or in files of memory in no folder at all
(FOLDER = "memfd": memfd_create) — until it has written BYTES bytes in files of at most 1 MiB, or FILES empty files,
or a write fails; at its import (WHEN = "import") or in format_prompt, which returns what it wrote, e.g.
"bytes:67108864,files:64,stopped:OSError".

Safe by construction: it writes at most BYTES bytes (or FILES empty files), only in its own folder, in FOLDER (a
folder its test made, or where that is out of its sight, one of that name it makes) or in memory files that end
with it; unarmed (BYTES and FILES are 0) it writes nothing.
"""
import os

BYTES = 0  # filled in by the test that uses this file
FILES = 0
FOLDER = ""  # "" its own folder, "memfd", or a folder of its test's
WHEN = "call"  # "call" or "import"

_MIB = b"x" * (1 << 20)


def _fill():
    written, files, stopped, kept = 0, 0, "no", []
    folder = FOLDER if FOLDER not in ("", "memfd") else "."
    try:
        os.makedirs(folder, exist_ok=True)  # FOLDER may be out of its sight (inside bubblewrap): it makes its own
        while written < BYTES or files < FILES:
            if FOLDER == "memfd":
                fd = os.memfd_create(f"lab09-{files}")
                kept.append(fd)  # a memory file lasts while it is open
            else:
                fd = os.open(os.path.join(folder, f"lab09-fill-{os.getpid()}-{files}"), os.O_WRONLY | os.O_CREAT, 0o600)
            files += 1
            try:
                if written < BYTES:
                    written += os.write(fd, _MIB[:min(len(_MIB), BYTES - written)])
            finally:
                if FOLDER != "memfd":
                    os.close(fd)
    except OSError as error:
        stopped = type(error).__name__
    return f"bytes:{written},files:{files},stopped:{stopped}"


_AT_IMPORT = _fill() if WHEN == "import" and (BYTES or FILES) else ""


def format_prompt(messages):
    return _AT_IMPORT or (_fill() if BYTES or FILES else "bytes:0,files:0,stopped:unarmed")


def extract_response(output):
    return ""
