"""conservative_z_interval: Nadeau & Bengio's paired subsampling and conservative Z.

Source: Nadeau & Bengio (2003), "Inference for the generalization error",
Machine Learning 52, section 4. The resampled estimator averages J splits
(n1 training, n2 test instances each); the data are split M times into two
disjoint halves, the same estimator is computed on each half, and
sigma_hat^2 = (1 / (2M)) sum_m (mu_m1 - mu_m2)^2; the interval is
mu_hat +- z sigma_hat with mu_hat the estimator on all the data.

The oracle below re-implements the scheme with plain loops (fit, predict,
loss, means) on the splits the planner drew, and scipy's normal quantile.

An unexpected :class:`cvinference.InferenceWarning` fails a test.
"""

import json
import math

import numpy as np
import pytest
from scipy import stats
from sklearn.base import clone
from sklearn.datasets import load_iris
from sklearn.dummy import DummyClassifier
from sklearn.linear_model import LinearRegression
from sklearn.naive_bayes import GaussianNB
from sklearn.tree import DecisionTreeClassifier

import cvinference as cvi
from cvinference.evaluation._paired_subsampling import plan_paired_subsampling
from cvinference.inference._conservative_z import conservative_z_statistics

pytestmark = pytest.mark.filterwarnings("error::cvinference.InferenceWarning")

SMALL = {"n_pairs": 3, "n_rounds": 4, "random_state": 0}


@pytest.fixture(scope="module")
def iris():
    return load_iris(return_X_y=True)


def _oracle(estimators, X, y, loss, plan, confidence_level=0.95):
    """The interval by hand: plain loops over the planned splits (Nadeau & Bengio 2003, section 4)."""
    split_mean = np.empty((2 * plan.n_pairs + 1, plan.n_splits))
    for g in range(split_mean.shape[0]):
        for j in range(plan.n_splits):
            train, test = plan.train[g, j], plan.test[g, j]
            means = []
            for estimator in estimators:
                model = clone(estimator).fit(X[train], y[train])
                means.append(np.mean(loss(model, X[test], y[test])))
            split_mean[g, j] = means[1] - means[0] if len(means) == 2 else means[0]
    estimate = sum(split_mean[0]) / plan.n_splits
    total = 0.0
    for m in range(plan.n_pairs):
        first = sum(split_mean[1 + 2 * m]) / plan.n_splits
        second = sum(split_mean[2 + 2 * m]) / plan.n_splits
        total += (first - second) ** 2
    variance = total / (2 * plan.n_pairs)
    z = stats.norm.ppf((1 + confidence_level) / 2)
    return estimate, variance, estimate - z * math.sqrt(variance), estimate + z * math.sqrt(variance)


def _zero_one(model, X, y):
    return (model.predict(X) != y).astype(float)


def _squared_error(model, X, y):
    return (model.predict(X) - y) ** 2


def test_statistics_by_hand():
    # M = 2 pairs, J = 2 splits. Row 0: all the data, mean 0.25. Pair 0: halves 0.2 and 0.3;
    # pair 1: halves 0.1 and 0.4. sigma^2 = ((0.2 - 0.3)^2 + (0.1 - 0.4)^2) / (2 * 2) = 0.1 / 4 = 0.025.
    means = np.array([[0.2, 0.3], [0.1, 0.3], [0.3, 0.3], [0.0, 0.2], [0.4, 0.4]])
    estimate, halves, variance = conservative_z_statistics(means, 2)
    assert estimate == pytest.approx(0.25, abs=1e-15)
    np.testing.assert_allclose(halves, [[0.2, 0.3], [0.1, 0.4]], atol=1e-15)
    assert variance == pytest.approx(0.025, abs=1e-15)


def test_equals_a_plain_loop_reimplementation(iris):
    X, y = iris
    interval = cvi.conservative_z_interval(GaussianNB(), X, y, **SMALL)
    plan = plan_paired_subsampling(y, n_pairs=3, n_splits=4, test_size=0.2, stratified=True, random_state=0)
    estimate, variance, low, high = _oracle([GaussianNB()], X, y, _zero_one, plan)
    assert abs(interval.estimate - estimate) < 1e-12
    assert abs(interval.details["variance"] - variance) < 1e-12
    assert abs(interval.low - low) < 1e-12 and abs(interval.high - high) < 1e-12
    assert interval.method == "conservative-z" and interval.target == "unconditional"
    assert interval.details["standard_error"] == pytest.approx(math.sqrt(variance), abs=1e-12)
    assert (interval.details["n_train"], interval.details["n_test"], interval.details["half_size"]) == (60, 15, 75)
    assert interval.details["half_estimates"].shape == (3, 2)
    assert "n1 = 60" in interval.estimand


