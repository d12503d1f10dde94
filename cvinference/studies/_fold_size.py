"""Does it matter how a sample is cut into k folds? Wong's three approaches side by side (Wong 2015, 4.3.2)."""

import dataclasses
from fractions import Fraction

import numpy as np

from .._utils._describe import estimator_description
from .._utils._docstring import fill_doc
from .._utils._kinds import COUNT, LEVEL, POSITIVE, TEXT, Array, SameLength, Sequence, proportions
from .._utils._params import PROBABILITY, Integer, validate_params
from ..evaluation._partitions import Partitions
from ..inference._distributions import reference_quantile
from ..records._losses import get_loss
from ..splitters import EqualSizeKFold, RandomAssignmentKFold, RemainderLastKFold
from ._checkpoint import NotAbove, Proportion, Record, RowsSumTo
from ._draws import DrawPlan, draw_seeds, plan_draw, run_draws
from ._population import (
    STUDY_RULES,
    check_classes_in_sample,
    check_draws_fit,
    check_sample_size,
    population,
    rest_of_population,
    study_checkpoint,
)
from ._result import StudyResult

APPROACHES = ("random assignment (1)", "remainder last (2)", "equal sizes (3)")
"""Wong's three ways to cut a sample into k folds, in his order."""

_SPLITTERS = (RandomAssignmentKFold, RemainderLastKFold, EqualSizeKFold)
_STUDY = "fold_size_study"
_NOISE_STANDARD_ERRORS = 2
"""A difference between approaches smaller than this many standard errors is reported as Monte-Carlo noise."""


def fold_t_interval(fold_accuracy, confidence_level):
    """Wong's fold-level t interval on the last axis of ``fold_accuracy``: mean of p_j +- t_{k-1} s / sqrt(k).

    Clipped to [0, 1], as :func:`~cvinference.accuracy_interval` clips it.
    Returns ``(low, high)``, each of the shape of ``fold_accuracy`` without its last axis.
    """
    fold_accuracy = np.asarray(fold_accuracy, dtype=np.float64)
    k = fold_accuracy.shape[-1]
    estimate = fold_accuracy.mean(axis=-1)
    standard_error = np.sqrt(fold_accuracy.var(axis=-1, ddof=1) / k)
    half_width = reference_quantile((1 + confidence_level) / 2, k - 1) * standard_error
    return np.maximum(0.0, estimate - half_width), np.minimum(1.0, estimate + half_width)


def size_excess(fold_sizes):
    """mean_j(1/m_j) - k/n for each row of fold sizes, computed in exact fractions (so 0 exactly for equal sizes).

    By the inequality of the arithmetic and harmonic means it is never negative.
    """
    fold_sizes = np.asarray(fold_sizes)
    rows = fold_sizes.reshape(-1, fold_sizes.shape[-1])
    excess = [float(Fraction(sum(Fraction(1, int(m)) for m in sizes), len(sizes))
                    - Fraction(len(sizes), int(sizes.sum())))
              for sizes in rows]
    return np.array(excess, dtype=np.float64).reshape(fold_sizes.shape[:-1])


