"""The report of a grouped record (issue 30): its baseline p-value is the cluster-aware test's, named with its number
of groups; a grouped regressor shows cluster-robust MSE, MAE and R² intervals beside the CV-CLT's.

Oracles: the library's own no_information_test, mean_baseline_test and regression_interval, each checked against
statsmodels' cluster-robust OLS in tests/inference/test_grouped_baselines.py and
test_grouped_regression_interval.py; the report must show their numbers, not compute others.
"""

import json
import re
import warnings

import numpy as np
import pytest

import cvinference as cvi
from cvinference._utils._text import format_pvalue
from cvinference.inference._methods import method_row
from cvinference.inference._regression import LOSS_METRICS
from cvinference.report import render_text
from cvinference.report._report import evaluation_report

N_GROUPS = 24


def design():
    rng = np.random.default_rng(0)
    groups = np.repeat(np.arange(N_GROUPS), rng.integers(3, 10, N_GROUPS))
    groups = groups[rng.permutation(groups.size)]
    return groups, rng.permutation(N_GROUPS)[groups] % 5, rng.normal(0, 1, N_GROUPS)[groups]


def classifier(skill, grouped=True, seed=1):
    groups, fold, effect = design()
    y = (np.arange(groups.size) % 4 != 0).astype(int)
    right = effect + np.random.default_rng(seed).normal(0, 0.5, groups.size) + skill > 0
    return cvi.CVResult(y_true=y, y_pred=np.where(right, y, 1 - y), fold=fold, groups=groups if grouped else None)


def regressor(signal, grouped=True):
    groups, fold, effect = design()
    rng = np.random.default_rng(2)
    x = rng.normal(0, 1, groups.size)
    y = 3 * x + effect + rng.normal(0, 1, groups.size)
    y_pred = signal * 3 * x + rng.normal(0, 1, groups.size)
    return cvi.CVResult(y_true=y, y_pred=y_pred, fold=fold, loss=(y_pred - y) ** 2, loss_name="squared_error",
                        groups=groups if grouped else None)


def quiet(function, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", cvi.InferenceWarning)  # the CV-CLT on a grouped record
        return function(*args, **kwargs)


def unwrapped(text):
    return re.sub(r"\n +", " ", text)


@pytest.mark.parametrize("skill", [0.2, 1.2])
def test_a_grouped_classifier_shows_the_cluster_nir_p_and_names_its_test(skill):
    result = classifier(skill)
    test = cvi.no_information_test(result)
    report = evaluation_report(result, description=None, data=None)
    baseline = report["estimators"]["A"]["baseline"]
    assert baseline["pvalue"] == pytest.approx(test.pvalue, rel=1e-12)
    assert baseline["test"] == f"one-sided cluster-robust t, {N_GROUPS} groups" and baseline["n_groups"] == N_GROUPS
    assert baseline["beats"] == (test.pvalue < 0.05)
    text = unwrapped(result.summary())
    assert (f"accuracy > NIR: {format_pvalue(test.pvalue)} (one-sided cluster-robust t, {N_GROUPS} groups)"
            in text)
    assert "exact binomial" not in text
    verdict = report["verdict"]
    if not baseline["beats"]:
        assert (f"has {format_pvalue(test.pvalue)} (one-sided cluster-robust t, {N_GROUPS} groups)"
                in verdict["text"])
    assert not any("Clopper-Pearson" in c for c in verdict["caveats"])  # the cluster interval needs no conditions
    json.dumps(report, allow_nan=False)


def test_an_ungrouped_classifier_keeps_the_exact_binomial_and_the_report_its_shape():
    result = classifier(0.2, grouped=False)
    report = evaluation_report(result, description=None, data=None)
    baseline = report["estimators"]["A"]["baseline"]
    assert set(baseline) == {"no_information_rate", "majority_class", "pvalue", "beats", "imbalance_ratio"}
    assert baseline["pvalue"] == pytest.approx(cvi.no_information_test(result, method="exact").pvalue, rel=1e-12)
    text = unwrapped(render_text(report))
    assert "(one-sided binomial)" in text and "(one-sided exact binomial)" in report["verdict"]["text"]


@pytest.mark.parametrize("signal", [1.0, -0.5])
def test_a_grouped_regressor_shows_the_cluster_baseline_p_and_cluster_intervals(signal):
    result = regressor(signal)
    test = cvi.inference.mean_baseline_test(result)
    report = evaluation_report(result, description=None, data=None)
    record = report["estimators"]["A"]
    baseline = record["baseline"]
    assert baseline["pvalue"] == pytest.approx(test.pvalue, rel=1e-12)
    assert baseline["test"] == f"one-sided cluster-robust t, {N_GROUPS} groups"
    text = unwrapped(result.summary())
    assert f"below it: {format_pvalue(test.pvalue)} (one-sided cluster-robust t, {N_GROUPS} groups)" in text
    if not baseline["beats"]:
        assert f"({format_pvalue(test.pvalue)}, one-sided cluster-robust t, {N_GROUPS} groups)" in report[
            "verdict"]["text"]
    grouped = {metric: quiet(cvi.inference.regression_interval, result, metric)  # method="auto": a cluster interval
               for metric in ("mean_squared_error", "mean_absolute_error", "r2")}
    rows = {(row["quantity"], row["method"]): row for row in record["intervals"]}
    assert list(rows) == [
        ("squared_error", grouped["mean_squared_error"].method),
        ("mean_absolute_error", grouped["mean_absolute_error"].method), ("r2", grouped["r2"].method),
        ("mean_squared_error", "cv-clt"), ("mean_absolute_error", "cv-clt"), ("r2", "cv-clt")]
    for (metric, method), row in rows.items():
        oracle = grouped.get(LOSS_METRICS.get(metric, metric)) if method != "cv-clt" else quiet(
            cvi.inference.regression_interval, result, metric, method="cv-clt")
        assert (row["estimate"], row["low"], row["high"]) == (oracle.estimate, oracle.low, oracle.high)
        assert row["df"] == (N_GROUPS - 1 if method.startswith("cluster") else None)
    words = method_row(grouped["r2"].method, "regression_interval").label  # the table's label, not the id
    assert rows["r2", grouped["r2"].method]["name"] == f"R², {words} (groups as units)"
    assert words in ("cluster-robust", "cluster-robust half-sample")


def test_a_grouped_pair_decision_names_the_cluster_baseline_tests():
    pair = cvi.PairedCVResult(classifier(0.2, seed=3), classifier(1.2, seed=4))
    decision = cvi.decide(pair)
    test = cvi.no_information_test(pair.a)
    assert test.pvalue > 0.05
    assert (f"A does not beat the no-information rate: always predicting 1 scores "
            f"{test.details['no_information_rate']:.4f}, and its accuracy {pair.a.accuracy:.4f} is not above it "
            f"({format_pvalue(test.pvalue)}, one-sided cluster-robust t, {N_GROUPS} groups).") in decision.caveats
    regressors = cvi.PairedCVResult(regressor(1.0), regressor(-0.5))
    caveats = cvi.decide(regressors).caveats
    worse = cvi.inference.mean_baseline_test(regressors.b)
    assert any("B does not beat the trivial regressor" in c and f"({format_pvalue(worse.pvalue)}, one-sided "
               f"cluster-robust t, {N_GROUPS} groups; mean_baseline_test)" in c for c in caveats)
