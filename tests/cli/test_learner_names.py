"""The command line's learner names (issue 58): an alias of one task settles ``--task auto``, and the scaling of a
dotted class is what docs/cli.md says."""

import contextlib
import io
import re
from pathlib import Path

import numpy as np
import pytest
from sklearn.pipeline import Pipeline
from sklearn.preprocessing import StandardScaler

from cvinference.cli import main
from cvinference.cli._data import load_data
from cvinference.cli._errors import UserError
from cvinference.cli._estimators import REGRESSOR_ALIASES, _scaled_classes, build_estimator, learner_task

DOCS = Path(__file__).resolve().parents[2] / "docs" / "cli.md"


def _run(argv):
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stderr(err):
        status = main(argv, out=out)
    return status, out.getvalue(), err.getvalue()


def _csv(tmp_path, target):
    """60 rows: a feature and a target written as given (``"151.0"``: whole numbers written as decimals)."""
    rng = np.random.default_rng(0)
    x = rng.normal(size=len(target))
    path = tmp_path / "data.csv"
    path.write_text("x,y\n" + "".join(f"{a:.4f},{b}\n" for a, b in zip(x, target, strict=True)))
    return str(path)


def _decimals(tmp_path):
    """The issue's target: whole numbers written as decimals, which --task auto cannot tell apart."""
    return _csv(tmp_path, [f"{value}.0" for value in np.random.default_rng(1).integers(25, 300, size=60)])


@pytest.mark.parametrize("argv", [["evaluate", "ridge"], ["compare", "ridge", "rf_reg"], ["compare", "linreg", "svr"]])
def test_a_regressors_alias_settles_a_whole_number_target_as_regression(tmp_path, argv):
    status, out, err = _run([*argv, "--data", _decimals(tmp_path), "--target", "y", "--cv", "3", "--nested", "never"]
                            if argv[0] == "compare" else [*argv, "--data", _decimals(tmp_path), "--target", "y",
                                                          "--cv", "3"])
    assert status == 0, err
    assert "mean squared error" in out and "accuracy" not in out


def test_a_classifiers_alias_settles_it_as_classification(tmp_path):
    path = _csv(tmp_path, [f"{value}.0" for value in np.tile([1, 2, 3], 20)])
    status, out, err = _run(["evaluate", "nb", "--data", path, "--target", "y", "--cv", "3"])
    assert status == 0, err and "accuracy" in out
    assert load_data(path, target="y", task=learner_task("auto", ["nb"])).task == "classification"


def test_aliases_of_two_tasks_are_one_line_exit_2(tmp_path, capsys):
    status, _, err = _run(["compare", "ridge", "logreg", "--data", _decimals(tmp_path), "--target", "y"])
    assert status == 2 and err.count("\n") == 1 and "Traceback" not in err
    assert "estimator 'ridge' is a regressor and 'logreg' a classifier: name learners of one task" in err


@pytest.mark.parametrize(("specs", "task", "settled"), [
    (["ridge"], "auto", "regression"), (["tree", "rf"], "auto", "classification"), (["ridge", " linreg "], "auto",
                                                                                    "regression"),
    (["sklearn.linear_model.Ridge"], "auto", "auto"), (["ridge", "sklearn.tree.DecisionTreeClassifier"], "auto",
                                                       "regression"),
    (["ridge", "logreg"], "classification", "classification"), ([None, "nb", None], "auto", "classification"),
])
def test_learner_task(specs, task, settled):
    assert learner_task(task, specs) == settled


def test_learner_task_refuses_aliases_of_two_tasks():
    with pytest.raises(UserError, match="'svr' is a regressor and 'svm' a classifier"):
        learner_task("auto", ["svr", "svm"])


@pytest.mark.parametrize(("argv", "message"), [
    # the data's own task stands: the learner's check names the mismatch, as before
    (["evaluate", "ridge"], "estimator 'ridge' is a regressor, and the task is classification"),
    (["evaluate", "logreg", "--data", "diabetes"], "estimator 'logreg' is a classifier, and the task is regression"),
    # a dotted class settles nothing: the ambiguous target still asks for --task
    (["evaluate", "sklearn.linear_model.Ridge", "--target", "y"], "pass --task classification or --task regression"),
])
def test_where_the_data_or_a_dotted_class_decide_the_messages_stand(tmp_path, argv, message):
    if "--target" in argv:
        argv = [*argv, "--data", _decimals(tmp_path)]
    status, _, err = _run(argv)
    assert status == 2 and message in err, err


def test_a_text_target_with_a_regressors_alias_names_the_learner(tmp_path):
    status, _, err = _run(["evaluate", "ridge", "--data", _csv(tmp_path, ["a", "b"] * 30), "--target", "y"])
    assert status == 2 and "estimator 'ridge' is a regressor, and the task is classification" in err


@pytest.mark.parametrize("path", ["sklearn.linear_model.Ridge", "sklearn.svm.SVR",
                                  "sklearn.neighbors.KNeighborsRegressor"])
def test_dotted_regressors_are_scaled_as_the_docs_say(tmp_path, path):
    dataset = load_data(_decimals(tmp_path), target="y", task="regression")
    estimator, description = build_estimator(path, dataset=dataset)
    assert isinstance(estimator, Pipeline) and isinstance(estimator[0], StandardScaler)
    assert description.startswith(f"{path}: StandardScaler + ")


@pytest.mark.parametrize("path", ["sklearn.linear_model.Lasso", "sklearn.linear_model.RidgeCV"])
def test_other_dotted_classes_are_used_as_given(tmp_path, path):
    dataset = load_data(_decimals(tmp_path), target="y", task="regression")
    estimator, _ = build_estimator(path, dataset=dataset)
    assert not isinstance(estimator, Pipeline)


def test_the_docs_name_exactly_the_dotted_classes_the_code_scales():
    """docs/cli.md's 'Dotted paths' section lists the scaled classes; the code's list is the same."""
    section = DOCS.read_text().split("### Dotted paths", 1)[1].split("\n### ", 1)[0]
    listed = " ".join(section.split()).split("Dotted paths to ", 1)[1].split(" are scaled", 1)[0]
    named = set(re.findall(r"`(\w+)`", listed))
    assert named == {cls.__name__ for cls in _scaled_classes()}


def test_every_regressor_alias_settles_regression():
    assert all(learner_task("auto", [alias]) == "regression" for alias in REGRESSOR_ALIASES)
