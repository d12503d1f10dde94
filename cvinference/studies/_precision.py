"""How precise is K-fold cross-validation: Nedel'ko's (2021) study on a real population."""

import dataclasses
import itertools
import math
import numbers

import numpy as np
from sklearn.utils import _safe_indexing, check_random_state

from .._utils._arrays import readonly_array
from .._utils._describe import estimator_description
from .._utils._docstring import fill_doc
from .._utils._kinds import POSITIVE, TEXT, TEXTS, Array, SameLength, non_negatives
from .._utils._params import Integer, validate_params
from .._utils._validation import check_predict_proba
from ..evaluation._fit_task import ScoredRows
from ..evaluation._loss_data import LossSpec
from ..records._losses import get_loss
from ..report._plot import set_wrapped_title
from ._checkpoint import FINITE_NON_NEGATIVE, Record
from ._draws import draw_seeds, plan_draw, run_draws
from ._population import (
    STUDY_RULES,
    check_classes_in_sample,
    check_draws_fit,
    check_sample_size,
    population,
    study_checkpoint,
)
from ._result import StudyResult

_NEEDED_BY = "precision_study"


def _check_folds(folds, sample_size):
    """``folds`` as a tuple of increasing ints from 2 to ``sample_size``."""
    example = "such as (2, 3, 5, 10)"
    if isinstance(folds, numbers.Integral) and not isinstance(folds, (bool, np.bool_)):
        folds = (folds,)
    if isinstance(folds, (str, bytes)) or not hasattr(folds, "__iter__"):
        raise TypeError(f"folds must be a sequence of numbers of folds, {example}; got folds={folds!r}.")
    values = list(folds)
    if not values or not all(isinstance(k, numbers.Integral) and not isinstance(k, (bool, np.bool_))
                             for k in values):
        raise TypeError(f"folds must be a non-empty sequence of integers, {example}; got folds={folds!r}.")
    values = [int(k) for k in values]
    if min(values) < 2 or max(values) > sample_size:
        raise ValueError(f"every number of folds must lie between 2 and sample_size={sample_size}; got "
                         f"folds={folds!r}. Pass folds {example}.")
    if any(b <= a for a, b in itertools.pairwise(values)):
        raise ValueError(f"folds must be strictly increasing, without repeats, {example}; got folds={folds!r}.")
    return tuple(values)


def _summarize_cv(fits):
    """One draw's record for one K: Nedel'ko's cross-validation statistics (section 2 and 3)."""
    cv_loss = fits.cv_loss[0]  # (n_repeats, N)
    fold = fits.plan.partitions.fold
    n_splits = fits.plan.partitions.n_splits
    cv_estimate = float(cv_loss.mean())
    fold_means = np.array([[row[ids == k].mean() for k in range(n_splits)]
                           for row, ids in zip(cv_loss, fold, strict=True)])
    return {
        "cv_loss": cv_estimate,
        "cv_std": float(np.sqrt(np.square(cv_loss - cv_estimate).mean())),
        "fold_std": float(fold_means.std(axis=1, ddof=1).mean()),
    }


def _summarize(fits):
    """One draw's record for the first K: also the whole-sample model's true and training loss (Table 1)."""
    truth = fits.truth[0]
    return {
        **_summarize_cv(fits),
        "true_loss": float(truth.mean),
        "true_std": float(truth.std),
        "train_loss": float(fits.sample_loss[0].mean()),
    }


_CV_KINDS = dict.fromkeys(("cv_loss", "cv_std", "fold_std"), FINITE_NON_NEGATIVE)
_CV_RECORD = Record(**_CV_KINDS)
"""What :func:`_summarize_cv` writes."""

_FIRST_RECORD = Record(**_CV_KINDS, **dict.fromkeys(("true_loss", "true_std", "train_loss"), FINITE_NON_NEGATIVE))
"""What :func:`_summarize` writes, for the first K."""


def _std_of_log(values, axis=0):
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.log(values).std(axis=axis)


