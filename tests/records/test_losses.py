"""Per-instance losses (Nedel'ko), loss_interval (Nedel'ko's half-sample, Bayle et al.'s cv-clt), set-level metrics."""

import json
import math
import pickle
import re
import warnings

import numpy as np
import pytest
from scipy import stats
from sklearn.datasets import load_breast_cancer, load_iris
from sklearn.linear_model import LinearRegression, LogisticRegression
from sklearn.metrics import (
    adjusted_rand_score,
    brier_score_loss,
    f1_score,
    log_loss,
    mean_squared_error,
    precision_score,
    zero_one_loss,
)
from sklearn.model_selection import PredefinedSplit, cross_val_predict
from sklearn.naive_bayes import GaussianNB
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.svm import LinearSVC
from sklearn.tree import DecisionTreeClassifier

import cvinference as cvi

pytestmark = pytest.mark.filterwarnings("error::cvinference.InferenceWarning")


@pytest.fixture(scope="module")
def breast_cancer():
    return load_breast_cancer(return_X_y=True)


def _oof_proba(estimator, X, y, fold):
    """Out-of-fold probabilities from sklearn itself, on the same folds (the oracle)."""
    return cross_val_predict(estimator, X, y, cv=PredefinedSplit(fold), method="predict_proba")


def test_zero_one_loss_is_one_where_the_prediction_is_wrong(breast_cancer):
    # Oracle: sklearn's own out-of-fold predictions on the same folds, compared with y.
    X, y = breast_cancer
    result = cvi.cross_val_correctness(GaussianNB(), X, y, cv=5, random_state=0)
    predicted = cross_val_predict(GaussianNB(), X, y, cv=PredefinedSplit(result.fold[0]))
    np.testing.assert_array_equal(result.loss[0], (predicted != y).astype(float))
    np.testing.assert_array_equal(result.loss, 1.0 - result.correct)


@pytest.mark.parametrize("clip", [(0.001, 0.999), (1e-15, 1 - 1e-15)])
def test_log_loss_per_fold_equals_sklearn_on_clipped_probabilities(breast_cancer, clip):
    # Oracle: sklearn.metrics.log_loss of each fold, on sklearn's out-of-fold probabilities
    # clipped as Nedel'ko (2021, section 5) does; for two classes, clipping p and 1 - p
    # to [low, 1 - low] keeps the rows summing to one.
    X, y = breast_cancer
    result = cvi.cross_val_correctness(GaussianNB(), X, y, cv=5, random_state=0, loss=cvi.records.make_log_loss(clip))
    proba = np.clip(_oof_proba(GaussianNB(), X, y, result.fold[0]), *clip)
    for j in range(5):
        in_fold = result.fold[0] == j
        assert result.fold_mean_loss[0, j] == pytest.approx(log_loss(y[in_fold], proba[in_fold], labels=[0, 1]))
    assert result.loss_name == "log_loss" and result.accuracy == pytest.approx(np.mean(result.correct))


def test_default_log_loss_uses_nedelkos_clip(breast_cancer):
    X, y = breast_cancer
    result = cvi.cross_val_correctness(GaussianNB(), X, y, cv=5, random_state=0, loss="log_loss")
    # -ln(0.999) and -ln(0.001) bound every per-instance loss.
    assert result.loss.min() >= -math.log(0.999) - 1e-12 and result.loss.max() <= -math.log(0.001) + 1e-12
    assert result.loss.max() == pytest.approx(-math.log(0.001))  # GaussianNB is confidently wrong somewhere


def test_brier_per_fold_equals_sklearn(breast_cancer):
    # Oracle: sklearn.metrics.brier_score_loss (binary: (p - y)^2, half the sum over both classes).
    X, y = breast_cancer
    result = cvi.cross_val_correctness(GaussianNB(), X, y, cv=5, random_state=0, loss="brier")
    proba = _oof_proba(GaussianNB(), X, y, result.fold[0])[:, 1]
    for j in range(5):
        in_fold = result.fold[0] == j
        assert result.fold_mean_loss[0, j] == pytest.approx(brier_score_loss(y[in_fold], proba[in_fold]))


