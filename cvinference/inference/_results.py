"""Immutable result objects of the inference layer, in scipy.stats' vocabulary.

:class:`Interval` and :class:`TestResult` say what they estimate (``estimand``),
what they assume (``assumptions``), which large-sample conditions applied
(``conditions``) and what went wrong (``warnings``). :class:`LargeSampleConditions`
holds the counts behind Wong's (2015) large-sample conditions, and
:class:`SchemeDiagnostic` the correlation of two correctness vectors.
"""

import dataclasses
import math
import types
from typing import NamedTuple

import numpy as np
from scipy import stats

from .._utils._arrays import readonly_array
from .._utils._docstring import fill_doc
from .._utils._kinds import (
    ALTERNATIVE,
    ANY,
    BOOLEAN,
    COUNT,
    INDICES,
    LEVEL,
    NON_NEGATIVE,
    NUMBER,
    P_VALUE,
    POSITIVE,
    TEXT,
    TEXTS,
    Array,
    Fields,
    Instance,
    LeadingFields,
    Mapping,
    Number,
    Options,
    Ordered,
    Sequence,
)
from .._utils._notebook import import_pandas, summary_html
from .._utils._params import PROBABILITY, Nullable, validate_params
from .._utils._serialize import Serializable
from .._utils._text import format_level, format_number, format_pvalue, format_table, text_block
from .._utils._upward import upward
from .._utils._warnings import Caution
from ._distributions import reference_quantile
from ._estimands import TARGET, check_target, described_lines
from ._methods import result_label
from ._test_inversion import INVERTED, far_differences_warning, inverted_set_warning, not_rejected


def _conditions_agree(owner, values):
    """``holds`` is every count's ``>= min_count``, cell by cell, and ``satisfied`` all of ``holds``."""
    holds, counts = values["holds"], values["counts"]
    if any(count.shape != holds.shape for count in counts.values()):
        raise ValueError(f"{owner}.counts must each have the shape of {owner}.holds {holds.shape}; got "
                         f"{[count.shape for count in counts.values()]}. Pass the output of to_dict() unchanged.")
    expected = np.logical_and.reduce([count >= values["min_count"] for count in counts.values()])
    if counts and not np.array_equal(expected, holds):
        raise ValueError(f"{owner}.holds disagrees with {owner}.counts and min_count={values['min_count']}. Pass "
                         "the output of to_dict() unchanged.")
    if values["satisfied"] != bool(holds.all()):
        raise ValueError(f"{owner}.satisfied={values['satisfied']} disagrees with {owner}.holds. Pass the output "
                         "of to_dict() unchanged.")


def _described(result, headline, checks=()):
    """A result's summary: its headline lines, what it estimates and assumes, ``checks``, notes, warnings."""
    lines = [*headline, *described_lines(result), *checks]
    return "\n".join(lines + text_block("notes", result.notes) + text_block("warnings", result.warnings))


