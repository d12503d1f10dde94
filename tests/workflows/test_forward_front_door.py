"""``cvinference.evaluate`` and ``compare`` with a forward splitter (issue 48, item 6): the forecasts' records, every
interval and test of :mod:`cvinference.inference._forecast`, the naive forecast beside each learner, the results per
horizon and the forward decision, in one call. Oracle: the record functions called on the evaluator's records."""

import json
import re

import numpy as np
import pytest
from sklearn.dummy import DummyRegressor
from sklearn.linear_model import Ridge
from sklearn.model_selection import TimeSeriesSplit
from sklearn.naive_bayes import GaussianNB

import cvinference as cvi
from cvinference._utils._text import format_pvalue
from cvinference.inference import forecast_interval, forecast_test
from cvinference.inference._forecast import SMALL_SAMPLE_FORECASTS
from cvinference.records import ForwardResult, PairedForwardResult
from cvinference.report import render_text
from cvinference.report._forward_report import HORIZON_TEST
from cvinference.splitters import ForwardSplit

from counted_fits import CountedLinear

RNG = np.random.default_rng(11)
N = 260
NOISE = np.zeros(N)
for _t in range(1, N):
    NOISE[_t] = 0.6 * NOISE[_t - 1] + RNG.normal()
Y = 2.0 * np.sin(2 * np.pi * np.arange(N) / 12) + NOISE
X = np.column_stack([np.sin(2 * np.pi * np.arange(N) / 12), np.cos(2 * np.pi * np.arange(N) / 12)])
CV = ForwardSplit(20, horizon=4, window=120)
METHODS = ("prewhitened-hac", "hac", "block-bootstrap", "stationary-bootstrap", "iid")


def _same_forecasts(found, record):
    """The same record but for the learner's name and repr: the front door seeds an unseeded learner's
    random_state from its own (issue 58), which changes the repr and not a forecast of Ridge's."""
    mask = {"name": None, "estimator_repr": None}
    return found.to_dict() | mask == record.to_dict() | mask


@pytest.fixture(scope="module")
def evaluation():
    return cvi.evaluate(Ridge(), X, Y, cv=CV, random_state=0)


@pytest.fixture(scope="module")
def comparison():
    return cvi.compare(Ridge(), DummyRegressor(), X, Y, cv=CV, random_state=0, season=12)


def test_evaluate_holds_the_evaluators_record_and_the_intervals_of_forecast_interval(evaluation):
    record = cvi.CVEvaluator(cv=CV, loss="squared_error").evaluate(Ridge(), X, Y)
    assert isinstance(evaluation.result, ForwardResult) and _same_forecasts(evaluation.result, record)
    (quantity,) = evaluation.intervals  # the forecast loss's mean
    found = list(evaluation.intervals[quantity].values())
    assert [interval.method for interval in found] == list(METHODS) == list(evaluation.intervals[quantity])
    assert evaluation.recommended == (quantity, METHODS[0])
    for interval, method in zip(found, METHODS, strict=True):
        expected = forecast_interval(record, method=method, random_state=0)
        assert (interval.low, interval.high, interval.target) == (expected.low, expected.high, "forward")
    assert evaluation.fits == CV.get_n_splits(X) == 20
    assert repr(evaluation) == f"Evaluation(mean_loss={record.mean_loss:.4g}, fits=20)"


def test_evaluate_sets_the_naive_forecast_and_each_horizon_beside_the_mean_loss(evaluation):
    record, report = evaluation.result, evaluation.to_dict()
    naive = record.baseline()
    baseline = report["estimators"]["A"]["baseline"]
    test = forecast_test(record, naive, method="prewhitened-diebold-mariano", alternative="greater")
    assert baseline["baseline_loss"] == naive.mean_loss and baseline["pvalue"] == test.pvalue
    assert baseline["relative"] == pytest.approx(1 - record.mean_loss / naive.mean_loss, abs=1e-12)
    rows = report["estimators"]["A"]["horizons"]
    assert [row["horizon"] for row in rows] == [1, 2, 3, 4]
    for row in rows:
        at = record.horizon == row["horizon"]
        interval = forecast_interval(record, horizon=row["horizon"])
        assert (row["n_forecasts"], row["low"], row["high"]) == (20, interval.low, interval.high)
        assert row["mean_loss"] == pytest.approx(record.loss[at].mean(), abs=1e-12)
        assert row["baseline_loss"] == pytest.approx(naive.loss[at].mean(), abs=1e-12)
    summary = evaluation.summary()
    assert "forward validation, 20 origins, sliding window of 120 rows, horizons 1 to 4" in summary
    assert "per horizon" in summary and "naive forecast from the same origins" in summary
    assert report["verdict"]["text"].startswith(("Mean squared error", "Does not beat the naive forecast"))


