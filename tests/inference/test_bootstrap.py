"""bootstrap_accuracy: Kohavi's failure case, a hand-computed oracle, reproducibility, inputs.

Sources:

* Kohavi (1995), *Cross-Validation and Bootstrap for Accuracy Estimation and
  Model Selection* (``shared/papers/kohavi1995.txt``), slides ".632 Bootstrap"
  and "Bootstrap failure";
* Efron (1983) for the .632 estimator; Efron & Tibshirani (1997),
  "Improvements on cross-validation: the .632+ bootstrap method", JASA
  92(438): the leave-one-out bootstrap error Err^(1), the no-information error
  gamma (eq. 27), the relative overfitting rate R (eq. 28) and the .632+ rule
  with its modified Err^(1)' and R' (eq. 32). The paper states errors; the
  package reports accuracies (1 - error), and so do these tests.

An unexpected :class:`cvinference.InferenceWarning` fails a test (see
``pytestmark``); expected ones are caught with ``pytest.warns``.
"""

import dataclasses
import warnings

import numpy as np
import pytest
from sklearn.base import BaseEstimator, ClassifierMixin, clone
from sklearn.datasets import load_iris
from sklearn.dummy import DummyClassifier
from sklearn.exceptions import NotFittedError
from sklearn.linear_model import LogisticRegression
from sklearn.neighbors import KNeighborsClassifier
from sklearn.tree import DecisionTreeClassifier
from sklearn.utils.validation import check_is_fitted

import cvinference as cvi
from cvinference.evaluation._bootstrap_fits import bootstrap_indices
from cvinference.inference._bootstrap import _point632_plus_error

pytestmark = [
    pytest.mark.filterwarnings("error::cvinference.InferenceWarning"),
    # Most tests here use a few bootstraps for speed; the warning about them is tested on its own.
    pytest.mark.filterwarnings("ignore:The percentile interval rests on:cvinference.InferenceWarning"),
]


# --------------------------------------------------------------------------- helpers


def random_concept(n, seed):
    """Kohavi's random two-class concept: 5 uniform features, labels independent of them."""
    rng = np.random.default_rng(seed)
    X = rng.uniform(size=(n, 5))
    y = rng.integers(0, 2, size=n)
    return X, y


def noisy_data(seed, n=16):
    """A small two-class problem with label noise, for a depth-2 tree that overfits a little."""
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 2))
    y = (X[:, 0] + rng.normal(scale=1.0, size=n) > 0).astype(int)
    return X, y


class EchoClassifier(ClassifierMixin, BaseEstimator):
    """Predicts the value in column 0 of X: predictions fixed in advance, for hand computations."""

    def fit(self, X, y):
        self.classes_ = np.unique(y)
        return self

    def predict(self, X):
        return np.asarray(X)[:, 0].astype(int)


class CountCheckingClassifier(DummyClassifier):
    """A DummyClassifier whose fit refuses training labels without the expected class counts."""

    def __init__(self, expected_counts=()):
        super().__init__(strategy="most_frequent")
        self.expected_counts = expected_counts

    def fit(self, X, y, sample_weight=None):
        counts = tuple(int(c) for c in np.bincount(np.asarray(y)))
        if counts != tuple(self.expected_counts):
            raise ValueError(f"class counts {counts} != {tuple(self.expected_counts)}")
        return super().fit(X, y, sample_weight)


# --------------------------------------------------------------------------- Kohavi's failure case

