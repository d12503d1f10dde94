"""Dietterich's 5x2cv paired t-test and Alpaydin's combined 5x2cv F test, from the record of their fits.

Both tests read a :class:`PairedCVResult` of five repeats of 2-fold
cross-validation, both learners on the same halves (made by
:func:`five_by_two_cv`: 20 fits in one pool). They share
:func:`_five_by_two_differences` (the per-fold accuracies of the record) and
:func:`_five_by_two_formulas` (the arithmetic on the 5 x 2 differences).
"""

import dataclasses
import math
import types

import numpy as np
from scipy import stats

from .._utils._arrays import readonly_array
from .._utils._docstring import fill_doc
from .._utils._params import validate_params
from .._utils._warnings import Messages
from ..records import PairedCVResult
from ._clusters import with_grouped_warning
from ._distributions import pvalue_of
from ._inputs import about_two_learners, check_accuracy_result, two_results
from ._parameters import ALTERNATIVE
from ._results import FTestResult, TestResult

N_REPLICATIONS = 5
"""Replications of 2-fold cross-validation (Dietterich 1998, section 3.5)."""

N_FOLDS = 2

_REUSE = (
    "the training sets are all halves of this one dataset, so the replications "
    "reuse the same instances and are not independent: the test is approximate (Dietterich 1998, "
    "section 3.5)"
)

_DATA_ASSUMPTION = f"instance independence; {_REUSE}"

_GROUPED_DATA_ASSUMPTION = (
    "groups independent of one another, instances within a group arbitrarily correlated, each half holding "
    f"whole groups (so each half's accuracy averages whole groups); {_REUSE}"
)


# --------------------------------------------------------------------------- the record


@dataclasses.dataclass(frozen=True)
class _FiveByTwo:
    """What the 20 fits gave: per fold, the accuracies of A and B and the test size."""

    accuracy_a: np.ndarray  # (5, 2)
    accuracy_b: np.ndarray  # (5, 2)
    test_sizes: np.ndarray  # (5, 2)
    n_samples: int
    cv_repr: str | None
    record: PairedCVResult

    @property
    def data_assumption(self):
        """Instance independence, or, for a record made with groups, independence of the groups."""
        return _DATA_ASSUMPTION if self.record.a.groups is None else _GROUPED_DATA_ASSUMPTION

    @property
    def differences(self):
        """p_i^(j) = accuracy of A minus accuracy of B on fold j of replication i."""
        return self.accuracy_a - self.accuracy_b


def _five_by_two_differences(a, b, function):
    """The per-fold accuracies of two records of five repeats of 2-fold cross-validation, as a :class:`_FiveByTwo`.

    ``a`` and ``b`` are the two results, or ``a`` a :class:`PairedCVResult`
    and ``b`` None (:func:`two_results`).
    """
    pair = PairedCVResult(*(check_accuracy_result(result, name)
                            for name, result in zip("ab", two_results(a, b, function), strict=True)))
    if (pair.a.n_repeats, pair.a.n_splits) != (N_REPLICATIONS, N_FOLDS) or pair.a.is_loo:
        scheme = "leave-one-out" if pair.a.is_loo else f"{pair.a.n_splits}-fold"
        raise ValueError(
            f"the 5x2cv tests need five repeats of 2-fold cross-validation (Dietterich 1998, section 3.5); the "
            f"results hold {pair.a.n_repeats} repeat(s) of {scheme} cross-validation. Make them with "
            "five_by_two_cv, or CVEvaluator(2, n_repeats=5).compare."
        )
    # r / m as a count over a size, so equal counts on equal folds give equal floats.
    accuracy_a, accuracy_b = (result.fold_correct / result.fold_sizes for result in (pair.a, pair.b))
    return _FiveByTwo(accuracy_a, accuracy_b, pair.a.fold_sizes.astype(np.int64), pair.a.n_samples, pair.a.cv_repr,
                      pair)


# --------------------------------------------------------------------------- formulas


