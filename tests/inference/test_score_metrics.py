"""Score metrics fold by fold, per-instance losses from kept scores, and the corrected t on fold values
(cvinference/inference/_score_metrics.py).

Oracles: sklearn's roc_auc_score, average_precision_score, log_loss and brier_score_loss on each fold; the
package's corrected_resampled_ttest on CVResults (an independent path to the same t); Nadeau & Bengio's
(2003) corrected variance written out with scipy's t quantile.
"""

import math

import numpy as np
import pytest
from scipy import special, stats
from sklearn.metrics import average_precision_score, brier_score_loss, log_loss, roc_auc_score
from sklearn.preprocessing import label_binarize

from cvinference import CVResult, InferenceWarning, corrected_resampled_ttest
from cvinference.inference._score_metrics import (
    corrected_fold_interval,
    corrected_fold_test,
    fold_metric_table,
    score_losses,
)
from cvinference.records import make_log_loss

TIGHT_LOG_LOSS = make_log_loss((1e-15, 1 - 1e-15))


def layout(rng, n=120, n_repeats=3, n_splits=4, n_classes=2):
    """Labels, probabilities (positive class's, or one column per class) with ties, and stratified folds."""
    y = np.tile(np.arange(n_classes), n // n_classes)
    logits = rng.normal(0, 1, (n_repeats, n, n_classes)) + 1.2 * np.eye(n_classes)[y]
    proba = special.softmax(np.round(logits, 1), axis=2)
    fold = np.empty((n_repeats, n), dtype=int)
    for r in range(n_repeats):
        for label in range(n_classes):
            members = rng.permutation(np.flatnonzero(y == label))
            fold[r, members] = np.arange(members.size) % n_splits
    return y, (proba[:, :, 1] if n_classes == 2 else proba), fold


def per_fold(function, y, score, fold):
    return np.array([[function(y[fold[r] == j], score[r][fold[r] == j]) for j in range(fold.max() + 1)]
                     for r in range(fold.shape[0])])


# --------------------------------------------------------------------------- fold tables against sklearn


@pytest.mark.parametrize("seed", range(3))
def test_binary_fold_tables_equal_sklearn(seed):
    y, proba, fold = layout(np.random.default_rng(seed))
    checks = {
        "roc_auc": roc_auc_score,
        "average_precision": average_precision_score,
        "brier": brier_score_loss,
        TIGHT_LOG_LOSS: lambda y_fold, p: log_loss(y_fold, p, labels=[0, 1]),
    }
    for metric, oracle in checks.items():
        table = fold_metric_table(y, proba, fold, metric=metric)
        assert table.shape == (3, 4)
        np.testing.assert_allclose(table, per_fold(oracle, y, proba, fold), rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("seed", range(3))
def test_multiclass_fold_tables_equal_sklearn(seed):
    y, proba, fold = layout(np.random.default_rng(seed), n=150, n_classes=3)
    classes = [0, 1, 2]
    checks = {
        "roc_auc": lambda y_fold, p: roc_auc_score(y_fold, p, multi_class="ovr", average="macro"),
        "average_precision": lambda y_fold, p: average_precision_score(label_binarize(y_fold, classes=classes), p,
                                                                       average="macro"),
        "brier": brier_score_loss,
        TIGHT_LOG_LOSS: lambda y_fold, p: log_loss(y_fold, p, labels=classes),
    }
    for metric, oracle in checks.items():
        np.testing.assert_allclose(fold_metric_table(y, proba, fold, metric=metric),
                                   per_fold(oracle, y, proba, fold), rtol=1e-12, atol=1e-12)


def test_string_labels_and_decision_values_for_the_auc():
    rng = np.random.default_rng(4)
    y, proba, fold = layout(rng)
    names = np.array(["no", "yes"])[y]
    decision = special.logit(proba) * 3.0  # any increasing map of the scores keeps the AUC
    table = fold_metric_table(names, decision, fold)
    np.testing.assert_allclose(table, per_fold(lambda t, s: roc_auc_score(t == "yes", s), names, decision, fold),
                               rtol=1e-12)


def test_one_repeat_may_drop_the_first_axis():
    y, proba, fold = layout(np.random.default_rng(5), n_repeats=1)
    np.testing.assert_array_equal(fold_metric_table(y, proba[0], fold[0]), fold_metric_table(y, proba, fold))


def test_default_log_loss_is_the_records_nedelko_clipped_one():
    y = np.array([0, 1, 0, 1])
    proba = np.array([[0.0, 1.0, 0.3, 0.6]])  # 0.0 and 1.0 are clipped to 0.001 and 0.999
    expected = [-math.log(0.999), -math.log(0.999), -math.log(0.7), -math.log(0.6)]  # Nedel'ko 2021, section 5
    np.testing.assert_allclose(score_losses(y, proba)[0], expected, rtol=1e-12)
    np.testing.assert_allclose(fold_metric_table(y, proba, [[0, 0, 1, 1]], metric="log_loss"),
                               [[np.mean(expected[:2]), np.mean(expected[2:])]], rtol=1e-12)


def test_score_losses_average_to_sklearns_losses():
    y, proba, _ = layout(np.random.default_rng(6), n=90, n_classes=3)
    losses = score_losses(y, proba, loss=TIGHT_LOG_LOSS)
    assert losses.shape == (3, 90)
    for r in range(3):
        assert losses[r].mean() == pytest.approx(log_loss(y, proba[r]), rel=1e-12)
        assert score_losses(y, proba[r], loss="brier").mean() == pytest.approx(brier_score_loss(y, proba[r]),
                                                                               rel=1e-12)


# --------------------------------------------------------------------------- refusals


def test_a_fold_without_a_class_is_refused_for_the_auc_with_the_fix():
    y = np.array([0, 1, 0, 1, 1, 1])
    score = np.array([[0.2, 0.8, 0.3, 0.6, 0.7, 0.9]])
    with pytest.raises(ValueError, match=r"fold 1 of repeat 0.*no instance of class\(es\) \[0\].*stratified"):
        fold_metric_table(y, score, [[0, 0, 0, 0, 1, 1]])
    with pytest.raises(ValueError, match="average_precision is undefined on fold 1"):
        fold_metric_table(y, score, [[0, 0, 0, 0, 1, 1]], metric="average_precision")
    # a loss needs no class in every fold
    assert np.isfinite(fold_metric_table(y, score, [[0, 0, 0, 0, 1, 1]], metric="brier")).all()


def test_one_positive_in_a_fold_still_has_an_auc():
    y = np.array([0, 1, 0, 0, 1, 0])
    score = np.array([[0.2, 0.8, 0.3, 0.6, 0.5, 0.9]])
    table = fold_metric_table(y, score, [[0, 0, 0, 1, 1, 1]])
    assert table.tolist() == [[roc_auc_score([0, 1, 0], [0.2, 0.8, 0.3]), roc_auc_score([0, 1, 0], [0.6, 0.5, 0.9])]]


def test_decision_values_are_refused_for_the_losses():
    with pytest.raises(ValueError, match=r"decision values, not probabilities.*predict_proba"):
        fold_metric_table([0, 1, 0, 1], [[-1.0, 2.0, 0.5, 0.3]], [[0, 0, 1, 1]], metric="log_loss")


@pytest.mark.parametrize(("kwargs", "match"), [
    (dict(metric="f1"), "metric must be one of"),
    (dict(y_score=np.zeros((2, 5))), r"y_score must have shape \(n_repeats, n_samples\)"),
    (dict(fold=np.zeros((1, 4))), "fold must hold a fold number"),
])
def test_bad_inputs_name_the_parameter(kwargs, match):
    arguments = dict(y_true=[0, 1, 0, 1], y_score=[[0.1, 0.9, 0.2, 0.8]], fold=[[0, 0, 1, 1]]) | kwargs
    with pytest.raises(ValueError, match=match):
        fold_metric_table(**arguments)


# --------------------------------------------------------------------------- corrected t on fold values


def test_corrected_fold_interval_is_nadeau_bengios_with_scipys_t():
    values = np.array([[0.81, 0.77, 0.85, 0.79, 0.83], [0.80, 0.84, 0.78, 0.82, 0.80]])
    interval = corrected_fold_interval(values, confidence_level=0.9)
    # Nadeau & Bengio 2003: Var(mean) = (1 / (k r) + n_test / n_train) s^2, n_test / n_train = 1 / (k - 1)
    standard_error = math.sqrt((1 / 10 + 1 / 4) * values.var(ddof=1))
    half = stats.t.ppf(0.95, 9) * standard_error
    assert (interval.estimate, interval.low, interval.high) == pytest.approx(
        (values.mean(), values.mean() - half, values.mean() + half), abs=1e-12)
    assert interval.details["standard_error"] == pytest.approx(standard_error, abs=1e-15)
    assert (interval.details["df"], interval.target, interval.details["averaging"]) == (9, "unconditional", "fold")


def test_corrected_fold_interval_is_clipped_to_the_auc_range_with_a_warning():
    values = np.array([[0.99, 0.93, 1.0, 0.97]])
    with pytest.warns(InferenceWarning, match="clipped"):
        interval = corrected_fold_interval(values)
    assert interval.high == 1.0 and interval.details["clipped"] == ("high",)


def test_corrected_fold_interval_of_equal_values_warns_of_zero_width():
    with pytest.warns(InferenceWarning, match="standard error is 0"):
        interval = corrected_fold_interval([[0.8, 0.8, 0.8]])
    assert interval.low == interval.estimate == interval.high == pytest.approx(0.8)


def test_corrected_fold_test_equals_corrected_resampled_ttest_on_fold_accuracies():
    """The package's corrected_resampled_ttest on two CVResults with these fold accuracies is an independent
    path to the same t (its docstring's example: 2 x 5-fold, 40 instances per fold)."""
    correct_a = [[32, 28, 30, 30, 32], [31, 30, 29, 33, 29]]
    correct_b = [[30, 27, 30, 26, 30], [30, 29, 30, 28, 30]]
    fold = np.tile(np.repeat(np.arange(5), 40), (2, 1))

    def result(correct):
        y_pred = [np.concatenate([[1] * r + [0] * (40 - r) for r in row]) for row in correct]
        return CVResult(y_true=np.ones(200, dtype=int), y_pred=y_pred, fold=fold)

    expected = corrected_resampled_ttest(result(correct_a), result(correct_b))
    test = corrected_fold_test(np.array(correct_a) / 40, np.array(correct_b) / 40, metric="accuracy")
    assert (test.statistic, test.pvalue, test.estimate, test.df) == pytest.approx(
        (expected.statistic, expected.pvalue, expected.estimate, expected.df), abs=1e-12)
    assert test.target == "unconditional"


def test_corrected_fold_test_refuses_tables_of_different_folds():
    with pytest.raises(ValueError, match="same folds"):
        corrected_fold_test([[0.8, 0.7, 0.9]], [[0.8, 0.7]])


# --------------------------------------------------------------------------- on real out-of-fold scores


def test_real_out_of_fold_scores_fold_table_and_delong_agree_with_sklearn():
    from sklearn.datasets import load_breast_cancer
    from sklearn.linear_model import LogisticRegression
    from sklearn.model_selection import StratifiedKFold, cross_val_predict
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler

    from cvinference.inference._delong import delong_interval

    X, y = load_breast_cancer(return_X_y=True)
    splitter = StratifiedKFold(5, shuffle=True, random_state=0)
    fold = np.empty(y.size, dtype=int)
    for j, (_, test) in enumerate(splitter.split(X, y)):
        fold[test] = j
    model = make_pipeline(StandardScaler(), LogisticRegression(C=0.05))
    score = cross_val_predict(model, X, y, cv=splitter, method="predict_proba")[:, 1]
    table = fold_metric_table(y, score[None], fold[None])
    np.testing.assert_allclose(table, per_fold(roc_auc_score, y, score[None], fold[None]), rtol=1e-12)
    interval = delong_interval(y, score)
    assert interval.estimate == pytest.approx(roc_auc_score(y, score), abs=1e-12)
    assert interval.low < interval.estimate < interval.high <= 1
