"""The evaluator: equality with cross_val_predict, parallel reproducibility, inputs, errors."""

import warnings

import joblib
import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.datasets import load_breast_cancer, load_iris, make_classification, make_regression
from sklearn.exceptions import NotFittedError
from sklearn.linear_model import LinearRegression, LogisticRegression
from sklearn.model_selection import (
    GridSearchCV,
    GroupKFold,
    KFold,
    PredefinedSplit,
    RepeatedKFold,
    RepeatedStratifiedKFold,
    ShuffleSplit,
    StratifiedKFold,
    TimeSeriesSplit,
    cross_val_predict,
)
from sklearn.naive_bayes import GaussianNB
from sklearn.neighbors import KNeighborsClassifier
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.tree import DecisionTreeClassifier
from sklearn.utils.validation import check_is_fitted

import cvinference as cvi


@pytest.fixture(scope="module")
def iris():
    return load_iris(return_X_y=True)


@pytest.fixture(scope="module")
def cancer():
    return load_breast_cancer(return_X_y=True)


TREE = DecisionTreeClassifier(random_state=0)


@pytest.mark.parametrize(
    "estimator",
    [TREE, GaussianNB(), KNeighborsClassifier(3), make_pipeline(StandardScaler(), LogisticRegression())],
    ids=["tree", "nb", "knn", "pipeline"],
)
@pytest.mark.slow
def test_predictions_equal_cross_val_predict_on_the_same_splits(cancer, estimator):
    X, y = cancer
    cv = cvi.StratifiedEqualSizeKFold(10, random_state=3)
    result = cvi.cross_val_correctness(estimator, X, y, cv=cv)
    expected = cross_val_predict(estimator, X, y, cv=cv)
    np.testing.assert_array_equal(result.y_pred[0], expected)
    np.testing.assert_array_equal(result.correct[0], expected == y)
    # The recorded fold array reproduces the partition through sklearn's PredefinedSplit.
    again = cross_val_predict(estimator, X, y, cv=PredefinedSplit(result.fold[0]))
    np.testing.assert_array_equal(result.y_pred[0], again)


def test_every_repeat_equals_cross_val_predict_on_its_partition(iris):
    X, y = iris
    result = cvi.cross_val_correctness(TREE, X, y, cv=5, n_repeats=3, random_state=0)
    for r in range(3):
        expected = cross_val_predict(TREE, X, y, cv=PredefinedSplit(result.fold[r]))
        np.testing.assert_array_equal(result.y_pred[r], expected)


def test_loo_equals_cross_val_predict_with_sklearn_leave_one_out(iris):
    X, y = iris[0][::3], iris[1][::3]
    result = cvi.cross_val_correctness(KNeighborsClassifier(5), X, y, cv="loo")
    from sklearn.model_selection import LeaveOneOut as SkLeaveOneOut

    expected = cross_val_predict(KNeighborsClassifier(5), X, y, cv=SkLeaveOneOut())
    np.testing.assert_array_equal(result.y_pred[0], expected)
    assert result.is_loo and result.n_splits == len(y)
    np.testing.assert_array_equal(result.fold_sizes, np.ones((1, len(y))))


def _tied_data():
    """Integer features with many distance ties and duplicate rows, three classes."""
    rng = np.random.default_rng(0)
    X = rng.integers(0, 3, size=(60, 3)).astype(float)
    X = np.vstack([X, X[:10]])
    y = np.array(["a", "b", "c"])[rng.integers(0, 3, size=len(X))]
    return X, y


@pytest.mark.parametrize("estimator", [KNeighborsClassifier(4), KNeighborsClassifier(3, weights="distance"),
                                       GaussianNB(), GaussianNB(var_smoothing=0.1)], ids=repr)
@pytest.mark.parametrize("loss", ["zero_one", "log_loss"])
def test_fast_loo_equals_the_refits_in_the_evaluator(estimator, loss):
    X, y = _tied_data()
    fast = cvi.cross_val_correctness(estimator, X, y, cv="loo", loss=loss)
    refits = cvi.cross_val_correctness(estimator, X, y, cv="loo", loss=loss, fast_loo=False)
    from sklearn.model_selection import LeaveOneOut as SkLeaveOneOut

    np.testing.assert_array_equal(fast.y_pred[0], cross_val_predict(estimator, X, y, cv=SkLeaveOneOut()))
    np.testing.assert_array_equal(fast.y_pred, refits.y_pred)
    np.testing.assert_allclose(fast.loss, refits.loss, rtol=1e-9)
    assert fast.fold.tolist() == refits.fold.tolist() and fast.cv_repr == refits.cv_repr == "LeaveOneOut()"


def test_fast_loo_is_used_only_where_it_applies(iris, monkeypatch):
    X, y = iris[0][::3], iris[1][::3]
    calls = []
    from cvinference.evaluation import _evaluator as _evaluate

    real = _evaluate.fast_loo_predictions
    monkeypatch.setattr(_evaluate, "fast_loo_predictions", lambda *a, **k: calls.append(a[0]) or real(*a, **k))
    pipeline = make_pipeline(StandardScaler(), KNeighborsClassifier(5))
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # the pipeline falls back to refits silently
        pair = cvi.CVEvaluator("loo").compare(pipeline, GaussianNB(), X, y)
    from sklearn.model_selection import LeaveOneOut as SkLeaveOneOut

    np.testing.assert_array_equal(pair.a.y_pred[0], cross_val_predict(pipeline, X, y, cv=SkLeaveOneOut()))
    assert [type(c).__name__ for c in calls] == ["Pipeline", "GaussianNB"]
    calls.clear()
    cvi.CVEvaluator("loo", fast_loo=False).evaluate(GaussianNB(), X, y)
    cvi.CVEvaluator(5, random_state=0).evaluate(GaussianNB(), X, y)
    assert calls == []


