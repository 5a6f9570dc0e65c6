"""The engine's own walls: replies it refuses, limits where the system has none, a machine short of processes
or disk, children folders of dead graders, stopping everything at once, and the child's own shape (plain
functions before student code, closures after it; the given module sent as data).

Limits, memory, the budget, batches and the given module run against every lab of conftest.LABS (the `lab`
fixture, posix layer).  What is the process layer's or the sandbox's alone (uids, cgroups, bubblewrap retries,
zombies, stop_all, stale folders) and the child's shape run once, with Lab09: no lab reaches them."""

import ast
import dis
import errno
import os
import runpy
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import types
from dataclasses import replace
from pathlib import Path

import pytest

from conftest import (
    LAB,
    QUICK,
    ROOT,
    SECOND,
    SOLUTION,
    STUDENTS,
    armed,
    for_lab,
    judged,
    played,
    process_table,
    role,
    wait_for,
)
from framework import tags
from labkit import assess, render
from labkit.i18n import text
from labkit.run import bwrap, cgroups, channel, engine, replies, sandbox, sweep, uids, workdirs
from labkit.run.engine import StudentRun

HOSTILE = STUDENTS / "hostile"


def test_plain_data_within_bounds_passes_and_everything_else_is_named():
    assert replies.check_data([{"role": "user", "content": "hi"}]) is None
    deep = []
    for _ in range(5000):
        deep = [deep]
    assert "deep" in replies.check_data(deep)  # iterative: no RecursionError at any depth
    assert "items" in replies.check_data(list(range(300_000)))
    assert replies.check_data({1: "x"}) == "a dict key that is not a str"


@pytest.mark.parametrize(
    "reply",
    [
        {"returned": 5},
        {"returned": {"kind": "str", "value": 3}},
        {"returned": {"kind": "str", "value": "3"}, "raised": {"type": "ValueError"}},
        {"raised": "ValueError"},
        {"returned": {"kind": "magic"}},
        [],
    ],
)
def test_a_reply_of_the_wrong_shape_is_refused_whole(reply):
    with pytest.raises(replies.Invalid):
        replies.call(reply, QUICK)


def test_a_load_reply_about_other_functions_than_the_request_asked_is_refused_as_forged():
    """The child answers about exactly the functions the load request names; a reply about others was forged
    by the student's file (forges_replies_with_nonce.py claims Lab09's two in the toy lab, whose functions then
    read as missing: the verdict said "define it" to a file that does)."""
    asked = ("split_tokens", "to_rpn")
    real = {"ok": True, "functions": {"split_tokens": "ok", "to_rpn": "not_callable"}, "defined": ["to_rpn"]}
    assert replies.load(real, asked)["functions"] == {"split_tokens": "ok", "to_rpn": "not_callable"}
    for functions in (
        {"format_prompt": "ok", "extract_response": "ok"},
        {"split_tokens": "ok"},
        {"split_tokens": "ok", "to_rpn": "ok", "evaluate": "ok"},
    ):
        with pytest.raises(replies.Invalid):
            replies.load(dict(real, functions=functions), asked)


def test_descriptions_are_made_safe_and_values_are_kept_exactly():
    checked = replies.call(
        {"raised": {"type": "\x1b[2JEvil", "message": "bad \ud800 \x1b[H", "kinds": ["X"] * 50, "line": "7"}}, QUICK
    )
    raised = checked["raised"]
    assert raised["type"] == "\\x1b[2JEvil" and raised["message"] == "bad \ufffd \\x1b[H"
    assert len(raised["kinds"]) == 20 and "line" not in raised  # a line that is not an int is dropped
    value = replies.call({"returned": {"kind": "str", "value": "\x1b[2J\ud800"}}, QUICK)["returned"]["value"]
    assert value == "\x1b[2J\ud800"  # judged exactly as returned; render shows it escaped


