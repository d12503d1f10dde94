"""Every candidate of a search against the best: corrected t, adjusted p-values, selection bias, refit rules."""

import collections
import dataclasses
import math
import types
from typing import NamedTuple

import numpy as np

from .._utils import _params
from .._utils._arrays import python_scalar, readonly_array
from .._utils._docstring import fill_doc
from .._utils._kinds import (
    ANY,
    COUNT,
    LEVEL,
    NON_NEGATIVE,
    P_VALUE,
    POSITIVE,
    TEXT,
    TEXTS,
    Array,
    Fields,
    Mapping,
    Ordered,
    Sequence,
    proportions,
)
from .._utils._notebook import import_pandas, summary_html
from .._utils._params import PROBABILITY, SIGNIFICANCE_LEVEL, Options, Text, validate_params
from .._utils._serialize import Serializable
from .._utils._text import format_level, format_number, format_table, text_block, wrapped
from .._utils._warnings import Messages, quietly
from ..inference._distributions import reference_quantile
from ..inference._estimands import TARGET, described_lines
from ..inference._no_information import no_information_pvalue, no_information_test
from ..inference._resampled_tests import bayesian_ttest_of, corrected_ttest_of, score_differences
from ._margins import RULE, resolved_margin
from ._multiple_testing import CORRECTION, adjust_pvalues
from ._split_scores import (
    mean_scores,
    named_results,
    split_scores,
)

COMPLEXITY_PARAM = Text("max_depth")
"""The name of the parameter that orders candidates by complexity."""

SCORING = _params.Nullable(Text("accuracy"))
"""The metric to compare by, when a search scored several; None when it scored one."""


METHOD = Options("corrected_t", "bayesian")
"""``method``: what decides that a candidate is worse than the best."""


def _floats(values):
    return readonly_array(np.asarray(values, dtype=np.float64))


def _best_is_a_candidate(owner, values):
    if values["best"] >= len(values["candidates"]):
        raise ValueError(f"{owner}.best must be the index of one of the {len(values['candidates'])} candidates; got "
                         f"best={values['best']}. Pass the output of to_dict() unchanged.")


_BASELINE = ("no_information_rate", "majority_class", "baseline_pvalue", "beats_baseline")
"""What checking the no-information rate adds: two fields and two columns."""


def _baseline_checked_or_not(owner, values):
    values = {**{name: values["_columns"].get(name) for name in _BASELINE_COLUMNS},
              **{name: values["_settings"].get(name) for name in _BASELINE_SETTINGS}}
    given = [values[name] is not None for name in _BASELINE]
    if any(given) and not all(given):
        raise ValueError(f"{owner}.{', '.join(_BASELINE)} must all be None (the baseline was not checked) or all be "
                         f"given; got None for {[name for name in _BASELINE if values[name] is None]}. Pass the "
                         "output of to_dict() unchanged.")


_ROW_KINDS = {"mean_score": Array("f", ndim=1), "estimate": Array("f", ndim=1), "low": Array("f", ndim=1),
              "high": Array("f", ndim=1), "statistic": Array("f", ndim=1), "pvalue": proportions(1),
              "pvalue_adjusted": proportions(1), "prob_best_better": proportions(1),
              "prob_equivalent": proportions(1), "prob_candidate_better": proportions(1),
              "indistinguishable": Array("b", ndim=1)}
"""The per-candidate columns of every :class:`CandidateComparison`, with their kinds."""

_BASELINE_COLUMNS = ("baseline_pvalue", "beats_baseline")
_BASELINE_SETTINGS = ("no_information_rate", "majority_class")

_SETTING_KINDS = {"scoring": TEXT, "n_splits": POSITIVE, "n_repeats": POSITIVE, "method": METHOD,
                  "correction": CORRECTION, "alpha": SIGNIFICANCE_LEVEL, "confidence_level": LEVEL,
                  "margin": NON_NEGATIVE, "margin_rule": TEXT, "df": COUNT}
"""How the candidates were compared, the same for every candidate, with their kinds; checking
the no-information rate adds ``no_information_rate`` and ``majority_class``."""
_COMPUTED = ("estimate", "low", "high", "statistic", "pvalue")
_POSTERIOR = ("prob_best_better", "prob_equivalent", "prob_candidate_better")