# Kohavi (1995), slide "Bootstrap failure": a learner that fits its training
# data perfectly (1-NN) on a random two-class concept has resubstitution
# accuracy 1 and out-of-bag accuracy about 0.5, so .632 gives about
# 0.368 + 0.632 * 0.5 = 0.684 although the true accuracy is 0.5; .632+ (R about
# 1) and oob give about 0.5.
#
# Tolerances. With n = 400 the out-of-bag accuracy of a rule that is right with
# probability 1/2 has a sampling sd of about 0.5 / sqrt(400) = 0.025 over
# datasets (measured: 0.025 over 60 random datasets with 50 bootstraps each;
# the Monte Carlo part from 50 bootstraps, each instance about 18 times out of
# bag, is much smaller). The .632 estimate is 0.368 + 0.632 * oob, so its sd is
# 0.632 * 0.025 = 0.016. .632+ equals oob when R = 1 and lies a little above
# it when Err^(1) < gamma (measured sd 0.028, mean 0.51). The tolerances are
# 4 sd: 0.1 for oob, 0.065 for .632 and 0.12 for .632+, still far apart from
# the 0.184 gap between .632 and 0.5 that the test is about.
KOHAVI_N, KOHAVI_BOOTSTRAPS = 400, 50


@pytest.fixture(scope="module")
def kohavi():
    X, y = random_concept(KOHAVI_N, seed=0)
    assert np.unique(X, axis=0).shape[0] == KOHAVI_N  # no duplicate points: 1-NN fits perfectly
    return X, y, cvi.bootstrap_accuracy(KNeighborsClassifier(1), X, y, method=".632+",
                                        n_bootstraps=KOHAVI_BOOTSTRAPS, random_state=0)


def test_kohavi_failure_case(kohavi):
    _, _, result = kohavi
    d = result.details
    assert d["resubstitution_accuracy"] == 1.0
    assert abs(d["loo_bootstrap_accuracy"] - 0.5) < 0.1
    assert abs(d["accuracy_632"] - (0.368 + 0.632 * 0.5)) < 0.065
    assert abs(d["accuracy_632_plus"] - 0.5) < 0.12
    assert result.estimate == d["accuracy_632_plus"]
    # The failure itself: .632 is far above both .632+ and oob.
    assert d["accuracy_632"] - d["accuracy_632_plus"] > 0.1
    assert d["accuracy_632"] - d["loo_bootstrap_accuracy"] > 0.1
    # With resubstitution accuracy 1, .632 is exactly 0.368 + 0.632 * oob.
    assert d["accuracy_632"] == pytest.approx(0.368 + 0.632 * d["loo_bootstrap_accuracy"], abs=1e-12)
    # 1-NN reproduces the labels, so q = p and gamma = 1 - sum p_k^2 (about 0.5).
    p = np.bincount(kohavi[1]) / KOHAVI_N
    assert d["no_information_accuracy"] == pytest.approx(np.sum(p**2), abs=1e-12)
    assert d["relative_overfitting_rate"] > 0.8


def test_kohavi_methods_agree_with_details(kohavi):
    X, y, plus = kohavi
    oob = cvi.bootstrap_accuracy(KNeighborsClassifier(1), X, y, method="oob",
                                 n_bootstraps=KOHAVI_BOOTSTRAPS, random_state=0)
    assert oob.estimate == plus.details["loo_bootstrap_accuracy"]
    assert abs(oob.estimate - 0.5) < 0.1


def test_632_warns_in_kohavi_failure_case(kohavi):
    X, y, plus = kohavi
    with pytest.warns(cvi.InferenceWarning, match="Bootstrap failure"):
        result = cvi.bootstrap_accuracy(KNeighborsClassifier(1), X, y, method=".632",
                                        n_bootstraps=KOHAVI_BOOTSTRAPS, random_state=0)
    assert result.estimate == plus.details["accuracy_632"]
    assert len(result.warnings) == 1 and "method='.632+'" in result.warnings[0]


# --------------------------------------------------------------------------- hand-computed oracle


def test_indices_are_numpy_randint_rows():
    """Unstratified samples are RandomState(seed).randint(0, n, size=(B, n)); prefixes agree."""
    y = np.array([0, 1] * 5)
    indices = bootstrap_indices(y, 7, random_state=3)
    np.testing.assert_array_equal(indices, np.random.RandomState(3).randint(0, 10, size=(7, 10)))
    np.testing.assert_array_equal(bootstrap_indices(y, 4, random_state=3), indices[:4])


