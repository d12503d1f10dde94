"""Before any fit: a ranking metric computed per test fold finds every class in every test fold."""

import copy
import warnings

import numpy as np
from sklearn.utils import check_random_state

from .._utils._validation import check_target
from ..evaluation._partitions import draw_partitions
from ..inference._metric_interval import SCORE_METRICS

RANKING_METRICS = tuple(name for name, kind in SCORE_METRICS.items() if kind in ("roc_auc", "average_precision"))
"""The metric names whose value on a test fold needs every class in it (an AUC, an average precision)."""


class FoldWithoutClass(ValueError):
    """A test fold the cross-validation would draw holds no instance of a class a ranking ``metric`` needs.

    ``where`` says which fold lacks which class, and ``most_folds`` is the
    number of folds that puts every class in every test fold of the
    stratified split (None where no number of folds would, or the folds are
    not the stratified split's).
    """

    def __init__(self, metric, where, most_folds):
        fix = (f"use cv={most_folds} or fewer folds" if most_folds is not None else "use fewer folds")
        super().__init__(f"metric={metric!r} is computed on every test fold, and {where}; {fix}, or a metric of "
                         "predicted labels such as 'balanced_accuracy'.")
        self.metric, self.where, self.most_folds = metric, where, most_folds


def _first_fold_without_class(y, fold):
    """``(repeat, fold, missing classes)`` of the first test fold lacking a class of ``y``, or None."""
    classes = np.unique(y)
    for r, row in enumerate(fold):
        for j in range(int(row.max()) + 1):
            present = np.isin(classes, y[row == j])
            if not present.all():
                return r, j, classes[~present]
    return None


def check_classes_in_folds(metrics, cv, X, y, groups, *, n_repeats, random_state):
    """Refuse, before any fit, folds of a classifier where a test fold lacks a class a ranking metric needs.

    The partitions are drawn as the evaluator will draw them, so the check
    is exact: it returns the ``random_state`` to fit with, the one given, or
    for None (where the folds would draw from numpy's global generator: an
    int ``cv``, a shuffling splitter without a seed) a seed drawn from it
    once, so that the folds checked are the folds fitted; a splitter's own
    seed is left to it.

    Raises
    ------
    FoldWithoutClass
        Naming the fold, the class and the number of folds that would do.
    """
    ranking = [metric for metric in metrics if isinstance(metric, str) and metric in RANKING_METRICS]
    if not ranking:
        return random_state
    if random_state is None and getattr(cv, "random_state", None) is None:
        # what would draw from numpy's global generator (an int cv, a splitter without a seed) draws once, here
        random_state = int(check_random_state(None).randint(np.iinfo(np.int32).max))
    y = check_target(y, classification=True, needed_by=f"metric={ranking[0]!r}")
    drawn, splitter = copy.deepcopy(random_state), copy.deepcopy(cv)  # the evaluator draws from the originals
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # the splitter's own warnings come with the fits' draw
        partitions = draw_partitions(splitter, X, y, groups, n_repeats=n_repeats, random_state=drawn,
                                     classifier=True)
    found = _first_fold_without_class(y, partitions.fold)
    if found is None:
        return random_state
    repeat, fold, missing = found
    labels, counts = np.unique(y, return_counts=True)
    missing_counts = ", ".join(f"{int(counts[labels == label][0])} of class {label.item()!r}" for label in missing)
    where = (f"test fold {fold} of the {partitions.n_splits} in repeat {repeat} would hold no instance of class(es) "
             f"{[label.item() for label in missing]} (the {y.size} instances hold {missing_counts})")
    stratified = (isinstance(cv, int) or cv == "loo") and groups is None and int(counts.min()) >= 2
    raise FoldWithoutClass(ranking[0], where, int(counts.min()) if stratified else None)
