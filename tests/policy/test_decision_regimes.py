"""decide() dispatches through a table of regimes (issue 59, item 5): the first row whose predicate holds decides,
each regime lives in a module of its own, and decide's Notes list the rows in the table's order. Oracle: which row
decides each kind of pair, as decide's own Notes and the regimes' modules state it."""

import re
import warnings

import numpy as np
import pytest
from sklearn.dummy import DummyRegressor
from sklearn.linear_model import LogisticRegression, Ridge
from sklearn.model_selection import GroupKFold
from sklearn.naive_bayes import GaussianNB

import cvinference as cvi
from cvinference.policy import _regimes
from cvinference.splitters import ForwardSplit

RNG = np.random.default_rng(0)
X = RNG.standard_normal((120, 3))
LABELS = (X[:, 0] + RNG.standard_normal(120) > 0).astype(int)
TARGET = X @ [1.0, 2.0, 0.0] + RNG.standard_normal(120)
GROUPS = np.arange(120) // 4


def _quiet(function, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return function(*args, **kwargs)


def _classifiers():
    evaluator = cvi.CVEvaluator(5, random_state=0, response_method="auto")
    return _quiet(evaluator.compare, GaussianNB(), LogisticRegression(), X, LABELS)


def _grouped():
    return _quiet(cvi.CVEvaluator(GroupKFold(5)).compare, GaussianNB(), LogisticRegression(), X, LABELS,
                  groups=GROUPS)


def _regressors():
    return _quiet(cvi.CVEvaluator(5, random_state=0, loss="squared_error").compare, Ridge(), DummyRegressor(), X,
                  TARGET)


def _forward():
    evaluator = cvi.CVEvaluator(cv=ForwardSplit(10, horizon=2, window=60), loss="squared_error")
    return _quiet(evaluator.compare, Ridge(), DummyRegressor(), X, TARGET)


def _single_set():
    return cvi.PairedCVResult(cvi.CVResult.from_predictions(LABELS, np.zeros(120, int), name="zeros"),
                              cvi.CVResult.from_predictions(LABELS, LABELS, name="oracle"))


def _notes():
    """decide's Notes, as the numbered regimes they list: (name, description) in order."""
    notes = cvi.decide.__doc__.split("Notes\n    -----\n")[1].split("Examples\n    --------")[0]
    items = re.findall(r"^ {4}\d+\. \*\*(.+?)\*\*: (.+?)\.\n(?= {4}\d+\. |\n|$)", notes, flags=re.M | re.S)
    return [(name, " ".join(description.split())) for name, description in items]


def test_the_notes_list_the_table_rows_in_order():
    assert _notes() == [(row.name, row.description) for row in _regimes.REGIMES]
    assert len(_notes()) == len(_regimes.REGIMES) >= 8


def test_each_regime_is_a_module_of_its_own_and_the_last_row_takes_every_request():
    modules = [row.decide.__module__ for row in _regimes.REGIMES]
    assert len(set(modules)) == len(modules) and all(m.startswith("cvinference.policy._regimes._") for m in modules)
    assert len({row.name for row in _regimes.REGIMES}) == len(_regimes.REGIMES)
    assert _regimes.REGIMES[-1].applies(None)


@pytest.mark.parametrize("make, kwargs, rows", [
    (_classifiers, {}, ["labels"]),
    (_classifiers, {"metric": "balanced_accuracy"}, ["labels"]),
    (_classifiers, {"metric": "roc_auc"}, ["scores"]),
    (_classifiers, {"margin": 0.05}, ["margin", "labels"]),
    (_grouped, {}, ["grouped"]),
    (_regressors, {}, ["regression"]),
    (_regressors, {"metric": "r2"}, ["loss equivalent", "regression"]),
    (_single_set, {}, ["one evaluation set"]),
    (_forward, {}, ["forward"]),
])
def test_the_first_row_that_applies_decides(monkeypatch, make, kwargs, rows):
    pair, decided = make(), []

    def spied(row):
        def decide(request, again):
            decided.append(row.name)
            return row.decide(request, again)
        return row._replace(decide=decide)

    expected = _quiet(cvi.decide, pair, **kwargs)
    monkeypatch.setattr(_regimes, "REGIMES", tuple(spied(row) for row in _regimes.REGIMES))
    found = _quiet(cvi.decide, pair, **kwargs)
    assert decided == rows
    assert found.to_dict() == expected.to_dict()


def test_a_row_added_at_the_top_decides_before_every_other(monkeypatch):
    sentinel = object()
    row = _regimes.Regime("always", "a row that takes every request", lambda request: True,
                          lambda request, again: sentinel)
    monkeypatch.setattr(_regimes, "REGIMES", (row, *_regimes.REGIMES))
    assert _quiet(cvi.decide, _single_set()) is sentinel
