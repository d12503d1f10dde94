"""Run many fits on joblib's worker pool, keeping cheap ones in this process.

Every refitting scheme (k-fold and leave-one-out in the evaluator, 5x2cv
through the evaluator, the bootstrap, holdout, random subsampling) hands its
fits to :func:`run_fits` as :class:`~cvinference.evaluation._fit_task.FitTask`
items. The rule it follows:

* with one job, every fit runs here, in order;
* with more, this process is one of the ``n_jobs`` workers (a thread runs
  its fits) and times the first fit of each estimator, with its
  predictions. An estimator whose fit takes less than ``cheap_fit_seconds``
  is *cheap*: sending one of its fits to a worker costs about as much as
  running it, so the pool gets its fits only in batches (a task of about
  :data:`BATCH_SECONDS` of them, as joblib's own auto-batching does for
  scikit-learn), and only when they add up to :data:`MIN_CHEAP_POOL_SECONDS`
  or more (an infinite ``cheap_fit_seconds`` keeps every fit here);
* as soon as a first fit has run for ``cheap_fit_seconds``, or cheap fits
  are seen to be worth batching, the pool
  (``sklearn.utils.parallel.Parallel``, so any joblib backend but dask,
  below) is started and holds ``n_jobs - 1`` tasks at a time, handed
  over one by one, the slowest estimator's single fits first, then batches
  of cheap ones;
* unless a pool of that size is running (threads, a Dask cluster, or loky
  workers alive), starting one costs its worker processes'
  start, which :func:`pool_start_seconds` estimates: the pool is started
  only once the fits it would take are seen to last longer than that, so
  that a call with ``n_jobs`` > 1 is not slower than one without. The
  first tasks the pool gets do nothing, and fits follow only as they
  return: no fit waits in a worker that is still starting;
* while a pool of worker processes runs, this process's fits get the native
  threads that joblib gives one of its workers;
* under ``joblib.parallel_config(backend="dask")`` every fit goes to the
  cluster by ``dask.distributed`` futures instead (the path the studies
  take, :mod:`cvinference._utils._cluster`): the data and the fits' plan
  are sent to every worker once, and a task holds as many fits as take
  about a second once some are timed.

Where a fit runs never changes its result: each fit is a fresh clone on fixed
indices, so the output is identical for any ``n_jobs`` and backend.
"""

import math
import os
import shutil
import tempfile
import threading
import time
from collections import deque
from contextlib import ExitStack, contextmanager

import numpy as np
from joblib import effective_n_jobs
from sklearn import config_context, get_config
from sklearn.base import clone
from sklearn.utils.parallel import Parallel, delayed

from .._utils._cluster import dask_client, run_on_cluster
from .._utils._joblib_compat import backend_name, loky_workers_alive
from .._utils._progress import Progress
from .._utils._validation import non_finite_note
from ._fit_task import add_context, fit_and_predict
from ._native_threads import native_threads_limit, threads_per_worker

CHEAP_FIT_SECONDS = 0.05
"""Default threshold below which an estimator's fits go to the pool only in batches (seconds)."""

BATCH_SECONDS = 0.1
"""About how long a batch of cheap fits (one task of the pool) lasts."""

MIN_CHEAP_POOL_SECONDS = 0.02
"""Cheap fits adding up to less than this stay here: a round trip to a worker would not pay."""

_RECHECK_SECONDS = 0.05
"""While a first fit runs, how often to ask again whether the work seen so far outlasts the pool's start."""

_STARTUP_CPU_SECONDS = min(max(time.process_time(), 0.2), 3.0)
"""CPU seconds this process had spent when this module was imported (bounded to [0.2, 3]).

About what a fresh worker process spends starting: the interpreter, numpy
and scikit-learn, which it imports too.
"""

_LOKY_IDLE_SECONDS = 240.0
"""A loky pool this module used this recently is taken to be running (loky stops idle workers after 300 s)."""

_pools_used = {}
"""(backend class name, workers) -> time.monotonic() when this module's last pool of that kind finished."""

