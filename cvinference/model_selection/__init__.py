"""Layer 5: which of many candidates, or which learner across datasets, is really better.

:func:`compare_candidates` compares every candidate of a fitted
``GridSearchCV`` or ``RandomizedSearchCV`` (or named cross-validation results
on identical folds) with the best, with the corrected resampled t and an
adjustment for the family of comparisons; :class:`SimplestIndistinguishable`
and :class:`OneStandardError` are refit rules for the search;
:func:`tuning_interval` cross-validates the whole search;
:func:`compare_on_datasets` ranks learners over several datasets (Friedman,
Nemenyi, Wilcoxon with Holm; Demšar 2006).
"""

from ._candidates import CandidateComparison, compare_candidates
from ._datasets import DatasetComparison, FriedmanResult, compare_on_datasets
from ._refit import OneStandardError, SimplestIndistinguishable
from ._tuning import tuning_interval

__all__ = [
    "CandidateComparison",
    "DatasetComparison",
    "FriedmanResult",
    "OneStandardError",
    "SimplestIndistinguishable",
    "compare_candidates",
    "compare_on_datasets",
    "tuning_interval",
]
