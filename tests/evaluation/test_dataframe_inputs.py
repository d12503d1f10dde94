"""pandas and polars inputs (issue 47, item 5): wherever scikit-learn takes them, the records equal numpy's."""

import warnings

import numpy as np
import pytest
from sklearn.datasets import load_breast_cancer
from sklearn.naive_bayes import GaussianNB
from sklearn.tree import DecisionTreeClassifier

import cvinference as cvi

X, Y = load_breast_cancer(return_X_y=True)
X = X[:, :5]
GROUPS = np.arange(Y.size) // 5


def _frames(library):
    if library == "pandas":
        pd = pytest.importorskip("pandas")
        return pd.DataFrame(X, columns=[f"x{i}" for i in range(5)]), pd.Series(Y), pd.Series(GROUPS)
    pl = pytest.importorskip("polars")
    return pl.DataFrame(X, schema=[f"x{i}" for i in range(5)]), pl.Series("y", Y), pl.Series("g", GROUPS)


@pytest.mark.parametrize("library", ["pandas", "polars"])
def test_frames_give_numpys_records_and_answers(library):
    frame, target, groups = _frames(library)
    tree = DecisionTreeClassifier(max_depth=3, random_state=0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        expected = cvi.CVEvaluator(5, random_state=0).compare(GaussianNB(), tree, X, Y, GROUPS)
        given = cvi.CVEvaluator(5, random_state=0).compare(GaussianNB(), tree, frame, target, groups)
        front = cvi.compare(GaussianNB(), tree, frame, target, cv=5, random_state=0, nested="never")
        plain = cvi.compare(GaussianNB(), tree, X, Y, cv=5, random_state=0, nested="never")
    for mine, theirs in ((given.a, expected.a), (given.b, expected.b)):
        np.testing.assert_array_equal(mine.fold, theirs.fold)
        np.testing.assert_array_equal(mine.y_pred, theirs.y_pred)
        np.testing.assert_array_equal(mine.groups, theirs.groups)
    assert front.decision.answer == plain.decision.answer and front.decision.difference == plain.decision.difference
