"""One child interpreter as the parent sees it: started in a sandbox, three pipes read by threads, a clock.

Requests go to the child's stdin, replies come from its stdout, and whatever the student's code prints
arrives on its stderr.  Plain pipes and threads work the same on Linux, macOS and Windows.  Each pipe
has a reader thread that never blocks the parent: replies are queued line by line (a line longer than
the frame limit is no answer), printed output is kept up to a limit and counted beyond it.  The parent
waits on the queue with a deadline, so a child that hangs costs exactly its time limit.
"""

from __future__ import annotations

import json
import os
import queue
import re
import signal
import threading
import time

from framework.harness import replies, sandbox

_CHUNK = 1 << 16
_DIRECT_WRITE = 4096  # a pipe holds at least this much on every system (Windows' default buffer is 4 KiB)
_END = object()  # queued when the reply pipe closes
MARK = b"\n\x00lab09-end "  # the child writes MARK + nonce + b"\x00\n" to the output pipe after each reply
_MARK_TAIL = len(MARK) + 40

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
    its student.py is run from: plain module names only, never through a link.  Readable by the child
    whatever uid it gets (the folder itself is its own, 0700)."""
    for name, data in modules.items():
        if not _MODULE_NAME.match(name):
            continue
        fd = os.open(os.path.join(folder, name), os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0),
                     0o644)
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
        self.workdir = sandbox.make_workdir()
        try:
            place_modules(self.workdir, modules or {})
            self.started = sandbox.start(plan, source, settings, self.workdir)
        except BaseException:
            sandbox.remove_workdir(self.workdir)
            raise
        with _live_lock:
            _live.add(self)
        proc = self.started.proc
        self.replies: queue.Queue = queue.Queue()
        self._output = bytearray()
        self._dropped = 0
        self._ended_nonces: set = set()
        self._output_closed = False
        self._markers_arrive = True  # until a marker fails to come (the student closed the pipe)
        self._cond = threading.Condition()
        self._memory_exceeded = False
        for target, stream in ((self._read_replies, proc.stdout), (self._read_output, proc.stderr)):
            threading.Thread(target=target, args=(stream,), daemon=True).start()

    # --- sending -------------------------------------------------------------------------------

    def send(self, request: dict) -> str:
        """Write one request; its nonce.  A request is sent only when the child has answered the previous
        one, so the pipe is empty and a small request is written at once; a large one (a source file, a
        long input) goes through a thread, so a child that stops reading can never block the parent."""
        nonce = os.urandom(8).hex()
        data = json.dumps(dict(request, nonce=nonce), ensure_ascii=True).encode() + b"\n"
        with self._cond:
            self._output.clear()
            self._dropped = 0
        if len(data) <= _DIRECT_WRITE:
            self._write(data)
        else:
            threading.Thread(target=self._write, args=(data,), daemon=True).start()
        return nonce

    def _write(self, data: bytes) -> None:
        try:
            stream = self.started.proc.stdin
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
            return "hello", replies.hello(json.loads(line))
        except (ValueError, RecursionError, MemoryError, replies.Invalid):
            return "died", {"invalid": "no hello"}

    def receive(self, nonce: str, deadline: float) -> tuple[str, object]:
        """("reply", the parsed reply) for the request `nonce`, or ("timeout", {}) / ("died", how).
        Lines that are not replies (the student may write to any descriptor) are skipped."""
        while True:
            kind, line = self._next_line(deadline)
            if kind != "line":
                return kind, line
            try:
                reply = json.loads(line)
            except (ValueError, RecursionError, MemoryError):
                continue
            if type(reply) is dict and reply.get("nonce") == nonce:
                self._wait_for_marker(nonce, deadline)
                return "reply", reply

    def _next_line(self, deadline: float):
        remaining = deadline - time.monotonic()
        try:
            item = self.replies.get(timeout=max(0.0, remaining)) if remaining > 0 else self.replies.get_nowait()
        except queue.Empty:
            return "timeout", {}
        if item is _END:
            self.replies.put(_END)  # later readers see the end too
            return "died", self.exit_status()
        return "line", item

    def _read_replies(self, stream) -> None:
        pending, skipping = b"", False
        while True:
            chunk = _read(stream)
            if not chunk:
                break
            pending += chunk
            while b"\n" in pending:
                line, pending = pending.split(b"\n", 1)
                if skipping:
                    skipping = False
                    continue
                self.replies.put(line)
            if len(pending) > self.limits.frame_bytes:  # no reply is this long: drop it to its end
                pending, skipping = b"", True
        self.replies.put(_END)

    # --- printed output ---------------------------------------------------------------------------

    def _read_output(self, stream) -> None:
        window = b""
        while True:
            chunk = _read(stream)
            if not chunk:
                break
            data = window + chunk
            while True:
                at = data.find(MARK)
                end = data.find(b"\x00\n", at + len(MARK)) if at >= 0 else -1
                if end < 0 or end - at > _MARK_TAIL:
                    break
                self._keep(data[:at])
                with self._cond:
                    self._ended_nonces.add(data[at + len(MARK):end].decode("ascii", "replace"))
                    self._cond.notify_all()
                data = data[end + 2:]
            cut = len(data) - _MARK_TAIL
            partial = data.find(MARK, max(0, cut))
            if partial >= 0:
                cut = partial
            self._keep(data[:max(0, cut)])
            window = data[max(0, cut):]
        self._keep(window)
        with self._cond:
            self._output_closed = True
            self._cond.notify_all()

    def _keep(self, data: bytes) -> None:
        if not data:
            return
        with self._cond:
            room = max(0, self.limits.output_bytes - len(self._output))
            self._output += data[:room]
            self._dropped += max(0, len(data) - room)

    def _wait_for_marker(self, nonce: str, deadline: float) -> None:
        """Wait until the output of this call has arrived (the child marks its end), briefly."""
        if not self._markers_arrive:
            return
        limit = min(deadline, time.monotonic() + 1.0)
        with self._cond:
            while nonce not in self._ended_nonces and not self._output_closed:
                remaining = limit - time.monotonic()
                if remaining <= 0:
                    self._markers_arrive = False  # the student closed or redirected the pipe
                    return
                self._cond.wait(remaining)
            self._ended_nonces.discard(nonce)

    def settle_output(self, seconds: float = 0.5) -> None:
        """After the child died: wait briefly until the output pipe is drained."""
        limit = time.monotonic() + seconds
        with self._cond:
            while not self._output_closed and time.monotonic() < limit:
                self._cond.wait(max(0.0, limit - time.monotonic()))

    def output_report(self) -> dict:
        from framework.harness.untrusted import safe_text
        with self._cond:
            return {"text": safe_text(self._output.decode("utf-8", "replace")), "dropped": self._dropped}

    # --- the end ---------------------------------------------------------------------------------

    def exit_status(self) -> dict:
        try:
            code = self.started.proc.wait(timeout=1.0)
        except Exception:  # noqa: BLE001  (TimeoutExpired, or the process object itself failing)
            return {"exit_code": None}
        if self._memory_exceeded:
            return {"memory": True}
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
            if sandbox.resident_bytes(proc.pid) > limit:
                self._memory_exceeded = True
                self.started.end()
                return
            time.sleep(0.02)

    def close(self) -> None:
        """End the child and everything it started, and remove its folder.  (The reader threads close
        their own pipes when they reach the end, so no descriptor is closed under a reading thread.)"""
        with self._close_lock:
            if self.closed:
                return
            self.closed = True
        with _live_lock:
            _live.discard(self)
        self.started.end()
        try:
            self.started.proc.stdin.close()
        except (OSError, ValueError):
            pass
        sandbox.remove_workdir(self.workdir)


def _read(stream) -> bytes:
    """One chunk from a pipe, or b"" at its end (then the pipe is closed by the thread that read it)."""
    try:
        chunk = os.read(stream.fileno(), _CHUNK)
    except (OSError, ValueError):
        chunk = b""
    if not chunk:
        try:
            stream.close()
        except (OSError, ValueError):
            pass
    return chunk
