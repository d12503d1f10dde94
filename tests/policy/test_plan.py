"""Planning a comparison before its fits (issue 49, item 3): ``cvi.plan``.

Oracles: the corrected t's own standard error and df on the same record (``corrected_resampled_ttest``'s details),
so that a plan whose pilot is the comparison itself gives the decision's minimum detectable difference; statsmodels'
normal power solver for the two-sided and one-sided multipliers; scipy's normal distribution for the equivalence
margin's power (Chow, Shao & Wang 2008, section 3.2.3: P(|D| < m - z s) at a true difference of 0); scipy's
noncentral t for the power the plan's central-t approximation (Bloom 1995) stands for; the calibration's rows read
by hand for a plan without a pilot.
"""

import math
import re

import numpy as np
import pytest
from scipy import stats
from sklearn.datasets import load_breast_cancer
from sklearn.ensemble import RandomForestClassifier
from sklearn.linear_model import LogisticRegression
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from statsmodels.stats.power import NormalIndPower

import cvinference as cvi
from cvinference.policy._evidence import calibration_evidence, learner_of, regime_of
from cvinference.policy._plan import fold_sizes, multiplier, variance_factor
from cvinference.results import Plan


@pytest.fixture(scope="module")
def breast_cancer():
    X, y = load_breast_cancer(return_X_y=True)
    return X[:300], y[:300]


def _learners():
    return make_pipeline(StandardScaler(), LogisticRegression()), RandomForestClassifier(n_estimators=25,
                                                                                         random_state=0)


@pytest.fixture(scope="module")
def pilot(breast_cancer):
    return cvi.CVEvaluator(cv=10, random_state=0).compare(*_learners(), *breast_cancer)


def _corrected_se(pair):
    test = cvi.corrected_resampled_ttest(pair.a, pair.b)
    return math.sqrt(test.details["variance_factor"] * test.details["variance"]), test.df


def test_a_pilot_that_is_the_comparison_gives_its_tests_minimum_detectable_difference(pilot):
    se, df = _corrected_se(pilot)
    planned = cvi.plan(pilot=pilot, n_repeats=1)
    assert planned.standard_error == pytest.approx(se, rel=1e-10)
    assert planned.df == df == 9
    by_hand = (stats.t.ppf(0.975, df) + stats.t.ppf(0.8, df)) * se  # Bloom (1995): (q_{1-alpha/2} + q_power) se
    assert planned.detectable == pytest.approx(by_hand, rel=1e-10)
    decision = cvi.decide(pilot)
    assert decision.rests_on.name == planned.test == "corrected t (1x10-fold)"
    assert planned.detectable == pytest.approx(decision.minimum_detectable_difference, rel=1e-10)
    assert planned.stages[:2] == (("cross-validation (1 x 10-fold)", 20), ("5x2cv", 20))  # 2 x 10 x 1; 5 x 2 x 2
    assert planned.fits == 40 and planned.source == "pilot"


@pytest.mark.parametrize("level", [0.90, 0.99])
def test_another_level_plans_the_same_standard_error_with_its_quantiles(pilot, level):
    se, df = _corrected_se(pilot)
    planned = cvi.plan(pilot=pilot, n_repeats=1, confidence_level=level)
    assert planned.standard_error == pytest.approx(se, rel=1e-10)
    by_hand = (stats.t.ppf(1 - (1 - level) / 2, df) + stats.t.ppf(0.8, df)) * se
    assert planned.detectable == pytest.approx(by_hand, rel=1e-10)
    assert planned.detectable == pytest.approx(cvi.decide(pilot, confidence_level=level)
                                               .minimum_detectable_difference, rel=1e-10)


def test_the_standard_error_is_carried_by_the_test_folds_size(pilot):
    se, _ = _corrected_se(pilot)
    base = cvi.plan(pilot=pilot, n_repeats=1)
    larger = cvi.plan(pilot=pilot, n_repeats=3, n_samples=1200, cv=5)
    # sigma^2 n_test is carried: sigma'^2 = sigma^2 (300 / 10) / (1200 / 5), with the planned folds' factor
    pilot_factor = 1 / 10 + float(np.mean(pilot.a.fold_sizes / (300 - pilot.a.fold_sizes)))
    sizes = fold_sizes(1200, 5)
    factor = 1 / 15 + float(np.mean(sizes / (1200 - sizes)))
    expected = math.sqrt(se ** 2 / pilot_factor * (300 / 10) / (1200 / 5) * factor)
    assert larger.standard_error == pytest.approx(expected, rel=1e-10)
    assert larger.df == 14 and larger.fits == 30 + 20  # 2 learners x 5 folds x 3 repeats, and 5x2cv's 20
    assert larger.notes and "N = 300" in larger.notes[-1]
    assert base.standard_error > larger.standard_error


