"""Does a classifier beat the trivial one that always predicts the majority class?"""

import math
import types

import numpy as np
from scipy import stats

from .._utils._params import Options, validate_params
from .._utils._text import grouped_baseline_words
from .._utils._warnings import Messages
from ._clusters import CLUSTER_INSTEAD, ROBUST_ASSUMPTIONS, pooled_ratio, require_clusters, with_grouped_warning
from ._distributions import pvalue_of
from ._estimands import accuracy_estimand
from ._inputs import about_one_record, check_accuracy_result
from ._parameters import REPEAT
from ._repeats import n_correct, select_repeats
from ._results import NoInformationTestResult

METHOD = "exact binomial test of accuracy > no-information rate"
CLUSTER_METHOD = "cluster-robust t test of accuracy > no-information rate"
METHODS = ("auto", "exact", "cluster")


def no_information_pvalue(k, n, rate):
    """P(X >= k) for X ~ Binomial(n, rate): ``scipy.stats.binomtest``'s one-sided p-value of accuracy > ``rate``."""
    return float(stats.binomtest(int(k), int(n), float(rate), alternative="greater").pvalue)


def _imbalance_ratio(counts):
    present = counts[counts > 0]
    return float(present.max() / present.min())


@validate_params(repeat=REPEAT, method=Options(*METHODS))
@about_one_record
def no_information_test(result, *, repeat=None, method="auto"):
    """Is the accuracy higher than always predicting the majority class?

    The no-information rate (NIR) is the largest class's share of the tested
    instances' true labels (:attr:`CVResult.no_information_rate`): the
    accuracy of a classifier that ignores the features and always predicts
    the majority class. An accuracy of 96% means little when 96% of the
    instances belong to one class. This is R caret's ``confusionMatrix``
    test "P-Value [Acc > NIR]": the one-sided exact binomial test of the
    count of correct predictions against the NIR. On a record made with
    ``groups`` the instances of a group are not independent trials, and the
    test is the one-sided cluster-robust t of the accuracy against the NIR.

    Parameters
    ----------
    result : CVResult
        A classifier's result (any splitter: k-fold, leave-one-out, holdout).
    repeat : int or None, default=None
        The repeat to use; None uses all of them, counting the n instances
        once (see Notes).
    method : {"auto", "exact", "cluster"}, default="auto"
        ``"exact"``: caret's exact binomial test, which counts every
        instance as an independent trial (it warns on a record made with
        groups). ``"cluster"``: the cluster-robust t, the groups as the
        independent units (a record made with ``groups`` only).
        ``"auto"``: ``"cluster"`` on a record made with groups, ``"exact"``
        otherwise.

    Returns
    -------
    NoInformationTestResult
        A :class:`TestResult` with ``alternative="greater"``, ``estimate``
        the accuracy minus the NIR, and ``details`` holding
        ``no_information_rate``, ``majority_class``, ``n_correct`` (k),
        ``n_tested`` (n), ``accuracy`` and ``imbalance_ratio`` (the largest
        class count over the smallest). ``"exact"``: ``statistic`` the count
        k of correct predictions tested, ``df`` None, and
        ``confidence_interval()`` the one-sided exact interval for the
        accuracy minus the NIR. ``"cluster"``: ``statistic`` the t, ``df``
        = G - 1, ``standard_error`` the cluster-robust one,
        ``confidence_interval()`` the one-sided t interval, and ``details``
        also hold the figures of the cluster-robust interval
        (``n_groups``, ``min_group_size``, ``max_group_size``,
        ``groups_within_folds``, ``design_effect``, ``effective_n``,
        ``intraclass_correlation``, ``iid_standard_error``,
        ``small_sample_factor``; see :func:`accuracy_interval`).

    Raises
    ------
    ValueError
        For a regression result, which has no classes and no accuracy, and
        for ``method="cluster"`` on a record made without groups.

    Warns
    -----
    InferenceWarning
        When ``y_true`` holds a single class: the NIR is 1, which no
        classifier can exceed (p = 1). ``"exact"`` on a record made with
        groups; ``"cluster"`` with fewer than 20 groups, when the folds
        split a group, and when every group has the same accuracy (no
        spread: the t is undefined).

    See Also
    --------
    accuracy_interval : the interval around the accuracy itself.
    metric_interval : a metric that sees class imbalance, such as
        ``"balanced_accuracy"`` or ``"matthews_corrcoef"``.

    Notes
    -----
    ``"exact"``: with k correct predictions of n tested instances and NIR =
    max_c n_c / n (n_c the count of class c in ``y_true``), the p-value is
    P(X >= k) for X ~ Binomial(n, NIR), computed by
    ``scipy.stats.binomtest(k, n, p=NIR, alternative="greater")``. This is
    the "No Information Rate" and "P-Value [Acc > NIR]" of R caret's
    ``confusionMatrix`` (Kuhn 2008, J. Stat. Softw. 28(5); caret's
    documentation of ``confusionMatrix``), which calls ``binom.test`` in the
    same way. Like caret, the test takes the NIR as known, although it is
    estimated from the same labels; and it treats the n predictions as
    independent trials (instance independence, as Wong's 2015 Theorem 1
    does).

    ``"cluster"``: the accuracy as the ratio estimator p = sum_g Y_g / N of
    the groups' counts of correct predictions Y_g, with the cluster-robust
    (CR1) variance V = G / (G - 1) sum_g (Y_g - p m_g)^2 / N^2 of
    :func:`accuracy_interval`'s ``method="cluster"`` (Cameron & Miller
    2015, "A practitioner's guide to cluster-robust inference", J. Human
    Resources 50(2), section II.C), and t = (p - NIR) / sqrt(V) referred
    to the upper tail of t with G - 1 degrees of freedom (section VI). It
    is the one-sided test of statsmodels' ``OLS(correct, 1).fit(
    cov_type="cluster")`` of the intercept against the NIR. The NIR is
    taken as known, as in the exact test.

    Repeats: repeated cross-validation tests the same n instances again, so
    its repeats are not independent (Wong 2015, section 4.3.4) and pooling
    them must not count n r trials. With several repeats and
    ``repeat=None`` the exact test uses n (one repeat's instances) and k =
    the repeats' mean count of correct predictions, rounded down (a whole
    count for the binomial, never in the classifier's favour); ``estimate``
    uses the pooled accuracy before rounding. The cluster-robust t averages
    the repeats' accuracies and their variances, as
    :func:`accuracy_interval` does. Leave-one-out tests each instance once
    and needs nothing special.

    Examples
    --------
    >>> from cvinference import CVResult, no_information_test
    >>> y_true = [1] * 16 + [0] * 4
    >>> always_one = CVResult(y_true=y_true, y_pred=[1] * 20, fold=[0, 1] * 10)
    >>> test = no_information_test(always_one)
    >>> test.details["no_information_rate"], test.details["majority_class"], round(test.pvalue, 4)
    (0.8, 1, 0.6296)
    >>> better = CVResult(y_true=y_true, y_pred=y_true, fold=[0, 1] * 10)
    >>> round(no_information_test(better).pvalue, 4)
    0.0115

    On a record made with groups, ``method="auto"`` counts the groups: 30
    patients of 4 rows, every sixth patient wrong on all of them. The exact
    test counts 120 independent trials:

    >>> import warnings
    >>> import numpy as np
    >>> patient = np.repeat(np.arange(30), 4)
    >>> y_true = np.array([1, 1, 1, 0] * 30)
    >>> right = patient % 6 != 0
    >>> grouped = CVResult(y_true=y_true, y_pred=np.where(right, y_true, 1 - y_true), fold=patient % 5,
    ...                    groups=patient)
    >>> test = no_information_test(grouped)
    >>> test.method, test.df, round(test.estimate, 4), round(test.pvalue, 4)
    ('cluster-robust t test of accuracy > no-information rate', 29, 0.0833, 0.1191)
    >>> with warnings.catch_warnings():
    ...     warnings.simplefilter("ignore")  # the exact test on a grouped record
    ...     round(no_information_test(grouped, method="exact").pvalue, 4)
    0.0193
    """
    check_accuracy_result(result)
    rows = select_repeats(result, repeat)
    if method == "auto":
        method = "exact" if result.groups is None else "cluster"
    clusters = require_clusters(result, "method='cluster'") if method == "cluster" else None
    messages = Messages()
    n = result.n_samples
    counts = result.class_counts
    rate, majority = result.no_information_rate, result.majority_class
    total_correct = n_correct(result, rows)
    k = total_correct // len(rows)
    if len(rows) > 1 and clusters is None:
        messages.note(
            f"{len(rows)} repeats pooled: they reuse the same {n} instances and are not independent (Wong 2015, "
            f"section 4.3.4), so the test counts n = {n} trials and k = {k}, the repeats' mean count of correct "
            f"predictions ({total_correct / len(rows):.4g}) rounded down"
        )
    if np.count_nonzero(counts) == 1:
        messages.warn(
            f"y_true holds a single class ({majority!r}): the no-information rate is 1, and no classifier can be "
            "more accurate than always predicting it (p = 1). Test on data with more than one class."
        )
    accuracy = total_correct / (n * len(rows))
    details = {"no_information_rate": rate, "majority_class": majority, "n_correct": int(k), "n_tested": n,
               "accuracy": accuracy, "imbalance_ratio": _imbalance_ratio(counts)}
    estimand = (f"{accuracy_estimand(result)}; against the no-information rate {rate:.4g}, the accuracy of always "
                f"predicting {majority!r}")
    if clusters is not None:
        return _cluster_test(result, rows, clusters, details, estimand, messages)
    standard_error = math.sqrt(accuracy * (1 - accuracy) / n)
    test = NoInformationTestResult(
        statistic=float(k), pvalue=no_information_pvalue(k, n, rate), df=None, alternative="greater",
        estimate=accuracy - rate, standard_error=standard_error, method=METHOD, estimand=estimand, target="kfold",
        assumptions="instance independence; exact binomial; the no-information rate taken as known",
        _interval_standard_error=standard_error, details=types.MappingProxyType(details),
        notes=tuple(messages.notes), warnings=tuple(messages.warnings),
    )
    return with_grouped_warning(test, result, rows, "the exact binomial test of accuracy > NIR", CLUSTER_INSTEAD)


