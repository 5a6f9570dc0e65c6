"""Isolation, level by level: every attack is defeated exactly where the level says so, never silently.

Each level is forced with the test switches LAB_SANDBOX (a ceiling: bwrap, uid, landlock, none) and
LAB_LANDLOCK_ABI (to simulate older kernels).  A level this machine cannot give is skipped with the
reason (bwrap is required in CI).  The attacks are the hostile files armed with paths inside this test's
temp dir; where a level does not claim to stop an attack, the attack is shown to work — harmlessly, on
the canaries — so that the level's claims are tested both ways.
"""

import ast
import os
import socket
import subprocess
import sys
import uuid

import pytest

from conftest import QUICK, ROOT, SOLUTION, STUDENTS, armed, unavailable, wait_for
from framework.harness import sandbox
from framework.harness.cases import CORE
from framework.harness.engine import StudentRun
from framework.harness.judge import check

LEVELS = {  # a name for the test -> (environment, what the level must include)
    "bwrap": ({"LAB_SANDBOX": "auto"}, "bwrap"),
    "uid": ({"LAB_SANDBOX": "uid"}, "uid"),
    "uid-no-landlock": ({"LAB_SANDBOX": "uid", "LAB_LANDLOCK_ABI": "0"}, "uid"),
    "landlock": ({"LAB_SANDBOX": "landlock"}, "landlock-"),
    "landlock-4": ({"LAB_SANDBOX": "landlock", "LAB_LANDLOCK_ABI": "4"}, "landlock-4"),
    "none": ({"LAB_SANDBOX": "none"}, "none"),
}


@pytest.fixture(params=sorted(LEVELS))
def level(request, monkeypatch):
    """Force one level for the engine in this process; skip when this machine cannot give it."""
    environment, wanted = LEVELS[request.param]
    for name in ("LAB_SANDBOX", "LAB_LANDLOCK_ABI"):
        monkeypatch.delenv(name, raising=False)
    for name, value in environment.items():
        monkeypatch.setenv(name, value)
    with StudentRun(display="probe.py", source=b"") as probe:
        probe.start()
        got = probe.level
    if got is None or wanted not in " ".join(got.walls + (got.name,)):
        reason = f"level {request.param} is not available here (got {got.name if got else 'no child'})"
        if request.param == "bwrap":
            unavailable("bwrap", reason)
        pytest.skip(reason)
    return got


def run_six(path):
    with StudentRun(path, display="student.py", limits=QUICK) as student:
        verdicts = [check(student, case) for case in CORE]
        return verdicts, student.level


def test_reading_the_solution(level, tmp_path):
    verdicts, seen = run_six(armed("steals_solution", tmp_path, SOLUTION=str(SOLUTION)))
    assert seen == level
    stolen = all(verdict.passed for verdict in verdicts)
    assert stolen == ("read" not in level.blocks), level


def test_forging_files_outside_its_folder(level, tmp_path):
    canary = tmp_path / "canary"
    (canary / "deep").mkdir(parents=True)
    for path in (canary / "grades.csv", canary / "deep" / "report.html"):
        path.write_text("untouched\n")
    os.chmod(tmp_path, 0o755)  # so only the walls, not the folder's mode, stop a child of another uid
    run_six(armed("forges_grade_files", tmp_path, TARGETS=[str(canary)]))
    untouched = all(p.read_text() == "untouched\n" for p in canary.rglob("*") if p.is_file())
    assert untouched == ("write" in level.blocks), level


WITNESS = """
import pathlib, signal, sys, time
signal.signal(signal.SIGUSR1, lambda *_: pathlib.Path(sys.argv[1]).write_text("signalled"))
pathlib.Path(sys.argv[2]).write_text("ready")
time.sleep(60)
"""


