"""The forward record (issue 48): what the evaluator keeps of forward validation, checked when made and read.
Oracle for the evaluator's record: a clone of the learner fitted to each split's training rows by hand."""

import json

import numpy as np
import pytest
from sklearn.base import clone
from sklearn.ensemble import RandomForestRegressor
from sklearn.linear_model import Ridge
from sklearn.model_selection import TimeSeriesSplit

import cvinference as cvi
from cvinference.records import ForwardResult, PairedForwardResult
from cvinference.splitters import ForwardSplit

RNG = np.random.default_rng(3)
Y = np.cumsum(RNG.normal(size=150)) * 0.2 + RNG.normal(size=150)
X = np.column_stack([np.r_[0.0, Y[:-1]], np.arange(150.0)])


@pytest.mark.parametrize("cv", [ForwardSplit(6, horizon=5, step=3, window=60), TimeSeriesSplit(4, gap=2)],
                         ids=["forward", "time_series_split"])
def test_the_evaluators_record_holds_each_origins_own_fits(cv):
    learner = RandomForestRegressor(n_estimators=10, random_state=0)
    record = cvi.CVEvaluator(cv=cv, loss="absolute_error").evaluate(learner, X, Y)
    expected, origins = [], []
    for train, test in cv.split(X):
        expected.append(clone(learner).fit(X[train], Y[train]).predict(X[test]))
        origins.append(train.max())
    np.testing.assert_array_equal(record.y_pred, np.concatenate(expected))
    np.testing.assert_array_equal(record.origin, origins)
    np.testing.assert_array_equal(record.loss, np.abs(record.y_true - record.y_pred))
    np.testing.assert_array_equal(record.horizon, record.time - record.origin[record.fold])
    assert record.name == "RandomForestRegressor(n_estimators=10, random_state=0)"
    parallel = cvi.CVEvaluator(cv=cv, loss="absolute_error", n_jobs=2).evaluate(learner, X, Y)
    assert parallel == record


def test_a_sliding_window_record_knows_its_window_and_horizons():
    record = cvi.CVEvaluator(cv=ForwardSplit(6, horizon=5, step=3, window=60),
                             loss="squared_error").evaluate(Ridge(), X, Y)
    assert record.window == "sliding" and record.horizons.tolist() == [1, 2, 3, 4, 5]
    assert record.n_forecasts == 30 and np.unique(record.time).size == 20  # steps of 3: two rows at two horizons
    assert cvi.CVEvaluator(cv=TimeSeriesSplit(3), loss="squared_error").evaluate(Ridge(), X, Y).window == "expanding"


def test_the_record_round_trips_through_json_and_makes_a_table():
    record = cvi.CVEvaluator(cv=ForwardSplit(4, horizon=3), loss="squared_error").evaluate(Ridge(), X, Y)
    again = ForwardResult.from_json(json.dumps(json.loads(record.to_json())))
    assert again == record and again is not record
    frame = record.to_frame()
    assert list(frame.columns) == ["split", "origin", "horizon", "time", "y_true", "y_pred", "loss"]
    assert frame["loss"].tolist() == record.loss.tolist()
    assert record.summary() == cvi.evaluate(record, random_state=0).summary()  # the record's answer (issue 59)
    assert "forward validation, 4 origins" in record.summary()


def test_a_pair_is_two_learners_on_the_same_origins():
    evaluator = cvi.CVEvaluator(cv=ForwardSplit(4, horizon=3), loss="squared_error")
    pair = evaluator.compare(Ridge(), Ridge(alpha=100.0), X, Y, names=("ridge", "strong ridge"))
    assert isinstance(pair, PairedForwardResult) and (pair.a.name, pair.b.name) == ("ridge", "strong ridge")
    np.testing.assert_array_equal(pair.loss_difference, pair.a.loss - pair.b.loss)
    other = cvi.CVEvaluator(cv=ForwardSplit(4, horizon=2), loss="squared_error").evaluate(Ridge(), X, Y)
    with pytest.raises(ValueError, match="a and b differ in time: a pair compares two learners' forecasts"):
        PairedForwardResult(pair.a, other)


