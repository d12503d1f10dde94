"""Refit rules for ``GridSearchCV(refit=...)``: the simplest candidate the evidence cannot tell from the best."""

import collections.abc

import numpy as np

from .._utils._params import SIGNIFICANCE_LEVEL
from ._candidates import COMPLEXITY_PARAM, METHOD, SCORING, comparison_of
from ._margins import RULE
from ._multiple_testing import CORRECTION
from ._split_scores import Layout, layout_of, one_standard_error_index, scores_from_cv_results, simplest_among


class _RefitRule:
    """A callable of ``cv_results_`` that returns the index to refit; parameters stored as given.

    A subclass declares its parameters' rules in ``__cvinference_params__``;
    they are checked when the rule is called, as scikit-learn checks in ``fit``.
    """

    __cvinference_params__ = {}

    def _checked_params(self):
        """``{name: value}`` of the declared parameters, each in its rule's canonical form."""
        return {name: rule.check(name, getattr(self, name)) for name, rule in self.__cvinference_params__.items()}

    def __repr__(self):
        arguments = ", ".join(f"{name}={value!r}" for name, value in vars(self).items())
        return f"{type(self).__name__}({arguments})"

    def _scores(self, cv_results, layout, scoring):
        """The split scores, or None when there is one candidate (nothing to choose)."""
        self._check_cv_results(cv_results)
        if len(cv_results["params"]) == 1:
            return None
        return scores_from_cv_results(cv_results, layout, scoring)


    def _check_cv_results(self, cv_results):
        """Refuse what is not a search's ``cv_results_``, naming the keys the rule reads."""
        mapping = isinstance(cv_results, collections.abc.Mapping)
        params = cv_results.get("params") if mapping else None
        if not isinstance(params, collections.abc.Sequence) or isinstance(params, str) or not params:
            got = f"a dict with the keys {sorted(map(str, cv_results))}" if mapping else type(cv_results).__name__
            raise (ValueError if mapping else TypeError)(
                f"{type(self).__name__} is a refit rule: the search calls it with its cv_results_, a dict holding "
                "'params' (one dict of parameters per candidate, at least one) and the split scores "
                "('split0_test_score', ..., or 'split0_test_<metric>' with several metrics); got cv_results="
                f"{got}. Pass it as GridSearchCV(..., refit={type(self).__name__}(...)), or call it with a fitted "
                "search's cv_results_."
            )


