"""Nadeau & Bengio's conservative Z interval for the generalization error, from paired subsampling."""

import math

import numpy as np

from .._utils._arrays import readonly_array
from .._utils._docstring import fill_doc
from .._utils._params import PROBABILITY, validate_params
from .._utils._text import loss_noun
from .._utils._warnings import Messages
from ..records import PairedSubsamplingResult
from ..records._paired_subsampling_result import ONE_PAIR
from ._accuracy_interval import normal_bounds
from ._inputs import check_record
from ._results import Interval

_ASSUMPTIONS = (
    "instances drawn independently from the population; the variance of the estimate from n instances is at "
    "most that of the same estimate from n/2 instances, which the pairs of halves measure (Nadeau & Bengio's "
    "argument for calling the interval conservative); normal approximation; the n_pairs pairs of halves give "
    "a variance estimate with few degrees of freedom"
)


def conservative_z_statistics(split_means, n_pairs):
    """The estimate, the per-half estimates and the variance estimate from per-split mean losses.

    Parameters
    ----------
    split_means : ndarray of shape (2 n_pairs + 1, n_splits)
        Row 0: the J splits of all the data; row 1 + 2 m + side: the J splits
        of side ``side`` of pair m (the layout of
        :class:`~cvinference.records.PairedSubsamplingResult`).
    n_pairs : int

    Returns
    -------
    estimate : float
        The mean of row 0: Nadeau & Bengio's resampled estimate on all n.
    half_estimates : ndarray of shape (n_pairs, 2)
        The same estimate on each half of each pair.
    variance : float
        (1 / (2 M)) sum_m (half_estimates[m, 0] - half_estimates[m, 1])^2.

    Examples
    --------
    >>> import numpy as np
    >>> means = np.array([[0.2, 0.3], [0.1, 0.3], [0.3, 0.3]])
    >>> estimate, halves, variance = conservative_z_statistics(means, 1)
    >>> round(estimate, 3), halves.tolist(), round(variance, 4)
    (0.25, [[0.2, 0.3]], 0.005)
    """
    estimate = float(split_means[0].mean())
    half_estimates = split_means[1:].mean(axis=1).reshape(n_pairs, 2)
    variance = float(np.sum((half_estimates[:, 0] - half_estimates[:, 1]) ** 2) / (2 * n_pairs))
    return estimate, half_estimates, variance


def _estimand(record, paired):
    trained = (f"fitted to n1 = {record.n_train} instances, over training sets of that size drawn from the "
               f"population (Nadeau & Bengio's generalization error at n1; not the model fitted to all n = "
               f"{record.n_samples} instances of this dataset)")
    if not paired:
        return f"expected {loss_noun(record.loss_name)} on the population of the learner's models {trained}"
    if record.loss_name == "zero_one":
        return f"difference in accuracy on the population (A minus B) of the two learners' models {trained}"
    return (f"difference in expected {loss_noun(record.loss_name)} on the population (B minus A, positive when "
            f"A is better) of the two learners' models {trained}")


def _limits(record, paired):
    """The possible range of the estimate: [0, 1] or [-1, 1] for the 0/1 loss, [0, inf) for a nonnegative one."""
    if record.loss_name == "zero_one":
        return (-1.0, 1.0) if paired else (0.0, 1.0)
    if record.nonnegative and not paired:
        return (0.0, None)
    return None


