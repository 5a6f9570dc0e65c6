"""Hostile: tries every way a process has to signal another — kill() by pid, by process group and to -1, tkill,
tgkill, rt_sigqueueinfo, rt_tgsigqueueinfo, pidfd_open + pidfd_send_signal, a /proc/<pid> folder as a pidfd,
and SIGIO through fcntl(F_SETOWN) — and checks that it can still signal itself (os.kill, signal.raise_signal,
signal.pthread_kill, its own process group), its own fork, and how a fork of it that calls os.abort ends.  It
returns the answers from format_prompt, e.g. "grader:denied,everyone:denied,kill:unseen,…,self:ok,fork:allowed".

Safe by construction: the grader and -1 get signal 0 only (a permission check that delivers nothing); each real
signal goes only to WITNESS_PID (a process its test started to record them, alone in its process group) or to
this process, its group and its own forks (which exit on their own within seconds).  Unarmed (the placeholders
are 0) it sends nothing to anyone else.
"""
import os
import signal
import sys
import threading
import time

GRADER_PID = 0  # the grading process, filled in by the test that uses this file
WITNESS_PID = 0  # a process of the test's, in a process group of its own, that records what it receives

_NUMBERS = {"x86_64": {"tkill": 200, "tgkill": 234, "rt_sigqueueinfo": 129, "rt_tgsigqueueinfo": 297}}
_GENERIC = {"tkill": 130, "tgkill": 131, "rt_sigqueueinfo": 138, "rt_tgsigqueueinfo": 240}


def _outcome(call):
    try:
        call()
        return "allowed"
    except PermissionError:
        return "denied"
    except ProcessLookupError:
        return "unseen"
    except OSError as error:
        return type(error).__name__ if error.errno != 22 else "denied"  # EINVAL: a pidfd of a namespace above


def _syscall(name, *args):
    import ctypes
    libc = ctypes.CDLL(None, use_errno=True)
    number = _NUMBERS.get(os.uname().machine, _GENERIC)[name]
    if libc.syscall(number, *args) != 0:
        error = ctypes.get_errno()
        raise OSError(error, os.strerror(error))


def _queued(name, number, *target):
    """rt_sigqueueinfo / rt_tgsigqueueinfo with a siginfo a process may send another (si_code SI_QUEUE)."""
    import ctypes
    info = (ctypes.c_int * 32)()
    info[0], info[2] = number, -1  # si_signo, si_code
    _syscall(name, *[ctypes.c_int(pid) for pid in target], ctypes.c_int(number), ctypes.byref(info))


def _by_pidfd(number):
    fd = os.pidfd_open(WITNESS_PID)
    try:
        signal.pidfd_send_signal(fd, number)
    finally:
        os.close(fd)


def _by_proc_folder(number):
    fd = os.open(f"/proc/{WITNESS_PID}", os.O_RDONLY | os.O_DIRECTORY)
    try:
        signal.pidfd_send_signal(fd, number)
    finally:
        os.close(fd)


def _by_sigio():
    import fcntl
    read, write = os.pipe()
    try:
        fcntl.fcntl(read, fcntl.F_SETOWN, WITNESS_PID)
        fcntl.fcntl(read, fcntl.F_SETFL, os.O_ASYNC | os.O_NONBLOCK)
        os.write(write, b"x")  # the read end becomes readable: SIGIO goes to its owner
    finally:
        os.close(read)
        os.close(write)


def _itself():
    """Signals this process sends itself, each caught by a handler: all must arrive."""
    got = []
    before = signal.signal(signal.SIGUSR1, lambda number, _frame: got.append(number))
    try:
        os.kill(os.getpid(), signal.SIGUSR1)
        signal.raise_signal(signal.SIGUSR1)
        signal.pthread_kill(threading.main_thread().ident, signal.SIGUSR1)
        os.kill(0, signal.SIGUSR1)  # its own process group: this process (and any fork of it in the group)
        deadline = time.monotonic() + 2.0
        while len(got) < 4 and time.monotonic() < deadline:
            time.sleep(0.01)
    except OSError as error:
        return type(error).__name__
    finally:
        signal.signal(signal.SIGUSR1, before)
    return "ok" if len(got) == 4 else f"got{len(got)}"


def _fork_of_its_own():
    pid = os.fork()
    if pid == 0:
        signal.signal(signal.SIGUSR1, signal.SIG_IGN)
        time.sleep(0.5)
        os._exit(0)
    answer = _outcome(lambda: os.kill(pid, signal.SIGTERM))
    os.waitpid(pid, 0)
    return answer


def _abort_in_a_fork():
    pid = os.fork()
    if pid == 0:
        os.abort()
    status = os.waitpid(pid, 0)[1]
    return signal.Signals(os.WTERMSIG(status)).name if os.WIFSIGNALED(status) else f"exit{os.WEXITSTATUS(status)}"


def _answers():
    if not (GRADER_PID and WITNESS_PID):
        return ["unarmed"]
    base = signal.SIGRTMIN
    probes = [("grader", lambda: os.kill(GRADER_PID, 0)), ("everyone", lambda: os.kill(-1, 0)),
              ("kill", lambda: os.kill(WITNESS_PID, signal.SIGUSR1)),
              ("group", lambda: os.kill(-WITNESS_PID, signal.SIGHUP)),
              ("tkill", lambda: _syscall("tkill", WITNESS_PID, signal.SIGWINCH)),
              ("tgkill", lambda: _syscall("tgkill", WITNESS_PID, WITNESS_PID, signal.SIGUSR2)),
              ("sigqueue", lambda: _queued("rt_sigqueueinfo", base, WITNESS_PID)),
              ("tgsigqueue", lambda: _queued("rt_tgsigqueueinfo", base + 1, WITNESS_PID, WITNESS_PID)),
              ("pidfd", lambda: _by_pidfd(base + 2)), ("procfd", lambda: _by_proc_folder(base + 3)),
              ("sigio", _by_sigio)]
    answers = [f"{name}:{_outcome(probe)}" for name, probe in probes]
    return answers + [f"self:{_itself()}", f"fork:{_fork_of_its_own()}", f"abort:{_abort_in_a_fork()}"]


def format_prompt(messages):
    return ",".join(_answers())


def extract_response(output):
    return ""