def test_compare_runs_every_forecast_test_per_horizon_and_the_forward_decision(comparison):
    pair = cvi.CVEvaluator(cv=CV, loss="squared_error").compare(Ridge(), DummyRegressor(), X, Y)
    assert isinstance(comparison.pair, PairedForwardResult)
    assert _same_forecasts(comparison.pair.a, pair.a) and _same_forecasts(comparison.pair.b, pair.b)
    assert comparison.fits == 40 and comparison.nested is None
    (chosen, chosen_test), (dm, dm_test), (gw, gw_test) = comparison.test_rows
    assert list(comparison.tests) == [test.method for _, test in comparison.test_rows]
    assert (chosen, dm, gw) == ("Diebold-Mariano, pre-whitened", "Diebold-Mariano", "Giacomini-White (horizon 1)")
    assert chosen_test.pvalue == forecast_test(pair, method="prewhitened-diebold-mariano").pvalue
    assert dm_test.pvalue == forecast_test(pair).pvalue
    assert gw_test.pvalue == forecast_test(pair, method="giacomini-white", horizon=1).pvalue
    decision = cvi.decide(pair)
    assert comparison.decision.answer == decision.answer and comparison.decision.rests_on == decision.rests_on
    for row in comparison.to_dict()["forecasts"]["horizon_tests"]:  # the decision's test, at that horizon
        assert row["pvalue"] == forecast_test(pair, method="prewhitened-diebold-mariano",
                                              horizon=row["horizon"]).pvalue
        # 20 forecasts a horizon, fewer than the small-sample rule's 50: the larger of the pre-whitened and HLN's
        # standard errors (issue 58), the row naming the one taken
        assert row["n_forecasts"] == 20 < SMALL_SAMPLE_FORECASTS
        found = forecast_test(pair, method="prewhitened-diebold-mariano", horizon=row["horizon"])
        assert (row["method"], row["alternative"]) == (found.method, "two-sided")
        assert found.details["small_sample"] in ("hln", "hac")
    seasonal = pair.a.baseline(12)
    assert comparison.to_dict()["estimators"]["B"]["baseline"]["baseline"] == "seasonal naive (season 12)"
    assert comparison.to_dict()["estimators"]["A"]["baseline"]["baseline_loss"] == seasonal.mean_loss
    assert "decision: " in comparison.summary() and "p (two-sided)" in comparison.summary()


def test_the_answers_write_their_report_draw_and_show_themselves_as_html(evaluation, comparison):
    plt = pytest.importorskip("matplotlib.pyplot")
    for answer in (evaluation, comparison):  # the JSON is the report the summary renders
        assert json.loads(answer.to_json()) == json.loads(json.dumps(answer.to_dict(), allow_nan=False))
        assert render_text(answer.to_dict()) == answer.summary()
    assert "<table" in evaluation._repr_html_() and "per horizon" in comparison._repr_html_()
    drawn = comparison.plot()
    assert drawn.axes_[0].get_title() == "mean squared error per horizon"
    _, axis = plt.subplots()
    assert evaluation.plot(ax=axis).ax_ is axis
    plt.close("all")


def test_scikit_learns_time_series_split_is_forward_validation_too():
    evaluation = cvi.evaluate(Ridge(), X, Y, cv=TimeSeriesSplit(5, test_size=10), loss="absolute_error")
    assert evaluation.result.window == "expanding" and evaluation.result.loss_name == "absolute_error"
    assert evaluation.to_dict()["estimators"]["A"]["loss"] == "absolute_error"


def test_the_same_random_state_gives_the_same_answer_for_any_n_jobs():
    runs = [cvi.compare(Ridge(), DummyRegressor(), X, Y, cv=CV, random_state=3, n_jobs=n_jobs) for n_jobs in (1, 2)]
    assert runs[0].summary() == runs[1].summary() and runs[0].to_dict() == runs[1].to_dict()


