"""nested_cv_interval: Bates, Hastie & Tibshirani (2023, Algorithm 1) against an independent re-implementation.

The oracle below draws the folds by the documented rule (repeat r's
``StratifiedEqualSizeKFold(K, shuffle=True, random_state=seed_r)``, the seeds
drawn as ``RandomState(random_state).randint(2**31 - 1, size=R)``), fits
every outer and inner model with plain ``clone(...).fit`` (R K^2 fits: no
model shared between inner cross-validations), and computes Algorithm 1's
figures with plain loops and scipy's normal quantile.
"""

import json
import math
import threading
import time
import warnings

import joblib
import numpy as np
import pytest
from scipy import stats
from sklearn.base import BaseEstimator, ClassifierMixin, clone
from sklearn.datasets import load_iris, make_classification
from sklearn.dummy import DummyClassifier
from sklearn.exceptions import NotFittedError
from sklearn.linear_model import LinearRegression
from sklearn.naive_bayes import GaussianNB
from sklearn.tree import DecisionTreeClassifier
from sklearn.utils.validation import check_is_fitted

import cvinference as cvi
from cvinference.evaluation._scheduler import CHEAP_FIT_SECONDS

X, Y = make_classification(n_samples=90, n_features=5, n_informative=3, flip_y=0.2, random_state=0)
TREE = DecisionTreeClassifier(max_depth=2, random_state=0)


def oracle_losses(estimator, X, y, n_splits, n_repeats, random_state):
    """[(e_in, e_out)] for every repeat and outer fold, by plain loops of fresh fits."""
    seeds = np.random.RandomState(random_state).randint(np.iinfo(np.int32).max, size=n_repeats)
    pairs = []
    for seed in seeds:
        fold = np.empty(len(y), dtype=int)
        splitter = cvi.StratifiedEqualSizeKFold(n_splits, shuffle=True, random_state=int(seed))
        for j, (_, test) in enumerate(splitter.split(X, y)):
            fold[test] = j
        for k in range(n_splits):
            model = clone(estimator).fit(X[fold != k], y[fold != k])
            e_out = (model.predict(X[fold == k]) != y[fold == k]).astype(float)
            e_in = []
            for inner in range(n_splits):
                if inner == k:
                    continue
                train = (fold != k) & (fold != inner)
                model = clone(estimator).fit(X[train], y[train])
                e_in.append((model.predict(X[fold == inner]) != y[fold == inner]).astype(float))
            pairs.append((np.concatenate(e_in), e_out))
    return pairs


def oracle_interval(pairs, n_splits, n_samples, limits, confidence_level=0.95):
    """Algorithm 1's figures and interval from [(e_in, e_out)], with plain arithmetic."""
    k = n_splits
    a = [(e_in.mean() - e_out.mean()) ** 2 for e_in, e_out in pairs]
    b = [e_out.var(ddof=1) / len(e_out) for _, e_out in pairs]
    mse_hat = np.mean(a) - np.mean(b)
    all_in = np.concatenate([e_in for e_in, _ in pairs])
    err_ncv, err_cv = all_in.mean(), np.concatenate([e_out for _, e_out in pairs]).mean()
    bias = (1 + (k - 2) / k) * (err_ncv - err_cv)
    se_naive = all_in.std(ddof=1) / math.sqrt(n_samples)
    se = min(max(math.sqrt((k - 1) / k * max(mse_hat, 0)), se_naive), math.sqrt(k) * se_naive)
    z = stats.norm.ppf((1 + confidence_level) / 2)
    estimate = err_ncv - bias
    return {"err_ncv": err_ncv, "err_cv": err_cv, "mse_hat": mse_hat, "bias": bias, "se_naive": se_naive,
            "standard_error": se, "estimate": estimate,
            "low": max(limits[0], estimate - z * se), "high": min(limits[1], estimate + z * se)}


def assert_matches(interval, expected):
    for name in ("err_ncv", "err_cv", "mse_hat", "bias", "se_naive"):
        assert interval.details[name] == pytest.approx(expected[name], abs=1e-12), name
    assert interval.details["standard_error"] == pytest.approx(expected["standard_error"], abs=1e-12)
    for name in ("estimate", "low", "high"):
        assert getattr(interval, name) == pytest.approx(expected[name], abs=1e-12), name


