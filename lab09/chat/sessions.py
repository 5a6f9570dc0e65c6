"""`make chat`'s sessions, kept in SQLite (Python's sqlite3): every session, message, rewrite and hit.

    python -m lab09.chat.sessions [chat-sessions.db]     the stored sessions, one line each

Why: docs/design.md#lab09chatsessionspy
"""

from __future__ import annotations

import sqlite3
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from framework import ROOT
from lab09.chat.tinylm import count_tokens

FILE_NAME = "chat-sessions.db"
VERSION = 1  # PRAGMA user_version of the schema below; another value is an older (or newer) layout
SCHEMA = """
CREATE TABLE IF NOT EXISTS sessions (id INTEGER PRIMARY KEY, started TEXT NOT NULL, student TEXT NOT NULL, seed INTEGER,
    language TEXT NOT NULL, system TEXT NOT NULL, rewrite TEXT NOT NULL, deadline_ms REAL NOT NULL,
    delay_ms REAL NOT NULL, max_turns INTEGER NOT NULL, demo INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS turns (session INTEGER NOT NULL REFERENCES sessions(id), turn INTEGER NOT NULL,
    asked TEXT NOT NULL, follow_up INTEGER NOT NULL, prompt_tokens INTEGER NOT NULL,
    untrimmed_tokens INTEGER NOT NULL, evidence_tokens INTEGER NOT NULL, PRIMARY KEY (session, turn));
CREATE TABLE IF NOT EXISTS messages (session INTEGER NOT NULL REFERENCES sessions(id), turn INTEGER NOT NULL,
    role TEXT NOT NULL CHECK (role IN ('user', 'assistant')), content TEXT NOT NULL, tokens INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS rewrites (session INTEGER NOT NULL REFERENCES sessions(id), turn INTEGER NOT NULL,
    state TEXT NOT NULL CHECK (state IN ('done', 'same', 'fallback', 'off')), original TEXT NOT NULL,
    rewritten TEXT, reason TEXT, ms REAL, PRIMARY KEY (session, turn));
CREATE TABLE IF NOT EXISTS hits (session INTEGER NOT NULL REFERENCES sessions(id), turn INTEGER NOT NULL,
    search TEXT NOT NULL CHECK (search IN ('original', 'rewritten')), rank INTEGER NOT NULL,
    title TEXT NOT NULL, score REAL NOT NULL, PRIMARY KEY (session, turn, search, rank));
"""
TABLES = {"sessions", "turns", "messages", "rewrites", "hits"}


@dataclass(frozen=True)
class Opened:
    """What opening the file did: the store (None when nothing can be kept) and a line to show, or ""."""

    store: "Store | None"
    note: str = ""
    set_aside: Path | None = None


@dataclass
class FollowUp:
    """One stored follow-up, for the page: its session, the two questions and what each search hit."""

    session: int
    started: str
    student: str
    rewrite_setting: str
    turn: int
    state: str  # "done", "same" (kept as it was), "fallback" or "off" (no rewrite channel: REWRITE=0, a stub)
    original: str
    rewritten: str | None
    reason: str | None
    original_hits: list  # [(title, score)], best first
    rewritten_hits: list | None  # None when the rewrite channel did not run that turn