@dataclasses.dataclass(frozen=True, eq=False)
class PrecisionStudyResult(StudyResult):
    """The precision of K-fold cross-validation, one row per K (Nedel'ko 2021, Tables 1-7).

    The per-draw arrays are kept; every column is computed from them.

    Attributes
    ----------
    estimator : str
        The estimator's repr.
    loss : str
        The loss's name.
    sample_size : int
        N, the size of each training sample.
    n_draws : int
        The number of training samples.
    n_repeats : int
        Cross-validation repeats per sample and K.
    population_size, test_size : int
        Rows of the population, and of its test half (where the truth is measured).
    folds : ndarray of int, shape (n_folds_values,)
        The numbers of folds K, one per row.
    cv_loss : ndarray of shape (n_draws, n_folds_values)
        K~_d: the cross-validation estimate (mean out-of-fold loss, averaged over repeats).
    cv_std : ndarray of shape (n_draws, n_folds_values)
        S~_d: the spread of the out-of-fold losses around K~_d.
    fold_std : ndarray of shape (n_draws, n_folds_values)
        S_folds,d: the sample standard deviation of the K fold means (averaged over repeats).
    true_loss : ndarray of shape (n_draws,)
        K_d: the mean loss on the test half of the model fitted to the whole sample.
    true_std : ndarray of shape (n_draws,)
        S_d: the standard deviation of that model's losses on the test half.
    train_loss : ndarray of shape (n_draws,)
        Kbar_d: that model's mean loss on its own sample.
    notes : tuple of str
        How the samples were drawn, and other caveats.
    """

    estimator: str
    loss: str
    sample_size: int
    n_draws: int
    n_repeats: int
    population_size: int
    test_size: int
    folds: np.ndarray
    cv_loss: np.ndarray
    cv_std: np.ndarray
    fold_std: np.ndarray
    true_loss: np.ndarray
    true_std: np.ndarray
    train_loss: np.ndarray
    notes: tuple = ()

    _kinds = {"estimator": TEXT, "loss": TEXT, "sample_size": POSITIVE, "n_draws": POSITIVE, "n_repeats": POSITIVE,
              "population_size": POSITIVE, "test_size": POSITIVE, "folds": Array("iu", ndim=1, low=2, min_rows=1),
              "cv_loss": non_negatives(2), "cv_std": non_negatives(2), "fold_std": non_negatives(2),
              "true_loss": non_negatives(1), "true_std": non_negatives(1), "train_loss": non_negatives(1),
              "notes": TEXTS}
    _rules = (SameLength("n_draws", "cv_loss", "cv_std", "fold_std", "true_loss", "true_std", "train_loss"),
              SameLength("folds", "cv_loss", "cv_std", "fold_std", axis=1))

    # Nedel'ko's Table 2-7 columns, one value per K.

    @property
    def bias_cv(self):
        """bias_CV = mean over draws of K~ - K, per K."""
        return (self.cv_loss - self.true_loss[:, None]).mean(axis=0)

    @property
    def err_cv(self):
        """err_CV = sqrt(mean over draws of (K~ - K)^2), per K."""
        return np.sqrt(np.square(self.cv_loss - self.true_loss[:, None]).mean(axis=0))

    @property
    def sigma_tilde(self):
        """sigma~ = standard deviation of K~ over draws (divisor n_draws), per K."""
        return self.cv_loss.std(axis=0)

    @property
    def kappa(self):
        """kappa = corr(K~, K) over draws (divisor n_draws), per K."""
        covariance = ((self.cv_loss - self.cv_loss.mean(axis=0)) * (self.true_loss - self.true_loss.mean())[:, None]
                      ).mean(axis=0)
        with np.errstate(divide="ignore", invalid="ignore"):
            return covariance / (self.sigma_tilde * self.sigma)

    @property
    def mean_s_tilde(self):
        """Mean of S~ over draws, per K."""
        return self.cv_std.mean(axis=0)

    @property
    def eps_s_tilde(self):
        """eps~_S = standard deviation of ln S~ over draws, per K."""
        return _std_of_log(self.cv_std)

    @property
    def s_folds(self):
        """Mean of S_folds over draws, per K."""
        return self.fold_std.mean(axis=0)

    @property
    def r_folds(self):
        """R_folds = standard deviation of ln S_folds over draws, per K."""
        return _std_of_log(self.fold_std)

    @property
    def half_sample_ratio(self):
        """err_CV / (mean S~ / sqrt(N/2)): Nedel'ko's closing rule says about 1."""
        return self.err_cv / (self.mean_s_tilde / math.sqrt(self.sample_size / 2))

    # Nedel'ko's Table 1 figures, the same for every K.

    @property
    def mean_train_loss(self):
        """E Kbar: the mean loss of the fitted model on its own sample."""
        return float(self.train_loss.mean())

    @property
    def mean_true_loss(self):
        """E K: the mean true loss."""
        return float(self.true_loss.mean())

    @property
    def sigma(self):
        """sigma = standard deviation of K over draws (divisor n_draws)."""
        return float(self.true_loss.std())

    @property
    def mean_s(self):
        """E S: the mean standard deviation of the loss on the test half."""
        return float(self.true_std.mean())

    @property
    def eps_s(self):
        """eps_S = standard deviation of ln S over draws."""
        return float(_std_of_log(self.true_std))

    @property
    def err_test(self):
        """sqrt(mean S^2 / N): the RMS error of the mean loss on an independent test sample of N."""
        return float(np.sqrt(np.square(self.true_std).mean() / self.sample_size))

    def _title(self):
        return (f"Precision of K-fold cross-validation (Nedel'ko 2021): {self.estimator}, loss={self.loss}, "
                f"N={self.sample_size}, {self.n_draws} draws, {self.n_repeats} repeat(s)")

    def _columns(self):
        rows = len(self.folds)
        per_k = {name: getattr(self, name).tolist() for name in (
            "bias_cv", "err_cv", "sigma_tilde", "kappa", "mean_s_tilde", "eps_s_tilde", "s_folds", "r_folds",
            "half_sample_ratio")}
        table1 = {name: [getattr(self, name)] * rows for name in (
            "mean_train_loss", "mean_true_loss", "sigma", "mean_s", "eps_s", "err_test")}
        return {"folds": [int(k) for k in self.folds], **per_k, **table1}

    def _findings(self):
        best = int(np.nanargmin(self.err_cv))
        findings = [
            f"Cross-validation's RMS error err_cv is smallest at K={int(self.folds[best])} "
            f"({self.err_cv[best]:.4g}); a test sample of the same size N={self.sample_size} would give "
            f"err_test={self.err_test:.4g}.",
            f"Nedel'ko's rule err_cv ~ S~ / sqrt(N/2) (a test sample of half the size) gives "
            f"err_cv / (S~ / sqrt(N/2)) from {np.nanmin(self.half_sample_ratio):.3g} to "
            f"{np.nanmax(self.half_sample_ratio):.3g} over K.",
            f"The models' mean loss on their own samples is {self.mean_train_loss:.4g}, their true loss "
            f"{self.mean_true_loss:.4g}.",
        ]
        return findings + list(self.notes)

    def _panels(self):
        return (self._precision_panel,)

    def _precision_panel(self, axis):
        k = np.asarray(self.folds)
        axis.plot(k, self.err_cv, "o-", label="err_cv")
        axis.plot(k, self.sigma_tilde, "s--", label="sigma~ (spread of the estimate)")
        axis.plot(k, np.abs(self.bias_cv), "^:", label="|bias_cv|")
        axis.plot(k, self.mean_s_tilde / math.sqrt(self.sample_size / 2), "x-.",
                  label="mean S~ / sqrt(N/2) (half-sample rule)")
        axis.axhline(self.err_test, color="black", linewidth=1, label="err_test (test sample of N)")
        axis.set_xscale("log")
        axis.set_xticks(k)
        axis.set_xticklabels([str(int(value)) for value in k])
        axis.set_xlabel("number of folds K")
        axis.set_ylabel(f"{self.loss}")
        set_wrapped_title(axis, [f"precision of K-fold cross-validation: {self.estimator}",
                                 f"N = {self.sample_size}, {self.n_draws} draws, {self.n_repeats} repeat(s)"])
        axis.legend(fontsize="small")


