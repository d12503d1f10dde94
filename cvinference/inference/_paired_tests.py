"""Tests comparing the cross-validated accuracies of two classifiers."""

import math
import types
from typing import NamedTuple

import numpy as np
from scipy import stats

from .._utils._blockwise import count_both_true
from .._utils._docstring import fill_doc
from .._utils._params import Boolean, Nullable, Options, validate_params
from .._utils._warnings import Messages
from ..records._same_folds import same_folds
from ._clusters import with_grouped_warning
from ._conditions import fold_conditions
from ._distributions import pvalue_of, statistic_and_pvalue
from ._estimands import conditions_warning, difference_estimand
from ._grouped_tests import CLUSTER_PAIRED_CALL, cluster_paired, clustered_mcnemar
from ._inputs import about_two_learners, check_accuracy_result, check_paired, two_results
from ._methods import display_label, options
from ._parameters import ALTERNATIVE, MIN_COUNT, REPEAT
from ._repeats import n_correct, pooled_repeats_warning, rows_of, select_repeats, within_repeat_variance
from ._results import LargeSampleConditions, McNemarTestResult, SchemeDiagnostic, TestResult

HIGH_PHI = 0.5
"""|phi| from which the scheme diagnostic calls the correlation high (Cohen's "large" effect)."""

MCNEMAR_MIN_DISCORDANT = 25
"""Fewest discordant pairs for McNemar's chi-square when ``exact=None``."""

INDEPENDENT_METHODS = options("independent_sample_test")
MATCHED_METHODS = options("matched_sample_test")
MCNEMAR_TESTS = options("mcnemar_test")
MOVED_OPTIONS = {"independent_sample_test": {"z": "independent-z", "t": "independent-t"},
                 "matched_sample_test": {"t": "matched-t", "cluster": "cluster-paired-t"},
                 "mcnemar_test": {"obuchowski": "mcnemar-obuchowski", "durkalski": "mcnemar-durkalski"}}
"""The ``method=`` values renamed to the methods' ids before the first release: the errors name the id."""

_SCHEME = "scheme independence (Wong 2015, Definition 1b)"


class _Difference(NamedTuple):
    """An independent-sample estimate of accuracy(A) - accuracy(B), and what its test and interval use."""

    estimate: float
    df: float | None
    method: str
    standard_error: float
    interval_standard_error: float
    interval_df: float | None
    details: types.MappingProxyType


def _same_instances(a, b):
    return a.n_samples == b.n_samples and np.array_equal(a.y_true, b.y_true)


def _check_fold_count(result, name, test):
    if result.n_splits < 2:
        raise ValueError(
            f"{test} compares fold accuracies and needs at least two folds; {name} has "
            f"n_splits={result.n_splits}. Use a test on the instances (mcnemar_test or "
            "independent_sample_test with method='independent-z')."
        )


def _check_results(a, b):
    check_accuracy_result(a, "a")
    check_accuracy_result(b, "b")


def _check_pooled(rows_a, rows_b, messages):
    if max(len(rows_a), len(rows_b)) > 1:
        messages.warn(pooled_repeats_warning(max(len(rows_a), len(rows_b)), min(len(rows_a), len(rows_b))))


def _mean_count(counts):
    """A count per repeat, as an int when the repeats agree."""
    mean = float(np.mean(counts))
    return int(mean) if mean.is_integer() else mean


def _warn_conditions(conditions, messages, advice):
    failing = [c.describe() for c in conditions if not c.satisfied]
    if failing:
        messages.warn(conditions_warning(f"({'; '.join(failing)}): {advice}"))


