"""Isolation, level by level: every attack is defeated exactly where the level says so, never silently.

Each level is forced with the test switches LAB_SANDBOX (a ceiling: bwrap, uid, landlock, none),
LAB_LANDLOCK_ABI (to simulate older kernels), LAB_NO_SECCOMP (a system without seccomp, as macOS) and
LAB_NO_NAMESPACES (a kernel or container that refuses the child a pid or mount namespace).  A
level this machine cannot give is skipped with the reason (bwrap is required in CI).  The attacks are the
hostile files armed with paths inside this test's temp dir, or inside a folder it made that any uid can
reach (its own temp dir may sit below a private folder); where a level does not claim to stop an attack,
the attack is shown to work — harmlessly, on the canaries — so that the level's claims are tested both
ways.  README's threat-model table is checked against what each level blocks, here and in the abstract.

The attacks run against Lab09 at every level and against every other lab of conftest.LABS (the toy, Lab10) at the
strongest level this machine gives: the walls do not depend on the lab, and one level shows its child is behind them.
"""

import ast
import json
import os
import re
import shutil
import signal
import socket
import stat
import subprocess
import sys
import tempfile
import time
import uuid
import zipfile
from dataclasses import replace
from pathlib import Path

import pytest

from conftest import (
    ALL,
    CHECKOUT,
    CLASS_LIMITS,
    DEFAULT,
    LAB,
    LABS,
    QUICK,
    ROOT,
    SOLUTION,
    STUDENTS,
    armed,
    clean_env,
    for_lab,
    in_order,
    make,
    role,
    unavailable,
    use_lab,
    wait_for,
)
from labkit import assess, render
from labkit.i18n import text
from labkit.run import interpreters, probe as probe_module, sandbox, sweep, uids
from labkit.run.engine import StudentRun
from labkit.run.reaper import process_stat
from labkit.spec import active
from labkit.instructor import audit, config
from labkit.instructor.outputs import figures, grades_json, report_page
from labkit.instructor.class_run import ClassOptions, grade_folder
from results_fixtures import made_result

SWITCHES = ("LAB_SANDBOX", "LAB_LANDLOCK_ABI", "LAB_NO_SECCOMP", "LAB_NO_NAMESPACES")
LEVELS = {  # a name for the test -> (environment, what the level must include)
    "bwrap": ({"LAB_SANDBOX": "auto"}, "bwrap"),
    "bwrap-no-landlock": ({"LAB_SANDBOX": "auto", "LAB_LANDLOCK_ABI": "0"}, "bwrap"),  # an older kernel's bubblewrap
    "uid": ({"LAB_SANDBOX": "uid"}, "uid"),
    "uid-no-landlock": ({"LAB_SANDBOX": "uid", "LAB_LANDLOCK_ABI": "0"}, "uid"),
    "uid-no-seccomp": ({"LAB_SANDBOX": "uid", "LAB_LANDLOCK_ABI": "0", "LAB_NO_SECCOMP": "1"}, "uid"),  # macOS
    "landlock": ({"LAB_SANDBOX": "landlock"}, "landlock-"),
    "landlock-4": ({"LAB_SANDBOX": "landlock", "LAB_LANDLOCK_ABI": "4"}, "landlock-4"),
    "landlock-5": ({"LAB_SANDBOX": "landlock", "LAB_LANDLOCK_ABI": "5"}, "landlock-5"),
    "none": ({"LAB_SANDBOX": "none"}, "none"),
    # where the kernel refuses the child a pid namespace: the seccomp filter keeps its signals in, the reaper does
    # what it can with what it leaves; and with no wall at all
    "landlock-4-no-pidns": (
        {"LAB_SANDBOX": "landlock", "LAB_LANDLOCK_ABI": "4", "LAB_NO_NAMESPACES": "1"},
        "landlock-4 (no pid namespace)",
    ),
    "none-no-pidns": ({"LAB_SANDBOX": "none", "LAB_NO_NAMESPACES": "1"}, "none (no pid namespace)"),
}


def probe(monkeypatch, environment: dict):
    """The level a child gets with these switches (and no others) in this process."""
    for name in SWITCHES:
        monkeypatch.delenv(name, raising=False)
    for name, value in environment.items():
        monkeypatch.setenv(name, value)
    with StudentRun(display="probe.py", source=b"") as child:
        child.start()
        return child.level


def forced(monkeypatch, name: str):
    """Force level `name` for the engine in this process: the level a child gets, or None where this machine
    cannot give it."""
    environment, wanted = LEVELS[name]
    got = probe(monkeypatch, environment)
    return got if got is not None and wanted in " ".join(got.walls + (got.name,)) else None


def forced_or_skipped(monkeypatch, name: str):
    got = forced(monkeypatch, name)
    if got is None:
        reason = f"level {name} is not available here"
        if name == "bwrap":
            unavailable("bwrap", reason)
        pytest.skip(reason)
    return got


_GIVEN: dict = {}  # level name -> what forced() gave in this process (the machine does not change during a run)


def strongest(monkeypatch) -> str:
    """The level of LEVELS that blocks most here (the first of them on a tie: bwrap before the others)."""
    for name in LEVELS:
        if name not in _GIVEN:
            _GIVEN[name] = forced(monkeypatch, name)
    return max((name for name in LEVELS if _GIVEN[name]), key=lambda name: len(_GIVEN[name].blocks))


@pytest.fixture(params=sorted(LEVELS))
def level(request, monkeypatch):
    """Force one level for the engine in this process; skip when this machine cannot give it."""
    return forced_or_skipped(monkeypatch, request.param)


@pytest.fixture(
    params=[(DEFAULT[0], name) for name in sorted(LEVELS)]
    + [(name, "strongest") for name in LABS if name != DEFAULT[0]],
    ids="-".join,
)
def attacked(request, monkeypatch):
    """`level` for the attacks, with the lab they attack active: Lab09 at every level, every other lab of
    conftest.LABS (the toy, Lab10) at the strongest."""
    lab_name, name = request.param
    got = forced_or_skipped(monkeypatch, strongest(monkeypatch) if name == "strongest" else name)
    for _lab in use_lab(lab_name, monkeypatch):
        yield got