@dataclasses.dataclass(frozen=True, repr=False, eq=False)
class LargeSampleConditions(Serializable):
    """Counts behind a large-sample condition, and whether it holds.

    Made by :func:`large_sample_conditions` and attached to every interval and
    test as ``conditions``.

    Attributes
    ----------
    rule : str
        The condition in words, with its source.
    min_count : int
        The smallest count the rule accepts (5 in Wong 2015).
    counts : mapping of str to ndarray of int, shape (n_checked_repeats, n_units)
        Each count the rule looks at, e.g. ``"r_j"`` and ``"m_j - r_j"``. A unit
        is a fold, or the whole vector under leave-one-out.
    holds : ndarray of bool, shape (n_checked_repeats, n_units)
        Whether every count of a unit reaches ``min_count``.
    satisfied : bool
        Whether the condition holds everywhere.
    failing_folds : tuple of int
        Folds (numbered as in ``result.fold``) where it fails, in any checked
        repeat. Empty when the units are not folds (leave-one-out, McNemar).
    failing_by_repeat : tuple of tuple of int
        The failing folds of each checked repeat.
    repeats : tuple of int
        The repeats that were checked.
    subject : str
        Whose results were checked ("A", "B", ...), empty for one result.
    units_are_folds : bool
        Whether the units are folds (False for the whole vector under
        leave-one-out and for counts such as McNemar's discordant pairs).
    """

    rule: str
    min_count: int
    counts: types.MappingProxyType
    holds: np.ndarray
    satisfied: bool
    failing_folds: tuple
    failing_by_repeat: tuple
    repeats: tuple
    subject: str = ""
    units_are_folds: bool = True

    _kinds = {"rule": TEXT, "counts": Mapping(Array("iu", ndim=2, low=0)), "holds": Array("b", ndim=2),
              "failing_folds": INDICES, "failing_by_repeat": Sequence(INDICES), "repeats": INDICES}
    _rules = (_conditions_agree,)

    @classmethod
    def _from_counts(cls, rule, min_count, counts, *, repeats, subject="", units_are_folds=True):
        counts = {name: readonly_array(np.atleast_2d(value), np.int64) for name, value in counts.items()}
        holds = np.logical_and.reduce([value >= min_count for value in counts.values()])
        holds.setflags(write=False)
        by_repeat = ((),) * holds.shape[0] if holds.all() or not units_are_folds else tuple(
            tuple(int(j) for j in np.flatnonzero(~row)) for row in holds
        )
        failing = tuple(sorted({j for row in by_repeat for j in row}))
        return cls(rule=rule, min_count=int(min_count), counts=types.MappingProxyType(counts), holds=holds,
                   satisfied=bool(holds.all()), failing_folds=failing, failing_by_repeat=by_repeat,
                   repeats=tuple(map(int, repeats)), subject=subject, units_are_folds=units_are_folds)

    def __repr__(self):
        who = f"subject={self.subject!r}, " if self.subject else ""
        return (f"{type(self).__name__}({who}satisfied={self.satisfied}, "
                f"failing_folds={self.failing_folds}, min_count={self.min_count})")

    def describe(self):
        """One line: the rule and whether it holds."""
        who = f"{self.subject}: " if self.subject else ""
        if self.satisfied:
            return f"{who}{self.rule}: holds"
        if self.units_are_folds:
            where = ", ".join(
                f"repeat {r} folds {list(folds)}" if len(self.repeats) > 1 else f"folds {list(folds)}"
                for r, folds in zip(self.repeats, self.failing_by_repeat, strict=True) if folds
            )
        else:
            where = ", ".join(f"{name} = {int(value.min())}" for name, value in self.counts.items()
                              if value.min() < self.min_count)
        return f"{who}{self.rule}: fails ({where})"

    _repr_html_ = summary_html

    def to_frame(self):
        """A pandas DataFrame with one row per checked repeat and unit.

        Columns: ``repeat``, ``fold`` (``unit`` when the units are not
        folds), one column per count, and ``holds``.

        Returns
        -------
        pandas.DataFrame
        """
        pandas = import_pandas()
        n_repeats, n_units = self.holds.shape
        columns = {"repeat": np.repeat(self.repeats, n_units),
                   "fold" if self.units_are_folds else "unit": np.tile(np.arange(n_units), n_repeats)}
        columns.update((name, count.ravel()) for name, count in self.counts.items())
        columns["holds"] = self.holds.ravel()
        return pandas.DataFrame(columns)

    def summary(self):
        """A table of the counts per unit and whether each holds.

        Returns
        -------
        str
        """
        lines = [self.describe()]
        for row, r in enumerate(self.repeats):
            if len(self.repeats) > 1:
                lines.append(f"repeat {r}")
            names = list(self.counts)
            unit = "fold" if self.units_are_folds else "unit"
            cells = [
                [str(j), *(str(self.counts[name][row, j]) for name in names), "yes" if self.holds[row, j] else "NO"]
                for j in range(self.holds.shape[1])
            ]
            lines.append(format_table([unit, *names, "holds"], cells))
        return "\n".join(lines)


_INTERVAL_DETAILS = {"averaging": Options("dataset", "fold"), "standard_error": Nullable(NON_NEGATIVE),
                     "critical_value": Nullable(NUMBER), "df": Nullable(NON_NEGATIVE), "n": Nullable(COUNT),
                     "dropped_folds": INDICES, "clipped": Sequence(Options("low", "high"))}
"""The keys every interval's ``details`` begin with, with their kinds."""

_INTERVAL_DEFAULTS = {"standard_error": None, "critical_value": None, "df": None, "n": None, "dropped_folds": (),
                      "clipped": ()}


def _interval_details(result):
    """Set ``result.details`` to a read-only mapping that begins with the keys of ``_INTERVAL_DETAILS``, in order."""
    details = dict(result.details or {})
    if "averaging" not in details:
        raise ValueError("details must hold 'averaging' ('dataset' or 'fold'): what the estimate averages; got "
                         f"the keys {sorted(details)}.")
    leading = {key: details.pop(key, _INTERVAL_DEFAULTS.get(key)) for key in _INTERVAL_DETAILS}
    object.__setattr__(result, "details", types.MappingProxyType(leading | details))