def _five_by_two_formulas(differences):
    """Dietterich's t and Alpaydin's F from a 5 x 2 array of differences p_i^(j).

    Pure arithmetic, no warnings. Degenerate ratios are resolved as: 0 / 0 is
    0 and x / 0 is +-inf for x != 0 (the public functions warn about both).

    Parameters
    ----------
    differences : array-like of shape (5, 2)
        p_i^(j), the difference on fold j of replication i.

    Returns
    -------
    types.SimpleNamespace
        ``differences``, ``p11`` (p_1^(1)), ``s_squared`` (the five s_i^2),
        ``mean_s_squared``, ``t``, ``f_numerator`` (sum of the squared
        p_i^(j)), ``f_denominator`` (2 sum s_i^2), ``f`` and
        ``mean_difference``.
    """
    p = np.asarray(differences, dtype=np.float64)
    if p.shape != (N_REPLICATIONS, N_FOLDS):
        raise ValueError(f"differences must have shape (5, 2); got shape {p.shape}.")
    p_bar = p.mean(axis=1)                                     # p̄_i = (p_i^(1) + p_i^(2)) / 2
    s_squared = ((p - p_bar[:, np.newaxis]) ** 2).sum(axis=1)  # s_i^2
    mean_s_squared = float(s_squared.mean())
    p11 = float(p[0, 0])
    if mean_s_squared > 0:
        t = p11 / math.sqrt(mean_s_squared)
    else:
        t = 0.0 if p11 == 0 else math.copysign(math.inf, p11)
    f_numerator = float((p**2).sum())
    f_denominator = float(2 * s_squared.sum())
    if f_denominator > 0:
        f = f_numerator / f_denominator
    else:
        f = 0.0 if f_numerator == 0 else math.inf
    return types.SimpleNamespace(
        differences=p, p11=p11, s_squared=s_squared, mean_s_squared=mean_s_squared, t=t,
        f_numerator=f_numerator, f_denominator=f_denominator, f=f, mean_difference=float(p.mean()),
    )


# --------------------------------------------------------------------------- results


def _estimand(n_samples):
    return (
        f"difference in expected accuracy (A minus B) of the models the two learners fit to training sets of "
        f"half this dataset's size (about {n_samples // 2} instances): Dietterich's (1998) question whether "
        "the algorithms differ at that training size; the five replications' halves of this one dataset "
        "stand in for other training sets of that size"
    )


def _details(fits, formulas, **extra):
    details = {
        "differences": readonly_array(formulas.differences),
        "accuracy_a": readonly_array(fits.accuracy_a),
        "accuracy_b": readonly_array(fits.accuracy_b),
        "test_sizes": readonly_array(fits.test_sizes),
        "s_squared": readonly_array(formulas.s_squared),
        "mean_s_squared": formulas.mean_s_squared,
        "mean_difference": formulas.mean_difference,
        **extra,
    }
    return types.MappingProxyType(details)


_KNOWN_SPLITTERS = {
    "StratifiedEqualSizeKFold": "stratified 2-fold cross-validation (StratifiedEqualSizeKFold)",
    "StratifiedEqualSizeGroupKFold": "stratified 2-fold cross-validation of whole groups "
                                      "(StratifiedEqualSizeGroupKFold)",
}


def _fits_note(cv_repr):
    known = _KNOWN_SPLITTERS.get((cv_repr or "").split("(", 1)[0])
    scheme = known or f"2-fold cross-validation ({cv_repr or 'splitter not recorded'})"
    return f"{N_REPLICATIONS} replications of {scheme}, both learners on the same halves: 20 fits of clones"


_ALL_ZERO = ("A and B have the same accuracy on every fold of all five replications (all ten "
             "differences are 0), as when a learner is compared with itself: there is no evidence of a "
             "difference, p = 1.")


