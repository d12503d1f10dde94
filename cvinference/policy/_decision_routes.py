"""The route of a "cannot tell", in words: the calibrated refitting route of most measured power (more
repeats of the cross-validation, or nested cross-validation) and the call that runs it.
"""

from ._evidence import measured_reach, pair_learners, type_i_limit
from ._judging import evidence_of
from ._routes import NESTED_SETTINGS, most_powerful, nested_fits, nested_route, power_words, repeats_routes


def _repeats_words(pair, metric, route):
    """The sentence of a route to more repeats of the cross-validation, and the call that runs it."""
    evidence, metric_argument = route.evidence, "" if metric == "accuracy" else f", metric={metric!r}"
    return (f"The corrected t on {route.repeats} x {route.n_splits}-fold cross-validation kept its type-I error at or "
            f"below {type_i_limit():g} (its worst: {evidence.type_i:.3f}) for {evidence.regime.describe()}: "
            f"cvinference.compare(estimator_a, estimator_b, X, y{metric_argument}, cv={route.n_splits}) runs it when "
            f"the decision needs it (by hand, n_repeats={route.repeats}; on the command line, --repeats "
            f"{route.repeats}): {route.fits} fits.")


def metric_route(pair, metric):
    """The route of a set-level (or score) metric's "cannot tell": the most powerful number of repeats the benchmark
    measured holding, else why none settles it."""
    routes = repeats_routes(pair, metric)
    chosen = most_powerful(routes)
    if chosen is None:
        return (f"No route settles {metric} here: the benchmark measured no number of repeats of the corrected t on "
                f"fold {metric} within {type_i_limit():g} for these learners at N = {pair.a.n_samples}, and nested "
                "cross-validation covers per-instance losses (accuracy, a regressor's loss), not a set-level metric.")
    return _repeats_words(pair, metric, chosen) + power_words(routes)


def cannot_tell_route(pair, metric, nested):
    """The route of a "cannot tell" on accuracy: the most powerful calibrated one (:func:`most_powerful`), more
    repeats or nested cross-validation; nested cross-validation, for context, where neither is calibrated."""
    if nested is not None:
        return ""
    fits = pair.a.n_splits * pair.a.n_repeats * 2
    if metric != "accuracy":
        return metric_route(pair, metric)
    routes = [route for route in (nested_route(pair), *repeats_routes(pair, metric)) if route is not None]
    chosen = most_powerful(routes)
    if chosen is not None and chosen.repeats is not None:
        return _repeats_words(pair, metric, chosen) + power_words(routes)
    judged = evidence_of("nested-cv", pair_learners(pair),
                         pair.a.n_samples, type_i_limit())
    runs = "runs it when the decision needs it" if not judged["why"] else "runs it with nested='always'"
    call = (f"cvinference.compare(estimator_a, estimator_b, X, y) {runs} (on the command line, --nested "
            f"{'always' if judged['why'] else 'auto'}; by hand, nested_cv_interval(estimator_a, X, y, "
            f"estimator_b=estimator_b, n_splits={NESTED_SETTINGS['n_splits']}, "
            f"n_repeats={NESTED_SETTINGS['n_repeats']})): {nested_fits()} fits, {nested_fits() / fits:.1f} times "
            f"the {fits} of this cross-validation")
    if not judged["why"]:
        return (f"Nested cross-validation's difference interval kept its type-I error at or below {type_i_limit():g} "
                f"(its worst: {judged['evidence'].type_i:.3f}) for {judged['regime']}: {call}."
                + power_words(routes))
    worst, cells = measured_reach("nested-cv")
    measured = "" if worst is None else f" (the benchmark measured it for {cells})"
    return (f"Nested cross-validation's difference interval cannot settle it either: {judged['why']}{measured}; "
            f"{call}, for context only.")
