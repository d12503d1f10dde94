"""DeLong's variance of ROC AUCs from out-of-fold scores: one AUC, two paired AUCs, one-vs-rest macro AUC.

Pure functions of arrays: ``y_true`` (labels), ``y_score`` (a score per
instance, or one column per class) and, for the paired test, a second
score on the same instances. The AUCs equal ``sklearn.metrics.roc_auc_score``
(ties count 1/2); the variances are DeLong, DeLong & Clarke-Pearson's (1988)
from the structural components, computed with the midranks of Sun & Xu
(2014) in O(n log n).
"""

import dataclasses
import math
import types

import numpy as np
from scipy import stats

from .._utils._params import PROBABILITY, Options, validate_params
from .._utils._warnings import Messages
from ._accuracy_interval import Bounds, warned_bounds
from ._distributions import reference_quantile, statistic_and_pvalue
from ._parameters import ALTERNATIVE
from ._results import Interval, TestResult

TRANSFORMS = ("none", "logit")
"""How :func:`delong_interval` builds its interval: on the AUC scale, or on the logit scale and back."""

_DELONG_ASSUMPTIONS = (
    "instances independent given their class, the class counts fixed (DeLong et al. 1988); one scoring rule "
    "for all instances (out-of-fold scores come from k fold models, so the AUC pools them); normal "
    "approximation of the U-statistic"
)

_POOLED_ESTIMAND = (
    "ROC AUC of the out-of-fold scoring rule, each instance scored by the model fitted without its fold: the "
    "probability that a random positive outscores a random negative (ties 1/2) when each is scored by the model "
    "of its own fold (the k fold models' mixture); given the fitted models and this dataset, not averaged over "
    "training sets"
)


# --------------------------------------------------------------------------- checks


def _labels(y_true, name="y_true"):
    """``y_true`` as a 1-d array, and its sorted classes."""
    y_true = np.asarray(y_true)
    if y_true.ndim != 1 or y_true.size == 0:
        raise ValueError(f"{name} must be a non-empty 1-d array of class labels; got shape {y_true.shape}.")
    return y_true, np.unique(y_true)


def _scores(y_score, n_samples, name="y_score", n_columns=None):
    """``y_score`` as finite float64 of shape (n_samples,) or (n_samples, n_columns)."""
    y_score = np.asarray(y_score, dtype=np.float64)
    shape = (n_samples,) if n_columns is None else (n_samples, n_columns)
    if y_score.shape != shape:
        raise ValueError(f"{name} must have shape {shape}, one score per instance of y_true"
                         f"{'' if n_columns is None else ' and class'}; got shape {y_score.shape}.")
    if not np.isfinite(y_score).all():
        raise ValueError(f"{name} holds NaN or infinite scores; every instance needs a finite score.")
    return y_score


def _positive_mask(y_true, classes, pos_label):
    """Which instances are positive: ``y_true == pos_label`` (the larger class by default)."""
    if len(classes) != 2:
        raise ValueError(
            f"y_true must hold exactly two classes for a binary AUC; got {len(classes)} "
            f"({classes.tolist()[:10]}). A single class has no AUC; for more than two use the one-vs-rest "
            "macro AUC (delong_ovr_macro)."
        )
    if pos_label is None:
        pos_label = classes[1]
    elif pos_label not in classes:
        raise ValueError(f"pos_label={pos_label!r} is not one of the classes in y_true, {classes.tolist()}.")
    return y_true == pos_label


def _check_two_each(positive, what="y_true"):
    m, n = int(positive.sum()), int((~positive).sum())
    if m < 2 or n < 2:
        raise ValueError(
            f"DeLong's variance needs at least two positive and two negative instances in {what} (it "
            f"estimates the spread of each class's placements); got {m} positive and {n} negative."
        )
    return m, n


# --------------------------------------------------------------------------- placements


