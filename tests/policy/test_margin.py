"""Non-inferiority and equivalence against a margin (issue 49, the arithmetic the decision will use). Oracles:
statsmodels' ttost_paired (Schuirmann's two one-sided tests) and scipy's one-sided one-sample t test, on the paired
differences whose t interval the margin re-levels."""

import math

import numpy as np
import pytest
from scipy import stats
from sklearn.linear_model import Ridge
from statsmodels.stats.weightstats import ttost_paired

import cvinference as cvi
from cvinference.inference import forecast_test
from cvinference.policy._margin import check_margin, margin_answer, relevelled
from cvinference.splitters import ForwardSplit


def _paired(seed, shift):
    """Differences of two learners' scores on 30 paired folds, their mean, t interval at 95% and df."""
    rng = np.random.default_rng(seed)
    a = rng.normal(0.80 + shift, 0.03, 30)
    b = a - shift + rng.normal(0, 0.02, 30)
    d = a - b
    mean, se = d.mean(), d.std(ddof=1) / np.sqrt(d.size)
    half = stats.t.ppf(0.975, d.size - 1) * se
    return a, b, d, mean, mean - half, mean + half, float(d.size - 1)


@pytest.mark.parametrize("seed, shift", [(0, 0.0), (1, 0.005), (2, -0.01), (3, 0.02)])
def test_equivalence_is_schuirmanns_two_one_sided_tests(seed, shift):
    a, b, d, mean, low, high, df = _paired(seed, shift)
    found = margin_answer(mean, low, high, df, confidence_level=0.95, margin=0.01, question="equivalent")
    pvalue = ttost_paired(a, b, -0.01, 0.01)[0]
    assert found.pvalue == pytest.approx(pvalue, rel=1e-9)
    assert found.answer.startswith("not shown") == (pvalue >= 0.05)
    half90 = stats.t.ppf(0.95, df) * d.std(ddof=1) / np.sqrt(d.size)
    assert (found.low, found.high) == pytest.approx((mean - half90, mean + half90), rel=1e-9)


@pytest.mark.parametrize("seed, shift", [(0, 0.0), (4, -0.012), (5, -0.03)])
def test_non_inferiority_is_the_one_sided_t_test_of_the_difference_plus_the_margin(seed, shift):
    _, _, d, mean, low, high, df = _paired(seed, shift)
    found = margin_answer(mean, low, high, df, confidence_level=0.95, margin=0.01, question="non-inferior")
    expected = stats.ttest_1samp(d + 0.01, 0.0, alternative="greater").pvalue
    assert found.pvalue == pytest.approx(expected, rel=1e-9)
    assert found.answer == ("A non-inferior" if expected < 0.05 else "not shown non-inferior")


def test_a_normal_interval_is_relevelled_with_the_normal_quantiles():
    low, high, se = relevelled(0.1, 0.1 - 1.959963984540054 * 0.05, 0.1 + 1.959963984540054 * 0.05, None, 0.95, 0.9)
    assert se == pytest.approx(0.05, rel=1e-12)
    assert (low, high) == pytest.approx((0.1 - 1.6448536269514722 * 0.05, 0.1 + 1.6448536269514722 * 0.05), rel=1e-12)


def test_an_asymmetric_interval_a_margin_of_zero_and_another_question_are_refused():
    with pytest.raises(ValueError, match="is not symmetric"):
        margin_answer(0.1, 0.0, 0.3, None, confidence_level=0.95, margin=0.05, question="equivalent")
    with pytest.raises(ValueError, match="margin=0 must be positive"):
        margin_answer(0.1, 0.0, 0.2, None, confidence_level=0.95, margin=0, question="equivalent")
    with pytest.raises(ValueError, match="question='superior'"):
        margin_answer(0.1, 0.0, 0.2, None, confidence_level=0.95, margin=0.1, question="superior")


def _forward_pair():
    rng = np.random.default_rng(0)
    x, noise = rng.standard_normal(400), np.zeros(400)
    for t in range(1, 400):
        noise[t] = 0.7 * noise[t - 1] + rng.standard_normal()
    evaluator = cvi.CVEvaluator(cv=ForwardSplit(40, horizon=5, window=150), loss="squared_error")
    return evaluator.compare(Ridge(), Ridge(alpha=30.0), x.reshape(-1, 1), 1.5 * x + noise)


@pytest.mark.parametrize("margin, question, answer", [
    (0.1, "non-inferior", "A non-inferior"), (0.01, "non-inferior", "not shown non-inferior"),
    (0.1, "equivalent", "equivalent"), (0.05, "equivalent", "not shown equivalent")])
def test_decide_answers_a_margin_from_the_test_the_difference_rests_on(margin, question, answer):
    """Oracle: the test's own estimate, standard error and df (forecast_test), one-sided by hand."""
    pair = _forward_pair()
    decision = cvi.decide(pair, margin=margin, question=question)
    test = forecast_test(pair, method="prewhitened-diebold-mariano")
    d, se, df = test.estimate, test.standard_error, test.df
    lower = 1 - stats.t.cdf((d + margin) / se, df) < 0.05
    upper = stats.t.cdf((d - margin) / se, df) < 0.05
    assert decision.answer == answer == {"non-inferior": {True: "A non-inferior", False: "not shown non-inferior"},
                                         "equivalent": {True: "equivalent", False: "not shown equivalent"}}[
        question][lower and (upper or question == "non-inferior")]
    assert (decision.margin, decision.question) == (margin, question)
    assert decision.rests_on == cvi.decide(pair).rests_on
    assert "did not measure" in decision.caveats[-1] and "is not known" in decision.caveats[-1]  # forecasts: none
    assert cvi.results.Decision.from_json(decision.to_json()) == decision