@pytest.mark.slow
def test_multiclass_brier_and_log_loss_per_fold_equal_sklearn():
    # Oracles: sklearn.metrics.brier_score_loss (multiclass: the sum over classes, Brier 1950) and
    # sklearn.metrics.log_loss, per fold, on sklearn's out-of-fold probabilities (log loss with a
    # clip too small to matter for these probabilities).
    X, y = load_iris(return_X_y=True)
    model = LogisticRegression(max_iter=1000)
    brier = cvi.cross_val_correctness(model, X, y, cv=5, random_state=0, loss="brier")
    logs = cvi.cross_val_correctness(model, X, y, cv=5, random_state=0, loss=cvi.records.make_log_loss((1e-15, 1.0)))
    proba = _oof_proba(model, X, y, brier.fold[0])
    np.testing.assert_allclose(brier.loss[0], np.square(proba - np.eye(3)[y]).sum(axis=1))
    for j in range(5):
        in_fold = brier.fold[0] == j
        assert brier.fold_mean_loss[0, j] == pytest.approx(
            brier_score_loss(y[in_fold], proba[in_fold], labels=[0, 1, 2]))
        assert logs.fold_mean_loss[0, j] == pytest.approx(log_loss(y[in_fold], proba[in_fold], labels=[0, 1, 2]))


def test_a_class_missing_from_a_training_fold_gets_probability_zero():
    # Class 2 has a single instance: the fold that tests it trains without it, so the
    # model's predict_proba has two columns and the true class's probability is 0 (clipped).
    X = np.arange(40, dtype=float).reshape(-1, 1)
    y = np.array([0] * 20 + [1] * 19 + [2])
    fold = np.arange(40) % 4
    result = cvi.cross_val_correctness(GaussianNB(), X, y, cv=PredefinedSplit(fold), loss="log_loss")
    assert result.loss[0, 39] == pytest.approx(-math.log(0.001))
    other = result.loss[0, :39]
    assert np.all(np.isfinite(other)) and other.max() <= -math.log(0.001)


def test_predict_proba_is_called_only_when_the_loss_needs_it(breast_cancer):
    X, y = breast_cancer
    svc = make_pipeline(StandardScaler(), LinearSVC())
    assert cvi.cross_val_correctness(svc, X, y, cv=3, random_state=0).n_splits == 3
    with pytest.raises(TypeError, match=r"loss='log_loss' needs predicted probabilities, but estimator=Pipeline"):
        cvi.cross_val_correctness(svc, X, y, cv=3, loss="log_loss")


def _cost(y_true, y_pred):
    return np.where(y_true == 1, 5.0, 1.0) * (y_true != y_pred)


def _one_minus_true_proba(y_true, proba):
    return 1.0 - proba[np.arange(len(y_true)), y_true]


def test_callable_losses_on_labels_and_on_probabilities(breast_cancer):
    X, y = breast_cancer
    result = cvi.cross_val_correctness(GaussianNB(), X, y, cv=5, random_state=0, loss=_cost, n_jobs=2)
    np.testing.assert_array_equal(result.loss[0], _cost(y, result.y_pred[0]))
    assert result.loss_name == "_cost"
    proba_loss = cvi.make_loss(_one_minus_true_proba, needs_proba=True, name="1 - p")
    result = cvi.cross_val_correctness(GaussianNB(), X, y, cv=5, random_state=0, loss=proba_loss)
    proba = _oof_proba(GaussianNB(), X, y, result.fold[0])
    np.testing.assert_allclose(result.loss[0], 1.0 - proba[np.arange(y.size), y])
    assert pickle.loads(pickle.dumps(cvi.records.make_log_loss())).needs_proba


class _NeverFitted(GaussianNB):
    def fit(self, X, y):
        raise AssertionError("fitted before the loss was checked")


def test_a_set_level_metric_as_a_loss_is_refused_before_any_fit(breast_cancer):
    X, y = breast_cancer
    with pytest.raises(ValueError, match=r"must return one loss per instance, an array of shape \(569,\); got shape "
                                         r"\(\)\. A metric such as sklearn.metrics.zero_one_loss"):
        cvi.cross_val_correctness(_NeverFitted(), X, y, cv=5, loss=zero_one_loss)
    with pytest.raises(ValueError, match=r"'1 - p' must return one loss per instance.*got shape \(\)"):
        cvi.make_loss(lambda y_true, proba: 0.5, needs_proba=True, name="1 - p")(y[:3], np.ones((3, 2)), [0, 1])


