"""The worker pool on its own (labkit/instructor/workers.py): answers come back, work that raises, a worker that dies,
one past its item's deadline or one stopped costs its one item, and the pool leaves nothing running.  (The class run's
tests kill real grading workers; tests/test_isolation.py has submissions that stop or kill their own.)"""

import os
import signal
import time

from labkit.instructor import workers


def run(pool: workers.Pool, items: list, deadline=None) -> tuple[dict, dict]:
    done, failed = {}, {}
    pool.run(
        len(items),
        items.__getitem__,
        done.__setitem__,
        lambda index, exc: failed.__setitem__(index, exc),
        deadline=deadline,
    )
    return done, failed


def test_every_item_is_answered_and_one_that_raises_fails_alone():
    done, failed = run(workers.Pool(2, int), ["1", "x", "3", "4"])
    assert done == {0: 1, 2: 3, 3: 4}
    assert list(failed) == [1] and isinstance(failed[1], workers.WorkFailed) and "ValueError" in str(failed[1])


def test_an_item_whose_worker_dies_is_tried_once_more_then_failed_and_the_rest_goes_on():
    pool = workers.Pool(2, os._exit)  # each item is the exit code its worker dies with
    done, failed = run(pool, [3, 4])
    assert done == {} and sorted(failed) == [0, 1]
    assert all(isinstance(exc, workers.WorkerDied) for exc in failed.values())
    assert "(exit code 3), 2 times" in str(failed[0]) and "(exit code 4), 2 times" in str(failed[1])
    assert pool.workers == []  # every worker it started was waited for


def test_a_worker_still_at_its_item_past_the_deadline_is_killed_and_only_that_item_fails():
    """Round 4, finding 6: nothing timed out a worker that stopped answering.  The grader's own clock does: the
    item that sleeps past its deadline fails as WorkerTimedOut (not tried again), the others are answered."""
    pool = workers.Pool(2, time.sleep)  # each item is how long its work sleeps
    started = time.monotonic()
    done, failed = run(pool, [0, 600, 0], deadline=lambda index: 3.0)
    assert time.monotonic() - started < 60  # not the 600 s it asked for
    assert done == {0: None, 2: None} and list(failed) == [1]
    assert isinstance(failed[1], workers.WorkerTimedOut) and failed[1].seconds == 3.0 and "3 s" in str(failed[1])
    assert pool.workers == []


def test_a_stopped_worker_is_killed_long_before_its_deadline():
    """SIGSTOP to a worker (what a submission that could signal it did) froze a class run: 202.7 s instead of 1.7 s.
    A worker seen stopped for workers.STOPPED_SECONDS is killed and its item fails as WorkerTimedOut."""
    pool = workers.Pool(2, signal.raise_signal)  # each item is the signal its worker raises on itself
    started = time.monotonic()
    done, failed = run(pool, [0, signal.SIGSTOP], deadline=lambda index: 600.0)
    assert time.monotonic() - started < 60  # not the 600 s deadline
    assert done == {0: None} and list(failed) == [1]
    assert isinstance(failed[1], workers.WorkerTimedOut) and "SIGSTOP" in str(failed[1])
    assert pool.workers == []
