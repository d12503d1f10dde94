"""Bootstrap estimates of accuracy: out-of-bag, .632 and .632+.

Efron (1983) and Efron & Tibshirani (1997) state every quantity as an error
rate; this module computes them as errors and reports them as accuracies
(accuracy = 1 - error).
"""

import math
import types

import numpy as np

from .._utils._arrays import readonly_array
from .._utils._params import PROBABILITY, Options, validate_params
from .._utils._warnings import Messages
from ..records import BootstrapSamplingResult
from ._estimands import GIVEN_THIS_DATASET
from ._inputs import check_record
from ._methods import options
from ._resampling_results import BootstrapResult

METHODS = options("bootstrap_accuracy_of")

# Efron (1983): a bootstrap sample of n draws leaves out each instance with
# probability (1 - 1/n)^n -> e^-1 = 0.368; E&T (1997) use the rounded weights.
_W_RESUB, _W_OOB = 0.368, 0.632

# A .632 estimate whose relative overfitting rate reaches this is flagged.
_OVERFITTING_WARNING_RATE = 0.5


def _point632_plus_error(err, err1, gamma):
    """Efron & Tibshirani's (1997) .632+ error (their eq. 32), with R' and w.

    ``err`` is the resubstitution error, ``err1`` the leave-one-out bootstrap
    error Err^(1), ``gamma`` the no-information error. Returns
    ``(error, R', w)``.
    """
    err1_prime = min(err1, gamma)
    if err1 > err and gamma > err:
        rate = (err1_prime - err) / (gamma - err)
    else:
        rate = 0.0
    weight = _W_OOB / (1 - _W_RESUB * rate)
    error = _W_RESUB * err + _W_OOB * err1 + (err1_prime - err) * (_W_RESUB * _W_OOB * rate) / (1 - _W_RESUB * rate)
    return error, rate, weight


def _check_percentile_interval(n_values, confidence_level, estimate, low, high, messages):
    """Warn when too few bootstrap values make the percentile interval unreliable."""
    tail = (1 - confidence_level) / 2
    needed = math.ceil(1 / tail - 1e-9) - 1  # (B + 1) * tail >= 1: the tail percentiles lie between values
    if n_values < needed:
        messages.warn(
            f"The percentile interval rests on {n_values} bootstrap values, and a {confidence_level:.4g} "
            f"interval needs at least {needed} for its tails to lie between them: with fewer, its bounds come "
            "from the most extreme values and it is narrower than its level says. Increase n_bootstraps."
        )
    if not low - 1e-12 <= estimate <= high + 1e-12:
        messages.warn(
            f"The estimate {estimate:.4g} lies outside the percentile interval [{low:.4g}, {high:.4g}] of the "
            "per-bootstrap values: the estimate pools every instance's out-of-bag predictions, each value "
            "uses one bootstrap sample, and too few values need not bracket the estimate. Increase "
            "n_bootstraps."
        )


_ASSUMPTIONS = {
    "oob": (
        "instances drawn independently from the population; the out-of-bag instances of a bootstrap "
        "sample act as a test set for the model fitted to it; pessimistic for a model fitted to all n "
        "instances, since a bootstrap sample holds only about 63.2% distinct instances"
    ),
    ".632": (
        "instances drawn independently from the population; the fixed mix 0.368 resubstitution + 0.632 "
        "out-of-bag accuracy corrects the out-of-bag pessimism (Efron 1983); optimistic for learners "
        "that fit their training data perfectly (Kohavi 1995, slide 'Bootstrap failure')"
    ),
    ".632+": (
        "instances drawn independently from the population; the weight of the out-of-bag accuracy grows "
        "from 0.632 to 1 with the relative overfitting rate R, measured against the no-information error "
        "gamma of the full-data model's predictions with labels and features made independent "
        "(Efron & Tibshirani 1997)"
    ),
}