@pytest.mark.parametrize("kwargs, message", [
    ({"loss": "zero_one"}, r"is forward validation, whose record keeps each forecast's loss of a numeric series"),
    ({"loss": "squared_error", "n_repeats": 2}, r"draws one fixed set of origins.*got n_repeats=2. Use n_repeats=1"),
])
def test_what_forward_validation_cannot_record_is_refused_before_any_fit(kwargs, message):
    with pytest.raises(ValueError, match=message):
        cvi.CVEvaluator(cv=ForwardSplit(3), **kwargs).evaluate(Ridge(), X, Y)
    with pytest.raises(ValueError, match="orders rows by time, not by group; pass groups=None"):
        cvi.CVEvaluator(cv=ForwardSplit(3), loss="squared_error").evaluate(Ridge(), X, Y, groups=np.arange(150) // 10)


@pytest.mark.parametrize("change, message", [
    ({"time": [2, 2]}, r"forecast 1 is of row 2 by split 1, whose origin is row 2"),
    ({"train_size": [5, 3]}, r"train_size\[0\]=5 is more rows than the 2 up to split 0's origin \(row 1\)"),
    ({"fold": [0, 2]}, r"fold must number the splits 0 .. n_splits - 1 = 1"),
    ({"y_pred": [np.nan, 1.0]}, r"y_pred holds NaN or infinity at position 0"),
    ({"loss_name": "zero_one"},
     r"loss_name must be one of \['squared_error', 'absolute_error'\] for forecasts of a numeric series"),
])
def test_a_record_that_cannot_be_forward_validation_is_refused(change, message):
    fields = dict(y=[1.0, 2.0, 3.0, 5.0], time=[2, 3], fold=[0, 1], y_pred=[2.0, 3.0], origin=[1, 2],
                  train_size=[2, 3])
    with pytest.raises(ValueError, match=message):
        ForwardResult(**(fields | change))


def test_forecasts_made_elsewhere_give_the_evaluators_record():
    """Issue 48, item 2: a record from forecasts users already have, checked as the evaluator's."""
    record = cvi.CVEvaluator(cv=ForwardSplit(6, horizon=5, step=3, window=60),
                             loss="absolute_error").evaluate(Ridge(), X, Y, name="ridge")
    again = ForwardResult.from_forecasts(Y, record.y_pred, time=record.time, origin=record.origin[record.fold],
                                         train_size=60, loss="absolute_error", name="ridge")
    assert again == ForwardResult.from_dict(record.to_dict() | {"estimator_repr": None, "cv_repr": None})
    expanding = ForwardResult.from_forecasts(Y, record.y_pred, time=record.time, origin=record.origin[record.fold],
                                             train_size="expanding", loss="absolute_error")
    assert expanding.window == "expanding" and expanding.train_size.tolist() == (record.origin + 1).tolist()


@pytest.mark.parametrize("train_size, message", [
    ("rolling", r"train_size must be an int, 'expanding' or one value per forecast; got train_size='rolling'"),
    ([3, 4], r"train_size must hold one value per forecast \(3\); got shape \(2,\)"),
    ([3, 4, 5], "train_size must be equal for the forecasts of one origin"),
    (0, r"train_size must be an integer >= 1; got train_size=0"),
])
def test_forecasts_whose_windows_cannot_be_told_are_refused(train_size, message):
    with pytest.raises(ValueError, match=message):
        ForwardResult.from_forecasts([1.0, 2.0, 3.0, 5.0, 4.0], [2.5, 4.0, 4.5], time=[2, 3, 4], origin=[1, 1, 3],
                                     train_size=train_size)


def test_two_forecasts_of_one_row_from_one_origin_are_refused_naming_the_first_pair():
    """Issue 58: from_forecasts took two forecasts of row 3 from origin 1 (one model's forecast counted twice)."""
    y = [1.0, 2.0, 3.0, 5.0, 4.0, 6.0]
    with pytest.raises(ValueError, match=r"^forecasts 1 and 3 are both of row 3 from origin 1 \(split 0\); a model "
                                         r"forecasts a row once"):
        ForwardResult.from_forecasts(y, [2.5, 4.0, 4.5, 3.0], time=[2, 3, 4, 3], origin=[1, 1, 3, 1], train_size=2)
    with pytest.raises(ValueError, match=r"^forecasts 0 and 1 are both of row 4"):
        ForwardResult(y=y, time=[4, 4], fold=[0, 0], y_pred=[1.0, 2.0], origin=[3], train_size=[2])
    kept = ForwardResult.from_forecasts(y, [2.5, 4.0, 4.5, 3.0], time=[2, 3, 4, 3], origin=[1, 1, 3, 2], train_size=2)
    assert kept.horizon.tolist() == [1, 2, 1, 1]  # one row forecast from two origins is two forecasts