def _columns_agree(owner, values):
    """Every column has one entry per candidate, as ``split_scores`` has one row; ``low <= high``."""
    columns = values["_columns"]
    lengths = {name: len(column) for name, column in columns.items()} | {"split_scores": len(values["split_scores"])}
    wrong = {name: n for name, n in lengths.items() if n != len(values["candidates"])}
    if wrong:
        raise ValueError(f"{owner}.columns must each hold one entry per candidate ({len(values['candidates'])}); got "
                         f"{wrong}. Pass the output of to_dict() unchanged.")
    Ordered("low", "high")(f"{owner}.columns", dict(columns))


@dataclasses.dataclass(frozen=True, repr=False, eq=False)
class CandidateComparison(Serializable):
    """Every candidate compared with the best, as :func:`compare_candidates` made it.

    Arrays have one entry per candidate, in the order of the search's
    ``cv_results_`` (or of the CVResults given); the entries of the best
    candidate itself are nan (its ``indistinguishable`` is True).

    Attributes
    ----------
    candidates : tuple of str
        The candidates' names: their parameters (``"max_depth=3"``; for a
        pipeline, without the final step's prefix where that is
        unambiguous) or the names given with the CVResults.
    params : mapping of str to tuple
        Each parameter's value per candidate, under the grid's names (a
        value JSON cannot hold is kept as its repr; ``"(not set)"`` where
        the candidate's part of the grid does not set the parameter); empty
        for CVResults.
    settings : mapping of str to object
        How the candidates were compared, stored as one field: the keys
        ``scoring``, ``n_splits``, ``n_repeats``, ``method``,
        ``correction``, ``alpha``, ``confidence_level``, ``margin``,
        ``margin_rule`` (where the margin came from: the metric's default or
        as given), ``df`` and, when checked, ``no_information_rate`` and
        ``majority_class``,
        described below (:attr:`settings` adds ``target``).
    scoring : str
        What a score is: ``"score"`` (the search's scorer), a metric name,
        or ``"accuracy"`` for CVResults.
    split_scores : ndarray of shape (n_candidates, n_repeats * n_splits)
        Each candidate's score on every split, repeat after repeat.
    n_splits, n_repeats : int
        k and r of the (repeated) k-fold cross-validation.
    table : mapping of str to ndarray
        The per-candidate figures, stored as one field: the columns
        ``mean_score``, ``estimate``, ``low``, ``high``, ``statistic``,
        ``pvalue``, ``pvalue_adjusted``, the three ``prob_*``,
        ``indistinguishable`` and, when checked, ``baseline_pvalue`` and
        ``beats_baseline``, described below (:attr:`table` adds the names,
        parameters and ``df``; :meth:`to_frame` shows it).
    mean_score : ndarray of float
        The mean split score (``mean_test_score``); nan for a candidate
        that has a missing score (a failed fit).
    best : int
        Index of the candidate with the highest mean score (the first of
        ties), the one every other is compared with.
    estimate, low, high : ndarray of float
        Score(candidate) - score(best): the mean difference over the
        splits and its ``confidence_level`` interval from the corrected t
        (not adjusted for the family: each holds on its own).
    statistic, pvalue : ndarray of float
        The corrected resampled t and its two-sided p-value.
    df : int
        Its degrees of freedom, k r - 1.
    pvalue_adjusted : ndarray of float
        The p-values adjusted for the family of comparisons (``correction``).
    prob_best_better, prob_equivalent, prob_candidate_better : ndarray of float
        The Bayesian correlated t's posterior probabilities that the best
        is better by more than ``margin``, that the two are within ``margin``,
        and that the candidate is better by more than ``margin``.
    indistinguishable : ndarray of bool
        Whether the candidate is not shown to be worse than the best:
        ``pvalue_adjusted > alpha`` (method ``"corrected_t"``) or
        ``prob_best_better < 1 - alpha`` (method ``"bayesian"``).
    selection_bias : float
        Tibshirani & Tibshirani's (2009) estimate of how much the best
        candidate's mean score is inflated by having been chosen on the same
        splits (always >= 0).
    method, correction : str
    alpha, confidence_level, margin : float
        ``margin``: the margin used, in the units of the scores (0 for none).
    target : str
        ``"unconditional"``: the differences are about learners, averaged
        over training sets, not about these fitted models.
    estimand, assumptions : str
    notes, warnings : tuple of str
    no_information_rate : float or None
        The largest class's share of the labels (caret's "No Information
        Rate"): the accuracy of always predicting ``majority_class``; None
        when it was not checked (the scores are not accuracy, or a search
        was given without ``y``).
    majority_class : label or None
        The most frequent label.
    baseline_pvalue : ndarray of float or None
        Each candidate's one-sided exact binomial p-value of accuracy >
        the no-information rate (nan for a missing score); None when not
        checked.
    beats_baseline : ndarray of bool or None
        Whether ``baseline_pvalue < alpha``: the candidate is shown to beat
        always predicting the majority class. None when not checked.
    """

    candidates: tuple
    params: types.MappingProxyType
    _settings: types.MappingProxyType
    split_scores: np.ndarray
    best: int
    _columns: types.MappingProxyType
    selection_bias: float
    target: str
    estimand: str
    assumptions: str
    notes: tuple = ()
    warnings: tuple = ()

    _kinds = {"candidates": Sequence(TEXT, min_length=2), "params": Mapping(Sequence(ANY)),
              "_settings": Fields(**_SETTING_KINDS).or_with(no_information_rate=P_VALUE, majority_class=ANY),
              "split_scores": Array("f", ndim=2),
              "_columns": Fields(**_ROW_KINDS).or_with(baseline_pvalue=proportions(1),
                                                       beats_baseline=Array("b", ndim=1)),
              "selection_bias": NON_NEGATIVE, "target": TARGET, "notes": TEXTS, "warnings": TEXTS}
    _rules = (_columns_agree, _best_is_a_candidate, _baseline_checked_or_not)

    @property
    def best_candidate(self):
        """The best candidate's name."""
        return self.candidates[self.best]

    @property
    def best_score_corrected(self):
        """The best mean score less the selection bias: a less optimistic estimate of the tuned learner."""
        return float(self._columns["mean_score"][self.best] - self.selection_bias)

    def __repr__(self):
        settings = self._settings
        return (f"{type(self).__name__}(best={self.best_candidate!r}, n_candidates={len(self.candidates)}, "
                f"n_indistinguishable={int(self._columns['indistinguishable'].sum())}, "
                f"method={settings['method']!r}, correction={settings['correction']!r})")

    def __str__(self):
        return self.summary()

    _repr_html_ = summary_html

    @property
    def table(self):
        """The per-candidate figures as columns, one entry per candidate in the search's order (no pandas needed).

        A read-only mapping of column name to a sequence, the columns of
        :meth:`to_frame`: ``candidate``, one ``param_<name>`` per parameter,
        ``mean_score``, ``estimate``, ``low``, ``high``, ``statistic``,
        ``df``, ``pvalue``, ``pvalue_adjusted``, ``prob_best_better``,
        ``prob_equivalent``, ``prob_candidate_better`` and
        ``indistinguishable``; then, when the candidates were checked
        against the no-information rate, ``baseline_pvalue`` and
        ``beats_baseline``.

        Returns
        -------
        types.MappingProxyType
        """
        columns = {"candidate": list(self.candidates)}
        columns.update((f"param_{name}", list(values)) for name, values in self.params.items())
        for name, column in self._columns.items():
            columns[name] = column
            if name == "statistic":
                columns["df"] = np.full(len(self.candidates), self._settings["df"])
        return types.MappingProxyType(columns)

    @property
    def settings(self):
        """How the candidates were compared, the same for every row of :attr:`table`.

        A read-only mapping: ``scoring``, ``n_splits``, ``n_repeats``,
        ``method``, ``correction``, ``alpha``, ``confidence_level``,
        ``margin``, ``margin_rule`` and ``df``; then, when the candidates were checked against
        the no-information rate, ``no_information_rate`` and
        ``majority_class``; then ``target``.

        Returns
        -------
        types.MappingProxyType
        """
        return types.MappingProxyType({**self._settings, "target": self.target})

    def to_frame(self):
        """:attr:`table` as a pandas DataFrame, one row per candidate in the search's order (needs pandas).

        Returns
        -------
        pandas.DataFrame
        """
        return import_pandas().DataFrame(dict(self.table))

    def _order(self):
        """Candidates by mean score, best first, missing scores last."""
        mean = self._columns["mean_score"]
        return sorted(range(len(self.candidates)), key=lambda i: (math.isnan(mean[i]), -np.nan_to_num(mean[i])))

    def summary(self):
        """The table of candidates against the best, what it estimates, and what to read from it.

        Returns
        -------
        str
        """
        s = self._settings
        level = format_level(s["confidence_level"])
        c = self._columns
        spread = np.abs(np.r_[c["low"], c["high"]])
        spread = spread[np.isfinite(spread)]
        # Four decimals on an accuracy's scale; on a smaller one (a squared error of a small target) they would
        # all read 0.0000, so the differences get four significant digits instead.
        shape = "+.4f" if spread.size == 0 or spread.max() >= 0.01 else "+.3e"
        rows = []
        for i in self._order():
            if i == self.best:
                cells = ["(best)", "", "", ""]
            else:
                cells = [f"{c['estimate'][i]:{shape}}", f"[{c['low'][i]:{shape}}, {c['high'][i]:{shape}}]",
                         format_number(c["pvalue"][i], 3), format_number(c["pvalue_adjusted"][i], 3)]
            rows.append([self.candidates[i], format_number(c["mean_score"][i]), *cells,
                         format_number(c["prob_best_better"][i], 3) if i != self.best else "",
                         "yes" if c["indistinguishable"][i] else "no"])
        header = ["candidate", f"mean {s['scoring']}", "minus best", f"{level} interval", "p",
                  f"p {s['correction']}", "P(best better)", "indistinguishable"]
        n_same = int(c["indistinguishable"].sum())
        decided = (f"adjusted p > {s['alpha']:g}" if s["method"] == "corrected_t"
                   else f"P(best better by more than {s['margin']:.4g}) < {1 - s['alpha']:g}")
        lines = [
            f"{len(self.candidates)} candidates against the best, {self.best_candidate} "
            f"(mean {s['scoring']} {format_number(c['mean_score'][self.best])}), on {s['n_repeats']} x "
            f"{s['n_splits']}-fold cross-validation",
            "",
            format_table(header, rows),
            "",
            *wrapped(f"P(best better): the Bayesian correlated t's probability that the best's score is higher (a "
                     f"loss lower) by more than the margin {s['margin_rule']}"),
            *wrapped(f"indistinguishable from the best ({decided}): {n_same} of {len(self.candidates)}"),
            *wrapped(f"selection bias of the best score (Tibshirani & Tibshirani 2009): "
                     f"{format_number(self.selection_bias)}; corrected best score "
                     f"{format_number(self.best_score_corrected)}"),
            *self._baseline_lines(),
            *described_lines(self),
        ]
        return "\n".join(lines + text_block("notes", self.notes) + text_block("warnings", self.warnings))

    def _baseline_lines(self):
        """Which candidates do not beat the no-information rate; nothing when it was not checked."""
        if "beats_baseline" not in self._columns:
            return []
        s = self._settings
        rate = (f"the no-information rate {format_number(s['no_information_rate'])} (always predicting "
                f"{s['majority_class']!r}, by the one-sided exact binomial test at {s['alpha']:g})")
        flagged = [self.candidates[i] for i in self._order()
                   if not self._columns["beats_baseline"][i] and math.isfinite(self._columns["mean_score"][i])]
        if not flagged:
            return wrapped(f"every candidate beats {rate}")
        text = f"{len(flagged)} of {len(self.candidates)} do not beat {rate}: {'; '.join(flagged)}"
        if not self._columns["beats_baseline"][self.best]:
            text += (f". The best candidate, {self.best_candidate}, is among them: its accuracy is no better "
                     "than ignoring the features")
        return wrapped(text)

    @fill_doc
    def plot(self, ax=None, *, path=None):
        """Each candidate's difference from the best with its interval; the indistinguishable ones in blue.

        Needs the ``plot`` extra (matplotlib).
        %(display)s

        Parameters
        ----------
        %(plot_ax)s
        %(plot_path)s

        Returns
        -------
        %(plot_returns)s
        """
        from ._plots import plot_candidates

        return plot_candidates(self, ax, path)



