"""Planning a comparison before its fits: the smallest difference (or margin) it would detect, its cost in fits,
and the data or repeats a given difference needs.

The plan is for the corrected resampled t on K-fold cross-validation repeated R times (Nadeau & Bengio 2003;
Bouckaert & Frank 2004), the test the decision rests on for repeated cross-validation and the route of its "cannot
tell". Its standard error needs the variance of the fold differences, taken from a pilot record when one is given
(the user's data and learners) and otherwise from the calibration benchmark's cells for the learners (its synthetic
population's variance, which the user's data need not share).
"""

import dataclasses
import math
import types
from typing import NamedTuple

import numpy as np
from scipy import stats
from sklearn.base import is_regressor

from .._utils._describe import estimator_description, estimator_type
from .._utils._docstring import fill_doc
from .._utils._kinds import ANY, LEVEL, NON_NEGATIVE, POSITIVE, TEXT, TEXTS, Nullable, Options, Ordered, Sequence
from .._utils._notebook import summary_html
from .._utils._params import NAMES, PROBABILITY, Integer, IntegerOrWord, Real, validate_params
from .._utils._params import Nullable as Maybe
from .._utils._params import Options as Choice
from .._utils._serialize import Serializable, plain
from .._utils._text import listed, text_block, wrapped
from .._utils._upward import upward
from .._utils._validation import check_estimator_methods
from ..evaluation._loss_data import LossSpec
from ..evaluation._nested_fits import check_same_task
from ..inference._distributions import reference_quantile
from ..inference._methods import display_label
from ..inference._metric_names import check_metric_names
from ..inference._regression import loss_words
from ..inference._resampled_tests import n_test_over_n_train
from ..records import PairedCVResult
from ._budget import Budget
from ._design import DEFAULT_REPEATS, FrontDoorCV, planned_design
from ._detectable import POWER, interval_standard_error
from ._evaluation_plan import evaluates, evaluation_fields, pilot_groups, plan_evaluation
from ._evidence import LEARNER_WORDS, folds_of, grouped_task, learner_of, read_evidence, repeats_of, sized_by_groups
from ._margin import MARGIN_ALTERNATIVES, check_margin
from ._routes import IF_CANNOT_TELL, fold_task, measured_repeats_routes

PLAN_QUESTIONS = ("difference", *MARGIN_ALTERNATIVES)
"""What a plan sizes: a two-sided test of a difference, or a margin's non-inferiority or equivalence."""

RANGE_LEVEL = 0.90
"""The level of a pilot-based plan's range: where the comparison's own test, its variance estimated afresh from its
folds, puts the figure it reports (the 5% and 95% quantiles of the ratio of the two variance estimates)."""

def fold_sizes(n_samples, n_splits):
    """The sizes of the K folds of an equal-size partition of ``n_samples`` (they differ by at most one)."""
    return n_samples // n_splits + (np.arange(n_splits) < n_samples % n_splits)


def variance_factor(n_samples, n_splits, n_repeats, ratio=None):
    """The corrected t's variance factor 1/J + n_test/n_train (J = K R; ``ratio``, n_test/n_train, by default that
    of an equal-size K-fold partition of ``n_samples``)."""
    if ratio is None:
        sizes = fold_sizes(n_samples, n_splits)
        ratio = float(np.mean(sizes / (n_samples - sizes)))
    return 1 / (n_splits * n_repeats) + ratio


def multiplier(question, confidence_level, power, df):
    """The standard errors between no difference and the plan's figure: q(1 - alpha/2) + q(power) for a two-sided
    test; q(1 - alpha) + q(power) for non-inferiority; q(1 - alpha) + q((1 + power)/2) for equivalence at a true
    difference of 0 (``df``: Student's t, None: normal)."""
    alpha = 1 - confidence_level
    if question == "difference":
        return reference_quantile(1 - alpha / 2, df) + reference_quantile(power, df)
    second = power if question == "non-inferior" else (1 + power) / 2
    return reference_quantile(1 - alpha, df) + reference_quantile(second, df)


_ABOUT_A_TEST = ("question", "test", "power", "df")
"""A comparison's fields about its test, which an evaluation's plan (one learner) leaves None."""


def _one_or_two_learners(owner, values):
    """The cross-field rule of a plan: one learner (an evaluation, its fields about a test None) or two (a comparison,
    with them)."""
    names, unset = values["names"], [name for name in _ABOUT_A_TEST if values[name] is None]
    if (len(names) == 2 and not unset) or (len(names) == 1 and len(unset) == len(_ABOUT_A_TEST)):
        return
    raise ValueError(f"{owner}.names holds {len(names)} learner(s) with {', '.join(_ABOUT_A_TEST)} "
                     f"{'unset: ' + ', '.join(unset) if unset else 'set'}; a plan is of one learner (an evaluation, "
                     "without a test) or two (a comparison, with its test). Pass the output of to_dict() unchanged.")


_LISTED = ("names", "stages", "notes")
"""The plan's fields of tuples, which its JSON writes as lists."""


def _tagged(value):
    """A plain list as the codec's tagged tuple (nested lists too), for :meth:`Plan.from_dict`."""
    return {"tuple": [_tagged(item) for item in value]} if isinstance(value, list) else value