def test_the_two_sided_and_one_sided_multipliers_are_the_normal_power_solvers():
    # statsmodels solves the effect size d = delta / se (one sample: nobs1=1, ratio=0) that a z test detects
    two_sided = NormalIndPower().solve_power(nobs1=1, ratio=0, alpha=0.05, power=0.8, alternative="two-sided")
    one_sided = NormalIndPower().solve_power(nobs1=1, ratio=0, alpha=0.05, power=0.8, alternative="larger")
    assert multiplier("difference", 0.95, 0.8, None) == pytest.approx(two_sided, abs=1e-5)
    assert multiplier("non-inferior", 0.95, 0.8, None) == pytest.approx(one_sided, rel=1e-6)  # the solver's tolerance


@pytest.mark.parametrize("power", [0.8, 0.9])
def test_the_equivalence_margin_has_its_power_when_the_learners_are_equal(power):
    margin = multiplier("equivalent", 0.95, power, None)  # in standard errors
    critical = stats.norm.ppf(0.95)
    # both one-sided tests reject when -m + z s < D < m - z s, D ~ N(0, 1)
    assert stats.norm.cdf(margin - critical) - stats.norm.cdf(-margin + critical) == pytest.approx(power, rel=1e-9)


@pytest.mark.parametrize("df", [9, 29, 99])
def test_the_central_t_approximation_is_close_to_the_noncentral_power(df):
    mdd = multiplier("difference", 0.95, 0.8, df)  # in standard errors
    critical = stats.t.ppf(0.975, df)
    exact = stats.nct.sf(critical, df, mdd) + stats.nct.cdf(-critical, df, mdd)
    assert exact == pytest.approx(0.8, abs=0.02)


def test_the_n_needed_reaches_the_wanted_difference(pilot):
    planned = cvi.plan(pilot=pilot, n_repeats=1, difference=0.03)
    assert planned.wanted == 0.03 and planned.n_samples_needed > 300
    there = cvi.plan(pilot=pilot, n_repeats=1, n_samples=planned.n_samples_needed)
    assert there.detectable <= 0.03 * (1 + 1e-3)
    before = cvi.plan(pilot=pilot, n_repeats=1, n_samples=planned.n_samples_needed - 2)
    assert before.detectable > 0.03 * (1 - 1e-3)


def test_a_margin_plans_non_inferiority_by_default(pilot):
    planned = cvi.plan(pilot=pilot, n_repeats=1, margin=0.02)
    assert planned.question == "non-inferior"
    ratio = multiplier("non-inferior", 0.95, 0.8, 9) / multiplier("difference", 0.95, 0.8, 9)
    assert planned.detectable == pytest.approx(cvi.plan(pilot=pilot, n_repeats=1).detectable * ratio, rel=1e-10)
    assert "shown non-inferior" in planned.summary()
    equivalent = cvi.plan(pilot=pilot, n_repeats=1, margin=0.02, question="equivalent")
    assert equivalent.detectable > planned.detectable


def test_the_range_is_where_the_comparisons_own_variance_puts_its_figure(pilot):
    planned = cvi.plan(pilot=pilot, n_repeats=1)  # two variances on 9 df each: their ratio is F(9, 9)
    assert planned.low == pytest.approx(planned.detectable * math.sqrt(stats.f.ppf(0.05, 9, 9)), rel=1e-10)
    assert planned.high == pytest.approx(planned.detectable * math.sqrt(stats.f.ppf(0.95, 9, 9)), rel=1e-10)
    repeated = cvi.plan(pilot=pilot, n_repeats=3)
    assert repeated.high == pytest.approx(repeated.detectable * math.sqrt(stats.f.ppf(0.95, 29, 9)), rel=1e-10)


