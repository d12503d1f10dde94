"""What ``decide`` (and a comparison's report and plot) is given besides the records, checked against what it
claims to be: ``tests`` as (name, test) pairs, ``nested`` as nested cross-validation's difference interval on the
pair's instances, and neither passed for a metric that does not read them."""

import math
import warnings
from collections.abc import Iterable

from .._utils._warnings import InferenceWarning, first_caller_outside_package
from ..inference import Interval, TestResult
from ..inference._methods import method_row, row_of
from ..inference._nested_cv import _loss_phrase as loss_phrase
from ..inference._nested_cv import is_difference_interval
from ..records import PairedCVResult, PairedForwardResult
from ..records._subject import SUBJECT_PARTS, records_subject, subject_mismatch, subject_of

_OWN_DATA = ("rows", "learners")
"""What a result of its own fits (5x2cv, nested cross-validation) shares with the pair: its rows and learners."""

_NESTED_FIX = ("nested_cv_interval(estimator_a, X, y, estimator_b=estimator_b) on the same data, with A and B in the "
               "pair's order, or None")


def checked_tests(tests, pair=None):
    """``tests`` as a list of (name, :class:`TestResult`) pairs (None stays None); a TypeError naming the entry
    that is not one, and with ``pair`` a ValueError naming one computed on other rows, learners, folds or
    predictions than the pair's (see :func:`check_subject`).

    Examples
    --------
    >>> checked_tests([("x", 5)])
    Traceback (most recent call last):
    ...
    TypeError: tests[0] must be a (name, TestResult) pair such as ("5x2cv t", paired_ttest_5x2cv(...)); got \
('x', 5).
    """
    if tests is None:
        return None
    if isinstance(tests, (str, bytes)) or not isinstance(tests, Iterable):
        raise TypeError(f"tests must be a list of (name, TestResult) pairs such as [(\"5x2cv t\", "
                        f"paired_ttest_5x2cv(...))], or None; got tests={tests!r:.80}.")
    found = list(tests)
    for index, entry in enumerate(found):
        if not (isinstance(entry, (tuple, list)) and len(entry) == 2 and isinstance(entry[0], str)
                and isinstance(entry[1], TestResult)):
            raise TypeError(f"tests[{index}] must be a (name, TestResult) pair such as (\"5x2cv t\", "
                            f"paired_ttest_5x2cv(...)); got {entry!r:.80}.")
    found = [tuple(entry) for entry in found]
    if pair is not None:
        for index, (name, test) in enumerate(found):
            row = row_of(test)
            own = row is not None and row.record != "PairedCVResult"
            check_subject(test, pair, f"tests[{index}] ({name!r})", _OWN_DATA if own else tuple(SUBJECT_PARTS),
                          "tests computed from this pair (tests=None computes them), or paired_ttest_5x2cv("
                          "estimator_a, estimator_b, X, y) of the pair's learners, in its order, on its data")
    return found


def check_subject(result, pair, named, parts, fix):
    """Refuse a result whose subject (:mod:`cvinference.records._subject`) differs from ``pair``'s in one of
    ``parts``, naming it as ``named`` and saying what to pass (``fix``); warn where it carries none."""
    given = subject_of(result)
    if given is None:
        warnings.warn(f"{named} carries no record of the data, learners and folds it was computed on (made by hand, "
                      "or read back from JSON), so it cannot be checked to be about this pair; pass " + fix + ".",
                      InferenceWarning, stacklevel=first_caller_outside_package())
        return
    differs = subject_mismatch(given, records_subject(pair.a, pair.b), parts)
    if differs is not None:
        raise ValueError(f"{named} was not computed on this pair: {differs} differ from the pair's. Pass {fix}.")


def check_nested(nested, pair):
    """Refuse a ``nested`` that is not nested cross-validation's difference interval of two learners on the pair's
    instances: another type (TypeError), one learner's interval or a test, or an interval of another number of
    instances (ValueError)."""
    if nested is None:
        return
    if isinstance(nested, TestResult) or not isinstance(nested, Interval):
        raise TypeError(f"nested must be nested cross-validation's difference interval, {_NESTED_FIX}; got "
                        f"{type(nested).__name__} {nested!r:.60}.")
    if row_of(nested) is not method_row("nested-cv") or not is_difference_interval(nested):
        raise ValueError(f"nested must be nested cross-validation's difference interval of the two learners "
                         f"(method 'nested-cv', of A and B), {_NESTED_FIX}; got an interval of "
                         f"method {nested.method!r} about {str(nested.estimand)[:50]!r}... with details "
                         f"n_learners={dict(nested.details).get('n_learners')!r}, which is not a difference of A "
                         "and B (n_learners=2).")
    _check_nested_loss(nested, pair)
    n = dict(nested.details).get("n")
    if n is not None and n != pair.a.n_samples:
        raise ValueError(f"nested was computed on {n} instances and the pair's records hold {pair.a.n_samples}: "
                         f"it is not about these records; pass {_NESTED_FIX}.")
    check_subject(nested, pair, "nested", _OWN_DATA, _NESTED_FIX)


