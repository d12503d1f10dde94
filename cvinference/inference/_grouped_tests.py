"""Tests of two learners on a grouped record: the groups, not the instances, are the independent units.

:func:`~cvinference.mcnemar_test` computes the McNemar-type ones (``method="mcnemar-obuchowski"``
or ``"mcnemar-durkalski"``) and :func:`~cvinference.matched_sample_test` the cluster-robust paired t
(``method="cluster-paired-t"``) with the functions here; their docstrings give the formulas and sources.
"""

import dataclasses

import numpy as np

from .._utils._warnings import Messages
from ._clustered import clustered_mcnemar_of, paired_difference_result
from ._clusters import require_clusters
from ._estimands import difference_estimand
from ._inputs import check_accuracy_result, check_cv_result, check_paired, two_results
from ._repeats import pooled_repeats_warning, select_repeats

CLUSTER_PAIRED_CALL = "matched_sample_test(a, b, method='cluster-paired-t')"
"""The call an instance-level test of two learners names for a grouped record (the groups as the units)."""


def _grouped_pair(a, b, function, asked, check=check_cv_result):
    """``a`` and ``b`` of one grouped pair: the same instances, the same groups, and the groups' Clusters.

    ``function`` is the name of the function called, ``asked`` the call as errors name it
    (``"mcnemar_test(method='mcnemar-obuchowski')"``)."""
    a, b = two_results(a, b, function)
    check(a, "a")
    check(b, "b")
    check_paired(a, b, function)
    clusters = require_clusters(a, asked)
    if b.groups is None or not np.array_equal(a.groups, b.groups):
        raise ValueError(f"{asked} needs a and b made with the same groups; b has "
                         f"{'none' if b.groups is None else 'other groups'}. Evaluate both with the same groups= "
                         "(CVEvaluator.compare(..., groups=groups) does).")
    return a, b, clusters


def clustered_mcnemar(a, b, *, method, alternative, repeat, function, asked):
    """Obuchowski's or Durkalski's McNemar-type test of a grouped pair (``mcnemar_test``'s Notes); ``function``
    and ``asked`` name the call in errors (:func:`_grouped_pair`)."""
    a, b, _ = _grouped_pair(a, b, function, asked, check_accuracy_result)
    if repeat is None and max(a.n_repeats, b.n_repeats) > 1:
        raise ValueError(
            f"{asked} counts instances in each group, and pooling repeats would count each one several times; a "
            f"has n_repeats={a.n_repeats} and b has n_repeats={b.n_repeats}. Pass repeat=0 (or another repeat), or "
            "use matched_sample_test(a, b, method='cluster-paired-t'), which averages the repeats.")
    (row_a,), (row_b,) = select_repeats(a, repeat, "a"), select_repeats(b, repeat, "b")
    test = clustered_mcnemar_of(a.correct[row_a], b.correct[row_b], a.groups, method=method,
                                alternative=alternative, fold=a.fold[row_a])
    weighing = "; the groups weigh equally (the mean of their differences)" if method == "mcnemar-durkalski" else ""
    return dataclasses.replace(test, estimand=difference_estimand(a, b) + "; groups, not instances, independent"
                               + weighing)


def cluster_paired(a, b, *, alternative, repeat, function, asked):
    """The cluster-robust paired t of two learners' mean losses on a grouped pair (``matched_sample_test``'s
    Notes); ``function`` and ``asked`` name the call in errors (:func:`_grouped_pair`)."""
    a, b, clusters = _grouped_pair(a, b, function, asked)
    if a.loss_name != b.loss_name:
        raise ValueError(f"{asked} compares one loss; a has loss {a.loss_name!r} and b {b.loss_name!r}. Evaluate "
                         "both with the same loss=.")
    rows = list(select_repeats(a, repeat, "a"))
    select_repeats(b, repeat, "b")
    if a.n_repeats != b.n_repeats and repeat is None:
        raise ValueError(f"a has n_repeats={a.n_repeats} and b has n_repeats={b.n_repeats}; pass repeat= to test "
                         "one repeat of each, or evaluate both with the same repeats.")
    messages = Messages()
    if len(rows) > 1:
        messages.warn(pooled_repeats_warning(len(rows)))
    estimand = (difference_estimand(a, b) + "; groups, not instances, independent") if a.loss_name == "zero_one" \
        else None
    return paired_difference_result(a.loss[rows], b.loss[rows], clusters, a.fold[rows], alternative, messages,
                                    estimand=estimand, zero_one=a.loss_name == "zero_one")
