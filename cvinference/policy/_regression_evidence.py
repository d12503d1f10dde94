"""What the calibration benchmark measured of ``regression_interval``, and the warning where it fell short.

The benchmark's regression rows (``"task": "regression"``) key a method by
its id and its metric, with the CV-CLT's variance or the repeats of its
pooled interval (:class:`~cvinference.policy._evidence.CoverageKey`):
``CoverageKey("cv-clt", metric="mean_squared_error",
variance="within-fold")``, ``CoverageKey("cv-clt", metric="r2", repeats=10)``
(the pooled interval of a 10 x 10-fold result), ``CoverageKey("nested-cv",
metric="mean_squared_error")`` (``nested_cv_interval``). A result is matched
to the cells as an accuracy result is
(:func:`~cvinference.policy._evidence.regime_of`).
"""

from ._evidence import (
    CoverageKey,
    coverage_methods,
    coverage_regime,
    evidence_source,
    learner_of_result,
    measured_coverage,
    measured_scheme,
)

_POOLED = 10
"""The benchmark's pooled rows are the intervals of 10 x 10-fold results."""

_ROUTES = {
    CoverageKey("cv-clt", variance="within-fold"): "regression_interval(variance='within-fold') on one repeat",
    CoverageKey("cv-clt", variance="all-pairs"): "regression_interval(variance='all-pairs') on one repeat",
    CoverageKey("cv-clt", repeats=_POOLED): f"regression_interval on {_POOLED} repeats of the cross-validation, "
                                            f"pooled (n_repeats={_POOLED})",
    CoverageKey("nested-cv"): "nested_cv_interval (nested cross-validation, which refits the learner)",
}
"""What a user calls to get each measured method (whatever its metric)."""

_TASK, _TARGET = "regression", "kfold"


def _route(key):
    return _ROUTES.get(key._replace(metric=None), str(key))


def _own_methods(metric, variance, n_pooled):
    """The keys of the interval computed: one repeat's with ``variance``, or the pooled one; between one and ten
    pooled repeats, both (the worse stands, as between two measured sizes)."""
    one = CoverageKey("cv-clt", metric=metric, variance=variance)
    pooled = CoverageKey("cv-clt", metric=metric, repeats=_POOLED)
    if n_pooled == 1:
        return [one]
    return [pooled] if n_pooled >= _POOLED else [one, pooled]


def _alternative(metric, own, regime, what):
    """The sentence naming a measured method that held in the regime's cells, or the refitting route."""
    measured = {key: measured_coverage(key, _TARGET, regime, _TASK)
                for key in coverage_methods(_TARGET, _TASK) if key.metric == metric and key not in own}
    holding = {name: m for name, m in measured.items() if m is not None and not m.falls_short}
    if holding:
        best = min(holding.values(), key=lambda m: m.deviation)
        return f" What held there: {_route(best.method)}, {best.worst:.3f} in its worst cell ({best.worst_cell})."
    nested = measured.get(CoverageKey("nested-cv", metric=metric))
    if nested is not None:
        return (f" No method the benchmark measured held there: {_route(nested.method)} also fell short "
                f"({nested.worst:.3f} in {nested.worst_cell}).")
    return (" No interval computable from the record held there; nested_cv_interval, which refits the learner, is "
            f"the other route, and the benchmark did not measure it for the {what}.")


def cv_clt_shortfall(learner, n_samples, metric, variance, n_pooled):
    """The worst :class:`~cvinference.policy._evidence.Measured` cell where the benchmark measured the CV-CLT
    interval of ``metric`` ("mean_squared_error", ...) with ``variance``, pooling ``n_pooled`` repeats, falling
    short of its kfold target for ``learner`` (a :class:`~cvinference.policy._evidence.Learner`) at
    ``n_samples``, with that regime; None where it held or was not measured."""
    regime = coverage_regime(_TARGET, learner, n_samples, _TASK)
    if not regime.sizes:
        return None
    own = _own_methods(metric, variance, n_pooled)
    short = [m for m in (measured_coverage(name, _TARGET, regime, _TASK) for name in own) if m and m.falls_short]
    return (min(short, key=lambda m: m.worst), regime) if short else None


def regression_evidence_warning(result, metric, what, variance, n_pooled, messages):
    """Warn when the benchmark measured ``regression_interval(result, metric, variance=...)`` falling short of its
    kfold target in the cells that stand for the result; ``what`` is the metric in words, ``n_pooled`` the number
    of repeats the interval pools."""
    found = measured_scheme(result) and cv_clt_shortfall(learner_of_result(result), result.n_samples, metric,
                                                         variance, n_pooled)
    if not found:
        return
    worst, regime = found
    own = _own_methods(metric, variance, n_pooled)
    messages.warn(
        f"The CV-CLT interval of the {what} (measured in the benchmark as {worst.method}) covered its kfold target "
        f"(the {what} of the models fitted in the folds) only {worst.worst:.3f} of the time at 95% in its worst cell "
        f"({worst.worst_cell}), among the cells of {regime.describe()} in {evidence_source()}."
        + _alternative(metric, own, regime, what) + "".join(f" {caveat}" for caveat in regime.caveats())
    )