def _open_to_others(folder) -> bool:
    real = Path(os.path.realpath(folder))
    return real.is_dir() and all(os.stat(f).st_mode & 0o001 for f in (real, *real.parents))


def _made_in(candidates, mode: int):
    base = next((folder for folder in candidates if _open_to_others(folder)), None)
    if base is None:
        pytest.skip("no temporary folder that other users can reach")
    folder = Path(tempfile.mkdtemp(prefix="lab09-test-", dir=os.path.realpath(base)))
    folder.chmod(mode)
    return folder


@pytest.fixture
def open_folder():
    """A folder of this test's (0755) that a child of any uid can reach: where an attack must succeed because
    its level makes no claim, nothing but the level may stand in its way (not a private folder above)."""
    folder = _made_in((tempfile.gettempdir(), "/tmp", "/var/tmp"), 0o755)
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture
def shared_folder():
    """A sticky world-writable folder of this test's (1777) inside one of the folders anyone may write."""
    folder = _made_in(
        [f for f in sweep.SHARED_FOLDERS if os.path.isdir(f) and os.stat(f).st_mode & stat.S_ISVTX], 0o1777
    )
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


def run_six(path):
    """The active lab's `make test` checks on `path` of the two functions a file written for Lab09 defines (as a
    file of that lab: conftest.role's ALL), and the level they ran at.  The attacks are format_prompt's: the lab's
    first function runs it (`in_order`, in a lab of one function too)."""
    lab = active()
    cases = [case for case in lab.selected("test") if case.id in role(lab, ALL)]
    with StudentRun(
        for_lab(path, lab, path.parent, in_order(lab)), display=lab.student_file_name, limits=QUICK
    ) as student:
        verdicts = [assess.verdict(student, case) for case in cases]
        assert [verdict.case.id for verdict in verdicts] == [case.id for case in cases]
        return verdicts, student.level


def answers_of(path, limits=QUICK) -> tuple[dict, object]:
    """A hostile file's answers ("a:x,b:y" from its format_prompt, called once as the active lab's first
    function) and the level it ran at."""
    lab = active()
    with StudentRun(
        for_lab(path, lab, path.parent, in_order(lab)), display=lab.student_file_name, limits=limits
    ) as student:
        record, problem, detail = student.call(lab.functions[0], [[]])
        assert record is not None, (problem, detail)
        return dict(item.split(":", 1) for item in record.returned["value"].split(",")), student.level


def test_reading_the_solution(attacked, open_folder):
    level = attacked
    solution = open_folder / "solutions" / "student.py"
    solution.parent.mkdir(mode=0o755)
    shutil.copy(active().solution_path, solution)  # what steals_solution.py runs if it can read it
    solution.chmod(0o644)  # readable by others: only the level's walls keep it from the child
    verdicts, seen = run_six(armed("steals_solution", open_folder, SOLUTION=str(solution)))
    assert seen == level
    (open_folder / "unread").mkdir()
    unread = open_folder / "unread" / "steals_nothing.py"  # what steals_solution.py defines when it reads nothing
    unread.write_text("def format_prompt(messages):\n    return ''\n\n\ndef extract_response(output):\n    return ''\n")
    outcomes = lambda run: [(verdict.passed, verdict.problem) for verdict in run]  # noqa: E731
    # it read one solution or another (another lab's: the grader's)
    stolen = outcomes(verdicts) != outcomes(run_six(unread)[0])
    assert stolen == ("read" not in level.blocks), level
    if active().id == LAB.id:
        assert stolen == all(verdict.passed for verdict in verdicts)


def test_forging_files_outside_its_folder(attacked, open_folder):
    level = attacked
    canary = open_folder / "canary"
    (canary / "deep").mkdir(parents=True)
    for path in (canary / "grades.csv", canary / "deep" / "report.html"):
        path.write_text("untouched\n")
    run_six(armed("forges_grade_files", open_folder, TARGETS=[str(canary)]))
    untouched = all(p.read_text() == "untouched\n" for p in canary.rglob("*") if p.is_file())
    assert untouched == ("write" in level.blocks), level


def test_changing_modes_times_and_attributes_outside_its_folder(attacked, open_folder):
    """Round 5: Landlock covers no change of a file's metadata, so a child that keeps the grader's uid (or is
    root without capabilities) made a 0600 file world-readable, set a setuid bit and granted itself an ACL;
    the seccomp filter refuses chmod, chown, utime and the xattr calls.  Where the level says "write" is
    blocked, the canary keeps its mode, times and attributes, whatever the call said."""
    level = attacked
    canary = open_folder / "canary"
    canary.write_text("secret\n")
    canary.chmod(0o600)
    before = canary.stat()
    said, seen = answers_of(armed("changes_modes_outside", open_folder, TARGETS=[str(canary)]))
    assert seen == level
    after = canary.stat()
    attributes = os.listxattr(canary) if hasattr(os, "listxattr") else []
    untouched = (after.st_mode, after.st_mtime_ns) == (
        before.st_mode,
        before.st_mtime_ns,
    ) and "user.labkit" not in attributes
    assert untouched == ("write" in level.blocks), (level, said)
    if "write" in level.blocks:
        assert set(said.values()) == {"refused"}, said


def test_leaving_files_in_world_writable_folders(attacked, shared_folder, tmp_path):
    """Finding 8: at `uid` without Landlock a child could leave files in /tmp for a student graded at the same
    time; they are removed when it ends.  Where the level stops no such write, they stay (the test removes)."""
    level = attacked
    marker = f"lab09-shared-{uuid.uuid4().hex}"
    answers, seen = answers_of(armed("writes_shared_folders", tmp_path, FOLDER=str(shared_folder), MARKER=marker))
    assert seen == level
    written = answers["file"] == "written"
    assert written == (answers["folder"] == "written") == ("shared" not in level.blocks), (level, answers)
    left = sorted(path.name for path in shared_folder.iterdir())
    if "uid" in level.walls:
        assert left == [], (level, left)  # removed when the child ended, before its uid went to another
    else:
        assert left == ([marker + "-folder", marker + ".txt"] if written else []), (level, left)