@pytest.mark.parametrize("n_jobs", [2, -1])
def test_identical_results_for_any_n_jobs(cancer, n_jobs):
    X, y = cancer
    evaluator_1 = cvi.CVEvaluator(5, n_repeats=2, n_jobs=1, random_state=7)
    evaluator_n = cvi.CVEvaluator(5, n_repeats=2, n_jobs=n_jobs, random_state=7)
    a = evaluator_1.compare(TREE, GaussianNB(), X, y)
    b = evaluator_n.compare(TREE, GaussianNB(), X, y)
    assert a.to_dict() == b.to_dict()


@pytest.mark.parametrize("backend", ["loky", "threading", "multiprocessing"])
def test_identical_results_for_any_joblib_backend(iris, backend):
    X, y = iris
    reference = cvi.cross_val_correctness(TREE, X, y, cv=5, n_repeats=2, random_state=1, n_jobs=1)
    with joblib.parallel_config(backend=backend, n_jobs=2):
        result = cvi.cross_val_correctness(TREE, X, y, cv=5, n_repeats=2, random_state=1)
    assert result.to_dict() == reference.to_dict()


def test_identical_results_on_a_dask_cluster(iris):
    distributed = pytest.importorskip("distributed")
    X, y = iris
    reference = cvi.CVEvaluator(5, n_repeats=2, random_state=1, n_jobs=1).compare(TREE, GaussianNB(), X, y)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=False,
                                  dashboard_address=None) as cluster, distributed.Client(cluster) as client:
        with joblib.parallel_config(backend="dask"):
            # every fit goes to the cluster as futures, whatever cheap_fit_seconds says
            on_cluster = cvi.CVEvaluator(5, n_repeats=2, random_state=1, cheap_fit_seconds=0.0).compare(
                TREE, GaussianNB(), X, y)
            default = cvi.CVEvaluator(5, n_repeats=2, random_state=1).compare(TREE, GaussianNB(), X, y)
        tasks_run = sum(len(log) for log in client.run(lambda dask_worker: list(dask_worker.state.log)).values())
    assert on_cluster.to_dict() == reference.to_dict()
    assert default.to_dict() == reference.to_dict()
    assert tasks_run > 0


def test_on_a_dask_cluster_every_fit_takes_the_futures_path_with_the_data_sent_once(iris, monkeypatch, capsys):
    distributed = pytest.importorskip("distributed")
    from cvinference.evaluation import _scheduler

    calls = []
    real = _scheduler.run_on_cluster

    def spy(client, function, shared, items, receive):
        calls.append((len(shared), len(items)))
        return real(client, function, shared, items, receive)

    monkeypatch.setattr(_scheduler, "run_on_cluster", spy)
    X, y = iris
    reference = cvi.CVEvaluator(5, n_repeats=2, random_state=1, n_jobs=1).evaluate(TREE, X, y)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=False,
                                  dashboard_address=None) as cluster, distributed.Client(cluster):
        with joblib.parallel_config(backend="dask"):
            on_cluster = cvi.CVEvaluator(5, n_repeats=2, random_state=1, verbose=1).evaluate(TREE, X, y)
    assert calls == [(4, 10)]   # X, y, the fits' plan and the losses, once; the 10 fits as items
    assert capsys.readouterr().err.splitlines()[-1].startswith("fits 10/10, ")   # each fit counted as it returns
    assert on_cluster.to_dict() == reference.to_dict()


def test_splits_that_are_not_complements_are_kept_as_given(iris):
    X, y = iris
    order = np.random.default_rng(0).permutation(len(y))
    tests = np.array_split(order, 5)
    # Each training set leaves out one instance besides the test fold, and test indices are unsorted.
    splits = [(np.setdiff1d(np.arange(len(y)), np.concatenate([test, tests[(j + 1) % 5][:1]])), test)
              for j, test in enumerate(tests)]
    result = cvi.cross_val_correctness(TREE, X, y, cv=splits)
    np.testing.assert_array_equal(result.y_pred[0], cross_val_predict(TREE, X, y, cv=splits))


def test_same_random_state_same_result_and_different_seed_different_partition(iris):
    X, y = iris
    first = cvi.cross_val_correctness(TREE, X, y, random_state=0)
    second = cvi.cross_val_correctness(TREE, X, y, random_state=0)
    other = cvi.cross_val_correctness(TREE, X, y, random_state=1)
    assert first.to_dict() == second.to_dict()
    assert not np.array_equal(first.fold, other.fold)


def test_repeats_draw_new_partitions_and_extend_a_shorter_run(iris):
    X, y = iris
    three = cvi.cross_val_correctness(TREE, X, y, cv=5, n_repeats=3, random_state=0)
    one = cvi.cross_val_correctness(TREE, X, y, cv=5, n_repeats=1, random_state=0)
    assert three.fold.shape == (3, 150)
    assert not np.array_equal(three.fold[0], three.fold[1])
    assert not np.array_equal(three.fold[1], three.fold[2])
    np.testing.assert_array_equal(three.fold[:1], one.fold)


def test_repeats_of_a_shuffling_sklearn_splitter(iris):
    X, y = iris
    result = cvi.cross_val_correctness(TREE, X, y, cv=KFold(5, shuffle=True), n_repeats=2, random_state=0)
    again = cvi.cross_val_correctness(TREE, X, y, cv=KFold(5, shuffle=True), n_repeats=2, random_state=0)
    assert not np.array_equal(result.fold[0], result.fold[1])
    np.testing.assert_array_equal(result.fold, again.fold)


