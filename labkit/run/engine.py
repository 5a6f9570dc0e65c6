"""Runs a student file in a child process and collects what its functions return; the parent owns the clock."""

from __future__ import annotations

import errno
import importlib.util
import io
import os
import time
import tokenize
from dataclasses import dataclass, field, replace
from pathlib import Path

from labkit.run import cgroups, folder, replies, sandbox
from labkit.run.channel import Child, Stopped, stop_all  # noqa: F401  (stop_all: Ctrl-C in the grader)
from labkit.spec import active

CHILD_SOURCE = (Path(__file__).with_name("child.py")).read_text(encoding="utf-8")


def given_module(module) -> dict:
    """What the child is given to build the lab's given module from: its name and its public names (its
    `__all__`, else those without a leading underscore), each of which must be plain data."""
    public = getattr(module, "__all__", None) or [name for name in vars(module) if not name.startswith("_")]
    names = {name: getattr(module, name) for name in public}
    for name, value in names.items():
        problem = replies.check_data(value)
        if problem is not None:
            raise ValueError(f"{module.__name__}.{name} is {problem}: a child is given plain data only")
    return {"module": module.__name__, "names": names}


@dataclass(frozen=True)
class Runtime:
    """What the engine tells a child about one lab, taken from its spec."""

    functions: tuple[str, ...]
    """every function the child reports on (Lab.functions)"""
    given: dict
    """the lab's given module as data (`given_module`): its name and its plain-data public names"""
    module: str
    """the name the student's file is imported under in the child"""

    @classmethod
    def of(cls, lab) -> Runtime:
        """The runtime of `lab`: its given module is read from the lab's own file (trusted: the lab's, never
        a student's), imported here in the parent and never registered in sys.modules."""
        path = lab.root / (lab.given.replace(".", "/") + ".py")
        spec = importlib.util.spec_from_file_location(lab.given, path)
        assert spec is not None and spec.loader is not None  # a .py path always has a spec and a source loader
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        return cls(functions=tuple(lab.functions), given=given_module(module), module=lab.student_module)


_RUNTIMES: dict = {}  # id(lab) -> (lab, its Runtime): read once per lab, and another lab (a test switched) has its own


def runtime() -> Runtime:
    """The runtime of the lab this checkout runs (labkit.spec.active())."""
    lab = active()
    known = _RUNTIMES.get(id(lab))
    if known is None or known[0] is not lab:
        known = _RUNTIMES[id(lab)] = (lab, Runtime.of(lab))
    return known[1]


OPEN_ENDED_SECONDS = 7 * 24 * 3600.0  # a session of make chat or a lab's server: a week


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
    folder_bytes: int = 64 << 20  # what the files in a child's own folder may hold together
    folder_files: int = 10_000  # files and folders in it (the helper modules a submission brings count too)

    @classmethod
    def from_env(cls, environ=os.environ) -> Limits:
        """`LAB_TIMEOUT` (seconds per case) and `LAB_MEMORY_MB` override the defaults."""
        limits = cls()
        if environ.get("LAB_TIMEOUT"):
            limits = replace(limits, case_seconds=float(environ["LAB_TIMEOUT"]))
        if environ.get("LAB_MEMORY_MB"):
            limits = replace(limits, memory_bytes=int(environ["LAB_MEMORY_MB"]) << 20)
        return limits

    @classmethod
    def open_ended(cls, environ=os.environ) -> Limits:
        """For a face a person drives as long as they like (make chat, a lab's server): each call keeps make
        test's limits, the session as a whole gets a week, not a submission's two minutes."""
        return replace(cls.from_env(environ), submission_seconds=OPEN_ENDED_SECONDS)

    def for_child(self) -> dict:
        """The limits the child sets on itself (the CPU limit only stops a child its parent lost)."""
        return {
            "memory_bytes": self.memory_bytes,
            "file_bytes": 16 << 20,
            "depth": replies.MAX_DEPTH,
            "cpu_seconds": int(self.submission_seconds) + 5,
            "value_chars": self.value_chars,
        }


@dataclass
class LoadOutcome:
    """Whether the student file loaded, and which functions it defines."""

    status: str  # ok, missing_file, too_large, not_utf8, syntax_error, import_error, timeout, crashed, memory,
    #              disk (its folder passed its bound), system_error (the machine refused a process or disk space: not
    #              the student's doing)
    detail: dict = field(default_factory=dict)
    functions: dict = field(default_factory=dict)  # name -> ok | missing | not_callable
    defined: list = field(default_factory=list)  # public callables the file does define
    output: dict = field(default_factory=dict)
    sandbox: str = ""  # the level that confined the child (sandbox.Level.name) as the parent saw it; "": none ran

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
    problem: str | None = None  # None, timeout, crashed, no_answer, memory, disk, load_failed, missing_function
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


