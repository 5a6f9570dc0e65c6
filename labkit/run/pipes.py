"""Reads a child's reply and output pipes, never blocking past a deadline: replies cut into lines, output into
one piece per call.

`select` on POSIX; a thread per pipe on Windows (or LAB_ENGINE=portable).  Why: docs/design.md#labkitrunpipespy
"""

from __future__ import annotations

import collections
import os
import queue
import selectors
import threading
import time

CHUNK = 1 << 16
MARK = b"\n\x00labkit-end "  # the child writes MARK + key + b"\x00\n" to the output pipe after each reply
MARK_TAIL = len(MARK) + 40  # a marker is never longer than this


class Lines:
    """Reply bytes cut into lines; a line longer than `frame_bytes` is dropped to its end.  The bytes of an
    unfinished line wait as a list of chunks, so a long line costs time in proportion to its length."""

    def __init__(self, frame_bytes: int):
        self.frame_bytes = frame_bytes
        self.pending: list[bytes] = []
        self.size = 0
        self.skipping = False

    def feed(self, chunk: bytes) -> list:
        lines = []
        while b"\n" in chunk:
            end, chunk = chunk.split(b"\n", 1)
            if not self.skipping:
                lines.append(b"".join(self.pending) + end)
            self.pending, self.size, self.skipping = [], 0, False
        if not self.skipping and chunk:
            self.pending.append(chunk)
            self.size += len(chunk)
        if self.size > self.frame_bytes:  # no reply is this long
            self.pending, self.size, self.skipping = [], 0, True
        return lines


class Printed:
    """What the student's code printed, cut at the child's markers into one piece per call, each kept up to
    `limit` bytes (the rest counted).  The newest few bytes may begin a marker: they wait in a window until
    more comes, and count as printed when a call ends without its marker (a hang, a crash)."""

    def __init__(self, limit: int):
        self.limit = limit
        self.current = bytearray()
        self.dropped = 0
        self.window = b""
        self.pieces: dict = {}
        self.closed = False

    def feed(self, chunk: bytes) -> None:
        data, self.window = self.window + chunk, b""
        while True:
            at = data.find(MARK)
            end = data.find(b"\x00\n", at + len(MARK)) if at >= 0 else -1
            if end < 0 or end - at > MARK_TAIL:
                break
            self._keep(data[:at])
            self._close_piece(data[at + len(MARK) : end].decode("ascii", "replace"))
            data = data[end + 2 :]
        cut = len(data) - MARK_TAIL
        partial = data.find(MARK, max(0, cut))
        if partial >= 0:
            cut = partial
        self._keep(data[: max(0, cut)])
        self.window = data[max(0, cut) :]

    def end(self) -> None:
        self._keep(self.window)
        self.window, self.closed = b"", True

    def reset(self) -> None:
        """A new request: what is printed from now on is its own."""
        self.current.clear()
        self.dropped = 0
        self.pieces.clear()

    def take(self, key: str | None) -> tuple[bytes, int]:
        """What the call `key` printed (its marker came), or else what was printed since the request."""
        if key in self.pieces:
            return self.pieces.pop(key)
        return bytes(self.current) + self.window[:MARK_TAIL], self.dropped

    def _keep(self, data: bytes) -> None:
        if data:
            room = max(0, self.limit - len(self.current))
            self.current += data[:room]
            self.dropped += max(0, len(data) - room)

    def _close_piece(self, key: str) -> None:
        if len(self.pieces) >= 64:  # markers nobody asks for (forged ones): forget the oldest
            self.pieces.pop(next(iter(self.pieces)))
        self.pieces[key] = (bytes(self.current), self.dropped)
        self.current.clear()
        self.dropped = 0


def read(fd: int) -> bytes | None:
    """One chunk from the descriptor: b"" at its end, None when nothing is there now (non-blocking)."""
    try:
        return os.read(fd, CHUNK)
    except BlockingIOError:
        return None
    except OSError:
        return b""


