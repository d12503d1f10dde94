"""Run many fits on joblib's worker pool, keeping cheap ones in this process.

Every refitting scheme (the evaluator, 5x2cv, the bootstrap, random
subsampling) hands its fits to :func:`run_fits`. The rule it follows:

* with one job, every fit runs here, in order;
* with more, this process is one of the ``n_jobs`` workers and the pool
  (``sklearn.utils.parallel.Parallel``, so any joblib backend, dask
  included) holds ``n_jobs - 1`` fits at a time, handed over one by one;
* the first fit of each estimator that runs here is timed. An estimator
  whose fit (with its predictions) took less than ``cheap_fit_seconds`` is
  *cheap*: its remaining fits stay here, because sending a fit to a worker
  costs more than running it. The others go to the pool longest-first (the
  estimator with the slowest timed fit first).

Where a fit runs never changes its result: each fit is a fresh clone on fixed
indices, so the output is identical for any ``n_jobs`` and backend.
"""

import os
import shutil
import tempfile
import threading
import time
from collections import deque
from contextlib import contextmanager

import numpy as np
from joblib import cpu_count, effective_n_jobs
from sklearn.base import clone
from sklearn.utils.parallel import Parallel, delayed
from threadpoolctl import threadpool_limits

from ._fitting import fit_and_predict

CHEAP_FIT_SECONDS = 0.01
"""Default threshold below which an estimator's fits are not sent to the pool (seconds)."""

_SHARE_BYTES = 1_000_000
"""Arrays at least this large are handed to workers as a file-backed memmap (joblib's own default)."""


class _Queue:
    """The fits not yet started, grouped by estimator; thread-safe.

    ``take_here`` and ``take_for_pool`` pick the next fit for this process and
    for the pool; ``timed`` records the duration of an estimator's first fit
    here, which decides whether its other fits may go to the pool.
    """

    def __init__(self, groups, cheap_fit_seconds):
        self._pending = {}
        for i, group in enumerate(groups):
            self._pending.setdefault(group, deque()).append(i)
        self._seconds = {}
        self._piloting = set()
        self._cheap_fit_seconds = cheap_fit_seconds
        self._lock = threading.Lock()

    def _is_cheap(self, group):
        return group in self._seconds and self._seconds[group] < self._cheap_fit_seconds

    def _slowest_first(self, groups):
        return sorted(groups, key=lambda group: -self._seconds.get(group, np.inf))

    def _pop(self, group):
        indices = self._pending[group]
        index = indices.popleft()
        if not indices:
            del self._pending[group]
        return index

    def take_here(self):
        """The next fit for this process, whether it is timed, or (None, False) when none is left."""
        with self._lock:
            untimed = [g for g in self._pending if g not in self._seconds and g not in self._piloting]
            if untimed:
                self._piloting.add(untimed[0])
                return self._pop(untimed[0]), True
            cheap = [g for g in self._pending if self._is_cheap(g)]
            groups = cheap or self._slowest_first(self._pending)
            return (self._pop(groups[0]), False) if groups else (None, False)

    def take_for_pool(self):
        """The next fit for the pool, or None when only cheap fits (or none) are left."""
        with self._lock:
            groups = self._slowest_first(g for g in self._pending if not self._is_cheap(g))
            return self._pop(groups[0]) if groups else None

    def timed(self, group, seconds):
        with self._lock:
            self._seconds[group] = seconds
            self._piloting.discard(group)

    def clear(self):
        with self._lock:
            self._pending.clear()


def _temporary_folder():
    return os.environ.get("JOBLIB_TEMP_FOLDER") or None