def test_where_no_memory_rlimit_holds_a_watchdog_stops_the_child(monkeypatch, tmp_path, lab):
    """macOS refuses RLIMIT_AS; LAB_NO_RLIMIT_AS=1 makes the child skip it here, as there."""
    monkeypatch.setenv("LAB_NO_RLIMIT_AS", "1")
    grows = tmp_path / "student.py"
    grows.write_text(
        "def format_prompt(messages):\n    return ''\n"
        "def extract_response(output):\n    block = b'x' * (3 << 30)\n    return output.strip()\n"
    )
    verdicts = judged(for_lab(grows, lab, tmp_path), limits=replace(QUICK, memory_bytes=256 << 20, case_seconds=30.0))
    second = role(lab, SECOND)
    assert [verdicts[i].problem for i in second] == ["memory"] * len(second)
    assert verdicts[second[0]].hint == "hint.memory"


def test_a_spent_budget_ends_every_case_still_to_run(tmp_path, lab):
    """The submission's whole budget (Limits.submission_seconds) bounds its cases together: two hung cases of
    1 s each overrun a budget of 2 s (that also paid for the child's start; Lab10's second function has one case,
    which overruns a budget of 1 s), so the case running when it ends, and every later one, says so."""
    hangs = for_lab(STUDENTS / "hostile" / "loop_sigalrm_ignored.py", lab, tmp_path)
    second = role(lab, SECOND)
    budget = 2.0 if len(second) >= 2 else 1.0
    verdicts = judged(hangs, limits=replace(QUICK, case_seconds=1.0, submission_seconds=budget))
    assert [verdicts[i].problem for i in second] == ["timeout"] * len(second)
    last = verdicts[list(verdicts)[-1]]  # the last case to run
    assert last.facts["budget_seconds"] == budget
    assert any(text("problem.budget", seconds=budget) in line for line in render.failure_lines(last, hangs.name))


@pytest.mark.parametrize("error", [errno.EAGAIN, errno.ENOMEM])
def test_a_machine_out_of_processes_is_the_submissions_status_not_a_crash(monkeypatch, error):
    """Lab09 only: the retries take a second and reach no lab (the full disk below shows the status in both)."""

    def refuse(*args, **kwargs):
        raise OSError(error, os.strerror(error))

    monkeypatch.setattr(subprocess, "Popen", refuse)
    with StudentRun(SOLUTION, limits=QUICK) as student:
        verdict = assess.verdict(student, LAB.selected("test")[0])
        assert student.load.status == "system_error" and errno.errorcode[error] in student.load.detail["error"]
    assert verdict.problem == "load_failed" and verdict.hint == "hint.system_error"


def test_a_full_disk_is_the_submissions_status_not_a_crash(monkeypatch, lab):
    def full(*args, **kwargs):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(tempfile, "mkdtemp", full)
    with StudentRun(lab.solution_path, limits=QUICK) as student:
        assert assess.verdict(student, lab.selected("test")[0]).hint == "hint.system_error"
        assert "ENOSPC" in student.load.detail["error"]


def test_folders_left_by_a_dead_grader_are_removed(monkeypatch, tmp_path):
    dead = subprocess.Popen(["true"])
    dead.wait()
    stale, alive = tmp_path / f"{sandbox.PREFIX}-{dead.pid}-abc", tmp_path / f"{sandbox.PREFIX}-{os.getppid()}-abc"
    for folder in (stale, alive):
        (folder / "inner").mkdir(parents=True)
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    monkeypatch.setattr(workdirs, "_stale_cleared", False)
    monkeypatch.setattr(sandbox, "_broken", set())  # bwrap under a uid cannot reach a private TMPDIR: not later tests'
    judged(SOLUTION)
    assert not stale.exists() and alive.exists()
    assert [p.name for p in tmp_path.glob(f"{sandbox.PREFIX}-*-*")] == [alive.name]


