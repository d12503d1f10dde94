"""Messages that name a fix that exists (issue 46, "Unclear"): the pooled DeLong interval as metric_interval's
method, one group, and a loss's scorer name with its neg_ prefix among the kept scores' metrics."""

import warnings

import numpy as np
import pytest
from sklearn.datasets import load_breast_cancer
from sklearn.model_selection import KFold
from sklearn.naive_bayes import GaussianNB
from sklearn.tree import DecisionTreeClassifier

import cvinference as cvi
from cvinference.splitters import EqualSizeGroupKFold

X, Y = load_breast_cancer(return_X_y=True)


def _quiet(function, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return function(*args, **kwargs)


def test_a_fold_without_a_class_points_to_the_delong_method_that_exists():
    order = np.argsort(Y, kind="stable")  # unshuffled folds of sorted labels: the first fold holds one class
    record = _quiet(cvi.CVEvaluator(KFold(5), response_method="predict_proba").evaluate, GaussianNB(), X[order],
                    Y[order])
    with pytest.raises(ValueError, match=r"metric_interval\(result, 'roc_auc', method='delong'\)") as found:
        _quiet(cvi.metric_interval, record, "roc_auc")
    assert "delong_interval" not in str(found.value)
    assert _quiet(cvi.metric_interval, record, "roc_auc", method="delong").method.startswith("delong")


def test_one_group_says_that_two_are_needed():
    with pytest.raises(ValueError, match="groups holds 1 group: k-fold over groups puts whole groups in each test "
                                         "fold and needs at least 2 groups"):
        list(EqualSizeGroupKFold(2).split(X, Y, groups=np.zeros(len(Y))))


def test_a_losss_name_without_neg_is_pointed_to_its_scorer():
    pair = _quiet(cvi.CVEvaluator(5, random_state=0, response_method="predict_proba").compare, GaussianNB(),
                  DecisionTreeClassifier(max_depth=2, random_state=0), X, Y)
    with pytest.raises(ValueError, match=r"from the record's kept scores: roc_auc, .*neg_log_loss.* \(did you mean "
                                         r"'neg_log_loss'\?"):
        cvi.decide(pair, metric="log_loss")