def test_metric_interval_names_the_mismatch_of_a_classification_metric_and_a_regression_result():
    y = np.array([0.5, 1.5, 2.5, 3.5, 4.5, 5.5])
    result = cvi.CVResult(y, y + 0.1, [0, 1, 2, 0, 1, 2], loss=np.full(6, 0.01), loss_name="squared_error")
    with pytest.raises(ValueError, match=r"metric='accuracy' is not a regression metric, and result is a "
                                         r"regression record .* r2"):
        cvi.metric_interval(result, "accuracy")
    assert cvi.metric_interval(result, "neg_mean_absolute_error").estimate == pytest.approx(-0.1)


@pytest.mark.parametrize("metric", ["adjusted_rand_score", "v_measure_score", "mutual_info_score"])
def test_metric_interval_refuses_a_clustering_score_on_a_regression_record(metric):
    # A clustering score runs on numbers too, taking each predicted quantity for a cluster label.
    y = np.array([0.5, 1.5, 2.5, 3.5, 4.5, 5.5])
    result = cvi.CVResult(y, y + 0.1, [0, 1, 2, 0, 1, 2], loss=np.full(6, 0.01), loss_name="squared_error")
    with pytest.raises(ValueError, match=rf"metric='{metric}' is not a regression metric, and result is a "
                                         r"regression record .* neg_mean_squared_error"):
        cvi.metric_interval(result, metric)


@pytest.mark.parametrize("metric", ["r2", "neg_mean_squared_error", "explained_variance"])
def test_metric_interval_refuses_a_regression_metric_on_a_classification_record(metric):
    # issue 28: r2 of the class codes was returned as an interval.
    X, y = load_iris(return_X_y=True)
    result = cvi.cross_val_correctness(GaussianNB(), X, y, cv=5, random_state=0)
    with pytest.raises(ValueError, match=rf"metric='{metric}' is a regression metric, and result is a "
                                         r"classification record .*'accuracy', 'balanced_accuracy'"):
        cvi.metric_interval(result, metric)


def test_a_label_comparing_metric_stays_allowed_on_a_classification_record():
    # Oracle: sklearn's adjusted_rand_score on each fold, averaged (it compares labels, not their codes' values).
    X, y = load_iris(return_X_y=True)
    result = cvi.cross_val_correctness(GaussianNB(), X, y, cv=5, random_state=0)
    values = [adjusted_rand_score(y[result.fold[0] == j], result.y_pred[0][result.fold[0] == j]) for j in range(5)]
    assert cvi.metric_interval(result, "adjusted_rand_score").estimate == pytest.approx(np.mean(values))


@pytest.mark.parametrize("metric", ["f1", "precision", "recall", "jaccard"])
def test_metric_interval_names_the_averaged_scorers_for_a_binary_metric_on_many_classes(metric):
    # issue 28: sklearn's "average='binary'" message, though metric_interval has no average.
    X, y = load_iris(return_X_y=True)
    result = cvi.cross_val_correctness(GaussianNB(), X, y, cv=5, random_state=0)
    with pytest.raises(ValueError, match=rf"metric='{metric}' is defined for two classes, and result has 3 classes "
                                         rf"\(\[0, 1, 2\]\); pass .*metric='{metric}_macro' or "
                                         rf"metric='{metric}_weighted'") as caught:
        cvi.metric_interval(result, metric)
    assert "average=" not in str(caught.value)


def test_loss_results_round_trip_through_json(breast_cancer):
    X, y = breast_cancer
    result = cvi.cross_val_correctness(GaussianNB(), X, y, cv=3, random_state=0, loss="log_loss")
    again = cvi.CVResult.from_dict(result.to_dict())
    np.testing.assert_array_equal(again.loss, result.loss)
    assert again.loss_name == "log_loss" and again.accuracy == result.accuracy