def _cluster_test(result, rows, clusters, details, estimand, messages):
    """The one-sided cluster-robust t of the accuracy against the no-information rate."""
    pooled = pooled_ratio(result.correct[list(rows)].astype(np.float64), clusters, result.fold[list(rows)], messages,
                          "cluster-robust t test of accuracy > NIR")
    difference = pooled.estimate - details["no_information_rate"]
    standard_error, df = math.sqrt(pooled.variance), clusters.n_groups - 1
    if len(rows) > 1:
        messages.note(f"{len(rows)} repeats pooled: the accuracy is their mean and the variance the mean of their "
                      "cluster-robust variances, which does not count them as independent (Wong 2015, section 4.3.4)")
    if standard_error > 0:
        statistic = difference / standard_error
        pvalue = pvalue_of(statistic, df, "greater")
    elif difference > 0:
        statistic, pvalue = math.inf, math.nan
        messages.warn(f"Every group has the same accuracy ({pooled.estimate:.4g}), so the cluster-robust standard "
                      "error is 0 and the t is undefined (p = nan); method='exact' tests the count of correct "
                      "predictions, counting the instances as independent.")
    else:
        statistic, pvalue = (0.0 if difference == 0 else -math.inf), 1.0
        messages.warn(f"Every group has the same accuracy ({pooled.estimate:.4g}), so the cluster-robust standard "
                      "error is 0; the accuracy is not above the no-information rate (p = 1).")
    return NoInformationTestResult(
        statistic=statistic, pvalue=pvalue, df=df, alternative="greater", estimate=difference,
        standard_error=standard_error, method=CLUSTER_METHOD, estimand=estimand + "; groups, not instances, "
        "independent", target="kfold", assumptions=ROBUST_ASSUMPTIONS + "; the no-information rate taken as known",
        _interval_standard_error=standard_error, _interval_df=df,
        details=types.MappingProxyType(details | pooled.details), notes=tuple(messages.notes),
        warnings=tuple(messages.warnings),
    )


def baseline_test_words(test):
    """How reports name a baseline test (no_information_test, mean_baseline_test): "one-sided exact binomial",
    "one-sided CV-CLT" or, on a grouped record, "one-sided cluster-robust t, 50 groups"."""
    if "n_groups" in test.details:
        return grouped_baseline_words(test.details["n_groups"])
    return "one-sided exact binomial" if isinstance(test, NoInformationTestResult) else "one-sided CV-CLT"
