"""Nadeau & Bengio's conservative Z interval for the generalization error, from paired subsampling."""

import math
import types

import numpy as np

from .._utils._arrays import readonly_array
from .._utils._params import PROBABILITY, Boolean, Integer, Jobs, Seed, validate_params
from .._utils._warnings import Messages
from ..evaluation._holdout import TEST_SIZE
from ..evaluation._paired_subsampling import fit_paired_subsampling
from ..records._losses import get_loss
from ._accuracy_interval import normal_bounds
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
        :class:`~cvinference.evaluation._paired_subsampling.PairedSubsamplingPlan`).
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


def _loss_words(loss_name):
    return loss_name if loss_name.endswith("loss") else f"{loss_name} loss"


def _estimand(fits, paired):
    plan = fits.plan
    trained = (f"fitted to n1 = {plan.n_train} instances, over training sets of that size drawn from the "
               f"population (Nadeau & Bengio's generalization error at n1; not the model fitted to all n = "
               f"{plan.n_samples} instances of this dataset)")
    if not paired:
        return f"expected {_loss_words(fits.loss_name)} on the population of the learner's models {trained}"
    if fits.loss_name == "zero_one":
        return f"difference in accuracy on the population (A minus B) of the two learners' models {trained}"
    return (f"difference in expected {_loss_words(fits.loss_name)} on the population (B minus A, positive when "
            f"A is better) of the two learners' models {trained}")


def _limits(fits, paired):
    """The possible range of the estimate: [0, 1] or [-1, 1] for the 0/1 loss, [0, inf) for a nonnegative one."""
    if fits.loss_name == "zero_one":
        return (-1.0, 1.0) if paired else (0.0, 1.0)
    if fits.nonnegative and not paired:
        return (0.0, None)
    return None


@validate_params(n_pairs=Integer(minimum=1), n_splits=Integer(minimum=1), test_size=TEST_SIZE,
                 confidence_level=PROBABILITY, stratify=Boolean(), random_state=Seed(), n_jobs=Jobs())