def test_stop_all_ends_every_child_at_once_and_refuses_new_ones(monkeypatch):
    monkeypatch.setattr(channel, "_stopping", threading.Event())
    hung = [StudentRun(HOSTILE / "loop_in_call.py", limits=replace(QUICK, case_seconds=60.0)) for _ in range(2)]
    results, looping = [], LAB.check(role(LAB, SECOND)[-1])  # a case whose input has a tag: loop_in_call loops
    threads = [threading.Thread(target=lambda run=run: results.append(assess.verdict(run, looping))) for run in hung]
    for thread in threads:
        thread.start()
    wait_for(lambda: all(run.load is not None for run in hung), what="both children loaded")  # now in the call
    started = time.monotonic()
    channel.stop_all()
    for thread in threads:
        thread.join(60)
    assert time.monotonic() - started < 30.0  # not the 60 s case limit
    assert [verdict.problem for verdict in results] == ["crashed", "crashed"]
    with pytest.raises(channel.Stopped):
        StudentRun(SOLUTION, limits=QUICK).start()


ROOT_ONLY = pytest.mark.skipif(
    not hasattr(os, "geteuid") or os.geteuid() != 0, reason="only a root grader gives uids away"
)


@ROOT_ONLY
def test_no_two_graders_on_one_machine_give_a_child_the_same_uid_whatever_their_tmpdir(tmp_path):
    """The uid of a child is what `kill -1` at its end reaches: shared between two graders, one would kill
    the other's child (finding 11: with different TMPDIRs both took the same uid)."""
    mine = uids.take()
    try:
        other = subprocess.run(
            [sys.executable, "-c", "from labkit.run import uids; print(uids.take())"],
            cwd=ROOT,
            capture_output=True,
            text=True,
            check=True,
            env=dict(os.environ, TMPDIR=str(tmp_path)),
        )
        assert int(other.stdout.strip()) != mine
    finally:
        uids.give_back(mine)


@ROOT_ONLY
def test_a_uid_that_an_account_has_is_never_given_to_a_child(monkeypatch):
    """`kill -1` as that uid, and the removal of what it owns in /tmp, would reach the account's own."""
    import pwd

    taken = next((entry.pw_uid for entry in pwd.getpwall() if entry.pw_uid > 0), None)
    if taken is None:
        pytest.skip("no account here but root")
    monkeypatch.setenv("LAB_SANDBOX_UID", str(taken))
    uid = uids.take()
    uids.give_back(uid)
    assert uid != taken and not uids._someone_has(uid)


@ROOT_ONLY
def test_what_a_childs_uid_left_in_world_writable_folders_goes_and_nothing_else(tmp_path):
    """Only entries the uid owns, in sticky folders anyone may write, are removed; links are not followed."""
    candidates = [f for f in sweep.SHARED_FOLDERS if os.path.isdir(f) and os.stat(f).st_mode & 0o1002 == 0o1002]
    if not candidates:
        pytest.skip("no sticky world-writable folder here")
    shared = Path(tempfile.mkdtemp(prefix="lab09-test-", dir=os.path.realpath(candidates[0])))
    uid = uids.take()
    try:
        shared.chmod(0o1777)
        canary = tmp_path / "canary"
        canary.write_text("untouched\n")
        (shared / "theirs").write_text("a neighbour's\n")
        for path in (shared / "left.txt", shared / "tree" / "deep" / "file", shared / "link"):
            path.parent.mkdir(parents=True, exist_ok=True)
            if path.name == "link":
                path.symlink_to(canary)
            else:
                path.write_text("left\n")
        for path in (
            shared / "left.txt",
            shared / "tree",
            shared / "tree" / "deep",
            shared / "tree" / "deep" / "file",
            shared / "link",
        ):
            os.lchown(path, uid, uid)
        (shared / "tree").chmod(0)  # whatever modes it set
        assert sweep.remove_files_of(uid) >= 3  # (and whatever an earlier child of that uid left)
        assert sorted(p.name for p in shared.iterdir()) == ["theirs"] and canary.read_text() == "untouched\n"
    finally:
        uids.give_back(uid)
        shutil.rmtree(shared, ignore_errors=True)


def _solution_level() -> tuple:
    with StudentRun(SOLUTION, limits=QUICK) as student:
        verdict = assess.verdict(student, LAB.selected("test")[0])
        return verdict, student.load, student.level