@validate_params(repeat=REPEAT)
@fill_doc
def scheme_diagnostic(a, b=None, *, repeat=None):
    """Phi correlation of the correctness vectors of A and B.

    Parameters
    ----------
    %(pair_a)s
    b : CVResult, optional
        The result of classifier B on the same instances; left out when
        ``a`` is a pair.
    repeat : int or None, default=None
        The repeat to use; None pools the repeats.

    Returns
    -------
    SchemeDiagnostic
        ``phi``, the 2x2 table of right and wrong, and a note.

    Notes
    -----
    phi = (n11 n00 - n10 n01) / sqrt(n1. n0. n.1 n.0) on the 2x2 table of
    instances right or wrong by A and by B; it is Pearson's correlation of the
    two 0/1 vectors. Wong's tests assume scheme independence (2015, section 3,
    Definition 1b): whether A is right on an instance is independent of
    whether B is. Two learners usually err on the same hard instances, so phi
    is usually positive. The independent-sample test then overstates the
    variance of the difference (it is conservative); a negative phi makes it
    anti-conservative. The matched-sample t estimates that variance from the
    data and McNemar's test does not need the assumption. ``high`` marks
    ``|phi| >= 0.5``, Cohen's (1988) "large" correlation.

    Examples
    --------
    >>> from cvinference import CVResult, scheme_diagnostic
    >>> a = CVResult(y_true=[0, 0, 1, 1, 1, 0], y_pred=[0, 0, 1, 0, 1, 1], fold=[0, 1, 0, 1, 0, 1])
    >>> b = CVResult(y_true=[0, 0, 1, 1, 1, 0], y_pred=[0, 1, 1, 0, 1, 1], fold=[0, 1, 0, 1, 0, 1])
    >>> scheme_diagnostic(a, b)
    SchemeDiagnostic(phi=0.7071, high=True)
    """
    a, b = two_results(a, b, "scheme_diagnostic")
    check_accuracy_result(a, "a")
    check_accuracy_result(b, "b")
    check_paired(a, b, "scheme_diagnostic")
    return _diagnostic(a, b, select_repeats(a, repeat, "a"), select_repeats(b, repeat, "b"))


def _diagnostic(a, b, rows_a, rows_b):
    first_only = len(rows_a) != len(rows_b)
    if first_only:
        rows_a, rows_b = rows_a[:1], rows_b[:1]
    both = count_both_true(rows_of(a.correct, rows_a), rows_of(b.correct, rows_b))
    a_only = n_correct(a, rows_a) - both
    b_only = n_correct(b, rows_b) - both
    neither = a.n_samples * len(rows_a) - both - a_only - b_only
    margins = (both + a_only) * (b_only + neither) * (both + b_only) * (a_only + neither)
    if margins == 0:
        phi = math.nan
        note = ("phi is undefined: A or B is right on every instance or wrong on every instance, "
                "so their correlation cannot be judged")
    else:
        phi = (both * neither - a_only * b_only) / math.sqrt(margins)
        factor = (f"assuming independence makes the variance of accuracy(A) - accuracy(B) about "
                  f"1 / (1 - phi) = {1 / (1 - phi):.2g} times the actual one" if phi < 1 else
                  "A and B are right on exactly the same instances")
        if abs(phi) >= HIGH_PHI:
            pattern, effect = (("right and wrong on largely the same instances", "conservative") if phi > 0 else
                               ("mostly right where the other is wrong", "anti-conservative"))
            note = (f"phi = {phi:.2f}: A and B are {pattern}, so {_SCHEME} is doubtful (Wong 2015, "
                    f"section 3); {factor}, which makes the independent-sample test {effect}. The "
                    "matched-sample t estimates the variance of the differences from the data, and "
                    "McNemar's test does not need the assumption.")
        else:
            note = f"phi = {phi:.2f}: {factor} (for similar accuracies)."
    if first_only:
        note += "; computed on the first repeat of each, as a and b have different numbers of repeats"
    return SchemeDiagnostic(phi=phi, both_correct=both, a_only=a_only, b_only=b_only, both_wrong=neither,
                            high=bool(abs(phi) >= HIGH_PHI), threshold=HIGH_PHI, note=note)


@validate_params(method=Options(*MATCHED_METHODS, moved=MOVED_OPTIONS["matched_sample_test"]), alternative=ALTERNATIVE,
                 repeat=REPEAT, min_count=MIN_COUNT)
