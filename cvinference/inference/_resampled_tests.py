"""Tests for repeated resampling: the corrected resampled t and the Bayesian correlated t.

The corrected resampled t of Nadeau & Bengio (2003), its repeated k-fold form
of Bouckaert & Frank (2004) and the Bayesian correlated t-test of Corani &
Benavoli (2015) and Benavoli et al. (2017) compare two learners on dependent
rounds or folds.
"""

import dataclasses
import math
import types

import numpy as np
from scipy import stats

from .._utils._docstring import fill_doc
from .._utils._params import Real, validate_params
from .._utils._warnings import Messages
from ..records import CVResult, SubsamplingResult
from ..records._same_folds import same_folds
from ._clusters import with_grouped_warning
from ._distributions import statistic_and_pvalue
from ._inputs import about_two_learners, check_accuracy_result, check_paired, two_results
from ._parameters import ALTERNATIVE
from ._regression import loss_words
from ._resampling_results import BayesianResult
from ._results import LossDifferenceTestResult, TestResult

# --------------------------------------------------------------------------- paired differences


@dataclasses.dataclass(frozen=True)
class _Differences:
    """The paired differences of two resampling results, and what their correlation needs."""

    values: np.ndarray  # accuracy(A) - accuracy(B) per fold or round, all repeats
    variance: float  # sample variance of values (exactly 0 when they are all equal)
    test_train_ratio: float  # n_test / n_train
    rho: float  # n_test / (n_test + n_train)
    training_size: float  # n_train (mean over folds)
    kfold: bool  # repeated k-fold (True) or random subsampling (False)
    layout: dict  # {"k": ..., "r": ...} or {"n_rounds": ...}
    quantity: str = "accuracy"  # what the differences are differences of
    contrast: str = "A minus B) of the two learners"  # completes "(...' models" in the estimand
    bounded: bool = True  # differences of accuracies (in [-1, 1]), not of unbounded losses

    @property
    def scheme(self):
        if self.kfold:
            return f"{self.layout['r']} x {self.layout['k']}-fold cross-validation"
        return f"random subsampling, {self.layout['n_rounds']} rounds"


def score_differences(values, *, n_splits, n_repeats, quantity, contrast, bounded=True):
    """The differences of two learners' scores on the same k r folds of (repeated) equal-size k-fold.

    ``values`` are score(A) - score(B) per fold, repeat after repeat; the
    training size is (k - 1) / k of the data, so n_test / n_train = 1 / (k - 1).
    ``bounded``: the scores lie in [0, 1], so their differences in [-1, 1].
    """
    values, variance = _values_and_variance(values)
    ratio = 1 / (n_splits - 1)
    return _Differences(values=values, variance=variance, test_train_ratio=ratio, rho=1 / n_splits,
                        training_size=math.nan, kfold=True, layout={"k": n_splits, "r": n_repeats},
                        quantity=quantity, contrast=contrast, bounded=bounded)


def _paired_differences(a, b, test):
    """Check a pair of results (``a`` and ``b``, or a PairedCVResult ``a``) for a corrected test; their differences."""
    a, b = two_results(a, b, test)
    for name, result in (("a", a), ("b", b)):
        if not isinstance(result, (CVResult, SubsamplingResult)):
            raise TypeError(
                f"{test} takes two CVResults of (repeated) k-fold on identical folds, as made by "
                f"CVEvaluator.compare, or two SubsamplingResults of random_subsampling; got {name} of "
                f"type {type(result).__name__}."
            )
    if isinstance(a, CVResult) != isinstance(b, CVResult):
        raise TypeError(
            f"{test} pairs results of the same scheme; a is a {type(a).__name__} and b a "
            f"{type(b).__name__}. Evaluate both learners with CVEvaluator.compare or both with "
            "random_subsampling (same data, same int random_state)."
        )
    if isinstance(a, CVResult):
        return _kfold_differences(a, b, test)
    return _subsampling_differences(a, b, test)


