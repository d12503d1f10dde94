"""Clusters of instances (patients, subjects, sites): their codes, the ratio estimator and its cluster-robust variance.

The leaf of the clustered methods: ``_clustered`` builds intervals and tests
on plain arrays from it, and the record-level functions (``accuracy_interval``,
``loss_interval``, the paired tests) read a grouped :class:`CVResult` through
:func:`record_clusters` and :func:`pooled_ratio`. The cluster, not the
instance, is the independent unit (Cameron & Miller 2015, section I).
"""

import dataclasses
import math
from typing import NamedTuple

import numpy as np

from .._utils._validation import _missing_mask
from .._utils._warnings import Caution, GroupedInstancesWarning, Messages

FEW_CLUSTERS = 20
"""Fewer clusters than this warn: Cameron & Miller (2015, section VI) put "few" at fewer than 20 to 50 clusters."""

ROBUST_ASSUMPTIONS = ("clusters independent of one another, instances within a cluster arbitrarily correlated; "
                       "many clusters (the t with G - 1 degrees of freedom is a small-sample approximation)")

CLUSTER_INSTEAD = "method='cluster' (which method='auto' chooses for a grouped record)"
"""The cluster-aware alternative an instance-level method names when it warns on a grouped record."""


class Clusters(NamedTuple):
    """Each instance's cluster as a code 0 .. G - 1, and the G cluster sizes m_g."""

    codes: np.ndarray
    sizes: np.ndarray

    @property
    def n_groups(self):
        return self.sizes.size


class RatioEstimate(NamedTuple):
    """The ratio estimate sum_g Y_g / sum_g m_g and its cluster-robust variance (with the G / (G - 1) factor)."""

    estimate: float
    variance: float
    iid_variance: float


# --------------------------------------------------------------------------- inputs


def check_values(values, name, n_samples=None):
    """``values`` as a finite 1-d float array (of ``n_samples`` entries when given)."""
    array = np.asarray(values)
    if array.dtype.kind not in "biuf":
        raise TypeError(f"{name} must hold numbers (per-instance losses or 0/1 correctness); got dtype {array.dtype}.")
    array = array.astype(np.float64)
    if array.ndim != 1 or array.size == 0:
        raise ValueError(f"{name} must be a non-empty 1-d array of per-instance values, one repeat's; got shape "
                         f"{array.shape}. Pass result.loss[r] (or result.correct[r]) of one repeat r.")
    if n_samples is not None and array.size != n_samples:
        raise ValueError(f"{name} has {array.size} entries but the other arrays have {n_samples}; pass one value per "
                         "instance, in the same order.")
    if not np.isfinite(array).all():
        raise ValueError(f"{name} holds NaN or infinite values ({int((~np.isfinite(array)).sum())} of {array.size}); "
                         "every instance needs a finite value.")
    return array


def check_clusters(groups, n_samples):
    """The :class:`Clusters` of ``groups``, one label per instance; refuses missing labels and fewer than 2 groups."""
    labels = np.asarray(groups)
    if labels.ndim != 1 or labels.size != n_samples:
        raise ValueError(f"groups must hold one group label per instance, shape ({n_samples},); got shape "
                         f"{labels.shape}.")
    missing = _missing_mask(labels)
    if missing.any():
        raise ValueError(f"groups holds missing labels (NaN or None) in {int(missing.sum())} of {labels.size} entries "
                         f"(first at index {int(np.flatnonzero(missing)[0])}); give every instance its group.")
    try:
        _, codes = np.unique(labels, return_inverse=True)
    except TypeError:
        raise ValueError("groups mixes label types that cannot be sorted (int and str, say); convert them to one "
                         "type, for example with groups.astype(str).") from None
    sizes = np.bincount(codes)
    if sizes.size < 2:
        raise ValueError(f"groups holds {sizes.size} group; a cluster-robust variance needs at least 2 groups (it "
                         "measures how the groups differ). With one group there is no independent replication: use "
                         "an instance-level method and say that the data come from one cluster.")
    return Clusters(codes=codes.reshape(-1), sizes=sizes)