@pytest.mark.parametrize("clip", [(0, 1), (0.5, 0.1), (0.1,), "0.001", (0.1, 1.5)])
def test_make_log_loss_refuses_bad_clips(clip):
    with pytest.raises(ValueError, match="clip must be a pair"):
        cvi.records.make_log_loss(clip)


def test_unknown_losses_list_the_choices():
    with pytest.raises(ValueError, match=r"^loss must be one of 'absolute_error', 'brier', 'log_loss', "
                                         r"'squared_error', 'zero_one', a Loss, or a callable .*; got loss='hinge'\.$"):
        cvi.CVEvaluator(loss="hinge").evaluate(None, [[0], [1]], [0, 1])


# --------------------------------------------------------------------------- loss_interval


@pytest.fixture(scope="module")
def log_loss_result(breast_cancer):
    X, y = breast_cancer
    return cvi.cross_val_correctness(GaussianNB(), X, y, cv=10, random_state=0, loss="log_loss")


@pytest.mark.parametrize(("method", "effective"), [("half-sample", 0.5), ("normal", 1.0)])
def test_loss_interval_equals_nedelkos_formula_computed_with_numpy(log_loss_result, method, effective):
    # Nedel'ko (2021): S~ is the population standard deviation of the per-instance CV losses
    # (section 3, ddof = 0) and err_CV ~ S~ / sqrt(N / 2) (section 5); "normal" uses sqrt(N).
    losses = log_loss_result.loss[0]
    spread = np.std(losses, ddof=0)
    half_width = stats.norm.ppf(0.95) * spread / np.sqrt(effective * losses.size)
    interval = cvi.loss_interval(log_loss_result, 0.9, method=method)
    assert interval.estimate == pytest.approx(losses.mean())
    assert tuple(interval) == pytest.approx((losses.mean() - half_width, losses.mean() + half_width))
    assert interval.method == method and "S~" in interval.notes[0]


def test_loss_interval_fold_t_equals_scipy(log_loss_result):
    # Oracle: scipy.stats.t.interval on the ten fold mean losses.
    fold_means = log_loss_result.fold_mean_loss[0]
    expected = stats.t.interval(0.95, 9, loc=fold_means.mean(), scale=stats.sem(fold_means))
    interval = cvi.loss_interval(log_loss_result, method="t")
    assert tuple(interval) == pytest.approx(expected) and interval.details["averaging"] == "fold"


def test_loss_interval_works_for_regression():
    X = np.linspace(0, 1, 60).reshape(-1, 1)
    y = 2 * X.ravel() + np.sin(np.arange(60))
    result = cvi.cross_val_correctness(LinearRegression(), X, y, cv=5, random_state=0, loss="squared_error")
    interval = cvi.loss_interval(result)
    assert interval.estimate == pytest.approx(mean_squared_error(y, result.y_pred[0]))
    assert interval.low < interval.estimate < interval.high and "squared_error" in interval.estimand


def test_loss_interval_bad_input(log_loss_result):
    with pytest.raises(ValueError, match="method must be one of 'auto', 'half-sample', 'normal', 't', 'cv-clt'"):
        cvi.loss_interval(log_loss_result, method="half")
    with pytest.raises(ValueError, match="confidence_level"):
        cvi.loss_interval(log_loss_result, 1.0)
    with pytest.raises(TypeError, match="result must be a CVResult"):
        cvi.loss_interval([0.1, 0.2])


def test_loss_interval_targets():
    # Nedel'ko's err_CV is about the model fitted to all N (conditional); the others are about the
    # models fitted in the folds, Bayle et al. (2020)'s k-fold test error.
    result = cvi.CVResult(y_true=[0.0] * 6, y_pred=[0.0] * 6, fold=[0, 1, 2] * 2,
                          loss=[0.1, 0.5, 0.2, 0.4, 0.3, 0.9], loss_name="custom")
    targets = {method: cvi.loss_interval(result, method=method).target
               for method in ("half-sample", "normal", "t", "cv-clt")}
    assert targets == {"half-sample": "conditional", "normal": "kfold", "t": "kfold", "cv-clt": "kfold"}