def quiet(function, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", cvi.InferenceWarning)
        return function(*args, **kwargs)


# --------------------------------------------------------------------------- against the oracle


@pytest.mark.parametrize("random_state", [7, 5])  # 7: MSE_hat > 0 within the bounds; 5: MSE_hat < 0
def test_one_learner_matches_the_independent_implementation(random_state):
    interval = quiet(cvi.nested_cv_interval, TREE, X, Y, n_splits=4, n_repeats=3, random_state=random_state)
    expected = oracle_interval(oracle_losses(TREE, X, Y, 4, 3, random_state), 4, len(Y), (0.0, 1.0))
    assert_matches(interval, expected)
    assert interval.method == "nested-cv" and interval.target == "conditional"
    assert interval.details["n_splits"] == 4 and interval.details["n_repeats"] == 3
    assert interval.details["n_fits"] == 3 * 4 * 5 // 2
    assert interval.details["inflation"] == pytest.approx(expected["standard_error"] / expected["se_naive"])


def test_the_difference_is_the_algorithm_on_per_instance_loss_differences():
    a, b = GaussianNB(), TREE
    # random_state=3 gives MSE_hat > 0 within the bounds
    interval = quiet(cvi.nested_cv_interval, a, X, Y, n_splits=4, n_repeats=3, random_state=3, estimator_b=b)
    pairs_a, pairs_b = oracle_losses(a, X, Y, 4, 3, 3), oracle_losses(b, X, Y, 4, 3, 3)
    differences = [(in_b - in_a, out_b - out_a) for (in_a, out_a), (in_b, out_b) in zip(pairs_a, pairs_b, strict=True)]
    assert_matches(interval, oracle_interval(differences, 4, len(Y), (-1.0, 1.0)))
    assert "B minus A (positive when A is better)" in interval.estimand


def test_a_better_learner_a_gives_a_positive_difference():
    X_iris, y_iris = load_iris(return_X_y=True)
    interval = quiet(cvi.nested_cv_interval, GaussianNB(), X_iris, y_iris, n_splits=3, n_repeats=2,
                     random_state=0, estimator_b=DummyClassifier(strategy="most_frequent"))
    assert interval.estimate > 0.5 and interval.low > 0


# --------------------------------------------------------------------------- by hand


class TrainingSizeRule(ClassifierMixin, BaseEstimator):
    """Predicts class 1 after training on more than 6 instances, class 0 otherwise (whatever X is)."""

    def fit(self, X, y):
        self.classes_ = np.unique(y)
        self.n_train_ = len(y)
        return self

    def predict(self, X):
        return np.full(len(X), 1 if self.n_train_ > 6 else 0)


def test_a_hand_computed_example_with_the_upper_bound():
    # 12 instances, 9 of class 1 and 3 of class 0; stratified 3-fold: every fold holds three 1s and one 0.
    # Outer models train on 8 instances and predict 1 (loss 1 on the fold's 0); inner models train on 4
    # and predict 0 (loss 1 on the 1s). By hand, from Algorithm 1's formulas (Bates et al. 2023):
    #   e_out = (1, 0, 0, 0) in every fold: mean 1/4, sample variance 1/4, b_k = 1/16;
    #   e_in = six 1s and two 0s: mean 3/4, a_k = (3/4 - 1/4)^2 = 1/4; MSE_hat = 1/4 - 1/16 = 3/16;
    #   Err_NCV = 3/4, Err_CV = 1/4, bias = (1 + 1/3)(1/2) = 2/3, estimate = 1/12;
    #   se_naive = sd(24 inner losses, 18 of them 1) / sqrt(12) = sqrt(4.5/23) / sqrt(12);
    #   sqrt(2/3 * 3/16) = sqrt(1/8) exceeds sqrt(3) se_naive, so SE = sqrt(3) se_naive (with a warning).
    y = np.array([1] * 9 + [0] * 3)
    with pytest.warns(cvi.InferenceWarning, match=r"above sqrt\(K\) = 1\.732 times the naive"):
        interval = cvi.nested_cv_interval(TrainingSizeRule(), np.zeros((12, 1)), y, n_splits=3, n_repeats=1,
                                          random_state=0)
    se_naive = math.sqrt(4.5 / 23) / math.sqrt(12)
    assert interval.details["err_ncv"] == pytest.approx(0.75, abs=1e-15)
    assert interval.details["err_cv"] == pytest.approx(0.25, abs=1e-15)
    assert interval.details["mse_hat"] == pytest.approx(3 / 16, abs=1e-15)
    assert interval.details["bias"] == pytest.approx(2 / 3, abs=1e-15)
    assert interval.estimate == pytest.approx(1 / 12, abs=1e-15)
    assert interval.details["se_naive"] == pytest.approx(se_naive, abs=1e-15)
    assert interval.details["inflation_unbounded"] == pytest.approx(math.sqrt(1 / 8) / se_naive, abs=1e-12)
    assert interval.details["inflation"] == pytest.approx(math.sqrt(3), abs=1e-12)
    assert interval.low == 0.0  # 1/12 - 1.96 * 0.2212 < 0, clipped to the error rate's range
    assert interval.high == pytest.approx(1 / 12 + 1.959963984540054 * math.sqrt(3) * se_naive, abs=1e-12)


def test_a_negative_mse_hat_warns_and_falls_back_to_the_naive_standard_error():
    # A constant prediction of class 0 on 6 + 6 instances, 3 stratified folds of two of each: every e_out
    # and e_in has mean 1/2, so a_k = 0 and b_k = (1/3)/4: MSE_hat = -1/12 < 0. The 2 x 3 x 8 = 48 inner
    # losses are half 1s: sample variance 12/47, so SE = se_naive = sqrt(12/47)/sqrt(12) = 1/sqrt(47).
    y = np.array([0, 1] * 6)
    with pytest.warns(cvi.InferenceWarning, match=r"MSE_hat = -0\.08333"):
        interval = cvi.nested_cv_interval(DummyClassifier(strategy="constant", constant=0), np.zeros((12, 1)),
                                          y, n_splits=3, n_repeats=2, random_state=0)
    assert interval.details["mse_hat"] == pytest.approx(-1 / 12, abs=1e-15)
    assert interval.estimate == pytest.approx(0.5, abs=1e-15) and interval.details["bias"] == 0
    assert interval.details["standard_error"] == pytest.approx(1 / math.sqrt(47), abs=1e-15)
    assert interval.details["inflation_unbounded"] == 0 and interval.details["inflation"] == 1


# --------------------------------------------------------------------------- fits


FIT_THREADS = set()


class SlowTree(DecisionTreeClassifier):
    """A tree whose fit waits past the cheap-fit threshold, so that its fits go to the pool; records its threads."""

    def fit(self, X, y, sample_weight=None, check_input=True):
        FIT_THREADS.add(threading.current_thread().name)
        time.sleep(1.2 * CHEAP_FIT_SECONDS)
        return super().fit(X, y, sample_weight=sample_weight, check_input=check_input)


@pytest.mark.parametrize("backend", ["threading", "loky"])
def test_identical_for_one_and_two_jobs(backend):
    tree = SlowTree(max_depth=2, random_state=0)
    run = dict(n_splits=3, n_repeats=1, random_state=1, estimator_b=GaussianNB())
    reference = quiet(cvi.nested_cv_interval, tree, X, Y, n_jobs=1, **run)
    FIT_THREADS.clear()
    with joblib.parallel_config(backend=backend):
        parallel = quiet(cvi.nested_cv_interval, tree, X, Y, n_jobs=2, **run)
    assert parallel.to_dict() == reference.to_dict()
    if backend == "threading":
        assert len(FIT_THREADS) >= 2, "no fit ran in the pool"


def test_the_estimators_are_cloned_not_fitted():
    a, b = DecisionTreeClassifier(max_depth=2, random_state=0), GaussianNB()
    params = a.get_params(), b.get_params()
    quiet(cvi.nested_cv_interval, a, X, Y, n_splits=3, n_repeats=1, random_state=0, estimator_b=b)
    assert (a.get_params(), b.get_params()) == params
    for estimator in (a, b):
        with pytest.raises(NotFittedError):
            check_is_fitted(estimator)


# --------------------------------------------------------------------------- bad input


@pytest.mark.parametrize("arguments, error, match", [
    ({"n_splits": 2}, ValueError, r"^n_splits must be an integer >= 3 \(each outer fold's inner cross-validation "
                                  r".* needs at least 2 of them\); got n_splits=2\.$"),
    ({"n_repeats": 0}, ValueError, r"^n_repeats must be an integer >= 1; got n_repeats=0\.$"),
    ({"loss": "hinge"}, ValueError, r"^loss must be one of 'absolute_error', .*; got loss='hinge'\.$"),
    ({"confidence_level": 95}, ValueError, r"^confidence_level must be a number strictly between 0 and 1"),
    ({"estimator_b": LinearRegression(), "loss": "squared_error"}, ValueError,
     r"^estimator_b must do the same task as estimator, .* got estimator=DecisionTreeClassifier\(.*\), a "
     r"classifier, and estimator_b=LinearRegression\(\), a regressor\. Pass two classifiers or two regressors\.$"),
])
def test_bad_input_is_refused_naming_parameter_value_and_fix(arguments, error, match):
    with pytest.raises(error, match=match):
        cvi.nested_cv_interval(TREE, X, Y, n_repeats=arguments.pop("n_repeats", 1), **arguments)


# --------------------------------------------------------------------------- results


def test_round_trips_through_json():
    interval = quiet(cvi.nested_cv_interval, TREE, X, Y, n_splits=3, n_repeats=2, random_state=0)
    data = json.loads(json.dumps(interval.to_dict(), allow_nan=False))
    again = cvi.results.Interval.from_dict(data)
    assert again.to_dict() == interval.to_dict()
    assert dict(again.details) == dict(interval.details) and again.target == "conditional"