def check_bounds(bounds):
    if bounds is None:
        return None
    if not isinstance(bounds, (tuple, list)) or len(bounds) != 2 or any(
            bound is not None and (isinstance(bound, bool) or not isinstance(bound, (int, float, np.number))
                                   or math.isnan(bound)) for bound in bounds):
        raise TypeError(f"bounds must be None or a pair (low, high) of numbers or None, such as (0, 1) for an "
                        f"accuracy or (0, None) for a non-negative loss; got bounds={bounds!r}.")
    low, high = (None if bound is None else float(bound) for bound in bounds)
    if low is not None and high is not None and low >= high:
        raise ValueError(f"bounds must have low < high; got bounds={bounds!r}.")
    return low, high


# --------------------------------------------------------------------------- the ratio estimator


def ratio_estimate(values, clusters):
    """Sum_g Y_g / sum_g m_g with Cameron & Miller's CR1 variance G / (G - 1) sum_g (Y_g - ybar m_g)^2 / N^2.

    ``iid_variance`` is the variance the instances would have if
    independent, (1/N) sum_i (y_i - ybar)^2 / N: for 0/1 values the binomial
    p (1 - p) / N.

    Examples
    --------
    >>> import numpy as np
    >>> clusters = check_clusters([0, 0, 1, 1, 1, 2], 6)
    >>> estimate = ratio_estimate(np.array([1.0, 1.0, 0.0, 1.0, 0.0, 1.0]), clusters)
    >>> round(estimate.estimate, 4), round(estimate.variance, 4)
    (0.6667, 0.0648)
    """
    totals = np.bincount(clusters.codes, weights=values, minlength=clusters.n_groups)
    n_samples, n_groups = values.size, clusters.n_groups
    estimate = float(totals.sum() / n_samples)
    residuals = totals - estimate * clusters.sizes
    variance = n_groups / (n_groups - 1) * float(residuals @ residuals) / n_samples**2
    iid_variance = float(np.mean((values - estimate) ** 2)) / n_samples
    return RatioEstimate(estimate, variance, iid_variance)


def intraclass_correlation(values, clusters):
    """The one-way ANOVA estimator of the intra-cluster correlation (nan when it is undefined).

    rho = (MSB - MSW) / (MSB + (m0 - 1) MSW), m0 = (N - sum_g m_g^2 / N) / (G - 1).

    Examples
    --------
    >>> import numpy as np
    >>> values = np.array([1.0, 1.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0])
    >>> round(intraclass_correlation(values, check_clusters([0, 0, 0, 1, 1, 1, 2, 2], 8)), 4)
    0.7123
    """
    n_samples, n_groups, sizes = values.size, clusters.n_groups, clusters.sizes
    if n_samples == n_groups:
        return math.nan
    means = np.bincount(clusters.codes, weights=values) / sizes
    between = float(sizes @ (means - values.mean()) ** 2) / (n_groups - 1)
    within = float(np.sum((values - means[clusters.codes]) ** 2)) / (n_samples - n_groups)
    m0 = (n_samples - float(sizes @ sizes) / n_samples) / (n_groups - 1)
    denominator = between + (m0 - 1) * within
    return (between - within) / denominator if denominator > 0 else math.nan


def groups_within_folds(clusters, fold):
    """Whether every group lies in one test fold; None when ``fold`` is None."""
    if fold is None:
        return None
    fold = np.asarray(fold)
    if fold.shape != clusters.codes.shape or fold.dtype.kind not in "iu":
        raise ValueError(f"fold must hold each instance's test fold (integers), shape {clusters.codes.shape}; got "
                         f"shape {fold.shape} and dtype {fold.dtype}. Pass result.fold[r] of the same repeat r.")
    pairs = np.unique(np.column_stack([clusters.codes, fold]), axis=0)
    return bool(pairs.shape[0] == clusters.n_groups)


