"""Hostile: finds out which walls hold — could it signal the grader (kill, SIGSTOP) or a process outside
its sandbox, read /etc/shadow, send a UDP datagram, make a user namespace (where the capabilities it was
denied come back) — and returns the answers from format_prompt, e.g.
"grader:unseen,witness:unseen,shadow:absent,udp:OSError,userns:refused".

Safe by construction: the grader only gets signal 0 (a permission check that delivers nothing); the one
real signal, SIGUSR1, goes only to WITNESS_PID, a process its test started to receive it; it reads one
byte it throws away and sends one datagram to the loopback port its test listens on; the namespace is made
by a process it forks, which then exits.  Unarmed (the placeholders are 0) those probes do nothing.
"""
import os
import signal
import socket

GRADER_PID = 0  # the grading process, filled in by the test that uses this file
WITNESS_PID = 0  # a process of the test's that records SIGUSR1 (kill(-1) would reach it too)
PORT = 0  # a UDP port on 127.0.0.1 that the test listens on


def _signal(pid, number=0):
    try:
        os.kill(pid, number)
        return "allowed"
    except PermissionError:
        return "denied"
    except ProcessLookupError:
        return "unseen"


def _read(path):
    try:
        with open(path, "rb") as handle:
            handle.read(1)
        return "readable"
    except FileNotFoundError:
        return "absent"
    except OSError:
        return "denied"


def _udp():
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as udp:
            udp.sendto(b"lab09-udp", ("127.0.0.1", PORT))
        return "sent"
    except OSError as error:
        return type(error).__name__


def _user_namespace():
    try:
        import ctypes
        pid = os.fork()
    except (ImportError, OSError) as error:
        return type(error).__name__
    if pid == 0:
        os._exit(0 if ctypes.CDLL(None).unshare(0x10000000) == 0 else 1)  # CLONE_NEWUSER
    return "made" if os.waitpid(pid, 0)[1] == 0 else "refused"


def format_prompt(messages):
    return ",".join([f"grader:{_signal(GRADER_PID) if GRADER_PID else 'unarmed'}",
                     f"witness:{_signal(WITNESS_PID, signal.SIGUSR1) if WITNESS_PID else 'unarmed'}",
                     f"shadow:{_read('/etc/shadow')}", f"udp:{_udp() if PORT else 'unarmed'}",
                     f"userns:{_user_namespace() if PORT else 'unarmed'}"])


def extract_response(output):
    return ""
