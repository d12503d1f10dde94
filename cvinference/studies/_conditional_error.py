"""Does repeated cross-validation estimate the conditional or the unconditional error? (Vanwinckelen & Blockeel 5.1)"""

import dataclasses

import numpy as np

from .._utils._describe import estimator_description
from .._utils._docstring import fill_doc
from .._utils._kinds import NON_NEGATIVE, P_VALUE, POSITIVE, TEXT, SameLength, proportions
from .._utils._params import Integer, Options, validate_params
from ._population import STUDY_RULES
from ._result import StudyResult
from ._vanwinckelen import cumulative_mean, n_splits_of, repeat_counts, run_algorithm_1


@dataclasses.dataclass(frozen=True, eq=False)
class ConditionalErrorStudyResult(StudyResult):
    """What :func:`conditional_error_study` measured.

    Attributes
    ----------
    conditional_error : ndarray of shape (n_draws,)
        Per draw, the error on the rest of the population of the model fitted
        to the whole sample (eps_c, Vanwinckelen & Blockeel, Definition 5).
    unconditional_error : float
        Their mean (eps_u, Definition 6).
    repeat_error : ndarray of shape (n_draws, max_repeats)
        Per draw, the error estimated by each repetition of cross-validation alone.
    cv_error : ndarray of shape (n_draws, max_repeats)
        Per draw, the repeated cross-validation estimate after r repetitions
        (the mean of the first r columns of ``repeat_error``; Definition 10).
    internal_variance : float
        E_T[Var_pi(eps^)]: the variance of one repetition's estimate over
        partitions of the same sample, averaged over draws (Definition 13).
    sample_variance : float
        Var_T(E_pi[eps^]): the variance over draws of each draw's estimate
        averaged over its ``max_repeats`` partitions (Definition 14).
    conditional_error_variance : float
        Var_T(eps_c), the sample variance of the conditional error (Definition 15).
    bias : float
        E_{T,pi}[eps^ - eps_c] (Definition 16), the same against eps_u.
    sample_size, n_splits, n_draws : int
    estimator : str
    """

    conditional_error: np.ndarray
    unconditional_error: float
    repeat_error: np.ndarray
    cv_error: np.ndarray
    internal_variance: float
    sample_variance: float
    conditional_error_variance: float
    bias: float
    sample_size: int
    n_splits: int
    n_draws: int
    estimator: str

    _kinds = {"conditional_error": proportions(1), "unconditional_error": P_VALUE, "repeat_error": proportions(2),
              "cv_error": proportions(2), "internal_variance": NON_NEGATIVE, "sample_variance": NON_NEGATIVE,
              "conditional_error_variance": NON_NEGATIVE, "sample_size": POSITIVE, "n_splits": POSITIVE,
              "n_draws": POSITIVE, "estimator": TEXT}
    _rules = (SameLength("n_draws", "conditional_error", "repeat_error", "cv_error"),)

    @property
    def max_repeats(self):
        return self.cv_error.shape[1]

    @validate_params(against=Options("conditional", "unconditional"))
    def rmse(self, against="conditional"):
        """The root mean squared difference between the r-times repeated estimate and the truth, for every r.

        Parameters
        ----------
        against : {"conditional", "unconditional"}
            The truth compared with: each draw's conditional error, or their mean.

        Returns
        -------
        ndarray of shape (max_repeats,)
        """
        truth = self.conditional_error[:, None] if against == "conditional" else self.unconditional_error
        return np.sqrt(np.mean(np.square(self.cv_error - truth), axis=0))

    def _title(self):
        return (f"Conditional error study (Vanwinckelen & Blockeel 2012, section 5.1): {self.estimator}, "
                f"{self.n_draws} samples of {self.sample_size}, {self.n_splits}-fold cross-validation repeated up "
                f"to {self.max_repeats} times; unconditional error {self.unconditional_error:.4f}")

    def _columns(self):
        counts = repeat_counts(self.max_repeats)
        index = [r - 1 for r in counts]
        conditional, unconditional = self.rmse("conditional"), self.rmse("unconditional")
        return {
            "repeats": counts,
            "mean_cv_error": [float(self.cv_error[:, i].mean()) for i in index],
            "bias": [float((self.cv_error[:, i] - self.conditional_error).mean()) for i in index],
            "rmse_conditional": [float(conditional[i]) for i in index],
            "rmse_unconditional": [float(unconditional[i]) for i in index],
        }

    def _findings(self):
        total = self.internal_variance + self.sample_variance
        share = self.internal_variance / total if total > 0 else float("nan")
        last = self.max_repeats - 1
        return [
            f"After {self.max_repeats} repetitions the estimate is {self.rmse('conditional')[last]:.4f} (RMS) from "
            f"the conditional error and {self.rmse('unconditional')[last]:.4f} from the unconditional error, "
            f"against {self.rmse('conditional')[0]:.4f} and {self.rmse('unconditional')[0]:.4f} after one: "
            "repetition removes the internal variance only.",
            f"The internal variance ({self.internal_variance:.3g}) is {share:.0%} of the total variance of one "
            f"repetition's estimate; the sample variance ({self.sample_variance:.3g}) is the rest, and one dataset "
            "cannot show it.",
            f"Bias against the conditional error: {self.bias:+.4f} (positive: pessimistic).",
        ]

    def _panels(self):
        return self._cv_error_panel, self._rmse_panel

    def _cv_error_panel(self, left):
        repeats = np.arange(1, self.max_repeats + 1)
        for d in range(min(4, self.n_draws)):
            color = f"C{d}"
            left.plot(repeats, self.cv_error[d], color=color, label=f"sample {d}: repeated CV")
            left.axhline(self.conditional_error[d], color=color, linestyle="--", linewidth=1)
        left.axhline(self.unconditional_error, color="black", linestyle=":", label="unconditional")
        left.set(xlabel="repetitions", ylabel="error", title="CV error (solid) and conditional error (dashed)")
        left.legend(fontsize="small")

    def _rmse_panel(self, right):
        repeats = np.arange(1, self.max_repeats + 1)
        right.plot(repeats, self.rmse("conditional"), label="against the conditional error")
        right.plot(repeats, self.rmse("unconditional"), label="against the unconditional error")
        right.set(xlabel="repetitions", ylabel="RMS difference", title=f"over {self.n_draws} samples")
        right.legend(fontsize="small")