def test_compare_uses_identical_folds_in_every_repeat(iris):
    X, y = iris
    pair = cvi.CVEvaluator(5, n_repeats=3, random_state=0).compare(TREE, GaussianNB(), X, y)
    np.testing.assert_array_equal(pair.a.fold, pair.b.fold)
    for r in range(3):
        for estimator, result in ((TREE, pair.a), (GaussianNB(), pair.b)):
            expected = cross_val_predict(estimator, X, y, cv=PredefinedSplit(pair.a.fold[r]))
            np.testing.assert_array_equal(result.y_pred[r], expected)


def test_callers_estimators_are_never_fitted(iris):
    X, y = iris
    a, b = DecisionTreeClassifier(random_state=0), GaussianNB()
    cvi.CVEvaluator(3, random_state=0).compare(a, b, X, y)
    cvi.cross_val_correctness(a, X, y, cv=3)
    for estimator in (a, b):
        with pytest.raises(NotFittedError):
            check_is_fitted(estimator)


def test_int_cv_stratifies_for_classifiers(iris):
    X, y = iris
    result = cvi.cross_val_correctness(TREE, X, y, cv=7, random_state=0)
    for label in np.unique(y):
        per_fold = np.bincount(result.fold[0][y == label], minlength=7)
        assert per_fold.max() - per_fold.min() <= 1
    assert result.fold_sizes.max() - result.fold_sizes.min() <= 1
    assert "StratifiedEqualSizeKFold" in result.cv_repr


def test_int_cv_uses_equal_size_kfold_for_regressors():
    X, y = make_regression(103, 3, random_state=0)
    result = cvi.cross_val_correctness(LinearRegression(), X, y, cv=10, loss="squared_error", random_state=0)
    np.testing.assert_array_equal(result.fold_sizes[0], [11, 11, 11] + [10] * 7)
    assert result.cv_repr.startswith("EqualSizeKFold")
    expected = cross_val_predict(LinearRegression(), X, y, cv=PredefinedSplit(result.fold[0]))
    np.testing.assert_allclose(result.loss[0], (expected - y) ** 2)
    assert result.classes is None


@pytest.mark.parametrize("cv", [KFold(5), StratifiedKFold(4, shuffle=True, random_state=0),
                                PredefinedSplit(np.arange(150) % 3)], ids=repr)
def test_sklearn_splitters_are_used_as_given(iris, cv):
    X, y = iris
    result = cvi.cross_val_correctness(TREE, X, y, cv=cv)
    splits = list(cv.split(X, y))
    for j, (_, test) in enumerate(splits):
        assert (result.fold[0][test] == j).all()
    np.testing.assert_array_equal(result.y_pred[0], cross_val_predict(TREE, X, y, cv=cv))


def test_group_kfold_keeps_groups_together(iris):
    X, y = iris
    groups = np.arange(150) // 10
    result = cvi.cross_val_correctness(TREE, X, y, cv=GroupKFold(5), groups=groups)
    for group in np.unique(groups):
        assert np.unique(result.fold[0][groups == group]).size == 1


def test_an_iterable_of_splits_is_accepted(iris):
    X, y = iris
    splits = list(KFold(3).split(X))
    result = cvi.cross_val_correctness(TREE, X, y, cv=splits)
    assert result.n_splits == 3 and result.cv_repr == "a list of splits"


@pytest.mark.parametrize("make_input", [
    lambda X, y: (X.tolist(), y.tolist()),
    lambda X, y: (sp.csr_matrix(X), y),
    lambda X, y: (X, np.array(["no", "yes"])[y]),
    lambda X, y: (X, y.astype(bool)),
    lambda X, y: (X, y.astype(np.int64) * 10 - 5),
], ids=["lists", "sparse", "strings", "bools", "ints"])
def test_input_kinds_give_the_same_correctness(cancer, make_input):
    X, y = cancer
    reference = cvi.cross_val_correctness(TREE, X, y, cv=5, random_state=0)
    X_in, y_in = make_input(X, y)
    result = cvi.cross_val_correctness(TREE, X_in, y_in, cv=5, random_state=0)
    np.testing.assert_array_equal(result.correct, reference.correct)
    np.testing.assert_array_equal(np.asarray(result.y_true), np.asarray(y_in))


def test_pandas_inputs_and_categorical_labels(iris):
    pd = pytest.importorskip("pandas")
    X, y = iris
    names = np.array(["setosa", "versicolor", "virginica"])[y]
    frame = pd.DataFrame(X, columns=list("abcd"))
    labels = pd.Series(names).astype("category")
    result = cvi.cross_val_correctness(TREE, frame, labels, cv=5, random_state=0)
    reference = cvi.cross_val_correctness(TREE, X, names, cv=5, random_state=0)
    np.testing.assert_array_equal(result.correct, reference.correct)
    assert result.classes.tolist() == ["setosa", "versicolor", "virginica"]


def test_multiclass_fold_counts_match_a_direct_count(iris):
    X, y = iris
    result = cvi.cross_val_correctness(TREE, X, y, cv=5, random_state=0)
    for j in range(5):
        in_fold = result.fold[0] == j
        assert result.fold_sizes[0, j] == in_fold.sum()
        assert result.fold_correct[0, j] == (result.y_pred[0][in_fold] == y[in_fold]).sum()