class StudentRun:
    """A student file under test: loads it in a child, runs cases one by one, restarts after a kill."""

    def __init__(
        self,
        path=None,
        display: str | None = None,
        limits: Limits | None = None,
        functions=None,
        source: bytes | None = None,
        modules: dict | None = None,
        given: dict | None = None,
        module: str | None = None,
    ):
        """Test the file at `path`, or the given `source` bytes (e.g. from a zip); `modules` maps helper
        file names ("helper.py") to their bytes, put beside it where its imports find them; `functions`,
        `given` (`given_module`) and `module` (the name the file is imported under) default to the active
        lab's `runtime()`."""
        self.display = display or str(path)
        self.modules = dict(modules or {})
        self.limits = limits or Limits.from_env()
        if functions is None or given is None or module is None:
            lab = runtime()
            functions = lab.functions if functions is None else functions
            given = lab.given if given is None else given
            module = lab.module if module is None else module
        self.functions = tuple(functions)
        self.given = given
        self.module = module
        self.level: sandbox.Level | None = None  # the weakest confinement any of its children had (parent's view)
        self._child: Child | None = None  # started by `begin` (with the strongest plan that works), ended by `close`
        if source is None:
            self._source, self.load = read_source(Path(path), self.limits.source_bytes)
        else:
            self._source, self.load = decode_source(source, self.limits.source_bytes)
        self._budget_ends: float | None = None
        self._loading: tuple[str, float] | None = None  # (nonce, deadline) of a load not yet answered
        self._retries = 0  # children that died for want of processes or memory before their first message

    def __enter__(self) -> StudentRun:
        return self

    def __exit__(self, *_exc) -> None:
        self.close()

    def close(self) -> None:
        if self._child is not None:
            self._child.close()
            self._child.release()
            self._child = None
        self._loading = None

    def begin(self) -> None:
        """Start a child and hand it the file now, without waiting: `start` collects the answer.
        (The pytest face calls this early, so the child starts while pytest itself does.)"""
        if self._child is not None or self._loading is not None or (self.load is not None and not self.load.ok):
            return
        if self._budget_ends is None:
            self._budget_ends = time.monotonic() + self.limits.submission_seconds
        for plan in sandbox.plans():
            try:
                self._child = self._start_child(plan)
            except Stopped:
                raise
            except OSError as exc:
                if _plan_failure(plan, exc):
                    sandbox.mark_broken(plan)
                    continue
                self.load = LoadOutcome("system_error", {"error": _os_error(exc)})
                return
            break
        else:
            self.load = LoadOutcome("system_error", {"error": "no way to start a child process"})
            return
        request = {
            "op": "load",
            "source": self._source,
            "filename": self.display,
            "module": self.module,
            "given": self.given,
            "functions": list(self.functions),
            "modules": bool(self.modules),
        }
        self._loading = (self._child.send(request), self._deadline(self.limits.load_seconds))

    @property
    def _running(self) -> Child:
        """The child `begin` started, for the steps that come after it (until `close`)."""
        assert self._child is not None, "begin() starts a child before it is used"
        return self._child

    @property
    def _budget_end(self) -> float:
        """When the submission's whole budget ends: the first `begin` sets it, before anything is timed."""
        assert self._budget_ends is not None, "begin() sets the budget before anything is timed"
        return self._budget_ends

    def _start_child(self, plan: sandbox.Plan) -> Child:
        """A child started with `plan`; a machine short of processes or memory for a moment (EAGAIN, ENOMEM)
        is given a few more tries before it is this submission's `system_error`."""
        for pause in RETRY_PAUSES:
            try:
                return Child(plan, CHILD_SOURCE, self._settings(), self.limits, self.modules)
            except OSError as exc:
                if exc.errno not in TRANSIENT_ERRNOS or not self._pause(pause):
                    raise
        return Child(plan, CHILD_SOURCE, self._settings(), self.limits, self.modules)

    def _pause(self, seconds: float) -> bool:
        """Wait before trying again, if the submission's budget allows it."""
        if time.monotonic() + seconds >= self._budget_end:
            return False
        time.sleep(seconds)
        return True

    def _settings(self) -> dict:
        """What the child needs before it reads any request: its limits and how far to confine itself."""
        return {
            "limits": self.limits.for_child(),
            "landlock_cap": sandbox.landlock_cap(),
            "folder": folder.mount_size(self.limits.folder_bytes, self.limits.folder_files),
            "skip_limits": ["RLIMIT_AS"] if os.environ.get("LAB_NO_RLIMIT_AS") else [],
            "no_seccomp": os.environ.get("LAB_NO_SECCOMP") == "1",
        }

    def start(self) -> LoadOutcome:
        """Make sure a child has loaded the file; a file that failed to load once is not tried again."""
        self.begin()
        if self._loading is None:
            assert self.load is not None, "begin() either starts a load or says why none can run"
            return self.load
        nonce, deadline = self._loading
        self._loading = None
        kind, hello = self._running.hello(deadline)
        if kind == "died":
            retry, said = self._died_before_hello()
            if retry:
                return self.start()
            if retry is None:
                self.load = LoadOutcome("system_error", {"error": said.strip()[:300]})
                return self.load
        if kind == "hello":
            started = self._running.started
            started.note_tree()
            tmpfs = self._running.watch_folder()
            level = sandbox.level_of(
                started.plan, hello, started.uid, started.cgroup is not None, sandbox.folder_wall(self.limits, tmpfs)
            )
            started.writes_shared = "shared" not in level.blocks
            if self.level is None or len(level.blocks) < len(self.level.blocks):
                self.level = level  # a submission's level is the weakest any of its children had
            if "RLIMIT_AS" not in hello["limits"] and not sandbox.IS_WINDOWS:
                self._running.watch_memory()
            kind, reply = self._running.receive(nonce, deadline)
        else:
            reply = hello
        self.load = self._load_outcome(kind, reply, nonce)
        if not self.load.ok:
            self.close()
        return self.load

    def _died_before_hello(self) -> tuple[bool | None, str]:
        """A child died before its first message (no student code had run: what it printed is bubblewrap's,
        the shell's or Python's), and what it said.  True: try again — after a moment, when the machine was
        short of processes or memory (a few times); at once without a pids cgroup this machine refuses, or
        with the next plan when this one cannot work here (marked broken for later children).  None: still
        short after the retries.  False: it died on the last plan there is."""
        self._running.settle_output()
        said = self._running.output_report()["text"]
        plan = self._running.started.plan
        retry: bool | None
        if cgroups.CGROUP_REFUSED in said:
            cgroups.refused()
            retry = True
        elif any(words in said for words in TRANSIENT_WORDS):
            self._retries += 1
            waited = self._retries <= len(RETRY_PAUSES) and self._pause(RETRY_PAUSES[self._retries - 1])
            retry = True if waited else None
        elif plan != sandbox.plans()[-1]:
            sandbox.mark_broken(plan)  # e.g. bwrap could not create its namespaces here
            retry = True
        else:
            return False, said
        self.close()
        return retry, said

    def _load_outcome(self, kind: str, reply, nonce: str) -> LoadOutcome:
        if kind == "died":
            self._running.settle_output()
        raw = self._running.output_report(nonce)
        sandbox_name = self.level.name if self.level else ""
        if self._running.folder_passed():  # whatever it answered: its folder passed its bound
            return LoadOutcome("disk", self._folder_detail(), output=raw, sandbox=sandbox_name)
        if kind == "timeout":
            return LoadOutcome("timeout", {"seconds": self.limits.load_seconds}, output=raw, sandbox=sandbox_name)
        if kind != "reply":
            status = "memory" if reply.get("memory") else "crashed"
            return LoadOutcome(status, reply, output=raw, sandbox=sandbox_name)
        try:
            checked = replies.load(reply, self.functions)
        except replies.Invalid as invalid:
            return LoadOutcome("crashed", {"invalid": str(invalid)}, output=raw, sandbox=sandbox_name)
        if "internal" in checked:
            return LoadOutcome("crashed", {"raised": checked["internal"]}, output=raw, sandbox=sandbox_name)
        if not checked["ok"]:
            raised = checked["raised"]
            return LoadOutcome(_load_status(raised.get("type", "")), raised, output=raw, sandbox=sandbox_name)
        return LoadOutcome(
            "ok", functions=checked["functions"], defined=checked["defined"], output=raw, sandbox=sandbox_name
        )

    def _deadline(self, seconds: float) -> float:
        """`seconds` from now, but never past the submission's whole budget."""
        return min(time.monotonic() + seconds, self._budget_end)

    def run_case(self, case) -> CaseRun:
        """Call the case's function on each example, stopping at the first call that gives no reply."""
        run = CaseRun()
        started = time.monotonic()
        run.problem, run.detail = self._ready(case.function)
        if run.problem is None:
            deadline = self._deadline(self.limits.case_seconds)
            for record, run.problem, run.detail in self.call_many(
                case.function, [list(example.args) for example in case.examples], deadline
            ):
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

    def call_many(
        self, function: str, arg_lists: list, deadline: float | None = None
    ) -> list[tuple[CallRecord | None, str | None, dict]]:
        """Several calls in one request: the same results as `call` one by one — each its own printed output,
        and its own time limit unless one shared `deadline` is given (a table case) — stopping after the first
        that gives no record, in one round trip instead of many."""
        if not arg_lists:
            return []
        problem, detail = self._ready(function)
        if problem is not None:
            return [(None, problem, detail)]
        nonce = self._running.send({"op": "calls", "function": function, "args_list": [list(a) for a in arg_lists]})
        results: list[tuple[CallRecord | None, str | None, dict]] = []
        shared = deadline
        for index in range(len(arg_lists)):
            deadline = shared if shared is not None else self._deadline(self.limits.case_seconds)
            kind, reply = self._running.receive(nonce, deadline, index)
            answer = reply.get("result") if kind == "reply" and "internal" not in reply else reply
            results.append(self._answered(kind, answer, deadline, Child.output_key(nonce, index)))
            if results[-1][0] is None:
                return results
        self._running.receive(nonce, self._deadline(self.limits.case_seconds))  # the batch's closing line
        return results

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
        nonce = self._running.send({"op": "call", "function": function, "args": args})
        kind, reply = self._running.receive(nonce, deadline)
        return self._answered(kind, reply, deadline, nonce)

    def _answered(self, kind: str, reply, deadline: float, key: str) -> tuple[CallRecord | None, str | None, dict]:
        """One call's record from what came back for it, or its problem (then the child is closed)."""
        checked, problem = None, None
        if self._running.folder_passed():  # an answer given after its folder passed its bound is none
            kind, reply = "died", self._folder_detail()
        if kind == "reply":
            try:
                checked = replies.call(reply, self.limits)
            except replies.Invalid as invalid:
                kind, reply = "invalid", {"invalid": str(invalid)}
        if checked is not None and "internal" not in checked:
            return (
                CallRecord(
                    returned=checked.get("returned"),
                    raised=checked.get("raised"),
                    args_after=checked["args_after"],
                    output=self._running.output_report(key),
                    seconds=checked["seconds"],
                ),
                None,
                {},
            )
        if kind == "died":
            self._running.settle_output()
        detail = {"seconds": self.limits.case_seconds, "output": self._running.output_report()}
        if kind == "timeout" and deadline >= self._budget_end:
            detail["budget_seconds"] = self.limits.submission_seconds
        if kind in ("died", "invalid"):
            detail.update(reply)
        elif checked is not None:
            detail["raised"] = checked["internal"]
        self.close()
        problem = (
            "memory"
            if detail.get("memory")
            else "disk"
            if detail.get("disk")
            else kind
            if kind in ("timeout", "no_answer")
            else "crashed"
        )
        return None, problem, detail

    def _folder_detail(self) -> dict:
        return {"disk": True, "megabytes": self.limits.folder_bytes >> 20, "files": self.limits.folder_files}


RETRY_PAUSES = (0.1, 0.3, 0.9)  # seconds before each new try when the machine was short of processes or memory
TRANSIENT_ERRNOS = (errno.EAGAIN, errno.ENOMEM)
TRANSIENT_WORDS = ("Resource temporarily unavailable", "Cannot allocate memory")  # bubblewrap says strerror's


def _plan_failure(plan: sandbox.Plan, exc: OSError) -> bool:
    """Whether starting a child failed because of the plan (an interpreter the unprivileged uid cannot
    run, no bwrap binary), so that the next plan may work, rather than because the system is short of
    something (processes, disk) — which no other plan would change."""
    return (plan.bwrap or plan.drop_uid) and isinstance(exc, (PermissionError, FileNotFoundError))


def _os_error(exc: OSError) -> str:
    name = errno.errorcode.get(exc.errno, "") if exc.errno else ""
    return f"{name}: {exc.strerror or exc}" if name else str(exc)


def _load_status(exception_type: str) -> str:
    if exception_type in ("SyntaxError", "IndentationError", "TabError"):
        return "syntax_error"
    if exception_type == "MemoryError":
        return "memory"
    return "import_error"