@pytest.mark.parametrize("seed", [1, 0])  # seed 1: 0 < R < 1; seed 0: Err^(1) > gamma, so R' = 1
def test_estimates_equal_hand_computation(seed):
    X, y = noisy_data(seed)
    n, n_bootstraps = len(y), 12
    tree = DecisionTreeClassifier(max_depth=2, random_state=0)
    with warnings.catch_warnings():  # .632 warns that this tree overfits (R' >= 0.5); not the point here
        warnings.simplefilter("ignore", cvi.InferenceWarning)
        results = {m: cvi.bootstrap_accuracy(tree, X, y, method=m, n_bootstraps=n_bootstraps, random_state=seed)
                   for m in ("oob", ".632", ".632+")}

    # The bootstrap loop, redone: fit on each sample, predict every instance.
    indices = bootstrap_indices(y, n_bootstraps, random_state=seed)
    wrong = np.zeros((n_bootstraps, n))
    left_out = np.zeros((n_bootstraps, n), dtype=bool)
    for b, sample in enumerate(indices):
        model = clone(tree).fit(X[sample], y[sample])
        wrong[b] = model.predict(X) != y
        left_out[b] = ~np.isin(np.arange(n), sample)
    # Err^(1) = (1/n) sum_i (1/|C^-i|) sum_{b in C^-i} L(y_i, f^b(x_i)), term by term.
    per_instance = []
    for i in range(n):
        c_minus_i = [b for b in range(n_bootstraps) if left_out[b, i]]
        assert c_minus_i, "every instance should be left out at least once here"
        per_instance.append(sum(wrong[b, i] for b in c_minus_i) / len(c_minus_i))
    err1 = sum(per_instance) / n
    full = clone(tree).fit(X, y).predict(X)
    err = np.mean(full != y)
    # gamma in the form (1/n^2) sum_i sum_j L(y_i, f(x_j)) (E&T eq. 27 before
    # summing over classes), independent of the p_k, q_k form the package uses.
    gamma = np.mean(y[:, None] != full[None, :])
    err632 = 0.368 * err + 0.632 * err1
    err1_prime = min(err1, gamma)
    r_prime = (err1_prime - err) / (gamma - err) if (err1 > err and gamma > err) else 0.0
    err632plus = err632 + (err1_prime - err) * (0.368 * 0.632 * r_prime) / (1 - 0.368 * r_prime)
    if seed == 1:
        assert 0 < r_prime < 1 and err1 < gamma
        w = 0.632 / (1 - 0.368 * r_prime)
        assert err632plus == pytest.approx((1 - w) * err + w * err1, abs=1e-12)  # E&T's (1 - w) err + w Err^(1)
    else:
        assert r_prime == 1 and err1 > gamma

    assert results["oob"].estimate == pytest.approx(1 - err1, abs=1e-12)
    assert results[".632"].estimate == pytest.approx(1 - err632, abs=1e-12)
    assert results[".632+"].estimate == pytest.approx(1 - err632plus, abs=1e-12)
    d = results[".632+"].details
    assert d["resubstitution_accuracy"] == pytest.approx(1 - err, abs=1e-12)
    assert d["no_information_accuracy"] == pytest.approx(1 - gamma, abs=1e-12)
    assert d["relative_overfitting_rate"] == pytest.approx(r_prime, abs=1e-12)
    assert d["weight"] == pytest.approx(0.632 / (1 - 0.368 * r_prime), abs=1e-12)

    # Per-bootstrap values: the estimator with bootstrap b's own out-of-bag accuracy.
    acc_b = np.array([1 - wrong[b, left_out[b]].mean() for b in range(n_bootstraps)])
    np.testing.assert_allclose(results["oob"].values, acc_b, atol=1e-12)
    np.testing.assert_allclose(results[".632"].values, 0.368 * (1 - err) + 0.632 * acc_b, atol=1e-12)
    plus_b = []
    for a in acc_b:
        e1 = 1 - a
        e1p = min(e1, gamma)
        rb = (e1p - err) / (gamma - err) if (e1 > err and gamma > err) else 0.0
        plus_b.append(1 - (0.368 * err + 0.632 * e1 + (e1p - err) * 0.368 * 0.632 * rb / (1 - 0.368 * rb)))
    np.testing.assert_allclose(results[".632+"].values, plus_b, atol=1e-12)


