"""Issue 45, item 8: the margin of practical equivalence (margin) of compare_candidates is on the metric's scale.

Oracles:
- the Bayesian correlated t's posterior (Corani & Benavoli 2015; Benavoli et al. 2017, JMLR 18(77), section 3)
  computed here with ``scipy.stats.t`` from the split scores: a Student t with N - 1 degrees of freedom, location
  mean(d) and scale s_d sqrt(1 / N + rho / (1 - rho)), rho = 1 / k, for d = score(candidate) - score(best);
- each candidate's mean loss read back from the search's split scores, negated again (scikit-learn's scorers
  negate a loss, so the best candidate must be the one of the lowest mean loss);
- the documented defaults (``docs/model-selection.md``): 0.01 for a score on a proportion's scale, 1% of the best
  candidate's mean loss for a negated loss, none for a score of unknown scale.
"""

import json
import math
import warnings

import numpy as np
import pytest
from scipy import stats
from sklearn.datasets import load_breast_cancer, make_regression
from sklearn.linear_model import Ridge
from sklearn.metrics import make_scorer, mean_absolute_error
from sklearn.model_selection import GridSearchCV, RepeatedKFold, RepeatedStratifiedKFold
from sklearn.tree import DecisionTreeClassifier

import cvinference as cvi
from cvinference.model_selection import SimplestIndistinguishable
from cvinference.model_selection._margins import resolved_margin, scale_of
from cvinference.results import CandidateComparison