def test_cv_clt_variances_by_hand():
    # Bayle et al. (2020), section 3. Losses 0, 1 | 1, 3 in two folds of two:
    # within-fold: fold variances (ddof 1) 0.5 and 2.0, mean 1.25;
    # all-pairs: mean 1.25, squared deviations 1.5625 + 0.0625 + 0.0625 + 3.0625 = 4.75, / 4 = 1.1875.
    result = cvi.CVResult(y_true=[0.0] * 4, y_pred=[0.0] * 4, fold=[0, 0, 1, 1], loss=[0.0, 1.0, 1.0, 3.0],
                          loss_name="custom")
    z = stats.norm.ppf(0.975)
    for variance, sigma2 in (("within-fold", 1.25), ("all-pairs", 1.1875)):
        interval = cvi.loss_interval(result, method="cv-clt", variance=variance)
        half_width = z * math.sqrt(sigma2 / 4)
        assert interval.estimate == 1.25
        assert interval.details["standard_error"] == pytest.approx(math.sqrt(sigma2 / 4), abs=1e-15)
        assert tuple(interval) == pytest.approx((max(0.0, 1.25 - half_width), 1.25 + half_width), abs=1e-15)
        assert interval.details["sigma_hat"] == pytest.approx(math.sqrt(sigma2), abs=1e-15)
        assert interval.method == "cv-clt" and interval.details["variance"] == variance


def _within_fold_by_loops(losses, fold):
    """Bayle et al.'s within-fold estimator written out: (1/k) sum_j 1/(m_j - 1) sum_{i in B_j} (L_i - mean_j)^2."""
    total, folds = 0.0, sorted(set(fold.tolist()))
    for j in folds:
        members = [loss for loss, f in zip(losses, fold, strict=True) if f == j]
        mean = sum(members) / len(members)
        total += sum((loss - mean) ** 2 for loss in members) / (len(members) - 1)
    return total / len(folds)


@pytest.mark.parametrize("cv", [10, 7])  # 569 = 10 folds of 56-57; 7 folds of 81-82: unequal sizes
def test_cv_clt_equals_bayles_formulas_written_out(breast_cancer, cv):
    X, y = breast_cancer
    result = cvi.cross_val_correctness(GaussianNB(), X, y, cv=cv, random_state=0, loss="log_loss")
    losses, fold, n = result.loss[0], result.fold[0], result.n_samples
    z = stats.norm.ppf(0.95)
    expected = {"within-fold": _within_fold_by_loops(losses, fold), "all-pairs": np.var(losses, ddof=0)}
    for variance, sigma2 in expected.items():
        interval = cvi.loss_interval(result, 0.9, method="cv-clt", variance=variance)
        low, high = losses.mean() - z * math.sqrt(sigma2 / n), losses.mean() + z * math.sqrt(sigma2 / n)
        assert abs(interval.low - low) < 1e-12 and abs(interval.high - high) < 1e-12
        assert abs(interval.estimate - losses.mean()) < 1e-12


def test_cv_clt_under_leave_one_out_needs_all_pairs():
    X, y = load_iris(return_X_y=True)
    result = cvi.cross_val_correctness(GaussianNB(), X[::3], y[::3], cv="loo", loss="log_loss")
    with pytest.raises(ValueError, match=r"variance='within-fold' needs at least 2 instances in every fold.*"
                                         r"leave-one-out.*Pass variance='all-pairs'"):
        cvi.loss_interval(result, method="cv-clt")
    clt = cvi.loss_interval(result, method="cv-clt", variance="all-pairs")
    normal = cvi.loss_interval(result, method="normal")
    assert tuple(clt) == pytest.approx(tuple(normal), abs=1e-15)  # same formula; they differ in their claim


def test_cv_clt_pools_repeats_with_the_mean_of_their_variances(breast_cancer):
    X, y = breast_cancer
    result = cvi.cross_val_correctness(GaussianNB(), X, y, cv=5, n_repeats=2, random_state=0, loss="log_loss")
    with pytest.warns(cvi.InferenceWarning, match="2 repeats of cross-validation are pooled"):
        pooled = cvi.loss_interval(result, method="cv-clt")
    sigma2 = np.mean([_within_fold_by_loops(result.loss[r], result.fold[r]) for r in range(2)])
    assert pooled.estimate == pytest.approx(result.loss.mean(), abs=1e-12)
    assert pooled.details["standard_error"] == pytest.approx(math.sqrt(sigma2 / result.n_samples), abs=1e-12)
    single = cvi.loss_interval(result, method="cv-clt", repeat=1)
    assert single.estimate == pytest.approx(result.loss[1].mean(), abs=1e-12)


