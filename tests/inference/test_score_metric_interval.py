"""metric_interval on score metrics (roc_auc, roc_auc_ovr, average_precision, neg_log_loss, neg_brier_score) of
a record that kept its out-of-fold scores (cvinference/inference/_metric_interval.py).

Oracles: sklearn's roc_auc_score, average_precision_score, log_loss and brier_score_loss on each fold of the
record's own scores; corrected_fold_interval and delong_interval called directly (oracle-tested in
test_score_metrics.py and test_delong.py) on the sklearn fold table and the pooled scores.
"""

import numpy as np
import pytest
from sklearn.datasets import load_breast_cancer, load_iris
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import average_precision_score, brier_score_loss, log_loss, roc_auc_score
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.svm import LinearSVC

from cvinference import cross_val_correctness, metric_interval
from cvinference.inference._delong import delong_interval
from cvinference.inference._score_metrics import corrected_fold_interval

SKLEARN = {
    "roc_auc": roc_auc_score,
    "average_precision": average_precision_score,
    "neg_log_loss": lambda y, p: -log_loss(y, p, labels=[0, 1]),
    "neg_brier_score": lambda y, p: -brier_score_loss(y, p),
}


def learner():
    return make_pipeline(StandardScaler(), LogisticRegression(C=0.05))


@pytest.fixture(scope="module")
def scored():
    X, y = load_breast_cancer(return_X_y=True)
    X = X[:, :4]  # a harder task keeps the AUC away from 1
    return cross_val_correctness(learner(), X, y, cv=5, n_repeats=2, random_state=0, response_method="auto")


def sklearn_table(result, metric):
    score = SKLEARN[metric]
    return np.array([[score(result.y_true[result.fold[r] == j], result.y_score[r][result.fold[r] == j].astype(float))
                      for j in range(result.n_splits)] for r in range(result.n_repeats)])


@pytest.mark.parametrize("metric", list(SKLEARN))
def test_corrected_t_equals_the_interval_of_sklearn_fold_values(scored, metric):
    table = sklearn_table(scored, metric)
    interval = metric_interval(scored, metric, confidence_level=0.9)
    assert interval.estimate == pytest.approx(table.mean(), rel=1e-6)
    sign = -1 if metric.startswith("neg_") else 1
    loss = {"neg_log_loss": "log_loss", "neg_brier_score": "brier"}.get(metric, metric)
    oracle = corrected_fold_interval(sign * table, confidence_level=0.9, metric=loss)
    low, high = (-oracle.high, -oracle.low) if sign < 0 else (oracle.low, oracle.high)
    assert (interval.low, interval.high) == pytest.approx((low, high), rel=1e-6)
    assert interval.method == "corrected-t" and interval.target == "unconditional"


def test_negated_losses_stay_at_most_zero(scored):
    for metric in ("neg_log_loss", "neg_brier_score"):
        interval = metric_interval(scored, metric)
        assert interval.low < interval.estimate < interval.high <= 0
        assert interval.estimand.startswith(metric)


def test_delong_is_the_pooled_interval_of_one_repeat(scored):
    interval = metric_interval(scored, "roc_auc", method="delong", repeat=1)
    assert interval.estimate == pytest.approx(roc_auc_score(scored.y_true, scored.y_score[1]), rel=1e-6)
    oracle = delong_interval(scored.y_true, scored.y_score[1])
    assert (interval.low, interval.high) == pytest.approx((oracle.low, oracle.high), rel=1e-9)
    assert interval.target == "kfold" and any("calibration" in note for note in interval.notes)
    assert metric_interval(scored, "roc_auc", method="delong").estimate == pytest.approx(
        roc_auc_score(scored.y_true, scored.y_score[0]), rel=1e-6)


def test_one_vs_rest_macro_auc_on_three_classes():
    X, y = load_iris(return_X_y=True)
    result = cross_val_correctness(learner(), X, y, cv=5, random_state=0, response_method="auto")
    folds = [roc_auc_score(y[result.fold[0] == j], result.y_score[0][result.fold[0] == j], multi_class="ovr")
             for j in range(5)]
    assert metric_interval(result, "roc_auc_ovr").estimate == pytest.approx(np.mean(folds), rel=1e-6)
    with pytest.raises(ValueError, match="roc_auc_ovr"):
        metric_interval(result, "roc_auc")


def test_decision_values_give_an_auc_and_refuse_a_loss():
    X, y = load_breast_cancer(return_X_y=True)
    result = cross_val_correctness(make_pipeline(StandardScaler(), LinearSVC()), X, y, cv=5, random_state=0,
                                   response_method="auto")
    assert result.response_method == "decision_function"
    assert metric_interval(result, "roc_auc").estimate == pytest.approx(sklearn_table(result, "roc_auc").mean())
    with pytest.raises(ValueError, match="predict_proba"):
        metric_interval(result, "neg_log_loss")


@pytest.mark.parametrize(("metric", "method", "match"), [
    ("f1", "delong", "score metrics"), ("f1", "corrected-t", "score metrics"), ("roc_auc", "t", "corrected-t"),
    ("neg_brier_score", "delong", "ROC AUC"), ("roc_auc_ovo", "auto", "computes these score metrics")])
def test_methods_that_do_not_suit_the_metric_are_refused(scored, metric, method, match):
    with pytest.raises(ValueError, match=match):
        metric_interval(scored, metric, method=method)


def test_pos_label_is_refused_for_a_score_metric(scored):
    with pytest.raises(ValueError, match="pos_label"):
        metric_interval(scored, "roc_auc", pos_label=0)
