"""The terminal for the interactive faces (`make watch`, `make chat`): Ctrl-C reaches them, not `make`."""

from __future__ import annotations

import contextlib
import os
import signal
import sys


@contextlib.contextmanager
def own_terminal():
    """Take the terminal's foreground process group, as a shell does for a job, so that Ctrl-C reaches
    this process (and what it started in its group) but not `make`, which would otherwise report an
    error; the terminal is handed back on the way out.  Without a terminal this does nothing."""
    try:
        terminal = sys.stdin.fileno()
        previous = os.tcgetpgrp(terminal)
        os.setpgid(0, 0)
        signal.signal(signal.SIGTTOU, signal.SIG_IGN)
        os.tcsetpgrp(terminal, os.getpgrp())
    except (OSError, AttributeError, ValueError):
        yield
        return
    try:
        yield
    finally:
        with contextlib.suppress(OSError):
            os.tcsetpgrp(terminal, previous)