def test_compact_dtypes(iris):
    X, y = iris
    result = cvi.cross_val_correctness(TREE, X, y, cv=10, random_state=0)
    assert result.correct.dtype == bool
    assert result.fold.dtype == np.int8
    assert cvi.cross_val_correctness(TREE, X, y, cv="loo").fold.dtype == np.int16
    assert result._y_pred.dtype == np.int8 and result._y_true.dtype == np.int8


class _FailsWithoutFirstInstance(ClassifierMixin, BaseEstimator):
    """Raises in fit on the fold that tests instance 0 (its marker is X[:, 0] == -1)."""

    def fit(self, X, y):
        if not (np.asarray(X)[:, 0] == -1).any():
            raise ValueError("marker instance missing")
        self.classes_ = np.unique(y)
        return self

    def predict(self, X):
        return np.full(len(X), self.classes_[0])


def test_a_failing_fit_names_its_fold(iris):
    X, y = iris
    X = X.copy()
    X[0, 0] = -1
    evaluator = cvi.CVEvaluator(5, random_state=0)
    with pytest.raises(ValueError, match="marker instance missing") as info:
        evaluator.evaluate(_FailsWithoutFirstInstance(), X, y)
    failing_fold = cvi.cross_val_correctness(TREE, X, y, cv=5, random_state=0).fold[0, 0]
    context = "\n".join(getattr(info.value, "__notes__", [])) + str(info.value)
    assert f"fold {failing_fold} of repeat 0" in context
    assert "fitting estimator" in context


class _WrongShapePredictor(ClassifierMixin, BaseEstimator):
    def fit(self, X, y):
        return self

    def predict(self, X):
        return np.zeros((len(X), 2))


def test_predictions_of_the_wrong_shape_are_refused(iris):
    X, y = iris
    with pytest.raises(ValueError, match=r"returned shape \(30, 2\) for 30 test instances"):
        cvi.cross_val_correctness(_WrongShapePredictor(), X, y, cv=5, random_state=0)


@pytest.mark.parametrize("kwargs, error, match", [
    ({"cv": 1}, ValueError, r"cv must be an int >= 2, 'loo'.*; got cv=1"),
    ({"cv": 151}, ValueError, r"n_splits=151 greater than the number of samples: n_samples=150"),
    ({"cv": "leave-one-out"}, ValueError, r"cv must be an int >= 2, 'loo'.*; got cv='leave-one-out'"),
    ({"cv": 2.5}, TypeError, r"cv must be an int >= 2, 'loo'.*got cv=2.5"),
    ({"n_repeats": 0}, ValueError, r"n_repeats must be an integer >= 1; got n_repeats=0"),
    ({"n_repeats": 1.5}, TypeError, r"n_repeats must be an integer >= 1; got n_repeats=1.5"),
    ({"cv": "loo", "n_repeats": 3}, ValueError, r"cv='loo' with n_repeats=3"),
    ({"cv": KFold(5), "n_repeats": 2}, ValueError, r"n_repeats=2 needs a splitter that draws a new random partition"),
    ({"cv": ShuffleSplit(5, random_state=0)}, ValueError,
     r"ShuffleSplit.* is not a partition: \d+ instances are never tested"),
    ({"cv": TimeSeriesSplit(5)}, ValueError,
     r"TimeSeriesSplit.* is forward validation, whose record keeps each forecast's loss of a numeric series: pass "
     r"loss='squared_error' or loss='absolute_error'; got loss='zero_one'"),
    ({"cv": list(TimeSeriesSplit(3, gap=2).split(np.zeros(150)))}, ValueError,
     r"is forward \(rolling-origin\) validation: .*the first 39 instances are never tested.*Pass the splitter "
     r"itself, cvinference.splitters.ForwardSplit or scikit-learn's TimeSeriesSplit"),
    ({"groups": np.zeros(10)}, ValueError, r"groups has 10 entries but X has 150 rows"),
    ({"loss": "hinge"}, ValueError, r"loss must be one of 'absolute_error', .*; got loss='hinge'"),
], ids=lambda v: v if isinstance(v, str) else None)
def test_bad_parameters_are_refused_with_a_message_naming_the_value(iris, kwargs, error, match):
    X, y = iris
    with pytest.raises(error, match=match):
        cvi.cross_val_correctness(TREE, X, y, **kwargs)


def test_overlapping_train_and_test_is_refused(iris):
    X, y = iris
    everything = np.arange(150)
    splits = [(everything, everything[:75]), (everything[75:], everything[75:])]
    with pytest.raises(ValueError, match="put a test instance in its own training set in split 0"):
        cvi.cross_val_correctness(TREE, X, y, cv=splits)


@pytest.mark.parametrize("missing", [None, float("nan"), "pandas.NA"])
def test_missing_labels_of_any_kind_are_refused(iris, missing):
    X, y = iris
    labels = np.array(["a", "b", "c"], dtype=object)[y]
    labels[7] = pytest.importorskip("pandas").NA if missing == "pandas.NA" else missing
    with pytest.raises(ValueError, match=r"in 1 of 150 entries \(first at index 7\)"):
        cvi.cross_val_correctness(TREE, X, labels)


