"""compare_candidates, the refit rules and tuning_interval against independent computations."""

import json
import math
import pickle
import warnings

import numpy as np
import pytest
from scipy import stats
from sklearn.datasets import make_classification
from sklearn.exceptions import NotFittedError
from sklearn.linear_model import Ridge
from sklearn.model_selection import (
    GridSearchCV,
    KFold,
    LeaveOneOut,
    RepeatedStratifiedKFold,
    ShuffleSplit,
    StratifiedKFold,
)
from sklearn.tree import DecisionTreeClassifier

import cvinference as cvi
from cvinference import InferenceWarning, compare_candidates
from cvinference.model_selection._split_scores import Layout, scores_from_cv_results
from cvinference.results import CandidateComparison

GRID = {"max_depth": [1, 2, 4, None]}


@pytest.fixture(scope="module")
def data():
    return make_classification(n_samples=300, n_features=8, n_informative=4, random_state=0)


@pytest.fixture(scope="module")
def search(data):
    X, y = data
    cv = RepeatedStratifiedKFold(n_splits=10, n_repeats=3, random_state=0)
    return GridSearchCV(DecisionTreeClassifier(random_state=0), GRID, cv=cv).fit(X, y)


def _split_matrix(search):
    n = search.n_splits_
    return np.array([[search.cv_results_[f"split{i}_test_score"][c] for i in range(n)]
                     for c in range(len(search.cv_results_["params"]))])


def _sklearn_example_ttest(differences, n_train, n_test):
    """scikit-learn's example "Statistical comparison of models using grid search"
    (examples/model_selection/plot_grid_search_stats.py): corrected_std and compute_corrected_ttest,
    with the p-value made two-sided (the example's is one-sided, t.sf(|t|, df))."""
    kr = len(differences)
    corrected_std = np.sqrt(np.var(differences, ddof=1) * (1 / kr + n_test / n_train))
    t_stat = np.mean(differences) / corrected_std
    return t_stat, 2 * stats.t.sf(np.abs(t_stat), kr - 1)


def test_every_candidate_gets_the_corrected_t_of_scikit_learns_example(search, data):
    comparison = compare_candidates(search)
    scores = _split_matrix(search)
    assert comparison.best == search.best_index_
    train, test = next(search.cv.split(*data))  # 300 rows in 10 folds: 270 and 30 instances
    for c in range(scores.shape[0]):
        if c == comparison.best:
            assert math.isnan(comparison.table["pvalue"][c]) and comparison.table["indistinguishable"][c]
            continue
        t_stat, pvalue = _sklearn_example_ttest(scores[c] - scores[comparison.best], len(train), len(test))
        assert comparison.table["statistic"][c] == pytest.approx(t_stat, rel=1e-10)
        assert comparison.table["pvalue"][c] == pytest.approx(pvalue, rel=1e-10)
    np.testing.assert_allclose(comparison.table["mean_score"], search.cv_results_["mean_test_score"], rtol=1e-12)
    settings = comparison.settings
    assert settings["df"] == 29 and (settings["n_splits"], settings["n_repeats"]) == (10, 3)


def test_the_interval_is_the_estimate_plus_minus_t_times_the_corrected_standard_error(search):
    comparison = compare_candidates(search, confidence_level=0.9)
    scores = _split_matrix(search)
    c = next(i for i in range(scores.shape[0]) if i != comparison.best)
    d = scores[c] - scores[comparison.best]
    standard_error = np.sqrt(np.var(d, ddof=1) * (1 / d.size + 1 / 9))
    half = stats.t.ppf(0.95, d.size - 1) * standard_error
    assert comparison.table["estimate"][c] == pytest.approx(d.mean())
    table = comparison.table
    assert (table["low"][c], table["high"][c]) == pytest.approx((d.mean() - half, d.mean() + half))


def test_adjusted_pvalues_are_holm_and_bonferroni_of_statsmodels(search):
    multitest = pytest.importorskip("statsmodels.stats.multitest")
    for correction in ("holm", "bonferroni"):
        comparison = compare_candidates(search, correction=correction)
        tested = ~np.isnan(comparison.table["pvalue"])
        expected = multitest.multipletests(comparison.table["pvalue"][tested], method=correction)[1]
        np.testing.assert_allclose(comparison.table["pvalue_adjusted"][tested], expected)
        np.testing.assert_array_equal(comparison.table["indistinguishable"][tested],
                                      comparison.table["pvalue_adjusted"][tested] > 0.05)
    none = compare_candidates(search, correction="none")
    np.testing.assert_array_equal(none.table["pvalue_adjusted"], none.table["pvalue"])