class SimplestIndistinguishable(_RefitRule):
    """Refit the simplest candidate that is not shown to be worse than the best.

    Pass an instance as ``GridSearchCV(refit=...)`` (or
    ``RandomizedSearchCV``): after the search, it compares every candidate
    with the best by :func:`compare_candidates` and returns the index of the
    simplest candidate among those indistinguishable from the best.

    Parameters
    ----------
    param : str
        The parameter that measures complexity, as named in the grid
        (``"max_depth"``, ``"clf__C"``).
    cv : int or splitter
        The search's splitter (or its number of folds): the rule sees only
        ``cv_results_``, and needs k to correct for the overlap of the
        training sets (with repeated k-fold, the split count alone would pass
        for k r folds).
    order : {"ascending", "descending"} or sequence, default="ascending"
        ``"ascending"``: smaller values are simpler (None counts as
        infinitely large); ``"descending"``: larger values are simpler; or
        every value, simplest first.
    method, correction, alpha, margin, scoring
        As for :func:`compare_candidates`.

    Notes
    -----
    Assumptions: those of :func:`compare_candidates` (the corrected t's
    heuristic correlation of the splits), and that ``param`` orders the
    candidates by complexity. "Indistinguishable" is not "equal": with few
    folds the test has little power, and a much worse candidate can pass.
    With ties in ``param`` (other parameters differ), the higher mean score
    wins. The rule asks which candidates the data cannot tell apart, where
    :class:`OneStandardError` uses a rule of thumb.

    Examples
    --------
    >>> from sklearn.datasets import load_breast_cancer
    >>> from sklearn.model_selection import GridSearchCV, RepeatedStratifiedKFold
    >>> from sklearn.tree import DecisionTreeClassifier
    >>> from cvinference.model_selection import SimplestIndistinguishable
    >>> X, y = load_breast_cancer(return_X_y=True)
    >>> cv = RepeatedStratifiedKFold(n_splits=5, n_repeats=2, random_state=0)
    >>> search = GridSearchCV(DecisionTreeClassifier(random_state=0), {"max_depth": [1, 2, 3, 5, None]}, cv=cv,
    ...                       refit=SimplestIndistinguishable("max_depth", cv=cv)).fit(X, y)
    >>> search.best_params_
    {'max_depth': 1}
    """

    def __init__(self, param, *, cv, order="ascending", method="corrected_t", correction="holm", alpha=0.05,
                 margin="auto", scoring=None):
        self.param = param
        self.cv = cv
        self.order = order
        self.method = method
        self.correction = correction
        self.alpha = alpha
        self.margin = margin
        self.scoring = scoring

    __cvinference_params__ = dict(param=COMPLEXITY_PARAM, method=METHOD, correction=CORRECTION,
                                  alpha=SIGNIFICANCE_LEVEL, margin=RULE, scoring=SCORING)
    """What each parameter accepts: checked when the rule is called."""

    def __call__(self, cv_results):
        checked = self._checked_params()
        scores = self._scores(cv_results, layout_of(self.cv, "cv"), checked["scoring"])
        if scores is None:
            return 0
        comparison = comparison_of(scores, method=checked["method"], correction=checked["correction"],
                                   alpha=checked["alpha"], confidence_level=0.95, margin=checked["margin"])
        table = comparison.table
        return simplest_among(np.flatnonzero(table["indistinguishable"]), scores, table["mean_score"],
                              checked["param"], self.order)


class OneStandardError(_RefitRule):
    """Refit the simplest candidate whose mean score is within one standard error of the best's.

    The classic one-standard-error rule (Breiman, Friedman, Olshen & Stone
    1984, section 3.4.3; Hastie, Tibshirani & Friedman 2009, section 7.10),
    as a ``GridSearchCV(refit=...)`` callable.

    Parameters
    ----------
    param : str
        The parameter that measures complexity.
    order : {"ascending", "descending"} or sequence, default="ascending"
        As for :class:`SimplestIndistinguishable`.
    scoring : str, optional
        The metric, when the search scored several.

    Notes
    -----
    The standard error is the standard deviation of the best candidate's
    split scores (ddof = 1) over the square root of their number. That
    treats the splits as independent; they are not (they share training
    instances, and repeats share all of them), so the standard error is too
    small, and with repeated k-fold much too small: a rule of thumb, not a
    test. :class:`SimplestIndistinguishable` accounts for the dependence.

    Examples
    --------
    >>> from sklearn.datasets import load_breast_cancer
    >>> from sklearn.model_selection import GridSearchCV
    >>> from sklearn.tree import DecisionTreeClassifier
    >>> from cvinference.model_selection import OneStandardError
    >>> X, y = load_breast_cancer(return_X_y=True)
    >>> search = GridSearchCV(DecisionTreeClassifier(random_state=0), {"max_depth": [1, 2, 3, 5, None]}, cv=10,
    ...                       refit=OneStandardError("max_depth")).fit(X, y)
    >>> search.best_params_
    {'max_depth': 2}
    """

    def __init__(self, param, *, order="ascending", scoring=None):
        self.param = param
        self.order = order
        self.scoring = scoring

    __cvinference_params__ = dict(param=COMPLEXITY_PARAM, scoring=SCORING)
    """What each parameter accepts: checked when the rule is called."""

    def __call__(self, cv_results):
        checked = self._checked_params()
        scores = self._scores(cv_results, Layout(None, 1), checked["scoring"])
        return 0 if scores is None else one_standard_error_index(scores, checked["param"], self.order)
