"""The decision a user acts on: which of two learners is better on the metric asked for, or that one cannot tell.

What the policy reads, and nothing else:

- the records: a :class:`PairedCVResult` (both learners on identical folds);
- the tests computable from them, about the metric asked for: for accuracy,
  Wong's matched-sample t, independent-sample z and McNemar's test (on one
  partition, repeat 0) and the corrected repeated k-fold t (every repeat);
  for any other metric, the corrected t on the fold-level metric differences;
- the refitting results the caller passes: the 5x2cv t and nested
  cross-validation's difference interval (this layer fits nothing);
- the calibration evidence (``data/calibration.json``, see ``_evidence``):
  each test's worst measured type-I error and its mean power in the cells
  that stand for these two learners, by type, at this N.

The rule (documented in docs/reading-results.md, "The decision"):

1. a test is *eligible* when its measured type-I error stays at or below
   the evidence's limit (0.06 at alpha = 0.05) in every cell that stands for
   the pair: the worse of the two neighbouring measured sizes, the learners'
   own cells or, when borrowed, the worst of their family or of every
   measured learner; and, for a test whose variance is that of a one-learner
   interval the benchmark measures (the CV-CLT's), when that interval did not
   fall short of its coverage for either learner: the decision never rests on
   a test whose own variance the report beside it says under-covers;
2. the decision rests on the eligible refitting interval the caller passed
   (``nested=``), else on the eligible test with the most measured power
   (ties, and tests without a power figure, in the order of their rows'
   ``preference`` in the table of methods, docs/methods.md: a test is known by
   its result, never by the name it is shown with); every other test is shown
   for context with the reason it is not the one;
3. the answer is "A better" or "B better" when that test rejects at
   alpha = 1 - confidence_level (by the sign of its estimate, A minus B),
   "no difference shown" when it does not, and "cannot tell" when no test is
   eligible, with the calibrated refitting route of most measured power
   (nested cross-validation or the corrected t on another number of
   repeats: ``_routes.most_powerful``) and its cost. It is never a vote
   among tests, whose count of rejections moves with the seed;
4. a metric that orders two regressors as their records' loss does on
   identical folds (R² and the root mean squared error of a squared-error
   record) is decided on that loss: the same answer, resting on the same
   test, R²'s figures divided by var(y).
"""

import dataclasses
import math
import types
import warnings
from typing import NamedTuple

import numpy as np
from scipy import stats

from .._utils._docstring import fill_doc
from .._utils._kinds import BOOLEAN, LEVEL, NON_NEGATIVE, P_VALUE, TEXT, TEXTS, Instance, Options, Ordered, Sequence
from .._utils._notebook import summary_html
from .._utils._params import NAMES, PROBABILITY, ClassLabel, Nullable, Real, validate_params
from .._utils._params import Options as Choice
from .._utils._serialize import Serializable
from .._utils._text import bounds_text, format_figure, format_pvalue, listed
from .._utils._upward import upward
from .._utils._warnings import InferenceWarning, first_caller_outside_package, quietly
from ..inference._clusters import split_groups_warning
from ..inference._delong import delong_paired_test
from ..inference._estimands import TARGET, for_the_model
from ..inference._methods import METHODS, MethodRow, evidence_row, method_row, row_of
from ..inference._metric_interval import (
    SCORE_METRICS,
    _check_finite,
    _fold_values,
    _resolve_metric,
    differences_within_one,
    score_fold_values,
)
from ..inference._no_information import baseline_test_words, no_information_test
from ..inference._paired_tests import independent_sample_test, matched_sample_test, mcnemar_test
from ..inference._regression import BASELINES, loss_difference_test, loss_words, mean_baseline_test
from ..inference._resampled_tests import corrected_resampled_ttest, corrected_ttest_of, score_differences
from ..inference._score_metrics import corrected_fold_test
from ..records import PairedCVResult, PairedForwardResult
from ._decide_inputs import EstimateWithin, check_nested, check_pos_label, checked_tests, unused_inputs_warning
from ._decision_text import explanation as decision_explanation
from ._decision_text import paragraph as decision_paragraph
from ._decision_text import summary as decision_summary
from ._detectable import POWER, minimum_detectable_difference
from ._evidence import (
    TestEvidence,
    coverage_floor,
    evidence_source,
    grouped_task,
    measured_reach,
    measured_scheme,
    pair_learners,
    sized_by_groups,
    test_evidence,
    type_i_limit,
)
from ._forward_decision import forward_decision
from ._margin import MARGIN_ALTERNATIVES, MARGIN_ANSWERS, check_margin, margin_answer, symmetric
from ._margin_evidence import margin_measured, margin_type_i
from ._regression_evidence import cv_clt_shortfall
from ._routes import (
    NESTED_SETTINGS,
    Route,
    label_task,
    measured_repeats_routes,
    most_powerful,
    nested_fits,
    nested_route,
    power_words,
    repeats_routes,
)

ANSWERS = ("A better", "B better", "no difference shown", "cannot tell",
           *(answer for answers in MARGIN_ANSWERS.values() for answer in answers.values()))
"""The answers a :class:`Decision` can give, its ``answer``: of a difference, then of a margin (``margin=``)."""


def _label(method_id, details=""):
    """A test's name in reports: its row's label (docs/methods.md), then ``details`` ("(repeat 0)")."""
    return method_row(method_id).label + details


def _fold_test_label(what, result):
    """The corrected t's name on fold-level ``what``: "corrected t on fold f1 (2x10-fold)", say."""
    return _label("corrected_t", f" on fold {what} ({result.n_repeats}x{result.n_splits}-fold)")


def pair_tests(pair, *, min_count=5):
    """Every test of accuracy(A) = accuracy(B) the records allow, as (name, result).

    Wong's per-partition tests assume one partition of the data, so with
    several repeats they use repeat 0 and are named "(repeat 0)"; the
    corrected repeated k-fold t, made for repeats, uses all of them and is
    named "corrected t (RxK-fold)".
    """
    a, b = pair.a, pair.b
    repeat = None if a.n_repeats == 1 else 0
    suffix = "" if repeat is None else " (repeat 0)"
    tests = []
    if a.n_splits >= 2:
        tests.append((_label("matched_t", suffix),
                      quietly(matched_sample_test, a, b, repeat=repeat, min_count=min_count)))
    tests += [(_label("independent_z", suffix),
               quietly(independent_sample_test, a, b, repeat=repeat, min_count=min_count)),
              (_label("mcnemar", suffix), quietly(mcnemar_test, a, b, repeat=repeat))]
    if a.n_splits >= 2 and not a.is_loo:
        tests.append((_label("corrected_t", f" ({a.n_repeats}x{a.n_splits}-fold)"),
                      quietly(corrected_resampled_ttest, a, b)))
    if a.groups is not None:
        tests += [(_label("clustered_mcnemar_obuchowski", suffix),
                   quietly(mcnemar_test, a, b, method="obuchowski", repeat=repeat))]
        if a.loss_name == "zero_one":
            tests.append((cluster_paired_name(a), quietly(matched_sample_test, a, b, method="cluster")))
    return tests