@fill_doc
@about_two_learners
def matched_sample_test(a, b=None, *, method="matched-t", alternative="two-sided", repeat=None, min_count=5):
    """Wong's matched-sample t-test: A and B on identical folds; or, with groups, its cluster-robust form.

    Parameters
    ----------
    %(pair_a)s
    b : CVResult, optional
        The result of classifier B on the same instances and identical folds;
        left out when ``a`` is a pair.
    method : {"matched-t", "cluster-paired-t"}, default="matched-t"
        ``"matched-t"``: Wong's paired t over the folds (over the instances
        under leave-one-out). ``"cluster-paired-t"``: for results made with ``groups``, the
        cluster-robust paired t of the two learners' mean per-instance
        losses, with the groups as the units (see Notes); it takes any loss,
        and the folds need not be identical.
    %(alternative)s
        With ``method="cluster-paired-t"``, ``"greater"`` is "A is better" (its mean
        loss is smaller).
    repeat : int or None, default=None
        %(repeat)s The t then still has k - 1 degrees
        of freedom, as repeats add no independent folds. With
        ``method="cluster-paired-t"``, None averages the repeats (see Notes).
    %(min_count)s
        ``method="cluster-paired-t"`` checks no counts and ignores it.

    Returns
    -------
    TestResult or LossDifferenceTestResult
        ``statistic`` (t), ``pvalue``, ``df``, ``estimate`` (the mean
        difference in accuracy, A minus B) and ``confidence_interval()``.
        ``method="cluster-paired-t"``: ``estimate`` mean loss(B) - mean loss(A),
        positive when A is better (for the 0/1 loss of classifiers,
        accuracy(A) - accuracy(B) and a :class:`TestResult`; for any other
        loss a :class:`LossDifferenceTestResult`), ``df`` = G - 1, and
        ``details`` with the mean losses, the number of groups, their sizes,
        the design effect of the differences and ``groups_within_folds``.

    Warns
    -----
    InferenceWarning
        When the large-sample conditions fail, when repeats are pooled, or
        when the differences have no spread; with ``method="cluster-paired-t"``, with
        fewer than 20 groups and when the folds split a group.

    Notes
    -----
    k-fold (Wong 2015, Theorem 2 and section 4.2): d_j = (r_Aj - r_Bj) / m_j,
    t = mean(d) / (s_d / sqrt(k)) with k - 1 degrees of freedom, s_d the sample
    standard deviation of the d_j. This is ``scipy.stats.ttest_rel`` on the
    fold accuracies. Conditions: r_ij >= 5 and m_j - r_ij >= 5 for A and B in
    every fold.

    Leave-one-out (Theorem 4, section 5.2): y_j = x_Aj - x_Bj in {-1, 0, +1},
    t = mean(y) / sqrt(s_y^2 / n) with n - 1 degrees of freedom. Conditions:
    ``n_-1``, ``n_0`` and ``n_+1`` >= 5; when they fail use
    ``mcnemar_test(a, b, exact=True)``.

    Wong derives both under scheme independence; the t estimates the
    variance of the differences from the data and so also absorbs a
    correlation between A and B. Folds of one cross-validation share most of
    their training data, so the d_j are not quite independent and the test
    tends to reject too often (Dietterich 1998); treat a p-value near the
    threshold with care.

    ``method="cluster-paired-t"``: with D_i = L_i(B) - L_i(A), group totals D_g,
    sizes m_g and N instances, the estimate is Dbar = sum_g D_g / N and its
    variance the cluster-robust (CR1) V = G / (G - 1) sum_g (D_g - Dbar
    m_g)^2 / N^2 (Cameron & Miller 2015, "A practitioner's guide to
    cluster-robust inference", J. Human Resources 50(2), section II.C with a
    constant as the only regressor); t = Dbar / sqrt(V) is referred to t
    with G - 1 degrees of freedom (section VI). It is statsmodels'
    ``OLS(D, 1).fit(cov_type="cluster")``. With R repeats the estimate is
    the mean of the per-repeat estimates and V the mean of their variances,
    which bounds the variance of the mean whatever the repeats' correlation
    (Wong 2015, section 4.3.4, and the Cauchy-Schwarz argument of
    :func:`accuracy_interval`'s Notes).

    Examples
    --------
    >>> from cvinference import CVResult, matched_sample_test
    >>> import numpy as np
    >>> fold = np.repeat(np.arange(5), 40)
    >>> def result(correct):
    ...     y_pred = np.concatenate([[1] * r + [0] * (40 - r) for r in correct])
    ...     return CVResult(y_true=np.ones(200, dtype=int), y_pred=y_pred, fold=fold)
    >>> test = matched_sample_test(result([32, 28, 30, 30, 32]), result([30, 27, 30, 26, 30]))
    >>> test
    TestResult(statistic=2.714, pvalue=0.05334, df=4, alternative='two-sided', estimate=0.045,
               method='matched-t')

    Twenty-five patients of four rows each, the patients as the units:

    >>> patient = np.repeat(np.arange(25), 4)
    >>> rng = np.random.RandomState(0)
    >>> hard = rng.rand(25)[patient]
    >>> def patients(rate):
    ...     return CVResult(y_true=np.zeros(100, dtype=int), y_pred=(rng.rand(100) < rate * hard).astype(int),
    ...                     fold=patient % 5, groups=patient)
    >>> a, b = patients(0.5), patients(0.8)
    >>> test = matched_sample_test(a, b, method="cluster-paired-t")
    >>> test.df, test.estimate == a.accuracy - b.accuracy
    (24, True)
    """
    if method == "cluster-paired-t":
        return cluster_paired(a, b, alternative=alternative, repeat=repeat, function="matched_sample_test",
                              asked="matched_sample_test(method='cluster-paired-t')")
    a, b = two_results(a, b, "matched_sample_test")
    _check_results(a, b)
    check_paired(a, b, "matched_sample_test")
    if not same_folds(a, b):
        raise ValueError(
            "matched_sample_test needs A and B cross-validated on identical folds, but their fold "
            "arrays differ. Use CVEvaluator.compare, or independent_sample_test for different folds."
        )
    rows = select_repeats(a, repeat, "a")
    if not a.is_loo:
        _check_fold_count(a, "a", "matched_sample_test")
    messages = Messages()
    _check_pooled(rows, rows, messages)
    if a.is_loo:
        differences = (rows_of(a.correct, rows).astype(np.int8) - rows_of(b.correct, rows)).astype(np.int8)
        counts = {f"n_{label}": np.count_nonzero(differences == value, axis=1)[:, np.newaxis]
                  for label, value in (("-1", -1), ("0", 0), ("+1", 1))}
        rule = f"n_-1, n_0 and n_+1 >= {min_count} (Wong 2015, Theorem 4)"
        conditions = (LargeSampleConditions._from_counts(rule, min_count, counts, repeats=rows, units_are_folds=False),)
        n_units = a.n_samples
        advice = "the t approximation may be poor; use mcnemar_test(a, b, exact=True)."
        details = {name: _mean_count(value) for name, value in counts.items()} | {"variant": "leave-one-out"}
    else:
        conditions = tuple(fold_conditions(r, rows, min_count, s) for r, s in ((a, "A"), (b, "B")))
        # (r_Aj - r_Bj) / m_j as Wong writes it: equal differences give equal floats.
        differences = (a.fold_correct[list(rows)] - b.fold_correct[list(rows)]) / a.fold_sizes[list(rows)]
        n_units = a.n_splits
        advice = "the t approximation may be poor; mcnemar_test(a, b) does not need them."
        details = {"d_j": tuple(differences.ravel().tolist())}
    _warn_conditions(conditions, messages, advice)
    estimate = float(differences.mean())
    standard_error = math.sqrt(within_repeat_variance(differences) / n_units)
    df = n_units - 1
    statistic, pvalue = statistic_and_pvalue(estimate, standard_error, df, alternative, messages)
    diagnostic = _diagnostic(a, b, rows, rows)
    test = TestResult(
        statistic=statistic, pvalue=pvalue, df=df, alternative=alternative, estimate=estimate,
        standard_error=standard_error, method="matched-t", estimand=difference_estimand(a, b), target="kfold",
        assumptions=f"instance independence; {_SCHEME}; normal approximation",
        _interval_standard_error=standard_error, _interval_df=df, conditions=conditions,
        diagnostic=diagnostic, details=types.MappingProxyType(details), notes=tuple(messages.notes),
        warnings=tuple(messages.warnings),
    )
    what = display_label("matched-t", variant=details.get("variant"))
    return with_grouped_warning(test, a, rows, what, CLUSTER_PAIRED_CALL if a.is_loo else None)


