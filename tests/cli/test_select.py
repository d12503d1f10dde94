"""``cvinference select``: a grid search compared candidate by candidate, its files, and the user's mistakes.

The printed table and the JSON are checked against compare_candidates on a GridSearchCV with the
same estimator, grid and splits, the oracle the command wraps.
"""

import io
import json

import numpy as np
import pytest
from sklearn.datasets import load_iris
from sklearn.model_selection import GridSearchCV, RepeatedStratifiedKFold
from sklearn.tree import DecisionTreeClassifier

from cvinference import compare_candidates
from cvinference.cli import main
from cvinference.cli._search_progress import ProgressGridSearchCV
from cvinference.model_selection import OneStandardError, SimplestIndistinguishable
from cvinference.results import CandidateComparison

GRID = '{"max_depth": [1, 2, null]}'
ARGS = ["select", "tree", "--grid", GRID, "--data", "iris", "--cv", "5", "--repeats", "2"]


def run(argv):
    out = io.StringIO()
    return main(argv, out=out), out.getvalue()


@pytest.fixture(scope="module")
def search():
    X, y = load_iris(return_X_y=True)
    cv = RepeatedStratifiedKFold(n_splits=5, n_repeats=2, random_state=0)
    return GridSearchCV(DecisionTreeClassifier(random_state=0), {"max_depth": [1, 2, None]}, cv=cv).fit(X, y)


@pytest.fixture(scope="module")
def expected(search):
    return compare_candidates(search, y=load_iris(return_X_y=True)[1])


def test_the_report_is_compare_candidates_of_the_same_search(search, expected, tmp_path):
    path = tmp_path / "select.json"
    status, text = run([*ARGS, "--json", str(path), "--simplest", "max_depth"])
    assert status == 0
    assert expected.summary() in text
    assert "simplest indistinguishable from the best: max_depth=" in text
    report = json.loads(path.read_text())
    assert report["command"] == "select" and report["options"]["grid"] == [{"max_depth": [1, 2, None]}]
    result = CandidateComparison.from_dict(report["result"])
    np.testing.assert_array_equal(result.table["pvalue_adjusted"], expected.table["pvalue_adjusted"])
    simplest = SimplestIndistinguishable("max_depth", cv=search.cv)(search.cv_results_)
    one_se = OneStandardError("max_depth")(search.cv_results_)
    assert report["refit_rules"]["simplest_indistinguishable"] == expected.candidates[simplest]
    assert report["refit_rules"]["one_standard_error"] == expected.candidates[one_se]


def test_a_pipeline_keeps_the_users_parameter_names(tmp_path):
    status, text = run(["select", "logreg", "--grid", '{"C": [0.01, 1.0]}', "--data", "iris", "--cv", "3",
                        "--repeats", "1", "--quiet", "--json", str(tmp_path / "r.json")])
    assert status == 0 and text == ""
    result = CandidateComparison.from_dict(json.loads((tmp_path / "r.json").read_text())["result"])
    assert result.candidates == ("C=0.01", "C=1.0") and list(result.params) == ["C"]


def test_the_refit_rules_of_a_pipeline_take_the_users_parameter_name(tmp_path, capsys):
    argv = ["select", "logreg", "--grid", '{"C": [0.01, 1.0]}', "--data", "iris", "--cv", "3", "--repeats", "1",
            "--json", str(tmp_path / "r.json"), "--descending"]
    status, _ = run([*argv, "--simplest", "C"])
    rules = json.loads((tmp_path / "r.json").read_text())["refit_rules"]
    assert status == 0 and rules["param"] == "C" and rules["order"] == "descending"
    assert {rules["simplest_indistinguishable"], rules["one_standard_error"]} <= {"C=0.01", "C=1.0"}
    status, _ = run([*argv, "--simplest", "penalty"])
    err = capsys.readouterr().err
    assert status == 2 and "--simplest penalty: param='penalty' is not a parameter" in err
    assert "classifier__" not in err


def test_a_plot_is_written(tmp_path):
    pytest.importorskip("matplotlib")
    path = tmp_path / "select.png"
    status, _ = run([*ARGS, "--plot", str(path), "--quiet"])
    assert status == 0 and path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


@pytest.mark.parametrize("argv, message", [
    (["--grid", "{max_depth: [1]}"], "is not valid JSON"),
    (["--grid", "[1, 2]"], "must be a JSON object"),
    (["--grid", '{"max_depth": []}'], "must be a non-empty JSON list"),
    (["--grid", '{"max_dept": [1, 2]}'], "has no hyper-parameter 'max_dept'"),
    (["--grid", '{"max_depth": [-1, 2]}'], "rejects the hyper-parameters"),
    (["--grid", GRID, "--scoring", "acuracy"], "not a scikit-learn scorer name"),
    (["--grid", GRID, "--simplest", "criterion"], "--simplest criterion"),
    (["--grid", GRID, "--params", "[1]"], "must be a JSON object"),
])
def test_mistakes_exit_2_with_one_line_and_write_nothing(argv, message, capsys, tmp_path):
    path = tmp_path / "select.json"
    status, text = run(["select", "tree", "--data", "iris", "--cv", "3", "--repeats", "1", "--json", str(path),
                        *argv])
    err = capsys.readouterr().err
    assert status == 2 and err.count("\n") == 1 and err.startswith("cvinference: error: "), err
    assert message in err
    assert not path.exists() and text == ""


