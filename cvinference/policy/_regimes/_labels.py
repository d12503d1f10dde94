"""Regime: accuracy and the other metrics of predicted labels (balanced accuracy, F1, ...), on k-fold records."""

import math

from ..._utils._text import listed
from ..._utils._warnings import quietly
from ...inference._methods import display_label, method_row
from ...inference._paired_tests import independent_sample_test, matched_sample_test, mcnemar_test
from ...inference._resampled_tests import corrected_resampled_ttest
from .._baselines import baseline_caveats
from .._decision_routes import cannot_tell_route
from .._decision_types import Decision, answer_of
from .._evidence import evidence_source, pair_learners, type_i_limit
from .._judging import (
    as_decision_test,
    candidate_of_nested,
    candidate_of_test,
    choose,
    cluster_paired_name,
    judge,
    metric_test,
    reason_not_chosen,
)
from .._routes import label_task
from ._regime import Regime, warn_unused


def pair_tests(pair, *, min_count=5):
    """Every test of accuracy(A) = accuracy(B) the records allow, as (name, result).

    Wong's per-partition tests assume one partition of the data, so with
    several repeats they use repeat 0 and are named "(repeat 0)"; the
    corrected repeated k-fold t, made for repeats, uses all of them and is
    named "corrected t (RxK-fold)".

    Parameters
    ----------
    pair : PairedCVResult
        Both learners' records, on identical folds.
    min_count : int, default=5
        The smallest count the large-sample conditions accept (Wong's 5).
    """
    a, b = pair.a, pair.b
    repeat = None if a.n_repeats == 1 else 0
    suffix = "" if repeat is None else " (repeat 0)"
    tests = []
    if a.n_splits >= 2:
        tests.append((display_label("matched-t", suffix),
                      quietly(matched_sample_test, a, b, repeat=repeat, min_count=min_count)))
    tests += [(display_label("independent-z", suffix),
               quietly(independent_sample_test, a, b, repeat=repeat, min_count=min_count)),
              (display_label("mcnemar", suffix), quietly(mcnemar_test, a, b, repeat=repeat))]
    if a.n_splits >= 2 and not a.is_loo:
        tests.append((display_label("corrected-t", f" ({a.n_repeats}x{a.n_splits}-fold)"),
                      quietly(corrected_resampled_ttest, a, b)))
    if a.groups is not None:
        tests += [(display_label("mcnemar-obuchowski", suffix),
                   quietly(mcnemar_test, a, b, method="mcnemar-obuchowski", repeat=repeat))]
        if a.loss_name == "zero_one":
            tests.append((cluster_paired_name(a), quietly(matched_sample_test, a, b, method="cluster-paired-t")))
    return tests


def _candidates(pair, metric, tests, nested, confidence_level, pos_label):
    """The :class:`Candidate` of each test about ``metric``, the metric's name and A - B observed."""
    if metric == "accuracy":
        if pos_label is not None:
            raise ValueError(f"pos_label={pos_label!r} is for a binary metric about one class, such as metric='f1'; "
                             "accuracy counts every class alike. Drop pos_label, or pass such a metric.")
        found = [candidate_of_test(name, test, confidence_level) for name, test in tests]
        if nested is not None:
            found.append(candidate_of_nested(nested))
        return found, "accuracy", pair.a.accuracy - pair.b.accuracy
    name, test, metric_name, difference = metric_test(pair, metric, pos_label)
    return [candidate_of_test(name, test, confidence_level)], metric_name, difference


def _caveats(judged_tests, chosen, metric, pair, accuracy_difference, answer):
    caveats = []
    regime = chosen["evidence"].regime if chosen else next(
        (j["evidence"].regime for j in judged_tests if j["evidence"].regime is not None), None)
    if regime is not None:
        caveats += regime.caveats()
    if chosen and metric != "accuracy" and label_task(metric) == "classification":
        caveats.append(f"The calibration benchmark measured the corrected t on accuracy; its type-I error for "
                       f"{metric} was not measured and is assumed alike.")
    measured_repeats = chosen["evidence"].repeats if chosen else ()
    if chosen and chosen["candidate"].row is method_row("corrected-t") and measured_repeats and (
            pair.a.n_repeats not in measured_repeats):
        caveats.append(f"The benchmark measured the corrected t on {listed(map(str, measured_repeats))} x 10-fold "
                       f"cross-validation; here it runs on {pair.a.n_repeats} x {pair.a.n_splits}-fold.")
    if metric != "accuracy" and answer in ("A better", "B better") and pair.a.classes is not None:
        better_on_metric = 1 if answer == "A better" else -1
        if accuracy_difference * better_on_metric < 0:
            more = "A" if accuracy_difference > 0 else "B"
            caveats.append(f"Accuracy says the opposite: {more} is more accurate by "
                           f"{100 * abs(accuracy_difference):.1f} percentage points. The decision is about "
                           f"{metric}, as asked.")
    return tuple(caveats)


def _decide(request, again):
    """decide() on accuracy or another label metric: the calibrated test of most measured power, else "cannot
    tell" with the route that would settle it."""
    warn_unused(request)
    pair, metric, nested, names = request.pair, request.metric, request.nested, request.names
    confidence_level, pos_label = request.confidence_level, request.pos_label
    alpha, limit, learners = 1 - confidence_level, type_i_limit(), pair_learners(pair)
    tests = pair_tests(pair) if request.tests is None and metric == "accuracy" else (request.tests or [])
    candidates, metric_name, difference = _candidates(pair, metric, tests, nested, confidence_level, pos_label)
    task = label_task(metric_name)
    judged = [judge(candidate, learners, pair.a.n_samples, limit, task, pair.a.n_repeats) for candidate in candidates]
    chosen = choose(judged)
    context = tuple(as_decision_test(j, "context", reason_not_chosen(j, chosen)) for j in judged if j is not chosen)
    accuracy_difference = pair.a.accuracy - pair.b.accuracy if pair.a.classes is not None else math.nan
    if chosen is None:
        reasons = "; ".join(f"{j['candidate'][0]}: {j['why']}" for j in judged) or "no test applies"
        return Decision(
            answer="cannot tell", names=names, metric=metric_name, target=None, confidence_level=confidence_level,
            difference=float(difference), rests_on=None, context=context,
            reason=(f"No test computable here kept its type-I error at or below {limit:g} in "
                    f"{evidence_source()} for these learners at N = {pair.a.n_samples} ({reasons})."),
            route=cannot_tell_route(pair, metric_name, nested),
            caveats=(*baseline_caveats(pair, names, alpha),
                     *_caveats(judged, None, metric_name, pair, accuracy_difference, "cannot tell")))
    rests_on = as_decision_test(chosen, "rests on", "")
    answer = answer_of(rests_on, alpha)
    power = chosen["evidence"].power
    reason = (f"It rests on {rests_on.name}, the test whose type-I error the calibration benchmark measured at "
              f"{chosen['evidence'].type_i:.3f} (at most {limit:g}) for {chosen['regime']}"
              + (f", with power {power:.2f} on its power cells" if power is not None else "") + ".")
    return Decision(answer=answer, names=names, metric=metric_name, target=rests_on.target,
                    confidence_level=confidence_level, difference=float(difference), rests_on=rests_on,
                    context=context, reason=reason, route="",
                    caveats=(*baseline_caveats(pair, names, alpha),
                             *_caveats(judged, chosen, metric_name, pair, accuracy_difference, answer)))


REGIME = Regime("labels", "accuracy or another metric of predicted labels (balanced accuracy, F1, a callable): the "
                "calibrated test of most measured power", lambda request: True, _decide)