def _conditions_tuple(result):
    """Set ``result.conditions`` to a tuple when given as a list (the field of a frozen dataclass); any other
    value is left to the field's check, which names it."""
    if isinstance(result.conditions, list):
        object.__setattr__(result, "conditions", tuple(result.conditions))


@dataclasses.dataclass(frozen=True, repr=False, eq=False)
class SchemeDiagnostic(Serializable):
    """Correlation of two correctness vectors on the same instances.

    Wong's (2015, section 3, Definition 1b) scheme-independence assumption
    says that whether A is right on an instance is independent of whether B
    is. The phi coefficient of the two 0/1 correctness vectors measures how
    far the data are from that.

    Attributes
    ----------
    phi : float
        Pearson correlation of the two correctness vectors (nan when one of
        them is constant).
    both_correct, a_only, b_only, both_wrong : int
        The 2x2 table of instances: right by both, by A only, by B only, by neither.
    high : bool
        Whether ``|phi|`` reaches ``threshold``.
    threshold : float
    note : str
        What the value means for the test it accompanies.
    """

    phi: float
    both_correct: int
    a_only: int
    b_only: int
    both_wrong: int
    high: bool
    threshold: float
    note: str

    _kinds = {"phi": Number(-1, 1), "threshold": Number(0, 1, nan=False)}

    def __repr__(self):
        return f"{type(self).__name__}(phi={format_number(self.phi)}, high={self.high})"

    def summary(self):
        """The 2x2 table of right and wrong by A and B, phi, and what it means.

        Returns
        -------
        str

        Examples
        --------
        >>> from cvinference.results import SchemeDiagnostic
        >>> print(SchemeDiagnostic(phi=0.5, both_correct=40, a_only=5, b_only=5, both_wrong=10,
        ...                        high=True, threshold=0.5, note="phi = 0.50").summary())
        scheme independence (Wong 2015, Definition 1b): phi = 0.5 (|phi| >= 0.5 is high)
                   B right  B wrong
        A right         40        5
        A wrong          5       10
        phi = 0.50
        """
        threshold = format_number(self.threshold)
        verdict = f"|phi| >= {threshold} is high" if self.high else f"not high: |phi| < {threshold}"
        table = format_table(["", "B right", "B wrong"], [["A right", str(self.both_correct), str(self.a_only)],
                                                        ["A wrong", str(self.b_only), str(self.both_wrong)]])
        return "\n".join([f"scheme independence (Wong 2015, Definition 1b): phi = {format_number(self.phi)} "
                          f"({verdict})", table, self.note])

    _repr_html_ = summary_html


_INTERVAL_DOC_FIELDS = """
    estimand : str
        In words, what is estimated.
    assumptions : str
        What the method assumes, separated by semicolons.
    target : str
        Which error the result is about: ``"kfold"`` (the mean population
        error of the models fitted in the folds), ``"conditional"`` (the
        population error of the model fitted to the whole dataset) or
        ``"unconditional"`` (its expectation over datasets of this size).
    conditions : tuple of LargeSampleConditions
        The large-sample condition checks that applied (empty when none
        did): one per learner checked.
    notes : tuple of str
        How the result was obtained (e.g. why ``method="auto"`` chose a method).
    warnings : tuple of str
        Why the result may not be trusted; each was also issued as an
        :class:`InferenceWarning`.
"""


class _IntervalMethod(NamedTuple):
    """How :meth:`TestResult.confidence_interval` names its interval."""

    method: str
    note: str


