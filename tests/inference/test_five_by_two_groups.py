"""5x2cv with groups (issue 30, item 2): halves of whole groups, Dietterich's and Alpaydin's formulas unchanged.

Oracles: the documented splits, rebuilt here (five int32 seeds drawn from
``check_random_state(random_state)``, replication i on
``StratifiedEqualSizeGroupKFold(2, shuffle=True, random_state=seed_i)``), the
accuracies of plain ``clone(...).fit`` on them, and Dietterich's (1998,
section 3.5) t and Alpaydin's (1999) F written out in
tests/inference/test_five_by_two.py.
"""

import joblib
import numpy as np
import pytest
from scipy import stats
from sklearn.base import clone
from sklearn.naive_bayes import GaussianNB
from sklearn.tree import DecisionTreeClassifier
from sklearn.utils import check_random_state
from test_five_by_two import alpaydin_f, dietterich_t

import cvinference as cvi

TESTS = (cvi.paired_ttest_5x2cv, cvi.combined_ftest_5x2cv)


@pytest.fixture(scope="module")
def data():
    """20 patients of 6 rows, a patient effect in the features and the label."""
    rng = np.random.default_rng(0)
    groups = np.repeat([f"p{g:02d}" for g in range(20)], 6)
    X = rng.normal(size=(groups.size, 3)) + np.repeat(rng.normal(size=(20, 3)), 6, axis=0)
    y = (X[:, 0] + np.repeat(rng.normal(0, 1.0, 20), 6) + rng.normal(0, 0.5, groups.size) > 0).astype(int)
    return X, y, groups


def tree():
    return DecisionTreeClassifier(max_depth=2, random_state=0)


def oracle_splits(X, y, groups, random_state):
    seeds = check_random_state(random_state).randint(np.iinfo(np.int32).max, size=5)
    return [list(cvi.StratifiedEqualSizeGroupKFold(2, shuffle=True, random_state=int(s)).split(X, y, groups))
            for s in seeds]


def test_no_group_is_in_both_halves_and_the_record_keeps_the_groups(data):
    X, y, groups = data
    pair = cvi.evaluation.five_by_two_cv(tree(), GaussianNB(), X, y, groups=groups, random_state=0, n_jobs=1)
    np.testing.assert_array_equal(pair.a.groups, groups)
    assert (pair.a.n_repeats, pair.a.n_splits) == (5, 2)
    for fold in pair.a.fold:
        assert not set(groups[fold == 0]) & set(groups[fold == 1])
    assert pair.a.cv_repr.startswith("StratifiedEqualSizeGroupKFold(n_splits=2")


@pytest.mark.parametrize("random_state", [0, 3])
def test_the_statistics_are_dietterichs_and_alpaydins_on_the_documented_group_halves(data, random_state):
    X, y, groups = data
    splits = oracle_splits(X, y, groups, random_state)

    def accuracies(estimator):
        return np.array([[np.count_nonzero(clone(estimator).fit(X[train], y[train]).predict(X[test]) == y[test])
                          / len(test) for train, test in replication] for replication in splits])

    p = (accuracies(tree()) - accuracies(GaussianNB())).tolist()
    t = cvi.paired_ttest_5x2cv(tree(), GaussianNB(), X, y, groups=groups, random_state=random_state, n_jobs=1)
    f = cvi.combined_ftest_5x2cv(tree(), GaussianNB(), X, y, groups=groups, random_state=random_state, n_jobs=1)
    np.testing.assert_array_equal(t.details["differences"], p)
    assert t.statistic == pytest.approx(dietterich_t(p)[0], rel=1e-12)
    assert t.pvalue == pytest.approx(2 * stats.t.sf(abs(dietterich_t(p)[0]), 5), rel=1e-10)
    assert f.statistic == pytest.approx(alpaydin_f(p), rel=1e-12)
    for test in (t, f):
        assert "groups independent of one another" in test.assumptions
        assert "whole groups (StratifiedEqualSizeGroupKFold)" in test.notes[0]


@pytest.mark.parametrize("function", TESTS)
def test_same_seed_same_result_for_one_and_two_jobs(data, function):
    X, y, groups = data
    one = function(tree(), GaussianNB(), X, y, groups=groups, random_state=11, n_jobs=1)
    with joblib.parallel_config(backend="threading"):
        two = function(tree(), GaussianNB(), X, y, groups=groups, random_state=11, n_jobs=2)
    assert one == two


@pytest.mark.filterwarnings("ignore:The groups parameter is ignored:UserWarning")
def test_halves_that_split_groups_warn(data):
    X, y, groups = data
    pair = cvi.CVEvaluator(cvi.StratifiedEqualSizeKFold(2, shuffle=True), n_repeats=5, random_state=0).compare(
        tree(), GaussianNB(), X, y, groups=groups)
    with pytest.warns(cvi.InferenceWarning, match=r"The folds split some of the result's groups, so the 5x2cv test"):
        test = cvi.inference.paired_ttest_5x2cv_of(pair)
    assert any("split some of the result's groups" in text for text in test.warnings)


def test_too_few_groups_for_two_halves_are_refused(data):
    X, y, _ = data
    with pytest.raises(ValueError, match=r"groups holds 1 group: 5x2cv halves the data into whole groups"):
        cvi.paired_ttest_5x2cv(tree(), GaussianNB(), X, y, groups=np.zeros(y.size, dtype=int), random_state=0)
