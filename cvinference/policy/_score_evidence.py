"""What the calibration evidence owes DeLong's interval of cross-validated scores.

DeLong's variance is that of one scoring rule, given, on independent
instances; out-of-fold scores come from the k models fitted in the folds.
``benchmarks/calibration.py --metrics`` measured how often
``metric_interval(result, "roc_auc", method="delong")`` covers each target
(the evidence's rows of task ``"roc_auc"``, method ``"delong"``); this module
turns those figures into the warning an explicit ``method="delong"`` owes a
cross-validated record, with the same regime (learner by type, neighbouring
sizes, worst cell) as the accuracy intervals' warnings.
"""

from ._evidence import (
    CoverageKey,
    coverage_regime,
    evidence_source,
    learner_of_result,
    measured_coverage,
    measured_scheme,
    reaches_floor,
)

TASK = "roc_auc"
"""The task of the evidence's ROC AUC rows (binary AUC, scored by ``predict_proba``)."""

_AUC_TARGETS = {
    "kfold": "the mean held-back AUC of the fold models",
    "unconditional": "the learner's expected AUC at this training size",
}
"""The two targets the warning names, in words: the interval's own, and the learner's."""


def _measured(method_id, target, result):
    """The regime of ``result`` among the ROC AUC rows of ``target``, and the coverage of ``metric_interval``'s
    ``method_id`` there."""
    regime = coverage_regime(target, learner_of_result(result), result.n_samples, task=TASK)
    found = measured_coverage(CoverageKey(method_id), target, regime, task=TASK) if regime.sizes else None
    return regime, found


def delong_evidence_warning(result, metric, messages):
    """Warn when ``metric_interval(result, metric, method="delong")`` is computed on a cross-validated record whose
    regime the benchmark measured DeLong's interval below the floor in (its own target, the k-fold AUC).

    The warning names the worst cell's coverage of the k-fold target and of the unconditional one, and the
    corrected t's coverage of the unconditional target where it reached the floor. A record the benchmark did not
    measure (a holdout: one fold; leave-one-out) gets no warning: one model scored the instances, DeLong's setting.
    """
    if not measured_scheme(result):
        return
    regime, own = _measured("delong", "kfold", result)
    if own is None or reaches_floor(own):
        return
    _, learner = _measured("delong", "unconditional", result)
    _, corrected = _measured("corrected-t", "unconditional", result)
    binary = "" if metric == TASK else f" (measured for the binary AUC, {TASK!r})"
    learners = (f", and {_AUC_TARGETS['unconditional']} (unconditional) {learner.worst:.3f}"
                if learner is not None else "")
    instead = (f" method='corrected-t' (what 'auto' gives) covered the unconditional AUC {corrected.worst:.3f} of "
               f"the time there." if reaches_floor(corrected) else " method='corrected-t' (what 'auto' gives) "
               "respects the folds.")
    messages.warn(
        f"DeLong's interval of the pooled out-of-fold scores covered {_AUC_TARGETS['kfold']} (kfold, its target) "
        f"only {own.worst:.3f} of the time at 95% for {regime.describe()} ({own.worst_cell}){learners}, in "
        f"{evidence_source()}{binary}: its variance treats the {result.n_splits} fold models' scores as one model's "
        f"and leaves out the variation of training sets (docs/calibration.md, ROC AUC).{instead}"
    )
