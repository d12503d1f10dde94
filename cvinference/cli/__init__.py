"""Layer 5: the ``cvinference`` command line (``demo``, ``evaluate``, ``compare``)."""

from ._main import main

__all__ = ["main"]
