"""The decision's caveats about a learner that does not beat the trivial one: the no-information rate of a
classifier (caret's), the training mean of a regressor.
"""

from .._utils._text import format_figure, format_pvalue
from .._utils._warnings import quietly
from ..inference._no_information import baseline_test_words, no_information_test
from ..inference._regression import BASELINES, loss_words, mean_baseline_test


def baseline_caveats(pair, names, alpha):
    """A sentence for each learner that does not beat the no-information rate (caret's P-Value [Acc > NIR])."""
    caveats = []
    for name, result in zip(names, (pair.a, pair.b), strict=True):
        test = quietly(no_information_test, result)
        if not test.pvalue < alpha:
            rate, majority = test.details["no_information_rate"], test.details["majority_class"]
            caveats.append(f"{name} does not beat the no-information rate: always predicting {majority!r} scores "
                           f"{rate:.4f}, and its accuracy {result.accuracy:.4f} is not above it "
                           f"({format_pvalue(test.pvalue)}, {baseline_test_words(test)}).")
    return caveats


def mean_baseline_caveats(pair, names, alpha):
    """A sentence for each regressor whose loss is not below the trivial regressor's (the training mean)."""
    if pair.a.loss_name not in BASELINES or pair.a.n_train is not None or pair.a.n_splits < 2:
        return []
    words = loss_words(pair.a.loss_name)
    tests = [quietly(mean_baseline_test, result, variance="all-pairs" if int(result.fold_sizes.min()) < 2
                     else "within-fold") for result in (pair.a, pair.b)]
    baseline = tests[0].details
    relative = "R² relative to the baseline" if pair.a.loss_name == "squared_error" else "relative reduction"
    caveats = [f"Baseline: the trivial regressor, predicting the training {baseline['baseline']} of y in each fold, "
               f"has {words} {format_figure(baseline['baseline_loss'])} ({names[0]} "
               f"{format_figure(tests[0].details['mean_loss'])} and {names[1]} "
               f"{format_figure(tests[1].details['mean_loss'])}: {relative} {tests[0].details['relative']:.2f} and "
               f"{tests[1].details['relative']:.2f})."]
    for name, test in zip(names, tests, strict=True):
        if not test.pvalue < alpha:
            caveats.append(f"{name} does not beat the trivial regressor: its {words} "
                           f"{format_figure(test.details['mean_loss'])} is not below the baseline's "
                           f"({format_pvalue(test.pvalue)}, {baseline_test_words(test)}; "
                           "mean_baseline_test).")
    return caveats
