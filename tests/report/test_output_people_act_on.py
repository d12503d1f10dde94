"""Output people act on (issue 58, item 5): a decision in at most five lines with its details one call away, one
p-value per question with its sidedness, and one number format per report.

Oracles: the decision's own fields (its text, caveats and tests for context, which ``explain()`` must hold in
full), ``mcnemar_test`` on the same records for the p-value the decision rests on, and Python's ``format`` for the
numbers (four decimals below 1e4, ``.3e`` from there: the bound where ``"{:.4g}"`` turns scientific).
"""

import re
import warnings

import numpy as np
import pytest
from sklearn.datasets import load_breast_cancer, load_diabetes
from sklearn.linear_model import LinearRegression, LogisticRegression, Ridge
from sklearn.naive_bayes import GaussianNB
from sklearn.tree import DecisionTreeClassifier

import cvinference as cvi
from cvinference import CVResult, PairedCVResult
from cvinference._utils._text import format_figure
from cvinference.report import render_text
from cvinference.report._report import DETAILS, GAP, comparison_report, report_blocks

RNG = np.random.default_rng(0)
Y = RNG.integers(0, 2, 400)
SMALL = np.where(RNG.random(400) < 0.70, Y, 1 - Y)
LARGE = np.where(RNG.random(400) < 0.80, Y, 1 - Y)
ALIKE = np.where(RNG.random(400) < 0.71, Y, 1 - Y)