@dataclasses.dataclass(frozen=True, repr=False, eq=False)
class DecisionTest(Serializable):
    """One test a decision considered: its figures, its calibration evidence, and its part in the decision.

    Attributes
    ----------
    name : str
        The test, as reports name it ("corrected t (5x10-fold)").
    estimate, low, high : float
        The difference metric(A) - metric(B) (for a loss, loss(B) - loss(A):
        positive when A is better) and its interval.
    pvalue : float
        Two-sided.
    target : str
        What the test is about: "kfold", "conditional" or "unconditional".
    measured_type_i, measured_power : float or None
        The calibration benchmark's worst type-I error and mean power of the
        test in the cells that stand for the pair (None: not measured).
    regime : str
        Those cells, in words.
    role : str
        "rests on" for the test the decision rests on, else "context".
    why_not : str
        Why a context test is not the one ("" for the one).
    df : float or None, default=None
        The degrees of freedom of the t quantile of its interval; None for
        the normal one.
    """

    __test__ = False  # not a pytest test

    name: str
    estimate: float
    low: float
    high: float
    pvalue: float
    target: str
    measured_type_i: float | None
    measured_power: float | None
    regime: str
    role: str
    why_not: str
    df: float | None = None

    _kinds = {"name": TEXT, "pvalue": P_VALUE, "target": TARGET, "measured_type_i": Nullable(P_VALUE),
              "measured_power": Nullable(P_VALUE), "role": Options("rests on", "context"),
              "df": Nullable(NON_NEGATIVE)}
    _rules = (Ordered("low", "high"), EstimateWithin())

    def __repr__(self):
        return f"DecisionTest(name={self.name!r}, estimate={self.estimate:+.4g}, pvalue={self.pvalue:.4g})"

    def summary(self):
        """The test's figures, its calibration evidence and its part in the decision.

        Returns
        -------
        str

        Examples
        --------
        >>> from cvinference.results import DecisionTest
        >>> test = DecisionTest(name="McNemar", estimate=0.05, low=-0.01, high=0.11, pvalue=0.12,
        ...                     target="conditional", measured_type_i=0.09, measured_power=0.4,
        ...                     regime="two trees at N = 100", role="context",
        ...                     why_not="its type-I error was 0.090 for two trees at N = 100, above 0.06")
        >>> print(test.summary())
        McNemar: A - B = +0.0500 [-0.0100, +0.1100], p = 0.120 (conditional target)
        calibration (two trees at N = 100): type-I error 0.090, power 0.400
        context, not the one: its type-I error was 0.090 for two trees at N = 100, above 0.06
        """
        figures = (f"{self.name}: A - B = {self.estimate:+.4f} {bounds_text(self.low, self.high, signed=True)}, "
                   f"{format_pvalue(self.pvalue)} ({self.target} target)")
        measured = ", ".join(f"{what} {'not measured' if value is None else f'{value:.3f}'}" for what, value in
                             (("type-I error", self.measured_type_i), ("power", self.measured_power)))
        regime = f" ({self.regime})" if self.regime else ""
        role = "the decision rests on it" if self.role == "rests on" else f"context, not the one: {self.why_not}"
        return "\n".join([figures, f"calibration{regime}: {measured}", role])

    _repr_html_ = summary_html


def _detectable_of_its_test(decision):
    """The minimum detectable difference of the test ``decision`` rests on (None when it rests on none)."""
    test = decision.rests_on
    if not isinstance(test, DecisionTest):
        return None
    return minimum_detectable_difference(test, confidence_level=decision.confidence_level, power=POWER)


def _rests_on_one_test(owner, values):
    """"cannot tell" rests on no test; any other answer on one, whose target is the decision's, whose role is "rests
    on" (every other test's "context"), and whose estimate and p-value give that answer (:func:`_answer`)."""
    rests_on, answer = values["rests_on"], values["answer"]
    fix = "Pass the output of to_dict() unchanged, or make decisions with decide()."
    if (rests_on is None) != (answer == "cannot tell") or values["target"] != (
            None if rests_on is None else rests_on.target):
        raise ValueError(f"{owner}.answer={answer!r}, {owner}.target={values['target']!r} and "
                         f"{owner}.rests_on disagree: 'cannot tell' rests on no test and has no target; any other "
                         f"answer rests on one test and has its target. {fix}")
    roles = [test.role for test in values["context"]]
    if (rests_on is not None and rests_on.role != "rests on") or any(role != "context" for role in roles):
        raise ValueError(f"{owner}.rests_on must have the role 'rests on' and every test of {owner}.context the role "
                         f"'context'; got {None if rests_on is None else rests_on.role!r} and {roles}. {fix}")
    alternative, margin = values["alternative"], values["margin"]
    alternative = alternative or ("difference" if margin is None else "non-inferior")
    if (margin is None) != (alternative == "difference"):
        raise ValueError(f"{owner}.alternative={alternative!r} and {owner}.margin={margin!r} disagree: a margin "
                         f"answers 'non-inferior' or 'equivalent', and a difference has no margin. {fix}")
    if rests_on is None:
        given = None
    elif margin is None:
        given = _answer(rests_on, 1 - values["confidence_level"])
    else:
        given = margin_answer(rests_on.estimate, rests_on.low, rests_on.high, rests_on.df,
                              confidence_level=values["confidence_level"], margin=margin,
                              alternative=alternative).answer
    if rests_on is not None and answer != given:
        raise ValueError(f"{owner}.answer={answer!r} disagrees with the test it rests on (estimate "
                         f"{rests_on.estimate:+.4g}, p = {rests_on.pvalue:.4g} at confidence level "
                         f"{values['confidence_level']:g}), which gives {given!r}. {fix}")


@dataclasses.dataclass(frozen=True, repr=False, eq=False)
class Decision(Serializable):
    """Which of two learners is better on a metric, on what evidence, and how far to trust it.

    Made by :func:`decide`; ``summary()``, the command line's text and the
    ``"decision"`` object of its JSON all render this one object.

    Attributes
    ----------
    answer : str
        One of "A better", "B better", "no difference shown", "cannot tell".
    names : tuple of str
        The learners A and B.
    metric : str
        What the decision is about ("accuracy", "balanced_accuracy", ...).
    target : str or None
        What the test it rests on estimates ("unconditional", "conditional",
        "kfold"); None when it cannot tell.
    confidence_level : float
        1 - alpha, the level of the test and of its interval.
    difference : float
        metric(A) - metric(B) as observed (all repeats pooled).
    rests_on : DecisionTest or None
        The one test the answer rests on; None when it cannot tell.
    context : tuple of DecisionTest
        The other tests, each with why it is not the one.
    reason : str
        Why this test (or why none).
    route : str
        When it cannot tell: the refitting route that holds, with its cost;
        otherwise "".
    caveats : tuple of str
        What limits the answer: borrowed evidence, sizes beyond the measured
        range, a metric other than the one the evidence measured, a contrary
        answer of accuracy, a learner that does not beat the trivial one.
    lower_is_better : bool, default=False
        Whether the metric is a loss (a regressor's mean squared error):
        then ``difference`` and the tests' estimates are metric(B) -
        metric(A), still positive when A is better, and the text says so.
    alternative : {"difference", "non-inferior", "equivalent"}, default="difference"
        The question: is either better (the answers "A better", "B better",
        "no difference shown"), is A not worse than B by more than
        ``margin`` ("A non-inferior", "not shown non-inferior"), or are they
        within +-``margin`` ("equivalent", "not shown equivalent"), all from
        the one test the decision rests on.
    margin : float or None, default=None
        The margin in the metric's units (a loss's: an increase), None for a
        difference.
    minimum_detectable_difference : float or None
        When the decision rests on a test: the smallest difference that test
        would have detected with power 0.8 at the variance it observed, in
        the metric's units (:func:`minimum_detectable_difference`). "No
        difference shown" rules out differences of this size or more, not
        smaller ones. None when it cannot tell. Not a parameter: always
        computed from ``rests_on`` and ``confidence_level`` (so
        ``dataclasses.replace`` keeps it right), and written by ``to_dict()``.
    """

    answer: str
    names: tuple
    metric: str
    target: str | None
    confidence_level: float
    difference: float
    rests_on: DecisionTest | None
    context: tuple
    reason: str
    route: str
    caveats: tuple
    lower_is_better: bool = False
    alternative: str = "difference"
    margin: float | None = None
    minimum_detectable_difference: float | None = dataclasses.field(init=False, default=None)

    _kinds = {"answer": Options(*ANSWERS), "names": Sequence(TEXT, length=2), "metric": TEXT,
              "target": Nullable(TARGET), "confidence_level": LEVEL, "rests_on": Nullable(Instance(DecisionTest)),
              "context": Sequence(Instance(DecisionTest)), "caveats": TEXTS, "lower_is_better": BOOLEAN,
              "alternative": Options("difference", *MARGIN_ALTERNATIVES), "margin": Nullable(NON_NEGATIVE),
              "minimum_detectable_difference": Nullable(NON_NEGATIVE)}
    _rules = (_rests_on_one_test,)

    _repr_html_ = summary_html

    def __post_init__(self):
        super().__post_init__()
        object.__setattr__(self, "minimum_detectable_difference", _detectable_of_its_test(self))

    @classmethod
    def _from_fields(cls, values):
        """The decision of the checked field values; the minimum detectable difference written (when not None) must
        be the one its test gives."""
        values = dict(values)
        written = values.pop("minimum_detectable_difference")
        decision = cls(**values)
        computed = decision.minimum_detectable_difference
        if written is not None and not (computed is not None and (
                math.isclose(written, computed, rel_tol=1e-9, abs_tol=1e-15)
                or (math.isnan(written) and math.isnan(computed)))):
            raise ValueError(f"minimum_detectable_difference={written!r} is not that of the test it rests on, "
                             f"{computed!r} (power {POWER:g} at confidence_level={decision.confidence_level!r}).")
        return decision

    def __repr__(self):
        test = "None" if self.rests_on is None else repr(self.rests_on.name)
        return f"Decision(answer={self.answer!r}, metric={self.metric!r}, rests_on={test})"

    @property
    def alpha(self):
        return 1 - self.confidence_level

    @property
    def text(self):
        """The decision in one paragraph: the answer, the figures of the test it rests on with its two-sided p-value
        (about a margin: its one-sided one too), why that test, and what "no difference shown" rules out; or why
        it cannot tell and the route that would."""
        return decision_paragraph(self)

    @fill_doc
    def plot(self, ax=None, *, path=None):
        """Draw the test the decision rests on (in red) and the tests for context, each with its interval.

        Needs matplotlib.
        %(display)s
        ``ax=None`` draws on a new figure (``cvinference.report.plot_decision``).
        ``PairedCVResult.plot()`` draws the same tests beside the folds.

        Parameters
        ----------
        ax : matplotlib Axes or None, default=None
        %(plot_path)s

        Returns
        -------
        %(plot_returns)s
        """
        return upward("report", "plot_decision")(self, ax, path=path)

    def summary(self):
        """The decision in at most five lines: the answer; what it rests on, with its p-value and its sidedness; at
        most two notes (what "no difference shown" rules out, the caveats that change what the answer means first);
        and ``details: decision.explain()``.

        Returns
        -------
        str

        See Also
        --------
        explain : everything the decision rests on.
        """
        return decision_summary(self)

    def explain(self):
        """The decision in full: the answer and its paragraph (what it rests on and why, the margin's or the minimum
        detectable difference's sentence, the refitting route when it cannot tell), the calibration of the test it
        rests on, each test for context with why it is not the one, and every caveat.

        Returns
        -------
        str

        See Also
        --------
        summary : the same decision in at most five lines.
        """
        return decision_explanation(self)