def _received(listener) -> bool:
    """Whether a client connected to `listener` and sent its line (it did so before the call returned)."""
    listener.setblocking(False)
    try:
        connection, _ = listener.accept()
    except BlockingIOError:
        return False
    with connection:
        connection.settimeout(5.0)
        return connection.recv(64) == b"lab09-unix\n"


def test_connecting_to_local_sockets(attacked, open_folder, tmp_path):
    """Finding 1: Landlock does not cover connect() on a socket file, so a child reached the instructor's D-Bus
    session bus, agents and X11 at every Landlock level.  Here a socket file anyone may use and an abstract
    socket, both this test's, listen; the child sends a line to each."""
    level = attacked
    path, name = open_folder / "bus", f"lab09-test-{uuid.uuid4().hex}"
    with (
        socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as by_path,
        socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as abstract,
    ):
        by_path.bind(str(path))
        path.chmod(0o777)  # connect() needs write permission on the socket file: any uid has it here
        by_path.listen(1)
        abstract.bind("\0" + name)
        abstract.listen(1)
        answers, seen = answers_of(armed("connects_to_local_sockets", tmp_path, SOCKET=str(path), ABSTRACT=name))
        received = {"path": _received(by_path), "abstract": _received(abstract)}
    assert seen == level
    assert received == {"path": "sockets" not in level.blocks, "abstract": "sockets" not in level.blocks}, (
        level,
        answers,
    )
    assert (answers["path"] == "sent") == received["path"], answers


def test_spending_the_graders_processes(attacked, tmp_path):
    """Finding 2: with no process limit of its own a child could fork until the grader's user had none left.
    Where the level claims a limit, the child gets fewer than sandbox.PROCESSES; elsewhere all it asks for."""
    level = attacked
    count = 2 * sandbox.PROCESSES
    answers, seen = answers_of(armed("forks_many", tmp_path, COUNT=count, SECONDS=10))
    assert seen == level
    forked = int(answers["forked"])
    assert (forked < sandbox.PROCESSES) == ("processes" in level.blocks), (level, forked)
    assert forked == count or "processes" in level.blocks, (level, forked)


WITNESS = """
import pathlib, signal, sys, time
signal.signal(signal.SIGUSR1, lambda *_: pathlib.Path(sys.argv[1]).write_text("signalled"))
pathlib.Path(sys.argv[2]).write_text("ready")
time.sleep(60)
"""


def test_signals_shadow_network_and_namespaces(attacked, tmp_path):
    """The grader gets signal 0 only; a witness process of this test, outside any sandbox like the grader,
    records the one real signal."""
    level = attacked
    record, ready = tmp_path / "signalled", tmp_path / "ready"
    witness = subprocess.Popen([sys.executable, "-c", WITNESS, str(record), str(ready)])
    try:
        wait_for(ready.exists, what="the witness to be ready")
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as listener:
            listener.bind(("127.0.0.1", 0))
            listener.settimeout(1.0)
            answers, seen = answers_of(
                armed(
                    "probes_its_walls",
                    tmp_path,
                    GRADER_PID=os.getpid(),
                    WITNESS_PID=witness.pid,
                    PORT=listener.getsockname()[1],
                )
            )
            assert seen == level
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
    if "seccomp" in level.walls:  # no namespace to take back the capabilities in
        assert answers["userns"] == "refused", (level, answers)
    elif os.geteuid() == 0:
        assert answers["userns"] == "made", (level, answers)  # harmless: the forked process just exits
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
def test_nothing_outlives_grading_and_nothing_rewrites_the_results_afterwards(attacked, open_folder):
    """A detached grandchild (double fork, setsid) is gone when the run returns: at every level that claims it
    (its pid namespace, its uid, bubblewrap), and where none does (no pid namespace) by the reaper, which sees
    a process that waits, as this one does."""
    level = attacked
    out = open_folder / "out"
    out.mkdir()
    (out / "grades.csv").write_text("student,score\nalice,100\n")
    marker, go = f"lab09-leftover-{uuid.uuid4().hex}", open_folder / "go"
    os.chmod(open_folder, 0o777)  # the leftover, whatever its uid, could act if it survived
    os.chmod(out, 0o777)
    os.chmod(out / "grades.csv", 0o666)
    run_six(armed("leaves_a_process_behind", open_folder, TARGETS=[str(out)], MARKER=marker, GO=str(go)))
    assert _processes_with(marker) == [], level  # gone when the run returns
    twin = open_folder / "twin"  # does what a survivor would, outside any sandbox: when it has acted, a survivor could
    twin.mkdir()
    (twin / "grades.csv").write_text("")
    source = (STUDENTS / "hostile" / "leaves_a_process_behind.py").read_text(encoding="utf-8")
    later = next(
        node.value.value
        for node in ast.parse(source).body
        if isinstance(node, ast.Assign) and node.targets[0].id == "LATER"
    )
    acting = subprocess.Popen([sys.executable, "-S", "-c", later, "lab09-twin", str(go), str(twin)])
    try:
        go.write_text("now")
        wait_for(lambda: (twin / "grades.csv").read_text(), what="the twin to act")
    finally:
        acting.kill()
        acting.wait()
    assert (out / "grades.csv").read_text() == "student,score\nalice,100\n"


def _named(marker: str) -> list[int]:
    """The processes whose name (/proc/<pid>/comm) is `marker`."""
    found = []
    for entry in os.listdir("/proc"):
        try:
            with open(f"/proc/{entry}/comm", "rb") as handle:
                if handle.read().strip() == marker.encode():
                    found.append(int(entry))
        except (OSError, ValueError):
            continue
    return found


