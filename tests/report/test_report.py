"""One report builder: the records' summary() and the command line show the same numbers under the same names."""

import dataclasses
import io
import json
import re

import numpy as np
import pytest
from scipy import stats
from sklearn.datasets import load_iris
from sklearn.linear_model import LogisticRegression
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

import cvinference as cvi
from cvinference._utils._text import format_pvalue
from cvinference._utils._warnings import quietly
from cvinference.cli import main
from cvinference.report import render_text
from cvinference.report._report import evaluation_report


def _test_rows(text):
    """{test name: statistic text} of the tests table."""
    block = text.split("tests of accuracy(A) = accuracy(B)", 1)[1].split("\nscheme independence", 1)[0]
    return {m.group(1).strip(): m.group(2) for m in re.finditer(r"^ *(.+?)  +(-?[\d.]+|n/a)  ", block, re.M)
            if m.group(1).strip() != "test"}


@pytest.fixture(scope="module")
def iris_runs():
    """The CLI's compare of logreg and nb on iris (5 folds, 3 repeats) and the same pair fitted in Python."""
    out = io.StringIO()
    assert main(["compare", "logreg", "nb", "--data", "iris", "--cv", "5", "--repeats", "3", "--seed", "0",
                 "--n-jobs", "1"], out=out) == 0
    from sklearn.naive_bayes import GaussianNB

    X, y = load_iris(return_X_y=True)
    logreg = make_pipeline(StandardScaler(), LogisticRegression(max_iter=1000, random_state=0))
    pair = cvi.CVEvaluator(cv=5, n_repeats=3, random_state=0).compare(logreg, GaussianNB(), X, y)
    return out.getvalue(), pair


@pytest.mark.slow
def test_summary_and_command_line_show_the_same_statistics_under_the_same_names(iris_runs):
    cli_text, pair = iris_runs
    in_python, on_cli = _test_rows(pair.summary()), _test_rows(cli_text)
    names = ["matched-sample t (repeat 0)", "independent-sample z (repeat 0)", "McNemar (repeat 0)",
             "corrected t (3x5-fold)"]
    assert list(in_python) == names and list(on_cli) == names + ["5x2cv t"]
    assert all(in_python[name] == on_cli[name] for name in names)
    # The independent oracle: the inference functions called directly, under the stated rule.
    with pytest.warns(cvi.InferenceWarning, match="large-sample conditions fail"):
        matched = cvi.matched_sample_test(pair.a, pair.b, repeat=0)
    assert float(in_python["matched-sample t (repeat 0)"]) == pytest.approx(matched.statistic, rel=1e-3)
    corrected = cvi.corrected_resampled_ttest(pair.a, pair.b)
    assert float(in_python["corrected t (3x5-fold)"]) == pytest.approx(corrected.statistic, rel=1e-3)


@pytest.mark.slow
def test_the_pooled_repeats_warning_shows_once(iris_runs):
    cli_text, pair = iris_runs
    for text in (cli_text, pair.summary()):
        assert text.count("3 repeats of cross-validation are pooled") == 1


def _fold_column(text):
    block = text.split("per fold", 1)[1].split("\n\n", 1)[0].splitlines()
    return block[1], [line.split()[-1] for line in block[2:]]


def test_the_per_fold_conditions_follow_min_count():
    X, y = load_iris(return_X_y=True)
    result = cvi.cross_val_correctness(LogisticRegression(max_iter=1000), X, y, cv=3, random_state=0)
    # Hand count: each fold of 50 has r_j correct and 50 - r_j wrong; the conditions hold when both reach min_count.
    wrong = result.fold_sizes[0] - result.fold_correct[0]
    for min_count in (1, 20):
        report = evaluation_report(result, description=None, data=None, min_count=min_count)
        header, column = _fold_column(render_text(report))
        assert header.endswith(f"r_j, m_j - r_j >= {min_count}")
        expected = ["yes" if r >= min_count and w >= min_count else "NO"
                    for r, w in zip(result.fold_correct[0], wrong, strict=True)]
        assert column == expected
        np.testing.assert_array_equal(report["estimators"]["A"]["conditions"]["holds"],
                                      cvi.large_sample_conditions(result, min_count).holds)
    assert "NO" in _fold_column(render_text(
        evaluation_report(result, description=None, data=None, min_count=20)))[1]



def test_the_df_column_shows_numerator_and_denominator_when_given():
    from cvinference.report._report import _df_text

    assert _df_text({"df": 10.0, "df_denominator": 5.0}) == "10, 5"
    assert _df_text({"df": 4.0, "df_denominator": None}) == "4"
    assert _df_text({"df": None, "df_denominator": None}) == ""


