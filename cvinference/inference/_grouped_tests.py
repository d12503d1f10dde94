"""Tests of two learners on a grouped record: the groups, not the instances, are the independent units."""

import dataclasses

import numpy as np

from .._utils._params import Options, validate_params
from .._utils._warnings import Messages
from ._clustered import MCNEMAR_METHODS, clustered_mcnemar_of, paired_difference_result
from ._clusters import require_clusters
from ._estimands import difference_estimand
from ._inputs import check_accuracy_result, check_cv_result, two_results
from ._paired_tests import check_paired
from ._parameters import ALTERNATIVE, REPEAT
from ._repeats import pooled_repeats_warning, select_repeats


def _grouped_pair(a, b, function, check=check_cv_result):
    """``a`` and ``b`` of one grouped pair: the same instances, the same groups, and the groups' Clusters."""
    a, b = two_results(a, b, function)
    check(a, "a")
    check(b, "b")
    check_paired(a, b, function)
    clusters = require_clusters(a, f"{function}()")
    if b.groups is None or not np.array_equal(a.groups, b.groups):
        raise ValueError(f"{function}() needs a and b made with the same groups; b has "
                         f"{'none' if b.groups is None else 'other groups'}. Evaluate both with the same groups= "
                         "(CVEvaluator.compare(..., groups=groups) does).")
    return a, b, clusters


@validate_params(method=Options(*MCNEMAR_METHODS), alternative=ALTERNATIVE, repeat=REPEAT)
def clustered_mcnemar_test(a, b=None, *, method="obuchowski", alternative="two-sided", repeat=None):
    """McNemar-type test of two classifiers' accuracies when the instances come in groups.

    Parameters
    ----------
    a : CVResult or PairedCVResult
        Classifier A's result, made with ``groups``, or a pair holding both
        (as :meth:`CVEvaluator.compare` makes it) with ``b`` left out.
    b : CVResult, optional
        Classifier B's result on the same instances with the same groups.
    method : {"obuchowski", "durkalski"}, default="obuchowski"
        Obuchowski's (1998) statistic, which weighs the instances equally,
        or Durkalski et al.'s (2003), which weighs the groups equally.
    alternative : {"two-sided", "less", "greater"}, default="two-sided"
        ``"greater"`` is "A is more accurate".
    repeat : int or None, default=None
        The repeat to use; needed when the results have several repeats
        (pooling them would count each instance several times), as for
        :func:`mcnemar_test`.

    Returns
    -------
    TestResult
        ``statistic`` the chi-square with df = 1, ``estimate`` accuracy(A)
        - accuracy(B), ``standard_error`` its cluster-robust one;
        ``details`` as the array form's: b and c, the accuracies, the
        number of groups and of discordant groups, the group sizes and
        ``groups_within_folds``.

    Warns
    -----
    InferenceWarning
        With fewer than 20 groups, when no group is discordant, and when the
        folds split a group.

    See Also
    --------
    mcnemar_test : the instance-level test, for independent instances.
    cluster_paired_test : the cluster-robust paired t of any per-instance loss.

    Notes
    -----
    In group k with n_k instances, b_k are right by A only and c_k by B
    only, d_k = b_k - c_k, K groups and N instances. Obuchowski (1998),
    Statistics in Medicine 17:1495-1507, in the form of Yang, Sun & Hardin
    (2010), Biometrical Journal 52(5): X^2 = (K - 1) / K (sum_k d_k)^2 /
    sum_k d_k^2. Durkalski, Palesch, Lipsitz & Rust (2003), Statistics in
    Medicine 22:2417-2428: X^2 = (sum_k d_k / n_k)^2 / sum_k (d_k /
    n_k)^2. Both are referred to chi-square with one degree of freedom;
    with one instance per group Durkalski's is McNemar's chi-square
    without continuity correction. The folds should keep each group whole
    (a group-respecting splitter); otherwise a group's instances are tested
    by models that saw the rest of the group.

    Examples
    --------
    Twelve patients of four rows each; A and B disagree mostly on some
    patients:

    >>> import warnings
    >>> import numpy as np
    >>> from cvinference import CVResult
    >>> from cvinference.inference import clustered_mcnemar_test
    >>> patient = np.repeat(np.arange(12), 4)
    >>> fold = patient % 3
    >>> y_true = np.zeros(48, dtype=int)
    >>> right_a = np.array([1, 1, 1, 1, 1, 1, 1, 0, 1, 1, 0, 1] * 4).reshape(4, 12).T.ravel()
    >>> right_b = np.array([1, 0, 0, 1, 1, 0, 1, 0, 1, 1, 0, 1] * 4).reshape(4, 12).T.ravel()
    >>> a = CVResult(y_true=y_true, y_pred=1 - right_a, fold=fold, groups=patient)
    >>> b = CVResult(y_true=y_true, y_pred=1 - right_b, fold=fold, groups=patient)
    >>> with warnings.catch_warnings():
    ...     warnings.simplefilter("ignore")  # fewer than 20 groups
    ...     test = clustered_mcnemar_test(a, b)
    >>> test.details["a_correct_b_wrong"], test.details["discordant_groups"], round(test.statistic, 3)
    (12, 3, 2.75)
    """
    a, b, _ = _grouped_pair(a, b, "clustered_mcnemar_test", check_accuracy_result)
    if repeat is None and max(a.n_repeats, b.n_repeats) > 1:
        raise ValueError(
            "clustered_mcnemar_test counts instances in each group, and pooling repeats would count each one several "
            f"times; a has n_repeats={a.n_repeats} and b has n_repeats={b.n_repeats}. Pass repeat=0 (or another "
            "repeat), or use cluster_paired_test, which averages the repeats.")
    (row_a,), (row_b,) = select_repeats(a, repeat, "a"), select_repeats(b, repeat, "b")
    test = clustered_mcnemar_of(a.correct[row_a], b.correct[row_b], a.groups, method=method,
                                alternative=alternative, fold=a.fold[row_a])
    return dataclasses.replace(test, estimand=difference_estimand(a, b) + "; groups, not instances, independent")


