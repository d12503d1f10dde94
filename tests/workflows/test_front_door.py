"""The front door (issue 44, item 1): ``cvi.evaluate`` and ``cvi.compare`` answer in one call what the command line
answers, the command line prints exactly their summary, and the budget is said before the first fit and kept."""

import io
import json

import numpy as np
import pytest
from sklearn.datasets import load_breast_cancer, load_diabetes, load_iris
from sklearn.ensemble import RandomForestClassifier
from sklearn.linear_model import LogisticRegression, Ridge
from sklearn.naive_bayes import GaussianNB
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.tree import DecisionTreeClassifier

import cvinference as cvi
import cvinference.cli._commands as commands
from cvinference.cli import main
from cvinference.policy._budget import budget_fits

X_IRIS, Y_IRIS = load_iris(return_X_y=True)
X_CANCER, Y_CANCER = load_breast_cancer(return_X_y=True)


class CountedNB(GaussianNB):
    """GaussianNB counting its fits in this process (n_jobs=None keeps them here)."""

    fits = 0

    def fit(self, X, y, sample_weight=None):
        type(self).fits += 1
        return super().fit(X, y, sample_weight=sample_weight)


def _spy(monkeypatch, name):
    """Keep what the command line's call of the front door returned."""
    kept, function = [], getattr(commands, name)

    def spy(*args, **kwargs):
        kept.append(function(*args, **kwargs))
        return kept[-1]

    monkeypatch.setattr(commands, name, spy)
    return kept


@pytest.mark.parametrize("argv, name", [
    (["evaluate", "nb", "--data", "iris", "--cv", "3", "--metric", "f1_macro"], "run_evaluation"),
    (["compare", "nb", "tree", "--data", "iris", "--cv", "3", "--repeats", "2"], "run_comparison"),
])
def test_the_command_line_prints_exactly_the_front_doors_summary_and_writes_its_report(argv, name, monkeypatch,
                                                                                         tmp_path):
    kept = _spy(monkeypatch, name)
    out, path = io.StringIO(), tmp_path / "report.json"
    assert main([*argv, "--json", str(path)], out=out) == 0
    (answer,) = kept
    assert out.getvalue() == answer.summary() + "\n"
    assert json.loads(path.read_text()) == json.loads(json.dumps(answer.to_dict()))


@pytest.mark.slow
def test_compare_on_breast_cancer_rests_on_a_calibrated_route_in_one_call_as_the_command_line():
    """Issue 44's example: scaled logistic regression against a random forest. Since issue 45 the benchmark measured
    both learners' 1 x 10-fold corrected t at N = 300 and 1,000 within the limit (the --decision run), so the decision
    rests on it, from the folds alone (the 20 fits of the folds and the 20 of 5x2cv; nested CV is not needed); the
    summary is the command line's but for the data's name, which Python is not told."""
    comparison = cvi.compare(make_pipeline(StandardScaler(), LogisticRegression(max_iter=1000, random_state=0)),
                             RandomForestClassifier(random_state=0), X_CANCER, Y_CANCER, random_state=0,
                             names=("logreg", "rf"))
    rests_on = comparison.decision.rests_on
    assert rests_on is not None and rests_on.measured_type_i <= 0.06
    assert rests_on.name == "corrected t (1x10-fold)" and comparison.nested is None
    assert comparison.fits == 20 + 20
    out = io.StringIO()
    assert main(["compare", "logreg", "rf", "--data", "breast_cancer"], out=out) == 0
    printed, summary = out.getvalue().rstrip("\n").split("\n"), comparison.summary().split("\n")
    assert printed[0] == "breast_cancer: " + summary[0]
    assert printed[1:] == summary[1:]


def test_metric_accuracy_takes_the_route_of_no_metric():
    """``metric="accuracy"`` asks what no metric asks: the same decision, nested CV run when the folds cannot tell
    (before, the command line skipped it whenever --metric was given)."""
    pair = (GaussianNB(), DecisionTreeClassifier(random_state=0), X_CANCER, Y_CANCER)
    plain = cvi.compare(*pair, random_state=0)
    asked = cvi.compare(*pair, random_state=0, metric="accuracy")
    assert plain.nested is not None and asked.nested == plain.nested
    assert asked.decision.answer == plain.decision.answer
    assert asked.decision.rests_on == plain.decision.rests_on
    assert asked.fits == plain.fits