@pytest.mark.parametrize("options, message", [
    ({"n_repeats": 3}, "n_repeats=3"),
    ({"groups": np.arange(N) % 5}, "groups"),
    ({"metric": "r2"}, "metric='r2'"),
    ({"metric": "accuracy"}, "metric='accuracy'"),
    ({"metric": ["squared_error", "accuracy"]}, "metric='accuracy'"),
    ({"pos_label": 1}, "pos_label=1"),
    ({"loss": "zero_one"}, "loss='zero_one'"),
    ({"season": 200}, "season=200"),
    ({"cv": TimeSeriesSplit(2, test_size=1)}, "makes 2 forecasts"),
])
def test_what_forward_validation_cannot_honour_is_refused_before_any_fit(options, message):
    CountedLinear.fits = 0
    options = {"cv": CV} | options
    with pytest.raises(ValueError, match=message.replace("(", r"\(").replace("[", r"\[")):
        cvi.evaluate(CountedLinear(), X, Y, **options)
    with pytest.raises(ValueError, match=message.replace("(", r"\(").replace("[", r"\[")):
        cvi.compare(CountedLinear(), DummyRegressor(), X, Y, **options)
    assert CountedLinear.fits == 0


def test_a_classifier_nested_cross_validation_and_a_season_without_forward_validation_are_refused():
    with pytest.raises(ValueError, match="pass a regressor"):
        cvi.evaluate(GaussianNB(), X, (Y > 0).astype(int), cv=CV)
    with pytest.raises(ValueError, match="nested='always'"):
        cvi.compare(Ridge(), DummyRegressor(), X, Y, cv=CV, nested="always")
    with pytest.raises(ValueError, match="season=12 sets the seasonal naive forecast"):
        cvi.evaluate(Ridge(), X, Y, cv=5, season=12)


def test_the_loss_and_its_scorer_are_the_metrics_a_forward_decision_answers_for():
    found = cvi.compare(Ridge(), DummyRegressor(), X, Y, cv=CV, metric="neg_mean_squared_error", n_repeats="auto")
    assert found.decision.metric == "squared_error"
    assert any("n_repeats='auto'" in note for note in found.to_dict()["notes"])


def test_too_few_forecasts_for_giacomini_white_leave_it_out_with_a_note_after_the_fits():
    found = cvi.compare(Ridge(), DummyRegressor(), X, Y, cv=ForwardSplit(4, horizon=2), random_state=0)
    assert [name for name, _ in found.test_rows] == ["Diebold-Mariano, pre-whitened", "Diebold-Mariano"]
    assert found.to_dict()["notes"][0].startswith("Giacomini & White's test was not run: method='giacomini-white' at "
                                               "horizon=1 has 3 forecasts")
    rows = found.to_dict()["forecasts"]["horizon_tests"]
    assert [row["pvalue"] for row in rows] == [
        forecast_test(found.pair, method="prewhitened-diebold-mariano", horizon=h).pvalue for h in (1, 2)]
    few = cvi.compare(Ridge(), DummyRegressor(), X, Y, cv=ForwardSplit(2, horizon=3), random_state=0)
    assert [row["pvalue"] for row in few.to_dict()["forecasts"]["horizon_tests"]] == [None, None, None]
    assert "n/a" in few.summary()


def test_accuracy_the_default_of_decide_is_no_metric_of_forecasts_and_the_refusal_names_those_that_are():
    """Issue 58: metric="accuracy" (decide's default, which leaked into the front door's check) was taken on
    forecasts; now refused before any fit, naming the metrics a forward decision answers for."""
    CountedLinear.fits = 0
    with pytest.raises(ValueError) as raised:
        cvi.compare(CountedLinear(), DummyRegressor(), X, Y, cv=CV, metric="accuracy")
    assert "(metric= one of 'squared_error', 'neg_mean_squared_error')" in str(raised.value)
    with pytest.raises(ValueError, match=re.escape("'absolute_error' (metric= one of 'absolute_error', "
                                                   "'neg_mean_absolute_error'); drop metric.") + "$"):
        cvi.evaluate(CountedLinear(), X, Y, cv=CV, metric="accuracy", loss="absolute_error")
    assert CountedLinear.fits == 0
    for metric in (None, "squared_error"):  # the default and the loss itself still decide
        assert cvi.compare(Ridge(), DummyRegressor(), X, Y, cv=CV, metric=metric).decision.metric == "squared_error"


