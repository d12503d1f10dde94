"""The command line on real CSV files, end to end: the JSON's numbers against an independent recomputation.

scikit-learn's breast cancer (binary) and diabetes (regression) data are
written to CSV files, ``cvinference compare`` runs on them with ``--json`` and
``--plot``, and every number checked is recomputed here without cvinference:
the learners are refitted with scikit-learn on the folds the JSON reports
(``folds.fold``), and the oracles are ``sklearn.metrics.roc_auc_score``, numpy
means of squared errors, Nadeau & Bengio's (2003) corrected t written out with
scipy's t distribution, DeLong, DeLong & Clarke-Pearson's (1988) paired
variance of two AUCs written afresh from their structural components, and
Bayle et al.'s (2020, section 3) within-fold variance of per-instance loss
differences.
"""

import contextlib
import importlib.util
import io
import json
import math
from pathlib import Path

import numpy as np
import pytest
from scipy import stats
from sklearn.datasets import load_breast_cancer, load_diabetes, load_iris
from sklearn.ensemble import RandomForestClassifier
from sklearn.linear_model import LogisticRegression, Ridge
from sklearn.metrics import roc_auc_score
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.tree import DecisionTreeRegressor

import cvinference
import cvinference.report._plot as plot_module
from cvinference.cli import main

K = 5
PLOTS = importlib.util.find_spec("matplotlib") is not None
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
LIMIT = json.loads((Path(cvinference.__file__).parent / "policy" / "data" / "calibration.json").read_text())[
    "type_i_limit"]  # the largest type-I error the calibration evidence accepts for a test a decision rests on


def _run(argv):
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stderr(err):
        status = main(argv, out=out)
    return status, out.getvalue(), err.getvalue()


def _write_csv(frame, path):
    frame.to_csv(path, index=False)
    data = np.genfromtxt(path, delimiter=",", skip_header=1)  # the numbers as the command line reads them
    return str(path), data[:, :-1], data[:, -1]


def _command(tmp, argv):
    """Run ``cvinference ARGV`` with --json (and --plot when matplotlib is there); the report, the PNG's
    path and the figure's axis texts (title, x label, y label of each panel)."""
    out_json, out_png = tmp / "report.json", tmp / "report.png"
    texts = []
    real_save = plot_module.save_png

    def spy(figure, path, dpi=100):
        texts.extend((axis.get_title(), axis.get_xlabel(), axis.get_ylabel()) for axis in figure.axes)
        real_save(figure, path, dpi)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(plot_module, "save_png", spy)
        status, _, err = _run([*argv, "--json", str(out_json), *(["--plot", str(out_png)] if PLOTS else [])])
    assert status == 0, err
    return json.loads(out_json.read_text()), out_png, texts


def _out_of_fold(estimator, X, y, fold, predict):
    """Each instance's prediction by the model fitted to the other folds (scikit-learn only)."""
    found = np.empty(len(y))
    for j in range(K):
        model = estimator.fit(X[fold != j], y[fold != j])
        found[fold == j] = predict(model, X[fold == j])
    return found


def _corrected_t(differences, test_train_ratio, confidence=0.95):
    """Nadeau & Bengio (2003): t = mean d / sqrt((1/k + n_test/n_train) s^2), k - 1 df; its p and interval."""
    k = differences.size
    se = math.sqrt((1 / k + test_train_ratio) * differences.var(ddof=1))
    t = differences.mean() / se
    half = stats.t.ppf((1 + confidence) / 2, k - 1) * se
    return 2 * stats.t.sf(abs(t), k - 1), differences.mean() - half, differences.mean() + half


def _png_is_valid(path):
    pytest.importorskip("matplotlib")
    from matplotlib import image

    assert path.read_bytes()[:8] == PNG_SIGNATURE
    pixels = image.imread(str(path))
    assert pixels.ndim == 3 and pixels.shape[1] > pixels.shape[0] > 100


# ROC AUC of two classifiers on the breast cancer data ---------------------------------------------------------