def quiet(function, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", cvi.InferenceWarning)
        return function(*args, **kwargs)


def posterior_by_hand(scores, candidate, best, k, margin):
    """P(mu < -margin): the best is better by more than ``margin`` (Corani & Benavoli 2015), with scipy."""
    d = scores[candidate] - scores[best]
    n = d.size
    rho = 1 / k
    scale = np.std(d, ddof=1) * math.sqrt(1 / n + rho / (1 - rho))
    return stats.t.cdf(-margin, n - 1, d.mean(), scale)


def split_matrix(search, key="score"):
    columns = sorted((name for name in search.cv_results_ if name.startswith("split") and
                      name.endswith(f"_test_{key}")), key=lambda name: int(name[5:].split("_")[0]))
    return np.column_stack([search.cv_results_[name] for name in columns])


@pytest.fixture(scope="module")
def regression_search():
    """A ridge grid on a target of small scale (its squared errors are far below 0.01), as in the issue."""
    X, y = make_regression(n_samples=200, n_features=10, noise=1.0, random_state=0)
    y = 0.05 * y / y.std()
    cv = RepeatedKFold(n_splits=5, n_repeats=2, random_state=0)
    return GridSearchCV(Ridge(), {"alpha": [0.01, 3.0, 30.0, 300.0]}, cv=cv,
                        scoring="neg_mean_squared_error").fit(X, y)


def test_the_squared_error_repro_p_best_better_agrees_with_the_adjusted_p(regression_search):
    comparison = quiet(cvi.compare_candidates, regression_search)
    table, settings = comparison.table, comparison.settings
    best = comparison.best
    assert comparison.candidates[best] == "alpha=0.01"
    scores = split_matrix(regression_search)
    assert settings["margin"] == pytest.approx(0.01 * abs(scores[best].mean()))  # 1% of the best's mean loss
    clear = [i for i in range(len(table["pvalue"])) if i != best and table["pvalue_adjusted"][i] < 1e-3]
    assert len(clear) >= 2
    for i in clear:  # a huge difference: both readings say the best is better
        assert table["prob_best_better"][i] > 0.99
        assert table["prob_best_better"][i] == pytest.approx(
            posterior_by_hand(scores, i, best, 5, settings["margin"]), rel=1e-9, abs=1e-12)
    fixed = quiet(cvi.compare_candidates, regression_search, margin=0.01)  # the old fixed margin, in squared units
    assert all(fixed.table["prob_best_better"][i] < 0.5 for i in clear)  # said the opposite of the adjusted p


@pytest.mark.parametrize("scoring", ["neg_mean_absolute_error", "user loss"])
def test_a_loss_counts_lower_as_better(regression_search, scoring):
    """The best candidate has the lowest mean loss, and P(best better) is the probability that its loss is lower."""
    X, y = make_regression(n_samples=200, n_features=10, noise=1.0, random_state=0)
    scorer = scoring if scoring != "user loss" else make_scorer(mean_absolute_error, greater_is_better=False)
    cv = RepeatedKFold(n_splits=5, n_repeats=2, random_state=0)
    search = GridSearchCV(Ridge(), {"alpha": [0.01, 30.0, 3000.0]}, cv=cv, scoring=scorer).fit(X, y)
    comparison = quiet(cvi.compare_candidates, search)
    losses = -split_matrix(search)  # each candidate's mean absolute error on each split
    best = comparison.best
    assert best == int(np.argmin(losses.mean(axis=1))) == 0
    assert np.all(comparison.table["mean_score"] == pytest.approx(-losses.mean(axis=1)))
    worst = int(np.argmax(losses.mean(axis=1)))
    assert comparison.table["prob_best_better"][worst] > 0.99  # the best's loss is lower
    assert comparison.table["prob_candidate_better"][worst] < 0.01
    margin = comparison.settings["margin"]
    if scoring == "user loss":  # a callable scorer: no default margin, P(best better) is P(difference > 0)
        assert margin == 0.0 and "none" in comparison.settings["margin_rule"]
        assert np.all(comparison.table["prob_equivalent"][np.arange(3) != best] == 0)
    else:
        assert margin == pytest.approx(0.01 * losses[best].mean()) and margin > 0
    assert comparison.table["prob_best_better"][worst] == pytest.approx(
        posterior_by_hand(-losses, worst, best, 5, margin), rel=1e-9, abs=1e-12)


@pytest.mark.parametrize(("scoring", "scale"), [
    ("accuracy", "bounded"), ("balanced_accuracy", "bounded"), ("roc_auc", "bounded"), ("roc_auc_ovr", "bounded"),
    ("f1_macro", "bounded"), ("precision", "bounded"), ("recall_weighted", "bounded"), ("jaccard", "bounded"),
    ("average_precision", "bounded"), ("r2", "bounded"), ("matthews_corrcoef", "bounded"),
    ("neg_mean_squared_error", "loss"), ("neg_root_mean_squared_error", "loss"), ("neg_log_loss", "loss"),
    ("neg_mean_absolute_error", "loss"), ("max_error", "loss"), ("score", None), ("my_metric", None)])
def test_the_default_margin_of_each_metric(scoring, scale):
    assert scale_of(scoring) == scale
    margin = resolved_margin("auto", scoring, -2.5)
    expected = {"bounded": 0.01, "loss": 0.025, None: 0.0}[scale]
    assert margin.value == pytest.approx(expected)
    assert margin.rule.startswith("none" if scale is None else f"{expected:.4g} in {scoring}")
    assert resolved_margin(0.3, scoring, -2.5) == (0.3, f"0.3 in {scoring}, as given")
    assert resolved_margin(None, scoring, -2.5).value == 0.0


def test_the_summary_shows_the_margin(regression_search):
    comparison = quiet(cvi.compare_candidates, regression_search)
    text = " ".join(comparison.summary().split())
    margin = comparison.settings["margin"]
    assert (f"by more than the margin {margin:.4g} in neg_mean_squared_error, the default for a negated loss: "
            "1% of the best candidate's mean loss") in text
    assert "-0.0000" not in text  # the differences in squared units show their digits
    i = next(i for i in range(4) if i != comparison.best)
    assert f"{comparison.table['estimate'][i]:+.3e}" in text
    given = " ".join(quiet(cvi.compare_candidates, regression_search, margin=1e-5, method="bayesian").summary().split())
    assert "margin 1e-05 in neg_mean_squared_error, as given" in given
    assert "P(best better by more than 1e-05) < 0.95" in given


@pytest.fixture(scope="module")
def tree_search():
    X, y = load_breast_cancer(return_X_y=True)
    cv = RepeatedStratifiedKFold(n_splits=5, n_repeats=2, random_state=0)
    return GridSearchCV(DecisionTreeClassifier(random_state=0), {"max_depth": [1, 3, None]}, cv=cv).fit(X, y)


def test_accuracy_keeps_its_default_of_one_percentage_point(tree_search):
    comparison = quiet(cvi.compare_candidates, tree_search)
    assert comparison.settings["margin"] == 0.01
    assert CandidateComparison.from_dict(json.loads(comparison.to_json())) == comparison
    assert "0.01 in accuracy, the default for a score on a proportion's scale" in " ".join(
        comparison.summary().split())
    explicit = quiet(cvi.compare_candidates, tree_search, margin=0.01)
    np.testing.assert_array_equal(explicit.table["prob_best_better"], comparison.table["prob_best_better"])
    assert explicit.settings["margin_rule"] == "0.01 in accuracy, as given"


@pytest.mark.parametrize(("margin", "error"), [("fixed", ValueError), (-0.1, ValueError), (math.inf, ValueError),
                                             ("0.01", ValueError)])
def test_a_bad_margin_is_refused_by_name(tree_search, margin, error):
    with pytest.raises(error, match=r"margin must be 'auto', a finite number >= 0.* or None \(no margin\); got "
                                    r"margin="):
        cvi.compare_candidates(tree_search, margin=margin)


def test_the_refit_rule_takes_the_default_margin(regression_search):
    rule = SimplestIndistinguishable("alpha", cv=regression_search.cv, method="bayesian")
    assert rule.margin == "auto"
    chosen = quiet(rule, regression_search.cv_results_)
    comparison = quiet(cvi.compare_candidates, regression_search, method="bayesian")
    assert comparison.table["indistinguishable"][chosen]


@pytest.mark.parametrize(("field", "value", "error", "words"), [
    ("scoring", 5, TypeError, "settings['scoring'] must be a non-empty string"),
    ("scoring", None, TypeError, "settings['scoring'] must be a non-empty string"),
    ("scoring", ["accuracy"], TypeError, "got CandidateComparison.settings['scoring']=['accuracy']"),
    ("margin", "x", TypeError, "settings['margin'] must be a number >= 0"),
    ("margin", [0.01], TypeError, "got CandidateComparison.settings['margin']=[0.01]"),
])
def test_a_tampered_dict_is_refused_by_name(tree_search, field, value, error, words):
    """A scoring or margin of another type is refused by the decoding, naming the field (issue 58 found a crash,
    "'int' object has no attribute 'startswith'", where a reader formatted them first)."""
    data = json.loads(quiet(cvi.compare_candidates, tree_search).to_json())
    data["settings"]["mapping"][field] = value
    with pytest.raises(error, match="CandidateComparison") as raised:
        CandidateComparison.from_dict(data)
    assert words in str(raised.value)


def test_a_name_that_is_not_a_string_has_no_known_scale():
    assert [scale_of(value) for value in (5, None, ["accuracy"], "accuracy", "neg_log_loss")] == [
        None, None, None, "bounded", "loss"]
