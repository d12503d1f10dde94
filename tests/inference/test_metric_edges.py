"""Set-level metrics honest at the edges (issue 29, item 5): clipping, degenerate folds, pos_label, make_metric.

Oracles: sklearn's metric functions fold by fold (``f1_score``, ``precision_score``, ``fbeta_score``
with ``zero_division=0``, their documented value for an empty count), and ``scipy.stats.t.interval``
on the fold values for the unclipped fold-level t interval (Wong 2015, section 4.3.3), clipped by
hand with min/max to the metric's range as sklearn documents it.
"""

import json
import warnings

import numpy as np
import pytest
from scipy import stats
from sklearn.exceptions import UndefinedMetricWarning
from sklearn.metrics import adjusted_rand_score, f1_score, fbeta_score, precision_score

import cvinference as cvi


def _record(folds_true, folds_pred):
    """A CVResult of one repeat whose fold j holds ``folds_true[j]`` and ``folds_pred[j]``."""
    y_true = np.concatenate(folds_true)
    y_pred = np.concatenate(folds_pred)
    fold = np.concatenate([np.full(len(part), j) for j, part in enumerate(folds_true)])
    return cvi.CVResult(y_true, y_pred, fold)


def _fold_scores(result, function, **kwargs):
    return np.array([function(result.y_true[result.fold[0] == j], result.y_pred[0][result.fold[0] == j], **kwargs)
                     for j in range(result.n_splits)])


def _t_interval(values, level=0.95):
    """Oracle: the fold-level t interval of the values, unclipped (scipy)."""
    return stats.t.interval(level, len(values) - 1, loc=values.mean(), scale=stats.sem(values))


# Four folds of 10: positives 0-4; fold 3 misses one positive (F1 = 8/9), so the t bound passes 1.
TRUE = [np.array([1] * 5 + [0] * 5)] * 4
NEAR_ONE = _record(TRUE, [TRUE[0]] * 3 + [np.array([1] * 4 + [0] * 6)])

# The issue's case: a rare class that the model predicts in 3 folds of 10 and never in the other 7.
RARE_TRUE = [np.array([1] + [0] * 9)] * 10
RARE = _record(RARE_TRUE, [np.array([1] + [0] * 9)] * 3 + [np.zeros(10, dtype=int)] * 7)


def test_an_interval_past_one_is_clipped_as_scipys_t_interval_cut_at_one_and_says_so():
    values = _fold_scores(NEAR_ONE, f1_score)
    low, high = _t_interval(values)
    assert high > 1  # the premise: the t interval leaves [0, 1]
    with pytest.warns(cvi.InferenceWarning, match=rf"The t interval of f1 left the metric's range: its high bound "
                                                  rf"{high:.4g} was set to 1, the highest value f1 can take") as caught:
        interval = cvi.metric_interval(NEAR_ONE, "f1")
    assert (interval.low, interval.high) == (pytest.approx(max(0, low)), min(1, high))
    assert interval.details["clipped"] == ("high",)
    assert "coverage of the clipped interval there is unreliable" in str(caught[0].message)
    assert interval.warnings == (str(caught[0].message),)
    assert "clipped: the high bound, set to 1, the highest possible value" in interval.summary()


# Six folds with F1 = 8/9, 3/4, 3/5, 10/11, 8/9, 3/4: the t interval stays inside [0, 1].
INSIDE = _record([TRUE[0]] * 6, [np.array([1] * 4 + [0] * 6), np.array([1] * 3 + [0] * 7),
                                 np.array([1] * 3 + [0] * 2 + [1, 1] + [0] * 3), np.array([1] * 6 + [0] * 4),
                                 np.array([1] * 4 + [0] * 6), np.array([1] * 3 + [0] * 7)])


def test_an_interval_inside_the_range_is_not_clipped_and_does_not_warn():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        interval = cvi.metric_interval(INSIDE, "f1")
    assert interval.details["clipped"] == ()
    assert tuple(interval) == pytest.approx(_t_interval(_fold_scores(INSIDE, f1_score)))
    assert "clipped" not in interval.summary()


def test_the_issues_f1_below_zero_is_clipped_and_seven_degenerate_folds_are_counted_once():
    values = _fold_scores(RARE, f1_score, zero_division=0)
    assert (values == 0).sum() == 7  # the premise: 7 of 10 folds have F1 = 0
    low, high = _t_interval(values)
    assert low < 0
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        interval = cvi.metric_interval(RARE, "f1")
    messages = [str(w.message) for w in caught]
    assert all(w.category is cvi.InferenceWarning for w in caught) and len(caught) == 2, messages
    assert messages[0].startswith("f1 is degenerate on 7 of 10 folds (fold 3 of repeat 0, fold 4 of repeat 0, ")
    assert "7 hold no prediction of the positive class 1" in messages[0]
    assert "the interval is dominated by these folds and is not trustworthy" in messages[0]
    assert messages[1].startswith(f"The t interval of f1 left the metric's range: its low bound {low:.4g} was set to 0")
    assert (interval.low, interval.high) == (0.0, pytest.approx(high)) and interval.details["clipped"] == ("low",)
    assert interval.estimate == pytest.approx(values.mean())
    assert "f1 is degenerate on 7 of 10 folds" in interval.summary()