@pytest.mark.skipif(not sandbox.IS_LINUX, reason="the reaper needs Linux (macOS: process group only, README)")
def test_a_chain_of_sixty_nested_sleepers_each_in_its_own_group_leaves_nothing(attacked, tmp_path):
    """Round 4, finding 5: the reaper ended one level of orphans a round and stopped after 50, so a chain of 60
    nested sleeping processes, each in a process group of its own, left 11 alive (ppid 1) at non-root landlock-6+
    and landlock-4, levels that claimed "leave processes behind: blocked".  Where a level claims it, the kernel
    ends the chain (its pid namespace, bubblewrap's) or its uid's kill -1 does; where it does not (no pid
    namespace), the reaper, which stops each tree it finds and then kills it whole, still ends a sleeping one."""
    level = attacked
    marker = f"l9n-{uuid.uuid4().hex[:11]}"  # a process name holds 15 characters
    try:
        verdicts, seen = run_six(armed("nests_sleeping_processes", tmp_path, DEPTH=60, SECONDS=90.0, MARKER=marker))
        assert seen == level  # it loaded once the chain stood, and failed as a stub does:
        assert {verdict.problem for verdict in verdicts} <= {"wrong_value", "wrong_type", "no_exception"}, verdicts
        # (no_exception: a value where Lab10's checks demand a ValueError)
        assert _named(marker) == [], level  # gone when the run returns
    finally:
        for pid in _named(marker):  # what this test's own fixture left, should the wall not hold
            os.kill(pid, signal.SIGKILL)


WITNESS_OF_ALL = """
import pathlib, signal, sys, time
names = {signal.SIGUSR1: "kill", signal.SIGHUP: "group", signal.SIGWINCH: "tkill", signal.SIGUSR2: "tgkill",
         signal.SIGRTMIN: "sigqueue", signal.SIGRTMIN + 1: "tgsigqueue", signal.SIGRTMIN + 2: "pidfd",
         signal.SIGRTMIN + 3: "procfd", signal.SIGIO: "sigio"}
def record(number, _frame):
    with open(sys.argv[1], "a") as handle:
        handle.write(names[number] + "\\n")
for number in names:
    signal.signal(number, record)
pathlib.Path(sys.argv[2]).write_text("ready")
time.sleep(120)
"""
SIGNALLED = ("kill", "group", "tkill", "tgkill", "sigqueue", "tgsigqueue", "pidfd", "procfd", "sigio")


@pytest.mark.skipif(not sandbox.IS_LINUX, reason="pidfd, tkill and the rest are Linux's")
def test_every_way_to_signal_out_of_its_walls_and_its_own_signals(attacked, open_folder):
    """Round 4, finding 6: at landlock-4 a child stopped its worker with kill() or pidfd_open + pidfd_send_signal,
    neither filtered.  A witness process of this test (alone in its process group, outside any sandbox like the
    grader) records what reaches it; the grader and -1 get signal 0 only.  Where the level blocks "signal" nothing
    reaches the witness and no probe is allowed; where it does not, every way works.  At every level the child
    still signals itself (os.kill, signal.raise_signal, pthread_kill, its own group); a fork of it signals back and
    aborts as usual unless the seccomp filter is what keeps its signals in (a fork inherits the child's pid)."""
    level = attacked
    record, ready = open_folder / "record", open_folder / "ready"
    witness = subprocess.Popen([sys.executable, "-c", WITNESS_OF_ALL, str(record), str(ready)], start_new_session=True)
    try:
        wait_for(ready.exists, what="the witness to be ready")
        answers, seen = answers_of(
            armed("signals_every_way", open_folder, GRADER_PID=os.getpid(), WITNESS_PID=witness.pid),
            replace(QUICK, case_seconds=20.0),
        )
        assert seen == level
        blocked = "signal" in level.blocks
        if not blocked:
            wait_for(
                lambda: record.exists() and len(record.read_text().split()) == len(SIGNALLED),
                what="the witness to record every signal sent to it",
            )
    finally:
        witness.kill()
        witness.wait()
    received = sorted(record.read_text().split()) if record.exists() else []
    assert received == ([] if blocked else sorted(SIGNALLED)), (level, answers)
    allowed = {name for name, answer in answers.items() if answer == "allowed"}
    probes = {"grader", "everyone", *SIGNALLED} - {"sigio"}  # F_SETOWN itself may pass: the SIGIO does not
    assert allowed & probes == (set() if blocked else probes), (level, answers)
    assert answers["self"] == "ok", (level, answers)
    own_pid_only = sandbox.SIGNALS_WALL in level.walls
    assert answers["fork"] == ("denied" if own_pid_only else "allowed"), (level, answers)
    assert (answers["abort"] == "SIGABRT") or own_pid_only, (level, answers)


ABORTS = (
    "import os\n\n\ndef format_prompt(messages):\n    os.abort()\n\n\ndef extract_response(output):\n    return ''\n"
)


def test_a_file_that_aborts_ends_with_sigabrt_at_every_level(attacked, tmp_path):
    """What CPython needs of the kill family is still there where the filter keeps it to the child: os.abort
    raises SIGABRT on itself (tgkill), in the pid namespace's worker as in a child with none."""
    level = attacked
    aborts = tmp_path / "aborts.py"
    aborts.write_text(ABORTS)
    lab = active()
    with StudentRun(
        for_lab(aborts, lab, tmp_path, in_order(lab)), display=lab.student_file_name, limits=QUICK
    ) as student:
        record, problem, detail = student.call(lab.functions[0], [[]])
        assert student.level == level
    # (bubblewrap's own first process passes a death by a signal on as the exit code 128 + its number)
    ended = detail.get("signal") or ("SIGABRT" if "bwrap" in level.walls and detail.get("exit_code") == 134 else None)
    assert (record, problem, ended) == (None, "crashed", "SIGABRT"), (level, detail)


MIB = 1 << 20


FILLS = [{"BYTES": 200 * MIB}, {"FILES": 20_000}, {"BYTES": 200 * MIB, "WHEN": "import"}]