def test_without_a_pilot_the_calibration_cells_variance_stands():
    a, b = _learners()
    planned = cvi.plan(a, b, n_samples=569, n_repeats=1)
    learners = [learner_of("sklearn.linear_model._logistic.LogisticRegression"),
                learner_of("sklearn.ensemble._forest.RandomForestClassifier")]
    rows = [row for row in calibration_evidence()["rows"] if row["quantity"] == "type_i"
            and row["method"] == "corrected-t" and row.get("task", "classification") == "classification"]
    regime = regime_of(rows, learners, 569)
    standing = [row for row in rows if row["learner"] in regime.kinds and row["n"] in regime.sizes
                and row["repeats"] == 1]
    assert {row["n"] for row in standing} == {300, 1000}
    # c4 for 9 df, the mean of standard deviations over sigma (normal data): sqrt(2/9) Gamma(5) / Gamma(4.5)
    c4 = math.sqrt(2 / 9) * math.gamma(5) / math.gamma(4.5)
    unit = max((row["mean_width"] / (2 * stats.t.ppf(0.975, 9)) / c4) ** 2 / variance_factor(row["n"], 10, 1)
               * row["n"] / 10 for row in standing)
    assert planned.standard_error == pytest.approx(math.sqrt(variance_factor(569, 10, 1) * unit * 10 / 569),
                                                   rel=1e-10)
    assert planned.source == "calibration" and "not your data's" in planned.rests_on


def test_without_a_pilot_other_folds_and_metrics_say_what_stands_for_them():
    planned = cvi.plan(*_learners(), n_samples=569, cv=5, n_repeats=1, metric="balanced_accuracy")
    assert any("measured 10-fold cross-validation" in note for note in planned.notes)
    assert cvi.plan(*_learners(), n_samples=569, n_repeats=1).df == 9


def test_n_repeats_auto_plans_what_compare_would(breast_cancer):
    X, y = breast_cancer
    comparison = cvi.compare(*_learners(), X, y, n_repeats="auto", nested="never", random_state=0)
    planned = cvi.plan(*_learners(), n_samples=y.size)
    assert planned.n_repeats == comparison.pair.a.n_repeats
    assert planned.notes[0].startswith("n_repeats='auto'")


def test_a_plan_round_trips_and_shows_itself(pilot):
    planned = cvi.plan(pilot=pilot, n_repeats=1, difference=0.05)
    assert Plan.from_dict(planned.to_dict()) == planned
    text = planned.summary()
    assert "minimum detectable difference in accuracy" in text and "cost: 40 fits" in text
    assert "<table" in planned._repr_html_()


@pytest.mark.parametrize("kwargs, error, words", [
    ({"n_samples": 15}, ValueError, "n_samples=15 with cv=10"),  # n_samples=10 with cv=10 is leave-one-out
    ({"difference": 0.01, "margin": 0.01}, ValueError, "pass the one that matches"),
    ({"margin": 0.01, "question": "difference"}, ValueError, "pass the one that matches"),
    ({"power": 1.0}, ValueError, "power"),
    ({"power": 0.3}, ValueError, "power"),
    ({"n_repeats": 0}, ValueError, "n_repeats"),
    ({"difference": -0.01}, ValueError, "difference"),
])
def test_bad_input_names_the_parameter(kwargs, error, words):
    a, b = _learners()
    with pytest.raises(error, match=words):
        cvi.plan(a, b, **{"n_samples": 569, **kwargs})


def test_it_needs_the_learners_or_a_pilot_and_not_both(pilot):
    with pytest.raises(TypeError, match="estimator_a and estimator_b"):
        cvi.plan(n_samples=569)
    with pytest.raises(TypeError, match="n_samples is needed"):
        cvi.plan(*_learners())
    with pytest.raises(TypeError, match="pilot must be a PairedCVResult"):
        cvi.plan(pilot=pilot.a.fold)  # a record of one learner (pilot.a) plans an evaluation
    with pytest.raises(TypeError, match="not both"):
        cvi.plan(*_learners(), pilot=pilot)


def test_the_pilots_folds_are_the_default(breast_cancer):
    pilot = cvi.CVEvaluator(cv=5, random_state=0).compare(*_learners(), *breast_cancer)
    assert cvi.plan(pilot=pilot, n_repeats=1).n_splits == 5


