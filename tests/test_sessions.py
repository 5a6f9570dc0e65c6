"""chat-sessions.db: every session of `make chat` kept in SQLite, each turn committed, a bad file set aside."""

import os
import signal
import sqlite3
import subprocess
import sys
import time

import pytest

from conftest import ROOT, SOLUTION, clean_env, make
from lab09.chat import sessions
from lab09.chat.main import DEMO_SCRIPTS
from lab09.chat.tinylm import count_tokens
from test_chat import DEMO_REWRITES, RIGHT


def rows(db, query: str) -> list:
    connection = sqlite3.connect(db)
    try:
        return connection.execute(query).fetchall()
    finally:
        connection.close()


def test_after_two_chats_the_database_holds_both_sessions_and_the_page_lists_their_follow_ups(tmp_path):
    page, db = tmp_path / "chat-session.html", tmp_path / sessions.FILE_NAME
    first = make("chat", "DEMO=1", "STUDENT=solutions/student.py", "REWRITE_DEADLINE=60000", f"CHAT_PAGE={page}")
    second = subprocess.run(
        [
            sys.executable,
            "-m",
            "lab09.chat.main",
            "--student",
            str(SOLUTION),
            "--seed",
            "3",
            "--rewrite-deadline",
            "60000",
            "--page",
            str(page),
        ],  # steady under load
        input="什么是提示词？\n它是谁拼出来的？\n",
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=clean_env(),
        timeout=120,
    )
    assert first.returncode == second.returncode == 0, second.stderr
    assert f"会话存进了 {db} (第 1 次会话，共 1 次" in first.stdout and "(第 2 次会话，共 2 次" in second.stdout
    sessions_rows = rows(
        db, "SELECT id, student, seed, rewrite, deadline_ms, max_turns, demo FROM sessions ORDER BY id"
    )
    assert sessions_rows == [
        (1, "solutions/student.py", 9, "ready", 60000.0, 2, 1),
        (2, "solutions/student.py", 3, "ready", 60000.0, 6, 0),
    ]
    messages = rows(db, "SELECT session, turn, role, content, tokens FROM messages ORDER BY session, turn, rowid")
    assert [(s, t, role) for s, t, role, _, _ in messages] == [
        (1, 1, "user"),
        (1, 1, "assistant"),
        (1, 2, "user"),
        (1, 2, "assistant"),
        (1, 3, "user"),
        (1, 3, "assistant"),
        (2, 1, "user"),
        (2, 1, "assistant"),
        (2, 2, "user"),
        (2, 2, "assistant"),
    ]
    assert all(tokens == count_tokens(content) and content for *_, content, tokens in messages)
    assert [content for s, _, role, content, _ in messages if role == "user"] == [
        *DEMO_SCRIPTS["zh"],
        "什么是提示词？",
        "它是谁拼出来的？",
    ]  # the history as typed: never the evidence
    assert not [content for *_, content, _ in messages if "资料" in content]
    turns = rows(
        db, "SELECT session, turn, follow_up, evidence_tokens > 0, prompt_tokens <= untrimmed_tokens FROM turns"
    )
    assert len(turns) == 5 and all(evidence and fits for *_, evidence, fits in turns)
    rewrites = rows(
        db, "SELECT session, turn, state, original, rewritten, reason, ms > 0 FROM rewrites ORDER BY session, turn"
    )
    assert rewrites == [
        (1, 2, "done", DEMO_SCRIPTS["zh"][1], DEMO_REWRITES["zh"][0], None, 1),
        (1, 3, "done", DEMO_SCRIPTS["zh"][2], DEMO_REWRITES["zh"][1], None, 1),
        (2, 2, "done", "它是谁拼出来的？", "提示词是谁拼出来的？", None, 1),
    ]
    hits = rows(db, "SELECT turn, search, rank, title FROM hits WHERE session = 1 AND rank = 1 ORDER BY turn, search")
    trim = "TASK.md › 1.5.7 选做: trim_history 按整轮裁剪历史 › "
    assert [(turn, search) for turn, search, _, _ in hits] == [
        (1, "original"),
        (2, "original"),
        (2, "rewritten"),
        (3, "original"),
        (3, "rewritten"),
    ]
    tops = [title for *_, title in hits]  # the rules, by title path: T1, then what the rewrites found first
    assert tops[0::2] == [trim + rule.rsplit(" › ", 1)[1] for rule in RIGHT] and trim not in tops[1] + tops[3]
    source = page.read_text(encoding="utf-8")
    table = source.split('<table id="rewrites-table">')[1].split("</table>")[0]
    assert table.index('id="session-2"') < table.index('id="session-1"') and table.count('class="follow-up"') == 3
    assert "它是谁拼出来的？" in table and DEMO_SCRIPTS["zh"][1] in table


def test_the_schema_keeps_only_user_and_assistant_messages(tmp_path):
    store = sessions.open_store(tmp_path / sessions.FILE_NAME).store
    with pytest.raises(sqlite3.IntegrityError):
        store.connection.execute("INSERT INTO messages VALUES (1, 1, 'system', 'evidence', 1)")
    store.close()


