"""make serve: a real HTTP server on 127.0.0.1 whose POST /v1/chat/completions is answered by the student's four
functions, called through the engine (the child never gets a socket: the lab's network policy stays "none").

    python -m lab10.serve --student FILE [--port N] [--seed N] [--pace MS] [--check]

The server is the harness's own code and the only part that touches the network.  Per request: read the head and
the body within one deadline, bounded in size; parse_chat_request(body) in the child (a ValueError is the client's
400); the prompt by Lab09's reference format_prompt, the tiny model of Lab09's make chat, the reply cut by Lab09's
reference extract_response (trusted, lab10/previous.py); then chat_completion (JSON) or sse_events (a stream) in the
child, error_body for every error.  A student function that raises, loops (its call's time limit, as in make test),
ends its process or returns the wrong type gives the client a 500 with a one-line reason, and the terminal says
which function and rule.  Ctrl-C ends it without a make error (labkit/terminal.py).
"""

from __future__ import annotations

import argparse
import http.server
import io
import json
import random
import re
import socket
import sys
import threading
import time
import uuid
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import quote, urlsplit

from lab10.examples import MAX_TOKENS_LIMIT
from lab10.spec import LAB
from labkit.i18n import text
from labkit.run.engine import Limits, StudentRun
from labkit.terminal import own_terminal
from labkit.untrusted import safe_text

ENDPOINT = "/v1/chat/completions"
MODEL = "lab09-tinylm"  # the "model" of every response: Lab09's tiny model
MAX_BODY = 64 * 1024  # bytes: a larger body is refused (413) before it is read
MAX_HEAD = 16 * 1024  # bytes of the request line and headers (431 beyond)
READ_SECONDS = 10.0  # the head and the body must arrive within this (408 after it: a slow client)
MAX_DEPTH = 64  # JSON nested deeper is refused (400) before any student code sees it
CONNECTIONS = 8  # requests handled at once (503 beyond)
LINGER_SECONDS = 2.0  # after its answer, how long a connection reads (and drops) what its client still sends
LINGER_BYTES = 1024 * 1024  # ... and how much, at most
SERVER_LIMITS = Limits.open_ended()  # a call's limit as in make test; the whole run's a week, not a submission's
REASON_HEADER = "X-Lab10-Reason"  # every error response's reason, whatever the student's error_body wrote
_HEADER_SAFE = "".join(chr(code) for code in range(0x20, 0x7F) if chr(code) != "%")
WANTED = {"parse_chat_request": dict, "chat_completion": dict, "sse_events": list, "error_body": dict}
SECTION = {"parse_chat_request": "1.5.2", "chat_completion": "1.5.3", "sse_events": "1.5.4", "error_body": "1.5.5"}


@dataclass
class Response:
    """What goes back to the client: a status, its headers, and a JSON body or the events of a stream."""

    status: int
    body: object = None  # a dict (JSON) or a str (text/plain)
    events: list = field(default_factory=list)  # text/event-stream: written one at a time
    headers: tuple = ()
    note: str = ""  # the log line's detail (which function, which rule)
    reason: str = ""  # an error's one-line reason, also sent as the header REASON_HEADER (a broken error_body hides it)


class StudentFailed(Exception):
    """A call of a student function that gave no usable value: the one-line reason, for the client and the log."""

    def __init__(self, reason: str, value_error: str | None = None):
        super().__init__(reason)
        self.reason, self.value_error = reason, value_error


