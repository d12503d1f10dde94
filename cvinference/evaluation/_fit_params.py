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


def routed_fit_params(estimators, params):
    """``params`` as each estimator's ``fit`` takes them: as given, or, where scikit-learn's metadata routing is
    enabled (``sklearn.set_config(enable_metadata_routing=True)``), only those the estimator requests
    (``set_fit_request``), as ``cross_validate`` routes them; a parameter no estimator requests raises
    scikit-learn's ``UnsetMetadataPassedError`` (a ValueError), before any fit. Two estimators must take the same
    ones, since one set of fit parameters goes to every fit."""
    import sklearn

    if not params or not sklearn.get_config().get("enable_metadata_routing", False):
        return params
    from sklearn.exceptions import UnsetMetadataPassedError
    from sklearn.utils.metadata_routing import MetadataRouter, MethodMapping, process_routing

    names = ["estimator"] if len(estimators) == 1 else ["estimator_a", "estimator_b"]
    router = MetadataRouter(owner="cvinference")
    for name, estimator in zip(names, estimators, strict=True):
        router.add(**{name: estimator}, method_mapping=MethodMapping().add(caller="fit", callee="fit"))
    try:
        found = process_routing(router, "fit", **params)
    except UnsetMetadataPassedError as exc:  # scikit-learn names the caller "cvinference.fit"; say params
        raise UnsetMetadataPassedError(message=str(exc).replace("cvinference.fit", "cvinference's params"),
                                       unrequested_params=exc.unrequested_params,
                                       routed_params=exc.routed_params) from None
    except TypeError as exc:
        raise TypeError(str(exc).replace("cvinference.fit", "params")) from None
    routed = [dict(found[name].fit) for name in names]
    if any(set(found) != set(routed[0]) for found in routed[1:]):
        raise ValueError(f"params: with metadata routing the two estimators request different fit parameters "
                         f"({sorted(routed[0])} and {sorted(routed[1])}); one set goes to every fit, so request the "
                         "same ones (set_fit_request) or pass only those both take.")
    return routed[0]
