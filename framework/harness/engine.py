"""Runs a student file in a child process and collects what its functions return; the parent owns the clock."""

from __future__ import annotations

import io
import json
import os
import selectors
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import tokenize
from dataclasses import dataclass, field, replace
from pathlib import Path

from framework.tags import ALL_TAGS

CHILD_SOURCE = (Path(__file__).with_name("child.py")).read_text(encoding="utf-8")
FUNCTIONS = ("format_prompt", "extract_response", "trim_history", "rewrite_messages", "clean_rewrite")
_CHUNK = 1 << 16


@dataclass(frozen=True)
class Limits:
    """How much time, memory and output one student file may use."""

    case_seconds: float = 2.0  # all calls of one case together
    load_seconds: float = 10.0  # interpreter start-up plus the student's top-level code
    memory_bytes: int = 1 << 30
    output_bytes: int = 4000  # printed output kept per call (the rest is counted, not stored)
    value_chars: int = 1 << 20  # a returned str longer than this comes back cut (and cannot pass)
    frame_bytes: int = 16 << 20  # a reply line longer than this is not an answer
    source_bytes: int = 1 << 20  # a student file larger than this is not run
    submission_seconds: float = 120.0  # everything one student file may take, all cases together

    @classmethod
    def from_env(cls, environ=os.environ) -> Limits:
        """`LAB_TIMEOUT` (seconds per case) and `LAB_MEMORY_MB` override the defaults."""
        limits = cls()
        if environ.get("LAB_TIMEOUT"):
            limits = replace(limits, case_seconds=float(environ["LAB_TIMEOUT"]))
        if environ.get("LAB_MEMORY_MB"):
            limits = replace(limits, memory_bytes=int(environ["LAB_MEMORY_MB"]) << 20)
        return limits

    def for_child(self) -> dict:
        """The limits the child sets on itself (the CPU limit only stops a child its parent lost)."""
        return {"memory_bytes": self.memory_bytes, "file_bytes": 16 << 20,
                "cpu_seconds": int(self.submission_seconds) + 5, "value_chars": self.value_chars}


@dataclass
class LoadOutcome:
    """Whether the student file loaded, and which functions it defines."""

    status: str  # ok, missing_file, too_large, not_utf8, syntax_error, import_error, timeout, crashed, memory
    detail: dict = field(default_factory=dict)
    functions: dict = field(default_factory=dict)  # name -> ok | missing | not_callable
    defined: list = field(default_factory=list)  # public callables the file does define
    output: dict = field(default_factory=dict)
    sandbox: str = "none"  # what confined the child: "landlock-N" or "none"

    @property
    def ok(self) -> bool:
        return self.status == "ok"


@dataclass
class CallRecord:
    """What one call of a student function gave back, as data."""

    returned: dict | None  # {"kind": "str"|"data", "value": ...} or {"kind": "other", "type": ..., "repr": ...}
    raised: dict | None
    args_after: object
    output: dict
    seconds: float


@dataclass
class CaseRun:
    """The calls of one case that answered, and why the rest did not."""

    calls: list = field(default_factory=list)
    problem: str | None = None  # None, timeout, crashed, no_answer, load_failed, missing_function
    detail: dict = field(default_factory=dict)
    seconds: float = 0.0


def read_source(path: Path, limit: int) -> tuple[str | None, LoadOutcome | None]:
    """The student's file as text, or why it cannot be run (missing, too large, not UTF-8)."""
    try:
        with open(path, "rb") as handle:
            raw = handle.read(limit + 1)
    except OSError as exc:
        return None, LoadOutcome("missing_file", {"path": str(path), "error": exc.strerror or str(exc)})
    return decode_source(raw, limit)