def test_signals_shadow_and_network(level, tmp_path):
    """The grader gets signal 0 only; a witness process of this test, outside any sandbox like the grader,
    records the one real signal."""
    record, ready = tmp_path / "signalled", tmp_path / "ready"
    witness = subprocess.Popen([sys.executable, "-c", WITNESS, str(record), str(ready)])
    try:
        wait_for(ready.exists, what="the witness to be ready")
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as listener:
            listener.bind(("127.0.0.1", 0))
            listener.settimeout(1.0)
            verdicts, _ = run_six(armed("probes_its_walls", tmp_path, GRADER_PID=os.getpid(),
                                        WITNESS_PID=witness.pid, PORT=listener.getsockname()[1]))
            answers = dict(item.split(":") for item in verdicts[0].facts["actual"].split(","))
            try:
                received = listener.recv(64) == b"lab09-udp"
            except OSError:
                received = False
        if answers["witness"] == "allowed":
            wait_for(record.exists, what="the witness to record the signal it got")
    finally:
        witness.kill()
        witness.wait()
    signalled = answers["grader"] == "allowed" or record.exists()
    assert (answers["witness"] == "allowed") == record.exists(), answers
    assert signalled == ("signal" not in level.blocks), (level, answers)
    assert received == ("network" not in level.blocks), (level, answers)
    if os.geteuid() == 0 and "read" in level.blocks:
        assert answers["shadow"] != "readable", (level, answers)


def _processes_with(marker: str) -> list[int]:
    found = []
    for entry in os.listdir("/proc"):
        try:
            with open(f"/proc/{entry}/cmdline", "rb") as handle:
                if marker.encode() in handle.read():
                    found.append(int(entry))
        except (OSError, ValueError):
            continue
    return found


@pytest.mark.skipif(not sandbox.IS_LINUX, reason="the reaper needs Linux (macOS: process group only, README)")
def test_nothing_outlives_grading_and_nothing_rewrites_the_results_afterwards(level, tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    (out / "grades.csv").write_text("student,score\nalice,100\n")
    marker, go = f"lab09-leftover-{uuid.uuid4().hex}", tmp_path / "go"
    os.chmod(tmp_path, 0o777)  # the leftover, whatever its uid, could act if it survived
    os.chmod(out, 0o777)
    os.chmod(out / "grades.csv", 0o666)
    run_six(armed("leaves_a_process_behind", tmp_path, TARGETS=[str(out)], MARKER=marker, GO=str(go)))
    assert "leftover" in level.blocks
    assert _processes_with(marker) == []  # gone when the run returns
    twin = tmp_path / "twin"  # does what a survivor would, outside any sandbox: when it has acted, a survivor could
    twin.mkdir()
    (twin / "grades.csv").write_text("")
    source = (STUDENTS / "hostile" / "leaves_a_process_behind.py").read_text(encoding="utf-8")
    later = next(node.value.value for node in ast.parse(source).body
                 if isinstance(node, ast.Assign) and node.targets[0].id == "LATER")
    acting = subprocess.Popen([sys.executable, "-S", "-c", later, "lab09-twin", str(go), str(twin)])
    try:
        go.write_text("now")
        wait_for(lambda: (twin / "grades.csv").read_text(), what="the twin to act")
    finally:
        acting.kill()
        acting.wait()
    assert (out / "grades.csv").read_text() == "student,score\nalice,100\n"


def test_the_level_is_named_honestly(level):
    if "bwrap" in level.walls:
        assert level.name == "bwrap" and level.full
    elif any(wall.startswith("landlock-4") for wall in level.walls):
        assert "no signal scoping" in level.name
    if level.name == "none":
        assert not level.full and set(level.blocks) <= {"leftover"}
    assert level.full == ({"read", "write", "signal", "leftover"} <= set(level.blocks))


def test_readme_states_exactly_what_each_level_blocks():
    """README's threat-model table is the same claim as sandbox.blocked_by."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    table = readme.split("<!-- threat-model -->\n", 1)[1].split("\n\n", 1)[0].splitlines()
    columns = ["read", "write", "signal", "network", "leftover"]
    assert [cell.strip() for cell in table[0].strip("|").split("|")][1:] and len(table) >= 8
    walls = {"`bwrap`": (("bwrap", "uid 61000", "landlock-7", "reaper"), 7),
             "`uid + landlock-6+`": (("uid 61000", "landlock-7", "reaper"), 7),
             "`landlock-6+`": (("landlock-7", "reaper"), 7),
             "`landlock-4": (("landlock-4", "reaper"), 4),
             "`uid`": (("uid 61000", "reaper"), 0),
             "`none`": (("reaper",), 0)}
    for row in table[2:]:
        cells = [cell.strip() for cell in row.strip("|").split("|")]
        key = next(k for k in walls if cells[0].startswith(k))
        blocked = {column for column, cell in zip(columns, cells[1:]) if cell == "blocked"}
        assert blocked == set(sandbox.blocked_by(*walls[key])), row
