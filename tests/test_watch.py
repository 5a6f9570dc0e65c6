"""`make watch`: a run at start, another on every save, the summary last, Ctrl-C leaves cleanly."""

import os
import signal
import subprocess
import sys
import time

from conftest import LAB, ROOT, SOLUTION, STUB, clean_env
from labkit.i18n import text

PATIENCE = 120.0  # seconds before a step counts as hung: a busy machine makes each run of the six slow


def save(path, text: str) -> None:
    """Save as an editor does, in one step: a watcher never sees the file half-written (an in-place write is
    first an empty file, and a run of the six on that, under load, would be one run too many)."""
    draft = path.with_name(path.name + ".draft")
    draft.write_text(text, encoding="utf-8")
    os.replace(draft, path)


def read_until(process, marker: str, seen: list, count: int, timeout: float = PATIENCE) -> None:
    deadline = time.monotonic() + timeout
    while sum(marker in line for line in seen) < count:
        assert time.monotonic() < deadline, "".join(seen)
        line = process.stdout.readline()
        assert line, "".join(seen)
        seen.append(line)


def test_watch_reruns_on_save_and_stops_cleanly(tmp_path):
    student = tmp_path / "student.py"
    student.write_text(STUB.read_text(encoding="utf-8"), encoding="utf-8")
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
        env=clean_env(),
        text=True,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
    )
    seen: list[str] = []
    try:
        read_until(process, "Ctrl-C", seen, 1)
        save(student, SOLUTION.read_text(encoding="utf-8"))
        read_until(process, "Ctrl-C", seen, 2)
        process.send_signal(signal.SIGINT)
        rest, _ = process.communicate(timeout=PATIENCE)
    finally:
        process.kill()
    summaries = [line for line in seen if line.startswith("测试结果")]
    six = len(LAB.selected("test"))
    assert summaries == [
        text("summary", "zh", passed=0, failed=six) + "\n",
        text("summary", "zh", passed=six, failed=0) + "\n",
    ]
    last_run = "".join(seen).rsplit("=== Prompt", 1)[1]
    assert last_run.rstrip().endswith("Ctrl-C 退出。") and "全部通过" in last_run  # the summary is last
    assert process.returncode == 0 and "watch 已停止" in rest and "Traceback" not in rest


def test_ctrl_c_in_a_terminal_ends_make_watch_without_an_error(tmp_path):
    """Through `make`, as a student runs it: make itself must not report an interrupted target."""
    import os
    import pty
    import select

    student = tmp_path / "student.py"
    student.write_text(SOLUTION.read_text(encoding="utf-8"), encoding="utf-8")
    pid, terminal = pty.fork()
    if pid == 0:  # the child: make watch on a terminal of its own
        os.chdir(ROOT)
        os.execvpe(
            "make",
            ["make", "--no-print-directory", "watch", f"STUDENT={student}", f"PYTHON={sys.executable}"],
            clean_env(),
        )
    seen = b""
    deadline = time.monotonic() + PATIENCE
    while b"Ctrl-C" not in seen and time.monotonic() < deadline:
        if select.select([terminal], [], [], 0.1)[0]:
            seen += os.read(terminal, 65536)
    os.write(terminal, b"\x03")
    status = None
    deadline = time.monotonic() + PATIENCE
    while status is None and time.monotonic() < deadline:
        if select.select([terminal], [], [], 0.1)[0]:
            try:
                seen += os.read(terminal, 65536)
            except OSError:
                pass
        reaped, code = os.waitpid(pid, os.WNOHANG)
        status = os.waitstatus_to_exitcode(code) if reaped else None
    if status is None:
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
    text = seen.decode("utf-8", "replace")
    assert status == 0, text[-500:]
    assert "watch 已停止" in text and "Interrupt" not in text and "Error" not in text, text[-500:]
