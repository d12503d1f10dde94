"""``CVResult.plot()`` and ``PairedCVResult.plot()``: scikit-learn's Display conventions, titles that say what is drawn.

The figures are the report's (``cvinference.report._plot.draw_report``), the code the command line's ``--plot`` runs.
"""

import warnings

import numpy as np
import pytest
from scipy.integrate import trapezoid
from sklearn.datasets import load_breast_cancer
from sklearn.linear_model import LogisticRegression
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.tree import DecisionTreeClassifier

import cvinference as cvi
from cvinference.report._plot import draw_report
from cvinference.report._report import comparison_report, record_report

plt = pytest.importorskip("matplotlib.pyplot")


@pytest.fixture(scope="module")
def pair():
    X, y = load_breast_cancer(return_X_y=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return cvi.CVEvaluator(cv=5, random_state=0).compare(
            make_pipeline(StandardScaler(), LogisticRegression(max_iter=1000)), DecisionTreeClassifier(random_state=0),
            X, y)


@pytest.fixture(autouse=True)
def close_figures():
    yield
    plt.close("all")


@pytest.mark.slow
def test_one_result_draws_its_folds_and_intervals_on_a_new_figure(pair):
    drawn = pair.a.plot()
    figure = drawn.figure_
    assert drawn.axes_ == tuple(figure.axes) and drawn.ax_ is figure.axes[1]  # the main panel: the intervals
    assert [axis.get_title() for axis in figure.axes] == ["accuracy per fold (repeat 0)", "accuracy intervals"]
    title = figure.get_suptitle()
    assert title.startswith("569 instances, 5-fold cross-validation\nA = StandardScaler + LogisticRegression")
    # the fold panel holds the 5 fold accuracies of repeat 0, as the record has them
    fold_values = figure.axes[0].lines[0].get_ydata()
    np.testing.assert_allclose(fold_values, [pair.a.correct[0][pair.a.fold[0] == j].mean() for j in range(5)])
    figure.canvas.draw()
    assert [tick.get_text() for tick in figure.axes[0].get_xticklabels()
            if 0 <= tick.get_position()[0] <= 4] == ["0", "1", "2", "3", "4"]  # folds are whole numbers


def test_a_pair_names_a_and_b_and_the_decision_in_its_title(pair):
    figure = pair.plot().figure_
    assert [axis.get_title() for axis in figure.axes] == [
        "accuracy per fold (repeat 0)", "fold differences", "tests: estimate and interval"]
    title = " ".join(figure.get_suptitle().split())  # wrapped to the figure's width
    assert "A = StandardScaler + LogisticRegression(max_iter=1000); B = DecisionTreeClassifier(random_state=0)" in title
    assert f"decision on accuracy: {cvi.decide(pair).answer}" in title


def test_no_title_is_cut_off(pair):
    renamed = cvi.CVResult.from_dict({**pair.a.to_dict(), "name": "a learner with a long description " * 4})
    long_name = cvi.PairedCVResult(renamed, pair.b)
    figure = long_name.plot().figure_
    figure.canvas.draw()
    box = figure.get_tightbbox(figure.canvas.get_renderer())
    assert box.x0 >= 0 and box.x1 <= figure.bbox_inches.x1 + 1e-6 and box.y1 <= figure.bbox_inches.y1 + 1e-6


def test_one_axes_gets_the_main_panel_and_is_returned(pair):
    figure, axis = plt.subplots()
    drawn = pair.plot(ax=axis)
    assert drawn.ax_ is axis and drawn.axes_ == (axis,) and drawn.figure_ is figure
    assert axis.get_title().startswith("tests: estimate and interval\nA = ")
    assert len(figure.axes) == 1  # nothing drawn beside the user's Axes
    assert pair.a.plot(ax=axis.figure.add_subplot(2, 1, 2)).ax_.get_title().startswith("accuracy intervals\nA = ")


def test_as_many_axes_as_panels_draw_every_panel_there(pair):
    figure, axes = plt.subplots(1, 3)
    drawn = pair.plot(ax=axes)
    assert drawn.figure_ is figure and drawn.axes_ == tuple(axes) and drawn.ax_ is axes[2]
    assert [axis.get_title() for axis in axes] == [
        "accuracy per fold (repeat 0)", "fold differences", "tests: estimate and interval"]
    assert figure.get_suptitle() == ""  # the user's figure keeps its own title


def test_another_number_of_axes_is_refused_naming_ax(pair):
    _, axes = plt.subplots(1, 2)
    with pytest.raises(ValueError, match=r"ax must be a matplotlib Axes \(the main panel only\) or 3 Axes"):
        pair.plot(ax=axes)
    with pytest.raises(ValueError, match="ax must be"):
        pair.a.plot(ax="left")


def test_the_test_the_decision_rests_on_is_marked_and_nested_cv_is_drawn(pair, evidence):
    evidence({"method": "nested-cv", "quantity": "type_i", "target": "conditional", "learner": "tree", "n": 300,
              "population": "nonlinear", "nominal": 0.05, "measured": 0.04, "wilson_low": 0.02, "wilson_high": 0.07,
              "replications": 500, "mean_width": 0.2})
    nested = cvi.results.Interval(estimate=0.04, low=0.02, high=0.06, confidence_level=0.95, method="nested-cv",
                                  estimand="difference in expected error rate (made by hand)", assumptions="a",
                                  target="conditional",
                                  details={"averaging": "dataset", "standard_error": 0.01, "n_learners": 2})
    report = comparison_report(pair, descriptions=("logreg", "tree"), data=None, nested=nested)
    assert report["decision"]["rests_on"]["name"] == "nested-cv difference"
    axis = draw_report(report, plt.subplots()[1]).ax_
    labels = [label.get_text() for label in axis.get_yticklabels()]
    assert labels[-1] == "nested-cv difference (p < 0.001)\nthe decision rests on it"
    assert not any("rests on it" in label for label in labels[:-1])


def test_an_interval_and_a_test_draw_their_estimate_and_bounds(pair):
    interval = cvi.accuracy_interval(pair.a, method="wilson")
    axis = interval.plot().ax_
    assert axis.lines[0].get_xdata()[0] == pytest.approx(interval.estimate)  # the point; then the bars' caps
    # the error bar spans the bounds (matplotlib's errorbar: a LineCollection of one segment)
    ((low, _), (high, _)), = axis.collections[0].get_segments()
    assert (low, high) == (pytest.approx(interval.low), pytest.approx(interval.high))
    assert axis.get_title() == f"95% wilson interval (dataset level): {interval.estimate:.4f}\ntarget: kfold"
    assert " ".join(axis.get_xlabel().split()) == f"estimand: {interval.estimand}"  # in full, wrapped
    difference = cvi.mcnemar_test(pair).confidence_interval().plot().ax_  # its sign is part of the estimand
    assert "(A minus B)" in " ".join(difference.get_xlabel().split())

    test = cvi.mcnemar_test(pair)
    _, given = plt.subplots()
    assert test.plot(ax=given, confidence_level=0.9).ax_ is given
    ((low, _), (high, _)), = given.collections[0].get_segments()
    ninety = test.confidence_interval(0.9)
    assert (low, high) == (pytest.approx(ninety.low), pytest.approx(ninety.high))
    assert given.get_title().startswith(f"McNemar ({test.details['variant']}): {test.estimate:+.4f}, p ")
    assert [line.get_xdata()[0] for line in given.lines if line.get_linestyle() == "--"] == [0.0]


def test_an_interval_that_warned_is_drawn_in_grey_and_says_so():
    # a grouped record: the intervals that count every instance as independent warn (accuracy_interval's
    # grouped-record warning), the recommended one takes the groups as the units and does not
    rng = np.random.default_rng(0)
    groups = np.repeat(np.arange(40), 10)
    X = rng.normal(size=(40, 3))[groups] + rng.normal(size=(400, 3))
    y = (X[:, 0] > 0).astype(int)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        result = cvi.cross_val_correctness(LogisticRegression(), X, y, groups=groups,
                                           cv=cvi.StratifiedEqualSizeGroupKFold(5, shuffle=True, random_state=0))
        warned = {method: bool(cvi.accuracy_interval(result, method=method).warnings)
                  for method in ("auto", "normal", "wilson", "clopper-pearson")}
    assert warned == {"auto": False, "normal": True, "wilson": True, "clopper-pearson": True}
    _, axis = plt.subplots()
    result.plot(ax=axis)
    labels = [label.get_text() for label in axis.get_yticklabels()]
    colors = [line.get_color() for line in axis.lines[::2]]
    rows = record_report(result)["estimators"]["A"]["intervals"]  # the panel's intervals, in its order
    assert [label.split("\n")[0] for label in labels] == [row["name"] for row in rows]
    for label, color, row in zip(labels, colors, rows, strict=True):
        is_warned = label.endswith("\n(warned: see the summary)")
        assert is_warned == bool(row["warnings"]) and color == ("0.6" if is_warned else "black"), label
    assert sum(label.endswith("(warned: see the summary)") for label in labels) >= 3


@pytest.mark.parametrize("n_splits", [5, 2])  # df = 4, and df = 1: a posterior with long tails
def test_the_bayesian_posterior_is_drawn_with_regions_whose_areas_are_its_probabilities(pair, n_splits):
    if n_splits != 5:
        X, y = load_breast_cancer(return_X_y=True)
        pair = cvi.CVEvaluator(cv=n_splits, random_state=0).compare(
            make_pipeline(StandardScaler(), LogisticRegression(max_iter=1000)),
            DecisionTreeClassifier(random_state=0), X, y)
    result = cvi.bayesian_correlated_ttest(pair, margin=0.01)
    assert result.df == n_splits - 1
    _, given = plt.subplots()
    assert result.plot(ax=given).ax_ is given
    x, density = given.lines[0].get_data()
    # oracle: the probabilities scipy's t distribution gives (bayesian_correlated_ttest); the curve spans its
    # 0.0005 to 0.9995 quantiles, so each area may fall short by at most 0.0005, plus the trapezoid rule's error
    areas = [trapezoid(density[inside], x[inside]) for inside in (x <= -0.01, (x >= -0.01) & (x <= 0.01),
                                                                   x >= 0.01)]
    expected = [result.prob_b_better, result.prob_equivalent, result.prob_a_better]
    np.testing.assert_allclose(areas, expected, atol=2e-3)
    assert [patch.get_label() for patch in given.collections] == [
        f"B better: {result.prob_b_better:.3f}", f"equivalent: {result.prob_equivalent:.3f}",
        f"A better: {result.prob_a_better:.3f}"]
    assert sorted(line.get_xdata()[0] for line in given.lines[1:]) == [-0.01, 0.01]
    assert -1 <= given.get_xlim()[0] < -0.01 and 0.01 < given.get_xlim()[1] <= 1  # the margin, within [-1, 1]


def test_a_posterior_that_is_a_point_mass_or_not_computable_says_so(pair):
    result = cvi.bayesian_correlated_ttest(pair, margin=0.01)
    point_mass = cvi.results.BayesianResult.from_dict({**result.to_dict(), "posterior_scale": 0.0}).plot().ax_
    assert point_mass.get_legend_handles_labels()[1] == [f"posterior: a point mass at {result.posterior_mean:+.4f}"]
    assert sorted(line.get_xdata()[0] for line in point_mass.lines[1:]) == [-0.01, 0.01]
    assert f"P(A better) = {result.prob_a_better:.3f}" in " ".join(point_mass.get_title().split())
    unknown = cvi.results.BayesianResult.from_dict({**result.to_dict(), "posterior_scale": float("nan")}).plot().ax_
    assert [text.get_text() for text in unknown.texts] == ["the posterior is not computable here"]
    assert unknown.get_legend() is None


def test_a_decision_draws_the_test_it_rests_on_in_red_and_names_a_and_b(pair):
    decision = cvi.decide(pair)
    axis = decision.plot().ax_
    tests = [test for test in (decision.rests_on, *decision.context) if test is not None]
    labels = [label.get_text() for label in axis.get_yticklabels()]
    assert [label.split(" (p")[0] for label in labels] == [test.name for test in tests]
    for y, test in enumerate(tests):  # the bar spans the test's own interval, the point is its estimate
        bar, point = axis.lines[2 * y], axis.lines[2 * y + 1]
        assert tuple(bar.get_xdata()) == (pytest.approx(test.low), pytest.approx(test.high))
        assert point.get_xdata()[0] == pytest.approx(test.estimate)
        assert (bar.get_color() == "tab:red") == (test is decision.rests_on)
    title = " ".join(axis.get_title().split())
    assert title.startswith(f"decision on accuracy: {decision.answer} (")
    assert title.endswith(f"A = {decision.names[0]}; B = {decision.names[1]} each test's estimate with its 95% "
                          "interval")
    assert axis.get_xlabel() == "accuracy(A) - accuracy(B)"
