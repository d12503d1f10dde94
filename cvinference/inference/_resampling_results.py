"""The results of the resampled comparisons: the Bayesian correlated t's posterior and the bootstrap's accuracy.

:class:`BayesianResult` holds the posterior of the mean difference of two
learners (Benavoli et al. 2017) and :class:`BootstrapResult` a bootstrap
estimate of one learner's accuracy (Efron & Tibshirani 1997); the intervals
and tests of the records are in :mod:`._results`.
"""

import dataclasses
import types

import numpy as np

from .._utils._docstring import fill_doc
from .._utils._kinds import (
    COUNT,
    LEVEL,
    NON_NEGATIVE,
    P_VALUE,
    POSITIVE,
    TEXT,
    TEXTS,
    Array,
    Fields,
    Number,
    Options,
    Ordered,
    SameLength,
)
from .._utils._notebook import summary_html
from .._utils._serialize import Serializable
from .._utils._text import format_level, format_number
from .._utils._upward import upward
from ._estimands import TARGET
from ._methods import result_label
from ._results import IntervalLike, _checked_when_made, _described


@dataclasses.dataclass(frozen=True, repr=False, eq=False)
class BayesianResult(Serializable):
    """The posterior of the mean difference in accuracy, and its three regions.

    Made by :func:`bayesian_correlated_ttest`. The posterior of the mean
    difference mu = accuracy(A) - accuracy(B) is Student's t with ``df``
    degrees of freedom, location ``posterior_mean`` and scale
    ``posterior_scale`` (a point mass when the scale is 0).

    Attributes
    ----------
    prob_a_better : float
        P(mu > margin): A is practically better.
    prob_equivalent : float
        P(-margin <= mu <= margin): practically equivalent (0 for ``margin=0``,
        unless the posterior is a point mass at 0).
    prob_b_better : float
        P(mu < -margin): B is practically better.
    posterior_mean : float
        The mean of the differences, A minus B.
    posterior_scale : float
        s sqrt(1 / n + rho / (1 - rho)).
    df : int
        n - 1, with n the number of differences.
    margin : float
        Half-width of the region of practical equivalence.
    rho : float
        The correlation of two differences, n_test / n (1/k for k-fold).
    method, estimand, assumptions : str
    target : str
        ``"unconditional"``: the expected difference of the two learners over
        datasets of the training size (Corani & Benavoli's model of the
        correlated differences, after Nadeau & Bengio 2003).
    details : mapping
        The differences ``d``, their ``variance`` and the layout (``k`` and
        ``r``, or ``n_rounds``).
    notes, warnings : tuple of str
    """

    prob_a_better: float
    prob_equivalent: float
    prob_b_better: float
    posterior_mean: float
    posterior_scale: float
    df: int
    margin: float
    rho: float
    method: str
    estimand: str
    assumptions: str
    target: str
    details: types.MappingProxyType = dataclasses.field(default_factory=lambda: types.MappingProxyType({}))
    notes: tuple = ()
    warnings: tuple = ()

    _kinds = {"prob_a_better": P_VALUE, "prob_equivalent": P_VALUE, "prob_b_better": P_VALUE,
              "posterior_scale": NON_NEGATIVE, "margin": NON_NEGATIVE, "rho": Number(0, 1, nan=False), "method": TEXT,
              "target": TARGET, "notes": TEXTS, "warnings": TEXTS}

    __post_init__ = _checked_when_made

    _repr_html_ = summary_html

    def __repr__(self):
        return (
            f"{type(self).__name__}(prob_a_better={format_number(self.prob_a_better)}, "
            f"prob_equivalent={format_number(self.prob_equivalent)}, "
            f"prob_b_better={format_number(self.prob_b_better)}, margin={self.margin})"
        )

    @property
    def label(self):
        """How reports name the test: its row's label in the table of methods (docs/methods.md), with its
        ``details["variant"]``; ``method`` is its id."""
        return result_label(self)

    def summary(self):
        """The three probabilities, the posterior, what it is about, and warnings.

        Returns
        -------
        str
        """
        return _described(self, [
            f"{result_label(self)} (margin = +-{self.margin:g} in accuracy): P(A better) = {self.prob_a_better:.3f}, "
            f"P(equivalent) = {self.prob_equivalent:.3f}, P(B better) = {self.prob_b_better:.3f}",
            f"posterior of accuracy A - accuracy B: Student t, df = {self.df}, location "
            f"{self.posterior_mean:+.4f}, scale {self.posterior_scale:.4f} (rho = {self.rho:.4g})",
        ])

    @fill_doc
    def plot(self, ax=None, *, path=None):
        """Draw the posterior of the difference with its three regions, each labelled with its probability, its area.

        Needs matplotlib.
        %(display)s
        ``ax=None`` draws on a small new figure (``cvinference.report.plot_posterior``).

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
        >>> from cvinference.results import BayesianResult
        >>> result = BayesianResult(prob_a_better=0.9, prob_equivalent=0.08, prob_b_better=0.02,
        ...                         posterior_mean=0.02, posterior_scale=0.01, df=9, margin=0.01, rho=0.1,
        ...                         method="Bayesian correlated t", estimand="", assumptions="",
        ...                         target="unconditional")
        >>> drawn = result.plot()
        >>> print(drawn.ax_.get_title())
        Bayesian correlated t (margin = +-0.01): the posterior of
          accuracy(A) - accuracy(B)
        >>> drawn.ax_.get_legend_handles_labels()[1]  # each region, filled, with its probability
        ['B better: 0.020', 'equivalent: 0.080', 'A better: 0.900']
        >>> plt.close(drawn.figure_)
        """
        return upward("report", "plot_posterior")(self, ax, path=path)


