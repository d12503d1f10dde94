"""Fit parameters passed to every fit, as scikit-learn's ``cross_validate(params=...)`` passes them."""

from sklearn.utils.validation import _num_samples

from .._utils._params import Rule

WEIGHTS_REFUSED = (
    "would weigh the fits, and every interval here counts each test instance once: the accuracy and its intervals "
    "would be unweighted, another quantity than a weighted evaluation means. cvinference does not compute weighted "
    "intervals (they need the effective sample size (sum w)^2 / sum w^2 and a variance under the weights). Drop "
    "sample_weight, or weigh inside the estimator (class_weight=... where it has it)"
)


class FitParams(Rule):
    """``params``: None, or a dict of fit parameters by name; one of one value per row is cut to each fit's rows.

    ``sample_weight`` is refused (see ``WEIGHTS_REFUSED``), and so is
    ``groups``, which has a parameter of its own.

    Examples
    --------
    >>> FitParams().check("params", {"sample_weight": [1, 2]})
    Traceback (most recent call last):
    ...
    ValueError: params['sample_weight'] would weigh the fits, ...; got params={'sample_weight': [1, 2]}.
    """

    def describe(self):
        return "None or a dict of fit parameters by name, such as {'eval_set': ...}"

    def check(self, name, value):
        if value is None:
            return None
        if not isinstance(value, dict) or not all(isinstance(key, str) for key in value):
            raise TypeError(f"{name} must be {self.describe()}; got {name}={value!r:.80}.")
        if "sample_weight" in value:
            raise ValueError(f"{name}['sample_weight'] {WEIGHTS_REFUSED}; got {name}={value!r:.80}.")
        if "groups" in value:
            raise ValueError(f"{name}['groups']: groups are the splitter's, not a fit parameter; pass groups=groups; "
                             f"got {name}={value!r:.80}.")
        return dict(value)

    def invalid_values(self):
        return [([("a", 1)], TypeError), ({1: 2}, TypeError), ({"sample_weight": [1.0]}, ValueError),
                ({"groups": [0]}, ValueError)]


def _num_rows(value):
    """The number of rows of an array-like fit parameter, or None for a scalar or other object."""
    try:
        return _num_samples(value)
    except TypeError:
        return None


def fold_fit_params(fit_params, train, n_samples, rows):
    """The fit parameters of one fit: those of one value per row cut to ``train`` by ``rows`` (None: every row), as
    scikit-learn's ``cross_validate(params=...)`` cuts them; the others as given."""
    if not fit_params:
        return {}
    return {name: (rows(value, train) if _num_rows(value) == n_samples else value)
            for name, value in fit_params.items()}