@dataclasses.dataclass(frozen=True, repr=False, eq=False)
class Plan(Serializable):
    """What a comparison of two learners would detect, planned before its fits (see :func:`plan`).

    Attributes
    ----------
    names : tuple of str
        The learners A and B; the one learner of an evaluation's plan
        (:func:`plan` with one learner, :attr:`Evaluation.plan`), whose
        fields about a test (``question``, ``test``, ``power``,
        ``standard_error``, ``df``, ``detectable``, ``wanted``, the needs)
        are None.
    metric : str
        The metric the decision is about (an evaluation's: the quantity of
        its recommended interval, accuracy or the loss).
    question : {"difference", "non-inferior", "equivalent"} or None
        What is planned: the two-sided test of a difference (the decision's
        default question), or a margin's non-inferiority or equivalence.
    n_samples, n_splits, n_repeats : int
        The comparison (or evaluation) planned: N instances, K folds, R
        repeats.
    fits : int
        The fits the comparison runs whatever its decision: the
        cross-validation's 2 K R, Dietterich's 5x2cv (20, for classifiers,
        within the budget) and nested cross-validation asked for.
    stages : tuple of (str, int)
        Each stage's name and fits, in the order :func:`compare` runs them;
        the last, named "... if the decision cannot tell", is the calibrated
        route it runs only then.
    most_fits : int
        The fits when that route runs too.
    test : str
        The test planned for: "corrected t (RxK-fold)".
    confidence_level, power : float
        1 - alpha of the decision, and the power planned for.
    standard_error : float or None
        The test's standard error planned (None: not known before the fits,
        as ``rests_on`` says).
    df : int
        Its degrees of freedom, K R - 1.
    detectable : float or None
        For a difference: the minimum detectable difference, the smallest
        true difference the test detects with probability ``power``. For a
        margin: the smallest margin the question is answered "A
        non-inferior" (or "equivalent") against with probability ``power``
        when the learners are truly equal. None where nothing before the
        fits gives the test's variance (a regressors' comparison without a
        pilot, leave-one-out, learners no calibration cell measured;
        ``rests_on`` says which). With groups it is read from the grouped
        cells (or a grouped pilot) and carried in groups.
    half_width : float or None
        An evaluation's: the half-width its recommended interval is expected
        to have at N, read from the calibration's cells for the learner (the
        widths of ``method="auto"``'s interval there, carried to N as
        N^(-1/2)) or from a pilot record's recommended interval; None for a
        comparison, and where nothing before the fits gives it
        (``rests_on`` says why).
    low, high : float or None
        With a pilot, the range (90%) of the figure the comparison's own
        test will report: its variance is estimated afresh from its folds,
        as the pilot's was from the pilot's; without one, ``detectable``
        under the least and the most variable calibration cell that stands.
        An evaluation's: ``half_width`` over the calibration cells that
        stand (a pilot's: the figure itself).
    wanted : float or None
        The difference (or margin) asked about, if any.
    n_samples_needed : int or None
        The N at which ``detectable`` reaches ``wanted`` on the same K and R.
    n_repeats_needed : int or None
        The fewest repeats among R and those at which the calibration
        measured the corrected t holding for these learners at about N
        that reach ``wanted`` at N; None when none does.
    source : {"pilot", "calibration", "none"}
        Where the variance comes from.
    rests_on : str
        The pilot record, or the calibration cells, in words (with
        ``"none"``, why there is no variance to plan on).
    notes : tuple of str
        Where it extrapolates, what it borrows, and what it does not cover.
    """

    names: tuple
    metric: str
    question: str
    n_samples: int
    n_splits: int
    n_repeats: int
    fits: int
    stages: tuple
    most_fits: int
    test: str
    confidence_level: float
    power: float
    standard_error: float | None
    df: int
    detectable: float | None
    half_width: float | None
    low: float | None
    high: float | None
    wanted: float | None
    n_samples_needed: int | None
    n_repeats_needed: int | None
    source: str
    rests_on: str
    notes: tuple

    _kinds = types.MappingProxyType({
        "names": Sequence(TEXT, min_length=1), "metric": TEXT, "question": Nullable(Options(*PLAN_QUESTIONS)),
        "n_samples": POSITIVE, "n_splits": POSITIVE, "n_repeats": POSITIVE, "fits": POSITIVE,
        "stages": Sequence(Sequence(ANY, length=2), min_length=1), "most_fits": POSITIVE, "test": Nullable(TEXT),
        "confidence_level": LEVEL, "power": Nullable(LEVEL), "standard_error": Nullable(NON_NEGATIVE),
        "df": Nullable(POSITIVE), "detectable": Nullable(NON_NEGATIVE), "half_width": Nullable(NON_NEGATIVE),
        "low": Nullable(NON_NEGATIVE), "high": Nullable(NON_NEGATIVE),
        "wanted": Nullable(NON_NEGATIVE), "n_samples_needed": Nullable(POSITIVE),
        "n_repeats_needed": Nullable(POSITIVE), "source": Options("pilot", "calibration", "none"), "rests_on": TEXT,
        "notes": TEXTS})
    _rules = (Ordered("low", "high"), _one_or_two_learners)

    _repr_html_ = summary_html

    def to_dict(self):
        """The plan as JSON-ready data: its fields, with ``names``, ``stages`` and ``notes`` as plain lists (JSON has
        no tuples), which :meth:`from_dict` reads back as the tuples they were.

        Returns
        -------
        dict

        Examples
        --------
        >>> import cvinference as cvi
        >>> from sklearn.linear_model import LogisticRegression
        >>> from sklearn.tree import DecisionTreeClassifier
        >>> planned = cvi.plan(LogisticRegression(), DecisionTreeClassifier(), n_samples=1000)
        >>> planned.to_dict()["stages"][1]
        ['5x2cv', 20]
        >>> Plan.from_json(planned.to_json()) == planned
        True
        """
        return {key: plain(value) if key in _LISTED else value for key, value in super().to_dict().items()}

    @classmethod
    def from_dict(cls, data):
        """Rebuild a plan written by :meth:`to_dict` (its lists read back as tuples), checking every field.

        Parameters
        ----------
        data : dict
            The output of ``to_dict()``, possibly after a JSON round trip.

        Returns
        -------
        Plan
        """
        if not isinstance(data, dict):
            return super().from_dict(data)
        return super().from_dict({key: _tagged(value) if key in _LISTED else value for key, value in data.items()})

    def __repr__(self):
        if len(self.names) == 1:
            figure = "None" if self.half_width is None else f"{self.half_width:.4g}"
            return f"Plan(evaluation, n_samples={self.n_samples}, half_width={figure}, fits={self.fits})"
        figure = "None" if self.detectable is None else f"{self.detectable:.4g}"
        return f"Plan(test={self.test!r}, n_samples={self.n_samples}, detectable={figure}, fits={self.fits})"

    def _figure_words(self):
        alpha = 1 - self.confidence_level
        if self.question == "difference":
            return (f"minimum detectable difference in {self.metric} (power {self.power:g}, two-sided alpha "
                    f"{alpha:g})")
        return (f"smallest margin in {self.metric} shown {self.question} with power {self.power:g} when A and B "
                f"are equal (one-sided alpha {alpha:g})")

    def detectable_at(self, n_samples):
        """The plan's figure (``detectable``, ``low``, ``high``) at another N on the same folds and repeats.

        The standard error scales as in :func:`plan`: the variance of a
        fold's difference with the inverse of its size, the variance factor
        with the folds' sizes at that N.

        Parameters
        ----------
        n_samples : int or array-like of int
            At least 2 K.

        Returns
        -------
        (detectable, low, high) : tuple of float or of ndarray
        """
        if self.detectable is None:
            raise ValueError(f"this plan has no figure to carry to another N: {self.rests_on}")
        sizes = np.atleast_1d(np.asarray(n_samples))
        if sizes.dtype.kind not in "iu" or np.any(sizes < 2 * self.n_splits):
            raise ValueError(f"n_samples={n_samples!r}: pass whole numbers of at least {2 * self.n_splits} (2 "
                             f"instances in each of the {self.n_splits} folds).")
        own = variance_factor(self.n_samples, self.n_splits, self.n_repeats)
        scale = np.array([math.sqrt(variance_factor(int(n), self.n_splits, self.n_repeats) / own
                                    * self.n_samples / int(n)) for n in sizes])
        found = tuple(None if value is None else value * scale for value in (self.detectable, self.low, self.high))
        return found if np.ndim(n_samples) else tuple(None if f is None else float(f[0]) for f in found)

    @fill_doc
    def plot(self, ax=None, *, path=None):
        """Draw the plan's figure against N, on its folds and repeats, with its range and what was asked.

        Needs matplotlib.
        %(display)s
        ``ax=None`` draws on a new figure (``cvinference.report.plot_plan``).

        Parameters
        ----------
        %(plot_ax)s
        %(plot_path)s

        Returns
        -------
        %(plot_returns)s
        """
        return upward("report", "plot_plan")(self, ax, path=path)

    def _figure_line(self):
        if self.detectable is None:
            return f"{self._figure_words()}: not known before the fits"
        spread = "" if self.low is None else (
            f" (the comparison's own test may report {self.low:.4f} to {self.high:.4f}, {RANGE_LEVEL:.0%})"
            if self.source == "pilot" else f" ({self.low:.4f} to {self.high:.4f} over the calibration cells)")
        return f"{self._figure_words()}: {self.detectable:.4f}{spread}"

    def _cost_line(self):
        sure = [(name, fits) for name, fits in self.stages if not name.endswith(IF_CANNOT_TELL)]
        what = (f"2 learners x {self.n_splits} folds x {self.n_repeats} repeat{'s' if self.n_repeats > 1 else ''}"
                if len(sure) == 1 else "; ".join(f"{name}: {fits:,}" for name, fits in sure))
        route = [f"{name}: {fits:,}" for name, fits in self.stages if name.endswith(IF_CANNOT_TELL)]
        most = f", at most {self.most_fits:,} ({route[0]})" if route else ""
        error = "" if self.standard_error is None else f"; standard error {self.standard_error:.4f}, df {self.df}"
        return f"cost: {self.fits:,} fits ({what}){most}{error}"

    def summary(self):
        """The plan in words: what it would detect, what it costs, what a wanted difference needs, what it rests on.

        Returns
        -------
        str
        """
        if len(self.names) == 1:
            return self._evaluation_summary()
        a, b = self.names
        lines = [f"plan: {self.test} on {self.metric}, A = {a}, B = {b}, N = {self.n_samples}",
                 self._figure_line(), self._cost_line()]
        if self.wanted is not None and self.detectable is not None:
            what = "difference" if self.question == "difference" else "margin"
            repeats = ("no calibrated number of repeats reaches it at this N" if self.n_repeats_needed is None
                       else f"{self.n_repeats_needed} repeat{'s' if self.n_repeats_needed > 1 else ''} at N = "
                            f"{self.n_samples} "
                            f"({2 * self.n_splits * self.n_repeats_needed:,} fits)")
            lines.append(f"to detect a {what} of {self.wanted:g}: N = {self.n_samples_needed:,} at "
                         f"{self.n_repeats} x {self.n_splits}-fold; {repeats}")
        lines.append(f"{'variance from' if self.detectable is not None else 'no variance'}: {self.rests_on}")
        return "\n".join([part for line in lines for part in wrapped(line)] + text_block("notes", self.notes))

    def _evaluation_summary(self):
        """An evaluation's plan in words: its folds and fits, and the half-width its recommended interval is
        expected to have."""
        words = f"expected half-width of the recommended {self.metric} interval ({self.confidence_level:.0%})"
        figure = ("not known before the fits" if self.half_width is None else f"{self.half_width:.4f}" + (
            "" if self.low is None or self.low == self.high else
            f" ({self.low:.4f} to {self.high:.4f} over the {self.source}'s cells)"
            if self.source == "calibration" else f" ({self.low:.4f} to {self.high:.4f})"))
        repeats = f"{self.n_repeats} repeat{'s' if self.n_repeats > 1 else ''}"
        lines = [f"plan: evaluation of {self.names[0]} on {self.metric}, N = {self.n_samples}", f"{words}: {figure}",
                 f"cost: {self.fits:,} fits (1 learner x {self.n_splits} folds x {repeats})",
                 f"{'half-width from' if self.half_width is not None else 'no half-width'}: {self.rests_on}"]
        return "\n".join([part for line in lines for part in wrapped(line)] + text_block("notes", self.notes))