def _results(data, depths, cv=5, n_repeats=2):
    X, y = data
    evaluator = cvi.CVEvaluator(cv=cv, n_repeats=n_repeats, random_state=0)
    return {f"depth {d}": evaluator.evaluate(DecisionTreeClassifier(max_depth=d, random_state=0), X, y)
            for d in depths}


def test_named_cvresults_agree_with_the_pairwise_tests(data):
    results = _results(data, [1, 3, None])
    comparison = compare_candidates(results, margin=0.02)
    names = list(results)
    best = results[names[comparison.best]]
    assert comparison.settings["scoring"] == "accuracy"
    for i, name in enumerate(names):
        if i == comparison.best:
            continue
        test = cvi.corrected_resampled_ttest(results[name], best)
        posterior = cvi.bayesian_correlated_ttest(results[name], best, margin=0.02)
        table = comparison.table
        assert (table["statistic"][i], table["pvalue"][i]) == pytest.approx((test.statistic, test.pvalue))
        assert comparison.table["prob_best_better"][i] == pytest.approx(posterior.prob_b_better)
        assert comparison.table["prob_equivalent"][i] == pytest.approx(posterior.prob_equivalent)
        assert comparison.table["prob_candidate_better"][i] == pytest.approx(posterior.prob_a_better)
    pairs = compare_candidates(list(results.items()), margin=0.02)
    np.testing.assert_array_equal(pairs.table["pvalue"], comparison.table["pvalue"])


def test_selection_bias_by_hand():
    """Tibshirani & Tibshirani (2009), section 2, by hand on three candidates and four folds (scores, higher
    better): the best by mean is candidate 1 (mean 0.80); the per-fold maxima are 0.9, 0.8, 0.9, 0.8 and
    candidate 1 scores 0.8, 0.8, 0.8, 0.8 there, so the bias is (0.1 + 0 + 0.1 + 0) / 4 = 0.05."""
    cv_results = {"params": [{"C": 1}, {"C": 2}, {"C": 3}], "mean_test_score": np.zeros(3),
                  "split0_test_score": np.array([0.9, 0.8, 0.6]), "split1_test_score": np.array([0.6, 0.8, 0.7]),
                  "split2_test_score": np.array([0.7, 0.8, 0.9]), "split3_test_score": np.array([0.7, 0.8, 0.6])}
    comparison = cvi.model_selection._candidates.comparison_of(
        scores_from_cv_results(cv_results, Layout(4)), method="corrected_t", correction="holm", alpha=0.05,
        confidence_level=0.95, margin=0.01)
    assert comparison.best == 1
    assert comparison.selection_bias == pytest.approx(0.05)
    assert comparison.best_score_corrected == pytest.approx(0.75)


def test_bayesian_method_decides_by_the_posterior(search):
    comparison = compare_candidates(search, method="bayesian", alpha=0.2, margin=0.0)
    tested = ~np.isnan(comparison.table["pvalue"])
    table = comparison.table
    np.testing.assert_array_equal(table["indistinguishable"][tested], table["prob_best_better"][tested] < 0.8)


@pytest.mark.parametrize("cv, expected", [(4, (4, 1)), (None, (5, 1)), (KFold(3), (3, 1)),
                                          (StratifiedKFold(6), (6, 1)), (cvi.EqualSizeKFold(4), (4, 1)),
                                          (RepeatedStratifiedKFold(n_splits=3, n_repeats=2), (3, 2))])
def test_the_layout_is_read_from_the_searchs_splitter(data, cv, expected):
    X, y = data
    search = GridSearchCV(DecisionTreeClassifier(random_state=0), {"max_depth": [1, 2]}, cv=cv).fit(X, y)
    comparison = compare_candidates(search)
    assert (comparison.settings["n_splits"], comparison.settings["n_repeats"]) == expected


def _repeated_group_kfold(n_splits, n_repeats):
    from cvinference.cli._groups import RepeatedGroupFolds

    return RepeatedGroupFolds(cvi.StratifiedEqualSizeGroupKFold, n_repeats=n_repeats, n_splits=n_splits,
                              random_state=0)


@pytest.mark.parametrize("cv, expected", [(cvi.StratifiedEqualSizeGroupKFold(4), (4, 1)),
                                          (_repeated_group_kfold(3, 2), (3, 2))])