# --------------------------------------------------------------------------- the candidates


class _Candidate(NamedTuple):
    """A test's figures, as a decision weighs them: A - B, its interval, two-sided p-value and target; and the row
    of the method table its result comes from (None for a result no row computes), which alone says what the
    evidence measured: the name is the caller's label, shown and never read; ``df``, its interval's t degrees of freedom
    (None: normal), is what its minimum detectable difference needs."""

    name: str
    estimate: float
    low: float
    high: float
    pvalue: float
    target: str
    row: MethodRow | None
    given: bool = False  # a refitting interval the caller passed (nested=): it comes first when calibrated
    df: float | None = None

    def figures(self):
        """The fields a :class:`DecisionTest` shows."""
        return {key: value for key, value in self._asdict().items() if key not in ("row", "given")}

    @property
    def evidence_key(self):
        """The name of the method's rows in the calibration evidence (None: not measured)."""
        return None if self.row is None else self.row.evidence_key



def _interval_df(interval):
    """The degrees of freedom of an interval's t quantile, as a float; None for the normal one."""
    df = interval.details.get("df")
    return None if df is None else float(df)


def _from_test(name, test, confidence_level):
    interval = test.confidence_interval(confidence_level)
    return _Candidate(name, float(test.estimate), float(interval.low), float(interval.high), float(test.pvalue),
                      test.target, row_of(test), df=_interval_df(interval))


def _from_nested(interval):
    """A nested CV difference interval as a test: its two-sided normal p-value (0 outside the interval)."""
    se = interval.details["standard_error"]
    pvalue = 1.0 if not se else float(2 * stats.norm.sf(abs(interval.estimate) / se))
    return _Candidate("nested-cv difference", float(interval.estimate), float(interval.low), float(interval.high),
                      pvalue, interval.target, row_of(interval), given=True)


def _metric_test(pair, metric, pos_label):
    """The corrected t on fold-level differences of ``metric`` (every repeat), and the metric's name."""
    a, b = pair.a, pair.b
    score, name, limits, _ = _resolve_metric(metric, a, pos_label)
    rows = list(range(a.n_repeats))
    values_a, _ = _fold_values(score, a, rows)
    values_b, _ = _fold_values(score, b, rows)
    _check_finite(values_a, name, rows)
    _check_finite(values_b, name, rows)
    differences = score_differences(values_a - values_b, n_splits=a.n_splits, n_repeats=a.n_repeats,
                                    quantity=name, contrast="A minus B) of the two learners",
                                    bounded=differences_within_one(limits))
    test = quietly(corrected_ttest_of, differences)
    return _fold_test_label(name, a), test, name, float(
        np.mean(values_a) - np.mean(values_b))


def _candidates(pair, metric, tests, nested, confidence_level, pos_label):
    """The :class:`_Candidate` of each test about ``metric``, the metric's name and A - B observed."""
    if metric == "accuracy":
        if pos_label is not None:
            raise ValueError(f"pos_label={pos_label!r} is for a binary metric about one class, such as metric='f1'; "
                             "accuracy counts every class alike. Drop pos_label, or pass such a metric.")
        found = [_from_test(name, test, confidence_level) for name, test in tests]
        if nested is not None:
            found.append(_from_nested(nested))
        return found, "accuracy", pair.a.accuracy - pair.b.accuracy
    name, test, metric_name, difference = _metric_test(pair, metric, pos_label)
    return [_from_test(name, test, confidence_level)], metric_name, difference


def _preference(candidate):
    """A candidate's rank among eligible tests of equal (or unmeasured) power: its row's, steadiest first; a test
    no row ranks comes last."""
    row = candidate.row
    return len(METHODS) if row is None or row.preference is None else row.preference


def _evidence_of(evidence_key, learners, n_samples, limit, task="classification", repeats=None):
    """A test's evidence (found by its method's ``evidence_key``) for ``learners`` at ``n_samples``: the figures,
    its regime in words, and why it cannot be the one ("" when it can)."""
    found = (test_evidence(evidence_key, learners, n_samples, task, repeats) if evidence_key is not None
             else TestEvidence(None, None, None))
    regime = "" if found.regime is None else found.regime.describe()
    if found.type_i is None:
        why = "its type-I error was not measured by the calibration benchmark"
    elif found.type_i > limit:
        why = f"its type-I error was {found.type_i:.3f} for {found.worst_cell}, above {limit:g}"
    else:
        why = ""
    return {"evidence": found, "regime": regime, "why": why}


def _judged(candidate, learners, n_samples, limit, task="classification", repeats=None):
    """A candidate with its evidence: for ``learners`` at ``n_samples`` in the rows of ``task``, at the record's
    number of ``repeats`` where the rows measured it (:func:`test_evidence`)."""
    return {"candidate": candidate,
            **_evidence_of(candidate.evidence_key, learners, n_samples, limit, task, repeats)}


def _choose(judged):
    """The judged test the decision rests on (None when none is eligible): among the eligible tests, a refitting
    interval the caller passed first, then the most measured power, then the row's preference."""
    eligible = [j for j in judged if not j["why"]]
    return min(eligible, default=None, key=lambda j: (not j["candidate"].given, -(j["evidence"].power or 0.0),
                                                      _preference(j["candidate"])))


def _why_not(judged, chosen):
    """Why a judged test is not the one ``chosen`` (its own reason, or the rule that put ``chosen`` first)."""
    if judged["why"]:
        return judged["why"]
    name = chosen["candidate"].name
    if chosen["candidate"].given:
        return f"{name} was passed to decide and is calibrated for these learners: it comes first"
    return f"less measured power than {name}"


def _as_test(judged, role, why_not):
    return DecisionTest(**judged["candidate"].figures(), measured_type_i=judged["evidence"].type_i,
                        measured_power=judged["evidence"].power, regime=judged["regime"], role=role, why_not=why_not)


def _answer(test, alpha):
    if not test.pvalue < alpha or test.estimate == 0:
        return "no difference shown"
    return "A better" if test.estimate > 0 else "B better"


