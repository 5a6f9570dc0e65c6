"""Bounded everywhere (issue 15, findings 3, 4 and 10): every reply checked in the parent whatever the child
sent, one student's feedback and grades.json entry capped, children's folders removed whatever they hold,
leftovers of dead graders never stopping a run, and no text that reorders what a reader sees.

These bounds are the core's and hold whatever the lab: the replies, pipes, caps and folders here are data
of no lab, so they run once (the toy lab meets the bounds through tests/test_never_hang_never_lie.py's
fills_every_bound and friends, and through test_engine_walls's budget)."""

import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import unicodedata
from pathlib import Path

import pytest

from conftest import LAB, QUICK, ROOT, SOLUTION, clean_env, make
from labkit.i18n import text
from labkit.run import bwrap, pipes, removal, replies, sandbox, workdirs
from labkit.untrusted import safe_text
from labkit.instructor.outputs import caps

MIB = 1 << 20
STUB_SUMMARY = text("summary", "zh", passed=0, failed=len(LAB.selected("test")))  # what make test says of the stub
IS_ROOT = hasattr(os, "geteuid") and os.geteuid() == 0


# --- every reply, in the parent -----------------------------------------------------------------------


@pytest.mark.parametrize(
    "reply",
    [
        {"returned": {"kind": "str", "value": "y" * (15 * MIB)}},
        {"returned": {"kind": "data", "type": "list", "value": ["x" * 1000] * (15 * 1024)}},
        {"returned": {"kind": "str", "value": ""}, "args_after": [["x" * 1000] * (15 * 1024)]},
    ],
    ids=["str", "data", "arguments"],
)
def test_a_reply_larger_than_the_child_sends_is_refused_as_forged(reply):
    """Finding 3: the 1 MiB bound of a value held only in the child, so a forged reply of 15 MiB was kept."""
    with pytest.raises(replies.Invalid, match=f"more than {QUICK.value_chars} characters"):
        replies.call(reply, QUICK)


def test_the_childs_own_descriptions_are_kept_short_and_safe():
    cut = replies.call(
        {"returned": {"kind": "str", "value": "y" * 10}, "args_after": {"too_large": "\x1b[2J" * MIB}}, QUICK
    )
    assert cut["args_after"] == {"too_large": "\\x1b[2J" * 25 + "…"}
    deep = []
    for _ in range(100):
        deep = [deep]
    assert replies.call({"returned": {"kind": "str", "value": ""}, "args_after": [deep]}, QUICK)["args_after"] == {
        "unserializable": "<nested more than 16 deep>"
    }