@validate_params(method=Options(*METHODS), confidence_level=PROBABILITY)
def bootstrap_accuracy_of(result, *, method=".632", confidence_level=0.95):
    """A classifier's out-of-bag, .632 or .632+ bootstrap accuracy, from the bootstrap's record.

    The record holds, for every bootstrap sample, which instances it left
    out (out of bag) and whether the model fitted to it predicted them
    correctly, and the predictions of the model fitted to all the data
    (resubstitution).

    Parameters
    ----------
    result : BootstrapSamplingResult
        As made by :func:`bootstrap_sampling`.
    method : {".632", ".632+", "oob"}, default=".632"
        ``"oob"``: the leave-one-out bootstrap accuracy 1 - Err^(1).
        ``".632"``: 0.368 resubstitution accuracy + 0.632 (1 - Err^(1))
        (Efron 1983). ``".632+"``: Efron & Tibshirani's (1997) correction
        of .632 for learners that overfit.
    confidence_level : float, default=0.95
        Level of the percentile interval ``low``, ``high`` of ``values``.

    Returns
    -------
    BootstrapResult
        ``estimate``, the per-bootstrap ``values``, their percentile interval
        ``low``, ``high``, and in ``details`` every ingredient (resubstitution,
        leave-one-out bootstrap and no-information accuracies, R and w).

    See Also
    --------
    bootstrap_accuracy : :func:`bootstrap_sampling` and this function in one call.
    cross_val_correctness : Stratified 10-fold cross-validation, the
        estimator Kohavi (1995) recommends for accuracy.

    Notes
    -----
    Efron & Tibshirani (1997), "Improvements on cross-validation: the .632+
    bootstrap method", JASA 92(438), state every quantity as an **error**
    rate; this function computes them as errors and reports accuracy =
    1 - error. With L the 0/1 loss, f^b the model fitted to bootstrap sample
    b and f the model fitted to all n instances:

    * err = (1/n) sum_i L(y_i, f(x_i)), the resubstitution (apparent)
      error (E&T eq. 7).
    * Err^(1) = (1/n) sum_i (1/``|C^-i|``) sum_{b in C^-i} L(y_i, f^b(x_i)),
      E&T's leave-one-out bootstrap error, C^-i the bootstrap
      samples that do not contain i. An instance in every sample has no
      out-of-bag prediction and is left out of the average (a note says how
      many); ``"oob"`` is 1 - Err^(1).
    * Err^(.632) = .368 err + .632 Err^(1) (Efron 1983; used by E&T). The
      weights come from the chance (1 - 1/n)^n -> e^-1 = .368 that a
      bootstrap sample leaves an instance out. Kohavi (1995, slide
      ".632 Bootstrap") writes the same weights in accuracy form but
      averages the per-bootstrap out-of-bag accuracies (the mean of
      ``values``), which differs slightly from Err^(1)'s per-instance
      average.
    * gamma = sum_k p_k (1 - q_k), the no-information error (E&T eq. 27): the
      error of f if features and labels were independent; p_k is the share
      of class k in y, q_k the share of f's predictions on X that are k.
    * R = (Err^(1) - err) / (gamma - err), the relative overfitting rate
      (E&T eq. 28), 0 without overfitting and 1 when Err^(1) reaches gamma.
      E&T's rules for R outside [0, 1] (stated with eq. 32):
      Err^(1)' = min(Err^(1), gamma), and
      R' = (Err^(1)' - err) / (gamma - err) when Err^(1) > err and
      gamma > err, R' = 0 otherwise, so R' lies in [0, 1].
    * Err^(.632+) = Err^(.632) + (Err^(1)' - err) (.368 .632 R') /
      (1 - .368 R') (E&T eq. 32). With w = .632 / (1 - .368 R') this is
      E&T's (1 - w) err + w Err^(1) whenever Err^(1) <= gamma (the usual
      case): .632 when R' = 0, the ``"oob"`` value when R' = 1. When
      Err^(1) > gamma > err (the learner does worse out of bag than the
      no-information rule), R' = 1 and the estimate is .632 Err^(1) +
      .368 gamma.

    Kohavi (1995, slide "Bootstrap failure") shows why .632 alone fails: a
    learner that fits its training data perfectly (1-nearest neighbour, an
    unpruned tree) on a random two-class concept has resubstitution accuracy
    1 and out-of-bag accuracy about 0.5, so .632 gives about
    .368 + .632 x 0.5 = 0.684 for a true accuracy of 0.5 (slide "Bootstrap
    Bias": "extremely biased" on his rand dataset). There R is about 1 and
    .632+ gives about 0.5. A ``method=".632"`` result whose R' reaches 0.5
    warns with :class:`InferenceWarning`.

    **The interval.** Each value in ``values`` is the chosen estimator with
    the out-of-bag accuracy of bootstrap b alone, acc_b, in place of
    1 - Err^(1): acc_b for ``"oob"``, .368 (1 - err) + .632 acc_b for
    ``".632"``, and eq. 32 with Err^(1) = 1 - acc_b (same err and gamma) for
    ``".632+"``. ``low`` and ``high`` are their percentiles. They show how
    much one bootstrap's out-of-bag estimate varies, which is wider than the
    Monte Carlo error of the average and is not the sampling error of the
    estimate over datasets: treat it as a rough guide. It is not the interval
    E&T (1997) recommend (they estimate the standard error of Err^(1) with
    the delta method); for an interval with a stated model use
    :func:`accuracy_interval` on a cross-validation. The result warns when
    the values are too few for the level (fewer than 2 / (1 - level) - 1,
    39 at 95%, leave the tail percentiles inside the extreme values) and when
    the estimate falls outside the interval, which few values allow since the
    estimate pools every instance's out-of-bag predictions.

    Examples
    --------
    Kohavi's failure case: 1-nearest neighbour on labels that are independent
    of the features, so every model's true accuracy is 0.5.

    >>> import numpy as np
    >>> from sklearn.neighbors import KNeighborsClassifier
    >>> from cvinference.evaluation import bootstrap_sampling
    >>> from cvinference.inference import bootstrap_accuracy_of
    >>> rng = np.random.default_rng(0)
    >>> X, y = rng.uniform(size=(200, 5)), rng.integers(0, 2, size=200)
    >>> samples = bootstrap_sampling(KNeighborsClassifier(1), X, y, n_bootstraps=40, random_state=0)
    >>> samples.resubstitution_accuracy
    1.0
    >>> plus = bootstrap_accuracy_of(samples, method=".632+")
    >>> oob = bootstrap_accuracy_of(samples, method="oob")  # the same fits, another method
    >>> round(plus.details["accuracy_632"], 3), round(plus.estimate, 3), round(oob.estimate, 3)
    (0.668, 0.485, 0.475)
    >>> print(plus.summary().splitlines()[0])
    .632+ bootstrap accuracy: 0.485 (40 bootstraps of n = 200)
    """
    record = check_record(result, BootstrapSamplingResult, "bootstrap_sampling", "bootstrap_accuracy")
    y_array, n, n_bootstraps, stratify = record.y_true, record.n_samples, record.n_bootstraps, record.stratified

    messages = Messages()
    full_pred = record.y_pred
    err = float(np.mean(full_pred != y_array))

    err1, oob_accuracy, n_never = _out_of_bag_error(record, messages)
    gamma = _no_information_error(y_array, full_pred)
    err632 = _W_RESUB * err + _W_OOB * err1
    err632plus, rate, weight = _point632_plus_error(err, err1, gamma)
    if err1 > gamma > err:
        messages.note(
            f"the leave-one-out bootstrap error Err^(1) = {err1:.4g} exceeds the no-information error "
            f"gamma = {gamma:.4g}; .632+ uses Err^(1)' = gamma and R' = 1 (Efron & Tibshirani 1997, eq. 32)"
        )

    estimate, values = _estimate_and_values(method, err, err1, gamma, oob_accuracy)
    low, high, n_empty = _percentile_interval(values, oob_accuracy, confidence_level, estimate, n, messages)

    if stratify:
        messages.note("each bootstrap sample was drawn within classes and has y's class counts")
    if method == ".632" and rate >= _OVERFITTING_WARNING_RATE:
        messages.warn(
            f"The relative overfitting rate is R = {rate:.3g} (resubstitution accuracy {1 - err:.4g}, "
            f"out-of-bag accuracy {1 - err1:.4g}): the learner overfits and the .632 estimate is "
            "optimistic, as in Kohavi's (1995) slide 'Bootstrap failure'. Use method='.632+' "
            f"(here {1 - err632plus:.4g}) or cross-validation."
        )

    details = {
        "resubstitution_accuracy": 1 - err,
        "loo_bootstrap_accuracy": 1 - err1,
        "no_information_accuracy": 1 - gamma,
        "relative_overfitting_rate": rate,
        "weight": weight,
        "accuracy_632": 1 - err632,
        "accuracy_632_plus": 1 - err632plus,
        "n_never_left_out": n_never,
        "n_empty_bootstraps": n_empty,
    }
    return BootstrapResult(
        estimate=float(estimate), low=low, high=high, confidence_level=confidence_level, method=method,
        values=readonly_array(values, np.float64), n_bootstraps=n_bootstraps, n_samples=n, stratify=stratify,
        estimand=_estimand(method, n), assumptions=_ASSUMPTIONS[method],
        target="kfold" if method == "oob" else "conditional",
        details=types.MappingProxyType(details),
        notes=tuple(messages.notes), warnings=tuple(messages.warnings),
    )


