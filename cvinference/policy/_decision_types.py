"""What a decision is: :class:`Decision`, the tests it weighed (:class:`DecisionTest`) and the answers it gives.

:func:`~cvinference.policy.decide` makes these objects; this module holds their fields, their rules and their
payloads, and ``_decision_text`` writes them in words.
"""

import dataclasses
import math

from .._utils._docstring import fill_doc
from .._utils._kinds import BOOLEAN, LEVEL, NON_NEGATIVE, P_VALUE, TEXT, TEXTS, Instance, Options, Ordered, Sequence
from .._utils._notebook import summary_html
from .._utils._params import Nullable
from .._utils._serialize import Serializable
from .._utils._text import bounds_text, format_pvalue
from .._utils._upward import upward
from ..inference._estimands import TARGET
from ..inference._methods import method_ids
from ._decide_inputs import EstimateWithin
from ._decision_text import explanation as decision_explanation
from ._decision_text import paragraph as decision_paragraph
from ._decision_text import summary as decision_summary
from ._detectable import POWER, minimum_detectable_difference
from ._margin import MARGIN_ALTERNATIVES, MARGIN_ANSWERS, margin_answer, relevelled, symmetric

ANSWERS = ("A better", "B better", "no difference shown", "cannot tell",
           *(answer for answers in MARGIN_ANSWERS.values() for answer in answers.values()))
"""The answers a :class:`Decision` can give, its ``answer``: of a difference, then of a margin (``margin=``)."""


def answer_of(test, alpha):
    if not test.pvalue < alpha or test.estimate == 0:
        return "no difference shown"
    return "A better" if test.estimate > 0 else "B better"


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
    method : str or None, default=None
        The test's id in the table of methods (docs/methods.md), as its
        result's ``method`` names it: ``"corrected-t"``; None for a test no
        row computes. The ``name`` is for reading; this is for code.
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
    method: str | None = None

    _kinds = {"name": TEXT, "method": Nullable(Options(*method_ids())),
              "pvalue": P_VALUE, "target": TARGET, "measured_type_i": Nullable(P_VALUE),
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
    on" (every other test's "context"), and whose estimate and p-value give that answer (:func:`answer_of`)."""
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
    question, margin = values["question"], values["margin"]
    question = question or ("difference" if margin is None else "non-inferior")
    if (margin is None) != (question == "difference"):
        raise ValueError(f"{owner}.question={question!r} and {owner}.margin={margin!r} disagree: a margin "
                         f"answers 'non-inferior' or 'equivalent', and a difference has no margin. {fix}")
    if rests_on is None:
        given = None
    elif margin is None:
        given = answer_of(rests_on, 1 - values["confidence_level"])
    else:
        given = margin_answer(rests_on.estimate, rests_on.low, rests_on.high, rests_on.df,
                              confidence_level=values["confidence_level"], margin=margin,
                              question=question).answer
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
    question : {"difference", "non-inferior", "equivalent"}, default="difference"
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
    question: str = "difference"
    margin: float | None = None
    minimum_detectable_difference: float | None = dataclasses.field(init=False, default=None)

    _kinds = {"answer": Options(*ANSWERS), "names": Sequence(TEXT, length=2), "metric": TEXT,
              "target": Nullable(TARGET), "confidence_level": LEVEL, "rests_on": Nullable(Instance(DecisionTest)),
              "context": Sequence(Instance(DecisionTest)), "caveats": TEXTS, "lower_is_better": BOOLEAN,
              "question": Options("difference", *MARGIN_ALTERNATIVES), "margin": Nullable(NON_NEGATIVE),
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
    def margin_interval(self):
        """About a margin: the 1 - 2 alpha interval ``(low, high)`` of the test the decision rests on, which the
        margin's two one-sided tests read (Schuirmann 1987); None without a margin, a test or a symmetric interval."""
        test = self.rests_on
        if self.margin is None or test is None or not symmetric(test.estimate, test.low, test.high):
            return None
        level = 1 - 2 * self.alpha
        low, high, _ = relevelled(test.estimate, test.low, test.high, test.df, self.confidence_level, level)
        return low, high

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
        %(plot_ax)s
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