@pytest.fixture(scope="module")
def auc_run(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("auc")
    frame = load_breast_cancer(as_frame=True).frame.rename(columns={"target": "malignant_or_benign"})
    path, X, y = _write_csv(frame, tmp / "breast_cancer.csv")
    report, png, texts = _command(tmp, ["compare", "logreg", "rf", "--params-b", '{"n_estimators": 50}', "--metric",
                                        "roc_auc", "--data", path, "--target", "malignant_or_benign", "--cv", str(K),
                                        "--repeats", "1", "--nested", "never"])
    fold = np.asarray(report["estimators"]["A"]["folds"]["fold"])
    learners = {"A": make_pipeline(StandardScaler(), LogisticRegression(max_iter=1000, random_state=0)),
                "B": RandomForestClassifier(n_estimators=50, random_state=0)}
    scores = {label: _out_of_fold(estimator, X, y, fold, lambda m, x: m.predict_proba(x)[:, 1])
              for label, estimator in learners.items()}
    return report, png, texts, y, fold, scores


@pytest.mark.slow
def test_the_learners_refitted_here_are_those_the_command_line_fitted(auc_run):
    report = auc_run[0]
    assert report["estimators"]["A"]["description"] == ("logreg: StandardScaler + LogisticRegression(max_iter=1000, "
                                                        "random_state=0)")
    assert report["estimators"]["B"]["description"] == "rf: RandomForestClassifier(n_estimators=50, random_state=0)"
    assert report["scheme"] == f"{K}-fold cross-validation" and report["data"]["n_samples"] == 569


@pytest.mark.slow
def test_the_fold_aucs_are_sklearns_on_the_out_of_fold_scores(auc_run):
    report, _, _, y, fold, scores = auc_run
    for label in "AB":
        record = report["estimators"][label]
        expected = [roc_auc_score(y[fold == j], scores[label][fold == j]) for j in range(K)]
        np.testing.assert_allclose(record["folds"]["metric_j"]["roc_auc"][0], expected, rtol=0, atol=1e-12)
        fold_level, pooled = (i for i in record["intervals"] if i["quantity"] == "roc_auc")
        assert fold_level["estimate"] == pytest.approx(np.mean(expected), abs=1e-12)
        assert pooled["method"] == "delong"
        assert pooled["estimate"] == pytest.approx(roc_auc_score(y, scores[label]), abs=1e-12)


def _delong_paired(y, score_a, score_b):
    """DeLong et al. (1988): AUC(A) - AUC(B) and its variance, from the structural components V10, V01."""
    positives, negatives = y == 1, y == 0

    def components(score):
        psi = (score[positives][:, None] > score[negatives][None, :]) + 0.5 * (
            score[positives][:, None] == score[negatives][None, :])
        return psi.mean(axis=1), psi.mean(axis=0)

    (v10_a, v01_a), (v10_b, v01_b) = components(score_a), components(score_b)
    s10, s01 = np.cov(v10_a, v10_b), np.cov(v01_a, v01_b)
    variance = ((s10[0, 0] + s10[1, 1] - 2 * s10[0, 1]) / positives.sum()
                + (s01[0, 0] + s01[1, 1] - 2 * s01[0, 1]) / negatives.sum())
    return v10_a.mean() - v10_b.mean(), variance


@pytest.mark.slow
def test_the_decision_is_about_roc_auc_and_its_tests_match_the_recomputation(auc_run):
    report, _, _, y, fold, scores = auc_run
    decision = report["decision"]
    assert decision["metric"] == "roc_auc" and decision["lower_is_better"] is False
    assert decision["names"] == ["logreg", "rf"]
    tests = {test["name"].split(" (")[0]: test for test in (decision["rests_on"], *decision["context"]) if test}
    assert set(tests) == {"corrected t on fold roc_auc", "DeLong paired z"}

    differences = np.array([roc_auc_score(y[fold == j], scores["A"][fold == j])
                            - roc_auc_score(y[fold == j], scores["B"][fold == j]) for j in range(K)])
    corrected = tests["corrected t on fold roc_auc"]
    pvalue, low, high = _corrected_t(differences, 1 / (K - 1))  # n_test / n_train for k-fold, as documented
    assert corrected["estimate"] == pytest.approx(differences.mean(), abs=1e-12)
    assert (corrected["pvalue"], corrected["low"], corrected["high"]) == pytest.approx((pvalue, low, high), rel=1e-9)

    delong = tests["DeLong paired z"]
    estimate, variance = _delong_paired(y, scores["A"], scores["B"])
    assert delong["estimate"] == pytest.approx(estimate, abs=1e-12)
    assert delong["pvalue"] == pytest.approx(2 * stats.norm.sf(abs(estimate) / math.sqrt(variance)), rel=1e-9)

    # The decision rests on a test only where the calibration evidence measured its type-I error within the limit.
    if decision["rests_on"] is None:
        assert decision["answer"] == "cannot tell"
        assert all(t["measured_type_i"] is None or t["measured_type_i"] > LIMIT for t in decision["context"])
        assert all(t["name"] in decision["reason"] for t in decision["context"])
    else:
        assert decision["rests_on"]["measured_type_i"] <= LIMIT
        assert decision["difference"] == pytest.approx(decision["rests_on"]["estimate"], abs=1e-12)


def _check_figure(run, words, difference):
    """The PNG is valid and its three panels are about ``words``, the differences drawn as ``difference``."""
    _, png, texts, *_ = run
    _png_is_valid(png)
    (fold_title, _, fold_axis), (_, difference_axis, _), (tests_title, tests_axis, _) = texts
    assert fold_title == f"{words} per fold (repeat 0)" and fold_axis == words
    assert difference_axis == f"{difference} per fold" and tests_axis == difference
    assert tests_title == f"the decision's tests of {words}"


@pytest.mark.slow
def test_the_auc_figure_is_a_png_about_roc_auc(auc_run):
    _check_figure(auc_run, "roc_auc", "roc_auc(A) - roc_auc(B)")  # higher is better: A - B


# Mean squared error of two regressors on the diabetes data -----------------------------------------------------


@pytest.fixture(scope="module")
def regression_run(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("regression")
    path, X, y = _write_csv(load_diabetes(as_frame=True).frame, tmp / "diabetes.csv")
    report, png, texts = _command(tmp, ["compare", "ridge", "tree_reg", "--params-b", '{"max_depth": 3}', "--data",
                                        path, "--target", "target", "--task", "regression", "--loss",
                                        "squared_error", "--cv", str(K), "--repeats", "1", "--nested", "never"])
    fold = np.asarray(report["estimators"]["A"]["folds"]["fold"])
    learners = {"A": make_pipeline(StandardScaler(), Ridge(random_state=0)),
                "B": DecisionTreeRegressor(max_depth=3, random_state=0)}
    predictions = {label: _out_of_fold(estimator, X, y, fold, lambda m, x: m.predict(x))
                   for label, estimator in learners.items()}
    return report, png, texts, y, fold, predictions


def test_the_regressors_refitted_here_are_those_the_command_line_fitted(regression_run):
    report = regression_run[0]
    assert report["estimators"]["A"]["description"] == "ridge: StandardScaler + Ridge(random_state=0)"
    assert report["estimators"]["B"]["description"] == "tree_reg: DecisionTreeRegressor(max_depth=3, random_state=0)"


def test_the_fold_mean_squared_errors_are_numpys(regression_run):
    report, _, _, y, fold, predictions = regression_run
    for label in "AB":
        record = report["estimators"][label]
        squared = (y - predictions[label]) ** 2
        assert record["loss"] == "squared_error" and record["mean_loss"] == pytest.approx(squared.mean(), rel=1e-12)
        np.testing.assert_allclose(record["folds"]["mean_loss_j"][0], [squared[fold == j].mean() for j in range(K)],
                                   rtol=1e-12)


def test_the_decision_is_about_the_loss_asked_for_and_its_difference_is_numpys(regression_run):
    report, _, _, y, fold, predictions = regression_run
    decision = report["decision"]
    assert decision["metric"] == "mean squared error" and decision["lower_is_better"] is True
    differences = (y - predictions["B"]) ** 2 - (y - predictions["A"]) ** 2  # B - A: positive when A is better
    tests = {test["name"]: test for test in (decision["rests_on"], *decision["context"]) if test}
    clt = tests["CV-CLT on per-instance squared error differences"]
    assert clt["estimate"] == pytest.approx(differences.mean(), rel=1e-12)
    within = np.mean([differences[fold == j].var(ddof=1) for j in range(K)])  # Bayle et al. (2020), section 3
    z = differences.mean() / math.sqrt(within / len(y))
    assert clt["pvalue"] == pytest.approx(2 * stats.norm.sf(abs(z)), rel=1e-9)
    fold_means = np.array([differences[fold == j].mean() for j in range(K)])
    corrected = tests[f"corrected t on fold mean squared error (1x{K}-fold)"]
    sizes = np.bincount(fold)  # Bouckaert & Frank (2004): n_test / n_train is the mean of m_j / (n - m_j)
    pvalue, low, high = _corrected_t(fold_means, np.mean(sizes / (len(y) - sizes)))
    assert corrected["estimate"] == pytest.approx(fold_means.mean(), rel=1e-12)
    assert (corrected["pvalue"], corrected["low"], corrected["high"]) == pytest.approx((pvalue, low, high), rel=1e-9)
    assert decision["rests_on"] is not None and decision["rests_on"]["measured_type_i"] <= LIMIT
    assert decision["difference"] == pytest.approx(differences.mean(), rel=1e-12)


def test_the_regression_figure_is_a_png_about_the_loss(regression_run):
    # lower is better: B - A, positive when A is better
    _check_figure(regression_run, "mean squared error", "mean squared error(B) - mean squared error(A)")


def test_evaluate_draws_a_regressors_loss(tmp_path):
    # The figure of one regressor used to fail (it drew fold accuracies, which a regressor has none of).
    pytest.importorskip("matplotlib")
    path = _write_csv(load_diabetes(as_frame=True).frame, tmp_path / "diabetes.csv")[0]
    report, png, texts = _command(tmp_path, ["evaluate", "ridge", "--data", path, "--target", "target", "--task",
                                             "regression", "--cv", str(K)])
    _png_is_valid(png)
    (fold_title, _, fold_axis), (intervals_title, _, _) = texts
    assert fold_title == "mean squared error per fold (repeat 0)" and fold_axis == "mean squared error"
    assert intervals_title == "mean squared error intervals" and report["command"] == "evaluate"


# Mistakes ---------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("frame", "argv", "message"), [
    (load_diabetes(as_frame=True).frame, ["ridge", "tree_reg", "--task", "regression", "--metric", "roc_auc"],
     "--metric roc_auc: unknown or not computable from predictions of a quantity (regression)"),
    (load_iris(as_frame=True).frame, ["logreg", "rf", "--metric", "roc_auc"],
     "--metric roc_auc is for two classes"),
    (load_breast_cancer(as_frame=True).frame, ["logreg", "rf", "--target", "diagnosis"],
     "--target diagnosis: no such column"),
])
def test_a_mistake_exits_2_with_one_line_and_writes_nothing(tmp_path, frame, argv, message):
    path = tmp_path / "data.csv"
    frame.to_csv(path, index=False)
    out_json, out_png = tmp_path / "out.json", tmp_path / "out.png"
    target = [] if "--target" in argv else ["--target", "target"]
    status, out, err = _run(["compare", *argv, "--data", str(path), *target, "--cv", str(K), "--repeats", "1",
                             "--json", str(out_json), "--plot", str(out_png)])
    assert status == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("cvinference: error: ") and message in err
    assert not out_json.exists() and not out_png.exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["data.csv"]