@pytest.mark.parametrize("fill", FILLS, ids=["bytes", "files", "bytes-at-import"])
def test_filling_its_own_folder_stops_at_its_bound_and_says_so(attacked, open_folder, monkeypatch, fill):
    """Round 4, finding 8: only single files were capped (16 MiB): one submission grew the disk by 3.1 GB, and with
    TMPDIR on a tmpfs shared memory went from 9 MB to 3.16 GB while RLIMIT_AS stayed at 1 GiB, and it scored 100.
    Its folder is bounded at every level (its own tmpfs, or the grader's watchdog): the call that passed the bound
    fails as `disk`, and the folder never held much more than it (the tmpfs: its size; a walk: what 20 ms allow)."""
    level = attacked
    monkeypatch.setattr(tempfile, "tempdir", str(open_folder))  # the children's folders: in this test's own
    lab = active()
    limits = replace(QUICK, case_seconds=20.0, load_seconds=20.0)
    hostile = armed("fills_its_folder", open_folder, **fill)
    with StudentRun(
        for_lab(hostile, lab, open_folder, in_order(lab)), display=lab.student_file_name, limits=limits
    ) as student:
        verdict = assess.verdict(student, lab.selected("test")[0])
        assert student.level == level
        status = student.load.status
    if fill.get("WHEN") == "import":
        assert (status, verdict.problem, verdict.hint) == ("disk", "load_failed", "hint.disk"), level
    else:
        assert (status, verdict.problem, verdict.hint) == ("ok", "disk", "hint.disk"), (level, verdict.facts)
    assert [path.name for path in open_folder.iterdir() if path.name.startswith(sandbox.PREFIX)] == []
    feedback = "\n".join(render.failure_lines(verdict, lab.student_file_name))
    if fill.get("WHEN") != "import":
        assert text("problem.disk", megabytes=64, files=10_000) in feedback


@pytest.mark.parametrize("where", ["shared", "memfd"])
def test_filling_the_disk_or_memory_elsewhere(attacked, shared_folder, tmp_path, where):
    """Beyond its folder: a world-writable folder (its test's, in /tmp or /dev/shm: inside bubblewrap the child
    makes it in bubblewrap's own /tmp, read-only even without Landlock) and files in memory in no folder at all
    (memfd_create).  Where the level blocks "disk" neither takes a byte; where it does not, the file of the
    world-writable folder takes more than the folder's bound (harmlessly: a bounded amount in this test's folder)."""
    level = attacked
    wanted = 80 * MIB
    folder = str(shared_folder) if where == "shared" else "memfd"
    writing = replace(QUICK, case_seconds=10.0)  # 80 MiB written on a busy machine takes more than half a second
    answers, seen = answers_of(armed("fills_its_folder", tmp_path, BYTES=wanted, FOLDER=folder), limits=writing)
    assert seen == level
    written = int(answers["bytes"])
    if "disk" in level.blocks:
        assert written == 0, (level, answers)
    elif where == "shared" and "shared" not in level.blocks:
        assert written == wanted, (level, answers)


WORKER_LEVELS = ("bwrap", "landlock-4", "landlock-4-no-pidns", "none-no-pidns")  # kept in by each wall, and not


@pytest.fixture(params=WORKER_LEVELS)
def worker_level(request, monkeypatch):
    """A level for a class run, with the probe this process keeps forgotten (the run asks it for its level)."""
    monkeypatch.setattr(probe_module, "_probed", None)
    return forced_or_skipped(monkeypatch, request.param)


@pytest.mark.skipif(not sandbox.IS_LINUX, reason="a stopped worker is seen in /proc")
def test_a_submission_that_stops_or_kills_its_worker_costs_only_itself(worker_level, tmp_path):
    """Round 4, findings 6 and 7: at landlock-4 a submission stopped its worker (SIGSTOP) and the class run froze
    (202.7 s instead of 1.7 s, and without its own SIGCONT forever); one that killed its worker twice turned its 0
    into `grader_error` (not its fault, a blank grade, out of the figures).  Where the level keeps a child's signals
    in, neither reaches its worker: both are ordinary failing students.  Where it does not, the grader's own clock
    ends the stopped worker (the submission: `timeout`) and a worker killed twice is the submission's own failure
    (`crashed`): the run ends long before the stopper would have let it, and both are in the figures."""
    level = worker_level
    folder = tmp_path / "class"
    folder.mkdir()
    for name in ("alice", "bob"):
        shutil.copy(SOLUTION, folder / f"{name}.py")
    grader = os.getpid()  # the grader runs in this process: its workers are this process's children
    armed("signals_its_worker", folder, GRADER=grader, SIGNAL="STOP", SECONDS=90.0).rename(folder / "stopper.py")
    armed("signals_its_worker", folder, GRADER=grader, SIGNAL="KILL").rename(folder / "killer.py")
    started = time.monotonic()
    run = grade_folder(folder, tmp_path / "out", CLASS_LIMITS, ClassOptions(jobs=2, level=level))
    assert time.monotonic() - started < 60.0  # the stopper keeps its worker stopped for 90 s
    records = {r["student"]: r for r in json.loads((tmp_path / "out" / "grades.json").read_text("utf-8"))["students"]}
    full = config.load().max_score
    assert [(records[n]["status"], records[n]["score"]) for n in ("alice", "bob")] == [("ok", full)] * 2
    attackers = {name: (records[name]["status"], records[name]["score"] < full) for name in ("stopper", "killer")}
    feedback = {name: (tmp_path / "out" / "feedback" / f"{name}.txt").read_text("utf-8") for name in attackers}
    if "signal" in level.blocks:
        assert attackers == {"stopper": ("ok", True), "killer": ("ok", True)}, (level, attackers)
        assert all(re.search(r"parent:(unseen|denied)", said) for said in feedback.values()), feedback
    else:
        # (with what each child said: a run where neither reached its worker shows why, e.g. "parent:elsewhere")
        assert attackers == {"stopper": ("timeout", True), "killer": ("crashed", True)}, (level, attackers, feedback)
        assert "SIGSTOP" in feedback["stopper"] and "SIGKILL" in feedback["killer"], feedback
        assert level.name in feedback["killer"]
    assert run.figures.graded == 4  # every one of them graded, none "not their doing"


