"""One child interpreter as the parent sees it: started in a sandbox, three pipes, a clock.

Why: docs/design.md#labkitrunchannelpy
"""

from __future__ import annotations

import json
import os
import re
import signal
import threading
import time
from typing import Any

from labkit.run import folder, pipes, reaper, replies, sandbox, spawn, workdirs
from labkit.untrusted import safe_text

# Replies are ASCII JSON lines: no decoding detours per line.  (JSONDecoder.__init__ sets scan_once, which typeshed
# does not declare.)
_scan = json.decoder.JSONDecoder().scan_once  # type: ignore[attr-defined]
_DIRECT_WRITE = 4096  # a pipe holds at least this much on every system (Windows' default buffer is 4 KiB)

_live: set = set()  # every child of this process that has not been closed
_live_lock = threading.Lock()
_stopping = threading.Event()


class Stopped(Exception):
    """The run is being stopped (Ctrl-C): no new child may start."""


def stop_all() -> None:
    """Kill every live child of this process (and all it started) and refuse to start new ones."""
    _stopping.set()
    with _live_lock:
        children = list(_live)
    for child in children:
        child.close()


_MODULE_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*\.py$")


def place_modules(folder: str, modules: dict) -> None:
    """Write a submission's helper modules ("helper.py" -> bytes) into the child's own folder, beside where
    its student file is run from: plain module names only, never through a link.  Readable by the child
    whatever uid it gets (the folder itself is its own, 0700)."""
    for name, data in modules.items():
        if not _MODULE_NAME.match(name):
            continue
        fd = os.open(
            os.path.join(folder, name), os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o644
        )
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        os.chmod(os.path.join(folder, name), 0o644)