@dataclasses.dataclass(frozen=True, repr=False, eq=False)
class BootstrapResult(IntervalLike, Serializable):
    """A bootstrap estimate of a classifier's accuracy.

    Made by :func:`bootstrap_accuracy`. Every figure is an accuracy
    (1 - error), although Efron & Tibshirani (1997) state them as errors.

    Attributes
    ----------
    estimate : float
        The ``method``'s estimate of the accuracy.
    low, high : float
        The percentile interval of ``values`` at ``confidence_level``: the
        (1 - confidence_level)/2 and (1 + confidence_level)/2 quantiles
        (``numpy.quantile``, linear interpolation) of the finite values. A
        rough guide to the spread, not a confidence interval with known
        coverage (see :func:`bootstrap_accuracy`, Notes).
    confidence_level : float
    method : str
        ``".632"``, ``".632+"`` or ``"oob"``.
    values : ndarray of float, shape (n_bootstraps,)
        Read-only. The estimator recomputed with the out-of-bag accuracy of
        bootstrap b alone in place of the leave-one-out bootstrap accuracy
        (nan for a bootstrap that left no instance out).
    n_bootstraps : int
    n_samples : int
    stratify : bool
        Whether each bootstrap sample was drawn within classes.
    estimand : str
        In words, what is estimated.
    assumptions : str
        What the method assumes, separated by semicolons.
    target : str
        ``"conditional"``: Efron & Tibshirani (1997) define the error the
        bootstrap estimates as that of the rule fitted to this dataset.
    details : mapping
        Read-only: ``resubstitution_accuracy`` (1 - err, the full-data model
        on its own training data), ``loo_bootstrap_accuracy`` (1 - Err^(1),
        the ``"oob"`` estimate), ``no_information_accuracy`` (1 - gamma),
        ``relative_overfitting_rate`` (R', in [0, 1]), ``weight`` (w =
        .632 / (1 - .368 R')), ``accuracy_632`` and ``accuracy_632_plus``
        (both estimates, whichever ``method`` is), ``n_never_left_out``
        (instances in every bootstrap sample, dropped from Err^(1)) and
        ``n_empty_bootstraps`` (bootstraps that left no instance out).
    notes : tuple of str
        How the result was obtained.
    warnings : tuple of str
        Why the result may not be trusted; each was also issued as an
        :class:`InferenceWarning`.
    """

    estimate: float
    low: float
    high: float
    confidence_level: float
    method: str
    values: np.ndarray
    n_bootstraps: int
    n_samples: int
    stratify: bool
    estimand: str
    assumptions: str
    target: str
    details: types.MappingProxyType = dataclasses.field(default_factory=lambda: types.MappingProxyType({}))
    notes: tuple = ()
    warnings: tuple = ()

    _kinds = {"confidence_level": LEVEL, "method": Options(".632", ".632+", "oob"), "values": Array("f", ndim=1),
              "n_bootstraps": POSITIVE, "n_samples": POSITIVE, "target": TARGET, "notes": TEXTS, "warnings": TEXTS,
              "details": Fields(resubstitution_accuracy=P_VALUE, loo_bootstrap_accuracy=P_VALUE,
                                no_information_accuracy=P_VALUE, relative_overfitting_rate=P_VALUE,
                                weight=P_VALUE, accuracy_632=P_VALUE, accuracy_632_plus=P_VALUE,
                                n_never_left_out=COUNT, n_empty_bootstraps=COUNT)}
    _rules = (Ordered("low", "high"), SameLength("n_bootstraps", "values"))

    __post_init__ = _checked_when_made

    def _repr_extra(self):
        return f", n_bootstraps={self.n_bootstraps}"

    def summary(self):
        """The estimate, its parts, the percentile interval, what it estimates and assumes.

        Returns
        -------
        str
        """
        d = self.details
        drawn = "stratified bootstraps" if self.stratify else "bootstraps"
        lines = [
            f"{self.method} bootstrap accuracy: {format_number(self.estimate)} "
            f"({self.n_bootstraps} {drawn} of n = {self.n_samples})",
            f"{format_level(self.confidence_level)} percentile interval of the per-bootstrap values: "
            f"[{format_number(self.low)}, {format_number(self.high)}] (a rough guide, not a confidence "
            "interval with known coverage)",
            f"resubstitution accuracy {format_number(d['resubstitution_accuracy'])}, "
            f"leave-one-out bootstrap (oob) accuracy {format_number(d['loo_bootstrap_accuracy'])}, "
            f".632 {format_number(d['accuracy_632'])}, .632+ {format_number(d['accuracy_632_plus'])}",
            f"no-information accuracy {format_number(d['no_information_accuracy'])}, relative overfitting "
            f"rate R = {format_number(d['relative_overfitting_rate'])}, weight w = {format_number(d['weight'])}",
        ]
        return _described(self, lines)
