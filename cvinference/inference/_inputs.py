"""The records an inference function accepts, and why it refuses the others."""

from ..records import CVResult, SubsamplingResult


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


def check_accuracy_result(result, name="result"):
    """Refuse anything but a CVResult of a classifier (one with correctness)."""
    check_cv_result(result, name)
    if result.classes is None:
        raise ValueError(
            f"{name} holds a regression loss ({result.loss_name!r}) and has no correctness "
            "to infer accuracy from. Accuracy intervals and tests need a classifier's result."
        )
    return result
