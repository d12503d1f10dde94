"""Everything the package reads of joblib's and loky's internals, in one place.

joblib documents ``parallel_config`` but not how to ask which backend a call
runs under, and loky keeps no public count of its workers. These functions
read what is there and, where a read fails, answer as if nothing were
running, so a change in either library degrades an estimate, never a call.
"""

from joblib.parallel import get_active_backend


def active_backend():
    """The backend object a ``joblib.Parallel`` made here would use (``parallel_config`` counts)."""
    backend, _ = get_active_backend()
    return backend


def backend_name():
    """The class name of the active backend: ``"LokyBackend"``, ``"ThreadingBackend"``, ``"DaskDistributedBackend"``."""
    return type(active_backend()).__name__


def loky_workers_alive():
    """How many workers joblib's reusable loky executor has running (0 when unknown).

    Any caller's pool counts, scikit-learn's included. loky keeps no public
    count, so its executor is read, and any failure to read it counts as none.
    """
    try:
        from joblib.externals.loky import reusable_executor

        executor = reusable_executor._executor
        if executor is None or executor._flags.broken or executor._flags.shutdown:
            return 0
        return sum(process.is_alive() for process in list(executor._processes.values()))
    except Exception:  # noqa: BLE001 - a private structure of another library: never let it fail a call
        return 0
