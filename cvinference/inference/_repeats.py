"""Which repeats a statistic uses, and how it combines them (Wong 2015, section 4.3.4)."""

import math

import numpy as np

from .._utils._params import Integer
from .._utils._warnings import Caution, PooledRepeatsWarning


def select_repeats(result, repeat, name="result"):
    """The rows (repeats) of ``result`` to use: ``repeat``, or all when None."""
    if repeat is None:
        return tuple(range(result.n_repeats))
    repeat = Integer(minimum=0).check("repeat", repeat)
    if repeat >= result.n_repeats:
        raise ValueError(
            f"repeat must be one of 0 .. {result.n_repeats - 1} ({name} has n_repeats="
            f"{result.n_repeats}), or None to pool them; got repeat={repeat}."
        )
    return (repeat,)


def rows_of(array, rows):
    """``array[list(rows)]``, as a view when ``rows`` are consecutive (all repeats, or one)."""
    rows = tuple(rows)
    if rows == tuple(range(rows[0], rows[-1] + 1)):
        return array[rows[0]:rows[-1] + 1]
    return array[list(rows)]


def n_correct(result, rows):
    """Correct predictions in the given repeats, from the per-fold counts (no pass over the instances)."""
    return int(rows_of(result.fold_correct, rows).sum())


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
        per_repeat = [row[mask].var(ddof=1) for row, mask in zip(values, keep, strict=True) if mask.sum() >= 2]
    return float(np.mean(per_repeat)) if len(per_repeat) else math.nan


def pooled_repeats_warning(n_repeats, n_choosable=None):
    """The warning (a :class:`Caution` coded "pooled-repeats", its ``hint`` the sentence naming ``repeat=``) of a
    result that pools ``n_repeats`` repeats."""
    n_choosable = n_repeats if n_choosable is None else n_choosable
    choice = "repeat=0" if n_choosable == 1 else f"repeat=0 .. {n_choosable - 1}"
    hint = f"Pass {choice} to use one repeat."
    return Caution(
        f"{n_repeats} repeats of cross-validation are pooled. They reuse the same instances and are "
        "not independent (Wong 2015, section 4.3.4; Vanwinckelen & Blockeel 2015): the estimate "
        "averages the repeats, but the interval is one repeat's at that average: it counts the n "
        f"instances and the k folds once, so repeating does not narrow it. {hint}",
        PooledRepeatsWarning.code, hint=hint)