def _planned_test(pilot, metric, confidence_level):
    """The decision on the pilot at ``confidence_level`` and the corrected t among the tests it weighs."""
    from ._decision import decide  # the decision weighs the plan's test

    decision = decide(pilot, metric=metric, confidence_level=confidence_level)
    found = [test for test in (decision.rests_on, *decision.context)
             if test is not None and test.method == "corrected-t" and test.df is not None]
    if not found:
        raise ValueError(f"pilot: the decision on this pilot weighs no corrected t for metric={metric!r} (it needs "
                         "K-fold cross-validation with at least 2 folds, not leave-one-out); pass a pilot from "
                         "CVEvaluator(cv=K).compare(estimator_a, estimator_b, X, y), or no pilot.")
    return decision, found[0]


def _pilot_unit_variance(pilot, metric, confidence_level):
    """The pilot's fold-difference variance times its mean test-fold size (the variance of one instance's share),
    its variance factor, its degrees of freedom and the decision's name of the metric."""
    decision, test = _planned_test(pilot, metric, confidence_level)
    a = pilot.a
    factor = variance_factor(_units(a), a.n_splits, a.n_repeats, ratio=n_test_over_n_train(a))
    standard_error = interval_standard_error(test.low, test.high, confidence_level, test.df)
    if not standard_error > 0:
        raise ValueError(f"pilot: the corrected t's fold differences in {decision.metric} have no variance "
                         f"(standard error {standard_error!r}: A and B differ by the same amount in every fold), so "
                         "nothing can be planned from it; pass a pilot of learners whose folds differ, or no pilot.")
    return standard_error ** 2 / factor * _units(a) / a.n_splits, factor, test.df, decision.metric