def test_what_cannot_be_planned_is_refused_naming_why(breast_cancer):
    from sklearn.dummy import DummyClassifier
    from sklearn.linear_model import LinearRegression, Ridge

    with pytest.raises(ValueError, match="regressors' plan needs pilot="):
        cvi.plan(Ridge(), LinearRegression(), n_samples=500)
    with pytest.raises(ValueError, match="measured the corrected t for none of these learners"):
        cvi.plan(*_learners(), n_samples=500, metric="neg_log_loss")
    with pytest.raises(ValueError, match="not a scikit-learn scorer name"):
        cvi.plan(*_learners(), n_samples=500, metric="bogus")
    dummies = cvi.CVEvaluator(cv=5, random_state=0).compare(
        DummyClassifier(), DummyClassifier(strategy="most_frequent"), *breast_cancer)
    with pytest.raises(ValueError, match="pilot: the corrected t's fold differences in accuracy have no variance"):
        cvi.plan(pilot=dummies)


def test_the_figure_at_another_n_is_the_plan_made_there(pilot):
    planned = cvi.plan(pilot=pilot, n_repeats=1, difference=0.03)
    for n in (120, 300, 2000):
        there = cvi.plan(pilot=pilot, n_repeats=1, n_samples=n)
        assert planned.detectable_at(n) == pytest.approx((there.detectable, there.low, there.high), rel=1e-10)
    curve, _, _ = planned.detectable_at(np.array([300, 1200]))
    assert curve[1] == pytest.approx(curve[0] / 2, rel=0.01)  # se ~ N^(-1/2)
    with pytest.raises(ValueError, match="n_samples=10"):
        planned.detectable_at(10)


def test_the_plot_draws_the_curve_the_plan_and_what_was_asked(pilot):
    pytest.importorskip("matplotlib")
    from cvinference.report._plan_plot import PLAN_CURVE

    planned = cvi.plan(pilot=pilot, n_repeats=1, difference=0.03)
    drawn = planned.plot()
    ax = drawn.axes_[-1]
    curve = next(line for line in ax.lines if line.get_gid() == PLAN_CURVE)
    x, y = curve.get_data()
    assert np.allclose(y, planned.detectable_at(np.asarray(x))[0])
    assert x.min() <= planned.n_samples <= x.max() and x.max() >= planned.n_samples_needed
    labels = [text.get_text() for text in ax.get_legend().get_texts()]
    assert f"N = 300: {planned.detectable:.4f}" in labels and "wanted: 0.03" in labels
    import matplotlib.pyplot as plt

    plt.close(drawn.figure_)


def test_a_regressors_pilot_is_planned_on_its_loss_as_the_decision_is():
    from sklearn.datasets import load_diabetes
    from sklearn.linear_model import LinearRegression, Ridge

    X, y = load_diabetes(return_X_y=True)
    pair = cvi.CVEvaluator(cv=10, loss="squared_error", random_state=0).compare(Ridge(), LinearRegression(), X, y)
    decision = cvi.decide(pair)
    planned = cvi.plan(pilot=pair, n_repeats=1)
    assert planned.metric == decision.metric == "mean squared error"
    assert planned.detectable == pytest.approx(decision.minimum_detectable_difference, rel=1e-10)