class Child:
    """A started child: send a request, receive the reply with the same nonce before a deadline."""

    def __init__(self, plan: sandbox.Plan, source: str, settings: dict, limits, modules: dict | None = None):
        if _stopping.is_set():
            raise Stopped()
        self.limits = limits
        self.closed = False
        self._close_lock = threading.Lock()
        self.workdir = workdirs.make()
        try:
            place_modules(self.workdir, modules or {})
            self.started = spawn.start(plan, source, settings, self.workdir)
        except BaseException:
            workdirs.remove(self.workdir)
            raise
        with _live_lock:
            _live.add(self)
        proc = self.started.proc
        layer = pipes.ThreadPipes if plan.portable else pipes.SelectPipes
        self.pipes = layer(proc.stdout, proc.stderr, limits.frame_bytes, limits.output_bytes)
        self._markers_arrive = True  # until a marker fails to come (the student closed the pipe)
        self._memory_exceeded = False
        self.folder = folder.Folder(self.workdir, limits.folder_bytes, limits.folder_files)
        self._folder_exceeded = False
        self._released = False

    # --- sending -------------------------------------------------------------------------------

    def send(self, request: dict) -> str:
        """Write one request; its nonce.  A request is sent only when the child has answered the previous
        one, so the pipe is empty and a small request is written at once; a large one (a source file, a
        long input) goes through a thread, so a child that stops reading can never block the parent."""
        nonce = os.urandom(8).hex()
        data = json.dumps(dict(request, nonce=nonce), ensure_ascii=True).encode() + b"\n"
        with self.pipes.lock:
            self.pipes.printed.reset()
        if len(data) <= _DIRECT_WRITE:
            self._write(data)
        else:
            threading.Thread(target=self._write, args=(data,), daemon=True).start()
        return nonce

    def _write(self, data: bytes) -> None:
        try:
            stream = self.started.proc.stdin
            assert stream is not None  # spawn.start gives every child a pipe for its requests
            stream.write(data)
            stream.flush()
        except (OSError, ValueError):
            pass  # the child is gone; the reader sees the end of its pipe

    # --- receiving -----------------------------------------------------------------------------

    def hello(self, deadline: float) -> tuple[str, dict]:
        """("hello", what the child applied) — its first line, sent before any student code ran — or
        ("timeout", {}) / ("died", how)."""
        kind, line = self._next_line(deadline)
        if kind != "line":
            return kind, line
        try:
            return "hello", replies.hello(_parse(line))
        except (ValueError, RecursionError, MemoryError, replies.Invalid):
            return "died", {"invalid": "no hello"}

    def receive(self, nonce: str, deadline: float, index: int | None = None) -> tuple[str, dict]:
        """("reply", the parsed reply) for the request `nonce` (for item `index` of a batch: that item's
        result), or ("timeout", {}) / ("died", how).  Lines that are not replies (the student may write to
        any descriptor) are skipped."""
        while True:
            kind, line = self._next_line(deadline)
            if kind != "line":
                return kind, line
            try:
                reply = _parse(line)
            except (ValueError, RecursionError, MemoryError):
                continue
            if type(reply) is not dict or reply.get("nonce") != nonce:
                continue
            if reply.get("index") == index or (index is not None and "internal" in reply):
                self._wait_for_marker(self.output_key(nonce, index), deadline)
                return "reply", reply

    @staticmethod
    def output_key(nonce: str, index: int | None = None) -> str:
        """The name of a call's marker: its request's nonce, and its place in a batch."""
        return nonce if index is None else f"{nonce}.{index}"

    def _next_line(self, deadline: float) -> tuple[str, Any]:
        """("line", its bytes), else ("timeout", {}) or ("died", how)."""
        kind, line = self.pipes.next_line(deadline)
        if kind == "end":
            return "died", self.exit_status()
        return (kind, line) if kind == "line" else ("timeout", {})

    def _wait_for_marker(self, key: str, deadline: float) -> None:
        """Wait until the output of this call has arrived (the child marks its end), briefly."""
        if self._markers_arrive and not self.pipes.wait_printed(
            lambda: key in self.pipes.printed.pieces, min(deadline, time.monotonic() + 1.0)
        ):
            self._markers_arrive = False  # the student closed or redirected the pipe: stop waiting for them

    def settle_output(self, seconds: float = 0.5) -> None:
        """After the child died: wait briefly until the output pipe is drained."""
        self.pipes.wait_printed(lambda: False, time.monotonic() + seconds)

    def output_report(self, key: str | None = None) -> dict:
        """What the call `key` printed (its marker arrived), or else what was printed since its request."""
        with self.pipes.lock:
            printed, dropped = self.pipes.printed.take(key)
        if not printed:
            return {"text": "", "dropped": dropped}
        return {"text": safe_text(printed.decode("utf-8", "replace")), "dropped": dropped}

    # --- the end ---------------------------------------------------------------------------------

    def exit_status(self) -> dict:
        try:
            code = self.started.proc.wait(timeout=1.0)
        except Exception:  # noqa: BLE001  (TimeoutExpired, or the process object itself failing)
            return {"exit_code": None}
        if self._memory_exceeded:
            return {"memory": True}
        if self._folder_exceeded:
            return {"disk": True}
        if code < 0:
            try:
                return {"signal": signal.Signals(-code).name}
            except ValueError:
                return {"signal": str(-code)}
        return {"exit_code": code}

    def watch_memory(self) -> None:
        """Where the system refused the memory rlimit (macOS): a thread kills the child when its resident
        memory passes the limit (the call then fails as "memory")."""
        threading.Thread(target=self._watch_memory, daemon=True).start()

    def _watch_memory(self) -> None:
        limit = self.limits.memory_bytes
        proc = self.started.proc
        while proc.poll() is None and not self.closed:
            if reaper.resident_bytes(proc.pid) > limit:
                self._memory_exceeded = True
                self.started.end()
                return
            time.sleep(0.02)

    def watch_folder(self) -> bool:
        """Once the child said hello (before any student code): find its folder's tmpfs (True); where it has
        none, a thread walks the folder and ends the child when it holds more than its bound (False)."""
        pid = self.started.interpreter_pid()
        if pid is not None and self.folder.attach(pid):
            return True  # the kernel bounds the tmpfs; `folder_passed` reads its count after each answer
        threading.Thread(target=self._watch_folder, daemon=True).start()
        return False

    def _watch_folder(self) -> None:
        proc = self.started.proc
        while proc.poll() is None and not self.closed:
            if self.folder_passed():
                return
            time.sleep(0.02)

    def folder_passed(self) -> bool:
        """Whether the child's folder holds more than its bound (then the child is ended: its status is `disk`)."""
        if not self._folder_exceeded and not self.closed and self.folder.over():
            self._folder_exceeded = True
            self.started.end()
        return self._folder_exceeded

    def close(self) -> None:
        """End the child and everything it started, and remove its folder.  Any thread may call it (stop_all
        does, even from a signal handler): a reader waiting on the pipes then sees their end."""
        with self._close_lock:
            if self.closed:
                return
            self.closed = True
        with _live_lock:
            _live.discard(self)
        self.started.end()
        self.folder.close()
        workdirs.remove(self.workdir)

    def release(self) -> None:
        """Close the pipes, after `close`; only the thread that reads them calls this (a descriptor closed
        under a waiting `select` could be reused for another file).  Portable reading threads close their
        own pipes at the end."""
        if self._released:
            return
        self._released = True
        self.pipes.close()
        try:
            stream = self.started.proc.stdin
            assert stream is not None  # spawn.start gives every child a pipe for its requests
            stream.close()
        except (OSError, ValueError):
            pass


def _parse(line: bytes):
    """One JSON line (anything else — a student's junk on the pipe — raises ValueError)."""
    try:
        value, end = _scan(line.decode("ascii"), 0)
    except StopIteration as nothing:  # what the C scanner raises where no JSON value starts
        raise ValueError("not JSON") from nothing
    if line[end:].strip():
        raise ValueError("trailing data")
    return value