@validate_params(**STUDY_RULES, n_repeats=Integer(minimum=1), loss=LossSpec())
@fill_doc
def precision_study(estimator, X, y, *, sample_size, folds=(2, 3, 5, 10), n_repeats=1, loss="log_loss", n_draws=100,
                    random_state=None, n_jobs=None, checkpoint=None, verbose=0):
    """Measure how precise K-fold cross-validation is, for several K, on a population (Nedel'ko 2021).

    The population ``(X, y)`` is shuffled and split into a test half and a
    training half. ``n_draws`` training samples of ``sample_size`` rows (his
    N) come from the training half. On each sample and for each K in
    ``folds``, the learner is cross-validated (K~, the estimate); a model
    fitted to the whole sample (once, for every K) is scored on the test
    half (K, the truth the estimate aims at). Over the draws this gives the error of the estimate
    and its parts: bias, spread, and correlation with the truth.

    Parameters
    ----------
    estimator : estimator instance
        A classifier; cloned for every fit. With a loss on probabilities
        (the default) it needs ``predict_proba``.
    X : array-like or sparse matrix of shape (n_samples, n_features)
        The population's features.
    y : array-like of shape (n_samples,)
        The population's class labels.
    sample_size : int
        N, the rows of each training sample. At most half the population.
    folds : sequence of int, default=(2, 3, 5, 10)
        The numbers of folds K (increasing, each from 2 to ``sample_size``);
        one row of the result each. The folds are stratified.
    n_repeats : int, default=1
        Cross-validation repeats (new random folds) per sample and K; the
        estimate averages them (Nedel'ko's Tables 3, 5, 7 use 10).
    loss : str or Loss, default="log_loss"
        The per-instance loss: ``"log_loss"`` clips the probabilities to
        Nedel'ko's [0.001, 0.999] (:func:`~cvinference.records.make_log_loss`);
        also ``"zero_one"``, ``"brier"`` or any classification Loss.
    n_draws : int, default=100
        Training samples drawn (at least 2).
    random_state : int, RandomState instance or None, default=None
        Seeds the split of the population, the samples and the folds (not
        the estimator). The same samples serve every K.
    %(n_jobs)s
        The result does not depend on it.
    checkpoint : str, path-like or None, default=None
        A file that keeps finished draws; a restarted run with the same
        arguments (an int ``random_state``) refits none of them.
        The folder must be writable. Every draw's number and record are
        checked as the file is read; a file holding one the study did not
        write, or that cannot be read or written, is refused before any fit.
    verbose : int, default=0
        Above 0, a progress line per K (named) on standard error.

    Returns
    -------
    PrecisionStudyResult
        One row per K with ``bias_cv``, ``err_cv``, ``sigma_tilde``,
        ``kappa``, ``mean_s_tilde``, ``eps_s_tilde``, ``s_folds``,
        ``r_folds``, ``half_sample_ratio``, and the Table 1 figures
        ``mean_train_loss``, ``mean_true_loss``, ``sigma``, ``mean_s``,
        ``eps_s``, ``err_test`` (the same in every row, and attributes);
        the per-draw arrays ``cv_loss``, ``cv_std``, ``fold_std``,
        ``true_loss``, ``true_std``, ``train_loss``.

    Notes
    -----
    Nedel'ko (2021), "On the accuracy of cross-validation in the
    classification problem", Izvestiya Irkutsk State Univ. Ser. Math. 38.
    **Scheme** (section 4): the population is split in halves; the training
    half is divided into disjoint samples of N when ``n_draws * N`` fits in
    it, otherwise each sample is drawn from it without replacement,
    independently of the others (a note says so).

    Per draw d with sample V_N, L_i the out-of-fold loss of instance i
    (section 2) and L the loss of the model fitted to V_N:

    * K~_d = (1/N) sum_i L_i, the cross-validation estimate (section 2);
      with repeats, the mean of the repeats' estimates.
    * K_d = mean of L on the test half, the true loss K_Q(V_N) (section 2);
      Kbar_d = mean of L on V_N, the training loss (Table 1).
    * S_d = standard deviation of L on the test half, S_Q(V_N)
      (section 3).
    * S~_d = sqrt((1/N) sum_i (L_i - K~_d)^2) (section 3); with repeats,
      over all N x n_repeats out-of-fold losses around K~_d.
    * S_folds,d = sample standard deviation (divisor K - 1) of the K fold
      means of L_i (section 5, Table 2); with repeats, the average of the
      repeats' values. The paper does not say how it treats repeats.

    Over the draws, every standard deviation and the correlation use the
    divisor n_draws:

    * bias_cv = mean(K~ - K), err_cv = sqrt(mean((K~ - K)^2)),
      sigma~ = std(K~), sigma = std(K), kappa = corr(K~, K) (section 2),
      so that err_cv^2 = sigma~^2 + sigma^2 + bias_cv^2
      - 2 sigma~ sigma kappa holds exactly (section 2's decomposition).
    * eps~_S = std(ln S~), eps_S = std(ln S) (section 3), R_folds =
      std(ln S_folds) (Table 2). This reading of R_folds fits his numbers:
      for normal fold means, (K - 1) S_folds^2 / s^2 is chi-square with
      K - 1 degrees of freedom, so std(ln S_folds) = sqrt(psi'((K-1)/2)) / 2
      (psi' the trigamma function) = 0.641, 0.402, 0.249 for K = 3, 5, 10,
      against his Table 2's 0.642, 0.397, 0.250 (1.111 at K = 2, where he
      has 1.367).
    * err_test = sqrt(mean(S^2) / N), the RMS error of the mean loss on an
      independent test sample of N (Table 1: 0.637 / sqrt(1000) = 0.020,
      he prints 0.019).
    * half_sample_ratio = err_cv / (mean S~ / sqrt(N/2)): his closing rule
      (section 5 and 6) is that cross-validation is about as precise as a
      test sample of N/2, so this ratio is about 1 (1.07 at K = 10 in his
      Table 2, 0.91 in Table 4).

    The truth is measured on the test half, not on the distribution, so
    K_d and S_d carry an error of order S / sqrt(test half size), small
    next to cross-validation's when the population is much larger than N.

    Examples
    --------
    >>> from sklearn.datasets import make_classification
    >>> from sklearn.naive_bayes import GaussianNB
    >>> from cvinference.studies._precision import precision_study
    >>> X, y = make_classification(2000, 5, random_state=0)
    >>> result = precision_study(GaussianNB(), X, y, sample_size=60, folds=(2, 5), n_draws=5, random_state=0)
    >>> result.folds.tolist(), result.cv_loss.shape
    ([2, 5], (5, 2))
    >>> bool(abs(result.err_cv[1] ** 2 - (result.sigma_tilde[1] ** 2 + result.sigma ** 2 + result.bias_cv[1] ** 2
    ...      - 2 * result.sigma_tilde[1] * result.sigma * result.kappa[1])) < 1e-12)
    True
    """
    X, y, _ = population({"estimator": estimator}, X, y, needed_by=_NEEDED_BY)
    loss = get_loss(loss)
    if loss.classification is False:
        raise ValueError(f"loss={loss.name!r} needs a numeric target, and {_NEEDED_BY} measures classification "
                         "losses; pass loss='log_loss', 'zero_one' or 'brier'.")
    if loss.needs_proba:
        check_predict_proba(estimator, "estimator", loss.name)
    folds = _check_folds(folds, sample_size)
    n_rows = y.shape[0]
    test_size = n_rows // 2
    train_size = n_rows - test_size
    if sample_size > train_size:
        raise ValueError(
            f"sample_size={sample_size} exceeds the training half of the population ({train_size} of {n_rows} "
            f"rows; the other half measures the truth). Pass sample_size <= {train_size}, or a larger population.")
    check_sample_size(sample_size, train_size, n_splits=folds[-1], needed_by=_NEEDED_BY, rest_needed=0)
    check_classes_in_sample(y, sample_size, needed_by=_NEEDED_BY)
    arguments = {"sample_size": sample_size, "folds": folds, "n_repeats": n_repeats, "loss": loss, "n_draws": n_draws}
    check_draws_fit(arguments)
    store = study_checkpoint(
        checkpoint, random_state, study=_NEEDED_BY, estimators=[estimator], X=X, y=y, arguments=arguments,
        n_draws=n_draws, parts={f"K={k}": _CV_RECORD if k != folds[0] else _FIRST_RECORD for k in folds})

    rng = check_random_state(random_state)
    order = rng.permutation(n_rows)
    X, y = _safe_indexing(X, order), y[order]
    classes = np.unique(y)
    seeds = draw_seeds(rng, n_draws)
    disjoint = n_draws * sample_size <= train_size

    def chooser(draw):
        if disjoint:
            start = test_size + draw * sample_size
            return lambda rng: np.arange(start, start + sample_size)
        return lambda rng: test_size + rng.choice(train_size, sample_size, replace=False)

    def scored(sample):
        return ScoredRows(0, test_size)

    records = []
    for k in folds:
        first = not records  # the samples are the same for every K: fit and score the whole sample once
        plans = [plan_draw(X, y, seed, choose_sample=chooser(draw), scored=scored, cv=k, n_repeats=n_repeats,
                           classifier=True) for draw, seed in enumerate(seeds)]
        records.append(run_draws([estimator], X, y, plans, names=["estimator"], loss=loss, classes=classes,
                                 summarize=_summarize if first else _summarize_cv,
                                 checkpoint=None if store is None else store.part(f"K={k}"),
                                 n_jobs=n_jobs, verbose=verbose, whole_sample=first, label=f"K={k}"))

    def per_draw(key):
        return readonly_array([record[key] for record in records[0]], dtype=np.float64)

    def per_draw_and_k(key):
        return readonly_array([[by_k[draw][key] for by_k in records] for draw in range(n_draws)], dtype=np.float64)

    notes = [
        f"The training samples are {'disjoint pieces' if disjoint else 'independent draws without replacement'} "
        f"of the training half ({train_size} rows); the truth is measured on the test half ({test_size} rows)."
        + ("" if disjoint else f" n_draws * sample_size = {n_draws * sample_size} exceeds it, so samples overlap."),
    ]
    if n_repeats > 1:
        notes.append(f"With n_repeats={n_repeats}, K~ and S~ pool the repeats' out-of-fold losses, and S_folds is "
                     "the average of the repeats' fold-mean standard deviations.")
    cv_std, fold_std, true_std = per_draw_and_k("cv_std"), per_draw_and_k("fold_std"), per_draw("true_std")
    if min(cv_std.min(), fold_std.min(), true_std.min()) <= 0:
        notes.append("Some draws have a zero standard deviation (S~, S_folds or S), so the spread of its "
                     "logarithm (eps_s_tilde, r_folds or eps_s) is not finite.")
    return PrecisionStudyResult(
        estimator=estimator_description(estimator), loss=loss.name, sample_size=sample_size, n_draws=n_draws,
        n_repeats=n_repeats, population_size=n_rows, test_size=test_size,
        folds=readonly_array(folds, dtype=np.int64), cv_loss=per_draw_and_k("cv_loss"), cv_std=cv_std,
        fold_std=fold_std, true_loss=per_draw("true_loss"), true_std=true_std,
        train_loss=per_draw("train_loss"), notes=tuple(notes))
