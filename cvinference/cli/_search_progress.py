"""A grid search that draws the library's progress line: one candidate's fits at a time (imported when used)."""

import numpy as np
from sklearn.model_selection import GridSearchCV, ParameterGrid

from .._utils._progress import Progress


class ProgressGridSearchCV(GridSearchCV):
    """``GridSearchCV`` whose ``fit`` steps a :class:`Progress` line after each candidate's splits.

    ``_run_search`` is scikit-learn's extension point for the order of the
    candidates: here it evaluates the grid's candidates in their usual order,
    one at a time (each candidate's splits still run in parallel), so that
    ``cv_results_`` is the plain search's.
    """

    def __init__(self, estimator, param_grid, *, scoring=None, n_jobs=None, refit=True, cv=None,
                 error_score=np.nan, n_fits_per_candidate=1):
        super().__init__(estimator, param_grid, scoring=scoring, n_jobs=n_jobs, refit=refit, cv=cv,
                         error_score=error_score)
        self.n_fits_per_candidate = n_fits_per_candidate

    def _run_search(self, evaluate_candidates):
        candidates = list(ParameterGrid(self.param_grid))
        progress = Progress(len(candidates) * self.n_fits_per_candidate, verbose=1)
        for candidate in candidates:
            evaluate_candidates([candidate])
            for _ in range(self.n_fits_per_candidate):
                progress.step()