def _out_of_bag_error(record, messages):
    """``(err1, oob_accuracy, n_never)``: Efron & Tibshirani's leave-one-out bootstrap error Err^(1), each
    bootstrap's out-of-bag accuracy (nan where it left no instance out) and the count of instances in every
    sample (left out of Err^(1), with a note)."""
    n, n_bootstraps = record.n_samples, record.n_bootstraps
    loss_sum = np.zeros(n)
    times_left_out = np.zeros(n, dtype=np.int64)
    oob_accuracy = np.full(n_bootstraps, np.nan)
    for b, (left_out, correct) in enumerate(zip(record.out_of_bag, record.out_of_bag_correct, strict=True)):
        test = np.flatnonzero(left_out)
        if test.size == 0:
            continue
        wrong = ~correct[test]
        loss_sum[test] += wrong
        times_left_out[test] += 1
        oob_accuracy[b] = 1.0 - wrong.mean()

    ever = times_left_out > 0
    n_never = int(n - ever.sum())
    if not ever.any():
        raise ValueError(
            f"No instance was left out of any of the n_bootstraps={n_bootstraps} bootstrap samples of "
            f"n_samples={n}, so there is no out-of-bag prediction to estimate accuracy from. "
            "Increase n_bootstraps."
        )
    err1 = float(np.mean(loss_sum[ever] / times_left_out[ever]))
    if n_never:
        messages.note(
            f"{n_never} of {n} instances were in every bootstrap sample and have no out-of-bag prediction; "
            "Err^(1) averages the other instances (Efron & Tibshirani 1997). More bootstraps "
            "leave every instance out at least once."
        )
    return err1, oob_accuracy, n_never


