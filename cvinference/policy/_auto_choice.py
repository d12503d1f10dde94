"""``accuracy_interval(method="auto")``: Wong's conditions first, then the calibration benchmark's evidence."""

from typing import NamedTuple

from ..inference._accuracy_interval import CLUSTER_METHODS
from ..inference._estimands import AUTO_NOTE, TARGETS, conditions_warning
from ..inference._methods import row
from ._evidence import (
    coverage_regime,
    evidence_source,
    grouped_task,
    learner_of_result,
    measured_coverage,
    measured_scheme,
    reaches_floor,
)


def _benchmark_name(averaging, method):
    """The name of ``accuracy_interval(averaging=..., method=...)``'s rows in the evidence: its row's evidence key
    (docs/methods.md), at the averaging it was measured at (Wong's t at the fold level, the others at the dataset
    level); None where it was not measured."""
    found = row("accuracy_interval", method)
    measured_at = "fold" if method == "t" else "dataset"
    return found.evidence_key if found is not None and averaging == measured_at else None


_REFITTING_ADVICE = {
    "kfold": "",
    "conditional": " nested_cv_interval refits the learner to estimate the error of the model fitted to all "
                   "the data, and the calibration page shows how it fares.",
    "unconditional": " nested_cv_interval, which refits the learner, covered the unconditional error in every "
                     "cell the benchmark measured with independent instances (with groups, as low as 0.87: "
                     "docs/calibration.md, Grouped data); conservative_z_interval covers it at half the training "
                     "size only.",
}


class Choice(NamedTuple):
    method: str
    averaging: str


class GroupedCells(NamedTuple):
    """Where the evidence keeps a grouped interval's coverage: the rows of ``task``, the interval named
    "<label>: <name>" (plain "<name>" without a label), and what it is of, in words."""

    task: str = grouped_task(classification=True)
    label: str = ""
    what: str = "error"
    kfold_words: str = TARGETS["kfold"]  # what the kfold target is, in words

    def row_name(self, method):
        name = _benchmark_name("dataset", method)
        return f"{self.label}: {name}" if self.label else name

    def target_words(self, target):
        return self.kfold_words if target == "kfold" else TARGETS[target]


ACCURACY_CELLS = GroupedCells()
"""The grouped accuracy intervals' cells."""


def _shortfall_warning(target, regime, measured, cells=ACCURACY_CELLS):
    return (f"The calibration benchmark found no interval computable from a cross-validation result that "
            f"covers the {target} {cells.what} ({cells.target_words(target)}) at the nominal rate for "
            f"{regime.describe()}: the "
            f"best, {measured.method}, covered it {measured.worst:.3f} of the time at 95% in its worst cell "
            f"({evidence_source()}).{_REFITTING_ADVICE[target]}")


def evidence_warning(result, averaging, method, target, messages):
    """Warn when the benchmark measured ``method`` falling short of ``target`` in the result's regime."""
    if not measured_scheme(result):
        return
    name = _benchmark_name(averaging, method)
    regime = coverage_regime(target, learner_of_result(result), result.n_samples)
    measured = None if name is None or not regime.sizes else measured_coverage(name, target, regime)
    if measured is not None and measured.falls_short:
        messages.warn(
            f"The {method} interval covered the {target} error ({TARGETS[target]}) only {measured.worst:.3f} of "
            f"the time at 95% for {regime.describe()} in {evidence_source()}."
            + _REFITTING_ADVICE[target]
        )


def _grouped_measured(result, target, cells):
    """The grouped cells' regime of ``result`` (sized by its groups) and each cluster interval's coverage there."""
    regime = coverage_regime(target, learner_of_result(result), result.n_groups, task=cells.task)
    if not regime.sizes or not measured_scheme(result):
        return regime, {}
    return regime, {method: measured_coverage(cells.row_name(method), target, regime, task=cells.task)
                    for method in CLUSTER_METHODS}


def grouped_evidence_warning(result, method, target, messages, cells=ACCURACY_CELLS):
    """Warn when the benchmark measured the cluster interval ``method`` below the floor for ``target`` in the
    result's regime, or did not measure it for that target."""
    regime, measured = _grouped_measured(result, target, cells)
    half = measured.get("cluster-half-sample")
    advice = (f" method='cluster-half-sample' covered it {half.worst:.3f} of the time there."
              if method == "cluster" and reaches_floor(half) else "")
    _warn_grouped_coverage(method, target, regime, measured.get(method), messages, cells, advice)


def _warn_grouped_coverage(method, target, regime, found, messages, cells, advice=""):
    """The warning of :func:`grouped_evidence_warning`, given the regime and the measured coverage ``found``;
    ``advice`` names a measured interval that held."""
    if found is not None and not reaches_floor(found):
        messages.warn(f"The {method} interval covered the {target} {cells.what} ({cells.target_words(target)}) only "
                      f"{found.worst:.3f} of the time at 95% for {regime.describe()} ({found.worst_cell}) in "
                      f"{evidence_source()}." + (advice or _REFITTING_ADVICE[target]))
    elif found is None and target != "kfold":
        messages.warn(f"The {method} interval is built for the kfold target ({TARGETS['kfold']}); as an interval "
                      f"for the {target} error it was not calibrated (docs/calibration.md, Grouped data).")


