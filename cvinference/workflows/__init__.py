"""The front door: the honest answer to "how good is this learner" and "is A better than B" in one call each.

:func:`evaluate` and :func:`compare` run what the command line's ``evaluate``
and ``compare`` run (the records, the intervals beside the trivial
baseline, every test, the decision, and the calibrated route of nested
cross-validation when the decision needs it) within a budget of fits said
before the first fit, and return one object whose ``summary()`` is exactly
what the command line prints. They sit above every statistical layer and
below the command line, which is a thin shell over them.
"""

from ._compare import Comparison, compare
from ._evaluate import Evaluation, evaluate

__all__ = ["Comparison", "Evaluation", "compare", "evaluate"]
