"""Layer 0: helpers every layer may use (input checks, warnings, text, arrays).

Private to the package: nothing here is part of the public API, except
:class:`InferenceWarning`, which the top-level package exports.
"""

from ._warnings import InferenceWarning

__all__ = ["InferenceWarning"]