@pytest.mark.parametrize("argv, message", [
    (["--grid", '{"max_depth": [1]}'], "makes 1 candidate"),
    (["--grid", GRID, "--scoring", "roc_auc"], "fitting or scoring a candidate failed"),  # iris has 3 classes
])
def test_a_grid_of_one_and_a_scorer_that_fails_are_user_errors(argv, message, capsys):
    status, _ = run(["select", "tree", "--data", "iris", "--cv", "3", "--repeats", "1", *argv])
    err = capsys.readouterr().err
    assert status == 2 and err.count("\n") == 1 and message in err, err


def test_select_passes_the_labels_and_flags_a_stump_that_does_not_beat_the_no_information_rate(tmp_path):
    from scipy import stats
    from sklearn.datasets import make_classification

    # 379 of 400 instances in class 0; on these splits a depth-1 tree predicts only class 0.
    X, y = make_classification(n_samples=400, n_features=8, n_informative=4, weights=[0.95], random_state=17)
    data = tmp_path / "skewed.csv"
    rows = (",".join([*(f"{v:.17g}" for v in row), str(label)]) for row, label in zip(X, y, strict=True))
    data.write_text("\n".join([",".join([f"x{i}" for i in range(8)] + ["label"]), *rows]))
    status, text = run(["select", "tree", "--grid", '{"max_depth": [1, 3]}', "--data", str(data), "--target", "label",
                        "--cv", "5", "--repeats", "2", "--json", str(tmp_path / "r.json")])
    assert status == 0
    assert "do not beat the no-information rate 0.9475 (always predicting 0" in " ".join(text.split())
    result = CandidateComparison.from_dict(json.loads((tmp_path / "r.json").read_text())["result"])
    stump = result.candidates.index("max_depth=1")
    assert result.settings["no_information_rate"] == 379 / 400 and not result.table["beats_baseline"][stump]
    # Its accuracy is the NIR: 379 of 400 right, P(X >= 379) for X ~ Binomial(400, 379 / 400).
    assert result.table["baseline_pvalue"][stump] == pytest.approx(
        stats.binomtest(379, 400, 379 / 400, alternative="greater").pvalue, rel=1e-12)


def test_regressors_are_selected_on_plain_repeated_k_fold_with_a_chosen_scorer(tmp_path):
    # Oracle: the same grid search written with scikit-learn (a scaled ridge, RepeatedKFold with the seed,
    # the scorer) and compare_candidates without labels (no no-information rate for a regression target).
    from sklearn.datasets import load_diabetes
    from sklearn.linear_model import Ridge
    from sklearn.model_selection import RepeatedKFold
    from sklearn.pipeline import Pipeline
    from sklearn.preprocessing import StandardScaler

    X, y = load_diabetes(return_X_y=True)
    pipeline = Pipeline([("scale", StandardScaler()), ("regressor", Ridge(random_state=0))])
    search = GridSearchCV(pipeline, {"regressor__alpha": [0.1, 10, 1000]}, scoring="neg_mean_squared_error",
                          cv=RepeatedKFold(n_splits=5, n_repeats=2, random_state=0)).fit(X, y)
    expected = compare_candidates(search)
    path = tmp_path / "select.json"
    status, text = run(["select", "ridge", "--grid", '{"alpha": [0.1, 10, 1000]}', "--data", "diabetes", "--cv", "5",
                        "--repeats", "2", "--scoring", "neg_mean_squared_error", "--simplest", "alpha",
                        "--descending", "--json", str(path)])
    assert status == 0
    report = json.loads(path.read_text())
    assert report["options"]["task"] == "regression"
    result = CandidateComparison.from_dict(report["result"])
    assert list(result.candidates) == ["alpha=0.1", "alpha=10", "alpha=1000"]
    np.testing.assert_allclose(result.table["pvalue_adjusted"], expected.table["pvalue_adjusted"])
    np.testing.assert_allclose(result.split_scores, expected.split_scores)
    simplest = SimplestIndistinguishable("regressor__alpha", cv=search.cv, order="descending")(search.cv_results_)
    assert report["refit_rules"]["simplest_indistinguishable"] == expected.candidates[simplest].replace(
        "regressor__", "")
    assert "no-information" not in text and "mean neg_mean_squared_error" in text


@pytest.mark.slow
@pytest.mark.parametrize("n_jobs", [1, 2])
def test_the_search_with_a_progress_line_finds_what_the_plain_search_finds(n_jobs, capsys):
    X, y = load_iris(return_X_y=True)
    grid = {"max_depth": [1, 2, 3], "min_samples_leaf": [1, 5]}
    cv = RepeatedStratifiedKFold(n_splits=3, n_repeats=2, random_state=0)
    plain = GridSearchCV(DecisionTreeClassifier(random_state=0), grid, cv=cv, refit=False, n_jobs=n_jobs).fit(X, y)
    shown = ProgressGridSearchCV(DecisionTreeClassifier(random_state=0), grid, cv=cv, refit=False, n_jobs=n_jobs,
                                 n_fits_per_candidate=6).fit(X, y)
    assert shown.cv_results_.keys() == plain.cv_results_.keys()
    for key, values in plain.cv_results_.items():
        if "time" not in key:
            np.testing.assert_array_equal(shown.cv_results_[key], values)
    assert capsys.readouterr().err.splitlines()[-1].startswith("fits 36/36, ")  # the last update, "\r" or not