def _units(record):
    """The independent units of a record: its groups where made with groups, else its instances."""
    return record.n_samples if record.groups is None else record.n_groups


def _units_words(grouped):
    return ("G", "groups") if grouped else ("N", "instances")


def _c4(df):
    """E[s] / sigma for a standard deviation s on ``df`` degrees of freedom (normal data): a mean of standard
    errors underestimates the root of their mean square by this factor."""
    return math.exp(0.5 * math.log(2 / df) + math.lgamma((df + 1) / 2) - math.lgamma(df / 2))


def _calibration_unit_variances(learners, n_samples, task, n_repeats, size_name="N"):
    """Each standing calibration cell's fold-difference variance times its test-fold size, the regime, the cells
    in words and the numbers of folds they measured."""
    reading = read_evidence("corrected-t", tuple(learners), n_samples, task=task, repeats=n_repeats)
    regime, standing = reading.regime, [row for row in reading.cells if row.get("mean_width") is not None]
    if not standing:
        return [], regime, "", ()
    variances = []
    for row in standing:
        repeats, folds = repeats_of(row), folds_of(row)
        df = folds * repeats - 1
        # the mean width over the replications: its standard error is c4 times the typical one
        standard_error = interval_standard_error(0.0, row["mean_width"], 1 - row["nominal"], df) / _c4(df)
        variances.append(standard_error ** 2 / variance_factor(row["n"], folds, repeats) * row["n"] / folds)
    by_learner = {}
    for row in standing:
        by_learner.setdefault(LEARNER_WORDS.get(row["learner"], row["learner"]), set()).add(row["n"])
    populations = sorted({row["population"] for row in standing})
    cells = (listed([f"{word} at {size_name} = {listed([str(n) for n in sorted(sizes)])}"
                     for word, sizes in by_learner.items()])
             + f" ({listed(populations)} population{'s' if len(populations) > 1 else ''})")
    return variances, regime, cells, tuple(sorted({folds_of(row) for row in standing}))


def _learner_types(estimator_a, estimator_b, pilot):
    """The final estimators' classes, "module.QualName", of the pilot's records or of the estimators."""
    if pilot is not None:
        return [pilot.a.estimator_type, pilot.b.estimator_type]
    return [estimator_type(estimator) for estimator in (estimator_a, estimator_b)]


def _name(estimator, record, label):
    if record is not None:
        return getattr(record, "name", None) or record.estimator_repr or label
    return estimator_description(estimator) if estimator is not None else label


def _check_pilot(estimator_a, estimator_b, pilot):
    if pilot is not None and not isinstance(pilot, PairedCVResult):
        raise TypeError(f"pilot must be a PairedCVResult, as CVEvaluator(cv=K).compare(estimator_a, estimator_b, X, "
                        f"y) makes (or a CVResult of one learner, to plan its evaluation); got "
                        f"{type(pilot).__name__}.")
    if pilot is not None and (estimator_a is not None or estimator_b is not None):
        raise TypeError("plan takes the learners or a pilot= record of them, not both: the pilot's records name its "
                        "learners. Drop estimator_a and estimator_b, or the pilot.")
    if pilot is None and (estimator_a is None or estimator_b is None):
        raise TypeError("plan needs estimator_a and estimator_b (their classes choose the calibration cells), or a "
                        "pilot= record of them.")


def _checked_inputs(estimator_a, estimator_b, pilot, n_samples, cv, metric, groups):
    """The N, ``cv`` and groups planned and whether the learners are regressors, refusing what the plan cannot read
    (before anything is computed)."""
    _check_pilot(estimator_a, estimator_b, pilot)
    for name, estimator in (("estimator_a", estimator_a), ("estimator_b", estimator_b)):
        if estimator is not None:
            check_estimator_methods(estimator, name)
    if pilot is None:
        check_same_task(estimator_a, estimator_b, names=("estimator_a", "estimator_b"))
    if pilot is None and any(is_regressor(estimator) for estimator in (estimator_a, estimator_b)):
        raise ValueError("a regressors' plan needs pilot=: the scale of their loss is your data's, which no "
                         "calibration cell carries. Pass pilot=CVEvaluator(cv=K, loss=...).compare(estimator_a, "
                         "estimator_b, X, y) on the data or a sample of them.")
    regression = pilot is not None and pilot.a.classes is None
    check_metric_names([] if metric is None else [metric], regression,
                       "the pilot's learners" if pilot is not None else "the learners")
    groups = pilot_groups(None if pilot is None else pilot.a, n_samples, groups)
    if n_samples is None and groups is not None:
        n_samples = len(groups)
    if n_samples is None:
        if pilot is None:
            raise TypeError("n_samples is needed without a pilot: the N of the comparison planned.")
        n_samples = pilot.a.n_samples
    cv = cv if cv is not None else pilot.a.n_splits if pilot is not None else 10
    if isinstance(cv, int) and cv != n_samples and n_samples < 2 * cv:  # cv = N is leave-one-out
        raise ValueError(f"n_samples={n_samples} with cv={cv}: each fold needs at least 2 instances; pass "
                         f"n_samples >= {2 * cv} or fewer folds.")
    return int(n_samples), cv, regression, groups