@validate_params(method=Options(*INDEPENDENT_METHODS, moved=MOVED_OPTIONS["independent_sample_test"]),
                 alternative=ALTERNATIVE, repeat=REPEAT,
                 min_count=MIN_COUNT)
@fill_doc
@about_two_learners
def independent_sample_test(a, b=None, *, method="independent-z", alternative="two-sided", repeat=None, min_count=5):
    """Wong's independent-sample test: A and B tested on different folds or data.

    Parameters
    ----------
    %(pair_a)s
    b : CVResult, optional
        The result of classifier B; it may come from different folds,
        different k and even different data. Left out when ``a`` is a pair.
    method : {"independent-z", "independent-t"}, default="independent-z"
        ``"independent-z"``: the pooled two-proportion z-test on the
        dataset-level accuracies. ``"independent-t"``: Welch's t on the fold
        accuracies.
    %(alternative)s
    repeat : int or None, default=None
        %(repeat)s The same repeat is used of both results;
        pooled, the standard error still counts n instances and k folds once.
    %(min_count)s

    Returns
    -------
    TestResult
        ``statistic`` (z or t), ``pvalue``, ``df`` (None for z), ``estimate``
        (accuracy A minus accuracy B), ``confidence_interval()``, and the phi
        ``diagnostic`` when A and B were tested on the same instances.

    Notes
    -----
    ``"independent-z"`` (Wong 2015, Theorem 3 and Example 2): with p_A = r_A / n_A,
    p_B = r_B / n_B and the pooled p = (r_A + r_B) / (n_A + n_B),
    z = (p_A - p_B) / sqrt(p (1 - p) (1 / n_A + 1 / n_B)); this is
    statsmodels' ``proportions_ztest``. The confidence interval uses Theorem
    3's unpooled variance p_A (1 - p_A) / n_A + p_B (1 - p_B) / n_B, so near
    the threshold the interval and the test can disagree.

    ``"independent-t"``: the mean fold accuracies of A (k folds) and B (q folds) with
    standard error sqrt(s_A^2 / k + s_B^2 / q) and Welch-Satterthwaite degrees
    of freedom; this is ``scipy.stats.ttest_ind(..., equal_var=False)``.

    Both need the large-sample conditions in all k + q folds and Wong's
    scheme independence (Definition 1b): A's correctness on an instance
    independent of B's. On the same instances two learners are usually
    positively correlated, which makes this test conservative; use
    :func:`matched_sample_test` or :func:`mcnemar_test` there.

    Examples
    --------
    Wong (2015), Example 2: 80 and 84 correct of 100 under leave-one-out.

    >>> from cvinference import CVResult, independent_sample_test
    >>> import numpy as np
    >>> def loo(n_correct):
    ...     y_pred = np.r_[np.ones(n_correct, dtype=int), np.zeros(100 - n_correct, dtype=int)]
    ...     return CVResult(y_true=np.ones(100, dtype=int), y_pred=y_pred, fold=np.arange(100))
    >>> test = independent_sample_test(loo(80), loo(84))
    >>> round(test.statistic, 4)
    -0.7362
    """
    a, b = two_results(a, b, "independent_sample_test")
    _check_results(a, b)
    rows_a, rows_b = select_repeats(a, repeat, "a"), select_repeats(b, repeat, "b")
    if method == "independent-t":
        _check_fold_count(a, "a", "independent_sample_test(method='independent-t')")
        _check_fold_count(b, "b", "independent_sample_test(method='independent-t')")
    messages = Messages()
    _check_pooled(rows_a, rows_b, messages)
    conditions = (fold_conditions(a, rows_a, min_count, "A"), fold_conditions(b, rows_b, min_count, "B"))
    statistic = "z" if method == "independent-z" else "t"
    _warn_conditions(conditions, messages, f"the {statistic} approximation may be poor.")
    compute = _pooled_z if method == "independent-z" else _welch_t
    difference = compute(a, rows_a, b, rows_b)
    statistic, pvalue = statistic_and_pvalue(difference.estimate, difference.standard_error, difference.df,
                                             alternative, messages)
    diagnostic = None
    if _same_instances(a, b):
        diagnostic = _diagnostic(a, b, rows_a, rows_b)
        if same_folds(a, b):
            messages.note("A and B were tested on identical folds: matched_sample_test uses that pairing "
                          "(Wong 2015, section 4.2) and is usually more powerful")
    else:
        messages.note("A and B were not tested on the same instances, so the phi diagnostic of scheme "
                      "independence cannot be computed")
    test = TestResult(
        statistic=statistic, pvalue=pvalue, df=difference.df, alternative=alternative,
        estimate=difference.estimate, standard_error=difference.standard_error, method=difference.method,
        estimand=difference_estimand(a, b), target="kfold",
        assumptions=f"instance independence; {_SCHEME}; normal approximation",
        _interval_standard_error=difference.interval_standard_error, _interval_df=difference.interval_df,
        conditions=conditions, diagnostic=diagnostic, details=difference.details,
        notes=tuple(messages.notes), warnings=tuple(messages.warnings),
    )
    return with_grouped_warning(test, a, rows_a, display_label(difference.method),
                                f"{CLUSTER_PAIRED_CALL} (on the same instances)" if method == "independent-z" else None)


