"""This process's native thread pools (BLAS, OpenMP) while it fits beside joblib's worker processes."""

import threading
from contextlib import contextmanager

from joblib import cpu_count
from threadpoolctl import threadpool_info, threadpool_limits

from .._utils._joblib_compat import active_backend


def threads_per_worker(n_workers):
    """The native threads joblib gives each worker process of the active backend, or None when it limits none.

    joblib limits the workers of its loky backend to the backend's
    ``inner_max_num_threads`` when given, else to ``cpu_count() // n_jobs``;
    it leaves thread-based and remote backends (threading, dask) alone. Call
    it in the thread that holds the joblib context: the context is per thread.
    """
    backend = active_backend()
    if not getattr(backend, "supports_inner_max_num_threads", False):
        return None
    explicit = getattr(backend, "inner_max_num_threads", None)
    return explicit if explicit is not None else max(cpu_count() // n_workers, 1)


def _lowered_to(threads):
    """Limits per API (blas, openmp) that bring each pool down to ``threads`` and never raise one."""
    current = {}
    for pool in threadpool_info():
        current[pool["user_api"]] = min(current.get(pool["user_api"], threads), pool["num_threads"])
    return {api: min(count, threads) for api, count in current.items()}


class _ProcessLimit:
    """One process-wide limit: set by the first of concurrent holders, lifted by the last.

    Native thread pools belong to the process, so two callers that limited
    and restored them each on their own would restore each other's settings
    out of order.
    """

    def __init__(self):
        self._lock = threading.Lock()
        self._holders = 0
        self._limits = None

    @contextmanager
    def held(self, threads):
        with self._lock:
            if self._holders == 0:
                self._limits = threadpool_limits(_lowered_to(threads))
            self._holders += 1
        try:
            yield
        finally:
            with self._lock:
                self._holders -= 1
                if self._holders == 0:
                    self._limits.restore_original_limits()
                    self._limits = None


native_threads_limit = _ProcessLimit()
"""Held by this process's fits while a pool of worker processes runs beside them."""
