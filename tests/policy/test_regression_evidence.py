"""regression_interval warns where the calibration benchmark measured it falling short (docs/calibration.md).

The figures the warnings must quote are read here from the evidence file
itself (``cvinference/policy/data/calibration.json``, written by
``benchmarks/calibration_report.py``), not through the library's lookups: a
cell falls short when its 95% Wilson interval of the coverage stays below the
file's ``floor``. The cells are chosen from the file, so the tests follow the
evidence when the benchmark is rerun.
"""

import json
import re
import warnings
from pathlib import Path

import pytest
from sklearn.datasets import make_regression
from sklearn.linear_model import Lasso, Ridge
from sklearn.tree import DecisionTreeRegressor

import cvinference as cvi
from cvinference.policy import _evidence
from cvinference.policy._evidence import CoverageKey

EVIDENCE = json.loads((Path(cvi.__file__).parent / "policy" / "data" / "calibration.json").read_text())
FLOOR = EVIDENCE["floor"]
ROWS = [row for row in EVIDENCE["rows"] if row.get("task") == "regression" and row["quantity"] == "coverage"
        and row["target"] == "kfold"]
LEARNERS = {"ridge": lambda: Ridge(), "tree_reg": lambda: DecisionTreeRegressor(random_state=0)}
METRICS = ("mean_squared_error", "mean_absolute_error", "r2")
FIELDS = ("method", "metric", "variance", "repeats")
"""The fields of a coverage row that name its interval: its id and the qualifiers of its rows."""
ROUTES = {("nested-cv", None, None): "nested_cv_interval",
          ("cv-clt", None, 10): "regression_interval on 10 repeats",
          ("cv-clt", "all-pairs", None): "regression_interval(variance='all-pairs')",
          ("cv-clt", "within-fold", None): "regression_interval(variance='within-fold')"}
"""The call the warning names for each method of the benchmark (docs/calibration.md, "Regression"), by its id,
variance and repeats."""


def _key(row):
    return tuple(row.get(field) for field in FIELDS)


def _one(metric):
    """The key of the one-repeat within-fold CV-CLT interval of ``metric``."""
    return ("cv-clt", metric, "within-fold", None)


def _cells(key, learner=None, sizes=None):
    return [row for row in ROWS if _key(row) == key and (learner is None or row["learner"] == learner)
            and (sizes is None or row["n"] in sizes)]


def _short(rows):
    return any(row["wilson_high"] < FLOOR for row in rows)


def _measured_cells(method, falls_short):
    """(learner, N) of every measured cell where ``method`` falls short (or holds) in all populations at that N."""
    found = sorted({(row["learner"], row["n"]) for row in _cells(method)})
    return [(learner, n) for learner, n in found if _short(_cells(method, learner, {n})) == falls_short]


def _result(learner, n, *, seed=0, **evaluator):
    X, y = make_regression(n_samples=n, n_features=5, noise=10.0, random_state=seed)
    estimator = learner() if callable(learner) else LEARNERS[learner]()
    return cvi.CVEvaluator(cv=10, loss="squared_error", random_state=seed, **evaluator).evaluate(estimator, X, y)


def _evidence_warnings(interval):
    return [w for w in interval.warnings if "measured in the benchmark as" in w]


def _figure(message):
    return float(re.search(r"only (\d\.\d{3}) of the time", message).group(1))


def _first_of_each_metric(falls_short):
    """For each metric, the first measured cell where its one-repeat interval falls short (or holds)."""
    cells = {metric: _measured_cells(_one(metric), falls_short) for metric in METRICS}
    return [(metric, *found[0]) for metric, found in cells.items() if found]


SHORT, HOLDING = _first_of_each_metric(True), _first_of_each_metric(False)


