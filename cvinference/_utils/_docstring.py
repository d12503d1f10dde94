"""Parameter descriptions shared by several public functions, written once.

A docstring writes ``%(name)s`` where a shared text belongs, and
:func:`fill_doc` puts the text of :data:`SHARED` there, each of its lines
indented as the placeholder's line is (imbalanced-learn's ``Substitution``
and MNE's ``fill_doc`` habit). A placeholder alone on a line stands for a
whole numpydoc entry (name, type, description); one inside a description
stands for a sentence of it. A whole entry's description may go on
below the placeholder, indented as a description is.
"""

import re

__all__ = ["SHARED", "fill_doc"]

_PLACEHOLDER = re.compile(r"^(?P<indent>[ \t]*)(?P<before>.*?)%\((?P<name>\w+)\)s", re.M)

SHARED = {
    "confidence_level": """\
confidence_level : float, default=0.95
    The confidence level of the interval, strictly between 0 and 1.""",
    "alternative": """\
alternative : {"two-sided", "less", "greater"}, default="two-sided"
    The alternative to accuracy(A) = accuracy(B); ``"greater"`` is "A is
    more accurate".""",
    "min_count": """\
min_count : int, default=5
    The smallest count the large-sample conditions accept (Wong's 5).""",
    "pair_a": """\
a : CVResult or PairedCVResult
    The result of classifier A, or a pair holding both results (as
    :meth:`CVEvaluator.compare` makes it) with ``b`` left out.""",
    "X": """\
X : array-like or sparse matrix of shape (n_samples, n_features)
    Features (numpy, lists, pandas DataFrame or scipy sparse).""",
    "repeat": """\
The repeat to use. None uses the only repeat, or pools all repeats with an
:class:`InferenceWarning`.""",
    "display": """\
As scikit-learn's Display objects do, it draws on ``ax`` and never selects
matplotlib's backend. Like every ``plot()`` of the package, it takes
``ax`` and ``path`` by one rule and returns a ``cvinference.report.Plot``
(``figure_``, ``ax_``, ``axes_``).""",
    "plot_ax": """\
ax : matplotlib Axes or None, default=None
    Where to draw; None makes a new figure.""",
    "plot_path": """\
path : str, path-like, binary file object or None, default=None
    Where to save the figure as a PNG. A new figure is then closed (saved,
    no longer shown); the figure of an ``ax`` given stays open, as does
    any figure without ``path``. Anything else is a TypeError.""",
    "plot_returns": """\
Plot
    ``figure_``, the figure drawn on; ``ax_``, the main panel's Axes (the
    one Axes given, or a new figure's last panel); ``axes_``, the Axes of
    every panel drawn.""",
    "n_jobs": """\
n_jobs : int or None, default=None
    Number of jobs for the fits: None means 1 unless in a
    :func:`joblib.parallel_config` context; -1 means all processors.""",
}
"""The shared texts by placeholder name: whole entries, or sentences (``repeat``, ``display``)."""


def fill_doc(obj):
    """Fill the ``%(name)s`` placeholders of ``obj``'s docstring from :data:`SHARED`.

    Put it directly above the ``def`` (below ``validate_params``, which
    copies the docstring when it wraps).

    Parameters
    ----------
    obj : function or class
        Its ``__doc__`` is replaced; the object itself is returned.

    Returns
    -------
    function or class
        ``obj``.

    Raises
    ------
    KeyError
        A placeholder names no shared text (a typo fails at import).

    Examples
    --------
    >>> @fill_doc
    ... def interval(result, confidence_level=0.95):
    ...     '''An interval.
    ...
    ...     Parameters
    ...     ----------
    ...     %(confidence_level)s
    ...     '''
    >>> print(interval.__doc__.strip())
    An interval.
    <BLANKLINE>
        Parameters
        ----------
        confidence_level : float, default=0.95
            The confidence level of the interval, strictly between 0 and 1.
    """
    if obj.__doc__:
        obj.__doc__ = _PLACEHOLDER.sub(_fill, obj.__doc__)
    return obj


def _fill(match):
    name = match.group("name")
    if name not in SHARED:
        raise KeyError(f"fill_doc: the docstring placeholder %({name})s names no shared text; "
                       f"known: {', '.join(sorted(SHARED))}")
    indent = match.group("indent")
    return indent + match.group("before") + SHARED[name].replace("\n", "\n" + indent)