@dataclasses.dataclass(frozen=True, eq=False)
class FoldSizeStudyResult(StudyResult):
    """What :func:`fold_size_study` measured: per draw and approach, the fold sizes and correct counts.

    Attributes
    ----------
    approaches : tuple of str
        ``("random assignment (1)", "remainder last (2)", "equal sizes (3)")``.
    fold_sizes : ndarray of int, shape (n_draws, 3, n_splits)
        The size m_j of every fold, per draw and approach.
    fold_correct : ndarray of int, shape (n_draws, 3, n_splits)
        The correct out-of-fold predictions r_j in every fold.
    conditional_accuracy : ndarray of shape (n_draws,)
        The accuracy on the rest of the population of the model fitted to the
        whole sample (the same for every approach).
    confidence_level : float
        Of Wong's fold-level t interval.
    sample_size, n_splits, n_draws, population_size : int
    estimator : str

    The per-draw quantities behind the table are properties:
    ``fold_accuracy`` (n_draws, 3, n_splits), ``cv_accuracy``,
    ``fold_variance``, ``unequal_size_term``, ``interval_low``,
    ``interval_high``, ``covers_conditional``, ``covers_unconditional``
    (each (n_draws, 3)) and ``unconditional_accuracy``.
    """

    approaches: tuple
    fold_sizes: np.ndarray
    fold_correct: np.ndarray
    conditional_accuracy: np.ndarray
    confidence_level: float
    sample_size: int
    n_splits: int
    n_draws: int
    population_size: int
    estimator: str

    _kinds = {"approaches": Sequence(TEXT, min_length=1), "fold_sizes": Array("iu", ndim=3, low=0),
              "fold_correct": Array("iu", ndim=3, low=0), "conditional_accuracy": proportions(1),
              "confidence_level": LEVEL, "sample_size": POSITIVE, "n_splits": POSITIVE, "n_draws": POSITIVE,
              "population_size": POSITIVE, "estimator": TEXT}
    _rules = (SameLength("n_draws", "fold_sizes", "fold_correct", "conditional_accuracy"),
              SameLength("approaches", "fold_sizes", "fold_correct", axis=1),
              SameLength("n_splits", "fold_sizes", "fold_correct", axis=2))

    @property
    def fold_accuracy(self):
        """p_j = r_j / m_j, shape (n_draws, 3, n_splits)."""
        return self.fold_correct / self.fold_sizes

    @property
    def cv_accuracy(self):
        """The mean of the fold accuracies (Wong's fold-level averaging), shape (n_draws, 3)."""
        return self.fold_accuracy.mean(axis=-1)

    @property
    def fold_variance(self):
        """The sample variance (ddof=1) of the k fold accuracies, shape (n_draws, 3)."""
        return self.fold_accuracy.var(axis=-1, ddof=1)

    @property
    def unequal_size_term(self):
        """p (1 - p) (mean_j(1/m_j) - k/n) with p the draw's CV accuracy, shape (n_draws, 3)."""
        p = self.cv_accuracy
        return p * (1 - p) * size_excess(self.fold_sizes)

    @property
    def unconditional_accuracy(self):
        """The mean of the conditional accuracies over the draws."""
        return float(self.conditional_accuracy.mean())

    @property
    def interval_low(self):
        """Lower bound of Wong's fold-level t interval, shape (n_draws, 3)."""
        return fold_t_interval(self.fold_accuracy, self.confidence_level)[0]

    @property
    def interval_high(self):
        """Upper bound of Wong's fold-level t interval, shape (n_draws, 3)."""
        return fold_t_interval(self.fold_accuracy, self.confidence_level)[1]

    def _covers(self, truth):
        low, high = fold_t_interval(self.fold_accuracy, self.confidence_level)
        return (low <= truth) & (truth <= high)

    @property
    def covers_conditional(self):
        """Whether the interval holds the draw's conditional accuracy, shape (n_draws, 3)."""
        return self._covers(self.conditional_accuracy[:, np.newaxis])

    @property
    def covers_unconditional(self):
        """Whether the interval holds the unconditional accuracy, shape (n_draws, 3)."""
        return self._covers(self.unconditional_accuracy)

    def _title(self):
        return (f"Fold size study (Wong 2015, section 4.3.2): {self.estimator}, {self.n_draws} samples of "
                f"{self.sample_size} from {self.population_size} rows, {self.n_splits} folds; unconditional "
                f"accuracy {self.unconditional_accuracy:.4f}")

    def _columns(self):
        sizes = self.fold_sizes
        difference = self.cv_accuracy - self.conditional_accuracy[:, np.newaxis]
        return {
            "approach": list(self.approaches),
            "size_spread": (sizes.max(axis=-1) - sizes.min(axis=-1)).mean(axis=0).tolist(),
            "fold_accuracy_variance": self.fold_variance.mean(axis=0).tolist(),
            "unequal_size_variance": self.unequal_size_term.mean(axis=0).tolist(),
            "bias": difference.mean(axis=0).tolist(),
            "rmse": np.sqrt(np.square(difference).mean(axis=0)).tolist(),
            "sd_cv": self.cv_accuracy.std(axis=0, ddof=1).tolist(),
            "coverage_conditional": self.covers_conditional.mean(axis=0).tolist(),
            "coverage_unconditional": self.covers_unconditional.mean(axis=0).tolist(),
        }

    def variance_differences(self):
        """Each approach's mean fold-accuracy variance minus the smallest one's, with its standard error.

        The differences are paired (the approaches share the samples), so
        the standard error is the standard deviation over draws of the
        per-draw difference over sqrt(n_draws).

        Returns
        -------
        best : int
            The approach with the smallest mean fold-accuracy variance.
        difference, standard_error : ndarray of shape (3,)
            0 for ``best`` itself.
        """
        variance = self.fold_variance
        best = int(np.argmin(variance.mean(axis=0)))
        per_draw = variance - variance[:, [best]]
        return best, per_draw.mean(axis=0), per_draw.std(axis=0, ddof=1) / np.sqrt(self.n_draws)

    def _findings(self):
        columns = self._columns()
        best, difference, standard_error = self.variance_differences()
        comparisons, noise_only = [], True
        for a, name in enumerate(self.approaches):
            if a == best:
                continue
            if not (self.fold_variance[:, a] != self.fold_variance[:, best]).any():
                comparisons.append(f"{name} gave the same fold accuracies in every draw")
                continue
            within = difference[a] <= _NOISE_STANDARD_ERRORS * standard_error[a]
            noise_only &= bool(within)
            verdict = ("within Monte-Carlo noise" if within
                       else f"beyond Monte-Carlo noise: more than {_NOISE_STANDARD_ERRORS} standard errors")
            comparisons.append(f"{name} is {difference[a]:.3g} larger (standard error over draws of the paired "
                               f"difference {standard_error[a]:.2g}: {verdict})")
        if noise_only:
            comparisons.append(f"so over these {self.n_draws} draws the approaches do not differ in fold-accuracy "
                               "variance beyond Monte-Carlo noise")
        level = f"{100 * self.confidence_level:.10g}%"
        coverage = ", ".join(f"{c:.0%} / {u:.0%} for {name}" for name, c, u in zip(
            self.approaches, columns["coverage_conditional"], columns["coverage_unconditional"], strict=True))
        noise = np.sqrt(self.confidence_level * (1 - self.confidence_level) / self.n_draws)
        return [
            f"The smallest mean variance of the fold accuracies came from {self.approaches[best]} "
            f"({columns['fold_accuracy_variance'][best]:.3g}); " + "; ".join(comparisons) + ".",
            "By Wong's Theorem 1 (Var(p_j) = p(1-p)/m_j) unequal sizes add "
            + ", ".join(f"{v:.3g} for {name}"
                        for name, v in zip(self.approaches, columns["unequal_size_variance"], strict=True))
            + f" to the expected fold variance, against p(1-p)k/n of about "
            f"{np.mean(self.cv_accuracy * (1 - self.cv_accuracy)) * self.n_splits / self.sample_size:.3g} "
            "for equal sizes.",
            f"Wong's fold-level t interval ({level}) covered the conditional / unconditional accuracy in "
            f"{coverage} of the draws (a coverage of {level} would vary by about {noise:.1%} over "
            f"{self.n_draws} draws).",
            "Bias of the CV accuracy against the conditional accuracy: " + ", ".join(
                f"{b:+.4f} for {name}" for name, b in zip(self.approaches, columns["bias"], strict=True))
            + " (negative: pessimistic).",
        ]

    def _panels(self):
        return self._variance_panel, self._coverage_panel

    def _label_approaches(self, axis):
        """Name the approaches at their positions on the x axis (0, 1, ...), after what sets its own ticks."""
        axis.set_xticks(np.arange(len(self.approaches)))
        axis.set_xticklabels([name.replace(" (", "\n(") for name in self.approaches], fontsize="small")

    def _variance_panel(self, left):
        positions = np.arange(len(self.approaches))
        left.boxplot([self.fold_variance[:, a] for a in positions], positions=positions)
        p = self.cv_accuracy
        expected = p * (1 - p) * self.n_splits / self.sample_size + self.unequal_size_term
        left.plot(positions, expected.mean(axis=0), "D", color="C1", label="Theorem 1: mean p(1-p)/m_j")
        left.plot(positions, self.fold_variance.mean(axis=0), "o", color="C0", label="mean over draws")
        left.set(ylabel="sample variance of the fold accuracies", title=f"over {self.n_draws} samples")
        left.legend(fontsize="small")
        self._label_approaches(left)

    def _coverage_panel(self, right):
        positions = np.arange(len(self.approaches))
        columns = self._columns()
        width = 0.35
        right.bar(positions - width / 2, columns["coverage_conditional"], width, label="conditional accuracy")
        right.bar(positions + width / 2, columns["coverage_unconditional"], width, label="unconditional accuracy")
        right.axhline(self.confidence_level, color="black", linestyle="--", linewidth=1, label="nominal level")
        right.set(ylim=(0, 1.05), ylabel="coverage", title="fold-level t interval")
        right.legend(fontsize="small", loc="lower right")
        self._label_approaches(right)