def test_the_command_line_takes_nested_always_with_metric_accuracy(capsys):
    status = main(["compare", "nb", "tree", "--data", "iris", "--cv", "3", "--metric", "accuracy", "--nested",
                   "always", "--quiet"], out=io.StringIO())
    assert status == 0 and capsys.readouterr().err == ""


def test_a_budget_below_the_cross_validation_is_refused_before_any_fit():
    CountedNB.fits = 0
    with pytest.raises(ValueError, match=r"budget=10 allows 10 fits, and the cross-validation of both learners alone "
                                         r"needs 12; raise budget to at least 12"):
        cvi.compare(CountedNB(), GaussianNB(var_smoothing=1e-3), X_IRIS, Y_IRIS, cv=3, n_repeats=2, budget=10)
    with pytest.raises(ValueError, match=r"budget='0.2x' allows 2 fits, and the cross-validation alone needs 3"):
        cvi.evaluate(CountedNB(), X_IRIS, Y_IRIS, cv=3, budget="0.2x")
    assert CountedNB.fits == 0


@pytest.mark.parametrize("budget", ["", "8", "-1x", "x", 0, -3])
def test_a_budget_that_is_no_number_of_fits_is_refused(budget):
    with pytest.raises(ValueError, match=rf"budget must be None, a number of fits .* got budget={budget!r}"):
        cvi.compare(GaussianNB(), GaussianNB(), X_IRIS, Y_IRIS, budget=budget)


@pytest.mark.parametrize("budget", [2.5, True, [10]])
def test_a_budget_of_the_wrong_type_is_a_type_error(budget):
    with pytest.raises(TypeError, match="budget must be"):
        cvi.evaluate(GaussianNB(), X_IRIS, Y_IRIS, budget=budget)


def test_a_multiple_counts_ten_fits_per_learner():
    # one 10-fold cross-validation of two learners is 2 x 10 = 20 fits; 7.5 times that is 150
    assert budget_fits("7.5x", 2) == 150
    assert budget_fits("1x", 1) == 10
    assert budget_fits(" 3 X ".lower(), 2) == 60
    assert budget_fits(99, 2) == 99 and budget_fits(None, 2) is None


def test_a_budget_that_leaves_out_the_route_says_so_and_is_kept():
    """Nested CV's 150 fits do not fit in 60: the decision cannot tell, and the report says what the route costs."""
    pair = (GaussianNB(), DecisionTreeClassifier(random_state=0), X_CANCER, Y_CANCER)
    comparison = cvi.compare(*pair, random_state=0, budget="3x")
    assert comparison.budget == 60 and comparison.fits == 40 <= comparison.budget
    assert comparison.nested is None and comparison.decision.answer == "cannot tell"
    (note,) = [n for n in comparison.to_dict()["notes"] if n.startswith("budget=")]
    assert note == ("budget='3x' (60 fits) left out nested cross-validation (150 fits), which the decision needed: 40 "
                    "fits were spent, so a budget of 190 runs it.")
    assert "left out nested cross-validation (150 fits)" in comparison.summary()
    full = cvi.compare(*pair, random_state=0, budget=190)
    assert full.fits == 190 and full.nested is not None


def test_verbose_says_the_plan_before_the_first_fit(capsys):
    cvi.compare(GaussianNB(), DecisionTreeClassifier(random_state=0), X_IRIS, Y_IRIS, cv=3, nested="never",
                verbose=1, random_state=0)
    lines = capsys.readouterr().err.split("\n")
    assert lines[0] == ("cvinference: plan: at most 26 fits (1.3 times one 10-fold cross-validation; no budget set): "
                        "6 for the cross-validation, 20 for 5x2cv")
    assert lines[1] == "cvinference: fitting A and B on 1 x 3 identical folds (6 fits)"


def test_evaluate_holds_the_record_and_the_intervals_of_the_record_functions():
    evaluation = cvi.evaluate(GaussianNB(), X_CANCER, Y_CANCER, cv=5, random_state=3, name="nb")
    record = cvi.cross_val_correctness(GaussianNB(), X_CANCER, Y_CANCER, cv=5, random_state=3, name="nb")
    np.testing.assert_array_equal(evaluation.result.fold, record.fold)
    np.testing.assert_array_equal(evaluation.result.correct, record.correct)
    quantity, method = evaluation.recommended
    assert quantity == "accuracy" and evaluation.intervals[quantity][method] == cvi.accuracy_interval(record)
    wilson = cvi.accuracy_interval(record, method="wilson")
    found = evaluation.intervals["accuracy"]["wilson"]
    assert (found.estimate, found.low, found.high) == (wilson.estimate, wilson.low, wilson.high)
    assert evaluation.fits == 5 and evaluation.budget is None
    assert evaluation.to_dict()["estimators"]["A"]["description"] == "nb: GaussianNB()"


