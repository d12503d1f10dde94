"""A package whose public names are imported when first used (PEP 562).

``import cvinference`` (and so every ``cvinference.*`` import, the command
line's included) would otherwise import every layer and scikit-learn before
the first line of a command runs: ``cvinference --help`` would wait for them,
and a Ctrl-C during those seconds would land before the command line can
handle it.
"""

import importlib
import sys


def lazy_exports(package, exports, *, reexport=False):
    """The module ``__getattr__`` and ``__dir__`` of ``package``, importing each name from its module when asked.

    Parameters
    ----------
    package : str
        The package's ``__name__``.
    exports : dict of str to tuple of str
        Module (relative to ``package``, such as ``".evaluation"``) to the
        public names it defines. The modules themselves are attributes of
        ``package`` too, as they would be once imported.
    reexport : bool, default=False
        Whether ``package`` is a namespace of re-exports (``cvinference.results``)
        and so may name other subpackages (``"..inference"``). Only such
        namespaces may: ``tests/test_layers.py`` exempts them from the layers
        and checks that no layered subpackage passes ``reexport=True``.

    Returns
    -------
    __getattr__, __dir__ : callable
        To assign at the package's top level. A name, once imported, is kept
        in the package's namespace, so ``__getattr__`` runs once per name.

    Raises
    ------
    ValueError
        For a module outside the package (not relative), or of another
        subpackage (``"..name"``) without ``reexport=True``: such an import
        would be hidden from the layer checks of ``tests/test_layers.py``.

    Examples
    --------
    >>> import cvinference.studies as studies
    >>> "POPULATIONS" in dir(studies), studies.POPULATIONS[:2]
    (True, ('synthetic', 'mushroom'))
    >>> studies.no_such_name
    Traceback (most recent call last):
    ...
    AttributeError: module 'cvinference.studies' has no attribute 'no_such_name'
    >>> lazy_exports("cvinference.studies", {"json": ("dumps",)})
    Traceback (most recent call last):
    ...
    ValueError: exports names the module 'json'; only the package's own modules (relative, '.name') can be exported
    >>> lazy_exports("cvinference.studies", {"..inference": ("Interval",)})
    Traceback (most recent call last):
    ...
    ValueError: exports names the module '..inference' of another subpackage; only a namespace of re-exports ...
    """
    outside = [module for module in exports if not module.startswith(".")]
    if outside:
        raise ValueError(f"exports names the module {outside[0]!r}; only the package's own modules (relative, "
                         "'.name') can be exported")
    upward = [module for module in exports if module.startswith("..")]
    if upward and not reexport:
        raise ValueError(f"exports names the module {upward[0]!r} of another subpackage; only a namespace of "
                         "re-exports (reexport=True) may")
    where = {name: module for module, names in exports.items() for name in names}
    modules = {module[1:].split(".")[0] for module in exports if not module.startswith("..")}

    def __getattr__(name):
        if name in modules:
            return importlib.import_module(f".{name}", package)
        if name not in where:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(where[name], package), name)
        setattr(sys.modules[package], name, value)
        return value

    def __dir__():
        return sorted(set(vars(sys.modules[package])) | set(where) | modules)

    return __getattr__, __dir__
