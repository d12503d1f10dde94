"""Layer 6: the ``cvinference`` command line (``demo``, ``evaluate``, ``compare``, ``select``, ``study``).

``main`` is imported when first used (PEP 562): the program's entry point
(``_entry.py``) takes Ctrl-C in hand before anything heavy is imported.
"""

from .._utils._lazy import lazy_exports

__all__ = ["main"]

__getattr__, __dir__ = lazy_exports(__name__, {"._main": ("main",)})