def _pooled_z(a, rows_a, b, rows_b):
    n_a, n_b = a.n_samples, b.n_samples
    p_a = n_correct(a, rows_a) / (n_a * len(rows_a))
    p_b = n_correct(b, rows_b) / (n_b * len(rows_b))
    pooled = (p_a * n_a + p_b * n_b) / (n_a + n_b)
    return _Difference(
        estimate=p_a - p_b, df=None, method="independent-z",
        standard_error=math.sqrt(pooled * (1 - pooled) * (1 / n_a + 1 / n_b)),
        interval_standard_error=math.sqrt(p_a * (1 - p_a) / n_a + p_b * (1 - p_b) / n_b),
        interval_df=None,
        details=types.MappingProxyType({"accuracy_a": p_a, "accuracy_b": p_b, "pooled_accuracy": pooled}),
    )


def _welch_t(a, rows_a, b, rows_b):
    accuracies_a, accuracies_b = a.fold_accuracy[list(rows_a)], b.fold_accuracy[list(rows_b)]
    k, q = a.n_splits, b.n_splits
    fold_variance_a, fold_variance_b = within_repeat_variance(accuracies_a), within_repeat_variance(accuracies_b)
    var_a, var_b = fold_variance_a / k, fold_variance_b / q
    standard_error = math.sqrt(var_a + var_b)
    denominator = var_a**2 / (k - 1) + var_b**2 / (q - 1)
    df = (var_a + var_b) ** 2 / denominator if denominator > 0 else float(k + q - 2)
    return _Difference(
        estimate=float(accuracies_a.mean() - accuracies_b.mean()), df=df,
        method="independent-t", standard_error=standard_error,
        interval_standard_error=standard_error, interval_df=df,
        details=types.MappingProxyType({"fold_variance_a": fold_variance_a, "fold_variance_b": fold_variance_b}),
    )


