"""The evaluator hands the groups it is given to the records it returns, on every path (issue 30, item 1).

The oracle is the ``groups`` argument itself: every record made with it must hold exactly those labels, in
row order, whatever path made the predictions (the refits, the leave-one-out shortcut, a joblib pool,
compare), and the folds must still be the splitter's (sklearn's ``GroupKFold`` through
``cross_val_predict``'s own splits).
"""

import numpy as np
import pytest
from sklearn.datasets import load_iris
from sklearn.model_selection import GroupKFold, LeaveOneGroupOut, cross_val_predict
from sklearn.naive_bayes import GaussianNB
from sklearn.neighbors import KNeighborsClassifier
from sklearn.tree import DecisionTreeClassifier

import cvinference as cvi


class CountedNB(GaussianNB):
    """GaussianNB that counts its fits, to show that bad groups are refused before any fit."""

    fits = 0

    def fit(self, X, y, sample_weight=None):
        type(self).fits += 1
        return super().fit(X, y, sample_weight=sample_weight)


@pytest.fixture(scope="module")
def data():
    X, y = load_iris(return_X_y=True)
    groups = np.array([f"patient {i // 5:02d}" for i in range(150)])  # 30 patients of 5 rows each
    return X, y, groups


def _assert_keeps(result, groups):
    np.testing.assert_array_equal(result.groups, groups)
    assert result.n_groups == np.unique(groups).size and not result.groups.flags.writeable


def test_cross_val_correctness_keeps_the_groups_and_the_splitters_folds(data):
    X, y, groups = data
    result = cvi.cross_val_correctness(GaussianNB(), X, y, cv=GroupKFold(5), groups=groups)
    _assert_keeps(result, groups)
    expected = cross_val_predict(GaussianNB(), X, y, cv=GroupKFold(5), groups=groups)
    np.testing.assert_array_equal(result.y_pred[0], expected)
    for g in np.unique(groups):  # GroupKFold keeps each patient in one fold
        assert np.unique(result.fold[0][groups == g]).size == 1


def test_a_record_made_without_groups_has_none(data):
    X, y, _ = data
    assert cvi.cross_val_correctness(GaussianNB(), X, y, cv=5, random_state=0).groups is None


@pytest.mark.slow
@pytest.mark.parametrize("n_jobs", [1, 2])
def test_evaluate_and_compare_keep_the_groups_with_any_n_jobs(data, n_jobs):
    X, y, groups = data
    evaluator = cvi.CVEvaluator(GroupKFold(3, shuffle=True), n_repeats=2, random_state=0, n_jobs=n_jobs,
                                cheap_fit_seconds=0)
    result = evaluator.evaluate(DecisionTreeClassifier(random_state=0), X, y, groups)
    _assert_keeps(result, groups)
    pair = evaluator.compare(GaussianNB(), DecisionTreeClassifier(random_state=0), X, y, groups=list(groups))
    _assert_keeps(pair.a, groups)
    _assert_keeps(pair.b, groups)
    assert result == cvi.CVEvaluator(GroupKFold(3, shuffle=True), n_repeats=2, random_state=0).evaluate(
        DecisionTreeClassifier(random_state=0), X, y, groups)


def test_the_leave_one_out_shortcut_keeps_the_groups(data, monkeypatch):
    from cvinference.evaluation import _evaluator

    X, y, groups = data
    calls = []
    real = _evaluator.fast_loo_predictions
    monkeypatch.setattr(_evaluator, "fast_loo_predictions", lambda *a, **k: calls.append(1) or real(*a, **k))
    shortcut = cvi.cross_val_correctness(KNeighborsClassifier(3), X, y, cv="loo", groups=groups)
    assert calls, "the leave-one-out shortcut was not taken"
    _assert_keeps(shortcut, groups)
    assert shortcut == cvi.cross_val_correctness(KNeighborsClassifier(3), X, y, cv="loo", groups=groups,
                                                 fast_loo=False)


def test_leave_one_group_out_and_a_regression_loss_keep_the_groups(data):
    X, y, groups = data
    result = cvi.cross_val_correctness(GaussianNB(), X, y, cv=LeaveOneGroupOut(), groups=groups)
    assert result.n_splits == 30
    _assert_keeps(result, groups)
    from sklearn.linear_model import LinearRegression

    regression = cvi.cross_val_correctness(LinearRegression(), X[:, 1:], X[:, 0], cv=GroupKFold(5), groups=groups,
                                           loss="squared_error")
    _assert_keeps(regression, groups)


def test_pandas_groups_are_kept_by_value(data):
    pd = pytest.importorskip("pandas")
    X, y, groups = data
    series = pd.Series(groups, index=np.arange(150) + 1000)
    _assert_keeps(cvi.cross_val_correctness(GaussianNB(), X, y, cv=GroupKFold(5), groups=series), groups)


@pytest.mark.parametrize("bad, match", [
    (np.r_[np.zeros(149), np.nan], r"groups contains NaN, infinity or None in 1 of 150 entries \(first at index 149\)"),
    (np.zeros((150, 2)), r"groups must be 1-d, one group label per instance; got groups of shape \(150, 2\)"),
    (np.zeros(10), r"groups has 10 entries but X has 150 rows"),
])
def test_bad_groups_are_refused_before_any_fit(data, bad, match):
    X, y, _ = data
    CountedNB.fits = 0
    with pytest.raises(ValueError, match=match):
        cvi.cross_val_correctness(CountedNB(), X, y, cv=GroupKFold(5), groups=bad)
    with pytest.raises(ValueError, match=match):
        cvi.CVEvaluator(GroupKFold(5)).compare(CountedNB(), CountedNB(), X, y, groups=bad)
    assert CountedNB.fits == 0
