"""Deprecations that keep old calls working for one release, with a ``FutureWarning`` saying what to write.

scikit-learn's habit: a renamed parameter, a parameter that becomes
keyword-only, or a function or method on its way out keeps working for one
release and warns with ``FutureWarning`` (shown to users by default, unlike
``DeprecationWarning``), naming what to write instead. Each decorator keeps
the function's own signature (``functools.wraps``), so ``help``,
``inspect.signature`` and ``docs/api.md`` show only the new form.

Put these decorators above :func:`~cvinference._utils._params.validate_params`:
they turn the old call into the new one before the parameters are checked::

    @renamed_parameter(old="n_splits", new="n_rounds", since="0.1")
    @validate_params(n_rounds=Integer(minimum=1))
    def interval(estimator, X, y, *, n_rounds=15): ...
"""

import functools
import inspect
import os
import reprlib
import warnings

from ._warnings import first_caller_outside_package

_POSITIONAL = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
_SHORT = reprlib.Repr()
_SHORT.maxstring, _SHORT.maxother = 40, 40


def removal_version(since):
    """The release in which something deprecated in ``since`` goes: the next minor one.

    Examples
    --------
    >>> removal_version("0.1")
    '0.2'
    >>> removal_version("1.9")
    '1.10'
    """
    major, minor = since.split(".")[:2]
    return f"{major}.{int(minor) + 1}"


def warn_deprecated(message):
    """Issue ``message`` as a FutureWarning pointing at the user's line."""
    warnings.warn(message, FutureWarning, stacklevel=first_caller_outside_package())


def moved_to_mapping(cls, name, *, mapping, key, stored, subject, since):
    """Give ``cls`` a read-only property ``name`` that warns (FutureWarning) and reads ``key`` of the mapping
    ``stored``: an attribute that became a key of the result's public mapping ``mapping`` (``"table"``,
    ``"details"``, ...), which ``subject`` (``"comparison"``) names in the advice. A missing key reads None.

    Examples
    --------
    >>> import warnings
    >>> class Result:
    ...     _columns = {"pvalue": 0.5}
    >>> moved_to_mapping(Result, "pvalue", mapping="table", key="pvalue", stored="_columns", subject="result",
    ...                  since="0.1")
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     value = Result().pvalue
    >>> value, str(caught[0].message)
    (0.5, "Result.pvalue moved to Result.table['pvalue'] in version 0.1, and the attribute will be removed in \
version 0.2; write result.table['pvalue'].")
    """
    owner = cls.__name__

    def read(self):
        warn_deprecated(f"{owner}.{name} moved to {owner}.{mapping}[{key!r}] in version {since}, and the attribute "
                        f"will be removed in version {removal_version(since)}; write {subject}.{mapping}[{key!r}].")
        return getattr(self, stored).get(key)

    setattr(cls, name, property(read, doc=f"Deprecated since {since}: ``{mapping}[{key!r}]``."))


def renamed_parameter(*, old, new, since):
    """Let the keyword ``old`` of the decorated function keep working as ``new`` for one release.

    Calling with ``old=value`` warns (FutureWarning, naming ``new``) and
    passes ``new=value``; giving both ``old`` and ``new`` is a TypeError.

    Parameters
    ----------
    old : str
        The former name, no longer in the signature.
    new : str
        The parameter's name now.
    since : str
        The version that renamed it, such as ``"0.1"``.

    Examples
    --------
    >>> import warnings
    >>> @renamed_parameter(old="folds", new="n_splits", since="0.1")
    ... def study(*, n_splits=5):
    ...     return n_splits
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     study(folds=3)
    3
    >>> print(caught[0].message)
    study(): folds was renamed n_splits in version 0.1, and folds= will stop working in version 0.2; pass n_splits=3.
    >>> study(folds=3, n_splits=3)
    Traceback (most recent call last):
    ...
    TypeError: study() got both folds= and n_splits=; folds was renamed n_splits in version 0.1: pass only n_splits=.
    """

    def decorate(function):
        signature = inspect.signature(function)
        if new not in signature.parameters or old in signature.parameters:
            raise TypeError(f"{function.__name__} must have the parameter {new!r} and not {old!r}")
        parameter = signature.parameters[new]
        position = list(signature.parameters).index(new) if parameter.kind in _POSITIONAL else None
        name = function.__name__

        @functools.wraps(function)
        def renamed(*args, **kwargs):
            if old in kwargs:
                if new in kwargs or (position is not None and len(args) > position):
                    raise TypeError(f"{name}() got both {old}= and {new}=; {old} was renamed {new} in version "
                                    f"{since}: pass only {new}=.")
                value = kwargs.pop(old)
                warn_deprecated(f"{name}(): {old} was renamed {new} in version {since}, and {old}= will stop "
                                f"working in version {removal_version(since)}; pass {new}={_SHORT.repr(value)}.")
                kwargs[new] = value
            return function(*args, **kwargs)

        return renamed

    return decorate


