"""``accuracy_interval(method="auto")``: Wong's conditions first, then the calibration benchmark's evidence."""

from typing import NamedTuple

from .._utils._warnings import Messages, quietly
from ..inference._accuracy_interval import CLUSTER_METHODS
from ..inference._estimands import AUTO_NOTE, LEARNER_TARGETS, TARGETS, conditions_warning
from ._evidence import (
    CoverageKey,
    coverage_floor,
    coverage_regime,
    evidence_source,
    grouped_task,
    learner_of_result,
    measured_coverage,
    measured_scheme,
    reaches_floor,
)


def _benchmark_name(averaging, method):
    """The :class:`~._evidence.CoverageKey` of ``accuracy_interval(averaging=..., method=...)``'s rows in the evidence,
    keyed by its id, at the averaging it was measured at (Wong's t at the fold level, the others at the dataset
    level); None at another averaging (not measured)."""
    if (averaging == "fold") != (method == "t"):
        return None
    return CoverageKey(method, averaging="fold" if averaging == "fold" else None)


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


class Chosen(NamedTuple):
    """What ``method="auto"`` computes, and why in one short clause where the choice is not the rule's default
    (Wong's normal interval where his conditions hold, the exact one where they fail): "" otherwise."""

    method: str
    averaging: str
    why: str = ""


class GroupedCells(NamedTuple):
    """Where the evidence keeps a grouped interval's coverage: the rows of ``task``, of ``metric`` (a regression
    metric; None: accuracy), and what it is of, in words."""

    task: str = grouped_task(classification=True)
    metric: str | None = None
    what: str = "error"
    kfold_words: str = TARGETS["kfold"]  # what the kfold target is, in words

    def row_name(self, method):
        """The :class:`~._evidence.CoverageKey` of the cluster interval ``method``'s rows."""
        return CoverageKey(method, metric=self.metric)

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


def evidence_warning(result, averaging, method, target, messages, *, chosen=False):
    """Warn when the benchmark measured ``method`` falling short of ``target`` in the result's regime (its Wilson
    interval below the floor in a cell); for an interval ``method="auto"`` chose (``chosen``), whenever its measured
    coverage did not reach the floor in every cell, the rule by which auto chooses."""
    if not measured_scheme(result):
        return
    name = _benchmark_name(averaging, method)
    regime = coverage_regime(target, learner_of_result(result), result.n_samples)
    measured = None if name is None or not regime.sizes else measured_coverage(name, target, regime)
    if measured is not None and (not reaches_floor(measured) if chosen else measured.falls_short):
        messages.warn(
            f"The {method} interval covered the {target} error ({TARGETS[target]}) only {measured.worst:.3f} of "
            f"the time at 95% for {regime.describe()} in {evidence_source()}."
            + ((_half_sample_advice(target, regime) if chosen else "") or _REFITTING_ADVICE[target])
        )


def _half_sample_advice(target, regime):
    """A sentence naming Nedel'ko's half-sample interval where it reached the floor for ``target`` in ``regime``
    ("" where it did not)."""
    half = measured_coverage(_benchmark_name("dataset", "half-sample"), target, regime)
    return (f" method='half-sample' (Nedel'ko's, twice the binomial variance) covered it {half.worst:.3f} of the "
            "time there." if reaches_floor(half) else "")


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
        evidence_warning(result, wong.averaging, wong.method, target, messages, chosen=True)
    return wong


