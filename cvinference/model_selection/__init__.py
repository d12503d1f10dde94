"""Layer 5: which of many candidates, or which learner across datasets, is really better.

:func:`compare_candidates` compares every candidate of a fitted
``GridSearchCV`` or ``RandomizedSearchCV`` (or named cross-validation results
on identical folds) with the best, with the corrected resampled t and an
adjustment for the family of comparisons; :class:`SimplestIndistinguishable`
and :class:`OneStandardError` are refit rules for the search;
:func:`tuning_interval` cross-validates the whole search;
:func:`compare_on_datasets` ranks learners over several datasets (Friedman,
Nemenyi, Wilcoxon with Holm; Demšar 2006); :func:`compare_models` tests many
models on the same rows (Cochran's Q, then McNemar's test of each pair with
Holm's adjustment; their clustered forms for rows in groups).
"""

from ._candidates import CandidateComparison, compare_candidates
from ._datasets import DatasetComparison, FriedmanResult, compare_on_datasets
from ._models import ModelComparison, compare_models
from ._refit import OneStandardError, SimplestIndistinguishable
from ._tuning import tuning_interval

__all__ = [
    "CandidateComparison",
    "DatasetComparison",
    "FriedmanResult",
    "ModelComparison",
    "OneStandardError",
    "SimplestIndistinguishable",
    "compare_candidates",
    "compare_models",
    "compare_on_datasets",
    "tuning_interval",
]
