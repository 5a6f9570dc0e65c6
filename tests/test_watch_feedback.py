"""`make watch` tells at once that a run is still going: a top-level loop keeps the cases from starting until
the load time limit, and the screen stayed blank for those seconds."""

import signal
import subprocess
import sys
import time

from conftest import ROOT, STUDENTS, clean_env


def test_a_run_that_takes_long_says_within_a_second_that_it_is_still_going(tmp_path):
    student = tmp_path / "student.py"
    student.write_text((STUDENTS / "hostile" / "loop_at_import.py").read_text(encoding="utf-8"), encoding="utf-8")
    command = [
        sys.executable,
        "-m",
        "pytest",
        "framework/verify.py",
        f"--student={student}",
        "-qq",
        "--tb=no",
        "-rN",
        "--no-header",
        "-p",
        "no:cacheprovider",
        "--lab-report",
    ]
    process = subprocess.Popen(
        [sys.executable, "-m", "labkit.watch", "--interval", "0.1", "--student", str(student), "--", *command],
        cwd=ROOT,
        env=clean_env(LAB_LANG="en"),
        text=True,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
    )
    seen = []
    try:
        deadline = time.monotonic() + 60
        while not any("still testing" in line for line in seen):
            assert time.monotonic() < deadline, "".join(seen)
            line = process.stdout.readline()
            assert line, "".join(seen)
            seen.append(line)
        process.send_signal(signal.SIGINT)  # as Ctrl-C: the watcher ends its run with it
        process.communicate(timeout=30)
    finally:
        process.kill()
    line = next(line for line in seen if "still testing" in line)
    assert str(student) in line and "while True" in line
    assert not any(line.startswith("[TEST") for line in seen)  # before any result: the load still runs
