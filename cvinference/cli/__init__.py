"""Layer 6: the ``cvinference`` command line (``demo``, ``evaluate``, ``compare``, ``study``)."""

from ._main import main

__all__ = ["main"]