def _no_information_error(y, predicted):
    """gamma = sum_k p_k (1 - q_k), the no-information error (Efron & Tibshirani 1997, eq. 27)."""
    _, codes = np.unique(y, return_inverse=True)
    classes = np.unique(y)
    p = np.bincount(codes, minlength=classes.size) / y.size
    q = np.array([np.mean(predicted == c) for c in classes])
    return float(np.sum(p * (1 - q)))


def _estimate_and_values(method, err, err1, gamma, oob_accuracy):
    """``method``'s accuracy, and its value with each bootstrap's out-of-bag accuracy in place of 1 - Err^(1)."""
    err632 = _W_RESUB * err + _W_OOB * err1
    if method == "oob":
        estimate, values = 1 - err1, oob_accuracy.copy()
    elif method == ".632":
        estimate, values = 1 - err632, _W_RESUB * (1 - err) + _W_OOB * oob_accuracy
    else:
        estimate = 1 - _point632_plus_error(err, err1, gamma)[0]
        values = np.array([
            math.nan if math.isnan(acc) else 1 - _point632_plus_error(err, 1 - acc, gamma)[0]
            for acc in oob_accuracy
        ])
    return estimate, values


def _percentile_interval(values, oob_accuracy, confidence_level, estimate, n, messages):
    """``(low, high, n_empty)``: the percentile interval of the finite ``values`` (checked against their count
    and the estimate) and the count of bootstraps that left no instance out (with a warning)."""
    n_bootstraps = oob_accuracy.size
    n_empty = int(np.isnan(oob_accuracy).sum())
    finite = values[~np.isnan(values)]
    if n_empty:
        messages.warn(
            f"{n_empty} of the {n_bootstraps} bootstrap samples left no instance out (n_samples={n} is very "
            "small); their values are nan and the percentile interval uses the others."
        )
    if finite.size:
        low, high = (float(v) for v in np.quantile(finite, [(1 - confidence_level) / 2, (1 + confidence_level) / 2]))
        _check_percentile_interval(finite.size, confidence_level, estimate, low, high, messages)
    else:
        low = high = math.nan
    return low, high, n_empty


def _estimand(method, n):
    """What ``method``'s accuracy is about: the models fitted to bootstrap samples (oob) or the full-data model."""
    if method == "oob":
        return (
            f"accuracy on the population of the models the learner fits to bootstrap samples of this "
            f"dataset (n = {n} draws with replacement, about {round(0.632 * n)} distinct instances); "
            f"{GIVEN_THIS_DATASET}"
        )
    return (
        f"accuracy on the population of the model the learner fits to all n = {n} instances of this "
        f"dataset; {GIVEN_THIS_DATASET}"
    )