def placements(positive, y_score):
    """DeLong's structural components of the AUC of ``y_score`` for the boolean labels ``positive``.

    Returns ``(auc, v10, v01)``: ``v10[i]`` is the share of negatives that
    positive i outscores (ties 1/2), ``v01[j]`` the share of positives that
    outscore negative j; the AUC is the mean of either.

    Examples
    --------
    >>> import numpy as np
    >>> auc, v10, v01 = placements(np.array([True, True, False, False]), np.array([0.9, 0.4, 0.4, 0.1]))
    >>> auc, v10.tolist(), v01.tolist()
    (0.875, [1.0, 0.75], [0.75, 1.0])
    """
    m, n = int(positive.sum()), int((~positive).sum())
    overall = stats.rankdata(y_score)  # midranks: ties get the mean of their ranks
    within_x = stats.rankdata(y_score[positive])
    within_y = stats.rankdata(y_score[~positive])
    v10 = (overall[positive] - within_x) / n
    v01 = 1.0 - (overall[~positive] - within_y) / m
    auc = float((overall[positive].sum() - m * (m + 1) / 2) / (m * n))
    return auc, v10, v01


def _influence(positive, v10, v01):
    """Each instance's first-order term of the AUC: v10 / m for a positive, v01 / n for a negative."""
    phi = np.empty(positive.shape)
    phi[positive] = v10 / v10.size
    phi[~positive] = v01 / v01.size
    return phi


def _stratified_variance(phi, groups):
    """sum over classes g of n_g * (sample variance of phi within g): the variance of sum_i phi_i.

    With phi from :func:`_influence`, this is DeLong's S10 / m + S01 / n;
    with a difference or a mean of such phi, the variance of that
    difference or mean, covariances included.
    """
    total = 0.0
    for g in np.unique(groups):
        values = phi[groups == g]
        if np.ptp(values) > 16 * np.finfo(float).eps * np.abs(values).max():  # equal up to rounding: exactly 0
            total += values.size * float(values.var(ddof=1))
    return total


# --------------------------------------------------------------------------- results


@dataclasses.dataclass(frozen=True)
class AUCVariance:
    """An AUC, DeLong's variance of it, and each instance's first-order term.

    Attributes
    ----------
    auc : float
        The AUC (ties count 1/2), as ``sklearn.metrics.roc_auc_score``; the
        one-vs-rest macro AUC for three classes or more.
    variance : float
        DeLong's S10 / m + S01 / n (for a macro AUC, its generalisation; see
        :func:`delong_auc`).
    class_counts : tuple of int
        Instances per class (for two classes: negatives, positives).
    class_aucs : tuple of float
        The one-vs-rest AUC of each class (one value for two classes).
    """

    auc: float
    variance: float
    class_counts: tuple
    class_aucs: tuple
    _phi: np.ndarray = dataclasses.field(repr=False, compare=False)
    _groups: np.ndarray = dataclasses.field(repr=False, compare=False)

    @property
    def standard_error(self):
        return math.sqrt(self.variance)


def _binary_terms(y_true, classes, y_score, pos_label, name):
    positive = _positive_mask(y_true, classes, pos_label)
    _check_two_each(positive)
    auc, v10, v01 = placements(positive, _scores(y_score, y_true.size, name))
    counts = (int((~positive).sum()), int(positive.sum()))
    return auc, _influence(positive, v10, v01), positive, counts, (auc,)


def _ovr_terms(y_true, classes, y_score, name):
    """The macro AUC and each instance's first-order term of it (see :func:`delong_auc`)."""
    counts = tuple(int((y_true == label).sum()) for label in classes)
    if min(counts) < 2:
        raise ValueError(f"DeLong's variance needs at least two instances of every class in y_true; class "
                         f"{classes[int(np.argmin(counts))]!r} has {min(counts)}.")
    y_score = _scores(y_score, y_true.size, name, len(classes))
    aucs, phi = [], np.zeros(y_true.size)
    for c, label in enumerate(classes):
        positive = y_true == label
        auc, v10, v01 = placements(positive, y_score[:, c])
        aucs.append(auc)
        phi += _influence(positive, v10, v01)
    return float(np.mean(aucs)), phi / len(classes), y_true, counts, tuple(aucs)


def _multiclass_classes(present, classes):
    classes = present if classes is None else np.asarray(classes)
    if not np.array_equal(np.sort(classes), present):
        raise ValueError(
            f"classes must list every class of y_true once, in the columns' order; y_true holds "
            f"{present.tolist()} and classes={classes.tolist()}. A one-vs-rest AUC needs instances of each class."
        )
    return classes


