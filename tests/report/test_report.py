"""One report builder: the records' summary() and the command line show the same numbers under the same names."""

import io
import re

import numpy as np
import pytest
from sklearn.datasets import load_iris
from sklearn.linear_model import LogisticRegression
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

import cvinference as cvi
from cvinference.cli import main
from cvinference.report import evaluation_report, render_text


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
        expected = ["yes" if r >= min_count and w >= min_count else "NO" for r, w in zip(result.fold_correct[0], wrong)]
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
