"""The decision for forecasters (issue 48, item 4): two learners' forward validation rests on Diebold & Mariano's
test over every forecast, whose type-I error the forward calibration measured; each learner beside the naive
forecast. Oracle: forecast_test on the same pair."""

import numpy as np
import pytest
from sklearn.dummy import DummyRegressor
from sklearn.linear_model import Ridge

import cvinference as cvi
from cvinference._utils._text import format_pvalue
from cvinference.inference import forecast_test
from cvinference.policy._forward_decision import TEST, forward_evidence
from cvinference.splitters import ForwardSplit

RNG = np.random.default_rng(11)
Y = np.zeros(300)
for _t in range(1, 300):
    Y[_t] = 0.7 * Y[_t - 1] + RNG.normal()
X = np.column_stack([np.r_[0.0, Y[:-1]], np.r_[0.0, 0.0, Y[:-2]]])
EVALUATOR = cvi.CVEvaluator(cv=ForwardSplit(30, horizon=5, window=120), loss="squared_error")


def test_the_decision_rests_on_diebold_mariano_over_every_forecast_with_its_measured_type_i_error():
    pair = EVALUATOR.compare(Ridge(), DummyRegressor(), X, Y, names=("ridge", "mean"))
    decision = cvi.decide(pair)
    test = forecast_test(pair, method="prewhitened-diebold-mariano")
    type_i = [row for row in forward_evidence()["rows"] if row["method"] == TEST and row["quantity"] == "type_i"]
    measured = max(row["measured"] for row in type_i)
    assert decision.rests_on.name == "Diebold-Mariano, pre-whitened"
    assert decision.rests_on.pvalue == test.pvalue and decision.difference == pytest.approx(test.estimate)
    assert decision.rests_on.measured_type_i == measured  # the worst cell of every learner's, the boosted included
    assert measured <= 0.06  # in every cell, the boosted learner's and the real series' included
    power = min(row["measured"] for row in forward_evidence()["rows"]
                if row["method"] == TEST and row["quantity"] == "power")
    assert decision.rests_on.measured_power == power and "power against a difference of 0.128" in \
        decision.rests_on.regime
    assert "and the seasonal and level shift cells with phi 0.5" in decision.rests_on.regime
    assert "; a gradient-boosted model in place of the two ridges (GradientBoostingRegressor(" in \
        decision.rests_on.regime
    assert "with phi 0.5 and 0.9 and on statsmodels' sunspots series" in decision.rests_on.regime
    assert (decision.answer, decision.target, decision.lower_is_better) == ("A better", "forward", True)
    assert decision.names == ("ridge", "mean") and decision.metric == "squared_error"
    assert cvi.results.Decision.from_json(decision.to_json()) == decision


def test_a_learner_that_does_not_beat_the_naive_forecast_gets_a_caveat():
    constant = cvi.CVEvaluator(cv=ForwardSplit(30, horizon=1, step=1, window=120), loss="squared_error")
    trend = np.cumsum(RNG.normal(size=300)) * 3  # a random walk: the naive forecast is hard to beat
    pair = constant.compare(Ridge(), DummyRegressor(), np.arange(300.0)[:, np.newaxis] * 0, trend,
                            names=("flat ridge", "mean"))
    caveats = cvi.decide(pair).caveats
    assert any(c.startswith("flat ridge does not beat the naive forecast (the value at its origin)") for c in caveats)


def test_the_naive_forecasts_caveat_quotes_the_one_sided_p_value_the_report_quotes():
    """Issue 58: the caveat gave the two-sided p-value (0.28) of the question the report answers one-sided (0.140);
    one question, one p-value, its sidedness and direction said. Oracle: forecast_test, alternative='greater'."""
    pair = EVALUATOR.compare(Ridge(alpha=1e6), DummyRegressor(), X, Y, names=("stiff ridge", "mean"))
    decision = cvi.decide(pair)
    for record, name in ((pair.a, "stiff ridge"), (pair.b, "mean")):
        one_sided = forecast_test(record, record.baseline(), method="prewhitened-diebold-mariano",
                                  alternative="greater")
        assert one_sided.pvalue >= 0.05  # neither beats the naive forecast of an AR(0.7) series
        (caveat,) = [c for c in decision.caveats if c.startswith(f"{name} does not beat the naive forecast")]
        assert f"one-sided {format_pvalue(one_sided.pvalue)}" in caveat
        assert f"{name}'s expected loss below the naive's" in caveat
        two_sided = forecast_test(record, record.baseline(), method="prewhitened-diebold-mariano")
        assert format_pvalue(two_sided.pvalue) not in caveat


def test_the_reason_is_short_and_the_calibrations_cells_are_one_call_away():
    """Issue 58: the reason was 15 lines of the benchmark's cells; now the test, its figure and its assumption, the
    cells in the test's regime, which Decision.explain() shows."""
    decision = cvi.decide(EVALUATOR.compare(Ridge(), DummyRegressor(), X, Y, names=("ridge", "mean")))
    measured = decision.rests_on.measured_type_i
    assert decision.reason == (
        f"It rests on Diebold-Mariano, pre-whitened, over every forecast, whose type-I error the forward "
        f"calibration measured at most {measured:.3f} for ridge regressions and a gradient-boosted model. It "
        "assumes a stationary loss differential: a level shift or a trend in the errors breaks it.")
    assert "benchmarks/forward_calibration.py" in decision.rests_on.regime
    assert decision.rests_on.regime in " ".join(decision.explain().split())


@pytest.mark.parametrize("kwargs, message", [
    ({"metric": "r2"}, r"answers for the records' loss \('squared_error'\); got metric='r2'"),
    ({"nested": "x"}, "tests and nested are not read on forward validation"),
])
def test_what_forward_validation_cannot_answer_is_refused(kwargs, message):
    pair = EVALUATOR.compare(Ridge(), DummyRegressor(), X, Y)
    with pytest.raises(ValueError, match=message):
        cvi.decide(pair, **kwargs)


def test_the_calibration_pages_table_is_the_shipped_evidence():
    """docs/calibration.md, "Forward validation", shows the rows the decision reads, as the benchmark prints them."""
    import importlib.util
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    spec = importlib.util.spec_from_file_location("forward_calibration", root / "benchmarks" / "forward_calibration.py")
    benchmark = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(benchmark)
    assert benchmark.markdown(forward_evidence()) in (root / "docs" / "calibration.md").read_text()
    rows = forward_evidence()["rows"]
    default = [row for row in rows if row["method"] == "prewhitened-hac" and row.get("phi", 1) <= 0.7
               and row["learner"] == "ridge"]
    assert default and all(row["measured"] >= 0.93 for row in default)  # what the docs say of the default
    assert {(row.get("phi"), row.get("series")) for row in rows if row["learner"] == "boosting"} == {
        (0.5, None), (0.9, None), (None, "sunspots")}