@pytest.mark.parametrize(("metric", "learner", "n"), SHORT)
def test_a_measured_shortfall_warns_with_the_evidence_rows_figure(metric, learner, n):
    method = _one(metric)
    rows = _cells(method, learner, {n})
    with pytest.warns(cvi.InferenceWarning, match="measured in the benchmark as"):
        interval = cvi.inference.regression_interval(_result(learner, n), metric)
    (message,) = _evidence_warnings(interval)
    assert _figure(message) == pytest.approx(min(row["measured"] for row in rows), abs=5e-4)
    assert f"(measured in the benchmark as {CoverageKey(**dict(zip(FIELDS, method, strict=True)))})" in message
    assert "kfold target" in message and "docs/calibration.md" in message
    worst = min(rows, key=lambda row: row["measured"])
    assert f"the {worst['population']} population" in message and f"N = {n}" in message
    # What held there, if anything did: the measured method of this metric closest to nominal that did not fall short.
    others = {_key(row) for row in ROWS if row["metric"] == metric and _key(row) != method}
    holding = {m: max(abs(row["measured"] - row["nominal"]) for row in _cells(m, learner, {n}))
               for m in others if _cells(m, learner, {n}) and not _short(_cells(m, learner, {n}))}
    if holding:
        best = min(holding, key=holding.get)
        assert f"What held there: {ROUTES[(best[0], *best[2:])]}" in message
    else:
        assert "nested_cv_interval" in message


def test_the_cases_above_exist():
    # The evidence holds both kinds of cell; otherwise the tests above and below would test nothing.
    assert SHORT and HOLDING


@pytest.mark.parametrize(("metric", "learner", "n"), HOLDING)
def test_no_warning_where_the_evidence_shows_it_holding(metric, learner, n):
    with warnings.catch_warnings():
        warnings.simplefilter("error", cvi.InferenceWarning)
        interval = cvi.inference.regression_interval(_result(learner, n), metric)
    assert not interval.warnings


def test_between_two_measured_sizes_the_worse_of_their_figures_stands():
    sizes = sorted({row["n"] for row in ROWS if row["learner"] == "ridge"})
    n = (sizes[0] + sizes[1]) // 2
    for metric in METRICS:
        rows = _cells(_one(metric), "ridge", set(sizes[:2]))
        if not _short(rows):
            continue
        with pytest.warns(cvi.InferenceWarning):
            (message,) = _evidence_warnings(cvi.inference.regression_interval(_result("ridge", n), metric))
        assert _figure(message) == pytest.approx(min(row["measured"] for row in rows), abs=5e-4)
        assert f"N = {sizes[0]} and {sizes[1]}" in message
        return
    pytest.fail("no metric falls short for ridge between its two smallest measured sizes")


def test_a_ridge_below_the_measured_sizes_says_it_is_beyond_the_range():
    smallest = min(row["n"] for row in ROWS if row["learner"] == "ridge")
    metric = next(m for m in METRICS if _short(_cells(_one(m), "ridge", {smallest})))
    with pytest.warns(cvi.InferenceWarning):
        (message,) = _evidence_warnings(cvi.inference.regression_interval(_result("ridge", smallest - 40), metric))
    assert f"N = {smallest - 40} is below the smallest size the calibration measured ({smallest})" in message


def test_an_unmeasured_linear_regressor_borrows_ridges_figures_and_says_so():
    smallest = min(row["n"] for row in ROWS if row["learner"] == "ridge")
    metric, rows = next((m, _cells(_one(m), "ridge", {smallest})) for m in METRICS
                        if _short(_cells(_one(m), "ridge", {smallest})))
    with pytest.warns(cvi.InferenceWarning):
        (message,) = _evidence_warnings(cvi.inference.regression_interval(_result(Lasso, smallest), metric))
    assert _figure(message) == pytest.approx(min(row["measured"] for row in rows), abs=5e-4)
    assert "did not measure this for Lasso; the figures are borrowed from its family (linear: ridge regression)" \
        in message


