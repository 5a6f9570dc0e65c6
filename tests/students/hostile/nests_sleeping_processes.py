"""Hostile: a chain of DEPTH nested processes, each in a process group of its own, meant to outlive grading (the
reaper of round 3 ended one level of orphans a round and stopped after 50: 11 of a chain of 60 stayed, ppid 1).
The file waits at its import until the whole chain stands, then defines the lab's two functions (stub answers).

Safe by construction: every process of the chain only sleeps, and ends on its own SECONDS after the chain began
even if nothing kills it; none reads, writes or signals anything (each closes every descriptor it inherited).
Unarmed (DEPTH = 0) it starts nothing; a test writes a copy with DEPTH, SECONDS and MARKER filled in: each process
takes MARKER as its name (/proc/<pid>/comm, at most 15 characters), so the test can find what is left of it.
"""
import os
import time

DEPTH = 0  # processes in the chain, filled in by the test that uses this file
SECONDS = 30.0  # every process ends on its own this long after the chain began
MARKER = "lab09-unarmed"  # each process's name


def _named(marker):
    try:
        import ctypes
        ctypes.CDLL(None).prctl(15, marker.encode()[:15], 0, 0, 0)  # PR_SET_NAME
    except (ImportError, OSError, AttributeError):
        pass


def _level(depth, ends, ready):
    """One process of the chain: its own group and name, the next level below it, then sleep until `ends`."""
    try:
        os.setpgid(0, 0)
        _named(MARKER)
        if depth > 1 and os.fork() == 0:
            _level(depth - 1, ends, ready)
        elif depth <= 1:
            os.write(ready, b"x")  # the whole chain stands
        os.close(ready)
        while time.monotonic() < ends:
            time.sleep(min(1.0, max(0.0, ends - time.monotonic())))
    finally:
        os._exit(0)


def _chain():
    if DEPTH <= 0:
        return
    ends = time.monotonic() + SECONDS
    wait, ready = os.pipe()
    if os.fork() == 0:
        os.close(wait)
        for fd in range(3, 256):  # nothing of the child's (its reply pipe) stays open in the chain
            if fd != ready:
                try:
                    os.close(fd)
                except OSError:
                    pass
        null = os.open(os.devnull, os.O_RDWR)
        for fd in (0, 1, 2):
            os.dup2(null, fd)
        _level(DEPTH, ends, ready)
    os.close(ready)
    os.read(wait, 1)  # returns once the deepest level wrote, or when the chain is gone
    os.close(wait)


_chain()


def format_prompt(messages):
    return ""


def extract_response(output):
    return ""