class IntervalLike:
    """An estimate with bounds: unpacks as ``low, high`` and shows them in a one-line repr."""

    def __iter__(self):
        return iter((self.low, self.high))

    _repr_html_ = summary_html

    @fill_doc
    def plot(self, ax=None, *, path=None):
        """Draw the estimate with its interval, titled with the method, the level and the target (needs matplotlib).

        %(display)s
        ``ax=None`` draws on a small new figure (``cvinference.report.plot_estimate``).

        Parameters
        ----------
        %(plot_ax)s
        %(plot_path)s

        Returns
        -------
        %(plot_returns)s

        Examples
        --------
        >>> import matplotlib.pyplot as plt
        >>> from cvinference import CVResult, accuracy_interval
        >>> result = CVResult(y_true=[0, 1] * 50, y_pred=[0, 1] * 45 + [1, 0] * 5, fold=[0, 1] * 50)
        >>> drawn = accuracy_interval(result, method="wilson").plot()
        >>> print(drawn.ax_.get_title())
        95% wilson interval (dataset level): 0.9000
        target: kfold
        >>> plt.close(drawn.figure_)
        """
        return upward("report", "plot_estimate")(self, ax, path=path)

    def _repr_extra(self):
        return ""

    def __repr__(self):
        return (
            f"{type(self).__name__}(estimate={format_number(self.estimate)}, low={format_number(self.low)}, "
            f"high={format_number(self.high)}, confidence_level={self.confidence_level}, "
            f"method={self.method!r}{self._repr_extra()})"
        )


@dataclasses.dataclass(frozen=True, repr=False, eq=False)
class Interval(IntervalLike, Serializable):
    """A confidence interval for an accuracy or a difference of accuracies.

    Unpacks as ``low, high`` like scipy's ``ConfidenceInterval``.

    Attributes
    ----------
    estimate : float
        The point estimate.
    low, high : float
        The interval's bounds.
    confidence_level : float
    method : str
        ``"normal"``, ``"t"``, ``"wilson"``, ``"clopper-pearson"``,
        ``"agresti-min"`` (McNemar's test's interval), ``"half-sample"`` or
        ``"cv-clt"`` (:func:`loss_interval`), ``"conservative-z"``
        (:func:`conservative_z_interval`), or ``"cluster"`` (the
        cluster-robust interval of a record made with groups, and the
        interval of a test that takes the groups as the units).
    details : mapping
        Read-only: how the interval was computed, then method-specific
        figures. Every interval's details begin with

        - ``"averaging"``: ``"dataset"`` or ``"fold"`` (Wong 2015, section
          4.3.3), whether the estimate pools the instances or averages
          per-fold values;
        - ``"standard_error"``: the standard error of the estimate (None for
          the binomial methods);
        - ``"critical_value"``: the z or t quantile of the interval (for a
          two-sided interval, low = estimate - critical_value *
          standard_error before clipping to the possible range; for a
          one-sided interval, the bound on the closed side), or None;
        - ``"df"``: the degrees of freedom of the t quantile (None for z);
        - ``"n"``: the instances (dataset level) or folds (fold level) the
          estimate averages, or None;
        - ``"dropped_folds"``: the folds left out by
          ``drop_failing_folds=True``, a tuple of int;
        - ``"clipped"``: the bounds (``"low"``, ``"high"``) that the normal or
          t approximation put outside the quantity's possible range, and
          that were set to the range's end (empty when none was); its
          coverage near that end is not what ``confidence_level`` says.
"""

    estimate: float
    low: float
    high: float
    confidence_level: float
    method: str
    _: dataclasses.KW_ONLY
    estimand: str
    assumptions: str
    target: str
    conditions: tuple = ()
    details: types.MappingProxyType = dataclasses.field(default_factory=lambda: types.MappingProxyType({}))
    notes: tuple = ()
    warnings: tuple = ()

    _kinds = {"confidence_level": LEVEL, "method": TEXT, "target": TARGET,
              "details": LeadingFields(**_INTERVAL_DETAILS),
              "conditions": Sequence(Instance(LargeSampleConditions)), "notes": TEXTS, "warnings": TEXTS}
    _rules = (Ordered("low", "high"),)

    def __post_init__(self):
        check_target(self)
        _conditions_tuple(self)
        _interval_details(self)
        super().__post_init__()

    def summary(self):
        """The interval, what it estimates and assumes, and its warnings.

        Returns
        -------
        str
        """
        averaging = self.details["averaging"]
        headline = (f"{format_level(self.confidence_level)} {self.method} interval ({averaging} level): "
                    f"{format_number(self.estimate)} [{format_number(self.low)}, {format_number(self.high)}]")
        clipped = [f"clipped: the {side} bound, set to {format_number(getattr(self, side))}, the "
                   f"{'lowest' if side == 'low' else 'highest'} possible value" for side in self.details["clipped"]]
        return _described(self, [headline], [f"conditions: {c.describe()}" for c in self.conditions] + clipped)


Interval.__doc__ += _INTERVAL_DOC_FIELDS



def _checked_when_made(result):
    """A result's ``__post_init__``: its target known, then every field as ``from_dict`` checks it."""
    check_target(result)
    Serializable.__post_init__(result)

