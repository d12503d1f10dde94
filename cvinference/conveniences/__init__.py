"""Layer 4: the refitting methods' ``estimator, X, y`` forms, in one place.

Each function here fits a record with the evaluation layer and passes it to
the inference layer's pure function of records, nothing else, so its numbers
are those of the two steps::

    nested_cv_interval(estimator, X, y, ...)
        == nested_cv_interval_of(nested_cross_validation(estimator, X, y, ...), confidence_level=...)

It sits beside ``report`` in the layer table (``docs/architecture.md``): it
imports the evaluation and inference layers, and the layers above it
(``model_selection``, ``cli``) import it.
"""

from ._fit_then_infer import (
    bootstrap_accuracy,
    combined_ftest_5x2cv,
    conservative_z_interval,
    nested_cv_interval,
    paired_ttest_5x2cv,
)

__all__ = ["bootstrap_accuracy", "combined_ftest_5x2cv", "conservative_z_interval", "nested_cv_interval",
           "paired_ttest_5x2cv"]
