"""Hostile: leaves a file and a folder in a world-writable folder (as /tmp, /var/tmp, /dev/shm are), where
they would outlive it and a student graded at the same time could read them; returns what happened, e.g.
"file:written,folder:written" or "file:PermissionError,folder:PermissionError".

Safe by construction: it writes only inside FOLDER, a sticky world-writable folder its test made (and
removes), under names carrying MARKER; unarmed (empty) it writes nothing.
"""
import os

FOLDER = ""  # a sticky world-writable folder, filled in by the test that uses this file
MARKER = "lab09-shared-unarmed"


def _leave(make):
    try:
        make()
        return "written"
    except FileNotFoundError:
        return "absent"
    except OSError as error:
        return type(error).__name__


def _file():
    with open(os.path.join(FOLDER, MARKER + ".txt"), "w") as handle:
        handle.write("left for a neighbour\n")


def _folder():
    inner = os.path.join(FOLDER, MARKER + "-folder", "inner")
    os.makedirs(inner)
    with open(os.path.join(inner, "note.txt"), "w") as handle:
        handle.write("left for a neighbour\n")


def format_prompt(messages):
    if not FOLDER:
        return "file:unarmed,folder:unarmed"
    return f"file:{_leave(_file)},folder:{_leave(_folder)}"


def extract_response(output):
    return ""
