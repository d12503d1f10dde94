"""The command line for regressors: --task, regressor aliases, regression losses, the bundled diabetes data."""

import contextlib
import io
import json

import pytest

from cvinference.cli import main
from cvinference.cli._data import load_data
from cvinference.cli._errors import UserError


def _run(argv):
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stderr(err):
        status = main(argv, out=out)
    return status, out.getvalue(), err.getvalue()


def test_compare_two_regressors_on_the_bundled_diabetes_data_prints_a_decision(tmp_path):
    path = tmp_path / "report.json"
    status, out, _ = _run(["compare", "ridge", "tree_reg", "--data", "diabetes", "--cv", "5", "--repeats", "1",
                           "--params-b", '{"max_depth": 3}', "--json", str(path)])
    assert status == 0
    assert "decision: A better (mean squared error; A = ridge, B = tree_reg)" in out
    assert "trivial regressor (the training mean of y): mean squared error" in out
    decision = json.loads(path.read_text())["decision"]
    assert decision["metric"] == "mean squared error" and decision["lower_is_better"] is True
    # The complete --metrics run (benchmarks/results/calibration_metrics.json) measured the CV-CLT's type-I
    # error at most 0.06 with more power than the corrected t; but the CV-CLT interval of ridge regression's
    # mean squared error covered only 0.775 on randhie at N = 300 (the cells that stand for N = 442), so the
    # decision rests on the corrected t and says why not the CV-CLT.
    assert decision["rests_on"]["name"] == "corrected t on fold mean squared error (1x5-fold)"
    clt = next(test for test in decision["context"] if test["name"].startswith("CV-CLT"))
    assert "covered its kfold target only 0.775" in clt["why_not"]


def test_absolute_error_and_r2_metric(tmp_path):
    status, out, _ = _run(["evaluate", "linreg", "--data", "diabetes", "--cv", "5", "--loss", "absolute_error",
                           "--metric", "r2"])
    assert status == 0 and "mean absolute error" in out and "trivial regressor (the training median of y)" in out
    assert "r2, fold level t" in out


@pytest.mark.parametrize(("argv", "message"), [
    (["evaluate", "ridge"], "estimator 'ridge' is a regressor, and the task is classification"),
    (["evaluate", "logreg", "--data", "diabetes"], "estimator 'logreg' is a classifier, and the task is regression"),
    (["evaluate", "ridge", "--data", "diabetes", "--loss", "log_loss"], "--loss log_loss is for classification"),
    (["evaluate", "nb", "--loss", "squared_error"], "--loss squared_error is for regression"),
    (["evaluate", "ridge", "--data", "diabetes", "--task", "classification"],
     "the bundled data set 'diabetes' is a regression task, not classification"),
    (["evaluate", "ridge", "--data", "diabetes", "--metric", "f1"], "--metric f1: unknown or not computable"),
])
def test_mistakes_are_one_line_user_errors(argv, message):
    status, _, err = _run(argv)
    assert status == 2 and message in err


def _csv(tmp_path, column):
    path = tmp_path / "data.csv"
    path.write_text("x,y\n" + "".join(f"{i},{value}\n" for i, value in enumerate(column)))
    return str(path)


def test_auto_task_from_the_target(tmp_path):
    assert load_data(_csv(tmp_path, [0.5, 1.25, 2.0, 3.5]), target="y", task="auto").task == "regression"
    assert load_data(_csv(tmp_path, [0, 1, 0, 2]), target="y", task="auto").task == "classification"
    assert load_data(_csv(tmp_path, ["a", "b", "a", "b"]), target="y", task="auto").task == "classification"
    for column, why in (([1.0, 2.0, 1.0, 2.0], "whole numbers written as decimals (for example '1.0')"),
                        (list(range(30)), "30 distinct whole numbers")):
        with pytest.raises(UserError, match=rf"holds {__import__('re').escape(why)}: .*--task classification or "
                                            "--task regression"):
            load_data(_csv(tmp_path, column), target="y", task="auto")
    forced = load_data(_csv(tmp_path, list(range(30))), target="y", task="regression")
    assert forced.task == "regression" and forced.y.dtype.kind == "f"
    with pytest.raises(UserError, match="holds text"):
        load_data(_csv(tmp_path, ["a", "b", "a", "b"]), target="y", task="regression")
