"""The worker pool: where fits run (cheap ones here, heavy ones in the pool), and that it never changes results."""

import os
import threading
import time

import joblib
import numpy as np
import pytest
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.datasets import load_iris, make_classification
from sklearn.model_selection import cross_val_predict
from sklearn.naive_bayes import GaussianNB
from sklearn.tree import DecisionTreeClassifier
from threadpoolctl import threadpool_info, threadpool_limits

import cvinference as cvi
from cvinference.evaluation import _scheduler
from cvinference.evaluation._native_threads import _lowered_to, native_threads_limit
from cvinference.evaluation._scheduler import _Queue


@pytest.fixture(scope="module")
def iris():
    return load_iris(return_X_y=True)


class _RecordsThreads(ClassifierMixin, BaseEstimator):
    """Records whether each fit ran in this process (the caller's thread or its thread for fits).

    A fit takes ``main_seconds`` there and ``pool_seconds`` in the pool.
    """

    log = []

    def __init__(self, main_seconds=0.0, pool_seconds=0.0):
        self.main_seconds = main_seconds
        self.pool_seconds = pool_seconds

    def fit(self, X, y):
        here = threading.current_thread().name in ("cvinference-fits-here", "MainThread")
        time.sleep(self.main_seconds if here else self.pool_seconds)
        type(self).log.append(here)
        self.classes_ = np.unique(y)
        return self

    def predict(self, X):
        return np.full(len(X), self.classes_[0])


@pytest.fixture
def records_threads():
    _RecordsThreads.log = []
    return _RecordsThreads


class _SteadyClock:
    """A ``time`` whose perf_counter advances 0.1 ms a call: every fit the scheduler times is cheap, however loaded
    the machine (the test observes where fits run, never how fast)."""

    monotonic = staticmethod(time.monotonic)

    def __init__(self):
        self.now = 0.0

    def perf_counter(self):
        self.now += 1e-4
        return self.now


def test_cheap_fits_stay_in_this_process_and_start_no_pool(iris, records_threads, monkeypatch):
    from cvinference.evaluation import _scheduler

    monkeypatch.setattr(_scheduler, "time", _SteadyClock())
    X, y = iris
    with joblib.parallel_config(backend="threading", n_jobs=2):
        cvi.cross_val_correctness(records_threads(), X, y, cv=10, n_repeats=4, random_state=0,
                                  cheap_fit_seconds=1.0)
    assert records_threads.log == [True] * 40


@pytest.mark.parametrize("fit_seconds, cheap_fit_seconds, n_repeats, each_side", [
    (0.02, 0.001, 2, 3),   # heavy fits of 20 ms go to the pool one by one
    (0.004, 1.0, 10, 10),  # 100 cheap fits of 4 ms: 0.4 s of work, worth batching to a running pool (threads)
])
def test_the_work_is_shared_between_this_process_and_the_pool(iris, records_threads, fit_seconds, cheap_fit_seconds,
                                                               n_repeats, each_side):
    X, y = iris
    estimator = records_threads(main_seconds=fit_seconds, pool_seconds=fit_seconds)
    with joblib.parallel_config(backend="threading", n_jobs=2):
        cvi.cross_val_correctness(estimator, X, y, cv=10, n_repeats=n_repeats, random_state=0,
                                  cheap_fit_seconds=cheap_fit_seconds)
    log = records_threads.log
    assert len(log) == 10 * n_repeats
    assert log.count(True) >= each_side and log.count(False) >= each_side


def test_an_infinite_threshold_keeps_every_fit_here_however_many(iris, records_threads):
    X, y = iris
    estimator = records_threads(main_seconds=0.004, pool_seconds=0.004)
    with joblib.parallel_config(backend="threading", n_jobs=2):
        cvi.cross_val_correctness(estimator, X, y, cv=10, n_repeats=5, random_state=0,
                                  cheap_fit_seconds=float("inf"))
    assert records_threads.log == [True] * 50


