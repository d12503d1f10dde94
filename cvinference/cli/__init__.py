"""Layer 6: the ``cvinference`` command line (``demo``, ``evaluate``, ``compare``, ``select``, ``study``)."""

from ._main import main

__all__ = ["main"]