_SHARE_BYTES = 1_000_000
"""Arrays at least this large are handed to workers as a file-backed memmap (joblib's own default)."""


class _Queue:
    """The fits not yet started, grouped by estimator; thread-safe.

    ``take_here`` and ``take_for_pool`` pick the next fit for this process and
    the next fits for the pool; ``timed`` records the duration of an
    estimator's first fit here, which decides whether its other fits may go
    to the pool.
    """

    def __init__(self, groups, cheap_fit_seconds, n_workers, start_seconds=0.0):
        self._groups = groups
        self._n_workers = n_workers
        self._start_seconds = start_seconds
        self._pending = {}
        for i, group in enumerate(groups):
            self._pending.setdefault(group, deque()).append(i)
        self._seconds = {}
        self._piloting = {}
        self._cheap_fit_seconds = cheap_fit_seconds
        self._lock = threading.Lock()
        self._changed = threading.Condition(self._lock)

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

    def group_of(self, index):
        return self._groups[index]

    def take_here(self):
        """The next fit for this process, whether it is timed, or (None, False) when none is left."""
        with self._lock:
            untimed = [g for g in self._pending if g not in self._seconds and g not in self._piloting]
            if untimed:
                self._piloting[untimed[0]] = time.perf_counter()
                self._changed.notify_all()
                return self._pop(untimed[0]), True
            cheap = [g for g in self._pending if self._is_cheap(g)]
            heavy = self._slowest_first(g for g in self._pending if not self._is_cheap(g))
            groups = cheap if cheap and (not heavy or self._cheap_fits_are_a_share(cheap, heavy)) else heavy
            return (self._pop(groups[0]), False) if groups else (None, False)

    def _cheap_fits_are_a_share(self, cheap, heavy):
        """Whether the cheap fits left take at least this process's share of the work left.

        If not, this process takes heavy fits first and keeps the cheap ones
        for last: fits of a few milliseconds then fill the time in which the
        pool finishes its last heavy fits.
        """
        def seconds(groups):
            return sum(self._seconds.get(g, 0.0) * len(self._pending[g]) for g in groups)

        cheap_seconds = seconds(cheap)
        return cheap_seconds * self._n_workers >= cheap_seconds + seconds(heavy)

    def take_for_pool(self):
        """The next task for the pool: a list of one fit, or a batch of cheap ones; None when none is left for it.

        An estimator that is not cheap gives one fit, the slowest first.
        Then the cheap estimator with the most work left gives a batch of
        about :data:`BATCH_SECONDS`, but no more than a share
        1 / (2 n_workers) of its fits left, so that the workers finish
        together; cheap fits adding up to less than
        :data:`MIN_CHEAP_POOL_SECONDS` are left to this process.
        """
        with self._lock:
            groups = self._slowest_first(g for g in self._pending if not self._is_cheap(g))
            if groups:
                return [self._pop(groups[0])]
            if not self._batchable_work():
                return None
            group = max((g for g in self._pending if self._is_cheap(g)), key=self._group_work)
            left = len(self._pending[group])
            size = max(1, min(math.floor(BATCH_SECONDS / max(self._seconds[group], 1e-9)),
                              math.ceil(left / (2 * self._n_workers))))
            return [self._pop(group) for _ in range(min(size, left))]

    def _group_work(self, group):
        return self._seconds[group] * len(self._pending[group])

    def _batchable_work(self):
        """Seconds of the cheap fits not yet started, when they are enough to batch (else 0).

        They are not with an infinite ``cheap_fit_seconds``, which keeps every fit here.
        """
        if not math.isfinite(self._cheap_fit_seconds):
            return 0.0
        seconds = sum(self._group_work(g) for g in self._pending if self._is_cheap(g))
        return seconds if seconds >= MIN_CHEAP_POOL_SECONDS else 0.0

    def timed(self, group, seconds):
        with self._lock:
            self._seconds[group] = seconds
            self._piloting.pop(group, None)
            self._changed.notify_all()

    def clear(self):
        with self._lock:
            self._pending.clear()
            self._piloting.clear()
            self._changed.notify_all()

    def _work_for_the_pool(self, now):
        """Seconds of the fits not yet started that the pool would take: a lower bound while a first fit runs.

        Cheap fits count when they are enough to be batched (:data:`MIN_CHEAP_POOL_SECONDS`), all but the
        share this process would run anyway.
        """
        seconds = 0.0
        for group, indices in self._pending.items():
            if group in self._seconds and not self._is_cheap(group):
                seconds += self._seconds[group] * len(indices)
            elif group in self._piloting:
                seconds += (now - self._piloting[group]) * len(indices)
        return seconds + self._batchable_work() * (self._n_workers - 1) / self._n_workers  # this process's share stays

    def _pool_is_needed(self):
        """True, False, or the seconds after which to ask again (None: when a first fit here is timed).

        The pool is needed for fits that are not cheap, or for enough cheap
        ones to batch, once they are known to outlast the pool's start
        (``start_seconds``, 0 for a pool that is running): starting worker
        processes costs more than a short call's fits.
        """
        now = time.perf_counter()
        worth_a_start = self._work_for_the_pool(now) >= self._start_seconds
        heavy = any(not self._is_cheap(g) for g in self._seconds if g in self._pending)
        if worth_a_start and (heavy or self._batchable_work()):
            return True
        if self._piloting:
            waited = now - min(self._piloting.values())
            if waited < self._cheap_fit_seconds:
                return self._cheap_fit_seconds - waited
            return True if worth_a_start else _RECHECK_SECONDS
        if all(g in self._seconds for g in self._pending):
            return False
        return None  # an estimator is waiting for its first fit here

    def wait_until_the_pool_is_needed(self):
        """Whether any fit must go to the pool: an estimator's first fit here took cheap_fit_seconds or longer."""
        with self._changed:
            while True:
                needed = self._pool_is_needed()
                if isinstance(needed, bool):
                    return needed
                self._changed.wait(timeout=needed if needed is not None and np.isfinite(needed) else None)