def test_the_level_is_named_honestly(level):
    if "bwrap" in level.walls:
        assert level.name == "bwrap"
    elif any(wall.startswith("landlock-4") for wall in level.walls):
        assert level.name.startswith(("landlock-4", "uid + landlock-4")), level
    if level.name.startswith("none"):
        assert not level.full and set(level.blocks) <= {"leftover", "signal"}
    if "bwrap" not in level.walls and not level.name.startswith(("none", "seccomp")):
        assert ("(no seccomp)" in level.name) == ("seccomp" not in level.walls), level
    # what it leaves behind is ended by the kernel (its pid namespace, bubblewrap's) or by its uid's kill -1, or
    # else the name says so: then it is the reaper's best, not a claim
    ended = {"bwrap", "uid", sandbox.PID_WALL} & set(level.walls)
    assert ("leftover" in level.blocks) == bool(ended) == ("(no pid namespace)" not in level.name), level
    assert ("disk" in level.blocks) == (
        any(wall.endswith("(tmpfs)") for wall in level.walls)
        and {"write", "shared"} <= set(level.blocks)
        and "seccomp" in level.walls
    )
    assert level.full == (set(sandbox.ATTACKS) <= set(level.blocks))


# --- README's table, against the levels ------------------------------------------------------------


def readme_table() -> list[list[str]]:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    rows = readme.split("<!-- threat-model -->\n", 1)[1].split("\n\n", 1)[0].splitlines()
    cells = [[cell.strip() for cell in row.strip("|").split("|")] for row in rows]
    assert len(cells[0]) == len(sandbox.ATTACKS) + 1, "one column per attack in sandbox.ATTACKS"
    return cells[2:]


def readme_blocked(row: list[str]) -> set:
    return {attack for attack, cell in zip(sandbox.ATTACKS, row[1:]) if cell == "blocked"}


def readme_row(name: str) -> list[str]:
    """The row naming this level: its first cell names levels in backticks, `… …` ending a prefix."""
    for row in readme_table():
        for named in row[0].split("`")[1::2]:
            if named == name or (named.endswith(" …") and name.startswith(named[:-2])):
                return row
    raise AssertionError(f"README's threat model has no row for level {name!r}")


def test_readme_says_what_this_level_blocks(level):
    """The row of each level this machine gives states exactly what that level blocked in the tests above."""
    assert readme_blocked(readme_row(level.name)) == set(level.blocks), level


def test_readme_states_exactly_what_each_level_blocks():
    """README's threat-model table is the same claim as sandbox.blocked_by, for every level, here or not."""
    folder, pidns, signals = "folder ≤ 64 MiB, 10000 files (tmpfs)", sandbox.PID_WALL, sandbox.SIGNALS_WALL
    walked = "folder ≤ 64 MiB, 10000 files (watchdog)"
    walls = {  # a row's first cell starts with the key (the first key that fits: the longer names first)
        "`bwrap`": (("bwrap", "uid", "landlock-7", "seccomp", "processes ≤ 64 (uid)", folder, "reaper"), 7),
        "`uid + landlock-6+`": (("uid", pidns, "landlock-7", "seccomp", "processes ≤ 64 (uid)", folder, "reaper"), 7),
        "`landlock-6+ (no pid namespace)`": (("landlock-7", "seccomp", "processes ≤ 64 (userns)", walked, "reaper"), 7),
        "`landlock-6+`": ((pidns, "landlock-7", "seccomp", "processes ≤ 64 (userns)", folder, "reaper"), 7),
        "`landlock-4": ((pidns, "landlock-4", "seccomp", "processes ≤ 64 (userns)", folder, "reaper"), 4),
        "`uid`": (("uid", pidns, "seccomp", "processes ≤ 64 (uid)", folder, "reaper"), 0),
        "`seccomp (no pid namespace)`": (("seccomp", signals, "processes ≤ 64 (userns)", walked, "reaper"), 0),
        "`seccomp`": ((pidns, "seccomp", "processes ≤ 64 (userns)", folder, "reaper"), 0),
        "`uid (no seccomp)`": (("uid", "processes ≤ 64 (uid)", walked, "process group"), 0),  # macOS
        "`none (no pid namespace)`": ((walked, "reaper"), 0),
        "`none`": ((pidns, folder, "reaper"), 0),
    }
    rows = readme_table()
    assert sorted(next(k for k in walls if row[0].startswith(k)) for row in rows) == sorted(walls)
    for row in rows:
        key = next(k for k in walls if row[0].startswith(k))
        assert readme_blocked(row) == set(sandbox.blocked_by(*walls[key])), row


# --- refusing to grade where a wall does not hold ------------------------------------------------


def test_grading_is_refused_where_children_reach_the_graders_sockets_or_the_answer_key(open_folder):
    """Children that run as the grader's own user with no socket wall could reach its D-Bus session bus
    (finding 1); children that could read the answer key or the scheme could copy them (finding 7).  Both
    levels are below full strength, graded only when UNSAFE= names them; and whatever UNSAFE= says, an answer
    key the child could read is refused with its path (labkit/instructor/audit.py)."""
    own_user = sandbox.Level(
        "landlock-6+ (no seccomp)", ("landlock-7", "reaper"), sandbox.blocked_by(("landlock-7", "reaper"), 7)
    )
    assert "D-Bus" in audit.refusal(own_user, "") and "UNSAFE=landlock-6+-no-seccomp" in audit.refusal(own_user, "")
    assert audit.refusal(own_user, "landlock-6+-no-seccomp") is None and audit.refusal(own_user, True) is None
    at_uid = sandbox.Level("uid", ("uid", "seccomp", "reaper"), sandbox.blocked_by(("uid", "seccomp", "reaper"), 0))
    key = open_folder / "student.py"
    key.write_text("# the answer key\n")
    key.chmod(0o644)
    private = [("lab", key)]
    assert str(key) not in audit.refusal(at_uid, "", private) and "UNSAFE=uid" in audit.refusal(at_uid, "", private)
    assert str(key) in audit.refusal(at_uid, "uid", private) and str(key) in audit.refusal(at_uid, True, private)
    key.chmod(0o600)
    assert audit.refusal(at_uid, "uid", private) is None
    key.chmod(0o644)
    walled = sandbox.Level("bwrap", ("bwrap", "seccomp"), sandbox.blocked_by(("bwrap", "seccomp"), 0), False)
    assert audit.refusal(walled, "bwrap", private) is None  # a wall stops reading: the modes do not matter


