"""The candidates' scores on every split, and the k-fold layout behind them, from a search or from CVResults."""

import dataclasses
import math
import numbers

import numpy as np
from sklearn.base import is_classifier, is_regressor
from sklearn.exceptions import NotFittedError
from sklearn.utils.validation import check_is_fitted

from .._utils._describe import short_param_names
from ..records import CVResult
from ..records._same_folds import same_folds
from ..splitters import StratifiedEqualSizeGroupKFold

_PARTITIONS = ("KFold", "StratifiedKFold", "GroupKFold", "StratifiedGroupKFold", "EqualSizeKFold",
               "StratifiedEqualSizeKFold")
_NEEDED = ("a k-fold splitter: an int, KFold, StratifiedKFold, GroupKFold, StratifiedGroupKFold, EqualSizeKFold, "
           "StratifiedEqualSizeKFold, StratifiedEqualSizeGroupKFold, RepeatedKFold or RepeatedStratifiedKFold")
NOT_SET = "(not set)"
"""A candidate's value of a parameter that its part of the grid does not set."""


def plain_value(value):
    """A parameter value as itself when JSON can hold it (numpy scalars as Python ones), else its repr."""
    if isinstance(value, np.generic):
        value = value.item()
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    return repr(value)


@dataclasses.dataclass(frozen=True)
class SplitScores:
    """Every candidate's score on every split: the split scores of a search, or the fold accuracies of CVResults."""

    names: tuple  # one per candidate
    params: dict  # parameter name -> tuple of each candidate's value (empty for CVResults)
    scores: np.ndarray  # (n_candidates, n_repeats * n_splits), repeat after repeat
    n_splits: int  # k
    n_repeats: int  # r
    scoring: str  # what a score is ("accuracy" for CVResults)


@dataclasses.dataclass(frozen=True)
class Layout:
    """k and r of (repeated) k-fold; ``None`` for either where the splitter leaves it to the split count."""

    n_splits: int = None
    n_repeats: int = 1

    def resolve(self, n_columns):
        """(k, r) for ``n_columns`` split scores; ValueError when they do not match."""
        k = self.n_splits if self.n_splits is not None else n_columns // self.n_repeats
        if k * self.n_repeats != n_columns:
            raise ValueError(
                f"the search scored {n_columns} splits, but its splitter makes {self.n_repeats} x {k}; pass the "
                "splitter the search was fitted with."
            )
        if k < 2:
            raise ValueError(f"comparing candidates needs at least 2 folds; the search has n_splits={k}.")
        return k, self.n_repeats


def _is_partition(kind):
    """Whether the splitter class ``kind`` cuts the data into k folds of sizes as equal as it can."""
    return kind.__name__ in _PARTITIONS or issubclass(kind, StratifiedEqualSizeGroupKFold)


def _repeats_a_partition(cv):
    """Whether ``cv`` is built as scikit-learn's RepeatedKFold is (``cv.cv``, a class drawn anew for each of
    ``cv.n_repeats`` repeats) around a k-fold class, such as the repeated group k-fold of ``cvinference select``."""
    kind = getattr(cv, "cv", None)
    return isinstance(kind, type) and hasattr(cv, "n_repeats") and _is_partition(kind)