@dataclasses.dataclass(frozen=True, repr=False, eq=False)
class TestResult(Serializable):
    """The result of a test comparing the accuracies of A and B.

    Attributes
    ----------
    statistic : float
        The test statistic; t and z are positive when A is more accurate.
    pvalue : float
    df : float or None
        Degrees of freedom (None for z and the exact binomial test).
    alternative : str
        ``"two-sided"``, ``"less"`` or ``"greater"``: the alternative to
        accuracy(A) = accuracy(B); ``"greater"`` means A is more accurate.
    estimate : float
        The estimated difference accuracy(A) - accuracy(B).
    standard_error : float
        The standard error of ``estimate``: the one in the t or z statistic,
        or for McNemar's test the Wald standard error of the paired difference.
    method : str
        The test's name.
    diagnostic : SchemeDiagnostic or None
        The phi correlation of the two correctness vectors (None when A and B
        were not tested on the same instances).
    details : mapping
        Read-only, test-specific figures: the d_j (k-fold matched t), the
        counts ``n_-1``, ``n_0``, ``n_+1`` (leave-one-out matched t), the accuracies and
        pooled accuracy (z), the fold variances (t), or b, c, n and
        ``correction`` (McNemar).
"""

    __test__ = False  # keeps pytest from collecting the class by its name

    statistic: float
    pvalue: float
    df: float | None
    alternative: str
    estimate: float
    standard_error: float
    method: str
    estimand: str
    assumptions: str
    target: str
    _interval_standard_error: float
    _interval_df: float | None = None
    conditions: tuple = ()
    diagnostic: SchemeDiagnostic | None = None
    details: types.MappingProxyType = dataclasses.field(default_factory=lambda: types.MappingProxyType({}))
    notes: tuple = ()
    warnings: tuple = ()

    _kinds = {"pvalue": P_VALUE, "df": Nullable(NON_NEGATIVE), "alternative": ALTERNATIVE,
              "standard_error": NON_NEGATIVE, "method": TEXT, "target": TARGET,
              "_interval_standard_error": NON_NEGATIVE, "_interval_df": Nullable(NON_NEGATIVE),
              "conditions": Sequence(Instance(LargeSampleConditions)),
              "notes": TEXTS, "warnings": TEXTS}

    __post_init__ = _checked_when_made

    _repr_html_ = summary_html

    @validate_params(confidence_level=PROBABILITY)
    @fill_doc
    def plot(self, ax=None, *, confidence_level=0.95, path=None):
        """Draw the estimated difference with its interval and the line of no difference (needs matplotlib).

        %(display)s
        ``ax=None`` draws on a small new figure (``cvinference.report.plot_estimate``).

        Parameters
        ----------
        ax : matplotlib Axes or None, default=None
            Where to draw; None makes a new figure.
        confidence_level : float, default=0.95
            The level of :meth:`confidence_interval` drawn.
        %(plot_path)s

        Returns
        -------
        %(plot_returns)s
        """
        return upward("report", "plot_estimate")(self, ax, confidence_level=confidence_level, path=path)

    _difference_range = (-1.0, 1.0)
    """The possible range of the difference, to which the interval is clipped: that of two accuracies."""

    _difference_words = "accuracy A - accuracy B"
    """The difference, in the words of :meth:`summary`."""

    def __repr__(self):
        return (
            f"{type(self).__name__}(statistic={format_number(self.statistic)}, pvalue={format_number(self.pvalue)}, "
            f"df={format_number(self.df)}, alternative={self.alternative!r}, "
            f"estimate={format_number(self.estimate)}, method={self.method!r})"
        )

    @property
    def label(self):
        """How reports name the test: its row's label in the table of methods (docs/methods.md), with its
        ``details["variant"]``; ``method`` is its id."""
        return result_label(self)

    @validate_params(confidence_level=PROBABILITY)
    def confidence_interval(self, confidence_level=0.95):
        """Confidence interval for accuracy(A) - accuracy(B).

        Two-sided for ``alternative="two-sided"``; one-sided (bounded by -1 or
        1, the possible range of a difference of accuracies) otherwise, as in
        scipy's tests. Its ``averaging`` says what the estimate averages:
        ``"fold"`` for the t tests of per-fold differences (Wong's matched
        t over k folds, the corrected t), ``"dataset"`` for the z tests, the
        t of leave-one-out's per-instance differences and the cluster-robust
        tests of a grouped record (the instances pooled, the groups the
        units), whose interval's ``method`` is ``"cluster"``. A test whose
        ``details`` hold ``null_variance_coefficients`` (the clustered
        McNemar tests, whose statistic takes its variance under the null)
        is inverted instead: the interval is the differences that the same
        test does not reject (``details["not_rejected"]``), so it excludes
        0 exactly when ``pvalue < 1 - confidence_level``.

        Parameters
        ----------
        confidence_level : float, default=0.95
            The level of the interval.

        Returns
        -------
        Interval
        """
        one_sided = self.alternative != "two-sided"
        critical = reference_quantile(confidence_level if one_sided else (1 + confidence_level) / 2,
                                      self._interval_df)
        center, standard_error = self._interval_center()
        lowest, highest = self._difference_range
        low = lowest if self.alternative == "less" else max(lowest, center - critical * standard_error)
        high = highest if self.alternative == "greater" else min(highest, center + critical * standard_error)
        how = self._interval_method()
        details = {"averaging": self._interval_averaging(), "standard_error": standard_error,
                   "critical_value": critical, "df": self._interval_df}
        warnings = self.warnings
        if INVERTED in self.details:  # a test with its variance under the null: the differences it does not reject
            kept = not_rejected(self.estimate, self.details[INVERTED], confidence_level, self.alternative,
                                self._difference_range, self.pvalue < 1 - confidence_level)
            low, high = kept.low, kept.high
            details["not_rejected"] = kept.pieces
            far = far_differences_warning(self.details[INVERTED], critical)
            added = ((far,) if far else ()) + ((inverted_set_warning(kept.pieces, low, high),)
                                                  if len(kept.pieces) > 1 else ())
            warnings += tuple(Caution(text) for text in added if text not in warnings)
        return Interval(
            estimate=self.estimate, low=low, high=high, confidence_level=confidence_level, method=how.method,
            estimand=self.estimand, assumptions=self.assumptions, target=self.target,
            details=details, notes=(how.note,), warnings=warnings,
        )

    def _interval_center(self):
        """The interval's center and standard error."""
        return self.estimate, self._interval_standard_error

    def _clustered(self):
        """Whether the test takes a grouped record's groups as the units (its details then hold ``n_groups``)."""
        return "n_groups" in self.details

    def _interval_averaging(self):
        """What the interval's estimate averages: the instances (``"dataset"``) or the folds' values (``"fold"``).

        A z interval pools the instances; a t interval averages folds but for
        the cluster-robust t (the instances pooled, the groups as the units)
        and a t over the instances of leave-one-out (conditions whose units
        are not folds).
        """
        if self._interval_df is None or self._clustered():
            return "dataset"
        over_instances = self.conditions and not any(c.units_are_folds for c in self.conditions)
        return "dataset" if over_instances else "fold"

    def _interval_method(self):
        """The interval's method and the note that says where it comes from."""
        label = result_label(self)
        if INVERTED in self.details:
            return _IntervalMethod("cluster", f"interval of the {label} inverted: the differences d0 that the "
                                              "test of difference = d0, with the variance under that hypothesis, "
                                              "does not reject, the "
                                              f"{self.details['n_groups']} groups as the independent units; it "
                                              "excludes 0 exactly when the p-value is below its level")
        if self._clustered():
            reference = ("the normal quantile" if self._interval_df is None
                         else f"t with {format_number(self._interval_df)} degrees of freedom")
            return _IntervalMethod("cluster", f"interval of the {label}: cluster-robust (CR1) standard error, "
                                              f"{reference}, the {self.details['n_groups']} groups as the "
                                              "independent units")
        return _IntervalMethod("normal" if self._interval_df is None else "t", f"interval of the {label}")

    def summary(self):
        """The test, what it estimates and assumes, its diagnostic and warnings.

        Returns
        -------
        str
        """
        df = "" if self.df is None else f", df = {format_number(self.df)}"
        low, high = self.confidence_interval()
        headline = [
            f"{result_label(self)}: statistic = {format_number(self.statistic)}{df}, {format_pvalue(self.pvalue)} "
            f"({self.alternative})",
            f"estimate ({self.details.get('difference', self._difference_words)}): {self.estimate:+.4f}, "
            f"95% interval [{low:+.4f}, {high:+.4f}] ({self.confidence_interval().method})",
        ]
        checks = [f"conditions: {c.describe()}" for c in self.conditions]
        if self.diagnostic is not None:
            checks.append(f"scheme independence: {self.diagnostic.note}")
        return _described(self, headline, checks)