@validate_params(n_samples=Maybe(Integer(minimum=4)), cv=Maybe(FrontDoorCV()),
                 n_repeats=IntegerOrWord(1, "auto"), confidence_level=PROBABILITY,
                 power=Real(0.5, 1.0, closed="left", what="a power", example="0.8"),
                 difference=Maybe(Real(0.0, math.inf, closed="neither", what="a difference in the metric's units")),
                 margin=Maybe(Real(0.0, math.inf, closed="neither", what="a margin in the metric's units")),
                 question=Maybe(Choice(*PLAN_QUESTIONS)), nested=Choice("auto", "always", "never"), budget=Budget(),
                 loss=Maybe(LossSpec()), names=NAMES)
def plan(estimator_a=None, estimator_b=None, *, n_samples=None, pilot=None, metric=None, cv=None,
         n_repeats=DEFAULT_REPEATS, groups=None, loss=None, nested="auto", budget=None, power=POWER,
         confidence_level=0.95, difference=None, margin=None, question=None, names=None):
    """Plan a comparison before its fits: what it would detect, what it costs, and what a difference needs.

    For the corrected t on ``cv``-fold cross-validation repeated
    ``n_repeats`` times at ``n_samples`` instances (the test the decision
    rests on for repeated cross-validation), it gives the minimum
    detectable difference at ``power`` (or, with a margin, the smallest
    margin shown when the learners are equal), the cost in fits, and, for a
    wanted ``difference`` (or ``margin``), the N and the repeats that reach
    it. The variance comes from ``pilot`` when given (the pilot's own data
    and learners), else from the calibration benchmark's cells for the
    learners (its population's variance, which the user's data need not
    share: a pilot is the better guide). Planning runs no fit and spends no
    test's level.

    One planner: called with :func:`compare`'s arguments (``cv``,
    ``n_repeats``, ``groups``, ``metric``, ``loss``, ``nested``,
    ``budget``, and ``n_samples`` the rows of its data), the plan is the design
    :func:`compare` then runs (its ``comparison.plan``): the same folds and
    repeats, the same fits of each stage (the cross-validation, Dietterich's
    5x2cv, and the calibrated route run if the decision cannot tell) and
    the same minimum detectable difference.

    With one learner (``estimator_b`` None, or a ``pilot`` record of one
    learner) it plans an evaluation, with :func:`evaluate`'s arguments:
    the folds, repeats and fits :func:`evaluate` runs (its
    ``evaluation.plan``) and the half-width its recommended interval is
    expected to have at N, read from the calibration's cells for the
    learner (the widths of ``method="auto"``'s interval there) or from the
    pilot's recommended interval, carried to N as N^(-1/2); None where
    nothing was measured (a regressor's loss without a pilot, grouped
    records), ``rests_on`` saying why. ``n_repeats="auto"`` is 1 there (one
    learner's intervals count the N instances once however many repeats
    pool), and what only a comparison takes (``difference``, ``margin``,
    ``question``, ``nested``) is refused.

    Parameters
    ----------
    estimator_a, estimator_b : estimator, optional
        The learners; their final estimators' classes choose the calibration
        cells. Not needed with ``pilot``, whose records name them.
        ``estimator_b`` None plans an evaluation of ``estimator_a``.
    n_samples : int, optional
        N of the comparison planned; by default the pilot's (or the length
        of ``groups``).
    pilot : PairedCVResult or CVResult, optional
        A comparison already run (``CVEvaluator(cv=K).compare(a, b, X, y)``,
        one repeat is enough) on the data or a sample of them: its corrected
        t's variance, scaled to the planned fold size, stands for the
        planned one. A :class:`CVResult` (``CVEvaluator(cv=K).evaluate(
        estimator, X, y)``) plans an evaluation of its learner.
    metric : str, callable or None, default=None
        The decision's metric, as :func:`compare` takes it (and refuses it,
        before anything is computed): None is accuracy for classifiers and
        the loss of a regressors' pilot, as the decision's default is; with
        a pilot, any metric ``decide`` takes on it.
    cv : int, "loo" or cross-validation splitter, optional
        As :func:`compare` takes it: K folds (by default the pilot's, else
        10), ``"loo"`` (or K = N: leave-one-out, planned without a figure,
        since its decision rests on tests of its instances), a splitter
        (its ``get_n_splits`` counts the folds; one that does not shuffle
        gives one repeat) or a list of splits. What no fit could run
        (repeats of leave-one-out or of a splitter that does not shuffle,
        more folds than instances or groups) is refused.
    n_repeats : int or "auto", default="auto"
        R; "auto", the default of :func:`compare` too, plans the calibrated
        number of repeats with the most measured power within the budget
        (1 where none was measured holding; see :func:`compare`).
    groups : array-like of shape (n_samples,) or None, default=None
        Each instance's group, as :func:`compare` takes them: whole groups
        go to one test fold and the groups are the units the variance is
        read in (the calibration's grouped cells, sized by their number of
        groups G, or a pilot made with groups, whose own groups are the
        default). N defaults to their length, and another length is
        refused.
    loss : str or None, default=None
        The records' per-instance loss, as :func:`compare` takes it (None:
        the pilot's, else ``"zero_one"``); nested cross-validation reuses
        the folds' fits only on ``"zero_one"`` (or a regressor's loss).
    nested : {"auto", "always", "never"}, default="auto"
        As :func:`compare` takes it: which route the plan's last stage is.
    budget : int, str or None, default=None
        As :func:`compare` takes it: the stages run within it, and a budget
        below the cross-validation is refused.
    power : float, default=0.8
        The probability of detecting the planned figure, at least 0.5 (a
        plan of less misses the difference more often than not).
    confidence_level : float, default=0.95
        1 - alpha of the decision: the two-sided test at alpha, the
        one-sided tests of a margin at alpha each.
    difference : float, optional
        A difference to detect (two-sided), in the metric's units, below the
        width of its range (below 1 for accuracy, F1 or ROC AUC): the plan
        adds the N and the repeats that detect it with ``power``.
    margin : float, optional
        A margin to show non-inferiority (or equivalence) against when the
        learners are equal, in the metric's units as ``difference``: the
        plan adds the N and repeats that do.
    question : {"difference", "non-inferior", "equivalent"}, optional
        What to plan, as :func:`compare` asks it; by default
        "non-inferior" with a margin, else "difference".
    names : tuple of str, optional
        The learners' names in the plan's text.

    Returns
    -------
    Plan
        A comparison's plan, or an evaluation's (one name; the fields
        about a test None).

    See Also
    --------
    decide : the decision the plan is for, and its minimum detectable
        difference after the fits.
    minimum_detectable_difference : the same figure from a test's interval.

    Notes
    -----
    The corrected t's standard error is ``sqrt((1/J + n_test/n_train)
    sigma^2)`` with J = K R fold differences of variance sigma^2 (Nadeau &
    Bengio 2003, section 5, eq. 6; Bouckaert & Frank 2004). A fold's
    difference of accuracies (or of any mean over its instances) has a
    variance inversely proportional to its n_test = N/K instances, so
    ``sigma^2 N / K`` is carried from the pilot (or a calibration cell) to
    the plan; a pilot that is the planned comparison itself gives exactly
    its test's standard error, and so the decision's minimum detectable
    difference. The figure is ``(q_{1-alpha/2} + q_power) se`` for a
    difference (Bloom 1995; Chow, Shao & Wang 2008, section 3.1), ``(q_{1-
    alpha} + q_power) se`` for a non-inferiority margin, and ``(q_{1-alpha} +
    q_{(1+power)/2}) se`` for an equivalence margin at a true difference of 0
    (Chow, Shao & Wang 2008, sections 3.2.2 and 3.2.3), with q Student's t
    quantiles on K R - 1 degrees of freedom. The N that reaches a wanted
    figure scales as the square of the ratio of the figures, since se is
    proportional to N^(-1/2) at fixed K and R. The comparison's test
    estimates its variance from its own folds, independently of the
    pilot's: the ratio of the two estimates is F-distributed on their
    degrees of freedom (K R - 1 and the pilot's), and the range is the
    figure under its 5% and 95% quantiles. Folds of different repeats share
    training rows, so with repeats the degrees of freedom overstate the
    information and the range is too narrow. Without a pilot, a cell's standard error
    is read from the mean width of its intervals over the benchmark's
    replications, divided by c4 (E[s] = c4 sigma for a standard deviation
    on df degrees of freedom from normal data, so that the variance is not
    biased low; Montgomery 2009, *Introduction to Statistical Quality
    Control*, section 6.2), and the worst cell that stands is planned on.

    Examples
    --------
    >>> from sklearn.datasets import load_breast_cancer
    >>> from sklearn.linear_model import LogisticRegression
    >>> from sklearn.pipeline import make_pipeline
    >>> from sklearn.preprocessing import StandardScaler
    >>> from sklearn.tree import DecisionTreeClassifier
    >>> import cvinference as cvi
    >>> X, y = load_breast_cancer(return_X_y=True)
    >>> a = make_pipeline(StandardScaler(), LogisticRegression())
    >>> b = DecisionTreeClassifier(random_state=0)
    >>> pilot = cvi.CVEvaluator(cv=10, random_state=0).compare(a, b, X, y)
    >>> planned = cvi.plan(pilot=pilot, n_repeats=10, difference=0.02)
    >>> planned.stages[:2]  # 2 x 10 x 10 fits, and Dietterich's 5x2cv
    (('cross-validation (10 x 10-fold)', 200), ('5x2cv', 20))
    >>> planned.fits
    220
    >>> planned.detectable > planned.wanted  # 569 instances cannot tell 2 points apart
    True

    One learner: an evaluation's plan, as ``cvi.evaluate(b, X, y).plan``

    >>> evaluation = cvi.plan(b, n_samples=len(y))
    >>> evaluation.fits, round(evaluation.half_width, 3)
    (10, 0.04)
    """
    if evaluates(estimator_a, estimator_b, pilot):
        return Plan(**plan_evaluation(estimator_a, n_samples=n_samples, pilot=pilot, cv=cv, n_repeats=n_repeats,
                               groups=groups, loss=loss, budget=budget, confidence_level=confidence_level,
                               name=None if names is None else names[0], comparison_settings=dict(
                                   difference=difference, margin=margin, question=question,
                                   nested=None if nested == "auto" else nested), metric=metric))
    if question is None:
        question = "difference" if margin is None else "non-inferior"
    wanted = difference if question == "difference" else margin
    if (question == "difference" and margin is not None) or (question != "difference" and difference is not None):
        raise ValueError(f"question={question!r} with difference={difference!r} and margin={margin!r}: a "
                         "difference is planned with difference=, a non-inferiority or equivalence margin with "
                         "margin=; pass the one that matches.")
    n_samples, cv, regression, groups = _checked_inputs(estimator_a, estimator_b, pilot, n_samples, cv, metric,
                                                        groups)
    metric = "accuracy" if metric is None else metric  # decide's default: accuracy, or a regressor's loss
    check_margin(wanted, metric, regression=regression, name="difference" if question == "difference" else "margin")
    names = tuple(names) if names is not None else (
        _name(estimator_a, None if pilot is None else pilot.a, "A"),
        _name(estimator_b, None if pilot is None else pilot.b, "B"))
    loss = loss if loss is not None or pilot is None else pilot.a.loss_name
    return design_and_plan(_learner_types(estimator_a, estimator_b, pilot), n_samples, cv, groups=groups,
                           n_repeats=n_repeats, metric=metric, regression=regression, loss=loss, nested=nested,
                           budget=budget, names=names, pilot=pilot, power=power, confidence_level=confidence_level,
                           question=question, wanted=wanted)[1]


