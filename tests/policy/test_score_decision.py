"""decide(pair, metric=...) on score metrics: the corrected t on fold-level differences, DeLong's paired z as
context, and the "Not calibrated" caveat (cvinference/policy/_decision.py).

Oracles: sklearn's roc_auc_score and brier_score_loss on each fold of the records' own scores, fed to
corrected_fold_test; delong_paired_test on the pooled scores of repeat 0 (both oracle-tested in
test_score_metrics.py and test_delong.py).
"""

import numpy as np
import pytest
from sklearn.datasets import load_breast_cancer
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import brier_score_loss, roc_auc_score
from sklearn.naive_bayes import GaussianNB
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

from cvinference import CVEvaluator, decide
from cvinference.inference._delong import delong_paired_test
from cvinference.inference._score_metrics import corrected_fold_test


@pytest.fixture(scope="module")
def pair():
    X, y = load_breast_cancer(return_X_y=True)
    evaluator = CVEvaluator(cv=5, n_repeats=2, random_state=0, response_method="auto")
    return evaluator.compare(make_pipeline(StandardScaler(), LogisticRegression(C=0.05)), GaussianNB(), X[:, :6], y)




TEN_FOLD, POOLED = {"repeats": 10, "folds": 10}, {"scores": "pooled", "repeat": 0}
"""The designs of the benchmark's corrected t and DeLong cells, as evidence rows state them."""


def _type_i(method, measured, learner, **design):
    return {"method": method, **design, "quantity": "type_i", "target": "unconditional", "learner": learner, "n": 569,
            "population": "test", "nominal": 0.05, "measured": measured, "wilson_low": measured - 0.02,
            "wilson_high": measured + 0.02, "replications": 200, "mean_width": 0.1, "task": "roc_auc"}


def table(result, score):
    return np.array([[score(result.y_true[result.fold[r] == j], result.y_score[r][result.fold[r] == j].astype(float))
                      for j in range(result.n_splits)] for r in range(result.n_repeats)])


def test_auc_decision_rests_on_the_corrected_t_of_sklearn_fold_aucs(pair, evidence):
    evidence()
    decision = decide(pair, metric="roc_auc")
    oracle = corrected_fold_test(table(pair.a, roc_auc_score), table(pair.b, roc_auc_score))
    assert decision.rests_on.name.startswith("corrected t on fold roc_auc")
    assert decision.rests_on.pvalue == pytest.approx(oracle.pvalue, rel=1e-6)
    assert decision.rests_on.estimate == pytest.approx(oracle.estimate, rel=1e-6)
    assert decision.difference == pytest.approx(oracle.estimate, rel=1e-6)
    assert decision.caveats[0].startswith("Not calibrated: the type-I error of the corrected t on roc_auc")
    assert decision.rests_on.measured_type_i is None


def test_delong_paired_z_of_repeat_0_is_shown_as_context(pair, evidence):
    evidence()
    decision = decide(pair, metric="roc_auc")
    (delong,) = decision.context
    oracle = delong_paired_test(pair.a.y_true, pair.a.y_score[0], pair.b.y_score[0])
    assert delong.name.startswith("DeLong paired z")
    assert delong.pvalue == pytest.approx(oracle.pvalue, rel=1e-9)
    assert delong.estimate == pytest.approx(roc_auc_score(pair.a.y_true, pair.a.y_score[0])
                                            - roc_auc_score(pair.a.y_true, pair.b.y_score[0]), rel=1e-6)
    assert decision.rests_on.target == "unconditional" and delong.target == "kfold"


def test_negated_brier_is_higher_when_better(pair):
    decision = decide(pair, metric="neg_brier_score")
    brier_a, brier_b = table(pair.a, brier_score_loss), table(pair.b, brier_score_loss)
    assert decision.difference == pytest.approx(brier_b.mean() - brier_a.mean(), rel=1e-6)
    answer = {True: "A better", False: "B better"}[decision.difference > 0]
    assert decision.answer in (answer, "no difference shown")
    assert not decision.context


def test_summaries_name_the_metric_not_accuracy(pair):
    a, b = table(pair.a, roc_auc_score), table(pair.b, roc_auc_score)
    assert "estimate (roc_auc A - roc_auc B)" in corrected_fold_test(a, b).summary()
    assert "estimate (AUC A - AUC B)" in delong_paired_test(pair.a.y_true, pair.a.y_score[0],
                                                           pair.b.y_score[0]).summary()
    assert decide(pair, metric="roc_auc").to_dict() == decide(pair, metric="roc_auc").to_dict()


def test_a_log_loss_difference_beyond_one_is_not_clipped():
    # An unpruned tree predicts probabilities 0 and 1, so each of its errors costs sklearn's clipped log loss
    # about 36.0 (-ln 2.2e-16): its log loss is several units above logistic regression's, a difference far
    # outside [-1, 1].
    from sklearn.tree import DecisionTreeClassifier

    from cvinference.results import LossDifferenceTestResult
    X, y = load_breast_cancer(return_X_y=True)
    pair = CVEvaluator(cv=5, n_repeats=2, random_state=0, response_method="auto").compare(
        make_pipeline(StandardScaler(), LogisticRegression()), DecisionTreeClassifier(random_state=0), X, y)
    decision = decide(pair, metric="neg_log_loss")

    def fold_log_loss(y_fold, score):
        # sklearn's log_loss definition, -mean log p(true class), with that probability clipped to [eps, 1 - eps],
        # eps = float64's machine epsilon, as sklearn.metrics.log_loss (>= 1.3) clips float64 probabilities
        eps = np.finfo(np.float64).eps
        return -np.mean(np.log(np.clip(np.where(y_fold == 1, score, 1 - score), eps, 1 - eps)))
    losses_a, losses_b = table(pair.a, fold_log_loss), table(pair.b, fold_log_loss)
    test = corrected_fold_test(-losses_a, -losses_b, metric="neg_log_loss")
    assert isinstance(test, LossDifferenceTestResult)
    assert test.estimate == pytest.approx(np.mean(losses_b - losses_a), rel=1e-5) and test.estimate > 1
    assert decision.rests_on.estimate == pytest.approx(test.estimate, rel=1e-6)
    low, high = test.confidence_interval()
    assert (decision.rests_on.low, decision.rests_on.high) == pytest.approx((low, high), rel=1e-6)
    assert high > 1 and decision.answer == "A better"


def test_measured_roc_auc_rows_choose_the_test_or_say_cannot_tell(pair, evidence):
    # The pair is logistic regression (measured) and GaussianNB (borrowing every measured learner).
    evidence(*(_type_i(method, rate, learner, **design) for learner in ("logistic", "tree")
               for method, rate, design in (("corrected-t", 0.09, TEN_FOLD), ("delong-paired", 0.04, POOLED))))
    decision = decide(pair, metric="roc_auc")
    assert decision.rests_on.name.startswith("DeLong paired z") and decision.rests_on.measured_type_i == 0.04
    assert "above 0.06" in decision.context[0].why_not
    assert any("did not measure this for GaussianNB" in c for c in decision.caveats)
    assert not any(c.startswith("Not calibrated") for c in decision.caveats)
    evidence(*(_type_i(method, 0.09, "logistic", **design)
               for method, design in (("corrected-t", TEN_FOLD), ("delong-paired", POOLED))))
    decision = decide(pair, metric="roc_auc")
    assert decision.answer == "cannot tell" and decision.rests_on is None
    assert decision.reason.startswith("No test of these learners on roc_auc kept its type-I error at or below 0.06")
