"""Counts too large for the machine's memory are refused by name before anything is allocated (issue 28).

numpy's own refusal, ``MemoryError: Unable to allocate 7.28 TiB``, names no parameter; each entry point
below must refuse 10**12 repeats, draws, rounds or samples with a ValueError naming its parameter, before
any fit (the estimator fails if fitted).
"""

import pytest
from sklearn.datasets import load_iris
from sklearn.naive_bayes import GaussianNB

import cvinference as cvi
from cvinference._utils import _validation
from cvinference._utils._validation import check_fits_in_memory

HUGE = 10**12
X, Y = load_iris(return_X_y=True)


class _NeverFitted(GaussianNB):
    def fit(self, X, y, sample_weight=None):
        raise AssertionError("a count too large for memory must be refused before any fit")


def _other():
    return _NeverFitted(var_smoothing=1e-8)


CASES = {
    "cross_val_correctness": ("n_repeats", lambda: cvi.cross_val_correctness(_NeverFitted(), X, Y, n_repeats=HUGE)),
    "CVEvaluator.compare": ("n_repeats", lambda: cvi.CVEvaluator(n_repeats=HUGE).compare(_NeverFitted(), _other(),
                                                                                          X, Y)),
    "nested_cv_interval": ("n_repeats", lambda: cvi.nested_cv_interval(_NeverFitted(), X, Y, n_repeats=HUGE)),
    "conditional_error_study, max_repeats": ("max_repeats", lambda: cvi.conditional_error_study(
        _NeverFitted(), X, Y, sample_size=50, n_draws=2, max_repeats=HUGE)),
    "conditional_error_study, n_draws": ("n_draws", lambda: cvi.conditional_error_study(
        _NeverFitted(), X, Y, sample_size=50, n_draws=HUGE, max_repeats=2)),
    "winner_table": ("n_repeats", lambda: cvi.winner_table(_NeverFitted(), _other(), X, Y, sample_size=50,
                                                           n_draws=2, n_repeats=HUGE)),
    "precision_study": ("n_repeats", lambda: cvi.precision_study(_NeverFitted(), X, Y, sample_size=50, n_draws=2,
                                                                 n_repeats=HUGE, loss="zero_one")),
    "fold_size_study": ("n_draws", lambda: cvi.fold_size_study(_NeverFitted(), X, Y, sample_size=50, n_draws=HUGE)),
    "paired_subsampling, n_pairs": ("n_pairs", lambda: cvi.evaluation.paired_subsampling(_NeverFitted(), X, Y,
                                                                                         n_pairs=HUGE)),
    "conservative_z_interval, n_rounds": ("n_rounds", lambda: cvi.conservative_z_interval(_NeverFitted(), X, Y,
                                                                                          n_rounds=HUGE)),
    "bootstrap_accuracy": ("n_bootstraps", lambda: cvi.bootstrap_accuracy(_NeverFitted(), X, Y, n_bootstraps=HUGE)),
    "random_subsampling": ("n_rounds", lambda: cvi.evaluation.random_subsampling(_NeverFitted(), X, Y, n_rounds=HUGE)),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_a_count_too_large_for_memory_is_refused_by_name_before_any_fit(case):
    name, call = CASES[case]
    expected = (rf"{name}={HUGE}\b.* (is|are) too large: .* would need [\d.]+ [PT]iB, more than this machine's .* of "
                rf"memory\. Pass a smaller .*{name}")
    with pytest.raises(ValueError, match=expected):
        call()


def test_the_size_is_the_product_of_the_counts(monkeypatch):
    # Hand computation: 1000 repeats x 150 instances x 25 bytes = 3,750,000 bytes = 3.58 MiB.
    monkeypatch.setattr(_validation, "memory_size", lambda: 3_750_000)
    check_fits_in_memory({"n_repeats": 1000}, 1000 * 150 * 25, "a record")  # exactly the memory: accepted
    monkeypatch.setattr(_validation, "memory_size", lambda: 3_749_999)
    with pytest.raises(ValueError, match=r"^n_repeats=1000 is too large: a record would need 3.58 MiB, more than "
                                         r"this machine's 3.58 MiB of memory\. Pass a smaller n_repeats\.$"):
        check_fits_in_memory({"n_repeats": 1000}, 1000 * 150 * 25, "a record")


def test_kept_scores_count_in_the_record_s_size(monkeypatch):
    # Hand computation: iris has 3 classes, so 3 float64 scores (24 bytes) join the 25 bytes of each of the
    # 150 instances in each of 1000 repeats: 1000 x 150 x 49 = 7,350,000 bytes, more than 7,349,999.
    monkeypatch.setattr(_validation, "memory_size", lambda: 7_349_999)
    with pytest.raises(ValueError, match=r"n_repeats=1000 is too large: a record of 150 instances per repeat \(the "
                                         r"fold, prediction, loss, correctness and scores of each, 49 bytes\)"):
        cvi.cross_val_correctness(_NeverFitted(), X, Y, n_repeats=1000, response_method="predict_proba")
    monkeypatch.setattr(_validation, "memory_size", lambda: 7_350_000)
    with pytest.raises(AssertionError, match="must be refused before any fit"):  # fits: the size was accepted
        cvi.cross_val_correctness(_NeverFitted(), X, Y, n_repeats=1000, response_method="predict_proba")