@validate_params(confidence_level=PROBABILITY)
@fill_doc
def conservative_z_interval_of(result, *, confidence_level=0.95):
    """Nadeau & Bengio's conservative Z interval for a learner's expected loss, from paired subsampling's record.

    Estimates the mean loss of the models the learner fits to n1 instances,
    averaged over training sets of that size (the ``"unconditional"``
    target at training size n1: a statement about the learner, not about the
    one model fitted to this dataset), and its variance from M pairs of
    disjoint halves of the data. For a record of two learners, the interval
    is for the difference of the two learners, on identical splits.

    Parameters
    ----------
    result : PairedSubsamplingResult
        The test losses of one or two learners, as made by
        :func:`paired_subsampling`, with at least two pairs of halves.
    %(confidence_level)s

    Returns
    -------
    Interval
        ``method="conservative-z"``, ``target="unconditional"``, the
        estimate +- z sqrt(variance) (clipped to the loss's range), and in
        ``details``: ``n_pairs`` (M), ``n_splits`` (J), ``n_train`` (n1),
        ``n_test`` (n2), ``half_size``, ``stratified``, ``split_estimates``
        (the J mean losses, or differences, on all the data),
        ``half_estimates`` (shape (M, 2): the estimate on each half of each
        pair), ``variance`` (the variance estimate), and for two learners
        ``estimate_a`` and ``estimate_b`` (each learner's mean loss on all the data).

    See Also
    --------
    conservative_z_interval : :func:`paired_subsampling` and this function in one call.
    corrected_resampled_ttest : Nadeau & Bengio's other variance estimate,
        from the random-subsampling rounds alone.
    loss_interval : intervals about the models of one cross-validation.

    Notes
    -----
    Nadeau & Bengio (2003), "Inference for the generalization error",
    Machine Learning 52, 239-281, section 4 (the conservative Z). Their
    resampled estimator mu_hat = (1/J) sum_j mu_hat_j averages J random
    splits, each training on n1 instances and testing on n2 others
    (mu_hat_j the mean loss of split j); its expectation is the
    generalization error at n1, the mean loss over training sets of size
    n1. Its variance cannot be estimated without bias from the J splits
    alone (their section 3). The conservative Z splits the data M times at
    random into two disjoint halves of floor(n / 2) instances and computes
    the same estimator, with the same n1, n2 and J (which needs
    n1 + n2 <= n / 2), on each half: mu_hat_m^(1) and mu_hat_m^(2).
    The two halves are independent, so (mu_hat_m^(1) - mu_hat_m^(2))^2 / 2
    is an unbiased estimate of the variance of the estimator on n / 2
    instances, and

        sigma_hat^2 = (1 / (2 M)) sum_m (mu_hat_m^(1) - mu_hat_m^(2))^2.

    The interval is centred on mu_hat computed from J splits of **all n**
    instances (with the same n1 and n2):

        mu_hat +- z_{1 - alpha/2} sigma_hat.

    Nadeau & Bengio argue that the estimator varies less on n instances
    than on n / 2 (with more data, the training sets of its splits overlap
    less), so that sigma_hat^2 overestimates its variance and the interval
    is conservative: wider than needed, hence the name. Its price is the
    training size: n1 < n / 2, so the interval is about a learner trained
    on less than half the data. Few pairs make sigma_hat^2 itself noisy:
    it is a mean of M squared differences, M degrees of freedom for
    normal half estimates, and the normal quantile ignores its noise. A
    result with one pair is refused: were the variance on n / 2 that on
    n, (mu_hat - mu) / sigma_hat would be Student's t with one degree of
    freedom, and the z interval at 95% would cover about 70% of the time
    (``P(|T_1| <= 1.96) = 2 arctan(1.96) / pi = 0.70``).
    For two learners each mu_hat_j is the mean over the split's test
    instances of loss(B) - loss(A).

    The fits number J (2 M + 1) per learner (315 with the defaults). M and
    J default to mlr3inferr's ``repeats_out = 10`` and ``repeats_in = 15``
    (its paired subsampling); ``test_size=0.2`` gives its halves' split
    sizes, n1 = 0.4 n and n2 = 0.1 n. mlr3inferr centres its interval on a
    subsampling of all the data with n1 = 0.9 n; this function centres it,
    as Nadeau & Bengio do, on the estimator whose variance the halves
    measure.

    Examples
    --------
    >>> from sklearn.datasets import load_iris
    >>> from sklearn.naive_bayes import GaussianNB
    >>> from cvinference.evaluation import paired_subsampling
    >>> from cvinference.inference import conservative_z_interval_of
    >>> X, y = load_iris(return_X_y=True)
    >>> losses = paired_subsampling(GaussianNB(), X, y, n_pairs=3, n_rounds=4, random_state=0)
    >>> interval = conservative_z_interval_of(losses)
    >>> interval.method, interval.target
    ('conservative-z', 'unconditional')
    >>> interval.details["n_train"], interval.details["n_test"], interval.details["half_estimates"].shape
    (60, 15, (3, 2))
    >>> bool(interval.low <= interval.estimate <= interval.high)
    True
    """
    record = check_record(result, PairedSubsamplingResult, "paired_subsampling", "conservative_z_interval")
    paired, n_pairs, n_splits = record.paired, record.n_pairs, record.n_rounds
    if n_pairs < 2:
        raise ValueError(f"conservative_z_interval_of needs a result with n_pairs >= 2; got a result with "
                         f"n_pairs={n_pairs}. {ONE_PAIR} Run paired_subsampling(..., n_pairs=10) (the default).")
    split_means = record.losses.mean(axis=-1)  # (learners, 2 M + 1, J)
    values = split_means[1] - split_means[0] if paired else split_means[0]
    estimate, half_estimates, variance = conservative_z_statistics(values, n_pairs)

    messages = Messages()
    what = "difference" if paired else f"mean {loss_noun(record.loss_name)}"
    bounds = normal_bounds(estimate, math.sqrt(variance), confidence_level, None, messages,
                           limits=_limits(record, paired), what=what, exact_advice="More pairs (n_pairs) help.")
    messages.note(
        f"centred on the mean of J = {n_splits} splits of all n = {record.n_samples} instances (n1 = {record.n_train} "
        f"training, n2 = {record.n_test} test each); variance from M = {n_pairs} pairs of disjoint halves of "
        f"{record.half_size} instances, (1/2M) sum (mu_1 - mu_2)^2 = {variance:.4g} (Nadeau & Bengio 2003, section 4)"
    )
    if paired:
        messages.note("difference = mean loss of B minus mean loss of A on the same splits (positive when A is better)")
    details = {
        "n_pairs": n_pairs, "n_splits": n_splits, "n_train": record.n_train, "n_test": record.n_test,
        "half_size": record.half_size, "stratified": record.stratified,
        "split_estimates": readonly_array(values[0], np.float64),
        "half_estimates": readonly_array(half_estimates, np.float64), "variance": variance,
    }
    if paired:
        details.update(estimate_a=float(split_means[0, 0].mean()), estimate_b=float(split_means[1, 0].mean()))
    return Interval(
        estimate=estimate, low=bounds.low, high=bounds.high, confidence_level=confidence_level,
        method="conservative-z", estimand=_estimand(record, paired), assumptions=_ASSUMPTIONS,
        target="unconditional",
        details={"averaging": "dataset", "standard_error": bounds.standard_error,
                 "critical_value": bounds.critical_value, "n": record.n_samples, "clipped": bounds.clipped, **details},
        notes=tuple(messages.notes), warnings=tuple(messages.warnings),
    )
