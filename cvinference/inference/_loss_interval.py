"""Intervals for a cross-validated mean loss: Nedel'ko's half-sample heuristic and Bayle et al.'s CLT."""

import math

import numpy as np

from .._utils._docstring import fill_doc
from .._utils._params import PROBABILITY, Options, validate_params
from .._utils._text import loss_noun
from .._utils._warnings import Messages
from ._accuracy_interval import PointEstimate, cluster_point, estimate_interval, fold_mean_estimate, normal_bounds
from ._clusters import ROBUST_ASSUMPTIONS, grouped_record_warning, require_clusters
from ._estimands import AUTO_NOTE, training_size_phrase
from ._inputs import about_one_record, check_cv_result
from ._methods import options, row
from ._parameters import REPEAT
from ._repeats import pooled_repeats_warning, select_repeats

LOSS_METHODS = ("auto", *options("loss_interval"))
VARIANCES = ("within-fold", "all-pairs")

_ASSUMPTIONS = {
    "half-sample": ("instance independence; Nedel'ko's empirical finding that cross-validation is about as "
                    "precise as a test sample of half the size (a heuristic, not a theorem); normal approximation"),
    "normal": ("instance independence; the n cross-validated losses treated as an independent test sample "
               "(ignores that the folds' models share training data); normal approximation"),
    "t": "instance independence; fold mean losses independent and normally distributed",
    "cv-clt": ("instances drawn independently from the population; a learner stable enough for Bayle et al.'s "
               "central limit theorem (2020); many instances (an asymptotic normal interval)"),
    "cluster": ROBUST_ASSUMPTIONS,
}



def cv_clt_variance(losses, fold, variance):
    """Bayle et al.'s (2020) estimate of sigma^2 from one repeat's per-instance losses and folds.

    ``"within-fold"``: the mean over the k folds of each fold's sample
    variance around the fold's mean (divisor m_j - 1, m_j the fold's size);
    ``"all-pairs"``: the variance of all n losses around their mean (divisor n).

    Examples
    --------
    >>> import numpy as np
    >>> losses, fold = np.array([0.0, 1.0, 1.0, 3.0]), np.array([0, 0, 1, 1])
    >>> cv_clt_variance(losses, fold, "within-fold"), cv_clt_variance(losses, fold, "all-pairs")
    (1.25, 1.1875)
    """
    if variance == "all-pairs":
        return float(np.mean((losses - losses.mean()) ** 2))
    sizes = np.bincount(fold)
    fold_means = np.bincount(fold, weights=losses) / sizes
    squares = np.bincount(fold, weights=(losses - fold_means[fold]) ** 2)
    return float(np.mean(squares / (sizes - 1)))


def check_within_fold(result, rows):
    """Refuse the within-fold variance when a fold holds one instance (leave-one-out), with the fix."""
    smallest = int(result.fold_sizes[list(rows)].min())
    if smallest < 2:
        scheme = "comes from leave-one-out, whose folds hold one instance each" if result.is_loo else (
            f"has a fold of {smallest} instance")
        raise ValueError(
            f"variance='within-fold' needs at least 2 instances in every fold to measure the spread around "
            f"each fold's mean, and the result {scheme}. Pass variance='all-pairs' (Bayle et al. 2020's "
            "other estimator, the spread of all n losses around their mean), which needs none."
        )


def _auto_method(result, messages):
    """What ``method="auto"`` computes: ``"cluster"`` on a record made with groups, else ``"half-sample"``.

    Both are noted, so that the result says the method was chosen for the user. No calibration evidence
    measures the mean of another loss than the error (docs/calibration.md), so the choice follows the
    record's shape alone: Nedel'ko's interval, the default before version 0.1's ``"auto"``, where the instances
    are the units, and the cluster-robust one where the groups are, as ``accuracy_interval`` and
    ``regression_interval`` choose.
    """
    if result.groups is None:
        messages.note(f"{AUTO_NOTE} method='half-sample' (Nedel'ko's interval): the record has no groups, so its "
                      "instances are the units")
        return "half-sample"
    messages.note(f"{AUTO_NOTE} method='cluster': the record was made with groups ({result.n_groups} of them), and "
                  "the groups, not the instances, are the independent units")
    return "cluster"


@validate_params(confidence_level=PROBABILITY, method=Options(*LOSS_METHODS), variance=Options(*VARIANCES),
                 repeat=REPEAT)