def test_the_splitter_line_says_which_repeat_its_seed_belongs_to():
    from sklearn.datasets import load_iris
    from sklearn.naive_bayes import GaussianNB

    X, y = load_iris(return_X_y=True)
    repeated = cvi.CVEvaluator(cv=3, n_repeats=2, random_state=0).evaluate(GaussianNB(), X, y)
    single = cvi.CVEvaluator(cv=3, random_state=0).evaluate(GaussianNB(), X, y)
    assert f"splitter, repeat 0 of 2: {repeated.cv_repr}" in repeated.summary()
    assert f"splitter: {single.cv_repr}" in single.summary()


def _stump_on_skewed_data():
    """A depth-1 tree on 600 instances of which 97% are class 0: it predicts (nearly) only the majority class."""
    from sklearn.datasets import make_classification
    from sklearn.tree import DecisionTreeClassifier

    X, y = make_classification(n_samples=600, weights=[0.97], flip_y=0, random_state=0)
    return cvi.cross_val_correctness(DecisionTreeClassifier(max_depth=1, random_state=0), X, y, cv=10,
                                     random_state=0)


@pytest.mark.slow
def test_the_baseline_record_is_no_information_test_and_json_safe():
    import json

    X, y = load_iris(return_X_y=True)
    result = cvi.cross_val_correctness(LogisticRegression(max_iter=1000), X, y, cv=5, random_state=0)
    report = evaluation_report(result, description=None, data=None)
    baseline = report["estimators"]["A"]["baseline"]
    # Oracle: iris has 50 instances of each class, so NIR = 50 / 150 and the majority class is the first, 0.
    oracle = stats.binomtest(int(result.correct.sum()), 150, 50 / 150, alternative="greater")
    assert baseline == {"no_information_rate": pytest.approx(1 / 3), "majority_class": 0,
                        "pvalue": pytest.approx(oracle.pvalue, rel=1e-12), "beats": True, "imbalance_ratio": 1.0}
    assert type(baseline["majority_class"]) is int
    json.dumps(report, allow_nan=False)
    text = render_text(report)
    assert "  no-information rate 0.3333 (always predicting 0); accuracy > NIR: p < 0.001 (one-sided binomial)" in (
        text.splitlines())
    assert "class imbalance" not in text and "Does not beat" not in text


def test_a_regression_record_has_the_mean_as_baseline_and_no_no_information_rate():
    result = cvi.CVResult([0.5, 1.5, 2.5, 3.5], [0.5, 1.0, 2.0, 3.0], [0, 1, 0, 1], loss=[0.0, 0.25, 0.25, 0.25],
                          loss_name="squared_error")
    report = evaluation_report(result, description=None, data=None)
    baseline, oracle = report["estimators"]["A"]["baseline"], cvi.inference.mean_baseline_test(result)
    # fold 0 (0.5, 2.5) is predicted by the mean of fold 1, 2.5, and fold 1 (1.5, 3.5) by 1.5: errors 4, 0, 0, 4
    assert baseline == {"baseline": "mean", "baseline_loss": pytest.approx(2.0), "relative": pytest.approx(
        1 - 0.1875 / 2.0), "pvalue": pytest.approx(oracle.pvalue), "beats": False}
    text = render_text(report)
    assert "no-information" not in text
    assert "does not beat the trivial regressor (the training mean of y): mean squared error 2.0000," in text
    assert text.split("verdict: ")[1].startswith("Does not beat the trivial regressor")