def _repeats_words(pair, metric, route):
    """The sentence of a route to more repeats of the cross-validation, and the call that runs it."""
    evidence, metric_argument = route.evidence, "" if metric == "accuracy" else f", metric={metric!r}"
    return (f"The corrected t on {route.repeats} x {route.n_splits}-fold cross-validation kept its type-I error at or "
            f"below {type_i_limit():g} (its worst: {evidence.type_i:.3f}) for {evidence.regime.describe()}: "
            f"cvinference.compare(estimator_a, estimator_b, X, y{metric_argument}, cv={route.n_splits}) runs it when "
            f"the decision needs it (by hand, n_repeats={route.repeats}; on the command line, --repeats "
            f"{route.repeats}): {route.fits} fits.")


def _metric_route(pair, metric):
    """The route of a set-level (or score) metric's "cannot tell": the most powerful number of repeats the benchmark
    measured holding, else why none settles it."""
    routes = repeats_routes(pair, metric)
    chosen = most_powerful(routes)
    if chosen is None:
        return (f"No route settles {metric} here: the benchmark measured no number of repeats of the corrected t on "
                f"fold {metric} within {type_i_limit():g} for these learners at N = {pair.a.n_samples}, and nested "
                "cross-validation covers per-instance losses (accuracy, a regressor's loss), not a set-level metric.")
    return _repeats_words(pair, metric, chosen) + power_words(routes)