def evaluation_plan(estimator, n_samples, folds, **settings):
    """The :class:`Plan` of :func:`evaluate`'s fits of ``estimator`` at ``n_samples`` on ``folds``
    (:func:`~cvinference.policy._evaluation_plan.evaluation_fields`, whose ``settings`` it takes)."""
    return Plan(**evaluation_fields(estimator, n_samples, folds, **settings))


LOO_WORDS = "leave-one-out's decision rests on tests of its instances, not on the corrected t the plan sizes"
"""Why a leave-one-out comparison has no figure before its fits."""


def design_and_plan(estimator_types, n_samples, cv, *, groups=None, X=None, y=None, random_state=None,
                    n_repeats=DEFAULT_REPEATS, metric="accuracy", regression=False, loss=None, nested="auto",
                    budget=None, params=None, names, pilot=None, power=POWER, confidence_level=0.95,
                    question="difference", wanted=None, strict=True):
    """The one planner: the :class:`~cvinference.policy._routes.Design` of a comparison of learners of
    ``estimator_types`` at ``n_samples`` on ``cv`` (:func:`~cvinference.policy._design.planned_design`, its folds
    in it) and its :class:`Plan` (``strict``: refuse learners no calibration cell measured, rather than plan them
    without a figure). :func:`plan` and :func:`compare`'s planning step both call it."""
    design = planned_design(estimator_types, n_samples, cv, groups=groups, X=X, y=y, random_state=random_state,
                            n_repeats=n_repeats, metric=metric, regression=regression, loss=loss, nested=nested,
                            params=params, budget=budget)
    if regression and metric == "accuracy" and pilot is None:  # a regressors' decision is about their loss
        metric = loss_words(design.loss)
    return design, planned(design, estimator_types, n_samples, metric=metric, regression=regression, names=names,
                           pilot=pilot, power=power, confidence_level=confidence_level, question=question,
                           wanted=wanted, unplanned=LOO_WORDS if design.folds.folds == "loo" else None, strict=strict,
                           n_groups=design.folds.n_groups)