def positional_deprecated(*names, since):
    """Let the keyword-only ``names`` of the decorated function still be passed by position for one release.

    ``names`` are the parameters that used to follow the positional ones, in
    their former order; a call that passes them by position warns
    (FutureWarning, naming each keyword) and passes them by keyword
    (scikit-learn's ``_deprecate_positional_args``).

    Examples
    --------
    >>> import warnings
    >>> @positional_deprecated("confidence_level", since="0.1")
    ... def interval(result, metric="f1", *, confidence_level=0.95):
    ...     return confidence_level
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     interval(None, "f1", 0.9)
    0.9
    >>> print(caught[0].message)
    interval(): passing confidence_level=0.9 by position is deprecated ...; pass it by keyword: confidence_level=0.9.
    """

    def decorate(function):
        signature = inspect.signature(function)
        kinds = [parameter.kind for parameter in signature.parameters.values()]
        if inspect.Parameter.VAR_POSITIONAL in kinds or any(
                signature.parameters.get(n, None) is None
                or signature.parameters[n].kind is not inspect.Parameter.KEYWORD_ONLY for n in names):
            raise TypeError(f"{function.__name__}: {names} must be keyword-only parameters and there must be no *args")
        n_positional = sum(kind in _POSITIONAL for kind in kinds)
        name = function.__name__

        @functools.wraps(function)
        def keyword_only(*args, **kwargs):
            extra = args[n_positional:]
            if not extra:
                return function(*args, **kwargs)
            if len(extra) > len(names):
                raise TypeError(f"{name}() takes at most {n_positional + len(names)} positional arguments "
                                f"({n_positional} from version {removal_version(since)}) but {len(args)} were given.")
            moved = dict(zip(names, extra, strict=False))
            for keyword in moved:
                if keyword in kwargs:
                    raise TypeError(f"{name}() got multiple values for argument {keyword!r}")
            given = ", ".join(f"{keyword}={_SHORT.repr(value)}" for keyword, value in moved.items())
            warn_deprecated(f"{name}(): passing {given} by position is deprecated since version {since} and will "
                            f"be an error in version {removal_version(since)}; pass it by keyword: {given}.")
            return function(*args[:n_positional], **moved, **kwargs)

        return keyword_only

    return decorate


def _path_text(path):
    """A path as the message shows it: the repr of its str, bytes or path-like text, or of a file object."""
    return repr(os.fspath(path)) if isinstance(path, str | bytes | os.PathLike) else _SHORT.repr(path)


def path_was_first(*, since):
    """Let the decorated ``plot(self, ax=None, *, path=None, ...)`` still take a path first, for one release.

    Before ``since`` such a ``plot`` took ``path`` as its first argument;
    now it takes ``ax``, the Axes to draw on, as scikit-learn's Display
    objects do. A str or path-like passed as ``ax`` warns (FutureWarning,
    naming ``path=``) and is passed as ``path`` instead.

    Examples
    --------
    >>> import warnings
    >>> class Result:
    ...     @path_was_first(since="0.1")
    ...     def plot(self, ax=None, *, path=None):
    ...         return ax, path
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     Result().plot("figure.png")
    (None, 'figure.png')
    >>> print(caught[0].message)
    Result.plot(): its first argument is now ax, the Axes to draw on, ...; pass path='figure.png' to save the figure.
    >>> Result().plot("figure.png", path="other.png")
    Traceback (most recent call last):
    ...
    TypeError: Result.plot() got a path both as ax ('figure.png') and as path ('other.png'); pass only path=.
    """

    def decorate(function):
        @functools.wraps(function)
        def plot(self, ax=None, **kwargs):
            name = f"{type(self).__name__}.{function.__name__}"  # the subclass's name, for a method it inherits
            if isinstance(ax, str | bytes | os.PathLike) or hasattr(ax, "write"):  # what savefig takes
                if kwargs.get("path") is not None:
                    raise TypeError(f"{name}() got a path both as ax ({_path_text(ax)}) and as path "
                                    f"({_path_text(kwargs['path'])}); pass only path=.")
                warn_deprecated(f"{name}(): its first argument is now ax, the Axes to draw on, and a path there will "
                                f"stop working in version {removal_version(since)}; pass path={_path_text(ax)} to "
                                "save the figure.")
                ax, kwargs["path"] = None, ax
            return function(self, ax, **kwargs)

        return plot

    return decorate


def deprecated(*, since, instead):
    """Make the decorated function or method warn (FutureWarning) that it goes in the next release.

    Parameters
    ----------
    since : str
        The version that deprecated it.
    instead : str
        What to write instead, completing "...; " in the warning.

    Examples
    --------
    >>> import warnings
    >>> @deprecated(since="0.1", instead="use new()")
    ... def old():
    ...     '''Do it.'''
    ...     return 1
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     old()
    1
    >>> print(caught[0].message)
    old() is deprecated since version 0.1 and will be removed in version 0.2; use new().
    """

    def decorate(function):
        @functools.wraps(function)
        def warning_first(*args, **kwargs):
            warn_deprecated(f"{function.__qualname__}() is deprecated since version {since} and will be removed "
                            f"in version {removal_version(since)}; {instead}.")
            return function(*args, **kwargs)

        warning_first.__doc__ = deprecated_docstring(function.__doc__, since, instead)
        return warning_first

    return decorate


def deprecated_docstring(doc, since, instead):
    """``doc`` with numpydoc's ``.. deprecated::`` directive after its summary line."""
    summary, _, rest = (doc or "").partition("\n")
    lines = [line for line in rest.splitlines() if line.strip()]
    indent = min((len(line) - len(line.lstrip()) for line in lines), default=0) * " "
    note = f"\n\n{indent}.. deprecated:: {since}\n{indent}    Removed in version {removal_version(since)}; {instead}.\n"
    return summary + note + rest
