"""Many independent tasks on a Dask cluster with ``dask.distributed`` futures.

joblib's dask backend sends one call's fits to the cluster as they are
dispatched, and its arguments again with every call. A study's draws are
better sent as they are: the population goes to every worker once
(``Client.scatter(..., broadcast=True)``), each draw is one task that runs
all of its fits there, and only the draw's compact record comes back. The
tasks are submitted a window at a time, so that the scheduler holds a few
per worker thread however many draws a study has.
"""

from joblib.parallel import get_active_backend

TASKS_PER_THREAD = 4
"""How many tasks per worker thread are submitted ahead of the finished ones."""


def dask_client():
    """The ``dask.distributed`` client of an active ``joblib.parallel_config(backend="dask")``, else None."""
    backend, _ = get_active_backend()
    client = getattr(backend, "client", None)
    if client is None or not type(client).__module__.startswith("distributed"):
        return None
    return client


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
        One task each; ``receive`` gets them back in the order the tasks finish.
    receive : callable
        Called here, one result at a time.

    A task's failure is raised here, after the tasks not yet finished are cancelled.
    """
    from distributed import as_completed

    if not items:
        return
    shared_futures = client.scatter(list(shared), broadcast=True, hash=False)
    window = max(1, TASKS_PER_THREAD * sum(client.nthreads().values()))
    waiting = iter(items)
    futures = {}

    def submit(item):
        future = client.submit(function, *shared_futures, item, pure=False)
        futures[future] = item
        return future

    finished = as_completed([submit(item) for _, item in zip(range(window), waiting)])
    try:
        for future in finished:
            item = futures.pop(future)
            receive(item, future.result())
            following = next(waiting, None)
            if following is not None:
                finished.add(submit(following))
    except BaseException:
        client.cancel(list(futures))
        raise
    finally:
        client.cancel(shared_futures)