def auc_terms(y_true, y_score, *, pos_label=None, classes=None, name="y_score"):
    """The AUC (binary, or one-vs-rest macro for a 2-d ``y_score``) and its DeLong terms; see :func:`delong_auc`."""
    y_true, present = _labels(y_true)
    if np.ndim(y_score) == 1:
        terms = _binary_terms(y_true, present, y_score, pos_label, name)
    elif np.ndim(y_score) == 2 and len(present) >= 3:
        terms = _ovr_terms(y_true, _multiclass_classes(present, classes), y_score, name)
    else:
        raise ValueError(
            f"{name} must be 1-d (the positive class's scores) when y_true holds two classes, or 2-d with one "
            f"column per class for three classes or more; got shape {np.shape(y_score)} with classes "
            f"{present.tolist()[:10]}. For two classes pass the positive class's column, y_score[:, 1]."
        )
    auc, phi, groups, counts, aucs = terms
    return AUCVariance(auc=auc, variance=_stratified_variance(phi, groups), class_counts=counts,
                       class_aucs=aucs, _phi=phi, _groups=groups)


def delong_auc(y_true, y_score, *, pos_label=None, classes=None):
    """ROC AUC and DeLong's variance; the one-vs-rest macro AUC for three classes or more.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        Two classes, or three or more; at least two instances of each.
    y_score : array-like of shape (n_samples,) or (n_samples, n_classes)
        For two classes, the scores of the positive class (higher means
        more positive: a probability, a decision value). For three or more,
        one column per class, in the order of ``classes``.
    pos_label : label, default=None
        Two classes: the class ``y_score`` scores; the larger of the two by
        default, as sklearn's ``roc_auc_score``.
    classes : array-like, default=None
        Three classes or more: the classes in column order; the sorted
        labels of ``y_true`` by default (as sklearn, and as a record's
        ``classes``).

    Returns
    -------
    AUCVariance
        ``auc``, ``variance``, ``standard_error``, ``class_counts``,
        ``class_aucs``.

    Raises
    ------
    ValueError
        When ``y_true`` holds one class (no AUC), fewer than two instances
        of a class (no variance), or ``y_score`` has the wrong shape.

    Notes
    -----
    DeLong, DeLong & Clarke-Pearson (1988), "Comparing the areas under two
    or more correlated receiver operating characteristic curves: a
    nonparametric approach", Biometrics 44:837-845, section 2. With the m
    positives' scores X_i, the n negatives' Y_j and psi(X, Y) = 1 if X > Y,
    1/2 if X = Y, 0 otherwise, the AUC is the Mann-Whitney U-statistic
    theta = (1 / mn) sum_i sum_j psi(X_i, Y_j); its structural components
    are V10(X_i) = (1/n) sum_j psi(X_i, Y_j) and V01(Y_j) = (1/m) sum_i
    psi(X_i, Y_j), S10 and S01 their sample variances (divisors m - 1 and
    n - 1), and Var(theta) is estimated by S10 / m + S01 / n.

    The components come from midranks in O(n log n) (Sun & Xu 2014, "Fast
    implementation of DeLong's algorithm for comparing the areas under
    correlated receiver operating characteristic curves", IEEE Signal
    Processing Letters 21(11):1389-1393, section III): with T_Z the midranks
    of all m + n scores, T_X those of the positives among themselves and
    T_Y of the negatives, V10(X_i) = (T_Z(X_i) - T_X(X_i)) / n and V01(Y_j)
    = 1 - (T_Z(Y_j) - T_Y(Y_j)) / m. pROC's ``var(roc)`` (R/delong.R and
    src/delong.cpp) computes the same.

    Three classes or more: the one-vs-rest macro AUC is the mean of the K
    AUCs theta_c (class c positive, the rest negative), as
    ``roc_auc_score(y_true, y_score, multi_class="ovr", average="macro")``
    (which also asks the rows to sum to 1; this function accepts any
    scores). Every instance enters every theta_c, as a positive of its own
    class and a negative of the others, so the theta_c are correlated and
    the sum of the K DeLong variances over K^2 is not the variance of their
    mean. Given the class counts n_g (as DeLong et al. condition on m and
    n), theta_c is a K-sample U-statistic (a fixed mixture, weights n_g /
    (N - n_c), of the two-sample statistics of class c against each class
    g), whose first-order (Hoeffding) projection on instance i is V10_c(i)
    / n_c when i is in class c and V01_c(i) / (N - n_c) otherwise, with
    DeLong's components of column c. For independent samples of K classes
    the variance of sum_i phi_i is sum_g n_g Var_g(phi) (the multi-sample
    U-statistic theory of Sen 1960, "On some convergence properties of
    U-statistics", Calcutta Statistical Association Bulletin 10:1-18, which
    DeLong et al. build on), so with phi_i = (1/K) sum_c [projection of
    theta_c on i] the variance of the macro AUC is estimated by sum_g n_g
    s_g^2(phi), s_g^2 the sample variance (divisor n_g - 1) of phi within
    class g. With two classes the same sum is DeLong's S10 / m + S01 / n,
    and with phi_A - phi_B it is the variance of a difference of two
    learners' AUCs (:func:`delong_paired_test`), all covariances included.

    Examples
    --------
    >>> result = delong_auc([0, 0, 0, 1, 1, 1], [0.1, 0.4, 0.35, 0.8, 0.4, 0.9])
    >>> round(result.auc, 4), round(result.variance, 5)
    (0.9444, 0.00617)
    """
    return auc_terms(y_true, y_score, pos_label=pos_label, classes=classes)