def test_632_plus_formula_limits():
    """E&T eq. 32: .632 when R' = 0, Err^(1) when R' = 1 with Err^(1) = gamma."""
    # R' = 1: Err^(1) reaches the no-information error; the weight is 1.
    assert _point632_plus_error(0.0, 0.5, 0.5) == pytest.approx((0.5, 1.0, 1.0))
    assert _point632_plus_error(0.1, 0.3, 0.3) == pytest.approx((0.3, 1.0, 1.0))
    # R' = 0 without overfitting (Err^(1) <= err): the .632 error, weight .632.
    assert _point632_plus_error(0.3, 0.2, 0.5) == pytest.approx((0.368 * 0.3 + 0.632 * 0.2, 0.0, 0.632))
    # R' = 0 when gamma <= err, even if Err^(1) > err.
    assert _point632_plus_error(0.4, 0.6, 0.4) == pytest.approx((0.368 * 0.4 + 0.632 * 0.6, 0.0, 0.632))
    # In between: R = (0.3 - 0.1) / (0.5 - 0.1) = 0.5, w = .632 / (1 - .184).
    w = 0.632 / (1 - 0.368 * 0.5)
    assert _point632_plus_error(0.1, 0.3, 0.5) == pytest.approx(((1 - w) * 0.1 + w * 0.3, 0.5, w))
    # Err^(1) > gamma > err: R' = 1, Err^(1)' = gamma in the correction term only.
    assert _point632_plus_error(0.0, 0.7, 0.5)[0] == pytest.approx(0.632 * 0.7 + 0.368 * 0.5)


# --------------------------------------------------------------------------- gamma and R = 0 by hand


def test_no_overfitting_gives_632_for_majority_predictor():
    """A majority predictor: err = gamma = minority share, so R = 0 and .632+ = .632."""
    y = np.array([0] * 7 + [1] * 5)
    X = np.arange(12.0).reshape(-1, 1)
    dummy = DummyClassifier(strategy="most_frequent")
    plus = cvi.bootstrap_accuracy(dummy, X, y, method=".632+", n_bootstraps=20, random_state=0)
    plain = cvi.bootstrap_accuracy(dummy, X, y, method=".632", n_bootstraps=20, random_state=0)
    # p = (7/12, 5/12), q = (1, 0): gamma = 7/12 * 0 + 5/12 * 1 = 5/12, the minority share.
    assert plus.details["no_information_accuracy"] == pytest.approx(7 / 12, abs=1e-12)
    assert plus.details["resubstitution_accuracy"] == pytest.approx(7 / 12, abs=1e-12)
    assert plus.details["relative_overfitting_rate"] == 0
    assert plus.details["weight"] == pytest.approx(0.632)
    assert plus.estimate == pytest.approx(plain.estimate, abs=1e-12)
    np.testing.assert_allclose(plus.values, plain.values, atol=1e-12)


def test_gamma_of_constant_minority_predictor():
    """Always predicting class c: q_c = 1, gamma = 1 - p_c; for the minority class 1 - gamma = 5/12."""
    y = np.array([0] * 7 + [1] * 5)
    X = np.arange(12.0).reshape(-1, 1)
    result = cvi.bootstrap_accuracy(DummyClassifier(strategy="constant", constant=1), X, y,
                                    method=".632+", n_bootstraps=10, random_state=0)
    assert result.details["no_information_accuracy"] == pytest.approx(5 / 12, abs=1e-12)
    assert result.details["resubstitution_accuracy"] == pytest.approx(5 / 12, abs=1e-12)
    assert result.details["relative_overfitting_rate"] == 0