@validate_params(alternative=ALTERNATIVE, repeat=REPEAT)
def cluster_paired_test(a, b=None, *, alternative="two-sided", repeat=None):
    """Cluster-robust paired t of two learners' mean per-instance losses on the same grouped instances.

    Parameters
    ----------
    a : CVResult or PairedCVResult
        Learner A's result, made with ``groups``, or a pair holding both
        with ``b`` left out.
    b : CVResult, optional
        Learner B's result on the same instances with the same groups and
        the same loss.
    alternative : {"two-sided", "less", "greater"}, default="two-sided"
        ``"greater"`` is "A is better" (its mean loss is smaller).
    repeat : int or None, default=None
        The repeat to use; None averages the repeats (see Notes).

    Returns
    -------
    TestResult or LossDifferenceTestResult
        ``estimate`` mean loss(B) - mean loss(A), positive when A is better:
        for the 0/1 loss of classifiers, accuracy(A) - accuracy(B) and a
        :class:`TestResult`; for any other loss a
        :class:`LossDifferenceTestResult`. ``statistic`` is the t with
        ``df`` = G - 1; ``details`` hold the mean losses, the number of
        groups, their sizes, the design effect of the differences and
        ``groups_within_folds``.

    Warns
    -----
    InferenceWarning
        With fewer than 20 groups, when repeats are pooled, and when the folds
        split a group.

    See Also
    --------
    clustered_mcnemar_test : the McNemar-type test for accuracy.
    loss_difference_test : Bayle et al.'s test, which counts instances as the units.

    Notes
    -----
    With D_i = L_i(B) - L_i(A), group totals D_g, sizes m_g and N instances,
    the estimate is Dbar = sum_g D_g / N and its variance the cluster-robust
    (CR1) V = G / (G - 1) sum_g (D_g - Dbar m_g)^2 / N^2 (Cameron & Miller
    2015, "A practitioner's guide to cluster-robust inference", J. Human
    Resources 50(2), section II.C with a constant as the only regressor);
    t = Dbar / sqrt(V) is referred to t with G - 1 degrees of freedom
    (section VI). It is statsmodels' ``OLS(D, 1).fit(cov_type="cluster")``.
    With R repeats the estimate is the mean of the per-repeat estimates and
    V the mean of their variances, which bounds the variance of the mean
    whatever the repeats' correlation (Wong 2015, section 4.3.4, and the
    Cauchy-Schwarz argument of :func:`accuracy_interval`'s Notes).

    Examples
    --------
    >>> import warnings
    >>> import numpy as np
    >>> from cvinference import CVResult
    >>> from cvinference.inference import cluster_paired_test
    >>> patient = np.repeat(np.arange(25), 4)
    >>> rng = np.random.RandomState(0)
    >>> y_true = np.zeros(100, dtype=int)
    >>> hard = rng.rand(25)[patient]
    >>> a = CVResult(y_true=y_true, y_pred=(rng.rand(100) < 0.5 * hard).astype(int), fold=patient % 5,
    ...              groups=patient)
    >>> b = CVResult(y_true=y_true, y_pred=(rng.rand(100) < 0.8 * hard).astype(int), fold=patient % 5,
    ...              groups=patient)
    >>> test = cluster_paired_test(a, b)
    >>> test.df, test.estimate == a.accuracy - b.accuracy
    (24, True)
    """
    a, b, clusters = _grouped_pair(a, b, "cluster_paired_test")
    if a.loss_name != b.loss_name:
        raise ValueError(f"cluster_paired_test compares one loss; a has loss {a.loss_name!r} and b {b.loss_name!r}. "
                         "Evaluate both with the same loss=.")
    rows = list(select_repeats(a, repeat, "a"))
    select_repeats(b, repeat, "b")
    if a.n_repeats != b.n_repeats and repeat is None:
        raise ValueError(f"a has n_repeats={a.n_repeats} and b has n_repeats={b.n_repeats}; pass repeat= to test "
                         "one repeat of each, or evaluate both with the same repeats.")
    messages = Messages()
    if len(rows) > 1:
        messages.warn(pooled_repeats_warning(len(rows)))
    estimand = (difference_estimand(a, b) + "; groups, not instances, independent") if a.loss_name == "zero_one" \
        else None
    return paired_difference_result(a.loss[rows], b.loss[rows], clusters, a.fold[rows], alternative, messages,
                                    estimand=estimand, zero_one=a.loss_name == "zero_one")