class Service:
    """The student's functions behind the endpoint, Lab09's reference and model around them; one call at a time."""

    def __init__(self, student: StudentRun, seed: int | None = None, pace_ms: float = 20.0, out=sys.stdout):
        from lab10.previous import lab09

        self.student, self.seed, self.pace, self.out = student, seed, pace_ms / 1000, out
        self.lab09 = lab09()
        self.lock = threading.RLock()  # one child: its calls one after another (error() inside complete())
        self.log_lock = threading.Lock()
        # Every call from one thread that lives as long as the server: a child is started by the thread that first
        # needs it, and on Linux the child is told to end when that thread ends (PR_SET_PDEATHSIG is per thread), so
        # a child started by a request's own thread died with it and the next request found it gone.
        self.engine = ThreadPoolExecutor(max_workers=1, thread_name_prefix="lab10-engine")
        self.engine.submit(student.begin).result()  # the child starts while the banner prints

    # --- the student's functions, through the engine ----------------------------------------------------
    def call(self, function: str, *args):
        """The value `function` returned (of the type 1.5.1 says), or StudentFailed with the reason."""
        record, problem, detail = self.engine.submit(self.student.call, function, list(args)).result()
        if record is None:
            raise StudentFailed(_problem_reason(function, problem, detail, self.student))
        if record.raised is not None:
            raised = record.raised
            message = safe_text(raised.get("message", ""), 300)
            if function == "parse_chat_request" and "ValueError" in raised.get("kinds", [raised.get("type")]):
                raise StudentFailed(text("serve.value_error", message=message), value_error=message)
            where = f" ({self.student.display}:{raised['line']})" if raised.get("line") else ""
            raise StudentFailed(
                text(
                    "serve.raised",
                    function=function,
                    type=safe_text(raised.get("type", "?"), 60),
                    message=message,
                    where=where,
                )
            )
        returned = record.returned or {}
        value = returned.get("value") if returned.get("kind") in ("data", "str") else None
        wanted = WANTED[function]
        if type(value) is not wanted or (wanted is list and not all(type(item) is str for item in value)):
            shown = "str" if returned.get("kind") == "str" else safe_text(returned.get("type", "?"), 60)
            raise StudentFailed(
                text(
                    "serve.wrong_type", function=function, type=shown, wanted=wanted.__name__, section=SECTION[function]
                )
            )
        return value

    # --- the endpoint ------------------------------------------------------------------------------------
    def route(self, method: str, path: str, headers, read_body, read_seconds: float = READ_SECONDS) -> Response:
        where = urlsplit(path).path
        if where == ENDPOINT:
            if method != "POST":
                return self.error(405, text("serve.method", method=method, path=ENDPOINT), (("Allow", "POST"),))
            if "chunked" in headers.get("Transfer-Encoding", "").lower() or headers.get("Content-Length") is None:
                return self.error(411, text("serve.length_required"))
            length = headers.get("Content-Length", "").strip()
            if not length.isdigit():
                return self.error(400, text("serve.bad_length"))
            if int(length) > MAX_BODY:
                return self.error(413, text("serve.too_large", limit=MAX_BODY))
            body = read_body(int(length))
            if body is None:
                return self.error(408, text("serve.slow", seconds=f"{read_seconds:g}"))
            return self.complete(body)
        if where == "/v1/models" and method == "GET":
            return Response(
                200, {"object": "list", "data": [{"id": MODEL, "object": "model", "created": 0, "owned_by": "lab10"}]}
            )
        return self.error(404, text("serve.not_found", method=method, path=safe_text(where, 100), endpoint=ENDPOINT))

    def complete(self, raw: bytes) -> Response:
        try:
            body = raw.decode("utf-8")
        except UnicodeDecodeError:
            return self.error(400, text("serve.not_utf8"))
        if _too_deep(body):
            return self.error(400, text("serve.too_deep", depth=MAX_DEPTH))
        with self.lock:
            try:
                request = self.call("parse_chat_request", body)
            except StudentFailed as failed:
                return self.error(
                    400 if failed.value_error is not None else 500,
                    failed.reason,
                    note="parse_chat_request" if failed.value_error is None else "",
                )
            problem = _unusable(request)
            if problem:
                return self.error(500, text("serve.unusable", problem=problem), note="parse_chat_request")
            try:
                prompt = self.lab09.format_prompt(request["messages"])
            except (ValueError, KeyError, TypeError) as refused:
                return self.error(
                    500, text("serve.refused_messages", problem=safe_text(str(refused), 200)), note="parse_chat_request"
                )
            rng = random.Random(f"{self.seed}\0{prompt}") if self.seed is not None else random.Random()
            max_tokens = max(1, min(request["max_tokens"], MAX_TOKENS_LIMIT))
            output = self.lab09.generate(prompt, max_tokens, rng)
            reply = self.lab09.extract_response(output)
            continuation = output[len(prompt) :]
            prompt_tokens, completion_tokens = self.lab09.count_tokens(prompt), self.lab09.count_tokens(continuation)
            cut = any(tag in continuation for tag in ("<|user|>", "<|system|>", "<|end|>", "<|assistant|>"))
            finish = "length" if completion_tokens >= max_tokens and not cut else "stop"
            meta = {"id": f"chatcmpl-{uuid.uuid4().hex[:24]}", "created": int(time.time()), "model": MODEL}
            try:
                if request["stream"]:
                    events = self.call("sse_events", pieces(reply), finish, meta)
                    return Response(200, events=events, note=text("serve.streamed", count=len(events)))
                completion = self.call("chat_completion", reply, prompt_tokens, completion_tokens, finish)
            except StudentFailed as failed:
                return self.error(500, failed.reason, note="stream" if request["stream"] else "completion")
        return Response(200, {**completion, **meta})

    def error(self, status: int, message: str, headers: tuple = (), note: str = "") -> Response:
        """The error response: the student's error_body(status, message), or, when that fails too, the reason as one
        line of plain text (the server writes no error body of its own: that is error_body's work)."""
        with self.lock:
            try:
                body = self.call("error_body", status, message)
            except StudentFailed as failed:
                return Response(
                    status,
                    text("serve.plain_error", message=message, reason=failed.reason),
                    (),
                    headers,
                    note=f"{note}; error_body".lstrip("; ") if note else "error_body",
                    reason=message,
                )
        return Response(status, body, (), headers, note=note, reason=message)

    def log(self, line: str) -> None:
        with self.log_lock:
            print(line, file=self.out, flush=True)