def test_bad_data_is_refused_with_a_message_naming_the_value(iris):
    X, y = iris
    with pytest.raises(ValueError, match="X has 149 rows and y has 150 labels"):
        cvi.cross_val_correctness(TREE, X[:-1], y)
    y_nan = y.astype(float)
    y_nan[[4, 9]] = [np.nan, np.inf]
    with pytest.raises(ValueError, match=r"y contains NaN, infinity or None in 2 of 150 entries \(first at index 4\)"):
        cvi.cross_val_correctness(TREE, X, y_nan)
    y_none = np.array(["a", None] * 75, dtype=object)
    with pytest.raises(ValueError, match=r"in 75 of 150 entries \(first at index 1\)"):
        cvi.cross_val_correctness(TREE, X, y_none)
    with pytest.raises(ValueError, match=r"y has a single class \('x'\)"):
        cvi.cross_val_correctness(TREE, X, np.full(150, "x"))
    with pytest.raises(ValueError, match=r"y is continuous.*loss='squared_error'"):
        cvi.cross_val_correctness(TREE, X, np.linspace(0, 1, 150))
    with pytest.raises(ValueError, match=r"y should be a 1d array, got an array of shape \(150, 2\)"):
        cvi.cross_val_correctness(TREE, X, np.eye(150, 2, dtype=int))


def _notes(exc):
    """An exception's notes (Python >= 3.11), or its message, where Python 3.10 gets them appended."""
    return "\n".join(getattr(exc, "__notes__", [str(exc)]))


def test_infinity_in_X_is_named_by_row_and_column_with_the_fix(iris):
    # issue 28: sklearn's "Input X contains infinity" named no cell and no fix.
    X, y = iris
    X = X.copy()
    X[[7, 30], 2] = [np.inf, -np.inf]
    with pytest.raises(ValueError, match="Input X contains infinity") as caught:
        cvi.cross_val_correctness(TREE, X, y, cv=5)
    assert ("cvinference: X contains infinity at row 7, column 2 and 1 other cell(s) (0-based): replace it with a "
            "finite number, or drop that row.") in _notes(caught.value)


@pytest.mark.slow
def test_nan_in_X_is_named_only_where_the_estimator_refuses_it(iris):
    pd = pytest.importorskip("pandas")
    from sklearn.ensemble import HistGradientBoostingClassifier
    from sklearn.svm import SVC

    X, y = iris
    X = X.copy()
    X[12, 3] = np.nan
    frame = pd.DataFrame(X, columns=["sl", "sw", "pl", "pw"])
    with pytest.raises(ValueError, match="Input X contains NaN") as caught:
        cvi.CVEvaluator(cv=5, n_jobs=2).evaluate(SVC(), frame, y)
    assert ("cvinference: X contains NaN at row 12, column 3 ('pw') (0-based): impute it (sklearn.impute.SimpleImputer "
            "in a pipeline)") in _notes(caught.value)
    accepted = cvi.cross_val_correctness(HistGradientBoostingClassifier(max_iter=5), frame, y, cv=5, random_state=0)
    assert accepted.n_samples == 150  # an estimator that accepts NaN (sklearn's allow_nan tag) gets it


@pytest.mark.parametrize("loss", ["squared_error", "absolute_error"])
def test_a_regression_loss_on_a_classifier_is_refused_naming_the_loss(iris, loss):
    # issue 28: the squared difference of class codes was recorded silently.
    X, y = iris
    with pytest.raises(ValueError, match=rf"loss='{loss}' is a regression loss.*is a classifier.*loss='zero_one'"):
        cvi.cross_val_correctness(TREE, X, y, cv=5, loss=loss)
    with pytest.raises(ValueError, match=r"estimator_b=.*is a classifier"):
        cvi.CVEvaluator(cv=5, loss=loss).compare(LinearRegression(), TREE, X, y)


def test_a_cost_on_class_labels_stays_possible_through_make_loss(iris):
    X, y = iris
    squared_codes = cvi.make_loss(lambda t, p: (t - p) ** 2.0, name="ordinal", classification=True)
    result = cvi.cross_val_correctness(TREE, X, y, cv=5, loss=squared_codes, random_state=0)
    assert result.mean_loss == pytest.approx(np.mean((result.y_true - result.y_pred[0]) ** 2.0))


@pytest.mark.parametrize("estimator, match", [
    (object(), "has no fit or predict method"),
    (DecisionTreeClassifier, "a class, not an instance"),
])
def test_an_estimator_without_fit_and_predict_is_refused(iris, estimator, match):
    X, y = iris
    with pytest.raises(TypeError, match=match):
        cvi.cross_val_correctness(estimator, X, y)
    with pytest.raises(TypeError, match="estimator_b must be"):
        cvi.CVEvaluator().compare(TREE, estimator, X, y)


@pytest.mark.parametrize("parameters, error, match", [
    ({"n_repeats": 0}, ValueError, "n_repeats=0"),
    ({"loss": "log"}, ValueError, "loss='log'"),
    ({"cv": 1}, ValueError, "got cv=1"),
    ({"cv": cvi.LeaveOneOut(), "n_repeats": 2}, ValueError, r"got cv=LeaveOneOut\(\) with n_repeats=2"),
    ({"cv": None}, TypeError, "got cv=None"),
    ({"cheap_fit_seconds": -1}, ValueError, "cheap_fit_seconds=-1"),
    ({"fast_loo": "yes"}, TypeError, "fast_loo='yes'"),
    ({"response_method": "predict"}, ValueError, "response_method='predict'"),
    ({"response_method": ["predict_proba", "predict"]}, ValueError, r"response_method=\['predict_proba', 'predict'\]"),
])
def test_parameters_are_stored_unchanged_and_checked_when_used(iris, parameters, error, match):
    X, y = iris
    evaluator = cvi.CVEvaluator(**parameters)  # scikit-learn's rule: __init__ only stores
    assert {name: evaluator.get_params()[name] for name in parameters} == parameters
    for use in (evaluator.evaluate, lambda *data: evaluator.compare(TREE, *data)):
        with pytest.raises(error, match=match):
            use(TREE, X, y)