def test_the_layout_of_group_k_fold_and_of_its_repeats_is_read(data, cv, expected):
    # Repeated as sklearn's RepeatedStratifiedKFold repeats StratifiedKFold: split scores repeat after repeat.
    X, y = data
    groups = np.arange(y.size) // 10
    search = GridSearchCV(DecisionTreeClassifier(random_state=0), {"max_depth": [1, 2]}, cv=cv).fit(X, y,
                                                                                                   groups=groups)
    comparison = compare_candidates(search)
    assert (comparison.settings["n_splits"], comparison.settings["n_repeats"]) == expected
    splits = list(cv.split(X, y, groups))
    assert len(splits) == expected[0] * expected[1]
    for train, test in splits:
        assert not set(groups[train]) & set(groups[test])


@pytest.mark.parametrize("cv, match", [(LeaveOneOut(), "one instance"), (ShuffleSplit(3), "random subsamples"),
                                       ("list", "cannot tell")])
def test_splitters_that_are_not_k_fold_are_refused(data, cv, match):
    X, y = data
    X, y = X[:30], y[:30]
    if cv == "list":
        cv = list(KFold(3).split(X))
    search = GridSearchCV(DecisionTreeClassifier(random_state=0), {"max_depth": [1, 2]}, cv=cv).fit(X, y)
    with pytest.raises(ValueError, match=match):
        compare_candidates(search)


def test_unfitted_searches_and_other_objects_are_refused():
    with pytest.raises(NotFittedError):
        compare_candidates(GridSearchCV(DecisionTreeClassifier(), GRID))
    with pytest.raises(TypeError, match="search must be a fitted GridSearchCV"):
        compare_candidates(DecisionTreeClassifier())
    with pytest.raises(TypeError, match=r"\(name, CVResult\) pairs"):
        compare_candidates([1, 2])


def test_several_metrics_need_scoring_or_the_refit_metric(data):
    X, y = data
    search = GridSearchCV(DecisionTreeClassifier(random_state=0), {"max_depth": [1, 2]}, cv=3,
                          scoring=["accuracy", "balanced_accuracy"], refit=False).fit(X, y)
    with pytest.raises(ValueError, match="pass scoring="):
        compare_candidates(search)
    search.set_params(refit="accuracy").fit(X, y)
    by_refit = compare_candidates(search)  # the metric the search chose its best candidate by
    assert by_refit.settings["scoring"] == "accuracy"
    np.testing.assert_allclose(by_refit.table["mean_score"], search.cv_results_["mean_test_accuracy"])
    with pytest.raises(ValueError, match="scoring='f1' is not a metric"):
        compare_candidates(search, scoring="f1")
    comparison = compare_candidates(search, scoring="balanced_accuracy")
    np.testing.assert_allclose(comparison.table["mean_score"], search.cv_results_["mean_test_balanced_accuracy"])
    assert "balanced_accuracy" in comparison.estimand


def test_a_candidate_with_a_failed_fit_is_left_out_with_a_warning():
    cv_results = {"params": [{"C": 1}, {"C": 2}, {"C": 3}], "mean_test_score": np.zeros(3),
                  **{f"split{i}_test_score": np.array([0.8 + 0.01 * i, 0.7 + 0.02 * i, np.nan if i == 2 else 0.5])
                     for i in range(5)}}
    scores = scores_from_cv_results(cv_results, Layout(5))
    with pytest.warns(InferenceWarning, match="left out"):
        comparison = cvi.model_selection._candidates.comparison_of(
            scores, method="corrected_t", correction="holm", alpha=0.05, confidence_level=0.95, margin=0.01)
    assert math.isnan(comparison.table["mean_score"][2]) and not comparison.table["indistinguishable"][2]
    assert comparison.best == 0
    cv_results["split0_test_score"] = np.array([np.nan, np.nan, 0.5])
    with pytest.raises(ValueError, match="at least 2 candidates with a score on every split"):
        cvi.model_selection._candidates.comparison_of(
            scores_from_cv_results(cv_results, Layout(5)), method="corrected_t", correction="holm", alpha=0.05,
            confidence_level=0.95, margin=0.01)


def test_bad_parameters_name_themselves(search, data):
    with pytest.raises(ValueError, match="method must be one of 'corrected_t', 'bayesian'; got method='naive'"):
        compare_candidates(search, method="naive")
    with pytest.raises(ValueError, match="correction must be one of"):
        compare_candidates(search, correction="hochberg")
    with pytest.raises(ValueError, match="alpha must be"):
        compare_candidates(search, alpha=5)
    results = _results(data, [1, 2], cv=3, n_repeats=1)
    with pytest.raises(ValueError, match="compared by accuracy"):
        compare_candidates(results, scoring="f1")
    other = cvi.CVEvaluator(cv=3, random_state=1).evaluate(DecisionTreeClassifier(random_state=0), *data)
    with pytest.raises(ValueError, match="not cross-validated on identical folds"):
        compare_candidates({**results, "other": other})