TestResult.__doc__ += _INTERVAL_DOC_FIELDS


@dataclasses.dataclass(frozen=True, repr=False, eq=False)
class McNemarTestResult(TestResult):
    """The result of McNemar's test, with Agresti and Min's interval.

    ``details`` holds the discordant counts b (A right, B wrong) and c
    (A wrong, B right), n and whether the continuity correction was used.
    """

    __test__ = False

    _kinds = {"details": Fields(a_correct_b_wrong=COUNT, a_wrong_b_correct=COUNT, n=POSITIVE, correction=BOOLEAN,
                                 variant=Options("exact", "chi-square"))}

    def _interval_center(self):
        b, c, n = (self.details[key] for key in ("a_correct_b_wrong", "a_wrong_b_correct", "n"))
        b, c, n = b + 0.5, c + 0.5, n + 2
        center = (b - c) / n
        return center, math.sqrt(((b + c) / n - center**2) / n)

    def _interval_method(self):
        note = ("Agresti & Min (2005) interval: the Wald interval of a difference of paired proportions "
                "after adding 1/2 to each cell of the 2x2 table")
        return _IntervalMethod("agresti-min", note)


@dataclasses.dataclass(frozen=True, repr=False, eq=False)
class LossDifferenceTestResult(TestResult):
    """The result of a test comparing two learners' mean losses (a regressor's squared error, say).

    Made by :func:`loss_difference_test`, :func:`mean_baseline_test` and
    :func:`corrected_resampled_ttest` on regression records. As every
    two-sample result, it is positive when A is better: ``estimate`` is
    mean loss(B) - mean loss(A), and ``statistic`` has its sign. A
    difference of losses has no bound, so the interval is not clipped.

    Examples
    --------
    >>> from cvinference.results import LossDifferenceTestResult
    >>> test = LossDifferenceTestResult(
    ...     statistic=2.0, pvalue=0.0455, df=None, alternative="two-sided", estimate=30.0, standard_error=15.0,
    ...     method="cv-clt-difference", estimand="difference in mean squared error", assumptions="",
    ...     target="kfold", _interval_standard_error=15.0)
    >>> low, high = test.confidence_interval()
    >>> round(low, 2), round(high, 2)
    (0.6, 59.4)
    """

    __test__ = False

    _difference_range = (-math.inf, math.inf)
    _difference_words = "mean loss B - mean loss A"