def test_the_evaluator_is_a_scikit_learn_configuration(iris):
    from sklearn.base import clone

    evaluator = cvi.CVEvaluator(5, random_state=0, n_repeats=2)
    assert repr(evaluator) == "CVEvaluator(cv=5, n_repeats=2, random_state=0)"
    assert evaluator.get_params() == {"cv": 5, "n_repeats": 2, "loss": "zero_one", "n_jobs": None,
                                      "random_state": 0, "verbose": 0, "cheap_fit_seconds": 0.05, "fast_loo": True,
                                      "response_method": None}
    copy = clone(evaluator)
    assert copy is not evaluator and copy.get_params() == evaluator.get_params()
    assert copy.set_params(cv=3, n_repeats=1) is copy and copy.get_params()["cv"] == 3
    X, y = iris
    np.testing.assert_array_equal(copy.evaluate(TREE, X, y).fold,
                                  cvi.CVEvaluator(3, random_state=0).evaluate(TREE, X, y).fold)
    np.testing.assert_array_equal(clone(evaluator).evaluate(TREE, X, y).fold, evaluator.evaluate(TREE, X, y).fold)


def test_larger_generated_problem_smoke():
    X, y = make_classification(400, 8, n_classes=3, n_informative=4, random_state=0)
    result = cvi.cross_val_correctness(LogisticRegression(), X, y, cv=10, n_repeats=2, random_state=0, n_jobs=2)
    assert result.correct.shape == (2, 400)
    assert 0.5 < result.accuracy < 1.0


# Seeding rule (see CVEvaluator's random_state): a given random_state reseeds shuffling splitters.

def test_a_user_splitter_is_reseeded_by_random_state_for_one_repeat(iris):
    X, y = iris
    first = cvi.cross_val_correctness(TREE, X, y, cv=cvi.EqualSizeKFold(5), random_state=0)
    second = cvi.cross_val_correctness(TREE, X, y, cv=cvi.EqualSizeKFold(5), random_state=0)
    other = cvi.cross_val_correctness(TREE, X, y, cv=cvi.EqualSizeKFold(5), random_state=1)
    np.testing.assert_array_equal(first.fold, second.fold)
    assert not np.array_equal(first.fold, other.fold)


def test_repeats_of_a_seeded_splitter_are_reproducible_without_random_state(iris):
    X, y = iris
    cv = KFold(5, shuffle=True, random_state=0)
    first = cvi.cross_val_correctness(TREE, X, y, cv=cv, n_repeats=3)
    second = cvi.cross_val_correctness(TREE, X, y, cv=cv, n_repeats=3)
    np.testing.assert_array_equal(first.fold, second.fold)
    assert not np.array_equal(first.fold[0], first.fold[1])


def test_the_callers_splitter_is_not_mutated(iris):
    X, y = iris
    cv = KFold(5, shuffle=True, random_state=11)
    cvi.cross_val_correctness(TREE, X, y, cv=cv, n_repeats=2, random_state=0)
    assert cv.random_state == 11


def test_a_random_state_instance_advances_like_sklearns(iris):
    X, y = iris
    rng = np.random.RandomState(0)
    evaluator = cvi.CVEvaluator(5, random_state=rng)
    first, second = evaluator.evaluate(TREE, X, y), evaluator.evaluate(TREE, X, y)
    assert not np.array_equal(first.fold, second.fold)
    again = cvi.CVEvaluator(5, random_state=np.random.RandomState(0)).evaluate(TREE, X, y)
    np.testing.assert_array_equal(first.fold, again.fold)


@pytest.mark.filterwarnings("ignore:The least populated class:UserWarning")
def test_leave_one_out_by_the_number_of_folds_cannot_be_repeated(iris):
    X, y = iris[0][:30], np.arange(30) % 2
    with pytest.raises(ValueError, match=r"is leave-one-out here \(n_splits = n_samples = 30\).*n_repeats=3"):
        cvi.cross_val_correctness(KNeighborsClassifier(3), X, y, cv=30, n_repeats=3, random_state=0)


def test_a_generator_of_splits_can_be_used_twice(iris):
    X, y = iris
    evaluator = cvi.CVEvaluator(cv=KFold(3).split(X))
    first, second = evaluator.evaluate(TREE, X, y), evaluator.evaluate(TREE, X, y)
    np.testing.assert_array_equal(first.fold, second.fold)


def test_a_clone_of_an_evaluator_with_a_spent_iterator_says_so(iris):
    from sklearn.base import clone

    X, y = iris
    evaluator = cvi.CVEvaluator(cv=iter(list(KFold(3).split(X))))
    evaluator.evaluate(TREE, X, y)
    with pytest.raises(ValueError, match="gave no splits: an iterator of splits can be read only once"):
        clone(evaluator).evaluate(TREE, X, y)


def test_boolean_masks_and_bad_indices_in_hand_made_splits(iris):
    X, y = iris
    masks = [(np.arange(150) >= 75, np.arange(150) < 75), (np.arange(150) < 75, np.arange(150) >= 75)]
    result = cvi.cross_val_correctness(TREE, X, y, cv=masks)
    np.testing.assert_array_equal(result.fold[0], np.arange(150) >= 75)
    bad = [(np.arange(75, 150), np.arange(75)), (np.arange(75), np.arange(75, 151))]
    with pytest.raises(ValueError, match=r"indices outside 0 \.\. 149 in split 1"):
        cvi.cross_val_correctness(TREE, X, y, cv=bad)