def test_compare_holds_every_test_and_the_decision_of_the_record_functions():
    comparison = cvi.compare(GaussianNB(), DecisionTreeClassifier(random_state=0), X_IRIS, Y_IRIS, cv=3,
                             random_state=0, nested="never")
    pair = comparison.pair
    mcnemar, corrected = cvi.mcnemar_test(pair), cvi.corrected_resampled_ttest(pair)
    assert comparison.tests[mcnemar.method] == mcnemar and comparison.tests[corrected.method] == corrected
    five_by_two = cvi.paired_ttest_5x2cv(GaussianNB(), DecisionTreeClassifier(random_state=0), X_IRIS, Y_IRIS,
                                         random_state=0)
    assert comparison.tests[five_by_two.method] == five_by_two
    assert all(key == test.method for key, test in comparison.tests.items())
    assert [test for _, test in comparison.test_rows] == list(comparison.tests.values())
    assert comparison.decision == cvi.decide(pair, tests=list(comparison.test_rows))
    assert set(comparison.intervals) == {"A", "B"}
    wilson = cvi.accuracy_interval(pair.b, method="wilson")
    found = comparison.intervals["B"]["accuracy"]["wilson"]
    assert (found.estimate, found.low, found.high) == (wilson.estimate, wilson.low, wilson.high)


def test_the_answers_write_their_report_and_show_themselves():
    comparison = cvi.compare(GaussianNB(), DecisionTreeClassifier(random_state=0), X_IRIS, Y_IRIS, cv=3,
                             random_state=0, nested="never")
    assert json.loads(comparison.to_json()) == json.loads(json.dumps(comparison.to_dict()))
    assert comparison.to_dict()["plan"] == comparison.plan.to_dict()
    evaluation = cvi.evaluate(Ridge(), *load_diabetes(return_X_y=True), cv=3, random_state=0)
    assert evaluation.result.loss_name == "squared_error"
    assert not hasattr(evaluation, "report") and not hasattr(comparison, "report")  # the objects, held once
    assert "<table" in comparison._repr_html_() and "<table" in evaluation._repr_html_()
    assert repr(comparison) == "Comparison(answer='cannot tell', metric='accuracy', fits=26)"


def test_the_plot_draws_the_report(monkeypatch):
    plt = pytest.importorskip("matplotlib.pyplot")
    comparison = cvi.compare(GaussianNB(), DecisionTreeClassifier(random_state=0), X_IRIS, Y_IRIS, cv=3,
                             random_state=0, nested="never")
    _, axis = plt.subplots()
    assert comparison.plot(ax=axis).ax_ is axis
    drawn = comparison.plot()
    assert len(drawn.axes_) == 3 and drawn.axes_ == tuple(drawn.figure_.axes)
    plt.close("all")


def test_the_same_random_state_gives_the_same_answer_for_any_n_jobs():
    runs = [cvi.compare(GaussianNB(), DecisionTreeClassifier(random_state=0), X_IRIS, Y_IRIS, cv=3, random_state=7,
                        nested="never", n_jobs=n_jobs) for n_jobs in (1, 2)]
    assert runs[0].summary() == runs[1].summary()


def test_groups_give_folds_of_whole_groups_and_a_decision_on_groups():
    groups = np.arange(len(Y_IRIS)) // 5
    comparison = cvi.compare(GaussianNB(), DecisionTreeClassifier(random_state=0), X_IRIS, Y_IRIS, cv=5,
                             groups=groups, random_state=0, nested="never")
    assert "GroupKFold" in comparison.pair.a.cv_repr
    for repeat_folds in comparison.pair.a.fold:
        for group in np.unique(groups):
            assert np.unique(repeat_folds[groups == group]).size == 1
    assert any(caveat.startswith("The instances come in 30 groups") for caveat in comparison.decision.caveats)


def test_nested_always_refuses_a_metric_it_does_not_estimate():
    with pytest.raises(ValueError, match=r"nested='always'.*metric='f1_macro'"):
        cvi.compare(GaussianNB(), GaussianNB(), X_IRIS, Y_IRIS, metric="f1_macro", nested="always")