def _values_and_variance(values):
    """Values as a 1-d array and their sample variance, exactly 0 when all are equal."""
    values = np.ravel(values).astype(np.float64)
    values.setflags(write=False)
    variance = 0.0 if (values == values[0]).all() else float(values.var(ddof=1))
    return values, variance


def _kfold_differences(a, b, test):
    regression = a.classes is None and b.classes is None and test == "corrected_resampled_ttest"
    if not regression:
        check_accuracy_result(a, "a")
        check_accuracy_result(b, "b")
    elif a.loss_name != b.loss_name:
        raise ValueError(f"{test} compares the same loss of two regressors; a has loss_name={a.loss_name!r} and b "
                         f"has loss_name={b.loss_name!r}. Evaluate both with the same loss= (CVEvaluator.compare).")
    check_paired(a, b, test)
    if not same_folds(a, b):
        raise ValueError(
            f"{test} pairs the fold accuracies of A and B, but a and b were not cross-validated on "
            f"identical folds (fold arrays of shapes {a.fold.shape} and {b.fold.shape}, or different "
            "partitions). Use CVEvaluator(...).compare(estimator_a, estimator_b, X, y)."
        )
    if a.is_loo:
        raise ValueError(
            f"{test} does not apply to leave-one-out (n_splits = n_samples = {a.n_samples}): each "
            "difference is -1, 0 or +1 on one instance, and the correction n_test / n_train was not "
            "derived or studied for it. Use matched_sample_test(a, b) (Wong 2015, Theorem 4) or "
            "mcnemar_test(a, b), or repeated k-fold with k < n."
        )
    if a.n_splits < 2:
        raise ValueError(
            f"{test} needs at least two folds; a has n_splits=1 (a holdout?). Compare a holdout with "
            "mcnemar_test(a, b), or use repeated k-fold or random_subsampling."
        )
    if a.n_train != b.n_train:
        raise ValueError(f"a and b must have the same training size; got n_train={a.n_train} and {b.n_train}.")
    sizes = a.fold_sizes
    training = _training_sizes(a)
    if regression:  # mean loss(B) - mean loss(A): positive when A is better, as for accuracy
        values, variance = _values_and_variance(b.fold_mean_loss - a.fold_mean_loss)
        wording = {"quantity": loss_words(a.loss_name), "bounded": False,
                   "contrast": "B minus A, positive when A is better) of the two learners"}
    else:
        values, variance = _values_and_variance((a.fold_correct - b.fold_correct) / sizes)
        wording = {}
    return _Differences(
        values=values, variance=variance, test_train_ratio=n_test_over_n_train(a),
        rho=float(np.mean(sizes / (sizes + training))), training_size=float(training.mean()), kfold=True,
        layout={"k": a.n_splits, "r": a.n_repeats}, **wording,
    )


def _training_sizes(result):
    """The training size of each fold of a K-fold record (its ``n_train`` where it has one)."""
    sizes = result.fold_sizes
    return np.full(sizes.shape, result.n_train) if result.n_train is not None else result.n_samples - sizes


def n_test_over_n_train(result):
    """n_test / n_train of a K-fold record, averaged over its folds: the corrected t's correction."""
    return float(np.mean(result.fold_sizes / _training_sizes(result)))


