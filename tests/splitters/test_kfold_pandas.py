"""The splitters with pandas inputs: DataFrames, Series and categorical labels."""

import numpy as np
import pytest
from sklearn.model_selection import GridSearchCV

from cvinference import EqualSizeKFold, StratifiedEqualSizeKFold
from cvinference.splitters import RandomAssignmentKFold, RemainderLastKFold

from test_kfold import make_pipe, splits_equal

pd = pytest.importorskip("pandas")


def test_stratified_continuous_series_target_raises():
    cv = StratifiedEqualSizeKFold(3, random_state=0)
    with pytest.raises(ValueError, match="Got 'continuous' instead"):
        list(cv.split(np.zeros((12, 1)), pd.Series(np.arange(12) / 7.0)))


def test_input_types_lists_numpy_pandas_give_same_splits(iris):
    X, y = iris
    names = np.array(["setosa", "versicolor", "virginica"])[y]
    X_df = pd.DataFrame(X, columns=["a", "b", "c", "d"])
    y_series = pd.Series(names)
    y_cat = pd.Series(pd.Categorical(names))

    for make in (EqualSizeKFold, RemainderLastKFold, RandomAssignmentKFold):
        cv = make(5, random_state=3)
        ref = list(cv.split(X))
        for X_in in (X.tolist(), X_df):
            assert splits_equal(list(cv.split(X_in)), ref), (make, type(X_in))

    cv = StratifiedEqualSizeKFold(5, random_state=3)
    ref = list(cv.split(X, y))
    for X_in, y_in in [
        (X.tolist(), y.tolist()),
        (X_df, pd.Series(y)),
        (X, names),
        (X_df, y_series),
        (X_df, y_cat),
        (X.tolist(), names.tolist()),
    ]:
        assert splits_equal(list(cv.split(X_in, y_in)), ref), (type(X_in), type(y_in))


@pytest.mark.parametrize("labels", ["str", "categorical"])
def test_grid_search_with_pandas_string_and_categorical_labels(iris, labels):
    X, y = iris
    names = np.array(["setosa", "versicolor", "virginica"])[y]
    y_in = pd.Series(names) if labels == "str" else pd.Series(pd.Categorical(names))
    X_df = pd.DataFrame(X, columns=["a", "b", "c", "d"])
    cv = StratifiedEqualSizeKFold(5, random_state=0)
    search = GridSearchCV(make_pipe(), {"logisticregression__C": [1.0]}, cv=cv).fit(X_df, y_in)
    # same folds as with integer labels -> same split scores as numpy input
    ref = GridSearchCV(make_pipe(), {"logisticregression__C": [1.0]}, cv=cv).fit(X, y)
    for j in range(5):
        assert search.cv_results_[f"split{j}_test_score"][0] == pytest.approx(
            ref.cv_results_[f"split{j}_test_score"][0]
        )
    assert set(search.predict(X_df)) <= set(names)
