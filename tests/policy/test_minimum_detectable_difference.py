"""What "no difference shown" means (issue 45, item 9): the decision states its test's minimum detectable difference.

The MDD is (q_{1-alpha/2} + q_power) se with se = (high - low) / (2 q_{1-alpha/2}), q the normal quantile or
Student's t with the test's df (Bloom 1995, "Minimum detectable effects", Evaluation Review 19(5), 547-556; the
derivation is in ``minimum_detectable_difference``'s Notes). The oracles are scipy.stats' quantiles, computed here
by hand; its power is not simulated here (benchmarks measure statistical behaviour, unit tests do not).
"""

import dataclasses
import json
import math
import warnings

import pytest
from scipy import stats
from sklearn.datasets import load_breast_cancer
from sklearn.tree import DecisionTreeClassifier

import cvinference as cvi
import cvinference.report
from cvinference.policy import minimum_detectable_difference
from cvinference.results import Decision, DecisionTest


def _test(low=-0.02, high=0.06, df=None, role="rests on", pvalue=0.3):
    return DecisionTest(name="corrected t (10x10-fold)", estimate=(low + high) / 2, low=low, high=high, pvalue=pvalue,
                        target="unconditional", measured_type_i=0.05, measured_power=0.6, regime="two trees at N = 300",
                        role=role, why_not="" if role == "rests on" else "less measured power", df=df)


def _decision(answer="no difference shown", test=None, confidence_level=0.95, **fields):
    test = _test() if test is None and answer != "cannot tell" else test
    return Decision(answer=answer, names=("tree", "stump"), metric="accuracy",
                    target=None if test is None else test.target, confidence_level=confidence_level,
                    difference=0.02, rests_on=test, context=(), reason="It rests on corrected t (10x10-fold).",
                    route="" if test is not None else "Nested cross-validation.", caveats=(), **fields)


def _by_hand(low, high, confidence_level, power, df=None):
    """The MDD from scipy's quantiles: normal (df None) or Student's t with df."""
    reference = stats.norm() if df is None else stats.t(df)
    critical = reference.ppf(1 - (1 - confidence_level) / 2)
    return (critical + reference.ppf(power)) * (high - low) / (2 * critical)


@pytest.mark.parametrize("df", [None, 9, 99.0])
@pytest.mark.parametrize("confidence_level, power", [(0.95, 0.8), (0.9, 0.9), (0.99, 0.5)])
def test_the_mdd_is_the_hand_computation_from_scipys_quantiles(df, confidence_level, power):
    test = _test(low=-0.031, high=0.047, df=df)
    found = minimum_detectable_difference(test, confidence_level=confidence_level, power=power)
    assert found == pytest.approx(_by_hand(-0.031, 0.047, confidence_level, power, df), rel=1e-12)


def test_the_normal_mdd_is_blooms_multiplier_of_the_standard_error():
    # Bloom (1995): with a normal reference, alpha = 0.05 two-sided and power 0.8, MDE = 2.8 standard errors.
    se = 0.01
    test = _test(low=-stats.norm.ppf(0.975) * se, high=stats.norm.ppf(0.975) * se)
    assert minimum_detectable_difference(test) / se == pytest.approx(2.8016, abs=1e-4)
    # power 0.5: the critical value itself (the estimate must reach it half of the time)
    assert minimum_detectable_difference(test, power=0.5) == pytest.approx(stats.norm.ppf(0.975) * se, rel=1e-12)


def test_a_t_reference_gives_a_smaller_mdd_than_the_normal_for_the_same_interval():
    # The same interval is wider in standard errors under the normal quantile (1.96 < t_{0.975, 9} = 2.262), and the
    # ratio (q_a + q_p) / q_a is larger: the normal reading of a t interval overstates its MDD (here by 2.9%).
    normal, t9 = (minimum_detectable_difference(_test(df=df)) for df in (None, 9))
    assert t9 < normal
    assert normal / t9 == pytest.approx((1 + stats.norm.ppf(0.8) / stats.norm.ppf(0.975))
                                        / (1 + stats.t.ppf(0.8, 9) / stats.t.ppf(0.975, 9)), rel=1e-12)


