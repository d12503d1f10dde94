"""Many independent tasks on a Dask cluster with ``dask.distributed`` futures.

joblib's dask backend sends one call's fits to the cluster as they are
dispatched, and its arguments again with every call. A study's draws are
better sent as they are: the population goes to every worker once
(``Client.scatter(..., broadcast=True)``), a task runs whole draws there,
and only the draws' compact records come back.

A task holds one draw at first; once draws have been timed, it holds as
many as take about :data:`TASK_SECONDS`, so that the scheduler's cost per
task (a millisecond or more) stays small beside the work however short a
draw is, but never so many that the last tasks leave workers idle. Tasks
are submitted a few per worker thread ahead of the finished ones, so that
the scheduler holds a few per thread however many draws a study has.
"""

import math
import time

from ._joblib_compat import active_backend

TASKS_PER_THREAD = 4
"""How many tasks per worker thread are submitted ahead of the finished ones."""

TASK_SECONDS = 1.0
"""About how long a task lasts once the items have been timed (at least one item a task)."""


def dask_client():
    """The ``dask.distributed`` client of an active ``joblib.parallel_config(backend="dask")``, else None."""
    backend = active_backend()
    client = getattr(backend, "client", None)
    if client is None or not type(client).__module__.startswith("distributed"):
        return None
    return client


def _run_items(function, *arguments):
    """On a worker: ``function(*shared, item)`` for every item of the task, and the seconds they took."""
    *shared, items = arguments
    start = time.perf_counter()
    results = [function(*shared, item) for item in items]
    return results, time.perf_counter() - start


class _TaskSizes:
    """How many items the next task holds: one until some are timed, then about TASK_SECONDS' worth."""

    def __init__(self, threads):
        self._threads = threads
        self._items = 0
        self._seconds = 0.0

    def timed(self, items, seconds):
        self._items += items
        self._seconds += seconds

    def next(self, left):
        if not self._items:
            return 1
        per_item = max(self._seconds / self._items, 1e-9)
        # Leave at least two tasks per thread for the end, so that no worker waits on one long last task.
        return max(1, min(math.floor(TASK_SECONDS / per_item), math.ceil(left / (2 * self._threads))))


def run_on_cluster(client, function, shared, items, receive):
    """Call ``function(*shared, item)`` on the cluster for every item; ``receive(item, result)`` as each finishes.

    Parameters
    ----------
    client : distributed.Client
    function : callable
        Runs on a worker; it and its results must pickle.
    shared : sequence
        Arguments common to every task, each sent to every worker once.
    items : sequence
        ``receive`` gets them back in the order their tasks finish.
    receive : callable
        Called here, one result at a time.

    A task's failure is raised here, after the tasks not yet finished are cancelled.
    """
    from distributed import as_completed

    if not items:
        return
    shared_futures = client.scatter(list(shared), broadcast=True, hash=False)
    threads = max(1, sum(client.nthreads().values()))
    sizes = _TaskSizes(threads)
    waiting = list(reversed(items))
    futures = {}

    def submit():
        chunk = [waiting.pop() for _ in range(min(sizes.next(len(waiting)), len(waiting)))]
        future = client.submit(_run_items, function, *shared_futures, chunk, pure=False)
        futures[future] = chunk
        return future

    finished = as_completed([submit() for _ in range(min(TASKS_PER_THREAD * threads, len(waiting)))])
    try:
        for future in finished:
            chunk = futures.pop(future)
            results, seconds = future.result()
            sizes.timed(len(chunk), seconds)
            for item, result in zip(chunk, results, strict=True):
                receive(item, result)
            if waiting:
                finished.add(submit())
    except BaseException:
        client.cancel(list(futures))
        raise
    finally:
        client.cancel(shared_futures)