def pool_start_seconds(n_workers):
    """About how long starting a pool of ``n_workers`` would delay this call's fits: 0 when none must start.

    Threads start at once and a Dask cluster is already running; so is
    joblib's loky pool when that many of its workers are alive (scikit-learn
    may have started them), or when this module used it in the last few
    minutes. Cold
    worker processes each spend about :data:`_STARTUP_CPU_SECONDS` starting,
    on the cores this process leaves them, while it runs fits itself.
    """
    name = backend_name()
    if name not in ("LokyBackend", "MultiprocessingBackend"):
        return 0.0
    last = _pools_used.get((name, n_workers))
    if name == "LokyBackend" and (loky_workers_alive() >= n_workers
                                  or (last is not None and time.monotonic() - last < _LOKY_IDLE_SECONDS)):
        return 0.0
    spare_cores = max(1, (os.cpu_count() or 1) - 1)
    return n_workers * _STARTUP_CPU_SECONDS / spare_cores


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


def _fit_spec(estimators, names, tasks, responses, index):
    """What task ``index``'s fit needs beside the data and the losses (see :func:`_fit_batch`), with a fresh clone."""
    task = tasks[index]
    return (index, clone(estimators[task.estimator]), task.train, task.test, names[task.estimator], task.where,
            task.scored, None if responses is None else responses[task.estimator])


def _fit_on_worker(X, y, fitting, losses, index):
    """The output of task ``index``'s fit, wherever it runs: ``fitting`` is (estimators, names, tasks, responses)."""
    return _fit_batch(X, y, [_fit_spec(*fitting, index)], *losses)[0][1]