def test_an_interval_without_a_finite_width_has_no_mdd_and_bad_levels_are_refused():
    assert math.isnan(minimum_detectable_difference(_test(low=-math.inf, high=0.1)))
    assert minimum_detectable_difference(_test(low=0.01, high=0.01)) == 0.0
    with pytest.raises(ValueError, match="power"):
        minimum_detectable_difference(_test(), power=1.0)
    with pytest.raises(ValueError, match="confidence_level"):
        minimum_detectable_difference(_test(), confidence_level=95)


def test_a_decision_carries_the_mdd_of_the_test_it_rests_on_at_its_level():
    for confidence_level in (0.95, 0.9):
        decision = _decision(test=_test(df=19), confidence_level=confidence_level)
        assert decision.minimum_detectable_difference == pytest.approx(
            _by_hand(-0.02, 0.06, confidence_level, 0.8, df=19), rel=1e-12)
    assert _decision("cannot tell").minimum_detectable_difference is None


def test_the_mdd_is_derived_from_its_test_never_given():
    decision = _decision()
    with pytest.raises(TypeError, match="minimum_detectable_difference"):
        _decision(minimum_detectable_difference=0.01)
    # dataclasses.replace computes it again for the new test (R²'s decision is the MSE's, rescaled, for one)
    wider = dataclasses.replace(decision, rests_on=_test(low=-0.04, high=0.12))
    assert wider.minimum_detectable_difference == pytest.approx(2 * decision.minimum_detectable_difference, rel=1e-12)
    assert dataclasses.replace(wider, rests_on=None, answer="cannot tell", target=None,
                               route="Nested.").minimum_detectable_difference is None
    data = decision.to_dict()
    assert Decision.from_dict(data) == decision
    with pytest.raises(ValueError, match=r"Decision\.minimum_detectable_difference=0\.01 is not that of the test it "
                                         r"rests on, 0\.0571.*Pass the output of to_dict\(\) unchanged"):
        Decision.from_dict(data | {"minimum_detectable_difference": 0.01})
    with pytest.raises(ValueError, match=r"minimum_detectable_difference=0\.01 is not that of the test"):
        Decision.from_dict(_cannot_tell().to_dict() | {"minimum_detectable_difference": 0.01})


def test_no_difference_shown_states_its_mdd_in_the_metrics_units():
    decision = _decision()
    mdd = decision.minimum_detectable_difference
    sentence = (f"The test would have detected a difference in accuracy of {mdd:.4f} or more with power 0.8 (its "
                "minimum detectable difference at the observed variance); smaller differences are not ruled out.")
    assert f"{mdd:.4f}" == "0.0572"  # 2.8016 * 0.08 / 3.92
    assert sentence in decision.text and sentence in " ".join(decision.explain().split())
    assert "minimum detectable difference of" not in decision.explain()  # said once, in the text
    # the summary keeps it to one note (issue 58: at most five lines)
    assert (f"rules out differences of {mdd:.4f} or more in accuracy, not smaller ones (the test's minimum "
            "detectable difference, power 0.8)") in decision.summary().splitlines()


def test_a_difference_shown_gives_its_mdd_as_a_line_of_the_summary_only():
    decision = _decision("A better", test=_test(low=0.01, high=0.09, pvalue=0.01))
    mdd = decision.minimum_detectable_difference
    assert "minimum detectable" not in decision.text
    assert (f"minimum detectable difference of corrected t (10x10-fold) (power 0.8 at its observed variance): "
            f"{mdd:.4f}") in " ".join(decision.explain().split())
    assert "minimum detectable" not in decision.summary()  # five lines at most: it is in explain()
    assert "minimum detectable" not in _decision("cannot tell").explain()


def test_the_mdd_and_the_tests_df_survive_json():
    decision = _decision(test=_test(df=19))
    data = json.loads(decision.to_json())
    assert data["version"] == 1 and data["rests_on"]["version"] == 1
    assert data["minimum_detectable_difference"] == decision.minimum_detectable_difference
    assert data["rests_on"]["df"] == 19
    again = Decision.from_json(decision.to_json())
    assert again == decision and again.minimum_detectable_difference == decision.minimum_detectable_difference
    assert again.rests_on.df == 19
    nothing = _decision("cannot tell")
    assert json.loads(nothing.to_json())["minimum_detectable_difference"] is None
    assert Decision.from_json(nothing.to_json()) == nothing