@CHECKOUT  # dist/ of the checkout
def test_the_gradescope_bundle_keeps_the_answer_key_from_the_students_uid(monkeypatch, open_folder, tmp_path):
    """Finding 7: the bundle unzipped solutions/ and grading.ini as 0644, so at level `uid` (an image that
    refuses namespaces and has no Landlock) a submission read the answer key and scored 100."""
    if "uid" not in " ".join(probe(monkeypatch, LEVELS["uid-no-landlock"][0]).walls):
        pytest.skip("no uid level here (a root grader and an interpreter others can run)")
    assert make("gradescope").returncode == 0
    source = open_folder / "source"
    with zipfile.ZipFile(ROOT / "dist" / "gradescope-autograder.zip") as bundle:
        for info in bundle.infolist():  # as unzip does: each file with the mode the zip gives it
            target = source / info.filename
            target.parent.mkdir(parents=True, exist_ok=True, mode=0o755)
            target.write_bytes(bundle.read(info))
            target.chmod(info.external_attr >> 16 & 0o777)
    stub = tmp_path / "bin"
    stub.mkdir()
    (stub / "apt-get").write_text("#!/bin/sh\nexit 0\n")  # python3 or bubblewrap may be missing: install nothing
    (stub / "apt-get").chmod(0o755)
    subprocess.run(
        ["bash", str(source / "setup.sh")],
        check=True,
        timeout=60,
        env=clean_env(PATH=f"{stub}{os.pathsep}{os.environ['PATH']}"),
    )
    private = [source / "solutions" / "student.py", source / "solutions" / "grading.ini"]
    assert all(not path.stat().st_mode & 0o077 for path in private + [source / "solutions"])
    submission = open_folder / "submission"
    submission.mkdir(mode=0o755)
    armed("steals_solution", submission, SOLUTION=str(private[0])).rename(submission / "student.py")
    results = open_folder / "results.json"
    environment = clean_env(**LEVELS["uid-no-landlock"][0])
    environment.pop("LAB_UNSAFE", None)
    choice = re.search(r"--unsafe '([^']+)'", (source / "run_autograder").read_text(encoding="utf-8"))[1]

    def graded() -> dict:  # as run_autograder runs it, with the level it chooses to accept
        subprocess.run(
            [
                sys.executable,
                "-m",
                "labkit.instructor.grade",
                "--gradescope",
                "--unsafe",
                choice,
                "--submission",
                str(submission),
                "--results",
                str(results),
            ],
            cwd=source,
            env=environment,
            check=True,
            timeout=300,
        )
        return json.loads(results.read_text(encoding="utf-8"))

    document = graded()
    assert document["tests"] and document["score"] < config.load().max_score, document["output"]  # nothing to copy
    assert document["extra_data"]["sandbox"] == "uid"
    for path in private + [source / "solutions", source]:  # as an unzip that kept 0644 and no setup.sh would leave them
        path.chmod(0o755 if path.is_dir() else 0o644)
    document = graded()
    assert document["score"] == 0 and document["tests"] == [] and str(private[0]) in document["output"]


# --- a grader that is not root ---------------------------------------------------------------------

NOT_ROOT = """
import resource, sys
resource.setrlimit(resource.RLIMIT_NPROC, (150, 150))  # the grader's user may have 150 processes in all
from labkit import assess
from labkit.run.engine import Limits, StudentRun
from labkit.spec import active
limits = Limits(case_seconds=5.0, load_seconds=20.0)
with StudentRun(sys.argv[1], display="student.py", limits=limits) as hostile:
    record, problem, _ = hostile.call("format_prompt", [[]])
    forked = record.returned["value"] if record else problem
    with StudentRun(sys.argv[2], display="student.py", limits=limits) as honest:  # while the sleepers live
        passed = sum(assess.verdict(honest, case).passed for case in active().selected("test"))
        print(forked, passed, honest.load.status, "|".join(hostile.level.blocks), sep=",")
"""


CODE = ("framework", "lab09", "labkit")  # the folders of the lab's code that a copy of the engine needs


def copy_code(lab, *more: str) -> None:
    """The lab's code (and the folders `more`) copied into `lab`, without bytecode caches."""
    for part in CODE + more:
        shutil.copytree(ROOT / part, lab / part, ignore=shutil.ignore_patterns("__pycache__"))


def ordinary_users_python() -> str:
    """An interpreter that an ordinary user can run, for a grader run as one by a test (which then needs root:
    where the suite itself runs as an ordinary user, the levels above are this case)."""
    if os.geteuid() != 0:
        pytest.skip("the suite itself runs as an ordinary user: the levels above are this case")
    try:
        return interpreters.interpreter_for(True)[0]
    except PermissionError:
        pytest.skip("no interpreter of this version that an ordinary user can run")


@pytest.mark.parametrize("ceiling", ["auto", "landlock"])
def test_a_grader_that_is_not_root_gives_each_child_a_process_limit_of_its_own(ceiling, open_folder):
    """Finding 2: a submission forking 400 sleepers under a grader limited to 150 processes left the next
    students without a child.  A copy of the engine runs here as an ordinary user (bwrap: bubblewrap's user
    namespace; landlock: one the child makes itself), on paths of this test that any user can read."""
    python = ordinary_users_python()
    lab = open_folder / "lab"
    copy_code(lab)
    shutil.copy(SOLUTION, lab / "honest.py")
    hostile = armed("forks_many", lab, COUNT=400, SECONDS=20)
    for path in [lab, *lab.rglob("*")]:
        path.chmod(0o755 if path.is_dir() else 0o644)
    uid = uids.take()  # an ordinary user no other test or grader uses now
    try:
        ran = subprocess.run(
            [python, "-c", NOT_ROOT, str(hostile), str(lab / "honest.py")],
            cwd=lab,
            user=uid,
            group=uid,
            extra_groups=[],
            capture_output=True,
            text=True,
            timeout=120,
            env={"PATH": "/usr/bin:/bin", "HOME": str(lab), "LAB_SANDBOX": ceiling, "PYTHONDONTWRITEBYTECODE": "1"},
        )
    finally:
        uids.give_back(uid)
    assert ran.returncode == 0, ran.stderr
    forked, passed, status, blocks = ran.stdout.strip().split(",")
    if "processes" not in blocks.split("|"):
        pytest.skip(f"no process limit for an ordinary user here ({ceiling}: {blocks})")
    assert int(forked.split(":")[1]) < sandbox.PROCESSES
    assert (int(passed), status) == (len(LAB.selected("test")), "ok")