def _fit_batch(X, y, fits, proba_loss, score_loss, fit_params=None):
    """Run several fits (one task): ``[(index, output)]`` of :func:`fit_and_predict` for each.

    ``fits`` holds what differs between fits, ``(index, estimator, train,
    test, name, where, scored, response)``; the data, the losses and the fit
    parameters are arguments of their own, so that a backend that scatters
    large arguments (dask) sends them once per call, not once per task.
    """
    return [(index, fit_and_predict(estimator, X, y, train, test, where=where, name=name, proba_loss=proba_loss,
                                    scored=scored, score_loss=score_loss, response=response, fit_params=fit_params))
            for index, estimator, train, test, name, where, scored, response in fits]


def run_fits(estimators, X, y, tasks, *, names, n_jobs=None, verbose=0, cheap_fit_seconds=CHEAP_FIT_SECONDS,
             proba_loss=None, score_loss=None, responses=None, collect=None, fit_params=None):
    """Fit a clone of an estimator on every task's training rows and predict its test rows.

    Parameters
    ----------
    estimators : sequence of estimator
        Never fitted: every task fits a clone.
    X, y : array-like
        The data, already validated.
    tasks : sequence of FitTask
        One fit each (see :class:`FitTask`). A sequence whose items are made
        on access keeps only the running fits' indices in memory.
    names : sequence of str
        The estimators' names in error messages.
    n_jobs : int or None
        As in joblib: None means 1 unless in a :func:`joblib.parallel_config` context.
    verbose : int
        1: a progress line on standard error (fits done, time spent, time
        left); 2 and more: also the joblib pool's own messages, at
        ``verbose - 1``.
    cheap_fit_seconds : float
        Estimators whose first fit here takes less than this are cheap: the
        pool gets their fits only in batches, when they add up to
        :data:`MIN_CHEAP_POOL_SECONDS`; the pool is started only when the fits
        it would take outlast its start (:func:`pool_start_seconds`). 0
        sends every fit to the pool one by one, whatever its start costs;
        ``inf`` keeps every fit here.
    proba_loss : tuple or None
        Passed to :func:`fit_and_predict`.
    score_loss : tuple or None
        ``(loss, classes)``: the loss with which tasks that have ``scored``
        rows score them (see :class:`FitTask`).
    responses : sequence or None
        One ``(method, classes)`` per estimator (see
        :mod:`~cvinference.evaluation._scores`): each fit's output then holds
        the test rows' scores from the same fitted model, as its third item.
    collect : callable or None
        ``collect(task_index, output)`` receives each output as soon as it is
        here (one call at a time), so that the caller can keep a compact form of it.
    fit_params : dict or None
        Passed to every fit as :func:`fit_and_predict`'s ``fit_params``: those
        of one value per row are cut to the fit's training rows.

    Returns
    -------
    list or None
        Without ``collect``, the output of :func:`fit_and_predict` for every
        task, in task order.
    """
    try:
        return _run_fits(estimators, X, y, tasks, names, n_jobs, verbose, cheap_fit_seconds,
                         (proba_loss, score_loss, fit_params), responses, collect)
    except ValueError as exc:
        note = non_finite_note(exc, X)
        if note is not None:
            add_context(exc, note)
        raise


def _counted(collect, progress):
    """``collect``, stepping ``progress`` after each output (the callers hold one output at a time)."""
    def counted(index, output):
        collect(index, output)
        progress.step()
    return counted


