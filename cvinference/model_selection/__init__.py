"""Layer 5: which of many candidates, or which learner across datasets, is really better.

:func:`compare_candidates` compares every candidate of a fitted
``GridSearchCV`` or ``RandomizedSearchCV`` (or named cross-validation results
on identical folds) with the best, with the corrected resampled t and an
adjustment for the family of comparisons; :func:`compare_on_datasets` ranks
learners over several datasets (Friedman, Nemenyi, Wilcoxon with Holm;
Demšar 2006).
"""

from ._datasets import DatasetComparison, FriedmanResult, compare_on_datasets

__all__ = ["DatasetComparison", "FriedmanResult", "compare_on_datasets"]
