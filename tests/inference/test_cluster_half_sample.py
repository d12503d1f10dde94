"""accuracy_interval(method="cluster-half-sample") and method="auto"'s choice between it and the cluster-robust
interval on a grouped record, read from the calibration evidence (issue 30, item 5).

Oracles:
- statsmodels' cluster-robust OLS of the correctness on a constant (``cov_type="cluster"``, ``use_t=True``: the CR1
  factor and t with G - 1 degrees of freedom), its standard error multiplied by sqrt(2): Nedel'ko (2021,
  section 3) measured the cross-validated error varying about as much as one measured on half the sample, and the
  half-sample interval carries that factor 2 of the variance to the groups;
- scipy's t quantile for the bounds;
- hand-made evidence rows (the ``evidence`` fixture), so that each branch of the choice is reached by construction.
"""

import math
import re

import numpy as np
import pytest
from scipy import stats
from test_grouped_records import classifier, cluster_ols, grouped_design, warning_texts

import cvinference as cvi

FLOOR = 0.93


@pytest.fixture(scope="module")
def design():
    return grouped_design()


def coverage_row(method, measured, n=30, target="kfold", learner="tree"):
    """A grouped coverage cell of the evidence, sized by its number of groups."""
    low, high = stats.binomtest(round(measured * 200), 200).proportion_ci(0.95, method="wilson")
    return {"method": method, "quantity": "coverage", "target": target, "learner": learner, "n": n,
            "population": "clustered-test", "nominal": 0.95, "measured": measured, "wilson_low": float(low),
            "wilson_high": float(high), "replications": 200, "mean_width": 0.1, "task": "grouped"}


@pytest.mark.parametrize("confidence_level", [0.9, 0.95])
def test_the_half_sample_interval_is_statsmodels_cluster_ols_with_twice_its_variance(design, confidence_level):
    result = classifier(design, 3)
    interval = cvi.accuracy_interval(result, confidence_level, method="cluster-half-sample")
    fit = cluster_ols(result.correct[0].astype(float), result.groups)
    standard_error = math.sqrt(2) * fit.bse[0]
    critical = stats.t.ppf((1 + confidence_level) / 2, df=fit.df_resid_inference)
    assert interval.estimate == pytest.approx(fit.params[0], rel=1e-12)
    assert interval.details["standard_error"] == pytest.approx(standard_error, rel=1e-10)
    assert interval.details["df"] == fit.df_resid_inference == 29
    assert (interval.low, interval.high) == pytest.approx(
        (fit.params[0] - critical * standard_error, fit.params[0] + critical * standard_error), rel=1e-10)
    assert interval.method == "cluster-half-sample" and "half the groups" in interval.assumptions


@pytest.mark.parametrize(("options", "message"), [
    ({"averaging": "fold"}, r"method='cluster-half-sample' is a cluster-robust interval.*averaging='dataset'"),
    ({"drop_failing_folds": True}, r"drop_failing_folds=True .* method='cluster-half-sample'"),
])
def test_the_half_sample_interval_refuses_what_it_cannot_do(design, options, message):
    with pytest.raises(ValueError, match=message):
        cvi.accuracy_interval(classifier(design, 1), method="cluster-half-sample", **options)


def test_the_half_sample_interval_needs_groups(design):
    with pytest.raises(ValueError, match=r"made without groups\. Pass groups="):
        cvi.accuracy_interval(classifier(design, 1, grouped=False), method="cluster-half-sample")


def test_auto_keeps_the_cluster_interval_where_it_reached_the_floor(design, evidence):
    evidence(coverage_row("cluster", 0.94), coverage_row("cluster-half-sample", 0.99))
    interval, texts = warning_texts(cvi.accuracy_interval, classifier(design, 1))
    assert interval.method == "cluster" and texts == []


def test_auto_takes_the_half_sample_interval_where_the_cluster_one_fell_below_the_floor(design, evidence):
    """0.92 is within Monte-Carlo error of the floor (its Wilson interval reaches 0.93), yet below it: on a grouped
    record the measured coverage itself must reach the floor (the stricter rule)."""
    evidence(coverage_row("cluster", 0.92), coverage_row("cluster-half-sample", 0.975))
    result = classifier(design, 1)
    interval, texts = warning_texts(cvi.accuracy_interval, result)
    explicit = cvi.accuracy_interval(result, method="cluster-half-sample")
    assert coverage_row("cluster", 0.92)["wilson_high"] > FLOOR
    assert interval.method == "cluster-half-sample" and texts == []
    assert (interval.low, interval.high) == (explicit.low, explicit.high)
    note = next(note for note in interval.notes if "half-sample" in note)
    assert "0.920" in note and "0.975" in note and "a decision tree at G = 30" in note


def test_auto_warns_when_neither_reached_the_floor_and_takes_the_better(design, evidence):
    evidence(coverage_row("cluster", 0.85), coverage_row("cluster-half-sample", 0.91))
    interval, texts = warning_texts(cvi.accuracy_interval, classifier(design, 1))
    assert interval.method == "cluster-half-sample"
    assert len(texts) == 1 and "0.910" in texts[0] and "no interval computable" in texts[0]


def test_an_explicit_cluster_interval_warns_where_it_was_measured_short(design, evidence):
    evidence(coverage_row("cluster", 0.9), coverage_row("cluster-half-sample", 0.97))
    _, texts = warning_texts(cvi.accuracy_interval, classifier(design, 1), method="cluster")
    assert len(texts) == 1 and re.match(r"The cluster interval covered the kfold error \(.*\) only 0\.900 ", texts[0])
    assert "the clustered-test population, a decision tree at G = 30" in texts[0]
    _, texts = warning_texts(cvi.accuracy_interval, classifier(design, 1), method="cluster-half-sample")
    assert texts == []


def test_another_target_without_grouped_rows_is_said_to_be_uncalibrated(design, evidence):
    evidence(coverage_row("cluster", 0.95))
    interval, texts = warning_texts(cvi.accuracy_interval, classifier(design, 1), target="conditional")
    assert interval.method == "cluster"
    assert len(texts) == 1 and "not calibrated" in texts[0] and "conditional" in texts[0]


def test_the_choice_is_sized_by_groups_not_instances(design, evidence):
    """Cells at G = 30 stand for a record of 30 groups (about 150 instances), not for one of 30 instances."""
    evidence(coverage_row("cluster", 0.92, n=30), coverage_row("cluster-half-sample", 0.97, n=30),
             coverage_row("cluster", 0.95, n=150), coverage_row("cluster-half-sample", 0.99, n=150))
    result = classifier(design, 1)
    assert result.n_groups == 30 and result.n_samples > 100
    assert cvi.accuracy_interval(result).method == "cluster-half-sample"
    assert np.unique(result.groups).size == 30