_CLUSTER_DETAILS = {"n_groups": POSITIVE, "min_group_size": POSITIVE, "max_group_size": POSITIVE,
                    "groups_within_folds": BOOLEAN, "design_effect": Number(0, math.inf),
                    "effective_n": Number(0, math.inf), "intraclass_correlation": Number(),
                    "iid_standard_error": NON_NEGATIVE, "small_sample_factor": Number(1, 2)}
"""The figures of the cluster-robust variance that a grouped record's results add to their ``details``."""


@dataclasses.dataclass(frozen=True, repr=False, eq=False)
class NoInformationTestResult(TestResult):
    """The result of the one-sided test of accuracy > the no-information rate.

    Made by :func:`no_information_test`. B is the trivial classifier that
    always predicts the majority class, whose accuracy on the tested
    instances is the no-information rate: ``estimate`` is accuracy minus
    that rate, and ``details`` hold ``no_information_rate``,
    ``majority_class``, ``n_correct``, ``n_tested``, ``accuracy`` (of the
    repeats used, before rounding) and ``imbalance_ratio`` (the largest
    class count over the smallest). The exact binomial test (``df`` None)
    has the count of correct predictions as its ``statistic``; the
    cluster-robust t of a grouped record (``df`` = G - 1) has the t, and
    its ``details`` also hold the figures of the cluster-robust variance
    (``n_groups``, ``design_effect``, ...).
    """

    __test__ = False

    _kinds = {"details": Fields(no_information_rate=P_VALUE, majority_class=ANY, n_correct=COUNT, n_tested=POSITIVE,
                                accuracy=P_VALUE, imbalance_ratio=Number(1, math.inf)).or_with(**_CLUSTER_DETAILS)}

    @validate_params(confidence_level=PROBABILITY)
    def confidence_interval(self, confidence_level=0.95):
        """One-sided interval for accuracy minus the no-information rate.

        The exact test's: the lower bound of ``scipy.stats.binomtest(n_correct,
        n_tested, alternative="greater").proportion_ci(confidence_level,
        "exact")`` less the rate, up to 1 less the rate. The cluster-robust
        t's: estimate - t_{G-1}(confidence_level) standard_error, up to 1
        less the rate. Either lies above 0 exactly when the test's p-value
        is below 1 - ``confidence_level``.

        Parameters
        ----------
        confidence_level : float, default=0.95
            The level of the interval.

        Returns
        -------
        Interval
        """
        rate, k, n = (self.details[key] for key in ("no_information_rate", "n_correct", "n_tested"))
        if self.df is not None:
            critical = reference_quantile(confidence_level, self.df)
            return Interval(
                estimate=self.estimate, low=max(-rate, self.estimate - critical * self.standard_error),
                high=1.0 - rate, confidence_level=confidence_level, method="cluster",
                estimand=self.estimand, assumptions=self.assumptions, target=self.target,
                details={"averaging": "dataset", "standard_error": self.standard_error, "critical_value": critical,
                         "df": self.df, "n": n},
                notes=(f"one-sided cluster-robust t bound of the accuracy (CR1 standard error, t with "
                       f"{format_number(self.df)} degrees of freedom, the {self.details['n_groups']} groups as the "
                       "independent units), less the no-information rate",), warnings=self.warnings)
        low = stats.binomtest(k, n, rate, alternative=self.alternative).proportion_ci(confidence_level, "exact").low
        return Interval(
            estimate=self.estimate, low=float(low) - rate, high=1.0 - rate, confidence_level=confidence_level,
            method="clopper-pearson", estimand=self.estimand, assumptions=self.assumptions,
            target=self.target, details={"averaging": "dataset", "n": n},
            notes=("one-sided exact (Clopper-Pearson) bound of the accuracy, less the no-information rate",),
            warnings=self.warnings,
        )

    def summary(self):
        """The test, the accuracy against the no-information rate, what it assumes, and warnings.

        Returns
        -------
        str
        """
        d = self.details
        low = self.confidence_interval().low
        if self.df is None:
            counted, interval = f"{d['n_correct']} of {d['n_tested']} correct", "one-sided exact interval"
        else:
            counted = (f"t = {format_number(self.statistic)}, df = {format_number(self.df)} ({d['n_tested']} "
                       f"instances in {d['n_groups']} groups)")
            interval = "one-sided cluster-robust t interval"
        return _described(self, [
            f"{result_label(self)}: {counted}, {format_pvalue(self.pvalue)} ({self.alternative})",
            f"accuracy {format_number(d['accuracy'])} against the no-information rate "
            f"{format_number(d['no_information_rate'])} (always predicting {d['majority_class']!r}; class "
            f"imbalance {format_number(d['imbalance_ratio'])}:1)",
            f"estimate (accuracy - no-information rate): {self.estimate:+.4f}, 95% {interval} "
            f"[{low:+.4f}, {1 - d['no_information_rate']:+.4f}]",
        ])