def _logit_bounds(auc, standard_error, critical):
    """The interval on logit(AUC) with the delta-method standard error se / (AUC (1 - AUC)), mapped back."""
    center = math.log(auc / (1 - auc))
    half_width = critical * standard_error / (auc * (1 - auc))
    return 1 / (1 + math.exp(-(center - half_width))), 1 / (1 + math.exp(-(center + half_width)))


def _auc_bounds(auc, standard_error, confidence_level, transform, messages):
    """Two-sided normal Bounds of an AUC on the AUC or the logit scale; degenerate and clipped cases warned."""
    critical = reference_quantile((1 + confidence_level) / 2, None)
    if standard_error == 0:
        messages.warn(
            f"DeLong's variance is 0 (AUC {auc:.4g}: every positive outscores every negative, or none does, "
            "or all scores are tied), so the interval is degenerate, [AUC, AUC]; it does not mean the AUC is "
            "known exactly. More instances, or the fold-level interval, say more."
        )
        return Bounds(auc, auc, standard_error, critical)
    if transform == "logit":
        return Bounds(*_logit_bounds(auc, standard_error, critical), standard_error, critical)
    return warned_bounds(auc, standard_error, confidence_level, None, messages, limits=(0.0, 1.0), what="AUC",
                         advice="pROC's ci.auc clips it too; near 0 or 1 the AUC scale is a poor approximation: "
                                "transform='logit' keeps the interval inside (0, 1).")