class _Baseline(NamedTuple):
    """The no-information rate, its class, and each candidate's p-value of accuracy > the rate."""

    rate: float
    majority_class: object
    pvalue: np.ndarray


def _label_counts(y):
    """The distinct labels of ``y`` and their counts (sorted, or in order of first appearance when unsortable)."""
    labels = np.asarray(y)
    if labels.ndim != 1 or labels.size == 0:
        raise ValueError(f"y must be the 1-d array of labels the search was fitted on; got shape {labels.shape}.")
    try:
        classes, counts = np.unique(labels, return_counts=True)
    except TypeError:
        counted = collections.Counter(labels.tolist())
        classes, counts = list(counted), np.array(list(counted.values()))
    return classes, counts


def _search_baseline(scores, y):
    """The baseline from the labels: k = the mean split accuracy times n, rounded down, of n = len(y)."""
    classes, counts = _label_counts(y)
    n = int(counts.sum())
    rate = float(counts.max() / n)
    pvalues = [no_information_pvalue(math.floor(round(mean * n, 9)), n, rate) if math.isfinite(mean) else math.nan
               for mean in mean_scores(scores)]
    return _Baseline(rate, python_scalar(classes[int(np.argmax(counts))]), np.array(pvalues))


def _records_baseline(results):
    """The baseline of named CVResults, each tested on its own records (:func:`no_information_test`)."""
    tests = [quietly(no_information_test, result) for result in named_results(results)[1]]
    return _Baseline(tests[0].details["no_information_rate"], tests[0].details["majority_class"],
                     np.array([test.pvalue for test in tests]))