def _measured_choice(result, wong, target, messages, width_of):
    """Conditions hold at the dataset level on a measured scheme: Wong's interval where its measured coverage of
    ``target`` reached the floor in every cell of the result's regime, else the narrowest interval on this record
    among those whose coverage did; where none did, the best measured, with a warning; where nothing was measured,
    Wong's."""
    regime = coverage_regime(target, learner_of_result(result), result.n_samples)
    candidates = [wong, Choice("wilson", "dataset"), Choice("clopper-pearson", "dataset"),
                  Choice("half-sample", "dataset")]
    measured = {c: measured_coverage(_benchmark_name(c.averaging, c.method), target, regime)
                for c in candidates if regime.sizes}
    found = {c: m for c, m in measured.items() if m is not None}
    if not found:
        return wong
    qualifying = [c for c in candidates if reaches_floor(found.get(c))]
    if wong in qualifying:
        return wong
    if qualifying:
        choice = min(qualifying, key=lambda c: (width_of(c) if width_of else 0.0, qualifying.index(c)))
        wong_words = (f"Wong's {wong.method} interval covered the {target} error only {found[wong].worst:.3f} of the "
                      f"time at 95% ({found[wong].worst_cell})" if wong in found
                      else f"Wong's {wong.method} interval was not measured")
        messages.note(
            f"{AUTO_NOTE} the {choice.method} interval: the large-sample conditions hold, but {wong_words} for "
            f"{regime.describe()} in {evidence_source()}; of the intervals whose measured coverage of the {target} "
            f"error stayed at or above {coverage_floor():g} in every cell there, the {choice.method} interval "
            f"({found[choice].worst:.3f} in its worst cell) is the narrowest on this record"
        )
        return choice
    choice = max(found, key=lambda c: found[c].worst)
    messages.note(f"{AUTO_NOTE} the {choice.method} interval, the best measured for the {target} error "
                  f"for {regime.describe()}")
    messages.warn(_shortfall_warning(target, regime, found[choice]))
    return choice


def _exact_choice(result, conditions, target, messages, width_of):
    """The large-sample conditions fail at the dataset level: the exact Clopper-Pearson interval, unless the evidence
    says it fell short of ``target`` in the result's regime (its measured coverage below the floor in a cell) while
    Nedel'ko's half-sample interval reached the floor in every cell there and is at least as wide on this record:
    then the half-sample one. Where neither holds, Clopper-Pearson, with the warning that says how it fared."""
    exact, half = Choice("clopper-pearson", "dataset"), Choice("half-sample", "dataset")
    because = f"the large-sample conditions fail: {conditions.describe()}"
    if measured_scheme(result):
        regime = coverage_regime(target, learner_of_result(result), result.n_samples)
        found = {c: measured_coverage(_benchmark_name(c.averaging, c.method), target, regime) if regime.sizes else None
                 for c in (exact, half)}
        wider = width_of is None or width_of(half) >= width_of(exact)
        if found[exact] is not None and not reaches_floor(found[exact]) and reaches_floor(found[half]) and wider:
            messages.note(
                f"{AUTO_NOTE} Nedel'ko's half-sample interval at the dataset level: {because}, and the exact "
                f"Clopper-Pearson interval covered the {target} error only {found[exact].worst:.3f} of the time at 95% "
                f"({found[exact].worst_cell}) for {regime.describe()} in {evidence_source()}; the half-sample one, "
                f"as wide or wider on this record, covered it {found[half].worst:.3f} in its worst cell there")
            return half
    messages.note(f"{AUTO_NOTE} the exact Clopper-Pearson interval at the dataset level because {because}")
    evidence_warning(result, exact.averaging, exact.method, target, messages, chosen=True)
    return exact


def _choice_for_target(result, averaging, conditions, conditions_hold, target, messages, width_of):
    """:func:`choose_auto` for ``target`` alone, before the harder-target rule."""
    wong = Choice("t" if averaging == "fold" else "normal", averaging)
    if result.groups is not None and averaging == "dataset":
        return grouped_choice(result, target, messages)
    if averaging == "fold":
        return _fold_level_choice(result, wong, conditions, conditions_hold, target, messages)
    if not conditions_hold:
        return _exact_choice(result, conditions, target, messages, width_of)
    if not measured_scheme(result):
        return wong
    return _measured_choice(result, wong, target, messages, width_of)