def grouped_choice(result, target, messages, cells=ACCURACY_CELLS):
    """A record made with groups: the cluster-robust interval, or its half-sample form where the benchmark measured
    the cluster-robust one below the floor in the result's regime and the half-sample one at or above it.

    On grouped records the floor applies to the measured coverage itself, not to its Wilson interval: the
    stricter rule, which takes the wider interval where a shortfall may be Monte-Carlo noise
    (docs/dependent-data.md, "Few groups").
    """
    reason = (f"because the result was made with groups (its {result.n_groups} groups, not its instances, are the "
              "independent units)")
    regime, measured = _grouped_measured(result, target, cells)
    cluster, half = measured.get("cluster"), measured.get("cluster-half-sample")
    if cluster is None or reaches_floor(cluster):
        messages.note(f"{AUTO_NOTE} the cluster-robust interval {reason}")
        _warn_grouped_coverage("cluster", target, regime, cluster, messages, cells)
        return Choice("cluster", "dataset")
    shortfall = (f"the cluster-robust interval covered the {target} {cells.what} only {cluster.worst:.3f} of the "
                 f"time at 95% for {regime.describe()} ({cluster.worst_cell}) in {evidence_source()}")
    if reaches_floor(half):
        messages.note(f"{AUTO_NOTE} the cluster-robust half-sample interval {reason} and {shortfall}; the "
                      f"half-sample one, with twice its variance, covered it {half.worst:.3f} of the time there")
        return Choice("cluster-half-sample", "dataset")
    choice = max((c for c in (cluster, half) if c is not None), key=lambda c: c.worst)
    method = "cluster-half-sample" if choice is half else "cluster"
    messages.note(f"{AUTO_NOTE} the {method} interval, the best measured for the {target} {cells.what} for "
                  f"{regime.describe()}, {reason}")
    messages.warn(_shortfall_warning(target, regime, choice, cells))
    return Choice(method, "dataset")


def _fold_level_choice(result, wong, conditions, conditions_hold, target, messages):
    """``averaging="fold"`` was asked for: keep Wong's t, the only fold-level interval, and say when it is weak."""
    messages.note(f"{AUTO_NOTE} Wong's fold-level t interval, the only interval at the averaging asked for")
    if not conditions_hold:
        messages.warn(conditions_warning(f"({conditions.describe()}), so the t approximation may be poor; "
                                         "averaging='dataset' (method='auto') gives the exact Clopper-Pearson "
                                         "interval."))
    elif measured_scheme(result):
        evidence_warning(result, wong.averaging, wong.method, target, messages)
    return wong


def choose_auto(result, averaging, conditions, conditions_hold, target, messages):
    """The (method, averaging) that ``method="auto"`` uses, with the note (and warning) that says why.

    ``averaging`` is the user's and is kept: at the fold level, Wong's t is
    the only interval, and a warning says when it is weak. At the dataset
    level, the cluster-robust interval for a record made with groups, else
    Wong's method when his large-sample conditions hold,
    unless the benchmark measured it falling short of ``target`` in the
    result's regime; the exact Clopper-Pearson interval when they fail; in
    between, the interval (Wilson, Clopper-Pearson or Nedel'ko's
    half-sample) whose measured coverage is closest to nominal without
    falling short. When every
    candidate falls short, the one with the best worst-cell coverage, and a
    warning that names the regime.
    """
    wong = Choice("t" if averaging == "fold" else "normal", averaging)
    if result.groups is not None and averaging == "dataset":
        return grouped_choice(result, target, messages)
    if averaging == "fold":
        return _fold_level_choice(result, wong, conditions, conditions_hold, target, messages)
    if not conditions_hold:
        messages.note(f"{AUTO_NOTE} the exact Clopper-Pearson interval at the dataset level because the "
                      f"large-sample conditions fail: {conditions.describe()}")
        choice = Choice("clopper-pearson", "dataset")
        evidence_warning(result, choice.averaging, choice.method, target, messages)
        return choice
    if not measured_scheme(result):
        return wong
    regime = coverage_regime(target, learner_of_result(result), result.n_samples)
    candidates = [wong, Choice("clopper-pearson", "dataset"), Choice("wilson", "dataset"),
                  Choice("half-sample", "dataset")]
    measured = {c: measured_coverage(_benchmark_name(c.averaging, c.method), target, regime)
                for c in candidates if regime.sizes and _benchmark_name(c.averaging, c.method)}
    wong_measured = measured.get(wong)
    if wong_measured is None or not wong_measured.falls_short:
        return wong
    holding = [c for c, m in measured.items() if m is not None and not m.falls_short]
    if holding:
        choice = min(holding, key=lambda c: measured[c].deviation)
        messages.note(
            f"{AUTO_NOTE} the {choice.method} interval: the large-sample conditions hold, but Wong's {wong.method} "
            f"interval covered the {target} error only {wong_measured.worst:.3f} of the time at 95% for "
            f"{regime.describe()} in {evidence_source()}, and the {choice.method} interval "
            f"{measured[choice].worst:.3f}, the closest to nominal that did not fall short"
        )
        return choice
    found = {c: m for c, m in measured.items() if m is not None}
    choice = max(found, key=lambda c: found[c].worst)
    messages.note(f"{AUTO_NOTE} the {choice.method} interval, the best measured for the {target} error "
                  f"for {regime.describe()}")
    messages.warn(_shortfall_warning(target, regime, found[choice]))
    return choice