@contextmanager
def _shared_with_workers(X, n_jobs):
    """``X`` as a read-only file-backed memmap when it is a large dense array and n_jobs > 1.

    joblib dumps large arrays into a fresh folder on every call and, when the
    call ends, waits in steps of 0.1 s until the workers have let go of them
    (``joblib.disk.delete_folder``); an array that is already a file-backed
    memmap is passed by reference instead, with no such wait.
    """
    dense = isinstance(X, np.ndarray) and not isinstance(X, np.memmap) and not X.dtype.hasobject
    if n_jobs <= 1 or not dense or X.nbytes < _SHARE_BYTES:
        yield X
        return
    folder = tempfile.mkdtemp(prefix="cvinference_", dir=_temporary_folder())
    try:
        path = os.path.join(folder, "X.npy")
        np.save(path, X)
        yield np.load(path, mmap_mode="r")
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def _indexed(index, function, *args, **kwargs):
    return index, function(*args, **kwargs)


def run_fits(estimators, X, y, tasks, *, names, n_jobs=None, verbose=0, cheap_fit_seconds=CHEAP_FIT_SECONDS,
             proba_loss=None, collect=None):
    """Fit a clone of an estimator on every task's training rows and predict its test rows.

    Parameters
    ----------
    estimators : sequence of estimator
        Never fitted: every task fits a clone.
    X, y : array-like
        The data, already validated.
    tasks : sequence of (estimator_index, where, train, test)
        One fit each; ``where`` names it in error messages. A sequence whose
        items are made on access keeps only the running fits' indices in memory.
    names : sequence of str
        The estimators' names in error messages.
    n_jobs : int or None
        As in joblib: None means 1 unless in a :func:`joblib.parallel_config` context.
    verbose : int
        Verbosity of the joblib pool.
    cheap_fit_seconds : float
        Estimators whose first fit here took less than this keep all their
        fits out of the pool.
    proba_loss : tuple or None
        Passed to :func:`fit_and_predict`.
    collect : callable or None
        ``collect(task_index, output)`` receives each output as soon as it is
        here, so that the caller can keep a compact form of it.

    Returns
    -------
    list or None
        Without ``collect``, the output of :func:`fit_and_predict` for every
        task, in task order.
    """
    n_workers = effective_n_jobs(n_jobs)
    outputs = [None] * len(tasks) if collect is None else None
    if collect is None:
        collect = outputs.__setitem__

    def fit(index):
        e, where, train, test = tasks[index]
        return fit_and_predict(clone(estimators[e]), X, y, train, test, name=names[e], where=where,
                               proba_loss=proba_loss)

    if n_workers <= 1:
        for index in range(len(tasks)):
            collect(index, fit(index))
        return outputs

    queue = _Queue([task[0] for task in tasks], cheap_fit_seconds)
    with _shared_with_workers(X, n_workers) as X:
        def pool_fits():
            while (index := queue.take_for_pool()) is not None:
                e, where, train, test = tasks[index]
                yield delayed(_indexed)(index, fit_and_predict, clone(estimators[e]), X, y, train, test,
                                        name=names[e], where=where, proba_loss=proba_loss)

        try:
            pool = Parallel(n_jobs=n_jobs, verbose=verbose, batch_size=1, pre_dispatch=n_workers - 1,
                            return_as="generator_unordered")
        except ValueError:
            # A backend that cannot return results as they come (joblib's
            # "multiprocessing"): every fit goes to the pool in one call.
            queue = _Queue([None] * len(tasks), cheap_fit_seconds=0.0)
            for index, output in Parallel(n_jobs=n_jobs, verbose=verbose)(pool_fits()):
                collect(index, output)
            return outputs
        from_pool = pool(pool_fits())
        try:
            # The pool's workers run with cpu_count // n_jobs threads each (joblib's
            # rule); fits here get the same, so they neither oversubscribe the cores
            # nor compute differently.
            with threadpool_limits(max(cpu_count() // n_workers, 1)):
                while True:
                    index, timed = queue.take_here()
                    if index is None:
                        break
                    start = time.perf_counter()
                    collect(index, fit(index))
                    if timed:
                        queue.timed(tasks[index][0], time.perf_counter() - start)
        except BaseException:
            queue.clear()
            _drain(from_pool)
            raise
        for index, output in from_pool:
            collect(index, output)
    return outputs


def _drain(results):
    """Wait for the fits already in the pool, ignoring their failures."""
    try:
        for _ in results:
            pass
    except Exception:
        pass
