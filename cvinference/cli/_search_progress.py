"""A grid search that draws the library's progress line, a few candidates at a time (imported when used)."""

import math

import numpy as np
from joblib import effective_n_jobs
from sklearn.model_selection import GridSearchCV, ParameterGrid

from .._utils._progress import Progress


class ProgressGridSearchCV(GridSearchCV):
    """``GridSearchCV`` whose ``fit`` steps a :class:`Progress` line as its candidates' splits are done.

    ``_run_search`` is scikit-learn's extension point for the order of the
    candidates: here it evaluates the grid's candidates in their usual order,
    a few at a time (enough for two fits per job in each call, so that the
    jobs stay busy), so that ``cv_results_`` is the plain search's.
    """

    def __init__(self, estimator, param_grid, *, scoring=None, n_jobs=None, refit=True, cv=None,
                 error_score=np.nan, n_fits_per_candidate=1):
        super().__init__(estimator, param_grid, scoring=scoring, n_jobs=n_jobs, refit=refit, cv=cv,
                         error_score=error_score)
        self.n_fits_per_candidate = n_fits_per_candidate

    def _run_search(self, evaluate_candidates):
        candidates = list(ParameterGrid(self.param_grid))
        per_call = max(1, math.ceil(2 * effective_n_jobs(self.n_jobs) / self.n_fits_per_candidate))
        progress = Progress(len(candidates) * self.n_fits_per_candidate, verbose=1)
        for start in range(0, len(candidates), per_call):
            chunk = candidates[start:start + per_call]
            evaluate_candidates(chunk)
            for _ in range(len(chunk) * self.n_fits_per_candidate):
                progress.step()