@validate_params(alternative=ALTERNATIVE)
@fill_doc
@about_two_learners
def paired_ttest_5x2cv_of(a, b=None, *, alternative="two-sided"):
    """Dietterich's 5x2cv paired t-test of two classifiers' accuracies, from the record of the 20 fits.

    Five times, the data were split into two halves; each learner was fitted
    on one half and tested on the other, and then the other way round. The
    statistic uses the first difference and the variability within each
    replication.

    Parameters
    ----------
    a : PairedCVResult or CVResult
        Two classifiers on five repeats of 2-fold cross-validation, as
        :func:`five_by_two_cv` (or ``CVEvaluator(2, n_repeats=5).compare``)
        makes them: fold j of repeat i is fold j of replication i. Or the
        result of classifier A, with ``b`` that of B on identical folds.
    b : CVResult, optional
        The result of classifier B; left out when ``a`` is a pair.
    %(alternative)s

    Returns
    -------
    TestResult
        ``statistic`` (t, positive when A is more accurate), ``pvalue``,
        ``df`` = 5, ``estimate`` = p_1^(1) (the statistic's numerator),
        ``standard_error`` = sqrt(mean of the s_i^2), and
        ``confidence_interval()`` = p_1^(1) +- t_5 * standard_error.
        ``details`` (read-only) holds ``differences`` (the 5 x 2 array of
        p_i^(j), replication i in row i), ``accuracy_a`` and ``accuracy_b``
        (5 x 2), ``test_sizes`` (5 x 2), ``s_squared`` (the five s_i^2),
        ``mean_s_squared`` and ``mean_difference`` (the mean of the ten
        differences).

    Warns
    -----
    InferenceWarning
        When all ten differences are 0 (then t = 0 and p = 1 for every
        ``alternative``), or when the s_i^2 are all 0 (then t is infinite
        and the p-value is not meaningful, or, when p_1^(1) = 0 too, t = 0
        and p = 1).

    See Also
    --------
    paired_ttest_5x2cv : :func:`five_by_two_cv` and this function in one call.
    combined_ftest_5x2cv_of : Alpaydin's F test on the same 5 x 2 differences.
    mcnemar_test : When the learners can be fitted only once.

    Notes
    -----
    Dietterich (1998, Neural Computation 10(7), section 3.5, "The 5x2cv
    paired t test"). In replication i = 1..5 the data are split into halves
    S_1 and S_2; p_i^(1) is the difference of the two learners' accuracies
    on fold 1 (the first split the splitter yields) and
    p_i^(2) on fold 2, with p̄_i = (p_i^(1) + p_i^(2)) / 2 and
    s_i^2 = (p_i^(1) - p̄_i)^2 + (p_i^(2) - p̄_i)^2. Then::

        t = p_1^(1) / sqrt((1/5) * sum_i s_i^2)

    has approximately Student's t distribution with 5 degrees of freedom
    under the null hypothesis. Dietterich writes the p_i^(j) as differences
    of error rates; here they are differences of accuracies (A minus B), so
    t changes sign and the p-value of the two-sided test does not.

    Dietterich's derivation assumes that each p_i^(j) is approximately
    normal with mean 0 and variance sigma^2 under the null hypothesis, that
    the s_i^2 / sigma^2 are independent chi-square variables with one degree
    of freedom each, and that p_1^(1) is independent of them. He notes that
    none of this holds exactly (the two folds of a replication are
    complementary, and the replications reuse the same data), and chose the
    numerator p_1^(1) and five replications because they kept the type I
    error acceptable in his simulations; his experiments found the test
    slightly more powerful than McNemar's and with acceptable type I error.
    Alpaydin (1999) observed that the result can change with which of the
    ten differences is taken as the numerator and proposed
    :func:`combined_ftest_5x2cv`, which uses all of them.

    The test compares the learners trained on half of the data: its
    estimand is not the accuracy of models trained on all n instances.

    **Grouped instances.** Made with ``groups`` (:func:`five_by_two_cv`),
    every half holds whole groups, so each p_i^(j) is a difference of
    accuracies on whole groups, tested by models that never saw them, and
    the formula is unchanged: it uses the half-level accuracies only, and
    Dietterich's assumptions are then about halves of independent groups
    rather than of independent instances. Halves that split a group warn.

    Examples
    --------
    >>> from sklearn.datasets import load_breast_cancer
    >>> from sklearn.dummy import DummyClassifier
    >>> from sklearn.naive_bayes import GaussianNB
    >>> from cvinference.evaluation import five_by_two_cv
    >>> from cvinference.inference import paired_ttest_5x2cv_of
    >>> X, y = load_breast_cancer(return_X_y=True)
    >>> pair = five_by_two_cv(GaussianNB(), DummyClassifier(), X, y, random_state=0)
    >>> test = paired_ttest_5x2cv_of(pair)
    >>> test.df, test.details["differences"].shape
    (5, (5, 2))
    >>> bool(test.statistic > 0), bool(test.pvalue < 0.05)
    (True, True)
    >>> low, high = test.confidence_interval()
    >>> bool(low < test.estimate < high)
    True
    """
    fits = _five_by_two_differences(a, b, "paired_ttest_5x2cv_of")
    formulas = _five_by_two_formulas(fits.differences)
    messages = Messages()
    messages.note(_fits_note(fits.cv_repr))
    standard_error = math.sqrt(formulas.mean_s_squared)
    if formulas.mean_s_squared > 0:
        pvalue = pvalue_of(formulas.t, N_REPLICATIONS, alternative)
    elif formulas.p11 == 0:
        all_zero = not formulas.differences.any()
        messages.warn(_ALL_ZERO if all_zero else (
            "The two differences of every replication are equal (all s_i^2 are 0) and p_1^(1) = 0: "
            "the t statistic is 0 / 0, taken as 0 with p = 1; the test cannot judge these data."))
        pvalue = 1.0
    else:
        messages.warn(
            f"The two differences of every replication are equal (all s_i^2 are 0) while p_1^(1) = "
            f"{formulas.p11:+.4g}: the t statistic is infinite and the p-value is undefined (nan)."
        )
        pvalue = math.nan
    return with_grouped_warning(TestResult(
        statistic=formulas.t, pvalue=pvalue, df=N_REPLICATIONS, alternative=alternative,
        estimate=formulas.p11, standard_error=standard_error, method="5x2cv-t",
        estimand=_estimand(fits.n_samples), target="unconditional",
        assumptions=(
            "each difference p_i^(j) approximately normal with a common variance; the s_i^2 / sigma^2 "
            "independent chi-square with 1 degree of freedom, and p_1^(1) treated as independent of them; "
            f"{fits.data_assumption}"
        ),
        _interval_standard_error=standard_error, _interval_df=N_REPLICATIONS,
        details=_details(fits, formulas), notes=tuple(messages.notes), warnings=tuple(messages.warnings),
    ), fits.record.a, range(N_REPLICATIONS), "the 5x2cv test")