def _run_fits(estimators, X, y, tasks, names, n_jobs, verbose, cheap_fit_seconds, losses, responses, collect):
    """:func:`run_fits` itself; its caller adds a note naming the cell of X a refusal of non-finite values is about."""
    n_workers = effective_n_jobs(n_jobs)
    outputs = [None] * len(tasks) if collect is None else None
    if collect is None:
        collect = outputs.__setitem__
    if verbose:
        collect = _counted(collect, Progress(len(tasks), verbose))
        verbose -= 1  # the joblib pool's own messages from 2 on

    fitting = (estimators, names, tasks, responses)

    def one_fit(index):
        return _fit_spec(*fitting, index)

    def fit(index):
        return _fit_on_worker(X, y, fitting, losses, index)

    if n_workers <= 1:
        for index in range(len(tasks)):
            collect(index, fit(index))
        return outputs
    client = dask_client()
    if client is not None:  # the futures path: the data and the tasks sent once, fits batched into tasks
        run_on_cluster(client, _fit_on_worker, (X, y, fitting, losses), range(len(tasks)), collect)
        return outputs

    start_seconds = 0.0 if cheap_fit_seconds == 0 else pool_start_seconds(n_workers)
    queue = _Queue([task.estimator for task in tasks], cheap_fit_seconds, n_workers, start_seconds)
    lock = threading.Lock()

    def keep(index, output):
        with lock:
            collect(index, output)

    here = _FitsHere(queue, fit, keep)
    try:
        if queue.wait_until_the_pool_is_needed():
            here.share_cores(threads_per_worker(n_workers))
            _fit_in_pool(queue, one_fit, keep, X, y, losses, n_jobs, n_workers, verbose)
    except BaseException:
        queue.clear()
        here.join()
        raise
    here.join()
    here.raise_failure()
    return outputs


class _FitsHere(threading.Thread):
    """This process's share of the fits, in a thread, so that the caller's thread can feed the pool.

    Once a pool of worker processes runs, this process is one of the workers
    and its next fits get the native threads (BLAS, OpenMP) that joblib gives
    one of them (:func:`threads_per_worker`, never more than they had), so
    that a fit here does not spin threads on the cores the pool's fits use.
    An estimator first timed after that is timed with those threads, as it
    would run in a worker.
    """

    def __init__(self, queue, fit, keep):
        super().__init__(name="cvinference-fits-here", daemon=True)
        self._queue, self._fit, self._keep = queue, fit, keep
        self._config = get_config()
        self._threads = None
        self._failure = None
        self.start()

    def share_cores(self, threads):
        """Limit the native threads of the next fits here to ``threads`` (None: no limit)."""
        self._threads = threads

    def run(self):
        try:
            with config_context(**self._config), ExitStack() as limit:
                limited = False
                while True:
                    index, timed = self._queue.take_here()
                    if index is None:
                        return
                    if not limited and self._threads is not None:
                        limit.enter_context(native_threads_limit.held(self._threads))
                        limited = True
                    start = time.perf_counter()
                    self._keep(index, self._fit(index))
                    if timed:
                        self._queue.timed(self._queue.group_of(index), time.perf_counter() - start)
        except BaseException as exc:  # noqa: BLE001 - raise_failure raises it in the calling thread
            self._failure = exc
            self._queue.clear()

    def raise_failure(self):
        if self._failure is not None:
            raise self._failure


def _worker_ready():
    """A task that does nothing: when it returns, a worker of the pool is up, with this module imported."""
    return []


def _fit_in_pool(queue, one_fit, keep, X, y, losses, n_jobs, n_workers, verbose):
    """Hand tasks to joblib's pool one by one, n_workers - 1 at a time, until only cheap fits are left.

    The first n_workers - 1 tasks do nothing: a fit is handed over only when
    one of them has returned, so that no fit waits in a pool whose worker
    processes are still starting while this process could run it.
    """
    with _shared_with_workers(X, n_workers) as shared_X:
        def pool_fits():
            for _ in range(n_workers - 1):
                yield delayed(_worker_ready)()
            while (indices := queue.take_for_pool()) is not None:
                yield delayed(_fit_batch)(shared_X, y, [one_fit(index) for index in indices], *losses)

        try:
            pool = Parallel(n_jobs=n_jobs, verbose=verbose, batch_size=1, pre_dispatch=n_workers - 1,
                            return_as="generator_unordered")
        except ValueError:
            # A backend that cannot return results as they come (joblib's
            # "multiprocessing"): the pool's fits go in one call.
            pool = Parallel(n_jobs=n_jobs, verbose=verbose, batch_size=1)
        try:
            for outputs in pool(pool_fits()):
                for index, output in outputs:
                    keep(index, output)
        except BaseException:
            queue.clear()
            raise
        _pools_used[backend_name(), n_workers] = time.monotonic()