@validate_params(method=Options(*MCNEMAR_TESTS, moved=MOVED_OPTIONS["mcnemar_test"]), exact=Nullable(Boolean()),
                 correction=Boolean(), alternative=ALTERNATIVE, repeat=REPEAT)
@fill_doc
@about_two_learners
def mcnemar_test(a, b=None, *, method="mcnemar", exact=None, correction=True, alternative="two-sided",
                 repeat=None):
    """McNemar's test on the instances where A and B disagree; or, with groups, a McNemar-type test of groups.

    Parameters
    ----------
    %(pair_a)s
    b : CVResult, optional
        The result of classifier B on the same instances (the folds may
        differ); left out when ``a`` is a pair.
    method : {"mcnemar", "mcnemar-obuchowski", "mcnemar-durkalski"}, default="mcnemar"
        ``"mcnemar"``: McNemar's test, the instances independent.
        ``"mcnemar-obuchowski"``: Obuchowski's (1998) statistic for results made
        with ``groups``, the groups as the units, weighing the instances
        equally; ``"mcnemar-durkalski"``: Durkalski et al.'s (2003), weighing the
        groups equally (see Notes).
    exact : bool or None, default=None
        True: the exact binomial test on the discordant pairs. False: the
        chi-square approximation. None: exact when there are fewer than 25
        discordant pairs, chi-square otherwise. ``method="mcnemar"`` only.
    correction : bool, default=True
        Edwards' continuity correction for the chi-square.
        ``method="mcnemar"`` only; the grouped statistics have none.
    %(alternative)s
    repeat : int or None, default=None
        The repeat to use; needed when the results have several repeats
        (pooling them would count each instance several times).

    Returns
    -------
    TestResult
        ``statistic`` (chi-square with df = 1, or for the exact test the
        number of instances A gets right and B wrong, with df None),
        ``pvalue``, ``estimate`` = (b - c) / n, and ``details`` with the
        counts b and c. The grouped methods: ``statistic`` the chi-square
        with df = 1, ``estimate`` accuracy(A) - accuracy(B),
        ``standard_error`` its cluster-robust one; ``details`` add the
        number of groups and of discordant groups, the group sizes and
        ``groups_within_folds``.

    Raises
    ------
    ValueError
        When ``exact`` or ``correction`` is given with a grouped method.

    Warns
    -----
    InferenceWarning
        When A and B never disagree (p = 1); with a grouped method, with
        fewer than 20 groups, when no group is discordant, and when the
        folds split a group.

    Notes
    -----
    With b instances right by A only and c by B only, the exact test is the
    binomial test of b successes in b + c trials with p = 1/2
    (``scipy.stats.binomtest``); the chi-square is
    ``max(|b - c| - 1, 0)^2`` / (b + c) with one degree of freedom (McNemar 1947;
    Edwards 1948; Dietterich 1998). statsmodels' ``mcnemar`` and
    R's ``mcnemar.test`` omit the max(., 0) and so give a chi-square of
    1 / (b + c) instead of 0 when b = c; scipy's Yates correction for
    contingency tables never moves a count past its expected value, as here.
    One-sided p-values use the signed square root of the chi-square (a z).
    The rule of 25 discordant pairs is a common threshold for the chi-square
    approximation (statsmodels' documentation uses it).

    The test conditions on the discordant instances and needs no scheme
    independence; it does treat the instances as independent, and it
    compares the models fitted in this cross-validation rather than the
    learners (Dietterich 1998).

    ``confidence_interval()`` is Agresti and Min's (2005) interval for the
    difference of paired proportions: the Wald interval computed after adding
    1/2 to each cell of the 2x2 table, (b' - c') / n' +- z sqrt((b' + c') / n'
    - ((b' - c') / n')^2) / sqrt(n'), with b' = b + 1/2, c' = c + 1/2,
    n' = n + 2. It keeps close to its nominal coverage for small counts,
    where the plain Wald interval undercovers; it does not invert the test,
    so near the threshold the two can disagree. ``standard_error`` is the
    Wald standard error of the estimate, sqrt(b + c - (b - c)^2 / n) / n
    (Agresti 2002, Categorical Data Analysis, section 10.1.1).

    The grouped methods: in group k with n_k instances, b_k are right by A
    only and c_k by B only, d_k = b_k - c_k, K groups and N instances.
    Obuchowski (1998), Statistics in Medicine 17:1495-1507, in the form of
    Yang, Sun & Hardin (2010), Biometrical Journal 52(5): X^2 = (K - 1) / K
    (sum_k d_k)^2 / sum_k d_k^2. Durkalski, Palesch, Lipsitz & Rust (2003),
    Statistics in Medicine 22:2417-2428: X^2 = (sum_k d_k / n_k)^2 / sum_k
    (d_k / n_k)^2. Both are referred to chi-square with one degree of
    freedom; with one instance per group Durkalski's is McNemar's chi-square
    without continuity correction. Their ``confidence_interval()`` inverts
    the test (the differences d0 that the test of difference = d0, with its
    variance under that hypothesis, does not reject), so it excludes 0
    exactly when p < 1 - confidence_level; Durkalski's estimate is the mean
    over the groups of their differences in accuracy, which its statistic
    tests (``clustered_mcnemar_of``'s Notes give the formulas). The folds
    should keep each group whole
    (a group-respecting splitter); otherwise a group's instances are tested
    by models that saw the rest of the group.

    Examples
    --------
    >>> from cvinference import CVResult, mcnemar_test
    >>> y_true = [1] * 40
    >>> a = CVResult(y_true=y_true, y_pred=[1] * 30 + [0] * 10, fold=[0, 1] * 20)
    >>> b = CVResult(y_true=y_true, y_pred=[1] * 22 + [0] * 18, fold=[0, 1] * 20)
    >>> test = mcnemar_test(a, b)
    >>> test.method, test.details["variant"], test.statistic, round(test.pvalue, 4)
    ('mcnemar', 'exact', 8.0, 0.0078)

    A :class:`PairedCVResult` holds both results:

    >>> from cvinference import PairedCVResult
    >>> mcnemar_test(PairedCVResult(a, b)) == test
    True

    Twelve patients of four rows each; A and B disagree mostly on some
    patients:

    >>> import warnings
    >>> import numpy as np
    >>> patient = np.repeat(np.arange(12), 4)
    >>> right_a = np.array([1, 1, 1, 1, 1, 1, 1, 0, 1, 1, 0, 1] * 4).reshape(4, 12).T.ravel()
    >>> right_b = np.array([1, 0, 0, 1, 1, 0, 1, 0, 1, 1, 0, 1] * 4).reshape(4, 12).T.ravel()
    >>> y_true = np.zeros(48, dtype=int)
    >>> a = CVResult(y_true=y_true, y_pred=1 - right_a, fold=patient % 3, groups=patient)
    >>> b = CVResult(y_true=y_true, y_pred=1 - right_b, fold=patient % 3, groups=patient)
    >>> with warnings.catch_warnings():
    ...     warnings.simplefilter("ignore")  # fewer than 20 groups
    ...     test = mcnemar_test(a, b, method="mcnemar-obuchowski")
    >>> test.details["a_correct_b_wrong"], test.details["discordant_groups"], round(test.statistic, 3)
    (12, 3, 2.75)
    """
    if method != "mcnemar":
        if exact is not None or correction is not True:
            given = f"exact={exact!r}" if exact is not None else f"correction={correction!r}"
            raise ValueError(f"mcnemar_test(): {given} applies to method='mcnemar' only, and method={method!r} "
                             "has no exact form and no continuity correction; leave it out.")
        return clustered_mcnemar(a, b, method=method, alternative=alternative, repeat=repeat,
                                 function="mcnemar_test", asked=f"mcnemar_test(method={method!r})")
    a, b = two_results(a, b, "mcnemar_test")
    _check_results(a, b)
    check_paired(a, b, "mcnemar_test")
    if repeat is None and max(a.n_repeats, b.n_repeats) > 1:
        raise ValueError(
            "mcnemar_test counts instances, and pooling repeats would count each one several times; "
            f"a has n_repeats={a.n_repeats} and b has n_repeats={b.n_repeats}. Pass repeat=0 (or another repeat)."
        )
    (row_a,), (row_b,) = select_repeats(a, repeat, "a"), select_repeats(b, repeat, "b")
    correct_a, correct_b = a.correct[row_a], b.correct[row_b]
    b_count = int(np.count_nonzero(correct_a & ~correct_b))
    c_count = int(np.count_nonzero(~correct_a & correct_b))
    discordant, n = b_count + c_count, a.n_samples
    messages = Messages()
    use_exact = discordant < MCNEMAR_MIN_DISCORDANT if exact is None else exact
    rule = f"b + c >= {MCNEMAR_MIN_DISCORDANT} discordant pairs for the chi-square approximation"
    conditions = () if use_exact else (
        LargeSampleConditions._from_counts(rule, MCNEMAR_MIN_DISCORDANT, {"b + c": [[discordant]]},
                                           repeats=(row_a,), units_are_folds=False),)
    if exact is None:
        messages.note(f"{discordant} discordant pairs: the {'exact binomial' if use_exact else 'chi-square'} "
                      f"test was used (exact below {MCNEMAR_MIN_DISCORDANT})")
    elif not use_exact and discordant < MCNEMAR_MIN_DISCORDANT:
        messages.warn(f"Only {discordant} discordant pairs: the chi-square approximation may be poor; "
                      "use exact=True or exact=None.")
    if discordant == 0:
        messages.warn("A and B are right and wrong on exactly the same instances (no discordant pairs): "
                      "there is no evidence of a difference, p = 1.")
        statistic, pvalue, df = 0.0, 1.0, None if use_exact else 1
    elif use_exact:
        statistic, df = float(b_count), None
        pvalue = float(stats.binomtest(b_count, discordant, 0.5, alternative=alternative).pvalue)
    else:
        statistic = max(abs(b_count - c_count) - int(correction), 0) ** 2 / discordant
        df = 1
        if alternative == "two-sided":
            pvalue = float(stats.chi2.sf(statistic, df))
        else:
            pvalue = pvalue_of(math.copysign(math.sqrt(statistic), b_count - c_count), None, alternative)
    estimate = (b_count - c_count) / n
    standard_error = math.sqrt(max(discordant - (b_count - c_count) ** 2 / n, 0.0)) / n
    variant = "exact" if use_exact else "chi-square"
    assumptions = "instance independence; paired outcomes on the same instances; " + (
        "exact binomial" if use_exact else "chi-square approximation")
    details = {"a_correct_b_wrong": b_count, "a_wrong_b_correct": c_count, "n": n, "correction": correction,
               "variant": variant}
    test = McNemarTestResult(
        statistic=statistic, pvalue=pvalue, df=df, alternative=alternative, estimate=estimate,
        standard_error=standard_error, method="mcnemar", estimand=difference_estimand(a, b), target="kfold",
        assumptions=assumptions, _interval_standard_error=standard_error, _interval_df=None,
        conditions=conditions, diagnostic=_diagnostic(a, b, (row_a,), (row_b,)),
        details=types.MappingProxyType(details),
        notes=tuple(messages.notes), warnings=tuple(messages.warnings),
    )
    return with_grouped_warning(test, a, (row_a,), "McNemar's test", "mcnemar_test(a, b, method='mcnemar-obuchowski')")