def _quiet(function, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return function(*args, **kwargs)


def _one_set(b):
    return PairedCVResult(CVResult.from_predictions(Y, SMALL, name="small"), CVResult.from_predictions(Y, b, name="b"))


@pytest.fixture(scope="module")
def decisions():
    """A decision of every regime that is cheap to build: a difference shown and not shown, margins, regressors,
    grouped instances, one evaluation set, a score metric."""
    X, y = load_breast_cancer(return_X_y=True)
    X, y = X[:150, :5], y[:150]
    nb, tree = GaussianNB(), DecisionTreeClassifier(max_depth=2, random_state=0)
    pair = _quiet(cvi.CVEvaluator(5, random_state=0).compare, nb, tree, X, y)
    grouped = _quiet(cvi.CVEvaluator(5, random_state=0).compare, nb, tree, X, y, groups=np.arange(150) // 5)
    scores = _quiet(cvi.CVEvaluator(5, random_state=0, response_method="auto").compare,
                    LogisticRegression(max_iter=500), nb, X, y)
    Xr, yr = load_diabetes(return_X_y=True)
    regressors = _quiet(cvi.CVEvaluator(5, loss="squared_error", random_state=0).compare, Ridge(), LinearRegression(),
                        Xr, yr)
    return {
        "difference (cannot tell)": _quiet(cvi.decide, pair),
        "difference shown (one set)": cvi.decide(_one_set(LARGE)),
        "no difference shown (one set)": cvi.decide(_one_set(ALIKE)),
        "margin (cannot tell)": _quiet(cvi.decide, pair, margin=0.05),
        "non-inferiority (regressors)": _quiet(cvi.decide, regressors, margin=500),
        "equivalence (regressors)": _quiet(cvi.decide, regressors, margin=900, question="equivalent"),
        "regression": _quiet(cvi.decide, regressors),
        "grouped": _quiet(cvi.decide, grouped),
        "score metric": _quiet(cvi.decide, scores, metric="roc_auc"),
    }


REGIMES = ("difference (cannot tell)", "difference shown (one set)", "no difference shown (one set)",
           "margin (cannot tell)", "non-inferiority (regressors)", "equivalence (regressors)", "regression", "grouped",
           "score metric")


def _words(text):
    return " ".join(text.split())


@pytest.mark.parametrize("regime", REGIMES)
def test_a_decision_says_itself_in_at_most_five_lines_and_explains_itself_in_full(decisions, regime):
    decision = decisions[regime]
    lines = decision.summary().splitlines()
    assert len(lines) <= 5
    assert lines[0].startswith(f"decision: {decision.answer} ({decision.metric}")
    assert lines[-1].startswith("details: decision.explain()")
    rests_on = lines[1]
    if decision.rests_on is None:
        assert rests_on.startswith("rests on no test: ")
    else:
        assert rests_on.startswith(f"rests on {decision.rests_on.name}: ")
        sided = {"difference": "two-sided p", "non-inferior": "one-sided p", "equivalent": "two one-sided tests, p"}
        assert sided[decision.question] in rests_on
    explained = _words(decision.explain())
    assert _words(decision.text) in explained
    for words in (*decision.caveats, *(test.why_not for test in decision.context)):
        assert _words(words) in explained


def test_the_one_set_decisions_rest_on_mcnemars_two_sided_p_value(decisions):
    for regime, b in (("difference shown (one set)", LARGE), ("no difference shown (one set)", ALIKE)):
        decision = decisions[regime]
        oracle = _quiet(cvi.mcnemar_test, _one_set(b))
        assert decision.rests_on.pvalue == oracle.pvalue
        line = decision.summary().splitlines()[1]
        assert f"two-sided {cvi._utils._text.format_pvalue(oracle.pvalue)}" in line
    # what "no difference shown" rules out comes first among the notes
    shown = decisions["no difference shown (one set)"]
    assert shown.answer == "no difference shown"
    assert shown.summary().splitlines()[2].startswith(
        f"rules out differences of {format_figure(shown.minimum_detectable_difference)} or more")


def test_the_caveats_about_the_answer_come_before_those_about_its_evidence(decisions):
    grouped = decisions["grouped"]
    assert len(grouped.caveats) == 3 and "groups" in grouped.caveats[2]
    assert grouped.summary().splitlines()[2] == f"caveat: {grouped.caveats[2]}"
    assert "(1 more caveat, 3 tests for context)" in grouped.summary().splitlines()[-1]


def test_a_comparison_report_shows_the_decision_in_five_lines_and_keeps_its_json_whole(decisions):
    X, y = load_breast_cancer(return_X_y=True)
    pair = _quiet(cvi.CVEvaluator(5, random_state=0).compare, GaussianNB(),
                  DecisionTreeClassifier(max_depth=2, random_state=0), X[:150, :5], y[:150])
    report = _quiet(comparison_report, pair, descriptions=("nb", "tree"), data=None)
    decision = cvi.decide(pair)
    written = report["decision"]
    assert written["explanation"] == decision.explain() and written["text"] == decision.text
    assert written["caveats"] == list(decision.caveats) and len(written["context"]) == len(decision.context)
    text = render_text(report)
    blocks = report_blocks(report)
    blocks = blocks[len(blocks) - blocks[::-1].index(GAP):]  # the decision's, after the last gap
    assert len(blocks) <= 5 and not any(block.items for block in blocks)
    assert [block.text for block in blocks] == [*decision.summary().splitlines()[:-1], DETAILS]
    assert text.endswith(DETAILS)
    # the tests' table: its p-values two-sided, and which of them (none here) the decision rests on
    assert re.search(r"test\s+statistic\s+df\s+2-sided p", text)
    assert "the decision rests on none of these tests (see below): their p-values are context" in text
    # accuracy > NIR is one-sided
    assert "accuracy > NIR: p < 0.001 (one-sided binomial)" in text


def test_a_report_of_large_losses_writes_every_number_in_one_format():
    """Ridge on diabetes with the target in thousandths: no fixed-point number of 1e4 or more beside the
    scientific ones ("1.377e+04" beside "13772.1653" was the reproduction)."""
    X, y = load_diabetes(return_X_y=True)
    evaluation = _quiet(cvi.evaluate, Ridge(), X, y * 1000, cv=5, random_state=0)
    comparison = _quiet(cvi.compare, Ridge(), LinearRegression(), X, y * 1000, cv=5, n_repeats=1,
                          random_state=0)  # the folds of the evaluation above
    for text in (evaluation.summary(), comparison.summary(), comparison.decision.explain()):
        assert re.findall(r"(?<![\w.])[-+]?\d{5,}\.\d+", text) == []
        assert re.findall(r"\d\.\d{3}e[+-]\d\d", text)  # the large figures, in scientific notation
        assert not re.findall(r"(?<![\w.])\d\.\d{1,2}e[+-]\d\d", text)  # ... always with four significant digits
    mean_loss = comparison.to_dict()["estimators"]["A"]["mean_loss"]
    assert f"mean squared error {mean_loss:.3e}" in evaluation.summary()


@pytest.mark.parametrize("value, signed, expected", [
    (0.85333, False, "0.8533"), (9999.12344, False, "9999.1234"), (13772.1653, False, "1.377e+04"),
    (-346499204.6586, True, "-3.465e+08"), (0.1, True, "+0.1000"), (float("inf"), False, "inf")])
def test_format_figure_is_four_decimals_below_1e4_and_scientific_from_there(value, signed, expected):
    # the oracle: Python's own format specs, ".4f" and ".3e" (four significant digits)
    assert format_figure(value, signed=signed) == expected