class Store:
    """An open sessions database; `session` is this chat's row, made with its first turn."""

    def __init__(self, connection: sqlite3.Connection, path: Path):
        self.connection, self.path = connection, path
        self.session: int | None = None
        self.meta: dict = {}

    def begin(self, meta: dict) -> None:
        """Remember this chat's settings (the page's `meta`); its row is written with the first turn, so a chat
        that never finished a turn leaves no session."""
        self.meta = meta

    def add_turn(self, turn, question: str, reply: str) -> None:
        """One whole turn in one transaction: the session row first time, the turn, its two messages, its
        rewrite (for a follow-up) and its hits."""
        with self.connection:  # commits on success, rolls back on any error (Ctrl-C included)
            if self.session is None:
                meta = self.meta
                self.session = self.connection.execute(
                    "INSERT INTO sessions (started, student, seed, language, system, rewrite, deadline_ms, delay_ms,"
                    " max_turns, demo) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (
                        time.strftime("%Y-%m-%d %H:%M:%S"),
                        meta["file"],
                        meta["seed"],
                        meta["language"],
                        meta["system"],
                        meta["rewrite_state"],
                        meta["deadline_ms"],
                        meta["delay_ms"],
                        meta["max_turns"],
                        int(meta["demo"]),
                    ),
                ).lastrowid
            key = (self.session, turn.number)
            self.connection.execute(
                "INSERT INTO turns VALUES (?, ?, ?, ?, ?, ?, ?)",
                (*key, turn.asked, int(turn.follow_up), turn.tokens_after, turn.tokens_before, turn.evidence_tokens),
            )
            self.connection.executemany(
                "INSERT INTO messages VALUES (?, ?, ?, ?, ?)",
                [(*key, "user", question, count_tokens(question)), (*key, "assistant", reply, count_tokens(reply))],
            )
            if turn.follow_up:
                state = turn.rewrite_state or "off"
                rewritten = turn.asked if state in ("done", "same") else None
                self.connection.execute(
                    "INSERT INTO rewrites VALUES (?, ?, ?, ?, ?, ?, ?)",
                    (*key, state, turn.question, rewritten, turn.rewrite_reason or None, turn.rewrite_ms),
                )
            for search, hits in (("original", turn.hits_original), ("rewritten", turn.hits_rewritten)):
                self.connection.executemany(
                    "INSERT INTO hits VALUES (?, ?, ?, ?, ?, ?)",
                    [(*key, search, hit.rank, hit.passage.title, hit.score) for hit in hits or ()],
                )

    def count(self) -> int:
        return self.connection.execute("SELECT count(*) FROM sessions").fetchone()[0]

    def follow_ups(self, limit: int = 100) -> tuple:
        """The newest `limit` follow-ups of every stored session (newest session first, its turns in order),
        and how many older ones were left out."""
        kept = self.connection.execute(
            "SELECT r.session, s.started, s.student, s.rewrite, r.turn, r.state, r.original, r.rewritten, r.reason"
            " FROM rewrites r JOIN sessions s ON s.id = r.session ORDER BY r.session DESC, r.turn LIMIT ?",
            (limit,),
        ).fetchall()
        left_out = self.connection.execute("SELECT count(*) FROM rewrites").fetchone()[0] - len(kept)
        hits: dict = {}
        if kept:
            for session, turn, search, title, score in self.connection.execute(
                "SELECT session, turn, search, title, score FROM hits WHERE session >= ? ORDER BY rank",
                (min(row[0] for row in kept),),
            ):
                hits.setdefault((session, turn, search), []).append((title, score))
        follow_ups = []
        for session, started, student, setting, turn, state, original, rewritten, reason in kept:
            follow_ups.append(
                FollowUp(
                    session,
                    started,
                    student,
                    setting,
                    turn,
                    state,
                    original,
                    rewritten,
                    reason,
                    hits.get((session, turn, "original"), []),
                    None if state == "off" else hits.get((session, turn, "rewritten"), []),
                )
            )
        return follow_ups, left_out

    def close(self) -> None:
        self.connection.close()


def _set_aside(path: Path, why: str) -> Path:
    """Move a file we cannot use out of the way (with its journal), under a name nothing else has."""
    stamp = time.strftime("%Y%m%d-%H%M%S")
    for number in range(1000):
        target = path.with_name(f"{path.stem}.{why}-{stamp}{'-' + str(number) if number else ''}{path.suffix}")
        if not target.exists():
            break
    path.rename(target)
    journal = path.with_name(path.name + "-journal")
    if journal.exists():
        journal.rename(target.with_name(target.name + "-journal"))
    return target


def _connect(path: Path) -> sqlite3.Connection:
    connection = sqlite3.connect(str(path), timeout=5)
    connection.execute("PRAGMA foreign_keys = ON")
    return connection


def _layout(connection: sqlite3.Connection) -> tuple:
    version = connection.execute("PRAGMA user_version").fetchone()[0]
    tables = {name for (name,) in connection.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    return version, tables


def open_store(path: Path, text=None) -> Opened:
    """The sessions database at `path`, made if new.  Never raises for a bad file: one that is not a
    database or has another layout is set aside and a new one started; if none can be kept, the chat goes
    on without one.  `text(key, **fields)` gives the note's words (the chat's catalogue)."""
    from labkit.i18n import text as catalogue

    say = text or catalogue
    path = Path(path)
    aside = None
    for attempt in range(2):
        try:
            connection = _connect(path)
            try:
                version, tables = _layout(connection)
                if not tables and version == 0:
                    with connection:
                        connection.executescript(SCHEMA)
                        connection.execute(f"PRAGMA user_version = {VERSION}")
                    version, tables = _layout(connection)
                if version == VERSION and TABLES <= tables:
                    note = "" if aside is None else say(aside[1], path=path.name, aside=aside[0].name)
                    return Opened(Store(connection, path), note, aside[0] if aside else None)
                why = "old" if version < VERSION else "newer"
            except sqlite3.OperationalError:  # locked, read-only, cannot be opened: a good file we cannot use now
                connection.close()
                raise
            except sqlite3.DatabaseError:  # "file is not a database", a malformed one, ...
                why = "corrupt"
            connection.close()
            if attempt:
                break
            aside = (_set_aside(path, why), f"store.{why}")
        except (sqlite3.Error, OSError) as problem:
            return Opened(
                None, say("store.unavailable", path=path.name, problem=str(problem) or type(problem).__name__)
            )
    return Opened(None, say("store.unavailable", path=path.name, problem="?"))


def main(argv=None) -> int:
    args = argv if argv is not None else sys.argv[1:]
    path = Path(args[0]) if args else ROOT / FILE_NAME
    opened = open_store(path)
    if opened.note:
        print(opened.note)
    if opened.store is None:
        return 1
    for row in opened.store.connection.execute(
        "SELECT s.id, s.started, s.student, s.rewrite, count(t.turn) FROM sessions s"
        " LEFT JOIN turns t ON t.session = s.id GROUP BY s.id ORDER BY s.id"
    ):
        print("#{} {} {} rewrite={} turns={}".format(*row))
    return 0


if __name__ == "__main__":
    sys.exit(main())