def _processes_of(uid: int, since: int) -> list[int]:
    """The processes whose real uid is `uid` started at or after `since` (clock ticks after boot, as /proc
    counts): what a grader started then as that uid left, not another run's process that took the same uid."""
    found = []
    for entry in os.listdir("/proc"):
        try:
            with open(f"/proc/{entry}/status", encoding="ascii", errors="replace") as handle:
                uids = next(line for line in handle if line.startswith("Uid:")).split()
        except (OSError, StopIteration):
            continue
        stat = process_stat(int(entry)) if entry.isdigit() and int(uids[1]) == uid else None
        if stat is not None and stat[2] >= since:
            found.append(int(entry))
    return found


GRADER_PROCESSES = 150  # what the grader's user may have in all (prlimit --nproc): threads count too


@pytest.mark.skipif(
    not sandbox.counts_processes_per_user_namespace(),
    reason="a grader that is not root gets a process cap per child on Linux 5.14+ only (README)",
)
@pytest.mark.parametrize("ceiling", ["auto", "landlock"])
def test_a_forker_among_a_class_cannot_spend_a_process_limited_graders_processes(ceiling, open_folder):
    """Finding 2, the class run of issue 15's "Done when": a class of honest students and forks_many (400
    sleepers wanted) graded with JOBS=4 by a grader running as an ordinary user under a process limit
    (prlimit --nproc).  Once one EAGAIN turned the sandbox off and the other students became system_error;
    now the forker's child is capped alone: every honest student scores full marks, the forker is one row,
    the run exits 0, and nothing of the grader's user is left running.  At bwrap (auto) and without it
    (landlock: the child's own user namespace), on paths of this test that any user can read."""
    python = ordinary_users_python()
    if shutil.which("prlimit") is None:
        pytest.skip("no prlimit (util-linux) to limit the grader's processes")
    lab = open_folder / "lab"
    copy_code(lab, "solutions")  # the course file and the generated checks' answer key
    submissions = lab / "class"
    submissions.mkdir()
    honest = [SOLUTION, *sorted((STUDENTS / "correct").glob("*.py"))]
    for number, path in enumerate(honest):
        shutil.copy(path, submissions / f"honest{number}.py")
    armed("forks_many", submissions, COUNT=400, SECONDS=120)
    for path in [lab, *lab.rglob("*")]:
        path.chmod(0o755 if path.is_dir() else 0o644)
    uid = uids.take()  # an ordinary user no other test or grader uses now
    work = open_folder / "work"
    work.mkdir()
    os.chown(work, uid, uid)
    since = None
    try:
        grader = subprocess.Popen(
            [
                "prlimit",
                f"--nproc={GRADER_PROCESSES}:{GRADER_PROCESSES}",
                "--",
                python,
                "-m",
                "labkit.instructor.grade",
                str(submissions),
                "--out",
                str(work / "out"),
                "--jobs",
                "4",
            ],
            cwd=lab,
            user=uid,
            group=uid,
            extra_groups=[],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env={
                "PATH": "/usr/bin:/bin",
                "HOME": str(work),
                "TMPDIR": str(work),
                "LAB_SANDBOX": ceiling,
                "PYTHONDONTWRITEBYTECODE": "1",
            },
        )
        since = process_stat(grader.pid)[2]
        stdout, stderr = grader.communicate(timeout=600)
        wait_for(lambda: not _processes_of(uid, since), what="the grader's user to have nothing left running")
    finally:
        for pid in _processes_of(uid, since) if since is not None else ():  # a survivor, or all on a timeout
            os.kill(pid, signal.SIGKILL)
        uids.give_back(uid)
    assert grader.returncode == 0, stderr
    records = {r["student"]: r for r in json.loads((work / "out" / "grades.json").read_text("utf-8"))["students"]}
    assert sorted(records) == sorted([f"honest{n}" for n in range(len(honest))] + ["forks_many"])
    full = config.load().max_score
    assert {s: (r["status"], r["score"]) for s, r in records.items() if s != "forks_many"} == {
        f"honest{n}": ("ok", full) for n in range(len(honest))
    }, stdout
    forker = records["forks_many"]
    assert forker["status"] == "ok" and forker["score"] < full
    forked = int(re.search(r"forked:(\d+)", (work / "out" / "feedback" / "forks_many.txt").read_text("utf-8"))[1])
    assert sandbox.PROCESSES // 2 < forked < sandbox.PROCESSES  # it forked all its cap let it, no more
    run = json.loads((work / "out" / "grades.json").read_text("utf-8"))["sandbox"]
    assert "processes" in run["blocks"] and run["students_at_other_levels"] == {}  # no wall turned off midway


# --- the level each student got ---------------------------------------------------------------------


def test_students_graded_below_the_runs_level_are_named_where_the_level_is_shown():
    """Finding 2: after a wall failed, later students were graded weaker while the terminal still said bwrap."""
    run = sandbox.Level("bwrap", ("bwrap",), tuple(sandbox.ATTACKS), True)
    records = [
        made_result("alice", sandbox="bwrap"),
        made_result("bob", sandbox="landlock-6+"),
        made_result("carol", sandbox=""),
    ]  # carol's file never ran: no level to compare
    assert figures.at_other_levels(records, run) == [("bob", "landlock-6+")]
    line = figures.sandbox_line(run, records)
    assert "bob (landlock-6+)" in line and "alice" not in line and "carol" not in line
    assert grades_json.sandbox_json(run, records)["students_at_other_levels"] == {"bob": "landlock-6+"}
    assert figures.sandbox_line(run, records[:1]) == figures.sandbox_line(run)
    assert "banner weak" in report_page._sandbox(run, records) and "banner full" in report_page._sandbox(run, [])
