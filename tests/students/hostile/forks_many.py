"""Hostile: forks up to COUNT processes that sleep, to spend the processes of the user running the grader
(a grader under a process limit then cannot start the next student's child); returns how many it got,
e.g. "forked:63".

Safe by construction: each process only sleeps, at most SECONDS, then exits (and the reaper ends them all
when the child ends); COUNT is 0 unarmed, and its test sets it to a few hundred at most.
"""
import os
import time

COUNT = 0  # how many processes to try for, filled in by the test that uses this file
SECONDS = 20
_FORKED = []  # once per child process, however often format_prompt is called


def _fork_all():
    if _FORKED:
        return _FORKED[0]
    forked = 0
    for _ in range(COUNT):
        try:
            pid = os.fork()
        except OSError:
            break
        if pid == 0:
            time.sleep(SECONDS)
            os._exit(0)
        forked += 1
    _FORKED.append(forked)
    return forked


def format_prompt(messages):
    return f"forked:{_fork_all()}"


def extract_response(output):
    return ""
