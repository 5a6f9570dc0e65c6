"""Benchmarks with goals: `make clean && make test` on the solution against a one-test pytest run."""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LAB_GOAL = 1.5  # make clean && make test may cost at most this many one-test pytest runs


def timed(command: list[str], cwd: Path) -> float:
    started = time.perf_counter()
    subprocess.run(command, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    return time.perf_counter() - started


def bench_lab(python: str, make_args: list[str], runs: int) -> bool:
    """Median wall time of the student's command and of the smallest pytest run, interleaved."""
    env_make = ["make", "--no-print-directory", *make_args]
    with tempfile.TemporaryDirectory() as scratch:
        Path(scratch, "test_one.py").write_text("def test_one():\n    pass\n")
        baseline_cmd = [python, "-m", "pytest", "-q", "-p", "no:cacheprovider", "test_one.py"]
        lab_cmd = ["sh", "-c", " ".join(env_make + ["clean"]) + " && " + " ".join(
            env_make + ["test", "STUDENT=solutions/student.py"])]
        timed(baseline_cmd, Path(scratch)), timed(lab_cmd, ROOT)  # warm both caches once
        lab, baseline = [], []
        for _ in range(runs):
            baseline.append(timed(baseline_cmd, Path(scratch)))
            lab.append(timed(lab_cmd, ROOT))
    lab_s, base_s = statistics.median(lab), statistics.median(baseline)
    ratio = lab_s / base_s
    print(f"one-test pytest run          median {base_s * 1000:7.1f} ms  ({runs} runs)")
    print(f"make clean && make test      median {lab_s * 1000:7.1f} ms  (solution, 6 cases)")
    print(f"ratio                        {ratio:.2f}x  (goal <= {LAB_GOAL}x): {'ok' if ratio <= LAB_GOAL else 'MISSED'}")
    return ratio <= LAB_GOAL


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--python", default=sys.executable, help="interpreter of the venv make uses")
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("make_args", nargs="*", help="extra make arguments, e.g. PYTHON=...")
    args = parser.parse_args()
    os.environ.pop("MAKEFLAGS", None)
    os.environ.pop("MAKELEVEL", None)
    python = os.path.abspath(args.python) if os.sep in args.python else args.python
    return 0 if bench_lab(python, args.make_args, args.runs) else 1


if __name__ == "__main__":
    sys.exit(main())