def _subsampling_differences(a, b, test):
    if a.n_samples != b.n_samples or not np.array_equal(a.y_true, b.y_true):
        raise ValueError(
            f"{test} pairs the rounds of A and B on the same instances, but a and b have different "
            "y_true. Run random_subsampling on the same data for both."
        )
    if a.test_indices.shape != b.test_indices.shape or not np.array_equal(a.test_indices, b.test_indices):
        raise ValueError(
            f"{test} pairs the rounds of A and B, but their test indices differ (shapes "
            f"{a.test_indices.shape} and {b.test_indices.shape}). Run random_subsampling for both with "
            "the same n_rounds, test_size, stratify and int random_state."
        )
    if a.n_train != b.n_train:
        raise ValueError(f"a and b must have the same training size; got n_train={a.n_train} and {b.n_train}.")
    if a.n_rounds < 2:
        raise ValueError(f"{test} needs at least two rounds; a and b have n_rounds={a.n_rounds}.")
    correct_a, correct_b = np.count_nonzero(a.correct, axis=1), np.count_nonzero(b.correct, axis=1)
    values, variance = _values_and_variance((correct_a - correct_b) / a.n_test)
    return _Differences(
        values=values, variance=variance, test_train_ratio=a.n_test / a.n_train,
        rho=a.n_test / (a.n_test + a.n_train), training_size=float(a.n_train), kfold=False,
        layout={"n_rounds": a.n_rounds},
    )


def _estimand(differences, what="difference"):
    size = differences.training_size
    if math.isnan(size):
        k = differences.layout["k"]
        size = f"{k - 1}/{k} of the"
    else:
        size = f"{size:.0f}" if size.is_integer() else f"about {round(size)}"
    return (
        f"{what} in expected {differences.quantity} ({differences.contrast}' models fitted to "
        f"{size} instances, averaged over training sets of that size from the "
        "population (Nadeau & Bengio 2003's generalization error); the correction allows for the variation "
        "of training sets only approximately, and one dataset cannot check it (Vanwinckelen & Blockeel 2015)"
    )


def _assumptions(differences):
    source = ("Nadeau & Bengio's approximation for random splits, applied to repeated k-fold as Bouckaert & "
              "Frank 2004 propose: a heuristic, as its folds are not independent random splits"
              if differences.kfold else
              "Nadeau & Bengio 2003's approximation, derived for independent random train/test splits")
    return (
        "the differences share one mean and variance, and any two are correlated by about "
        f"rho = n_test / n ({source}); normal differences"
    )


# --------------------------------------------------------------------------- the two tests