@validate_params(confidence_level=PROBABILITY, transform=Options(*TRANSFORMS))
def delong_interval(y_true, y_score, *, confidence_level=0.95, transform="none", pos_label=None, classes=None,
                    estimand=None):
    """DeLong confidence interval for the ROC AUC of pooled out-of-fold scores.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        Two classes, or three or more (one-vs-rest macro AUC).
    y_score : array-like of shape (n_samples,) or (n_samples, n_classes)
        One repeat's out-of-fold scores: of the positive class for two
        classes, one column per class otherwise (see :func:`delong_auc`).
    confidence_level : float, default=0.95
        The confidence level of the two-sided interval.
    transform : {"none", "logit"}, default="none"
        ``"none"``: AUC +- z se, clipped to [0, 1] (pROC's
        ``ci.auc(method="delong")``). ``"logit"``: logit(AUC) +- z se /
        (AUC (1 - AUC)), mapped back; it stays inside (0, 1).
    pos_label : label, default=None
        Two classes: the class ``y_score`` scores; the larger by default.
    classes : array-like, default=None
        Three classes or more: the classes in column order.
    estimand : str, optional
        What the interval covers, in words; by default the pooled
        out-of-fold AUC's (the integrator may name the training size).

    Returns
    -------
    Interval
        ``method`` ``"delong"`` or ``"delong-logit"``, ``averaging``
        ``"dataset"``, ``target`` ``"kfold"``; ``details`` hold
        ``variance``, ``class_counts``, ``class_aucs`` and ``transform``.

    Warns
    -----
    InferenceWarning
        When the variance is 0 (AUC 0 or 1, or all scores tied): the
        interval is [AUC, AUC]. When the ``"none"`` interval is clipped to
        [0, 1].

    Notes
    -----
    The variance is DeLong et al.'s (1988, section 2) S10 / m + S01 / n, or
    its one-vs-rest macro form (see :func:`delong_auc`); the interval is
    AUC +- z_{1-alpha/2} sqrt(Var), clipped to [0, 1], as pROC's
    ``ci_auc_delong`` (R/delong.R). This AUC-scale interval is the default
    so that the numbers agree with pROC, the reference users check
    against. Near AUC = 1 it is symmetric where the sampling distribution
    is not, and gets clipped (with a warning); the logit form (the delta
    method on log(AUC / (1 - AUC)), which pROC's source mentions, citing
    Pepe 2003, p. 107) is asymmetric and stays inside (0, 1).
    ``benchmarks/calibration.py`` measured the AUC-scale interval on pooled
    cross-validated scores (``metric_interval(..., method="delong")``), not
    the logit form (docs/calibration.md, ROC AUC). At AUC = 0 or 1 the
    variance is 0 on both scales: the interval is the point, with a warning.

    What it covers. DeLong's variance treats the scores as made by one
    scoring rule, given, and the instances as independent. Out-of-fold
    scores come from the k models fitted in the folds, which differ in
    calibration, so the pooled AUC compares a positive scored by one fold's
    model with a negative scored by another's: it estimates the AUC of the
    k models' mixture (each instance scored by the model of its fold),
    conditional on those fitted models, roughly the k-fold target
    (``"kfold"``), and below the fold models' own AUCs when their
    calibrations differ. The variance leaves out the variation of the
    models over training sets; for the expected AUC of the learner trained
    on n (k - 1) / k instances use the fold-level corrected t
    (:func:`corrected_fold_interval`).

    Examples
    --------
    >>> import numpy as np
    >>> rng = np.random.default_rng(0)
    >>> y = np.repeat([0, 1], 50)
    >>> score = rng.normal(y, 1.0)  # positives score one standard deviation higher
    >>> interval = delong_interval(y, score)
    >>> interval
    Interval(estimate=0.7408, low=0.645, high=0.8366, confidence_level=0.95, method='delong')
    >>> delong_interval(y, score, transform="logit")
    Interval(estimate=0.7408, low=0.6344, high=0.8248, confidence_level=0.95, method='delong')
    """
    messages = Messages()
    result = auc_terms(y_true, y_score, pos_label=pos_label, classes=classes)
    bounds = _auc_bounds(result.auc, result.standard_error, confidence_level, transform, messages)
    messages.note(f"DeLong's variance {result.variance:.4g} with class counts {list(result.class_counts)} "
                  "(DeLong et al. 1988, section 2)")
    macro = len(result.class_aucs) > 1
    return Interval(
        estimate=result.auc, low=bounds.low, high=bounds.high, confidence_level=confidence_level,
        method="delong",
        estimand=estimand or _pooled_estimand(macro), assumptions=_DELONG_ASSUMPTIONS, target="kfold",
        details={"averaging": "dataset", "standard_error": result.standard_error,
                 "critical_value": bounds.critical_value, "n": sum(result.class_counts), "clipped": bounds.clipped,
                 "variance": result.variance, "class_counts": result.class_counts,
                 "class_aucs": result.class_aucs, "transform": transform},
        notes=tuple(messages.notes), warnings=tuple(messages.warnings),
    )


def _pooled_estimand(macro):
    return ("one-vs-rest macro " if macro else "") + _POOLED_ESTIMAND


# --------------------------------------------------------------------------- two paired AUCs