def telling_fold(clusters, folds_by_repeat):
    """The first repeat's folds that split a group, else the first repeat's; None when ``folds_by_repeat`` is None.

    What :func:`cluster_checks` should look at, so that it warns when any repeat splits a group.
    """
    if folds_by_repeat is None:
        return None
    within = [groups_within_folds(clusters, fold) for fold in folds_by_repeat]
    return folds_by_repeat[within.index(False) if not all(within) else 0]


def cluster_variance(values, codes):
    """The CR1 variance of the mean of ``values``, clustered by the integer ``codes`` (any G >= 2 distinct ones).

    :func:`ratio_estimate`'s variance, G / (G - 1) sum_g (Y_g - ybar m_g)^2 / N^2
    (Cameron & Miller 2015, section II.C), for a subset of the instances
    whose codes need not run from 0.

    Examples
    --------
    >>> import numpy as np
    >>> round(cluster_variance(np.array([1.0, 1.0, 0.0, 1.0, 0.0, 1.0]), np.array([4, 4, 7, 7, 7, 9])), 4)
    0.0648
    """
    _, local = np.unique(codes, return_inverse=True)
    local = local.reshape(-1)
    return ratio_estimate(values, Clusters(codes=local, sizes=np.bincount(local))).variance


def cluster_checks(clusters, fold, messages, method):
    """The warnings every clustered method shares (few clusters, groups split by the folds); their details."""
    n_groups = clusters.n_groups
    if n_groups < FEW_CLUSTERS:
        messages.warn(
            f"Only {n_groups} groups: the {method} rests on the number of groups, not of instances, and with fewer "
            f"than {FEW_CLUSTERS} (Cameron & Miller 2015, section VI: 'few' is fewer than 20 to 50, more when the "
            "groups differ much in size) its coverage can fall short of the confidence level.")
    details = {"n_groups": n_groups, "min_group_size": int(clusters.sizes.min()),
               "max_group_size": int(clusters.sizes.max())}
    within = groups_within_folds(clusters, fold)
    if within is not None:
        details["groups_within_folds"] = within
        if not within:
            messages.warn(
                "The folds split some groups: instances of one group were tested by models trained on other "
                "instances of the same group, so the cross-validated values are optimistic for new groups and the "
                "interval does not correct that. Cross-validate with a group-respecting splitter (sklearn's "
                "GroupKFold, say) and the same groups.")
    return details


def size_range(clusters):
    smallest, largest = int(clusters.sizes.min()), int(clusters.sizes.max())
    return str(smallest) if smallest == largest else f"{smallest} to {largest}"


# --------------------------------------------------------------------------- grouped records


def record_clusters(result):
    """The :class:`Clusters` of a record made with groups; None for a record without them."""
    if result.groups is None:
        return None
    return check_clusters(result.groups, result.n_samples)


def require_clusters(result, asked):
    """The :class:`Clusters` of ``result``, or a ValueError that says how to make a grouped record."""
    clusters = record_clusters(result)
    if clusters is None:
        raise ValueError(
            f"{asked} treats the groups (patients, subjects, sites) as the independent units, but the result was "
            "made without groups. Pass groups= to cross_val_correctness (or to CVEvaluator.evaluate/compare), "
            "with a group-respecting splitter such as GroupKFold or StratifiedEqualSizeGroupKFold.")
    return clusters


def folds_split_groups(result, rows):
    """Whether a test fold of any of the repeats ``rows`` holds part of a group (False without groups)."""
    clusters = record_clusters(result)
    return clusters is not None and not all(groups_within_folds(clusters, result.fold[r]) for r in rows)


