"""`make check`'s tests: the core's (tests/), then each lab's own (labs/<name>/tests), in workers when pytest-xdist
is installed (tests/requirements.txt) and the machine has more than one core; exit 0 only when every run passed.

Tests that share the checkout's own outputs (dist/: make dist, make gradescope, make clean there) are marked
`conftest.CHECKOUT` and run in one worker, one after another.  LAB_SUITE_WORKERS=1 runs everything in this process.
"""

import importlib.util
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MOST_WORKERS = 4  # beyond this the suite's own processes (graders, browsers, sandboxes) only crowd each other


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


def main() -> int:
    if importlib.util.find_spec("xdist") is None and "xdist" in os.environ.get("LAB_CI_REQUIRES", "").split():
        print("make check: pytest-xdist is not installed, and CI requires it (LAB_CI_REQUIRES)", file=sys.stderr)
        return 1
    count = workers()
    spread = ["-n", str(count), "--dist", "loadgroup"] if count > 1 else []
    failed = []
    for folder in folders():  # one run each: a lab's tests have a conftest of their own
        done = subprocess.run(
            [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *spread, folder], cwd=ROOT
        )
        if done.returncode != 0:
            failed.append(folder)
    if failed:
        print("make check: failed in " + ", ".join(failed), file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