def conservative_z_interval(estimator, X, y, *, n_pairs=10, n_splits=15, test_size=0.2, confidence_level=0.95,
                            loss="zero_one", estimator_b=None, stratify=True, random_state=None, n_jobs=None):
    """Nadeau & Bengio's conservative Z interval for a learner's expected loss, from paired subsampling.

    Estimates the mean loss of the models the learner fits to n1 instances,
    averaged over training sets of that size (the ``"unconditional"``
    target at training size n1: a statement about the learner, not about the
    one model fitted to this dataset), and its variance from M pairs of
    disjoint halves of the data. With ``estimator_b``, the interval is for
    the difference of the two learners, on identical splits.

    Parameters
    ----------
    estimator : estimator instance
        Any object with ``fit`` and ``predict`` (``predict_proba`` for a
        probability loss); it is cloned, never fitted.
    X : array-like or sparse matrix of shape (n_samples, n_features)
    y : array-like of shape (n_samples,)
        Class labels for a classification loss, numbers for a regression loss.
    n_pairs : int, default=10
        M, the number of random pairs of disjoint halves whose estimates
        give the variance.
    n_splits : int, default=15
        J, the number of random train/test splits of all the data and of
        each half.
    test_size : float, default=0.2
        The share of a half tested in each split, strictly between 0 and 1:
        with h = floor(n / 2) instances in a half, n2 = ceil(test_size * h)
        are tested and n1 = h - n2 train, so n1 + n2 = n / 2, the largest
        the method allows. The default gives n1 = 0.4 n and n2 = 0.1 n.
    confidence_level : float, default=0.95
        Strictly between 0 and 1.
    loss : str, callable or Loss, default="zero_one"
        Per-instance loss, as in :class:`CVEvaluator` (``"zero_one"``,
        ``"log_loss"``, ``"brier"``, ``"squared_error"``,
        ``"absolute_error"``, or :func:`make_loss`).
    estimator_b : estimator instance or None, default=None
        A second learner: the interval is then for the mean loss of B minus
        that of A (positive when A is better; for ``loss="zero_one"``,
        accuracy(A) - accuracy(B)), fitted on the same splits.
    stratify : bool, default=True
        Keep the class proportions in every halving and every split when y
        holds class labels (a numeric target is split at random).
    random_state : int, RandomState instance or None, default=None
        Seeds every split, all drawn before any fit, so that with an int the
        result is identical for any ``n_jobs``. It does not seed the estimators.
    n_jobs : int, default=None
        Number of jobs for the J (2 M + 1) fits per learner. None means 1
        unless in a :func:`joblib.parallel_config` context.

    Returns
    -------
    Interval
        ``method="conservative-z"``, ``target="unconditional"``, the
        estimate +- z sqrt(variance) (clipped to the loss's range), and in
        ``details``: ``n_pairs`` (M), ``n_splits`` (J), ``n_train`` (n1),
        ``n_test`` (n2), ``half_size``, ``stratified``, ``split_estimates``
        (the J mean losses, or differences, on all the data),
        ``half_estimates`` (shape (M, 2): the estimate on each half of each
        pair), ``variance`` (the variance estimate), and with ``estimator_b``
        ``estimate_a`` and ``estimate_b`` (each learner's mean loss on all the data).

    See Also
    --------
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
    on less than half the data. Few pairs make sigma_hat^2 itself noisy. With ``estimator_b`` each mu_hat_j
    is the mean over the split's test instances of loss(B) - loss(A).

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
    >>> from cvinference import conservative_z_interval
    >>> X, y = load_iris(return_X_y=True)
    >>> interval = conservative_z_interval(GaussianNB(), X, y, n_pairs=3, n_splits=4, random_state=0)
    >>> interval.method, interval.target
    ('conservative-z', 'unconditional')
    >>> interval.details["n_train"], interval.details["n_test"], interval.details["half_estimates"].shape
    (60, 15, (3, 2))
    >>> bool(interval.low <= interval.estimate <= interval.high)
    True
    """
    paired = estimator_b is not None
    estimators = [estimator, estimator_b] if paired else [estimator]
    names = ["estimator", "estimator_b"] if paired else ["estimator"]
    fits = fit_paired_subsampling(estimators, names, X, y, loss=get_loss(loss), n_pairs=n_pairs,
                                  n_splits=n_splits, test_size=test_size, stratify=stratify,
                                  random_state=random_state, n_jobs=n_jobs)
    plan = fits.plan
    split_means = fits.losses.mean(axis=-1)  # (estimators, 2 M + 1, J)
    values = split_means[1] - split_means[0] if paired else split_means[0]
    estimate, half_estimates, variance = conservative_z_statistics(values, n_pairs)

    messages = Messages()
    what = "difference" if paired else f"mean {_loss_words(fits.loss_name)}"
    bounds = normal_bounds(estimate, math.sqrt(variance), confidence_level, None, messages,
                           limits=_limits(fits, paired), what=what, exact_advice="More pairs (n_pairs) help.")
    messages.note(
        f"centred on the mean of J = {n_splits} splits of all n = {plan.n_samples} instances (n1 = {plan.n_train} "
        f"training, n2 = {plan.n_test} test each); variance from M = {n_pairs} pairs of disjoint halves of "
        f"{plan.half_size} instances, (1/2M) sum (mu_1 - mu_2)^2 = {variance:.4g} (Nadeau & Bengio 2003, section 4)"
    )
    if paired:
        messages.note("difference = mean loss of B minus mean loss of A on the same splits (positive when A is better)")
    details = {
        "n_pairs": n_pairs, "n_splits": n_splits, "n_train": plan.n_train, "n_test": plan.n_test,
        "half_size": plan.half_size, "stratified": plan.stratified,
        "split_estimates": readonly_array(values[0], np.float64),
        "half_estimates": readonly_array(half_estimates, np.float64), "variance": variance,
    }
    if paired:
        details.update(estimate_a=float(split_means[0, 0].mean()), estimate_b=float(split_means[1, 0].mean()))
    return Interval(
        estimate=estimate, low=bounds.low, high=bounds.high, confidence_level=confidence_level,
        method="conservative-z", averaging="dataset", estimand=_estimand(fits, paired), assumptions=_ASSUMPTIONS,
        target="unconditional", standard_error=bounds.standard_error, critical_value=bounds.critical_value,
        n=plan.n_samples, details=types.MappingProxyType(details), notes=tuple(messages.notes),
        warnings=tuple(messages.warnings),
    )