NOT_CHECKED = ("the candidates were not checked against the no-information rate (always predicting the majority "
               "class); pass y=, the labels the search was fitted on, to check them")


def _baseline(search, scores, y):
    """The :class:`_Baseline` when the scores are accuracy and the labels are known; None otherwise."""
    named = isinstance(search, (dict, list, tuple))
    if named and y is not None:
        raise ValueError("y is for a fitted search, which does not keep its labels; named CVResults carry theirs. "
                         "Leave y=None.")
    if scores.scoring != "accuracy":
        return None
    if named:
        return _records_baseline(search)
    return None if y is None else _search_baseline(scores, y)


def _selection_bias(scores, best):
    """Tibshirani & Tibshirani (2009), section 2: mean over splits of (best score of the split - the chosen one's)."""
    return max(0.0, float(np.mean(scores.max(axis=0) - scores[best])))


def _comparisons(scores, valid, best, quantity, confidence_level, margin):
    """Per candidate: the corrected t, its interval and the Bayesian probabilities against the best."""
    n = len(scores.names)
    columns = {name: np.full(n, np.nan) for name in (
        "estimate", "low", "high", "statistic", "pvalue", "prob_best_better", "prob_equivalent",
        "prob_candidate_better")}
    first, degenerate = None, []
    for i in np.flatnonzero(valid):
        if i == best:
            continue
        differences = score_differences(scores.scores[i] - scores.scores[best], n_splits=scores.n_splits,
                                        n_repeats=scores.n_repeats, quantity=quantity,
                                        contrast="each candidate minus the best) of the candidates")
        test = quietly(corrected_ttest_of, differences)
        posterior = quietly(bayesian_ttest_of, differences, margin)
        first = first or test
        if test.warnings:
            degenerate.append(scores.names[i])
        half = reference_quantile((1 + confidence_level) / 2, test.df) * test.standard_error
        for name, value in (("estimate", test.estimate), ("low", test.estimate - half),
                            ("high", test.estimate + half), ("statistic", test.statistic), ("pvalue", test.pvalue),
                            ("prob_best_better", posterior.prob_b_better),
                            ("prob_equivalent", posterior.prob_equivalent),
                            ("prob_candidate_better", posterior.prob_a_better)):
            columns[name][i] = value
    return columns, first, degenerate


