"""Regime: two learners' forward validation (time order), decided by :mod:`.._forward_decision`."""

from ...records import PairedForwardResult
from .._decision_types import Decision, DecisionTest, answer_of
from .._forward_decision import forward_decision
from .._judging import candidate_of_test
from ._regime import Regime

_FORWARD_METRICS = {"squared_error": ("neg_mean_squared_error",), "absolute_error": ("neg_mean_absolute_error",)}


def forward_metrics(loss):
    """The metrics a forward record's ``loss`` answers for: the default ("accuracy"), the loss itself and
    scikit-learn's scorer of it."""
    return ("accuracy", loss, *_FORWARD_METRICS[loss])


def _forward(pair, metric, confidence_level, tests, nested, names):
    """decide() on two learners' forward validation (:mod:`._forward_decision`)."""
    loss = pair.a.loss_name
    if not isinstance(metric, str) or metric not in forward_metrics(loss):
        raise ValueError(f"decide on forward validation answers for the records' loss ({loss!r}); got metric="
                         f"{metric!r}. Leave metric out, or evaluate with the loss wanted "
                         "(CVEvaluator(loss='absolute_error'), ...).")
    if tests is not None or nested is not None:
        raise ValueError("tests and nested are not read on forward validation: the decision rests on Diebold & "
                         "Mariano's test over every forecast. Drop them.")
    names = tuple(names) if names is not None else (pair.a.name or "A", pair.b.name or "B")

    def build(test, name, measured, power, regime, caveats, reason):
        candidate = candidate_of_test(name, test, confidence_level)
        rests_on = DecisionTest(**candidate.figures(), measured_type_i=measured, measured_power=power,
                                regime=regime, role="rests on", why_not="")
        return Decision(answer=answer_of(rests_on, 1 - confidence_level), names=names, metric=loss,
                        target=rests_on.target, confidence_level=confidence_level, difference=float(test.estimate),
                        rests_on=rests_on, context=(), reason=reason, route="", caveats=tuple(caveats),
                        lower_is_better=True)

    return forward_decision(pair, names, confidence_level, build)


REGIME = Regime("forward", "forward validation (a PairedForwardResult): Diebold & Mariano's test over every "
                "forecast", lambda request: isinstance(request.pair, PairedForwardResult),
                lambda request, again: _forward(request.pair, request.metric, request.confidence_level, request.tests,
                                                request.nested, request.names))