@validate_params(**STUDY_RULES, max_repeats=Integer(minimum=1))
@fill_doc
def conditional_error_study(estimator, X, y, *, sample_size, n_draws=100, cv=10, max_repeats=30, random_state=None,
                            n_jobs=None, checkpoint=None, verbose=0):
    """Measure what repeated cross-validation estimates: the conditional error, the unconditional one, or neither.

    ``(X, y)`` plays the population. Each of ``n_draws`` draws takes
    ``sample_size`` instances without replacement; the learner is
    cross-validated on the sample ``max_repeats`` times (each on a new random
    partition), and a clone fitted to the whole sample is scored on the rest
    of the population: its conditional error. All the fits run in one pool.

    Parameters
    ----------
    estimator : estimator instance
        A classifier; it is cloned, never fitted.
    X : array-like of shape (n_rows, n_features)
        The population (numpy, lists, pandas DataFrame or scipy sparse).
    y : array-like of shape (n_rows,)
        Its class labels.
    sample_size : int
        Instances per drawn sample (N); the rest of the population, at
        least one row, gives the truth.
    n_draws : int, default=100
        Number of samples, at least 2.
    cv : int or splitter, default=10
        The cross-validation: an int k means stratified equal-size k-fold; a
        splitter must shuffle and have a ``random_state`` (it is reseeded per
        repetition).
    max_repeats : int, default=30
        Repetitions of the cross-validation on every sample.
    random_state : int, RandomState instance or None, default=None
        Seeds the samples and the partitions (one seed per draw, so the first
        draws do not depend on ``n_draws``); with an int the result is
        identical for any ``n_jobs``.
    %(n_jobs)s
    checkpoint : str or path-like, default=None
        A file in which finished draws are kept as they complete (replaced
        atomically); a run killed and restarted with the same arguments
        refits no finished draw and returns the same result. Needs an int
        ``random_state``; a file written with other arguments is refused.
        The folder must be writable. Every draw's number and record are
        checked as the file is read; a file holding one the study did not
        write, or that cannot be read or written, is refused before any fit.
    verbose : int, default=0
        Above 0, a progress line on standard error: draws done, time spent,
        time left.

    Returns
    -------
    ConditionalErrorStudyResult

    See Also
    --------
    winner_table : how often cross-validation picks the better of two learners.

    Notes
    -----
    Vanwinckelen & Blockeel (2012), section 5.1, Algorithm 1, with their
    definitions: eps_c(L, T) is the error of the model learned from T
    (Definition 5), estimated on D \\ T; eps_u(L, N) is its mean over
    samples (Definition 6); the n-times repeated k-fold estimate averages n
    k-fold estimates on independent random partitions (Definitions 8, 10).
    Their section 3 splits the variance of the estimator eps^ with the law
    of total variance, Var(eps^) = Var_s(E_pi[eps^]) + E_T[Var_pi(eps^)]:
    the internal variance Var_pi over partitions of one sample (Definition
    13, estimated per draw with divisor ``max_repeats - 1`` and averaged over
    draws; NaN with one repetition) and the sample variance over samples of
    the partition-averaged estimate (Definition 14, divisor ``n_draws - 1``,
    with E_pi estimated by the mean over ``max_repeats`` partitions). The bias
    is E_{T,pi}[eps^ - eps] (Definition 16); as eps_u is the mean of eps_c
    over the same draws, it is the same number against either. Repetition
    shrinks the internal variance only, so the estimate converges to
    E_pi[eps^], which their Figure 2 shows to differ from both eps_c and eps_u.

    Examples
    --------
    >>> from sklearn.datasets import make_classification
    >>> from sklearn.naive_bayes import GaussianNB
    >>> from cvinference import conditional_error_study
    >>> X, y = make_classification(2000, 5, random_state=0)
    >>> study = conditional_error_study(GaussianNB(), X, y, sample_size=100, n_draws=4, cv=5, max_repeats=3,
    ...                                 random_state=0)
    >>> study.cv_error.shape, study.conditional_error.shape
    ((4, 3), (4,))
    >>> bool(study.unconditional_error == study.conditional_error.mean())
    True
    """
    conditional, repeat_error = run_algorithm_1(
        {"estimator": estimator}, X, y, study="conditional_error_study", sample_size=sample_size, n_draws=n_draws,
        cv=cv, n_repeats=max_repeats, random_state=random_state, n_jobs=n_jobs, checkpoint=checkpoint,
        verbose=verbose, arguments={"sample_size": sample_size, "n_draws": n_draws, "cv": cv,
                                    "max_repeats": max_repeats})
    return study_result(conditional[:, 0], repeat_error[:, 0, :], sample_size=sample_size, n_splits=n_splits_of(cv),
                        estimator=estimator_description(estimator))


def study_result(conditional, repeat_error, *, sample_size, n_splits, estimator):
    """The study's quantities from one learner's conditional errors (n_draws,) and repeat errors (n_draws, repeats).

    Also builds the study of each learner of a :func:`winner_table`, whose
    draws hold the same two arrays per learner.
    """
    cv_error = cumulative_mean(repeat_error)
    max_repeats = repeat_error.shape[1]
    internal = float(np.mean(np.var(repeat_error, axis=1, ddof=1))) if max_repeats > 1 else float("nan")
    return ConditionalErrorStudyResult(
        conditional_error=conditional, unconditional_error=float(conditional.mean()), repeat_error=repeat_error,
        cv_error=cv_error, internal_variance=internal, sample_variance=float(np.var(cv_error[:, -1], ddof=1)),
        conditional_error_variance=float(np.var(conditional, ddof=1)),
        bias=float(np.mean(repeat_error - conditional[:, None])), sample_size=sample_size,
        n_splits=n_splits, n_draws=conditional.shape[0], estimator=estimator,
    )