def _approach_plans(X, y, seed, *, sample_size, n_splits, n_rows):
    """One draw's plan with one repeat per approach: the same sample, each approach's folds from the draw's seed.

    Every approach's splitter gets the same seed, so approaches (2) and (3)
    cut the same shuffled order (Wong: "the process of generating and sorting
    random numbers is the same as in approach (2)") and differ only in where.
    """
    def choose_sample(rng):
        return rng.choice(n_rows, sample_size, replace=False)

    plans = [plan_draw(X, y, seed, choose_sample=choose_sample, scored=rest_of_population(n_rows),
                       cv=splitter(n_splits), n_repeats=1, classifier=True)
             for splitter in _SPLITTERS]
    first = plans[0]
    partitions = Partitions(
        fold=np.concatenate([plan.partitions.fold for plan in plans]),
        n_splits=n_splits,
        cv_repr=", ".join(plan.partitions.cv_repr for plan in plans),
        irregular={(a, j): split
                   for a, plan in enumerate(plans) for (_, j), split in plan.partitions.irregular.items()},
    )
    return DrawPlan(sample=first.sample, partitions=partitions, scored=first.scored)


def _summarize(fits):
    """A draw's record: per approach the fold sizes and correct counts, and the conditional accuracy."""
    fold = fits.plan.partitions.fold
    k = fits.plan.partitions.n_splits
    correct = 1 - fits.cv_loss[0]
    return {
        "sizes": [np.bincount(row, minlength=k).tolist() for row in fold],
        "correct": [np.rint(np.bincount(row, weights=hits, minlength=k)).astype(int).tolist()
                    for row, hits in zip(fold, correct, strict=True)],
        "conditional": 1 - fits.truth[0].mean,
    }