def test_cv_clt_bad_variance_and_round_trip(log_loss_result):
    with pytest.raises(ValueError, match=r"variance must be one of 'within-fold', 'all-pairs'; got variance='pooled'"):
        cvi.loss_interval(log_loss_result, method="cv-clt", variance="pooled")
    interval = cvi.loss_interval(log_loss_result, method="cv-clt")
    back = cvi.results.Interval.from_dict(json.loads(json.dumps(interval.to_dict(), allow_nan=False)))
    assert back.to_dict() == interval.to_dict() and back.target == "kfold"


# --------------------------------------------------------------------------- metric_interval


@pytest.mark.parametrize(("metric", "oracle"), [
    ("f1", f1_score),
    ("precision", precision_score),
    (lambda t, p: f1_score(t, p), f1_score),
])
def test_metric_per_fold_equals_sklearn_and_the_interval_is_the_fold_t(breast_cancer, metric, oracle):
    # Oracle: the sklearn metric on each fold's y_true / y_pred, then scipy.stats.t.interval
    # on the fold values (van der Aalst 3.6: set-level metrics by k-fold; Wong 4.3.3's fold t).
    X, y = breast_cancer
    result = cvi.cross_val_correctness(DecisionTreeClassifier(random_state=0), X, y, cv=10, random_state=0)
    values = np.array([oracle(y[result.fold[0] == j], result.y_pred[0][result.fold[0] == j]) for j in range(10)])
    interval = cvi.metric_interval(result, metric, confidence_level=0.9)
    assert interval.estimate == pytest.approx(values.mean())
    assert tuple(interval) == pytest.approx(stats.t.interval(0.9, 9, loc=values.mean(), scale=stats.sem(values)))


def test_metric_interval_with_string_labels_and_macro_average():
    X, y = load_iris(return_X_y=True)
    names = np.array(["setosa", "versicolor", "virginica"])[y]
    result = cvi.cross_val_correctness(GaussianNB(), X, names, cv=5, random_state=0)
    values = [f1_score(names[result.fold[0] == j], result.y_pred[0][result.fold[0] == j], average="macro")
              for j in range(5)]
    with pytest.warns(cvi.InferenceWarning, match="The t interval of f1_macro left the metric's range"):
        assert cvi.metric_interval(result, "f1_macro").estimate == pytest.approx(np.mean(values))


@pytest.mark.parametrize("metric", ["roc_auc", "average_precision", "neg_log_loss", "neg_brier_score"])
def test_metric_interval_says_how_to_keep_the_scores_a_metric_needs(breast_cancer, metric):
    X, y = breast_cancer
    result = cvi.cross_val_correctness(GaussianNB(), X, y, cv=5, random_state=0)
    with pytest.raises(ValueError, match=rf"metric='{metric}' is computed from each instance's out-of-fold scores "
                                         r".*result.y_score is None.*cross_val_correctness\(\.\.\., "
                                         r"response_method='auto'\) or CVEvaluator\(\.\.\., "
                                         r"response_method='auto'\)"):
        cvi.metric_interval(result, metric)


def test_metric_interval_refuses_metrics_that_need_scores(breast_cancer):
    X, y = breast_cancer
    result = cvi.cross_val_correctness(GaussianNB(), X, y, cv=5, random_state=0)
    with pytest.raises(ValueError, match=r"got metric='f2'\. Valid names: accuracy, balanced_accuracy, f1, f1_macro"):
        cvi.metric_interval(result, "f2")