def test_sklearns_undefined_metric_warning_is_summarised_once_and_the_filters_stay_as_they_were():
    # precision with no predicted positive: sklearn's zero_division case, an UndefinedMetricWarning per fold.
    before = list(warnings.filters)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        inside = list(warnings.filters)
        interval = cvi.metric_interval(RARE, "precision")
        assert list(warnings.filters) == inside
    assert list(warnings.filters) == before
    assert not [w for w in caught if issubclass(w.category, UndefinedMetricWarning)]
    degenerate = [str(w.message) for w in caught if "degenerate" in str(w.message)]
    assert len(degenerate) == 1
    assert "7 hold no prediction of the positive class 1; on 7 sklearn found precision undefined" in degenerate[0]
    assert interval.estimate == pytest.approx(_fold_scores(RARE, precision_score, zero_division=0).mean())


@pytest.mark.parametrize("metric, limits", [("matthews_corrcoef", (-1, 1)), ("adjusted_rand_score", (-0.5, 1))])
def test_other_documented_ranges_clip(metric, limits):
    # Four folds, three perfect and one with two of ten wrong: the t bound passes 1 for both metrics.
    result = _record(TRUE, [TRUE[0]] * 3 + [np.array([1] * 4 + [0] * 5 + [1])])
    with pytest.warns(cvi.InferenceWarning, match=f"The t interval of {metric} left"):
        interval = cvi.metric_interval(result, metric)
    if metric == "adjusted_rand_score":
        low, high = _t_interval(_fold_scores(result, adjusted_rand_score))
        assert (interval.low, interval.high) == (pytest.approx(max(limits[0], low)), min(limits[1], high))
    assert interval.high == limits[1] and "high" in interval.details["clipped"]


def test_pos_label_with_string_labels_is_sklearns_f1_of_that_class():
    rng = np.random.default_rng(3)
    y = np.where(rng.random(80) < 0.3, "sick", "well")
    y_pred = np.where(rng.random(80) < 0.8, y, np.where(y == "sick", "well", "sick"))
    result = cvi.CVResult(y, y_pred, np.arange(80) % 4)
    values = _fold_scores(result, f1_score, pos_label="sick")
    interval = cvi.metric_interval(result, "f1", pos_label="sick")
    assert interval.estimate == pytest.approx(values.mean())
    assert tuple(interval) == pytest.approx(_t_interval(values))
    assert interval.estimand.startswith("f1 (positive class 'sick') on the population")
    with pytest.raises(ValueError, match=r"metric='f1' needs to know the positive class, and the classes are "
                                         r"\['sick', 'well'\]; pass pos_label, one of them"):
        cvi.metric_interval(result, "f1")
    with pytest.raises(ValueError, match=r"pos_label='ill' is not one of result's classes \['sick', 'well'\]"):
        cvi.metric_interval(result, "f1", pos_label="ill")


def test_pos_label_zero_of_numeric_labels_and_its_refusals():
    values = _fold_scores(INSIDE, f1_score, pos_label=0)
    assert cvi.metric_interval(INSIDE, "f1", pos_label=0).estimate == pytest.approx(values.mean())
    with pytest.raises(ValueError, match=r"pos_label='1' is not one of result's classes \[0, 1\]"):
        cvi.metric_interval(NEAR_ONE, "f1", pos_label="1")
    with pytest.raises(ValueError, match=r"pos_label=0 is for sklearn's binary scorers .*metric='f1_macro' does not"):
        cvi.metric_interval(NEAR_ONE, "f1_macro", pos_label=0)
    with pytest.raises(ValueError, match=r"a callable metric takes its positive class itself.*make_metric\(f1_score"):
        cvi.metric_interval(NEAR_ONE, f1_score, pos_label=0)
    with pytest.raises(TypeError, match=r"pos_label must be a class label .*; got pos_label=\[0\]"):
        cvi.metric_interval(NEAR_ONE, "f1", pos_label=[0])