def test_the_simplest_indistinguishable_candidate_is_refit(data):
    X, y = data
    cv = RepeatedStratifiedKFold(n_splits=5, n_repeats=2, random_state=0)
    rule = cvi.model_selection.SimplestIndistinguishable("max_depth", cv=cv)
    search = GridSearchCV(DecisionTreeClassifier(random_state=0), GRID, cv=cv, refit=rule).fit(X, y)
    comparison = compare_candidates(search)
    candidates = np.flatnonzero(comparison.table["indistinguishable"])
    depths = [np.inf if GRID["max_depth"][i] is None else GRID["max_depth"][i] for i in candidates]
    assert search.best_index_ == candidates[int(np.argmin(depths))]
    assert hasattr(search, "best_estimator_")
    assert repr(rule).startswith("SimplestIndistinguishable(param='max_depth', cv=")
    again = pickle.loads(pickle.dumps(search))  # the search, refit rule included, saved and loaded
    assert again.best_index_ == search.best_index_
    np.testing.assert_array_equal(again.predict(X), search.predict(X))
    assert again.refit(search.cv_results_) == search.best_index_


def test_simplest_orders():
    cv_results = {"params": [{"alpha": a, "kind": k} for a, k in ((0.1, "b"), (1.0, "a"), (10.0, "c"))],
                  "mean_test_score": np.zeros(3),
                  **{f"split{i}_test_score": np.array([0.8, 0.8 - 0.001 * (i % 2), third])
                     for i, third in enumerate([0.81, 0.79, 0.80, 0.78, 0.82])}}
    comparison = cvi.model_selection._candidates.comparison_of(
        scores_from_cv_results(cv_results, Layout(5)), method="corrected_t", correction="holm", alpha=0.05,
        confidence_level=0.95, margin=0.01)
    assert comparison.table["indistinguishable"].all()

    def simplest(param, order="ascending"):
        return cvi.model_selection.SimplestIndistinguishable(param, cv=5, order=order)(cv_results)

    assert simplest("alpha", "ascending") == 0
    assert simplest("alpha", "descending") == 2
    assert simplest("kind", ["a", "c", "b"]) == 1
    with pytest.raises(ValueError, match="is not a number"):
        simplest("kind")
    with pytest.raises(ValueError, match=r"does not list the values \['c'\]"):
        simplest("kind", ["a", "b"])
    with pytest.raises(ValueError, match="param='gamma' is not a parameter"):
        simplest("gamma")


@pytest.mark.parametrize("order", ["ascending", "descending"])
def test_each_refit_rule_has_one_form_the_class(search, order):
    """Issue 27: one form of each refit rule, the GridSearchCV(refit=...) class; the comparison has no such method.
    The simplest indistinguishable candidate is among those the comparison calls indistinguishable."""
    comparison = compare_candidates(search)
    assert not hasattr(comparison, "simplest") and not hasattr(comparison, "one_standard_error")
    simplest = cvi.model_selection.SimplestIndistinguishable("max_depth", cv=search.cv,
                                                             order=order)(search.cv_results_)
    assert comparison.table["indistinguishable"][simplest]


def test_one_standard_error_by_hand(data):
    """Breiman et al. (1984) 3.4.3 / Hastie et al. (2009) 7.10: the smallest max_depth whose mean is at least
    the best mean minus sd(best's split scores) / sqrt(number of splits)."""
    X, y = data
    search = GridSearchCV(DecisionTreeClassifier(random_state=0), GRID, cv=10,
                          refit=cvi.model_selection.OneStandardError("max_depth")).fit(X, y)
    scores = _split_matrix(search)
    means = scores.mean(axis=1)
    best = int(np.argmax(means))
    threshold = means[best] - scores[best].std(ddof=1) / np.sqrt(10)
    eligible = [i for i in range(len(means)) if means[i] >= threshold]
    depths = [np.inf if GRID["max_depth"][i] is None else GRID["max_depth"][i] for i in eligible]
    assert search.best_index_ == eligible[int(np.argmin(depths))]