@pytest.mark.parametrize("fits, fit_seconds, start_seconds, needed", [
    # A running pool: 9 x 2 ms = 18 ms stay here, 10 x 2 ms = 20 ms are worth a batch.
    (9, 0.002, 0.0, False), (10, 0.002, 0.0, True),
    # A pool that must start (1 s): its share with 2 workers is half, 499 x 4 ms / 2 = 0.998 s does not outlast
    # the start, 501 x 4 ms / 2 = 1.002 s does.
    (499, 0.004, 1.0, False), (501, 0.004, 1.0, True),
])
def test_the_pool_is_needed_for_cheap_fits_only_when_they_are_worth_it(fits, fit_seconds, start_seconds, needed):
    queue = _Queue(groups=[0] * (fits + 1), cheap_fit_seconds=0.05, n_workers=2, start_seconds=start_seconds)
    assert queue.take_here() == (0, True)   # the pilot; ``fits`` are left
    queue.timed(0, fit_seconds)
    assert queue.wait_until_the_pool_is_needed() is needed


def test_with_one_job_every_fit_runs_here(iris, records_threads):
    X, y = iris
    cvi.cross_val_correctness(records_threads(), X, y, cv=5, random_state=0, cheap_fit_seconds=0.0)
    assert records_threads.log == [True] * 5


class _RecordsBlasThreads(ClassifierMixin, BaseEstimator):
    """Records, for each fit in this process's thread for fits, the BLAS thread count it ran with."""

    log = []

    def fit(self, X, y):
        if threading.current_thread().name == "cvinference-fits-here":
            type(self).log.append(_blas_threads())
        time.sleep(0.01)
        self.classes_ = np.unique(y)
        return self

    def predict(self, X):
        return np.full(len(X), self.classes_[0])


def _blas_threads():
    return [info["num_threads"] for info in threadpool_info() if info["user_api"] == "blas"]


def _threads_of_fits_here(iris, **config):
    """The BLAS thread counts of each fit here after the first, under ``joblib.parallel_config(**config)``."""
    X, y = iris
    _RecordsBlasThreads.log = []
    with joblib.parallel_config(n_jobs=2, **config):
        cvi.cross_val_correctness(_RecordsBlasThreads(), X, y, cv=10, n_repeats=2, random_state=0,
                                  cheap_fit_seconds=0.0)
    # The first fit here may start before the pool does.
    later = _RecordsBlasThreads.log[1:]
    assert later, "no fit ran in this process after the first"
    return later


@pytest.fixture
def blas_threads():
    before = _blas_threads()
    if not before:
        pytest.skip("numpy is linked to no BLAS that threadpoolctl can see")
    yield before
    assert _blas_threads() == before, "the thread limit was not lifted"


