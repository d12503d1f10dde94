"""Does a classifier beat the trivial one that always predicts the majority class?"""

import math
import types

import numpy as np
from scipy import stats

from .._utils._params import validate_params
from .._utils._warnings import Messages
from ._estimands import accuracy_estimand
from ._inputs import check_accuracy_result
from ._parameters import REPEAT
from ._repeats import n_correct, select_repeats
from ._results import NoInformationTestResult

METHOD = "exact binomial test of accuracy > no-information rate"


def no_information_pvalue(k, n, rate):
    """P(X >= k) for X ~ Binomial(n, rate): ``scipy.stats.binomtest``'s one-sided p-value of accuracy > ``rate``."""
    return float(stats.binomtest(int(k), int(n), float(rate), alternative="greater").pvalue)


def _imbalance_ratio(counts):
    present = counts[counts > 0]
    return float(present.max() / present.min())


@validate_params(repeat=REPEAT)
def no_information_test(result, *, repeat=None):
    """Is the accuracy higher than always predicting the majority class?

    The no-information rate (NIR) is the largest class's share of the tested
    instances' true labels (:attr:`CVResult.no_information_rate`): the
    accuracy of a classifier that ignores the features and always predicts
    the majority class. An accuracy of 96% means little when 96% of the
    instances belong to one class. This is R caret's ``confusionMatrix``
    test "P-Value [Acc > NIR]": the one-sided exact binomial test of the
    count of correct predictions against the NIR.

    Parameters
    ----------
    result : CVResult
        A classifier's result (any splitter: k-fold, leave-one-out, holdout).
    repeat : int or None, default=None
        The repeat to use; None uses all of them, counting the n instances
        once (see Notes).

    Returns
    -------
    NoInformationTestResult
        A :class:`TestResult` with ``alternative="greater"``, ``statistic``
        the count k of correct predictions tested, ``df`` None,
        ``estimate`` the accuracy minus the NIR, and ``details`` holding
        ``no_information_rate``, ``majority_class``, ``n_correct`` (k),
        ``n_tested`` (n), ``accuracy`` and ``imbalance_ratio`` (the largest
        class count over the smallest). ``confidence_interval()`` is the
        one-sided exact interval for the accuracy minus the NIR.

    Raises
    ------
    ValueError
        For a regression result, which has no classes and no accuracy.

    Warns
    -----
    InferenceWarning
        When ``y_true`` holds a single class: the NIR is 1, which no
        classifier can exceed (p = 1).

    See Also
    --------
    accuracy_interval : the interval around the accuracy itself.
    metric_interval : a metric that sees class imbalance, such as
        ``"balanced_accuracy"`` or ``"matthews_corrcoef"``.

    Notes
    -----
    With k correct predictions of n tested instances and NIR = max_c n_c / n
    (n_c the count of class c in ``y_true``), the p-value is
    P(X >= k) for X ~ Binomial(n, NIR), computed by
    ``scipy.stats.binomtest(k, n, p=NIR, alternative="greater")``. This is
    the "No Information Rate" and "P-Value [Acc > NIR]" of R caret's
    ``confusionMatrix`` (Kuhn 2008, J. Stat. Softw. 28(5); caret's
    documentation of ``confusionMatrix``), which calls ``binom.test`` in the
    same way. Like caret, the test takes the NIR as known, although it is
    estimated from the same labels; and it treats the n predictions as
    independent trials (instance independence, as Wong's 2015 Theorem 1
    does).

    Repeats: repeated cross-validation tests the same n instances again, so
    its repeats are not independent (Wong 2015, section 4.3.4) and pooling
    them must not count n r trials. With several repeats and
    ``repeat=None`` the test uses n (one repeat's instances) and k = the
    repeats' mean count of correct predictions, rounded down (a whole count
    for the binomial, never in the classifier's favour); ``estimate`` uses
    the pooled accuracy before rounding. Leave-one-out tests each instance
    once and needs nothing special.

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
    """
    check_accuracy_result(result)
    rows = select_repeats(result, repeat)
    messages = Messages()
    n = result.n_samples
    counts = result.class_counts
    rate, majority = result.no_information_rate, result.majority_class
    total_correct = n_correct(result, rows)
    k = total_correct // len(rows)
    if len(rows) > 1:
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
    return NoInformationTestResult(
        statistic=float(k), pvalue=no_information_pvalue(k, n, rate), df=None, alternative="greater",
        estimate=accuracy - rate, standard_error=math.sqrt(accuracy * (1 - accuracy) / n), method=METHOD,
        estimand=estimand, target="kfold",
        assumptions="instance independence; exact binomial; the no-information rate taken as known",
        _interval_standard_error=math.sqrt(accuracy * (1 - accuracy) / n), details=types.MappingProxyType(details),
        notes=tuple(messages.notes), warnings=tuple(messages.warnings),
    )