def test_what_the_child_itself_sends_within_its_bounds_is_kept_exactly():
    honest = "你好😀" * (QUICK.value_chars // 3)  # a whole MiB of characters: 6 to 12 bytes each in the JSON line
    reply = {"returned": {"kind": "str", "value": honest}, "args_after": [["z" * 1000] * 1000]}
    checked = replies.call(json.loads(json.dumps(reply)), QUICK)
    assert checked["returned"] == {"kind": "str", "value": honest} and checked["args_after"] == reply["args_after"]
    listed = ["x" * 100] * 9000  # under 1 MiB as the child's encoder measures it (its JSON)
    assert len(json.dumps(listed)) <= QUICK.value_chars
    data = replies.call(
        {"returned": {"kind": "data", "type": "list", "value": listed, "is_argument": [0] * 99}}, QUICK
    )["returned"]
    assert data["value"] == listed and data["is_argument"] == [0] * replies.MAX_ARGUMENTS


def test_a_reply_line_arrives_whole_in_pieces_and_one_over_the_frame_is_dropped():
    lines = pipes.Lines(frame_bytes=4 * MIB)
    long = b"[" + b"1," * MIB + b"1]"
    received = [line for start in range(0, len(long), 1 << 16) for line in lines.feed(long[start : start + (1 << 16)])]
    assert received == [] and lines.feed(b"\nnext\nha") == [long, b"next"] and lines.feed(b"lf\n") == [b"half"]
    for _ in range(0, 5 * MIB, 1 << 16):
        assert lines.feed(b"x" * (1 << 16)) == []
    assert lines.feed(b"still the same line\nafter\n") == [b"after"]  # the line over the frame is no answer


@pytest.mark.skipif(sys.platform == "win32", reason="the select layer is POSIX's")
def test_a_reply_written_in_time_is_read_however_late_its_reader_looks_and_nothing_more():
    """Lab10's make serve begins the load when it starts and looks at the first request: one that came after the
    load's 10 s found the hello and the load's reply waiting in the pipe, was told "timeout", and every request
    of the session after it was a 500 naming the student's file.  Past its deadline the reader takes one last
    look without waiting; a child that keeps printing after it cannot keep it reading."""
    replies_read, replies_write = os.pipe()
    output_read, output_write = os.pipe()
    try:
        reader = pipes.SelectPipes(
            os.fdopen(replies_read, "rb", buffering=0),
            os.fdopen(output_read, "rb", buffering=0),
            frame_bytes=MIB,
            output_bytes=4000,
        )
        os.write(replies_write, b'{"hello": 1}\n{"ok": true}\n')
        long_ago = time.monotonic() - 60
        assert reader.next_line(long_ago) == ("line", b'{"hello": 1}')
        assert reader.next_line(long_ago) == ("line", b'{"ok": true}')
        assert reader.next_line(long_ago) == ("timeout", None)
        os.write(output_write, b"x" * 1000)  # printed output, but no reply: still a timeout, at once
        started = time.monotonic()
        assert reader.next_line(long_ago) == ("timeout", None) and time.monotonic() - started < 1
        os.close(replies_write)
        replies_write = None
        assert reader.next_line(long_ago) == ("end", None)
    finally:
        for fd in (replies_write, output_write):
            if fd is not None:
                os.close(fd)


# --- one student's outputs -------------------------------------------------------------------------------


def flooded_report(lines: int = 30_000) -> str:
    """A feedback text with two long explanations, the way an unbounded value would be rendered."""
    return "\n".join(
        [
            "=== 响应提取 ===",
            "[TEST 4] a ... [FAIL]",
            "    调用: f()",
            "    实际: " + "[\"x\", " * 200_000,
            "    提示: the hint",
            "[TEST 5] b ... [PASS]",
            "[TEST 6] c ... [FAIL]",
            *[f"    | printed line {n}" for n in range(lines)],
            "    提示: another hint",
            "",
            "=" * 40,
            "测试结果: 1 通过, 2 失败",
            "=" * 40,
            "",
        ]
    )


def test_feedback_within_its_cap_is_untouched_and_beyond_it_keeps_every_verdict():
    small = flooded_report(lines=3).replace("[\"x\", " * 200_000, "[]")
    assert caps.feedback(small) is small
    report = flooded_report()
    kept = caps.feedback(report)
    assert len(kept.encode("utf-8")) <= caps.FEEDBACK_BYTES < len(report.encode("utf-8"))
    structure = [line for line in report.split("\n") if not line.startswith("    ")]
    assert [line for line in kept.split("\n") if not line.startswith("    ")] == structure  # every header, verdict
    notes = [line for line in kept.split("\n") if "KB (每个学生的反馈最多 64 KB)" in line]
    assert len(notes) == 2 and kept.count("    提示: ") == 2  # each cut explanation says so, and keeps its hint
    assert "    | printed line 0" in kept and "    调用: f()" in kept


def record_with(messages: dict, files: int = 1) -> dict:
    cases = {
        column: {
            "passed": False,
            "score": 0,
            "problem": "wrong_type",
            "hint": "hint.not_str",
            "hint_text": "return a str",
            "message": messages.get(column, "short"),
        }
        for column in (check.column for check in LAB.selected("test"))
    }
    return {
        "student": "mallory",
        "name": "",
        "status": "ok",
        "score": 0,
        "files": [f"m{n}.py" for n in range(files)],
        "notes": [],
        "cases": cases,
        "why": "",
    }


def test_a_record_within_its_cap_is_untouched_and_beyond_it_shares_the_cap():
    small = record_with({})
    assert caps.record(small) is small
    flooded = record_with({"t1": "实际: " + "[\"x\", " * 100_000, "t2": "\n".join(["line"] * 50_000)})
    kept = caps.record(flooded)
    assert caps.written_size(kept) <= caps.RECORD_BYTES and kept["cases"]["t3"]["message"] == "short"
    assert [kept["cases"][case]["message"].count("KB (grades.json 里每个学生最多 32 KB)") for case in ("t1", "t2")] == [
        1,
        1,
    ]
    assert kept["cases"]["t2"]["message"].startswith("line\nline\n") and kept["cases"]["t1"]["message"].startswith(
        "实际"
    )
    assert len(flooded["cases"]["t2"]["message"]) > 200_000  # the record it was made from is left as it was
    names = caps.record(record_with({}, files=20_000))
    assert caps.written_size(names) <= caps.RECORD_BYTES and names["files"][-1] == "… 还有 19950 项"


def test_gradescope_outputs_share_the_feedback_cap():
    outputs = caps.explanations(["a\n" * 100_000, "short", "b" * 200_000])
    assert sum(len(output.encode("utf-8")) for output in outputs) <= caps.FEEDBACK_BYTES and outputs[1] == "short"


# --- children's folders ------------------------------------------------------------------------------------


def plant_tree(root: Path, outside: Path, depth: int = 3000) -> None:
    """A tree as a child can leave it: `depth` nested folders, some unwritable (500) or locked (000), read-only
    files, FIFOs, and links to the folder `outside` (made here; it must stay whole)."""
    outside.mkdir(exist_ok=True)
    (outside / "keep.txt").write_text("keep")
    root.mkdir()
    folder = os.open(root, os.O_RDONLY)
    for level in range(depth):
        os.mkdir("d", dir_fd=folder)
        if level % 700 == 0:
            os.close(os.open("read-only.txt", os.O_CREAT | os.O_WRONLY, 0o400, dir_fd=folder))
            os.symlink(str(outside), "outside", dir_fd=folder)
            os.mkfifo("fifo", dir_fd=folder)
            os.mkdir("locked", dir_fd=folder)
            os.chmod("locked", 0o000, dir_fd=folder)
        inner = os.open("d", os.O_RDONLY, dir_fd=folder)
        if level % 900 == 5:
            os.fchmod(folder, 0o500)
        os.close(folder)
        folder = inner
    os.fchmod(folder, 0o000)
    os.close(folder)


@pytest.fixture
def place():
    """A folder for deep trees outside pytest's own temp dirs (which pytest removes recursively, later, with
    shutil.rmtree: a tree left there by a failing test would break the cleanup of a later session)."""
    folder = Path(tempfile.mkdtemp(prefix="lab09-test-"))
    yield folder
    removal.remove_tree(str(folder))


@pytest.mark.skipif(not removal.BY_DESCRIPTOR, reason="POSIX descriptors (Windows removes by path)")
def test_a_tree_of_any_depth_and_any_permissions_is_removed_and_links_are_not_followed(place):
    """Finding 4: 3,000 nested folders made shutil.rmtree(ignore_errors=True) raise RecursionError (3.11)."""
    plant_tree(place / "workdir", place / "outside")
    assert workdirs.remove(str(place / "workdir")) is None
    assert not (place / "workdir").exists() and (place / "outside" / "keep.txt").read_text() == "keep"
    assert workdirs.remove(str(place / "workdir")) is None  # gone already: nothing to say


@pytest.mark.skipif(
    not (IS_ROOT and removal.BY_DESCRIPTOR and hasattr(os, "fork")),
    reason="needs root, to act as an unprivileged owner",
)
def test_an_unprivileged_owner_removes_what_its_child_locked(place):
    """Without root's rights, locked (000) and unwritable (500) folders must be opened up before removal."""
    base = place / "nobody's"
    base.mkdir()
    os.chmod(place, 0o755)
    os.chown(base, bwrap.NOBODY, bwrap.NOBODY)
    pid = os.fork()
    if pid == 0:  # the child acts as the owner of everything below `base`, never as root
        code = 1
        try:
            os.setgroups([])
            os.setresgid(bwrap.NOBODY, bwrap.NOBODY, bwrap.NOBODY)
            os.setresuid(bwrap.NOBODY, bwrap.NOBODY, bwrap.NOBODY)
            plant_tree(base / "workdir", base / "outside", depth=1200)
            gone = removal.remove_tree(str(base / "workdir")) is None
            code = 0 if gone and not (base / "workdir").exists() and (base / "outside" / "keep.txt").exists() else 2
        finally:
            os._exit(code)
    _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0


def test_a_removal_out_of_time_stops_and_says_so(place):
    plant_tree(place / "workdir", place / "outside", depth=50)
    problem = removal.remove_tree(str(place / "workdir"), deadline=time.monotonic() - 1)
    assert "out of time" in problem and (place / "workdir").exists()
    assert removal.remove_tree(str(place / "workdir")) is None


# --- leftovers of dead graders ---------------------------------------------------------------------------


def dead_pid() -> int:
    """The pid of a process that has ended (and so, almost surely, of none that runs)."""
    ended = subprocess.Popen([sys.executable, "-c", "pass"])
    ended.wait()
    return ended.pid


def plant_leftover(place: Path, depth: int = 3000) -> Path:
    """What a grader that died leaves: a child's folder named after it, here with a deep locked tree, in
    `place` (the runs under test get it as their TMPDIR, so no other run on the machine pays for it)."""
    folder = place / f"{sandbox.PREFIX}-{dead_pid()}-leftover"
    plant_tree(folder, place / "outside", depth)
    return folder


def test_a_leftover_deep_folder_stops_neither_make_test_nor_make_grade(tmp_path, place):
    """Finding 4: from then on `_clear_stale_workdirs` crashed every `make grade` and every `make test`.  Now
    each run spends at most STALE_SECONDS on it and goes on; the next run goes on where it stopped (3,000
    folders can take longer than one run's share on a slow disk: about 3.6 ms per rmdir on ext4 here)."""
    leftover = plant_leftover(place)
    env = clean_env(TMPDIR=str(place))
    try:
        result = make("test", env=env)
        assert result.returncode != 0 and "INTERNALERROR" not in result.stdout + result.stderr
        assert STUB_SUMMARY in result.stdout
        named = [line for line in result.stderr.splitlines() if str(leftover) in line]
        assert len(named) == (1 if leftover.exists() else 0)  # what is left is named in one line
        (tmp_path / "class").mkdir()
        shutil.copy(SOLUTION, tmp_path / "class" / "alice.py")
        result = make("grade", f"SUBMISSIONS={tmp_path / 'class'}", f"OUT={tmp_path / 'out'}", env=env)
        assert result.returncode == 0, result.stderr
        assert "alice,ok,100" in (tmp_path / "out" / "grades.csv").read_text() and not leftover.exists()
    finally:
        removal.remove_tree(str(leftover))
    assert (place / "outside" / "keep.txt").exists()


def test_what_cannot_be_removed_is_named_in_one_line_and_the_run_goes_on(monkeypatch, capsys):
    monkeypatch.setattr(workdirs, "_stale_cleared", False)
    monkeypatch.setattr(workdirs, "_stale_workdirs", lambda: ["/nowhere/labkit-1-a", "/nowhere/labkit-1-b"])
    monkeypatch.setattr(removal, "remove_tree", lambda path, deadline=None: "EPERM: Operation not permitted")
    workdirs._clear_stale_workdirs()
    [line] = capsys.readouterr().err.splitlines()
    assert "2" in line and "/nowhere/labkit-1-a (EPERM: Operation not permitted)" in line
    monkeypatch.setattr(workdirs, "_stale_cleared", False)
    monkeypatch.setattr(workdirs, "_stale_workdirs", lambda: 1 / 0)  # whatever fails, the run goes on
    workdirs._clear_stale_workdirs()
    assert len(capsys.readouterr().err.splitlines()) == 1


def test_make_test_shows_that_line_once():
    patched = (
        "import sys, pytest\nfrom labkit.run import removal, workdirs\n"
        "workdirs._stale_workdirs = lambda: ['/nowhere/labkit-1-a']\n"
        "removal.remove_tree = lambda path, deadline=None: 'EPERM: Operation not permitted'\n"
        "sys.exit(pytest.main(['framework/verify.py', '-qq', '--tb=no', '-rN', '--no-header', "
        "'-p', 'no:cacheprovider', '--lab-report']))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", patched], cwd=ROOT, env=clean_env(), capture_output=True, text=True, timeout=120
    )
    named = [line for line in (result.stdout + result.stderr).splitlines() if "/nowhere/labkit-1-a" in line]
    assert len(named) == 1 and named[0].startswith("lab09: ") and STUB_SUMMARY in result.stdout


# --- text that reorders what a reader sees ---------------------------------------------------------------


def test_every_format_character_is_shown_escaped():
    """Finding 10: safe_text missed U+061C; and any other format character (Unicode's Cf), the line and
    paragraph separators too, can reorder or hide what an instructor reads."""
    hiding = [chr(code) for code in range(0x110000) if unicodedata.category(chr(code)) in ("Cf", "Zl", "Zp")]
    assert "\u061c" in hiding and "\u202e" in hiding and "\u2069" in hiding
    assert [char for char in hiding if safe_text(char) == char] == []
    assert safe_text("a\u061cb\u202ec\U000e0041") == "a\\u061cb\\u202ec\\U000e0041"
    assert safe_text("你好 😀 é\tx\n") == "你好 😀 é\tx\n"  # what a student writes is left as it is
