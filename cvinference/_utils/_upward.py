"""The one sanctioned upward reference: a lower layer calling a public function of a higher one.

Records offer ``result.summary()``; the function behind it lives in a higher
layer (report). It is looked up by module name when the method is called,
never imported, so the import graph stays one-way; ``tests/test_layers.py``
walks it.
"""

import importlib


def upward(layer, name):
    """The public function ``name`` of the subpackage ``cvinference.<layer>``, looked up now."""
    return getattr(importlib.import_module(f"cvinference.{layer}"), name)