def test_a_moment_without_processes_is_tried_again_and_keeps_the_walls(monkeypatch):
    """Finding 2: after one EAGAIN a worker turned bubblewrap off for the rest of the run."""
    monkeypatch.setattr(sandbox, "_broken", set())
    expected = _solution_level()[2]
    real, refused = subprocess.Popen, []

    def once(*args, **kwargs):
        if not refused:
            refused.append(True)
            raise BlockingIOError(errno.EAGAIN, os.strerror(errno.EAGAIN))
        return real(*args, **kwargs)

    broken = set(sandbox._broken)  # what cannot work here at all (bwrap under a uid, with no interpreter it can run)
    monkeypatch.setattr(subprocess, "Popen", once)
    verdict, load, level = _solution_level()
    assert refused and verdict.passed and load.status == "ok"
    assert (level.name, level.blocks) == (expected.name, expected.blocks) and sandbox._broken == broken


@pytest.mark.skipif(not shutil.which("bwrap"), reason="needs bubblewrap")
@pytest.mark.parametrize("failures", [1, 9])
def test_bubblewrap_short_of_processes_is_tried_again_never_turned_off(monkeypatch, failures):
    """A sandbox that died before its first message for want of processes (as bubblewrap says it) is started
    again; if the machine stays short, this submission is system_error, and later ones still get bwrap."""
    monkeypatch.setattr(sandbox, "_broken", set())
    monkeypatch.setenv("LAB_SANDBOX", "auto")
    _solution_level()
    broken = set(sandbox._broken)  # what cannot work here at all (bwrap under a uid, with no interpreter it can run)
    monkeypatch.setattr(engine, "RETRY_PAUSES", (0.01, 0.01, 0.01))
    real, calls = bwrap.command, []

    def short(folders):
        calls.append(True)
        if len(calls) <= failures:
            return ["/bin/sh", "-c", "echo 'bwrap: clone: Resource temporarily unavailable' >&2; exit 1", "sh"]
        return real(folders)

    monkeypatch.setattr(bwrap, "command", short)
    verdict, load, level = _solution_level()
    if failures == 1:
        assert verdict.passed and load.status == "ok" and level.name == "bwrap"
    else:
        assert load.status == "system_error" and verdict.hint == "hint.system_error"
        assert "Resource temporarily unavailable" in load.detail["error"]
    assert sandbox._broken == broken and sandbox.plans()[0].bwrap


PRINTS_AND_HANGS = """
import os
def extract_response(output):
    print("call", output)
    if output == "hang":
        while True:
            pass
    if output == "exit":
        os._exit(3)
    return output.upper()
def format_prompt(messages):
    return ""
"""


def test_a_batch_gives_what_single_calls_give_each_with_its_own_output(write_student, lab, tmp_path):
    path, [second] = for_lab(write_student(PRINTS_AND_HANGS), lab, tmp_path), played(lab, SECOND)
    inputs = [[f"in{n}"] for n in range(40)]
    with StudentRun(path, limits=QUICK) as student:
        many = student.call_many(second, inputs)
        single = [student.call(second, args) for args in inputs]
    assert [record.returned for record, _, _ in many] == [record.returned for record, _, _ in single]
    assert [record.output["text"] for record, _, _ in many] == [f"call in{n}\n" for n in range(40)]
    assert [record.output for record, _, _ in many] == [record.output for record, _, _ in single]


@pytest.mark.parametrize("bad, problem", [("hang", "timeout"), ("exit", "crashed")])
def test_a_batch_stops_at_the_call_that_gives_no_record_and_says_why(write_student, bad, problem, lab, tmp_path):
    path, [second] = for_lab(write_student(PRINTS_AND_HANGS), lab, tmp_path), played(lab, SECOND)
    with StudentRun(path, limits=replace(QUICK, case_seconds=0.5)) as student:
        results = student.call_many(second, [["a"], ["b"], [bad], ["never asked"]])
        assert [r[0].returned["value"] for r in results[:2]] == ["A", "B"]
        assert len(results) == 3 and results[2][0] is None and results[2][1] == problem
        assert f"call {bad}" in results[2][2]["output"]["text"]
        assert student.call(second, ["after"])[0].returned["value"] == "AFTER"  # a new child