def test_gamma_by_hand_three_classes():
    """p = (1/2, 1/3, 1/6), q = (1/6, 1/2, 1/3): gamma = 5/12 + 1/6 + 1/9 = 25/36."""
    y = np.array([0, 0, 0, 1, 1, 2])
    X = np.array([[0], [1], [1], [1], [2], [2]])  # EchoClassifier predicts these
    # random_state=1: all 20 samples leave an instance out (at n = 6 one in 65 leaves none).
    result = cvi.bootstrap_accuracy(EchoClassifier(), X, y, method=".632+", n_bootstraps=20, random_state=1)
    assert result.details["n_empty_bootstraps"] == 0
    assert result.details["no_information_accuracy"] == pytest.approx(11 / 36, abs=1e-12)
    # The echo ignores its training data: every out-of-bag prediction is the resubstitution one.
    assert result.details["resubstitution_accuracy"] == pytest.approx(3 / 6)
    assert result.details["loo_bootstrap_accuracy"] == pytest.approx(3 / 6)


# --------------------------------------------------------------------------- the interval and the result


@pytest.mark.parametrize("confidence_level", [0.9, 0.95])
def test_values_and_percentile_interval(confidence_level):
    X, y = noisy_data(3, n=30)
    result = cvi.bootstrap_accuracy(DecisionTreeClassifier(max_depth=2, random_state=0), X, y, method="oob",
                                    n_bootstraps=25, confidence_level=confidence_level, random_state=0)
    assert result.values.shape == (25,)
    alpha = 1 - confidence_level
    low, high = np.percentile(result.values, [100 * alpha / 2, 100 * (1 - alpha / 2)])
    assert result.low == pytest.approx(low, abs=1e-12)
    assert result.high == pytest.approx(high, abs=1e-12)
    assert result.confidence_level == confidence_level
    assert result.low <= result.high


def test_result_is_immutable_and_describes_itself():
    X, y = noisy_data(3, n=30)
    result = cvi.bootstrap_accuracy(DecisionTreeClassifier(max_depth=2, random_state=0), X, y,
                                    method=".632+", n_bootstraps=10, random_state=0)
    assert isinstance(result, cvi.results.BootstrapResult)
    with pytest.raises(dataclasses.FrozenInstanceError):
        result.estimate = 1.0
    with pytest.raises(ValueError):
        result.values[0] = 1.0
    with pytest.raises(TypeError):
        result.details["weight"] = 1.0
    text = repr(result)
    assert "\n" not in text and text.startswith("BootstrapResult(estimate=") and "method='.632+'" in text
    summary = result.summary()
    assert ".632+ bootstrap accuracy" in summary and "estimand:" in summary and "assumptions:" in summary
    assert "all n = 30 instances" in result.estimand
    assert result.method == ".632+" and result.n_bootstraps == 10 and result.n_samples == 30
    oob = cvi.bootstrap_accuracy(DecisionTreeClassifier(max_depth=2, random_state=0), X, y,
                                 method="oob", n_bootstraps=10, random_state=0)
    assert "bootstrap samples" in oob.estimand


# --------------------------------------------------------------------------- sampling options, parallelism


def test_stratified_indices_keep_class_counts():
    y = np.array(["a"] * 9 + ["b"] * 4 + ["c"] * 2)
    indices = bootstrap_indices(y, 30, stratify=True, random_state=0)
    for row in indices:
        np.testing.assert_array_equal(y[row], y)  # position j draws within y[j]'s class
    assert len({tuple(row) for row in indices}) > 1


def test_stratify_fits_every_sample_with_y_class_counts():
    X, y = noisy_data(1, n=20)
    counts = tuple(int(c) for c in np.bincount(y))
    result = cvi.bootstrap_accuracy(CountCheckingClassifier(expected_counts=counts), X, y,
                                    n_bootstraps=15, stratify=True, random_state=0)
    assert result.stratify
    assert any("within classes" in note for note in result.notes)
    with pytest.raises(ValueError, match="class counts"):
        cvi.bootstrap_accuracy(CountCheckingClassifier(expected_counts=counts), X, y,
                               n_bootstraps=15, stratify=False, random_state=0)