@pytest.mark.slow
def test_pooled_repeats_warn_for_loss_and_metric_intervals(breast_cancer):
    X, y = breast_cancer
    result = cvi.cross_val_correctness(LogisticRegression(max_iter=5000), X, y, cv=3, n_repeats=2,
                                       random_state=0, loss="brier")
    with pytest.warns(cvi.InferenceWarning, match="2 repeats of cross-validation are pooled"):
        cvi.loss_interval(result)
    with pytest.warns(cvi.InferenceWarning, match="pooled"):
        cvi.metric_interval(result, "f1")
    assert cvi.loss_interval(result, repeat=1).estimate == pytest.approx(result.loss[1].mean())


def _squared(y_true, y_pred):
    return (y_true - y_pred) ** 2


def test_a_bare_callable_on_a_continuous_target_is_a_regression_loss():
    X = np.linspace(0, 1, 40).reshape(-1, 1)
    y = 3 * X.ravel() + np.cos(np.arange(40))
    result = cvi.cross_val_correctness(LinearRegression(), X, y, cv=4, random_state=0, loss=_squared)
    assert result.classes is None and result.mean_loss == pytest.approx(mean_squared_error(y, result.y_pred[0]))
    with pytest.raises(ValueError, match=r"make_loss\(needs_proba=True\) needs class labels"):
        cvi.make_loss(_squared, needs_proba=True, classification=False)


def test_functions_without_a_loss_name_themselves_when_y_is_continuous():
    X, y = np.arange(20.0).reshape(-1, 1), np.linspace(0.1, 2.0, 20)
    with pytest.raises(ValueError, match=r"^holdout needs class labels, but y is continuous"):
        cvi.evaluation.holdout(GaussianNB(), X, y)
    with pytest.raises(ValueError, match=r"^loss='log_loss' needs class labels"):
        cvi.cross_val_correctness(GaussianNB(), X, y, cv=2, loss="log_loss")


def test_half_sample_interval_is_about_the_model_fitted_to_all_instances(log_loss_result):
    # Nedel'ko (2021, section 3): err_CV compares the CV estimate with the loss of the model
    # trained on all N instances; the other two methods are about the (k-1)/k models.
    assert "all n = 569 instances" in cvi.loss_interval(log_loss_result).estimand
    assert "9/10 of this dataset" in cvi.loss_interval(log_loss_result, method="normal").estimand
    assert "log_loss loss" not in cvi.loss_interval(log_loss_result).estimand


def test_metric_interval_refuses_leave_one_out_and_single_folds(breast_cancer):
    X, y = breast_cancer
    loo = cvi.cross_val_correctness(GaussianNB(), X[:60], y[:60], cv="loo")
    with pytest.raises(ValueError, match="under leave-one-out every fold holds one instance"):
        cvi.metric_interval(loo, "f1")
    with pytest.raises(ValueError, match="so balanced_accuracy would be computed on one instance") as refused:
        cvi.metric_interval(loo, "balanced_accuracy")
    assert "F1" not in str(refused.value)
    holdout = cvi.evaluation.holdout(GaussianNB(), X, y, random_state=0)
    with pytest.raises(ValueError, match=r"this record is one evaluation set \(one fold\), so it has one value of it"):
        cvi.metric_interval(holdout, "f1")


def test_metric_interval_with_string_binary_labels_says_how_to_name_the_positive_class(breast_cancer):
    X, y = breast_cancer
    labels = np.array(["malignant", "benign"])[y]
    result = cvi.cross_val_correctness(GaussianNB(), X, labels, cv=5, random_state=0)
    with pytest.raises(ValueError, match=r"needs to know the positive class.*pos_label"):
        cvi.metric_interval(result, "f1")
    values = [f1_score(labels[result.fold[0] == j], result.y_pred[0][result.fold[0] == j], pos_label="benign")
              for j in range(5)]
    interval = cvi.metric_interval(result, lambda t, p: f1_score(t, p, pos_label="benign"))
    assert interval.estimate == pytest.approx(np.mean(values))


def _looping_loss(y_true, y_pred):
    return [float(t != p) for t, p in zip(y_true, y_pred, strict=True)]


def test_callable_losses_get_one_dimensional_arrays_once_per_repeat(breast_cancer):
    X, y = breast_cancer
    result = cvi.cross_val_correctness(GaussianNB(), X, y, cv=3, n_repeats=2, random_state=0, loss=_looping_loss)
    np.testing.assert_array_equal(result.loss, 1.0 - result.correct)