@validate_params(alternative=ALTERNATIVE)
@fill_doc
@about_two_learners
def corrected_resampled_ttest(a, b=None, *, alternative="two-sided"):
    """Corrected t-test over repeated resampling (Nadeau-Bengio; Bouckaert-Frank).

    Parameters
    ----------
    a : CVResult, SubsamplingResult or PairedCVResult
        The result of learner A, or a pair holding both results (as
        :meth:`CVEvaluator.compare` makes it, with ``n_repeats = r``) with
        ``b`` left out.
    b : CVResult or SubsamplingResult, optional
        The result of learner B: with ``a``, either two results of (repeated)
        k-fold on identical folds, or two results of
        :func:`random_subsampling` with identical test sets (same data and
        int ``random_state``). Left out when ``a`` is a pair. Leave-one-out
        is refused. Two regressors' k-fold records (same loss) are compared
        on their fold mean losses.
    %(alternative)s

    Returns
    -------
    TestResult or LossDifferenceTestResult
        ``statistic`` (t), ``pvalue``, ``df``, ``estimate`` (the mean
        difference, A minus B: of accuracies, or of mean losses B minus A
        for regressors, positive when A is better, in a
        :class:`LossDifferenceTestResult`), ``standard_error`` (the corrected one) and
        ``confidence_interval()``. ``details`` holds the differences ``d``,
        ``n_test_over_n_train``, ``variance_factor`` and the layout (``k``
        and ``r``, or ``n_rounds``).

    Warns
    -----
    InferenceWarning
        When all differences are equal (p = 1 when they are all 0).

    See Also
    --------
    bayesian_correlated_ttest : the same differences, read as a posterior.
    matched_sample_test : Wong's t for a single k-fold.

    Notes
    -----
    With the N paired differences d_i = accuracy_A - accuracy_B of the folds
    (or rounds), their mean d and sample variance s^2,

        t = d / sqrt((1 / N + n_test / n_train) s^2),  df = N - 1.

    Random subsampling, J rounds (N = J): the corrected resampled t of Nadeau
    & Bengio (2003), "Inference for the generalization error", Machine
    Learning 52. Two rounds share training and test instances, so their
    differences are correlated. With variance sigma^2 and correlation rho
    between any two, the mean difference has variance
    sigma^2 (1 / J + rho (J - 1) / J) while s^2 estimates (1 - rho) sigma^2,
    so Var(mean d) = (1 / J + rho / (1 - rho)) E[s^2]; Nadeau & Bengio
    approximate rho by n_test / n, that is rho / (1 - rho) by
    n_test / n_train. They
    derived it for independent random train/test splits, the scheme of
    :func:`random_subsampling`; in their simulations its size was near the
    nominal level, where the uncorrected resampled t (factor 1 / J) rejects
    far too often (as Dietterich 1998 had shown).

    Repeated k-fold, r repeats (N = k r): the corrected repeated k-fold cv
    test of Bouckaert & Frank (2004), "Evaluating the replicability of
    significance tests for comparing learning algorithms", PAKDD: the same
    formula over all k r fold differences, with n_test / n_train the mean of
    m_j / (n - m_j) over the folds (1 / (k - 1) for equal folds). This is a
    heuristic: the folds of one repeat are disjoint, not independent random
    splits, and the correction was not derived for them. In Bouckaert &
    Frank's simulations it was among the most replicable tests, with
    acceptable type I error (they recommend 10 x 10-fold). With r = 1 it differs from the matched-sample t only by the
    factor 1 / k + 1 / (k - 1) in place of 1 / k.

    Regressors: d_i is the fold's mean loss of B minus that of A (mean
    squared error, say), positive when A is better. Nadeau & Bengio derive
    the correction for any loss (their generalization error is an expected
    loss), so the formula is unchanged; the interval is not clipped.

    What it estimates: the expected difference in accuracy of the two
    learners trained on n_train instances, over training sets of that size
    (Nadeau & Bengio's generalization error), not the difference of the
    particular models fitted here; the term n_test / n_train stands for the
    variation of training sets, which one dataset cannot measure
    (Vanwinckelen & Blockeel 2015). All differences equal gives s = 0: a
    warning and, when they are all 0, t = 0 and p = 1.

    Examples
    --------
    Two repeats of 5-fold cross-validation with 40 instances per fold.

    >>> import numpy as np
    >>> from cvinference import CVResult, corrected_resampled_ttest
    >>> fold = np.tile(np.repeat(np.arange(5), 40), (2, 1))
    >>> def result(correct):
    ...     y_pred = [np.concatenate([[1] * r + [0] * (40 - r) for r in row]) for row in correct]
    ...     return CVResult(y_true=np.ones(200, dtype=int), y_pred=y_pred, fold=fold)
    >>> a = result([[32, 28, 30, 30, 32], [31, 30, 29, 33, 29]])
    >>> b = result([[30, 27, 30, 26, 30], [30, 29, 30, 28, 30]])
    >>> corrected_resampled_ttest(a, b)
    TestResult(statistic=1.21, pvalue=0.2569, df=9, alternative='two-sided', estimate=0.035,
               method='corrected-t')
    """
    test = corrected_ttest_of(_paired_differences(a, b, "corrected_resampled_ttest"), alternative)
    first = two_results(a, b, "corrected_resampled_ttest")[0]
    if not isinstance(first, CVResult):
        return test
    return with_grouped_warning(test, first, range(first.n_repeats), "the corrected t")