def test_decide_takes_pos_label_for_the_fold_differences():
    rng = np.random.default_rng(5)
    y = np.where(rng.random(60) < 0.4, "yes", "no")
    fold = np.arange(60) % 3

    def noisy(rate):
        return np.where(rng.random(60) < rate, y, np.where(y == "yes", "no", "yes"))

    pair = cvi.PairedCVResult(cvi.CVResult(y, noisy(0.9), fold), cvi.CVResult(y, noisy(0.7), fold))
    decision = cvi.decide(pair, metric="f1", pos_label="yes")
    oracle = _fold_scores(pair.a, f1_score, pos_label="yes") - _fold_scores(pair.b, f1_score, pos_label="yes")
    assert decision.difference == pytest.approx(oracle.mean()) and decision.metric == "f1"
    with pytest.raises(ValueError, match=r"pos_label='yes' is for a binary metric about one class"):
        cvi.decide(pair, pos_label="yes")


def test_make_metric_names_the_estimand_and_passes_its_keywords():
    f2 = cvi.make_metric(fbeta_score, name="F2", bounds=(0, 1), beta=2)
    interval = cvi.metric_interval(INSIDE, f2)
    values = _fold_scores(INSIDE, fbeta_score, beta=2)
    assert interval.estimate == pytest.approx(values.mean())
    assert interval.estimand.startswith("F2 on the population") and interval.notes[0].startswith("F2 per fold: ")
    back = cvi.results.Interval.from_dict(json.loads(json.dumps(interval.to_dict(), allow_nan=False)))
    assert back == interval
    assert back.estimand == interval.estimand
    assert back.details["clipped"] == interval.details["clipped"]


def test_a_lambda_is_a_callable_metric_and_a_named_function_keeps_its_name():
    lam = cvi.metric_interval(INSIDE, lambda t, p: f1_score(t, p))
    named = cvi.metric_interval(INSIDE, f1_score)
    assert lam.estimand.startswith("a callable metric on the population")
    assert named.estimand.startswith("f1_score on the population")
    assert cvi.make_metric(lambda t, p: 0.5).name is None


def test_make_metric_bounds_clip_a_callable_and_a_bare_callable_is_not_clipped():
    values = _fold_scores(NEAR_ONE, f1_score)
    high = _t_interval(values)[1]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        bare = cvi.metric_interval(NEAR_ONE, f1_score)
    assert bare.high == pytest.approx(high) and bare.details["clipped"] == ()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        bounded = cvi.metric_interval(NEAR_ONE, cvi.make_metric(f1_score, bounds=(0, None)))
    assert bounded.high == pytest.approx(high) and bounded.details["clipped"] == ()  # no upper bound given
    with pytest.warns(cvi.InferenceWarning, match=r"its high bound .* was set to 1"):
        assert cvi.metric_interval(NEAR_ONE, cvi.make_metric(f1_score, bounds=(0, 1))).high == 1.0


def test_a_lower_is_better_metric_is_negated_as_sklearns_make_scorer_does():
    def misses(y_true, y_pred):
        return float(np.mean((y_true == 1) & (y_pred == 0)))

    cost = cvi.make_metric(misses, bounds=(0, 1), greater_is_better=False)
    assert (cost.name, cost.bounds) == ("neg_misses", (-1.0, 0.0))
    interval = cvi.metric_interval(INSIDE, cost)
    assert interval.estimate == pytest.approx(-_fold_scores(INSIDE, misses).mean())
    assert interval.estimand.startswith("neg_misses on the population")


@pytest.mark.parametrize("bounds, error, match", [
    ((1, 0), ValueError, r"bounds must be \(low, high\) with low < high; got bounds=\(1, 0\)"),
    ((0,), TypeError, r"bounds must be \(low, high\).*got bounds=\(0,\)"),
    (("0", 1), TypeError, r"got the low bound '0'"),
    ((0, float("nan")), TypeError, r"got the high bound nan"),
])
def test_make_metric_refuses_bounds_that_are_not_a_range(bounds, error, match):
    with pytest.raises(error, match=match):
        cvi.make_metric(f1_score, bounds=bounds)


def test_make_metric_refuses_what_is_not_callable():
    with pytest.raises(TypeError, match=r"function must be callable, .*got function='f1'"):
        cvi.make_metric("f1")


def test_an_interval_not_clipped_says_so_and_a_tampered_clipped_is_refused():
    interval = cvi.metric_interval(INSIDE, "f1")
    data = interval.to_dict()
    assert data["version"] == 1 and data["details"]["mapping"]["clipped"] == {"tuple": []}
    assert cvi.results.Interval.from_dict(data) == interval
    data["details"]["mapping"]["clipped"] = {"tuple": ["middle"]}
    with pytest.raises(ValueError, match=r"Interval.details\['clipped'\]"):
        cvi.results.Interval.from_dict(data)
