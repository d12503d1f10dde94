"""Issue 44: ``loss_interval(method="auto")``, the default, takes the groups as the units on a grouped record.

Before, ``loss_interval`` alone defaulted to ``"half-sample"``, so on a record made with groups it returned
the instance-level interval (with a warning that the instances are not the units). ``"auto"`` computes
what the old default computed on an ungrouped record, and ``"cluster"`` on a grouped one; either way its
notes say the method was chosen for the user.
"""

import warnings

import numpy as np
import pytest

import cvinference as cvi

AUTO_NOTE = "method='auto' chose"


def _record(groups=None):
    rng = np.random.RandomState(0)
    n = 120
    losses = rng.exponential(0.4, n) + (0.0 if groups is None else 2.0 * rng.rand(30)[groups])  # groups differ
    fold = (np.arange(n) if groups is None else groups) % 5  # whole groups in each fold
    return cvi.CVResult(y_true=np.zeros(n), y_pred=np.zeros(n), fold=fold, loss=losses, loss_name="custom",
                        groups=groups)


def _numbers(interval):
    return (interval.estimate, interval.low, interval.high, interval.details["standard_error"], interval.method,
            interval.target, interval.estimand, interval.warnings)


def test_auto_on_an_ungrouped_record_is_the_old_default_and_says_it_chose():
    record = _record()
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # neither call warns
        auto, half = cvi.loss_interval(record), cvi.loss_interval(record, method="half-sample")
    assert _numbers(auto) == _numbers(half)
    assert auto.method == "half-sample"
    assert auto.notes[0].startswith(f"{AUTO_NOTE} method='half-sample'") and "no groups" in auto.notes[0]
    assert auto.notes[1:] == half.notes and not any(AUTO_NOTE in note for note in half.notes)


def test_auto_on_a_grouped_record_is_the_cluster_robust_interval_without_the_instance_warning():
    groups = np.repeat(np.arange(30), 4)
    record = _record(groups)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # 30 groups: the cluster interval owes no warning
        auto, cluster = cvi.loss_interval(record), cvi.loss_interval(record, method="cluster")
    assert _numbers(auto) == _numbers(cluster)
    assert auto.method == "cluster" and auto.target == "kfold"
    assert auto.notes[0] == (f"{AUTO_NOTE} method='cluster': the record was made with groups (30 of them), and "
                             "the groups, not the instances, are the independent units")
    with pytest.warns(cvi.InferenceWarning, match="method='cluster'"):  # the old default, still available
        half = cvi.loss_interval(record, method="half-sample")
    assert half.method == "half-sample" and half.high - half.low < auto.high - auto.low


def test_auto_keeps_the_level_and_the_repeat():
    record = _record(np.repeat(np.arange(30), 4))
    auto = cvi.loss_interval(record, 0.9, repeat=0)
    assert auto.confidence_level == 0.9
    assert _numbers(auto) == _numbers(cvi.loss_interval(record, 0.9, method="cluster", repeat=0))