@pytest.fixture(scope="module")
def no_difference():
    """Two trees on 300 instances of breast_cancer: a decision that shows no difference (on today's evidence)."""
    X, y = load_breast_cancer(return_X_y=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        pair = cvi.CVEvaluator(cv=10, n_repeats=2, random_state=0).compare(
            DecisionTreeClassifier(random_state=0), DecisionTreeClassifier(max_depth=3, random_state=0),
            X[:300], y[:300])
        return pair, cvi.decide(pair)


def test_decide_gives_the_mdd_of_its_test_with_the_tests_own_df(no_difference):
    pair, decision = no_difference
    if decision.rests_on is None:
        pytest.skip(f"the decision cannot tell on today's evidence: {decision.reason}")
    tests = dict(cvi.policy.pair_tests(pair))
    assert decision.rests_on.name in tests
    interval = tests[decision.rests_on.name].confidence_interval(decision.confidence_level)
    df = interval.details["df"]
    assert decision.rests_on.df == (None if df is None else float(df))
    assert decision.minimum_detectable_difference == pytest.approx(
        _by_hand(interval.low, interval.high, decision.confidence_level, 0.8, df), rel=1e-12)
    for test in decision.context:  # every test keeps its interval's df
        found = tests[test.name].confidence_interval(decision.confidence_level).details["df"]
        assert test.df == (None if found is None else float(found))
    if decision.answer == "no difference shown":
        assert f"of {decision.minimum_detectable_difference:.4f} or more with power 0.8" in " ".join(
            decision.explain().split())
        assert f"rules out differences of {decision.minimum_detectable_difference:.4f} or more" in decision.summary()


def test_the_report_json_and_text_hold_the_mdd(no_difference):
    pair, decision = no_difference
    report = cvi.report._report.comparison_report(pair, descriptions=("tree", "stump"), data=None, command_line=False)
    written = report["decision"]
    assert written["minimum_detectable_difference"] == decision.minimum_detectable_difference
    assert json.loads(json.dumps(written, allow_nan=False))["minimum_detectable_difference"] == pytest.approx(
        decision.minimum_detectable_difference, rel=1e-15)
    if decision.answer == "no difference shown":
        text = cvi.report.render_text(report)
        assert "minimum detectable difference at the observed variance" in " ".join(written["explanation"].split())
        assert (f"rules out differences of {decision.minimum_detectable_difference:.4f} or more" in
                " ".join(text.split()))


def test_the_plot_draws_the_mdd_band_around_zero():
    matplotlib = pytest.importorskip("matplotlib")
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from cvinference.report._plot import MDD_BAND

    try:
        decision = _decision()
        drawn = cvi.report.plot_decision(decision)
        bands = [patch for patch in drawn.ax_.patches if patch.get_gid() == MDD_BAND]
        assert len(bands) == 1
        band = bands[0]  # a Rectangle (matplotlib >= 3.9) or a Polygon, in data x and axes y coordinates
        xs = ([band.get_x(), band.get_x() + band.get_width()] if hasattr(band, "get_width")
              else [x for x, _ in band.get_xy()])
        mdd = decision.minimum_detectable_difference
        assert min(xs) == pytest.approx(-mdd, rel=1e-12) and max(xs) == pytest.approx(mdd, rel=1e-12)
        labels = [text.get_text() for text in drawn.ax_.get_legend().get_texts()]
        assert labels == [f"\u00b1{mdd:.4f}: minimum detectable\ndifference (power 0.8)"]
        nothing = cvi.report.plot_decision(_cannot_tell())
        assert not [patch for patch in nothing.ax_.patches if patch.get_gid() == MDD_BAND]
    finally:
        plt.close("all")


def _cannot_tell():
    return Decision(answer="cannot tell", names=("tree", "stump"), metric="accuracy", target=None,
                    confidence_level=0.95, difference=0.02, rests_on=None, context=(_test(role="context"),),
                    reason="No test is calibrated.", route="Nested cross-validation.", caveats=())