def test_a_margin_needs_its_question_and_a_decision_keeps_its_question_through_json():
    pair = _forward_pair()
    with pytest.raises(ValueError, match="need a margin in the metric's units"):
        cvi.decide(pair, question="equivalent")
    with pytest.raises(ValueError, match="margin must be a margin in the metric's units > 0"):
        cvi.decide(pair, margin=-0.1, question="equivalent")
    again = cvi.results.Decision.from_json(cvi.decide(pair).to_json())
    assert (again.question, again.margin, again.answer) == ("difference", None, "no difference shown")


def test_a_decision_resting_on_an_interval_that_is_not_symmetric_cannot_tell_about_a_margin():
    """One evaluation set rests on McNemar's test, whose interval is not symmetric: its level cannot be changed."""
    rng = np.random.default_rng(0)
    y = rng.integers(0, 2, 300)
    a, b = (np.where(rng.random(300) < accuracy, y, 1 - y) for accuracy in (0.9, 0.85))
    pair = cvi.PairedCVResult(cvi.CVResult.from_predictions(y, a, name="a"),
                              cvi.CVResult.from_predictions(y, b, name="b"))
    difference = cvi.decide(pair)
    decision = cvi.decide(pair, margin=0.02, question="non-inferior")
    assert difference.rests_on.name == "McNemar" and decision.answer == "cannot tell" and decision.rests_on is None
    assert decision.context[0].name == "McNemar" and "is not symmetric" in decision.context[0].why_not
    assert decision.text.startswith("Cannot tell whether a is worse than b by less than 0.02 in accuracy.")
    assert cvi.results.Decision.from_json(decision.to_json()) == decision


@pytest.mark.parametrize("question", ["non-inferior", "equivalent"])
def test_the_plot_draws_the_margin_and_the_interval_its_tests_read(question):
    plt = pytest.importorskip("matplotlib.pyplot")
    decision = cvi.decide(_forward_pair(), margin=0.1, question=question)
    drawn = decision.plot()
    axis = drawn.axes_[0]
    (band,) = [patch for patch in axis.patches if patch.get_gid() == "margin"]
    right = band.get_x() + band.get_width() if hasattr(band, "get_width") else max(x for x, _ in band.get_xy())
    assert right == pytest.approx(0.1 if question == "equivalent" else -0.1)
    found = margin_answer(decision.rests_on.estimate, decision.rests_on.low, decision.rests_on.high,
                          decision.rests_on.df, confidence_level=0.95, margin=0.1, question=question)
    assert any(tuple(line.get_xdata()) == pytest.approx((found.low, found.high)) for line in axis.lines)
    plt.close(drawn.figure_)


def _classifier_pair():
    from sklearn.datasets import load_breast_cancer
    from sklearn.naive_bayes import GaussianNB
    from sklearn.tree import DecisionTreeClassifier

    X, y = load_breast_cancer(return_X_y=True)
    return cvi.CVEvaluator(5, random_state=0).compare(GaussianNB(), DecisionTreeClassifier(max_depth=2,
                                                                                           random_state=0),
                                                      X[:150, :5], y[:150])


@pytest.mark.parametrize("margin, metric, words", [
    (50, "accuracy", "margin=50 is beyond any difference in 'accuracy': its values lie in [0, 1], so two learners "
                     "differ by less than 1. Pass margin in its units, below 1, such as margin=0.01 for one point "
                     "(margin=0.5 for 50 points)."),
    (1.5, "accuracy", "(margin=0.015 for 1.5 points)"),
    (1e9, "accuracy", "margin=1e+09 is beyond any difference in 'accuracy'"),
    (1.0, "balanced_accuracy", "margin=1 is beyond any difference in 'balanced_accuracy'"),
    (2.0, "matthews_corrcoef", "its values lie in [-1, 1], so two learners differ by less than 2"),
])
def test_decide_refuses_a_margin_beyond_the_metrics_range(margin, metric, words):
    """Issue 58: decide(P, margin=50) answered about "worse by less than 50 in accuracy". The ranges are
    scikit-learn's documented ones (accuracy, balanced accuracy in [0, 1]; the Matthews correlation in [-1, 1])."""
    with pytest.raises(ValueError) as raised:
        cvi.decide(_classifier_pair(), metric=metric, margin=margin)
    assert words in str(raised.value)


def test_a_margin_inside_the_range_is_answered_and_a_loss_takes_any_positive_finite_margin():
    decision = cvi.decide(_classifier_pair(), margin=0.99)
    assert decision.answer in ("A non-inferior", "not shown non-inferior", "cannot tell")
    assert cvi.decide(_forward_pair(), margin=1e9).answer == "A non-inferior"  # a loss: no upper bound


def test_check_margin_reads_a_make_metric_range_and_refuses_the_non_finite():
    from sklearn.metrics import cohen_kappa_score

    kappa = cvi.make_metric(cohen_kappa_score, bounds=(-1, 1))
    check_margin(1.99, kappa, regression=False)
    with pytest.raises(ValueError, match=r"beyond any difference in 'cohen_kappa_score': its values lie in \[-1, 1\]"):
        check_margin(2, kappa, regression=False)
    check_margin(7.0, cvi.make_metric(cohen_kappa_score), regression=False)  # no bounds given: no range known
    check_margin(7.0, "r2", regression=True)  # R² is unbounded below
    for value in (math.inf, math.nan, 0.0, -1.0, True):
        with pytest.raises(ValueError, match="must be a positive, finite number"):
            check_margin(value, "neg_mean_squared_error", regression=True, name="difference")
