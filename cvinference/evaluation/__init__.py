"""Layer 2: the only place that fits models.

One scheduler (:func:`run_fits`) runs every refitting scheme: k-fold and
leave-one-out (:class:`CVEvaluator`, :func:`cross_val_correctness`), holdout and
random subsampling, and the fits the inference layer's refitting tests (5x2cv,
the bootstrap) ask for. Every fit is of a clone; predictions equal
``cross_val_predict`` on the same splits.
"""

from ._evaluator import CVEvaluator, cross_val_correctness
from ._holdout import holdout, random_subsampling

__all__ = ["CVEvaluator", "cross_val_correctness", "holdout", "random_subsampling"]
