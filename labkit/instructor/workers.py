"""Worker processes that grade one submission at a time: a dead one is replaced, none outlives the grader.

A dead or stuck worker costs its item, never the run.  Why: docs/design.md#labkitinstructorworkerspy
"""

from __future__ import annotations

import multiprocessing
import os
import pickle
import select
import signal
import sys
import threading
import time
from collections import deque
from dataclasses import dataclass
from multiprocessing.connection import Connection, wait
from multiprocessing.process import BaseProcess

from labkit.run import reaper

RETRIES = 1  # a dead worker's item is tried this many more times
GRACE = 1.0  # seconds stopped workers get to end their children before they are killed
LEAVE_SECONDS = 5.0  # a worker told to stop is gone after this, whatever its children do
STOPPED_SECONDS = 2.0  # a worker stopped (state T) this long is ended: nothing of the grader's stops one
READY = "ready"


class WorkerDied(Exception):
    """The worker grading an item ended before it answered, on every try (a signal, the OOM killer)."""


class WorkerTimedOut(Exception):
    """The worker grading an item was still at it past the item's deadline, or stopped (SIGSTOP): it was killed."""

    def __init__(self, message: str, seconds: float):
        super().__init__(message)
        self.seconds = seconds


class WorkFailed(Exception):
    """The work raised outside its own barrier, or its answer could not be sent back."""


class WorkersFailing(RuntimeError):
    """Worker processes end before they can take any work: grading cannot run on this machine as it is."""


@dataclass
class _Worker:
    process: BaseProcess
    tasks: Connection  # the grader's end of the work pipe
    lifeline: Connection  # the grader's end of the pipe the worker watches; never written, closed when we end
    started: int | None = None  # its start time (Linux /proc), to find what it left behind
    ready: bool = False
    item: int | None = None  # the index of the item it is grading
    deadline: float | None = None  # when the grader ends it if it is still grading that item (time.monotonic)
    allowed: float = 0.0  # the seconds that item was given
    stopped_since: float | None = None  # when it was first seen stopped (SIGSTOP) while grading

    @property
    def pid(self) -> int:
        """Its process's id (a started process has one)."""
        assert self.process.pid is not None, "the pool keeps a worker once it is started"
        return self.process.pid