def test_at_one_horizon_the_table_quotes_the_decisions_own_p_value_with_its_sidedness():
    """Issue 58: at one horizon the per-horizon table printed p = 0.029 (a test that assumes no autocorrelation)
    beside the decision's 0.108 and "no difference shown". Now the table's test is the decision's: one question,
    one p-value. Oracle: forecast_test(method="prewhitened-diebold-mariano") over every forecast."""
    found = cvi.compare(Ridge(), DummyRegressor(), X, Y, cv=ForwardSplit(60, horizon=1, window=120), random_state=0)
    (row,) = found.to_dict()["forecasts"]["horizon_tests"]
    chosen = forecast_test(found.pair, method="prewhitened-diebold-mariano")
    assert row["pvalue"] == chosen.pvalue == found.decision.rests_on.pvalue
    lines = found.summary().splitlines()
    title = lines.index(f"per horizon ({HORIZON_TEST})")
    assert lines[title + 1].split()[-2:] == ["p", "(two-sided)"]
    assert lines[title + 2].endswith(format_pvalue(chosen.pvalue))
    assert f"two-sided {format_pvalue(chosen.pvalue)}" in found.summary()  # the decision's line


@pytest.mark.parametrize("kind", ["days newest first", "months shuffled", "only y's index"])
def test_a_time_index_that_is_not_increasing_is_refused_before_any_fit(kind):
    """Issue 58, finding 10: with a newest-first DatetimeIndex, forward validation followed the row order, forecast
    the past from the future and answered "A better" without a word. Oracle: the same rows sorted by their index
    (pandas' sort_index) are taken."""
    pd = pytest.importorskip("pandas")
    index = pd.date_range("2000-01-01", periods=N, freq="D")
    if kind == "days newest first":
        index = index[::-1]
    elif kind == "months shuffled":
        index = pd.period_range("2000-01", periods=N, freq="M")[np.random.default_rng(0).permutation(N)]
    X_frame = pd.DataFrame(X, index=index if kind != "only y's index" else pd.RangeIndex(N))
    y_series = pd.Series(Y, index=index[::-1] if kind == "only y's index" else index)
    CountedLinear.fits = 0
    with pytest.raises(ValueError, match=r"is not in increasing order: row \d+ is .* Forward validation takes the "
                                         r"rows in their order, oldest first"):
        cvi.compare(CountedLinear(), DummyRegressor(), X_frame, y_series, cv=CV)
    assert CountedLinear.fits == 0
    X_sorted, y_sorted = X_frame.sort_index(), y_series.sort_index()
    found = cvi.evaluate(Ridge(), X_sorted, y_sorted, cv=CV)
    as_arrays = cvi.evaluate(Ridge(), X_sorted.to_numpy(), y_sorted.to_numpy(), cv=CV)
    assert found.result.mean_loss == pytest.approx(as_arrays.result.mean_loss, rel=1e-12)  # round-off of the layout


def test_on_few_forecasts_the_decision_says_its_test_took_the_small_sample_rule():
    """Issue 58, finding 6: below SMALL_SAMPLE_FORECASTS the decision's test takes the larger of the pre-whitened and
    Harvey, Leybourne & Newbold's standard errors; the decision's explanation says so and its p-value is that
    test's (oracle: forecast_test with horizon=None)."""
    found = cvi.compare(Ridge(), DummyRegressor(), X[:120], Y[:120], cv=ForwardSplit(8, horizon=2), random_state=0)
    test = forecast_test(found.pair, method="prewhitened-diebold-mariano")
    assert test.details["n"] == 16 and test.details["small_sample"] in ("hln", "hac")
    assert found.decision.rests_on.pvalue == test.pvalue
    explanation = " ".join(found.decision.explain().split())
    assert ("(on these 16 forecasts, fewer than 50, with the larger of its and Harvey, Leybourne & Newbold's "
            "standard errors") in explanation
