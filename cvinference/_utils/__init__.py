"""Layer 0: helpers every layer may use (input checks, warnings, text, arrays).

Private to the package: nothing here is part of the public API, except
:class:`InferenceWarning`, which the top-level package exports, and its subclasses
(``ConditionsWarning``, ``PooledRepeatsWarning``, ``GroupedInstancesWarning``), whose
``code`` a result's warnings carry.
"""

from ._warnings import ConditionsWarning, GroupedInstancesWarning, InferenceWarning, PooledRepeatsWarning

__all__ = ["ConditionsWarning", "GroupedInstancesWarning", "InferenceWarning", "PooledRepeatsWarning"]