def comparison_plan(estimator_a, estimator_b, n_samples, *, cv=10, groups=None, X=None, y=None, random_state=None,
                    n_repeats=DEFAULT_REPEATS, n_groups=None, metric="accuracy", loss=None, nested="auto", budget=None,
                    params=None, confidence_level=0.95, margin=None, question=None, names=None):
    """:func:`compare`'s one call into the planner, before any fit: its :class:`~cvinference.policy._routes.Design`
    (its ``folds`` those to run: ``cv`` on ``X``, ``y`` and ``groups``, seeded by ``random_state``; without
    ``groups``, ``n_groups`` groups of equal size) and its :class:`Plan`, which are :func:`plan`'s with the same
    arguments (``question``: None is "non-inferior" with a margin, else "difference"); what no fit could run is
    refused, and learners no calibration cell measured are planned without a figure."""
    if groups is None and n_groups is not None:
        groups = np.arange(n_samples) % n_groups
    names = tuple(names) if names is not None else tuple(map(estimator_description, (estimator_a, estimator_b)))
    question = question if question is not None else "difference" if margin is None else "non-inferior"
    return design_and_plan([estimator_type(estimator_a), estimator_type(estimator_b)], n_samples, cv, groups=groups,
                           X=X, y=y, random_state=random_state, n_repeats=n_repeats, metric=metric,
                           regression=is_regressor(estimator_a), loss=loss, nested=nested, budget=budget,
                           params=params, names=names, confidence_level=confidence_level, question=question,
                           wanted=margin, strict=False)


class _Variance(NamedTuple):
    """The variance of one instance's share of a fold's difference the plan rests on (``unit``; ``low`` and
    ``high``: its range), the test's variance factor, and where it comes from."""

    unit: float | None
    low: float | None
    high: float | None
    factor: float
    source: str
    rests_on: str
    notes: tuple
    metric: object


def _pilot_variance(pilot, design, n_samples, metric, confidence_level):
    cv, n_repeats = design.n_splits, design.n_repeats
    unit, pilot_factor, pilot_df, metric = _pilot_unit_variance(pilot, metric, confidence_level)
    own = _units(pilot.a)
    same = (n_samples, cv, n_repeats) == (own, pilot.a.n_splits, pilot.a.n_repeats)
    size, what = _units_words(pilot.a.groups is not None)
    # the pilot's own folds: its test's standard error exactly
    factor = pilot_factor if same else variance_factor(n_samples, cv, n_repeats)
    low, high = (unit * float(stats.f.ppf(q, cv * n_repeats - 1, pilot_df))
                 for q in ((1 - RANGE_LEVEL) / 2, (1 + RANGE_LEVEL) / 2))
    rests_on = (f"the pilot's corrected t ({pilot.a.n_repeats}x{pilot.a.n_splits}-fold at {size} = {own}), "
                f"scaled to test folds of {n_samples / cv:.4g} {what}")
    notes = () if own == n_samples else (
        f"the pilot has {size} = {own}: its variance is carried to {size} = {n_samples} by the test folds' sizes, "
        "assuming the learners are as accurate at both sizes",)
    return _Variance(unit, low, high, factor, "pilot", rests_on, notes, metric)


