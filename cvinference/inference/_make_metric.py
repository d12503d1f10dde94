"""A set-level metric from a function, with the name and possible range that intervals report."""

import math
import numbers

from .._utils._params import NAME, Boolean, validate_params

UNNAMED = "a callable metric"
"""What an interval's estimand calls a callable metric without a name (a lambda)."""


class Metric:
    """A set-level metric ``(y_true, y_pred) -> float``, its name and its possible range.

    Made by :func:`make_metric`; :func:`metric_interval` and :func:`decide`
    accept it as ``metric``.

    Attributes
    ----------
    function : callable
        The function given to :func:`make_metric`.
    name : str or None
        The name results use; None for a lambda given without one.
    bounds : tuple of (float or None) or None
        The lowest and highest value the metric can take (None for no
        bound on that side), as the metric returns it (negated for
        ``greater_is_better=False``); None when unknown.
    greater_is_better : bool
    kwargs : dict
        The keywords passed to ``function`` on every call.
    """

    def __init__(self, function, name, bounds, greater_is_better, kwargs):
        self.function, self.name, self.bounds = function, name, bounds
        self.greater_is_better, self.kwargs = greater_is_better, dict(kwargs)

    def __call__(self, y_true, y_pred):
        value = self.function(y_true, y_pred, **self.kwargs)
        return value if self.greater_is_better else -value

    def __repr__(self):
        keywords = "".join(f", {key}={value!r}" for key, value in self.kwargs.items())
        sign = "" if self.greater_is_better else ", greater_is_better=False"
        return f"make_metric({getattr(self.function, '__name__', self.function)!r}, name={self.name!r}{sign}{keywords})"


def function_name(function):
    """The ``__name__`` of ``function``, or None for a lambda or an object without one."""
    name = getattr(function, "__name__", None)
    return None if name in (None, "<lambda>") or not isinstance(name, str) else name


def _bound(value, which):
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, numbers.Real) or math.isnan(value):
        raise TypeError(f"bounds must be (low, high), each a number or None; got the {which} bound {value!r}.")
    return float(value)


def _checked_bounds(bounds):
    """``bounds`` as (low, high) floats or Nones, or a TypeError or ValueError naming ``bounds`` and its value."""
    if bounds is None:
        return None
    if not isinstance(bounds, (tuple, list)) or len(bounds) != 2:
        raise TypeError(f"bounds must be (low, high), the metric's lowest and highest possible values (None for "
                        f"no bound on that side), or None; got bounds={bounds!r}.")
    low, high = _bound(bounds[0], "low"), _bound(bounds[1], "high")
    if low is not None and high is not None and not low < high:
        raise ValueError(f"bounds must be (low, high) with low < high; got bounds={bounds!r}.")
    return low, high


@validate_params(name=NAME, greater_is_better=Boolean())
def make_metric(function, *, name=None, bounds=None, greater_is_better=True, **kwargs):
    """A set-level metric from a function, named and bounded, to pass as ``metric=``.

    The vocabulary is scikit-learn's ``make_scorer``'s: ``greater_is_better``
    and keywords passed on to the function. The metric is computed from
    predicted labels (or values), fold by fold.

    Parameters
    ----------
    function : callable
        ``function(y_true, y_pred, **kwargs) -> float``, such as
        ``sklearn.metrics.fbeta_score``.
    name : str, default=None
        The name that results use (in ``estimand``, notes and warnings);
        the function's ``__name__`` by default, and "a callable metric" for
        a lambda.
    bounds : (float or None, float or None) or None, default=None
        The lowest and highest values ``function`` can return, None for no
        bound on a side: an interval is clipped to them, with a warning,
        as for sklearn's named metrics. None (the default) when unknown:
        no clipping.
    greater_is_better : bool, default=True
        False for an error or a cost: as in ``make_scorer``, the metric then
        returns ``-function(...)``, its name gets the prefix ``"neg_"`` and
        its bounds are negated, so that higher is better everywhere.
    **kwargs
        Passed to ``function`` on every call, such as ``pos_label="yes"``
        or ``beta=2``.

    Returns
    -------
    Metric
        A callable ``(y_true, y_pred) -> float`` with ``name``, ``bounds``,
        ``greater_is_better`` and ``kwargs``.

    Examples
    --------
    >>> from sklearn.metrics import cohen_kappa_score, fbeta_score
    >>> from cvinference import make_metric
    >>> f2 = make_metric(fbeta_score, name="F2", bounds=(0, 1), beta=2, pos_label="yes")
    >>> f2.name, round(f2(["yes", "no", "yes"], ["yes", "yes", "no"]), 4)
    ('F2', 0.5)
    >>> make_metric(cohen_kappa_score, bounds=(-1, 1)).name
    'cohen_kappa_score'
    >>> cost = make_metric(lambda y_true, y_pred: 5.0 * ((y_true == 1) & (y_pred == 0)).mean(), name="cost",
    ...                    bounds=(0, 5), greater_is_better=False)
    >>> cost.name, cost.bounds
    ('neg_cost', (-5.0, 0.0))
    """
    if not callable(function):
        raise TypeError(f"function must be callable, (y_true, y_pred) -> float; got function={function!r}.")
    bounds = _checked_bounds(bounds)
    name = function_name(function) if name is None else name
    if not greater_is_better:
        name = None if name is None else f"neg_{name}"
        bounds = None if bounds is None else tuple(None if b is None else 0.0 - b for b in reversed(bounds))
    return Metric(function, name, bounds, greater_is_better, kwargs)