def test_pooled_repeats_are_read_from_the_pooled_rows():
    # Ten pooled repeats stand for the benchmark's "(10 repeats)" rows, not the one-repeat rows.
    method = ("cv-clt", "mean_squared_error", None, 10)
    cells = [cell for cell in _measured_cells(_one("mean_squared_error"), True) if cell in
             _measured_cells(method, False)]
    assert cells, "no cell where the one-repeat interval falls short and the pooled one holds"
    learner, n = cells[0]
    with pytest.warns(cvi.InferenceWarning):
        one = cvi.inference.regression_interval(_result(learner, n), "mean_squared_error")
        pooled = cvi.inference.regression_interval(_result(learner, n, n_repeats=10), "mean_squared_error")
    assert _evidence_warnings(one) and not _evidence_warnings(pooled)
    assert any("repeats of cross-validation are pooled" in w for w in pooled.warnings)


def _row(key, measured, high, n=100):
    fields = {field: value for field, value in zip(FIELDS, key, strict=True) if value is not None}
    return {**fields, "quantity": "coverage", "target": "kfold", "learner": "ridge", "n": n,
            "population": "test", "nominal": 0.95, "measured": measured, "wilson_low": measured - 0.05,
            "wilson_high": high, "replications": 200, "mean_width": 0.1, "task": "regression"}


@pytest.fixture
def evidence(monkeypatch):
    def install(*rows):
        table = {"rows": list(rows), "floor": 0.93, "type_i_limit": 0.06, "mode": "test"}
        monkeypatch.setattr(_evidence, "calibration_evidence", lambda: table)
    return install


def test_when_nothing_measured_holds_the_refitting_route_is_named(evidence):
    evidence(_row(_one("r2"), 0.85, 0.89), _row(("cv-clt", "r2", "all-pairs", None), 0.86, 0.90),
             _row(_one("mean_squared_error"), 0.80, 0.85), _row(("nested-cv", "mean_squared_error", None, None), 0.88,
                                                                 0.92))
    result = _result("ridge", 100)
    with pytest.warns(cvi.InferenceWarning):
        r2 = _evidence_warnings(cvi.inference.regression_interval(result, "r2"))[0]
        mse = _evidence_warnings(cvi.inference.regression_interval(result, "mean_squared_error"))[0]
    assert _figure(r2) == 0.85 and "nested_cv_interval, which refits the learner, is the other route, and the " \
        "benchmark did not measure it for the R²" in r2
    assert _figure(mse) == 0.80 and "nested_cv_interval (nested cross-validation, which refits the learner) also " \
        "fell short (0.880 in the test population" in mse


def test_accuracy_rows_say_nothing_about_a_regressor(evidence):
    # An accuracy row named like a regression method, failing badly at the same learner and size, is not read.
    accuracy = {key: value for key, value in _row(_one("r2"), 0.5, 0.55).items() if key != "task"}
    evidence(_row(_one("r2"), 0.95, 0.97), accuracy)
    with warnings.catch_warnings():
        warnings.simplefilter("error", cvi.InferenceWarning)
        assert not cvi.inference.regression_interval(_result("ridge", 100), "r2").warnings


def test_leave_one_out_is_not_matched_to_k_fold_cells(evidence):
    evidence(_row(("cv-clt", "r2", "all-pairs", None), 0.5, 0.55, n=30))
    X, y = make_regression(n_samples=30, n_features=3, noise=5.0, random_state=0)
    result = cvi.CVEvaluator(cv="loo", loss="squared_error").evaluate(Ridge(), X, y)
    assert not _evidence_warnings(cvi.inference.regression_interval(result, "r2", variance="all-pairs"))


def test_the_regressors_report_carries_the_caution():
    metric, learner, n = SHORT[0]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", cvi.InferenceWarning)
        result = _result(learner, n)
        (message,) = _evidence_warnings(cvi.inference.regression_interval(result, metric))
        text = " ".join(result.summary().split())
    assert " ".join(f"- {message}".split()) in text.split("warnings:")[1]
