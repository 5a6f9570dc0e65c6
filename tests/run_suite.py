"""`make check`'s tests: the core's (tests/), then each lab's own (labs/<name>/tests), in pytest-xdist workers when
it is installed and the machine has more than one core; exit 0 only when every run passed.  The tests marked
`conftest.CHECKOUT` (they share the checkout's dist/) run beside the workers, one after another in a process of their
own: --dist loadgroup groups nothing under pytest 9.2 (pytest-xdist issue 1386).  LAB_SUITE_WORKERS=1: one process.
"""

import importlib.util
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MOST_WORKERS = 4  # beyond this the suite's own processes (graders, browsers, sandboxes) only crowd each other
PYTEST = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider"]
NONE_SELECTED = 5  # pytest's exit code when no test was selected (a lab's tests with none marked CHECKOUT)


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
    return ["tests", *sorted(path.relative_to(ROOT).as_posix() for path in ROOT.glob("labs/*/tests") if path.is_dir())]


def run(folder: str, count: int) -> bool:
    """The tests of `folder`: in one process, or the CHECKOUT ones in one beside `count` workers for the rest (its
    output shown after theirs)."""
    if count == 1:
        return subprocess.run([*PYTEST, folder], cwd=ROOT).returncode == 0
    with tempfile.TemporaryFile() as output:
        aside = subprocess.Popen([*PYTEST, "-m", "checkout", folder], cwd=ROOT, stdout=output, stderr=subprocess.STDOUT)
        spread = subprocess.run(
            [*PYTEST, "-n", str(count), "--dist", "worksteal", "-m", "not checkout", folder], cwd=ROOT
        )
        aside.wait()
        if aside.returncode != NONE_SELECTED:
            output.seek(0)
            print(f"{folder}, the tests that share the checkout (marked CHECKOUT), one after another:", flush=True)
            sys.stdout.buffer.write(output.read())
            sys.stdout.flush()
    return spread.returncode == 0 and aside.returncode in (0, NONE_SELECTED)


def main() -> int:
    if importlib.util.find_spec("xdist") is None and "xdist" in os.environ.get("LAB_CI_REQUIRES", "").split():
        print("make check: pytest-xdist is not installed, and CI requires it (LAB_CI_REQUIRES)", file=sys.stderr)
        return 1
    count = workers()
    failed = [folder for folder in folders() if not run(folder, count)]  # one run each: a lab's conftest is its own
    if failed:
        print("make check: failed in " + ", ".join(failed), file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
