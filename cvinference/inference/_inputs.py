"""The records an inference function accepts, and why it refuses the others."""

import functools

import numpy as np

from ..records import CVResult, PairedCVResult, SubsamplingResult
from ..records._subject import attach_subject, records_subject
from ._estimands import for_the_model


def check_cv_result(result, name="result"):
    """Refuse anything but a CVResult (of any loss), explaining why a subsampling result is refused."""
    if isinstance(result, SubsamplingResult):
        raise TypeError(
            f"{name} is a SubsamplingResult of random subsampling, whose rounds' test sets overlap: the "
            "round accuracies are not independent, so a standard deviation, interval or t-test across "
            "rounds is wrong (Kohavi 1995, \"Random Subsampling\"; his summary: \"Standard deviations can be "
            "computed for cross-validation, but are incorrect for random subsampling\"). Compare two learners "
            "with corrected_resampled_ttest(a, b) (Nadeau & Bengio 2003) or bayesian_correlated_ttest(a, b) "
            "on random_subsampling results made with the same data and int random_state; for one "
            "learner's interval use holdout() with accuracy_interval."
        )
    if not isinstance(result, CVResult):
        raise TypeError(
            f"{name} must be a CVResult, as returned by cross_val_correctness or "
            f"CVEvaluator.evaluate; got {name} of type {type(result).__name__}."
        )
    return result


def check_record(result, record_class, made_by, convenience):
    """Refuse anything but a ``record_class`` (the record of a refitting scheme), saying how to make one."""
    if not isinstance(result, record_class):
        raise TypeError(
            f"result must be a {record_class.__name__}, as made by {made_by}; got result of type "
            f"{type(result).__name__}. For a learner and data, call {convenience}(estimator, X, y, ...), "
            "which fits the record and calls this function."
        )
    return result


def check_accuracy_result(result, name="result"):
    """Refuse anything but a CVResult of a classifier (one with correctness)."""
    check_cv_result(result, name)
    if result.classes is None:
        raise ValueError(
            f"{name} holds a regression loss ({result.loss_name!r}) and has no correctness "
            "to infer accuracy from. Accuracy intervals and tests need a classifier's result. For a regressor: "
            "regression_interval(result, 'r2') or loss_interval(result, method='cv-clt') for one learner; "
            "corrected_resampled_ttest(pair) (fold mean losses) or loss_difference_test(pair) (per-instance "
            "loss differences) to compare two, or nested_cv_interval(estimator, X, y, estimator_b=..., "
            "loss='squared_error')."
        )
    return result


def two_results(a, b, function):
    """The two results a pair test compares: ``a`` and ``b``, or the ``a`` and ``b`` of the PairedCVResult ``a``.

    As ``scipy.stats.linregress(x, y=None)`` takes ``x`` alone when it holds
    both variables, a pair test takes a :class:`PairedCVResult` alone.

    Examples
    --------
    >>> from cvinference import CVResult, PairedCVResult
    >>> a = CVResult(y_true=[0, 1, 0, 1], y_pred=[0, 1, 1, 1], fold=[0, 0, 1, 1])
    >>> two_results(PairedCVResult(a, a), None, "mcnemar_test") == (a, a)
    True
    >>> two_results(a, None, "mcnemar_test")
    Traceback (most recent call last):
    ...
    TypeError: mcnemar_test() compares two results: ... as mcnemar_test(pair), or ... as mcnemar_test(a, b); got ...
    """
    if isinstance(a, PairedCVResult):
        if b is not None:
            raise TypeError(
                f"{function}() takes a PairedCVResult or two results, not both: a is a PairedCVResult, so b must "
                f"be left out; got b of type {type(b).__name__}. Call {function}(pair), or "
                f"{function}(pair.a, b) to compare pair.a with b."
            )
        return a.a, a.b
    if b is None:
        raise TypeError(
            f"{function}() compares two results: pass a PairedCVResult, as {function}(pair), or two results, as "
            f"{function}(a, b); got a of type {type(a).__name__} and no b."
        )
    return a, b


def about_two_learners(function):
    """Decorate a test of two learners' records ``function(a, b=None, ...)``: its result carries the subject of
    the records it was computed from (their rows, learners, folds and predictions, as
    :func:`~cvinference.records._subject.records_subject` digests them), so that ``decide`` can check a test it is
    handed against its pair."""

    @functools.wraps(function)
    def computed(a, b=None, *args, **kwargs):
        result = function(a, b, *args, **kwargs)
        first, second = two_results(a, b, function.__name__)
        return attach_subject(for_the_model(result, first, second), records_subject(first, second))

    return computed


def about_one_record(function):
    """Decorate an interval or test of one record ``function(result, ...)``: on one evaluation set its target is
    the model as given (:func:`~cvinference.inference._estimands.for_the_model`)."""

    @functools.wraps(function)
    def computed(result, *args, **kwargs):
        return for_the_model(function(result, *args, **kwargs), result)

    return computed


def check_paired(a, b, test):
    """Refuse ``a`` and ``b`` that are not on the same instances, naming ``test``."""
    if a.n_samples != b.n_samples:
        raise ValueError(
            f"{test} pairs the predictions of A and B on the same instances, but a has "
            f"n_samples={a.n_samples} and b has n_samples={b.n_samples}. Use "
            "independent_sample_test for results on different data."
        )
    if not np.array_equal(a.y_true, b.y_true):
        raise ValueError(
            f"{test} pairs the predictions of A and B on the same instances, but a and b have "
            "different y_true. Evaluate both on the same data, e.g. with CVEvaluator.compare."
        )