def test_ctrl_c_in_the_middle_of_a_chat_keeps_every_turn_before_it(tmp_path):
    page, db = tmp_path / "page.html", tmp_path / sessions.FILE_NAME
    chat = subprocess.Popen(
        [sys.executable, "-m", "lab09.chat.main", "--student", str(SOLUTION), "--seed", "1", "--page", str(page)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=ROOT,
        env=clean_env(),
        text=True,
    )
    try:
        chat.stdin.write("什么是 token？\n")
        chat.stdin.flush()
        deadline = time.monotonic() + 60
        committed = []
        while not committed and time.monotonic() < deadline:  # poll the database for the committed turn
            if db.exists():
                try:
                    committed = rows(db, "SELECT turn FROM turns")
                except sqlite3.OperationalError:  # the schema is being made, or a write holds the lock
                    pass
            time.sleep(0.05)
        assert committed == [(1,)]
        os.kill(chat.pid, signal.SIGINT)  # the chat now waits for the next question
        out, err = chat.communicate(timeout=60)
    finally:
        if chat.poll() is None:
            chat.kill()
            chat.wait()
    assert chat.returncode == 0 and "Traceback" not in out + err, err
    reply = next(line for line in out.splitlines() if line.startswith("助手> "))[len("助手> ") :]
    assert rows(db, "SELECT role, content FROM messages") == [("user", "什么是 token？"), ("assistant", reply)]
    assert page.exists() and "会话存进了" in out


@pytest.mark.parametrize("kind", ["corrupt", "old"])
def test_a_damaged_or_old_database_is_said_in_one_line_and_set_aside(tmp_path, kind):
    db = tmp_path / sessions.FILE_NAME
    if kind == "corrupt":
        db.write_bytes(b"SQLite format 3\x00" + b"\xff" * 3000)
    else:
        old = sqlite3.connect(db)
        old.execute("CREATE TABLE sessions (id INTEGER PRIMARY KEY, when_ TEXT)")
        old.execute("INSERT INTO sessions VALUES (1, 'yesterday')")
        old.commit()
        old.close()
    before = db.read_bytes()
    result = make("chat", "DEMO=1", "STUDENT=solutions/student.py", f"CHAT_PAGE={tmp_path / 'page.html'}")
    assert result.returncode == 0 and "Traceback" not in result.stdout + result.stderr
    notes = [line for line in result.stdout.splitlines() if sessions.FILE_NAME in line and "改名为" in line]
    assert len(notes) == 1 and ("旧版本" in notes[0]) == (kind == "old")
    aside = [path for path in tmp_path.iterdir() if path.name.startswith(f"chat-sessions.{kind}-")]
    assert len(aside) == 1 and aside[0].name in notes[0] and aside[0].read_bytes() == before  # kept, untouched
    assert rows(db, "SELECT count(*) FROM turns") == [(3,)]  # a new one, with this chat in it


def test_a_database_that_cannot_be_opened_leaves_the_chat_going(tmp_path):
    (tmp_path / "here.db").mkdir()  # a folder where the file should be
    result = make(
        "chat",
        "DEMO=1",
        "STUDENT=solutions/student.py",
        f"CHAT_PAGE={tmp_path / 'page.html'}",
        f"CHAT_DB={tmp_path / 'here.db'}",
    )
    assert result.returncode == 0 and "Traceback" not in result.stdout + result.stderr
    assert result.stdout.count("会话库 here.db 用不了") == 1 and result.stdout.count("助手> ") == 3
    assert "没有会话库" in (tmp_path / "page.html").read_text(encoding="utf-8")


def test_make_clean_keeps_the_sessions_database(tmp_path, monkeypatch):
    from labkit import entry

    monkeypatch.setattr(entry, "ROOT", str(tmp_path))
    for name in ("chat-session.html", sessions.FILE_NAME):
        (tmp_path / name).write_text("x")
    entry.clean()
    assert not (tmp_path / "chat-session.html").exists() and (tmp_path / sessions.FILE_NAME).exists()


def test_the_sessions_can_be_listed(tmp_path):
    db = tmp_path / sessions.FILE_NAME
    make("chat", "DEMO=1", "STUDENT=solutions/student.py", f"CHAT_PAGE={tmp_path / 'page.html'}")
    listed = subprocess.run(
        [sys.executable, "-m", "lab09.chat.sessions", str(db)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=clean_env(),
        timeout=60,
    )
    assert listed.returncode == 0 and listed.stdout.startswith("#1 ") and "turns=3" in listed.stdout


def test_chat_db_reaches_the_chat_from_make_and_lab_py():
    from labkit import entry

    command = entry.command(entry.parse(["chat", "CHAT_DB=elsewhere.db", "CHAT_PAGE=p.html"]), "py")
    assert command[command.index("--db") + 1] == "elsewhere.db" and command[command.index("--page") + 1] == "p.html"


def test_a_page_and_database_in_a_missing_folder_are_said_in_a_line_each(tmp_path):
    result = make("chat", "DEMO=1", "STUDENT=solutions/student.py", f"CHAT_PAGE={tmp_path / 'gone' / 'page.html'}")
    assert result.returncode == 0 and "Traceback" not in result.stdout + result.stderr
    assert result.stdout.count("会话库 chat-sessions.db 用不了") == 1 and result.stdout.count("没能写出") == 1
    assert result.stdout.count("助手> ") == 3