def _no_variance(why, design, n_samples, metric):
    return _Variance(None, None, None, variance_factor(n_samples, design.n_splits, design.n_repeats), "none", why,
                     (), metric)


def _calibration_variance(learners, design, n_samples, metric, task, strict):
    cv = design.n_splits
    grouped = sized_by_groups(task)
    variances, regime, cells, folds = _calibration_unit_variances(learners, n_samples, task, design.n_repeats,
                                                                  _units_words(grouped)[0])
    if not variances:
        why = (f"the calibration benchmark measured the corrected t for none of these learners on metric={metric!r} "
               f"(the rows of {task!r}); pass pilot= (a comparison of the learners on some of the data)")
        if strict:
            raise ValueError(f"{why}.")
        return _no_variance(why, design, n_samples, metric)
    notes = [*regime.borrowed, *([regime.beyond] if regime.beyond else [])]
    if folds != (cv,):
        notes.append(f"the calibration measured {listed([f'{k}-fold' for k in folds])} cross-validation; its "
                     f"variance is carried to {cv} folds by the test folds' sizes")
    if grouped:
        notes.append(f"the grouped cells are sized by their groups: their variance is carried to G = {n_samples} "
                     "groups, assuming groups of the cells' sizes and within-group correlations (their populations' "
                     "names say which); the N needed assumes groups of your data's mean size")
    if metric != "accuracy" and task in ("classification", grouped_task(True)):
        notes.append(f"the calibration measured accuracy's cells, not {metric}'s: they stand for it")
    rests_on = (f"the calibration benchmark's cells: {cells}; their population's variance, not your data's (a pilot "
                "gives your data's)")
    return _Variance(max(variances), min(variances), max(variances),
                     variance_factor(n_samples, cv, design.n_repeats), "calibration", rests_on, tuple(notes), metric)


def _variance(design, learners, n_samples, *, metric, task, regression, pilot, confidence_level, strict, unplanned):
    if pilot is not None:
        return _pilot_variance(pilot, design, n_samples, metric, confidence_level)
    if unplanned:
        return _no_variance(unplanned, design, n_samples, metric)
    if regression:
        return _no_variance("a regressors' loss is on your data's scale, which no calibration cell carries: "
                            "cvi.plan(pilot=...) plans it from a comparison on some of the data", design, n_samples,
                            metric)
    return _calibration_variance(learners, design, n_samples, metric, task, strict)


def _repeats_needed(learners, n_samples, task, design, unit, wanted, question, confidence_level, power):
    """The fewest repeats among the design's and those measured holding that reach ``wanted`` at ``n_samples``."""
    cv = design.n_splits
    holding = sorted({route.repeats for route in measured_repeats_routes(learners, n_samples, task, cv, 0)}
                     | {design.n_repeats})
    return next((r for r in holding if multiplier(question, confidence_level, power, cv * r - 1)
                 * math.sqrt(variance_factor(n_samples, cv, r) * unit * cv / n_samples) <= wanted), None)


def planned(design, estimator_types, n_samples, *, metric, regression, names, pilot=None, power=POWER,
            confidence_level=0.95, question="difference", wanted=None, unplanned=None, strict=True, n_groups=None):
    """The :class:`Plan` of ``design`` (:func:`~cvinference.policy._design.planned_design`) for learners of
    ``estimator_types`` at ``n_samples``: its figure from ``pilot``, else from the calibration cells; ``unplanned``
    says why no variance is known before the fits (leave-one-out), and without ``strict`` a comparison no cell
    measured is planned without a figure rather than refused; with ``n_groups`` the groups are the units its
    variance is read and carried in (the grouped cells, or a grouped pilot)."""
    learners = [learner_of(name) for name in estimator_types]
    task = grouped_task(not regression) if n_groups else "regression" if regression else fold_task(metric)
    cv, n_repeats = design.n_splits, design.n_repeats
    size = n_samples if n_groups is None else n_groups
    notes = [note.replace(" was run.", " is planned.") for note in design.notes]
    if unplanned is None and n_groups is None:  # leave-one-out and groups: the design's note reads their own cells
        reading = read_evidence("corrected-t", tuple(learners), n_samples, task=task, repeats=n_repeats)
        if not (reading.holds and reading.design_measured):  # the decision reads the same cells: one sentence
            notes.append(f"on {n_repeats} x {cv}-fold cross-validation, {reading.words}"
                         + ("" if reading.holds else ": the decision may rest on another test, or cannot tell"))
    found = _variance(design, learners, size, metric=metric, task=task, regression=regression, pilot=pilot,
                      confidence_level=confidence_level, strict=strict, unplanned=unplanned)
    df = cv * n_repeats - 1
    scale = multiplier(question, confidence_level, power, df)
    error = None if found.unit is None else math.sqrt(found.factor * found.unit * cv / size)
    low, high = (None, None) if found.unit is None else (
        scale * math.sqrt(found.factor * u * cv / size) for u in (found.low, found.high))
    detectable = None if error is None else scale * error
    n_needed = repeats_needed = None
    if wanted is not None and detectable is not None:
        n_needed = max(2 * cv, math.ceil(n_samples * (detectable / wanted) ** 2))
        repeats_needed = _repeats_needed(learners, size, task, design, found.unit, wanted, question,
                                         confidence_level, power)
    metric = found.metric
    return Plan(names=names, metric=metric if isinstance(metric, str) else "a callable metric", question=question,
                n_samples=int(n_samples), n_splits=int(cv), n_repeats=n_repeats, fits=design.fits,
                stages=design.stages(), most_fits=design.most_fits,
                test=display_label("corrected-t", f" ({n_repeats}x{cv}-fold)"), confidence_level=confidence_level,
                power=power, standard_error=error, df=df, detectable=detectable, half_width=None, low=low, high=high,
                wanted=wanted,
                n_samples_needed=n_needed, n_repeats_needed=repeats_needed, source=found.source,
                rests_on=found.rests_on, notes=(*notes, *found.notes))