class Pool:
    """`jobs` workers calling `work(item, *common)`; a worker that must leave first calls `stop_children()`
    (module-level functions, as a spawned worker imports them)."""

    def __init__(self, jobs: int, work, common: tuple = (), stop_children=None):
        self.jobs, self.work, self.common, self.stop_children = max(1, jobs), work, common, stop_children
        self.context = multiprocessing.get_context("spawn")
        self.workers: list[_Worker] = []
        self._queue: deque = deque()
        self._tries: dict[int, int] = {}
        self._deaths = 0  # workers in a row that died before they were ready
        reaper.become_reaper()  # what a dead worker's children leave comes back here, not to init

    def run(self, count: int, item, done, failed, deadline=None) -> None:
        """Work on items 0 … count-1 (`item(index)` gives each as it is sent), calling `done(index, answer)`,
        or `failed(index, exception)` for an item whose workers died on every try, whose work failed, or whose
        worker was still at it after `deadline(index)` seconds (or stopped): `WorkerTimedOut`.
        On any exception (KeyboardInterrupt included) every worker is stopped first, then it goes on up."""
        self._queue, self._tries, self._deaths = deque(range(count)), {}, 0
        try:
            while self._queue or self._busy():
                while len(self.workers) < min(self.jobs, len(self._queue) + self._busy()):
                    self._start()
                for worker in self.workers:
                    if worker.ready and worker.item is None and self._queue:
                        worker.item = self._queue.popleft()
                        work = item(worker.item)
                        worker.allowed = deadline(worker.item) if deadline else float("inf")
                        worker.deadline, worker.stopped_since = time.monotonic() + worker.allowed, None
                        try:
                            worker.tasks.send((worker.item, work))
                        except OSError:  # it has just died: its sentinel says so below
                            pass
                ready = wait(
                    [worker.tasks for worker in self.workers] + [worker.process.sentinel for worker in self.workers],
                    timeout=self._wait(),
                )
                for worker in list(self.workers):
                    if worker.tasks in ready:
                        self._hear(worker, done, failed)
                    if worker.process.sentinel in ready or not worker.process.is_alive():
                        self._hear(worker, done, failed)  # what it sent before it ended still counts
                        self._died(worker, failed)
                    elif worker.item is not None and (why := self._overdue(worker)):
                        self._end_overdue(worker, why, failed)
        except BaseException:
            self.stop()
            raise
        self.close()

    def _wait(self) -> float:
        """How long to wait for the workers: at most a second, and no later than the nearest deadline."""
        deadlines = [worker.deadline for worker in self.workers if worker.item is not None and worker.deadline]
        return max(0.0, min([1.0] + [when - time.monotonic() for when in deadlines]))

    def _overdue(self, worker: _Worker) -> str | None:
        """Why a busy worker must be ended: past its item's deadline, or stopped for STOPPED_SECONDS."""
        now = time.monotonic()
        if worker.deadline is not None and now >= worker.deadline:
            return f"the worker process grading it was still at it after {worker.allowed:g} s"
        stat = reaper.process_stat(worker.pid)
        if stat is None or stat[3] != "T":
            worker.stopped_since = None
            return None
        worker.stopped_since = worker.stopped_since or now
        if now - worker.stopped_since >= STOPPED_SECONDS:
            return "the worker process grading it was stopped (SIGSTOP)"
        return None

    def _end_overdue(self, worker: _Worker, why: str, failed) -> None:
        """Kill a worker that is past its item's deadline or stopped, with what it started; fail its item."""
        index = worker.item
        worker.process.kill()  # SIGKILL ends a stopped process too
        worker.item = None
        self._bury(worker)
        reaper.reap_orphans(worker.started)
        failed(index, WorkerTimedOut(why, worker.allowed))

    def _busy(self) -> int:
        return sum(worker.item is not None for worker in self.workers)

    def _died(self, worker: _Worker, failed) -> None:
        """A worker ended on its own: what its children left is ended, its item goes back to the front of
        the queue, or is failed after RETRIES more tries; workers that keep dying before they are ready stop
        the run (WorkersFailing)."""
        self._bury(worker)
        reaper.reap_orphans(worker.started)
        self._deaths = 0 if worker.ready else self._deaths + 1
        if worker.item is not None:
            tries = self._tries[worker.item] = self._tries.get(worker.item, 0) + 1
            if tries > RETRIES:
                failed(worker.item, WorkerDied(_ending(worker.process.exitcode, tries)))
            else:
                self._queue.appendleft(worker.item)
        if self._deaths > self.jobs + 2:
            raise WorkersFailing(f"grading workers end as they start ({_ending(worker.process.exitcode)})")

    def _start(self) -> None:
        tasks, theirs = self.context.Pipe()
        watched, lifeline = self.context.Pipe(duplex=False)
        process = self.context.Process(
            target=serve,
            name="labkit-worker",
            daemon=True,
            args=(theirs, watched, os.getpid(), self.work, self.common, self.stop_children),
        )
        process.start()
        theirs.close()
        watched.close()
        worker = _Worker(process, tasks, lifeline)
        stat = reaper.process_stat(worker.pid)
        worker.started = stat[2] if stat else None
        self.workers.append(worker)

    def _hear(self, worker: _Worker, done, failed) -> None:
        try:
            while worker.tasks.poll():
                data = worker.tasks.recv_bytes()
                try:
                    message = pickle.loads(data)
                except Exception as exc:  # noqa: BLE001  (an answer that cannot be read fails its item, not the run)
                    if worker.item is None:
                        raise EOFError from exc  # not an answer: the worker is ended below
                    message = (worker.item, WorkFailed(f"the answer could not be read: {_described(exc)}"))
                if message == READY:
                    worker.ready = True
                    continue
                index, answer = message
                worker.item = None
                if isinstance(answer, WorkFailed):
                    failed(index, answer)
                else:
                    done(index, answer)
        except (EOFError, OSError):  # it ended, or must (its sentinel says so next)
            if worker.process.is_alive():
                worker.process.join(GRACE)
            if worker.process.is_alive():
                worker.process.kill()

    def _bury(self, worker: _Worker) -> None:
        worker.process.join(10.0)
        self.workers.remove(worker)
        for end in (worker.tasks, worker.lifeline):
            end.close()

    def close(self) -> None:
        """No more work: each worker reads the end of its pipe and leaves; wait for them."""
        for worker in self.workers:
            try:
                worker.tasks.send(None)
            except OSError:
                pass
        for worker in list(self.workers):
            worker.process.join(10.0)
            if worker.process.is_alive():
                worker.process.kill()
            self._bury(worker)

    def stop(self, grace: float = GRACE) -> None:
        """Every worker ends its children and itself now (SIGTERM); one still there after `grace` is killed."""
        for worker in self.workers:
            try:
                os.kill(worker.pid, signal.SIGTERM)
            except (OSError, TypeError):
                pass
        deadline = time.monotonic() + grace
        for worker in self.workers:
            worker.process.join(max(0.0, deadline - time.monotonic()))
            if worker.process.is_alive():
                worker.process.kill()  # its children come back to us: ended below
        started = [worker.started for worker in self.workers if worker.started is not None]
        for worker in list(self.workers):
            self._bury(worker)
        if started:
            reaper.reap_orphans(min(started))