@validate_params(alternative=ALTERNATIVE)
def delong_paired_test(y_true, score_a, score_b, *, alternative="two-sided", pos_label=None, classes=None,
                       estimand=None):
    """DeLong's test of two correlated AUCs on the same instances (pROC's paired ``roc.test``).

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        Two classes, or three or more (one-vs-rest macro AUCs).
    score_a, score_b : array-like of shape (n_samples,) or (n_samples, n_classes)
        Learner A's and B's scores for the same instances (out-of-fold, on
        identical folds), shaped as ``y_score`` of :func:`delong_auc`.
    alternative : {"two-sided", "less", "greater"}, default="two-sided"
        The alternative to AUC(A) = AUC(B); ``"greater"`` is "A has the
        larger AUC".
    pos_label : label, default=None
        Two classes: the class the scores score; the larger by default.
    classes : array-like, default=None
        Three classes or more: the classes in column order.
    estimand : str, optional
        What the test is about, in words; a pooled-scores default.

    Returns
    -------
    TestResult
        ``statistic`` (z), ``pvalue``, ``estimate`` (AUC(A) - AUC(B)),
        ``standard_error``, ``method`` ``"DeLong paired z"``, ``target``
        ``"kfold"``, and ``confidence_interval()`` (the normal interval of
        the difference). ``details``: ``auc_a``, ``auc_b``, ``variance_a``,
        ``variance_b``, ``covariance``.

    Warns
    -----
    InferenceWarning
        When the difference has variance 0 (z = 0 and p = 1 when the AUCs
        are equal, as pROC's ``roc.test`` of a curve with itself).

    Notes
    -----
    DeLong et al. (1988), section 2: the two AUCs are U-statistics on the
    same m positives and n negatives, with structural components V10^A,
    V10^B, V01^A, V01^B; the covariance matrix of (theta_A, theta_B) is
    S = S10 / m + S01 / n, with S10 (S01) the 2 x 2 sample covariance
    matrix of the positives' (negatives') components, and the contrast
    L = (1, -1) has variance L S L' = Var_A + Var_B - 2 Cov_AB. The
    statistic is z = (theta_A - theta_B) / sqrt(L S L'), referred to the
    standard normal, and the interval of the difference is (theta_A -
    theta_B) +- z_{1-alpha/2} sqrt(L S L'); pROC's
    ``roc.test(method="delong", paired=TRUE)`` (R/delong.R,
    ``delong.paired.calculations``) computes the same. For macro AUCs, the
    same contrast of the per-instance terms of :func:`delong_auc`: sum_g
    n_g s_g^2(phi_A - phi_B), covariances between learners and between
    classes included.

    What it covers: as :func:`delong_interval`, the difference of the two
    learners' pooled out-of-fold AUCs, given the fitted fold models
    (target ``"kfold"``); the variation of training sets is left out. The
    fold-level corrected t (:func:`corrected_fold_test`) is about the
    learners' expected AUCs instead.

    Examples
    --------
    >>> y = [0, 0, 0, 0, 1, 1, 1, 1]
    >>> a = [0.1, 0.2, 0.6, 0.3, 0.8, 0.7, 0.4, 0.9]
    >>> b = [0.3, 0.1, 0.2, 0.7, 0.6, 0.4, 0.5, 0.8]
    >>> test = delong_paired_test(y, a, b)
    >>> round(test.estimate, 4), round(test.statistic, 3), round(test.pvalue, 3)
    (0.125, 0.548, 0.584)
    """
    terms_a = auc_terms(y_true, score_a, pos_label=pos_label, classes=classes, name="score_a")
    terms_b = auc_terms(y_true, score_b, pos_label=pos_label, classes=classes, name="score_b")
    variance = _stratified_variance(terms_a._phi - terms_b._phi, terms_a._groups)
    covariance = (terms_a.variance + terms_b.variance - variance) / 2
    estimate = terms_a.auc - terms_b.auc
    standard_error = math.sqrt(max(variance, 0.0))
    messages = Messages()
    statistic, pvalue = statistic_and_pvalue(estimate, standard_error, None, alternative, messages)
    messages.note(f"AUC(A) = {terms_a.auc:.4g}, AUC(B) = {terms_b.auc:.4g}, DeLong covariance {covariance:.4g}, "
                  f"correlation {_correlation(covariance, terms_a.variance, terms_b.variance)}")
    macro = len(terms_a.class_aucs) > 1
    return TestResult(
        statistic=statistic, pvalue=pvalue, df=None, alternative=alternative, estimate=estimate,
        standard_error=standard_error, method="delong-paired",
        estimand=estimand or f"difference (A minus B) in {_pooled_estimand(macro)}; on identical folds",
        assumptions=_DELONG_ASSUMPTIONS, target="kfold", _interval_standard_error=standard_error,
        details=types.MappingProxyType({"auc_a": terms_a.auc, "auc_b": terms_b.auc, "variance_a": terms_a.variance,
                                        "variance_b": terms_b.variance, "covariance": covariance,
                                        "difference": "AUC A - AUC B",
                                        **({"variant": "one-vs-rest macro"} if macro else {})}),
        notes=tuple(messages.notes), warnings=tuple(messages.warnings),
    )


def _correlation(covariance, variance_a, variance_b):
    if variance_a > 0 and variance_b > 0:
        return f"{covariance / math.sqrt(variance_a * variance_b):.3g}"
    return "undefined (a variance is 0)"