def test_difference_equals_the_oracle_and_is_positive_when_a_is_better(iris):
    X, y = iris
    good, bad = GaussianNB(), DummyClassifier(strategy="most_frequent")
    interval = cvi.conservative_z_interval(good, X, y, estimator_b=bad, **SMALL)
    plan = plan_paired_subsampling(y, n_pairs=3, n_splits=4, test_size=0.2, stratified=True, random_state=0)
    estimate, variance, low, high = _oracle([good, bad], X, y, _zero_one, plan, )
    assert abs(interval.estimate - estimate) < 1e-12 and abs(interval.details["variance"] - variance) < 1e-12
    assert abs(interval.low - low) < 1e-12 and abs(interval.high - min(1.0, high)) < 1e-12
    # With the 0/1 loss, error(B) - error(A) = accuracy(A) - accuracy(B): GaussianNB is far better.
    assert interval.estimate > 0.5
    assert interval.estimate == pytest.approx(interval.details["estimate_b"] - interval.details["estimate_a"])
    assert "accuracy" in interval.estimand and "A minus B" in interval.estimand


def test_regression_loss_is_split_at_random_and_equals_the_oracle():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(41, 2))
    y = X @ np.array([1.0, -2.0]) + rng.normal(size=41)
    interval = cvi.conservative_z_interval(LinearRegression(), X, y, loss="squared_error", **SMALL)
    plan = plan_paired_subsampling(y, n_pairs=3, n_splits=4, test_size=0.2, stratified=False, random_state=0)
    estimate, variance, low, high = _oracle([LinearRegression()], X, y, _squared_error, plan)
    assert abs(interval.estimate - estimate) < 1e-12 and abs(interval.details["variance"] - variance) < 1e-12
    assert abs(interval.low - max(0.0, low)) < 1e-12 and abs(interval.high - high) < 1e-12
    assert interval.details["stratified"] is False and interval.details["half_size"] == 20


def test_log_loss_uses_predict_proba(iris):
    X, y = iris
    interval = cvi.conservative_z_interval(GaussianNB(), X, y, loss="log_loss", **SMALL)
    plan = plan_paired_subsampling(y, n_pairs=3, n_splits=4, test_size=0.2, stratified=True, random_state=0)

    def clipped_log_loss(model, X_test, y_test):  # Nedel'ko's clip, the default of make_log_loss
        proba = model.predict_proba(X_test)[np.arange(len(y_test)), np.searchsorted(model.classes_, y_test)]
        return -np.log(np.clip(proba, 0.001, 0.999))

    estimate, variance, _, _ = _oracle([GaussianNB()], X, y, clipped_log_loss, plan)
    assert abs(interval.estimate - estimate) < 1e-12 and abs(interval.details["variance"] - variance) < 1e-12