def test_mixed_label_types_are_refused_by_name(iris):
    X, _ = iris
    with pytest.raises(ValueError, match=r"y mixes label types \(int, str\)"):
        cvi.cross_val_correctness(TREE, X, np.array(["a", 1, "b"] * 50, dtype=object))
    with pytest.raises(ValueError, match=r"y mixes label types \(float, int\)"):
        cvi.cross_val_correctness(TREE, X, np.array([1, 2.0, np.int64(3)] * 50, dtype=object))
    sets = np.empty(150, dtype=object)
    sets[:] = [frozenset({1}), frozenset({2})] * 75
    with pytest.raises(ValueError, match=r"cannot be read as classes .*'unknown'"):
        cvi.cross_val_correctness(TREE, X, sets)


class _DuckMajority:
    """fit/predict/get_params without sklearn's base classes or tags."""

    def get_params(self, deep=True):
        return {}

    def set_params(self, **params):
        return self

    def fit(self, X, y):
        self.label_ = np.bincount(y).argmax()
        return self

    def predict(self, X):
        return np.full(len(X), self.label_)


def test_a_duck_typed_estimator_works_and_gets_unstratified_folds(iris):
    X, y = iris
    result = cvi.cross_val_correctness(_DuckMajority(), X, y, cv=5, random_state=0)
    assert result.cv_repr.startswith("EqualSizeKFold")
    # sklearn's cross_val_predict needs sklearn tags, so the oracle is a hand computation:
    # each instance gets the majority label of the other folds.
    for j in range(5):
        in_fold = result.fold[0] == j
        majority = np.bincount(y[~in_fold]).argmax()
        assert (result.y_pred[0][in_fold] == majority).all()


LOGISTIC_TYPE = "sklearn.linear_model._logistic.LogisticRegression"


def test_records_are_named_by_their_short_description_unless_given_a_name(iris):
    X, y = iris
    pipeline = make_pipeline(StandardScaler(), LogisticRegression(max_iter=1000))
    evaluator = cvi.CVEvaluator(cv=3, random_state=0)
    default = evaluator.evaluate(pipeline, X, y)
    assert default.estimator_repr == default.name == "StandardScaler + LogisticRegression(max_iter=1000)"
    named = evaluator.evaluate(pipeline, X, y, name="logistic")
    assert (named.name, named.estimator_repr) == ("logistic", default.estimator_repr)
    assert named != default  # the name is part of the content
    assert cvi.cross_val_correctness(pipeline, X, y, cv=3, random_state=0, name="logistic") == named


def test_compare_names_both_records(iris):
    X, y = iris
    evaluator = cvi.CVEvaluator(cv=3, random_state=0)
    pair = evaluator.compare(GaussianNB(), TREE, X, y, names=("bayes", "tree"))
    assert (pair.a.name, pair.b.name) == ("bayes", "tree")
    unnamed = evaluator.compare(GaussianNB(), TREE, X, y)
    assert (unnamed.a.name, unnamed.b.name) == ("GaussianNB()", "DecisionTreeClassifier(random_state=0)")
    text = pair.summary()
    assert "\nA: bayes: GaussianNB()\n" in text and "\nB: tree: DecisionTreeClassifier(random_state=0)\n" in text


def test_summaries_of_evaluated_pipelines_are_short(iris):
    X, y = iris
    pipeline = make_pipeline(StandardScaler(), LogisticRegression(max_iter=1000))
    search = GridSearchCV(make_pipeline(StandardScaler(), DecisionTreeClassifier(random_state=0)),
                          {"decisiontreeclassifier__max_depth": [1, 2]}, cv=2)
    pair = cvi.CVEvaluator(cv=3, random_state=0).compare(pipeline, search, X, y)
    text = pair.summary()
    assert "\nA: StandardScaler + LogisticRegression(max_iter=1000)\n" in text
    assert ("\nB: GridSearchCV(StandardScaler + DecisionTreeClassifier(random_state=0), tuning max_depth)\n"
            in text)
    assert "Pipeline(" not in text and "__" not in text


@pytest.mark.parametrize("estimator, expected", [
    (GaussianNB(), "sklearn.naive_bayes.GaussianNB"),
    (make_pipeline(StandardScaler(), LogisticRegression(max_iter=1000)), LOGISTIC_TYPE),
    (GridSearchCV(make_pipeline(StandardScaler(), LogisticRegression(max_iter=1000)),
                  {"logisticregression__C": [0.1, 1.0]}, cv=2), LOGISTIC_TYPE),
], ids=["plain", "pipeline", "search over a pipeline"])
def test_every_record_the_evaluator_makes_knows_its_learners_type(iris, estimator, expected):
    X, y = iris
    assert cvi.CVEvaluator(cv=3, random_state=0).evaluate(estimator, X, y).estimator_type == expected
    assert cvi.CVEvaluator(cv=3, random_state=0, loss="log_loss").evaluate(estimator, X, y).estimator_type == expected
    assert cvi.evaluation.holdout(estimator, X, y, random_state=0).estimator_type == expected


def test_fast_leave_one_out_records_know_their_learner_too(iris):
    X, y = iris
    result = cvi.CVEvaluator(cv="loo").evaluate(KNeighborsClassifier(3), X, y, name="3-NN")
    assert (result.name, result.estimator_type) == ("3-NN", "sklearn.neighbors._classification.KNeighborsClassifier")