def test_an_unknown_metric_is_refused_before_any_fit():
    CountedNB.fits = 0
    with pytest.raises(ValueError, match=r"metric='nonsense' is not a scikit-learn scorer name computable from a "
                                         r"classifier's predicted labels or scores; use one of accuracy, "):
        cvi.compare(CountedNB(), GaussianNB(), X_IRIS, Y_IRIS, metric="nonsense")
    with pytest.raises(ValueError, match=r"metric='roc_auc' is not .* from a regressor's predictions"):
        cvi.evaluate(Ridge(), *load_diabetes(return_X_y=True), metric=["r2", "roc_auc"])
    assert CountedNB.fits == 0


def test_the_command_line_answers_the_same_with_metric_accuracy_as_without():
    """Before, ``--metric accuracy`` skipped nested CV and answered "cannot tell" where no --metric answered."""
    decisions = []
    for extra in ([], ["--metric", "accuracy"]):
        out = io.StringIO()
        assert main(["compare", "nb", "tree", "--data", "breast_cancer", "--json", "-", *extra], out=out) == 0
        decisions.append(json.loads(out.getvalue())["decision"])
    assert decisions[0]["rests_on"]["name"] == "nested-cv difference"
    assert decisions[1] == decisions[0]


@pytest.mark.parametrize("argv, message", [
    (["compare", "nb", "tree", "--data", "iris", "--budget", "5"],
     "cvinference: error: --budget 5: 5 fits, and the cross-validation of both learners alone needs 20; give "
     "--budget 20 or more, or lower --cv or --repeats"),
    (["evaluate", "nb", "--data", "iris", "--budget", "0.5x"],
     "cvinference: error: --budget 0.5x: 5 fits, and the cross-validation alone needs 10; give --budget 10 or more, "
     "or lower --cv or --repeats"),
    (["evaluate", "nb", "--data", "iris", "--budget", "0"],
     "cvinference: error: argument --budget: expected a number of fits, such as 200, or a multiple of one 10-fold "
     "cross-validation, such as 8x; got '0'"),
])
def test_a_budget_mistake_on_the_command_line_exits_2_with_one_line_before_any_fit(argv, message, capsys,
                                                                                     monkeypatch):
    def no_fit(*args, **kwargs):
        raise AssertionError("a user mistake must be reported before any fit")

    monkeypatch.setattr(cvi.CVEvaluator, "compare", no_fit)
    monkeypatch.setattr(cvi.CVEvaluator, "evaluate", no_fit)
    assert main(argv, out=io.StringIO()) == 2
    assert capsys.readouterr().err.strip() == message


def test_nested_cv_asked_for_beyond_the_budget_is_refused_before_any_fit(capsys):
    """Issue 58: compare(nested="always", budget=20) dropped the nested cross-validation asked for. Its fits, by
    hand: R K (K + 1) / 2 = 5 x 5 x 6 / 2 = 75 per learner (Bates, Hastie & Tibshirani's K = R = 5), 150 for two,
    besides the 2 x 3 of the cross-validation."""
    CountedNB.fits = 0
    with pytest.raises(ValueError, match=r"^budget=20 allows 20 fits, and the cross-validation of both learners \(6 "
                                         r"fits\) and the nested cross-validation asked for \(150 fits\) alone needs "
                                         r"156; raise budget to at least 156, or pass nested='auto'"):
        cvi.compare(CountedNB(), GaussianNB(var_smoothing=1e-3), X_IRIS, Y_IRIS, cv=3, nested="always", budget=20)
    assert CountedNB.fits == 0
    status = main(["compare", "nb", "tree", "--data", "iris", "--cv", "3", "--nested", "always", "--budget", "20"],
                  out=io.StringIO())
    assert status == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("cvinference: error: --budget 20: 20 fits, and the "
                                                   "cross-validation of both learners (6 fits) and the nested "
                                                   "cross-validation asked for (150 fits) alone needs 156")
    # a budget that pays for both runs nested cross-validation, and 5x2cv (20 fits) only beside them
    comparison = cvi.compare(GaussianNB(), GaussianNB(var_smoothing=1e-3), X_IRIS, Y_IRIS, cv=3, nested="always",
                             budget=156, random_state=0)
    assert comparison.nested is not None and comparison.fits == 156 and "5x2cv t" not in dict(comparison.test_rows)
