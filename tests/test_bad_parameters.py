"""Bad random_state, n_jobs and verbose values get a message naming the parameter, in every function.

Issue 13, items 11 and 12: before, ``random_state="x"`` gave numpy's message without the
parameter's name, ``n_jobs=0`` joblib's, ``n_jobs="2"`` a crash, and ``n_jobs=1.5`` or
``verbose="x"`` were accepted silently.
"""

import numpy as np
import pytest
from sklearn.datasets import load_iris
from sklearn.naive_bayes import GaussianNB

import cvinference as cvi

X, Y = load_iris(return_X_y=True)
NB = GaussianNB()

CALLS = {
    "cross_val_correctness": lambda **kw: cvi.cross_val_correctness(NB, X, Y, cv=3, **kw),
    "CVEvaluator.evaluate": lambda **kw: cvi.CVEvaluator(3, **kw).evaluate(NB, X, Y),
    "CVEvaluator.compare": lambda **kw: cvi.CVEvaluator(3, **kw).compare(NB, NB, X, Y),
    "holdout": lambda **kw: cvi.evaluation.holdout(NB, X, Y, **{k: v for k, v in kw.items() if k == "random_state"}),
    "random_subsampling": lambda **kw: cvi.evaluation.random_subsampling(NB, X, Y, n_rounds=2, **kw),
    "bootstrap_accuracy": lambda **kw: cvi.bootstrap_accuracy(NB, X, Y, n_bootstraps=2, **kw),
    "paired_ttest_5x2cv": lambda **kw: cvi.paired_ttest_5x2cv(NB, NB, X, Y, **kw),
    "combined_ftest_5x2cv": lambda **kw: cvi.combined_ftest_5x2cv(NB, NB, X, Y, **kw),
    "nested_cv_interval": lambda **kw: cvi.nested_cv_interval(NB, X, Y, n_splits=3, n_repeats=1, **kw),
}

SEED_RULE = "random_state must be None, an integer from 0 to 2**32 - 1, or a numpy.random.RandomState instance"
JOBS_RULE = r"n_jobs must be None or a nonzero integer \(such as 2, or -1 for every processor\)"


@pytest.mark.parametrize("function", sorted(CALLS))
@pytest.mark.parametrize("value, error", [("x", TypeError), (-1, ValueError), (2**40, ValueError),
                                          (1.5, TypeError), (True, TypeError)])
def test_a_bad_random_state_is_named(function, value, error):
    with pytest.raises(error, match=f"^{SEED_RULE.replace('*', '[*]')}; got random_state={value!r}.$"):
        CALLS[function](random_state=value)


@pytest.mark.parametrize("function", sorted(set(CALLS) - {"holdout"}))
@pytest.mark.parametrize("value, error", [(0, ValueError), ("2", TypeError), (1.5, TypeError)])
def test_a_bad_n_jobs_is_named(function, value, error):
    with pytest.raises(error, match=f"^{JOBS_RULE}; got n_jobs={value!r}.$"):
        CALLS[function](n_jobs=value)


@pytest.mark.parametrize("value", ["x", -1, 1.5])
def test_a_bad_verbose_is_named(value):
    with pytest.raises((TypeError, ValueError), match=f"^verbose must be an integer >= 0 or True or False; "
                                                      f"got verbose={value!r}.$"):
        cvi.cross_val_correctness(NB, X, Y, cv=3, verbose=value)


@pytest.mark.parametrize("value", [None, 0, 2**32 - 1, np.int64(7), np.random.RandomState(0)])
def test_every_kind_of_good_random_state_is_accepted(value):
    assert cvi.cross_val_correctness(NB, X, Y, cv=3, random_state=value).n_samples == 150


def test_a_random_state_instance_is_used_as_is_and_advances():
    state = np.random.RandomState(0)
    first = cvi.cross_val_correctness(NB, X, Y, cv=3, random_state=state)
    second = cvi.cross_val_correctness(NB, X, Y, cv=3, random_state=state)
    assert not np.array_equal(first.fold, second.fold)


