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

from .._utils._params import NAMES, PROBABILITY, ClassLabel, Nullable, validate_params
from .._utils._params import Options as Choice
from ..records import PairedCVResult, PairedForwardResult
from ._cells import CELL_FOLDS, DECISION_TESTS, cell_choice, front_door_choice
from ._decide_inputs import check_nested, check_pos_label, checked_tests
from ._decision_types import ANSWERS, Decision, DecisionTest
from ._judging import cluster_paired_name
from ._margin import MARGIN_ALTERNATIVES, check_margin
from ._regimes import REGIMES, Request, dispatch, notes
from ._regimes._forward import forward_metrics
from ._regimes._labels import pair_tests
from ._regimes._margin import MARGIN, margin_question
from ._regimes._single_set import SINGLE_SET_REGIME
from ._routes import label_task

__all__ = ["ANSWERS", "CELL_FOLDS", "DECISION_TESTS", "MARGIN", "REGIMES", "SINGLE_SET_REGIME", "Decision",
           "DecisionTest", "cell_choice", "cluster_paired_name", "decide", "forward_metrics", "front_door_choice",
           "label_task", "margin_question", "pair_tests"]


def _listing_regimes(function):
    """Write the regimes of the dispatch table, in order, at the placeholder named ``regimes`` of ``function``'s
    docstring."""
    function.__doc__ = function.__doc__.replace("%(regimes)s", notes(indent="    "))
    return function


@validate_params(confidence_level=PROBABILITY, names=NAMES, pos_label=Nullable(ClassLabel()),
                 margin=Nullable(MARGIN),
                 question=Nullable(Choice("difference", *MARGIN_ALTERNATIVES)))
@_listing_regimes
def decide(pair, *, metric="accuracy", confidence_level=0.95, tests=None, nested=None, names=None, pos_label=None,
           margin=None, question=None):
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
        With ``question``: the margin, positive, in the metric's units
        (for a loss, an increase of it), below the width of the metric's
        range where it has one (below 1 for accuracy, F1 or ROC AUC: 0.01
        is one point); a margin no difference can reach is refused.
    question : {"difference", "non-inferior", "equivalent"} or None, default=None
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

    **Regimes.** ``decide`` dispatches on a table of regimes, one module each
    (``cvinference.policy._regimes``); the first, in this order, that applies
    to the records and the question decides:

%(regimes)s

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
    question = margin_question(margin, question)
    check_pos_label(pos_label, pair)
    if margin is not None:
        check_margin(margin, metric, regression=not isinstance(pair, PairedCVResult) or pair.a.classes is None)
    if not isinstance(pair, PairedForwardResult):
        if not isinstance(pair, PairedCVResult):
            raise TypeError(f"pair must be a PairedCVResult, as CVEvaluator(...).compare(estimator_a, estimator_b, X, "
                            f"y) makes, or a PairedForwardResult; got {type(pair).__name__}.")
        tests = checked_tests(tests, pair)
        check_nested(nested, pair)
        names = tuple(names) if names is not None else tuple(
            getattr(r, "name", None) or r.estimator_repr or label for r, label in ((pair.a, "A"), (pair.b, "B")))
    return dispatch(Request(pair, metric, confidence_level, tests, nested, names, pos_label, margin, question))