def groups_warning(result, what, instead):
    """The warning for an instance-level method on a grouped record, naming ``instead``; "" without groups.

    ``what`` is the method as the sentence's subject ("the normal interval").
    """
    if result.groups is None:
        return ""
    counts = f"{result.n_samples} instances in {result.n_groups} groups"
    return Caution(f"The result was made with groups ({counts}): {what} counts every instance as independent, but "
                   "instances of one group are alike, so it is too narrow (or its p-value too small) when they are "
                   f"(Cameron & Miller 2015, section I). {instead} takes the group as the independent unit.",
                   GroupedInstancesWarning.code, counts=counts, what=what)


def split_groups_warning(result, rows, what):
    """The warning for a fold-level method whose folds split groups, so the folds are not independent; ""."""
    if not folds_split_groups(result, rows):
        return ""
    return (f"The folds split some of the result's groups, so {what} sees instances of one group in several "
            "folds (the folds' values are then correlated) and tests instances with models trained on their own "
            "group (optimistic for new groups). Cross-validate with a group-respecting splitter "
            "(StratifiedEqualSizeGroupKFold, GroupKFold) and the same groups.")


def _mean_defined(values):
    """The mean of the values that are not nan; nan when none is."""
    defined = [v for v in values if not math.isnan(v)]
    return float(np.mean(defined)) if defined else math.nan


def grouped_record_warning(record, rows, what, instead=None):
    """The warning a method owes a grouped record, "" when it owes none.

    An instance-level method (``instead`` names the cluster-aware one) always
    warns on a grouped record; a fold-level one (``instead`` None) only when
    the folds of ``rows`` split groups.
    """
    return groups_warning(record, what, instead) if instead else split_groups_warning(record, rows, what)


def with_grouped_warning(outcome, record, rows, what, instead=None):
    """``outcome`` (an interval or test result) with :func:`grouped_record_warning` issued and kept in it."""
    text = grouped_record_warning(record, rows, what, instead)
    if not text:
        return outcome
    Messages().warn(text)
    return dataclasses.replace(outcome, warnings=(*outcome.warnings, text))


class PooledRatio(NamedTuple):
    """Over a record's repeats: the mean estimate, the mean CR1 variance, and the design figures."""

    estimate: float
    variance: float
    details: dict


def pooled_ratio(values_by_repeat, clusters, folds_by_repeat, messages, method):
    """The ratio estimator of each repeat's values, averaged: estimate and CR1 variance (see ``accuracy_interval``).

    ``values_by_repeat`` and ``folds_by_repeat`` are (n_repeats, n_samples);
    ``folds_by_repeat`` may be None (no check that the folds keep groups whole).
    The variance is the mean of the per-repeat variances, which bounds the
    variance of the repeats' mean whatever their correlation
    (Cauchy-Schwarz, as for Wong's pooled repeats). The details are those of
    design figures (design effect, effective n, intra-cluster correlation) of the mean variance.
    """
    ratios = [ratio_estimate(values, clusters) for values in values_by_repeat]
    details = cluster_checks(clusters, telling_fold(clusters, folds_by_repeat), messages, method)
    variance = float(np.mean([r.variance for r in ratios]))
    iid_variance = float(np.mean([r.iid_variance for r in ratios]))
    design_effect = variance / iid_variance if iid_variance > 0 else math.nan
    details.update({"design_effect": design_effect,
                    "effective_n": values_by_repeat.shape[1] / design_effect if design_effect > 0 else math.nan,
                    "intraclass_correlation": _mean_defined([intraclass_correlation(v, clusters)
                                                             for v in values_by_repeat]),
                    "iid_standard_error": math.sqrt(iid_variance),
                    "small_sample_factor": clusters.n_groups / (clusters.n_groups - 1)})
    if math.isfinite(design_effect):
        messages.note(f"{clusters.n_groups} groups of {size_range(clusters)} instances: the design effect "
                      f"{design_effect:.3g} makes the standard error {math.sqrt(design_effect):.3g} times the one "
                      f"that counts the {values_by_repeat.shape[1]} instances as independent")
    return PooledRatio(float(np.mean([r.estimate for r in ratios])), variance, details)