def _ending(exitcode, tries: int = 1) -> str:
    """How a worker ended, in words: "killed by SIGKILL", "exit code 1"; and how often, when more than once."""
    if exitcode is not None and exitcode < 0:
        try:
            how = f"killed by {signal.Signals(-exitcode).name}"
        except ValueError:
            how = f"killed by signal {-exitcode}"
    else:
        how = f"exit code {exitcode}"
    return f"the worker process grading it ended ({how})" + (f", {tries} times" if tries > 1 else "")


# --- in a worker -----------------------------------------------------------------------------------


def serve(tasks, watched, grader: int, work, common: tuple, stop) -> None:
    """A worker's life: bound to the grader first, then items until the grader says there are no more."""
    bind_to_grader(grader, watched, stop)
    tasks.send(READY)
    while True:
        try:
            message = tasks.recv()
        except (EOFError, OSError):
            break
        if message is None:
            break
        index, item = message
        try:
            answer = work(item, *common)
        except BaseException as exc:  # noqa: BLE001  (a stop ends the work mid-way; anything else is reported)
            if _leaving.is_set():
                break
            answer = WorkFailed(_described(exc))
        try:
            tasks.send((index, answer))
        except Exception as exc:  # noqa: BLE001  (an answer that cannot be pickled is reported, not lost)
            tasks.send((index, WorkFailed(_described(exc))))


_leaving = threading.Event()
ENDING_SIGNALS = tuple(name for name in ("SIGTERM", "SIGHUP", "SIGQUIT") if hasattr(signal, name))  # end a run


def bind_to_grader(grader: int, watched, stop) -> None:
    """End with the grader: SIGINT is ignored (the grader handles Ctrl-C); SIGTERM, SIGHUP, SIGQUIT, the grader's
    death (the kernel's SIGTERM on Linux, or the end of `watched`: nothing ever writes to it) each make a watcher thread
    stop the children and leave.  Signals reach the watcher through a wakeup fd, so a busy main thread
    cannot delay it."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    wake_read, wake_write = os.pipe()
    os.set_blocking(wake_write, False)
    for name in ENDING_SIGNALS:  # SIGHUP and SIGQUIT too: sent to the terminal's whole process group
        signal.signal(getattr(signal, name), lambda _signum, _frame: None)  # the wakeup fd does the work
    signal.set_wakeup_fd(wake_write)
    threading.Thread(target=_watch, args=(watched, wake_read, stop), name="labkit-lifeline", daemon=True).start()
    if sys.platform.startswith("linux"):
        try:
            import ctypes

            ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGTERM, 0, 0, 0)  # PR_SET_PDEATHSIG
        except (OSError, AttributeError):
            pass
    if os.getppid() != grader:  # it died before we asked to be told
        os.kill(os.getpid(), signal.SIGTERM)


def _watch(watched, wake_read: int, stop) -> None:
    while True:
        readable, _, _ = select.select([watched, wake_read], [], [])
        if watched in readable:
            break  # end of file: the grader is gone
        if set(os.read(wake_read, 64)) & {int(getattr(signal, name)) for name in ENDING_SIGNALS}:
            break
    leave(stop)


def leave(stop) -> None:
    """End this worker now: its children first (at most LEAVE_SECONDS), then the process itself."""
    _leaving.set()
    threading.Timer(LEAVE_SECONDS, os._exit, (128 + signal.SIGTERM,)).start()
    try:
        if stop is not None:
            stop()
    finally:
        os._exit(128 + signal.SIGTERM)


def _described(exc: BaseException) -> str:
    try:
        return f"{type(exc).__name__}: {exc}"
    except Exception:  # noqa: BLE001  (an exception whose str() fails still has a type)
        return type(exc).__name__