class SelectPipes:
    """POSIX: the caller's thread reads both pipes when it waits."""

    def __init__(self, replies_stream, output_stream, frame_bytes: int, output_bytes: int):
        self.streams = (replies_stream, output_stream)
        replies_fd, output_fd = replies_stream.fileno(), output_stream.fileno()
        self.lines, self.printed = Lines(frame_bytes), Printed(output_bytes)
        self.ready: collections.deque[bytes] = collections.deque()
        self.reply_open = True
        self.lock = threading.Lock()  # this way runs in one thread; the lock is for callers that share code
        self.selector = selectors.DefaultSelector()
        for fd in (replies_fd, output_fd):
            os.set_blocking(fd, False)
        self.replies_fd, self.output_fd = replies_fd, output_fd
        self.selector.register(replies_fd, selectors.EVENT_READ)
        self.selector.register(output_fd, selectors.EVENT_READ)

    def next_line(self, deadline: float):
        """("line", bytes), ("end", None) when the reply pipe closed, or ("timeout", None)."""
        while not self.ready and self.reply_open:
            if not self._pump(deadline):
                break
        if self.ready:
            return "line", self.ready.popleft()
        return ("end" if not self.reply_open else "timeout"), None

    def wait_printed(self, done, deadline: float) -> bool:
        """Read output until `done()` or the output pipe closes; False if `deadline` came first."""
        while not done() and not self.printed.closed:
            if not self._pump(deadline):
                break
        return done() or self.printed.closed

    def _pump(self, deadline: float) -> bool:
        """Wait for either pipe (until `deadline`) and take in what came; False if nothing came in time.  Past the
        deadline it takes one last look without waiting (what was written in time is in the pipe: a load `begin`
        started long before its first call), and says False whatever came, so a child that keeps printing cannot
        keep its parent reading."""
        remaining = deadline - time.monotonic()
        if not self.selector.get_map():
            return False
        events = self.selector.select(max(remaining, 0))
        for key, _ in events:
            if key.fd == self.output_fd:
                self._drain_output()
                continue
            chunk = read(self.replies_fd)
            if chunk:
                self.ready.extend(self.lines.feed(chunk))
            elif chunk == b"":
                self.reply_open = False
                self._unregister(self.replies_fd)
        return bool(events) and remaining > 0

    def _drain_output(self) -> None:
        while True:
            chunk = read(self.output_fd)
            if chunk is None:
                return
            if not chunk:
                self.printed.end()
                self._unregister(self.output_fd)
                return
            self.printed.feed(chunk)

    def _unregister(self, fd: int) -> None:
        if fd in self.selector.get_map():
            self.selector.unregister(fd)

    def close(self) -> None:
        """Only from the thread that reads (a descriptor closed under a waiting select could be reused)."""
        self.selector.close()
        for stream in self.streams:
            try:
                stream.close()
            except (OSError, ValueError):
                pass


class ThreadPipes:
    """Portable: a thread per pipe feeds a queue of reply lines and the printed pieces."""

    def __init__(self, replies_stream, output_stream, frame_bytes: int, output_bytes: int):
        self.lines, self.printed = Lines(frame_bytes), Printed(output_bytes)
        self.queue: queue.Queue = queue.Queue()
        self.lock = threading.Condition()
        self.ended = False
        threading.Thread(target=self._read_replies, args=(replies_stream,), daemon=True).start()
        threading.Thread(target=self._read_output, args=(output_stream,), daemon=True).start()

    def next_line(self, deadline: float):
        if self.ended:
            return "end", None
        remaining = deadline - time.monotonic()
        try:
            line = self.queue.get(timeout=remaining) if remaining > 0 else self.queue.get_nowait()
        except queue.Empty:
            return "timeout", None
        if line is None:
            self.ended = True
            return "end", None
        return "line", line

    def wait_printed(self, done, deadline: float) -> bool:
        with self.lock:
            while not done() and not self.printed.closed:
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    return False
                self.lock.wait(remaining)
        return True

    def _read_replies(self, stream) -> None:
        while True:
            chunk = _read_and_close(stream)
            if not chunk:
                break
            for line in self.lines.feed(chunk):
                self.queue.put(line)
        self.queue.put(None)

    def _read_output(self, stream) -> None:
        while True:
            chunk = _read_and_close(stream)
            with self.lock:
                if chunk:
                    self.printed.feed(chunk)
                else:
                    self.printed.end()
                self.lock.notify_all()
            if not chunk:
                return

    def close(self) -> None:
        pass  # the threads end, and close their pipes, when the child's side closes


def _read_and_close(stream) -> bytes:
    """One chunk from a pipe, or b"" at its end (then the pipe is closed by the thread that read it, so no
    descriptor is ever closed under a reading thread)."""
    chunk = read(stream.fileno()) if not stream.closed else b""
    if not chunk:
        try:
            stream.close()
        except (OSError, ValueError):
            pass
        return b""
    return chunk