def _zombies_of_this_process() -> set:
    me = os.getpid()
    return {pid for pid, (parent, _, _, state) in process_table().items() if parent == me and state == "Z"}


@pytest.mark.skipif(not sandbox.IS_LINUX, reason="orphans come back to a subreaper on Linux only")
def test_without_a_pid_namespace_the_reaper_ends_a_tree_of_any_depth(monkeypatch, tmp_path):
    """Where the kernel refuses the child a pid namespace and no uid or cgroup of its own ends what it leaves
    (LAB_NO_NAMESPACES=1 at level none), the reaper is all there is.  It ended one level of orphans a round and
    stopped after 50 (11 of a chain of 60 stayed, round 4's finding 5); it now stops each tree that comes back
    whole, then kills it, until nothing comes back."""
    monkeypatch.setenv("LAB_SANDBOX", "none")
    monkeypatch.setenv("LAB_NO_NAMESPACES", "1")
    marker = f"l9r-{os.urandom(5).hex()}"
    chain = armed("nests_sleeping_processes", tmp_path, DEPTH=60, SECONDS=90.0, MARKER=marker)
    try:
        with StudentRun(chain, limits=replace(QUICK, load_seconds=30.0)) as student:
            assert student.start().ok and student.level.name == "none (no pid namespace)", student.load
            assert len([pid for pid in process_table() if _comm(pid) == marker]) == 60  # the chain stands
        assert [pid for pid in process_table() if _comm(pid) == marker] == []
    finally:
        for pid in [pid for pid in process_table() if _comm(pid) == marker]:
            os.kill(pid, signal.SIGKILL)


def _comm(pid: int) -> str:
    try:
        with open(f"/proc/{pid}/comm", encoding="utf-8", errors="replace") as handle:
            return handle.read().strip()
    except OSError:
        return ""


@pytest.mark.skipif(not sandbox.IS_LINUX, reason="orphans come back to a subreaper on Linux only")
@pytest.mark.parametrize("name", ["os_exit_in_call", "loop_in_call", "leaves_a_process_behind"])
def test_closing_children_leaves_no_zombie_behind(name, engine):
    """Orphans come back to the grader (a subreaper), bubblewrap's inner process among them: each is collected,
    whether the child was killed, ended by itself or left a process behind."""
    before = _zombies_of_this_process()
    judged(HOSTILE / f"{name}.py", limits=replace(QUICK, case_seconds=0.3, load_seconds=5.0))
    assert _zombies_of_this_process() - before == set()


@ROOT_ONLY
def test_a_child_of_root_without_a_uid_of_its_own_gets_a_pids_cgroup_that_goes_with_it(monkeypatch):
    """Root's own processes know no RLIMIT_NPROC: a child that runs as root (no uid others can run its
    interpreter with) is counted by a pids cgroup instead, removed when it ends; where the machine refuses
    the cgroup, the child starts without it and its level says so."""
    monkeypatch.setenv("LAB_SANDBOX", "landlock")
    base = cgroups._pids_base()
    if not base:
        pytest.skip("no pids cgroup this grader may make here")
    mine = lambda: [name for name in os.listdir(base) if name.startswith(f"{sandbox.PREFIX}-{os.getpid()}-")]  # noqa: E731
    before = mine()
    with StudentRun(SOLUTION, limits=QUICK) as student:
        assert assess.verdict(student, LAB.selected("test")[0]).passed
        assert "processes ≤ 64 (cgroup)" in student.level.walls and len(mine()) == len(before) + 1
    assert mine() == before
    monkeypatch.setattr(cgroups, "INTO_CGROUP", f'echo "{cgroups.CGROUP_REFUSED}" >&2; exit 125')
    monkeypatch.setattr(cgroups, "_cgroup_base", base)
    with StudentRun(SOLUTION, limits=QUICK) as student:
        assert assess.verdict(student, LAB.selected("test")[0]).passed and "processes" not in student.level.blocks
    assert cgroups._cgroup_base is None and mine() == before