def layout_of(cv, where="cv"):
    """The k-fold layout of a splitter as a search holds it (``None`` means 5-fold); ValueError when not k-fold."""
    if cv is None:
        return Layout(5)
    if isinstance(cv, numbers.Integral) and not isinstance(cv, bool):
        return Layout(int(cv))
    name = type(cv).__name__
    if _repeats_a_partition(cv):
        n_repeats = int(cv.n_repeats)
        return Layout(cv.get_n_splits() // n_repeats, n_repeats)
    if _is_partition(type(cv)):
        return Layout(cv.get_n_splits())
    if name in ("RemainderLastKFold", "RandomAssignmentKFold"):
        why = "its folds differ in size by more than one, and the correction n_test / n_train assumes equal folds"
    elif name in ("LeaveOneOut", "LeavePOut", "LeaveOneGroupOut", "LeavePGroupsOut"):
        why = "its folds hold one instance or one group, where the correction n_test / n_train was not studied"
    elif name in ("ShuffleSplit", "StratifiedShuffleSplit", "GroupShuffleSplit"):
        why = ("its splits are random subsamples whose sizes the search does not record; compare them with "
               "random_subsampling and corrected_resampled_ttest")
    else:
        why = "cvinference cannot tell the training and test sizes of its splits"
    raise ValueError(f"{where}={cv!r} is not a partition into k folds: {why}. Fit the search with {_NEEDED}.")


def _metric(cv_results, scoring, single_name):
    """The suffix of the split-score keys to read: "score" for a single metric, else the metric's name."""
    names = sorted(key[len("mean_test_"):] for key in cv_results if key.startswith("mean_test_"))
    if names == ["score"]:
        if scoring not in (None, single_name):
            raise ValueError(f"scoring={scoring!r} is not the metric of the search, which scored {single_name!r}; "
                             "leave scoring=None.")
        return "score"
    if scoring is None and len(names) == 1:
        return names[0]
    if scoring is None:
        raise ValueError(f"the search scored several metrics {names}; pass scoring= one of them.")
    if scoring not in names:
        raise ValueError(f"scoring={scoring!r} is not a metric of the search; it scored {names}.")
    return scoring


def _shown(value):
    """A parameter value in a candidate's name: repr of what JSON can hold, the repr itself otherwise."""
    plain = plain_value(value)
    return plain if isinstance(plain, str) and plain is not value else repr(plain)


def _name(params, shown_names):
    return ", ".join(f"{shown_names[key]}={_shown(value)}" for key, value in params.items()) or "(default)"


def scores_from_cv_results(cv_results, layout, scoring=None, default_name="score", estimator=None):
    """:class:`SplitScores` from a search's ``cv_results_``; ``default_name`` names a single metric's scores.

    With the search's ``estimator``, a candidate's name shows its parameters
    without the final step's prefix where that is unambiguous
    (:func:`short_param_names`); ``params`` keeps the grid's names.
    """
    if "n_resources" in cv_results:
        raise ValueError(
            "cv_results_ comes from a successive-halving search, whose candidates were scored on different "
            "numbers of samples and not all in the last round; compare the candidates of a GridSearchCV or "
            "RandomizedSearchCV."
        )
    metric = _metric(cv_results, scoring, default_name)
    columns = sorted((key for key in cv_results if key.startswith("split") and key.endswith(f"_test_{metric}")),
                     key=lambda key: int(key[len("split"):].split("_")[0]))
    if not columns:
        raise ValueError(
            f"cv_results_ holds no split scores (split0_test_{metric}, ...); compare_candidates needs the "
            "score of every candidate on every split, as GridSearchCV and RandomizedSearchCV record them."
        )
    k, r = layout.resolve(len(columns))
    scores = np.column_stack([np.asarray(cv_results[key], dtype=np.float64) for key in columns])
    params = cv_results["params"]
    keys = sorted({key for candidate in params for key in candidate})
    values = {key: tuple(plain_value(candidate[key]) if key in candidate else NOT_SET for candidate in params)
              for key in keys}
    shown_names = short_param_names(estimator, keys)
    return SplitScores(names=tuple(_name(candidate, shown_names) for candidate in params), params=values, scores=scores,
                       n_splits=k, n_repeats=r, scoring=default_name if metric == "score" else metric)


def scores_from_search(search, scoring=None):
    """:class:`SplitScores` of a fitted ``GridSearchCV`` or ``RandomizedSearchCV``."""
    if not hasattr(search, "cv_results_") and not hasattr(search, "cv"):
        raise TypeError(
            "search must be a fitted GridSearchCV or RandomizedSearchCV, or a dict or list of named CVResults; "
            f"got {type(search).__name__}."
        )
    try:
        check_is_fitted(search, "cv_results_")
    except NotFittedError as exc:
        raise NotFittedError(
            f"search={type(search).__name__}(...) is not fitted, and compare_candidates reads the split scores of "
            "its cv_results_. Call search.fit(X, y) first."
        ) from exc
    if scoring is None and getattr(search, "multimetric_", False) and isinstance(search.refit, str):
        # A multi-metric search chose its best candidate by this metric.
        scoring = search.refit
    return scores_from_cv_results(search.cv_results_, layout_of(search.cv, "search.cv"), scoring,
                                  _single_metric_name(search), getattr(search, "estimator", None))


def _single_metric_name(search):
    """What a search's one score is: its scoring string, or the estimator's default (accuracy, r2)."""
    if isinstance(search.scoring, str):
        return search.scoring
    if search.scoring is None:
        estimator = getattr(search, "estimator", None)
        if is_classifier(estimator):
            return "accuracy"
        if is_regressor(estimator):
            return "r2"
    return "score"


def named_results(results):
    if isinstance(results, dict) and "params" in results and "mean_fit_time" in results:
        raise TypeError("search is a cv_results_ dict; pass the fitted search itself, which knows its splitter.")
    pairs = list(results.items()) if isinstance(results, dict) else list(results)
    for pair in pairs:
        if not (isinstance(pair, tuple) and len(pair) == 2):
            raise TypeError(
                "search as a list must hold (name, CVResult) pairs; got an item of type "
                f"{type(pair).__name__}. Pass {{'name': result, ...}} or [('name', result), ...]."
            )
        name, result = pair
        if not isinstance(result, CVResult):
            raise TypeError(
                f"the candidate {name!r} is a {type(result).__name__}; named candidates must be CVResults of "
                "k-fold cross-validation on identical folds (CVEvaluator(random_state=0).evaluate)."
            )
        if result.classes is None:
            raise ValueError(
                f"the candidate {name!r} holds a regression loss ({result.loss_name!r}); named CVResults are "
                "compared by their fold accuracies, which need a classifier's result. For regressors compare "
                "a fitted GridSearchCV, whose scorer (e.g. scoring='neg_mean_squared_error') gives the split "
                "scores."
            )
    names = [str(name) for name, _ in pairs]
    if len(set(names)) != len(names):
        raise ValueError(f"the candidates' names must differ; got {names}.")
    return names, [result for _, result in pairs]


def scores_from_results(results):
    """:class:`SplitScores` of named CVResults on identical (repeated) k-fold folds: their fold accuracies."""
    names, results = named_results(results)
    if len(results) < 2:
        raise ValueError(f"comparing candidates needs at least 2 results; got {len(results)}.")
    first = results[0]
    if first.is_loo or first.n_splits < 2:
        raise ValueError(
            f"the results must come from k-fold cross-validation with 2 <= k < n; got n_splits={first.n_splits} "
            f"for n_samples={first.n_samples}."
        )
    for name, result in zip(names[1:], results[1:], strict=True):
        if not same_folds(first, result):
            raise ValueError(
                f"the results {names[0]!r} and {name!r} were not cross-validated on identical folds; evaluate "
                "every candidate with the same splitter and int random_state (CVEvaluator(random_state=0))."
            )
    sizes = first.fold_sizes
    if not np.all(np.abs(sizes - sizes.mean()) <= 1):
        raise ValueError(f"the folds must have equal sizes (within one); got sizes {sizes.tolist()}.")
    scores = np.stack([(result.fold_correct / result.fold_sizes).ravel() for result in results])
    return SplitScores(names=tuple(names), params={}, scores=scores, n_splits=first.n_splits,
                       n_repeats=first.n_repeats, scoring="accuracy")


def split_scores(search, scoring=None):
    """:class:`SplitScores` of whatever :func:`compare_candidates` was given."""
    if isinstance(search, (dict, list, tuple)):
        if scoring not in (None, "accuracy"):
            raise ValueError(f"named CVResults are compared by accuracy; got scoring={scoring!r}. Leave it None.")
        return scores_from_results(search)
    return scores_from_search(search, scoring)


def _complexity_key(values, order, param):
    """A sort key per value, simplest first, for ``order`` of the parameter ``param``."""
    if isinstance(order, str):
        if order not in ("ascending", "descending"):
            raise ValueError(f"order must be 'ascending', 'descending' or a list of values simplest first; "
                             f"got order={order!r}.")
        keys = []
        for value in values:
            if value is None:
                number = math.inf
            elif isinstance(value, numbers.Real) and not isinstance(value, bool):
                number = float(value)
            else:
                raise ValueError(
                    f"{param}={value!r} is not a number, so order={order!r} cannot rank it; pass order= a list "
                    "of the values, simplest first."
                )
            keys.append(number if order == "ascending" else -number)
        return keys
    ranked = [plain_value(value) for value in order]
    missing = [value for value in dict.fromkeys(values) if value not in ranked]
    if missing:
        raise ValueError(f"order does not list the values {missing} of {param}; list every value, simplest first.")
    return [ranked.index(value) for value in values]


def simplest_among(indices, scores, mean, param, order):
    """The index, among ``indices``, of the simplest candidate by ``param`` in ``order``; ties to the higher mean."""
    if param not in scores.params:
        raise ValueError(f"param={param!r} is not a parameter of the candidates; they vary {sorted(scores.params)}.")
    values = scores.params[param]
    having = [i for i in indices if values[i] != NOT_SET]
    if not having:
        raise ValueError(f"none of the eligible candidates {[scores.names[i] for i in indices]} sets {param}; "
                         "pass a parameter they set.")
    keys = _complexity_key([values[i] for i in having], order, param)
    return int(min(zip(keys, -np.asarray(mean)[having], having, strict=True), key=lambda triple: triple[:2])[2])


def mean_scores(scores):
    """Each candidate's mean split score; nan for a candidate with a missing score."""
    valid = np.isfinite(scores.scores).all(axis=1)
    return np.where(valid, np.mean(np.where(valid[:, None], scores.scores, 0.0), axis=1), np.nan)


def one_standard_error_index(scores, param, order):
    """The one-standard-error rule (see :meth:`CandidateComparison.one_standard_error`) on split scores."""
    mean = mean_scores(scores)
    best = int(np.nanargmax(mean))
    best_scores = scores.scores[best]
    standard_error = float(np.std(best_scores, ddof=1) / math.sqrt(best_scores.size))
    within = np.flatnonzero(np.nan_to_num(mean, nan=-np.inf) >= mean[best] - standard_error)
    return simplest_among(within, scores, mean, param, order)