def _record(*, sample_size, n_splits, population_size):
    """What :func:`_summarize` writes: per approach ``n_splits`` fold sizes adding up to the sample, and correct
    counts of at most each size; the conditional accuracy, a proportion of the rows outside the sample."""
    per_approach = Sequence(Sequence(COUNT, length=n_splits), length=len(_SPLITTERS))
    return Record(sizes=Sequence(Sequence(POSITIVE, length=n_splits), length=len(_SPLITTERS)), correct=per_approach,
                  conditional=Proportion(population_size - sample_size),
                  rules=(RowsSumTo("sizes", sample_size), NotAbove("correct", "sizes")))


@validate_params(**STUDY_RULES, n_splits=Integer(minimum=2), confidence_level=PROBABILITY)
@fill_doc
def fold_size_study(estimator, X, y, *, sample_size, n_splits=5, n_draws=100, confidence_level=0.95,
                    random_state=None, n_jobs=None, checkpoint=None, verbose=0):
    """Compare Wong's three ways of cutting a sample into k folds, on the same samples of a population.

    ``(X, y)`` plays the population. Each of ``n_draws`` draws takes
    ``sample_size`` instances without replacement and cross-validates the
    classifier on it three times, once per approach of Wong (2015, section
    4.3.2): (1) every instance to an independent random fold
    (:class:`~cvinference.splitters.RandomAssignmentKFold`), (2) the shuffled sample
    cut into folds of n // k with the remainder in the last fold
    (:class:`~cvinference.splitters.RemainderLastKFold`), (3) sizes that differ by at
    most one (:class:`~cvinference.EqualSizeKFold`, unstratified, so that
    only the sizes differ). A clone fitted once to the whole sample is scored
    on the rest of the population: the draw's conditional accuracy. Every fit
    of every draw and approach runs in one pool.

    Parameters
    ----------
    estimator : estimator instance
        A classifier; it is cloned, never fitted.
    X : array-like of shape (n_rows, n_features)
        The population (numpy, lists, pandas DataFrame or scipy sparse).
    y : array-like of shape (n_rows,)
        Its class labels.
    sample_size : int
        Instances per drawn sample (n); at least ``2 * n_splits``, and the
        rest of the population, at least one row, gives the truth.
    n_splits : int, default=5
        The number of folds k, at least 2 and at most ``sample_size / 2``.
    n_draws : int, default=100
        Number of samples, at least 2.
    confidence_level : float, default=0.95
        Of Wong's fold-level t interval whose coverage is measured.
    random_state : int, RandomState instance or None, default=None
        Seeds the samples and the partitions (one seed per draw, so the first
        draws do not depend on ``n_draws``); with an int the result is
        identical for any ``n_jobs``.
    %(n_jobs)s
    checkpoint : str or path-like, default=None
        A file in which finished draws are kept as they complete (replaced
        atomically); a run killed and restarted with the same arguments
        refits no finished draw and returns the same result. Needs an int
        ``random_state``; a file written with other arguments is refused
        (``confidence_level`` is not one of them: it changes no fit).
        The folder must be writable. Every draw's number and record are
        checked as the file is read; a file holding one the study did not
        write, or that cannot be read or written, is refused before any fit.
    verbose : int, default=0
        Above 0, a progress line on standard error.

    Returns
    -------
    FoldSizeStudyResult
        One row per approach: ``size_spread`` (mean over draws of the
        largest minus the smallest fold), ``fold_accuracy_variance`` (mean
        over draws of the sample variance of the k fold accuracies),
        ``unequal_size_variance`` (mean of p(1-p)(mean_j(1/m_j) - k/n)),
        ``bias`` and ``rmse`` of the CV accuracy against the conditional
        accuracy, ``sd_cv`` (its standard deviation over draws) and the
        coverage of the fold-level t interval of the conditional and of the
        unconditional accuracy.

    See Also
    --------
    accuracy_interval : ``averaging="fold", method="t"`` is the interval whose coverage is measured.

    Notes
    -----
    Wong (2015), section 4.3.2: by Theorem 1 the fold accuracy p_j = r_j /
    m_j is approximately N(p, p(1-p)/m_j), so the k fold accuracies share one
    distribution only when the sizes m_j are equal, which is why he
    recommends approach (3). For independent p_j with a common mean the
    expected sample variance (ddof=1) is the mean of their variances,
    p(1-p) mean_j(1/m_j); equal sizes give p(1-p) k/n, and
    ``unequal_size_variance`` is the difference, p(1-p)(mean_j(1/m_j) - k/n)
    with p the draw's CV accuracy (computed in exact fractions, so it is 0
    for approach (3) when k divides n; never negative, by the inequality of
    the arithmetic and harmonic means).

    The CV accuracy is Wong's fold-level mean of the p_j (section 4.3.3);
    the interval is that mean +- t_{k-1, (1+level)/2} s / sqrt(k), with s the
    sample standard deviation of the p_j (section 4.3.3, Example 1), clipped
    to [0, 1], as :func:`~cvinference.accuracy_interval` computes it with
    ``averaging="fold", method="t"``. The truth follows Vanwinckelen &
    Blockeel (2012), Algorithm 1: the conditional accuracy is that of the
    model fitted to the whole sample, measured on the rest of the population;
    the unconditional accuracy is its mean over the draws. ``sd_cv`` uses
    divisor ``n_draws - 1``.

    All approaches use the same samples and the same whole-sample fit, and
    each draw seeds every approach's splitter with one seed drawn from the
    draw's own, so the approach is the only difference between the rows;
    (2) and (3) even cut the same shuffled order, so when k divides n they
    make the same partition and their rows are equal. Approach (1) draws its
    assignment again when a fold comes out empty (see
    :class:`~cvinference.splitters.RandomAssignmentKFold`).

    Examples
    --------
    >>> from sklearn.datasets import make_classification
    >>> from sklearn.naive_bayes import GaussianNB
    >>> from cvinference.studies._fold_size import fold_size_study
    >>> X, y = make_classification(2000, 5, random_state=0)
    >>> study = fold_size_study(GaussianNB(), X, y, sample_size=203, n_splits=5, n_draws=3, random_state=0)
    >>> study.approaches
    ('random assignment (1)', 'remainder last (2)', 'equal sizes (3)')
    >>> sorted(study.fold_sizes[0, 1].tolist()), sorted(study.fold_sizes[0, 2].tolist())
    ([40, 40, 40, 40, 43], [40, 40, 41, 41, 41])
    >>> study.cv_accuracy.shape, study.conditional_accuracy.shape
    ((3, 3), (3,))
    """
    X, y, classes = population({"estimator": estimator}, X, y, needed_by=_STUDY)
    check_sample_size(sample_size, y.size, n_splits=n_splits, needed_by=_STUDY)
    check_classes_in_sample(y, sample_size, needed_by=_STUDY)
    arguments = {"sample_size": sample_size, "n_splits": n_splits, "n_draws": n_draws}
    check_draws_fit(arguments, plans_per_draw=len(_SPLITTERS))
    saved = study_checkpoint(checkpoint, random_state, study=_STUDY, estimators=[estimator], X=X, y=y,
                             arguments=arguments, n_draws=n_draws,
                             record=_record(sample_size=sample_size, n_splits=n_splits, population_size=y.size))
    plans = [_approach_plans(X, y, seed, sample_size=sample_size, n_splits=n_splits, n_rows=y.size)
             for seed in draw_seeds(random_state, n_draws)]
    records = run_draws([estimator], X, y, plans, names=["estimator"], loss=get_loss("zero_one"), classes=classes,
                        summarize=_summarize, checkpoint=saved, n_jobs=n_jobs, verbose=verbose)
    return FoldSizeStudyResult(
        approaches=APPROACHES,
        fold_sizes=np.array([record["sizes"] for record in records], dtype=np.int64),
        fold_correct=np.array([record["correct"] for record in records], dtype=np.int64),
        conditional_accuracy=np.array([record["conditional"] for record in records], dtype=np.float64),
        confidence_level=confidence_level, sample_size=sample_size, n_splits=n_splits, n_draws=n_draws,
        population_size=int(y.size), estimator=estimator_description(estimator),
    )
