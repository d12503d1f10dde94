"""ForwardSplit (issue 48): scikit-learn's TimeSeriesSplit where they overlap, plus a step between origins and a
sliding window of fixed size. Oracle: TimeSeriesSplit's own splits."""

import itertools
import warnings

import numpy as np
import pandas as pd
import pytest
from sklearn.linear_model import Ridge
from sklearn.model_selection import GridSearchCV, TimeSeriesSplit, cross_validate

from cvinference.splitters import ForwardSplit

X = np.arange(60.0).reshape(-1, 1)


def _splits(cv, data=X):
    return [(train.tolist(), test.tolist()) for train, test in cv.split(data)]


@pytest.mark.parametrize("n_splits, horizon, gap", itertools.product([2, 3, 5, 9], [None, 1, 4], [0, 3]))
def test_the_defaults_are_time_series_split(n_splits, horizon, gap):
    assert _splits(ForwardSplit(n_splits, horizon=horizon, gap=gap)) == _splits(
        TimeSeriesSplit(n_splits, test_size=horizon, gap=gap))


@pytest.mark.parametrize("window", [5, 12])
def test_a_sliding_window_is_time_series_splits_capped_window_when_the_first_split_has_it(window):
    expected = _splits(TimeSeriesSplit(4, test_size=6, max_train_size=window))
    assert _splits(ForwardSplit(4, horizon=6, window=window)) == expected
    assert {len(train) for train, _ in expected} == {window}


def test_origins_a_step_apart_forecast_a_row_at_several_horizons():
    splits = _splits(ForwardSplit(3, horizon=4, step=2, window=10))
    assert splits == [(list(range(42, 52)), [52, 53, 54, 55]), (list(range(44, 54)), [54, 55, 56, 57]),
                      (list(range(46, 56)), [56, 57, 58, 59])]


def test_the_splitter_drops_into_scikit_learn_with_numpy_lists_and_pandas():
    y = np.sin(X[:, 0] / 4)
    cv = ForwardSplit(4, horizon=5, window=20)
    for data in (X, X.tolist(), pd.DataFrame(X, columns=["t"])):
        scores = cross_validate(Ridge(), data, y, cv=cv, return_indices=True)
        assert [test.tolist() for test in scores["indices"]["test"]] == [test for _, test in _splits(cv)]
    assert GridSearchCV(Ridge(), {"alpha": [0.1, 1.0]}, cv=cv).fit(X, y).n_splits_ == 4
    assert cv.get_n_splits(X) == len(_splits(cv)) == 4
    assert repr(cv) == "ForwardSplit(gap=0, horizon=5, n_splits=4, step=None, window=20)"
    assert isinstance(cv, TimeSeriesSplit)


@pytest.mark.parametrize("kwargs, message", [
    ({"n_splits": 1}, r"n_splits must be an integer >= 2; got n_splits=1"),
    ({"horizon": 0}, r"horizon must be an integer >= 1, or None; got horizon=0"),
    ({"gap": -1}, r"gap must be an integer >= 0; got gap=-1"),
    ({"window": 2.5}, r"window must be an integer >= 1, or None; got window=2.5"),
])
def test_bad_parameters_are_refused_when_made(kwargs, message):
    with pytest.raises((ValueError, TypeError), match=message):
        ForwardSplit(**kwargs)


@pytest.mark.parametrize("cv, message", [
    (ForwardSplit(12, horizon=5), r"Too many splits n_splits=12 for n_samples=60 with horizon=5, step=5 and gap=0: "
                                  r"the first split's forecasts start at row 0, which leaves 0 rows"),
    (ForwardSplit(5, horizon=5, window=40), r"leaves 35 rows before the gap for a window of 40 rows"),
    (ForwardSplit(60), r"the default horizon n_samples // \(n_splits \+ 1\) is 0"),
])
def test_a_series_too_short_for_the_splits_is_refused_naming_the_fix(cv, message):
    with pytest.raises(ValueError, match=message):
        _splits(cv)


def test_groups_are_ignored_with_time_series_splits_warning():
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert _splits(ForwardSplit(3)) == [(train.tolist(), test.tolist())
                                            for train, test in ForwardSplit(3).split(X, groups=np.zeros(60))]
    assert [str(w.message) for w in caught] == ["The groups parameter is ignored by ForwardSplit"]