def test_regression_records_are_named_and_typed():
    X, y = make_regression(n_samples=40, n_features=3, random_state=0)
    result = cvi.CVEvaluator(cv=4, loss="squared_error", random_state=0).evaluate(LinearRegression(), X, y,
                                                                                     name="ols")
    assert (result.name, result.estimator_type) == ("ols", "sklearn.linear_model._base.LinearRegression")


@pytest.mark.parametrize("call, error, match", [
    (lambda e, X, y: e.evaluate(TREE, X, y, name=""), ValueError,
     r"name must be a non-empty string \(such as 'tuned tree'\), or None; got name=''"),
    (lambda e, X, y: e.evaluate(TREE, X, y, name=("a",)), TypeError, r"got name=\('a',\)"),
    (lambda e, X, y: e.compare(TREE, TREE, X, y, names=("a", "a")), ValueError,
     r"names must be a pair of different values, each a non-empty string .*, or None; got names=\('a', 'a'\)"),
    (lambda e, X, y: e.compare(TREE, TREE, X, y, names="ab"), TypeError, "got names='ab'"),
    (lambda e, X, y: e.compare(TREE, TREE, X, y, names=("a", None)), TypeError, r"got names=\('a', None\)"),
    (lambda e, X, y: cvi.cross_val_correctness(TREE, X, y, name=3), TypeError, "got name=3"),
])
def test_bad_names_are_refused_before_any_fit(iris, call, error, match, monkeypatch):
    X, y = iris
    monkeypatch.setattr(cvi.CVEvaluator, "_run", lambda *a, **k: pytest.fail("fitted before checking the name"))
    with pytest.raises(error, match=match):
        call(cvi.CVEvaluator(cv=3), X, y)


@pytest.mark.parametrize("kwargs, match", [
    ({"cv": 1}, r"cv must be an int >= 2, 'loo'.*; got cv=1\."),
    ({"n_repeats": 0}, r"^n_repeats must be an integer >= 1; got n_repeats=0\.$"),
    ({"n_jobs": 0}, r"^n_jobs must be None or a nonzero integer .*; got n_jobs=0\.$"),
    ({"cheap_fit_seconds": -1}, r"^cheap_fit_seconds must be a number of seconds >= 0; got cheap_fit_seconds=-1\.$"),
])
def test_parameters_are_stored_when_made_and_checked_when_used(iris, kwargs, match):
    # Issue 28: the docs said CVEvaluator(cv=1) was refused when made; it is checked when used, as scikit-learn
    # checks an estimator's parameters in fit (DESIGN.md, "Configuration objects"), and the docs now say so.
    evaluator = cvi.CVEvaluator(**kwargs)
    assert evaluator.get_params()[next(iter(kwargs))] == next(iter(kwargs.values()))
    X, y = iris
    with pytest.raises(ValueError, match=match):
        evaluator.evaluate(TREE, X, y)
    with pytest.raises(ValueError, match=match):
        evaluator.compare(TREE, TREE, X, y)


@pytest.mark.parametrize("splitter", [RepeatedStratifiedKFold(n_splits=5, n_repeats=3, random_state=0),
                                      RepeatedKFold(n_splits=4, n_repeats=2, random_state=1)],
                         ids=["RepeatedStratifiedKFold", "RepeatedKFold"])
def test_a_repeated_sklearn_splitter_gives_its_repeats_as_from_cross_validate_records_them(splitter):
    """Issue 58: CVEvaluator(cv=RepeatedStratifiedKFold(...)) was refused as "not a partition" while
    from_cross_validate took the same splitter. The oracle is cross_validate's own fold models, on its splits."""
    from sklearn.model_selection import cross_validate

    from cvinference.evaluation import from_cross_validate

    X, y = load_breast_cancer(return_X_y=True)
    X, y = X[:150, :5], y[:150]
    record = cvi.CVEvaluator(cv=splitter, response_method="predict_proba").evaluate(GaussianNB(), X, y)
    results = cross_validate(GaussianNB(), X, y, cv=splitter, return_indices=True, return_estimator=True)
    oracle = from_cross_validate(results, X, y, response_method="predict_proba")
    assert (record.n_repeats, record.n_splits) == (splitter.n_repeats, splitter.get_n_splits() // splitter.n_repeats)
    for name in ("fold", "y_pred", "y_score"):
        np.testing.assert_array_equal(getattr(record, name), getattr(oracle, name))
    tests = iter(results["indices"]["test"])
    for r in range(record.n_repeats):
        for j in range(record.n_splits):
            np.testing.assert_array_equal(np.flatnonzero(record.fold[r] == j), next(tests))
    front = cvi.evaluate(GaussianNB(), X, y, cv=splitter)
    np.testing.assert_array_equal(front.result.fold, record.fold)  # the front door draws the same folds
    assert front.result.accuracy == record.accuracy == oracle.accuracy


def test_n_repeats_beside_a_repeated_splitter_is_refused_naming_both_before_any_fit():
    from counted_fits import CountedNB

    X, y = load_breast_cancer(return_X_y=True)
    splitter = RepeatedStratifiedKFold(n_splits=5, n_repeats=3, random_state=0)
    fits = CountedNB.fits
    message = (r"^cv=RepeatedStratifiedKFold\(n_repeats=3, n_splits=5, random_state=0\) repeats its partition itself "
               r"\(its n_repeats=3\), and n_repeats=2 asks for repeats too; give the repeats once")
    with pytest.raises(ValueError, match=message):
        cvi.CVEvaluator(cv=splitter, n_repeats=2).evaluate(CountedNB(), X, y)
    with pytest.raises(ValueError, match=message):
        cvi.evaluate(CountedNB(), X, y, cv=splitter, n_repeats=2)
    assert CountedNB.fits == fits
