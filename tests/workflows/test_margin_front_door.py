"""``compare(margin=...)`` and ``--margin`` (issue 49, item 1): the front door and the command line ask the decision's
question against a margin in one call, as ``decide(pair, margin=...)`` does on the same records (the oracle)."""

import json
import re

import numpy as np
import pytest
from command_line import one_error_line, run
from sklearn.linear_model import Ridge

import cvinference as cvi
from cvinference.splitters import ForwardSplit

from counted_fits import CountedLinear

RNG = np.random.default_rng(0)
X = RNG.standard_normal(400)
NOISE = np.zeros(400)
for _t in range(1, 400):
    NOISE[_t] = 0.7 * NOISE[_t - 1] + RNG.standard_normal()
Y = 1.5 * X + NOISE
CV = ForwardSplit(40, horizon=5, window=150)


@pytest.mark.parametrize("margin, question", [(0.1, None), (0.1, "equivalent"), (0.01, "non-inferior")])
def test_compare_answers_the_margin_as_decide_does_on_its_records(margin, question):
    comparison = cvi.compare(Ridge(), Ridge(alpha=30.0), X.reshape(-1, 1), Y, cv=CV, margin=margin,
                             question=question)
    expected = cvi.decide(comparison.pair, margin=margin, question=question)
    assert comparison.decision.answer == expected.answer
    assert (comparison.decision.question, comparison.decision.margin) == (question or "non-inferior", margin)
    assert comparison.to_dict()["decision"]["margin"] == margin
    assert f"(squared_error, margin {margin:g}; A = " in comparison.summary()


def test_a_margin_with_the_question_of_a_difference_is_refused_before_any_fit():
    CountedLinear.fits = 0
    with pytest.raises(ValueError, match="need a margin in the metric's units"):
        cvi.compare(CountedLinear(), Ridge(), X.reshape(-1, 1), Y, cv=CV, margin=0.1, question="difference")
    with pytest.raises(ValueError, match="need a margin in the metric's units"):
        cvi.compare(CountedLinear(), Ridge(), X.reshape(-1, 1), Y, cv=CV, question="equivalent")
    assert CountedLinear.fits == 0


def test_the_command_line_takes_a_margin(tmp_path, capsys):
    path = tmp_path / "series.csv"
    path.write_text("t,x,y\n" + "".join(f"{t},{X[t]:.6f},{Y[t]:.6f}\n" for t in range(400)), encoding="utf-8")
    report = tmp_path / "report.json"
    status, text = run(["compare", "linreg", "ridge", "--data", str(path), "--target", "y", "--time", "t", "--cv",
                        "40", "--horizon", "5", "--window", "150", "--margin", "0.1", "--question", "equivalent",
                        "--json", str(report)])
    assert status == 0 and "margin 0.1; A = linreg, B = ridge)" in text
    decision = json.loads(report.read_text())["decision"]
    assert (decision["question"], decision["margin"]) == ("equivalent", 0.1)
    assert run(["compare", "linreg", "ridge", "--data", str(path), "--target", "y", "--time", "t",
                "--question", "equivalent"])[0] == 2
    assert "--question equivalent asks about a margin" in one_error_line(capsys)
    assert run(["compare", "linreg", "ridge", "--data", str(path), "--target", "y", "--margin", "0"])[0] == 2
    assert "argument --margin: expected a positive number" in one_error_line(capsys)


def test_a_margin_beyond_the_metrics_range_is_refused_before_any_fit(tmp_path, capsys):
    """Issue 58: compare(..., margin=50) and --margin 50 answered about "worse by less than 50 in accuracy". An
    accuracy (as balanced accuracy) lies in [0, 1] (scikit-learn's documentation), so a difference is below 1."""
    from sklearn.datasets import load_iris
    from sklearn.naive_bayes import GaussianNB

    from counted_fits import CountedNB

    X_iris, y_iris = load_iris(return_X_y=True)
    CountedNB.fits = 0
    for margin, metric in ((50, None), (1.5, None), (1e9, None), (1.0, "balanced_accuracy")):
        with pytest.raises(ValueError, match="^" + re.escape(f"margin={margin:g} is beyond any difference in "
                                                             f"'{metric or 'accuracy'}': its values lie in [0, 1]")):
            cvi.compare(CountedNB(), GaussianNB(var_smoothing=1e-3), X_iris, y_iris, cv=3, margin=margin,
                        metric=metric)
    assert CountedNB.fits == 0
    assert run(["compare", "nb", "tree", "--data", "iris", "--cv", "3", "--margin", "50"])[0] == 2
    assert one_error_line(capsys) == (
        "cvinference: error: --margin=50 is beyond any difference in 'accuracy': its values lie in [0, 1], so two "
        "learners differ by less than 1. Pass --margin in its units, below 1, such as --margin=0.01 for one point "
        "(--margin=0.5 for 50 points)")


def test_a_regressors_margin_is_any_positive_finite_increase_of_their_loss():
    comparison = cvi.compare(Ridge(), Ridge(alpha=30.0), X.reshape(-1, 1), Y, cv=CV, margin=1e9)
    assert comparison.decision.answer == "A non-inferior"  # a loss has no upper bound: the margin is taken
