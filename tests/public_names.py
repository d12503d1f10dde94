"""Every public name of the package, with its object: the top level's ``__all__`` and the names that left it.

Issue 44 moved the result classes, the refitting schemes, the variants and the
helpers from ``cvinference.__all__`` to their subpackages (``cvinference.MOVED``);
the tests that walk the public API (parameter rules, names, results, the codec)
walk both, each name taken from its home, so that no moved name leaves their view.
"""

import importlib

import cvinference as cvi


def public_names():
    """``{name: object}`` of every name in ``cvinference.__all__``, in ``cvinference.MOVED`` and in
    ``cvinference.results`` (the front door's results were never at the top level), each from its home."""
    found = {name: getattr(cvi, name) for name in cvi.__all__}
    for module, names in cvi.MOVED.items():
        home = importlib.import_module(f"cvinference{module}")
        found.update((name, getattr(home, name)) for name in names)
    results = importlib.import_module("cvinference.results")
    found.update((name, getattr(results, name)) for name in results.__all__)  # those that never were at the top
    for module, names in NEVER_AT_THE_TOP.items():
        home = importlib.import_module(f"cvinference{module}")
        found.update((name, getattr(home, name)) for name in names)
    return found


NEVER_AT_THE_TOP = {
    ".splitters": ("ForwardSplit",),
    ".records": ("ForwardResult", "PairedForwardResult"),
    ".inference": ("forecast_interval", "forecast_test"),
}
"""Public names born in their subpackage (issue 48), which the walks of the public API must see too."""