def corrected_ttest_of(differences, alternative="two-sided"):
    """The corrected resampled t (see :func:`corrected_resampled_ttest`) of checked ``_Differences``."""
    d, n = differences.values, differences.values.size
    factor = 1 / n + differences.test_train_ratio
    estimate = float(d.mean())
    standard_error = math.sqrt(factor * differences.variance)
    df = n - 1
    messages = Messages()
    statistic, pvalue = statistic_and_pvalue(estimate, standard_error, df, alternative, messages)
    if differences.kfold:
        variant = "repeated k-fold"
        messages.note(
            f"{differences.scheme}: Nadeau & Bengio's correction applied to the {n} fold differences as "
            "Bouckaert & Frank (2004) propose; it was derived for random train/test splits, so here it "
            "is a heuristic"
        )
    else:
        variant = "resampled"
        messages.note(f"{differences.scheme}: the corrected resampled t of Nadeau & Bengio (2003)")
    messages.note(
        f"variance factor 1/{n} + n_test/n_train = {factor:.4g} in place of the naive 1/{n}: the standard "
        f"error is {math.sqrt(factor * n):.3g} times the naive t's"
    )
    details = {"d": tuple(float(v) for v in d), "n_differences": n, "variance": differences.variance,
               "n_test_over_n_train": differences.test_train_ratio, "variance_factor": factor,
               **differences.layout, "variant": variant}
    result_class = TestResult if differences.bounded else LossDifferenceTestResult
    return result_class(
        statistic=statistic, pvalue=pvalue, df=df, alternative=alternative, estimate=estimate,
        standard_error=standard_error, method="corrected-t", estimand=_estimand(differences),
        assumptions=_assumptions(differences), target="unconditional", _interval_standard_error=standard_error,
        _interval_df=df,
        details=types.MappingProxyType(details), notes=tuple(messages.notes), warnings=tuple(messages.warnings),
    )


MARGIN = Real(0, math.inf, closed="left", what="a finite number",
            example="0.01 (one percentage point of accuracy): the half-width of the region of practical "
                    "equivalence [-margin, margin]")
"""``margin``: how far apart two scores may be and still count as equal."""

ACCURACY_MARGIN = Real(0, 1, closed="left", what="a difference of accuracies",
                     example="0.01 (one percentage point); a margin of 1 or more holds every difference of two "
                             "accuracies, so every comparison would come out equivalent")
"""``margin`` of a comparison of accuracies, whose differences lie in [-1, 1]."""


