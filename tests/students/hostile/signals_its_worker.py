"""Hostile: stops (SIGNAL = "STOP") or kills (SIGNAL = "KILL") the grading worker that runs it — its parent
process — from format_prompt: a stopped worker froze the class run of round 4 (202.7 s instead of 1.7 s, and
forever without the attack's own SIGCONT); a worker killed twice turned a failing student's 0 into a blank grade.
It returns what it found, e.g. "parent:unseen" (no parent it can name: a pid namespace), "parent:denied".

Safe by construction: it signals only its own parent, and only when that parent is in SESSION, the session of
the test that armed it (a grader's workers share their grader's session; a shell's children do not); a stopped
parent is sent SIGCONT after SECONDS, even if nothing else ends it.  Unarmed (SESSION = 0) it signals nothing.
"""
import os
import signal
import time

SESSION = 0  # the session of the test that grades this file, filled in by that test
SIGNAL = "STOP"  # or "KILL"
SECONDS = 60.0  # how long a stopped parent stays stopped, at most


def _attack():
    parent = os.getppid()
    if not SESSION or parent <= 1:
        return "parent:unseen"
    try:
        if os.getsid(parent) != SESSION:
            return "parent:elsewhere"
    except OSError:
        return "parent:unseen"
    number = signal.SIGSTOP if SIGNAL == "STOP" else signal.SIGKILL
    try:
        os.kill(parent, number)
    except PermissionError:
        return "parent:denied"
    except ProcessLookupError:
        return "parent:unseen"
    if number == signal.SIGSTOP:
        time.sleep(SECONDS)
        os.kill(parent, signal.SIGCONT)
    return "parent:signalled"


def format_prompt(messages):
    return _attack()


def extract_response(output):
    return ""
