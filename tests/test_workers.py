"""The worker pool on its own (labkit/instructor/workers.py): answers come back, work that raises or a worker that dies
costs its one item, and the pool leaves nothing running.  (The class run's tests kill real grading workers.)"""

import os

from labkit.instructor import workers


def run(pool: workers.Pool, items: list) -> tuple[dict, dict]:
    done, failed = {}, {}
    pool.run(len(items), items.__getitem__, done.__setitem__, lambda index, exc: failed.__setitem__(index, exc))
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