@validate_params(method=METHOD, correction=CORRECTION, alpha=SIGNIFICANCE_LEVEL, confidence_level=PROBABILITY,
                 margin=RULE, scoring=SCORING)
def compare_candidates(search, *, method="corrected_t", correction="holm", alpha=0.05, confidence_level=0.95,
                       margin="auto", scoring=None, y=None):
    """Which candidates of a search are really worse than the best?

    Every candidate is compared with the one of the highest mean score on
    the same splits, by the corrected resampled t (Nadeau & Bengio 2003;
    Bouckaert & Frank 2004 for repeated k-fold), with its p-values adjusted
    for the family of comparisons and the Bayesian correlated t's
    probabilities beside them. The candidates not shown to be worse are
    "indistinguishable from the best"; the best's own score is reported
    with an estimate of its selection bias.

    Parameters
    ----------
    search : GridSearchCV, RandomizedSearchCV, dict or list
        A fitted search whose splitter is a (repeated) k-fold partition: an
        int, ``KFold``, ``StratifiedKFold``, ``GroupKFold``,
        ``RepeatedKFold``, ``RepeatedStratifiedKFold``, ``EqualSizeKFold``,
        ``StratifiedEqualSizeKFold`` or ``StratifiedEqualSizeGroupKFold``
        (fitted with ``groups``). Or named CVResults on identical
        folds, ``{"name": result, ...}`` or ``[("name", result), ...]``,
        compared by their fold accuracies.
    method : {"corrected_t", "bayesian"}, default="corrected_t"
        What decides that a candidate is worse than the best: its
        adjusted corrected-t p-value at most ``alpha``, or a posterior
        probability of at least ``1 - alpha`` that the best is better by
        more than ``margin``. Both are reported either way.
    correction : {"holm", "bonferroni", "none"}, default="holm"
        The adjustment of the p-values for the m - 1 comparisons.
    alpha : float, default=0.05
        The level of the decisions: family-wise with ``"corrected_t"`` and
        Holm or Bonferroni; with ``"bayesian"``, a candidate is worse when
        the posterior probability that the best is better by more than
        ``margin`` reaches ``1 - alpha`` (no family-wise control).
    confidence_level : float, default=0.95
        The level of each difference's interval (per comparison, not
        simultaneous).
    margin : "auto", float or None, default="auto"
        The margin of practical equivalence of the Bayesian correlated t,
        in the units of the scores: a difference within +-``margin`` counts
        as none. ``"auto"`` takes the metric's default: 0.01 for a score on
        a proportion's scale (accuracy, balanced accuracy, ROC AUC, average
        precision, F1, precision, recall, Jaccard, MCC, R²: one percentage
        point), 1% of the best candidate's mean loss for a negated loss
        (``"neg_mean_squared_error"``, ``"neg_log_loss"``, ...,
        ``"max_error"``), and no margin for a score of unknown scale (a
        callable scorer, ``"score"``). None: no margin, so
        ``prob_best_better`` is the probability that the best is better at
        all. ``settings["margin"]`` holds the margin used and
        ``settings["margin_rule"]`` where it came from; the summary shows
        both.
    scoring : str, optional
        The metric to compare when the search scored several; None takes
        the one the search refits on (``refit="name"``).
    y : array-like of shape (n_samples,), optional
        The labels the search was fitted on. When the scores are accuracy,
        every candidate is checked against the no-information rate, the
        accuracy of always predicting the majority class of ``y``; a
        fitted search does not keep its labels, so without ``y`` it is not
        checked. Named CVResults carry their labels: leave it None.

    Returns
    -------
    CandidateComparison

    Raises
    ------
    ValueError
        When the splitter is not a k-fold partition (leave-one-out, shuffle
        splits, a list of splits), when ``cv_results_`` has no split scores,
        when fewer than two candidates have a score on every split, or for
        a successive-halving search.

    Warns
    -----
    InferenceWarning
        When candidates with a missing split score are left out, or a
        candidate's differences from the best have no spread.

    See Also
    --------
    corrected_resampled_ttest : the test for one pair of CVResults.
    SimplestIndistinguishable, OneStandardError : refit rules for ``GridSearchCV``.
    tuning_interval : nested cross-validation of the whole search.

    Notes
    -----
    For candidate c and the best b, the differences d_i = s_ci - s_bi of
    their scores on the N = k r splits give t = mean(d) /
    sqrt((1 / N + n_test / n_train) s_d^2) with N - 1 degrees of freedom,
    n_test / n_train = 1 / (k - 1) (Nadeau & Bengio 2003, Machine Learning
    52, eq. for the corrected resampled t; Bouckaert & Frank 2004, PAKDD,
    for r repeats of k-fold); the interval is mean(d) +- t_{N-1} times that
    standard error. This is the test of scikit-learn's example "Statistical
    comparison of models using grid search"; the naive t over the splits
    (factor 1 / N alone) rejects far too often, because splits share
    training data. The p-values are two-sided: the best was chosen because
    it scored highest on these very splits, so its lead is biased upwards,
    and a one-sided test would double down on that.

    Holm's (1979) step-down adjustment keeps the family-wise error (the
    chance of calling any candidate worse when none is) at ``alpha`` under
    any dependence, for a family of hypotheses fixed in advance;
    Bonferroni is its cruder bound. Here the reference, the best, is chosen
    by the same data, so that guarantee is not exact (Hsu 1996, "Multiple
    Comparisons", chapter 4, treats comparisons with the best); the
    calibration benchmark measures the family-wise error of equal
    candidates (``docs/calibration.md``).

    The Bayesian correlated t (Corani & Benavoli 2015; Benavoli et al.
    2017, JMLR 18(77), section 3) reads the same differences as a posterior
    for their mean with correlation rho = 1 / k. Its margin must be
    in the scores' units: Benavoli et al. (2017) compare accuracies with a
    margin of 0.01, one percentage point, which is this function's default
    for scores on a proportion's scale; a loss has no such scale (a
    squared error is in the target's units squared), so its default is
    the same 1% taken relative to the best candidate's mean loss, and a
    score of unknown scale gets no margin. Scores are higher-is-better
    (scikit-learn's scorers negate a loss), so "the best is better" is a
    lower loss.

    Selection bias: Tibshirani & Tibshirani (2009), "A bias correction for
    the minimum error rate in cross-validation", Ann. Appl. Stat. 3(2),
    section 2, in scores: the mean over the splits of (the highest score of
    any candidate on the split minus the best candidate's score on it). It
    estimates how far the best mean score overstates the tuned learner;
    :func:`tuning_interval` measures the whole tuning procedure by nested
    cross-validation instead.

    What it estimates: differences in expected score of learners fitted to
    (k - 1) / k of the data (target ``"unconditional"``), not of the models
    fitted here. The correction is a heuristic for k-fold.

    The baseline: a candidate can be the best and still no better than a
    classifier that ignores the features. When the scores are accuracy,
    each candidate is tested against the no-information rate (R caret's
    ``confusionMatrix``: the largest class's share of the labels) by the
    one-sided exact binomial test of :func:`no_information_test`, at level
    ``alpha`` and without adjustment for the family (a flag to look at, not
    a decision). For a search, the count of correct predictions is the mean
    split accuracy times n = len(y), rounded down: the pooled count when
    the folds have equal sizes, and never in the candidate's favour;
    repeats test the same n instances, so n is counted once (Wong 2015,
    section 4.3.4). Named CVResults are tested on their own records (those
    made with groups by the cluster-robust t that ``no_information_test``
    chooses for them).

    Examples
    --------
    >>> from sklearn.datasets import load_breast_cancer
    >>> from sklearn.model_selection import GridSearchCV, RepeatedStratifiedKFold
    >>> from sklearn.tree import DecisionTreeClassifier
    >>> from cvinference import compare_candidates
    >>> X, y = load_breast_cancer(return_X_y=True)
    >>> cv = RepeatedStratifiedKFold(n_splits=5, n_repeats=2, random_state=0)
    >>> search = GridSearchCV(DecisionTreeClassifier(random_state=0), {"max_depth": [1, 2, 3, 5, None]},
    ...                       cv=cv).fit(X, y)
    >>> comparison = compare_candidates(search)
    >>> comparison.best_candidate
    'max_depth=5'
    >>> comparison.to_frame()[["candidate", "estimate", "pvalue_adjusted", "indistinguishable"]].round(4)
            candidate  estimate  pvalue_adjusted  indistinguishable
    0     max_depth=1   -0.0422           0.0726               True
    1     max_depth=2   -0.0193           0.3786               True
    2     max_depth=3   -0.0070           1.0000               True
    3     max_depth=5       NaN              NaN               True
    4  max_depth=None   -0.0062           1.0000               True
    >>> round(comparison.selection_bias, 4), round(comparison.best_score_corrected, 4)
    (0.0088, 0.9244)
    """
    scores = split_scores(search, scoring)
    baseline = _baseline(search, scores, y)
    return comparison_of(scores, method=method, correction=correction, alpha=alpha,
                         confidence_level=confidence_level, margin=margin, baseline=baseline)