def pieces(reply: str) -> list:
    """The reply as the pieces a stream sends: an ASCII word with the space after it, else one character (a Chinese
    character is about one token of a real model); joined, they are the reply."""
    return re.findall(r"[A-Za-z0-9']+ ?|.", reply, re.S)


def _too_deep(body: str) -> bool:
    """Whether the body is JSON nested deeper than MAX_DEPTH (json.loads would raise RecursionError in the child,
    which is no fault of the student's; any other problem with the text is parse_chat_request's to find)."""
    depth = deepest = 0
    quoted = escaped = False
    for char in body:
        if quoted:
            escaped, quoted = (False, True) if escaped else (char == "\\", char != '"')
        elif char == '"':
            quoted = True
        elif char in "[{":
            depth += 1
            deepest = max(deepest, depth)
            if deepest > MAX_DEPTH:
                return True
        elif char in "]}":
            depth -= 1
    return False


def _unusable(request: dict) -> str:
    """What the server cannot use in parse_chat_request's dict (empty: nothing): the three keys and their types."""
    if not isinstance(request.get("messages"), list):
        return "messages"
    if type(request.get("max_tokens")) is not int:
        return "max_tokens"
    if type(request.get("stream")) is not bool:
        return "stream"
    return ""


def _problem_reason(function: str, problem: str, detail: dict, student: StudentRun) -> str:
    if problem == "timeout":
        return text("serve.timeout", function=function, seconds=f"{student.limits.case_seconds:g}")
    if problem == "load_failed":
        return text("serve.load_failed", file=student.display, status=student.load.status)
    if problem == "missing_function":
        return text("serve.missing", file=student.display, function=function)
    return text("serve.crashed", function=function)


# --- HTTP ------------------------------------------------------------------------------------------------


class _Slow(Exception):
    """The client did not send its request within READ_SECONDS."""


class _HeadTooLarge(Exception):
    pass