def decode_source(raw: bytes, limit: int) -> tuple[str | None, LoadOutcome | None]:
    """Source bytes as text (a BOM or a coding line is honoured), or why they cannot be run."""
    if len(raw) > limit:
        return None, LoadOutcome("too_large", {"limit": limit})
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(raw).readline)
        return raw.decode(encoding), None
    except (SyntaxError, UnicodeDecodeError, LookupError) as exc:
        bad = getattr(exc, "start", None)
        line = raw[:bad].count(b"\n") + 1 if bad is not None else None
        return None, LoadOutcome("not_utf8", {"line": line, "looks_like": _guess_encoding(raw)})


def _guess_encoding(raw: bytes) -> str | None:
    for name in ("gb18030", "big5"):
        try:
            raw.decode(name)
            return "GBK" if name == "gb18030" else "Big5"
        except UnicodeDecodeError:
            continue
    return None


def base_interpreter() -> str:
    """The interpreter outside any virtual environment, so the child's paths lead nowhere near here."""
    if sys.prefix != sys.base_prefix:
        names = (f"python{sys.version_info[0]}.{sys.version_info[1]}", "python3")
        for folder in (Path(sys.base_prefix) / "bin", Path(getattr(sys, "_base_executable", "")).parent):
            for name in names:
                candidate = folder / name
                if candidate.is_file() and os.access(candidate, os.X_OK):
                    return str(candidate)
    return sys.executable