# The child's shape (design-17 §4.2).  What runs only before any student code may be plain functions;
# everything that runs after student code may have run is a closure made before it, because student code
# can swap the code of a plain function it finds (hostile/patches_reporting.py) but not of a closure.

BEFORE_STUDENT_CODE = {
    "main",
    "bind",
    "take_channel",
    "put_up_walls",
    "set_limits",
    "load_libc",
    "own_namespaces",
    "own_folder",
    "wait_for_worker",
    "deaf",
    "drop_capabilities",
    "filter_syscalls",
    "confine",
    "serving",
    "provide_module",
}
CHILD_IMPORTS = {
    "_json",
    "_signal",
    "builtins",
    "io",
    "sys",
    "time",
    "posix",
    "nt",
    "resource",
    "ctypes",
}  # nothing of the
# harness, and not os, which costs a child's start 1 ms (ctypes, where the walls need it, imports it anyway)


def _child_namespace() -> dict:
    """The child's source run as a module of its own, without running its main()."""
    namespace = {"__name__": "child_under_test"}
    exec(compile(engine.CHILD_SOURCE, "child.py", "exec"), namespace)
    return namespace


def _reachable(roots, skip) -> list:
    """Every Python function reachable from `roots` through closure cells (and the dicts, lists and tuples in
    them), without walking into the objects in `skip`."""
    seen, stack, found = {id(item) for item in skip}, list(roots), []
    while stack:
        item = stack.pop()
        if id(item) in seen:
            continue
        seen.add(id(item))
        if isinstance(item, types.FunctionType):
            found.append(item)
            stack.extend(cell.cell_contents for cell in item.__closure__ or ())
        elif isinstance(item, dict):
            stack.extend(item.values())
        elif isinstance(item, (list, tuple)):
            stack.extend(item)
    return found


def _globals_used(code) -> set:
    """The global (and builtin) names a code object and the code nested in it look up by name."""
    names = {
        instruction.argval
        for instruction in dis.get_instructions(code)
        if instruction.opname in ("LOAD_GLOBAL", "LOAD_NAME", "STORE_GLOBAL", "LOAD_FROM_DICT_OR_GLOBALS")
    }
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            names |= _globals_used(const)
    return names


def test_everything_that_runs_after_student_code_is_a_closure_whose_code_cannot_be_swapped():
    """patches_reporting.py swaps `__code__` of the functions it finds named encode, to_json, send and
    describe: on a closure that raises ValueError; on a plain top-level function it succeeds silently.  Every
    function the request loop reaches (and `exit()`) must be a closure that looks nothing up by name later
    (a global or a builtin can be rebound, a plain function it called could be swapped), with one exception:
    `provide_module`, which the load calls before the student's file runs."""
    child = _child_namespace()
    bound = child["bind"]()
    serve, send = child["serving"](bound, {"depth": 16, "value_chars": 1 << 20}, 99)
    reached = _reachable(
        [serve, send, child["leaver"](SystemExit)], skip=[bound["names"], bound["builtins"], sys.modules]
    )
    plain = {function.__name__ for function in reached if not function.__code__.co_freevars}
    assert plain == {"provide_module"}
    closures = [function for function in reached if function.__code__.co_freevars]
    assert {
        "encode",
        "to_json",
        "send",
        "describe",
        "restore",
        "load",
        "call",
        "calls",
        "serve",
        "leave",
        "mark",
        "safe_text",
        "fail",
        "public_names",
    } <= {function.__name__ for function in closures}
    for function in closures:
        assert not _globals_used(function.__code__), function.__qualname__
        with pytest.raises(ValueError):
            function.__code__ = (lambda *args: {"kind": "str", "value": "3"}).__code__
    factories = {function.__qualname__.split(".<locals>.")[0] for function in closures}
    top_level = {name for name, value in child.items() if isinstance(value, types.FunctionType)}
    assert BEFORE_STUDENT_CODE <= top_level  # the list above names functions that exist
    assert top_level - BEFORE_STUDENT_CODE == factories  # every other function is a factory the loop uses