def _route(pair, metric, nested):
    """The route of a "cannot tell" on accuracy: the most powerful calibrated one (:func:`most_powerful`), more
    repeats or nested cross-validation; nested cross-validation, for context, where neither is calibrated."""
    if nested is not None:
        return ""
    fits = pair.a.n_splits * pair.a.n_repeats * 2
    if metric != "accuracy":
        return _metric_route(pair, metric)
    routes = [route for route in (nested_route(pair), *repeats_routes(pair, metric)) if route is not None]
    chosen = most_powerful(routes)
    if chosen is not None and chosen.repeats is not None:
        return _repeats_words(pair, metric, chosen) + power_words(routes)
    judged = _evidence_of(method_row("nested_cv").evidence_key, pair_learners(pair),
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


def _baseline_caveats(pair, names, alpha):
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
    if chosen and chosen["candidate"].row is method_row("corrected_t") and measured_repeats and (
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


# --------------------------------------------------------------------------- regressors

_UNMEASURED_ORDER = ("nested-cv", "corrected t", "CV-CLT")
"""The order among a regression pair's tests while the benchmark has measured none of them (see decide's Notes)."""

_UNMEASURED_WHY = {
    "nested-cv": "its target is the models fitted to all the data, and its type-I error stayed the nearest to "
                 "nominal of the tests in the measured cells of classifiers (Bates, Hastie & Tibshirani 2023)",
    "corrected t": "its standard error allows for the variation of training sets (Nadeau & Bengio 2003), which "
                   "the CV-CLT's does not",
    "CV-CLT": "its target is the models fitted in these folds; it does not allow for the variation of training sets",
}
"""Why each test comes where it does in ``_UNMEASURED_ORDER``; tests outside it (DeLong's paired z) come last."""

_SCORE_WHY = _UNMEASURED_WHY | {
    "corrected t": "it compares each fold's models on that fold alone, and its standard error allows for the "
                   "variation of training sets (Nadeau & Bengio 2003); DeLong's paired z pools scores of different "
                   "fold models and leaves that variation out"}


def _is_loss_metric(metric, result):
    """Whether ``metric`` asks about a regression record's own loss ("accuracy", the default, does)."""
    negated = {"squared_error": "neg_mean_squared_error", "absolute_error": "neg_mean_absolute_error"}
    return metric in ("accuracy", result.loss_name, negated.get(result.loss_name))


_LOSS_EQUIVALENTS = {"squared_error": ("r2", "neg_root_mean_squared_error")}
"""Regression metrics that order two learners as the records' own loss does on identical folds: R² = 1 - MSE /
var(y), with the same var(y) for both, and RMSE = sqrt(MSE)."""


def _loss_equivalent(metric, result):
    """Whether ``metric`` is one of :data:`_LOSS_EQUIVALENTS` of a regression record's loss."""
    return result.classes is None and isinstance(metric, str) and metric in _LOSS_EQUIVALENTS.get(result.loss_name, ())


def _rescaled(test, spread):
    return dataclasses.replace(test, estimate=test.estimate / spread, low=test.low / spread, high=test.high / spread)


def _restated(decision, metric, y_true):
    """The decision on the mean squared error, restated for ``metric``, one of its equivalents: the same answer,
    resting on the same test; for R² its figures divided by var(y)."""
    spread = float(np.var(y_true))
    if metric == "r2" and spread > 0:
        caveat = (f"R² = 1 - mean squared error / var(y), with the same var(y) = {spread:.4g} (every instance's "
                  "target) for both learners, orders them as the mean squared error does: the decision on R² is "
                  "the mean squared error's, resting on the same test, with its figures divided by var(y) (R² of A "
                  "minus R² of B, positive when A is better).")
        return dataclasses.replace(
            decision, metric="r2", lower_is_better=False, difference=decision.difference / spread,
            rests_on=None if decision.rests_on is None else _rescaled(decision.rests_on, spread),
            context=tuple(_rescaled(test, spread) for test in decision.context), caveats=(*decision.caveats, caveat))
    if metric == "r2":
        caveat = ("R² was asked, and y is constant (var(y) = 0): R² is undefined; the decision is the mean squared "
                  "error's, in its units.")
    else:
        caveat = (f"{metric} was asked: the root mean squared error is the square root of the mean squared error "
                  "on the same folds, so the two order the learners alike; the decision is the mean squared "
                  "error's, in its units.")
    return dataclasses.replace(decision, caveats=(*decision.caveats, caveat))


def _loss_candidates(pair, nested, confidence_level):
    """The tests of a difference of mean losses: corrected t, CV-CLT and (when given) nested CV."""
    a = pair.a
    words = loss_words(a.loss_name)
    found = []
    if a.n_splits >= 2 and not a.is_loo:
        found.append(_from_test(_fold_test_label(words, a),
                                quietly(corrected_resampled_ttest, pair), confidence_level))
    variance = "all-pairs" if int(a.fold_sizes.min()) < 2 else "within-fold"
    differences = f" on per-instance {a.loss_name.replace('_', ' ')} differences"
    found.append(_from_test(_label("cv_clt_difference", differences),
                            quietly(loss_difference_test, pair, variance=variance), confidence_level))
    if nested is not None:
        found.append(_from_nested(nested))
    return found


def _unmeasured_choice(judged, order=_UNMEASURED_ORDER):
    """When the benchmark measured none of the tests: the first of ``order`` that was computed."""
    def rank(j):
        family = j["candidate"].evidence_key
        return order.index(family) if family in order else len(order)
    return min(judged, key=rank)


_SHARES_INTERVAL = {"cv_clt_difference": {"squared_error": "mean_squared_error",
                                          "absolute_error": "mean_absolute_error"}}
"""Tests whose variance is that of a one-learner interval the benchmark measures (the CV-CLT's), by the records'
loss: where that interval falls short for either learner, the test is not eligible, since the report beside the
decision warns that the same variance under-covers."""


def _shortfall_why(candidate, learners, n_samples, loss_name, variance, n_repeats, names):
    """Why ``candidate`` cannot be the one because its one-learner interval falls short for one of ``learners``
    at ``n_samples`` ("" when it does not)."""
    metric = _SHARES_INTERVAL.get(getattr(candidate.row, "id", None), {}).get(loss_name)
    if metric is None:
        return ""
    for name, learner in zip(names, learners, strict=True):
        found = cv_clt_shortfall(learner, n_samples, metric, variance, n_repeats)
        if found is not None:
            worst, regime = found
            return (f"its variance is that of the CV-CLT interval of one learner's {loss_words(loss_name)}, "
                    f"which covered its kfold target only {worst.worst:.3f} of the time in {worst.worst_cell} "
                    f"(below {coverage_floor():g}), among the cells that stand for {name} ({regime.describe()})")
    return ""


def _short_interval_why(candidate, pair, names):
    """:func:`_shortfall_why` for a pair's records ("" for a scheme the benchmark does not measure)."""
    if not measured_scheme(pair.a):
        return ""
    variance = "all-pairs" if int(pair.a.fold_sizes.min()) < 2 else "within-fold"
    return _shortfall_why(candidate, pair_learners(pair), pair.a.n_samples,
                          pair.a.loss_name, variance, pair.a.n_repeats, names)


DECISION_TESTS = types.MappingProxyType({
    "classification": ("matched-sample t", "independent-sample z", "McNemar", "corrected t", "5x2cv t"),
    "label metric": ("corrected t",),
    "roc_auc": ("corrected t", "DeLong paired z"),
    "regression": ("corrected t", "CV-CLT"),
    "grouped": ("corrected t", "clustered McNemar (Obuchowski)", "cluster paired t"),
    "grouped-regression": ("corrected t", "cluster paired t"),
})
"""The tests a decision weighs, by the evidence keys of their rows, for each kind of pair: what
:func:`cvinference.compare` computes from its folds and 5x2cv's before nested CV (accuracy, a label metric such as
balanced accuracy, ROC AUC, two regressors' squared error, grouped records)."""


def cell_choice(tests, learner, size, *, task="classification", repeats=None, nested=False, loss_name=None):
    """The evidence key of the test :func:`decide` rests on for two learners of ``learner``'s type (a null pair of
    the benchmark) at ``size`` instances (groups, for a grouped task), among ``tests`` (evidence keys, as in
    :data:`DECISION_TESTS`), judged by the rows of ``task`` at ``repeats`` as :func:`decide` judges them; with
    ``nested``, nested CV's when no other is eligible and it is (what the front door's ``nested="auto"`` runs);
    None: it cannot tell. ``loss_name``: a regression record's loss, for the CV-CLT's coverage rule.

    The choice depends on the learners, the size, the task and the evidence, never on the data, so in a measured
    cell the decision rejects exactly when this test rejects: its false-alarm rate there is this test's, on the
    same replications (benchmarks/decision_as_shipped.py).
    """
    learners, limit = [learner, learner], type_i_limit()
    judged = [_judged(_Candidate(key, 0.0, 0.0, 0.0, 1.0, "kfold", evidence_row(key)), learners, size, limit, task,
                      repeats) for key in tests]
    if loss_name is not None:
        judged = [dict(j, why=j["why"] or _shortfall_why(j["candidate"], learners, size, loss_name, "within-fold",
                                                         repeats or 1, ("A", "B"))) for j in judged]
    if task != "classification" and not any(j["evidence"].type_i is not None for j in judged):
        return _unmeasured_choice(judged, _GROUPED_ORDER if sized_by_groups(task) else _UNMEASURED_ORDER)[
            "candidate"].evidence_key
    chosen = _choose(judged)
    if chosen is None and nested:
        route = _judged(_Candidate("nested-cv", 0.0, 0.0, 0.0, 1.0, "conditional", evidence_row("nested-cv")),
                        learners, size, limit, task, repeats)
        return None if route["why"] else "nested-cv"
    return None if chosen is None else chosen["candidate"].evidence_key


CELL_FOLDS = 10
"""The folds K of the calibration benchmark's cells' R x K-fold cross-validation."""


def front_door_choice(tests, learner, size, *, task="classification", repeats=1, nested=False, loss_name=None):
    """``(key, repeats)``: the evidence key of the test the front door's decision rests on for two learners of
    ``learner``'s type at ``size``, from a cross-validation of ``repeats`` repeats (:func:`cell_choice`'s
    arguments), and the repeats of the record it rests on. Where :func:`cell_choice` cannot tell, the front door's
    ``nested="auto"`` runs the calibrated route of most measured power (:func:`~._routes.most_powerful`, no budget):
    nested CV where ``nested`` (for a cell that measured it) and it is calibrated, or more repeats (for accuracy and
    a label or score metric), after which the decision rests on :func:`cell_choice` at those repeats. ``key`` is
    None where it cannot tell."""
    key = cell_choice(tests, learner, size, task=task, repeats=repeats, loss_name=loss_name)
    if key is not None:
        return key, repeats
    learners, routes = [learner, learner], []
    if nested:
        found = test_evidence(evidence_row("nested-cv").evidence_key, learners, size, task)
        if found.type_i is not None and found.type_i <= type_i_limit():
            routes.append(Route("nested-cv", None, None, nested_fits(), found))
    if task != "regression" and not sized_by_groups(task):
        routes += [route for route in measured_repeats_routes(learners, size, task, CELL_FOLDS, repeats)
                   if route.repeats > repeats]
    chosen = most_powerful(routes)
    if chosen is None:
        return None, repeats
    if chosen.repeats is None:
        return "nested-cv", repeats
    return cell_choice(tests, learner, size, task=task, repeats=chosen.repeats, loss_name=loss_name), chosen.repeats


def _mean_baseline_caveats(pair, names, alpha):
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


def _regression_decision(pair, metric, names, confidence_level, nested, limit):
    """decide() for two regressors: the calibrated test when the benchmark measured one, else the stated order."""
    a, b = pair.a, pair.b
    if _is_loss_metric(metric, a):
        candidates, metric_name, difference = (_loss_candidates(pair, nested, confidence_level),
                                               loss_words(a.loss_name), b.mean_loss - a.mean_loss)
        lower_is_better = True
    else:
        name, test, metric_name, difference = _metric_test(pair, metric, None)
        candidates, lower_is_better = [_from_test(name, test, confidence_level)], False
    caveats = _mean_baseline_caveats(pair, names, 1 - confidence_level)
    common = {"names": names, "metric": metric_name, "confidence_level": confidence_level,
              "difference": float(difference), "lower_is_better": lower_is_better}
    return _unmeasured_or_calibrated(pair, candidates, common, caveats, limit, task="regression",
                                     subject="regressors", measures="classifiers")


def _unmeasured_or_calibrated(pair, candidates, common, caveats, limit, *, task, subject, measures, route=None,
                              order=_UNMEASURED_ORDER, order_why=_UNMEASURED_WHY):
    """The decision among ``candidates`` on the evidence's ``task`` rows; when none is measured, the stated order."""
    a = pair.a
    learners = pair_learners(pair)
    metric_name, confidence_level = common["metric"], common["confidence_level"]
    size = a.n_groups if sized_by_groups(task) else a.n_samples
    judged = [_judged(candidate, learners, size, limit, task=task, repeats=a.n_repeats) for candidate in candidates]
    measured = any(j["evidence"].type_i is not None for j in judged)
    regime = next((j["evidence"].regime for j in judged if j["evidence"].regime is not None), None)
    if regime is not None:
        caveats = [*regime.caveats(), *caveats]
    if measured:
        judged = [dict(j, why=j["why"] or _short_interval_why(j["candidate"], pair, common["names"]))
                  for j in judged]
        chosen = _choose(judged)
        if chosen is None:
            reasons = "; ".join(f"{j['candidate'][0]}: {j['why']}" for j in judged)
            return Decision(answer="cannot tell", target=None, rests_on=None,
                            context=tuple(_as_test(j, "context", j["why"]) for j in judged),
                            reason=f"No test of these {subject} kept its type-I error at or below {limit:g} in "
                                   f"{evidence_source()} ({reasons}).",
                            route="" if route is None else route(pair, metric_name), caveats=tuple(caveats), **common)
        reason = (f"It rests on {chosen['candidate'].name}, whose type-I error the calibration benchmark measured at "
                  f"{chosen['evidence'].type_i:.3f} (at most {limit:g}) for {chosen['regime']}.")
    else:
        chosen = _unmeasured_choice(judged, order)
        family = chosen["candidate"].evidence_key
        reason = (f"It rests on {chosen['candidate'].name}: the calibration benchmark has not yet measured any "
                  f"comparison of {subject}, so no test's type-I error is known here, and the order for unmeasured "
                  f"tests ({', '.join(order)}) puts it first: {order_why[family]}.")
        caveats.insert(0, f"Not calibrated: the type-I error of the {family} on {metric_name} was not measured by "
                          f"the calibration benchmark (docs/calibration.md measures {measures}); read the p-value as "
                          "its method's own, not as a checked one.")
        if chosen["candidate"].row is method_row("corrected_t") and a.n_repeats < 10:
            caveats.append(f"The corrected t here has {a.n_repeats * a.n_splits} fold differences; Bouckaert & Frank "
                           "(2004) found it most replicable with 10 x 10-fold cross-validation (--repeats 10).")
    rests_on = _as_test(chosen, "rests on", "")
    unmeasured = f"not measured for {subject} either; {rests_on.name} comes first in the order for unmeasured tests"
    context = tuple(_as_test(j, "context", _why_not(j, chosen) if measured else unmeasured)
                    for j in judged if j is not chosen)
    return Decision(answer=_answer(rests_on, 1 - confidence_level), target=rests_on.target, rests_on=rests_on,
                    context=context, reason=reason, route="", caveats=tuple(caveats), **common)


_GROUPED_ORDER = ("nested-cv", "corrected t", "clustered McNemar (Obuchowski)", "cluster paired t")
"""The order among a grouped pair's tests while the benchmark has measured none of them."""

_GROUPED_WHY = _UNMEASURED_WHY | {
    "corrected t": "over group-respecting folds each fold's difference averages whole groups, and its standard "
                   "error allows for the variation of training sets (Nadeau & Bengio 2003)",
    "clustered McNemar (Obuchowski)": "it takes the groups as the independent units (Obuchowski 1998); its "
                                      "target is the models fitted in these folds",
    "cluster paired t": "it takes the groups as the independent units (Cameron & Miller 2015); its target is the "
                        "models fitted in these folds",
}


def cluster_paired_name(result):
    """The cluster-robust paired t's name in reports: "cluster paired t on per-instance correctness", say."""
    words = "correctness" if result.loss_name == "zero_one" else result.loss_name.replace("_", " ")
    return _label("cluster_paired_t", f" on per-instance {words}")


def _grouped_candidates(pair, nested, confidence_level):
    """The tests of a grouped pair's accuracy or mean loss that take groups as the units, and nested CV when given."""
    a = pair.a
    found = []
    if a.n_splits >= 2 and not a.is_loo:
        words = "accuracy" if a.classes is not None else loss_words(a.loss_name)
        found.append(_from_test(_fold_test_label(words, a),
                                quietly(corrected_resampled_ttest, pair), confidence_level))
    if a.classes is not None:
        found.append(_from_test(_label("clustered_mcnemar_obuchowski", " (repeat 0)" if a.n_repeats > 1 else ""),
                                quietly(mcnemar_test, pair, method="obuchowski", repeat=0 if a.n_repeats > 1 else None),
                                confidence_level))
    if a.classes is None or a.loss_name == "zero_one":
        found.append(_from_test(cluster_paired_name(a), quietly(matched_sample_test, pair, method="cluster"),
                                confidence_level))
    if nested is not None:
        found.append(_from_nested(nested))
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
    caveats += (_baseline_caveats(pair, names, 1 - confidence_level) if classification
                else _mean_baseline_caveats(pair, names, 1 - confidence_level))
    return _unmeasured_or_calibrated(pair, _grouped_candidates(pair, nested, confidence_level), common, caveats,
                                     limit, task=grouped_task(classification),
                                     subject="learners on grouped instances",
                                     measures="independent instances", order=_GROUPED_ORDER,
                                     order_why=_GROUPED_WHY)


SINGLE_SET_REGIME = "one evaluation set: the models fixed, the rows independent"
"""The regime of a decision on one evaluation set, where a test's own assumptions hold by design."""


def _check_single_set_metric(pair, metric):
    """Refuse, on one evaluation set, a metric no test of it computes there: one averaged over folds (F1, ...)."""
    a = pair.a
    auc = isinstance(metric, str) and SCORE_METRICS.get(metric) == "roc_auc"
    if auc:
        unscored = [label for label, record in (("A", a), ("B", pair.b)) if record.y_score is None]
        if unscored:
            which = " and ".join(unscored)
            raise ValueError(f"decide on metric={metric!r} compares the two models' scores, and {which}'s record "
                             "kept none; make both records with y_score (CVResult.from_predictions(..., y_score=...)).")
    if metric == "accuracy" or (a.classes is None and _is_loss_metric(metric, a)) or (auc and a.groups is None):
        if a.classes is None and a.groups is not None:
            raise ValueError("decide on one evaluation set of regressors with groups has no test yet (the paired t of "
                             "losses counts rows); drop groups to take the rows as independent, or compare their "
                             "losses with matched_sample_test(pair, method='cluster') on cross-validated records.")
        return
    shown = metric if isinstance(metric, str) else "a callable"
    if a.classes is None:
        fix = (f"decide on the records' own loss ({a.loss_name!r}: the paired t of per-row losses), or make the "
               "records with the loss wanted (CVResult.from_predictions(..., loss='absolute_error'))")
    else:
        fix = ("decide on 'accuracy' (McNemar's test" + (", Obuchowski's with groups" if a.groups is not None else "")
               + "), or 'roc_auc' (DeLong's paired test) with scores and without groups")
    raise ValueError(f"decide on metric={shown!r} compares the metric's fold values, and these records are one "
                     f"evaluation set (one fold), so they hold one value of it each: no test of it applies; {fix}.")


def _single_set_decision(pair, names, confidence_level, metric="accuracy"):
    """decide() on one evaluation set (one fold: a holdout, a benchmark): McNemar's test (Obuchowski's with groups),
    DeLong's paired test for the ROC AUC or, for regressors, the paired t on per-row losses, whose assumptions hold
    by design."""
    a, b = pair.a, pair.b
    classification = a.classes is not None
    grouped = a.groups is not None
    if metric != "accuracy" and classification:
        binary = len(a.classes) == 2
        test = quietly(delong_paired_test, a.y_true, a.y_score[0], b.y_score[0],
                       pos_label=a.classes[1] if binary else None, classes=None if binary else a.classes)
        name = _label("delong_paired")
        difference = test.estimate
    elif classification:
        test = quietly(mcnemar_test, pair, method="obuchowski" if grouped else "mcnemar")
        name = _label("clustered_mcnemar_obuchowski" if grouped else "mcnemar")
        difference = a.accuracy - b.accuracy
    else:
        test = quietly(loss_difference_test, pair)
        name = _label("cv_clt_difference")
        difference = b.mean_loss - a.mean_loss
    test = for_the_model(test, a, b)
    units = f"the {a.n_groups} groups" if grouped else f"the {a.n_samples} rows"
    regime = SINGLE_SET_REGIME.replace("the rows", units)
    candidate = _from_test(name, test, confidence_level)
    rests_on = DecisionTest(**candidate.figures(), measured_type_i=None, measured_power=None, regime=regime,
                            role="rests on", why_not="")
    caveats = [f"One evaluation set: the figures are about these two models as they are (their error on the "
               f"population {units} are drawn from), not about the learners that made them, whose training "
               "data did not vary here."]
    caveats += (_baseline_caveats(pair, names, 1 - confidence_level) if classification
                else _mean_baseline_caveats(pair, names, 1 - confidence_level))
    source = ("DeLong et al. 1988" if metric != "accuracy" and classification else "McNemar 1947; Kohavi 1995, "
              "\"Holdout\"" + ("; Obuchowski 1998 for groups" if grouped else ""))
    reason = (f"It rests on {name}: on one evaluation set the models are fixed and {units} are independent draws, "
              f"which is all the test assumes ({source}), so its type-I error holds by design; the calibration "
              "benchmark, which measures the variation of training sets, has nothing to add.")
    named = metric if classification and metric != "accuracy" else (
        "accuracy" if classification else loss_words(a.loss_name))
    return Decision(answer=_answer(rests_on, 1 - confidence_level), names=names,
                    metric=named, target=rests_on.target,
                    confidence_level=confidence_level, difference=float(difference), rests_on=rests_on, context=(),
                    reason=reason, route="", caveats=tuple(caveats), lower_is_better=not classification)


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
        candidate = _from_test(name, test, confidence_level)
        rests_on = DecisionTest(**candidate.figures(), measured_type_i=measured, measured_power=power,
                                regime=regime, role="rests on", why_not="")
        return Decision(answer=_answer(rests_on, 1 - confidence_level), names=names, metric=loss,
                        target=rests_on.target, confidence_level=confidence_level, difference=float(test.estimate),
                        rests_on=rests_on, context=(), reason=reason, route="", caveats=tuple(caveats),
                        lower_is_better=True)

    return forward_decision(pair, names, confidence_level, build)


def _score_decision(pair, metric, names, confidence_level, limit, pos_label):
    """decide() on a score metric ("roc_auc"): the corrected t on fold differences, DeLong's paired z as context."""
    a, b = pair.a, pair.b
    for result in (a, b):
        _resolve_metric(metric, result, pos_label)
    rows = range(a.n_repeats)
    values_a, values_b = score_fold_values(a, metric, rows), score_fold_values(b, metric, rows)
    candidates = [_from_test(_fold_test_label(metric, a),
                             quietly(corrected_fold_test, values_a, values_b, metric=metric), confidence_level)]
    if SCORE_METRICS[metric] == "roc_auc" and a.groups is None:  # DeLong's z counts instances
        binary = len(a.classes) == 2
        delong = quietly(delong_paired_test, a.y_true, a.y_score[0], b.y_score[0],
                         pos_label=a.classes[1] if binary else None, classes=None if binary else a.classes)
        candidates.append(_from_test(_label("delong_paired", " (pooled scores, repeat 0)"), delong, confidence_level))
    common = {"names": names, "metric": metric, "confidence_level": confidence_level,
              "difference": float(values_a.mean() - values_b.mean())}
    caveats = [*_baseline_caveats(pair, names, 1 - confidence_level)]
    return _unmeasured_or_calibrated(pair, candidates, common, caveats, limit, task=metric, route=_metric_route,
                                     subject=f"learners on {metric}", measures="accuracy and regression losses",
                                     order_why=_SCORE_WHY)


MARGIN = Real(0.0, math.inf, closed="neither", what="a margin in the metric's units",
              example="0.01 for one point of accuracy")
"""The rule of a ``margin=`` parameter: a positive number in the metric's units."""


def margin_question(margin, alternative):
    """The question of ``margin`` and ``alternative`` (None: "non-inferior" with a margin, else "difference"),
    refused where they disagree."""
    alternative = alternative or ("difference" if margin is None else "non-inferior")
    if (margin is None) != (alternative == "difference"):
        raise ValueError(f"alternative={alternative!r} with margin={margin!r}: 'non-inferior' and 'equivalent' need a "
                         "margin in the metric's units (margin=0.01 for one point of accuracy), and a difference "
                         "takes none; pass both, or neither.")
    return alternative


def _margin_evidence(decision, pair, alternative):
    """The margin calibration's figures for the test ``decision`` rests on, answering ``alternative`` on ``pair``:
    measured for accuracy on ungrouped k-fold records only (None elsewhere, or where that test was not measured)."""
    if (decision.metric != "accuracy" or not isinstance(pair, PairedCVResult) or pair.a.groups is not None
            or pair.a.n_splits < 2 or pair.a.is_loo):
        return None
    return margin_type_i(decision.rests_on.name, pair_learners(pair), pair.a.n_samples, alternative,
                         pair.a.n_repeats)


def _on_margin(decision, margin, alternative, pair):
    """``decision`` answering about ``margin`` from the test it rests on, where the margin calibration measured that
    test's one-sided answer within the limit at the margin's boundary (or did not measure it: then with a caveat);
    "cannot tell" where that test's interval cannot be re-levelled (not symmetric) or its answer was measured wrong
    too often at the boundary, the test then shown for context."""
    test = decision.rests_on
    if test is None:
        return dataclasses.replace(decision, alternative=alternative, margin=margin)
    evidence = _margin_evidence(decision, pair, alternative)
    why = ""
    if not symmetric(test.estimate, test.low, test.high):
        why = (f"its interval [{test.low:.6g}, {test.high:.6g}] is not symmetric about {test.estimate:.6g}, so its "
               "level cannot be changed from its bounds; a margin needs a test with a t or normal interval.")
    elif evidence is not None and not evidence.holds:
        why = (f"at a true difference of exactly the margin, its {alternative} answer was wrong {evidence.type_i:.3f} "
               f"of the time for {evidence.worst_cell}, above {type_i_limit():g} (the margin calibration, "
               "benchmarks/margin_calibration.py; docs/calibration.md, \"Non-inferiority and equivalence\").")
    if why:
        return dataclasses.replace(
            decision, answer="cannot tell", target=None, rests_on=None, alternative=alternative, margin=margin,
            context=(dataclasses.replace(test, role="context", why_not=why), *decision.context),
            reason=f"The test the decision would rest on, {test.name}, cannot answer a margin: {why}")
    found = margin_answer(test.estimate, test.low, test.high, test.df, confidence_level=decision.confidence_level,
                          margin=margin, alternative=alternative)
    if evidence is None:
        scope = (" for this record and metric (it measured accuracy on k-fold records without groups)"
                 if margin_measured() else "")
        return dataclasses.replace(decision, answer=found.answer, alternative=alternative, margin=margin, caveats=(
            *decision.caveats, f"The margin calibration did not measure {test.name}'s {alternative} answer at the "
            f"margin's boundary{scope}: its type-I error there, under a true difference of exactly the margin, is "
            "not known."))
    margins = " to ".join(dict.fromkeys(f"{m:g}" for m in (evidence.margins[0], evidence.margins[-1])))
    reason = (f"{decision.reason} At a true difference of exactly the margin, its {alternative} answer was wrong at "
              f"most {evidence.type_i:.3f} of the time (at most {type_i_limit():g}) for {evidence.regime}, margins "
              f"{margins} (benchmarks/margin_calibration.py)." + (f" {evidence.beyond}" if evidence.beyond else ""))
    return dataclasses.replace(decision, answer=found.answer, alternative=alternative, margin=margin, reason=reason)


@validate_params(confidence_level=PROBABILITY, names=NAMES, pos_label=Nullable(ClassLabel()),
                 margin=Nullable(MARGIN),
                 alternative=Nullable(Choice("difference", *MARGIN_ALTERNATIVES)))
def decide(pair, *, metric="accuracy", confidence_level=0.95, tests=None, nested=None, names=None, pos_label=None,
           margin=None, alternative=None):
    """Decide which of two learners is better on ``metric``, resting on the one test calibrated for them.

    Parameters
    ----------
    pair : PairedCVResult
        Both learners on identical folds, from :meth:`CVEvaluator.compare`.
    metric : str, Metric or callable, default="accuracy"
        What the decision is about: ``"accuracy"``, or a scikit-learn scorer
        name computable from predicted labels (``"balanced_accuracy"``,
        ``"f1"``, ``"matthews_corrcoef"``, ...), a :func:`make_metric`
        metric or a callable ``(y_true, y_pred) -> float``, higher being
        better. Another metric is tested by the corrected t on its
        fold-level differences. For two regressors the default (and
        ``"neg_mean_squared_error"`` or ``"neg_mean_absolute_error"``,
        matching the records' loss) is their mean loss, lower being better;
        ``"r2"`` and ``"neg_root_mean_squared_error"`` of squared-error
        records are decided on the mean squared error, which orders the
        learners alike (Notes); another regression metric is tested on its
        fold-level differences.
    confidence_level : float, default=0.95
        1 - alpha for the tests and their intervals.
    tests : list of (str, TestResult) or None, default=None
        The accuracy tests to consider; None computes those the records
        allow (:func:`pair_tests`). Add refitting tests here, such as
        ``("5x2cv t", paired_ttest_5x2cv(...))``. The name is what the
        decision shows, nothing more: a test's calibration evidence and its
        rank are found from the result itself (its row of the table of
        methods, docs/methods.md), so ``("Dietterich 5x2cv t", test)``
        decides as ``("5x2cv t", test)`` does; a result no row computes
        (one made by hand) is not measured.
    nested : Interval or None, default=None
        Nested cross-validation's difference interval,
        ``nested_cv_interval(estimator_a, X, y, estimator_b=estimator_b,
        n_splits=5, n_repeats=5)`` on the same data (for accuracy, or for
        two regressors' loss with the same ``loss=``).
    names : tuple of str or None, default=None
        The learners' names; None takes them from the records.
    pos_label : str, int, float or None, default=None
        The positive class of a binary metric about one class (``"f1"``,
        ``"precision"``, ``"recall"``, ``"jaccard"``), as in
        :func:`metric_interval`; None is sklearn's default, 1.
    margin : float or None, default=None
        With ``alternative``: the margin, positive, in the metric's units
        (for a loss, an increase of it), below the width of the metric's
        range where it has one (below 1 for accuracy, F1 or ROC AUC: 0.01
        is one point); a margin no difference can reach is refused.
    alternative : {"difference", "non-inferior", "equivalent"} or None, default=None
        The question; None: ``"non-inferior"`` with a margin, else
        ``"difference"``. ``"difference"``: is either better. ``"non-inferior"``:
        is A not worse than B by ``margin`` or more ("A non-inferior" when
        the lower bound of the test's 1 - 2 alpha interval of the difference
        is above -margin, a one-sided test at alpha). ``"equivalent"``: is
        the difference within +-margin ("equivalent" when the whole
        1 - 2 alpha interval is, Schuirmann's 1987 two one-sided tests).
        Both rest on the test the difference's decision rests on, chosen as
        for a difference; "cannot tell" where it is not symmetric about its
        estimate (its level cannot be changed from its bounds).

    Returns
    -------
    Decision

    Notes
    -----
    The decision rests on one test, chosen before its p-value is seen: the
    test whose type-I error the calibration benchmark (docs/calibration.md)
    measured at or below its limit for these learners and this sample size,
    with the most power (see this module's docstring for the rule). Counting
    the tests that reject instead (a vote) makes the answer follow the seed:
    Dietterich (1998) and Bouckaert & Frank (2004) show how differently
    these tests behave on the same data. When no computable test is
    calibrated for the pair, the answer is "cannot tell", and its route is
    the calibrated refitting route with the most measured power on the
    power cells the routes share (the fewer fits on a tie): nested
    cross-validation (Bates, Hastie & Tibshirani 2023; accuracy only) or
    the corrected t on another number of repeats (any metric with a value
    per fold), each where the benchmark measured it within the limit for
    these learners at about this size; nested cross-validation, for
    context, where neither is. :func:`compare` runs that route within its
    budget.
    A ``nested`` interval the caller passes is the one the decision rests on
    whenever the benchmark measured it within the limit for these learners;
    otherwise it is shown for context with its measured type-I error. The
    nested interval's p-value is the two-sided normal one of its estimate
    and standard error, so it rejects exactly when the interval excludes 0.

    **Regressors.** The tests of a difference of mean losses, loss(B) -
    loss(A) (positive when A is better): the corrected t on the fold mean
    losses (Nadeau & Bengio 2003; Bouckaert & Frank 2004, all repeats), the
    CV-CLT on the per-instance loss differences (Bayle, Bayle, Janson &
    Mackey 2020, section 3.2) and, when ``nested`` is given, nested
    cross-validation's difference interval (Bates, Hastie & Tibshirani
    2023). The evidence's regression rows (``"task": "regression"``) judge
    them as above; the CV-CLT test is not eligible where the CV-CLT interval
    of either learner's loss fell short of its coverage. R² and the root mean
    squared error of a squared-error record order the learners as the mean
    squared error does (R² = 1 - MSE / var(y), the same var(y) for both), so
    ``metric="r2"`` and ``metric="neg_root_mean_squared_error"`` give the
    mean squared error's decision, R²'s figures divided by var(y). While the benchmark has measured none, the decision
    rests on the first computed of nested CV (target: the models fitted to
    all the data), the corrected t (its variance term allows for the
    variation of training sets) and the CV-CLT (its target is the models
    fitted in these folds only), says that it is not calibrated, and shows
    the baseline: the trivial regressor that predicts the training mean
    (:func:`mean_baseline_test`), with a caveat for a learner that does
    not beat it.

    Examples
    --------
    >>> from sklearn.datasets import load_breast_cancer
    >>> from sklearn.naive_bayes import GaussianNB
    >>> from sklearn.tree import DecisionTreeClassifier
    >>> import cvinference as cvi
    >>> X, y = load_breast_cancer(return_X_y=True)
    >>> pair = cvi.CVEvaluator(cv=10, n_repeats=3, random_state=0).compare(
    ...     DecisionTreeClassifier(random_state=0), DecisionTreeClassifier(max_depth=1, random_state=0), X, y)
    >>> decision = cvi.decide(pair)
    >>> decision.answer in cvi.policy.ANSWERS
    True
    """
    alternative = margin_question(margin, alternative)
    check_pos_label(pos_label, pair)
    if margin is not None:
        check_margin(margin, metric, regression=not isinstance(pair, PairedCVResult) or pair.a.classes is None)
        return _on_margin(decide(pair, metric=metric, confidence_level=confidence_level, tests=tests, nested=nested,
                                 names=names, pos_label=pos_label), margin, alternative, pair)
    if isinstance(pair, PairedForwardResult):
        return _forward(pair, metric, confidence_level, tests, nested, names)
    if not isinstance(pair, PairedCVResult):
        raise TypeError(f"pair must be a PairedCVResult, as CVEvaluator(...).compare(estimator_a, estimator_b, X, y) "
                        f"makes, or a PairedForwardResult; got {type(pair).__name__}.")
    tests = checked_tests(tests, pair)
    check_nested(nested, pair)
    names = tuple(names) if names is not None else tuple(
        getattr(r, "name", None) or r.estimator_repr or label for r, label in ((pair.a, "A"), (pair.b, "B")))
    if _loss_equivalent(metric, pair.a):
        return _restated(decide(pair, confidence_level=confidence_level, tests=tests, nested=nested, names=names,
                                pos_label=pos_label), metric, pair.a.y_true)
    alpha = 1 - confidence_level
    limit = type_i_limit()
    learners = pair_learners(pair)
    if pair.a.n_splits == 1:
        _check_single_set_metric(pair, metric)
        if tests is not None or nested is not None:
            warnings.warn("tests and nested are not read on one evaluation set: the decision rests on the test whose "
                          "assumptions hold there by design (McNemar's, Obuchowski's with groups, the paired t of "
                          "losses for regressors). Drop them.", InferenceWarning,
                          stacklevel=first_caller_outside_package())
        return _single_set_decision(pair, names, confidence_level, metric)
    if pair.a.groups is not None and (metric == "accuracy" or (pair.a.classes is None and _is_loss_metric(
            metric, pair.a))):
        return _grouped_decision(pair, names, confidence_level, nested, limit)
    if pair.a.classes is None:
        return _regression_decision(pair, metric, names, confidence_level, nested, limit)
    unused = unused_inputs_warning(metric if isinstance(metric, str) else "a callable", tests, nested)
    if unused:
        warnings.warn(unused, InferenceWarning, stacklevel=2)
    if isinstance(metric, str) and metric in SCORE_METRICS:
        return _score_decision(pair, metric, names, confidence_level, limit, pos_label)
    tests = pair_tests(pair) if tests is None and metric == "accuracy" else (tests or [])
    candidates, metric_name, difference = _candidates(pair, metric, tests, nested, confidence_level, pos_label)
    task = label_task(metric_name)
    judged = [_judged(candidate, learners, pair.a.n_samples, limit, task, pair.a.n_repeats) for candidate in candidates]
    chosen = _choose(judged)
    context = tuple(_as_test(j, "context", _why_not(j, chosen)) for j in judged if j is not chosen)
    accuracy_difference = pair.a.accuracy - pair.b.accuracy if pair.a.classes is not None else math.nan
    if chosen is None:
        reasons = "; ".join(f"{j['candidate'][0]}: {j['why']}" for j in judged) or "no test applies"
        return Decision(
            answer="cannot tell", names=names, metric=metric_name, target=None, confidence_level=confidence_level,
            difference=float(difference), rests_on=None, context=context,
            reason=(f"No test computable here kept its type-I error at or below {limit:g} in "
                    f"{evidence_source()} for these learners at N = {pair.a.n_samples} ({reasons})."),
            route=_route(pair, metric_name, nested),
            caveats=(*_baseline_caveats(pair, names, alpha),
                     *_caveats(judged, None, metric_name, pair, accuracy_difference, "cannot tell")))
    rests_on = _as_test(chosen, "rests on", "")
    answer = _answer(rests_on, alpha)
    power = chosen["evidence"].power
    reason = (f"It rests on {rests_on.name}, the test whose type-I error the calibration benchmark measured at "
              f"{chosen['evidence'].type_i:.3f} (at most {limit:g}) for {chosen['regime']}"
              + (f", with power {power:.2f} on its power cells" if power is not None else "") + ".")
    return Decision(answer=answer, names=names, metric=metric_name, target=rests_on.target,
                    confidence_level=confidence_level, difference=float(difference), rests_on=rests_on,
                    context=context, reason=reason, route="",
                    caveats=(*_baseline_caveats(pair, names, alpha),
                             *_caveats(judged, chosen, metric_name, pair, accuracy_difference, answer)))