class _Child:
    """One child interpreter: its pipes, its temporary directory and its raw output."""

    def __init__(self, limits: Limits):
        self.limits = limits
        self.workdir = tempfile.mkdtemp(prefix="lab09-")
        req_r, self.req_w = os.pipe()
        self.resp_r, resp_w = os.pipe()
        self.out_r, out_w = os.pipe()
        env = {"PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": self.workdir, "TMPDIR": self.workdir,
               "LANG": "C.UTF-8", "PYTHONHASHSEED": "0", "PYTHONUTF8": "1",
               "PYTHONDONTWRITEBYTECODE": "1", "PYTHONSAFEPATH": "1",
               "PYTHONUNBUFFERED": "1"}
        try:
            self.proc = subprocess.Popen(
                [base_interpreter(), "-S", "-c", CHILD_SOURCE, str(req_r), str(resp_w)],
                stdin=subprocess.DEVNULL, stdout=out_w, stderr=out_w, pass_fds=(req_r, resp_w),
                cwd=self.workdir, env=env, start_new_session=True)
        finally:
            for fd in (req_r, resp_w, out_w):
                os.close(fd)
        for fd in (self.req_w, self.resp_r, self.out_r):
            os.set_blocking(fd, False)
        self.selector = selectors.DefaultSelector()
        self.selector.register(self.resp_r, selectors.EVENT_READ)
        self.selector.register(self.out_r, selectors.EVENT_READ)
        self.pending = b""
        self.outgoing = memoryview(b"")
        self.raw_output = bytearray()
        self.raw_dropped = 0

    def send(self, request: dict) -> str:
        """Queue one request (written as the child reads it); the nonce its reply must carry."""
        nonce = os.urandom(8).hex()
        self.outgoing = memoryview(json.dumps(dict(request, nonce=nonce), ensure_ascii=True).encode() + b"\n")
        self.selector.register(self.req_w, selectors.EVENT_WRITE)
        self.raw_output.clear()
        self.raw_dropped = 0
        return nonce

    def receive(self, nonce: str, deadline: float) -> tuple[str, dict]:
        """("reply", reply), ("timeout", {}), ("died", how) or ("no_answer", {}) for the request `nonce`."""
        try:
            while True:
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    return "timeout", {}
                for key, _ in self.selector.select(remaining):
                    if key.fd == self.req_w:
                        self._write_some()
                    elif key.fd == self.out_r:
                        self._drain_output()
                    else:
                        outcome = self._read_reply(nonce)
                        if outcome is not None:
                            self._drain_output()
                            return outcome
        finally:
            if self.outgoing:
                self.outgoing = memoryview(b"")
                self.selector.unregister(self.req_w)

    def exchange(self, request: dict, deadline: float) -> tuple[str, dict]:
        return self.receive(self.send(request), deadline)

    def _write_some(self):
        try:
            self.outgoing = self.outgoing[os.write(self.req_w, self.outgoing[:_CHUNK]):]
        except BrokenPipeError:
            self.outgoing = memoryview(b"")
        if not self.outgoing:
            self.selector.unregister(self.req_w)

    def _read_reply(self, nonce: str):
        try:
            chunk = os.read(self.resp_r, _CHUNK)
        except BlockingIOError:
            return None
        if not chunk:
            self._drain_output()
            return "died", self._exit_status()
        self.pending += chunk
        while b"\n" in self.pending:
            line, self.pending = self.pending.split(b"\n", 1)
            try:
                reply = json.loads(line)
            except ValueError:
                continue
            if isinstance(reply, dict) and reply.get("nonce") == nonce:
                return "reply", reply
        if len(self.pending) > self.limits.frame_bytes:
            return "no_answer", {}
        return None

    def _drain_output(self):
        while True:
            try:
                chunk = os.read(self.out_r, _CHUNK)
            except (BlockingIOError, OSError):
                return
            if not chunk:
                if self.out_r in self.selector.get_map():
                    self.selector.unregister(self.out_r)
                return
            room = max(0, self.limits.output_bytes - len(self.raw_output))
            self.raw_output += chunk[:room]
            self.raw_dropped += max(0, len(chunk) - room)

    def raw_output_report(self) -> dict:
        return {"text": self.raw_output.decode("utf-8", "replace"), "dropped": self.raw_dropped}

    def _exit_status(self) -> dict:
        try:
            code = self.proc.wait(timeout=1.0)
        except subprocess.TimeoutExpired:
            return {"exit_code": None}
        if code < 0:
            try:
                return {"signal": signal.Signals(-code).name}
            except ValueError:
                return {"signal": str(-code)}
        return {"exit_code": code}

    def close(self):
        try:
            os.killpg(self.proc.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
        self.proc.wait()
        self.selector.close()
        for fd in (self.req_w, self.resp_r, self.out_r):
            os.close(fd)
        shutil.rmtree(self.workdir, ignore_errors=True)


class StudentRun:
    """A student file under test: loads it in a child, runs cases one by one, restarts after a kill."""

    def __init__(self, path=None, display: str | None = None, limits: Limits | None = None,
                 functions=FUNCTIONS, source: bytes | None = None):
        """Test the file at `path`, or the given `source` bytes (e.g. from a zip)."""
        self.display = display or str(path)
        self.limits = limits or Limits.from_env()
        self.functions = tuple(functions)
        self._child: _Child | None = None
        if source is None:
            self._source, self.load = read_source(Path(path), self.limits.source_bytes)
        else:
            self._source, self.load = decode_source(source, self.limits.source_bytes)
        self._budget_ends: float | None = None
        self._loading: tuple[str, float] | None = None  # (nonce, deadline) of a load not yet answered

    def __enter__(self):
        return self

    def __exit__(self, *_exc):
        self.close()

    def close(self):
        if self._child is not None:
            self._child.close()
            self._child = None
        self._loading = None

    def begin(self) -> None:
        """Start a child and hand it the file now, without waiting: `start` collects the answer.
        (The pytest face calls this early, so the child starts while pytest itself does.)"""
        if self._child is not None or self._loading is not None or (self.load is not None and not self.load.ok):
            return
        if self._budget_ends is None:
            self._budget_ends = time.monotonic() + self.limits.submission_seconds
        self._child = _Child(self.limits)
        request = {"op": "load", "source": self._source, "filename": self.display, "tags": ALL_TAGS,
                   "functions": list(self.functions), "limits": self.limits.for_child()}
        self._loading = (self._child.send(request), self._deadline(self.limits.load_seconds))

    def start(self) -> LoadOutcome:
        """Make sure a child has loaded the file; a file that failed to load once is not tried again."""
        self.begin()
        if self._loading is None:
            return self.load
        nonce, deadline = self._loading
        self._loading = None
        kind, reply = self._child.receive(nonce, deadline)
        self.load = self._load_outcome(kind, reply)
        if not self.load.ok:
            self.close()
        return self.load

    def _load_outcome(self, kind: str, reply: dict) -> LoadOutcome:
        raw = self._child.raw_output_report()
        if kind == "timeout":
            return LoadOutcome("timeout", {"seconds": self.limits.load_seconds}, output=raw)
        if kind != "reply":
            return LoadOutcome("crashed", reply, output=raw)
        if "internal" in reply:
            return LoadOutcome("crashed", {"raised": reply["internal"]}, output=raw)
        if not reply.get("ok"):
            raised = reply.get("raised", {})
            return LoadOutcome(_load_status(raised.get("type", "")), raised, output=raw)
        return LoadOutcome("ok", functions=reply.get("functions", {}), defined=reply.get("defined", []),
                           output=raw, sandbox=str(reply.get("sandbox", "none")))

    def _deadline(self, seconds: float) -> float:
        """`seconds` from now, but never past the submission's whole budget."""
        return min(time.monotonic() + seconds, self._budget_ends)

    def run_case(self, case) -> CaseRun:
        """Call the case's function on each example, stopping at the first call that gives no reply."""
        run = CaseRun()
        started = time.monotonic()
        run.problem, run.detail = self._ready(case.function)
        if run.problem is None:
            deadline = self._deadline(self.limits.case_seconds)
            for example in case.examples:
                record, run.problem, run.detail = self._call(case.function, list(example.args), deadline)
                if record is None:
                    break
                run.calls.append(record)
        run.seconds = time.monotonic() - started
        return run

    def call(self, function: str, args: list) -> tuple[CallRecord | None, str | None, dict]:
        """One call outside the case table (`make chat`): its record, or the problem and its detail."""
        problem, detail = self._ready(function)
        if problem is not None:
            return None, problem, detail
        return self._call(function, args, self._deadline(self.limits.case_seconds))

    def _ready(self, function: str) -> tuple[str | None, dict]:
        """A loaded child that has `function`, or why there is none."""
        if self._budget_ends is not None and time.monotonic() >= self._budget_ends:
            return "timeout", {"seconds": 0, "budget_seconds": self.limits.submission_seconds}
        load = self.start()  # after a kill, a fresh child loads the file again (its own time limit)
        if not load.ok:
            return "load_failed", {}
        if load.functions.get(function) != "ok":
            return "missing_function", {"state": load.functions.get(function)}
        return None, {}

    def _call(self, function: str, args: list, deadline: float) -> tuple[CallRecord | None, str | None, dict]:
        kind, reply = self._child.exchange({"op": "call", "function": function, "args": args}, deadline)
        output = self._child.raw_output_report()
        if kind == "reply" and "internal" not in reply:
            return CallRecord(returned=reply.get("returned"), raised=reply.get("raised"),
                              args_after=reply.get("args_after"), output=output,
                              seconds=float(reply.get("seconds", 0.0))), None, {}
        detail = {"seconds": self.limits.case_seconds, "output": output}
        if kind == "timeout" and deadline >= self._budget_ends:
            detail["budget_seconds"] = self.limits.submission_seconds
        if kind == "died":
            detail.update(reply)
        elif kind == "reply":
            detail["raised"] = reply["internal"]
        self.close()
        return None, (kind if kind in ("timeout", "no_answer") else "crashed"), detail


def _load_status(exception_type: str) -> str:
    if exception_type in ("SyntaxError", "IndentationError", "TabError"):
        return "syntax_error"
    if exception_type == "MemoryError":
        return "memory"
    return "import_error"
