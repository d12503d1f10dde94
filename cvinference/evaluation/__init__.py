"""Layer 2: the only place that fits models.

One scheduler (:func:`run_fits`) runs every refitting scheme, each of which
describes its fits as :class:`FitTask` items: k-fold and leave-one-out
(:class:`CVEvaluator`, :func:`cross_val_correctness`), the 5x2cv tests of the
inference layer (through :meth:`CVEvaluator.compare`, five repeats of 2-fold
cross-validation), holdout and random subsampling, the bootstrap
(:func:`fit_bootstraps` draws the samples and runs their fits; the inference
layer computes the statistics) and Nadeau & Bengio's paired subsampling
(:func:`fit_paired_subsampling`, for :func:`conservative_z_interval`). Every fit is of a clone; predictions equal
``cross_val_predict`` on the same splits.
"""

from ._evaluator import CVEvaluator, cross_val_correctness
from ._holdout import holdout, random_subsampling

__all__ = ["CVEvaluator", "cross_val_correctness", "holdout", "random_subsampling"]