def test_a_grouped_pilot_is_planned_in_its_groups(breast_cancer):
    """Issue 59: a grouped pilot was refused; its variance is now read and carried in groups, the units of the
    grouped decision (tests/workflows/test_one_planner.py checks the figure against the pilot's corrected t)."""
    X, y = breast_cancer
    pair = cvi.CVEvaluator(cv=cvi.StratifiedEqualSizeGroupKFold(5)).compare(
        *_learners(), X, y, groups=np.arange(y.size) // 5)
    planned = cvi.plan(pilot=pair, n_repeats=1)
    assert planned.n_samples == y.size and f"at G = {y.size // 5}" in planned.rests_on


@pytest.mark.parametrize("args, name", [(("nb", 5), "estimator_a='nb'"), ((None, "tree"), None),
                                        ((_learners()[0], 5), "estimator_b=5")])
def test_learners_that_are_not_estimators_are_refused_naming_which(args, name):
    """Issue 58: plan("nb", 5) raised scikit-learn's AttributeError; plan takes estimators only (no names)."""
    if name is None:  # one learner missing: the plan needs both
        with pytest.raises(TypeError, match="plan needs estimator_a and estimator_b"):
            cvi.plan(*args, n_samples=150)
        return
    with pytest.raises(TypeError, match=re.escape(f"must be a scikit-learn estimator instance with fit and predict; "
                                                  f"got {name}")):
        cvi.plan(*args, n_samples=150)


@pytest.mark.parametrize("kwargs, words", [
    ({"difference": 2}, "difference=2 is beyond any difference in 'accuracy': its values lie in [0, 1]"),
    ({"difference": 1}, "difference=1 is beyond any difference in 'accuracy'"),
    ({"margin": 50}, "margin=50 is beyond any difference in 'accuracy'"),
    ({"margin": 1.5, "metric": "roc_auc"}, "margin=1.5 is beyond any difference in 'roc_auc'"),
    ({"difference": 2, "metric": "matthews_corrcoef"}, "its values lie in [-1, 1], so two learners differ by less "
                                                        "than 2"),
])
def test_a_difference_or_margin_beyond_the_metrics_range_is_refused(kwargs, words):
    """Issue 58: difference=2 was planned at N = 20, a difference of 2 in accuracy. The ranges are scikit-learn's
    documented ones: accuracy and ROC AUC in [0, 1], the Matthews correlation in [-1, 1]."""
    with pytest.raises(ValueError, match=re.escape(words)):
        cvi.plan(*_learners(), n_samples=150, **kwargs)


def test_a_difference_just_inside_the_range_is_planned(pilot):
    planned = cvi.plan(pilot=pilot, n_repeats=1, difference=0.99)
    assert planned.wanted == 0.99 and planned.n_samples_needed == 2 * planned.n_splits


def test_plan_refuses_exactly_the_metrics_compare_refuses(breast_cancer, monkeypatch):
    """Issue 58: plan(metric="roc_auc_ovo") was planned on accuracy's figures while compare refused it. The oracle
    is compare's own refusal, before any fit, of the same metric."""
    import cvinference.evaluation._evaluator as evaluator_module

    monkeypatch.setattr(evaluator_module, "run_fits", lambda *args, **kwargs: pytest.fail("fitted"))
    for metric in ("roc_auc_ovo", "bogus", "r2", 5):
        error = TypeError if metric == 5 else ValueError
        with pytest.raises(error) as by_compare:
            cvi.compare(*_learners(), *breast_cancer, metric=metric)
        with pytest.raises(error) as by_plan:
            cvi.plan(*_learners(), n_samples=300, metric=metric)
        assert str(by_plan.value) == str(by_compare.value)


def test_a_regressors_pilot_on_accuracy_is_refused_naming_the_metrics_that_apply():
    """Issue 58: a regressors' pilot with metric="accuracy" was planned on the mean squared error without a word;
    metric=None is their loss, as the decision's default is."""
    from sklearn.datasets import load_diabetes
    from sklearn.linear_model import LinearRegression, Ridge

    X, y = load_diabetes(return_X_y=True)
    pair = cvi.CVEvaluator(cv=5, loss="squared_error", random_state=0).compare(Ridge(), LinearRegression(), X, y)
    with pytest.raises(ValueError, match=r"^metric='accuracy' is not a scikit-learn scorer name computable from a "
                                         r"regressor's predictions \(the pilot's learners are regressors\); use one of "
                                         r".*neg_mean_squared_error.*\(or metric=None: their loss\)"):
        cvi.plan(pilot=pair, n_repeats=1, metric="accuracy")
    assert cvi.plan(pilot=pair, n_repeats=1).metric == cvi.decide(pair).metric == "mean squared error"
    assert cvi.plan(pilot=pair, n_repeats=1, difference=1e6).wanted == 1e6  # a loss has no upper bound


def test_the_plans_json_writes_plain_lists_and_reads_them_back_as_the_same_plan(pilot):
    """Issue 59: the plan's JSON wrote its tuples as {"tuple": [...]}; JSON has lists, and the command line's and
    compare's reports show the plan to readers of JSON."""
    import json

    for planned in (cvi.plan(pilot=pilot, n_repeats=1, difference=0.03), cvi.plan(*_learners(), n_samples=569)):
        text = planned.to_json()
        assert '"tuple"' not in text
        data = json.loads(text)
        assert data["names"] == list(planned.names) and data["notes"] == list(planned.notes)
        assert data["stages"] == [[name, fits] for name, fits in planned.stages]
        again = Plan.from_json(text)
        assert again == planned and isinstance(again.stages, tuple) and isinstance(again.stages[0], tuple)
        assert isinstance(again.names, tuple) and isinstance(again.notes, tuple)
    with pytest.raises(ValueError, match=r"Plan\.names"):
        Plan.from_dict(data | {"names": ["only one"]})
