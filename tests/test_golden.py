"""tests/golden.py, the restructuring's proof: two captures of one tree compare equal, and a change is caught."""

import sys

import golden
from conftest import CHECKOUT


@CHECKOUT  # dist/ of the checkout
def test_two_captures_of_one_tree_compare_equal(tmp_path, capsys):
    """A part of the capture (the chat's page and database rows, a graded class with its elapsed time and progress
    lines, Gradescope, make help), twice: nothing but what MASKS names may differ.  The whole capture is the same
    check (`capture` twice, then `compare`: see the tool's docstring)."""
    only = ["help", "chat-zh", "grade-blackboard", "gradescope"]
    for side in ("a", "b"):
        options = [item for name in only for item in ("--only", name)]
        assert golden.main(["capture", str(tmp_path / side), "--python", sys.executable, *options]) == 0
    assert sorted(path.name for path in (tmp_path / "a").iterdir()) == sorted(only)
    assert (tmp_path / "a" / "grade-blackboard" / "files" / "out" / "grades.csv").is_file()
    rows = (tmp_path / "a" / "chat-zh" / "files" / "chat-sessions.db.rows").read_text(encoding="utf-8")
    assert "## sessions (id, student, seed" in rows and "started" not in rows  # when it started varies
    assert b"$TMP/" in (tmp_path / "a" / "chat-zh" / "stdout").read_bytes()  # the temp folder, not its path
    capsys.readouterr()
    assert golden.main(["compare", str(tmp_path / "a"), str(tmp_path / "b")]) == 0, capsys.readouterr().out


def capture_of(folder, stdout: str, page: str = "<p>会话 #1 · 2026-12-01 09:38:41</p>\n"):
    (folder / "grade-plain").mkdir(parents=True)
    (folder / "grade-plain" / "stdout").write_text(stdout, encoding="utf-8")
    (folder / "chat-zh" / "files").mkdir(parents=True)
    (folder / "chat-zh" / "files" / "chat-session.html").write_text(page, encoding="utf-8")
    return folder


RUN = (
    "评分中 3/7 · 已用 5.0 秒 · 预计还要 6.7 秒\n评分中 7/7 · 已用 9.1 秒 · 预计还要 0.0 秒\n"
    "Lab09: 7 份提交评分完成，用时 9.3 秒 (2 个并行)\n    提示: 回复首尾的空白要去掉: str.strip() (TASK.md 1.5.3 规则 E4)\n"
)


def test_compare_masks_the_clock_and_nothing_else(tmp_path, capsys):
    before = capture_of(tmp_path / "before", RUN)
    again = RUN.replace("评分中 3/7 · 已用 5.0 秒 · 预计还要 6.7 秒\n", "").replace("9.1", "4.0").replace("9.3", "4.2")
    assert (
        golden.main(
            [
                "compare",
                str(before),
                str(capture_of(tmp_path / "same", again, "<p>会话 #1 · 2026-12-02 10:00:00</p>\n")),
            ]
        )
        == 0
    )

    hint = RUN.replace("str.strip()", "strip()")
    assert golden.main(["compare", str(before), str(capture_of(tmp_path / "hint", hint))]) == 1
    shown = capsys.readouterr().out
    assert (
        "-    提示: 回复首尾的空白要去掉: str.strip()" in shown and "+    提示: 回复首尾的空白要去掉: strip()" in shown
    )
    assert "AFTER/grade-plain/stdout" in shown and "用时 N 秒 (2" in shown  # the context, masked
    assert golden.main(["compare", str(before), str(tmp_path / "hint"), "--allow", "提示: 回复首尾"]) == 0

    counted = RUN.replace("7 份提交评分完成", "8 份提交评分完成")  # a number beside the clock is no clock
    assert golden.main(["compare", str(before), str(capture_of(tmp_path / "count", counted))]) == 1

    (tmp_path / "same" / "grade-plain" / "exit").write_text("0\n", encoding="utf-8")
    assert golden.main(["compare", str(before), str(tmp_path / "same")]) == 1
    assert "only in AFTER: grade-plain/exit" in capsys.readouterr().out
