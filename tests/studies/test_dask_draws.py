"""Studies on a Dask cluster: one task per draw, the population sent once, results identical to one process."""

import json

import joblib
import numpy as np
import pytest
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.datasets import make_classification
from sklearn.naive_bayes import GaussianNB
from sklearn.tree import DecisionTreeClassifier

import cvinference as cvi

distributed = pytest.importorskip("distributed")

X, Y = make_classification(1000, 4, n_informative=2, n_redundant=0, random_state=0)
N_DRAWS = 5
TREE = DecisionTreeClassifier(max_depth=3, random_state=0)

STUDIES = {
    "conditional_error_study": lambda **run: cvi.conditional_error_study(
        GaussianNB(), X, Y, sample_size=40, cv=3, max_repeats=2, **run),
    "winner_table": lambda **run: cvi.winner_table(GaussianNB(), TREE, X, Y, sample_size=40, cv=3, **run),
    "precision_study": lambda **run: cvi.precision_study(GaussianNB(), X, Y, sample_size=40, folds=(2, 3), **run),
    "fold_size_study": lambda **run: cvi.fold_size_study(GaussianNB(), X, Y, sample_size=40, n_splits=3, **run),
}


@pytest.fixture(scope="module")
def client():
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=False,
                                  dashboard_address=None) as cluster, distributed.Client(cluster) as client:
        yield client


def _draw_tasks(client):
    """The keys of every draw task the workers have run (the transitions in their logs)."""
    def run(dask_worker):
        return sorted({str(entry[0]) for entry in dask_worker.state.log if str(entry[0]).startswith("_run_items")})
    return {key for keys in client.run(run).values() for key in keys}


@pytest.mark.parametrize("study", list(STUDIES))
def test_a_study_on_a_cluster_equals_the_study_in_one_process(client, study):
    here = STUDIES[study](n_draws=N_DRAWS, random_state=0, n_jobs=1)
    before = _draw_tasks(client)
    with joblib.parallel_config(backend="dask"):
        there = STUDIES[study](n_draws=N_DRAWS, random_state=0)
    assert there.to_dict() == here.to_dict()
    # Draws, not fits, are the tasks: one each here, where the first tasks outnumber the draws (per number
    # of folds for precision_study, which plans each K apart).
    parts = 2 if study == "precision_study" else 1
    assert len(_draw_tasks(client) - before) == N_DRAWS * parts


def test_the_checkpoint_holds_every_draw_as_it_finishes_and_a_rerun_fits_nothing(client, tmp_path):
    checkpoint = tmp_path / "study.json"
    with joblib.parallel_config(backend="dask"):
        first = STUDIES["conditional_error_study"](n_draws=N_DRAWS, random_state=0, checkpoint=checkpoint)
    assert sorted(json.loads(checkpoint.read_text())["draws"]) == [str(draw) for draw in range(N_DRAWS)]
    before = _draw_tasks(client)
    with joblib.parallel_config(backend="dask"):
        again = STUDIES["conditional_error_study"](n_draws=N_DRAWS, random_state=0, checkpoint=checkpoint)
    assert _draw_tasks(client) == before
    assert again.to_dict() == first.to_dict()


def test_more_draws_than_the_submission_window_in_tasks_of_several_draws(client, monkeypatch):
    from cvinference._utils import _cluster
    monkeypatch.setattr(_cluster, "TASKS_PER_THREAD", 1)  # 2 tasks in flight
    monkeypatch.setattr(_cluster, "TASK_SECONDS", 60.0)   # once timed, tasks as large as the end allows
    n_draws = 30
    here = STUDIES["conditional_error_study"](n_draws=n_draws, random_state=1, n_jobs=1)
    before = _draw_tasks(client)
    with joblib.parallel_config(backend="dask"):
        there = STUDIES["conditional_error_study"](n_draws=n_draws, random_state=1)
    assert there.to_dict() == here.to_dict()
    assert 2 < len(_draw_tasks(client) - before) < n_draws


def test_a_task_holds_about_task_seconds_of_draws_and_leaves_two_per_thread_for_the_end():
    from cvinference._utils._cluster import TASK_SECONDS, _TaskSizes
    sizes = _TaskSizes(threads=4)
    assert sizes.next(1000) == 1                       # nothing timed yet
    sizes.timed(4, 0.4 * TASK_SECONDS)                 # a tenth of TASK_SECONDS a draw
    assert sizes.next(1000) == 10
    assert sizes.next(40) == 5                         # 40 left: 5 a task leaves 2 tasks per thread
    assert sizes.next(3) == 1
    sizes.timed(1, 100 * TASK_SECONDS)                 # slow draws: one a task
    assert sizes.next(1000) == 1


class _FailsOnSmallSamples(ClassifierMixin, BaseEstimator):
    def fit(self, X, y):
        if len(y) < 40:
            raise ArithmeticError("too few rows")
        self.classes_ = np.unique(y)
        return self

    def predict(self, X):
        return np.full(len(X), self.classes_[0])


def test_a_failing_fit_on_a_worker_is_raised_here_with_where_it_happened(client):
    with joblib.parallel_config(backend="dask"), pytest.raises(ArithmeticError, match=r"too few rows(.|\n)*of draw \d"):
        cvi.conditional_error_study(_FailsOnSmallSamples(), X, Y, sample_size=40, n_draws=N_DRAWS, cv=3,
                                    max_repeats=1, random_state=0)