def test_the_plan_halves_are_disjoint_stratified_and_sized_as_documented(iris):
    _, y = iris
    plan = plan_paired_subsampling(y, n_pairs=2, n_splits=3, test_size=0.2, stratified=True, random_state=1)
    assert (plan.half_size, plan.n_train, plan.n_test) == (75, 60, 15)
    for first, second in plan.halves:
        assert np.intersect1d(first, second).size == 0
        assert np.bincount(y[first]).tolist() == [25, 25, 25] == np.bincount(y[second]).tolist()
    for g in range(1, 5):  # the splits of a half stay in it
        half = plan.halves[(g - 1) // 2, (g - 1) % 2]
        assert np.isin(plan.train[g], half).all() and np.isin(plan.test[g], half).all()
    for train, test in zip(plan.train.reshape(-1, 60), plan.test.reshape(-1, 15), strict=True):
        assert np.intersect1d(train, test).size == 0
        assert np.bincount(y[test]).tolist() == [5, 5, 5]
    again = plan_paired_subsampling(y, n_pairs=2, n_splits=3, test_size=0.2, stratified=True, random_state=1)
    np.testing.assert_array_equal(plan.test, again.test)


def test_identical_for_one_and_two_jobs(iris):
    X, y = iris
    one = cvi.conservative_z_interval(DecisionTreeClassifier(random_state=0), X, y, n_jobs=1, **SMALL)
    two = cvi.conservative_z_interval(DecisionTreeClassifier(random_state=0), X, y, n_jobs=2, **SMALL)
    assert one.to_dict() == two.to_dict()


def test_clones_and_never_fits_the_estimators(iris):
    X, y = iris
    a, b = GaussianNB(var_smoothing=1e-8), DecisionTreeClassifier(max_depth=2)
    params_a, params_b = a.get_params(), b.get_params()
    cvi.conservative_z_interval(a, X, y, estimator_b=b, **SMALL)
    assert not hasattr(a, "classes_") and not hasattr(b, "classes_")
    assert a.get_params() == params_a and b.get_params() == params_b


def test_round_trips_through_json(iris):
    X, y = iris
    interval = cvi.conservative_z_interval(GaussianNB(), X, y, estimator_b=DummyClassifier(), **SMALL)
    data = json.loads(json.dumps(interval.to_dict(), allow_nan=False))
    back = cvi.results.Interval.from_dict(data)
    assert back.to_dict() == interval.to_dict()
    np.testing.assert_array_equal(back.details["half_estimates"], interval.details["half_estimates"])
    assert not back.details["half_estimates"].flags.writeable


@pytest.mark.parametrize(("kwargs", "error", "match"), [
    ({"n_pairs": 0}, ValueError, r"n_pairs must be an integer >= 2; got n_pairs=0"),
    ({"n_rounds": 2.5}, TypeError, r"n_rounds must be an integer >= 1; got n_rounds=2.5"),
    ({"test_size": 1.5}, ValueError, r"test_size"),
    ({"confidence_level": 95}, ValueError, r"confidence_level"),
    ({"stratify": "yes"}, TypeError, r"stratify"),
    ({"loss": "hinge"}, ValueError, r"loss must be one of .*; got loss='hinge'"),
    ({"estimator_b": LinearRegression()}, TypeError, r"estimator_b must be a classifier"),
    ({"n_jobs": 0}, ValueError, r"n_jobs"),
])
def test_bad_parameters_are_named_with_the_fix(iris, kwargs, error, match):
    X, y = iris
    with pytest.raises(error, match=match):
        cvi.conservative_z_interval(GaussianNB(), X, y, **kwargs)


class _NeverFitted(GaussianNB):
    def fit(self, X, y):
        raise AssertionError("n_pairs=1 must be refused before any fit")


def test_one_pair_is_refused_before_any_fit_saying_why(iris):
    # issue 28: one pair's variance has one degree of freedom, used with a z quantile. Were it the true
    # variance's chi-square(1) estimate, (mu_hat - mu) / sigma_hat is Student's t with 1 df: the z interval's
    # coverage is P(|T_1| <= z_0.975), which scipy gives as 0.70 (the message's "about 70%").
    assert 2 * stats.t.cdf(stats.norm.ppf(0.975), 1) - 1 == pytest.approx(0.70, abs=0.005)
    assert stats.t.ppf(0.975, 1) == pytest.approx(12.7, abs=0.05)
    X, y = iris
    expected = (r"n_pairs must be an integer >= 2; got n_pairs=1\. One pair of halves gives one squared difference, "
                r"a variance estimate with one degree of freedom.*about 70%.*needs 12\.7, not 1\.96\)\. Pass "
                r"n_pairs >= 2")
    with pytest.raises(ValueError, match=expected):
        cvi.conservative_z_interval(_NeverFitted(), X, y, n_pairs=1, n_rounds=2)
    with pytest.raises(ValueError, match=expected):
        cvi.evaluation.paired_subsampling(_NeverFitted(), X, y, n_pairs=1, n_rounds=2)


def test_a_record_of_one_pair_is_refused_by_the_interval(iris):
    record = cvi.evaluation.paired_subsampling(GaussianNB(), *iris, n_pairs=2, n_rounds=2, random_state=0)
    one_pair = cvi.records.PairedSubsamplingResult(test_indices=record.test_indices[:3], losses=record.losses[:, :3],
                                                   halves=record.halves[:1], n_samples=150, n_train=record.n_train)
    with pytest.raises(ValueError, match=r"conservative_z_interval_of needs a result with n_pairs >= 2; got a "
                                         r"result with n_pairs=1\. One pair of halves"):
        cvi.inference.conservative_z_interval_of(one_pair)


def test_data_too_small_for_the_halves_says_what_to_pass():
    with pytest.raises(ValueError, match=r"n1 = 0 training and n2 = 1 test .* Pass a test_size nearer 0.5"):
        cvi.conservative_z_interval(LinearRegression(), [[0.0], [1.0], [2.0]], [0.0, 1.0, 2.0],
                                    loss="squared_error")


def test_rare_classes_ask_for_stratify_false(iris):
    X, y = iris
    y = y.copy()
    y[:3] = 3  # a class of 3 instances cannot be in both parts of a split of each half
    with pytest.raises(ValueError, match=r"class\(es\) \[3\] have fewer .* Pass stratify=False"):
        cvi.conservative_z_interval(GaussianNB(), X, y, **SMALL)
    interval = cvi.conservative_z_interval(GaussianNB(), X, y, stratify=False, **SMALL)
    assert interval.details["stratified"] is False