class Handler(http.server.BaseHTTPRequestHandler):
    """One connection, one request (Connection: close): the head and the body read within one deadline."""

    protocol_version = "HTTP/1.1"
    server_version = "lab10-serve"

    def handle(self):
        service: Service = self.server.service
        started = time.monotonic()
        self.close_connection = True
        self.requestline, self.command, self.request_version = "", "", self.protocol_version  # before any request
        if not self.server.slots.acquire(blocking=False):
            self._send(service.error(503, text("serve.busy", count=CONNECTIONS)), started)
            return
        try:
            deadline = started + self.server.read_seconds
            try:
                head, rest = self._read_head(deadline)
            except _Slow:
                self._send(service.error(408, text("serve.slow", seconds=f"{self.server.read_seconds:g}")), started)
                return
            except _HeadTooLarge:
                self._send(service.error(431, text("serve.head_too_large", limit=MAX_HEAD)), started)
                return
            if head is None:  # the client left without a request
                return
            self.rfile = io.BytesIO(head)
            self.raw_requestline = self.rfile.readline(65537)
            if not self.parse_request():  # it answered with send_error
                return
            response = service.route(
                self.command,
                self.path,
                self.headers,
                lambda length: self._read_body(rest, length, deadline),
                self.server.read_seconds,
            )
            self._send(response, started)
        except OSError:  # the client went away
            return
        finally:
            self.server.slots.release()

    def _read_head(self, deadline: float):
        """The request line and headers (up to the blank line), and what came after them; (None, b"") if the client
        closed first."""
        data = b""
        while b"\r\n\r\n" not in data and b"\n\n" not in data:
            if len(data) > MAX_HEAD:
                raise _HeadTooLarge()
            chunk = self._receive(deadline)
            if not chunk:
                return (None, b"") if not data.strip() else (data + b"\r\n\r\n", b"")
            data += chunk
        end = data.find(b"\r\n\r\n")
        end, size = (end, 4) if end != -1 else (data.find(b"\n\n"), 2)
        if end > MAX_HEAD:
            raise _HeadTooLarge()
        return data[: end + size], data[end + size :]

    def _read_body(self, rest: bytes, length: int, deadline: float) -> bytes | None:
        """`length` bytes of body, or None when they did not all come before the deadline."""
        data = rest[:length]
        try:
            while len(data) < length:
                chunk = self._receive(deadline)
                if not chunk:
                    return None
                data += chunk
        except _Slow:
            return None
        return data[:length]

    def _receive(self, deadline: float) -> bytes:
        left = deadline - time.monotonic()
        if left <= 0:
            raise _Slow()
        self.connection.settimeout(left)
        try:
            return self.connection.recv(65536)
        except (socket.timeout, TimeoutError):
            raise _Slow() from None

    def send_error(self, code, message=None, explain=None):
        """A request the parser refused (a bad request line, a header too long): the student's error body too."""
        self.close_connection = True
        self._send(self.server.service.error(code, message or self.responses.get(code, ("?",))[0]), time.monotonic())

    def _send(self, response: Response, started: float) -> None:
        service: Service = self.server.service
        self.connection.settimeout(READ_SECONDS)
        if self.request_version == "HTTP/0.9":  # a request line the parser could not read: answer with a status line
            self.request_version = self.protocol_version
        try:
            self.send_response(response.status)
            for name, value in response.headers:
                self.send_header(name, value)
            if response.reason:  # ASCII as it is, the rest %-escaped (a header is Latin-1)
                self.send_header(REASON_HEADER, quote(response.reason, safe=_HEADER_SAFE))
            self.send_header("Connection", "close")
            if response.events:
                self.send_header("Content-Type", "text/event-stream; charset=utf-8")
                self.send_header("Cache-Control", "no-cache")
                self.end_headers()
                for index, event in enumerate(response.events):
                    if index and service.pace:
                        time.sleep(service.pace)
                    self.wfile.write(event.encode("utf-8", "surrogatepass"))
                    self.wfile.flush()
            else:
                plain = isinstance(response.body, str)
                data = (response.body if plain else json.dumps(response.body, ensure_ascii=False)).encode(
                    "utf-8", "surrogatepass"
                )
                self.send_header("Content-Type", "text/plain; charset=utf-8" if plain else "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)
                self.wfile.flush()
        except OSError:
            pass  # the client left; the log says what it was sent
        milliseconds = (time.monotonic() - started) * 1000
        line = f"{time.strftime('%H:%M:%S')} {self.command or '-'} {safe_text(self.path if self.command else '-', 80)}"
        service.log(
            f"{line} → {response.status} ({milliseconds:.0f} ms){'  ' + response.note if response.note else ''}"
        )

    def log_message(self, format, *args):  # the log is _send's line
        pass


class Server(http.server.ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True

    def __init__(self, service: Service, port: int = 0, read_seconds: float = READ_SECONDS):
        super().__init__(("127.0.0.1", port), Handler)
        self.service, self.read_seconds = service, read_seconds
        self.slots = threading.BoundedSemaphore(CONNECTIONS)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}{ENDPOINT}"

    def shutdown_request(self, request) -> None:
        """Close as HTTP servers do (a "lingering close"): once the answer is sent, stop writing, then read and drop
        what the client still sends until it closes, for LINGER_SECONDS and LINGER_BYTES at most.  A 503 (or a 408,
        a 431) goes out before the request is read; closed at once, the socket answers the rest of the request with
        a reset, and the client, still sending, sees a broken pipe instead of the answer."""
        try:
            request.shutdown(socket.SHUT_WR)
            deadline, dropped = time.monotonic() + LINGER_SECONDS, 0
            while dropped < LINGER_BYTES and time.monotonic() < deadline:
                request.settimeout(max(deadline - time.monotonic(), 0.001))
                chunk = request.recv(65536)
                if not chunk:  # the client closed: nothing is left to reset
                    break
                dropped += len(chunk)
        except OSError:  # gone already, or silent until the deadline
            pass
        self.close_request(request)


# --- make serve ------------------------------------------------------------------------------------------


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="make serve", description=__doc__.split("\n")[0])
    parser.add_argument("--student", default=str(LAB.student_path))
    parser.add_argument("--port", type=int, default=0, help="the port on 127.0.0.1 (PORT=; default: a free one)")
    parser.add_argument("--seed", type=int, help="the same request gets the same reply (SEED=)")
    parser.add_argument("--pace", type=float, default=20.0, metavar="MS", help="between streamed events (PACE=)")
    parser.add_argument("--check", action="store_true", help="send the end-to-end checks, print them, leave (CHECK=1)")
    parser.add_argument("--read-seconds", type=float, default=READ_SECONDS, help=argparse.SUPPRESS)  # tests: sooner 408
    args = parser.parse_args(argv)
    from lab10.previous import Missing

    with (
        own_terminal(),
        StudentRun(Path(args.student), display=LAB.display_name(args.student), limits=SERVER_LIMITS) as student,
    ):
        try:
            service = Service(student, seed=args.seed, pace_ms=args.pace)
        except Missing as missing:
            print(text("serve.needs_lab09", problem=missing), file=sys.stderr)
            return 2
        try:
            return _serve(service, args)
        finally:
            service.engine.submit(student.close).result()  # the child ends from the thread that started it
            service.engine.shutdown()


def _serve(service: Service, args) -> int:
    try:
        server = Server(service, args.port, args.read_seconds)
    except OSError as refused:
        print(text("serve.port_taken", port=args.port, problem=refused.strerror or refused), file=sys.stderr)
        return 2
    with server:
        if args.check:
            return _check(server)
        for line in text("serve.banner", url=server.url, file=service.student.display).splitlines():
            service.log(line)
        try:
            server.serve_forever(poll_interval=0.2)
        except KeyboardInterrupt:
            service.log("")
        service.log(text("serve.stopped"))
    return 0


def _check(server: Server) -> int:
    """CHECK=1: the end-to-end checks against this server, each printed with its rule (no request log: the same file
    prints the same lines every run); 0 when all pass."""
    import io as _io
    from lab10 import e2e

    server.service.out = _io.StringIO()
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    try:
        results = e2e.run_all(server.url)
    finally:
        server.shutdown()
    for line in e2e.report(results):
        print(line)
    return 0 if all(result.passed for result in results) else 1


if __name__ == "__main__":
    try:
        sys.exit(main())
    except BrokenPipeError:  # `make serve | head`: the reader left
        sys.exit(0)
