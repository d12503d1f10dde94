"""One planner (issue 59, item 1): ``cvi.plan`` with ``compare``'s arguments is the design ``compare`` runs, its fits
stage by stage and its minimum detectable difference, and the comparison keeps the plan it ran.

``comparison_plan`` is compare's planning step, a function of the learners, N, the folds, the metric and the budget
computed before any fit (it is given no data); it is checked against the public ``plan`` for learners of every family
at N = 100 to 10,000, and two real comparisons show that ``comparison.plan`` is that plan.
"""

import itertools
import math

import numpy as np
import pytest
from scipy import stats
from sklearn.datasets import load_diabetes, make_classification
from sklearn.ensemble import (
    GradientBoostingClassifier,
    HistGradientBoostingClassifier,
    RandomForestClassifier,
    RandomForestRegressor,
)
from sklearn.linear_model import LogisticRegression, Ridge
from sklearn.model_selection import GroupKFold, KFold, LeaveOneGroupOut
from sklearn.naive_bayes import GaussianNB
from sklearn.neighbors import KNeighborsClassifier
from sklearn.svm import SVC
from sklearn.tree import DecisionTreeClassifier, DecisionTreeRegressor

import cvinference as cvi
from cvinference.policy import Plan
from cvinference.policy._evidence import calibration_evidence
from cvinference.policy._plan import variance_factor
from cvinference.workflows._compare import comparison_plan

CLASSIFIERS = (LogisticRegression(), GaussianNB(), DecisionTreeClassifier(), RandomForestClassifier(),
               GradientBoostingClassifier(), HistGradientBoostingClassifier(), KNeighborsClassifier(), SVC())