TARGET_ORDER = tuple(LEARNER_TARGETS)
"""The targets from the easiest to cover to the hardest: kfold, conditional, unconditional (docs/inference.md,
Targets: each moves less with this partition's fitted models than the one before)."""


def choose_auto(result, averaging, conditions, conditions_hold, target, messages, width_of=None):
    """The :class:`Chosen` (method, averaging, short why) that ``method="auto"`` uses, with the note (and warning)
    that says why at length.

    ``averaging`` is the user's and is kept: at the fold level, Wong's t is
    the only interval, and a warning says when it is weak. At the dataset
    level: the cluster-robust interval for a record made with groups
    (:func:`grouped_choice`); the exact Clopper-Pearson interval when Wong's
    large-sample conditions fail; Wong's normal interval on a scheme the
    benchmark did not measure (leave-one-out, a holdout) or in a regime it
    did not measure. Otherwise the choice is made on measured coverage: an
    interval (Wong's normal, Wilson, Clopper-Pearson or Nedel'ko's
    half-sample) *qualifies* for ``target`` when its measured coverage
    itself, not only its Wilson interval's upper end, is at or above the
    floor (0.93 at 95%) in every cell of the result's regime (its learner by
    type, the measured sizes on either side of its N). Wong's interval is
    kept where it qualifies; elsewhere the narrowest qualifying one on this
    record is chosen (``width_of``). When none qualifies, the one with the
    best worst-cell coverage, with a warning that names the regime and the
    refitting route.

    Then the harder-target rule: the targets run kfold, conditional,
    unconditional from the easiest to cover to the hardest
    (:data:`TARGET_ORDER`), and the interval for a harder target is never
    narrower on this record than the one chosen for an easier target: where
    it would be, the easier target's (wider) choice is taken, and a note
    says so.

    ``width_of(choice)`` is the width of the interval ``choice`` on this
    record, as ``accuracy_interval`` computes it; without it, the candidates'
    order decides and the harder-target rule is not applied.
    """
    def choice_for(goal):
        said = Messages()
        return quietly(_choice_for_target, result, averaging, conditions, conditions_hold, goal, said,
                       width_of), said

    choice, said = choice_for(target)
    notes = said.notes
    if width_of is not None:
        for easier in TARGET_ORDER[:TARGET_ORDER.index(target)]:
            other, _ = choice_for(easier)
            if other != choice and width_of(other) > width_of(choice):
                notes = [f"{AUTO_NOTE} the {other.method} interval for the {target} error, the one it chose for the "
                         f"easier {easier} target of this record: its own choice, the {choice.method} interval, is "
                         f"narrower on this record, and an interval for a harder target is never narrower than one "
                         f"for an easier target (docs/inference.md, method='auto')"]
                choice = other
    for note in notes:
        messages.note(note)
    for warning in said.warnings:
        messages.warn(warning)
    return Chosen(*choice, _why(result, choice, target, conditions_hold))


def _why(result, choice, target, conditions_hold):
    """Why ``choice`` rather than the default of ``method="auto"``'s rule (Wong's normal interval where the
    large-sample conditions hold, Clopper-Pearson where they fail), on the evidence that made it: "" for the default,
    the fold level, a grouped record or an unmeasured scheme."""
    default = Choice("normal" if conditions_hold else "clopper-pearson", "dataset")
    if choice == default or choice.averaging == "fold" or result.groups is not None or not measured_scheme(result):
        return ""
    regime = coverage_regime(target, learner_of_result(result), result.n_samples)
    theirs, mine = (measured_coverage(_benchmark_name(c.averaging, c.method), target, regime) if regime.sizes
                    else None for c in (default, choice))
    if theirs is None or mine is None:
        return ""
    return (f"{default.method} covered the {target} error only {theirs.worst:.3f} in its worst measured cell (floor "
            f"{coverage_floor():g}), {choice.method} {mine.worst:.3f}")