@pytest.mark.parametrize("loss", ["squared_error", "log_loss"])
def test_a_grouped_record_shows_the_cluster_interval_of_its_mean_loss(loss):
    """The row is loss_interval(method="cluster") itself for a classifier's loss; a regressor's is
    regression_interval's method="auto" (the cluster interval or its half-sample form, as the evidence says),
    and its verdict quotes it."""
    from sklearn.linear_model import Ridge
    from sklearn.model_selection import GroupKFold

    rng = np.random.default_rng(0)
    groups = np.repeat(np.arange(20), 5)
    X = rng.normal(size=(100, 2)) + rng.normal(size=(20, 1))[groups]
    regression = loss == "squared_error"
    y = X @ [1.0, -1.0] + rng.normal(size=100) if regression else (X[:, 0] > 0).astype(int)
    estimator = Ridge() if regression else LogisticRegression()
    result = cvi.CVEvaluator(cv=GroupKFold(4), loss=loss).evaluate(estimator, X, y, groups)
    report = evaluation_report(result, description=None, data=None)
    intervals = report["estimators"]["A"]["intervals"]
    rows = [row for row in intervals if row["method"].startswith("cluster") and row["quantity"] == loss]
    assert len(rows) == 1 and (intervals.index(rows[0]) == 0) == regression
    oracle = (quietly(cvi.inference.regression_interval, result, "mean_squared_error") if regression
              else cvi.loss_interval(result, method="cluster"))
    assert (rows[0]["method"], rows[0]["estimate"], rows[0]["low"], rows[0]["high"], rows[0]["df"]) == (
        oracle.method, oracle.estimate, oracle.low, oracle.high, oracle.details["df"])
    # the shipped evidence: ridge regression's cluster-robust MSE interval fell short at G = 40 (docs/calibration.md)
    assert oracle.method == ("cluster-half-sample" if regression else "cluster")
    assert oracle.details["df"] == 19  # G - 1 for the 20 groups
    if regression:
        assert (f"between {oracle.low:.4f} and {oracle.high:.4f} ({oracle.method} interval"
                in report["verdict"]["text"])


def test_a_regression_report_shows_mse_mae_and_r2_intervals_and_the_loss_tests():
    from sklearn.datasets import load_diabetes
    from sklearn.linear_model import Ridge
    from sklearn.tree import DecisionTreeRegressor

    from cvinference.report._report import comparison_report
    X, y = load_diabetes(return_X_y=True)
    pair = cvi.CVEvaluator(cv=5, loss="squared_error", random_state=0).compare(
        Ridge(), DecisionTreeRegressor(max_depth=3, random_state=0), X, y)
    report = comparison_report(pair, descriptions=("ridge", "tree"), data=None, names=("ridge", "tree"))
    intervals = report["estimators"]["A"]["intervals"]
    assert [i["quantity"] for i in intervals] == ["mean_squared_error", "mean_absolute_error", "r2"]
    assert intervals[2]["estimate"] == pytest.approx(cvi.inference.regression_interval(pair.a).estimate)
    assert [t["name"] for t in report["tests"]] == ["corrected t (1x5-fold)", "CV-CLT (instance differences)"]
    assert report["tests"][1]["pvalue"] == pytest.approx(cvi.inference.loss_difference_test(pair).pvalue)
    assert report["decision"]["metric"] == "mean squared error" and report["decision"]["lower_is_better"]
    text = render_text(report)
    assert "tests of mean squared error(A) = mean squared error(B); B - A > 0 when A's is lower" in text
    assert "decision: " in text and "trivial regressor (the training mean of y)" in text
    json.dumps(report, allow_nan=False)


def test_beats_is_the_pvalue_below_one_minus_the_confidence_level():
    # 16 of 20 instances are class 1 (NIR 0.8); all 20 right: p = 0.8^20 = 0.0115 (the binomial tail P(X = 20)).
    result = cvi.CVResult([1] * 16 + [0] * 4, [1] * 16 + [0] * 4, [0, 1] * 10)
    for level, beats in ((0.95, True), (0.99, False)):
        baseline = evaluation_report(result, description=None, data=None, confidence_level=level)[
            "estimators"]["A"]["baseline"]
        assert baseline["pvalue"] == pytest.approx(0.8**20, rel=1e-12) and baseline["beats"] is beats


def test_a_learner_that_does_not_beat_the_rate_is_told_first_and_pointed_to_a_metric():
    result = _stump_on_skewed_data()
    report = evaluation_report(result, description=None, data=None)
    baseline = report["estimators"]["A"]["baseline"]
    assert baseline["no_information_rate"] == pytest.approx(582 / 600) and baseline["majority_class"] == 0
    assert baseline["imbalance_ratio"] == pytest.approx(582 / 18) and not baseline["beats"]
    oracle = stats.binomtest(int(result.correct.sum()), 600, 582 / 600, alternative="greater").pvalue
    assert baseline["pvalue"] == pytest.approx(oracle, rel=1e-12) and oracle > 0.05
    text = render_text(report)
    assert (f"  does not beat the no-information rate 0.9700 (always predicting 0); accuracy > NIR: "
            f"{format_pvalue(oracle)}") in text
    assert "class imbalance 32.3:1 (largest class over smallest)" in text and "--metric" in text  # 582 / 18
    assert report["verdict"]["text"].startswith("Does not beat the no-information rate: always predicting 0 "
                                                "scores 97.0%")
    with_metric = render_text(evaluation_report(result, description=None, data=None, metrics=("balanced_accuracy",)))
    assert "class imbalance" not in with_metric and "does not beat the no-information rate" in with_metric