def _baseline_columns(baseline, alpha):
    """The no-information columns of a :class:`CandidateComparison` (none when not checked)."""
    if baseline is None:
        return {}
    return {"baseline_pvalue": _floats(baseline.pvalue),
            "beats_baseline": readonly_array(baseline.pvalue < alpha, np.bool_)}


def _baseline_settings(baseline):
    """The no-information settings of a :class:`CandidateComparison` (none when not checked)."""
    return {} if baseline is None else {"no_information_rate": baseline.rate,
                                        "majority_class": baseline.majority_class}


def comparison_of(scores, *, method, correction, alpha, confidence_level, margin, baseline=None):
    """The :class:`CandidateComparison` of checked :class:`SplitScores`, with the ``baseline`` when checked."""
    messages = Messages()
    valid = np.isfinite(scores.scores).all(axis=1)
    if valid.sum() < 2:
        raise ValueError(
            f"comparing candidates needs at least 2 candidates with a score on every split; {int(valid.sum())} "
            f"of {len(scores.names)} have one (a failed fit leaves nan, see the search's error_score)."
        )
    if not valid.all():
        left_out = [scores.names[i] for i in np.flatnonzero(~valid)]
        messages.warn(f"left out of the comparison, for a missing split score (a failed fit?): {left_out}")
    mean = mean_scores(scores)
    best = int(np.nanargmax(mean))
    chosen = resolved_margin(margin, scores.scoring, mean[best])
    margin = chosen.value
    quantity = scores.scoring if scores.scoring in ("accuracy", "score") else f"score ({scores.scoring})"
    columns, first, degenerate = _comparisons(scores, valid, best, quantity, confidence_level, margin)
    if degenerate:
        messages.warn(f"the differences from the best have no spread for {degenerate}: p = 1 where they are all "
                      "0 (identical scores on every split); where the candidate is behind by the same amount on "
                      "every split, p is undefined (nan) and the candidate counts as worse")
    adjusted = adjust_pvalues(columns["pvalue"], correction)
    behind_everywhere = np.isnan(columns["pvalue"]) & (columns["estimate"] < 0)
    if method == "corrected_t":
        indistinguishable = ~(adjusted <= alpha) & ~behind_everywhere
        decision = (f"the decisions use the {correction} adjustment over {int(valid.sum()) - 1} comparisons, "
                    f"at a family-wise level of {alpha:g}")
    else:
        indistinguishable = ~(columns["prob_best_better"] >= 1 - alpha)
        decision = (f"the decisions use the posterior probability that the best is better by more than "
                    f"{margin:.4g}, at least {1 - alpha:g} for 'worse'; they do not control a family-wise error")
    indistinguishable &= valid
    indistinguishable[best] = True
    k, r = scores.n_splits, scores.n_repeats
    messages.note(first.notes[0])
    messages.note(f"intervals at {format_level(confidence_level)} hold one comparison at a time; {decision}")
    messages.note("the best candidate was chosen on these splits, so its lead over the others is biased upwards; "
                  "two-sided p-values are the cautious reading")
    if baseline is None and scores.scoring == "accuracy":
        messages.note(NOT_CHECKED)
    return CandidateComparison(
        candidates=scores.names,
        params=types.MappingProxyType(dict(scores.params)),
        _settings=types.MappingProxyType({
            "scoring": scores.scoring, "n_splits": k, "n_repeats": r, "method": method, "correction": correction,
            "alpha": alpha, "confidence_level": confidence_level, "margin": margin, "margin_rule": chosen.rule,
            "df": k * r - 1,
            **_baseline_settings(baseline)}),
        split_scores=_floats(scores.scores), best=best,
        _columns=types.MappingProxyType({
            "mean_score": _floats(mean), **{name: _floats(columns[name]) for name in _COMPUTED},
            "pvalue_adjusted": _floats(adjusted), **{name: _floats(columns[name]) for name in _POSTERIOR},
            "indistinguishable": readonly_array(indistinguishable, np.bool_), **_baseline_columns(baseline, alpha)}),
        selection_bias=_selection_bias(scores.scores[valid], int(np.flatnonzero(valid).tolist().index(best))),
        target="unconditional", estimand=first.estimand,
        assumptions=first.assumptions, notes=tuple(messages.notes), warnings=tuple(messages.warnings),
    )