def _check_nested_loss(nested, pair):
    """Refuse a nested interval of another loss than the decision's: the zero-one loss for classifiers (accuracy),
    the records' loss for regressors. An interval read from a payload written before it kept ``loss_name`` in its
    details is not checked."""
    loss = "zero_one" if pair.a.classes is not None else pair.a.loss_name
    given = dict(nested.details).get("loss_name")
    if given is not None and given != loss:
        raise ValueError(f"nested is an interval of the difference in mean {loss_phrase(given)}, and the pair's "
                         f"decision is about its mean {loss_phrase(loss)} (loss_name={pair.a.loss_name!r}): pass "
                         f"nested_cv_interval(estimator_a, X, y, estimator_b=estimator_b, loss={loss!r}) on the same "
                         "data, or None.")


def check_pos_label(pos_label, pair):
    """Refuse a ``pos_label`` given with two regressors' records (forward validation's included), whose target is a
    quantity with no positive class, as :func:`~cvinference.metric_interval` and the front door refuse it."""
    if pos_label is None:
        return
    forward = isinstance(pair, PairedForwardResult)
    if forward or (isinstance(pair, PairedCVResult) and pair.a.classes is None):
        raise ValueError(f"pos_label={pos_label!r} names a positive class, and pair holds two regressors' "
                         f"{'forecasts' if forward else 'records'}, whose target is a quantity with none; drop "
                         "pos_label.")


def unused_inputs_warning(metric, tests, nested):
    """The warning that ``tests`` and ``nested``, which are about accuracy (per-instance losses), are not read by
    a decision about another metric ("" when none was passed, or the metric is accuracy)."""
    passed = [name for name, value in (("tests", tests), ("nested", nested)) if value is not None]
    if metric == "accuracy" or not passed:
        return ""
    return (f"{' and '.join(passed)} {'are' if len(passed) > 1 else 'is'} about accuracy (per-instance losses) and "
            f"the decision on metric={metric!r} does not read {'them' if len(passed) > 1 else 'it'}: it rests on the "
            "corrected t of that metric's fold values. Drop them, or decide on metric='accuracy'.")



class EstimateWithin:
    """The cross-field rule of a test the decision weighs: its ``estimate`` lies in [``low``, ``high``] (to
    round-off), where all three are numbers; a NaN (nothing estimated) and an infinite bound (a one-sided interval)
    stay allowed. An interval not centred at its estimate may leave it by less than half its width: Agresti &
    Min's (2005) interval for McNemar's difference is centred at (b - c) / (n + 2), which at a low confidence
    level and nearly every discordant pair one way lies beside (b - c) / n (b = 99, c = 0, n = 100 at 50%:
    0.99 beside [0.9575, 0.9837]).

    Examples
    --------
    >>> EstimateWithin()("DecisionTest", {"estimate": 0.5, "low": -0.1, "high": 0.2})
    Traceback (most recent call last):
    ...
    ValueError: DecisionTest.estimate must lie in its interval [low, high]; got estimate=0.5 outside low=-0.1, \
high=0.2. ...
    >>> EstimateWithin()("DecisionTest", {"estimate": 0.5, "low": float("-inf"), "high": float("nan")})
    """

    def __call__(self, owner, values):
        estimate, low, high = (values[name] for name in ("estimate", "low", "high"))
        if any(value is None or math.isnan(value) for value in (estimate, low, high)):
            return
        slack = 1e-9 * max(1.0, *(abs(value) for value in (estimate, low, high) if math.isfinite(value)))
        if low <= high and math.isfinite(high - low):
            slack += (high - low) / 2
        if low - slack <= estimate <= high + slack:
            return
        raise ValueError(f"{owner}.estimate must lie in its interval [low, high]; got estimate={estimate!r} outside "
                         f"low={low!r}, high={high!r}. Pass the test's estimate with its own interval (or the "
                         "output of to_dict() unchanged).")