def test_same_random_state_same_result_for_any_n_jobs():
    X, y = noisy_data(2, n=40)
    tree = DecisionTreeClassifier(max_depth=3, random_state=0)
    one = cvi.bootstrap_accuracy(tree, X, y, method=".632+", n_bootstraps=12, random_state=7, n_jobs=1)
    two = cvi.bootstrap_accuracy(tree, X, y, method=".632+", n_bootstraps=12, random_state=7, n_jobs=2)
    assert one.estimate == two.estimate
    np.testing.assert_array_equal(one.values, two.values)
    assert dict(one.details) == dict(two.details)
    other = cvi.bootstrap_accuracy(tree, X, y, method=".632+", n_bootstraps=12, random_state=8)
    assert not np.array_equal(one.values, other.values)


def test_callers_estimator_is_not_fitted():
    X, y = noisy_data(2, n=20)
    tree = DecisionTreeClassifier(random_state=0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", cvi.InferenceWarning)  # 3 bootstraps: the interval is not the point here
        cvi.bootstrap_accuracy(tree, X, y, method="oob", n_bootstraps=3, random_state=0)
    with pytest.raises(NotFittedError):
        check_is_fitted(tree)


def test_dataframe_input_matches_numpy():
    pd = pytest.importorskip("pandas")
    X, y = noisy_data(2, n=24)
    frame = pd.DataFrame(X, columns=["f1", "f2"], index=np.arange(100, 124))
    labels = pd.Series(np.where(y == 1, "yes", "no"), index=frame.index)
    tree = DecisionTreeClassifier(max_depth=2, random_state=0)
    from_pandas = cvi.bootstrap_accuracy(tree, frame, labels, method=".632+", n_bootstraps=8, random_state=0)
    from_numpy = cvi.bootstrap_accuracy(tree, X, np.where(y == 1, "yes", "no"), method=".632+",
                                        n_bootstraps=8, random_state=0)
    assert from_pandas.estimate == from_numpy.estimate
    np.testing.assert_array_equal(from_pandas.values, from_numpy.values)


# --------------------------------------------------------------------------- degenerate cases


def test_instances_never_left_out_are_dropped_with_a_note():
    # RandomState(3).randint(0, 2, size=(1, 2)) is [[0, 0]]: instance 1 is the only one out of bag.
    X, y = np.array([[0.0], [1.0]]), np.array([0, 1])
    result = cvi.bootstrap_accuracy(DummyClassifier(), X, y, method="oob", n_bootstraps=1, random_state=3)
    assert result.details["n_never_left_out"] == 1
    assert any("in every bootstrap sample" in note for note in result.notes)
    assert result.estimate == 0.0  # the model of [x_0, x_0] predicts class 0 for instance 1


def test_no_instance_ever_left_out_raises():
    X, y = np.array([[0.0], [1.0]]), np.array([0, 1])  # seed 0 draws [[0, 1]]: nothing out of bag
    with pytest.raises(ValueError, match="n_bootstraps"):
        cvi.bootstrap_accuracy(DummyClassifier(), X, y, n_bootstraps=1, random_state=0)


def test_empty_out_of_bag_bootstraps_warn_and_are_nan():
    X, y = np.array([[0.0], [1.0], [2.0]]), np.array([0, 1, 1])
    with pytest.warns(cvi.InferenceWarning, match="left no instance out"):
        result = cvi.bootstrap_accuracy(DummyClassifier(), X, y, method="oob", n_bootstraps=40, random_state=0)
    empty = np.isnan(result.values)
    assert empty.sum() == result.details["n_empty_bootstraps"] > 0
    low, high = np.quantile(result.values[~empty], [0.025, 0.975])
    assert (result.low, result.high) == (pytest.approx(low), pytest.approx(high))


def _failure_text(excinfo):
    return " ".join(getattr(excinfo.value, "__notes__", [])) + str(excinfo.value)


def test_fit_failure_names_the_bootstrap_and_suggests_stratify():
    X, y = noisy_data(4, n=12)
    y = np.zeros(12, dtype=int)
    y[0] = 1  # one instance of class 1: many bootstrap samples hold class 0 only
    with pytest.raises(ValueError) as excinfo:
        cvi.bootstrap_accuracy(LogisticRegression(), X, y, n_bootstraps=10, random_state=0)
    notes = _failure_text(excinfo)
    assert "bootstrap sample" in notes and "which holds only class 0" in notes and "stratify=True" in notes
    result = cvi.bootstrap_accuracy(LogisticRegression(), X, y, n_bootstraps=10, stratify=True, random_state=0)
    assert result.details["n_never_left_out"] == 1  # the single class-1 instance is in every sample


# --------------------------------------------------------------------------- bad input


@pytest.mark.parametrize(
    ("kwargs", "error", "match"),
    [
        ({"n_bootstraps": 0}, ValueError, "n_bootstraps must be an integer >= 1; got n_bootstraps=0"),
        ({"n_bootstraps": -5}, ValueError, "n_bootstraps=-5"),
        ({"n_bootstraps": 2.5}, TypeError, "n_bootstraps"),
        ({"n_bootstraps": True}, TypeError, "n_bootstraps"),
        ({"method": "632"}, ValueError, r"method must be one of '\.632', '\.632\+', 'oob'; got method='632'"),
        ({"method": ".632plus"}, ValueError, "method"),
        ({"confidence_level": 1.5}, ValueError, "confidence_level"),
        ({"confidence_level": 0}, ValueError, "confidence_level"),
        ({"confidence_level": "95%"}, TypeError, "confidence_level"),
        ({"stratify": "yes"}, TypeError, "stratify"),
    ],
)
def test_bad_parameters(kwargs, error, match):
    X, y = noisy_data(1)
    with pytest.raises(error, match=match):
        cvi.bootstrap_accuracy(DummyClassifier(), X, y, **kwargs)


@pytest.mark.parametrize("estimator", ["tree", DecisionTreeClassifier, None])
def test_non_estimators_are_refused(estimator):
    X, y = noisy_data(1)
    with pytest.raises(TypeError, match="estimator must be a scikit-learn estimator"):
        cvi.bootstrap_accuracy(estimator, X, y)


def test_bad_data_is_refused():
    X, y = noisy_data(1)
    with pytest.raises(ValueError, match="inconsistent numbers of samples"):
        cvi.bootstrap_accuracy(DummyClassifier(), X, y[:-1])
    with pytest.raises(ValueError, match="continuous"):
        cvi.bootstrap_accuracy(DummyClassifier(), X, np.linspace(0, 1, len(y)))
    with pytest.raises(ValueError, match="single class"):
        cvi.bootstrap_accuracy(DummyClassifier(), X, np.zeros(len(y)))
    with pytest.raises(ValueError, match="NaN"):
        cvi.bootstrap_accuracy(DummyClassifier(), X, np.r_[np.nan, y[1:]])


def test_bootstrap_result_unpacks_as_low_high():
    X, y = load_iris(return_X_y=True)
    result = cvi.bootstrap_accuracy(DummyClassifier(), X, y, method="oob", n_bootstraps=5, random_state=0)
    low, high = result
    assert (low, high) == (result.low, result.high)


class FailsOnLargeSamples(DummyClassifier):
    """A classifier whose fit fails for a reason that has nothing to do with the classes."""

    def fit(self, X, y):
        if len(y) > 8:
            raise ValueError("this learner refuses more than 8 instances")
        return super().fit(X, y)


def test_an_unrelated_fit_failure_gets_no_stratify_hint():
    """Issue 13, item 13: the stratify hint was added to every bootstrap fit failure, related or not."""
    X, y = noisy_data(5, n=12)
    with pytest.raises(ValueError, match="refuses more than 8") as excinfo:
        cvi.bootstrap_accuracy(FailsOnLargeSamples(), X, y, n_bootstraps=5, random_state=0)
    notes = _failure_text(excinfo)
    assert "the full dataset (resubstitution)" in notes or "bootstrap sample" in notes
    assert "stratify" not in notes


@pytest.mark.parametrize("method", ["oob", ".632", ".632+"])
def test_too_few_bootstraps_warn_that_the_interval_cannot_be_trusted(method):
    """Issue 13, item 10: n = 4 and 3 bootstraps gave an estimate outside its own interval, silently.

    Seed 1 draws the samples [[1, 3, 0, 0], [3, 1, 3, 1], [3, 0, 0, 1]] (RandomState(1).randint(0, 4,
    size=(3, 4))). Each tree splits at x = 2, so out of bag it predicts instance 0 right and instance 2
    wrong: per-sample accuracies 0, 0.5 and 0, while the per-instance average (instance 0 right in 1 of 1,
    instance 2 in 0 of 3) is 0.5, above the 95% percentile interval of the 3 values.
    """
    X, y = np.arange(4.0).reshape(-1, 1), np.array([0, 0, 1, 1])
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = cvi.bootstrap_accuracy(DecisionTreeClassifier(random_state=0), X, y, method=method,
                                        n_bootstraps=3, random_state=1)
    assert not [w for w in caught if issubclass(w.category, RuntimeWarning)]
    messages = [str(w.message) for w in caught if issubclass(w.category, cvi.InferenceWarning)]
    assert not result.low <= result.estimate <= result.high
    assert any("rests on 3 bootstrap values" in m and "needs at least 39" in m for m in messages)
    assert any(f"The estimate {result.estimate:.4g} lies outside the percentile interval" in m for m in messages)
    assert set(messages) <= set(result.warnings)


@pytest.mark.parametrize(("confidence_level", "enough"), [(0.95, 39), (0.9, 19), (0.8, 9)])
def test_enough_bootstraps_for_the_level_do_not_warn(confidence_level, enough):
    # (B + 1) (1 - level) / 2 >= 1 puts the tail percentiles between bootstrap values: B = 2 / (1 - level) - 1.
    X, y = noisy_data(3, n=30)
    tree = DecisionTreeClassifier(max_depth=2, random_state=0)
    result = cvi.bootstrap_accuracy(tree, X, y, method="oob", n_bootstraps=enough,
                                    confidence_level=confidence_level, random_state=0)
    assert not any("bootstrap values" in w for w in result.warnings)
    fewer = cvi.bootstrap_accuracy(tree, X, y, method="oob", n_bootstraps=enough - 1,
                                   confidence_level=confidence_level, random_state=0)
    assert any(f"needs at least {enough}" in w for w in fewer.warnings)


@pytest.mark.parametrize("stratify", [False, True])
@pytest.mark.parametrize("seed", range(8))
def test_tiny_samples_raise_no_runtime_warning_of_their_own(seed, stratify):
    # Neighbours of item 10: n = 4 and few bootstraps, with learners that themselves never warn.
    X, y = np.arange(4.0).reshape(-1, 1), np.array([0, 1, 1, 0])
    for method in ("oob", ".632", ".632+"):
        with warnings.catch_warnings():
            warnings.simplefilter("error", RuntimeWarning)
            warnings.simplefilter("ignore", cvi.InferenceWarning)
            try:
                result = cvi.bootstrap_accuracy(KNeighborsClassifier(1), X, y, method=method, n_bootstraps=3,
                                                stratify=stratify, random_state=seed)
            except ValueError as error:  # every instance in every sample: no out-of-bag prediction at all
                assert "Increase n_bootstraps" in str(error)
                continue
        assert np.isfinite(result.estimate) and np.isnan(result.values).sum() == result.details["n_empty_bootstraps"]