@fill_doc
@about_one_record
def loss_interval(result, confidence_level=0.95, *, method="auto", variance="within-fold", repeat=None):
    """Confidence interval for a cross-validated mean loss (log loss, Brier, ...).

    Parameters
    ----------
    result : CVResult
        Any cross-validation result; its per-instance ``loss`` is used.
    %(confidence_level)s
    method : {"auto", "half-sample", "normal", "t", "cv-clt", "cluster"}, default="auto"
        ``"auto"``: ``"cluster"`` for a record made with ``groups`` (the
        groups, not the instances, are the independent units), else
        ``"half-sample"``; the result's notes say which it chose and why.
        ``"half-sample"``: Nedel'ko's mean loss +- z S~ / sqrt(N / 2).
        ``"normal"``: mean loss +- z S~ / sqrt(N), as if the N losses came
        from an independent test sample (for comparison; too narrow).
        ``"t"``: the mean of the fold mean losses +- t_{k-1} s / sqrt(k).
        ``"cv-clt"``: Bayle et al.'s (2020) interval, mean loss +-
        z sigma_hat / sqrt(N), with sigma_hat from ``variance``.
        ``"cluster"``: for a record made with ``groups``, the cluster-robust
        t interval with the groups as the units (see Notes). The others
        count instances and warn on such a record.
    variance : {"within-fold", "all-pairs"}, default="within-fold"
        The variance estimate of ``method="cv-clt"`` (other methods ignore
        it): ``"within-fold"`` averages the folds' sample variances (each
        around its fold's mean); ``"all-pairs"`` is the spread of all N
        losses around their mean. Leave-one-out (folds of one instance)
        allows only ``"all-pairs"``; ``"within-fold"`` then raises a
        ValueError that says so.
    repeat : int or None, default=None
        %(repeat)s N still counts each instance once.

    Returns
    -------
    Interval
        Clipped at 0 when no per-instance loss is negative; a loss has no
        upper bound in general. Its ``method`` is the one computed (the
        one ``"auto"`` chose). Its ``target`` is ``"conditional"`` for
        ``"half-sample"`` (the model fitted to all N instances) and
        ``"kfold"`` for the others (the models fitted in the folds).

    Notes
    -----
    Nedel'ko (2021, section 3) writes S~ for the spread of the per-instance
    cross-validation losses, S~^2 = (1/N) sum_i (L_i - mean L)^2 (a
    population variance, ddof = 0), and (section 5, Tables 2-7) finds the
    error of the cross-validation estimate to be close to S~ / sqrt(N / 2):
    "the accuracy of the estimates obtained by cross-validation is
    approximately the same as the accuracy of the estimates obtained from the
    test sample of half the size". He calls it "rough and fully heuristic";
    it was observed with gradient boosting and the log loss on one dataset.
    ``"normal"`` uses sqrt(N) instead and is shown for comparison.

    Nedel'ko's err_CV measures the cross-validation estimate against the
    loss of the model fitted to all N instances (his K_Q(V_N), section 3),
    bias included, so the ``"half-sample"`` interval is about that model
    (target ``"conditional"``); ``"normal"``, ``"t"`` and ``"cv-clt"``
    are about the models fitted to (k-1)/k of the data, which is what the
    cross-validation estimate averages (target ``"kfold"``). Like every
    interval from one dataset, none includes the variance over datasets
    (Vanwinckelen & Blockeel 2015).

    ``"cv-clt"``: Bayle, Bayle, Janson & Mackey (2020), "Cross-validation
    confidence intervals for test error", NeurIPS, section 3. With the k
    folds B_j of sizes m_j (n / k in the paper) and L_i the loss of
    instance i under the model fitted without its fold, the k-fold
    estimate R_hat = (1/N) sum_i L_i is asymptotically normal around the
    k-fold test error, the mean of the population losses of the k fitted
    models, with a variance sigma^2 / N that they estimate in two ways:

        within-fold  sigma_hat^2 = (1/k) sum_j 1/(m_j - 1) sum_{i in B_j} (L_i - mean_{B_j} L)^2
        all-pairs    sigma_hat^2 = (1/N) sum_i (L_i - R_hat)^2

    (the paper's normalisations, 1/(n/k - 1) within each fold and 1/n
    over all instances), and the interval is R_hat +- z_{1-alpha/2}
    sigma_hat / sqrt(N). Their central limit theorem rests on the learner
    being stable (its loss changes little when one training instance
    changes), not on the instances' losses being independent; it holds for
    any per-instance loss. The within-fold estimator needs two instances
    per fold; under leave-one-out only the all-pairs one is computable.
    Its all-pairs interval equals ``"normal"``; the two differ in what they
    claim. With pooled repeats, R_hat averages them and sigma_hat^2 is the
    mean of the per-repeat estimates.

    ``"cluster"``: the mean loss as the ratio sum_g L_g / N of the groups'
    loss totals, with the cluster-robust variance G / (G - 1) sum_g (L_g -
    mean m_g)^2 / N^2 and t_{G-1} quantiles (Cameron & Miller 2015,
    sections II.C and VI; accuracy_interval's Notes); repeats average the
    per-repeat estimates and variances.

    Examples
    --------
    >>> import numpy as np
    >>> from cvinference import CVResult, loss_interval
    >>> losses = np.array([0.1, 0.3, 0.2, 0.6, 0.1, 0.4, 0.2, 0.3])
    >>> result = CVResult(y_true=[0.0] * 8, y_pred=[0.0] * 8, fold=[0, 1] * 4,
    ...                   loss=losses, loss_name="custom")
    >>> interval = loss_interval(result)
    >>> round(interval.estimate, 4), round(interval.details["standard_error"], 4), interval.target
    (0.275, 0.0781, 'conditional')
    >>> clt = loss_interval(result, method="cv-clt")
    >>> round(clt.details["standard_error"], 4), clt.target
    (0.0382, 'kfold')

    On a record made with groups, ``"auto"`` takes the groups as the units:

    >>> patients = CVResult(y_true=[0.0] * 8, y_pred=[0.0] * 8, fold=[0, 1] * 4, loss=losses,
    ...                     loss_name="custom", groups=[0, 1, 2, 3] * 2)
    >>> import warnings
    >>> with warnings.catch_warnings():
    ...     warnings.simplefilter("ignore")  # four groups are too few for a trustworthy interval
    ...     grouped, cluster = loss_interval(patients), loss_interval(patients, method="cluster")
    >>> grouped.method, (grouped.low, grouped.high) == (cluster.low, cluster.high)
    ('cluster', True)
    >>> grouped.notes[0]
    "method='auto' chose method='cluster': the record was made with groups (4 of them), and the groups, ..."
    """
    check_cv_result(result)
    rows = list(select_repeats(result, repeat))
    messages = Messages()
    if method == "auto":
        method = _auto_method(result, messages)
    clusters = require_clusters(result, "method='cluster'") if method == "cluster" else None
    if len(rows) > 1:
        messages.warn(pooled_repeats_warning(len(rows)))
    warning = "" if clusters else grouped_record_warning(result, rows, f"method={method!r}",
                                                          None if method == "t" else "method='cluster'")
    if warning:
        messages.warn(warning)
    loss = loss_noun(result.loss_name)
    if method == "half-sample":
        trained = f"the model the learner fits to all n = {result.n_samples} instances of this dataset"
        bias = "; Nedel'ko's err_CV, which this interval follows, includes cross-validation's bias"
    else:
        trained, bias = f"the models the learner fits to {training_size_phrase(result)}", ""
    estimand = (f"expected {loss} on the population of {trained}; given this dataset (Vanwinckelen & "
                f"Blockeel 2015){bias}")
    # A loss that is never negative (all the built-in ones) cannot have a negative mean.
    limits = (0.0, None) if result.loss.min() >= 0 else None
    bound_options = {"limits": limits, "what": f"mean {loss}", "exact_advice": ""}
    details = {}
    if method == "t":
        point = fold_mean_estimate(result.fold_mean_loss[rows], np.ones((len(rows), result.n_splits), dtype=bool),
                                  confidence_level, "t", messages, n_splits=result.n_splits,
                                  what_needs_folds="method='t'", fix="Use method='half-sample'.",
                                  **bound_options)
        averaging, interval_method = "fold", "t"
    elif clusters is not None:
        point = cluster_point(result.loss[rows], clusters, result.fold[rows], confidence_level, messages,
                              **bound_options)
        averaging, interval_method = "dataset", "cluster"
    else:
        losses = result.loss[rows]
        estimate = float(losses.mean())
        if method == "cv-clt":
            if variance == "within-fold":
                check_within_fold(result, rows)
            spread = math.sqrt(np.mean([cv_clt_variance(result.loss[r], result.fold[r], variance) for r in rows]))
            effective = result.n_samples
            messages.note(f"sigma_hat = {spread:.4g}, the {variance} estimate of Bayle et al. (2020, section 3)")
            details = {"variance": variance, "sigma_hat": spread}
        else:
            spread = float(losses.std())  # Nedel'ko's S~: ddof = 0
            effective = result.n_samples / 2 if method == "half-sample" else result.n_samples
            messages.note(f"S~ = {spread:.4g}, the population standard deviation of the per-instance losses "
                          "(Nedel'ko 2021, section 3)")
        bounds = normal_bounds(estimate, spread / math.sqrt(effective), confidence_level, None, messages,
                               **bound_options)
        point = PointEstimate(estimate=estimate, n=result.n_samples, bounds=bounds)
        averaging, interval_method = "dataset", method
    return estimate_interval(point, confidence_level=confidence_level, method=interval_method, averaging=averaging,
                             estimand=estimand, assumptions=_ASSUMPTIONS[method],
                             target=row("loss_interval", method).target, details=details, messages=messages)