@about_two_learners
def combined_ftest_5x2cv_of(a, b=None):
    """Alpaydin's combined 5x2cv F test of two classifiers' accuracies, from the record of the 20 fits.

    The same five replications of 2-fold cross-validation as
    :func:`paired_ttest_5x2cv_of`, with a statistic that uses all ten
    differences instead of the first one.

    Parameters
    ----------
    a, b : PairedCVResult and None, or two CVResult
        As in :func:`paired_ttest_5x2cv_of`.

    Returns
    -------
    FTestResult
        ``statistic`` (F, never negative), ``pvalue``, ``df`` = 10 and
        ``df_denominator`` = 5 (numerator and denominator degrees of freedom),
        ``alternative`` = "two-sided" (F squares the differences, so it
        has no direction), ``estimate`` = the mean of the ten differences
        (A minus B), ``standard_error`` = sqrt(mean of the s_i^2), and
        ``confidence_interval()`` (see Notes). ``details`` holds what
        :func:`paired_ttest_5x2cv_of` gives, plus ``f_numerator`` (sum of the
        squared p_i^(j)), ``f_denominator`` (2 sum s_i^2) and
        ``standard_error_if_independent`` = sqrt(mean s_i^2 / 10).

    Warns
    -----
    InferenceWarning
        When all ten differences are 0 (then F = 0 and p = 1), or when all
        s_i^2 are 0 but some difference is not (then F is infinite and the
        p-value is not meaningful).

    See Also
    --------
    combined_ftest_5x2cv : :func:`five_by_two_cv` and this function in one call.
    paired_ttest_5x2cv_of : Dietterich's t on the same differences.

    Notes
    -----
    Alpaydin (1999, Neural Computation 11(8), "Combined 5 x 2 cv F test for
    comparing supervised classification learning algorithms"), with
    p_i^(j) and s_i^2 as in Dietterich (1998, section 3.5)::

        F = sum_i sum_j (p_i^(j))^2 / (2 * sum_i s_i^2)

    is approximately F distributed with 10 and 5 degrees of freedom under
    the null hypothesis, and p = ``scipy.stats.f.sf(F, 10, 5)``. Alpaydin's
    argument: if the ten p_i^(j) are independent normal with mean 0 and
    variance sigma^2, N = sum (p_i^(j))^2 / sigma^2 is chi-square with 10
    degrees of freedom and M = sum s_i^2 / sigma^2 chi-square with 5, so
    F = (N / 10) / (M / 5). The ten differences are not independent (the
    replications reuse the same instances), so this is an approximation;
    his simulations found lower type I error and higher power than the 5x2cv
    t, and no dependence on which difference comes first. Differences are
    taken as accuracy(A) - accuracy(B); Dietterich and Alpaydin use error
    rates, which only flips signs that F squares away.

    The interval. F tests only whether the learners differ, so there is no
    interval that inverts it. ``confidence_interval()`` gives mean of the ten
    differences +- t_5 * sqrt(mean s_i^2): under Dietterich's assumptions each
    difference has variance sigma^2, estimated by mean s_i^2 with 5 degrees
    of freedom, and a mean of ten differences with a common variance has
    variance at most sigma^2, whatever their correlation. The interval is
    therefore conservative: as wide as the 5x2cv t's interval, centred on
    the more stable mean. Were the ten independent, as F's derivation
    assumes, the standard error would be sqrt(mean s_i^2 / 10) (in
    ``details``), about a third as wide; that interval undercovers when the
    differences are positively correlated, which the overlap of the training
    sets makes likely.

    Examples
    --------
    >>> from sklearn.datasets import load_breast_cancer
    >>> from sklearn.dummy import DummyClassifier
    >>> from sklearn.naive_bayes import GaussianNB
    >>> from cvinference.evaluation import five_by_two_cv
    >>> from cvinference.inference import combined_ftest_5x2cv_of
    >>> X, y = load_breast_cancer(return_X_y=True)
    >>> test = combined_ftest_5x2cv_of(five_by_two_cv(GaussianNB(), DummyClassifier(), X, y, random_state=0))
    >>> test.df, test.df_denominator, test.alternative
    (10, 5, 'two-sided')
    >>> bool(test.statistic > 0), bool(test.pvalue < 0.05)
    (True, True)
    >>> bool(test.estimate == test.details["differences"].mean())
    True
    """
    fits = _five_by_two_differences(a, b, "combined_ftest_5x2cv_of")
    formulas = _five_by_two_formulas(fits.differences)
    messages = Messages()
    messages.note(_fits_note(fits.cv_repr))
    df = (N_REPLICATIONS * N_FOLDS, N_REPLICATIONS)
    if formulas.f_denominator > 0:
        pvalue = float(stats.f.sf(formulas.f, *df))
    elif formulas.f_numerator == 0:
        messages.warn(_ALL_ZERO)
        pvalue = 1.0
    else:
        messages.warn(
            "The two differences of every replication are equal (all s_i^2 are 0) but not all are 0: "
            "the F statistic is infinite and the p-value is undefined (nan)."
        )
        pvalue = math.nan
    standard_error = math.sqrt(formulas.mean_s_squared)
    messages.note("confidence_interval() is the mean of the ten differences +- t_5 * sqrt(mean s_i^2): "
                  "conservative, as the ten differences are correlated to an unknown degree")
    details = _details(
        fits, formulas, f_numerator=formulas.f_numerator, f_denominator=formulas.f_denominator,
        standard_error_if_independent=math.sqrt(formulas.mean_s_squared / (N_REPLICATIONS * N_FOLDS)),
    )
    return with_grouped_warning(FTestResult(
        statistic=formulas.f, pvalue=pvalue, df=df[0], df_denominator=df[1], alternative="two-sided",
        estimate=formulas.mean_difference, standard_error=standard_error, method="5x2cv-f",
        estimand=_estimand(fits.n_samples), target="unconditional",
        assumptions=(
            "the ten differences p_i^(j) approximately normal with a common variance and treated as "
            "independent, so that sum (p_i^(j))^2 / sigma^2 is chi-square with 10 degrees of freedom and "
            f"sum s_i^2 / sigma^2 chi-square with 5, independent of it (Alpaydin 1999); {fits.data_assumption}"
        ),
        _interval_standard_error=standard_error, _interval_df=N_REPLICATIONS,
        details=details, notes=tuple(messages.notes), warnings=tuple(messages.warnings),
    ), fits.record.a, range(N_REPLICATIONS), "the 5x2cv test")
