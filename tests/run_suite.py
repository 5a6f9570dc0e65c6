"""`make check`'s tests: the core's (tests/) and each lab's own (labs/<name>/tests); exit 0 only when every run passed.
With pytest-xdist and more than one core, two lanes run at once: the core's tests in workers, and beside them, one
process at a time, what must not meet another run: the core's tests marked `conftest.CHECKOUT` (they share the
checkout's dist/; --dist loadgroup groups nothing under pytest 9.2, pytest-xdist issue 1386), then each lab's tests,
whole (they make clean the checkout, and mostly wait on servers and timeouts).  LAB_SUITE_WORKERS=1: one process a
folder, one after another.
"""

import importlib.util
import os
import signal
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MOST_WORKERS = 4  # beyond this the suite's own processes (graders, browsers, sandboxes) only crowd each other
PYTEST = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider"]
NONE_SELECTED = 5  # pytest's exit code when no test was selected (a folder with none marked CHECKOUT)
CORE = "tests"


def workers() -> int:
    """How many workers: LAB_SUITE_WORKERS, else one per core up to MOST_WORKERS; 1 without pytest-xdist."""
    if importlib.util.find_spec("xdist") is None:
        return 1
    asked = os.environ.get("LAB_SUITE_WORKERS", "")
    if asked:
        return max(1, int(asked)) if asked.isdigit() else 1
    return max(1, min(os.cpu_count() or 1, MOST_WORKERS))


def folders() -> list[str]:
    """The core's tests, then every lab's own, as paths from the checkout."""
    return [CORE, *sorted(path.relative_to(ROOT).as_posix() for path in ROOT.glob("labs/*/tests") if path.is_dir())]


def lanes(found: list[str], count: int) -> tuple[list, list]:
    """The runs of `found` (the core's folder first) as two lanes, each a list of (title, pytest's arguments): the
    runs in workers, and the runs one after another beside them.  With one worker every folder is one run."""
    if count == 1:
        return [(folder, [folder]) for folder in found], []
    core, *labs = found
    spread = [(core, ["-n", str(count), "--dist", "worksteal", "-m", "not checkout", core])]
    beside = [(f"{core}, the tests that share the checkout (marked CHECKOUT)", ["-m", "checkout", core])]
    return spread, beside + [(folder, [folder]) for folder in labs]


def passed(code: int, arguments: list) -> bool:
    """A run's exit code as a verdict: 0, or none selected where the run selects by the CHECKOUT mark."""
    return code == 0 or (code == NONE_SELECTED and arguments[:2] == ["-m", "checkout"])


def as_at_a_terminal() -> None:
    """Let the tests' programs take Ctrl-C as at a terminal.  Started in the background (`make check &`, nohup, a
    script), the suite may inherit SIGINT ignored, and so would every program it starts: the tests that press Ctrl-C
    on watch, chat, serve or the grader would see it do nothing and wait out their patience.  A handler, unlike
    SIG_IGN, is not inherited: the programs start with the default."""
    if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)


def run(found: list[str], count: int) -> list[str]:
    """Run the lanes of `found`, the workers' output as it comes and then the other lane's; the titles of the runs
    that failed."""
    as_at_a_terminal()
    spread, beside = lanes(found, count)
    failed: list[str] = []
    with tempfile.TemporaryFile() as output:

        def one_after_another():
            for title, arguments in beside:
                output.write(f"{title}, one after another beside the workers:\n".encode())
                output.flush()
                code = subprocess.run([*PYTEST, *arguments], cwd=ROOT, stdout=output, stderr=subprocess.STDOUT)
                if not passed(code.returncode, arguments):
                    failed.append(title)

        lane = threading.Thread(target=one_after_another)
        lane.start()
        for title, arguments in spread:
            if not passed(subprocess.run([*PYTEST, *arguments], cwd=ROOT).returncode, arguments):
                failed.append(title)
        lane.join()
        output.seek(0)
        sys.stdout.flush()
        sys.stdout.buffer.write(output.read())
        sys.stdout.flush()
    return failed


def main() -> int:
    if importlib.util.find_spec("xdist") is None and "xdist" in os.environ.get("LAB_CI_REQUIRES", "").split():
        print("make check: pytest-xdist is not installed, and CI requires it (LAB_CI_REQUIRES)", file=sys.stderr)
        return 1
    failed = run(folders(), workers())  # one run a folder at least: a lab's conftest is its own
    if failed:
        print("make check: failed in " + "; ".join(failed), file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