# Issue 13, item 6: a regressor on class labels was accepted and reported accuracy 0 with no warning.
REGRESSOR_CALLS = {
    "cross_val_correctness": lambda est: cvi.cross_val_correctness(est, X, Y, cv=3),
    "CVEvaluator.compare": lambda est: cvi.CVEvaluator(3).compare(NB, est, X, Y),
    "holdout": lambda est: cvi.evaluation.holdout(est, X, Y),
    "random_subsampling": lambda est: cvi.evaluation.random_subsampling(est, X, Y, n_rounds=2),
    "bootstrap_accuracy": lambda est: cvi.bootstrap_accuracy(est, X, Y, n_bootstraps=2),
    "paired_ttest_5x2cv": lambda est: cvi.paired_ttest_5x2cv(NB, est, X, Y),
    "nested_cv_interval": lambda est: cvi.nested_cv_interval(est, X, Y, n_splits=3, n_repeats=1),
}


@pytest.mark.parametrize("function", sorted(REGRESSOR_CALLS))
def test_a_regressor_on_class_labels_is_refused(function):
    from sklearn.linear_model import LinearRegression

    with pytest.raises(TypeError, match=r"must be a classifier: .*got .*=LinearRegression\(\), which is a regressor"):
        REGRESSOR_CALLS[function](LinearRegression())


def test_a_regressor_with_a_regression_loss_is_still_welcome():
    from sklearn.datasets import make_regression
    from sklearn.linear_model import LinearRegression

    features, target = make_regression(60, 3, random_state=0)
    result = cvi.cross_val_correctness(LinearRegression(), features, target, cv=3, loss="squared_error")
    assert result.mean_loss < 1e-20


# Issue 13, item 2: empty X gave an IndexError deep in the label checks.
@pytest.mark.parametrize("function", sorted(REGRESSOR_CALLS))
def test_empty_data_is_refused_with_a_message(function, monkeypatch):
    global X, Y
    monkeypatch.setattr(f"{__name__}.X", np.zeros((0, 4)))
    monkeypatch.setattr(f"{__name__}.Y", np.zeros(0, dtype=int))
    with pytest.raises(ValueError, match=r"^X and y hold no instances \(0 rows\); cross-validation needs data"):
        REGRESSOR_CALLS[function](NB)


# Issue 13, item 3: the stratified splitter passed numpy's or sklearn's message on.
@pytest.mark.parametrize("labels, match", [
    (np.array([1, "a"] * 10, dtype=object), r"y mixes label types \(int, str\)"),
    ([1, None] * 10, r"y contains NaN, infinity or None in 10 of 20 entries \(first at index 1\)"),
])
def test_the_stratified_splitter_explains_labels_it_cannot_use(labels, match):
    with pytest.raises(ValueError, match=match):
        list(cvi.StratifiedEqualSizeKFold(2).split(np.zeros((20, 1)), labels))


# Issue 13, item 7: NaN per-instance losses, or a metric returning NaN, gave NaN intervals with no warning.
def test_nan_losses_are_refused_naming_the_first_instance():
    def loss_with_a_hole(y_true, y_pred):
        losses = (y_true != y_pred).astype(float)
        losses[7] = np.nan
        return losses

    with pytest.raises(ValueError, match=r"loss holds NaN or infinity for 1 of 150 instance-repeats "
                                         r"\(first: instance 7 in repeat 0\)"):
        cvi.cross_val_correctness(NB, X, Y, cv=3, loss=cvi.make_loss(loss_with_a_hole))
    with pytest.raises(ValueError, match="first: instance 1 in repeat 0"):
        cvi.CVResult(y_true=[0, 1], y_pred=[0, 1], fold=[0, 1], loss=[0.0, np.nan], loss_name="custom")


def test_a_metric_returning_nan_is_refused_naming_the_fold():
    result = cvi.cross_val_correctness(NB, X, Y, cv=3, random_state=0)
    with pytest.raises(ValueError, match=r"^the callable metric gave NaN or infinity on fold 0 of repeat 0"):
        cvi.metric_interval(result, lambda y_true, y_pred: float("nan"))
