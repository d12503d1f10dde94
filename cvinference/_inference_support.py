"""What every inference function needs: checked inputs, chosen repeats, messages."""

import math
import os
import sys
import warnings
import weakref

import numpy as np

from ._stat_results import InferenceWarning
from ._validation import check_int


CONDITIONS_FAIL = "The large-sample conditions fail"
AUTO_NOTE = "method='auto' chose"


def check_cv_result(result, name="result"):
    """Refuse anything but a CVResult (of any loss), explaining why a subsampling result is refused."""
    from ._resampling import SubsamplingResult
    from ._results import CVResult

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


def check_min_count(min_count):
    return check_int(min_count, "min_count", minimum=1)


def select_repeats(result, repeat, name="result"):
    """The rows (repeats) of ``result`` to use: ``repeat``, or all when None."""
    if repeat is None:
        return tuple(range(result.n_repeats))
    repeat = check_int(repeat, "repeat", minimum=0)
    if repeat >= result.n_repeats:
        raise ValueError(
            f"repeat must be one of 0 .. {result.n_repeats - 1} ({name} has n_repeats="
            f"{result.n_repeats}), or None to pool them; got repeat={repeat}."
        )
    return (repeat,)


def in_rows(array, rows):
    """``array[list(rows)]``, as a view when ``rows`` are consecutive (all repeats, or one)."""
    rows = tuple(rows)
    if rows == tuple(range(rows[0], rows[-1] + 1)):
        return array[rows[0]:rows[-1] + 1]
    return array[list(rows)]


def n_correct(result, rows):
    """Correct predictions in the given repeats, from the per-fold counts (no pass over the instances)."""
    return int(in_rows(result.fold_correct, rows).sum())


_KEPT_FOR_PAIRS = weakref.WeakKeyDictionary()


def kept_for_pair(a, b, key, compute):
    """``compute()``, computed once per pair of results and ``key``.

    Results are immutable, so a kept value never goes stale. It is kept
    outside the results (which stay picklable) and only as long as both live.
    """
    kept_for_a = _KEPT_FOR_PAIRS.get(a)
    if kept_for_a is None:
        kept_for_a = _KEPT_FOR_PAIRS.setdefault(a, weakref.WeakKeyDictionary())
    values = kept_for_a.setdefault(b, {})
    if key not in values:
        values[key] = compute()
    return values[key]


def within_repeat_variance(values, keep=None):
    """Sample variance of the values of each repeat (row), averaged over repeats.

    With one repeat this is the usual sample variance (ddof=1). Pooled
    repeats are not independent, so their values are never treated as one
    larger sample: each repeat's variance estimates the same per-fold
    variance, and their mean is used.
    """
    values = np.asarray(values, dtype=np.float64)
    if keep is None or keep.all():
        per_repeat = values.var(axis=1, ddof=1) if values.shape[1] >= 2 else []
    else:
        per_repeat = [row[mask].var(ddof=1) for row, mask in zip(values, keep) if mask.sum() >= 2]
    return float(np.mean(per_repeat)) if len(per_repeat) else math.nan


def pooled_repeats_warning(n_repeats, n_choosable=None):
    n_choosable = n_repeats if n_choosable is None else n_choosable
    choice = "repeat=0" if n_choosable == 1 else f"repeat=0 .. {n_choosable - 1}"
    return (
        f"{n_repeats} repeats of cross-validation are pooled. They reuse the same instances and are "
        "not independent (Wong 2015, section 4.3.4; Vanwinckelen & Blockeel 2015): the estimate "
        "averages the repeats, but the standard error counts the n instances and the k folds once, "
        f"so repeating does not narrow the interval. Pass {choice} to use one repeat."
    )


def training_size_phrase(result):
    """What each fold's model was trained on, in words."""
    if result.n_train is not None:
        return f"{result.n_train} instances of this dataset"
    if result.is_loo:
        return f"n - 1 = {result.n_samples - 1} instances of this dataset"
    k = result.n_splits
    return f"{k - 1}/{k} of this dataset (about {round(result.n_samples * (k - 1) / k)} instances)"


_GIVEN_THIS_DATASET = "given this dataset, not averaged over other datasets of its size (Vanwinckelen & Blockeel 2015)"


def accuracy_estimand(result):
    return (
        f"accuracy on the population of the models the learner fits to {training_size_phrase(result)}; "
        f"{_GIVEN_THIS_DATASET}"
    )


def difference_estimand(a, b):
    trained_a, trained_b = training_size_phrase(a), training_size_phrase(b)
    if trained_a == trained_b:
        trained = f"fitted to {trained_a}"
    else:
        trained = f"A's fitted to {trained_a}, B's to {trained_b}"
    return (
        f"difference in accuracy on the population (A minus B) of the two learners' models ({trained}); "
        f"{_GIVEN_THIS_DATASET}"
    )


_PACKAGE_DIR = os.path.dirname(os.path.abspath(__file__))


def _first_caller_outside_package():
    """The ``stacklevel`` that makes a warning point at the user's line."""
    frame, level = sys._getframe(1), 1
    while frame is not None and os.path.abspath(frame.f_code.co_filename).startswith(_PACKAGE_DIR + os.sep):
        frame, level = frame.f_back, level + 1
    return level


class Messages:
    """Notes and warnings collected while a result is computed.

    Warnings are issued at once as :class:`InferenceWarning` and kept, so the
    result can carry them.
    """

    def __init__(self):
        self.notes = []
        self.warnings = []

    def note(self, text):
        self.notes.append(text)

    def warn(self, text):
        self.warnings.append(text)
        warnings.warn(text, InferenceWarning, stacklevel=_first_caller_outside_package())

    def as_fields(self):
        return {"notes": tuple(self.notes), "warnings": tuple(self.warnings)}
