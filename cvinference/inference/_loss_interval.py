"""Nedel'ko's interval for a cross-validated mean loss."""

import math

import numpy as np

from .._utils._params import PROBABILITY, Options, validate_params
from .._utils._warnings import Messages
from ._accuracy_interval import PointEstimate, estimate_interval, fold_mean_estimate, normal_bounds
from ._estimands import training_size_phrase
from ._inputs import check_cv_result
from ._parameters import REPEAT
from ._repeats import pooled_repeats_warning, select_repeats

LOSS_METHODS = ("half-sample", "normal", "fold-t")

_TARGETS = {"half-sample": "conditional", "normal": "kfold", "fold-t": "kfold"}

_ASSUMPTIONS = {
    "half-sample": ("instance independence; Nedel'ko's empirical finding that cross-validation is about as "
                    "precise as a test sample of half the size (a heuristic, not a theorem); normal approximation"),
    "normal": ("instance independence; the n cross-validated losses treated as an independent test sample "
               "(ignores that the folds' models share training data); normal approximation"),
    "fold-t": "instance independence; fold mean losses independent and normally distributed",
}


@validate_params(confidence_level=PROBABILITY, method=Options(*LOSS_METHODS), repeat=REPEAT)
def loss_interval(result, confidence_level=0.95, *, method="half-sample", repeat=None):
    """Confidence interval for a cross-validated mean loss (log loss, Brier, ...).

    Parameters
    ----------
    result : CVResult
        Any cross-validation result; its per-instance ``loss`` is used.
    confidence_level : float, default=0.95
        Strictly between 0 and 1.
    method : {"half-sample", "normal", "fold-t"}, default="half-sample"
        ``"half-sample"``: Nedel'ko's mean loss +- z S~ / sqrt(N / 2).
        ``"normal"``: mean loss +- z S~ / sqrt(N), as if the N losses came
        from an independent test sample (for comparison; too narrow).
        ``"fold-t"``: the mean of the fold mean losses +- t_{k-1} s / sqrt(k).
    repeat : int or None, default=None
        The repeat to use. None uses the only repeat, or pools all repeats
        with an :class:`InferenceWarning` (N still counts each instance once).

    Returns
    -------
    Interval
        Clipped at 0 when no per-instance loss is negative; a loss has no
        upper bound in general.

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
    bias included, so the ``"half-sample"`` interval is about that model;
    ``"normal"`` and ``"fold-t"`` are about the models fitted to (k-1)/k of
    the data, which is what the cross-validation estimate averages. Like
    every interval from one dataset, none includes the variance over
    datasets (Vanwinckelen & Blockeel 2015).

    Examples
    --------
    >>> import numpy as np
    >>> from cvinference import CVResult, loss_interval
    >>> losses = np.array([0.1, 0.3, 0.2, 0.6, 0.1, 0.4, 0.2, 0.3])
    >>> result = CVResult(y_true=[0.0] * 8, y_pred=[0.0] * 8, fold=[0, 1] * 4,
    ...                   loss=losses, loss_name="custom")
    >>> interval = loss_interval(result)
    >>> round(interval.estimate, 4), round(interval.standard_error, 4)
    (0.275, 0.0781)
    """
    check_cv_result(result)
    rows = list(select_repeats(result, repeat))
    messages = Messages()
    if len(rows) > 1:
        messages.warn(pooled_repeats_warning(len(rows)))
    loss = result.loss_name if result.loss_name.endswith("loss") else f"{result.loss_name} loss"
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
    if method == "fold-t":
        point = fold_mean_estimate(result.fold_mean_loss[rows], np.ones((len(rows), result.n_splits), dtype=bool),
                                  confidence_level, "t", messages, n_splits=result.n_splits,
                                  what_needs_folds="method='fold-t'", fix="Use method='half-sample'.",
                                  **bound_options)
        averaging, interval_method = "fold", "t"
    else:
        losses = result.loss[rows]
        estimate = float(losses.mean())
        spread = float(losses.std())  # Nedel'ko's S~: ddof = 0
        effective = result.n_samples / 2 if method == "half-sample" else result.n_samples
        bounds = normal_bounds(estimate, spread / math.sqrt(effective), confidence_level, None, messages,
                               **bound_options)
        point = PointEstimate(estimate=estimate, n=result.n_samples, bounds=bounds)
        messages.note(f"S~ = {spread:.4g}, the population standard deviation of the per-instance losses "
                      "(Nedel'ko 2021, section 3)")
        averaging, interval_method = "dataset", method
    return estimate_interval(point, confidence_level=confidence_level, method=interval_method, averaging=averaging,
                             estimand=estimand, assumptions=_ASSUMPTIONS[method], messages=messages,
                             target=_TARGETS[method])
