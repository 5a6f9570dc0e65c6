"""`make watch`: re-runs the six cases every time the student's file is saved (polling, no extra dependency).

    python -m labkit.watch --student FILE -- COMMAND...

Why: docs/design.md#labkitwatchpy
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time

from labkit.i18n import text
from labkit.terminal import own_terminal

CLEAR = "\033[2J\033[H"


def fingerprint(path: str):
    """What changes when the file is saved (editors may replace the file, so the size counts too)."""
    try:
        info = os.stat(path)
    except OSError:
        return None
    return info.st_mtime_ns, info.st_size, info.st_ino


STILL_RUNNING_AFTER = 1.0  # seconds without an end before the screen says the run is still going


def run(command: list[str], path: str, out=sys.stdout) -> int:
    """One run of the cases on a cleared screen, then the status line.  A run that has not ended within a
    second says so at once (top-level code that never ends keeps the cases from starting until the load
    time limit, and the screen would stay blank until then)."""
    if out.isatty():
        out.write(CLEAR)
    out.flush()
    with subprocess.Popen(command) as process:
        try:
            try:
                code = process.wait(timeout=STILL_RUNNING_AFTER)
            except subprocess.TimeoutExpired:
                out.write(text("watch.running", time=time.strftime("%H:%M:%S"), file=path) + "\n")
                out.flush()
                code = process.wait()
        except BaseException:  # Ctrl-C: the run ends with the watcher (as subprocess.call would end it)
            process.kill()
            raise
    status = "watch.passed" if code == 0 else "watch.failed"
    out.write("\n" + text(status, time=time.strftime("%H:%M:%S"), file=path) + "\n")
    out.flush()
    return code


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="make watch", description=__doc__.split("\n")[0])
    parser.add_argument("--student", required=True)
    parser.add_argument("--interval", type=float, default=0.5, help="seconds between looks at the file")
    parser.add_argument("command", nargs=argparse.REMAINDER, help="the test command, after --")
    args = parser.parse_args(argv)
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    with own_terminal():
        try:
            seen = fingerprint(args.student)
            run(command, args.student)
            while True:
                time.sleep(args.interval)
                now = fingerprint(args.student)
                if now != seen and now is not None:
                    seen = now
                    run(command, args.student)
        except KeyboardInterrupt:
            print("\n" + text("watch.stopped"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