@dataclasses.dataclass(frozen=True, repr=False, eq=False)
class FTestResult(TestResult):
    """The result of the combined 5x2cv F test.

    The attributes of :class:`TestResult`, ``df`` the numerator degrees of
    freedom (10), and the denominator's: the statistic is F(10, 5) under
    the null hypothesis (Alpaydin 1999).

    Attributes
    ----------
    df_denominator : float or None
        The denominator degrees of freedom (5).
    """

    __test__ = False

    df_denominator: float | None = dataclasses.field(default=None, kw_only=True)

    _kinds = {"df_denominator": Nullable(NON_NEGATIVE)}

    def __repr__(self):
        return (
            f"{type(self).__name__}(statistic={format_number(self.statistic)}, "
            f"pvalue={format_number(self.pvalue)}, df={format_number(self.df)}, "
            f"df_denominator={format_number(self.df_denominator)}, alternative={self.alternative!r}, "
            f"estimate={format_number(self.estimate)}, method={self.method!r})"
        )

    def summary(self):
        """The test, what it estimates and assumes, and its warnings.

        Returns
        -------
        str
        """
        lines = TestResult.summary(dataclasses.replace(self, df=None)).split("\n")
        lines[0] = (f"{result_label(self)}: F = {format_number(self.statistic)}, "
                    f"df = ({format_number(self.df)}, {format_number(self.df_denominator)}), "
                    f"{format_pvalue(self.pvalue)} ({self.alternative})")
        return "\n".join(lines)
