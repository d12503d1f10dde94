"""The decision on one evaluation set (issue 47, item 2): the models are fixed and the rows independent, so McNemar's
test (Obuchowski's with groups; for regressors the paired t on per-row losses) holds by design and the decision rests
on it, with no calibration evidence to borrow. Oracles: the tests themselves, computed directly on the records."""

import warnings

import numpy as np
import pytest

import cvinference as cvi
from cvinference import CVResult, PairedCVResult

RNG = np.random.default_rng(0)
Y = RNG.integers(0, 2, 400)
PASSAGE = np.arange(400) // 4
SMALL = np.where(RNG.random(400) < 0.70, Y, 1 - Y)
LARGE = np.where(RNG.random(400) < 0.80, Y, 1 - Y)


def _quiet(function, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return function(*args, **kwargs)


@pytest.mark.parametrize("groups, method, name", [(None, "mcnemar", "McNemar"),
                                                  (PASSAGE, "mcnemar-obuchowski", "clustered McNemar (Obuchowski)")])
def test_two_models_on_one_set_rest_on_mcnemar_in_two_lines(groups, method, name):
    pair = PairedCVResult(CVResult.from_predictions(Y, SMALL, groups=groups, name="small"),
                          CVResult.from_predictions(Y, LARGE, groups=groups, name="large"))
    decision = cvi.decide(pair)
    test = _quiet(cvi.mcnemar_test, pair, method=method)
    assert decision.rests_on.name == name and decision.rests_on.pvalue == test.pvalue
    assert decision.rests_on.estimate == test.estimate == pytest.approx(np.mean(SMALL == Y) - np.mean(LARGE == Y))
    assert decision.answer == "B better" and decision.rests_on.measured_type_i is None
    assert decision.rests_on.regime.startswith("one evaluation set: the models fixed")
    assert "holds by design" in decision.reason and decision.caveats[0].startswith("One evaluation set")


def test_two_regressors_on_one_set_rest_on_the_paired_t_of_their_losses():
    y = RNG.normal(size=300)
    pair = PairedCVResult(CVResult.from_predictions(y, y + RNG.normal(0, 1.0, 300)),
                          CVResult.from_predictions(y, y + RNG.normal(0, 1.2, 300)))
    decision = cvi.decide(pair)
    test = _quiet(cvi.inference.loss_difference_test, pair)
    assert decision.rests_on.pvalue == test.pvalue and decision.lower_is_better
    assert decision.difference == pytest.approx(pair.b.mean_loss - pair.a.mean_loss)


def test_a_single_sets_intervals_and_tests_say_they_are_about_the_model_as_it_is():
    """They read "the models the learner fits to 0/1 of this dataset (about 0 instances)" before."""
    a, b = CVResult.from_predictions(Y, SMALL), CVResult.from_predictions(Y, LARGE)
    interval = _quiet(cvi.accuracy_interval, a)
    assert interval.estimand.startswith("accuracy on the population the rows are drawn from, of the model that made "
                                        "these predictions, as it is")
    assert "0/1" not in interval.estimand
    assert _quiet(cvi.mcnemar_test, a, b).estimand.startswith("difference in accuracy (A minus B) on the population "
                                                              "the rows are drawn from, of the two models")
    assert "the model that made these predictions, as it is" in a.summary()


def test_tests_passed_for_one_evaluation_set_are_not_read_and_say_so():
    pair = PairedCVResult(CVResult.from_predictions(Y, SMALL), CVResult.from_predictions(Y, LARGE))
    with pytest.warns(cvi.InferenceWarning, match=r"^tests and nested are not read on one evaluation set"):
        decision = cvi.decide(pair, tests=[("McNemar", _quiet(cvi.mcnemar_test, pair))])
    assert decision.rests_on.name == "McNemar"


SCORES_A = np.clip(Y * 0.3 + RNG.random(400) * 0.7, 0, 1)
SCORES_B = np.clip(Y * 0.2 + RNG.random(400) * 0.8, 0, 1)


def _scored():
    return PairedCVResult(CVResult.from_predictions(Y, (SCORES_A > 0.5).astype(int), y_score=SCORES_A),
                          CVResult.from_predictions(Y, (SCORES_B > 0.5).astype(int), y_score=SCORES_B))


def test_the_roc_auc_of_one_set_rests_on_delongs_paired_test_and_its_interval_is_delongs():
    """Oracle: the package's DeLong paired test (tested against R's pROC) on the same scores; and sklearn's AUC."""
    from sklearn.metrics import roc_auc_score

    from cvinference.inference._delong import delong_paired_test

    pair = _scored()
    decision = cvi.decide(pair, metric="roc_auc")
    expected = delong_paired_test(Y, SCORES_A, SCORES_B, pos_label=1)
    assert decision.rests_on.name == "DeLong paired z" and decision.rests_on.pvalue == expected.pvalue
    assert decision.metric == "roc_auc" and "DeLong et al. 1988" in decision.reason
    interval = cvi.metric_interval(pair.a, "roc_auc")
    assert interval.method == "delong" and interval.estimate == pytest.approx(roc_auc_score(Y, SCORES_A))


@pytest.mark.parametrize("metric", ["f1", "balanced_accuracy"])
def test_a_metric_averaged_over_folds_is_refused_on_one_set_with_the_tests_that_apply(metric):
    with pytest.raises(ValueError, match=rf"^decide on metric='{metric}' compares the metric's fold values, and these "
                                         r"records are one evaluation set \(one fold\).*decide on 'accuracy' "
                                         r"\(McNemar's test\), or 'roc_auc' \(DeLong's paired test\)"):
        cvi.decide(_scored(), metric=metric)
    with pytest.raises(ValueError, match=r"this record is one evaluation set \(one fold\), so it has one value"):
        cvi.metric_interval(_scored().a, metric)


def test_the_roc_auc_of_one_set_needs_both_records_scores():
    pair = PairedCVResult(CVResult.from_predictions(Y, (SCORES_A > 0.5).astype(int), y_score=SCORES_A),
                          CVResult.from_predictions(Y, (SCORES_B > 0.5).astype(int)))
    with pytest.raises(ValueError, match=r"^decide on metric='roc_auc' compares the two models' scores, and B's "
                                         r"record kept none"):
        cvi.decide(pair, metric="roc_auc")


def test_a_single_sets_results_have_the_model_as_their_target_and_a_learner_target_cannot_be_asked():
    """Before, they carried the kfold target ("the models fitted in the folds"), which one set has none of."""
    y_score = np.column_stack([1 - SMALL * 0.8, SMALL * 0.8])
    a = CVResult.from_predictions(Y, SMALL, y_score=y_score, groups=PASSAGE)
    b = CVResult.from_predictions(Y, LARGE, y_score=np.column_stack([1 - LARGE * 0.7, LARGE * 0.7]), groups=PASSAGE)
    pair = PairedCVResult(a, b)
    results = [_quiet(cvi.accuracy_interval, a), _quiet(cvi.accuracy_interval, a, method="wilson"),
               _quiet(cvi.metric_interval, a, "roc_auc"), _quiet(cvi.no_information_test, a),
               _quiet(cvi.mcnemar_test, pair, method="mcnemar-obuchowski"),
               _quiet(cvi.matched_sample_test, pair, method="cluster-paired-t"),
               _quiet(cvi.inference.loss_difference_test, pair)]
    assert [result.target for result in results] == ["model"] * len(results)
    assert "target: model (the population error of the model that made the predictions, as it is" in " ".join(
        results[0].summary().split())
    ungrouped = PairedCVResult(*(CVResult.from_predictions(Y, r.y_pred[0], y_score=r.y_score[0]) for r in (a, b)))
    for decision in (cvi.decide(pair), cvi.decide(ungrouped, metric="roc_auc")):
        assert decision.target == decision.rests_on.target == "model"
        assert "model target" in decision.summary() and "kfold" not in decision.summary()
    with pytest.raises(ValueError, match="target must be one of 'kfold', 'conditional', 'unconditional', or None; "
                                         "got target='model'"):
        cvi.accuracy_interval(a, target="model")
    y = RNG.normal(size=200)
    regressor = CVResult.from_predictions(y, y + RNG.normal(size=200))
    assert _quiet(cvi.inference.regression_interval, regressor, "mean_absolute_error").target == "model"
    assert _quiet(cvi.loss_interval, regressor).target == "model"