@pytest.mark.slow
def test_both_estimators_of_a_comparison_show_their_baseline(iris_runs):
    cli_text, pair = iris_runs
    for text in (cli_text, pair.summary()):
        lines = [line for line in text.splitlines() if line.startswith("  no-information rate 0.3333")]
        assert len(lines) == 2 and all("accuracy > NIR: p < 0.001" in line for line in lines)


@pytest.mark.slow
def test_a_named_pair_names_its_learners_as_the_command_line_does(iris_runs):
    from sklearn.naive_bayes import GaussianNB

    cli_text, _ = iris_runs
    X, y = load_iris(return_X_y=True)
    logreg = make_pipeline(StandardScaler(), LogisticRegression(max_iter=1000, random_state=0))
    pair = cvi.CVEvaluator(cv=5, n_repeats=3, random_state=0).compare(logreg, GaussianNB(), X, y,
                                                                      names=("logreg", "nb"))
    learners = [line for line in cli_text.splitlines() if line.startswith(("A: ", "B: "))]
    assert learners == ["A: logreg: StandardScaler + LogisticRegression(max_iter=1000, random_state=0)",
                        "B: nb: GaussianNB()"]
    assert [line for line in pair.summary().splitlines() if line.startswith(("A: ", "B: "))] == learners


def test_learner_text():
    from cvinference.report._report import learner_text

    def record(**labels):
        return cvi.CVResult([0, 1], [0, 1], [0, 1], **labels)

    assert learner_text(record()) is None
    assert learner_text(record(estimator_repr="GaussianNB()")) == "GaussianNB()"
    assert learner_text(record(estimator_repr="GaussianNB()", name="GaussianNB()")) == "GaussianNB()"
    assert learner_text(record(estimator_repr="GaussianNB()", name="nb")) == "nb: GaussianNB()"
    assert learner_text(record(name="nb")) == "nb"


def _plain_number(value):
    return None if value is None or not np.isfinite(value) else value


@pytest.mark.slow
def test_the_json_records_hold_the_results_fields_under_their_names(iris_runs):
    """Issue 27, item 3: the report's rows are fields of the results' to_dict(), not a parallel shape.

    The oracle is each result's own attributes: the same names, nan written as null, tuples as lists.
    """
    from cvinference.report._report import comparison_report

    _, pair = iris_runs
    report = comparison_report(pair, descriptions=("logreg", "nb"), data=None)
    with pytest.warns(cvi.InferenceWarning, match="3 repeats of cross-validation are pooled"):
        interval = cvi.accuracy_interval(pair.a, method="wilson")
    row = next(r for r in report["estimators"]["A"]["intervals"] if r["name"] == "Wilson")
    for name in ("estimate", "low", "high", "confidence_level", "method", "estimand", "target", "assumptions"):
        assert row[name] == getattr(interval, name), name
    for name in ("averaging", "standard_error", "df"):
        assert row[name] == interval.details[name], name
    test = cvi.mcnemar_test(pair.a, pair.b, repeat=0)
    row = next(r for r in report["tests"] if r["name"] == "McNemar (repeat 0)")
    assert (row["statistic"], row["df"], row["pvalue"], row["alternative"]) == (
        test.statistic, None, test.pvalue, test.alternative)
    assert (row["low"], row["high"]) == tuple(test.confidence_interval(0.95))
    decision = cvi.decide(pair)
    written = report["decision"]
    assert list(written) == [field.name for field in dataclasses.fields(decision)] + ["text", "summary",
                                                                                      "explanation"]
    assert written["names"] == list(decision.names) and written["text"] == decision.text
    assert written["summary"] == decision.summary().splitlines()[:-1]  # its last line says where the details are
    assert written["explanation"] == decision.explain()
    assert written["minimum_detectable_difference"] == decision.minimum_detectable_difference  # None: cannot tell
    for found, shown in zip(decision.context, written["context"], strict=True):
        assert shown == {"name": found.name, "estimate": found.estimate, "low": found.low, "high": found.high,
                         "pvalue": _plain_number(found.pvalue), "target": found.target,
                         "measured_type_i": found.measured_type_i, "measured_power": found.measured_power,
                         "regime": found.regime, "why_not": found.why_not, "df": found.df,
                         "method": found.method}