@validate_params(margin=ACCURACY_MARGIN)
@about_two_learners
def bayesian_correlated_ttest(a, b=None, *, margin=0.01):
    """Bayesian correlated t-test: P(A better), P(practically equal), P(B better).

    Parameters
    ----------
    a : CVResult, SubsamplingResult or PairedCVResult
        As for :func:`corrected_resampled_ttest`: the result of learner A,
        or a pair holding both with ``b`` left out.
    b : CVResult or SubsamplingResult, optional
        As for :func:`corrected_resampled_ttest`: (repeated) k-fold on
        identical folds, or random subsampling on identical test sets.
    margin : float, default=0.01
        Half-width of the region of practical equivalence: differences in
        accuracy within [-margin, margin] count as no difference. 0 gives
        ``prob_equivalent = 0``; 1 or more is refused (every difference of
        two accuracies would count as none).

    Returns
    -------
    BayesianResult
        ``prob_a_better``, ``prob_equivalent`` and ``prob_b_better`` (they
        sum to 1), and the posterior's ``posterior_mean``,
        ``posterior_scale`` and ``df``.

    Warns
    -----
    InferenceWarning
        When all differences are equal: the posterior is then a point mass.

    See Also
    --------
    corrected_resampled_ttest : the frequentist test on the same differences.

    Notes
    -----
    Corani & Benavoli (2015), "A Bayesian approach for comparing
    cross-validated algorithms on multiple data sets", Machine Learning 100;
    Benavoli, Corani, Demšar & Zaffalon (2017), "Time for a change: a
    tutorial for comparing multiple classifiers through Bayesian analysis",
    JMLR 18(77), section 3 (the Bayesian correlated t-test). The n
    differences d_i (k r folds, or J rounds) are modelled as normal with a
    common mean mu and a correlation rho between any two; under their
    non-informative prior the posterior of mu is Student's t with n - 1
    degrees of freedom, location mean(d) and scale
    s sqrt(1 / n + rho / (1 - rho)), s the sample standard deviation of the
    d_i. rho is not identifiable from the data and is set to
    n_test / n_total, Nadeau & Bengio's (2003) approximation: 1/k for k-fold
    (the mean m_j / n here), n_test / n for random subsampling; then
    rho / (1 - rho) = n_test / n_train, the term of the corrected t (for
    unequal folds the corrected t averages m_j / (n - m_j) instead, which is
    slightly larger; the two differ noticeably only for small n). The probabilities are posterior
    probabilities of the regions mu > margin, ``|mu| <= margin`` and mu < -margin; they
    are about the mean difference mu, the quantity the corrected t tests,
    and share its approximations (the correlation heuristic; the folds of
    k-fold are not independent random splits). With s = 0 (all differences
    equal) the posterior is a point mass at mean(d).

    Examples
    --------
    >>> import numpy as np
    >>> from cvinference import CVResult, bayesian_correlated_ttest
    >>> fold = np.tile(np.repeat(np.arange(5), 40), (2, 1))
    >>> def result(correct):
    ...     y_pred = [np.concatenate([[1] * r + [0] * (40 - r) for r in row]) for row in correct]
    ...     return CVResult(y_true=np.ones(200, dtype=int), y_pred=y_pred, fold=fold)
    >>> a = result([[32, 28, 30, 30, 32], [31, 30, 29, 33, 29]])
    >>> b = result([[30, 27, 30, 26, 30], [30, 29, 30, 28, 30]])
    >>> bayesian_correlated_ttest(a, b, margin=0.01)
    BayesianResult(prob_a_better=0.7951, prob_equivalent=0.1278, prob_b_better=0.07704, margin=0.01)
    """
    return bayesian_ttest_of(_paired_differences(a, b, "bayesian_correlated_ttest"), margin)


def bayesian_ttest_of(differences, margin):
    """The Bayesian correlated t (see :func:`bayesian_correlated_ttest`) of checked ``_Differences``."""
    d, n, rho = differences.values, differences.values.size, differences.rho
    mean = float(d.mean())
    scale = math.sqrt(differences.variance * (1 / n + rho / (1 - rho)))
    df = n - 1
    messages = Messages()
    if scale > 0:
        posterior = stats.t(df, loc=mean, scale=scale)
        b_better, below_margin = float(posterior.cdf(-margin)), float(posterior.cdf(margin))
        a_better, equivalent = float(posterior.sf(margin)), below_margin - b_better
    else:
        messages.warn(
            f"The differences between A and B have no spread (all equal to {mean:+.4g}), so the posterior "
            "is a point mass there and each probability is 0 or 1; that reflects too few or too coarse "
            "differences, not certainty."
        )
        a_better, b_better = float(mean > margin), float(mean < -margin)
        equivalent = float(abs(mean) <= margin)
    how = ("1/k for k-fold, as Corani & Benavoli (2015) set it" if differences.kfold
           else "Nadeau & Bengio's (2003) approximation for random subsampling")
    messages.note(f"{differences.scheme}: rho = n_test / n = {rho:.4g} ({how})")
    details = {"d": tuple(float(v) for v in d), "n_differences": n, "variance": differences.variance,
               **differences.layout}
    return BayesianResult(
        prob_a_better=a_better, prob_equivalent=equivalent, prob_b_better=b_better, posterior_mean=mean,
        posterior_scale=scale, df=df, margin=margin, rho=rho, method="bayesian-correlated-t",
        estimand=_estimand(differences, "mean difference"),
        assumptions=_assumptions(differences) + "; non-informative prior (Corani & Benavoli 2015)",
        target="unconditional",
        details=types.MappingProxyType(details), notes=tuple(messages.notes), warnings=tuple(messages.warnings),
    )
