"""Hostile: stops (SIGNAL = "STOP") or kills (SIGNAL = "KILL") the grading worker that runs it — its parent
process — from format_prompt: a stopped worker froze the class run of round 4 (202.7 s instead of 1.7 s, and
forever without the attack's own SIGCONT); a worker killed twice turned a failing student's 0 into a blank grade.
It returns what it found, e.g. "parent:unseen" (no parent it can name: a pid namespace), "parent:denied".

Safe by construction: it signals only its own parent, and only when that parent is a child of GRADER, the test
process that armed it (the grader it runs is that process, whose workers are its children; sessions are no mark: where
the session's leader is outside this pid namespace, as in some CI containers, getsid gives 0); a stopped parent is
sent SIGCONT after SECONDS, even if nothing else ends it.  Unarmed (GRADER = 0) it signals nothing.
"""
import os
import signal
import time

GRADER = 0  # the pid of the test process that grades this file, filled in by that test
SIGNAL = "STOP"  # or "KILL"
SECONDS = 60.0  # how long a stopped parent stays stopped, at most


def _parent_of(pid):
    """The parent of process `pid` as /proc shows it, or None where it cannot be read."""
    try:
        with open("/proc/%d/stat" % pid, "rb") as stat:
            return int(stat.read().rsplit(b")", 1)[1].split()[1])
    except (OSError, ValueError, IndexError):
        return None


def _attack():
    parent = os.getppid()
    if not GRADER or parent <= 1:
        return "parent:unseen"
    above = _parent_of(parent)
    if above is None:
        return "parent:unseen"
    if above != GRADER:
        return "parent:elsewhere"
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
