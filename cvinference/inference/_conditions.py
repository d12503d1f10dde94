"""Wong's (2015) large-sample conditions for the normal approximations."""

import numpy as np

from .._utils._docstring import fill_doc
from .._utils._params import validate_params
from ._inputs import check_accuracy_result
from ._parameters import MIN_COUNT, REPEAT
from ._repeats import select_repeats
from ._results import LargeSampleConditions


def fold_conditions(result, rows, min_count, subject=""):
    """r_j >= min_count and m_j - r_j >= min_count per fold (whole vector under LOO)."""
    rows = list(rows)
    if result.is_loo:
        correct = np.count_nonzero(result.correct[rows], axis=1)[:, np.newaxis]
        counts = {"r": correct, "n - r": result.n_samples - correct}
        rule = (f"r >= {min_count} and n - r >= {min_count} over all n = {result.n_samples} "
                "instances (Wong 2015, section 5.1)")
        return LargeSampleConditions._from_counts(rule, min_count, counts, repeats=rows, subject=subject,
                                                  units_are_folds=False)
    correct, sizes = result.fold_correct[rows], result.fold_sizes[rows]
    rule = f"r_j >= {min_count} and m_j - r_j >= {min_count} in every fold (Wong 2015, Theorem 1)"
    return LargeSampleConditions._from_counts(rule, min_count, {"r_j": correct, "m_j - r_j": sizes - correct},
                                              repeats=rows, subject=subject)


@validate_params(min_count=MIN_COUNT, repeat=REPEAT)
@fill_doc
def large_sample_conditions(result, min_count=5, *, repeat=None):
    """Check Wong's large-sample conditions fold by fold.

    Each fold's accuracy p_j = r_j / m_j is approximately normal when the fold
    holds at least ``min_count`` correct and ``min_count`` wrong predictions.

    Parameters
    ----------
    result : CVResult
        A classifier's cross-validation result.
    %(min_count)s
    repeat : int or None, default=None
        The repeat to check; None checks every repeat.

    Returns
    -------
    LargeSampleConditions
        ``counts`` holds r_j and m_j - r_j per fold; ``satisfied`` says whether
        every fold meets the conditions and ``failing_folds`` which do not.
        Under leave-one-out the conditions apply to the whole vector (r >= 5
        and n - r >= 5) and ``failing_folds`` is empty.

    Notes
    -----
    Wong (2015), Theorem 1: if r_j >= 5 and m - r_j >= 5 for every fold j, the
    mean accuracy is approximately N(p, p(1 - p)/n). The rule of thumb
    n p >= 5 and n (1 - p) >= 5 for the normal approximation to the binomial
    is his section 2. Under leave-one-out every fold holds one instance, so
    the conditions apply to the n predictions together (section 5.1).

    The conditions concern the normal approximation only: a fold that fails
    them is not wrong, but the intervals and tests that assume normality may
    not have their nominal coverage. ``accuracy_interval(method="auto")`` then
    falls back to the exact Clopper-Pearson interval.

    Examples
    --------
    >>> from cvinference import CVResult, large_sample_conditions
    >>> result = CVResult(y_true=[0] * 40, y_pred=[0] * 26 + [1] * 14,
    ...                   fold=[0] * 20 + [1] * 20)
    >>> result.fold_correct
    array([[20,  6]])
    >>> conditions = large_sample_conditions(result)
    >>> conditions.satisfied, conditions.failing_folds
    (False, (0,))
    >>> print(conditions.summary())
    r_j >= 5 and m_j - r_j >= 5 in every fold (Wong 2015, Theorem 1): fails (folds [0])
    fold  r_j  m_j - r_j  holds
       0   20          0     NO
       1    6         14    yes
    """
    check_accuracy_result(result)
    return fold_conditions(result, select_repeats(result, repeat), min_count)