@pytest.mark.parametrize("parameters, match", [
    ({"needs_proba": "yes"}, "needs_proba must be True or False; got needs_proba='yes'"),
    ({"classification": 1}, "classification must be True or False, or None; got classification=1"),
])
def test_make_loss_refuses_flags_that_are_not_booleans(parameters, match):
    with pytest.raises(TypeError, match=match):
        cvi.make_loss(lambda y_true, y_pred: y_true != y_pred, **parameters)


def test_r2_and_negated_errors_are_clipped_to_their_possible_range():
    """Issue 13, item 9: metric_interval(result, "r2") gave an upper bound above 1 (1.009, 1.023 seen)."""
    from sklearn.datasets import make_regression
    from sklearn.linear_model import LinearRegression

    X, y = make_regression(12, 3, noise=5, random_state=1)
    result = cvi.cross_val_correctness(LinearRegression(), X, y, cv=3, loss="squared_error", random_state=0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", cvi.InferenceWarning)
        r2 = cvi.metric_interval(result, "r2")
        error = cvi.metric_interval(result, "neg_mean_absolute_error")
    unclipped_high = r2.estimate + r2.details["critical_value"] * r2.details["standard_error"]
    assert unclipped_high > 1 and r2.high == 1.0  # the fold t bound passes 1; R^2 cannot
    assert r2.low == pytest.approx(r2.estimate - r2.details["critical_value"] * r2.details["standard_error"])
    assert error.high <= 0.0


def test_f1_on_a_fold_without_the_positive_class_is_zero_with_a_warning_naming_the_fold():
    """Issue 13, item 13: "the labels are [0]" when one fold lacked the positive class though y has both."""
    y = np.array([0] * 12 + [1] * 3)
    result = cvi.CVResult(y, y.copy(), np.repeat(np.arange(3), 5))  # folds 0 and 1: only class 0
    with pytest.warns(cvi.InferenceWarning, match=r"f1 is degenerate on 2 of 3 folds \(fold 0 of repeat 0, fold 1 "
                                                  r"of repeat 0\)"), \
            pytest.warns(cvi.InferenceWarning, match="The t interval of f1 left the metric's range"):
        interval = cvi.metric_interval(result, "f1")
    # Oracle: sklearn's f1_score with the result's labels and zero_division=0 (its default value), fold by fold.
    values = [f1_score(y[5 * j:5 * j + 5], y[5 * j:5 * j + 5], labels=[0, 1], zero_division=0.0) for j in range(3)]
    assert values == [0.0, 0.0, 1.0]
    assert interval.estimate == pytest.approx(np.mean(values))


def test_the_positive_class_message_names_the_results_classes_not_one_folds():
    y = np.array(["a"] * 12 + ["b"] * 3)
    result = cvi.CVResult(y, y.copy(), np.repeat(np.arange(3), 5))
    with pytest.raises(ValueError, match=r"the classes are \['a', 'b'\]; pass pos_label, one of them"):
        cvi.metric_interval(result, "f1")


@pytest.mark.parametrize("name, error", [("", ValueError), ("   ", ValueError), (3, TypeError)])
def test_make_loss_refuses_a_name_reports_cannot_show(name, error):
    expected = re.escape(f"name must be a non-empty string (such as 'cost'), or None; got name={name!r}.")
    with pytest.raises(error, match=expected):
        cvi.make_loss(lambda y_true, y_pred: y_true != y_pred, name=name)


@pytest.mark.parametrize("arguments, error, match", [
    (("x", True, None), TypeError, r"function must be callable.*got None"),
    (("", True, np.not_equal), ValueError, r"name must be a non-empty string \(such as 'cost'\); got name=''"),
    (("x", 1, np.not_equal), TypeError, r"classification must be True or False, or None; got classification=1"),
    (("x", True, np.not_equal, "yes"), TypeError, r"needs_proba must be True or False; got needs_proba='yes'"),
])
def test_a_loss_made_directly_is_checked_when_made_not_when_used(arguments, error, match):
    with pytest.raises(error, match=match):
        cvi.records.Loss(*arguments)
