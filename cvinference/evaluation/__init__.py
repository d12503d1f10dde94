"""Layer 2: the only place that fits models.

One scheduler (:func:`run_fits`) runs every refitting scheme, each of which
describes its fits as :class:`FitTask` items and returns a public record of
what it did to every instance: k-fold and leave-one-out
(:class:`CVEvaluator`, :func:`cross_val_correctness`: a :class:`CVResult` or
:class:`PairedCVResult`), Dietterich's 5x2cv (:func:`five_by_two_cv`, five
repeats of 2-fold cross-validation through :meth:`CVEvaluator.compare`: a
:class:`PairedCVResult`), holdout and random subsampling (a
:class:`CVResult` and a :class:`SubsamplingResult`), nested cross-validation
(:func:`nested_cross_validation`: a :class:`NestedCVResult`), Nadeau &
Bengio's paired subsampling (:func:`paired_subsampling`: a
:class:`PairedSubsamplingResult`) and the bootstrap
(:func:`bootstrap_sampling`: a :class:`BootstrapSamplingResult`). The
inference layer computes every statistic from these records. Every fit is of
a clone; predictions equal ``cross_val_predict`` on the same splits. The fold
models scikit-learn's ``cross_validate`` already fitted make a record too
(:func:`from_cross_validate`), without refitting.
"""

from ._bootstrap_fits import bootstrap_sampling
from ._evaluator import CVEvaluator, cross_val_correctness
from ._five_by_two_cv import five_by_two_cv
from ._from_cross_validate import from_cross_validate
from ._holdout import holdout, random_subsampling
from ._nested_fits import nested_cross_validation
from ._paired_subsampling import paired_subsampling

__all__ = ["CVEvaluator", "bootstrap_sampling", "cross_val_correctness", "five_by_two_cv", "from_cross_validate",
           "holdout", "nested_cross_validation", "paired_subsampling", "random_subsampling"]