SIZES = (100, 300, 1000, 3000, 10000)
NESTED_FITS = 2 * 5 * (5 * 6 // 2)
"""Nested CV's fits for two learners, R = 5 repeats of K = 5 folds, K (K + 1) / 2 each (nested_fit_count's rule)."""
REUSED_NESTED_FITS = 2 * 5 * (5 * 4 // 2)
"""The same, K (K - 1) / 2 each, when 5 x 5-fold cross-validation of the comparison already made its outer fits."""


def _design(planned):
    return (planned.n_splits, planned.n_repeats, planned.stages, planned.fits, planned.most_fits)


def _check_stages(planned):
    """The stages' fits by hand: 2 K R for the cross-validation, Dietterich's 5 x 2 x 2 for 5x2cv, 2 K R' for the
    route to R' repeats, the nested fits for nested cross-validation."""
    k, r = planned.n_splits, planned.n_repeats
    assert planned.stages[0] == (f"cross-validation ({r} x {k}-fold)", 2 * k * r)
    for name, fits in planned.stages[1:]:
        if name == "5x2cv":
            assert fits == 5 * 2 * 2
        elif name.startswith("nested"):
            assert fits == (REUSED_NESTED_FITS if (k, r) >= (5, 5) and k == 5 else NESTED_FITS)
        else:
            repeats = int(name.split(" on ")[1].split(" x ")[0])
            assert repeats > r and fits == 2 * k * repeats
    sure = [fits for name, fits in planned.stages if not name.endswith("if the decision cannot tell")]
    assert planned.fits == sum(sure) and planned.most_fits == sum(fits for _, fits in planned.stages)


@pytest.mark.parametrize("n_samples", SIZES)
def test_compares_planning_step_is_the_public_plan_for_every_family_and_size(n_samples):
    for a, b in itertools.combinations(CLASSIFIERS, 2):
        design, planned = comparison_plan(a, b, n_samples)
        public = cvi.plan(a, b, n_samples=n_samples)
        assert planned.to_dict() == public.to_dict(), (a, b, n_samples)
        assert (design.n_repeats, design.fits, design.most_fits) == (public.n_repeats, public.fits, public.most_fits)
        assert public.detectable is not None and public.source == "calibration"
        _check_stages(public)


@pytest.mark.parametrize("settings", [
    {"n_repeats": 1}, {"n_repeats": 3, "cv": 5}, {"budget": 60}, {"budget": "3x"}, {"nested": "never"},
    {"nested": "always", "cv": 5, "n_repeats": 5}, {"metric": "balanced_accuracy"}, {"loss": "log_loss"},
    {"margin": 0.02}, {"margin": 0.02, "question": "equivalent"},
])
def test_compare_and_plan_agree_whatever_the_settings(settings):
    a, b = LogisticRegression(), GradientBoostingClassifier()
    for n_samples in (300, 1000):
        _, planned = comparison_plan(a, b, n_samples, **settings)
        public = cvi.plan(a, b, n_samples=n_samples, **settings)
        assert planned.to_dict() == public.to_dict(), settings
        _check_stages(public)


def test_a_regressors_plan_has_its_design_and_no_figure_before_the_fits():
    X, y = load_diabetes(return_X_y=True)
    a, b = Ridge(), DecisionTreeRegressor(random_state=0)
    pilot = cvi.CVEvaluator(cv=10, loss="squared_error", random_state=0).compare(a, b, X, y)
    for n_samples in SIZES:
        _, planned = comparison_plan(a, b, n_samples)
        public = cvi.plan(pilot=pilot, n_samples=n_samples)
        assert _design(planned) == _design(public)
        assert planned.detectable is None and planned.source == "none" and public.detectable > 0
        assert [name for name, _ in planned.stages][:1] == [f"cross-validation ({planned.n_repeats} x 10-fold)"]
        assert "5x2cv" not in dict(planned.stages)  # Dietterich's 5x2cv is for classifiers
    assert _design(comparison_plan(Ridge(), RandomForestRegressor(), 442)[1]) == _design(
        cvi.plan(pilot=pilot, n_samples=442))
    planned = comparison_plan(a, b, 442)[1]
    text = " ".join(planned.summary().split())
    assert planned.metric == cvi.decide(pilot).metric == "mean squared error"
    assert "not known before the fits" in text and "no variance: a regressors' loss" in text
    with pytest.raises(ValueError, match="no figure to carry to another N"):
        planned.detectable_at(1000)


def test_leave_one_out_is_planned_without_repeats_5x2cv_or_a_figure():
    _, planned = comparison_plan(GaussianNB(), DecisionTreeClassifier(), 60, cv="loo")
    assert (planned.n_splits, planned.n_repeats) == (60, 1)
    assert planned.stages[0] == ("cross-validation (1 x 60-fold)", 2 * 60)  # one fit per instance and learner
    assert "5x2cv" not in dict(planned.stages) and planned.detectable is None
    assert planned.notes[0].startswith("n_repeats='auto': cv='loo' gives the same partition every time")


def test_the_issues_reproduction_runs_the_design_its_plan_promised():
    # issue 59: logistic regression against gradient boosting at N = 1,000 was planned on one design and run on
    # another; the comparison now runs the plan's folds and repeats, and keeps the plan
    X, y = make_classification(n_samples=1000, n_features=8, random_state=0)
    a, b = LogisticRegression(), GradientBoostingClassifier(n_estimators=5, random_state=0)
    public = cvi.plan(a, b, n_samples=1000, nested="never")
    comparison = cvi.compare(a, b, X, y, random_state=0, nested="never", n_jobs=1)
    assert comparison.plan.to_dict() == public.to_dict()
    assert comparison.pair.a.n_repeats == public.n_repeats and comparison.pair.a.n_splits == public.n_splits
    assert comparison.fits == (public.fits if comparison.decision.answer != "cannot tell" else public.most_fits)


def test_a_comparison_keeps_the_plan_it_ran_in_its_answer_and_json():
    X, y = make_classification(n_samples=200, n_features=5, random_state=1)
    a, b = GaussianNB(), DecisionTreeClassifier(random_state=0)
    comparison = cvi.compare(a, b, X, y, cv=5, n_repeats=2, random_state=0)
    public = cvi.plan(a, b, n_samples=200, cv=5, n_repeats=2)
    assert comparison.plan.to_dict() == public.to_dict()
    assert comparison.fits in (public.fits, public.most_fits)
    assert Plan.from_dict(comparison.to_dict()["plan"]).to_dict() == public.to_dict()
    assert comparison.pair.a.n_repeats == 2 or comparison.fits == public.most_fits


def test_plan_and_compare_share_the_default_repeats():
    import inspect

    from cvinference.cli._main import build_parser

    default = inspect.signature(cvi.compare).parameters["n_repeats"].default
    assert default == inspect.signature(cvi.plan).parameters["n_repeats"].default == "auto"
    assert build_parser().parse_args(["compare", "nb", "tree"]).repeats == default


def test_a_grouped_plan_reads_only_the_grouped_cells():
    """A grouped comparison's plan says what the grouped evidence measured and nothing about the ungrouped cells: its
    design's note reads the grouped rows (sized by G), and no second note reads the corrected t's ungrouped rows,
    which once said the opposite (a review of issue 59)."""
    _, planned = comparison_plan(LogisticRegression(), DecisionTreeClassifier(max_depth=3), 1000, cv=5, n_groups=40)
    assert planned.source == "calibration" and "at G = 40" in planned.rests_on
    assert not any("cross-validation, " in note and "at most" in note for note in planned.notes)
    assert any("measured no number of repeats" in note for note in planned.notes)


def _grouped_data(n_samples=200, n_groups=40):
    X, y = make_classification(n_samples=n_samples, n_features=5, random_state=1)
    return X, y, np.arange(n_samples) % n_groups


class _Unfittable(DecisionTreeClassifier):
    """A learner whose every fit fails: a refusal raised before it shows that nothing was fitted."""

    def fit(self, X, y, sample_weight=None):
        raise AssertionError("fitted before the refusal")


def test_a_grouped_plan_is_the_grouped_comparisons_plan_with_its_minimum_detectable_difference():
    X, y, groups = _grouped_data()
    a, b = GaussianNB(), DecisionTreeClassifier(random_state=0)
    public = cvi.plan(a, b, cv=5, groups=groups, nested="never")
    comparison = cvi.compare(a, b, X, y, cv=5, groups=groups, nested="never", random_state=0, n_jobs=1)
    assert comparison.plan == public and public.n_samples == 200
    # the oracle: the grouped calibration cells of the corrected t (10 x 10-fold, sized by G) read by hand, the
    # worst cell's variance of one group's share carried to G = 40 groups on 1 x 5-fold (plan's Notes: Nadeau &
    # Bengio's factor, c4 for the mean width)
    rows = [row for row in calibration_evidence()["rows"] if row.get("task") == "grouped"
            and row["quantity"] == "type_i" and row["method"] == "corrected-t"
            and (row.get("repeats"), row.get("folds")) == (10, 10) and row["n"] == 40]
    assert {row["learner"] for row in rows} == {"tree", "logistic"}  # GaussianNB borrows its neighbours' cells
    c4 = math.sqrt(2 / 99) * math.gamma(50) / math.gamma(49.5)
    unit = max((row["mean_width"] / (2 * stats.t.ppf(0.975, 99)) / c4) ** 2 / variance_factor(40, 10, 10) * 40 / 10
               for row in rows)
    se = math.sqrt(variance_factor(40, 5, public.n_repeats) * unit * 5 / 40)
    assert public.standard_error == pytest.approx(se, rel=1e-10)
    df = 5 * public.n_repeats - 1
    assert public.detectable == pytest.approx((stats.t.ppf(0.975, df) + stats.t.ppf(0.8, df)) * se, rel=1e-10)
    assert "at G = 40" in public.rests_on


def test_a_grouped_pilot_plans_its_own_groups_with_its_corrected_ts_standard_error():
    X, y, groups = _grouped_data()
    pilot = cvi.CVEvaluator(cv=5, random_state=0).compare(GaussianNB(), DecisionTreeClassifier(random_state=0), X, y,
                                                          groups)
    planned = cvi.plan(pilot=pilot, n_repeats=1)
    test = cvi.corrected_resampled_ttest(pilot.a, pilot.b)  # the oracle: the pilot's own test
    assert planned.standard_error == pytest.approx(math.sqrt(test.details["variance_factor"]
                                                             * test.details["variance"]), rel=1e-10)
    assert planned.source == "pilot" and "at G = 40" in planned.rests_on
    with pytest.raises(ValueError, match="pass groups= of the comparison planned"):
        cvi.plan(pilot=pilot, n_samples=400)
    ungrouped = cvi.CVEvaluator(cv=5, random_state=0).compare(GaussianNB(), DecisionTreeClassifier(), X, y)
    with pytest.raises(ValueError, match="groups: the pilot was made without groups"):
        cvi.plan(pilot=ungrouped, groups=groups)


def test_a_leave_one_out_plan_is_the_leave_one_out_comparisons_plan():
    X, y, _ = _grouped_data(n_samples=40)
    a, b = GaussianNB(), DecisionTreeClassifier(random_state=0)
    public = cvi.plan(a, b, n_samples=40, cv="loo")
    assert cvi.compare(a, b, X, y, cv="loo", random_state=0, n_jobs=1).plan == public
    assert (public.n_splits, public.n_repeats, public.detectable) == (40, 1, None)
    assert public.source == "none" and "leave-one-out" in public.rests_on
    assert cvi.plan(a, b, n_samples=40, cv=40) == public  # cv = N is leave-one-out, as compare reads it


@pytest.mark.parametrize("cv, n_repeats", [(KFold(5, shuffle=True, random_state=0), 2), (KFold(4), "auto")])
def test_a_splitters_plan_is_its_comparisons_plan(cv, n_repeats):
    X, y, _ = _grouped_data()
    a, b = GaussianNB(), DecisionTreeClassifier(random_state=0)
    public = cvi.plan(a, b, n_samples=200, cv=cv, n_repeats=n_repeats, nested="never")
    comparison = cvi.compare(a, b, X, y, cv=cv, n_repeats=n_repeats, nested="never", random_state=0, n_jobs=1)
    assert comparison.plan == public and public.n_splits == cv.get_n_splits()
    assert comparison.pair.a.n_repeats == public.n_repeats == (2 if n_repeats == 2 else 1)
    _check_stages(public)


def test_a_plan_and_compare_refuse_what_no_fit_could_run_before_any_fit():
    X, y, groups = _grouped_data()
    a, b = GaussianNB(), _Unfittable()
    refusals = [
        ({"groups": groups[:-1]}, ValueError, r"groups has shape \(199,\) and n_samples=200.*n_samples=len\(groups\)"),
        ({"cv": 50, "groups": groups}, ValueError, r"cv=50 is more folds than the 40 groups \(whole .*use cv=2 to 40"),
        ({"cv": KFold(5), "n_repeats": 3}, ValueError, "n_repeats=3 needs a splitter that draws a new random"),
        ({"cv": "loo", "n_repeats": 2}, ValueError, "n_repeats=2 needs k-fold cross-validation"),
        ({"cv": LeaveOneGroupOut()}, ValueError, r"cv=LeaveOneGroupOut\(\) cannot count its folds.*groups="),
        ({"cv": object()}, TypeError, "cv must be an int >= 2, 'loo', a cross-validation splitter"),
    ]
    for settings, error, message in refusals:
        with pytest.raises(error, match=message):
            cvi.plan(a, b, n_samples=200, **settings)
        with pytest.raises(error, match=message):
            cvi.compare(a, b, X, y, **settings)
    assert cvi.plan(a, b, cv=GroupKFold(5), groups=groups).n_splits == 5


# ---------------------------------------------------------------------------
# One learner: cvi.plan plans an evaluation, and evaluate keeps the plan it ran


@pytest.mark.parametrize("settings", [{}, {"cv": 5, "n_repeats": 2}, {"cv": "loo"}, {"cv": KFold(4)},
                                      {"cv": 5, "groups": True}, {"budget": "2x"}, {"confidence_level": 0.9}])
def test_an_evaluation_keeps_the_plan_that_cvi_plan_gives_with_its_arguments(settings):
    X, y, groups = _grouped_data(n_samples=60, n_groups=12)
    settings = dict(settings, groups=groups) if settings.get("groups") else settings
    learner = GaussianNB()
    evaluation = cvi.evaluate(learner, X, y, random_state=0, **settings)
    public = cvi.plan(learner, n_samples=60, **{"n_repeats": 1, **settings})
    assert evaluation.plan == public and evaluation.fits == public.fits == public.most_fits
    assert public.stages == ((f"cross-validation ({public.n_repeats} x {public.n_splits}-fold)", public.fits),)
    assert (public.n_splits, public.n_repeats) == (evaluation.result.n_splits, evaluation.result.n_repeats)
    assert evaluation.to_dict()["plan"] == public.to_dict() and Plan.from_json(public.to_json()) == public
    assert public.test is None and public.detectable is None and public.power is None and public.question is None
    assert (public.half_width is None) == (public.source == "none") == ("groups" in settings)


def test_an_evaluations_half_width_is_read_from_the_calibrations_auto_cells():
    planned = cvi.plan(DecisionTreeClassifier(), n_samples=569)
    # the oracle: the rows of method="auto"'s coverage of the k-fold target for trees at the sizes around 569,
    # read by hand; a width scales as N^(-1/2)
    rows = [row for row in calibration_evidence()["rows"] if row["quantity"] == "coverage"
            and row["method"] == "auto" and row["target"] == "kfold" and row["learner"] == "tree"
            and row.get("task", "classification") == "classification" and row["n"] in (300, 1000)]
    halves = [row["mean_width"] / 2 * math.sqrt(row["n"] / 569) for row in rows]
    assert planned.half_width == pytest.approx(max(halves), rel=1e-12)
    assert (planned.low, planned.high) == pytest.approx((min(halves), max(halves)), rel=1e-12)
    z = stats.norm.ppf
    at_90 = cvi.plan(DecisionTreeClassifier(), n_samples=569, confidence_level=0.9)
    assert at_90.half_width == pytest.approx(planned.half_width * z(0.95) / z(0.975), rel=1e-12)
    assert "evaluation of DecisionTreeClassifier()" in planned.summary() and repr(planned).startswith("Plan(eval")


def test_an_evaluation_planned_from_a_pilot_record_carries_its_recommended_interval():
    X, y, _ = _grouped_data()
    record = cvi.CVEvaluator(cv=10, random_state=0).evaluate(GaussianNB(), X, y)
    quantity, method = cvi.evaluate(record).recommended
    interval = cvi.evaluate(record).intervals[quantity][method]  # the oracle: the answer's recommended interval
    planned = cvi.plan(pilot=record, n_samples=800)
    assert planned.half_width == pytest.approx((interval.high - interval.low) / 2 * math.sqrt(200 / 800), rel=1e-12)
    assert planned.source == "pilot" and planned.metric == quantity and method in planned.rests_on
    assert cvi.plan(pilot=record).half_width == pytest.approx((interval.high - interval.low) / 2, rel=1e-12)


def test_a_regressors_evaluation_plan_says_why_it_has_no_half_width():
    X, y = load_diabetes(return_X_y=True)
    evaluation = cvi.evaluate(Ridge(), X, y, random_state=0)
    public = cvi.plan(Ridge(), n_samples=len(y), n_repeats=1)
    assert evaluation.plan == public and public.half_width is None and "pilot=" in public.rests_on
    assert public.metric == "mean squared error"
    assert "no half-width: a regressor's loss is on your data's scale" in " ".join(public.summary().split())


def test_what_only_a_comparison_takes_is_refused_for_one_learner_before_any_fit():
    for settings in ({"difference": 0.02}, {"margin": 0.02}, {"nested": "always"}, {"question": "equivalent"}):
        (name,) = settings
        with pytest.raises(ValueError, match=f"{name}=.*plans a comparison of two learners.*pass estimator_b"):
            cvi.plan(GaussianNB(), n_samples=100, **settings)
    with pytest.raises(ValueError, match="budget=5 allows 5 fits, and the cross-validation alone needs 10"):
        cvi.plan(GaussianNB(), n_samples=100, budget=5)
    X, y, _ = _grouped_data()
    with pytest.raises(ValueError, match="budget=5 allows 5 fits, and the cross-validation alone needs 10"):
        cvi.evaluate(_Unfittable(), X, y, budget=5)


def test_an_evaluations_summary_says_its_plan_in_one_line():
    X, y, _ = _grouped_data()
    evaluation = cvi.evaluate(GaussianNB(), X, y, cv=5, random_state=0)
    plan = evaluation.plan
    lines = [line for line in evaluation.summary().splitlines() if line.startswith("plan: ")]
    assert len(lines) == 1 and lines[0].startswith(f"plan: {plan.fits} fits (1 x 5-fold); the recommended")
    text = " ".join(evaluation.summary().split())
    assert f"half-width was planned at {plan.half_width:.4f} from the calibration's cells" in text
    assert "plan: " not in cvi.evaluate(evaluation.result).summary()  # a record passed in: no fit, no plan
    regression = cvi.evaluate(Ridge(), *load_diabetes(return_X_y=True), random_state=0)
    assert "plan: 10 fits (1 x 10-fold); no half-width known before the fits" in regression.summary()