def test_fits_here_get_the_threads_of_a_loky_worker(iris, blas_threads):
    # joblib gives each loky worker cpu_count() // n_jobs threads.
    expected = [min(min(blas_threads), max(joblib.cpu_count() // 2, 1))] * len(blas_threads)
    assert all(threads == expected for threads in _threads_of_fits_here(iris, backend="loky"))


@pytest.mark.slow
def test_fits_here_follow_loky_inner_max_num_threads(iris, blas_threads):
    most = max(blas_threads)
    expected = [min(min(blas_threads), most)] * len(blas_threads)
    later = _threads_of_fits_here(iris, backend="loky", inner_max_num_threads=most)
    assert all(threads == expected for threads in later)


def test_the_limit_never_raises_a_thread_pool(blas_threads):
    with threadpool_limits(limits=1, user_api="blas"):
        limits = _lowered_to(max(blas_threads) + 1)
    assert limits["blas"] == 1
    assert all(limits[info["user_api"]] <= info["num_threads"] for info in threadpool_info())


def test_fits_here_keep_their_threads_beside_a_thread_pool(iris, blas_threads):
    # joblib does not limit the threads of its threading backend.
    assert all(threads == blas_threads for threads in _threads_of_fits_here(iris, backend="threading"))


def test_overlapping_holders_of_the_thread_limit_lift_it_once_the_last_lets_go(blas_threads):
    first, second = native_threads_limit.held(1), native_threads_limit.held(1)
    first.__enter__()
    second.__enter__()
    first.__exit__(None, None, None)
    assert _blas_threads() == [1] * len(blas_threads)
    second.__exit__(None, None, None)
    assert _blas_threads() == blas_threads


def test_the_queue_gives_the_pool_no_cheap_fits_and_the_slowest_first():
    queue = _Queue(groups=[0, 0, 0, 1, 1, 1, 2, 2, 2], cheap_fit_seconds=0.01, n_workers=2)
    assert queue.take_here() == (0, True)     # first fit of estimator 0, to be timed here
    assert queue.take_for_pool() == [1]       # untimed estimators may go to the pool meanwhile
    assert queue.take_here() == (3, True)     # estimator 1 is timed next
    queue.timed(0, 0.001)                     # cheap
    queue.timed(1, 0.5)                       # slow
    assert queue.take_here() == (6, True)
    queue.timed(2, 0.05)
    assert [queue.take_for_pool() for _ in range(4)] == [[4], [5], [7], [8]]   # slowest estimator first
    assert queue.take_for_pool() is None      # only cheap fits are left
    assert queue.take_here() == (2, False)
    assert queue.take_here() == (None, False)


def test_cheap_fits_go_to_the_pool_in_batches_of_about_batch_seconds_after_the_heavy_ones():
    # Estimator 0: 1 heavy fit of 1 s left; estimator 1: 199 cheap fits of 2 ms left (0.398 s), estimator 2:
    # 9 of 1 ms (0.009 s). Batches of 0.1 s / 2 ms = 50 fits, capped at a quarter of the fits left (2 workers).
    queue = _Queue(groups=[0, 0] + [1] * 200 + [2] * 10, cheap_fit_seconds=0.01, n_workers=2)
    assert queue.take_here() == (0, True)
    queue.timed(0, 1.0)
    assert queue.take_here() == (2, True)
    queue.timed(1, 0.002)
    assert queue.take_here() == (202, True)
    queue.timed(2, 0.001)
    assert queue.take_for_pool() == [1]                       # the heavy fit first
    assert queue.take_for_pool() == list(range(3, 53))        # 50 fits: 0.1 s, under a quarter of 199
    assert len(queue.take_for_pool()) == 38                   # a quarter of the 149 left, rounded up
    while len(queue._pending.get(1, ())) * 0.002 + 0.009 >= _scheduler.MIN_CHEAP_POOL_SECONDS:
        assert queue.take_for_pool() is not None
    assert queue.take_for_pool() is None                      # under 20 ms of cheap work: this process's


def test_this_process_keeps_its_cheap_fits_for_last_when_they_are_less_than_its_share():
    # After the pilots and one fit for the pool, 2 heavy fits of 1 s and 3
    # cheap ones of 1 ms are left for 2 workers: heavy first here too, and
    # the cheap ones fill the end.
    queue = _Queue(groups=[0, 0, 0, 0, 1, 1, 1, 1], cheap_fit_seconds=0.01, n_workers=2)
    assert queue.take_here() == (0, True)
    queue.timed(0, 1.0)
    assert queue.take_here() == (4, True)
    queue.timed(1, 0.001)
    assert queue.take_for_pool() == [1]
    assert [queue.take_here() for _ in range(3)] == [(2, False), (3, False), (5, False)]
    assert queue.take_for_pool() is None


@pytest.mark.parametrize("fit_seconds, needed", [(0.5, False), (0.6, True)])
def test_a_pool_that_must_start_is_started_only_for_fits_that_outlast_its_start(fit_seconds, needed):
    # 10 fits; after the pilot, 9 are left: 9 x 0.5 s = 4.5 s < 5 s of start, 9 x 0.6 s = 5.4 s >= 5 s.
    queue = _Queue(groups=[0] * 10, cheap_fit_seconds=0.05, n_workers=2, start_seconds=5.0)
    assert queue.take_here() == (0, True)
    queue.timed(0, fit_seconds)
    assert queue.wait_until_the_pool_is_needed() is needed


def test_while_the_first_fit_runs_the_pool_waits_for_enough_work_to_outlast_its_start():
    queue = _Queue(groups=[0] * 3, cheap_fit_seconds=0.0, n_workers=2, start_seconds=3600.0)
    assert queue.take_here() == (0, True)
    assert queue._pool_is_needed() == _scheduler._RECHECK_SECONDS   # 2 fits left, not yet an hour of work
    running = _Queue(groups=[0] * 3, cheap_fit_seconds=0.0, n_workers=2, start_seconds=0.0)
    assert running.take_here() == (0, True)
    assert running._pool_is_needed() is True


@pytest.mark.slow
def test_a_loky_pool_that_scikit_learn_started_counts_as_running(iris, monkeypatch):
    monkeypatch.setattr(_scheduler, "_pools_used", {})
    X, y = iris
    with joblib.parallel_config(backend="loky"):
        cross_val_predict(GaussianNB(), X, y, cv=4, n_jobs=2)
        assert _scheduler.loky_workers_alive() >= 2
        assert _scheduler.pool_start_seconds(2) == 0.0


def test_only_a_cold_process_pool_has_a_start_to_weigh(monkeypatch):
    monkeypatch.setattr(_scheduler, "_pools_used", {})
    monkeypatch.setattr(_scheduler, "loky_workers_alive", lambda: 0)
    monkeypatch.setattr(_scheduler, "_STARTUP_CPU_SECONDS", 2.0)
    monkeypatch.setattr(_scheduler.os, "cpu_count", lambda: 5)
    with joblib.parallel_config(backend="threading"):
        assert _scheduler.pool_start_seconds(4) == 0.0
    with joblib.parallel_config(backend="loky"):
        assert _scheduler.pool_start_seconds(4) == 2.0   # 4 workers x 2 s on the 4 cores left to them
        _scheduler._pools_used["LokyBackend", 4] = time.monotonic()
        assert _scheduler.pool_start_seconds(4) == 0.0   # running: used a moment ago
        assert _scheduler.pool_start_seconds(2) == 1.0   # another size starts afresh
        _scheduler._pools_used["LokyBackend", 4] = time.monotonic() - 600
        assert _scheduler.pool_start_seconds(4) == 2.0   # loky has stopped its idle workers by now


@pytest.mark.parametrize("n_workers, cheap_seconds, first_here", [
    (2, 0.25, 3),    # 49 x 0.25 s = 12.25 s cheap, 12.25 s heavy: exactly half, so cheap first
    (2, 0.24, 1),    # 11.76 s cheap: less than half of 24.01 s, so the heavy fit first
    (3, 0.125, 3),   # 6.125 s cheap: exactly a third of 18.375 s
    (3, 0.12, 1),    # 5.88 s cheap: less than a third of 18.13 s
])
def test_this_process_takes_cheap_fits_first_when_they_are_at_least_its_share(n_workers, cheap_seconds, first_here):
    # Fits 0 and 2 are the pilots; one heavy fit of 12.25 s (index 1) and 49 cheap ones are left.
    queue = _Queue(groups=[0, 0] + [1] * 50, cheap_fit_seconds=1.0, n_workers=n_workers)
    assert queue.take_here() == (0, True)
    queue.timed(0, 12.25)
    assert queue.take_here() == (2, True)
    queue.timed(1, cheap_seconds)
    assert queue.take_here() == (first_here, False)


@pytest.mark.parametrize("cheap_fit_seconds", [0.0, 0.01, float("inf")])
@pytest.mark.parametrize("backend", ["loky", "threading"])
def test_where_fits_run_never_changes_the_result(iris, backend, cheap_fit_seconds):
    X, y = iris
    evaluator = cvi.CVEvaluator(5, n_repeats=2, random_state=3, cheap_fit_seconds=cheap_fit_seconds)
    reference = cvi.CVEvaluator(5, n_repeats=2, random_state=3, n_jobs=1).compare(
        DecisionTreeClassifier(random_state=0), GaussianNB(), X, y)
    with joblib.parallel_config(backend=backend, n_jobs=2):
        pair = evaluator.compare(DecisionTreeClassifier(random_state=0), GaussianNB(), X, y)
    assert pair.to_dict() == reference.to_dict()


def test_a_large_array_is_shared_through_a_file_that_is_removed_afterwards(tmp_path, monkeypatch):
    monkeypatch.setenv("JOBLIB_TEMP_FOLDER", str(tmp_path))
    X, y = make_classification(8000, 20, random_state=0)   # 1.28 MB: above joblib's 1 MB memmap threshold
    folds = cvi.CVEvaluator(4, random_state=0).evaluate(GaussianNB(), X, y).fold[0]
    result = cvi.cross_val_correctness(GaussianNB(), X, y, cv=4, random_state=0, n_jobs=2, cheap_fit_seconds=0.0)
    expected = cross_val_predict(GaussianNB(), X, y, cv=[(np.flatnonzero(folds != j), np.flatnonzero(folds == j))
                                                           for j in range(4)])
    np.testing.assert_array_equal(result.y_pred[0], expected)
    assert not [name for name in os.listdir(tmp_path) if name.startswith("cvinference_")]


class _FailsOnOddTrainingSets(ClassifierMixin, BaseEstimator):
    """Fails when its training set has an odd number of rows."""

    def fit(self, X, y):
        if len(X) % 2:
            raise ValueError("odd training set")
        self.classes_ = np.unique(y)
        return self

    def predict(self, X):
        return np.full(len(X), self.classes_[0])


@pytest.mark.parametrize("cheap_fit_seconds", [0.0, float("inf")])
def test_a_fit_failing_in_the_pool_or_here_names_its_fold(cheap_fit_seconds):
    X, y = make_classification(41, 4, random_state=0)   # 5 folds of 9, 8, 8, 8, 8: training sets of 32 and 33
    with pytest.raises(ValueError, match="odd training set") as info:
        cvi.cross_val_correctness(_FailsOnOddTrainingSets(), X, y, cv=5, random_state=0, n_jobs=2,
                                  cheap_fit_seconds=cheap_fit_seconds)
    context = "\n".join(getattr(info.value, "__notes__", [])) + str(info.value)
    assert "fitting estimator failed on fold" in context and "(33 training, 8 test instances)" in context


@pytest.mark.parametrize("value, error, match", [
    (-1, ValueError, r"cheap_fit_seconds must be a number of seconds >= 0; got cheap_fit_seconds=-1"),
    ("fast", TypeError, r"got cheap_fit_seconds='fast'"),
    (float("nan"), ValueError, r"got cheap_fit_seconds=nan"),
    (True, TypeError, r"got cheap_fit_seconds=True"),
])
def test_bad_cheap_fit_seconds_is_refused(value, error, match):
    X, y = load_iris(return_X_y=True)
    with pytest.raises(error, match=match):
        cvi.CVEvaluator(5, cheap_fit_seconds=value).evaluate(GaussianNB(), X, y)


def test_bad_fast_loo_is_refused():
    X, y = load_iris(return_X_y=True)
    with pytest.raises(TypeError, match=r"fast_loo must be True or False; got fast_loo='yes'"):
        cvi.CVEvaluator("loo", fast_loo="yes").evaluate(GaussianNB(), X, y)