def test_the_result_round_trips_through_json_and_has_a_table_a_summary_and_a_plot(search, tmp_path):
    comparison = compare_candidates(search)
    again = CandidateComparison.from_dict(json.loads(json.dumps(comparison.to_dict(), allow_nan=False)))
    assert pickle.loads(pickle.dumps(comparison)).to_dict() == comparison.to_dict()
    for name in ("estimate", "pvalue", "pvalue_adjusted", "indistinguishable"):
        np.testing.assert_array_equal(again.table[name], comparison.table[name])
    np.testing.assert_array_equal(again.split_scores, comparison.split_scores)
    assert again.params == comparison.params and again.candidates == comparison.candidates
    frame = comparison.to_frame()
    assert list(frame.columns[:2]) == ["candidate", "param_max_depth"]
    assert {"estimate", "low", "high", "pvalue", "pvalue_adjusted", "indistinguishable"} <= set(frame.columns)
    table = comparison.table
    assert list(table) == list(frame.columns) and all(len(column) == len(comparison.candidates)
                                                      for column in table.values())
    np.testing.assert_array_equal(table["pvalue_adjusted"], comparison.table["pvalue_adjusted"])
    assert comparison.settings["correction"] == "holm" and comparison.settings["df"] == comparison.table["df"][0]
    with pytest.raises(TypeError):
        table["pvalue"] = None
    text = comparison.summary()
    assert comparison.best_candidate in text and "Tibshirani" in text and "target: unconditional" in text
    pytest.importorskip("matplotlib")
    comparison.plot(path=tmp_path / "candidates.png")
    assert (tmp_path / "candidates.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    with pytest.raises(ValueError, match=r"ax must be a matplotlib Axes.*a file name as path="):
        comparison.plot(str(tmp_path / "former.png"))  # a path first, as before the release: refused, not saved
    assert not (tmp_path / "former.png").exists()
    import matplotlib.pyplot as plt

    _, axis = plt.subplots()
    assert comparison.plot(ax=axis).ax_ is axis
    drawn = comparison.plot()  # one panel, on a new figure
    assert drawn.figure_.axes == [drawn.ax_] and drawn.axes_ == (drawn.ax_,) and drawn.ax_ is not axis
    assert [text.get_text() for text in axis.get_yticklabels()][-1].startswith(comparison.best_candidate)
    plt.close("all")


def test_tuning_interval_is_the_nested_interval_of_the_search(data):
    X, y = data
    search = GridSearchCV(DecisionTreeClassifier(random_state=0), {"max_depth": [1, 3]}, cv=3)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", InferenceWarning)
        interval = cvi.model_selection.tuning_interval(search, X, y, n_splits=3, n_repeats=2, random_state=0)
        nested = cvi.nested_cv_interval(search, X, y, n_splits=3, n_repeats=2, random_state=0)
    assert (interval.estimate, interval.low, interval.high) == (nested.estimate, nested.low, nested.high)
    assert interval.estimand.startswith("error of the model that the whole search")
    with pytest.raises(ValueError, match="refit=False"):
        cvi.model_selection.tuning_interval(GridSearchCV(DecisionTreeClassifier(), GRID, refit=False), X, y)
    with pytest.raises(TypeError, match="nested_cv_interval"):
        cvi.model_selection.tuning_interval(DecisionTreeClassifier(), X, y)


def _comparison_of(scores):
    return cvi.model_selection._candidates.comparison_of(scores, method="corrected_t", correction="holm",
                                                         alpha=0.05, confidence_level=0.95, margin=0.01)


def test_a_list_of_grids_leaves_parameters_unset_and_simplest_passes_those_candidates_over(data):
    X, y = data
    grid = [{"max_depth": [1, 8]}, {"min_samples_leaf": [1, 20]}]
    search = GridSearchCV(DecisionTreeClassifier(random_state=0), grid, cv=5).fit(X, y)
    comparison = compare_candidates(search)
    assert comparison.params["max_depth"] == (1, 8, "(not set)", "(not set)")
    eligible = [i for i in np.flatnonzero(comparison.table["indistinguishable"]) if i < 2]
    rule = cvi.model_selection.SimplestIndistinguishable("max_depth", cv=5)
    if eligible:
        assert rule(search.cv_results_) == min(eligible)
    else:
        with pytest.raises(ValueError, match="sets max_depth"):
            rule(search.cv_results_)


def test_values_json_cannot_hold_are_ordered_by_the_users_list(data):
    X, y = data
    weights = [None, {0: 1, 1: 2}]
    search = GridSearchCV(DecisionTreeClassifier(max_depth=3, random_state=0), {"class_weight": weights},
                          cv=5).fit(X, y)
    comparison = compare_candidates(search)
    assert comparison.candidates == ("class_weight=None", "class_weight={0: 1, 1: 2}")
    if comparison.table["indistinguishable"].all():
        assert cvi.model_selection.SimplestIndistinguishable("class_weight", cv=5,
                                                             order=weights[::-1])(search.cv_results_) == 1


def test_numpy_values_are_named_as_python_values(data):
    X, y = data
    search = GridSearchCV(DecisionTreeClassifier(random_state=0), {"max_depth": np.arange(1, 3)}, cv=3).fit(X, y)
    comparison = compare_candidates(search)
    assert comparison.candidates == ("max_depth=1", "max_depth=2") and comparison.params["max_depth"] == (1, 2)


def test_the_searchs_own_scoring_is_accepted_and_a_single_named_metric_is_used(data):
    X, y = data
    one = GridSearchCV(DecisionTreeClassifier(random_state=0), {"max_depth": [1, 2]}, cv=3, scoring="roc_auc")
    one.fit(X, y)
    assert compare_candidates(one, scoring="roc_auc").settings["scoring"] == "roc_auc"
    with pytest.raises(ValueError, match="not the metric of the search"):
        compare_candidates(one, scoring="accuracy")
    named = GridSearchCV(DecisionTreeClassifier(random_state=0), {"max_depth": [1, 2]}, cv=3,
                         scoring={"auc": "roc_auc"}, refit="auc").fit(X, y)
    assert compare_candidates(named).settings["scoring"] == "auc"
    with pytest.raises(TypeError, match="pass the fitted search itself"):
        compare_candidates(one.cv_results_)


def test_a_candidate_behind_by_the_same_amount_on_every_split_counts_as_worse():
    rng = np.random.default_rng(0)
    best = rng.uniform(0.7, 0.9, size=10)
    cv_results = {"params": [{"C": 1}, {"C": 2}], "mean_test_score": np.zeros(2),
                  **{f"split{i}_test_score": np.array([best[i], best[i] - 0.1]) for i in range(10)}}
    with pytest.warns(InferenceWarning, match="counts as worse"):
        comparison = _comparison_of(scores_from_cv_results(cv_results, Layout(10)))
    assert math.isnan(comparison.table["pvalue"][1]) and not comparison.table["indistinguishable"][1]


def test_splitters_with_unequal_folds_are_refused(data):
    X, y = data
    search = GridSearchCV(DecisionTreeClassifier(random_state=0), {"max_depth": [1, 2]},
                          cv=cvi.splitters.RandomAssignmentKFold(3, random_state=0)).fit(X, y)
    with pytest.raises(ValueError, match="differ in size by more than one"):
        compare_candidates(search)


def test_refit_rules_need_the_splitter_and_refit_a_lone_candidate(data):
    X, y = data
    with pytest.raises(TypeError, match="cv"):
        cvi.model_selection.SimplestIndistinguishable("max_depth")
    for rule in (cvi.model_selection.SimplestIndistinguishable("max_depth", cv=3),
                 cvi.model_selection.OneStandardError("max_depth")):
        search = GridSearchCV(DecisionTreeClassifier(random_state=0), {"max_depth": [3]}, cv=3, refit=rule)
        assert search.fit(X, y).best_index_ == 0


@pytest.mark.parametrize("rule", [cvi.model_selection.SimplestIndistinguishable("max_depth", cv=3),
                                  cvi.model_selection.OneStandardError("max_depth")])
@pytest.mark.parametrize(("cv_results", "error", "got"), [
    ({}, ValueError, r"a dict with the keys \[\]"),  # issue 28: KeyError: 'params'
    ({"params": []}, ValueError, r"a dict with the keys \['params'\]"),
    ([], TypeError, "list"),
])
def test_a_refit_rule_called_without_cv_results_names_the_keys_it_needs(rule, cv_results, error, got):
    name = type(rule).__name__
    with pytest.raises(error, match=rf"^{name} is a refit rule: the search calls it with its cv_results_, a dict "
                                    rf"holding 'params' .*'split0_test_score'.*got cv_results={got}\. Pass it as "
                                    rf"GridSearchCV\(\.\.\., refit={name}\(\.\.\.\)\)"):
        rule(cv_results)


def test_an_unfitted_search_is_named_with_the_fix():
    # issue 28: sklearn's NotFittedError named no parameter of compare_candidates.
    search = GridSearchCV(DecisionTreeClassifier(), {"max_depth": [1, 2]}, cv=3)
    with pytest.raises(NotFittedError, match=r"^search=GridSearchCV\(\.\.\.\) is not fitted, and compare_candidates "
                                             r"reads .* cv_results_\. Call search\.fit\(X, y\) first\.$"):
        compare_candidates(search)


def test_named_results_must_be_classifiers_cv_results():
    rng = np.random.RandomState(0)
    X = rng.randn(100, 3)
    y = 2 * X[:, 0] + rng.randn(100)
    pair = cvi.CVEvaluator(cv=5, loss="squared_error", random_state=0).compare(Ridge(alpha=0.1), Ridge(alpha=1000),
                                                                                X, y)
    with pytest.raises(ValueError, match=r"'a' holds a regression loss .* scoring='neg_mean_squared_error'"):
        compare_candidates({"a": pair.a, "b": pair.b})
    labels = (y > 0).astype(int)
    rounds = cvi.evaluation.random_subsampling(DecisionTreeClassifier(random_state=0), X, labels, n_rounds=3,
                                               random_state=0)
    with pytest.raises(TypeError, match="the candidate 'a' is a SubsamplingResult"):
        compare_candidates({"a": rounds, "b": rounds})


@pytest.mark.parametrize("alpha", [0, 1, 1.5])
def test_alpha_is_refused_as_a_significance_level(data, alpha):
    results = {name: cvi.CVEvaluator(cv=3, random_state=0).evaluate(DecisionTreeClassifier(max_depth=d), *data)
               for name, d in (("a", 1), ("b", 2))}
    with pytest.raises(ValueError, match=r"alpha must be a significance level strictly between 0 and 1, such as 0\.05"):
        compare_candidates(results, alpha=alpha)


@pytest.fixture(scope="module")
def skewed():
    """379 of 400 instances in class 0; on these splits a depth-1 tree predicts only class 0 (checked in the test)."""
    X, y = make_classification(n_samples=400, n_features=8, n_informative=4, weights=[0.95], random_state=17)
    return X, y, RepeatedStratifiedKFold(n_splits=5, n_repeats=2, random_state=0)


def test_a_stump_that_predicts_only_the_majority_is_flagged_even_as_the_best(skewed):
    X, y, cv = skewed
    for train, test in cv.split(X, y):
        assert set(DecisionTreeClassifier(max_depth=1, random_state=0).fit(X[train], y[train]).predict(X[test])) == {0}
    grid = {"max_depth": [1, 3, None]}
    search = GridSearchCV(DecisionTreeClassifier(random_state=0), grid, cv=cv).fit(X, y)
    comparison = compare_candidates(search, y=y)
    nir = np.bincount(y).max() / y.size
    assert comparison.settings["no_information_rate"] == nir == 379 / 400 and comparison.settings["majority_class"] == 0
    # The oracle: scipy's binomtest of the mean split accuracy times n, rounded down, against the NIR.
    stump = comparison.candidates.index("max_depth=1")
    k = math.floor(round(search.cv_results_["mean_test_score"][stump] * 400, 9))
    assert k == 379  # it predicts only the majority class: its accuracy is the NIR
    assert comparison.table["baseline_pvalue"][stump] == pytest.approx(
        stats.binomtest(k, 400, nir, alternative="greater").pvalue, rel=1e-12)
    assert not comparison.table["beats_baseline"][stump]
    frame = comparison.to_frame()
    assert list(frame.columns[-2:]) == ["baseline_pvalue", "beats_baseline"]
    assert frame["beats_baseline"].tolist() == (comparison.table["baseline_pvalue"] < 0.05).tolist()
    text = comparison.summary()
    assert "do not beat the no-information rate 0.9475 (always predicting 0" in " ".join(text.split())
    assert "max_depth=1" in text.split("do not beat", 1)[1]

    stumps = GridSearchCV(DecisionTreeClassifier(max_depth=1, random_state=0), {"criterion": ["gini", "entropy"]},
                          cv=cv).fit(X, y)
    with pytest.warns(InferenceWarning, match="no spread"):  # two stumps that predict the same: equal scores
        best_stump = compare_candidates(stumps, y=y)
    assert not best_stump.table["beats_baseline"].any()
    assert (f"The best candidate, {best_stump.best_candidate}, is among them: its accuracy is no better than "
            "ignoring the features") in " ".join(best_stump.summary().split())


def test_candidates_that_beat_the_rate_are_not_flagged(skewed):
    _, _, cv = skewed
    X, y = make_classification(n_samples=300, n_features=8, n_informative=4, weights=[0.7], class_sep=2,
                               random_state=0)
    search = GridSearchCV(DecisionTreeClassifier(random_state=0), {"max_depth": [1, 3, None]}, cv=cv).fit(X, y)
    comparison = compare_candidates(search, y=list(y))
    nir = np.bincount(y).max() / y.size
    expected = [stats.binomtest(math.floor(round(mean * 300, 9)), 300, nir, alternative="greater").pvalue
                for mean in search.cv_results_["mean_test_score"]]
    np.testing.assert_allclose(comparison.table["baseline_pvalue"], expected, rtol=1e-12)
    assert comparison.table["beats_baseline"].all()
    assert "every candidate beats the no-information rate" in comparison.summary()


def test_named_cvresults_are_checked_on_their_own_records(data):
    results = _results(data, [1, 3])
    comparison = compare_candidates(results)
    for i, result in enumerate(results.values()):
        test = cvi.no_information_test(result)
        assert comparison.table["baseline_pvalue"][i] == test.pvalue
        assert comparison.settings["no_information_rate"] == test.details["no_information_rate"]
    with pytest.raises(ValueError, match=r"named CVResults carry theirs\. Leave y=None"):
        compare_candidates(results, y=data[1])


def test_without_labels_or_accuracy_nothing_is_checked(search, data):
    comparison = compare_candidates(search)
    assert "beats_baseline" not in comparison.table and "baseline_pvalue" not in comparison.table
    assert "no_information_rate" not in comparison.settings and "baseline_pvalue" not in comparison.to_frame()
    assert "pass y=, the labels the search was fitted on" in comparison.notes[-1]
    X, y = data
    cv = KFold(5, shuffle=True, random_state=0)
    scored = GridSearchCV(DecisionTreeClassifier(random_state=0), GRID, cv=cv, scoring="roc_auc").fit(X, y)
    by_auc = compare_candidates(scored, y=y)
    assert "beats_baseline" not in by_auc.table and not any("no-information" in note for note in by_auc.notes)
    with pytest.raises(ValueError, match=r"y must be the 1-d array of labels the search was fitted on; got shape "
                                         r"\(300, 8\)"):
        compare_candidates(search, y=X)


def test_the_baseline_round_trips_through_json(skewed):
    X, y, cv = skewed
    search = GridSearchCV(DecisionTreeClassifier(random_state=0), {"max_depth": [1, 3]}, cv=cv).fit(X, y)
    comparison = compare_candidates(search, y=np.array(["no", "yes"])[y])
    assert comparison.settings["majority_class"] == "no"
    again = CandidateComparison.from_dict(json.loads(json.dumps(comparison.to_dict(), allow_nan=False)))
    assert again == comparison and again.settings["majority_class"] == "no"
    np.testing.assert_array_equal(again.table["beats_baseline"], comparison.table["beats_baseline"])


@pytest.mark.filterwarnings("ignore:the differences from the best have no spread:cvinference.InferenceWarning")
def test_candidates_of_a_pipeline_are_named_without_the_final_steps_prefix(data):
    from sklearn.pipeline import Pipeline
    from sklearn.preprocessing import StandardScaler

    X, y = data
    pipeline = Pipeline([("scale", StandardScaler()), ("classifier", DecisionTreeClassifier(random_state=0))])
    grid = {"classifier__max_depth": [1, 3], "scale__with_mean": [True, False]}
    search = GridSearchCV(pipeline, grid, cv=StratifiedKFold(5)).fit(X, y)
    comparison = compare_candidates(search)
    assert comparison.candidates == tuple(
        f"max_depth={depth}, scale__with_mean={mean}" for depth in (1, 3) for mean in (True, False))
    # The parameters keep the grid's names, as cv_results_ and the refit rules name them.
    assert list(comparison.params) == ["classifier__max_depth", "scale__with_mean"]
    assert cvi.model_selection.SimplestIndistinguishable("classifier__max_depth",
                                                         cv=search.cv)(search.cv_results_) in (0, 1, 2, 3)
    assert "classifier__" not in comparison.summary()


def test_a_prefix_is_kept_where_dropping_it_would_be_ambiguous(data):
    from sklearn.linear_model import LogisticRegression
    from sklearn.pipeline import Pipeline
    from sklearn.preprocessing import StandardScaler

    X, y = data
    pipeline = Pipeline([("scale", StandardScaler()), ("classifier", LogisticRegression())])
    # "verbose" is the pipeline's own parameter: the classifier's keeps its prefix.
    grid = {"classifier__C": [0.1, 1.0], "classifier__verbose": [0], "verbose": [False]}
    comparison = compare_candidates(GridSearchCV(pipeline, grid, cv=StratifiedKFold(5)).fit(X, y))
    assert comparison.candidates == ("C=0.1, classifier__verbose=0, verbose=False",
                                     "C=1.0, classifier__verbose=0, verbose=False")
