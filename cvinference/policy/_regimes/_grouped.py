"""Regime: records made with groups, decided on accuracy (or a regressor's loss) by the tests that take the
groups as the independent units.
"""

from ..._utils._warnings import quietly
from ...inference._clusters import split_groups_warning
from ...inference._methods import display_label
from ...inference._paired_tests import matched_sample_test, mcnemar_test
from ...inference._regression import loss_words
from ...inference._resampled_tests import corrected_resampled_ttest
from .._baselines import baseline_caveats, mean_baseline_caveats
from .._evidence import grouped_task, type_i_limit
from .._judging import (
    UNMEASURED_WHY,
    candidate_of_nested,
    candidate_of_test,
    cluster_paired_name,
    fold_test_label,
    is_loss_metric,
    unmeasured_or_calibrated,
)
from ._regime import Regime

GROUPED_ORDER = ("nested-cv", "corrected-t", "mcnemar-obuchowski", "cluster-paired-t")
"""The order among a grouped pair's tests while the benchmark has measured none of them."""

_GROUPED_WHY = UNMEASURED_WHY | {
    "corrected-t": "over group-respecting folds each fold's difference averages whole groups, and its standard "
                   "error allows for the variation of training sets (Nadeau & Bengio 2003)",
    "mcnemar-obuchowski": "it takes the groups as the independent units (Obuchowski 1998); its "
                                      "target is the models fitted in these folds",
    "cluster-paired-t": "it takes the groups as the independent units (Cameron & Miller 2015); its target is the "
                        "models fitted in these folds",
}


def _grouped_candidates(pair, nested, confidence_level):
    """The tests of a grouped pair's accuracy or mean loss that take groups as the units, and nested CV when given."""
    a = pair.a
    found = []
    if a.n_splits >= 2 and not a.is_loo:
        words = "accuracy" if a.classes is not None else loss_words(a.loss_name)
        found.append(candidate_of_test(fold_test_label(words, a),
                                       quietly(corrected_resampled_ttest, pair), confidence_level))
    if a.classes is not None:
        repeat = 0 if a.n_repeats > 1 else None
        suffix = "" if repeat is None else " (repeat 0)"
        found.append(candidate_of_test(display_label("mcnemar-obuchowski", suffix),
                                       quietly(mcnemar_test, pair, method="mcnemar-obuchowski", repeat=repeat),
                                       confidence_level))
    if a.classes is None or a.loss_name == "zero_one":
        found.append(candidate_of_test(cluster_paired_name(a),
                                       quietly(matched_sample_test, pair, method="cluster-paired-t"), confidence_level))
    if nested is not None:
        found.append(candidate_of_nested(nested))
    return found


def _grouped_decision(pair, names, confidence_level, nested, limit):
    """decide() on accuracy (or a regressor's loss) for records made with groups: the tests that count groups."""
    a, b = pair.a, pair.b
    classification = a.classes is not None
    difference = a.accuracy - b.accuracy if classification else b.mean_loss - a.mean_loss
    common = {"names": names, "metric": "accuracy" if classification else loss_words(a.loss_name),
              "confidence_level": confidence_level, "difference": float(difference),
              "lower_is_better": not classification}
    caveats = [f"The instances come in {a.n_groups} groups: the decision considers only tests that take the groups "
               "as the independent units or average whole groups per fold; McNemar's test, Wong's z and the CV-CLT "
               "count instances and are left out."]
    split = split_groups_warning(a, range(a.n_repeats), "every test")
    if split:
        caveats.append(split)
    caveats += (baseline_caveats(pair, names, 1 - confidence_level) if classification
                else mean_baseline_caveats(pair, names, 1 - confidence_level))
    return unmeasured_or_calibrated(pair, _grouped_candidates(pair, nested, confidence_level), common, caveats,
                                    limit, task=grouped_task(classification),
                                    subject="learners on grouped instances",
                                    measures="independent instances", order=GROUPED_ORDER,
                                    order_why=_GROUPED_WHY)


def _applies(request):
    a = request.pair.a
    return a.groups is not None and (request.metric == "accuracy" or (
        a.classes is None and is_loss_metric(request.metric, a)))


REGIME = Regime("grouped", "records with groups, on accuracy or a regressor's loss: the tests that take the groups "
                "as the independent units", _applies,
                lambda request, again: _grouped_decision(request.pair, request.names, request.confidence_level,
                                                         request.nested, type_i_limit()))