def test_the_childs_main_reads_as_a_summary_and_it_imports_nothing_of_the_harness():
    tree = ast.parse(engine.CHILD_SOURCE)
    main = next(node for node in tree.body if isinstance(node, ast.FunctionDef) and node.name == "main")
    assert main.end_lineno - main.lineno + 1 <= 40
    imported = {alias.name for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names}
    imported |= {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
    assert imported <= CHILD_IMPORTS


GIVEN_OPS = """
import sys
{imports}

def format_prompt(messages):
    return SHOWN + " " + __name__ + " " + sys.argv[0]

def extract_response(output):
    from framework.tags import USER_TAG
    return USER_TAG
"""


@pytest.mark.parametrize(
    "module, imports",
    [
        ("ops", "import ops\nfrom ops import OPERATORS\nSHOWN = ops.OPERATORS + OPERATORS"),
        (
            "toy.given.ops",
            "import toy.given.ops\nfrom toy.given.ops import OPERATORS\nfrom toy.given import ops\n"
            "SHOWN = toy.given.ops.OPERATORS + ops.OPERATORS",
        ),
    ],
)
def test_the_given_module_and_the_students_module_are_what_the_load_request_names(write_student, module, imports):
    """Another lab's given module (the toy lab's `ops`), dotted or not, and its file imported as `calc`:
    nothing of Lab09's framework.tags is wired into the child."""
    path = write_student(GIVEN_OPS.format(imports=imports), name="calc.py")
    given = {"module": module, "names": {"OPERATORS": "+-*/"}}
    with StudentRun(path, display="calc.py", limits=QUICK, given=given, module="calc") as student:
        assert student.start().ok, student.load
        assert student.call("format_prompt", [[]])[0].returned["value"] == "+-*/+-*/ calc calc.py"
        raised = student.call("extract_response", [""])[0].raised
    assert raised["type"] == "ModuleNotFoundError" and raised["module"] == "framework"


def test_a_student_file_gets_every_public_name_of_the_labs_given_module(write_student, lab):
    """The child was given Lab09's four tags only, so `from framework.tags import ALL_TAGS`, which works when
    the student runs their file themselves, failed to load under the harness; each lab's child gets its own
    module's names (the toy's ops.py: OPERATORS and PRECEDENCE), under the module's own name."""
    given = runpy.run_path(str(lab.root / (lab.given.replace(".", "/") + ".py")))
    names = sorted(name for name in given if not name.startswith("_"))
    path = write_student(
        f"from {lab.given} import {', '.join(names)}\n"
        f"def {lab.functions[0]}(value):\n    return repr([{', '.join(names)}])\n",
        name=lab.student_file_name,
    )
    with StudentRun(path, limits=QUICK) as student:
        assert student.start().ok, student.load
        returned = student.call(lab.functions[0], [None])[0].returned["value"]
    assert returned == repr([given[name] for name in names]) and names  # (the scaffold's holds one: GREETING)
    assert engine.runtime().given == {"module": lab.given, "names": {name: given[name] for name in names}}
    if lab.id == LAB.id:
        assert {"ALL_TAGS", "USER_TAG"} <= set(names) and given["ALL_TAGS"] == tags.ALL_TAGS


def test_a_given_module_with_a_value_that_is_not_plain_data_is_refused_in_the_parent():
    ops = types.ModuleType("ops")
    ops.OPERATORS, ops.evaluate = "+-*/", lambda text: 0
    with pytest.raises(ValueError, match=r"ops\.evaluate is a function: a child is given plain data only"):
        engine.given_module(ops)
    ops.__all__ = ["OPERATORS"]
    assert engine.given_module(ops) == {"module": "ops", "names": {"OPERATORS": "+-*/"}}
